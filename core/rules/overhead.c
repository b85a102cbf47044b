/* SPDX-License-Identifier: GPL-2.0-or-later */
/* overhead.c — gc-overhead (rules_internal.h): the JVM spends most of its wall
 * clock in GC pauses, Full GCs (or evacuation failures) back to back: the live
 * data does not fit the heap, or something leaks (docs/verdicts.md, gc-overhead). The real
 * recordings tests/recordings/gc-overhead-{g1,parallel,serial} show 96-98 % of
 * each second paused; their healthy control, 1.7 %.
 *
 * The pauses of the last OV_WINDOW_MS are kept in a ring. An episode opens at
 * a pause that ends a stretch (from an earlier pause's start) of at least
 * overhead_min_span_ms paused at least overhead_share, with overhead_min_pauses
 * pauses and overhead_min_full Full GCs or evacuation failures in it, and the
 * share without its longest pause still at the threshold: one long pause is
 * long-gc-pause, never this. The episode starts at the first pause of that
 * stretch whose next OV_DENSE_MS are dense and ends at the last pause whose
 * last OV_DENSE_MS are; it clears when the last overhead_min_span_ms fall below
 * the share. Every decision is taken at a pause (or at the end of the input)
 * from the pauses alone, so a live run and a report decide alike.
 */
#include "rules_internal.h"

#include <math.h>

#include "stwtop/fmt.h"

#define OV_WINDOW_MS 10000.0   /* the longest stretch looked at */
#define OV_DENSE_MS 500.0      /* the stretch that makes a pause part of an episode */

static struct ov_pause *at(struct overhead *o, uint64_t i)
{
	return &o->ring[i & (OV_RING - 1)];
}

static double span_min(const struct rules *r)
{
	return r->cfg.overhead_min_span_ms >= 1 ? r->cfg.overhead_min_span_ms : 1;
}

/* paused time of the held pauses inside [a, b] */
static double paused_in(struct overhead *o, double a, double b)
{
	double sum = 0;
	for (uint64_t i = o->head; i > o->tail; i--) {
		const struct ov_pause *p = at(o, i - 1);
		double s = p->start, e = p->start + p->dur;
		if (e <= a)
			break; /* in start order and never overlapping: the older ones end earlier */
		if (s < a)
			s = a;
		if (e > b)
			e = b;
		if (e > s)
			sum += e - s;
	}
	return sum;
}

static bool dense(struct overhead *o, double a, const struct rules *r)
{
	return paused_in(o, a, a + OV_DENSE_MS) >= r->cfg.overhead_share * OV_DENSE_MS;
}

static void stats_reset(struct ov_stats *st)
{
	memset(st, 0, sizeof *st);
	st->used_min_mb = st->used_max_mb = st->committed_mb = -1;
	st->first_full_ms = -1;
}

static void stats_add(struct ov_stats *st, const struct ov_pause *p)
{
	st->paused_ms += p->dur;
	st->pauses++;
	if (p->dur > st->longest_ms)
		st->longest_ms = p->dur;
	if (p->flags & OV_F_EVAC)
		st->evac_fails++;
	if (!(p->flags & OV_F_FULL))
		return;
	if (st->fulls++ == 0) {
		st->first_full_ms = p->start;
		st->first_full_dur = p->dur;
		st->first_full_line = p->line;
		st->first_full_src = p->src;
		st->first_full_cause = p->cause;
	}
	st->cause_n[p->cause < OV_CAUSES ? p->cause : OV_CAUSES]++;
	if (p->after_mb >= 0) {
		if (st->used_min_mb < 0 || p->after_mb < st->used_min_mb)
			st->used_min_mb = p->after_mb;
		if (p->after_mb > st->used_max_mb)
			st->used_max_mb = p->after_mb;
		if (p->committed_mb >= 0)
			st->committed_mb = p->committed_mb;
	}
}

static uint8_t cause_of(struct overhead *o, const char *cause)
{
	for (int i = 0; i < o->ncauses; i++)
		if (strcmp(o->causes[i], cause) == 0)
			return (uint8_t)i;
	if (o->ncauses == OV_CAUSES)
		return 0xff;
	fmt_s(o->causes[o->ncauses], sizeof o->causes[0], "%s", cause);
	return (uint8_t)o->ncauses++;
}

/* --- the episode --- */

static void ov_verdict(struct rules *r, const struct rules_ctx *c);

/* Open an episode when a stretch ending at the newest pause shows overhead:
 * the longest such stretch, its start moved to where the pauses turn dense. */
