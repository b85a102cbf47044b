/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.h — small helpers shared by every module: length-bounded parsing of
 * numbers and timestamps from untrusted lines (no sscanf, no NUL assumption),
 * time conversion, and sanitising text before it reaches a terminal. */
#ifndef STWTOP_UTIL_H
#define STWTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* --- numbers: parse at s[0..n); return chars consumed, 0 on no match --- */
size_t util_parse_u64(const char *s, size_t n, uint64_t *out);

/* Eight bytes of s as a word whose lowest byte is s[0], whatever the host's order. */
static inline uint64_t util_load8_le(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* How many of the eight bytes of w (from the lowest) are ASCII digits before
 * the first one that is not. A byte is a digit when its high nibble is 3 and
 * stays 3 after adding 6 ('0'..'9' are 0x30..0x39). A carry out of a byte can
 * only come from a byte >= 0xfa, which is already a non-digit below the bytes
 * it disturbs, so the first non-digit is always found exactly. */
static inline unsigned util_digits8(uint64_t w)
{
	const uint64_t hi = 0xf0f0f0f0f0f0f0f0ULL, three = 0x3030303030303030ULL;
	uint64_t bad = ((w & hi) ^ three) | (((w + 0x0606060606060606ULL) & hi) ^ three);
	return bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the first k (1..8) digit bytes of w: the digits are moved to
 * the top so the bytes above them fall out and the missing ones become leading
 * zeros, then pairs, quads and the two halves are combined with three
 * multiplications instead of one per digit. */
static inline uint64_t util_value8(uint64_t w, unsigned k)
{
	w = (w - 0x3030303030303030ULL) << (8 * (8 - k));
	w = w * 10 + (w >> 8); /* byte 2j: the two-digit value of digits 2j, 2j+1 */
	return (((w & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32))) +
		(((w >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32)))) >>
	       32;
}

/* util_parse_u64(), with its commonest case inline for the callers that run
 * per field of every line: 1 to 7 digits followed by a non-digit, 8 bytes in
 * bounds. Same result for every input. */
static inline size_t util_parse_u64_inl(const char *s, size_t n, uint64_t *out)
{
	if (n >= 8) {
		uint64_t w = util_load8_le(s);
		unsigned k = util_digits8(w);
		if (k - 1u < 7u) {
			*out = util_value8(w, k);
			return k;
		}
	}
	return util_parse_u64(s, n, out);
}
size_t util_parse_i64(const char *s, size_t n, int64_t *out);
/* decimal with optional fraction and sign, no exponent; '.' or ',' as decimal mark
 * when comma_ok (HotSpot follows the locale: "0,943s") */
size_t util_parse_double(const char *s, size_t n, bool comma_ok, double *out);

/* util_parse_double(), with the shape of most durations and sizes in a GC log
 * inline ("0.0001222 seconds", "4691.6,"): no sign, 1 to 7 digits, the mark,
 * 1 to 7 digits and a non-digit, 16 bytes in bounds. It computes what
 * util_parse_double() does for them (the digits as one integer divided once
 * by a power of ten), so every result is the same, bit for bit. */
static inline size_t util_parse_double_inl(const char *s, size_t n, bool comma_ok, double *out)
{
	static const uint64_t p10u[8] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };
	static const double p10[8] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7 };
	if (n >= 16) {
		uint64_t w = util_load8_le(s);
		unsigned k = util_digits8(w);
		if (k - 1u < 7u && (s[k] == '.' || (comma_ok && s[k] == ','))) {
			uint64_t w2 = util_load8_le(s + k + 1);
			unsigned f = util_digits8(w2);
			if (f - 1u < 7u) {
				/* < 10^14: as a signed integer it converts in one instruction */
				*out = (double)(int64_t)(util_value8(w, k) * p10u[f] + util_value8(w2, f)) / p10[f];
				return k + 1 + f;
			}
		}
	}
	return util_parse_double(s, n, comma_ok, out);
}

/* --- time --- */
/* days since 1970-01-01 of a proleptic Gregorian date */
int64_t util_days_from_civil(int64_t y, unsigned m, unsigned d);
/* UTC epoch ms from broken-down UTC time (no normalisation beyond what's valid) */
int64_t util_utc_ms(int y, int mon, int day, int h, int mi, int sec, int ms);

/* ISO 8601 as HotSpot, date(1) and nginx write it:
 *   2026-11-29T19:10:02.551+0000   2026-11-29T19:10:02+00:00   2026-11-29T19:10:02.551Z
 *   2026-11-29T19:10:02            (no zone: local time of the TZ environment)
 *   2026-11-29 19:10:02,551        (space separator, comma decimals)
 * Fraction of any length (truncated to ms). Returns chars consumed, 0 if not a timestamp.
 * *has_zone tells whether an offset was present (may be NULL). */
size_t util_parse_iso8601(const char *s, size_t n, int64_t *epoch_ms, bool *has_zone);

/* nginx $time_local: 29/Nov/2026:19:13:18 +0000 */
size_t util_parse_clf_time(const char *s, size_t n, int64_t *epoch_ms);

/* local (TZ) broken-down time to epoch seconds; -1 on failure. DST-aware (mktime). */
int64_t util_local_to_epoch(int y, int mon, int day, int h, int mi, int sec);

