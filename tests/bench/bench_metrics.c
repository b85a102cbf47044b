/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_metrics.c — the CPU cost of one scrape's rendering (metrics_render)
 * at about 100 verdicts and 5 sources: the throttle-stop sample's nginx
 * log, cpu.stat, schedstat and vmstat recordings, and a generated G1 log of
 * N long pauses a minute apart (each its own incident, a long-gc-pause
 * verdict). Renders --renders times and prints the CPU time
 * (getrusage, user + system) per render.
 *
 * usage: bench_metrics SAMPLE_DIR [--pauses 100] [--renders 20000] */
#include "stwtop/metrics.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_metrics SAMPLE_DIR [--pauses N] [--renders N]\n");
		return 2;
	}
	const char *dir = argv[1];
	int pauses = 100, renders = 20000;
	for (int i = 2; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--pauses") == 0)
			pauses = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--renders") == 0)
			renders = atoi(argv[i + 1]);
	}
	/* the generated log: a G1 young pause of 600 ms (over long_pause_warn_ms)
	 * every minute, in a log before the sample's day */
	char gen[] = "/tmp/bench-metrics-XXXXXX";
	int fd = mkstemp(gen);
	FILE *g = fdopen(fd, "w");
	fprintf(g, "[2026-11-28T00:00:00.000+0000][0.005s][info][gc] Using G1\n");
	for (int i = 0; i < pauses; i++)
		fprintf(g, "[2026-11-28T%02d:%02d:00.000+0000][%d.000s][info][gc] GC(%d) Pause Young (Normal) "
			"(G1 Evacuation Pause) 300M->100M(1024M) 600.000ms\n", 1 + i / 60, i % 60, 3600 + 60 * i, i);
	fclose(g);

	char err[256], p[5][600];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	snprintf(p[0], sizeof p[0], "%s/nginx.conf", dir);
	o.nginx_conf = p[0];
	struct session *s = session_new(&o, err, sizeof err);
	if (!s) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	static const struct { enum src_kind k; const char *f; } src[] = {
		{SRC_JVM, "gc.log"}, {SRC_NGINX, "logs/access.log"}, {SRC_CPUSTAT, "cpustat.log"},
		{SRC_SCHEDLOG, "schedstat.log"}, {SRC_VMSTATLOG, "vmstat.log"},
	};
	for (int i = 0; i < 5; i++) {
		snprintf(p[i], sizeof p[i], "%s/%s", dir, src[i].f);
		if (session_add_source(s, src[i].k, i == 0 ? gen : p[i], err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", p[i], err);
			return 1;
		}
	}
	session_run_report(s);
	unlink(gen);

	struct metrics_buf b = {0};
	metrics_render(&b, s, METRICS_PROMETHEUS, NULL);
	size_t bytes = b.len;
	double t0 = cpu_s();
	for (int i = 0; i < renders; i++) {
		metrics_buf_reset(&b);
		metrics_render(&b, s, METRICS_PROMETHEUS, NULL);
	}
	double t = cpu_s() - t0;
	printf("sources %d, verdicts held %zu, text %zu bytes, %d renders: %.2f us CPU per render\n",
	       session_nsources(s), rules_count(session_rules(s)), bytes, renders, t / renders * 1e6);
	metrics_buf_fini(&b);
	session_free(s);
	return 0;
}
