#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_cut.sh BIN — on small screens: the Heap pane keeps two rows at 60x20
# (committed and used are both drawn), and text that does not fit is cut where a
# word ends, and not after a number ("used 1…" and "on CPU 22…" read as values):
# at 60x20 and 80x24 no ellipsis on the header, the title rows, the verdicts or
# the bottom line follows a digit or a lone letter (but the s of seconds).
source "$(dirname "$0")/lib/tmux.bash" "$@"

rows_of() { # PANE: its body rows
	awk -v p="^─ $1 " '$0 ~ p { on = 1; next } on && /^(─ |UTC )/ { exit } on { n++ } END { print n + 0 }' "$TMPD/screen"
}
# the cut texts: every row but the charts' bodies and the raw lines
cut_rows() { sed -n '/^─ Lines /q;p' "$TMPD/screen" | grep -E '^( stwtop|─ |▸|  (CRIT|WARN|INFO)|● )'; tail -1 "$TMPD/screen"; }
check_cuts() { # WxH
	local n bad
	n=$(cut_rows | grep -o '…' | wc -l)
	# a lone letter before the ellipsis is a word cut short ("was s…"), but for the unit "1.03 s…"
	bad=$(cut_rows | grep -E '([0-9]|[ (][A-Za-rt-z]|[^0-9] s)…')
	[ "$n" -gt 0 ] && ok "$1: $n texts cut" || fail "$1: nothing was cut (the test checks nothing)"
	[ -z "$bad" ] && ok "$1: every cut is at a word's end" || fail "$1: cut inside a word or number: $bad"
}

start 60 20 "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
settle
[ "$(rows_of Heap)" -ge 2 ] && ok "60x20: Heap has $(rows_of Heap) rows" || fail "60x20: Heap has $(rows_of Heap) rows"
check_cuts 60x20
resize 80 24
expect '^─ Verdicts .{50,70}─$' 5
settle
[ "$(rows_of Heap)" -ge 2 ] && ok "80x24: Heap has $(rows_of Heap) rows" || fail "80x24: Heap has $(rows_of Heap) rows"
check_cuts 80x24
keys q
expect 'EXITED rc=0' 10
finish