/* format epoch ms as 2026-11-29T19:23:15.471Z into buf (>= 25 bytes), always
 * UTC (JSON, --record, what a machine reads); returns buf */
char *util_fmt_iso_ms(int64_t epoch_ms, char *buf, size_t len);

/* The zone every time a person reads is shown in (--tz, the z key): UTC (the
 * default), the machine's local zone, or an Area/City of the tz database.
 * Times in it carry their offset ("20:24:06.088+01:00"); in UTC they stay as
 * they always were ("19:24:06.088", ISO with "Z") and the report's first line
 * says "UTC". The process's own TZ is left alone (parsers read local times
 * of logs with it). */
enum util_tz_kind { UTIL_TZ_UTC, UTIL_TZ_LOCAL, UTIL_TZ_NAMED };
/* "utc" (or "UTC", "Z"), "local", or an Area/City found under
 * /usr/share/zoneinfo ($TZDIR): 0, or -1 with err ("unknown time zone ...") */
int util_tz_set(const char *spec, char *err, size_t errlen);
enum util_tz_kind util_tz_kind(void);
const char *util_tz_name(void);   /* "UTC", "local", "Europe/Berlin" */
/* for a header: "UTC", "local time", "Europe/Berlin" */
const char *util_tz_display_name(void);
/* the offset from UTC at that instant in the display zone, in ms (0 for UTC) */
int64_t util_tz_offset_ms(int64_t epoch_ms);
/* "+01:00" (or "Z" in UTC) into buf (>= 8 bytes) */
char *util_tz_fmt_offset(int64_t epoch_ms, char *buf, size_t len);
/* ISO 8601 in the display zone: ...T19:23:15.471Z in UTC, ...T20:23:15.471+01:00
 * otherwise (buf >= 30 bytes) */
char *util_fmt_iso_disp(int64_t epoch_ms, char *buf, size_t len);
/* HH:MM:SS.mmm in the display zone, its offset after it unless UTC
 * ("20:24:06.088+01:00"); buf >= UTIL_HMS_LEN bytes */
#define UTIL_HMS_LEN 24
char *util_fmt_hms_ms(int64_t epoch_ms, char *buf, size_t len);

/* Times in text made once and read later (verdict titles and evidence, the
 * notes): the text keeps the instant, not its rendering, so that it follows
 * the zone shown when it is read (the z key turns the zone after the text was
 * made). util_fmt_time_token() writes the token "\x1f<epoch ms>\x1f" into buf
 * (>= UTIL_HMS_LEN bytes); util_expand_times() copies s[0..n) into dst with
 * every token replaced by the time in the display zone: UTIL_TIMES_OFFSET as
 * util_fmt_hms_ms() writes it (the offset after it unless UTC: the report,
 * where a time is read alone), else HH:MM:SS.mmm alone (the dashboard, whose
 * axis names the zone once). A \x1f that does not open a whole token is
 * copied as it is (log text is sanitised after this); a token cut short at
 * the end is dropped. Always NUL-terminates; returns bytes written. */
#define UTIL_TIME_TOKEN '\x1f'
#define UTIL_TIMES_OFFSET 1u
char *util_fmt_time_token(int64_t epoch_ms, char *buf, size_t len);
size_t util_expand_times(char *dst, size_t dstlen, const char *s, size_t n, unsigned flags);

int64_t util_now_ms(void);       /* CLOCK_REALTIME */
int64_t util_mono_ms(void);      /* CLOCK_MONOTONIC */

/* --- text --- */
/* Copy at most dstlen-1 bytes of s[0..n) and NUL-terminate. Returns bytes copied. */
size_t util_strlcpy_n(char *dst, size_t dstlen, const char *s, size_t n);
/* find needle (NUL-terminated) in s[0..n); NULL if absent */
const char *util_memmem(const char *s, size_t n, const char *needle);
bool util_starts_with(const char *s, size_t n, const char *prefix);

/* The length (1-4) of the well-formed UTF-8 sequence at s[0..n) (RFC 3629: no
 * continuation byte first, no C0/C1/F5-FF lead, no overlong form, no surrogate,
 * nothing past U+10FFFF; jansson's rule too), 0 if there is none; any ASCII
 * byte is 1. n >= 1. */
size_t util_utf8_seq(const char *s, size_t n);
/* Make log text safe for a terminal: control bytes (C0, DEL, C1 incl. ESC) become
 * "\xHH"/"\e", invalid UTF-8 becomes "\xHH", valid UTF-8 passes through.
 * Writes at most dstlen-1 bytes, always NUL-terminates; returns bytes written. */
size_t util_sanitize(char *dst, size_t dstlen, const char *s, size_t n);

/* human sizes: "380M", "1.2G" from kB into buf; returns buf */
char *util_fmt_kb(int64_t kb, char *buf, size_t len);

/* --- process limits --- */
/* Raise RLIMIT_NOFILE's soft limit to its hard limit (the sched probe keeps one
 * descriptor per JVM thread, and 2000+ threads pass the usual 1024). Call once
 * at start-up, before anything that waits with select() (libinotifytools). On
 * success *soft (if not NULL) gets the limit now in force; returns 0 or -errno. */
int util_raise_nofile(uint64_t *soft);

#endif
