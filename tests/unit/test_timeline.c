/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_timeline.c — the store owns "a stop".
 *
 * A stop is a safepoint, or a GC pause when the log has no safepoint lines;
 * every reader takes stops from the timeline's iterator. These tests pin what
 * the iterator promises: which records it yields for a window (overlap, not
 * containment), the minimum length, the order, the switch from pauses to
 * safepoints, records that end out of start order, and timeline_stop_at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/event.h"
#include "stwtop/timeline.h"

#define T0 1796000000000LL

static void push_pause(struct timeline *tl, int64_t end_ms, double dur_ms)
{
	struct event e;
	ev_init(&e, EV_GC_PAUSE);
	e.t_ms = T0 + end_ms;
	e.u.pause.dur_ms = dur_ms;
	e.u.pause.type = PAUSE_YOUNG;
	snprintf(e.u.pause.title, sizeof e.u.pause.title, "Pause Young (Normal)");
	timeline_push(tl, &e);
}

static void push_sp(struct timeline *tl, int64_t end_ms, double total_ms, double ttsp_ms)
{
	struct event e;
	ev_init(&e, EV_SAFEPOINT);
	e.t_ms = T0 + end_ms;
	e.u.sp.total_ms = total_ms;
	e.u.sp.ttsp_ms = ttsp_ms;
	e.u.sp.form = SP_UNIFIED;
	snprintf(e.u.sp.op, sizeof e.u.sp.op, "ThreadDump");
	timeline_push(tl, &e);
}

/* the starts (ms from T0) of the stops >= min_ms overlapping [a, b] */
static int stops(const struct timeline *tl, int64_t a, int64_t b, double min_ms, int64_t *out, int max)
{
	struct tl_stop_iter it;
	struct tl_stopref s;
	int n = 0;
	timeline_stops_begin(&it, tl, T0 + a, T0 + b, min_ms);
	while (timeline_stops_next(&it, &s)) {
		assert_true(n < max);
		assert_true(s.end_ms >= T0 + a && s.start_ms <= T0 + b);
		assert_true(s.total_ms >= min_ms);
		out[n++] = s.start_ms - T0;
	}
	return n;
}

static struct timeline *tl_new(void)
{
	struct timeline *tl = calloc(1, sizeof *tl);
	assert_non_null(tl);
	assert_int_equal(timeline_init(tl, false), 0);
	return tl;
}

static void tl_free(struct timeline *tl)
{
	timeline_fini(tl);
	free(tl);
}

/* pauses only: they are the stops; a window takes what overlaps it */
static void test_pauses_are_stops_without_safepoints(void **state)
{
	(void)state;
	struct timeline *tl = tl_new();
	push_pause(tl, 1100, 100);   /* [1000, 1100] */
	push_pause(tl, 2050, 50);    /* [2000, 2050] */
	push_pause(tl, 5500, 500);   /* [5000, 5500] */
	assert_true(timeline_stops_are_pauses(tl));
	int64_t got[8];
	/* overlap at either edge counts */
	assert_int_equal(stops(tl, 1100, 5000, 0, got, 8), 3);
	assert_int_equal(got[0], 1000);
	assert_int_equal(got[2], 5000);
	/* the minimum length */
	assert_int_equal(stops(tl, 0, 10000, 100, got, 8), 2);
	assert_int_equal(got[0], 1000);
	assert_int_equal(got[1], 5000);
	/* a window between stops holds none */
	assert_int_equal(stops(tl, 2051, 4999, 0, got, 8), 0);
	/* a window inside one long stop holds it */
	assert_int_equal(stops(tl, 5200, 5300, 0, got, 8), 1);
	assert_int_equal(got[0], 5000);
	tl_free(tl);
}

/* once a safepoint line is seen, stops are the safepoints and the pauses
 * are not counted twice; timeline_pauses_begin still walks the pauses */
static void test_safepoints_take_over(void **state)
{
	(void)state;
	struct timeline *tl = tl_new();
	push_pause(tl, 1100, 100);
	push_sp(tl, 1101, 101, 0.5);
	push_sp(tl, 3000, 20, 15);
	assert_false(timeline_stops_are_pauses(tl));
	int64_t got[8];
	assert_int_equal(stops(tl, 0, 10000, 0, got, 8), 2);
	assert_int_equal(got[0], 1000);
	assert_int_equal(got[1], 2980);
	struct tl_stop_iter it;
	struct tl_stopref s;
	timeline_stops_begin(&it, tl, T0, T0 + 10000, 0);
	assert_true(timeline_stops_next(&it, &s));
	assert_non_null(s.stop);
	assert_null(s.pause);
	assert_string_equal(s.what, "ThreadDump");
	assert_true(s.ttsp_ms > 0.4 && s.ttsp_ms < 0.6);
	int n = 0;
	timeline_pauses_begin(&it, tl, T0, T0 + 10000, 0);
	while (timeline_stops_next(&it, &s)) {
		assert_non_null(s.pause);
		assert_true(s.ttsp_ms < 0);
		n++;
	}
	assert_int_equal(n, 1);
	tl_free(tl);
}

