#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# attach_live.sh path/to/stwtop — --enable-jvm-logging on real JDK 17 JVMs started with no
# logging flag (tests/fixtures/java/HsperfTarget.java, -Xmx64m so that it collects every
# second or so), issue 15:
# (a) stwtop --plain --json --pid P --enable-jvm-logging: GC pauses come from the log
#     (gc_pauses_total > 0, jvm.source "gclog"); `jcmd P VM.log list` shows the added output
#     while stwtop runs and not after SIGTERM ends it, the JVM lives on, its other outputs are
#     as they were, and nothing was printed on its stdout (no thread dump);
# (b) the JVM runs as nobody, stwtop as root: the same;
# (c) the JVM in its own pid + mount namespace with a private /tmp (unshare, tmpfs): the same;
# (d) -XX:+DisableAttachMechanism: a clear refusal, no SIGQUIT (no thread dump), JVM alive;
# (e) a process that is not a JVM: refused, no SIGQUIT, alive;
# and core/probe/attach.c answers VM.version as Debian's jattach does (when it is installed).
# Needs root, javac, java, jcmd, jq, unshare; skipped (77) without them.
set -u
BIN=$(realpath "${1:?usage: attach_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
ATTACH=${STWTOP_BUILD_DIR:-$(dirname "$BIN")}/tests/attach_jcmd
# outside /tmp: case (c) hides /tmp behind a tmpfs
T=$(mktemp -d /var/tmp/stwtop-attach.XXXXXX); chmod 755 "$T"
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
ok() { echo "ok: $*"; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (case b: stwtop as root, the JVM as nobody)"; exit 77; }
for c in javac java jcmd jq unshare runuser; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
[ -x "$ATTACH" ] || { echo "FAIL: $ATTACH not built"; exit 1; }
javac -d "$T/classes" "$D/fixtures/java/HsperfTarget.java" || { echo "FAIL: javac"; exit 1; }
chmod -R a+rX "$T/classes"

# jvm NAME [PREFIX...] @@ [FLAGS...]: start HsperfTarget, set JPID (the host pid of the java process)
jvm() {
	local name=$1; shift
	local pre=() flags=()
	while [ $# -gt 0 ] && [ "$1" != "@@" ]; do pre+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	flags=("$@")
	: >"$T/$name.app"; chmod 666 "$T/$name.app"
	( cd /var/tmp && exec "${pre[@]}" java -Xmx64m "${flags[@]}" -cp "$T/classes" HsperfTarget 300 ) >"$T/$name.app" 2>&1 &
	PIDS+=($!)
	disown $!   # killed at the end: no "Killed" lines
	local i
	for i in $(seq 1 100); do grep -q READY "$T/$name.app" && break; sleep 0.1; done
	JPID=$(pgrep -n -f "HsperfTarget 300")
	PIDS+=("$JPID")
	sleep 1   # the JVM's counters say it has started (sun.rt.createVmEndTime)
}
outputs() { jcmd "$1" VM.log list 2>&1 | grep -E '^ #[0-9]+:'; }
outputs_via() { "$ATTACH" "$1" "VM.log list" 2>&1 | grep -E '^ #[0-9]+:'; }
thread_dump() { grep -q "Full thread dump" "$T/$1.app"; }

# logging_case NAME LIST_FN: stwtop --enable-jvm-logging on $JPID until pauses come from the log
logging_case() {
	local name=$1 list=$2 i
	$list "$JPID" >"$T/$name.before"
	"$BIN" --plain --json --pid "$JPID" --enable-jvm-logging >"$T/$name.ndjson" 2>"$T/$name.err" &
	local spid=$!
	for i in $(seq 1 150); do
		jq -e 'select(.type == "status" and .gc_pauses_total > 0 and .jvm.source == "gclog")' \
			"$T/$name.ndjson" >/dev/null 2>&1 && break
		sleep 0.2
	done
	if jq -e 'select(.type == "status" and .gc_pauses_total > 0 and .jvm.source == "gclog")' "$T/$name.ndjson" >/dev/null 2>&1; then
		ok "$name: GC pauses from the log (jvm.source gclog, gc_pauses_total > 0)"
	else
		fail "$name: no status with pauses from the log: $(tail -c 600 "$T/$name.ndjson"); $(cat "$T/$name.err")"
	fi
	$list "$JPID" >"$T/$name.during"
	grep -q "file=/tmp/stwtop-gc-[0-9]*.log all=off,gc\*=info,safepoint=info" "$T/$name.during" \
		&& ok "$name: VM.log list shows the added output while stwtop runs" \
		|| fail "$name: the added output is not listed: $(cat "$T/$name.during")"
	grep -q "JVM logging turned on: " "$T/$name.err" && ok "$name: said it turned logging on" \
		|| fail "$name: did not say it turned logging on: $(cat "$T/$name.err")"
	kill -TERM "$spid"; wait "$spid"; local rc=$?
	[ $rc = 0 ] || fail "$name: stwtop exited $rc"
	grep -Eq "JVM logging turned off again \(output #[0-9]+ removed" "$T/$name.err" \
		&& ok "$name: said it turned logging off at exit" || fail "$name: no 'turned off again': $(tail -3 "$T/$name.err")"
	kill -0 "$JPID" 2>/dev/null && ok "$name: the JVM lives on" || fail "$name: the JVM died"
	$list "$JPID" >"$T/$name.after"
	cmp -s "$T/$name.before" "$T/$name.after" && ok "$name: the JVM's outputs are as before ($(wc -l <"$T/$name.after") outputs)" \
		|| fail "$name: outputs before/after differ: $(cat "$T/$name.before") // $(cat "$T/$name.after")"
	thread_dump "$name" && fail "$name: a thread dump on the JVM's stdout" || ok "$name: no thread dump on the JVM's stdout"
	kill -KILL "$JPID" 2>/dev/null
	rm -f /tmp/stwtop-gc-"$JPID".log*   # the file stwtop leaves by design (case c's is in its tmpfs)
}

echo "== (a) a JVM with no logging flags"
jvm a @@
logging_case a outputs

echo "== jattach as the reference"
if command -v jattach >/dev/null; then
	jvm ref @@
	"$ATTACH" "$JPID" VM.version >"$T/ours" 2>"$T/ours.err" || fail "attach_jcmd VM.version: $(cat "$T/ours.err")"
	jattach "$JPID" jcmd VM.version | sed '1,/^JVM response code = 0$/d' >"$T/theirs"
	[ -s "$T/ours" ] && diff <(sed '/^$/d' "$T/ours") <(sed '/^$/d' "$T/theirs") >/dev/null \
		&& ok "VM.version: the same text as jattach ($(head -1 "$T/ours"))" \
		|| fail "VM.version differs: ours $(cat "$T/ours") jattach $(cat "$T/theirs")"
	"$ATTACH" "$JPID" No.such.command >/dev/null 2>"$T/bad.err"; rc=$?
	[ $rc = 3 ] && grep -q "JVM status -1" "$T/bad.err" && ok "an unknown command: the JVM's status -1, as jattach reports it" \
		|| fail "unknown command: rc $rc $(cat "$T/bad.err")"
	kill -KILL "$JPID"
else
	echo "skip: jattach not installed (apt-get install jattach)"
fi

echo "== (b) the JVM as nobody, stwtop as root"
jvm b runuser -u nobody -- @@
[ "$(stat -c %U /proc/"$JPID")" = nobody ] || fail "b: the JVM does not run as nobody"
logging_case b outputs_via

echo "== (c) the JVM in its own pid and mount namespace, a private /tmp"
jvm c unshare --pid --fork --mount-proc --mount sh -c 'mount -t tmpfs tmpfs /tmp && exec "$0" "$@"' @@
nspid=$(awk '/^NSpid:/ { print $NF }' /proc/"$JPID"/status)
[ "$nspid" != "$JPID" ] && ok "c: the JVM is pid $nspid in its namespace, $JPID here" || fail "c: not in its own pid namespace"
[ -e /tmp/hsperfdata_root/"$nspid" ] && [ "$nspid" != "$JPID" ] && fail "c: its /tmp is not private"
logging_case c outputs_via
[ -e /tmp/stwtop-gc-"$nspid".log ] && fail "c: the log was written to our /tmp, not the JVM's" || ok "c: the log is in the JVM's /tmp"

echo "== (d) -XX:+DisableAttachMechanism"
jvm d @@ -XX:+DisableAttachMechanism
timeout -s TERM 4 "$BIN" --plain --pid "$JPID" --enable-jvm-logging >/dev/null 2>"$T/d.err"
grep -q "runs with -XX:+DisableAttachMechanism: it accepts no attach.*no SIGQUIT was sent" "$T/d.err" \
	&& ok "d: refused: $(grep -o 'JVM [0-9]* runs with -XX:+DisableAttachMechanism[^;]*' "$T/d.err")" \
	|| fail "d: no clear refusal: $(cat "$T/d.err")"
sleep 0.5
kill -0 "$JPID" 2>/dev/null && ok "d: the JVM lives" || fail "d: the JVM died"
thread_dump d && fail "d: SIGQUIT was sent (a thread dump)" || ok "d: no SIGQUIT (no thread dump)"
kill -KILL "$JPID"

echo "== (e) a process that is not a JVM"
sleep 300 & SP=$!; PIDS+=($SP); disown $SP; sleep 0.3   # exec done
"$ATTACH" "$SP" VM.version >/dev/null 2>"$T/e.err"; rc=$?
[ $rc = 1 ] && grep -q "process $SP is not a JVM: no SIGQUIT was sent" "$T/e.err" && ok "e: refused: $(cat "$T/e.err")" \
	|| fail "e: rc $rc: $(cat "$T/e.err")"
timeout -s TERM 4 "$BIN" --plain --pid "$SP" --enable-jvm-logging >/dev/null 2>"$T/e2.err"
grep -q "is not a JVM: no SIGQUIT was sent" "$T/e2.err" && ok "e: stwtop --enable-jvm-logging refuses too" \
	|| fail "e: stwtop did not refuse: $(cat "$T/e2.err")"
kill -0 "$SP" 2>/dev/null && ok "e: the process lives (a SIGQUIT would have killed sleep)" || fail "e: the process died"

[ $fails = 0 ] && echo PASS || { echo "$fails failure(s)"; exit 1; }
