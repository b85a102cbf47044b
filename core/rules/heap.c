/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap.c — whole-run heap verdicts (rules_internal.h): g1-not-shrinking (the
 * committed heap stays high over live data that is low: not a leak, and the
 * flag that gives memory back), periodic-gc-skipped and periodic-gc-shrank
 * (G1 periodic GC under load, and the memory it gave back). */
#include "rules_internal.h"

#include <math.h>

#include "stwtop/fmt.h"

/* The heap family's state: g1-not-shrinking's plateau, periodic-gc-skipped's
 * run of skips, periodic-gc-shrank's link to the last periodic collection.
 * The three rows share it (rule_state_type). */
struct heap_state {
	int64_t plateau_since_ms, plateau_last_ms;
	double plateau_committed, plateau_max_used, plateau_min_committed;
	int plateau_pauses;
	uint16_t plateau_first_src, plateau_last_src;
	uint64_t plateau_first_line, plateau_last_line;
	double plateau_first_used, plateau_last_used;
	bool saw_shrink_trigger;       /* a Remark or Full inside the plateau */
	struct g1snap {                /* the plateau at the last pause showing g1-not-shrinking */
		int64_t since_ms, last_ms, longest_gap_ms;
		double committed, min_committed, max_used, first_used, last_used;
		int pauses;
		uint16_t first_src, last_src;
		uint64_t first_line, last_line;
		bool saw_trigger;
		/* set when its plateau ended (the bins are the next one's now):
		 * the leak check's quarters as they were */
		bool trend_kept, trend_known;
		double q2, q4;
	} g1snap;
	int64_t g1snap_ms;             /* EV_TIME_NONE: never shown */
	/* used after GC over the plateau, for the leak check: the lowest in each
	 * of at most TREND_BINS bins from its start, the bins doubling in width as
	 * it lasts (a scan of the pauses ring saw only its last 16384 pauses, and
	 * a report lets the pauses go) */
	struct trend { int64_t t0, w; int n; float min[TREND_BINS]; } trend;
	int64_t last_periodic_ms;      /* last G1 Periodic Collection pause */
	uint16_t last_periodic_src;
	uint64_t last_periodic_line;
	double last_periodic_committed;
	double committed_peak_mb;
	double shrank_from_mb;         /* committed before the first periodic shrink */
	bool shrink_pending;           /* this pause shrank the plateau (periodic-gc-shrank looks) */
	double shrink_plateau_mb;      /* ... committed on the plateau before it */
	/* periodic-gc-skipped */
	int skips_in_row;
	int64_t skip_first_ms, skip_last_ms;
	int64_t skip_gap_min, skip_gap_max, skip_threshold;
	int skip_load;                 /* skips because of system load */
	uint16_t skip_first_src, skip_last_src;
	uint64_t skip_first_line, skip_last_line;
};

static void heap_state_init(void *p)
{
	struct heap_state *h = p;
	h->plateau_since_ms = h->last_periodic_ms = h->g1snap_ms = EV_TIME_NONE;
	h->skip_first_ms = h->skip_last_ms = EV_TIME_NONE;
}

static const struct rule_state_type heap_state_type = {sizeof(struct heap_state), heap_state_init};

static inline struct heap_state *heap_st(const struct rules *r)
{
	return rl_state(r, V_G1_NOT_SHRINKING);
}


static bool is_shrink_trigger(const struct ev_pause *p)
{
	return p->type == PAUSE_FULL || p->type == PAUSE_REMARK;
}

static void periodic_skipped_verdict(struct rules *r, const struct rules_ctx *c);
static void g1_shrink_event(struct rules *r, const struct rules_ctx *c, const struct event *e);

