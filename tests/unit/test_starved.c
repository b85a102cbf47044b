/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_starved.c — cpu-starved (core/rules/starved.c) on constructed
 * timelines of schedstat intervals (EV_SCHED, 500 ms each, as the recordings'
 * sampler reads them) and cgroup cpu.stat samples (EV_CPU), fed to the rules as
 * a session feeds them:
 * - threads waiting 20x their time on CPU for 30 s raise it (warn), saying
 *   the cgroup was not throttled; it is cleared once a calm window follows;
 * - each threshold decides at its value: wait/run 5x, 1000 ms of waiting per
 *   second, a 20 s window (a 6 s burst does not raise it);
 * - the same waiting while cpu.stat shows throttling is the quota's doing
 *   (cpu-throttled-during-stop's word): no verdict;
 * - without cpu.stat it is raised and says both causes are possible;
 * - judged after every event (live, cpu.stat read after schedstat) or once
 *   at the end (report), it ends the same. */
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
#define STEP 500             /* ms per schedstat interval */

struct h {
	struct timeline *tl;
	struct summary sum;
	struct rules *r;
	struct rules_ctx c;
	bool eager;
	int64_t t;               /* ms after T0 of the last interval's end */
	int64_t throttled_us, periods;
};

static struct h *h_new(const struct rules_config *cfg, bool eager, bool have_cpu)
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
	h->c.have_sched = true;
	h->c.have_cpu = have_cpu;
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

static void feed(struct h *h, struct event *e)
{
	summary_add(&h->sum, e);
	timeline_push(h->tl, e);
	h->c.now_ms = e->t_ms;
	rules_on_event(h->r, &h->c, e);
	if (h->eager)
		rules_eval(h->r, &h->c, false);
}

/* n intervals of STEP ms in which the threads ran run_per_s and waited
 * wait_per_s ms per second of wall time; with cpu.stat (have_cpu) a sample
 * after each, its throttled_time growing by thr_per_s ms per second */
static void run(struct h *h, int n, double run_per_s, double wait_per_s, double thr_per_s)
{
	for (int i = 0; i < n; i++) {
		struct event e;
		h->t += STEP;
		ev_init(&e, EV_SCHED);
		e.t_ms = T0 + h->t;
		e.u.sched.interval_ms = STEP;
		e.u.sched.oncpu_ms = run_per_s * STEP / 1000.0;
		e.u.sched.wait_ms = wait_per_s * STEP / 1000.0;
		e.u.sched.idle_ms = 0;
		e.u.sched.nthreads = 30;
		e.u.sched.worst_tid = 4242;
		e.u.sched.worst_wait_ms = e.u.sched.wait_ms / 10;
		snprintf(e.u.sched.worst_comm, sizeof e.u.sched.worst_comm, "%s", "GC Thread#0");
		feed(h, &e);
		if (!h->c.have_cpu)
			continue;
		ev_init(&e, EV_CPU);
		e.t_ms = T0 + h->t + 3; /* read just after schedstat, as live polls them */
		h->periods += thr_per_s > 0 ? 5 : 0;
		h->throttled_us += (int64_t)(thr_per_s * STEP);
		e.u.cpu.nr_periods = h->periods;
		e.u.cpu.nr_throttled = thr_per_s > 0 ? h->periods : 0;
		e.u.cpu.throttled_us = h->throttled_us;
		e.u.cpu.usage_us = -1;
		e.u.cpu.quota_us = thr_per_s > 0 ? 30000 : -1;
		e.u.cpu.period_us = 100000;
		e.u.cpu.psi_some_avg10 = -1;
		e.u.cpu.cg_version = 1;
		feed(h, &e);
	}
}

static void final(struct h *h)
{
	h->c.now_ms = T0 + h->t;
	rules_eval(h->r, &h->c, true);
}

static int count(struct h *h)
{
	int n = 0;
	for (size_t i = 0; i < rules_count(h->r); i++)
		n += rules_at(h->r, i)->id == V_CPU_STARVED;
	return n;
}

static const struct verdict *find(struct h *h, int k)
{
	for (size_t i = 0; i < rules_count(h->r); i++) {
		const struct verdict *v = rules_at(h->r, i);
		if (v->id == V_CPU_STARVED && k-- == 0)
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

static void test_row(void **state)
{
	(void)state;
	assert_int_equal(verdict_id_from_name("cpu-starved"), V_CPU_STARVED);
	assert_false(verdict_is_incident(V_CPU_STARVED));
	struct rules_config cfg;
	rules_config_defaults(&cfg);
	assert_true(cfg.starved_window_ms == 20000);
	assert_true(cfg.starved_ratio == 5);
	assert_true(cfg.starved_wait_ms_per_s == 1000);
}

/* 10 s healthy, 30 s starved (100 ms/s on CPU, 2000 ms/s waiting), 25 s healthy */
static void starve_calm(struct h *h)
{
	run(h, 20, 300, 60, 0);
	run(h, 60, 100, 2000, 0);
	run(h, 50, 300, 60, 0);
}

static void test_fires_and_clears(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false, true);
	starve_calm(h);
	final(h);
	assert_int_equal(count(h), 1);
	const struct verdict *v = find(h, 0);
	assert_int_equal(v->severity, SEV_WARN);
	assert_true(has_text(v, "starved of CPU"));
	assert_true(has_text(v, "20x longer"));
	assert_true(has_text(v, "the cgroup was not throttled"));
	assert_true(has_text(v, "\"GC Thread#0\""));
	assert_true(has_text(v, "throttled_time +0.0 ms"));
	/* the episode is the starved stretch, +10 s to +40 s, not the calm
	 * time its windows also hold; 30 s of 100 ms/s on CPU, 2000 waiting */
	assert_int_equal(v->start_ms, T0 + 10000);
	assert_int_equal(v->end_ms, T0 + 40000);
	assert_true(has_text(v, "3000 ms on CPU, 60000 ms runnable but waiting"));
	/* cleared when the last 21 s hold less than ~10.3 s of it */
	assert_true(v->cleared_ms != EV_TIME_NONE);
	assert_true(v->cleared_ms > T0 + 50000 && v->cleared_ms <= T0 + 52000);
	h_free(h);
}

/* the healthy shape alone, and a 15 s burst, raise nothing */
static void test_no_fire(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false, true);
	run(h, 120, 300, 280, 0);
	final(h);
	assert_int_equal(count(h), 0);
	h_free(h);
	h = h_new(NULL, false, true);
	run(h, 40, 300, 60, 0);
	run(h, 12, 100, 3000, 0); /* 20 s around it: 942 ms/s waiting, 3.9x */
	run(h, 40, 300, 60, 0);
	final(h);
	assert_int_equal(count(h), 0);
	h_free(h);
}

/* each threshold at its value: ratio 5 (wait 1500 vs run 300 ms/s), 1000 ms/s */
static void test_boundaries(void **state)
{
	(void)state;
	struct { double run, wait; int fires; } c[] = {
		{300, 1500, 1}, {300, 1490, 0},    /* the ratio: 5x and just under */
		{200, 1000, 1}, {200, 990, 0},     /* the rate: 1000 ms/s and just under */
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct h *h = h_new(NULL, false, true);
		run(h, 60, c[i].run, c[i].wait, 0);
		final(h);
		if (count(h) != c[i].fires)
			fail_msg("run %.0f wait %.0f: %d verdicts, want %d", c[i].run, c[i].wait, count(h), c[i].fires);
		h_free(h);
	}
	/* the window is a knob: 10 s makes a 12 s burst a starvation */
	struct rules_config cfg;
	rules_config_defaults(&cfg);
	cfg.starved_window_ms = 10000;
	struct h *h = h_new(&cfg, false, true);
	run(h, 20, 300, 60, 0);
	run(h, 24, 100, 3000, 0);
	run(h, 40, 300, 60, 0);
	final(h);
	assert_int_equal(count(h), 1);
	h_free(h);
}

/* the same waiting with throttled_time growing 600 ms per second: the quota */
static void test_throttled_is_not_starved(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false, true);
	run(h, 20, 300, 60, 0);
	run(h, 60, 100, 2000, 600);
	run(h, 50, 300, 60, 0);
	final(h);
	assert_int_equal(count(h), 0);
	h_free(h);
}