static void try_open(struct rules *r)
{
	struct overhead *o = ov_st(r);
	const struct rules_config *k = &r->cfg;
	double min_span = span_min(r);
	/* no stretch in the window can qualify: most pauses of a healthy run */
	if ((double)o->win_full < k->overhead_min_full || o->win_paused < k->overhead_share * min_span)
		return;
	double sum = 0, longest = 0;
	uint32_t n = 0, full = 0;
	uint64_t from = UINT64_MAX;
	for (uint64_t i = o->head; i > o->tail; i--) {
		const struct ov_pause *p = at(o, i - 1);
		if (p->start < o->floor)
			break;
		sum += p->dur;
		n++;
		full += (p->flags & (OV_F_FULL | OV_F_EVAC)) != 0;
		if (p->dur > longest)
			longest = p->dur;
		double span = o->newest_end - p->start;
		if (span >= min_span && (double)n >= k->overhead_min_pauses && (double)full >= k->overhead_min_full &&
		    sum >= k->overhead_share * span && sum - longest >= k->overhead_share * span)
			from = i - 1;
	}
	if (from == UINT64_MAX)
		return;
	uint64_t first = from, last = o->head - 1;
	for (uint64_t i = from; i < o->head; i++)
		if (dense(o, at(o, i)->start, r)) {
			first = i;
			break;
		}
	for (uint64_t i = o->head; i > first; i--) {
		const struct ov_pause *p = at(o, i - 1);
		if (dense(o, p->start + p->dur - OV_DENSE_MS, r)) {
			last = i - 1;
			break;
		}
	}
	o->open = true;
	o->episode++;
	o->start = at(o, first)->start;
	o->end = at(o, last)->start + at(o, last)->dur;
	stats_reset(&o->all);
	for (uint64_t i = first; i < o->head; i++) {
		stats_add(&o->all, at(o, i));
		if (i == last)
			o->at_end = o->all;
	}
}

/* The first time in [lo, hi] when the last overhead_min_span_ms were paused
 * less than the share. The paused time of the trailing window only falls
 * between two pauses, so the first time is found by halving. */
