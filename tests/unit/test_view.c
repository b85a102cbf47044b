/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_view.c — the numbers the dashboard's panes draw, on the real recordings:
 * the 701 ms TTSP stop of combined/throttle-stop lands in the right columns,
 * throttled time and requests are conserved whatever the zoom, the heap pane
 * sees G1's Remark shrink, the Lines pane shares rows among sources, and the
 * Verdicts pane lists the newest incident first in reading order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "stwtop/report.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"
#include "stwtop/util.h"
#include "stwtop/view.h"

#define LAB "$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time " \
	    "urt=$upstream_response_time rt=$request_time"

struct src { enum src_kind k; const char *rel; };

static struct session *report(const struct src *srcs, int n)
{
	char err[512];
	struct session_opts o = {.keep_lines = true, .nginx_format = LAB, .jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&o, err, sizeof err);
	if (!s)
		fail_msg("session_new: %s", err);
	for (int i = 0; i < n; i++) {
		char p[1024];
		snprintf(p, sizeof p, "%s/samples/%s", STWTOP_TEST_DIR, srcs[i].rel);
		if (session_add_source(s, srcs[i].k, p, err, sizeof err) < 0)
			fail_msg("%s: %s", p, err);
	}
	assert_int_equal(session_run_report(s), 0);
	return s;
}

static struct session *throttle_stop(void)
{
	static const struct src srcs[] = {
		{SRC_JVM, "combined/throttle-stop/gc.log"},
		{SRC_CPUSTAT, "combined/throttle-stop/cpustat.log"},
		{SRC_SCHEDLOG, "combined/throttle-stop/schedstat.log"},
		{SRC_VMSTATLOG, "combined/throttle-stop/vmstat.log"},
		{SRC_NGINX, "combined/throttle-stop/logs/access.log"},
	};
	return report(srcs, 5);
}

static int64_t at(int h, int m, int s, int ms)
{
	return util_utc_ms(2026, 11, 29, h, m, s, ms);
}

/* an axis of res_ms columns covering [from, to) */
static struct view_axis axis(int64_t from, int64_t to, int64_t res)
{
	struct view_axis a;
	a.res_ms = res;
	a.end_ms = view_floor(to + res - 1, res);
	int64_t start = view_floor(from, res);
	a.ncols = (int)((a.end_ms - start) / res);
	return a;
}

static void test_axis(void **state)
{
	(void)state;
	struct view_axis a = {.end_ms = 10000, .res_ms = 500, .ncols = 20};
	assert_int_equal(view_col_start(&a, 0), 0);
	assert_int_equal(view_col_start(&a, 19), 9500);
	assert_int_equal(view_col_of(&a, 0), 0);
	assert_int_equal(view_col_of(&a, 499), 0);
	assert_int_equal(view_col_of(&a, 500), 1);
	assert_int_equal(view_col_of(&a, 9999), 19);
	assert_int_equal(view_col_of(&a, 10000), 20);
	assert_int_equal(view_col_of(&a, -1), -1);
	assert_int_equal(view_col_of(&a, -100000), -1);
	assert_int_equal(view_col_of(&a, 1000000), 20);
	assert_int_equal(view_floor(-1, 500), -500);
	assert_int_equal(view_floor(1499, 500), 1000);
}

static void test_stops_columns(void **state)
{
	(void)state;
	struct session *s = throttle_stop();
	const struct timeline *tl = session_timeline(s);
	assert_false(view_stops_from_pauses(tl));
	struct view_axis a = axis(at(19, 23, 38, 0), at(19, 24, 20, 0), 500);
	struct view_stop_col *cols = calloc((size_t)a.ncols, sizeof *cols);
	assert_true(view_stops(tl, &a, cols) > 50);
	/* the ThreadDump safepoint 19:24:06.088-06.789: reaching 698.2 of 701.1 ms */
	int c = view_col_of(&a, at(19, 24, 6, 88));
	assert_float_equal(cols[c].total_ms, 701.1, 0.05);
	assert_float_equal(cols[c].ttsp_ms, 698.2, 0.05);
	assert_int_equal(cols[c].nstart, 1);
	/* it fills the next column too, where it did not start */
	assert_float_equal(cols[c + 1].total_ms, 701.1, 0.05);
	assert_int_equal(cols[c + 1].nstart, 0);
	assert_true(cols[c + 2].total_ms < 100);
	struct view_stop st;
	assert_true(view_stop_get(tl, cols[c].idx, &st));
	assert_string_equal(st.op, "ThreadDump");
	assert_int_equal(st.line, 198);
	/* the worst stops of the run, longest first */
	struct view_stop w[4];
	int n = view_worst_stops(tl, at(19, 23, 0, 0), at(19, 25, 0, 0), w, 4);
	assert_int_equal(n, 4);
	assert_float_equal(w[0].total_ms, 701.1, 0.05);
	assert_string_equal(w[0].op, "ThreadDump");
	for (int i = 1; i < n; i++)
		assert_true(w[i].total_ms <= w[i - 1].total_ms);
	/* a window that starts after it does not list it */
	n = view_worst_stops(tl, at(19, 24, 7, 0), at(19, 25, 0, 0), w, 4);
	assert_true(n > 0 && w[0].total_ms < 700);
	free(cols);
	session_free(s);
}

