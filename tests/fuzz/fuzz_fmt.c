/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_fmt.c — libFuzzer target for fmt_s (fmt.h): for any double, integer,
 * string, precision and buffer size the input picks, fmt_s must give what
 * glibc's snprintf gives, the same bytes in the whole buffer and the same
 * length. Each 12-byte record of the input is one call: byte 0 the
 * conversion, byte 1 the precision, byte 2 the buffer size (0..95), bytes
 * 3..10 the value's bits, byte 11 a string length (cut at the input's end). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/fmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CMP(...)                                                                       \
	do {                                                                           \
		memset(a, 'x', sizeof a);                                              \
		memset(b, 'x', sizeof b);                                              \
		int ka = snprintf(a, cap, __VA_ARGS__);                                \
		int kb = fmt_s(b, cap, __VA_ARGS__);                                   \
		if (ka != kb || memcmp(a, b, sizeof a) != 0) {                         \
			fprintf(stderr, "fmt_s differs from snprintf: %d \"%.*s\" vs %d \"%.*s\"\n", ka, \
				(int)(cap ? strnlen(a, cap) : 0), a, kb, (int)(cap ? strnlen(b, cap) : 0), b); \
			abort();                                                       \
		}                                                                      \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char a[96], b[96], str[64];
	for (size_t at = 0; at + 12 <= size; at += 12) {
		const uint8_t *r = data + at;
		int prec = r[1] % 8; /* 7: outside the subset, vsnprintf's */
		size_t cap = r[2] % sizeof a;
		uint64_t bits;
		memcpy(&bits, r + 3, sizeof bits);
		double d;
		memcpy(&d, &bits, sizeof d);
		size_t sl = r[11] % sizeof str;
		if (sl > size - at - 12)
			sl = size - at - 12;
		memcpy(str, data + at + 12, sl);
		str[sl] = '\0';
		long long ll = (long long)bits;
		switch (r[0] % 12) {
		case 0: CMP("%.*f", prec, d); break;
		case 1: CMP("%.*f", prec, (double)(bits % 100000000) / 1e6); break; /* a log's ms */
		case 2: CMP("%+.1f ms, %.0f, %.2f s", d, d, d); break;
		case 3: CMP("%f|%.3f", (double)(int32_t)bits / (double)(1u << (r[1] % 32)),
			    (double)(bits >> 20) / 1024.0); break; /* exact halves and below */
		case 4: CMP("%lld %+lld %llu", ll, ll, (unsigned long long)bits); break;
		case 5: CMP("%03lld|%05d|%4d", ll % 100000, (int)(bits % 200001) - 100000, (int)(bits % 99999)); break;
		case 6: CMP("%d %u %i %ld %zu", (int)bits, (unsigned)bits, (int)(bits >> 32), (long)ll, (size_t)bits); break;
		case 7: CMP("%hd %hhd %hu %hhu", (short)bits, (signed char)bits, (unsigned short)bits, (unsigned char)bits); break;
		case 8: CMP("%s:%llu %.*s %%", str, (unsigned long long)(bits >> 40), (int)(r[1] % 70) - 5, str); break;
		case 9: CMP("%.10s|%c|%.0s", str, (char)r[1], str); break;
		case 10: CMP("%x %s %e", (unsigned)bits, str, d); break; /* vsnprintf's whole */
		default: CMP("plain %s then %.1f", str, d); break;
		}
	}
	return 0;
}
