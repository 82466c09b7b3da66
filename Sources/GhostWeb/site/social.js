// Between people (issue #47): friends and their presence, invitations (sent
// and received, wherever the player is), chat under the board, and blocking
// and reporting from a name's profile. Every name and text from the server
// goes into the page as text (textContent), never as HTML.
import { t, uiLang } from './i18n.js';
import { $, debug, el, errText, notice, S, send, show } from './ui.js';
import { openSetup } from './setup.js';
import { openHistory, watch } from './lists.js';

// ---- State -----------------------------------------------------------------------------

/** The names followed: name → {name, online, playing, seen}. */
const friends = new Map();
let blocks = [];
/** Invitations received and still standing: {from, code, f}, the newest last. */
let invites = [];
/** The game whose chat is shown (its id), and whether its box applies. */
let chatId = null;
const CHAT_KEEP = 6;

/** Says `text` to a screen reader through this module's own live region. */
function say(text) {
  const a = $('social-live');
  a.textContent = '';
  setTimeout(() => { a.textContent = text; }, 30);
}

function button(text, test, onClick, cls) {
  const b = el('button', cls || 'small', text);
  b.type = 'button';
  b.dataset.test = test;
  b.addEventListener('click', onClick);
  return b;
}

// ---- Errors of these commands, in the page's words --------------------------------------

const UNAVAILABLE = [[/not online/, 'unavailOffline'], [/in a game/, 'unavailPlaying'],
  [/friends only/, 'unavailFriends'], [/no invitations/, 'unavailNobody']];

export function socialErr(r, name) {
  if (r.code === 'unavailable') {
    const m = UNAVAILABLE.find(([re]) => re.test(r.text));
    if (m) return t(m[1], { name });
  }
  if (r.code === 'not-registered') return t('followRegistered');
  if (r.code === 'muted') {
    const until = (r.text.match(/until (.+)$/) || [])[1];
    return until ? t('mutedUntil', { until }) : t('err_muted');
  }
  return errText(r);
}

// ---- Friends: who is online, following, blocking ---------------------------------------

export async function openFriends() {
  show('friends');
  $('friends-hint').textContent = S.registered ? '' : t('friendsGuest');
  await loadFriends();
  await loadBlocks();
}

async function loadFriends() {
  const r = await send('FOLLOWING');
  friends.clear();
  if (r.ok) {
    for (const l of r.data) {
      if (l.kw !== 'FRIEND' || !l.f.name) continue;
      friends.set(l.f.name, { name: l.f.name, online: l.f.online === 'yes', playing: l.f.playing, seen: l.f.seen ? Number(l.f.seen) : 0 });
    }
  }
  drawFriends();
}

async function loadBlocks() {
  const r = await send('BLOCKS');
  blocks = r.ok ? r.data.filter((l) => l.kw === 'BLOCKED' && l.f.name).map((l) => l.f.name) : [];
  drawBlocks();
}

export function presenceText(p) {
  if (p.online && p.playing) return t('presencePlaying', { id: p.playing });
  if (p.online) return t('presenceOnline');
  if (p.seen) {
    const when = new Date(p.seen * 1000).toLocaleString(uiLang(), { dateStyle: 'medium', timeStyle: 'short' });
    return t('presenceSeen', { when });
  }
  return t('presenceOffline');
}

function drawFriends() {
  const ul = $('friends-list');
  ul.replaceChildren();
  const list = [...friends.values()].sort((a, b) => (b.online - a.online) || a.name.localeCompare(b.name));
  if (!list.length) { ul.append(el('li', 'hint', t('noFriends'))); return; }
  for (const p of list) {
    const li = el('li', 'person');
    li.dataset.test = 'friend';
    li.dataset.name = p.name;
    li.dataset.online = p.online ? 'yes' : 'no';
    const acts = el('span', 'person-actions');
    acts.append(button(t('invite'), 'friend-invite', () => openInvite(p.name), p.online ? 'small primary' : 'small'));
    if (p.online && p.playing) acts.append(button(t('watch'), 'friend-watch', () => watch(p.playing)));
    acts.append(button(t('unfollow'), 'friend-unfollow', () => unfollow(p.name)));
    acts.append(button(t('block'), 'friend-block', () => block(p.name)));
    for (const b of acts.children) {
      b.dataset.name = p.name;
      b.setAttribute('aria-label', b.textContent + ': ' + p.name);
    }
    li.append(el('span', 'person-name', p.name), el('span', 'presence', presenceText(p)), acts);
    ul.append(li);
  }
}

