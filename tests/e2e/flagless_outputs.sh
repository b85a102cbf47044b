#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# flagless_outputs.sh path/to/stwtop — a JVM started with no logging flag at all (most pods):
# every output carries its JVM counters (issue 28), and they are jstat's. Real JDK 17 JVMs
# with G1, Parallel, Serial and ZGC run tests/e2e/java/Quiesce.java: it allocates, keeps
# some, calls System.gc() twice, says "ready" and sleeps, so the counters stop moving. Then
# `stwtop --plain --json --pid --metrics`, `--report --json --pid` and `--report --brief
# --pid` are compared with `jstat -gc` and `jstat -snap` (the same hsperfdata, read by the
# JDK's own tool) taken around them:
# - status objects: jvm.source "hsperfdata"; stops, max_stop_ms, heap_committed_mb and
#   gc_pauses_total are numbers (not null, not a 0 for unknown); jvm.since_jvm_start's
#   collections and times are jstat's YGC/FGC/CGC and YGCT/FGCT/CGCT ("-" is null)
# - /metrics: promtool check metrics passes; stwtop_jvm_gc_collections_total and
#   _seconds_total equal jstat's, stwtop_jvm_memory_{used,committed}_bytes equal its
#   EU/S0U+S1U/OU/MU/CCSU and EC/S0C+S1C/OC/MC/CCSC, stwtop_jvm_safepoints_total and the
#   safepoint seconds equal sun.rt.safepoints/safepointTime/safepointSyncTime
# - the report JSON: jvm.source "hsperfdata", the summary's GC and stop totals are jstat's;
#   --brief's numbers line names the counters and gives YGC/FGC/CGC
# - with a GC log (G1, -Xlog:gc*:file=...) and --gc: the top-level fields keep the log's
#   meaning (jvm.source "gclog", gc_pauses_total and the heap the log's), the counters'
#   totals beside them in jvm.since_jvm_start.
# - --report --pid of a process without counters: exit 1, the source "unreadable".
# - when prometheus is installed, a real one scrapes (OpenMetrics) a flagless G1 JVM's jvm_*
#   series and stores jstat's numbers.
# Needs javac, java, jstat, jq, curl, promtool; skipped (77) without them.
set -u
source "$(dirname "$0")/lib/prometheus.bash"
BIN=$(realpath "${1:?usage: flagless_outputs.sh path/to/stwtop}")
D=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d); JPID=""; SPID=""; PROM=""
cleanup() {
	for p in "$SPID" "$JPID" "$PROM"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
for c in javac java jstat jq curl promtool; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
javac -d "$T/classes" "$D/java/Quiesce.java" || { echo "FAIL: javac"; exit 1; }
. "$(dirname "$0")/lib/ports.bash"

# start NAME "FLAGS": the JVM, until it says ready (its counters quiet from then on)
start() {
	( cd "$T" && exec java $2 -Xmx256m -cp classes Quiesce 1500 600000 ) >"$T/$1.app" 2>&1 &
	JPID=$!
	local i
	for i in $(seq 1 150); do grep -q '^ready' "$T/$1.app" && break; sleep 0.1; done
	grep -q '^ready' "$T/$1.app" || fail "$1: the JVM never got ready: $(head -c 300 "$T/$1.app")"
	# ZGC goes on collecting for a few seconds ("Allocation Rate": its rate is an average
	# that decays): quiet is two jstat reads 1 s apart that agree
	local a b=""
	for i in $(seq 1 20); do
		a=$(jstat -gc "$JPID" | tail -1)
		[ "$a" = "$b" ] && break
		b=$a; sleep 1
	done
}
stop_jvm() { kill -KILL "$JPID" 2>/dev/null; wait "$JPID" 2>/dev/null; JPID=""; }

# jstat -gc as "NAME=VALUE" lines (KB and seconds as jstat prints them, "-" kept)
jstat_gc() { jstat -gc "$1" | awk 'NR==1 { for (i = 1; i <= NF; i++) h[i] = $i } NR==2 { for (i = 1; i <= NF; i++) print h[i] "=" $i }'; }
col() { sed -n "s/^$2=//p" "$T/$1"; }
snap() { jstat -J-Djstat.showUnsupported=true -snap "$1" 2>/dev/null | sed -n "s/^$2=//p"; }
metric() { awk -v m="$2" '$1 == m { print $2 }' "$T/$1.prom"; }
kb() { [ -z "$1" ] && echo - || awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }
sec() { [ -z "$1" ] && echo - || awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }
jnum() { jq -r "$2 | if . == null then \"-\" else . end" "$T/$1"; }

# run NAME "FLAGS": the JVM, then every output of stwtop on it, with jstat before and after
run() {
	local name=$1 flags=$2 P
	start "$name" "$flags"
	P=$(free_port)
	jstat_gc "$JPID" >"$T/$name.jstat0"
	"$BIN" --plain --json --pid "$JPID" --metrics "127.0.0.1:$P" >"$T/$name.ndjson" 2>"$T/$name.err" &
	SPID=$!
	local i
	for i in $(seq 1 60); do   # two status objects with the counters read
		[ "$(jq -s '[.[] | select(.type == "status" and .jvm.source == "hsperfdata")] | length' "$T/$name.ndjson" 2>/dev/null || echo 0)" -ge 2 ] && break
		sleep 0.2
	done
	curl -s "127.0.0.1:$P/metrics" >"$T/$name.prom" || fail "$name: /metrics did not answer"
	"$BIN" --report --json --pid "$JPID" >"$T/$name.report.json" 2>"$T/$name.report.err" ||
		fail "$name: --report --json exited $?: $(head -c 300 "$T/$name.report.err")"
	"$BIN" --report --brief --pid "$JPID" >"$T/$name.brief" 2>&1 || fail "$name: --report --brief exited $?"
	# stopped before the second jstat, so every status object it printed (the last one is
	# compared) was read between the two; the last could come after it, and a CI run saw
	# G1's young time there at 0.110 s against jstat's 0.109 with the same YGC
	kill -TERM "$SPID"; wait "$SPID"; local rc=$?; SPID=""
	jstat_gc "$JPID" >"$T/$name.jstat"
	jstat -gccapacity "$JPID" | awk 'NR==1 { for (i = 1; i <= NF; i++) h[i] = $i } NR==2 { for (i = 1; i <= NF; i++) print h[i] "=" $i }' >"$T/$name.cap"
	for c in sun.rt.safepoints sun.rt.safepointTime sun.rt.safepointSyncTime sun.os.hrt.frequency; do
		echo "$c=$(snap "$JPID" "$c")"
	done >"$T/$name.snap"
	[ $rc = 0 ] || fail "$name: stwtop exited $rc: $(head -c 300 "$T/$name.err")"
	cmp -s "$T/$name.jstat0" "$T/$name.jstat" ||
		fail "$name: the JVM's counters moved while quiet; jstat before: $(tr '\n' ' ' <"$T/$name.jstat0") after: $(tr '\n' ' ' <"$T/$name.jstat")"
	stop_jvm
	jq -c 'select(.type == "status")' "$T/$name.ndjson" | tail -1 >"$T/$name.status"
}

check_flagless() { # NAME COLLECTOR
	local name=$1 coll=$2 st=$1.status k c t want got before=$fails
	[ -s "$T/$st" ] || { fail "$name: no status object: $(head -c 300 "$T/$name.err")"; return; }
	[ "$(jq -r .jvm.source "$T/$st")" = hsperfdata ] || fail "$name: jvm.source is not hsperfdata: $(cat "$T/$st")"
	jq -e '(.stops | type) == "number" and (.max_stop_ms | type) == "number" and
	       (.max_ttsp_ms | type) == "number" and .heap_committed_mb > 0 and .gc_pauses_total > 0 and
	       .heap_used_after_gc_mb == null' "$T/$st" >/dev/null ||
		fail "$name: status heap/stop fields not set from the counters: $(cat "$T/$st")"
	# the heap committed is the generations' capacity, jstat -gccapacity's NGC + OGC (KB; "-":
	# ZGC has no young generation)
	want=$(awk -F= '$1 ~ /^(NGC|OGC)$/ && $2 != "-" { s += $2 } END { printf "%.3f", s / 1024 }' "$T/$name.cap")
	awk -v a="$(jq -r .heap_committed_mb "$T/$st")" -v b="$want" 'BEGIN { d = a - b; exit !(d < 0.001 && d > -0.001) }' ||
		fail "$name: heap_committed_mb $(jq -r .heap_committed_mb "$T/$st"), jstat -gccapacity NGC+OGC $want MB"
	[ "$(jq -r .jvm.since_jvm_start.collector "$T/$st")" = "$coll" ] || fail "$name: collector not $coll: $(jq -c .jvm.since_jvm_start "$T/$st")"
	promtool check metrics <"$T/$name.prom" >"$T/$name.lint" 2>&1 || fail "$name: promtool: $(head -5 "$T/$name.lint")"
	grep -q "^stwtop_jvm_info{collector=\"$coll\"} 1$" "$T/$name.prom" || fail "$name: no stwtop_jvm_info for $coll"
	[ "$(jq -r .jvm.source "$T/$name.report.json")" = hsperfdata ] || fail "$name: report jvm.source: $(jq -c .jvm "$T/$name.report.json")"
	[ "$(jq -r .jvm.collector "$T/$name.report.json")" = "$coll" ] || fail "$name: report jvm.collector: $(jq -c .jvm "$T/$name.report.json")"
	grep -q '^numbers: JVM counters since JVM start (hsperfdata' "$T/$name.brief" || fail "$name: --brief: $(cat "$T/$name.brief")"
	local total=0 ttime=0
	for k in young:YGC full:FGC concurrent:CGC; do
		t=${k%%:*} c=${k#*:}
		want=$(col "$name.jstat" "$c")
		got=$(jnum "$st" ".jvm.since_jvm_start.gc.$t.collections")
		[ "$got" = "$want" ] || fail "$name: status $t collections $got, jstat $c $want"
		got=$(jnum "$name.report.json" ".summary.jvm_counters.since_jvm_start.gc.$t.collections")
		[ "$got" = "$want" ] || fail "$name: report $t collections $got, jstat $c $want"
		got=$(metric "$name" "stwtop_jvm_gc_collections_total{type=\"$t\"}"); [ -z "$got" ] && got=-
		[ "$got" = "$want" ] || fail "$name: metric $t collections $got, jstat $c $want"
		grep -q " $c $want " "$T/$name.brief" || [ "$want" = - ] || fail "$name: --brief lacks $c $want: $(cat "$T/$name.brief")"
		want=$(col "$name.jstat" "${c}T")
		got=$(sec "$(metric "$name" "stwtop_jvm_gc_collection_seconds_total{type=\"$t\"}")")
		[ "$got" = "$want" ] || fail "$name: metric $t seconds $got, jstat ${c}T $want"
		got=$(jq -r ".jvm.since_jvm_start.gc.$t.time_ms | if . == null then \"-\" else (. / 1000) end" "$T/$st"); got=$(sec "${got#-}")
		[ "$got" = "$want" ] || fail "$name: status $t time $got s, jstat ${c}T $want"
	done
	[ "$(jq -r .summary.full_gc_pauses "$T/$name.report.json" | sed 's/null/-/')" = "$(col "$name.jstat" FGC)" ] ||
		fail "$name: report full_gc_pauses $(jq -r .summary.full_gc_pauses "$T/$name.report.json"), jstat FGC $(col "$name.jstat" FGC)"
	# memory: jstat's KB, one decimal
	for k in eden:EU:EC survivor:S0U+S1U:S0C+S1C old:OU:OC metaspace:MU:MC compressed_class:CCSU:CCSC; do
		local pool=${k%%:*} rest=${k#*:} u c2 wu wc
		u=${rest%%:*} c2=${rest#*:}
		wu=$(awk -v a="$(col "$name.jstat" "${u%%+*}")" -v b="$(col "$name.jstat" "${u#*+}")" -v two="${u//[^+]/}" \
			'BEGIN { if (a == "-") print "-"; else printf "%.1f", two ? a + b : a }')
		wc=$(awk -v a="$(col "$name.jstat" "${c2%%+*}")" -v b="$(col "$name.jstat" "${c2#*+}")" -v two="${c2//[^+]/}" \
			'BEGIN { if (a == "-") print "-"; else printf "%.1f", two ? a + b : a }')
		got=$(kb "$(metric "$name" "stwtop_jvm_memory_used_bytes{pool=\"$pool\"}")")
		[ "$got" = "$wu" ] || fail "$name: metric $pool used $got KB, jstat $u $wu"
		got=$(kb "$(metric "$name" "stwtop_jvm_memory_committed_bytes{pool=\"$pool\"}")")
		[ "$got" = "$wc" ] || fail "$name: metric $pool committed $got KB, jstat $c2 $wc"
	done
	# safepoints: jstat -snap's raw counters
	local hz sp spt sps
	hz=$(col "$name.snap" sun.os.hrt.frequency); sp=$(col "$name.snap" sun.rt.safepoints)
	spt=$(col "$name.snap" sun.rt.safepointTime); sps=$(col "$name.snap" sun.rt.safepointSyncTime)
	[ "$(metric "$name" stwtop_jvm_safepoints_total)" = "$sp" ] ||
		fail "$name: stwtop_jvm_safepoints_total $(metric "$name" stwtop_jvm_safepoints_total), sun.rt.safepoints $sp"
	[ "$(jq -r .summary.stops "$T/$name.report.json")" = "$sp" ] || fail "$name: report stops $(jq -r .summary.stops "$T/$name.report.json"), sun.rt.safepoints $sp"
	awk -v m="$(metric "$name" stwtop_jvm_safepoint_seconds_total)" -v t="$spt" -v hz="$hz" \
		'BEGIN { d = m - t / hz; exit !(d < 1e-6 && d > -1e-6) }' ||
		fail "$name: safepoint seconds $(metric "$name" stwtop_jvm_safepoint_seconds_total), sun.rt.safepointTime $spt / $hz"
	awk -v m="$(metric "$name" stwtop_jvm_safepoint_sync_seconds_total)" -v t="$sps" -v hz="$hz" \
		'BEGIN { d = m - t / hz; exit !(d < 1e-6 && d > -1e-6) }' ||
		fail "$name: safepoint sync seconds $(metric "$name" stwtop_jvm_safepoint_sync_seconds_total), sun.rt.safepointSyncTime $sps / $hz"
	jq -e '.summary.heap.committed_last_mb > 0 and .summary.gc_pauses > 0 and .summary.max_gc_pause_ms == null' \
		"$T/$name.report.json" >/dev/null || fail "$name: report summary: $(jq -c '.summary | del(.nginx)' "$T/$name.report.json")"
	[ $fails = "$before" ] && echo "ok: $name ($(tr '\n' ' ' <"$T/$name.jstat" | cut -c1-200))"
}

run g1 "-XX:+UseG1GC";             check_flagless g1 G1
run parallel "-XX:+UseParallelGC"; check_flagless parallel Parallel
run serial "-XX:+UseSerialGC";     check_flagless serial Serial
run zgc "-XX:+UseZGC";             check_flagless zgc ZGC

# With a GC log: the top-level fields are the log's, the counters' totals beside them
name=g1log
start "$name" "-XX:+UseG1GC -Xlog:gc*,safepoint:file=$T/gc.log"
"$BIN" --plain --json --pid "$JPID" --gc "$T/gc.log" >"$T/$name.ndjson" 2>"$T/$name.err" &
SPID=$!
for i in $(seq 1 60); do
	[ "$(jq -s '[.[] | select(.type == "status" and .jvm.since_jvm_start != null)] | length' "$T/$name.ndjson" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.2
done
jstat_gc "$JPID" >"$T/$name.jstat"
kill -TERM "$SPID"; wait "$SPID"; SPID=""
stop_jvm
jq -c 'select(.type == "status")' "$T/$name.ndjson" | tail -1 >"$T/$name.status"
TZ=UTC "$BIN" --report --json --gc "$T/gc.log" >"$T/$name.report.json" 2>/dev/null
[ "$(jq -r .jvm.source "$T/$name.status")" = gclog ] || fail "$name: jvm.source: $(jq -c .jvm "$T/$name.status")"
[ "$(jq -r .gc_pauses_total "$T/$name.status")" = "$(jq -r .summary.gc_pauses "$T/$name.report.json")" ] ||
	fail "$name: gc_pauses_total $(jq -r .gc_pauses_total "$T/$name.status") is not the log's $(jq -r .summary.gc_pauses "$T/$name.report.json")"
[ "$(jq -r .heap_used_after_gc_mb "$T/$name.status")" = "$(jq -r .summary.heap.used_after_gc_last_mb "$T/$name.report.json")" ] ||
	fail "$name: heap_used_after_gc_mb $(jq -r .heap_used_after_gc_mb "$T/$name.status") is not the log's"
[ "$(jq -r .heap_committed_mb "$T/$name.status")" = "$(jq -r .summary.heap.committed_last_mb "$T/$name.report.json")" ] ||
	fail "$name: heap_committed_mb $(jq -r .heap_committed_mb "$T/$name.status") is not the log's"
[ "$(jq -r .jvm.since_jvm_start.gc.young.collections "$T/$name.status")" = "$(col "$name.jstat" YGC)" ] ||
	fail "$name: since_jvm_start young $(jq -r .jvm.since_jvm_start.gc.young.collections "$T/$name.status"), jstat YGC $(col "$name.jstat" YGC)"
[ $fails = 0 ] && echo "ok: $name (the log's meaning kept)"

# --report --pid of a process with no counters (not a JVM): the counters were all there was
# to read, so it is an unreadable source (exit 1), never "nothing abnormal"
sleep 30 & NP=$!
"$BIN" --report --json --pid "$NP" >"$T/nojvm.json" 2>"$T/nojvm.err"; rc=$?
kill "$NP"; wait "$NP" 2>/dev/null
[ $rc = 1 ] || fail "no counters: --report --pid exited $rc, not 1"
jq -e '.checked.complete == false and (.sources[] | select(.path == "hsperfdata") | .checked == "unreadable")' \
	"$T/nojvm.json" >/dev/null || fail "no counters: $(jq -c '.sources, .checked' "$T/nojvm.json")"
[ $fails = 0 ] && echo "ok: no counters (an unreadable source, not a healthy JVM)"

# A real Prometheus (it asks for OpenMetrics first) scrapes the jvm_* series of a flagless
# G1 JVM: what it stored is jstat's (the colleague's pod test does this against a pod)
if command -v prometheus >/dev/null; then
	name=prom
	start "$name" "-XX:+UseG1GC"
	read -r SP PP <<<"$(free_ports 2)"
	"$BIN" --plain --json --pid "$JPID" --metrics "127.0.0.1:$SP" >"$T/$name.ndjson" 2>"$T/$name.err" &
	SPID=$!
	prom_start "$T" "$SP" "$PP"
	PROM=$PROM_PID
	q() { curl -sf --max-time 5 "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" |
		jq -r '.data.result[0].value[1] // empty'; }
	for i in $(seq 1 100); do [ -n "$(q 'stwtop_jvm_safepoints_total' 2>/dev/null)" ] && break; sleep 0.2; done
	sleep 1.5   # one more scrape
	jstat_gc "$JPID" >"$T/$name.jstat"
	for k in young:YGC full:FGC concurrent:CGC; do
		got=$(q "stwtop_jvm_gc_collections_total{type=\"${k%%:*}\"}"); want=$(col "$name.jstat" "${k#*:}")
		[ "$got" = "$want" ] || fail "prometheus: stwtop_jvm_gc_collections_total{type=\"${k%%:*}\"} $got, jstat ${k#*:} $want"
		got=$(sec "$(q "stwtop_jvm_gc_collection_seconds_total{type=\"${k%%:*}\"}")"); want=$(col "$name.jstat" "${k#*:}T")
		[ "$got" = "$want" ] || fail "prometheus: ${k%%:*} seconds $got, jstat ${k#*:}T $want"
	done
	got=$(kb "$(q 'stwtop_jvm_memory_used_bytes{pool="old"}')")
	[ "$got" = "$(col "$name.jstat" OU)" ] || fail "prometheus: old used $got KB, jstat OU $(col "$name.jstat" OU)"
	[ "$(q 'stwtop_jvm_info{collector="G1"}')" = 1 ] || fail "prometheus: no stwtop_jvm_info{collector=\"G1\"}"
	kill "$PROM"; wait "$PROM" 2>/dev/null; PROM=""
	kill -TERM "$SPID"; wait "$SPID"; SPID=""
	stop_jvm
	[ $fails = 0 ] && echo "ok: $name (a real Prometheus stored jstat's numbers)"
fi

[ $fails = 0 ] && echo "PASS flagless_outputs" || { echo "$fails failure(s)"; exit 1; }
