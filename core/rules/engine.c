/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.c — the verdict engine (rules.h): incidents on one timeline, judged
 * from the evidence of every source by the rules of the table (table.c).
 *
 * Two kinds of verdicts (enum verdict_kind):
 *  - incident verdicts: one instance per incident, re-judged while the
 *    incident is open, frozen once it is final. The facts of an incident (its
 *    stops, the throttling around them, the requests around it) are computed
 *    once per judgement (facts.c) and handed to every incident rule;
 *  - whole-run verdicts: state kept as events arrive (their on_event hooks),
 *    raised and refreshed at evaluations (their refresh hooks).
 */
#include "rules_internal.h"

#include <assert.h>
#include <errno.h>

#include <math.h>

/* Which rows want which event kinds, once: an nginx line then costs no
 * look at the JVM rules. */
static void build_hooks(struct rules *r)
{
	_Static_assert(EV_KIND_COUNT <= 32, "event kinds fit on_kinds");
	for (size_t i = 0; i < rule_count; i++)
		for (int k = 0; k < EV_KIND_COUNT; k++) {
			struct rule_hooks *h = &r->hooks[k];
			if (!rule_table[i]->on_event || !(rule_table[i]->on_kinds & (1u << k)))
				continue;
			assert(h->n < sizeof h->row);
			h->row[h->n++] = (uint8_t)i;
		}
	for (size_t i = 0; i < rule_count; i++)
		if (rule_table[i]->refresh)
			r->refresh_row[r->nrefresh++] = (uint8_t)i;
}

/* the first row with row i's state type: it owns the allocation */
static bool first_of_type(size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (rule_table[k]->state == rule_table[i]->state)
			return false;
	return true;
}

/* each family's state, once, shared by its rows */
static int alloc_states(struct rules *r)
{
	for (size_t i = 0; i < rule_count; i++) {
		const struct rule_state_type *t = rule_table[i]->state;
		if (!t)
			continue;
		if (!first_of_type(i)) {
			for (size_t k = 0; k < i; k++)
				if (rule_table[k]->state == t)
					r->state[i] = r->state[k];
			continue;
		}
		r->state[i] = calloc(1, t->size);
		if (!r->state[i])
			return -ENOMEM;
		if (t->init)
			t->init(r->state[i]);
	}
	return 0;
}

struct rules *rules_new(const struct rules_config *cfg)
{
	struct rules *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->inc = r->inc_store;
	if (cfg)
		r->cfg = *cfg;
	else
		rules_config_defaults(&r->cfg);
	r->v = calloc(MAX_VERDICTS, sizeof *r->v);
	if (!r->v) {
		free(r);
		return NULL;
	}
	r->next_id = 1;
	memset(r->vidx, 0xff, sizeof r->vidx);
	build_hooks(r);
	if (alloc_states(r) != 0 || rl_order_init(r) != 0) {
		rules_free(r);
		return NULL;
	}
	r->last_long_pause = -1;
	r->whole_built_mono_ms = 0;   /* boot: long ago */
	r->final_end_max = EV_TIME_NONE;
	r->open_end_min = INT64_MAX;
	r->last_pause_ms = EV_TIME_NONE;
	r->first_pause_ms = EV_TIME_NONE;
	return r;
}

void rules_free(struct rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nv; i++)
		rv_drop(r, &r->v[i]);
	free(r->v);
	rl_order_fini(r);
	for (size_t i = 0; i < rule_count; i++)
		if (r->state[i] && first_of_type(i))
			free(r->state[i]);
	free(r);
}

void rules_set_listener(struct rules *r, rules_change_fn fn, void *ctx)
{
	r->fn = fn;
	r->fnctx = ctx;
}

uint64_t rules_raised(const struct rules *r, int id, int severity)
{
	if (id < 0 || id >= V_COUNT || severity < SEV_INFO || severity > SEV_CRIT)
		return 0;
	return r->raised[id][severity];
}

size_t rules_count(const struct rules *r)
{
	return r->nv;
}

const struct verdict *rules_at(const struct rules *r, size_t i)
{
	return i < r->nv ? &r->v[i] : NULL;
}

double rules_stop_ms(const struct rules *r)
{
	return r->cfg.stop_ms;
}

void rules_set_eager(struct rules *r, bool eager)
{
	r->eager = eager;
}


/* --- incidents --- */

