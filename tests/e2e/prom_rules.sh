#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# prom_rules.sh BIN — the deployment side of the metrics (docs/fleet.md): the Prometheus alert
# rules, their unit tests, the Kubernetes sidecar examples (native and plain form; the plain one
# also runs as a real pod in tests/e2e/pod.sh) and the log shipper's snippet.
#  1. promtool check rules deploy/prometheus/stwtop-alerts.yml
#  2. deploy/prometheus/stwtop-alerts.test.yml is what tests/tools/prom-rules-tests.py writes (as YAML),
#     and promtool test rules passes on it (every alert fires where it must, with its labels and
#     texts, and stays silent where it must not)
#  2b. deploy/prometheus/alertmanager.yml: amtool check-config, and each severity routed to its receiver
#  3. tests/tools/check-deploy.py static: one verdict rule keyed by the id label (no id named in
#     an expression), critical only on the nginx budgets, metric names of docs/metrics.md, every stwtop option used in deploy/ and
#     docs/fleet.md listed by --help (or --metrics/--metrics-textfile, being added), both forms
#     of the sidecar and that they are one pod, its volumes and paths (stwtop reads the files
#     the JVM and nginx write), stwtop's command (it waits for the JVM with pgrep, which its
#     image has, and follows it with --pid), uid, probe, scrape annotations, PodMonitor,
#     limits; every yaml block of docs/fleet.md parses
#  4. the sidecar's pieces run: the ConfigMap's log_format reads a real nginx log (and nginx -t
#     accepts the config when nginx is installed); the stwtop container's command waits for a
#     process named java and runs stwtop with --pid of it over a real recording's files; the
#     same stwtop line, without --pid and with the recording's cpustat.log in place of the
#     cgroup --pid reads live, prints the recording's verdicts
#  5. the Vector snippet reads only fields and values stwtop writes (real NDJSON output); the
#     alerts' grep pattern finds the verdicts in it
# Needs promtool (Debian package prometheus), amtool (prometheus-alertmanager) and python3 with yaml (python3-yaml): without
# them it is skipped (exit 77) saying so, as other tests do for missing tools.
set -u
BIN=${1:?usage: prom_rules.sh path/to/stwtop}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
D=$(cd "$(dirname "$0")/.." && pwd)
. "$D/e2e/lib/ports.bash"
ROOT=$(cd "$D/.." && pwd)
command -v promtool >/dev/null || { echo "SKIP: promtool not installed (Debian package prometheus, scripts/install-deps.sh)"; exit 77; }
command -v amtool >/dev/null || { echo "SKIP: amtool not installed (Debian package prometheus-alertmanager, scripts/install-deps.sh)"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 has no yaml module (Debian package python3-yaml)"; exit 77; }
T=$(mktemp -d)
PG=""
cleanup() {
	[ -n "$PG" ] && kill -TERM -- "-$PG" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
pass=0 failc=0
ok() { pass=$((pass + 1)); }
bad() { failc=$((failc + 1)); echo "FAIL $*"; }
S=$D/samples/combined/throttle-stop

# 1-2. the rules and their unit tests
promtool check rules "$ROOT/deploy/prometheus/stwtop-alerts.yml" >"$T/check" 2>&1 && ok ||
	bad "promtool check rules: $(cat "$T/check")"
# (compared as YAML: another PyYAML may wrap lines differently)
python3 "$D/tools/prom-rules-tests.py" "$ROOT/deploy/prometheus/stwtop-alerts.yml" >"$T/gen.yml" &&
	python3 -c 'import sys, yaml; sys.exit(yaml.safe_load(open(sys.argv[1])) != yaml.safe_load(open(sys.argv[2])))' \
		"$T/gen.yml" "$ROOT/deploy/prometheus/stwtop-alerts.test.yml" && ok ||
	bad "stwtop-alerts.test.yml is not what tests/tools/prom-rules-tests.py writes: regenerate it (its head says how)"
(cd "$ROOT/deploy/prometheus" && promtool test rules stwtop-alerts.test.yml) >"$T/test" 2>&1 && ok ||
	bad "promtool test rules: $(head -c 4000 "$T/test")"
n=$(grep -c 'alertname:' "$ROOT/deploy/prometheus/stwtop-alerts.test.yml")
[ "$n" -ge 100 ] && ok || bad "only $n alert checks in stwtop-alerts.test.yml"
# no text of the tests shows an empty label (a textfile target has no pod nor namespace)
grep -nE -- '-n  | exec  ' "$ROOT/deploy/prometheus/stwtop-alerts.test.yml" >"$T/empty" && bad "empty labels rendered: $(head -3 "$T/empty")" || ok

# 2b. the Alertmanager example: valid, and each severity reaches its receiver
AM=$ROOT/deploy/prometheus/alertmanager.yml
amtool check-config "$AM" >"$T/am" 2>&1 && ok || bad "amtool check-config: $(cat "$T/am")"
for pair in critical:stwtop-pager warning:stwtop-chat info:stwtop-info; do
	got=$(amtool config routes test --config.file="$AM" severity="${pair%%:*}" alertname=StwtopVerdict 2>/dev/null)
	[ "$got" = "${pair#*:}" ] && ok || bad "alertmanager.yml routes severity=${pair%%:*} to '$got', not ${pair#*:}"
done

# 3. static checks
"$BIN" --help >"$T/help" 2>&1
python3 "$D/tools/check-deploy.py" static "$ROOT" "$T/help" "$T/x" >"$T/static" 2>&1 && ok ||
	bad "check-deploy.py static: $(grep -v '^check-deploy:' "$T/static")"
tail -n1 "$T/static"
[ -s "$T/x/stwtop.sh" ] && [ -s "$T/x/sources" ] || { echo "FAIL the sidecar's command was not extracted"; exit 1; }

mkdir -p "$T/logs" "$T/nginxlogs" "$T/conf" "$T/bin"

# 4b. the ConfigMap's nginx.conf: its log_format reads the real nginx log of the recording
# (the same variables), and nginx itself accepts the config
head -n 2000 "$S/logs/access.log" >"$T/access.log"
"$BIN" --report --json --nginx "$T/access.log" --nginx-conf "$T/x/nginx.conf:stwtop" >"$T/ngx.json" 2>"$T/ngx.err"
python3 - "$T/ngx.json" <<'EOF' && ok || bad "the ConfigMap's log_format does not read a real nginx log: $(cat "$T/ngx.err")"
import json, sys
src = json.load(open(sys.argv[1]))["sources"][0]
sys.exit(0 if src["parsed"] == 2000 and src["unparsed"] == 0 else 1)
EOF
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ -x "$NGINX" ]; then
	sed -e "s#/var/log/nginx#$T/nginxlogs#g; s#/tmp/nginx.pid#$T/nginx.pid#g" "$T/x/nginx.conf" >"$T/nginx-t.conf"
	"$NGINX" -t -p "$T" -c "$T/nginx-t.conf" >"$T/nginx-t.out" 2>&1 && ok || bad "nginx -t: $(cat "$T/nginx-t.out")"
else
	echo "note: nginx not installed: the ConfigMap's nginx.conf is not checked by nginx -t"
fi

# 4c. the stwtop container's command as the pod runs it, over the recording's files placed where
# the pod has them. Its loop waits for a process named java: pgrep is limited here to this
# test's own session (-s 0), where a stand-in (a copy of sleep named java) starts 2 s later;
# stwtop must then run with --pid of the stand-in and serve the metrics the rules use
cp "$S/gc.log" "$T/logs/"
cp "$S/logs/access.log" "$T/nginxlogs/access.log"
cp "$T/x/nginx.conf" "$T/conf/nginx.conf"
cp "$(command -v sleep)" "$T/bin/java"
SOURCES=$(sed -e "s#/logs/#$T/logs/#g; s#/var/log/nginx/#$T/nginxlogs/#g; s#/etc/stwtop/nginx/#$T/conf/#g" "$T/x/sources")
CMD=$(sed -e "s#exec stwtop #exec $BIN #; s#pgrep -o -x java#pgrep -o -x -s 0 java#" "$T/x/stwtop.sh")
printf '%s' "$CMD" | grep -q "pgrep -o -x -s 0 java" && printf '%s' "$CMD" | grep -q "exec $BIN " && ok ||
	bad "the stwtop container's command was not moved onto this machine: $CMD"
PORT=""
if grep -q -- '--metrics ' "$T/help"; then
	PORT=$(free_port)
	CMD=$(printf '%s' "$CMD" | sed -e "s#--metrics 0\.0\.0\.0:[0-9]*#--metrics 127.0.0.1:$PORT#")
else
	echo "note: this stwtop has no --metrics yet: the sidecar's command is run without it"
	CMD=$(printf '%s' "$CMD" | sed -e 's#--metrics [^ ]*##')
fi
STWTOP_SOURCES=$SOURCES TZ=UTC timeout -s TERM 8 setsid sh -c "(sleep 2; exec $T/bin/java 20) & $CMD" \
	</dev/null >"$T/side.out" 2>"$T/side.err" &
SIDE=$!
sleep 1
# the shell under timeout waits (it is still sh), then becomes stwtop (exec)
SH=$(pgrep -P "$SIDE" | head -1)
[ -n "$SH" ] && [ "$(cat "/proc/$SH/comm" 2>/dev/null)" = sh ] && ok ||
	bad "the sidecar's command did not wait for a process named java: $(cat "/proc/$SH/comm" 2>&1) $(cat "$T/side.err")"
if [ -n "$PORT" ]; then
	# the metrics the rules use, scraped while it runs (those this recording must have)
	sleep 4
	[ "$(cat "/proc/$SH/comm" 2>/dev/null)" = stwtop ] && ok || bad "the sidecar's command did not exec stwtop once java ran"
	if curl -sf "http://127.0.0.1:$PORT/metrics" >"$T/scrape"; then
		ok
		for m in stwtop_build_info stwtop_source_up stwtop_safepoint_seconds_sum stwtop_gc_pause_seconds_sum \
			stwtop_cgroup_cpu_cfs_periods_total stwtop_cgroup_cpu_cfs_throttled_periods_total \
			stwtop_verdict_last_evidence_timestamp_seconds process_start_time_seconds; do
			grep -qE "^$m[{ ]" "$T/scrape" && ok || bad "the scrape has no $m, which the alert rules use"
		done
		promtool check metrics <"$T/scrape" >"$T/lint" 2>&1 && ok || bad "promtool check metrics: $(head -c 1000 "$T/lint")"
	else
		bad "no answer on 127.0.0.1:$PORT/metrics: $(cat "$T/side.err")"
	fi
fi
wait "$SIDE"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 124 ] && ok || bad "the sidecar's command exited $rc: $(cat "$T/side.err")"
grep -qi 'error' "$T/side.err" && bad "the sidecar's command says: $(grep -i error "$T/side.err")" || ok
# it followed the stand-in: --pid of a process named java, found after the wait
jp=$(grep -o 'process [0-9]*' "$T/side.err" | head -1 | cut -d' ' -f2)
[ -n "$jp" ] && [ "$(cat "/proc/$jp/comm" 2>/dev/null)" = java ] && ok ||
	bad "the sidecar's command did not run stwtop with --pid of the process named java: $(head -c 600 "$T/side.err")"

