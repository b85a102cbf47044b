/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_jvmlog_fast.c — the parser's fast paths (the line shapes HotSpot writes,
 * read without the general field-by-field scan) must give exactly what the
 * general reading gives. Every case runs two parsers side by side, one with
 * jvmlog_set_general_only(), over the same lines and compares every event byte
 * and the learnt facts after each line: real sample logs, the four safepoint
 * shapes of FORMATS.md (d) in every field order, odd spacing, numbers of 1 to
 * 20+ digits, overflow, missing and unknown fields, and every prefix of each
 * line. Lines are parsed from exact-size heap copies so that AddressSanitizer
 * catches a read past the length. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/jvmlog.h"
#include "../../core/parse/jvmlog_internal.h" /* jl_find() */

struct pair {
	struct jvmlog *fast, *gen;
	long lines;
};

static void pair_init(struct pair *pr)
{
	pr->fast = jvmlog_new();
	pr->gen = jvmlog_new();
	assert_non_null(pr->fast);
	assert_non_null(pr->gen);
	jvmlog_set_general_only(pr->gen, true);
	pr->lines = 0;
}

static void compare(const char *what, const char *line, size_t n, int ra, const struct event *a, int rb,
		    const struct event *b, const struct pair *pr)
{
	if (ra != rb || (ra > 0 && memcmp(a, b, sizeof *a * (size_t)ra) != 0))
		fail_msg("%s: fast and general readings differ (%d vs %d events) on \"%.*s\"", what, ra, rb,
			 (int)n, line);
	if (jvmlog_collector(pr->fast) != jvmlog_collector(pr->gen) ||
	    jvmlog_jdk_release(pr->fast) != jvmlog_jdk_release(pr->gen))
		fail_msg("%s: parser facts differ after \"%.*s\"", what, (int)n, line);
}

/* one line through both parsers, from exact-size copies */
static void pair_line(struct pair *pr, const char *line, size_t n)
{
	struct event a[JVMLOG_MAX_EVENTS], b[JVMLOG_MAX_EVENTS];
	char *copy = malloc(n ? n : 1);
	int ra, rb;
	assert_non_null(copy);
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memcpy(copy, line, n);
	ra = jvmlog_parse_line(pr->fast, copy, n, a, JVMLOG_MAX_EVENTS);
	rb = jvmlog_parse_line(pr->gen, copy, n, b, JVMLOG_MAX_EVENTS);
	free(copy);
	compare("line", line, n, ra, a, rb, b, pr);
	pr->lines++;
}

static void pair_fini(struct pair *pr)
{
	struct event a[JVMLOG_MAX_EVENTS], b[JVMLOG_MAX_EVENTS];
	int ra, rb;
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	ra = jvmlog_flush(pr->fast, a, JVMLOG_MAX_EVENTS);
	rb = jvmlog_flush(pr->gen, b, JVMLOG_MAX_EVENTS);
	compare("flush", "", 0, ra, a, rb, b, pr);
	jvmlog_free(pr->fast);
	jvmlog_free(pr->gen);
}

/* A line alone on fresh parsers, then every prefix of it (cuts in the middle
 * of a name, a number, a unit) on the same pair. */
static void all_cuts(const char *line)
{
	struct pair pr;
	size_t n = strlen(line);
	pair_init(&pr);
	pair_line(&pr, line, n);
	pair_fini(&pr);
	pair_init(&pr);
	for (size_t k = 0; k <= n; k++)
		pair_line(&pr, line, k);
	pair_fini(&pr);
}

/* ------------------------------------------------------------------------ */
/* real logs                                                                */

static long pair_file(const char *path)
{
	struct pair pr;
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	long lines;
	if (!f)
		return 0;
	pair_init(&pr);
	while ((len = getline(&buf, &cap, f)) >= 0) {
		size_t n = (size_t)len;
		if (n && buf[n - 1] == '\n')
			n--;
		pair_line(&pr, buf, n);
	}
	free(buf);
	fclose(f);
	lines = pr.lines;
	pair_fini(&pr);
	return lines;
}

static void samples_agree(void **state)
{
	static const char *const names[] = { "gc.log", "console.log" };
	const char *root = STWTOP_TEST_DIR "/samples";
	long files = 0, lines = 0;
	DIR *top = opendir(root);
	struct dirent *a, *b;
	(void)state;
	assert_non_null(top);
	while ((a = readdir(top))) {
		char p1[512];
		DIR *mid;
		if (a->d_name[0] == '.')
			continue;
		snprintf(p1, sizeof p1, "%s/%s", root, a->d_name);
		if (!(mid = opendir(p1)))
			continue;
		while ((b = readdir(mid))) {
			char p2[1024];
			size_t l = strlen(b->d_name);
			if (b->d_name[0] == '.')
				continue;
			if (l > 4 && strcmp(b->d_name + l - 4, ".txt") == 0 && strncmp(b->d_name, "dataset", 7) == 0) {
				snprintf(p2, sizeof p2, "%s/%s", p1, b->d_name);
				lines += pair_file(p2);
				files++;
				continue;
			}
			for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
				long k;
				snprintf(p2, sizeof p2, "%s/%s/%s", p1, b->d_name, names[i]);
				k = pair_file(p2);
				if (k) {
					lines += k;
					files++;
				}
			}
		}
		closedir(mid);
	}
	closedir(top);
	print_message("%ld files, %ld lines: fast and general readings agree\n", files, lines);
	assert_true(files >= 20);
	assert_true(lines >= 10000);
}

