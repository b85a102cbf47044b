# SPDX-License-Identifier: GPL-2.0-or-later
# SYNTHETIC: makes this folder's vmstat.log from the REAL vmstat.log of
# tests/samples/combined/gc-stop (a Serial Pause Full of 3104 ms under nginx load, recorded
# 2026-11-29; /proc/vmstat showed no reclaim at all: allocstall +0, pageoutrun +0), adding
# invented direct-reclaim counts inside that run's longest stop. Why no real recording can be
# made on the development machine: README.md of this folder.
# The edit: every sample taken after the stop began gets
#   allocstall_normal += round(STALLS x elapsed share of the stop)   (STALLS once the stop is over)
#   pageoutrun        += round(KSWAPD x elapsed share of the stop)   (KSWAPD once the stop is over)
# All other fields and every earlier line are unchanged; the lines that differ are listed in
# edited-lines.txt (`diff` of the base and this file).
# Usage: bash make-synthetic.sh      (from anywhere; overwrites vmstat.log and edited-lines.txt)
set -euo pipefail
cd "$(dirname "$0")"
export TZ=UTC LC_ALL=C
B=../../samples/combined/gc-stop
STALLS=31 KSWAPD=5
# the stop = the longest safepoint of gc.log: [end - Total, end], end = its time decoration
read -r S E < <(awk '
  function iso2ms(s) { return (mktime(substr(s,1,4) " " substr(s,6,2) " " substr(s,9,2) " " substr(s,12,2) " " substr(s,15,2) " " substr(s,18,2)) - (substr(s,24,1) == "-" ? -1 : 1) * (substr(s,25,2) * 3600 + substr(s,27,2) * 60)) * 1000 + substr(s,21,3) }
  /Safepoint "/ { t = $0; sub(/.*Total: /, "", t); sub(/ ns.*/, "", t); t /= 1e6; if (t > mt) { mt = t; e = iso2ms(substr($0, 2, 28)) } }
  END { printf "%.0f %.0f\n", e - int(mt + 0.5), e }' "$B/gc.log")
awk -v S="$S" -v E="$E" -v N="$STALLS" -v K="$KSWAPD" '
  { t = $1; f = (t <= S) ? 0 : (t >= E ? 1 : (t - S) / (E - S))
    for (i = 2; i < NF; i += 2) {
      if ($i == "allocstall_normal") $(i + 1) += int(N * f + 0.5)
      if ($i == "pageoutrun") $(i + 1) += int(K * f + 0.5)
    }
    print }' "$B/vmstat.log" > vmstat.log
{ echo "# stop window (longest safepoint of $B/gc.log): epoch ms $S .. $E"
  echo "# diff $B/vmstat.log vmstat.log"
  diff "$B/vmstat.log" vmstat.log || true; } > edited-lines.txt
echo "stop $S .. $E; $(grep -c '^>' edited-lines.txt) of $(wc -l < vmstat.log) lines edited" >&2
