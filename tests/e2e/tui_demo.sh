#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_demo.sh BIN — `stwtop --demo` tells the sample incident's story: every pane
# comes alive while the replay runs, the verdicts are listed in reading order
# (the stop, its cause, its cost, then the whole-run heap verdict), and after the
# replay the dashboard stays on the final state. p pauses the replay.
source "$(dirname "$0")/lib/tmux.bash" "$@"

row() { grep -n -- "$1" "$TMPD/screen" | head -1 | cut -d: -f1; }

# slow enough to pause in the middle
start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 4"
expect ' replay  FOLLOW ' 10
expect '─ Upstream .*[0-9]+ req/s' 20     # data flowing into the panes
# the header's clock (its zone goes when the demo's title needs the room)
clock() { head -1 "$TMPD/screen" | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}( UTC)? *$'; }
keys p
expect '^ stwtop .* PAUSED( replay)? ' 5
c=$(clock)
# the replay clock must not move while paused: a bounded wait that has to time out
if wait_gone "$c" 3; then fail "the replay went on while paused ($c -> $(clock))"; else ok "the replay stands still while paused"; fi
keys p
expect_gone 'PAUSED' 5
expect_gone "$c" 10 && ok "the replay resumes"
$T kill-server

T="tmux -L $SOCK-b -f /dev/null"
start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30
a=$(row 'ttsp-spike  '); b=$(row 'cpu-throttled-during-stop  '); c=$(row 'accept-queue-overflow  '); d=$(row 'g1-not-shrinking  ')
if [ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] && [ -n "$d" ] && [ "$a" -lt "$b" ] && [ "$b" -lt "$c" ] && [ "$c" -lt "$d" ]; then
	ok "verdicts in reading order: stop (row $a), cause ($b), cost ($c), heap ($d)"
else
	fail "verdict order: ttsp=$a throttled=$b accept=$c heap=$d"
fi
grep -q ' replay done ' "$TMPD/screen" && ok "header says the replay is done" || fail "header lacks 'replay done'"
# the final state stays: the NEW marks expire (the screen keeps being drawn) and nothing else goes
sed -n '/^─ Stops /,/^UTC /p' "$TMPD/screen" >"$TMPD/final"
expect_gone ' NEW ' 20
sed -n '/^─ Stops /,/^UTC /p' "$TMPD/screen" >"$TMPD/later"
cmp -s "$TMPD/final" "$TMPD/later" && ok "the charts stay on the final state" || fail "the charts changed after the replay"
grep -q 'EXITED' "$TMPD/screen" && fail "the demo exited by itself" || ok "the demo waits for q"
# SIGTERM: the terminal is given back (no dashboard left on it) and the exit is clean
kill -TERM "$(app_pid)"
expect 'EXITED rc=0' 10
grep -q '─ Stops ' "$TMPD/screen" && fail "the dashboard stayed on the terminal after SIGTERM" \
	|| ok "SIGTERM restores the terminal"
$T kill-server

# the other recording: a 3.1 s Serial full GC
T="tmux -L $SOCK-c -f /dev/null"
start 120 40 "TERM=tmux-256color '$BIN' --demo=gc-stop --demo-speed 20"
expect 'replay finished' 30
grep -Eq '^▸ CRIT .*long-gc-pause +The JVM stopped 3.10 s for GC work: Pause Full' "$TMPD/screen" \
	&& ok "gc-stop: the full GC first" || fail "gc-stop: first verdict"
grep -q 'GenCollectForAllocation 3.16 s' "$TMPD/screen" && ok "gc-stop: the cursor reads the 3.16 s stop" \
	|| fail "gc-stop: stop readout"
grep -Eq '^4044M .*F' "$TMPD/screen" && ok "gc-stop: the Full GC is marked on the heap" || fail "gc-stop: no F marker"
keys q
expect 'EXITED rc=0' 10
finish
