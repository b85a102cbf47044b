/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_split.c — the first two steps of a replay on their own, for run.sh's
 * "split" part: how much of `stwtop --report --json FILE` is reading and
 * cutting lines, how much parsing them, and so how much is everything after
 * the parser (summary, timeline, rules, report). Not part of ctest.
 *
 *   bench_split read FILE          read() and cut lines (memchr) only
 *   bench_split jvm FILE           and jvmlog_parse_line each line
 *   bench_split nginx FILE FORMAT  and nginx_parse_line each line with FORMAT
 *
 * Prints "LINES PARSED": the lines it cut and the lines that parsed, which
 * run.sh compares with the report's own counts (the same work, or no row).
 * Reads in 1 MiB steps like the report's reader; a line longer than that is
 * counted and skipped (none in the bench logs).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stwtop/event.h"
#include "stwtop/jvmlog.h"
#include "stwtop/nginx.h"

#define STEP (1u << 20)

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
	int fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		perror(argv[2]);
		return 2;
	}
	char *buf = malloc(STEP);
	if (!buf)
		return 2;
	static struct event ev[64];
	size_t have = 0;
	unsigned long long lines = 0, parsed = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, STEP - have);
		if (r <= 0)
			break;
		have += (size_t)r;
		char *s = buf, *end = buf + have, *nl;
		while ((nl = memchr(s, '\n', (size_t)(end - s)))) {
			size_t len = (size_t)(nl - s);
			lines++;
			if (f)
				parsed += nginx_parse_line(f, s, len, ev, NULL);
			else if (p)
				parsed += jvmlog_parse_line(p, s, len, ev, 64) >= 0;
			s = nl + 1;
		}
		have = (size_t)(end - s);
		if (have == STEP) {
			have = 0; /* a line longer than a step: skipped */
			continue;
		}
		memmove(buf, s, have);
	}
	close(fd);
	printf("%llu %llu\n", lines, parsed);
	free(buf);
	nginx_fmt_free(f);
	jvmlog_free(p);
	return 0;
}
