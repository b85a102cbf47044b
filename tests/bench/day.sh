#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# day.sh BIN [OUTDIR] — a sidecar left running for a day stays bounded (issue 17): a day of
# the combined/throttle-stop incident's logs (HOURS=48 by default; genlog.py repeats the
# real gc.log and nginx access.log with every timestamp shifted: one 700 ms TTSP incident
# every 47 s, ~240 requests/s, so ~1,900 incidents and ~20 M requests a day) is appended
# at 20 MB/s to files that `stwtop --plain --json --metrics-textfile` follows live. Every
# second: stwtop's RSS (/proc/PID/status VmRSS), the bytes written so far, and the
# counters of the textfile. At the end the counters must equal `--report --json` of the
# same files (stops, GC pauses, requests, connect buckets), and RSS must be flat once the
# store is full. Live mode keeps history in rings of fixed capacity (TL_CAP_* in
# include/stwtop/timeline.h) whose pages are touched as records come: RSS climbs until the
# slowest ring is full (the GC pauses ring, 16,384 pauses: ~23 h of this input) and the
# verdict list holds its MAX_VERDICTS, then must not move. So the check is over the rows
# after both (HOURS=48 by default: the second day), within 2%; a run too short to fill them
# fails rather than passing on nothing. Prints a table; exit 1 when a check fails. Needs
# python3, jq.
set -euo pipefail
BIN=$(realpath "${1:?usage: day.sh path/to/stwtop [outdir]}")
OUT=${2:-/tmp/stwtop-day}
HOURS=${HOURS:-48}
top=$(cd "$(dirname "$0")/../.." && pwd)
S=$top/tests/samples/combined/throttle-stop
LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
mkdir -p "$OUT"
# the same span of both: the sample's gc.log repeats every 47 s, its access.log every 42 s
gc_mb=$(awk -v h="$HOURS" -v b="$(stat -c %s "$S/gc.log")" 'BEGIN { printf "%d", h * 3600 / 47 * b / 1e6 }')
ng_mb=$(awk -v h="$HOURS" -v b="$(stat -c %s "$S/logs/access.log")" 'BEGIN { printf "%d", h * 3600 / 42 * b / 1e6 }')
[ -s "$OUT/gc-day.log" ] && [ "$(cat "$OUT/hours" 2>/dev/null)" = "$HOURS" ] || {
	python3 "$top/tests/bench/genlog.py" unified "$S/gc.log" "$OUT/gc-day.log" "$gc_mb"
	python3 "$top/tests/bench/genlog.py" nginx "$S/logs/access.log" "$OUT/access-day.log" "$ng_mb"
	echo "$HOURS" >"$OUT/hours"
}
W=$OUT/live; rm -rf "$W"; mkdir -p "$W"
: >"$W/gc.log"; : >"$W/access.log"
"$BIN" --plain --json --interval 1000 --metrics-textfile "$W/metrics.prom" --gc "$W/gc.log" \
	--nginx "$W/access.log" --nginx-format "$LAB" >"$W/ndjson" 2>"$W/err" &
spid=$!
trap 'kill $spid $wpid 2>/dev/null || true' EXIT
sleep 1
# the writer: both files in 4 MB steps, the GC log kept level with nginx by share
python3 - "$OUT/gc-day.log" "$OUT/access-day.log" "$W/gc.log" "$W/access.log" >"$W/writer.log" <<'EOF' &
import os, sys, time
gsrc, nsrc, gdst, ndst = sys.argv[1:5]
gsz, nsz = os.path.getsize(gsrc), os.path.getsize(nsrc)
step = 4 << 20
with open(gsrc, 'rb') as gi, open(nsrc, 'rb') as ni, open(gdst, 'ab') as go, open(ndst, 'ab') as no:
    done = 0
    while True:
        b = ni.read(step)
        if not b:
            break
        nl = b.rfind(b'\n') + 1          # whole lines only
        ni.seek(nl - len(b), 1)
        no.write(b[:nl]); no.flush()
        done += nl
        want = gsz * done // nsz           # the GC log's share of the same time
        g = gi.read(max(0, want - gi.tell()))
        gl = g.rfind(b'\n') + 1
        gi.seek(gl - len(g), 1)
        go.write(g[:gl]); go.flush()
        print(done, flush=True)
        time.sleep(0.2)                    # 20 MB/s: a day in ~90 s, sampled every second
    go.write(gi.read()); go.flush()
