#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# source_up_recovers.sh BIN — a source that could not be read and then can is up again
# (issue 28, found in the pod test): stwtop as another uid than the log's writer, as a
# sidecar runs, starts on an access log it may not read (mode 0600), says so, and
# /metrics has stwtop_source_up 0; once the log is readable (chmod 0644, as the manifest's
# nginx does) stwtop reads its lines, and stwtop_source_up is 1 again, as are the NDJSON
# status objects count its requests. Needs root (to run stwtop as nobody).
set -u
. "$(dirname "$0")/lib/ports.bash"
BIN=$(realpath "${1:?usage: source_up_recovers.sh path/to/stwtop}")
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to run stwtop as another uid"; exit 77; }
command -v curl >/dev/null || { echo "FAIL: curl is not installed"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-up.XXXXXX"); P=""
cleanup() { [ -n "$P" ] && kill "$P" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
pass=0 fails=0
ok() { echo "ok: $*"; pass=$((pass+1)); }
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
chmod 0755 "$T"
# nobody must be able to run the binary where it is
[ -x "$BIN" ] && setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --version >/dev/null 2>&1 ||
	{ cp "$BIN" "$T/stwtop"; chmod 0755 "$T/stwtop"; BIN=$T/stwtop; }
LOG=$T/access.log
fmt='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
line() { printf '%s.%03d %032x 200 uct=0.001 uht=0.002 urt=0.002 rt=0.003\n' "$(date +%s)" "$((RANDOM % 1000))" "$1"; }
: >"$LOG"; chmod 0600 "$LOG"
for i in 1 2 3; do line "$i" >>"$LOG"; done
PORT=$(free_port)
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$BIN" --plain --json --nginx "$LOG" --nginx-format "$fmt" --metrics "127.0.0.1:$PORT" --interval 200 \
	>"$T/out" 2>"$T/err" &
P=$!
up() { curl -sf --max-time 1 "http://127.0.0.1:$PORT/metrics" | awk -v f="$LOG" 'index($0, "stwtop_source_up{source=\"" f "\"}") == 1 { print $2 }'; }
v=""
for _ in $(seq 50); do v=$(up); [ -n "$v" ] && break; sleep 0.1; done
[ "$v" = 0 ] && ok "unreadable: stwtop_source_up 0" || fail "unreadable: stwtop_source_up '$v'"
grep -q "Permission denied" "$T/err" && ok "unreadable: said why" || fail "unreadable: stderr $(tail -2 "$T/err")"
chmod 0644 "$LOG"
for i in 4 5 6; do line "$i" >>"$LOG"; sleep 0.2; done
for _ in $(seq 100); do v=$(up); [ "$v" = 1 ] && break; line 99 >>"$LOG"; sleep 0.1; done
[ "$v" = 1 ] && ok "readable again: stwtop_source_up 1" || fail "readable again: stwtop_source_up '$v' ($(tail -2 "$T/err"))"
parsed=$(curl -sf --max-time 1 "http://127.0.0.1:$PORT/metrics" | awk -v f="$LOG" 'index($0, "stwtop_source_lines_total{source=\"" f "\",state=\"parsed\"}") == 1 { print $2 }')
[ "${parsed:-0}" -ge 6 ] && ok "readable again: $parsed lines parsed" || fail "readable again: $parsed lines parsed"
sleep 0.5
# the NDJSON status of a run with an nginx log alone: the JVM's numbers are unknown, not 0
st=$(grep '"type":"status"' "$T/out" | tail -n 1)
echo "$st" | jq -e '.stops == null and .gc_pauses_total == null and .heap_committed_mb == null' >/dev/null &&
	ok "status: no JVM read, its numbers null" || fail "status: $st"
echo "source_up_recovers: $pass passed, $fails failed"
[ "$fails" = 0 ]
