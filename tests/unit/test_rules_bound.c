/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_rules_bound.c — the stores are bounded.
 * - The verdicts keep the newest: a log with more incidents than verdicts can
 *   be held (2200 ttsp-spike incidents, two minutes apart, as a JVM throttled
 *   every other minute for three days would write) ends with the newest
 *   incidents' verdicts, the oldest let go, and a note that says how many and
 *   from when.
 * - A report's timeline holds what the rules can still ask about, not the
 *   whole input, and what it let go is still counted; live keeps history.
 * - A ring that grows after it wrapped keeps every record at its index.
 * - The leak check sees the whole G1 plateau, however many pauses it had.
 * - Dropping the oldest final incidents keeps the same incidents in the same
 *   order as compacting the array did, whatever mix of open and final ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stwtop/rules.h"
#include "stwtop/session.h"
#include "stwtop/timeline.h"
#include "stwtop/util.h"

#include "../../core/rules/rules_internal.h" /* the incident window */

/* n safepoints "G1CollectForAllocation", step_ms apart from t0, each of the
 * given reaching/at/total times (ns), with HotSpot's time decoration
 * (2026-11-29T00:00:00.000+0000) and uptime from 5 s. A collection's
 * operation with no GC log: when the operation is the stop, nothing explains
 * it (a tool's operation, such as "ThreadDump", is long-vm-operation's) */
static void write_safepoints(const char *path, int64_t t0, int n, int64_t step_ms, long long reach_ns,
			     long long at_ns, long long total_ns)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	char iso[40];
	for (int i = 0; i < n; i++) {
		int64_t t = t0 + (int64_t)i * step_ms;
		util_fmt_iso_ms(t, iso, sizeof iso);
		iso[23] = '\0';
		fprintf(f, "[%s+0000][%lld.%03llds][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: "
			"1000000 ns, Reaching safepoint: %lld ns, Cleanup: 10000 ns, At safepoint: %lld ns, "
			"Total: %lld ns\n", iso, (long long)((t - t0) / 1000 + 5), (long long)((t - t0) % 1000),
			reach_ns, at_ns, total_ns);
	}
	fclose(f);
}

static void temp_path(char *path)
{
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

static struct session *run(const char *path, bool report)
{
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&o, err, sizeof err);
	assert_non_null(s);
	assert_true(session_add_source(s, SRC_JVM, path, err, sizeof err) >= 0);
	if (report) {
		assert_int_equal(session_run_report(s), 0);
		return s;
	}
	/* as the demo replays: judged eagerly, on a clock 5 s apart */
	session_set_eval_on_data(s, false);
	assert_int_equal(session_replay_open(s), 0);
	for (int64_t t = session_replay_next_time(s); session_replay_step(s, t); t += 5000)
		session_eval(s, t, false);
	session_replay_finish(s);
	return s;
}

/* the N of the "N stops >= 100 ms ... have no verdict" note, -1 without one */
static long long unexplained_stops(const struct session *s)
{
	char notes[8][SESSION_NOTE_LEN];
	size_t nn = session_notes(s, notes, 8);
	for (size_t i = 0; i < nn; i++)
		if (strstr(notes[i], "have no verdict")) {
			long long n = -1;
			assert_int_equal(sscanf(notes[i], "%lld stops >= 100 ms", &n), 1);
			return n;
		}
	return -1;
}

#define INCIDENTS 2200

/* What rl_incident_for() did before the window: compact the array, the
 * first INCIDENT_DROP_BATCH final ones removed (or the oldest when none is). */
static void ref_drop(struct incident *inc, size_t *ninc, size_t *open_from)
{
	size_t w = 0, gone = 0, of = *open_from;
	for (size_t i = 0; i < *ninc; i++) {
		if (inc[i].final && gone < INCIDENT_DROP_BATCH) {
			gone++;
			if (i < of)
				(*open_from)--;
			continue;
		}
		inc[w++] = inc[i];
	}
	if (gone == 0 && *ninc > 0) {
		memmove(&inc[0], &inc[1], (*ninc - 1) * sizeof inc[0]);
		w = *ninc - 1;
		if (*open_from > 0)
			(*open_from)--;
	}
	*ninc = w;
}

