/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_hsperf.c — the JVM's own counters as a polled probe (probe.h): finds
 * and maps the hsperfdata file of a pid (hsperf.h), and turns each pair of
 * reads into one EV_JVMCTR, so a JVM started with no logging flags at all
 * still shows its heap, its collections and its stops.
 *
 * What the counters can say, and what they cannot: how many collections ended
 * between two reads and their summed time, the heap at the read, the stopped
 * time and the time to safepoint summed over the interval. Not when a pause
 * started nor how long each one was (except when exactly one fell in the
 * interval): those come only from a GC log, which wins where both exist. */
#include "stwtop/probe.h"

#include "stwtop/hsperf.h"
#include "stwtop/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JVM whose file is not there yet (still starting, or -XX:-UsePerfData) is
 * looked for again this often: finding it reads /proc and /etc/passwd. */
#define HSPERF_RETRY_MS 5000

struct hsperf_probe {
	char root[512];
	int pid;
	bool open;
	struct hsperf h;
	struct hsperf_sample prev;  /* the read the last event started from */
	bool have_prev;
	struct hsperf_sample step_prev; /* the last read, every HSPERF_STEP_MS: the stops */
	bool have_step;
	struct hsperf_stops stops;
	bool stop_has_sync;       /* JDK 8-12: sun.rt.safepointTime counts from the safepoint's
				     begin, the time to reach it included (see hsperf.h) */
	int64_t next_try_ms;
	char why[1280];
};

int hsperf_probe_collector(const struct hsperf_sample *s)
{
	if (strstr(s->policy, "GarbageFirst"))
		return GC_G1;
	/* JDK 17 names the policy "ParScav:MSC" and "Copy:MSC" and the collectors
	 * "Parallel young collection pauses", "Serial full collection pauses" */
	if (strncmp(s->policy, "ParScav", 7) == 0)
		return GC_PARALLEL;
	if (strncmp(s->policy, "Copy:", 5) == 0)
		return GC_SERIAL;
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++) {
		const char *n = s->coll[c].name;
		if (!s->coll[c].present || !n[0])
			continue;
		if (strncmp(n, "G1 ", 3) == 0)
			return GC_G1;
		if (strncmp(n, "PS", 2) == 0 || strncmp(n, "Parallel ", 9) == 0)
			return GC_PARALLEL;
		if (strncmp(n, "Serial ", 7) == 0)
			return GC_SERIAL;
		if (strcmp(n, "Copy") == 0 || strcmp(n, "MSC") == 0 || strcmp(n, "MarkSweepCompact") == 0)
			return GC_SERIAL;
		if (strncmp(n, "Z ", 2) == 0)
			return GC_ZGC;
		if (strncmp(n, "Shenandoah", 10) == 0)
			return GC_SHENANDOAH;
		if (strcmp(n, "ParNew") == 0 || strcmp(n, "PCopy") == 0 || strcmp(n, "CMS") == 0)
			return GC_CMS;
		if (strncmp(n, "Epsilon", 7) == 0)
			return GC_EPSILON;
	}
	return GC_UNKNOWN;
}

/* A collector whose time is pauses. "Z concurrent cycle" (no "pauses") times
 * a concurrent cycle while the application runs: not a stop. */
static bool pauses_of(const char *name)
{
	return !strstr(name, "concurrent") || strstr(name, "pauses");
}

/* A collector that collects the whole heap: what jstat counts as FGC. */
static bool full_of(const char *name)
{
	return strstr(name, "full") || strcmp(name, "PSParallelCompact") == 0 || strcmp(name, "MSC") == 0 ||
	       strcmp(name, "MarkSweepCompact") == 0;
}

static double ticks_ms(int64_t ticks, int64_t hz)
{
	return ticks < 0 || hz <= 0 ? -1 : (double)ticks * 1000.0 / (double)hz;
}

/* a pool of one or more spaces: used, committed and max summed over the
 * spaces the JVM has (-1 when it has none, as jstat prints "-") */
static void pool_of(struct jvm_totals *t, enum jvm_pool k, const struct hsperf_space *sp, int n)
{
	for (int i = 0; i < n; i++) {
		if (!sp[i].present)
			continue;
		if (sp[i].used >= 0)
			t->used[k] = (t->used[k] > 0 ? t->used[k] : 0) + sp[i].used;
		if (sp[i].capacity >= 0)
			t->committed[k] = (t->committed[k] > 0 ? t->committed[k] : 0) + sp[i].capacity;
		if (sp[i].max_capacity >= 0)
			t->max[k] = (t->max[k] > 0 ? t->max[k] : 0) + sp[i].max_capacity;
	}
}