/* ------------------------------------------------------------------------ */
/* safepoint lines (runtime/safepoint.cpp SafepointTracing::end())          */

static const char *const decos[] = {
	"[0.489s][info][safepoint   ] ",
	"[2026-11-29T19:23:38.592+0000][0.265s][info][safepoint   ] ",
	"[2025-08-27T07:33:11.892-0400] ",
	"",
};

/* the fields after "Time since last" of the four shapes */
static const char *const shape_a[] = { "Reaching safepoint: 12838 ns", "At safepoint: 704423 ns",
				       "Total: 717261 ns" };
static const char *const shape_b[] = { "Reaching safepoint: 5061 ns", "Cleanup: 21193 ns",
				       "At safepoint: 5362606 ns", "Total: 5388860 ns" };
static const char *const shape_c[] = { "Reaching safepoint: 3800 ns", "Cleanup: 10482 ns",
				       "At safepoint: 4392662 ns", "Leaving safepoint: 3432 ns",
				       "Total: 4410376 ns" };
static const char *const shape_d[] = { "Reaching safepoint: 78666 ns", "At safepoint: 821625 ns",
				       "Leaving safepoint: 1472167 ns", "Total: 2372458 ns",
				       "Threads: 3 runnable, 1038 total" };

static void sp_line(char *buf, size_t cap, const char *deco, const char *op, const char *const *f, int nf,
		    const int *order)
{
	size_t o = (size_t)snprintf(buf, cap, "%sSafepoint \"%s\", Time since last: 3273659 ns", deco, op);
	for (int i = 0; i < nf && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, ", %s", f[order ? order[i] : i]);
}

/* every permutation of idx[k..n) */
static void permute(int *idx, int k, int n, const char *const *f, const char *deco)
{
	if (k == n) {
		char line[600];
		struct pair pr;
		sp_line(line, sizeof line, deco, "G1CollectForAllocation", f, n, idx);
		pair_init(&pr);
		pair_line(&pr, line, strlen(line));
		pair_fini(&pr);
		return;
	}
	for (int i = k; i < n; i++) {
		int t = idx[k];
		idx[k] = idx[i];
		idx[i] = t;
		permute(idx, k + 1, n, f, deco);
		idx[i] = idx[k];
		idx[k] = t;
	}
}

static void sp_shapes_every_order(void **state)
{
	static const struct {
		const char *const *f;
		int n;
	} shapes[] = { { shape_a, 3 }, { shape_b, 4 }, { shape_c, 5 }, { shape_d, 5 } };
	(void)state;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		for (size_t d = 0; d < sizeof decos / sizeof decos[0]; d++) {
			int idx[8];
			char line[600];
			for (int i = 0; i < shapes[s].n; i++)
				idx[i] = i;
			permute(idx, 0, shapes[s].n, shapes[s].f, decos[d]);
			/* each prefix of the shape in HotSpot's order, and missing fields */
			sp_line(line, sizeof line, decos[d], "Cleanup", shapes[s].f, shapes[s].n, NULL);
			all_cuts(line);
			for (int k = 0; k < shapes[s].n; k++) {
				sp_line(line, sizeof line, decos[d], "ThreadDump", shapes[s].f, k, NULL);
				all_cuts(line);
			}
		}
	}
}

