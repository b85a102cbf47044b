#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_zone.sh BIN — the screen's times follow --tz and the z key: the axis names the zone
# (UTC, or the offset), the header clock moves by the zone's offset (computed by date(1)
# from the UTC clock, not by stwtop), and z goes UTC -> local -> the --tz zone -> UTC.
source "$(dirname "$0")/lib/tmux.bash" "$@"
[ -f /usr/share/zoneinfo/Asia/Kolkata ] || { echo "tui_zone: needs tzdata"; exit 77; }
clock() { settle; sed -n 1p "$TMPD/screen" | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2} *$' | tr -d ' '; }
axis() { grep -oE '^(UTC|[+-][0-9]{2,4}) ' "$TMPD/screen" | head -1 | tr -d ' '; }
# HH:MM:SS + minutes, modulo a day
shift_by() { date -u -d "1970-01-01T$1Z + $2 minutes" +%H:%M:%S; }
start 120 40 "TZ=Asia/Kolkata TERM=tmux-256color '$BIN' --demo --demo-speed 40 --tz Europe/Berlin"
expect 'replay done' 30
c_berlin=$(clock)
[ "$(axis)" = "+01" ] && ok "--tz Europe/Berlin: the axis says +01" || fail "axis: '$(axis)'"
keys z
expect 'times in UTC' 5
c_utc=$(clock)
[ "$(axis)" = UTC ] && ok "z: UTC on the axis" || fail "after z: axis '$(axis)'"
[ "$(shift_by "$c_utc" 60)" = "$c_berlin" ] && ok "Berlin clock = UTC + 1 h ($c_utc -> $c_berlin)" ||
	fail "clocks: UTC $c_utc, Berlin $c_berlin"
keys z
expect 'times in local time' 5
[ "$(axis)" = "+0530" ] && ok "z: local (TZ=Asia/Kolkata) is +0530" || fail "local axis '$(axis)'"
[ "$(clock)" = "$(shift_by "$c_utc" 330)" ] && ok "local clock = UTC + 5:30" || fail "local clock $(clock) vs UTC $c_utc"
keys z
expect 'times in Europe/Berlin' 5
[ "$(clock)" = "$c_berlin" ] && ok "z: back to the --tz zone" || fail "third z: $(clock)"
keys '?'
expect 'times in UTC / local time' 5
keys x
expect_gone 'stwtop keys' 5
expect 'in view, threads summed:' 5
finish