/* periodic-gc-skipped: a periodic collection that ran ends a run of skips */
static void periodic_on_pause(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	if (p->flags & PAUSE_F_PERIODIC) {
		heap_st(r)->last_periodic_ms = e->t_ms;
		heap_st(r)->last_periodic_src = e->src;
		heap_st(r)->last_periodic_line = e->line;
		heap_st(r)->last_periodic_committed = p->committed_kb >= 0 ? p->committed_kb / 1024.0 : -1;
		if (heap_st(r)->skips_in_row > 0) {
			char t[UTIL_HMS_LEN];
			char why[160];
			fmt_s(why, sizeof why, "%s:%llu %s the periodic collection ran: %s (%s)",
			      rl_sname(c, e->src), (unsigned long long)e->line, rl_hms(r, e->t_ms, t), p->title,
			      p->cause);
			if (rv_active(r, V_PERIODIC_SKIPPED, 0))
				periodic_skipped_verdict(r, c); /* the clear keeps its latest state */
			rv_clear(r, V_PERIODIC_SKIPPED, 0, e->t_ms, why);
		}
		heap_st(r)->skips_in_row = 0;
	}
}

static void on_skip(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_periodic_skip *k = &e->u.pskip;
	if (k->reason != PSKIP_LAST_GC && k->reason != PSKIP_LAST_WHOLE_GC && k->reason != PSKIP_LOAD)
		return; /* a concurrent cycle in progress is not a skip of concern */
	if (heap_st(r)->skips_in_row == 0) {
		heap_st(r)->skip_first_ms = e->t_ms;
		heap_st(r)->skip_first_src = e->src;
		heap_st(r)->skip_first_line = e->line;
		heap_st(r)->skip_gap_min = INT64_MAX;
		heap_st(r)->skip_gap_max = -1;
		heap_st(r)->skip_load = 0;
	}
	heap_st(r)->skips_in_row++;
	heap_st(r)->skip_last_ms = e->t_ms;
	heap_st(r)->skip_last_src = e->src;
	heap_st(r)->skip_last_line = e->line;
	if (k->reason == PSKIP_LOAD)
		heap_st(r)->skip_load++;
	if (k->last_gc_ms >= 0) {
		if (k->last_gc_ms < heap_st(r)->skip_gap_min)
			heap_st(r)->skip_gap_min = k->last_gc_ms;
		if (k->last_gc_ms > heap_st(r)->skip_gap_max)
			heap_st(r)->skip_gap_max = k->last_gc_ms;
	}
	if (k->threshold_ms >= 0)
		heap_st(r)->skip_threshold = k->threshold_ms;
	/* raised at once; its text depends only on the skip counters, and it is
	 * rebuilt before a periodic collection clears it and at the end, so its
	 * final text does not depend on how often anyone looked (live or report) */
	if ((double)heap_st(r)->skips_in_row >= floor(r->cfg.periodic_min_skips) && !rv_active(r, V_PERIODIC_SKIPPED, 0))
		periodic_skipped_verdict(r, c);
}

