#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh — the g1-idle-window recording: a real JDK 17 G1 JVM that grows its
# heap under a 6 s peak of 128 KiB blocks, then allocates nothing for 40 s (no GC at all), then a
# little for 2 s. gc.log has time+uptime decorations; nothing else is sampled.
set -euo pipefail
cd "$(dirname "$0")"
javac -d /tmp/idle-after-peak IdleAfterPeak.java
rm -f gc.log
java -Xms64m -Xmx1g -XX:+UseG1GC \
  -Xlog:gc,gc+init,gc+heap=info,safepoint:file=gc.log:time,uptime,level,tags \
  -cp /tmp/idle-after-peak IdleAfterPeak 40 >console.log 2>&1
java -version 2>&1 | head -1 >java-version.txt
