#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# brief.sh BIN — `--report --brief` (the report in at most 12 lines for a chat) over every row
# of tests/scenarios/table.tsv (every sample folder, recording and unreadable input), checked
# against the full text and JSON reports of the same input:
#   - at most 12 lines, none over 160 columns, no escape sequence, the same exit status;
#   - every incident's headline verdict of the full report (its first verdict: severity, id,
#     start) is a line of the brief, or counted in "+N more incidents";
#   - the numbers line's stops, GC pauses, Full GCs and requests equal the JSON summary's;
#   - "nothing abnormal" exactly when the full report says it (the healthy controls do), and an
#     input that could not be read says so;
# then a run with more incidents than fit (the longest shown), and the usage errors.
set -u
BIN=${1:?usage: brief.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
S=$D/samples R=$D/recordings F=$D/fixtures
command -v jq >/dev/null || { echo "brief.sh needs jq"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
: >"$T/empty.log"
pass=0 failc=0
ok()  { pass=$((pass + 1)); }
bad() { failc=$((failc + 1)); echo "FAIL [$CASE] $*"; }

# the number after WORD on the numbers line ("stops 71," -> 71), empty when absent
num() { sed -n 's/^numbers:\(.*;\)\{0,1\} *'"$1"' \([0-9][0-9]*\).*/\2/p' "$T/b.txt" | head -1; }
# the number before WORD ("0 Full" -> 0)
num_before() { sed -n 's/^numbers:.* \([0-9][0-9]*\) '"$1"'.*/\1/p' "$T/b.txt" | head -1; }

check_row() { # ARGS...: one input, brief vs full report
  TZ=UTC "$BIN" --report --brief "$@" </dev/null >"$T/b.txt" 2>/dev/null; local rb=$?
  TZ=UTC "$BIN" --report "$@" </dev/null >"$T/t.txt" 2>/dev/null; local rt=$?
  TZ=UTC "$BIN" --report --json "$@" </dev/null >"$T/j.json" 2>/dev/null
  [ "$rb" = "$rt" ] && ok || bad "exit $rb, the full report's $rt"
  local nl; nl=$(wc -l <"$T/b.txt")
  [ "$nl" -ge 3 ] && [ "$nl" -le 12 ] && ok || bad "$nl lines"
  awk 'length > 160 { exit 1 }' "$T/b.txt" && ok || bad "a line over 160 columns"
  grep -q $'\033' "$T/b.txt" && bad "an escape sequence" || ok
  grep -q '^stwtop .* brief: ' "$T/b.txt" && ok || bad "line 1 is not the range: $(head -1 "$T/b.txt")"

  # incident headlines of the full report: the verdict line after each "-- incident N --"
  awk '/^ -- incident [0-9]+ --$/ { getline; sp = $3; sub(/-.*/, "", sp); if (sp == "") sp = "+"; print $1, $2, sp }' \
    "$T/t.txt" >"$T/heads"
  local ninc shown=0 more
  ninc=$(wc -l <"$T/heads")
  while read -r sev id start; do
    grep -q "^$sev $id $start " "$T/b.txt" && shown=$((shown + 1))
  done <"$T/heads"
  more=$(sed -n 's/^+\([0-9]*\) more incidents\{0,1\}.*/\1/p' "$T/b.txt"); more=${more:-0}
  incidents=$((incidents + ninc))
  [ $((shown + more)) = "$ninc" ] && ok || bad "$ninc incidents in the full report, $shown shown + $more more"

  # the numbers line against the JSON summary (absent = 0: no JVM log, no access log)
  local want got
  for pair in "stops:.summary.stops" "GC pauses:.summary.gc_pauses" "requests:.summary.nginx.requests"; do
    want=$(jq -r "${pair#*:} // 0" "$T/j.json"); got=$(num "${pair%%:*}")
    [ "${got:-0}" = "$want" ] && ok || bad "numbers: ${pair%%:*} ${got:-absent}, JSON $want: $(grep ^numbers "$T/b.txt")"
  done
  want=$(jq -r '.summary.full_gc_pauses // 0' "$T/j.json"); got=$(num_before Full)
  [ "${got:-0}" = "$want" ] && ok || bad "numbers: ${got:-absent} Full, JSON $want"

  # "nothing abnormal" where the full report says it, and only there
  if grep -q 'nothing abnormal' "$T/t.txt"; then
    [ "$(tail -1 "$T/b.txt")" = "checked: nothing abnormal in this input" ] && ok || bad "the full report says nothing abnormal, the brief: $(tail -1 "$T/b.txt")"
  else
    grep -q 'nothing abnormal' "$T/b.txt" && bad "says nothing abnormal, the full report does not" || ok
  fi
  if [ "$(jq -r .checked.complete "$T/j.json" 2>/dev/null)" = false ]; then
    tail -1 "$T/b.txt" | grep -q 'checked' && ok || bad "incomplete input, last line: $(tail -1 "$T/b.txt")"
  fi
}

rows=0 incidents=0
while IFS=$'\t' read -r name args _; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  rows=$((rows + 1)); CASE=$name
  args=${args//\$S/$S}; args=${args//\$R/$R}; args=${args//\$F/$F}; args=${args//\$T/$T}
  read -r -a argv <<<"$args"
  for i in "${!argv[@]}"; do   # the --nginx-format value: "_" stands for a space
    [ "$i" -gt 0 ] && [ "${argv[$((i - 1))]}" = --nginx-format ] && argv[$i]=${argv[$i]//_/ }
  done
  check_row "${argv[@]}"
  cp "$T/b.txt" "$T/brief-${rows}.txt"
  case $name in
  checked/missing-file)
    grep -q 'nope.log could not be read' "$T/b.txt" && ok || bad "does not say nope.log could not be read" ;;
  recordings/healthy-control-parallel|recordings/gc-overhead-healthy-control|recordings/zgc-healthy|\
  samples/throttle/control|samples/nginx-uct/backlog1024)
    grep -qx 'checked: nothing abnormal in this input' "$T/b.txt" && ok || bad "a healthy control: $(tail -1 "$T/b.txt")" ;;
  esac
done <"$D/scenarios/table.tsv"
[ "$rows" -ge 40 ] && ok || { CASE=table; bad "only $rows rows read"; }

# more incidents than fit: 15 Full GCs a minute apart, 10 of them long enough for a verdict
CASE=many-incidents
for i in $(seq 1 15); do
  printf '[2026-12-01T10:%02d:00.000+0000][%d.000s][info][gc] GC(%d) Pause Full (System.gc()) 100M->50M(200M) %d.000ms\n' \
    "$i" $((i * 60)) "$i" $((300 + i * 37))
done >"$T/many.log"
check_row --gc "$T/many.log"
grep -q '^+2 more incidents (stwtop --report for all)$' "$T/b.txt" && ok || bad "no '+2 more incidents' line"
grep -q ' 10:14:59.145 The JVM stopped 855 ms' "$T/b.txt" && ok || bad "the longest pause is not shown"
grep -q ' 10:05:59.478 ' "$T/b.txt" && bad "a shorter pause shown instead of a longer one" || ok

# usage errors: exit 2 with a message naming the options
CASE=usage
"$BIN" --brief --gc "$T/empty.log" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q -- '--brief needs --report' "$T/err" && ok || bad "--brief alone: exit $rc, $(cat "$T/err")"
"$BIN" --report --brief --json --gc "$T/empty.log" >/dev/null 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q -- '--brief and --json cannot be combined' "$T/err" && ok || bad "--brief --json: exit $rc, $(cat "$T/err")"
"$BIN" --help | grep -q -- '--brief' && ok || bad "--help does not mention --brief"

echo "brief: $pass passed, $failc failed ($rows scenario rows, $incidents incident headlines)"
[ "$failc" -eq 0 ]
