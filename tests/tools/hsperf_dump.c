/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hsperf_dump.c — a developer's look at core/probe/hsperf.c: print one sample of
 * a JVM's hsperfdata counters, a delta per interval, or the cost of a poll.
 *   hsperf_dump PID|FILE                 one sample
 *   hsperf_dump PID|FILE -i MS -n N      N samples MS apart, each with its delta
 *   hsperf_dump PID|FILE --bench N       N polls back to back: CPU time per poll
 * Not installed; built with the tests (build/tests/hsperf_dump). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/hsperf.h"

static double kb(int64_t b)
{
	return b < 0 ? -1 : (double)b / 1024.0;
}

static double ms(int64_t ticks, int64_t freq)
{
	return ticks < 0 || freq <= 0 ? -1 : (double)ticks * 1000.0 / (double)freq;
}

static void print_sample(const struct hsperf_sample *s)
{
	printf("policy=\"%s\" cause=\"%s\" lastCause=\"%s\" threads.live=%lld createVmBeginTime=%lld hrt.frequency=%lld\n",
	       s->policy, s->cause, s->last_cause, (long long)s->threads_live, (long long)s->create_vm_begin_ms,
	       (long long)s->hrt_frequency);
	printf("heap: committed %.1f KB used %.1f KB max %.1f KB; metaspace %.1f/%.1f KB, class space %.1f/%.1f KB\n",
	       kb(s->heap_committed), kb(s->heap_used), kb(s->heap_max), kb(s->meta_used), kb(s->meta_capacity),
	       kb(s->ccs_used), kb(s->ccs_capacity));
	for (int g = 0; g < HSPERF_MAX_GENS; g++) {
		const struct hsperf_gen *gen = &s->gen[g];
		if (!gen->present)
			continue;
		printf("  generation.%d %-6s capacity %.1f KB max %.1f KB\n", g, gen->name, kb(gen->capacity),
		       kb(gen->max_capacity));
		for (int k = 0; k < HSPERF_MAX_SPACES; k++)
			if (gen->space[k].present)
				printf("    space.%d %-6s capacity %.1f KB used %.1f KB max %.1f KB\n", k, gen->space[k].name,
				       kb(gen->space[k].capacity), kb(gen->space[k].used), kb(gen->space[k].max_capacity));
	}
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++) {
		const struct hsperf_collector *col = &s->coll[c];
		if (col->present)
			printf("  collector.%d \"%s\" invocations %lld time %.3f ms last %.3f ms\n", c, col->name,
			       (long long)col->invocations, ms(col->time, s->hrt_frequency),
			       col->last_exit >= col->last_entry ? ms(col->last_exit - col->last_entry, s->hrt_frequency) : -1);
	}
	printf("safepoints %lld, time %.3f ms, sync (TTSP) %.3f ms\n", (long long)s->safepoints,
	       ms(s->safepoint_time, s->hrt_frequency), ms(s->safepoint_sync, s->hrt_frequency));
}

static void print_delta(const struct hsperf_delta *d)
{
	if (d->restarted) {
		printf("delta: counters went backwards (another JVM?)\n");
		return;
	}
	printf("delta %.1f ms: %lld safepoints, stopped %.3f ms (TTSP %.3f ms)", d->interval_ns / 1e6,
	       (long long)d->safepoints, d->stop_ns / 1e6, d->ttsp_ns / 1e6);
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++)
		if (d->coll[c].gcs > 0) {
			printf("; collector.%d: %lld GCs %.3f ms", c, (long long)d->coll[c].gcs, d->coll[c].time_ns / 1e6);
			if (d->coll[c].one_gc_ns >= 0)
				printf(" (that GC: %.3f ms)", d->coll[c].one_gc_ns / 1e6);
		}
	printf("\n");
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	char path[1024], why[1280];
	struct hsperf h;
	struct hsperf_sample a, b;
	long interval = 0, count = 1, bench = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s PID|FILE [-i MS -n N | --bench N]\n", argv[0]);
		return 2;
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-i") == 0)
			interval = atol(argv[i + 1]);
		else if (strcmp(argv[i], "-n") == 0)
			count = atol(argv[i + 1]);
		else if (strcmp(argv[i], "--bench") == 0)
			bench = atol(argv[i + 1]);
	}
	if (strchr(argv[1], '/'))
		snprintf(path, sizeof path, "%s", argv[1]);
	else if (hsperf_find_file("", atoi(argv[1]), path, sizeof path, why, sizeof why) < 0) {
		fprintf(stderr, "hsperf_dump: %s\n", why);
		return 1;
	}
	if (hsperf_open(&h, path) < 0) {
		fprintf(stderr, "hsperf_dump: %s\n", h.why);
		return 1;
	}
	printf("file %s: %u entries indexed\n", path, h.nents);
	if (hsperf_sample(&h, &a) < 0) {
		fprintf(stderr, "hsperf_dump: %s\n", h.why);
		return 1;
	}
	if (bench > 0) {
		double c0 = cpu_s();
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (long i = 0; i < bench; i++)
			if (hsperf_sample(&h, &b) < 0) {
				fprintf(stderr, "hsperf_dump: %s\n", h.why);
				return 1;
			}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double cpu = cpu_s() - c0;
		double wall = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		printf("%ld polls: %.3f s CPU, %.3f s wall, %.2f us CPU per poll; at 10 polls/s: %.4f%% of a core\n",
		       bench, cpu, wall, cpu / (double)bench * 1e6, cpu / (double)bench * 10 * 100);
		hsperf_close(&h);
		return 0;
	}
	print_sample(&a);
	for (long i = 1; i < count; i++) {
		struct timespec ts = {interval / 1000, (interval % 1000) * 1000000L};
		nanosleep(&ts, NULL);
		if (hsperf_sample(&h, &b) < 0) {
			fprintf(stderr, "hsperf_dump: %s\n", h.why);
			return 1;
		}
		struct hsperf_delta d;
		hsperf_delta(&a, &b, &d);
		print_delta(&d);
		a = b;
	}
	hsperf_close(&h);
	return 0;
}
