#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# demo_plain.sh BIN — the bundled demos (data/demo/*) replay in line mode and tell
# their incident in order: the stop, its cause, its cost; the replay ends by itself.
set -u
BIN=${1:?usage: demo_plain.sh path/to/stwtop}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
order() { # ids in the order they were first printed as new
  jq -r 'select(.type=="verdict" and .event=="new") | .id' "$1" | tr '\n' ' '; }

timeout 60 "$BIN" --demo --plain --json --demo-speed 40 >"$T/d1" 2>"$T/e1"; rc=$?
[ $rc = 0 ] || fail "demo exited $rc: $(cat "$T/e1")"
o=$(order "$T/d1")
case "$o" in
  *ttsp-spike*cpu-throttled-during-stop*accept-queue-overflow*) ;;
  *) fail "throttle-stop demo: verdicts not in causal order: $o";;
esac
jq -se 'any(.[]; .type=="verdict" and .event=="final" and .id=="accept-queue-overflow" and (.title | test("raise the backlog above [0-9]+")))' "$T/d1" >/dev/null \
  || fail "the demo's accept-queue verdict gives no backlog"

timeout 60 "$BIN" --demo=gc-stop --plain --json --demo-speed 40 >"$T/d2" 2>"$T/e2"; rc=$?
[ $rc = 0 ] || fail "gc-stop demo exited $rc: $(cat "$T/e2")"
o=$(order "$T/d2")
case "$o" in
  *long-gc-pause*accept-queue-overflow*) ;;
  *) fail "gc-stop demo: verdicts not in order: $o";;
esac
grep -q 'cpu-throttled-during-stop' "$T/d2" && fail "gc-stop demo blames CPU throttling"

"$BIN" --demo=nosuch --plain >"$T/o" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "demo 'nosuch' not found" "$T/o" || fail "unknown demo: rc $rc, $(cat "$T/o")"
[ $fails = 0 ] && echo "demo_plain: all passed" || { echo "demo_plain: $fails failed"; exit 1; }
