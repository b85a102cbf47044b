#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_cursor.sh BIN — one cursor for every pane: after the demo, the cursor time
# shown on the time axis, in the Stops readout and in the Lines title moves
# together with Left/Right, and what the panes read out is the data at that time.
source "$(dirname "$0")/lib/tmux.bash" "$@"

# cursor_times and expect_cursor are in lib/tmux.bash
start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30
# the replay's end put the cursor on the newest incident: the ttsp spike's start
expect_cursor 19:24:06.0
grep -q 'at 19:24:06.0: ThreadDump 701 ms, 698 ms to safepoint' "$TMPD/screen" && ok "Stops reads the 701 ms stop" \
	|| fail "Stops readout at 19:24:06.0"
grep -Eq '^─ CPU .*throttled 1.03 s \(5/5 periods\)' "$TMPD/screen" && ok "CPU reads the throttling at the same time" \
	|| fail "CPU readout at 19:24:06.0"
grep -Eq '^gc.log:198 ' "$TMPD/screen" && ok "Lines shows the safepoint line of that stop" || fail "Lines lacks gc.log:198"
grep -q ' CURSOR ' "$TMPD/screen" && ok "header says the cursor is not following" || fail "header lacks CURSOR"

keys Left Left Left Left
expect_cursor 19:24:04.0
keys Right Right
expect_cursor 19:24:05.0
grep -Eq '^─ Upstream .*connect.*1s:' "$TMPD/screen" && ok "Upstream reads slow connects at 19:24:05" \
	|| fail "Upstream readout at 19:24:05.0"
keys h
expect_cursor 19:24:04.5
keys '>'    # 10 columns
expect_cursor 19:24:09.5
# zoom keeps the cursor's time, and the footer says the scale
keys +
expect '200 ms/col' 5
expect_cursor 19:24:09.4
keys - - -
expect '2.00 s/col' 5
expect_cursor 19:24:08
# follow: back to the newest data, every pane with it
keys f
expect ' FOLLOW ' 5
expect_cursor 19:24:24
keys q
expect 'EXITED rc=0' 10
finish
