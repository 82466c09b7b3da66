#!/usr/bin/env bash
# Measures how long ghostd takes from exec to an open port with both
# dictionaries loaded, and its memory once ready. Runs the release build.
#   scripts/bench-startup.sh [runs]
#   GHOSTD_DICTIONARIES=DIR scripts/bench-startup.sh [runs]   (--dictionaries DIR; default ./Dictionaries)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
swift build -c release --product ghostd >/dev/null
bin=.build/release/ghostd
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 - "$bin" "$port" "$runs" <<'PY'
import os, sys, statistics, tempfile
sys.path.insert(0, "scripts")
from ghostd_start import start_until_hello
binary, port, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
times, rss, hwm, rss_hangman, hwm_hangman = [], [], [], [], []
for _ in range(runs):
    data = tempfile.mkdtemp(prefix="ghostd-startup-")
    folder = os.environ.get("GHOSTD_DICTIONARIES")
    extra = ["--dictionaries", folder] if folder else []
    p, s, took = start_until_hello([binary, "--port", str(port), "--data", data] + extra, port, 10)
    times.append(took)
    status = open(f"/proc/{p.pid}/status").read()
    field = lambda k: int(next(l for l in status.splitlines() if l.startswith(k)).split()[1]) / 1024
    rss.append(field("VmRSS:")); hwm.append(field("VmHWM:"))
    # Then one evil Hangman game, which waits for Hangman's word tables
    # (built on a background thread from startup) if they are not ready yet.
    f = s.makefile("rwb")
    f.write(b"NAME startup\nNEW game=hangman mode=evil\n"); f.flush()
    while not f.readline().startswith(b"TURN "): pass
    status = open(f"/proc/{p.pid}/status").read()
    rss_hangman.append(field("VmRSS:")); hwm_hangman.append(field("VmHWM:"))
    s.close(); p.terminate(); p.wait()
print(f"runs: {runs}")
print(f"exec to first HELLO: median {statistics.median(times)*1000:.0f} ms, max {max(times)*1000:.0f} ms (target < 300 ms)")
print(f"resident memory when ready: median {statistics.median(rss):.1f} MB, peak (VmHWM) max {max(hwm):.1f} MB (target < 50 MB)")
print(f"after one Hangman game started (its tables built): median {statistics.median(rss_hangman):.1f} MB, "
      f"peak (VmHWM) max {max(hwm_hangman):.1f} MB (target < 40 MB)")
PY
