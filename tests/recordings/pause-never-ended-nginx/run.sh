#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Records a JVM behind nginx whose young collection hangs at its memory cgroup's limit until the
# kernel kills it (issue 24 point 7, the nginx side of ../pause-never-ended).
# Usage (as root): [STWTOP=path/to/stwtop] bash run.sh
#   -> nginx.conf, logs/access.log, logs/error.log (nginx's), gc.log, console.log, client.csv,
#      events.log, memcg.txt, exit-status.txt, dmesg-oom.txt, jvm-cmdline.txt here; with STWTOP,
#      stwtop follows the JVM and the access log live: stwtop-record.ndjson (--record),
#      stwtop-live.ndjson (--plain --json), stwtop-live.err
#
# HangService.java (an HTTP service, listen backlog BACKLOG) runs ../pause-never-ended/Leak.java
# in its main thread: a Serial JVM (-Xms/-Xmx 512m, young 16m) keeping half of what it allocates,
# in a v1 memory cgroup limited to LIMIT (200M) with the OOM killer disabled (oom_kill_disable 1).
# A private nginx (-p this folder, foreground, loopback, the lab log_format, proxy_connect_timeout
# 1s, proxy_read_timeout 5s) is in front of it, and ../programs/timeout_load.py sends RATE (20)
# requests/s through nginx from READY on. When the GC log's last line is a pause's start line that
# stays last for 1 s, the driver waits out HANG_S (7.5) s from the start line's appearance, enables
# the OOM killer (the kernel kills the JVM), keeps the load TAIL_S (10) s more, then stops the load
# (SIGTERM), stwtop (SIGTERM), nginx (SIGQUIT), each by its pid, and removes the cgroup.
set -euo pipefail
cd "$(dirname "$0")"
PROG=../programs
LIMIT=${LIMIT:-200M} HANG_S=${HANG_S:-7.5} TAIL_S=${TAIL_S:-10} RATE=${RATE:-20} BACKLOG=${BACKLOG:-50}
NGINX_PORT=${NGINX_PORT:-18490} JVM_PORT=${JVM_PORT:-18491}
MEMROOT=$(findmnt -n -o TARGET -t cgroup -O memory | head -1)
CG="$MEMROOT/stwrec-pause-never-ended-nginx"
JPID= LPID= NPID= QPID=
now_ms() { date +%s%3N; }
ev() { echo "$(now_ms) $*" >> events.log; }
cleanup() {
  set +e
  if [ -n "$JPID" ] && kill -0 "$JPID" 2>/dev/null; then
    echo 0 > "$CG/memory.oom_control"; kill -KILL "$JPID"; wait "$JPID"
  fi
  if [ -n "$QPID" ]; then kill -TERM "$QPID" 2>/dev/null; wait "$QPID"; fi
  if [ -n "$LPID" ]; then kill -TERM "$LPID" 2>/dev/null; wait "$LPID"; fi
  if [ -n "$NPID" ]; then kill -QUIT "$NPID" 2>/dev/null; wait "$NPID"; fi
  for _ in $(seq 50); do [ -d "$CG" ] || break; rmdir "$CG" 2>/dev/null && break; sleep 0.1; done
  rm -rf classes run
}
trap cleanup EXIT
rm -rf classes run logs gc.log console.log client.csv events.log memcg.txt exit-status.txt dmesg-oom.txt \
  jvm-cmdline.txt stwtop-record.ndjson stwtop-live.ndjson stwtop-live.err
mkdir -p classes run logs
javac -d classes ../pause-never-ended/Leak.java HangService.java
cat > nginx.conf <<CONF
# nginx.conf of the pause-never-ended-nginx recording (paths relative to the -p prefix = this folder)
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
nginx -p "$PWD" -c "$PWD/nginx.conf" 2>>logs/error.log & NPID=$!
ev "nginx started pid=$NPID on 127.0.0.1:$NGINX_PORT -> 127.0.0.1:$JVM_PORT"
[ -d "$CG" ] && rmdir "$CG"
mkdir "$CG"
echo "$LIMIT" > "$CG/memory.limit_in_bytes"
echo 1 > "$CG/memory.oom_control"
{ echo "memory cgroup (v1) $(basename "$CG"): memory.limit_in_bytes $(cat "$CG/memory.limit_in_bytes")"
  echo "before: memory.oom_control: $(tr '\n' ' ' < "$CG/memory.oom_control")"; } > memcg.txt
