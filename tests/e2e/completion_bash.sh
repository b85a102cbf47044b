#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion_bash.sh BIN — completions/stwtop.bash in a real bash: sourcing it
# registers `complete -F _stwtop stwtop`, and the function, driven as readline
# drives it (COMP_WORDS, COMP_CWORD), offers: every option of --help after
# `--` and nothing else, theme names after --theme (also as --theme=, in both
# ways bash may split it), the demos after --demo= (and nothing after a bare
# --demo, whose name only follows an '='), zones stwtop accepts after --tz,
# the pid of a running JVM and not of another process after --pid, JSON files
# and folders after --config, every file after --gc, folders after --cgroup.
source "$(dirname "$0")/lib/completion.bash" "$@"

reg=$(bash -c "source '$C/stwtop.bash' && complete -p stwtop" 2>&1)
[ "$reg" = "complete -F _stwtop stwtop" ] && ok "sourcing it registers: $reg" || fail "complete -p stwtop: $reg"

# comp WORD... : the replies, sorted, one per line; run in its own bash, from $T/tree
comp() {
	(
		cd "$T/tree" || exit 1
		export C
		bash -c 'source "$C/stwtop.bash" || exit 1
			COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
			_stwtop
			printf "%s\n" "${COMPREPLY[@]}"' comp "$@" | grep . | sort -u
	)
}
make_tree

same "$(want_options)" "$(comp stwtop --)" "'stwtop --' offers the options of --help"
same "$(want_options)" "$(comp stwtop --plain '')" "after a flag, the options again"
same "--theme" "$(comp stwtop --th)" "'--th' completes to --theme"
same "$(want_themes)" "$(comp stwtop --theme '')" "'--theme ' offers the themes"
same "$(want_themes)" "$(comp stwtop --theme =)" "'--theme=' (split at '=') offers the themes"
same "light" "$(comp stwtop --theme = li)" "'--theme=li' (split at '=') completes to light"
same "--theme=light" "$(COMP_WORDBREAKS=' ' comp stwtop --theme=li)" "'--theme=li' (one word) completes to --theme=light"
same "$(want_demos)" "$(comp stwtop --demo =)" "'--demo=' offers the demos"
same "$(want_options)" "$(comp stwtop --demo '')" "'--demo ' offers options, not demo names (they need '=')"
same "" "$(comp stwtop --interval '')" "nothing to offer after --interval"

zones=$(comp stwtop --tz '')
printf '%s\n' "$zones" | grep -qx utc && printf '%s\n' "$zones" | grep -qx local &&
	printf '%s\n' "$zones" | grep -qx Europe/Paris && ok "--tz offers utc, local and Area/City ($(printf '%s\n' "$zones" | wc -l))" ||
	fail "--tz offers: $(printf '%s\n' "$zones" | head -5 | tr '\n' ' ')"
same "Europe/Paris" "$(comp stwtop --tz Europe/Pa)" "'--tz Europe/Pa' completes to Europe/Paris"
# utc, local and every 8th zone (a run of stwtop each: the machine is shared)
bad=0
while IFS= read -r z; do
	"$BIN" --tz "$z" --version >/dev/null 2>&1 || { bad=$((bad + 1)); [ $bad -le 3 ] && fail "stwtop refuses the offered zone '$z'"; }
done < <(printf '%s\n' "$zones" | awk 'NR <= 2 || NR % 8 == 0')
[ $bad = 0 ] && ok "stwtop --tz accepts the zones offered"

same "$(printf '%s\n' sub.d thresholds.json)" "$(comp stwtop --config '')" "--config offers JSON files and folders"
same "$(printf '%s\n' sub.d thread.txt thresholds.json)" "$(comp stwtop --gc '')" "--gc offers every file"
same "thread.txt" "$(comp stwtop --report --gc threa)" "'--gc threa' completes to thread.txt"
same "sub.d" "$(comp stwtop --cgroup '')" "--cgroup offers folders only"
same "$(printf '%s\n' sub.d/ thresholds.json | sed 's,/$,,')" "$(comp stwtop --theme ./ | sed 's,^\./,,')" \
	"'--theme ./' offers JSON files and folders"

if start_jvm; then
	pids=$(comp stwtop --pid '')
	printf '%s\n' "$pids" | grep -qx "$JPID" && ok "--pid offers the running JVM $JPID" ||
		fail "--pid does not offer the JVM $JPID: $(printf '%s\n' "$pids" | tr '\n' ' ')"
	printf '%s\n' "$pids" | grep -qx "$DPID" && fail "--pid offers $DPID, a sleep(1)" || ok "--pid leaves out a process that is not a JVM"
	printf '%s\n' "$pids" | grep -qvx '[0-9]*' && fail "--pid offers something that is not a pid: $pids"
	same "$JPID" "$(comp stwtop --pid "$JPID" | grep -x "$JPID")" "'--pid $JPID' completes to itself"
else
	echo "skip: no java here to check --pid against (apt-get install openjdk-17-jdk-headless)"
fi
done_tests
