#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh — the zgc-healthy recording: the AllocStorm program of samples/collectors
# under ZGC (JDK 17, non-generational) as collectors/zgc-xmx96m ran it, but with
# a heap that fits (-Xmx512m for 40 MiB live) and a bounded rate (150 MiB/s for
# 10 s): ZGC keeps up, so no thread stalls. The control of zgc-allocation-stall.
set -euo pipefail
cd "$(dirname "$0")"
javac -d classes ../../samples/collectors/AllocStorm.java
flags="-XX:+UseZGC -Xms128m -Xmx512m"
log="-Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags"
echo "java $flags $log -cp classes AllocStorm 10 3 40 150" > jvm-cmdline.txt
rm -f gc.log
java $flags $log -cp classes AllocStorm 10 3 40 150 > app.log 2>&1
java -version 2>&1 | head -1 > java-version.txt
rm -rf classes
