/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_jvmlog.c — the JVM log parser on real logs: every sample gc.log and
 * console.log (counts and sums equal to what check-samples' awk computes on
 * the same file, plus the facts stated in the sample READMEs), the fixtures
 * generated with the JDK 17 of this machine (tests/fixtures/jvm/README.md),
 * and hand-checked lines of the public garbagecat logs (JDK 7/8/9-12/17/21). */
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

/* Parse a whole file into *t with a fresh parser (anchor preset unless EV_TIME_NONE). */
static void run(const char *rel, struct tally *t, int keep_kind, int64_t anchor)
{
	struct jvmlog *p = jvmlog_new();
	assert_non_null(p);
	tally_init(t, keep_kind);
	if (anchor != EV_TIME_NONE)
		tally_give_start(t, anchor);
	tally_file(p, rel, t);
	assert_true(t->lines > 0);
	jvmlog_free(p);
}

/* The numbers tests/bin/check-samples compares, from the raw file. */
static void check_awk(const char *rel, const struct tally *t)
{
	struct awk a;
	awk_scan(rel, &a);
	assert_int_equal(t->lines, a.lines);
	assert_int_equal(t->pauses, a.pauses);
	assert_near(t->pause_max, a.pmax);
	assert_near(t->pause_total, a.ptot);
	assert_int_equal(t->periodic_pauses, a.periodic);
	assert_int_equal(t->skips, a.skips);
	assert_near(t->committed_max_mb, a.cm);
	assert_near(t->committed_last_mb, a.cl);
	assert_int_equal(t->sp, a.sp);
	assert_near(t->sp_max, a.spmax);
	assert_near(t->sp_total, a.sptot);
	assert_near(t->ttsp_max, a.rmx);
	assert_int_equal(t->stalls, a.stalls);
	assert_near(t->stall_max, a.stall_max);
	assert_near(t->stall_total, a.stall_total);
	assert_int_equal(t->timeouts, a.timeouts);
}

/* lines of a file matching an extended regex */
static long count_re(const char *rel, const char *pattern)
{
	regex_t re;
	size_t n = 0, i = 0;
	long c = 0;
	char *buf = slurp(rel, &n);
	assert_non_null(buf);
	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
	while (i < n) {
		char *nl = memchr(buf + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - buf) : n;
		buf[e < n ? e : n] = '\0';
		if (regexec(&re, buf + i, 0, NULL, 0) == 0)
			c++;
		i = e + 1;
	}
	regfree(&re);
	free(buf);
	return c;
}

static const struct event *pause_by_id(const struct tally *t, int64_t id)
{
	for (int i = 0; i < t->nkeep; i++)
		if (t->keep[i].kind == EV_GC_PAUSE && t->keep[i].u.pause.gc_id == id)
			return &t->keep[i];
	return NULL;
}

static int64_t utc(int y, int mo, int d, int h, int mi, int s, int ms)
{
	return util_utc_ms(y, mo, d, h, mi, s, ms);
}

/* ------------------------------------------------------------------------ */
/* samples/g1-periodic                                                      */

static void test_g1_periodic_load_stops(void **state)
{
	const char *f = "samples/g1-periodic/load-stops/gc.log";
	struct tally t;
	const struct event *e;
	(void)state;
	run(f, &t, EV_GC_PAUSE, EV_TIME_NONE);
	check_awk(f, &t);
	/* samples/g1-periodic/README.md */
	assert_int_equal(t.pauses, 26);
	assert_near(t.pause_max, 7.230);
	assert_int_equal(t.skips, 2);
	assert_int_equal(t.periodic_pauses, 5);
	assert_near(t.committed_max_mb, 380);
	assert_near(t.committed_last_mb, 10);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.collector, GC_G1);
	assert_int_equal(t.release, 17);
	assert_string_equal(t.version, "17.0.15+6-Debian-1deb12u1");
	/* first line [2026-11-29T19:09:59.680+0000][0.005s]: start = wall - uptime */
	assert_int_equal(t.first_anchor, utc(2026, 11, 29, 19, 9, 59, 680) - 5);
	assert_int_equal(t.anchors, 1);
	assert_int_equal(t.time_none, 0);
	/* [2026-11-29T19:10:09.711+0000][10.036s] ... GC(17) Pause Young (Concurrent Start)
	 * (G1 Periodic Collection) 117M->7M(380M) 2.252ms */
	e = pause_by_id(&t, 17);
	assert_non_null(e);
	assert_string_equal(e->u.pause.title, "Pause Young (Concurrent Start)");
	assert_string_equal(e->u.pause.cause, "G1 Periodic Collection");
	assert_int_equal(e->u.pause.type, PAUSE_YOUNG);
	assert_int_equal(e->u.pause.flags, PAUSE_F_HEAP | PAUSE_F_CONC_START | PAUSE_F_PERIODIC);
	assert_int_equal(e->u.pause.before_kb, 117 * 1024);
	assert_int_equal(e->u.pause.after_kb, 7 * 1024);
	assert_int_equal(e->u.pause.committed_kb, 380 * 1024);
	assert_near(e->u.pause.dur_ms, 2.252);
	assert_int_equal(e->t_ms, utc(2026, 11, 29, 19, 10, 9, 711));
	assert_int_equal(e->up_us, 10036000);
	assert_int_equal(ev_start_ms(e), utc(2026, 11, 29, 19, 10, 9, 709));
	/* GC(18) Pause Remark 7M->6M(27M) 0.564ms: the shrink */
	e = pause_by_id(&t, 18);
	assert_non_null(e);
	assert_string_equal(e->u.pause.title, "Pause Remark");
	assert_int_equal(e->u.pause.type, PAUSE_REMARK);
	assert_int_equal(e->u.pause.committed_kb, 27 * 1024);
	/* GC(19) Pause Young (Prepare Mixed), GC(20) Pause Young (Mixed) */
	e = pause_by_id(&t, 19);
	assert_non_null(e);
	assert_true(e->u.pause.flags & PAUSE_F_PREP_MIXED);
	e = pause_by_id(&t, 20);
	assert_non_null(e);
	assert_int_equal(e->u.pause.type, PAUSE_MIXED);
	assert_string_equal(e->u.pause.title, "Pause Young (Mixed)");
}