function drawBlocks() {
  const ul = $('blocks-list');
  ul.replaceChildren();
  if (!blocks.length) { ul.append(el('li', 'hint', t('noBlocks'))); return; }
  for (const name of blocks) {
    const li = el('li', 'person');
    li.dataset.test = 'blocked';
    li.dataset.name = name;
    const b = button(t('unblock'), 'unblock', () => unblock(name));
    b.dataset.name = name;
    b.setAttribute('aria-label', t('unblock') + ': ' + name);
    const acts = el('span', 'person-actions');
    acts.append(b);
    li.append(el('span', 'person-name', name), acts);
    ul.append(li);
  }
}

export async function follow(name) {
  const r = await send('FOLLOW ' + name);
  if (!r.ok) { notice(socialErr(r, name)); return false; }
  notice(t('followed', { name: r.f.name || name }));
  if (debug.state === 'friends') await loadFriends();
  return true;
}

async function unfollow(name) {
  const r = await send('UNFOLLOW ' + name);
  if (!r.ok) { notice(socialErr(r, name)); return; }
  friends.delete(name);
  drawFriends();
  keepFocus();
  notice(t('unfollowed', { name }));
}

/** Blocks a name: it is no longer followed, and its invitations here go. */
export async function block(name) {
  const r = await send('BLOCK ' + name);
  if (!r.ok) { notice(socialErr(r, name)); return false; }
  friends.delete(name);
  for (const i of invites.filter((x) => x.from === name)) removeInvite(i.code);
  notice(t('blockedName', { name }));
  if (debug.state === 'friends') { drawFriends(); await loadBlocks(); keepFocus(); }
  return true;
}

async function unblock(name) {
  const r = await send('UNBLOCK ' + name);
  if (!r.ok) { notice(socialErr(r, name)); return; }
  notice(t('unblocked', { name }));
  await loadBlocks();
  keepFocus();
}

/** After a list is drawn again under the focused button, the keyboard goes on from the name field. */
function keepFocus() {
  if (debug.state === 'friends' && (!document.activeElement || document.activeElement === document.body)) $('friend-name').focus();
}

/** ONLINE and OFFLINE: a followed name came or went; the list follows at once. */
export function onPresence(line) {
  const name = line.f.name;
  if (!name) return;
  const online = line.kw === 'ONLINE';
  const p = friends.get(name) || { name };
  p.online = online;
  p.playing = undefined;
  if (!online) p.seen = Math.floor(Date.now() / 1000);
  friends.set(name, p);
  if (debug.state === 'friends') {
    drawFriends();
    say(t(online ? 'cameOnline' : 'wentOffline', { name }));
  }
}

/** The name typed in the friends screen's form, or nothing. */
function typedName() {
  const v = $('friend-name').value.trim();
  if (!v) $('friend-name').focus();
  return v;
}

$('follow-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const name = typedName();
  if (name && await follow(name)) $('friend-name').value = '';
});
$('friend-invite-name').addEventListener('click', () => { const n = typedName(); if (n) openInvite(n); });
$('friend-block-name').addEventListener('click', async () => {
  const n = typedName();
  if (n && await block(n)) $('friend-name').value = '';
});
$('friends-refresh').addEventListener('click', () => openFriends());
$('friends-back').addEventListener('click', () => show('menu'));
$('menu-friends').addEventListener('click', () => openFriends());

// ---- Invitations: sent (the setup screen's INVITE) and received -------------------------

/** The setup screen for a game with `name`: NEW's options, sent as INVITE. */
export function openInvite(name) {
  openSetup({ opponent: 'private', game: 'ghost', invite: name });
}

/** A game's description from its fields: "Ghost, Superghost, English, 1:00 a move, rated". */
export function gameText(f) {
  const parts = [f.game === 'hangman' ? t('hangman') : f.game === 'ghost' || !f.game ? 'Ghost' : f.game];
  if (f.variant) parts.push(t('variant_' + f.variant, null, true) || f.variant);
  if (f.mode) parts.push(t('mode_' + f.mode, null, true) || f.mode);
  if (f.rounds === 'ghost') parts.push('G-H-O-S-T');
  if (f.length) parts.push(t('lettersN', { n: f.length }));
  if (f.lang) parts.push(t('lang_' + f.lang, null, true) || f.lang);
  if (f.clock) parts.push(Number(f.clock) % 60 ? t('perMove', { s: f.clock }) : t('perMoveMin', { m: Number(f.clock) / 60 }));
  if (f.rated === 'yes') parts.push(t('ratedGame'));
  return parts.join(', ');
}

