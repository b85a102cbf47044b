#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_panes.sh BIN — what the Heap and Upstream panes show on real samples, with
# the numbers counted from the raw files here (grep/awk), not taken from stwtop:
#  - G1 periodic GC (tests/samples/g1-periodic): when the load stops, P markers
#    for the periodic collections and R for the Remarks that shrink the heap, and
#    the count of periodic checks that skipped; under continued load no P at
#    all and every check skipped, in the title row and beside the chart;
#  - a connect timeout (tests/samples/nginx-uct/connect-timeout, its log_format
#    read from its nginx.conf): the 504s as 5xx beside the chart, ! on their
#    columns, in the title readout at such a column.
source "$(dirname "$0")/lib/tmux.bash" "$@"

heap() { sed -n '/^─ Heap /,/^UTC /p' "$TMPD/screen"; }
heap_top() { heap | sed -n 2p | cut -c7- | sed 's/│.*//'; }   # the marker row, chart columns only

# --- G1 periodic GC, the load stops ---
G=$SAMPLES/g1-periodic/load-stops/gc.log
skips=$(grep -c 'Skipping\.' "$G")
ran=$(grep -cE '\]\[gc +\] .*Pause.*\(G1 Periodic Collection\)' "$G")
start 120 40 "TERM=tmux-256color '$BIN' --gc '$G'"
expect '─ Heap .*periodic GC skipped' 15
expect "periodic GC 5s: $ran ran, $skips skipped" 5
grep -Eq "^─ Heap .* $skips periodic GC skipped ─" "$TMPD/screen" && ok "load-stops: the title says $skips checks skipped" \
	|| fail "load-stops: title lacks '$skips periodic GC skipped'"
grep -q "$ran periodic collections in view" "$TMPD/screen" && ok "load-stops: $ran periodic collections in view" \
	|| fail "load-stops: not '$ran periodic collections in view'"
p=$(heap_top | grep -o P | wc -l); r=$(heap_top | grep -o R | wc -l)
# a periodic collection and the Remark it starts can share a column: R wins it
[ "$p" -ge 1 ] && [ $((p + r)) -ge "$ran" ] && ok "load-stops: $p P and $r R markers on the top row" \
	|| fail "load-stops: $p P, $r R markers for $ran periodic collections: $(heap_top)"
keys q
expect 'EXITED rc=0' 10

# --- G1 periodic GC under continued load: every check skipped, nothing ran ---
fresh
G=$SAMPLES/g1-periodic/load-continues/gc.log
skips=$(grep -c 'Skipping\.' "$G")
[ "$(grep -cE 'G1 Periodic Collection' "$G")" = 0 ] || fail "load-continues: the sample has periodic collections"
start 120 40 "TERM=tmux-256color '$BIN' --gc '$G'"
expect "periodic GC 5s: 0 ran, $skips skipped" 15
grep -Eq "^─ Heap .* $skips periodic GC skipped ─" "$TMPD/screen" && ok "load-continues: the title says $skips skipped" \
	|| fail "load-continues: title lacks '$skips periodic GC skipped'"
[ "$(heap_top | grep -c P)" = 0 ] && ok "load-continues: no P marker" || fail "load-continues: P markers: $(heap_top)"
keys q
expect 'EXITED rc=0' 10

# --- nginx connect timeout: 504s as 5xx ---
fresh
U=$SAMPLES/nginx-uct/connect-timeout
reqs=$(wc -l <"$U/logs/access.log")
n5xx=$(awk '$9 >= 500 && $9 <= 599' "$U/logs/access.log" | wc -l)
start 120 40 "TERM=tmux-256color '$BIN' --nginx '$U/logs/access.log' --nginx-conf '$U/nginx.conf:ops'"
expect "│ $reqs requests, $n5xx 5xx" 15
ok "Upstream: $n5xx of $reqs requests are 5xx, as in the log"
expect '5xx with no connect: nginx gave up' 5
up=$(sed -n '/^─ Upstream /,/^─ Heap /p' "$TMPD/screen" | cut -c7- | sed 's/│.*//')
grep -q '!' <<<"$up" && ok "Upstream: ! marks the 5xx columns" || fail "Upstream: no ! on the chart"
screen_ansi "$TMPD/a"
grep -q '38;5;199' "$TMPD/a" && ok "Upstream: the 5xx colour is drawn" || fail "Upstream: no 5xx colour"
# the cursor onto a 5xx column: the readout says how many (one column at a time, each move seen)
keys h
expect ' CURSOR ' 5
for i in $(seq 1 60); do
	grep -Eq '^─ Upstream .*· [0-9]+ 5xx ─' "$TMPD/screen" && break
	t=$(cursor_times | cut -d' ' -f1)
	keys h
	wait_gone "▲$t" 5 || break
done
grep -Eq '^─ Upstream .*· [0-9]+ 5xx ─' "$TMPD/screen" && ok "Upstream: the readout at a 504 column counts its 5xx" \
	|| fail "Upstream: no 5xx in the readout on any column"
keys q
expect 'EXITED rc=0' 10
finish
