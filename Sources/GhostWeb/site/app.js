// The web client's entry: the connection, the page's language, the keys, and
// the server's events to the screens that show them.
import { Conn, socketURL } from './protocol.js';
import { applyI18n, setLang, t, uiLang } from './i18n.js';
import { $, announce, debug, el, errText, forgetToken, link, loadSession, named, notice, S, send, show, whoShow } from './ui.js';
import { drawKinds, onWaiting, setupFields } from './setup.js';
import { drawActions, drawMoves, drawPlayers, drawStatus, logLine, newGame, onAborted, onAdjourned, onClaimable, onGame, onInfo, onMatch, onMove, onOffer, onOfferEnd, onOver, onRematch, onReturned, onTurn, playLetter, toMenu } from './game.js';
import { listBack } from './lists.js';
import { drawAccount } from './settings.js';
import { chatForGame, chatKey, inviteKey, onInvite, onInviteDeclined, onPresence, onSaid, onWithdrawn, redrawSocial } from './social.js';

// ---- Connection ---------------------------------------------------------------

const conn = new Conn(socketURL(location), { onOpen, onEvent, onClose, onRetry }, debug);
link.conn = conn;

function setConn(state) {
  const c = $('conn');
  c.dataset.state = state;
  c.textContent = t(state);
}

async function onOpen(hello) {
  setConn('connected');
  if (hello.f.languages) S.languages = hello.f.languages.split(',');
  loadKinds();
  const sess = loadSession();
  if (sess.token && !S.replaced) { await resume(sess); return; }
  await restoreName(sess);
  // A watcher that lost its connection watches on.
  const g = S.game;
  if (g && g.watching && !g.over && debug.state === 'game') send('WATCH ' + g.id);
}

/** Back in the lobby after a (re)connection: a guest takes its name again. */
export async function restoreName(sess) {
  if (sess.name && !sess.registered) {
    const r = await send('NAME ' + sess.name);
    if (r.ok) { named(r.f); if (!S.game || S.game.over) { if (debug.state === 'connecting' || debug.state === 'name') show('menu'); } return; }
  }
  S.name = null; whoShow();
  $('name-input').value = sess.name || '';
  if (S.game && S.game.over) return; // keep the result on screen; the menu button asks for a name
  show('name');
}

async function resume(sess) {
  const r = await send('RESUME ' + sess.token);
  if (r.ok) {
    S.name = sess.name || S.name; S.registered = !!sess.registered; whoShow();
    if (r.f.status === 'over') {
      // The OVER (or ABORTED) that follows says how it ended; no name was taken.
      S.game = newGame({ id: r.f.id, game: r.f.game || 'ghost', players: '' }, false);
      S.game.self = sess.name;
      S.name = null;
      show('game');
      forgetToken();
    }
    return;
  }
  if (r.code === 'bad-token') forgetToken();
  else if (r.code !== 'offline') notice(errText(r));
  if (r.code !== 'offline') await restoreName(sess);
}

function onClose(bye) {
  setConn('offline');
  if (bye && bye.code === 'replaced') {
    // Another tab or device took this seat: do not fight it for the seat.
    S.replaced = true;
    conn.stop();
    notice(t('replaced'));
    show('connecting');
    $('connecting-text').textContent = t('replaced');
    const b = el('button', 'primary', t('reconnect'));
    b.id = 'reconnect'; b.dataset.test = 'reconnect';
    b.addEventListener('click', () => { S.replaced = false; b.remove(); conn.open(); });
    $('screen-connecting').append(b);
    return;
  }
  if (bye) notice(bye.text || bye.code);
  if (S.game && !S.game.over) announce(t('reconnecting'));
  // A seek or an open private game ends with its connection.
  if (debug.state === 'waiting') { notice(t('waitLost')); show('menu'); }
}

function onRetry(ms) { setConn('connecting'); $('conn').textContent = t('retryIn', { s: Math.ceil(ms / 1000) }); }

// The server closes a silent connection after 10 minutes: keep it alive.
setInterval(() => { if (conn.connected) send('PING'); }, 240000);

