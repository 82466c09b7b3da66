#!/usr/bin/env bash
# Solves the whole game for each word list with ghost-bench (Swift, release
# build) and with a plain memoised Python solver, in the same run, and prints
# the ratio. Also plays the computer levels against each other.
#   scripts/bench-solver.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
swift build -c release --product ghost-bench >/dev/null 2>&1
swift_out=$(.build/release/ghost-bench solve --runs "$runs")
echo "$swift_out"
for list in Dictionaries/*.txt; do
    lang=$(basename "$list" .txt)
    case "$lang" in [a-z][a-z]|[a-z][a-z][a-z]) ;; *) continue ;; esac
    py_out=$(python3 scripts/solve.py "$list" --runs 1)
    echo "$py_out"
    swift_ms=$(echo "$swift_out" | sed -n "s/^solve $lang: .*best of [0-9]*: \([0-9.]*\) ms.*/\1/p")
    py_ms=$(echo "$py_out" | sed -n 's/.*best of [0-9]*: \([0-9.]*\) ms.*/\1/p')
    python3 -c "print(f'ratio $lang: Python {float($py_ms):.0f} ms / Swift {float($swift_ms):.1f} ms = {float($py_ms)/float($swift_ms):.0f}x faster')"
done
.build/release/ghost-bench bots --games 1000
