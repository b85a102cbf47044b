/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_jvmlog.c — throughput of jvmlog_parse_line over the real logs, for the
 * "replay a 1 GB log in seconds" requirement. Not part of ctest (timing is not a
 * test). Build and run from the project root after building core:
 *
 *   cc -O2 -Iinclude tests/bench/bench_jvmlog.c build/libstwtop_core.a -o /tmp/bench_jvmlog
 *   /tmp/bench_jvmlog /tmp/jvm-all.log      # also writes the concatenation there
 *   time wc -l /tmp/jvm-all.log; time grep -c Pause /tmp/jvm-all.log   # same bytes, for scale
 *   /tmp/bench_jvmlog -f BIGFILE              # one pass over any file (read into memory first)
 *
 * It concatenates every gc.log/console.log of tests/samples, the public logs and
 * tests/fixtures/jvm into one buffer, then splits it at '\n' and parses every line
 * with one parser (as the session does when replaying a file), repeating until at
 * least 1 GiB went through; prints MB/s (10^6 bytes) and lines/s, and the same per
 * sample for the largest files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stwtop/jvmlog.h"

static const char *const files[] = {
	"g1-periodic/load-continues/gc.log", "g1-periodic/load-stops/gc.log", "g1-periodic/no-periodic/gc.log",
	"throttle/control/gc.log", "throttle/throttled/gc.log", "throttle/throttled-arraycopy/gc.log",
	"throttle/control/console.log", "throttle/throttled/console.log", "throttle/throttled-arraycopy/console.log",
	"combined/gc-stop/gc.log", "combined/throttle-stop/gc.log", "combined/gc-stop/console.log",
	"combined/throttle-stop/console.log", "collectors/g1-utctime-pid-tid/gc.log",
	"collectors/g1-xmx256m/gc.log", "collectors/parallel-xmx256m/gc.log",
	"collectors/serial-xmx256m/gc.log", "collectors/shenandoah-xmx256m/gc.log",
	"collectors/zgc-xmx96m/gc.log",
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int append(char **buf, size_t *len, size_t *cap, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (*len + (size_t)n + 1 > *cap) {
		*cap = (*len + (size_t)n + 1) * 2;
		*buf = realloc(*buf, *cap);
	}
	if (fread(*buf + *len, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	*len += (size_t)n;
	if (n > 0 && (*buf)[*len - 1] != '\n')
		(*buf)[(*len)++] = '\n';
	fclose(f);
	return 0;
}

/* parse buf[0..len) once; returns lines, adds events to *events */
static long run(const char *buf, size_t len, long *events, long *unknown)
{
	struct jvmlog *p = jvmlog_new();
	struct event ev[JVMLOG_MAX_EVENTS];
	size_t i = 0;
	long lines = 0;
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - buf) : len;
		int r = jvmlog_parse_line(p, buf + i, e - i, ev, JVMLOG_MAX_EVENTS);
		if (r < 0)
			(*unknown)++;
		else
			*events += r;
		lines++;
		i = e + 1;
	}
	*events += jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS);
	jvmlog_free(p);
	return lines;
}

static void measure(const char *name, const char *buf, size_t len)
{
	long events = 0, unknown = 0, lines = 0;
	int reps = 0;
	double t0 = now(), dt;
	do {
		lines += run(buf, len, &events, &unknown);
		reps++;
		dt = now() - t0;
	} while ((double)len * reps < 1024.0 * 1024 * 1024 && dt < 30);
	printf("%-40s %9.1f MB in %6.3f s: %7.0f MB/s, %6.2f M lines/s (%ld lines, %ld events, %ld unknown per pass)\n",
	       name, len * (double)reps / 1e6, dt, len * (double)reps / 1e6 / dt, lines / dt / 1e6,
	       lines / reps, events / reps, unknown / reps);
}

int main(int argc, char **argv)
{
	char *buf = NULL, path[1024];
	size_t len = 0, cap = 0;
	const char *root = getenv("STWTOP_TEST_DIR") ? getenv("STWTOP_TEST_DIR") : "tests";
	if (argc > 2 && strcmp(argv[1], "-f") == 0) {
		long events = 0, unknown = 0, lines;
		double t0, dt;
		if (append(&buf, &len, &cap, argv[2]) < 0) {
			perror(argv[2]);
			return 1;
		}
		t0 = now();
		lines = run(buf, len, &events, &unknown);
		dt = now() - t0;
		printf("%s: %.1f MB, %ld lines in %.3f s: %.0f MB/s, %.2f M lines/s, %ld events, %ld unknown\n",
		       argv[2], len / 1e6, lines, dt, len / 1e6 / dt, lines / dt / 1e6, events, unknown);
		free(buf);
		return 0;
	}
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/samples/%s", root, files[i]);
		if (append(&buf, &len, &cap, path) < 0) {
			fprintf(stderr, "cannot read %s (run from the project root)\n", path);
			return 1;
		}
	}
	if (argc > 1) {
		FILE *o = fopen(argv[1], "wb");
		if (!o || fwrite(buf, 1, len, o) != len) {
			perror(argv[1]);
			return 1;
		}
		fclose(o);
	}
	measure("all samples concatenated", buf, len);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *one = NULL;
		size_t ol = 0, oc = 0;
		snprintf(path, sizeof path, "%s/samples/%s", root, files[i]);
		if (append(&one, &ol, &oc, path) == 0 && ol > 400000)
			measure(files[i], one, ol);
		free(one);
	}
	free(buf);
	return 0;
}
