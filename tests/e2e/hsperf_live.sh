#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hsperf_live.sh path/to/stwtop — a JVM started with no logging flags at all: stwtop --pid
# shows its heap, collections and stops from the JVM's own counters (hsperfdata), and
# gc-overhead is raised from them (issue 15). Real JDK 17 JVMs running the gc-overhead
# recordings' program (tests/recordings/programs/HeldCache.java), no -Xlog flag:
# 1. G1 -Xmx96m, a cache that nearly fills the heap held for 8 s: every status object says
#    jvm.source "hsperfdata"; gc-overhead is raised once, crit, from the counters, its window
#    within one read of the program's own hold phase (it prints the wall clock); it clears
#    after the drop; `--replay` of the --record of the run raises the same verdict over the
#    same window (the samples are recorded). The dashboard (tmux) draws the Stops and Heap
#    panes from the counters.
# 2. Parallel -Xmx96m, the same: gc-overhead from the counters.
# 3. the healthy control (G1 -Xmx1g, 400 MiB/s of garbage): many collections, no gc-overhead.
# 4. -XX:-UsePerfData: no counters; stwtop says why and jvm.source is "none", never a number.
# Needs javac, java, jq; skipped (77) without them.
set -u
BIN=$(realpath "${1:?usage: hsperf_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""
TM="tmux -L stwtop-hsperf-$$ -f /dev/null"
cleanup() {
	for p in "$SPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	$TM kill-server 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
for c in javac java jq tmux; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
javac -d "$T/classes" "$D/recordings/programs/HeldCache.java" || { echo "FAIL: javac"; exit 1; }

# run NAME "JVM FLAGS" "HeldCache ARGS" [tmux]: the JVM with no logging flag, stwtop --pid on it
# until it exits; leaves $T/NAME.ndjson, NAME.err, NAME.rec, NAME.app
run() {
	local name=$1 flags=$2 args=$3 tui=${4:-}
	( cd "$T" && exec java $flags -cp classes HeldCache $args ) >"$T/$name.app" 2>&1 &
	JPID=$!
	local i
	for i in $(seq 1 100); do grep -q "phase=lead" "$T/$name.app" && break; sleep 0.1; done
	"$BIN" --plain --json --pid "$JPID" --record "$T/$name.rec" >"$T/$name.ndjson" 2>"$T/$name.err" &
	SPID=$!
	if [ -n "$tui" ]; then
		$TM new-session -d -s e2e -x 160 -y 48 -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
			"$BIN --pid $JPID; sleep 600"
		for i in $(seq 1 100); do   # until the episode is on the screen (the hold lasts 8 s)
			$TM capture-pane -p -t e2e >"$T/$name.screen" 2>/dev/null
			grep -q "gc-overhead" "$T/$name.screen" && grep -q "Stops (JVM counters)" "$T/$name.screen" && break
			sleep 0.2
		done
	fi
	wait "$JPID"; JPID=""
	sleep 2.5   # the poll that finds it gone
	kill -TERM "$SPID"; wait "$SPID"; local rc=$?; SPID=""
	[ $rc = 0 ] || fail "$name: stwtop exited $rc: $(head -c 400 "$T/$name.err")"
}

# the program's phase times (epoch ms)
phase() { awk -v p="phase=$2" '$3 == p { print $1; exit }' "$T/$1.app"; }
ms() { jq -rn --arg t "$1" '$t | sub("\\.[0-9]+Z$"; "Z") | fromdate * 1000 + ($t | capture("\\.(?<f>[0-9]+)Z$").f | tonumber)'; }
verdicts() { jq -c 'select(.id == "gc-overhead")' "$T/$1.ndjson"; }

# an episode from the counters: raised, crit, said so, within a read of the hold phase, cleared
check_episode() { # NAME
	local name=$1 n first last
	n=$(verdicts "$name" | jq -r '.event' | grep -c '^new$')
	[ "$n" = 1 ] || fail "$name: gc-overhead raised $n times (want once): $(verdicts "$name" | head -3)"
	last=$(verdicts "$name" | tail -1)
	[ "$(jq -r .severity <<<"$last")" = crit ] || fail "$name: not crit: $last"
	jq -e '.evidence | any(test("the JVM.s own counters \\(hsperfdata"))' <<<"$last" >/dev/null ||
		fail "$name: the evidence does not say it comes from the counters: $last"
	jq -e '.evidence | any(test("^not checked: when each pause began"))' <<<"$last" >/dev/null ||
		fail "$name: the evidence does not say what the counters cannot tell: $last"
	verdicts "$name" | jq -r .event | grep -q '^cleared$' || fail "$name: never cleared after the drop"
	local fill drop vs ve
	fill=$(phase "$name" fill); drop=$(phase "$name" drop)
	vs=$(ms "$(jq -r .start <<<"$last")"); ve=$(ms "$(jq -r .end <<<"$last")")
	# reads every 1 s: the window starts at most a read before the fill (the read that saw it
	# begin) and at most 2 after; it ends within 2 reads of the drop
	[ "$vs" -ge $((fill - 1100)) ] && [ "$vs" -le $((fill + 2100)) ] ||
		fail "$name: the episode starts at $vs, the fill at $fill"
	[ "$ve" -ge $((drop - 2100)) ] && [ "$ve" -le $((drop + 2100)) ] ||
		fail "$name: the episode ends at $ve, the drop at $drop"
	echo "$name: gc-overhead $(jq -r .start <<<"$last") .. $(jq -r .end <<<"$last") (fill $fill, drop $drop)"
}

# 1. G1, with the dashboard
run g1 "-XX:+UseG1GC -Xmx96m" "3 84 4 8 5 50 0" tui
src=$(jq -r 'select(.type == "status") | .jvm.source' "$T/g1.ndjson" | sort -u | tr '\n' ' ')
[ "$src" = "hsperfdata " ] || fail "g1: status jvm.source is '$src' (want hsperfdata only)"
gcs=$(jq -r 'select(.type == "status") | .jvm.gcs_total' "$T/g1.ndjson" | tail -1)
[ "${gcs:-0}" -ge 50 ] || fail "g1: $gcs collections counted: the hold phase collects tens a second"
check_episode g1
grep -q "Stops (JVM counters)" "$T/g1.screen" || fail "g1: the Stops pane is not drawn from the counters: $(cat "$T/g1.screen")"
grep -q "used (JVM counters)" "$T/g1.screen" || fail "g1: the Heap pane is not drawn from the counters"
grep -q "hsperfdata" "$T/g1.screen" || fail "g1: the header does not list the hsperfdata source"
# the recording carries the samples: the replay raises the same episode
"$BIN" --replay "$T/g1.rec" --report --json >"$T/g1-replay.json" 2>"$T/g1-replay.err" ||
	fail "g1: --replay failed: $(head -c 300 "$T/g1-replay.err")"
live=$(verdicts g1 | tail -1 | jq -c '[.start, .end, .severity]')
rep=$(jq -c '[.verdicts[] | select(.id == "gc-overhead") | [.start, .end, .severity]][0]' "$T/g1-replay.json")
[ "$live" = "$rep" ] || fail "g1: live gc-overhead $live, replayed $rep"
[ "$(jq -r .summary.jvm_counters.gcs "$T/g1-replay.json")" = "$gcs" ] ||
	fail "g1: the replay counts $(jq -r .summary.jvm_counters.gcs "$T/g1-replay.json") collections, live $gcs"

# 2. Parallel
run parallel "-XX:+UseParallelGC -Xmx96m" "3 66 4 9 4 50 0"
check_episode parallel

# 3. the healthy control: busy, not overhead
run healthy "-XX:+UseG1GC -Xmx1g" "3 32 4 10 2 400 400"
n=$(verdicts healthy | wc -l)
[ "$n" = 0 ] || fail "healthy: gc-overhead raised on the healthy control: $(verdicts healthy | head -2)"
gcs=$(jq -r 'select(.type == "status") | .jvm.gcs_total' "$T/healthy.ndjson" | tail -1)
[ "${gcs:-0}" -ge 5 ] || fail "healthy: only $gcs collections counted at 400 MiB/s"
echo "healthy: $gcs collections, no gc-overhead"

# 4. no counters at all
run noperf "-XX:-UsePerfData -XX:+UseG1GC -Xmx96m" "4 1 1 1 1 1 1"
grep -q "no JVM counters: .*UsePerfData" "$T/noperf.err" ||
	fail "noperf: stwtop does not say why there are no counters: $(head -c 600 "$T/noperf.err")"
src=$(jq -r 'select(.type == "status") | .jvm.source' "$T/noperf.ndjson" | sort -u | tr '\n' ' ')
[ "$src" = "none " ] || fail "noperf: status jvm.source is '$src' (want none)"

[ $fails = 0 ] && echo "hsperf_live: ok" || echo "hsperf_live: $fails failed"
exit $((fails > 0))
