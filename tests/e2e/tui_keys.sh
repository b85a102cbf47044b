#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_keys.sh BIN — the keys: ? shows help listing every key, Enter expands a
# verdict (evidence + advice) and Esc collapses it, arrows select, Tab moves the
# focus, s filters the Lines pane, t cycles the themes (default -> light -> mono,
# the colours change, mono has none), q exits 0; a bad --theme is a usage error;
# a key bound to nothing says "unknown key: ? for help" for a moment.
source "$(dirname "$0")/lib/tmux.bash" "$@"

start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30

keys '?'
expect '─ stwtop keys ' 5
# the box's top is on the screen before its last rows are: under ASan a CI run
# caught the frame half written (15 of its lines missing), so read it settled
settle 5 || fail "the help box did not settle"
for what in 'move the cursor \(one column' 'move the cursor 10 columns' 'move the cursor one screen' \
	'cursor to the oldest / newest data' 'zoom in / out' 'follow now' 'pause: freeze the view' \
	'focus the next / previous pane' 'select a verdict' "expand: a verdict's evidence and advice" \
	'collapse what Enter expanded' 'Lines: show one source' 'next colour theme' 'this help' ' quit$|quit +│'; do
	grep -Eq -- "$what" "$TMPD/screen" && ok "help lists /$what/" || fail "help lacks /$what/"
done
for k in '← →  h l' '\+ -' 'p  space' 'Tab  ⇧Tab' '↑ ↓  k j' 'Enter' 'Esc'; do
	grep -Eq -- "│ $k " "$TMPD/screen" && ok "help names key $k" || fail "help lacks key $k"
done
keys x    # any key closes it
expect_gone '─ stwtop keys ' 5
grep -q 'unknown key' "$TMPD/screen" && fail "the key that closed the help was called unknown" || ok "x closed the help quietly"
# a key that does nothing says so on the bottom line for a moment (2 s), then the key hints are back
for k in x F5; do
	keys $k
	expect '^ unknown key: \? for help ' 5
	expect_gone 'unknown key' 5
	expect '^ ←→ cursor ' 2
done

# Enter: the selected verdict's evidence and advice; Esc collapses
keys Enter
expect '• gc.log:198 19:24:06.789 safepoint "ThreadDump": reaching 698.2 ms' 5
expect '→ The cgroup.s CPU quota was exhausted' 5
keys Escape
expect_gone '• gc.log:198' 5
# Down selects the next verdict; Enter now shows its evidence
keys Down
expect '^▸ CRIT .*cpu-throttled-during-stop' 5
keys Enter
expect '• cgroup cpu.stat 19:24:04.337-19:24:07.337: throttled_time \+5590.4 ms' 5
keys Escape Up
expect '^▸ WARN .*ttsp-spike' 5
# Tab: the focus leaves the Verdicts pane (its hint says how to come back)
keys Tab
expect 'Tab here, Enter: evidence' 5
keys BTab
expect '↑↓ select  Enter: evidence' 5

# s: the Lines pane shows one source at a time
keys s
expect 'only gc.log \(s: all\)' 5
n_other=$(sed -n '/^─ Lines /,$p' "$TMPD/screen" | grep -Ec '^(cpustat|schedstat|vmstat|access)\.log:')
[ "$n_other" = 0 ] && ok "Lines shows only gc.log" || fail "Lines shows $n_other lines of other sources"
keys s s s s s
expect 'Lines: all sources' 5

# t: the themes in turn; the colours on screen change
screen_ansi "$TMPD/a0"
keys t
expect 'theme light' 5
screen_ansi "$TMPD/a1"
cmp -s "$TMPD/a0" "$TMPD/a1" && fail "theme light did not change the colours" || ok "light changes the colours"
grep -q '48;5;255' "$TMPD/a1" && ok "light paints its background" || fail "light has no background colour"
keys t
expect 'theme mono' 5
screen_ansi "$TMPD/a2"
if grep -Eq $'\e\\[[0-9;]*(38|48);5;' "$TMPD/a2"; then fail "mono still draws colours"; else ok "mono draws no colour"; fi
grep -q '░' "$TMPD/a2" && ok "mono tells the segments apart by glyph" || fail "mono has no shaded segments"
keys t
expect 'theme default' 5
screen_ansi "$TMPD/a3"
grep -q '38;5;208' "$TMPD/a3" && ok "back to default (orange time to safepoint)" || fail "default colours not back"

keys q
expect 'EXITED rc=0' 10
$T kill-server

# NO_COLOR: no colour at all, bars told apart by glyphs
T="tmux -L $SOCK-b -f /dev/null"
start 120 40 "NO_COLOR=1 TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30
screen_ansi "$TMPD/nc"
if grep -Eq $'\e\\[[0-9;]*(3[0-9]|4[0-9]);' "$TMPD/nc" || grep -Eq $'\e\\[[0-9;]*(38|48);5;' "$TMPD/nc"; then
	fail "NO_COLOR drew colours"
else
	ok "NO_COLOR: no colour"
fi
grep -q '░reaching safepoint  █operation' "$TMPD/screen" && ok "NO_COLOR legend by glyph" || fail "NO_COLOR legend"
keys q
expect 'EXITED rc=0' 10

# a bad theme: exit 2 before anything is drawn, naming the key
printf '{"roles": {"stop.tsp": {"fg": "orange"}}}\n' >"$TMPD/bad.json"
"$BIN" --demo --theme "$TMPD/bad.json" >"$TMPD/out" 2>"$TMPD/err" </dev/null
rc=$?
[ $rc = 2 ] && ok "bad theme exits 2" || fail "bad theme exited $rc"
grep -q "bad.json: unknown role \"stop.tsp\"" "$TMPD/err" && ok "the error names the role" || { fail "error: $(cat "$TMPD/err")"; }
printf '{"roles": {"stop.ttsp": {"fg": "orange"}}}\n' >"$TMPD/bad2.json"
"$BIN" --demo --theme "$TMPD/bad2.json" >"$TMPD/out" 2>"$TMPD/err" </dev/null
[ $? = 2 ] && grep -q 'role "stop.ttsp": "fg": "orange" is not a colour' "$TMPD/err" && ok "a bad colour names role and key" \
	|| fail "bad colour: $(cat "$TMPD/err")"
"$BIN" --demo --theme nosuch >"$TMPD/out" 2>"$TMPD/err" </dev/null
[ $? = 2 ] && grep -q 'theme "nosuch" not found (looked for nosuch.json in ' "$TMPD/err" && ok "an unknown theme name" \
	|| fail "unknown theme: $(cat "$TMPD/err")"
finish
