#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare.sh OLD_BIN NEW_BIN [MB] — what a change costs, measured so that other
# work on the machine cannot move it: the instructions each binary executes for
# a --report --json of the same big logs (callgrind: exact, reproducible to a
# few instructions) and its peak RSS (/usr/bin/time %M). The logs are made by
# genlog.py from the real samples (MB each, default 20) into tests/bench/out/.
# Prints one line per log and the ratio NEW/OLD; exits 1 when any ratio of
# instructions or memory is above 1.05 (the renovation's bound).
set -euo pipefail
OLD=$(realpath "${1:?usage: compare.sh OLD_BIN NEW_BIN [MB]}")
NEW=$(realpath "${2:?usage: compare.sh OLD_BIN NEW_BIN [MB]}")
MB=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
S=$(cd "$here/../samples" && pwd)
out=$here/out
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "compare.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
OPS='$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time" rid=$request_id'
LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'

gen() { # KIND SAMPLE NAME
	local f=$out/cmp-$3-${MB}m.log
	if [ ! -s "$f" ]; then
		python3 "$here/genlog.py" "$1" "$2" "$f.tmp" "$MB" >/dev/null 2>&1 && mv "$f.tmp" "$f"
	fi
	echo "$f"
}
instr() { # BIN ARGS... -> instructions executed
	local cg=$out/cmp.callgrind
	valgrind --tool=callgrind --callgrind-out-file="$cg" "$@" >/dev/null 2>"$out/cmp.vg" || true
	awk '/^summary:/ {print $2}' "$cg"
	rm -f "$cg"
}
rss() { /usr/bin/time -f %M -o "$out/cmp.rss" "$@" >/dev/null 2>&1 || true; cat "$out/cmp.rss"; }

bad=0
row() { # NAME ARGS...
	local name=$1; shift
	local io inw ro rn
	io=$(instr "$OLD" --report --json "$@")
	inw=$(instr "$NEW" --report --json "$@")
	ro=$(rss "$OLD" --report --json "$@")
	rn=$(rss "$NEW" --report --json "$@")
	awk -v n="$name" -v io="$io" -v inw="$inw" -v ro="$ro" -v rn="$rn" 'BEGIN {
		ri = inw / io; rm = rn / ro
		printf "%-18s instructions %13d -> %13d (x%.3f)   peak RSS %6d -> %6d KB (x%.3f)%s\n",
			n, io, inw, ri, ro, rn, rm, (ri > 1.05 || rm > 1.05) ? "  ABOVE 5%" : ""
		exit (ri > 1.05 || rm > 1.05) }' || bad=$((bad + 1))
}
row unified --gc "$(gen unified "$S/g1-periodic/load-continues/gc.log" unified)"
row jdk8 --gc "$(gen jdk8 "$S/public-gc-logs/dataset106.txt" jdk8)"
row safepoint --gc "$(gen safepoint "$S/combined/throttle-stop/gc.log" safepoint)"
row nginx-ops --nginx-format "$OPS" --nginx "$(gen nginx "$S/nginx-uct/backlog100/logs/access.log" nginx-ops)"
row nginx-lab --nginx-format "$LAB" --nginx "$(gen nginx "$S/combined/throttle-stop/logs/access.log" nginx-lab)"
rm -f "$out/cmp.rss" "$out/cmp.vg"
echo "compare: $bad of 5 above the 5% bound"
[ "$bad" = 0 ]
