/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timeline.c — the bounded store behind every view and rule (timeline.h).
 * Rings are allocated on first use and grow by doubling up to their max while
 * their oldest records are wanted, so a report over one GC log never pays for
 * the request ring, and a report's rings hold a window, not the input. */
#include "stwtop/timeline.h"
#include "stwtop/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RING_START 256               /* records a ring starts with */

static void ring_setup(struct ring *r, size_t elem, size_t max)
{
	r->buf = NULL;
	r->elem = elem;
	r->cap = 0;
	r->max = max;
	r->first = r->total = 0;
}

uint64_t ring_first(const struct ring *r)
{
	return r->first;
}

void *ring_at(const struct ring *r, uint64_t i)
{
	if (!r->buf || i >= r->total || i < r->first)
		return NULL;
	return r->buf + (size_t)(i & (r->cap - 1)) * r->elem;
}

/* Twice the room, the records where their indexes say; false: no memory.
 * realloc, not a new buffer: a large block is moved by the kernel (mremap),
 * so growing does not hold the old and the new ring at once; record i sat at
 * i mod cap and now belongs at i mod 2 cap, the same slot or the one cap
 * above it, which is in the new half. */
static bool ring_grow(struct ring *r)
{
	size_t cap = r->cap ? 2 * r->cap : (r->max < RING_START ? r->max : RING_START);
	unsigned char *buf = realloc(r->buf, cap * r->elem);
	if (!buf)
		return false;
	for (uint64_t i = r->first; r->cap && i < r->total; i++)
		if (i & r->cap)
			memcpy(buf + (size_t)(i & (cap - 1)) * r->elem, buf + (size_t)(i & (r->cap - 1)) * r->elem,
			       r->elem);
	r->buf = buf;
	r->cap = cap;
	return true;
}

/* slot for a new record, not zeroed; NULL only if the first allocation
 * failed. Inline: a call per record stored showed in a JDK 8 replay. */
static inline void *ring_slot(struct ring *r, int64_t keep_from)
{
	if (r->total - r->first == r->cap) {
		/* full: grow while the oldest is wanted (and the one after it, which
		 * brackets it), else the oldest goes */
		bool grow = r->cap < r->max;
		if (grow && r->cap >= 2) {
			int64_t t;
			memcpy(&t, r->buf + (size_t)((r->first + 1) & (r->cap - 1)) * r->elem, sizeof t);
			grow = t >= keep_from;
		}
		if (!(grow && ring_grow(r))) {
			if (r->cap == 0)
				return NULL;
			r->first++;
		}
	}
	void *slot = r->buf + (size_t)(r->total & (r->cap - 1)) * r->elem;
	r->total++;
	return slot;
}

/* slot for a new record, zeroed; NULL only if the first allocation failed */
static void *ring_push(struct ring *r, int64_t keep_from)
{
	void *slot = ring_slot(r, keep_from);
	if (slot)
		memset(slot, 0, r->elem);
	return slot;
}

int timeline_init(struct timeline *tl, bool keep_lines)
{
	memset(tl, 0, sizeof *tl);
	ring_setup(&tl->stops, sizeof(struct tl_stop), TL_CAP_STOPS);
	ring_setup(&tl->pauses, sizeof(struct tl_pause), TL_CAP_PAUSES);
	ring_setup(&tl->heap, sizeof(struct tl_heap), TL_CAP_HEAP);
	ring_setup(&tl->cpu, sizeof(struct tl_cpu), TL_CAP_CPU);
	ring_setup(&tl->sched, sizeof(struct tl_sched), TL_CAP_SCHED);
	ring_setup(&tl->vmstat, sizeof(struct tl_vmstat), TL_CAP_VMSTAT);
	ring_setup(&tl->mem, sizeof(struct tl_mem), TL_CAP_MEM);
	ring_setup(&tl->reqs, sizeof(struct tl_req), TL_CAP_REQS);
	ring_setup(&tl->timeouts, sizeof(struct tl_timeout), TL_CAP_TIMEOUTS);
	ring_setup(&tl->skips, sizeof(struct tl_skip), TL_CAP_SKIPS);
	ring_setup(&tl->stalls, sizeof(struct tl_stall), TL_CAP_STALLS);
	ring_setup(&tl->ctr, sizeof(struct tl_ctr), TL_CAP_CTR);
	for (int k = 0; k < TL_LINE_SOURCES; k++)
		ring_setup(&tl->lines[k], sizeof(struct tl_line), TL_LINES_PER_SOURCE);
	for (int i = 0; i < TL_SECONDS; i++)
		tl->secs[i].open = -1;
	for (int i = 0; i < TL_OPEN_SECONDS; i++)
		tl->open[i].sec = 0;
	tl->newest_ms = EV_TIME_NONE;
	tl->oldest_ms = EV_TIME_NONE;
	tl->keep_lines = keep_lines;
	tl->keep.from_ms = tl->keep.reqs_from_ms = INT64_MIN;
	tl->req_sec_min = tl->req_sec_max = EV_TIME_NONE;
	return 0;
}

