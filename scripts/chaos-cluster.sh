#!/usr/bin/env bash
# The long chaos run of issue #49 (Tests/GhostServerTests/CrashClusterUnderLoadTests.swift
# is the short one): three ghostd nodes on one PostgreSQL behind a real HAProxy
# (contrib/haproxy.cfg, adapted as Tests/TestSupport/HAProxy.swift does: the
# global section's chroot, user, group, daemon, log and stats socket lines
# replaced by a stats socket of its own, the plain frontend on a free loopback
# port, its backend's server lines the three nodes; the TLS and web frontends
# left out), `ghost-bench play --connections N --record FILE` flat out
# through HAProxy, started again (a new record file) each time it ends because
# its server went; and every INTERVAL seconds one failure, at random:
#   kill     the leader killed -9;
#   freeze   the leader stopped (SIGSTOP) until another node leads, past its
#            lease, then woken (SIGCONT): it finds its lease gone and exits 4;
#   restart  a rolling restart round: each node in turn stopped cleanly
#            (SIGTERM; the leader hands over) and started again.
# A node that failed comes back as a standby before the next failure. Each
# takeover is timed from the signal to the new leader's `listening on` (its
# log polled every 10 ms). At the end every node is killed -9 (the last runs
# end and write their records) and every acknowledged letter of every record
# (`<game id> <ply> <letter>`, ghost-bench's --record) is looked up in
# PostgreSQL's moves table, as CrashUnderLoadTests.notStored does. The last
# line says `acknowledged moves lost: 0`, or the count (then it exits 1; it
# also exits 1 when a node ended otherwise than its signal asks).
# PostgreSQL 15 in a temporary folder (scripts/bench-pg-lib.sh: fsync on).
#   scripts/chaos-cluster.sh [minutes, 10]
#   INTERVAL=15 (seconds of load between failures)  CONNECTIONS=200
#   LEASE=3 (--lease-seconds)  SEED=(random; printed)  KEEP=1 keeps the logs
#   KINDS="kill freeze restart" (the failures drawn from)
#   BALANCE=first (contrib's; roundrobin spreads the players over the nodes,
#   most of them then carried by a standby's relay to the leader)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
pgbin=${PG_BIN:-/usr/lib/postgresql/15/bin}
ulimit -n "$(ulimit -Hn)"
source scripts/bench-lib.sh
build_new
bench=.build/release/ghost-bench
ghostd=.build/release/ghostd
haproxy=${HAPROXY_BIN:-$(command -v haproxy || echo /usr/sbin/haproxy)}
[ -x "$haproxy" ] || { echo "chaos-cluster: no haproxy (apt-get install haproxy, or set HAPROXY_BIN)"; exit 1; }
source scripts/bench-pg-lib.sh
createdb_ chaos
echo "== ghostd $(git rev-parse --short HEAD), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$pgbin/postgres" --version); $("$haproxy" -v | head -n 1)"

flags=(--max-clients 20000 --max-clients-per-ip 0 --max-commands-per-second 0 --max-new-names-per-minute 0
       --idle-timeout 0 --name-timeout 0 --dictionaries Dictionaries --max-games-per-network 0
       --max-unnamed 0 --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 --web-port off
       --trusted-proxy 127.0.0.1 --lease-seconds "${LEASE:-3}")
set +e
python3 - "$ghostd" "$bench" "$haproxy" "$data" "$(unix_url chaos)" "$minutes" "${INTERVAL:-15}" "${CONNECTIONS:-200}" \
    "${LEASE:-3}" "${SEED:-}" "${KINDS:-kill freeze restart}" "${flags[@]}" <<'EOF'
import atexit, collections, os, random, signal, socket, statistics, subprocess, sys, threading, time
ghostd, bench, haproxy, data, url, minutes, interval, conns, lease, seed, kinds = sys.argv[1:12]
flags, kinds = sys.argv[12:], kinds.split()
minutes, interval, conns, lease = float(minutes), float(interval), int(conns), float(lease)
seed = int(seed) if seed else random.randrange(1 << 32)
rng = random.Random(seed)
names = ["node1", "node2", "node3"]
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
ports = {n: free_port() for n in names}
logs = {n: f"{data}/{n}.log" for n in names}
procs, children, problems = {}, [], []
def stop_all():
    for p in children:
        if p.poll() is None: p.kill()
    for p in children: p.wait()
atexit.register(stop_all)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
def say(text): print(time.strftime("%H:%M:%S ") + text, flush=True)

# --- the nodes ------------------------------------------------------------------
def start(n):
    os.makedirs(f"{data}/{n}", exist_ok=True)
    with open(logs[n], "ab") as f:
        p = subprocess.Popen([ghostd, "--port", str(ports[n]), "--data", f"{data}/{n}", "--store", url, "--node-name", n] + flags,
                             stdout=subprocess.DEVNULL, stderr=f)
    procs[n] = p; children.append(p)