static void sp_odd_lines(void **state)
{
	static const char *const tails[] = {
		/* spacing */
		", Reaching safepoint:  5061 ns, At safepoint: 5 ns, Total: 6 ns",
		", Reaching safepoint:\t5061 ns, Total: 6 ns",
		",Reaching safepoint: 5061 ns,Total: 6 ns",
		" , Reaching safepoint: 5061 ns , Total: 6 ns",
		",  Reaching safepoint: 5061 ns,  Total: 6 ns",
		", Reaching safepoint: 5061ns, Total: 6ns",
		", Reaching safepoint: 5061 ns, Total: 6 ns ",
		", Reaching safepoint: 5061 ns, Total: 6 ns,",
		", Reaching safepoint: 5061 ns, Total: 6 ns, ",
		", Reaching safepoint : 5061 ns, Total: 6 ns",
		", Threads: 3 runnable,  1038 total",
		", Threads: 3 runnable, 1038 total, Total: 5 ns",
		", Threads: 3 runnable",
		", Threads: 3, 1038 total",
		", Threads: 3 runnable, 1038 totals",
		", Threads: runnable, total",
		/* numbers: 1 digit, 18, 19, 20 digits, INT64_MAX and past it, 2^64, signs */
		", Reaching safepoint: 0 ns, At safepoint: 1 ns, Total: 9 ns",
		", Reaching safepoint: 123456789012345678 ns, Total: 999999999999999999 ns",
		", Reaching safepoint: 1234567890123456789 ns, Total: 5 ns",
		", Reaching safepoint: 9223372036854775807 ns, Total: 5 ns",
		", Reaching safepoint: 9223372036854775808 ns, Total: 5 ns",
		", Reaching safepoint: 18446744073709551615 ns, Total: 5 ns",
		", Reaching safepoint: 18446744073709551616 ns, Total: 5 ns",
		", Reaching safepoint: 99999999999999999999999999 ns, Total: 5 ns",
		", Reaching safepoint: 000000000000000000000012 ns, Total: 5 ns",
		", Reaching safepoint: -5 ns, Total: +6 ns",
		", Reaching safepoint: 5.5 ns, Total: 6 ns",
		", Threads: 99999999999999999999 runnable, 1038 total",
		", Threads: 3 runnable, 2147483648 total",
		/* missing, repeated, unknown fields */
		"",
		",",
		", ",
		", Total: ns",
		", Total:",
		", Total: 5 ns, Total: 7 ns",
		", Cleanup: 5 ns, Cleanup: 7 ns",
		", Frobnicate: 5 ns, Total: 6 ns",
		", Frobnicate: 5 ns",
		", Time since last: 5 ns",
		", Reaching safepoint: 5061 ns, Sync: 7 ns, Total: 6 ns",
		", Reaching safepoint: 5061 ns garbage, Total: 6 ns",
		", Reaching safepoint: 5061 ms, Total: 6 ns",
		", reaching safepoint: 5061 ns, Total: 6 ns",
		", At safepoint: 5061 ns: 7 ns",
	};
	static const char *const ops[] = { "G1CollectForAllocation", "", "a,b: 5 ns, Total: 9 ns" };
	(void)state;
	for (size_t d = 0; d < sizeof decos / sizeof decos[0]; d++) {
		for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
			for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
				char line[600];
				snprintf(line, sizeof line, "%sSafepoint \"%s\"%s", decos[d], ops[o], tails[t]);
				all_cuts(line);
				/* and without "Time since last" */
				snprintf(line, sizeof line, "%sSafepoint \"%s\", Time since last: 7 ns%s", decos[d],
					 ops[o], tails[t]);
				all_cuts(line);
			}
		}
	}
	/* "Time since last" (skipped, not valued, by the fast path) of 1 to 30
	 * digits, with odd bytes, before each shape */
	{
		static const char *const since[] = {
			"0", "7", "12345678", "123456789", "1234567890", "1234567812345678",
			"12345678123456789", "1234567890123456789", "12345678901234567890",
			"123456789012345678901234567890", "", "x", "12a", "-5", "+5", "1 2", "12345678 ",
		};
		for (size_t d = 0; d < sizeof decos / sizeof decos[0]; d++) {
			for (size_t k = 0; k < sizeof since / sizeof since[0]; k++) {
				char line[600];
				snprintf(line, sizeof line, "%sSafepoint \"Cleanup\", Time since last: %s ns, Reaching safepoint: 5061 ns, Cleanup: 21193 ns, At safepoint: 5362606 ns, Total: 5388860 ns",
					 decos[d], since[k]);
				all_cuts(line);
				snprintf(line, sizeof line, "%sSafepoint \"Cleanup\", Time since last: %s ns", decos[d], since[k]);
				all_cuts(line);
			}
		}
	}
	/* no closing quote, no quote at all */
	all_cuts("[0.1s][info][safepoint] Safepoint \"G1CollectForAllocation, Total: 5 ns");
	all_cuts("[0.1s][info][safepoint] Safepoint G1CollectForAllocation, Total: 5 ns");
}

/* A stats row waiting for its Safepoint line, and Safepoint lines of another op:
 * the pending state must come out the same. */
