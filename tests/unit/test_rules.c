/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_rules.c — gc-overhead (core/rules/overhead.c) on constructed timelines of
 * GC pause events, fed to the rules as a session feeds them:
 * - Full GCs back to back over seconds raise it, crit at half the time paused,
 *   warn below;
 * - one long pause does not (that is long-gc-pause), nor many short young
 *   pauses at 25 %, nor Full GCs at 25 %;
 * - each threshold decides exactly at its value (share, span, pauses, Full GCs);
 * - an episode clears when the last 3 s fall below the share, when that
 *   happened, and the same old pauses do not open it again; a later thrash
 *   is a second episode;
 * - judged after every pause (live) or once at the end (report), the verdict
 *   ends the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/event.h"
#include "stwtop/rules.h"
#include "stwtop/summary.h"
#include "stwtop/timeline.h"

#define T0 1796183357000LL   /* 2026-12-02T03:49:17Z */

struct h {
	struct timeline *tl;
	struct summary sum;
	struct rules *r;
	struct rules_ctx c;
	uint64_t line;
	bool eager;                /* judge after every pause, as live does */
};

static struct h *h_new(const struct rules_config *cfg, bool eager)
{
	struct h *h = calloc(1, sizeof *h);
	assert_non_null(h);
	h->tl = calloc(1, sizeof *h->tl);
	assert_non_null(h->tl);
	assert_int_equal(timeline_init(h->tl, false), 0);
	summary_init(&h->sum);
	h->r = rules_new(cfg);
	assert_non_null(h->r);
	rules_set_eager(h->r, eager);
	h->eager = eager;
	h->c.tl = h->tl;
	h->c.sum = &h->sum;
	h->c.have_jvm = true;
	h->c.now_ms = EV_TIME_NONE;
	h->c.pause_open_ms = EV_TIME_NONE;
	return h;
}

static void h_free(struct h *h)
{
	rules_free(h->r);
	timeline_fini(h->tl);
	free(h->tl);
	free(h);
}

static void eval(struct h *h, int64_t now, bool final)
{
	h->c.now_ms = now;
	rules_eval(h->r, &h->c, final);
}

/* one pause from start (ms after T0) lasting dur ms */
static void pause(struct h *h, int64_t start, int64_t dur, bool full)
{
	struct event e;
	ev_init(&e, EV_GC_PAUSE);
	e.line = ++h->line;
	e.t_ms = T0 + start + dur;
	e.u.pause.dur_ms = (double)dur;
	e.u.pause.type = full ? PAUSE_FULL : PAUSE_YOUNG;
	e.u.pause.flags = PAUSE_F_HEAP;
	e.u.pause.before_kb = 90 * 1024;
	e.u.pause.after_kb = (full ? 85 : 88) * 1024;
	e.u.pause.committed_kb = 96 * 1024;
	snprintf(e.u.pause.title, sizeof e.u.pause.title, "%s", full ? "Pause Full" : "Pause Young (Normal)");
	snprintf(e.u.pause.cause, sizeof e.u.pause.cause, "%s", full ? "Allocation Failure" : "G1 Evacuation Pause");
	summary_add(&h->sum, &e);
	timeline_push(h->tl, &e);
	h->c.now_ms = e.t_ms;
	rules_on_event(h->r, &h->c, &e);
	if (h->eager)
		eval(h, e.t_ms, false);
}

/* n pauses of dur ms every step ms from start; every full_every-th a Full GC (0: none) */
static int64_t run(struct h *h, int64_t start, int n, int64_t step, int64_t dur, int full_every)
{
	for (int i = 0; i < n; i++)
		pause(h, start + i * step, dur, full_every && i % full_every == 0);
	return start + (n - 1) * step + dur; /* the last one's end */
}

static int count(struct h *h)
{
	int n = 0;
	for (size_t i = 0; i < rules_count(h->r); i++)
		n += rules_at(h->r, i)->id == V_GC_OVERHEAD;
	return n;
}

static const struct verdict *find(struct h *h, int k)
{
	for (size_t i = 0; i < rules_count(h->r); i++) {
		const struct verdict *v = rules_at(h->r, i);
		if (v->id == V_GC_OVERHEAD && k-- == 0)
			return v;
	}
	return NULL;
}

static bool has_text(const struct verdict *v, const char *s)
{
	if (strstr(v->title, s) || strstr(v->advice, s))
		return true;
	for (int i = 0; i < v->nevidence; i++)
		if (strstr(v->evidence[i], s))
			return true;
	fprintf(stderr, "no \"%s\" in: %s\n", s, v->title);
	for (int i = 0; i < v->nevidence; i++)
		fprintf(stderr, "  - %s\n", v->evidence[i]);
	return false;
}

