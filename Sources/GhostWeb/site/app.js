// The web client: screens, the game, lists and settings. Every server string
// is shown with textContent (names, labels and texts may be hostile).
import { Conn, socketURL } from './protocol.js';
import { t, setLang, uiLang, applyI18n } from './i18n.js';
import { rowOf, drawRows, buildKeyboard, setKeyboard } from './board.js';

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// ---- State ----------------------------------------------------------------

const debug = { state: 'connecting', lines: [], sent: [], connected: false };
const S = {
  name: null, registered: false, languages: ['en'], lang: 'en',
  kinds: [], game: null, lastNew: null, viewSeq: 0, replaced: false,
  back: 'menu', setup: null,
};

// Tests read this; it is a copy, so nothing outside can change the client.
window.ghost = Object.freeze({
  get state() { return debug.state; },
  get lines() { return debug.lines.slice(); },
  get sent() { return debug.sent.slice(); },
  get connected() { return debug.connected; },
  get game() { return S.game ? { id: S.game.id, kind: S.game.kind, turn: S.game.turn.slice(), over: S.game.over } : null; },
  get name() { return S.name; },
});

// ---- Storage: the name and the game's resume token, this origin only --------

const STORE = 'ghost.session';
function loadSession() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
}
function saveSession(patch) {
  const s = Object.assign(loadSession(), patch);
  for (const k of Object.keys(s)) if (s[k] === null || s[k] === undefined) delete s[k];
  try { localStorage.setItem(STORE, JSON.stringify(s)); } catch (e) { /* private mode: no resume */ }
}
const forgetToken = () => saveSession({ token: null, gameId: null });

// ---- Connection ---------------------------------------------------------------

const conn = new Conn(socketURL(location), { onOpen, onEvent, onClose, onRetry }, debug);
const send = (cmd) => conn.send(cmd);

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
async function restoreName(sess) {
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

// ---- Screens --------------------------------------------------------------------

function show(name) {
  debug.state = name;
  for (const s of document.querySelectorAll('.screen')) s.hidden = s.dataset.screen !== name;
  if (document.body.dataset.screen !== name) window.scrollTo(0, 0);
  document.body.dataset.screen = name;
  // Focus the screen's first control (or the one marked data-focus), so the keyboard alone goes on.
  const box = $('screen-' + name);
  const shown = [...box.querySelectorAll('[data-focus], input, select, button')].filter((e) => !e.closest('[hidden]') && !e.classList.contains('sr-only'));
  const first = shown.find((e) => e.hasAttribute('data-focus')) || shown[0];
  if (first && name !== 'game') first.focus({ preventScroll: true });
}

let noticeTimer = 0;
function notice(text) {
  const n = $('notice');
  n.textContent = text;
  n.hidden = !text;
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { n.hidden = true; }, 8000);
}

function announce(text) {
  const a = $('announce');
  a.textContent = '';
  // A new text node after a tick, so the same words twice are read twice.
  setTimeout(() => { a.textContent = text; }, 30);
}

function errText(r) {
  const known = t('err_' + r.code, null, true);
  return known || r.text || r.code;
}

function whoShow() {
  $('who').textContent = S.name ? (S.registered ? S.name + ' ✓' : S.name) : '';
}

function named(f) {
  S.registered = f.registered === 'yes';
  S.name = f.name;
  if (f.lang) S.lang = f.lang;
  saveSession({ name: S.name, registered: S.registered });
  whoShow();
}

// ---- Name and login ---------------------------------------------------------------

$('name-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = $('name-input').value.trim();
  const pw = $('password-input').value;
  $('password-input').value = ''; // never kept, never shown
  if (!name) return;
  const r = await send(pw ? `NAME ${name} ${pw}` : `NAME ${name}`);
  if (!r.ok) { notice(errText(r)); if (r.code === 'password-required') $('password-input').focus(); return; }
  if (pw) r.f.registered = 'yes';
  named(r.f);
  show('menu');
});

// ---- Menu ---------------------------------------------------------------------

$('menu-ghost').addEventListener('click', () => openSetup({ opponent: 'bot', game: 'ghost' }));
$('menu-hangman').addEventListener('click', () => openSetup({ opponent: 'bot', game: 'hangman' }));
$('menu-seek').addEventListener('click', () => openSetup({ opponent: 'seek', game: 'ghost' }));
$('menu-private').addEventListener('click', () => openSetup({ opponent: 'private', game: 'ghost' }));
$('menu-watch').addEventListener('click', () => openWatch());
$('menu-scores').addEventListener('click', () => openScores());
$('menu-history').addEventListener('click', () => openHistory());
$('menu-settings').addEventListener('click', () => openSettings());

$('join-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const code = $('join-code-input').value.trim();
  if (!code) return;
  const r = await send('JOIN ' + code);
  if (!r.ok) notice(errText(r));
  else $('join-code-input').value = '';
});

function drawKinds() {
  const box = $('menu-kinds');
  box.replaceChildren();
  for (const k of S.kinds) {
    const b = el('button', 'big', t('playKind', { kind: k.kind }));
    b.type = 'button';
    b.dataset.test = 'menu-kind';
    b.dataset.kind = k.kind;
    b.title = k.text;
    b.addEventListener('click', () => openSetup({ opponent: /bot=/.test(k.usage) ? 'bot' : 'private', game: k.kind, other: k }));
    box.append(b);
  }
}

// ---- Setting up a game ---------------------------------------------------------------

function openSetup(setup) {
  S.setup = setup;
  $('opt-opponent').value = setup.opponent;
  $('opt-game').value = setup.other ? 'ghost' : setup.game;
  $('opt-options').value = '';
  $('opt-options-help').textContent = setup.other ? `${setup.other.usage} — ${setup.other.text}` : '';
  setupFields();
  show('setup');
}

