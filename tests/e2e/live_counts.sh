#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# live_counts.sh BIN — live request counts add up. Real access logs are appended at 4x their
# pace (tests/tools/replay.py) while `stwtop --plain --json` follows them; then:
#  - the status objects' requests, slow_connects and 5xx summed over the run equal what awk counts
#    in the access log by start second ($msec or $time_local minus $request_time, as stwtop
#    places a request), for every start second up to the last settled one: the newest end seen
#    minus the longest request and the largest disorder, less one second. Exactly the seconds
#    after it may be left out (still open at exit), and the last status must have reached it;
#  - consecutive statuses cover consecutive seconds (requests_from = the previous requests_to);
#  - with no late request, each status equals awk's count of its own seconds, so the status
#    during a slow-connect burst shows the burst (the bug: 0 in 25 of 27 lines).
# slow connect = total $upstream_connect_time rounded to >= 1 s (tests/samples/*/expected.sh).
set -u
BIN=${1:?usage: live_counts.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v jq >/dev/null || { echo "jq is not installed"; exit 77; }
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-counts.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
rc=0

# per start second: "sec req slow 5xx"; last line "settled S"
expected() {
	awk '
	function q(name) {   # value of name="..." or name=... in the line
		if (match($0, " " name "=\"[^\"]*\"")) return substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
		if (match($0, " " name "=[^ ]*")) return substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
		return ""
	}
	function total(s,   n, a, i, t, any) {   # sum of "0.001, 1.002" / "0.001 : 1.002"; -1 if none
		n = split(s, a, /[,:] */); t = 0; any = 0
		for (i = 1; i <= n; i++) { gsub(/ /, "", a[i]); if (a[i] != "-" && a[i] != "") { t += a[i]; any = 1 } }
		return any ? t : -1
	}
	function days(y, m, d) {   # days since 1970-01-01 of a civil date
		y -= m <= 2; era = int(y / 400); yoe = y - era * 400
		doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
		return era * 146097 + yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy - 719468
	}
	BEGIN { split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mn, " "); for (i = 1; i <= 12; i++) mon[mn[i]] = i }
	{
		rt = int(q("rt") * 1000 + 0.5)
		if ($1 ~ /^[0-9]+\.[0-9][0-9][0-9]$/) {   # $msec: the end, to the ms
			end = $1; sub(/\./, "", end); end += 0; start = end - rt; st = $3
		} else {                                  # [$time_local], +0000: the end second; its middle
			match($0, /\[[0-9][0-9]\/[A-Za-z][a-z][a-z]\/[0-9][0-9][0-9][0-9]:[0-9][0-9]:[0-9][0-9]:[0-9][0-9]/)
			t = substr($0, RSTART + 1, RLENGTH - 1)
			end = ((days(substr(t, 8, 4) + 0, mon[substr(t, 4, 3)], substr(t, 1, 2) + 0) * 24 + substr(t, 13, 2)) * 60 \
			       + substr(t, 16, 2)) * 60 + substr(t, 19, 2)
			end *= 1000; start = end + 500 - rt
			st = ""; if (match($0, /" [0-9][0-9][0-9] /)) st = substr($0, RSTART + 2, 3)
		}
		if (end - start > span) span = end - start
		if (NR == 1 || end > emax) emax = end
		else if (emax - end > dis) dis = emax - end
		s = int(start / 1000); req[s]++
		u = total(q("uct")); if (u >= 0 && int(u + 0.5) >= 1) slow[s]++
		if (st >= 500 && st <= 599) x5[s]++
	}
	END {
		for (s in req) printf "%d %d %d %d\n", s, req[s], slow[s], x5[s]
		printf "settled %d\n", int((emax - span - dis) / 1000) - 1
	}' "$1"
}

# the status objects as "from to requests slow 5xx late" (epoch seconds, from/to null as -)
statuses() {
	jq -r 'select(.type == "status") | [
		(if .requests_from then (.requests_from | sub("\\.[0-9]+Z$"; "Z") | fromdate) else "-" end),
		(if .requests_to then (.requests_to | sub("\\.[0-9]+Z$"; "Z") | fromdate) else "-" end),
		.requests, .slow_connects, ."5xx", .late_requests] | @tsv' "$1"
}

check() {
	local s=$1 name=$2
	local w=$TMPD/$name
	mkdir -p "$w"
	: >"$w/access.log"
	local conf=$s/nginx.conf fmt
	fmt=$(sed -n 's/.*log_format[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\1/p' "$conf" | head -1)
	TZ=UTC "$BIN" --plain --json --interval 1000 --nginx "$w/access.log" --nginx-conf "$conf:$fmt" \
		>"$w/out.ndjson" 2>"$w/err" &
	local pid=$!
	sleep 0.5
	python3 "$D/tools/replay.py" --speed 4 --log "$w/writes.tsv" "$w/access.log=$s/logs/access.log" || rc=1
	sleep 2.5   # two ticks after the last line
	kill -TERM "$pid"
	wait "$pid"
	expected "$s/logs/access.log" >"$w/expected"
	statuses "$w/out.ndjson" >"$w/statuses"
	awk -v name="$name" '
	FNR == 1 { file++ }
	file == 1 && $1 == "settled" { S = $2; next }
	file == 1 { req[$1] = $2; slow[$1] = $3; x5[$1] = $4; next }
	{ n++; from[n] = $1; to[n] = $2; sr += $3; ss += $4; s5 += $5; late += $6
	  r[n] = $3; sl[n] = $4; f5[n] = $5
	  if ($2 != "-") last = $2 }
	END {
		bad = 0
		for (s in req) if (s + 0 <= S) { er += req[s]; es += slow[s]; e5 += x5[s]; if (slow[s]) burst = 1 }
		else { openr += req[s]; if (s + 0 < S) { print name ": a second before the settled one is left out: " s; bad++ } }
		printf "%s: %d status objects; requests %d, slow connects %d, 5xx %d (access log up to %d: %d, %d, %d; %d in the open seconds after it); %d late\n",
		       name, n, sr, ss, s5, S, er, es, e5, openr, late
		if (sr != er || ss != es || s5 != e5) { print name ": FAIL the statuses do not add up to the access log"; bad++ }
		if (last != S + 1) { printf "%s: FAIL the last status covers seconds to %s, the log is settled to %d\n", name, last, S + 1; bad++ }
		prev = ""
		for (i = 1; i <= n; i++) {
			if (from[i] == "-") continue
			if (prev != "" && from[i] != prev) { printf "%s: FAIL status %d covers from %s, the one before ended at %s\n", name, i, from[i], prev; bad++ }
			prev = to[i]
			if (late) continue
			wr = ws = w5 = 0
			for (s = from[i]; s < to[i]; s++) { wr += req[s]; ws += slow[s]; w5 += x5[s] }
			if (r[i] != wr || sl[i] != ws || f5[i] != w5) {
				printf "%s: FAIL status %d (%d..%d) says %d/%d/%d, the log %d/%d/%d\n", name, i, from[i], to[i], r[i], sl[i], f5[i], wr, ws, w5; bad++ }
			if (ws) shown += sl[i]
		}
		if (burst && !late && !shown) { print name ": FAIL no status shows the slow connects"; bad++ }
		exit bad ? 1 : 0
	}' "$w/expected" "$w/statuses" || { rc=1; echo "--- $name statuses"; cat "$w/statuses"; }
}

check "$D/recordings/g1-full-gc" g1-full-gc                   # 118 slow connects in a 1.1 s Full GC
check "$D/recordings/nginx-sporadic-syn" nginx-sporadic-syn   # 28 ~1 s connects, no stop
check "$D/samples/nginx-uct/backlog100" backlog100            # $time_local; 2 s SIGSTOP at 300 req/s
check "$D/samples/nginx-uct/connect-timeout" connect-timeout  # 504s
[ $rc -eq 0 ] && echo "live counts: all add up"
exit $rc
