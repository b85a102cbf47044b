#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_plain.sh BIN — no usable terminal means line mode, never a crash: stdout a
# pipe, TERM=dumb. TERM unset (kubectl exec -it) or a TERM with no terminfo entry
# gets the built-in xterm-256color entry instead (what a static binary in a pod
# without terminfo needs).
source "$(dirname "$0")/lib/tmux.bash" "$@"

# 1. stdout is not a terminal (kubectl exec without -t, a pipe to a log shipper)
"$BIN" --demo --demo-speed 40 >"$TMPD/out" 2>"$TMPD/err" </dev/null
rc=$?
[ $rc = 0 ] && ok "piped demo exits 0" || fail "piped demo exited $rc"
grep -q 'is not a terminal; using line mode (--plain)' "$TMPD/err" && ok "says why it uses line mode" \
	|| { fail "no fallback message"; cat "$TMPD/err"; }
grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} last 1 s: stops [0-9]+.*\| since start: gc [0-9]+ pauses.*, verdicts [0-9]+ crit' "$TMPD/out" && ok "status lines" \
	|| { fail "no status line"; head -5 "$TMPD/out"; }
grep -Eq 'crit new +cpu-throttled-during-stop' "$TMPD/out" && ok "verdict lines" || fail "no verdict line"
if grep -q $'\e' "$TMPD/out"; then fail "escape sequences written into a pipe"; else ok "no escape sequences in the pipe"; fi

# 2. TERM=dumb on a real terminal
start 100 30 "TERM=dumb '$BIN' --demo --demo-speed 40"
expect 'stwtop: TERM=dumb cannot move the cursor; using line mode \(--plain\)' 10
expect 'stops [0-9]+.*since start: .*verdicts' 20
expect 'EXITED rc=0' 30
$T kill-server

# 3. TERM unset on a real terminal (`kubectl exec -it` sets none): the dashboard on the
#    built-in xterm-256color entry, said on the message line, and TMPDIR clean afterwards;
#    TERM empty is the same
for how in "env -u TERM" "env TERM="; do
	T="tmux -L $SOCK-b$((++nb)) -f /dev/null"
	rm -rf "$TMPD/tmp-b"; mkdir -p "$TMPD/tmp-b"
	start 120 40 "TMPDIR='$TMPD/tmp-b' $how '$BIN' --demo --demo-speed 20"
	expect 'TERM is not set: using the built-in xterm-256color; set TERM to match your terminal' 10
	expect '─ Stops ' 5
	expect '─ Verdicts ' 5
	expect '─ Heap ' 5
	grep -q 'using line mode' "$TMPD/screen" && fail "$how: line mode on a terminal" || ok "$how: the dashboard, not line mode"
	keys q
	expect 'EXITED rc=0' 10
	left=$(ls -A "$TMPD/tmp-b")
	[ -z "$left" ] && ok "$how: temporary terminfo removed at exit" || fail "$how: left behind in TMPDIR: $left"
	$T kill-server
done

# 4. a TERM with no terminfo entry: the built-in xterm-256color entry, in a private
#    TMPDIR that must be clean again afterwards
T="tmux -L $SOCK-c -f /dev/null"
mkdir -p "$TMPD/tmp"
start 120 40 "TMPDIR='$TMPD/tmp' TERM=stwtop-no-such-term '$BIN' --demo --demo-speed 20"
expect 'no terminfo entry for TERM=stwtop-no-such-term: using the built-in xterm-256color' 10
expect '─ Stops ' 5
ls "$TMPD/tmp" | grep -q '^stwtop-ti-' && ok "the entry was written to a temporary dir" || fail "no temporary terminfo dir"
# an important message stays until a key (issue 26: it was replaced within 0.3 s by a
# routine one): still there when the replay is done (its routine "replay finished" did
# not replace it), gone at the next key, whose own message shows
expect 'replay done' 30
expect 'no terminfo entry for TERM=stwtop-no-such-term: using the built-in xterm-256color' 1
keys z
expect 'times in local time' 5
grep -q 'no terminfo entry' "$TMPD/screen" && fail "the message outlived the key" || ok "the key ended the message"
keys q
expect 'EXITED rc=0' 10
left=$(ls -A "$TMPD/tmp")
[ -z "$left" ] && ok "temporary terminfo and log removed at exit" || fail "left behind in TMPDIR: $left"

# 5. --plain on a terminal: line mode by choice, no fallback message
$T kill-server
T="tmux -L $SOCK-d -f /dev/null"
start 100 30 "TERM=tmux-256color '$BIN' --demo --demo-speed 40 --plain"
expect 'EXITED rc=0' 30
$T capture-pane -p -J -S -1000 -t e2e:0.0 >"$TMPD/history"
grep -q 'using line mode' "$TMPD/history" && fail "--plain printed a fallback message" || ok "--plain is line mode by choice"
grep -Eq 'warn new +ttsp-spike' "$TMPD/history" && ok "--plain prints verdicts" || fail "--plain printed no verdict"
finish