static void sp_with_stats_rows(void **state)
{
	static const char *const lines[] = {
		"[0.5s][info][safepoint,stats] G1CollectForAllocation       [              13               0 ][          5061      21193    5362606    5388860 ]               0",
		"[0.5s][info][safepoint      ] Safepoint \"G1CollectForAllocation\", Time since last: 448888304 ns, Reaching safepoint: 5061 ns, Cleanup: 21193 ns, At safepoint: 5362606 ns, Total: 5388860 ns",
		"[0.6s][info][safepoint,stats] Cleanup                      [              13               0 ][          5061      21193    5362606    5388860 ]               0",
		"[0.6s][info][safepoint      ] Safepoint \"ThreadDump\", Time since last: 448888304 ns, Reaching safepoint: 5061 ns, Cleanup: 21193 ns, At safepoint: 5362606 ns, Total: 5388860 ns",
		"[0.7s][info][safepoint,stats] Cleanup                      [              13               0 ][          5061      21193    5362606    5388860 ]               0",
		"[0.7s][info][safepoint      ] Safepoint \"Cleanup\", Time since last: 1 ns, Reaching safepoint: 78666 ns, At safepoint: 821625 ns, Leaving safepoint: 1472167 ns, Total: 2372458 ns, Threads: 3 runnable, 1038 total",
	};
	struct pair pr;
	(void)state;
	pair_init(&pr);
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		pair_line(&pr, lines[i], strlen(lines[i]));
	pair_fini(&pr);
}

/* ------------------------------------------------------------------------ */
/* ISO timestamps (the minute and offset of the last line are reused)      */

/* form with its "%s" replaced by stamp */
static void fill(char *buf, size_t cap, const char *form, const char *stamp)
{
	const char *at = strstr(form, "%s");
	assert_non_null(at);
	snprintf(buf, cap, "%.*s%s%s", (int)(at - form), form, stamp, at + 2);
}

static void iso_sequences(void **state)
{
	/* the stamp forms util_parse_iso8601 reads, each after a line of the
	 * same minute and offset, so a reuse would show */
	static const char *const stamps[] = {
		"2017-01-12T04:43:46.411-0500", "2017-01-12T04:43:59.999-0500", "2017-01-12T04:43:60.000-0500",
		"2017-01-12T04:43:61.000-0500", "2017-01-12T04:43:99.000-0500", "2017-01-12T04:43:4x.000-0500",
		"2017-01-12T04:43:46,411-0500", "2017-01-12T04:43:46.41-0500", "2017-01-12T04:43:46.4111-0500",
		"2017-01-12T04:43:46.411+0500", "2017-01-12T04:43:46.411-0530", "2017-01-12T04:43:46.411-05:00",
		"2017-01-12T04:43:46.411Z", "2017-01-12T04:43:46.411", "2017-01-12T04:43:46.411-05",
		"2017-01-12T04:43:46.411-2400", "2017-01-12T04:43:46.411-0560", "2017-01-12 04:43:46.411-0500",
		"2017-01-12T04:43:46.411-0500", "2017-01-12T04:44:00.000-0500", "2017-01-12T04:43:00.000-0500",
		"2017-13-12T04:43:46.411-0500", "2017-02-30T04:43:46.411-0500", "2017-01-12T24:43:46.411-0500",
		"2017-01-12T04:60:46.411-0500", "2016-12-31T23:59:60.999+0000", "2017-01-01T00:00:00.000+0000",
		"1969-12-31T23:59:59.999+0000", "0000-01-01T00:00:00.000+0000", "9999-12-31T23:59:59.999-2359",
		"2017-01-12T04:43:46.411-0500", "2017-01-12T04:43:46.411-0500",
	};
	static const char *const forms[] = {
		/* JDK 8 PrintGCDateStamps (+ PrintGCTimeStamps) */
		"%s: 132.341: Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: 0.0000194 seconds",
		"%s: Total time for which application threads were stopped: 0.0001222 seconds",
		"%s: 136.691: [GC pause (G1 Evacuation Pause) (young), 0.2867414 secs]",
		/* unified time decoration */
		"[%s][0.265s][info][safepoint   ] Safepoint \"G1CollectForAllocation\", Time since last: 179909772 ns, Reaching safepoint: 3237 ns, Cleanup: 17645 ns, At safepoint: 51102522 ns, Total: 51123404 ns",
		"[%s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[%s] Safepoint \"Cleanup\", Time since last: 1 ns, Total: 5 ns",
	};
	(void)state;
	setenv("TZ", "America/New_York", 1);
	for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		struct pair pr;
		pair_init(&pr);
		for (int round = 0; round < 2; round++) {
			for (size_t i = 0; i < sizeof stamps / sizeof stamps[0]; i++) {
				char line[600];
				/* after the first stamp of the list (the one a reuse would start from) */
				fill(line, sizeof line, forms[f], stamps[0]);
				pair_line(&pr, line, strlen(line));
				fill(line, sizeof line, forms[f], stamps[i]);
				pair_line(&pr, line, strlen(line));
				pair_line(&pr, line, strlen(line));
				/* cut inside the stamp */
				for (size_t k = 0; k < strlen(stamps[i]) + 3; k++)
					pair_line(&pr, line, k);
			}
		}
		pair_fini(&pr);
	}
	setenv("TZ", "UTC", 1);
}

/* ------------------------------------------------------------------------ */
/* JDK 8 lines (searches for "Stopping threads took: ", "Heap: ", "[Times:") */

