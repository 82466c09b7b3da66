#!/usr/bin/env bash
# Load benchmark: ghostd against redis-server on the same machine, same run,
# same client (ghost-bench). Starts both servers on loopback ports, raises the
# descriptor limit here (not in the daemon), and prints the ratios: ghostd's
# PING against redis-server's, and Hangman guesses against Ghost letters.
#   scripts/bench-load.sh [seconds per run] [rounds of PING, and of letters/guesses]
# IO_THREADS=N runs ghostd with --io-threads N (default: ghostd's own default, 2).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-3}
command -v redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server; }
ulimit -n "$(ulimit -Hn)"   # 10,000 connections need more than the usual 1024
swift build -c release --product ghostd >/dev/null 2>&1
swift build -c release --product ghost-bench >/dev/null 2>&1
data=$(mktemp -d)
cc -O2 -o "$data/null-ghostd" scripts/null-ghostd.c
gport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
nport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# One benchmark connection does the work of hundreds of players, so the
# per-connection rate limit and the per-IP cap are lifted for the run.
.build/release/ghostd --port "$gport" --data "$data" --max-clients 20000 --max-clients-per-ip 0 --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 --max-games-per-network 0 \
    --max-commands-per-second 0 --max-new-names-per-minute 0 --idle-timeout 0 --name-timeout 0 ${IO_THREADS:+--io-threads "$IO_THREADS"} 2>"$data/ghostd.log" &
gpid=$!
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --maxclients 20000 >/dev/null &
rpid=$!
"$data/null-ghostd" "$nport" &
npid=$!
trap 'kill $gpid $rpid $npid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 1
bench=.build/release/ghost-bench
rate() { sed -n 's/.*s: \([0-9]*\) .*/\1/p'; }
# CPU time of a process (s), and of the whole machine busy/total (jiffies).
cpu() { awk '{printf "%.2f", ($14+$15)/100}' "/proc/$1/stat"; }
busy() { awk '/^cpu / {print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
load() { # name port pid [mode]: one play (or play-hangman) run, with the CPU it took
    local c0 b0 out c1 b1
    c0=$(cpu "$3"); b0=$(busy)
    out=$($bench "${4:-play}" --port "$2" --connections 1000 --seconds "$secs")
    c1=$(cpu "$3"); b1=$(busy)
    echo "$1 $out" >&2
    python3 -c "b0,t0,b1,t1=map(float,'$b0 $b1'.split()); print(f'   server CPU {$c1-$c0:.1f} s over the run; machine busy {100*(b1-b0)/(t1-t0):.0f}% of $(nproc) cores')" >&2
    echo "$out" | rate
}
median() { python3 -c 'import sys,statistics; print(int(statistics.median(map(float, sys.argv[1:]))))' "$@"; }
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); ghostd --io-threads ${IO_THREADS:-"(default) $(sed -n 's/.*public var ioThreads = \([0-9]*\).*/\1/p' Sources/GhostServer/Net/Config.swift)"}"
echo "== PING, 50 connections, one request in flight each; $rounds rounds, taking turns;"
echo "   both servers pinned to core 0 and ghost-bench to core 1, so that where the scheduler puts them does not decide a round"
taskset -a -cp 0 "$gpid" >/dev/null; taskset -a -cp 0 "$rpid" >/dev/null
# Besides the rates, each server's CPU time (all its threads, user and
# system) per PING: core 0 is shared with whatever else the machine runs,
# so a round's rate says how much of the core a server got as much as how
# much it needs; the CPU per PING says the second only.
rs=(); gs=(); rcs=(); gcs=()
pingrun() { # name port pid: one PING run; prints it, sets `prate` and `cpus` (µs of server CPU per PING)
    local c0 c1 out
    c0=$(cpu "$3")
    out=$(taskset -c 1 $bench ping --port "$2" --connections 50 --seconds "$secs")
    c1=$(cpu "$3")
    prate=$(echo "$out" | rate)
    cpus=$(python3 -c "print(f'{($c1-$c0)*1e6/($prate*$secs):.2f}')")
    echo "$1 $out; server CPU $cpus µs a PING"
}
for i in $(seq "$rounds"); do
    pingrun "redis-server:" "$rport" "$rpid"; rs+=("$prate"); rcs+=("$cpus")
    pingrun "ghostd:      " "$gport" "$gpid"; gs+=("$prate"); gcs+=("$cpus")
