#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# readme.sh BIN — the README's promise to a newcomer: its very first lines are
# the two commands (install + build + `stwtop --demo`, and the test command), the
# test command is exactly the one CI runs (.ci/run), and the screenshots it shows
# (120x40, verdict expanded, 80x24) exist.
set -u
ROOT=$(cd "${STWTOP_TEST_DIR:-$(dirname "$0")/..}/.." && pwd)
R=$ROOT/README.md
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

[ "$(sed -n 1p "$R")" = '```sh' ] && ok "line 1 opens the sh block" || fail "line 1 is '$(sed -n 1p "$R")', not the sh fence"
l2=$(sed -n 2p "$R") l3=$(sed -n 3p "$R")
case $l2 in
*scripts/install-deps.sh*cmake\ -S\ .\ -B\ build*cmake\ --build\ build*./build/stwtop\ --demo) ok "line 2 installs, builds and runs the demo" ;;
*) fail "line 2 is not install + build + stwtop --demo: $l2" ;;
esac
case $l3 in
ctest\ --test-dir\ build\ *) ok "line 3 is the test command" ;;
*) fail "line 3 is not the ctest command: $l3" ;;
esac
[ "$(sed -n 4p "$R")" = '```' ] && ok "the block closes after the two commands" || fail "line 4 does not close the block"
# the title comes after the commands
grep -n '^# stwtop' "$R" | head -1 | grep -q '^[5-9]:' && ok "the title follows the commands" || fail "the title is not right after the block"
# CI runs the README's test command, character for character
ci=$(grep -E '^ctest --test-dir build ' "$ROOT/.ci/run")
[ -n "$ci" ] && [ "$ci" = "$l3" ] && ok ".ci/run runs the README's command" || fail ".ci/run runs '$ci', the README says '$l3'"
# the commands run from the repository's root as written
[ -f "$ROOT/scripts/install-deps.sh" ] && ok "scripts/install-deps.sh exists" || fail "no scripts/install-deps.sh"
# the screenshots embedded in the README exist and are PNGs
for shot in demo-120x40 verdict-expanded demo-80x24; do
	if grep -Eq "^!\[[^]]+\]\(screenshots/$shot\.png\)" "$R"; then ok "README shows $shot"; else fail "README does not embed $shot.png"; fi
	head -c 8 "$ROOT/screenshots/$shot.png" 2>/dev/null | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' \
		&& ok "screenshots/$shot.png is a PNG" || fail "screenshots/$shot.png missing or not a PNG"
done
# every screenshot README.md lists is in screenshots/
for f in $(grep -oE '^\| `[a-z0-9x-]+`' "$ROOT/screenshots/README.md" | tr -d '|` '); do
	[ -f "$ROOT/screenshots/$f.png" ] && [ -f "$ROOT/screenshots/$f.txt" ] && ok "screenshots/$f.{png,txt}" || fail "screenshots/$f listed but missing"
done
[ $fails = 0 ] && { echo "readme: all passed"; exit 0; }
echo "readme: $fails failed"; exit 1
