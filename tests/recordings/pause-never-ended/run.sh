# SPDX-License-Identifier: GPL-2.0-or-later
# Records a JVM whose young collection hangs at its memory cgroup's limit until the kernel kills it.
# Usage (as root): [STWTOP=path/to/stwtop] bash run.sh
#   -> gc.log, console.log, events.log, memcg.txt, exit-status.txt, dmesg-oom.txt here; with STWTOP,
#      stwtop follows the JVM live too: stwtop-record.ndjson (--record), stwtop-live.ndjson (--plain --json)
#
# A Serial JVM (-Xms/-Xmx 512m, young 16m) keeps half of what it allocates (Leak.java), in a v1
# memory cgroup limited to LIMIT (200M) with the OOM killer disabled (memory.oom_control
# oom_kill_disable 1): when a young collection promotes into old-generation pages the process never
# touched and the cgroup is at its limit, the GC thread waits in the kernel for memory that never
# comes, inside the pause. HANG_S (7.5) seconds after the pause began (the GC log's last line is
# its start line), the OOM killer is enabled again and the kernel kills the JVM (SIGKILL). The
# cgroup is removed at the end; every process is stopped by its pid.
set -euo pipefail
cd "$(dirname "$0")"
LIMIT=${LIMIT:-200M}
HANG_S=${HANG_S:-7.5}
MEMROOT=$(findmnt -n -o TARGET -t cgroup -O memory | head -1)
CG="$MEMROOT/stwrec-pause-never-ended"
JPID=
LPID=
now_ms() { date +%s%3N; }
ev() { echo "$(now_ms) $*" >> events.log; }
cleanup() {
  set +e
  if [ -n "$JPID" ] && kill -0 "$JPID" 2>/dev/null; then
    echo 0 > "$CG/memory.oom_control"; kill -KILL "$JPID"; wait "$JPID"
  fi
  if [ -n "$LPID" ]; then kill -TERM "$LPID" 2>/dev/null; wait "$LPID"; fi
  for i in $(seq 50); do [ -d "$CG" ] || break; rmdir "$CG" 2>/dev/null && break; sleep 0.1; done
  rm -rf classes
}
trap cleanup EXIT
rm -rf classes gc.log console.log events.log memcg.txt exit-status.txt stwtop-record.ndjson stwtop-live.ndjson stwtop-live.err
mkdir classes
javac -d classes Leak.java
[ -d "$CG" ] && rmdir "$CG"
mkdir "$CG"
echo "$LIMIT" > "$CG/memory.limit_in_bytes"
echo 1 > "$CG/memory.oom_control"
{ echo "memory cgroup (v1) $(basename "$CG"): memory.limit_in_bytes $(cat "$CG/memory.limit_in_bytes")"
  echo "before: memory.oom_control: $(tr '\n' ' ' < "$CG/memory.oom_control")"; } > memcg.txt
JAVA_OPTS="-XX:+UseSerialGC -Xms512m -Xmx512m -Xmn16m -Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags"
echo "java $JAVA_OPTS -cp classes Leak 40" > jvm-cmdline.txt
bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$CG" java $JAVA_OPTS -cp classes Leak 40 > console.log 2>&1 &
JPID=$!
# stwtop reads the JVM's cgroups when it starts: not before the child has joined this one
for i in $(seq 100); do grep -q ":memory:/$(basename "$CG")\$" "/proc/$JPID/cgroup" 2>/dev/null && break; sleep 0.02; done
ev "JVM started pid=$JPID in memory cgroup $(basename "$CG") (limit $LIMIT, oom_kill_disable 1)"
if [ -n "${STWTOP:-}" ]; then
  "$STWTOP" --pid "$JPID" --gc gc.log --record stwtop-record.ndjson --plain --json > stwtop-live.ndjson 2> stwtop-live.err &
  LPID=$!
  ev "stwtop started pid=$LPID: --pid $JPID --gc gc.log --record stwtop-record.ndjson --plain --json"
fi
# wait until the GC log's last line is a pause's start line that stays the last line for 1 s
hang_from=
for i in $(seq 1200); do
  sleep 0.1
  kill -0 "$JPID" 2>/dev/null || { ev "JVM exited before hanging"; break; }
  last=$(tail -n 1 gc.log 2>/dev/null || true)
  if [[ "$last" == *"[gc,start"*"Pause "* ]]; then
    if [ -z "$hang_from" ]; then hang_from=$(now_ms); hang_line=$last
    elif [ "$(( $(now_ms) - hang_from ))" -ge 1000 ] && [ "$(tail -n 1 gc.log)" = "$hang_line" ]; then
      ev "GC log's last line for 1 s: $hang_line"
      ev "memory.usage_in_bytes $(cat "$CG/memory.usage_in_bytes"), memory.oom_control: $(tr '\n' ' ' < "$CG/memory.oom_control")"
      break
    fi
  else
    hang_from=
  fi
done
if kill -0 "$JPID" 2>/dev/null && [ -n "$hang_from" ]; then
  # HANG_S after the start line appeared (seen up to 100 ms late)
  rest=$(awk -v h="$HANG_S" -v a="$hang_from" -v b="$(now_ms)" 'BEGIN { r = h - (b - a) / 1000; if (r < 0) r = 0; print r }')
  sleep "$rest"
  ev "oom_kill_disable 0: the kernel's OOM killer may act in the cgroup again"
  echo 0 > "$CG/memory.oom_control"
fi
set +e
wait "$JPID"; rc=$?
set -e
JPID=
ev "JVM exited, status $rc"
if [ -n "$LPID" ]; then sleep 3; kill -TERM "$LPID"; wait "$LPID" || true; ev "stwtop stopped (SIGTERM pid $LPID)"; LPID=; fi
echo "$rc" > exit-status.txt
{ echo "after: memory.oom_control: $(tr '\n' ' ' < "$CG/memory.oom_control")"
  echo "after: memory.max_usage_in_bytes $(cat "$CG/memory.max_usage_in_bytes"), memory.failcnt $(cat "$CG/memory.failcnt")"; } >> memcg.txt
dmesg 2>/dev/null | grep -E "Memory cgroup out of memory|oom-kill:.*stwrec-pause-never-ended|Killed process" | tail -3 > dmesg-oom.txt || true
ls -la --time-style=+%FT%T.%N gc.log > gc.log.mtime
