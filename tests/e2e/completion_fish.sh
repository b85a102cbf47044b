#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion_fish.sh BIN — completions/stwtop.fish in a real fish: `fish -n`
# parses it, and fish's own completion engine (`complete -C LINE`) offers
# every option of --help after `--`, the themes after --theme and --theme=,
# the demos after --demo=, Europe/Paris for --tz Europe/Pa, the pid of a
# running JVM (described by its command line) and not of another process after
# --pid, files after --gc. Exit 77 without fish (apt-get install fish).
source "$(dirname "$0")/lib/completion.bash" "$@"
command -v fish >/dev/null || { echo "skip: fish is not installed (apt-get install fish)"; exit 77; }

fish -n "$C/stwtop.fish" 2>"$T/n.err" && ok "fish -n: it parses" || fail "fish -n: $(cat "$T/n.err")"

# comp LINE: the candidates (without their descriptions), sorted; run from $T/tree
comp() {
	(cd "$T/tree" && fish --no-config -c "source '$C/stwtop.fish'; complete -C '$1'" 2>"$T/comp.err") |
		cut -f1 | grep . | sort -u
	[ -s "$T/comp.err" ] && fail "fish said, completing '$1': $(head -3 "$T/comp.err")"
}
make_tree

same "$(want_options)" "$(comp 'stwtop --' | grep -vx -- '--demo=')" "'stwtop --' offers the options of --help"
same "$(want_themes)" "$(comp 'stwtop --theme ')" "'--theme ' offers the themes"
same "$(want_themes | sed 's/^/--theme=/')" "$(comp 'stwtop --theme=')" "'--theme=' offers the themes"
same "$(want_demos | sed 's/^/--demo=/')" "$(comp 'stwtop --demo=')" "'--demo=' offers the demos"
same "Europe/Paris" "$(comp 'stwtop --tz Europe/Pa')" "'--tz Europe/Pa' completes to Europe/Paris"
same "thread.txt" "$(comp 'stwtop --gc threa')" "'--gc threa' completes to thread.txt"
same "sub.d/" "$(comp 'stwtop --cgroup ')" "--cgroup offers folders only"

if start_jvm; then
	(cd "$T/tree" && fish --no-config -c "source '$C/stwtop.fish'; complete -C 'stwtop --pid '") >"$T/pids" 2>&1
	grep -q "^$JPID	java .*Idle.java" "$T/pids" && ok "--pid offers the running JVM $JPID with its command line" ||
		fail "--pid does not offer the JVM $JPID: $(head -5 "$T/pids")"
	grep -q "^$DPID	" "$T/pids" && fail "--pid offers $DPID, a sleep(1)" || ok "--pid leaves out a process that is not a JVM"
else
	echo "skip: no java here to check --pid against (apt-get install openjdk-17-jdk-headless)"
fi
done_tests
