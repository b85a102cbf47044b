/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_decomp.c — libFuzzer target for the gzip/zstd inflater (decomp.h): hostile,
 * truncated and concatenated compressed data, fed in uneven pieces as a pipe gives
 * them. Whatever it is given, it must end (bounded output per input byte is not
 * assumed: the output is drained into a fixed buffer), say how it ended, and never
 * read or write out of bounds. Seeds: gzip and zstd of real sample lines. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "stwtop/decomp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct feed {
	const uint8_t *p;
	size_t n, off, step;
};

static ssize_t feed_in(void *ctx, void *buf, size_t n)
{
	struct feed *f = ctx;
	size_t k = f->n - f->off;
	if (k > n)
		k = n;
	if (k > f->step)   /* short reads, as from a pipe */
		k = f->step;
	memcpy(buf, f->p + f->off, k);
	f->off += k;
	f->step = f->step * 3 % 4093 + 1;
	return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum decomp_kind k = decomp_sniff(data, size);
	if (k == DECOMP_NONE || !decomp_available(k))
		return 0;
	struct feed f = {data, size, 0, size ? (size_t)data[size - 1] + 1 : 1};
	struct decomp *d = decomp_new(k, feed_in, &f);
	if (!d)
		return 0;
	char out[4096];
	size_t total = 0;
	ssize_t r;
	/* a bomb is cut at 64 MiB of text: the property is termination and bounds */
	while ((r = decomp_read(d, out, sizeof out)) > 0 && total < (64u << 20))
		total += (size_t)r;
	bool failed = false;
	const char *why = decomp_end(d, &failed);
	if (r == 0 && !why)
		__builtin_trap();   /* decomp_end always says something, "" when clean */
	decomp_free(d);
	return 0;
}
