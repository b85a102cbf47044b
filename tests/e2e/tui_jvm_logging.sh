#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_jvm_logging.sh BIN — the L key (issue 15): on a JVM started with no logging flag
# (tests/fixtures/java/HsperfTarget.java, -Xmx64m), L asks "Turn on GC + safepoint logging
# in JVM PID (VM.log to FILE)? y/N" on the message line; any other key leaves the JVM as it
# is (VM.log list unchanged); y turns it on, and the GC pauses show on the screen from the
# log (the Stops pane names a GC operation, the Lines pane reads stwtop-gc-PID.log); q turns
# it off again (the output gone from VM.log list, the JVM alive). Needs javac, java, jcmd.
source "$(dirname "$0")/lib/tmux.bash" "$@"
for c in javac java jcmd; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
javac -d "$TMPD/classes" "$TESTS/fixtures/java/HsperfTarget.java" || { echo "FAIL: javac"; exit 1; }
( cd "$TMPD" && exec java -Xmx64m -cp classes HsperfTarget 300 ) >"$TMPD/app" 2>&1 &
JPID=$!
trap 'kill -KILL $JPID 2>/dev/null; rm -f /tmp/stwtop-gc-$JPID.log*; cleanup' EXIT
for i in $(seq 1 100); do grep -q READY "$TMPD/app" && break; sleep 0.1; done
sleep 1
outputs() { jcmd $JPID VM.log list 2>&1 | grep -E '^ #[0-9]+:'; }
outputs >"$TMPD/before"
start 160 48 "'$BIN' --pid $JPID 2>'$TMPD/err'"
expect 'hsperfdata' 15
expect 'no GC log file' 10
keys L
expect "Turn on GC \+ safepoint logging in JVM $JPID \(VM.log to /tmp/stwtop-gc-$JPID.log\)\? y/N" 5
keys n
expect 'JVM logging: not turned on' 5
outputs >"$TMPD/after-n"
cmp -s "$TMPD/before" "$TMPD/after-n" && ok "n: the JVM's outputs unchanged" || fail "n changed the outputs: $(cat "$TMPD/after-n")"
keys L
expect "y/N" 5
keys y
expect "stwtop-gc-$JPID.log" 15
expect 'Stops .* at [0-9:]+: G1CollectForAllocation' 20
expect "stwtop-gc-$JPID.log:[0-9]+ .*GC\([0-9]+\) Pause Young" 20
outputs | grep -q "file=/tmp/stwtop-gc-$JPID.log" && ok "y: VM.log list shows the output" || fail "y: no output listed"
screen; grep -q 'no GC log file' "$TMPD/screen" && fail "y: the hint to get a GC log is still shown" || ok "y: the hint is gone"
keys q
expect 'EXITED rc=0' 15
grep -Eq "JVM logging turned off again \(output #[0-9]+ removed" "$TMPD/err" && ok "q: said it turned logging off" \
	|| fail "q: $(tail -3 "$TMPD/err")"
outputs >"$TMPD/after"
cmp -s "$TMPD/before" "$TMPD/after" && ok "q: the added output removed, the others as before" \
	|| fail "q: outputs $(cat "$TMPD/after")"
kill -0 $JPID 2>/dev/null && ok "the JVM lives on" || fail "the JVM died"
grep -q "Full thread dump" "$TMPD/app" && fail "a thread dump on the JVM's stdout"
[ $fails = 0 ] && echo PASS || { echo "$fails failure(s)"; exit 1; }
