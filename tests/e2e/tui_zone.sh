#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_zone.sh BIN — the screen's times follow --tz and the z key: the axis names the zone
# (UTC, or the offset), the header clock moves by the zone's offset (computed by date(1)
# from the UTC clock, not by stwtop), and z goes UTC -> local -> the --tz zone -> UTC;
# then every time on the screen, verdicts' titles and evidence too, follows z (below).
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

# Every time a person reads follows z (issue 26: after z a verdict's title and evidence
# kept UTC beside a +0530 axis): with TZ=Asia/Kolkata, the newest verdict's evidence open
# (Enter), every HH:MM:SS on the screen (header, verdict rows, titles, evidence, the
# span, readouts, the axis; not the Lines pane's raw log lines, which are the logs' own
# text) after z is the same instant as before it, in +0530 by date(1), and no time
# carries its own offset (the axis says the zone once).
fresh
start 160 48 "TZ=Asia/Kolkata TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay done' 30
keys Enter
expect 'the cursor of every pane is there now' 5
# the times in reading order, the Lines pane's body and the message row left out
times_of() { settle; sed '$d' "$TMPD/screen" | awk '/^─ Lines /{print; exit} {print}' |
	grep -oP '\d{2}:\d{2}:\d{2}(\.\d+)?(?:(?:[+-]\d{2}:?\d{2}|Z)(?![\d:]))?'; }
day=$(grep -oE '20[0-9]{2}-[01][0-9]-[0-3][0-9]' "$TMPD/screen" | head -1)
times_of >"$TMPD/t-utc"
[ "$(axis)" = UTC ] && ok "the axis says UTC first" || fail "first axis '$(axis)'"
keys z
expect 'times in local time' 5
times_of >"$TMPD/t-local"
[ "$(axis)" = "+0530" ] && ok "z: the axis says +0530" || fail "after z: axis '$(axis)'"
n=$(wc -l <"$TMPD/t-utc")
[ "$n" -ge 20 ] && ok "$n times on the screen" || fail "only $n times on the screen"
[ "$n" = "$(wc -l <"$TMPD/t-local")" ] && ok "as many times after z" ||
	fail "$n times before z, $(wc -l <"$TMPD/t-local") after: $(diff "$TMPD/t-utc" "$TMPD/t-local" | head)"
grep -E '([+-][0-9]{2}:?[0-9]{2}|Z)$' "$TMPD/t-local" >"$TMPD/t-offset"
[ ! -s "$TMPD/t-offset" ] && ok "no time says its own offset" || fail "times with an offset: $(head -3 "$TMPD/t-offset")"
wrong=0
while read -r u l; do
	want=$(TZ=Asia/Kolkata date -d "${day:-2026-11-29} ${u%%.*}Z" +%H:%M:%S)
	frac=${u#"${u%%.*}"}
	[ "$l" = "$want$frac" ] || { wrong=$((wrong + 1)); echo "  UTC $u -> screen $l, date(1) says $want$frac"; }
done < <(paste -d' ' "$TMPD/t-utc" "$TMPD/t-local")
[ "$wrong" = 0 ] && ok "every time after z is date(1)'s +0530 of the same instant" || fail "$wrong times not in +0530"
finish
