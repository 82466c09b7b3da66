// The game screen: the board from VIEW, the moves, the end, clocks, offers and actions.
import { t } from './i18n.js';
import { buildKeyboard, drawRows, rowOf, setKeyboard } from './board.js';
import { $, announce, debug, el, errText, forgetToken, loadSession, notice, S, saveSession, send, show } from './ui.js';
import { startCommand } from './setup.js';
import { openReplay, openReview } from './lists.js';
import { restoreName } from './app.js';

// ---- The game ------------------------------------------------------------------------

export function newGame(f, watching) {
  return {
    id: f.id, kind: f.game || 'ghost', lang: f.lang, players: (f.players || '').split(',').filter(Boolean),
    bot: f.bot, fields: f, watching, self: S.name, turn: [], rows: [], cans: [], over: false, letterMode: 0,
    deadline: 0, clockKind: '', claimable: false, away: {}, offer: null, match: f.rounds === 'ghost',
    hasLetters: f.game === 'ghost' || f.game === 'hangman' || !f.game, used: new Set(),
  };
}

export const isBot = (name) => /^bot-/i.test(name || '');
export const me = () => S.name;
export const mine = (g) => !!g && !g.watching && g.players.includes(me());
export const opponentOf = (g) => g.players.find((p) => p !== me()) || '';

