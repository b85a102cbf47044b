/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_jvmlog_legacy.c — JDK 5-7 -XX:+PrintGCDetails records that stwtop used
 * to lose: without -XX:+PrintGCCause HotSpot writes "[GC" glued to what
 * follows (a stamp, -XX:+PrintHeapAtGC, tenuring output, the end of the line),
 * JDK 6/7u1 G1 prints its heap as "   [ 29M->2589K(59M)]", and a JDK 5/6 CMS
 * JVM may scavenge with DefNew. Every input is a real log from
 * tests/fixtures/jvm/jdk5-7/ (README.md there says where each comes from).
 * Pause counts and totals are the ones tests/tools/gc-records.awk counts on
 * the same files (the README's table), never read off stwtop. */
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

#define FIX "fixtures/jvm/jdk5-7/"

static void run(const char *rel, struct tally *t, int keep_kind)
{
	struct jvmlog *p = jvmlog_new();
	assert_non_null(p);
	tally_init(t, keep_kind);
	tally_file(p, rel, t);
	assert_true(t->lines > 0);
	jvmlog_free(p);
}

/* count and total (ms) of the pauses of a fixture, nothing left unparsed */
static void expect(const char *rel, struct tally *t, long pauses, double total_ms, int collector)
{
	run(rel, t, EV_GC_PAUSE);
	assert_int_equal(t->unknown, 0);
	assert_int_equal(t->pauses, pauses);
	assert_near(t->pause_total, total_ms);
	assert_int_equal(t->collector, collector);
}

static void expect_heap(const struct event *e, int64_t before, int64_t after, int64_t committed)
{
	assert_true(e->u.pause.flags & PAUSE_F_HEAP);
	assert_int_equal(e->u.pause.before_kb, before);
	assert_int_equal(e->u.pause.after_kb, after);
	assert_int_equal(e->u.pause.committed_kb, committed);
}

/* dataset101: "1,319: [GC1,320: [DefNew: ..., 0,0360580 secs]" (decimal comma, the
 * scavenge's stamp glued to "[GC"), then "[GC [1 CMS-initial-mark" and
 * "[GC[YG occupancy": CMS with ParNew disabled, not Serial */
static void test_cms_defnew_glued_uptime(void **state)
{
	static const double dur[] = { 36.0580, 47.5130, 8.8540, 25.2690 };
	static const int type[] = { PAUSE_YOUNG, PAUSE_YOUNG, PAUSE_INIT_MARK, PAUSE_REMARK };
	struct tally t;
	(void)state;
	expect(FIX "cms-defnew-comma.log", &t, 4, 117.694, GC_CMS);
	for (int i = 0; i < 4; i++) {
		assert_near(t.keep[i].u.pause.dur_ms, dur[i]);
		assert_int_equal(t.keep[i].u.pause.type, type[i]);
	}
	expect_heap(&t.keep[0], 68160, 4425, 3137216);
	assert_int_equal(t.keep[3].u.pause.collector, GC_CMS);
	/* the collector inferred from "[DefNew" is corrected once CMS shows:
	 * the report's collector is the last JI_COLLECTOR fact */
	run(FIX "cms-defnew-comma.log", &t, EV_JVM_INFO);
	assert_int_equal(t.nkeep, 1);
	assert_int_equal(t.keep[0].u.info.key, JI_COLLECTOR);
	assert_int_equal(t.keep[0].u.info.a, GC_CMS);
}

/* "[GC<date>: <uptime>: [ParNew" on one line (JDK 7u85 header) and on several
 * (-XX:+PrintTenuringDistribution, -XX:+PrintHeapAtGC, promotion failure with
 * a concurrent mode failure spliced in) */
static void test_parnew_glued_date(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "cms-glued-date-header.log", &t, 2, 121.3010, GC_CMS);
	assert_near(t.keep[0].u.pause.dur_ms, 64.5630);
	expect_heap(&t.keep[0], 1163244, 91319, 13177152);
	assert_int_equal(t.keep[1].u.pause.type, PAUSE_INIT_MARK);
	/* stamped at the start (22:13:23.295 -0500), event at start + duration */
	assert_int_equal(t.keep[0].t_ms, util_utc_ms(2015, 11, 19, 3, 13, 23, 295) + 65);
	assert_int_equal(t.release, 7);

	expect(FIX "parnew-glued-date-tenuring.log", &t, 1, 137.1290, GC_CMS);
	expect_heap(&t.keep[0], 947062, 131038, 6160384);

	expect(FIX "parnew-glued-date-heapatgc.log", &t, 2, 171.1610, GC_CMS);
	expect_heap(&t.keep[0], 2359296, 28385, 10092544);

	expect(FIX "parnew-glued-date-promotion-failed.log", &t, 1, 9608.6750, GC_CMS);
	expect_heap(&t.keep[0], 3282444, 3162514, 3390848);
}

