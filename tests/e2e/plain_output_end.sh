#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# plain_output_end.sh BIN — line mode ends when nobody reads it any more (issue 28,
# ../shared/DESIGN.md contracts of 2026-12-06): a write error on stdout (the reader
# closed the pipe: `| head -1`; a full disk: /dev/full) ends stwtop with a message on
# stderr and exit status 1, after it turned off the JVM logging it had turned on; SIGHUP
# (the SSH session dropped) ends it like SIGTERM, with exit 0 and the final verdicts.
# Real JVM for the undo: tests/fixtures/java/HsperfTarget.java, flagless, and jcmd.
set -u
BIN=${1:?usage: plain_output_end.sh path/to/stwtop}
TESTS=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""
cleanup() { [ -n "$JPID" ] && { kill -KILL "$JPID" 2>/dev/null; rm -f "/tmp/stwtop-gc-$JPID.log"*; }; rm -rf "$T"; }
trap cleanup EXIT
pass=0 fails=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
printf '[0.010s][info][gc] Using G1\n' >"$T/gc.log"

# 1. the reader goes away after one line: stwtop notices at its next write
start=$(date +%s%N)
timeout 10 bash -c "'$BIN' --plain --gc '$T/gc.log' --interval 100 2>'$T/err1' | head -1 >'$T/out1'; exit \${PIPESTATUS[0]}"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc = 1 ] && ok "| head -1: exit 1" || fail "| head -1: exit $rc (124 = still running after 10 s)"
[ "$ms" -lt 3000 ] && ok "| head -1: ended ${ms} ms after it started" || fail "| head -1: took ${ms} ms"
grep -q 'stwtop: writing to standard output: Broken pipe: stopping' "$T/err1" && ok "| head -1: says why" \
	|| fail "| head -1: stderr: $(tail -2 "$T/err1")"
[ "$(wc -l <"$T/out1")" = 1 ] && ok "| head -1: the reader got its line" || fail "| head -1: reader got $(wc -l <"$T/out1") lines"

# 2. a full disk, NDJSON: the same, with ENOSPC named
timeout 10 "$BIN" --plain --json --gc "$T/gc.log" --interval 100 >/dev/full 2>"$T/err2"
rc=$?
[ $rc = 1 ] && ok "/dev/full: exit 1" || fail "/dev/full: exit $rc"
grep -q 'writing to standard output: No space left on device: stopping' "$T/err2" && ok "/dev/full: says why" \
	|| fail "/dev/full: stderr: $(tail -2 "$T/err2")"

# 3. SIGHUP ends it as SIGTERM does: exit 0, the last status written
"$BIN" --plain --json --gc "$T/gc.log" --interval 100 >"$T/out3" 2>"$T/err3" &
P=$!
sleep 1
kill -HUP $P
for _ in $(seq 50); do kill -0 $P 2>/dev/null || break; sleep 0.1; done
if kill -0 $P 2>/dev/null; then
	fail "SIGHUP: still running 5 s later"; kill -KILL $P
else
	wait $P; rc=$?
	[ $rc = 0 ] && ok "SIGHUP: exit 0" || fail "SIGHUP: exit $rc"
	jq -se 'length > 0 and all(.[]; .type == "status" or .type == "verdict")' "$T/out3" >/dev/null \
		&& ok "SIGHUP: stdout is whole NDJSON" || fail "SIGHUP: stdout not NDJSON: $(tail -c 200 "$T/out3")"
fi

# 4. the JVM logging it turned on is turned off when the reader goes away, and by SIGHUP
if command -v javac >/dev/null && command -v jcmd >/dev/null; then
	javac -d "$T/classes" "$TESTS/fixtures/java/HsperfTarget.java" || { echo "FAIL: javac"; exit 1; }
	( cd "$T" && exec java -Xmx64m -cp classes HsperfTarget 120 ) >"$T/app" 2>&1 &
	JPID=$!
	for _ in $(seq 100); do grep -q READY "$T/app" && break; sleep 0.1; done
	sleep 1
	outputs() { jcmd "$JPID" VM.log list 2>&1 | grep -E '^ #[0-9]+:'; }
	outputs >"$T/before"
	# the reader takes lines until stwtop has said its logging is on, then goes away
	timeout 30 bash -c "'$BIN' --plain --pid $JPID --enable-jvm-logging --interval 200 2>'$T/err4' |
		{ for i in \$(seq 25); do read -r l || break; done; }; exit \${PIPESTATUS[0]}"
	rc=$?
	[ $rc = 1 ] && ok "JVM, reader gone: exit 1" || fail "JVM, reader gone: exit $rc ($(tail -2 "$T/err4"))"
	grep -q "stwtop-gc-$JPID.log" "$T/err4" && ok "JVM: logging was turned on" || fail "JVM: logging never turned on: $(tail -3 "$T/err4")"
	grep -Eq "JVM logging turned off again \(output #[0-9]+ removed" "$T/err4" && ok "JVM, reader gone: said it turned logging off" \
		|| fail "JVM, reader gone: $(tail -3 "$T/err4")"
	outputs >"$T/after"
	cmp -s "$T/before" "$T/after" && ok "JVM, reader gone: its outputs as before" || fail "JVM: outputs now $(cat "$T/after")"
	# SIGHUP with the logging on
	"$BIN" --plain --pid "$JPID" --enable-jvm-logging --interval 200 >"$T/out5" 2>"$T/err5" &
	P=$!
	for _ in $(seq 100); do outputs | grep -q "stwtop-gc-$JPID.log" && break; sleep 0.1; done
	outputs | grep -q "stwtop-gc-$JPID.log" && ok "JVM, SIGHUP: logging on before the hangup" || fail "JVM, SIGHUP: logging never on"
	kill -HUP $P
	for _ in $(seq 100); do kill -0 $P 2>/dev/null || break; sleep 0.1; done
	kill -0 $P 2>/dev/null && { fail "JVM, SIGHUP: still running"; kill -KILL $P; }
	wait $P; rc=$?
	[ $rc = 0 ] && ok "JVM, SIGHUP: exit 0" || fail "JVM, SIGHUP: exit $rc"
	outputs >"$T/after5"
	cmp -s "$T/before" "$T/after5" && ok "JVM, SIGHUP: logging turned off" || fail "JVM, SIGHUP: outputs now $(cat "$T/after5")"
else
	fail "javac/jcmd missing: scripts/install-deps.sh installs openjdk-17-jdk-headless"
fi

echo "plain_output_end: $pass passed, $fails failed"
[ $fails = 0 ]
