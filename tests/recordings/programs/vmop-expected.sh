#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmop-expected.sh FOLDER — the facts of a vmop-* recording, from its files with grep/awk
# (independent of stwtop): every safepoint of 100 ms or more (operation, reaching it, at it,
# total), every GC pause of 100 ms or more, and when the tool ran (tool.txt / console.log).
D=${1:-.}
echo "safepoints >= 100 ms (ms: reaching, at safepoint, total):"
grep -h 'Safepoint "' "$D/gc.log" | awk '{
  match($0, /Safepoint "[^"]*"/); op = substr($0, RSTART + 11, RLENGTH - 12)
  match($0, /^\[[^]]*\]/); t = substr($0, 2, RLENGTH - 2)
  match($0, /Reaching safepoint: [0-9]+/); r = substr($0, RSTART + 20, RLENGTH - 20) / 1e6
  match($0, /At safepoint: [0-9]+/); a = substr($0, RSTART + 14, RLENGTH - 14) / 1e6
  match($0, /Total: [0-9]+/); tot = substr($0, RSTART + 7, RLENGTH - 7) / 1e6
  if (tot >= 100) printf "  %s  %-24s %8.1f %9.1f %9.1f\n", t, op, r, a, tot }'
echo "GC pauses >= 100 ms:"
grep -h '\[gc  *\] GC([0-9]*) Pause' "$D/gc.log" | awk '{ d = $NF; sub(/ms$/, "", d); if (d + 0 >= 100) { sub(/^\[[^]]*\]\[[^]]*\]\[[^]]*\]\[[^]]*\] /, ""); print "  " $0 } }'
echo "tool runs:"
sed -n '/^20/p' "$D/tool.txt"
grep -h 'redefin' "$D/console.log" | awk '{ printf "  %s.%03d %s\n", strftime("%FT%T", $1 / 1000, 1), $1 % 1000, substr($0, index($0, " ") + 1) }'
echo "client requests >= 100 ms: $(grep -c 'slow request' "$D/console.log"), longest $(grep -h 'slow request' "$D/console.log" | awk '$4 > m { m = $4 } END { print m + 0 }') ms"