static double sum_throttled(const struct timeline *tl, int64_t res, double *nr)
{
	struct view_axis a = axis(at(19, 23, 30, 0), at(19, 24, 30, 0), res);
	struct view_cpu_col *cols = calloc((size_t)a.ncols, sizeof *cols);
	struct view_cpu_info info;
	view_cpu(tl, &a, cols, &info);
	assert_true(info.have_cpu);
	double sum = 0;
	*nr = 0;
	for (int c = 0; c < a.ncols; c++)
		if (cols[c].throttled_ms >= 0) {
			sum += cols[c].throttled_ms;
			*nr += cols[c].nr_throttled;
		}
	/* before the first sample (19:23:38.437) nothing is known */
	assert_true(cols[0].throttled_ms < 0);
	free(cols);
	return sum;
}

static void test_cpu_conserved_at_every_zoom(void **state)
{
	(void)state;
	struct session *s = throttle_stop();
	const struct timeline *tl = session_timeline(s);
	double want = summary_throttled_ms(session_summary(s));
	assert_float_equal(want, 5590.4, 0.1);   /* the README's throttled_time in the stop window */
	int64_t res[] = {30, 100, 500, 1000, 5000};
	for (size_t i = 0; i < ARRAY_LEN(res); i++) {
		double nr;
		double got = sum_throttled(tl, res[i], &nr);
		assert_float_equal(got, want, 0.5);
		assert_float_equal(nr, (double)summary_nr_throttled(session_summary(s)), 0.01);
	}
	/* at 100 ms per column (the sampling interval) the throttled time sits in the stop window */
	struct view_axis a = axis(at(19, 24, 0, 0), at(19, 24, 10, 0), 100);
	struct view_cpu_col cols[100];
	struct view_cpu_info info;
	assert_int_equal(a.ncols, 100);
	view_cpu(tl, &a, cols, &info);
	double inside = 0, outside = 0;
	for (int c = 0; c < a.ncols; c++) {
		int64_t t = view_col_start(&a, c);
		if (t >= at(19, 24, 4, 300) && t < at(19, 24, 7, 400))
			inside += cols[c].throttled_ms;
		else
			outside += cols[c].throttled_ms;
	}
	assert_float_equal(inside, 5590.4, 0.5);
	assert_float_equal(outside, 0, 0.001);
	/* recorded cpu.stat lines carry no quota */
	assert_int_equal(info.quota_us, -2);
	/* schedstat: on-CPU and run-queue wait are conserved too */
	struct view_axis all = axis(at(19, 23, 30, 0), at(19, 24, 30, 0), 250);
	struct view_cpu_col *ac = calloc((size_t)all.ncols, sizeof *ac);
	view_cpu(tl, &all, ac, &info);
	assert_true(info.have_sched);
	assert_true(info.have_vmstat);
	double oncpu = 0, wait = 0;
	int64_t stalls = 0;
	for (int c = 0; c < all.ncols; c++) {
		if (ac[c].oncpu_ms >= 0) {
			oncpu += ac[c].oncpu_ms;
			wait += ac[c].wait_ms;
		}
		if (ac[c].allocstall > 0)
			stalls += ac[c].allocstall;
	}
	const struct summary *sm = session_summary(s);
	assert_true(sm->sched_oncpu_ms > 1000);
	assert_float_equal(oncpu, sm->sched_oncpu_ms, sm->sched_oncpu_ms * 1e-4);
	assert_float_equal(wait, sm->sched_wait_ms, sm->sched_wait_ms * 1e-4);
	assert_int_equal(stalls, sm->allocstall_last - sm->allocstall_first);
	free(ac);
	session_free(s);
}

