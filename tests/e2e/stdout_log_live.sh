#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stdout_log_live.sh path/to/stwtop — GC logging that goes to the JVM's stdout, which its
# shell sent to a regular file (`java -Xlog:gc*:stdout ... > app.log`), is followed like a
# log file (issue 15): real JDK 17 JVMs running tests/recordings/programs/HeldCache.java,
# which also prints its own lines in between.
# 1. stdout > file: stwtop --pid (no --gc) follows that file; the status objects count the
#    pauses (jvm.source "gclog"); at the end the live count equals --report's of the file,
#    and the application's lines are not counted as unparsed.
# 2. stdout into a pipe (| cat > file), 3. to /dev/null: not followed, and the hint says
#    there is no GC log file.
# Needs javac, java, jq; skipped (77) without them.
set -u
BIN=$(realpath "${1:?usage: stdout_log_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""
cleanup() {
	for p in "$SPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	pkill -KILL -f "stwtop.test=$$ " 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
for c in javac java jq; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
javac -d "$T/classes" "$D/recordings/programs/HeldCache.java" || { echo "FAIL: javac"; exit 1; }
XLOG="-Xlog:gc*,safepoint:stdout:time,uptime,level,tags"
# the JVM's pid, by its unique arguments (the shell's pipeline hides it)
jvm_pid() { pgrep -f "stwtop.test=$$ " | head -1; }
# watch NAME: stwtop --pid on the running JVM until it exits
watch() {
	local name=$1 i
	for i in $(seq 1 100); do JPID=$(jvm_pid); [ -n "$JPID" ] && break; sleep 0.1; done
	[ -n "$JPID" ] || { fail "$name: the JVM did not start"; return; }
	"$BIN" --plain --json --pid "$JPID" >"$T/$name.ndjson" 2>"$T/$name.err" &
	SPID=$!
	while kill -0 "$JPID" 2>/dev/null; do sleep 0.2; done
	JPID=""
	sleep 2.5
	kill -TERM "$SPID"; wait "$SPID"; SPID=""
}

# 1. stdout to a regular file
( cd "$T" && exec java -Dstwtop.test=$$ -Xmx96m $XLOG -cp classes HeldCache 2 60 4 3 2 50 0 ) >"$T/app.log" 2>&1 &
watch file
grep -q "following $T/app.log (jvm)" "$T/file.err" || fail "file: stdout's file is not followed: $(head -c 600 "$T/file.err")"
live=$(jq -r 'select(.type == "status") | .gc_pauses_total' "$T/file.ndjson" | tail -1)
src=$(jq -r 'select(.type == "status") | .jvm.source' "$T/file.ndjson" | tail -1)
[ "$src" = gclog ] || fail "file: jvm.source $src"
"$BIN" --report --json --gc "$T/app.log" >"$T/report.json"
rep=$(jq .summary.gc_pauses "$T/report.json")
[ "${live:-0}" -gt 0 ] && [ "$live" = "$rep" ] || fail "file: live counted $live pauses, the report of the file $rep"
un=$(jq '.sources[0].unparsed' "$T/report.json")
[ "$un" = 0 ] || fail "file: the application's lines counted as unparsed ($un)"
grep -q "second=" "$T/app.log" || fail "file: the application's own lines are not in the file (the test proves nothing)"
echo "file: $live pauses live, $rep in the report of $T/app.log, $un unparsed"

# 2. stdout into a pipe
( cd "$T" && exec java -Dstwtop.test=$$ -Xmx96m $XLOG -cp classes HeldCache 2 60 4 3 2 50 0 ) 2>&1 | cat >"$T/piped.log" &
watch pipe
grep -q "following .*piped.log" "$T/pipe.err" && fail "pipe: a pipe's far end is followed"
grep -q "hint: no GC log file" "$T/pipe.err" || fail "pipe: no hint that there is no GC log file: $(head -c 600 "$T/pipe.err")"

# 3. stdout to /dev/null
( cd "$T" && exec java -Dstwtop.test=$$ -Xmx96m $XLOG -cp classes HeldCache 2 60 4 3 2 50 0 ) >/dev/null 2>&1 &
watch null
grep -q "following /dev/null" "$T/null.err" && fail "null: /dev/null is followed"
grep -q "hint: no GC log file" "$T/null.err" || fail "null: no hint that there is no GC log file"

[ $fails = 0 ] && echo "stdout_log_live: ok" || echo "stdout_log_live: $fails failed"
exit $((fails > 0))
