#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# idle_wakeups.sh BIN — an idle dashboard sleeps: with nothing new in its files
# it wakes about once per --interval (the status tick and its redraw), never
# polls. Counted from /proc/PID/status (voluntary_ctxt_switches: how many times
# the main thread went to sleep, so woke up) over a 10 s window: at --interval
# 1000 at most 25; at --interval 100 the same count must see the ten times
# faster tick (at least 50), which shows the count measures wakeups at all.
# (schedstat's run count also counts preemptions: under ASan on a loaded CI
# machine an idle dashboard showed 18-29 runs, with or without a change.)
source "$(dirname "$0")/lib/tmux.bash" "$@"
G=$SAMPLES/g1-periodic/no-periodic/gc.log
WINDOW=10   # seconds: a measuring window, not a wait for output

runs() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }

# measure INTERVAL: RUNS = runs of an idle dashboard over the window (-1: no measure)
measure() {
	RUNS=-1
	fresh
	start 120 40 "TERM=tmux-256color '$BIN' --gc '$G' --interval $1"
	wait_for '─ Heap ' 15 || { fail "interval $1: no dashboard"; return; }
	local pid
	pid=$(app_pid)
	[ -n "$pid" ] || { fail "interval $1: no stwtop process"; return; }
	# the file has been read and the first frames drawn: from here on it is idle
	wait_for ' FOLLOW ' 5
	local a b
	a=$(runs "$pid")
	sleep "$WINDOW"
	b=$(runs "$pid")
	keys q
	wait_for 'EXITED rc=0' 10 || fail "interval $1: did not exit 0"
	RUNS=$((b - a))
	echo "interval $1: $RUNS runs in $WINDOW s"
}

measure 1000
n=$RUNS
[ "$n" -ge 0 ] && [ "$n" -le 25 ] && ok "idle at --interval 1000: $n wakeups in ${WINDOW} s (<= 25)" \
	|| fail "idle at --interval 1000: $n wakeups in ${WINDOW} s"
measure 100
n=$RUNS
[ "$n" -ge 50 ] && ok "the count sees a faster tick: $n wakeups at --interval 100" \
	|| fail "at --interval 100 only $n wakeups: the count does not measure wakeups"
finish
