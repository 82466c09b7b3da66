"""Logins per second, and a probe's PING round trips during the login flood
(scripts/bench-logins.sh builds ghostd and runs this; issue #26).

Starts one ghostd per configuration, each on its own data folder under DATA
(scripts/ghostd_start.py), all alive for the whole run:

  defaults, --hash-threads T    every limit as shipped: the flood comes from
                                one address (127.0.0.1), as one attacker's would
  lifted, --hash-threads T      no command budgets, no per-address caps, the
                                flood spread over 8 addresses 127.0.0.10-17
                                (a network has at most 4 logins being checked
                                at once, a constant): the server's raw capacity

for each T in THREADS. Each configuration gets 2 × CONNS accounts through
NAME + REGISTER (each from its own address 127.0.1.x, so the new-name budget
of one address is not spent). Then ROUNDS rounds; in each, every
configuration in turn (the order rotated every round) runs two phases of
SECONDS each, the order swapped every round:

  idle   the probe alone;
  flood  the probe, and CONNS connections that each log in with the right
         password (`NAME bench<k> <password>`), alternating between their
         own two names, the next as soon as the last is answered.

The probe is one connection from 127.0.0.2 that sends PING every
PROBE_INTERVAL s (25 ms: under the default budget of 50 units a second)
whether or not the last was answered, and times each `OK PING`. Per phase:
logins a second (all of the phase; and its second half, once a network's
burst is spent), the replies by code, the probe's p50/p99/max, and ghostd's
CPU time a second (utime + stime from /proc). Medians over the rounds last.

Then, once, the wrong-password flood: on the defaults configuration with
the default --hash-threads (1), CONNS connections from one fresh address
(127.0.0.3) each send `NAME bench<k> <a wrong password>`, the next as soon as
the last is answered, for WRONG_SECONDS. Every `ERR bad-password` is one
hash; `ERR too-many-attempts` was refused without hashing.

GHOSTD_FLAGS= adds options to every ghostd (e.g. --durability normal).

usage: bench-logins.py GHOSTD DATA ROUNDS SECONDS CONNS THREADS WRONG_SECONDS
  (THREADS: comma-separated, e.g. 1,2)
"""
import collections, os, selectors, socket, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import start_until_hello

ghostd, data = sys.argv[1], sys.argv[2]
rounds, seconds, conns = int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
threads = [int(t) for t in sys.argv[6].split(",")]
wrong_seconds = float(sys.argv[7])
probe_interval = float(os.environ.get("PROBE_INTERVAL", "0.025"))
default_threads = 1   # ServerConfig.hashThreads
PASSWORD = "a bench password, right"
WRONG = "not the password at all"
ticks = os.sysconf("SC_CLK_TCK")
LIFTED = ["--max-commands-per-second", "0", "--max-commands-per-second-per-ip", "0", "--max-clients-per-ip", "0",
          "--max-unnamed-per-ip", "0", "--connects-per-second-per-ip", "0", "--max-new-names-per-minute", "0",
          "--login-backoff-max", "0"]
FLOOD_ADDRESSES = {"defaults": ["127.0.0.1"], "lifted": [f"127.0.0.{10 + i}" for i in range(8)]}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


class Line:
    """A blocking connection for the setup: one line out, one line back."""

    def __init__(self, port, source="127.0.0.1"):
        self.s = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
        self.f = self.s.makefile("rb")
        hello = self.f.readline()
        assert hello.startswith(b"HELLO "), hello

    def ask(self, line):
        self.s.sendall(line.encode() + b"\n")
        while True:
            reply = self.f.readline().decode().rstrip("\r\n")
            if not reply.startswith("INFO"):
                return reply

    def close(self):
        self.s.close()


