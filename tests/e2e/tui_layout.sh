#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_layout.sh BIN — the dashboard's layouts on the bundled demo (real recordings):
# every pane with the numbers column at 120x40, the stacked compact layout at 80x24.
source "$(dirname "$0")/lib/tmux.bash" "$@"

start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30
for title in '─ Verdicts ' '─ Stops ' '─ CPU ' '─ Upstream ' '─ Heap ' '─ Lines '; do
	grep -q -- "$title" "$TMPD/screen" && ok "120x40 has pane $title" || fail "120x40 lacks pane $title"
done
# the numbers beside the charts, the shared axis, the footer keys
for label in 'longest in view' 'throttled 5.59 s, 30 periods' 'slow connects 242: 1s 207, 2s 35' \
	'G1: committed 1024, used 169 MB' '^UTC .*19:24:00' 'ttsp-spike +The 701 ms stop'; do
	grep -Eq -- "$label" "$TMPD/screen" && ok "120x40 shows /$label/" || fail "120x40 lacks /$label/"
done
# the header gives the demo's title priority: all of it at 120 columns
grep -q '^ stwtop demo: throttle-stop: CPU quota cut to 0.05 CPU for 3 s  ' "$TMPD/screen" \
	&& ok "120x40 header: the whole demo title" || fail "120x40 header cuts the demo title"
grep -Eq '^ stwtop .* 2 crit  1 warn  1 info .* 19:24:24' "$TMPD/screen" && ok "120x40 header: the counts and the clock" \
	|| fail "120x40 header lost the counts or the clock"
# the CPU pane's two parts say which scale is theirs: " 1.0s throttled", " 5.9s on CPU + waiting to run"
grep -Eq '^ +[0-9.]+m?s throttled ' "$TMPD/screen" && ok "CPU: the throttled part has its scale and name" \
	|| fail "CPU: no 'SCALE throttled' label"
grep -Eq '^ +[0-9.]+m?s on CPU \+ waiting to run ' "$TMPD/screen" && ok "CPU: the sched part has its scale and name" \
	|| fail "CPU: no 'SCALE on CPU + waiting to run' label"
grep -Eq '^(thrtl|sched) ' "$TMPD/screen" && fail "CPU: the bare thrtl/sched labels are still there" || ok "CPU: no bare thrtl/sched"
# the Upstream numbers column: the slow connects whole (the buckets add up to the total)
grep -Eq '│ slow connects 242: 1s 207, 2s 35 *$' "$TMPD/screen" && ok "Upstream: slow connects not cut" \
	|| fail "Upstream: the slow connects readout is cut"
# the keys come back to the footer once the replay's message has been read
expect '←→ cursor  \+- zoom  f follow  p pause  Tab pane  ↵ expand  t theme  \? help  q quit' 15
# y-axis labels of the log-scaled stops chart
grep -Eq '^ +1s ' "$TMPD/screen" && grep -Eq '^100ms' "$TMPD/screen" && ok "stops chart has its scale" \
	|| fail "stops chart scale labels missing"

# 100x32, the smallest full layout: a numbers column too narrow for the slow
# connects wraps them onto the next row, and the header still has the whole title
fresh
start 100 32 "TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30
grep -A1 -E '│ slow connects 242: 1s 207,$' "$TMPD/screen" | grep -Eq '│   2s 35 *$' \
	&& ok "100x32: slow connects wrap onto the next row" || fail "100x32: slow connects do not wrap"
grep -q '^ stwtop demo: throttle-stop: CPU quota cut to 0.05 CPU for 3 s ' "$TMPD/screen" \
	&& ok "100x32 header: the whole demo title" || fail "100x32 header cuts the demo title"
fresh
start 80 24 "TERM=tmux-256color '$BIN' --demo --demo-speed 20"
expect 'replay finished' 30
# 80 columns: the title before the counts (shorter counts), cut with …
grep -Eq '^ stwtop demo: throttle-stop: CPU quota cut to.*…  ' "$TMPD/screen" && ok "80x24 header: the title comes first" \
	|| fail "80x24 header: the title is cut short"
grep -Eq ' 2C  1W  1I ' "$TMPD/screen" && ok "80x24 header: the counts, short" || fail "80x24 header: no counts"
for title in '─ Verdicts ' '─ Stops ' '─ CPU ' '─ Upstream ' '─ Heap ' '─ Lines '; do
	grep -q -- "$title" "$TMPD/screen" && ok "80x24 has pane $title" || fail "80x24 lacks pane $title"
done
# compact: no numbers column, the charts take the width; the readouts stay
grep -q 'longest in view' "$TMPD/screen" && fail "80x24 should not have the numbers column" || ok "80x24 stacks without the numbers column"
grep -Eq 'ThreadDump 701 ms, 698 ms to safepoint' "$TMPD/screen" && ok "80x24 keeps the stop readout" || fail "80x24 lacks the stop readout"
[ "$(wc -L < "$TMPD/screen")" -le 80 ] && ok "nothing wider than 80 columns" || fail "lines wider than the terminal"
# the 60x18 floor of the panes, and one row less goes to the summary
resize 60 18
expect '─ Stops ' 10
resize 59 18
expect '^(WARN|CRIT|INFO) ' 10
grep -q '─ Stops ' "$TMPD/screen" && fail "59x18 should be the summary" || ok "below 60 columns the summary"
keys q
expect 'EXITED rc=0' 10
finish
