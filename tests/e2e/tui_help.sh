#!/usr/bin/env bash
# tui_help.sh BIN — the ? help lists every key at every size that can show it:
# at 120x40 all at once, at 80x24 and 40x12 by scrolling (the frame says
# "more ↓" while rows are cut, and where it is: "stwtop keys 9-18/55"). Its
# frame is whole on every screen: four corners, both sides on every row.
source "$(dirname "$0")/lib/tmux.bash" "$@"

# every key of the dashboard (tui/ui.c handle_key) and the start of what it does
KEYS=('← →  h l' '⇧← ⇧→  H L' 'PgUp PgDn' 'Home End  g G' '+ -  = _' 'f' 'p  space' 'Tab  ⇧Tab'
	'↑ ↓  k j' 'Enter' 'Esc' 's' 't' '^L' '?' 'q')
WHAT=('move the cursor (one' 'move the cursor 10' 'move the cursor one' 'cursor to the oldest'
	'zoom in / out' 'follow now' 'pause: freeze the' 'focus the next' 'select a verdict' 'expand: a'
	'collapse what Enter' 'Lines: show one' 'next colour theme' 'redraw the screen' 'this help' 'quit')

# frame_ok FILE: the box in a capture has ┌┐ on its top row, └┘ on its bottom
# row in the same columns, and │ in both columns on every row between
frame_ok() {
	python3 - "$1" <<'PY'
import sys
rows = open(sys.argv[1], encoding='utf-8').read().split('\n')
top = [i for i, r in enumerate(rows) if '┌─ stwtop keys' in r]
if len(top) != 1:
    sys.exit('no single top border')
t = top[0]; l = rows[t].index('┌'); r = rows[t].index('┐', l)
bot = [i for i in range(t + 1, len(rows)) if len(rows[i]) > r and rows[i][l] == '└']
if not bot or rows[bot[0]][r] != '┘':
    sys.exit('bottom corners missing or not under the top ones')
for i in range(t + 1, bot[0]):
    if len(rows[i]) <= r or rows[i][l] != '│' or rows[i][r] != '│':
        sys.exit('row %d lacks a side: %r' % (i, rows[i]))
PY
}

# help_at W H: open the help, collect every screen while scrolling down to its end
help_at() {
	local w=$1 h=$2 size="$1x$2" pages=1
	fresh
	start "$w" "$h" "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
	if ! wait_for 'replay finished' 30; then fail "$size: the demo did not finish"; return; fi
	keys '?'
	if ! wait_for '┌─ stwtop keys' 5; then fail "$size: no help"; return; fi
	: >"$TMPD/all"
	while :; do
		cat "$TMPD/screen" >>"$TMPD/all"
		if err=$(frame_ok "$TMPD/screen" 2>&1); then :; else fail "$size: frame: $err"; fi
		grep -q 'more ↓' "$TMPD/screen" || break
		local where
		where=$(grep -oE 'stwtop keys [0-9]+-[0-9]+/[0-9]+' "$TMPD/screen")
		[ -n "$where" ] || { fail "$size: cut, but the title does not say where"; break; }
		keys NPage
		wait_gone "$where" 5 || { fail "$size: PgDn did not scroll from $where"; break; }
		pages=$((pages + 1))
		[ $pages -le 20 ] || { fail "$size: more than 20 pages"; break; }
	done
	ok "$size: $pages page(s) of help"
	local i missing=0
	for i in "${!KEYS[@]}"; do
		grep -Fq -- "│ ${KEYS[$i]} " "$TMPD/all" || { fail "$size: help lacks key '${KEYS[$i]}'"; missing=1; }
		grep -Fq -- "${WHAT[$i]}" "$TMPD/all" || { fail "$size: help lacks '${WHAT[$i]}'"; missing=1; }
	done
	[ $missing = 0 ] && ok "$size: every key and what it does"
	grep -Fq 'Heap: used after GC' "$TMPD/all" && ok "$size: the legend is there too" || fail "$size: no legend"
	echo "$pages" >"$TMPD/pages-$size"
	# a cut help goes back to its top with Home; any other key closes it
	if [ $pages -gt 1 ]; then
		keys Home
		expect 'stwtop keys 1-' 5
	fi
	keys x
	expect_gone '┌─ stwtop keys' 5
	keys q
	expect 'EXITED rc=0' 10
}

help_at 120 40
[ "$(cat "$TMPD/pages-120x40")" = 1 ] && ok "120x40 shows all of it at once" || fail "120x40 needed scrolling"
grep -q 'more ↓' "$TMPD/all" && fail "120x40 says more" || ok "120x40: nothing cut"
help_at 80 24
help_at 40 12
# q in the help quits
fresh
start 80 24 "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
keys '?'
expect '┌─ stwtop keys' 5
keys Down
expect 'stwtop keys 2-' 5
keys q
expect 'EXITED rc=0' 10
finish