/* "10.392: [GC" alone on its line, "Desired survivor size ..." and the
 * " [PSYoungGen: ...], 0.1992940 secs]" that closes it */
/* GCViewer's SampleSun1_5_0/1_6_0AdaptiveSizePolicy: -XX:+PrintAdaptiveSizePolicy
 * without the cause glues "[GC" to "AdaptiveSizePolicy::compute_survivor_space...";
 * the record closes four lines later on " [PSYoungGen: ...], 0.0109211 secs]". */
static void test_parallel_glued_adaptive_size(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "parallel-glued-adaptivesize-jdk6.log", &t, 10, 149.9968, GC_PARALLEL);
	assert_near(t.keep[0].u.pause.dur_ms, 10.9211);
	expect_heap(&t.keep[0], 16420, 15919, 62848);
	expect(FIX "parallel-glued-adaptivesize-jdk5.log", &t, 6, 102.4222, GC_PARALLEL);
	assert_near(t.keep[0].u.pause.dur_ms, 4.5523);
	expect_heap(&t.keep[0], 5437, 5238, 64640);
}

/* GCViewer's SampleSun1_7_0CmsPrintFlsStats1: -XX:PrintFLSStatistics=1 glues "[GC"
 * to "Before GC:" and the free-list statistics; the second record is a ParNew
 * promotion failure into a CMS foreground collection, 33.9 ms in all. */
static void test_cms_glued_before_gc(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "cms-glued-before-gc-flsstats.log", &t, 2, 36.9203, GC_CMS);
	assert_near(t.keep[0].u.pause.dur_ms, 3.0039);
	expect_heap(&t.keep[0], 69671, 68647, 98300);
	assert_near(t.keep[1].u.pause.dur_ms, 33.9164);
}

/* GCViewer's unit test lines: "[GCDesired survivor size ..." glued on one line
 * (OpenJDK 1.6.0_22), and -XX:+PrintReferenceGC's "[GC1837.600: [SoftReference,
 * ..." phases glued to "[GC" before a promotion failure's "-- [PSYoungGen:" */
static void test_parallel_glued_one_line(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "parallel-glued-desired-survivor-jdk6.log", &t, 1, 28.5820, GC_PARALLEL);
	expect_heap(&t.keep[0], 188744, 13345, 4063232);
	assert_int_equal(t.keep[0].up_us, 3141000 + 28582);
	expect(FIX "parallel-glued-softreference-promotion-failed.log", &t, 1, 658.0190, GC_PARALLEL);
	expect_heap(&t.keep[0], 4172533, 4251241, 4323712);
}

static void test_parallel_gc_at_line_end(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "parallel-gc-eol-tenuring.log", &t, 1, 199.2940, GC_PARALLEL);
	expect_heap(&t.keep[0], 970752, 104301, 3708928);
	assert_int_equal(t.keep[0].up_us, 10392000 + 199294);
}

/* JDK 5/6 "[GC {Heap before gc invocations=529:" and "[Full GC {Heap before gc
 * invocations=528:": the 11 s pauses close after "Heap after gc" and "}" */
static void test_heap_before_gc_lowercase(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "cms-heapatgc-promotion-failed.log", &t, 1, 11463.3890, GC_CMS);
	expect_heap(&t.keep[0], 1422025, 1183557, 1441600);
	expect(FIX "cms-full-heapatgc.log", &t, 1, 10751.5460, GC_CMS);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_FULL);
	expect_heap(&t.keep[0], 1441361, 1180553, 1441600);
}

/* JDK 6/7u1 G1: "[GC pause (young), 0.00290200 secs]", the phase tree with its
 * "Avg:"/"Sum:" rows, then "   [ 29M->2589K(59M)]" */
static void test_g1_old_heap_line(void **state)
{
	struct tally t;
	(void)state;
	expect(FIX "g1-jdk6-heap.log", &t, 1, 2.9020, GC_G1);
	expect_heap(&t.keep[0], 29 * 1024, 2589, 59 * 1024);
	assert_near(t.committed_max_mb, 59.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cms_defnew_glued_uptime),
		cmocka_unit_test(test_parnew_glued_date),
		cmocka_unit_test(test_parallel_gc_at_line_end),
		cmocka_unit_test(test_parallel_glued_one_line),
		cmocka_unit_test(test_parallel_glued_adaptive_size),
		cmocka_unit_test(test_cms_glued_before_gc),
		cmocka_unit_test(test_heap_before_gc_lowercase),
		cmocka_unit_test(test_g1_old_heap_line),
	};
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
