#!/usr/bin/env bash
# Several ghostd nodes on one PostgreSQL store (issue #49, docs/cluster.md):
#   takeover  three nodes (--lease-seconds 3, the default) on one database,
#             `ghost-bench play --connections 200` on the leader; the leader
#             killed (kill -9; 2 s + a random part of the renewal interval
#             after the load starts), timed from the kill to the new leader's
#             `listening on` line (its log polled every 10 ms), then the
#             killed node started again as a standby; the same after a clean
#             stop (SIGTERM) of the leader. Each round does both (the order
#             alternating); from the logs' timestamps, the kill to `this node
#             leads now` (the lease's lapse and the standby's poll) and from
#             there to `listening on` (the start: the store, the word lists,
#             the games in progress).
#   nodes     durable letters/s at 1,000 connections (`ghost-bench play
#             --connections 1000`, as scripts/bench-postgres.sh's load part)
#             against one leader on its own database: alone (one ghostd on
#             the store), with 1 standby, with 2 standbys, taking turns in
#             every round (the order rotates each round); per run the CPU
#             seconds of the leader, of each standby and of the whole
#             PostgreSQL cluster (the postmaster, its live children and the
#             children it reaped).
#   rtt       a letter's round trip on an idle leader (`ghost-bench play
#             --connections 2`: one game, one letter in flight), with 0 and
#             2 standbys, in the same rounds; the same CPU figures; and with
#             no player at all (`quiet`: S seconds of sleep) the CPU the
#             leader, the standbys and PostgreSQL spend at rest.
#   relay     with the relay (a standby carries the players who connect to its
#             port to the leader's relay port): a leader and 1 standby, idle
#             but for `ghost-bench play --connections 2` (one game, one letter
#             in flight), a letter's round trip p50/p99 with both players on
#             the leader's port, one on the leader's and one on the standby's
#             (`--port L,S`: the two seekers are paired, so the game has one
#             player on each node), and both on the standby's; in the same
#             rounds, the order rotating each round.
#   spread    durable letters/s at 1,000 connections spread evenly over every
#             node's port (`--port L,S1,S2`: connection i to the (i mod n)-th):
#             1 node (the leader alone), 2 nodes, 3 nodes, and 3 nodes with
#             every connection on the leader's port; in the same rounds, the
#             order rotating each round.
#             relay and spread give per run the CPU seconds of the leader, of
#             each standby, of ghost-bench and of PostgreSQL; medians over the
#             rounds, and each setting's ratio to the first, per round.
# (takeover, nodes and rtt were first measured before the relay existed,
# when a standby's ports were closed: BENCHMARKS.md keeps those figures.)
# Starts its own PostgreSQL 15 in a temporary folder as scripts/bench-postgres.sh
# does (initdb and pg_ctl from /usr/lib/postgresql/15/bin or $PG_BIN, as the
# `postgres` user when run as root; fsync=on, synchronous_commit=on,
# shared_buffers=128MB), the nodes on its unix socket, and removes it at exit.
#   scripts/bench-cluster.sh [seconds per run] [rounds]
#   PARTS="takeover nodes rtt" (the default; also relay, spread)  LEASE=3 (--lease-seconds)
#   TAKEOVER_CONNECTIONS=200  IO_THREADS=2 (ghostd's --io-threads)  KEEP=1 keeps the logs
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
rounds=${2:-3}
parts=${PARTS:-takeover nodes rtt}
lease=${LEASE:-3}
tconns=${TAKEOVER_CONNECTIONS:-200}
io=${IO_THREADS:-2}
pgbin=${PG_BIN:-/usr/lib/postgresql/15/bin}
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
build_new
bench=.build/release/ghost-bench
ghostd=.build/release/ghostd

# --- PostgreSQL, ours alone -------------------------------------------------
source scripts/bench-pg-lib.sh

echo "== ghostd $(git rev-parse --short HEAD), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$pgbin/postgres" --version); parts: $parts"
echo "== PostgreSQL: $pg (port $pgport), fsync=on synchronous_commit=on shared_buffers=$(psql_ -d postgres -c 'SHOW shared_buffers'); nodes on its unix socket"

