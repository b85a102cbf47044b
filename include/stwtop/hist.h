/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.h — a small log-linear histogram of durations for streaming percentiles
 * (p50/p99/max of nginx $request_time and $upstream_header_time).
 *
 * Values are microseconds. Buckets: exact below 64 µs, then 32 sub-buckets per
 * power of two, so a reported percentile is within 1/64 (1.6 %) of the true
 * value (the bucket midpoint is returned). Range 0 .. 2^37 µs (~38 h); larger
 * values go to the last bucket but max stays exact. 1056 buckets x 4 bytes =
 * 4.2 KiB per histogram, fixed, no allocation.
 */
#ifndef STWTOP_HIST_H
#define STWTOP_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 5
#define HIST_SUB (1u << HIST_SUB_BITS)          /* 32 sub-buckets per power of two */
#define HIST_EXPS 31                            /* 2^6 .. 2^36 µs */
#define HIST_BUCKETS (HIST_SUB * 2 + HIST_SUB * HIST_EXPS)

struct hist {
	uint64_t n;
	uint64_t max_us;
	uint32_t b[HIST_BUCKETS];
};

void hist_reset(struct hist *h);
void hist_add(struct hist *h, uint64_t us);
void hist_merge(struct hist *into, const struct hist *from);
/* q in [0,1]; 0 when empty. Relative error <= 1/64 (bucket midpoint). */
uint64_t hist_quantile(const struct hist *h, double q);

#endif
