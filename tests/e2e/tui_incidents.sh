#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_incidents.sh BIN — [ and ] put every pane's cursor on the start of the
# previous / next incident, numbered as --report numbers them: the gc-stop
# demo's two incidents, their starts read from `stwtop --report` over the same
# files (the earliest start of the verdicts under "-- incident N --"); the
# Verdicts pane selects the incident's first verdict; past the last one the
# bottom line says so. g / G: the oldest / newest data. The Verdicts pane has
# the report's "-- incident N --" headings (and "-- whole run --") from 100x32.
source "$(dirname "$0")/lib/tmux.bash" "$@"

DEMO=$(cd "$TESTS/../data/demo/gc-stop" && pwd -P)
fmt=$(sed -n 's/^nginx-format //p' "$DEMO/demo.conf")
# the demo's sources in demo.conf's order
TZ=UTC "$BIN" --report --gc "$DEMO/gc.log" --cpustat-log "$DEMO/cpustat.log" --schedstat-log "$DEMO/schedstat.log" \
	--vmstat-log "$DEMO/vmstat.log" --nginx "$DEMO/access.log" --nginx-format "$fmt" >"$TMPD/report.txt"
# the incident verdicts (the whole-run ones follow the last incident without a separator), from the rows the rules define
ids=$(sed -n 's/.*\.name = "\([a-z0-9-]*\)", \.kind = VERDICT_INCIDENT,.*/\1/p' "$TESTS"/../core/rules/*.c | paste -sd'|')
[ -n "$ids" ] || fail "no incident verdict ids read from the rows in core/rules/*.c"
# N START END per incident: the earliest start and the latest end of its verdicts
awk -v ids="^($ids)\$" '/^ -- incident [0-9]+ --$/ { n = $3; next }
     /^[A-Z]/ { n = 0 }
     n && /^ (crit|warn|info) / && $2 ~ ids { split($3, t, "-"); if (!(n in s) || t[1] < s[n]) s[n] = t[1]; if (t[2] > e[n]) e[n] = t[2] }
     END { for (k in s) print k, s[k], e[k] }' "$TMPD/report.txt" | sort -n >"$TMPD/incidents"
[ "$(wc -l <"$TMPD/incidents")" = 2 ] && ok "the report has two incidents" || fail "incidents: $(cat "$TMPD/incidents")"
read -r _ S1 E1 < <(sed -n 1p "$TMPD/incidents")
read -r _ S2 E2 < <(sed -n 2p "$TMPD/incidents")
# HH:MM:SS.mmm -> the start of its 500 ms column as the axis writes it (HH:MM:SS.d)
col() { awk -v t="$1" 'BEGIN { split(t, a, ":"); ms = int(a[3] * 1000 + 0.5); ms -= ms % 500;
	printf "%s:%s:%02d.%d\n", a[1], a[2], int(ms / 1000), (ms % 1000) / 100 }'; }

start 120 40 "TERM=tmux-256color '$BIN' --demo=gc-stop --demo-speed 40"
expect 'replay finished' 30
# the Verdicts pane separates the incidents as the report does, newest first:
# under each heading the verdict whose start the report lists under it
settle
verdicts_rows() { sed -n '/^─ Verdicts /,/^─ Stops /p' "$TMPD/screen" | sed '1d;$d'; }
verdicts_rows | grep -A1 -x ' -- incident 2 -- *' | grep -Eq "^▸ CRIT .*${S2:0:8} long-gc-pause" \
	&& ok "Verdicts: incident 2's heading over its verdicts" || fail "Verdicts: no incident 2 heading over its verdicts"
verdicts_rows | grep -A1 -x ' -- incident 1 -- *' | grep -Eq "^[ ●] WARN .*${S1:0:8} long-gc-pause" \
	&& ok "Verdicts: incident 1's heading over its verdict" || fail "Verdicts: no incident 1 heading over its verdict"
[ "$(verdicts_rows | grep -n -- '-- incident' | cut -d: -f2 | tr -d ' \n')" = "--incident2----incident1--" ] \
	&& ok "Verdicts: newest incident first" || fail "Verdicts: incident headings out of order"
# the verdict about the whole run does not sit under incident 1
keys j j j j
expect '^▸ WARN .*serial-gc-selected' 5
verdicts_rows | grep -B1 -E '^▸ WARN .*serial-gc-selected' | head -1 | grep -qx ' -- whole run -- *' \
	&& ok "Verdicts: the whole-run verdict under its own heading" || fail "Verdicts: whole-run verdict not under '-- whole run --'"
# 80x24 keeps its few Verdicts rows for verdicts
resize 80 24
expect '^─ Verdicts .{0,70}─$' 5
settle
verdicts_rows | grep -q -- '-- incident' && fail "80x24 spends rows on headings" || ok "80x24: no headings"
resize 120 40
expect '^ -- incident 1 --' 5
keys g
settle
home=$(cursor_times | cut -d' ' -f1)
keys ']'
expect "incident 1 of 2: $S1-$E1, every pane at its start" 5
expect_cursor "$(col "$S1")"
grep -Eq "^▸ WARN .*${S1:0:8} long-gc-pause" "$TMPD/screen" && ok "Verdicts selects incident 1's first verdict" \
	|| fail "Verdicts selection is not incident 1's"
keys ']'
expect "incident 2 of 2: $S2-$E2, every pane at its start" 5
expect_cursor "$(col "$S2")"
grep -Eq "^▸ CRIT .*${S2:0:8} long-gc-pause" "$TMPD/screen" && ok "Verdicts selects incident 2's first verdict" \
	|| fail "Verdicts selection is not incident 2's"
keys ']'
expect 'no incident after the cursor \(2 in all; \[ goes back\)' 5
expect_cursor "$(col "$S2")"
keys '['
expect "incident 1 of 2: $S1-" 5
expect_cursor "$(col "$S1")"
keys '['
expect 'no incident before the cursor \(2 in all; \] goes on\)' 5
# g / G: the oldest and the newest data (the live end: following it), wherever the cursor was
grep -q ' CURSOR ' "$TMPD/screen" && ok "[ and ] leave follow" || fail "[ and ] still follow"
keys G
expect '^ stwtop .* FOLLOW ' 5
end=$(cursor_times | cut -d' ' -f1)
[ "$end" \> "$(col "$S2")" ] && ok "G: the newest data ($end), following" || fail "G went to $end"
keys g
expect_cursor "$home"
keys q
expect 'EXITED rc=0' 10
finish