static void jdk8_lines(void **state)
{
	static const char *const stopped[] = {
		"Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: 0.0000194 seconds",
		"Total time for which application threads were stopped: 0.0001222 seconds,  Stopping threads took: 0.0000194 seconds",
		"Total time for which application threads were stopped: 0.0001222 seconds Stopping threads took: 0.0000194 seconds",
		"Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: x, Stopping threads took: 0.5 seconds",
		"Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: 0.0000194",
		"Total time for which application threads were stopped: 0,0001222 seconds, Stopping threads took: 0,0000194 seconds",
		"Total time for which application threads were stopped: 0.0001222 seconds",
		"Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: ",
		"Total time for which application threads were stopped: 12345678901234567890.5 seconds, Stopping threads took: 1e5 seconds",
		"Total time for which application threads were stopped: -1 seconds, Stopping threads took: -2 seconds",
	};
	static const char *const prefixes[] = { "2017-01-12T04:43:46.411-0500: 132.341: ", "132.341: ", "" };
	static const char *const g1[] = {
		"2017-01-12T04:43:50.761-0500: 136.691: [GC pause (G1 Evacuation Pause) (young), 0.2867414 secs]",
		"   [Parallel Time: 192.3 ms, GC Workers: 28]",
		"      [Humongous Reclaim: 0.0 ms]",
		"      [HHHH Heap:Heap:  Heap: x]",
		"   [Eden: 2144.0M(2144.0M)->0.0B(1888.0M) Survivors: 0.0B->256.0M Heap: 2144.0M(42.0G)->243.0M(42.0G)]",
		" [Times: user=4.92 sys=0.38, real=0.29 secs]",
		"2017-01-12T04:43:51.761-0500: 137.691: [GC pause (G1 Evacuation Pause) (young), 0.2867414 secs]",
		"   [Eden: 2144.0M(2144.0M)->0.0B(1888.0M) Survivors: 0.0B->256.0M Heap: Heap: 2144.0M(42.0G)->243.0M(42.0G)]",
		"2017-01-12T04:43:52.761-0500: 138.691: [GC pause (G1 Evacuation Pause) (young), 0.2867414 secs]",
		"   [Eden: 2144.0M(2144.0M)->0.0B(1888.0M) Survivors: 0.0B->256.0M Heap: 2144.0M(42.0G)->243.0M(42.0G",
		"2017-01-12T04:43:53.761-0500: 139.691: [GC (Allocation Failure) [PSYoungGen: 328070K->55019K(503808K)] 649122K->396284K(1078272K), 0.3093583 secs] [Times: user=0.43 sys=0.12, real=0.31 secs]",
		"2017-01-12T04:43:54.761-0500: 140.691: [GC (Allocation Failure) [PSYoungGen: 328070K->55019K(503808K)] 649122K->396284K(1078272K), 0.3093583 secs] [Times:",
		"2017-01-12T04:43:55.761-0500: 141.691: [GC (Allocation Failure) [PSYoungGen: 328070K->55019K(503808K)] 649122K->396284K(1078272K), 0.3093583 secs] [Time",
		/* a histogram glued after a stop line (its search skips what the stop's
		 * reading covered), then after one that restarts the JVM (not set) */
		"2017-01-12T04:43:56.761-0500: 142.691: Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: 0.0000194 seconds[Class Histogram (before full gc):",
		" num     #instances         #bytes  class name",
		"   1:          3457        3270792  [C",
		"2017-01-12T04:43:57.761-0500: 143.691: Total time for which application threads were stopped: 0.0001222 seconds [Class Histogram (before full gc):",
		"   1:          3457        3270792  [C",
		"2017-01-12T04:43:58.761-0500: 1.000: Total time for which application threads were stopped: 0.0001222 seconds, Stopping threads took: 0.0000194 seconds[Class Histogram (before full gc):",
		"   1:          3457        3270792  [C",
		"2017-01-12T04:43:59.761-0500: 2.000: Total time for which application threads were stopped: x seconds[Class Histogram (before full gc):",
		"   1:          3457        3270792  [C",
		"Memory: 4k page, physical 49283073k(1283073k free), swap 30736380k(30736380k free)",
		"Java HotSpot(TM) 64-Bit Server VM (25.45-b02) for linux-amd64 JRE (1.8.0_45-b14), built on Apr 10 2015",
		"Java HotSpot(TM) 64-Bit Server VM (25.45-b02) for linux-amd64 JRE  (1.8.0_45-b14)",
	};
	struct pair pr;
	(void)state;
	for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
		for (size_t i = 0; i < sizeof stopped / sizeof stopped[0]; i++) {
			char line[600];
			snprintf(line, sizeof line, "%s%s", prefixes[p], stopped[i]);
			all_cuts(line);
		}
	}
	pair_init(&pr);
	for (size_t i = 0; i < sizeof g1 / sizeof g1[0]; i++)
		pair_line(&pr, g1[i], strlen(g1[i]));
	pair_fini(&pr);
	for (size_t i = 0; i < sizeof g1 / sizeof g1[0]; i++)
		all_cuts(g1[i]);
}

