#!/usr/bin/env python3
"""A TLS handshake flood against a PING probe on the plain port (issue #43,
finding 11: handshakes ran on the event loop).

  scripts/bench-tls-handshakes.py GHOSTD_A GHOSTD_B [ROUNDS] [SECONDS] [CLIENTS]

Makes an RSA-4096 certificate (`openssl req`) in a temporary folder. Each
round starts GHOSTD_A and then GHOSTD_B (the order alternates by round), each
fresh (a free port, a fresh data folder, its default limits) with a TLS port
and that certificate, and waits until it has settled (40 PINGs in a row
answered within 2 ms). Then CLIENTS (32) threads, each from its own address
127.0.1.x (so that no per-address limit holds them back), in a process of
their own, make TLS handshakes as fast as they can (connect, handshake, read
HELLO, close); after a second of that, for SECONDS (15) a probe from
127.0.0.2 sends PING on the plain port, waits for OK PING, rests 25 ms (40
PINGs a second, within its budget), and so on. Prints each run's probe p50,
p99 and max and the handshakes done a second, then the medians
over the rounds and B's p99 as a share of A's."""
import multiprocessing, os, socket, ssl, statistics, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import start_fresh

binaries = sys.argv[1:3]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 15
clients = int(sys.argv[5]) if len(sys.argv) > 5 else 32
if len(binaries) != 2:
    sys.exit(__doc__)

folder = tempfile.mkdtemp(prefix="ghostd-tls-bench-")
cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:4096", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-keyout", key, "-out", cert], check=True, stderr=subprocess.DEVNULL)
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
# The probe's pace: 40 PINGs a second, within a connection's default budget
# (--max-commands-per-second 50); faster, it waits for its budget (15 ms).
PACE = 0.025


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def flood_process(tls_port, stop, done):
    threads = [threading.Thread(target=flooder, args=(n, tls_port, stop, done)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def flooder(n, tls_port, stop, done):
    while not stop.value:
        try:
            raw = socket.socket()
            raw.bind((f"127.0.1.{n + 1}", 0))
            raw.settimeout(10)
            raw.connect(("127.0.0.1", tls_port))
            with context.wrap_socket(raw) as s:
                if s.recv(256).startswith(b"HELLO"):
                    done[n] += 1
        except OSError:
            time.sleep(0.01)


def probe(port, until):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    f = s.makefile("rb")
    assert f.readline().startswith(b"HELLO")
    times = []
    while time.monotonic() < until:
        t0 = time.perf_counter()
        s.sendall(b"PING\n")
        line = f.readline()
        times.append((time.perf_counter() - t0) * 1000)
        assert line == b"OK PING\r\n" or line == b"OK PING\n", line
        time.sleep(PACE)
    s.close()
    return times


def settle(port):
    """Waits until 40 PINGs in a row are answered within 2 ms (at most 30 s)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    f = s.makefile("rb")
    f.readline()
    quick, until = 0, time.monotonic() + 30
    while quick < 40 and time.monotonic() < until:
        t0 = time.perf_counter()
        s.sendall(b"PING\n")
        f.readline()
        quick = quick + 1 if time.perf_counter() - t0 < 0.002 else 0
        time.sleep(PACE)
    s.close()


def run(binary):
    tls_port = free_port()
    proc, port = start_fresh(binary, "ghostd-tls-bench-",
                             ["--tls-port", str(tls_port), "--tls-cert", cert, "--tls-key", key])
    settle(port)
    # The flood in a process of its own: its threads' hold on the GIL must
    # not delay the probe's reading (it did, by up to 15 ms).
    done = multiprocessing.Array("q", clients, lock=False)
    stop = multiprocessing.Value("b", 0, lock=False)
    flood = multiprocessing.Process(target=flood_process, args=(tls_port, stop, done))
    flood.start()
    time.sleep(1)
    before, t0 = sum(done), time.monotonic()
    times = probe(port, time.monotonic() + seconds)
    rate = (sum(done) - before) / (time.monotonic() - t0)
    stop.value = 1
    flood.join()
    proc.terminate()
    proc.wait()
    times.sort()
    return {"p50": statistics.median(times), "p99": times[int(0.99 * (len(times) - 1))], "max": times[-1],
            "probes": len(times), "handshakes/s": rate}


results = {b: [] for b in binaries}
for r in range(rounds):
    for b in (binaries if r % 2 == 0 else binaries[::-1]):
        out = run(b)
        results[b].append(out)
        print(f"round {r + 1} {b}: probe p50 {out['p50']:.2f} ms, p99 {out['p99']:.2f} ms, max {out['max']:.1f} ms "
              f"({out['probes']} PINGs); {out['handshakes/s']:.0f} handshakes/s", flush=True)
medians = {b: {k: statistics.median(x[k] for x in results[b]) for k in ("p50", "p99", "max", "handshakes/s")} for b in binaries}
for b in binaries:
    m = medians[b]
    print(f"median {b}: probe p50 {m['p50']:.2f} ms, p99 {m['p99']:.2f} ms, max {m['max']:.1f} ms; {m['handshakes/s']:.0f} handshakes/s")
a, b = medians[binaries[0]], medians[binaries[1]]
print(f"B/A: probe p99 {b['p99'] / a['p99']:.3f}, p50 {b['p50'] / a['p50']:.3f}, handshakes/s {b['handshakes/s'] / a['handshakes/s']:.2f}")
