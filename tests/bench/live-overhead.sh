#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# live-overhead.sh BIN [OUTDIR] — what stwtop costs while it watches: a real
# writer (tests/tools/replay.py) appends the combined/throttle-stop incident's
# gc.log, nginx access.log and cpustat.log at 0.7x their recorded pace (so the
# 42 s recording lasts a minute: ~170 nginx lines/s, 7 cpu.stat lines/s, the
# GC/safepoint lines as the JVM wrote them), while stwtop --plain follows the
# three files AND polls a real JVM with 2000 extra threads (--pid: schedstat of
# every thread, its cgroup, vmstat) every second. Over the same 60 s, `top -d 1`
# runs next to it. CPU% = on-CPU time / wall, the on-CPU time summed over the
# process's threads from /proc/PID/task/*/schedstat (ns; utime + stime in
# /proc/PID/stat count 10 ms ticks, too coarse for a process using ~0.5 %).
# SLEEPER_MS (default 100): how often each of the 2000 threads wakes. 100 is
# the worst case for the schedstat poll (every thread runs every second, so
# every thread is read every second); a pool thread waiting for work sleeps
# far longer (ThreadPoolExecutor's keepAlive: 60 s), and a thread that did not
# run is read only every 16 s (probe_sched.c): SLEEPER_MS=60000 measures that.
# BASE_BIN=path: a second stwtop (the base a change is measured against) follows
# the same files and polls the same JVM in the same minute, with its own line:
# the machine's load then weighs on both alike. Each also gets utime+stime from
# /proc/PID/stat (CPU seconds, in ticks), next to the schedstat ns.
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
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%d\n", s}'; }

javac -d "$T" "$top/tests/fixtures/java/ProbeTarget.java"
# no busy workers (they would load the machine we measure on), 2000 sleepers
java -cp "$T" -Xlog:gc:file="$T/jvm-gc.log" ProbeTarget 0 $((SEC + 60)) 2000 "${SLEEPER_MS:-100}" >"$T/jvm.out" 2>&1 &
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
bpid=""
if [ -n "${BASE_BIN:-}" ]; then
	TZ=UTC "$BASE_BIN" --plain --interval 1000 --pid "$jpid" --gc "$T/live/gc.log" --nginx "$T/live/access.log" \
		--nginx-format "$LAB" --cpustat-log "$T/live/cpustat.log" >"$T/base.out" 2>"$T/base.err" &
	bpid=$!
	pids+=($bpid)
fi
# user and system ticks apart: the system part is the kernel's (procfs regenerating
# each schedstat it is asked for), the user part stwtop's own code
uk() { awk '{print $14, $15}' "/proc/$1/stat"; }
ticks() { uk "$1" | awk '{print $1 + $2}'; }
sleep 2 # start-up: discovery of the JVM's cgroup, the first poll of 2000 threads
python3 "$top/tests/tools/replay.py" --speed 0.7 --log "$T/writes.tsv" "$T/live/gc.log=$S/gc.log" \
	"$T/live/access.log=$S/logs/access.log" "$T/live/cpustat.log=$S/cpustat.log" &
wpid=$!
pids+=($wpid)
top -d 1 -b -n $((SEC + 1)) >/dev/null &
tpid=$!
pids+=($tpid)
s0=$(cpu_ns $spid)
t0=$(cpu_ns $tpid)
read -r su0 ss0 <<<"$(uk $spid)"
read -r tu0 ts0 <<<"$(uk $tpid)"
[ -n "$bpid" ] && { b0=$(cpu_ns $bpid); bk0=$(ticks $bpid); }
start=$(date +%s.%N)
sleep "$SEC"
s1=$(cpu_ns $spid)
t1=$(cpu_ns $tpid)
read -r su1 ss1 <<<"$(uk $spid)"
read -r tu1 ts1 <<<"$(uk $tpid)"
[ -n "$bpid" ] && { b1=$(cpu_ns $bpid); bk1=$(ticks $bpid); }
end=$(date +%s.%N)
rss=$(awk '/^VmHWM/{print $2}' "/proc/$spid/status")
fds=$(ls "/proc/$spid/fd" | wc -l)
wait $wpid || true
lines=$(wc -l <"$T/writes.tsv")
kill -TERM $spid
wait $spid || true
status_lines=$(grep -c 'stops' "$T/plain.out" || true)
awk -v s=$((s1 - s0)) -v t=$((t1 - t0)) -v a="$start" -v b="$end" -v th="$threads" \
	-v ln="$lines" -v slp="${SLEEPER_MS:-100}" -v rss="$rss" -v fds="$fds" -v st="$status_lines" 'BEGIN {
	w = b - a
	printf "-- live overhead: %.0f s, JVM with %d threads (sleepers wake every %d ms) polled every 1 s (--pid), %d lines appended to gc/nginx/cpustat logs\n", w, th, slp, ln
	printf "   stwtop --plain: %.2f%% of one CPU (%.1f ms on CPU), peak RSS %d KB, %d fds open, %d status lines\n", 100 * s / 1e9 / w, s / 1e6, rss, fds, st
	printf "   top -d 1 -b:    %.2f%% of one CPU (%.1f ms), same minute\n", 100 * t / 1e9 / w, t / 1e6
}'
hz=$(getconf CLK_TCK)
echo "   stwtop utime+stime: $(((su1 + ss1 - su0 - ss0) * 1000 / hz)) ms (/proc/PID/stat): user $(((su1 - su0) * 1000 / hz)) ms, system $(((ss1 - ss0) * 1000 / hz)) ms; top -d 1: user $(((tu1 - tu0) * 1000 / hz)) ms, system $(((ts1 - ts0) * 1000 / hz)) ms"
if [ -n "$bpid" ]; then
	awk -v s=$((b1 - b0)) -v a="$start" -v b="$end" -v k=$(((bk1 - bk0) * 1000 / hz)) 'BEGIN {
		printf "   base stwtop:    %.2f%% of one CPU (%.1f ms on CPU; utime+stime %d ms), same minute\n", 100 * s / 1e9 / (b - a), s / 1e6, k }'
	kill -TERM "$bpid" 2>/dev/null || true
fi
grep -E 'error|AddressSanitizer' "$T/plain.err" | head -3 || true
