#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_summary.sh BIN — the one-screen summary of a terminal too small for panes
# (40x12: a split tmux pane, a phone): the newest verdict's title wraps over at
# least two rows, so it says what the stop was spent on ("reaching the
# safepoint"), the others follow as rows allow, a title cut short ends with …,
# verdicts that do not fit are counted, and the key numbers stay.
source "$(dirname "$0")/lib/tmux.bash" "$@"

start 40 12 "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
expect '^WARN The 701 ms stop at 19:24:06.088' 5
# the newest verdict (ttsp-spike) in two rows or more: its key words are on screen
tr -s ' \n' ' ' <"$TMPD/screen" | grep -q 'The 701 ms stop at 19:24:06.088 was spent reaching the safepoint' \
	&& ok "40x12: the newest verdict says 'was spent reaching the safepoint'" || fail "40x12: the ttsp-spike title is cut before its point"
for b in '^CRIT The 701 ms stop' '^CRIT nginx waited' '^INFO G1 is not giving memory back'; do
	grep -Eq -- "$b" "$TMPD/screen" && ok "40x12 lists /$b/" || fail "40x12 lacks /$b/"
done
grep -Eq '…$' "$TMPD/screen" && ok "a title cut short ends with …" || fail "no … on a cut title"
grep -Eq '^stops: max 701 ms, ttsp 698 ms' "$TMPD/screen" && ok "40x12 keeps the key numbers" || fail "40x12 lacks the key numbers"
[ "$(wc -L <"$TMPD/screen")" -le 40 ] && ok "40x12 fits" || fail "40x12 overflows"
# fewer rows: the newest still gets two, the rest are counted
resize 40 8
expect '^\+[0-9]+ more verdicts?$' 10
grep -A1 '^WARN The 701 ms stop' "$TMPD/screen" | tail -1 | grep -q '^     was spent reaching the safepoint' \
	&& ok "40x8: the newest verdict keeps its second row" || fail "40x8: the newest verdict lost its second row"
# more rows: whole titles
resize 50 20
expect '^     CPU-throttled$' 10
keys q
expect 'EXITED rc=0' 10
finish