/* MAX_INCIDENTS are held: the oldest INCIDENT_DROP_BATCH final ones go (their
 * verdicts stay), or when every one is open, the oldest. The rest keep their
 * order. Dropping one by one moved the whole array for each new incident (a
 * fifth of a 256 MB JDK 8 replay with an incident every 6 s); compacting a
 * batch still moved 147 KB per 64 incidents. The dropped ones are usually
 * the front of the window: the window starts after them instead, and only
 * the open ones among them (if any) move up to the ones kept after. */
static void drop_oldest(struct rules *r)
{
	size_t gone = 0, last = 0, open_from = r->open_from;
	for (size_t i = 0; i < r->ninc && gone < INCIDENT_DROP_BATCH; i++)
		if (r->inc[i].final) {
			gone++;
			last = i;
			if (i < open_from)
				r->open_from--;
		}
	if (gone == 0) { /* every one is open: the oldest goes */
		r->inc++;
		r->ninc--;
		if (r->open_from > 0)
			r->open_from--;
		return;
	}
	/* inc[0..last] holds the gone ones (every final one there) and the open
	 * ones kept: those move, in order, to end at last */
	size_t w = last + 1;
	for (size_t i = last + 1; i-- > 0;)
		if (!r->inc[i].final && --w != i)
			r->inc[w] = r->inc[i];
	r->inc += gone;
	r->ninc -= gone;
}

struct incident *rl_incident_for(struct rules *r, int64_t a, int64_t b)
{
	int64_t gap = (int64_t)r->cfg.incident_gap_ms;
	struct incident *hit = NULL;
	r->inc_moved = true; /* one grows or is made: merge_incidents() looks again */
	/* a final incident is only hit by something that starts before its end:
	 * past the latest end of those below open_from, they can be skipped (the
	 * scan of up to 512 incidents per slow request was 6.8% of an nginx replay
	 * with an incident every 14 s) */
	size_t from = r->final_end_max != EV_TIME_NONE && a >= r->final_end_max ? r->open_from : 0;
	for (size_t i = from; i < r->ninc; i++) {
		struct incident *in = &r->inc[i];
		if (a <= in->end_ms + gap && b >= in->start_ms - gap) {
			if (in->final && a >= in->end_ms)
				continue; /* judged already: something new starts after it */
			hit = in;
			break;
		}
	}
	if (hit) {
		if (a < hit->start_ms)
			hit->start_ms = a;
		if (b > hit->end_ms)
			hit->end_ms = b;
		if ((size_t)(hit - r->inc) < r->open_from && hit->end_ms > r->final_end_max)
			r->final_end_max = hit->end_ms; /* a late event grew a final one */
		return hit;
	}
	if (r->ninc == MAX_INCIDENTS)
		drop_oldest(r);
	if (r->inc + r->ninc == r->inc_store + INCIDENT_STORE) {
		/* the window reached the end of the store: back to its start, once
		 * per (INCIDENT_STORE - MAX_INCIDENTS) / INCIDENT_DROP_BATCH drops */
		memmove(r->inc_store, r->inc, r->ninc * sizeof r->inc[0]);
		r->inc = r->inc_store;
	}
	struct incident *in = &r->inc[r->ninc++];
	memset(in, 0, sizeof *in);
	in->id = r->next_id++;
	in->start_ms = a;
	in->end_ms = b;
	if (b < r->open_end_min)
		r->open_end_min = b;
	return in;
}

/* two open incidents that grew into each other become one. Only an incident
 * made or grown since the last pass (or a merge in it, after which an earlier
 * pair may overlap) can give a new pair: otherwise the pass, run at every
 * evaluation (each second of data), would find what it found before, nothing. */
