#!/usr/bin/env bash
# `make cluster`: redis-server (append-only file), REPLICAS hub replicas (default 3),
# nginx in front of them with deploy/hub-lb.conf, and storefront-proxy pointing at
# nginx. Prints where everything runs; Ctrl-C stops all.
#
# Also a library: `source scripts/cluster.sh` (with CLUSTER_LIBRARY=1) gives the
# functions the chaos test (scripts/chaos.sh) drives the same processes with.
#
# Video: unless LIVEKIT_URL names a LiveKit server, the embedded media server `sfu` starts
# first (as in `make up`): it writes DATA_DIR/livekit-keys.yaml, and every hub replica and
# the proxy read that same key pair, so each replica signs tokens the sfu accepts.
#
# Settings (environment): REPLICAS (3), BIND (127.0.0.1), PORT (8000: the proxy, the
# public origin), HUB_PORT (8100: nginx; the replicas listen on HUB_PORT+1 …),
# REDIS_PORT (6380), SFU_PORT (7880: the sfu's signalling), SFU_UDP_PORT (7882: its
# media), DATA_DIR (./data: the shop; the cluster's own files in DATA_DIR/cluster),
# BIN_DIR (target/release), HUB_DRAIN_SECS (5), WEB_DIST (web/dist), DEMO (1).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPLICAS="${REPLICAS:-3}"
export BIND="${BIND:-127.0.0.1}"
export PORT="${PORT:-8000}"
HUB_PORT="${HUB_PORT:-8100}"
REDIS_PORT="${REDIS_PORT:-6380}"
export DATA_DIR="${DATA_DIR:-$ROOT/data}"
BIN_DIR="${BIN_DIR:-$ROOT/target/release}"
export HUB_DRAIN_SECS="${HUB_DRAIN_SECS:-5}"
export SHOP_ENDPOINT="${SHOP_ENDPOINT:-http://127.0.0.1:${PORT}}"
export SHOP_ACCESS_TOKEN="${SHOP_ACCESS_TOKEN:-SWSCSALESROOMDEMO000000000}"
export WEB_DIST="${WEB_DIST:-$ROOT/web/dist}"
RUN="$DATA_DIR/cluster"

declare -A PIDS=()

cluster_log() { echo "cluster: $*" >&2; }

# Waits until `url` answers `status` (default 200); fails after `seconds` (default 30).
wait_for() {
  local url="$1" status="${2:-200}" seconds="${3:-30}" got
  for _ in $(seq 1 $((seconds * 10))); do
    got="$(curl -s -o /dev/null -w '%{http_code}' "$url" 2>/dev/null || true)"
    [ "$got" = "$status" ] && return 0
    sleep 0.1
  done
  cluster_log "$url did not answer $status within ${seconds}s (last: $got)"
  return 1
}

replica_port() { echo $((HUB_PORT + $1)); }

# The embedded media server, unless LIVEKIT_URL names a LiveKit server. Waited for: on its
# first start it writes DATA_DIR/livekit-keys.yaml, which the replicas read when they start.
start_sfu() {
  [ -z "${LIVEKIT_URL:-}" ] || return 0
  export SFU_PORT="${SFU_PORT:-7880}" SFU_UDP_PORT="${SFU_UDP_PORT:-7882}"
  "$BIN_DIR/sfu" >>"$RUN/sfu.log" 2>&1 &
  PIDS[sfu]=$!
  wait_for "http://127.0.0.1:${SFU_PORT}/"
}

# Where video goes, for the banner.
video_line() {
  if [ -n "${LIVEKIT_URL:-}" ]; then
    echo "LiveKit at ${LIVEKIT_URL}"
  else
    echo "sfu ws://${SFU_PUBLIC_IP:-127.0.0.1}:${SFU_PORT}, media on UDP ${SFU_UDP_PORT}  log $RUN/sfu.log"
  fi
}

# The guide's login for the banner: the demo's, or where an empty shop's (DEMO=0) is.
guide_login() {
  case "${DEMO:-1}" in
    0 | false | no | off) echo "login admin with ADMIN_PASSWORD, or the one in ${DATA_DIR}/admin-password" ;;
    *) echo "login admin / shopware" ;;
  esac
}

start_redis() {
  mkdir -p "$RUN/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly yes --dir "$RUN/redis" \
    --daemonize no >>"$RUN/redis.log" 2>&1 &
  PIDS[redis]=$!
  for _ in $(seq 1 100); do
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cluster_log "redis-server did not start; see $RUN/redis.log"
  return 1
}

# A clean Redis shutdown (the append-only file is flushed).
stop_redis() {
  redis-cli -p "$REDIS_PORT" shutdown >/dev/null 2>&1 || true
  wait "${PIDS[redis]}" 2>/dev/null || true
  unset 'PIDS[redis]'
}

start_replica() {
  local i="$1"
  HUB_PORT="$(replica_port "$i")" REDIS_URL="redis://127.0.0.1:${REDIS_PORT}/" \
    "$BIN_DIR/hub" >>"$RUN/hub-$i.log" 2>&1 &
  PIDS[hub-$i]=$!
  wait_for "http://127.0.0.1:$(replica_port "$i")/healthz"
}

