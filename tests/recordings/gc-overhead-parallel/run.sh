#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# gc-overhead-run.sh — records one gc-overhead recording: a real JDK 17 JVM running
# programs/HeldCache.java (a calm lead-in, then a cache that nearly fills a small heap held while
# garbage keeps coming, then the cache dropped and a calm tail), nothing else sampled.
#
# Usage (as root or not; no cgroups, no other processes):
#   bash tests/recordings/programs/gc-overhead-run.sh VARIANT
#       records into tests/recordings/VARIANT/ and copies this script (as run.sh) and
#       gc-overhead-expected.sh (as expected.sh) there
#   bash tests/recordings/VARIANT/run.sh
#       re-records that folder; HeldCache.java is always compiled from ../programs/
# VARIANT:
#   gc-overhead-g1              G1 -Xmx96m, 84 MiB cache + 4 MiB of recent garbage live, 7 s held
#                               (G1 logs ~16 lines per Full GC and ran 35-45 of them a second on a
#                               quiet machine: 9 s made a 2.6 MB gc.log, 7 s keeps it near 2 MB)
#   gc-overhead-parallel        Parallel -Xmx96m, 66 MiB cache, 9 s held (its old generation is 64 MiB of the
#                               96: a larger cache does not fit and the fill ends in OutOfMemoryError)
#   gc-overhead-serial          Serial -Xmx96m, 84 MiB cache, 9 s held
#   gc-overhead-healthy-control G1 -Xmx1g, 32 MiB cache, 400 MiB/s of garbage throughout
# HeldCache arguments: LEAD_S CACHE_MIB RECENT_MIB HOLD_S CALM_S CALM_MIBPS HOLD_MIBPS (0 = unpaced).
# Files written: gc.log (the JVM's, untouched), app.log (the program's stdout/stderr),
# jvm-cmdline.txt, java-version.txt, machine.txt (load average, CPU used by other processes).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SELF="$HERE/$(basename "$0")"
if [ "$(basename "$HERE")" = programs ]; then
  VARIANT=${1:?usage: gc-overhead-run.sh VARIANT}
  OUT=$(dirname "$HERE")/$VARIANT
  mkdir -p "$OUT"
  cp "$SELF" "$OUT/run.sh"
  cp "$HERE/gc-overhead-expected.sh" "$OUT/expected.sh"
else
  VARIANT=$(basename "$HERE")
  OUT=$HERE
fi
cd "$OUT"
PROGRAM=../programs/HeldCache.java

case "$VARIANT" in
  gc-overhead-g1)              FLAGS="-XX:+UseG1GC -Xmx96m";       ARGS="3 84 4 7 4 50 0" ;;
  gc-overhead-parallel)        FLAGS="-XX:+UseParallelGC -Xmx96m"; ARGS="3 66 4 9 4 50 0" ;;
  gc-overhead-serial)          FLAGS="-XX:+UseSerialGC -Xmx96m";   ARGS="3 84 4 9 4 50 0" ;;
  gc-overhead-healthy-control) FLAGS="-XX:+UseG1GC -Xmx1g";        ARGS="3 32 4 10 2 400 400" ;;
  *) echo "unknown variant $VARIANT" >&2; exit 2 ;;
esac
LOG="-Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags"

# CPU time of the whole machine in ms (user + nice + system of /proc/stat)
machine_busy_ms() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.0f\n", ($2 + $3 + $4) * 1000 / hz }' /proc/stat; }

# Other people build and test on this 2-CPU machine. Thrashing does not care, but the control's
# pauses stretch when the JVM waits for a CPU: wait (at most ~2 min) until the whole machine used
# < 600 ms of CPU (10 % of both CPUs) in each of two consecutive 3 s windows; record anyway after that
# and say so in machine.txt.
QUIET="not reached after 40 windows (recorded on a busy machine)"
quiet=0
for i in $(seq 40); do
  b0=$(machine_busy_ms); sleep 3; b1=$(machine_busy_ms)
  if [ $((b1 - b0)) -lt 600 ]; then
    quiet=$((quiet + 1))
    if [ $quiet -ge 2 ]; then QUIET="reached after $i windows of 3 s ($((b1 - b0)) ms of CPU in the last)"; break; fi
  else
    quiet=0
    echo "$(date -u +%T) machine busy ($((b1 - b0)) ms of CPU in 3 s), waiting" >&2
  fi
done

rm -rf classes gc.log app.log jvm-cmdline.txt java-version.txt machine.txt jvm-cpu.tmp
trap 'rm -rf "$OUT/classes" "$OUT/jvm-cpu.tmp"' EXIT
javac -d classes "$PROGRAM"
java -version 2>&1 | head -1 > java-version.txt
echo "java $FLAGS $LOG -cp classes HeldCache $ARGS" > jvm-cmdline.txt

LOAD0=$(cat /proc/loadavg)
T0=$(date -u +%FT%T.%3NZ)
B0=$(machine_busy_ms)
# /usr/bin/time measures the JVM's own CPU (user + sys of it and its threads)
/usr/bin/time -o jvm-cpu.tmp -f '%e %U %S' java $FLAGS $LOG -cp classes HeldCache $ARGS > app.log 2>&1 \
  || echo "java exited with $?" >&2
B1=$(machine_busy_ms)
T1=$(date -u +%FT%T.%3NZ)
LOAD1=$(cat /proc/loadavg)
read -r WALL USR SYS < jvm-cpu.tmp
{
  echo "machine: $(nproc --all) CPUs, $(uname -r), shared with other developers (builds, tests)"
  echo "run: $T0 .. $T1 (UTC)"
  echo "quiet machine (< 600 ms of CPU in two 3 s windows): $QUIET"
  echo "/proc/loadavg at start: $LOAD0"
  echo "/proc/loadavg at end:   $LOAD1"
  awk -v b0="$B0" -v b1="$B1" -v w="$WALL" -v u="$USR" -v s="$SYS" 'BEGIN {
    j = (u + s) * 1000
    printf "JVM: %.2f s wall, %.2f s user + %.2f s sys = %.0f ms CPU\n", w, u, s, j
    printf "machine CPU during the run (/proc/stat user+nice+system): %d ms; other processes: %.0f ms (%.0f%% of one CPU)\n", b1 - b0, (b1 - b0) - j, ((b1 - b0) - j) / (w * 10) }'
} > machine.txt
cat machine.txt >&2
echo "done: $VARIANT" >&2
