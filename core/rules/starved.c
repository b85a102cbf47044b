/* SPDX-License-Identifier: GPL-2.0-or-later */
/* starved.c — cpu-starved (rules_internal.h): the JVM's threads waited to run
 * far longer than they ran, over a window of starved_window_ms, whether or not
 * a stop grew long. A whole-run rule, one verdict per episode.
 *
 * Evidence: schedstat (/proc/PID/task/TID/schedstat: ns on CPU and ns
 * runnable but waiting, per thread; core/store/schedacc.c sums the deltas of
 * one interval into an EV_SCHED, live from core/probe/probe_sched.c, in a
 * report from --schedstat-log or --replay). sched-delay-during-stop judges the
 * same numbers around each long stop; this rule judges them over time: with
 * cpu.shares starving the JVM its threads waited 10-30x longer than they ran
 * for 40 s while no stop reached 100 ms (issue 24 point 10).
 *
 * On this kernel time a thread spends held by the CFS quota also counts as
 * run-queue wait, so schedstat alone cannot tell starvation from throttling
 * (samples/throttle/throttled waits 31x longer than it runs). A window whose
 * cgroup cpu.stat shows throttling is the quota's doing, which
 * cpu-throttled-during-stop names: it is not a starved window. Without
 * cpu.stat for the window the verdict says that both are possible. */
#include "rules_internal.h"

#include <math.h>

#include "stwtop/fmt.h"

#define ST_SLOTS 512                   /* intervals held (a power of two) */
#define ST_SLOT_MIN_MS 250             /* shorter intervals are merged into one slot */
#define ST_PAUSES 1024                 /* GC pauses held (a power of two) */

struct st_slot {                       /* schedstat summed over >= ST_SLOT_MIN_MS */
	int64_t from_ms, to_ms;
	double oncpu_ms, wait_ms;
	double worst_wait_ms;
	int32_t worst_tid, nthreads;
	char worst_comm[16];
};

struct st_pause {
	int64_t t_ms;                  /* end */
	float dur_ms;
};

/* a window of slots, summed */
struct st_win {
	int64_t from_ms, to_ms;
	double span_ms, oncpu_ms, wait_ms;
	double worst_wait_ms;
	int32_t worst_tid, nthreads;
	char worst_comm[16];
	int cpu;                       /* ST_CPU_* */
	struct tl_cpu_delta cd;
};

enum { ST_CPU_NONE = 0, ST_CPU_CLEAN, ST_CPU_THROTTLED };

struct starved_state {
	struct st_slot ring[ST_SLOTS];
	uint64_t head;                 /* slots pushed */
	struct st_slot acc;            /* the slot being filled */
	bool acc_open;
	uint64_t judged;               /* slots [0, judged) ended a judged window */
	struct st_pause pauses[ST_PAUSES];
	uint64_t npauses;
	/* the episode */
	bool open;
	uint64_t episode;
	int64_t start_ms, end_ms;      /* first starved window's start, last one's end */
	uint64_t counted;              /* slots [.., counted) are in its sums */
	double run_ms, wait_ms, span_ms;
	uint32_t windows;              /* starved windows in it */
	bool stale;                    /* its verdict lags behind the windows judged */
	struct st_win worst;           /* highest wait/run */
	int cpu_seen;                  /* best cpu.stat answer of its windows (ST_CPU_*) */
	uint32_t throttled_windows;    /* windows of the whole run left out as throttled */
};

static const struct rule_state_type starved_state_type = {sizeof(struct starved_state), NULL};

static inline struct starved_state *st_st(const struct rules *r)
{
	return rl_state(r, V_CPU_STARVED);
}

static const struct st_slot *slot_at(const struct starved_state *s, uint64_t i)
{
	return &s->ring[i & (ST_SLOTS - 1)];
}

static void slot_push(struct starved_state *s)
{
	s->ring[s->head & (ST_SLOTS - 1)] = s->acc;
	s->head++;
	if (s->head - s->judged > ST_SLOTS)
		s->judged = s->head - ST_SLOTS; /* never judged: overwritten */
	if (s->head - s->counted > ST_SLOTS)
		s->counted = s->head - ST_SLOTS; /* an episode longer than the ring: its oldest slots were counted */
	s->acc_open = false;
}

