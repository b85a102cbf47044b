#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# live_recordings.sh BIN — the live test (tests/tools/live_check.py) on the real recordings of
# tests/recordings: replayed into files at 4x their pace while `stwtop --plain --json` follows
# them, every verdict must appear within a second of the line that completes its evidence and
# the live run must end with exactly the report's verdicts. `contention` is the case where they
# once differed (a verdict true for a prefix of an incident stayed behind).
set -u
BIN=${1:?usage: live_recordings.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
rc=0
for r in contention g1-full-gc healthy-control; do
  echo "== recordings/$r"
  python3 "$D/tools/live_check.py" "$BIN" "$D/recordings/$r" --speed 4 --latency 1000 || rc=1
done
exit $rc
