/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_record.c — libFuzzer target for --replay lines: record_parse_line on
 * arbitrary bytes, and for every line it accepts, format + parse again must give
 * the identical event (the exact round trip the format promises). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event a, b;
	char err[256], line[1024];
	if (record_parse_line((const char *)data, size, &a, err, sizeof err) != 1)
		return 0;
	if (a.kind == EV_ANCHOR) {
		/* a meta line with the JVM's start: its own writer must read back the same */
		if (a.t_ms == EV_TIME_NONE)
			a.t_ms = 0;
		int k = record_format_anchor(a.t_ms, a.u.anchor_ms, "recording", "fuzz", line, sizeof line);
		if (k < 0 || record_parse_line(line, (size_t)k, &b, err, sizeof err) != 1 || b.kind != EV_ANCHOR ||
		    b.u.anchor_ms != a.u.anchor_ms || b.t_ms != a.t_ms)
			abort();
		return 0;
	}
	int n = record_format(&a, line, sizeof line);
	if (n < 0)
		abort();
	if (record_parse_line(line, (size_t)n, &b, err, sizeof err) != 1)
		abort();
	/* NaN/Inf cannot be written: they come back as -1, so compare the formatted text */
	char again[1024];
	int m = record_format(&b, again, sizeof again);
	if (m != n || memcmp(line, again, (size_t)n) != 0)
		abort();
	return 0;
}
