#!/usr/bin/env bash
# Logins per second, with a probe's PING round trips during the login flood,
# against the probe alone in the same run, alternating; and a wrong-password
# flood from one address (scripts/bench-logins.py says what is measured).
#   scripts/bench-logins.sh [rounds] [seconds per phase] [connections] [hash threads, e.g. 1,2] [wrong-password seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
rounds=${1:-5}; seconds=${2:-5}; conns=${3:-8}; threads=${4:-1,2}; wrong=${5:-30}
bench_scratch
echo "== ghostd $(git rev-parse --short HEAD)"
python3 scripts/bench-logins.py .build/release/ghostd "$data" "$rounds" "$seconds" "$conns" "$threads" "$wrong"
