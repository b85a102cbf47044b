#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# static_chroot.sh BIN — scripts/check-static.sh from ctest: the fully static
# binary (built in BUILD-static) in an empty chroot, no terminfo, no locale, no
# libraries. It needs root (chroot) and the static libraries; without them it is
# skipped (exit 77, ctest's SKIP_RETURN_CODE) saying why. It runs once per CI
# run: in the plain build's ctest, skipped in the sanitizer build (the static
# binary is not sanitized anyway), and .ci/run no longer runs it on its own.
set -u
ROOT=$(cd "${STWTOP_TEST_DIR:-$(dirname "$0")/..}/.." && pwd)
BUILD=${STWTOP_BUILD_DIR:-$ROOT/build}
skip() { echo "skip: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "the chroot needs root"
{ command -v chroot || [ -x /usr/sbin/chroot ]; } >/dev/null || skip "no chroot(8)"
command -v tmux >/dev/null || skip "no tmux"
grep -q '^STWTOP_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null \
	&& skip "a sanitizer build: the static binary is checked by the plain build's ctest"
cc=$(command -v cc || command -v gcc) || skip "no C compiler for the static build"
for lib in c ncursesw tinfo jansson inotifytools; do
	f=$("$cc" -print-file-name="lib$lib.a")
	[ -f "$f" ] || skip "no static lib$lib.a: a static build is not possible here"
done
exec bash "$ROOT/scripts/check-static.sh" "$BUILD-static"