static void test_incident_window(void **state)
{
	(void)state;
	struct rules *r = rules_new(NULL);
	static struct incident ref[MAX_INCIDENTS + 1];
	size_t nref = 0, ref_open_from = 0;
	uint64_t seed = 12345;
	assert_non_null(r);
	/* 40 rounds of filling to MAX_INCIDENTS with a changing share of final
	 * ones (none, some scattered, all): more than the store holds, so the
	 * window wraps several times */
	for (int round = 0; round < 40; round++) {
		while (r->ninc < MAX_INCIDENTS) {
			int64_t t = (int64_t)(r->next_id + 1) * 1000000;
			struct incident *in = rl_incident_for(r, t, t);
			in->has_stop = true;
			ref[nref] = *in;
			nref++;
		}
		for (size_t i = 0; i < r->ninc; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			unsigned pct = round % 5 == 0 ? 0 : round % 5 == 4 ? 100 : (unsigned)round * 7 % 100;
			bool fin = (seed >> 33) % 100 < pct;
			r->inc[i].final = ref[i].final = fin;
		}
		r->open_from = ref_open_from = round % 5 == 0 ? 0 : (seed >> 20) % 64;
		for (size_t i = 0; i < r->open_from; i++)
			r->inc[i].final = ref[i].final = true;
		/* one more: the drop happens */
		int64_t t = (int64_t)(r->next_id + 1) * 1000000;
		ref_drop(ref, &nref, &ref_open_from);
		struct incident *in = rl_incident_for(r, t, t);
		ref[nref++] = *in;
		assert_int_equal(r->ninc, nref);
		assert_int_equal(r->open_from, ref_open_from);
		assert_true(r->inc >= r->inc_store && r->inc + r->ninc <= r->inc_store + INCIDENT_STORE);
		for (size_t i = 0; i < nref; i++) {
			assert_int_equal(r->inc[i].id, ref[i].id);
			assert_int_equal(r->inc[i].final, ref[i].final);
		}
	}
	rules_free(r);
}

static void test_newest_verdicts_kept(void **state)
{
	(void)state;
	char path[] = "/tmp/stwtop-bound-XXXXXX";
	temp_path(path);
	int64_t t0 = util_utc_ms(2026, 11, 29, 0, 0, 0, 0);
	/* a 701 ms stop, 698 ms of it reaching the safepoint (combined/throttle-stop) */
	write_safepoints(path, t0, INCIDENTS, 120000, 698173000, 2941000, 701124000);
	struct session *s = run(path, true);
	const struct rules *r = session_rules(s);
	size_t n = rules_count(r);
	assert_true(n > 0 && n <= 2048);
	int64_t newest = EV_TIME_NONE, oldest = INT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct verdict *v = rules_at(r, i);
		assert_int_equal(v->id, V_TTSP_SPIKE);
		if (v->start_ms > newest)
			newest = v->start_ms;
		if (v->start_ms < oldest)
			oldest = v->start_ms;
	}
	/* the last incident's stop starts 701 ms before its line */
	assert_true(newest == t0 + (int64_t)(INCIDENTS - 1) * 120000 - 701);
	assert_true(oldest > t0);   /* the first ones went */
	/* the stops of the incidents let go are not "without a verdict" */
	assert_int_equal(unexplained_stops(s), -1);
	char notes[8][SESSION_NOTE_LEN];
	size_t nn = session_notes(s, notes, 8);
	bool said = false;
	for (size_t i = 0; i < nn; i++) {
		unsigned long long gone = 0;
		if (strstr(notes[i], "verdicts of older incidents") && sscanf(notes[i], "%llu", &gone) == 1) {
			said = true;
			assert_int_equal(gone + n, INCIDENTS);
			assert_non_null(strstr(notes[i], "from 2026-11-28T23:59:59.299Z"));   /* the first stop */
		}
	}
	assert_true(said);
	session_free(s);
	unlink(path);
}

/* 20000 safepoints of 300 ms, 299 of it the operation, 10 s apart: stops no
 * verdict explains when no CPU or scheduler source is given */
#define STOPS 20000

static void test_report_lets_go_but_counts(void **state)
{
	(void)state;
	char path[] = "/tmp/stwtop-bound-XXXXXX";
	temp_path(path);
	write_safepoints(path, util_utc_ms(2026, 11, 29, 0, 0, 0, 0), STOPS, 10000, 1000000, 298990000, 300000000);

	struct session *s = run(path, true);
	const struct timeline *tl = session_timeline(s);
	assert_int_equal(tl->stops.total, STOPS);
	/* five minutes and a half of stops 10 s apart are wanted at any time */
	assert_true(tl->stops.cap <= 256);
	assert_true(tl->stops.total - tl->stops.first <= 256);
	/* every one is still counted: the note is not about the last ring-full */
	assert_int_equal(unexplained_stops(s), STOPS);
	session_free(s);

	/* judged as live judges, history stays for the views: the ring is full */
	s = run(path, false);
	tl = session_timeline(s);
	assert_int_equal(tl->stops.cap, tl->stops.max);
	assert_int_equal(tl->stops.total - tl->stops.first, tl->stops.max);
	assert_int_equal(unexplained_stops(s), STOPS);
	session_free(s);
	unlink(path);
}