static void periodic_skipped_verdict(struct rules *r, const struct rules_ctx *c)
{
	struct vdraft v;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	/* info: skipping under load is what periodic GC is designed to do; it
	 * explains why memory is not returned, it is not an alarm */
	vinit(&v, V_PERIODIC_SKIPPED, 0, SEV_INFO);
	v.start_ms = heap_st(r)->skip_first_ms;
	v.end_ms = v.jump_ms = heap_st(r)->skip_last_ms;
	if (heap_st(r)->skip_load == heap_st(r)->skips_in_row)
		vtitle(&v, "G1 periodic GC skipped %d checks in a row: system load above "
		       "G1PeriodicGCSystemLoadThreshold", heap_st(r)->skips_in_row);
	else if (heap_st(r)->skip_gap_max >= 0)
		vtitle(&v, "G1 periodic GC skipped %d checks in a row: a GC had always run less than %lld ms "
		       "before (gaps %lld-%lld ms), so it never runs under load",
		       heap_st(r)->skips_in_row, (long long)heap_st(r)->skip_threshold, (long long)heap_st(r)->skip_gap_min,
		       (long long)heap_st(r)->skip_gap_max);
	else
		vtitle(&v, "G1 periodic GC skipped %d checks in a row", heap_st(r)->skips_in_row);
	vevid(&v, "%s:%llu %s first skipped check", rl_sname(c, heap_st(r)->skip_first_src),
	      (unsigned long long)heap_st(r)->skip_first_line, rl_hms(r, heap_st(r)->skip_first_ms, t1));
	vevid(&v, "%s:%llu %s last skipped check (%d in a row, no G1 Periodic Collection since)",
	      rl_sname(c, heap_st(r)->skip_last_src), (unsigned long long)heap_st(r)->skip_last_line, rl_hms(r, heap_st(r)->skip_last_ms, t2),
	      heap_st(r)->skips_in_row);
	if (heap_st(r)->plateau_committed > 0)
		vevid(&v, "committed heap stays at %.0f MB meanwhile", heap_st(r)->plateau_committed);
	if (heap_st(r)->skip_load > 0)
		vadvice(&v, "The check is skipped while the system load average is above "
			"G1PeriodicGCSystemLoadThreshold: raise it (or set it to 0 to ignore load), or "
			"accept that memory is returned only when the machine is quieter. ");
	if (heap_st(r)->skip_load < heap_st(r)->skips_in_row)
		vadvice(&v, "Periodic GC is a check every %lld ms that runs only if no GC happened "
			"for that long; continuous allocation keeps resetting it, so it will run only after the "
			"load stops (up to 2x the interval later). To give memory back sooner after load, keep "
			"the interval below half of the idle window; to give it back under steady load, "
			"-XX:+UseParallelGC shrinks at young GCs (longer pauses), or lower -Xmx.",
			(long long)heap_st(r)->skip_threshold);
	rv_commit(r, &v);
}

static void trend_reset(struct trend *tr, int64_t t0)
{
	tr->t0 = t0;
	tr->w = 1;
	tr->n = 0;
}

static void trend_add(struct trend *tr, int64_t t, double used)
{
	if (t < tr->t0)
		t = tr->t0;
	int64_t k = (t - tr->t0) / tr->w;
	while (k >= TREND_BINS) { /* twice as wide: pairs merge */
		for (int i = 0; i < TREND_BINS / 2; i++) {
			float x = i * 2 < tr->n ? tr->min[i * 2] : -1, y = i * 2 + 1 < tr->n ? tr->min[i * 2 + 1] : -1;
			tr->min[i] = x < 0 ? y : y < 0 || x < y ? x : y;
		}
		tr->n = (tr->n + 1) / 2;
		tr->w *= 2;
		k = (t - tr->t0) / tr->w;
	}
	while (tr->n <= k)
		tr->min[tr->n++] = -1;
	if (tr->min[k] < 0 || used < tr->min[k])
		tr->min[k] = (float)used;
}

/* The lowest used-after-GC in the second and in the last quarter of [t0, b]
 * (the first quarter is warm-up; the lowest filters out the old garbage young
 * GCs leave behind): a leak shows as the floor rising. A bin counts in the
 * quarter its start is in. */
static bool used_after_trend(const struct trend *tr, int64_t b, double *q2, double *q4)
{
	int64_t span = b - tr->t0;
	*q2 = *q4 = -1;
	if (span <= 0)
		return false;
	for (int k = 0; k < tr->n; k++) {
		int64_t off = (int64_t)k * tr->w;
		double used = tr->min[k];
		if (off > span)
			break;
		if (used < 0)
			continue;
		if (off >= span / 4 && off < span / 2 && (*q2 < 0 || used < *q2))
			*q2 = used;
		if (off >= span * 3 / 4 && (*q4 < 0 || used < *q4))
			*q4 = used;
	}
	return *q2 >= 0 && *q4 >= 0;
}

static void g1_not_shrinking_verdict(struct rules *r, const struct rules_ctx *c, int64_t t);
static bool g1_condition(const struct rules *r, const struct rules_ctx *c, int64_t t);

