#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spdx.sh [--check] [ROOT] — the line `SPDX-License-Identifier: GPL-2.0-or-later`
# at the top of every source file stwtop's authors wrote (LICENSE; README's
# "License"). Without --check it adds the line where it is missing, as a
# one-line insertion: line 1, or line 2 after a `#!` line. Run it after adding
# files, or after merging branches that added some; it changes nothing twice.
# With --check it changes nothing, names each file without the line and exits
# 1 if there is one (ctest unit/spdx). Exit 77: ROOT is not a git checkout.
#
# The files: those git tracks (and, when adding, new ones it does not ignore)
# that are C, headers and Java (`/* ... */`), shell, Python, awk, CMake and the
# shell completions (`# ...`), or have a `#!` line naming one of those shells
# or interpreters. Not the logs, recordings, fixtures' data and fuzz seeds
# (data, much of it third-party, and read byte for byte by the tests), nor
# the deploy/ examples, the docs and .ci/ (the CI's runner).
set -u
LINE='SPDX-License-Identifier: GPL-2.0-or-later'
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "spdx.sh: $ROOT is not a git checkout: no list of the project's files (skipped)"
	exit 77
fi
cd "$ROOT" || exit 2

# the comment a file's line is written in: "c", "hash", or nothing (not a source file)
style_of() {
	local f=$1 first
	case $f in
	tests/fuzz/seeds/* | tests/samples/public-gc-logs/* | .ci/*) return ;;
	*.c | *.h | *.java) echo c; return ;;
	*.sh | *.bash | *.py | *.awk | *.cmake | */CMakeLists.txt | CMakeLists.txt) echo hash; return ;;
	completions/*) echo hash; return ;;
	esac
	case ${f##*/} in
	*.*) return ;; # another kind of file: data, docs, configuration
	esac
	IFS= read -r first <"$f" 2>/dev/null || return
	case $first in
	'#!'*[/\ ]sh | '#!'*[/\ ]sh\ * | '#!'*bash* | '#!'*python* | '#!'*awk*) echo hash ;;
	esac
}

has_line() {
	head -n 3 -- "$1" | grep -q "SPDX-License-Identifier:"
}

add_line() {
	local f=$1 text=$2 tmp
	tmp=$(mktemp "$f.spdx.XXXXXX") || return 1
	if head -n 1 -- "$f" | grep -q '^#!'; then
		{ head -n 1 -- "$f"; printf '%s\n' "$text"; tail -n +2 -- "$f"; } >"$tmp"
	else
		{ printf '%s\n' "$text"; cat -- "$f"; } >"$tmp"
	fi
	chmod --reference="$f" "$tmp" && mv -- "$tmp" "$f"
}

if [ $check = 1 ]; then
	list=(git ls-files -z)
else
	list=(git ls-files -z --cached --others --exclude-standard)
fi
missing=0 added=0 seen=0
while IFS= read -r -d '' f; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	style=$(style_of "$f")
	[ -n "$style" ] || continue
	seen=$((seen + 1))
	has_line "$f" && continue
	if [ $check = 1 ]; then
		echo "no SPDX line: $f"
		missing=$((missing + 1))
		continue
	fi
	case $style in
	c) text="/* $LINE */" ;;
	hash) text="# $LINE" ;;
	esac
	add_line "$f" "$text" || { echo "spdx.sh: could not write $f"; exit 2; }
	echo "added: $f"
	added=$((added + 1))
done < <("${list[@]}")

if [ $check = 1 ]; then
	if [ $missing -gt 0 ]; then
		echo "spdx: $missing of $seen source files have no '$LINE' line: run scripts/spdx.sh"
		exit 1
	fi
	echo "spdx: all $seen source files carry '$LINE'"
	exit 0
fi
echo "spdx: added the line to $added of $seen source files"
