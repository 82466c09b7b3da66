// Drawing a game's board from VIEW's ROW lines, kind-neutrally, with a few
// richer touches for the kinds we know (Ghost's fragment, Hangman's gallows).
// Every server-provided string goes through textContent, never innerHTML.

const SVG = 'http://www.w3.org/2000/svg';

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A ROW line as a plain object. */
export function rowOf(line) {
  const f = line.f;
  return { key: f.key || '', shape: f.shape || 'text', value: f.value || '', max: f.max, seat: f.seat, label: line.text };
}

/** One box per character: `_` a hidden letter, `/` the gap between words. */
function cells(value, cls) {
  const box = el('div', 'cells ' + (cls || ''));
  box.setAttribute('role', 'img');
  const spoken = [...value].map((c) => (c === '_' ? '?' : c === '/' ? ' ' : c)).join(' ');
  box.setAttribute('aria-label', spoken || '–');
  if (!value) box.append(el('span', 'cell empty', '\u00a0'));
  // Each word of a phrase is a group that wraps to the next line as a whole when it fits there.
  for (const word of value ? value.split('/') : []) {
    const w = el('span', 'word');
    for (const c of word) w.append(el('span', c === '_' ? 'cell hidden' : 'cell', c === '_' ? '\u00a0' : c.toUpperCase()));
    box.append(w);
  }
  return box;
}

/** G-H-O-S-T with the letters a player holds lit. */
function ghostLetters(value) {
  const box = el('div', 'cells ghost-letters');
  box.setAttribute('aria-label', value || '–');
  [...'GHOST'].forEach((c, i) => box.append(el('span', i < value.length ? 'cell held' : 'cell', c)));
  return box;
}

/** A count out of max, as a number and a bar. */
function count(value, max) {
  const box = el('div', 'count');
  box.append(el('span', 'count-num', max ? `${value} / ${max}` : value));
  if (max) {
    const m = document.createElement('meter');
    m.min = 0; m.max = Number(max) || 0; m.value = Number(value) || 0;
    m.low = Math.ceil(m.max / 4); m.optimum = m.max;
    m.setAttribute('aria-hidden', 'true');
    box.append(m);
  }
  return box;
}

/** The gallows, drawn part by part as misses are used (scaled to the misses allowed). */
export function gallows(used, allowed) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 120 140');
  svg.setAttribute('class', 'gallows');
  svg.setAttribute('aria-hidden', 'true');
  const parts = [
    ['line', { x1: 10, y1: 132, x2: 110, y2: 132 }], ['line', { x1: 30, y1: 132, x2: 30, y2: 10 }],
    ['line', { x1: 30, y1: 10, x2: 80, y2: 10 }], ['line', { x1: 80, y1: 10, x2: 80, y2: 28 }],
    ['circle', { cx: 80, cy: 40, r: 12 }], ['line', { x1: 80, y1: 52, x2: 80, y2: 90 }],
    ['line', { x1: 80, y1: 62, x2: 64, y2: 78 }], ['line', { x1: 80, y1: 62, x2: 96, y2: 78 }],
    ['line', { x1: 80, y1: 90, x2: 66, y2: 114 }], ['line', { x1: 80, y1: 90, x2: 94, y2: 114 }],
  ];
  const shown = allowed > 0 ? Math.round((used / allowed) * parts.length) : 0;
  parts.forEach(([tag, attrs], i) => {
    const p = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) p.setAttribute(k, v);
    p.setAttribute('class', i < shown ? 'on' : 'off');
    svg.append(p);
  });
  return svg;
}

/** Draws the rows into `box`. `kind` only adds richer touches; any kind draws. */
export function drawRows(box, rows, kind) {
  box.replaceChildren();
  box.dataset.kind = kind || '';
  for (const r of rows) {
    const row = el('div', 'row');
    row.dataset.key = r.key;
    row.dataset.test = 'row-' + r.key;
    row.dataset.shape = r.shape;
    const label = r.seat ? `${r.label} · ${r.seat}` : r.label;
    row.append(el('div', 'row-label', label));
    row.append(rowValue(r, kind));
    box.append(row);
  }
  // Hangman: the gallows beside the pattern, from the "left" count.
  const left = rows.find((r) => r.key === 'left' && r.shape === 'count');
  if (kind === 'hangman' && left && left.max) {
    box.prepend(gallows(Number(left.max) - Number(left.value), Number(left.max)));
  }
}

function rowValue(r, kind) {
  if (kind === 'ghost' && r.key === 'ghost') return ghostLetters(r.value);
  if (r.shape === 'cells') {
    const big = r.key === 'fragment' || r.key === 'pattern' ? 'big' : '';
    const v = el('div', 'row-value');
    v.append(cells(r.value, big));
    if (r.key === 'fragment' || r.key === 'pattern' || r.key === 'word') v.id = r.key === 'word' ? 'my-word' : 'fragment';
    if (v.id === 'fragment') v.dataset.test = 'fragment';
    v.dataset.value = r.value;
    return v;
  }
  if (r.shape === 'count') { const v = el('div', 'row-value'); v.append(count(r.value, r.max)); return v; }
  // text, and any shape this version does not know
  return el('div', 'row-value text', r.value);
}

/** Builds the a–z keyboard once; `onKey(letter)` plays. */
export function buildKeyboard(box, onKey) {
  const rows = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
  for (const letters of rows) {
    const r = el('div', 'krow');
    for (const c of letters) {
      const b = el('button', 'key', c.toUpperCase());
      b.type = 'button';
      b.dataset.key = c;
      b.addEventListener('click', () => onKey(c));
      r.append(b);
    }
    box.append(r);
  }
}

/** Enables the keys, except those in `used` (letters already played). */
export function setKeyboard(box, enabled, used) {
  for (const b of box.querySelectorAll('.key')) {
    const done = used.has(b.dataset.key);
    b.disabled = !enabled || done;
    b.classList.toggle('used', done);
  }
}
