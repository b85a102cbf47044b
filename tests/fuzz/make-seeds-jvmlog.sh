#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make-seeds-jvmlog.sh — rebuild seeds/fuzz_jvmlog/ from real lines of tests/samples and
# tests/fixtures/jvm: short windows of consecutive lines (so multi-line state is seeded)
# around every kind of line the parser knows. Usage: bash tests/fuzz/make-seeds-jvmlog.sh
set -euo pipefail
cd "$(dirname "$0")"
T=..; out=seeds/fuzz_jvmlog
rm -rf "$out"; mkdir -p "$out"
n=0
# window FILE REGEX BEFORE AFTER: the first match of REGEX with context
window() {
  local f=$1 re=$2 b=$3 a=$4 line
  line=$(grep -n -m1 -E -- "$re" "$f" | cut -d: -f1) || return 0
  [ -n "$line" ] || return 0
  n=$((n+1))
  awk -v s=$((line-b)) -v e=$((line+a)) 'NR>=s && NR<=e' "$f" > "$out/seed-$(printf %03d $n)"
}
S=$T/samples
window $S/g1-periodic/load-stops/gc.log 'Using G1' 0 20
window $S/g1-periodic/load-stops/gc.log 'G1 Periodic Collection' 12 6
window $S/g1-periodic/load-continues/gc.log 'Skipping' 2 3
window $S/throttle/throttled-arraycopy/gc.log 'Timeout detected' 3 10
window $S/throttle/throttled/gc.log 'Safepoint "' 2 4
window $S/throttle/throttled-arraycopy/console.log 'uptime_ms=' 0 12
window $S/combined/throttle-stop/console.log 'Timeout detected' 5 12
window $S/combined/gc-stop/gc.log 'Pause Full' 8 4
window $S/collectors/zgc-xmx96m/gc.log 'Garbage Collection \(Allocation Stall\) 96M' 20 4
window $S/collectors/zgc-xmx96m/gc.log 'Min Capacity' 12 4
window $S/collectors/shenandoah-xmx256m/gc.log 'Pause Degenerated' 6 20
window $S/collectors/g1-xmx256m/gc.log 'To-space exhausted' 3 14
window $S/collectors/parallel-xmx256m/gc.log 'Pause Full \(Ergonomics\)' 10 3
window $S/collectors/serial-xmx256m/gc.log 'Pause Full' 6 3
window $S/collectors/g1-utctime-pid-tid/gc.log 'Using G1' 0 12
for f in $S/public-gc-logs/dataset*.txt; do
  n=$((n+1)); head -n 6 "$f" > "$out/seed-$(printf %03d $n)"
  window "$f" 'GC pause|Full GC|\[GC|Pause .*ms|Safepoint "|Total time|Collection \(' 2 8
done
for f in $T/fixtures/jvm/*.log; do
  n=$((n+1)); head -n 10 "$f" > "$out/seed-$(printf %03d $n)"
done
# JDK 8 records of issue 14 (histograms, RSet/FLS statistics, nested remark, interleaved stops): whole files
for f in $T/fixtures/jvm/jdk8/*.log; do
  n=$((n+1)); cp "$f" "$out/seed-$(printf %03d $n)"
done
echo "$n seeds, $(cat $out/* | wc -l) lines, $(cat $out/* | wc -c) bytes"
