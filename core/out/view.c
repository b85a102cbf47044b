/* SPDX-License-Identifier: GPL-2.0-or-later */
/* view.c — the numbers behind the dashboard's panes (view.h), computed from the
 * timeline with no curses, so they are unit-tested on the real recordings. */
#include "stwtop/view.h"
#include "stwtop/report.h"
#include "stwtop/rules.h"
#include "stwtop/util.h"

#include <stdlib.h>
#include <string.h>

/* stops and pauses are looked for this long before the window: a stop that
 * began earlier may still overlap it (the field notes show 9.5 s stops) */

int64_t view_floor(int64_t t, int64_t res)
{
	if (res <= 0)
		return t;
	int64_t q = t / res;
	if (t % res != 0 && t < 0)
		q--;
	return q * res;
}

int64_t view_col_start(const struct view_axis *a, int col)
{
	return a->end_ms - (int64_t)(a->ncols - col) * a->res_ms;
}

int view_col_of(const struct view_axis *a, int64_t t)
{
	int64_t start = view_col_start(a, 0);
	int64_t d = t - start;
	int64_t c = d >= 0 ? d / a->res_ms : -((-d + a->res_ms - 1) / a->res_ms);
	if (c < -1)
		c = -1;
	if (c > a->ncols)
		c = a->ncols;
	return (int)c;
}

/* The records of a ring that fall in the axis' window, each with its column:
 * the walk every per-column view of events makes. Every record of the
 * timeline begins with its int64_t t_ms (timeline.h), which the walk reads. */
struct col_walk {
	const struct ring *r;
	const struct view_axis *a;
	int64_t w0;
	uint64_t i;
};

static void col_walk_init(struct col_walk *w, const struct ring *r, const struct view_axis *a)
{
	w->r = r;
	w->a = a;
	w->w0 = view_col_start(a, 0);
	w->i = timeline_lower_bound(r, w->w0);
}

static const void *col_walk_next(struct col_walk *w, int *col)
{
	for (; w->i < w->r->total; w->i++) {
		const void *rec = ring_at(w->r, w->i);
		int64_t t;
		if (!rec)
			continue;
		memcpy(&t, rec, sizeof t);
		if (t < w->w0)
			continue;
		if (t >= w->a->end_ms)
			break;
		int c = view_col_of(w->a, t);
		if (c < 0 || c >= w->a->ncols)
			continue;
		w->i++;
		*col = c;
		return rec;
	}
	w->i = w->r->total;
	return NULL;
}

/* The index of the newest sample of r at or before t, stepping forward from
 * *i (samples are in time order; a walk over the columns moves t forward) */
static uint64_t sample_at(const struct ring *r, uint64_t i, int64_t t)
{
	while (i + 1 < r->total) {
		int64_t nt;
		const void *nx = ring_at(r, i + 1);
		if (!nx)
			break;
		memcpy(&nt, nx, sizeof nt);
		if (nt > t)
			break;
		i++;
	}
	return i;
}

/* --- stops --- */

bool view_stops_from_pauses(const struct timeline *tl)
{
	return timeline_stops_are_pauses(tl);
}

static void view_stop_of(const struct tl_stopref *r, struct view_stop *out)
{
	memset(out, 0, sizeof *out);
	out->start_ms = r->start_ms;
	out->end_ms = r->end_ms;
	out->total_ms = r->total_ms;
	out->ttsp_ms = r->ttsp_ms;
	out->src = r->src;
	out->line = r->line;
	util_strlcpy_n(out->op, sizeof out->op, r->what, strnlen(r->what, sizeof out->op));
	if (!out->op[0])
		snprintf(out->op, sizeof out->op, "stop");
}

bool view_stop_get(const struct timeline *tl, uint64_t idx, struct view_stop *out)
{
	struct tl_stopref r;
	memset(out, 0, sizeof *out);
	if (!timeline_stop_at(tl, idx, &r))
		return false;
	view_stop_of(&r, out);
	return true;
}

/* Calls fn for every stop (or pause) that overlaps [a, b). */
typedef void (*stop_fn)(void *ctx, uint64_t idx, const struct view_stop *s);