static void test_id_in_table(void **state)
{
	(void)state;
	assert_string_equal(verdict_id_name(V_GC_OVERHEAD), "gc-overhead");
	assert_int_equal(verdict_id_from_name("gc-overhead"), V_GC_OVERHEAD);
	assert_false(verdict_is_incident(V_GC_OVERHEAD));
	assert_false(verdict_info(V_GC_OVERHEAD)->explains_stop);
}

/* The rows the rules' files define (include/stwtop/rule_list.h) describe
 * themselves consistently: row i is id i, names and ranks are unique, an
 * incident rule judges and a whole-run one has a hook to raise its verdict. */
static void test_rows_self_consistent(void **state)
{
	(void)state;
	for (int i = 0; i < V_COUNT; i++) {
		const struct verdict_info *vi = verdict_info(i);
		assert_non_null(vi);
		assert_int_equal(vi->id, i);
		assert_non_null(vi->name);
		assert_int_equal(verdict_id_from_name(vi->name), i);
		for (int k = 0; k < i; k++) {
			assert_true(strcmp(verdict_info(k)->name, vi->name) != 0);
			assert_true(verdict_info(k)->rank != vi->rank);
		}
		assert_true(vi->explains_stop == false || vi->kind == VERDICT_INCIDENT);
	}
	assert_null(verdict_info(V_COUNT));
	assert_null(verdict_info(-1));
}

/* Full GCs of 60 ms every 100 ms for 5 s: 60 % paused */
static void test_fires_crit(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false);
	int64_t end = run(h, 0, 50, 100, 60, 1);
	eval(h, T0 + end, true);
	assert_int_equal(count(h), 1);
	const struct verdict *v = find(h, 0);
	assert_int_equal(v->severity, SEV_CRIT);
	assert_int_equal(v->start_ms, T0);              /* the first pause: its next 500 ms are dense */
	assert_int_equal(v->end_ms, T0 + end);          /* the last: its last 500 ms are */
	assert_int_equal(v->cleared_ms, EV_TIME_NONE);  /* the input ends thrashing */
	assert_true(has_text(v, "paused 3.0 s of the 5.0 s window (60 %) in 50 pauses"));
	assert_true(has_text(v, "50 Full GCs (50 Allocation Failure)"));
	assert_true(has_text(v, "GC.class_histogram"));
	assert_true(has_text(v, "MaxRAMPercentage"));
	assert_true(has_text(v, "HeapDumpOnOutOfMemoryError"));
	/* no "Heap Max Capacity" line was read: the committed heap, and saying so */
	assert_true(has_text(v, "used after Full GC 85 MB of 96 MB committed (89 %); the log does not say the max heap"));
	h_free(h);
}

/* 40 % paused: raised, but the application still got more than half */
static void test_fires_warn(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false);
	int64_t end = run(h, 0, 50, 100, 40, 5);
	eval(h, T0 + end, true);
	assert_int_equal(count(h), 1);
	assert_int_equal(find(h, 0)->severity, SEV_WARN);
	h_free(h);
}

/* young pauses of 10 ms every second, one Full GC of 5 s and one of 20 ms:
 * most of the stretch paused, all of it by one pause */
static void test_one_long_pause(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false);
	int64_t t = run(h, 0, 5, 1000, 10, 0);
	pause(h, t + 100, 5000, true);
	pause(h, t + 5200, 20, true);
	int64_t end = run(h, t + 6000, 5, 1000, 10, 0);
	eval(h, T0 + end, true);
	assert_int_equal(count(h), 0);
	h_free(h);
}

/* 25 ms every 100 ms for 10 s: 25 % paused, young only, then with Full GCs */
static void test_quarter_share(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false);
	int64_t end = run(h, 0, 100, 100, 25, 0);
	eval(h, T0 + end, true);
	assert_int_equal(count(h), 0);
	h_free(h);
	h = h_new(NULL, false);
	end = run(h, 0, 100, 100, 25, 10);
	eval(h, T0 + end, true);
	assert_int_equal(count(h), 0);
	h_free(h);
}

/* Six pauses of 50 ms every 190 ms, two of them Full: the stretch from the
 * first start to the last end is 1000 ms, 300 paused, 250 without the
 * longest. With min span 1000, share 0.25, 6 pauses and 2 Full GCs it is
 * exactly at every threshold; one step past any of them, it is not. */
