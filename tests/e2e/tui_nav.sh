#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_nav.sh BIN — the keys tui_keys.sh and tui_cursor.sh do not press: Enter on
# a chosen verdict (not the first) puts every pane's cursor on that verdict's
# time; j/k select; PgUp/PgDn move one screen, shift-left/right 10 columns,
# Home/End and g/G to the oldest/newest data; space pauses; Enter on a chart
# pane makes it tall and on Lines wraps long lines.
source "$(dirname "$0")/lib/tmux.bash" "$@"

ms_of() { # HH:MM:SS[.f] -> ms of the day
	local h m s
	IFS=: read -r h m s <<<"$1"
	awk -v h="$h" -v m="$m" -v s="$s" 'BEGIN { printf "%d\n", ((h * 60 + m) * 60 + s) * 1000 + 0.5 }'
}
cursor() { cursor_times | cut -d' ' -f1; }
# the number of chart columns: the axis row after its gutter
ncols() { screen; grep -E '^UTC ' "$TMPD/screen" | python3 -c 'import sys; print(len(sys.stdin.readline().rstrip("\n")) - 6)'; }
rows_of() { # PANE: its body rows
	screen
	awk -v p="^─ $1 " '$0 ~ p { on = 1; next } on && /^(─ |UTC )/ { exit } on { n++ } END { print n + 0 }' "$TMPD/screen"
}

start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
expect_cursor 19:24:06.0

# --- j/k select, Enter on the third and the fourth verdict ---
keys j
expect '^▸ CRIT .*cpu-throttled-during-stop' 5
keys k
expect '^▸ WARN .*ttsp-spike' 5
keys j j
expect '^▸ CRIT .*accept-queue-overflow' 5
keys Enter
expect 'accept-queue-overflow: from 19:24:04.337 to 19:24:07.337 - the cursor of every pane is there now' 5
# its worst second of stepped connects, in every pane
expect_cursor 19:24:04.5
grep -Eq '^─ CPU .*throttled 974 ms \(5/5 periods\)' "$TMPD/screen" && ok "CPU reads 19:24:04.5" || fail "CPU readout not at 19:24:04.5"
grep -Eq '^─ Upstream .*connect 1s:8 2s:33' "$TMPD/screen" && ok "Upstream reads 19:24:04.5" || fail "Upstream readout not at 19:24:04.5"
keys Escape
expect_gone 'the cursor of every pane is there now' 5
keys j
expect '^▸ INFO .*g1-not-shrinking' 5
keys Enter
expect 'g1-not-shrinking: from 19:23:38.592 to 19:24:14.454' 5
expect_cursor 19:24:14.0
grep -Eq '^─ CPU .*throttled 0 ms \(0/5 periods\)' "$TMPD/screen" && ok "CPU reads 19:24:14.0" || fail "CPU readout not at 19:24:14.0"
grep -Eq '^─ Upstream .* 240 req/s' "$TMPD/screen" && ok "Upstream reads 19:24:14.0" || fail "Upstream readout not at 19:24:14.0"
keys Escape
expect_gone 'g1-not-shrinking: from' 5

# --- moving the cursor (at 200 ms per column, so a page stays inside the data) ---
keys +
expect '200 ms/col' 5
t0=$(cursor); n=$(ncols)
keys S-Left
wait_gone "▲$t0" 5
t1=$(cursor)
[ $(( $(ms_of "$t0") - $(ms_of "$t1") )) = 2000 ] && ok "shift-left: 10 columns back ($t0 -> $t1)" || fail "shift-left: $t0 -> $t1"
keys S-Right
expect_cursor "$t0"
keys PPage
wait_gone "▲$t0" 5
t2=$(cursor)
[ $(( $(ms_of "$t0") - $(ms_of "$t2") )) = $(( (n - 1) * 200 )) ] && ok "PgUp: one screen back ($n columns: $t0 -> $t2)" \
	|| fail "PgUp: $t0 -> $t2 with $n columns"
keys NPage
expect_cursor "$t0"
# Home and g: the oldest data; nothing before it
keys Home
wait_gone "▲$t0" 5
home=$(cursor)
[ "$(ms_of "$home")" -lt "$(ms_of "$t2")" ] && ok "Home: the oldest data ($home)" || fail "Home went to $home"
# keys are handled in order: once p (pause) shows, the moves before it have been made
keys Left PPage S-Left p
expect '^ stwtop .* PAUSED ' 5
keys p
expect_gone ' PAUSED ' 5
[ "$(cursor)" = "$home" ] && ok "nothing before the oldest data" || fail "moved before the oldest: $(cursor)"
grep -Eq '^gc\.log:[0-9]{1,2} ' "$TMPD/screen" && ok "Lines shows the first lines of gc.log" || fail "Lines not at the start"
keys End
wait_gone "▲$home" 5
end=$(cursor)
[ "$(ms_of "$end")" -gt "$(ms_of "$t0")" ] && ok "End: the newest data ($end)" || fail "End went to $end"
keys g
expect_cursor "$home"
keys G
expect_cursor "$end"
# End is where f (follow) puts the cursor too
keys f
expect ' FOLLOW ' 5
expect_cursor "$end"
keys h
expect ' CURSOR ' 5

# --- space pauses and resumes ---
keys Space
expect '^ stwtop .* PAUSED ' 5
keys Space
expect_gone ' PAUSED ' 5

# --- Enter on a chart pane: tall; again: back ---
before=$(rows_of Stops)
keys Tab
expect 'Tab here, Enter: evidence' 5
keys Enter
deadline=$(( $(now_ms) + 5000 ))
while [ "$(rows_of Stops)" -le "$before" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
after=$(rows_of Stops)
[ "$after" -gt "$before" ] && ok "Enter on Stops: tall ($before -> $after rows)" || fail "Enter on Stops: $before -> $after rows"
keys Enter
deadline=$(( $(now_ms) + 5000 ))
while [ "$(rows_of Stops)" != "$before" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
[ "$(rows_of Stops)" = "$before" ] && ok "Enter again: back to $before rows" || fail "Enter again: $(rows_of Stops) rows"

# --- Enter on Lines: long lines wrap (Stops has the focus: back twice is Lines) ---
lines_body() { screen; sed -n '/^─ Lines /,$p' "$TMPD/screen" | sed '1d;$d'; }
lines_body | grep -Eq '^ {8,}[^ ]' && fail "Lines has continuation rows before Enter"
keys BTab BTab Enter
expect 'Lines: long lines wrap' 5
expect '^─ Lines .*, wrapped ─' 5
lines_body | grep -Eq '^ {8,}[^ ]' && ok "Lines: a long line goes on in the next row" || fail "Lines: no wrapped row"
keys Enter
expect 'Lines: long lines are cut' 5
lines_body | grep -Eq '^ {8,}[^ ]' && fail "Lines still wraps" || ok "Lines: cut again"
keys q
expect 'EXITED rc=0' 10
finish
