#!/usr/bin/env python3
"""What an idle connection costs ghostd's memory, TLS against plain (issue
#43, finding 11: 32 KB a TLS connection, 4.7 KB a plain one).

  scripts/bench-tls-idle.py GHOSTD_A GHOSTD_B [CONNS] [ROUNDS]

Each round, for GHOSTD_A and then GHOSTD_B (the order alternates by round),
and for plain TCP and then TLS: a fresh ghostd (a free port, a fresh data
folder, a P-256 certificate made by `openssl req`, no per-address caps and
no name timeout, so that the connections stay) whose resident set (VmRSS) is
read once it answers; then CONNS (1000) connections, 100 from each address
127.0.2.x, each reads HELLO, sends PING and reads OK PING, and stays open
and silent; once all are, VmRSS again. Prints the growth per connection in
KB, each run and the medians over ROUNDS (3)."""
import os, socket, ssl, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import start_fresh

binaries = sys.argv[1:3]
conns = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
if len(binaries) != 2:
    sys.exit(__doc__)

folder = tempfile.mkdtemp(prefix="ghostd-tls-idle-")
cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-days", "1", "-subj", "/CN=localhost", "-keyout", key, "-out", cert], check=True, stderr=subprocess.DEVNULL)
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
OPEN = ["--max-clients-per-ip", "0", "--max-unnamed", "0", "--max-unnamed-per-ip", "0",
        "--connects-per-second-per-ip", "0", "--name-timeout", "0"]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def line(s):
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(256)
        if not chunk:
            raise OSError("closed")
        data += chunk
    return data


def run(binary, tls):
    tls_port = free_port()
    proc, port = start_fresh(binary, "ghostd-tls-idle-",
                             OPEN + ["--tls-port", str(tls_port), "--tls-cert", cert, "--tls-key", key])
    time.sleep(1)
    before = rss_kb(proc.pid)
    held = []
    for n in range(conns):
        raw = socket.socket()
        raw.bind((f"127.0.2.{n // 100 + 1}", 0))
        raw.connect(("127.0.0.1", tls_port if tls else port))
        s = context.wrap_socket(raw) if tls else raw
        assert line(s).startswith(b"HELLO"), n
        s.sendall(b"PING\n")
        assert line(s).startswith(b"OK PING"), n
        held.append(s)
    time.sleep(1)
    after = rss_kb(proc.pid)
    for s in held:
        s.close()
    proc.terminate()
    proc.wait()
    return (after - before) / conns


results = {(b, t): [] for b in binaries for t in (False, True)}
for r in range(rounds):
    for b in (binaries if r % 2 == 0 else binaries[::-1]):
        for tls in (False, True):
            kb = run(b, tls)
            results[(b, tls)].append(kb)
            print(f"round {r + 1} {b} {'TLS' if tls else 'plain'}: {kb:.1f} KB a connection", flush=True)
for b in binaries:
    plain, tls = statistics.median(results[(b, False)]), statistics.median(results[(b, True)])
    print(f"median {b}: plain {plain:.1f} KB, TLS {tls:.1f} KB a connection (TLS/plain {tls / plain:.2f})")
