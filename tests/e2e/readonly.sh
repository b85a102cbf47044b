#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# readonly.sh BIN — stwtop never writes, moves, truncates or touches what it
# watches. A real incident's files (combined/throttle-stop) are copied into a
# directory, the files made 0444 and the directories 0555; stwtop --report and
# a live --plain run read them. Afterwards every file and directory must have
# the same size, inode, mode, mtime and ctime, and no other entry may have
# appeared. Root ignores permission bits, so when strace is there every file
# system call and every write of both runs is checked too: no open of a
# watched path for writing (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND), no
# rename/unlink/truncate/chmod/chown/utime/link/mkdir on it, no write() to a
# descriptor opened on it. A second live phase, in which a writer appends to
# the files, is checked by strace the same way.
set -u
BIN=$(realpath "${1:?usage: readonly.sh path/to/stwtop}")
S=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}/samples
T=$(mktemp -d)
LPID=""
cleanup() { [ -n "$LPID" ] && kill -KILL "$LPID" 2>/dev/null; chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
D=$T/incident
mkdir -p "$D/logs"
src=$S/combined/throttle-stop
cp "$src/gc.log" "$src/cpustat.log" "$src/schedstat.log" "$src/vmstat.log" "$D/"
cp "$src/logs/access.log" "$D/logs/"
chmod 444 "$D"/*.log "$D"/logs/*.log
chmod 555 "$D/logs" "$D"
LAB='$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time'
ARGS=(--gc "$D/gc.log" --cpustat-log "$D/cpustat.log" --schedstat-log "$D/schedstat.log"
	--vmstat-log "$D/vmstat.log" --nginx "$D/logs/access.log" --nginx-format "$LAB")
snap() { find "$D" -printf '%p %y size=%s ino=%i mode=%m mtime=%T@ ctime=%C@\n' | sort; }
STRACE=()
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	STRACE=(strace -f -qq -e trace=%file,openat,close,write,writev,pwrite64,ftruncate,fallocate,fchmod,fchown)
	# LeakSanitizer cannot run under ptrace (an ASan build aborts at exit): the
	# other tests check leaks, this one checks file access
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
else
	echo "note: strace not available (apt-get install strace): only the before/after comparison runs"
fi
# check_trace FILE WHAT: no write access to anything under $D in an strace log
check_trace() {
	[ ${#STRACE[@]} -gt 0 ] || return 0
	local bad
	bad=$(awk -v D="$D/" '
		# fd -> path for descriptors opened on watched paths
		/openat\(/ && index($0, "\"" D) {
			path = $0; sub(/^[^"]*"/, "", path); sub(/".*/, "", path)
			if ($0 ~ /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/) print "opened for writing: " $0
			if (match($0, /= [0-9]+$/)) { fd = substr($0, RSTART + 2); open_[$1 " " fd] = path }
			next
		}
		/ close\(/ { f = $0; sub(/.*close\(/, "", f); sub(/\).*/, "", f); delete open_[$1 " " f]; next }
		/(rename|renameat|renameat2|unlink|unlinkat|truncate|chmod|fchmodat|chown|fchownat|lchown|utimensat|utimes|utime|link|linkat|symlink|symlinkat|mkdir|mkdirat|rmdir|mknod|mknodat)\(/ && index($0, D) {
			print "changes a watched path: " $0; next
		}
		/ (write|writev|pwrite64|ftruncate|fallocate|fchmod|fchown)\(/ {
			f = $0; sub(/.*(write|writev|pwrite64|ftruncate|fallocate|fchmod|fchown)\(/, "", f); sub(/,.*/, "", f)
			if (($1 " " f) in open_) print "writes to " open_[$1 " " f] ": " $0
		}' "$1" | head -5)
	[ -z "$bad" ] || fail "$2: $bad"
	grep -q "openat(.*\"$D/gc.log\"" "$1" || fail "$2: strace saw no open of the watched gc.log (tracing broken?)"
}

before=$(snap)
# 1. the report
timeout -s KILL 120 ${STRACE[@]+"${STRACE[@]}" -o "$T/trace.report"} "$BIN" --report --json "${ARGS[@]}" >"$T/report.json" 2>"$T/report.err"
rc=$?
[ $rc = 0 ] || fail "report over read-only files exited $rc: $(head -c 300 "$T/report.err")"
jq -e '.summary.stops > 0 and .summary.nginx.requests > 0' "$T/report.json" >/dev/null || fail "the report did not read the files"
check_trace "$T/trace.report" report
# 2. a live run that reads them and keeps following
${STRACE[@]+"${STRACE[@]}" -o "$T/trace.live"} "$BIN" --plain --interval 200 "${ARGS[@]}" >"$T/live.out" 2>"$T/live.err" &
LPID=$!
SPID=$LPID # stwtop itself: strace blocks SIGTERM while it decodes, so signal its tracee
if [ ${#STRACE[@]} -gt 0 ]; then
	for i in $(seq 100); do SPID=$(pgrep -P "$LPID" | head -1); [ -n "$SPID" ] && break; sleep 0.05; done
fi
for i in $(seq 200); do grep -q 'stops' "$T/live.out" 2>/dev/null && break; sleep 0.1; done
sleep 2
after_live=$(snap)
[ "$before" = "$after_live" ] || fail "the live run changed the watched files: $(diff <(echo "$before") <(echo "$after_live") | head -5)"
after_report_ok=1
# 3. the files change under it (root may write 0444 files): it reads, never writes
for i in 1 2 3; do
	tail -n 5 "$src/logs/access.log" >>"$D/logs/access.log"
	tail -n 3 "$src/gc.log" >>"$D/gc.log"
	sleep 0.3
done
sleep 1
kill -0 "$SPID" 2>/dev/null || fail "the live run died: $(tail -c 300 "$T/live.err")"
kill -TERM "$SPID"
for i in $(seq 100); do kill -0 "$LPID" 2>/dev/null || break; sleep 0.1; done
wait "$LPID"
rc=$?
LPID=""
[ $rc = 0 ] || fail "the live run exited $rc on SIGTERM: $(tail -c 300 "$T/live.err")"
check_trace "$T/trace.live" "live run"
[ $after_report_ok = 1 ] && [ "$before" = "$after_live" ] && ok "report and live run left every watched file and directory as it was"
[ ${#STRACE[@]} -gt 0 ] && [ $fails = 0 ] && ok "strace: no open for writing, no write, rename, unlink, truncate, chmod or utime on a watched path"
[ $fails = 0 ] && echo "readonly: all passed" || { echo "readonly: $fails failed"; exit 1; }
