/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog_tally.h — helpers shared by the jvmlog unit tests: feed a file or a
 * list of lines through one parser and sum up what came out, and an
 * independent regex scan of a raw file that mirrors the awk of
 * tests/bin/check-samples. Header-only (static functions) because each
 * tests/unit/test_*.c is its own executable. */
#ifndef STWTOP_TEST_JVMLOG_TALLY_H
#define STWTOP_TEST_JVMLOG_TALLY_H

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/event.h"
#include "stwtop/jvmclock.h"
#include "stwtop/jvmlog.h"

#define TALLY_KEEP 64   /* events of interest kept verbatim (first ones) */

struct tally {
	long lines, unknown, events;
	long kinds[EV_KIND_COUNT];
	/* pauses that are not phase pauses (the [gc] summary lines) */
	long pauses, phase_pauses, periodic_pauses, full_pauses, evac_fail, system_gc;
	long by_type[16];             /* non-phase pauses by enum pause_type */
	double pause_max, pause_total, phase_max;
	double committed_max_mb, committed_last_mb, used_after_last_mb;
	/* safepoints */
	long sp;
	double sp_max, sp_total, ttsp_max;
	long sp_threads_known;
	/* others */
	long skips, skip_reason[8];
	long stalls;
	double stall_max, stall_total;
	long cycles;
	int64_t cycle_committed_last_kb;
	long timeouts;
	char timeout_threads[128];    /* of the last report */
	int timeout_nthreads;
	int64_t first_anchor;         /* EV_ANCHOR value, EV_TIME_NONE if none */
	long anchors;
	char version[96];
	int64_t pid;
	long time_none, time_set;     /* events with / without t_ms */
	long up_set;
	int collector, release;
	struct event keep[TALLY_KEEP];
	int nkeep;
	int keep_kind;                /* kind to keep (0 = none) */
	/* the session's clock, used as the session uses it: the parser reports
	 * anchors, jvmclock places uptime (its pending list is not used here) */
	struct jvmclock clock;
	bool start_given;             /* tally_give_start(): no line replaces it */
};

static inline void tally_init(struct tally *t, int keep_kind)
{
	memset(t, 0, sizeof *t);
	t->first_anchor = EV_TIME_NONE;
	t->cycle_committed_last_kb = -1;
	t->pid = -1;
	t->keep_kind = keep_kind;
	t->clock.anchor_ms = EV_TIME_NONE;
}

/* the JVM's start known from elsewhere (--jvm-start, another source) */
static inline void tally_give_start(struct tally *t, int64_t start_ms)
{
	struct event *none;
	jvmclock_set(&t->clock, start_ms, ANCHOR_GIVEN, "test", &none);
	t->start_given = true;
}

