#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# no_color.sh BIN — NO_COLOR as no-color.org defines it: present and not empty
# disables colour; present but empty (NO_COLOR=) does not. The same rule in every
# view: the text report on a terminal, line mode on a terminal, the dashboard.
source "$(dirname "$0")/lib/tmux.bash" "$@"
S=$SAMPLES/combined/throttle-stop
SRCS="--gc '$S/gc.log' --cpustat-log '$S/cpustat.log'"
colour_re=$'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)m'

# has_colour FILE: an SGR colour anywhere in a capture-pane -e
has_colour() { grep -Eq -- "$colour_re" "$1"; }

# check WHAT NO_COLOR-ASSIGNMENT WANT(colour|none) COMMAND WAIT-REGEX
check() {
	local what=$1 nc=$2 want=$3 cmd=$4 re=$5
	fresh
	start 120 40 "$nc $cmd"
	if ! wait_for "$re" 30; then fail "$what ($nc): timeout waiting for /$re/"; return; fi
	screen_ansi "$TMPD/ansi"
	if has_colour "$TMPD/ansi"; then got=colour; else got=none; fi
	[ "$got" = "$want" ] && ok "$what with $nc: $want" || fail "$what with $nc: want $want, got $got"
}

for nc in 'NO_COLOR=' 'env -u NO_COLOR'; do
	check "report" "$nc" colour "'$BIN' --report $SRCS" 'EXITED rc=0'
	check "plain" "$nc" colour "'$BIN' --plain --demo --demo-speed 40" 'EXITED rc=0'
	check "dashboard" "$nc" colour "TERM=tmux-256color '$BIN' --demo --demo-speed 40" 'replay finished'
done
for nc in 'NO_COLOR=1' 'NO_COLOR=yes' 'NO_COLOR=0'; do
	check "report" "$nc" none "'$BIN' --report $SRCS" 'EXITED rc=0'
	check "plain" "$nc" none "'$BIN' --plain --demo --demo-speed 40" 'EXITED rc=0'
	check "dashboard" "$nc" none "TERM=tmux-256color '$BIN' --demo --demo-speed 40" 'replay finished'
done
# --no-color wins whatever NO_COLOR says
check "report --no-color" 'NO_COLOR=' none "'$BIN' --report --no-color $SRCS" 'EXITED rc=0'
check "dashboard --no-color" 'NO_COLOR=' none "TERM=tmux-256color '$BIN' --no-color --demo --demo-speed 40" 'replay finished'
finish
