/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary.c — whole-input counters (summary.h). */
#include "stwtop/summary.h"
#include "stwtop/util.h"

#include <stdio.h>
#include <string.h>

/* 1 ms to 30 s in a 1-2-5 ladder. Below 1 ms a stop is healthy whatever it
 * is (a G1 young pause of a small heap, a cleanup safepoint), so finer
 * buckets would only add series. At 30 s a stop has already failed every
 * health check (Kubernetes' default liveness probe gives up after 3 x 10 s);
 * longer ones are in +Inf, their count and sum still exact. The ladder holds every default threshold of
 * the verdicts (rules config.c): ttsp 100 ms (warn) and 1 s (crit), a long
 * pause 500 ms (warn) and 2 s (crit), and G1's default pause goal of 200 ms,
 * so "how many stops were over the threshold" is a bucket, not an
 * interpolation. The same bounds serve nginx $request_time: a request held by
 * a stop takes as long as the stop. */
const double summary_le_s[SUMMARY_LE_N] = {
	0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30,
};

void summary_le_add(struct summary_le *h, double seconds)
{
	if (!(seconds >= 0))
		return; /* unknown (-1) or NaN */
	h->n++;
	h->sum_s += seconds;
	if (seconds <= summary_le_s[0]) { /* most stops of a healthy JVM */
		h->b[0]++;
		return;
	}
	int lo = 1, hi = SUMMARY_LE_N; /* the first bound >= seconds; SUMMARY_LE_N: +Inf */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (seconds <= summary_le_s[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < SUMMARY_LE_N)
		h->b[lo]++;
}

void summary_init(struct summary *s)
{
	memset(s, 0, sizeof *s);
	s->heap_min_kb = s->heap_initial_kb = s->heap_max_kb = -1;
	s->periodic_interval_ms = -1;
	s->cpus_total = s->cpus_available = -1;
	s->memory_kb = -1;
	s->allocstall_first = s->allocstall_last = -1;
	s->ctr_heap_used_mb = s->ctr_heap_committed_mb = -1;
	s->ctr_max_stop_ms = s->ctr_max_ttsp_ms = s->ctr_heap_committed_max_mb = -1;
	s->ctr_tot = (struct jvm_totals)JVM_TOTALS_UNKNOWN;
	s->jvm_first_up_us = s->jvm_last_up_us = -1;
	s->jvm_first_ms = s->jvm_last_ms = EV_TIME_NONE;
	s->nr_periods.first = s->nr_periods.last = -1;
	s->nr_throttled.first = s->nr_throttled.last = -1;
	s->throttled_us.first = s->throttled_us.last = -1;
	hist_reset(&s->rt);
	hist_reset(&s->uht);
	hist_reset(&s->urt);
}

static void counter_add(struct summary_counter *c, int64_t v)
{
	if (v < 0)
		return; /* this sample did not have it */
	if (c->samples == 0) {
		c->first = v;
	} else if (v < c->last) {
		c->done += c->last - c->first;
		c->first = 0;
	}
	c->last = v;
	c->samples++;
}

static int64_t counter_growth(const struct summary_counter *c)
{
	return c->samples ? c->done + c->last - c->first : 0;
}

static void add_info(struct summary *s, const struct ev_info *in)
{
	switch (in->key) {
	case JI_COLLECTOR:
		s->collector = (int)in->a;
		break;
	case JI_VERSION:
		util_strlcpy_n(s->version, sizeof s->version, in->text, strlen(in->text));
		if (in->a > 0)
			s->jdk_release = (int)in->a;
		break;
	case JI_HEAP_MIN: s->heap_min_kb = in->a / 1024; break;
	case JI_HEAP_INITIAL: s->heap_initial_kb = in->a / 1024; break;
	case JI_HEAP_MAX: s->heap_max_kb = in->a / 1024; break;
	case JI_PERIODIC_GC: s->periodic_interval_ms = in->a; break;
	case JI_MEMORY: s->memory_kb = in->a / 1024; break;
	case JI_FLAG: {
		for (int i = 0; i < s->nflags; i++)
			if (strcmp(s->flags[i], in->text) == 0)
				return;
		if (s->nflags < SUMMARY_FLAGS_MAX)
			snprintf(s->flags[s->nflags++], sizeof s->flags[0], "%s", in->text);
		break;
	}
	case JI_CPUS:
		s->cpus_total = (int)in->a;
		s->cpus_available = (int)in->b;
		break;
	default:
		break;
	}
}

/* a JVM log event that lasted dur_ms up to its time: the span the log
 * covers. Inline: summary_add() takes it of every JVM event. */
static inline void jvm_span(struct summary *s, const struct event *e, double dur_ms)
{
	int64_t d = dur_ms > 0 ? (int64_t)(dur_ms + 0.5) : 0;
	if (e->up_us >= 0) {
		int64_t a = e->up_us - d * 1000;
		if (s->jvm_first_up_us < 0 || a < s->jvm_first_up_us)
			s->jvm_first_up_us = a < 0 ? 0 : a;
		if (e->up_us > s->jvm_last_up_us)
			s->jvm_last_up_us = e->up_us;
	}
	if (e->t_ms != EV_TIME_NONE) {
		if (s->jvm_first_ms == EV_TIME_NONE || e->t_ms - d < s->jvm_first_ms)
			s->jvm_first_ms = e->t_ms - d;
		if (s->jvm_last_ms == EV_TIME_NONE || e->t_ms > s->jvm_last_ms)
			s->jvm_last_ms = e->t_ms;
	}
}

/* one interval of the JVM's own counters */
static void add_counters(struct summary *s, const struct ev_jvmctr *c)
{
	s->ctr_samples++;
	s->ctr_interval_ms += c->interval_ms > 0 ? c->interval_ms : 0;
	s->ctr_gcs += c->gcs > 0 ? (uint64_t)c->gcs : 0;
	s->ctr_full_gcs += c->full_gcs > 0 ? (uint64_t)c->full_gcs : 0;
	s->ctr_gc_ms += c->gc_ms > 0 ? c->gc_ms : 0;
	s->ctr_safepoints += c->safepoints > 0 ? (uint64_t)c->safepoints : 0;
	s->ctr_stop_ms += c->stop_ms > 0 ? c->stop_ms : 0;
	s->ctr_ttsp_ms += c->ttsp_ms > 0 ? c->ttsp_ms : 0;
	if (c->heap_used >= 0)
		s->ctr_heap_used_mb = (double)c->heap_used / 1048576.0;
	if (c->heap_committed >= 0) {
		s->ctr_heap_committed_mb = (double)c->heap_committed / 1048576.0;
		if (s->ctr_heap_committed_mb > s->ctr_heap_committed_max_mb)
			s->ctr_heap_committed_max_mb = s->ctr_heap_committed_mb;
	}
	if (c->stop_max_ms > s->ctr_max_stop_ms)
		s->ctr_max_stop_ms = c->stop_max_ms;
	if (c->stop_max_ttsp_ms > s->ctr_max_ttsp_ms)
		s->ctr_max_ttsp_ms = c->stop_max_ttsp_ms;
	s->ctr_tot = c->tot; /* absolute: the last read says it all (lower after a JVM restart) */
	if (c->collector != GC_UNKNOWN)
		s->ctr_collector = c->collector;
	if (s->heap_max_kb < 0 && c->heap_max > 0)
		s->heap_max_kb = c->heap_max / 1024; /* a log's own line, when it has one, is read first */
}

/* the polled samples: cgroup cpu, schedstat, the JVM's counters, vmstat */
static void add_polled(struct summary *s, const struct event *e)
{
	switch (e->kind) {
	case EV_CPU:
		counter_add(&s->nr_periods, e->u.cpu.nr_periods);
		counter_add(&s->nr_throttled, e->u.cpu.nr_throttled);
		counter_add(&s->throttled_us, e->u.cpu.throttled_us);
		s->throttle_samples++;
		break;
	case EV_SCHED:
		s->sched_samples++;
		s->sched_oncpu_ms += e->u.sched.oncpu_ms;
		s->sched_wait_ms += e->u.sched.wait_ms;
		if (e->u.sched.idle_ms >= 0) {
			s->sched_idle_ms += e->u.sched.idle_ms;
			s->sched_idle_samples++;
		}
		break;
	case EV_JVMCTR:
		add_counters(s, &e->u.ctr);
		break;
	case EV_VMSTAT:
		if (s->vmstat_samples == 0)
			s->allocstall_first = e->u.vm.allocstall;
		s->allocstall_last = e->u.vm.allocstall;
		s->vmstat_samples++;
		break;
	default:
		break;
	}
}

static void add_pause(struct summary *s, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	if (p->flags & PAUSE_F_OPEN) {
		s->open_pauses++;
		s->open_pause.gc_id = p->gc_id;
		s->open_pause.end_ms = e->t_ms;
		s->open_pause.start_ms = e->t_ms == EV_TIME_NONE ? EV_TIME_NONE : e->t_ms - (int64_t)p->dur_ms;
		s->open_pause.at_least_ms = p->dur_ms;
		memcpy(s->open_pause.title, p->title, sizeof s->open_pause.title);
		memcpy(s->open_pause.cause, p->cause, sizeof s->open_pause.cause);
		s->open_pause.to_exit = (p->flags & PAUSE_F_OPEN_EXIT) != 0;
		return;
	}
	s->gc_pauses++;
	s->total_gc_pause_ms += p->dur_ms;
	if (p->dur_ms > s->max_gc_pause_ms)
		s->max_gc_pause_ms = p->dur_ms;
	if (p->type == PAUSE_FULL)
		s->full_gcs++;
	{
		unsigned c = p->collector ? p->collector : (unsigned)s->collector;
		unsigned t = p->type;
		unsigned ci = c < SUMMARY_COLLECTORS ? c : 0, ti = t < SUMMARY_PAUSE_TYPES ? t : 0;
		s->pauses_by[ci][ti]++;
		summary_le_add(&s->gc_pause_le_by[ci][ti], p->dur_ms / 1000.0);
	}
	summary_le_add(&s->gc_pause_le, p->dur_ms / 1000.0);
	if (p->flags & PAUSE_F_PERIODIC)
		s->periodic_gc_collections++;
	if (p->collector && !s->collector)
		s->collector = p->collector;
	if ((p->flags & PAUSE_F_HEAP) && p->committed_kb >= 0) {
		double c = p->committed_kb / 1024.0;
		if (!s->committed_known || c > s->committed_max_mb)
			s->committed_max_mb = c;
		s->committed_last_mb = c;
		s->committed_known = true;
		s->used_after_gc_last_mb = p->after_kb >= 0 ? p->after_kb / 1024.0 : 0;
		s->heap_known = true;
	}
}

/* ZGC and Shenandoah print the heap on their cycle summaries, not on their pauses */
static void add_cycle(struct summary *s, const struct ev_cycle *cy)
{
	if (cy->collector && !s->collector)
		s->collector = cy->collector;
	if ((cy->flags & CYCLE_F_CANCELLED) && strcmp(cy->cause, "Stopping VM") != 0 && !s->gc_cancels++) {
		memcpy(s->gc_cancel_title, cy->title, sizeof s->gc_cancel_title);
		memcpy(s->gc_cancel_cause, cy->cause, sizeof s->gc_cancel_cause);
	}
	if (cy->after_kb >= 0) {
		if (cy->committed_kb >= 0) {
			double c = cy->committed_kb / 1024.0;
			if (!s->committed_known || c > s->committed_max_mb)
				s->committed_max_mb = c;
			s->committed_last_mb = c;
			s->committed_known = true;
		}
		s->used_after_gc_last_mb = cy->after_kb / 1024.0;
		s->heap_known = true;
	}
}

static void add_http(struct summary *s, const struct ev_http *h)
{
	s->requests++;
	if (h->status >= 0 && h->status < SUMMARY_STATUS_MAX)
		s->status[h->status]++;
	else
		s->status_other++;
	if (h->uct_ms >= 0) {
		double b = h->uct_ms / 1000.0 + 0.5;
		int k = b >= 4 ? 4 : (int)b;
		s->uct_buckets[k]++;
		summary_le_add(&s->uct_le, h->uct_ms / 1000.0);
	} else if (h->lacks & EV_HTTP_NO_UCT) {
		s->lacks_uct++;
	} else {
		s->uct_none++;
	}
	if (h->lacks & EV_HTTP_NO_RT)
		s->lacks_rt++;
	if (h->lacks & EV_HTTP_NO_UHT)
		s->lacks_uht++;
	if (h->lacks & EV_HTTP_NO_URT)
		s->lacks_urt++;
	if (h->rt_ms >= 0) {
		hist_add(&s->rt, (uint64_t)(h->rt_ms * 1000 + 0.5));
		summary_le_add(&s->rt_le, h->rt_ms / 1000.0);
	}
	if (h->uht_ms >= 0)
		hist_add(&s->uht, (uint64_t)(h->uht_ms * 1000 + 0.5));
	if (h->urt_ms >= 0)
		hist_add(&s->urt, (uint64_t)(h->urt_ms * 1000 + 0.5));
}

void summary_add(struct summary *s, const struct event *e)
{
	switch (e->kind) {
	case EV_JVM_INFO: case EV_GC_CYCLE: case EV_SP_TIMEOUT: case EV_PERIODIC_SKIP:
		jvm_span(s, e, 0);
		break;
	case EV_GC_PAUSE:
		jvm_span(s, e, e->u.pause.dur_ms);
		break;
	case EV_SAFEPOINT:
		jvm_span(s, e, e->u.sp.total_ms);
		break;
	case EV_ALLOC_STALL:
		jvm_span(s, e, e->u.stall.dur_ms);
		break;
	default:
		break;
	}
	switch (e->kind) {
	case EV_JVM_INFO:
		add_info(s, &e->u.info);
		break;
	case EV_GC_PAUSE:
		add_pause(s, e);
		break;
	case EV_GC_CYCLE:
		add_cycle(s, &e->u.cycle);
		break;
	case EV_SAFEPOINT: {
		const struct ev_safepoint *sp = &e->u.sp;
		s->stops++;
		s->total_stop_ms += sp->total_ms;
		if (sp->total_ms > s->max_stop_ms)
			s->max_stop_ms = sp->total_ms;
		if (sp->ttsp_ms > s->max_ttsp_ms)
			s->max_ttsp_ms = sp->ttsp_ms;
		summary_le_add(&s->stop_le, sp->total_ms / 1000.0);
		summary_le_add(&s->ttsp_le, sp->ttsp_ms / 1000.0);
		break;
	}
	case EV_SP_TIMEOUT:
		s->sp_timeouts++;
		break;
	case EV_PERIODIC_SKIP:
		s->periodic_gc_skips++;
		break;
	case EV_ALLOC_STALL:
		s->alloc_stalls++;
		if (e->u.stall.dur_ms > s->max_alloc_stall_ms)
			s->max_alloc_stall_ms = e->u.stall.dur_ms;
		break;
	case EV_HSERR:
		s->hs_errs++;
		break;
	case EV_HTTP:
		add_http(s, &e->u.http);
		break;
	case EV_CPU: case EV_SCHED: case EV_JVMCTR: case EV_VMSTAT:
		add_polled(s, e);
		break;
	default:
		break;
	}
}

const char *summary_jvm_source(const struct summary *s)
{
	if (s->gc_pauses || s->heap_known)
		return "gclog";
	return s->ctr_samples ? "hsperfdata" : "none";
}

int64_t summary_nr_throttled(const struct summary *s)
{
	return counter_growth(&s->nr_throttled);
}

int64_t summary_nr_periods(const struct summary *s)
{
	return counter_growth(&s->nr_periods);
}

double summary_throttled_ms(const struct summary *s)
{
	return (double)counter_growth(&s->throttled_us) / 1000.0;
}

double summary_jvm_span_ms(const struct summary *s)
{
	/* the clock when the log printed it (a JVM restarted in one file starts
	 * its uptime again), else the uptime */
	if (s->jvm_first_ms != EV_TIME_NONE && s->jvm_last_ms > s->jvm_first_ms)
		return (double)(s->jvm_last_ms - s->jvm_first_ms);
	if (s->jvm_first_up_us >= 0 && s->jvm_last_up_us > s->jvm_first_up_us)
		return (double)(s->jvm_last_up_us - s->jvm_first_up_us) / 1000.0;
	return -1;
}

double summary_gc_paused_share(const struct summary *s)
{
	double span = summary_jvm_span_ms(s);
	if (span < SUMMARY_SHARE_MIN_MS || s->gc_pauses == 0 || s->total_gc_pause_ms >= span)
		return -1;
	double share = s->total_gc_pause_ms / span;
	return share > 1 ? 1 : share;
}