void hsperf_probe_totals(const struct hsperf_sample *s, bool stop_has_sync, struct jvm_totals *t)
{
	*t = (struct jvm_totals)JVM_TOTALS_UNKNOWN;
	int64_t hz = s->hrt_frequency;
	/* jstat's columns: YGC collector 0, FGC collector 1, CGC collector 2 */
	for (int k = 0; k < JVM_GC_KINDS && k < HSPERF_MAX_COLLECTORS; k++) {
		const struct hsperf_collector *c = &s->coll[k];
		if (!c->present || c->invocations < 0)
			continue;
		t->gcs[k] = c->invocations;
		t->gc_ms[k] = ticks_ms(c->time, hz);
	}
	for (int k = 0; k < HSPERF_MAX_COLLECTORS; k++) {
		const struct hsperf_collector *c = &s->coll[k];
		if (!c->present || c->invocations < 0 || !pauses_of(c->name))
			continue;
		t->pauses = (t->pauses > 0 ? t->pauses : 0) + c->invocations;
		double ms = ticks_ms(c->time, hz);
		if (ms >= 0)
			t->pause_ms = (t->pause_ms > 0 ? t->pause_ms : 0) + ms;
	}
	t->safepoints = s->safepoints;
	t->safepoint_ms = ticks_ms(s->safepoint_time, hz);
	t->safepoint_sync_ms = ticks_ms(s->safepoint_sync, hz);
	if (t->safepoint_ms >= 0)
		t->stopped_ms = stop_has_sync || t->safepoint_sync_ms < 0 ? t->safepoint_ms
									  : t->safepoint_ms + t->safepoint_sync_ms;
	/* eden: generation 0 space 0; survivor: its spaces 1 and 2; old: generation 1 space 0 */
	if (s->gen[0].present) {
		pool_of(t, JVM_POOL_EDEN, &s->gen[0].space[0], 1);
		pool_of(t, JVM_POOL_SURVIVOR, &s->gen[0].space[1], 2);
	}
	if (s->gen[1].present)
		pool_of(t, JVM_POOL_OLD, &s->gen[1].space[0], 1);
	t->used[JVM_POOL_METASPACE] = s->meta_used;
	t->committed[JVM_POOL_METASPACE] = s->meta_capacity;
	t->used[JVM_POOL_CCS] = s->ccs_used;
	t->committed[JVM_POOL_CCS] = s->ccs_capacity;
	t->max[JVM_POOL_METASPACE] = s->meta_max;
	t->max[JVM_POOL_CCS] = s->ccs_max;
}

static int try_open(struct hsperf_probe *p)
{
	char path[1024];
	int r = hsperf_find_file(p->root, p->pid, path, sizeof path, p->why, sizeof p->why);
	if (r < 0)
		return r;
	r = hsperf_open(&p->h, path);
	if (r < 0) {
		snprintf(p->why, sizeof p->why, "%s", p->h.why);
		hsperf_close(&p->h);
		return r;
	}
	p->open = true;
	p->have_prev = false;
	p->have_step = false;
	hsperf_stops_init(&p->stops);
	/* java.vm.specification.version is "1.8" on JDK 8, else the feature release */
	char spec[16];
	p->stop_has_sync = false;
	if (hsperf_string(&p->h, "java.property.java.vm.specification.version", spec, sizeof spec)) {
		int major = strncmp(spec, "1.", 2) == 0 ? atoi(spec + 2) : atoi(spec);
		p->stop_has_sync = major > 0 && major < 13;
	}
	p->why[0] = '\0';
	return 0;
}

struct hsperf_probe *hsperf_probe_open(const char *root, int pid, char *err, size_t errlen)
{
	struct hsperf_probe *p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(p->root, sizeof p->root, "%s", root ? root : "");
	p->pid = pid;
	p->h.fd = -1;
	err[0] = '\0';
	if (try_open(p) < 0) {
		/* a JVM still starting creates it in its first milliseconds; one
		 * started with -XX:-UsePerfData never does: looked for again */
		snprintf(err, errlen, "%s", p->why);
		p->next_try_ms = util_now_ms() + HSPERF_RETRY_MS;
	}
	return p;
}

const char *hsperf_probe_path(const struct hsperf_probe *p)
{
	return p->open ? p->h.path : "";
}

const char *hsperf_probe_why(const struct hsperf_probe *p)
{
	return p->why;
}

