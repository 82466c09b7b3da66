#!/usr/bin/env bash
# The store on PostgreSQL against SQLite (issue #48), in one run:
#   load   durable letters/s and p50/p99 at 1,000 connections (`ghost-bench
#          play --connections 1000`, as scripts/bench-commit.sh runs it) for
#          ghostd on SQLite (--durability full), ghostd --store over the unix
#          socket and ghostd --store over TCP 127.0.0.1, the three taking
#          turns in every round (the order rotates each round); per run the
#          CPU seconds of ghostd and of the whole PostgreSQL cluster (the
#          postmaster, its live children and the children it reaped).
#   idle   a letter's round trip on an idle server: `ghost-bench play
#          --connections 2` (one game, one letter in flight: LETTER -> OK
#          LETTER), the same three servers, in the same rounds.
#   start  exec to `listening on` on a 200k names / 200k games state
#          (`ghost-bench fixture`), in SQLite and copied into PostgreSQL with
#          `ghostd copy-store` (then VACUUM ANALYZE), starts taking turns.
#   cg     instructions per letter under callgrind (scripts/callgrind-letters.py,
#          ghostd's own process only), SQLite --durability full and --store
#          over the unix socket, each on a fresh database.
# Starts its own PostgreSQL 15 in a temporary folder (initdb and pg_ctl from
# /usr/lib/postgresql/15/bin or $PG_BIN, as the `postgres` user when run as
# root; fsync=on, synchronous_commit=on, shared_buffers=128MB), with a unix
# socket in that folder and TCP on 127.0.0.1, and removes it at exit.
#   scripts/bench-postgres.sh [seconds per run] [rounds]
#   PARTS="load idle start cg" (default: load idle start)  NAMES=200000 GAMES=200000
#   ACTIVE=10000 (the fixture)  STARTS=5 (starts per backend)  CG_GAMES=200
#   IO_THREADS=2 (ghostd's --io-threads, its default)  KEEP=1 keeps the logs
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-3}
parts=${PARTS:-load idle start}
names=${NAMES:-200000}
games=${GAMES:-200000}
active=${ACTIVE:-10000}
starts=${STARTS:-5}
io=${IO_THREADS:-2}
pgbin=${PG_BIN:-/usr/lib/postgresql/15/bin}
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
build_new
bench=.build/release/ghost-bench
ghostd=.build/release/ghostd
here=$PWD

# --- PostgreSQL, ours alone -------------------------------------------------
source scripts/bench-pg-lib.sh

echo "== ghostd $(git rev-parse --short HEAD), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$pgbin/postgres" --version); parts: $parts"
echo "== PostgreSQL: $pg (port $pgport), fsync=on synchronous_commit=on shared_buffers=$(psql_ -d postgres -c 'SHOW shared_buffers')"

flags=(--max-clients 20000 --max-clients-per-ip 0 --max-commands-per-second 0 --max-new-names-per-minute 0
       --idle-timeout 0 --name-timeout 0 --dictionaries Dictionaries --max-games-per-network 0
       --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 --io-threads "$io" --web-port off)

