# SPDX-License-Identifier: GPL-2.0-or-later
# Records one real run for the verdict suite: loopback load -> nginx -> CatalogService (JDK
# HttpServer, listen backlog 100, 4 request threads) in its own cgroup-v1 cpu cgroup, with the
# JVM's GC/safepoint log, cpu.stat (100 ms), per-thread schedstat (500 ms) and /proc/vmstat
# samples, nginx's access log and the app's request log on one clock.
# Derived from tests/samples/combined/*/run.sh (same programs, same file formats).
#
# Usage (as root):
#   bash tests/recordings/programs/run.sh VARIANT [RATE] [AT] [SEED] [DURATION]
#       records into tests/recordings/VARIANT/ and copies the programs and this script there
#   bash tests/recordings/VARIANT/run.sh [RATE] [AT] [SEED] [DURATION]
#       re-records that folder with its own copies
# VARIANT:
#   healthy-control           G1 -Xmx1g, quota 2 CPUs, steady load, nothing triggered
#   healthy-control-parallel  Parallel -Xmx512m, otherwise the same
#   contention                G1, no quota; the JVM and 4 CPU hogs pinned to CPU 1 (taskset),
#                             nginx/loadgen/sampler pinned to CPU 0: run-queue wait, no throttling
#   serial-ergonomic          no collector flag, no -Xmx, quota 1 CPU: JDK 17 ergonomics picks Serial
#   g1-full-gc                G1 4 GiB heap with a ~2.3 GiB cache; at +AT a POST /admin/gc to the JVM
#                             runs System.gc(): a multi-second G1 Pause Full under load
#   direct-reclaim            see the README of that folder (page cache fills RAM, the JVM grows)
# Needs: javac/java 17, nginx (Debian package, run from the folder as prefix, never as the system
# service), python3, taskset, findmnt, ss, writable cgroup-v1 cpu and cpuacct controllers.
# Everything listens on 127.0.0.1 (nginx 28480, JVM 28481); every process started here is stopped
# by its pid and every cgroup made here is removed at the end. Re-running overwrites the raw files.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SELF="$HERE/$(basename "$0")"
if [ "$(basename "$HERE")" = programs ]; then
  VARIANT=${1:?usage: run.sh VARIANT [RATE] [AT] [SEED] [DURATION]}; shift
  OUT=$(dirname "$HERE")/$VARIANT
  mkdir -p "$OUT"
  cp "$HERE/CatalogService.java" "$HERE/loadgen.py" "$HERE/sampler.py" "$HERE/expected.sh" "$OUT/"
  cp "$SELF" "$OUT/run.sh"
else
  VARIANT=$(basename "$HERE")
  OUT=$HERE
fi
cd "$OUT"

# ---- the variants -------------------------------------------------------------------------
RATE=100 AT=20 SEED=1 DURATION=40
QUOTA=200000                 # cpu.cfs_quota_us of the JVM's cgroup (-1 = none)
JAVA_GC="-XX:+UseG1GC -Xmx1g"
APP_PROPS="-Dcache.entries=200000 -Drequest.work.kiters=300 -Drequest.alloc.kb=32 -Dworkers=0 -Dapm.dump.ms=1000"
IDS=200000
ACTION=""
PIN_JVM=""                   # taskset CPU list for the JVM
PIN_HELPERS=""               # taskset CPU list for nginx, loadgen and the sampler
HOGS=0 HOG_CPUS=""           # CPU-bound busy loops started before the JVM
VMSTAT_TICKS=10              # vmstat sample every N x 100 ms
case "$VARIANT" in
  healthy-control) SEED=11 ;;
  healthy-control-parallel)
    SEED=12; JAVA_GC="-XX:+UseParallelGC -Xmx512m" ;;
  contention)
    SEED=13; QUOTA=-1; PIN_JVM=1; PIN_HELPERS=0; HOGS=4; HOG_CPUS=1 ;;
  serial-ergonomic)
    SEED=14; QUOTA=100000; JAVA_GC="" ;;
  g1-full-gc)
    SEED=15; QUOTA=-1; RATE=200; AT=18; DURATION=34
    JAVA_GC="-XX:+UseG1GC -Xms4g -Xmx4g -XX:+AlwaysPreTouch"
    APP_PROPS="-Dcache.entries=4800000 -Drequest.work.kiters=300 -Drequest.alloc.kb=8 -Dworkers=0 -Dapm.dump.ms=1000"
    IDS=4800000; ACTION="--action gc" ;;
  *) echo "unknown variant $VARIANT" >&2; exit 2 ;;