static void test_upstream_buckets(void **state)
{
	(void)state;
	struct session *s = throttle_stop();
	const struct timeline *tl = session_timeline(s);
	int64_t res[] = {1000, 5000};
	for (size_t i = 0; i < 2; i++) {
		struct view_axis a = axis(at(19, 23, 30, 0), at(19, 24, 30, 0), res[i]);
		struct view_up_col *cols = calloc((size_t)a.ncols, sizeof *cols);
		view_upstream(tl, &a, cols);
		uint64_t req = 0;
		double b[5] = {0};
		for (int c = 0; c < a.ncols; c++) {
			if (cols[c].rate < 0)
				continue;
			req += cols[c].req;
			assert_float_equal(cols[c].rate, cols[c].req / (res[i] / 1000.0), 0.01);
			for (int k = 0; k < 5; k++)
				b[k] += cols[c].bucket[k] * (res[i] / 1000.0);
		}
		/* the README: 9943 requests, uct 0 s: 9701, 1 s: 207, 2 s: 35 */
		assert_int_equal(req, 9943);
		assert_float_equal(b[0], 9701, 0.01);
		assert_float_equal(b[1], 207, 0.01);
		assert_float_equal(b[2], 35, 0.01);
		assert_float_equal(b[3] + b[4], 0, 0.01);
		free(cols);
	}
	/* at 500 ms a column shows its second's rate; the stop's seconds have a slow p99 */
	struct view_axis a = axis(at(19, 24, 0, 0), at(19, 24, 10, 0), 500);
	struct view_up_col cols[20];
	view_upstream(tl, &a, cols);
	assert_int_equal(cols[0].req, cols[1].req);
	float worst = 0;
	for (int c = 0; c < 20; c++)
		if (cols[c].rt_p99 > worst)
			worst = cols[c].rt_p99;
	assert_true(worst > 2.0f && worst < 3.5f);
	assert_true(cols[0].rt_p99 < 0.5f);
	/* before the first request nothing is known */
	struct view_axis early = axis(at(19, 23, 30, 0), at(19, 23, 40, 0), 1000);
	view_upstream(tl, &early, cols);
	assert_true(cols[0].rate < 0);
	session_free(s);
}

static void test_heap_shrink_markers(void **state)
{
	(void)state;
	static const struct src srcs[] = {{SRC_JVM, "g1-periodic/load-stops/gc.log"}};
	struct session *s = report(srcs, 1);
	const struct timeline *tl = session_timeline(s);
	/* no safepoint lines: the GC pauses are the stops */
	assert_true(view_stops_from_pauses(tl));
	struct view_axis a = axis(at(19, 9, 50, 0), at(19, 10, 40, 0), 1000);
	struct view_heap_col cols[64];
	assert_true(a.ncols <= 64);
	view_heap(tl, &a, cols);
	/* 19:10:09.711 periodic young 117M->7M(380M), .714 Remark 7M->6M(27M): committed 380 -> 27 */
	int c = view_col_of(&a, at(19, 10, 9, 711));
	assert_true(cols[c].marks & VIEW_HEAP_PERIODIC);
	assert_true(cols[c].marks & VIEW_HEAP_REMARK);
	assert_false(cols[c].marks & VIEW_HEAP_FULL);
	assert_float_equal(cols[c].committed_mb, 27, 0.05);
	assert_float_equal(cols[c].used_mb, 6, 0.05);
	assert_float_equal(cols[c - 1].committed_mb, 380, 0.05);
	/* the heap stays as the last GC left it in the columns without one */
	assert_int_equal(cols[c + 2].npauses, 0);
	assert_float_equal(cols[c + 2].committed_mb, 27, 0.05);
	/* before the first collection it is unknown */
	assert_true(cols[0].committed_mb < 0);
	struct view_stop w[2];
	assert_int_equal(view_worst_stops(tl, at(19, 9, 0, 0), at(19, 11, 0, 0), w, 2), 2);
	assert_true(w[0].ttsp_ms < 0);
	assert_non_null(strstr(w[0].op, "Pause"));
	session_free(s);

	/* the periodic checks that skipped under continued load */
	static const struct src cont[] = {{SRC_JVM, "g1-periodic/load-continues/gc.log"}};
	s = report(cont, 1);
	tl = session_timeline(s);
	assert_int_equal(view_skips(tl, at(19, 0, 0, 0), at(20, 0, 0, 0)), 7);   /* grep -c Skipping */
	/* 19:06:59.996 and 19:07:04.997: a window is [a, b) */
	assert_int_equal(view_skips(tl, at(19, 7, 0, 0), at(19, 7, 4, 997)), 0);
	assert_int_equal(view_skips(tl, at(19, 6, 59, 996), at(19, 7, 4, 998)), 2);
	session_free(s);
}

