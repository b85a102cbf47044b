#!/usr/bin/env bash
# live-overhead.sh BIN [OUTDIR] — what stwtop costs while it watches: a real
# writer (tests/tools/replay.py) appends the combined/throttle-stop incident's
# gc.log, nginx access.log and cpustat.log at 0.7x their recorded pace (so the
# 42 s recording lasts a minute: ~170 nginx lines/s, 7 cpu.stat lines/s, the
# GC/safepoint lines as the JVM wrote them), while stwtop --plain follows the
# three files AND polls a real JVM with 2000 extra threads (--pid: schedstat of
# every thread, its cgroup, vmstat) every second. Over the same 60 s, `top -d 1`
# runs next to it. CPU% = (utime + stime) / wall from /proc/PID/stat.
set -euo pipefail
BIN=$(realpath "${1:?usage: live-overhead.sh path/to/stwtop [outdir]}")
OUT=${2:-/tmp}
top=$(cd "$(dirname "$0")/../.." && pwd)
SEC=${SECONDS_MEASURED:-60}
for t in java javac python3 top; do command -v $t >/dev/null || { echo "live: needs $t"; exit 0; }; done
T=$(mktemp -d)
pids=()
cleanup() { local p; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$T"; }
trap cleanup EXIT
TCK=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

javac -d "$T" "$top/tests/fixtures/java/ProbeTarget.java"
# no busy workers (they would load the machine we measure on), 2000 sleepers
java -cp "$T" -Xlog:gc:file="$T/jvm-gc.log" ProbeTarget 0 $((SEC + 60)) 2000 >"$T/jvm.out" 2>&1 &
jpid=$!
pids+=($jpid)
for i in $(seq 300); do grep -q READY "$T/jvm.out" 2>/dev/null && break; sleep 0.1; done
threads=$(awk '/^Threads:/{print $2}' "/proc/$jpid/status")

S=$top/tests/samples/combined/throttle-stop
LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
mkdir -p "$T/live"
: >"$T/live/gc.log"
: >"$T/live/access.log"
: >"$T/live/cpustat.log"
TZ=UTC "$BIN" --plain --interval 1000 --pid "$jpid" --gc "$T/live/gc.log" --nginx "$T/live/access.log" \
	--nginx-format "$LAB" --cpustat-log "$T/live/cpustat.log" >"$T/plain.out" 2>"$T/plain.err" &
spid=$!
pids+=($spid)
sleep 2 # start-up: discovery of the JVM's cgroup, the first poll of 2000 threads
python3 "$top/tests/tools/replay.py" --speed 0.7 --log "$T/writes.tsv" "$T/live/gc.log=$S/gc.log" \
	"$T/live/access.log=$S/logs/access.log" "$T/live/cpustat.log=$S/cpustat.log" &
wpid=$!
pids+=($wpid)
top -d 1 -b -n $((SEC + 1)) >/dev/null &
tpid=$!
pids+=($tpid)
s0=$(cpu_ticks $spid)
t0=$(cpu_ticks $tpid)
start=$(date +%s.%N)
sleep "$SEC"
s1=$(cpu_ticks $spid)
t1=$(cpu_ticks $tpid)
end=$(date +%s.%N)
rss=$(awk '/^VmHWM/{print $2}' "/proc/$spid/status")
fds=$(ls "/proc/$spid/fd" | wc -l)
wait $wpid || true
lines=$(wc -l <"$T/writes.tsv")
kill -TERM $spid
wait $spid || true
status_lines=$(grep -c 'stops' "$T/plain.out" || true)
awk -v s=$((s1 - s0)) -v t=$((t1 - t0)) -v tck="$TCK" -v a="$start" -v b="$end" -v th="$threads" \
	-v ln="$lines" -v rss="$rss" -v fds="$fds" -v st="$status_lines" 'BEGIN {
	w = b - a
	printf "-- live overhead: %.0f s, JVM with %d threads polled every 1 s (--pid), %d lines appended to gc/nginx/cpustat logs\n", w, th, ln
	printf "   stwtop --plain: %.2f%% of one CPU (%d ticks of %d Hz), peak RSS %d KB, %d fds open, %d status lines\n", 100 * s / tck / w, s, tck, rss, fds, st
	printf "   top -d 1 -b:    %.2f%% of one CPU (%d ticks), same minute\n", 100 * t / tck / w, t
}'
grep -E 'error|AddressSanitizer' "$T/plain.err" | head -3 || true
