#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_cut.sh BIN — on small screens: the Heap pane keeps two rows at 60x20
# (committed and used are both drawn), and text that does not fit is cut where a
# word ends, and not after a number ("used 1…" and "on CPU 22…" read as values):
# at 60x20 and 80x24 no ellipsis on the header, the title rows, the verdicts or
# the bottom line follows a digit or a lone letter (but the s of seconds).
# Then (issue 26) the report's wrapped lines and a flagless JVM's first screen end
# where words of their texts end (tests/e2e/lib/whole_words.py), and a command is
# never cut: see below.
source "$(dirname "$0")/lib/tmux.bash" "$@"

rows_of() { # PANE: its body rows
	awk -v p="^─ $1 " '$0 ~ p { on = 1; next } on && /^(─ |UTC )/ { exit } on { n++ } END { print n + 0 }' "$TMPD/screen"
}
# the cut texts: every row but the charts' bodies and the raw lines
cut_rows() { sed -n '/^─ Lines /q;p' "$TMPD/screen" | grep -E '^( stwtop|─ |▸|  (CRIT|WARN|INFO)|● )'; tail -1 "$TMPD/screen"; }
check_cuts() { # WxH
	local n bad
	n=$(cut_rows | grep -o '…' | wc -l)
	# a lone letter before the ellipsis is a word cut short ("was s…"), but for the unit "1.03 s…"
	bad=$(cut_rows | grep -E '([0-9]|[ (][A-Za-rt-z]|[^0-9] s)…')
	[ "$n" -gt 0 ] && ok "$1: $n texts cut" || fail "$1: nothing was cut (the test checks nothing)"
	[ -z "$bad" ] && ok "$1: every cut is at a word's end" || fail "$1: cut inside a word or number: $bad"
}

start 60 20 "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
settle
[ "$(rows_of Heap)" -ge 2 ] && ok "60x20: Heap has $(rows_of Heap) rows" || fail "60x20: Heap has $(rows_of Heap) rows"
check_cuts 60x20
resize 80 24
expect '^─ Verdicts .{50,70}─$' 5
settle
[ "$(rows_of Heap)" -ge 2 ] && ok "80x24: Heap has $(rows_of Heap) rows" || fail "80x24: Heap has $(rows_of Heap) rows"
check_cuts 80x24
keys q
expect 'EXITED rc=0' 10

# The Stops pane's table of the longest stops (issue 26): an operation name longer than
# its column ends in "…", never as a shorter name ("ThreadD")
fresh
start 100 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 40"
expect 'replay finished' 30
settle
grep -oE 'Safepoint "[A-Za-z0-9_]+"' "$SAMPLES/combined/throttle-stop/gc.log" | cut -d'"' -f2 | sort -u >"$TMPD/ops"
grep -oE '│ [0-9]{2}:[0-9]{2}:[0-9]{2} [^ ]+' "$TMPD/screen" | awk '{print $3}' >"$TMPD/cells"
n=$(wc -l <"$TMPD/cells") bad=0
while read -r c; do
	case "$c" in *…) grep -q "^${c%…}" "$TMPD/ops" || bad=$((bad + 1)) ;; *) grep -qx "$c" "$TMPD/ops" || bad=$((bad + 1)) ;; esac
done <"$TMPD/cells"
[ "$n" -gt 0 ] && [ "$bad" = 0 ] && ok "100x40: $n operation names whole or marked cut" ||
	fail "100x40: $bad of $n operation names cut unmarked: $(tr '\n' ' ' <"$TMPD/cells")"
keys q
expect 'EXITED rc=0' 10

# The report (issue 26): no line of --report ends inside a word of the verdict, evidence,
# advice or note it wraps (the texts whole from --report --json).
X=$TESTS/samples/combined/throttle-stop
R=(--gc "$X/gc.log" --cpustat-log "$X/cpustat.log" --schedstat-log "$X/schedstat.log" --vmstat-log "$X/vmstat.log"
   --nginx "$X/logs/access.log" --nginx-format '$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time urt=$upstream_response_time rt=$request_time')
