#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency.sh BIN [OUTDIR] — line written -> event visible: (a) to the NDJSON
# output of --plain --json (latency.py, 100 writes), (b) to the screen of the
# curses dashboard in tmux (30 writes, capture-pane polled as fast as it runs).
set -euo pipefail
BIN=$(realpath "${1:?usage: latency.sh path/to/stwtop [outdir]}")
here=$(cd "$(dirname "$0")" && pwd)
echo "-- latency: a safepoint line with 700 ms time to safepoint completes a ttsp-spike verdict"
python3 "$here/latency.py" "$BIN" "${LATENCY_WRITES:-100}"
if command -v tmux >/dev/null; then
	python3 "$here/latency.py" "$BIN" "${LATENCY_SCREEN_WRITES:-30}" --tmux
else
	echo "   (b) to the screen in tmux: not measured, tmux is not installed"
fi