flags=(--max-clients 20000 --max-clients-per-ip 0 --max-commands-per-second 0 --max-new-names-per-minute 0
       --idle-timeout 0 --name-timeout 0 --dictionaries Dictionaries --max-games-per-network 0
       --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 --io-threads "$io" --web-port off
       --lease-seconds "$lease")
echo "== ghostd flags: ${flags[*]} --store URL --node-name NAME"

# --- takeover -----------------------------------------------------------------
if [[ " $parts " == *" takeover "* ]]; then
    createdb_ bench_takeover
    python3 - "$ghostd" "$bench" "$data" "$(unix_url bench_takeover)" "$lease" "$rounds" "$tconns" "${flags[@]}" <<'EOF'
import atexit, datetime, os, random, re, signal, socket, statistics, subprocess, sys, time
ghostd, bench, data, url, lease, rounds, conns = sys.argv[1:8]
flags = sys.argv[8:]
rounds, conns, lease = int(rounds), int(conns), float(lease)
names = ["node1", "node2", "node3"]
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
ports = {n: free_port() for n in names}
logs = {n: f"{data}/takeover-{n}.log" for n in names}
procs = {}
children = []
def stop_all():
    for p in children:
        if p.poll() is None:
            p.terminate()
    for p in children:
        try: p.wait(timeout=10)
        except subprocess.TimeoutExpired: p.kill(); p.wait()
atexit.register(stop_all)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

def start(n):
    os.makedirs(f"{data}/takeover-{n}", exist_ok=True)
    with open(logs[n], "ab") as f:
        p = subprocess.Popen([ghostd, "--port", str(ports[n]), "--data", f"{data}/takeover-{n}", "--store", url,
                              "--node-name", n] + flags, stdout=subprocess.DEVNULL, stderr=f)
    procs[n] = p; children.append(p)