# --- load and idle ------------------------------------------------------------
if [[ " $parts " == *" load "* || " $parts " == *" idle "* ]]; then
    createdb_ bench_unix
    createdb_ bench_tcp
    mkdir -p "$data/sqlite" "$data/unix" "$data/tcp"
    declare -A gport gpid
    for s in sqlite unix tcp; do gport[$s]=$(port); done
    $ghostd --port "${gport[sqlite]}" --data "$data/sqlite" --durability full "${flags[@]}" 2>"$data/sqlite.log" &
    gpid[sqlite]=$!; pids+=($!)
    $ghostd --port "${gport[unix]}" --data "$data/unix" --store "$(unix_url bench_unix)" "${flags[@]}" 2>"$data/unix.log" &
    gpid[unix]=$!; pids+=($!)
    $ghostd --port "${gport[tcp]}" --data "$data/tcp" --store "$(tcp_url bench_tcp)" "${flags[@]}" 2>"$data/tcp.log" &
    gpid[tcp]=$!; pids+=($!)
    for s in sqlite unix tcp; do
        for _ in $(seq 600); do
            grep -q "listening on" "$data/$s.log" && break
            kill -0 "${gpid[$s]}" 2>/dev/null || break
            sleep 0.1
        done
        grep -q "listening on" "$data/$s.log" || { echo "ghostd $s did not start:"; cat "$data/$s.log"; exit 1; }
    done
    echo "== ghostd flags: ${flags[*]}; SQLite: --durability full; PostgreSQL: --store URL"
    results=$data/results
    order=(sqlite unix tcp)
    for i in $(seq "$rounds"); do
        for s in "${order[@]}"; do
            if [[ " $parts " == *" load "* ]]; then
                c0=$(cpu "${gpid[$s]}"); q0=$(pgcpu)
                out=$($bench play --port "${gport[$s]}" --connections 1000 --seconds "$secs")
                c1=$(cpu "${gpid[$s]}"); q1=$(pgcpu)
                echo "round $i load $s: $out; ghostd CPU $(sub_ "$c1" "$c0") s, postgres CPU $(sub_ "$q1" "$q0") s"
                echo "$i load $s $(sub_ "$c1" "$c0") $(sub_ "$q1" "$q0") $out" >>"$results"
            fi
            if [[ " $parts " == *" idle "* ]]; then
                out=$($bench play --port "${gport[$s]}" --connections 2 --seconds "$secs")
                echo "round $i idle $s: $out"
                echo "$i idle $s 0 0 $out" >>"$results"
            fi
        done
        order=("${order[@]:1}" "${order[0]}")   # rotate: each server goes first once in three rounds
    done
    for s in sqlite unix tcp; do
        python3 - "$s" "${gport[$s]}" <<'EOF' || true
import socket, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[2])))
s.sendall(b'STATS\r\n'); time.sleep(0.5)
d = {}
for l in s.recv(65536).decode().splitlines():
    if l.startswith('STAT '):
        f = dict(x.split('=', 1) for x in l.split()[1:])
        d[f['name']] = f['value']
print(f"ghostd {sys.argv[1]} STATS over the whole run: {d['commits']} commits, {d['moves']} moves, {d['games_finished']} games finished;"
      f" last 1,024 commits: p50 {d['commit_p50_us']} µs, p99 {d['commit_p99_us']} µs")
EOF
        kill "${gpid[$s]}" 2>/dev/null || true
        wait "${gpid[$s]}" 2>/dev/null || true
    done
    python3 - "$results" "$secs" <<'EOF'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    i, part, server, gcpu, pcpu, rest = line.split(' ', 5)
    rate = float(re.search(r's: (\d+) ', rest).group(1))
    p50 = float(re.search(r'p50 (\d+)', rest).group(1))
    p99 = float(re.search(r'p99 (\d+)', rest).group(1))
    runs.setdefault(part, {}).setdefault(server, []).append((rate, p50, p99, float(gcpu), float(pcpu)))
med = statistics.median
label = {'sqlite': 'SQLite (--durability full)', 'unix': 'PostgreSQL, unix socket', 'tcp': 'PostgreSQL, TCP 127.0.0.1'}
if 'load' in runs:
    by = runs['load']
    print("== load: 1,000 connections, durable letters/s (median of the rounds; each round's figure in brackets)")
    for s in ['sqlite', 'unix', 'tcp']:
        r = by[s]
        print(f"  {label[s]:27} {med(x[0] for x in r):7.0f}/s [{', '.join(f'{x[0]:.0f}' for x in r)}]"
              f"  p50 {med(x[1] for x in r)/1000:.1f} ms  p99 {med(x[2] for x in r)/1000:.1f} ms"
              f"  ghostd CPU {med(x[3] for x in r):.2f} s  postgres CPU {med(x[4] for x in r):.2f} s"
              f"  CPU µs a letter: ghostd {med(1e6*x[3]/(x[0]*float(sys.argv[2])) for x in r):.0f}, postgres {med(1e6*x[4]/(x[0]*float(sys.argv[2])) for x in r):.0f}")
    for s in ['unix', 'tcp']:
        ratio = [a[0] / b[0] for a, b in zip(by[s], by['sqlite'])]
        print(f"  {label[s]} / SQLite, per round: {' '.join(f'{x:.2f}' for x in ratio)}  (median {med(ratio):.2f}; target >= 0.5)")
