#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh [PART...] — stwtop's benchmarks (issue 7). Parts, all by default:
#   throughput  replay through the real CLI (stwtop --report --json) vs grep -c
#               on the same page-cached file, in the same hyperfine run
#   goaccess    nginx lines/s of stwtop and goaccess 1.7 on the same file and format
#   memory      peak RSS (/usr/bin/time) replaying 10 MB and 1 GB
#   live        CPU of stwtop --plain following three busy logs and polling a JVM
#               with 2000 threads for a minute, parked and waking every 100 ms, next to
#               `top -d 1` (live-overhead.sh)
#   latency     line written -> NDJSON verdict read, alone and in a stream of nginx
#               lines, and -> tmux screen (latency.sh, latency.py)
#   gzip        stwtop --report --gc big.log.gz vs `zcat big.log.gz | grep -c .` (gzip -6 copies
#               of the 256 MB JDK 8 and safepoint logs), and the plain file for reference;
#               the same with zstd when the build reads it
#   split       where a replay's time goes, per throughput input: grep -c, reading and
#               cutting the lines alone, that and the parser alone (bench_split.c, the
#               report's own reader and parsers), and the whole report, in one hyperfine run; the parser's
#               counts must equal the report's
# The big logs are made once from the real samples (genlog.py, shifted timestamps)
# into tests/bench/out/, with every raw result; the summary is out/summary.txt.
# Needs: python3, hyperfine, jq (and goaccess, java for those parts):
#   apt-get install hyperfine goaccess jq
# RUNS=N (default 7) runs per measurement; BUILD=dir (default build-bench).
# BASE=path: the base binary (e.g. a copy of main's build) runs in the same
# hyperfine runs as grep -c and this build, and throughput ends with the
# issue 27 table: each input's ratio to grep -c, this build's and the base's.
# TP=name,name: only those throughput inputs (default all), and only their logs made.
# Numbers are only worth something on a quiet machine: every measurement first
# waits (up to 2 minutes) for other processes to use less than 10% of a CPU and
# records what the machine was doing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$here/out
S=$top/tests/samples
mkdir -p "$out"
RUNS=${RUNS:-7}
BUILD=${BUILD:-$top/build-bench}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(throughput split goaccess memory live latency gzip)
want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
for t in hyperfine jq python3; do
	command -v $t >/dev/null || { echo "run.sh needs $t (apt-get install hyperfine jq python3)"; exit 2; }
done

cmake -S "$top" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTWTOP_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target stwtop bench_split >/dev/null
BIN=$BUILD/stwtop
export BIN
export OPS='$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time" rid=$request_id'
export LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
SUM=$out/summary.txt
say() { echo "$*" | tee -a "$SUM"; }

# CPU used by every process but ours over one second, in % of one CPU
foreign_cpu() {
	local a b
	a=$(awk '/^cpu /{print $2+$3+$4+$7+$8; exit}' /proc/stat)
	sleep 1
	b=$(awk '/^cpu /{print $2+$3+$4+$7+$8; exit}' /proc/stat)
	echo $(((b - a) * 100 / $(getconf CLK_TCK)))
}
# wait for a quiet machine; note what it was doing either way
quiet() {
	local i c
	for i in $(seq 1 120); do
		c=$(foreign_cpu)
		[ "$c" -lt 10 ] && break
	done
	say "   machine before '$1': other processes ${c}% of a CPU, load $(cut -d' ' -f1-3 /proc/loadavg)$([ "$c" -lt 10 ] || echo ' (NOT QUIET: numbers suspect)')"
}

gen() { # KIND SAMPLE NAME MB
	local f=$out/$3.log
	[ -n "${TP:-}" ] && case ",$TP," in *",$3,"*) ;; *) return 0 ;; esac   # TP: only those made
	[ -s "$f" ] && [ "$f" -nt "$here/genlog.py" ] && return 0
	python3 "$here/genlog.py" "$1" "$2" "$f.tmp" "$4" && mv "$f.tmp" "$f"
}
if want gzip; then   # only what it reads
	gen jdk8 "$S/public-gc-logs/dataset106.txt" jdk8 256
	gen safepoint "$S/combined/throttle-stop/gc.log" safepoint 256
fi
if want throughput || want split || want goaccess || want memory; then
	gen unified "$S/g1-periodic/load-continues/gc.log" unified-1g 1000
	gen unified "$S/g1-periodic/load-continues/gc.log" unified-10m 10
	gen jdk8 "$S/public-gc-logs/dataset106.txt" jdk8 256
	gen safepoint "$S/combined/throttle-stop/gc.log" safepoint 256
	gen safepoint "$S/throttle/control/gc.log" safepoint-healthy 256
	gen nginx "$S/nginx-uct/backlog100/logs/access.log" nginx-ops 195
	gen nginx "$S/combined/throttle-stop/logs/access.log" nginx-lab 200
