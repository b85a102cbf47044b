#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# jvm_exit_live.sh BIN — the followed JVM exits during a live --plain run.
# A REAL JVM (tests/fixtures/java/ProbeTarget.java, 2 workers, exits by itself after 4 s) with
# -Xlog:gc*,safepoint:file=<tmp>/gc.log:uptime,level,tags; `stwtop --plain --json --pid JPID`
# discovers and follows that log. Checked:
#  1. while it runs, the status objects carry its threads' schedstat interval (on-CPU, wait, idle);
#  2. when it exits, stwtop says so once ("process N has exited: the data is kept and the files
#     are still followed"), keeps running, and keeps what it had (pauses, heap);
#  3. the log is still followed: a pause line appended after the exit is counted.
# Skips (77) without java/javac.
set -u
BIN=$(realpath "${1:?usage: jvm_exit_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""
cleanup() { for p in "$SPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
command -v javac >/dev/null || { echo "SKIP: javac not installed"; exit 77; }
javac -d "$T/classes" "$D/fixtures/java/ProbeTarget.java" || { echo "FAIL: javac"; exit 1; }
( cd "$T" && exec java -Xmx64m "-Xlog:gc*,safepoint:file=$T/gc.log:uptime,level,tags" -cp classes ProbeTarget 2 4 ) >"$T/console.log" 2>&1 &
JPID=$!
wait_for 30 grep -q READY "$T/console.log" || { echo "FAIL: the JVM did not start: $(head -c 400 "$T/console.log")"; exit 1; }
"$BIN" --plain --json --interval 200 --pid "$JPID" >"$T/out.ndjson" 2>"$T/err" &
SPID=$!
last() { grep '"type":"status"' "$T/out.ndjson" | tail -1; }
# 1. its threads while it runs
wait_for 10 bash -c "grep '\"type\":\"status\"' '$T/out.ndjson' | jq -e 'select(.sched != null and .sched.threads > 5 and .sched.idle_ms > 0 and .sched.oncpu_ms > 0)' >/dev/null" \
  || fail "no status with the JVM's schedstat interval: $(last)"
wait "$JPID"; JPID=""
# 2. the exit, said once; the data kept
wait_for 10 grep -q "process [0-9]* has exited: the data is kept and the files are still followed" "$T/err" \
  || fail "the exit was not said: $(head -c 800 "$T/err")"
n0=$(grep -c '"type":"status"' "$T/out.ndjson")
wait_for 10 bash -c "[ \$(grep -c '\"type\":\"status\"' '$T/out.ndjson') -ge $((n0 + 3)) ]" || fail "stwtop stopped after the exit"
kill -0 "$SPID" 2>/dev/null || fail "stwtop is gone"
before=$(last | jq .gc_pauses_total)
[ "$before" -ge 1 ] || fail "no pause was read from $T/gc.log before the exit: $(last)"
[ "$(last | jq .heap_committed_mb)" != 0 ] || fail "the heap was lost: $(last)"
[ "$(last | jq .sched)" = null ] || fail "a schedstat interval after the exit: $(last)"
# 3. still followed: a pause line after the exit
grep -m1 '\[gc *\] GC([0-9]*) Pause' "$T/gc.log" | sed 's/^\[[0-9.]*s\]/[9.999s]/' >>"$T/gc.log"
counted() { [ "$(last | jq .gc_pauses_total)" = $((before + 1)) ]; }
wait_for 10 counted || fail "a line appended after the exit was not counted: $before pauses before, now $(last | jq .gc_pauses_total)"
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
[ $rc = 0 ] || fail "stwtop exited $rc: $(head -c 400 "$T/err")"
[ "$(grep -c 'has exited' "$T/err")" = 1 ] || fail "the exit was said $(grep -c 'has exited' "$T/err") times"
[ $fails = 0 ] && echo "jvm_exit_live: all passed" || { echo "jvm_exit_live: $fails failed"; exit 1; }
