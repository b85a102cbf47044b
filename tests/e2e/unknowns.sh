#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# unknowns.sh BIN — what a log did not print is unknown, never 0, and a share of nothing is
# not a share (issue 24): a ZGC log with -Xlog:gc alone has used sizes but no committed heap;
# a log of one pause record covers no time besides that pause; JDK 6 G1 logs with the
# concurrent marking written into a pause's phase tree have a heap, whose committed size is
# not 0. Every input is a real log of tests/fixtures/jvm (READMEs there say where from).
set -u
BIN=${1:?usage: unknowns.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v jq >/dev/null || { echo "unknowns.sh needs jq"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0 failc=0
ok()  { pass=$((pass + 1)); }
bad() { failc=$((failc + 1)); echo "FAIL [$CASE] $*"; }
run() {
  CASE=$1; shift
  TZ=UTC "$BIN" --report "$@" >"$T/$CASE.txt" 2>/dev/null || bad "text report failed"
  TZ=UTC "$BIN" --report --json "$@" >"$T/$CASE.json" 2>/dev/null || bad "JSON report failed"
}
txt_has()   { grep -qF -- "$1" "$T/$CASE.txt" && ok || bad "text lacks \"$1\": $(grep -E 'GC pauses|Heap' "$T/$CASE.txt")"; }
txt_hasnt() { grep -qF -- "$1" "$T/$CASE.txt" && bad "text says \"$1\"" || ok; }
js()        { local got; got=$(jq -c "$1" "$T/$CASE.json"); [ "$got" = "$2" ] && ok || bad "$1 = $got, want $2"; }

# ZGC, -Xlog:gc alone: "used after last GC 5020 MB", the committed heap unknown
run zgc-gc-only --gc "$D/fixtures/jvm/zgc-gc-only.log"
txt_has "Heap       used after last GC 5020 MB; committed not in the log"
txt_hasnt "committed max 0 MB"
js .summary.heap '{"committed_max_mb":null,"committed_last_mb":null,"used_after_gc_last_mb":5020}'

# one JDK 6 G1 pause of 4.3 ms, the whole log: no "paused 98.5 % of the 0.0 s"; its
# heap (53M->53M(103M)) although "[GC concurrent-mark-start]" came between
run g1-jdk6-one-pause --gc "$D/fixtures/jvm/jdk5-7/g1-jdk6-conc-mark-own-line.log"
txt_hasnt "paused"; js .summary.gc_paused_share null
txt_has "Heap       committed max 103 MB, last 103 MB; used after last GC 53 MB"
for f in splits-heap colon in-row in-row-stamped; do
  run "g1-jdk6-$f" --gc "$D/fixtures/jvm/jdk5-7/g1-jdk6-conc-mark-$f.log"
  js '.summary.heap.committed_max_mb > 0' true
done

# a log that covers time besides its pauses keeps its share: JDK 1.4, 6 records over 6.08 s
# (GCViewer asserts 71.7555 % throughput: 28.2445 % paused), the "[Inc GC" among them
run jdk14-inc-gc --gc "$D/fixtures/jvm/jdk5-7/jdk14-inc-gc.log"
js .summary.gc_pauses 6; js '.summary.gc_paused_share - 0.282445 | . < 0.0001 and . > -0.0001' true
txt_has "paused 28.2 % of the 6.1 s the JVM log covers"

# no JVM log at all: the heap is unknown, not 0
run nginx-only --nginx "$D/samples/nginx-uct/backlog1024/logs/access.log" \
  --nginx-conf "$D/samples/nginx-uct/backlog1024/nginx.conf:ops"
js .summary.heap '{"committed_max_mb":null,"committed_last_mb":null,"used_after_gc_last_mb":null}'

echo "unknowns: $pass passed, $failc failed"
[ "$failc" -eq 0 ]