static void merge_incidents(struct rules *r)
{
	int64_t gap = (int64_t)r->cfg.incident_gap_ms;
	bool removed = false;
	if (!r->inc_moved)
		return;
	r->inc_moved = false;
	for (size_t i = r->open_from; i < r->ninc; i++) {
		if (r->inc[i].final)
			continue; /* most are: skip them here, not once per pair */
		for (size_t j = i + 1; j < r->ninc; j++) {
			struct incident *a = &r->inc[i], *b = &r->inc[j];
			if (b->final)
				continue;
			if (b->start_ms <= a->end_ms + gap && b->end_ms >= a->start_ms - gap) {
				if (b->start_ms < a->start_ms)
					a->start_ms = b->start_ms;
				if (b->end_ms > a->end_ms)
					a->end_ms = b->end_ms;
				a->has_stop |= b->has_stop;
				a->has_slow |= b->has_slow;
				if (b->slowest.uct_s > a->slowest.uct_s)
					a->slowest = b->slowest;
				if (a->t504.line == 0 || (b->t504.line && b->t504.line < a->t504.line))
					a->t504 = b->t504.line ? b->t504 : a->t504;
				a->upstream_many |= b->upstream_many ||
						    (a->slowest.upstream[0] && b->slowest.upstream[0] &&
						     strcmp(a->slowest.upstream, b->slowest.upstream) != 0);
				/* b's verdicts are superseded by a's next evaluation */
				for (size_t k = 0; k < r->nv;) {
					if (r->v[k].key == b->id && verdict_is_incident(r->v[k].id)) {
						rv_drop(r, &r->v[k]);
						memmove(&r->v[k], &r->v[k + 1], (r->nv - k - 1) * sizeof r->v[0]);
						r->nv--;
						r->gen++;
						removed = true;
					} else {
						k++;
					}
				}
				memmove(b, b + 1, (r->ninc - j - 1) * sizeof r->inc[0]);
				r->ninc--;
				r->inc_moved = true;
				j = i; /* restart the inner scan */
			}
		}
	}
	if (removed)
		rv_index_rebuild(r);
}


/* --- events --- */

/* the engine's own bookkeeping of a pause: the run's first and last pause,
 * the longest time between two, and the incident a long one makes */
static void on_pause(struct rules *r, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	int64_t start = e->t_ms - (int64_t)p->dur_ms;
	if (p->flags & PAUSE_F_OPEN) {
		/* a pause the log never ended: a stop (its incident), not a collection
		 * the run's pause bookkeeping counts (its length is a lower bound) */
		if (p->dur_ms >= r->cfg.stop_ms || p->dur_ms >= r->cfg.long_pause_warn_ms)
			rl_incident_for(r, start, e->t_ms)->has_stop = true;
		return;
	}
	if (r->first_pause_ms == EV_TIME_NONE)
		r->first_pause_ms = start;
	if (r->last_pause_ms != EV_TIME_NONE && start - r->last_pause_ms > r->longest_gap_ms)
		r->longest_gap_ms = start - r->last_pause_ms;
	if (r->last_pause_ms == EV_TIME_NONE || e->t_ms > r->last_pause_ms)
		r->last_pause_ms = e->t_ms;
	if (p->dur_ms >= r->cfg.stop_ms || p->dur_ms >= r->cfg.long_pause_warn_ms) {
		struct incident *in = rl_incident_for(r, start, e->t_ms);
		in->has_stop = true;
	}
}

/* a slow connect (the 1 s bucket or above: the bucket is the connect time to
 * the nearest second, as docs/metrics.md and the JSON report define it, not a threshold) or a connect
 * timeout marks an incident, and the request that shows it best */
static void on_http(struct rules *r, const struct event *e)
{
	const struct ev_http *h = &e->u.http;
	bool slow = h->uct_ms >= 500;
	/* a connect timeout is a 504 whose connect did not complete ("-"); a format
	 * without $upstream_connect_time cannot tell it from a read timeout */
	bool timeout504 = h->status == 504 && h->uct_ms < 0 && h->uct_n > 0 && !(h->lacks & EV_HTTP_NO_UCT);
	if (!slow && !timeout504)
		return;
	int64_t start = ev_start_ms(e);
	struct incident *in = rl_incident_for(r, start, start);
	struct inc_req *q = slow ? &in->slowest : &in->t504;
	in->has_slow = true;
	if (h->upstream[0] && in->slowest.upstream[0] && strcmp(h->upstream, in->slowest.upstream) != 0)
		in->upstream_many = true;
	if (slow ? h->uct_ms / 1000.0 > q->uct_s : q->line == 0) {
		q->uct_s = (float)(h->uct_ms / 1000.0);
		q->rt_s = (float)(h->rt_ms / 1000.0);
		q->src = e->src;
		q->line = e->line;
		memcpy(q->request, h->request, sizeof q->request);
		memcpy(q->upstream, h->upstream, sizeof q->upstream);
	}
}

/* the engine's own bookkeeping of an event: incidents, pauses; false when
 * it has no time (no hook sees it either). Inline in both callers: it runs
 * for every event placed. */