static bool boundary(double share, double span, double pauses, double full)
{
	struct rules_config cfg;
	rules_config_defaults(&cfg);
	cfg.overhead_share = share;
	cfg.overhead_min_span_ms = span;
	cfg.overhead_min_pauses = pauses;
	cfg.overhead_min_full = full;
	struct h *h = h_new(&cfg, false);
	for (int i = 0; i < 6; i++)
		pause(h, i * 190, 50, i == 0 || i == 3);
	eval(h, T0 + 1000, true);
	bool fired = count(h) == 1;
	h_free(h);
	return fired;
}

static void test_boundaries(void **state)
{
	(void)state;
	assert_true(boundary(0.25, 1000, 6, 2));
	assert_false(boundary(0.26, 1000, 6, 2));
	assert_false(boundary(0.25, 1001, 6, 2));
	assert_false(boundary(0.25, 1000, 7, 2));
	assert_false(boundary(0.25, 1000, 6, 3));
}

/* 5 s of thrash (60 %), then young pauses of 5 ms every 500 ms for 10 s,
 * then 5 s of thrash again */
static void thrash_calm_thrash(struct h *h, int64_t *end1, int64_t *end2)
{
	*end1 = run(h, 0, 50, 100, 60, 1);
	int64_t calm = run(h, *end1 + 500, 20, 500, 5, 0);
	*end2 = run(h, calm + 500, 50, 100, 60, 1);
}

static void test_clears_no_reopen(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false);
	int64_t end1, end2;
	thrash_calm_thrash(h, &end1, &end2);
	eval(h, T0 + end2, true);
	assert_int_equal(count(h), 2);
	const struct verdict *a = find(h, 0), *b = find(h, 1);
	assert_int_equal(a->key, 1);
	assert_int_equal(b->key, 2);
	assert_int_equal(a->end_ms, T0 + end1);
	/* the last 3 s held 1.8 s of pauses at end1, falling 0.6 ms a ms: below
	 * 900 ms some 1.5 s later (the calm pauses add a little) */
	assert_true(a->cleared_ms >= T0 + end1 + 1500 && a->cleared_ms <= T0 + end1 + 1600);
	assert_true(has_text(a, "cleared"));
	assert_true(b->start_ms > a->cleared_ms);
	assert_int_equal(b->cleared_ms, EV_TIME_NONE);
	h_free(h);
}

/* the input ends thrashing and the data moves on: the end of the input clears it */
static void test_final_clears(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false);
	int64_t end = run(h, 0, 50, 100, 60, 1);
	eval(h, T0 + end + 5000, false);
	assert_int_equal(find(h, 0)->cleared_ms, EV_TIME_NONE);  /* only pauses or the end decide */
	eval(h, T0 + end + 5000, true);
	assert_true(find(h, 0)->cleared_ms != EV_TIME_NONE);
	h_free(h);
}

/* judged after every pause or once at the end: the same verdicts */
static void test_live_equals_report(void **state)
{
	(void)state;
	struct h *live = h_new(NULL, true), *rep = h_new(NULL, false);
	int64_t e1, e2;
	thrash_calm_thrash(live, &e1, &e2);
	thrash_calm_thrash(rep, &e1, &e2);
	eval(live, T0 + e2, true);
	eval(rep, T0 + e2, true);
	assert_int_equal(count(live), 2);
	assert_int_equal(count(rep), 2);
	for (int k = 0; k < 2; k++) {
		const struct verdict *a = find(live, k), *b = find(rep, k);
		assert_int_equal(a->start_ms, b->start_ms);
		assert_int_equal(a->end_ms, b->end_ms);
		assert_int_equal(a->cleared_ms, b->cleared_ms);
		assert_int_equal(a->severity, b->severity);
		assert_string_equal(a->title, b->title);
		assert_int_equal(a->nevidence, b->nevidence);
		for (int i = 0; i < a->nevidence; i++)
			assert_string_equal(a->evidence[i], b->evidence[i]);
	}
	h_free(live);
	h_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_in_table),
		cmocka_unit_test(test_rows_self_consistent),
		cmocka_unit_test(test_fires_crit),
		cmocka_unit_test(test_fires_warn),
		cmocka_unit_test(test_one_long_pause),
		cmocka_unit_test(test_quarter_share),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_clears_no_reopen),
		cmocka_unit_test(test_final_clears),
		cmocka_unit_test(test_live_equals_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
