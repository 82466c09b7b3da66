// Lists: watching, scores, history, replay and the review.
import { t, uiLang } from './i18n.js';
import { $, el, errText, notice, S, send, show } from './ui.js';
import { toMenu } from './game.js';
import { profileTools } from './social.js';

// ---- Lists: watching, scores, history, replay, review ------------------------------------

export const colName = (k) => t('col_' + k, null, true) || k;

/** A table of data lines' fields; `extra(line, tr)` may add cells (buttons). */
export function table(lines, cols, extra) {
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
export function columns(lines, skip = []) {
  const cols = [];
  for (const l of lines) for (const k of Object.keys(l.f)) if (!cols.includes(k) && !skip.includes(k)) cols.push(k);
  return cols;
}

export function openList(title, back) {
  S.back = back || 'menu';
  $('list-title').textContent = title;
  $('list-tools').replaceChildren();
  $('list-body').replaceChildren(el('p', 'hint', t('loading')));
  show('list');
}

export function listMessage(text) { $('list-body').replaceChildren(el('p', 'hint', text)); }

export function smallButton(text, test, onClick) {
  const b = el('button', 'small', text);
  b.type = 'button';
  b.dataset.test = test;
  b.addEventListener('click', onClick);
  return b;
}

export async function openWatch() {
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

export async function watch(id) {
  const r = await send('WATCH ' + id);
  if (!r.ok) notice(errText(r));
  // The game's state follows as GAME … watching=yes.
}

export const BOARDS = [
  ['SCORES', 'boardGame'], ['SCORES mode=match', 'boardMatch'],
  ['SCORES bot=easy', 'boardEasy'], ['SCORES bot=medium', 'boardMedium'], ['SCORES bot=hard', 'boardHard'],
  ['SCORES game=hangman mode=evil', 'boardEvil'], ['SCORES game=hangman mode=fair', 'boardFair'],
  ['SCORES game=hangman mode=phrase', 'boardPhrase'], ['SCORES game=hangman mode=duel', 'boardDuel'],
  ['TOP', 'topGhost'], ['TOP variant=super', 'topSuper'], ['TOP variant=challenge', 'topChallenge'], ['TOP game=hangman', 'topHangman'],
];

export async function openScores(cmd) {
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

export async function openHistory(name, back) {
  const who = name || S.name;
  openList(who && who !== S.name ? t('historyOf', { name: who }) : t('menuHistory'), back);
  $('list-tools').append(historyForm(who));
  // Another name's profile: follow, invite, block, report (social.js).
  const tools = profileTools(who);
  if (tools) $('list-tools').append(tools);
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
export function historyForm(who) {
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
export async function openReplay(id, back) {
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

export async function openReview(id, back) {
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
export function listBack() {
  if (S.back === 'history') openHistory();
  else if (S.back === 'game' && S.game) show('game');
  else toMenu();
}
