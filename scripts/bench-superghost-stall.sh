#!/usr/bin/env bash
# The first Superghost pairing of a language on a fresh ghostd (issue #29, the
# Superghost stall): ann and ben SEEK variant=super at once; prints how long
# ben's SEEK took to its GAME, how long ben's next PING waited (the budget),
# and STATS input_throttled.   scripts/bench-superghost-stall.sh GHOSTD en|nl
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'EOF'
import os, re, socket, subprocess, sys, tempfile, time, threading
ghostd, lang = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
data = tempfile.mkdtemp(prefix="ghostd-stall-")
p = subprocess.Popen([ghostd, "--port", "0", "--data", data, "--dictionaries", os.path.abspath("Dictionaries")] + extra,
                     stderr=subprocess.PIPE, text=True)
port = None
for line in p.stderr:
    m = re.search(r" listening on \S*:(\d+) ", line)
    if m: port = int(m.group(1)); break
logs = []
threading.Thread(target=lambda: [logs.append(l) for l in p.stderr], daemon=True).start()
class C:
    def __init__(s, name):
        s.s = socket.create_connection(("127.0.0.1", port)); s.f = s.s.makefile("r")
        s.until("HELLO"); s.cmd(f"NAME {name}", "OK NAME"); s.cmd(f"LANG {lang}", "OK LANG")
    def until(s, prefix):
        while True:
            l = s.f.readline()
            if not l: raise SystemExit(f"closed after {time.perf_counter()-t0:.1f} s")
            if l.startswith(("BYE","ERR")): print(l.strip())
            if l.startswith(prefix): return l
    def cmd(s, line, exp):
        s.s.sendall((line + "\n").encode()); return s.until(exp)
t0 = time.perf_counter()
a, b = C("ann"), C("ben")
t0 = time.perf_counter()
a.cmd("SEEK variant=super", "OK SEEK")
t1 = time.perf_counter()
b.cmd("SEEK variant=super", "GAME")
t2 = time.perf_counter()
b.cmd("PING", "OK PING")
t3 = time.perf_counter()
b.s.sendall(b"STATS\n"); st=""
while True:
    l = b.f.readline()
    if l.startswith("STAT name=input_throttled"): st = l
    if l.startswith("OK STATS") or not l: break
print(f"{os.path.basename(os.path.dirname(ghostd))} {lang}: ann SEEK {1000*(t1-t0):.0f} ms, ben SEEK to GAME {1000*(t2-t1):.0f} ms, ben's next PING {1000*(t3-t2):.0f} ms; {st.strip()}")
p.terminate(); p.wait()
subprocess.run(["rm", "-rf", data])
EOF