static void test_g1_periodic_load_continues(void **state)
{
	const char *f = "samples/g1-periodic/load-continues/gc.log";
	struct tally t;
	/* the README's gaps of the 7 "Last GC occurred <n>ms" lines */
	static const int64_t gaps[] = { 36, 205, 870, 89, 753, 1418, 638 };
	(void)state;
	run(f, &t, EV_PERIODIC_SKIP, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 38);
	assert_int_equal(t.skips, 7);
	assert_int_equal(t.periodic_pauses, 0);
	assert_near(t.committed_max_mb, 380);
	assert_near(t.committed_last_mb, 380);
	assert_int_equal(t.nkeep, 7);
	for (int i = 0; i < 7; i++) {
		assert_int_equal(t.keep[i].u.pskip.reason, PSKIP_LAST_GC);
		assert_int_equal(t.keep[i].u.pskip.last_gc_ms, gaps[i]);
		assert_int_equal(t.keep[i].u.pskip.threshold_ms, 5000);
	}
	/* [2026-11-29T19:07:04.997+0000][5.045s][debug][gc,periodic ] Last GC occurred 205ms ... */
	assert_int_equal(t.keep[1].t_ms, utc(2026, 11, 29, 19, 7, 4, 997));
	assert_int_equal(t.keep[1].up_us, 5045000);
}

static void test_g1_periodic_no_periodic(void **state)
{
	const char *f = "samples/g1-periodic/no-periodic/gc.log";
	struct tally t, ti;
	bool disabled = false;
	(void)state;
	run(f, &t, 0, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 38);
	assert_near(t.pause_max, 3.742);
	assert_int_equal(t.skips, 0);
	run(f, &ti, EV_JVM_INFO, EV_TIME_NONE);
	for (int i = 0; i < ti.nkeep; i++)
		if (ti.keep[i].u.info.key == JI_PERIODIC_GC && ti.keep[i].u.info.a == 0)
			disabled = true;
	assert_true(disabled); /* "Periodic GC: Disabled" */
}

static void test_g1_init_facts(void **state)
{
	struct tally t;
	int seen = 0;
	(void)state;
	run("samples/g1-periodic/load-stops/gc.log", &t, EV_JVM_INFO, EV_TIME_NONE);
	for (int i = 0; i < t.nkeep; i++) {
		const struct ev_info *in = &t.keep[i].u.info;
		switch (in->key) {
		case JI_COLLECTOR:
			assert_int_equal(in->a, GC_G1);
			assert_string_equal(in->text, "G1");
			seen |= 1;
			break;
		case JI_VERSION:
			assert_int_equal(in->a, 17);
			seen |= 2;
			break;
		case JI_CPUS: /* CPUs: 2 total, 2 available */
			assert_int_equal(in->a, 2);
			assert_int_equal(in->b, 2);
			seen |= 4;
			break;
		case JI_HEAP_MIN: /* 8M */
			assert_int_equal(in->a, 8 << 20);
			seen |= 8;
			break;
		case JI_HEAP_INITIAL: /* 378M */
			assert_int_equal(in->a, 378LL << 20);
			seen |= 16;
			break;
		case JI_HEAP_MAX: /* 1G */
			assert_int_equal(in->a, 1LL << 30);
			seen |= 32;
			break;
		case JI_PERIODIC_GC: /* Periodic GC Interval: 5000ms */
			assert_int_equal(in->a, 5000);
			seen |= 64;
			break;
		default:
			break;
		}
	}
	assert_int_equal(seen, 127);
}

/* Every sample gc.log: the check-samples numbers, and the collector and version
 * the file states ("Using ...", "Version: ..."), read here with plain string search. */
static void test_all_sample_gc_logs(void **state)
{
	static const char *const logs[] = {
		"g1-periodic/load-continues", "g1-periodic/load-stops", "g1-periodic/no-periodic",
		"throttle/control", "throttle/throttled", "throttle/throttled-arraycopy",
		"combined/gc-stop", "combined/throttle-stop", "collectors/g1-utctime-pid-tid",
		"collectors/g1-xmx256m", "collectors/parallel-xmx256m", "collectors/serial-xmx256m",
		"collectors/shenandoah-xmx256m", "collectors/zgc-xmx96m",
	};
	static const struct { const char *name; int c; } names[] = {
		{ "Using G1\n", GC_G1 }, { "Using Parallel\n", GC_PARALLEL }, { "Using Serial\n", GC_SERIAL },
		{ "Using Shenandoah\n", GC_SHENANDOAH }, { "Using The Z Garbage Collector\n", GC_ZGC },
	};
	(void)state;
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		char f[128], want_version[96] = "";
		size_t n = 0;
		char *buf, *v;
		int want_coll = GC_UNKNOWN;
		struct tally t;
		snprintf(f, sizeof f, "samples/%s/gc.log", logs[i]);
		run(f, &t, 0, EV_TIME_NONE);
		check_awk(f, &t);
		assert_int_equal(t.unknown, 0);
		buf = slurp(f, &n);
		assert_non_null(buf);
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			if (strstr(buf, names[k].name))
				want_coll = names[k].c;
		v = strstr(buf, "Version: ");
		assert_non_null(v);
		for (size_t k = 0; k + 1 < sizeof want_version && v[9 + k] && v[9 + k] != ' '; k++)
			want_version[k] = v[9 + k];
		free(buf);
		if (t.collector != want_coll || strcmp(t.version, want_version) != 0 || t.release != 17)
			fail_msg("%s: collector %d/%d version %s/%s release %d", f, t.collector, want_coll,
				 t.version, want_version, t.release);
	}
}

/* ------------------------------------------------------------------------ */
/* samples/throttle: uptime-only gc.log + console.log with the anchor pair  */

static void test_throttle_gc_logs(void **state)
{
	static const char *const v[] = { "control", "throttled", "throttled-arraycopy" };
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char f[128];
		struct tally t;
		snprintf(f, sizeof f, "samples/throttle/%s/gc.log", v[i]);
		run(f, &t, 0, EV_TIME_NONE);
		check_awk(f, &t);
		assert_int_equal(t.unknown, 0);
		/* uptime only: nothing to anchor with, every event waits for the session */
		assert_int_equal(t.anchors, 0);
		assert_int_equal(t.time_set, 0);
		assert_int_equal(t.up_set, t.events);
		assert_int_equal(t.collector, GC_G1);
	}
}

