/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_jvmlog_formats.c — every format shape of ../shared/FORMATS.md that no
 * real log here shows (JDK 8 PrintGCDetails variants, JDK 9-12/13/21/25
 * safepoint lines, statistics rows, generational ZGC, JDK 12-15/23 periodic
 * wording ...), time handling (offsets, DST, anchors, restarts), and inputs a
 * parser must survive. Lines built from the HotSpot format strings or quoted
 * in FORMATS.md / FIELD-NOTES.md are in tests named synthetic_*; the others
 * use real lines. Every line is parsed from an exact-size heap copy so that
 * AddressSanitizer catches any read past its length. */
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

static struct event ev[JVMLOG_MAX_EVENTS];

/* parse one line from an exact-size copy (no NUL, nothing after it) */
static int one(struct jvmlog *p, const char *line)
{
	size_t n = strlen(line);
	char *copy = malloc(n ? n : 1);
	int r;
	assert_non_null(copy);
	memcpy(copy, line, n);
	r = jvmlog_parse_line(p, copy, n, ev, JVMLOG_MAX_EVENTS);
	free(copy);
	return r;
}

/* the single event of kind k the last line produced */
/* where the session's clock (store/jvmclock.c) puts e when the JVM started at start_ms */
static int64_t placed(int64_t start_ms, const struct event *e)
{
	struct jvmclock c = {.anchor_ms = start_ms};
	return jvmclock_wall(&c, e);
}

static const struct event *only(int r, int kind)
{
	const struct event *found = NULL;
	for (int i = 0; i < r; i++) {
		if (ev[i].kind == kind) {
			if (found)
				fail_msg("two events of kind %d", kind);
			found = &ev[i];
		}
	}
	if (!found)
		fail_msg("no event of kind %d among %d", kind, r);
	return found;
}

static int64_t utc(int y, int mo, int d, int h, int mi, int s, int ms)
{
	return util_utc_ms(y, mo, d, h, mi, s, ms);
}

/* ------------------------------------------------------------------------ */
/* safepoints                                                               */

static void synthetic_safepoint_shapes(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* JDK 13 - 17.0.7 (FORMATS.md (d) example) */
	r = one(p, "[0.068s][info][safepoint   ] Safepoint \"G1CollectForAllocation\", Time since last: "
		   "3273659 ns, Reaching safepoint: 12838 ns, At safepoint: 704423 ns, Total: 717261 ns");
	e = only(r, EV_SAFEPOINT);
	assert_int_equal(e->u.sp.form, SP_UNIFIED);
	assert_string_equal(e->u.sp.op, "G1CollectForAllocation");
	assert_near(e->u.sp.ttsp_ms, 0.012838);
	assert_near(e->u.sp.at_ms, 0.704423);
	assert_near(e->u.sp.total_ms, 0.717261);
	assert_near(e->u.sp.cleanup_ms, -1);
	assert_near(e->u.sp.leaving_ms, -1);
	assert_int_equal(e->up_us, 68000);
	assert_int_equal(jvmlog_jdk_release(p), 13);
	/* 21.0.8+: Cleanup and Leaving safepoint; time decoration only */
	r = one(p, "[2025-08-27T07:33:11.892-0400] Safepoint \"G1CollectForAllocation\", Time since last: "
		   "40895263 ns, Reaching safepoint: 3800 ns, Cleanup: 10482 ns, At safepoint: 4392662 ns, "
		   "Leaving safepoint: 3432 ns, Total: 4410376 ns");
	e = only(r, EV_SAFEPOINT);
	assert_near(e->u.sp.cleanup_ms, 0.010482);
	assert_near(e->u.sp.leaving_ms, 0.003432);
	assert_near(e->u.sp.total_ms, 4.410376);
	assert_int_equal(e->t_ms, utc(2025, 8, 27, 11, 33, 11, 892));
	assert_int_equal(jvmlog_jdk_release(p), 21);
	/* 25: no Cleanup, Threads: N runnable, M total */
	r = one(p, "[15.240s][info][safepoint      ] Safepoint \"ShenandoahFinalMarkStartEvac\", Time since "
		   "last: 3527459 ns, Reaching safepoint: 78666 ns, At safepoint: 821625 ns, Leaving "
		   "safepoint: 1472167 ns, Total: 2372458 ns, Threads: 3 runnable, 1038 total");
	e = only(r, EV_SAFEPOINT);
	assert_int_equal(e->u.sp.threads_running, 3);
	assert_int_equal(e->u.sp.threads_total, 1038);
	assert_near(e->u.sp.total_ms, 2.372458);
	assert_near(e->u.sp.cleanup_ms, -1);
	assert_int_equal(jvmlog_jdk_release(p), 25);
	/* fields by name: order and subset do not matter; a missing Total is the sum */
	r = one(p, "[16.000s][info][safepoint] Safepoint \"X\", At safepoint: 3000000 ns, "
		   "Reaching safepoint: 2000000 ns");
	e = only(r, EV_SAFEPOINT);
	assert_near(e->u.sp.total_ms, 5.0);
	assert_near(e->u.sp.ttsp_ms, 2.0);
	jvmlog_free(p);

	/* 17.0.8+ (a real line of samples/throttle) */
	p = jvmlog_new();
	r = one(p, "[1.282s][info][safepoint   ] Safepoint \"G1CollectForAllocation\", Time since last: "
		   "1008665888 ns, Reaching safepoint: 367821 ns, Cleanup: 23862 ns, At safepoint: "
		   "193122174 ns, Total: 193513857 ns");
	assert_int_equal(only(r, EV_SAFEPOINT)->u.sp.form, SP_UNIFIED);
	assert_int_equal(jvmlog_jdk_release(p), 17);
	jvmlog_free(p);
}

static void synthetic_total_time_lines(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* JDK 9-12 unified (Red Hat KB example of FORMATS.md (d)) */
	r = one(p, "[2022-10-04T15:44:48.045-0400][0.997s][info ][safepoint      ] Total time for which "
		   "application threads were stopped: 0.0061608 seconds, Stopping threads took: 0.0000084 seconds");
	assert_int_equal(r, 2); /* the anchor, then the stop */
	assert_int_equal(ev[0].kind, EV_ANCHOR);
	assert_int_equal(ev[0].u.anchor_ms, utc(2022, 10, 4, 19, 44, 48, 45) - 997);
	e = only(r, EV_SAFEPOINT);
	assert_int_equal(e->u.sp.form, SP_STOPPED);
	assert_near(e->u.sp.total_ms, 6.1608);
	assert_near(e->u.sp.ttsp_ms, 0.0084);
	assert_string_equal(e->u.sp.op, "");
	assert_int_equal(jvmlog_jdk_release(p), 9);
	jvmlog_free(p);

	/* JDK 8 (FIELD-NOTES.md 3): a 9.49 s stop, 9.35 s of it reaching the safepoint, +0800 */
	p = jvmlog_new();
	r = one(p, "2022-05-08T16:40:53.886+0800: 78328.993: Total time for which application threads "
		   "were stopped: 9.4917471 seconds, Stopping threads took: 9.3473059 seconds");
	e = only(r, EV_SAFEPOINT);
	assert_int_equal(e->t_ms, utc(2022, 5, 8, 8, 40, 53, 886));
	assert_int_equal(e->up_us, 78328993000LL);
	assert_near(e->u.sp.total_ms, 9491.7471);
	assert_near(e->u.sp.ttsp_ms, 9347.3059);
	assert_int_equal(ev_start_ms(e), utc(2022, 5, 8, 8, 40, 44, 394));
	assert_int_equal(ev[0].kind, EV_ANCHOR); /* the JVM's start, reported for the clock */
	assert_int_equal(ev[0].u.anchor_ms, utc(2022, 5, 8, 8, 40, 53, 886) - 78328993);
	jvmlog_free(p);
}

