#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# verdict_members.sh BIN — a verdict has the same members, in the same order, in the
# report's JSON (written by core/out/report.c's jb_verdict) and on an NDJSON verdict line
# (built by verdict_obj), which adds only type, schema, event and incident: the two writers
# cannot drift apart unseen. The inputs: the two bundled demos (data/demo/), replayed and
# reported.
set -u
BIN=${1:?usage: verdict_members.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
for demo in throttle-stop gc-stop; do
	timeout 60 "$BIN" --demo="$demo" --plain --json --demo-speed 40 >"$T/nd" 2>"$T/err" \
		|| { fail "$demo: the demo replay exited $?: $(head -3 "$T/err")"; continue; }
	S=$D/data/demo/$demo
	args=()
	[ -f "$S/gc.log" ] && args+=(--gc "$S/gc.log")
	[ -f "$S/access.log" ] && args+=(--nginx "$S/access.log")
	[ -f "$S/cpustat.log" ] && args+=(--cpustat-log "$S/cpustat.log")
	TZ=UTC "$BIN" --report --json "${args[@]}" >"$T/rep" 2>"$T/err" || true
	# members in order, "cleared" (there only once a verdict cleared) left aside
	nd=$(jq -c 'select(.type=="verdict") | keys_unsorted - ["type","schema","event","incident","cleared"]' "$T/nd" | sort -u)
	rp=$(jq -c '.verdicts[] | keys_unsorted - ["cleared"]' "$T/rep" | sort -u)
	[ -n "$nd" ] && [ -n "$rp" ] || { fail "$demo: no verdicts (NDJSON: ${nd:-none}, report: ${rp:-none}): $(head -3 "$T/err")"; continue; }
	[ "$nd" = "$rp" ] && echo "ok: $demo: the report's verdicts and the NDJSON's have the members $rp" \
		|| fail "$demo: members differ: NDJSON $nd, report $rp"
	jq -e '[.verdicts[] | .id, .severity, (.title | type), (.evidence | type), (.advice | type)] | all(. != null)' "$T/rep" >/dev/null \
		|| fail "$demo: a report verdict lacks a member's value"
done
[ $fails = 0 ] && echo "verdict_members: all passed" || { echo "verdict_members: $fails failed"; exit 1; }
