/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_rules_exit.c — jvm-exited (core/rules/exit.c) on constructed events, fed to
 * the rules as a session feeds them:
 * - each way of dying is named only from its evidence: "Terminating due to" is
 *   -XX:+ExitOnOutOfMemoryError ending it, never a kill; the OOM killer only
 *   when the cgroup's counter rose around the death (not an older rise, not an
 *   unknown counter); Full GCs that freed nothing with the flag are "most
 *   likely" it, and long before the death they say nothing;
 * - live, the verdict spans last seen alive .. first seen gone; requests that
 *   started inside it are not counted after it; the text changes when the 5xx
 *   count at least doubles, not at every request; the final count is exact;
 * - a report of logs alone: the GC log stops and nginx is refused from then on
 *   (20 refused, nothing served) is a JVM that went away; 19 refused, or the
 *   upstream still serving, is not. */
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

#define T0 1796613700000LL   /* 2026-12-07T03:21:40Z */

struct h {
	struct timeline *tl;
	struct summary sum;
	struct rules *r;
	struct rules_ctx c;
	uint64_t line;
	int news, updates;
};

static void on_change(void *ctx, const struct verdict *v, bool is_new)
{
	struct h *h = ctx;
	if (v->id != V_JVM_EXITED)
		return;
	if (is_new)
		h->news++;
	else
		h->updates++;
}

static struct h *h_new(bool live)
{
	struct h *h = calloc(1, sizeof *h);
	assert_non_null(h);
	h->tl = calloc(1, sizeof *h->tl);
	assert_non_null(h->tl);
	assert_int_equal(timeline_init(h->tl, false), 0);
	summary_init(&h->sum);
	struct rules_config cfg;
	rules_config_defaults(&cfg);
	h->r = rules_new(&cfg);
	assert_non_null(h->r);
	rules_set_eager(h->r, live);
	if (live)
		rules_set_listener(h->r, on_change, h);
	h->c.tl = h->tl;
	h->c.sum = &h->sum;
	h->c.have_jvm = true;
	h->c.have_nginx = true;
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
	e->line = ++h->line;
	summary_add(&h->sum, e);
	timeline_push(h->tl, e);
	rules_on_event(h->r, &h->c, e);
}

static void eval(struct h *h, int64_t now, bool final)
{
	h->c.now_ms = now;
	rules_eval(h->r, &h->c, final);
}

/* a pause ending at T0 + at: before->after(committed) MB */
static void gc(struct h *h, int64_t at, bool full, int before, int after, int committed)
{
	struct event e;
	ev_init(&e, EV_GC_PAUSE);
	e.t_ms = T0 + at;
	e.u.pause.dur_ms = 8;
	e.u.pause.type = full ? PAUSE_FULL : PAUSE_YOUNG;
	e.u.pause.flags = PAUSE_F_HEAP;
	e.u.pause.before_kb = before * 1024;
	e.u.pause.after_kb = after * 1024;
	e.u.pause.committed_kb = committed * 1024;
	snprintf(e.u.pause.title, sizeof e.u.pause.title, "%s", full ? "Pause Full" : "Pause Young (Normal)");
	feed(h, &e);
}

static void mem(struct h *h, int64_t at, int64_t oom_kill)
{
	struct event e;
	ev_init(&e, EV_MEM);
	e.t_ms = T0 + at;
	e.u.mem.usage_bytes = 100 << 20;
	e.u.mem.limit_bytes = 200 << 20;
	e.u.mem.oom_kill = oom_kill;
	feed(h, &e);
}

/* the process gone at T0 + gone, last seen at T0 + alive */
static void gone(struct h *h, int64_t alive, int64_t gone_at, uint8_t opts, uint8_t said, const char *line)
{
	struct event e;
	ev_init(&e, EV_JVM_EXIT);
	e.t_ms = T0 + gone_at;
	e.u.exit.pid = 4242;
	e.u.exit.alive_ms = T0 + alive;
	e.u.exit.opts = opts;
	e.u.exit.said = said;
	snprintf(e.u.exit.said_line, sizeof e.u.exit.said_line, "%s", line);
	snprintf(e.u.exit.said_path, sizeof e.u.exit.said_path, "/srv/app/stdout.log");
	feed(h, &e);
}

/* a request that started at T0 + start and took 5 ms: refused (502, no connect) or served (200) */
static void req(struct h *h, int64_t start, int status)
{
	struct event e;
	ev_init(&e, EV_HTTP);
	e.t_ms = T0 + start + 5;
	e.u.http.status = (int16_t)status;
	e.u.http.rt_ms = 5;
	e.u.http.uct_n = 1;
	e.u.http.uct_dash = status == 502;
	e.u.http.uct_ms = status == 502 ? -1 : 0.1;
	e.u.http.t_exact = 1;
	feed(h, &e);
}