esac
HPFX=()                      # command prefix that pins the helpers
[ -n "$PIN_HELPERS" ] && HPFX=(taskset -c "$PIN_HELPERS")
RATE=${1:-$RATE}
AT=${2:-$AT}
SEED=${3:-$SEED}
DURATION=${4:-$DURATION}
NGINX_PORT=28480
APP_PORT=28481
CG_NAME=stwrec-$VARIANT

now_ms() { date +%s%3N; }
ev() { echo "$(now_ms) $*" >> events.log; }
# CPU time of the whole machine in ms (user + nice + system of /proc/stat, USER_HZ ticks)
machine_busy_ms() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.0f\n", ($2 + $3 + $4) * 1000 / hz }' /proc/stat; }

for p in $NGINX_PORT $APP_PORT; do
  if ss -ltnH "( sport = :$p )" | grep -q .; then echo "port $p is in use" >&2; exit 1; fi
done

# ---- wait for a quiet machine (other people build and test here) -------------------------------
quiet=0
for i in $(seq 200); do
  b0=$(machine_busy_ms); sleep 3; b1=$(machine_busy_ms)
  QUIET_MS=$((b1 - b0))
  if [ "$QUIET_MS" -lt 300 ]; then quiet=$((quiet + 1)); [ $quiet -ge 3 ] && break; continue; fi
  quiet=0
  echo "$(date +%T) machine busy ($QUIET_MS ms of CPU in 3 s), waiting" >&2
  sleep 10
done

# ---- clean the raw files of a previous recording --------------------------------------
rm -rf logs classes gc.log gc.log.* requests.log console.log cpustat.log schedstat.log vmstat.log \
       events.log client.csv accept-queue.csv counters.txt jvm-cmdline.txt jvm-start.txt environment.txt \
       nginx.conf nginx.pid watcher.txt
mkdir -p logs classes
javac -d classes CatalogService.java

# stop_pid PID SIGNAL: signal one process we started, wait up to 20 s, then SIGKILL it
stop_pid() {
  kill -0 "$1" 2>/dev/null || return 0
  kill -"$2" "$1" 2>/dev/null || true
  for i in $(seq 200); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$1" 2>/dev/null && kill -KILL "$1" 2>/dev/null
  wait "$1" 2>/dev/null || true
}
NPID= JPID= SPID= HOG_PIDS="" ACG=""
cleanup() {
  set +e
  [ -n "$JPID" ] && stop_pid "$JPID" TERM
  [ -n "$SPID" ] && stop_pid "$SPID" TERM
  [ -n "$NPID" ] && stop_pid "$NPID" QUIT
  for h in $HOG_PIDS; do stop_pid "$h" KILL; done
  if [ -d "$CG" ]; then
    for i in $(seq 50); do rmdir "$CG" 2>/dev/null && break; sleep 0.1; done
  fi
  if [ -n "$ACG" ] && [ -d "$ACG" ]; then
    echo $$ > "$ACCTROOT/cgroup.procs"
    for i in $(seq 50); do rmdir "$ACG" 2>/dev/null && break; sleep 0.1; done
  fi
  rm -rf classes nginx.pid
}
# ---- cgroups: the JVM's cpu cgroup; a cpuacct group holding everything this script starts ------
CPUROOT=$(findmnt -n -o TARGET -t cgroup -O cpu | head -1)
ACCTROOT=$(findmnt -n -o TARGET -t cgroup -O cpuacct | head -1)
CG="$CPUROOT/$CG_NAME"
[ -d "$CG" ] && rmdir "$CG"
mkdir "$CG"
trap cleanup EXIT
echo 100000 > "$CG/cpu.cfs_period_us"
echo "$QUOTA" > "$CG/cpu.cfs_quota_us"
if [ -n "$ACCTROOT" ]; then
  ACG="$ACCTROOT/stwrec-acct-$VARIANT"
  [ -d "$ACG" ] && rmdir "$ACG"
  mkdir "$ACG"
  echo $$ > "$ACG/cgroup.procs"
fi
BUSY0=$(machine_busy_ms)
OURS0=$([ -n "$ACG" ] && cat "$ACG/cpuacct.usage" || echo 0)

# ---- CPU hogs (contention) --------------------------------------------------------------------
for i in $(seq "$HOGS"); do
  taskset -c "$HOG_CPUS" bash -c 'while :; do :; done' &
  HOG_PIDS="$HOG_PIDS $!"
done
[ "$HOGS" -gt 0 ] && ev "started $HOGS CPU hogs (bash busy loops) pinned to CPU $HOG_CPUS: pids$HOG_PIDS"

# ---- nginx ------------------------------------------------------------------------------
cat > nginx.conf <<EOF
# nginx.conf of the '$VARIANT' recording (paths relative to the -p prefix = this folder)
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 16384;
pid nginx.pid;
error_log logs/error.log info;