static void test_throttle_values(void **state)
{
	struct tally t;
	(void)state;
	/* README: throttled: 23 safepoints, TTSP max 88.6 ms, Total max 287.5 ms, sum 3405 ms,
	 * 15 pauses, max 109.643 ms */
	run("samples/throttle/throttled/gc.log", &t, 0, EV_TIME_NONE);
	assert_int_equal(t.sp, 23);
	assert_true(t.ttsp_max > 88.5 && t.ttsp_max < 88.7);
	assert_true(t.sp_max > 287.4 && t.sp_max < 287.6);
	assert_true(t.sp_total > 3404 && t.sp_total < 3406);
	assert_int_equal(t.pauses, 15);
	assert_near(t.pause_max, 109.643);
	/* arraycopy: 5 timeout reports naming copier, TTSP max 3414.3 ms */
	run("samples/throttle/throttled-arraycopy/gc.log", &t, EV_SP_TIMEOUT, EV_TIME_NONE);
	assert_int_equal(t.timeouts, 5);
	assert_int_equal(t.nkeep, 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(t.keep[i].u.spt.threads, "copier");
		assert_int_equal(t.keep[i].u.spt.nthreads, 1);
		assert_int_equal(t.keep[i].u.spt.spinning, 1);
	}
	/* at uptime 1.948 14.345 14.944 15.453 18.145 s (the End-of-list line) */
	assert_int_equal(t.keep[0].up_us, 1948000);
	assert_int_equal(t.keep[3].up_us, 15454000);
	assert_int_equal(t.keep[4].up_us, 18145000);
	assert_true(t.ttsp_max > 3414.28 && t.ttsp_max < 3414.29);
}

static void test_throttle_console_anchor(void **state)
{
	struct tally t;
	(void)state;
	/* first console line: 1795979093517 uptime_ms=387 start pid=11488 ... */
	run("samples/throttle/throttled/console.log", &t, 0, EV_TIME_NONE);
	assert_int_equal(t.anchors, 1);
	assert_int_equal(t.first_anchor, 1795979093517LL - 387);
	assert_int_equal(t.unknown, 0); /* every line is a pair line */

	/* arraycopy console: the anchor, then 5 reports placed on the wall clock */
	run("samples/throttle/throttled-arraycopy/console.log", &t, EV_SP_TIMEOUT, EV_TIME_NONE);
	assert_int_equal(t.first_anchor, 1795979123690LL - 443);
	assert_int_equal(t.timeouts, 5);
	assert_int_equal(t.keep[0].up_us, 1948000);
	assert_int_equal(t.keep[0].t_ms, 1795979123690LL - 443 + 1948);
	assert_string_equal(t.keep[4].u.spt.threads, "copier");

	/* the session hands the console's anchor to the gc.log parser */
	run("samples/throttle/throttled/gc.log", &t, EV_SAFEPOINT, 1795979093517LL - 387);
	assert_int_equal(t.time_none, 0);
	/* [1.282s][info][safepoint   ] Safepoint "G1CollectForAllocation", ... Total: 193513857 ns */
	for (int i = 0; i < t.nkeep; i++) {
		if (t.keep[i].up_us == 1282000) {
			assert_int_equal(t.keep[i].t_ms, 1795979093130LL + 1282);
			assert_near(t.keep[i].u.sp.total_ms, 193.513857);
			assert_near(t.keep[i].u.sp.ttsp_ms, 0.367821);
			assert_near(t.keep[i].u.sp.cleanup_ms, 0.023862);
			assert_near(t.keep[i].u.sp.at_ms, 193.122174);
			assert_string_equal(t.keep[i].u.sp.op, "G1CollectForAllocation");
			assert_int_equal(t.keep[i].u.sp.form, SP_UNIFIED);
		}
	}
}

/* ------------------------------------------------------------------------ */
/* samples/combined                                                         */

static void test_combined(void **state)
{
	struct tally t;
	const char *f;
	(void)state;
	f = "samples/combined/gc-stop/gc.log";
	run(f, &t, 0, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.collector, GC_SERIAL);
	assert_near(t.pause_max, 3104.102); /* the Pause Full of the README */
	assert_int_equal(t.full_pauses, count_re(f, "\\]\\[gc *\\] GC\\([0-9]+\\) Pause Full .*ms$"));
	assert_true(t.sp_max > 3161.0 && t.sp_max < 3161.1);

	f = "samples/combined/throttle-stop/gc.log";
	run(f, &t, 0, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.timeouts, 1);
	assert_string_equal(t.timeout_threads, "batch-worker-1, batch-worker-2");
	assert_int_equal(t.timeout_nthreads, 2);
	assert_true(t.ttsp_max > 698.1 && t.ttsp_max < 698.2);

	/* the same report in the console, between application lines */
	f = "samples/combined/throttle-stop/console.log";
	run(f, &t, EV_SP_TIMEOUT, EV_TIME_NONE);
	assert_int_equal(t.timeouts, 1);
	assert_string_equal(t.keep[0].u.spt.threads, "batch-worker-1, batch-worker-2");
	assert_int_equal(t.keep[0].up_us, 28357000);
	assert_int_equal(t.unknown, count_re(f, "^[0-9]{13} "));
}

/* ------------------------------------------------------------------------ */
/* samples/collectors                                                       */

static void test_collectors_g1_parallel_serial(void **state)
{
	struct tally t;
	const char *f;
	(void)state;
	f = "samples/collectors/g1-xmx256m/gc.log";
	run(f, &t, 0, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 1835);
	assert_int_equal(t.full_pauses, 14);
	assert_int_equal(t.evac_fail, count_re(f, "To-space exhausted")); /* 22 */
	assert_int_equal(t.evac_fail, 22);
	assert_int_equal(t.by_type[PAUSE_REMARK], 99);
	assert_int_equal(t.by_type[PAUSE_CLEANUP], 96);
	assert_int_equal(t.by_type[PAUSE_MIXED], 333);
	assert_int_equal(t.collector, GC_G1);

	f = "samples/collectors/parallel-xmx256m/gc.log";
	run(f, &t, 0, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 1311);
	assert_int_equal(t.full_pauses, 104);
	assert_int_equal(t.by_type[PAUSE_YOUNG], 1207);
	assert_int_equal(t.collector, GC_PARALLEL);

	f = "samples/collectors/serial-xmx256m/gc.log";
	run(f, &t, 0, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 676);
	assert_int_equal(t.full_pauses, 94);
	assert_near(t.pause_max, 20.844);
	assert_int_equal(t.collector, GC_SERIAL);
	/* uptimemillis decorations: [157ms] -> 157000 µs, no wall clock */
	assert_int_equal(t.time_set, 0);
	assert_int_equal(t.up_set, t.events);
}

