# SPDX-License-Identifier: GPL-2.0-or-later
# Recomputes the expected facts of a recording from its raw files (grep/awk only; mawk or gawk).
# Usage: bash expected.sh            (from anywhere; reads the files next to this script)
# Derived from tests/samples/combined/*/expected.sh; the same conventions:
#   pause line = the [gc]-tagged "GC(n) Pause ..." summary line; TTSP = "Reaching safepoint" of a
#   [safepoint] line; a safepoint's end is its line's time decoration, its start is end - Total;
#   "stop" = a safepoint (the JVM's threads stopped), "stop >= 100 ms" = Total >= 100 ms;
#   W = the longest safepoint; a request "started in W" when $msec - $request_time lies in
#   [W start, W end); uct bucket = the sum of the comma-separated $upstream_connect_time values
#   rounded to the nearest second ("4+" for >= 4 s, "-" when nginx never connected);
#   counter deltas around an interval [s, e] (cpu.stat, schedstat, vmstat) are taken between the
#   last sample at or before s and the first sample at or after e.
cd "$(dirname "$0")"
export TZ=UTC LC_ALL=C
AWKFN='
function iso2ms(s,   t, sign) {      # 2026-11-29T18:39:08.612+0000 -> epoch ms
  t = mktime(substr(s,1,4) " " substr(s,6,2) " " substr(s,9,2) " " substr(s,12,2) " " substr(s,15,2) " " substr(s,18,2))
  sign = (substr(s,24,1) == "-") ? -1 : 1
  t -= sign * (substr(s,25,2) * 3600 + substr(s,27,2) * 60)   # mktime() read it as UTC (TZ=UTC)
  return t * 1000 + substr(s,21,3)
}
function iso(ms) { return strftime("%Y-%m-%dT%H:%M:%S", int(ms / 1000)) sprintf(".%03d+0000", ms % 1000) }
function ns_field(line, key,   v) { v = line; sub(".*" key ": ", "", v); sub(/ ns.*/, "", v); return v + 0 }
'
echo "=== $(head -1 environment.txt)"
echo "raw file sizes (bytes): $(wc -c gc.log* logs/*.log requests.log console.log cpustat.log schedstat.log vmstat.log events.log client.csv accept-queue.csv | awk '$2 != "total" {printf "%s %s, ", $2, $1}')"
echo "total size of the folder: $(du -sb . | cut -f1) bytes"
grep -E '^(JVM affinity|CPU hogs|nginx, loadgen|cgroup:)' environment.txt | sed 's/^/environment.txt: /'
sed 's/^/watcher.txt: /' watcher.txt

# ---- JVM ----------------------------------------------------------------------------------------
echo "JVM: $(grep -m1 -o 'Using [A-Za-z0-9]*' gc.log); $(grep -m1 -o 'CPUs: .*' gc.log); $(grep -m1 -o 'Memory: .*' gc.log);" \
     "$(grep -m1 -o 'Heap Min Capacity: .*' gc.log); $(grep -m1 -o 'Heap Initial Capacity: .*' gc.log); $(grep -m1 -o 'Heap Max Capacity: .*' gc.log);" \
     "$(grep -m1 -o 'Periodic GC.*' gc.log || echo 'no Periodic GC line')"
echo "JVM command line flags: $(tr ' ' '\n' < jvm-cmdline.txt | grep -E '^-X|^-XX' | grep -v Xlog | tr '\n' ' ')"

# ---- GC pauses ------------------------------------------------------------------------------------
awk "$AWKFN"'
  /\]\[gc *\] GC\([0-9]+\) Pause/ {
    ms = $NF; sub(/ms$/, "", ms); n++; sum += ms
    k = $0; sub(/.*GC\([0-9]+\) /, "", k); sub(/ [0-9]+[KMG]->.*/, "", k); sub(/ [0-9.]+ms$/, "", k); kind[k]++
    if (ms + 0 >= 100) n100++; if (ms + 0 >= 500) n500++
    if (ms + 0 > max) { max = ms + 0; line = $0; endt = substr($0, 2, 28) }
  }
  END {
    printf "GC pause lines: %d (sum %.1f ms), >= 100 ms: %d, >= 500 ms: %d:", n, sum, n100, n500; for (k in kind) printf " %s x%d;", k, kind[k]; printf "\n"
    m = line; sub(/.*\] GC\(/, "GC(", m)
    printf "longest GC pause: %s (ends %s)\n", m, endt
  }' gc.log
grep -E '\]\[gc *\] GC\([0-9]+\) Pause Full' gc.log | sed 's/^/  Pause Full: /' | head -5
awk '/\]\[gc *\] GC\([0-9]+\) Pause/ { c = $0; sub(/.*\(/, "", c); sub(/M\).*/, "", c); if (!f) f = c; l = c; if (c + 0 > m) m = c + 0 }
     END { printf "committed heap (the parenthesised number of the pause lines): first %sM, max %dM, last %sM\n", f, m, l }' gc.log