sys.path.insert(0, "scripts")
import node_logs
size, text, wait_line = node_logs.helpers(logs, procs, 90)
def restart_standby(n):
    off = size(n); start(n); wait_line(n, off, "standby: node")
def expect_exit(n, status, what):
    got = procs[n].wait(timeout=90)
    if got != status:
        problems.append(f"{what}: {n} ended with {got}, not {status}")
        say(f"!! {problems[-1]}:\n" + text(n, max(0, size(n) - 2000)))

# --- HAProxy, from contrib/haproxy.cfg ---------------------------------------------
front = free_port()
stats_sock = f"{data}/haproxy.sock"
def configuration():
    out, section, placed, skip = [], "", False, False
    for line in open("contrib/haproxy.cfg").read().split("\n"):
        w = line.split()
        if line[:1] not in ("", " ", "\t", "#") and w:
            section, placed = w[0], False
            skip = section in ("frontend", "backend") and w[1] != "ghostd"   # the TLS and web ports: not served here
            if not skip: out.append(line)
            if section == "global":
                out += [f"    stats socket {stats_sock} mode 600 level admin", "    log stdout format raw local0 info"]
            continue
        if skip: continue
        if section == "global" and w and (w[0] in ("chroot", "user", "group", "daemon", "pidfile", "log") or w[:2] == ["stats", "socket"]):
            continue
        if section == "backend" and w[:1] == ["balance"]:
            out.append(f"    balance {os.environ.get('BALANCE', 'first')}"); continue
        if section == "frontend" and w[:1] == ["bind"]:
            out.append(f"    bind 127.0.0.1:{front}"); continue
        if section == "backend" and w[:1] == ["server"]:
            if not placed:
                placed = True
                out += [" ".join(["    server", n, f"127.0.0.1:{ports[n]}"] + w[3:]) for n in names]
            continue
        out.append(line)
    return "\n".join(out).rstrip("\n") + "\n"
def server_states():
    try:
        s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(stats_sock)
        s.sendall(b"show stat\n"); got = b""
        while chunk := s.recv(65536): got += chunk
        s.close()
    except OSError:
        return {}
    rows = [l.split(",") for l in got.decode().splitlines() if l and not l.startswith("#")]
    return {r[1]: r[17] for r in rows if len(r) > 17 and r[0] == "ghostd" and r[1] in names}

