#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ns_names_live.sh BIN — a JVM in a pod of its own: REAL JVMs under
# `unshare --pid --fork --mount --mount-proc --uts`, with a private /tmp (a tmpfs mounted inside),
# the host name "podname" and a working directory in that /tmp. The JVM is pid 1 there; its file
# names carry 1 (and podname), not the pid stwtop sees. stwtop runs on the host with --pid HOSTPID.
#  1. JDK 17, -Xlog:gc*,safepoint:file=/tmp/gc-%p-%hn.log: JDK 17 knows no %hn (JDK 23+), so the
#     JVM writes /tmp/gc-1-%hn.log; stwtop follows that file through /proc/HOSTPID/root, counts its
#     pause, and says the JVM is pid 1 in its namespace;
#  2. kill -SEGV of that JVM: it writes hs_err_pid1.log in its cwd and dies, taking its namespaces
#     (and its /tmp) with it; stwtop reads the report all the same and jvm-exited says it crashed,
#     not "killed or died without a word";
#  3. JDK 25 (when installed): file=/tmp/gc-%p-%hn.log is /tmp/gc-1-podname.log, file=/tmp/t-%t.log
#     the start time in the JVM's zone (TZ=Asia/Kolkata in its environment, not ours; an empty
#     decoy named with the start in UTC lies beside it), and a
#     relative file=logs/rel-%p.log is under its cwd as it sees it: each is followed.
# Needs root, unshare, javac; skipped (77) without them.
set -u
BIN=$(realpath "${1:?usage: ns_names_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v unshare >/dev/null || { echo "SKIP: unshare not installed"; exit 77; }
command -v javac >/dev/null || { echo "SKIP: javac not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (unshare --pid --mount --uts)"; exit 77; }
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
# not under /tmp: the pod mounts its own /tmp over it
T=$(mktemp -d -p /var/tmp); UPID=""; SPID=""
cleanup() {
  for p in "$SPID" "$UPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
javac -nowarn -d "$T/classes" "$D/fixtures/java/CrashLater.java" 2>/dev/null || { echo "FAIL: javac"; exit 1; }

# pod NAME JAVA ARGS...: the JVM as pid 1 of its namespaces, cwd /tmp/app; sets UPID (unshare) and
# HPID (the JVM, as the host sees it)
pod() {
  local name=$1; shift
  unshare --pid --fork --mount --mount-proc --uts sh -c \
    'mount -t tmpfs tmpfs /tmp && mkdir -p /tmp/app/logs && hostname podname && cd /tmp/app &&
     if [ -n "${DECOY:-}" ]; then touch "/tmp/t-$(TZ=UTC0 date +%Y-%m-%d_%H-%M-%S).log"; fi && exec "$@"' \
    sh "$@" -cp "$T/classes" CrashLater /tmp/never 120 >"$T/$name-console.log" 2>&1 &
  UPID=$!
  wait_for 30 grep -q READY "$T/$name-console.log" || { echo "FAIL: $name: the JVM did not start: $(head -c 600 "$T/$name-console.log")"; exit 1; }
  HPID=$(pgrep -P "$UPID" | head -1)
  [ -n "$HPID" ] || { echo "FAIL: $name: no JVM under unshare $UPID"; exit 1; }
  grep -q "READY 1$" "$T/$name-console.log" || fail "$name: the JVM is not pid 1 in its namespace: $(head -1 "$T/$name-console.log")"
}
status_pauses() { grep '"type":"status"' "$1" | tail -1 | jq -r '.gc_pauses_total // 0'; }
paused() { [ "$(status_pauses "$1")" -gt 0 ] 2>/dev/null; }

# 1. JDK 17: %p is 1, %hn is kept as written
pod j17 java -Xmx64m -XX:-CreateCoredumpOnCrash '-Xlog:gc*,safepoint:file=/tmp/gc-%p-%hn.log'
want="/proc/$HPID/root/tmp/gc-1-%hn.log"
wait_for 10 test -s "$want" || fail "j17: the JVM did not write $want: $(ls "/proc/$HPID/root/tmp" 2>&1)"
"$BIN" --plain --json --interval 300 --pid "$HPID" >"$T/j17.ndjson" 2>"$T/j17.err" &
SPID=$!
wait_for 10 grep -qs "a crash report is looked for at" "$T/j17.err" || fail "j17: stwtop did not start: $(head -c 800 "$T/j17.err")"
grep -qF "following $want (jvm): $want: following" "$T/j17.err" \
  || fail "j17: stwtop does not follow $want: $(grep -i follow "$T/j17.err" | head -c 600)"
grep -qF "process $HPID is pid 1 in its own pid namespace" "$T/j17.err" \
  || fail "j17: the namespace pid was not said: $(head -c 800 "$T/j17.err")"
look=$(grep "a crash report is looked for at" "$T/j17.err")
case "$look" in *"/proc/$HPID/root/tmp/app/hs_err_pid1.log"*) ;; *) fail "j17: hs_err_pid1.log in the cwd is not watched: $look";; esac
case "$look" in *"hs_err_pid$HPID"*) fail "j17: the host pid's name is watched: $look";; esac
wait_for 10 paused "$T/j17.ndjson" || fail "j17: no pause counted from $want: $(grep '"type":"status"' "$T/j17.ndjson" | tail -1)"

