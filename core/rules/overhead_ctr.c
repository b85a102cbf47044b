/* SPDX-License-Identifier: GPL-2.0-or-later */
/* overhead_ctr.c — gc-overhead from the JVM's own counters (EV_JVMCTR, read
 * from its hsperfdata file every interval) for a JVM with no GC log: the same
 * question as overhead.c, asked with the precision the counters have.
 *
 * The counters say how many collections ended between two reads and their
 * summed time, not when each pause began nor how long each was. So a stretch
 * is made of whole reads: an episode opens at a read that ends a stretch of at
 * least overhead_min_span_ms in GC at least overhead_share of it, with
 * overhead_min_pauses collections and overhead_min_full Full ones in it (one
 * long Full GC is few collections: long-gc-pause's, never this). It starts at
 * the first read of that stretch in GC at least the share of its own interval,
 * ends at the last such read, and clears at the read that ends a stretch of
 * overhead_min_span_ms below the share. Times are those of the reads (one
 * interval of precision), and the verdict says so. Once a GC log has given
 * pauses (overhead.c), the counters open no episode: the log is exact. */
#include "rules_internal.h"

#include <math.h>

#include "stwtop/fmt.h"

static struct ov_read *rd(struct ov_ctr *k, uint64_t i)
{
	return &k->ring[i & (OV_CTR_RING - 1)];
}

static uint64_t oldest(const struct ov_ctr *k)
{
	return k->head > OV_CTR_RING ? k->head - OV_CTR_RING : 0;
}

static bool dense(const struct ov_read *x, double share)
{
	return x->interval > 0 && x->gc_ms >= share * x->interval;
}

/* the newest reads covering at least span ms: their first index, paused time,
 * span, collections and Full ones; false when the reads held cover less */
struct stretch {
	uint64_t from;
	double paused, span;
	uint32_t gcs, fulls;
};
static bool trailing(struct ov_ctr *k, double span, struct stretch *s)
{
	memset(s, 0, sizeof *s);
	for (uint64_t i = k->head; i > oldest(k); i--) {
		const struct ov_read *x = rd(k, i - 1);
		s->from = i - 1;
		s->paused += x->gc_ms;
		s->span += x->interval;
		s->gcs += x->gcs;
		s->fulls += x->fulls;
		if (s->span >= span)
			return true;
	}
	return false;
}

static void add(struct ov_ctr *k, const struct ov_read *x)
{
	k->paused_ms += x->gc_ms;
	k->span_ms += x->interval;
	k->gcs += x->gcs;
	k->fulls += x->fulls;
	if (x->interval > k->interval_max)
		k->interval_max = x->interval;
}

static void last_read(struct ov_ctr *k, const struct event *e)
{
	const struct ev_jvmctr *c = &e->u.ctr;
	k->used_mb = c->heap_used >= 0 ? (float)(c->heap_used / 1048576.0) : -1.f;
	k->committed_mb = c->heap_committed >= 0 ? (float)(c->heap_committed / 1048576.0) : -1.f;
	k->max_mb = c->heap_max > 0 ? (float)(c->heap_max / 1048576.0) : -1.f;
	size_t n = strnlen(c->cause, sizeof k->cause - 1);
	memcpy(k->cause, c->cause, n);
	k->cause[n] = '\0';
}

static void verdict(struct rules *r, const struct rules_ctx *c)
{
	struct ov_ctr *k = &ov_st(r)->ctr;
	double span = k->end - k->start;
	if (span <= 0)
		span = 1;
	double share = k->paused_ms / span;
	if (share > 1)
		share = 1; /* the reads' clock and the JVM's differ by a little */
	struct vdraft v;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], cause[200];
	vinit(&v, V_GC_OVERHEAD, k->episode, share >= r->cfg.overhead_crit_share ? SEV_CRIT : SEV_WARN);
	v.start_ms = v.jump_ms = (int64_t)floor(k->start);
	v.end_ms = (int64_t)ceil(k->end);
	if (share >= 0.9)
		vtitle(&v, "GC overhead: the JVM was in GC %.0f %% of %.0f s, %u Full GCs back to back: the "
		       "application barely ran", share * 100, span / 1000, k->fulls);
	else
		vtitle(&v, "GC overhead: the JVM was in GC %.0f %% of %.0f s, %u Full GCs back to back: the "
		       "application ran %.0f %% of that time", share * 100, span / 1000, k->fulls, 100 - share * 100);
	vevid(&v, "%s .. %s: the JVM's own counters (hsperfdata, read every %.1f s) count %u collections "
	      "taking %.1f s of the %.1f s (%.0f %%), %u of them Full GCs", rl_hms(r, v.start_ms, t1),
	      rl_hms(r, v.end_ms, t2), k->interval_max / 1000, k->gcs, k->paused_ms / 1000, span / 1000,
	      share * 100, k->fulls);
	util_sanitize(cause, sizeof cause, k->cause, strlen(k->cause));
	if (k->cause[0])
		vevid(&v, "the JVM's last GC cause at the episode's end: %s", cause);
	if (k->used_mb >= 0 && k->committed_mb > 0) {
		if (k->max_mb > 0)
			vevid(&v, "heap at the last read: %.0f MB used of %.0f MB committed, max heap %.0f MB (used "
			      "counts garbage not yet collected)%s", k->used_mb, k->committed_mb, k->max_mb,
			      k->committed_mb >= 0.95 * k->max_mb ? ": the heap is at its max" : "");
		else
			vevid(&v, "heap at the last read: %.0f MB used of %.0f MB committed (used counts garbage not "
			      "yet collected)", k->used_mb, k->committed_mb);
	}
	vevid(&v, "not checked: when each pause began and how long each one was (the counters sum them "
	      "per read; a GC log has them: -Xlog:gc*, or `jcmd PID VM.log what=gc*` without a restart); "
	      "times are those of the reads, to %.1f s", k->interval_max / 1000);
	vadvice(&v, "%s", ov_advice);
	(void)c;
	rv_commit(r, &v);
}

