/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_jvmlog_jdk8.c — JDK 8 -XX:+PrintGCDetails records that used to be lost
 * without a word (issue 14): records longer than 63 lines, class histogram
 * rows of array classes, CMS remarks with a nested scavenge and
 * -XX:+PrintHeapAtGC, and stop lines interleaved with other output; and
 * -XX:+PrintSafepointStatistics rows with their stop lines and the exit
 * statistics (issue 24). Every input is a real log from tests/fixtures/jvm/jdk8/
 * or tests/fixtures/jvm/jdk8-safepoint-stats/ (README.md there says where each
 * comes from); expected values are read off those files by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/jvmlog.h"
#include "stwtop/util.h"
#include "jvmlog_tally.h"

#define FIX "fixtures/jvm/jdk8/"
#define SP8 "fixtures/jvm/jdk8-safepoint-stats/"

static void run(const char *rel, struct tally *t, int keep_kind)
{
	struct jvmlog *p = jvmlog_new();
	assert_non_null(p);
	tally_init(t, keep_kind);
	tally_file(p, rel, t);
	assert_true(t->lines > 0);
	jvmlog_free(p);
}

/* Line k (1-based) of a fixture, in a malloc'd buffer (*n bytes, no newline). */
static char *fixture_line(const char *rel, int k, size_t *n)
{
	size_t len = 0, i = 0;
	char *buf = slurp(rel, &len), *r = NULL;
	assert_non_null(buf);
	for (int at = 1; i < len; at++) {
		char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) : len;
		if (at == k) {
			*n = e - i;
			r = malloc(*n + 1);
			memcpy(r, buf + i, *n);
			r[*n] = '\0';
			break;
		}
		i = e + 1;
	}
	free(buf);
	assert_non_null(r);
	return r;
}

/* dataset221: G1 "[Full GC (Heap Dump Initiated GC)" with -XX:+PrintClassHistogram
 * before and after; rows "[C" and "[Ljava.lang.Object;" once swallowed the record. */
static void test_histogram_g1_heap_dump(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "g1-heapdump-histogram.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 24572.7654);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_FULL);
	assert_string_equal(t.keep[0].u.pause.cause, "Heap Dump Initiated GC");
	assert_true(t.keep[0].u.pause.flags & PAUSE_F_SYSTEM_GC);
	assert_int_equal(t.keep[0].u.pause.before_kb, 8185 * 1024);
	assert_int_equal(t.keep[0].u.pause.after_kb, 7616 * 1024);
	assert_int_equal(t.keep[0].u.pause.committed_kb, 31 * 1024 * 1024);
	/* stamped at the start (10:05:34.135 +0100), event at start + duration */
	assert_int_equal(t.keep[0].t_ms, util_utc_ms(2021, 10, 7, 9, 5, 34, 135) + 24573);
}

/* dataset93: G1 Full GC, histograms of 109,566 and 108,247 classes (cut by garbagecat) */
static void test_histogram_g1_full(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "g1-full-histogram.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 19818.5620);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_FULL);
	assert_int_equal(t.keep[0].u.pause.after_kb, 2270 * 1024);
}