# 4d. the recording's verdicts: the same stwtop line without the wait and --pid (a recording has
# no live JVM), with the recording's cpustat.log for the cgroup numbers --pid reads live in the
# pod; the alerts' grep pattern must find them
cp "$S/cpustat.log" "$T/logs/"
LINE=$(sed -n 's#^exec stwtop \(.*\)$#\1#p' "$T/x/stwtop.sh" | sed -e 's# --pid "$pid"##; s#--metrics [^ ]*##')
[ -n "$LINE" ] && ! printf '%s' "$LINE" | grep -q -- '--pid' && ok || bad "the stwtop line of the command was not found: $(cat "$T/x/stwtop.sh")"
STWTOP_SOURCES="$SOURCES --cpustat-log $T/logs/cpustat.log" TZ=UTC timeout -s TERM 6 sh -c "exec $BIN $LINE" \
	</dev/null >"$T/side.out" 2>"$T/side.err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 124 ] && ok || bad "the sidecar's stwtop line exited $rc: $(cat "$T/side.err")"
for id in cpu-throttled-during-stop accept-queue-overflow; do
	# the alerts' own pattern: kubectl logs POD -c stwtop | grep '"id":"ID"'
	grep "\"id\":\"$id\"" "$T/side.out" | grep -q '"event":"new"' && ok ||
		bad "the sidecar's stwtop line over throttle-stop printed no new $id (grep '\"id\":\"$id\"')"
done

# 5. the Vector snippet against real NDJSON: the sidecar's, and one with a note (a log_format
# that does not match the log)
TZ=UTC timeout 2 "$BIN" --plain --json --interval 200 --nginx "$T/access.log" \
	--nginx-format '$remote_addr [$time_local] "$request" $status' </dev/null >"$T/note.out" 2>/dev/null
python3 "$D/tools/check-deploy.py" ndjson "$ROOT" "$T/side.out" "$T/note.out" >"$T/nd" 2>&1 && ok ||
	bad "check-deploy.py ndjson: $(grep -v '^check-deploy:' "$T/nd")"
tail -n1 "$T/nd"

echo "prom_rules: $pass passed, $failc failed"
[ "$failc" -eq 0 ]
