#!/usr/bin/env bash
# latency.sh BIN [OUTDIR] — line written -> event visible: (a) to the NDJSON
# output of --plain --json (latency.py, 100 writes), (b) to the screen of the
# curses dashboard in tmux, when the tree has one.
set -euo pipefail
BIN=$(realpath "${1:?usage: latency.sh path/to/stwtop [outdir]}")
here=$(cd "$(dirname "$0")" && pwd)
echo "-- latency: a safepoint line with 700 ms time to safepoint completes a ttsp-spike verdict"
python3 "$here/latency.py" "$BIN" "${LATENCY_WRITES:-100}"
if [ "$(wc -l <"$here/../../tui/ui.c")" -lt 100 ]; then
	echo "   (b) to the screen in tmux: not measured, this tree has no curses dashboard yet (tui/ui.c is a stub)"
fi
