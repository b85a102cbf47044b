#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install.sh BIN — `cmake --install` into a temporary prefix puts the binary,
# the themes, the demo recordings and the man page in place, and the installed
# binary finds its data next to itself: the whole prefix moved elsewhere still
# replays `--demo --plain` and loads `--theme light` from the moved tree (strace
# shows which files it opened), not from the build or the source tree.
set -u
BIN=${1:?usage: install.sh path/to/stwtop}
BUILD=${STWTOP_BUILD_DIR:-$(cd "$(dirname "$BIN")" && pwd)}
ROOT=$(cd "${STWTOP_TEST_DIR:-$(dirname "$0")/..}/.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-install.XXXXXX")
SOCK=stwtop-install-$$
trap 'tmux -L $SOCK kill-server 2>/dev/null; rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

P=$T/prefix
cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1 || { fail "cmake --install: $(tail -5 "$T/install.log")"; }
[ -x "$P/bin/stwtop" ] && ok "bin/stwtop" || fail "no executable $P/bin/stwtop"
for th in "$ROOT"/themes/*.json; do
	f=$P/share/stwtop/themes/$(basename "$th")
	cmp -s "$th" "$f" && ok "theme $(basename "$th")" || fail "theme $(basename "$th") not installed as $f"
done
for d in "$ROOT"/data/demo/*/; do
	n=$(basename "$d")
	for f in "$d"*; do
		cmp -s "$f" "$P/share/stwtop/demo/$n/$(basename "$f")" || fail "demo $n: $(basename "$f") not installed"
	done
	[ -f "$P/share/stwtop/demo/$n/demo.conf" ] && ok "demo $n" || fail "demo $n missing"
done
cmp -s "$ROOT/doc/stwtop.1" "$P/share/man/man1/stwtop.1" && ok "man1/stwtop.1" || fail "man page not at $P/share/man/man1/stwtop.1"
if command -v man >/dev/null; then
	MANPAGER=cat man -M "$P/share/man" stwtop 2>/dev/null | grep -q 'stop-the-world\|stwtop' \
		&& ok "man -M PREFIX/share/man stwtop reads it" || fail "man does not find the installed page"
fi

# the prefix moved elsewhere: the binary looks next to itself. strace watches what it opens;
# LeakSanitizer aborts under ptrace, so a sanitizer build runs these without it (the other
# tests check leaks)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
mv "$P" "$T/moved"
M=$T/moved
"$M/bin/stwtop" --version | grep -q '^stwtop ' && ok "the moved binary runs" || fail "the moved binary does not run"
strace -f -qq -e trace=openat -o "$T/open.log" timeout 60 "$M/bin/stwtop" --demo --plain --demo-speed 40 \
	>"$T/demo.out" 2>"$T/demo.err"
rc=$?
[ $rc = 0 ] && ok "moved prefix: --demo --plain exits 0" || fail "moved prefix: --demo --plain exited $rc: $(tail -3 "$T/demo.err")"
grep -Eq 'crit +new +cpu-throttled-during-stop' "$T/demo.out" && ok "moved prefix: the demo tells its incident" \
	|| fail "moved prefix: no verdicts: $(head -5 "$T/demo.out")"
grep -q "\"$M/bin/../share/stwtop/demo/throttle-stop/demo.conf\"" "$T/open.log" \
	&& ok "the demo came from the moved prefix" || fail "demo.conf not opened from $M: $(grep demo.conf "$T/open.log")"
grep -E 'openat\(.*(demo|gc)\.(conf|log)' "$T/open.log" | grep -v "\"$M/" | grep -v ENOENT | grep -q . \
	&& fail "demo files opened outside the moved prefix: $(grep -E 'demo|gc\.log' "$T/open.log" | grep -v "\"$M/" | head -3)" \
	|| ok "no demo file opened outside the moved prefix"
# a theme by name from the moved tree (the dashboard, in tmux)
tmux -L $SOCK -f /dev/null new-session -d -s i -x 120 -y 40 -e LANG=C.UTF-8 \
	"cd '$T' && TERM=tmux-256color HOME='$T' strace -f -qq -e trace=openat -o '$T/theme.log' '$M/bin/stwtop' --demo --demo-speed 40 --theme light; echo EXITED rc=\$?; sleep 600"
deadline=$(( $(now_ms) + 30000 ))
until tmux -L $SOCK capture-pane -p -t i:0.0 2>/dev/null | grep -q 'replay finished'; do
	[ "$(now_ms)" -ge "$deadline" ] && { fail "the moved dashboard did not finish the demo"; break; }
	sleep 0.05
done
tmux -L $SOCK send-keys -t i:0.0 q
until tmux -L $SOCK capture-pane -p -t i:0.0 2>/dev/null | grep -q 'EXITED rc='; do
	[ "$(now_ms)" -ge "$deadline" ] && break
	sleep 0.05
done
tmux -L $SOCK capture-pane -p -t i:0.0 | grep -q 'EXITED rc=0' && ok "moved dashboard with --theme light: exit 0" \
	|| fail "moved dashboard: $(tmux -L $SOCK capture-pane -p -t i:0.0 | tail -3)"
grep -q "\"$M/bin/../share/stwtop/themes/light.json\"" "$T/theme.log" && ok "the theme came from the moved prefix" \
	|| fail "light.json not opened from $M: $(grep light.json "$T/theme.log")"
[ $fails = 0 ] && { echo "install: all passed"; exit 0; }
echo "install: $fails failed"; exit 1