/* ZGC prints no heap on its pauses: the heap pane and the summary take it from
 * the cycle summaries ("GC(4) Garbage Collection (Allocation Stall)
 * 96M(100%)->88M(92%)") and the capacity rows of the gc,heap table. */
static void test_heap_from_zgc_cycles(void **state)
{
	(void)state;
	static const struct src srcs[] = {{SRC_JVM, "collectors/zgc-xmx96m/gc.log"}};
	struct session *s = report(srcs, 1);
	const struct timeline *tl = session_timeline(s);
	/* uptime only in this log: the axis is JVM uptime (epoch 0 = start) */
	struct view_axis a = axis(0, 400, 1);
	struct view_heap_col cols[400];
	assert_true(a.ncols <= 400);
	view_heap(tl, &a, cols);
	assert_true(cols[199].used_mb < 0);                      /* before GC(0) ended */
	assert_float_equal(cols[200].committed_mb, 96, 0.05);    /* GC(0) 96M(100%)->96M(100%) */
	assert_float_equal(cols[200].used_mb, 96, 0.05);
	assert_float_equal(cols[273].used_mb, 88, 0.05);         /* [273ms] GC(4) ...->88M(92%) */
	assert_float_equal(cols[273].committed_mb, 96, 0.05);
	assert_float_equal(cols[288].used_mb, 88, 0.05);         /* carried forward ... */
	assert_float_equal(cols[289].used_mb, 96, 0.05);         /* ... to [289ms] GC(5) ...->96M(100%) */
	assert_float_equal(cols[305].used_mb, 80, 0.05);         /* [305ms] GC(6) ...->80M(83%) */
	assert_int_equal(cols[273].npauses, 0);                  /* ZGC pauses are phases, not [gc] pauses */
	const struct summary *sm = session_summary(s);
	assert_true(sm->heap_known);
	assert_float_equal(sm->committed_max_mb, 96, 0.001);
	assert_float_equal(sm->committed_last_mb, 96, 0.001);
	/* GC(438) 96M(100%)->96M(100%); GC(439) was "Aborted": no sizes */
	assert_float_equal(sm->used_after_gc_last_mb, 96, 0.001);
	session_free(s);

	/* Shenandoah: pauses carry sizes ("Pause Degenerated GC ... 232M->62M(256M)")
	 * and so do its cycle summaries; the last word is the last cycle's */
	static const struct src shen[] = {{SRC_JVM, "collectors/shenandoah-xmx256m/gc.log"}};
	s = report(shen, 1);
	sm = session_summary(s);
	/* [6118ms] GC(281) Concurrent cleanup 171M->106M(256M), after [6073ms] ...->62M(256M) */
	assert_float_equal(sm->used_after_gc_last_mb, 106, 0.001);
	assert_float_equal(sm->committed_last_mb, 256, 0.001);
	session_free(s);
}

