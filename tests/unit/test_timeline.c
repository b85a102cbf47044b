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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pauses_are_stops_without_safepoints),
		cmocka_unit_test(test_safepoints_take_over),
		cmocka_unit_test(test_out_of_start_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
