#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# screenshots.sh [BIN] — regenerate screenshots/ from the real binary: the bundled
# demo in tmux at 120x40 and 80x24, a verdict expanded, the light theme and
# NO_COLOR. For each: NAME.txt (capture-pane -p, the text) and NAME.png (the
# colours as a person sees them: capture-pane -e | aha | headless chromium,
# DEPS.md §6). Needs tmux, aha, chromium and fonts-dejavu-core:
#   apt-get install -y --no-install-recommends tmux aha chromium fonts-dejavu-core
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/build/stwtop}
OUT=$ROOT/screenshots
for tool in tmux aha chromium; do
	command -v $tool >/dev/null || { echo "screenshots.sh: $tool is not installed" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "screenshots.sh: no binary at $BIN (build first)" >&2; exit 1; }
mkdir -p "$OUT"
WORK=$(mktemp -d)
N=0
T="tmux -L stwtop-shots-$$-$N -f /dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
wait_for() {   # REGEX [SECONDS] on the plain text, or on the SGR capture with -e
	local e=""; [ "$1" = -e ] && { e=-e; shift; }
	local deadline=$(( $(now_ms) + ${2:-30} * 1000 ))
	until $T capture-pane $e -p -t shot:0.0 >"$WORK/cap" 2>/dev/null && grep -Eq -- "$1" "$WORK/cap"; do
		[ "$(now_ms)" -ge "$deadline" ] && { echo "screenshots.sh: timeout waiting for /$1/" >&2; cat "$WORK/cap" >&2; exit 1; }
		sleep 0.05
	done
}
wait_gone() {
	local deadline=$(( $(now_ms) + 10000 ))
	while $T capture-pane -p -t shot:0.0 >"$WORK/cap" 2>/dev/null && grep -Eq -- "$1" "$WORK/cap"; do
		[ "$(now_ms)" -ge "$deadline" ] && { echo "screenshots.sh: /$1/ stays" >&2; exit 1; }
		sleep 0.05
	done
}
# run W H ENV...: the demo in a fresh session
run() {
	local w=$1 h=$2; shift 2
	$T kill-server 2>/dev/null || true
	N=$((N + 1))   # a fresh server each time: a dying one may still hold the old socket
	T="tmux -L stwtop-shots-$$-$N -f /dev/null"
	$T new-session -d -s shot -x "$w" -y "$h" -e LANG=C.UTF-8 "env $* TERM=tmux-256color '$BIN' --demo --demo-speed 20"
	wait_for 'replay finished'
	# past the first flash of the new verdicts (the dot before them goes)
	wait_gone '^(●|\*) '
}
# save NAME W H: text and PNG of the current screen
save() {
	local name=$1 w=$2 h=$3
	$T capture-pane -p -t shot:0.0 >"$OUT/$name.txt"
	$T capture-pane -e -p -N -t shot:0.0 >"$WORK/$name.ans"
	aha --black --title "stwtop $name" <"$WORK/$name.ans" >"$WORK/$name.html"
	sed -i 's|<pre>|<pre style="font-family:DejaVu Sans Mono,monospace;font-size:14px;line-height:17px;margin:6px">|' "$WORK/$name.html"
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$WORK/profile" --hide-scrollbars \
		--window-size=$(( w * 843 / 100 + 16 )),$(( h * 17 + 14 )) --screenshot="$OUT/$name.png" \
		"file://$WORK/$name.html" >/dev/null 2>&1
	echo "screenshots/$name.png $(stat -c %s "$OUT/$name.png") bytes"
}

run 120 40
save demo-120x40 120 40
$T send-keys -t shot:0.0 Enter
wait_for '• gc.log:198'
save verdict-expanded 120 40

run 80 24
save demo-80x24 80 24

run 120 40 STWTOP_THEME_DIR="$ROOT/themes"
$T send-keys -t shot:0.0 t
wait_for 'theme light'
save theme-light 120 40

run 120 40 NO_COLOR=1
save no-color 120 40

# a JVM started with no logging flag at all, thrashing in GC (the gc-overhead recordings'
# program): the Stops and Heap panes from the JVM's own counters (hsperfdata)
if command -v javac >/dev/null && command -v java >/dev/null; then
	javac -d "$WORK/classes" "$ROOT/tests/recordings/programs/HeldCache.java"
	( cd "$WORK" && exec java -XX:+UseG1GC -Xmx96m -cp classes HeldCache 3 84 4 20 5 50 0 ) >"$WORK/app" 2>&1 &
	jpid=$!
	trap 'kill $jpid 2>/dev/null; $T kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
	until grep -q 'phase=lead' "$WORK/app" 2>/dev/null; do sleep 0.1; done
	$T kill-server 2>/dev/null || true
	N=$((N + 1))
	T="tmux -L stwtop-shots-$$-$N -f /dev/null"
	$T new-session -d -s shot -x 120 -y 40 -e LANG=C.UTF-8 "env TERM=tmux-256color '$BIN' --pid $jpid"
	until grep -q 'phase=hold' "$WORK/app"; do sleep 0.1; done
	wait_for 'gc-overhead' 30
	sleep 6   # part of the episode on the charts
	save counters-no-flags 120 40
	kill $jpid 2>/dev/null || true
else
	echo "screenshots.sh: no java here: counters-no-flags not made" >&2
fi
