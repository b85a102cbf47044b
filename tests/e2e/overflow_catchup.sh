#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# overflow_catchup.sh BIN — after an inotify queue overflow, stwtop --plain --json catches up
# on a large backlog without stopping its loop (issue 27). While stwtop is stopped (SIGSTOP,
# so nothing reads its inotify queue):
#  - 17 000 distinct events in the followed log's directory overflow the queue (the kernel
#    keeps max_queued_events, 16 384 by default, then one IN_Q_OVERFLOW): a real overflow,
#    without touching the machine-wide /proc/sys/fs/inotify settings;
#  - the GC log rotates GENS times in the dark (gc.log -> gc.log.N, each with lines): no
#    event tells of them, the overflow rescan must find them by name;
#  - BIG_LINES more pause lines (~190 MB) land in the file at the path at once.
# Then stwtop runs again (SIGCONT). Asserted:
#  - a status line keeps coming every interval (INTERVAL ms) while it catches up: no gap
#    from the resume to the first status, nor between two of them up to the status that has
#    everything, longer than two intervals (± one interval; four in a sanitizer build), and
#    at least 3 statuses came;
#  - the last status's gc_pauses_total equals the pause lines in all the files (each line is
#    one pause): nothing lost, nothing counted twice; stderr says the queue overflowed.
# The stall it guards against: the rescan and the catch-up read in one pass (seconds without a
# status). Needs python3 and jq; uses /dev/shm when there is one (the 17 000 renames are fast).
set -u
BIN=$(realpath "${1:?usage: overflow_catchup.sh path/to/stwtop}")
command -v python3 >/dev/null || { echo "skip: needs python3"; exit 77; }
command -v jq >/dev/null || { echo "skip: needs jq"; exit 77; }
INTERVAL=${INTERVAL:-500}
# A sanitizer build reads ~10x slower, so one 2 MiB slice can outlast an interval: there a gap
# of up to 4 intervals passes (still no stall: before slicing, its catch-up printed no status
# for tens of seconds).
TOL=2
grep -q '^STWTOP_SANITIZE:BOOL=ON' "$(dirname "$BIN")/CMakeCache.txt" 2>/dev/null && TOL=4
GENS=${GENS:-3000}
BIG_LINES=${BIG_LINES:-1500000}
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
T=$(mktemp -d "$base/stwtop-ovf.XXXXXX")
LPID=""
trap '[ -n "$LPID" ] && kill -KILL $LPID 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $T" || rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# gen FILE N FIRST: N unified pause lines (wall clock and uptime), GC(FIRST) on, 1 ms apart
gen() {
	python3 - "$@" <<'EOF'
import sys, time
path, n, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
base = 1796000000000
out, sec, stamp = [], -1, ""
with open(path, "a") as fh:
    for i in range(first, first + n):
        s, m = divmod(base + i, 1000)
        if s != sec:
            sec, stamp = s, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s))
        out.append("[%s.%03d+0000][%d.%03ds][info][gc] GC(%d) Pause Young (Normal) "
                   "(G1 Evacuation Pause) 24M->4M(256M) 1.234ms\n" % (stamp, m, i // 1000, i % 1000, i))
        if len(out) >= 20000:
            fh.write("".join(out))
            out = []
    fh.write("".join(out))
EOF
}

G=$T/gc.log
gen "$G" 10 1
# each line stamped with its arrival (monotonic seconds): the status gaps are measured here
"$BIN" --plain --json --interval "$INTERVAL" --gc "$G" 2>"$T/err" \
	> >(python3 -u -c '
import sys, time
for line in sys.stdin:
    sys.stdout.write("%.3f %s" % (time.monotonic(), line))
    sys.stdout.flush()' >"$T/out") &
LPID=$!
for i in $(seq 400); do grep -q '"type":"status"' "$T/out" 2>/dev/null && break; sleep 0.05; done
grep -q '"type":"status"' "$T/out" || { fail "no first status"; cat "$T/err"; exit 1; }

kill -STOP "$LPID"
# the overflow, the rotations in the dark and the backlog; the writer's pause lines counted
python3 - "$T" "$GENS" <<'EOF'
import os, sys
d, gens = sys.argv[1], int(sys.argv[2])
os.mkdir(os.path.join(d, "junk"))
tmp = os.path.join(d, "t")
for i in range(17000):   # CREATE + MOVED_FROM each, distinct, none merged
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT, 0o644))
    os.rename(tmp, os.path.join(d, "junk", "n%d" % i))
