#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hostile.sh BIN — inputs that try to break stwtop, each through --report and
# through a live --plain run that is watching when the input arrives or changes:
# a 100 MB line, NUL bytes, invalid UTF-8, terminal escape sequences (shown
# escaped), a file truncated while read, a FIFO (with and without a writer),
# /dev/zero, a directory, a symlink loop, a file it may not read (run as
# nobody). Each must give a clear message or be handled: never a hang (every
# run has a deadline), never a crash (exit codes and sanitizer reports checked).
# Live runs must keep running through it and stop cleanly on SIGTERM.
set -u
BIN=$(realpath "${1:?usage: hostile.sh path/to/stwtop}")
S=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}/samples
T=$(mktemp -d /tmp/stwtop-hostile.XXXXXX)
chmod 755 "$T" # the "nobody" runs need to reach it
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] && echo "kept $T" || rm -rf "$T"
}
trap cleanup EXIT
fails=0 passes=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; passes=$((passes + 1)); }
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
GC=$S/combined/throttle-stop/gc.log
PAUSE1='[2026-11-29T19:23:40.000+0000][1.673s][info][gc          ] GC(90) Pause Young (Normal) (G1 Evacuation Pause) 50M->10M(380M) 3.100ms'
PAUSE2='[2026-11-29T19:23:41.000+0000][2.673s][info][gc          ] GC(91) Pause Young (Normal) (G1 Evacuation Pause) 52M->11M(380M) 3.200ms'
PAUSE3='[2026-11-29T19:23:42.000+0000][3.673s][info][gc          ] GC(92) Pause Young (Normal) (G1 Evacuation Pause) 53M->12M(380M) 3.300ms'
# a 700 ms time-to-safepoint whose operation name carries an OSC title change,
# a bell and a clear-screen, then invalid UTF-8: the verdict quotes the name
EVIL_SP=$(printf '[2026-11-29T19:23:43.592+0000][5.265s][info][safepoint   ] Safepoint "Evil\033]0;pwned\007\033[2J\xff\xfe", Time since last: 179909772 ns, Reaching safepoint: 700000000 ns, Cleanup: 17645 ns, At safepoint: 1102522 ns, Total: 701123404 ns')

no_crash() { # FILE...: no sanitizer report, no crash message
	! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error|Segmentation fault|core dumped' "$@"
}

# report NAME [--as-nobody] ARGS...: a report run with a deadline; sets RC, output in $T/NAME.out/.err
report() {
	local name=$1 pre=()
	shift
	if [ "${1:-}" = --as-nobody ]; then
		pre=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
		shift
	fi
	timeout -s KILL 120 "${pre[@]}" "$BIN" --report "$@" >"$T/$name.out" 2>"$T/$name.err"
	RC=$?
	[ $RC = 137 ] && fail "$name: report hung (killed after 120 s)"
	[ $RC -gt 2 ] && [ $RC != 137 ] && fail "$name: report exited $RC: $(head -c 300 "$T/$name.err")"
	no_crash "$T/$name.out" "$T/$name.err" || fail "$name: sanitizer or crash: $(head -c 600 "$T/$name.err")"
}

