#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmop-run.sh VARIANT — records one long-vm-operation run into tests/recordings/vmop-VARIANT/:
# VmopLoad.java (a service allocating and answering its own clients, 4 HTTP threads) on JDK 17
# with -Xlog:gc*,safepoint, and one tool run against it under load:
#   histo-live    -Xmx1g, ~490 MB live; `jmap -histo:live PID` at +8 s and +16 s
#   heap-dump     -Xmx1g, ~490 MB live; `jcmd PID GC.heap_dump FILE` at +10 s (the dump is deleted)
#   thread-print  -Xmx512m, 4000 threads parked 32 frames deep; `jcmd PID Thread.print` at +8 s, +14 s
#   redefine      -Xmx512m, -javaagent: the program redefines every modifiable loaded class with
#                 its own bytes (Instrumentation.redefineClasses) at +8 s
# Writes gc.log (the JVM log), console.log (the program's stdout/stderr: slow requests), tool.txt
# (what was run when, and the tool's exit status and output size), java-version.txt, jvm-cmdline.txt.
set -euo pipefail
V=${1:?variant}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../vmop-$V}
mkdir -p "$OUT"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$HERE/VmopLoad.java" "$W/"
(cd "$W" && javac -d classes VmopLoad.java &&
 printf 'Premain-Class: VmopLoad\nAgent-Class: VmopLoad\nCan-Redefine-Classes: true\n' > m.txt &&
 jar cfm vmop-agent.jar m.txt -C classes .)
PORT=$((18300 + RANDOM % 500))
LOG="-Xlog:gc*,safepoint:file=$OUT/gc.log:uptime,time,level,tags"
case $V in
  histo-live|heap-dump) OPTS="-Xms1g -Xmx1g -XX:+UseG1GC"; ARGS="load 250 0 24 $PORT 0" ;;
  thread-print)         OPTS="-Xms512m -Xmx512m -XX:+UseG1GC -Xss256k"; ARGS="load 20 4000 22 $PORT 0" ;;
  redefine)             OPTS="-Xms512m -Xmx512m -XX:+UseG1GC"; ARGS="redefine 20 0 18 $PORT 8" ;;
  *) echo "unknown variant $V" >&2; exit 2 ;;
esac
rm -f "$OUT/gc.log"
CMD="java $OPTS $LOG -javaagent:$W/vmop-agent.jar -cp $W/classes VmopLoad $ARGS"
echo "$CMD" | sed "s#$W#WORK#g; s#$OUT/##g" > "$OUT/jvm-cmdline.txt"
java -version > "$OUT/java-version.txt" 2>&1
$CMD > "$OUT/console.log" 2>&1 &
PID=$!
# ready: the cache is built and the clients run
for _ in $(seq 600); do grep -q ' ready ' "$OUT/console.log" 2>/dev/null && break; sleep 0.1; done
: > "$OUT/tool.txt"
tool() {   # tool AT_S COMMAND...: run it AT_S seconds after ready
  sleep "$1"; shift
  local t0 t1 rc=0
  t0=$(date -u +%FT%T.%3NZ)
  "$@" > "$W/tool.out" 2>&1 || rc=$?
  t1=$(date -u +%FT%T.%3NZ)
  echo "$t0 .. $t1 rc=$rc $(wc -l < "$W/tool.out") lines of output: $* " | sed "s#$W#WORK#g; s#$PID#PID#g" >> "$OUT/tool.txt"
  head -5 "$W/tool.out" | sed 's/^/    /' >> "$OUT/tool.txt"
}
case $V in
  histo-live)   tool 8 jmap -histo:live "$PID"; tool 7 jmap -histo:live "$PID" ;;
  heap-dump)    tool 10 jcmd "$PID" GC.heap_dump "$W/dump.hprof"; ls -l "$W/dump.hprof" | awk '{print "    dump size " $5 " bytes (deleted)"}' >> "$OUT/tool.txt"; rm -f "$W/dump.hprof" ;;
  thread-print) tool 8 jcmd "$PID" Thread.print; tool 5 jcmd "$PID" Thread.print ;;
  redefine)     : ;;
esac
wait "$PID" || true
cp "$HERE/VmopLoad.java" "$0" "$OUT/" 2>/dev/null || true
echo "recorded into $OUT"
