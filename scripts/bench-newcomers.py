#!/usr/bin/env python3
"""Newcomers while silent connections hold --max-unnamed (issue #43, finding 4).

  scripts/bench-newcomers.py GHOSTD [ADDRESSES] [SECONDS] [--tls]

Starts GHOSTD (release) with its default limits (--max-unnamed 2000,
--max-unnamed-per-ip 128) on a fresh data folder. ADDRESSES (16) attacker
addresses 127.0.6.x each hold 128 connections that never send a line,
opening a new one whenever one of theirs is closed. Once they hold the cap,
for SECONDS (20) a newcomer connects every 0.5 s from a fresh address
127.0.7.x and waits for its first line: HELLO within 1 s counts as let in.
Prints the newcomers let in (target: at least 95%) and what the others got.

With --tls, ghostd also listens on a TLS port (a throwaway self-signed
RSA-2048 certificate); the attackers hold unfinished handshakes there (each
sends the first 5 bytes of a ClientHello, then nothing), and a newcomer
connects to the TLS port, completes its handshake and reads HELLO, all
within 1 s."""
import os, socket, ssl, subprocess, sys, tempfile, threading, time, selectors
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ghostd_start import start_fresh

args = [a for a in sys.argv[1:] if a != "--tls"]
tls = "--tls" in sys.argv[1:]
binary = args[0]
addresses = int(args[1]) if len(args) > 1 else 16
seconds = float(args[2]) if len(args) > 2 else 20
extra = []
if tls:
    folder = tempfile.mkdtemp(prefix="ghostd-newcomers-tls-")
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                    "-days", "2", "-keyout", key, "-out", cert], check=True, capture_output=True)
    s = socket.socket(); s.bind(("127.0.0.1", 0)); tls_port = s.getsockname()[1]; s.close()
    extra = ["--tls-port", str(tls_port), "--tls-cert", cert, "--tls-key", key]
    context = ssl.create_default_context(cafile=cert)
    context.check_hostname = False
proc, port = start_fresh(binary, "ghostd-newcomers-", extra)
target = tls_port if tls else port
stop = [False]
sel = selectors.DefaultSelector()
held = {}
lock = threading.Lock()

def open_one(src):
    c = socket.socket(); c.bind((src, 0)); c.setblocking(False)
    try: c.connect(("127.0.0.1", target))
    except BlockingIOError: pass
    if tls:
        # The start of a ClientHello's record header, and nothing more.
        try:
            select_ready = selectors.DefaultSelector(); select_ready.register(c, selectors.EVENT_WRITE)
            select_ready.select(timeout=1); select_ready.close()
            c.send(b"\x16\x03\x01\x02\x00")
        except OSError: pass
    sel.register(c, selectors.EVENT_READ, src)

def attacker_loop():
    # Each address keeps 128 connections open; a closed one is replaced.
    for a in range(addresses):
        for _ in range(128): open_one(f"127.0.6.{a + 1}")
    while not stop[0]:
        for key, _ in sel.select(timeout=0.1):
            c = key.fileobj
            try: data = c.recv(4096)
            except OSError: data = b""
            if not data:
                sel.unregister(c); c.close()
                if not stop[0]: open_one(key.data)
threading.Thread(target=attacker_loop, daemon=True).start()
time.sleep(3)   # they fill the cap
results = {}
end = time.monotonic() + seconds
n = 0
while time.monotonic() < end:
    n += 1
    c = socket.socket(); c.bind((f"127.0.7.{n % 250 + 1}", 0)); c.settimeout(1)
    t0 = time.monotonic()
    try:
        c.connect(("127.0.0.1", target))
        if tls: c = context.wrap_socket(c, server_hostname="localhost")
        line = c.makefile("rb").readline().decode(errors="replace").strip()
    except (OSError, ssl.SSLError):
        line = "no answer within 1 s"
    key = "HELLO within 1 s" if line.startswith("HELLO") and time.monotonic() - t0 <= 1 else line[:60]
    results[key] = results.get(key, 0) + 1
    c.close()
    time.sleep(max(0, 0.5 - (time.monotonic() - t0)))
stop[0] = True
proc.terminate(); proc.wait()
ok = results.get("HELLO within 1 s", 0)
print(f"{'TLS port: ' if tls else ''}{addresses} addresses holding --max-unnamed: {ok} of {n} newcomers let in within 1 s ({100 * ok / n:.0f}%, target >= 95%); {results}")