static void test_ring_grows_after_wrapping(void **state)
{
	(void)state;
	struct timeline *tl = calloc(1, sizeof *tl);
	assert_non_null(tl);
	timeline_init(tl, false);
	struct event e;
	memset(&e, 0, sizeof e);
	e.kind = EV_SAFEPOINT;
	e.u.sp.total_ms = 5;
	e.u.sp.ttsp_ms = 1;
	e.u.sp.at_ms = 4;
	int64_t t0 = 1000000;
	/* 1000 stops while only the last 100 are wanted: it wraps at its start size */
	for (int i = 0; i < 1000; i++) {
		tl->keep.from_ms = t0 + (int64_t)(i - 100) * 1000;
		e.t_ms = t0 + (int64_t)i * 1000 + 5;
		e.line = (uint64_t)i;
		timeline_push(tl, &e);
	}
	assert_int_equal(tl->stops.cap, 256);
	assert_true(tl->stops.first > 0 && tl->stops.first % 256 != 0);
	/* then everything is wanted: it doubles four times from a wrapped state */
	tl->keep.from_ms = INT64_MIN;
	for (int i = 1000; i < 5000; i++) {
		e.t_ms = t0 + (int64_t)i * 1000 + 5;
		e.line = (uint64_t)i;
		timeline_push(tl, &e);
	}
	assert_int_equal(tl->stops.cap, 8192);
	for (uint64_t i = tl->stops.first; i < tl->stops.total; i++) {
		const struct tl_stop *st = ring_at(&tl->stops, i);
		assert_non_null(st);
		assert_int_equal(st->line, i);
		assert_int_equal(st->end_ms, t0 + (int64_t)i * 1000 + 5);
	}
	assert_null(ring_at(&tl->stops, tl->stops.first - 1));
	timeline_fini(tl);
	free(tl);
}

/* 30000 young pauses a second apart (8 h) with 400 MB committed throughout
 * and used after GC rising 20 -> 150 MB: the heap is not given back, and it is
 * used, so "not a leak" is not ours to say. A scan of the pauses ring saw only
 * the last 16384 pauses, none in the plateau's second quarter, and said it. */
static void test_leak_over_a_long_plateau(void **state)
{
	(void)state;
	char path[] = "/tmp/stwtop-bound-XXXXXX";
	temp_path(path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	int64_t t0 = util_utc_ms(2026, 11, 29, 0, 0, 0, 0);
	char iso[40];
	util_fmt_iso_ms(t0, iso, sizeof iso);
	iso[23] = '\0';
	fprintf(f, "[%s+0000][0.010s][info][gc] Using G1\n", iso);
	enum { PAUSES = 30000 };
	for (int i = 0; i < PAUSES; i++) {
		int64_t t = t0 + 1000 + (int64_t)i * 1000;
		util_fmt_iso_ms(t, iso, sizeof iso);
		iso[23] = '\0';
		int used = 20 + (int)((int64_t)i * 130 / PAUSES);
		fprintf(f, "[%s+0000][%d.000s][info][gc] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) "
			"%dM->%dM(400M) 3.000ms\n", iso, 1 + i, i, used + 100, used);
	}
	fclose(f);
	struct session *s = run(path, true);
	const struct rules *r = session_rules(s);
	const struct verdict *g1 = NULL;
	for (size_t i = 0; i < rules_count(r); i++)
		if (rules_at(r, i)->id == V_G1_NOT_SHRINKING)
			g1 = rules_at(r, i);
	assert_non_null(g1);
	assert_non_null(strstr(g1->title, "used after GC keeps growing"));
	assert_non_null(strstr(g1->title, "check for a leak"));
	assert_null(strstr(g1->title, "not a leak"));
	/* and the report held a window of the pauses, not all of them */
	assert_true(session_timeline(s)->pauses.cap <= 1024);
	session_free(s);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newest_verdicts_kept),
		cmocka_unit_test(test_report_lets_go_but_counts),
		cmocka_unit_test(test_ring_grows_after_wrapping),
		cmocka_unit_test(test_leak_over_a_long_plateau),
		cmocka_unit_test(test_incident_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