events {
    worker_connections 8192;
}

http {
    log_format lab '\$msec \$request_id \$status uct=\$upstream_connect_time uht=\$upstream_header_time urt=\$upstream_response_time rt=\$request_time';
    access_log logs/access.log lab;

    upstream catalog {
        server 127.0.0.1:$APP_PORT;
    }

    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;

        location / {
            proxy_pass http://catalog;
            proxy_set_header X-Request-Id \$request_id;
            add_header X-Request-Id \$request_id always;
        }
    }
}
EOF
"${HPFX[@]}" nginx -p "$PWD/" -c nginx.conf -e logs/error.log &
NPID=$!
ev "nginx started (master pid=$NPID) listening 127.0.0.1:$NGINX_PORT -> upstream 127.0.0.1:$APP_PORT${PIN_HELPERS:+ (pinned to CPU $PIN_HELPERS)}"

# ---- JVM (joins the cgroup before exec, so it runs in it from its first instruction) ------
JAVA_OPTS="$JAVA_GC -Xlog:gc*,safepoint,gc+periodic=debug:file=gc.log:time,uptime,level,tags:filecount=3,filesize=5m -XX:+SafepointTimeout -XX:SafepointTimeoutDelay=500"
APP_PROPS="-Dport=$APP_PORT -Dbacklog=100 -Dthreads=4 -Drequest.log=requests.log $APP_PROPS"
JPIN=""
[ -n "$PIN_JVM" ] && JPIN="taskset -c $PIN_JVM"
bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$CG" \
  $JPIN java $JAVA_OPTS $APP_PROPS -cp classes CatalogService > console.log 2>&1 &