static void synthetic_jdk8_safepoint_statistics(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	char row[256];
	int r;
	(void)state;
	/* header and rows exactly as runtime/safepoint.cpp print_header()/print_statistics() */
	r = one(p, "         vmop                    [threads: total initially_running wait_to_block]    "
		   "[time: spin block sync cleanup vmop] page_trap_count");
	assert_int_equal(r, 0);
	snprintf(row, sizeof row, "%.3f: %-26s       [%8d%11d%15d    ]    " "  [%6ld%6ld%6ld%6ld%6ld    ]  " "%d   ",
		 0.082, "ChangeBreakpoints", 8, 2, 0, 0L, 0L, 0L, 0L, 0L, 0);
	r = one(p, row);
	e = only(r, EV_SAFEPOINT);
	assert_int_equal(e->u.sp.form, SP_STATS);
	assert_string_equal(e->u.sp.op, "ChangeBreakpoints");
	assert_int_equal(e->u.sp.threads_total, 8);
	assert_int_equal(e->u.sp.threads_running, 2);
	assert_int_equal(e->up_us, 82000);

	/* FIELD-NOTES.md 3: spin 0, block 9347, sync 9347, cleanup 7, vmop 137 (ms); the
	 * stamp is the safepoint's begin, the event time is its end (uptime only:
	 * the clock places it) */
	r = one(p, "78319.500: G1IncCollectionPause   [ 428  0  2 ]      [ 0  9347  9347  7  137 ]  0");
	e = only(r, EV_SAFEPOINT);
	assert_near(e->u.sp.spin_ms, 0);
	assert_near(e->u.sp.block_ms, 9347);
	assert_near(e->u.sp.ttsp_ms, 9347);
	assert_near(e->u.sp.cleanup_ms, 7);
	assert_near(e->u.sp.at_ms, 137);
	assert_near(e->u.sp.total_ms, 9491);
	assert_int_equal(e->u.sp.threads_total, 428);
	assert_int_equal(e->up_us, 78319500000LL + 9491000);
	assert_int_equal(e->t_ms, EV_TIME_NONE);
	assert_int_equal(placed(1000000000000LL, e), 1000000000000LL + 78319500 + 9491);
	/* rows are printed in batches long after their stamps: no restart detection */
	r = one(p, "80000.000: Total time for which application threads were stopped: 0.001 seconds");
	assert_int_equal(r, 1);
	r = one(p, "79000.000: no vm operation           [ 428  0  2 ]      [ 0  0  0  0  0 ]  0");
	e = only(r, EV_SAFEPOINT);
	assert_string_equal(e->u.sp.op, "no vm operation");
	assert_int_equal(one(p, "Maximum sync time   9347 ms"), 0);
	jvmlog_free(p);

	/* JDK 11's wider row: "%8.3f: " "%-30s  [          %8d %17d %13d ]" ... */
	p = jvmlog_new();
	r = one(p, "          vmop                            [ threads:    total initially_running "
		   "wait_to_block ][ time:    spin   block    sync cleanup    vmop ] page_trap_count");
	assert_int_equal(r, 0);
	snprintf(row, sizeof row, "%8.3f: " "%-30s  [          %8d %17d %13d ]" "[       %7ld %7ld %7ld %7ld %7ld ] " "%15d ",
		 5.25, "G1CollectForAllocation", 31, 4, 1, 3L, 5L, 8L, 1L, 40L, 0);
	r = one(p, row);
	e = only(r, EV_SAFEPOINT);
	assert_near(e->u.sp.spin_ms, 3);
	assert_near(e->u.sp.block_ms, 5);
	assert_near(e->u.sp.total_ms, 49);
	assert_int_equal(e->up_us, 5250000 + 49000);
	jvmlog_free(p);
}

static void synthetic_safepoint_stats_unified(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	char row[256];
	int r;
	(void)state;
	/* JDK 13-21 row alone (its Safepoint line not logged): emitted by the next line */
	snprintf(row, sizeof row, "[3.000s][info][safepoint,stats] %-28s [       %8d        %8d ][       %10ld %10ld %10ld %10ld ]%16d",
		 "ThreadDump", 12, 3, 2000000L, 100000L, 5000000L, 7100000L, 0);
	assert_int_equal(one(p, row), 0);
	r = one(p, "[3.100s][info][safepoint,stats] Maximum sync time  2000000 ns");
	e = only(r, EV_SAFEPOINT);
	assert_int_equal(e->u.sp.form, SP_STATS);
	assert_near(e->u.sp.ttsp_ms, 2.0);
	assert_near(e->u.sp.cleanup_ms, 0.1);
	assert_near(e->u.sp.at_ms, 5.0);
	assert_near(e->u.sp.total_ms, 7.1);
	assert_int_equal(e->up_us, 3000000);
	/* JDK 25: three time columns; flushed at the end of input */
	snprintf(row, sizeof row, "[4.000s][info][safepoint,stats] %-28s [       %8d        %8d ][       %10ld %10ld %10ld ]%16d",
		 "G1CollectForAllocation", 20, 1, 1000000L, 4000000L, 5000000L, 0);
	assert_int_equal(one(p, row), 0);
	r = jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS);
	e = only(r, EV_SAFEPOINT);
	assert_near(e->u.sp.ttsp_ms, 1.0);
	assert_near(e->u.sp.at_ms, 4.0);
	assert_near(e->u.sp.total_ms, 5.0);
	assert_near(e->u.sp.cleanup_ms, -1);
	assert_int_equal(jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS), 0);
	jvmlog_free(p);
}

/* ------------------------------------------------------------------------ */
/* SafepointTimeout reports                                                 */

static void synthetic_timeout_jdk8_stdout(void **state)
{
	/* FORMATS.md (e): print_safepoint_timeout() via tty, "waiting for threads to stop" */
	static const char *const lines[] = {
		"",
		"# SafepointSynchronize::begin: Timeout detected:",
		"# SafepointSynchronize::begin: Timed out while waiting for threads to stop.",
		"# SafepointSynchronize::begin: Threads which did not reach the safepoint:",
		"# \"worker-3\" #42 prio=5 os_prio=0 tid=0x00007f3c3c1e2000 nid=0x2f03 runnable [0x00007f3c1f7fe000]",
		"   java.lang.Thread.State: RUNNABLE",
		"",
		"# SafepointSynchronize::begin: (End of list)",
	};
	struct jvmlog *p = jvmlog_new();
	const struct event *e = NULL;
	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		int r = one(p, lines[i]);
		assert_true(r >= 0);
		if (i + 1 < sizeof lines / sizeof lines[0])
			assert_int_equal(r, 0);
		else
			e = only(r, EV_SP_TIMEOUT);
	}
	assert_int_equal(e->u.spt.spinning, 2);
	assert_int_equal(e->u.spt.nthreads, 1);
	assert_string_equal(e->u.spt.threads, "worker-3");
	assert_int_equal(e->t_ms, EV_TIME_NONE);
	jvmlog_free(p);
}

