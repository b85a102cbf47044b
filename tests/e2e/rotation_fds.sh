#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rotation_fds.sh BIN — stwtop --plain follows a GC log that a writer rotates
# 10 000 times (rename to gc.log.N, a new file with one pause line, as
# logrotate's "create" with dateext does; renaming over one .1 would delete
# generations before anyone could read them), as fast as it can. Every pause
# line must be counted once, and when the writer is done (and the 2 s drain
# of renamed generations has passed) stwtop must hold exactly the
# descriptors it held before the first rotation: none leaked.
# /proc/PID/fd is counted while it runs too: at most a bounded number of old
# generations may be open at once.
set -u
BIN=$(realpath "${1:?usage: rotation_fds.sh path/to/stwtop}")
S=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}/samples
command -v python3 >/dev/null || { echo "skip: needs python3"; exit 77; }
T=$(mktemp -d)
LPID=""
trap '[ -n "$LPID" ] && kill -KILL $LPID 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $T" || rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
N=${ROTATIONS:-10000}
head -19 "$S/combined/throttle-stop/gc.log" >"$T/gc.log" # a real JVM's start-up lines, time + uptime
"$BIN" --plain --json --interval 200 --gc "$T/gc.log" >"$T/out" 2>"$T/err" &
LPID=$!
nfds() { ls "/proc/$LPID/fd" 2>/dev/null | wc -l; }
# wait for the first status object: stwtop is following the file
for i in $(seq 200); do grep -q '"type":"status"' "$T/out" 2>/dev/null && break; sleep 0.05; done
before=$(nfds)
# the writer: one pause line per generation, each 10 ms of JVM time later
python3 - "$T/gc.log" "$N" <<'EOF' &
import os, sys, time
path, n = sys.argv[1], int(sys.argv[2])
t0 = 1795980218332 + 10000            # after the banner's 19:23:38.332Z
for i in range(n):
    ms = t0 + i * 10
    up = ms - (1795980218332 - 5)
    tm = time.gmtime(ms // 1000)
    line = '[%s.%03d+0000][%d.%03ds][info][gc          ] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) 50M->10M(380M) 1.000ms\n' % (
        time.strftime('%Y-%m-%dT%H:%M:%S', tm), ms % 1000, up // 1000, up % 1000, i)
    os.rename(path, '%s.%d' % (path, i))  # unique names: an overwritten .1 would be gone unread
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, line.encode())
    os.close(fd)
EOF
wpid=$!
peak=$before
while kill -0 $wpid 2>/dev/null; do
	n=$(nfds)
	[ "$n" -gt "$peak" ] && peak=$n
	sleep 0.05
done
wait $wpid || fail "the writer failed"
# every pause counted (deadline 60 s), then the old generations' grace (2 s) passes
count() { grep '"type":"status"' "$T/out" | tail -1 | grep -o '"gc_pauses_total":[0-9]*' | cut -d: -f2; }
# (until all are counted, or the count has not moved for 10 s; 90 s at most)
# After an inotify queue overflow (a slow build: ASan on a loaded machine) the generations
# renamed away meanwhile are found by name and read one after another, and the loop prints
# no status while it reads thousands of them (a known stall, said in the stop note): so up
# to 60 s without progress are waited for.
end=$((SECONDS + 180)) last="" moved=$SECONDS
while [ $SECONDS -lt $end ] && [ "$(count)" != "$N" ] && [ $((SECONDS - moved)) -lt 60 ]; do
	c=$(count)
	[ "$c" != "$last" ] && last=$c moved=$SECONDS
	sleep 0.2
done
# A writer that rotates as fast as it can, without waiting for the reader:
# generations created and renamed away before stwtop looked are opened under
# their new names, so every line arrives, once.
echo "pauses counted: $(count) of $N"
[ "$(count)" = "$N" ] || fail "$(count) pauses counted of the $N written: lines of fast rotations lost or doubled"
# the drained generations are closed once read (at most 8 at once): give them time
for _ in $(seq 120); do [ "$(nfds)" -le "$before" ] && break; sleep 0.5; done
after=$(nfds)
echo "fds: $before before, at most $peak during, $after after $N rotations"
[ "$after" = "$before" ] || fail "fd leak: $before descriptors before, $after after $N rotations"
[ "$peak" -le $((before + 9)) ] || fail "$peak descriptors at once: more than the 8 old generations it may drain"
kill -0 $LPID 2>/dev/null || fail "stwtop died: $(tail -c 300 "$T/err")"
kill -TERM $LPID
wait $LPID
rc=$?
LPID=""
[ $rc = 0 ] || fail "stwtop exited $rc on SIGTERM"
grep -Eq 'AddressSanitizer|runtime error' "$T/err" && fail "sanitizer: $(head -c 500 "$T/err")"
[ $fails = 0 ] && echo "rotation_fds: all passed" || { echo "rotation_fds: $fails failed"; exit 1; }