static inline bool on_event_own(struct rules *r, bool uptime_axis, const struct event *e)
{
	r->uptime_axis = uptime_axis;
	if (e->t_ms == EV_TIME_NONE)
		return false;
	switch (e->kind) {
	case EV_GC_PAUSE:
		on_pause(r, e);
		break;
	case EV_SAFEPOINT:
		if (e->u.sp.total_ms >= r->cfg.stop_ms) {
			struct incident *in = rl_incident_for(r, ev_start_ms(e), e->t_ms);
			in->has_stop = true;
		}
		break;
	case EV_HTTP:
		on_http(r, e);
		break;
	default:
		break;
	}
	return true;
}

static const struct rule_hooks *hooks_of(const struct rules *r, const struct event *e)
{
	return &r->hooks[e->kind < EV_KIND_COUNT ? e->kind : EV_NONE];
}

bool rules_on_event_bare(struct rules *r, bool uptime_axis, const struct event *e)
{
	if (hooks_of(r, e)->n)
		return false;
	on_event_own(r, uptime_axis, e);
	return true;
}

void rules_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	if (!on_event_own(r, c->uptime_axis, e))
		return;
	/* the whole-run rules judge collections that ended (gc-overhead's paused
	 * share, the heap's pauses): not a pause the log never ended */
	if (e->kind == EV_GC_PAUSE && (e->u.pause.flags & PAUSE_F_OPEN))
		return;
	const struct rule_hooks *h = hooks_of(r, e);
	for (unsigned i = 0; i < h->n; i++)
		rule_table[h->row[i]]->on_event(r, c, e);
}

/* --- evaluation --- */

/* Judge one incident with every incident rule. A verdict raised once stays
 * for its incident: a judgement with more data updates it, never takes it
 * back (on-call people saw it; it going away and coming back is a flap). One
 * that the incident's whole data no longer shows is cleared when the
 * incident is final, and says so. */
static void judge(struct rules *r, const struct rules_ctx *c, struct incident *in, bool becomes_final)
{
	struct incident_facts f;
	r->judging_key = in->id;
	r->judging_final = becomes_final;
	r->judged_mask = 0;
	rl_incident_facts(r, c, in, &f);
	for (size_t i = 0; i < rule_count; i++)
		if (rule_table[i]->judge)
			rule_table[i]->judge(r, c, &f);
	r->judging_key = 0;
	if (!becomes_final)
		return;
	for (size_t i = 0; i < rule_count; i++)
		if (rule_table[i]->judge && !(r->judged_mask & (1u << rule_table[i]->info.id)))
			rv_clear(r, rule_table[i]->info.id, in->id, in->end_ms,
				 "cleared: with all of this incident's data in, it no longer shows this");
}

/* the newest sample of a ring, EV_TIME_NONE when it has none (every sample
 * record starts with its t_ms) */
static int64_t newest_sample(const struct ring *rg)
{
	const int64_t *t = rg->total ? ring_at(rg, rg->total - 1) : NULL;
	return t ? *t : EV_TIME_NONE;
}

/* Live, an incident is judged once the cgroup's cpu.stat sample after its end
 * is in (when there is a cgroup source). Judged before, a throttled stop read
 * "not throttled" until that sample came, and its verdict came and went with
 * every stop of the incident (issue 13: new, withdrawn, new 4-5 times); the
 * ttsp-spike said nothing of the throttling. Schedstat needs no such wait
 * (sched-delay judges each stop once the sample after it is in, and waits
 * while cpu.stat may still say "throttled"), nor does vmstat (direct-reclaim
 * is only raised from a bracketing pair). A probe that stopped sampling does
 * not hold the judgement for more than SETTLE_WAIT_MS. */
#define SETTLE_WAIT_MS 5000
static bool evidence_settled(const struct rules_ctx *c, const struct incident *in)
{
	if (!c->have_cpu)
		return true;
	if (c->now_ms != EV_TIME_NONE && c->now_ms - in->end_ms >= SETTLE_WAIT_MS)
		return true;
	return newest_sample(&c->tl->cpu) >= in->end_ms;
}

/* what judging reads before an incident's start: stops, cpu.stat and
 * schedstat samples up to a minute back (stops_from, throttle_span, the sched
 * windows), and the sample bracketing that; five minutes covers it */
#define KEEP_MARGIN_MS (5 * 60 * 1000)

