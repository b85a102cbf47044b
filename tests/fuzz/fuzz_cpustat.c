/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_cpustat.c — libFuzzer target for the recorded sampler formats:
 * cpustat_parse_line, schedlog_parse_line (the input split into lines, fed in
 * order, then flushed) and vmstatlog_parse_line. Seeds: real sample lines. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stwtop/cpustat.h"
#include "stwtop/samplelog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct event e;
	struct schedlog *sl = schedlog_new();
	size_t i = 0;
	if (!sl)
		return 0;
	while (i <= size) {
		const char *nl = i < size ? memchr(s + i, '\n', size - i) : NULL;
		size_t l = nl ? (size_t)(nl - (s + i)) : size - i;
		cpustat_parse_line(s + i, l, &e);
		vmstatlog_parse_line(s + i, l, &e);
		schedlog_parse_line(sl, s + i, l, &e);
		i += l + 1;
	}
	schedlog_flush(sl, &e);
	schedlog_free(sl);
	return 0;
}