class Daemon:
    def __init__(self, kind, hash_threads):
        self.kind, self.threads = kind, hash_threads
        self.name = f"{kind}, --hash-threads {hash_threads}"
        self.port = free_port()
        argv = [ghostd, "--port", str(self.port), "--data", f"{data}/{kind}-{hash_threads}", "--hash-threads", str(hash_threads)]
        if kind == "lifted":
            argv += LIFTED
        argv += os.environ.get("GHOSTD_FLAGS", "").split()
        self.proc, hello_socket, _ = start_until_hello(argv, self.port, 30)
        hello_socket.close()
        self.pid = self.proc.pid
        self.register()

    def register(self):
        for k in range(2 * conns):
            c = Line(self.port, f"127.0.1.{1 + k}")
            reply = c.ask(f"NAME bench{k}")
            assert reply.startswith("OK NAME"), reply
            reply = c.ask(f"REGISTER {PASSWORD}")
            assert reply.startswith("OK REGISTER"), reply
            c.close()


class Client:
    """A non-blocking connection in the phase's selector loop."""

    def __init__(self, port, source, role, names=()):
        self.port, self.source, self.role, self.names = port, source, role, list(names)
        self.connect()

    def connect(self):
        self.s = socket.create_connection(("127.0.0.1", self.port), source_address=(self.source, 0))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.hello = False
        self.turn = 0
        self.sent = collections.deque()   # send times of PINGs not yet answered
        self.s.setblocking(False)

    def send_login(self, password):
        self.turn += 1
        self.s.sendall(f"NAME {self.names[self.turn % len(self.names)]} {password}\n".encode())


def percentile(xs, p):
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def phase(daemon, flood, password=PASSWORD, length=None, flood_source=None):
    """One phase on `daemon`: the probe, and the flood if `flood`. Returns the figures."""
    length = length or seconds
    sel = selectors.DefaultSelector()
    probe = Client(daemon.port, "127.0.0.2", "probe")
    sel.register(probe.s, selectors.EVENT_READ, probe)
    loggers = []
    if flood:
        sources = [flood_source] if flood_source else FLOOD_ADDRESSES[daemon.kind]
        loggers = [Client(daemon.port, sources[i % len(sources)], "login", [f"bench{2 * i}", f"bench{2 * i + 1}"])
                   for i in range(conns)]
        for c in loggers:
            sel.register(c.s, selectors.EVENT_READ, c)
    replies = collections.Counter()
    ok_times, rtts = [], []
    reconnects = 0
    cpu0 = cpu_seconds(daemon.pid)
    start = time.perf_counter()
    end = start + length
    next_ping = start
    while True:
        now = time.perf_counter()
        if now >= end:
            break
        if now >= next_ping:
            if probe.hello:
                probe.sent.append(now)
                probe.s.sendall(b"PING\n")
            next_ping += probe_interval
            continue
        for key, _ in sel.select(timeout=min(end, next_ping) - now):
            c = key.data
            try:
                chunk = c.s.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except ConnectionError:
                chunk = b""
            if not chunk:
                if c.role == "probe":
                    sys.exit(f"{daemon.name}: the server closed the probe")
                sel.unregister(c.s)
                c.s.close()
                reconnects += 1
                c.connect()
                sel.register(c.s, selectors.EVENT_READ, c)
                continue
            c.buf += chunk
            while b"\n" in c.buf:
                line, c.buf = c.buf.split(b"\n", 1)
                line = line.rstrip(b"\r").decode()
                t = time.perf_counter()
                if line.startswith("HELLO "):
                    c.hello = True
                    if c.role == "login" and t < end:
                        c.send_login(password)
                    continue
                if c.role == "probe":
                    assert line == "OK PING", line
                    rtts.append(t - probe.sent.popleft())
                    continue
                words = line.split()
                if words[0] in ("INFO", "BYE"):
                    replies[" ".join(words[:2])] += 1
                    continue
                code = "OK NAME" if words[0] == "OK" else " ".join(words[:2])
                replies[code] += 1
                if code == "OK NAME":
                    ok_times.append(t - start)
                if t < end:
                    c.send_login(password)
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(daemon.pid) - cpu0
    sel.close()
    probe.s.close()
    for c in loggers:
        c.s.close()
    # A login in flight at the end is still hashed after its connection
    # has gone (its answer is dropped): let it finish before the next phase.
    time.sleep(0.5)
    rtts.sort()
    half = [t for t in ok_times if t >= elapsed / 2]
    return {"logins": len(ok_times) / elapsed, "steady": len(half) / (elapsed / 2),
            "p50": percentile(rtts, 0.5) * 1e3, "p99": percentile(rtts, 0.99) * 1e3, "max": (rtts[-1] if rtts else float("nan")) * 1e3,
            "pings": len(rtts), "unanswered": len(probe.sent), "cpu": cpu / elapsed, "replies": dict(replies), "reconnects": reconnects}


