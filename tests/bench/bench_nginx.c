/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_nginx.c — throughput of nginx_parse_line on the real sample logs, all
 * in memory (no I/O in the timed part). Not part of ctest. Build and run:
 *
 *   cmake --build build && gcc -O2 -Iinclude tests/bench/bench_nginx.c \
 *       build/libstwtop_core.a -lm -o build/bench_nginx && build/bench_nginx [seconds]
 *
 * Each log is parsed with its own format: the nginx-uct/ ones with "ops" read
 * from their nginx.conf, the combined/ ones with the "lab" format string, and
 * once more everything with the format nginx_fmt_detect picks from 20 lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stwtop/nginx.h"

#ifndef STWTOP_SOURCE_DIR
#define STWTOP_SOURCE_DIR "."
#endif
#define S STWTOP_SOURCE_DIR "/tests/samples"

struct input {
	const char *log, *conf, *fmt;
	char *buf;
	size_t len;
	const char **l;
	size_t *n;
	size_t count;
	struct nginx_fmt *f, *det;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void load(struct input *in)
{
	FILE *fp = fopen(in->log, "rb");
	char err[512];
	if (!fp) {
		perror(in->log);
		exit(1);
	}
	fseek(fp, 0, SEEK_END);
	in->len = (size_t)ftell(fp);
	fseek(fp, 0, SEEK_SET);
	in->buf = malloc(in->len);
	if (fread(in->buf, 1, in->len, fp) != in->len)
		exit(1);
	fclose(fp);
	size_t cap = 16384;
	in->l = malloc(cap * sizeof *in->l);
	in->n = malloc(cap * sizeof *in->n);
	for (char *p = in->buf, *end = in->buf + in->len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (in->count == cap) {
			cap *= 2;
			in->l = realloc(in->l, cap * sizeof *in->l);
			in->n = realloc(in->n, cap * sizeof *in->n);
		}
		in->l[in->count] = p;
		in->n[in->count++] = len;
		p += len + 1;
	}
	char *fs = in->conf ? nginx_conf_load(in->conf, "ops", err, sizeof err) : strdup(in->fmt);
	if (!fs || !(in->f = nginx_fmt_compile(fs, strlen(fs), err, sizeof err))) {
		fprintf(stderr, "%s: %s\n", in->log, err);
		exit(1);
	}
	free(fs);
	in->det = nginx_fmt_detect(in->l, in->n, 20);
	if (!in->det) {
		fprintf(stderr, "%s: nothing detected\n", in->log);
		exit(1);
	}
}

static void run(const char *what, struct input *in, size_t nin, int detected, double secs)
{
	size_t lines = 0, bytes = 0, bad = 0;
	double t0 = now_s(), t;
	do {
		for (size_t k = 0; k < nin; k++) {
			const struct nginx_fmt *f = detected ? in[k].det : in[k].f;
			for (size_t i = 0; i < in[k].count; i++) {
				struct event ev;
				if (!nginx_parse_line(f, in[k].l[i], in[k].n[i], &ev, NULL))
					bad++;
				bytes += in[k].n[i] + 1;
			}
			lines += in[k].count;
		}
		t = now_s() - t0;
	} while (t < secs);
	printf("%-26s %9zu lines %8.1f MB in %.2f s: %5.2f M lines/s, %6.1f MB/s, unparsed %zu\n",
	       what, lines, bytes / 1e6, t, lines / t / 1e6, bytes / t / 1e6, bad);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3;
	static const char lab[] = "$msec $request_id $status uct=$upstream_connect_time "
				  "uht=$upstream_header_time urt=$upstream_response_time rt=$request_time";
	struct input in[] = {
		{.log = S "/nginx-uct/backlog100/logs/access.log",
		 .conf = S "/nginx-uct/backlog100/nginx.conf"},
		{.log = S "/nginx-uct/connect-timeout/logs/access.log",
		 .conf = S "/nginx-uct/connect-timeout/nginx.conf"},
		{.log = S "/nginx-uct/backlog1024/logs/access.log",
		 .conf = S "/nginx-uct/backlog1024/nginx.conf"},
		{.log = S "/combined/gc-stop/logs/access.log", .fmt = lab},
		{.log = S "/combined/throttle-stop/logs/access.log", .fmt = lab},
	};
	for (size_t k = 0; k < 5; k++)
		load(&in[k]);
	run("ops (nginx-uct, 3 logs)", in, 3, 0, secs);
	run("lab (combined/, 2 logs)", in + 3, 2, 0, secs);
	run("all 5 logs", in, 5, 0, secs);
	run("all 5 logs, detected fmt", in, 5, 1, secs);
	return 0;
}