void rules_keep_from(const struct rules *r, const struct rules_ctx *c, struct tl_keep *keep)
{
	keep->from_ms = keep->reqs_from_ms = INT64_MIN;
	if (c->now_ms == EV_TIME_NONE)
		return;
	/* a new incident starts no earlier than a request ending now started;
	 * the horizon on top, for an incident made final too early */
	int64_t t = c->now_ms - (int64_t)r->cfg.horizon_ms - timeline_req_scan_slack(c->tl);
	for (size_t i = r->open_from; i < r->ninc; i++)
		if (!r->inc[i].final && r->inc[i].start_ms < t)
			t = r->inc[i].start_ms;
	/* requests are read from the start of a window on (ordered by end) */
	keep->reqs_from_ms = t - 1000;
	t -= KEEP_MARGIN_MS;
	keep->from_ms = t;
}

/* An incident's verdicts are counted (rules_raised) once it is final: their
 * severity and whether they hold no longer change then, so the count by
 * severity is the report's, which judges each incident once, when final. A
 * count taken when raised would say warn and crit for one verdict that rose
 * (live judges eagerly), and would count one cleared at the end that the
 * report never raises. */
static void count_final(struct rules *r, const struct incident *in)
{
	static int ids[V_COUNT], nids = -1; /* the incident verdicts' ids, from the table once */
	if (nids < 0) {
		nids = 0;
		for (int id = 0; id < V_COUNT; id++)
			if (verdict_is_incident(id))
				ids[nids++] = id;
	}
	for (int k = 0; k < nids; k++) {
		int id = ids[k];
		const struct verdict *v = rv_find_c(r, id, in->id);
		if (v && v->cleared_ms == EV_TIME_NONE && v->severity >= SEV_INFO && v->severity <= SEV_CRIT)
			r->raised[id][v->severity]++;
	}
}

void rules_eval(struct rules *r, const struct rules_ctx *c, bool final)
{
	r->uptime_axis = c->uptime_axis;
	merge_incidents(r);
	int64_t now = c->now_ms;
	int64_t horizon = (int64_t)r->cfg.horizon_ms;
	/* a report (not eager) judges an incident only when it becomes final: when
	 * even the earliest end of the open ones is within the horizon, none does */
	bool none_final = !final && !r->eager &&
			  (now == EV_TIME_NONE || r->open_end_min == INT64_MAX || now - r->open_end_min <= horizon);
	int64_t end_min = INT64_MAX;
	for (size_t i = r->open_from; i < r->ninc && !none_final; i++) {
		struct incident *in = &r->inc[i];
		if (in->final)
			continue;
		bool becomes_final = final || (now != EV_TIME_NONE && now - in->end_ms > horizon);
		if (!becomes_final && in->end_ms < end_min)
			end_min = in->end_ms;
		if (!r->eager && !becomes_final)
			continue; /* a report judges each incident once, with all its data */
		if (!becomes_final && !evidence_settled(c, in))
			continue;
		judge(r, c, in, becomes_final);
		if (becomes_final) {
			in->final = true;
			count_final(r, in);
			unsigned why = r->judged_mask & rl_stop_verdicts_mask();
			/* long-vm-operation explains its own stops only */
			if (in->has_stop && (why == 0 || why == 1u << V_LONG_VM_OPERATION))
				rl_count_unexplained(r, c->tl, in, why != 0, &r->unexplained);
		}
	}
	if (!none_final)
		r->open_end_min = end_min; /* exact again: the scan saw every open one */
	while (r->open_from < r->ninc && r->inc[r->open_from].final) {
		const struct incident *in = &r->inc[r->open_from];
		if (r->final_end_max == EV_TIME_NONE || in->end_ms > r->final_end_max)
			r->final_end_max = in->end_ms;
		r->open_from++;
	}
	/* Whole-run verdicts. Each is raised (or raised again after a clear) on
	 * the first evaluation or event that finds its condition; the text of one
	 * already raised is rebuilt from the state on every evaluation when a
	 * listener follows changes, else at most every 100 ms of wall time and at
	 * the end. A replay evaluates once per second of data: rebuilding and
	 * comparing four verdicts' text each time cost more than parsing the log. */
	bool all = final || r->fn;
	r->eval_final = final;
	if (!all && ++r->evals_unbuilt >= 16) { /* reading the clock on every evaluation shows in a profile */
		int64_t mono = util_mono_ms();
		r->evals_unbuilt = 0;
		all = mono - r->whole_built_mono_ms >= 100;
		if (all)
			r->whole_built_mono_ms = mono;
	}
	for (unsigned i = 0; i < r->nrefresh; i++)
		rule_table[r->refresh_row[i]]->refresh(r, c, all);
}

