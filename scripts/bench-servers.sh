#!/usr/bin/env bash
# Starts a hub (or, with REPLICAS=3 and REDIS_PORT, three hub replicas on Redis) and
# storefront-proxy from the release build, for loadtest runs. Prints nothing; stop with
# `kill` of the printed process group. Used by the commands in BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${BENCH_DIR:-/tmp/salesroom-bench}"
mkdir -p "$DIR"
export HUB_SECRET=bench-secret BIND=127.0.0.1 RUST_LOG=warn
REPLICAS="${REPLICAS:-1}"
if [ "$REPLICAS" -gt 1 ]; then
  export REDIS_URL="redis://127.0.0.1:${REDIS_PORT:-6390}/"
  redis-server --port "${REDIS_PORT:-6390}" --save "" --appendonly yes --dir "$DIR" --daemonize no >/dev/null &
  sleep 0.5
fi
for i in $(seq 1 "$REPLICAS"); do
  HUB_PORT=$((8100 + i)) DATA_DIR="$DIR/hub$i" ./target/release/hub >"$DIR/hub$i.log" 2>&1 &
done
PORT=8001 HUB_PORT=8101 DATA_DIR="$DIR/shop" SHOP_ENDPOINT=http://127.0.0.1:8001 ./target/release/storefront-proxy >"$DIR/proxy.log" 2>&1 &
sleep 1
wait