static void test_collectors_shenandoah(void **state)
{
	struct tally t;
	const char *f = "samples/collectors/shenandoah-xmx256m/gc.log";
	(void)state;
	run(f, &t, EV_GC_PAUSE, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 976);
	assert_int_equal(t.by_type[PAUSE_DEGENERATED], 24);
	assert_int_equal(t.full_pauses, 1);
	assert_near(t.pause_max, 15.188); /* GC(17) Pause Full 231M->41M(256M) 15.188ms */
	assert_int_equal(t.by_type[PAUSE_INIT_MARK], 257);
	assert_int_equal(t.by_type[PAUSE_REMARK], 232);
	assert_int_equal(t.collector, GC_SHENANDOAH);
	for (int i = 0; i < t.nkeep; i++) {
		const struct ev_pause *ps = &t.keep[i].u.pause;
		assert_int_equal(ps->collector, GC_SHENANDOAH);
		if (ps->type == PAUSE_INIT_MARK)
			assert_string_equal(ps->title, "Pause Init Mark (unload classes)");
		if (ps->type == PAUSE_DEGENERATED) {
			assert_string_equal(ps->title, "Pause Degenerated GC (Outside of Cycle)");
			assert_true(ps->flags & PAUSE_F_HEAP);
		}
	}
}

static void test_collectors_zgc(void **state)
{
	struct tally t, ti;
	const char *f = "samples/collectors/zgc-xmx96m/gc.log";
	int seen = 0;
	(void)state;
	run(f, &t, EV_ALLOC_STALL, EV_TIME_NONE);
	check_awk(f, &t); /* stalls: count, max, sum; no [gc] pause lines */
	assert_int_equal(t.stalls, 2712);
	assert_near(t.stall_max, 18.188);
	assert_int_equal(t.pauses, 0);
	assert_int_equal(t.phase_pauses, 1320);
	assert_near(t.phase_max, 0.021);
	assert_int_equal(t.cycles, 440); /* 440 cycles, the last one "Aborted" (no heap numbers) */
	assert_int_equal(t.cycle_committed_last_kb, 96 * 1024);
	assert_int_equal(t.collector, GC_ZGC);
	/* [194ms][info][gc          ] Allocation Stall (storm-1) 14.221ms */
	assert_string_equal(t.keep[0].u.stall.thread, "storm-1");
	assert_near(t.keep[0].u.stall.dur_ms, 14.221);
	assert_int_equal(t.keep[0].up_us, 194000);
	run(f, &ti, EV_JVM_INFO, EV_TIME_NONE);
	for (int i = 0; i < ti.nkeep; i++) {
		const struct ev_info *in = &ti.keep[i].u.info;
		if (in->key == JI_HEAP_MIN && in->a == 32 << 20)
			seen |= 1;
		if (in->key == JI_HEAP_MAX && in->a == 96 << 20)
			seen |= 2;
		if (in->key == JI_COLLECTOR && in->a == GC_ZGC)
			seen |= 4;
	}
	assert_int_equal(seen, 7);
}

static void test_collectors_zgc_thread_names(void **state)
{
	/* README: storm-0 879, storm-1 912, storm-2 916, main 3, "C1 CompilerThread0" 2 */
	struct jvmlog *p = jvmlog_new();
	size_t n = 0, i = 0;
	char *buf = slurp("samples/collectors/zgc-xmx96m/gc.log", &n);
	long s0 = 0, s1 = 0, s2 = 0, mn = 0, c1 = 0;
	(void)state;
	assert_non_null(buf);
	while (i < n) {
		struct event ev[JVMLOG_MAX_EVENTS];
		char *nl = memchr(buf + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - buf) : n;
		int r = jvmlog_parse_line(p, buf + i, e - i, ev, JVMLOG_MAX_EVENTS);
		for (int k = 0; k < r; k++) {
			if (ev[k].kind != EV_ALLOC_STALL)
				continue;
			const char *th = ev[k].u.stall.thread;
			s0 += !strcmp(th, "storm-0");
			s1 += !strcmp(th, "storm-1");
			s2 += !strcmp(th, "storm-2");
			mn += !strcmp(th, "main");
			c1 += !strcmp(th, "C1 CompilerThread0");
		}
		i = e + 1;
	}
	assert_int_equal(s0, 879);
	assert_int_equal(s1, 912);
	assert_int_equal(s2, 916);
	assert_int_equal(mn, 3);
	assert_int_equal(c1, 2);
	free(buf);
	jvmlog_free(p);
}

static void test_collectors_utctime_pid_tid(void **state)
{
	struct tally t;
	const char *f = "samples/collectors/g1-utctime-pid-tid/gc.log";
	(void)state;
	run(f, &t, EV_JVM_INFO, EV_TIME_NONE);
	check_awk(f, &t);
	assert_int_equal(t.pauses, 219);
	assert_int_equal(t.pid, 20282);
	/* utctime, no uptime: wall clock on every event, nothing to anchor */
	assert_int_equal(t.time_none, 0);
	assert_int_equal(t.up_set, 0);
	assert_int_equal(t.anchors, 0);
	/* first line [2026-11-29T19:18:48.701+0000][20282][20283][info][gc] Using G1 */
	assert_int_equal(t.keep[0].u.info.key, JI_COLLECTOR);
	assert_int_equal(t.keep[0].t_ms, utc(2026, 11, 29, 19, 18, 48, 701));
}

/* ------------------------------------------------------------------------ */
/* tests/fixtures/jvm: real JDK 17 logs made by make-fixtures.sh            */

/* first line's n-th decoration value (digits) */
static int64_t first_deco_num(const char *rel, int nth)
{
	size_t n = 0;
	char *buf = slurp(rel, &n);
	const char *s = buf;
	int64_t v = -1;
	assert_non_null(buf);
	for (int i = 0; i <= nth; i++) {
		s = strchr(s, '[');
		assert_non_null(s);
		s++;
	}
	v = strtoll(s, NULL, 10);
	free(buf);
	return v;
}

