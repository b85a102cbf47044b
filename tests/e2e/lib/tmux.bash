# SPDX-License-Identifier: GPL-2.0-or-later
# tmux.bash — the harness of the dashboard's end-to-end tests (sourced, not a test):
# the real binary in a detached tmux session on a private server (-L, no user
# config), at a fixed size; wait for text on the screen with a deadline, never a
# fixed sleep; the server is killed on exit; a failure prints the screen.
#   source "$(dirname "$0")/lib/tmux.bash" "$@"
BIN=${1:?usage: $0 path/to/stwtop}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
TESTS=${STWTOP_TEST_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SAMPLES=$TESTS/samples
NAME=$(basename "$0" .sh)
SOCK=stwtop-e2e-$$
T="tmux -L $SOCK -f /dev/null"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-e2e.XXXXXX")
fails=0
cleanup() { $T kill-server 2>/dev/null; rm -rf "$TMPD"; }
trap cleanup EXIT
command -v tmux >/dev/null || { echo "$NAME: tmux is not installed"; exit 1; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# start W H COMMAND: the command runs in a shell in the session; its exit status
# is printed so that a crash shows on the screen
start() {
	local w=$1 h=$2; shift 2
	$T new-session -d -s e2e -x "$w" -y "$h" -e LANG=C.UTF-8 -e LC_ALL=C.UTF-8 \
		"cd '$TMPD' && $*; echo \"EXITED rc=\$?\"; sleep 600"
}
# fresh: a new server for the next start (the old one is killed; cleanup kills the last)
fresh() {
	$T kill-server 2>/dev/null
	NSERVER=$(( ${NSERVER:-0} + 1 ))
	T="tmux -L $SOCK-$NSERVER -f /dev/null"
}
screen() { $T capture-pane -p -t e2e:0.0 > "$TMPD/screen" 2>/dev/null; }
screen_ansi() { $T capture-pane -e -p -t e2e:0.0 > "$1" 2>/dev/null; }
# wait_for REGEX [SECONDS]: true once the screen matches
wait_for() {
	local re=$1 deadline=$(( $(now_ms) + ${2:-15} * 1000 ))
	while :; do
		screen && grep -Eq -- "$re" "$TMPD/screen" && return 0
		[ "$(now_ms)" -ge "$deadline" ] && return 1
		sleep 0.05
	done
}
# settle [SECONDS]: wait until two captures 100 ms apart are the same (a frame being
# written shows half drawn: under ASan a frame takes long enough to be caught mid-way);
# leaves the settled screen in $TMPD/screen
settle() {
	local deadline=$(( $(now_ms) + ${1:-5} * 1000 ))
	screen
	while :; do
		cp "$TMPD/screen" "$TMPD/screen.prev"
		sleep 0.1
		screen
		cmp -s "$TMPD/screen" "$TMPD/screen.prev" && return 0
		[ "$(now_ms)" -ge "$deadline" ] && return 1
	done
}
# wait_gone REGEX [SECONDS]: true once the screen no longer matches
wait_gone() {
	local re=$1 deadline=$(( $(now_ms) + ${2:-15} * 1000 ))
	while :; do
		screen && ! grep -Eq -- "$re" "$TMPD/screen" && return 0
		[ "$(now_ms)" -ge "$deadline" ] && return 1
		sleep 0.05
	done
}
fail() {
	echo "FAIL: $*"
	echo "--- screen ---"; cat "$TMPD/screen" 2>/dev/null; echo "--------------"
	fails=$((fails + 1))
}
ok() { echo "ok: $*"; }
expect() { if wait_for "$1" "${2:-15}"; then ok "screen shows /$1/"; else fail "timeout waiting for /$1/"; fi; }
expect_gone() { if wait_gone "$1" "${2:-15}"; then ok "screen lost /$1/"; else fail "/$1/ did not go away"; fi; }
keys() { $T send-keys -t e2e:0.0 "$@"; }
resize() { $T resize-window -t e2e -x "$1" -y "$2"; }
# cursor_times: the cursor's time as the axis, the Stops title and the Lines title show it
cursor_times() {
	screen
	local axis stops lines
	axis=$(grep -E '^(UTC|up) ' "$TMPD/screen" | grep -oE '▲[0-9:.]+|[0-9:.]+▲' | tr -d '▲')
	stops=$(grep -E '^─ Stops ' "$TMPD/screen" | grep -oE 'at [0-9:.]+[0-9]' | head -1 | cut -c4-)
	lines=$(grep -E '^─ Lines ' "$TMPD/screen" | grep -oE 'at [0-9:.]+[0-9]' | head -1 | cut -c4-)
	echo "$axis $stops $lines"
}
# expect_cursor T: wait until the axis, Stops and Lines all show T
expect_cursor() {
	local want="$1 $1 $1" deadline=$(( $(now_ms) + 10000 )) got
	while :; do
		got=$(cursor_times)
		[ "$got" = "$want" ] && { ok "axis, Stops and Lines all at $1"; return 0; }
		[ "$(now_ms)" -ge "$deadline" ] && { fail "cursor: want '$want', got '$got'"; return 1; }
		sleep 0.05
	done
}
# the pid of stwtop in the session
app_pid() { pgrep -n -f "^$BIN" -P "$($T display -p -t e2e:0.0 '#{pane_pid}')"; }
finish() {
	if [ "$fails" = 0 ]; then echo "$NAME: all passed"; exit 0; fi
	echo "$NAME: $fails failed"; exit 1
}
