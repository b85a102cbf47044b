/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_util.c — number/time parsing, sanitising, and line splitting. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "stwtop/fmt.h"
#include "stwtop/linebuf.h"
#include "stwtop/util.h"

static void test_iso8601_offsets(void **state)
{
	(void)state;
	int64_t ms;
	bool zone;
	const char *a = "2026-11-29T19:23:38.332+0000";
	assert_int_equal(util_parse_iso8601(a, strlen(a), &ms, &zone), 28);
	assert_true(zone);
	assert_int_equal(ms, 1795980218332LL);
	/* the same instant written in +0800 and with a colon offset and Z */
	const char *b = "2026-11-30T03:23:38.332+0800";
	assert_int_equal(util_parse_iso8601(b, strlen(b), &ms, &zone), 28);
	assert_int_equal(ms, 1795980218332LL);
	const char *c = "2026-11-29T14:23:38.332-05:00 rest";
	assert_int_equal(util_parse_iso8601(c, strlen(c), &ms, &zone), 29);
	assert_int_equal(ms, 1795980218332LL);
	const char *d = "2026-11-29T19:23:38.332Z";
	assert_int_equal(util_parse_iso8601(d, strlen(d), &ms, &zone), 24);
	assert_int_equal(ms, 1795980218332LL);
	/* not a timestamp */
	assert_int_equal(util_parse_iso8601("2026-11-29", 10, &ms, &zone), 0);
	assert_int_equal(util_parse_iso8601("2026-13-29T19:23:38", 19, &ms, &zone), 0);
}

static void test_iso8601_local_dst(void **state)
{
	(void)state;
	int64_t a, b;
	bool zone = true;
	/* zone-less times are local: across a DST change (US, 2026-03-08 02:00 -> 03:00)
	 * one wall-clock hour apart is one real hour minus the jump */
	setenv("TZ", "America/New_York", 1);
	assert_int_not_equal(util_parse_iso8601("2026-03-08T01:30:00", 19, &a, &zone), 0);
	assert_false(zone);
	assert_int_not_equal(util_parse_iso8601("2026-03-08T03:30:00", 19, &b, &zone), 0);
	assert_int_equal(b - a, 3600 * 1000);
	setenv("TZ", "UTC", 1);
	assert_int_not_equal(util_parse_iso8601("2026-11-29T19:04:54", 19, &a, &zone), 0);
	assert_int_equal(a, util_utc_ms(2026, 11, 29, 19, 4, 54, 0));
}

static void test_clf_time(void **state)
{
	(void)state;
	int64_t ms;
	const char *s = "29/Nov/2026:19:13:18 +0000";
	assert_int_equal(util_parse_clf_time(s, strlen(s), &ms), 26);
	assert_int_equal(ms, util_utc_ms(2026, 11, 29, 19, 13, 18, 0));
	const char *t = "29/Nov/2026:20:13:18 +0100";
	assert_int_equal(util_parse_clf_time(t, strlen(t), &ms), 26);
	assert_int_equal(ms, util_utc_ms(2026, 11, 29, 19, 13, 18, 0));
	assert_int_equal(util_parse_clf_time("29/Nov/2026:19:13", 17, &ms), 0);
}

static void test_numbers(void **state)
{
	(void)state;
	double d;
	uint64_t u;
	int64_t i;
	assert_int_equal(util_parse_double("3.043ms", 7, false, &d), 5);
	assert_true(d > 3.0429 && d < 3.0431);
	assert_int_equal(util_parse_double("0,943s", 6, true, &d), 5);
	assert_true(d > 0.9429 && d < 0.9431);
	assert_int_equal(util_parse_double("0,943s", 6, false, &d), 1);
	assert_int_equal(util_parse_double("x", 1, false, &d), 0);
	assert_int_equal(util_parse_u64("99999999999999999999999", 23, &u), 0); /* overflow */
	assert_int_equal(util_parse_i64("-42 ", 4, &i), 3);
	assert_int_equal(i, -42);
	/* bounded: does not read past n */
	assert_int_equal(util_parse_u64("12345", 2, &u), 2);
	assert_int_equal(u, 12);
}

/* The digit-at-a-time definition util_parse_u64 and util_parse_u64_inl must
 * keep (they read eight bytes at a time): digits until a non-digit or n, 0
 * when none or on overflow. */