static void test_fixture_decorations(void **state)
{
	struct tally t;
	const char *f;
	long np, ns;
	(void)state;

	f = "fixtures/jvm/deco-none.log";
	run(f, &t, 0, EV_TIME_NONE);
	np = count_re(f, "^GC\\([0-9]+\\) Pause .*ms$");
	ns = count_re(f, "^Safepoint \"");
	assert_true(np > 0 && ns > 0);
	assert_int_equal(t.pauses, np);
	assert_int_equal(t.sp, ns);
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.time_set, 0);
	assert_int_equal(t.up_set, 0);
	assert_int_equal(t.collector, GC_G1);

	f = "fixtures/jvm/deco-uptimenanos.log";
	run(f, &t, EV_JVM_INFO, EV_TIME_NONE);
	assert_int_equal(t.pauses, count_re(f, "\\] GC\\([0-9]+\\) Pause .*ms$"));
	assert_int_equal(t.sp, count_re(f, "Safepoint \""));
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.up_set, t.events);
	assert_int_equal(t.keep[0].up_us, first_deco_num(f, 0) / 1000); /* [2928164ns] Using G1 */

	f = "fixtures/jvm/deco-timemillis.log";
	run(f, &t, EV_JVM_INFO, EV_TIME_NONE);
	assert_int_equal(t.pauses, count_re(f, "\\] GC\\([0-9]+\\) Pause .*ms$"));
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.time_none, 0);
	assert_int_equal(t.up_set, 0);
	assert_int_equal(t.keep[0].t_ms, first_deco_num(f, 0)); /* epoch ms, > 10^11 */

	f = "fixtures/jvm/deco-timenanos-uptimenanos.log";
	run(f, &t, EV_JVM_INFO, EV_TIME_NONE);
	assert_int_equal(t.pauses, count_re(f, "\\] GC\\([0-9]+\\) Pause .*ms$"));
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.keep[0].up_us, first_deco_num(f, 1) / 1000); /* the second one */
	assert_int_equal(t.time_set, 0); /* timenanos is a monotonic clock, not a wall clock */

	f = "fixtures/jvm/deco-hostname-pid-tid.log";
	run(f, &t, 0, EV_TIME_NONE);
	assert_int_equal(t.pauses, count_re(f, "\\] GC\\([0-9]+\\) Pause .*ms$"));
	assert_int_equal(t.sp, count_re(f, "Safepoint \""));
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.pid, first_deco_num(f, 1));

	f = "fixtures/jvm/deco-time-level-tags.log";
	run(f, &t, EV_JVM_INFO, EV_TIME_NONE);
	assert_int_equal(t.pauses, count_re(f, "\\]\\[gc *\\] GC\\([0-9]+\\) Pause .*ms$"));
	assert_int_equal(t.sp, count_re(f, "Safepoint \""));
	assert_int_equal(t.unknown, 0);
	assert_int_equal(t.time_none, 0);
	{
		/* [2026-11-29T15:03:21.731-0500]: local New York time, 20:03 UTC */
		size_t n = 0;
		char *buf = slurp(f, &n);
		int64_t want;
		bool zone;
		assert_int_equal(util_parse_iso8601(buf + 1, 28, &want, &zone), 28);
		assert_true(zone);
		assert_int_equal(t.keep[0].t_ms, want);
		assert_true(memcmp(buf + 24, "-0500]", 6) == 0);
		free(buf);
	}
}

static void test_fixture_safepoint_stats(void **state)
{
	struct tally t;
	const char *f = "fixtures/jvm/safepoint-stats.log";
	long ns;
	(void)state;
	run(f, &t, EV_SAFEPOINT, EV_TIME_NONE);
	ns = count_re(f, "Safepoint \"");
	assert_true(ns > 0);
	assert_true(count_re(f, "\\[safepoint,stats\\] G1CollectFull +\\[") == ns);
	/* a row and its Safepoint line are one safepoint: one event, not two */
	assert_int_equal(t.sp, ns);
	assert_int_equal(t.sp_threads_known, ns);
	assert_int_equal(t.unknown, 0);
	for (int i = 0; i < t.nkeep; i++) {
		assert_int_equal(t.keep[i].u.sp.form, SP_UNIFIED);
		assert_string_equal(t.keep[i].u.sp.op, "G1CollectFull");
		assert_true(t.keep[i].u.sp.threads_total > 0);
	}
}

static void test_fixture_g1_periodic_idle(void **state)
{
	struct tally t;
	const char *f = "fixtures/jvm/g1-periodic-idle.log";
	bool shrank = false;
	(void)state;
	run(f, &t, EV_GC_PAUSE, EV_TIME_NONE);
	check_awk(f, &t);
	assert_true(t.periodic_pauses >= 1);
	assert_true(t.skips >= 1);
	for (int i = 0; i < t.nkeep; i++) {
		const struct ev_pause *ps = &t.keep[i].u.pause;
		if (ps->type == PAUSE_REMARK && ps->committed_kb < 256 * 1024)
			shrank = true;
		if (ps->flags & PAUSE_F_PERIODIC) {
			assert_string_equal(ps->cause, "G1 Periodic Collection");
			assert_true(ps->flags & PAUSE_F_CONC_START);
		}
	}
	assert_true(shrank);
	assert_int_equal(t.anchors, 1);
}

static void test_fixture_systemgc(void **state)
{
	static const char *const files[] = { "fixtures/jvm/parallel-systemgc.log",
					     "fixtures/jvm/serial-systemgc.log" };
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct tally t;
		run(files[i], &t, 0, EV_TIME_NONE);
		check_awk(files[i], &t);
		assert_int_equal(t.unknown, 0);
		assert_true(t.full_pauses > 0);
		assert_int_equal(t.full_pauses,
				 count_re(files[i], "\\]\\[gc *\\] GC\\([0-9]+\\) Pause Full \\(System.gc\\(\\)\\) .*ms$"));
		assert_int_equal(t.system_gc,
				 count_re(files[i], "\\]\\[gc *\\] GC\\([0-9]+\\) Pause .*\\(System.gc\\(\\)\\) .*ms$"));
		assert_int_equal(t.collector, i == 0 ? GC_PARALLEL : GC_SERIAL);
	}
}