JAVA_OPTS="-XX:+UseSerialGC -Xms512m -Xmx512m -Xmn16m -Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags"
echo "java $JAVA_OPTS -cp classes HangService $JVM_PORT $BACKLOG 40" > jvm-cmdline.txt
bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$CG" java $JAVA_OPTS -cp classes HangService "$JVM_PORT" "$BACKLOG" 40 > console.log 2>&1 &
JPID=$!
for _ in $(seq 100); do grep -q ":memory:/$(basename "$CG")\$" "/proc/$JPID/cgroup" 2>/dev/null && break; sleep 0.02; done
ev "JVM started pid=$JPID in memory cgroup $(basename "$CG") (limit $LIMIT, oom_kill_disable 1)"
if [ -n "${STWTOP:-}" ]; then
  "$STWTOP" --pid "$JPID" --gc gc.log --nginx logs/access.log --nginx-conf nginx.conf:lab \
    --record stwtop-record.ndjson --plain --json > stwtop-live.ndjson 2> stwtop-live.err &
  LPID=$!
  ev "stwtop started pid=$LPID: --pid $JPID --gc gc.log --nginx logs/access.log --nginx-conf nginx.conf:lab --record stwtop-record.ndjson --plain --json"
fi
for _ in $(seq 200); do grep -q READY console.log 2>/dev/null && break; sleep 0.05; done
ev "JVM listening: $(grep -m1 READY console.log || echo 'no READY line')"
python3 "$PROG/timeout_load.py" "$NGINX_PORT" 600 "$RATE" "ok:100" > client.csv & QPID=$!
ev "load started pid=$QPID: timeout_load.py $NGINX_PORT 600 $RATE ok:100 (stopped by the driver)"
# wait until the GC log's last line is a pause's start line that stays the last line for 1 s
hang_from=
for _ in $(seq 1200); do
  sleep 0.1
  kill -0 "$JPID" 2>/dev/null || { ev "JVM exited before hanging"; break; }
  last=$(tail -n 1 gc.log 2>/dev/null || true)
  if [[ "$last" == *"[gc,start"*"Pause "* ]]; then
    if [ -z "$hang_from" ]; then hang_from=$(now_ms); hang_line=$last
    elif [ "$(( $(now_ms) - hang_from ))" -ge 1000 ] && [ "$(tail -n 1 gc.log)" = "$hang_line" ]; then
      ev "GC log's last line for 1 s: $hang_line"
      ev "memory.usage_in_bytes $(cat "$CG/memory.usage_in_bytes"), memory.oom_control: $(tr '\n' ' ' < "$CG/memory.oom_control")"
      ev "JVM listen socket: $(ss -ltnH "( sport = :$JVM_PORT )" | awk '{print "Recv-Q", $2, "backlog", $3}')"
      break
    fi
  else
    hang_from=
  fi
done
if kill -0 "$JPID" 2>/dev/null && [ -n "$hang_from" ]; then
  rest=$(awk -v h="$HANG_S" -v a="$hang_from" -v b="$(now_ms)" 'BEGIN { r = h - (b - a) / 1000; if (r < 0) r = 0; print r }')
  sleep "$rest"
  ev "JVM listen socket: $(ss -ltnH "( sport = :$JVM_PORT )" | awk '{print "Recv-Q", $2, "backlog", $3}')"
  ev "oom_kill_disable 0: the kernel's OOM killer may act in the cgroup again"
  echo 0 > "$CG/memory.oom_control"
fi
set +e
wait "$JPID"; rc=$?
set -e
JPID=
ev "JVM exited, status $rc"
echo "$rc" > exit-status.txt
sleep "$TAIL_S"
kill -TERM "$QPID"; wait "$QPID" || true; ev "load stopped (SIGTERM pid $QPID)"; QPID=
sleep 1
if [ -n "$LPID" ]; then kill -TERM "$LPID"; wait "$LPID" || true; ev "stwtop stopped (SIGTERM pid $LPID)"; LPID=; fi
kill -QUIT "$NPID"; wait "$NPID" || true; ev "nginx stopped (SIGQUIT pid $NPID)"; NPID=
{ echo "after: memory.oom_control: $(tr '\n' ' ' < "$CG/memory.oom_control")"
  echo "after: memory.max_usage_in_bytes $(cat "$CG/memory.max_usage_in_bytes"), memory.failcnt $(cat "$CG/memory.failcnt")"; } >> memcg.txt
dmesg 2>/dev/null | grep -E "Memory cgroup out of memory|oom-kill:.*stwrec-pause-never-ended-nginx|Killed process" | tail -3 > dmesg-oom.txt || true
{ echo "nginx: $(nginx -v 2>&1)"; echo "java: $(java -version 2>&1 | head -1)"; echo "python: $(python3 --version)";
  echo "kernel: $(uname -r)"; echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"; } > machine.txt
