#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# throttle_live.sh path/to/stwtop — a throttled incident, live, on real parts: no flapping.
#
# A real JVM (tests/fixtures/java/HelloService.java) in a cgroup-v1 cpu cgroup, behind a real
# nginx, under load from curl; stwtop follows it with --pid (cgroup, schedstat and vmstat
# probes), its GC log and nginx's access log, and records the samples. Four seconds in, the
# quota is cut to 0.05 CPU for five seconds, then given back. The NDJSON must show:
#  - only the four events of docs/ndjson.md; each verdict raised once per incident, never
#    raised again, its severity never going down, updates at most once a second;
#  - a verdict on the throttling (the case was made: the JVM stopped while throttled);
#  - at exit, the same verdicts as a report over the same files and the recording;
#  - the status objects' requests and slow connects, summed, equal the access log's.
# With NOLOG=1 (tests/e2e/throttle_nolog_live.sh) the JVM has no logging flag at all and
# stwtop no --gc: the stops are known only from the JVM's counters (hsperfdata), and the verdict
# on the throttled stop must come from them, saying so, in the live stream and in the report
# over the recording alike.
# Needs root, a cgroup-v1 cpu controller, javac, nginx, curl, jq; skipped (77) without them.
set -u
NOLOG=${NOLOG:-0}
BIN=$(realpath "${1:?usage: throttle_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d); JPID=""; SPID=""; LPID=""; CG=""
cleanup() {
	for p in "$LPID" "$SPID" "$JPID"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	[ -f "$T/nginx.pid" ] && kill -QUIT "$(cat "$T/nginx.pid")" 2>/dev/null
	wait 2>/dev/null
	[ -n "$CG" ] && for _ in $(seq 50); do rmdir "$CG" 2>/dev/null && break; sleep 0.1; done
	rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }
export TZ=UTC
for c in javac java curl jq python3; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "SKIP: nginx not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to create a cpu cgroup"; exit 77; }
CPU=$(awk '$9=="cgroup" && $NF ~ /(^|,)cpu(,|$)/ {print $5; exit}' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "SKIP: no cgroup-v1 cpu controller mounted"; exit 77; }
CG=$CPU/stwtop-throttle-$$
mkdir "$CG" && echo 100000 >"$CG/cpu.cfs_period_us" && echo 100000 >"$CG/cpu.cfs_quota_us" \
	|| { echo "SKIP: cannot create $CG"; CG=""; exit 77; }

javac -d "$T/classes" "$D/fixtures/java/HelloService.java" || { echo "FAIL: javac"; exit 1; }
. "$(dirname "$0")/lib/nginx.bash"
read -r NPORT JPORT <<<"$(free_ports 2)"
start_nginx "$T" "$NPORT" "$JPORT" 5s 10s
LOGFLAG=("-Xlog:gc*,safepoint:file=$T/gc.log:time,uptime,level,tags")
GCARG=(--gc "$T/gc.log")
[ "$NOLOG" = 1 ] && { LOGFLAG=(); GCARG=(); }
( cd "$T" && echo $BASHPID >"$CG/cgroup.procs" && exec java -Xmx96m -XX:+UseG1GC \
	"${LOGFLAG[@]}" -cp classes HelloService "$JPORT" 5 ) \
	>"$T/console.log" 2>&1 &
JPID=$!
wait_for 30 grep -q READY "$T/console.log" || { echo "FAIL: the JVM did not start: $(head -c 400 "$T/console.log")"; exit 1; }
"$BIN" --plain --json --interval 500 --pid "$JPID" "${GCARG[@]}" --nginx "$T/logs/access.log" \
	--nginx-format "$LAB" --record "$T/rec.ndjson" >"$T/live.ndjson" 2>"$T/err" &
SPID=$!
( while :; do curl -s -o /dev/null --max-time 12 "http://127.0.0.1:$NPORT/x" & sleep 0.025; done ) &
LPID=$!
sleep 4
echo 5000 >"$CG/cpu.cfs_quota_us"
sleep 5
echo 100000 >"$CG/cpu.cfs_quota_us"
sleep 4
kill -KILL "$LPID"; wait "$LPID" 2>/dev/null; LPID=""
sleep 3
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
[ $rc = 0 ] || fail "stwtop exited $rc: $(head -c 400 "$T/err")"
kill -TERM "$JPID"; wait "$JPID" 2>/dev/null; JPID=""