/* records arrive in the order they end: a long stop that started first is
 * pushed after short ones that ended before it; a window at its start still
 * finds it, and one just before it does not */
static void test_out_of_start_order(void **state)
{
	(void)state;
	struct timeline *tl = tl_new();
	for (int i = 0; i < 50; i++)
		push_sp(tl, 1000 + i * 100, 5, 1);          /* short ones, 1 s .. 5.9 s */
	push_sp(tl, 20000, 9000, 8900);                 /* [11000, 20000] */
	for (int i = 0; i < 50; i++)
		push_sp(tl, 20100 + i * 100, 5, 1);
	int64_t got[8];
	assert_int_equal(stops(tl, 11000, 11001, 0, got, 8), 1);
	assert_int_equal(got[0], 11000);
	assert_int_equal(stops(tl, 6000, 10999, 0, got, 8), 0);
	/* the long one by index, as a view keeps it */
	struct tl_stop_iter it;
	struct tl_stopref s, again;
	timeline_stops_begin(&it, tl, T0 + 15000, T0 + 15000, 1000);
	assert_true(timeline_stops_next(&it, &s));
	assert_false(timeline_stops_next(&it, &again));
	assert_true(timeline_stop_at(tl, s.idx, &again));
	assert_int_equal(again.start_ms, s.start_ms);
	assert_int_equal(again.end_ms, s.end_ms);
	assert_false(timeline_stop_at(tl, s.idx + 1000000, &again));
	tl_free(tl);
}

/* one request as recordings/g1-full-gc/logs/access.log logged it: $msec (ms),
 * $request_time and $upstream_connect_time (ms), $status */
static void push_req(struct timeline *tl, int64_t msec, double rt_ms, double uct_ms, int status)
{
	struct event e;
	ev_init(&e, EV_HTTP);
	e.t_ms = msec;
	e.u.http.rt_ms = rt_ms;
	e.u.http.uct_ms = uct_ms;
	e.u.http.uht_ms = -1;
	e.u.http.urt_ms = -1;
	e.u.http.status = (int16_t)status;
	e.u.http.t_exact = 1;
	timeline_push(tl, &e);
}

/* A start second is settled once every request still to come starts after
 * it; a request longer than all before it lands late and is still counted. */
static void test_req_settled(void **state)
{
	(void)state;
	struct timeline *tl = tl_new();
	struct tl_req_count c;
	assert_true(timeline_req_settled_sec(tl) == EV_TIME_NONE);
	/* lines 3600, 3601, 3684, 3685: the longest so far 839 ms */
	push_req(tl, 1795987635518, 839, 0, 200);
	push_req(tl, 1795987635519, 839, 0, 200);
	push_req(tl, 1795987635751, 1, 0, 200);
	push_req(tl, 1795987635767, 1, 0, 200);
	/* 35.767 - 839 ms = 34.928: second 34 may still get requests, 33 not */
	assert_true(timeline_req_settled_sec(tl) == 1795987633);
	timeline_req_count_upto(tl, 1795987634, &c);
	assert_int_equal(c.req, 2);   /* started 34.679, 34.680 */
	timeline_req_count_upto(tl, 1795987633, &c);
	assert_int_equal(c.req, 0);
	/* line 3686: 1008 ms with a 1 s connect, started 34.763 */
	push_req(tl, 1795987635771, 1008, 1007, 200);
	timeline_req_count_upto(tl, 1795987634, &c);
	assert_int_equal(c.req, 3);
	assert_int_equal(c.slow, 1);
	assert_true(timeline_req_settled_sec(tl) == 1795987633);   /* 35.771 - 1.008 = 34.763 */
	/* disorder: a request ending 500 ms before the newest holds a second more back */
	push_req(tl, 1795987637000, 1, 0, 504);
	assert_true(timeline_req_settled_sec(tl) == 1795987634);
	push_req(tl, 1795987636500, 1, 0, 200);
	assert_true(timeline_req_settled_sec(tl) == 1795987634);   /* 37.000 - 1.008 - 0.5 = 35.492 */
	timeline_req_count_upto(tl, 1795987636, &c);
	assert_int_equal(c.req, 7);
	assert_int_equal(c.s5xx, 1);
	tl_free(tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pauses_are_stops_without_safepoints),
		cmocka_unit_test(test_safepoints_take_over),
		cmocka_unit_test(test_out_of_start_order),
		cmocka_unit_test(test_req_settled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
