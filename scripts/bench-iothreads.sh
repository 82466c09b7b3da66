#!/usr/bin/env bash
# Where a letter's CPU goes, by thread, with and without I/O threads (issue
# #29): ghostd --io-threads 1 and --io-threads N (default 2), and null-ghostd,
# take turns in every round under `ghost-bench play` (or MODE=play-hangman)
# on 1,000 connections. For each run it prints the rate and, from
# /proc/PID/task/*/stat, the CPU time per acknowledged letter of the loop
# thread (the process's first thread), of the other threads (the I/O
# threads; the WAL syncer and the hashing thread are idle or nearly so), and
# of the process. A loaded machine changes the rates, much less the CPU per
# letter: the loop thread's µs a letter is what bounds one loop's rate when
# the machine has cores to spare.
#   scripts/bench-iothreads.sh [seconds per run] [rounds] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-3}
n=${3:-2}
mode=${MODE:-play}
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
build_new
bench=.build/release/ghost-bench
data=$(mktemp -d)
cc -O2 -o "$data/null-ghostd" scripts/null-ghostd.c
p1=$(port); pn=$(port); pz=$(port)
flags=(--max-clients 20000 --max-clients-per-ip 0 --max-commands-per-second 0 --max-new-names-per-minute 0
       --idle-timeout 0 --name-timeout 0 --dictionaries Dictionaries --max-games-per-network 0
       --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0)
mkdir -p "$data/1" "$data/n"
.build/release/ghostd --port "$p1" --data "$data/1" "${flags[@]}" --io-threads 1 2>"$data/1.log" &
pid1=$!
.build/release/ghostd --port "$pn" --data "$data/n" "${flags[@]}" --io-threads "$n" 2>"$data/n.log" &
pidn=$!
"$data/null-ghostd" "$pz" &
pidz=$!
trap 'kill $pid1 $pidn $pidz 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 2
# Jiffies (user + system) of the first thread, and of all threads.
ticks() {
    local main=0 all=0 t v
    for t in /proc/"$1"/task/*; do
        v=$(awk '{print $14+$15}' "$t/stat")
        all=$((all + v))
        [ "$(basename "$t")" = "$1" ] && main=$v
    done
    echo "$main $all"
}
echo "== $rounds rounds of $secs s, $mode, 1000 connections; ghostd $(git rev-parse --short HEAD) --io-threads 1 and $n, null-ghostd"
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
results=$data/results
for i in $(seq "$rounds"); do
    for server in one many null; do
        case $server in one) p=$p1; pid=$pid1;; many) p=$pn; pid=$pidn;; null) p=$pz; pid=$pidz;; esac
        read -r m0 a0 < <(ticks "$pid")
        out=$($bench "$mode" --port "$p" --connections 1000 --seconds "$secs")
        read -r m1 a1 < <(ticks "$pid")
        rate=$(sed -n 's/.*s: \([0-9]*\) .*/\1/p' <<<"$out")
        python3 - "$server" "$i" "$rate" "$m0" "$a0" "$m1" "$a1" "$secs" "$(getconf CLK_TCK)" "$out" <<'EOF' | tee -a "$results"
import sys
server, i, rate, m0, a0, m1, a1, secs, hz = sys.argv[1:10]
rate, secs, hz = float(rate), float(secs), float(hz)
# ghost-bench warms up for a second before it counts: the CPU covers that
# too, so it is charged to the letters of secs + 1 seconds.
letters = max(1.0, rate * (secs + 1))
loop = (int(m1) - int(m0)) / hz * 1e6 / letters
total = (int(a1) - int(a0)) / hz * 1e6 / letters
print(f"round {i} {server:4} {rate:8.0f}/s  loop thread {loop:6.1f} µs a letter, other threads {total - loop:6.1f}, process {total:6.1f}")
EOF
    done
done
python3 - "$results" <<'EOF'
import statistics, sys, re
by = {}
for line in open(sys.argv[1]):
    f = line.split()
    by.setdefault(f[2], []).append((float(f[3].rstrip('/s')), float(f[6]), float(f[12].rstrip(',')), float(f[14])))
print("== medians: rate, loop thread / other threads / process µs a letter")
for s, rows in by.items():
    print(f"  {s:4} {statistics.median(r[0] for r in rows):8.0f}/s  {statistics.median(r[1] for r in rows):6.1f} / "
          f"{statistics.median(r[2] for r in rows):6.1f} / {statistics.median(r[3] for r in rows):6.1f}")
if 'one' in by and 'many' in by:
    r = [b[0] / a[0] for a, b in zip(by['one'], by['many'])]
    l = [a[1] / b[1] for a, b in zip(by['one'], by['many'])]
    print("  rate --io-threads N / 1 per round: " + ' '.join(f'{x:.2f}' for x in r) + f" (median {statistics.median(r):.2f})")
    print("  loop thread µs a letter, 1 / N per round: " + ' '.join(f'{x:.2f}' for x in l) + f" (median {statistics.median(l):.2f})")
EOF
