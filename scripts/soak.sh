#!/usr/bin/env bash
# Soak benchmark (not a test): a release ghostd under play, held idle
# connections, reconnects with RESUME and the hostile catalog, for a long
# time; every minute it prints RSS, open descriptors and the database size.
#   scripts/soak.sh [seconds] [interval]      (default 600 s, a sample every 60 s)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product ghostd >/dev/null
ulimit -n 4096 2>/dev/null || true
exec python3 scripts/soak.py .build/release/ghostd "${1:-600}" "${2:-60}"
