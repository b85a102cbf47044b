#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_colors8.sh BIN — an 8-colour terminal (TERM=screen, TERM=xterm): the themes'
# 256-colour roles degrade to the 8 ANSI colours only (SGR 30-37 / 40-47, never
# 38;5, 48;5 or the bright 90-97), and the screen stays readable: the borders are
# not black on the terminal's (dark) background, the stacked segments are told
# apart (time to safepoint vs operation in other colours, heap used vs committed
# by glyph since eight colours make both cyan), verdicts keep their colours.
source "$(dirname "$0")/lib/tmux.bash" "$@"
SGR=$TESTS/tools/sgr.py

for term in screen xterm; do
	fresh
	start 120 40 "TERM=$term '$BIN' --demo --demo-speed 40"
	if ! wait_for 'replay finished' 30; then fail "TERM=$term: the demo did not finish"; continue; fi
	screen_ansi "$TMPD/a"
	python3 "$SGR" params "$TMPD/a" >"$TMPD/p"
	bad=$(grep -vE '^(fg 3[0-7]|bg 4[0-7])$' "$TMPD/p" | tr '\n' ' ')
	[ -z "$bad" ] && ok "TERM=$term: only the 8 ANSI colours" || fail "TERM=$term: colours beyond 8: $bad"
	n=$(grep -c '^fg ' "$TMPD/p")
	[ "$n" -ge 5 ] && ok "TERM=$term: $n foreground colours (not monochrome)" || fail "TERM=$term: only $n colours"
	row=$(grep -n '^─ Stops ' "$TMPD/screen" | cut -d: -f1)
	fgs=$(python3 "$SGR" fg "$TMPD/a" $((row - 1)) '─ Stops ─ ░reaching safepoint  █operation') \
		|| fail "TERM=$term: the Stops legend is not told by glyph: $(sed -n "${row}p" "$TMPD/screen")"
	set -- $fgs
	# the cells: 0 is the border, 10 the ░ of time to safepoint, 31 the █ of the operation
	[ -n "${1:-}" ] && [ "$1" != 30 ] && ok "TERM=$term: the border is drawn in $1, not black" \
		|| fail "TERM=$term: border colour '${1:-}'"
	[ -n "${32:-}" ] && [ "${11}" != "${32}" ] && ok "TERM=$term: ttsp (${11}) and operation (${32}) in different colours" \
		|| fail "TERM=$term: ttsp '${11:-}' and operation '${32:-}'"
	heap=$(sed -n '/^─ Heap /,/^UTC /p' "$TMPD/screen")
	grep -q '░' <<<"$heap" && grep -q '█' <<<"$heap" && ok "TERM=$term: heap committed ░ and used █ apart" \
		|| fail "TERM=$term: heap segments not told apart"
	row=$(grep -n 'CRIT .*cpu-throttled-during-stop' "$TMPD/screen" | head -1 | cut -d: -f1)
	crit=$(python3 "$SGR" bg "$TMPD/a" $((row - 1)) 'CRIT' | cut -d' ' -f1)
	[ "$crit" = 41 ] && ok "TERM=$term: CRIT on red" || fail "TERM=$term: CRIT on '$crit', not red"
	keys q
	expect 'EXITED rc=0' 10
done
finish