# live NAME [--as-nobody] ARGS...: start stwtop --plain in the background
live() {
	local name=$1 pre=()
	shift
	if [ "${1:-}" = --as-nobody ]; then
		pre=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
		shift
	fi
	"${pre[@]}" "$BIN" --plain --interval 100 "$@" >"$T/$name.out" 2>"$T/$name.err" &
	LPID=$!
	PIDS+=("$LPID")
}
# wait_for FILE REGEX [SECONDS]: until FILE matches (grep -E) or the deadline
wait_for() {
	local end=$((SECONDS + ${3:-20}))
	while [ $SECONDS -lt $end ]; do
		grep -Eaq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# gc pauses counted so far according to the newest status line of a live run
status_pauses() { grep -ao 'gc [0-9]* pauses' "$1" 2>/dev/null | tail -1 | grep -o '[0-9]*'; }
wait_pauses() { # FILE N: until the status line counts at least N pauses
	local end=$((SECONDS + 20)) n
	while [ $SECONDS -lt $end ]; do
		n=$(status_pauses "$1")
		[ -n "$n" ] && [ "$n" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# stop NAME [RC]: SIGTERM, must exit RC (default 0; 1 when a source still cannot be
# read) within 10 s, no crash, still alive before
stop() {
	local name=$1 want=${2:-0} i
	kill -0 "$LPID" 2>/dev/null || { fail "$name: live run died: $(tail -c 400 "$T/$name.err")"; return; }
	kill -TERM "$LPID"
	for i in $(seq 100); do kill -0 "$LPID" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$LPID" 2>/dev/null; then
		fail "$name: live run did not stop within 10 s of SIGTERM"
		kill -KILL "$LPID"
	fi
	wait "$LPID"
	local rc=$?
	[ $rc = "$want" ] || fail "$name: live run exited $rc after SIGTERM, want $want: $(tail -c 400 "$T/$name.err")"
	no_crash "$T/$name.out" "$T/$name.err" || fail "$name: sanitizer or crash: $(head -c 600 "$T/$name.err")"
}
base_log() { head -19 "$GC"; } # the JVM's start-up lines (Using G1, version...), before GC(0)

# ---- 1. a 100 MB line (no '\n' for 100 MB), between real lines ----
{ base_log; head -c 100000000 /dev/zero | tr '\0' 'x'; echo; echo "$PAUSE1"; } >"$T/huge.log"
/usr/bin/time -f %M -o "$T/huge.rss" timeout -s KILL 120 "$BIN" --report --gc "$T/huge.log" >"$T/huge.out" 2>"$T/huge.err"
RC=$?
check "huge line report: exit 0" '[ $RC = 0 ]'
check "huge line report: the line is cut and counted" 'grep -q "1 cut (over 1 MiB)" "$T/huge.out"'
check "huge line report: the pause after it is parsed" 'grep -Eq "GC pauses +1," "$T/huge.out"'
check "huge line report: peak RSS under 64 MB ($(cat "$T/huge.rss") KB)" '[ "$(cat "$T/huge.rss")" -lt 65536 ]'
# the same line at the very end, without '\n'
{ base_log; echo "$PAUSE1"; head -c 100000000 /dev/zero | tr '\0' 'y'; } >"$T/huge-eof.log"
report huge-eof --gc "$T/huge-eof.log"
check "huge last line without newline: exit 0, cut" '[ $RC = 0 ] && grep -q "1 cut" "$T/huge-eof.out"'
# live: the line is appended while stwtop follows the file
base_log >"$T/live-huge.log"
live live-huge --gc "$T/live-huge.log"
wait_for "$T/live-huge.out" 'gc 0 pauses' || fail "live huge: no status line"
{ head -c 100000000 /dev/zero | tr '\0' 'x'; echo; echo "$PAUSE1"; } >>"$T/live-huge.log"
check "live: a pause after a 100 MB line is still counted" 'wait_pauses "$T/live-huge.out" 1'
check "live: RSS stays under 64 MB after a 100 MB line" \
	'[ "$(awk "/VmRSS/{print \$2}" /proc/$LPID/status)" -lt 65536 ]'
stop live-huge

# ---- 2. NUL bytes and 3. invalid UTF-8 inside and between lines ----
{ base_log; printf 'junk\0\0\0junk\n\0\0\0\n'; echo "$PAUSE1"; printf '%s\0tail\n' "${PAUSE2:0:60}";
  printf '\xff\xfe\xc3\x28\xed\xa0\x80 \xf4\x90\x80\x80\n'; echo "$PAUSE2"; } >"$T/bin.log"
report bin --json --gc "$T/bin.log"
check "NUL/invalid UTF-8 report: exit 0, valid JSON" '[ $RC = 0 ] && jq -e . "$T/bin.out" >/dev/null'
check "NUL/invalid UTF-8 report: both real pauses counted, the rest unparsed not fatal" \
	'[ "$(jq .summary.gc_pauses "$T/bin.out")" = 2 ]'
base_log >"$T/live-bin.log"
live live-bin --gc "$T/live-bin.log"
wait_for "$T/live-bin.out" 'gc 0 pauses' || fail "live bin: no status line"
{ printf 'junk\0\0\0junk\n\0\0\0\n\xff\xfe\xc3\x28\n'; echo "$PAUSE1"; printf '\0\0'; echo; echo "$PAUSE2"; } >>"$T/live-bin.log"
check "live: pauses between NUL bytes and invalid UTF-8 are counted" 'wait_pauses "$T/live-bin.out" 2'
stop live-bin

# ---- 4. escape sequences in a log field that reaches a verdict ----
{ base_log; echo "$EVIL_SP"; echo "$PAUSE3" | sed 's/19:23:42/19:24:43/; s/3.673s/65.673s/'; } >"$T/esc.log"
report esc --gc "$T/esc.log"
check "escapes report: exit 0, the ttsp-spike verdict is there" '[ $RC = 0 ] && grep -q ttsp-spike "$T/esc.out"'
check "escapes report: no ESC/BEL byte reaches the terminal" '! grep -aq $'"'"'[\033\007]'"'"' "$T/esc.out"'
check "escapes report: the name is shown escaped" 'grep -aqF "Evil\\e]0;pwned\\x07\\e[2J\\xff\\xfe" "$T/esc.out"'
report esc-json --json --gc "$T/esc.log"
check "escapes + invalid UTF-8, report --json: the verdict keeps its title and evidence" \
	'jq -e "[.verdicts[] | select(.id == \"ttsp-spike\") | (.title | contains(\"Evil\")) and (.evidence | length > 0)] == [true]" "$T/esc-json.out" >/dev/null'
base_log >"$T/live-esc.log"
live live-esc --gc "$T/live-esc.log"
wait_for "$T/live-esc.out" 'gc 0 pauses' || fail "live esc: no status line"
{ echo "$EVIL_SP"; echo "$PAUSE3" | sed 's/19:23:42/19:24:43/; s/3.673s/65.673s/'; } >>"$T/live-esc.log"
check "live plain: the ttsp-spike verdict is printed" 'wait_for "$T/live-esc.out" "ttsp-spike"'
check "live plain: the name is shown escaped" 'wait_for "$T/live-esc.out" "Evil.e]0;pwned.x07.e\[2J.xff.xfe" 5'
check "live plain: no ESC/BEL byte in its output" '! grep -aq $'"'"'[\033\007]'"'"' "$T/live-esc.out" "$T/live-esc.err"'
stop live-esc
live live-esc-json --json --gc "$T/esc.log"
check "live plain --json: the verdict is printed" 'wait_for "$T/live-esc-json.out" "ttsp-spike"'
check "live plain --json: no raw ESC/BEL, the name is there (escaped)" \
	'! grep -aq $'"'"'[\033\007]'"'"' "$T/live-esc-json.out" && grep -q "Evil" "$T/live-esc-json.out"'
stop live-esc-json

# ---- 5. a file truncated while it is read ----
for i in $(seq 400); do cat "$GC"; done >"$T/trunc.log" # ~13 MB; the report reads it in ~0.1 s
( sleep 0.05; : >"$T/trunc.log" ) &
report trunc --gc "$T/trunc.log"
wait
check "truncated while read, report: ends with 0 or 1 and a report" \
	'[ $RC -le 1 ] && grep -q "^SOURCES" "$T/trunc.out"'
# Truncate for certain while it is being read: wait until the reader's offset
# (/proc/PID/fdinfo) is past the anchor scan and short of the end, then cut.
{ base_log; yes "$PAUSE1" | head -c 300000000; } >"$T/trunc-big.log"
size=$(stat -c %s "$T/trunc-big.log")
timeout -s KILL 120 "$BIN" --report --gc "$T/trunc-big.log" >"$T/trunc-big.out" 2>"$T/trunc-big.err" &
tpid=$!
rpid=""
for i in $(seq 200); do rpid=$(pgrep -P $tpid | head -1); [ -n "$rpid" ] && break; sleep 0.01; done
caught=""
for i in $(seq 2000); do
	for fd in /proc/$rpid/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$T/trunc-big.log" ] || continue
		pos=$(awk '/^pos:/{print $2}' "/proc/$rpid/fdinfo/${fd##*/}" 2>/dev/null)
		if [ -n "$pos" ] && [ "$pos" -gt 8000000 ] && [ "$pos" -lt $((size - 50000000)) ]; then
			: >"$T/trunc-big.log"
			caught=$pos
		fi
	done
	[ -n "$caught" ] && break
	kill -0 $rpid 2>/dev/null || break
	sleep 0.005
done
wait $tpid
RC=$?
check "truncated under a 300 MB read: ends with 0 or 1 (not killed)" '[ $RC -le 1 ]'
if [ -n "$caught" ]; then
	check "truncated under a 300 MB read (cut at offset $caught): the report says so" \
		'grep -q "truncated while being read" "$T/trunc-big.out"'
else
	echo "note: the 300 MB read ended before it could be cut: that check did not run"
fi
rm -f "$T/trunc-big.log"
base_log >"$T/live-trunc.log"
echo "$PAUSE1" >>"$T/live-trunc.log"
live live-trunc --gc "$T/live-trunc.log"
wait_pauses "$T/live-trunc.out" 1 || fail "live trunc: the first pause was not counted"
: >"$T/live-trunc.log"
check "live: a truncation is noted" 'wait_for "$T/live-trunc.err" "truncat"'
echo "$PAUSE2" >>"$T/live-trunc.log"
check "live: lines written after the truncation are read" 'wait_pauses "$T/live-trunc.out" 2'
stop live-trunc

# ---- 6. a FIFO ----
mkfifo "$T/fifo"
( base_log; echo "$PAUSE1"; echo "$PAUSE2" ) >"$T/fifo" &
report fifo-writer --json --gc "$T/fifo"
wait
check "FIFO with a writer, report: read to its end" '[ $RC = 0 ] && [ "$(jq .summary.gc_pauses "$T/fifo-writer.out")" = 2 ]'
start=$SECONDS
report fifo-nowriter --gc "$T/fifo"
check "FIFO without a writer, report: exit 1 within 20 s, says why" \
	'[ $RC = 1 ] && [ $((SECONDS - start)) -lt 20 ] && grep -q "FIFO" "$T/fifo-nowriter.err"'
live live-fifo --gc "$T/fifo"
sleep 0.5
( base_log; echo "$PAUSE1" ) >"$T/fifo"
check "live: lines from a FIFO writer are read" 'wait_pauses "$T/live-fifo.out" 1'
echo "$PAUSE2" >"$T/fifo" # the writer went away; a new one comes
check "live: a second writer on the same FIFO is read too" 'wait_pauses "$T/live-fifo.out" 2'
stop live-fifo

# ---- 7. /dev/zero, 8. a directory, 9. a symlink loop ----
report zero --gc /dev/zero
check "/dev/zero report: exit 1, a character device" '[ $RC = 1 ] && grep -q "character device" "$T/zero.err"'
mkdir "$T/dir"
report dir --gc "$T/dir"
check "directory report: exit 1, says so" '[ $RC = 1 ] && grep -Eq "directory" "$T/dir.err"'
ln -s "$T/loop-b" "$T/loop-a"
ln -s "$T/loop-a" "$T/loop-b"
report loop --gc "$T/loop-a"
check "symlink loop report: exit 1, says so" '[ $RC = 1 ] && grep -q "Too many levels of symbolic links" "$T/loop.err"'
live live-zero --gc /dev/zero
check "live /dev/zero: says what it is" 'wait_for "$T/live-zero.err" "character device|not a regular file"'
sleep 3
ticks=$(awk '{print $14 + $15}' "/proc/$LPID/stat")
check "live /dev/zero: not read (used $ticks clock ticks of CPU)" '[ "$ticks" -lt 100 ]'
stop live-zero 1
check "live /dev/zero: the exit says why" 'grep -q "could not read /dev/zero: not a regular file" "$T/live-zero.err"'
live live-dir --gc "$T/dir"
check "live directory: says so" 'wait_for "$T/live-dir.err" "directory"'
rmdir "$T/dir"
{ base_log; echo "$PAUSE1"; } >"$T/dir"
check "live: the directory replaced by a log is followed" 'wait_pauses "$T/live-dir.out" 1'
stop live-dir
live live-loop --gc "$T/loop-a"
check "live symlink loop: says so" 'wait_for "$T/live-loop.err" "Too many levels of symbolic links"'
rm "$T/loop-a"
{ base_log; echo "$PAUSE1"; } >"$T/loop-a"
check "live: the loop replaced by a log is followed" 'wait_pauses "$T/live-loop.out" 1'
stop live-loop

# ---- 10. a file it may not read (stwtop runs as nobody) ----
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$BIN" --version >/dev/null 2>&1; then
	{ base_log; echo "$PAUSE1"; } >"$T/secret.log"
	chmod 600 "$T/secret.log"
	report secret --as-nobody --gc "$T/secret.log"
	check "unreadable file report: exit 1, Permission denied" '[ $RC = 1 ] && grep -q "Permission denied" "$T/secret.err"'
	live live-secret --as-nobody --gc "$T/secret.log"
	check "live unreadable: says Permission denied" 'wait_for "$T/live-secret.err" "Permission denied"'
	chmod 644 "$T/secret.log"
	check "live: read once it is made readable" 'wait_pauses "$T/live-secret.out" 1'
	stop live-secret
else
	echo "skip: permission cases need root, setpriv and a binary 'nobody' can run ($BIN)"
fi

echo "hostile: $passes passed, $fails failed"
[ $fails = 0 ]
