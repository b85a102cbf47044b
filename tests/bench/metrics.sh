#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics.sh [BUILD_DIR] — the CPU cost of a scrape (tests/bench/RESULTS.md, "Metrics scrape"):
# 1. bench_metrics: metrics_render alone, at ~100 verdicts and 5 sources, CPU per render;
# 2. the whole HTTP path: a live `stwtop --plain` on the same kind of input answers 1000
#    scrapes (curl, one connection each); the CPU time stwtop used meanwhile (utime+stime of
#    /proc/PID/stat), minus what it used in as long a time without scrapes, per scrape.
# Not part of ctest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(realpath "${1:-$top/build}")
S=$top/tests/samples/combined/throttle-stop
cmake --build "$build" --target stwtop stwtop_core >/dev/null
cc -O2 -g -std=gnu11 -D_GNU_SOURCE -I "$top/include" "$here/bench_metrics.c" "$build/libstwtop_core.a" \
	$(pkg-config --libs jansson zlib libzstd libmicrohttpd) -linotifytools -lm -o "$build/bench_metrics"
echo "== metrics_render"
"$build/bench_metrics" "$S" --pauses 100 --renders 20000

echo "== 1000 HTTP scrapes of a live run"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
python3 - "$tmp/gc.log" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('[2026-11-28T00:00:00.000+0000][0.005s][info][gc] Using G1\n')
    for i in range(100):
        f.write('[2026-11-28T%02d:%02d:00.000+0000][%d.000s][info][gc] GC(%d) Pause Young (Normal) '
                '(G1 Evacuation Pause) 300M->100M(1024M) 600.000ms\n' % (1 + i // 60, i % 60, 3600 + 60 * i, i))
PY
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$build/stwtop" --plain --gc "$tmp/gc.log" --nginx "$S/logs/access.log" --nginx-conf "$S/nginx.conf" \
	--cpustat-log "$S/cpustat.log" --schedstat-log "$S/schedstat.log" --vmstat-log "$S/vmstat.log" \
	--metrics "127.0.0.1:$port" >"$tmp/out" 2>&1 &
pid=$!
for i in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/metrics" >/dev/null && break; sleep 0.1; done
sleep 2
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
echo "verdicts held: $(curl -s "http://127.0.0.1:$port/metrics" | awk '/^stwtop_verdict_active\{/ { n += $2 } END { print n }') active"
a=$(ticks); t0=$(date +%s.%N)
for i in $(seq 1 1000); do curl -s -o /dev/null "http://127.0.0.1:$port/metrics"; done
t1=$(date +%s.%N); b=$(ticks)
wall=$(echo "$t1 - $t0" | bc)
sleep "$wall"
c=$(ticks)
echo "1000 scrapes in ${wall}s wall: stwtop used $(( b - a )) ticks; idle for as long: $(( c - b )) ticks (1 tick = $(( 1000 / hz )) ms)"
awk -v s=$(( b - a )) -v i=$(( c - b )) -v hz=$hz 'BEGIN { printf "CPU per scrape: %.1f us\n", (s - i) / hz / 1000 * 1e6 }'
