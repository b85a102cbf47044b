/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_sched.c — CPU cost of one poll of the probes with many threads.
 *
 *   bench_sched [--threads N] [--polls P] [--interval-ms I] [--java CLASSDIR]
 *
 * Starts a target with N threads (default 2000): a C child whose threads sleep
 * 100 ms in a loop, or with --java a real JVM (ProbeTarget 2 600 N-ish: 2 busy
 * workers and N sleepers, compiled into CLASSDIR beforehand). Then polls
 * sched_probe_poll P times (default 60) every I ms (default 100) and measures the
 * CPU time of each call (CLOCK_THREAD_CPUTIME_ID: user + system of this thread),
 * and the same for cgroup_probe_poll + vmstat_probe_poll. Prints µs per poll and
 * the share of one CPU at a 1 s polling interval. The target is killed at the end.
 * Not part of ctest: build and run with tests/bench/run-bench.sh. */
#include "stwtop/probe.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	struct timespec ts = {0, 100 * 1000000L};
	for (;;)
		nanosleep(&ts, NULL);
	return NULL;
}

static int count_tasks(pid_t pid)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/task", (int)pid);
	DIR *d = opendir(p);
	int n = 0;
	struct dirent *de;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static double cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

struct stat_acc {
	double sum, min, max;
	int n;
};

static void acc_add(struct stat_acc *a, double v)
{
	if (a->n == 0 || v < a->min)
		a->min = v;
	if (a->n == 0 || v > a->max)
		a->max = v;
	a->sum += v;
	a->n++;
}

static void report(const char *what, const struct stat_acc *a)
{
	double mean = a->sum / a->n;
	printf("%-28s %4d polls: mean %8.1f us (min %.1f, max %.1f) = %.3f %% of one CPU at a 1 s interval\n", what,
	       a->n, mean, a->min, a->max, mean / 1e6 * 100.0);
}

int main(int argc, char **argv)
{
	int nthreads = 2000, polls = 60, interval = 100;
	const char *java = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
			nthreads = atoi(argv[++i]);
		else if (strcmp(argv[i], "--polls") == 0 && i + 1 < argc)
			polls = atoi(argv[++i]);
		else if (strcmp(argv[i], "--interval-ms") == 0 && i + 1 < argc)
			interval = atoi(argv[++i]);
		else if (strcmp(argv[i], "--java") == 0 && i + 1 < argc)
			java = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--threads N] [--polls P] [--interval-ms I] [--java CLASSDIR]\n", argv[0]);
			return 2;
		}
	}
	pid_t child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (java) {
			char n[16];
			snprintf(n, sizeof n, "%d", nthreads);
			execlp("java", "java", "-Xmx64m", "-Xss256k", "-cp", java, "ProbeTarget", "2", "600", n, (char *)NULL);
			_exit(127);
		}
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, 64 * 1024);
		for (int i = 1; i < nthreads; i++) {
			pthread_t t;
			if (pthread_create(&t, &at, sleeper, NULL) != 0) {
				perror("pthread_create");
				_exit(1);
			}
		}
		sleeper(NULL);
		_exit(0);
	}
	/* wait until the target has its threads (deadline 60 s) */
	int64_t end = util_mono_ms() + 60000;
	int have = 0;
	while ((have = count_tasks(child)) < nthreads) {
		if (have < 0 || util_mono_ms() > end) {
			fprintf(stderr, "target has %d of %d threads\n", have, nthreads);
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			return 1;
		}
		sleep_ms(50);
	}
	char err[512];
	struct sched_probe *sp = sched_probe_open("", child, err, sizeof err);
	struct cgroup_probe *cg = cgroup_probe_open("", child, NULL, err, sizeof err);
	struct vmstat_probe *vp = vmstat_probe_open("", err, sizeof err);
	if (!sp || !vp) {
		fprintf(stderr, "%s\n", err);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return 1;
	}
	if (!cg)
		fprintf(stderr, "no cgroup probe: %s\n", err);
	struct event e, ev[2];
	sched_probe_poll(sp, util_now_ms(), &e); /* baseline, and warms the page cache of dentries */
	struct stat_acc s = {0}, c = {0}, v = {0}, sw = {0};
	int threads_seen = 0;
	for (int i = 0; i < polls; i++) {
		sleep_ms(interval);
		double w0 = (double)util_mono_ms(), t0 = cpu_us();
		int r = sched_probe_poll(sp, util_now_ms(), &e);
		double t1 = cpu_us(), w1 = (double)util_mono_ms();
		if (r != 1) {
			fprintf(stderr, "sched_probe_poll: %d\n", r);
			break;
		}
		threads_seen = e.u.sched.nthreads;
		acc_add(&s, t1 - t0);
		acc_add(&sw, (w1 - w0) * 1000);
		if (cg) {
			t0 = cpu_us();
			cgroup_probe_poll(cg, util_now_ms(), ev, 2);
			acc_add(&c, cpu_us() - t0);
		}
		t0 = cpu_us();
		vmstat_probe_poll(vp, util_now_ms(), &e);
		acc_add(&v, cpu_us() - t0);
	}
	char desc[512] = "";
	if (cg)
		cgroup_probe_describe(cg, desc, sizeof desc);
	printf("target: %s pid %d with %d threads (sched probe saw %d); %s\n", java ? "JVM" : "C program", (int)child,
	       nthreads, threads_seen, desc);
	report("sched_probe_poll (CPU)", &s);
	report("sched_probe_poll (wall)", &sw);
	if (cg)
		report("cgroup_probe_poll (CPU)", &c);
	report("vmstat_probe_poll (CPU)", &v);
	double total = s.sum / s.n + (cg ? c.sum / c.n : 0) + v.sum / v.n;
	printf("%-28s             mean %8.1f us = %.3f %% of one CPU at a 1 s interval\n", "all three", total,
	       total / 1e6 * 100.0);
	sched_probe_close(sp);
	if (cg)
		cgroup_probe_close(cg);
	vmstat_probe_close(vp);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return 0;
}
