// The name, the menu, setting up a game and waiting for an opponent.
import { t } from './i18n.js';
import { $, announce, el, errText, named, notice, S, send, show } from './ui.js';
import { openHistory, openScores, openWatch, watch } from './lists.js';
import { openSettings } from './settings.js';
import { socialErr } from './social.js';

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

export function drawKinds() {
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

export function openSetup(setup) {
  S.setup = setup;
  $('opt-opponent').value = setup.opponent;
  $('opt-game').value = setup.other ? 'ghost' : setup.game;
  $('opt-options').value = '';
  // An invitation says its language: the game is played in the inviter's (LANG).
  const ol = $('opt-lang');
  ol.replaceChildren(...S.languages.map((l) => { const o = el('option', '', t('lang_' + l, null, true) || l); o.value = l; return o; }));
  ol.value = S.lang;
  $('opt-options-help').textContent = setup.other ? `${setup.other.usage} — ${setup.other.text}` : '';
  setupFields();
  show('setup');
}

/** Shows the fields that apply to the opponent and game chosen. */
export function setupFields() {
  const opp = $('opt-opponent').value;
  const other = S.setup && S.setup.other;
  const game = other ? other.kind : $('opt-game').value;
  const ghost = game === 'ghost', hang = game === 'hangman';
  const vis = {
    opponent: true, game: !other, level: ghost && opp === 'bot', variant: ghost, rounds: ghost,
    first: ghost && opp === 'bot', mode: hang && opp === 'bot', length: hang, misses: hang,
    clock: true, rated: opp !== 'bot', watch: opp === 'private', options: !!other,
  };
  const invite = S.setup && S.setup.invite;
  if (invite) { vis.opponent = false; vis.lang = true; }
  for (const f of document.querySelectorAll('#setup-form .field')) f.hidden = !vis[f.dataset.for];
  $('setup-title').textContent = invite ? t('inviteTitle', { name: invite }) : other ? t('playKind', { kind: other.kind }) : t('setupTitle_' + opp + '_' + game);
}
$('opt-opponent').addEventListener('change', setupFields);
$('opt-game').addEventListener('change', setupFields);

/** The NEW or SEEK line for the form. */
export function setupCommand() {
  const v = (id) => $(id).value.trim();
  const opp = v('opt-opponent');
  const other = S.setup && S.setup.other;
  const game = other ? other.kind : v('opt-game');
  const invite = S.setup && S.setup.invite;
  // An invitation (issue #47) is a private game for one name: NEW's options, sent as INVITE <name>.
  const parts = [opp === 'seek' ? 'SEEK' : invite && opp === 'private' ? 'INVITE ' + invite : 'NEW'];
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
  if (await chooseLang()) await startCommand(cmd, opp);
});

/** The language chosen for an invitation, as LANG (saved for your next games too), before INVITE. */
async function chooseLang() {
  const f = $('opt-lang');
  if (f.closest('.field').hidden || !f.value || f.value === S.lang) return true;
  const r = await send('LANG ' + f.value);
  if (!r.ok) { notice(errText(r)); return false; }
  S.lang = r.f.lang || f.value;
  return true;
}
$('setup-back').addEventListener('click', () => show('menu'));

/** Sends a NEW or SEEK; a private game or a seek waits, the computer starts at once. */
export async function startCommand(cmd, opp) {
  const r = await send(cmd);
  if (!r.ok) { notice(socialErr(r, cmd.split(' ')[1])); return; }
  S.lastNew = opp === 'bot' ? cmd : null;
  if (r.f.code && /^INVITE /.test(cmd)) showWaiting('invite', r.f.code, r.f.name || cmd.split(' ')[1]);
  else if (r.f.code) showWaiting('private', r.f.code);
  else if (/^SEEK/.test(cmd)) showWaiting('seek');
  // Otherwise the GAME line is on its way.
}

export function showWaiting(kind, code, name) {
  // An invitation's code is for the name invited alone: not shown.
  S.inviting = kind === 'invite' ? { code, name } : null;
  const shown = kind === 'invite' ? '' : code;
  $('waiting-title').textContent = kind === 'invite' ? t('waitingInvite', { name }) : t(kind === 'seek' ? 'waitingSeek' : 'waitingPrivate');
  $('code-box').hidden = !shown;
  $('join-code').textContent = shown || '';
  $('waiting-text').textContent = kind === 'invite' ? t('waitingInviteText', { name }) : kind === 'seek' ? t('waitingSeekText') : t('waitingPrivateText');
  $('waiting-queues').replaceChildren();
  S.queues = {};
  show('waiting');
  if (shown) $('join-code').focus();
  announce($('waiting-title').textContent + (shown ? ' ' + [...shown].join(' ') : ''));
}

$('copy-code').addEventListener('click', () => {
  const code = $('join-code').textContent;
  if (navigator.clipboard) navigator.clipboard.writeText(code).then(() => notice(t('copied')), () => {});
});
$('waiting-cancel').addEventListener('click', async () => { S.inviting = null; await send('LEAVE'); show('menu'); });

export function onWaiting(f) {
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