static const struct verdict *exited(struct h *h)
{
	for (size_t i = 0; i < rules_count(h->r); i++)
		if (rules_at(h->r, i)->id == V_JVM_EXITED)
			return rules_at(h->r, i);
	return NULL;
}

static bool has(const struct verdict *v, const char *s)
{
	if (strstr(v->title, s) || strstr(v->advice, s))
		return true;
	for (int i = 0; i < v->nevidence; i++)
		if (strstr(v->evidence[i], s))
			return true;
	return false;
}

static void show(const struct verdict *v)
{
	fprintf(stderr, "title: %s\n", v->title);
	for (int i = 0; i < v->nevidence; i++)
		fprintf(stderr, "  - %s\n", v->evidence[i]);
}

#define SAYS(v, s) do { if (!has(v, s)) { show(v); fail_msg("no \"%s\"", s); } } while (0)
#define SAYS_NOT(v, s) do { if (strstr((v)->title, s)) { show(v); fail_msg("the title says \"%s\"", s); } } while (0)

static void test_exit_on_oome(void **state)
{
	(void)state;
	struct h *h = h_new(true);
	mem(h, 0, 0);
	gc(h, 900, true, 62, 57, 64);
	gc(h, 910, true, 58, 58, 64);
	mem(h, 1000, 0);
	gone(h, 1000, 1200, EXIT_OPT_KNOWN | EXIT_OPT_EXIT_ON_OOME, EXIT_SAID_TERMINATING,
	     "Terminating due to java.lang.OutOfMemoryError: Java heap space");
	mem(h, 1195, 0);
	eval(h, T0 + 1300, true);
	const struct verdict *v = exited(h);
	assert_non_null(v);
	SAYS(v, "The JVM ended itself on OutOfMemoryError (-XX:+ExitOnOutOfMemoryError: exit status 3) between");
	SAYS(v, "/srv/app/stdout.log (the JVM's own output) says: Terminating due to");
	SAYS(v, "2 back-to-back Full GCs");
	SAYS(v, "did not rise (oom_kill 0)");
	SAYS_NOT(v, "killed");
	assert_int_equal(v->start_ms, T0 + 1000);
	assert_int_equal(v->end_ms, T0 + 1200);
	assert_int_equal(v->severity, SEV_CRIT);
	h_free(h);
}

/* the OOM killer: only when the counter rose around the death */
static void oom_case(int64_t rise_at, int64_t unknown, bool want)
{
	struct h *h = h_new(true);
	mem(h, 0, unknown ? -1 : 0);
	mem(h, rise_at - 200, unknown ? -1 : 0);
	mem(h, rise_at, unknown ? -1 : 1);
	if (rise_at < 9800)
		mem(h, 9800, unknown ? -1 : 1);
	gone(h, 9800, 10000, EXIT_OPT_KNOWN, EXIT_SAID_NOTHING, "");
	eval(h, T0 + 10100, true);
	const struct verdict *v = exited(h);
	assert_non_null(v);
	if (want) {
		SAYS(v, "The JVM was killed by the kernel's OOM killer (its memory cgroup's limit) between");
		SAYS(v, "rose from 0 to 1");
	} else {
		SAYS_NOT(v, "OOM killer");
		SAYS(v, "The JVM was killed or died without a word between");
	}
	h_free(h);
}

static void test_oom_killer(void **state)
{
	(void)state;
	oom_case(10000, false, true);   /* read in the pass that found it gone */
	oom_case(9800, false, true);    /* a zombie still read alive after the kill */
	oom_case(2000, false, false);   /* 8 s before: another process of the cgroup */
	oom_case(10000, true, false);   /* no counter: never claimed */
}