static inline void tally_event(struct tally *t, const struct event *e)
{
	struct event *none;
	int64_t t_ms;
	if (e->kind == EV_ANCHOR && jvmclock_wants(&t->clock, ANCHOR_LINE, e->u.anchor_ms, t->start_given))
		jvmclock_set(&t->clock, e->u.anchor_ms, ANCHOR_LINE, "test", &none);
	t_ms = jvmclock_wall(&t->clock, e);
	t->events++;
	t->kinds[e->kind < EV_KIND_COUNT ? e->kind : 0]++;
	if (t_ms == EV_TIME_NONE)
		t->time_none++;
	else
		t->time_set++;
	if (e->up_us >= 0)
		t->up_set++;
	if (t->keep_kind && e->kind == t->keep_kind && t->nkeep < TALLY_KEEP) {
		t->keep[t->nkeep] = *e;
		t->keep[t->nkeep++].t_ms = t_ms;
	}
	switch (e->kind) {
	case EV_ANCHOR:
		if (t->first_anchor == EV_TIME_NONE)
			t->first_anchor = e->u.anchor_ms;
		t->anchors++;
		break;
	case EV_JVM_INFO:
		if (e->u.info.key == JI_VERSION)
			snprintf(t->version, sizeof t->version, "%s", e->u.info.text);
		if (e->u.info.key == JI_PID)
			t->pid = e->u.info.a;
		break;
	case EV_GC_PAUSE:
		if (e->u.pause.flags & PAUSE_F_PHASE) {
			t->phase_pauses++;
			if (e->u.pause.dur_ms > t->phase_max)
				t->phase_max = e->u.pause.dur_ms;
			break;
		}
		t->pauses++;
		t->pause_total += e->u.pause.dur_ms;
		if (e->u.pause.dur_ms > t->pause_max)
			t->pause_max = e->u.pause.dur_ms;
		if (e->u.pause.flags & PAUSE_F_PERIODIC)
			t->periodic_pauses++;
		if (e->u.pause.flags & PAUSE_F_EVAC_FAIL)
			t->evac_fail++;
		if (e->u.pause.flags & PAUSE_F_SYSTEM_GC)
			t->system_gc++;
		if (e->u.pause.type == PAUSE_FULL)
			t->full_pauses++;
		t->by_type[e->u.pause.type & 15]++;
		if (e->u.pause.flags & PAUSE_F_HEAP) {
			double c = e->u.pause.committed_kb / 1024.0;
			if (c > t->committed_max_mb)
				t->committed_max_mb = c;
			t->committed_last_mb = c;
			t->used_after_last_mb = e->u.pause.after_kb / 1024.0;
		}
		break;
	case EV_SAFEPOINT:
		t->sp++;
		t->sp_total += e->u.sp.total_ms;
		if (e->u.sp.total_ms > t->sp_max)
			t->sp_max = e->u.sp.total_ms;
		if (e->u.sp.ttsp_ms > t->ttsp_max)
			t->ttsp_max = e->u.sp.ttsp_ms;
		if (e->u.sp.threads_total >= 0)
			t->sp_threads_known++;
		break;
	case EV_PERIODIC_SKIP:
		t->skips++;
		t->skip_reason[e->u.pskip.reason & 7]++;
		break;
	case EV_ALLOC_STALL:
		t->stalls++;
		t->stall_total += e->u.stall.dur_ms;
		if (e->u.stall.dur_ms > t->stall_max)
			t->stall_max = e->u.stall.dur_ms;
		break;
	case EV_GC_CYCLE:
		t->cycles++;
		if (e->u.cycle.committed_kb >= 0)
			t->cycle_committed_last_kb = e->u.cycle.committed_kb;
		break;
	case EV_SP_TIMEOUT:
		t->timeouts++;
		snprintf(t->timeout_threads, sizeof t->timeout_threads, "%s", e->u.spt.threads);
		t->timeout_nthreads = e->u.spt.nthreads;
		break;
	default:
		break;
	}
}

/* One line through the parser; returns what jvmlog_parse_line returned. */
static inline int tally_line(struct jvmlog *p, struct tally *t, const char *s, size_t n)
{
	struct event ev[JVMLOG_MAX_EVENTS];
	int r = jvmlog_parse_line(p, s, n, ev, JVMLOG_MAX_EVENTS);
	t->lines++;
	if (r < 0) {
		t->unknown++;
		return r;
	}
	for (int i = 0; i < r; i++)
		tally_event(t, &ev[i]);
	return r;
}

static inline void tally_end(struct jvmlog *p, struct tally *t)
{
	struct event ev[JVMLOG_MAX_EVENTS];
	int r = jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS);
	for (int i = 0; i < r; i++)
		tally_event(t, &ev[i]);
	t->collector = jvmlog_collector(p);
	t->release = jvmlog_jdk_release(p);
}