static void each_stop(const struct timeline *tl, int64_t a, int64_t b, stop_fn fn, void *ctx)
{
	struct tl_stop_iter it;
	struct tl_stopref r;
	timeline_stops_begin(&it, tl, a, b - 1, 0);
	while (timeline_stops_next(&it, &r)) {
		struct view_stop s;
		view_stop_of(&r, &s);
		fn(ctx, r.idx, &s);
	}
}

struct stops_ctx {
	const struct view_axis *a;
	struct view_stop_col *cols;
	int n;
};

static void stop_to_cols(void *ctx, uint64_t idx, const struct view_stop *s)
{
	struct stops_ctx *c = ctx;
	int first = view_col_of(c->a, s->start_ms);
	/* a stop ending exactly on a column boundary does not reach into that column */
	int last = view_col_of(c->a, s->end_ms > s->start_ms ? s->end_ms - 1 : s->end_ms);
	c->n++;
	if (first >= 0 && first < c->a->ncols)
		c->cols[first].nstart++;
	if (first < 0)
		first = 0;
	if (last >= c->a->ncols)
		last = c->a->ncols - 1;
	for (int k = first; k <= last; k++) {
		struct view_stop_col *col = &c->cols[k];
		if (s->total_ms > col->total_ms) {
			col->total_ms = s->total_ms;
			col->ttsp_ms = s->ttsp_ms;
			col->idx = idx;
		}
	}
}

int view_stops(const struct timeline *tl, const struct view_axis *a, struct view_stop_col *cols)
{
	for (int i = 0; i < a->ncols; i++)
		cols[i] = (struct view_stop_col){.total_ms = 0, .ttsp_ms = -1, .nstart = 0, .idx = 0};
	struct stops_ctx c = {.a = a, .cols = cols};
	if (a->ncols > 0)
		each_stop(tl, view_col_start(a, 0), a->end_ms, stop_to_cols, &c);
	return c.n;
}

struct worst_ctx {
	struct view_stop *out;
	int cap, n;
	int64_t a, b;
};

static void stop_to_worst(void *ctx, uint64_t idx, const struct view_stop *s)
{
	struct worst_ctx *w = ctx;
	(void)idx;
	if (s->start_ms < w->a || s->start_ms >= w->b)
		return;
	/* insertion into a short list kept longest first */
	int pos = w->n;
	while (pos > 0 && w->out[pos - 1].total_ms < s->total_ms)
		pos--;
	if (pos >= w->cap)
		return;
	int last = w->n < w->cap ? w->n : w->cap - 1;
	memmove(&w->out[pos + 1], &w->out[pos], (size_t)(last - pos) * sizeof *w->out);
	w->out[pos] = *s;
	if (w->n < w->cap)
		w->n++;
}

int view_worst_stops(const struct timeline *tl, int64_t a, int64_t b, struct view_stop *out, int n)
{
	struct worst_ctx w = {.out = out, .cap = n, .a = a, .b = b};
	if (n > 0)
		each_stop(tl, a, b, stop_to_worst, &w);
	return w.n;
}

/* --- CPU --- */

/* A cumulative counter at time t, interpolated between the samples around it. */
struct cum {
	bool ok;
	double throttled_us, nr_throttled, nr_periods;
};

static struct cum cpu_at(const struct tl_cpu *p, const struct tl_cpu *q, int64_t t)
{
	struct cum c = {0};
	if (!p || !q || p->throttled_us < 0 || q->throttled_us < 0)
		return c;
	double f = q->t_ms > p->t_ms ? (double)(t - p->t_ms) / (double)(q->t_ms - p->t_ms) : 1.0;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	/* a counter that went down is a new cgroup: it restarted from zero at q */
	double pt = q->throttled_us >= p->throttled_us ? (double)p->throttled_us : 0;
	double pn = q->nr_throttled >= p->nr_throttled ? (double)p->nr_throttled : 0;
	double pp = q->nr_periods >= p->nr_periods ? (double)p->nr_periods : 0;
	c.ok = true;
	c.throttled_us = pt + f * ((double)q->throttled_us - pt);
	c.nr_throttled = pn + f * ((double)q->nr_throttled - pn);
	c.nr_periods = pp + f * ((double)q->nr_periods - pp);
	return c;
}

