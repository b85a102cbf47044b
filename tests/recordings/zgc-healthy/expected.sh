#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# expected.sh — the facts of zgc-healthy/gc.log, counted with grep/awk.
cd "$(dirname "$0")"
echo "collector:          $(grep -o 'Using The Z Garbage Collector' gc.log | head -1)"
echo "ZGC cycles:         $(grep -c '\] GC([0-9]*) Garbage Collection (.*) [0-9]*M' gc.log)"
echo "Allocation Stall:   $(grep -c '\] Allocation Stall (' gc.log) (the gc,stats rows that say 0 / 0 excepted)"
grep -o 'Pause [A-Za-z ]* [0-9.]*ms' gc.log | awk '{v = $NF; sub(/ms/, "", v); if (v + 0 > m) m = v + 0; n++}
  END {printf "phase pauses:       %d, longest %.3f ms\n", n, m}'
grep 'alloc_MiB' app.log | awk -F'alloc_MiB=' '{s += $2; n++} END {printf "allocation:         %d MiB in %d s\n", s, n}'