static void g1_shrink_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	double committed = p->committed_kb / 1024.0;
	double used = p->after_kb >= 0 ? p->after_kb / 1024.0 : 0;
	if (committed > heap_st(r)->committed_peak_mb)
		heap_st(r)->committed_peak_mb = committed;
	bool shrank = heap_st(r)->plateau_since_ms != EV_TIME_NONE &&
		      committed <= heap_st(r)->plateau_committed * (1.0 - r->cfg.shrink_drop);
	if (shrank) {
		char t[UTIL_HMS_LEN], why[200];
		/* periodic-gc-shrank's row, next in the table, looks at it */
		heap_st(r)->shrink_pending = true;
		heap_st(r)->shrink_plateau_mb = heap_st(r)->plateau_committed;
		fmt_s(why, sizeof why, "%s:%llu %s committed heap fell %.0f MB -> %.0f MB (%s)",
		      rl_sname(c, e->src), (unsigned long long)e->line, rl_hms(r, e->t_ms, t), heap_st(r)->plateau_committed,
		      committed, p->title);
		if (rv_active(r, V_G1_NOT_SHRINKING, 0))
			g1_not_shrinking_verdict(r, c, heap_st(r)->plateau_last_ms); /* the clear keeps its latest state */
		rv_clear(r, V_G1_NOT_SHRINKING, 0, e->t_ms, why);
	}
	if (heap_st(r)->plateau_since_ms == EV_TIME_NONE || shrank) {
		/* the trend of the plateau ending, if the verdict's snapshot is of it */
		struct g1snap *g = &heap_st(r)->g1snap;
		if (heap_st(r)->g1snap_ms != EV_TIME_NONE && !g->trend_kept && g->since_ms == heap_st(r)->plateau_since_ms) {
			g->trend_known = used_after_trend(&heap_st(r)->trend, g->last_ms, &g->q2, &g->q4);
			g->trend_kept = true;
		}
		trend_reset(&heap_st(r)->trend, e->t_ms);
		heap_st(r)->plateau_since_ms = e->t_ms;
		heap_st(r)->plateau_committed = committed;
		heap_st(r)->plateau_min_committed = committed;
		heap_st(r)->plateau_max_used = used;
		heap_st(r)->plateau_pauses = 0;
		heap_st(r)->plateau_first_src = e->src;
		heap_st(r)->plateau_first_line = e->line;
		heap_st(r)->plateau_first_used = used;
		heap_st(r)->saw_shrink_trigger = false;
	}
	if (committed > heap_st(r)->plateau_committed)
		heap_st(r)->plateau_committed = committed; /* expansion: still not given back */
	if (used > heap_st(r)->plateau_max_used)
		heap_st(r)->plateau_max_used = used;
	if (p->after_kb >= 0) /* in tenths of MB, as the timeline keeps it */
		trend_add(&heap_st(r)->trend, e->t_ms, (int32_t)(p->after_kb / 102.4 + 0.5) / 10.0);
	heap_st(r)->plateau_pauses++;
	heap_st(r)->plateau_last_ms = e->t_ms;
	heap_st(r)->plateau_last_src = e->src;
	heap_st(r)->plateau_last_line = e->line;
	heap_st(r)->plateau_last_used = used;
	if (is_shrink_trigger(p))
		heap_st(r)->saw_shrink_trigger = true;
	/* Judged at every pause, cheaply; the text is built from the state of the
	 * last pause that showed the condition (a snapshot), so it is the same
	 * however often evaluations look at it (live or report). */
	if (g1_condition(r, c, e->t_ms)) {
		heap_st(r)->g1snap_ms = e->t_ms;
		heap_st(r)->g1snap = (struct g1snap){
			.since_ms = heap_st(r)->plateau_since_ms, .last_ms = heap_st(r)->plateau_last_ms,
			.committed = heap_st(r)->plateau_committed, .min_committed = heap_st(r)->plateau_min_committed,
			.max_used = heap_st(r)->plateau_max_used, .first_used = heap_st(r)->plateau_first_used,
			.last_used = heap_st(r)->plateau_last_used, .pauses = heap_st(r)->plateau_pauses,
			.first_src = heap_st(r)->plateau_first_src, .last_src = heap_st(r)->plateau_last_src,
			.first_line = heap_st(r)->plateau_first_line, .last_line = heap_st(r)->plateau_last_line,
			.saw_trigger = heap_st(r)->saw_shrink_trigger, .longest_gap_ms = r->longest_gap_ms,
		};
		if (!rv_active(r, V_G1_NOT_SHRINKING, 0))
			g1_not_shrinking_verdict(r, c, e->t_ms);
	} else if (rv_active(r, V_G1_NOT_SHRINKING, 0) && heap_st(r)->plateau_since_ms == heap_st(r)->g1snap.since_ms &&
		   heap_st(r)->plateau_committed < r->cfg.shrink_ratio * heap_st(r)->plateau_max_used) {
		/* live data grew into the heap: the memory is used now, not idle */
		char t[UTIL_HMS_LEN], why[220];
		g1_not_shrinking_verdict(r, c, heap_st(r)->g1snap_ms); /* its last state, then the clear */
		fmt_s(why, sizeof why, "%s:%llu %s used after GC %.0f MB of %.0f MB committed: the heap is in "
		      "use now", rl_sname(c, e->src), (unsigned long long)e->line, rl_hms(r, e->t_ms, t),
		      heap_st(r)->plateau_max_used, heap_st(r)->plateau_committed);
		rv_clear(r, V_G1_NOT_SHRINKING, 0, e->t_ms, why);
	}
}

