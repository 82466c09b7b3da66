"""PING over TLS against PING over plain TCP, on one ghostd, in the same run
(scripts/bench-tls.sh starts the daemon and runs this).

Each round runs both kinds, one after the other, the order swapped every
round: CONNS connections each send PING and wait for OK PING, flat out, for
SECONDS. Per run: round trips a second, the round-trip time's p50 and p99
(one client process, Python's ssl module: the client's own cost is in these
and is the same for both kinds except its own TLS work), and ghostd's CPU
time per round trip (utime + stime from /proc, the server's cost alone).
Then the time from connect to HELLO (the handshake, for TLS), over fresh
connections one at a time. The medians over the rounds are printed last.

usage: bench-tls.py PID PORT TLS_PORT ROUNDS SECONDS CONNS
"""
import os, selectors, socket, ssl, statistics, sys, time

pid, port, tls_port, rounds, seconds, conns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE   # the benchmark's own self-signed certificate
ticks = os.sysconf("SC_CLK_TCK")


def cpu_seconds():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def connect(kind):
    s = socket.create_connection(("127.0.0.1", tls_port if kind == "tls" else port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if kind == "tls":
        s = context.wrap_socket(s)
    buf = b""
    while not buf.endswith(b"\n"):
        buf += s.recv(4096)
    assert buf.startswith(b"HELLO "), buf
    return s


def ping_run(kind):
    socks = [connect(kind) for _ in range(conns)]
    sel = selectors.DefaultSelector()
    sent_at, pending = {}, {}
    for s in socks:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        pending[s] = b""
    rtts = []
    cpu0 = cpu_seconds()
    start = time.perf_counter()
    end = start + seconds
    for s in socks:
        sent_at[s] = time.perf_counter()
        s.sendall(b"PING\n")
    while True:
        now = time.perf_counter()
        if now >= end:
            break
        for key, _ in sel.select(timeout=end - now):
            s = key.fileobj
            while True:
                try:
                    data = s.recv(4096)
                except (ssl.SSLWantReadError, BlockingIOError):
                    break
                if not data:
                    sys.exit(f"{kind}: the server closed a connection")
                pending[s] += data
                if not (isinstance(s, ssl.SSLSocket) and s.pending()):
                    break
            while b"\n" in pending[s]:
                line, pending[s] = pending[s].split(b"\n", 1)
                assert line == b"OK PING\r", line
                t = time.perf_counter()
                rtts.append(t - sent_at[s])
                if t < end:
                    sent_at[s] = t
                    s.sendall(b"PING\n")
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds() - cpu0
    for s in socks:
        sel.unregister(s)
        s.close()
    rtts.sort()
    pct = lambda p: rtts[min(len(rtts) - 1, int(len(rtts) * p))] * 1e6
    return {"rate": len(rtts) / elapsed, "p50": pct(0.5), "p99": pct(0.99), "cpu_us": cpu / max(1, len(rtts)) * 1e6}


def connect_run(kind, count=200):
    times = []
    for _ in range(count):
        t = time.perf_counter()
        s = connect(kind)
        times.append(time.perf_counter() - t)
        s.close()
    return statistics.median(times) * 1e6


results = {"plain": [], "tls": []}
connects = {"plain": [], "tls": []}
print(f"{conns} connections in lock step, {seconds:g} s per run, {rounds} rounds, kinds alternating")
for r in range(rounds):
    order = ["plain", "tls"] if r % 2 == 0 else ["tls", "plain"]
    for kind in order:
        res = ping_run(kind)
        results[kind].append(res)
        print(f"round {r + 1} {kind:5}: {res['rate']:8.0f} PING/s  p50 {res['p50']:6.0f} us  p99 {res['p99']:6.0f} us  "
              f"ghostd CPU {res['cpu_us']:5.1f} us/PING", flush=True)
    for kind in order:
        connects[kind].append(connect_run(kind))
    print(f"round {r + 1} connect to HELLO: plain {connects['plain'][-1]:.0f} us, tls {connects['tls'][-1]:.0f} us", flush=True)

med = lambda kind, key: statistics.median(x[key] for x in results[kind])
print("medians over the rounds:")
for kind in ["plain", "tls"]:
    print(f"  {kind:5}: {med(kind, 'rate'):8.0f} PING/s  p50 {med(kind, 'p50'):6.0f} us  p99 {med(kind, 'p99'):6.0f} us  "
          f"ghostd CPU {med(kind, 'cpu_us'):5.1f} us/PING  connect to HELLO {statistics.median(connects[kind]):6.0f} us")
print(f"  tls/plain: rate {med('tls', 'rate') / med('plain', 'rate'):.2f}, p50 {med('tls', 'p50') / med('plain', 'p50'):.2f}, "
      f"p99 {med('tls', 'p99') / med('plain', 'p99'):.2f}, ghostd CPU per PING {med('tls', 'cpu_us') / med('plain', 'cpu_us'):.2f}")
