/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hserr.c — JVM fatal error reports (include/stwtop/hserr.h). Format: HotSpot
 * vmError.cpp (the "#" header: signal line, "Problematic frame:" and the frame
 * as frame::print_on_error prints it, type letter + name; "Time: <ctime> <zone>
 * elapsed time: <s> seconds", older JDKs "time: ..." and a separate "elapsed
 * time:" line), checked against real reports of OpenJDK 17.0.15 and Temurin
 * 25.0.3 (tests/fixtures/hserr/). */
#include "stwtop/hserr.h"

#include "stwtop/util.h"

#include <stdio.h>
#include <string.h>

/* the line starting at p (up to '\n' or end) */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if (l > 0 && p[l - 1] == '\r')
		l--;
	return l;
}

/* the start of the next line (after '\n'), or end */
static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	return nl ? nl + 1 : end;
}

/* start of the line that begins with `prefix`, or NULL */
static const char *find_line(const char *buf, const char *end, const char *prefix)
{
	size_t k = strlen(prefix);
	for (const char *p = buf; p < end;) {
		if ((size_t)(end - p) >= k && memcmp(p, prefix, k) == 0)
			return p;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

static int month_of(const char *s)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	for (int m = 0; m < 12; m++)
		if (memcmp(names + m * 3, s, 3) == 0)
			return m + 1;
	return 0;
}

static bool two(const char *s, int *v)
{
	if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
		return false;
	*v = (s[0] - '0') * 10 + (s[1] - '0');
	return true;
}

/* "Sun Nov 29 21:08:45 2026 CET" (ctime, day space-padded) -> epoch ms */
static bool parse_ctime(const char *s, size_t n, int64_t *ms)
{
	int mon, day, h, mi, se;
	uint64_t y;
	if (n < 24 || s[3] != ' ' || s[7] != ' ' || !(mon = month_of(s + 4)))
		return false;
	const char *d = s + 8;
	if (d[0] == ' ')
		d++;
	size_t i = (size_t)(d - s);
	if (d[0] < '0' || d[0] > '9')
		return false;
	day = d[0] - '0';
	i++;
	if (s[i] >= '0' && s[i] <= '9')
		day = day * 10 + (s[i++] - '0');
	if (i + 9 > n || s[i] != ' ' || !two(s + i + 1, &h) || s[i + 3] != ':' || !two(s + i + 4, &mi) ||
	    s[i + 6] != ':' || !two(s + i + 7, &se))
		return false;
	i += 9;
	if (i >= n || s[i] != ' ')
		return false;
	i++;
	size_t k = util_parse_u64(s + i, n - i, &y);
	if (k != 4 || day < 1 || day > 31 || h > 23 || mi > 59 || se > 60)
		return false;
	i += k;
	while (i < n && s[i] == ' ')
		i++;
	if ((n - i >= 3 && (memcmp(s + i, "UTC", 3) == 0 || memcmp(s + i, "GMT", 3) == 0)) &&
	    (n - i == 3 || s[i + 3] == ' ')) {
		*ms = util_utc_ms((int)y, mon, day, h, mi, se, 0);
		return true;
	}
	int64_t t = util_local_to_epoch((int)y, mon, day, h, mi, se);
	if (t < 0)
		return false;
	*ms = t * 1000;
	return true;
}

static const char *const aot_marks[] = {"AOTCache", "AOTMode", "AOT Code Cache", "AOTCodeCache", "AOT cache"};

bool hserr_parse(const char *buf, size_t len, struct event *out)
{
	const char *end = buf + len;
	const char *head = util_memmem(buf, len < 4096 ? len : 4096, "# A fatal error has been detected by the Java Runtime Environment");
	if (!head)
		head = util_memmem(buf, len < 4096 ? len : 4096, "# There is insufficient memory for the Java Runtime Environment");
	if (!head)
		return false;
	ev_init(out, EV_HSERR);
	struct ev_hserr *h = &out->u.hserr;

	/* "#  SIGSEGV (0xb) at pc=...", "#  Internal Error (...)", "# Out of Memory Error (...)" */
	for (const char *p = buf; p < end && p < buf + 8192;) {
		size_t l = line_len(p, end);
		if (l > 3 && p[0] == '#' && p[1] == ' ') {
			const char *s = p + 1;
			size_t sl = l - 1;
			while (sl > 0 && *s == ' ')
				s++, sl--;
			if (util_starts_with(s, sl, "SIG") || util_starts_with(s, sl, "EXCEPTION_")) {
				const char *sp = memchr(s, ' ', sl);
				util_strlcpy_n(h->signal, sizeof h->signal, s, sp ? (size_t)(sp - s) : sl);
				break;
			}
			if (util_starts_with(s, sl, "Internal Error")) {
				snprintf(h->signal, sizeof h->signal, "Internal Error");
				break;
			}
			if (util_starts_with(s, sl, "Out of Memory Error") ||
			    util_starts_with(s, sl, "Native memory allocation")) {
				snprintf(h->signal, sizeof h->signal, "Out of Memory");
				break;
			}
		}
		p = next_line(p, end);
	}

	const char *pf = find_line(buf, end, "# Problematic frame:");
	if (pf) {
		const char *f = next_line(pf, end);
		size_t l = f < end ? line_len(f, end) : 0;
		if (l > 2 && f[0] == '#' && f[1] == ' ') {
			char raw[128];
			util_strlcpy_n(raw, sizeof raw, f + 2, l - 2);
			util_sanitize(h->frame, sizeof h->frame, raw, strlen(raw));
		}
	}

	for (size_t i = 0; i < ARRAY_LEN(aot_marks) && !h->aot; i++)
		if (util_memmem(buf, len, aot_marks[i]))
			h->aot = 1;

	/* JDK 11+: "Time: <ctime> <zone> elapsed time: ..."; JDK 8: "time: <ctime>" */
	const char *tl = find_line(buf, end, "Time: ");
	if (!tl)
		tl = find_line(buf, end, "time: ");
	if (tl) {
		size_t l = line_len(tl, end);
		int64_t ms;
		if (parse_ctime(tl + 6, l - 6, &ms))
			out->t_ms = ms;
	}
	const char *el = util_memmem(buf, len, "elapsed time: ");
	if (el) {
		double s;
		el += 14;
		if (util_parse_double(el, (size_t)(end - el), false, &s) > 0 && s >= 0 && s < 1e12)
			out->up_us = (int64_t)(s * 1e6 + 0.5);
	}
	return true;
}
