#!/usr/bin/env bash
# A `perf` profile of the hub during the slide changes of a benchmark run (issue #18: where a
# delivery's time goes). Runs scripts/bench.sh single CLIENTS (release builds; NO_BUILD, HUB_BIN,
# HUB_CPUS, LOADTEST_CPUS, SLIDES, INTERVAL_MS as there) and, once the hub holds every
# attendee, records the hub process (user and kernel stacks, `perf record -g`) for
# PROFILE_SECS (default 8: the first slides, the 50 changes 100 ms apart and the hold).
# Writes OUT (default /tmp/hub-profile) .data, .txt (the whole run's report) and prints the
# shares by DSO and the top symbols (self time).
#   scripts/profile-hub.sh 10000                               # pace: 50 changes 100 ms apart
#   SLIDES=100 INTERVAL_MS=10 scripts/profile-hub.sh 5000      # burst
# Needs perf (linux-perf) and kernel.perf_event_paranoid <= 2 for your own processes.
set -euo pipefail
cd "$(dirname "$0")/.."
clients="${1:-10000}"
out="${OUT:-/tmp/hub-profile}"
secs="${PROFILE_SECS:-8}"
[ -n "${NO_BUILD:-}" ] || cargo build --release -q -p hub -p storefront-proxy -p loadtest
export NO_BUILD=1
(
  flock 9
  echo "uptime: $(uptime)"
  scripts/bench.sh single "$clients" >"$out.bench.txt" 2>&1 &
  bench=$!
  # The hub (port 8101) holds every attendee: record it while the guide changes slides.
  for _ in $(seq 1 600); do
    connected=$(curl -s http://127.0.0.1:8101/metrics 2>/dev/null | sed -n 's/^hub_connections \([0-9]*\).*/\1/p' || true)
    [ "${connected:-0}" -ge "$clients" ] && break
    sleep 0.2
  done
  pid=$(ss -ltnp 'sport = :8101' | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
  echo "hub pid $pid holds $connected connections; recording $secs s"
  perf record -F 1999 -g -p "$pid" -o "$out.data" -- sleep "$secs" 2>/dev/null
  wait "$bench" || true
) 9>/tmp/bench.lock
grep -E '^(fan-out|deliveries|hub CPU|hub memory|hub [0-9]+ CPU)' "$out.bench.txt" || tail -20 "$out.bench.txt"
perf report -i "$out.data" --no-children --sort dso --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -12
perf report -i "$out.data" --no-children --sort sym --stdio 2>/dev/null >"$out.txt"
grep -E '^ +[0-9]' "$out.txt" | head -40