static bool g1_condition(const struct rules *r, const struct rules_ctx *c, int64_t t)
{
	double committed = heap_st(r)->plateau_committed, live = heap_st(r)->plateau_max_used;
	return c->sum->collector == GC_G1 &&
	       (double)heap_st(r)->plateau_pauses >= floor(r->cfg.shrink_min_pauses) && /* (int) of 1e12 is undefined */
	       (double)(t - heap_st(r)->plateau_since_ms) >= r->cfg.shrink_min_span_ms &&
	       committed >= r->cfg.shrink_ratio * live && committed - live >= r->cfg.shrink_min_waste_mb;
}

/* built from heap_st(r)->g1snap, the state at the last pause that showed the condition */
static void g1_not_shrinking_verdict(struct rules *r, const struct rules_ctx *c, int64_t t)
{
	const struct summary *s = c->sum;
	const struct g1snap *g = &heap_st(r)->g1snap;
	(void)t;
	if (s->collector != GC_G1 || heap_st(r)->g1snap_ms == EV_TIME_NONE)
		return;
	double committed = g->committed, live = g->max_used;
	struct verdict *old = rv_find(r, V_G1_NOT_SHRINKING, 0);
	if (old && old->cleared_ms != EV_TIME_NONE && old->cleared_ms >= g->since_ms)
		return; /* cleared by the shrink that started this plateau */
	struct vdraft v;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	int sev = SEV_INFO;
	double floor_mb = s->heap_min_kb >= 0 ? s->heap_min_kb / 1024.0 : -1;
	bool xms_floor = floor_mb > 0 && floor_mb >= committed * 0.98;
	/* urgent only when the container is close to its memory limit: a heap
	 * that grew past -Xms at warm-up and kept it is what every G1 service
	 * does (recordings/healthy-control: 380 -> 793 MB committed, 105 MB live,
	 * steady load), not an incident */
	if (c->have_mem && c->tl->mem.total > 0) {
		const struct tl_mem *m = ring_at(&c->tl->mem, c->tl->mem.total - 1);
		if (m && m->limit_bytes > 0 && (double)m->usage_bytes >= r->cfg.mem_tight * (double)m->limit_bytes)
			sev = SEV_WARN;
	}
	vinit(&v, V_G1_NOT_SHRINKING, 0, sev);
	v.start_ms = g->since_ms;
	v.end_ms = v.jump_ms = g->last_ms;
	/* a leak shows as used-after-GC growing (docs/verdicts.md, g1-not-shrinking); then "not a leak"
	 * is not ours to say */
	double q2 = -1, q4 = -1;
	bool known;
	if (g->trend_kept) {
		known = g->trend_known;
		q2 = g->q2;
		q4 = g->q4;
	} else {
		known = used_after_trend(&heap_st(r)->trend, g->last_ms, &q2, &q4);
	}
	bool growing = known && q4 >= r->cfg.leak_growth_ratio * q2 && q4 - q2 >= r->cfg.leak_growth_min_mb;
	char grew[64] = "";
	if (committed > g->min_committed * 1.05)
		fmt_s(grew, sizeof grew, "grew from %.0f MB to %.0f MB and ", g->min_committed,
		      committed);
	if (growing)
		vtitle(&v, "G1 is not giving memory back: committed heap %sstays at %.0f MB, and used after GC "
		       "keeps growing (%.0f MB -> %.0f MB at its lowest): check for a leak", grew, committed, q2, q4);
	else
		vtitle(&v, "G1 is not giving memory back - not a leak: committed heap %sstays at %.0f MB while "
		       "live data after GC is %.0f MB", grew, committed, g->last_used);
	vevid(&v, "%s:%llu %s %.0f MB committed, %.0f MB used after GC",
	      rl_sname(c, g->first_src), (unsigned long long)g->first_line,
	      rl_hms(r, g->since_ms, t1), g->min_committed, g->first_used);
	vevid(&v, "%s:%llu %s %.0f MB committed, %.0f MB used after GC (%d collections, max used after "
	      "GC %.0f MB)", rl_sname(c, g->last_src), (unsigned long long)g->last_line,
	      rl_hms(r, g->last_ms, t2), committed, g->last_used, g->pauses, live);
	if (!g->saw_trigger)
		vevid(&v, "no Pause Remark or Pause Full in that time: G1 shrinks only after those "
		      "(JDK 12-25; JDK 11: Full only)");
	if (s->periodic_interval_ms == 0)
		vevid(&v, "init: Periodic GC: Disabled");
	else if (s->periodic_interval_ms > 0)
		vevid(&v, "init: Periodic GC Interval: %lld ms", (long long)s->periodic_interval_ms);
	if (xms_floor)
		vevid(&v, "init: Heap Min Capacity %.0f MB = committed: -Xms is the floor", floor_mb);
	if (growing)
		vadvice(&v, "Used after GC keeps growing: compare it after a Full or mixed GC (young GCs "
			"leave old garbage behind); if it still grows under constant load, take a heap "
			"histogram (jcmd <pid> GC.class_histogram) twice and compare. ");
	if (g->longest_gap_ms > 0)
		vevid(&v, "longest time without any GC: %.1f s", g->longest_gap_ms / 1000.0);

	int rel = s->jdk_release;
	if (xms_floor) {
		/* nothing else helps while -Xms holds the heap: a periodic GC or
		 * Parallel shrink to -Xms at most, which is where it already is */
		vadvice(&v, "-Xms (%.0f MB) is the floor: G1 never shrinks below it, so -Xms == -Xmx means "
			"it never gives memory back, whatever triggers a shrink; lower -Xms first.", floor_mb);
	} else if (rel == 11 || rel == 8 || (rel > 0 && rel < 12)) {
		vadvice(&v, "On JDK %d G1 shrinks the heap only after a Pause Full and has no "
			"G1PeriodicGCInterval (the JVM refuses to start with it; it came with JDK 12, JEP 346): "
			"upgrade to JDK 12+ (17 is the nearest LTS), or use -XX:+UseParallelGC, which shrinks at "
			"young GCs even under steady load.", rel);
	} else if (rel >= 26) {
		vadvice(&v, "JDK %d shrinks after young GCs too; if it still does not, check -Xms.", rel);
	} else if (s->periodic_interval_ms > 0) {
		vadvice(&v, "Periodic GC is on (%lld ms) but only runs after that long without any GC: see "
			"periodic-gc-skipped. Under continuous load -XX:+UseParallelGC shrinks at young GCs "
			"(longer pauses).", (long long)s->periodic_interval_ms);
	} else {
		/* a gap between GCs under load is not an idle window: only a gap of
		 * idle_min_ms or more is taken for one; the interval must be below half
		 * of it, so that a periodic collection runs in such a window */
		long long ms = 30000;
		bool idle = g->longest_gap_ms >= (int64_t)r->cfg.idle_min_ms && g->longest_gap_ms >= 2000;
		if (idle) {
			ms = (long long)(g->longest_gap_ms / 2 / 1000) * 1000;
			if (ms * 2 >= g->longest_gap_ms)
				ms -= 1000;
			if (ms < 1000)
				ms = 1000;
		}
		/* without idle time in the log 30 s is a guess: say so rather than call
		 * it "below half of the idle window" */
		vadvice(&v, "Set -XX:G1PeriodicGCInterval=%lld (ms; %s; manageable on a running JVM: jcmd "
			"<pid> VM.set_flag G1PeriodicGCInterval %lld), or -XX:+UseParallelGC, which shrinks at "
			"young GCs even under steady load (longer pauses).", ms,
			idle ? "below half of the longest time without GC in this log" :
			       "this log shows no idle period, so keep it below half of the quiet time "
			       "expected after a peak",
			ms);
	}
	rv_commit(r, &v);
}