if command -v jq >/dev/null; then
	TZ=UTC "$BIN" --report --json "${R[@]}" 2>/dev/null |
		jq -r '(.verdicts[] | .title, .evidence[], .advice), .notes[]' >"$TMPD/report-texts"
	TZ=UTC "$BIN" --report "${R[@]}" >"$TMPD/report" 2>/dev/null
	if out=$(python3 "$TESTS/e2e/lib/whole_words.py" "$TMPD/report-texts" "$TMPD/report"); then
		ok "--report: every wrapped line ends at a word ($(head -1 <<<"$out"))"
	else
		fail "--report: $out"
	fi
	# the Enter view of the same data (the demo), at two sizes: every row of the
	# Verdicts pane, titles and evidence, ends at a word of the report's texts
	for size in "120 40" "80 30"; do
		set -- $size
		fresh
		start "$1" "$2" "TZ=UTC TERM=tmux-256color '$BIN' --demo --demo-speed 40"
		expect 'replay finished' 30
		keys Enter
		expect 'Esc collapses' 5
		expect ': from [0-9:.]+ to [0-9:.]+' 5
		settle
		awk '/^─ Verdicts /{on=1; next} on && /^─ /{exit} on' "$TMPD/screen" >"$TMPD/vrows"
		if out=$(python3 "$TESTS/e2e/lib/whole_words.py" "$TMPD/report-texts" "$TMPD/vrows"); then
			ok "${1}x$2 Enter view: every row ends at a word ($(head -1 <<<"$out"))"
		else
			fail "${1}x$2 Enter view: $out"
		fi
		keys q
		expect 'EXITED rc=0' 10
	done
fi

# The first screen of a JVM that logs nothing (issue 26: "by hand: jcmd 26598 VM.log"
# was its last row): at 200x50, 120x40, 80x24 and 60x20 every row of the Verdicts pane ends at
# a word of the hint stwtop logged, a note shortened to fit ends at a clause, the
# command is on the screen whole or not at all, and i shows every note whole.
if command -v javac >/dev/null && command -v java >/dev/null; then
	javac -d "$TMPD/classes" "$TESTS/fixtures/java/HsperfTarget.java" || fail "javac"
	( cd "$TMPD" && exec java -Xmx64m -cp classes HsperfTarget 300 ) >"$TMPD/app" 2>&1 &
	JPID=$!
	trap 'kill -KILL $JPID 2>/dev/null; cleanup' EXIT
	for i in $(seq 1 100); do grep -q READY "$TMPD/app" && break; sleep 0.1; done
	verdict_rows() { awk '/^─ Verdicts /{on=1; next} on && /^(─ |┌)/{exit} on' "$TMPD/screen"; }
	for size in "200 50" "120 40" "80 24" "60 20"; do
		set -- $size
		fresh
		rm -rf "$TMPD/state"
		start "$1" "$2" "XDG_STATE_HOME='$TMPD/state' TERM=tmux-256color '$BIN' --pid $JPID"
		expect 'note: no GC log file' 15
		for i in $(seq 1 50); do grep -q 'hint: no GC log file' "$TMPD/state/stwtop/stwtop.log" 2>/dev/null && break; sleep 0.1; done
		settle
		sed -n 's/^stwtop: hint: //p' "$TMPD/state/stwtop/stwtop.log" >"$TMPD/hints"
		verdict_rows >"$TMPD/rows"
		if out=$(python3 "$TESTS/e2e/lib/whole_words.py" "$TMPD/hints" "$TMPD/rows"); then
			ok "${1}x$2: the notes end at words and clauses ($(head -1 <<<"$out"))"
		else
			fail "${1}x$2: $out"
		fi
		cmd=$(grep -o 'jcmd [0-9]* VM.log [^,;]*' "$TMPD/hints" | head -1)
		[ -n "$cmd" ] || fail "no jcmd command in the hint: $(cat "$TMPD/hints")"
		joined=$(tr -s ' \n' ' ' <"$TMPD/rows")
		if grep -q 'jcmd' <<<"$joined"; then
			grep -qF "$cmd" <<<"$joined" && ok "${1}x$2: the jcmd command is whole" ||
				fail "${1}x$2: the command is cut: $(grep -o 'jcmd.*' <<<"$joined")"
		else
			ok "${1}x$2: the command is left out whole (i shows it)"
		fi
		keys i
		expect 'stwtop notes' 5
		settle
		# the box's rows, borders off, joined (a word longer than the box is broken
		# across rows: compared without the spaces)
		box=$(sed -n '/┌─ stwtop notes/,/└/p' "$TMPD/screen" | sed 's/^[^│]*│//; s/│.*$//' | tr -d ' \n')
		grep -qF "$(tr -d ' ' <<<"$cmd")" <<<"$box" && ok "${1}x$2: i shows the command whole" ||
			fail "${1}x$2: i: the command is not whole in the notes box"
		keys Escape
		expect_gone 'stwtop notes' 5
	done
fi
finish
