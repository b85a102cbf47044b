# SPDX-License-Identifier: GPL-2.0-or-later
# completion.bash — what the shell completion tests share (sourced, not a test):
# the expected lists, each from its own source and not from the scripts under
# test: the options from `stwtop --help`, the themes from themes/*.json (with
# the compiled-in default, also called dark), the demos from data/demo/*/, the
# zones from the tz database; a real JVM to find (a single-file Java program),
# next to a process that is not one.
#   source "$(dirname "$0")/lib/completion.bash" "$@"
BIN=${1:?usage: $0 path/to/stwtop}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
ROOT=$(cd "${STWTOP_TEST_DIR:-$(dirname "$0")/..}/.." && pwd)
C=$ROOT/completions
NAME=$(basename "$0" .sh)
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-$NAME.XXXXXX")
JPID='' DPID=''
cleanup() {
	[ -n "$JPID" ] && kill "$JPID" 2>/dev/null
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
done_tests() {
	[ $fails = 0 ] && { echo "$NAME: all passed"; exit 0; }
	echo "$NAME: $fails failed"
	exit 1
}

# sorted, one per line
want_options() { "$BIN" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }
want_themes() { { printf '%s\n' default dark; for f in "$ROOT"/themes/*.json; do basename "$f" .json; done; } | sort -u; }
want_demos() { for d in "$ROOT"/data/demo/*/demo.conf; do basename "$(dirname "$d")"; done | sort -u; }

# same LIST_A LIST_B WHAT: two sorted lists are equal, else say what differs
same() {
	if [ "$1" = "$2" ]; then
		ok "$3 ($(printf '%s\n' "$1" | grep -c .))"
	else
		fail "$3: missing [$(comm -23 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | tr '\n' ' ')]," \
			"unexpected [$(comm -13 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | tr '\n' ' ')]"
	fi
}

# a file tree to complete in: a JSON file, a text file, a folder
make_tree() {
	mkdir -p "$T/tree/sub.d"
	echo '{}' >"$T/tree/thresholds.json"
	echo x >"$T/tree/thread.txt"
}

# start_jvm: JPID, a JVM that idles (java runs a one-file program from source),
# and DPID, a process that is not a JVM; 1 when there is no java
start_jvm() {
	command -v java >/dev/null || return 1
	printf 'class Idle { public static void main(String[] a) throws Exception { Thread.sleep(300000); } }\n' \
		>"$T/Idle.java"
	java -Xmx32m -XX:+UseSerialGC "$T/Idle.java" >/dev/null 2>&1 &
	JPID=$!
	sleep 300 &
	DPID=$!
	local i
	for i in $(seq 200); do
		[ "$(cat "/proc/$JPID/comm" 2>/dev/null)" = java ] && return 0
		sleep 0.05
	done
	return 1
}
