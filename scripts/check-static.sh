#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-static.sh — the fully static binary (DEPS.md §4) in a chroot that holds
# nothing but it (and the demo recording, plain data): no terminfo database, no
# locale files, no shared libraries. Checks, in tmux:
#   TERM=xterm-256color  -> the dashboard, from the built-in terminfo entry (ASCII
#                           glyphs: static glibc finds no UTF-8 locale), temp files gone at exit
#   TERM=xterm-kitty     -> the same (a type the pod has never heard of)
#   TERM=dumb            -> line mode
#   no /proc             -> a log is followed; --pid and discovery say /proc is not mounted
#   no /tmp              -> the terminfo fallback says why it failed and the fix (TMPDIR)
#   --metrics            -> refused at start, exit 2, pointing at --metrics-textfile
# Needs root (chroot). Usage: scripts/check-static.sh [BUILD_DIR] (default build-static)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$ROOT/build-static}
[ "$(id -u)" = 0 ] || { echo "check-static.sh: needs root for chroot"; exit 1; }
CHROOT=$(command -v chroot || echo /usr/sbin/chroot)
cmake -S "$ROOT" -B "$B" -DSTWTOP_STATIC=ON -DSTWTOP_TESTS=OFF -DSTWTOP_WERROR=ON >/dev/null || exit 1
cmake --build "$B" -j2 2>&1 | grep -Ei 'warning|error' && { echo "FAIL: the static link warned"; exit 1; }
file "$B/stwtop" | grep -q 'statically linked' || { echo "FAIL: not statically linked"; exit 1; }
R=$(mktemp -d)
T="tmux -L stwtop-static-$$ -f /dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$R"' EXIT
mkdir -p "$R/bin" "$R/tmp" "$R/demo"
chmod 1777 "$R/tmp"
cp "$B/stwtop" "$R/bin/"
cp -r "$ROOT/data/demo/throttle-stop" "$R/demo/"
fails=0
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
wait_for() {
	local deadline=$(( $(now_ms) + ${2:-20} * 1000 ))
	until $T capture-pane -p -J -S -200 -t s:0.0 >"$R/screen" 2>/dev/null && grep -Eq -- "$1" "$R/screen"; do
		[ "$(now_ms)" -ge "$deadline" ] && { echo "FAIL: timeout waiting for /$1/"; cat "$R/screen"; fails=$((fails + 1)); return 1; }
		sleep 0.05
	done
	echo "ok: /$1/"
}
run() {   # TERM
	$T kill-server 2>/dev/null
	T="tmux -L stwtop-static-$$-$1 -f /dev/null"
	$T new-session -d -s s -x 120 -y 40 "env -i TERM=$1 LANG=C.UTF-8 TMPDIR=/tmp STWTOP_DEMO_DIR=/demo \
		$CHROOT '$R' /bin/stwtop --demo --demo-speed 40; echo EXITED rc=\$?; sleep 600"
}
for term in xterm-256color xterm-kitty; do
	run $term
	# no terminfo in the chroot: said until a key, and what came meanwhile follows it
	wait_for "no terminfo entry for TERM=$term: using the built-in xterm-256color"
	sleep 1
	$T send-keys -t s:0.0 Right
	wait_for 'replay finished'
	wait_for '^- Stops - :reaching safepoint  #operation'
	ls "$R/tmp" | grep -q '^stwtop-ti-' && echo "ok: built-in terminfo written" || { echo "FAIL: no temporary terminfo"; fails=$((fails + 1)); }
	$T send-keys -t s:0.0 q
	wait_for 'EXITED rc=0'
	[ -z "$(ls -A "$R/tmp")" ] && echo "ok: temporary files removed" || { echo "FAIL: left in /tmp: $(ls -A "$R/tmp")"; fails=$((fails + 1)); }
done
run dumb
wait_for 'TERM=dumb cannot move the cursor; using line mode'
wait_for 'crit new +cpu-throttled-during-stop'
wait_for 'EXITED rc=0'
# no /proc in the chroot: following a log works (the inotify descriptor is checked
# without /proc); finding the JVM says /proc is missing, not that the process is
$T kill-server 2>/dev/null
T="tmux -L stwtop-static-$$-noproc -f /dev/null"
cp "$R/demo/throttle-stop/gc.log" "$R/tmp/gc.log"
$T new-session -d -s s -x 160 -y 40 "env -i TERM=dumb TMPDIR=/tmp $CHROOT '$R' /bin/stwtop --plain --gc /tmp/gc.log; echo EXITED rc=\$?; sleep 600"
wait_for 'warn new +ttsp-spike'
$T send-keys -t s:0.0 C-c
wait_for 'EXITED rc=0'
for args in "--pid 1 --plain" "--plain"; do
	$T kill-server 2>/dev/null
	T="tmux -L stwtop-static-$$-noproc${args// /} -f /dev/null"
	$T new-session -d -s s -x 200 -y 40 "env -i TERM=dumb $CHROOT '$R' /bin/stwtop $args; echo EXITED rc=\$?; sleep 600"
	wait_for '/proc is not mounted here: finding the JVM'
	wait_for 'EXITED rc=[12]'
done
rm -f "$R/tmp/gc.log"
# --metrics: the static binary cannot load libmicrohttpd; it says so at start, names the way that
# works, and exits 2 (a sidecar image with it would crash-loop: docs/fleet.md, the image)
out=$(env -i "$CHROOT" "$R" /bin/stwtop --plain --json --gc /tmp/gc.log --metrics 0.0.0.0:9612 2>&1 </dev/null)
rc=$?
if [ $rc = 2 ] && printf '%s' "$out" | grep -q -- '--metrics 0.0.0.0:9612: this stwtop was built without libmicrohttpd (a static build); use --metrics-textfile FILE'; then
	echo "ok: --metrics refused: $out"
else
	echo "FAIL: --metrics in the static binary: rc $rc: $out"; fails=$((fails + 1))
fi
# no /tmp at all (a pod whose /tmp is not there or not writable): the reason and the fix
rmdir "$R/tmp"
$T kill-server 2>/dev/null
T="tmux -L stwtop-static-$$-notmp -f /dev/null"
$T new-session -d -s s -x 250 -y 40 "env -i TERM=xterm-kitty STWTOP_DEMO_DIR=/demo $CHROOT '$R' /bin/stwtop --demo --demo-speed 40; echo EXITED rc=\$?; sleep 600"
wait_for 'could not be written to /tmp: No such file or directory \(set TMPDIR to a writable directory\)'
[ $fails = 0 ] && echo "check-static: all passed" || { echo "check-static: $fails failed"; exit 1; }
