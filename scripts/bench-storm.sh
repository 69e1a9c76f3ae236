#!/usr/bin/env bash
# Hostile-client storms (issue 15) against a hub and storefront-proxy on fresh data:
# 4,000 half-sent request heads to each, ten 60 MB WebSocket messages through the
# proxy; prints resident memory before, at the peak and after (scripts/bench-storm.py).
#   [PAD_LINES=4] scripts/bench-storm.sh [BIN_DIR]     (default target/release)
# Results in BENCHMARKS.md ("Hostile clients: memory under storms").
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release}"
DIR="$(mktemp -d /tmp/salesroom-storm.XXXXXX)"
export HUB_SECRET=storm-secret BIND=127.0.0.1 RUST_LOG=error
HUB_PORT=8131 DATA_DIR="$DIR/hub" "$BIN/hub" >"$DIR/hub.log" 2>&1 &
HUB=$!
PORT=8031 HUB_PORT=8131 DATA_DIR="$DIR/shop" SHOP_ENDPOINT=http://127.0.0.1:8031 WEB_DIST="$DIR/no-web" "$BIN/storefront-proxy" >"$DIR/proxy.log" 2>&1 &
PROXY=$!
trap 'kill $HUB $PROXY 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 1 100); do curl -sf http://127.0.0.1:8031/healthz >/dev/null && break; sleep 0.3; done
echo "binaries: $BIN; $(uptime)"
PAD_LINES="${PAD_LINES:-16}" python3 scripts/bench-storm.py 8031 "$PROXY" 8131 "$HUB"
