# PostgreSQL 15 of the benchmark's own (sourced by bench-postgres.sh and
# bench-cluster.sh after bench-lib.sh, with $pgbin set): a cluster in a
# temporary folder (as the postgres user when run as root), fsync and
# synchronous commit on, its unix socket in the folder and TCP on
# 127.0.0.1; removed at exit (KEEP=1 keeps ghostd's logs and postgres.log in
# $data). Gives psql_, createdb_, unix_url, tcp_url, cpu, pgcpu, sub_ and
# $pids (processes killed at exit).
pg=$(mktemp -d /tmp/ghostd-pgbench-XXXXXX)
data=$(mktemp -d /tmp/ghostd-bench-XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -f "$pg/data/postmaster.pid" ] && as_pg "$pgbin/pg_ctl" -D "$pg/data" -m fast -w stop >/dev/null 2>&1 || true
    if [ -n "${KEEP:-}" ]; then
        cp "$pg/log" "$data/postgres.log" 2>/dev/null || true
        echo "== kept $data (ghostd's logs, postgres.log)"
        rm -rf "$pg"
    else
        rm -rf "$pg" "$data"
    fi
}
trap cleanup EXIT
if [ "$(id -u)" = 0 ]; then
    as_pg() { runuser -u postgres -- "$@"; }
    chown postgres: "$pg"
else
    as_pg() { "$@"; }
fi
chmod 755 "$pg"
as_pg mkdir -m 700 "$pg/data"
as_pg mkdir -m 755 "$pg/socket"
pgport=$(port)
as_pg env LC_ALL=C "$pgbin/initdb" -D "$pg/data" -A trust -U ghost --no-sync -E UTF8 --locale=C >/dev/null
as_pg env LC_ALL=C "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -t 120 \
    -o "-k $pg/socket -p $pgport -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c shared_buffers=128MB -c max_connections=50" \
    start >/dev/null
psql_() { as_pg "$pgbin/psql" -X -A -t -q -v ON_ERROR_STOP=1 -h "$pg/socket" -p "$pgport" -U ghost "$@"; }
createdb_() { as_pg "$pgbin/createdb" -h "$pg/socket" -p "$pgport" -U ghost "$1"; }
unix_url() { echo "postgresql://ghost@/$1?host=$pg/socket&port=$pgport"; }
tcp_url() { echo "postgresql://ghost@127.0.0.1:$pgport/$1"; }
postmaster=$(head -n 1 "$pg/data/postmaster.pid")

# CPU seconds (user + system, all threads) of a process; of the cluster: the
# postmaster with the children it reaped, and its live children.
cpu() { awk '{printf "%.2f", ($14+$15)/100}' "/proc/$1/stat"; }
pgcpu() {
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v pm="$postmaster" '
        { pid = $1; rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
          # f[1] is field 3 (state): field n is f[n-2]
          if (f[2] == pm) t += f[12] + f[13]
          if (pid == pm) t += f[12] + f[13] + f[14] + f[15] }
        END { printf "%.2f", t / 100 }'
}
sub_() { python3 -c "print(f'{$1-$2:.2f}')"; }