static void test_lines_shared_among_sources(void **state)
{
	(void)state;
	struct session *s = throttle_stop();
	const struct timeline *tl = session_timeline(s);
	/* gc.log:221 19:24:14.454 is the last pause; ~250 access log lines share its second */
	int64_t lo = at(19, 24, 14, 0), hi = at(19, 24, 15, 0);
	struct view_line out[10];
	int n = view_lines(tl, lo, hi, -1, out, 10);
	assert_int_equal(n, 10);
	bool gc221 = false;
	int per_src[8] = {0};
	for (int i = 0; i < n; i++) {
		const struct tl_line *l = timeline_line(tl, out[i].idx);
		assert_non_null(l);
		per_src[l->src]++;
		if (l->src == 0 && l->line == 221)
			gc221 = true;
		assert_true(out[i].t_ms < hi);
		if (i)
			assert_true(out[i].t_ms >= out[i - 1].t_ms);
	}
	assert_true(gc221);
	int sources = 0;
	for (int k = 0; k < 8; k++)
		sources += per_src[k] > 0;
	assert_true(sources >= 3);
	assert_true(per_src[4] <= 4);   /* the access log does not take every row */
	/* gc.log lines without an event (phases, heap regions) take their neighbour's time */
	n = view_lines(tl, lo, hi, 0, out, 10);
	assert_true(n >= 5);
	for (int i = 0; i < n; i++) {
		const struct tl_line *l = timeline_line(tl, out[i].idx);
		assert_int_equal(l->src, 0);
		assert_true(out[i].t_ms <= at(19, 24, 14, 454));
	}
	/* each source keeps its own newest TL_LINES_PER_SOURCE lines: the 9943 access
	 * log lines do not push out the GC log's first ones, but the access log's own
	 * early lines are gone */
	assert_true(view_lines_oldest(tl) <= at(19, 23, 38, 400));
	n = view_lines(tl, at(19, 23, 38, 0), at(19, 23, 39, 0), 0, out, 10);
	assert_true(n >= 5);
	n = view_lines(tl, at(19, 23, 42, 0), at(19, 23, 43, 0), 4, out, 10);
	assert_int_equal(n, 0);
	session_free(s);
}

static const char *id_at(const struct session *s, size_t *idx, size_t i)
{
	return verdict_id_name(rules_at(session_rules(s), idx[i])->id);
}

static void test_verdict_order(void **state)
{
	(void)state;
	struct session *s = throttle_stop();
	size_t idx[16];
	size_t n = view_verdict_order(s, idx, 16);
	assert_int_equal(n, 4);
	/* the incident in reading order (the stop, its cause, its cost), then the whole-run verdict */
	assert_string_equal(id_at(s, idx, 0), "ttsp-spike");
	assert_string_equal(id_at(s, idx, 1), "cpu-throttled-during-stop");
	assert_string_equal(id_at(s, idx, 2), "accept-queue-overflow");
	assert_string_equal(id_at(s, idx, 3), "g1-not-shrinking");
	session_free(s);

	static const struct src gc[] = {
		{SRC_JVM, "combined/gc-stop/gc.log"},
		{SRC_CPUSTAT, "combined/gc-stop/cpustat.log"},
		{SRC_SCHEDLOG, "combined/gc-stop/schedstat.log"},
		{SRC_NGINX, "combined/gc-stop/logs/access.log"},
	};
	s = report(gc, 4);
	n = view_verdict_order(s, idx, 16);
	assert_true(n >= 4);
	/* the 3.1 s full GC's incident comes first, the earlier long pause after it,
	 * the timeless collector verdict last */
	assert_string_equal(id_at(s, idx, 0), "long-gc-pause");
	const struct verdict *first = rules_at(session_rules(s), idx[0]);
	assert_int_equal(first->severity, SEV_CRIT);
	int64_t prev_start = first->start_ms;
	bool seen_accept = false;
	for (size_t i = 1; i < n; i++) {
		const struct verdict *v = rules_at(session_rules(s), idx[i]);
		if (v->id == V_ACCEPT_QUEUE)
			seen_accept = true;
		if (v->id == V_LONG_GC_PAUSE) {
			assert_true(seen_accept);
			assert_true(v->start_ms < prev_start);
		}
	}
	assert_string_equal(id_at(s, idx, n - 1), "serial-gc-selected");
	/* cap */
	assert_int_equal(view_verdict_order(s, idx, 2), 2);
	session_free(s);
}

/* The incidents the report numbers, as [ ] walk them: gc-stop has two, the
 * second starting where its earliest verdict starts. */