# SIGTERM: the replica stops accepting, sends its clients elsewhere (4013) and exits
# within HUB_DRAIN_SECS; this waits for that.
drain_replica() {
  local i="$1" pid="${PIDS[hub-$1]}"
  kill -TERM "$pid"
  wait "$pid" 2>/dev/null || true
  unset "PIDS[hub-$i]"
}

# A crash: SIGKILL, no drain.
kill_replica() {
  local i="$1" pid="${PIDS[hub-$1]}"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  unset "PIDS[hub-$i]"
}

# The documented rolling restart (README, operators): one replica at a time, drained,
# started again, and healthy before the next.
rolling_restart() {
  for i in $(seq 1 "$REPLICAS"); do
    drain_replica "$i"
    start_replica "$i"
  done
}

# nginx.conf for this cluster: the process settings, then deploy/hub-lb.conf with the
# replicas and the listen address written beside it (see that file's header).
write_nginx_conf() {
  mkdir -p "$RUN/nginx/tmp"
  local user=""
  # As root, nginx would switch its workers to nobody, who may not enter DATA_DIR.
  [ "$(id -u)" = 0 ] && user="user root;"
  cat >"$RUN/nginx/nginx.conf" <<CONF
# Written by scripts/cluster.sh; the load balancer itself is deploy/hub-lb.conf.
$user
worker_processes auto;
pid $RUN/nginx/nginx.pid;
error_log $RUN/nginx/error.log warn;
events { worker_connections 16384; }
http {
    access_log off;
    client_body_temp_path $RUN/nginx/tmp/body;
    proxy_temp_path $RUN/nginx/tmp/proxy;
    fastcgi_temp_path $RUN/nginx/tmp/fastcgi;
    uwsgi_temp_path $RUN/nginx/tmp/uwsgi;
    scgi_temp_path $RUN/nginx/tmp/scgi;
    include $ROOT/deploy/hub-lb.conf;
}
CONF
  {
    echo "# Written by scripts/cluster.sh: the replicas behind deploy/hub-lb.conf."
    echo "upstream hubs {"
    echo "    least_conn;"
    for i in $(seq 1 "$REPLICAS"); do
      echo "    server 127.0.0.1:$(replica_port "$i") max_fails=0;"
    done
    echo "}"
  } >"$RUN/nginx/hub-upstreams.conf"
  echo "listen $BIND:$HUB_PORT;" >"$RUN/nginx/hub-listen.conf"
}

start_nginx() {
  write_nginx_conf
  nginx -c "$RUN/nginx/nginx.conf" -p "$RUN/nginx/" -e "$RUN/nginx/error.log" -g 'daemon off;' &
  PIDS[nginx]=$!
  wait_for "http://127.0.0.1:${HUB_PORT}/healthz"
}

start_proxy() {
  HUB_PORT="$HUB_PORT" HUB_URL="http://127.0.0.1:${HUB_PORT}" "$BIN_DIR/storefront-proxy" >>"$RUN/storefront-proxy.log" 2>&1 &
  PIDS[proxy]=$!
  wait_for "http://127.0.0.1:${PORT}/healthz" 200 120
}

stop_all() {
  trap - INT TERM EXIT
  STOPPING=1
  local pid
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
}

start_cluster() {
  for tool in redis-server redis-cli nginx curl; do
    command -v "$tool" >/dev/null || { cluster_log "$tool is missing (make system-deps installs it)"; return 1; }
  done
  local bins="hub storefront-proxy"
  [ -n "${LIVEKIT_URL:-}" ] || bins="$bins sfu"
  for bin in $bins; do
    [ -x "$BIN_DIR/$bin" ] || { cluster_log "$BIN_DIR/$bin is missing (build it first)"; return 1; }
  done
  mkdir -p "$RUN"
  # Every connection is a file descriptor (nginx: two per client).
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  trap stop_all INT TERM EXIT
  start_redis
  start_sfu
  # The first replica creates DATA_DIR/hub-secret (when HUB_SECRET is unset); the others
  # and the proxy read it.
  start_replica 1
  for i in $(seq 2 "$REPLICAS"); do start_replica "$i"; done
  start_nginx
  start_proxy
}

print_cluster() {
  cat <<TXT

Salesroom cluster is running (Ctrl-C stops it).
  Storefront:      ${SHOP_ENDPOINT}/
  Guide:           ${SHOP_ENDPOINT}/guide/demo        ($(guide_login))
  Attendee:        ${SHOP_ENDPOINT}/presentation/demo
  Video:           $(video_line)
  storefront-proxy ${BIND}:${PORT} -> hubs through nginx    log $RUN/storefront-proxy.log
  nginx            ${BIND}:${HUB_PORT} (deploy/hub-lb.conf)   conf $RUN/nginx/nginx.conf
  redis-server     127.0.0.1:${REDIS_PORT} (append-only)     files $RUN/redis
TXT
  for i in $(seq 1 "$REPLICAS"); do
    echo "  hub replica $i    ${BIND}:$(replica_port "$i") (pid ${PIDS[hub-$i]})  metrics http://127.0.0.1:$(replica_port "$i")/metrics  log $RUN/hub-$i.log"
  done
  echo
}

if [ -z "${CLUSTER_LIBRARY:-}" ]; then
  start_cluster
  print_cluster
  # Until Ctrl-C, or until a process ends by itself.
  wait -n "${PIDS[@]}" || true
  [ -n "${STOPPING:-}" ] || cluster_log "a process ended by itself; stopping the cluster"
fi
