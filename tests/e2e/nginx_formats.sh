#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nginx_formats.sh BIN — formats through the command line, on logs a real nginx wrote:
#  - the custom `probe` and `probe_json` formats read from the fixture's nginx.conf
#    (include of conf.d/*.conf, multi-line strings, escape=json): 100% of the lines
#    parse, and the status counts equal what curl saw (requests.tsv);
#  - combined/main logs by detection, with no format given;
#  - a wrong format is reported once, on the first line, naming what did not match;
#  - then a fresh real nginx run (tests/fixtures/nginx/run-nginx.sh into a temp dir),
#    parsed the same way, so the check is not only against a stored file.
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
[ $fails = 0 ] && echo "nginx_formats: all passed" || { echo "nginx_formats: $fails failed"; exit 1; }
