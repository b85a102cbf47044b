/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.c — length-bounded number/time parsing and terminal sanitising.
 * Every parser in core/ reads untrusted bytes through these, so none of them
 * may read past n or assume a NUL. */
#include "stwtop/util.h"

#include "stwtop/fmt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

size_t util_parse_u64(const char *s, size_t n, uint64_t *out)
{
	static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					   100000000 };
	size_t i = 0;
	uint64_t v = 0;
	/* This runs for every number of every log line. Eight digits at a time
	 * while eight bytes are in bounds: two words give at most 16 digits, which
	 * cannot overflow, and the loops below finish longer numbers exactly. */
	if (n >= 8) {
		uint64_t w = util_load8_le(s);
		unsigned k = util_digits8(w);
		if (k == 0)
			return 0;
		v = util_value8(w, k);
		i = k;
		if (k < 8)
			goto done;
		if (n >= 16) {
			w = util_load8_le(s + 8);
			k = util_digits8(w);
			if (k == 0)
				goto done;
			v = v * pow10[k] + util_value8(w, k);
			i += k;
			if (k < 8)
				goto done;
		}
	}
	/* 19 digits cannot overflow (10^19 - 1 < 2^64); check only past that, without
	 * a division per digit */
	while (i < n && i < 19 && is_digit(s[i])) {
		v = v * 10 + (uint64_t)(s[i] - '0');
		i++;
	}
	while (i < n && is_digit(s[i])) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return 0; /* overflow: not a number we can use */
		i++;
	}
	if (i == 0)
		return 0;
done:
	*out = v;
	return i;
}

size_t util_parse_i64(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t v;
	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	size_t k = util_parse_u64(s + i, n - i, &v);
	if (k == 0 || v > (uint64_t)INT64_MAX)
		return 0;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return i + k;
}

/* The digits are gathered as an integer and divided once by a power of ten:
 * one division instead of a multiply-add chain per fractional digit (this
 * is the hottest function of a JDK 8 replay), and the result is the
 * correctly rounded value whenever the digits fit in 2^53 (15 of them), which
 * every number in a GC or access log does. Longer runs of digits fall back
 * to a plain accumulation. */
