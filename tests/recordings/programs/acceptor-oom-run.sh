#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# acceptor-oom-run.sh — records tests/recordings/nginx-acceptor-oom: a real nginx (a private
# instance: -p the folder, foreground, high ports, stopped by pid) in front of a JDK 17
# HttpServer (programs/AcceptorOom.java) whose HTTP-Dispatcher thread dies of OutOfMemoryError
# under load; programs/timeout_load.py drives it (20 requests/s for 40 s), and 8 s in, one
# request to /report/2500 fills the heap for 2.5 s.
#
#   bash tests/recordings/programs/acceptor-oom-run.sh     records, and copies itself there as run.sh
#   bash tests/recordings/nginx-acceptor-oom/run.sh        re-records that folder
# Files: nginx.conf, logs/access.log, logs/error.log (nginx's), gc.log (-Xlog:gc*,safepoint),
# jvm.out (the JVM's stdout and stderr), client.csv (timeout_load.py's view), report.txt (when
# the report request was sent, epoch ms, and what curl got for it), machine.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$(basename "$HERE")" = programs ]; then
  PROG=$HERE OUT=$(dirname "$HERE")/nginx-acceptor-oom
  mkdir -p "$OUT"; cp "$HERE/$(basename "$0")" "$OUT/run.sh"
else
  OUT=$HERE PROG=$(dirname "$HERE")/programs
fi
cd "$OUT"
NGINX_PORT=${NGINX_PORT:-18390} JVM_PORT=${JVM_PORT:-18391}
rm -rf logs run gc.log jvm.out client.csv; mkdir -p logs run
cat > nginx.conf <<CONF
# nginx.conf of the nginx-acceptor-oom recording (paths relative to the -p prefix = this folder)
daemon off;
master_process on;
worker_processes 1;
pid run/nginx.pid;
error_log logs/error.log warn;
events { worker_connections 4096; }
http {
    log_format lab '\$msec \$remote_addr "\$request" \$status \$body_bytes_sent rt=\$request_time uct="\$upstream_connect_time" uht="\$upstream_header_time" urt="\$upstream_response_time" ups=\$upstream_addr';
    access_log logs/access.log lab;
    proxy_connect_timeout 1s;
    proxy_read_timeout 5s;
    upstream jvm { server 127.0.0.1:$JVM_PORT; }
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;
        location / { proxy_pass http://jvm; }
    }
}
CONF
JPID= NPID=
cleanup() {
  if [ -n "$NPID" ]; then kill -QUIT "$NPID" 2>/dev/null || true; wait "$NPID" 2>/dev/null || true; fi
  if [ -n "$JPID" ]; then kill -TERM "$JPID" 2>/dev/null || true; wait "$JPID" 2>/dev/null || true; fi
  rm -rf run
}
trap cleanup EXIT
javac -d run "$PROG/AcceptorOom.java"
java -Xmx128m -XX:+UseG1GC -Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags \
  -cp run AcceptorOom "$JVM_PORT" > jvm.out 2>&1 & JPID=$!
nginx -p "$OUT" -c "$OUT/nginx.conf" 2>>logs/error.log & NPID=$!
for _ in $(seq 100); do grep -q listening jvm.out 2>/dev/null && break; sleep 0.1; done
sleep 1
(sleep 8; date +%s%3N; curl -s -o /dev/null -w "%{http_code} report\n" --max-time 30 \
  "http://127.0.0.1:$NGINX_PORT/report/2500") > report.txt & RPID=$!
python3 "$PROG/timeout_load.py" "$NGINX_PORT" 40 20 "ok:100" > client.csv
wait "$RPID"
sleep 1
{ echo "nginx: $(nginx -v 2>&1)"; echo "java: $(java -version 2>&1 | head -1)"; echo "python: $(python3 --version)";
  echo "kernel: $(uname -r)"; echo "accept queue at the end: $(ss -ltnH "( sport = :$JVM_PORT )" | awk '{print "Recv-Q", $2, "backlog", $3}')";
  echo "net.ipv4.tcp_syn_linear_timeouts: $(sysctl -n net.ipv4.tcp_syn_linear_timeouts 2>/dev/null || echo n/a)";
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; } > machine.txt