/** Shows the fields that apply to the opponent and game chosen. */
function setupFields() {
  const opp = $('opt-opponent').value;
  const other = S.setup && S.setup.other;
  const game = other ? other.kind : $('opt-game').value;
  const ghost = game === 'ghost', hang = game === 'hangman';
  const vis = {
    opponent: true, game: !other, level: ghost && opp === 'bot', variant: ghost, rounds: ghost,
    first: ghost && opp === 'bot', mode: hang && opp === 'bot', length: hang, misses: hang,
    clock: true, rated: opp !== 'bot', watch: opp === 'private', options: !!other,
  };
  for (const f of document.querySelectorAll('#setup-form .field')) f.hidden = !vis[f.dataset.for];
  $('setup-title').textContent = other ? t('playKind', { kind: other.kind }) : t('setupTitle_' + opp + '_' + game);
}
$('opt-opponent').addEventListener('change', setupFields);
$('opt-game').addEventListener('change', setupFields);

/** The NEW or SEEK line for the form. */
function setupCommand() {
  const v = (id) => $(id).value.trim();
  const opp = v('opt-opponent');
  const other = S.setup && S.setup.other;
  const game = other ? other.kind : v('opt-game');
  const parts = [opp === 'seek' ? 'SEEK' : 'NEW'];
  const add = (k, val) => { if (val) parts.push(`${k}=${val}`); };
  if (other) {
    add('game', game);
    const opts = v('opt-options');
    if (opts) parts.push(...opts.split(/\s+/));
    // Against the computer: its first level from the kind's HELP line, unless one is typed.
    const levels = other.usage.match(/bot=([a-z0-9_|-]+)/);
    if (opp === 'bot' && levels && !/\bbot=/.test(opts)) add('bot', levels[1].split('|')[0]);
  } else if (game === 'ghost') {
    if (opp === 'bot') add('bot', v('opt-level'));
    add('variant', v('opt-variant'));
    add('rounds', v('opt-rounds'));
    if (opp === 'bot') add('first', v('opt-first'));
  } else {
    add('game', 'hangman');
    const mode = opp === 'bot' ? v('opt-mode') : 'duel';
    if (mode === 'guesser') { add('mode', 'duel'); add('bot', 'guesser'); } else if (opp !== 'seek') add('mode', mode);
    add('length', v('opt-length'));
    add('misses', v('opt-misses'));
  }
  add('clock', v('opt-clock'));
  if (opp !== 'bot') add('rated', v('opt-rated'));
  if (opp === 'private') add('watch', v('opt-watch'));
  return { cmd: parts.join(' '), opp };
}

$('setup-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const { cmd, opp } = setupCommand();
  await startCommand(cmd, opp);
});
$('setup-back').addEventListener('click', () => show('menu'));

/** Sends a NEW or SEEK; a private game or a seek waits, the computer starts at once. */
async function startCommand(cmd, opp) {
  const r = await send(cmd);
  if (!r.ok) { notice(errText(r)); return; }
  S.lastNew = opp === 'bot' ? cmd : null;
  if (r.f.code) showWaiting('private', r.f.code);
  else if (/^SEEK/.test(cmd)) showWaiting('seek');
  // Otherwise the GAME line is on its way.
}

function showWaiting(kind, code) {
  $('waiting-title').textContent = t(kind === 'seek' ? 'waitingSeek' : 'waitingPrivate');
  $('code-box').hidden = !code;
  $('join-code').textContent = code || '';
  $('waiting-text').textContent = kind === 'seek' ? t('waitingSeekText') : t('waitingPrivateText');
  $('waiting-queues').replaceChildren();
  S.queues = {};
  show('waiting');
  if (code) $('join-code').focus();
  announce($('waiting-title').textContent + (code ? ' ' + [...code].join(' ') : ''));
}

$('copy-code').addEventListener('click', () => {
  const code = $('join-code').textContent;
  if (navigator.clipboard) navigator.clipboard.writeText(code).then(() => notice(t('copied')), () => {});
});
$('waiting-cancel').addEventListener('click', async () => { await send('LEAVE'); show('menu'); });

function onWaiting(f) {
  S.queues = S.queues || {};
  const key = [f.game, f.lang, f.rounds, f.clock, f.variant].join('/');
  if (f.count === '0') delete S.queues[key]; else S.queues[key] = f;
  const ul = $('waiting-queues');
  ul.replaceChildren();
  for (const q of Object.values(S.queues)) {
    const what = [q.game, q.variant, q.rounds && 'G-H-O-S-T', q.lang, q.clock && q.clock + ' s'].filter(Boolean).join(', ');
    ul.append(el('li', '', t('queue', { n: q.count, what })));
  }
}

// ---- The game ------------------------------------------------------------------------

function newGame(f, watching) {
  return {
    id: f.id, kind: f.game || 'ghost', lang: f.lang, players: (f.players || '').split(',').filter(Boolean),
    bot: f.bot, fields: f, watching, self: S.name, turn: [], rows: [], cans: [], over: false, letterMode: 0,
    deadline: 0, clockKind: '', claimable: false, away: {}, offer: null, match: f.rounds === 'ghost',
    hasLetters: f.game === 'ghost' || f.game === 'hangman' || !f.game, used: new Set(),
  };
}

const isBot = (name) => /^bot-/i.test(name || '');
const me = () => S.name;
const mine = (g) => !!g && !g.watching && g.players.includes(me());
const opponentOf = (g) => g.players.find((p) => p !== me()) || '';

function onGame(line) {
  const f = line.f;
  const watching = f.watching === 'yes';
  const same = S.game && S.game.id === f.id && !S.game.ended;
  const g = newGame(f, watching);
  // A Hangman setter never guesses: no keyboard for them.
  if (g.kind === 'hangman' && g.players[0] === me() && !watching) g.hasLetters = false;
  const rr = $('round-result');
  rr.hidden = !(same && S.game.over);
  // The round just lost or won stays in view while the next one starts.
  if (same && S.game.over) rr.textContent = t('lastRound', { text: $('result-text').textContent + ' ' + $('result-info').textContent });
  S.game = g;
  if (f.token) saveSession({ token: f.token, gameId: f.id, name: S.name, registered: S.registered });
  $('log').replaceChildren(...(same ? [...$('log').children] : []));
  if (same && Number(f.round) > 1) logLine(t('roundN', { n: f.round }));
  $('result').hidden = true;
  $('result').dataset.outcome = '';
  $('info').textContent = '';
  $('after-actions').hidden = true;
  $('offer').hidden = true;
  $('away').hidden = true;
  $('act-claim').hidden = true;
  show('game');
  drawPlayers();
  drawStatus();
  drawMoves();
  drawActions();
}

