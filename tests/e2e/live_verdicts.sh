#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# live_verdicts.sh BIN — replay the real recordings into files at 4x (8x for the
# throttle/, nginx-uct/ and collectors/ ones) their pace while `stwtop --plain
# --json` follows them; every verdict must appear within a second of the line that
# completes its evidence, the live run must end with exactly the report's verdicts
# (tests/tools/live_check.py), and the controls must raise none at all.
set -u
BIN=${1:?usage: live_verdicts.sh path/to/stwtop}
D=${STWTOP_TEST_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
rc=0
for s in combined/throttle-stop combined/gc-stop g1-periodic/load-stops g1-periodic/load-continues; do
  echo "== $s"
  python3 "$D/tools/live_check.py" "$BIN" "$D/samples/$s" --speed 4 --latency 1000 || rc=1
done
for s in throttle/throttled throttle/throttled-arraycopy nginx-uct/backlog100 nginx-uct/connect-timeout \
         collectors/zgc-xmx96m collectors/serial-xmx256m; do
  echo "== $s"
  python3 "$D/tools/live_check.py" "$BIN" "$D/samples/$s" --speed 8 --latency 1000 || rc=1
done
# gc-overhead: an episode opened, extended and cleared at pauses must end live
# exactly as in the report (its end and clear come from the last pauses)
for s in gc-overhead-g1 gc-overhead-parallel gc-overhead-serial; do
  echo "== recordings/$s"
  python3 "$D/tools/live_check.py" "$BIN" "$D/recordings/$s" --speed 8 --latency 1000 || rc=1
done
echo "== recordings/gc-overhead-healthy-control (control)"
python3 "$D/tools/live_check.py" "$BIN" "$D/recordings/gc-overhead-healthy-control" --speed 8 --latency 1000 --control || rc=1
# a recording of the verdict suite: a long TTSP with no CPU limit
echo "== recordings/ttsp-arraycopy"
python3 "$D/tools/live_check.py" "$BIN" "$D/recordings/ttsp-arraycopy" --speed 8 --latency 1000 || rc=1
for s in throttle/control nginx-uct/backlog1024; do
  echo "== $s (control)"
  python3 "$D/tools/live_check.py" "$BIN" "$D/samples/$s" --speed 8 --latency 1000 --control || rc=1
done
exit $rc