/** INVITE from=… code=…: shown on every screen, with Accept and Decline (Alt+Y, Alt+N). */
export function onInvite(line) {
  const f = line.f;
  if (!f.from || !f.code) return;
  invites = invites.filter((i) => i.code !== f.code);
  invites.push({ from: f.from, code: f.code, f });
  if (invites.length > 5) invites.shift();
  drawInvites();
  say(t('invitedSay', { name: f.from, what: gameText(f) }));
  // The newest invitation's Accept takes the focus, unless the player is typing or playing.
  const a = document.activeElement;
  const busy = (a && a !== document.body && a.matches('input, select, textarea'))
    || (debug.state === 'game' && S.game && !S.game.over && !S.game.watching);
  if (!busy) { const b = $('invites').querySelector('.invite:last-child [data-test=invite-accept]'); if (b) b.focus({ preventScroll: true }); }
}

export function drawInvites() {
  const box = $('invites');
  box.replaceChildren();
  box.hidden = !invites.length;
  for (const inv of invites) {
    const d = el('div', 'invite');
    d.dataset.test = 'invite';
    d.dataset.code = inv.code;
    d.dataset.from = inv.from;
    const acc = button(t('acceptInvite'), 'invite-accept', () => acceptInvite(inv), 'small primary');
    acc.setAttribute('aria-keyshortcuts', 'Alt+Y');
    const dec = button(t('declineInvite'), 'invite-decline', () => declineInvite(inv));
    dec.setAttribute('aria-keyshortcuts', 'Alt+N');
    for (const b of [acc, dec]) b.dataset.code = inv.code;
    const p = el('p', 'invite-text', t('invited', { name: inv.from, what: gameText(inv.f) }));
    const keys = el('span', 'invite-keys hint', t('inviteKeys'));
    d.append(p, acc, dec, keys);
    box.append(d);
  }
}

function removeInvite(code) {
  const had = invites.some((i) => i.code === code);
  invites = invites.filter((i) => i.code !== code);
  if (had) drawInvites();
  return had;
}

export async function acceptInvite(inv) {
  removeInvite(inv.code);
  // One game at a time: a seek or an open game of one's own ends first, and watching stops.
  if (debug.state === 'waiting') await send('LEAVE');
  if (S.game && S.game.watching && !S.game.over) await send('UNWATCH');
  const r = await send('JOIN ' + inv.code);
  if (!r.ok) notice(r.code === 'no-such-game' ? t('inviteGone', { name: inv.from }) : socialErr(r, inv.from));
  // The GAME line that follows opens the game screen.
}

export async function declineInvite(inv) {
  removeInvite(inv.code);
  const r = await send('DECLINE ' + inv.code);
  if (!r.ok && r.code !== 'no-such-game') notice(socialErr(r, inv.from));
}

/** Alt+Y accepts the newest invitation, Alt+N declines it, from anywhere (a letter never plays). */
export function inviteKey(e) {
  if (!invites.length || !e.altKey || e.ctrlKey || e.metaKey) return false;
  const k = e.code === 'KeyY' || e.key === 'y' || e.key === 'Y' ? 'y' : e.code === 'KeyN' || e.key === 'n' || e.key === 'N' ? 'n' : '';
  if (!k) return false;
  e.preventDefault();
  const inv = invites[invites.length - 1];
  if (k === 'y') acceptInvite(inv); else declineInvite(inv);
  return true;
}

/** WITHDRAWN from=… code=…: the invitation no longer stands. */
export function onWithdrawn(line) {
  if (!removeInvite(line.f.code)) return;
  const text = t('inviteWithdrawn', { name: line.f.from });
  notice(text);
  say(text);
}

/** The inviter's side: DECLINED name=… code=… (an offer's DECLINED has no code=). */
export function onInviteDeclined(line) {
  S.socialSaid = Date.now();
  const text = t('inviteDeclined', { name: line.f.name });
  if (S.inviting && S.inviting.code === line.f.code) {
    S.inviting = null;
    if (debug.state === 'waiting') show('menu');
  }
  notice(text);
  say(text);
}

// ---- Chat: under the board, for the players or the watchers -----------------------------

const isBot = (name) => /^bot-/i.test(name || '');

/** Whether the chat may be written in now: a game between people (or one watched) that goes on. */
let chatLive = false;

/**
 * After each GAME, OVER, MATCH or ABORTED: the chat box for a game between
 * people (or one watched); a new game starts an empty log. Once the game
 * is over its lines stay in view, but nobody hears a SAY any more (the
 * server answers ERR not-in-game): the field goes.
 */
export function chatForGame() {
  const g = S.game;
  const people = !!g && (g.watching || (g.players.length > 1 && g.players.includes(S.name) && !g.players.some(isBot)));
  if (!g || g.id !== chatId) { $('chat-log').replaceChildren(); chatId = g ? g.id : null; }
  chatLive = people && !g.over;
  // A field being written in stays open (a match's next round); one no longer heard closes.
  if (!chatLive) closeChat();
  else if ($('chat-form').hidden) $('chat-open').hidden = false;
  $('chat').hidden = !people;
  const opp = people && !g.watching ? g.players.find((p) => p !== S.name) : '';
  const prof = $('chat-profile');
  prof.hidden = !opp;
  prof.dataset.name = opp || '';
  prof.textContent = opp ? t('profileOf', { name: opp }) : '';
}

