#!/usr/bin/env bash
# Watchers against players (issue #18: "1,000 watchers of one game must not
# slow its players"). One ghostd; one ghost-bench process plays one game (two
# connections in lock step, as fast as the server answers, the game going on
# for ever) and reports the players' letters/s and latency; in every other
# run, a second ghost-bench process keeps 1,000 connections watching that
# game and reads everything they get. Runs alternate (0, 1000, 0, 1000, …) on
# a shared, noisy machine; each round's ratio compares two runs back to back.
#   scripts/bench-watch.sh [seconds per run] [rounds] [watchers] [extra ghostd options…]
# PLAYERS=1000 WATCH_GAMES=1 scripts/bench-watch.sh …: the load benchmark's
# 1,000 players (500 games) instead of one game, all watchers on one of them.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-5}
watchers=${3:-1000}
players=${PLAYERS:-2}
watchgames=${WATCH_GAMES:-100}
shift 3 2>/dev/null || shift $#
ulimit -n "$(ulimit -Hn)"
swift build -c release --product ghostd >/dev/null 2>&1
swift build -c release --product ghost-bench >/dev/null 2>&1
data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The watchers have no name and send nearly nothing: no name or idle limit;
# they all come from 127.0.0.1: no per-IP cap.
.build/release/ghostd --port "$port" --data "$data" --max-clients 20000 --max-clients-per-ip 0 --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 \
    --max-commands-per-second 0 --max-new-names-per-minute 0 --idle-timeout 0 --name-timeout 0 "$@" 2>"$data/ghostd.log" &
gpid=$!
trap 'kill $gpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 1
bench=.build/release/ghost-bench
rate() { sed -n "s/.* s: \([0-9]*\) acknowledged.*/\1/p"; }
cpu() { awk '{printf "%.2f", ($14+$15)/100}' "/proc/$1/stat"; }
median() { python3 -c 'import sys,statistics; print(int(statistics.median(map(float, sys.argv[1:]))))' "$@"; }
echo "== $((players / 2)) game(s) played in lock step by $players connections, alone and with $watchers watchers; ${secs} s a run, $rounds rounds; ghostd $*"
zs=(); ws=()
for i in $(seq "$rounds"); do
    c0=$(cpu "$gpid")
    z=$($bench watch --port "$port" --players "$players" --watchers 0 --seconds "$secs" --warmup 1)
    c1=$(cpu "$gpid")
    echo "0 watchers:     $z"
    python3 -c "print(f'   CPU over the players\' run: ghostd {$c1-$c0:.1f} s')"; zs+=("$(echo "$z" | rate)")
    $bench watch --port "$port" --players 0 --watchers "$watchers" --watch-games "$watchgames" --seconds "$((secs + 3))" --warmup 0 >"$data/watchers.txt" &
    wpid=$!
    sleep 1.5   # the watchers connect and WATCH
    c0=$(cpu "$gpid"); b0=$(cpu "$wpid")
    w=$($bench watch --port "$port" --players "$players" --watchers 0 --seconds "$secs" --warmup 1)
    c1=$(cpu "$gpid"); b1=$(cpu "$wpid")
    wait $wpid
    echo "$watchers watchers: $w"; ws+=("$(echo "$w" | rate)")
    echo "   the watchers: $(sed 's/.*matches finished, //' "$data/watchers.txt")"
    python3 -c "print(f'   CPU over the players\' run (1 s warm-up + $secs s): ghostd {$c1-$c0:.1f} s, the watchers\' ghost-bench {$b1-$b0:.1f} s ($(nproc) cores)')"
done
z=$(median "${zs[@]}"); w=$(median "${ws[@]}")
echo "median letters/s: 0 watchers $z, $watchers watchers $w"
python3 -c "
import statistics
z=[float(x) for x in '${zs[*]}'.split()]; w=[float(x) for x in '${ws[*]}'.split()]
ratios=[b/a for a,b in zip(z,w)]
print('ratio with/without watchers per round: ' + ' '.join(f'{x:.2f}' for x in ratios))
print(f'ratio: median {statistics.median(ratios):.2f} (of the medians {$w/$z:.2f})')"
