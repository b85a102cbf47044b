#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install.sh BIN — `cmake --install` into a temporary prefix puts the binary,
# the themes, the demo recordings and the man page in place (and, as a package
# build does it, into a DESTDIR with --prefix /usr: the license, the docs, the
# deploy/ examples and the shell completions, which find the installed
# themes), and the installed
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

# a package's build: --prefix /usr into DESTDIR. It lists (and puts in place) the
# license, the docs and the deploy/ examples in share/doc/stwtop and the shell
# completions where bash-completion, zsh and fish look; the installed completion
# finds the installed themes and demos (an extra theme dropped there is offered)
D=$T/destdir
DESTDIR=$D cmake --install "$BUILD" --prefix /usr >"$T/destdir.log" 2>&1 || fail "DESTDIR=... cmake --install --prefix /usr: $(tail -5 "$T/destdir.log")"
# installed FROM TO: TO was listed by cmake --install and is a copy of FROM
installed() {
	if ! grep -Eq "(Installing|Up-to-date): $D/usr/$2\$" "$T/destdir.log"; then
		fail "cmake --install does not list /usr/$2"
	elif ! cmp -s "$ROOT/$1" "$D/usr/$2"; then
		fail "/usr/$2 is not a copy of $1"
	else
		ok "/usr/$2"
	fi
}
installed LICENSE share/doc/stwtop/LICENSE
head -2 "$D/usr/share/doc/stwtop/LICENSE" | grep -q 'GNU GENERAL PUBLIC LICENSE' && sed -n 2p "$D/usr/share/doc/stwtop/LICENSE" | grep -q 'Version 2' \
	&& ok "LICENSE is the GPL version 2" || fail "LICENSE is not the GPL-2 text"
installed README.md share/doc/stwtop/README.md
for f in "$ROOT"/docs/*.md; do installed "docs/${f##*/}" "share/doc/stwtop/docs/${f##*/}"; done
while IFS= read -r f; do
	installed "$f" "share/doc/stwtop/$f"
	[ -x "$ROOT/$f" ] && { [ -x "$D/usr/share/doc/stwtop/$f" ] || fail "/usr/share/doc/stwtop/$f is not executable"; }
done < <(cd "$ROOT" && git ls-files deploy 2>/dev/null || find deploy -type f)
installed completions/stwtop.bash share/bash-completion/completions/stwtop
installed completions/_stwtop share/zsh/site-functions/_stwtop
installed completions/stwtop.fish share/fish/vendor_completions.d/stwtop.fish
cp "$ROOT/themes/light.json" "$D/usr/share/stwtop/themes/extra-installed.json"
themes=$(cd "$T" && env -i PATH=/usr/bin:/bin HOME="$T" bash -c 'source "$1" || exit 1
	COMP_WORDS=(stwtop --theme ""); COMP_CWORD=2; _stwtop; printf "%s\n" "${COMPREPLY[@]}"
	COMP_WORDS=(stwtop --demo = ""); COMP_CWORD=3; COMPREPLY=(); _stwtop; printf "demo:%s\n" "${COMPREPLY[@]}"' \
	comp "$D/usr/share/bash-completion/completions/stwtop" | sort | tr '\n' ' ')
[ "$themes" = "dark default demo:gc-stop demo:throttle-stop extra-installed light mono " ] \
	&& ok "the installed bash completion offers the installed themes and demos" \
	|| fail "the installed bash completion offers: $themes"
if command -v fish >/dev/null; then
	themes=$(cd "$T" && env -i PATH=/usr/bin:/bin HOME="$T" fish --no-config -c \
		"source '$D/usr/share/fish/vendor_completions.d/stwtop.fish'; complete -C 'stwtop --theme '" | cut -f1 | sort | tr '\n' ' ')
	[ "$themes" = "dark default extra-installed light mono " ] && ok "the installed fish completion offers the installed themes" \
		|| fail "the installed fish completion offers: $themes"
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