static void on_sched(struct starved_state *s, const struct event *e)
{
	const struct ev_sched *q = &e->u.sched;
	if (!(q->interval_ms > 0) || q->oncpu_ms < 0 || q->wait_ms < 0)
		return;
	int64_t from = e->t_ms - (int64_t)llround(q->interval_ms);
	/* a gap (the probe missed reads, or a restart) closes the slot */
	if (s->acc_open && (from > s->acc.to_ms + 2000 || e->t_ms <= s->acc.to_ms))
		slot_push(s);
	if (!s->acc_open) {
		memset(&s->acc, 0, sizeof s->acc);
		s->acc.from_ms = from;
		s->acc.worst_tid = -1;
		s->acc_open = true;
	}
	struct st_slot *a = &s->acc;
	a->to_ms = e->t_ms;
	a->oncpu_ms += q->oncpu_ms;
	a->wait_ms += q->wait_ms;
	if (q->nthreads > a->nthreads)
		a->nthreads = q->nthreads;
	if (q->worst_tid >= 0 && q->worst_wait_ms > a->worst_wait_ms) {
		a->worst_wait_ms = q->worst_wait_ms;
		a->worst_tid = q->worst_tid;
		memcpy(a->worst_comm, q->worst_comm, sizeof a->worst_comm);
	}
	if (a->to_ms - a->from_ms >= ST_SLOT_MIN_MS)
		slot_push(s);
}

static void starved_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	struct starved_state *s = st_st(r);
	(void)c;
	if (e->kind == EV_SCHED) {
		on_sched(s, e);
	} else if (e->kind == EV_GC_PAUSE && e->u.pause.dur_ms >= 0) {
		struct st_pause *p = &s->pauses[s->npauses & (ST_PAUSES - 1)];
		p->t_ms = e->t_ms;
		p->dur_ms = (float)e->u.pause.dur_ms;
		s->npauses++;
	}
}

/* The window of starved_window_ms ending with slot i; false when the slots
 * held do not cover most of it (the start of the run, a gap in the reads). */
static bool window_at(const struct rules *r, const struct starved_state *s, uint64_t i, struct st_win *w)
{
	double want = r->cfg.starved_window_ms;
	const struct st_slot *last = slot_at(s, i);
	uint64_t lo = s->head > ST_SLOTS ? s->head - ST_SLOTS : 0;
	memset(w, 0, sizeof *w);
	w->worst_tid = -1;
	w->to_ms = last->to_ms;
	w->from_ms = last->to_ms;
	for (uint64_t j = i + 1; j-- > lo;) {
		const struct st_slot *q = slot_at(s, j);
		if ((double)(last->to_ms - q->from_ms) > want * 1.05)
			break;
		w->from_ms = q->from_ms;
		w->span_ms += (double)(q->to_ms - q->from_ms);
		w->oncpu_ms += q->oncpu_ms;
		w->wait_ms += q->wait_ms;
		if (q->nthreads > w->nthreads)
			w->nthreads = q->nthreads;
		if (q->worst_wait_ms > w->worst_wait_ms) {
			w->worst_wait_ms = q->worst_wait_ms;
			w->worst_tid = q->worst_tid;
			memcpy(w->worst_comm, q->worst_comm, sizeof w->worst_comm);
		}
	}
	return w->span_ms >= want * 0.9;
}

/* Was the cgroup throttled in the window? ST_CPU_NONE: cpu.stat does not
 * bracket it (or carries no throttling counters). */
static int window_cpu(const struct rules *r, const struct rules_ctx *c, struct st_win *w)
{
	if (!c->have_cpu || c->tl->cpu.total == 0)
		return ST_CPU_NONE;
	/* a window that began before the first cpu.stat sample (the start of a
	 * recording): judged from that sample on, when it covers half the window */
	int64_t a = w->from_ms;
	const struct tl_cpu *first = ring_at(&c->tl->cpu, ring_first(&c->tl->cpu));
	if (first && first->t_ms > a)
		a = first->t_ms;
	if (a >= w->to_ms || !timeline_cpu_delta(c->tl, a, w->to_ms, &w->cd) || w->cd.to_ms <= w->cd.from_ms ||
	    (double)(w->cd.to_ms - w->cd.from_ms) < 0.5 * (double)(w->to_ms - w->from_ms))
		return ST_CPU_NONE;
	bool thr = w->cd.throttled_us >= (int64_t)(r->cfg.throttle_min_ms * 1000) &&
		   (double)w->cd.throttled_us / 1000.0 >= r->cfg.throttle_share * (double)(w->cd.to_ms - w->cd.from_ms);
	return thr ? ST_CPU_THROTTLED : ST_CPU_CLEAN;
}

