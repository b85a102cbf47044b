#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# signals.sh BIN — live line mode stops cleanly on SIGTERM and SIGINT, also when its
# stdout is a pipe nobody reads any more (a stalled log shipper): the write is
# interrupted and the process ends within seconds instead of hanging until SIGKILL.
set -u
BIN=${1:?usage: signals.sh path/to/stwtop}
T=$(mktemp -d); PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
printf '[0.010s][info][gc] Using G1\n' >"$T/gc.log"

for sig in TERM INT; do
  # a reader that never reads: stwtop fills the pipe at a 10 ms status interval
  mkfifo "$T/fifo-$sig"
  exec {keep}<>"$T/fifo-$sig"             # holds the FIFO open, reads nothing
  "$BIN" --plain --gc "$T/gc.log" --interval 10 >"$T/fifo-$sig" 2>"$T/err-$sig" &
  P=$!; PIDS+=("$P")
  # wait until it is really blocked writing to the full pipe (~100 lines/s of ~100 bytes)
  blocked=""
  for _ in $(seq 300); do
    case "$(cat "/proc/$P/wchan" 2>/dev/null)" in *pipe_write*) true;; *) false;; esac && { blocked=1; break; }
    sleep 0.1
  done
  [ -n "$blocked" ] || fail "$sig: stwtop never blocked writing to the full pipe (wchan $(cat "/proc/$P/wchan" 2>/dev/null))"
  kill -"$sig" "$P"
  for _ in $(seq 50); do kill -0 "$P" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$P" 2>/dev/null; then
    fail "SIG$sig did not stop stwtop blocked on a full stdout within 5 s"
  else
    wait "$P"; rc=$?
    [ $rc -lt 128 ] || [ $rc = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $rc"
  fi
  exec {keep}<&-
done

# a normal stop: SIGTERM with a reader prints the final state and exits 0
"$BIN" --plain --json --gc "$T/gc.log" --interval 100 >"$T/out" 2>"$T/err" &
P=$!; PIDS+=("$P")
sleep 1
kill -TERM "$P"; wait "$P"; rc=$?
[ $rc = 0 ] || fail "SIGTERM with a reader: exit $rc ($(cat "$T/err"))"
jq -se 'any(.[]; .type=="status")' "$T/out" >/dev/null || fail "no status lines before SIGTERM"
[ $fails = 0 ] && echo "signals: all passed" || { echo "signals: $fails failed"; exit 1; }
