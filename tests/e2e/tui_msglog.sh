#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_msglog.sh BIN — what is written to stderr while the dashboard owns the screen goes
# to one log per user ($XDG_STATE_HOME/stwtop/stwtop.log), not to a new /tmp file per run:
#   - a run that writes nothing leaves no file (and an existing log byte for byte as it was);
#   - a run that writes (a note: a GC log's JVM start, which the bottom line shows for a
#     moment) appends after a "--- stwtop pid N" line, and says where at exit;
#   - past 1 MiB the log is moved to stwtop.log.1 first (bounded);
#   - nothing named stwtop-*.log appears in TMPDIR.
source "$(dirname "$0")/lib/tmux.bash" "$@"
ST=$TMPD/state
mkdir -p "$TMPD/tmp"
run_dash() { # ARGS...: the dashboard until q
	fresh
	start 120 40 "XDG_STATE_HOME='$ST' TMPDIR='$TMPD/tmp' TERM=tmux-256color '$BIN' $*"
	expect 'q quit|\? help' 20
	keys q
	expect 'EXITED' 10
}
X=$TESTS/samples/combined/throttle-stop
G=$X/gc.log
QUIET="--nginx '$X/logs/access.log' --nginx-conf '$X/nginx.conf:lab'"   # notes nothing
run_dash "$QUIET"
[ ! -e "$ST/stwtop/stwtop.log" ] && ok "nothing written: no log file" || fail "a log was left: $(head -c 300 "$ST/stwtop/stwtop.log")"
mkdir -p "$ST/stwtop"; printf 'an earlier run\n' >"$ST/stwtop/stwtop.log"
run_dash "$QUIET"
[ "$(cat "$ST/stwtop/stwtop.log")" = "an earlier run" ] && ok "nothing written: the log as it was" ||
	fail "log changed: $(head -c 300 "$ST/stwtop/stwtop.log")"
run_dash --gc "'$G'"
screen
tr -d '\n' <"$TMPD/screen" | grep -q "messages written while the dashboard was on screen are at the end of $ST/stwtop/stwtop.log" &&
	ok "named at exit" || fail "not named at exit: $(cat "$TMPD/screen")"
head -1 "$ST/stwtop/stwtop.log" | grep -qx "an earlier run" && grep -q '^--- stwtop pid [0-9]*, 20' "$ST/stwtop/stwtop.log" &&
	grep -q '^stwtop: JVM start 2026-11-29T19:23:38' "$ST/stwtop/stwtop.log" && ok "appended after a header line" ||
	fail "log: $(head -5 "$ST/stwtop/stwtop.log")"
# bounded: past 1 MiB the old log moves aside
head -c 1100000 /dev/zero | tr '\0' 'x' >"$ST/stwtop/stwtop.log"
run_dash "$QUIET"
[ "$(stat -c %s "$ST/stwtop/stwtop.log.1")" = 1100000 ] && [ ! -e "$ST/stwtop/stwtop.log" ] && ok "moved to stwtop.log.1 past 1 MiB" ||
	fail "rotation: $(ls -l "$ST/stwtop")"
[ -z "$(ls "$TMPD/tmp" | grep '^stwtop-.*\.log$')" ] && ok "no stwtop-*.log in TMPDIR" || fail "TMPDIR: $(ls "$TMPD/tmp")"
finish
