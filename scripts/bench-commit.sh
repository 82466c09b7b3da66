#!/usr/bin/env bash
# Durable moves against the socket ceiling (issue #16), in one run:
#   ghostd --durability full    each move's commit is on disk before its OK
#                               (--io-threads 1: the loop alone, as before #29)
#   ghostd --durability normal  no fsync (survives a ghostd crash only; --io-threads 1)
#   null-ghostd                 the same lines in the same pattern, no rules,
#                               no storage (scripts/null-ghostd.c): the ceiling
#   ghostd before (a git ref)   --durability full, as it was before the
#                               pipelined commit (default 84b77e6; `none`: left out)
#   ghostd --io-threads N       --durability full with N I/O threads (issue
#                               #29; N from IO_THREADS, default 2)
# SERVERS picks and orders them (default "full io normal null old"; null is
# always run, as the ratios are to it). For
# Ghost letters (`ghost-bench play`) and Hangman guesses (`ghost-bench
# play-hangman`), 1,000 connections each, the four servers taking turns in
# every round. Prints each run, then per round the ratios to null-ghostd of
# the rate and of the p99 latency, and their medians.
#   scripts/bench-commit.sh [seconds per run] [rounds] [old ref]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-5}
ref=${3:-84b77e6}
io=${IO_THREADS:-2}
servers=${SERVERS:-full io normal null old}
[ "$ref" = none ] && servers=${servers//old/}
case " $servers " in *" null "*) ;; *) servers="$servers null";; esac
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
[ "$ref" = none ] || build_old "$ref"
build_new
data=$(mktemp -d)
cc -O2 -o "$data/null-ghostd" scripts/null-ghostd.c
fport=$(port); nport=$(port); zport=$(port); oport=$(port); iport=$(port)
flags=(--max-clients 20000 --max-clients-per-ip 0 --max-commands-per-second 0 --max-new-names-per-minute 0
       --idle-timeout 0 --name-timeout 0 --dictionaries Dictionaries)
# #24's caps on games in progress: 1,000 connections from one address play
# 500 games at once (a ghostd that predates the option does not get it).
# The limits by address that came later are lifted too (1,000 connections
# from 127.0.0.1 at once), where the ghostd at the ref has them.
caps=(--max-games-per-network 0)
oldcaps=()
if [ "$ref" != none ]; then
    help=$("$old/.build/release/ghostd" --help)
    for o in --max-games-per-network --max-unnamed --max-unnamed-per-ip --connects-per-second-per-ip; do
        if grep -q -- "$o " <<<"$help"; then oldcaps+=("$o" 0); fi
    done
fi
mkdir -p "$data/full" "$data/normal" "$data/old" "$data/io"
.build/release/ghostd --port "$fport" --data "$data/full" "${flags[@]}" "${caps[@]}" --io-threads 1 --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/full.log" &
fpid=$!
.build/release/ghostd --port "$nport" --data "$data/normal" "${flags[@]}" "${caps[@]}" --io-threads 1 --durability normal --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/normal.log" &
npid=$!
.build/release/ghostd --port "$iport" --data "$data/io" "${flags[@]}" "${caps[@]}" --io-threads "$io" --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/io.log" &
ipid=$!
opid=
if [ "$ref" != none ]; then
    "$old/.build/release/ghostd" --port "$oport" --data "$data/old" "${flags[@]}" "${oldcaps[@]}" 2>"$data/old.log" &
    opid=$!
fi
"$data/null-ghostd" "$zport" &
zpid=$!
trap 'kill $fpid $npid $ipid $opid $zpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 2
bench=.build/release/ghost-bench
# CPU time of a process (s, user + system, all its threads), and of the machine busy/total (jiffies).
cpu() { awk '{printf "%.2f", ($14+$15)/100}' "/proc/$1/stat"; }
busy() { awk '/^cpu / {print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
echo "== $rounds rounds of $secs s per server and game, 1000 connections; ghostd $(git rev-parse --short HEAD) and $ref; io = --io-threads $io; servers: $servers"
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
results=$data/results
for i in $(seq "$rounds"); do
    for mode in play play-hangman; do
        for server in $servers; do
            case $server in full) p=$fport; pid=$fpid;; normal) p=$nport; pid=$npid;; null) p=$zport; pid=$zpid;;
                            old) p=$oport; pid=$opid;; io) p=$iport; pid=$ipid;; esac
            c0=$(cpu "$pid"); b0=$(busy)
            out=$($bench "$mode" --port "$p" --connections 1000 --seconds "$secs")
            c1=$(cpu "$pid"); b1=$(busy)
            echo "round $i $mode $server: $out; server CPU $(python3 -c "print(f'{$c1-$c0:.1f}')") s, machine $(python3 -c "b0,t0,b1,t1=map(float,'$b0 $b1'.split()); print(f'{100*(b1-b0)/(t1-t0):.0f}')")% busy"
            echo "$i $mode $server $out" >>"$results"
        done
    done
done
for label_port in "full $fport" "io $iport"; do
python3 - $label_port <<'EOF'
import socket, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[2])))
s.sendall(b'STATS\r\n'); time.sleep(0.5)
d = {}
for l in s.recv(65536).decode().splitlines():
    if l.startswith('STAT '):
        f = dict(x.split('=', 1) for x in l.split()[1:])
        d[f['name']] = f['value']
c, n = int(d['commits']), max(1, int(d['syncs']))
print(f"ghostd {sys.argv[1]}: {c} commits in {n} syncs ({c / n:.2f} commits a sync); last 1,024 commits, COMMIT to disk: p50 {d['commit_p50_us']} µs, p99 {d['commit_p99_us']} µs")
EOF
done || true
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
    for server in [s for s in by if s != 'null']:
        rr = [a[0] / b[0] for a, b in zip(by[server], by['null'])]
        pr = [a[1] / b[1] for a, b in zip(by[server], by['null'])]
        med = statistics.median(x[0] for x in by[server])
        print(f"  {server:6} median {med:8.0f}/s  rate/null " + ' '.join(f'{x:.2f}' for x in rr)
              + f"  (median {statistics.median(rr):.2f})   p99/null " + ' '.join(f'{x:.2f}' for x in pr)
              + f"  (median {statistics.median(pr):.2f})")
    print(f"  null   median {statistics.median(x[0] for x in by['null']):8.0f}/s  p99 median {statistics.median(x[1] for x in by['null']):.0f} µs")
    for a_, b_ in [('full', 'old'), ('io', 'full'), ('io', 'old')]:
        if a_ in by and b_ in by:
            fo = [a[0] / b[0] for a, b in zip(by[a_], by[b_])]
            print(f"  {a_} / {b_}: " + ' '.join(f'{x:.2f}' for x in fo) + f"  (median {statistics.median(fo):.2f})")
EOF
