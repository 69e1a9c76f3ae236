#!/usr/bin/env bash
# Media benchmark of the embedded sfu (issue 13, item 7): builds release, then for each N
# (default 50 100 200) starts a fresh target/release/sfu and runs `loadtest-media` with one
# publisher bot (1.5 Mbit/s VP8-shaped video + Opus-shaped audio) and N subscriber bots.
# Subscribers join in waves of 20 (MEDIA_FLAGS="--wave 50" to change); the report has the
# sfu's CPU and RSS, the bots' own CPU, loss, the sfu's in-sfu forward delay (from its
# /metrics) and the bot-to-bot delay.
# Each run holds /tmp/bench.lock (the machine is shared) and prints `uptime` first.
#   scripts/bench-media.sh            # N = 50 100 200
#   scripts/bench-media.sh 200        # one N
# Extra loadtest-media flags: MEDIA_FLAGS="--measure-secs 30". SFU_BWE_KBPS is passed on.
# Another sfu binary (an A/B comparison): SFU_BIN=path/to/sfu (then nothing is built).
# SFU_CPUS and BOTS_CPUS (taskset lists, e.g. 0 and 1) pin the sfu and the bots to separate
# cores, so that the bots' CPU does not show as the sfu's forward delay.
set -euo pipefail
cd "$(dirname "$0")/.."
SFU_BIN="${SFU_BIN:-}"
if [ -z "$SFU_BIN" ]; then
  cargo build --release -p sfu -p loadtest --bin sfu --bin loadtest-media
  SFU_BIN=./target/release/sfu
fi
DIR="${BENCH_DIR:-/tmp/salesroom-bench-media}"
mkdir -p "$DIR"
export LIVEKIT_API_KEY=APIbench LIVEKIT_API_SECRET=bench-secret-long-enough-for-hs256-signing
SFU_PORT="${SFU_PORT:-17880}" SFU_UDP_PORT="${SFU_UDP_PORT:-17882}"
sfu_pin=(); [ -z "${SFU_CPUS:-}" ] || sfu_pin=(taskset -c "$SFU_CPUS")
bots_pin=(); [ -z "${BOTS_CPUS:-}" ] || bots_pin=(taskset -c "$BOTS_CPUS")
COUNTS=("$@")
[ ${#COUNTS[@]} -eq 0 ] && COUNTS=(50 100 200)
for n in "${COUNTS[@]}"; do
  (
    flock 9
    echo "== N=$n  sfu=$SFU_BIN  $(date -u +%FT%TZ)  uptime:$(uptime)"
    SFU_PORT=$SFU_PORT SFU_UDP_PORT=$SFU_UDP_PORT DATA_DIR="$DIR" RUST_LOG=warn \
      "${sfu_pin[@]}" "$SFU_BIN" >"$DIR/sfu-$n.log" 2>&1 &
    sfu=$!
    trap 'kill $sfu 2>/dev/null || true' EXIT
    sleep 1
    # shellcheck disable=SC2086
    "${bots_pin[@]}" ./target/release/loadtest-media --url "ws://127.0.0.1:$SFU_PORT" --subscribers "$n" --sfu-pid "$sfu" ${MEDIA_FLAGS:-}
    kill "$sfu"
    wait "$sfu" 2>/dev/null || true
    trap - EXIT
    echo "   after: $(uptime)"
  ) 9>/tmp/bench.lock
done