export function onGame(line) {
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

export function onTurn(line) {
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
export async function requestView(g) {
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
  // Letters typed while this view was on its way are played now, one a turn, in order.
  const next = (g.queued || []).shift();
  if (next) playLetter(next.c, next.alt, true);
}

/** Hangman: letters already guessed (in the pattern or missed) cannot be played again. */
export function usedLetters(g) {
  const used = new Set();
  if (g.kind !== 'hangman') return used;
  for (const r of g.rows) if (r.key === 'pattern' || r.key === 'missed') for (const c of r.value) if (/[a-z]/.test(c)) used.add(c);
  return used;
}

export function drawBoard(g) { drawRows($('board'), g.rows, g.kind); }

export function drawPlayers() {
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

export function statusText(g) {
  if (g.over) return t('gameOver');
  if (!g.turn.length) return '';
  if (!g.watching && g.turn.includes(me())) return g.challenged ? t('yourTurnChallenged') : t('yourTurn');
  const others = g.turn.filter((p) => p !== me()).join(', ');
  return g.watching ? t('toMove', { name: others }) : t('waitingFor', { name: others });
}

export function drawStatus() {
  const g = S.game;
  const s = $('status');
  s.textContent = statusText(g);
  s.dataset.turn = g.over ? 'over' : !g.watching && g.turn.includes(me()) ? 'you' : g.turn.length ? 'them' : '';
}

export const myTurn = (g) => !!g && !g.over && !g.watching && g.turn.includes(me());

/** The moves the server says may be sent now (CAN), as buttons, forms and keys. */
export function drawMoves() {
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

export function drawWordForms(words) {
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

/** Plays a letter with the move chosen (Superghost: at the end or the front);
 * `queued`: it is the first of the letters kept (requestView plays it). */
export function playLetter(c, alt, queued = false) {
  const g = S.game;
  if (!myTurn(g)) return;
  // Typed before the moves of this turn are known (its VIEW is on its way, or
  // the last move's answer), or behind letters kept so: kept, and played once
  // they are (requestView), in the order typed.
  if (g.busy || !g.cans.length || (!queued && g.queued && g.queued.length)) {
    g.queued = g.queued || [];
    if (g.queued.length < 8) g.queued.push({ c, alt });
    return;
  }
  const letters = g.cans.filter((x) => x.takes === 'letter');
  if (!letters.length || g.used.has(c)) return;
  const m = letters[alt && letters.length > 1 ? (g.letterMode + 1) % letters.length : g.letterMode] || letters[0];
  play([m.verb, c, m.then].filter(Boolean).join(' '));
}

export async function play(cmd) {
  const g = S.game;
  g.busy = true;
  drawMoves();
  const r = await send(cmd);
  g.busy = false;
  if (!r.ok) { g.queued = []; notice(errText(r)); announce(errText(r)); if (!g.over) drawMoves(); return; }
  notice('');
}

buildKeyboard($('keyboard'), (c) => playLetter(c, false));

/** Says what a MOVE did, in words, for the log and the live region. */
export function moveText(f) {
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

export function logLine(text) {
  const log = $('log');
  log.append(el('li', '', text));
  while (log.children.length > 200) log.firstChild.remove();
}

export function onMove(line) {
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

export function outcomeOf(g, f) {
  if (f.draw) return 'draw';
  // g.self: the name this browser plays under, also when a resumed game ended while away.
  const self = g.watching ? '' : g.self || me();
  if (self && f.winner === self) return 'won';
  if (self && f.loser === self) return 'lost';
  return 'watched';
}

export function resultText(outcome, f, isMatch) {
  const key = isMatch ? 'match_' : 'game_';
  if (outcome === 'draw') return t('draw');
  if (outcome === 'watched') return t(key + 'watched', { winner: f.winner, loser: f.loser });
  return t(key + outcome, { winner: f.winner, loser: f.loser });
}

export function reasonText(f) {
  const self = S.game && !S.game.watching && (S.game.self || me());
  const loser = self && f.loser === self ? t('you') : f.loser;
  const winner = self && f.winner === self ? t('you') : f.winner;
  // A reason we have no words for is said by the INFO that follows.
  return t('reason_' + f.reason, { loser, winner }, true);
}

export function onOver(line) {
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
export function rowValueFrom(g, r, v) {
  if (v === '-') return '';
  if (r.seat && v.includes(',')) return v.split(',')[g.players.indexOf(r.seat)] || '';
  return v;
}

/** A board when VIEW was never answered (a game that ended while away). */
export function finalRows(g, f) {
  const skip = new Set(['id', 'winner', 'loser', 'draw', 'reason', 'ended', 'ratings', 'changes', 'word']);
  for (const [k, v] of Object.entries(f)) {
    if (skip.has(k)) continue;
    const cellsKey = k === 'fragment' || k === 'pattern';
    g.rows.push({ key: k, shape: cellsKey ? 'cells' : 'text', value: v, label: t('row_' + k, null, true) || k });
  }
  if (f.pattern !== undefined) g.kind = 'hangman';
}

export function showResult(outcome, text, final) {
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
export function ratingText(g, f) {
  if (!f.ratings || !f.changes) return '';
  const i = g.players.indexOf(g.self || me());
  if (i < 0 || g.watching) return '';
  return t('ratingChange', { r: f.ratings.split(',')[i], c: f.changes.split(',')[i] });
}

export function onMatch(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  forgetToken();
  const outcome = outcomeOf(g, line.f);
  showResult(outcome, resultText(outcome, line.f, true), true);
  logLine($('result-text').textContent);
}

export function onAborted(line) {
  let g = S.game;
  if (!g || g.id !== line.f.id) { g = S.game = newGame({ id: line.f.id }, false); show('game'); }
  g.over = true; g.turn = [];
  forgetToken();
  showResult('aborted', t('aborted_' + line.f.reason, null, true) || t('aborted'), true);
}

export function onInfo(line) {
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

export function setClock(f) {
  const g = S.game;
  const secs = f.clock !== undefined ? f.clock : f.claim_in !== undefined ? f.claim_in : f.abort_in;
  g.clockKind = f.clock !== undefined ? 'clock' : f.claim_in !== undefined ? 'claim' : f.abort_in !== undefined ? 'abort' : '';
  g.deadline = secs !== undefined ? Date.now() + Number(secs) * 1000 : 0;
  g.claimable = false;
  $('act-claim').hidden = true;
  tick();
}

export function fmt(s) { return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; }

export function tick() {
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

export function offerWhat(f) {
  return f.kind === 'lang' ? t('offerLang', { lang: f.lang }) : f.kind === 'restart' ? t('offerRestart') : f.kind;
}

export function onOffer(line) {
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

export function onOfferEnd(line) {
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
export async function answerOffer(cmd) {
  const r = await send(cmd);
  if (!r.ok) notice(errText(r));
  $('offer').hidden = true;
}

export function onRematch(line) {
  const g = S.game;
  if (!g || !g.over) { notice(t('wantsRematch', { name: line.f.player })); return; }
  g.rematchAsked = true;
  $('result-info').textContent = t('wantsRematch', { name: line.f.player });
  $('act-rematch').hidden = false;
  $('act-rematch').classList.add('pulse');
  announce($('result-info').textContent);
}

export function onAdjourned(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  const f = line.f;
  g.away[f.player] = true;
  $('away').hidden = false;
  $('away').textContent = t('away', { name: f.player, s: f.grace });
  drawPlayers();
  announce($('away').textContent);
}

export function onReturned(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  delete g.away[line.f.player];
  $('away').hidden = !Object.keys(g.away).length;
  $('act-claim').hidden = true;
  drawPlayers();
  announce(t('returned', { name: line.f.player }));
}

export function onClaimable(line) {
  const g = S.game;
  if (!g || g.id !== line.f.id) return;
  if (mine(g)) $('act-claim').hidden = false;
  $('away').hidden = false;
  $('away').textContent = t('claimable', { name: line.f.player });
  announce($('away').textContent);
}

// ---- Game actions -------------------------------------------------------------

export function drawActions() {
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
export async function toMenu() {
  if (S.game && S.game.watching && !S.game.over) await send('UNWATCH');
  if (!S.name) { await restoreName(Object.assign(loadSession(), { token: null })); if (!S.name) { show('name'); return; } }
  show('menu');
}
