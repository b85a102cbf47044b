#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# expected.sh — the facts of nginx-upstream-addr/logs/access.log, counted with grep/awk.
cd "$(dirname "$0")"
L=logs/access.log
echo "requests:            $(wc -l <$L)"
echo "status:              $(awk '{print $7}' $L | sort | uniq -c | awk '{printf "%s x %s ", $1, $2}')"
# uct bucket: the connect time to the nearest second (DESIGN.md), 4 and above together
awk -F'uct="' '{split($2, a, "\""); b = int(a[1] + 0.5); if (b > 4) b = 4; c[b]++}
  END {printf "uct buckets 0/1/2/3/4+: %d/%d/%d/%d/%d\n", c[0], c[1], c[2], c[3], c[4]}' $L
echo "upstream addresses:  $(grep -o 'ups="[^"]*"' $L | sort | uniq -c | awk '{printf "%s x %s ", $1, $2}')"
# the request that waited longest to connect
awk -F'uct="' '{split($2, a, "\""); if (a[1] + 0 > m) {m = a[1] + 0; l = NR; r = $0}} END {
  match(r, /"[A-Z]+ [^"]*"/); printf "longest connect:     %.3f s, line %d, %s\n", m, l, substr(r, RSTART, RLENGTH)}' $L
