#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# inputs.sh BIN — inputs as they arrive during an incident give the report of
# the plain file: a gzip copy (told by its magic bytes: the copy keeps the
# plain name), two gzip members one after the other (cat a.gz b.gz), stdin
# (`--gc -`, `--gc /dev/stdin < f`, a gzip piped in), a pipe (`--gc <(cat f)`),
# zstd (one frame, two frames) when the build has libzstd.
# Each is compared with the plain file copied under the name the input is given
# in the evidence (`stdin`, `pipe 63`), so the whole text report and the whole
# JSON must be equal but for the source's path. Also: a truncated gzip is read
# in part and says "truncated" (exit 0: what was read stands, as for a file
# truncated while read); corrupt gzip data is an error (exit 1); one stdin
# source only (exit 2); live mode does not follow a gzip (the source's error).
# A log that ends inside a JDK 8 record counts its lines unparsed, with the reason.
set -u
BIN=${1:?usage: inputs.sh path/to/stwtop}
S=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}/samples
T=$(mktemp -d); trap '[ -n "${KEEP:-}" ] && echo "kept $T" || rm -rf "$T"' EXIT
export TZ=UTC
fails=0 n=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { n=$((n + 1)); }

# norm FILE PATH...: the report with the given source paths replaced by PATH
norm() { local f=$1 p; shift; cp "$f" "$f.n"; for p in "$@"; do
	# the text report shows '-' as 'stdin (-)'
	sed -i -e "s|stdin (-): |PATH: |" -e "s|\"path\": \"$p\"|\"path\": \"PATH\"|" -e "s|^\(  [a-z]* *\)$p: |\1PATH: |" "$f.n"; done; }

# same NAME REF_PATH ARGS_BEFORE... -- ARGS_AFTER...: run "--report [--json] KIND REF" and the
# variant (the command in $VARIANT, a bash string using $BIN and $MODE), compare
same() {
	local name=$1 ref=$2 kind=$3 vpath=$4 variant=$5 mode
	for mode in "" --json; do
		"$BIN" --report $mode $kind "$ref" ${EXTRA:+"${EXTRA[@]}"} >"$T/$name.ref$mode" 2>"$T/$name.referr"
		local a=$?
		MODE=$mode bash -c "$variant" >"$T/$name.var$mode" 2>"$T/$name.varerr"
		local b=$?
		norm "$T/$name.ref$mode" "$ref"
		norm "$T/$name.var$mode" "$vpath"
		if [ "$a" != "$b" ] || ! cmp -s "$T/$name.ref$mode.n" "$T/$name.var$mode.n"; then
			fail "$name ${mode:-text}: exit $b (plain file $a), report differs:"
			diff "$T/$name.ref$mode.n" "$T/$name.var$mode.n" | head -10
			head -3 "$T/$name.varerr"
		else
			ok
		fi
	done
	# the pipe and stdin cases keep the wall clock (the bug: "+1795980166.752s")
	grep -q '^  [A-Za-z ]*+[0-9]\{6,\}\.[0-9]*s' "$T/$name.var" && fail "$name: times became offsets"
}

