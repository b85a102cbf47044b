#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx_deployed.sh BIN — real nginx 1.22 logs in the formats people deploy
# (tests/fixtures/nginx/deployed, made by its run.sh; counts from wc/awk here, not from stwtop):
#  - --nginx-conf FILE without :NAME: each file read with the format of the access_log that
#    writes it, every line parsed, lines of a second format (reload, two access_log lines) too;
#  - no format at all: the escape=json (with "" for unset variables), tab-, '|'-separated and
#    escape=none logs are detected, request and status counts equal the files';
#  - the mixed file without a config: the combined lines are unparsed, NOTES names the format;
#  - $upstream_response_time percentiles in the JSON and in the Upstream pane (tmux);
#  - lines starting with a quoted X-Forwarded-For list (tests/fixtures/nginx/xff): alone, mixed.
source "$(dirname "$0")/lib/tmux.bash" "$@"
D=$TESTS/fixtures/nginx/deployed
L=$D/logs
command -v jq >/dev/null || { echo "jq not installed"; exit 77; }
report() { "$BIN" --report --json "$@" >"$TMPD/r.json" 2>"$TMPD/err" || fail "report $*: $(cat "$TMPD/err")"; }
status_want() {  # status counts of file $1 (the awk program prints the status of a line)
  awk "$2" "$1" | sort | uniq -c | awk '{printf "%s=%s\n", $2, $1}' | sort
}
status_got() { jq -r '.summary.nginx.status | to_entries[] | "\(.key)=\(.value)"' "$TMPD/r.json" | sort; }
declare -A AWK=(
  [json.log]='{match($0, /"status":"[0-9]+"/); print substr($0, RSTART+10, 3)}'
  [tabs.log]='BEGIN{FS="\t"} {print $4}'
  [pipes.log]='BEGIN{FS="|"} {print $4}'
  [raw.log]='{match($0, /HTTP\/1.1" [0-9][0-9][0-9] /); print substr($0, RSTART+10, 3)}'
  [ingress.log]='{match($0, /HTTP\/1.1" [0-9][0-9][0-9] /); print substr($0, RSTART+10, 3)}'
  [reload.log]='{match($0, /HTTP\/1.1" [0-9][0-9][0-9] /); print substr($0, RSTART+10, 3)}'
  [mixed.log]='{match($0, /HTTP\/1.1" [0-9][0-9][0-9] /); print substr($0, RSTART+10, 3)}'
)
for f in json.log tabs.log pipes.log raw.log ingress.log reload.log mixed.log; do
  n=$(wc -l <"$L/$f")
  report --nginx "$L/$f" --nginx-conf "$D/nginx.conf"
  [ "$(jq '.sources[0].parsed' "$TMPD/r.json")/$(jq '.sources[0].unparsed' "$TMPD/r.json")" = "$n/0" ] \
    && ok "conf: $f all $n lines parsed" \
    || fail "conf: $f parsed $(jq '.sources[0].parsed' "$TMPD/r.json") of $n: $(jq -r '.sources[0].first_unparsed' "$TMPD/r.json")"
  [ "$(status_got)" = "$(status_want "$L/$f" "${AWK[$f]}")" ] && ok "conf: $f status counts as awk's" \
    || fail "conf: $f status $(status_got | tr '\n' ' ') vs awk $(status_want "$L/$f" "${AWK[$f]}" | tr '\n' ' ')"
done
# every file at once, each with its own format
args=(); for f in json.log tabs.log pipes.log raw.log; do args+=(--nginx "$L/$f"); done
report "${args[@]}" --nginx-conf "$D/nginx.conf"
[ "$(jq '[.sources[].unparsed] | add' "$TMPD/r.json")" = 0 ] && ok "conf: four files together, none unparsed" \
  || fail "conf: four files together: $(jq -c '[.sources[] | .unparsed]' "$TMPD/r.json")"
[ "$(jq '[.sources[].format] | unique | length' "$TMPD/r.json")" = 4 ] && ok "conf: four formats said, one per file" \
  || fail "conf: formats $(jq -c '[.sources[].format]' "$TMPD/r.json")"
# the two formats of reload.log and mixed.log are said
report --nginx "$L/reload.log" --nginx-conf "$D/nginx.conf"
jq -r '.notes[]' "$TMPD/r.json" | grep -q "reload.log: holds a second log_format: 69 of 138 lines are in 'before'" \
  && ok "conf: reload.log's earlier format named in NOTES" || fail "conf: NOTES $(jq -c .notes "$TMPD/r.json")"
[ "$(grep -c ' uct=' "$L/reload.log")" = 69 ] || fail "reload.log: expected 69 lines of the 'after' format"

# detection, no format given
for f in json.log tabs.log pipes.log raw.log; do
  n=$(wc -l <"$L/$f")
  report --nginx "$L/$f"
  [ "$(jq '.summary.nginx.requests' "$TMPD/r.json")" = "$n" ] && ok "detected: $f $n requests (wc -l)" \
    || fail "detected: $f $(jq '.summary.nginx.requests' "$TMPD/r.json") requests, wc -l $n: $(jq -r '.sources[0].first_unparsed' "$TMPD/r.json")"
  [ "$(status_got)" = "$(status_want "$L/$f" "${AWK[$f]}")" ] && ok "detected: $f status counts as awk's" \
    || fail "detected: $f status $(status_got | tr '\n' ' ')"
  [ "$(jq '.summary.nginx.upstream_response_time.count' "$TMPD/r.json")" -gt 0 ] \
    && ok "detected: $f has \$upstream_response_time" || fail "detected: $f no upstream_response_time"