static double ratio_of(const struct st_win *w)
{
	return w->wait_ms / (w->oncpu_ms > 1 ? w->oncpu_ms : 1);
}

/* the longest GC pause ending in [a, b], -1 none */
static double longest_pause(const struct starved_state *s, int64_t a, int64_t b, int64_t *at)
{
	double best = -1;
	uint64_t lo = s->npauses > ST_PAUSES ? s->npauses - ST_PAUSES : 0;
	for (uint64_t i = lo; i < s->npauses; i++) {
		const struct st_pause *p = &s->pauses[i & (ST_PAUSES - 1)];
		if (p->t_ms >= a && p->t_ms <= b && p->dur_ms > best) {
			best = p->dur_ms;
			*at = p->t_ms;
		}
	}
	return best;
}

static void starved_verdict(struct rules *r, const struct rules_ctx *c)
{
	struct starved_state *s = st_st(r);
	const struct st_win *w = &s->worst;
	struct vdraft v;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], t3[UTIL_HMS_LEN];
	double span_s = s->span_ms / 1000.0;
	vinit(&v, V_CPU_STARVED, s->episode, SEV_WARN);
	v.start_ms = s->start_ms;
	v.end_ms = s->end_ms;
	v.jump_ms = w->from_ms;
	if (s->cpu_seen == ST_CPU_CLEAN)
		vtitle(&v, "The JVM was starved of CPU for %.0f s: its threads waited for a CPU %.0fx longer "
		       "than they ran (up to %.0fx over %.0f s), and the cgroup was not throttled",
		       (double)(s->end_ms - s->start_ms) / 1000.0, s->wait_ms / (s->run_ms > 1 ? s->run_ms : 1),
		       ratio_of(w), r->cfg.starved_window_ms / 1000.0);
	else
		vtitle(&v, "The JVM's threads waited for a CPU %.0fx longer than they ran for %.0f s (up to "
		       "%.0fx over %.0f s): run-queue starvation or CPU throttling, %s",
		       s->wait_ms / (s->run_ms > 1 ? s->run_ms : 1), (double)(s->end_ms - s->start_ms) / 1000.0,
		       ratio_of(w), r->cfg.starved_window_ms / 1000.0,
		       c->have_cpu ? "cpu.stat has no throttling counters for that time" : "no cpu.stat to tell them apart");
	vevid(&v, "schedstat %s-%s: JVM threads %.0f ms on CPU, %.0f ms runnable but waiting (%.0f ms "
	      "waiting per second of wall time)", rl_hms(r, s->start_ms, t1), rl_hms(r, s->end_ms, t2), s->run_ms,
	      s->wait_ms, span_s > 0 ? s->wait_ms / span_s : 0);
	vevid(&v, "worst %.0f s: %s-%s, %.0f ms on CPU, %.0f ms waiting (%.0f ms per second) over up to %d threads",
	      w->span_ms / 1000.0, rl_hms(r, w->from_ms, t1), rl_hms(r, w->to_ms, t2), w->oncpu_ms, w->wait_ms,
	      w->span_ms > 0 ? w->wait_ms * 1000.0 / w->span_ms : 0, w->nthreads);
	if (w->worst_tid >= 0)
		vevid(&v, "waited most in one interval there: \"%s\" (tid %d) %.0f ms", w->worst_comm, w->worst_tid,
		      w->worst_wait_ms);
	if (w->cpu == ST_CPU_CLEAN)
		vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms, nr_periods %+lld%s",
		      rl_hms(r, w->cd.from_ms, t1), rl_hms(r, w->cd.to_ms, t2), w->cd.throttled_us / 1000.0,
		      (long long)w->cd.periods, w->cd.quota_us > 0 ? "" : " (no CPU quota)");
	int64_t at_before = 0, at_in = 0;
	double before = longest_pause(s, s->start_ms - (int64_t)r->cfg.starved_window_ms, s->start_ms - 1, &at_before);
	double during = longest_pause(s, s->start_ms, s->end_ms, &at_in);
	if (during >= 0)
		vevid(&v, "longest GC pause while starved: %.1f ms at %s%s", during, rl_hms(r, at_in, t3),
		      before >= 0 ? "" : " (no pause in the window before)");
	if (during >= 0 && before >= 0)
		vevid(&v, "longest GC pause in the %.0f s before: %.1f ms", r->cfg.starved_window_ms / 1000.0, before);
	vevid(&v, "starved: waiting >= %.0fx on CPU and >= %.0f ms per second over %.0f s windows (%u windows)",
	      r->cfg.starved_ratio, r->cfg.starved_wait_ms_per_s, r->cfg.starved_window_ms / 1000.0, s->windows);
	vadvice(&v, "The threads were runnable but did not get a CPU: other work on the node took the "
		"CPUs, and the JVM's share of them was small (cgroup v1 cpu.shares / v2 cpu.weight: "
		"Kubernetes gives a pod shares in proportion to its CPU request, so a pod with a small "
		"request next to busy pods with large ones gets little CPU even without a limit). "
		"Everything the JVM does slows down: requests, GC pauses, safepoint reaching. Raise the "
		"pod's CPU request (its shares), move it off the busy node or isolate the noisy "
		"neighbours; check the node's load and steal time. ");
	if (s->cpu_seen != ST_CPU_CLEAN)
		vadvice(&v, "On this kernel a thread held by a CFS quota is counted as waiting too: "
			"%s", c->have_cpu ? "the cpu.stat samples of that time carry no throttling counters; "
			"check container_cpu_cfs_throttled_seconds_total."
					  : "add --cpustat-log, --cgroup or --pid so cpu.stat can tell them apart.");
	rv_commit(r, &v);
}