# 2. a real SIGSEGV: hs_err_pid1.log in its cwd; the namespaces go with pid 1
kill -SEGV "$HPID"
wait "$UPID" 2>/dev/null; UPID=""
grep -q "An error report file with more information is saved as" "$T/j17-console.log" \
  || fail "j17: the JVM wrote no crash report: $(tail -c 600 "$T/j17-console.log")"
grep -q "/tmp/app/hs_err_pid1.log" "$T/j17-console.log" || fail "j17: not hs_err_pid1.log in its cwd: $(grep -A1 'error report' "$T/j17-console.log")"
wait_for 10 grep -qF "JVM crash report /proc/$HPID/root/tmp/app/hs_err_pid1.log: SIGSEGV" "$T/j17.err" \
  || fail "j17: the crash report was not read: $(tail -c 800 "$T/j17.err")"
wait_for 10 grep -q "process $HPID has exited" "$T/j17.err" || fail "j17: the exit was not said"
sleep 1
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
[ $rc = 0 ] || fail "j17: stwtop exited $rc"
fin=$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="final")' "$T/j17.ndjson")
echo "j17: $(echo "$fin" | jq -r .title 2>/dev/null)"
case "$fin" in
  *"killed or died without a word"*) fail "j17: jvm-exited says killed: $fin";;
  *crashed*) ;;
  *) fail "j17: jvm-exited does not say crashed: ${fin:-none} $(tail -c 400 "$T/j17.err")";;
esac

# 3. JDK 25: %hn, %t in the JVM's zone, a relative name under its cwd
if [ -x "$J25" ]; then
  # the JVM's zone; stwtop runs in UTC below. A decoy t-<its start in UTC>.log beside the real
  # one: a name made in the wrong zone, or the nearest-timestamp search alone, would take it
  export TZ=Asia/Kolkata DECOY=1
  pod j25 "$J25" -Xmx64m '-Xlog:gc*,safepoint:file=/tmp/gc-%p-%hn.log' '-Xlog:gc:file=/tmp/t-%t.log' \
    '-Xlog:gc:file=logs/rel-%p.log'
  unset TZ DECOY
  tfile=$(cd "/proc/$HPID/root/tmp" && for f in t-*.log; do [ -s "$f" ] && echo "$f"; done | head -1)
  [ -n "$tfile" ] || fail "j25: the JVM wrote no t-%t.log: $(ls "/proc/$HPID/root/tmp")"
  [ "$(cd "/proc/$HPID/root/tmp" && ls t-*.log | wc -l)" = 2 ] || fail "j25: no decoy beside $tfile: $(ls "/proc/$HPID/root/tmp")"
  TZ=UTC "$BIN" --plain --json --interval 300 --pid "$HPID" >"$T/j25.ndjson" 2>"$T/j25.err" &
  SPID=$!
  wait_for 10 grep -qs "a crash report is looked for at" "$T/j25.err" || fail "j25: stwtop did not start: $(head -c 800 "$T/j25.err")"
  for f in "/tmp/gc-1-podname.log" "/tmp/$tfile" "/tmp/app/logs/rel-1.log"; do
    p="/proc/$HPID/root$f"
    grep -qF "following $p (jvm): $p: following" "$T/j25.err" || fail "j25: not followed: $p: $(grep -i follow "$T/j25.err" | head -c 800)"
  done
  grep -qF "its file names (%p, hs_err_pid1.log) are looked for with 1; its host name (%hn, JDK 23+) is podname (its uts namespace)" "$T/j25.err" \
    || fail "j25: the host name of its namespace was not said: $(grep 'pid namespace' "$T/j25.err")"
  wait_for 10 paused "$T/j25.ndjson" || fail "j25: no pause counted: $(grep '"type":"status"' "$T/j25.ndjson" | tail -1)"
  kill -TERM "$SPID"; wait "$SPID" 2>/dev/null; SPID=""
  kill -KILL "$UPID" 2>/dev/null; wait "$UPID" 2>/dev/null; UPID=""
else
  echo "note: part 3 skipped ($J25 not installed)"
fi

[ $fails = 0 ] && echo "ns_names_live: all passed" || { echo "ns_names_live: $fails failed"; exit 1; }
