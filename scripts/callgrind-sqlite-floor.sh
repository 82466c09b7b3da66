#!/bin/sh
# SQLite's own instructions for one durable letter, without ghostd (issue
# #29): scripts/sqlite-floor.c run under callgrind for N and 2N letters; the
# difference over N is the cost of one letter's transaction (the start-up
# cancels out). Prints it with and without the per-command SAVEPOINT.
#
#   scripts/callgrind-sqlite-floor.sh [N]        (default 1000)
set -eu
n=${1:-1000}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/sqlite-floor" scripts/sqlite-floor.c -lsqlite3
count() {   # letters savepoint
    rm -f "$work"/floor.db*
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/sqlite-floor" "$1" "$2" "$work" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ,
}
for sp in 1 0; do
    a=$(count "$n" "$sp"); b=$(count $((2 * n)) "$sp")
    label=$([ "$sp" = 1 ] && echo "BEGIN, SAVEPOINT, INSERT, RELEASE, COMMIT" || echo "BEGIN, INSERT, COMMIT")
    echo "sqlite floor, one letter's transaction ($label): $(( (b - a) / n )) instructions"
done