static void test_incidents(void **state)
{
	(void)state;
	static const struct src gc[] = {
		{SRC_JVM, "combined/gc-stop/gc.log"},
		{SRC_CPUSTAT, "combined/gc-stop/cpustat.log"},
		{SRC_SCHEDLOG, "combined/gc-stop/schedstat.log"},
		{SRC_NGINX, "combined/gc-stop/logs/access.log"},
	};
	struct session *s = report(gc, 4);
	const struct rules *r = session_rules(s);
	size_t n, ni;
	const size_t *idx = rules_order(r, &n);
	const struct rules_incident *inc = rules_incidents(r, &ni);
	assert_int_equal(ni, 2);
	for (size_t k = 0; k < ni; k++) {
		assert_int_equal(inc[k].number, k + 1);
		int64_t lo = INT64_MAX;
		for (size_t i = inc[k].first; i < inc[k].first + inc[k].n; i++) {
			const struct verdict *v = rules_at(r, idx[i]);
			assert_true(verdict_is_incident(v->id));
			assert_true(v->key == inc[k].key);
			if (v->start_ms < lo)
				lo = v->start_ms;
		}
		assert_true(inc[k].start_ms == lo);
		assert_true(inc[k].end_ms >= inc[k].start_ms);
	}
	/* every incident verdict of the report is in one of them */
	size_t covered = inc[0].n + inc[1].n, incident_verdicts = 0;
	for (size_t i = 0; i < n; i++)
		incident_verdicts += verdict_is_incident(rules_at(r, idx[i])->id);
	assert_int_equal(covered, incident_verdicts);
	assert_true(inc[1].start_ms == at(19, 23, 15, 471));
	/* oldest first for the screen; a cap of one keeps the oldest */
	struct rules_incident vi[16];
	assert_int_equal(view_incidents(s, vi, 16), 2);
	assert_true(vi[0].start_ms < vi[1].start_ms);
	assert_int_equal(view_incidents(s, vi, 1), 1);
	assert_true(vi[0].start_ms == inc[0].start_ms);
	session_free(s);
}

/* / n N in the Lines pane: the throttle-stop gc.log's "ThreadDump" safepoints */
static void test_line_find(void **state)
{
	(void)state;
	struct session *s = throttle_stop();
	const struct timeline *tl = session_timeline(s);
	struct view_line a, b, c;
	assert_int_equal(view_line_find(tl, "ThreadDump", 10, -1, INT64_MIN + 1, 0, 1, &a), 1);
	const struct tl_line *l = timeline_line(tl, a.idx);
	assert_non_null(l);
	assert_non_null(strstr(l->text, "ThreadDump"));
	assert_int_equal(l->src, 0);
	/* the next one is later; the one before that is the first again */
	assert_int_equal(view_line_find(tl, "ThreadDump", 10, -1, a.t_ms, a.idx, 1, &b), 1);
	assert_true(b.t_ms > a.t_ms || (b.t_ms == a.t_ms && b.idx > a.idx));
	assert_int_equal(view_line_find(tl, "ThreadDump", 10, -1, b.t_ms, b.idx, -1, &c), 1);
	assert_true(c.idx == a.idx);
	/* before the first: wraps round to the last */
	assert_int_equal(view_line_find(tl, "ThreadDump", 10, -1, a.t_ms, a.idx, -1, &c), 2);
	assert_true(c.t_ms >= b.t_ms);
	/* case is ignored; another source has none; a word nowhere */
	assert_int_equal(view_line_find(tl, "threaddump", 10, -1, INT64_MIN + 1, 0, 1, &c), 1);
	assert_true(c.idx == a.idx);
	assert_int_equal(view_line_find(tl, "ThreadDump", 10, 4, INT64_MIN + 1, 0, 1, &c), 0);
	assert_int_equal(view_line_find(tl, "no such text anywhere", 21, -1, INT64_MIN + 1, 0, 1, &c), 0);
	assert_int_equal(view_line_find(tl, "", 0, -1, INT64_MIN + 1, 0, 1, &c), 0);
	session_free(s);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_stops_columns),
		cmocka_unit_test(test_cpu_conserved_at_every_zoom),
		cmocka_unit_test(test_upstream_buckets),
		cmocka_unit_test(test_heap_shrink_markers),
		cmocka_unit_test(test_heap_from_zgc_cycles),
		cmocka_unit_test(test_lines_shared_among_sources),
		cmocka_unit_test(test_verdict_order),
		cmocka_unit_test(test_incidents),
		cmocka_unit_test(test_line_find),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
