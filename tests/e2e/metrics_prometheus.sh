#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics_prometheus.sh BIN — a real Prometheus (the Debian package, started here on a free
# port with its own config and storage, scrape_interval 1s) scrapes `stwtop --plain --json
# --metrics` while a real recorded incident (samples/combined/throttle-stop: G1 + safepoint
# log, nginx, cpu.stat, schedstat, vmstat) is appended to the followed files at 4x its pace
# (tests/tools/replay.py). Then the values Prometheus stored, read back through its HTTP API,
# must equal `stwtop --report --json` over the same files: stops, GC pauses, the upstream
# connect histogram (its le buckets counted from the access log itself with awk), throttled
# seconds and periods, requests, and the verdicts by id and level.
# Prometheus asks for OpenMetrics first: its parser reading ours is part of the test.
set -u
source "$(dirname "$0")/lib/prometheus.bash"
BIN=${1:?usage: metrics_prometheus.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
S=$D/samples/combined/throttle-stop
for t in prometheus curl jq; do
	command -v $t >/dev/null || { echo "$t is not installed (scripts/install-deps.sh)"; exit 77; }
done
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-prom.XXXXXX")
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$TMPD"
}
trap cleanup EXIT
. "$(dirname "$0")/lib/ports.bash"
read -r SP PP <<<"$(free_ports 2)"
rc=0
fail() { echo "FAIL $*"; rc=1; }
pass() { echo "PASS $*"; }

# An incident's verdicts count in verdicts_total once it is final: horizon_ms (30 s) of data
# past its end. The recording goes on ~20 s after the incident, so both runs judge with a
# 10 s horizon (the report too: the same rules on the same data).
echo '{"horizon_ms": 10000}' >"$TMPD/rules.json"
srcs=(--config "$TMPD/rules.json" --gc "$TMPD/gc.log" --safepoint "$TMPD/console.log" --nginx "$TMPD/access.log"
      --nginx-conf "$S/nginx.conf" --cpustat-log "$TMPD/cpustat.log"
      --schedstat-log "$TMPD/schedstat.log" --vmstat-log "$TMPD/vmstat.log")
TZ=UTC "$BIN" --plain --json "${srcs[@]}" --metrics "127.0.0.1:$SP" >"$TMPD/plain.ndjson" 2>"$TMPD/stwtop.err" &
pids+=($!)

prom_start "$TMPD" "$SP" "$PP"
pids+=("$PROM_PID")

# q EXPR: the instant value (one series), "" when none
q() {
	curl -sf --max-time 5 "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" |
		jq -r '.data.result[0].value[1] // empty'
}
for i in $(seq 1 150); do [ "$(q 'up{job="stwtop"}' 2>/dev/null)" = 1 ] && break; sleep 0.2; done
[ "$(q 'up{job="stwtop"}')" = 1 ] && pass "Prometheus scrapes stwtop (up == 1)" ||
	{ fail "Prometheus never scraped stwtop"; tail -20 "$TMPD/prometheus.log"; exit 1; }

python3 "$D/tools/replay.py" --speed 4 --log "$TMPD/writes.tsv" "$TMPD/gc.log=$S/gc.log" \
	"$TMPD/console.log=$S/console.log" "$TMPD/access.log=$S/logs/access.log" "$TMPD/cpustat.log=$S/cpustat.log" \
	"$TMPD/schedstat.log=$S/schedstat.log" "$TMPD/vmstat.log=$S/vmstat.log" || fail "replay"

TZ=UTC "$BIN" --report --json "${srcs[@]}" >"$TMPD/report.json" || fail "report"
R=$TMPD/report.json
want_stops=$(jq '.summary.stops' "$R")
# the replay is over; wait until Prometheus has a scrape of the whole
for i in $(seq 1 100); do [ "$(q 'stwtop_safepoint_seconds_count')" = "$want_stops" ] && break; sleep 0.2; done
sleep 2.5   # two more scrapes: the last verdicts of the final evaluation are in

