#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_search.sh BIN — / searches the lines the Lines pane holds (every source,
# or the one s picked; ASCII case ignored): the prompt is the bottom line, Enter
# searches, Esc cancels; the cursor of every pane goes to the matched line's
# time and the Lines pane shows that line; n / N the next / previous match,
# wrapping round; "no match for X" when no line has it. On the gc-stop demo, whose
# gc.log has "Pause Full" on two lines (found with grep, not written here).
source "$(dirname "$0")/lib/tmux.bash" "$@"

DEMO=$(cd "$TESTS/../data/demo/gc-stop" && pwd -P)
mapfile -t hits < <(grep -in 'pause full' "$DEMO/gc.log" | cut -d: -f1)
[ "${#hits[@]}" = 2 ] && ok "gc.log has two Pause Full lines (${hits[*]})" || fail "gc.log Pause Full lines: ${hits[*]}"
# HH:MM:SS.mmm -> the start of its 500 ms column as the axis writes it (HH:MM:SS.d)
col() { awk -v t="$1" 'BEGIN { split(t, a, ":"); ms = int(a[3] * 1000 + 0.5); ms -= ms % 500;
	printf "%s:%s:%02d.%d\n", a[1], a[2], int(ms / 1000), (ms % 1000) / 100 }'; }
# the time the bottom line gives for the match of line $1 of gc.log
match_time() { grep -oE "gc\.log:$1 at [0-9:.]+" "$TMPD/screen" | head -1 | cut -d' ' -f3; }
lines_has() { sed -n '/^─ Lines /,$p' "$TMPD/screen" | grep -Eq "^$1 "; }

start 120 40 "TERM=tmux-256color '$BIN' --demo=gc-stop --demo-speed 40"
expect 'replay finished' 30
keys g
settle
home=$(cursor_times | cut -d' ' -f1)

# the prompt on the bottom line; Esc cancels and nothing moves
keys /
expect '^ / +Enter: search the Lines pane, Esc: cancel' 5
keys -l 'Pause'
expect '^ /Pause +Enter: search' 5
keys Escape
expect 'search cancelled' 5
expect_cursor "$home"

# Enter: the first match after the cursor, whatever its case
keys / && keys -l 'PAUSE FULL' && keys Enter
expect "^ /PAUSE FULL: gc\\.log:${hits[0]} at [0-9:.]+ \\(n next, N previous\\)" 5
t1=$(match_time "${hits[0]}")
expect_cursor "$(col "$t1")"
lines_has "gc\\.log:${hits[0]}" && ok "Lines shows gc.log:${hits[0]}" || fail "Lines lacks gc.log:${hits[0]}"
# the matched line is drawn in the selection's colours: a background no other line of the pane has
screen_ansi "$TMPD/ansi"
bg=$(grep -a "gc\.log:${hits[0]}"$'\e' "$TMPD/ansi" | grep -oaE $'\e\\[48;5;[0-9]+m' | head -1)
n_bg=$(grep -aE $'^(\e\\[[0-9;]*m)*[a-z]+\\.log:[0-9]+' "$TMPD/ansi" | grep -acF "$bg")
[ -n "$bg" ] && [ "$n_bg" = 1 ] && ok "the match alone is highlighted" || fail "highlight: '$bg' on $n_bg lines"

# n: the next; n again wraps round to the first; N from the first wraps to the last
keys n
expect "^ /PAUSE FULL: gc\\.log:${hits[1]} at [0-9:.]+ \\(n next" 5
t2=$(match_time "${hits[1]}")
[ "$t2" \> "$t1" ] && ok "n: a later line ($t1 -> $t2)" || fail "n: $t1 -> $t2"
expect_cursor "$(col "$t2")"
lines_has "gc\\.log:${hits[1]}" && ok "Lines shows gc.log:${hits[1]}" || fail "Lines lacks gc.log:${hits[1]}"
keys n
expect "gc\\.log:${hits[0]} at $t1, wrapped to the oldest" 5
expect_cursor "$(col "$t1")"
keys N
expect "gc\\.log:${hits[1]} at $t2, wrapped to the newest" 5
keys N
expect "gc\\.log:${hits[0]} at $t1 \\(n next" 5

# no match: said, and the cursor stays
keys / && keys -l 'no such words' && keys Enter
expect '^ no match for no such words' 5
expect_cursor "$(col "$t1")"

# s narrows the search to the source the Lines pane shows
keys s
expect 'only gc.log \(s: all\)' 5
keys / && keys -l 'allocstall' && keys Enter
expect '^ no match for allocstall in gc.log' 5
keys s s s s s
expect 'Lines: all sources' 5
keys / && keys -l 'allocstall' && keys Enter
expect '^ /allocstall: vmstat\.log:[0-9]+ at ' 5
keys q
expect 'EXITED rc=0' 10
finish
