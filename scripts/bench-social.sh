#!/usr/bin/env bash
# Issue #47 under attack: hostile input between people, measured. Builds a
# data folder with ghost-bench fixture (NAMES= names and finished games, as
# bench-attack.sh's, 20,000 by default; and SOCIAL= registered names s0 … ,
# 10,000 by default, password "bench-password-47", of which STARS= (1) are followed by all
# the others: s0 has 9,999 followers), starts a release ghostd on it with its
# default limits but --max-hashes-per-minute-per-ip 0 (the fans' and stars'
# logins measure presence, not password hashing; the fixture's hashes are
# MD5-crypt) and --presence-interval ${PRESENCE_INTERVAL:-0} (0: every
# coming and going is told at once, the most fan-out; ghostd's default is
# 60), then runs ghost-bench attack once per class of attacker, each in
# rounds of the probe alone (from 127.0.0.2, PING every 25 ms) then the
# probe under attack, side by side in the same run:
#   chat-1:   one connection in a game against the computer (NEW bot=easy)
#             writing SAY lines flat out (the same text three times running,
#             format characters, 200 and 201 characters, plain lines);
#   chat-40:  40 connections from 40 networks (127.0.0.10 …), 20 games
#             between them (NEW, then JOIN <code>), doing the same;
#   invite-40: 40 connections from 40 networks looping INVITE <victim> /
#             LEAVE at one connected name, which DECLINEs every invitation;
#   follow:   STARS= names with 9,999 followers each log in, FOLLOW s1, s2, …
#             (past --max-follows 400: ERR too-many-follows), send FOLLOWING
#             every 4th command, QUIT and log in again every 40 commands,
#             while FANS= (400) of their followers, from 40 networks, are
#             logged in and hear ONLINE/OFFLINE;
#   following-40: 40 registered names from 40 networks, each following 400
#             names (HEAVY= of them in the fixture: s<stars> …), loop FOLLOWING.
# Prints each round, the medians per class, ghostd's CPU time during each
# class (user + system, from /proc: the alone phases cost next to nothing, so
# it is the attack's cost, and it does not depend on what else the machine
# runs), ghostd's STATS at the end. On a shared machine, `nice -n -10
# scripts/bench-social.sh …` (as root) keeps other jobs from the probe.
#   scripts/bench-social.sh [seconds per phase] [rounds] [classes…]
# e.g. scripts/bench-social.sh 5 3 chat-1 follow
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-3}
shift 2 2>/dev/null || shift $#
classes=("$@")
[ ${#classes[@]} -gt 0 ] || classes=(chat-1 chat-40 invite-40 follow following-40)
social=${SOCIAL:-10000}
stars=${STARS:-1}
source scripts/bench-lib.sh
bench_scratch
echo "== fixture"
$bench fixture --data "$data/big" --names "${NAMES:-20000}" --games "${GAMES:-20000}" --active "${ACTIVE:-1000}" \
    --social "$social" --stars "$stars" --heavy "${HEAVY:-40}"
p=$(port)
# shellcheck disable=SC2086
.build/release/ghostd --port "$p" --web-port any --data "$data/big" --dictionaries Dictionaries \
    --max-hashes-per-minute-per-ip 0 --presence-interval "${PRESENCE_INTERVAL:-0}" ${GHOSTD_FLAGS:-} 2>"$data/ghostd.log" &
gpid=$!
until grep -q "listening on" "$data/ghostd.log"; do
    kill -0 $gpid 2>/dev/null || { cat "$data/ghostd.log"; exit 1; }
    sleep 0.05
done
echo "ghostd ready; RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$gpid/status)"
cpu() { awk '{print $14 + $15}' /proc/$gpid/stat; }
tck=$(getconf CLK_TCK)
common=(--port "$p" --seconds "$secs" --rounds "$rounds" --probe-interval "${PROBE_INTERVAL:-0.025}" --lookups 0 --floods 0 --social "$social")
for c in "${classes[@]}"; do
    echo "== $c ($secs s a phase, $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg))"
    c0=$(cpu); t0=$(date +%s.%N)
    case $c in
        chat-1)    $bench attack "${common[@]}" --chatters 1 --chat-bot ;;
        chat-40)   $bench attack "${common[@]}" --chatters 40 --addresses 40 ;;
        invite-40) $bench attack "${common[@]}" --inviters 40 --addresses 40 ;;
        following-40) $bench attack "${common[@]}" --stars "$stars" --listers 40 --addresses 40 ;;
        follow)    $bench attack "${common[@]}" --stars "$stars" --fans "${FANS:-400}" --addresses 40 --star-session "${STAR_SESSION:-40}" ;;
        *) echo "unknown class $c"; exit 2 ;;
    esac
    c1=$(cpu); t1=$(date +%s.%N)
    python3 -c "print(f'ghostd CPU during $c: {($c1-$c0)/$tck:.2f} s in {$t1-$t0:.0f} s ({$rounds} x $secs s under attack): {($c1-$c0)/$tck/($rounds*$secs)*100:.0f}% of a core per second of attack')"
done
echo "== after: ghostd RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$gpid/status), peak $(awk '/VmHWM/ {printf "%.0f MB", $2/1024}' /proc/$gpid/status)"
$bench hold --port "$p" --connections 1 --seconds 0.1 --stats | tail -1
echo "== machine after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
