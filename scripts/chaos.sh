#!/usr/bin/env bash
# The chaos test (`make test-cluster`, part of `make test`): the processes of
# `make cluster` (scripts/cluster.sh: redis-server, REPLICAS hubs, nginx, the proxy),
# CLIENTS attendees from `loadtest --resume --strict` through nginx while the guide
# changes slides every INTERVAL_MS, and meanwhile:
#   1. a rolling restart of every replica (SIGTERM: drain, 4013, start again, healthy),
#   2. one replica killed with SIGKILL and started again,
#   3. Redis restarted: every replica's /healthz must be 503 while it is down.
# Passes when every attendee ends on the last slide having received every event exactly
# once and in order (loadtest's continuity check), and the metric names of
# deploy/grafana-dashboard.json and deploy/alerts.yml exist in a replica's /metrics.
# Video (#31 item 13): the cluster's sfu runs, the proxy announces it to browsers, and
# every replica signs for it (its RoomService call answered by the sfu while it runs, and
# failing once it is stopped, so the replica did call it). The banner of an empty shop
# (DEMO=0) names no demo login.
#
# Settings: CLIENTS (300), SLIDES (enough for the run), INTERVAL_MS (200: 5 changes a
# second), REPLICAS (3), BIN_DIR (target/debug), CHAOS ("drain kill redis": which of the
# three to do), LOADTEST_ARGS (more loadtest flags, e.g. `--source-addresses 8` for
# 10,000 attendees). Ports are picked free unless set.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLIENTS="${CLIENTS:-300}"
INTERVAL_MS="${INTERVAL_MS:-200}"
SLIDES="${SLIDES:-150}"
CHAOS="${CHAOS:-drain kill redis}"
export BIN_DIR="${BIN_DIR:-$ROOT/target/debug}"
WORK="$(mktemp -d /tmp/salesroom-chaos.XXXXXX)"
chmod 755 "$WORK"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
free_udp_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export PORT="${PORT:-$(free_port)}" REDIS_PORT="${REDIS_PORT:-$(free_port)}"
export SFU_PORT="${SFU_PORT:-$(free_port)}" SFU_UDP_PORT="${SFU_UDP_PORT:-$(free_udp_port)}"
unset LIVEKIT_URL
# nginx and the replicas: HUB_PORT, HUB_PORT+1 … — a free block.
if [ -z "${HUB_PORT:-}" ]; then
  HUB_PORT=$(python3 - "${REPLICAS:-3}" <<'PY'
import socket, sys, random
n = int(sys.argv[1])
for _ in range(200):
    base = random.randint(20000, 60000 - n - 1)
    socks = []
    try:
        for p in range(base, base + n + 1):
            s = socket.socket(); s.bind(("127.0.0.1", p)); socks.append(s)
        print(base); break
    except OSError:
        pass
    finally:
        for s in socks: s.close()
PY
)
fi
export HUB_PORT DATA_DIR="$WORK/data" HUB_SECRET="chaos-$RANDOM$RANDOM" HUB_DRAIN_SECS="${HUB_DRAIN_SECS:-5}" RUST_LOG="${RUST_LOG:-warn}"
export SHOP_ENDPOINT="http://127.0.0.1:$PORT" WEB_DIST="$WORK/dist"
mkdir -p "$DATA_DIR" "$WEB_DIST"

CLUSTER_LIBRARY=1 source "$ROOT/scripts/cluster.sh"