static void synthetic_timeout_interrupted(void **state)
{
	struct jvmlog *p;
	const struct event *e;
	int r;
	(void)state;
	/* cut by the next safepoint line: the report first, then the safepoint */
	p = jvmlog_new();
	one(p, "[2.000s][warning][safepoint] # SafepointSynchronize::begin: Timeout detected:");
	one(p, "[2.000s][warning][safepoint] # SafepointSynchronize::begin: Timed out while spinning to reach a safepoint.");
	one(p, "[2.000s][warning][safepoint] # SafepointSynchronize::begin: Threads which did not reach the safepoint:");
	one(p, "[2.001s][warning][safepoint] # \"copier\" #21 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=1.00s "
	       "tid=0x00007f94c02039c0 nid=0x2eef runnable  [0x00007f9495dfe000]");
	/* a GC line of another thread in between does not cut it */
	assert_int_equal(one(p, "[2.001s][info][gc,marking] GC(4) Concurrent Mark From Roots"), 0);
	r = one(p, "[2.300s][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 1 ns, "
		   "Reaching safepoint: 300000000 ns, Cleanup: 1 ns, At safepoint: 1000000 ns, Total: 301000001 ns");
	assert_int_equal(r, 2);
	assert_int_equal(ev[0].kind, EV_SP_TIMEOUT);
	assert_int_equal(ev[1].kind, EV_SAFEPOINT);
	assert_string_equal(ev[0].u.spt.threads, "copier");
	assert_int_equal(ev[0].up_us, 2001000);
	jvmlog_free(p);

	/* cut by an application line of a console: emitted with it */
	p = jvmlog_new();
	one(p, "[28.356s][warning][safepoint] # SafepointSynchronize::begin: Timeout detected:");
	one(p, "[28.357s][warning][safepoint] # \"batch-worker-1\" #15 daemon prio=5 os_prio=0");
	r = one(p, "1795980264735 stopped after 9943 requests");
	e = only(r, EV_SP_TIMEOUT);
	assert_string_equal(e->u.spt.threads, "batch-worker-1");
	assert_int_equal(e->u.spt.spinning, 0);
	assert_int_equal(one(p, "1795980264736 another application line"), JVMLOG_UNKNOWN);
	jvmlog_free(p);

	/* cut by the end of the input: jvmlog_flush */
	p = jvmlog_new();
	one(p, "# SafepointSynchronize::begin: Timeout detected:");
	one(p, "# \"a\" #1 prio=5");
	assert_int_equal(jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS), 1);
	assert_string_equal(ev[0].u.spt.threads, "a");
	assert_int_equal(jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS), 0);
	/* a gc line more than a second later cuts it too */
	one(p, "[5.000s][warning][safepoint] # SafepointSynchronize::begin: Timeout detected:");
	r = one(p, "[6.500s][info][gc,marking] GC(4) Concurrent Mark From Roots");
	only(r, EV_SP_TIMEOUT);
	jvmlog_free(p);
}

static void synthetic_timeout_many_threads(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	char line[256];
	size_t len;
	int r;
	(void)state;
	one(p, "[1.000s][warning][safepoint] # SafepointSynchronize::begin: Timeout detected:");
	for (int i = 0; i < 20; i++) {
		/* names with multi-byte UTF-8 so that a careless cut would split a character */
		snprintf(line, sizeof line, "[1.000s][warning][safepoint] # \"работник-%02d\" #%d daemon prio=5", i, 40 + i);
		assert_int_equal(one(p, line), 0);
		assert_int_equal(one(p, "[1.000s][warning][safepoint]    java.lang.Thread.State: RUNNABLE"), 0);
		assert_int_equal(one(p, "[1.000s][warning][safepoint] "), 0);
	}
	r = one(p, "[1.000s][warning][safepoint] # SafepointSynchronize::begin: (End of list)");
	e = only(r, EV_SP_TIMEOUT);
	assert_int_equal(e->u.spt.nthreads, 20);
	len = strlen(e->u.spt.threads);
	assert_true(len < sizeof e->u.spt.threads);
	assert_true(strncmp(e->u.spt.threads, "работник-00, работник-01", strlen("работник-00, работник-01")) == 0);
	assert_true(len >= 3 && memcmp(e->u.spt.threads + len - 3, "\xe2\x80\xa6", 3) == 0);
	{
		/* still valid UTF-8: sanitising changes nothing */
		char out[512];
		util_sanitize(out, sizeof out, e->u.spt.threads, len);
		assert_string_equal(out, e->u.spt.threads);
	}
	jvmlog_free(p);
}

/* ------------------------------------------------------------------------ */
/* decorations and time                                                     */

