#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scenarios.sh BIN — the scenario scoreboard: `BIN --report --json` over every row of
# tests/scenarios/table.tsv (every real recording of tests/, and the inputs stwtop cannot
# read); per scenario ok / miss (a must verdict absent, or not in its window) / false (a
# must-not verdict, or an incident verdict not expected where the row says "only"), then true
# positives, false positives, false negatives, precision and recall over all scenarios.
# Exits non-zero on any miss or false alarm.
set -u
BIN=${1:?usage: scenarios.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
S=$D/samples R=$D/recordings F=$D/fixtures
command -v jq >/dev/null || { echo "scenarios.sh needs jq"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
: >"$T/empty.log"
INCIDENT=" long-gc-pause ttsp-spike long-vm-operation cpu-throttled-during-stop sched-delay-during-stop direct-reclaim accept-queue-overflow connect-timeout-504 "
tp=0 fp=0 fn=0 nsc=0 nbad=0
# overlaps ID START END: some instance of ID overlaps [START, END] (ISO strings compare as times)
overlaps() {
  jq -e --arg id "$1" --arg a "$2" --arg b "$3" \
    '[.verdicts[] | select(.id == $id and .start <= $b and ((.end // .start) >= $a))] | length > 0' "$T/r.json" >/dev/null
}
raised()  { jq -e --arg id "$1" '[.verdicts[] | select(.id == $id)] | length > 0' "$T/r.json" >/dev/null; }
active()  { jq -e --arg id "$1" '[.verdicts[] | select(.id == $id and (.cleared | not))] | length > 0' "$T/r.json" >/dev/null; }

while IFS=$'\t' read -r name args must mustnot only checked; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  nsc=$((nsc + 1))
  args=${args//\$S/$S}; args=${args//\$R/$R}; args=${args//\$F/$F}; args=${args//\$T/$T}
  read -r -a argv <<<"$args"
  for i in "${!argv[@]}"; do   # the --nginx-format value: "_" stands for a space
    [ "$i" -gt 0 ] && [ "${argv[$((i - 1))]}" = --nginx-format ] && argv[$i]=${argv[$i]//_/ }
  done
  TZ=UTC timeout 120 "$BIN" --report --json "${argv[@]}" >"$T/r.json" 2>/dev/null
  detail=""; s_tp=0 s_fp=0 s_fn=0
  if ! jq -e . "$T/r.json" >/dev/null 2>&1; then
    detail=" report failed"; s_fn=1
  else
    [ "$must" = - ] && must=""; [ "$mustnot" = - ] && mustnot=""
    for m in $must; do
      id=${m%%@*}
      if [ "$m" != "$id" ]; then w=${m#*@}; overlaps "$id" "${w%/*}" "${w#*/}" && hit=1 || hit=0
      else raised "$id" && hit=1 || hit=0; fi
      if [ $hit = 1 ]; then s_tp=$((s_tp + 1)); else s_fn=$((s_fn + 1)); detail+=" missing $m;"; fi
    done
    for m in $mustnot; do
      if [[ "$m" == active:* ]]; then active "${m#active:}" && { s_fp=$((s_fp + 1)); detail+=" ${m#active:} active at the end;"; }
      elif [[ "$m" == *@* ]]; then w=${m#*@}
        overlaps "${m%%@*}" "${w%/*}" "${w#*/}" && { s_fp=$((s_fp + 1)); detail+=" must-not $m raised;"; }
      elif raised "$m"; then s_fp=$((s_fp + 1)); detail+=" must-not $m raised;"; fi
    done
    if [ "$only" = yes ]; then
      for id in $(jq -r '[.verdicts[].id] | unique | .[]' "$T/r.json"); do
        [[ "$INCIDENT" == *" $id "* ]] || continue
        ids=" "; for m in $must; do ids+="${m%%@*} "; done
        [[ "$ids" == *" $id "* ]] && continue
        [[ " $mustnot " == *" $id "* || " $mustnot " == *" $id@"* ]] && continue   # counted above
        s_fp=$((s_fp + 1)); detail+=" unexpected $id;"
      done
    fi
    want=$([ "$checked" = yes ] && echo true || echo false)
    got=$(jq -r .checked.complete "$T/r.json")
    [ "$got" = "$want" ] || { s_fn=$((s_fn + 1)); detail+=" checked.complete $got, want $want;"; }
  fi
  tp=$((tp + s_tp)); fp=$((fp + s_fp)); fn=$((fn + s_fn))
  if [ $s_fn -gt 0 ]; then st=miss; elif [ $s_fp -gt 0 ]; then st=false; else st=ok; fi
  [ $st = ok ] || nbad=$((nbad + 1))
  printf '%-5s %-42s tp %d fp %d fn %d%s\n' "$st" "$name" "$s_tp" "$s_fp" "$s_fn" "$detail"
done < "$D/scenarios/table.tsv"

prec=$(awk -v t=$tp -v f=$fp 'BEGIN { printf "%.3f", (t + f) ? t / (t + f) : 1 }')
rec=$(awk -v t=$tp -v f=$fn 'BEGIN { printf "%.3f", (t + f) ? t / (t + f) : 1 }')
echo "scenarios: $nsc, not ok: $nbad; true positives $tp, false positives $fp, false negatives $fn; precision $prec, recall $rec"
[ "$nbad" -eq 0 ]