# --- the load: ghost-bench through HAProxy, again each time it ends -------------------
runs, running, stopping = [], [None], threading.Event()
def load():
    while not stopping.is_set():
        if not any(s.startswith("UP") for s in server_states().values()):
            time.sleep(0.1); continue
        record = f"{data}/run{len(runs)}.txt"
        p = subprocess.Popen([bench, "play", "--port", str(front), "--connections", str(conns), "--seconds", "86400",
                              "--warmup", "0", "--bad-share", "0", "--record", record],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        running[0] = p; runs.append(record)
        out = p.communicate()[0].strip().splitlines()
        if p.returncode != 0:
            problems.append(f"ghost-bench run {len(runs)} ended with {p.returncode}: {out[-1:] }")
        time.sleep(0.2)

start("node1"); wait_line("node1", 0, " listening on ")
for n in names[1:]: start(n); wait_line(n, 0, "standby: node")
with open(f"{data}/haproxy.cfg", "w") as f: f.write(configuration())
with open(f"{data}/haproxy.log", "ab") as f:
    hap = subprocess.Popen([haproxy, "-db", "-f", f"{data}/haproxy.cfg"], stdout=f, stderr=subprocess.STDOUT)
children.append(hap)
for _ in range(200):
    if os.path.exists(stats_sock) and server_states(): break
    time.sleep(0.05)
else:
    sys.exit("haproxy did not start:\n" + open(f"{data}/haproxy.log").read())
leader = "node1"
say(f"chaos: {minutes:g} min, seed {seed}; node1 leads, node2 and node3 stand by (--lease-seconds {lease:g}); HAProxy on 127.0.0.1:{front}; "
    f"ghost-bench play --connections {conns} --record through it; a failure every {interval:g} s of load")
loader = threading.Thread(target=load, daemon=True); loader.start()

# --- the failures ------------------------------------------------------------------
takeovers = []   # (kind, old, new, seconds from the signal to `listening on`)
def await_takeover(kind, old, sig_at, offsets):
    global leader
    while time.perf_counter() - sig_at < 60:
        for n in offsets:
            if " listening on " in text(n, offsets[n]):
                took = time.perf_counter() - sig_at
                takeovers.append((kind, old, n, took)); leader = n
                say(f"  {kind}: {old} -> {n} in {took*1000:.0f} ms (signal to `listening on`)")
                return
        time.sleep(0.01)
    sys.exit(f"{kind}: no node took over from {old} in 60 s")
def signal_leader(kind, sig):
    old = leader
    offsets = {n: size(n) for n in names if n != old}
    t0 = time.perf_counter()
    os.kill(procs[old].pid, sig)
    await_takeover(kind, old, t0, offsets)
    return old

injected = collections.Counter()
deadline = time.monotonic() + minutes * 60
while time.monotonic() + interval < deadline:
    time.sleep(interval)
    kind = rng.choice(kinds)
    injected[kind] += 1
    say(f"failure {sum(injected.values())}: {kind} (leader {leader})")
    if kind == "kill":
        old = signal_leader("kill -9", signal.SIGKILL)
        expect_exit(old, -signal.SIGKILL, "kill -9")
        restart_standby(old)
    elif kind == "freeze":
        old = signal_leader("SIGSTOP", signal.SIGSTOP)
        os.kill(procs[old].pid, signal.SIGCONT)
        expect_exit(old, 4, "SIGSTOP past the lease, then SIGCONT")
        restart_standby(old)
    else:
        for n in names:
            if n == leader:
                signal_leader("SIGTERM", signal.SIGTERM)
            else:
                os.kill(procs[n].pid, signal.SIGTERM)
            expect_exit(n, 0, "SIGTERM")
            restart_standby(n)
            time.sleep(2)

# --- the end: every node killed, the last run's record written, the check ---------------
stopping.set()
for n in names: procs[n].kill()
for n in names: procs[n].wait()
loader.join(timeout=120)
if loader.is_alive():
    problems.append("the last ghost-bench run did not end once the nodes were gone")
    if running[0]: running[0].kill()
    loader.join()
records = [r for r in runs if os.path.exists(r)]
acked = sum(sum(1 for _ in open(r)) for r in records)
with open(f"{data}/acknowledged.txt", "w") as out:
    for r in records: out.write(open(r).read())
med = statistics.median
say(f"== chaos summary: {minutes:g} min, seed {seed}; failures injected: "
    + ", ".join(f"{injected[k]} {k}" for k in ("kill", "freeze", "restart")) + f" ({sum(injected.values())})")
by = collections.defaultdict(list)
for kind, _, _, took in takeovers: by[kind].append(took * 1000)
say(f"  takeovers: {len(takeovers)}; ms from the signal to the new leader's `listening on`, median / max [each]:")
for kind, v in by.items():
    say(f"    {kind:8} {len(v):3} takeovers  {med(v):6.0f} / {max(v):6.0f}  [{', '.join(f'{x:.0f}' for x in v)}]")
say(f"  ghost-bench runs: {len(runs)}, {len(records)} records written, {sum(1 for r in records if os.path.getsize(r) > 0)} with letters; "
    f"acknowledged letters: {acked}")
for p in problems: say(f"  problem: {p}")
sys.exit(3 if problems else 0)
EOF
status=$?
set -e
# Every acknowledged letter in PostgreSQL: its game, round 1 (a Ghost game of
# `play` has one), its ply, the same letter.
if [ -f "$data/acknowledged.txt" ]; then
    psql_ -d chaos -c "CREATE TABLE chaos_acked (game bigint, ply bigint, letter text)"
    psql_ -d chaos -c "\copy chaos_acked FROM STDIN WITH (DELIMITER ' ')" <"$data/acknowledged.txt"
    lost=$(psql_ -d chaos -c "SELECT count(*) FROM chaos_acked a LEFT JOIN moves m ON m.game_id = a.game AND m.round = 1 AND m.ply = a.ply
                              WHERE m.move IS DISTINCT FROM a.letter")
    echo "  in PostgreSQL: $(psql_ -d chaos -c 'SELECT count(*) FROM moves') moves, $(psql_ -d chaos -c 'SELECT count(*) FROM games') games"
    if [ "$lost" != 0 ]; then
        echo "  e.g.: $(psql_ -d chaos -c "SELECT a.game || ' ' || a.ply || ' ' || a.letter FROM chaos_acked a LEFT JOIN moves m
              ON m.game_id = a.game AND m.round = 1 AND m.ply = a.ply WHERE m.move IS DISTINCT FROM a.letter LIMIT 5" | tr '\n' ';')"
    fi
    echo "acknowledged moves lost: $lost"
    [ "$lost" = 0 ] || exit 1
else
    echo "acknowledged moves lost: unknown (no records)"
    exit 1
fi
[ "$status" = 0 ] || { echo "chaos-cluster: the run had problems (above)"; exit 1; }
