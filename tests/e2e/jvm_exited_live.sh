#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# jvm_exited_live.sh path/to/stwtop — the JVM dying is an incident, live, on real parts.
#
# 1. killed: a real JVM (tests/fixtures/java/HelloService.java) behind a real nginx (a
#    private instance on high ports), under load from curl; stwtop follows it with --pid, its
#    GC log and nginx's access log. The JVM is killed with SIGKILL while the load goes on:
#    jvm-exited must appear once, crit, say it was killed (no crash report, no heap at exit),
#    give the interval it is known to (last poll that saw it .. first that found it gone), which
#    holds the kill, and count the requests and 5xx nginx logged that started after that
#    interval: the numbers the access log has from the verdict's end on; the 5xx from the kill
#    on are those plus at most the ones said to have started inside the interval. Its text
#    changes only when the cost at least doubles (issue 26: not every second as it grows).
# 2. exit: the same JVM ends with SIGTERM (it prints its heap at exit): jvm-exited says it
#    exited on its own, at the time of the heap-at-exit lines.
# Needs javac, nginx, curl, jq, python3; skipped (77) without them.
set -u
BIN=$(realpath "${1:?usage: jvm_exited_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""; LPID=""
cleanup() {
	for p in "$LPID" "$SPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	[ -f "$T/nginx.pid" ] && kill -QUIT "$(cat "$T/nginx.pid")" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
for c in javac java nginx curl jq python3; do
	command -v $c >/dev/null || [ -x /usr/sbin/$c ] || { echo "SKIP: $c not installed"; exit 77; }
done
javac -d "$T/classes" "$D/fixtures/java/HelloService.java" || { echo "FAIL: javac"; exit 1; }
. "$(dirname "$0")/lib/nginx.bash"
read -r NPORT JPORT <<<"$(free_ports 2)"
start_nginx "$T" "$NPORT" "$JPORT" 1s 2s

# one run: start the JVM, stwtop, the load; end the JVM with SIGNAL; leave the files in $T/$NAME
run() { # NAME SIGNAL
	local name=$1 sig=$2
	: >"$T/logs/access.log"; kill -USR1 "$(cat "$T/nginx.pid")"   # a fresh access log
	( cd "$T" && exec java -Xmx64m "-Xlog:gc*,safepoint:file=$T/$name-gc.log:time,uptime,level,tags" \
		-cp classes HelloService "$JPORT" 2 ) >"$T/$name-console.log" 2>&1 &
	JPID=$!
	wait_for 30 grep -q READY "$T/$name-console.log" || { echo "FAIL: the JVM did not start: $(head -c 400 "$T/$name-console.log")"; exit 1; }
	"$BIN" --plain --json --interval 200 --pid "$JPID" --gc "$T/$name-gc.log" --nginx "$T/logs/access.log" \
		--nginx-format "$LAB" >"$T/$name.ndjson" 2>"$T/$name.err" &
	SPID=$!
	( while :; do curl -s -o /dev/null --max-time 3 "http://127.0.0.1:$NPORT/x" & sleep 0.05; done ) &
	LPID=$!
	sleep 3
	# the signal lands somewhere between the two clock reads: stwtop may see the JVM alive
	# a few ms after KILL_MS (a run here saw 5 ms), and it is dead by KILL_END
	KILL_MS=$(date +%s%3N); kill "-$sig" "$JPID"; wait "$JPID" 2>/dev/null; KILL_END=$(date +%s%3N); JPID=""
	sleep 3
	kill -KILL "$LPID"; wait "$LPID" 2>/dev/null; LPID=""
	sleep 2.5   # nginx logs the last requests; stwtop reads them
	kill -TERM "$SPID"; wait "$SPID"; local rc=$?; SPID=""
	[ $rc = 0 ] || fail "$name: stwtop exited $rc: $(head -c 400 "$T/$name.err")"
	cp "$T/logs/access.log" "$T/$name-access.log"
}

# "REQUESTS 5XX" that started at or after $2 (an ISO time, or epoch ms), from the raw log
awk_5xx_after() { python3 - "$1" "$2" <<'EOF'
import sys, datetime
a = sys.argv[2]
t0 = float(a) if a.isdigit() else datetime.datetime.strptime(a, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp() * 1000
n = s5 = 0
for line in open(sys.argv[1]):
    f = line.split()
    msec, status, rt = float(f[0]), int(f[2]), float(f[-1].split("=")[1])
    start = round(msec * 1000 - rt * 1000)
    if start >= round(t0):
        n += 1
        s5 += status >= 500
print(n, s5)
EOF
}
ms() { python3 -c "import datetime,sys; print(round(datetime.datetime.strptime(sys.argv[1], '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc).timestamp()*1000))" "$1"; }

run killed KILL
V=$T/killed.ndjson
news=$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="new")' "$V" | wc -l)
[ "$news" = 1 ] || fail "killed: jvm-exited raised $news times (want once): $(grep jvm-exited "$V" | head -c 600)"
fin=$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="final")' "$V")
[ -n "$fin" ] || fail "killed: no final jvm-exited: $(tail -c 600 "$V")"
echo "$fin" | jq -e '.severity == "crit"' >/dev/null || fail "killed: not crit: $fin"
echo "$fin" | jq -e '.title | test("was killed or died without a word")' >/dev/null || fail "killed: title: $(echo "$fin" | jq -r .title)"
echo "$fin" | jq -e '[.evidence[] | select(test("no crash report and no heap-at-exit"))] | length == 1' >/dev/null \
	|| fail "killed: evidence does not say why it was not its own exit: $(echo "$fin" | jq -c .evidence)"
echo "$fin" | jq -e '.advice | test("OOMKilled") and test("cannot see its exit status")' >/dev/null \
	|| fail "killed: advice: $(echo "$fin" | jq -r .advice)"
start=$(echo "$fin" | jq -r .start); end=$(echo "$fin" | jq -r .end)
s_ms=$(ms "$start"); e_ms=$(ms "$end")
[ "$s_ms" -le "$KILL_END" ] && [ "$e_ms" -ge "$KILL_MS" ] && [ $((e_ms - s_ms)) -le 1000 ] \
	|| fail "killed: the interval $start .. $end does not meet the kill, sent at $KILL_MS..$KILL_END"
read -r want_n want <<<"$(awk_5xx_after "$T/killed-access.log" "$end")"
read -r kill_n kill_5xx <<<"$(awk_5xx_after "$T/killed-access.log" "$KILL_MS")"
[ "$want" -gt 0 ] || fail "killed: nginx answered no 5xx after the kill (the test did not make its case): $(tail -3 "$T/killed-access.log")"
got=$(echo "$fin" | jq -r '.title' | sed -n 's/.*nginx answered \([0-9]*\) of the .*/\1/p')
got_n=$(echo "$fin" | jq -r '.title' | sed -n 's/.*nginx answered [0-9]* of the \([0-9]*\) requests after it.*/\1/p')
[ "$got" = "$want" ] || fail "killed: the title counts ${got:-no} 5xx, the access log has $want from $end on: $(echo "$fin" | jq -r .title)"
[ "$got_n" = "$want_n" ] || fail "killed: the title counts ${got_n:-no} requests after it, the access log has $want_n from $end on"
# inside the interval: said apart, not counted as after it
during=$(echo "$fin" | jq -r '.evidence[]' | sed -n 's/.*while it died: [0-9]* requests started, \([0-9]*\) answered 5xx.*/\1/p')
[ "$kill_5xx" -ge "$got" ] && [ "$kill_5xx" -le $((got + ${during:-0})) ] \
	|| fail "killed: the access log has $kill_5xx 5xx from the kill on; the verdict $got after it and ${during:-0} inside its interval"
# updates: the cost said again only when it at least doubled (2n+2), not as each request is counted
counts=$(jq -r 'select(.type=="verdict" and .id=="jvm-exited" and (.event=="new" or .event=="update")) | .title' "$V" \
	| sed -n 's/.*nginx answered \([0-9]*\) of the .*/\1/p')
prev=-1; set -- $counts
while [ $# -gt 0 ]; do
	c=$1; shift
	# the end of the run says the exact count once more (the last text, equal to the final's)
	[ $# = 0 ] && [ "$c" = "$got" ] && break
	[ "$prev" -lt 0 ] || [ "$c" -ge $((2 * prev + 2)) ] || fail "killed: an update from $prev to $c 5xx (not a doubling): $(echo $counts)"
	prev=$c
done
echo "killed: kill at $KILL_MS, interval $start .. $end; 5xx after it $got (access log $want), from the kill $kill_5xx, inside ${during:-0}; texts with a 5xx count: $(echo $counts)"
[ "$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and (.event=="cleared"))' "$V" | wc -l)" = 0 ] \
	|| fail "killed: jvm-exited was cleared"

run exit TERM
V=$T/exit.ndjson
fin=$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="final")' "$V")
[ -n "$fin" ] || fail "exit: no final jvm-exited: $(tail -c 600 "$V")"
echo "$fin" | jq -e '.title | test("^The JVM exited at ")' >/dev/null || fail "exit: title: $(echo "$fin" | jq -r .title)"
echo "$fin" | jq -e '[.evidence[] | select(test("printed the heap at exit"))] | length == 1' >/dev/null \
	|| fail "exit: evidence: $(echo "$fin" | jq -c .evidence)"
# its time is the heap-at-exit line's
hx=$(grep -m1 '\[gc,heap,exit *\] Heap$' "$T/exit-gc.log" | sed 's/^\[\([^]]*\)\].*/\1/')
[ -n "$hx" ] || fail "exit: the JVM printed no heap at exit on SIGTERM: $(tail -3 "$T/exit-gc.log")"
hxz=$(python3 -c "import datetime,sys; print(datetime.datetime.strptime(sys.argv[1], '%Y-%m-%dT%H:%M:%S.%f%z').astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z')" "$hx")
[ "$(echo "$fin" | jq -r .start)" = "$hxz" ] || fail "exit: starts at $(echo "$fin" | jq -r .start), the heap at exit was at $hxz"

echo "killed: $(echo "$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="final")' "$T/killed.ndjson")" | jq -r .title)"
echo "exit:   $(echo "$fin" | jq -r .title)"
[ $fails = 0 ] && echo "jvm_exited_live: all passed" || { echo "jvm_exited_live: $fails failed"; exit 1; }
