#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# same-reports.sh OLD_BIN NEW_BIN [BIG_FILES_DIR] — a speed-up must not change a
# single byte of any report. Runs both binaries over every sample folder (every
# source of the folder together, text and JSON), every recording folder of
# tests/recordings the same way, every JVM log alone (samples, recordings and
# tests/fixtures/jvm), every nginx log, and (when given) the first 20 MB of each benchmark file, and diffs
# the outputs. Exit 0 when all are equal; prints the first differences otherwise.
# IGNORE_JSON='del(.checked)' (a jq filter): a new JSON field is compared away (text
# and every other field still byte for byte).
set -u
OLD=${1:?usage: same-reports.sh OLD_BIN NEW_BIN [BIG_FILES_DIR]}
NEW=${2:?usage: same-reports.sh OLD_BIN NEW_BIN [BIG_FILES_DIR]}
BIG=${3:-}
S=$(cd "$(dirname "$0")/../samples" && pwd)
R=$(cd "$(dirname "$0")/../recordings" && pwd)
F=$(cd "$(dirname "$0")/../fixtures" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
OPS='$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time" rid=$request_id'
n=0 bad=0
same() { # ARGS...: one report invocation, text and JSON, old vs new
	local a
	for mode in "" --json; do
		n=$((n + 1))
		TZ=UTC "$OLD" --report $mode "$@" >"$T/old" 2>&1; a=$?
		TZ=UTC "$NEW" --report $mode "$@" >"$T/new" 2>&1; b=$?
		if [ -n "$mode" ] && [ -n "${IGNORE_JSON:-}" ]; then
			# fields added on purpose: compared without them (both sides through jq)
			for f in old new; do jq "$IGNORE_JSON" "$T/$f" >"$T/$f.j" 2>/dev/null && mv "$T/$f.j" "$T/$f"; done
		fi
		if [ $b != "$a" ] || ! cmp -s "$T/old" "$T/new"; then
			bad=$((bad + 1))
			echo "DIFFERS: --report $mode $*"
			diff "$T/old" "$T/new" | head -20
		fi
	done
}
for d in "$S"/*/*/ "$R"/*/; do
	args=()
	for f in gc.log console.log; do [ -f "$d$f" ] && args+=(--gc "$d$f"); done
	for f in cpustat.log cpustat-100ms.log; do [ -f "$d$f" ] && args+=(--cpustat-log "$d$f"); done
	[ -f "$d/schedstat.log" ] && args+=(--schedstat-log "$d/schedstat.log")
	[ -f "$d/vmstat.log" ] && args+=(--vmstat-log "$d/vmstat.log")
	if [ -f "$d/logs/access.log" ]; then
		if grep -q 'log_format ups' "$d/nginx.conf" 2>/dev/null; then
			args+=(--nginx "$d/logs/access.log" --nginx-format "$(sed -n "s/.*log_format ups '\\(.*\\)';/\\1/p" "$d/nginx.conf")")
		elif grep -q 'log_format lab' "$d/nginx.conf" 2>/dev/null; then
			args+=(--nginx "$d/logs/access.log" --nginx-format "$LAB")
		else
			args+=(--nginx "$d/logs/access.log" --nginx-format "$OPS")
		fi
	fi
	# (combined/*/jvm-start.txt is notes, not a start time: its logs carry the wall clock)
	head -1 "$d/jvm-start.txt" 2>/dev/null | grep -Eq "^[0-9]{13}$" && args+=(--jvm-start "$d/jvm-start.txt")
	[ ${#args[@]} -gt 0 ] && same "${args[@]}"
done
for f in "$S"/*/*/gc.log "$S"/*/*/console.log "$S"/public-gc-logs/*.txt "$R"/*/gc.log; do same --gc "$f"; done
while IFS= read -r f; do same --gc "$f"; done < <(find "$F/jvm" -type f ! -name '*.md' | sort)
for f in "$S"/*/*/logs/access.log "$R"/*/logs/access.log; do same --nginx "$f"; done
if [ -n "$BIG" ]; then
	for f in "$BIG"/unified-1g.log "$BIG"/jdk8.log "$BIG"/safepoint.log; do
		[ -f "$f" ] && head -c 20000000 "$f" | sed '$d' >"$T/big.log" && same --gc "$T/big.log"
	done
	[ -f "$BIG/nginx-ops.log" ] && head -c 20000000 "$BIG/nginx-ops.log" | sed '$d' >"$T/big.log" &&
		same --nginx "$T/big.log" --nginx-format "$OPS"
	[ -f "$BIG/nginx-lab.log" ] && head -c 20000000 "$BIG/nginx-lab.log" | sed '$d' >"$T/big.log" &&
		same --nginx "$T/big.log" --nginx-format "$LAB"
fi
echo "same-reports: $((n - bad)) passed, $bad failed"
[ $bad = 0 ]
