/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_hsperf.c — libFuzzer target for core/probe/hsperf.c: arbitrary bytes as
 * an hsperfdata file (a truncated, half-written or hostile one). Seeds: real
 * JDK 17 files (G1, ZGC) from tests/fixtures/hsperf/. The parser must index
 * what it can, sample without reading outside the buffer, and keep every
 * string terminated. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/hsperf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hsperf h;
	struct hsperf_sample a, b;
	struct hsperf_delta d;
	char s[HSPERF_NAME];
	int64_t v;
	/* a copy that is 8-aligned, as a mapping is */
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (hsperf_open_mem(&h, buf, size) == 0 && hsperf_sample(&h, &a) == 0) {
		hsperf_long(&h, "sun.rt.safepoints", &v);
		hsperf_string(&h, "sun.gc.cause", s, sizeof s);
		if (hsperf_sample(&h, &b) == 0)
			hsperf_delta(&a, &b, &d);
		if (strnlen(a.cause, sizeof a.cause) == sizeof a.cause ||
		    strnlen(a.policy, sizeof a.policy) == sizeof a.policy ||
		    strnlen(a.coll[0].name, sizeof a.coll[0].name) == sizeof a.coll[0].name ||
		    strnlen(a.gen[0].space[0].name, sizeof a.gen[0].space[0].name) == sizeof a.gen[0].space[0].name)
			__builtin_trap();
	}
	hsperf_close(&h);
	free(buf);
	return 0;
}