eq() {   # eq WHAT PROMQL EXPECTED: numbers equal within 1e-6
	local got; got=$(q "$2")
	if [ -n "$got" ] && awk -v a="$got" -v b="$3" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }'; then
		pass "$1: $got"
	else
		fail "$1: Prometheus has '$got', the report $3"
	fi
}
eq "safepoint_seconds_count" 'stwtop_safepoint_seconds_count' "$want_stops"
eq "safepoint_sync_seconds_count" 'stwtop_safepoint_sync_seconds_count' "$want_stops"
eq "gc pauses" 'sum(stwtop_gc_pause_seconds_count)' "$(jq '.summary.gc_pauses' "$R")"
# $upstream_connect_time is the 4th field (uct=S) of this recording's log_format
for le in 0.001 0.01 0.1 1 2 5; do
	want=$(awk -v le="$le" '{ split($4, a, "="); if (a[2] != "-" && a[2] + 0 <= le + 0) n++ } END { print n + 0 }' "$S/logs/access.log")
	eq "upstream connect le=$le (awk over the log)" "stwtop_nginx_upstream_connect_duration_seconds_bucket{le=\"$le\"}" "$want"
done
eq "upstream connect count" 'stwtop_nginx_upstream_connect_duration_seconds_count' \
	"$(jq '[.summary.nginx.uct_buckets[]] | add' "$R")"
eq "upstream connect none" 'stwtop_nginx_requests_without_upstream_connect_total' "$(jq '.summary.nginx.uct_none' "$R")"
eq "requests" 'sum(stwtop_nginx_requests_total)' "$(jq '.summary.nginx.requests' "$R")"
eq "request duration count" 'stwtop_nginx_request_duration_seconds_count' "$(jq '.summary.nginx.requests' "$R")"
eq "throttled seconds" 'stwtop_cgroup_cpu_cfs_throttled_seconds_total' "$(jq '.summary.throttle.throttled_ms / 1000' "$R")"
eq "throttled periods" 'stwtop_cgroup_cpu_cfs_throttled_periods_total' "$(jq '.summary.throttle.nr_throttled' "$R")"
# nr_periods: growth from the recording's first sample to its last
eq "CFS periods (cpustat.log's nr_periods, last - first)" 'stwtop_cgroup_cpu_cfs_periods_total' \
	"$(awk '{ for (i = 1; i < NF; i++) if ($i == "nr_periods") { if (f == "") f = $(i + 1); l = $(i + 1) } } END { print l - f }' "$S/cpustat.log")"
[ "$(jq '.summary.stops' "$R")" -gt 50 ] && [ "$(jq '.summary.nginx.uct_buckets["1"]' "$R")" -gt 0 ] ||
	fail "the report's numbers are not the incident's (stops, slow connects)"

# verdicts: every (id, severity) Prometheus has above 0 is the report's count, and back
curl -sf "http://127.0.0.1:$PP/api/v1/query" --data-urlencode 'query=stwtop_verdicts_total > 0' |
	jq -r '.data.result[] | "\(.metric.id) \(.metric.level) \(.value[1])"' | sort >"$TMPD/prom.verdicts"
jq -r '.verdicts | group_by(.id + " " + .severity)[] | "\(.[0].id) \(.[0].severity) \(length)"' "$R" |
	sort >"$TMPD/report.verdicts"
if [ -s "$TMPD/report.verdicts" ] && diff "$TMPD/report.verdicts" "$TMPD/prom.verdicts" >"$TMPD/vdiff"; then
	pass "verdicts_total by id and level = the report's: $(tr '\n' ';' <"$TMPD/report.verdicts")"
else
	fail "verdicts_total differ from the report (< report, > Prometheus):"; cat "$TMPD/vdiff"
fi
curl -sf "http://127.0.0.1:$PP/api/v1/query" --data-urlencode 'query=stwtop_verdict_active > 0' |
	jq -r '.data.result[] | "\(.metric.id) \(.metric.level) \(.value[1])"' | sort >"$TMPD/prom.active"
if diff "$TMPD/report.verdicts" "$TMPD/prom.active" >"$TMPD/adiff"; then
	pass "verdict_active by id and level = the report's verdicts (all within 5 min of the newest data)"
else
	fail "verdict_active differs from the report (< report, > Prometheus):"; cat "$TMPD/adiff"
fi
# the scrape stayed whole and fast
eq "no failed scrape" 'min_over_time(up{job="stwtop"}[1m])' 1
d=$(q 'max_over_time(scrape_duration_seconds{job="stwtop"}[1m])')
awk -v d="$d" 'BEGIN { exit !(d != "" && d < 0.1) }' && pass "slowest scrape ${d}s" || fail "slowest scrape '$d' s"
[ $rc = 0 ] || { echo "--- stwtop stderr"; tail -5 "$TMPD/stwtop.err"; }
exit $rc
