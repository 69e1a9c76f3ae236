#!/usr/bin/env bash
# Issue #19 item 8: slide-change fan-out with and without engagement, alternating
# (A, B, A, B, …), each run on fresh data (scripts/bench.sh single), `uptime` before each,
# the whole thing under `flock /tmp/bench.lock`:
#   A  plain: the guide changes slides;
#   B  the same, while the attendees send CHAT_PER_SEC chats and REACTIONS_PER_SEC
#      reactions and POLL_VOTES of them vote in the guide's poll, all within WINDOW_SECS
#      from the first slide change (loadtest's engagement mode, loadtest/src/engagement.rs).
# Usage: scripts/bench-engagement.sh [CLIENTS]   (default 10000: the issue's size)
# CHAT_PER_SEC (50), REACTIONS_PER_SEC (1000), POLL_VOTES (= CLIENTS), WINDOW_SECS (10),
# INTERVAL_MS (200: 5 slide changes a second; at 100 the slide changes alone fill the hub's core at
# 10,000, BENCHMARKS.md "Slices and slide changes first"), SLIDES (enough to last the window and 2 s more), ROUNDS (2);
# BUSY_POLL=1 keeps the generator from sleeping (loadtest --busy-poll: the hub's loopback
# writes then do not pay for waking it; only with LOADTEST_CPUS); NO_BUILD=1 skips the release build; HUB_BIN, LOADTEST_BIN, PROXY_BIN, HUB_CPUS and LOADTEST_CPUS
# (the hub and the generator pinned to separate cores) as in scripts/bench.sh.
# Prints each run's report, then one table: slide-change p50/p99 with and without, the p99's
# growth, votes cast/acknowledged/counted, chats sent/delivered, reaction sums per second.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BENCH_ENGAGEMENT_LOCKED:-}" ]; then
  exec env BENCH_ENGAGEMENT_LOCKED=1 flock /tmp/bench.lock "$0" "$@"
fi
clients="${1:-10000}"
chat="${CHAT_PER_SEC:-50}"
reactions="${REACTIONS_PER_SEC:-1000}"
votes="${POLL_VOTES:-$clients}"
window="${WINDOW_SECS:-10}"
interval="${INTERVAL_MS:-200}"
slides="${SLIDES:-$(((window * 1000 + 2000) / interval))}"
rounds="${ROUNDS:-2}"
[ -n "${NO_BUILD:-}" ] || cargo build --release -q -p hub -p storefront-proxy -p loadtest
summary=$(mktemp /tmp/bench-engagement.XXXX)
trap 'rm -f "$summary"' EXIT
engagement_args="--chat-per-sec $chat --reactions-per-sec $reactions --poll-votes $votes --poll-window-secs $window"

one() { # A|B
  local run="$1" out load extra=""
  [ "$run" = A ] || extra="$engagement_args"
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "=== $run, $clients attendees, $slides slide changes ${interval} ms apart${BUSY_POLL:+, busy-polling generator}${extra:+, $extra}; $(uptime)"
  out=$(NO_BUILD=1 SLIDES="$slides" INTERVAL_MS="$interval" LOADTEST_ARGS="${BUSY_POLL:+--busy-poll }$extra" scripts/bench.sh single "$clients" 2>&1) || true
  echo "$out" | grep -v '^loadtest:' || true
  local p50 p99 deliveries votes_line chats_line reactions_line
  p50=$(echo "$out" | sed -n 's/^fan-out latency p50 \([0-9.]*\) ms.*/\1/p' | head -1)
  p99=$(echo "$out" | sed -n 's/^fan-out latency .*p99 \([0-9.]*\) ms.*/\1/p' | head -1)
  deliveries=$(echo "$out" | sed -n 's/^deliveries \([0-9]*\/[0-9]*\).*/\1/p' | head -1)
  votes_line=$(echo "$out" | sed -n 's/^  votes sent \([0-9]*\)  acknowledged \([0-9]*\)  refused \([0-9]*\)  counted \([0-9-]*\) (stored \([0-9-]*\))  lost \([0-9-]*\).*/\1 \/ \2 \/ \4 (stored \5; refused \3, lost \6)/p' | head -1)
  chats_line=$(echo "$out" | sed -n 's/^  chats sent \([0-9]*\)  acknowledged \([0-9]*\)  refused \([0-9]*\)  guide received \([0-9-]*\)  delivered \([0-9]*\/[0-9]*\)  in one order: \([a-zA-Z]*\).*/\1 sent, \5 delivered, one order: \6/p' | head -1)
  reactions_line=$(echo "$out" | sed -n 's/^  reactions sent \([0-9]*\)  refused \([0-9]*\)  taps in the guide.s sums \([0-9-]*\)  sum frames \([0-9.]*\)\/s per attendee (most in one second \([0-9]*\)).*/\1 sent, \3 summed; \4\/s (max \5 in 1 s)/p' | head -1)
  printf '%s|%s|%s|%s|%s|%s|%s|%s\n' "$run" "$load" "${p50:-?}" "${p99:-?}" "${deliveries:-?}" \
    "${votes_line:--}" "${chats_line:--}" "${reactions_line:--}" >>"$summary"
}

for _ in $(seq 1 "$rounds"); do
  one A
  one B
done
echo
echo "| run | engagement | load (1 min) | slide p50 | slide p99 | slide deliveries | votes sent / acknowledged / counted | chats | reaction sums |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
awk -F'|' '{ printf "| %s | %s | %s | %s ms | %s ms | %s | %s | %s | %s |\n", NR, ($1 == "A" ? "without" : "with"), $2, $3, $4, $5, $6, $7, $8 }' "$summary"
awk -F'|' '
  $4 ~ /^[0-9.]+$/ { if ($1 == "A") { a += $4; na++ } else { b += $4; nb++ } }
  END {
    if (na && nb) printf "\nslide-change p99, mean of the runs: without %.1f ms, with %.1f ms: growth %+.1f %% (target: at most +10 %%)\n", a / na, b / nb, (b / nb - a / na) / (a / na) * 100
    else print "\nslide-change p99: a run did not report it"
  }' "$summary"