# cases KIND FILE [EXTRA ARGS]: every way of giving FILE
cases() {
	local kind=$1 f=$2 base; base=$(basename "$f"); shift 2
	EXTRA=("$@")
	local tag; tag=$(echo "$f" | tr -c 'A-Za-z0-9\n' _ | tail -c 40)
	local d="$T/$tag"; mkdir -p "$d/plain" "$d/gz" "$d/cat" "$d/stdin"
	cp "$f" "$d/plain/$base"
	cp "$f" "$d/stdin/stdin"
	gzip -c "$f" >"$d/gz/$base"                     # no .gz: told by 1f 8b
	gzip -c "$f" >"$d/gz/$base.gz"
	local half=$(( $(wc -l <"$f") / 2 ))
	{ head -n "$half" "$f" | gzip -c; tail -n +"$((half + 1))" "$f" | gzip -1 -c; } >"$d/cat/$base"
	export BIN EXTRA_S="${*@Q}"
	same "$tag-gzip" "$d/plain/$base" "$kind" "$d/gz/$base" \
		"\"\$BIN\" --report \$MODE $kind '$d/gz/$base' $EXTRA_S"
	if [ -n "$ZSTD" ]; then
		mkdir -p "$d/zst"; zstd -q -c "$f" >"$d/zst/$base"
		{ head -n "$half" "$f" | zstd -q -c; tail -n +"$((half + 1))" "$f" | zstd -q -1 -c; } >"$d/zst/$base.2"
		same "$tag-zstd" "$d/plain/$base" "$kind" "$d/zst/$base" \
			"\"\$BIN\" --report \$MODE $kind '$d/zst/$base' $EXTRA_S"
		mkdir -p "$d/zst2"; mv "$d/zst/$base.2" "$d/zst2/$base"
		same "$tag-zstd-frames" "$d/plain/$base" "$kind" "$d/zst2/$base" \
			"\"\$BIN\" --report \$MODE $kind '$d/zst2/$base' $EXTRA_S"
	fi
	same "$tag-concat" "$d/plain/$base" "$kind" "$d/cat/$base" \
		"\"\$BIN\" --report \$MODE $kind '$d/cat/$base' $EXTRA_S"
	same "$tag-dash" "$d/stdin/stdin" "$kind" "-" \
		"cat '$f' | \"\$BIN\" --report \$MODE $kind - $EXTRA_S"
	same "$tag-devstdin" "$d/stdin/stdin" "$kind" "/dev/stdin" \
		"\"\$BIN\" --report \$MODE $kind /dev/stdin $EXTRA_S <'$f'"
	same "$tag-gzip-dash" "$d/stdin/stdin" "$kind" "-" \
		"\"\$BIN\" --report \$MODE $kind - $EXTRA_S <'$d/gz/$base.gz'"
	# <(...): /dev/fd/N, named "pipe N" in the evidence
	local p; p=$("$BIN" --report --json $kind <(cat "$f") "$@" | jq -r '.sources[0].path')
	local fd=${p##*/}
	mkdir -p "$d/pipe"; cp "$f" "$d/pipe/pipe $fd"
	same "$tag-procsub" "$d/pipe/pipe $fd" "$kind" "$p" \
		"\"\$BIN\" --report \$MODE $kind <(cat '$f') $EXTRA_S"
}

# zstd when this build reads it (libzstd found at build time) and the zstd tool is here
ZSTD=
if command -v zstd >/dev/null; then
	printf 'x\n' | zstd -q -c >"$T/probe.zst"
	if "$BIN" --report --gc "$T/probe.zst" 2>&1 | grep -q 'built without libzstd'; then
		echo "skip: zstd (this stwtop was built without libzstd)"
		"$BIN" --report --gc "$T/probe.zst" >/dev/null 2>&1; [ $? = 1 ] && ok || fail "zstd without libzstd: not exit 1"
	else
		ZSTD=1
	fi
else
	echo "skip: zstd (no zstd tool)"
fi

TS=$S/combined/throttle-stop
cases --gc "$TS/gc.log"                                    # JDK 17 unified, wall clock + uptime
cases --gc "$S/public-gc-logs/dataset106.txt"              # JDK 8 PrintGCDetails
cases --gc "$S/collectors/shenandoah-xmx256m/gc.log"       # uptime only, 2.7 MB: the head is several reads
cases --nginx "$S/nginx-uct/connect-timeout/logs/access.log"
# several sources at once: the GC log piped in (gzip), nginx and cpu.stat as files
cases --gc "$TS/gc.log" --nginx "$TS/logs/access.log" --cpustat-log "$TS/cpustat.log"

# a gzip cut while it is being written: what was read stands, and it is said
gzip -c "$TS/gc.log" >"$T/full.gz"
head -c $(( $(stat -c %s "$T/full.gz") / 2 )) "$T/full.gz" >"$T/cut.gz"
"$BIN" --report --gc "$T/cut.gz" >"$T/cut.out" 2>"$T/cut.err"; rc=$?
[ $rc = 0 ] || fail "truncated gzip: exit $rc, want 0 (read in part, said): $(cat "$T/cut.err")"
grep -q 'note: .*cut.gz: truncated gzip' "$T/cut.out" && ok || fail "truncated gzip: the report does not say so: $(tail -4 "$T/cut.out")"
lines=$(sed -n 's/.*cut.gz: \([0-9]*\) lines.*/\1/p' "$T/cut.out")
[ "${lines:-0}" -gt 0 ] && [ "$lines" -lt "$(wc -l <"$TS/gc.log")" ] && ok || fail "truncated gzip: $lines lines read"
"$BIN" --report --json --gc "$T/cut.gz" | jq -e '.sources[0].note | test("truncated")' >/dev/null && ok \
	|| fail "truncated gzip: JSON sources[0].note does not say truncated"
"$BIN" --report --gc - <"$T/cut.gz" >"$T/cutp.out" 2>&1
grep -q 'stdin: truncated gzip' "$T/cutp.out" && ok || fail "truncated gzip on stdin: not said"
# bytes after the last member that are not gzip: said, ignored
{ cat "$T/full.gz"; printf 'not gzip\n'; } >"$T/trail.gz"
"$BIN" --report --gc "$T/trail.gz" >"$T/trail.out" 2>&1; rc=$?
[ $rc = 0 ] && grep -q 'is not gzip: ignored' "$T/trail.out" && ok || fail "trailing garbage: exit $rc: $(tail -3 "$T/trail.out")"
if [ -n "$ZSTD" ]; then
	zstd -q -c "$TS/gc.log" >"$T/full.zst"
	head -c $(( $(stat -c %s "$T/full.zst") / 2 )) "$T/full.zst" >"$T/cut.zst"
	"$BIN" --report --gc "$T/cut.zst" >"$T/cutz.out" 2>&1; rc=$?
	[ $rc = 0 ] && grep -q 'note: .*cut.zst: truncated zstd' "$T/cutz.out" && ok || fail "truncated zstd: exit $rc: $(tail -3 "$T/cutz.out")"
fi
# corrupt compressed data: an error (exit 1), the lines before it reported
{ head -c 3000 "$T/full.gz"; head -c 3000 /dev/zero | tr '\0' 'x'; tail -c +6001 "$T/full.gz"; } >"$T/bad.gz"
"$BIN" --report --gc "$T/bad.gz" >"$T/bad.out" 2>"$T/bad.err"; rc=$?
[ $rc = 1 ] && grep -q 'corrupt gzip data' "$T/bad.err" && grep -q '^SUMMARY' "$T/bad.out" && ok \
	|| fail "corrupt gzip: exit $rc, stderr $(cat "$T/bad.err")"

# a pipeline whose writer starts late (ssh, a big zcat): waited for, unlike a named FIFO nobody opened
(sleep 6; cat "$TS/gc.log") | "$BIN" --report --json --gc - >"$T/slow.json" 2>"$T/slow.err"; rc=$?
[ $rc = 0 ] && [ "$(jq .summary.gc_pauses "$T/slow.json")" = 9 ] && ok || fail "slow pipe: exit $rc: $(cat "$T/slow.err")"

# one stdin source
for args in "--gc - --nginx -" "--gc - --gc /dev/stdin" "--nginx /dev/fd/0 --gc -"; do
	"$BIN" --report $args </dev/null >"$T/two.out" 2>"$T/two.err"; rc=$?
	[ $rc = 2 ] && grep -q 'standard input is already the source' "$T/two.err" && [ "$(wc -l <"$T/two.err")" = 1 ] && ok \
		|| fail "$args: exit $rc, want 2 and one line: $(cat "$T/two.err")"
done

# live: a gzip is not followed, and says why (that source's error: exit 1)
"$BIN" --plain --interval 200 --gc "$T/full.gz" >"$T/live.out" 2>"$T/live.err" &
pid=$!
for _ in $(seq 100); do grep -q 'gzip-compressed' "$T/live.err" 2>/dev/null && break; sleep 0.05; done
kill -INT $pid; wait $pid; rc=$?
[ $rc = 1 ] && grep -q "could not read $T/full.gz: a gzip-compressed file: it does not grow" "$T/live.err" && ok \
	|| fail "live gzip: exit $rc: $(cat "$T/live.err")"

# a log that ends inside a JDK 8 record (the JVM killed while writing it, a copy
# taken mid-write): the first k lines of a real 24.6 s heap-dump Full GC. The
# record's lines are counted unparsed with the reason, in NOTES and the JSON;
# through gzip and a pipe the same. Never "0 unparsed" over a lost pause.
FX=$S/../fixtures/jvm/jdk8/g1-heapdump-histogram.log
for k in 1 5 8; do
	head -n $k "$FX" >"$T/cut.log"
	"$BIN" --report --json --gc "$T/cut.log" >"$T/cut.json" 2>/dev/null
	[ "$(jq '.sources[0].unparsed' "$T/cut.json")" = $k ] && [ "$(jq '.sources[0].parsed' "$T/cut.json")" = 0 ] &&
		jq -r '.sources[0].first_unparsed' "$T/cut.json" | grep -q '^line 1: a JDK 8 GC record was still open at the end' &&
		[ "$(jq '.sources[0].checked' "$T/cut.json")" != '"read"' ] && ok || fail "cut at line $k: $(jq -c .sources "$T/cut.json")"
	"$BIN" --report --gc "$T/cut.log" >"$T/cut.txt" 2>/dev/null
	grep -q "cut.log: $k lines of GC records were dropped and counted as unparsed" "$T/cut.txt" && ok ||
		fail "cut at line $k: no NOTE: $(sed -n '/NOTES/,/SUMMARY/p' "$T/cut.txt")"
	gzip -c "$T/cut.log" | "$BIN" --report --json --gc - >"$T/cutz.json" 2>/dev/null
	[ "$(jq '.sources[0].unparsed' "$T/cutz.json")" = $k ] && ok || fail "cut at line $k through a gzip pipe"
done
# the whole record: read, nothing lost
"$BIN" --report --json --gc "$FX" >"$T/whole.json"
[ "$(jq '.sources[0].unparsed' "$T/whole.json")" = 0 ] && [ "$(jq '.summary.gc_pauses' "$T/whole.json")" = 1 ] && ok ||
	fail "whole record: $(jq -c '[.sources, .summary.gc_pauses]' "$T/whole.json")"

echo "inputs: $n passed, $fails failed"
[ $fails = 0 ]