static void cpu_cols(const struct timeline *tl, const struct view_axis *a, struct view_cpu_col *cols,
		     struct view_cpu_info *info)
{
	const struct ring *r = &tl->cpu;
	if (r->total == 0)
		return;
	info->have_cpu = true;
	const struct tl_cpu *newest = ring_at(r, r->total - 1);
	if (newest) {
		info->quota_us = newest->quota_us;
		info->period_us = newest->period_us;
	}
	uint64_t first = ring_first(r);
	uint64_t i = timeline_lower_bound(r, view_col_start(a, 0));
	if (i > first)
		i--;
	struct cum prev = {0};
	for (int c = 0; c <= a->ncols; c++) {
		int64_t t = view_col_start(a, c);
		i = sample_at(r, i, t); /* samples p <= t <= q */
		const struct tl_cpu *p = ring_at(r, i), *q = NULL;
		struct cum now = {0};
		if (p && p->t_ms == t)
			q = p;
		else if (p && p->t_ms < t && i + 1 < r->total)
			q = ring_at(r, i + 1);
		if (p && q && p->t_ms <= t)
			now = cpu_at(p, q, t);
		if (c > 0 && prev.ok && now.ok) {
			struct view_cpu_col *col = &cols[c - 1];
			double d = now.throttled_us - prev.throttled_us;
			col->throttled_ms = (float)(d > 0 ? d / 1000.0 : 0);
			double dn = now.nr_throttled - prev.nr_throttled, dp = now.nr_periods - prev.nr_periods;
			col->nr_throttled = (float)(dn > 0 ? dn : 0);
			col->nr_periods = (float)(dp > 0 ? dp : 0);
		}
		prev = now;
	}
}

static void sched_cols(const struct timeline *tl, const struct view_axis *a, struct view_cpu_col *cols)
{
	const struct ring *r = &tl->sched;
	if (r->total == 0 || a->ncols <= 0)
		return;
	int64_t w0 = view_col_start(a, 0), w1 = a->end_ms;
	/* intervals are ~1 s; one ending up to a minute after w0 may still start before it */
	for (uint64_t i = timeline_lower_bound(r, w0); i < r->total; i++) {
		const struct tl_sched *s = ring_at(r, i);
		if (!s)
			continue;
		int64_t end = s->t_ms, start = s->t_ms - (int64_t)(s->interval_ms + 0.5f);
		if (start >= w1 + 60000)
			break;
		if (end <= w0 || start >= w1 || end <= start)
			continue;
		double len = (double)(end - start);
		int c0 = view_col_of(a, start), c1 = view_col_of(a, end - 1);
		if (c0 < 0)
			c0 = 0;
		if (c1 >= a->ncols)
			c1 = a->ncols - 1;
		for (int c = c0; c <= c1; c++) {
			int64_t cs = view_col_start(a, c), ce = cs + a->res_ms;
			int64_t os = cs > start ? cs : start, oe = ce < end ? ce : end;
			if (oe <= os)
				continue;
			double f = (double)(oe - os) / len;
			struct view_cpu_col *col = &cols[c];
			if (col->oncpu_ms < 0)
				col->oncpu_ms = col->wait_ms = 0;
			col->oncpu_ms += (float)(s->oncpu_ms * f);
			col->wait_ms += (float)(s->wait_ms * f);
		}
	}
}

