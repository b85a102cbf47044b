#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tz.sh BIN — `--tz utc|local|Area/City` on a real recording (tests/samples/combined/throttle-stop),
# every expected local time computed by date(1) from the JSON's UTC times, not by stwtop:
#   - default: the report's header says "times in UTC", verdict times are the JSON's UTC times;
#   - --tz Europe/Berlin (CET, +01:00 in November), America/New_York (-05:00), Asia/Kolkata
#     (+05:30), and --tz local under TZ=...: every verdict's time span in the report is its
#     JSON start/end in that zone with the offset after each time; the header names the zone
#     and its ISO times carry the offset; --brief's headline times too;
#   - JSON is UTC whatever --tz says (its start/end fields are byte-identical);
#   - a zone that does not exist, a path, "..": exit 2 and one clear line;
#   - line mode (--plain) never prints a leading time that goes back, and prints each
#     verdict's window beside it.
set -u
BIN=${1:?usage: tz.sh path/to/stwtop}
D=$(cd "$(dirname "$0")/.." && pwd)
S=$D/samples/combined/throttle-stop
command -v jq >/dev/null || { echo "tz.sh needs jq"; exit 77; }
[ -f /usr/share/zoneinfo/Europe/Berlin ] || { echo "tz.sh needs tzdata"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0 fails=0
ok() { pass=$((pass + 1)); }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
ARGS=(--gc "$S/gc.log" --cpustat-log "$S/cpustat.log" --nginx "$S/logs/access.log" --nginx-conf "$S/nginx.conf:lab")

TZ=UTC "$BIN" --report --json "${ARGS[@]}" >"$T/utc.json" || fail "json report failed"
nv=$(jq '.verdicts | length' "$T/utc.json")
[ "$nv" -ge 3 ] || fail "expected at least 3 verdicts, got $nv"

# "2026-11-29T19:24:06.088Z" -> HH:MM:SS.mmm+hh:mm in zone $2 (date(1) does the zone work)
local_hms() {
	local iso=$1 zone=$2 ms sec
	ms=${iso:20:3}
	sec=$(date -u -d "${iso:0:19}Z" +%s)
	TZ=$zone date -d "@$sec" "+%H:%M:%S.$ms%:z"
}

# default: UTC, said once in the header
TZ=Europe/Berlin "$BIN" --report "${ARGS[@]}" >"$T/d.txt"
head -1 "$T/d.txt" | grep -q '^stwtop .* report  2026-11-29T19:23:38.332Z .. .*Z (.* s, times in UTC)$' && ok ||
	fail "default header: $(head -1 "$T/d.txt")"
first=$(jq -r '.verdicts[0].start' "$T/utc.json")
grep -q " ${first:11:12}-" "$T/d.txt" && ok || fail "default: verdict start ${first:11:12} not in the report"

check_zone() { # ZONE NAME-IN-HEADER ENV-TZ ARGS...
	local zone=$1 name=$2 envtz=$3; shift 3
	TZ=$envtz "$BIN" --report "$@" "${ARGS[@]}" >"$T/z.txt" 2>"$T/z.err" || { fail "$zone: $(cat "$T/z.err")"; return; }
	local off
	off=$(TZ=$zone date -d 2026-11-29T19:00:00Z +%:z)
	head -1 "$T/z.txt" | grep -q "report  2026-11-.*$off .. 2026-11-.*$off (.* s, times in $name)\$" && ok ||
		fail "$zone header: $(head -1 "$T/z.txt")"
	local i s e
	for i in $(seq 0 $((nv - 1))); do
		s=$(local_hms "$(jq -r ".verdicts[$i].start" "$T/utc.json")" "$zone")
		e=$(local_hms "$(jq -r ".verdicts[$i].end" "$T/utc.json")" "$zone")
		grep -qF " $s-$e" "$T/z.txt" && ok || fail "$zone: verdict $i span $s-$e not in the report"
	done
	# no time of day in VERDICTS without its offset
	sed -n '/^VERDICTS/,/^SUMMARY/p' "$T/z.txt" | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}[^0-9]{0,1}.{0,5}' |
		grep -vE "\.[0-9]{3}[+-][0-9]{2}:[0-9]{2}" >"$T/bare" || true
	[ ! -s "$T/bare" ] && ok || fail "$zone: times without offset: $(head -3 "$T/bare" | tr '\n' ' ')"
	TZ=$envtz "$BIN" --report --brief "$@" "${ARGS[@]}" >"$T/b.txt"
	s=$(local_hms "$(jq -r '.verdicts[0].start' "$T/utc.json")" "$zone")
	grep -q "^$(jq -r '.verdicts[0].severity' "$T/utc.json") $(jq -r '.verdicts[0].id' "$T/utc.json") $s " "$T/b.txt" && ok ||
		fail "$zone brief: no headline at $s: $(sed -n 2p "$T/b.txt")"
	TZ=$envtz "$BIN" --report --json "$@" "${ARGS[@]}" >"$T/z.json"
	[ "$(jq -c '[.verdicts[] | [.start, .end]]' "$T/z.json")" = "$(jq -c '[.verdicts[] | [.start, .end]]' "$T/utc.json")" ] &&
		ok || fail "$zone: JSON times changed"
}
check_zone Europe/Berlin Europe/Berlin UTC --tz Europe/Berlin
check_zone America/New_York America/New_York Europe/Berlin --tz America/New_York
check_zone Asia/Kolkata Asia/Kolkata UTC --tz Asia/Kolkata
check_zone Asia/Kolkata "local time" Asia/Kolkata --tz local
# --tz utc whatever the machine's zone: the default report, byte for byte
TZ=Asia/Kolkata "$BIN" --report --tz utc "${ARGS[@]}" >"$T/u.txt"
TZ=UTC "$BIN" --report "${ARGS[@]}" >"$T/u0.txt"
cmp -s "$T/u.txt" "$T/u0.txt" && ok || fail "--tz utc under TZ=Asia/Kolkata differs from the default"

# errors
for z in Europe/Berln /etc/passwd ../../etc/passwd ""; do
	"$BIN" --report --tz "$z" "${ARGS[@]}" >"$T/o" 2>"$T/e"; rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$T/e")" = 1 ] && grep -q "unknown time zone" "$T/e" && [ ! -s "$T/o" ] && ok ||
		fail "--tz '$z': exit $rc: $(cat "$T/e")"
done

# line mode: leading times never go back; the window is beside each verdict
TZ=UTC timeout 60 "$BIN" --demo --plain --demo-speed 20 >"$T/plain.txt" 2>/dev/null
grep -v '^    ' "$T/plain.txt" | awk '{print $1}' >"$T/lead"
[ "$(wc -l <"$T/lead")" -ge 5 ] && sort -c "$T/lead" && ok || fail "--plain leading times go back: $(tr '\n' ' ' <"$T/lead")"
grep -Eq '^[0-9:.]+ warn new +ttsp-spike +19:24:06\.088-19:24:06\.789$' "$T/plain.txt" && ok ||
	fail "--plain: no ttsp-spike line with its window: $(grep ttsp-spike "$T/plain.txt" | head -2)"
TZ=UTC timeout 60 "$BIN" --demo --plain --demo-speed 20 --tz Europe/Berlin >"$T/plainb.txt" 2>/dev/null
grep -Eq '^[0-9:.]+\+01:00 warn new +ttsp-spike +20:24:06\.088\+01:00-20:24:06\.789\+01:00$' "$T/plainb.txt" && ok ||
	fail "--plain --tz: $(grep ttsp-spike "$T/plainb.txt" | head -2)"

echo "tz: $pass passed, $fails failed"
[ $fails = 0 ]
