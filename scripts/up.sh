#!/usr/bin/env bash
# Runs the embedded default of CONTRACT.md: the hub and storefront-proxy from the release
# build, data in ./data. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."

export BIND="${BIND:-127.0.0.1}"
export PORT="${PORT:-8000}"
export HUB_PORT="${HUB_PORT:-8100}"
export DATA_DIR="${DATA_DIR:-./data}"
export SHOP_ENDPOINT="${SHOP_ENDPOINT:-http://127.0.0.1:${PORT}}"
export SHOP_ACCESS_TOKEN="${SHOP_ACCESS_TOKEN:-SWSCSALESROOMDEMO000000000}"
export WEB_DIST="${WEB_DIST:-web/dist}"
mkdir -p "$DATA_DIR"

pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

./target/release/hub &
pids+=($!)
./target/release/storefront-proxy &
pids+=($!)

for _ in $(seq 1 100); do
  if curl -fs "http://127.0.0.1:${PORT}/healthz" >/dev/null 2>&1 && curl -fs "http://127.0.0.1:${HUB_PORT}/healthz" >/dev/null 2>&1; then
    break
  fi
  sleep 0.1
done

cat <<TXT

Salesroom is running (Ctrl-C stops it).
  Storefront: ${SHOP_ENDPOINT}/
  Guide:      ${SHOP_ENDPOINT}/guide/demo        (login admin / shopware)
  Attendee:   ${SHOP_ENDPOINT}/presentation/demo

TXT
wait -n "${pids[@]}"
