#!/usr/bin/env python3
"""Soak benchmark (not a test): a release ghostd under a mixed load for a long
time, sampled every minute.

The load, all at once, for `seconds`:
  - `pairs` pairs of players play Ghost games to the end (random letters, so
    games are short), over and over, on private games (NEW, JOIN);
  - `hangmen` players play evil Hangman games against the computer, over and over;
  - now and then a player drops its socket mid-game and RESUMEs by token on a
    new connection;
  - `idle` connections are held open, each PINGed once a minute;
  - the hostile catalog runs in a loop: a 1 MB line, NUL bytes, invalid UTF-8,
    ANSI escapes, a 10,000-line flood, a client that never reads, closes in
    the middle of a line.

Every `interval` seconds it prints ghostd's resident memory (VmRSS), its open
file descriptors, the database size (with its WAL) and the games finished.

  scripts/soak.py BINARY [seconds] [interval]
"""
import os, random, socket, subprocess, sys, tempfile, threading, time

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 600
interval = float(sys.argv[3]) if len(sys.argv) > 3 else 60
pairs, hangmen, idle = 8, 4, 500

data = tempfile.mkdtemp(prefix="ghostd-soak-")
proc = subprocess.Popen([binary, "--port", "0", "--data", data, "--durability", "normal",
                         "--max-new-names-per-minute", "0", "--max-clients-per-ip", "0", "--max-games-per-network", "0", "--max-commands-per-second", "0", "--bot-delay", "0", "--idle-timeout", "0"],
                        stderr=subprocess.PIPE, text=True)
port = None
for line in proc.stderr:
    if " listening on " in line:
        port = int(line.split(" listening on ")[1].split()[0].rsplit(":", 1)[1])
        break
if port is None:
    sys.exit("ghostd did not start")
threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()   # keep stderr drained

stop = time.monotonic() + seconds
lock = threading.Lock()
counts = {"ghost": 0, "hangman": 0, "resumes": 0, "hostile": 0, "errors": 0}


first_errors = []


def bump(key, n=1, why=None):
    with lock:
        counts[key] += n
        if why is not None and len(first_errors) < 5:
            first_errors.append(why)


class Conn:
    def __init__(self):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""

    def send(self, line):
        self.s.sendall(line.encode() + b"\n")

    def line(self):
        while b"\n" not in self.buf:
            d = self.s.recv(65536)
            if not d:
                raise ConnectionError("EOF")
            self.buf += d
        l, self.buf = self.buf.split(b"\n", 1)
        return l.decode("utf-8", "replace").rstrip("\r")

    def until(self, prefix):
        while True:
            l = self.line()
            if l.startswith(prefix):
                return l

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def field(line, key):
    for w in line.split():
        if w.startswith(key + "="):
            return w[len(key) + 1:]
    return ""


def pair_loop(i):
    """Two players; each game a private one, random letters to the end; now
    and then one side drops its socket and resumes by token."""
    rng = random.Random(i)
    names = [f"soak-a{i}", f"soak-b{i}"]
    conns = [Conn(), Conn()]
    for c, n in zip(conns, names):
        c.send(f"NAME {n}")
        c.until("OK NAME")
    while time.monotonic() < stop:
        try:
            conns[0].send("NEW")
            code = field(conns[0].until("OK NEW"), "code")
            conns[1].send(f"JOIN {code}")
            tokens = [field(c.until("GAME "), "token") for c in conns]
            turn = [c.until("TURN ") for c in conns][0]
            fragment = field(turn, "fragment")
            mover = 0
            while True:
                if rng.random() < 0.02:   # drop and resume
                    who = rng.randrange(2)
                    conns[who].close()
                    conns[1 - who].until("ADJOURNED ")
                    conns[who] = Conn()
                    conns[who].send(f"RESUME {tokens[who]}")
                    conns[who].until("OK RESUME")
                    conns[who].until("TURN ")
                    conns[1 - who].until("RETURNED ")
                    bump("resumes")
                letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
                conns[mover].send(letter)
                ok = conns[mover].line()
                if not ok.startswith("OK LETTER"):
                    bump("errors", why=f"pair {i}: {letter} -> {ok}")
                    break
                ends = [None, None]
                for k in range(2):
                    while True:
                        l = conns[k].line()
                        if l.startswith("TURN "):
                            break
                        if l.startswith("OVER "):
                            ends[k] = l
                            break
                if ends[0]:
                    for c in conns:
                        c.until("RANK ")
                        c.until("RANK ")
                    bump("ghost")
                    break
                fragment += letter
                mover = 1 - mover
        except (OSError, ConnectionError) as e:
            bump("errors", why=f"pair {i}: {e!r}")
            for c in conns:
                c.close()
            conns = [Conn(), Conn()]
            for c, n in zip(conns, names):
                c.send(f"NAME {n}")
                c.until("OK NAME")


