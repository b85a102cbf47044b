#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# shipped_refs.sh BIN — what a user reads cites only files the project ships. The text users
# get (README.md, docs/, doc/stwtop.1, `stwtop --help`, `--help-config`, and the text report,
# JSON report, --brief and, for the sample folders, the --plain --json NDJSON of every row of
# tests/scenarios/table.tsv) must not name the developers' notes outside the repository
# (FIELD-NOTES, DESIGN.md, DEPS.md, FORMATS.md, STYLE.md, ../shared), and every *.md file it
# names must exist in the repository. Source comments may cite the notes; strings may not.
set -u
BIN=${1:?usage: shipped_refs.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(cd "$D/.." && pwd)
S=$D/samples R=$D/recordings F=$D/fixtures
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
: >"$T/empty.log"
pass=0 failc=0
ok()  { pass=$((pass + 1)); }
bad() { failc=$((failc + 1)); echo "FAIL $*"; }
FORBIDDEN='FIELD-NOTES|DESIGN\.md|DEPS\.md|FORMATS\.md|STYLE\.md|\.\./shared|/work/shared'

# check WHAT FILE [DIR]: no forbidden name; every X.md named exists (relative to DIR, the
# repository's root, or anywhere in it by name for a bare file name)
check() {
	local what=$1 f=$2 dir=${3:-$ROOT} hits
	hits=$(grep -nE "$FORBIDDEN" "$f" | head -3)
	[ -z "$hits" ] && ok || bad "$what cites a file users do not have: $hits"
	local md
	while read -r md; do
		[ -n "$md" ] || continue
		md=${md%%#*}
		if [ -e "$dir/$md" ] || [ -e "$ROOT/$md" ]; then ok; continue; fi
		case $md in
		*/*) bad "$what names $md, which the repository does not have" ;;
		*) [ -n "$(find "$ROOT" -path "$ROOT/build*" -prune -o -name "$md" -print | head -1)" ] && ok ||
			bad "$what names $md, which the repository does not have" ;;
		esac
	done < <(grep -oE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md(#[a-z0-9-]+)?' "$f" | sort -u)
}

# the documents
for f in "$ROOT"/README.md "$ROOT"/docs/*.md "$ROOT"/doc/stwtop.1; do
	check "${f#"$ROOT"/}" "$f" "$(dirname "$f")"
done
# docs/verdicts.md covers every verdict id of include/stwtop/rules.h (by the table's names)
for id in $(grep -oE '^\| `[a-z0-9-]+`' "$ROOT/README.md" | tr -d '|` '; echo periodic-gc-shrank); do
	grep -q "^## $id\$" "$ROOT/docs/verdicts.md" && ok || bad "docs/verdicts.md has no section for $id"
done
n_ids=$(sed -n '/^enum verdict_id {/,/V_COUNT/p' "$ROOT/include/stwtop/rules.h" | grep -c '^	V_[A-Z0-9_]*,')
n_secs=$(grep -cE '^## [a-z0-9]+(-[a-z0-9]+)+$' "$ROOT/docs/verdicts.md")
[ "$n_secs" -ge "$n_ids" ] && ok || bad "docs/verdicts.md has $n_secs verdict sections, rules.h $n_ids ids"

# the program's own texts
"$BIN" --help >"$T/help" 2>&1; check "stwtop --help" "$T/help"
"$BIN" --help-config >"$T/helpc" 2>&1; check "stwtop --help-config" "$T/helpc"
grep -q 'docs/verdicts.md' "$T/helpc" && ok || bad "--help-config does not say where the reasons are explained"

rows=0
while IFS=$'\t' read -r name args _; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	rows=$((rows + 1))
	args=${args//\$S/$S}; args=${args//\$R/$R}; args=${args//\$F/$F}; args=${args//\$T/$T}
	read -r -a argv <<<"$args"
	for i in "${!argv[@]}"; do   # the --nginx-format value: "_" stands for a space
		[ "$i" -gt 0 ] && [ "${argv[$((i - 1))]}" = --nginx-format ] && argv[$i]=${argv[$i]//_/ }
	done
	TZ=UTC "$BIN" --report "${argv[@]}" </dev/null >"$T/out" 2>&1
	TZ=UTC "$BIN" --report --json "${argv[@]}" </dev/null >>"$T/out" 2>&1
	TZ=UTC "$BIN" --report --brief "${argv[@]}" </dev/null >>"$T/out" 2>&1
	if [[ $name == samples/* ]]; then   # live: the same verdicts, notes and messages as NDJSON
		TZ=UTC timeout 2 "$BIN" --plain --json --interval 200 "${argv[@]}" </dev/null >>"$T/out" 2>&1
	fi
	check "the reports of $name" "$T/out"
done <"$D/scenarios/table.tsv"
[ "$rows" -ge 40 ] && ok || bad "only $rows scenario rows read"

echo "shipped_refs: $pass passed, $failc failed"
[ "$failc" -eq 0 ]
