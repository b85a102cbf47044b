/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_real.c — the report's reals written by hand (report_fmt_real)
 * are byte for byte what jansson's dump writes with the report's flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "stwtop/report.h"

static void check(double v)
{
	char want[64], got[64];
	json_t *j = json_real(v);
	assert_non_null(j);
	size_t k = json_dumpb(j, want, sizeof want,
			      JSON_ENCODE_ANY | JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(j);
	assert_true(k > 0 && k < sizeof want);
	want[k] = '\0';
	size_t n = report_fmt_real(v, got, sizeof got);
	if (n != k || strcmp(got, want) != 0)
		fail_msg("%.17g: jansson '%s', report_fmt_real '%s'", v, want, got);
}

static void test_round3_and_others(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.001, 0.0005, 0.1, 0.5, 5.0, 100.0, 999999999.999,
				      1e9, 1e12, 1e-5, 123456.789, -0.001, 2.675, 1e308, 4.9e-324};
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		check(edge[i]);
	for (int i = 0; i < 300000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double v = (double)(x % 2000000000000ull) / 1000.0 - 1e9;
		check(round(v * 1000.0) / 1000.0);            /* round3 */
		check((double)(x % 100000) / 1000.0);          /* small, whole thousandths */
		check((double)(x % 1000003) / 7.0);            /* not thousandths */
		check((double)(float)((double)(x % 100000) / 1000.0)); /* a float widened */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round3_and_others),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
