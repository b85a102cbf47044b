#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pause_open_live.sh BIN — a pause the JVM dies in is a stop live too (issue 24 point 7).
# Runs tests/recordings/pause-never-ended/run.sh in a copy of its folder: a REAL Serial JVM 17 in
# a cgroup-v1 memory cgroup of 200 MiB with the OOM killer held off, whose young collection hangs
# at the limit; 7.5 s after the pause began the kernel kills it. This stwtop follows it live
# (--pid --gc --plain --json; run.sh stops it 3 s after the JVM's end). Its NDJSON must:
#   - raise long-gc-pause for the pause that never ended (crit, "at least" >= 5 s), once the JVM
#     is gone: the log's last line is the pause's start, and nothing else would ever end it;
#   - start that verdict at the GC log's last line (the pause's start line) and end it no
#     earlier than the JVM's last sign of life;
#   - still say jvm-exited, killed by the kernel's OOM killer (the cgroup's counter moved).
# Skips (77) without root, java/javac, jq or a v1 memory controller.
set -u
BIN=$(realpath "${1:?usage: pause_open_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
for c in javac java jq findmnt; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (a memory cgroup)"; exit 77; }
[ -n "$(findmnt -n -o TARGET -t cgroup -O memory | head -1)" ] || { echo "SKIP: no cgroup-v1 memory controller"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
cp "$D/recordings/pause-never-ended/run.sh" "$D/recordings/pause-never-ended/Leak.java" "$T/"
(cd "$T" && STWTOP=$BIN bash run.sh >run.out 2>&1) || { cat "$T/run.out"; fail "run.sh failed"; }
if grep -q "JVM exited before hanging" "$T/events.log" 2>/dev/null; then
	cat "$T/events.log"; fail "the JVM did not hang in a pause (see events.log)"
fi
[ "$(cat "$T/exit-status.txt" 2>/dev/null)" = 137 ] || fail "the JVM was not killed (exit status $(cat "$T/exit-status.txt" 2>/dev/null))"
N=$T/stwtop-live.ndjson
last=$(tail -n 1 "$T/gc.log")
case $last in *"[gc,start"*"Pause "*) ;; *) fail "the GC log does not end with a pause's start line: $last" ;; esac
start_iso=$(printf '%s' "$last" | sed -E 's/^\[([0-9T:.-]+)\+0000\].*/\1Z/')
v=$(jq -c 'select(.id == "long-gc-pause" and (.title | test("never ended")))' "$N" | tail -n 1)
if [ -z "$v" ]; then
	fail "no long-gc-pause for the pause that never ended in the live NDJSON"
	jq -c 'select(.id) | [.id, .title]' "$N" | head
else
	echo "live: $(jq -r '.severity + " " + .title' <<<"$v" | cut -c1-160)"
	[ "$(jq -r .severity <<<"$v")" = crit ] || fail "not crit: $v"
	secs=$(jq -r '.title | capture("at least (?<s>[0-9.]+) s").s // "0"' <<<"$v")
	awk -v s="$secs" 'BEGIN { exit !(s >= 5) }' || fail "at least $secs s, expected >= 5 (the hang was 7.5 s)"
	[ "$(jq -r .start <<<"$v")" = "$start_iso" ] || fail "starts at $(jq -r .start <<<"$v"), the pause began at $start_iso"
	alive=$(jq -r 'select(.id == "jvm-exited") | .start' "$N" | tail -n 1)
	[ -n "$alive" ] && [[ ! "$(jq -r .end <<<"$v")" < "$alive" ]] ||
		fail "ends $(jq -r .end <<<"$v"), before the JVM was last seen alive ($alive)"
fi
jq -e 'select(.id == "jvm-exited" and (.title | test("OOM killer")))' "$N" >/dev/null ||
	fail "jvm-exited does not name the OOM killer: $(jq -r 'select(.id == "jvm-exited") | .title' "$N" | tail -n 1)"
[ "$fails" -eq 0 ] && echo "pause_open_live: all passed" || echo "pause_open_live: $fails failed"
[ "$fails" -eq 0 ]