static const double pow10_tab[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
	1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static double slow_digits(const char *s, size_t a, size_t b, size_t point)
{
	double v = 0, scale = 0.1;
	size_t i;
	for (i = a; i < point; i++)
		v = v * 10 + (s[i] - '0');
	for (i = point + 1; i < b; i++) {
		v += (s[i] - '0') * scale;
		scale *= 0.1;
	}
	return v;
}

/* The digits from s[i] on (i <= n) folded into *m as m = m * 10 + digit
 * would, modulo 2^64 like that loop: eight bytes at a time while they are in
 * bounds (a safepoint line's "0.0001222" is two steps instead of nine).
 * Returns the index of the first byte that is not a digit, or n. */
static inline size_t digit_run(const char *s, size_t i, size_t n, uint64_t *m)
{
	static const uint64_t run_pow10[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					   100000000 };
	uint64_t v = *m;
	while (n - i >= 8) {
		uint64_t w = util_load8_le(s + i);
		unsigned k = util_digits8(w);
		if (k == 0)
			break;
		v = v * run_pow10[k] + util_value8(w, k);
		i += k;
		if (k < 8) {
			*m = v;
			return i;
		}
	}
	while (i < n && is_digit(s[i]))
		v = v * 10 + (uint64_t)(s[i++] - '0');
	*m = v;
	return i;
}

size_t util_parse_double(const char *s, size_t n, bool comma_ok, double *out)
{
	size_t i = 0, a, point, frac = 0;
	bool neg = false;
	uint64_t m = 0;
	double v;
	if (n > 0 && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	a = i;
	i = digit_run(s, i, n, &m);
	point = i;
	if (i < n && (s[i] == '.' || (comma_ok && s[i] == ',')) && i + 1 < n && is_digit(s[i + 1])) {
		i = digit_run(s, i + 1, n, &m);
		frac = i - point - 1;
	}
	if (i == a)
		return 0;
	if ((point - a) + frac <= 15)
		v = (double)m / pow10_tab[frac];
	else
		v = slow_digits(s, a, i, frac ? point : i);
	*out = neg ? -v : v;
	return i;
}

int64_t util_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	/* H. Hinnant's algorithm: exact for the proleptic Gregorian calendar */
	y -= m <= 2;
	const int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = (unsigned)(y - era * 400);
	const unsigned doy = (153 * (m + (m > 2 ? -3u : 9u)) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

int64_t util_utc_ms(int y, int mon, int day, int h, int mi, int sec, int ms)
{
	int64_t days = util_days_from_civil(y, (unsigned)mon, (unsigned)day);
	return ((days * 24 + h) * 60 + mi) * 60000 + (int64_t)sec * 1000 + ms;
}

int64_t util_local_to_epoch(int y, int mon, int day, int h, int mi, int sec)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1; /* let the zone rules decide: DST-aware */
	time_t t = mktime(&tm);
	if (t == (time_t)-1 && !(y == 1969 && mon == 12 && day == 31))
		return -1;
	return (int64_t)t;
}

/* is d a day of month mo of year y (29/Feb only in a leap year)? */
static bool day_exists(int y, int mo, int d)
{
	static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return mo >= 1 && mo <= 12 && d >= 1 && d <= mdays[mo - 1] + (mo == 2 && leap);
}

/* fixed-width unsigned field of w digits */
static bool fixed(const char *s, size_t n, size_t at, size_t w, int *out)
{
	int v = 0;
	if (at + w > n)
		return false;
	for (size_t i = 0; i < w; i++) {
		if (!is_digit(s[at + i]))
			return false;
		v = v * 10 + (s[at + i] - '0');
	}
	*out = v;
	return true;
}

size_t util_parse_iso8601(const char *s, size_t n, int64_t *epoch_ms, bool *has_zone)
{
	int y, mo, d, h, mi, se, ms = 0;
	size_t i;
	if (!fixed(s, n, 0, 4, &y) || n < 19 || s[4] != '-' || !fixed(s, n, 5, 2, &mo) ||
	    s[7] != '-' || !fixed(s, n, 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
	    !fixed(s, n, 11, 2, &h) || s[13] != ':' || !fixed(s, n, 14, 2, &mi) || s[16] != ':' ||
	    !fixed(s, n, 17, 2, &se))
		return 0;
	/* an impossible date (30/Feb, 29/Feb/2023) is a damaged line, not a day later */
	if (!day_exists(y, mo, d) || h > 23 || mi > 59 || se > 60)
		return 0;
	i = 19;
	if (i < n && (s[i] == '.' || s[i] == ',') && i + 1 < n && is_digit(s[i + 1])) {
		int scale = 100;
		i++;
		while (i < n && is_digit(s[i])) {
			ms += (s[i] - '0') * scale;
			scale /= 10;
			i++;
		}
	}
	int64_t base = util_utc_ms(y, mo, d, h, mi, se, ms);
	if (i < n && s[i] == 'Z') {
		*epoch_ms = base;
		if (has_zone)
			*has_zone = true;
		return i + 1;
	}
	if (i < n && (s[i] == '+' || s[i] == '-')) {
		int oh, om = 0;
		int sign = s[i] == '-' ? -1 : 1;
		size_t j = i + 1;
		if (fixed(s, n, j, 2, &oh)) {
			j += 2;
			if (j < n && s[j] == ':')
				j++;
			if (fixed(s, n, j, 2, &om))
				j += 2;
			else if (j > i + 3)
				return 0; /* "+05:" without minutes */
			if (oh > 23 || om > 59)
				return 0;
			*epoch_ms = base - sign * ((int64_t)oh * 3600000 + (int64_t)om * 60000);
			if (has_zone)
				*has_zone = true;
			return j;
		}
	}
	/* no zone: the machine's local time (TZ) */
	int64_t t = util_local_to_epoch(y, mo, d, h, mi, se);
	if (t < 0)
		return 0;
	*epoch_ms = t * 1000 + ms;
	if (has_zone)
		*has_zone = false;
	return i;
}

static int month_from_abbr(const char *s)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	for (int m = 0; m < 12; m++)
		if (memcmp(names + m * 3, s, 3) == 0)
			return m + 1;
	return 0;
}

size_t util_parse_clf_time(const char *s, size_t n, int64_t *epoch_ms)
{
	/* 29/Nov/2026:19:13:18 +0000 */
	int d, y, h, mi, se, oh, om, mo;
	if (n < 26 || !fixed(s, n, 0, 2, &d) || s[2] != '/' || s[6] != '/')
		return 0;
	mo = month_from_abbr(s + 3);
	if (!mo || !fixed(s, n, 7, 4, &y) || s[11] != ':' || !fixed(s, n, 12, 2, &h) ||
	    s[14] != ':' || !fixed(s, n, 15, 2, &mi) || s[17] != ':' || !fixed(s, n, 18, 2, &se) ||
	    s[20] != ' ' || (s[21] != '+' && s[21] != '-') || !fixed(s, n, 22, 2, &oh) ||
	    !fixed(s, n, 24, 2, &om))
		return 0;
	if (!day_exists(y, mo, d) || h > 23 || mi > 59 || se > 60 || oh > 23 || om > 59)
		return 0;
	int sign = s[21] == '-' ? -1 : 1;
	*epoch_ms = util_utc_ms(y, mo, d, h, mi, se, 0) -
		    sign * ((int64_t)oh * 3600000 + (int64_t)om * 60000);
	return 26;
}

/* v as exactly w decimal digits (0 <= v < 10^w) */
static void put_digits(char *p, int v, int w)
{
	for (int i = w - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

/* "HH:MM:SS.mmm" (12 bytes, no NUL) */
static void put_hms_ms(char *p, const struct tm *tm, int ms)
{
	put_digits(p, tm->tm_hour, 2);
	p[2] = ':';
	put_digits(p + 3, tm->tm_min, 2);
	p[5] = ':';
	put_digits(p + 6, tm->tm_sec, 2);
	p[8] = '.';
	put_digits(p + 9, ms, 3);
}

char *util_fmt_iso_ms(int64_t epoch_ms, char *buf, size_t len)
{
	if (epoch_ms == INT64_MIN) {
		snprintf(buf, len, "-");
		return buf;
	}
	time_t sec = (time_t)(epoch_ms >= 0 ? epoch_ms / 1000 : (epoch_ms - 999) / 1000);
	int ms = (int)(epoch_ms - (int64_t)sec * 1000);
	struct tm tm;
	gmtime_r(&sec, &tm);
	int y = tm.tm_year + 1900;
	if (y < 0 || y > 9999) {
		snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", y, tm.tm_mon + 1,
			 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
		return buf;
	}
	/* by hand: a report writes two of these per verdict and per note, and
	 * snprintf was most of their cost */
	char t[25];
	put_digits(t, y, 4);
	t[4] = '-';
	put_digits(t + 5, tm.tm_mon + 1, 2);
	t[7] = '-';
	put_digits(t + 8, tm.tm_mday, 2);
	t[10] = 'T';
	put_hms_ms(t + 11, &tm, ms);
	t[23] = 'Z';
	util_strlcpy_n(buf, len, t, 24);
	return buf;
}

/* --- the display zone --- */

static enum util_tz_kind tz_kind = UTIL_TZ_UTC;
static char tz_name[128] = "UTC";

/* Offsets change only at a zone's transitions, a few a year: a small cache by
 * quarter hour keeps the TZ switch below (it re-reads the zone file) off the
 * path of a frame's or a report's many times. */
#define TZ_CACHE 64
static struct { int64_t q; int64_t off; } tz_cache[TZ_CACHE];

static int64_t tz_offset_uncached(time_t t)
{
	struct tm tm;
	if (tz_kind == UTIL_TZ_LOCAL)
		return localtime_r(&t, &tm) ? (int64_t)tm.tm_gmtoff * 1000 : 0;
	/* a named zone: glibc has no per-zone call, so TZ is switched for the
	 * conversion and put back (this process has one thread) */
	const char *old = getenv("TZ");
	char saved[256];
	bool had = old != NULL;
	if (had)
		util_strlcpy_n(saved, sizeof saved, old, strlen(old));
	setenv("TZ", tz_name, 1);
	tzset();
	int64_t off = localtime_r(&t, &tm) ? (int64_t)tm.tm_gmtoff * 1000 : 0;
	if (had)
		setenv("TZ", saved, 1);
	else
		unsetenv("TZ");
	tzset();
	return off;
}

int64_t util_tz_offset_ms(int64_t epoch_ms)
{
	if (tz_kind == UTIL_TZ_UTC || epoch_ms == INT64_MIN)
		return 0;
	int64_t q = epoch_ms >= 0 ? epoch_ms / 900000 : (epoch_ms - 899999) / 900000;
	unsigned h = (unsigned)((uint64_t)q * 0x9E3779B97F4A7C15ULL >> 58) % TZ_CACHE;
	if (tz_cache[h].q != q + 1) { /* q + 1: an empty slot (0) matches nothing */
		/* transitions fall on quarter hours in every zone in use */
		tz_cache[h].off = tz_offset_uncached((time_t)(q * 900));
		tz_cache[h].q = q + 1;
	}
	return tz_cache[h].off;
}

int util_tz_set(const char *spec, char *err, size_t errlen)
{
	memset(tz_cache, 0, sizeof tz_cache);
	if (!spec || !strcasecmp(spec, "utc") || !strcmp(spec, "Z") || !strcmp(spec, "Etc/UTC")) {
		tz_kind = UTIL_TZ_UTC;
		snprintf(tz_name, sizeof tz_name, "UTC");
		return 0;
	}
	if (!strcmp(spec, "local")) {
		tz_kind = UTIL_TZ_LOCAL;
		snprintf(tz_name, sizeof tz_name, "local");
		tzset();
		return 0;
	}
	/* glibc takes an unknown name silently as UTC: look for the file first */
	const char *dir = getenv("TZDIR");
	char path[512];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", spec);
	if (strlen(spec) >= sizeof tz_name || spec[0] == '/' || strstr(spec, "..") ||
	    stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--tz: unknown time zone '%s' (not in %s; give utc, local or an Area/City "
			 "such as Europe/Berlin)", spec, dir && *dir ? dir : "/usr/share/zoneinfo");
		return -1;
	}
	tz_kind = UTIL_TZ_NAMED;
	snprintf(tz_name, sizeof tz_name, "%s", spec);
	return 0;
}

enum util_tz_kind util_tz_kind(void) { return tz_kind; }
const char *util_tz_name(void) { return tz_name; }
const char *util_tz_display_name(void) { return tz_kind == UTIL_TZ_LOCAL ? "local time" : tz_name; }

char *util_tz_fmt_offset(int64_t epoch_ms, char *buf, size_t len)
{
	if (tz_kind == UTIL_TZ_UTC) {
		snprintf(buf, len, "Z");
		return buf;
	}
	int64_t off = util_tz_offset_ms(epoch_ms) / 60000;
	char sign = off < 0 ? '-' : '+';
	if (off < 0)
		off = -off;
	snprintf(buf, len, "%c%02d:%02d", sign, (int)(off / 60), (int)(off % 60));
	return buf;
}

char *util_fmt_iso_disp(int64_t epoch_ms, char *buf, size_t len)
{
	if (tz_kind == UTIL_TZ_UTC || epoch_ms == INT64_MIN)
		return util_fmt_iso_ms(epoch_ms, buf, len);
	char o[8];
	util_fmt_iso_ms(epoch_ms + util_tz_offset_ms(epoch_ms), buf, len);
	size_t n = strlen(buf);
	if (n > 0 && buf[n - 1] == 'Z')
		buf[n - 1] = '\0';
	size_t k = strlen(buf);
	snprintf(buf + k, len - k, "%s", util_tz_fmt_offset(epoch_ms, o, sizeof o));
	return buf;
}

char *util_fmt_hms_ms(int64_t epoch_ms, char *buf, size_t len)
{
	if (epoch_ms == INT64_MIN) {
		snprintf(buf, len, "--:--:--.---");
		return buf;
	}
	int64_t local = epoch_ms + util_tz_offset_ms(epoch_ms);
	time_t sec = (time_t)(local >= 0 ? local / 1000 : (local - 999) / 1000);
	int ms = (int)(local - (int64_t)sec * 1000);
	struct tm tm;
	gmtime_r(&sec, &tm);
	char t[12 + 8];
	put_hms_ms(t, &tm, ms);
	size_t m = 12;
	if (tz_kind != UTIL_TZ_UTC) {
		char o[8];
		util_tz_fmt_offset(epoch_ms, o, sizeof o);
		size_t ol = strnlen(o, sizeof o - 1);
		memcpy(t + 12, o, ol);
		m += ol;
	}
	util_strlcpy_n(buf, len, t, m);
	return buf;
}

char *util_fmt_time_token(int64_t epoch_ms, char *buf, size_t len)
{
	fmt_s(buf, len, "%c%lld%c", UTIL_TIME_TOKEN, (long long)epoch_ms, UTIL_TIME_TOKEN);
	return buf;
}

/* a token at s[i] (s[i] is the mark): its length, 0 if none; *t its instant */
static size_t time_token(const char *s, size_t i, size_t n, int64_t *t)
{
	size_t j = i + 1, k = j;
	if (k < n && s[k] == '-')
		k++;
	size_t d0 = k;
	while (k < n && is_digit(s[k]) && k - d0 < 19)
		k++;
	if (k == d0 || k >= n || s[k] != UTIL_TIME_TOKEN)
		return 0;
	uint64_t u = 0; /* 19 digits fit */
	for (size_t d = d0; d < k; d++)
		u = u * 10 + (uint64_t)(s[d] - '0');
	*t = d0 > j ? (u > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)u) : (int64_t)(u > (uint64_t)INT64_MAX ? INT64_MAX : u);
	return k + 1 - i;
}

size_t util_expand_times(char *dst, size_t dstlen, const char *s, size_t n, unsigned flags)
{
	size_t o = 0;
	if (!dstlen)
		return 0;
	for (size_t i = 0; i < n && s[i] && o + 1 < dstlen;) {
		int64_t t;
		if (s[i] != UTIL_TIME_TOKEN) {
			/* the run up to the next token (or the text's end) in one copy:
			 * a verdict's text is mostly words (byte by byte, this loop was
			 * 7% of a report of an incident-dense log) */
			const char *q = memchr(s + i, UTIL_TIME_TOKEN, n - i);
			size_t run = (q ? (size_t)(q - s) : n) - i;
			const char *z = memchr(s + i, '\0', run);
			if (z)
				run = (size_t)(z - (s + i));
			if (run > dstlen - 1 - o)
				run = dstlen - 1 - o;
			memcpy(dst + o, s + i, run);
			o += run;
			i += run;
			if (z)
				break;
			continue;
		}
		size_t k = time_token(s, i, n, &t);
		if (!k) {
			/* a token cut short at the end: nothing of it is shown */
			bool tail = s[i] == UTIL_TIME_TOKEN;
			for (size_t j = i + 1; tail && j < n && s[j]; j++)
				tail = is_digit(s[j]) || (j == i + 1 && s[j] == '-');
			if (tail)
				break;
			dst[o++] = s[i++];
			continue;
		}
		char hms[UTIL_HMS_LEN];
		util_fmt_hms_ms(t, hms, sizeof hms);
		/* "HH:MM:SS.mmm" then the offset, if any */
		size_t m = strlen(hms);
		if (!(flags & UTIL_TIMES_OFFSET) && m > 12)
			m = 12;
		if (o + m >= dstlen)
			break;
		memcpy(dst + o, hms, m);
		o += m;
		i += k;
	}
	dst[o] = '\0';
	return o;
}

int64_t util_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t util_mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

size_t util_strlcpy_n(char *dst, size_t dstlen, const char *s, size_t n)
{
	if (dstlen == 0)
		return 0;
	if (n > dstlen - 1)
		n = dstlen - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return n;
}

const char *util_memmem(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	if (k == 0)
		return s;
	if (k > n)
		return NULL;
	return memmem(s, n, needle, k);
}

bool util_starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(s, prefix, k) == 0;
}

size_t util_utf8_seq(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong or surrogate */
	return len;
}

/* a sequence util_sanitize keeps as it is: well-formed, and not a C1 control
 * (U+0080-U+009F, C2 80-C2 9F), which acts as a control on a terminal too */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = util_utf8_seq((const char *)s, n);
	if (len == 2 && s[0] == 0xc2 && s[1] <= 0x9f)
		return 0;
	return len;
}

size_t util_sanitize(char *dst, size_t dstlen, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	const unsigned char *u = (const unsigned char *)s;
	if (dstlen == 0)
		return 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = u[i];
		size_t k = utf8_len(u + i, n - i);
		if (k == 1 && c >= 0x20 && c != 0x7f) {
			if (o + 1 >= dstlen)
				break;
			dst[o++] = (char)c;
			i++;
		} else if (k > 1) {
			if (o + k >= dstlen)
				break;
			memcpy(dst + o, s + i, k);
			o += k;
			i += k;
		} else if (c == '\t') {
			if (o + 1 >= dstlen)
				break;
			dst[o++] = ' ';
			i++;
		} else if (c == 0x1b) {
			if (o + 2 >= dstlen)
				break;
			dst[o++] = '\\';
			dst[o++] = 'e';
			i++;
		} else {
			if (o + 4 >= dstlen)
				break;
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 15];
			i++;
		}
	}
	dst[o] = '\0';
	return o;
}

char *util_fmt_kb(int64_t kb, char *buf, size_t len)
{
	if (kb < 0)
		snprintf(buf, len, "-");
	else if (kb < 1024)
		snprintf(buf, len, "%lldK", (long long)kb);
	else if (kb < 1024 * 1024)
		snprintf(buf, len, "%.0fM", kb / 1024.0);
	else
		snprintf(buf, len, "%.1fG", kb / (1024.0 * 1024.0));
	return buf;
}

int util_raise_nofile(uint64_t *soft)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -errno;
	if (rl.rlim_cur != rl.rlim_max) {
		rlim_t want = rl.rlim_max;
		rl.rlim_cur = want;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			return -errno;
	}
	if (soft)
		*soft = (uint64_t)rl.rlim_cur;
	return 0;
}
