#!/usr/bin/env bash
# A/B load benchmark: this tree's ghostd against an earlier release's, in the
# same run, driven by the same client (this tree's ghost-bench), taking turns
# so that the machine's drift hits both alike. Prints each round and the
# medians, and the ratio new/old.
#   scripts/bench-ab.sh [git ref of the old release] [seconds per run] [rounds]
# The default old release is 5d7602b, ghostd 0.3.0 (before the game engine).
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-5d7602b}
secs=${2:-5}
rounds=${3:-5}
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
build_old "$ref"
build_new
data=$(mktemp -d)
aport=$(port); bport=$(port)
flags=(--max-clients 20000 --max-clients-per-ip 0 --max-games-per-network 0 --max-commands-per-second 0 --idle-timeout 0 --name-timeout 0
       --dictionaries Dictionaries)
mkdir -p "$data/a" "$data/b"
# Each server on core 0 and the client on core 1, so that where the
# scheduler happens to put them does not decide the comparison.
# An old release that has the per-address limits gets them lifted too
# (0.3.0 has none; #24's releases do).
oldflags=()
oldhelp=$("$old/.build/release/ghostd" --help 2>&1 || true)
for f in --max-new-names-per-minute --max-unnamed --max-unnamed-per-ip --connects-per-second-per-ip; do
    if grep -q -- "$f" <<<"$oldhelp"; then oldflags+=("$f" 0); fi
done
taskset -c 0 "$old/.build/release/ghostd" --port "$aport" --data "$data/a" "${flags[@]}" ${oldflags[@]+"${oldflags[@]}"} 2>"$data/a.log" &
apid=$!
# The load generator's players are new names from one address: lift that
# limit (0.3.0 has none), and the limits by network (all come from 127.0.0.1).
taskset -c 0 .build/release/ghostd --port "$bport" --data "$data/b" "${flags[@]}" --max-new-names-per-minute 0 --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/b.log" &
bpid=$!
trap 'kill $apid $bpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 1
bench="taskset -c 1 .build/release/ghost-bench"
rate() { sed -n 's/.*s: \([0-9]*\) .*/\1/p'; }
# PING first on fresh servers, then the game load, then PING again: each
# play round leaves about 500 adjourned games behind (its clients go away
# mid-game), and a server must not get slower as they pile up.
for what in "ping --connections 50" "play --connections 1000" "ping --connections 50"; do
    echo "== ghost-bench $what, $secs s a run, $rounds rounds; odd rounds old first, even rounds new first"
    as=(); bs=()
    for i in $(seq "$rounds"); do
        if [ $((i % 2)) -eq 0 ]; then
            b=$($bench $what --port "$bport" --seconds "$secs"); echo "new:         $b"
        fi
        a=$($bench $what --port "$aport" --seconds "$secs"); echo "old ($ref): $a"; as+=("$(echo "$a" | rate)")
        if [ $((i % 2)) -eq 1 ]; then
            b=$($bench $what --port "$bport" --seconds "$secs"); echo "new:         $b"
        fi
        bs+=("$(echo "$b" | rate)")
    done
    python3 -c "
import statistics
a=[float(x) for x in '${as[*]}'.split()]; b=[float(x) for x in '${bs[*]}'.split()]
r=[y/x for x,y in zip(a,b)]
print(f'median/s: old {statistics.median(a):.0f}, new {statistics.median(b):.0f}; new/old per round: ' + ' '.join(f'{x:.2f}' for x in r) + f'; median {statistics.median(r):.2f}')"
done