static void vmstat_cols(const struct timeline *tl, const struct view_axis *a, struct view_cpu_col *cols)
{
	const struct ring *r = &tl->vmstat;
	if (r->total == 0)
		return;
	uint64_t i = timeline_lower_bound(r, view_col_start(a, 0));
	uint64_t first = ring_first(r);
	if (i > first)
		i--;
	int64_t prev = -1;
	bool prev_ok = false;
	for (int c = 0; c <= a->ncols; c++) {
		int64_t t = view_col_start(a, c);
		i = sample_at(r, i, t);
		const struct tl_vmstat *p = ring_at(r, i);
		/* only while there is a sample at or after t, else the column is the future */
		const struct tl_vmstat *last = ring_at(r, r->total - 1);
		bool ok = p && p->t_ms <= t && p->allocstall >= 0 && last && last->t_ms >= t;
		int64_t now = ok ? p->allocstall : -1;
		if (c > 0 && prev_ok && ok)
			cols[c - 1].allocstall = now >= prev ? now - prev : now;
		prev = now;
		prev_ok = ok;
	}
}

bool view_cpu_quota_at(const struct timeline *tl, int64_t t, int64_t *quota_us, int64_t *period_us)
{
	const struct ring *r = &tl->cpu;
	uint64_t lo = ring_first(r), hi = r->total; /* the answer is in [lo - 1, hi) */
	const struct tl_cpu *c;
	if (lo >= hi || !(c = ring_at(r, lo)) || c->t_ms > t)
		return false;
	while (hi - lo > 1) { /* samples are in time order: c(lo) <= t < c(hi) */
		uint64_t mid = lo + (hi - lo) / 2;
		c = ring_at(r, mid);
		if (c && c->t_ms <= t)
			lo = mid;
		else
			hi = mid;
	}
	c = ring_at(r, lo);
	if (!c)
		return false;
	*quota_us = c->quota_us;
	*period_us = c->period_us;
	return true;
}

void view_cpu(const struct timeline *tl, const struct view_axis *a, struct view_cpu_col *cols,
	      struct view_cpu_info *info)
{
	memset(info, 0, sizeof *info);
	info->quota_us = -2;
	info->period_us = -1;
	for (int c = 0; c < a->ncols; c++)
		cols[c] = (struct view_cpu_col){.throttled_ms = -1, .nr_throttled = 0, .nr_periods = 0,
						.oncpu_ms = -1, .wait_ms = -1, .allocstall = -1};
	if (a->ncols <= 0)
		return;
	cpu_cols(tl, a, cols, info);
	info->have_sched = tl->sched.total > 0;
	sched_cols(tl, a, cols);
	info->have_vmstat = tl->vmstat.total > 0;
	vmstat_cols(tl, a, cols);
}

/* --- upstream --- */

static int64_t floor_sec(int64_t ms)
{
	return view_floor(ms, 1000) / 1000;
}

void view_upstream(const struct timeline *tl, const struct view_axis *a, struct view_up_col *cols)
{
	int64_t first_sec = INT64_MAX, last_sec = INT64_MIN;
	for (int c = 0; c < a->ncols; c++)
		cols[c] = (struct view_up_col){.rate = -1, .rt_p99 = -1, .urt_p99 = -1};
	if (a->ncols <= 0 || tl->reqs.total == 0)
		return;
	for (int c = 0; c < a->ncols; c++) {
		int64_t cs = view_col_start(a, c);
		int64_t s0 = floor_sec(cs), s1 = floor_sec(cs + a->res_ms - 1);
		struct view_up_col *col = &cols[c];
		uint32_t req = 0, bucket[5] = {0}, s5xx = 0;
		float p99 = -1, up99 = -1;
		bool any = false;
		for (int64_t s = s0; s <= s1 && s - s0 < TL_SECONDS; s++) {
			const struct tl_sec *b = timeline_sec(tl, s);
			if (!b || b->req == 0)
				continue;
			any = true;
			req += b->req;
			s5xx += b->s5xx;
			for (int k = 0; k < 5; k++)
				bucket[k] += b->bucket[k];
			float p[4];
			timeline_sec_percentiles(tl, b, p);
			if (b->rt_n && p[1] > p99)   /* no request logged $request_time: unknown, not 0 */
				p99 = p[1];
			float u[2];
			timeline_sec_urt(tl, b, u);
			if (b->urt_n && u[1] > up99)
				up99 = u[1];
		}
		if (!any)
			continue;
		if (s0 < first_sec)
			first_sec = s0;
		if (s1 > last_sec)
			last_sec = s1;
		double secs = a->res_ms >= 1000 ? (double)a->res_ms / 1000.0 : 1.0;
		col->rate = (float)(req / secs);
		for (int k = 0; k < 5; k++)
			col->bucket[k] = (float)(bucket[k] / secs);
		col->req = req;
		col->s5xx = s5xx;
		col->rt_p99 = p99;
		col->urt_p99 = up99;
	}
	/* a quiet second between busy ones is zero requests, not missing data */
	for (int c = 0; c < a->ncols; c++) {
		int64_t cs = view_col_start(a, c);
		if (cols[c].rate < 0 && floor_sec(cs) > first_sec && floor_sec(cs) < last_sec)
			cols[c].rate = 0;
	}
}

