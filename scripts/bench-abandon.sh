#!/usr/bin/env bash
# Games that never end (#24): GAMES sessions each leave an evil Dutch
# 10-letter Hangman game behind (NAME x<i>, LANG nl,
# NEW game=hangman mode=evil length=10, LETTER q, QUIT; ghost-bench abandon),
# from names x0 … x4799, each always from the same one of 240 source
# addresses 127.0.0.10 … (20 new names an address: the default new-name
# burst), 8 sessions at once, against ghostd with its default limits. Prints
# ghostd's RSS before and after and the refusals (ERR and BYE codes); then
# restarts ghostd on that data folder and times exec to first HELLO against a
# ghostd on an empty data folder, taking turns: medians and the ratio.
# Target (#24): RSS rises at most 100 MB, or the games are refused with an
# ERR once a cap is hit; the port opens as fast as on an empty folder (±20%).
#   scripts/bench-abandon.sh [games] [restart runs of each]
# GHOSTD_FLAGS= adds ghostd options.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-10000}
runs=${2:-5}
source scripts/bench-lib.sh
bench_scratch
rss() { awk '/VmRSS/ {printf "%.1f", $2/1024}' "/proc/$1/status"; }
p=$(port)
# shellcheck disable=SC2086
.build/release/ghostd --port "$p" --data "$data/abandoned" --dictionaries Dictionaries ${GHOSTD_FLAGS:-} 2>"$data/ghostd.log" &
gpid=$!
until grep -q "listening on" "$data/ghostd.log"; do
    kill -0 $gpid 2>/dev/null || { cat "$data/ghostd.log"; exit 1; }
    sleep 0.05
done
sleep 3   # Hangman's word tables are built in the background from startup
before=$(rss $gpid)
echo "== $games abandoned games"
$bench abandon --port "$p" --games "$games" --names 4800 --addresses 240 --connections 8
sleep 1
after=$(rss $gpid)
echo "ghostd RSS before $before MB, after $after MB: +$(python3 -c "print(f'{$after-$before:.1f}')") MB (target: at most +100 MB, or refusals)"
$bench hold --port "$p" --connections 1 --seconds 0.1 --stats | tail -1
kill $gpid; wait $gpid 2>/dev/null || true; gpid=
echo "== restart: exec to first HELLO, on that folder and on an empty one, $runs runs each, taking turns"
python3 - .build/release/ghostd "$p" "$runs" "$data" ${GHOSTD_FLAGS:-} <<'PY'
import os, socket, subprocess, sys, time, statistics, tempfile
binary, port, runs, data = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
extra = sys.argv[5:]
sys.path.insert(0, "scripts")
from ghostd_start import start_until_hello
def start(folder):
    p, s, took = start_until_hello([binary, "--port", str(port), "--data", folder, "--dictionaries", "Dictionaries", *extra],
                                   port, 120)
    rss = int(next(l for l in open(f"/proc/{p.pid}/status") if l.startswith("VmRSS:")).split()[1]) / 1024
    s.close(); p.terminate(); p.wait()
    return took, rss
full, empty, ratios = [], [], []
for i in range(runs):
    a, ra = start(os.path.join(data, "abandoned"))
    b, rb = start(tempfile.mkdtemp(prefix="ghostd-empty-", dir=data))
    full.append(a); empty.append(b); ratios.append(a / b)
    print(f"run {i+1}: abandoned folder {a*1000:.0f} ms (RSS {ra:.0f} MB), empty folder {b*1000:.0f} ms (RSS {rb:.0f} MB), ratio {a/b:.2f}")
print(f"median exec to HELLO: abandoned folder {statistics.median(full)*1000:.0f} ms, empty folder {statistics.median(empty)*1000:.0f} ms; "
      f"ratio per run median {statistics.median(ratios):.2f} (target 0.8-1.2)")
PY
echo "== machine after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
