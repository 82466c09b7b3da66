#!/bin/bash
# Start time on a folder of abandoned games, two ghostd builds alternating
# (issue #42: no scan of games at start): OLD makes the folder (its schema),
# NEW migrates its copy once, as an upgrade does; then 7 rounds of exec to
# the first HELLO, each binary on its own copy. Release builds of both, and
# this tree's ghost-bench (`swift build -c release`).
#   scripts/bench-start-ab.sh OLD_GHOSTD NEW_GHOSTD
set -e
cd "$(dirname "$0")/.."
OLD=$1 NEW=$2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
rm -rf $D/base $D/old $D/new; mkdir -p $D/base
P=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$OLD" --port $P --data $D/base --dictionaries Dictionaries 2>$D/base.log &
g=$!
until grep -qs "listening on" $D/base.log; do sleep 0.05; done
sleep 3
.build/release/ghost-bench abandon --port $P --games 10000 --names 4800 --addresses 240 --connections 8 | tail -1
kill $g; wait $g || true
cp -r $D/base $D/old; cp -r $D/base $D/new
# the new build migrates its copy once (schema 15), as an upgrade does
"$NEW" --port $P --data $D/new --dictionaries Dictionaries 2>$D/new.log &
g=$!; until grep -qs "listening on" $D/new.log; do sleep 0.05; done; kill $g; wait $g || true
python3 - $P "$OLD" "$NEW" "$D" <<'PY'
import sys, statistics
sys.path.insert(0, "scripts")
from ghostd_start import start_until_hello
port, d = int(sys.argv[1]), sys.argv[4]
res = {"old": [], "new": []}
bins = {"old": sys.argv[2], "new": sys.argv[3]}
for i in range(7):
    for k in ("old", "new"):
        p, s, took = start_until_hello([bins[k], "--port", str(port), "--data", f"{d}/{k}", "--dictionaries", "Dictionaries"], port, 60)
        s.close(); p.terminate(); p.wait()
        res[k].append(took * 1000)
for k in res: print(k, " ".join(f"{t:.0f}" for t in res[k]), "median", f"{statistics.median(res[k]):.0f} ms")
print("ratio new/old of medians", f"{statistics.median(res['new'])/statistics.median(res['old']):.2f}")
PY