static void fill(const struct hsperf_probe *p, const struct hsperf_sample *b, const struct hsperf_delta *d,
		 int64_t now_ms, struct event *out)
{
	ev_init(out, EV_JVMCTR);
	out->t_ms = now_ms;
	struct ev_jvmctr *c = &out->u.ctr;
	c->interval_ms = (double)d->interval_ns / 1e6;
	c->heap_used = b->heap_used;
	c->heap_committed = b->heap_committed;
	c->heap_max = b->heap_max > 0 ? b->heap_max : -1;
	int64_t gc_ns = 0, one = -1;
	int gcs = 0, fulls = 0;
	for (int k = 0; k < HSPERF_MAX_COLLECTORS; k++) {
		if (!b->coll[k].present || d->coll[k].gcs <= 0 || !pauses_of(b->coll[k].name))
			continue;
		gcs += (int)d->coll[k].gcs;
		if (full_of(b->coll[k].name))
			fulls += (int)d->coll[k].gcs;
		if (d->coll[k].time_ns > 0)
			gc_ns += d->coll[k].time_ns;
		one = d->coll[k].one_gc_ns;
	}
	c->gcs = gcs;
	c->full_gcs = fulls;
	c->gc_ms = (double)gc_ns / 1e6;
	c->one_gc_ms = gcs == 1 && one >= 0 ? (double)one / 1e6 : -1;
	c->safepoints = d->safepoints >= 0 ? (int32_t)d->safepoints : -1;
	if (d->ttsp_ns >= 0)
		c->ttsp_ms = (double)d->ttsp_ns / 1e6;
	if (d->safepoint_op_ns >= 0)
		c->stop_ms = p->stop_has_sync ? (double)d->safepoint_op_ns / 1e6 : (double)d->stop_ns / 1e6;
	c->threads = b->threads_live >= 0 ? (int32_t)b->threads_live : -1;
	c->collector = (uint8_t)hsperf_probe_collector(b);
	size_t n = strnlen(b->last_cause, sizeof c->cause - 1);
	memcpy(c->cause, b->last_cause, n); /* cut: causes are short ("G1 Evacuation Pause") */
	c->cause[n] = '\0';
	hsperf_probe_totals(b, p->stop_has_sync, &c->tot);
}

/* a read, and the stops it shows against the one before */
static int read_step(struct hsperf_probe *p, int64_t now_ms, struct hsperf_sample *s)
{
	if (!p->open) {
		if (now_ms < p->next_try_ms)
			return -EAGAIN;
		int r = try_open(p);
		if (r < 0) {
			p->next_try_ms = now_ms + HSPERF_RETRY_MS;
			return r;
		}
	}
	int r = hsperf_sample(&p->h, s);
	if (r < 0) {
		snprintf(p->why, sizeof p->why, "%s", p->h.why);
		if (r == -ESRCH || r == -ESTALE) {
			/* the file went away or shrank: the JVM exited, or a new one took the pid */
			hsperf_close(&p->h);
			p->h.fd = -1;
			p->open = false;
			p->have_prev = false;
			p->next_try_ms = now_ms + HSPERF_RETRY_MS;
		}
		return r;
	}
	if (p->have_step) {
		struct hsperf_delta d;
		hsperf_delta(&p->step_prev, s, &d);
		hsperf_stops_step(&p->stops, &d, p->stop_has_sync, now_ms);
	}
	p->step_prev = *s;
	p->have_step = true;
	return 0;
}

int hsperf_probe_step(struct hsperf_probe *p, int64_t now_ms)
{
	struct hsperf_sample s;
	return read_step(p, now_ms, &s);
}

int hsperf_probe_poll(struct hsperf_probe *p, int64_t now_ms, struct event *out)
{
	struct hsperf_sample s;
	int r = read_step(p, now_ms, &s);
	if (r < 0)
		return r;
	int n = 0;
	if (p->have_prev) {
		struct hsperf_delta d;
		hsperf_delta(&p->prev, &s, &d);
		if (!d.restarted && d.interval_ns > 0) {
			fill(p, &s, &d, now_ms, out);
			struct hsperf_stop m;
			hsperf_stops_take(&p->stops, &m);
			if (m.total_ms >= 0) {
				out->u.ctr.stop_max_ms = m.total_ms;
				out->u.ctr.stop_max_ttsp_ms = m.ttsp_ms;
				out->u.ctr.stop_max_end = m.end_ms;
				out->u.ctr.stop_max_window_ms = m.window_ms;
				out->u.ctr.stop_max_exact = m.exact;
			} else if (d.safepoint_op_ns == 0) {
				out->u.ctr.stop_max_ms = 0; /* known: none ended */
			}
			n = 1;
		}
	}
	p->prev = s;
	p->have_prev = true;
	return n;
}

int hsperf_probe_snapshot(struct hsperf_probe *p, int64_t now_ms, struct event *out)
{
	struct hsperf_sample s;
	if (!p->open)
		p->next_try_ms = 0; /* one read: no waiting for the retry */
	int r = read_step(p, now_ms, &s);
	if (r < 0)
		return r;
	/* no interval: nothing counted in one, everything known at the read */
	struct hsperf_delta d;
	memset(&d, 0, sizeof d);
	for (int k = 0; k < HSPERF_MAX_COLLECTORS; k++)
		d.coll[k].one_gc_ns = -1;
	fill(p, &s, &d, now_ms, out);
	out->u.ctr.safepoints = -1;
	out->u.ctr.stop_ms = out->u.ctr.ttsp_ms = -1;
	return 1;
}

double hsperf_probe_pending_stop_ms(const struct hsperf_probe *p)
{
	double carry = (double)p->stops.carry_ns / 1e6;
	return p->stops.longest.total_ms > carry ? p->stops.longest.total_ms : (carry > 0 ? carry : -1);
}

void hsperf_probe_close(struct hsperf_probe *p)
{
	if (!p)
		return;
	if (p->open)
		hsperf_close(&p->h);
	free(p);
}