function onTurn(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  const f = line.f;
  g.turn = (f.player || '').split(',').filter(Boolean);
  g.cans = [];
  g.challenged = f.challenged === 'yes';
  if (f.ghost !== undefined) g.fields.ghost = f.ghost;
  setClock(f);
  drawPlayers();
  drawStatus();
  drawMoves();
  announce((g.pendingMove ? g.pendingMove + ' ' : '') + statusText(g));
  g.pendingMove = '';
  requestView(g);
}

/** Asks VIEW for the board and the moves; only the newest answer is drawn. */
async function requestView(g) {
  const seq = ++S.viewSeq;
  const r = await send('VIEW ' + g.id);
  if (seq !== S.viewSeq || S.game !== g || g.over || !r.ok) return;
  g.rows = r.data.filter((l) => l.kw === 'ROW').map(rowOf);
  g.cans = r.data.filter((l) => l.kw === 'CAN').map((l) => ({ verb: l.f.verb, takes: l.f.takes, then: l.f.then, text: l.text }));
  if (r.f.turn !== undefined) g.turn = r.f.turn.split(',').filter(Boolean);
  if (g.cans.some((c) => c.takes === 'letter')) g.hasLetters = true;
  g.used = usedLetters(g);
  drawBoard(g);
  drawStatus();
  drawMoves();
}

/** Hangman: letters already guessed (in the pattern or missed) cannot be played again. */
function usedLetters(g) {
  const used = new Set();
  if (g.kind !== 'hangman') return used;
  for (const r of g.rows) if (r.key === 'pattern' || r.key === 'missed') for (const c of r.value) if (/[a-z]/.test(c)) used.add(c);
  return used;
}

function drawBoard(g) { drawRows($('board'), g.rows, g.kind); }

function drawPlayers() {
  const g = S.game;
  const box = $('players');
  box.replaceChildren();
  g.players.forEach((p, i) => {
    const s = el('span', 'player', p === me() && !g.watching ? t('youName', { name: p }) : p);
    s.dataset.seat = String(i);
    if (g.turn.includes(p) && !g.over) s.classList.add('to-move');
    if (g.away[p]) s.classList.add('away');
    box.append(s);
    if (i === 0 && g.players.length > 1) box.append(el('span', 'vs', t('vs')));
  });
  const extra = [];
  if (g.fields.variant) extra.push(t('variant_' + g.fields.variant, null, true) || g.fields.variant);
  if (g.fields.mode) extra.push(t('mode_' + g.fields.mode, null, true) || g.fields.mode);
  if (g.match) extra.push('G-H-O-S-T');
  if (g.fields.record) extra.push(t('record', { r: g.fields.record }));
  if (g.fields.ratings) extra.push(g.fields.ratings.replace(',', ' – '));
  if (g.fields.watchers && g.fields.watchers !== '0') extra.push(t('watchersN', { n: g.fields.watchers }));
  if (g.watching) extra.push(t('watching'));
  if (extra.length) box.append(el('span', 'game-meta', extra.join(' · ')));
}

function statusText(g) {
  if (g.over) return t('gameOver');
  if (!g.turn.length) return '';
  if (!g.watching && g.turn.includes(me())) return g.challenged ? t('yourTurnChallenged') : t('yourTurn');
  const others = g.turn.filter((p) => p !== me()).join(', ');
  return g.watching ? t('toMove', { name: others }) : t('waitingFor', { name: others });
}

function drawStatus() {
  const g = S.game;
  const s = $('status');
  s.textContent = statusText(g);
  s.dataset.turn = g.over ? 'over' : !g.watching && g.turn.includes(me()) ? 'you' : g.turn.length ? 'them' : '';
}

const myTurn = (g) => !!g && !g.over && !g.watching && g.turn.includes(me());

/** The moves the server says may be sent now (CAN), as buttons, forms and keys. */
function drawMoves() {
  const g = S.game;
  const can = myTurn(g) && !g.busy ? g.cans : [];
  const letters = can.filter((c) => c.takes === 'letter');
  const words = can.filter((c) => c.takes === 'word');
  const plain = can.filter((c) => c.takes === 'none');

  const modes = $('letter-modes');
  modes.replaceChildren();
  modes.hidden = letters.length < 2;
  if (g.letterMode >= letters.length) g.letterMode = 0;
  letters.forEach((c, i) => {
    if (letters.length < 2) return;
    const b = el('button', 'mode' + (i === g.letterMode ? ' on' : ''), c.text || c.then || c.verb);
    b.type = 'button';
    b.setAttribute('role', 'radio');
    b.setAttribute('aria-checked', String(i === g.letterMode));
    b.dataset.test = 'letter-mode';
    b.dataset.then = c.then || '';
    b.addEventListener('click', () => { g.letterMode = i; drawMoves(); });
    modes.append(b);
  });

  const btns = $('can-buttons');
  btns.replaceChildren();
  for (const c of plain) {
    const b = el('button', 'can', t('verb_' + c.verb, null, true) || c.text || c.verb);
    b.type = 'button';
    b.title = c.text;
    b.dataset.verb = c.verb;
    b.dataset.test = 'can';
    b.addEventListener('click', () => play([c.verb, c.then].filter(Boolean).join(' ')));
    btns.append(b);
  }

  drawWordForms(words);

  const kb = $('keyboard');
  kb.hidden = g.watching || g.over || !g.hasLetters;
  setKeyboard(kb, letters.length > 0, g.used);
}