/* ------------------------------------------------------------------------ */
/* decorations (the ones after the time decorations are reused)             */

/* every decorator of FORMATS.md (a) in its fixed order, two values each */
static const char *const deco_vals[12][2] = {
	{ "2026-11-29T19:23:38.592+0000", "2026-11-29T19:23:39.001+0000" }, /* time */
	{ "2026-11-29T19:23:38.592+0000", "2026-11-29T19:23:39.001+0000" }, /* utctime */
	{ "0.265s", "12345.678s" },                                         /* uptime */
	{ "1795980218592ms", "1795980219001ms" },                           /* timemillis */
	{ "265ms", "12345678ms" },                                          /* uptimemillis */
	{ "86594384734001ns", "86594384999999ns" },                         /* timenanos */
	{ "265190213ns", "12345678190213ns" },                              /* uptimenanos */
	{ "pod-7f9c", "10-0-0-7.pod" },                                     /* hostname */
	{ "1", "4242" },                                                    /* pid */
	{ "23", "99999999999999999999" },                                   /* tid */
	{ "info", "warning" },                                              /* level */
	{ "safepoint", "gc,phases" },                                       /* tags */
};

static void deco_line(char *buf, size_t cap, unsigned mask, unsigned alt, int pad, const char *msg)
{
	size_t o = 0;
	for (int k = 0; k < 12 && o < cap; k++) {
		if (!(mask & (1u << k)))
			continue;
		o += (size_t)snprintf(buf + o, cap - o, "[%s%*s]", deco_vals[k][(alt >> k) & 1],
				      k >= 10 ? pad : 0, "");
	}
	if (o < cap)
		snprintf(buf + o, cap - o, "%s", msg);
}

static void deco_sets(void **state)
{
	static const char *const msgs[] = {
		" Safepoint \"Cleanup\", Time since last: 1 ns, Reaching safepoint: 2 ns, At safepoint: 3 ns, Total: 5 ns",
		" GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		" Using G1",
		"",
		"x",
		"  two spaces",
	};
	(void)state;
	/* every subset of the decorators, on one pair so that each line meets the
	 * tails kept from the lines before it */
	for (int pad = 0; pad <= 3; pad += 3) {
		for (size_t mi = 0; mi < sizeof msgs / sizeof msgs[0]; mi++) {
			struct pair pr;
			pair_init(&pr);
			for (unsigned mask = 1; mask < (1u << 12); mask++) {
				for (unsigned alt = 0; alt < 3; alt++) {
					char line[700];
					unsigned a = alt == 0 ? 0 : alt == 1 ? 0xfffu : 0x3ffu;
					deco_line(line, sizeof line, mask, a, pad, msgs[mi]);
					pair_line(&pr, line, strlen(line));
				}
			}
			pair_fini(&pr);
		}
	}
}

