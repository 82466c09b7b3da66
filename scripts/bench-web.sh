#!/usr/bin/env bash
# The web port against the plain one (issue #46), in the same run, on release
# builds of this tree:
#   scripts/bench-web.sh ping [runs] [pings]    PING round trips over a WebSocket
#       against plain TCP (ghost-bench ws-ping: one connection of each, lock
#       step, 10 alternating blocks a run, ghostd's CPU per PING from /proc),
#       `runs` runs (3) of `pings` PINGs a transport (200,000) on one ghostd;
#       then the median over the runs of each figure's ratio.
#   scripts/bench-web.sh hold [runs] [connections]    ghostd's memory per
#       connection held (ghost-bench ws-hold), over plain TCP and over a
#       WebSocket alternately, each on a fresh ghostd, `runs` (3) of each, of
#       `connections` (10,000) each; then the medians.
# The attack with the web port's attackers is scripts/bench-attack.sh with
# WEB=1 (20 WebSocket floods and 20 slowloris requests beside the TCP attack).
# The daemons run with the connection limits and the command budget lifted
# (one benchmark connection does the work of many people, and all come from
# 127.0.0.1), --durability normal, a scratch data folder, --web-port any.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-ping}
runs=${2:-3}
source scripts/bench-lib.sh
ulimit -n "$(ulimit -Hn)"   # 10,000 connections need more than the usual 1024
bench_scratch
echo "== ghostd $(git rev-parse --short HEAD)"

# Starts a fresh ghostd on a new data folder: sets gpid, gport, wport.
start_ghostd() {
    local d
    d=$(mktemp -d -p "$data")
    .build/release/ghostd --port 0 --web-port any --data "$d" --durability normal \
        --max-clients 20000 --max-clients-per-ip 0 --max-unnamed 0 --max-unnamed-per-ip 0 \
        --connects-per-second-per-ip 0 --name-timeout 0 --idle-timeout 0 --max-commands-per-second 0 \
        2>"$d/log" &
    gpid=$!
    until grep -q "listening on" "$d/log" 2>/dev/null; do
        kill -0 $gpid 2>/dev/null || { cat "$d/log"; exit 1; }
        sleep 0.05
    done
    gport=$(sed -n 's/.* listening on [^ ]*:\([0-9]*\) .*/\1/p' "$d/log")
    wport=$(sed -n 's/.*web port: [^ ]*:\([0-9]*\) .*/\1/p' "$d/log")
}

stop_ghostd() {
    kill "$gpid"
    wait "$gpid" 2>/dev/null || true
    gpid=
}

median() { python3 -c 'import statistics,sys; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.2f}")' "$@"; }

case $what in
ping)
    pings=${3:-200000}
    start_ghostd
    echo "== ws-ping: $runs runs of $pings PINGs a transport, ghostd pid $gpid, plain port $gport, web port $wport"
    p50=(); p99=(); mean=(); cpu=(); blocks=()
    for r in $(seq "$runs"); do
        echo "-- run $r"
        out=$($bench ws-ping --port "$gport" --web-port "$wport" --pings "$pings" --rounds 10 --pid "$gpid")
        echo "$out" | sed -n '/^PING round trips/,$p'
        read -r a b c d < <(echo "$out" | awk '/^WS\/TCP/ {print $2, $3, $4, $5}')
        p50+=("$a"); p99+=("$b"); mean+=("$c"); cpu+=("$d")
        blocks+=("$(echo "$out" | sed -n "s/^mean's ratio.*; median //p")")
    done
    echo "== medians of $runs runs, WebSocket / TCP: p50 $(median "${p50[@]}"), p99 $(median "${p99[@]}"), mean $(median "${mean[@]}"), ghostd CPU per PING $(median "${cpu[@]}"); median of the runs' per-block medians of the mean's ratio $(median "${blocks[@]}")"
    stop_ghostd
    ;;
hold)
    conns=${3:-10000}
    declare -A per=()
    for r in $(seq "$runs"); do
        # Alternate which transport goes first.
        order="tcp websocket"; [ $((r % 2)) -eq 0 ] && order="websocket tcp"
        for t in $order; do
            start_ghostd
            out=$($bench ws-hold --port "$gport" --web-port "$wport" --transport "$t" --connections "$conns" --seconds 2)
            echo "run $r: $(echo "$out" | tail -1)"
            per[$t]="${per[$t]:-} $(echo "$out" | tail -1 | sed -n 's/.*: \([0-9]*\) bytes a connection/\1/p')"
            stop_ghostd
        done
    done
    # shellcheck disable=SC2086
    tcp=$(median ${per[tcp]}); ws=$(median ${per[websocket]})
    echo "== medians of $runs fresh daemons each: TCP $tcp bytes a connection, WebSocket $ws; WebSocket / TCP $(python3 -c "print(f'{$ws/$tcp:.2f}')")"
    ;;
*)
    echo "usage: scripts/bench-web.sh ping|hold [runs] [pings|connections]" >&2
    exit 2
    ;;
esac
echo "== machine after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