if 'idle' in runs:
    by = runs['idle']
    print("== idle: one game between two connections, a letter's round trip (median of the rounds)")
    for s in ['sqlite', 'unix', 'tcp']:
        r = by[s]
        print(f"  {label[s]:27} p50 {med(x[1] for x in r):6.0f} µs  p99 {med(x[2] for x in r):6.0f} µs"
              f"  [p50 {', '.join(f'{x[1]:.0f}' for x in r)}; p99 {', '.join(f'{x[2]:.0f}' for x in r)}]  {med(x[0] for x in r):.0f} letters/s")
    for s in ['unix', 'tcp']:
        ratio = [a[1] / b[1] for a, b in zip(by[s], by['sqlite'])]
        print(f"  p50 {label[s]} / SQLite, per round: {' '.join(f'{x:.2f}' for x in ratio)}  (median {med(ratio):.2f})")
EOF
fi

# --- start time on a large state -------------------------------------------
if [[ " $parts " == *" start "* ]]; then
    big=$data/big
    mkdir -p "$big" "$data/biglock"
    t0=$(date +%s.%N)
    $bench fixture --data "$big" --names "$names" --games "$games" --active "$active" | tail -n 1
    createdb_ bench_big
    t1=$(date +%s.%N)
    $ghostd copy-store --from "$big" --to "$(unix_url bench_big)" | tail -n 2
    t2=$(date +%s.%N)
    psql_ -d bench_big -c 'VACUUM ANALYZE'
    t3=$(date +%s.%N)
    echo "== copy-store $(python3 -c "print(f'{$t2-$t1:.1f}')") s, VACUUM ANALYZE $(python3 -c "print(f'{$t3-$t2:.1f}')") s; SQLite $(du -sh "$big" | cut -f1), PostgreSQL database $(psql_ -d bench_big -c "SELECT pg_size_pretty(pg_database_size('bench_big'))")"
    python3 - "$ghostd" "$big" "$data/biglock" "$(unix_url bench_big)" "$(tcp_url bench_big)" "$starts" <<'EOF'
import re, statistics, subprocess, sys, time
ghostd, big, lock, unix, tcp, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
common = ["--port", "0", "--web-port", "off", "--dictionaries", "Dictionaries"]
servers = {"SQLite": ["--data", big], "PostgreSQL, unix socket": ["--data", lock, "--store", unix],
           "PostgreSQL, TCP 127.0.0.1": ["--data", lock, "--store", tcp]}
times = {k: [] for k in servers}
ready = {k: [] for k in servers}
for i in range(n):
    for k, extra in servers.items():
        t0 = time.perf_counter()
        p = subprocess.Popen([ghostd] + common + extra, stderr=subprocess.PIPE, text=True)
        for line in p.stderr:
            if " listening on " in line:
                took = time.perf_counter() - t0
                ready[k].append(int(re.search(r"ready in (\d+) ms", line).group(1)))
                break
        else:
            sys.exit(f"{k}: ghostd did not start")
        p.terminate(); p.stderr.close(); p.wait()
        times[k].append(took * 1000)
print(f"== start: exec to `listening on`, {n} starts each, taking turns (ms; ghostd's own `ready in` in brackets)")
for k in servers:
    print(f"  {k:27} median {statistics.median(times[k]):6.0f} ms  [{', '.join(f'{x:.0f}' for x in times[k])}]  (ready in: median {statistics.median(ready[k]):.0f})")
EOF
fi

# --- instructions per letter ------------------------------------------------
if [[ " $parts " == *" cg "* ]]; then
    createdb_ bench_cg
    echo "== callgrind, ${CG_GAMES:-200} lock-step games (5 letters each), ghostd's process only (PostgreSQL's own work is not counted)"
    python3 scripts/callgrind-letters.py "$ghostd" --games "${CG_GAMES:-200}" --durability full --split
    python3 scripts/callgrind-letters.py "$ghostd" --games "${CG_GAMES:-200}" --store "$(unix_url bench_cg)" --split
fi
