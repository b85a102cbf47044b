#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# exit_status.sh BIN — a live run's exit status (DESIGN: 0 ok, 1 a source could
# not be read, the message says which and why), in line mode (stopped by SIGINT
# and SIGTERM) and on the dashboard (q): a directory, a file it may not read
# (as nobody), a probe that cannot open -> 1 with the path and the reason; a file
# that does not exist yet (waited for), or a directory later replaced by a log
# that is then followed -> 0.
source "$(dirname "$0")/lib/tmux.bash" "$@"
chmod 755 "$TMPD"   # the nobody runs need to reach it
GC=$SAMPLES/throttle/control/gc.log
mkdir "$TMPD/adir"

# plain NAME SIGNAL WANT_RC STDERR_REGEX WAIT_REGEX [--as-nobody] ARGS...: line mode in the background;
# once stderr matches WAIT_REGEX, the signal; then the exit status and what stderr says
plain() {
	local name=$1 sig=$2 want=$3 re=$4 wait_re=$5 pre=()
	shift 5
	if [ "$1" = --as-nobody ]; then
		pre=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
		shift
	fi
	(cd "$TMPD" && exec "${pre[@]}" "$BIN" --plain --interval 200 "$@") >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	local pid=$! deadline=$(( $(now_ms) + 15000 ))
	until grep -Eq -- "$wait_re" "$TMPD/$name.err" && [ -s "$TMPD/$name.out" ]; do
		if [ "$(now_ms)" -ge "$deadline" ]; then fail "$name: stderr never matched /$wait_re/: $(cat "$TMPD/$name.err")"; break; fi
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid"
	local rc=$?
	[ "$rc" = "$want" ] && ok "$name: exit $rc after SIG$sig" || fail "$name: exit $rc after SIG$sig, want $want: $(tail -3 "$TMPD/$name.err")"
	if [ -n "$re" ]; then
		tail -1 "$TMPD/$name.err" | grep -Eq -- "$re" && ok "$name: the last message says /$re/" \
			|| fail "$name: last message $(tail -1 "$TMPD/$name.err"), want /$re/"
	fi
}

plain dir INT 1 "^stwtop: could not read $TMPD/adir: Is a directory" 'Is a directory' --gc "$TMPD/later.log" --nginx "$TMPD/adir"
plain dir-term TERM 1 "^stwtop: could not read $TMPD/adir: Is a directory" 'Is a directory' --nginx "$TMPD/adir"
plain not-yet INT 0 '' 'following .*later.log' --gc "$TMPD/later.log"
plain readable TERM 0 '' 'following' --gc "$GC"
plain cgroup TERM 1 "^stwtop: could not read .*$TMPD/adir" 'error' --gc "$GC" --cgroup "$TMPD/adir"
# a directory replaced by a log that is then read: it can be read when the run ends
mkdir "$TMPD/becomes"
(cd "$TMPD" && exec "$BIN" --plain --interval 200 --gc "$TMPD/becomes") >"$TMPD/b.out" 2>"$TMPD/b.err" &
bpid=$!
deadline=$(( $(now_ms) + 15000 ))
until grep -q 'Is a directory' "$TMPD/b.err" || [ "$(now_ms)" -ge "$deadline" ]; do sleep 0.05; done
rmdir "$TMPD/becomes" && cp "$GC" "$TMPD/becomes"
until grep -q 'gc [1-9][0-9]* pauses' "$TMPD/b.out" || [ "$(now_ms)" -ge "$deadline" ]; do sleep 0.05; done
grep -q 'gc [1-9][0-9]* pauses' "$TMPD/b.out" && ok "the directory replaced by a log is read" || fail "the new log was not read: $(tail -2 "$TMPD/b.out")"
kill -TERM $bpid; wait $bpid; rc=$?
[ $rc = 0 ] && ok "recovered source: exit 0" || fail "recovered source: exit $rc: $(tail -2 "$TMPD/b.err")"
# no permission (as nobody: root reads everything)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$BIN" --version >/dev/null 2>&1; then
	cp "$GC" "$TMPD/secret.log"
	chmod 600 "$TMPD/secret.log"
	plain secret INT 1 "^stwtop: could not read $TMPD/secret.log: .*Permission denied" 'Permission denied' --as-nobody --gc "$TMPD/secret.log"
else
	echo "skip: the permission case needs root, setpriv and a binary 'nobody' can run"
fi

# the dashboard: q after the error was shown
start 120 40 "TERM=tmux-256color '$BIN' --gc '$TMPD/later.log' --nginx '$TMPD/adir'"
expect 'adir: Is a directory' 15
# the header says it (tersely when a source is also waiting: "waiting: later.log  1 unreadable")
expect ' 1 (source )?unreadable ' 5
keys q
expect 'EXITED rc=1' 10
expect "^stwtop: could not read $TMPD/adir: Is a directory" 5
fresh
start 120 40 "TERM=tmux-256color '$BIN' --gc '$TMPD/later.log'"
expect 'later.log: does not exist yet; waiting for it' 15
keys q
expect 'EXITED rc=0' 10
grep -q 'could not read' "$TMPD/screen" && fail "a file waited for was called unreadable" || ok "a file waited for is not an error"
fresh
start 120 40 "TERM=tmux-256color '$BIN' --gc '$GC'"
expect '─ Stops ' 15
keys q
expect 'EXITED rc=0' 10
finish
