/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_real.c — the report's reals written by hand (report_fmt_real)
 * are byte for byte what jansson's dump writes with the report's flags, and
 * the texts the report writes itself are those jansson would take
 * (report_text_ok against json_stringn). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
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

static void check_text(const unsigned char *b, size_t n)
{
	json_t *j = json_stringn((const char *)b, n);
	bool want = j != NULL;
	json_decref(j);
	if (report_text_ok((const char *)b, n) != want) {
		char hex[3 * 16 + 1] = "";
		for (size_t i = 0; i < n && i < 16; i++)
			snprintf(hex + 3 * i, 4, "%02x ", b[i]);
		fail_msg("%s (%zu bytes): jansson %s it, report_text_ok does not agree", hex, n,
			 want ? "takes" : "refuses");
	}
}

/* every sequence of up to 2 bytes, every lead byte with every pair after it,
 * and random texts of UTF-8-ish bytes with a few stray ones */
static void test_text_ok(void **state)
{
	(void)state;
	unsigned char b[64];
	for (unsigned a = 1; a < 256; a++) {
		b[0] = (unsigned char)a;
		check_text(b, 1);
		for (unsigned c = 1; c < 256; c++) {
			b[1] = (unsigned char)c;
			check_text(b, 2);
		}
	}
	for (unsigned a = 0xc0; a < 256; a++)
		for (unsigned c = 0x70; c < 0xd0; c++)
			for (unsigned d = 0x70; d < 0xd0; d++) {
				b[0] = (unsigned char)a, b[1] = (unsigned char)c, b[2] = (unsigned char)d;
				check_text(b, 3);
				b[3] = 0x90;
				check_text(b, 4);
				b[3] = 0x41;
				check_text(b, 4);
			}
	static const unsigned char pick[] = {'a', ' ', '"', '\\', 0x1f, 0x7f, 0x80, 0x9f, 0xa0, 0xbf,
					     0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff};
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 400000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t n = 1 + x % sizeof b;
		for (size_t k = 0; k < n; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			b[k] = x % 4 ? (unsigned char)('a' + x % 26) : pick[(x >> 8) % sizeof pick];
		}
		check_text(b, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round3_and_others),
		cmocka_unit_test(test_text_ok),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