/* dataset81 / dataset121: CMS with a histogram before and after the old collection */
static void test_histogram_cms(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "cms-full-histogram.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 94911.6214);
	assert_int_equal(t.keep[0].u.pause.before_kb, 3198859);
	assert_int_equal(t.keep[0].u.pause.after_kb, 635365);
	run(FIX "cms-promotion-failed-histogram.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 102335.7902);
	assert_int_equal(t.keep[0].u.pause.after_kb, 1290167);
}

/* dataset139: -XX:+G1SummarizeRSetStats, 100 lines inside one young pause */
static void test_long_record_rset_stats(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "g1-rsetstats.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 16.7272);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_YOUNG);
	assert_int_equal(t.keep[0].u.pause.collector, GC_G1);
	/* from the "[Eden: ... Heap: 28.7M(512.0M)->18.3M(512.0M)]" line after the record */
	assert_int_equal(t.keep[0].u.pause.after_kb, (int64_t)(18.3 * 1024 + 0.5));
}

/* dataset117: -XX:PrintFLSStatistics, CMS concurrent output spliced in */
static void test_long_record_fls_stats(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "cms-flsstats.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 45.4889);
	assert_int_equal(t.keep[0].u.pause.after_kb, 5219953);
}

/* A record is bounded by bytes: a 20 MB histogram (the size of dataset93's
 * real one) still parses; past 32 MiB the record is dropped and the line that
 * crossed the bound is unparsed, with the reason. The rows are dataset221's. */
static void feed_rows(struct jvmlog *p, struct tally *t, size_t bytes, int *unknown_at)
{
	size_t n4, n5, fed = 0;
	char *r4 = fixture_line(FIX "g1-heapdump-histogram.log", 4, &n4);
	char *r5 = fixture_line(FIX "g1-heapdump-histogram.log", 5, &n5);
	*unknown_at = -1;
	for (int i = 0; fed < bytes; i++) {
		int r = tally_line(p, t, i & 1 ? r5 : r4, i & 1 ? n5 : n4);
		fed += (i & 1 ? n5 : n4) + 1;
		if (r < 0 && *unknown_at < 0) {
			*unknown_at = i;
			assert_non_null(jvmlog_why(p));
			assert_non_null(strstr(jvmlog_why(p), "32 MiB"));
		}
	}
	free(r4);
	free(r5);
}

static void test_record_bound_bytes(void **state)
{
	struct jvmlog *p = jvmlog_new();
	struct tally t;
	size_t n;
	int unknown_at;
	(void)state;
	tally_init(&t, EV_GC_PAUSE);
	for (int k = 1; k <= 3; k++) {
		char *l = fixture_line(FIX "g1-heapdump-histogram.log", k, &n);
		assert_true(tally_line(p, &t, l, n) >= 0);
		free(l);
	}
	feed_rows(p, &t, (size_t)20 << 20, &unknown_at);
	assert_int_equal(unknown_at, -1);
	for (int k = 6; k <= 20; k++) {
		char *l = fixture_line(FIX "g1-heapdump-histogram.log", k, &n);
		assert_true(tally_line(p, &t, l, n) >= 0);
		assert_null(jvmlog_why(p));
		free(l);
	}
	tally_end(p, &t);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 24572.7654);
	jvmlog_free(p);

	p = jvmlog_new();
	tally_init(&t, EV_GC_PAUSE);
	for (int k = 1; k <= 3; k++) {
		char *l = fixture_line(FIX "g1-heapdump-histogram.log", k, &n);
		tally_line(p, &t, l, n);
		free(l);
	}
	feed_rows(p, &t, (size_t)33 << 20, &unknown_at);
	assert_true(unknown_at > 0);
	/* after the record was dropped its remaining rows are not JVM lines we read */
	assert_true(t.unknown >= 1);
	assert_int_equal(t.pauses, 0);
	/* the lines read as part of the record before the bound are handed back as
	 * lost: its 3 first lines and the rows before the one that hit the bound */
	uint64_t first = 0;
	const char *why = NULL;
	assert_int_equal(jvmlog_take_lost(p, &first, &why), 3 + (uint64_t)unknown_at);
	assert_int_equal(first, 1);
	assert_non_null(strstr(why, "32 MiB"));
	assert_int_equal(jvmlog_take_lost(p, &first, &why), 0); /* taken once */
	jvmlog_free(p);
}

/* A record the log ends in the middle of (the JVM killed while writing it,
 * a copy taken mid-write): the first k lines of the real heap-dump Full GC,
 * then the end. Its lines were read as parsed; at the end they are handed
 * back as lost, with the reason, never silently dropped. */
static void test_record_cut_at_end(void **state)
{
	size_t n;
	(void)state;
	for (int k = 1; k <= 9; k += 4) {
		struct jvmlog *p = jvmlog_new();
		struct tally t;
		uint64_t first = 0;
		const char *why = NULL;
		tally_init(&t, EV_GC_PAUSE);
		for (int j = 1; j <= k; j++) {
			char *l = fixture_line(FIX "g1-heapdump-histogram.log", j, &n);
			assert_true(tally_line(p, &t, l, n) >= 0);
			free(l);
		}
		assert_int_equal(jvmlog_take_lost(p, &first, &why), 0); /* still open, not lost */
		tally_end(p, &t);
		assert_int_equal(t.pauses, 0);
		assert_int_equal(jvmlog_take_lost(p, &first, &why), (uint64_t)k);
		assert_int_equal(first, 1);
		assert_non_null(strstr(why, "end of the log"));
		jvmlog_free(p);
	}
}

/* The same record cut by the next pause (a log whose writer restarted its
 * output mid-record, or lines lost on the way): the cut record's lines are
 * lost, the next pause (the record read whole) still counts. */
