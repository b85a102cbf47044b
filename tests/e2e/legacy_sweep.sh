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
# A piece of another line before a record (interleaved writes of two
# threads, garbagecat dataset89 line 2) must not hide the record: every
# record-opening line of every legacy file is given a piece taken from the
# file itself (its first record line cut after the "[" and the title's first
# letter: "<stamps>: [G") and stwtop must count the same pauses as without
# the pieces, each pieced line reported unparsed with its reason. And the
# real 12.2 s Full GC of dataset103 behind dataset89's own piece must give
# the same crit long-gc-pause as without it.
set -u
BIN=${1:?usage: legacy_sweep.sh path/to/stwtop}
TESTS=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
AWK=$TESTS/tools/gc-records.awk
command -v jq >/dev/null || { echo "legacy_sweep: needs jq"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-sweep.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 files=0 legacy=0 records=0 pieces=0
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
		pause) case $hit in
			'' | *": a piece of another line "*) ;; # its record read, a piece before it not
			*) fail "$n:$open: opens a pause record but is reported unparsed: ${hit#*did not parse: }" ;;
			esac ;;
		nodur) case $hit in
			*secs*) echo "ok: $n:$open: record without a duration is unparsed: ${hit#*did not parse: }" ;;
			*) fail "$n:$open: record closed without \", N secs]\" (line $close) is not unparsed with its reason" ;;
			esac ;;
		open) echo "note: $n:$open: the file ends inside the record opened here" ;;
		esac
	done <"$T/recs"
	# the same file with a piece of its first record line before every record
	piece=$(awk -v k="$(awk '$1 == "pause" { print $2; exit }' "$T/recs")" 'NR == k {
		i = index($0, "[GC"); j = index($0, "[Full GC"); k = index($0, "[Inc GC")
		if (!i || (j && j < i)) i = j
		if (!i || (k && k < i)) i = k
		print substr($0, 1, i + 1); exit }' "$f")
	if [ -n "$piece" ]; then
		awk -v p="$piece" 'NR == FNR { if ($1 == "pause") o[$2] = 1; next }
			(FNR in o) { printf "%s", p } { print }' "$T/recs" "$f" >"$T/pieced"
		pieced=$(pauses "$T/pieced")
		if [ "$pieced" != "$got" ]; then
			fail "$n: with \"$piece\" before each of its $want records stwtop counts $pieced pauses, without $got"
		else
			echo "ok: $n: $pieced pauses with \"$piece\" before each record"
			pieces=$((pieces + want))
		fi
	fi
done

# dataset103 line 50: a real 12.2 s Full GC; dataset89 line 2: a real piece
D103=$TESTS/samples/public-gc-logs/dataset103.txt
P89=$(sed -n 2p "$TESTS/samples/public-gc-logs/dataset89.txt" | grep -o '^[0-9.]*: \[ParNew[0-9.]*: \[ParNew')
sed -n 49,51p "$D103" >"$T/full.log"
sed -n 49,51p "$D103" | awk -v p="$P89" 'NR == 2 { printf "%s", p } { print }' >"$T/full-pieced.log"
v() { timeout 60 "$BIN" --report --json --gc "$1" 2>/dev/null |
	jq -c '[.summary.gc_pauses, .summary.max_gc_pause_ms, [.verdicts[] | .id + ":" + .severity]]'; }
a=$(v "$T/full.log") b=$(v "$T/full-pieced.log")
case $a in
*'"long-gc-pause:crit"'*) [ "$a" = "$b" ] && echo "ok: a 12.2 s Full GC behind \"$P89\": $b" ||
	fail "a 12.2 s Full GC behind \"$P89\": $b, without the piece $a" ;;
*) fail "dataset103 lines 49-51 (a 12.2 s Full GC) give no crit long-gc-pause: $a" ;;
esac
timeout 60 "$BIN" --report --verbose --gc "$T/full-pieced.log" 2>&1 >/dev/null |
	grep -q 'full-pieced.log:2: did not parse: a piece of another line' &&
	echo "ok: the piece is counted unparsed with its reason" ||
	fail "the piece before the 12.2 s Full GC is not reported unparsed with its reason"
echo "$legacy pre-unified logs of $files files, $records pause records ($pieces also read behind a piece), $fails failed"
[ "$fails" -eq 0 ]
