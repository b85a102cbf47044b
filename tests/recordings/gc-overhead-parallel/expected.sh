#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# expected.sh — the facts of a gc-overhead recording, recomputed from its gc.log (and app.log for
# the program's phases) with grep/awk. The same script is copied into every gc-overhead-* folder.
#
# A pause is a `[gc ]` line `GC(n) Pause … <a>M-><b>M(<c>M) <d>ms`; it is logged when the pause ends,
# so it covers [time - d, time] of the `time` decoration (UTC). The paused share of a wall second is
# the part of that second covered by pauses. The thrashing window runs from the start of the first
# Full GC to the end of the last Full GC that left the heap >= 75 % full (used after / capacity);
# a Full GC after the cache was dropped that frees most of the heap is listed apart.
cd "$(dirname "$0")"
echo "=== $(basename "$PWD"): $(wc -l < gc.log) lines, $(wc -c < gc.log) bytes; $(grep -o 'Using [A-Za-z0-9 ]*$' gc.log | head -1)"
echo "heap: $(grep -o 'Heap Max Capacity: [0-9A-Z]*' gc.log | head -1)$(grep -o 'Heap Region Size: [0-9A-Z]*' gc.log | head -1 | sed 's/^/, /')"
echo "first line: $(head -1 gc.log | cut -c1-45)   last line: $(tail -1 gc.log | cut -c1-45)"
grep -E '^[0-9]+ uptime_ms=[0-9]+ (start|phase=|filled|OutOfMemory|exit)' app.log | awk '{
  s = int($1 / 1000); ms = $1 % 1000
  cmd = "date -u -d @" s " +%T"; cmd | getline t; close(cmd)
  $1 = ""; $2 = ""; sub(/^  /, "")
  printf "app: %s.%03d %s\n", t, ms, $0 }'
echo "pause kinds:"
grep -E '\[gc +\] GC\([0-9]+\) Pause .* [0-9]+M->[0-9]+M\([0-9]+M\) [0-9.]+ms$' gc.log \
  | sed -E 's/.*GC\([0-9]+\) //; s/ [0-9]+M->.*//' | sort | uniq -c | sed 's/^/  /'
echo "To-space exhausted: $(grep -c '\] GC([0-9]*) To-space exhausted' gc.log)"
echo "other GC causes and events seen: $(grep -oE 'GC\([0-9]+\) (Concurrent [A-Za-z ]+|Evacuation Failure|Pause [A-Z][a-z]+ \([^)]*\)( \([^)]*\))?)' gc.log \
  | sed -E 's/GC\([0-9]+\) //; s/ +$//' | grep -v '^Pause' | sort -u | tr '\n' ';')"
grep -E '\[gc +\] GC\([0-9]+\) Pause .* [0-9]+M->[0-9]+M\([0-9]+M\) [0-9.]+ms$' gc.log | awk '
function tod(s) { return substr(s, 13, 2) * 3600 + substr(s, 16, 2) * 60 + substr(s, 19, 6) }
function hms(x,   h, m) { h = int(x / 3600); m = int((x - h * 3600) / 60); return sprintf("%02d:%02d:%06.3f", h, m, x - h * 3600 - m * 60) }
{
  end = tod($1); d = $NF; sub(/ms$/, "", d); d = d / 1000; st = end - d
  full = ($0 ~ /Pause Full/)
  match($0, /[0-9]+M->[0-9]+M\([0-9]+M\)/); h = substr($0, RSTART, RLENGTH)
  split(h, a, /M->|M\(|M\)/); before = a[1]; after = a[2]; cap = a[3]
  n++; S[n] = st; E[n] = end; F[n] = full; A[n] = after; C[n] = cap; B[n] = before; D[n] = d
  if (n == 1 || st < first) first = st
  last = end
}
END {
  # the thrashing window
  ws = -1; we = -1
  for (i = 1; i <= n; i++) if (F[i] && A[i] >= 0.75 * C[i]) { if (ws < 0) ws = S[i]; we = E[i] }
  nf = 0; amin = 1e9; amax = 0; tpaused = 0
  for (i = 1; i <= n; i++) {
    if (F[i] && S[i] >= ws && E[i] <= we) { nf++; if (A[i] < amin) amin = A[i]; if (A[i] > amax) amax = A[i]; capw = C[i] }
  }
  fulls = 0; for (i = 1; i <= n; i++) if (F[i]) fulls++
  printf "pauses: %d, %d Full GC in all\n", n, fulls
  # paused ms per wall second
  for (i = 1; i <= n; i++) {
    for (s = int(S[i]); s <= int(E[i]); s++) {
      lo = (S[i] > s) ? S[i] : s; hi = (E[i] < s + 1) ? E[i] : s + 1
      if (hi > lo) P[s] += hi - lo
    }
    k = int(E[i]); cnt[k]++; if (F[i]) fc[k]++
    if (S[i] >= ws && E[i] <= we) tpaused += D[i]
  }
  print "per wall second (UTC; pauses and Full GCs counted by the second they end in):"
  print "  second    pauses  full  paused_ms  share"
  for (s = int(first); s <= int(last); s++) {
    inw = (ws >= 0 && s > ws && s + 1 < we) ? " *" : ""
    printf "  %s  %5d  %4d  %9.1f  %4.1f%%%s\n", substr(hms(s), 1, 8), cnt[s], fc[s], P[s] * 1000, P[s] * 100, inw
  }
  if (ws < 0) { print "thrashing window: none (no Full GC left the heap >= 75 % full)"; }
  else {
    mn = 101; mx = -1; ns = 0
    for (s = int(ws) + 1; s + 1 <= we; s++) { v = P[s] * 100; ns++; if (v < mn) mn = v; if (v > mx) mx = v }
    printf "thrashing window: %s .. %s UTC (%.3f s; start of the first Full GC .. end of the last that left the heap >= 75 %% full)\n", hms(ws), hms(we), we - ws
    printf "  paused in the window: %.3f s of %.3f s (%.1f%%)\n", tpaused, we - ws, 100 * tpaused / (we - ws)
    printf "  paused share of the %d whole seconds inside it (* above): min %.1f%%, max %.1f%%\n", ns, mn, mx
    printf "  Full GCs in the window: %d; used after Full GC %d..%dM of %dM capacity (%.0f..%.0f%%)\n", nf, amin, amax, capw, 100 * amin / capw, 100 * amax / capw
  }
  for (i = 1; i <= n; i++) if (F[i] && A[i] < 0.75 * C[i])
    printf "Full GC outside the window: ends %s, %dM->%dM(%dM) %.3f ms\n", hms(E[i]), B[i], A[i], C[i], D[i] * 1000
  # the share of the whole run (first pause start .. last pause end) and of the log
  tot = 0; mxs = 0; for (s in P) { tot += P[s]; if (P[s] > mxs) mxs = P[s] }
  printf "whole log: paused %.3f s of %.3f s between the first pause start and the last pause end (%.1f%%); busiest second %.1f%%\n", tot, last - first, 100 * tot / (last - first), 100 * mxs
}'