void timeline_fini(struct timeline *tl)
{
	struct ring *rings[] = {&tl->stops, &tl->pauses, &tl->heap, &tl->cpu, &tl->sched, &tl->vmstat, &tl->mem,
				&tl->reqs, &tl->timeouts, &tl->skips, &tl->stalls, &tl->ctr};
	for (size_t i = 0; i < ARRAY_LEN(rings); i++) {
		free(rings[i]->buf);
		rings[i]->buf = NULL;
	}
	for (int k = 0; k < TL_LINE_SOURCES; k++) {
		free(tl->lines[k].buf);
		tl->lines[k].buf = NULL;
	}
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int32_t kb_to_mb10(int64_t kb)
{
	if (kb < 0)
		return -1;
	double v = (double)kb / 102.4;
	return v > 2e9 ? 2000000000 : (int32_t)(v + 0.5);
}

/* --- per-second request series --- */

static struct tl_sec *sec_bin(struct timeline *tl, int64_t sec)
{
	struct tl_sec *b = &tl->secs[(uint64_t)sec % TL_SECONDS];
	if (b->sec == sec)
		return b;
	if (b->sec > sec)
		return NULL; /* older than the hour we keep */
	memset(b, 0, sizeof *b);
	b->sec = sec;
	b->open = -1;
	return b;
}

static void finalise(struct timeline *tl, int slot)
{
	int64_t sec = tl->open[slot].sec;
	struct tl_sec *b = &tl->secs[(uint64_t)sec % TL_SECONDS];
	if (b->sec == sec && b->open == slot) {
		b->rt_p50 = (float)(hist_quantile(&tl->open[slot].rt, 0.5) / 1e6);
		b->rt_p99 = (float)(hist_quantile(&tl->open[slot].rt, 0.99) / 1e6);
		b->uht_p50 = (float)(hist_quantile(&tl->open[slot].uht, 0.5) / 1e6);
		b->uht_p99 = (float)(hist_quantile(&tl->open[slot].uht, 0.99) / 1e6);
		b->urt_p50 = (float)(hist_quantile(&tl->open[slot].urt, 0.5) / 1e6);
		b->urt_p99 = (float)(hist_quantile(&tl->open[slot].urt, 0.99) / 1e6);
		b->open = -1;
	}
	tl->open[slot].sec = 0;
}

static void add_request_to_series(struct timeline *tl, const struct tl_req *r)
{
	int64_t sec = floor_div(r->start_ms, 1000);
	struct tl_sec *b = sec_bin(tl, sec);
	if (!b)
		return;
	if (tl->req_sec_max == EV_TIME_NONE || sec > tl->req_sec_max)
		tl->req_sec_max = sec;
	if (tl->req_sec_min == EV_TIME_NONE || sec < tl->req_sec_min)
		tl->req_sec_min = sec;
	tl->req_counted.req++;
	tl->req_counted.slow += r->bucket >= 1;
	tl->req_counted.s5xx += r->status >= 500 && r->status <= 599;
	b->req++;
	if (r->status >= 500 && r->status <= 599)
		b->s5xx++;
	if (r->status == 504)
		b->s504++;
	if (r->bucket >= 0)
		b->bucket[r->bucket]++;
	else if (r->uct_s < 0 && !(r->flags & TL_REQ_NO_UCT))
		b->no_connect++;
	if (r->rt_s >= 0)
		b->rt_n++;
	if (r->uht_s >= 0)
		b->uht_n++;
	if (r->rt_s > b->rt_max)
		b->rt_max = r->rt_s;
	if (r->uht_s > b->uht_max)
		b->uht_max = r->uht_s;
	if (r->urt_s >= 0)
		b->urt_n++;
	if (r->urt_s > b->urt_max)
		b->urt_max = r->urt_s;
	/* exact percentiles while the second is recent; a request more than
	 * TL_OPEN_SECONDS late only updates counts and max */
	int slot = (int)((uint64_t)sec % TL_OPEN_SECONDS);
	if (tl->open[slot].sec != sec) {
		if (tl->open[slot].sec > sec)
			return;
		if (tl->open[slot].sec != 0)
			finalise(tl, slot);
		tl->open[slot].sec = sec;
		hist_reset(&tl->open[slot].rt);
		hist_reset(&tl->open[slot].uht);
		hist_reset(&tl->open[slot].urt);
		b->open = (int16_t)slot;
	}
	if (b->open != slot)
		return;
	if (r->rt_s >= 0)
		hist_add(&tl->open[slot].rt, (uint64_t)(r->rt_s * 1e6 + 0.5));
	if (r->uht_s >= 0)
		hist_add(&tl->open[slot].uht, (uint64_t)(r->uht_s * 1e6 + 0.5));
	if (r->urt_s >= 0)
		hist_add(&tl->open[slot].urt, (uint64_t)(r->urt_s * 1e6 + 0.5));
}

const struct tl_sec *timeline_sec(const struct timeline *tl, int64_t sec)
{
	const struct tl_sec *b = &tl->secs[(uint64_t)sec % TL_SECONDS];
	return b->sec == sec ? b : NULL;
}

void timeline_sec_percentiles(const struct timeline *tl, const struct tl_sec *b, float out[4])
{
	if (b->open >= 0 && tl->open[b->open].sec == b->sec) {
		const struct hist *rt = &tl->open[b->open].rt, *uht = &tl->open[b->open].uht;
		out[0] = (float)(hist_quantile(rt, 0.5) / 1e6);
		out[1] = (float)(hist_quantile(rt, 0.99) / 1e6);
		out[2] = (float)(hist_quantile(uht, 0.5) / 1e6);
		out[3] = (float)(hist_quantile(uht, 0.99) / 1e6);
	} else {
		out[0] = b->rt_p50;
		out[1] = b->rt_p99;
		out[2] = b->uht_p50;
		out[3] = b->uht_p99;
	}
}

void timeline_sec_urt(const struct timeline *tl, const struct tl_sec *b, float out[2])
{
	if (b->open >= 0 && tl->open[b->open].sec == b->sec) {
		out[0] = (float)(hist_quantile(&tl->open[b->open].urt, 0.5) / 1e6);
		out[1] = (float)(hist_quantile(&tl->open[b->open].urt, 0.99) / 1e6);
	} else {
		out[0] = b->urt_p50;
		out[1] = b->urt_p99;
	}
}

/* --- push --- */

static void note_time(struct timeline *tl, int64_t t)
{
	if (tl->newest_ms == EV_TIME_NONE || t > tl->newest_ms)
		tl->newest_ms = t;
	if (tl->oldest_ms == EV_TIME_NONE || t < tl->oldest_ms)
		tl->oldest_ms = t;
}

int8_t timeline_bucket(double uct_ms)
{
	if (uct_ms < 0)
		return -1;
	double b = floor(uct_ms / 1000.0 + 0.5);
	return (int8_t)(b >= 4 ? 4 : b);
}

static void push_heap(struct timeline *tl, const struct event *e, int64_t after_kb, int64_t committed_kb)
{
	struct tl_heap *h = ring_push(&tl->heap, tl->keep.from_ms);
	if (!h)
		return;
	h->t_ms = e->t_ms;
	h->used_mb10 = kb_to_mb10(after_kb);
	h->committed_mb10 = kb_to_mb10(committed_kb);
	h->src = e->src;
	h->line = e->line;
}

static bool push_stop(struct timeline *tl, const struct event *e)
{
	/* zeroed here, where its size is known: a few stores instead of a call
	 * to memset per stop (every second line of a JDK 8 log) */
	struct tl_stop *s = ring_slot(&tl->stops, tl->keep.from_ms);
	if (!s)
		return false;
	memset(s, 0, sizeof *s);
	s->end_ms = e->t_ms;
	s->start_ms = ev_start_ms(e);
	s->total_ms = (float)e->u.sp.total_ms;
	s->ttsp_ms = (float)e->u.sp.ttsp_ms;
	s->op_ms = (float)e->u.sp.at_ms;
	s->spin_ms = (float)e->u.sp.spin_ms;
	s->block_ms = (float)e->u.sp.block_ms;
	s->src = e->src;
	s->line = e->line;
	s->flags = 0;
	s->read_ms = 0;
	if (e->u.sp.form == SP_COUNTERS) {
		s->flags = TL_STOP_COUNTERS | (e->u.sp.bounds ? TL_STOP_SEVERAL : 0);
		s->read_ms = (float)e->u.sp.read_ms;
	} else {
		tl->log_stops++;
	}
	memcpy(s->op, e->u.sp.op, sizeof s->op);
	if (s->end_ms - s->start_ms > tl->stop_span_max_ms)
		tl->stop_span_max_ms = s->end_ms - s->start_ms;
	note_time(tl, s->start_ms);
	return true;
}

static bool push_pause(struct timeline *tl, const struct event *e)
{
	struct tl_pause *p = ring_push(&tl->pauses, tl->keep.from_ms);
	if (!p)
		return false;
	p->t_ms = e->t_ms;
	p->dur_ms = (float)e->u.pause.dur_ms;
	p->before_mb10 = kb_to_mb10(e->u.pause.before_kb);
	p->after_mb10 = kb_to_mb10(e->u.pause.after_kb);
	p->committed_mb10 = kb_to_mb10(e->u.pause.committed_kb);
	p->type = e->u.pause.type;
	p->collector = e->u.pause.collector;
	p->flags = e->u.pause.flags;
	p->src = e->src;
	p->line = e->line;
	if ((int64_t)p->dur_ms > tl->pause_span_max_ms)
		tl->pause_span_max_ms = (int64_t)p->dur_ms;
	memcpy(p->title, e->u.pause.title, sizeof p->title);
	memcpy(p->cause, e->u.pause.cause, sizeof p->cause);
	if ((e->u.pause.flags & PAUSE_F_HEAP) && e->u.pause.after_kb >= 0)
		push_heap(tl, e, e->u.pause.after_kb, e->u.pause.committed_kb);
	return true;
}

static bool push_request(struct timeline *tl, const struct event *e)
{
	struct tl_req *r = ring_push(&tl->reqs, tl->keep.reqs_from_ms);
	if (!r)
		return false;
	r->end_ms = e->t_ms;
	r->start_ms = ev_start_ms(e);
	r->rt_s = e->u.http.rt_ms >= 0 ? (float)(e->u.http.rt_ms / 1000.0) : -1.f;
	r->uct_s = e->u.http.uct_ms >= 0 ? (float)(e->u.http.uct_ms / 1000.0) : -1.f;
	r->uht_s = e->u.http.uht_ms >= 0 ? (float)(e->u.http.uht_ms / 1000.0) : -1.f;
	r->urt_s = e->u.http.urt_ms >= 0 ? (float)(e->u.http.urt_ms / 1000.0) : -1.f;
	r->status = e->u.http.status;
	r->bucket = timeline_bucket(e->u.http.uct_ms);
	r->flags = (uint8_t)((e->u.http.t_exact ? TL_REQ_EXACT : 0) |
			     (e->u.http.lacks & EV_HTTP_NO_RT ? TL_REQ_NO_RT : 0) |
			     (e->u.http.lacks & EV_HTTP_NO_UCT ? TL_REQ_NO_UCT : 0) |
			     (e->u.http.lacks & EV_HTTP_NO_UHT ? TL_REQ_NO_UHT : 0));
	r->line = e->line;
	if (r->end_ms - r->start_ms > tl->req_span_max_ms)
		tl->req_span_max_ms = r->end_ms - r->start_ms;
	if (tl->reqs.total == 1 || r->end_ms > tl->req_end_max_ms)
		tl->req_end_max_ms = r->end_ms;
	else if (tl->req_end_max_ms - r->end_ms > tl->req_disorder_max_ms)
		tl->req_disorder_max_ms = tl->req_end_max_ms - r->end_ms;
	add_request_to_series(tl, r);
	note_time(tl, r->start_ms);
	return true;
}

void timeline_push(struct timeline *tl, const struct event *e)
{
	if (e->t_ms == EV_TIME_NONE)
		return;
	switch (e->kind) {
	case EV_SAFEPOINT:
		if (!push_stop(tl, e))
			return;
		break;
	case EV_GC_PAUSE:
		if (!push_pause(tl, e))
			return;
		break;
	case EV_GC_CYCLE:
		if (e->u.cycle.after_kb >= 0)
			push_heap(tl, e, e->u.cycle.after_kb, e->u.cycle.committed_kb);
		break;
	case EV_CPU: {
		struct tl_cpu *c = ring_push(&tl->cpu, tl->keep.from_ms);
		if (!c)
			return;
		c->t_ms = e->t_ms;
		c->nr_periods = e->u.cpu.nr_periods;
		c->nr_throttled = e->u.cpu.nr_throttled;
		c->throttled_us = e->u.cpu.throttled_us;
		c->usage_us = e->u.cpu.usage_us;
		c->quota_us = e->u.cpu.quota_us;
		c->period_us = e->u.cpu.period_us;
		c->src = e->src;
		break;
	}
	case EV_SCHED: {
		struct tl_sched *s = ring_push(&tl->sched, tl->keep.from_ms);
		if (!s)
			return;
		s->t_ms = e->t_ms;
		s->interval_ms = (float)e->u.sched.interval_ms;
		s->oncpu_ms = (float)e->u.sched.oncpu_ms;
		s->wait_ms = (float)e->u.sched.wait_ms;
		s->idle_ms = (float)e->u.sched.idle_ms;
		s->worst_wait_ms = (float)e->u.sched.worst_wait_ms;
		s->nthreads = e->u.sched.nthreads;
		s->worst_tid = e->u.sched.worst_tid;
		memcpy(s->worst_comm, e->u.sched.worst_comm, sizeof s->worst_comm);
		break;
	}
	case EV_VMSTAT: {
		struct tl_vmstat *v = ring_push(&tl->vmstat, tl->keep.from_ms);
		if (!v)
			return;
		v->t_ms = e->t_ms;
		v->allocstall = e->u.vm.allocstall;
		v->pageoutrun = e->u.vm.pageoutrun;
		break;
	}
	case EV_MEM: {
		struct tl_mem *m = ring_push(&tl->mem, tl->keep.from_ms);
		if (!m)
			return;
		m->t_ms = e->t_ms;
		m->usage_bytes = e->u.mem.usage_bytes;
		m->limit_bytes = e->u.mem.limit_bytes;
		break;
	}
	case EV_HTTP:
		if (!push_request(tl, e))
			return;
		break;
	case EV_JVMCTR: {
		struct tl_ctr *c = ring_push(&tl->ctr, tl->keep.from_ms);
		if (!c)
			return;
		const struct ev_jvmctr *x = &e->u.ctr;
		c->t_ms = e->t_ms;
		c->interval_ms = (float)x->interval_ms;
		c->used_mb = x->heap_used >= 0 ? (float)(x->heap_used / 1048576.0) : -1.f;
		c->committed_mb = x->heap_committed >= 0 ? (float)(x->heap_committed / 1048576.0) : -1.f;
		c->gc_ms = (float)x->gc_ms;
		c->stop_ms = (float)x->stop_ms;
		c->ttsp_ms = (float)x->ttsp_ms;
		c->stop_max_ms = (float)x->stop_max_ms;
		c->stop_max_ttsp_ms = (float)x->stop_max_ttsp_ms;
		c->safepoints = x->safepoints;
		c->gcs = (uint16_t)(x->gcs > 0 ? (x->gcs > UINT16_MAX ? UINT16_MAX : x->gcs) : 0);
		c->full_gcs = (uint16_t)(x->full_gcs > 0 ? (x->full_gcs > UINT16_MAX ? UINT16_MAX : x->full_gcs) : 0);
		break;
	}
	case EV_SP_TIMEOUT: {
		struct tl_timeout *t = ring_push(&tl->timeouts, tl->keep.from_ms);
		if (!t)
			return;
		t->t_ms = e->t_ms;
		t->src = e->src;
		t->line = e->line;
		t->nthreads = e->u.spt.nthreads;
		memcpy(t->threads, e->u.spt.threads, sizeof t->threads);
		break;
	}
	case EV_PERIODIC_SKIP: {
		struct tl_skip *k = ring_push(&tl->skips, tl->keep.from_ms);
		if (!k)
			return;
		k->t_ms = e->t_ms;
		k->last_gc_ms = e->u.pskip.last_gc_ms;
		k->threshold_ms = e->u.pskip.threshold_ms;
		k->reason = e->u.pskip.reason;
		break;
	}
	case EV_ALLOC_STALL: {
		struct tl_stall *s = ring_push(&tl->stalls, tl->keep.from_ms);
		if (!s)
			return;
		s->t_ms = e->t_ms;
		s->dur_ms = (float)e->u.stall.dur_ms;
		memcpy(s->thread, e->u.stall.thread, sizeof s->thread);
		break;
	}
	default:
		break;
	}
	note_time(tl, e->t_ms);
}

void timeline_push_line(struct timeline *tl, uint16_t src, uint64_t line_no, int64_t t_ms,
			const char *text, size_t len)
{
	if (!tl->keep_lines)
		return;
	struct tl_line *l = ring_push(&tl->lines[src < TL_LINE_SOURCES ? src : TL_LINE_SOURCES - 1], tl->keep.from_ms);
	if (!l)
		return;
	l->t_ms = t_ms;
	l->src = src;
	l->line = line_no;
	l->len = (uint16_t)util_strlcpy_n(l->text, sizeof l->text, text, len);
}

const struct tl_line *timeline_line(const struct timeline *tl, uint64_t ref)
{
	unsigned k = (unsigned)(ref >> 56);
	if (k >= TL_LINE_SOURCES)
		return NULL;
	return ring_at(&tl->lines[k], ref & ((1ull << 56) - 1));
}

/* --- queries --- */

uint64_t timeline_lower_bound(const struct ring *r, int64_t t)
{
	uint64_t lo = ring_first(r), hi = r->total;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		/* first <= mid < total: ring_at()'s checks cannot fail here, and
		 * 16 probes of a full stops ring per query made them show */
		int64_t tm;
		memcpy(&tm, r->buf + (size_t)(mid & (r->cap - 1)) * r->elem, sizeof tm);
		if (tm < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* --- stops --- */

bool timeline_stops_are_pauses(const struct timeline *tl)
{
	return tl->log_stops == 0 && (tl->pauses.total > 0 || tl->stops.total == 0);
}

bool timeline_stops_from_log(const struct timeline *tl)
{
	return tl->log_stops > 0;
}

bool timeline_stops_from_counters(const struct timeline *tl)
{
	return tl->log_stops == 0 && tl->pauses.total == 0 && tl->ctr.total > 0;
}

/* A JVM followed without a safepoint log (nor a GC log) still tells how long
 * it stopped, through its counters: the probe reads them every HSPERF_STEP_MS
 * and each interval's event carries the longest stop that ended in it, its
 * own length and time to safepoint or lower bounds of them (hsperf.h,
 * hsperf_stops_step). timeline_counter_stop turns that into one SP_COUNTERS stop at
 * the read that saw it end, so incidents, ttsp-spike and
 * cpu-throttled-during-stop judge it like a logged one, and the verdicts say
 * where it came from and how exact it is. It is never recorded (the counters
 * are) nor counted in the summary's stops (those are logged ones); once a
 * safepoint log gave a stop, the log wins and the counters make none. */
bool timeline_counter_stop(const struct timeline *tl, const struct event *c, struct event *out)
{
	const struct ev_jvmctr *x = &c->u.ctr;
	if (x->stop_max_ms <= 0 || x->stop_max_end < 0 || tl->log_stops > 0)
		return false;
	ev_init(out, EV_SAFEPOINT);
	out->src = c->src;
	out->line = 0;
	out->t_ms = x->stop_max_end;
	struct ev_safepoint *sp = &out->u.sp;
	bool exact = x->stop_max_exact == 1;
	sp->form = SP_COUNTERS;
	sp->read_ms = x->stop_max_window_ms > 0 ? x->stop_max_window_ms : x->interval_ms;
	sp->bounds = !exact;
	sp->total_ms = x->stop_max_ms;
	sp->ttsp_ms = x->stop_max_ttsp_ms >= 0 ? x->stop_max_ttsp_ms : -1;
	if (exact && sp->ttsp_ms >= 0)
		sp->at_ms = sp->total_ms - sp->ttsp_ms;
	snprintf(sp->op, sizeof sp->op, "%s", exact ? "stop (JVM counters)" : "longest of several (JVM counters)");
	return true;
}

static void stopref_of(const struct timeline *tl, bool pauses, uint64_t idx, const void *rec,
		       struct tl_stopref *o)
{
	(void)tl;
	o->idx = idx;
	if (!pauses) {
		const struct tl_stop *s = rec;
		o->start_ms = s->start_ms;
		o->end_ms = s->end_ms;
		o->total_ms = s->total_ms;
		o->ttsp_ms = s->ttsp_ms;
		o->what = s->op;
		o->src = s->src;
		o->line = s->line;
		o->stop = s;
		o->pause = NULL;
		return;
	}
	const struct tl_pause *p = rec;
	o->end_ms = p->t_ms;
	o->start_ms = p->t_ms - (int64_t)p->dur_ms;
	o->total_ms = p->dur_ms;
	o->ttsp_ms = -1;
	o->what = p->title;
	o->src = p->src;
	o->line = p->line;
	o->stop = NULL;
	o->pause = p;
}

void timeline_stops_begin(struct tl_stop_iter *it, const struct timeline *tl, int64_t a, int64_t b,
			  double min_ms)
{
	it->tl = tl;
	it->pauses = timeline_stops_are_pauses(tl);
	it->r = it->pauses ? &tl->pauses : &tl->stops;
	it->a = a;
	it->b = b;
	it->min_ms = min_ms;
	if (it->pauses) {
		/* the pauses ring is ordered by end: one overlapping a ends at or after it */
		it->i = timeline_lower_bound(it->r, a);
		return;
	}
	/* The stops ring is keyed by start but pushed in the order stops end, so
	 * starts are sorted only to within the longest stop (span): a stop
	 * overlapping a begins at or after a - span, and the binary search lands
	 * before every such stop when it looks from a - 2 x span. Scanning from
	 * 60 s back (the longest stop the rules look for) visited a minute of
	 * stops per judgement to use a few. */
	int64_t span = tl->stop_span_max_ms;
	int64_t back = span < 30000 ? 2 * span + 1 : 60000;
	it->i = timeline_lower_bound(it->r, a - back);
}

void timeline_pauses_begin(struct tl_stop_iter *it, const struct timeline *tl, int64_t a, int64_t b,
			   double min_ms)
{
	it->tl = tl;
	it->pauses = true;
	it->r = &tl->pauses;
	it->a = a;
	it->b = b;
	it->min_ms = min_ms;
	it->i = timeline_lower_bound(it->r, a);
}

bool timeline_stops_next(struct tl_stop_iter *it, struct tl_stopref *out)
{
	while (it->i < it->r->total) {
		uint64_t idx = it->i++;
		const void *rec = ring_at(it->r, idx);
		if (!rec)
			continue;
		stopref_of(it->tl, it->pauses, idx, rec, out);
		if (out->start_ms > it->b) {
			/* stops are pushed by end: past the window once one starts
			 * after it; a later pause can still have started inside it
			 * when it is longer than the gap, never more than the longest
			 * pause earlier */
			if (!it->pauses || out->start_ms > it->b + it->tl->pause_span_max_ms) {
				it->i = it->r->total;
				return false;
			}
			continue;
		}
		if (out->end_ms < it->a || out->total_ms < it->min_ms)
			continue;
		return true;
	}
	return false;
}

bool timeline_stop_at(const struct timeline *tl, uint64_t idx, struct tl_stopref *out)
{
	bool pauses = timeline_stops_are_pauses(tl);
	const void *rec = ring_at(pauses ? &tl->pauses : &tl->stops, idx);
	if (!rec)
		return false;
	stopref_of(tl, pauses, idx, rec, out);
	return true;
}

bool timeline_cpu_delta(const struct timeline *tl, int64_t a, int64_t b, struct tl_cpu_delta *out)
{
	const struct ring *r = &tl->cpu;
	if (r->total == 0)
		return false;
	uint64_t i = timeline_lower_bound(r, a);
	/* last sample at or before a */
	const struct tl_cpu *from = NULL, *to = NULL;
	if (i < r->total) {
		const struct tl_cpu *c = ring_at(r, i);
		if (c->t_ms == a)
			from = c;
	}
	if (!from && i > ring_first(r))
		from = ring_at(r, i - 1);
	if (!from)
		return false;
	uint64_t j = timeline_lower_bound(r, b);
	if (j >= r->total)
		return false;
	to = ring_at(r, j);
	if (to->t_ms < from->t_ms || from->throttled_us < 0 || to->throttled_us < 0)
		return false;
	memset(out, 0, sizeof *out);
	out->from_ms = from->t_ms;
	out->to_ms = to->t_ms;
	out->periods = to->nr_periods >= 0 && from->nr_periods >= 0 ? to->nr_periods - from->nr_periods : -1;
	out->throttled =
		to->nr_throttled >= 0 && from->nr_throttled >= 0 ? to->nr_throttled - from->nr_throttled : -1;
	out->throttled_us = to->throttled_us - from->throttled_us;
	if (out->throttled_us < 0) /* counter reset: a new cgroup */
		out->throttled_us = to->throttled_us;
	out->quota_us = to->quota_us;
	out->period_us = to->period_us;
	return true;
}

bool timeline_sched_sum(const struct timeline *tl, int64_t a, int64_t b, struct tl_sched_sum *out)
{
	const struct ring *r = &tl->sched;
	memset(out, 0, sizeof *out);
	out->worst_tid = -1;
	out->from_ms = EV_TIME_NONE;
	out->idle_ms = -1;
	if (r->total == 0)
		return false;
	/* an interval (t - interval, t] overlaps [a, b] when t > a and t - interval < b */
	for (uint64_t i = timeline_lower_bound(r, a); i < r->total; i++) {
		const struct tl_sched *s = ring_at(r, i);
		int64_t start = s->t_ms - (int64_t)s->interval_ms;
		if (start >= b)
			break;
		if (s->t_ms <= a && !(s->t_ms == a && a == b))
			continue;
		if (out->from_ms == EV_TIME_NONE)
			out->from_ms = start;
		out->to_ms = s->t_ms;
		out->oncpu_ms += s->oncpu_ms;
		out->wait_ms += s->wait_ms;
		if (s->idle_ms >= 0)
			out->idle_ms = (out->idle_ms < 0 ? 0 : out->idle_ms) + s->idle_ms;
		out->n++;
		if (s->worst_wait_ms > out->worst_wait_ms) {
			out->worst_wait_ms = s->worst_wait_ms;
			out->worst_tid = s->worst_tid;
			memcpy(out->worst_comm, s->worst_comm, sizeof out->worst_comm);
		}
	}
	return out->n > 0;
}

bool timeline_vmstat_delta(const struct timeline *tl, int64_t a, int64_t b, int64_t *allocstall,
			   int64_t *pageoutrun)
{
	const struct ring *r = &tl->vmstat;
	if (r->total == 0)
		return false;
	uint64_t i = timeline_lower_bound(r, a);
	const struct tl_vmstat *from = NULL;
	if (i < r->total && ((const struct tl_vmstat *)ring_at(r, i))->t_ms == a)
		from = ring_at(r, i);
	else if (i > ring_first(r))
		from = ring_at(r, i - 1);
	uint64_t j = timeline_lower_bound(r, b);
	if (!from || j >= r->total)
		return false;
	const struct tl_vmstat *to = ring_at(r, j);
	*allocstall = (to->allocstall >= 0 && from->allocstall >= 0) ? to->allocstall - from->allocstall : -1;
	*pageoutrun = (to->pageoutrun >= 0 && from->pageoutrun >= 0) ? to->pageoutrun - from->pageoutrun : -1;
	return true;
}

bool timeline_vmstat_bracket(const struct timeline *tl, int64_t a, int64_t b, int64_t *from, int64_t *to)
{
	const struct ring *r = &tl->vmstat;
	if (r->total == 0)
		return false;
	uint64_t i = timeline_lower_bound(r, a);
	const struct tl_vmstat *f = NULL;
	if (i < r->total && ((const struct tl_vmstat *)ring_at(r, i))->t_ms == a)
		f = ring_at(r, i);
	else if (i > ring_first(r))
		f = ring_at(r, i - 1);
	uint64_t j = timeline_lower_bound(r, b);
	if (!f || j >= r->total)
		return false;
	*from = f->t_ms;
	*to = ((const struct tl_vmstat *)ring_at(r, j))->t_ms;
	return true;
}

/* requests are in end order; one that started in [a, b) ended in [a, b + longest) */
#define REQ_SCAN_SLACK_MS (10 * 60 * 1000)

/* Reading on past b + 10 minutes, as before, visited every request of the
 * horizon for every judgement of an open incident (a fifth of an nginx replay);
 * a request beyond b + longest + disorder cannot have started before b. */
int64_t timeline_req_scan_slack(const struct timeline *tl)
{
	int64_t slack = tl->req_span_max_ms + tl->req_disorder_max_ms + 1;
	return slack > 0 && slack < REQ_SCAN_SLACK_MS ? slack : REQ_SCAN_SLACK_MS;
}

void timeline_reqs_begin(struct tl_req_iter *it, const struct timeline *tl, int64_t a, int64_t b)
{
	it->tl = tl;
	it->a = a;
	it->b = b;
	it->end_limit = b + timeline_req_scan_slack(tl);
	it->i = timeline_lower_bound(&tl->reqs, a);
}

const struct tl_req *timeline_reqs_next(struct tl_req_iter *it)
{
	const struct ring *r = &it->tl->reqs;
	while (it->i < r->total) {
		const struct tl_req *q = ring_at(r, it->i++);
		if (!q)
			continue;
		if (q->end_ms >= it->end_limit) {
			it->i = r->total;
			return NULL;
		}
		if (q->start_ms >= it->a && q->start_ms < it->b)
			return q;
	}
	return NULL;
}

int64_t timeline_req_settled_sec(const struct timeline *tl)
{
	if (tl->reqs.total == 0)
		return EV_TIME_NONE;
	int64_t lag = tl->req_span_max_ms + tl->req_disorder_max_ms;
	if (lag < 0 || lag > REQ_SCAN_SLACK_MS)
		lag = REQ_SCAN_SLACK_MS;
	/* second S is complete once all still to come start at or after its end */
	return floor_div(tl->req_end_max_ms - lag, 1000) - 1;
}

void timeline_req_count_upto(const struct timeline *tl, int64_t sec, struct tl_req_count *out)
{
	*out = tl->req_counted;
	if (tl->req_sec_max == EV_TIME_NONE)
		return;
	int64_t from = sec + 1;
	if (from < tl->req_sec_max - TL_SECONDS + 1)
		from = tl->req_sec_max - TL_SECONDS + 1;
	for (int64_t s = from; s <= tl->req_sec_max; s++) {
		const struct tl_sec *b = timeline_sec(tl, s);
		if (!b)
			continue;
		out->req -= b->req;
		out->slow -= (uint64_t)b->bucket[1] + b->bucket[2] + b->bucket[3] + b->bucket[4];
		out->s5xx -= b->s5xx;
	}
}

void timeline_req_sum(const struct timeline *tl, int64_t a, int64_t b, struct tl_req_sum *out)
{
	struct tl_req_iter it;
	const struct tl_req *q;
	memset(out, 0, sizeof *out);
	out->first_slow_start = out->last_slow_start = out->max_uht_b0_start = EV_TIME_NONE;
	timeline_reqs_begin(&it, tl, a, b);
	while ((q = timeline_reqs_next(&it))) {
		out->n++;
		if (q->bucket >= 0)
			out->bucket[q->bucket]++;
		else if (q->uct_s < 0 && !(q->flags & TL_REQ_NO_UCT))
			out->no_connect++;   /* "-": a format without the variable says nothing */
		if (q->status >= 500 && q->status <= 599)
			out->s5xx++;
		if (q->status == 504)
			out->s504++;
		if (q->bucket == 0 && q->uht_s > out->max_uht_b0) {
			out->max_uht_b0 = q->uht_s;
			out->max_uht_b0_start = q->start_ms;
		}
		if (q->rt_s > out->max_rt)
			out->max_rt = q->rt_s;
		if (q->bucket >= 1) {
			if (out->first_slow_start == EV_TIME_NONE || q->start_ms < out->first_slow_start)
				out->first_slow_start = q->start_ms;
			if (out->last_slow_start == EV_TIME_NONE || q->start_ms > out->last_slow_start)
				out->last_slow_start = q->start_ms;
		}
	}
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

double timeline_req_rate(const struct timeline *tl, int64_t a, int64_t b)
{
	uint32_t counts[TL_SECONDS];
	int n = 0;
	bool started = false;
	for (int64_t sec = floor_div(a, 1000); sec < floor_div(b, 1000) && n < TL_SECONDS; sec++) {
		const struct tl_sec *s = timeline_sec(tl, sec);
		uint32_t c = s ? s->req : 0;
		if (!started && c == 0)
			continue;
		started = true;
		counts[n++] = c;
	}
	if (n == 0)
		return 0;
	qsort(counts, (size_t)n, sizeof counts[0], cmp_u32);
	return n % 2 ? counts[n / 2] : (counts[n / 2 - 1] + counts[n / 2]) / 2.0;
}