double view_req_settled_rate(const struct timeline *tl, int n, int64_t *to_sec)
{
	int64_t last = timeline_req_settled_sec(tl);
	*to_sec = last;
	if (last == EV_TIME_NONE || tl->req_sec_min == EV_TIME_NONE || last < tl->req_sec_min || n <= 0)
		return -1;
	int64_t first = last - n + 1 > tl->req_sec_min ? last - n + 1 : tl->req_sec_min;
	uint64_t req = 0;
	for (int64_t s = first; s <= last; s++) {
		const struct tl_sec *b = timeline_sec(tl, s);
		req += b ? b->req : 0;
	}
	return (double)req / (double)(last - first + 1);
}

/* --- heap --- */

bool view_stops_from_counters(const struct timeline *tl)
{
	return timeline_stops_from_counters(tl);
}

int view_stops_counters(const struct timeline *tl, const struct view_axis *a, struct view_stop_col *cols)
{
	for (int c = 0; c < a->ncols; c++)
		cols[c] = (struct view_stop_col){.total_ms = 0, .ttsp_ms = -1};
	const struct ring *r = &tl->ctr;
	if (r->total == 0 || a->ncols <= 0)
		return 0;
	int set = 0;
	struct col_walk w;
	const struct tl_ctr *x;
	int c;
	col_walk_init(&w, r, a);
	while ((x = col_walk_next(&w, &c)) != NULL) {
		if (x->stop_ms < 0)
			continue;
		struct view_stop_col *col = &cols[c];
		set += col->total_ms == 0;
		col->total_ms += x->stop_ms;
		if (x->ttsp_ms >= 0)
			col->ttsp_ms = (col->ttsp_ms < 0 ? 0 : col->ttsp_ms) + x->ttsp_ms;
		col->idx = w.i - 1;
	}
	return set;
}

bool view_heap_from_counters(const struct timeline *tl)
{
	return tl->heap.total == 0 && tl->ctr.total > 0;
}

/* No GC log gave heap sizes: the JVM's counters, read every interval. Used is
 * the heap at the read (garbage included, a saw-tooth), not what a collection
 * left: a column shows its last read; its collections count, Full ones mark. */
static void heap_from_counters(const struct timeline *tl, const struct view_axis *a, struct view_heap_col *cols)
{
	const struct ring *r = &tl->ctr;
	if (r->total == 0)
		return;
	struct col_walk w;
	const struct tl_ctr *x;
	int c;
	col_walk_init(&w, r, a);
	while ((x = col_walk_next(&w, &c)) != NULL) {
		cols[c].committed_mb = x->committed_mb;
		cols[c].used_mb = x->used_mb;
		cols[c].npauses += x->gcs;
		if (x->full_gcs)
			cols[c].marks |= VIEW_HEAP_FULL;
	}
	/* a column between two reads (reads every second, columns narrower) shows the last read */
	float committed = -1, used = -1;
	int64_t newest = tl->newest_ms;
	for (c = 0; c < a->ncols; c++) {
		if (cols[c].committed_mb >= 0) {
			committed = cols[c].committed_mb;
			used = cols[c].used_mb;
		}
		if (newest != EV_TIME_NONE && view_col_start(a, c) > newest)
			break;
		cols[c].committed_mb = committed;
		cols[c].used_mb = used;
	}
}