static void test_fixture_console_timeout(void **state)
{
	struct tally t;
	const char *f = "fixtures/jvm/console-timeout.log";
	(void)state;
	run(f, &t, EV_SP_TIMEOUT, EV_TIME_NONE);
	assert_true(t.timeouts > 0);
	assert_int_equal(t.timeouts, count_re(f, "Timeout detected"));
	for (int i = 0; i < t.nkeep; i++) {
		assert_string_equal(t.keep[i].u.spt.threads, "copier");
		assert_int_equal(t.keep[i].u.spt.spinning, 1);
		assert_true(t.keep[i].t_ms != EV_TIME_NONE); /* anchored by the first line */
		assert_int_equal(t.keep[i].t_ms, t.first_anchor + (t.keep[i].up_us + 500) / 1000);
	}
	assert_int_equal(t.anchors, 1);

	f = "fixtures/jvm/console-timeout-none.log";
	run(f, &t, EV_SP_TIMEOUT, EV_TIME_NONE);
	assert_int_equal(t.timeouts, 1);
	assert_string_equal(t.keep[0].u.spt.threads, "copier");
	assert_int_equal(t.keep[0].u.spt.nthreads, 1);
	assert_int_equal(t.keep[0].t_ms, EV_TIME_NONE);
}

/* ------------------------------------------------------------------------ */
/* samples/public-gc-logs (garbagecat test data; values checked by hand)    */