static double clear_time(struct rules *r, double lo, double hi)
{
	struct overhead *o = ov_st(r);
	double w = span_min(r), need = r->cfg.overhead_share * w;
	if (paused_in(o, lo - w, lo) < need)
		return lo;
	for (int i = 0; i < 40 && hi - lo > 0.5; i++) {
		double mid = (lo + hi) / 2;
		if (paused_in(o, mid - w, mid) < need)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* The episode is over when, by time t (the next pause's start, or the end of
 * the input), the last overhead_min_span_ms were paused less than the share. */
static void try_close(struct rules *r, const struct rules_ctx *c, double t)
{
	struct overhead *o = ov_st(r);
	double w = span_min(r);
	if (!o->open || t < o->newest_end || paused_in(o, t - w, t) >= r->cfg.overhead_share * w)
		return;
	double when = clear_time(r, o->newest_end, t);
	ov_verdict(r, c); /* the clear keeps its latest state */
	char why[160], tb[UTIL_HMS_LEN];
	int64_t ms = (int64_t)ceil(when);
	fmt_s(why, sizeof why, "%s the JVM was paused less than %.0f %% of the last %.1f s: cleared",
	      rl_hms(r, ms, tb), r->cfg.overhead_share * 100, w / 1000);
	rv_clear(r, V_GC_OVERHEAD, o->episode, ms, why);
	o->open = false;
	o->floor = when; /* its pauses do not open another */
}

static void push(struct rules *r, const struct event *e)
{
	struct overhead *o = ov_st(r);
	const struct ev_pause *p = &e->u.pause;
	double start = (double)e->t_ms - p->dur_ms;
	if (o->head > o->tail) {
		/* the log prints the end to the millisecond: a short pause can seem to
		 * start before the one that ended just before it. Pauses never
		 * overlap, so it starts at that end; one further off is out of order
		 * (two logs of one JVM) and left out: the ring stays sorted. */
		const struct ov_pause *prev = at(o, o->head - 1);
		double prev_end = prev->start + prev->dur;
		if (start < prev_end - 2)
			return;
		if (start < prev_end)
			start = prev_end;
	}
	struct ov_pause *q = at(o, o->head);
	if (o->head - o->tail == OV_RING) {
		o->win_paused -= at(o, o->tail)->dur;
		o->win_full -= (at(o, o->tail)->flags & (OV_F_FULL | OV_F_EVAC)) != 0;
		o->tail++;
	}
	memset(q, 0, sizeof *q);
	q->start = start;
	q->dur = p->dur_ms > 0 ? p->dur_ms : 0;
	q->after_mb = q->committed_mb = -1;
	q->line = (uint32_t)e->line;
	q->src = e->src;
	q->cause = 0xff;
	if (p->type == PAUSE_FULL) {
		q->flags |= OV_F_FULL;
		q->cause = cause_of(o, p->cause[0] ? p->cause : p->title);
		if ((p->flags & PAUSE_F_HEAP) && p->after_kb >= 0) {
			q->after_mb = (float)(p->after_kb / 1024.0);
			q->committed_mb = p->committed_kb >= 0 ? (float)(p->committed_kb / 1024.0) : -1;
		}
	}
	if (p->flags & PAUSE_F_EVAC_FAIL)
		q->flags |= OV_F_EVAC;
	o->head++;
	o->win_paused += q->dur;
	o->win_full += (q->flags & (OV_F_FULL | OV_F_EVAC)) != 0;
	if (start + q->dur > o->newest_end)
		o->newest_end = start + q->dur;
	while (o->tail < o->head && at(o, o->tail)->start < o->newest_end - OV_WINDOW_MS) {
		o->win_paused -= at(o, o->tail)->dur;
		o->win_full -= (at(o, o->tail)->flags & (OV_F_FULL | OV_F_EVAC)) != 0;
		o->tail++;
	}
}

static void overhead_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	if (e->kind == EV_JVMCTR) {
		overhead_ctr_on_event(r, c, e);
		return;
	}
	if (e->kind != EV_GC_PAUSE)
		return;
	struct overhead *o = ov_st(r);
	o->saw_pause = true;
	double start = (double)e->t_ms - e->u.pause.dur_ms;
	if (o->head > o->tail && start < o->newest_end)
		start = o->newest_end; /* as push() places it */
	try_close(r, c, start);
	uint64_t before = o->head;
	push(r, e);
	if (o->head == before)
		return;
	if (!o->open) {
		try_open(r);
		return;
	}
	const struct ov_pause *p = at(o, o->head - 1);
	stats_add(&o->all, p);
	if (dense(o, p->start + p->dur - OV_DENSE_MS, r)) {
		o->end = p->start + p->dur;
		o->at_end = o->all;
	}
}

/* --- the verdict --- */

const char ov_advice[] =
	"Collections follow each other and the application runs only in between. If used "
	"after Full GC stays near the max heap, the heap is too small for the live data or "
	"something leaks: `jcmd PID GC.class_histogram` twice, a minute apart, shows what grows; "
	"-XX:+HeapDumpOnOutOfMemoryError keeps the heap when it ends in an OutOfMemoryError. In a "
	"container, check -XX:MaxRAMPercentage (the max heap defaults to 25 % of the memory limit) "
	"before raising -Xmx. HotSpot's own GC overhead limit (98 % of the time, Parallel only) "
	"throws long after the callers gave up.";

static void full_causes(const struct overhead *o, const struct ov_stats *st, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i <= OV_CAUSES && n < len; i++) {
		if (!st->cause_n[i])
			continue;
		int w = fmt_s(buf + n, len - n, "%s%u %s", n ? ", " : "", st->cause_n[i],
			      i < o->ncauses ? o->causes[i] : "other");
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* "a-b" of two values, or one when they are the same */
static void range(char *buf, size_t len, double a, double b)
{
	if (lround(a) == lround(b))
		fmt_s(buf, len, "%.0f", a);
	else
		fmt_s(buf, len, "%.0f-%.0f", a, b);
}

static void heap_evidence(struct vdraft *v, const struct ov_stats *st, const struct summary *s)
{
	if (st->used_max_mb < 0)
		return; /* the log does not print the heap on its Full GCs */
	double max_mb = s->heap_max_kb > 0 ? s->heap_max_kb / 1024.0 : -1;
	char cap[80] = "", used[40], pct[40];
	if (st->committed_mb >= 0)
		fmt_s(cap, sizeof cap, " of %.0f MB committed", st->committed_mb);
	range(used, sizeof used, st->used_min_mb, st->used_max_mb);
	if (max_mb > 0) {
		range(pct, sizeof pct, st->used_min_mb / max_mb * 100, st->used_max_mb / max_mb * 100);
		vevid(v, "used after Full GC %s MB%s, max heap %.0f MB (%s %% of it)%s", used, cap, max_mb, pct,
		      st->used_min_mb >= 0.75 * max_mb ? ": the live data fills the heap" : "");
	} else if (st->committed_mb > 0) {
		range(pct, sizeof pct, st->used_min_mb / st->committed_mb * 100,
		      st->used_max_mb / st->committed_mb * 100);
		vevid(v, "used after Full GC %s MB%s (%s %%); the log does not say the max heap", used, cap, pct);
	} else {
		vevid(v, "used after Full GC %s MB", used);
	}
}

static void ov_verdict(struct rules *r, const struct rules_ctx *c)
{
	struct overhead *o = ov_st(r);
	const struct ov_stats *st = &o->at_end;
	double span = o->end - o->start;
	if (span <= 0)
		span = 1;
	double share = st->paused_ms / span;
	struct vdraft v;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], t3[UTIL_HMS_LEN], lb[24], causes[200];
	vinit(&v, V_GC_OVERHEAD, o->episode, share >= r->cfg.overhead_crit_share ? SEV_CRIT : SEV_WARN);
	v.start_ms = v.jump_ms = (int64_t)floor(o->start);
	v.end_ms = (int64_t)ceil(o->end);
	if (share >= 0.9)
		vtitle(&v, "GC overhead: the JVM was paused %.0f %% of %.1f s, %u Full GCs back to back: the "
		       "application barely ran", share * 100, span / 1000, st->fulls);
	else
		vtitle(&v, "GC overhead: the JVM was paused %.0f %% of %.1f s, %u Full GCs back to back: the "
		       "application ran %.0f %% of that time", share * 100, span / 1000, st->fulls,
		       100 - share * 100);
	vevid(&v, "%s .. %s: paused %.1f s of the %.1f s window (%.0f %%) in %u pauses", rl_hms(r, v.start_ms, t1),
	      rl_hms(r, v.end_ms, t2), st->paused_ms / 1000, span / 1000, share * 100, st->pauses);
	full_causes(o, st, causes, sizeof causes);
	if (st->fulls)
		vevid(&v, "%u Full GCs (%s)", st->fulls, causes);
	if (st->evac_fails)
		vevid(&v, "%u collections ran out of space to copy live objects into (to-space exhausted / "
		      "evacuation failure)", st->evac_fails);
	if (st->first_full_ms >= 0) {
		rl_fmt_ms(st->first_full_dur, lb, sizeof lb);
		vevid(&v, "%s:%u %s the first Full GC of the episode (%s), %s", rl_sname(c, st->first_full_src),
		      st->first_full_line, rl_hms(r, (int64_t)floor(st->first_full_ms), t3),
		      st->first_full_cause < o->ncauses ? o->causes[st->first_full_cause] : "other", lb);
	}
	heap_evidence(&v, st, c->sum);
	rl_fmt_ms(st->longest_ms, lb, sizeof lb);
	vevid(&v, "the longest pause took %s; without it the share is still %.0f %%: many collections, not "
	      "one long one", lb, (st->paused_ms - st->longest_ms) / span * 100);
	vadvice(&v, "%s", ov_advice);
	double max_mb = c->sum->heap_max_kb > 0 ? c->sum->heap_max_kb / 1024.0 : -1;
	if (st->used_max_mb >= 0 && max_mb > 0 && st->used_max_mb < 0.5 * max_mb)
		vadvice(&v, " Here used after Full GC stays at most %.0f MB of the %.0f MB max heap: the live "
			"data fits it, so look at the allocation rate and at the committed heap the collector "
			"kept (-Xms, the young generation) rather than at a leak.", st->used_max_mb, max_mb);
	rv_commit(r, &v);
}

static void overhead_refresh(struct rules *r, const struct rules_ctx *c, bool all)
{
	struct overhead *o = ov_st(r);
	overhead_ctr_refresh(r, c, all);
	if (o->open && r->eval_final && c->now_ms != EV_TIME_NONE)
		try_close(r, c, (double)c->now_ms); /* the end of the input */
	if (o->open && (all || !rv_active(r, V_GC_OVERHEAD, o->episode)))
		ov_verdict(r, c);
}

static const struct rule_state_type overhead_state_type = {sizeof(struct overhead), NULL};

/* its thresholds (--config, --help-config) */
static const struct rule_knob gc_overhead_knobs[] = {
	RULE_KNOB(overhead_share, 0.3, "paused 30% of a stretch is overhead: the thrashing recordings show 54-99%, healthy runs < 15% a second"),
	RULE_KNOB(overhead_min_span_ms, 3000, "3 s of it (and 3 s below it to clear): one busy second is a burst, not overhead"),
	RULE_KNOB(overhead_min_full, 2, "two Full GCs or evacuation failures: young pauses alone mean allocation, not a full heap"),
	RULE_KNOB(overhead_min_pauses, 5, "five pauses: a few long ones are long-gc-pause, overhead is collections back to back"),
	RULE_KNOB(overhead_crit_share, 0.5, "paused half of the time or more: the application got less than half of the wall clock"),
};

/* rank 9: when the JVM barely runs, that leads the whole-run verdicts */
const struct rule rule_gc_overhead = {
	.info = {.id = V_GC_OVERHEAD, .name = "gc-overhead", .kind = VERDICT_RUN, .rank = 9},
	.on_event = overhead_on_event,
	.on_kinds = (1u << EV_GC_PAUSE) | (1u << EV_JVMCTR),
	.refresh = overhead_refresh,
	.state = &overhead_state_type,
	RULE_KNOBS(gc_overhead_knobs),
};