static void test_record_cut_by_next(void **state)
{
	struct jvmlog *p = jvmlog_new();
	struct tally t;
	size_t n;
	uint64_t first = 0;
	const char *why = NULL;
	(void)state;
	tally_init(&t, EV_GC_PAUSE);
	for (int j = 1; j <= 5; j++) {
		char *l = fixture_line(FIX "g1-heapdump-histogram.log", j, &n);
		tally_line(p, &t, l, n);
		free(l);
	}
	for (int j = 1; j <= 20; j++) {
		char *l = fixture_line(FIX "g1-heapdump-histogram.log", j, &n);
		assert_true(tally_line(p, &t, l, n) >= 0);
		free(l);
		if (j == 1) {
			assert_int_equal(jvmlog_take_lost(p, &first, &why), 5);
			assert_int_equal(first, 1);
			assert_non_null(strstr(why, "cut by the next pause"));
		}
	}
	tally_end(p, &t);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 24572.7654);
	assert_int_equal(jvmlog_take_lost(p, &first, &why), 0);
	jvmlog_free(p);
}

/* dataset136 / dataset142: -XX:+CMSScavengeBeforeRemark -XX:+PrintHeapAtGC. The
 * remark's first line ends in "{Heap before GC ...", the scavenge it runs comes
 * on its own stamped "[GC (CMS Final Remark) ... [ParNew" line: one pause, the
 * remark, with its own duration (it includes the scavenge's). */
static void test_cms_remark_nested_scavenge(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "cms-remark-heapatgc.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_REMARK);
	assert_int_equal(t.keep[0].u.pause.collector, GC_CMS);
	assert_string_equal(t.keep[0].u.pause.cause, "CMS Final Remark");
	assert_near(t.keep[0].u.pause.dur_ms, 202.0947);   /* not the scavenge's 72.9255 */
	assert_int_equal(t.keep[0].t_ms, util_utc_ms(2017, 6, 18, 10, 23, 16, 634) + 202);
	run(FIX "cms-remark-heapatgc-solaris.log", &t, EV_GC_PAUSE);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pauses, 1);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_REMARK);
	assert_near(t.keep[0].u.pause.dur_ms, 520.7447);   /* not the scavenge's 220.7345 */
	assert_int_equal(t.collector, GC_CMS);
}

/* garbagecat dataset89 line 2: "831626.089: [ParNew831628.158: [ParNew2016-09-30T14:11:25.873+0900:
 * 833918.729: [GC (Allocation Failure) ..., 0.0561698 secs]": pieces of two lines
 * (interleaved writes) before a complete record. The record is read; the line is
 * handed back as lost with the reason, once. */
static void test_piece_before_record(void **state)
{
	struct jvmlog *p = jvmlog_new();
	struct tally t;
	size_t n;
	uint64_t first = 0;
	const char *why = NULL;
	(void)state;
	tally_init(&t, EV_GC_PAUSE);
	for (int j = 1; j <= 3; j++) {
		char *l = fixture_line("samples/public-gc-logs/dataset89.txt", j, &n);
		assert_true(tally_line(p, &t, l, n) >= 0);
		free(l);
		if (j == 2) {
			assert_int_equal(t.pauses, 2);
			assert_near(t.keep[1].u.pause.dur_ms, 56.1698);
			assert_int_equal(t.keep[1].t_ms, util_utc_ms(2016, 9, 30, 5, 11, 25, 873) + 56);
			assert_int_equal(jvmlog_take_lost(p, &first, &why), 1);
			assert_int_equal(first, 2);
			assert_non_null(strstr(why, "a piece of another line"));
		}
	}
	tally_end(p, &t);
	assert_int_equal(t.pauses, 3);
	assert_int_equal(jvmlog_take_lost(p, &first, &why), 0);
	jvmlog_free(p);
}

/* dataset27: "234784.781: [CMS-concurrent-abortable-preclean: 0.038/0.118 secs]Total
 * time for which application threads were stopped: 0.0123330 seconds" */
static void test_stop_after_concurrent_phase(void **state)
{
	struct tally t;
	(void)state;
	run(FIX "cms-preclean-stopped.log", &t, EV_SAFEPOINT);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.sp, 1);
	assert_near(t.keep[0].u.sp.total_ms, 12.3330);
	assert_near(t.keep[0].u.sp.ttsp_ms, -1); /* JDK 7: no "Stopping threads took" */
	assert_int_equal(t.keep[0].up_us, 234784781000);
}

/* garbagecat's TestApplicationStoppedTimePreprocessAction lines: stamps of two
 * threads interleaved before the stop text */
