#!/usr/bin/env bash
# PING over TLS against PING over plain TCP on one release ghostd, in the same
# run, alternating (scripts/bench-tls.py says what is measured).
#   scripts/bench-tls.sh [rounds] [seconds per run] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
rounds=${1:-5}; seconds=${2:-3}; conns=${3:-20}
bench_scratch
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj /CN=localhost -keyout "$data/key.pem" -out "$data/cert.pem" 2>/dev/null
p=$(port); t=$(port)
# No command budget (PING flat out is over 50 a second) and no per-address
# connection limits: every client is on 127.0.0.1.
.build/release/ghostd --port "$p" --tls-port "$t" --tls-cert "$data/cert.pem" --tls-key "$data/key.pem" \
    --data "$data/db" --durability normal --max-commands-per-second 0 --max-clients-per-ip 0 \
    --max-unnamed-per-ip 0 --connects-per-second-per-ip 0 2>"$data/log" &
gpid=$!
for _ in $(seq 100); do grep -q "listening on" "$data/log" 2>/dev/null && break; sleep 0.1; done
echo "== ghostd $(git rev-parse --short HEAD), pid $gpid, plain port $p, TLS port $t"
python3 scripts/bench-tls.py "$gpid" "$p" "$t" "$rounds" "$seconds" "$conns"