sys.path.insert(0, "scripts")
import node_logs
size, text, wait_line = node_logs.helpers(logs, procs, 60)
def stamp(line):   # 2026-11-22T03:04:05.678Z at the start of a log line
    return datetime.datetime.strptime(line[:23], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()

start("node1"); wait_line("node1", 0, " listening on ")
for n in names[1:]:
    start(n); wait_line(n, 0, "standby: node")
leader = "node1"
print(f"== takeover: {names[0]} leads, {names[1]} and {names[2]} stand by; --lease-seconds {lease:g}; "
      f"`ghost-bench play --connections {conns}` on the leader, the leader stopped 2 s + a random 0-{lease/3:g} s after it starts; "
      f"the standbys' logs polled every 10 ms")
results = []
for i in range(1, rounds + 1):
    for how in (["kill", "term"] if i % 2 else ["term", "kill"]):
        old = leader
        standbys = [n for n in names if n != old]
        load = subprocess.Popen([bench, "play", "--port", str(ports[old]), "--connections", str(conns),
                                 "--seconds", "3", "--warmup", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        children.append(load)
        # A random moment in the leader's renewal cycle (it renews every third
        # of the lease): a fixed delay would kill it at much the same phase each time.
        time.sleep(2 + random.uniform(0, lease / 3))
        offsets = {n: size(n) for n in standbys}
        wall = time.time(); t0 = time.perf_counter()
        os.kill(procs[old].pid, signal.SIGKILL if how == "kill" else signal.SIGTERM)
        new = None; exited = None
        while time.perf_counter() - t0 < 30:
            if exited is None and procs[old].poll() is not None:
                exited = time.perf_counter() - t0
            for n in standbys:
                if " listening on " in text(n, offsets[n]):
                    new = n; break
            if new: break
            time.sleep(0.01)
        took = time.perf_counter() - t0
        if not new:
            sys.exit(f"round {i} {how}: no takeover in 30 s:\n" + "\n".join(text(n, offsets[n]) for n in standbys))
        status = procs[old].wait(timeout=30)
        if exited is None: exited = time.perf_counter() - t0
        lines = text(new, offsets[new]).splitlines()
        leads = next(l for l in lines if "this node leads now" in l)
        listening = next(l for l in lines if " listening on " in l)
        epoch = re.search(r"epoch (\d+)", leads).group(1)
        lapse = stamp(leads) - wall
        startup = stamp(listening) - stamp(leads)
        out = load.communicate(timeout=60)[0].strip().splitlines()
        out = out[-1] if out else "(no output)"
        print(f"round {i} {'kill -9' if how == 'kill' else 'SIGTERM'}: {old} -> {new} (epoch {epoch}): "
              f"{took*1000:.0f} ms to `listening on` (polled); by the log: {lapse*1000:.0f} ms to `leads now`, "
              f"{startup*1000:.0f} ms from there to `listening on`; "
              f"old leader gone after {exited*1000:.0f} ms (status {status}); load: {out}")
        results.append((how, took, lapse, startup))
        # The old node back, as a standby (its folder's lease is gone: another folder holds it).
        off = size(old)
        start(old); wait_line(old, off, "standby: node")
        leader = new
        time.sleep(1)

med = statistics.median
starts = [r[3] for r in results]
print(f"== takeover summary: {rounds} rounds; ms, median / max [each round]")
for how, label in (("kill", "kill -9"), ("term", "SIGTERM")):
    r = [x for x in results if x[0] == how]
    for k, what in ((1, "signal to `listening on` (polled)"), (2, "  signal to `leads now` (log)"), (3, "  `leads now` to `listening on` (log)")):
        v = [x[k] * 1000 for x in r]
        print(f"  {label:8} {what:38} {med(v):6.0f} / {max(v):6.0f}  [{', '.join(f'{x:.0f}' for x in v)}]")
print(f"  the bound after kill -9: --lease-seconds {lease:g} + the standby's poll 0.2 s + the start "
      f"(median {med(starts)*1000:.0f} ms, max {max(starts)*1000:.0f} ms here) = {lease + 0.2 + max(starts):.2f} s; "
      f"the leader renews every {lease/3:g} s, so its lease outlives the kill by {lease*2/3:g}-{lease:g} s")
print(f"  the bound after SIGTERM: the poll 0.2 s + the start = {0.2 + max(starts):.2f} s")
EOF
fi

# --- nodes and rtt --------------------------------------------------------------
if [[ " $parts " == *" nodes "* || " $parts " == *" rtt "* || " $parts " == *" relay "* || " $parts " == *" spread "* ]]; then
    createdb_ bench_nodes
    declare -A npid nport nborn
    for n in lead s1 s2; do nport[$n]=$(port); mkdir -p "$data/$n"; : >"$data/$n.log"; npid[$n]=; done
    start_node() {
        local n=$1 from
        from=$(( $(wc -l <"$data/$n.log") + 1 ))
        $ghostd --port "${nport[$n]}" --data "$data/$n" --store "$(unix_url bench_nodes)" --node-name "$n" "${flags[@]}" 2>>"$data/$n.log" &
        npid[$n]=$!; pids+=($!); nborn[$n]=$(date +%s.%N)
        for _ in $(seq 600); do
            tail -n +"$from" "$data/$n.log" | grep -q "$2" && return 0
            kill -0 "${npid[$n]}" 2>/dev/null || break
            sleep 0.1
        done
        echo "ghostd $n: no \`$2\` line:"; tail -n +"$from" "$data/$n.log"; exit 1
    }
    stop_node() {
        local n=$1 c
        c=$(cpu "${npid[$n]}")
        echo "   ($n stopped: $c s of CPU in $(python3 -c "import time; print(f'{time.time()-${nborn[$n]}:.0f}')") s standing by)"
        kill "${npid[$n]}"; wait "${npid[$n]}" 2>/dev/null || true
        npid[$n]=
    }
    standbys() {   # exactly $1 standbys running: s1, then s2
        local want=$1 j
        for j in 1 2; do
            # Ready once it carries players to the leader (the line after `standby: node`).
            if (( j <= want )) && [ -z "${npid[s$j]}" ]; then start_node "s$j" "are carried to node"; fi
            if (( j > want )) && [ -n "${npid[s$j]}" ]; then stop_node "s$j"; fi
        done
    }
    scpu() { if [ -n "${npid[$1]}" ]; then cpu "${npid[$1]}"; else echo -; fi; }
    dcpu() { if [ "$1" = - ] || [ "$2" = - ]; then echo -; else sub_ "$2" "$1"; fi; }
    start_node lead " listening on "
    results=$data/results
    # --- relay and spread: the same rounds, the order rotating -------------------
    if [[ " $parts " == *" relay "* || " $parts " == *" spread "* ]]; then
        spread=$data/spread-results
        # A setting: name, standbys running, the ports the connections go to
        # (L the leader's, 1 and 2 the standbys'), connections.
        relay_set=("both-on-leader 1 L,L 2" "leader+standby 1 L,1 2" "both-on-standby 1 1,1 2")
        spread_set=("1-node 0 L 1000" "2-nodes 1 L,1 1000" "3-nodes 2 L,1,2 1000" "3-nodes-leader-port 2 L 1000")
        [[ " $parts " == *" relay "* ]] || relay_set=()
        [[ " $parts " == *" spread "* ]] || spread_set=()
        TIMEFORMAT='%3U %3S'   # `time`: ghost-bench's CPU seconds, user and system
        ports_of() {   # L,1,2 -> the leader's, s1's and s2's ports
            local t out=()
            IFS=, read -ra ts <<<"$1"
            for t in "${ts[@]}"; do
                case $t in L) out+=("${nport[lead]}") ;; 1) out+=("${nport[s1]}") ;; 2) out+=("${nport[s2]}") ;; esac
            done
            (IFS=,; echo "${out[*]}")
        }
        for i in $(seq "$rounds"); do
            for set in "${relay_set[@]}" "${spread_set[@]}"; do
                read -r name k spec n <<<"$set"
                standbys "$k"
                list=$(ports_of "$spec")
                g0=$(psql_ -d bench_nodes -c 'SELECT coalesce(max(id), 0) FROM games')
                c0=$(cpu "${npid[lead]}"); q0=$(pgcpu); a0=$(scpu s1); b0=$(scpu s2)
                { time $bench play --port "$list" --connections "$n" --seconds "$secs" >"$data/out" 2>&1; } 2>"$data/time"
                c1=$(cpu "${npid[lead]}"); q1=$(pgcpu); a1=$(scpu s1); b1=$(scpu s2)
                gc=$(awk '{printf "%.2f", $1 + $2}' "$data/time")
                lc=$(sub_ "$c1" "$c0"); pc=$(sub_ "$q1" "$q0"); ac=$(dcpu "$a0" "$a1"); bc=$(dcpu "$b0" "$b1")
                # The games this run began, and how many had their players on two
                # nodes: connection i (named b<i>x<pid>) entered at port i mod (ports).
                k=$(awk -F, '{print NF}' <<<"$spec")
                entry() { echo "split_part('$spec', ',', substring($1 from '^b([0-9]+)x')::int % $k + 1)"; }
                mixed=$(psql_ -d bench_nodes -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE $(entry player0) <> $(entry player1))
                    FROM games WHERE id > $g0 AND player0 ~ '^b[0-9]+x' AND player1 ~ '^b[0-9]+x'")
                out="$(tail -n 1 "$data/out"); games begun $(cut -d' ' -f1 <<<"$mixed"), with a player on each of two nodes $(cut -d' ' -f2 <<<"$mixed")"
                echo "round $i $name ($n connections, ports $spec): $out; CPU s: leader $lc, standbys $ac $bc, ghost-bench $gc, postgres $pc"
                echo "$i $name $lc $pc $ac $bc $gc $out" >>"$spread"
            done
            # Rotate each list: every setting goes first once in as many rounds as there are settings.
            if (( ${#relay_set[@]} )); then relay_set=("${relay_set[@]:1}" "${relay_set[0]}"); fi
            if (( ${#spread_set[@]} )); then spread_set=("${spread_set[@]:1}" "${spread_set[0]}"); fi
        done
        python3 - "$spread" "$secs" <<'EOF'
import re, statistics, sys
secs = float(sys.argv[2])
med = statistics.median
runs, rounds = {}, {}
for line in open(sys.argv[1]):
    i, name, lc, pc, ac, bc, gc, rest = line.split(' ', 7)
    m = re.search(r's: (\d+) .*p50 (\d+) p99 (\d+)', rest)
    if not m:
        print(f"  (round {i} {name}: no letters, left out: {rest.strip()})")
        continue
    sb = [float(x) for x in (ac, bc) if x != '-']
    mixed = re.search(r'games begun (\d+), with a player on each of two nodes (\d+)', rest)
    runs.setdefault(name, []).append((float(m.group(1)), float(m.group(2)), float(m.group(3)), float(lc), float(pc), float(gc), sb,
                                      (int(mixed.group(1)), int(mixed.group(2))) if mixed else (0, 0)))
    rounds.setdefault(name, []).append(i)
def cpus(r):
    out = f"leader {med(x[3] for x in r):.2f}"
    for j in range(len(r[0][6])):
        out += f", standby {j + 1} {med(x[6][j] for x in r):.2f}"
    return out + f", ghost-bench {med(x[5] for x in r):.2f}, postgres {med(x[4] for x in r):.2f}"
def table(names, title, anchor, key, unit):
    names = [n for n in names if n in runs]
    if not names: return
    print(title)
    for n in names:
        r = runs[n]
        base = dict(zip(rounds[anchor], runs[anchor]))
        ratio = [a[key] / base[j][key] for j, a in zip(rounds[n], r) if j in base and base[j][key]]
        if not ratio: ratio = [float('nan')]
        games, mixed = sum(x[7][0] for x in r), sum(x[7][1] for x in r)
        print(f"  {n:20} {med(x[0] for x in r):6.0f} letters/s  p50 {med(x[1] for x in r):6.0f} µs  p99 {med(x[2] for x in r):6.0f} µs"
              f"  [{unit} {', '.join(f'{x[key]:.0f}' for x in r)}]  / {anchor}: {med(ratio):.2f} [{' '.join(f'{x:.2f}' for x in ratio)}]"
              f"  CPU s a run: {cpus(r)}  games begun {games}, {mixed} of them across two nodes")
table(["both-on-leader", "leader+standby", "both-on-standby"],
      f"== relay: a leader and a standby, one game (--connections 2), a letter's round trip; medians of the rounds, each round's p50 in brackets, the p50's ratio per round; CPU seconds a {secs:g} s run (ghost-bench: its whole run, 1 s of warm-up and the connecting too)",
      "both-on-leader", 1, "p50")
table(["1-node", "2-nodes", "3-nodes", "3-nodes-leader-port"],
      f"== spread: 1,000 connections spread evenly over every node's port (3-nodes-leader-port: all on the leader's), durable letters/s; medians of the rounds, each round's figure in brackets, the ratio per round; CPU seconds a {secs:g} s run",
      "1-node", 0, "letters/s")
EOF
        standbys 0
    fi
    order=(0 1 2)
    for i in $(seq "$rounds"); do
        [[ " $parts " == *" nodes "* || " $parts " == *" rtt "* ]] || break
        for k in "${order[@]}"; do
            [[ " $parts " != *" nodes "* ]] && [ "$k" = 1 ] && continue
            standbys "$k"
            for part in nodes rtt quiet; do
                [[ " $parts " == *" ${part/quiet/rtt} "* ]] || continue
                [ "$part" != nodes ] && [ "$k" = 1 ] && continue
                conns=1000; [ "$part" = rtt ] && conns=2
                c0=$(cpu "${npid[lead]}"); q0=$(pgcpu); a0=$(scpu s1); b0=$(scpu s2)
                if [ "$part" = quiet ]; then   # no player at all: what the nodes cost at rest
                    sleep "$secs"; out="quiet, $secs s: 0 letters/s; p50 0 p99 0"
                else
                    out=$($bench play --port "${nport[lead]}" --connections "$conns" --seconds "$secs")
                fi
                c1=$(cpu "${npid[lead]}"); q1=$(pgcpu); a1=$(scpu s1); b1=$(scpu s2)
                lc=$(sub_ "$c1" "$c0"); pc=$(sub_ "$q1" "$q0"); ac=$(dcpu "$a0" "$a1"); bc=$(dcpu "$b0" "$b1")
                echo "round $i $part, $k standby(s): $out; leader CPU $lc s, standbys $ac $bc s, postgres CPU $pc s"
                echo "$i $part $k $lc $pc $ac $bc $out" >>"$results"
            done
        done
        order=("${order[@]:1}" "${order[0]}")   # rotate: each setting goes first once in three rounds
    done
    standbys 0
    [ -f "$results" ] && python3 - "${nport[lead]}" <<'EOF' || true
import socket, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
s.sendall(b'STATS\r\n'); time.sleep(0.5)
d = {}
for l in s.recv(65536).decode().splitlines():
    if l.startswith('STAT '):
        f = dict(x.split('=', 1) for x in l.split()[1:])
        d[f['name']] = f['value']
print(f"leader's STATS over the whole run: {d['commits']} commits, {d['moves']} moves, {d['games_finished']} games finished;"
      f" last 1,024 commits: p50 {d['commit_p50_us']} µs, p99 {d['commit_p99_us']} µs")
EOF
    kill "${npid[lead]}" 2>/dev/null || true
    wait "${npid[lead]}" 2>/dev/null || true
    if [ -f "$results" ]; then python3 - "$results" "$secs" <<'EOF'
import re, statistics, sys
runs = {}
secs = float(sys.argv[2])
for line in open(sys.argv[1]):
    i, part, k, lc, pc, ac, bc, rest = line.split(' ', 7)
    rate = float(re.search(r's: (\d+) ', rest).group(1))
    p50 = float(re.search(r'p50 (\d+)', rest).group(1))
    p99 = float(re.search(r'p99 (\d+)', rest).group(1))
    sb = [float(x) for x in (ac, bc) if x != '-']
    runs.setdefault(part, {}).setdefault(int(k), []).append((rate, p50, p99, float(lc), float(pc), sb))
med = statistics.median
def sbtext(r):
    if not r[0][5]: return "no standby"
    per = [med(x[5][j] for x in r) for j in range(len(r[0][5]))]
    return "standby CPU " + " and ".join(f"{x:.2f}" for x in per) + " s [" + "; ".join(" ".join(f"{v:.2f}" for v in x[5]) for x in r) + "]"
label = {0: 'the leader alone', 1: 'leader + 1 standby', 2: 'leader + 2 standbys'}
if 'nodes' in runs:
    by = runs['nodes']
    print(f"== nodes: 1,000 connections on the leader, durable letters/s (median of the rounds; each round's figure in brackets); CPU seconds a {secs:g} s run")
    for k in sorted(by):
        r = by[k]
        print(f"  {label[k]:20} {med(x[0] for x in r):7.0f}/s [{', '.join(f'{x[0]:.0f}' for x in r)}]"
              f"  p50 {med(x[1] for x in r)/1000:.1f} ms  p99 {med(x[2] for x in r)/1000:.1f} ms"
              f"  leader CPU {med(x[3] for x in r):.2f} s  postgres CPU {med(x[4] for x in r):.2f} s  {sbtext(r)}")
    for k in sorted(by):
        if k == 0: continue
        ratio = [a[0] / b[0] for a, b in zip(by[k], by[0])]
        print(f"  {label[k]} / alone, per round: {' '.join(f'{x:.2f}' for x in ratio)}  (median {med(ratio):.2f})")
if 'quiet' in runs:
    by = runs['quiet']
    print(f"== quiet: no player connected, {secs:g} s (median of the rounds; each round in brackets): what the nodes cost at rest")
    for k in sorted(by):
        r = by[k]
        print(f"  {label[k]:20} leader CPU {med(x[3] for x in r):.2f} s [{', '.join(f'{x[3]:.2f}' for x in r)}]"
              f"  postgres CPU {med(x[4] for x in r):.2f} s [{', '.join(f'{x[4]:.2f}' for x in r)}]  {sbtext(r)}")
if 'rtt' in runs:
    by = runs['rtt']
    print(f"== rtt: one game between two connections on the leader, a letter's round trip (median of the rounds); CPU seconds a {secs:g} s run")
    for k in sorted(by):
        r = by[k]
        print(f"  {label[k]:20} p50 {med(x[1] for x in r):6.0f} µs  p99 {med(x[2] for x in r):6.0f} µs"
              f"  [p50 {', '.join(f'{x[1]:.0f}' for x in r)}; p99 {', '.join(f'{x[2]:.0f}' for x in r)}]  {med(x[0] for x in r):.0f} letters/s"
              f"  leader CPU {med(x[3] for x in r):.2f} s  postgres CPU {med(x[4] for x in r):.2f} s  {sbtext(r)}")
    if 0 in by and 2 in by:
        ratio = [a[1] / b[1] for a, b in zip(by[2], by[0])]
        print(f"  p50 with 2 standbys / alone, per round: {' '.join(f'{x:.2f}' for x in ratio)}  (median {med(ratio):.2f})")
EOF
    fi
fi