static void deco_tail_reuse(void **state)
{
	static const char *const lines[] = {
		/* one tail after different time decorations, and none */
		"[0.5s][info][gc] Using G1",
		"[123ms][info][gc] Using G1",
		"[2026-11-29T19:23:38.592+0000][info][gc] Using G1",
		"[info][gc] Using G1",
		"[0.6s][info][gc] Using G1",
		/* hostname first, then pid and tid in the reused part */
		"[0.7s][myhost][42][7][info][gc] Using G1",
		"[0.8s][myhost][42][7][info][gc] Using G1",
		"[myhost][42][7][info][gc] Using G1",
		"[myhost][43][8][info][gc] Using G1",
		"[9][myhost][42][7][info][gc] Using G1",
		/* weak tails: no level, unknown or known tags */
		"[main] INFO started",
		"[main] INFO started",
		"[0.9s][main] INFO started",
		"[gc] Using G1",
		"[gc] Using G1",
		"[1.0s][gc] Using G1",
		"[myhost][gc] Using G1",
		"[myhost][gc] Using G1",
		/* no message, message without the space, space only */
		"[1.1s][info][gc]",
		"[1.2s][info][gc]",
		"[1.3s][info][gc]x",
		"[1.4s][info][gc] ",
		"[1.5s][info][gc]  ",
		/* same bytes, then one byte changed at every place */
		"[1.6s][info ][gc,phases   ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.7s][info ][gc,phases   ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.8s][info ][gc,phasesX  ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.8s][info ][gc,phases  X] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.8s][infoX][gc,phases   ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.8s][info ][gc,phases   ]X GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.8s][info ] gc,phases   ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.8s][info ][gc,phases   ][ GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		"[1.9s][info ][gc,phases   ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
		/* uptimes of 1 to 25 digits of seconds (overflow), 1 to 9 decimals, ',' */
		"[1s][info][gc] Using G1",
		"[1.s][info][gc] Using G1",
		"[.5s][info][gc] Using G1",
		"[1.5s][info][gc] Using G1",
		"[1,5s][info][gc] Using G1",
		"[1.123456789s][info][gc] Using G1",
		"[999999999999.999s][info][gc] Using G1",
		"[9223372036853.999s][info][gc] Using G1",
		"[9223372036854.775s][info][gc] Using G1",
		"[9223372036855.000s][info][gc] Using G1",
		"[18446744073709551615.000s][info][gc] Using G1",
		"[18446744073709551616.000s][info][gc] Using G1",
		"[1234567890123456789012345.000s][info][gc] Using G1",
		"[2.0s][info][gc] Using G1",
		"[1234567.123s][info][gc] Using G1",
		"[12345678.123s][info][gc] Using G1",
		"[0.265s ][info][gc] Using G1",
		"[0.2650s][info][gc] Using G1",
		"[0.26s][info][gc] Using G1",
		"[0.265s][0.266s][info][gc] Using G1",
		"[0.265ms][info][gc] Using G1",
		"[0.265s]",
		"[0.265s",
		"[0.265s]x",
		"[0.265s] x",
		"[0.265s][265ms][info][gc] Using G1",
		"[265ms][0.265s][info][gc] Using G1",
		"[2026-11-29T19:23:38.592+0000][2026-11-29T19:23:38.592+0000][0.265s][info][gc] Using G1",
		"[2026-11-29T19:23:38.593+0000][2026-11-29T19:23:38.594+0000][0.265s][info][gc] Using G1",
		"[0.265s][2026-11-29T19:23:38.593+0000][info][gc] Using G1",
		"[2026-11-29T19:23:38.593+0000]",
		"[2026-11-29T19:23:38.593+0000]x",
		"[2026-11-29T19:23:38.593+0000] x",
		"[2026-11-29T19:23:38.593+0000 ][info][gc] Using G1",
		"[2026-11-29T19:23:38.593+0000x][info][gc] Using G1",
		"[2026-11-29T19:23:38.5930000][info][gc] Using G1",
		"[2026-11-29 19:23:38.593+0000][info][gc] Using G1",
		/* a minute learnt from a JDK 8 stamp with ' ' (util_parse_iso8601 takes
		 * it, a decoration does not) */
		"2026-11-29 19:23:38.593+0000: 1.000: Total time for which application threads were stopped: 0.0001222 seconds",
		"[2026-11-29 19:23:38.594+0000][info][gc] Using G1",
		"[12345678.123s][info][gc] Using G1",
		"[123456789.123s][info][gc] Using G1",
		"[2026-11-29T19:23:61.593+0000][info][gc] Using G1",
		"[2026-11-29T19:23:38.593+0000][info][gc] Using G1",
		"[0.5x][info][gc] Using G1",
		"[0.5ss][info][gc] Using G1",
		/* a tail longer than what is kept */
		"[2.0s][info][gc,phases,start,task,cpu,heap,metaspace,ergo,age,alloc,ref,marking,periodic,humongous] x",
		"[2.1s][info][gc,phases,start,task,cpu,heap,metaspace,ergo,age,alloc,ref,marking,periodic,humongous] x",
	};
	static const char *const tags[] = { "gc", "gc,start", "gc,task", "gc,phases", "gc,heap", "gc,metaspace",
					    "gc,cpu", "gc,periodic", "safepoint", "gc,init", "os", "gc,ergo" };
	struct pair pr;
	(void)state;
	pair_init(&pr);
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		pair_line(&pr, lines[i], strlen(lines[i]));
	pair_fini(&pr);
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		all_cuts(lines[i]);
	/* more tag sets than kept entries, rotating, in two paddings */
	pair_init(&pr);
	for (int round = 0; round < 40; round++) {
		for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
			char line[300];
			size_t k = (t * 7 + (size_t)round) % (sizeof tags / sizeof tags[0]);
			snprintf(line, sizeof line, "[%d.%03ds][info%s][%-*s] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms",
				 round, (int)t, round > 20 ? " " : "", round > 10 ? 12 : 0, tags[k], round);
			pair_line(&pr, line, strlen(line));
		}
	}
	pair_fini(&pr);
}

