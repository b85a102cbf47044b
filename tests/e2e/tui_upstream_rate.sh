#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_upstream_rate.sh BIN — the Upstream title's req/s while following live. nginx logs a
# request when it ends, so the newest second is still filling: its count read '7 req/s' under
# ~95 req/s. The steady part of recordings/g1-full-gc (~200 req/s, before its Full GC) is
# appended at 2x its pace while the dashboard follows it; every title read says "N req/s to T"
# (the last settled seconds, up to T) and must be within 20 % of the requests awk counts as
# started in the 5 s before T, and of the stretch's mean rate.
source "$(dirname "$0")/lib/tmux.bash" "$@"
R=$TESTS/recordings/g1-full-gc
D=$TMPD/logs
mkdir -p "$D"
: >"$D/access.log"
# steady: from the first whole second to before the Full GC at 21:27:14.329
awk '$1 < 1795987634' "$R/logs/access.log" >"$TMPD/steady.log"
cat >"$TMPD/run.sh" <<RUN
#!/bin/sh
exec env TERM=tmux-256color TZ=UTC '$BIN' --nginx '$D/access.log' --nginx-conf '$R/nginx.conf:lab'
RUN
chmod +x "$TMPD/run.sh"
start 160 48 "$TMPD/run.sh"
expect 'Upstream' 10
python3 "$TESTS/tools/replay.py" --speed 2 --log "$TMPD/writes.tsv" "$D/access.log=$TMPD/steady.log" &
rp=$!
: >"$TMPD/reads"
while kill -0 "$rp" 2>/dev/null; do
	screen
	grep -oE '─ Upstream .* ([0-9]+) req/s to ([0-9:]+)' "$TMPD/screen" | grep -oE '[0-9]+ req/s to [0-9:]+' \
		>>"$TMPD/reads"
	sleep 0.5
done
wait "$rp"
# started per second (start = $msec - $request_time), mean of the stretch's whole seconds
awk '{ e = $1; sub(/\./, "", e); rt = $NF; sub(/rt=/, "", rt); s = int((e - int(rt * 1000 + 0.5)) / 1000); n[s]++ }
     END { for (s in n) print s, n[s] }' "$TMPD/steady.log" | sort -n >"$TMPD/persec"
sort -u "$TMPD/reads" | awk -v F="$TMPD/persec" '
	BEGIN { while ((getline l < F) > 0) { split(l, a, " "); n[a[1]] = a[2]; if (!lo || a[1] < lo) lo = a[1]; if (a[1] > hi) hi = a[1] }
	        for (s = lo + 1; s < hi; s++) { tot += n[s]; k++ } mean = tot / k }
	{ rate = $1; split($4, t, ":"); to = int(lo / 86400) * 86400 + t[1] * 3600 + t[2] * 60 + t[3]
	  if (to - 5 < lo + 1) next   # the first seconds: fewer than 5 to average
	  true5 = 0; for (s = to - 5; s < to; s++) true5 += n[s]; true5 /= 5
	  reads++
	  if (rate < 0.8 * true5 || rate > 1.2 * true5 || rate < 0.8 * mean || rate > 1.2 * mean) {
	  	printf "FAIL: title %d req/s to %s; started in the 5 s before: %.1f/s, the stretch: %.1f/s\n", rate, $4, true5, mean; bad++ }
	  else printf "ok: title %d req/s to %s; started in the 5 s before: %.1f/s, the stretch: %.1f/s\n", rate, $4, true5, mean }
	END { if (reads < 3) { printf "FAIL: only %d title reads with a settled rate\n", reads; bad++ } exit bad ? 1 : 0 }' \
	|| fail "the Upstream title rate is off"
keys q
expect 'EXITED rc=0' 10
finish