fi

{
	echo "== stwtop benchmarks $(date -u +%FT%TZ), $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet || echo '+dirty')"
	echo "   $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/{print $2}') GiB"
	echo "   $(hyperfine --version), $(grep --version | head -1), $RUNS runs each, medians [min-max]"
} | tee -a "$SUM"

# median [min-max] of one hyperfine command, in seconds
stat_of() { jq -r ".results[$2] | \"\(.median) \(.min) \(.max)\"" "$1"; }
fmt3() { awk -v m="$1" -v a="$2" -v b="$3" 'BEGIN{printf "%.3f s [%.3f-%.3f]", m, a, b}'; }

TABLE=()
throughput() { # NAME GREP_PATTERN STWTOP_ARGS...
	local name=$1 pat=$2 f=$out/$1.log; shift 2
	local j=$out/tp-$name.json
	case ",${TP:-$name}," in *",$name,"*) ;; *) return 0 ;; esac
	cat "$f" >/dev/null # into the page cache
	eval "\"$BIN\" --report --json $* $f" >"$out/report-$name.json" ||
		{ say "$name: stwtop --report failed"; return 1; }
	quiet "$name"
	# --output=pipe: grep -c stops at the first match when its output is /dev/null;
	# -i: grep exits 1 when nothing matches (no Pause in a safepoint log), it still reads it all
	local base=()
	[ -n "${BASE:-}" ] && base=("$BASE --report --json $* $f")
	hyperfine -N -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$j" \
		"grep -c '$pat' $f" "$BIN --report --json $* $f" "${base[@]}" >/dev/null
	local bytes lines g s
	bytes=$(stat -c %s "$f")
	lines=$(wc -l <"$f")
	read -r gm ga gb <<<"$(stat_of "$j" 0)"
	read -r sm sa sb <<<"$(stat_of "$j" 1)"
	say "$(awk -v n="$name" -v by="$bytes" -v li="$lines" -v gm="$gm" -v sm="$sm" \
		'BEGIN{printf "%-18s %7.1f MB %9d lines  stwtop %7.1f MB/s %6.2f M lines/s  ratio to grep %5.2fx", n, by/1e6, li, by/1e6/sm, li/1e6/sm, sm/gm}')"
	say "   grep -c '$pat': $(fmt3 "$gm" "$ga" "$gb")   stwtop --report --json $*: $(fmt3 "$sm" "$sa" "$sb")"
	local row
	row=$(awk -v n="$name" -v by="$bytes" -v gm="$gm" -v sm="$sm" 'BEGIN{printf "| %s, %.0f MB | %.2fx |", n, by/1e6, sm/gm}')
	if [ -n "${BASE:-}" ]; then
		read -r bm ba bb <<<"$(stat_of "$j" 2)"
		say "   base $BASE: $(fmt3 "$bm" "$ba" "$bb")"
		row="$row $(awk -v gm="$gm" -v bm="$bm" 'BEGIN{printf "%.2fx |", bm/gm}')"
	fi
	TABLE+=("$row")
}