void view_heap(const struct timeline *tl, const struct view_axis *a, struct view_heap_col *cols)
{
	for (int c = 0; c < a->ncols; c++)
		cols[c] = (struct view_heap_col){.committed_mb = -1, .used_mb = -1};
	if (a->ncols <= 0)
		return;
	int64_t w0 = view_col_start(a, 0);
	/* markers and counts: the pauses that ended in each column */
	struct col_walk w;
	const struct tl_pause *p;
	int c;
	col_walk_init(&w, &tl->pauses, a);
	while ((p = col_walk_next(&w, &c)) != NULL) {
		struct view_heap_col *col = &cols[c];
		col->npauses++;
		if (p->type == PAUSE_FULL)
			col->marks |= VIEW_HEAP_FULL;
		if (p->type == PAUSE_REMARK)
			col->marks |= VIEW_HEAP_REMARK;
		if (p->flags & PAUSE_F_PERIODIC)
			col->marks |= VIEW_HEAP_PERIODIC;
	}
	/* sizes: the heap samples (pauses with sizes, and cycle summaries of
	 * collectors that print none on their pauses) */
	const struct ring *hr = &tl->heap;
	if (hr->total == 0) {
		heap_from_counters(tl, a, cols);
		return;
	}
	uint64_t i = timeline_lower_bound(hr, w0);
	/* the heap as the last collection before the window left it */
	float committed = -1, used = -1;
	for (uint64_t k = i; k > ring_first(hr) && i - k < 4096 && (committed < 0 || used < 0); k--) {
		const struct tl_heap *h = ring_at(hr, k - 1);
		if (!h || h->t_ms >= w0)
			continue;
		if (committed < 0 && h->committed_mb10 >= 0)
			committed = (float)h->committed_mb10 / 10.f;
		if (used < 0 && h->used_mb10 >= 0)
			used = (float)h->used_mb10 / 10.f;
	}
	/* a column's values: after the last collection that ended in it */
	float *ccol = calloc((size_t)a->ncols, sizeof *ccol), *ucol = calloc((size_t)a->ncols, sizeof *ucol);
	if (!ccol || !ucol) {
		free(ccol);
		free(ucol);
		return;
	}
	for (c = 0; c < a->ncols; c++)
		ccol[c] = ucol[c] = -1;
	const struct tl_heap *h;
	col_walk_init(&w, hr, a);
	while ((h = col_walk_next(&w, &c)) != NULL) {
		if (h->committed_mb10 >= 0)
			ccol[c] = (float)h->committed_mb10 / 10.f;
		if (h->used_mb10 >= 0)
			ucol[c] = (float)h->used_mb10 / 10.f;
	}
	/* carried forward up to the newest data: the heap stays as the last GC left it */
	int64_t newest = tl->newest_ms;
	for (c = 0; c < a->ncols; c++) {
		if (ccol[c] >= 0)
			committed = ccol[c];
		if (ucol[c] >= 0)
			used = ucol[c];
		if (newest != EV_TIME_NONE && view_col_start(a, c) > newest)
			break;
		cols[c].committed_mb = committed;
		cols[c].used_mb = used;
	}
	free(ccol);
	free(ucol);
}

uint64_t view_skips(const struct timeline *tl, int64_t a, int64_t b)
{
	const struct ring *r = &tl->skips;
	uint64_t n = 0;
	for (uint64_t i = timeline_lower_bound(r, a); i < r->total; i++) {
		const struct tl_skip *k = ring_at(r, i);
		if (!k)
			continue;
		if (k->t_ms >= b)
			break;
		n++;
	}
	return n;
}

/* --- lines --- */

#define LINE_SOURCES 64

int64_t view_lines_oldest(const struct timeline *tl)
{
	int64_t oldest = EV_TIME_NONE;
	for (int k = 0; k < TL_LINE_SOURCES; k++) {
		const struct ring *r = &tl->lines[k];
		for (uint64_t i = ring_first(r); i < r->total && i < ring_first(r) + 1024; i++) {
			const struct tl_line *l = ring_at(r, i);
			if (l && l->t_ms != EV_TIME_NONE) {
				if (oldest == EV_TIME_NONE || l->t_ms < oldest)
					oldest = l->t_ms;
				break;
			}
		}
	}
	return oldest;
}

