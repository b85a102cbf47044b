#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# probe_cgroup_gone.sh BIN — a REAL cgroup-v1 cpu cgroup throttled, then removed under a live run.
# On this kind of host cpu and cpuacct are separate v1 hierarchies: removing the cpu dir first
# leaves cpuacct.usage readable, so the probe keeps sampling with the throttling counters
# unknown (-1). Checked:
#  1. the recording still totals the throttling that happened (--report --replay: within 1 ms of
#     the counters the test read itself), not +0 because the last samples lack the counters;
#  2. the error is said once when it appears, once more when it changes, and "readable again"
#     when the cgroup comes back — not at every poll;
#  3. a cgroup created again (counters from 0) does not make the total negative.
# Skips (77) without root, without separate v1 cpu and cpuacct mounts, or when mkdir is refused.
set -u
BIN=$(realpath "${1:?usage: probe_cgroup_gone.sh path/to/stwtop}")
T=$(mktemp -d); BUSY=""; SPID=""; CPUD=""; ACCTD=""
cleanup() {
  [ -n "$BUSY" ] && kill -KILL "$BUSY" 2>/dev/null
  [ -n "$SPID" ] && kill -KILL "$SPID" 2>/dev/null
  wait 2>/dev/null
  for d in "$CPUD" "$ACCTD"; do [ -n "$d" ] && [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
fails=0; fail() { echo "FAIL: $*"; fails=$((fails+1)); }
# wait_for SECONDS CMD...: run CMD every 100 ms until it succeeds or the deadline passes
wait_for() { local end=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
  until "$@"; do [ $(( $(date +%s%N) / 1000000 )) -ge $end ] && return 1; sleep 0.1; done; }

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to create cgroups"; exit 77; }
mnt() { awk -v c="$1" '$0 ~ " - cgroup " { n = split($NF, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) { print $5; exit } }' /proc/self/mountinfo; }
CPU=$(mnt cpu); ACCT=$(mnt cpuacct)
[ -n "$CPU" ] && [ -n "$ACCT" ] || { echo "SKIP: no cgroup-v1 cpu and cpuacct controllers mounted"; exit 77; }
[ "$CPU" != "$ACCT" ] || { echo "SKIP: cpu and cpuacct are co-mounted at $CPU: removing the cpu dir removes both"; exit 77; }
CPUD=$CPU/stwtop-gone-$$; ACCTD=$ACCT/stwtop-gone-$$
mkdir "$CPUD" "$ACCTD" 2>/dev/null && echo 100000 >"$CPUD/cpu.cfs_period_us" && echo 20000 >"$CPUD/cpu.cfs_quota_us" \
  || { echo "SKIP: cannot create $CPUD / $ACCTD (not permitted here)"; exit 77; }

bash -c 'while :; do :; done' &
BUSY=$!
echo "$BUSY" >"$CPUD/cgroup.procs" && echo "$BUSY" >"$ACCTD/cgroup.procs" || { fail "cannot move $BUSY into the cgroups"; exit 1; }

"$BIN" --plain --json --interval 200 --cgroup "$CPUD" --record "$T/rec.ndjson" >"$T/out.ndjson" 2>"$T/err" &
SPID=$!
thr_ns() { awk '$1=="throttled_time" {print $2}' "$CPUD/cpu.stat"; }
# throttled for a while (0.2 CPU for a busy loop: ~0.8 s throttled per second)
wait_for 20 bash -c "[ \$(awk '\$1==\"throttled_time\" {print \$2}' '$CPUD/cpu.stat') -ge 2000000000 ]" \
  || fail "the busy loop was not throttled 2 s within 20 s (throttled_time $(thr_ns) ns)"
kill -KILL "$BUSY"; wait "$BUSY" 2>/dev/null; BUSY=""
before_us=$(( $(thr_ns) / 1000 ))
# one sample after the last throttling, then the cpu dir goes (cpuacct stays)
wait_for 10 bash -c "jq -e 'select(.kind==\"cpu\" and .throttled_us==$before_us)' '$T/rec.ndjson' >/dev/null" \
  || fail "no sample recorded the final throttled_time $before_us us"
wait_for 10 rmdir "$CPUD" || fail "cannot remove $CPUD"
unknown() { [ "$(jq -s '[.[] | select(.kind=="cpu" and .nr_throttled==-1 and .usage_us>=0)] | length' "$T/rec.ndjson")" -ge "$1" ]; }
wait_for 10 unknown 5 || fail "no samples without the counters after $CPUD was removed: $(tail -3 "$T/rec.ndjson")"
# created again: readable again, counters from 0
mkdir "$CPUD" || fail "cannot create $CPUD again"
wait_for 10 grep -q "readable again" "$T/err" || fail "the recovery was not said: $(head -c 800 "$T/err")"
# both removed: nothing can be read
rmdir "$CPUD" "$ACCTD" || fail "cannot remove the cgroups"
wait_for 10 grep -q "nothing could be read" "$T/err" || fail "the removal of both was not said: $(head -c 800 "$T/err")"
n0=$(wc -l <"$T/out.ndjson")
wait_for 10 bash -c "[ \$(wc -l <'$T/out.ndjson') -ge $((n0 + 5)) ]" || fail "stwtop stopped printing status"
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
[ $rc = 0 ] || fail "stwtop exited $rc: $(head -c 800 "$T/err")"

# 2. each state said once
said=$(grep -c "cpu.stat: $CPUD/cpu.stat: No such file or directory" "$T/err")
[ "$said" = 2 ] || fail "the cpu.stat error was said $said times (want 2: removed, then both removed): $(head -c 800 "$T/err")"
[ "$(grep -c 'readable again' "$T/err")" = 1 ] || fail "'readable again' not said exactly once: $(head -c 800 "$T/err")"
grep -q "readable again" "$T/err" && ! grep "readable again" "$T/err" | grep -q "cpu.stat" \
  && fail "the recovery does not name cpu.stat: $(grep 'readable again' "$T/err")"

# 1 and 3. the total of the recording
first_us=$(jq -s '[.[] | select(.kind=="cpu" and .throttled_us>=0)] | first.throttled_us' "$T/rec.ndjson")
want_ms=$(( (before_us - first_us) / 1000 ))
"$BIN" --report --json --replay "$T/rec.ndjson" >"$T/r.json" 2>"$T/rerr" || fail "replay report: $(cat "$T/rerr")"
got_ms=$(jq .summary.throttle.throttled_ms "$T/r.json")
echo "throttled: $want_ms ms by the counters, the replayed report says $got_ms ms"
awk -v a="$got_ms" -v b="$want_ms" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(b >= 1000 && d <= 1.5)}' \
  || fail "replay: throttled_ms $got_ms, the cgroup's own counters say $want_ms ms"
[ "$(jq .summary.throttle.nr_throttled "$T/r.json")" -gt 0 ] || fail "replay: nr_throttled $(jq .summary.throttle.nr_throttled "$T/r.json")"

[ $fails = 0 ] && echo "probe_cgroup_gone: all passed" || { echo "probe_cgroup_gone: $fails failed"; exit 1; }