static void periodic_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	if (e->kind == EV_GC_PAUSE)
		periodic_on_pause(r, c, e);
	else if (e->kind == EV_PERIODIC_SKIP)
		on_skip(r, c, e);
}

static void g1_on_pause(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	if ((e->u.pause.flags & PAUSE_F_HEAP) && e->u.pause.committed_kb >= 0)
		g1_shrink_event(r, c, e);
}

/* periodic-gc-shrank: the committed heap fell (g1-not-shrinking's row, just
 * before in the table, saw it on this pause) within periodic_link_ms of a
 * periodic collection (periodic-gc-skipped's row keeps the last one) */
static void shrank_on_pause(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	if (!heap_st(r)->shrink_pending)
		return;
	heap_st(r)->shrink_pending = false;
	const struct ev_pause *p = &e->u.pause;
	double committed = p->committed_kb / 1024.0;
	double used = p->after_kb >= 0 ? p->after_kb / 1024.0 : 0;
	char t[UTIL_HMS_LEN], t1[UTIL_HMS_LEN];
	if (heap_st(r)->last_periodic_ms == EV_TIME_NONE || e->t_ms - heap_st(r)->last_periodic_ms > (int64_t)r->cfg.periodic_link_ms)
		return;
	struct verdict *old = rv_find(r, V_PERIODIC_SHRANK, 0);
	struct vdraft v;
	vinit(&v, V_PERIODIC_SHRANK, 0, SEV_INFO);
	if (old)
		vdraft_of(&v, old);
	else
		heap_st(r)->shrank_from_mb = heap_st(r)->shrink_plateau_mb; /* the title keeps the first "before" */
	double before = heap_st(r)->shrank_from_mb;
	v.end_ms = e->t_ms;
	if (!old) {
		v.start_ms = heap_st(r)->last_periodic_ms;
		v.jump_ms = e->t_ms;
	}
	vtitle(&v, "G1 periodic GC gave memory back: committed heap %.0f MB -> %.0f MB",
	       before, committed);
	if (!old)
		vevid(&v, "%s:%llu %s periodic collection (committed %.0f MB)",
		      rl_sname(c, heap_st(r)->last_periodic_src), (unsigned long long)heap_st(r)->last_periodic_line,
		      rl_hms(r, heap_st(r)->last_periodic_ms, t1), heap_st(r)->last_periodic_committed);
	vevid(&v, "%s:%llu %s %s: %.0f MB -> %.0f MB committed, %.0f MB used after",
	      rl_sname(c, e->src), (unsigned long long)e->line, rl_hms(r, e->t_ms, t), p->title,
	      heap_st(r)->shrink_plateau_mb, committed, used);
	if (!old)
		vadvice(&v, "Working as intended: with G1PeriodicGCInterval the heap shrinks "
			"after the load stops (within 2x the interval).");
	rv_commit(r, &v);
}

