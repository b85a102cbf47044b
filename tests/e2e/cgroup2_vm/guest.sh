#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# guest.sh OUT — the part of tests/e2e/cgroup2_vm.sh that runs inside the guest (a Debian 12 kernel
# booted with cgroup v1 off, the host's root read-only over 9p, OUT the writable share). OUT/env
# (written by the host) gives STWTOP, the binary, and each case's settings. For each case NAME it
# leaves in OUT/NAME/ what the host checks: stwtop's NDJSON (stwtop.ndjson) and recording
# (rec.ndjson), the JVM's output, exit status and GC log, and copies of the cgroup's files as the
# guest had them before the JVM started (cg/start/) and after stwtop stopped (cg/end/); then
# "guest: done" on the console.
set -u
OUT=$1
. "$OUT/env"
log() { echo "guest: $*"; }
CG=/sys/fs/cgroup
mount -t cgroup2 -o nsdelegate cgroup2 $CG || { log "mounting cgroup2 failed"; exit 1; }
grep -q ' - cgroup ' /proc/self/mountinfo && { log "a cgroup v1 hierarchy is mounted"; exit 1; }
log "kernel $(uname -r); controllers: $(cat $CG/cgroup.controllers)"
echo "+cpu +memory" >$CG/cgroup.subtree_control || { log "enabling +cpu +memory failed"; exit 1; }
uname -r >"$OUT/kernel"

# snap DIR...: every readable file of these cgroup directories, into OUT/NAME/cg/live/ under their
# own paths (a fixture tree for tests/unit/test_probe.c, with /proc/PID/cgroup and mountinfo)
snap() {
	local d f
	for d in "$@"; do
		mkdir -p "$O/cg/live$d"
		for f in "$d"/*; do [ -f "$f" ] && [ -r "$f" ] && cat "$f" >"$O/cg/live$f" 2>/dev/null; done
	done
}

# run NAME CPU_MAX MEM_MAX KILL_AFTER NESTED BURN-ARGS...: the JVM alone in a new cgroup (a
# subshell moves itself there, then becomes java) with these cpu.max and memory.max, stwtop
# following it from the root cgroup; KILL_AFTER seconds after stwtop started the JVM gets SIGKILL
# (0: never). NESTED=0: the cgroup is /stwtop-NAME; 1: the limits are on /stwtop-NAME and the JVM
# is in its child /stwtop-NAME/jvm, which has the controllers but no limits of its own (a pod's
# cgroup and its container, a systemd slice and its service).
run() {
	local name=$1 cpumax=$2 memmax=$3 kill=$4 nested=$5 f i; shift 5
	local P=$CG/stwtop-$name O=$OUT/$name J
	J=$P; [ "$nested" = 1 ] && J=$P/jvm
	mkdir -p "$O/cg/start" "$O/cg/end" "$O/cg/end-parent"
	mkdir $P && echo "$cpumax" >$P/cpu.max && echo "$memmax" >$P/memory.max || { log "$name: making $P failed"; return 1; }
	if [ "$nested" = 1 ]; then
		echo "+cpu +memory" >$P/cgroup.subtree_control && mkdir $J || { log "$name: making $J failed"; return 1; }
	fi
	for f in cgroup.controllers cpu.max cpu.stat memory.current memory.max memory.events memory.events.local; do
		cp "$J/$f" "$O/cg/start/$f"
	done
	( cd "$O" && echo $BASHPID >$J/cgroup.procs && exec java $JAVA_OPTS \
		"-Xlog:gc*,safepoint:file=$O/gc.log:time,uptime,level,tags" -cp "$OUT/classes" Burn "$@" ) \
		>"$O/jvm.out" 2>"$O/jvm.err" &
	local jpid=$! spid
	for i in $(seq 900); do grep -q READY "$O/jvm.out" 2>/dev/null && break; sleep 0.1; done
	grep -q READY "$O/jvm.out" || { log "$name: the JVM did not start: $(head -c 300 "$O/jvm.err")"; kill -KILL $jpid; wait $jpid; rmdir $J; [ $P = $J ] || rmdir $P; return 1; }
	cp /proc/$jpid/cgroup "$O/cg/proc-pid-cgroup"
	log "$name: JVM $jpid started in $(cat /proc/$jpid/cgroup)"
	"$STWTOP" --plain --json --interval 200 --record "$O/rec.ndjson" --pid $jpid \
		>"$O/stwtop.ndjson" 2>"$O/stwtop.err" &
	spid=$!
	cp /proc/$spid/mountinfo "$O/cg/mountinfo"
	cp /proc/$spid/cgroup "$O/cg/proc-stwtop-cgroup"
	if [ "$kill" != 0 ]; then
		sleep "$kill"
		snap $CG $P $J; mkdir -p "$O/cg/live/proc/self" "$O/cg/live/proc/$jpid"
		cp /proc/$jpid/cgroup "$O/cg/live/proc/$jpid/cgroup"; cp /proc/$spid/mountinfo "$O/cg/live/proc/self/mountinfo"
		echo $jpid >"$O/cg/live/PID"
		date +%s%3N >"$O/jvm.end_ms"; kill -KILL $jpid; wait $jpid; echo $? >"$O/jvm.rc"
	else
		wait $jpid; echo $? >"$O/jvm.rc"; date +%s%3N >"$O/jvm.end_ms"
	fi
	log "$name: JVM exited $(cat "$O/jvm.rc") after: $(tail -1 "$O/jvm.out")"
	for i in $(seq 100); do grep -q '"id":"jvm-exited"' "$O/stwtop.ndjson" && break; sleep 0.1; done
	sleep 1
	kill -TERM $spid; wait $spid; echo $? >"$O/stwtop.rc"
	for f in cgroup.controllers cpu.max cpu.stat memory.current memory.max memory.events memory.events.local memory.stat memory.pressure cpu.pressure; do
		cp "$J/$f" "$O/cg/end/$f"; cp "$P/$f" "$O/cg/end-parent/$f"
	done
	rmdir $J; [ $P = $J ] || rmdir $P
	log "$name: stwtop exited $(cat "$O/stwtop.rc")"
}

for c in $CASES; do
	eval "v=\$CASE_$c"
	eval "set -- $v"
	run "$c" "$@"
done
log "done"
