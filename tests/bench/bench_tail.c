/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_tail.c — latency from write() to the line callback, through the
 * reactor and the tailer, with the writer in another process. Not part of
 * ctest (it measures, it does not judge). Build and run from the top:
 *
 *   cmake --build build && cc -O2 -D_GNU_SOURCE -Iinclude tests/bench/bench_tail.c \
 *       build/libstwtop_core.a -linotifytools -ljansson -lm -o build/bench_tail
 *   build/bench_tail [DIR]        (default /tmp; e.g. /dev/shm for tmpfs)
 *
 * Paced: the child stamps CLOCK_MONOTONIC into each line right before its
 * write() and waits ~200 us before the next, so every line is its own
 * wake-up; the parent subtracts the stamp in the line callback. 10 000 lines,
 * median / p99 / worst. Burst: 1 000 000 lines written as fast as the child
 * can, for throughput and latency under load. The parent's CPU is printed too.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/loop.h"
#include "stwtop/tail.h"
#include "stwtop/util.h"

struct bench {
	struct loop *l;
	int64_t *lat_ns;
	size_t n, want;
	int64_t first_ns, last_ns;
	unsigned bad;
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void on_line(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	(void)id;
	struct bench *b = ctx;
	int64_t t = now_ns();
	int64_t stamp;
	if (flags || util_parse_i64(line, len, &stamp) == 0) {
		b->bad++;
		return;
	}
	if (b->n == 0)
		b->first_ns = t;
	b->last_ns = t;
	if (b->n < b->want)
		b->lat_ns[b->n] = t - stamp;
	if (++b->n == b->want)
		loop_stop(b->l);
}

static void on_note(void *ctx, int id, enum tail_note what, const char *msg)
{
	(void)ctx;
	(void)id;
	if (what == TAIL_NOTE_ERROR)
		fprintf(stderr, "note: %s\n", msg);
}

static void on_tail_fd(void *ctx, int fd, short revents)
{
	(void)fd;
	(void)revents;
	tail_dispatch(ctx);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static double cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static void writer(const char *path, size_t lines, long pace_ns, int go)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	char c;
	if (fd < 0 || read(go, &c, 1) != 1)
		_exit(2);
	for (size_t i = 0; i < lines; i++) {
		char buf[96];
		int n = snprintf(buf, sizeof buf, "%lld line %zu of the benchmark, some padding\n", (long long)now_ns(), i);
		if (write(fd, buf, (size_t)n) != n)
			_exit(3);
		if (pace_ns) {
			struct timespec ts = { 0, pace_ns };
			nanosleep(&ts, NULL);
		}
	}
	_exit(0);
}

static int run(const char *dir, const char *name, size_t lines, long pace_ns)
{
	char path[512];
	snprintf(path, sizeof path, "%s/bench-%d-%s.log", dir, (int)getpid(), name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	struct bench b = { .l = loop_new(), .want = lines };
	b.lat_ns = calloc(lines, sizeof *b.lat_ns);
	struct tail_callbacks cb = { on_line, on_note, &b };
	char err[256];
	struct tail *t = tail_new(&cb, 0, err, sizeof err);
	if (!t || !b.lat_ns) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	tail_add(t, path, TAIL_FROM_END);
	loop_add_fd(b.l, tail_fd(t), POLLIN, on_tail_fd, t);
	int go[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0)
		writer(path, lines, pace_ns, go[0]);
	double cpu0 = cpu_ms();
	if (write(go[1], "g", 1) != 1)
		return 1;
	loop_run(b.l);
	double cpu = cpu_ms() - cpu0;
	int status;
	waitpid(pid, &status, 0);
	qsort(b.lat_ns, lines, sizeof *b.lat_ns, cmp_i64);
	double secs = (double)(b.last_ns - b.first_ns) / 1e9;
	printf("%-6s %zu lines (%s): latency median %.1f us, p90 %.1f us, p99 %.1f us, p99.9 %.1f us, worst %.1f us;"
	       " %.0f lines/s; parent CPU %.0f ms (%.2f us/line)%s\n",
	       name, lines, dir, b.lat_ns[lines / 2] / 1e3, b.lat_ns[lines * 9 / 10] / 1e3,
	       b.lat_ns[lines * 99 / 100] / 1e3, b.lat_ns[lines * 999 / 1000] / 1e3, b.lat_ns[lines - 1] / 1e3,
	       secs > 0 ? (double)lines / secs : 0, cpu, cpu * 1e3 / (double)lines, b.bad ? "  BAD LINES" : "");
	tail_free(t);
	loop_free(b.l);
	free(b.lat_ns);
	unlink(path);
	return b.bad != 0;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	int r = run(dir, "paced", 10000, 200000);
	r |= run(dir, "burst", 1000000, 0);
	return r;
}
