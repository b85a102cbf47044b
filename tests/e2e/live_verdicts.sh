#!/usr/bin/env bash
# live_verdicts.sh BIN — replay the combined/ and g1-periodic/ recordings into files at 4x their
# pace while `stwtop --plain --json` follows them; every verdict must appear
# within a second of the line that completes its evidence, and the live run must
# end with exactly the report's verdicts (tests/tools/live_check.py).
set -u
BIN=${1:?usage: live_verdicts.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
rc=0
for s in combined/throttle-stop combined/gc-stop g1-periodic/load-stops g1-periodic/load-continues; do
  echo "== $s"
  python3 "$D/tools/live_check.py" "$BIN" "$D/samples/$s" --speed 4 --latency 1000 || rc=1
done
exit $rc
