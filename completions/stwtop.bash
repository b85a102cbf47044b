# SPDX-License-Identifier: GPL-2.0-or-later
# stwtop.bash — stwtop(1) completion for bash, installed as
# share/bash-completion/completions/stwtop (bash-completion loads it on the
# first `stwtop <TAB>`), or `source completions/stwtop.bash`. It completes:
#   the options (the list below: tests/unit/test_cli_table.c holds it to
#   core/app/cli.c's table, tests/e2e/completion.sh to --help),
#   --pid: the pids of the running JVMs (named java, or libjvm.so mapped, as
#     the picker finds them), --theme: theme names from where stwtop looks
#     for them, --demo=: the bundled demos, --tz: utc, local and the zones of
#     the tz database, --cgroup: directories, the options that read or write
#     a file: files (--config: JSON files).
# No option takes a verdict id: --config FILE is a JSON object of thresholds
# (`stwtop --help-config` lists their names; docs/verdicts.md the verdicts).

# the folder of this file: an install's data is ../../stwtop (share/stwtop),
# a source tree's is ..
_stwtop_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" 2>/dev/null && pwd)

_stwtop_options='--report --demo --gc --safepoint --nginx --nginx-format --nginx-conf --pid --cgroup
--cpustat-log --schedstat-log --vmstat-log --hs-err --record --replay --jvm-start --interval --plain
--json --brief --tz --theme --no-color --config --help-config --demo-speed --verbose --metrics
--metrics-textfile --enable-jvm-logging --help --version'

# the folders stwtop looks in for $1 (themes or demo), the binary being $2, in
# the order of core/app/theme.c's theme_search_dirs()
_stwtop_data_dirs() {
	local what=$1 exe
	if [[ $what == themes ]]; then
		[[ -n ${STWTOP_THEME_DIR:-} ]] && printf '%s\n' "$STWTOP_THEME_DIR"
		if [[ ${XDG_CONFIG_HOME:-} == /* ]]; then
			printf '%s\n' "$XDG_CONFIG_HOME/stwtop/themes"
		elif [[ ${HOME:-} == /* ]]; then
			printf '%s\n' "$HOME/.config/stwtop/themes"
		fi
	fi
	exe=$(type -P -- "$2" 2>/dev/null) && exe=$(readlink -f -- "$exe") &&
		printf '%s\n' "${exe%/*}/../share/stwtop/$what"
	printf '%s\n' "$_stwtop_here/../../stwtop/$what"
	if [[ $what == demo ]]; then
		printf '%s\n' "$_stwtop_here/../data/demo"
	else
		printf '%s\n' "$_stwtop_here/../themes"
	fi
}

# theme names: the compiled-in one (default, also called dark) and NAME.json files
_stwtop_themes() {
	local d f
	{
		printf '%s\n' default dark
		while IFS= read -r d; do
			for f in "$d"/*.json; do
				[[ -f $f ]] && f=${f##*/} && printf '%s\n' "${f%.json}"
			done
		done < <(_stwtop_data_dirs themes "$1")
	} | sort -u
}

# the bundled demos: folders holding a demo.conf
_stwtop_demos() {
	local d f
	while IFS= read -r d; do
		for f in "$d"/*/demo.conf; do
			[[ -f $f ]] && f=${f%/demo.conf} && printf '%s\n' "${f##*/}"
		done
	done < <(_stwtop_data_dirs demo "$1") | sort -u
}

# the running JVMs: named java, or with libjvm.so mapped (an embedded JVM; the
# maps of other users' processes are readable by root only)
_stwtop_jvm_pids() {
	{
		grep -lsx java /proc/[0-9]*/comm
		grep -lsF /libjvm.so /proc/[0-9]*/maps
	} 2>/dev/null | sed -n 's,^/proc/\([0-9]*\)/[a-z]*$,\1,p' | sort -nu
}

_stwtop_zones() {
	printf '%s\n' utc local
	awk '!/^#/ { print $3 }' /usr/share/zoneinfo/zone1970.tab 2>/dev/null | sort
}

# COMPREPLY from the lines of a command's output, each prefixed with $pre
_stwtop_reply() {
	local w
	while IFS= read -r w; do
		COMPREPLY+=("$pre$w")
	done < <("$@")
}

_stwtop() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' opt='' pre=''
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	if [[ $cur == = && $prev == --* ]]; then
		# "--theme=" (bash splits words at '=', COMP_WORDBREAKS)
		opt=$prev cur=''
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[COMP_CWORD - 2]} == --* ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		# '=' is not a word break here: the reply keeps "--theme="
		opt=${cur%%=*} pre=${cur%%=*}= cur=${cur#*=}
	elif [[ $prev == --* && $prev != --demo ]]; then
		opt=$prev # --demo's name can only follow an '='
	fi
	case $opt in
	--gc | --safepoint | --nginx | --nginx-conf | --cpustat-log | --schedstat-log | --vmstat-log | \
		--hs-err | --record | --replay | --jvm-start | --metrics-textfile)
		compopt -o filenames 2>/dev/null
		_stwtop_reply compgen -f -- "$cur"
		;;
	--config)
		compopt -o filenames 2>/dev/null
		_stwtop_reply compgen -d -- "$cur"
		_stwtop_reply compgen -f -X '!*.json' -- "$cur"
		;;
	--cgroup)
		compopt -o filenames 2>/dev/null
		_stwtop_reply compgen -d -- "$cur"
		;;
	--pid)
		_stwtop_reply compgen -W "$(_stwtop_jvm_pids)" -- "$cur"
		;;
	--theme)
		if [[ $cur == */* ]]; then
			compopt -o filenames 2>/dev/null
			_stwtop_reply compgen -d -- "$cur"
			_stwtop_reply compgen -f -X '!*.json' -- "$cur"
		else
			_stwtop_reply compgen -W "$(_stwtop_themes "${COMP_WORDS[0]}")" -- "$cur"
		fi
		;;
	--demo)
		_stwtop_reply compgen -W "$(_stwtop_demos "${COMP_WORDS[0]}")" -- "$cur"
		;;
	--tz)
		_stwtop_reply compgen -W "$(_stwtop_zones)" -- "$cur"
		;;
	--interval | --demo-speed | --metrics | --nginx-format)
		;; # a number, an address, a log_format: nothing to offer
	*)
		_stwtop_reply compgen -W "$_stwtop_options" -- "$cur"
		;;
	esac
}

complete -F _stwtop stwtop