/* a slot that alone meets both thresholds: where an episode starts and ends */
static bool slot_starved(const struct rules *r, const struct st_slot *q)
{
	double span = (double)(q->to_ms - q->from_ms);
	return span > 0 && q->wait_ms >= r->cfg.starved_ratio * (q->oncpu_ms > 1 ? q->oncpu_ms : 1) &&
	       q->wait_ms * 1000.0 / span >= r->cfg.starved_wait_ms_per_s;
}

/* add the slots not yet counted that end by the episode's end to its sums */
static void count_upto(struct starved_state *s)
{
	for (; s->counted < s->head; s->counted++) {
		const struct st_slot *q = slot_at(s, s->counted);
		if (q->to_ms > s->end_ms)
			break;
		if (q->to_ms <= s->start_ms)
			continue;
		s->run_ms += q->oncpu_ms;
		s->wait_ms += q->wait_ms;
		s->span_ms += (double)(q->to_ms - q->from_ms);
	}
}

static void judge_window(struct rules *r, const struct rules_ctx *c, uint64_t i)
{
	struct starved_state *s = st_st(r);
	struct st_win w;
	if (!window_at(r, s, i, &w))
		return;
	bool heavy = w.wait_ms >= r->cfg.starved_ratio * (w.oncpu_ms > 1 ? w.oncpu_ms : 1) &&
		     w.wait_ms * 1000.0 / w.span_ms >= r->cfg.starved_wait_ms_per_s;
	w.cpu = heavy ? window_cpu(r, c, &w) : ST_CPU_NONE;
	if (heavy && w.cpu == ST_CPU_THROTTLED) {
		/* the quota's doing: cpu-throttled-during-stop's word */
		s->throttled_windows++;
		heavy = false;
	}
	if (heavy) {
		/* the episode runs from its first starved slot to its last: a window
		 * also holds the calm time around them */
		uint64_t lo = s->head > ST_SLOTS ? s->head - ST_SLOTS : 0, first = i, last = i;
		while (first > lo && slot_at(s, first - 1)->from_ms >= w.from_ms)
			first--;
		while (first < i && !slot_starved(r, slot_at(s, first)))
			first++;
		while (last > first && !slot_starved(r, slot_at(s, last)))
			last--;
		if (!s->open) {
			s->open = true;
			s->episode++;
			s->start_ms = slot_at(s, first)->from_ms;
			s->end_ms = s->start_ms;
			s->run_ms = s->wait_ms = s->span_ms = 0;
			s->windows = 0;
			s->cpu_seen = ST_CPU_NONE;
			s->counted = first;
		}
		if (slot_at(s, last)->to_ms > s->end_ms)
			s->end_ms = slot_at(s, last)->to_ms;
		s->windows++;
		count_upto(s);
		if (w.cpu > s->cpu_seen)
			s->cpu_seen = w.cpu;
		if (s->windows == 1 || ratio_of(&w) > ratio_of(&s->worst))
			s->worst = w;
		/* raised at once, then brought up to date every 10 windows, when it
		 * clears and at the end: live, a window is judged every read, and
		 * an update per second would be a line per second of --plain */
		if (s->windows % 10 == 1)
			starved_verdict(r, c);
		else
			s->stale = true;
		return;
	}
	if (s->open) {
		char why[200], tb[UTIL_HMS_LEN];
		if (s->stale)
			starved_verdict(r, c); /* the clear keeps its latest state */
		s->stale = false;
		fmt_s(why, sizeof why, "%s the threads waited %.1fx their time on CPU (%.0f ms per second) over "
		      "the last %.0f s: cleared", rl_hms(r, w.to_ms, tb), ratio_of(&w),
		      w.wait_ms * 1000.0 / w.span_ms, w.span_ms / 1000.0);
		rv_clear(r, V_CPU_STARVED, s->episode, w.to_ms, why);
		s->open = false;
	}
}

