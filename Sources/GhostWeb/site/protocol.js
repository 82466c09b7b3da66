// The line protocol over a WebSocket: parsing lines, matching replies to
// commands, reconnecting. Knows nothing of screens.

// Keywords that are data lines of the command being answered (Protocol.md §2).
const DATA = new Set(['NAME', 'SCORE', 'SETTING', 'HELP', 'LIVE', 'STAT', 'LEADER',
  'RATING', 'VERSUS', 'RESULT', 'PLAYED', 'PLY', 'ROW', 'CAN', 'FRIEND', 'BLOCKED']);
// Lines whose free text follows " - " (the rest of the line is fields).
const DASH_TEXT = new Set(['ROW', 'CAN', 'HELP', 'SAID']);

/** Splits one server line into {kw, args, f (fields), text, raw}. */
export function parse(raw) {
  const line = raw.replace(/[\r\n]+$/, '');
  const sp = line.indexOf(' ');
  const kw = sp < 0 ? line : line.slice(0, sp);
  let rest = sp < 0 ? '' : line.slice(sp + 1);
  const out = { kw, args: [], f: {}, text: '', raw: line };
  if (kw === 'INFO') { out.text = rest; return out; }
  if (kw === 'ERR' || kw === 'BYE') {
    const m = rest.match(/^(\S*)\s?(.*)$/);
    out.code = m[1]; out.text = m[2]; return out;
  }
  if (DASH_TEXT.has(kw)) {
    const d = rest.indexOf(' - ');
    if (d >= 0) { out.text = rest.slice(d + 3); rest = rest.slice(0, d); }
    else if (rest.startsWith('- ')) { out.text = rest.slice(2); rest = ''; }
  }
  for (const w of rest.split(/[ \t]+/)) {
    if (!w) continue;
    const eq = w.indexOf('=');
    // A field's key is lowercase; anything else (a usage word like "[n]") is an argument.
    if (eq > 0 && /^[a-z][a-z0-9_]*$/.test(w.slice(0, eq))) out.f[w.slice(0, eq)] = w.slice(eq + 1);
    else out.args.push(w);
  }
  return out;
}

/** Hides what must never be logged: passwords (the rest of the line). */
export function redact(cmd) {
  if (/^(REGISTER|PASSWORD)\s/i.test(cmd)) return cmd.split(/\s/)[0] + ' ***';
  const m = cmd.match(/^(NAME\s+\S+)\s/i);
  return m ? m[1] + ' ***' : cmd;
}

const keep = (arr, item, max) => { arr.push(item); if (arr.length > max) arr.splice(0, arr.length - max); };

/**
 * One connection that comes back by itself: onOpen after each HELLO,
 * onEvent for every event line, onClose when the socket goes.
 */
export class Conn {
  constructor(url, hooks, debug) {
    this.url = url; this.hooks = hooks; this.debug = debug;
    this.ws = null; this.pending = []; this.hello = null;
    this.retry = 0; this.stopped = false; this.timer = null;
  }

  open() {
    clearTimeout(this.timer);
    this.stopped = false;
    let ws;
    try { ws = new WebSocket(this.url); } catch (e) { this.scheduleRetry(); return; }
    this.ws = ws;
    // One line a frame; a frame holding several is read line by line all the same.
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      for (const l of String(e.data).split(/\r?\n/)) if (l) this.receive(l);
    };
    ws.onclose = () => { if (ws === this.ws) this.closed(); };
    ws.onerror = () => {};
  }

  get connected() { return !!this.ws && this.ws.readyState === 1 && !!this.hello; }

  receive(raw) {
    const line = parse(raw);
    keep(this.debug.lines, line.raw, 200);
    if (line.kw === 'HELLO') {
      this.hello = line; this.retry = 0; this.debug.connected = true;
      this.hooks.onOpen(line); return;
    }
    if (line.kw === 'OK' || line.kw === 'ERR') {
      const p = this.pending.shift();
      if (p) p.resolve({ ok: line.kw === 'OK', line, f: line.f, code: line.code, text: line.text, data: p.data });
      return;
    }
    if (DATA.has(line.kw) && this.pending.length) { this.pending[0].data.push(line); return; }
    if (line.kw === 'BYE') this.bye = line;
    this.hooks.onEvent(line);
  }

  /** Sends one command; resolves with its final reply and data lines. */
  send(cmd) {
    keep(this.debug.sent, redact(cmd), 200);
    if (!this.connected) return Promise.resolve({ ok: false, code: 'offline', text: '', f: {}, data: [] });
    return new Promise((resolve) => {
      this.pending.push({ resolve, data: [] });
      this.ws.send(cmd);
    });
  }

  closed() {
    this.debug.connected = false; this.hello = null;
    const bye = this.bye; this.bye = null;
    for (const p of this.pending.splice(0)) p.resolve({ ok: false, code: 'offline', text: '', f: {}, data: [] });
    this.ws = null;
    this.hooks.onClose(bye);
    if (!this.stopped) this.scheduleRetry();
  }

  // Backoff: 0.5 s, 1 s, 2 s … at most 15 s, so a restarted daemon is found
  // quickly without hammering one that is down.
  scheduleRetry() {
    const delay = Math.min(15000, 500 * 2 ** this.retry++);
    this.hooks.onRetry(delay);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  stop() { this.stopped = true; clearTimeout(this.timer); if (this.ws) this.ws.close(); }
}

/** ws:// or wss:// to this page's own host. */
export function socketURL(loc) {
  return (loc.protocol === 'https:' ? 'wss://' : 'ws://') + loc.host + '/ws';
}
