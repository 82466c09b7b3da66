#!/usr/bin/env bash
# A large server under attack (#24): builds a data folder with ghost-bench
# fixture (200,000 names, 200,000 finished games, 10,000 adjourned games in
# progress), starts ghostd on it with its default limits, and runs
# ghost-bench attack: rounds of a probe alone (the anchor: an idle server,
# same run), then the probe under attack (20 connections looping GAMES 100,
# NAMES 100 and RESUME <random token>; 20 writing blank lines flat out and
# playing evil Dutch 10-letter Hangman). The probe PINGs from 127.0.0.2 on one
# connection. Prints each round, the ratio, the medians, then ghostd's STATS.
#   scripts/bench-attack.sh [seconds per phase] [rounds] [attacker addresses]
# Attacker addresses: 1 (127.0.0.1, the default) or up to 240 (127.0.0.10 …).
# NAMES=, GAMES=, ACTIVE= change the fixture; LOOKUPS=, FLOODS= the attackers of each
# class (20 and 20); GHOSTD_FLAGS= adds ghostd options;
# PROBE_INTERVAL= the seconds between two probe PINGs (default 0.025).
# WEB=1 adds a third phase to each round, the web port under attack (issue
# #46): WS_FLOODS= WebSocket connections (20) doing what the floods do, each
# blank line an empty text message, and SLOWLORIS= connections (20) sending an
# HTTP request's head a byte every 50 ms, never ending it, connecting again
# when dropped; a second probe PINGs over a WebSocket from 127.0.0.3 in every
# phase. ghostd's web port is always a free one (--web-port any).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-3}
addresses=${3:-1}
source scripts/bench-lib.sh
bench_scratch
echo "== fixture"
$bench fixture --data "$data/big" --names "${NAMES:-200000}" --games "${GAMES:-200000}" --active "${ACTIVE:-10000}"
p=$(port)
t0=$(date +%s.%N)
# shellcheck disable=SC2086
.build/release/ghostd --port "$p" --web-port any --data "$data/big" --dictionaries Dictionaries ${GHOSTD_FLAGS:-} 2>"$data/ghostd.log" &
gpid=$!
until grep -q "listening on" "$data/ghostd.log"; do
    kill -0 $gpid 2>/dev/null || { cat "$data/ghostd.log"; exit 1; }
    sleep 0.05
done
echo "ghostd ready after $(python3 -c "print(f'{$(date +%s.%N)-$t0:.1f}')") s; RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$gpid/status)"
grep -h "restored\|ready in" "$data/ghostd.log" | sed 's/^/  ghostd: /'
web=()
if [ "${WEB:-0}" = 1 ]; then
    w=$(sed -n 's/.*web port: [^ ]*:\([0-9]*\) .*/\1/p' "$data/ghostd.log")
    web=(--web-port "$w" --ws-floods "${WS_FLOODS:-20}" --slowloris "${SLOWLORIS:-20}")
fi
echo "== attack ($secs s a phase, $rounds rounds, $addresses attacker address(es))"
$bench attack --port "$p" --seconds "$secs" --rounds "$rounds" --addresses "$addresses" --probe-interval "${PROBE_INTERVAL:-0.025}" \
    --lookups "${LOOKUPS:-20}" --floods "${FLOODS:-20}" "${web[@]}"
echo "== after: ghostd RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$gpid/status), peak $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$gpid/status)"
$bench hold --port "$p" --connections 1 --seconds 0.1 --stats | tail -1
echo "== machine after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