static void synthetic_decorations(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* every decorator, in HotSpot's fixed order */
	r = one(p, "[2026-11-29T14:23:38.332-0500][2026-11-29T19:23:38.332+0000][0.005s][1795980218332ms][5ms]"
		   "[86594384734001ns][5000000ns][pod-7f9c][1][23][info ][gc          ] Using G1");
	assert_true(r >= 3);
	assert_int_equal(ev[0].kind, EV_ANCHOR);
	assert_int_equal(ev[0].u.anchor_ms, 1795980218332LL - 5);
	{
		int seen = 0;
		for (int i = 0; i < r; i++) {
			if (ev[i].kind == EV_JVM_INFO && ev[i].u.info.key == JI_COLLECTOR)
				seen |= 1;
			if (ev[i].kind == EV_JVM_INFO && ev[i].u.info.key == JI_PID && ev[i].u.info.a == 1)
				seen |= 2;
			assert_int_equal(ev[i].t_ms, 1795980218332LL);
			assert_int_equal(ev[i].up_us, 5000);
		}
		assert_int_equal(seen, 3);
	}
	assert_int_equal(jvmlog_collector(p), GC_G1);
	jvmlog_free(p);

	p = jvmlog_new();
	/* the locale's decimal comma in uptime (logDecorations.cpp header comment) */
	r = one(p, "[0,943s][info][gc] Using Parallel");
	assert_int_equal(only(r, EV_JVM_INFO)->up_us, 943000);
	/* level without tags; time without anything else (public-gc-logs) */
	r = one(p, "[0.187s][info] Version: 17.0.10+7-LTS (release)");
	e = only(r, EV_JVM_INFO);
	assert_int_equal(e->u.info.key, JI_VERSION);
	assert_string_equal(e->u.info.text, "17.0.10+7-LTS");
	assert_int_equal(one(p, "[2024-12-06T09:50:52.067-0500] CardTable entry size: 512"), 0);
	/* uptimemillis vs timemillis by magnitude */
	r = one(p, "[101ms][info][gc] Using Serial");
	assert_int_equal(only(r, EV_JVM_INFO)->up_us, 101000);
	r = one(p, "[1631637513217ms][info][gc] Using Serial");
	assert_int_equal(only(r, EV_JVM_INFO)->t_ms, 1631637513217LL);
	/* a hostname starting with a digit, with pid and tid */
	r = one(p, "[10-0-0-7.pod][1][23] Using Shenandoah");
	assert_int_equal(r, 2);
	assert_int_equal(jvmlog_collector(p), GC_SHENANDOAH);
	/* not decorations: wrong order, an application's brackets */
	assert_int_equal(one(p, "[info][0.005s][gc] Using G1"), JVMLOG_UNKNOWN);
	assert_int_equal(one(p, "[main] INFO com.example.App - started in 2.1 s"), JVMLOG_UNKNOWN);
	assert_int_equal(one(p, "[2024-01-01 12:00:00,123] INFO something"), JVMLOG_UNKNOWN);
	assert_int_equal(one(p, "[12345] started"), JVMLOG_UNKNOWN);
	assert_int_equal(one(p, "[INFO] Building jar"), JVMLOG_UNKNOWN);
	jvmlog_free(p);

	/* a lone ns decoration on a start-up line of more than a minute is timenanos */
	p = jvmlog_new();
	r = one(p, "[1201095124136ns] Using G1");
	assert_int_equal(only(r, EV_JVM_INFO)->up_us, -1);
	r = one(p, "[1201270619328ns] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 3.900ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->up_us, -1);
	jvmlog_free(p);
}

static void synthetic_dst_change(void **state)
{
	/* US fall back, 2026-11-01 02:00 EDT -> 01:00 EST: the printed offset keeps UTC right */
	struct jvmlog *p = jvmlog_new();
	int64_t t1, t2;
	int r;
	(void)state;
	r = one(p, "[2026-11-01T01:59:59.900-0400][100.000s][info][gc] GC(1) Pause Young (Normal) "
		   "(G1 Evacuation Pause) 1M->1M(8M) 1.000ms");
	assert_int_equal(r, 2);
	assert_int_equal(ev[0].u.anchor_ms, utc(2026, 11, 1, 5, 59, 59, 900) - 100000);
	t1 = only(r, EV_GC_PAUSE)->t_ms;
	assert_int_equal(t1, utc(2026, 11, 1, 5, 59, 59, 900));
	r = one(p, "[2026-11-01T01:00:00.100-0500][100.200s][info][gc] GC(2) Pause Young (Normal) "
		   "(G1 Evacuation Pause) 1M->1M(8M) 1.000ms");
	assert_int_equal(r, 1); /* the same JVM: no new anchor */
	t2 = only(r, EV_GC_PAUSE)->t_ms;
	assert_int_equal(t2 - t1, 200);
	jvmlog_free(p);
}

static void synthetic_restart(void **state)
{
	struct jvmlog *p = jvmlog_new();
	int r;
	(void)state;
	/* a console: the anchor pair, JVM lines with uptime only ... */
	r = one(p, "1795979093517 uptime_ms=387 start pid=11488");
	assert_int_equal(r, 1);
	assert_int_equal(ev[0].kind, EV_ANCHOR);
	assert_int_equal(ev[0].u.anchor_ms, 1795979093130LL);
	assert_int_equal(ev[0].t_ms, 1795979093517LL);
	assert_int_equal(ev[0].up_us, 387000);
	assert_int_equal(one(p, "1795979095810 uptime_ms=2680 second=1"), 0); /* same JVM */
	r = one(p, "[30.000s][info][gc] GC(9) Pause Full (System.gc()) 10M->5M(20M) 5.000ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->t_ms, EV_TIME_NONE); /* the clock places it */
	assert_int_equal(placed(1795979093130LL, only(r, EV_GC_PAUSE)), 1795979093130LL + 30000);
	/* ... then the pod restarts: uptime goes back, the new JVM's start is told */
	r = one(p, "[0.010s][info][gc] Using G1");
	assert_int_equal(only(r, EV_JVM_INFO)->t_ms, EV_TIME_NONE);
	r = one(p, "1795979200000 uptime_ms=50 start pid=1");
	assert_int_equal(r, 1);
	assert_int_equal(ev[0].u.anchor_ms, 1795979199950LL);
	r = one(p, "[0.500s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(64M) 3.900ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->up_us, 500000);
	/* not pairs */
	assert_int_equal(one(p, "179597920000 uptime_ms=50 start"), JVMLOG_UNKNOWN);
	assert_int_equal(one(p, "1795979200000 uptime_ms= start"), JVMLOG_UNKNOWN);
	assert_int_equal(one(p, "1795979200000 starting pid=1"), JVMLOG_UNKNOWN);
	jvmlog_free(p);

	/* the same with wall clock + uptime decorations: a second EV_ANCHOR */
	p = jvmlog_new();
	assert_int_equal(one(p, "[2026-11-29T19:09:59.680+0000][30.000s][info][gc] Using G1"), 2);
	r = one(p, "[2026-11-29T19:10:05.000+0000][0.005s][info][gc] Using G1");
	assert_int_equal(r, 2);
	assert_int_equal(ev[0].kind, EV_ANCHOR);
	assert_int_equal(ev[0].u.anchor_ms, utc(2026, 11, 29, 19, 10, 4, 995));
	jvmlog_free(p);

	/* uptime-only lines are never placed by the parser, a line's own clock is kept */
	p = jvmlog_new();
	r = one(p, "[1.500s][info][gc] Using G1");
	assert_int_equal(only(r, EV_JVM_INFO)->t_ms, EV_TIME_NONE);
	assert_int_equal(only(r, EV_JVM_INFO)->up_us, 1500000);
	r = one(p, "[2026-11-29T19:10:05.000+0000][2.000s][info][gc] Using G1");
	assert_int_equal(ev[0].kind, EV_ANCHOR);
	assert_int_equal(ev[0].u.anchor_ms, utc(2026, 11, 29, 19, 10, 3, 0));
	assert_int_equal(only(r, EV_JVM_INFO)->t_ms, utc(2026, 11, 29, 19, 10, 5, 0));
	jvmlog_free(p);
}

/* ------------------------------------------------------------------------ */
/* pauses and cycles                                                        */

static void synthetic_pause_shapes(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* FORMATS.md (b) examples with decorations "none" */
	r = one(p, "GC(969) Pause Remark 29M->29M(46M) 2.328ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_REMARK);
	assert_int_equal(e->u.pause.gc_id, 969);
	assert_int_equal(e->u.pause.committed_kb, 46 * 1024);
	assert_int_equal(e->u.pause.collector, GC_G1);
	r = one(p, "GC(69) Pause Full (System.gc()) 84M->10M(494M) 31.243ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_FULL);
	assert_string_equal(e->u.pause.title, "Pause Full");
	assert_string_equal(e->u.pause.cause, "System.gc()");
	assert_int_equal(e->u.pause.flags, PAUSE_F_HEAP | PAUSE_F_SYSTEM_GC);
	r = one(p, "GC(77) Pause Young (Allocation Failure) 24M->4M(25M) 0.509ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_YOUNG);
	assert_string_equal(e->u.pause.title, "Pause Young");
	assert_string_equal(e->u.pause.cause, "Allocation Failure");
	r = one(p, "GC(3) Pause Full (Ergonomics) 0M->0M(3M) 5.344ms");
	assert_string_equal(only(r, EV_GC_PAUSE)->u.pause.cause, "Ergonomics");
	r = one(p, "GC(1500) Pause Init Mark (update refs) (process weakrefs) 0.295ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_INIT_MARK);
	assert_int_equal(e->u.pause.collector, GC_SHENANDOAH);
	assert_true(strncmp(e->u.pause.title, "Pause Init Mark (update refs) (process", 38) == 0);
	assert_true(strlen(e->u.pause.title) < sizeof e->u.pause.title);
	r = one(p, "GC(329) Pause Degenerated GC (Update Refs) 5855M->1809M(6144M) 22.221ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_DEGENERATED);
	assert_string_equal(e->u.pause.title, "Pause Degenerated GC (Update Refs)");
	assert_int_equal(e->u.pause.before_kb, 5855 * 1024);
	r = one(p, "GC(330) Pause Final Update Refs 0.100ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->u.pause.type, PAUSE_RELOCATE);
	/* G1 JDK 9/10 */
	r = one(p, "GC(5) Pause Initial Mark (G1 Humongous Allocation) 562M->5M(1250M) 1.212ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_YOUNG);
	assert_true(e->u.pause.flags & PAUSE_F_CONC_START);
	assert_string_equal(e->u.pause.cause, "G1 Humongous Allocation");
	/* JDK 17 and 22+ evacuation failure suffixes */
	r = one(p, "GC(6) Pause Young (Normal) (G1 Evacuation Pause) (Evacuation Failure) 100M->90M(128M) 5.100ms");
	e = only(r, EV_GC_PAUSE);
	assert_true(e->u.pause.flags & PAUSE_F_EVAC_FAIL);
	assert_string_equal(e->u.pause.title, "Pause Young (Normal)");
	assert_string_equal(e->u.pause.cause, "G1 Evacuation Pause");
	r = one(p, "GC(7) Pause Young (Mixed) (G1 Evacuation Pause) (Evacuation Failure: Allocation / Pinned) "
		   "100M->90M(128M) 5.100ms");
	e = only(r, EV_GC_PAUSE);
	assert_true(e->u.pause.flags & PAUSE_F_EVAC_FAIL);
	assert_int_equal(e->u.pause.type, PAUSE_MIXED);
	/* units and the decimal comma */
	r = one(p, "GC(8) Pause Full (System.gc()) 1G->512M(2G) 3,043ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.before_kb, 1024 * 1024);
	assert_int_equal(e->u.pause.after_kb, 512 * 1024);
	assert_int_equal(e->u.pause.committed_kb, 2 * 1024 * 1024);
	assert_near(e->u.pause.dur_ms, 3.043);
	r = one(p, "GC(9) Pause Young (Allocation Failure) 123456K->1234K(200000K) 0.100ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->u.pause.committed_kb, 200000);
	/* the start line of a pause carries nothing */
	assert_int_equal(one(p, "[0.112s][info ][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)"), 0);
	/* ZGC phase pauses, generational prefixes */
	r = one(p, "[0.180s][info][gc,phases   ] GC(0) Pause Mark Start 0.008ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.flags, PAUSE_F_PHASE);
	assert_int_equal(e->u.pause.type, PAUSE_INIT_MARK);
	assert_int_equal(e->u.pause.collector, GC_ZGC);
	r = one(p, "[0.181s][info][gc,phases   ] GC(3) Y: Pause Mark Start (Major) 0.012ms");
	e = only(r, EV_GC_PAUSE);
	assert_string_equal(e->u.pause.title, "Pause Mark Start (Major)");
	assert_true(e->u.pause.flags & PAUSE_F_PHASE);
	r = one(p, "[0.182s][info][gc,phases   ] GC(3) O: Pause Mark End 0.020ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->u.pause.type, PAUSE_REMARK);
	r = one(p, "[0.183s][info][gc,phases   ] GC(3) y: Pause Relocate Start 0.030ms");
	assert_int_equal(only(r, EV_GC_PAUSE)->u.pause.type, PAUSE_RELOCATE);
	jvmlog_free(p);
}

static void synthetic_zgc_cycles(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	r = one(p, "[0.300s][info][gc] GC(0) Garbage Collection (Warmup) 10M(10%)->8M(8%)");
	e = only(r, EV_GC_CYCLE);
	assert_int_equal(e->u.cycle.before_kb, 10 * 1024);
	assert_int_equal(e->u.cycle.after_kb, 8 * 1024);
	assert_string_equal(e->u.cycle.cause, "Warmup");
	assert_near(e->u.cycle.dur_ms, -1);
	r = one(p, "[0.300s][info][gc] GC(1) Garbage Collection (Proactive) 10M(10%)->8M(8%) 0.010s");
	assert_near(only(r, EV_GC_CYCLE)->u.cycle.dur_ms, 10);
	/* generational: seconds */
	r = one(p, "[0.400s][info][gc] GC(2) Major Collection (Warmup) 30M(31%)->26M(27%) 0.036s");
	e = only(r, EV_GC_CYCLE);
	assert_near(e->u.cycle.dur_ms, 36);
	assert_string_equal(e->u.cycle.title, "Major Collection");
	assert_int_equal(jvmlog_jdk_release(p), 21);
	/* a cycle cut short is still a cycle, with no heap numbers */
	r = one(p, "[0.500s][info][gc] GC(3) Minor Collection (Allocation Rate) Aborted");
	e = only(r, EV_GC_CYCLE);
	assert_string_equal(e->u.cycle.cause, "Allocation Rate");
	assert_int_equal(e->u.cycle.before_kb, -1);
	assert_int_equal(one(p, "[0.500s][info][gc,start] GC(4) Garbage Collection (Allocation Stall)"), 0);
	/* committed capacity: the Relocate End column of the heap table of the same GC */
	one(p, "[0.600s][info][gc,heap     ] GC(5)  Capacity:       64M (67%)          70M (73%)          80M (83%)          90M (94%)          96M (100%)         64M (67%)   ");
	r = one(p, "[0.600s][info][gc] GC(5) Garbage Collection (Allocation Rate) 50M(52%)->20M(21%)");
	assert_int_equal(only(r, EV_GC_CYCLE)->u.cycle.committed_kb, 90 * 1024);
	r = one(p, "[0.700s][info][gc] GC(6) Garbage Collection (Allocation Rate) 50M(52%)->20M(21%)");
	assert_int_equal(only(r, EV_GC_CYCLE)->u.cycle.committed_kb, -1); /* no table for GC(6) */
	r = one(p, "[0.701s][info][gc] Allocation Stall (http-nio-8080-exec-7) 12.345ms");
	e = only(r, EV_ALLOC_STALL);
	assert_string_equal(e->u.stall.thread, "http-nio-8080-exec-7");
	assert_near(e->u.stall.dur_ms, 12.345);
	r = one(p, "[0.702s][info][gc] Allocation Stall (odd (name) here) 1.000ms");
	assert_string_equal(only(r, EV_ALLOC_STALL)->u.stall.thread, "odd (name) here");
	assert_int_equal(one(p, "[0.703s][info][gc] Relocation Stall (storm-0) 3.485ms"), 0);
	jvmlog_free(p);
}

static void synthetic_periodic(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* JDK 12-15 wording of the interval (g1YoungRemSetSamplingThread.cpp) */
	r = one(p, "[0.010s][info][gc] Periodic GC enabled with interval 5000ms");
	e = only(r, EV_JVM_INFO);
	assert_int_equal(e->u.info.key, JI_PERIODIC_GC);
	assert_int_equal(e->u.info.a, 5000);
	assert_int_equal(jvmlog_jdk_release(p), 12);
	r = one(p, "[5.010s][debug][gc,periodic] Load 1.23 is higher than threshold 0.50. Skipping.");
	e = only(r, EV_PERIODIC_SKIP);
	assert_int_equal(e->u.pskip.reason, PSKIP_LOAD);
	assert_near(e->u.pskip.load, 1.23);
	assert_near(e->u.pskip.load_threshold, 0.50);
	r = one(p, "[6.010s][debug][gc,periodic] Concurrent cycle in progress. Skipping.");
	assert_int_equal(only(r, EV_PERIODIC_SKIP)->u.pskip.reason, PSKIP_CONCURRENT);
	r = one(p, "[7.010s][debug][gc,periodic] GC request denied. Skipping.");
	assert_int_equal(only(r, EV_PERIODIC_SKIP)->u.pskip.reason, PSKIP_DENIED);
	/* JDK 23+ (JDK-8317755) */
	r = one(p, "[8.010s][debug][gc,periodic] Last whole heap GC occurred 505ms before which is below "
		   "threshold 10000ms. Skipping.");
	e = only(r, EV_PERIODIC_SKIP);
	assert_int_equal(e->u.pskip.reason, PSKIP_LAST_WHOLE_GC);
	assert_int_equal(e->u.pskip.last_gc_ms, 505);
	assert_int_equal(e->u.pskip.threshold_ms, 10000);
	assert_int_equal(jvmlog_jdk_release(p), 23);
	/* FIELD-NOTES.md 2 */
	r = one(p, "[10.017s][debug][gc,periodic] Last GC occurred 505ms before which is below threshold 10000ms. Skipping.");
	assert_int_equal(only(r, EV_PERIODIC_SKIP)->u.pskip.reason, PSKIP_LAST_GC);
	assert_int_equal(one(p, "[10.017s][debug][gc,periodic] Checking for periodic GC."), 0);
	r = one(p, "[20.016s][info][gc] GC(46) Pause Young (Concurrent Start) (G1 Periodic Collection) 195M->37M(377M) 1.104ms");
	assert_true(only(r, EV_GC_PAUSE)->u.pause.flags & PAUSE_F_PERIODIC);
	jvmlog_free(p);
}

static void synthetic_jdk8_shapes(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* G1 PrintGCDetails without the detail lines: emitted at the end of input */
	r = one(p, "2016-12-21T14:28:11.672-0500: 0.823: [GC pause (G1 Evacuation Pause) (young), 0.0124023 secs]");
	assert_int_equal(r, 1); /* the anchor; the pause waits for its heap line */
	assert_int_equal(ev[0].kind, EV_ANCHOR);
	r = jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS);
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.flags & PAUSE_F_HEAP, 0);
	assert_int_equal(e->t_ms, utc(2016, 12, 21, 19, 28, 11, 684));
	/* PrintGC only: heap on the line */
	r = one(p, "[GC pause (G1 Evacuation Pause) (young) (initial-mark) 3879K->2859K(6144K), 0.0019560 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_true(e->u.pause.flags & PAUSE_F_CONC_START);
	assert_string_equal(e->u.pause.title, "GC pause (young) (initial-mark)");
	assert_int_equal(e->u.pause.after_kb, 2859);
	r = one(p, "6049.175: [GC pause (G1 Evacuation Pause) (young) (to-space exhausted), 3.1713585 secs]");
	assert_int_equal(r, 0);
	r = one(p, "   [Eden: 27.1G(50.7G)->0.0B(50.7G) Survivors: 112.0M->0.0B Heap: 27.9G(28.0G)->16.1G(28.0G)]");
	e = only(r, EV_GC_PAUSE);
	assert_true(e->u.pause.flags & PAUSE_F_EVAC_FAIL);
	assert_int_equal(e->u.pause.committed_kb, 28 * 1024 * 1024);
	assert_int_equal(e->u.pause.after_kb, (int64_t)(16.1 * 1024 * 1024 + 0.5));
	assert_int_equal(e->up_us, 6049175000LL + 3171359);
	assert_int_equal(one(p, " [Times: user=0.43 sys=0.12, real=3.17 secs]"), 0);
	/* Parallel, date stamps only */
	r = one(p, "2021-10-08T20:22:22.788-0600: [GC (Allocation Failure) [PSYoungGen: 328070K->55019K(503808K)] "
		   "649122K->396284K(1078272K), 0.3093583 secs] [Times: user=0.43 sys=0.12, real=0.31 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.collector, GC_PARALLEL);
	assert_int_equal(e->u.pause.before_kb, 649122);
	assert_int_equal(e->u.pause.committed_kb, 1078272);
	assert_int_equal(e->t_ms, utc(2021, 10, 9, 2, 22, 22, 788) + 309);
	r = one(p, "21415.385: [Full GC (Ergonomics) [PSYoungGen: 105768K->0K(547840K)] [ParOldGen: "
		   "1390311K->861344K(1398272K)] 1496080K->861344K(1946112K), [Metaspace: 136339K->135256K(1177600K)], "
		   "3.4522057 secs] [Times: user=11.58 sys=0.64, real=3.45 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_FULL);
	assert_string_equal(e->u.pause.cause, "Ergonomics");
	assert_int_equal(e->u.pause.before_kb, 1496080);
	assert_int_equal(e->u.pause.after_kb, 861344);
	assert_int_equal(e->u.pause.committed_kb, 1946112);
	assert_near(e->u.pause.dur_ms, 3452.2057);
	/* CMS and Serial */
	r = one(p, "1.234: [GC (CMS Initial Mark) [1 CMS-initial-mark: 10812K(21888K)] 10848K(31680K), 0.0012345 secs] "
		   "[Times: user=0.00 sys=0.00, real=0.00 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_INIT_MARK);
	assert_int_equal(e->u.pause.collector, GC_CMS);
	r = one(p, "2.345: [GC (CMS Final Remark) [YG occupancy: 1234 K (4928 K)]2.345: [Rescan (parallel) , 0.0012 secs]"
		   "2.346: [weak refs processing, 0.0001 secs][1 CMS-remark: 10812K(21888K)] 12046K(31680K), 0.0023456 secs] "
		   "[Times: user=0.00 sys=0.00, real=0.00 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_REMARK);
	assert_near(e->u.pause.dur_ms, 2.3456);
	assert_int_equal(one(p, "2.400: [CMS-concurrent-sweep-start]"), 0);
	r = one(p, "3.456: [GC (Allocation Failure) 3.456: [DefNew: 4416K->512K(4928K), 0.0041000 secs] "
		   "4416K->1560K(15872K), 0.0042000 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.collector, GC_SERIAL);
	assert_near(e->u.pause.dur_ms, 4.2);
	assert_int_equal(e->u.pause.committed_kb, 15872);
	/* G1 remark/cleanup; Times on the next line completes the remark */
	r = one(p, "12.300: [GC remark 12.300: [Finalize Marking, 0.0001 secs] 12.300: [GC ref-proc, 0.0001 secs] "
		   "12.301: [Unloading, 0.0012 secs], 0.0025000 secs]");
	assert_int_equal(r, 0);
	r = one(p, " [Times: user=0.01 sys=0.00, real=0.00 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_REMARK);
	assert_near(e->u.pause.dur_ms, 2.5);
	r = one(p, "12.400: [GC cleanup 1234M->1200M(2048M), 0.0012000 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_CLEANUP);
	assert_int_equal(e->u.pause.committed_kb, 2048 * 1024);
	assert_int_equal(one(p, "12.500: [GC concurrent-root-region-scan-start]"), 0);
	assert_int_equal(one(p, "12.600: [GC concurrent-mark-end, 0.0100000 secs]"), 0);
	assert_int_equal(one(p, "0.311: Application time: 0.0060964 seconds"), 0);
	/* G1 Full GC with details: the heap line after it must not make a second pause */
	r = one(p, "13.000: [Full GC (Allocation Failure)  1023M->1023M(1024M), 2.8764000 secs]");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_FULL);
	assert_int_equal(one(p, "   [Eden: 0.0B(51.0M)->0.0B(51.0M) Survivors: 0.0B->0.0B Heap: 1023.9M(1024.0M)->1023.9M(1024.0M)], "
			     "[Metaspace: 3000K->3000K(1056768K)]"), 0);
	assert_int_equal(jvmlog_jdk_release(p), 8);
	jvmlog_free(p);
}

static void synthetic_jdk8_pending_cut(void **state)
{
	/* a G1 pause waiting for its heap line is emitted before the next top-level line */
	struct jvmlog *p = jvmlog_new();
	int r;
	(void)state;
	assert_int_equal(one(p, "5.000: [GC pause (G1 Evacuation Pause) (young), 0.0100000 secs]"), 0);
	assert_int_equal(one(p, "   [Parallel Time: 9.9 ms, GC Workers: 4]"), 0);
	r = one(p, "5.011: Total time for which application threads were stopped: 0.0110000 seconds, "
		   "Stopping threads took: 0.0001000 seconds");
	assert_int_equal(r, 2);
	assert_int_equal(ev[0].kind, EV_GC_PAUSE);
	assert_int_equal(ev[0].up_us, 5010000);
	assert_int_equal(ev[1].kind, EV_SAFEPOINT);
	/* an open bracket abandoned by a new stamped line (no duration: no pause) */
	assert_int_equal(one(p, "6.000: [GC pause (young) 6.000: [G1Ergonomics (CSet Construction) start]"), 0);
	assert_int_equal(one(p, "7.000: Total time for which application threads were stopped: 0.001 seconds"), 1);
	assert_int_equal(jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS), 0);
	jvmlog_free(p);
}

static void synthetic_jdk8_tenuring_heap_at_gc(void **state)
{
	/* -XX:+PrintTenuringDistribution splits a pause over lines that start with text,
	 * -XX:+PrintHeapAtGC wraps it in a heap block (JDK 8 shapes) */
	static const char *const par[] = {
		"{Heap before GC invocations=1 (full 0):",
		" PSYoungGen      total 75264K, used 64512K [0x00000000fac00000, 0x00000000fff00000, 0x0000000100000000)",
		"  eden space 64512K, 100% used [0x00000000fac00000,0x00000000feb00000,0x00000000feb00000)",
		" ParOldGen       total 172032K, used 0K [0x00000000f0400000, 0x00000000fac00000, 0x00000000fac00000)",
		"2.345: [GC (Allocation Failure) ",
		"Desired survivor size 11010048 bytes, new threshold 7 (max 15)",
		("[PSYoungGen: 64512K->10744K(75264K)] 64512K->20128K(247296K), 0.0212321 secs] "
		 "[Times: user=0.04 sys=0.01, real=0.02 secs] "),
		"Heap after GC invocations=1 (full 0):",
		" PSYoungGen      total 75264K, used 10744K [0x00000000fac00000, 0x00000000fff00000, 0x0000000100000000)",
		"}",
	};
	static const char *const parnew[] = {
		"1.234: [GC (Allocation Failure) 1.234: [ParNew",
		"Desired survivor size 1114112 bytes, new threshold 1 (max 6)",
		"- age   1:    2166688 bytes,    2166688 total",
		(": 17472K->2176K(19648K), 0.0091234 secs] 17472K->4578K(63360K), 0.0092345 secs] "
		 "[Times: user=0.02 sys=0.00, real=0.01 secs] "),
	};
	struct jvmlog *p = jvmlog_new();
	const struct event *e = NULL;
	(void)state;
	for (size_t i = 0; i < sizeof par / sizeof par[0]; i++) {
		int r = one(p, par[i]);
		assert_true(r >= 0);
		if (i == 6)
			e = only(r, EV_GC_PAUSE);
		else
			assert_int_equal(r, 0);
	}
	assert_near(e->u.pause.dur_ms, 21.2321);
	assert_int_equal(e->u.pause.before_kb, 64512);
	assert_int_equal(e->u.pause.committed_kb, 247296);
	assert_int_equal(e->u.pause.collector, GC_PARALLEL);
	assert_int_equal(e->up_us, 2345000 + 21232);
	for (size_t i = 0; i < sizeof parnew / sizeof parnew[0]; i++) {
		int r = one(p, parnew[i]);
		if (i == 3)
			e = only(r, EV_GC_PAUSE);
		else
			assert_int_equal(r, 0);
	}
	assert_near(e->u.pause.dur_ms, 9.2345);
	assert_int_equal(e->u.pause.after_kb, 4578);
	assert_int_equal(e->u.pause.collector, GC_CMS);
	jvmlog_free(p);
}

/* ------------------------------------------------------------------------ */
/* anything else                                                            */

static void test_unknown_lines(void **state)
{
	static const char *const app[] = {
		"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
		"\tat com.example.App.main(App.java:12)",
		"2024-01-01 12:00:00.123  INFO 1 --- [           main] o.s.b.w.e.tomcat.TomcatWebServer : Tomcat started",
		"Version: 1.2.3",
		"Using config file /etc/app.yaml",
		"GC pause took too long",
		"Pause",
		"[",
		"[]",
		"[[[[",
		"]",
		"#",
		"# \"x\"",
		"CPUs: many",
		"Total time for which application threads were stopped: lots",
		"1795980218428 starting pid=28951",
		"Safepoint \"reached\" said the sign",
	};
	struct jvmlog *p = jvmlog_new();
	(void)state;
	for (size_t i = 0; i < sizeof app / sizeof app[0]; i++) {
		int r = one(p, app[i]);
		if (r != JVMLOG_UNKNOWN)
			fail_msg("\"%s\" -> %d", app[i], r);
	}
	assert_int_equal(one(p, ""), 0); /* blank lines end nothing and mean nothing */
	assert_int_equal(jvmlog_collector(p), GC_UNKNOWN);
	assert_int_equal(jvmlog_jdk_release(p), 0);
	jvmlog_free(p);
}

static void test_api_edges(void **state)
{
	struct jvmlog *p = jvmlog_new();
	(void)state;
	assert_int_equal(jvmlog_parse_line(NULL, "x", 1, ev, JVMLOG_MAX_EVENTS), JVMLOG_UNKNOWN);
	assert_int_equal(jvmlog_parse_line(p, NULL, 5, ev, JVMLOG_MAX_EVENTS), JVMLOG_UNKNOWN);
	assert_int_equal(jvmlog_parse_line(p, NULL, 0, ev, JVMLOG_MAX_EVENTS), 0);
	assert_int_equal(jvmlog_parse_line(p, "x", 1, NULL, JVMLOG_MAX_EVENTS), JVMLOG_UNKNOWN);
	assert_int_equal(jvmlog_collector(NULL), GC_UNKNOWN);
	assert_int_equal(jvmlog_jdk_release(NULL), 0);
	assert_int_equal(jvmlog_flush(NULL, ev, JVMLOG_MAX_EVENTS), 0);
	jvmlog_free(NULL);
	/* a trailing CR (a log copied from Windows) is not part of the line */
	assert_int_equal(jvmlog_parse_line(p, "[0.005s][info][gc] Using G1\r", 28, ev, JVMLOG_MAX_EVENTS), 1);
	assert_int_equal(ev[0].u.info.key, JI_COLLECTOR);
	jvmlog_free(p);
}

/* every prefix of real and synthetic lines, from exact-size buffers */
static void test_truncated_lines(void **state)
{
	static const char *const files[] = {
		"samples/g1-periodic/load-stops/gc.log", "samples/throttle/throttled-arraycopy/gc.log",
		"samples/collectors/zgc-xmx96m/gc.log", "samples/public-gc-logs/dataset10.txt",
		"samples/public-gc-logs/dataset104.txt", "samples/public-gc-logs/dataset259.txt",
		"samples/public-gc-logs/dataset278.txt", "fixtures/jvm/safepoint-stats.log",
		"fixtures/jvm/console-timeout.log",
	};
	(void)state;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		size_t n = 0, i = 0;
		char *buf = slurp(files[f], &n);
		struct jvmlog *p = jvmlog_new();
		int lines = 0;
		assert_non_null(buf);
		while (i < n && lines < 150) {
			char *nl = memchr(buf + i, '\n', n - i);
			size_t e = nl ? (size_t)(nl - buf) : n;
			for (size_t k = 0; k <= e - i; k++) {
				char *copy = malloc(k ? k : 1);
				int r;
				memcpy(copy, buf + i, k);
				r = jvmlog_parse_line(p, copy, k, ev, JVMLOG_MAX_EVENTS);
				assert_true(r >= JVMLOG_UNKNOWN && r <= JVMLOG_MAX_EVENTS);
				free(copy);
			}
			lines++;
			i = e + 1;
		}
		assert_true(jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS) >= 0);
		jvmlog_free(p);
		free(buf);
	}
}

static void test_hostile_input(void **state)
{
	struct jvmlog *p = jvmlog_new();
	size_t big = 1 << 20;
	char *s = malloc(big);
	int r;
	(void)state;
	/* NUL bytes inside a decorated line */
	{
		static const char nul[] = "[0.005s][info][gc] GC(1) Pause\0Young (Normal) 1M->1M(2M) 1.000ms";
		r = jvmlog_parse_line(p, nul, sizeof nul - 1, ev, JVMLOG_MAX_EVENTS);
		assert_true(r >= 0);
	}
	/* invalid UTF-8 in a thread name */
	r = one(p, "[0.701s][info][gc] Allocation Stall (\xff\xfe\xc0) 1.000ms");
	assert_int_equal(only(r, EV_ALLOC_STALL)->u.stall.thread[0], (char)0xff);
	/* 1 MiB lines: all '[', all digits, a decoration then junk, a huge heap number */
	memset(s, '[', big);
	assert_true(jvmlog_parse_line(p, s, big, ev, JVMLOG_MAX_EVENTS) >= JVMLOG_UNKNOWN);
	memset(s, '9', big);
	assert_true(jvmlog_parse_line(p, s, big, ev, JVMLOG_MAX_EVENTS) >= JVMLOG_UNKNOWN);
	memset(s, 'x', big);
	memcpy(s, "[0.005s][info][gc] GC(1) Pause Young ", 37);
	memcpy(s + big - 6, "1.0ms", 5);
	s[big - 1] = 's';
	assert_true(jvmlog_parse_line(p, s, big, ev, JVMLOG_MAX_EVENTS) >= 0);
	memset(s, '(', big);
	memcpy(s, "GC(1) Pause Young ", 18);
	assert_true(jvmlog_parse_line(p, s, big, ev, JVMLOG_MAX_EVENTS) >= JVMLOG_UNKNOWN);
	memset(s, '[', big);
	memcpy(s, "1.000: [GC ", 11);
	assert_true(jvmlog_parse_line(p, s, big, ev, JVMLOG_MAX_EVENTS) >= 0);
	assert_true(jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS) >= 0);
	r = one(p, "GC(1) Pause Young (Normal) 99999999999999999999999M->1M(2M) 1.000ms");
	assert_true(r >= 0);
	r = one(p, "[99999999999999999999.000s][info][gc] Using G1");
	assert_true(r >= JVMLOG_UNKNOWN);
	r = one(p, "[9223372036854775807ms][info][gc] Using G1");
	assert_true(r >= JVMLOG_UNKNOWN);
	r = one(p, "Safepoint \"unterminated, Total: 5 ns");
	assert_true(r >= JVMLOG_UNKNOWN);
	r = one(p, "Safepoint \"x\", Total: 99999999999999999999 ns, Threads: -5 runnable, 99999999999 total");
	assert_true(r >= 0);
	/* a report with a thousand threads: the counters and the name buffer stay bounded */
	one(p, "# SafepointSynchronize::begin: Timeout detected:");
	for (int i = 0; i < 70000; i++)
		one(p, "# \"abcdefghijklmnopqrstuvwxyz\" #1 prio=5");
	r = one(p, "# SafepointSynchronize::begin: (End of list)");
	assert_int_equal(only(r, EV_SP_TIMEOUT)->u.spt.nthreads, UINT16_MAX);
	free(s);
	jvmlog_free(p);
}

/* the example lines of FIELD-NOTES.md 1 and 2, and FORMATS.md (b) */
static void synthetic_field_notes_lines(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	r = one(p, "[6.877s][info][gc] GC(27) Pause Young (Normal) (G1 Evacuation Pause) 679M->89M(989M) 1.773ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.before_kb, 679 * 1024);
	assert_int_equal(e->u.pause.after_kb, 89 * 1024);
	assert_int_equal(e->u.pause.committed_kb, 989 * 1024);
	assert_int_equal(e->up_us, 6877000);
	r = one(p, "[20.019s][info][gc] GC(47) Pause Remark 37M->7M(27M) 0.478ms");
	e = only(r, EV_GC_PAUSE);
	assert_int_equal(e->u.pause.type, PAUSE_REMARK);
	assert_int_equal(e->u.pause.committed_kb, 27 * 1024);
	r = one(p, "GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2M->2M(7M) 0.681ms");
	assert_near(only(r, EV_GC_PAUSE)->u.pause.dur_ms, 0.681);
	jvmlog_free(p);
}

/* inputs the fuzzer (tests/fuzz/fuzz_jvmlog.c) found; each was undefined behaviour */
static void test_fuzz_regressions(void **state)
{
	struct jvmlog *p = jvmlog_new();
	const struct event *e;
	int r;
	(void)state;
	/* a 42-digit number converted to int64 (UBSan: outside the range of 'long') */
	r = one(p, "[2026-11-29T19:06:59.996+0000][0.043s][debug][gc,periodic ] Last GC occurred "
		   "360000000000000000000000000000000000000000ms before which is below threshold 5000ms. Skipping.");
	e = only(r, EV_PERIODIC_SKIP);
	assert_true(e->u.pskip.last_gc_ms > 0);
	assert_int_equal(e->u.pskip.threshold_ms, 5000);
	/* the same class of input everywhere a number becomes an integer or a sum */
	r = one(p, "[0.100s][info][gc] GC(1) Pause Full (System.gc()) 1e5M->1M(2M) "
		   "9999999999999999999999999999999999999999.000ms");
	if (r > 0) {
		e = only(r, EV_GC_PAUSE);
		assert_true(e->u.pause.dur_ms <= 1e12);
		assert_true(ev_start_ms(e) <= e->t_ms);
	}
	r = one(p, "[0.100s][info][gc] GC(1) Pause Full (System.gc()) 999999999999999999999999G->1M(2M) 1.000ms");
	assert_true(only(r, EV_GC_PAUSE)->u.pause.before_kb > 0);
	r = one(p, "GC(2) Garbage Collection (Warmup) 99999999999999999999999T(10%)->8M(8%) 99999999999999999999999s");
	assert_true(only(r, EV_GC_CYCLE)->u.cycle.dur_ms <= 1e12);
	r = one(p, "1.000: G1IncCollectionPause   [ 428  0  2 ]      [ 0  9223372036854775807  9223372036854775807  "
		   "9223372036854775807  9223372036854775807 ]  0");
	assert_true(only(r, EV_SAFEPOINT)->u.sp.total_ms <= 1e12);
	r = one(p, "Safepoint \"x\", Reaching safepoint: -5 ns, Total: -9223372036854775807 ns, Threads: -1 runnable, "
		   "99999999999 total");
	e = only(r, EV_SAFEPOINT);
	assert_true(e->u.sp.total_ms >= 0);
	assert_int_equal(e->u.sp.threads_total, -1);
	r = one(p, "[99999.000s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 1M->1M(2M) 1.000ms");
	assert_int_equal(placed(INT64_MAX - 5, only(r, EV_GC_PAUSE)), INT64_MAX); /* saturated */
	r = one(p, "99999.000: [GC (Allocation Failure) 1K->1K(2K), 99999999999999999999999999.0000000 secs]");
	assert_true(r >= 0);
	r = one(p, "[2026-11-29T19:06:59.996+0000][0.043s][info][gc] Periodic GC enabled with interval 99999999999999999999999ms");
	assert_true(r >= 1);
	jvmlog_free(p);
}

/* real line from tests/samples/combined/throttle-stop/gc.log */
static void real_memory_line(void **state)
{
	(void)state;
	struct jvmlog *p = jvmlog_new();
	struct event got[JVMLOG_MAX_EVENTS];
	const char *l = "[2026-11-29T19:23:38.343+0000][0.016s][info][gc,init] Memory: 24105M";
	int n = jvmlog_parse_line(p, l, strlen(l), got, JVMLOG_MAX_EVENTS);
	int found = 0;
	for (int i = 0; i < n; i++)
		if (got[i].kind == EV_JVM_INFO && got[i].u.info.key == JI_MEMORY) {
			assert_int_equal(got[i].u.info.a, 24105LL * 1024 * 1024);
			found++;
		}
	assert_int_equal(found, 1);
	jvmlog_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_memory_line),
		cmocka_unit_test(synthetic_safepoint_shapes),
		cmocka_unit_test(synthetic_total_time_lines),
		cmocka_unit_test(synthetic_jdk8_safepoint_statistics),
		cmocka_unit_test(synthetic_safepoint_stats_unified),
		cmocka_unit_test(synthetic_timeout_jdk8_stdout),
		cmocka_unit_test(synthetic_timeout_interrupted),
		cmocka_unit_test(synthetic_timeout_many_threads),
		cmocka_unit_test(synthetic_decorations),
		cmocka_unit_test(synthetic_dst_change),
		cmocka_unit_test(synthetic_restart),
		cmocka_unit_test(synthetic_pause_shapes),
		cmocka_unit_test(synthetic_zgc_cycles),
		cmocka_unit_test(synthetic_periodic),
		cmocka_unit_test(synthetic_jdk8_shapes),
		cmocka_unit_test(synthetic_jdk8_pending_cut),
		cmocka_unit_test(synthetic_jdk8_tenuring_heap_at_gc),
		cmocka_unit_test(test_unknown_lines),
		cmocka_unit_test(test_api_edges),
		cmocka_unit_test(test_truncated_lines),
		cmocka_unit_test(test_hostile_input),
		cmocka_unit_test(synthetic_field_notes_lines),
		cmocka_unit_test(test_fuzz_regressions),
	};
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