# ---- safepoints -----------------------------------------------------------------------------------
awk "$AWKFN"'
  /Safepoint "/ {
    op = $0; sub(/.*Safepoint "/, "", op); sub(/".*/, "", op)
    r = ns_field($0, "Reaching safepoint") / 1e6; t = ns_field($0, "Total") / 1e6
    n++; cnt[op]++; sr += r
    if (t >= 100) t100++; if (r >= 100) r100++
    if (r > mr) { mr = r; mrop = op; mrend = substr($0, 2, 28); mrtot = t }
    if (t > mt) { mt = t; mtop = op; mtend = substr($0, 2, 28); mtr = r; mtat = ns_field($0, "At safepoint") / 1e6 }
  }
  END {
    printf "safepoint lines: %d:", n; for (k in cnt) printf " %s x%d;", k, cnt[k]; printf "\n"
    e = iso2ms(mtend)
    printf "longest safepoint: \"%s\" Total %.1f ms (TTSP %.1f ms, At safepoint %.1f ms), start %s (end - Total), end %s\n", mtop, mt, mtr, mtat, iso(e - int(mt + 0.5)), mtend
    printf "TTSP (Reaching safepoint) max %.1f ms in \"%s\" ending %s (Total %.1f ms); mean %.2f ms; safepoints with Total >= 100 ms: %d; with TTSP >= 100 ms: %d\n", mr, mrop, mrend, mrtot, sr / n, t100, r100
  }' gc.log
echo "SafepointTimeout reports ('Timeout detected'): $(grep -c 'Timeout detected' gc.log) in gc.log, $(grep -c 'Timeout detected' console.log) in console.log"

# ---- every stop >= 100 ms with the counters around it ------------------------------------------
STOPS=$(awk "$AWKFN"'/Safepoint "/ { t = ns_field($0, "Total") / 1e6; if (t >= 100) { e = iso2ms(substr($0, 2, 28)); printf "%.0f:%.0f ", e - int(t + 0.5), e } }' gc.log)
echo "stops >= 100 ms (safepoints): $(echo $STOPS | wc -w)"
for w in $STOPS; do
  S=${w%:*}; E=${w#*:}
  awk -v S="$S" -v E="$E" "$AWKFN"'
    FILENAME == "gc.log" && /Safepoint "/ { if (!shown && iso2ms(substr($0, 2, 28)) == E && int(ns_field($0, "Total") / 1e6 + 0.5) == E - S) { shown = 1; op = $0; sub(/.*Safepoint "/, "", op); sub(/".*/, "", op)
        printf "  %s .. %s (%d ms) \"%s\" TTSP %.1f ms;", iso(S), iso(E), E - S, op, ns_field($0, "Reaching safepoint") / 1e6 } next }
    FILENAME == "gc.log" { next }
    FILENAME == "cpustat.log" { nc++; ct[nc] = iso2ms($1); for (i = 2; i < NF; i += 2) cv[$i, nc] = $(i + 1); next }
    FILENAME == "schedstat.log" && FNR > 1 { split($0, c, ","); if (c[1] != last) { ns++; ts[ns] = c[1]; last = c[1] } run[c[2], ns] = c[4]; wt[c[2], ns] = c[5]; tids[c[2]] = 1; next }
    FILENAME == "vmstat.log" { nv++; vt[nv] = $1; st = 0; for (i = 2; i < NF; i += 2) { if ($i ~ /^allocstall/) st += $(i + 1); else vv[$i, nv] = $(i + 1) } vv["allocstall", nv] = st; next }
    END {
      a = 1; b = nc; for (i = 1; i <= nc; i++) { if (ct[i] <= S) a = i; if (ct[i] >= E) { b = i; break } }
      printf " cpu.stat %s..%s: throttled_time %+.1f ms, nr_throttled %+d;", substr(iso(ct[a]), 12, 12), substr(iso(ct[b]), 12, 12),
             (cv["throttled_time", b] - cv["throttled_time", a]) / 1e6, cv["nr_throttled", b] - cv["nr_throttled", a]
      a = 1; b = ns; for (i = 1; i <= ns; i++) { if (ts[i] <= S) a = i; if (ts[i] >= E) { b = i; break } }
      R = 0; Wt = 0
      for (tid in tids) if (((tid, a) in run) && ((tid, b) in run)) { R += run[tid, b] - run[tid, a]; Wt += wt[tid, b] - wt[tid, a] }
      span = ts[b] - ts[a]
      printf " schedstat %s..%s (%d ms): on CPU %.0f ms, waiting %.0f ms (%.0f ms per s);", substr(iso(ts[a]), 12, 12), substr(iso(ts[b]), 12, 12),
             span, R / 1e6, Wt / 1e6, (span > 0 ? Wt / 1e6 / (span / 1000) : 0)
      a = 1; b = nv; for (i = 1; i <= nv; i++) { if (vt[i] <= S) a = i; if (vt[i] >= E) { b = i; break } }
      printf " vmstat %s..%s: allocstall %+d, pgscan_direct %+d, pgscan_kswapd %+d\n", substr(iso(vt[a]), 12, 12), substr(iso(vt[b]), 12, 12),
             vv["allocstall", b] - vv["allocstall", a], vv["pgscan_direct", b] - vv["pgscan_direct", a], vv["pgscan_kswapd", b] - vv["pgscan_kswapd", a]
    }' gc.log cpustat.log schedstat.log vmstat.log