print("done", flush=True)
EOF
wpid=$!
total=$(stat -c %s "$OUT/access-day.log")
metric() { awk -v m="$1" '$1 == m { print $2 }' "$W/metrics.prom" 2>/dev/null | tail -1; }
printf '%8s %7s %10s %10s %10s %10s\n' sec "%read" rss_kb stops pauses requests | tee "$W/table"
t=0
while :; do
	sleep 1; t=$((t + 1))
	rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$spid/status")
	w=$(tail -1 "$W/writer.log" 2>/dev/null || echo 0)
	pct=$([ "$w" = done ] && echo 100 || awk -v a="${w:-0}" -v b="$total" 'BEGIN{printf "%.0f", 100*a/b}')
	printf '%8d %7s %10s %10s %10s %10s\n' $t "$pct" "$rss" "$(metric stwtop_safepoint_seconds_count)" \
		"$(awk '$1 ~ /^stwtop_gc_pause_seconds_count/ {s += $2} END {print s+0}' "$W/metrics.prom" 2>/dev/null)" \
		"$(awk '$1 ~ /^stwtop_nginx_requests_total/ {s += $2} END {print s+0}' "$W/metrics.prom" 2>/dev/null)" | tee -a "$W/table"
	[ "$w" = done ] && break
done
# let stwtop read what is left, then stop it (the textfile is written once more at exit)
for _ in $(seq 120); do
	a=$(metric stwtop_safepoint_seconds_count); sleep 2; b=$(metric stwtop_safepoint_seconds_count)
	[ "$a" = "$b" ] && break
done
kill -TERM $spid; wait $spid || true
"$BIN" --report --json --gc "$W/gc.log" --nginx "$W/access.log" --nginx-format "$LAB" >"$W/report.json"
fails=0
chk() { if [ "$2" = "$3" ]; then echo "ok: $1 = $2"; else echo "FAIL: $1: live $2, report $3"; fails=$((fails + 1)); fi; }
chk stops "$(metric stwtop_safepoint_seconds_count)" "$(jq .summary.stops "$W/report.json")"
chk requests "$(awk '$1 ~ /^stwtop_nginx_requests_total/ {s += $2} END {print s}' "$W/metrics.prom")" \
	"$(jq .summary.nginx.requests "$W/report.json")"
chk connects "$(metric stwtop_nginx_upstream_connect_duration_seconds_count)" \
	"$(jq '[.summary.nginx.uct_buckets[]] | add' "$W/report.json")"
# RSS once the store is full: the rows after the GC pauses ring is full (its cap, plus 5%
# for the pauses still on their way to it) and past the first 55% of the run (the verdict
# list fills with ~2,048 incidents: ~26 h of this input)
cap=$(grep -o 'TL_CAP_PAUSES = 1 << [0-9]*' "$top/include/stwtop/timeline.h" | awk '{print 2 ^ $NF}')
n=$(($(wc -l <"$W/table") - 1))
read -r rows lo hi <<<"$(awk -v cap="$cap" -v n=$n 'NR > 1 && $5 >= cap * 1.05 && NR - 1 > n * 0.55 {
	k++; if (!lo || $3 < lo) lo = $3; if ($3 > hi) hi = $3 } END { print k + 0, lo + 0, hi + 0 }' "$W/table")"
echo "RSS once the store is full (pauses >= $cap x 1.05, after 55% of the run): $rows samples, ${lo}-${hi} kB"
if [ "$rows" -lt 10 ]; then
	echo "FAIL: the run is too short to fill the store ($rows samples after it): HOURS=48"; fails=$((fails + 1))
elif awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(b <= a * 1.02) }'; then
	echo "ok: RSS flat once full (within 2%)"
else
	echo "FAIL: RSS grew from $lo to $hi kB after the store was full"; fails=$((fails + 1))
fi
echo "day.sh: $HOURS h of logs ($(du -m "$W/gc.log" | cut -f1) MB GC, $(du -m "$W/access.log" | cut -f1) MB nginx) in $t s; $fails failed"
[ $fails = 0 ]
