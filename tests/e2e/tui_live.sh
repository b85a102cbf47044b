#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_live.sh BIN — live: stwtop follows files in a temp dir while real lines of
# samples/combined/throttle-stop are appended. Before the incident's lines no
# incident verdict shows; after them ttsp-spike and cpu-throttled-during-stop
# appear at once with a NEW mark. Then the process sits idle at near zero CPU.
source "$(dirname "$0")/lib/tmux.bash" "$@"
S=$SAMPLES/combined/throttle-stop
D=$TMPD/logs
mkdir -p "$D"
: >"$D/gc.log"; : >"$D/cpustat.log"; : >"$D/access.log"
cat >"$TMPD/run.sh" <<RUN
#!/bin/sh
exec env TERM=tmux-256color '$BIN' --gc '$D/gc.log' --cpustat-log '$D/cpustat.log' --nginx '$D/access.log' \\
  --nginx-format '\$msec \$request_id \$status uct=\$upstream_connect_time uht=\$upstream_header_time urt=\$upstream_response_time rt=\$request_time'
RUN
chmod +x "$TMPD/run.sh"

# split each file at 19:24:00, before the stop (gc.log:179, cpustat.log:217, access.log:4336)
gsplit=$(grep -n 'T19:24:0' "$S/gc.log" | head -1 | cut -d: -f1)
csplit=$(grep -n 'T19:24:0' "$S/cpustat.log" | head -1 | cut -d: -f1)
asplit=$(awk '$1 >= 1795980240 { print NR; exit }' "$S/logs/access.log")
[ -n "$gsplit" ] && [ -n "$csplit" ] && [ -n "$asplit" ] || { echo "cannot split the samples"; exit 1; }

start 120 40 "$TMPD/run.sh"
expect 'No verdict yet' 10
head -n $((gsplit - 1)) "$S/gc.log" >>"$D/gc.log"
head -n $((csplit - 1)) "$S/cpustat.log" >>"$D/cpustat.log"
head -n $((asplit - 1)) "$S/logs/access.log" >>"$D/access.log"
expect "gc.log $((gsplit - 1))  cpustat.log $((csplit - 1))  access.log $((asplit - 1))" 15
# two clock ticks later the rules have judged what was there: no incident yet
clock() { grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2} UTC' "$TMPD/screen" | head -1; }
for i in 1 2; do c=$(clock); wait_gone "$c" 10 || fail "the clock did not tick"; done
if grep -Eq 'ttsp-spike|cpu-throttled-during-stop|accept-queue-overflow' "$TMPD/screen"; then
	fail "an incident verdict before the incident's lines"
else
	ok "no incident verdict before the incident's lines"
fi
grep -q 'g1-not-shrinking' "$TMPD/screen" && ok "the heap verdict needs no incident" || true

# the rest; the stop itself (gc.log) last, so the throttling it needs is already there
tail -n +"$csplit" "$S/cpustat.log" >>"$D/cpustat.log"
tail -n +"$asplit" "$S/logs/access.log" >>"$D/access.log"
tail -n +"$gsplit" "$S/gc.log" >>"$D/gc.log"
expect 'ttsp-spike +The 701 ms stop at 19:24:06.088 was spent reaching the safepoint' 15
expect 'cpu-throttled-during-stop +The 701 ms stop at 19:24:06.088 happened while the cgroup was' 15
grep -Eq 'NEW 19:24:06 ttsp-spike' "$TMPD/screen" && ok "ttsp-spike is marked NEW" || fail "ttsp-spike without NEW"
grep -Eq 'NEW 19:24:0[0-9] cpu-throttled-during-stop' "$TMPD/screen" && ok "cpu-throttled-during-stop is marked NEW" \
	|| fail "cpu-throttled-during-stop without NEW"
expect "gc.log 241  cpustat.log 464  access.log 9943" 10
# the NEW mark goes away by itself (UI_NEW_MS), which also proves the screen keeps updating
expect_gone 'NEW 19:24:06 ttsp-spike' 20

# idle: nothing is written any more; the process sleeps in poll() between 1 s ticks
pid=$(app_pid)
if [ -n "$pid" ]; then
	t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat"); w0=$(now_ms)
	c=$(clock); wait_gone "$c" 10; c=$(clock); wait_gone "$c" 10; c=$(clock); wait_gone "$c" 10
	t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat"); w1=$(now_ms)
	hz=$(getconf CLK_TCK)
	pct=$(( (t1 - t0) * 1000 * 100 / hz / (w1 - w0) ))
	echo "idle CPU: $((t1 - t0)) ticks in $((w1 - w0)) ms = ${pct}%"
	[ "$pct" -lt 5 ] && ok "idle CPU under 5%" || fail "idle CPU ${pct}%"
else
	fail "cannot find the stwtop process"
fi
keys q
expect 'EXITED rc=0' 10
finish
