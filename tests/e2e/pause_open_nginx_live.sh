#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pause_open_nginx_live.sh BIN — while the JVM hangs in a GC pause, live stwtop does not say "no
# JVM stop overlaps" the 504s nginx logs (issue 24 point 7, nginx side).
# Replays tests/recordings/pause-never-ended-nginx (a real Serial JVM 17 hung in a young pause at
# its memory cgroup's limit behind a real nginx, until the OOM killer) live: stwtop --plain --json
# follows gc.log and access.log while tests/tools/replay.py appends the recorded lines at 4x their
# pace. While the pause is open (its start line came, no end line: the JVM is stopped in it),
# every connect-timeout-504 stwtop prints must:
#   - be told "during the stop", the stop being the GC pause still open, never "no JVM stop
#     overlaps them" / "No stop shows in this input";
#   - size that stop from the pause's start line (06:50:22.249) on, growing as nginx keeps
#     timing out, up to the 7.54 s the report gives.
set -u
BIN=$(realpath "${1:?usage: pause_open_nginx_live.sh path/to/stwtop}")
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
R=$D/recordings/pause-never-ended-nginx
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
T=$(mktemp -d)
SP=
trap '[ -n "$SP" ] && kill "$SP" 2>/dev/null; rm -rf "$T"' EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
"$BIN" --plain --json --gc "$T/gc.log" --nginx "$T/access.log" --nginx-conf "$R/nginx.conf:lab" \
	>"$T/out.ndjson" 2>"$T/err" &
SP=$!
sleep 0.5
python3 "$D/tools/replay.py" --speed 4 --log "$T/writes.tsv" "$T/gc.log=$R/gc.log" \
	"$T/access.log=$R/logs/access.log" || fail "replay.py failed"
sleep 2
kill -TERM "$SP"; wait "$SP"; SP=
python3 - "$T/out.ndjson" <<'EOF' || fails=$((fails+1))
import json, re, sys
bad = []
seen = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get('type') != 'verdict' or d.get('id') != 'connect-timeout-504':
        continue
    text = ' '.join([d['title']] + d['evidence'] + [d['advice']])
    seen.append(d)
    for no in ('no JVM stop overlaps', 'No stop shows in this input'):
        if no in text:
            bad.append('%s says "%s": %s' % (d['event'], no, d['title']))
    if 'during the stop' not in d['title']:
        bad.append('%s is not told during the stop: %s' % (d['event'], d['title']))
    m = re.search(r'the GC pause (still open|that never ended)[^:]*: ([0-9.]+) s', text)
    if not m:
        bad.append('%s does not size the stop from the open pause: %s' % (d['event'], text[:300]))
    else:
        d['_s'] = float(m.group(2))
if not seen:
    bad.append('no connect-timeout-504 was printed')
else:
    if not seen[0].get('_s') or 'still open' not in ' '.join(seen[0]['evidence']):
        bad.append('the first connect-timeout-504 does not name the pause still open')
    sizes = [d['_s'] for d in seen if '_s' in d]
    if sizes != sorted(sizes):
        bad.append('the stop shrank between updates: %s' % sizes)
    if sizes and abs(sizes[-1] - 7.54) > 0.02:
        bad.append('the last size is %.2f s, the report says 7.54 s' % sizes[-1])
for b in bad:
    print('FAIL: ' + b)
print('connect-timeout-504 events: %d, sizes %s' % (len(seen), [d.get('_s') for d in seen]))
sys.exit(1 if bad else 0)
EOF
[ $fails = 0 ] && echo "pause_open_nginx_live: all passed" || { echo "pause_open_nginx_live: $fails failed"; exit 1; }