/* no cpu.stat: raised, and says it cannot tell starvation from throttling */
static void test_without_cpustat(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false, false);
	starve_calm(h);
	final(h);
	assert_int_equal(count(h), 1);
	const struct verdict *v = find(h, 0);
	assert_true(has_text(v, "run-queue starvation or CPU throttling, no cpu.stat to tell them apart"));
	assert_true(has_text(v, "--cpustat-log"));
	h_free(h);
}

/* two starved stretches far apart are two episodes */
static void test_two_episodes(void **state)
{
	(void)state;
	struct h *h = h_new(NULL, false, true);
	starve_calm(h);
	run(h, 60, 100, 2000, 0);
	final(h);
	assert_int_equal(count(h), 2);
	assert_true(find(h, 0)->cleared_ms != EV_TIME_NONE);
	assert_true(find(h, 1)->cleared_ms == EV_TIME_NONE); /* still starved at the end */
	h_free(h);
}

/* judged after every event or once at the end: the same verdict */
static void test_live_equals_report(void **state)
{
	(void)state;
	struct h *live = h_new(NULL, true, true), *rep = h_new(NULL, false, true);
	starve_calm(live);
	starve_calm(rep);
	final(live);
	final(rep);
	assert_int_equal(count(live), 1);
	assert_int_equal(count(rep), 1);
	const struct verdict *a = find(live, 0), *b = find(rep, 0);
	assert_int_equal(a->start_ms, b->start_ms);
	assert_int_equal(a->end_ms, b->end_ms);
	assert_int_equal(a->cleared_ms, b->cleared_ms);
	assert_string_equal(a->title, b->title);
	assert_int_equal(a->nevidence, b->nevidence);
	for (int i = 0; i < a->nevidence; i++)
		assert_string_equal(a->evidence[i], b->evidence[i]);
	h_free(live);
	h_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row),
		cmocka_unit_test(test_fires_and_clears),
		cmocka_unit_test(test_no_fire),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_throttled_is_not_starved),
		cmocka_unit_test(test_without_cpustat),
		cmocka_unit_test(test_two_episodes),
		cmocka_unit_test(test_live_equals_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