done

# ---- cpu.stat -----------------------------------------------------------------------------------
awk "$AWKFN"'
  { n++; t[n] = iso2ms($1); for (i = 2; i < NF; i += 2) v[$i, n] = $(i + 1) }
  END {
    printf "cpustat.log: %d samples %s .. %s; whole run: nr_periods +%d, nr_throttled +%d, throttled_time +%.1f ms\n",
           n, iso(t[1]), iso(t[n]), v["nr_periods", n] - v["nr_periods", 1], v["nr_throttled", n] - v["nr_throttled", 1], (v["throttled_time", n] - v["throttled_time", 1]) / 1e6
    for (i = 2; i <= n; i++) if (v["throttled_time", i] > v["throttled_time", i - 1]) { if (!f) f = i; l = i; k++ }
    if (f) printf "  throttled_time grows in %d intervals, between samples %s and %s\n", k, iso(t[f - 1]), iso(t[l])
    else   printf "  throttled_time never grows\n"
  }' cpustat.log

# ---- schedstat over the load -------------------------------------------------------------------
L0=$(awk '/ load start/ {print $1; exit}' events.log); L1=$(awk '/ load all responses done/ {print $1; exit}' events.log)
awk -F, -v S="$L0" -v E="$L1" "$AWKFN"'
  NR == 1 { next }
  { if ($1 != last) { ns++; ts[ns] = $1; last = $1 } run[$2, ns] = $4; wt[$2, ns] = $5; comm[$2] = $3; tids[$2] = 1 }
  END {
    a = 1; b = ns; for (i = 1; i <= ns; i++) { if (ts[i] <= S) a = i; if (ts[i] >= E) { b = i; break } }
    for (tid in tids) if (((tid, a) in run) && ((tid, b) in run)) { R += run[tid, b] - run[tid, a]; Wt += wt[tid, b] - wt[tid, a] }
    for (i = a + 1; i <= b; i++) { r = 0; w = 0
      for (tid in tids) if (((tid, i - 1) in run) && ((tid, i) in run)) { r += run[tid, i] - run[tid, i - 1]; w += wt[tid, i] - wt[tid, i - 1] }
      ps = w / 1e6 / ((ts[i] - ts[i - 1]) / 1000); if (ps > mw) { mw = ps; mwt = ts[i]; mwr = r / 1e6; mww = w / 1e6 }
      if (w > r) wgt++; k++ }
    printf "schedstat.log: %d samples; during the load (%s .. %s, %d ms): JVM threads on CPU %.0f ms, waiting %.0f ms (%.0f ms per s)\n",
           ns, iso(ts[a]), iso(ts[b]), ts[b] - ts[a], R / 1e6, Wt / 1e6, Wt / 1e6 / ((ts[b] - ts[a]) / 1000)
    printf "  highest wait in one sample interval: %.0f ms per s (interval ending %s: on CPU %.0f ms, waiting %.0f ms); intervals with waiting > on CPU: %d of %d\n",
           mw, iso(mwt), mwr, mww, wgt, k
  }' schedstat.log
awk '{ for (i = 2; i < NF; i += 2) { if (NR == 1) f[$i] = $(i + 1); l[$i] = $(i + 1); if (!(($i) in seen)) { seen[$i] = 1; ord[++nk] = $i } } }
     END { printf "vmstat.log: %d samples; deltas:", NR; for (i = 1; i <= nk; i++) printf " %s %+d", ord[i], l[ord[i]] - f[ord[i]]; printf "\n" }' vmstat.log

