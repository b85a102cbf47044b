#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# expected.sh [DIR] — the facts of this run (or of DIR, made by the same run.sh), from the raw files
# with grep/awk (pasted in README.md).
cd "${1:-$(dirname "$0")}" || exit 1
echo "java exit status: $(cat java-rc.txt)"
echo "stdout: $(grep -v READY stdout.log)"
echo "stderr bytes: $(wc -c <stderr.log)"
echo "last GC records:"; grep -E '\]\[gc +\] GC\([0-9]+\) Pause' gc.log | tail -3 | sed 's/^\[\([^]]*\)\].*GC(/  \1 GC(/'
echo "last line of gc.log at: $(tail -1 gc.log | sed 's/^\[\([^]]*\)\].*/\1/')"
echo "nginx statuses:"; awk '{print "  " $3}' logs/access.log | sort | uniq -c
# $msec is the end; start = end - $request_time
awk '{split($NF,a,"="); printf "%.3f %s %s\n", $1 - a[2], $3, $4}' logs/access.log | sort -n >/tmp/jvm-oome-exit.$$
echo "502 with uct=- (refused): $(awk '$2==502 && $3=="uct=-"' /tmp/jvm-oome-exit.$$ | wc -l)"
echo "first refused start: $(awk '$2==502 && $3=="uct=-" {printf "%.3f\n", $1; exit}' /tmp/jvm-oome-exit.$$)"
echo "200 after the first refused: $(awk 'f && $2==200 {n++} $2==502 && $3=="uct=-" {f=1} END {print n+0}' /tmp/jvm-oome-exit.$$)"
rm -f /tmp/jvm-oome-exit.$$
[ -f logs/error.log ] && echo "error.log Connection refused: $(grep -c "Connection refused" logs/error.log)"
