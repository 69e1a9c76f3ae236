#!/usr/bin/env bash
# Runs the embedded default of CONTRACT.md: the hub and storefront-proxy from the release
# build, data in ./data, and (unless LIVEKIT_URL names a LiveKit server) the embedded media
# server `sfu`. Ctrl-C stops all.
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

# Video: without LIVEKIT_URL the embedded sfu serves it. It starts first and is waited for:
# on its first start it writes DATA_DIR/livekit-keys.yaml, which the hub and the proxy read
# when they start (so they never start before the file is there).
if [ -z "${LIVEKIT_URL:-}" ]; then
  export SFU_PORT="${SFU_PORT:-7880}"
  export SFU_UDP_PORT="${SFU_UDP_PORT:-7882}"
  ./target/release/sfu &
  sfu_pid=$!
  pids+=("$sfu_pid")
  for _ in $(seq 1 100); do
    if curl -fs "http://127.0.0.1:${SFU_PORT}/" >/dev/null 2>&1; then break; fi
    if ! kill -0 "$sfu_pid" 2>/dev/null; then
      echo "the media server (sfu) did not start; see its output above" >&2
      exit 1
    fi
    sleep 0.1
  done
  video="embedded media server on ws://${SFU_PUBLIC_IP:-127.0.0.1}:${SFU_PORT}, media on UDP ${SFU_UDP_PORT}"
else
  video="LiveKit at ${LIVEKIT_URL}"
fi

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

# The demo's guide login, or where an empty shop's (DEMO=0) password is.
case "${DEMO:-1}" in
  0 | false | no | off) login="login admin with ADMIN_PASSWORD, or the one in ${DATA_DIR}/admin-password" ;;
  *) login="login admin / shopware" ;;
esac

cat <<TXT

Salesroom is running (Ctrl-C stops it).
  Storefront: ${SHOP_ENDPOINT}/
  Guide:      ${SHOP_ENDPOINT}/guide/demo        (${login})
  Attendee:   ${SHOP_ENDPOINT}/presentation/demo
  Video:      ${video}

TXT
wait -n "${pids[@]}"