static void test_stop_two_stamps(void **state)
{
	static const double total[] = { 1.4232, 0.7018, 1.3170, 1.2393, 7.8201 };
	static const double ttsp[] = { 0.0111, 0.0202, 0.0454, 0.0233, 0.0168 };
	struct tally t;
	(void)state;
	run(FIX "stopped-two-stamps.log", &t, EV_SAFEPOINT);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.sp, 5);
	for (int i = 0; i < 5; i++) {
		assert_near(t.keep[i].u.sp.total_ms, total[i]);
		assert_near(t.keep[i].u.sp.ttsp_ms, ttsp[i]);
	}
	/* the first date stamp is the line's time (-0400) */
	assert_int_equal(t.keep[0].t_ms, util_utc_ms(2021, 10, 28, 11, 39, 54, 391));
	assert_int_equal(t.keep[4].t_ms, util_utc_ms(2022, 10, 30, 12, 28, 23, 839));
}

/* -XX:+PrintSafepointStatistics rows of real JDK 8 runs (fixtures/jvm/jdk8-safepoint-stats/,
 * README.md there). A row and the "Total time for which application threads were
 * stopped" line HotSpot prints right after it are one safepoint: one event, the
 * row's (its operation and phases). Before: two events, the stop counted twice. */
static void test_stats_row_then_stopped_line(void **state)
{
	struct tally t;
	(void)state;
	run(SP8 "jvm-book-safepointtest-excerpt.log", &t, EV_SAFEPOINT);
	assert_int_equal(t.sp, 6);
	/* the IDE's command line and its "Connected"/"Disconnected" lines, the
	 * program's own five lines: not the JVM's */
	assert_int_equal(t.unknown, 8);
	assert_string_equal(t.keep[0].u.sp.op, "ForceSafepoint");
	assert_string_equal(t.keep[4].u.sp.op, "no vm operation");
	assert_near(t.keep[4].u.sp.spin_ms, 2509);
	assert_near(t.keep[4].u.sp.ttsp_ms, 2509);
	assert_near(t.keep[4].u.sp.total_ms, 2509);
	assert_int_equal(t.keep[4].up_us, 1183000 + 2509000);
	assert_string_equal(t.keep[5].u.sp.op, "no vm operation");
	assert_near(t.sp_max, 2509);
}

/* A whole -XX:+LogVMOutput file: its XML header (lines 1-48: <hotspot_log>,
 * <vm_version>, <vm_arguments> with the flags and properties) and the tags
 * around the output (<tty>, <writer>, <destroy_vm>, ..., </hotspot_log>) are
 * the file's; before, those 52 lines were unparsed. */
static void test_logvmoutput_xml(void **state)
{
	struct tally t;
	(void)state;
	run(SP8 "zscgrhg-gc-vm.log", &t, EV_SAFEPOINT);
	assert_int_equal(t.sp, 504);
	assert_string_equal(t.version, "1.8.0_121-b13");
	assert_int_equal(t.unknown, 0);
}

/* The statistics HotSpot prints when the JVM exits (SafepointSynchronize::
 * print_stat_on_exit): "Polling page always armed", one "%-26s%10d" line per VM
 * operation, "%5d VM operations coalesced during safepoint", the two maxima.
 * Before: the per-operation lines and the coalesced line were unparsed. */
static void test_stats_exit_summary(void **state)
{
	struct tally t;
	(void)state;
	run(SP8 "zscgrhg-gc-vm.log", &t, EV_SAFEPOINT);
	assert_int_equal(t.sp, 504);
	assert_near(t.sp_max, 7349);
	assert_near(t.ttsp_max, 29);
	run(SP8 "jvm-book-safepointtest-excerpt.log", &t, 0);
	assert_int_equal(t.unknown, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_histogram_g1_heap_dump),
		cmocka_unit_test(test_histogram_g1_full),
		cmocka_unit_test(test_histogram_cms),
		cmocka_unit_test(test_long_record_rset_stats),
		cmocka_unit_test(test_long_record_fls_stats),
		cmocka_unit_test(test_record_bound_bytes),
		cmocka_unit_test(test_record_cut_at_end),
		cmocka_unit_test(test_record_cut_by_next),
		cmocka_unit_test(test_piece_before_record),
		cmocka_unit_test(test_cms_remark_nested_scavenge),
		cmocka_unit_test(test_stop_after_concurrent_phase),
		cmocka_unit_test(test_stop_two_stamps),
		cmocka_unit_test(test_stats_row_then_stopped_line),
		cmocka_unit_test(test_stats_exit_summary),
		cmocka_unit_test(test_logvmoutput_xml),
	};
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
