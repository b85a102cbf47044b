/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_limits.c — the edges of what the hot paths and the process limits must
 * survive: number parsing at the 64-bit boundary (the fast path skips the
 * overflow check for the first 19 digits), and util_raise_nofile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "stwtop/util.h"

static size_t u64(const char *s, uint64_t *v)
{
	return util_parse_u64(s, strlen(s), v);
}

static void test_u64_boundaries(void **state)
{
	(void)state;
	uint64_t v = 7;
	assert_int_equal(u64("18446744073709551615", &v), 20);
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_int_equal(u64("18446744073709551616", &v), 0); /* 2^64: overflow */
	assert_int_equal(v, 7);                              /* untouched */
	assert_int_equal(u64("99999999999999999999", &v), 0);
	assert_int_equal(u64("9999999999999999999", &v), 19); /* 19 nines fit */
	assert_true(v == 9999999999999999999ULL);
	assert_int_equal(u64("1844674407370955161", &v), 19);
	assert_true(v == 1844674407370955161ULL);
	/* leading zeros never overflow, however many */
	assert_int_equal(u64("0000000000000000000000000042 ns", &v), 28);
	assert_int_equal(v, 42);
	/* stops at the first non-digit, never reads past n */
	assert_int_equal(util_parse_u64("12345", 3, &v), 3);
	assert_int_equal(v, 123);
	assert_int_equal(u64("x1", &v), 0);
	assert_int_equal(util_parse_u64("", 0, &v), 0);
}

static void test_i64_boundaries(void **state)
{
	(void)state;
	int64_t v = 0;
	assert_int_equal(util_parse_i64("9223372036854775807", 19, &v), 19);
	assert_true(v == INT64_MAX);
	assert_int_equal(util_parse_i64("9223372036854775808", 19, &v), 0);
	assert_int_equal(util_parse_i64("-9223372036854775807", 20, &v), 20);
	assert_true(v == -INT64_MAX);
	assert_int_equal(util_parse_i64("-", 1, &v), 0);
	assert_int_equal(util_parse_i64("+17 ms", 6, &v), 3);
	assert_int_equal(v, 17);
}

static void test_raise_nofile(void **state)
{
	(void)state;
	struct rlimit rl;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max < 64)
		skip();
	rlim_t hard = rl.rlim_max;
	rl.rlim_cur = 32; /* what a careful container might start us with */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	uint64_t soft = 0;
	assert_int_equal(util_raise_nofile(&soft), 0);
	assert_true(soft == (uint64_t)hard);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_true(rl.rlim_cur == hard);
	/* already at the hard limit: nothing to do, still 0 */
	assert_int_equal(util_raise_nofile(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_boundaries),
		cmocka_unit_test(test_i64_boundaries),
		cmocka_unit_test(test_raise_nofile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