static inline char *slurp(const char *rel, size_t *len)
{
	char path[1024];
	FILE *f;
	char *buf;
	long n;
	snprintf(path, sizeof path, "%s/%s", STWTOP_TEST_DIR, rel);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

/* Feed a whole file (path relative to tests/) line by line through p. */
static inline void tally_file(struct jvmlog *p, const char *rel, struct tally *t)
{
	size_t n = 0, i = 0;
	char *buf = slurp(rel, &n);
	if (!buf) {
		t->lines = -1;
		return;
	}
	while (i < n) {
		char *nl = memchr(buf + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - buf) : n;
		size_t l = e - i;
		if (l && buf[i + l - 1] == '\r')
			l--;
		tally_line(p, t, buf + i, l);
		i = e + 1;
	}
	tally_end(p, t);
	free(buf);
}

/* ---- the independent scan (check-samples' awk, in POSIX regex) ---- */

struct awk {
	long lines;
	long pauses, periodic, skips, sp, stalls, timeouts, safepoint_lines_with_total;
	double pmax, ptot, spmax, sptot, rmx, stall_max, stall_total;
	double cm, cl;   /* committed MB: max and last, from the [gc] pause lines */
};

static inline double awk_num_after(const char *line, const char *key)
{
	/* awk's sub(/.*key/, "") removes through the LAST occurrence */
	const char *last = NULL, *f = line;
	while ((f = strstr(f, key)) != NULL)
		last = f++;
	return last ? strtod(last + strlen(key), NULL) : 0;
}

static inline void awk_scan(const char *rel, struct awk *a)
{
	regex_t re_pause, re_cm, re_skip;
	regmatch_t mt[2];
	size_t n = 0, i = 0;
	char *buf = slurp(rel, &n);
	memset(a, 0, sizeof *a);
	if (!buf) {
		a->lines = -1;
		return;
	}
	regcomp(&re_pause, "\\]\\[gc *\\] GC\\([0-9]+\\) Pause .*ms$", REG_EXTENDED | REG_NOSUB);
	regcomp(&re_cm, "\\(([0-9]+)M\\) [0-9.]+ms$", REG_EXTENDED);
	regcomp(&re_skip, "\\]\\[gc,periodic *\\].*Skipping\\.$", REG_EXTENDED | REG_NOSUB);
	while (i < n) {
		char *nl = memchr(buf + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - buf) : n;
		char *line = buf + i;
		buf[e < n ? e : n] = '\0';
		a->lines++;
		if (regexec(&re_pause, line, 0, NULL, 0) == 0) {
			const char *sp = strrchr(line, ' ');
			double v = strtod(sp ? sp + 1 : line, NULL);
			a->pauses++;
			a->ptot += v;
			if (v > a->pmax)
				a->pmax = v;
			if (regexec(&re_cm, line, 2, mt, 0) == 0) {
				double c = strtod(line + mt[1].rm_so, NULL);
				if (c > a->cm)
					a->cm = c;
				a->cl = c;
			}
			if (strstr(line, "G1 Periodic Collection"))
				a->periodic++;
		}
		if (regexec(&re_skip, line, 0, NULL, 0) == 0)
			a->skips++;
		if (strstr(line, "Safepoint \"")) {
			double t = awk_num_after(line, "Total: ") / 1e6;
			double r = awk_num_after(line, "Reaching safepoint: ") / 1e6;
			a->sp++;
			a->sptot += t;
			if (t > a->spmax)
				a->spmax = t;
			if (r > a->rmx)
				a->rmx = r;
		}
		if (strstr(line, "Allocation Stall (")) {
			const char *sp = strrchr(line, ' ');
			double v = strtod(sp ? sp + 1 : line, NULL);
			a->stalls++;
			a->stall_total += v;
			if (v > a->stall_max)
				a->stall_max = v;
		}
		if (strstr(line, "Timeout detected"))
			a->timeouts++;
		i = e + 1;
	}
	regfree(&re_pause);
	regfree(&re_cm);
	regfree(&re_skip);
	free(buf);
}

/* |a - b| small relative to b (sums of the same decimal numbers in a different
 * parse can differ in the last bits) */
#define assert_near(a, b)                                                                   \
	do {                                                                                \
		double a_ = (a), b_ = (b);                                                  \
		if (!(fabs(a_ - b_) <= 1e-6 * (fabs(b_) > 1 ? fabs(b_) : 1)))               \
			fail_msg("%s = %.9f, want %.9f (%s:%d)", #a, a_, b_, __FILE__, __LINE__); \
	} while (0)

#endif
