#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# legacy_sweep.sh BIN — no stop-the-world record of a pre-unified JVM log in
# tests/ is lost. For every public log (tests/samples/public-gc-logs/*) and
# every JVM fixture (tests/fixtures/jvm/**), tests/tools/gc-records.awk counts
# the records that open with "[GC"/"[Full GC" and close with ", N secs]" at
# their own nesting level (its comment says exactly what it counts), from the
# text alone; `BIN --report --json` must count at least as many gc_pauses.
# A file where stwtop counts fewer fails, naming the first record lost: the
# smallest k such that stwtop, fed the file up to the line that closes the
# k-th record, counts fewer than k pauses.
# A record that closes without a duration ("nodur") yields no pause: its
# opening line must be unparsed with a reason in --verbose; an opening line of
# a record that did yield a pause must not be reported unparsed.
# Unified (JDK 9+) logs have no such records and pass trivially; they are
# counted apart in the last line.
set -u
BIN=${1:?usage: legacy_sweep.sh path/to/stwtop}
TESTS=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
AWK=$TESTS/tools/gc-records.awk
command -v jq >/dev/null || { echo "legacy_sweep: needs jq"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-sweep.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 files=0 legacy=0 records=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

pauses() { timeout 120 "$BIN" --report --json --gc "$1" 2>/dev/null | jq -r '.summary.gc_pauses // -1'; }

# first_lost FILE RECS: the k-th record (1-based) from which stwtop counts fewer
first_lost() {
	local f=$1 recs=$2 lo=1 hi mid close
	hi=$(grep -c '^pause' "$recs")
	while [ "$lo" -lt "$hi" ]; do
		mid=$(( (lo + hi) / 2 ))
		close=$(awk -v k="$mid" '$1 == "pause" && ++n == k { print $3 }' "$recs")
		head -n "$close" "$f" >"$T/prefix"
		if [ "$(pauses "$T/prefix")" -lt "$mid" ]; then hi=$mid; else lo=$((mid + 1)); fi
	done
	awk -v k="$lo" '$1 == "pause" && ++n == k { print "record " k " (lines " $2 "-" $3 ", " $4 " secs)" }' "$recs"
}

shopt -s globstar nullglob
for f in "$TESTS"/samples/public-gc-logs/* "$TESTS"/fixtures/jvm/**/*; do
	[ -f "$f" ] || continue
	case $f in *.md | *.sh | *.java | *.json) continue ;; esac
	files=$((files + 1))
	n=${f#"$TESTS"/}
	awk -f "$AWK" "$f" >"$T/recs"
	[ -s "$T/recs" ] || continue
	legacy=$((legacy + 1))
	want=$(grep -c '^pause' "$T/recs")
	records=$((records + want))
	got=$(pauses "$f")
	if [ "$got" -lt "$want" ]; then
		fail "$n: stwtop counts $got pauses, the records are $want; first lost: $(first_lost "$f" "$T/recs")"
	else
		echo "ok: $n: $got pauses >= $want records"
	fi
	# every line reported unparsed, with its reason
	timeout 120 "$BIN" --report --verbose --gc "$f" 2>"$T/err" >/dev/null
	while read -r kind open close _; do
		hit=$(grep -F -- ":$open: did not parse: " "$T/err" | grep -F -- "$(basename "$f"):$open:" | head -1)
		case $kind in
		pause) [ -z "$hit" ] || fail "$n:$open: opens a pause record but is reported unparsed: ${hit#*did not parse: }" ;;
		nodur) case $hit in
			*secs*) echo "ok: $n:$open: record without a duration is unparsed: ${hit#*did not parse: }" ;;
			*) fail "$n:$open: record closed without \", N secs]\" (line $close) is not unparsed with its reason" ;;
			esac ;;
		open) echo "note: $n:$open: the file ends inside the record opened here" ;;
		esac
	done <"$T/recs"
done
echo "$legacy pre-unified logs of $files files, $records pause records, $fails failed"
[ "$fails" -eq 0 ]