async function loadKinds() {
  const r = await send('HELP');
  if (!r.ok) return;
  const kinds = [];
  for (const l of r.data) {
    const m = l.raw.match(/^HELP NEW \[?game=([a-z0-9_-]+)\]?(.*?) - (.*)$/);
    if (m && m[1] !== 'ghost' && m[1] !== 'hangman') kinds.push({ kind: m[1], usage: m[2].trim(), text: m[3] });
  }
  S.kinds = kinds;
  drawKinds();
}

// ---- Language of the page ------------------------------------------------------------

export function switchUi(lang) {
  setLang(lang);
  applyI18n(document);
  document.title = t('title');
  $('set-ui-lang').value = lang;
  const other = lang === 'nl' ? 'en' : 'nl';
  $('ui-lang').textContent = other.toUpperCase();
  $('ui-lang').setAttribute('aria-label', other === 'nl' ? 'Nederlands' : 'English');
  $('ui-lang').lang = other;
  setConn($('conn').dataset.state);
  drawKinds();
  if (debug.state === 'setup') setupFields();
  if (S.game && debug.state === 'game') { drawPlayers(); drawStatus(); drawMoves(); drawActions(); }
  if (debug.state === 'settings') drawAccount();
  redrawSocial();
}
$('ui-lang').addEventListener('click', () => switchUi(uiLang() === 'nl' ? 'en' : 'nl'));

// ---- Keys: letters play, Escape goes back ------------------------------------------------

document.addEventListener('keydown', (e) => {
  const tag = e.target && e.target.tagName;
  // Typing in a field (the chat's, a word's, a name's) never plays a letter.
  const typing = tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (e.target && e.target.isContentEditable);
  // Alt+Y / Alt+N answer an invitation from anywhere.
  if (inviteKey(e)) return;
  if (e.key === 'Escape') { escape(typing, e); return; }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  // On the game screen, / opens the chat.
  if (chatKey(e)) return;
  if (debug.state === 'game' && /^[a-zA-Z]$/.test(e.key)) {
    e.preventDefault();
    // Shift + letter plays the other letter move (Superghost: at the front).
    playLetter(e.key.toLowerCase(), e.shiftKey);
  }
});

function escape(typing, e) {
  if (typing) { e.target.blur(); return; }
  const s = debug.state;
  if (s === 'setup' || s === 'settings' || s === 'friends') show('menu');
  else if (s === 'list') listBack();
  else if (s === 'waiting') $('waiting-cancel').click();
  else if (s === 'game' && S.game && S.game.over) toMenu();
}

// ---- Events ------------------------------------------------------------------------

const HANDLERS = {
  GAME: (l) => { onGame(l); chatForGame(); }, TURN: onTurn, MOVE: onMove,
  OVER: (l) => { onOver(l); chatForGame(); }, MATCH: (l) => { onMatch(l); chatForGame(); }, ABORTED: (l) => { onAborted(l); chatForGame(); },
  OFFER: onOffer, ACCEPTED: onOfferEnd, CANCELLED: onOfferEnd, REMATCH: onRematch,
  // An invitation declined has code=; an offer declined in a game has id=.
  DECLINED: (l) => (l.f.code ? onInviteDeclined(l) : onOfferEnd(l)),
  ONLINE: onPresence, OFFLINE: onPresence, INVITE: onInvite, WITHDRAWN: onWithdrawn, SAID: onSaid,
  ADJOURNED: onAdjourned, RETURNED: onReturned, CLAIMABLE: onClaimable,
  // An INFO right after an invitation's answer says it again in the server's words: ours stay.
  INFO: (l) => { if (debug.state !== 'game' && Date.now() - (S.socialSaid || 0) < 1000) return; onInfo(l); },
  WAITING: (l) => onWaiting(l.f),
  WATCHERS: (l) => { if (S.game && S.game.id === l.f.id) { S.game.fields.watchers = l.f.count; drawPlayers(); } },
  RANK: (l) => { if (l.f.board && S.game && S.game.over) logLine(t('madeList', { r: l.f.rank })); },
};

const EXPLAINED = new Set(['OFFER', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'REMATCH', 'ADJOURNED', 'RETURNED', 'CLAIMABLE']);

function onEvent(line) {
  if (EXPLAINED.has(line.kw)) S.explained = Date.now();
  const h = HANDLERS[line.kw];
  if (h) h(line); // unknown lines are ignored, as the protocol asks
}

// ---- Start ---------------------------------------------------------------------------

switchUi(uiLang());
show('connecting');
conn.open();
