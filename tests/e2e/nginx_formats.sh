#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx_formats.sh BIN — formats through the command line, on logs a real nginx wrote:
#  - the custom `probe` and `probe_json` formats read from the fixture's nginx.conf
#    (include of conf.d/*.conf, multi-line strings, escape=json): 100% of the lines
#    parse, and the status counts equal what curl saw (requests.tsv);
#  - combined/main logs by detection, with no format given;
#  - a wrong format is reported once, on the first line, naming what did not match;
#  - then a fresh real nginx run (tests/fixtures/nginx/run-nginx.sh into a temp dir),
#    parsed the same way, so the check is not only against a stored file;
#  - then formats detection must guess, from a fresh real nginx with connect timeouts
#    (tests/fixtures/nginx/guess/run.sh).
set -u
BIN=${1:?usage: nginx_formats.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
F=$D/fixtures/nginx
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }

check_dir() { local dir=$1 what=$2
  # curl's view: status code counts
  awk '{print $3}' "$dir/requests.tsv" | sort | uniq -c | awk '{printf "%s=%s\n", $2, $1}' | sort >"$T/want"
  local n; n=$(wc -l <"$dir/requests.tsv")
  for spec in "access.log:probe" "access_json.log:probe_json"; do
    local log=${spec%%:*} name=${spec##*:}
    "$BIN" --report --json --nginx "$dir/logs/$log" --nginx-conf "$dir/nginx.conf:$name" >"$T/r.json" 2>"$T/err" \
      || { fail "$what $log: report failed: $(cat "$T/err")"; continue; }
    [ "$(jq '.sources[0].lines' "$T/r.json")" = "$n" ] || fail "$what $log: $(jq '.sources[0].lines' "$T/r.json") lines, curl made $n requests"
    [ "$(jq '.sources[0].unparsed' "$T/r.json")" = 0 ] || fail "$what $log: unparsed lines: $(jq -r '.sources[0].first_unparsed' "$T/r.json")"
    jq -r '.summary.nginx.status | to_entries[] | "\(.key)=\(.value)"' "$T/r.json" | sort >"$T/got"
    cmp -s "$T/want" "$T/got" || fail "$what $log: status counts $(tr '\n' ' ' <"$T/got") vs curl $(tr '\n' ' ' <"$T/want")"
  done
  for log in access_combined.log access_main.log; do
    "$BIN" --report --json --nginx "$dir/logs/$log" >"$T/r.json" 2>"$T/err" || { fail "$what $log: $(cat "$T/err")"; continue; }
    [ "$(jq '.sources[0].unparsed' "$T/r.json")" = 0 ] || fail "$what $log (detected format): unparsed: $(jq -r '.sources[0].first_unparsed' "$T/r.json")"
    [ "$(jq '.summary.nginx.requests' "$T/r.json")" = "$n" ] || fail "$what $log: requests $(jq '.summary.nginx.requests' "$T/r.json") != $n"
  done
}
check_dir "$F" fixture

# a wrong format: reported once, naming what did not match on the first failing line
"$BIN" --report --json --nginx "$F/logs/access.log" --nginx-format '$msec $status $request_id' >"$T/r.json" 2>"$T/err"
[ "$(jq '.sources[0].parsed' "$T/r.json")" = 0 ] || fail "a wrong format parsed lines"
jq -r '.sources[0].first_unparsed' "$T/r.json" | grep -Eq '^line 1: .*(\$msec|variable|literal)' \
  || fail "the first failure is not described: $(jq -r '.sources[0].first_unparsed' "$T/r.json")"
"$BIN" --report --nginx "$F/logs/access.log" --nginx-format '$msec $status $request_id' >"$T/txt" 2>&1
[ "$(grep -c 'first unparsed' "$T/txt")" = 1 ] || fail "the text report does not say once why lines failed"

# a whole log_format directive pasted into --nginx-format (issue 24: it parsed 0 lines with no
# hint): read as nginx reads it (three quoted pieces over three lines, a comment after it);
# one that does not close is an error that says so, and nothing is read
dir=$(awk '/^log_format probe /{p=1} p{print} p && /;/{exit}' "$F/conf.d/formats.conf")
"$BIN" --report --json --nginx "$F/logs/access.log" --nginx-format "$dir" >"$T/r.json" 2>"$T/err" \
  || fail "a pasted directive: $(cat "$T/err")"
[ "$(jq '.sources[0].unparsed' "$T/r.json")" = 0 ] && [ "$(jq '.sources[0].parsed' "$T/r.json")" = "$(wc -l <"$F/logs/access.log")" ] \
  || fail "a pasted directive: $(jq -c '.sources[0] | [.parsed, .unparsed, .first_unparsed]' "$T/r.json")"
if "$BIN" --report --nginx "$F/logs/access.log" --nginx-format "log_format probe '\$msec \$status" >"$T/out" 2>"$T/err"; then
  fail "an unterminated pasted directive was accepted"
fi
grep -q 'log_format.*unterminated' "$T/err" || fail "an unterminated directive: the error does not say so: $(cat "$T/err")"

# a fresh run of a real nginx
if command -v nginx >/dev/null && command -v curl >/dev/null; then
  mkdir -p "$T/fresh"
  if bash "$F/run-nginx.sh" "$T/fresh" >"$T/run.log" 2>&1; then
    check_dir "$T/fresh" fresh
  else
    fail "run-nginx.sh failed: $(tail -5 "$T/run.log")"
  fi
else
  echo "note: nginx or curl not installed: the fresh-run part is skipped"
fi
# formats detection must guess (issue 24): a fresh real nginx (fixtures/nginx/guess/run.sh)
# behind a real upstream, with connect timeouts (504, uct "-"), in seven formats. Guessed with
# no format given, each must find the same connect-timeout-504 as --nginx-conf, counting what
# nginx's error.log counts; a guess must never claim the log_format lacks a time it has; where
# it cannot tell the times apart (five in a row), it must say so and raise nothing from them.
if command -v nginx >/dev/null && command -v curl >/dev/null; then
  G=$T/guess
  if bash "$F/guess/run.sh" "$G" >"$T/guess.log" 2>&1; then
    nct=$(grep -c 'while connecting to upstream' "$G/logs/error.log")
    nreq=$(wc -l <"$G/requests.tsv")
    [ "$nct" -ge 5 ] || fail "guess: only $nct connect timeouts in error.log"
    for f in iso combined_times quoted braces tabs upstreaminfo fivetimes; do
      "$BIN" --report --json --nginx "$G/logs/$f.log" >"$T/g.json" 2>"$T/err" || { fail "guess $f: $(cat "$T/err")"; continue; }
      "$BIN" --report --json --nginx "$G/logs/$f.log" --nginx-conf "$G/nginx.conf:$f" >"$T/c.json" 2>"$T/err" \
        || { fail "guess $f conf: $(cat "$T/err")"; continue; }
      [ "$(jq '.sources[0].parsed' "$T/g.json")" = "$nreq" ] || fail "guess $f: parsed $(jq '.sources[0].parsed' "$T/g.json") of $nreq"
      gt=$(jq -r '[.verdicts[] | select(.id == "connect-timeout-504") | .title][0] // ""' "$T/g.json")
      ct=$(jq -r '[.verdicts[] | select(.id == "connect-timeout-504") | .title][0] // ""' "$T/c.json")
      notes=$(jq -r '.notes[]?' "$T/g.json")
      case $f in
        upstreaminfo)  # ingress-nginx's format: $request_time and $upstream_response_time, no connect time
          [ -z "$gt" ] && [ -z "$ct" ] || fail "guess $f: connect-timeout-504 without \$upstream_connect_time"
          [ "$(jq '.summary.nginx.request_time.count' "$T/g.json")" = "$nreq" ] || fail "guess $f: \$request_time not read"
          grep -q 'has no \$request_time' <<<"$notes" && fail "guess $f: the note says the format has no \$request_time"
          grep -q 'has no \$upstream_connect_time' <<<"$notes" || fail "guess $f: the note does not say what is missing: $notes" ;;
        fivetimes)     # no order names five bare times: say so, raise nothing from them
          [ -z "$gt" ] || fail "guess $f: raised from times it could not name: $gt"
          jq -e '[.verdicts[] | select(.severity != "info")] | length == 0' "$T/g.json" >/dev/null || fail "guess $f: a warning from unnamed times"
          grep -q 'could not tell which field' <<<"$notes" || fail "guess $f: the note does not say it could not tell: $notes"
          grep -q 'log_format has no' <<<"$notes" && fail "guess $f: the note claims the log_format lacks times"
          [[ "$ct" == "$nct requests failed with 504"* ]] || fail "guess $f conf: '$ct', want $nct connect timeouts" ;;
        *)
          [[ "$gt" == "$nct requests failed with 504"* ]] || fail "guess $f: '$gt', want $nct connect timeouts (error.log)"
          [ "$gt" = "$ct" ] || fail "guess $f: guessed '$gt' but --nginx-conf '$ct'"
          grep -q 'log_format has no\|could not tell' <<<"$notes" && fail "guess $f: a note about missing times: $notes" ;;
      esac
    done
  else
    fail "guess/run.sh failed: $(tail -5 "$T/guess.log")"
  fi
fi
[ $fails = 0 ] && echo "nginx_formats: all passed" || { echo "nginx_formats: $fails failed"; exit 1; }
