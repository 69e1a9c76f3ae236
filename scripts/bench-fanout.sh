#!/usr/bin/env bash
# Issue #18's target runs for one or more hub binaries, alternated (A, B, A, B, …), with
# `uptime` before each run and the whole thing under `flock /tmp/bench.lock`:
#   pace   10,000 attendees, 50 slide changes 100 ms apart: fan-out p99, hub CPU per delivery,
#          and memory per idle connection (read after the joins settled, before the slides);
#   burst  5,000 attendees, 100 slide changes 10 ms apart: hub CPU per delivery.
# Usage: scripts/bench-fanout.sh HUB_BIN [HUB_BIN …]
# ROUNDS (2) rounds; PACE_CLIENTS / BURST_CLIENTS change the sizes (a busy machine);
# RUNS="pace burst" picks the runs; LOADTEST_BIN and PROXY_BIN as in scripts/bench.sh
# (default: this worktree's release builds; `cargo build --release -p hub -p loadtest
# -p storefront-proxy` first). Prints each run's report lines, then one summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 HUB_BIN [HUB_BIN ...]" >&2; exit 2; }
for hub in "$@"; do [ -x "$hub" ] || { echo "not an executable: $hub" >&2; exit 2; }; done
rounds="${ROUNDS:-2}"
runs="${RUNS:-pace burst}"
summary=$(mktemp /tmp/bench-fanout.XXXX)
trap 'rm -f "$summary"' EXIT

one() { # hub_bin run_name
  local hub="$1" run="$2" out
  local -a env_args=(NO_BUILD=1 HUB_BIN="$hub")
  [ -z "${LOADTEST_BIN:-}" ] || env_args+=(LOADTEST_BIN="$LOADTEST_BIN")
  [ -z "${PROXY_BIN:-}" ] || env_args+=(PROXY_BIN="$PROXY_BIN")
  case "$run" in
    pace) env_args+=(SLIDES=50 INTERVAL_MS=100); clients="${PACE_CLIENTS:-10000}" ;;
    burst) env_args+=(SLIDES=100 INTERVAL_MS=10); clients="${BURST_CLIENTS:-5000}" ;;
  esac
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "=== $run, $clients attendees, hub $hub; $(uptime)"
  out=$(flock /tmp/bench.lock env "${env_args[@]}" scripts/bench.sh single "$clients" 2>&1) || true
  echo "$out" | grep -v '^loadtest:' || true
  local p99 cpu mem deliveries frames batches per_write
  p99=$(echo "$out" | sed -n 's/^fan-out latency .*p99 \([0-9.,]* [mµ]*s\).*/\1/p' | head -1)
  cpu=$(echo "$out" | sed -n 's/.*(\([0-9.]*\) µs per delivery).*/\1/p' | head -1)
  mem=$(echo "$out" | sed -n 's/^hub memory per connection .*(\([0-9.]*\) KiB).*/\1/p' | head -1)
  deliveries=$(echo "$out" | sed -n 's/^deliveries \([0-9]*\/[0-9]*\).*/\1/p' | head -1)
  # Frames per socket write: hub_frames_out_total / hub_write_batches_total (the last report).
  frames=$(echo "$out" | sed -n 's/.*hub_frames_out_total \([0-9]*\).*/\1/p' | tail -1)
  batches=$(echo "$out" | sed -n 's/.*hub_write_batches_total \([0-9]*\).*/\1/p' | tail -1)
  per_write=$(awk -v f="${frames:-0}" -v b="${batches:-0}" 'BEGIN { if (b > 0) printf "%.1f", f / b; else print "?" }')
  printf '| %s | %s | %s | %s | %s | %s µs | %s | %s KiB | %s |\n' \
    "$run" "$clients" "$hub" "$load" "${p99:-?}" "${cpu:-?}" "$per_write" "${mem:-?}" "${deliveries:-?}" >>"$summary"
}

for _ in $(seq 1 "$rounds"); do
  for run in $runs; do
    for hub in "$@"; do one "$hub" "$run"; done
  done
done
echo
echo "| run | attendees | hub | load (1 min) | fan-out p99 | hub CPU per delivery | frames per write | memory per idle connection | deliveries |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
cat "$summary"