function drawWordForms(words) {
  const box = $('word-forms');
  // Keep what the player is typing when the same forms are drawn again.
  const typed = {};
  for (const i of box.querySelectorAll('input')) typed[i.dataset.verb] = i.value;
  const hadFocus = box.contains(document.activeElement) ? document.activeElement.dataset.verb : null;
  box.replaceChildren();
  words.forEach((c, n) => {
    const form = el('form', 'row-form word-form');
    const id = n === 0 ? 'word-input' : 'word-input-' + n;
    const label = el('label', '', c.text || c.verb);
    label.htmlFor = id;
    const input = el('input');
    input.id = id;
    input.dataset.test = 'word-input';
    input.dataset.verb = c.verb;
    input.autocomplete = 'off'; input.spellcheck = false; input.autocapitalize = 'off';
    input.maxLength = 80; input.required = true;
    input.value = typed[c.verb] || '';
    const submit = el('button', 'primary', t('verb_' + c.verb, null, true) || c.verb);
    submit.id = n === 0 ? 'word-submit' : 'word-submit-' + n;
    submit.dataset.test = 'word-submit';
    submit.dataset.verb = c.verb;
    form.append(label, input, submit);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const w = input.value.trim();
      if (!w) return;
      input.value = '';
      play([c.verb, w.split(/\s+/).join('/'), c.then].filter(Boolean).join(' '));
    });
    box.append(form);
    if (hadFocus === c.verb) input.focus();
  });
}

/** Plays a letter with the move chosen (Superghost: at the end or the front). */
function playLetter(c, alt) {
  const g = S.game;
  if (!myTurn(g) || g.busy) return;
  const letters = g.cans.filter((x) => x.takes === 'letter');
  if (!letters.length || g.used.has(c)) return;
  const m = letters[alt && letters.length > 1 ? (g.letterMode + 1) % letters.length : g.letterMode] || letters[0];
  play([m.verb, c, m.then].filter(Boolean).join(' '));
}

async function play(cmd) {
  const g = S.game;
  g.busy = true;
  drawMoves();
  const r = await send(cmd);
  g.busy = false;
  if (!r.ok) { notice(errText(r)); announce(errText(r)); if (!g.over) drawMoves(); return; }
  notice('');
}

buildKeyboard($('keyboard'), (c) => playLetter(c, false));

/** Says what a MOVE did, in words, for the log and the live region. */
function moveText(f) {
  const who = f.player === me() && !(S.game && S.game.watching) ? t('you') : f.player;
  if (f.letter) {
    let s = t('playedLetter', { who, c: f.letter.toUpperCase() });
    if (f.end === 'front') s += ' ' + t('atFront');
    if (f.hit) s += ' ' + t(f.hit === 'yes' ? 'hit' : 'miss');
    return s;
  }
  if (f.challenge === 'yes') return t('challenged', { who });
  if (f.concede === 'yes') return t('conceded', { who });
  if (f.word) return t('playedWord', { who, w: f.word }) + (f.hit ? ' ' + t(f.hit === 'yes' ? 'hit' : 'miss') : '');
  if (f.length && f.pattern !== undefined) return t('setWord', { who, n: f.length });
  if (f.hid === 'yes') return t('movedHidden', { who });
  const rest = Object.entries(f).filter(([k]) => k !== 'id' && k !== 'player').map(([k, v]) => `${k}=${v}`).join(' ');
  return t('moved', { who, what: rest });
}

function logLine(text) {
  const log = $('log');
  log.append(el('li', '', text));
  while (log.children.length > 200) log.firstChild.remove();
}

function onMove(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  const text = moveText(line.f);
  logLine(text);
  $('info').textContent = '';
  g.pendingMove = text;
  // Draw the new fragment at once, before VIEW answers.
  for (const r of g.rows) if (line.f[r.key] !== undefined) r.value = rowValueFrom(g, r, line.f[r.key]);
  if (g.rows.length) { g.used = usedLetters(g); drawBoard(g); }
}

function outcomeOf(g, f) {
  if (f.draw) return 'draw';
  // g.self: the name this browser plays under, also when a resumed game ended while away.
  const self = g.watching ? '' : g.self || me();
  if (self && f.winner === self) return 'won';
  if (self && f.loser === self) return 'lost';
  return 'watched';
}

function resultText(outcome, f, isMatch) {
  const key = isMatch ? 'match_' : 'game_';
  if (outcome === 'draw') return t('draw');
  if (outcome === 'watched') return t(key + 'watched', { winner: f.winner, loser: f.loser });
  return t(key + outcome, { winner: f.winner, loser: f.loser });
}

function reasonText(f) {
  const self = S.game && !S.game.watching && (S.game.self || me());
  const loser = self && f.loser === self ? t('you') : f.loser;
  const winner = self && f.winner === self ? t('you') : f.winner;
  // A reason we have no words for is said by the INFO that follows.
  return t('reason_' + f.reason, { loser, winner }, true);
}

function onOver(line) {
  const f = line.f;
  let g = S.game;
  if (!g || g.id !== f.id) { g = S.game = newGame({ id: f.id, game: 'ghost' }, false); show('game'); }
  const lastRound = !g.match || ['left', 'abandoned', 'time'].includes(f.reason);
  g.over = true;
  g.turn = [];
  g.deadline = 0;
  if (!g.match) forgetToken();
  const outcome = outcomeOf(g, f);
  // The last board: the rows the game had, with the OVER's fields in them.
  for (const r of g.rows) if (f[r.key] !== undefined) r.value = rowValueFrom(g, r, f[r.key]);
  if (!g.rows.length) finalRows(g, f);
  if (f.word && !g.rows.some((r) => r.key === 'word')) g.rows.push({ key: 'word', shape: 'text', value: f.word, label: t('theWord') });
  drawBoard(g);
  showResult(outcome, [resultText(outcome, f, false), reasonText(f), ratingText(g, f)].filter(Boolean).join(' '), !g.match || lastRound);
  logLine($('result-text').textContent);
}