/* jl_find() is memmem() for every haystack, needle and cut */
static void find_is_memmem(void **state)
{
	static const char *const needles[] = { "Heap: ", "Stopping threads took: ", "[Times:", "a", "aa", "aab", "" };
	char hay[80];
	uint32_t x = 777;
	(void)state;
	for (int t = 0; t < 100000; t++) {
		size_t n;
		x = x * 1103515245u + 12345u;
		n = (x >> 16) % sizeof hay;
		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			hay[i] = "aabHeap: [Times:Stopping threads took: "[(x >> 16) % 39];
		}
		for (size_t k = 0; k < sizeof needles / sizeof needles[0]; k++) {
			size_t l = strlen(needles[k]);
			const char *want = l ? memmem(hay, n, needles[k], l) : hay;
			if (jl_find(hay, n, needles[k], l) != want)
				fail_msg("jl_find(\"%.*s\", \"%s\") differs from memmem", (int)n, hay, needles[k]);
		}
	}
}

/* jl_skip_ws() (eight bytes at a time) is the byte loop for every start and
 * cut, with bytes that differ from a blank only in the high bit */
static void skip_ws_is_bytewise(void **state)
{
	static const char bytes[] = { ' ', '\t', 'a', '[', '\0', (char)0xa0, (char)0x89, (char)0xff, '\n' };
	char s[40];
	uint32_t x = 4242;
	(void)state;
	for (int t = 0; t < 200000; t++) {
		size_t n, i, want;
		x = x * 1103515245u + 12345u;
		n = (x >> 16) % sizeof s;
		for (size_t k = 0; k < n; k++) {
			x = x * 1103515245u + 12345u;
			/* mostly blanks, so runs pass the 8-byte steps */
			s[k] = (x >> 16) % 4 ? ((x >> 20) % 5 ? ' ' : '\t') : bytes[(x >> 22) % sizeof bytes];
		}
		x = x * 1103515245u + 12345u;
		i = n ? (x >> 16) % (n + 1) : 0;
		want = i;
		while (want < n && (s[want] == ' ' || s[want] == '\t'))
			want++;
		if (jl_skip_ws(s, n, i) != want)
			fail_msg("jl_skip_ws(\"%.*s\", %zu) = %zu, want %zu", (int)n, s, i, jl_skip_ws(s, n, i), want);
	}
}

/* A stop line's durations in HotSpot's "%3.7f" (read without measuring the
 * runs) are the doubles util_parse_double() gives, bit for bit; and so are
 * their neighbours with more or fewer decimals or a second digit */
static void duration(char *s, size_t n, int form, unsigned a, unsigned b)
{
	switch (form) {
	case 0: snprintf(s, n, "%u.%07u", a, b % 10000000u); break;
	case 1: snprintf(s, n, "%u,%07u", a, b % 10000000u); break;
	case 2: snprintf(s, n, "%u.%06u", a, b % 1000000u); break;
	case 3: snprintf(s, n, "%u.%08u", a, b % 100000000u); break;
	default: snprintf(s, n, "1%u.%07u", a, b % 10000000u); break;
	}
}

static void stop_seconds_exact(void **state)
{
	uint32_t x = 99;
	(void)state;
	for (int t = 0; t < 100000; t++) {
		char a[32], b[32], line[200];
		struct event ev[JVMLOG_MAX_EVENTS];
		double va, vb;
		x = x * 1103515245u + 12345u;
		/* small values (HotSpot's usual stops) and any seven digits */
		duration(a, sizeof a, t % 5, (x >> 8) % 10, (x >> 4) % (t % 3 ? 100000u : 100000000u));
		x = x * 1103515245u + 12345u;
		duration(b, sizeof b, t % 5, (x >> 8) % 10, x);
		snprintf(line, sizeof line, "Total time for which application threads were stopped: %s seconds, "
			 "Stopping threads took: %s seconds", a, b);
		struct jvmlog *p = jvmlog_new();
		assert_non_null(p);
		int n = jvmlog_parse_line(p, line, strlen(line), ev, JVMLOG_MAX_EVENTS);
		jvmlog_free(p);
		assert_int_equal(n, 1);
		assert_true(util_parse_double(a, strlen(a), true, &va) == strlen(a));
		assert_true(util_parse_double(b, strlen(b), true, &vb) == strlen(b));
		va *= 1000.0;
		vb *= 1000.0;
		if (memcmp(&ev[0].u.sp.total_ms, &va, sizeof va) != 0 || memcmp(&ev[0].u.sp.ttsp_ms, &vb, sizeof vb) != 0)
			fail_msg("\"%s\": %.17g and %.17g, want %.17g and %.17g", line, ev[0].u.sp.total_ms,
				 ev[0].u.sp.ttsp_ms, va, vb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples_agree),
		cmocka_unit_test(sp_shapes_every_order),
		cmocka_unit_test(sp_odd_lines),
		cmocka_unit_test(sp_with_stats_rows),
		cmocka_unit_test(iso_sequences),
		cmocka_unit_test(jdk8_lines),
		cmocka_unit_test(deco_sets),
		cmocka_unit_test(deco_tail_reuse),
		cmocka_unit_test(find_is_memmem),
		cmocka_unit_test(skip_ws_is_bytewise),
		cmocka_unit_test(stop_seconds_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
