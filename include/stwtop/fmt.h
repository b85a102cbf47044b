/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fmt.h — a printf for the verdicts' texts that writes what glibc's vsnprintf
 * writes, byte for byte, for the conversions the rules use, at a fraction of
 * its cost.
 *
 * The dense safepoint report spends a tenth of its time in vsnprintf, most of
 * it in glibc's general float printer (%.1f of a stop's milliseconds). Here a
 * %.Nf (N <= 6) is rounded from the double's exact binary value with integer
 * arithmetic, half to even, which is what glibc does in the default rounding
 * mode; tests/unit/test_util.c compares the two on ties, random values and
 * every conversion.
 *
 * Handled: %% %c %s %.Ns %.*s, d i u with h/l/ll/z/j, flags '+' and '0' with a
 * width on integers, %.Nf and %+.Nf. A conversion outside that (%x, %e, %g, a
 * width on %s, '-' or ' ' flags...) makes the whole call vsnprintf's, as does a
 * float this code does not place exactly (NaN, infinities, 2^64 and up); a NULL
 * %s is glibc's. */
#ifndef STWTOP_FMT_H
#define STWTOP_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* vsnprintf's contract: at most cap - 1 bytes and a NUL (nothing if cap is
 * 0); returns the length the whole text has, or < 0 on a format vsnprintf
 * refuses. */
int fmt_v(char *buf, size_t cap, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int fmt_s(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
