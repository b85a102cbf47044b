#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# alerts_live.sh BIN — the shipped alert rules and Alertmanager example, end to end: a real
# Prometheus scrapes a live stwtop and evaluates deploy/prometheus/stwtop-alerts.yml, a real
# Alertmanager (Debian prometheus-alertmanager) routes with deploy/prometheus/alertmanager.yml,
# its webhooks land in a recorder here. The recordings replay at speed, so the rules' times
# are scaled 60 times (5m -> 5s, 1h -> 60s, offset 10m -> 10s, for: 2m -> 2s, the restart
# guard 420 s -> 7 s); expressions, thresholds and routing are the shipped ones.
#  1. the throttle-stop incident (tests/samples/combined/throttle-stop, 4x): its verdicts reach
#     the warning receiver (chat), nothing reaches the pager;
#  2. stwtop restarts and re-reads the same files: no verdict is notified a second time, no page;
#  3. a real nginx whose upstream is down (every request a 502, for 14 s, its sidecar past the
#     restart guard): the error budget page reaches the pager.
# Needs prometheus, alertmanager, nginx, curl, jq, python3; skipped (77) without them.
set -u
BIN=${1:?usage: alerts_live.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$D/.." && pwd)
S=$D/samples/combined/throttle-stop
for t in prometheus curl jq python3; do command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }; done
AMBIN=$(command -v prometheus-alertmanager || command -v alertmanager) ||
	{ echo "SKIP: alertmanager not installed (Debian prometheus-alertmanager, scripts/install-deps.sh)"; exit 77; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "SKIP: nginx not installed"; exit 77; }
"$BIN" --help 2>&1 | grep -q -- '--metrics ' || { echo "SKIP: this stwtop has no --metrics"; exit 77; }
source "$D/e2e/lib/nginx.bash"
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-alerts.XXXXXX")
pids=() SPID=""
cleanup() {
	[ -n "$SPID" ] && kill "$SPID" 2>/dev/null
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -f "$T/ngx/nginx.pid" ] && kill "$(cat "$T/ngx/nginx.pid")" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL $*"; fails=$((fails + 1)); }
pass() { echo "PASS $*"; }
. "$(dirname "$0")/lib/ports.bash"
read -r SP SP2 PP AP WP NP UP <<<"$(free_ports 7)"

# the webhook receivers: every POST body, one line per notification, in hooks/<path>
mkdir -p "$T/hooks"
python3 - "$WP" "$T/hooks" <<'PY' &
import http.server, json, os, sys
port, out = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        with open(os.path.join(out, self.path.strip('/').replace('/', '_')), 'a') as f:
            f.write(json.dumps(json.loads(body)) + '\n')
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(('127.0.0.1', port), H).serve_forever()
PY
pids+=($!)

# the shipped routing, its receivers pointed at the recorder, groups sent at once
sed -e "s#http://\([a-z]*\)\.example\.invalid/alertmanager#http://127.0.0.1:$WP/\1#" \
	-e 's/group_wait: 30s/group_wait: 1s/; s/group_interval: 5m/group_interval: 1s/' \
	"$ROOT/deploy/prometheus/alertmanager.yml" >"$T/am.yml"
"$AMBIN" --config.file="$T/am.yml" --storage.path="$T/am" --web.listen-address="127.0.0.1:$AP" \
	--cluster.listen-address= --log.level=warn >"$T/am.log" 2>&1 &
pids+=($!)

# the shipped rules, their times scaled 60 times
sed -e 's/\[5m\]/[5s]/g; s/\[1h\]/[60s]/g; s/offset 10m/offset 10s/g' \
	-e 's/for: 2m/for: 2s/; s/for: 5m/for: 5s/; s/for: 10m/for: 10s/; s/for: 15m/for: 15s/' \
	-e 's/ < 420)/ < 7)/' "$ROOT/deploy/prometheus/stwtop-alerts.yml" >"$T/rules.yml"
left=$(grep -nE '\[[0-9]+[mh]\]|offset [0-9]+[mh]|for: [0-9]+m| < 420\)' "$T/rules.yml")
[ -z "$left" ] || fail "times left unscaled in the rules: $left"
cat >"$T/prometheus.yml" <<YML
global: {scrape_interval: 1s, scrape_timeout: 900ms, evaluation_interval: 1s}
rule_files: [$T/rules.yml]
alerting:
  alertmanagers: [{static_configs: [{targets: ['127.0.0.1:$AP']}]}]
scrape_configs:
  - job_name: stwtop
    static_configs: [{targets: ['127.0.0.1:$SP', '127.0.0.1:$SP2']}]
YML
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" --web.listen-address="127.0.0.1:$PP" \
	--log.level=warn >"$T/prometheus.log" 2>&1 &
pids+=($!)

