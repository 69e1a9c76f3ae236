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
export PORT="${PORT:-$(free_port)}" REDIS_PORT="${REDIS_PORT:-$(free_port)}"
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
echo "chaos: cluster up (nginx :$HUB_PORT, $REPLICAS replicas, redis :$REDIS_PORT, proxy :$PORT)"

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
echo "chaos: passed in $(( $(date +%s) - started )) s"