export function openChat() {
  if (!chatLive || debug.state !== 'game') return false;
  $('chat-form').hidden = false;
  $('chat-open').hidden = true;
  $('chat-input').focus();
  return true;
}

export function closeChat() {
  const hadFocus = document.activeElement === $('chat-input');
  $('chat-form').hidden = true;
  $('chat-open').hidden = !chatLive;
  if (hadFocus) (chatLive ? $('chat-open') : document.body).focus({ preventScroll: true });
}

/** On the game screen, `/` opens the chat (it is no letter, so it never plays). */
export function chatKey(e) {
  if (e.key !== '/' || debug.state !== 'game' || e.ctrlKey || e.metaKey || e.altKey) return false;
  if (!openChat()) return false;
  e.preventDefault();
  return true;
}

function addChat(who, text, kind) {
  const log = $('chat-log');
  const li = el('li', 'chat-line from-' + kind);
  li.dataset.test = 'chat-line';
  li.dataset.from = who;
  li.append(el('span', 'chat-who', who + ': '), el('span', 'chat-text', text));
  log.append(li);
  while (log.children.length > CHAT_KEEP) log.firstChild.remove();
}

/** SAID id=… player=… [watcher=yes] - text */
export function onSaid(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id || !line.f.player) return;
  addChat(line.f.player, line.text, line.f.watcher === 'yes' ? 'watcher' : 'player');
}

$('chat-open').addEventListener('click', () => openChat());
$('chat-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $('chat-input');
  // One line: nothing that would end it or that the server refuses.
  const text = input.value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (!text) return;
  input.value = '';
  const r = await send('SAY ' + text);
  if (!r.ok) { notice(socialErr(r)); if (!input.value) input.value = text; return; }
  addChat(t('you'), text, 'self');
});
// Escape leaves the chat (and nothing else: the page's own Escape does not see it).
$('chat-input').addEventListener('keydown', (e) => {
  if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); closeChat(); }
});
$('chat-profile').addEventListener('click', (e) => {
  const name = e.currentTarget.dataset.name;
  if (name) openHistory(name, 'game');
});

// ---- A name's profile: follow, invite, block, report -------------------------------------

/** The buttons under another name's history (lists.js), or null for one's own. */
export function profileTools(who) {
  if (!who || who === S.name) return null;
  const box = el('div', 'profile-tools');
  box.dataset.test = 'profile-tools';
  const report = button(t('report'), 'profile-report', () => reportForm(who, box));
  box.append(button(t('follow'), 'profile-follow', () => follow(who)),
    button(t('invite'), 'profile-invite', () => openInvite(who)),
    button(t('block'), 'profile-block', () => block(who)), report);
  return box;
}

function reportForm(who, box) {
  if (box.querySelector('form')) { box.querySelector('input').focus(); return; }
  const form = el('form', 'row-form report-form');
  const label = el('label', '', t('reportWhy', { name: who }));
  label.htmlFor = 'report-reason';
  const input = el('input');
  input.id = 'report-reason';
  input.dataset.test = 'report-reason';
  input.maxLength = 200; input.required = true; input.autocomplete = 'off';
  const sendB = el('button', 'small primary', t('sendReport'));
  sendB.dataset.test = 'report-send';
  const cancel = button(t('cancel'), 'report-cancel', () => form.remove());
  form.append(label, input, sendB, cancel);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const reason = input.value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
    if (!reason) return;
    const r = await send(`REPORT ${who} ${reason}`);
    if (!r.ok) { notice(socialErr(r, who)); return; }
    form.remove();
    notice(t('reported', { name: who }));
  });
  box.append(form);
  input.focus();
}

// ---- Settings: presence, chat, invitations -----------------------------------------------

/** The keys the settings screen shows under "Friends and chat", with their choices and defaults. */
export const SOCIAL_SETTINGS = { presence: ['on', 'off'], chat: ['on', 'off'], invites: ['anyone', 'friends', 'nobody'] };

/** Draws again what has words in it, in the page's new language. */
export function redrawSocial() {
  drawInvites();
  if (debug.state === 'friends') { drawFriends(); drawBlocks(); $('friends-hint').textContent = S.registered ? '' : t('friendsGuest'); }
  const prof = $('chat-profile');
  if (prof.dataset.name) prof.textContent = t('profileOf', { name: prof.dataset.name });
}
