#!/usr/bin/env python3
"""A real owner's login under a flood of right-password logins from many
networks (issue #43, finding 5).

  scripts/bench-owner-login.py BINARY [ATTACKERS] [SECONDS] [RATE]

Starts BINARY (a release ghostd) with its default limits on a fresh data
folder, registers 2 × ATTACKERS names (40 by default) from addresses
127.0.2.x and one owner's name from 127.0.4.1. Then for SECONDS (20) each
attacker, from its own address 127.0.3.x, logs in with the right password
RATE times a second (3; under its command budget, so that it is not closed for
flooding: 40 of them ask for 120 hashes a second, more than one hashing
thread does), alternating between its two names; meanwhile the owner opens a
connection every 0.5 s, each from a fresh address 127.0.4.x (an owner logs in
once, from wherever they are), and logs in (`NAME owner <pw>`).
Prints the owner's logins answered `OK` within 1 s (target: at least 95%),
their median and p95 latency, the attackers' logins a second and the
refusals by code, and STATS' hashes_refused."""
import socket, subprocess, sys, tempfile, threading, time, statistics, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from ghostd_start import start_fresh

binary = sys.argv[1]
attackers = int(sys.argv[2]) if len(sys.argv) > 2 else 40
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20
RATE = float(sys.argv[4]) if len(sys.argv) > 4 else 3.0   # logins a second per attacker
pw = "a long enough password"
proc, p = start_fresh(binary, "ghostd-owner-")

def connect(src):
    s = socket.socket()
    s.bind((src, 0))
    s.connect(("127.0.0.1", p))
    f = s.makefile("rb")
    f.readline()   # HELLO
    return s, f

def ask(s, f, line, prefixes=("OK", "ERR", "BYE")):
    s.sendall((line + "\n").encode())
    while True:
        l = f.readline().decode(errors="replace").rstrip("\r\n")
        if not l or l.startswith(prefixes): return l

def register(name, src):
    s, f = connect(src)
    ask(s, f, "NAME " + name)
    r = ask(s, f, "REGISTER " + pw)
    s.close()
    return r

for i in range(2 * attackers):
    r = register(f"atk{i}", f"127.0.2.{i + 1}")
    if not r.startswith("OK"): print("register", i, r); sys.exit(1)
r = register("owner", "127.0.4.1")
if not r.startswith("OK"): print("register owner", r); sys.exit(1)

stop = time.monotonic() + seconds
codes, count, lock = {}, [0], threading.Lock()
def attack(k):
    s, f = connect(f"127.0.3.{k + 1}")
    n = 0
    while time.monotonic() < stop:
        r = ask(s, f, f"NAME atk{2 * k + n % 2} {pw}")
        n += 1
        code = "OK" if r.startswith("OK") else " ".join(r.split()[:2])
        with lock:
            codes[code] = codes.get(code, 0) + 1
            if code == "OK": count[0] += 1
        if r.startswith("BYE") or not r: return
        time.sleep(1 / RATE)
threads = [threading.Thread(target=attack, args=(k,)) for k in range(attackers)]
for t in threads: t.start()
owner = []
while time.monotonic() < stop - 1:
    t0 = time.monotonic()
    s, f = connect(f"127.0.4.{len(owner) % 250 + 2}")
    s.settimeout(10)
    try: r = ask(s, f, f"NAME owner {pw}")
    except OSError: r = "timeout"
    owner.append((time.monotonic() - t0, r.startswith("OK")))
    s.close()
    time.sleep(max(0, 0.5 - (time.monotonic() - t0)))
for t in threads: t.join()
s, f = connect("127.0.0.2")
s.sendall(b"STATS\n")
refused = "?"
while True:
    l = f.readline().decode().rstrip("\r\n")
    if "hashes_refused" in l: refused = l.split("value=")[1]
    if l.startswith("OK STATS") or not l: break
proc.terminate(); proc.wait()
ok = [t for t, good in owner if good and t <= 1]
lat = sorted(t for t, _ in owner)
print(f"owner logins: {len(owner)}; OK within 1 s: {len(ok)} ({100 * len(ok) / max(1, len(owner)):.0f}%, target >= 95%); "
      f"latency median {1000 * statistics.median(lat):.0f} ms, p95 {1000 * lat[int(0.95 * (len(lat) - 1))]:.0f} ms")
print(f"attackers ({attackers} networks): {count[0] / seconds:.1f} logins/s; replies {codes}; STATS hashes_refused={refused}")
