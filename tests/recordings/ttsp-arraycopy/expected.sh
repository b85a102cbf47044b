#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# expected.sh — the facts of ttsp-arraycopy, counted with grep/awk from the raw files.
cd "$(dirname "$0")"
echo "safepoints:                 $(grep -c 'Safepoint "' gc.log)"
grep -o 'Reaching safepoint: [0-9]* ns' gc.log | awk '{v = $3 / 1e6; if (v >= 100) n++; if (v > m) m = v}
  END {printf "reaching >= 100 ms:         %d, longest %.1f ms\n", n, m}'
echo "Timeout detected (console): $(grep -c 'Timeout detected' console.log)"
echo "late threads named:         $(grep -A3 'Timeout detected' console.log | grep -o '# "[^"]*"' | sort | uniq -c | awk '{printf "%s x %s  ", $1, $3}')"
awk 'NR == 1 {f = $7} {l = $7; p = $3; t = $5} END {printf "cpu.stat first..last:       throttled_time %+d ns, nr_throttled %d\n", l - f, t}' cpustat-100ms.log
cat cgroup-settings.txt