q() { curl -sf --max-time 5 "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // empty'; }
# firing notifications received at a receiver, as "alertname id level" lines
firing() { [ -f "$T/hooks/$1" ] && jq -r '.alerts[] | select(.status == "firing") | "\(.labels.alertname) \(.labels.id // "-") \(.labels.level // "-")"' "$T/hooks/$1" | sort; }
wait_for() { local n=$1; shift; for i in $(seq 1 $((n * 5))); do "$@" && return 0; sleep 0.2; done; return 1; }

# 1. the throttle-stop incident
: >"$T/gc.log"; : >"$T/console.log"; : >"$T/access.log"; : >"$T/cpustat.log"
echo '{"horizon_ms": 10000}' >"$T/rules.json"
srcs=(--config "$T/rules.json" --gc "$T/gc.log" --safepoint "$T/console.log" --nginx "$T/access.log"
      --nginx-conf "$S/nginx.conf" --cpustat-log "$T/cpustat.log")
start_stwtop() { TZ=UTC "$BIN" --plain --json "$@" --metrics "127.0.0.1:${MP:-$SP}" >>"$T/plain.ndjson" 2>>"$T/stwtop.err" & SPID=$!; }
start_stwtop "${srcs[@]}"
scraped() { [ "$(q "up{instance=\"127.0.0.1:$SP\"}" 2>/dev/null)" = 1 ]; }
wait_for 30 scraped || { fail "Prometheus never scraped stwtop: $(tail -3 "$T/prometheus.log")"; exit 1; }
pass "Prometheus scrapes stwtop, Alertmanager at :$AP"
python3 "$D/tools/replay.py" --speed 4 --log "$T/writes.tsv" "$T/gc.log=$S/gc.log" "$T/console.log=$S/console.log" \
	"$T/access.log=$S/logs/access.log" "$T/cpustat.log=$S/cpustat.log" || fail "replay"
has_verdicts() { firing chat | grep -q '^StwtopVerdict cpu-throttled-during-stop crit$'; }
wait_for 30 has_verdicts && pass "throttle-stop: its verdicts reached the warning receiver: $(firing chat | tr '\n' ';')" ||
	fail "throttle-stop: no verdict notification at the chat receiver: '$(firing chat | tr '\n' ';')'; Prometheus alerts: $(curl -s "http://127.0.0.1:$PP/api/v1/alerts" | head -c 600)"
sleep 5
[ -z "$(firing pager)" ] && pass "throttle-stop: nothing reached the pager" || fail "throttle-stop paged: $(firing pager)"
firing chat >"$T/chat.before"

# 2. the sidecar restarts and reads the same files again
kill "$SPID"; wait "$SPID" 2>/dev/null
start_stwtop "${srcs[@]}"
restarted() { [ "$(q "changes(process_start_time_seconds{instance=\"127.0.0.1:$SP\"}[1m])" 2>/dev/null)" = 1 ]; }
wait_for 20 restarted ||
	fail "Prometheus did not see the restart (process_start_time_seconds)"
# the re-read incident's evidence timestamp is back, the same
rejudged() { [ -n "$(q 'stwtop_verdict_last_evidence_timestamp_seconds{id="cpu-throttled-during-stop",level="crit"} > 0' 2>/dev/null)" ]; }
wait_for 20 rejudged ||
	fail "the restarted stwtop did not judge the re-read incident"
sleep 12 # more than the scaled 10-minute window of the verdict rule
firing chat >"$T/chat.after"
if diff "$T/chat.before" "$T/chat.after" >"$T/chat.diff"; then
	pass "restart: no verdict notified twice ($(wc -l <"$T/chat.after") firing notifications, as before)"
else
	fail "restart: notified again: $(cat "$T/chat.diff")"
fi
[ -z "$(firing pager)" ] && pass "restart: nothing reached the pager" || fail "restart paged: $(firing pager)"

# 3. callers get errors: a real nginx in front of an upstream that is not there (502s); a
# sidecar of its own (another target: the first one's hour still holds 9943 good requests)
kill "$SPID"; wait "$SPID" 2>/dev/null
start_nginx "$T/ngx" "$NP" "$UP" 1s 1s
MP=$SP2 start_stwtop --nginx "$T/ngx/logs/access.log" --nginx-format "$LAB"
sleep 8 # past the restart guard (7 s scaled)
python3 - "$NP" <<'PY'
import sys, time, urllib.request, urllib.error
end = time.time() + 14
while time.time() < end:
    try:
        urllib.request.urlopen('http://127.0.0.1:%s/x' % sys.argv[1], timeout=2).read()
    except Exception:
        pass
    time.sleep(0.05)
PY
n5=$(grep -c ' 502 ' "$T/ngx/logs/access.log")
[ "$n5" -gt 100 ] && pass "nginx answered $n5 requests with 502" || fail "nginx gave only $n5 502s"
paged() { firing pager | grep -q '^StwtopNginxErrorBudgetBurn '; }
wait_for 15 paged && pass "5xx burn: the page reached the pager: $(firing pager | tr '\n' ';')" ||
	fail "5xx burn: no page; Prometheus alerts: $(curl -s "http://127.0.0.1:$PP/api/v1/alerts" | head -c 600)"
[ $fails = 0 ] && echo "alerts_live: all passed" || { echo "--- stwtop stderr"; tail -5 "$T/stwtop.err"; tail -5 "$T/am.log"; }
exit $((fails > 0))
