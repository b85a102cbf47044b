#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# jvm_death_live.sh path/to/stwtop — how the followed JVM died, named from what is there, live, on
# real parts (tests/fixtures/java/Leak.java: the main thread keeps KB more every few ms).
#
# 1. exit-oome: -Xmx64m -XX:+ExitOnOutOfMemoryError, stdout and stderr to files. The JVM ends itself
#    (exit status 3, "Terminating due to java.lang.OutOfMemoryError" on stdout). jvm-exited must say
#    it ended itself on OutOfMemoryError, quote that line from that file, name the flag, give the
#    Full GCs that freed nothing, and say neither "killed" nor the OOM killer (the cgroup's counter
#    did not move).
# 2. uncaught-oome: the same without the flag: main dies of an uncaught OutOfMemoryError and the JVM
#    with it (status 1; JDK 17 prints "Exception: java.lang.OutOfMemoryError thrown from the
#    UncaughtExceptionHandler in thread "main"" on stderr, and no heap at exit): "ended after an
#    OutOfMemoryError", the stderr line quoted; not "killed".
# 3. cgroup-oom-kill: -Xmx1g in a new v1 memory cgroup limited to 200 MiB (made here, removed after):
#    the kernel's OOM killer kills it (status 137, the cgroup's oom_kill 0 -> 1). jvm-exited must say
#    "killed by the kernel's OOM killer" with the counter's rise, between the last poll that saw it
#    alive and the first that found it gone.
# 4. sigkill: the same JVM as 1 but killed with SIGKILL before its heap runs out, in the same kind of
#    cgroup: "killed or died without a word", the counter "did not rise", no OutOfMemoryError.
# 5. crash-oome: -XX:+CrashOnOutOfMemoryError: "crashed on purpose on OutOfMemoryError", the
#    "Aborting due to" line and the crash report named.
# In every case but 5 (dated by its crash report) the verdict's interval holds the moment the test saw the JVM end.
# Needs root, a v1 memory cgroup hierarchy (cases 3-4, else skipped), javac, jq; 77 without javac/jq.
set -u
BIN=$(realpath "${1:?usage: jvm_death_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""; CG=""
MEMCG=/sys/fs/cgroup/memory
cleanup() {
	for p in "$SPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.05; done; }
for c in javac java jq; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
javac -d "$T/classes" "$D/fixtures/java/Leak.java" || { echo "FAIL: javac"; exit 1; }

# run NAME CGROUP|- KILL(0/1) JAVA-ARGS...: the JVM (its stdout/stderr in $T/NAME.out/.err) in CGROUP,
# stwtop following it; KILL=1 sends SIGKILL 2 s after stwtop started. Sets RC (the JVM's exit status),
# END_MS (when the test saw it end: the kill, or its wait returning), FIN (the final jvm-exited).
run() {
	local name=$1 cg=$2 kill=$3; shift 3
	( [ "$cg" != - ] && echo $BASHPID >"$cg/cgroup.procs"
	  cd "$T" && exec java "-Xlog:gc*:file=$T/$name-gc.log:time,uptime,level,tags" "$@" ) >"$T/$name.out" 2>"$T/$name.err" &
	JPID=$!
	wait_for 30 grep -q READY "$T/$name.out" || { fail "$name: the JVM did not start: $(head -c 300 "$T/$name.err")"; return 1; }
	"$BIN" --plain --json --interval 200 --pid "$JPID" >"$T/$name.ndjson" 2>"$T/$name.stwtop.err" &
	SPID=$!
	if [ "$kill" = 1 ]; then
		sleep 2; END_MS=$(date +%s%3N); kill -KILL "$JPID"; wait "$JPID"; RC=$?
	else
		wait "$JPID"; RC=$?; END_MS=$(date +%s%3N)
	fi
	JPID=""
	wait_for 10 grep -q '"id":"jvm-exited"' "$T/$name.ndjson"
	sleep 1
	kill -TERM "$SPID"; wait "$SPID"; local src=$?; SPID=""
	[ $src = 0 ] || fail "$name: stwtop exited $src: $(head -c 300 "$T/$name.stwtop.err")"
	FIN=$(jq -c 'select(.type=="verdict" and .id=="jvm-exited" and .event=="final")' "$T/$name.ndjson")
	[ -n "$FIN" ] || { fail "$name: no final jvm-exited: $(tail -c 600 "$T/$name.ndjson")"; return 1; }
	echo "$name: exit status $RC; $(echo "$FIN" | jq -r .title)"
}
ms() { python3 -c "import datetime,sys; print(round(datetime.datetime.strptime(sys.argv[1], '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc).timestamp()*1000))" "$1"; }
title_has() { echo "$FIN" | jq -e --arg t "$2" '.title | contains($t)' >/dev/null || fail "$1: the title lacks \"$2\": $(echo "$FIN" | jq -r .title)"; }
title_hasnt() { echo "$FIN" | jq -e --arg t "$2" '.title | contains($t) | not' >/dev/null || fail "$1: the title says \"$2\": $(echo "$FIN" | jq -r .title)"; }
evid_has() { echo "$FIN" | jq -e --arg t "$2" '[.evidence[] | select(contains($t))] | length > 0' >/dev/null || fail "$1: no evidence with \"$2\": $(echo "$FIN" | jq -c .evidence)"; }
# the interval holds the end: a kill the test sent is inside it; a JVM that ended itself did so
# after the last line of its GC log (it was alive to write it) and before the test's wait
# returned. 50 ms of slack for the clocks read in different processes.
interval_holds() {
	local s e lo hi; s=$(ms "$(echo "$FIN" | jq -r .start)"); e=$(ms "$(echo "$FIN" | jq -r .end)")
	if [ "${2:-}" = kill ]; then lo=$END_MS; hi=$END_MS
	else
		lo=$(tail -1 "$T/$1-gc.log" | python3 -c "import sys,datetime; l=sys.stdin.read(); print(round(datetime.datetime.strptime(l[1:l.index(']')], '%Y-%m-%dT%H:%M:%S.%f%z').timestamp()*1000))")
		hi=$END_MS
	fi
	[ "$s" -le $((hi + 50)) ] && [ "$e" -ge $((lo - 50)) ] && [ $((e - s)) -le 1500 ] \
		|| fail "$1: the interval $(echo "$FIN" | jq -c '[.start, .end]') does not hold the end (after $lo, by $hi)"
}

# 1. -XX:+ExitOnOutOfMemoryError
if run exit-oome - 0 -Xmx64m -XX:+ExitOnOutOfMemoryError -cp classes Leak main 256 20; then
	[ "$RC" = 3 ] || fail "exit-oome: the JVM's exit status is $RC, not 3 (ExitOnOutOfMemoryError)"
	grep -q "^Terminating due to java.lang.OutOfMemoryError" "$T/exit-oome.out" || fail "exit-oome: no Terminating line on stdout"
	title_has exit-oome "ended itself on OutOfMemoryError (-XX:+ExitOnOutOfMemoryError"
	title_hasnt exit-oome "killed"
	evid_has exit-oome "$T/exit-oome.out (the JVM's own output) says: Terminating due to java.lang.OutOfMemoryError: Java heap space"
	evid_has exit-oome "its command line has -XX:+ExitOnOutOfMemoryError"
	evid_has exit-oome "back-to-back Full GCs"
	echo "$FIN" | jq -e '[.evidence[] | select(contains("OOM-kill counter rose"))] | length == 0' >/dev/null || fail "exit-oome: an OOM kill is claimed"
	echo "$FIN" | jq -e '.advice | contains("SIGKILL") | not' >/dev/null || fail "exit-oome: SIGKILL advice: $(echo "$FIN" | jq -r .advice)"
	interval_holds exit-oome
fi

# 2. no flag: an uncaught OutOfMemoryError ends main, and the JVM with it
if run uncaught-oome - 0 -Xmx64m -cp classes Leak main 256 20; then
	[ "$RC" = 1 ] || fail "uncaught-oome: the JVM's exit status is $RC, not 1"
	line=$(grep -m1 'java.lang.OutOfMemoryError' "$T/uncaught-oome.err") || fail "uncaught-oome: no OutOfMemoryError on stderr"
	title_has uncaught-oome "The JVM ended after an OutOfMemoryError between "
	title_hasnt uncaught-oome "killed"
	evid_has uncaught-oome "$T/uncaught-oome.err (the JVM's own output) says: $line"
	interval_holds uncaught-oome
fi

# 5. -XX:+CrashOnOutOfMemoryError: "Aborting due to" on stdout, then a crash report (no core)
if run crash-oome - 0 -Xmx64m -XX:+CrashOnOutOfMemoryError "-XX:ErrorFile=$T/hs_err_pid%p.log" \
	-XX:-CreateCoredumpOnCrash -cp classes Leak main 256 20; then
	# with -XX:-CreateCoredumpOnCrash HotSpot ends with exit(1) instead of abort() (134)
	[ "$RC" = 1 ] || [ "$RC" = 134 ] || fail "crash-oome: the JVM's exit status is $RC, not 1 or 134"
	title_has crash-oome "The JVM crashed on purpose on OutOfMemoryError (-XX:+CrashOnOutOfMemoryError"
	evid_has crash-oome "(the JVM's own output) says: Aborting due to java.lang.OutOfMemoryError: Java heap space"
	evid_has crash-oome "$T/hs_err_pid"
	title_hasnt crash-oome "killed"
fi

if [ ! -w "$MEMCG/cgroup.procs" ] || [ ! -f "$MEMCG/memory.oom_control" ]; then
	echo "SKIP (cases 3-4): no writable v1 memory cgroup hierarchy at $MEMCG"
else
	# 3. the kernel's OOM killer at the cgroup's limit
	CG=$MEMCG/stwtop-test-$$-oom; mkdir "$CG" && echo $((200 << 20)) >"$CG/memory.limit_in_bytes"
	if run cgroup-oom-kill "$CG" 0 -Xmx1g -cp classes Leak main 512 10; then
		k=$(sed -n 's/^oom_kill //p' "$CG/memory.oom_control")
		[ "$RC" = 137 ] && [ "$k" = 1 ] || fail "cgroup-oom-kill: exit status $RC, oom_kill $k (want 137, 1): the test did not make its case"
		title_has cgroup-oom-kill "The JVM was killed by the kernel's OOM killer (its memory cgroup's limit) between "
		evid_has cgroup-oom-kill "OOM-kill counter rose from 0 to 1"
		interval_holds cgroup-oom-kill
	fi
	rmdir "$CG"
	# 4. SIGKILL in the same kind of cgroup, no OOM
	CG=$MEMCG/stwtop-test-$$-kill; mkdir "$CG" && echo $((200 << 20)) >"$CG/memory.limit_in_bytes"
	if run sigkill "$CG" 1 -Xmx64m -XX:+ExitOnOutOfMemoryError -cp classes Leak main 8 200; then
		[ "$RC" = 137 ] || fail "sigkill: exit status $RC"
		title_has sigkill "The JVM was killed or died without a word between "
		evid_has sigkill "OOM-kill counter did not rise (oom_kill 0): not its memory limit"
		evid_has sigkill "say nothing of an OutOfMemoryError"
		title_hasnt sigkill "OutOfMemoryError"
		interval_holds sigkill kill
	fi
	rmdir "$CG"; CG=""
fi
[ $fails = 0 ] && echo "jvm_death_live: all passed" || { echo "jvm_death_live: $fails failed"; exit 1; }
