# SPDX-License-Identifier: GPL-2.0-or-later
# gc-records.awk — an independent count of the stop-the-world records of a
# pre-unified HotSpot GC log (JDK 5-8 -XX:+PrintGC / -XX:+PrintGCDetails),
# written from the log text alone, never from stwtop's parser (see
# ../shared/FORMATS.md (d) and tests/e2e/legacy_sweep.sh, which compares it
# with `stwtop --report --json`).
#
# What it counts. A record opens at "[GC" or "[Full GC" met outside any open
# record (bracket depth 0), wherever it sits on the line: after date/uptime
# stamps, glued to what follows ("[GC2014-...", "[GC1837.600: [ParNew",
# "[GCDesired survivor size", "[GC {Heap before gc", "[GC" at the end of the
# line), except "[GC concurrent-..." (G1 concurrent phases, no pause) and
# "[GC Worker ..." (rows of G1's phase tree, printed after the record
# closed). From there every "[" nests one level deeper and every "]" closes
# one; the record ends where the depth comes back to 0. It is a pause when the
# text just before that "]" is "secs" (HotSpot's ", %3.7f secs]" of
# gcTraceTime / TraceTime, "." or "," as decimal mark). Records opened inside
# an open record (a CMS remark's scavenge with -XX:+CMSScavengeBeforeRemark,
# the "[ParNew" of "[GC<stamp>: [ParNew") are part of the outer record and
# are not counted again.
#
# Brackets that close nothing are not read: address ranges "[0x..., 0x...)"
# of -XX:+PrintHeapAtGC (and "[0x...,0x...]" of G1's rem set summary), and -XX:+PrintClassHistogram rows "%5ld: %13ld %13lu  %s"
# whose class names are "[C", "[Ljava.lang.Object;" (the whole row is skipped).
# Brackets outside a record ("[Times: ...]", "[CMS-concurrent-mark: ...]",
# G1's "[Eden: ... Heap: ...]" and phase tree) are not records and not nested.
#
# Output, one line per record: "<kind> <open line> <close line> <secs>" with
# kind "pause" (closed with a duration), "nodur" (closed without one) or
# "open" (the file ended inside it; close line 0). A record that never closes
# hides the records after it, so on a broken log this is a lower bound.
BEGIN { depth = 0 }
/^ *[0-9]+: +[0-9]+ +[0-9]+  [^ ]/ { next }   # class histogram row
{
	s = $0
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "[") {
			if (substr(s, i + 1, 2) == "0x") {
				# an address range: to its ")" (or "]" of G1's rem set summary)
				while (i < n && substr(s, i + 1, 1) != ")" && substr(s, i + 1, 1) != "]")
					i++
				i++
				continue
			}
			if (depth > 0) {
				depth++
				continue
			}
			t = substr(s, i + 1, 16)
			if ((substr(t, 1, 2) == "GC" && substr(t, 1, 13) != "GC concurrent" && \
			     substr(t, 1, 9) != "GC Worker") || substr(t, 1, 7) == "Full GC") {
				depth = 1
				open_line = FNR
			}
		} else if (c == "]" && depth > 0) {
			depth--
			if (depth == 0) {
				head = substr(s, 1, i - 1)
				if (head ~ /[0-9][.,]?[0-9]* secs$/) {
					v = head
					sub(/ secs$/, "", v)
					sub(/.*[^0-9.,]/, "", v)
					gsub(/,/, ".", v)
					printf "pause %d %d %s\n", open_line, FNR, v
				} else {
					printf "nodur %d %d 0\n", open_line, FNR
				}
			}
		}
	}
}
END { if (depth > 0) printf "open %d 0 0\n", open_line }