static void try_open(struct rules *r, const struct event *e)
{
	struct overhead *o = ov_st(r);
	struct ov_ctr *k = &o->ctr;
	const struct rules_config *g = &r->cfg;
	double share = g->overhead_share, min_span = g->overhead_min_span_ms >= 1 ? g->overhead_min_span_ms : 1;
	struct stretch s;
	if (!trailing(k, min_span, &s) || s.paused < share * s.span || (double)s.gcs < g->overhead_min_pauses ||
	    (double)s.fulls < g->overhead_min_full)
		return;
	uint64_t first = s.from, last = k->head - 1;
	while (first < last && !dense(rd(k, first), share))
		first++;
	while (last > first && !dense(rd(k, last), share))
		last--;
	k->open = true;
	k->episode = ++o->episode;
	k->first = first;
	k->last = last;
	k->start = rd(k, first)->end - rd(k, first)->interval;
	k->end = rd(k, last)->end;
	k->paused_ms = k->span_ms = k->interval_max = 0;
	k->gcs = k->fulls = 0;
	for (uint64_t i = first; i <= last; i++)
		add(k, rd(k, i));
	last_read(k, e);
}

void overhead_ctr_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	struct overhead *o = ov_st(r);
	struct ov_ctr *k = &o->ctr;
	const struct ev_jvmctr *x = &e->u.ctr;
	if (o->saw_pause && !k->open)
		return; /* a GC log gives the pauses themselves */
	if (x->interval_ms <= 0 || x->gcs < 0)
		return;
	struct ov_read *n = rd(k, k->head);
	n->end = (double)e->t_ms;
	n->interval = x->interval_ms;
	n->gc_ms = x->gc_ms > 0 ? x->gc_ms : 0;
	n->gcs = (uint32_t)x->gcs;
	n->fulls = x->full_gcs > 0 ? (uint32_t)x->full_gcs : 0;
	k->head++;
	if (!k->open) {
		if (!o->saw_pause && !o->open)
			try_open(r, e);
		return;
	}
	double share = r->cfg.overhead_share;
	double min_span = r->cfg.overhead_min_span_ms >= 1 ? r->cfg.overhead_min_span_ms : 1;
	if (dense(n, share)) {
		/* the reads since the last dense one belong to the episode too */
		uint64_t from = k->last + 1 > oldest(k) ? k->last + 1 : oldest(k);
		for (uint64_t i = from; i < k->head; i++)
			add(k, rd(k, i));
		k->last = k->head - 1;
		k->end = n->end;
		last_read(k, e);
		return;
	}
	struct stretch s;
	if (!trailing(k, min_span, &s) || s.paused >= share * s.span)
		return;
	verdict(r, c); /* the clear keeps its latest state */
	char why[200], tb[UTIL_HMS_LEN];
	fmt_s(why, sizeof why, "%s the JVM was in GC less than %.0f %% of the last %.1f s (its counters): cleared",
	      rl_hms(r, e->t_ms, tb), share * 100, s.span / 1000);
	rv_clear(r, V_GC_OVERHEAD, k->episode, e->t_ms, why);
	k->open = false;
}

void overhead_ctr_refresh(struct rules *r, const struct rules_ctx *c, bool all)
{
	struct ov_ctr *k = &ov_st(r)->ctr;
	if (k->open && (all || !rv_active(r, V_GC_OVERHEAD, k->episode)))
		verdict(r, c);
}
