#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_escape.sh BIN — text from logs never reaches the terminal as control
# sequences: a GC log line carrying "clear screen" (ESC [2J), "set the window
# title" (ESC ] 0;...BEL) and a UTF-8-encoded C1 CSI is shown escaped in the
# Lines pane; the screen is not cleared and the title is not changed.
source "$(dirname "$0")/lib/tmux.bash" "$@"
S=$SAMPLES/combined/throttle-stop
D=$TMPD/logs
mkdir -p "$D"
# a real safepoint line (gc.log:198), then the hostile ones right after it
sed -n 198p "$S/gc.log" >"$D/gc.log"
printf '[2026-11-29T19:24:06.790+0000][28.463s][info][gc] evil \033[2J\033]0;pwned\007 end\n' >>"$D/gc.log"
printf '[2026-11-29T19:24:06.791+0000][28.464s][info][gc] c1 \302\2332J end\n' >>"$D/gc.log"
printf '[2026-11-29T19:24:06.792+0000][28.465s][info][gc] wide h\303\251llo \342\234\223 \344\270\226\347\225\214 end\n' >>"$D/gc.log"

start 120 40 "TERM=tmux-256color '$BIN' --gc '$D/gc.log'"
expect '─ Lines ' 10
expect 'evil \\e\[2J\\e\]0;pwned\\x07 end' 10
expect 'c1 \\xc2\\x9b2J end' 5
# valid UTF-8 is text, wide characters included (the line still ends in place)
expect 'wide héllo ✓ 世界 end' 5
grep -q '─ Stops ' "$TMPD/screen" && ok "the screen was not cleared" || fail "the screen was cleared"
title=$($T display -p -t e2e:0.0 '#{pane_title}')
[ "$title" != pwned ] && ok "the terminal title was not changed ($title)" || fail "a log line set the terminal title"
screen_ansi "$TMPD/ansi"
if grep -q $'\e\\[2J' "$TMPD/ansi" || grep -q $'\e\\]0;pwned' "$TMPD/ansi"; then
	fail "raw escape sequences on the screen"
else
	ok "no raw escape sequence on the screen"
fi
keys q
expect 'EXITED rc=0' 10
finish
