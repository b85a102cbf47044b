#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx-timeouts-run.sh — records one nginx-only recording of upstream timeouts: a real nginx
# (a private instance: -p this folder, foreground, high ports, stopped by pid at the end) in
# front of the real upstreams of programs/timeout_upstreams.py, driven by programs/timeout_load.py.
#
# Usage:
#   bash tests/recordings/programs/nginx-timeouts-run.sh VARIANT
#       records into tests/recordings/VARIANT/ and copies this script there as run.sh
#   bash tests/recordings/VARIANT/run.sh
#       re-records that folder (the programs are always taken from ../programs/)
# VARIANT:
#   nginx-504-combined   nginx's stock `combined` format (no $upstream_connect_time, no
#                        $request_time); /slow/ requests go to an upstream that answers after 3 s
#                        while proxy_read_timeout is 1s: read-timeout 504s, every connect at once
#   nginx-504-mixed      a `timed` format with $request_time, $upstream_connect_time and
#                        $upstream_header_time; /slow/ as above (read timeouts), /stuck/ to a
#                        listener with backlog 1 that never accepts: the first connects sit in its
#                        accept queue and time out reading, then its SYNs are dropped and the
#                        connects time out (proxy_connect_timeout 1s)
#   nginx-sporadic-syn   no stop at all: one busy upstream thread (listen backlog 4, 5 ms a request)
#                        at 40 requests/s, with a burst of 12 at once every 2 s: a few SYNs of
#                        a burst are dropped and connect after the 1 s retransmit, the rest at once
# Files written: nginx.conf (as nginx ran it), logs/access.log, logs/error.log (nginx's),
# upstream-*.log (the upstreams'), client.csv (the load generator's view), machine.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SELF="$HERE/$(basename "$0")"
if [ "$(basename "$HERE")" = programs ]; then
  VARIANT=${1:?usage: nginx-timeouts-run.sh VARIANT}
  OUT=$(dirname "$HERE")/$VARIANT
  PROG=$HERE
  mkdir -p "$OUT"
  cp "$SELF" "$OUT/run.sh"
else
  OUT=$HERE
  VARIANT=$(basename "$OUT")
  PROG=$(dirname "$HERE")/programs
fi
cd "$OUT"
NGINX_PORT=${NGINX_PORT:-18290} SLOW_PORT=${SLOW_PORT:-18291} STUCK_PORT=${STUCK_PORT:-18292}
case $VARIANT in
  nginx-504-combined)
    FORMAT="" ; MIX="ok:85,slow:15"; RATE=10 DURATION=20 BURST="" ;;
  nginx-504-mixed)
    FORMAT="log_format timed '\$remote_addr - \$remote_user [\$time_local] \"\$request\" \$status \$body_bytes_sent rt=\$request_time uct=\"\$upstream_connect_time\" uht=\"\$upstream_header_time\" urt=\"\$upstream_response_time\" us=\"\$upstream_status\" ups=\"\$upstream_addr\"';"
    MIX="ok:70,slow:15,stuck:15"; RATE=10 DURATION=20 BURST="" ;;
  nginx-sporadic-syn)
    FORMAT="log_format lab '\$msec \$request_id \$status uct=\$upstream_connect_time uht=\$upstream_header_time urt=\$upstream_response_time rt=\$request_time';"
    MIX="ok:100"; RATE=40 DURATION=30 BURST="80 12" ;;
  *) echo "unknown variant $VARIANT" >&2; exit 2 ;;
esac
FMT_NAME=$(sed -n "s/^log_format \([a-z]*\) .*/\1/p" <<<"$FORMAT")
rm -rf logs run upstream-*.log client.csv; mkdir -p logs run
cat > nginx.conf <<CONF
# nginx.conf of the $VARIANT recording (paths relative to the -p prefix = this folder)
daemon off;
master_process on;
worker_processes 1;
pid run/nginx.pid;
error_log logs/error.log warn;
events { worker_connections 4096; }
http {
    ${FORMAT:-# the stock combined format: access_log without a format name}
    access_log logs/access.log ${FMT_NAME};
    proxy_connect_timeout 1s;
    proxy_read_timeout 1s;
    upstream slow  { server 127.0.0.1:$SLOW_PORT; }
    upstream stuck { server 127.0.0.1:$STUCK_PORT; }
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;
        location /ok/    { proxy_pass http://slow; }
        location /slow/  { proxy_pass http://slow; }
        location /stuck/ { proxy_pass http://stuck; }
    }
}
CONF
PIDS=() NPID=
cleanup() {
  if [ -n "$NPID" ]; then kill -QUIT "$NPID" 2>/dev/null || true; wait "$NPID" 2>/dev/null || true; fi
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf run
}
trap cleanup EXIT
if [ "$VARIANT" = nginx-sporadic-syn ]; then
  python3 "$PROG/timeout_upstreams.py" busy "$SLOW_PORT" upstream-busy.log 4 5 & PIDS+=($!)
else
  python3 "$PROG/timeout_upstreams.py" slow "$SLOW_PORT" upstream-slow.log & PIDS+=($!)
  python3 "$PROG/timeout_upstreams.py" stuck "$STUCK_PORT" upstream-stuck.log & PIDS+=($!)
fi
nginx -p "$OUT" -c "$OUT/nginx.conf" 2>>logs/error.log & NPID=$!
sleep 1
# shellcheck disable=SC2086
python3 "$PROG/timeout_load.py" "$NGINX_PORT" "$DURATION" "$RATE" "$MIX" $BURST > client.csv
sleep 1
{ echo "nginx: $(nginx -v 2>&1)"; echo "python: $(python3 --version)"; echo "kernel: $(uname -r)";
  echo "net.ipv4.tcp_syn_linear_timeouts: $(sysctl -n net.ipv4.tcp_syn_linear_timeouts 2>/dev/null || echo n/a)";
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; } > machine.txt