def show(tag, r):
    extra = " ".join(f"{k}={v}" for k, v in sorted(r["replies"].items()) if k != "OK NAME")
    print(f"  {tag:5} logins/s {r['logins']:6.1f} (second half {r['steady']:6.1f})  probe PING p50 {r['p50']:6.2f} p99 {r['p99']:6.2f} "
          f"max {r['max']:6.2f} ms ({r['pings']} answered, {r['unanswered']} not)  ghostd CPU {r['cpu'] * 100:4.0f}%"
          + (f"  {extra}" if extra else "") + (f" reconnects={r['reconnects']}" if r["reconnects"] else ""), flush=True)


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


print(f"{conns} login connections, {seconds:g} s phases, {rounds} rounds, probe PING every {probe_interval * 1e3:g} ms from 127.0.0.2; "
      f"load average {loadavg()}", flush=True)
daemons = [Daemon(kind, t) for kind in ("defaults", "lifted") for t in threads]
print(f"{len(daemons)} daemons started, {2 * conns} accounts each registered; load average {loadavg()}", flush=True)
results = {d.name: {"idle": [], "flood": []} for d in daemons}
for r in range(rounds):
    print(f"round {r + 1} (load average {loadavg()})", flush=True)
    order = daemons[r % len(daemons):] + daemons[:r % len(daemons)]
    for d in order:
        print(f" {d.name}", flush=True)
        for kind in (["idle", "flood"] if r % 2 == 0 else ["flood", "idle"]):
            res = phase(d, kind == "flood")
            results[d.name][kind].append(res)
            show(kind, res)

med = lambda xs, key: statistics.median(x[key] for x in xs)
print(f"medians over {rounds} rounds (load average {loadavg()}):")
for d in daemons:
    idle, flood = results[d.name]["idle"], results[d.name]["flood"]
    print(f"  {d.name:28} logins/s {med(flood, 'logins'):6.1f} (second half {med(flood, 'steady'):6.1f})  ghostd CPU {med(flood, 'cpu') * 100:3.0f}%, "
          f"{statistics.median(f['cpu'] / f['logins'] * 1e3 for f in flood if f['logins']):.1f} ms a login  "
          f"probe p50/p99/max ms: idle {med(idle, 'p50'):.2f}/{med(idle, 'p99'):.2f}/{med(idle, 'max'):.2f}, "
          f"flood {med(flood, 'p50'):.2f}/{med(flood, 'p99'):.2f}/{med(flood, 'max'):.2f}  "
          f"p99 flood/idle per round " + " ".join(f"{f['p99'] / i['p99']:.1f}" for i, f in zip(idle, flood)))

target = next(d for d in daemons if d.kind == "defaults" and d.threads == (default_threads if default_threads in threads else threads[-1]))
print(f"wrong passwords: {conns} connections from 127.0.0.3 on {target.name}, {wrong_seconds:g} s (load average {loadavg()})", flush=True)
w = phase(target, True, password=WRONG, length=wrong_seconds, flood_source="127.0.0.3")
hashes = w["replies"].get("ERR bad-password", 0)
show("wrong", w)
print(f"  {hashes} hashes in {wrong_seconds:g} s: {hashes / wrong_seconds:.2f} a second; "
      f"{w['replies'].get('ERR too-many-attempts', 0)} refused without hashing; ghostd CPU {w['cpu'] * 100:.1f}%", flush=True)
for d in daemons:
    d.proc.terminate()
for d in daemons:
    d.proc.wait()
