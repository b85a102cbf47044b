#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_ascii.sh BIN — a terminal whose locale is not UTF-8 (LANG=C: a static
# binary in a pod, an old serial console) gets ASCII only: not one character
# >= 0x80 on any screen (the panes, the help, an expanded verdict, 80x24, the
# 40x12 summary, the mono theme), and the screen keeps its structure in ASCII.
source "$(dirname "$0")/lib/tmux.bash" "$@"
SGR=$TESTS/tools/sgr.py

ascii_only() {   # WHAT: the current screen has no character >= 0x80
	screen
	local bad
	bad=$(python3 "$SGR" nonascii "$TMPD/screen")
	[ -z "$bad" ] && ok "$1: ASCII only" || fail "$1: non-ASCII on screen: $(head -3 <<<"$bad")"
}

start 120 40 "LANG=C LC_ALL=C TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
ascii_only "120x40"
for re in '^- Stops - :reaching safepoint  #operation' '^- Verdicts -+' '^> WARN ' '^UTC +-+.*\^19:24:06\.0' '\| longest in view'; do
	grep -Eq -- "$re" "$TMPD/screen" && ok "120x40 in ASCII: /$re/" || fail "120x40 lacks /$re/"
done
keys '?'
expect '\+- stwtop keys' 5
ascii_only "help"
grep -Fq '| <- ->  h l ' "$TMPD/screen" && ok "help names the keys in ASCII" || fail "help keys not in ASCII"
keys x
expect_gone 'stwtop keys' 5
keys Enter
expect 'gc.log:198 19:24:06.789 safepoint' 5
ascii_only "verdict expanded"
keys Escape t t
expect 'theme mono' 5
ascii_only "mono theme"
resize 80 24
expect '^- Lines -' 10
ascii_only "80x24"
resize 40 12
expect '^(WARN|CRIT|INFO) ' 10
ascii_only "40x12 summary"
grep -Eq '~$' "$TMPD/screen" && ok "a cut title ends with ~ (no …)" || fail "no ASCII mark on a cut title"
keys '?'
expect 'more v' 5
ascii_only "40x12 help"
keys q
expect 'EXITED rc=0' 10
finish
