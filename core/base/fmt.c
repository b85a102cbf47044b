/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fmt.c — vsnprintf's output for the conversions the verdicts' texts use,
 * without glibc's general machinery (see fmt.h). One pass over the format;
 * the first conversion it does not handle hands the whole call, from a copy of
 * the arguments taken at the start, to vsnprintf. */
#include "stwtop/fmt.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct fout {
	char *b;
	size_t room; /* bytes that may be written before the NUL */
	size_t n;    /* bytes the text has so far, written or not */
};

static inline void put(struct fout *o, const char *s, size_t len)
{
	if (o->n < o->room) {
		size_t k = o->room - o->n < len ? o->room - o->n : len;
		memcpy(o->b + o->n, s, k);
	}
	o->n += len;
}

static inline void put_c(struct fout *o, char c)
{
	if (o->n < o->room)
		o->b[o->n] = c;
	o->n++;
}

static void put_rep(struct fout *o, char c, size_t k)
{
	while (k--)
		put_c(o, c);
}

/* v's decimal digits, the last at end[-1]; returns where they start */
static char *digits(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* an integer conversion: sign, then zeros ('0' flag) or spaces up to width */
static void put_int(struct fout *o, bool neg, uint64_t mag, bool plus, bool zero, int width)
{
	char tmp[24];
	char *d = digits(mag, tmp + sizeof tmp);
	size_t nd = (size_t)(tmp + sizeof tmp - d);
	char sign = neg ? '-' : plus ? '+' : 0;
	size_t len = nd + (sign ? 1 : 0);
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
	if (!zero)
		put_rep(o, ' ', pad);
	if (sign)
		put_c(o, sign);
	if (zero)
		put_rep(o, '0', pad);
	put(o, d, nd);
}

/* %.{prec}f of x, rounded from its exact binary value half to even (glibc in
 * the default rounding mode). false when x is 2^64 / 10^prec or more: the
 * caller leaves those to vsnprintf. */
static bool put_fixed(struct fout *o, double x, int prec, bool plus)
{
	static const uint64_t pow10[7] = {1, 10, 100, 1000, 10000, 100000, 1000000};
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	bool neg = bits >> 63;
	unsigned bexp = (unsigned)(bits >> 52) & 0x7ffu;
	uint64_t frac = bits & ((1ULL << 52) - 1);
	char sign = neg ? '-' : plus ? '+' : 0;
	if (bexp == 0x7ff) { /* glibc: "nan"/"inf" with the sign as for numbers */
		if (sign)
			put_c(o, sign);
		put(o, frac ? "nan" : "inf", 3);
		return true;
	}
	uint64_t m = bexp ? frac | 1ULL << 52 : frac;
	int e = bexp ? (int)bexp - 1075 : -1074; /* |x| = m * 2^e */
	uint64_t p10 = pow10[prec];
	unsigned __int128 q;
	if (m == 0) {
		q = 0;
	} else if (e >= 0) {
		if (e > 10) /* m << e would not fit */
			return false;
		q = (unsigned __int128)(m << e) * p10;
	} else {
		unsigned k = (unsigned)-e;
		unsigned __int128 pm = (unsigned __int128)m * p10; /* < 2^73 */
		if (k >= 100) {
			q = 0; /* pm < 2^73 is far below half of 2^k */
		} else {
			q = pm >> k;
			unsigned __int128 r = pm & (((unsigned __int128)1 << k) - 1);
			unsigned __int128 half = (unsigned __int128)1 << (k - 1);
			if (r > half || (r == half && (q & 1)))
				q++;
		}
	}
	if (q > UINT64_MAX)
		return false;
	uint64_t ip = (uint64_t)q / p10, fp = (uint64_t)q % p10;
	char tmp[48];
	char *end = tmp + sizeof tmp, *s = end;
	if (prec > 0) {
		for (int i = 0; i < prec; i++) {
			*--s = (char)('0' + fp % 10);
			fp /= 10;
		}
		*--s = '.';
	}
	s = digits(ip, s);
	if (sign)
		*--s = sign;
	put(o, s, (size_t)(end - s));
	return true;
}

int fmt_v(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct fout o = {buf, cap ? cap - 1 : 0, 0};
	va_list ap0;
	va_copy(ap0, ap);
	const char *f = fmt;
	for (;;) {
		const char *pc = strchr(f, '%');
		if (!pc) {
			put(&o, f, strlen(f));
			break;
		}
		put(&o, f, (size_t)(pc - f));
		f = pc + 1;
		bool plus = false, zero = false;
		for (;; f++) {
			if (*f == '+')
				plus = true;
			else if (*f == '0')
				zero = true;
			else
				break;
		}
		int width = 0, prec = -1;
		while (*f >= '0' && *f <= '9' && width < 1000)
			width = width * 10 + (*f++ - '0');
		if (*f == '.') {
			f++;
			if (*f == '*') {
				f++;
				prec = va_arg(ap, int);
				if (prec < 0)
					prec = -1;
			} else {
				prec = 0;
				while (*f >= '0' && *f <= '9' && prec < 100000)
					prec = prec * 10 + (*f++ - '0');
			}
		}
		int len = 0; /* -2 hh, -1 h, 1 l, 2 ll, 3 z */
		if (f[0] == 'h')
			len = f[1] == 'h' ? (f += 2, -2) : (f++, -1);
		else if (f[0] == 'l')
			len = f[1] == 'l' ? (f += 2, 2) : (f++, 1);
		else if (f[0] == 'z')
			len = (f++, 3);
		char conv = *f++;
		switch (conv) {
		case '%':
			if (plus || zero || width || prec >= 0 || len)
				goto whole;
			put_c(&o, '%');
			break;
		case 'c':
			if (plus || zero || width || prec >= 0 || len)
				goto whole;
			put_c(&o, (char)(unsigned char)va_arg(ap, int));
			break;
		case 's': {
			if (plus || zero || width || len)
				goto whole;
			const char *s = va_arg(ap, const char *);
			if (!s)
				goto whole; /* "(null)", or nothing, as glibc decides */
			put(&o, s, prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s));
			break;
		}
		case 'd':
		case 'i': {
			if (prec >= 0)
				goto whole;
			long long v;
			switch (len) {
			case -2: v = (signed char)va_arg(ap, int); break;
			case -1: v = (short)va_arg(ap, int); break;
			case 0: v = va_arg(ap, int); break;
			case 1: v = va_arg(ap, long); break;
			case 2: v = va_arg(ap, long long); break;
			default: v = (long long)va_arg(ap, size_t); break; /* %zd: the signed size_t */
			}
			uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
			put_int(&o, v < 0, mag, plus, zero, width);
			break;
		}
		case 'u': {
			if (prec >= 0)
				goto whole;
			uint64_t v;
			switch (len) {
			case -2: v = (unsigned char)va_arg(ap, unsigned); break;
			case -1: v = (unsigned short)va_arg(ap, unsigned); break;
			case 0: v = va_arg(ap, unsigned); break;
			case 1: v = va_arg(ap, unsigned long); break;
			case 2: v = va_arg(ap, unsigned long long); break;
			default: v = va_arg(ap, size_t); break;
			}
			put_int(&o, false, v, false, zero, width); /* '+' means nothing on %u */
			break;
		}
		case 'f':
			if (zero || width || len || prec > 6)
				goto whole;
			if (!put_fixed(&o, va_arg(ap, double), prec < 0 ? 6 : prec, plus))
				goto whole;
			break;
		default:
			goto whole;
		}
	}
	va_end(ap0);
	if (cap)
		buf[o.n < o.room ? o.n : o.room] = '\0';
	return o.n > INT_MAX ? -1 : (int)o.n;
whole: {
	int k = vsnprintf(buf, cap, fmt, ap0);
	va_end(ap0);
	return k;
}
}

int fmt_s(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = fmt_v(buf, cap, fmt, ap);
	va_end(ap);
	return k;
}