static void test_public_jdk8_g1(void **state)
{
	struct tally t;
	const struct event *e;
	(void)state;
	/* dataset104: 2016-12-21T14:28:11.672-0500: 0.823: [GC pause (G1 Evacuation Pause) (young),
	 * 0.0124023 secs] ... [Eden: ... Heap: 75.0M(1500.0M)->8749.6K(1500.0M)] */
	run("samples/public-gc-logs/dataset104.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 1);
	e = &t.keep[0];
	assert_near(e->u.pause.dur_ms, 12.4023);
	assert_int_equal(e->u.pause.before_kb, 75 * 1024);
	assert_int_equal(e->u.pause.after_kb, 8750);
	assert_int_equal(e->u.pause.committed_kb, 1500 * 1024);
	assert_string_equal(e->u.pause.title, "GC pause (young)");
	assert_string_equal(e->u.pause.cause, "G1 Evacuation Pause");
	assert_int_equal(e->u.pause.collector, GC_G1);
	/* the stamp is the start: end = 19:28:11.672Z + 12.4 ms */
	assert_int_equal(e->t_ms, utc(2016, 12, 21, 19, 28, 11, 684));
	assert_int_equal(e->up_us, 823000 + 12402);
	assert_int_equal(t.sp, 8);
	assert_int_equal(t.release, 8);
	/* first "Total time ...: 0.0000746 seconds, Stopping threads took: 0.0000269 seconds" */
	run("samples/public-gc-logs/dataset104.txt", &t, EV_SAFEPOINT, EV_TIME_NONE);
	assert_near(t.keep[0].u.sp.total_ms, 0.0746);
	assert_near(t.keep[0].u.sp.ttsp_ms, 0.0269);
	assert_int_equal(t.keep[0].u.sp.form, SP_STOPPED);
	assert_int_equal(t.keep[0].t_ms, utc(2016, 12, 21, 19, 28, 11, 41));
	assert_int_equal(t.first_anchor, utc(2016, 12, 21, 19, 28, 11, 41) - 193);

	/* dataset262: PrintGCTimeStamps only, three young pauses with heap on the Eden line */
	run("samples/public-gc-logs/dataset262.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 3);
	assert_near(t.keep[1].u.pause.dur_ms, 3.4929);
	assert_int_equal(t.keep[1].u.pause.before_kb, 1590); /* 1589.8K */
	assert_int_equal(t.keep[1].u.pause.after_kb, 1333);
	assert_int_equal(t.keep[1].u.pause.committed_kb, 4096);
	assert_int_equal(t.keep[1].up_us, 79000 + 3493);
	assert_int_equal(t.sp, 3);

	/* dataset50: JDK 7, G1Ergonomics lines inside the pause, to-space exhausted at the end */
	run("samples/public-gc-logs/dataset50.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 1);
	e = &t.keep[0];
	assert_near(e->u.pause.dur_ms, 385.758);
	assert_true(e->u.pause.flags & PAUSE_F_EVAC_FAIL);
	assert_int_equal(e->u.pause.committed_kb, 26 * 1024 * 1024);
	assert_int_equal(e->u.pause.before_kb, (int64_t)(18.6 * 1024 * 1024 + 0.5));
	assert_string_equal(e->u.pause.title, "GC pause (young)");
}

static void test_public_jdk8_header_flags(void **state)
{
	struct tally t;
	int seen = 0;
	(void)state;
	run("samples/public-gc-logs/dataset208.txt", &t, EV_JVM_INFO, EV_TIME_NONE);
	for (int i = 0; i < t.nkeep; i++) {
		const struct ev_info *in = &t.keep[i].u.info;
		if (in->key == JI_VERSION && in->a == 8 && !strcmp(in->text, "1.8.0_282-b08"))
			seen |= 1;
		if (in->key == JI_COLLECTOR && in->a == GC_PARALLEL)
			seen |= 2;
		if (in->key == JI_HEAP_MAX && in->a == 8364941312LL &&
		    !strcmp(in->text, "-XX:MaxHeapSize=8364941312"))
			seen |= 4;
		if (in->key == JI_HEAP_INITIAL && in->a == 522808832LL)
			seen |= 8;
		if (in->key == JI_FLAG && !strcmp(in->text, "-XX:+UseParallelGC") && in->b == GC_PARALLEL)
			seen |= 16;
	}
	assert_int_equal(seen, 31);
	assert_int_equal(t.release, 8);
	/* 311.238: [GC (Allocation Failure) [PSYoungGen: 198976K->288K(193536K)] 293234K->94666K(535040K),
	 * 0.0010589 secs] */
	run("samples/public-gc-logs/dataset208.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 1);
	assert_int_equal(t.keep[0].u.pause.before_kb, 293234);
	assert_int_equal(t.keep[0].u.pause.after_kb, 94666);
	assert_int_equal(t.keep[0].u.pause.committed_kb, 535040);
	assert_string_equal(t.keep[0].u.pause.cause, "Allocation Failure");
	assert_int_equal(t.keep[0].u.pause.collector, GC_PARALLEL);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_YOUNG);
	assert_int_equal(t.sp, 7);
	assert_int_equal(t.unknown, 0); /* the exit heap print-out is recognised too */

	run("samples/public-gc-logs/dataset106.txt", &t, 0, EV_TIME_NONE);
	assert_string_equal(t.version, "1.8.0_45-b14");
	assert_int_equal(t.collector, GC_G1);
	assert_near(t.pause_max, 286.7414);
	assert_int_equal(t.sp, 21);
}

static void test_public_jdk8_cms(void **state)
{
	struct tally t;
	(void)state;
	/* dataset10: CMS concurrent output spliced into a Full GC spanning two lines */
	run("samples/public-gc-logs/dataset10.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 2715.615);
	assert_int_equal(t.keep[0].u.pause.before_kb, 448884);
	assert_int_equal(t.keep[0].u.pause.after_kb, 439609);
	assert_int_equal(t.keep[0].u.pause.committed_kb, 4177280);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_FULL);
	assert_int_equal(t.keep[0].u.pause.collector, GC_CMS);
	/* dataset70: "[GC (Allocation Failure) ... [CMS ... (concurrent mode failure)" 12.348 s */
	run("samples/public-gc-logs/dataset70.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 12348.057);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_FULL);
	assert_int_equal(t.keep[0].u.pause.after_kb, 2702358);
	assert_int_equal(t.keep[0].t_ms, utc(2016, 9, 29, 18, 18, 23, 655) + 12348);
	/* dataset90: a forced Full GC (JVMTI) and a Metadata one */
	run("samples/public-gc-logs/dataset90.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 2);
	assert_true(t.keep[0].u.pause.flags & PAUSE_F_SYSTEM_GC);
	assert_near(t.keep[0].u.pause.dur_ms, 262.4794);
	assert_near(t.keep[1].u.pause.dur_ms, 195.4497);
	assert_string_equal(t.keep[1].u.pause.cause, "Metadata GC Threshold");
	/* dataset20: JDK 7 ParNew without a cause */
	run("samples/public-gc-logs/dataset20.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 1);
	assert_near(t.keep[0].u.pause.dur_ms, 883.819);
	assert_int_equal(t.keep[0].u.pause.committed_kb, 907328);
	assert_int_equal(t.unknown, 0);
	/* dataset108: "Total time ... stopped" without "Stopping threads took" (JDK 7) */
	run("samples/public-gc-logs/dataset108.txt", &t, EV_SAFEPOINT, EV_TIME_NONE);
	assert_int_equal(t.sp, 30);
	assert_near(t.keep[0].u.sp.total_ms, 4.7);
	assert_near(t.keep[0].u.sp.ttsp_ms, -1);
}

static void test_public_unified_9_to_12(void **state)
{
	struct tally t;
	(void)state;
	/* dataset216: JDK 11 G1, "Entering safepoint region: CollectForMetadataAllocation" names
	 * the next "Total time ... stopped: 0.0104763 seconds, Stopping threads took: 0.0000101" */
	run("samples/public-gc-logs/dataset216.txt", &t, EV_SAFEPOINT, EV_TIME_NONE);
	assert_int_equal(t.sp, 1);
	assert_string_equal(t.keep[0].u.sp.op, "CollectForMetadataAllocation");
	assert_near(t.keep[0].u.sp.total_ms, 10.4763);
	assert_near(t.keep[0].u.sp.ttsp_ms, 0.0101);
	assert_int_equal(t.keep[0].t_ms, utc(2021, 9, 14, 16, 38, 33, 228));
	assert_int_equal(t.release, 9); /* 9-12: the lowest release with this shape */
	assert_int_equal(t.pauses, 1);
	/* dataset219/229: JDK 11 Parallel, no "Using" line: the gc,heap names tell */
	run("samples/public-gc-logs/dataset219.txt", &t, 0, EV_TIME_NONE);
	assert_int_equal(t.collector, GC_PARALLEL);
	assert_int_equal(t.pauses, 2);
	assert_int_equal(t.full_pauses, 1);
	/* dataset291: level-only decorations; a 32.6 s HeapDumper stop */
	run("samples/public-gc-logs/dataset291.txt", &t, 0, EV_TIME_NONE);
	assert_near(t.sp_max, 32639.1481);
	assert_int_equal(t.unknown, 0);
	/* dataset246: time-only decorations, no tags */
	run("samples/public-gc-logs/dataset246.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 3);
	assert_int_equal(t.keep[0].u.pause.gc_id, 98824);
	assert_int_equal(t.keep[0].u.pause.committed_kb, 86016LL * 1024);
	assert_int_equal(t.keep[1].u.pause.type, PAUSE_REMARK);
	assert_int_equal(t.keep[2].u.pause.type, PAUSE_CLEANUP);
	assert_int_equal(t.sp, 3);
	assert_int_equal(t.cycles, 1); /* "Concurrent Cycle 1139.888ms" */
	/* dataset266: "GC(3296) To-space exhausted" on its own line marks the pause */
	run("samples/public-gc-logs/dataset266.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_true(t.keep[0].u.pause.flags & PAUSE_F_EVAC_FAIL);
	assert_false(t.keep[1].u.pause.flags & PAUSE_F_EVAC_FAIL);
	assert_near(t.keep[1].u.pause.dur_ms, 4930.898);
	assert_int_equal(t.keep[1].u.pause.type, PAUSE_FULL);
	assert_string_equal(t.keep[1].u.pause.cause, "GCLocker Initiated GC");
}

static void test_public_jdk17_21(void **state)
{
	struct tally t;
	const struct event *e = NULL;
	(void)state;
	/* dataset293: JDK 21 time-only; Pause Full (Diagnostic Command) is requested from outside */
	run("samples/public-gc-logs/dataset293.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_string_equal(t.version, "21.0.5+10-LTS");
	assert_int_equal(t.release, 21);
	assert_int_equal(t.pauses, 1);
	assert_true(t.keep[0].u.pause.flags & PAUSE_F_SYSTEM_GC);
	assert_int_equal(t.keep[0].t_ms, utc(2024, 12, 6, 14, 51, 7, 218));
	assert_int_equal(t.sp, 1);
	assert_near(t.sp_max, 16.847305);
	assert_int_equal(t.unknown, 0);
	/* dataset278: generational ZGC, JDK 21 */
	run("samples/public-gc-logs/dataset278.txt", &t, EV_GC_CYCLE, EV_TIME_NONE);
	assert_int_equal(t.release, 21);
	assert_int_equal(t.pauses, 0);
	assert_int_equal(t.phase_pauses, 3); /* y: Pause Mark Start / Mark End / Relocate Start */
	assert_int_equal(t.cycles, 1);
	e = &t.keep[0];
	/* GC(34) Minor Collection (Allocation Rate) 1824936M(36%)->1934414M(38%) 36.764s */
	assert_string_equal(e->u.cycle.title, "Minor Collection");
	assert_string_equal(e->u.cycle.cause, "Allocation Rate");
	assert_near(e->u.cycle.dur_ms, 36764);
	assert_int_equal(e->u.cycle.before_kb, 1824936LL * 1024);
	assert_int_equal(e->u.cycle.after_kb, 1934414LL * 1024);
	assert_int_equal(e->u.cycle.committed_kb, 4710400LL * 1024); /* y: Capacity, Relocate End */
	assert_near(t.ttsp_max, 11710.844001);
	/* dataset283: time + uptime, JDK 17.0.10 with debug lines: anchor learnt */
	run("samples/public-gc-logs/dataset283.txt", &t, 0, EV_TIME_NONE);
	assert_int_equal(t.first_anchor, utc(2024, 2, 1, 11, 9, 50, 737) - 10);
	assert_int_equal(t.unknown, 0);
	/* dataset236/286/287: Shenandoah 17.0.10 with level-only, uptime-only decorations */
	run("samples/public-gc-logs/dataset286.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.collector, GC_SHENANDOAH);
	assert_int_equal(t.pauses, count_re("samples/public-gc-logs/dataset286.txt", "\\] GC\\([0-9]+\\) Pause .*ms$"));
	assert_string_equal(t.version, "17.0.10+7-LTS");
	run("samples/public-gc-logs/dataset287.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.keep[0].u.pause.type, PAUSE_DEGENERATED);
	assert_string_equal(t.keep[0].u.pause.title, "Pause Degenerated GC (Update Refs)");
	assert_int_equal(t.keep[0].u.pause.before_kb, 91 * 1024);
	/* dataset259: JDK 8 Shenandoah backport "[Pause Init Mark, 0.677 ms]" */
	run("samples/public-gc-logs/dataset259.txt", &t, EV_GC_PAUSE, EV_TIME_NONE);
	assert_int_equal(t.pauses, 4);
	assert_near(t.keep[0].u.pause.dur_ms, 9.421);
	assert_int_equal(t.keep[0].u.pause.after_kb, 19211);
	assert_int_equal(t.keep[0].u.pause.committed_kb, 122 * 1024);
	assert_string_equal(t.keep[1].u.pause.title, "Pause Init Mark");
	assert_int_equal(t.sp, 4);
}

static void test_public_all_parse(void **state)
{
	/* every public log: no crash, and every event carries a kind we know */
	static const char *const names[] = {
		"dataset10", "dataset104", "dataset106", "dataset108", "dataset20", "dataset208",
		"dataset216", "dataset219", "dataset229", "dataset236", "dataset237", "dataset238",
		"dataset239", "dataset240", "dataset241", "dataset246", "dataset250", "dataset259",
		"dataset262", "dataset266", "dataset278", "dataset279", "dataset282", "dataset283",
		"dataset286", "dataset287", "dataset290", "dataset291", "dataset293", "dataset50",
		"dataset70", "dataset90",
	};
	static const int coll[] = {
		GC_CMS, GC_G1, GC_G1, GC_UNKNOWN, GC_CMS, GC_PARALLEL, GC_G1, GC_PARALLEL, GC_PARALLEL,
		GC_SHENANDOAH, GC_SERIAL, GC_PARALLEL, GC_G1, GC_SHENANDOAH, GC_ZGC, GC_G1, GC_PARALLEL,
		GC_SHENANDOAH, GC_G1, GC_G1, GC_ZGC, GC_ZGC, GC_G1, GC_G1, GC_SHENANDOAH, GC_SHENANDOAH,
		GC_G1, GC_G1, GC_G1, GC_G1, GC_CMS, GC_CMS,
	};
	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char f[128];
		struct tally t;
		snprintf(f, sizeof f, "samples/public-gc-logs/%s.txt", names[i]);
		run(f, &t, 0, EV_TIME_NONE);
		assert_int_equal(t.kinds[EV_NONE], 0);
		if (t.collector != coll[i])
			fail_msg("%s: collector %d, want %d", names[i], t.collector, coll[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_g1_periodic_load_stops),
		cmocka_unit_test(test_g1_periodic_load_continues),
		cmocka_unit_test(test_g1_periodic_no_periodic),
		cmocka_unit_test(test_g1_init_facts),
		cmocka_unit_test(test_all_sample_gc_logs),
		cmocka_unit_test(test_throttle_gc_logs),
		cmocka_unit_test(test_throttle_values),
		cmocka_unit_test(test_throttle_console_anchor),
		cmocka_unit_test(test_combined),
		cmocka_unit_test(test_collectors_g1_parallel_serial),
		cmocka_unit_test(test_collectors_shenandoah),
		cmocka_unit_test(test_collectors_zgc),
		cmocka_unit_test(test_collectors_zgc_thread_names),
		cmocka_unit_test(test_collectors_utctime_pid_tid),
		cmocka_unit_test(test_fixture_decorations),
		cmocka_unit_test(test_fixture_safepoint_stats),
		cmocka_unit_test(test_fixture_g1_periodic_idle),
		cmocka_unit_test(test_fixture_systemgc),
		cmocka_unit_test(test_fixture_console_timeout),
		cmocka_unit_test(test_public_jdk8_g1),
		cmocka_unit_test(test_public_jdk8_header_flags),
		cmocka_unit_test(test_public_jdk8_cms),
		cmocka_unit_test(test_public_unified_9_to_12),
		cmocka_unit_test(test_public_jdk17_21),
		cmocka_unit_test(test_public_all_parse),
	};
	setenv("TZ", "UTC", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