static size_t ref_parse_u64(const char *s, size_t n, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return 0;
		i++;
	}
	if (i == 0)
		return 0;
	*out = v;
	return i;
}

static void check_u64(const char *s, size_t n)
{
	uint64_t a = 7, b = 7;
	size_t ka = util_parse_u64(s, n, &a), kb = ref_parse_u64(s, n, &b);
	if (ka != kb || (ka && a != b))
		fail_msg("util_parse_u64(\"%.*s\", %zu) = %zu/%llu, want %zu/%llu", (int)n, s, n, ka,
			 (unsigned long long)a, kb, (unsigned long long)b);
	if (!ka && a != 7)
		fail_msg("util_parse_u64(\"%.*s\") wrote *out without a number", (int)n, s);
	a = 7;
	ka = util_parse_u64_inl(s, n, &a);
	if (ka != kb || (ka && a != b) || (!ka && a != 7))
		fail_msg("util_parse_u64_inl(\"%.*s\", %zu) = %zu/%llu, want %zu/%llu", (int)n, s, n, ka,
			 (unsigned long long)a, kb, (unsigned long long)b);
}

/* The digit-at-a-time definition util_parse_double must keep (it reads
 * eight digits at a time): the same chars consumed and the same bits. */
static size_t ref_parse_double(const char *s, size_t n, bool comma_ok, double *out)
{
	static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				     1e12, 1e13, 1e14, 1e15};
	size_t i = 0, a, point, frac = 0;
	bool neg = false;
	uint64_t m = 0;
	double v;
	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	a = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		m = m * 10 + (uint64_t)(s[i++] - '0');
	point = i;
	if (i < n && (s[i] == '.' || (comma_ok && s[i] == ',')) && i + 1 < n && s[i + 1] >= '0' &&
	    s[i + 1] <= '9') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			m = m * 10 + (uint64_t)(s[i++] - '0');
			frac++;
		}
	}
	if (i == a)
		return 0;
	if ((point - a) + frac <= 15) {
		v = (double)m / p10[frac];
	} else {
		double scale = 0.1;
		size_t end = frac ? point : i;
		v = 0;
		for (size_t j = a; j < end; j++)
			v = v * 10 + (s[j] - '0');
		for (size_t j = end + 1; j < i; j++) {
			v += (s[j] - '0') * scale;
			scale *= 0.1;
		}
	}
	*out = neg ? -v : v;
	return i;
}

static void check_double(const char *s, size_t n, bool comma_ok)
{
	double a = 7, b = 7;
	size_t ka = util_parse_double(s, n, comma_ok, &a), kb = ref_parse_double(s, n, comma_ok, &b);
	if (ka != kb || (ka && memcmp(&a, &b, sizeof a) != 0) || (!ka && a != 7))
		fail_msg("util_parse_double(\"%.*s\", %zu) = %zu/%.17g, want %zu/%.17g", (int)n, s, n, ka, a, kb, b);
	a = 7;
	ka = util_parse_double_inl(s, n, comma_ok, &a);
	if (ka != kb || (ka && memcmp(&a, &b, sizeof a) != 0) || (!ka && a != 7))
		fail_msg("util_parse_double_inl(\"%.*s\", %zu) = %zu/%.17g, want %zu/%.17g", (int)n, s, n, ka, a, kb,
			 b);
}

static void test_double_words(void **state)
{
	/* integer and fraction runs of 0..20 digits, each cut at every n, with
	 * each kind of byte after them (the word test's edges), signs and marks */
	static const char after[] = { ' ', 's', ']', '.', ',', '\0', (char)0x2f, (char)0x3a, (char)0xfa, (char)0xff };
	static const char *const lead[] = { "", "-", "+" };
	char buf[80];
	(void)state;
	for (size_t l = 0; l < 3; l++)
		for (size_t ni = 0; ni <= 20; ni++)
			for (size_t nf = 0; nf <= 20; nf += nf < 10 ? 1 : 5)
				for (size_t a = 0; a < sizeof after; a++)
					for (int mark = 0; mark < 2; mark++) {
						size_t k = strlen(lead[l]);
						memcpy(buf, lead[l], k);
						for (size_t i = 0; i < ni; i++)
							buf[k++] = (char)('0' + (i * 7 + ni) % 10);
						buf[k++] = mark ? ',' : '.';
						for (size_t i = 0; i < nf; i++)
							buf[k++] = (char)('0' + (i * 3 + nf) % 10);
						buf[k++] = after[a];
						memset(buf + k, '4', sizeof buf - k);
						for (size_t n = 0; n <= k + 9 && n <= sizeof buf; n++) {
							check_double(buf, n, true);
							check_double(buf, n, false);
						}
					}
	check_double("0.0001222 seconds", 17, true);
	check_double("1234567.1234567 seconds", 23, true);
	check_double("12345678.1234567 seconds", 24, true);
	check_double("1234567.12345678 seconds", 24, true);
	check_double("4683.4]", 7, false);
	check_double("18446744073709551616.5", 22, false); /* wraps like the one-digit loop */
}

