#!/usr/bin/env bash
# The benchmark runs of BENCHMARKS.md: release build, fresh data, loadtest against one
# hub replica, against three replicas on Redis, or (cluster-sharded) against three
# replicas with three load generator processes that split the attendees and merge
# their reports: each process may open only 20,000 files here (`ulimit -Hn`), so one
# generator or one hub cannot hold 50,000 connections. single-sharded is one replica with
# the load split the same way (19,500 attendees: one generator could not also hold the
# proxy's and the metrics' sockets within its 20,000 files).
# Usage: scripts/bench.sh [single|single-sharded|cluster|cluster-sharded] [CLIENTS...]
# HUB_BIN, LOADTEST_BIN and PROXY_BIN run other builds (e.g. a copy of the previous release binary,
# to compare before and after back-to-back); NO_BUILD=1 skips the build. SLIDES, INTERVAL_MS,
# FIRST_SLIDES and HOLD_SECS go to loadtest; LOADTEST_ARGS (split on spaces) is added to its
# arguments (e.g. the engagement mode's, see scripts/bench-engagement.sh).
# HUB_CPUS and LOADTEST_CPUS (taskset lists, e.g. 0 and 1) pin the hub replicas and the load
# generators to separate cores, so that what the generator costs does not show as hub latency.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-single}"; shift || true
sizes=("${@:-1000 10000}")
case "$mode" in
  single | single-sharded | cluster | cluster-sharded) ;;
  *) echo "usage: $0 [single|single-sharded|cluster|cluster-sharded] [CLIENTS...]" >&2; exit 2 ;;
esac
[ -n "${NO_BUILD:-}" ] || cargo build --release -q -p hub -p storefront-proxy -p loadtest
hub_bin="${HUB_BIN:-./target/release/hub}"
loadtest_bin="${LOADTEST_BIN:-./target/release/loadtest}"
proxy_bin="${PROXY_BIN:-./target/release/storefront-proxy}"
hub_pin=(); [ -z "${HUB_CPUS:-}" ] || hub_pin=(taskset -c "$HUB_CPUS")
loadtest_pin=(); [ -z "${LOADTEST_CPUS:-}" ] || loadtest_pin=(taskset -c "$LOADTEST_CPUS")
dir=$(mktemp -d /tmp/salesroom-bench.XXXX)
# Only the processes this script started, by their ids.
# The data directory goes too, unless KEEP_BENCH_DIR is set (its logs help a failed run).
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  [ -n "${KEEP_BENCH_DIR:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT
export HUB_SECRET=bench-secret BIND=127.0.0.1 RUST_LOG=error
hubs=()
metrics=()
hub_pids=()
replicas=1
if [ "$mode" = cluster ] || [ "$mode" = cluster-sharded ]; then
  replicas=3
  redis-server --port 6390 --bind 127.0.0.1 --save "" --appendonly yes --dir "$dir" >/dev/null &
  sleep 0.5
fi
for i in $(seq 1 "$replicas"); do
  redis=()
  [ "$replicas" = 1 ] || redis=(REDIS_URL=redis://127.0.0.1:6390/)
  env "${redis[@]}" HUB_PORT=$((8100 + i)) DATA_DIR="$dir/hub$i" "${hub_pin[@]}" "$hub_bin" >"$dir/hub$i.log" 2>&1 &
  hub_pids+=($!)
  hubs+=("ws://127.0.0.1:$((8100 + i))/ws")
  metrics+=("http://127.0.0.1:$((8100 + i))/metrics")
done
PORT=8001 HUB_PORT=8101 DATA_DIR="$dir/shop" SHOP_ENDPOINT=http://127.0.0.1:8001 "$proxy_bin" >"$dir/proxy.log" 2>&1 &
sleep 1.5
hub_urls=$(IFS=,; echo "${hubs[*]}")
metric_urls=$(IFS=,; echo "${metrics[*]}")
for clients in ${sizes[@]}; do
  echo "== $mode, $clients attendees ($(uptime))"
  args=(--base-url http://127.0.0.1:8001 --hub-url "$hub_urls" --hub-metrics "$metric_urls" --clients "$clients"
    --source-addresses 8 --join-concurrency 128 --slides "${SLIDES:-50}" --interval-ms "${INTERVAL_MS:-100}"
    --highlight-every 5 --hold-secs "${HOLD_SECS:-3}" --first-slides "${FIRST_SLIDES:-5}")
  # shellcheck disable=SC2206 # split on purpose
  args+=(${LOADTEST_ARGS:-})
  if [ "$mode" = cluster-sharded ] || [ "$mode" = single-sharded ]; then
    # Three generators (one per replica in cluster mode), started together; shard 0 is the guide and starts the
    # slide changes once the hubs hold all attendees.
    shard_pids=()
    parts=()
    for shard in 0 1 2; do
      "${loadtest_pin[@]}" "$loadtest_bin" "${args[@]}" --shard "$shard/3" --out "$dir/shard$shard.json" >"$dir/shard$shard.log" 2>&1 &
      shard_pids+=($!)
      parts+=("$dir/shard$shard.json")
    done
    for pid in "${shard_pids[@]}"; do wait "$pid" || true; done
    for shard in 0 1 2; do sed "s/^/shard $shard: /" "$dir/shard$shard.log"; done
    "$loadtest_bin" --merge "$(IFS=,; echo "${parts[*]}")" || true
    rm -f "${parts[@]}"
  else
    "${loadtest_pin[@]}" "$loadtest_bin" "${args[@]}" || true
  fi
  # CPU the hub processes used so far (joins included), user + system.
  for pid in "${hub_pids[@]}"; do
    awk -v t="$(getconf CLK_TCK)" '{ printf "hub %s CPU %.2f s\n", $1, ($14 + $15) / t }' "/proc/$pid/stat" || true
  done
  for url in "${metrics[@]}"; do
    curl -s "$url" | grep -E '^hub_(frames_out|write_batches|writer_frames|writer_handovers_[a-z]+|empty_write_wakeups|frames_waited_for_fan_out|connections)(_total)? ' | tr '\n' ' ' || true
    echo
  done
done