static void starved_refresh(struct rules *r, const struct rules_ctx *c, bool all)
{
	struct starved_state *s = st_st(r);
	(void)all;
	if (r->eval_final && s->acc_open)
		slot_push(s);
	/* live, the cpu.stat read that brackets a window may come after its
	 * schedstat: judge a window once cpu.stat has caught up with it (or at the
	 * end), so a throttled window is never taken for a starved one */
	int64_t ready = INT64_MAX;
	if (c->have_cpu && !r->eval_final && c->tl->cpu.total > 0 && s->head > 0) {
		const struct tl_cpu *last = ring_at(&c->tl->cpu, c->tl->cpu.total - 1);
		/* ... or once it is a horizon behind (a cgroup that went away) */
		int64_t behind = slot_at(s, s->head - 1)->to_ms - (int64_t)r->cfg.horizon_ms;
		ready = last && last->t_ms > behind ? last->t_ms : behind;
	}
	while (s->judged < s->head) {
		if (slot_at(s, s->judged)->to_ms > ready)
			break;
		judge_window(r, c, s->judged);
		s->judged++;
	}
	if (r->eval_final && s->open && s->stale) {
		starved_verdict(r, c);
		s->stale = false;
	}
}

/* its thresholds (--config, --help-config) */
static const struct rule_knob starved_knobs[] = {
	RULE_KNOB(starved_window_ms, 20000, "judged over 20 s: a start-up or one long GC does not starve; recordings/cpu-starved waited 28x for 61 s"),
	RULE_KNOB(starved_ratio, 5, "threads waited >= 5x their time on CPU: healthy recordings <= 0.9x over any 10 s, pinned contention 3.5x, recordings/cpu-starved 28x (its control 1.1x)"),
	RULE_KNOB(starved_wait_ms_per_s, 1000, "and >= 1 s of waiting per second (all threads): healthy recordings <= 283 ms/s, pinned contention 494 ms/s, recordings/cpu-starved 2148 ms/s"),
};

const struct rule rule_cpu_starved = {
	.info = {.id = V_CPU_STARVED, .name = "cpu-starved", .kind = VERDICT_RUN, .rank = 13},
	.on_event = starved_on_event, .on_kinds = (1u << EV_SCHED) | (1u << EV_GC_PAUSE),
	.refresh = starved_refresh,
	.state = &starved_state_type,
	RULE_KNOBS(starved_knobs),
};
