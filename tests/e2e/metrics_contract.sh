#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics_contract.sh BIN — the metric names and labels served are the list of docs/metrics.md,
# no more and no fewer, on real expositions: a real JVM 17 (tests/e2e/java/Quiesce.java, G1,
# logging GC and safepoints to a file) followed with --pid (its hsperfdata counters: jvm_*)
# and its log, the recorded throttle-stop incident's nginx log and cpu.stat samples; scraped
# over HTTP (process_* included) and written as a textfile (no process_*, which node_exporter
# exports for itself; stwtop_process_start_time_seconds instead). Then:
#  - tests/tools/metrics_contract.py: every family served is in docs/metrics.md with its type
#    and exactly its label names, and every family there is served by one of the two;
#  - promtool check metrics is clean on both (Prometheus' own linter of names and help);
#  - the textfile has no process_* and the scrape has no label named severity;
#  - `/` answers a landing page; build_info says the revision and the features.
# Needs javac, java, curl, promtool, python3; skipped (77) without them.
set -u
BIN=${1:?usage: metrics_contract.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$D/.." && pwd)
S=$D/samples/combined/throttle-stop
for c in javac java curl promtool python3; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
"$BIN" --help 2>&1 | grep -q -- '--metrics ' || { echo "SKIP: this stwtop has no --metrics"; exit 77; }
T=$(mktemp -d)
JPID="" SPID=""
cleanup() {
	[ -n "$SPID" ] && kill "$SPID" 2>/dev/null && wait "$SPID" 2>/dev/null
	[ -n "$JPID" ] && kill -KILL "$JPID" 2>/dev/null && wait "$JPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL $*"; fails=$((fails + 1)); }
pass() { echo "PASS $*"; }
. "$(dirname "$0")/lib/ports.bash"

javac -d "$T/classes" "$D/e2e/java/Quiesce.java" || { echo "FAIL javac"; exit 1; }
( cd "$T" && exec java -XX:+UseG1GC -Xmx256m -Xlog:gc*,safepoint:file="$T/gc.log":time,uptime,level,tags \
	-cp classes Quiesce 1500 600000 ) >"$T/app" 2>&1 &
JPID=$!
for i in $(seq 1 150); do grep -q '^ready' "$T/app" && break; sleep 0.1; done
grep -q '^ready' "$T/app" || { echo "FAIL the JVM never got ready: $(head -c 300 "$T/app")"; exit 1; }

P=$(free_port)
cp "$S/logs/access.log" "$T/access.log"
TZ=UTC "$BIN" --plain --json --pid "$JPID" --gc "$T/gc.log" --nginx "$T/access.log" --nginx-conf "$S/nginx.conf" \
	--cpustat-log "$S/cpustat.log" --metrics "127.0.0.1:$P" --metrics-textfile "$T/m.prom" \
	>"$T/out.ndjson" 2>"$T/err" &
SPID=$!
# the JVM's counters appear once read twice (about one --interval); the log's pauses at once
for i in $(seq 1 100); do
	curl -sf --max-time 2 "http://127.0.0.1:$P/metrics" >"$T/scrape" 2>/dev/null &&
		grep -q '^stwtop_jvm_info' "$T/scrape" && grep -q '^stwtop_gc_pause_seconds_count' "$T/scrape" &&
		grep -q '^stwtop_safepoint_seconds_count [1-9]' "$T/scrape" && break
	sleep 0.1
done
grep -q '^stwtop_jvm_info' "$T/scrape" || { fail "no jvm_* in the scrape: $(tail -3 "$T/err")"; exit 1; }
sleep 1.2 # the textfile's next write has them too

python3 "$D/tools/metrics_contract.py" "$ROOT/docs/metrics.md" "$T/scrape" "$T/m.prom" || fails=$((fails + 1))
promtool check metrics <"$T/scrape" >"$T/lint" 2>&1 && pass "promtool check metrics: the scrape is clean" ||
	fail "promtool check metrics on the scrape: $(head -c 1500 "$T/lint")"
promtool check metrics <"$T/m.prom" >"$T/lint2" 2>&1 && pass "promtool check metrics: the textfile is clean" ||
	fail "promtool check metrics on the textfile: $(head -c 1500 "$T/lint2")"
grep -q '^process_' "$T/m.prom" && fail "the textfile has process_* (node_exporter's own names)" ||
	pass "the textfile has no process_*"
grep -q '^stwtop_process_start_time_seconds ' "$T/m.prom" && pass "the textfile says when stwtop started" ||
	fail "no stwtop_process_start_time_seconds in the textfile"
grep -q 'severity=' "$T/scrape" && fail "a series has a label named severity" || pass "no series has a label named severity"
# process_start_time_seconds is this stwtop's start: within a minute before now
now=$(date +%s)
st=$(awk '$1 == "process_start_time_seconds" { print $2 }' "$T/scrape")
awk -v s="$st" -v n="$now" 'BEGIN { exit !(s != "" && s <= n + 1 && s > n - 60) }' &&
	pass "process_start_time_seconds $st is this process's start (now $now)" || fail "process_start_time_seconds '$st', now $now"
fds=$(awk '$1 == "process_open_fds" { print $2 }' "$T/scrape")
real=$(ls "/proc/$SPID/fd" | wc -l)
awk -v a="$fds" -v b="$real" 'BEGIN { d = a - b; exit !(a > 3 && d <= 2 && d >= -2) }' &&
	pass "process_open_fds $fds (/proc/$SPID/fd has $real)" || fail "process_open_fds '$fds', /proc/$SPID/fd has $real"
# the last line read of the access log: a wall-clock time within the last minute
ll=$(grep '^stwtop_source_last_line_timestamp_seconds{source=".*access.log"}' "$T/scrape" | awk '{ print $2 }')
awk -v s="$ll" -v n="$now" 'BEGIN { exit !(s != "" && s <= n + 1 && s > n - 60) }' &&
	pass "source_last_line_timestamp_seconds of the access log $ll" || fail "source_last_line_timestamp_seconds '$ll', now $now"
rev=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null)
# the revision is the commit built: HEAD, which the build follows (a commit reconfigures)
want_rev=${rev:-unknown}
grep -E "^stwtop_build_info\{version=\"[^\"]+\",revision=\"$want_rev\",features=\"[a-z,]*\"\} 1\$" "$T/scrape" >/dev/null &&
	pass "build_info: $(grep '^stwtop_build_info' "$T/scrape") (HEAD $rev)" || fail "build_info: $(grep '^stwtop_build_info' "$T/scrape")"
curl -sf "http://127.0.0.1:$P/" | grep -q 'href="/metrics"' && pass "/ is a landing page" || fail "/ is not a landing page"
[ $fails = 0 ] && echo "metrics_contract: all passed" || { echo "--- stwtop stderr"; tail -5 "$T/err"; }
exit $((fails > 0))