done
# the json sample starting with lines whose upstream variables are all "" (nginx's own answers)
{ grep '/static/' "$L/json.log"; grep -v '/static/' "$L/json.log"; } >"$TMPD/json-unset-first.log"
report --nginx "$TMPD/json-unset-first.log"
[ "$(jq '.sources[0].unparsed' "$TMPD/r.json")" = 0 ] && ok "detected: escape=json with \"\" values first" \
  || fail "detected: json with \"\" first: $(jq -r '.sources[0].first_unparsed' "$TMPD/r.json")"

# the mixed file without a config: main detected, the combined lines unparsed and named
comb=$(awk -F'"' 'NF == 7' "$L/mixed.log" | wc -l)   # combined has 3 quoted fields, main 4
report --nginx "$L/mixed.log"
[ "$(jq '.sources[0].unparsed' "$TMPD/r.json")" = "$comb" ] && ok "mixed: the $comb combined lines are unparsed" \
  || fail "mixed: unparsed $(jq '.sources[0].unparsed' "$TMPD/r.json"), combined lines $comb"
jq -r '.notes[]' "$TMPD/r.json" | grep -q "mixed.log: holds a second log_format: $comb of 150 lines are in nginx's combined" \
  && ok "mixed: NOTES names nginx's combined" || fail "mixed: NOTES $(jq -c .notes "$TMPD/r.json")"

# ingress-nginx's default format: $upstream_response_time is its one upstream time
report --nginx "$L/ingress.log" --nginx-conf "$D/nginx.conf"
want=$(awk '$(NF-2) ~ /^[0-9]+\.[0-9]+$/' "$L/ingress.log" | wc -l)
[ "$(jq '.summary.nginx.upstream_response_time.count' "$TMPD/r.json")" = "$want" ] \
  && ok "ingress: upstream_response_time of $want requests" \
  || fail "ingress: urt count $(jq '.summary.nginx.upstream_response_time.count' "$TMPD/r.json") vs awk $want"
max=$(awk '$(NF-2) ~ /^[0-9]/ && $(NF-2) + 0 > m {m = $(NF-2) + 0} END {printf "%.3f", m}' "$L/ingress.log")
[ "$(jq '.summary.nginx.upstream_response_time.max' "$TMPD/r.json" | xargs printf '%.3f')" = "$max" ] \
  && ok "ingress: urt max $max as awk's" || fail "ingress: urt max $(jq '.summary.nginx.upstream_response_time.max' "$TMPD/r.json") vs $max"
[ "$(jq '[.summary.nginx.per_second[] | select(.urt_p99 != null)] | length' "$TMPD/r.json")" -gt 0 ] \
  && ok "ingress: per-second urt_p99" || fail "ingress: no per-second urt"

# lines that start with a quoted X-Forwarded-For list (tests/fixtures/nginx/xff, its run.sh):
# detected without a format; in a file shared with `main` lines, those are unparsed and named
# without the conf, read with it; the uct/status counts equal awk's
X=$TESTS/fixtures/nginx/xff
xn=$(wc -l <"$X/logs/xff.log")
report --nginx "$X/logs/xff.log"
[ "$(jq '.summary.nginx.requests' "$TMPD/r.json")/$(jq '.sources[0].unparsed' "$TMPD/r.json")" = "$xn/0" ] \
  && ok "xff: detected, $xn requests (wc -l)" || fail "xff: $(jq -c '.sources' "$TMPD/r.json")"
uct=$(grep -c 'uct="0\.' "$X/logs/xff.log")
[ "$(jq '.summary.nginx.uct_buckets["0"]' "$TMPD/r.json")" = "$uct" ] \
  && ok "xff: $uct connect times" || fail "xff: uct 0-second bucket $(jq -c '.summary.nginx.uct_buckets' "$TMPD/r.json") vs grep $uct"
main=$(grep -c '^[0-9]' "$X/logs/xff-mixed.log"); xm=$(wc -l <"$X/logs/xff-mixed.log")
report --nginx "$X/logs/xff-mixed.log"
[ "$(jq '.sources[0].unparsed' "$TMPD/r.json")" = "$main" ] && \
  jq -r '.notes[]' "$TMPD/r.json" | grep -q "xff-mixed.log: holds a second log_format: $main of $xm lines" \
  && ok "xff-mixed: the $main main lines unparsed and named" || fail "xff-mixed: $(jq -c '[.sources, .notes]' "$TMPD/r.json")"
report --nginx "$X/logs/xff-mixed.log" --nginx-conf "$X/nginx.conf"
[ "$(jq '.summary.nginx.requests' "$TMPD/r.json")/$(jq '.sources[0].unparsed' "$TMPD/r.json")" = "$xm/0" ] && \
  jq -r '.notes[]' "$TMPD/r.json" | grep -q "$main of $xm lines are in 'main'" \
  && ok "xff-mixed: with the conf every line read, 'main' named" || fail "xff-mixed conf: $(jq -c '[.sources, .notes]' "$TMPD/r.json")"

start 120 40 "TERM=tmux-256color '$BIN' --nginx '$L/ingress.log' --nginx-conf '$D/nginx.conf'"
expect "138 requests, 10 5xx" 15
expect "worst p99 upstream response" 5
finish
