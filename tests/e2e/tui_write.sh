#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_write.sh BIN — w writes the report of everything read so far to
# ./stwtop-report-<UTC time>.txt and says the path on the bottom line: after
# the gc-stop demo's replay it is the text `stwtop --report` prints for the
# same files, byte for byte; a second w the same second does not overwrite the
# first. When the working directory cannot be written (here: removed under the
# running program) the report goes to $TMPDIR, and when that fails too the
# bottom line says why.
source "$(dirname "$0")/lib/tmux.bash" "$@"

DEMO=$(cd "$TESTS/../data/demo/gc-stop" && pwd -P)
fmt=$(sed -n 's/^nginx-format //p' "$DEMO/demo.conf")
# the demo's sources in demo.conf's order
TZ=UTC "$BIN" --report --gc "$DEMO/gc.log" --cpustat-log "$DEMO/cpustat.log" --schedstat-log "$DEMO/schedstat.log" \
	--vmstat-log "$DEMO/vmstat.log" --nginx "$DEMO/access.log" --nginx-format "$fmt" >"$TMPD/report.txt"
NAME_RE='stwtop-report-[0-9]{8}T[0-9]{6}Z(-[0-9]+)?\.txt'

start 120 40 "TERM=tmux-256color '$BIN' --demo=gc-stop --demo-speed 40"
expect 'replay finished' 30
keys w
expect "^ report written to $TMPD/$NAME_RE " 5
f1=$(grep -oE "$TMPD/$NAME_RE" "$TMPD/screen" | head -1)
if cmp -s "$TMPD/report.txt" "$f1"; then ok "the file is what --report prints"; else
	fail "the file differs from --report: $(diff "$TMPD/report.txt" "$f1" | head -5)"; fi
keys w
wait_gone "report written to $f1 " 5
f2=$(grep -oE "$TMPD/$NAME_RE" "$TMPD/screen" | head -1)
[ -n "$f2" ] && [ "$f2" != "$f1" ] && cmp -s "$f1" "$f2" && ok "a second w: another file ($(basename "$f2"))" \
	|| fail "second w: '$f2' after '$f1'"
keys q
expect 'EXITED rc=0' 10

# the working directory goes away; $TMPDIR does not exist yet, then does
fresh
mkdir "$TMPD/cwd"
start 240 40 "cd cwd && TMPDIR='$TMPD/tmp' TERM=tmux-256color '$BIN' --demo=gc-stop --demo-speed 40"
expect 'replay finished' 30
rmdir "$TMPD/cwd"
keys w
expect "could not write the report: the working directory is not writable \(No such file or directory\); $TMPD/tmp/$NAME_RE: No such file or directory" 5
mkdir "$TMPD/tmp"
keys w
expect "^ the working directory is not writable \(No such file or directory\); report written to $TMPD/tmp/$NAME_RE" 5
f3=$(grep -oE "$TMPD/tmp/$NAME_RE" "$TMPD/screen" | head -1)
cmp -s "$TMPD/report.txt" "$f3" && ok "in \$TMPDIR: the same report" || fail "\$TMPDIR report differs or is missing: '$f3'"
keys q
expect 'EXITED rc=0' 10
finish
