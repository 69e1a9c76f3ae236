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
# FLOOR_BIN (e.g. ./target/release/floor, `cargo build --release -p floor`) adds the floor
# server (floor/src/lib.rs) to the alternation, after the hubs in every round, started as a
# hub; the ratios table then gives each hub ÷ floor for p50, p99 and CPU per delivery: of the
# medians over the rounds, and each round's (a hub run and the floor run right after it).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: [FLOOR_BIN=path/to/floor] $0 HUB_BIN [HUB_BIN ...]" >&2; exit 2; }
floor="${FLOOR_BIN:-}"
bins=("$@")
[ -z "$floor" ] || bins+=("$floor")
for hub in "${bins[@]}"; do [ -x "$hub" ] || { echo "not an executable: $hub" >&2; exit 2; }; done
rounds="${ROUNDS:-2}"
runs="${RUNS:-pace burst}"
summary=$(mktemp /tmp/bench-fanout.XXXX)
# One line per run, tab-separated: run, binary, p50 (ms), p99 (ms), CPU per delivery (µs).
raw=$(mktemp /tmp/bench-fanout-raw.XXXX)
trap 'rm -f "$summary" "$raw"' EXIT

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
  local p50_ms p99_ms
  p50_ms=$(echo "$out" | sed -n 's/^fan-out latency p50 \([0-9.]*\) ms.*/\1/p' | head -1)
  p99_ms=$(echo "$out" | sed -n 's/^fan-out latency .*p99 \([0-9.]*\) ms.*/\1/p' | head -1)
  printf '%s\t%s\t%s\t%s\t%s\n' "$run" "$hub" "${p50_ms:-}" "${p99_ms:-}" "${cpu:-}" >>"$raw"
  per_write=$(awk -v f="${frames:-0}" -v b="${batches:-0}" 'BEGIN { if (b > 0) printf "%.1f", f / b; else print "?" }')
  printf '| %s | %s | %s | %s | %s | %s µs | %s | %s KiB | %s |\n' \
    "$run" "$clients" "$hub" "$load" "${p99:-?}" "${cpu:-?}" "$per_write" "${mem:-?}" "${deliveries:-?}" >>"$summary"
}

for _ in $(seq 1 "$rounds"); do
  for run in $runs; do
    for hub in "${bins[@]}"; do one "$hub" "$run"; done
  done
done
echo
echo "| run | attendees | hub | load (1 min) | fan-out p99 | hub CPU per delivery | frames per write | memory per idle connection | deliveries |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
cat "$summary"

[ -n "$floor" ] || exit 0
# The values of one column (3 p50, 4 p99, 5 CPU) of one binary's runs of one kind, in
# round order (empty where a run gave none).
values() { awk -F'\t' -v r="$1" -v b="$2" -v c="$3" '$1 == r && $2 == b { print $c }' "$raw"; }
median() { sort -g | awk 'NF { v[++n] = $1 } END { if (n == 0) print ""; else if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b > 0) printf "%.2f", a / b; else printf "?" }'; }
# Each round's hub ÷ floor.
rounds_of() {
  paste <(values "$1" "$2" "$3") <(values "$1" "$floor" "$3") |
    awk -F'\t' '{ printf "%s%s", (NR > 1 ? " " : ""), ($1 != "" && $2 > 0 ? sprintf("%.2f", $1 / $2) : "?") }'
}
cell() { # run hub column unit
  local h f
  h=$(values "$1" "$2" "$3" | median)
  f=$(values "$1" "$floor" "$3" | median)
  printf '%s (%s ÷ %s %s; rounds %s)' "$(ratio "$h" "$f")" "${h:-?}" "${f:-?}" "$4" "$(rounds_of "$1" "$2" "$3")"
}
echo
echo "hub ÷ floor ($floor), medians over $rounds rounds:"
echo
echo "| run | hub | p50 | p99 | CPU per delivery |"
echo "| --- | --- | --- | --- | --- |"
for run in $runs; do
  for hub in "$@"; do
    printf '| %s | %s | %s | %s | %s |\n' "$run" "$hub" "$(cell "$run" "$hub" 3 ms)" \
      "$(cell "$run" "$hub" 4 ms)" "$(cell "$run" "$hub" 5 µs)"
  done
done
