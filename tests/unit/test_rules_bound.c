/* test_rules_bound.c — the verdict store is bounded and keeps the newest: a log
 * with more incidents than verdicts can be held (2200 ttsp-spike incidents, two
 * minutes apart, as a JVM throttled every other minute for three days would
 * write) ends with the newest incidents' verdicts, the oldest let go, and a
 * note that says how many and from when. */
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
#include "stwtop/util.h"

#define INCIDENTS 2200

static void test_newest_verdicts_kept(void **state)
{
	(void)state;
	char path[] = "/tmp/stwtop-bound-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	int64_t t0 = util_utc_ms(2026, 11, 29, 0, 0, 0, 0);
	char iso[40];
	for (int i = 0; i < INCIDENTS; i++) {
		int64_t t = t0 + (int64_t)i * 120000;
		/* HotSpot's time decoration: 2026-11-29T00:00:00.000+0000 */
		util_fmt_iso_ms(t, iso, sizeof iso);
		iso[23] = '\0';
		/* a 701 ms stop, 698 ms of it reaching the safepoint (combined/throttle-stop) */
		fprintf(f, "[%s+0000][%lld.%03llds][info][safepoint] Safepoint \"ThreadDump\", Time since last: "
			"1000000 ns, Reaching safepoint: 698173000 ns, Cleanup: 10000 ns, At safepoint: "
			"2941000 ns, Total: 701124000 ns\n",
			iso, (long long)((t - t0) / 1000 + 5), (long long)((t - t0) % 1000));
	}
	fclose(f);
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&o, err, sizeof err);
	assert_non_null(s);
	assert_true(session_add_source(s, SRC_JVM, path, err, sizeof err) >= 0);
	assert_int_equal(session_run_report(s), 0);
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
	char notes[8][SESSION_NOTE_LEN];
	size_t nn = session_notes(s, notes, 8);
	bool said = false;
	for (size_t i = 0; i < nn; i++) {
		unsigned long long gone = 0;
		/* the stops of the incidents let go are not "without a verdict" */
		assert_null(strstr(notes[i], "have no verdict"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newest_verdicts_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
