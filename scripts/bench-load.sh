#!/usr/bin/env bash
# Load benchmark: ghostd against redis-server on the same machine, same run,
# same client (ghost-bench). Starts both servers on loopback ports, raises the
# descriptor limit here (not in the daemon), and prints the ratios.
#   scripts/bench-load.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
command -v redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server; }
ulimit -n "$(ulimit -Hn)"   # 10,000 connections need more than the usual 1024
swift build -c release --product ghostd >/dev/null 2>&1
swift build -c release --product ghost-bench >/dev/null 2>&1
data=$(mktemp -d)
gport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# One benchmark connection does the work of hundreds of players, so the
# per-connection rate limit and the per-IP cap are lifted for the run.
.build/release/ghostd --port "$gport" --data "$data" --max-clients 20000 --max-clients-per-ip 0 \
    --max-commands-per-second 0 --idle-timeout 0 --name-timeout 0 2>"$data/ghostd.log" &
gpid=$!
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --maxclients 20000 >/dev/null &
rpid=$!
trap 'kill $gpid $rpid 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
sleep 1
bench=.build/release/ghost-bench
rate() { sed -n 's/.*s: \([0-9]*\) .*/\1/p'; }
echo "== PING, 50 connections, one request in flight each"
r=$($bench ping --port "$rport" --connections 50 --seconds "$secs"); echo "redis-server: $r"
g=$($bench ping --port "$gport" --connections 50 --seconds "$secs"); echo "ghostd:       $g"
rr=$(echo "$r" | rate); gr=$(echo "$g" | rate)
python3 -c "print(f'ratio ghostd/redis PING: {$gr/$rr:.2f}')"
echo "== letters, 1000 connections (500 games), each letter committed (fsync) before its OK"
p=$($bench play --port "$gport" --connections 1000 --seconds "$secs"); echo "ghostd:       $p"
pr=$(echo "$p" | rate)
python3 -c "print(f'ratio ghostd letters / redis PING: {$pr/$rr:.2f}')"
echo "== 10,000 connections held, each PINGed once a second"
$bench hold --port "$gport" --connections 10000 --seconds 5 &
hpid=$!
sleep 4
echo "ghostd RSS with 10,000 connections: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$gpid/status)"
wait $hpid
echo "ghostd RSS after: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$gpid/status), peak $(awk '/VmHWM/ {printf "%.1f MB", $2/1024}' /proc/$gpid/status)"