python3 - "$T/live.ndjson" <<'EOF' || fails=$((fails+1))
import json, sys
rank = {'info': 0, 'warn': 1, 'crit': 2}
seen, sev, last, bad = set(), {}, {}, []
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get('type') != 'verdict':
        continue
    k, ev = (o['id'], o['incident']), o['event']
    if ev not in ('new', 'update', 'cleared', 'final'):
        bad.append('%s: event %s' % (k, ev))
    if ev == 'new' and k in seen:
        bad.append('%s raised again' % (k,))
    if ev != 'new' and k not in seen:
        bad.append('%s: %s before new' % (k, ev))
    seen.add(k)
    if rank[o['severity']] < sev.get(k, 0):
        bad.append('%s: severity went down to %s' % (k, o['severity']))
    sev[k] = max(sev.get(k, 0), rank[o['severity']])
for b in bad:
    print('FAIL: ' + b)
print('events: %d verdicts, %d problems' % (len(seen), len(bad)))
sys.exit(1 if bad else 0)
EOF
# live counts add up: the requests and slow connects of the status objects, summed, are the
# access log's (by start second, $msec - $request_time) up to the last second they covered
python3 - "$T/live.ndjson" "$T/logs/access.log" <<'EOF2' || fails=$((fails+1))
import json, sys, datetime
def epoch(iso):
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
req = slow = 0
to = None
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get('type') == 'status':
        req += o['requests'] or 0
        slow += o['slow_connects'] or 0
        if o.get('requests_to'):
            to = epoch(o['requests_to'])
er = es = 0
for line in open(sys.argv[2]):
    f = line.split()
    msec, rt = float(f[0]), float(f[-1].split('=')[1])
    uct = f[3].split('=')[1]
    start = round(msec * 1000 - rt * 1000) / 1000.0
    if to is not None and start < to:
        er += 1
        if uct != '-' and round(sum(float(x) for x in uct.split(',') if x not in ('-', ':'))) >= 1:
            es += 1
ok = to is not None and req == er and slow == es
print('%s: live statuses: %d requests, %d slow connects; access log up to %s: %d, %d'
      % ('ok' if ok else 'FAIL', req, slow, to, er, es))
sys.exit(0 if ok else 1)
EOF2
jq -r 'select(.type=="verdict" and .event=="final") | [.id, .severity, .title] | @tsv' "$T/live.ndjson" | sort >"$T/live.txt"
if [ "$NOLOG" = 1 ]; then
	# every status said where the JVM's numbers came from; the verdict names the counters
	src=$(jq -r 'select(.type=="status") | .jvm.source' "$T/live.ndjson" | sort -u | tr '\n' ' ')
	[ "$src" = "hsperfdata " ] || fail "status jvm.source: '$src', want hsperfdata only"
	grep -Eq "^(cpu-throttled-during-stop|ttsp-spike)	.*(counters|ending between)" "$T/live.txt" \
		|| fail "no verdict from the JVM's counters on the throttled stops: $(cat "$T/live.txt")"
else
	grep -Eq "^(cpu-throttled-during-stop|ttsp-spike)	" "$T/live.txt" \
		|| fail "no verdict on the throttled stops (the case was not made?): $(cat "$T/live.txt"); stops: $(grep -c 'Total: ' "$T/gc.log")"
fi
"$BIN" --report --json "${GCARG[@]}" --nginx "$T/logs/access.log" --nginx-format "$LAB" --replay "$T/rec.ndjson" \
	>"$T/rep.json" 2>"$T/rerr" || fail "report: $(cat "$T/rerr")"
jq -r '.verdicts[] | [.id, .severity, .title] | @tsv' "$T/rep.json" | sort >"$T/rep.txt"
cmp -s "$T/live.txt" "$T/rep.txt" || { fail "live and report verdicts differ:"; diff "$T/live.txt" "$T/rep.txt" | head -20; }
cut -c1-240 "$T/live.txt" | sed "s/^/live: /"
[ $fails = 0 ] && echo "throttle_live: all passed" || { echo "throttle_live: $fails failed"; exit 1; }
