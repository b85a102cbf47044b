#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metrics_http.sh BIN — --metrics and --metrics-textfile under a live `--plain --json` run
# with no terminal (a sidecar): 404/405/HEAD/OpenMetrics, parallel scrapes, silent and
# half-request clients, a 100 KB request line, a log truncated and one rotated while
# scraped (no counter goes down, the end equals the report), the textfile complete at
# every read (tests/tools/metrics_http.py); then the dashboard (tmux), --demo and a live
# --replay serve too, and a port already taken exits 2 with the reason.
set -u
BIN=${1:?usage: metrics_http.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
"$BIN" --help | grep -q -- '--metrics \[ADDR:\]PORT' || { echo "FAIL --help lacks --metrics"; exit 1; }
command -v curl >/dev/null || { echo "curl is not installed"; exit 77; }
rc=0
python3 "$D/tools/metrics_http.py" "$BIN" "$D/samples/combined/throttle-stop" || rc=1

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-metrics.XXXXXX")
SOCK=stwtop-metrics-$$
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	tmux -L "$SOCK" kill-server 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup EXIT
. "$(dirname "$0")/lib/ports.bash"
# scraped N: true once /metrics on port N answers with safepoints counted
scraped() {
	local i
	for i in $(seq 1 100); do
		curl -sf --max-time 1 "http://127.0.0.1:$1/metrics" | grep -Eq '^stwtop_safepoint_seconds_count [1-9]' && return 0
		sleep 0.1
	done
	return 1
}
S=$D/samples/combined/throttle-stop

# the dashboard, in a terminal
P=$(free_port)
tmux -L "$SOCK" -f /dev/null new-session -d -s m -x 120 -y 40 \
	"$BIN --gc $S/gc.log --metrics 127.0.0.1:$P; sleep 60"
if scraped "$P"; then echo "PASS the dashboard serves /metrics"; else echo "FAIL the dashboard serves /metrics"; rc=1; fi
tmux -L "$SOCK" kill-server 2>/dev/null

# the demo replay
P=$(free_port)
"$BIN" --demo --demo-speed 50 --plain --metrics ":$P" >"$TMPD/demo.out" 2>&1 &
pids+=($!)
if scraped "$P"; then echo "PASS --demo serves /metrics"; else echo "FAIL --demo serves /metrics"; rc=1; fi

# live --replay of a recording (stwtop's own NDJSON samples, made here from the sample's
# cpu.stat log): the throttling counters are the report's of the same recording
python3 - "$S/cpustat.log" "$TMPD/rec.ndjson" <<'PY'
import datetime, json, sys
out = open(sys.argv[2], 'w')
out.write('{"v":1,"t":1795980218000,"kind":"meta","tool":"stwtop","version":"0.1.0","note":"from cpustat.log"}\n')
for ln in open(sys.argv[1]):
    f = ln.split()
    t = datetime.datetime.strptime(f[0][:23], '%Y-%m-%dT%H:%M:%S.%f').replace(tzinfo=datetime.timezone.utc)
    kv = dict(zip(f[1::2], map(int, f[2::2])))
    out.write(json.dumps({'v': 1, 't': int(t.timestamp() * 1000), 'kind': 'cpu', 'nr_periods': kv['nr_periods'],
                          'nr_throttled': kv['nr_throttled'], 'throttled_us': kv['throttled_time'] // 1000,
                          'usage_us': -1, 'quota_us': -1, 'period_us': 100000, 'psi_some_avg10': -1.0,
                          'cg_version': 1}, separators=(',', ':')) + '\n')
PY
want=$("$BIN" --report --json --replay "$TMPD/rec.ndjson" | jq -r '"\(.summary.throttle.nr_throttled) \(.summary.throttle.throttled_ms / 1000)"')
P=$(free_port)
"$BIN" --plain --replay "$TMPD/rec.ndjson" --metrics "$P" >"$TMPD/replay.out" 2>&1 &
pids+=($!)
got=
for i in $(seq 1 100); do
	got=$(curl -sf --max-time 1 "http://127.0.0.1:$P/metrics" |
		awk '/^stwtop_cgroup_cpu_cfs_throttled_periods_total / { p = $2 } /^stwtop_cgroup_cpu_cfs_throttled_seconds_total / { s = $2 }
		     END { if (p != "") print p, s }')
	[ -n "$got" ] && awk -v g="$got" -v w="$want" 'BEGIN { split(g, a); split(w, b); exit !(a[1] == b[1] && a[2] - b[2] < 1e-6 && b[2] - a[2] < 1e-6) }' && break
	sleep 0.1
done
if [ -n "$got" ] && awk -v g="$got" -v w="$want" 'BEGIN { split(g, a); split(w, b); exit !(a[1] == b[1] && a[1] > 0 && a[2] - b[2] < 1e-6 && b[2] - a[2] < 1e-6) }'; then
	echo "PASS live --replay serves the report's throttling: $got"
else
	echo "FAIL live --replay: metrics '$got', the report '$want'"; rc=1
fi

# a port in use: exit 2, the reason named
python3 -c 'import socket,time,sys; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(1)
open(sys.argv[1],"w").write(str(s.getsockname()[1])); time.sleep(20)' "$TMPD/taken" &
pids+=($!)
for i in $(seq 1 50); do [ -s "$TMPD/taken" ] && break; sleep 0.1; done
timeout 10 "$BIN" --plain --gc "$S/gc.log" --metrics "127.0.0.1:$(cat "$TMPD/taken")" >"$TMPD/taken.out" 2>&1
r=$?
if [ $r = 2 ] && grep -q "cannot listen: Address already in use" "$TMPD/taken.out"; then
	echo "PASS a port in use: exit 2 with the reason"
else
	echo "FAIL a port in use: rc $r: $(cat "$TMPD/taken.out")"; rc=1
fi
# not for --report: exit 2 with the reason
timeout 10 "$BIN" --report --gc "$S/gc.log" --metrics :9612 >"$TMPD/rep.out" 2>&1
r=$?
if [ $r = 2 ] && grep -q -- "--metrics is for live mode" "$TMPD/rep.out"; then
	echo "PASS --report --metrics: exit 2"
else
	echo "FAIL --report --metrics: rc $r: $(cat "$TMPD/rep.out")"; rc=1
fi
# a directory that cannot hold the textfile: exit 2
timeout 10 "$BIN" --plain --gc "$S/gc.log" --metrics-textfile /nonexistent/dir/m.prom >"$TMPD/tf.out" 2>&1
r=$?
if [ $r = 2 ] && grep -q -- "--metrics-textfile /nonexistent/dir/m.prom: No such file or directory" "$TMPD/tf.out"; then
	echo "PASS an unwritable textfile: exit 2 with the reason"
else
	echo "FAIL an unwritable textfile: rc $r: $(cat "$TMPD/tf.out")"; rc=1
fi
exit $rc
