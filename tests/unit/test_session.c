/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_session.c — the session on its own: per-kind behaviour from the kind
 * table, report reading merged by time, and the line accounting every report
 * and status line relies on (lines = parsed + unparsed, nothing lost).
 * Inputs are the real samples (tests/samples), or copies of them with
 * something appended. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stwtop/session.h"
#include "stwtop/summary.h"
#include "stwtop/timeline.h"

#define S(p) STWTOP_TEST_DIR "/samples/" p

static uint64_t count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	uint64_t n = 0;
	int c, last = '\n';
	while ((c = getc(f)) != EOF) {
		n += c == '\n';
		last = c;
	}
	fclose(f);
	return n + (last != '\n');
}

static struct session *new_session(const char *nginx_format)
{
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE, .nginx_format = nginx_format};
	struct session *s = session_new(&o, err, sizeof err);
	assert_non_null(s);
	return s;
}

static int add(struct session *s, enum src_kind k, const char *path)
{
	char err[256];
	int i = session_add_source(s, k, path, err, sizeof err);
	if (i < 0)
		fail_msg("session_add_source %s: %s", path, err);
	return i;
}

/* every kind has a name; an unknown one says so */
static void test_kind_names(void **state)
{
	(void)state;
	const enum src_kind kinds[] = {SRC_JVM, SRC_NGINX, SRC_CPUSTAT, SRC_RECORD,
				       SRC_SCHEDLOG, SRC_VMSTATLOG, SRC_HSERR, SRC_PROBE};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		const char *n = src_kind_name(kinds[i]);
		assert_non_null(n);
		assert_string_not_equal(n, "?");
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(n, src_kind_name(kinds[j]));
	}
	assert_string_equal(src_kind_name((enum src_kind)99), "?");
	assert_string_equal(src_kind_name(SRC_JVM), "jvm");
	assert_string_equal(src_kind_name(SRC_NGINX), "nginx");
}

/* a real GC log: every line counted, parsed + unparsed = lines, and the
 * events placed in time order on the timeline */
static void test_jvm_lines_accounted(void **state)
{
	(void)state;
	const char *path = S("combined/throttle-stop/gc.log");
	struct session *s = new_session(NULL);
	int i = add(s, SRC_JVM, path);
	assert_int_equal(session_run_report(s), 0);
	const struct source_stats *st = session_source_stats(s, i);
	assert_int_equal(st->lines, count_lines(path));
	assert_int_equal(st->parsed + st->unparsed, st->lines);
	assert_true(st->parsed > st->lines / 2);
	assert_false(st->error);
	const struct summary *sum = session_summary(s);
	assert_true(sum->gc_pauses > 0);
	const struct timeline *tl = session_timeline(s);
	assert_true(tl->oldest_ms != EV_TIME_NONE && tl->newest_ms >= tl->oldest_ms);
	session_free(s);
}

/* a log with lines of no known shape appended: they are counted as unparsed,
 * nothing else moves */
static void test_unparsed_counted_not_lost(void **state)
{
	(void)state;
	const char *orig = S("combined/throttle-stop/logs/access.log");
	char tmp[] = "/tmp/test_session.XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	FILE *out = fdopen(fd, "w");
	FILE *in = fopen(orig, "r");
	assert_non_null(out);
	assert_non_null(in);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	fputs("this is not an access log line\n\x01\x02 binary\n", out);
	fclose(out);

	const char *lab = "$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time "
			  "urt=$upstream_response_time rt=$request_time";
	struct session *a = new_session(lab);
	int ia = add(a, SRC_NGINX, orig);
	assert_int_equal(session_run_report(a), 0);
	struct session *b = new_session(lab);
	int ib = add(b, SRC_NGINX, tmp);
	assert_int_equal(session_run_report(b), 0);
	const struct source_stats *sa = session_source_stats(a, ia), *sb = session_source_stats(b, ib);
	assert_int_equal(sb->lines, sa->lines + 2);
	assert_int_equal(sb->parsed, sa->parsed);
	assert_int_equal(sb->unparsed, sa->unparsed + 2);
	assert_int_equal(sb->first_error_line, sa->unparsed ? sa->first_error_line : sa->lines + 1);
	assert_true(sb->first_error[0] != '\0');
	assert_int_equal(session_summary(b)->requests, session_summary(a)->requests);
	session_free(a);
	session_free(b);
	unlink(tmp);
}

/* two sources are read merged by time: the same result as each alone for
 * its own counts, and one timeline spanning both */
static void test_sources_merged(void **state)
{
	(void)state;
	const char *gc = S("combined/throttle-stop/gc.log");
	const char *ng = S("combined/throttle-stop/logs/access.log");
	const char *lab = "$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time "
			  "urt=$upstream_response_time rt=$request_time";
	struct session *both = new_session(lab);
	int ig = add(both, SRC_JVM, gc), in = add(both, SRC_NGINX, ng);
	assert_int_equal(session_run_report(both), 0);
	struct session *g = new_session(lab);
	add(g, SRC_JVM, gc);
	assert_int_equal(session_run_report(g), 0);
	struct session *n = new_session(lab);
	add(n, SRC_NGINX, ng);
	assert_int_equal(session_run_report(n), 0);
	assert_int_equal(session_source_stats(both, ig)->parsed, session_source_stats(g, 0)->parsed);
	assert_int_equal(session_source_stats(both, in)->parsed, session_source_stats(n, 0)->parsed);
	assert_int_equal(session_summary(both)->gc_pauses, session_summary(g)->gc_pauses);
	assert_int_equal(session_summary(both)->requests, session_summary(n)->requests);
	const struct timeline *tb = session_timeline(both), *tg = session_timeline(g), *tn = session_timeline(n);
	assert_int_equal(tb->oldest_ms, tg->oldest_ms < tn->oldest_ms ? tg->oldest_ms : tn->oldest_ms);
	assert_int_equal(tb->newest_ms, tg->newest_ms > tn->newest_ms ? tg->newest_ms : tn->newest_ms);
	session_free(both);
	session_free(g);
	session_free(n);
}

/* a file that is not there: the report says so (exit 1) and reads the others */
static void test_missing_file_reported(void **state)
{
	(void)state;
	struct session *s = new_session(NULL);
	int bad = add(s, SRC_JVM, "/nonexistent/stwtop/gc.log");
	int good = add(s, SRC_JVM, S("combined/throttle-stop/gc.log"));
	assert_int_equal(session_run_report(s), -1);
	assert_true(session_source_stats(s, bad)->error);
	assert_true(strstr(session_source_stats(s, bad)->note, "No such file") != NULL);
	assert_false(session_source_stats(s, good)->error);
	assert_true(session_source_stats(s, good)->parsed > 0);
	session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_jvm_lines_accounted),
		cmocka_unit_test(test_unparsed_counted_not_lost),
		cmocka_unit_test(test_sources_merged),
		cmocka_unit_test(test_missing_file_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