EOF
next=11
python3 - "$G" "$GENS" "$next" <<'EOF'
import os, sys, time
path, gens, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
base = 1796000000000
i = first
for g in range(1, gens + 1):
    with open(path, "a") as fh:
        for _ in range(20):
            s, m = divmod(base + i, 1000)
            fh.write("[%s.%03d+0000][%d.%03ds][info][gc] GC(%d) Pause Young (Normal) "
                     "(G1 Evacuation Pause) 24M->4M(256M) 1.234ms\n"
                     % (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)), m, i // 1000, i % 1000, i))
            i += 1
    os.rename(path, "%s.%d" % (path, g))

EOF
next=$((next + GENS * 20))
gen "$G" "$BIG_LINES" "$next"
want=$(cat "$G" "$G".* | grep -c ' Pause ')
t_cont=$(python3 -c 'import time; print("%.3f" % time.monotonic())')
kill -CONT "$LPID"

# wait for the status that has every pause (at most 180 s on a loaded machine)
got=0
for i in $(seq 1800); do
	got=$(grep '"type":"status"' "$T/out" | tail -1 | cut -d' ' -f2- | jq -r '.gc_pauses_total // 0')
	[ "$got" = "$want" ] && break
	kill -0 "$LPID" 2>/dev/null || break
	sleep 0.1
done
sleep "$(python3 -c "print(3 * $INTERVAL / 1000)")"   # a few more: nothing counted twice later
kill -TERM "$LPID"
wait "$LPID" 2>/dev/null
LPID=""
sleep 0.2

last=$(grep '"type":"status"' "$T/out" | tail -1 | cut -d' ' -f2- | jq -r '.gc_pauses_total')
[ "$last" = "$want" ] || fail "last status counts $last pauses, the files have $want"
grep -q 'overflowed' "$T/err" || fail "no overflow noted on stderr (the queue did not overflow?)"
# the statuses from the resume to the first one with everything: their arrival gaps
python3 - "$T/out" "$t_cont" "$want" "$INTERVAL" "$TOL" <<'EOF' || fails=$((fails + 1))
import json, sys
out, t0, want, iv, tol = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]) / 1000, int(sys.argv[5])
st = []
for line in open(out):
    t, _, js = line.partition(" ")
    o = json.loads(js)
    if o.get("type") == "status" and float(t) >= t0:
        st.append((float(t), o.get("gc_pauses_total") or 0))
done = next((i for i, s in enumerate(st) if s[1] == want), None)
if done is None:
    print("FAIL: no status reached %d pauses" % want); sys.exit(1)
during = st[:done + 1]
pts = [t0] + [s[0] for s in during]   # from the resume on
gaps = [b - a for a, b in zip(pts, pts[1:])]
print("catch-up: %.2f s, %d statuses, longest gap %.3f s (interval %.3f s), counts %s"
      % (st[done][0] - t0, len(during), max(gaps) if gaps else 0, iv, [s[1] for s in during][:12]))
bad = [g for g in gaps if g > tol * iv]
if bad:
    print("FAIL: %d status gaps over %d intervals (%s)" % (len(bad), tol, ", ".join("%.2f" % g for g in bad[:5]))); sys.exit(1)
if len(during) < 3:
    print("FAIL: the catch-up took %d statuses: too short to show the loop kept ticking" % len(during)); sys.exit(1)
EOF
if [ "$fails" -eq 0 ]; then echo "ok: overflow + $GENS rotations + $BIG_LINES lines caught up, $want pauses counted once"; exit 0; fi
sed -n 1,20p "$T/err"
exit 1