/** A row's value from a game line's field: `-` is none; a seat's row takes its seat's part (ghost=GH,G). */
function rowValueFrom(g, r, v) {
  if (v === '-') return '';
  if (r.seat && v.includes(',')) return v.split(',')[g.players.indexOf(r.seat)] || '';
  return v;
}

/** A board when VIEW was never answered (a game that ended while away). */
function finalRows(g, f) {
  const skip = new Set(['id', 'winner', 'loser', 'draw', 'reason', 'ended', 'ratings', 'changes', 'word']);
  for (const [k, v] of Object.entries(f)) {
    if (skip.has(k)) continue;
    const cellsKey = k === 'fragment' || k === 'pattern';
    g.rows.push({ key: k, shape: cellsKey ? 'cells' : 'text', value: v, label: t('row_' + k, null, true) || k });
  }
  if (f.pattern !== undefined) g.kind = 'hangman';
}

function showResult(outcome, text, final) {
  const g = S.game;
  $('result').hidden = false;
  $('result').dataset.outcome = outcome;
  $('result-text').textContent = text;
  $('result-info').textContent = '';
  $('clock').hidden = true;
  $('offer').hidden = true;
  $('act-claim').hidden = true;
  drawStatus();
  drawMoves();
  drawPlayers();
  drawActions();
  if (final) {
    g.ended = true;
    $('round-result').hidden = true;
    $('after-actions').hidden = false;
    const people = !isBot(opponentOf(g)) && mine(g) && opponentOf(g);
    $('act-again').hidden = !S.lastNew || !mine(g) || !isBot(opponentOf(g));
    $('act-rematch').hidden = !people || outcome === 'aborted';
    $('act-review').hidden = outcome === 'aborted';
    $('act-replay').hidden = outcome === 'aborted';
    $('act-menu').focus({ preventScroll: true });
  }
  announce(text);
}

/** A rated game's end: your new rating and its change (ratings= and changes= in seat order). */
function ratingText(g, f) {
  if (!f.ratings || !f.changes) return '';
  const i = g.players.indexOf(g.self || me());
  if (i < 0 || g.watching) return '';
  return t('ratingChange', { r: f.ratings.split(',')[i], c: f.changes.split(',')[i] });
}

function onMatch(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  forgetToken();
  const outcome = outcomeOf(g, line.f);
  showResult(outcome, resultText(outcome, line.f, true), true);
  logLine($('result-text').textContent);
}

function onAborted(line) {
  let g = S.game;
  if (!g || g.id !== line.f.id) { g = S.game = newGame({ id: line.f.id }, false); show('game'); }
  g.over = true; g.turn = [];
  forgetToken();
  showResult('aborted', t('aborted_' + line.f.reason, null, true) || t('aborted'), true);
}

function onInfo(line) {
  const g = S.game;
  if (g && debug.state === 'game') {
    // After a REMATCH event our own words say it; the INFO's are the protocol's.
    if (g.over && !g.rematchAsked) $('result-info').textContent = line.text;
    else if (!g.over) {
      logLine(line.text);
      // An INFO that follows an event we already put in our words (it names commands) stays in the log.
      if (Date.now() - (S.explained || 0) > 500) $('info').textContent = line.text;
    }
  } else if (debug.state !== 'waiting') {
    notice(line.text); // in the lobby: a name lost to another login, and such
  }
}

// ---- Clocks: seconds per move, the first-move and claim countdowns ----------------

function setClock(f) {
  const g = S.game;
  const secs = f.clock !== undefined ? f.clock : f.claim_in !== undefined ? f.claim_in : f.abort_in;
  g.clockKind = f.clock !== undefined ? 'clock' : f.claim_in !== undefined ? 'claim' : f.abort_in !== undefined ? 'abort' : '';
  g.deadline = secs !== undefined ? Date.now() + Number(secs) * 1000 : 0;
  g.claimable = false;
  $('act-claim').hidden = true;
  tick();
}

function fmt(s) { return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; }

function tick() {
  const g = S.game;
  const c = $('clock');
  if (!g || g.over || !g.deadline || debug.state !== 'game') { c.hidden = true; return; }
  const left = Math.max(0, Math.ceil((g.deadline - Date.now()) / 1000));
  const mineNow = myTurn(g);
  const who = g.turn.join(', ');
  c.hidden = false;
  c.dataset.kind = g.clockKind;
  c.dataset.who = mineNow ? 'you' : 'them';
  c.classList.toggle('low', left <= 10);
  if (g.clockKind === 'clock') c.textContent = mineNow ? t('clockYou', { t: fmt(left) }) : t('clockThem', { name: who, t: fmt(left) });
  else if (g.clockKind === 'abort') c.textContent = mineNow ? t('abortYou', { t: fmt(left) }) : t('abortThem', { name: who, t: fmt(left) });
  else c.textContent = mineNow ? t('claimYou', { t: fmt(left) }) : t('claimThem', { name: who, t: fmt(left) });
  // Past a claim countdown on the opponent's turn, the game may be claimed.
  if (g.clockKind === 'claim' && left === 0 && !mineNow && mine(g)) $('act-claim').hidden = false;
}
setInterval(tick, 500);

// ---- Offers, rematches, absences ---------------------------------------------------

function offerWhat(f) {
  return f.kind === 'lang' ? t('offerLang', { lang: f.lang }) : f.kind === 'restart' ? t('offerRestart') : f.kind;
}

function onOffer(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  const f = line.f;
  const fromMe = f.player === me() && !g.watching;
  $('offer').hidden = false;
  $('offer-text').textContent = fromMe ? t('youOffered', { what: offerWhat(f) }) : t('theyOffer', { name: f.player, what: offerWhat(f) });
  $('offer-accept').hidden = fromMe || g.watching;
  $('offer-decline').hidden = fromMe || g.watching;
  announce($('offer-text').textContent);
  if (!fromMe && !g.watching) $('offer-accept').focus({ preventScroll: true });
}

