#!/usr/bin/env bash
# Durable moves against the socket ceiling (issue #16), in one run:
#   ghostd --durability full    each move's commit is on disk before its OK
#   ghostd --durability normal  no fsync (survives a ghostd crash only)
#   null-ghostd                 the same lines in the same pattern, no rules,
#                               no storage (scripts/null-ghostd.c): the ceiling
#   ghostd before (a git ref)   --durability full, as it was before the
#                               pipelined commit (default 84b77e6)
# for Ghost letters (`ghost-bench play`) and Hangman guesses (`ghost-bench
# play-hangman`), 1,000 connections each, the four servers taking turns in
# every round. Prints each run, then per round the ratios to null-ghostd of
# the rate and of the p99 latency, and their medians.
#   scripts/bench-commit.sh [seconds per run] [rounds] [old ref]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-5}
ref=${3:-84b77e6}
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
build_old "$ref"
build_new
data=$(mktemp -d)
cc -O2 -o "$data/null-ghostd" scripts/null-ghostd.c
fport=$(port); nport=$(port); zport=$(port); oport=$(port)
flags=(--max-clients 20000 --max-clients-per-ip 0 --max-commands-per-second 0 --max-new-names-per-minute 0
       --idle-timeout 0 --name-timeout 0 --dictionaries Dictionaries)
mkdir -p "$data/full" "$data/normal" "$data/old"
.build/release/ghostd --port "$fport" --data "$data/full" "${flags[@]}" --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/full.log" &
fpid=$!
.build/release/ghostd --port "$nport" --data "$data/normal" "${flags[@]}" --durability normal --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/normal.log" &
npid=$!
"$old/.build/release/ghostd" --port "$oport" --data "$data/old" "${flags[@]}" 2>"$data/old.log" &
opid=$!
"$data/null-ghostd" "$zport" &
zpid=$!
trap 'kill $fpid $npid $opid $zpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 2
bench=.build/release/ghost-bench
echo "== $rounds rounds of $secs s per server and game, 1000 connections; ghostd $(git rev-parse --short HEAD) and $ref"
results=$data/results
for i in $(seq "$rounds"); do
    for mode in play play-hangman; do
        for server in full normal null old; do
            case $server in full) p=$fport;; normal) p=$nport;; null) p=$zport;; old) p=$oport;; esac
            out=$($bench "$mode" --port "$p" --connections 1000 --seconds "$secs")
            echo "round $i $mode $server: $out"
            echo "$i $mode $server $out" >>"$results"
        done
    done
done
python3 - "$fport" <<'EOF'
import socket, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
s.sendall(b'STATS\r\n'); time.sleep(0.5)
d = {}
for l in s.recv(65536).decode().splitlines():
    if l.startswith('STAT '):
        f = dict(x.split('=', 1) for x in l.split()[1:])
        d[f['name']] = f['value']
c, n = int(d['commits']), max(1, int(d['syncs']))
print(f"ghostd full: {c} commits in {n} syncs ({c / n:.2f} commits a sync); last 1,024 commits, COMMIT to disk: p50 {d['commit_p50_us']} µs, p99 {d['commit_p99_us']} µs")
EOF
python3 - "$results" <<'EOF'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    i, mode, server, rest = line.split(' ', 3)
    rate = float(re.search(r's: (\d+) ', rest).group(1))
    p99 = float(re.search(r'p99 (\d+)', rest).group(1))
    runs.setdefault(mode, {}).setdefault(server, []).append((rate, p99))
for mode, by in runs.items():
    print(f"== {mode}: per round, rate and p99 latency against null-ghostd's in the same round")
    for server in ['full', 'normal', 'old']:
        rr = [a[0] / b[0] for a, b in zip(by[server], by['null'])]
        pr = [a[1] / b[1] for a, b in zip(by[server], by['null'])]
        med = statistics.median(x[0] for x in by[server])
        print(f"  {server:6} median {med:8.0f}/s  rate/null " + ' '.join(f'{x:.2f}' for x in rr)
              + f"  (median {statistics.median(rr):.2f})   p99/null " + ' '.join(f'{x:.2f}' for x in pr)
              + f"  (median {statistics.median(pr):.2f})")
    print(f"  null   median {statistics.median(x[0] for x in by['null']):8.0f}/s  p99 median {statistics.median(x[1] for x in by['null']):.0f} µs")
    fo = [a[0] / b[0] for a, b in zip(by['full'], by['old'])]
    print(f"  full now / full before: " + ' '.join(f'{x:.2f}' for x in fo) + f"  (median {statistics.median(fo):.2f})")
EOF
