// Shared by the web client's modules: the page's state, its storage, the
// screens, notices and the live region, and the line sent to the server.
// Every server string is shown with textContent (names, labels and texts may be hostile).
import { t } from './i18n.js';

export const $ = (id) => document.getElementById(id);
export const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// ---- State ----------------------------------------------------------------

export const debug = { state: 'connecting', lines: [], sent: [], connected: false };
export const S = {
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

export const STORE = 'ghost.session';
export function loadSession() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
}
export function saveSession(patch) {
  const s = Object.assign(loadSession(), patch);
  for (const k of Object.keys(s)) if (s[k] === null || s[k] === undefined) delete s[k];
  try { localStorage.setItem(STORE, JSON.stringify(s)); } catch (e) { /* private mode: no resume */ }
}
export const forgetToken = () => saveSession({ token: null, gameId: null });

// ---- The connection (app.js makes it) ------------------------------------------

/** The connection, once app.js has made it. */
export const link = { conn: null };
export const send = (cmd) => link.conn.send(cmd);

// ---- Screens --------------------------------------------------------------------

export function show(name) {
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

export let noticeTimer = 0;
export function notice(text) {
  const n = $('notice');
  n.textContent = text;
  n.hidden = !text;
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { n.hidden = true; }, 8000);
}

export function announce(text) {
  const a = $('announce');
  a.textContent = '';
  // A new text node after a tick, so the same words twice are read twice.
  setTimeout(() => { a.textContent = text; }, 30);
}

export function errText(r) {
  const known = t('err_' + r.code, null, true);
  return known || r.text || r.code;
}

export function whoShow() {
  $('who').textContent = S.name ? (S.registered ? S.name + ' ✓' : S.name) : '';
}

export function named(f) {
  S.registered = f.registered === 'yes';
  S.name = f.name;
  if (f.lang) S.lang = f.lang;
  saveSession({ name: S.name, registered: S.registered });
  whoShow();
}
