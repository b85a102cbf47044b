#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# checked.sh BIN — a report says "nothing abnormal" only when it read and understood its input
# (session_checked, docs/report-json.md "checked"): a missing file, a binary, an IBM/OpenJ9
# verbose GC log, an empty file each say what could not be read or understood, with the exit
# status of doc/stwtop.1 (1 only when a source could not be read); the real healthy samples and
# the healthy-control recording still say "nothing abnormal" / are complete.
set -u
BIN=${1:?usage: checked.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
command -v jq >/dev/null || { echo "checked.sh needs jq"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0 failc=0
ok()  { pass=$((pass + 1)); }
bad() { failc=$((failc + 1)); echo "FAIL [$CASE] $*"; }
# run NAME WANT_RC ARGS...: text and JSON reports into $T/NAME.txt, $T/NAME.json
run() {
  CASE=$1; local want=$2; shift 2
  TZ=UTC "$BIN" --report "$@" >"$T/$CASE.txt" 2>"$T/$CASE.err"; local rc=$?
  [ "$rc" = "$want" ] && ok || bad "text report exit $rc, want $want: $(head -c 300 "$T/$CASE.err")"
  TZ=UTC "$BIN" --report --json "$@" >"$T/$CASE.json" 2>/dev/null; rc=$?
  [ "$rc" = "$want" ] && ok || bad "JSON report exit $rc, want $want"
  jq -e . "$T/$CASE.json" >/dev/null 2>&1 && ok || bad "JSON report is not JSON"
}
txt_has()   { grep -qF -- "$1" "$T/$CASE.txt" && ok || bad "text lacks \"$1\": $(sed -n 3,4p "$T/$CASE.txt")"; }
txt_hasnt() { grep -qF -- "$1" "$T/$CASE.txt" && bad "text says \"$1\"" || ok; }
# the VERDICTS line with its wrapped continuation, joined
headline()  { awk '/^VERDICTS/{f=1} f&&/^$/{exit} f' "$T/$CASE.txt" | tr -s ' \n' '  '; }
head_has()  { headline | grep -qF -- "$1" && ok || bad "VERDICTS line lacks \"$1\": $(headline)"; }
js()        { local got; got=$(jq -c "$1" "$T/$CASE.json"); [ "$got" = "$2" ] && ok || bad "$1 = $got, want $2"; }

run missing 1 --gc "$T/nope.log"
head_has "none found, but nope.log could not be read (No such file or directory): nothing was checked"
txt_hasnt "nothing abnormal"
js .checked.complete false; js .checked.nothing true; js '.sources[0].checked' '"unreadable"'
js '.checked.why' '["nope.log could not be read (No such file or directory)"]'

run binary 0 --gc /bin/ls
n=$(jq '.sources[0].unparsed' "$T/binary.json"); l=$(jq '.sources[0].lines' "$T/binary.json")
head_has "none found, but ls looks like an executable (ELF), not a log, which stwtop does not read ($n of $l lines)"
head_has "nothing was checked"; txt_hasnt "nothing abnormal"
js .checked.complete false; js '.sources[0].checked' '"not-understood"'

IBM=$D/fixtures/jvm/ibm/openj9-gencon-scavenge.xml.log
run ibm 0 --gc "$IBM"
head_has "none found, but openj9-gencon-scavenge.xml.log looks like an OpenJ9 / IBM J9 verbose GC log (XML), which stwtop does not read (50 of 52 lines)"
# said once in VERDICTS and once in NOTES
[ "$(grep -c 'openj9-gencon-scavenge.xml.log looks like an OpenJ9' "$T/ibm.txt")" = 2 ] && ok || bad "NOTES do not say once what it looks like"
# a text file of no known shape keeps the plain count; its blank lines (22 % of this one)
# are not a JVM log understood
head -c 3000 "$D/../README.md" >"$T/prose.log"
run prose 0 --gc "$T/prose.log"
head_has "lines of prose.log were not a JVM log stwtop understands"
txt_hasnt "nothing abnormal"; js .checked.complete false; js '.sources[0].checked' '"not-understood"'

: >"$T/empty.log"
run empty 0 --gc "$T/empty.log"
head_has "none found, but empty.log is empty: nothing was checked"; txt_hasnt "nothing abnormal"
js '.sources[0].checked' '"empty"'

# one source read, one missing: what was found stands, the missing one is said; exit 1
G=$D/samples/g1-periodic/load-stops/gc.log
run partial 1 --gc "$G" --gc "$T/nope.log"
head_has "in what could be read; not checked: nope.log could not be read"
js .checked.complete false; js .checked.nothing false; js '[.sources[].checked]' '["yes","unreadable"]'

# a wrong nginx log_format: nothing of the access log was understood
N=$D/samples/nginx-uct/backlog1024
run wrong-format 0 --nginx "$N/logs/access.log" --nginx-format '$msec $status'
head_has "3600 of 3600 lines of access.log were not requests in the nginx log_format in use"
txt_hasnt "nothing abnormal"

# the real healthy inputs: complete, and "nothing abnormal" where nothing was found
for g in "$D"/samples/g1-periodic/*/gc.log; do
  run "g1-periodic_$(basename "$(dirname "$g")")" 0 --gc "$g"
  js .checked '{"complete":true,"nothing":false,"why":[]}'; txt_hasnt "none found"
done
run backlog1024 0 --nginx "$N/logs/access.log" --nginx-conf "$N/nginx.conf:ops"
txt_has "VERDICTS  none: nothing abnormal in this input"; js .checked.complete true
H=$D/recordings/healthy-control
run healthy-control 0 --gc "$H/gc.log" --safepoint "$H/console.log" --cpustat-log "$H/cpustat.log" \
  --schedstat-log "$H/schedstat.log" --vmstat-log "$H/vmstat.log" --nginx "$H/logs/access.log" --nginx-conf "$H/nginx.conf:lab"
js .checked '{"complete":true,"nothing":false,"why":[]}'; txt_hasnt "none found"
js '[.sources[].checked] | unique' '["yes"]'
Z=$D/recordings/zgc-healthy
run zgc-healthy 0 --gc "$Z/gc.log"
txt_has "VERDICTS  none: nothing abnormal in this input"; js .checked.complete true

echo "checked: $pass passed, $failc failed"
[ "$failc" -eq 0 ]
