#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cli.sh BIN — the command line's contract: --help/--version, one-line errors
# naming the option with exit 2, unreadable sources with exit 1, SIGPIPE.
set -u
BIN=${1:?usage: cli.sh path/to/stwtop}
S=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}/samples
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
# expect RC PATTERN -- ARGS: exit code and a regex the combined output must match
expect() { local want=$1 re=$2; shift 3
  "$BIN" "$@" >"$T/out" 2>"$T/err"; local rc=$?
  [ "$rc" = "$want" ] || fail "stwtop $* exited $rc, want $want: $(head -c 300 "$T/err")"
  grep -Eq -- "$re" "$T/out" "$T/err" || fail "stwtop $*: output does not match /$re/: $(head -c 300 "$T/out" "$T/err")"
}
expect 0 '^usage: stwtop' -- --help
expect 0 '^stwtop [0-9]+\.[0-9]+' -- --version
# the license notice (LICENSE): GPL-2.0-or-later and no warranty
"$BIN" --version >"$T/version"
grep -q '^License GPL-2.0-or-later' "$T/version" && grep -q 'NO WARRANTY' "$T/version" && grep -q '^Copyright (C) ' "$T/version" \
  || fail "--version does not carry the license notice: $(cat "$T/version")"
# --help names the demo's argument and every bundled demo (data/demo/NAME), as the man page does
"$BIN" --help >"$T/help"
grep -Fq -- '--demo[=NAME]' "$T/help" || fail "--help does not list --demo[=NAME]"
for d in "$S"/../../data/demo/*/; do
  n=$(basename "$d"); grep -qw -- "$n" "$T/help" || fail "--help does not name the demo $n"
done
grep -Fq -- '\-\-demo [ =\fINAME\fR ]' "$S/../../doc/stwtop.1" || fail "the man page lost --demo=NAME"
expect 2 "unknown option '--frobnicate'" -- --frobnicate
expect 2 "unknown option '-x'" -- -x
expect 2 '^stwtop: --interval: .abc. is not a number' -- --interval abc
expect 2 '^stwtop: --interval: .5. is not a number' -- --interval 5
expect 2 '^stwtop: --pid: .12ab. is not a process id' -- --pid 12ab
expect 2 '^stwtop: --gc needs a value' -- --gc
expect 2 '^stwtop: --report needs at least one source' -- --report
expect 2 "unexpected argument 'gc.log'" -- gc.log
expect 2 '^stwtop: --json needs --report or --plain' -- --json --gc x
expect 2 '^stwtop: --demo-speed' -- --demo --demo-speed 0
expect 2 '^stwtop: --jvm-start' -- --report --gc x --jvm-start nonsense
# 64 sources on the command line are read (a folder of old GC logs); the 65th is refused by name
many=(); for i in $(seq 1 64); do many+=(--gc "$S/public-gc-logs/dataset106.txt"); done
expect 0 '"complete"' -- --report --json "${many[@]}"
expect 2 '^stwtop: --gc: too many sources \(at most 64\)' -- --report "${many[@]}" --gc x
# every usage error is exactly one line
"$BIN" --interval abc 2>"$T/err" >/dev/null; [ "$(wc -l <"$T/err")" = 1 ] || fail "usage error is not one line"
# a missing or unreadable source: exit 1, the path and the reason, the rest still reported
expect 1 "$T/missing.log: No such file or directory" -- --report --gc "$T/missing.log" --gc "$S/throttle/control/gc.log"
grep -q '"gc_pauses"' "$T/out" || "$BIN" --report --json --gc "$T/missing.log" --gc "$S/throttle/control/gc.log" 2>/dev/null | grep -q '"gc_pauses": 6' || fail "the readable source was not reported"
expect 1 'is a directory|not a regular file' -- --report --gc "$T"
expect 1 'not a regular file \(a character device\)' -- --report --gc /dev/zero
# a bad nginx format is a usage error naming the option
expect 2 '^stwtop: --nginx-conf' -- --report --nginx "$S/nginx-uct/backlog100/logs/access.log" --nginx-conf "$T/none.conf:ops"
# ... in a live run too (line mode and the dashboard share the session setup)
expect 2 '^stwtop: --nginx-conf' -- --plain --nginx "$S/nginx-uct/backlog100/logs/access.log" --nginx-conf "$T/none.conf:ops"
expect 2 'no log_format "nosuch"' -- --plain --nginx "$S/nginx-uct/connect-timeout/logs/access.log" --nginx-conf "$S/nginx-uct/connect-timeout/nginx.conf:nosuch"
# the JSON report is valid and names every source
"$BIN" --report --json --gc "$S/throttle/control/gc.log" --cpustat-log "$S/throttle/control/cpustat-100ms.log" >"$T/r.json" 2>"$T/err" || fail "report failed: $(cat "$T/err")"
jq -e '.tool == "stwtop" and (.sources | length) == 2 and .sources[1].kind == "cpustat"' "$T/r.json" >/dev/null || fail "report JSON shape"
# | head -1 ends cleanly (SIGPIPE ignored, no error message, no hang)
timeout 20 bash -c "'$BIN' --report --nginx '$S/combined/gc-stop/logs/access.log' | head -1" >"$T/out" 2>"$T/err"
rc=$?; [ $rc = 0 ] || fail "report | head -1 exited $rc"
[ -s "$T/err" ] && fail "report | head -1 printed: $(cat "$T/err")"
# --help-config lists the thresholds; a bad config names the key
expect 0 'ttsp_warn_ms +100' -- --help-config
echo '{"ttsp_warn_ms": 50, "no_such_knob": 1}' >"$T/bad.json"
expect 2 'unknown threshold "no_such_knob"' -- --report --gc "$S/throttle/control/gc.log" --config "$T/bad.json"
echo '{"ttsp_warn_ms": "fast"}' >"$T/bad2.json"
expect 2 '"ttsp_warn_ms" must be a non-negative number' -- --report --gc "$S/throttle/control/gc.log" --config "$T/bad2.json"
# a crash report source: the AOT SIGILL verdict from the (synthetic, see its README) hs_err
H=$(cd "$S/../fixtures/hserr" && pwd)
"$BIN" --report --json --hs-err "$H/hs_err_synthetic-jdk25-aot-sigill.log" >"$T/r.json" 2>"$T/err" || fail "hs-err report: $(cat "$T/err")"
jq -e '.summary.crash_reports == 1 and any(.verdicts[]; .id == "aot-sigill-adapter" and .severity == "crit")' "$T/r.json" >/dev/null \
  || fail "no aot-sigill-adapter verdict for the SIGILL ~AdapterBlob report"
"$BIN" --report --json --hs-err "$H/hs_err_pid26891-jdk17-sigsegv.log" >"$T/r.json" 2>"$T/err" || fail "hs-err report (real SIGSEGV): $(cat "$T/err")"
jq -e '.summary.crash_reports == 1 and ([.verdicts[] | select(.id == "aot-sigill-adapter")] | length) == 0' "$T/r.json" >/dev/null \
  || fail "a real SIGSEGV crash (no AOT adapter) must not raise aot-sigill-adapter"
# the GC-relevant -XX flags of a JDK 8 log's "CommandLine flags:" line, in the JSON and the text
"$BIN" --report --json --gc "$S/public-gc-logs/dataset106.txt" >"$T/r.json" 2>"$T/err"
jq -e '.jvm.flags == ["-XX:+UseG1GC", "-XX:MaxGCPauseMillis=500"]' "$T/r.json" >/dev/null || fail "jvm.flags: $(jq -c .jvm "$T/r.json")"
"$BIN" --report --gc "$S/public-gc-logs/dataset106.txt" | grep -q '^  Flags      -XX:+UseG1GC -XX:MaxGCPauseMillis=500$' || fail "text report: no Flags line"
# --verbose: why each line did not parse, on stderr, 100 per source, then one line that more failed;
# without it, only the report's first-failure line
A=$S/nginx-uct/backlog100/logs/access.log
"$BIN" --report --verbose --nginx "$A" --nginx-format '$msec $status' >"$T/out" 2>"$T/err"
[ "$(grep -c '^stwtop: access.log:[0-9]*: did not parse: variable \$msec expects a time' "$T/err")" = 100 ] \
  || fail "--verbose: want 100 per-line reasons, got $(grep -c 'did not parse' "$T/err")"
grep -q '^stwtop: access.log:1: did not parse' "$T/err" || fail "--verbose: line 1 not told first"
grep -q 'more lines did not parse; the first 100 were told' "$T/err" || fail "--verbose: the cut is not said"
grep -q '3600 unparsed' "$T/out" || fail "--verbose: the report no longer counts all 3600"
"$BIN" --report --nginx "$A" --nginx-format '$msec $status' >"$T/out" 2>"$T/err"
grep -q 'did not parse' "$T/err" && fail "without --verbose, per-line reasons were printed"
grep -q 'first unparsed line 1: variable \$msec' "$T/out" || fail "the report lost its first-failure line"
printf 'garbage\n2026-11-29T19:10:02 nr_periods 1 nr_throttled 0 throttled_time 0\n' >"$T/cs.log"
"$BIN" --report --verbose --cpustat-log "$T/cs.log" >"$T/out" 2>"$T/err"
grep -q "cs.log:1: did not parse: not '<ISO time> nr_periods" "$T/err" || fail "--verbose cpustat: $(cat "$T/err")"
[ $fails = 0 ] && echo "cli: all passed" || { echo "cli: $fails failed"; exit 1; }
