#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hints_plain.sh BIN — what a discovered process does not give stwtop is said where the user
# looks, not only on stderr before curses starts: session hints, printed by --plain at start.
#  1. a REAL JVM started without any -Xlog: `stwtop --plain --pid JPID` prints, once, the -Xlog
#     option to restart with and the `jcmd JPID VM.log output=... what=gc*,safepoint...` command
#     that turns the log on now; with --json the hint goes to stderr and stdout stays NDJSON;
#  2. a --pid that is not a JVM (a real `sleep`): one hint says so and names the JVM that does
#     run here; no -Xlog or jcmd advice, no crash-report watch;
#  3. on the dashboard the hint is in the Verdicts pane.
# Skips (77) without java/javac.
set -u
BIN=$(realpath "${1:?usage: hints_plain.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""; ZPID=""
cleanup() { for p in "$SPID" "$ZPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
command -v javac >/dev/null || { echo "SKIP: javac not installed"; exit 77; }
javac -nowarn -d "$T" "$D/fixtures/java/CrashLater.java" 2>/dev/null || { echo "FAIL: javac"; exit 1; }
( cd "$T" && exec java -Xmx32m -cp "$T" CrashLater "$T/never" 120 ) >"$T/console.log" 2>&1 &
JPID=$!
wait_for 30 grep -q READY "$T/console.log" || { echo "FAIL: the JVM did not start: $(head -c 400 "$T/console.log")"; exit 1; }

# run BIN ARGS... until it has printed N status lines (stdout) into $T/out, stderr into $T/err
run_until_status() { local n=$1; shift
  "$BIN" "$@" >"$T/out" 2>"$T/err" & SPID=$!
  wait_for 15 bash -c "[ \$(grep -sc 'stops\\|\"type\":\"status\"' '$T/out') -ge $n ]" || fail "$* printed no status: $(head -c 400 "$T/err")"
  kill -TERM "$SPID"; wait "$SPID" 2>/dev/null; SPID=""; }

# 1. no -Xlog at all
run_until_status 2 --plain --interval 200 --pid "$JPID"
hint=$(grep '^stwtop: hint: no GC log file' "$T/err")
[ "$(grep -c '^stwtop: hint: no GC log file' "$T/err")" = 1 ] || fail "the missing GC log is not one hint: $(head -c 1200 "$T/err")"
case "$hint" in *"restart the JVM with -Xlog:gc*,safepoint"*":file=/tmp/gc-%p.log:time,uptime,level,tags"*) ;;
  *) fail "the hint does not give the -Xlog option: $hint";; esac
case "$hint" in *"jcmd $JPID VM.log output=file=/tmp/gc-$JPID.log what=gc*,safepoint"*) ;;
  *) fail "the hint does not give the jcmd command for pid $JPID: $hint";; esac
grep -q '^stwtop: hint: to name the threads that are late to a safepoint, add -XX:+SafepointTimeout' "$T/err" \
  || fail "no SafepointTimeout hint: $(head -c 1200 "$T/err")"
# the hints come before the first status line (printed at start)
[ "$(grep -c . "$T/out")" -ge 2 ] || fail "no status lines"
run_until_status 2 --plain --json --interval 200 --pid "$JPID"
grep -q '^stwtop: hint: no GC log file' "$T/err" || fail "--json: no hint on stderr"
jq -c . "$T/out" >/dev/null 2>&1 || fail "--json: stdout is not pure NDJSON: $(head -c 300 "$T/out")"
grep -q 'hint' "$T/out" && fail "--json: a hint went to stdout"

# 2. not a JVM
( cd "$T" && exec sleep 60 ) &
ZPID=$!
run_until_status 2 --plain --interval 200 --pid "$ZPID"
grep -q "^stwtop: hint: process $ZPID (sleep) is not a JVM (executable .*sleep, no libjvm.so mapped)" "$T/err" \
  || fail "no 'not a JVM' hint for pid $ZPID: $(head -c 800 "$T/err")"
grep '^stwtop: hint: ' "$T/err" | grep -q "Java processes here: .*$JPID" || fail "the hint does not name the JVM $JPID"
[ "$(grep -c '^stwtop: hint: ' "$T/err")" = 1 ] || fail "more than the one hint for a non-JVM: $(grep '^stwtop: hint: ' "$T/err")"
grep '^stwtop: hint: ' "$T/err" | grep -q "VM.log\|-Xlog" && fail "JVM advice for a process that is not a JVM"
grep -q "crash report is looked for" "$T/err" && fail "a crash report is watched for a process that is not a JVM"

# 3. the dashboard: the hints are in the Verdicts pane, not only in the log file
if command -v tmux >/dev/null; then
  TM="tmux -L stwtop-hints-$$ -f /dev/null"
  $TM new-session -d -s h -x 120 -y 40 "TERM=tmux-256color LANG=C.UTF-8 '$BIN' --pid $JPID 2>$T/tui.err; sleep 60"
  if wait_for 15 bash -c "$TM capture-pane -p -t h | grep -A3 '^─ Verdicts' | grep -q 'note: no GC log file'"; then :
  else fail "dashboard: no hint in the Verdicts pane: $($TM capture-pane -p -t h | head -12)"; fi
  $TM send-keys -t h q
  $TM kill-server 2>/dev/null
fi

[ $fails = 0 ] && echo "hints_plain: all passed" || { echo "hints_plain: $fails failed"; exit 1; }
