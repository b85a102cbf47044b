#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record_anchor.sh BIN — record/replay reproduces the live verdicts of an uptime-only GC log.
# A REAL JVM (tests/samples/throttle/SafepointLoad.java: 8 busy threads, 300 MiB/s) runs 8 s in a
# real cgroup-v1 cpu cgroup at 0.3 CPU with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags
# (no wall clock in the log). `stwtop --plain --json --pid JPID --record rec` follows it; the
# live run anchors the log to the process start. Then
#   stwtop --report --json --gc gc.log --replay rec
# must end with the same verdict ids and titles as the live run's final NDJSON: the recording
# carries the JVM start (a meta line), so the report places the log where live did. Also:
# the live run says the start with the value --jvm-start takes, the report prints it (text and
# jvm.start / start_from), and --report --record is a usage error.
# Skips (77) without java/javac, root or a v1 cpu controller.
set -u
BIN=$(realpath "${1:?usage: record_anchor.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); CG=""; JPID=""; SPID=""
cleanup() {
  [ -n "$JPID" ] && kill -KILL "$JPID" 2>/dev/null
  [ -n "$SPID" ] && kill -KILL "$SPID" 2>/dev/null
  wait 2>/dev/null
  [ -n "$CG" ] && for _ in $(seq 50); do rmdir "$CG" 2>/dev/null && break; sleep 0.1; done
  rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
export TZ=UTC

# --report --record: a usage error, and nothing written
"$BIN" --report --gc /dev/null --record "$T/never.ndjson" 2>"$T/uerr"; rc=$?
[ $rc = 2 ] || fail "--report --record exited $rc, want 2"
[ "$(wc -l <"$T/uerr")" = 1 ] && grep -q -- "--record is for live mode" "$T/uerr" || fail "--report --record said: $(cat "$T/uerr")"
[ -e "$T/never.ndjson" ] && fail "--report --record created the file"

command -v javac >/dev/null || { echo "SKIP: javac not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to create a cpu cgroup"; exit 77; }
CPU=$(awk '$9=="cgroup" && $NF ~ /(^|,)cpu(,|$)/ {print $5; exit}' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "SKIP: no cgroup-v1 cpu controller mounted"; exit 77; }
CG=$CPU/stwtop-anchor-$$
mkdir "$CG" && echo 100000 >"$CG/cpu.cfs_period_us" && echo 30000 >"$CG/cpu.cfs_quota_us" || { echo "SKIP: cannot create $CG"; CG=""; exit 77; }

javac -d "$T/classes" "$D/samples/throttle/SafepointLoad.java" || { echo "FAIL: javac"; exit 1; }
( cd "$T" && exec bash -c 'echo $$ > '"$CG"'/cgroup.procs; exec java -Xms64m -Xmx256m -XX:+UseG1GC -Xlog:gc*,safepoint:file='"$T"'/gc.log:uptime,level,tags -cp classes SafepointLoad 8 8 300 0 100 2048' ) >"$T/console.log" 2>&1 &
JPID=$!
wait_for 30 test -s "$T/gc.log" || { echo "FAIL: the JVM wrote no gc.log: $(head -c 600 "$T/console.log")"; exit 1; }
"$BIN" --plain --json --interval 500 --pid "$JPID" --record "$T/rec.ndjson" >"$T/live.ndjson" 2>"$T/err" &
SPID=$!
wait "$JPID"; JPID=""
# everything the JVM wrote has been read and judged: the live count of pauses is the report's
"$BIN" --report --json --gc "$T/gc.log" >"$T/alone.json" 2>/dev/null
pauses=$(jq .summary.gc_pauses "$T/alone.json")
live_pauses() { [ "$(grep '"type":"status"' "$T/live.ndjson" | tail -1 | jq .gc_pauses_total)" = "$pauses" ]; }
wait_for 20 live_pauses || fail "live never read the $pauses pauses of gc.log: $(grep '"type":"status"' "$T/live.ndjson" | tail -1)"
n0=$(wc -l <"$T/live.ndjson")
wait_for 10 bash -c "[ \$(grep -c '\"type\":\"status\"' '$T/live.ndjson') -ge \$(( $(grep -c '"type":"status"' "$T/live.ndjson") + 3 )) ]"
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
[ $rc = 0 ] || fail "stwtop exited $rc: $(head -c 600 "$T/err")"
[ "$(wc -l <"$T/live.ndjson")" -gt "$n0" ] || fail "no output after the JVM exited"

# the recording has the JVM start, from the process start time
jq -se 'any(.[]; .kind=="meta" and .jvm_start != null)' "$T/rec.ndjson" >/dev/null || fail "no jvm_start meta line: $(head -3 "$T/rec.ndjson")"
start=$(jq -s '[.[] | select(.kind=="meta" and .jvm_start != null)] | first.jvm_start' "$T/rec.ndjson")
from=$(jq -rs '[.[] | select(.kind=="meta" and .jvm_start != null)] | first.jvm_start_from' "$T/rec.ndjson")
[ "$from" = pid ] || fail "jvm_start_from is '$from', want pid"
grep -q -- "--jvm-start $start" "$T/err" || fail "the live run did not say the start ($start) as --jvm-start: $(head -c 600 "$T/err")"

live_set() { jq -r 'select(.type=="verdict" and .event=="final") | [.id, .severity, .title] | @tsv' "$T/live.ndjson" | sort; }
live_set >"$T/live.txt"
grep -q . "$T/live.txt" || fail "the live run raised no verdict: $(tail -3 "$T/live.ndjson")"
grep -q "^cpu-throttled-during-stop	crit" "$T/live.txt" || fail "live: no crit cpu-throttled-during-stop: $(cat "$T/live.txt")"

"$BIN" --report --json --gc "$T/gc.log" --replay "$T/rec.ndjson" >"$T/rep.json" 2>"$T/rerr" || fail "report: $(cat "$T/rerr")"
jq -r '.verdicts[] | [.id, .severity, .title] | @tsv' "$T/rep.json" | sort >"$T/rep.txt"
if ! cmp -s "$T/live.txt" "$T/rep.txt"; then
  fail "the replayed report's verdicts differ from the live run's:"; diff "$T/live.txt" "$T/rep.txt" | head -20
fi
jq -e --argjson s "$start" '.jvm.time_axis == "utc" and (.jvm.start_from | test("recorded: the start time of process"))' "$T/rep.json" >/dev/null \
  || fail "report jvm: $(jq -c .jvm "$T/rep.json")"
[ "$(jq -r .jvm.start "$T/rep.json")" = "$(jq -rn --argjson s "$start" '$s / 1000 | strftime("%Y-%m-%dT%H:%M:%S") + "." + ($s % 1000 | tostring | ("00" + .)[-3:]) + "Z"')" ] \
  || fail "report jvm.start $(jq -r .jvm.start "$T/rep.json") is not the recorded $start"
"$BIN" --report --gc "$T/gc.log" --replay "$T/rec.ndjson" >"$T/rep.txt2" 2>/dev/null
grep -q "JVM start .* (from rec.ndjson line .*, recorded: the start time of process" "$T/rep.txt2" \
  || fail "the text report does not print the start: $(grep 'JVM start' "$T/rep.txt2")"
# without the recording's start (what 0.1.0 did) the same report cannot place the log
grep -v '"jvm_start"' "$T/rec.ndjson" >"$T/old.ndjson"
"$BIN" --report --json --gc "$T/gc.log" --replay "$T/old.ndjson" >"$T/old.json" 2>/dev/null
[ "$(jq '.jvm.unanchored_events // 0' "$T/old.json")" -gt 0 ] || fail "control: a recording without the start still anchored the log: $(jq -c .jvm "$T/old.json")"

echo "live: $(wc -l <"$T/live.txt") verdicts, report with the recording: $(wc -l <"$T/rep.txt")"
[ $fails = 0 ] && echo "record_anchor: all passed" || { echo "record_anchor: $fails failed"; exit 1; }
