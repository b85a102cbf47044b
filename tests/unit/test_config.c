/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_config.c — --config: rules_config_load_mem and _load change the config
 * only when every key is good, cap thresholds at 1e12, sanitise what they
 * quote; and a report with every threshold at its extreme (0 or 1e12) runs:
 * the regression test of the first fuzz_config finding (a threshold of 1e12
 * was cast to int: undefined behaviour, caught by UBSan in the ASan suite). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/report.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"

#define SAMPLE STWTOP_TEST_DIR "/samples/combined/throttle-stop/"

static int load(struct rules_config *c, const char *json, char *err, size_t errlen)
{
	return rules_config_load_mem(c, json, strlen(json), "t.json", err, errlen);
}

static void test_all_or_nothing(void **state)
{
	(void)state;
	struct rules_config c, def;
	char err[300];
	rules_config_defaults(&def);
	c = def;
	/* a good key before a bad one must not stick */
	assert_int_equal(load(&c, "{\"ttsp_warn_ms\": 50, \"no_such\": 1}", err, sizeof err), -22);
	assert_memory_equal(&c, &def, sizeof c);
	assert_non_null(strstr(err, "t.json: unknown threshold \"no_such\""));
	assert_int_equal(load(&c, "{\"ttsp_warn_ms\": 50, \"stop_ms\": -1}", err, sizeof err), -22);
	assert_memory_equal(&c, &def, sizeof c);
	assert_non_null(strstr(err, "\"stop_ms\" must be a non-negative number"));
	/* all good: all applied; comments ignored */
	assert_int_equal(load(&c, "{\"_why\": \"x\", \"comment\": 1, \"ttsp_warn_ms\": 50, \"stop_ms\": 0}", err,
			      sizeof err), 0);
	assert_true(c.ttsp_warn_ms == 50 && c.stop_ms == 0 && c.horizon_ms == def.horizon_ms);
	/* not JSON, not an object: the position is named */
	assert_int_equal(load(&c, "{\"ttsp_warn_ms\": ", err, sizeof err), -22);
	assert_non_null(strstr(err, "t.json:1:"));
	assert_int_equal(load(&c, "[1]", err, sizeof err), -22);
}

static void test_cap_and_sanitise(void **state)
{
	(void)state;
	struct rules_config c;
	char err[300];
	rules_config_defaults(&c);
	assert_int_equal(load(&c, "{\"horizon_ms\": 1e12}", err, sizeof err), 0);
	assert_true(c.horizon_ms == 1e12);
	assert_int_equal(load(&c, "{\"horizon_ms\": 1.000001e12}", err, sizeof err), -22);
	assert_int_equal(load(&c, "{\"horizon_ms\": 1e300}", err, sizeof err), -22);
	/* a key with an escape sequence is quoted escaped */
	assert_int_equal(load(&c, "{\"\\u001b[2Jx\": 1}", err, sizeof err), -22);
	assert_null(strchr(err, '\033'));
	assert_non_null(strstr(err, "\\e[2Jx"));
}

static void report_with(const char *json)
{
	struct rules_config c;
	char err[300];
	rules_config_defaults(&c);
	assert_int_equal(load(&c, json, err, sizeof err), 0);
	static const char lab[] = "$msec $request_id $status uct=$upstream_connect_time "
				  "uht=$upstream_header_time urt=$upstream_response_time rt=$request_time";
	struct session_opts o = {.nginx_format = lab, .jvm_start_ms = EV_TIME_NONE, .rules = &c};
	struct session *s = session_new(&o, err, sizeof err);
	assert_non_null(s);
	assert_true(session_add_source(s, SRC_JVM, SAMPLE "gc.log", err, sizeof err) >= 0);
	assert_true(session_add_source(s, SRC_CPUSTAT, SAMPLE "cpustat.log", err, sizeof err) >= 0);
	assert_true(session_add_source(s, SRC_NGINX, SAMPLE "logs/access.log", err, sizeof err) >= 0);
	assert_int_equal(session_run_report(s), 0);
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(report_text(f, s, false), 0);
	report_json(f, s);
	fclose(f);
	session_free(s);
}

static void test_extreme_thresholds_report(void **state)
{
	(void)state;
	char all[2048], zeros[2048];
	size_t a = 0, z = 0;
	struct rules_config c;
	const char *name, *doc;
	double v;
	rules_config_defaults(&c);
	a += (size_t)snprintf(all + a, sizeof all - a, "{");
	z += (size_t)snprintf(zeros + z, sizeof zeros - z, "{");
	for (int i = 0; rules_config_describe(&c, i, &name, &v, &doc) == 0; i++) {
		a += (size_t)snprintf(all + a, sizeof all - a, "%s\"%s\": 1e12", i ? ", " : "", name);
		z += (size_t)snprintf(zeros + z, sizeof zeros - z, "%s\"%s\": 0", i ? ", " : "", name);
	}
	snprintf(all + a, sizeof all - a, "}");
	snprintf(zeros + z, sizeof zeros - z, "}");
	report_with(all);
	report_with(zeros);
}

/* The thresholds come from the engine and from each rule's row: every name
 * once, each with its reason, and every field of struct rules_config set by
 * exactly one of them (the defaults leave none at 0 unless it says so). */
static void test_knobs_from_rows(void **state)
{
	(void)state;
	struct rules_config c;
	const char *name, *doc, *names[128];
	double v;
	int n = 0;
	memset(&c, 0xff, sizeof c);
	rules_config_defaults(&c);
	for (int i = 0; rules_config_describe(&c, i, &name, &v, &doc) == 0; i++) {
		assert_true(n < 128);
		for (int k = 0; k < n; k++)
			assert_true(strcmp(names[k], name) != 0);
		names[n++] = name;
		assert_true(doc && doc[0]);
		assert_true(v >= 0);
	}
	/* every double of the struct is one of them */
	assert_int_equal((size_t)n, sizeof c / sizeof(double));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs_from_rows),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_cap_and_sanitise),
		cmocka_unit_test(test_extreme_thresholds_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
