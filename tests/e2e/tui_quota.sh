#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tui_quota.sh BIN — the CPU pane's quota is the one in force at the cursor's time: a real
# cgroup-v1 cpu cgroup whose quota is raised from 0.20 to 0.50 CPU while `stwtop --plain
# --cgroup DIR --record F` polls it; on `--replay F` the quota at the oldest data (g) reads
# "quota: 0.20 CPU (now 0.50 CPU)", and at the newest (G) just the newest quota.
# Needs root and a cgroup-v1 cpu controller (skipped, exit 77, otherwise).
source "$(dirname "$0")/lib/tmux.bash" "$@"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
CPU=$(awk '$9=="cgroup" && $NF ~ /(^|,)cpu(,|$)/ {print $5; exit}' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "SKIP: no cgroup-v1 cpu controller"; exit 77; }
CG=$CPU/stwtop-quota-$$
mkdir "$CG" || { echo "SKIP: cannot create $CG"; exit 77; }
trap 'rmdir "$CG" 2>/dev/null; cleanup' EXIT
echo 100000 >"$CG/cpu.cfs_period_us"; echo 20000 >"$CG/cpu.cfs_quota_us"
"$BIN" --plain --interval 200 --cgroup "$CG" --record "$TMPD/rec.ndjson" >"$TMPD/plain.out" 2>&1 &
sp=$!
sleep 2
echo 50000 >"$CG/cpu.cfs_quota_us"
sleep 2
kill -INT $sp; wait $sp
[ "$(grep -c '"quota_us":20000' "$TMPD/rec.ndjson")" -gt 3 ] && [ "$(grep -c '"quota_us":50000' "$TMPD/rec.ndjson")" -gt 3 ] &&
	ok "the recording holds both quotas" || fail "recording: $(head -c 400 "$TMPD/rec.ndjson")"
start 140 45 "TERM=tmux-256color '$BIN' --replay '$TMPD/rec.ndjson'"
expect 'quota: 0\.50 CPU' 15
keys g
expect 'quota: 0\.20 CPU \(now 0\.50 CPU\)' 5
keys G
expect 'quota: 0\.50 CPU \(50000/100000 us\)' 5
expect 'in view:' 5
finish
