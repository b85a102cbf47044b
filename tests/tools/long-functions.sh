#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# long-functions.sh [MAX] — list the functions in core/ and tui/ longer than MAX
# lines (default 150) that do not say why in a comment starting with "long:"
# in the lines just above them. Exit 1 when there is one. A function is a line
# at column 0 with "(" followed by a "{" at column 0, up to the "}" at column 0
# (the project's style: STYLE.md).
set -u
MAX=${1:-150}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
bad=0
while IFS= read -r hit; do
	echo "too long, no reason given: $hit"
	bad=1
done < <(for f in "$ROOT"/core/*/*.c "$ROOT"/tui/*.c; do
	awk -v N="$MAX" -v F="${f#"$ROOT"/}" '
	/^[a-zA-Z_].*\(/ { sig = $0; sigline = NR; why = (prev ~ /long:/ || prev2 ~ /long:/ || prev3 ~ /long:/) }
	/^\{/ { start = NR; name = sig; reason = why }
	/^\}/ { if (start) { if (NR - start > N && !reason) printf "%s:%d %d lines: %s\n", F, sigline, NR - start, name; start = 0 } }
	{ prev3 = prev2; prev2 = prev; prev = $0 }
	' "$f"
done)
exit $bad
