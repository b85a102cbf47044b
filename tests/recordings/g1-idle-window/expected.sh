#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# expected.sh — the facts of g1-idle-window/gc.log, counted with grep/awk.
cd "$(dirname "$0")"
echo "pause lines:  $(grep -c '\] GC([0-9]*) Pause' gc.log)"
# the longest time between two pause lines (the idle window), from their wall-clock
# decorations, and the pause line that opened it (committed heap in parentheses)
grep '\] GC([0-9]*) Pause' gc.log | awk -F'[][]' '{
  split($2, a, /[-T:+]/); t = ((a[4] * 60 + a[5]) * 60 + a[6]) * 1000;
  if (p != "" && t - p > g) { g = t - p; at = prevline } p = t; prevline = $0 }
  END { printf "longest gap:  %.3f s, after:\n  %s\n", g / 1000, at }'
echo "version:      $(grep -o 'Version: [^ ]*' gc.log)"
grep -c 'Periodic GC: Disabled' gc.log | sed 's/^/periodic GC disabled lines: /'
grep 'idle' console.log
