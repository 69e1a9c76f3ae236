#!/usr/bin/env bash
# The catalogue benchmark of BENCHMARKS.md (issue 3, item 7): release build, one
# storefront-proxy on a data dir seeded with DEMO_PRODUCTS (default 100,000) generated
# products, then `loadtest-shop` measures a category listing (two filters, a sorting,
# aggregations) and a search, at concurrency 1 and 32 (CONCURRENCY="1 32"), each after a warm-up.
# The data dir is seeded once and reused (seeding 100,000 products takes minutes);
# FRESH=1 starts it over. Extra arguments go to loadtest-shop (e.g. --seconds 20).
# Usage: scripts/bench-shop.sh [loadtest-shop options]
set -euo pipefail
cd "$(dirname "$0")/.."
products="${DEMO_PRODUCTS:-100000}"
dir="${SHOP_BENCH_DIR:-/tmp/salesroom-shop-bench}"
port="${PORT:-8011}"
proxy="${PROXY_BIN:-./target/release/storefront-proxy}"
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release -q -p storefront-proxy -p loadtest
fi
if [ "${FRESH:-0}" = 1 ] || [ "$(cat "$dir/products" 2>/dev/null)" != "$products" ]; then
  rm -rf "$dir"
fi
mkdir -p "$dir"
export BIND=127.0.0.1 RUST_LOG=warn HUB_SECRET=bench-secret
started=$(date +%s)
DATA_DIR="$dir" DEMO_PRODUCTS="$products" PORT="$port" SHOP_ENDPOINT="http://127.0.0.1:$port" WEB_DIST=/nonexistent \
  "$proxy" >>"$dir/proxy.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
until curl -sf -o /dev/null -H 'sw-access-key: SWSCSALESROOMDEMO000000000' "http://127.0.0.1:$port/store-api/context"; do
  if ! kill -0 $pid 2>/dev/null; then echo "storefront-proxy exited; see $dir/proxy.log" >&2; exit 1; fi
  sleep 1
done
echo "$products" >"$dir/products"
echo "== storefront-proxy ready after $(( $(date +%s) - started )) s ($products generated products, $dir); load: $(uptime | sed 's/.*load average/load average/')"
# One run per scenario and concurrency, so that each prints as soon as it is done.
for scenario in listing search; do
  for concurrency in ${CONCURRENCY:-1 32}; do
    ./target/release/loadtest-shop --base-url "http://127.0.0.1:$port" --scenario "$scenario" --concurrency "$concurrency" "$@"
  done
done
echo "== load after: $(uptime | sed 's/.*load average/load average/')"