static void heap_refresh_g1(struct rules *r, const struct rules_ctx *c, bool all)
{
	if (c->sum->collector == GC_G1 && heap_st(r)->plateau_since_ms != EV_TIME_NONE &&
	    (all || !rv_active(r, V_G1_NOT_SHRINKING, 0)))
		g1_not_shrinking_verdict(r, c, heap_st(r)->plateau_last_ms);
}

static void heap_refresh_periodic(struct rules *r, const struct rules_ctx *c, bool all)
{
	if ((double)heap_st(r)->skips_in_row >= floor(r->cfg.periodic_min_skips) && (all || !rv_active(r, V_PERIODIC_SKIPPED, 0)))
		periodic_skipped_verdict(r, c);
}

/* its thresholds (--config, --help-config) */
static const struct rule_knob periodic_skipped_knobs[] = {
	RULE_KNOB(periodic_min_skips, 2, "two skipped periodic checks in a row; all 5 skipped under load (docs/verdicts.md, periodic-gc-skipped)"),
};

/* whole-run verdicts of the heap (ranks 10-12, in a report after gc-overhead) */
const struct rule rule_periodic_skipped = {
	.info = {.id = V_PERIODIC_SKIPPED, .name = "periodic-gc-skipped", .kind = VERDICT_RUN, .rank = 11},
	.on_event = periodic_on_event,
	.on_kinds = (1u << EV_GC_PAUSE) | (1u << EV_PERIODIC_SKIP),
	.refresh = heap_refresh_periodic,
	.state = &heap_state_type,
	RULE_KNOBS(periodic_skipped_knobs),
};

