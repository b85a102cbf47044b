#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_header.sh BIN — the header names what is watched. A path that does not
# exist yet says "waiting for NAME" (a typo must not look like a quiet JVM),
# also on a 60x20 screen, until the file appears; a missing directory too.
# With a JVM known (--pid) it says its pid, main class and uptime (the same as
# ps's elapsed time); after a SIGKILL of the JVM it says "gone by HH:MM:SS, ran Ns"
# and stops counting. The JVM part needs javac: without it, that part is skipped.
source "$(dirname "$0")/lib/tmux.bash" "$@"
GC=$SAMPLES/combined/throttle-stop/gc.log

# --- files that are not there yet ---
start 120 40 "TERM=tmux-256color '$BIN' --gc '$TMPD/gc.lgo' --nginx '$TMPD/logs/access.log'"
expect '^ stwtop live: gc\.lgo access\.log .* waiting for gc\.lgo \+1 ' 10
resize 60 20
expect '^ stwtop live: .* waiting [0-9:]+ *$' 5
resize 120 40
expect 'waiting for gc\.lgo \+1 ' 5
head -20 "$GC" >"$TMPD/gc.lgo"
expect '^ stwtop live: .* waiting for access\.log  ' 10
grep -q 'waiting for gc\.lgo' "$TMPD/screen" && fail "gc.lgo still waited for" || ok "gc.lgo is no longer waited for"
# its directory appears, then the file in it
mkdir "$TMPD/logs"
: >"$TMPD/logs/access.log"
expect_gone ' waiting' 10
keys q
expect 'EXITED rc=0' 10

# --- a JVM by its pid ---
if ! command -v javac >/dev/null; then
	echo "skip: javac not installed: the pid/main class/uptime part is not checked"
	finish
fi
fresh
mkdir "$TMPD/j"
javac -d "$TMPD/j/classes" "$TESTS/fixtures/java/ProbeTarget.java" || fail "javac"
( cd "$TMPD/j" && exec java -Xmx64m -Xlog:gc*,safepoint:file="$TMPD/j/gc-%p.log":time,uptime,level,tags \
	-cp classes ProbeTarget 1 120 ) >"$TMPD/j/console.log" 2>&1 &
JPID=$!
trap 'kill $JPID 2>/dev/null; cleanup' EXIT
for _ in $(seq 150); do grep -q READY "$TMPD/j/console.log" && break; sleep 0.1; done
grep -q "READY $JPID" "$TMPD/j/console.log" && ok "the JVM is up (pid $JPID)" || fail "the JVM did not start: $(cat "$TMPD/j/console.log")"
start 120 40 "TERM=tmux-256color '$BIN' --pid $JPID"
expect "^ stwtop live: pid $JPID ProbeTarget, up [0-9]+s; gc-$JPID\\.log " 15
up=$(grep -oE "pid $JPID ProbeTarget, up [0-9]+s" "$TMPD/screen" | grep -oE '[0-9]+s$' | tr -d s)
el=$(ps -o etimes= -p "$JPID" | tr -d ' ')
[ -n "$up" ] && [ $(( el - up )) -ge -1 ] && [ $(( el - up )) -le 2 ] && ok "uptime $up s, ps says $el s" \
	|| fail "uptime '$up' s, ps says $el s"
expect "pid $JPID ProbeTarget, up $((up + 2))s" 10
# the JVM killed (issue 26: the header went on counting "up 1m28s"): it says the JVM
# is gone, by when, and how long it ran, and stops counting
resize 200 40
el=$(ps -o etimes= -p "$JPID" | tr -d ' ')
kill -KILL "$JPID"
expect "pid $JPID ProbeTarget, gone by [0-9:]{8}, ran [0-9]+s; " 10
ran=$(grep -oE 'gone by [0-9:]{8}, ran [0-9]+s' "$TMPD/screen")
r=$(grep -oE '[0-9]+s$' <<<"$ran" | tr -d s)
[ -n "$r" ] && [ $(( r - el )) -ge -2 ] && [ $(( r - el )) -le 2 ] && ok "after the kill: '$ran' (ps said $el s)" ||
	fail "after the kill: '$ran', ps said $el s just before"
# the clock on the right moves on; the JVM part does not
c1=$(sed -n 1p "$TMPD/screen" | grep -oE '[0-9:]{8}( UTC)? *$' | cut -c1-8)
wait_for "^ stwtop live: .* $(date -u -d "1970-01-01T${c1}Z + 2 seconds" +%H:%M:%S)( UTC)? *$" 10 ||
	fail "the clock did not move 2 s on"
grep -qF "$ran" "$TMPD/screen" && ok "2 s later the header still says '$ran'" ||
	fail "the header changed: $(sed -n 1p "$TMPD/screen")"
grep -q ', up [0-9]' "$TMPD/screen" && fail "an uptime is still shown" || ok "no uptime after the JVM is gone"
keys q
expect 'EXITED rc=0' 10
finish
