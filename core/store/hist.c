/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.c — log-linear histogram, see include/stwtop/hist.h. */
#include "stwtop/hist.h"

#include <string.h>

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof *h);
}

static unsigned bucket_of(uint64_t v)
{
	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v); /* floor(log2 v) >= 6 */
	if (e >= 6 + HIST_EXPS)
		return HIST_BUCKETS - 1;
	unsigned sub = (unsigned)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1);
	return 2 * HIST_SUB + (e - 6) * HIST_SUB + sub;
}

/* midpoint of bucket i */
static uint64_t value_of(unsigned i)
{
	if (i < 2 * HIST_SUB)
		return i;
	unsigned e = (i - 2 * HIST_SUB) / HIST_SUB + 6;
	unsigned sub = (i - 2 * HIST_SUB) % HIST_SUB;
	uint64_t lo = ((uint64_t)(HIST_SUB + sub)) << (e - HIST_SUB_BITS);
	uint64_t width = 1ull << (e - HIST_SUB_BITS);
	return lo + width / 2;
}

void hist_add(struct hist *h, uint64_t us)
{
	h->b[bucket_of(us)]++;
	h->n++;
	if (us > h->max_us)
		h->max_us = us;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->b[i] += from->b[i];
	into->n += from->n;
	if (from->max_us > into->max_us)
		into->max_us = from->max_us;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	if (h->n == 0)
		return 0;
	if (q >= 1.0)
		return h->max_us;
	if (q < 0)
		q = 0;
	/* rank of the q-quantile, 1-based (nearest-rank method) */
	uint64_t rank = (uint64_t)(q * (double)h->n);
	if ((double)rank < q * (double)h->n)
		rank++;
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t v = value_of(i);
			return v > h->max_us ? h->max_us : v;
		}
	}
	return h->max_us;
}