# ---- nginx access.log ---------------------------------------------------------------------------
# $msec $request_id $status uct=.. uht=.. urt=.. rt=..; W = the longest safepoint
read -r W_S W_E < <(awk "$AWKFN"'
  /Safepoint "/ { t = ns_field($0, "Total") / 1e6; if (t > mt) { mt = t; e = iso2ms(substr($0, 2, 28)) } }
  END { printf "%.0f %.0f\n", e - int(mt + 0.5), e }' gc.log)
awk -v S="$W_S" -v E="$W_E" -v L="$(awk '/ load start/ {print $1; exit}' events.log)" "$AWKFN"'
  function bucket(u,   n, p, i, s) { if (u == "-") return "-"; n = split(u, p, /, */); s = 0
                                        for (i = 1; i <= n; i++) s += p[i]; s = int(s + 0.5); return (s >= 4) ? "4+" : s }
  { u = $4; sub(/^uct=/, "", u); h = $5; sub(/^uht=/, "", h); r = $7; sub(/^rt=/, "", r)
    b = bucket(u); nb[b]++; st[$3]++; n++
    if (u != "-") { if (!(b in mn) || u + 0 < mn[b]) mn[b] = u + 0; if (u + 0 > mx[b]) mx[b] = u + 0 }
    if (r + 0 > mrt) mrt = r + 0
    start = ($1 - r) * 1000
    if (start >= S && start < E) { w++; wb[b]++; if (h != "-" && h + 0 > wh) wh = h + 0 }
    else if (b != "0") { out++ }
    P = (S - L < 30000) ? S - L : 30000      # the 30 s before W, or the part of them with load
    if (P < 0) P = 0
    if (start >= S - P && start < S) pre++
    if (b != "0" && b != "-") { if (!fs || start < fs) fs = start; if (start > ls) ls = start } }
  END {
    printf "nginx access.log: %d requests; status:", n; for (k in st) printf " %s=%d", k, st[k]; printf "; max request_time %.3f s\n", mrt
    printf "  uct buckets:"; split("0 1 2 3 4+ -", order, " ")
    for (i = 1; i <= 6; i++) { k = order[i]; if (k in nb) printf "  %s s: %d%s", k, nb[k], (k == "-") ? "" : sprintf(" [%.3f..%.3f]", mn[k], mx[k]) }
    printf "\n  W = the longest safepoint %s .. %s (%d ms); requests started in W: %d; their buckets:", iso(S), iso(E), E - S, w
    for (i = 1; i <= 6; i++) { k = order[i]; if (k in wb) printf "  %s s: %d", k, wb[k] }
    printf "; max uht among them %.3f s\n  requests started in the %.1f s before W: %d (%.1f req/s); non-zero-bucket requests started outside W: %d", wh, P / 1000, pre, (P > 0 ? pre / (P / 1000) : 0), out + 0
    if (fs) printf "; non-zero-bucket requests started %.3f .. %.3f s after W start", (fs - S) / 1000, (ls - S) / 1000
    printf "\n" }' logs/access.log

# ---- app request log, accept queue, client ----------------------------------------------------------
sort -n requests.log | awk "$AWKFN"'
  { n++; st[$3]++; p = $4; sub(/proc_ms=/, "", p); if (p + 0 > mp) { mp = p + 0; mpt = $1 }
    if (prev && $1 - prev > gap) { gap = $1 - prev; ga = prev; gb = $1 }
    prev = $1; if ($2 !~ /^rid=[0-9a-f]+$/) other = other " " $2 " " $6 }
  END {
    printf "requests.log: %d lines:", n; for (k in st) printf " %s=%d", k, st[k]; printf "; not from nginx:%s\n", other
    printf "  largest gap between handler starts: %d ms, %s .. %s; max proc_ms %.3f (request started %s)\n", gap, iso(ga), iso(gb), mp, iso(mpt)
  }'
awk -F, "$AWKFN"'NR > 1 { if ($2 + 0 > m) { m = $2 + 0; mt = $1 } if ($2 + 0 >= 101) { if (!f) f = $1; l = $1; n++ } }
  END { printf "accept-queue.csv: max %d%s; samples at >= 101 (backlog 100 full): %d, from %s to %s\n",
        m, (m > 0 ? " (first at " iso(mt) ")" : ""), n, (f ? iso(f) : "never"), (l ? iso(l) : "never") }' accept-queue.csv
echo "kernel TCP counters (delta over the load): $(awk 'NR>1{printf "%s=%s ", $1, $4}' counters.txt)"
awk -F, 'NR > 1 { c[$6 ($8 != "" ? "/" $8 : "")]++; if ($5 > m) m = $5 } END { printf "client.csv:"; for (k in c) printf " %s=%d", k, c[k]; printf "; max latency %d ms\n", m }' client.csv
echo "events.log:"; sed 's/^/  /' events.log
echo "console.log (app lines):"; grep -E '^[0-9]{13} ' console.log | sed 's/^/  /'
