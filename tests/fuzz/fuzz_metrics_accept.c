/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_metrics_accept.c — libFuzzer target for the one thing --metrics parses
 * from a client: the Accept header (metrics_format_for_accept), on arbitrary
 * bytes up to a NUL. Whatever it picks must be one of the two formats, and a
 * header naming OpenMetrics first with no q must pick it.
 * Seeds: tests/fuzz/seeds/fuzz_metrics_accept/ (what Prometheus 2.42 sends,
 * q=0, ranges without a type). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	enum metrics_format f = metrics_format_for_accept(s);
	if (f != METRICS_PROMETHEUS && f != METRICS_OPENMETRICS)
		abort();
	if (strncmp(s, "application/openmetrics-text", 28) == 0 && !strchr(s, ';') && !strchr(s, ',') &&
	    f != METRICS_OPENMETRICS)
		abort();
	free(s);
	return 0;
}
