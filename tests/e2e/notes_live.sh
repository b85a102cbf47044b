#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# notes_live.sh BIN — what the input cannot show is said live too, not only in the
# report's NOTES: an nginx log followed with the wrong log_format (the real
# nginx-uct/backlog100 access.log with '$msec $status') gives, once each,
#  - in --plain: a "note: access.log: N of N lines did not match the log format" line;
#  - in --plain --json: one {"type":"note"} object with the first failing line's reason;
#  - on the dashboard: the note in the Verdicts pane;
# and more lines appended later (the count grows) do not print the note again.
source "$(dirname "$0")/lib/tmux.bash" "$@"
A=$SAMPLES/nginx-uct/backlog100/logs/access.log
n=$(wc -l <"$A")

# wait_file FILE REGEX [SECONDS]
wait_file() {
	local deadline=$(( $(now_ms) + ${3:-15} * 1000 ))
	until grep -Eq -- "$2" "$1" 2>/dev/null; do
		[ "$(now_ms)" -ge "$deadline" ] && return 1
		sleep 0.05
	done
}

for mode in text json; do
	cp "$A" "$TMPD/access.log"
	args=(--plain --interval 200 --nginx "$TMPD/access.log" --nginx-format '$msec $status')
	[ $mode = json ] && args+=(--json)
	"$BIN" "${args[@]}" >"$TMPD/$mode.out" 2>"$TMPD/$mode.err" &
	pid=$!
	if [ $mode = text ]; then
		re="^note: access.log: $n of $n lines did not match the log format \\(first at line 1: variable \\\$msec expects"
	else
		re="^\\{\"type\":\"note\",\"schema\":1,\"text\":\"access.log: $n of $n lines did not match the log format"
	fi
	wait_file "$TMPD/$mode.out" "$re" && ok "$mode: the wrong format is said" || fail "$mode: no note: $(head -c 400 "$TMPD/$mode.out")"
	# more lines: the count grows, the note is not printed again
	head -50 "$A" >>"$TMPD/access.log"
	wait_file "$TMPD/$mode.out" "status" 5
	sleep 1   # five status intervals after the append: a second note would be out by now
	kill -TERM $pid; wait $pid
	c=$(grep -c 'did not match the log format' "$TMPD/$mode.out")
	[ "$c" = 1 ] && ok "$mode: said once ($c)" || fail "$mode: the note was printed $c times"
done
jq -s -e '[.[] | select(.type == "note")] | length == 1 and (.[0].text | test("--nginx-conf FILE:NAME"))' \
	"$TMPD/json.out" >/dev/null && ok "json: one note object, with the way out" || fail "json: note object: $(grep note "$TMPD/json.out")"

# the dashboard
cp "$A" "$TMPD/access.log"
start 120 40 "TERM=tmux-256color '$BIN' --nginx '$TMPD/access.log' --nginx-format '\$msec \$status'"
expect "note: access.log: $n of $n lines did not match the log format" 15
grep -A3 '^─ Verdicts' "$TMPD/screen" | grep -q 'note: access.log' && ok "dashboard: the note is in the Verdicts pane" \
	|| fail "dashboard: the note is not under the Verdicts title"
keys q
expect 'EXITED rc=0' 10
[ $fails = 0 ] && echo "$NAME: all passed" || { echo "$NAME: $fails failed"; exit 1; }
