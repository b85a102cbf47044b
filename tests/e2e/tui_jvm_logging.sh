#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_jvm_logging.sh BIN — the L key (issue 15): on a JVM started with no logging flag
# (tests/fixtures/java/HsperfTarget.java, -Xmx64m), L asks "Turn on GC + safepoint logging
# in JVM PID (VM.log to FILE)? y/N" on the message line; any other key leaves the JVM as it
# is (VM.log list unchanged); y turns it on, and the GC pauses show on the screen from the
# log (the Stops pane names a GC operation, the Lines pane reads stwtop-gc-PID.log); q turns
# it off again (the output gone from VM.log list, the JVM alive). Issue 26: L again says
# why there is nothing to ask; --enable-jvm-logging says no hint to use it; after a
# stwtop is SIGKILLed, the next one's L offers to take its output over (t) or remove it (r).
# Needs javac, java, jcmd.
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
# L again (issue 26: it said "no JVM process is followed, or its logging is on already"
# while a JVM was followed): the true thing
keys L
expect "L: GC logging is on already in JVM $JPID: stwtop turned it on \(VM.log to /tmp/stwtop-gc-$JPID.log\)" 5
grep -q 'no JVM process is followed' "$TMPD/screen" && fail "L again: says no JVM is followed" || ok "L again: says why"
keys q
expect 'EXITED rc=0' 15
grep -Eq "JVM logging turned off again \(output #[0-9]+ removed" "$TMPD/err" && ok "q: said it turned logging off" \
	|| fail "q: $(tail -3 "$TMPD/err")"
outputs >"$TMPD/after"
cmp -s "$TMPD/before" "$TMPD/after" && ok "q: the added output removed, the others as before" \
	|| fail "q: outputs $(cat "$TMPD/after")"
kill -0 $JPID 2>/dev/null && ok "the JVM lives on" || fail "the JVM died"

# --enable-jvm-logging (issue 26: it first printed the hint to use --enable-jvm-logging):
# the logging is turned on before any hint is said, so the hint on how to turn it on is
# never said, on the screen or in the log; q turns it off again
fresh
start 160 48 "XDG_STATE_HOME='$TMPD/state' '$BIN' --pid $JPID --enable-jvm-logging"
expect "stwtop-gc-$JPID.log" 15
grep -q 'no GC log file' "$TMPD/screen" && fail "--enable-jvm-logging: the hint is on the screen" ||
	ok "--enable-jvm-logging: no hint to turn logging on"
keys q
expect 'EXITED rc=0' 15
grep -q 'JVM logging turned on' "$TMPD/state/stwtop/stwtop.log" && ok "the log says it turned logging on" ||
	fail "the log: $(tail -5 "$TMPD/state/stwtop/stwtop.log")"
grep -q 'hint: no GC log file' "$TMPD/state/stwtop/stwtop.log" &&
	fail "the log has the hint: $(grep -o 'hint: no GC log file.\{60\}' "$TMPD/state/stwtop/stwtop.log")" ||
	ok "the log has no hint to turn logging on"
outputs >"$TMPD/after2"
cmp -s "$TMPD/before" "$TMPD/after2" && ok "q: the output removed again" || fail "q: outputs $(cat "$TMPD/after2")"

# stwtop SIGKILLed leaves the output it added (issue 26: the next stwtop said "already
# logs GC ... nothing turned on"): the next one's L recognises stwtop's own file name
# and offers to take it over (t: followed, removed when it quits) or remove it (r)
killed_run() { # leaves an output to /tmp/stwtop-gc-$JPID.log, its stwtop killed
	fresh
	start 160 48 "'$BIN' --pid $JPID --enable-jvm-logging"
	expect "stwtop-gc-$JPID.log" 15
	kill -KILL "$(app_pid)"
	expect 'EXITED rc=137' 10
	outputs | grep -q "file=/tmp/stwtop-gc-$JPID.log" && ok "the killed stwtop's output stays in the JVM" ||
		fail "no output left: $(outputs)"
}
for answer in t r; do
	killed_run
	fresh
	start 160 48 "'$BIN' --pid $JPID"
	# the first screen says what was left and what L does, not "no GC log file"
	expect "note: JVM $JPID writes GC and safepoints to /tmp/stwtop-gc-$JPID.log, an output a stwtop that was killed" 15
	grep -q 'no GC log file' "$TMPD/screen" && fail "the hint says there is no GC log" || ok "no 'no GC log file' hint"
	keys L
	expect "JVM $JPID logs to /tmp/stwtop-gc-$JPID.log, an output a killed stwtop left: t take it over .*, r remove it" 20
	keys "$answer"
	if [ "$answer" = t ]; then
		expect "took over the output an earlier stwtop left" 10
		expect "stwtop-gc-$JPID.log:[0-9]+ " 20
		outputs | grep -q "file=/tmp/stwtop-gc-$JPID.log" && ok "t: the output is kept while stwtop runs" ||
			fail "t: the output is gone"
		expect_gone 'a stwtop that was killed' 5
		keys q
		expect 'EXITED rc=0' 15
		outputs >"$TMPD/after-t"
		cmp -s "$TMPD/before" "$TMPD/after-t" && ok "t: removed when stwtop quit" || fail "t: outputs $(cat "$TMPD/after-t")"
	else
		expect "removed the output an earlier stwtop left" 15
		outputs >"$TMPD/after-r"
		cmp -s "$TMPD/before" "$TMPD/after-r" && ok "r: removed at once" || fail "r: outputs $(cat "$TMPD/after-r")"
		keys q
		expect 'EXITED rc=0' 15
	fi
done
# --enable-jvm-logging after a killed stwtop: takes its output over (no "nothing turned
# on"), and removes it when it quits
killed_run
fresh
start 160 48 "XDG_STATE_HOME='$TMPD/state3' '$BIN' --pid $JPID --enable-jvm-logging"
expect "stwtop-gc-$JPID.log:[0-9]+ " 20
keys q
expect 'EXITED rc=0' 15
grep -q 'took over the output an earlier stwtop added' "$TMPD/state3/stwtop/stwtop.log" &&
	ok "--enable-jvm-logging took the output over" || fail "--enable-jvm-logging: $(grep -i 'logging' "$TMPD/state3/stwtop/stwtop.log" | tail -3)"
grep -q 'nothing turned on' "$TMPD/state3/stwtop/stwtop.log" && fail "it said nothing was turned on" || ok "no 'nothing turned on'"
outputs >"$TMPD/after-e"
cmp -s "$TMPD/before" "$TMPD/after-e" && ok "--enable-jvm-logging: removed when stwtop quit" ||
	fail "--enable-jvm-logging: outputs $(cat "$TMPD/after-e")"
kill -0 $JPID 2>/dev/null && ok "the JVM lives on after all that" || fail "the JVM died"
grep -q "Full thread dump" "$TMPD/app" && fail "a thread dump on the JVM's stdout"
[ $fails = 0 ] && echo PASS || { echo "$fails failure(s)"; exit 1; }
