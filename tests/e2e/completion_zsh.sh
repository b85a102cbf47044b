#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion_zsh.sh BIN — completions/_stwtop in a real zsh: `zsh -n` parses
# it, and an interactive zsh (in a zpty, compinit with completions/ on $fpath)
# completes typed lines with it: a widget wraps compadd to write down every
# candidate, then runs zsh's own completion (_main_complete). It must offer
# every option of --help after `--`, the themes after --theme and --theme=,
# the demos after --demo=, Europe/Paris for --tz Europe/Pa, the pid of a
# running JVM and not of another process after --pid, JSON files and folders
# after --config. Exit 77 without zsh (apt-get install zsh).
source "$(dirname "$0")/lib/completion.bash" "$@"
command -v zsh >/dev/null || { echo "skip: zsh is not installed (apt-get install zsh)"; exit 77; }

zsh -n "$C/_stwtop" 2>"$T/n.err" && ok "zsh -n: it parses" || fail "zsh -n: $(cat "$T/n.err")"

# drive.zsh CDIR OUT LINE: type LINE and ^T (the wrapped completion) in an
# interactive zsh; ^U and a command that prints DONE tell when it is over
cat >"$T/drive.zsh" <<'EOF'
zmodload zsh/zpty || exit 3
CDIR=$1 OUT=$2 LINE=$3
zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($CDIR \$fpath); autoload -Uz compinit; compinit -u -D -d $OUT.zcompdump"
zpty -w z "_cap_main() { compadd() { local -a __c; builtin compadd -O __c \"\$@\"; print -rl -- \$__c >>$OUT; builtin compadd \"\$@\" }; _main_complete; unfunction compadd }"
zpty -w z "zle -C cap-complete complete-word _cap_main; bindkey '^T' cap-complete"
# READY from zle-line-init: the line editor owns the terminal (raw mode), so
# the ^T and ^U typed next reach it and not the tty's own line editing, which
# would eat ^U and with it the line under load
zpty -w z "zle-line-init() { [[ -n \$__r ]] || { __r=1; print -rn -- \${(L):-ZLE}READY } }; zle -N zle-line-init"
zpty -r -m z x '*zleREADY*' || exit 4
zpty -w -n z "$LINE"$'\x14'
zpty -w z $'\x15'"print DONE"
zpty -r -m z x '*DONE*' || exit 5
zpty -d z
EOF

# comp LINE: the candidates, sorted; from $T/tree
comp() {
	: >"$T/out"
	(cd "$T/tree" && timeout 60 zsh -f "$T/drive.zsh" "$C" "$T/out" "$1" >/dev/null 2>"$T/drive.err") ||
		fail "completing '$1' in zsh: exit $? $(head -3 "$T/drive.err")"
	grep . "$T/out" | sort -u
}
make_tree

same "$(want_options)" "$(comp 'stwtop --')" "'stwtop --' offers the options of --help"
same "--theme" "$(comp 'stwtop --th')" "'--th' completes to --theme"
same "$(want_themes)" "$(comp 'stwtop --theme ')" "'--theme ' offers the themes"
same "$(want_themes)" "$(comp 'stwtop --theme=')" "'--theme=' offers the themes"
same "$(want_demos)" "$(comp 'stwtop --demo=')" "'--demo=' offers the demos"
same "Europe/Paris" "$(comp 'stwtop --tz Europe/Pa')" "'--tz Europe/Pa' completes to Europe/Paris"
same "$(printf '%s\n' sub.d thresholds.json)" "$(comp 'stwtop --config ')" "--config offers JSON files and folders"
same "thread.txt" "$(comp 'stwtop --gc threa')" "'--gc threa' completes to thread.txt"

if start_jvm; then
	pids=$(comp 'stwtop --pid ')
	printf '%s\n' "$pids" | grep -qx "$JPID" && ok "--pid offers the running JVM $JPID" ||
		fail "--pid does not offer the JVM $JPID: $(printf '%s\n' "$pids" | tr '\n' ' ')"
	printf '%s\n' "$pids" | grep -qx "$DPID" && fail "--pid offers $DPID, a sleep(1)" || ok "--pid leaves out a process that is not a JVM"
else
	echo "skip: no java here to check --pid against (apt-get install openjdk-17-jdk-headless)"
fi
done_tests