static int cmp_lines(const void *x, const void *y)
{
	const struct view_line *a = x, *b = y;
	if (a->t_ms != b->t_ms)
		return a->t_ms < b->t_ms ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

int view_lines(const struct timeline *tl, int64_t lo, int64_t hi, int src_filter, struct view_line *out,
	       int n)
{
	if (n <= 0)
		return 0;
	/* per source, the newest n candidates (a small ring each) */
	struct per {
		struct view_line *v;
		int count;      /* pushed */
		int64_t last_t; /* time of its previous timed line */
	} per[LINE_SOURCES];
	struct view_line *pool = calloc((size_t)LINE_SOURCES * (size_t)n, sizeof *pool);
	if (!pool)
		return 0;
	for (int s = 0; s < LINE_SOURCES; s++) {
		per[s].v = pool + (size_t)s * (size_t)n;
		per[s].count = 0;
		per[s].last_t = EV_TIME_NONE;
	}
	for (int k = 0; k < TL_LINE_SOURCES; k++) {
		const struct ring *r = &tl->lines[k];
		for (uint64_t i = ring_first(r); i < r->total; i++) {
			const struct tl_line *l = ring_at(r, i);
			if (!l || l->src >= LINE_SOURCES)
				continue;
			struct per *p = &per[l->src];
			int64_t t = l->t_ms != EV_TIME_NONE ? l->t_ms : p->last_t;
			if (l->t_ms != EV_TIME_NONE)
				p->last_t = l->t_ms;
			if (t == EV_TIME_NONE || t >= hi)
				continue;
			if (src_filter >= 0 && l->src != src_filter)
				continue;
			p->v[p->count % n] = (struct view_line){.idx = TL_LINE_REF(k, i), .t_ms = t, .in_window = t >= lo};
			p->count++;
		}
	}
	/* First every source's newest line (what each said last: the correlation),
	 * then round robin the window's lines, then older ones for context. */
	int got = 0;
	int taken[LINE_SOURCES] = {0};
	for (int pass = 0; pass < 3 && got < n; pass++) {
		bool more = true;
		while (more && got < n) {
			more = false;
			for (int s = 0; s < LINE_SOURCES && got < n; s++) {
				struct per *p = &per[s];
				int held = p->count < n ? p->count : n;
				if (taken[s] >= held || (pass == 0 && taken[s] > 0))
					continue;
				/* newest not yet taken */
				struct view_line *v = &p->v[(p->count - 1 - taken[s]) % n];
				if (pass == 1 && !v->in_window)
					continue;
				out[got++] = *v;
				taken[s]++;
				more = pass > 0;
			}
		}
	}
	free(pool);
	qsort(out, (size_t)got, sizeof *out, cmp_lines);
	return got;
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* the line holds needle (n bytes, not empty), ASCII letters in any case */
static bool line_holds(const struct tl_line *l, const char *needle, size_t n)
{
	size_t len = l->len < sizeof l->text ? l->len : sizeof l->text;
	for (size_t i = 0; i + n <= len; i++) {
		size_t k = 0;
		while (k < n && ascii_lower(l->text[i + k]) == ascii_lower(needle[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* the Lines pane's order: time, then where the line is held */
static int line_cmp(int64_t ta, uint64_t ia, int64_t tb, uint64_t ib)
{
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

int view_line_find(const struct timeline *tl, const char *needle, size_t n, int src_filter, int64_t from_t,
		   uint64_t from_ref, int dir, struct view_line *found)
{
	if (n == 0)
		return 0;
	bool have = false, have_wrap = false;
	struct view_line best = {0}, wrap = {0};
	int64_t last_t[LINE_SOURCES];
	for (int s = 0; s < LINE_SOURCES; s++)
		last_t[s] = EV_TIME_NONE;
	for (int k = 0; k < TL_LINE_SOURCES; k++) {
		const struct ring *r = &tl->lines[k];
		for (uint64_t i = ring_first(r); i < r->total; i++) {
			const struct tl_line *l = ring_at(r, i);
			if (!l || l->src >= LINE_SOURCES)
				continue;
			/* a line without a time is shown at its source's previous one (view_lines) */
			int64_t t = l->t_ms != EV_TIME_NONE ? l->t_ms : last_t[l->src];
			if (l->t_ms != EV_TIME_NONE)
				last_t[l->src] = l->t_ms;
			if (t == EV_TIME_NONE || (src_filter >= 0 && l->src != src_filter) || !line_holds(l, needle, n))
				continue;
			struct view_line v = {.idx = TL_LINE_REF(k, i), .t_ms = t, .in_window = true};
			int side = line_cmp(t, v.idx, from_t, from_ref) * dir;
			if (side > 0 && (!have || line_cmp(t, v.idx, best.t_ms, best.idx) * dir < 0)) {
				best = v;
				have = true;
			}
			/* the first match from the other end, for a search that wraps */
			if (!have_wrap || line_cmp(t, v.idx, wrap.t_ms, wrap.idx) * dir < 0) {
				wrap = v;
				have_wrap = true;
			}
		}
	}
	if (have) {
		*found = best;
		return 1;
	}
	if (have_wrap) {
		*found = wrap;
		return 2;
	}
	return 0;
}

/* --- verdicts --- */

struct vgroup {
	size_t first, n;       /* range in the report order */
	int64_t t;             /* earliest start in the group */
};

static int cmp_groups(const void *x, const void *y)
{
	const struct vgroup *a = x, *b = y;
	if (a->t != b->t)
		return a->t > b->t ? -1 : 1;   /* newest first */
	return a->first < b->first ? -1 : a->first > b->first;
}

size_t view_verdict_order(const struct session *s, size_t *idx, size_t cap)
{
	const struct rules *r = session_rules(s);
	size_t n, ninc;
	const size_t *ord = rules_order(r, &n);
	const struct rules_incident *inc = rules_incidents(r, &ninc);
	if (n == 0 || cap == 0 || !ord)
		return 0;
	struct vgroup *g = calloc(n, sizeof *g);
	if (!g)
		return 0;
	/* an incident is one group, a whole-run verdict its own */
	size_t ng = 0, ki = 0;
	for (size_t i = 0; i < n; i++) {
		if (ki < ninc && inc[ki].first == i) {
			g[ng++] = (struct vgroup){.first = i, .n = inc[ki].n, .t = inc[ki].start_ms};
			i += inc[ki++].n - 1;
			continue;
		}
		/* EV_TIME_NONE is INT64_MIN: timeless verdicts sort last */
		g[ng++] = (struct vgroup){.first = i, .n = 1, .t = rules_at(r, ord[i])->start_ms};
	}
	qsort(g, ng, sizeof *g, cmp_groups);
	size_t out = 0;
	for (size_t k = 0; k < ng; k++)
		for (size_t j = 0; j < g[k].n && out < cap; j++)
			idx[out++] = ord[g[k].first + j];
	free(g);
	return out;
}

static int cmp_incidents(const void *x, const void *y)
{
	const struct rules_incident *a = x, *b = y;
	if (a->start_ms != b->start_ms)
		return a->start_ms < b->start_ms ? -1 : 1;
	return a->number < b->number ? -1 : a->number > b->number;
}

size_t view_incidents(const struct session *s, struct rules_incident *out, size_t cap)
{
	size_t ninc;
	const struct rules_incident *inc = rules_incidents(session_rules(s), &ninc);
	if (ninc == 0 || cap == 0 || !inc)
		return 0;
	struct rules_incident *all = calloc(ninc, sizeof *all);
	if (!all)
		return 0;
	memcpy(all, inc, ninc * sizeof *all);
	qsort(all, ninc, sizeof *all, cmp_incidents);
	if (ninc > cap)
		ninc = cap;
	memcpy(out, all, ninc * sizeof *all);
	free(all);
	return ninc;
}