LOADTEST_PID=""
finish() {
  local status=$?
  [ -n "$LOADTEST_PID" ] && kill "$LOADTEST_PID" 2>/dev/null
  stop_all
  if [ "$status" != 0 ]; then
    echo "chaos: FAILED; logs in $WORK/data/cluster" >&2
    tail -n 20 "$RUN"/*.log "$WORK/loadtest.log" 2>/dev/null >&2 || true
  else
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap finish EXIT INT TERM

started=$(date +%s)
start_cluster
trap finish EXIT INT TERM
echo "chaos: cluster up (nginx :$HUB_PORT, $REPLICAS replicas, redis :$REDIS_PORT, proxy :$PORT, sfu :$SFU_PORT)"

# Each replica's DELETE of an appointment's video room: the hub's RoomService call to the
# sfu, signed with the key pair it read (204 without a video server too, hence the stop below).
VIDEO_ROOM="/internal/appointments/$(printf '%032d' 0)/video-room"
video_room_status() {
  curl -s -o /dev/null -w '%{http_code}' -X DELETE -H "Authorization: Bearer $HUB_SECRET" \
    "http://127.0.0.1:$(replica_port "$1")$VIDEO_ROOM"
}
kill -0 "${PIDS[sfu]:-0}" 2>/dev/null || { echo "chaos: the cluster did not start the sfu" >&2; exit 1; }
curl -fs "http://127.0.0.1:$SFU_PORT/" >/dev/null || { echo "chaos: the sfu does not answer on :$SFU_PORT" >&2; exit 1; }
announced="$(curl -fs "http://127.0.0.1:$PORT/runtime-config.json" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("livekitUrl"))')"
[ "$announced" = "ws://127.0.0.1:$SFU_PORT" ] || { echo "chaos: the proxy announces video at '$announced', not the cluster's sfu" >&2; exit 1; }
for i in $(seq 1 "$REPLICAS"); do
  status="$(video_room_status "$i")"
  [ "$status" = 204 ] || { echo "chaos: replica $i's video room call answered $status, not 204 (the sfu refused its signature?)" >&2; exit 1; }
done
[[ "$(print_cluster)" == *"login admin / shopware"* ]] || { echo "chaos: the demo's banner lacks the guide login" >&2; exit 1; }
if [[ "$(DEMO=0 print_cluster)" == *shopware* ]]; then
  echo "chaos: an empty shop's banner (DEMO=0) prints the demo's guide login" >&2
  exit 1
fi
echo "chaos: the sfu runs, the proxy announces it and every replica signs for it"

metrics=""
for i in $(seq 1 "$REPLICAS"); do metrics="$metrics${metrics:+,}http://127.0.0.1:$(replica_port "$i")/metrics"; done
"$BIN_DIR/loadtest" --base-url "http://127.0.0.1:$PORT" --hub-url "ws://127.0.0.1:$HUB_PORT/ws" \
  --hub-metrics "$metrics" --clients "$CLIENTS" --slides "$SLIDES" --interval-ms "$INTERVAL_MS" \
  --hold-secs 0 --highlight-every 0 --join-concurrency 32 --resume --strict ${LOADTEST_ARGS:-} >"$WORK/loadtest.log" 2>&1 &
LOADTEST_PID=$!

# The chaos starts once the slides are changing, and a second into them.
for _ in $(seq 1 1200); do
  grep -q 'the slide changes start' "$WORK/loadtest.log" && break
  kill -0 "$LOADTEST_PID" 2>/dev/null || break
  sleep 0.1
done
sleep 1

if [[ " $CHAOS " == *" drain "* ]]; then
  echo "chaos: rolling restart of $REPLICAS replicas"
  rolling_restart
fi

if [[ " $CHAOS " == *" kill "* ]]; then
  echo "chaos: SIGKILL replica 2"
  kill_replica 2
  sleep 1
  start_replica 2
fi

if [[ " $CHAOS " == *" redis "* ]]; then
  echo "chaos: Redis restart"
  stop_redis
  for i in $(seq 1 "$REPLICAS"); do
    wait_for "http://127.0.0.1:$(replica_port "$i")/healthz" 503 15
  done
  echo "chaos: every replica's /healthz is 503 while Redis is down"
  sleep 1
  start_redis
  for i in $(seq 1 "$REPLICAS"); do
    wait_for "http://127.0.0.1:$(replica_port "$i")/healthz" 200 30
  done
fi

echo "chaos: waiting for the attendees"
if ! wait "$LOADTEST_PID"; then
  LOADTEST_PID=""
  cat "$WORK/loadtest.log" >&2
  echo "chaos: loadtest reports a loss, a repeat or an attendee short of the last slide" >&2
  exit 1
fi
LOADTEST_PID=""
cat "$WORK/loadtest.log"
grep -q 'resumes [1-9]' "$WORK/loadtest.log" || { echo "chaos: no attendee had to resume: the chaos missed the run" >&2; exit 1; }

curl -fs "http://127.0.0.1:$(replica_port 1)/metrics" >"$WORK/metrics.txt"
python3 "$ROOT/scripts/check-deploy.py" metrics "$WORK/metrics.txt"

# The replicas really call the sfu: with it stopped, their video room call fails.
kill -TERM "${PIDS[sfu]}"
wait "${PIDS[sfu]}" 2>/dev/null || true
unset 'PIDS[sfu]'
for i in $(seq 1 "$REPLICAS"); do
  status="$(video_room_status "$i")"
  [ "$status" != 204 ] || { echo "chaos: replica $i answers 204 with the sfu stopped: it has no video server" >&2; exit 1; }
done
echo "chaos: with the sfu stopped every replica's video call fails (they used it)"
echo "chaos: passed in $(( $(date +%s) - started )) s"
