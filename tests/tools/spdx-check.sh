#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spdx-check.sh ROOT — ctest unit/spdx: every source file git tracks in ROOT
# carries the SPDX line (scripts/spdx.sh --check), and the script itself does
# what it says, in a scratch repository: --check fails on a file without the
# line and names it, the script adds the line (after a #! line, or on line 1)
# and nothing else, a second run changes nothing, data files stay untouched.
# Exit 77 when ROOT is not a git checkout (a source tarball).
set -u
ROOT=${1:?usage: spdx-check.sh SOURCE_DIR}
S=$ROOT/scripts/spdx.sh
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

bash "$S" --check "$ROOT"
rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] && ok "every tracked source file has the line" || fail "scripts/spdx.sh --check: exit $rc"

T=$(mktemp -d "${TMPDIR:-/tmp}/stwtop-spdx.XXXXXX")
trap 'rm -rf "$T"' EXIT
R=$T/repo
mkdir -p "$R/core" "$R/tests/bin" "$R/tests/samples/x" "$R/tests/fuzz/seeds/f"
printf '/* a.c — a module */\nint a;\n' >"$R/core/a.c"
printf '#!/bin/sh\n# run.sh — a script\necho hi\n' >"$R/tests/samples/x/run.sh"
chmod +x "$R/tests/samples/x/run.sh"
printf '#!/usr/bin/env bash\necho tool\n' >"$R/tests/bin/tool"
printf '[0.1s][info][gc] GC(0) Pause Young 1M->1M(2M) 1.0ms\n' >"$R/tests/samples/x/gc.log"
printf '#!/bin/sh\nnot a script: a seed\n' >"$R/tests/fuzz/seeds/f/seed-001"
printf '# SPDX-License-Identifier: GPL-2.0-or-later\nx = 1\n' >"$R/ok.py"
cp "$R/tests/samples/x/gc.log" "$T/gc.log.before"
cp "$R/tests/fuzz/seeds/f/seed-001" "$T/seed.before"
git -C "$R" init -q && git -C "$R" add -A

bash "$S" --check "$R" >"$T/check.out"
rc=$?
[ $rc = 1 ] && ok "--check fails on files without the line" || fail "--check exit $rc on a repo missing lines"
for f in core/a.c tests/samples/x/run.sh tests/bin/tool; do
	grep -qx "no SPDX line: $f" "$T/check.out" && ok "--check names $f" || fail "--check does not name $f: $(cat "$T/check.out")"
done
grep -q 'gc.log\|seed-001\|ok.py' "$T/check.out" && fail "--check names a data file or one with the line: $(cat "$T/check.out")"

bash "$S" "$R" >"$T/add.out" || fail "spdx.sh exited $?: $(cat "$T/add.out")"
[ "$(sed -n 1p "$R/core/a.c")" = "/* SPDX-License-Identifier: GPL-2.0-or-later */" ] &&
	[ "$(sed -n 2p "$R/core/a.c")" = "/* a.c — a module */" ] && ok "C: the line is line 1, the file follows" ||
	fail "core/a.c: $(head -3 "$R/core/a.c")"
[ "$(sed -n 1p "$R/tests/samples/x/run.sh")" = "#!/bin/sh" ] &&
	[ "$(sed -n 2p "$R/tests/samples/x/run.sh")" = "# SPDX-License-Identifier: GPL-2.0-or-later" ] &&
	[ -x "$R/tests/samples/x/run.sh" ] && ok "shell: the line after #!, still executable" ||
	fail "run.sh: $(head -3 "$R/tests/samples/x/run.sh")"
# a pure one-line insertion: the diff adds one line per file and removes none
git -C "$R" diff --numstat >"$T/numstat"
awk '$1 != 1 || $2 != 0 { bad = 1 } END { exit bad }' "$T/numstat" && [ "$(wc -l <"$T/numstat")" = 3 ] &&
	ok "three files changed, one line added to each" || fail "the change is not one added line per file: $(cat "$T/numstat")"
cmp -s "$T/gc.log.before" "$R/tests/samples/x/gc.log" && cmp -s "$T/seed.before" "$R/tests/fuzz/seeds/f/seed-001" &&
	ok "data files untouched" || fail "a data file was changed"
git -C "$R" add -A
bash "$S" "$R" >/dev/null && git -C "$R" diff --quiet && ok "a second run changes nothing" || fail "a second run changed files"
bash "$S" --check "$R" >/dev/null && ok "--check passes after the script ran" || fail "--check still fails after the script"

[ $fails = 0 ] && { echo "spdx: all passed"; exit 0; }
echo "spdx: $fails failed"
exit 1