function onOfferEnd(line) {
  const g = S.game;
  const f = line.f;
  if (f.kind === 'rematch') { if (g && g.over) $('result-info').textContent = t('rematchLapsed', { name: f.player }); return; }
  if (!g || g.id !== f.id) return;
  $('offer').hidden = true;
  const text = t(line.kw === 'ACCEPTED' ? 'offerAccepted' : line.kw === 'DECLINED' ? 'offerDeclined' : 'offerCancelled', { name: f.player });
  logLine(text);
  announce(text);
}

$('offer-accept').addEventListener('click', () => answerOffer('ACCEPT'));
$('offer-decline').addEventListener('click', () => answerOffer('DECLINE'));
async function answerOffer(cmd) {
  const r = await send(cmd);
  if (!r.ok) notice(errText(r));
  $('offer').hidden = true;
}

function onRematch(line) {
  const g = S.game;
  if (!g || !g.over) { notice(t('wantsRematch', { name: line.f.player })); return; }
  g.rematchAsked = true;
  $('result-info').textContent = t('wantsRematch', { name: line.f.player });
  $('act-rematch').hidden = false;
  $('act-rematch').classList.add('pulse');
  announce($('result-info').textContent);
}

function onAdjourned(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  const f = line.f;
  g.away[f.player] = true;
  $('away').hidden = false;
  $('away').textContent = t('away', { name: f.player, s: f.grace });
  drawPlayers();
  announce($('away').textContent);
}

function onReturned(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  delete g.away[line.f.player];
  $('away').hidden = !Object.keys(g.away).length;
  $('act-claim').hidden = true;
  drawPlayers();
  announce(t('returned', { name: line.f.player }));
}

function onClaimable(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  if (mine(g)) $('act-claim').hidden = false;
  $('away').hidden = false;
  $('away').textContent = t('claimable', { name: line.f.player });
  announce($('away').textContent);
}

// ---- Game actions -------------------------------------------------------------

function drawActions() {
  const g = S.game;
  const playing = mine(g) && !g.over;
  $('act-hint').hidden = !playing || g.bot !== 'easy';
  $('act-restart').hidden = !playing;
  $('act-leave').hidden = !playing;
  $('act-unwatch').hidden = !g.watching || g.over;
  const sel = $('act-lang');
  sel.hidden = !playing || S.languages.length < 2;
  sel.setAttribute('aria-label', t('switchLang'));
  sel.replaceChildren(el('option', '', t('switchLang')));
  sel.options[0].value = '';
  for (const l of S.languages) { const o = el('option', '', l); o.value = l; sel.append(o); }
  $('act-leave').textContent = t('leave');
  delete $('act-leave').dataset.confirm;
}

$('act-hint').addEventListener('click', async () => {
  const r = await send('HINT');
  if (!r.ok) { notice(errText(r)); return; }
  const f = r.f;
  const what = f.letter ? f.letter.toUpperCase() + (f.end === 'front' ? ' ' + t('atFront') : '') : f.challenge ? t('verb_CHALLENGE') : f.word ? f.word : f.concede ? t('verb_CONCEDE') : '';
  const text = t(f.winning === 'yes' ? 'hintWin' : 'hintLose', { what });
  notice(text); announce(text);
});
$('act-restart').addEventListener('click', async () => {
  const r = await send('RESTART');
  if (!r.ok) notice(errText(r));
});
$('act-lang').addEventListener('change', async (e) => {
  const code = e.target.value;
  e.target.value = '';
  if (!code) return;
  const r = await send('LANG ' + code);
  if (!r.ok) notice(errText(r));
});
// Resigning loses the game: the button asks once more before it does.
$('act-leave').addEventListener('click', async (e) => {
  const b = e.currentTarget;
  if (!b.dataset.confirm) { b.dataset.confirm = '1'; b.textContent = t('leaveSure'); return; }
  const r = await send('LEAVE');
  if (!r.ok) notice(errText(r));
});
$('act-claim').addEventListener('click', async () => {
  const r = await send('CLAIM');
  if (!r.ok) notice(errText(r));
});
$('act-unwatch').addEventListener('click', async () => { await send('UNWATCH'); S.game = null; show('menu'); });
$('act-menu').addEventListener('click', () => toMenu());
$('act-again').addEventListener('click', () => { if (S.lastNew) startCommand(S.lastNew, 'bot'); });
$('act-rematch').addEventListener('click', async () => {
  const r = await send('REMATCH');
  if (!r.ok) { notice(errText(r)); return; }
  $('act-rematch').classList.remove('pulse');
  if (r.f.status === 'asked') $('result-info').textContent = t('rematchAsked', { name: opponentOf(S.game) });
});
$('act-review').addEventListener('click', () => openReview(S.game.id, 'game'));
$('act-replay').addEventListener('click', () => openReplay(S.game.id, 'game'));

/** Back to the menu, taking a name again if the connection has none (after a resume of an ended game). */
async function toMenu() {
  if (S.game && S.game.watching && !S.game.over) await send('UNWATCH');
  if (!S.name) { await restoreName(Object.assign(loadSession(), { token: null })); if (!S.name) { show('name'); return; } }
  show('menu');
}

// ---- Lists: watching, scores, history, replay, review ------------------------------------

const colName = (k) => t('col_' + k, null, true) || k;

/** A table of data lines' fields; `extra(line, tr)` may add cells (buttons). */
function table(lines, cols, extra) {
  const tb = el('table', 'list');
  const head = el('tr');
  for (const c of cols) head.append(el('th', '', colName(c)));
  if (extra) head.append(el('th', '', ''));
  const thead = el('thead'); thead.append(head);
  const body = el('tbody');
  for (const l of lines) {
    const tr = el('tr');
    for (const c of cols) {
      let v = l.f[c] === undefined ? '' : l.f[c];
      if (c === 'ended' && v) v = new Date(Number(v) * 1000).toLocaleString(uiLang());
      if (c === 'result' || c === 'outcome') tr.dataset[c] = v;
      const td = el('td', '', v);
      td.dataset.label = colName(c);
      tr.append(td);
    }
    if (extra) { const td = el('td', 'cell-actions'); extra(l, td); tr.append(td); }
    body.append(tr);
  }
  tb.append(thead, body);
  return tb;
}