/* its thresholds (--config, --help-config) */
static const struct rule_knob g1_not_shrinking_knobs[] = {
	RULE_KNOB(shrink_ratio, 2, "committed heap at least twice the live data after GC"),
	RULE_KNOB(shrink_min_waste_mb, 64, "ignore heaps whose unreturned memory is under 64 MB"),
	RULE_KNOB(shrink_min_span_ms, 20000, "committed flat for 20 s (two periodic-GC intervals of the reproduced run)"),
	RULE_KNOB(shrink_min_pauses, 3, "at least three collections have looked at the heap"),
	RULE_KNOB(shrink_drop, 0.2, "committed falling by 20% or more is G1 giving memory back"),
	RULE_KNOB(mem_tight, 0.8, "container memory above 80% of its limit makes unreturned heap urgent"),
	RULE_KNOB(idle_min_ms, 10000, "10 s without any GC is idle: under load G1 collects every 0.04-1.4 s (g1-periodic)"),
	RULE_KNOB(leak_growth_ratio, 1.5, "used after GC up by half over the plateau is growth, not noise (docs/verdicts.md, g1-not-shrinking)"),
	RULE_KNOB(leak_growth_min_mb, 64, "... and by at least 64 MB, so a small heap's jitter is not a leak"),
};

const struct rule rule_g1_not_shrinking = {
	.info = {.id = V_G1_NOT_SHRINKING, .name = "g1-not-shrinking", .kind = VERDICT_RUN, .rank = 10},
	.on_event = g1_on_pause,
	.on_kinds = 1u << EV_GC_PAUSE,
	.refresh = heap_refresh_g1,
	.state = &heap_state_type,
	RULE_KNOBS(g1_not_shrinking_knobs),
};

/* its thresholds (--config, --help-config) */
static const struct rule_knob periodic_shrank_knobs[] = {
	RULE_KNOB(periodic_link_ms, 60000, "a shrink within a minute of a periodic collection is its doing (load-stops: 4 ms)"),
};

const struct rule rule_periodic_shrank = {
	.info = {.id = V_PERIODIC_SHRANK, .name = "periodic-gc-shrank", .kind = VERDICT_RUN, .rank = 12},
	.on_event = shrank_on_pause,
	.on_kinds = 1u << EV_GC_PAUSE,
	.state = &heap_state_type,
	RULE_KNOBS(periodic_shrank_knobs),
};
