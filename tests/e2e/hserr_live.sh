#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hserr_live.sh BIN — crash reports picked up live, from REAL files and a REAL crash.
# A JVM (tests/fixtures/java/CrashLater.java) runs with -XX:ErrorFile=<tmp>/crash-%p.log in a
# working directory of its own; `stwtop --plain --json --pid JPID` follows it. Checked:
#  1. stwtop says where it looks: the -XX:ErrorFile name with %p expanded, the cwd's
#     hs_err_pid<pid>.log and the /tmp fallback;
#  2. a file created EMPTY (the moment the JVM opens it) and filled 2 s later (the synthetic AOT
#     SIGILL report, tests/fixtures/hserr) is read once complete: aot-sigill-adapter is raised;
#  3. the JVM then crashes for real (SIGSEGV through Unsafe.putAddress(0)) and writes
#     crash-<pid>.log, a name hs_err watching once missed: it is counted live (crash_reports 2
#     in the status objects), and the exit is said;
#  4. as a user who cannot read the JVM's cwd, stwtop says once what it cannot watch;
#  5. while it follows gc.log and watches the crash report directories, stwtop holds ONE
#     inotify instance (the tailer's; the crash report probe uses its directory watches).
# Skips (77) without java/javac.
set -u
BIN=$(realpath "${1:?usage: hserr_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""; UPID=""
cleanup() {
  for p in "$SPID" "$UPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$T"
  [ -n "$JPID" ] && rm -f "/tmp/hs_err_pid$JPID.log"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
command -v javac >/dev/null || { echo "SKIP: javac not installed"; exit 77; }

mkdir -p "$T/cwd" "$T/classes"
javac -nowarn -d "$T/classes" "$D/fixtures/java/CrashLater.java" 2>/dev/null || { echo "FAIL: javac"; exit 1; }
( cd "$T/cwd" && exec java -Xmx64m -XX:-CreateCoredumpOnCrash "-XX:ErrorFile=$T/crash-%p.log" \
    "-Xlog:gc:file=$T/gc.log:uptime,level,tags" -cp "$T/classes" CrashLater "$T/trigger" 120 ) >"$T/console.log" 2>&1 &
JPID=$!
wait_for 30 grep -q READY "$T/console.log" || { echo "FAIL: the JVM did not start: $(head -c 600 "$T/console.log")"; exit 1; }

"$BIN" --plain --json --interval 500 --pid "$JPID" >"$T/out.ndjson" 2>"$T/err" &
SPID=$!
# 1. where it looks
wait_for 10 grep -qs "a crash report is looked for at" "$T/err" || fail "stwtop did not say where it looks: $(head -c 800 "$T/err")"
look=$(grep "a crash report is looked for at" "$T/err")
for want in "$T/crash-$JPID.log" "$T/cwd/hs_err_pid$JPID.log" "/tmp/hs_err_pid$JPID.log"; do
  case "$look" in *"$want"*) ;; *) fail "not watched: $want ($look)";; esac
done

# 5. one owner of the kernel resource: one anon_inode:inotify descriptor
ninot=$(for f in /proc/$SPID/fd/*; do readlink "$f"; done 2>/dev/null | grep -c '^anon_inode:inotify$')
[ "$ninot" = 1 ] || fail "stwtop holds $ninot inotify instances, not 1: $(ls -l /proc/$SPID/fd 2>&1 | grep -c inotify)"

# 2. created empty, the content 2 s later
: >"$T/cwd/hs_err_pid$JPID.log"
sleep 2   # the stimulus: a file that stays empty for 2 s (not a wait for stwtop)
cat "$D/fixtures/hserr/hs_err_synthetic-jdk25-aot-sigill.log" >"$T/cwd/hs_err_pid$JPID.log"
aot() { jq -se 'any(.[]; .type=="verdict" and .id=="aot-sigill-adapter" and .event=="new")' "$T/out.ndjson" >/dev/null 2>&1; }
wait_for 10 aot || fail "no aot-sigill-adapter verdict after the staged file: $(tail -c 600 "$T/err")"
grep -q "JVM crash report $T/cwd/hs_err_pid$JPID.log: SIGILL, problematic frame v  ~AdapterBlob" "$T/err" \
  || fail "the staged report was not said: $(tail -c 600 "$T/err")"

# 3. a real crash into -XX:ErrorFile=.../crash-%p.log
touch "$T/trigger"
wait_for 30 test -s "$T/crash-$JPID.log" || fail "the JVM wrote no $T/crash-$JPID.log: $(tail -c 400 "$T/console.log")"
wait "$JPID" 2>/dev/null
crashes() { [ "$(grep '"type":"status"' "$T/out.ndjson" | tail -1 | jq .crash_reports)" = 2 ]; }
wait_for 10 crashes || fail "crash_reports is not 2 after the real crash: $(grep '"type":"status"' "$T/out.ndjson" | tail -1)"
grep -q "JVM crash report $T/crash-$JPID.log: SIGSEGV" "$T/err" || fail "the real crash was not said: $(tail -c 800 "$T/err")"
wait_for 10 grep -q "process $JPID has exited" "$T/err" || fail "the exit was not said"
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
[ $rc = 0 ] || fail "stwtop exited $rc"
jq -se 'any(.[]; .type=="verdict" and .id=="aot-sigill-adapter" and .event=="final")' "$T/out.ndjson" >/dev/null \
  || fail "aot-sigill-adapter is not in the final verdicts"
[ "$(grep -c 'JVM crash report' "$T/err")" = 2 ] || fail "each report is said once: $(grep 'JVM crash report' "$T/err")"

# 4. a user who cannot read the JVM's cwd (a JVM of root's in a 0700 dir)
if id nobody >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  mkdir -m 0700 "$T/private"
  ( cd "$T/private" && exec java -Xmx32m -cp "$T/classes" CrashLater "$T/never" 60 ) >"$T/uconsole.log" 2>&1 &
  UPID=$!
  wait_for 30 grep -q READY "$T/uconsole.log" || fail "the second JVM did not start: $(head -c 400 "$T/uconsole.log")"
  chmod 0755 "$T"
  su -s /bin/sh nobody -c "exec '$BIN' --plain --pid $UPID --interval 200" >"$T/uout" 2>"$T/uerr" &
  SPID=$!
  wait_for 10 grep -qs "cannot be seen" "$T/uerr" || fail "as nobody, nothing said about the unreadable cwd: $(head -c 800 "$T/uerr")"
  kill -TERM "$SPID"; wait "$SPID" 2>/dev/null; SPID=""
  grep -q "/proc/$UPID/cwd: Permission denied: a crash report hs_err_pid$UPID.log in the working directory" "$T/uerr" \
    || fail "the message does not name /proc/$UPID/cwd and the reason: $(grep 'cannot be seen' "$T/uerr")"
  [ "$(grep -c "/proc/$UPID/cwd" "$T/uerr")" = 1 ] || fail "said more than once: $(grep -c "/proc/$UPID/cwd" "$T/uerr")"
else
  echo "note: part 4 skipped (needs root and a user 'nobody')"
fi

[ $fails = 0 ] && echo "hserr_live: all passed" || { echo "hserr_live: $fails failed"; exit 1; }
