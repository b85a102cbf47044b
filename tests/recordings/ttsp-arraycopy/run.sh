#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh — the ttsp-arraycopy recording: a real JDK 17 JVM whose thread copies
# 768 MiB per System.arraycopy call (no safepoint poll inside), while the main
# thread asks for a thread dump every 500 ms: the safepoints wait for the copy
# (time to safepoint), and nothing limits the CPU. The JVM runs in a cpu,cpuacct
# cgroup WITHOUT a quota, sampled every 100 ms (cgsample.py of samples/throttle),
# so cpu.stat shows it was not throttled. Every process started is stopped by
# pid, the cgroup removed. As root, with cgroup v1 cpu mounted.
set -euo pipefail
cd "$(dirname "$0")"
CGROOT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ {print $2; exit}' /proc/mounts)
[ -n "$CGROOT" ] || { echo "no cgroup v1 cpu controller mounted" >&2; exit 1; }
CG=$CGROOT/stwtop-ttsp-$$
mkdir "$CG"
JPID= SPID=
cleanup() {
  if [ -n "$JPID" ]; then kill "$JPID" 2>/dev/null || true; wait "$JPID" 2>/dev/null || true; fi
  if [ -n "$SPID" ]; then kill "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; fi
  rmdir "$CG" 2>/dev/null || true
  rm -rf classes
}
trap cleanup EXIT
echo "cpu.cfs_quota_us $(cat "$CG/cpu.cfs_quota_us") (no quota)" > cgroup-settings.txt
javac -d classes BigCopy.java
JAVA_OPTS="-XX:+UseG1GC -Xmx2g -XX:+SafepointTimeout -XX:SafepointTimeoutDelay=100 -Xlog:gc,safepoint:file=gc.log:time,uptime,level,tags"
echo "java $JAVA_OPTS -cp classes BigCopy 12" > jvm-cmdline.txt
rm -f gc.log
bash -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' _ "$CG" \
  java $JAVA_OPTS -cp classes BigCopy 12 > console.log 2>&1 &
JPID=$!
python3 ../../samples/throttle/cgsample.py "$CG" "$JPID" cpustat-100ms.log schedstat.log &
SPID=$!
wait "$JPID" || echo "java exited with $?" >&2
JPID=
wait "$SPID" || true
SPID=
java -version 2>&1 | head -1 > java-version.txt
