#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh — the nginx-upstream-addr recording: samples/nginx-uct's backlog100 run
# (a one-thread Python backend, listen backlog 100, behind a real nginx at 300
# requests/s for 12 s, SIGSTOPped 4 s in for 2 s) with a log_format that also
# logs $upstream_addr and $upstream_status, so the verdict can name the server.
# nginx runs from this folder as its prefix, in the foreground; every process
# started here is stopped by pid at the end.
set -euo pipefail
cd "$(dirname "$0")"
NGINX_PORT=18190
BACKEND_PORT=18191
RATE=300 DURATION=12 STOP_AT=4 STOP_FOR=2 BACKLOG=100
rm -rf logs run; mkdir -p logs run
cat > nginx.conf <<CONF
# nginx.conf of the nginx-upstream-addr recording (paths relative to the -p prefix = this folder)
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 16384;
pid run/nginx.pid;
error_log logs/error.log info;
events { worker_connections 8192; }
http {
    log_format ups '\$remote_addr [\$time_local] "\$request" \$status rt=\$request_time uct="\$upstream_connect_time" uht="\$upstream_header_time" us="\$upstream_status" ups="\$upstream_addr"';
    access_log logs/access.log ups;
    upstream backend { server 127.0.0.1:$BACKEND_PORT; }
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;
        location / { proxy_pass http://backend; }
    }
}
CONF
BPID= NPID=
cleanup() {
  if [ -n "$BPID" ]; then kill -CONT "$BPID" 2>/dev/null || true; fi
  if [ -n "$NPID" ]; then kill -QUIT "$NPID" 2>/dev/null || true; wait "$NPID" 2>/dev/null || true; fi
  if [ -n "$BPID" ]; then kill -TERM "$BPID" 2>/dev/null || true; wait "$BPID" 2>/dev/null || true; fi
  rm -rf run
}
trap cleanup EXIT
python3 ../../samples/nginx-uct/backend.py "$BACKEND_PORT" "$BACKLOG" run/backend.log &
BPID=$!
nginx -p "$PWD/" -c nginx.conf -e logs/error.log &
NPID=$!
for i in $(seq 50); do
  if ss -ltnH "( sport = :$NGINX_PORT )" | grep -q ":$NGINX_PORT" &&
     ss -ltnH "( sport = :$BACKEND_PORT )" | grep -q ":$BACKEND_PORT"; then break; fi
  sleep 0.1
done
python3 ../../samples/nginx-uct/loadgen.py "$NGINX_PORT" "$BACKEND_PORT" "$RATE" "$DURATION" "$BPID" "$STOP_AT" "$STOP_FOR" run
sleep 0.5
rm -f logs/error.log