done
all=$(seq -s, 0 $(($(nproc) - 1)))
taskset -a -cp "$all" "$gpid" >/dev/null; taskset -a -cp "$all" "$rpid" >/dev/null
rr=$(median "${rs[@]}"); gr=$(median "${gs[@]}")
echo "median PING/s: redis-server $rr, ghostd $gr"
# Each round's two runs are back to back, so each round's ratio is the fair
# comparison; the machine's speed drifts between rounds.
python3 -c "
import statistics
r=[float(x) for x in '${rs[*]}'.split()]; g=[float(x) for x in '${gs[*]}'.split()]
ratios=[b/a for a,b in zip(r,g)]
print('ratio ghostd/redis PING per round: ' + ' '.join(f'{x:.2f}' for x in ratios))
print(f'ratio ghostd/redis PING: median {statistics.median(ratios):.2f}, ghostd ahead in {sum(x>=1 for x in ratios)} of {len(ratios)} rounds')
rc=[float(x) for x in '${rcs[*]}'.split()]; gc=[float(x) for x in '${gcs[*]}'.split()]
cr=[a/b for a,b in zip(rc,gc)]
print('server CPU per PING, redis-server/ghostd per round (above 1: ghostd needs less): ' + ' '.join(f'{x:.2f}' for x in cr))
print(f'server CPU per PING: median redis-server {statistics.median(rc):.2f} µs, ghostd {statistics.median(gc):.2f} µs; redis-server/ghostd median {statistics.median(cr):.2f}')"
echo "== Ghost letters, 1000 connections (500 games), and Hangman guesses, 1000 connections (1000 games against"
echo "   the evil computer); each letter and guess committed (fsync) before its OK; $rounds rounds, taking turns"
ls=(); hs=()
for i in $(seq "$rounds"); do
    ls+=("$(load "ghostd:      " "$gport" "$gpid" play)")
    hs+=("$(load "ghostd:      " "$gport" "$gpid" play-hangman)")
done
pr=$(median "${ls[@]}"); hr=$(median "${hs[@]}")
echo "median: letters/s $pr, Hangman guesses/s $hr"
python3 -c "
import statistics
l=[float(x) for x in '${ls[*]}'.split()]; h=[float(x) for x in '${hs[*]}'.split()]
ratios=[b/a for a,b in zip(l,h)]
print('ratio Hangman guesses / Ghost letters per round: ' + ' '.join(f'{x:.2f}' for x in ratios))
print(f'ratio Hangman guesses / Ghost letters: median {statistics.median(ratios):.2f} (of the medians {$hr/$pr:.2f})')"
# The ceiling: scripts/null-ghostd.c sends the same lines in the same pattern
# with no rules, storage or limits, so it shows what the sockets alone allow.
nr=$(load "null-ghostd: " "$nport" "$npid")
python3 -c "print(f'ratio ghostd letters / redis PING: {$pr/$rr:.2f}  (ceiling, null-ghostd letters / redis PING: {$nr/$rr:.2f}; ghostd reaches {$pr/$nr:.2f} of it)')"
echo "== 10,000 connections held, each PINGed once a second"
$bench hold --port "$gport" --connections 10000 --seconds 5 &
hpid=$!
sleep 4
echo "ghostd RSS with 10,000 connections: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$gpid/status)"
wait $hpid
echo "ghostd RSS after: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$gpid/status), peak $(awk '/VmHWM/ {printf "%.1f MB", $2/1024}' /proc/$gpid/status)"