static void test_u64_words(void **state)
{
	/* every length 0..24 of digits, each cut at every n, followed by each kind of
	 * byte next to the digit range (the word test's edges) and bytes >= 0xfa */
	static const char after[] = { ' ', '/', ':', '.', ',', 'n', '\0', (char)0x2f, (char)0x3a,
				      (char)0xfa, (char)0xff, (char)0xb0, (char)0x39 };
	char buf[64];
	(void)state;
	for (size_t len = 0; len <= 24; len++) {
		for (size_t a = 0; a < sizeof after; a++) {
			for (size_t i = 0; i < len; i++)
				buf[i] = (char)('0' + (i * 7 + len) % 10);
			buf[len] = after[a];
			memset(buf + len + 1, '5', sizeof buf - len - 1);
			for (size_t n = 0; n <= len + 10 && n <= sizeof buf; n++)
				check_u64(buf, n);
		}
	}
	/* the largest value, one past it, 19 and 20 digits, leading zeros */
	check_u64("18446744073709551615 ns", 23);
	check_u64("18446744073709551616 ns", 23);
	check_u64("9999999999999999999 ns", 22);
	check_u64("99999999999999999999 ns", 23);
	check_u64("00000000000000000000000000001 ns", 32);
	check_u64("0", 1);
	check_u64("1 ns", 4);
	check_u64("12345678", 8);
	check_u64("123456789", 9);
	check_u64("1234567812345678", 16);
	check_u64("12345678123456789", 17);
	/* pseudo-random strings over digits and their neighbours */
	{
		uint32_t x = 12345;
		for (int t = 0; t < 200000; t++) {
			size_t n = 0;
			x = x * 1103515245u + 12345u;
			n = (x >> 16) % 30;
			for (size_t i = 0; i < n; i++) {
				x = x * 1103515245u + 12345u;
				unsigned r = (x >> 16) % 16;
				buf[i] = r < 12 ? (char)('0' + r % 10) : r == 12 ? '/' : r == 13 ? ':' : r == 14 ? ' ' : (char)0xfb;
			}
			check_u64(buf, n);
		}
	}
	/* util_parse_i64 on top of it */
	{
		int64_t v;
		assert_int_equal(util_parse_i64("9223372036854775807 ns", 22, &v), 19);
		assert_true(v == INT64_MAX);
		assert_int_equal(util_parse_i64("9223372036854775808 ns", 22, &v), 0);
		assert_int_equal(util_parse_i64("-12345678 ns", 12, &v), 9);
		assert_true(v == -12345678);
	}
}

/* a text made once and read in another zone later (the z key): its time
 * tokens render in the zone of the moment they are read */