JPID=$!
ev "JVM started pid=$JPID in cpu cgroup $CG_NAME (cpu.cfs_quota_us $QUOTA, cpu.cfs_period_us 100000)${PIN_JVM:+ pinned to CPU $PIN_JVM}"
"${HPFX[@]}" python3 sampler.py "$CG" "$JPID" . "$VMSTAT_TICKS" &
SPID=$!
sleep 0.3
tr '\0' ' ' < /proc/$JPID/cmdline | sed 's/ $//' > jvm-cmdline.txt; echo >> jvm-cmdline.txt
python3 - "$JPID" > jvm-start.txt <<'EOF'
import os, sys, time
pid = int(sys.argv[1])
stat = open("/proc/%d/stat" % pid).read()
fields = stat[stat.rindex(")") + 2:].split()      # fields after "(comm)"; field 3 is fields[0]
start_ticks = int(fields[22 - 3])
btime = int([l.split()[1] for l in open("/proc/stat") if l.startswith("btime ")][0])
tck = os.sysconf("SC_CLK_TCK")
start_ms = btime * 1000 + start_ticks * 1000 // tck
up = float(open("/proc/uptime").read().split()[0])
boot_ms_up = int(time.time() * 1000 - up * 1000)
def iso(ms):
    lt = time.localtime(ms // 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + ".%03d" % (ms % 1000) + time.strftime("%z", lt)
print("# JVM process start time = btime (/proc/stat, whole seconds) + starttime (field 22 of /proc/<pid>/stat, clock ticks since boot) / CLK_TCK")
print("pid %d" % pid)
print("btime_s %d" % btime)
print("starttime_ticks %d" % start_ticks)
print("clk_tck %d" % tck)
print("start_epoch_ms %d" % start_ms)
print("start_iso %s" % iso(start_ms))
print("# btime is truncated to whole seconds; the same start with the boot time taken as now - /proc/uptime instead:")
print("boot_epoch_ms_from_uptime %d" % boot_ms_up)
print("start_epoch_ms_from_uptime %d" % (boot_ms_up + start_ticks * 1000 // tck))
EOF
{
  echo "variant: $VARIANT  rate: $RATE/s  duration: ${DURATION}s  trigger at: +${AT}s  seed: $SEED"
  echo "uname -r: $(uname -r)"
  echo "cpus: $(nproc --all)"
  echo "memory: $(awk '/^MemTotal/ {print $2, $3}' /proc/meminfo)"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "nginx: $(nginx -v 2>&1)"
  echo "python3: $(python3 --version 2>&1)"
  for k in net.ipv4.tcp_syn_linear_timeouts net.ipv4.tcp_syn_retries net.core.somaxconn \
           net.ipv4.tcp_max_syn_backlog net.ipv4.tcp_abort_on_overflow net.ipv4.tcp_syncookies \
           vm.min_free_kbytes vm.watermark_scale_factor; do
    echo "$k = $(sysctl -n $k 2>&1)"
  done
  echo "cgroup: cpu controller (v1), $CG_NAME, cpu.cfs_period_us $(cat "$CG/cpu.cfs_period_us"), cpu.cfs_quota_us $(cat "$CG/cpu.cfs_quota_us"), cpu.shares $(cat "$CG/cpu.shares")"
  echo "JVM affinity: $(taskset -pc "$JPID" | sed 's/.*: //')"
  [ "$HOGS" -gt 0 ] && echo "CPU hogs: $HOGS busy loops pinned to CPU $HOG_CPUS (pids$HOG_PIDS), in the root cpu cgroup"
  [ -n "$PIN_HELPERS" ] && echo "nginx, loadgen, sampler pinned to CPU $PIN_HELPERS"
  echo "machine CPU use in the 3 s before the start: $QUIET_MS ms"
} > environment.txt

# ---- wait until the service listens ---------------------------------------------------------
for i in $(seq 900); do
  grep -q ' READY ' console.log 2>/dev/null && break
  kill -0 "$JPID" 2>/dev/null || { echo "JVM died" >&2; cat console.log >&2; exit 1; }
  sleep 0.2
done
grep -q ' READY ' console.log || { echo "JVM not ready" >&2; exit 1; }
ev "JVM ready (console: $(grep -m1 ' READY ' console.log | cut -d' ' -f2-))"
echo "listen sockets before load:" >> environment.txt
ss -ltn "( sport = :$NGINX_PORT or sport = :$APP_PORT )" >> environment.txt
sleep 3

# ---- load (+ incident) ------------------------------------------------------------------------
LBUSY0=$(machine_busy_ms)
LOURS0=$([ -n "$ACG" ] && cat "$ACG/cpuacct.usage" || echo 0)
"${HPFX[@]}" python3 loadgen.py --port "$NGINX_PORT" --backend-port "$APP_PORT" --rate "$RATE" \
  --duration "$DURATION" --seed "$SEED" --ids "$IDS" --at "$AT" $ACTION --out .
LBUSY1=$(machine_busy_ms)
LOURS1=$([ -n "$ACG" ] && cat "$ACG/cpuacct.usage" || echo 0)
sleep 2

# ---- stop everything by pid ---------------------------------------------------------------
ev "SIGTERM JVM pid=$JPID"
stop_pid "$JPID" TERM
ev "JVM exited"
JPID=
for i in $(seq 50); do kill -0 "$SPID" 2>/dev/null || break; sleep 0.1; done   # the sampler ends with the JVM
stop_pid "$SPID" TERM
SPID=
stop_pid "$NPID" QUIT
ev "nginx stopped (SIGQUIT master pid=$NPID)"
NPID=
for h in $HOG_PIDS; do stop_pid "$h" KILL; done
[ -n "$HOG_PIDS" ] && ev "CPU hogs stopped (SIGKILL pids$HOG_PIDS)"
HOG_PIDS=""
BUSY1=$(machine_busy_ms)
OURS1=$([ -n "$ACG" ] && cat "$ACG/cpuacct.usage" || echo 0)
awk -v b0="$BUSY0" -v b1="$BUSY1" -v o0="$OURS0" -v o1="$OURS1" -v lb0="$LBUSY0" -v lb1="$LBUSY1" \
    -v lo0="$LOURS0" -v lo1="$LOURS1" 'BEGIN {
  printf "whole run: machine CPU %d ms, this recording (cpuacct) %.0f ms, other processes %.0f ms\n", b1 - b0, (o1 - o0) / 1e6, (b1 - b0) - (o1 - o0) / 1e6
  printf "during the load: machine CPU %d ms, this recording %.0f ms, other processes %.0f ms\n", lb1 - lb0, (lo1 - lo0) / 1e6, (lb1 - lb0) - (lo1 - lo0) / 1e6 }' \
  > watcher.txt
cat watcher.txt >&2
for i in $(seq 50); do rmdir "$CG" 2>/dev/null && break; sleep 0.1; done
[ -d "$CG" ] && echo "cgroup $CG_NAME could not be removed" >&2
# A run during which other processes used more than DISTURB_MS (1.5 s) of CPU is not a clean
# recording (the sample READMEs allow < 0.3-0.6 s): exit 3 so the caller records it again.
FOREIGN=$(awk -v lb0="$LBUSY0" -v lb1="$LBUSY1" -v lo0="$LOURS0" -v lo1="$LOURS1" \
  'BEGIN { printf "%.0f\n", (lb1 - lb0) - (lo1 - lo0) / 1e6 }')
if [ "$FOREIGN" -gt "${DISTURB_MS:-1500}" ]; then echo "DISTURBED: other processes used $FOREIGN ms of CPU during the load" >&2; exit 3; fi
echo "done: $VARIANT" >&2