def hangman_loop(i):
    order = "eaoiuyrstlndmpcgbhfwkvjxqz"
    c = Conn()
    c.send(f"NAME soak-h{i}")
    c.until("OK NAME")
    while time.monotonic() < stop:
        try:
            c.send("NEW game=hangman mode=evil misses=26")
            c.until("TURN ")
            for letter in order:
                c.send(letter)
                c.until("OK LETTER")
                c.line()   # MOVE
                nxt = c.line()
                if nxt.startswith("OVER "):
                    bump("hangman")
                    break
        except (OSError, ConnectionError) as e:
            bump("errors", why=f"hangman {i}: {e!r}")
            c.close()
            c = Conn()
            c.send(f"NAME soak-h{i}")
            c.until("OK NAME")


def idle_loop():
    held = []
    for k in range(idle):
        c = Conn()
        c.send(f"NAME soak-idle{k}")
        held.append(c)
    for c in held:
        c.until("OK NAME")
    while time.monotonic() < stop:
        time.sleep(min(60, max(0, stop - time.monotonic())))
        for c in held:
            try:
                c.send("PING")
                c.until("OK PING")
            except (OSError, ConnectionError):
                bump("errors")
    for c in held:
        c.close()


def hostile_loop():
    rng = random.Random(7)
    while time.monotonic() < stop:
        kind = rng.randrange(6)
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            if kind == 0:
                s.sendall(b"x" * 1_000_000 + b"\n")
            elif kind == 1:
                s.sendall(b"NAME a\x00b\nPING\x00\n")
            elif kind == 2:
                s.sendall(b"\xff\xfe\xc3\x28 NAME\n")
            elif kind == 3:
                s.sendall(b"NAME \x1b[2Jevil\n\x1b]0;x\x07\n")
            elif kind == 4:
                s.sendall(b"PING\n" * 10_000)   # a flood: BYE flood
            else:
                s.sendall(b"NAME half-a-li")      # closes mid-line
            time.sleep(0.2)
            s.close()
            bump("hostile")
        except OSError:
            pass
        # A client that never reads: HELP until it is dropped.
        if kind == 4:
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.setblocking(False)
                for _ in range(2000):
                    try:
                        s.send(b"HELP\n")
                    except BlockingIOError:
                        break
                    except OSError:
                        break
                time.sleep(0.5)
                s.close()
            except OSError:
                pass
        time.sleep(0.5)


def sample():
    status = open(f"/proc/{proc.pid}/status").read()
    rss = int(next(l for l in status.splitlines() if l.startswith("VmRSS:")).split()[1]) / 1024
    fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
    db = sum(os.path.getsize(os.path.join(data, f)) for f in os.listdir(data) if f.startswith("ghostd.sqlite3"))
    return rss, fds, db


baseline = sample()
threads = [threading.Thread(target=pair_loop, args=(i,), daemon=True) for i in range(pairs)]
threads += [threading.Thread(target=hangman_loop, args=(i,), daemon=True) for i in range(hangmen)]
threads += [threading.Thread(target=idle_loop, daemon=True), threading.Thread(target=hostile_loop, daemon=True)]
start = time.monotonic()
for t in threads:
    t.start()
print(f"ghostd {binary}, {pairs} Ghost pairs, {hangmen} Hangman players, {idle} idle connections, hostile loop; "
      f"{seconds:.0f} s, a sample every {interval:.0f} s")
print(f"{'time':>6} {'RSS MB':>7} {'fds':>5} {'db KB':>8} {'ghost':>7} {'hangman':>8} {'resumes':>8} {'hostile':>8} {'errors':>7}")
print(f"{0:>6.0f} {baseline[0]:>7.1f} {baseline[1]:>5} {baseline[2] // 1024:>8} {0:>7} {0:>8} {0:>8} {0:>8} {0:>7}  (before the load)")
next_at = start + interval
while time.monotonic() < stop:
    time.sleep(max(0, min(next_at, stop) - time.monotonic()))
    rss, fds, db = sample()
    with lock:
        c = dict(counts)
    print(f"{time.monotonic() - start:>6.0f} {rss:>7.1f} {fds:>5} {db // 1024:>8} {c['ghost']:>7} {c['hangman']:>8} "
          f"{c['resumes']:>8} {c['hostile']:>8} {c['errors']:>7}", flush=True)
    next_at += interval
for t in threads:
    t.join(timeout=90)
time.sleep(3)
rss, fds, db = sample()
with lock:
    c = dict(counts)
games = c["ghost"] + c["hangman"]
print(f"after the load: RSS {rss:.1f} MB, {fds} descriptors (baseline {baseline[1]}), "
      f"database {db / 1024 / 1024:.1f} MB for {games} games "
      f"({db / 1024 / max(1, games) * 1000 / 1024:.1f} MB per thousand games)")
if first_errors:
    print("first errors:", *first_errors, sep="\n  ")
proc.terminate()
proc.wait()