static void test_time_tokens(void **state)
{
	(void)state;
	char tok1[UTIL_HMS_LEN], tok2[UTIL_HMS_LEN], text[200], out[300];
	int64_t t = 1796012345678; /* 2026-12-01T04:19:05.678Z (date -u -d @1796012345) */
	snprintf(text, sizeof text, "a stop ending between %s and %s, at last",
		 util_fmt_time_token(t - 100, tok1, sizeof tok1), util_fmt_time_token(t, tok2, sizeof tok2));
	char err[200];
	assert_int_equal(util_tz_set("utc", err, sizeof err), 0);
	util_expand_times(out, sizeof out, text, strlen(text), UTIL_TIMES_OFFSET);
	assert_string_equal(out, "a stop ending between 04:19:05.578 and 04:19:05.678, at last");
	if (util_tz_set("Asia/Kolkata", err, sizeof err) == 0) {
		/* the report's form carries the offset; the dashboard's names it once, on the axis */
		util_expand_times(out, sizeof out, text, strlen(text), UTIL_TIMES_OFFSET);
		assert_string_equal(out, "a stop ending between 09:49:05.578+05:30 and 09:49:05.678+05:30, at last");
		util_expand_times(out, sizeof out, text, strlen(text), 0);
		assert_string_equal(out, "a stop ending between 09:49:05.578 and 09:49:05.678, at last");
	}
	util_tz_set("utc", err, sizeof err);
	/* a token cut short at the end shows nothing of itself */
	util_expand_times(out, sizeof out, text, strlen(tok1) + 22 + 5, 0);
	assert_string_equal(out, "a stop ending between 04:19:05.578 and ");
	/* a lone mark (log text) is copied, for the sanitiser to show */
	util_expand_times(out, sizeof out, "x\x1f" "y \x1f" "12z", 8, 0);
	assert_string_equal(out, "x\x1f" "y \x1f" "12z");
	/* no room: the time is left out whole, never half written */
	util_expand_times(out, 10, text + 14, strlen(text + 14), 0);
	assert_string_equal(out, "between ");
	/* before 1970 and the unknown time */
	util_fmt_time_token(-1, tok1, sizeof tok1);
	util_expand_times(out, sizeof out, tok1, strlen(tok1), 0);
	assert_string_equal(out, "23:59:59.999");
	util_fmt_time_token(INT64_MIN, tok1, sizeof tok1);
	util_expand_times(out, sizeof out, tok1, strlen(tok1), 0);
	assert_string_equal(out, "--:--:--.---");
}

/* The hand-written formatters give what the snprintf forms gave, for
 * instants from 1970 to 2100, before 1970, in UTC and in a zone, and cut to a
 * short buffer the same way. */
