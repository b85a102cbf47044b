/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_split.c — the first two steps of a replay on their own, for run.sh's
 * "split" part: how much of `stwtop --report --json FILE` is reading and
 * cutting lines, how much parsing them, and so how much is everything after
 * the parser (summary, timeline, rules, report). Not part of ctest.
 *
 *   bench_split read FILE          read and cut lines (the report's reader) only
 *   bench_split jvm FILE           and jvmlog_parse_line each line
 *   bench_split nginx FILE FORMAT  and nginx_parse_line each line with FORMAT
 *
 * Prints "LINES PARSED": the lines it cut and the lines that parsed, which
 * run.sh compares with the report's own counts (the same work, or no row).
 * Lines come from the report's own reader (reader_open/reader_next, with the
 * report's 1 MiB line bound), so the first step is the report's, not a copy.
 */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/event.h"
#include "stwtop/jvmlog.h"
#include "stwtop/nginx.h"
#include "stwtop/reader.h"

#define MAX_LINE (1u << 20) /* the report's (session_internal.h) */

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "nginx") == 0 && argc < 4)) {
		fprintf(stderr, "usage: bench_split read|jvm|nginx FILE [FORMAT]\n");
		return 2;
	}
	const char *mode = argv[1];
	struct nginx_fmt *f = NULL;
	struct jvmlog *p = NULL;
	char why[256];
	if (strcmp(mode, "nginx") == 0) {
		f = nginx_fmt_compile(argv[3], strlen(argv[3]), why, sizeof why);
		if (!f) {
			fprintf(stderr, "bench_split: %s\n", why);
			return 2;
		}
	} else if (strcmp(mode, "jvm") == 0) {
		p = jvmlog_new();
	} else if (strcmp(mode, "read") != 0) {
		fprintf(stderr, "bench_split: unknown mode %s\n", mode);
		return 2;
	}
	/* the report's own reader (core/sources/reader.c): its buffer, its line cutting */
	struct reader rd = {0};
	if (reader_open(&rd, argv[2], MAX_LINE, why, sizeof why) < 0) {
		fprintf(stderr, "bench_split: %s: %s\n", argv[2], why);
		return 2;
	}
	static struct event ev[64];
	unsigned long long lines = 0, parsed = 0;
	const char *s;
	size_t len;
	unsigned flags;
	bool failed = false;
	while (reader_next(&rd, &s, &len, &flags, why, sizeof why, &failed)) {
		lines++;
		if (f)
			parsed += nginx_parse_line(f, s, len, ev, NULL);
		else if (p)
			parsed += jvmlog_parse_line(p, s, len, ev, 64) >= 0;
	}
	reader_close(&rd);
	printf("%llu %llu\n", lines, parsed);
	nginx_fmt_free(f);
	jvmlog_free(p);
	return 0;
}