if want throughput; then
	say "-- throughput: stwtop --report --json FILE vs grep -c on the same cached file (hyperfine)"
	throughput unified-1g Pause --gc
	throughput jdk8 Pause --gc
	throughput safepoint Pause --gc
	throughput safepoint-healthy Pause --gc
	throughput nginx-ops ' 200 ' --nginx-format "'$OPS'" --nginx
	throughput nginx-lab ' 200 ' --nginx-format "'$LAB'" --nginx
	say ""
	say "| input | stwtop \`--report --json\` vs \`grep -c\` ($(git -C "$top" rev-parse --short HEAD)) |$([ -n "${BASE:-}" ] && echo " base ($(basename "$BASE")) vs \`grep -c\` |")"
	say "|---|---|$([ -n "${BASE:-}" ] && echo "---|")"
	for r in "${TABLE[@]}"; do say "$r"; done
fi

SPLIT=()
split_row() { # NAME GREP_PATTERN MODE [FORMAT] -- STWTOP_ARGS...
	local name=$1 pat=$2 mode=$3 fmt=() f=$out/$1.log; shift 3
	[ "$1" != -- ] && { fmt=("$1"); shift; }
	shift
	local j=$out/split-$name.json
	case ",${TP:-$name}," in *",$name,"*) ;; *) return 0 ;; esac
	cat "$f" >/dev/null
	local mine want
	mine=$("$SPLIT_BIN" "$mode" "$f" "${fmt[@]}")
	want=$("$BIN" --report --json "$@" "$f" | jq -r '.sources[0] | "\(.lines) \(.parsed)"')
	[ "$mine" = "$want" ] || { say "$name: bench_split counted '$mine' (lines parsed), the report '$want': not the same work, no row"; return 1; }
	quiet "split $name"
	local q=() a
	for a in "$@"; do q+=("'$a'"); done
	local fq=""
	[ ${#fmt[@]} -gt 0 ] && fq="'${fmt[0]}'"
	hyperfine -N -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$j" \
		"grep -c '$pat' $f" "$SPLIT_BIN read $f" "$SPLIT_BIN $mode $f $fq" \
		"$BIN --report --json ${q[*]} $f" >/dev/null
	local g r p w x
	read -r g x x <<<"$(stat_of "$j" 0)"; read -r r x x <<<"$(stat_of "$j" 1)"
	read -r p x x <<<"$(stat_of "$j" 2)"; read -r w x x <<<"$(stat_of "$j" 3)"
	SPLIT+=("$(awk -v n="$name" -v g="$g" -v r="$r" -v p="$p" -v w="$w" 'BEGIN{
		printf "| %s | %.3f s | %.3f s (%.2fx) | %.3f s (%.2fx) | %.3f s (%.2fx) | %.0f %% |", n, g, r, r/g, p, p/g, w, w/g, 100*(w-p)/w }')")
}
if want split; then
	SPLIT_BIN=$BUILD/bench_split
	say "-- split: where a replay's time goes (hyperfine medians; ratios to grep -c)"
	split_row unified-1g Pause jvm -- --gc
	split_row jdk8 Pause jvm -- --gc
	split_row safepoint Pause jvm -- --gc
	split_row safepoint-healthy Pause jvm -- --gc
	split_row nginx-ops ' 200 ' nginx "$OPS" -- --nginx-format "$OPS" --nginx
	split_row nginx-lab ' 200 ' nginx "$LAB" -- --nginx-format "$LAB" --nginx
	say ""
	say "| input | grep -c | read and cut lines | and parse them | stwtop --report --json | after the parser |"
	say "|---|---|---|---|---|---|"
	for r in "${SPLIT[@]}"; do say "$r"; done
fi

if want goaccess; then
	if command -v goaccess >/dev/null; then
		f=$out/nginx-ops.log
		j=$out/goaccess.json
		cat "$f" >/dev/null
		quiet goaccess
		hyperfine --output=pipe --warmup 1 --runs 3 --export-json "$j" \
			"goaccess $f --log-format='%h - %^ [%d:%t %^] \"%r\" %s %b \"%R\" \"%u\" rt=%T uct=\"%^\" uht=\"%^\" urt=\"%^\" rid=%^' --date-format=%d/%b/%Y --time-format=%T --no-progress -o $out/goaccess-report.json" \
			"$BIN --report --json --nginx $f --nginx-format '$OPS'" >/dev/null
		lines=$(wc -l <"$f")
		read -r gm ga gb <<<"$(stat_of "$j" 0)"
		read -r sm sa sb <<<"$(stat_of "$j" 1)"
		valid=$(jq .general.valid_requests "$out/goaccess-report.json")
		req=$("$BIN" --report --json --nginx "$f" --nginx-format "$OPS" | jq .summary.nginx.requests)
		say "-- nginx side by side (ops format, $lines lines): goaccess counted $valid valid requests, stwtop $req"
		say "$(awk -v l="$lines" -v g="$gm" -v s="$sm" 'BEGIN{printf "   goaccess %.0f lines/s, stwtop %.0f lines/s: %.1fx", l/g, l/s, g/s}')"
		say "   goaccess $(goaccess --version | head -1 | tr -d '\n'): $(fmt3 "$gm" "$ga" "$gb")   stwtop: $(fmt3 "$sm" "$sa" "$sb")"
	else
		say "-- goaccess: not installed (apt-get install goaccess)"
	fi
fi

if want memory; then
	gen nginx "$S/nginx-uct/backlog100/logs/access.log" nginx-ops-1g 1000
	say "-- peak RSS (/usr/bin/time -f %M) of report runs over the first N MB of a log (whole lines)"
	quiet memory
	rss() { # NAME FILE MB ARGS...: one line: size, RSS, what the report held
		local name=$1 f=$2 mb=$3 cut=$out/rss-cut.log
		shift 3
		head -c "${mb}000000" "$f" | sed '$d' >"$cut"
		/usr/bin/time -f %M -o "$out/rss" "$BIN" --report --json "$@" "$cut" >"$out/rss.json"
		say "$(printf '   %-18s %5d MB: %6d KB  (%s lines parsed, %s verdicts)' "$name" "$mb" "$(cat "$out/rss")" \
			"$(jq '.sources[0].parsed' "$out/rss.json")" "$(jq '.verdicts | length' "$out/rss.json")")"
	}
	for mb in 10 100 1000; do rss unified "$out/unified-1g.log" $mb --gc; done
	for mb in 10 64 256; do rss jdk8 "$out/jdk8.log" $mb --gc; done
	for mb in 10 32 64 256; do rss safepoint "$out/safepoint.log" $mb --gc; done
	for mb in 10 256; do rss safepoint-healthy "$out/safepoint-healthy.log" $mb --gc; done
	for mb in 10 25 100 1000; do rss nginx-ops "$out/nginx-ops-1g.log" $mb --nginx-format "$OPS" --nginx; done
	rm -f "$out/rss-cut.log"
fi

if want gzip; then
	say "-- gzip: stwtop --report --json --gc F.gz vs zcat F.gz | grep -c . (both through sh: a pipe)"
	gzbench() { # NAME
		local name=$1 f=$out/$1.log j=$out/gz-$1.json
		[ -s "$f.gz" ] && [ "$f.gz" -nt "$f" ] || gzip -6 -c "$f" >"$f.gz"
		cat "$f.gz" "$f" >/dev/null
		quiet "gzip $name"
		hyperfine -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$j" \
			"zcat $f.gz | grep -c ." "$BIN --report --json --gc $f.gz" "$BIN --report --json --gc $f" >/dev/null
		read -r zm za zb <<<"$(stat_of "$j" 0)"
		read -r gm ga gb <<<"$(stat_of "$j" 1)"
		read -r pm pa pb <<<"$(stat_of "$j" 2)"
		say "$(awk -v n="$name" -v by="$(stat -c %s "$f.gz")" -v z="$zm" -v g="$gm" -v p="$pm" \
			'BEGIN{printf "%-18s %6.1f MB gz  stwtop .gz / zcat|grep %5.2fx, .gz / plain %5.2fx", n, by/1e6, g/z, g/p}')"
		say "   zcat|grep -c .: $(fmt3 "$zm" "$za" "$zb")   stwtop .gz: $(fmt3 "$gm" "$ga" "$gb")   stwtop plain: $(fmt3 "$pm" "$pa" "$pb")"
	}
	gzbench jdk8
	gzbench safepoint
	if command -v zstd >/dev/null && ! "$BIN" --report --gc <(printf 'x\n' | zstd -q -c) 2>&1 | grep -q 'without libzstd'; then
		say "-- zstd: stwtop --report --json --gc F.zst vs zstdcat F.zst | grep -c ."
		for name in jdk8 safepoint; do
			f=$out/$name.log j=$out/zst-$name.json
			[ -s "$f.zst" ] && [ "$f.zst" -nt "$f" ] || zstd -q -c "$f" >"$f.zst"
			cat "$f.zst" >/dev/null
			quiet "zstd $name"
			hyperfine -i --output=pipe --warmup 1 --runs "$RUNS" --export-json "$j" \
				"zstdcat $f.zst | grep -c ." "$BIN --report --json --gc $f.zst" "$BIN --report --json --gc $f" >/dev/null
			read -r zm za zb <<<"$(stat_of "$j" 0)"
			read -r gm ga gb <<<"$(stat_of "$j" 1)"
			read -r pm pa pb <<<"$(stat_of "$j" 2)"
			say "$(awk -v n="$name" -v by="$(stat -c %s "$f.zst")" -v z="$zm" -v g="$gm" -v p="$pm" \
				'BEGIN{printf "%-18s %6.1f MB zst  stwtop .zst / zstdcat|grep %5.2fx, .zst / plain %5.2fx", n, by/1e6, g/z, g/p}')"
			say "   zstdcat|grep -c .: $(fmt3 "$zm" "$za" "$zb")   stwtop .zst: $(fmt3 "$gm" "$ga" "$gb")   stwtop plain: $(fmt3 "$pm" "$pa" "$pb")"
		done
	fi
fi

if want live; then
	quiet live
	# threads parked as a pool's wait for work, then every thread waking 10 times a second
	SLEEPER_MS=60000 bash "$here/live-overhead.sh" "$BIN" "$out" | tee -a "$SUM"
	quiet live
	SLEEPER_MS=100 bash "$here/live-overhead.sh" "$BIN" "$out" | tee -a "$SUM"
fi
if want latency; then
	quiet latency
	bash "$here/latency.sh" "$BIN" "$out" | tee -a "$SUM"
	LATENCY_STREAM=1 python3 "$here/latency.py" "$BIN" "${LATENCY_WRITES:-100}" | tee -a "$SUM"
fi
echo "summary: $SUM"
