#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# discovery_live.sh BIN — a real JVM in a real throttled cgroup:
#  1. `stwtop --plain --json` with NO source finds the JVM (the only java process; with
#     other JVMs on the machine it is given --pid and says so), follows the -Xlog file
#     named on its command line (%p expanded), polls its cgroup and threads, and --record
#     writes every sample;
#  2. `--report --replay` of that recording reproduces the samples exactly (counts and
#     deltas recomputed from the file with jq), twice identically;
#  3. the uptime-only GC log is anchored to the process start (--pid).
# Needs root and a cgroup-v1 cpu controller for the throttling part; says so and exits
# 77 (skipped) without them.
set -u
BIN=$(realpath "${1:?usage: discovery_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); CG=""; JPID=""
cleanup() { [ -n "$JPID" ] && kill "$JPID" 2>/dev/null; wait 2>/dev/null
  [ -n "$CG" ] && rmdir "$CG" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
command -v javac >/dev/null || { echo "SKIP: javac not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to create a cpu cgroup"; exit 77; }
CPU=$(awk '$9=="cgroup" && $NF ~ /(^|,)cpu(,|$)/ {print $5; exit}' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "SKIP: no cgroup-v1 cpu controller mounted"; exit 77; }
CG=$CPU/stwtop-e2e-$$
mkdir "$CG" && echo 100000 >"$CG/cpu.cfs_period_us" && echo 20000 >"$CG/cpu.cfs_quota_us" || { echo "SKIP: cannot create $CG"; CG=""; exit 77; }

javac -d "$T/classes" "$D/fixtures/java/ProbeTarget.java" || { echo "FAIL: javac"; exit 1; }
( cd "$T" && exec bash -c 'echo $$ > '"$CG"'/cgroup.procs; exec java -Xmx64m -Xlog:gc*,safepoint:file='"$T"'/gc-%p.log:uptime,level,tags -cp classes ProbeTarget 3 60' ) >"$T/console.log" 2>&1 &
JPID=$!
for _ in $(seq 100); do grep -q READY "$T/console.log" && break; sleep 0.1; done
grep -q READY "$T/console.log" || { echo "FAIL: the JVM did not start: $(cat "$T/console.log")"; exit 1; }
LOG=$T/gc-$JPID.log
[ -s "$LOG" ] || fail "the JVM wrote no $LOG"

others=$(pgrep -x java | grep -vx "$JPID" | wc -l)
ARGS=()
if [ "$others" -gt 0 ]; then
  echo "note: $others other java process(es) on this machine: passing --pid $JPID instead of discovering"
  ARGS=(--pid "$JPID")
fi
"$BIN" --plain --json --interval 200 --record "$T/rec.ndjson" "${ARGS[@]}" >"$T/out.ndjson" 2>"$T/err" &
SPID=$!
sleep 3
kill -TERM $SPID; wait $SPID; rc=$?
[ $rc = 0 ] || fail "stwtop exited $rc: $(cat "$T/err")"
grep -q "$LOG" "$T/err" || fail "stwtop did not say it follows $LOG: $(cat "$T/err")"
jq -se 'any(.[]; .type=="status")' "$T/out.ndjson" >/dev/null || fail "no status lines: $(head -c 300 "$T/out.ndjson")"
thr=$(jq -s '[.[] | select(.type=="status" and .throttled_ms != null) | .throttled_ms] | max // 0' "$T/out.ndjson")
awk -v t="$thr" 'BEGIN{exit !(t > 0)}' || fail "the live status never showed throttling (max $thr ms) under a 0.2 CPU quota"
gcs=$(jq -s '[.[] | select(.type=="status") | .gc_pauses_total] | max // 0' "$T/out.ndjson")
[ "$gcs" -ge 1 ] || fail "the GC log's pause (System.gc at start) was not read: gc_pauses_total $gcs"

# the recording
ncpu=$(jq -s '[.[] | select(.kind=="cpu")] | length' "$T/rec.ndjson")
nsched=$(jq -s '[.[] | select(.kind=="sched")] | length' "$T/rec.ndjson")
dthr=$(jq -s '[.[] | select(.kind=="cpu")] | (last.nr_throttled - first.nr_throttled)' "$T/rec.ndjson")
dms=$(jq -s '[.[] | select(.kind=="cpu")] | ((last.throttled_us - first.throttled_us) / 1000)' "$T/rec.ndjson")
[ "$ncpu" -ge 10 ] || fail "only $ncpu cpu samples recorded in 3 s at 200 ms"
[ "$nsched" -ge 9 ] || fail "only $nsched sched samples recorded"
jq -r 'select(.kind=="sched") | .worst_comm' "$T/rec.ndjson" | grep -qE 'worker-|VM Thread|GC Thread|C[12] Compiler|java' \
  || fail "sched samples name no JVM thread"
"$BIN" --report --json --replay "$T/rec.ndjson" >"$T/r1.json" 2>"$T/rerr" || fail "replay report failed: $(cat "$T/rerr")"
"$BIN" --report --json --replay "$T/rec.ndjson" >"$T/r2.json" 2>/dev/null
cmp -s "$T/r1.json" "$T/r2.json" || fail "two replays of one recording differ"
[ "$(jq .summary.throttle.samples "$T/r1.json")" = "$ncpu" ] || fail "replay: throttle.samples $(jq .summary.throttle.samples "$T/r1.json"), recorded $ncpu"
[ "$(jq .summary.throttle.nr_throttled "$T/r1.json")" = "$dthr" ] || fail "replay: nr_throttled differs from the recording ($dthr)"
awk -v a="$(jq .summary.throttle.throttled_ms "$T/r1.json")" -v b="$dms" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(d < 0.01)}' \
  || fail "replay: throttled_ms $(jq .summary.throttle.throttled_ms "$T/r1.json") vs recorded $dms"
[ "$(jq .summary.sched.samples "$T/r1.json")" = "$nsched" ] || fail "replay: sched samples differ"
[ "$(jq '.sources[0].unparsed' "$T/r1.json")" = 0 ] || fail "replay: unparsed lines in the recording"

# the uptime-only GC log, anchored by the running process's start
"$BIN" --report --json --gc "$LOG" --pid "$JPID" >"$T/r3.json" 2>"$T/rerr" || fail "report with --pid failed: $(cat "$T/rerr")"
jq -e '.jvm.time_axis == "utc" and (.jvm.start_from | test("start time of process"))' "$T/r3.json" >/dev/null \
  || fail "uptime-only log not anchored by --pid: $(jq -c .jvm "$T/r3.json")"
start=$(jq -r .jvm.start "$T/r3.json")
now=$(date -u +%s)
st=$(date -u -d "$start" +%s)
[ $((now - st)) -ge 0 ] && [ $((now - st)) -lt 120 ] || fail "JVM start $start is not within the last 2 minutes"

[ $fails = 0 ] && echo "discovery_live: all passed" || { echo "discovery_live: $fails failed"; exit 1; }
