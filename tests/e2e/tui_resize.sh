#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_resize.sh BIN — resizing at any time never crashes or garbles: down to the
# one-screen summary (40x12), to 20x5, back to 120x40 (the charts come back
# identical), and a burst of resizes while the demo is replaying.
source "$(dirname "$0")/lib/tmux.bash" "$@"

charts() { sed -n '/^─ Stops /,/^UTC /p' "$TMPD/screen"; }

start 120 40 "TERM=tmux-256color '$BIN' --demo --demo-speed 10"
expect '─ Stops ' 10
# resizes while the replay runs
for s in "100 30" "80 24" "40 12" "200 60" "20 5" "119 39" "120 40"; do
	resize $s
	sleep 0.1   # the sizes must follow each other faster than frames; nothing is asserted in between
done
expect 'replay finished' 40
grep -q 'EXITED' "$TMPD/screen" && fail "stwtop exited during the resizes"
charts > "$TMPD/before"

resize 40 12
expect '^(CRIT|WARN|INFO) ' 10
grep -q '─ Stops ' "$TMPD/screen" && fail "40x12 should show the summary, not panes" || ok "40x12 is the summary"
grep -Eq '^CRIT The 701 ms stop' "$TMPD/screen" && ok "40x12 keeps the verdict titles" || fail "40x12 lacks the verdict titles"
grep -Eq '^stops: max 701 ms, ttsp 698 ms' "$TMPD/screen" && ok "40x12 keeps the key numbers" || fail "40x12 lacks the key numbers"
[ "$(wc -L < "$TMPD/screen")" -le 40 ] && ok "40x12 fits" || fail "40x12 overflows"

resize 20 5
expect '^ stwtop' 10
grep -q 'EXITED' "$TMPD/screen" && fail "stwtop exited at 20x5" || ok "20x5 shows what fits"

resize 120 40
expect '─ Lines ' 10
charts > "$TMPD/after"
if cmp -s "$TMPD/before" "$TMPD/after"; then ok "the charts are identical after the round trip"
else fail "the charts differ after resizing back"; diff "$TMPD/before" "$TMPD/after" | head -20; fi
keys q
expect 'EXITED rc=0' 10
finish