/** The columns: every field the lines have, in the order they first come. */
function columns(lines, skip = []) {
  const cols = [];
  for (const l of lines) for (const k of Object.keys(l.f)) if (!cols.includes(k) && !skip.includes(k)) cols.push(k);
  return cols;
}

function openList(title, back) {
  S.back = back || 'menu';
  $('list-title').textContent = title;
  $('list-tools').replaceChildren();
  $('list-body').replaceChildren(el('p', 'hint', t('loading')));
  show('list');
}

function listMessage(text) { $('list-body').replaceChildren(el('p', 'hint', text)); }

function smallButton(text, test, onClick) {
  const b = el('button', 'small', text);
  b.type = 'button';
  b.dataset.test = test;
  b.addEventListener('click', onClick);
  return b;
}

async function openWatch() {
  openList(t('menuWatch'));
  $('list-tools').append(smallButton(t('refresh'), 'refresh', openWatch));
  const r = await send('GAMES 50');
  if (!r.ok) { listMessage(errText(r)); return; }
  if (!r.data.length) { listMessage(t('noGames')); return; }
  $('list-body').replaceChildren(table(r.data, columns(r.data, ['id']), (l, td) => {
    const b = smallButton(t('watch'), 'watch-game', () => watch(l.f.id));
    b.dataset.id = l.f.id;
    td.append(b);
  }));
}

async function watch(id) {
  const r = await send('WATCH ' + id);
  if (!r.ok) notice(errText(r));
  // The game's state follows as GAME … watching=yes.
}

const BOARDS = [
  ['SCORES', 'boardGame'], ['SCORES mode=match', 'boardMatch'],
  ['SCORES bot=easy', 'boardEasy'], ['SCORES bot=medium', 'boardMedium'], ['SCORES bot=hard', 'boardHard'],
  ['SCORES game=hangman mode=evil', 'boardEvil'], ['SCORES game=hangman mode=fair', 'boardFair'],
  ['SCORES game=hangman mode=phrase', 'boardPhrase'], ['SCORES game=hangman mode=duel', 'boardDuel'],
  ['TOP', 'topGhost'], ['TOP variant=super', 'topSuper'], ['TOP variant=challenge', 'topChallenge'], ['TOP game=hangman', 'topHangman'],
];

async function openScores(cmd) {
  openList(t('menuScores'));
  const sel = el('select');
  sel.id = 'scores-board'; sel.dataset.test = 'scores-board';
  sel.setAttribute('aria-label', t('board'));
  for (const [c, k] of BOARDS) { const o = el('option', '', t(k)); o.value = c; sel.append(o); }
  sel.value = cmd || 'SCORES';
  sel.addEventListener('change', () => openScores(sel.value));
  $('list-tools').append(sel);
  sel.focus();
  const r = await send(sel.value + ' 20');
  if (!r.ok) { listMessage(errText(r)); return; }
  if (!r.data.length) { listMessage(r.f.min_games ? t('noLeaders', { n: r.f.min_games }) : t('noScores')); return; }
  $('list-body').replaceChildren(table(r.data, columns(r.data)));
}

async function openHistory(name) {
  const who = name || S.name;
  openList(who && who !== S.name ? t('historyOf', { name: who }) : t('menuHistory'));
  $('list-tools').append(historyForm(who));
  if (!who) { listMessage(t('err_no-name')); return; }
  const [h, p] = [await send('HISTORY ' + who + ' 30'), await send('PROFILE ' + who)];
  const body = $('list-body');
  body.replaceChildren();
  if (p.ok && p.data.length) {
    body.append(el('h3', '', t('ratings')));
    body.append(table(p.data.filter((l) => l.kw === 'RATING'), columns(p.data.filter((l) => l.kw === 'RATING'))));
    const vs = p.data.filter((l) => l.kw === 'VERSUS');
    if (vs.length) body.append(table(vs, columns(vs)));
  }
  if (!h.ok) { body.append(el('p', 'hint', errText(h))); return; }
  if (!h.data.length) { body.append(el('p', 'hint', t('noHistory'))); return; }
  body.append(el('h3', '', t('finishedGames')));
  body.append(table(h.data, columns(h.data), (l, td) => {
    const a = smallButton(t('replay'), 'history-replay', () => openReplay(l.f.id, 'history'));
    const b = smallButton(t('review'), 'history-review', () => openReview(l.f.id, 'history'));
    a.dataset.id = b.dataset.id = l.f.id;
    td.append(a, b);
  }));
}

/** Another name's history and ratings. */
function historyForm(who) {
  const form = el('form', 'row-form');
  const input = el('input');
  input.id = 'history-name'; input.dataset.test = 'history-name';
  input.maxLength = 16; input.value = who || ''; input.autocomplete = 'off';
  input.setAttribute('aria-label', t('col_name'));
  const go = el('button', 'small', t('show'));
  go.dataset.test = 'history-show';
  form.append(input, go);
  form.addEventListener('submit', (e) => { e.preventDefault(); if (input.value.trim()) openHistory(input.value.trim()); });
  return form;
}

/** A finished or live game's moves; Ghost's fragment is rebuilt move by move. */
async function openReplay(id, back) {
  openList(t('replayOf', { id }), back);
  const r = await send('MOVES ' + id);
  if (!r.ok) { listMessage(errText(r)); return; }
  let frag = '';
  let round = '';
  for (const l of r.data) {
    if (l.f.round !== round) { frag = ''; round = l.f.round; }
    const p = l.f.play || '';
    if (/^[a-z]$/.test(p)) frag += p;
    else if (/^<[a-z]$/.test(p)) frag = p[1] + frag;
    l.f.fragment = frag;
  }
  const ghosty = r.data.some((l) => /^<?[a-z]$/.test(l.f.play || '')) && !r.data.some((l) => /^word:/.test(l.f.play || '') && l.f.n === '1');
  $('list-body').replaceChildren(table(r.data, ghosty ? ['n', 'round', 'player', 'play', 'fragment'] : ['n', 'round', 'player', 'play']));
  if (!r.data.length) listMessage(t('noMoves'));
}