static void test_fmt_matches_snprintf(void **state)
{
	(void)state;
	char err[200], a[64], b[64];
	const char *zones[] = {"utc", "Asia/Kolkata", "America/St_Johns"};
	uint64_t x = 88172645463325252ull; /* xorshift: the same instants every run */
	for (size_t z = 0; z < sizeof zones / sizeof zones[0]; z++) {
		if (util_tz_set(zones[z], err, sizeof err) != 0)
			continue;
		for (int i = 0; i < 20000; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			int64_t t = (int64_t)(x % 4102444800000ull) - (i % 7 == 0 ? 86400000ll * 400 : 0);
			time_t sec = (time_t)(t >= 0 ? t / 1000 : (t - 999) / 1000);
			int ms = (int)(t - (int64_t)sec * 1000);
			struct tm tm;
			gmtime_r(&sec, &tm);
			snprintf(a, sizeof a, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
				 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
			assert_string_equal(util_fmt_iso_ms(t, b, sizeof b), a);
			util_fmt_iso_ms(t, b, 11);
			a[10] = '\0';
			assert_string_equal(b, a);
			int64_t local = t + util_tz_offset_ms(t);
			sec = (time_t)(local >= 0 ? local / 1000 : (local - 999) / 1000);
			ms = (int)(local - (int64_t)sec * 1000);
			gmtime_r(&sec, &tm);
			char o[8];
			snprintf(a, sizeof a, "%02d:%02d:%02d.%03d%s", tm.tm_hour, tm.tm_min, tm.tm_sec, ms,
				 z == 0 ? "" : util_tz_fmt_offset(t, o, sizeof o));
			assert_string_equal(util_fmt_hms_ms(t, b, sizeof b), a);
			util_fmt_hms_ms(t, b, 6);
			a[5] = '\0';
			assert_string_equal(b, a);
		}
	}
	util_tz_set("utc", err, sizeof err);
}

/* fmt_s writes what snprintf writes: the same bytes (the whole buffer is
 * compared, so a byte past the NUL would show) and the same length, for every
 * buffer size from none to roomy. */
static volatile size_t fmt_caps[] = {0, 1, 2, 3, 5, 8, 13, 40, 256};
#define SAME(...)                                                                              \
	do {                                                                                   \
		for (size_t ci_ = 0; ci_ < sizeof fmt_caps / sizeof fmt_caps[0]; ci_++) {       \
			char a_[256], b_[256];                                                 \
			size_t cap_ = fmt_caps[ci_];                                           \
			memset(a_, 'x', sizeof a_);                                            \
			memset(b_, 'x', sizeof b_);                                            \
			int ka_ = snprintf(a_, cap_, __VA_ARGS__);                             \
			int kb_ = fmt_s(b_, cap_, __VA_ARGS__);                                \
			if (ka_ != kb_ || memcmp(a_, b_, sizeof a_) != 0)                      \
				fail_msg("cap %zu: snprintf \"%.*s\" (%d), fmt_s \"%.*s\" (%d)", cap_, \
					 (int)(cap_ ? strnlen(a_, cap_) : 0), a_, ka_,            \
					 (int)(cap_ ? strnlen(b_, cap_) : 0), b_, kb_);           \
		}                                                                              \
	} while (0)

static void test_fmt_conversions(void **state)
{
	(void)state;
	SAME("plain text, no conversion");
	SAME("%s", "");
	SAME("100%% of %s", "the stops");
	SAME("%s:%llu %s safepoint \"%s\": reaching %.1f ms", "gc.log", 123456789ULL, "\x1f" "1795980218332\x1f",
	     "G1CollectForAllocation", 701.25);
	SAME("%.3s|%.0s|%.10s|%.*s|%.*s", "abcdef", "abc", "ab", 2, "xyz", -1, "neg precision: all");
	SAME("%d %d %d %i", 0, -1, INT32_MIN, INT32_MAX);
	SAME("%u %u %lu %zu", 0u, UINT32_MAX, (unsigned long)UINT64_MAX, (size_t)12345);
	SAME("%lld %lld %llu %ld", (long long)INT64_MIN, (long long)INT64_MAX, (unsigned long long)UINT64_MAX,
	     (long)-42);
	SAME("%+lld %+lld %+d %+d %+.0f %+.1f %+.1f", 5LL, -5LL, 0, -7, 3.5, -0.04, 0.0);
	SAME("%03lld %03lld %03lld %05d %5d %2d %0d", 7LL, 1234LL, -7LL, -42, -42, 123, 9);
	SAME("%hhd %hd %hhu %hu", (signed char)-100, (short)-30000, (unsigned char)200, (unsigned short)60000);
	SAME("%c%c%c", 'a', '%', 'z');
	SAME("%.0f %.1f %.2f %.3f %f %.6f", 0.5, 0.25, 0.125, 0.0625, 1.0 / 3, 2.0 / 3);
	SAME("%.0f %.0f %.0f %.0f %.0f", 1.5, 2.5, 3.5, -2.5, 1e15);
	SAME("%.1f %.1f %.1f %.1f", -0.0, 9.95, 99.95, 0.05);
	SAME("%.1f %.3f %.0f", 4.9e-324, 2.2250738585072014e-308, 1.7e19);
	SAME("%.1f %.0f", 1e300, 18446744073709551616.0); /* too big: vsnprintf's */
	SAME("%.1f %.1f %+.1f %.2f", (double)NAN, (double)-NAN, (double)INFINITY, (double)-INFINITY);
	/* outside the subset: the whole call is vsnprintf's */
	SAME("%x %s", 255u, "after a hex");
	SAME("%5s|%-4d|% d|%e|%g|%#o", "ab", 3, 4, 1.5, 2.5, 8u);
	SAME("%.2d %.8f %lf", 5, 1.0 / 7, 2.5);
}

/* %.Nf against glibc on values of every size, on exact halves (ties go to the
 * even digit), and just either side of them */
static void test_fmt_floats_match_glibc(void **state)
{
	(void)state;
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	for (int i = 0; i < 300000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double d;
		switch (i % 5) {
		case 0: /* any bit pattern with a moderate exponent */
			d = (double)(x >> 11) / (double)(1ULL << (x % 60));
			break;
		case 1: /* a tie at some decimal place */
			d = (double)(x % 2000001) / (double)(1ULL << (1 + x % 24));
			break;
		case 2: { /* a number of ms as the logs give them */
			d = (double)(x % 100000000) / 1e6;
			break;
		}
		case 3: { /* a neighbour of a tie */
			double t = (double)(x % 20001) / 2.0 / 1000.0;
			d = (x & 1) ? nextafter(t, 1e9) : nextafter(t, -1e9);
			break;
		}
		default: { /* any finite double */
			memcpy(&d, &x, sizeof d);
			if (!isfinite(d))
				d = 1.0;
			break;
		}
		}
		if (x & 2)
			d = -d;
		SAME("%.0f|%.1f|%.2f|%.3f|%.4f|%.5f|%f", d, d, d, d, d, d, d);
	}
}

static void test_sanitize(void **state)
{
	(void)state;
	char out[128];
	const char in[] = "a\x1b[2Jb\x07 \xff ok \xc3\xa9 \xc2\x9b";
	util_sanitize(out, sizeof out, in, sizeof in - 1);
	assert_string_equal(out, "a\\e[2Jb\\x07 \\xff ok \xc3\xa9 \\xc2\\x9b");
	const char nul[] = {'x', 0, 'y'};
	util_sanitize(out, sizeof out, nul, 3);
	assert_string_equal(out, "x\\x00y");
	/* never overflows the destination */
	util_sanitize(out, 4, "\x01\x02\x03", 3);
	assert_true(strlen(out) < 4);
}

static void test_linebuf_partial_and_cut(void **state)
{
	(void)state;
	struct linebuf lb;
	const char *line;
	size_t len, room;
	unsigned flags;
	assert_int_equal(linebuf_init(&lb, 10, 64), 0);
	char *p = linebuf_space(&lb, &room);
	assert_true(room >= 64);
	memcpy(p, "abc\r\nhalf", 9);
	linebuf_commit(&lb, 9);
	assert_true(linebuf_next(&lb, &line, &len, &flags));
	assert_int_equal(len, 3);
	assert_memory_equal(line, "abc", 3);
	assert_false(linebuf_next(&lb, &line, &len, &flags)); /* "half" waits for its newline */
	assert_int_equal(linebuf_pending(&lb), 4);
	p = linebuf_space(&lb, &room);
	memcpy(p, "-done\n0123456789ABCDEF\nz\n", 25);
	linebuf_commit(&lb, 25);
	assert_true(linebuf_next(&lb, &line, &len, &flags));
	assert_int_equal(len, 9);
	assert_memory_equal(line, "half-done", 9);
	assert_true(linebuf_next(&lb, &line, &len, &flags));
	assert_int_equal(flags, LINEBUF_CUT);
	assert_int_equal(len, 10);
	assert_memory_equal(line, "0123456789", 10);
	assert_true(linebuf_next(&lb, &line, &len, &flags));
	assert_int_equal(flags, 0);
	assert_memory_equal(line, "z", 1);
	assert_false(linebuf_next(&lb, &line, &len, &flags));
	assert_int_equal(lb.cut, 1);
	p = linebuf_space(&lb, &room);
	memcpy(p, "tail", 4);
	linebuf_commit(&lb, 4);
	assert_false(linebuf_next(&lb, &line, &len, &flags));
	assert_true(linebuf_take_partial(&lb, &line, &len, &flags));
	assert_memory_equal(line, "tail", 4);
	linebuf_fini(&lb);
}

static void test_linebuf_cut_spanning_reads(void **state)
{
	(void)state;
	struct linebuf lb;
	const char *line;
	size_t len, room;
	unsigned flags;
	int lines = 0;
	assert_int_equal(linebuf_init(&lb, 100, 64), 0);
	/* a 10 000-byte line arriving in 64-byte reads, then a normal line */
	for (int i = 0; i < 10000 / 64 + 1; i++) {
		char *p = linebuf_space(&lb, &room);
		size_t n = 64;
		memset(p, 'x', n);
		if (i == 10000 / 64) {
			p[10] = '\n';
			memcpy(p + 11, "next\n", 5);
			n = 16;
		}
		linebuf_commit(&lb, n);
		while (linebuf_next(&lb, &line, &len, &flags)) {
			lines++;
			if (lines == 1)
				assert_int_equal(flags, LINEBUF_CUT);
			else
				assert_memory_equal(line, "next", 4);
		}
	}
	assert_int_equal(lines, 2);
	assert_int_equal(lb.cut, 1);
	linebuf_fini(&lb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso8601_offsets),
		cmocka_unit_test(test_iso8601_local_dst),
		cmocka_unit_test(test_clf_time),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_u64_words),
		cmocka_unit_test(test_double_words),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_time_tokens),
		cmocka_unit_test(test_fmt_matches_snprintf),
		cmocka_unit_test(test_fmt_conversions),
		cmocka_unit_test(test_fmt_floats_match_glibc),
		cmocka_unit_test(test_linebuf_partial_and_cut),
		cmocka_unit_test(test_linebuf_cut_spanning_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