/* Full GCs that freed nothing, with the flag and no readable output: most likely */
static void test_likely(void **state)
{
	(void)state;
	struct h *h = h_new(true);
	gc(h, 5000, true, 62, 58, 64);
	gc(h, 5010, true, 58, 58, 64);
	gone(h, 5100, 5300, EXIT_OPT_KNOWN | EXIT_OPT_EXIT_ON_OOME, EXIT_SAID_UNKNOWN, "");
	eval(h, T0 + 5400, true);
	SAYS(exited(h), "most likely on OutOfMemoryError: its heap ran out and it ran with -XX:+ExitOnOutOfMemoryError");
	h_free(h);
	/* the same Full GCs a minute before: they do not explain this end */
	h = h_new(true);
	gc(h, 5000, true, 62, 58, 64);
	gc(h, 5010, true, 58, 58, 64);
	gone(h, 65100, 65300, EXIT_OPT_KNOWN | EXIT_OPT_EXIT_ON_OOME, EXIT_SAID_UNKNOWN, "");
	eval(h, T0 + 65400, true);
	SAYS(exited(h), "The JVM was killed or died without a word");
	h_free(h);
	/* a Full GC that freed memory between them breaks the run */
	h = h_new(true);
	gc(h, 5000, true, 62, 58, 64);
	gc(h, 5005, true, 62, 40, 64);
	gc(h, 5010, true, 58, 58, 64);
	gone(h, 5100, 5300, EXIT_OPT_KNOWN | EXIT_OPT_EXIT_ON_OOME, EXIT_SAID_UNKNOWN, "");
	eval(h, T0 + 5400, true);
	SAYS(exited(h), "The JVM was killed or died without a word");
	h_free(h);
}

/* live cost: from the end of the interval; the text follows doublings, the final is exact */
static void test_cost_and_updates(void **state)
{
	(void)state;
	struct h *h = h_new(true);
	req(h, 900, 200);             /* before: served */
	req(h, 1100, 200);            /* inside the interval (1000 .. 1200): not "after it" */
	gone(h, 1000, 1200, EXIT_OPT_KNOWN, EXIT_SAID_NOTHING, "");
	eval(h, T0 + 1200, false);
	assert_int_equal(h->news, 1);
	for (int i = 0; i < 100; i++) {
		req(h, 1300 + i * 50, 502);
		eval(h, T0 + 1310 + i * 50, false);
	}
	/* 1, 4, 10, 22, 46, 94: each at least twice the last + 2 */
	assert_true(h->updates <= 6);
	eval(h, T0 + 7000, true);
	const struct verdict *v = exited(h);
	SAYS(v, "nginx answered 100 of the 100 requests after it with 5xx");
	SAYS(v, "while it died: 1 requests started, 0 answered 5xx");
	h_free(h);
}

static void went_away(int refused, int served_after, bool want)
{
	struct h *h = h_new(false);
	for (int i = 0; i < 20; i++) {
		req(h, i * 100, 200);
		gc(h, i * 100 + 50, false, 40, 20, 64);
	}
	for (int i = 0; i < refused; i++)
		req(h, 3000 + i * 50, 502);
	for (int i = 0; i < served_after; i++)
		req(h, 3010 + i * 50, 200);
	eval(h, T0 + 9000, false);
	assert_null(exited(h)); /* judged at the end, where a JVM that came back is known */
	eval(h, T0 + 9000, true);
	const struct verdict *v = exited(h);
	if (want) {
		assert_non_null(v);
		SAYS(v, "The JVM went away after");
		SAYS(v, "nginx answered 20 requests with 502 (connection refused)");
		assert_int_equal(v->start_ms, T0 + 1950);
		assert_int_equal(v->end_ms, T0 + 3000);
	} else {
		assert_null(v);
	}
	h_free(h);
}

static void test_went_away(void **state)
{
	(void)state;
	went_away(20, 0, true);
	went_away(19, 0, false);
	went_away(20, 5, false);
}

/* a report's timeline lets requests go that no rule can ask about any more (the session sets
 * its keep from rules_keep_from before each event): ten minutes of refused requests, more than
 * the request ring held when the GC log stopped, are counted whole, from the first */
static void test_went_away_long_tail(void **state)
{
	(void)state;
	struct h *h = h_new(false);
	for (int i = 0; i < 20; i++) {
		req(h, i * 100, 200);
		gc(h, i * 100 + 50, false, 40, 20, 64);
		eval(h, T0 + i * 100 + 50, false);
	}
	for (int i = 0; i < 6000; i++) {
		h->c.now_ms = T0 + 3005 + i * 100;
		rules_keep_from(h->r, &h->c, &h->tl->keep);
		req(h, 3000 + i * 100, 502);
		if (i % 10 == 9)
			eval(h, T0 + 3005 + i * 100, false);   /* a report judges once a second of data */
	}
	assert_true(ring_first(&h->tl->reqs) > 0);     /* the ring did let the oldest go */
	eval(h, T0 + 3005 + 5999 * 100, true);
	const struct verdict *v = exited(h);
	assert_non_null(v);
	SAYS(v, "nginx answered 6000 requests with 502 (connection refused)");
	assert_int_equal(v->end_ms, T0 + 3000);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_on_oome),
		cmocka_unit_test(test_oom_killer),
		cmocka_unit_test(test_likely),
		cmocka_unit_test(test_cost_and_updates),
		cmocka_unit_test(test_went_away),
		cmocka_unit_test(test_went_away_long_tail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