async function openReview(id, back) {
  openList(t('reviewOf', { id }), back);
  let r = await send('REVIEW ' + id);
  for (let i = 0; i < 5 && !r.ok && r.code === 'not-ready'; i++) {
    listMessage(t('reviewWait'));
    await new Promise((res) => setTimeout(res, 1500));
    r = await send('REVIEW ' + id);
  }
  if (!r.ok) { listMessage(errText(r)); return; }
  const body = $('list-body');
  body.replaceChildren();
  if (r.f.mistake) body.append(el('p', 'summary', r.f.mistake === 'none' ? t('noMistake') : t('firstMistake', { n: r.f.mistake, round: r.f.round || '' })));
  const tb = table(r.data, columns(r.data));
  tb.querySelectorAll('tbody tr').forEach((tr, i) => { if (r.data[i].f.better) tr.classList.add('mistake'); });
  body.append(tb);
}

$('list-back').addEventListener('click', () => listBack());
function listBack() {
  if (S.back === 'history') openHistory();
  else if (S.back === 'game' && S.game) show('game');
  else toMenu();
}

// ---- Settings ------------------------------------------------------------------------

async function openSettings() {
  show('settings');
  $('set-ui-lang').value = uiLang();
  const sl = $('set-lang');
  sl.replaceChildren();
  for (const l of S.languages) { const o = el('option', '', t('lang_' + l, null, true) || l); o.value = l; sl.append(o); }
  sl.value = S.lang;
  drawAccount();
  const r = await send('SETTINGS');
  const box = $('set-keys');
  box.replaceChildren();
  if (!r.ok) return;
  for (const l of r.data) {
    if (l.f.key === 'lang') { S.lang = l.f.value; sl.value = l.f.value; continue; }
    box.append(settingRow(l.f));
  }
}

const CHOICES = { 'hangman-mode': ['evil', 'fair', 'phrase'] };

/** One saved setting: a select for known choices, else a text field, and Save. */
function settingRow(f) {
  const form = el('form', 'row-form');
  const id = 'set-' + f.key;
  const label = el('label', '', t('set_' + f.key, null, true) || f.key);
  label.htmlFor = id;
  let input;
  if (CHOICES[f.key]) {
    input = el('select');
    for (const c of CHOICES[f.key]) { const o = el('option', '', t('mode_' + c, null, true) || c); o.value = c; input.append(o); }
  } else {
    input = el('input');
    input.autocomplete = 'off';
  }
  input.id = id;
  input.dataset.test = 'setting';
  input.dataset.key = f.key;
  input.value = f.value;
  const save = el('button', 'small', t('save'));
  save.dataset.test = 'setting-save';
  save.dataset.key = f.key;
  form.append(label, input, save);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = await send(`SET ${f.key} ${input.value.trim()}`);
    notice(r.ok ? t('saved') : errText(r));
    if (r.ok) input.value = r.f.value;
  });
  return form;
}

function drawAccount() {
  $('account-text').textContent = S.name ? t(S.registered ? 'loggedIn' : 'guest', { name: S.name }) : '';
  $('register-form').hidden = !S.name;
  $('register-user').value = S.name || ''; // for password managers
  $('register-label').textContent = t(S.registered ? 'passwordLabel' : 'registerLabel');
  $('register-submit').textContent = t(S.registered ? 'changePassword' : 'register');
}

$('set-ui-lang').addEventListener('change', (e) => switchUi(e.target.value));
$('set-lang').addEventListener('change', async (e) => {
  const r = await send('LANG ' + e.target.value);
  if (r.ok) { S.lang = r.f.lang; notice(t('saved')); } else { notice(errText(r)); e.target.value = S.lang; }
});
$('register-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const pw = $('register-password').value;
  $('register-password').value = '';
  const r = await send((S.registered ? 'PASSWORD ' : 'REGISTER ') + pw);
  if (!r.ok) { notice(errText(r)); return; }
  if (!S.registered) { S.registered = true; saveSession({ registered: true }); whoShow(); }
  notice(t(r.line.args[0] === 'PASSWORD' ? 'passwordChanged' : 'registered'));
  drawAccount();
});
$('change-name').addEventListener('click', () => { $('name-input').value = S.name || ''; show('name'); });
$('settings-back').addEventListener('click', () => show('menu'));

// ---- Language of the page ------------------------------------------------------------

function switchUi(lang) {
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
}
$('ui-lang').addEventListener('click', () => switchUi(uiLang() === 'nl' ? 'en' : 'nl'));

// ---- Keys: letters play, Escape goes back ------------------------------------------------

document.addEventListener('keydown', (e) => {
  const tag = e.target && e.target.tagName;
  const typing = tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA';
  if (e.key === 'Escape') { escape(typing, e); return; }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (debug.state === 'game' && /^[a-zA-Z]$/.test(e.key)) {
    e.preventDefault();
    // Shift + letter plays the other letter move (Superghost: at the front).
    playLetter(e.key.toLowerCase(), e.shiftKey);
  }
});

function escape(typing, e) {
  if (typing) { e.target.blur(); return; }
  const s = debug.state;
  if (s === 'setup' || s === 'settings') show('menu');
  else if (s === 'list') listBack();
  else if (s === 'waiting') $('waiting-cancel').click();
  else if (s === 'game' && S.game && S.game.over) toMenu();
}

// ---- Events ------------------------------------------------------------------------

const HANDLERS = {
  GAME: onGame, TURN: onTurn, MOVE: onMove, OVER: onOver, MATCH: onMatch, ABORTED: onAborted,
  OFFER: onOffer, ACCEPTED: onOfferEnd, DECLINED: onOfferEnd, CANCELLED: onOfferEnd, REMATCH: onRematch,
  ADJOURNED: onAdjourned, RETURNED: onReturned, CLAIMABLE: onClaimable, INFO: onInfo,
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
