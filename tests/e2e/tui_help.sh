#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_help.sh BIN — the ? help lists every key of the key table (tui/ui.c) at
# every size that can show it:
# at 120x40 all at once, at 80x24 and 40x12 by scrolling (the frame says
# "more ↓" while rows are cut, and where it is: "stwtop keys 9-18/55"). Its
# frame is whole on every screen: four corners, both sides on every row.
source "$(dirname "$0")/lib/tmux.bash" "$@"

# every key of the dashboard, read from its key table (tui/ui.c ui_keys[], which
# drives the dispatch and the help): the label of each row and the start of what
# it does. key_table also fails when a binding of a row is not named in that
# row's label (a key added to a row but not to its help), when a key is bound
# twice (the second row would never see it), or when a row without a label binds
# a real key (it would be missing from the help).
key_table() {
	python3 - "$1" <<'PY'
import re, sys
src = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'const struct ui_key ui_keys\[\] = \{\n(.*?)\n\};', src, re.S)
if not m:
    sys.exit('no ui_keys[] table in ' + sys.argv[1])
lit = r'"(?:[^"\\]|\\.)*"'
FN = {'LEFT': ('<-', '←'), 'RIGHT': ('->', '→'), 'SLEFT': ('S-<-', '⇧←'), 'SRIGHT': ('S->', '⇧→'),
      'UP': ('Up', '↑'), 'DOWN': ('Down', '↓'), 'PPAGE': ('PgUp',) * 2, 'NPAGE': ('PgDn',) * 2,
      'HOME': ('Home',) * 2, 'END': ('End',) * 2, 'BTAB': ('S-Tab', '⇧Tab'), 'ENTER': ('Enter',) * 2}
CH = {' ': 'space', '\\t': 'Tab', '\\r': 'Enter', '\\n': 'Enter', '27': 'Esc', '12': '^L'}
rows = re.split(r'\n\t\{(?=\.)', '\n' + m.group(1))[1:]
bad, seen, out = [], {}, []
for row in rows:
    f = {k: ''.join(re.findall(lit, v))[1:-1].replace('\\"', '"') if v != 'NULL' else None
         for k, v in re.findall(r'\.(\w+) = ((?:' + lit + r'\s*)+|NULL)', row)}
    keys = re.findall(r"\{(?:UI_FN\(KEY_(\w+)\)|'(\\.|[^'])'|(\d+)), (-?\d+)\}", row)
    if not keys:
        bad.append('a row binds no key: ' + row[:60])
    for fn, ch, num, arg in keys:
        code = fn and 'KEY_' + fn or ch or num
        if code in seen:
            bad.append('%s is bound twice' % code)
        seen[code] = 1
        label = f.get('label')
        if label is None:
            if fn != 'RESIZE':
                bad.append('%s is bound in a row the help does not show' % code)
            continue
        names = FN[fn] if fn else (CH.get(ch or num, ch),) * 2
        if fn and fn not in FN:
            bad.append('tui_help.sh does not know how the help names KEY_%s' % fn)
            continue
        caps = ch and ch.isupper() and any(c == ch.lower() and a == arg for _, c, _, a in keys)
        for name, lab in zip(names, (f.get('label_ascii'), label)):
            if not caps and name not in (lab or '').split():
                bad.append('%s is not named in its help label %r' % (code, lab))
    if f.get('label') is not None:
        # the words that fit on the first line of the narrowest help (21 columns)
        words = f.get('what', '').split()
        n = 1
        while n < len(words) and len(' '.join(words[:n + 1])) <= 20:
            n += 1
        out.append('%s\t%s' % (f['label'], ' '.join(words[:n])))
if len(out) < 10:
    bad.append('only %d labelled rows read from ui_keys[]: the parser no longer understands it' % len(out))
for b in bad:
    print('BAD\t' + b)
print('\n'.join(out))
PY
}
KEYS=() WHAT=()
table=$(key_table "$(dirname "$0")/../../tui/ui.c") || { fail "key table: $table"; table=; }
while IFS=$'\t' read -r k what; do
	[ -n "$k" ] || continue
	if [ "$k" = BAD ]; then fail "key table: $what"; continue; fi
	KEYS+=("$k")
	WHAT+=("$what")
done <<<"$table"
ok "key table: ${#KEYS[@]} rows with help, every binding named in its row"

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
	settle 5
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
		settle 5
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
