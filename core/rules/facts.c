/* SPDX-License-Identifier: GPL-2.0-or-later */
/* facts.c — the facts of an incident (rules_internal.h), computed once per
 * judgement and handed to every incident rule: its safepoint stops and the
 * worst of them, its long GC pauses, the JVM stop window and the CPU
 * throttling around it, and the window of requests nginx logged around it. */
#include "rules_internal.h"

#include <math.h>

static void pick_stops(const struct rules *r, const struct timeline *tl, const struct incident *in,
		       struct stop_pick *out)
{
	memset(out, 0, sizeof *out);
	out->start_ms = out->end_ms = EV_TIME_NONE;
	if (timeline_stops_are_pauses(tl))
		return;
	struct tl_stop_iter it;
	struct tl_stopref sr;
	timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
	while (timeline_stops_next(&it, &sr)) {
		const struct tl_stop *s = sr.stop;
		out->n++;
		if (out->start_ms == EV_TIME_NONE || s->start_ms < out->start_ms)
			out->start_ms = s->start_ms;
		if (out->end_ms == EV_TIME_NONE || s->end_ms > out->end_ms)
			out->end_ms = s->end_ms;
		if (!out->worst || s->total_ms > out->worst->total_ms)
			out->worst = s;
		if (s->ttsp_ms >= r->cfg.ttsp_warn_ms && s->ttsp_ms >= r->cfg.ttsp_share * s->total_ms &&
		    (!out->worst_ttsp || s->ttsp_ms > out->worst_ttsp->ttsp_ms))
			out->worst_ttsp = s;
	}
}

/* the longest GC pause >= min_ms in the incident, and how many there are;
 * with r, leaving out the collections that are only part of a VM operation's
 * stop (jmap -histo:live: long-vm-operation tells that stop whole) */
static const struct tl_pause *worst_pause(const struct rules *r, const struct timeline *tl,
					  const struct incident *in, int *n, double min_ms)
{
	const struct tl_pause *w = NULL;
	struct tl_stop_iter it;
	struct tl_stopref p;
	*n = 0;
	timeline_pauses_begin(&it, tl, in->start_ms, in->end_ms, min_ms);
	while (timeline_stops_next(&it, &p)) {
		if (r && rl_pause_is_vmop_part(r, tl, p.pause))
			continue;
		(*n)++;
		if (!w || p.pause->dur_ms > w->dur_ms)
			w = p.pause;
	}
	return w;
}

/* Extend [a, b] over the cgroup throttling it overlaps: walk the cpu samples
 * outwards while each interval keeps growing throttled_time. */
static void throttle_extent(const struct rules *r, const struct timeline *tl, int64_t a, int64_t b,
			    int64_t *xa, int64_t *xb)
{
	const struct ring *cr = &tl->cpu;
	*xa = a;
	*xb = b;
	if (cr->total < 2)
		return;
	uint64_t first = ring_first(cr);
	uint64_t i = timeline_lower_bound(cr, a);
	if (i > first)
		i--;
	/* backwards from the sample at/before a */
	for (uint64_t k = i; k > first; k--) {
		const struct tl_cpu *c1 = ring_at(cr, k - 1), *c2 = ring_at(cr, k);
		if (c2->throttled_us - c1->throttled_us < (int64_t)(r->cfg.throttle_min_ms * 1000 / 4))
			break;
		if (a - c1->t_ms > 60000)
			break;
		*xa = c1->t_ms;
	}
	uint64_t j = timeline_lower_bound(cr, b);
	if (j >= cr->total)
		j = cr->total - 1;
	for (uint64_t k = j; k + 1 < cr->total; k++) {
		const struct tl_cpu *c1 = ring_at(cr, k), *c2 = ring_at(cr, k + 1);
		if (c2->throttled_us - c1->throttled_us < (int64_t)(r->cfg.throttle_min_ms * 1000 / 4))
			break;
		if (c2->t_ms - b > 60000)
			break;
		*xb = c2->t_ms;
	}
	/* only keep the extension if throttling touches the window itself */
	struct tl_cpu_delta d;
	if (!timeline_cpu_delta(tl, a, b, &d) || d.throttled_us < (int64_t)(r->cfg.throttle_min_ms * 1000)) {
		*xa = a;
		*xb = b;
	}
}

/* From nginx alone: of the requests started in [a, b), how many the upstream
 * held (connected after a SYN retry, never connected, or connected at once and
 * waited >= 0.5 s in the queue for the header). A stop holds nearly all; a
 * busy upstream dropping a few SYNs of a burst holds a few. */
static void held_requests(const struct timeline *tl, int64_t a, int64_t b, uint32_t *held, uint32_t *n)
{
	struct tl_req_iter it;
	const struct tl_req *q;
	*held = *n = 0;
	timeline_reqs_begin(&it, tl, a, b);
	while ((q = timeline_reqs_next(&it))) {
		(*n)++;
		if (q->bucket >= 1 || (q->bucket < 0 && q->uct_s < 0 && !(q->flags & TL_REQ_NO_UCT)) ||
		    (q->bucket == 0 && q->uht_s >= 0.5f))
			(*held)++;
	}
}

/* Can the JVM stop [xs, xe] explain the connects nginx waited for or gave
 * up on around it? A connect that waited ~1/2/3 s for a SYN retry, or timed
 * out after proxy_connect_timeout, needs the upstream to accept nothing for
 * most of that wait, and the held connects to start in the stop (or the
 * second before it), not for a minute after it: a 0.2 s GC next to a minute
 * of 504s is no cause, and no backlog can be sized from it. */
static bool stop_explains(const struct rules *r, const struct timeline *tl, int64_t xs, int64_t xe,
			  int64_t a, int64_t b, struct upstream_window *u)
{
	struct tl_req_iter it;
	const struct tl_req *q;
	double wait_min = -1;
	int64_t first = EV_TIME_NONE, last = EV_TIME_NONE;
	uint32_t in = 0, all = 0;
	timeline_reqs_begin(&it, tl, a, b);
	while ((q = timeline_reqs_next(&it))) {
		double wait;
		if (q->bucket >= 1)
			wait = q->bucket;
		else if (q->bucket < 0 && q->uct_s < 0 && !(q->flags & TL_REQ_NO_UCT) && q->status == 504)
			wait = q->rt_s > 0 ? q->rt_s : 1.0; /* proxy_connect_timeout, when logged */
		else
			continue;
		all++;
		if (q->start_ms >= xs - 1000 && q->start_ms <= xe + 500)
			in++;
		if (wait_min < 0 || wait < wait_min)
			wait_min = wait;
		if (first == EV_TIME_NONE || q->start_ms < first)
			first = q->start_ms;
		if (last == EV_TIME_NONE || q->start_ms > last)
			last = q->start_ms;
	}
	u->jstop_s = (double)(xe - xs) / 1000.0;
	u->jstop_a = xs;
	u->jstop_b = xe;
	u->held_wait_s = wait_min;
	u->held_span_s = all ? (double)(last - first) / 1000.0 : 0;
	u->held_in = in;
	u->held_all = all;
	if (all == 0)
		return true; /* nothing held: the window is the stop's, as before */
	return u->jstop_s >= r->cfg.aq_explain_share * wait_min &&
	       (double)in >= r->cfg.aq_explain_share * (double)all;
}

/* The run of stops around the incident's longest: stops the JVM ran more
 * than a second between (it accepted again, its queue drained) are not one
 * stop to the callers. [*xs, *xe] narrows to that run. */
static void worst_run(const struct rules *r, const struct timeline *tl, const struct incident *in,
		      const struct tl_stop *worst, int64_t *xs, int64_t *xe)
{
	int64_t st[64][2];
	int n = 0;
	struct tl_stop_iter it;
	struct tl_stopref sr;
	timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
	while (timeline_stops_next(&it, &sr) && n < 64) {
		int k = n++;
		while (k > 0 && st[k - 1][0] > sr.stop->start_ms) {
			st[k][0] = st[k - 1][0];
			st[k][1] = st[k - 1][1];
			k--;
		}
		st[k][0] = sr.stop->start_ms;
		st[k][1] = sr.stop->end_ms;
	}
	int w = -1;
	for (int k = 0; k < n; k++)
		if (st[k][0] == worst->start_ms && st[k][1] == worst->end_ms)
			w = k;
	if (w < 0 || n == 64)
		return;
	int lo = w, hi = w;
	int64_t end = st[w][1];
	while (lo > 0 && st[lo][0] - st[lo - 1][1] <= 1000)
		lo--;
	while (hi + 1 < n && st[hi + 1][0] - end <= 1000)
		if (st[++hi][1] > end)
			end = st[hi][1];
	int64_t a = st[lo][0];
	for (int k = lo; k <= hi; k++)
		if (st[k][1] > end)
			end = st[k][1];
	if (a > *xs)
		*xs = a;
	if (end < *xe)
		*xe = end;
}

/* The window W of the requests to count and how long the upstream accepted
 * nothing: the JVM's stop (with its throttling) when the JVM logs show one;
 * from nginx alone, the first request that got into the accept queue waited
 * the whole stop in $upstream_header_time, and the stepped connects started
 * after the queue was full. */
static void upstream_window(const struct rules *r, const struct timeline *tl, const struct incident *in,
			    const struct incident_facts *f, struct upstream_window *u)
{
	int64_t ws = f->ws, xs = f->xs, xe = f->xe;
	bool throttled = f->throttled;
	struct tl_req_sum all;
	timeline_req_sum(tl, in->start_ms - 3000, in->end_ms + 1, &all);
	int64_t a, b;
	double stop_s;
	const char *stop_from;
	bool sized = true;
	uint32_t held = 0, held_of = 0;
	bool from_span = false;
	memset(u, 0, sizeof *u);
	if (ws != EV_TIME_NONE && !stop_explains(r, tl, xs, xe, in->start_ms - 3000, in->end_ms + 1, u)) {
		/* the upstream stopped accepting with no stop to explain it: W is
		 * the held connects, and nothing is sized from the stop */
		u->unexplained = true;
		ws = EV_TIME_NONE;
		sized = false;
		a = in->start_ms;
		b = in->end_ms + 1;
		stop_s = u->jstop_s;
		stop_from = "the JVM stop";
	} else if (ws != EV_TIME_NONE) {
		/* the incident's stops explain them: sized from the run of stops
		 * around the longest when that explains them too (a short stop
		 * seconds before a long one is no part of what the callers waited) */
		int64_t txs = xs, txe = xe;
		struct upstream_window tu;
		if (!throttled && f->sp.worst && f->sp.n > 1) {
			worst_run(r, tl, in, f->sp.worst, &txs, &txe);
			tu = *u;
			if ((txs != xs || txe != xe) &&
			    stop_explains(r, tl, txs, txe, in->start_ms - 3000, in->end_ms + 1, &tu)) {
				xs = txs;
				xe = txe;
				*u = tu;
			}
		}
		a = xs;
		b = xe;
		stop_s = (double)(xe - xs) / 1000.0;
		stop_from = f->open_nginx && f->open_live ? "the GC pause still open (its start line came, no end "
							    "line yet), from its start to the last connect nginx "
							    "saw the upstream hold" :
			    f->open_nginx ? "the GC pause that never ended, from its start line to the last "
					    "connect nginx saw the upstream hold" :
			    throttled ? "the JVM stop with CPU throttling" : "the JVM stop";
	} else {
		double span = all.first_slow_start != EV_TIME_NONE ?
				      (double)(all.last_slow_start - all.first_slow_start) / 1000.0 : 0;
		stop_s = all.max_uht_b0;
		stop_from = "the longest wait in the accept queue ($upstream_header_time of a request "
			    "that connected at once)";
		a = all.max_uht_b0_start != EV_TIME_NONE ? all.max_uht_b0_start : in->start_ms;
		if (span > stop_s) {
			stop_s = span;
			stop_from = "the span of the stepped connects";
			from_span = true;
		}
		b = a + (int64_t)(stop_s * 1000);
		/* the estimate is a stop only where the upstream held most of
		 * what came in, and more than a few requests (a handful in a few
		 * ms is no length): else the backlog cannot be sized from it */
		int64_t ha = from_span ? all.first_slow_start : a;
		held_requests(tl, ha, ha + (int64_t)(stop_s * 1000) + 1, &held, &held_of);
		sized = stop_s > 0 && held_of > 0 && (double)held >= r->cfg.aq_min_requests &&
			(double)held >= r->cfg.aq_stop_share * (double)held_of;
	}
	/* the slow connects belong to W even where the estimate falls short */
	if (!u->unexplained && all.first_slow_start != EV_TIME_NONE && all.first_slow_start < a)
		a = all.first_slow_start;
	if (all.last_slow_start != EV_TIME_NONE && all.last_slow_start + 1 > b)
		b = all.last_slow_start + 1;
	if (in->start_ms < a && ws == EV_TIME_NONE)
		a = in->start_ms;
	if (in->end_ms + 1 > b)
		b = in->end_ms + 1;
	struct tl_req_sum w;
	timeline_req_sum(tl, a, b, &w);
	uint32_t slow = w.bucket[1] + w.bucket[2] + w.bucket[3] + w.bucket[4];
	double rate = timeline_req_rate(tl, a - 30000, a);
	if (rate <= 0)
		rate = timeline_req_rate(tl, b, b + 30000);
	long long backlog = sized ? llround(rate * stop_s) : 0;
	u->sized = sized;
	u->held = held;
	u->held_of = held_of;
	u->a = a;
	u->b = b;
	u->stop_s = stop_s;
	u->stop_from = stop_from;
	u->w = w;
	u->slow = slow;
	u->rate = rate;
	u->backlog = backlog;
}

/* A GC pause the JVM log began and never ended, with no length from the log
 * (its start line is the log's last sign of life, and no recording saw the
 * process after it): the JVM stayed stopped in it until it died or the log was
 * cut. nginx tells which: while the upstream answers nothing from the pause's
 * start on, its listen socket holding the connects (SYNs dropped: connect
 * timeouts; queued with no header: read timeouts), the JVM is in the pause;
 * the first refused connect is the process gone. Where the upstream answered
 * after the start, the pause did end (the log lacks it): no stop is made of it.
 * Sets [*s, *e]: the pause's start to the last moment nginx saw it held. */
static bool open_pause_held(const struct rules_ctx *c, const struct incident *in, int64_t *s, int64_t *e,
			    int64_t *gone, bool *live)
{
	const struct summary_open_pause *op = &c->sum->open_pause;
	int64_t from, life;
	if (c->sum->open_pauses > 0 && op->start_ms != EV_TIME_NONE && op->end_ms != EV_TIME_NONE &&
	    op->start_ms <= in->end_ms) {
		from = op->start_ms;
		life = op->end_ms;
		*live = false;
	} else if (c->pause_open_ms != EV_TIME_NONE && c->pause_open_ms <= in->end_ms) {
		/* live: the start line came and no end line yet; the JVM may be in it now */
		from = life = c->pause_open_ms;
		*live = true;
	} else {
		return false;
	}
	int64_t refused = EV_TIME_NONE, held = EV_TIME_NONE;
	int64_t to = c->now_ms != EV_TIME_NONE && c->now_ms > in->end_ms ? c->now_ms + 1 : in->end_ms + 1;
	struct tl_req_iter it;
	const struct tl_req *q;
	/* the first refused connect after it: the process gone (a JVM started
	 * after it may answer again) */
	timeline_reqs_begin(&it, c->tl, from, to);
	while ((q = timeline_reqs_next(&it)))
		if (q->status == 502 && q->uct_s < 0 && !(q->flags & TL_REQ_NO_UCT) &&
		    (refused == EV_TIME_NONE || q->start_ms < refused))
			refused = q->start_ms;
	if (refused != EV_TIME_NONE)
		to = refused;
	/* an answer after its start, before that: the pause had ended */
	timeline_reqs_begin(&it, c->tl, from - 30000, to);
	while ((q = timeline_reqs_next(&it)))
		if (q->uht_s >= 0 && q->start_ms + (int64_t)(q->uht_s * 1000.0f) > from)
			return false;
	timeline_reqs_begin(&it, c->tl, from, to);
	while ((q = timeline_reqs_next(&it))) {
		int64_t t;
		if (q->status != 504 || (q->flags & TL_REQ_NO_UCT))
			continue;
		if (q->uct_s < 0)
			t = q->start_ms; /* its SYN dropped: the listen queue full, the socket there */
		else if (q->uht_s < 0 && q->rt_s >= 0)
			t = q->start_ms + (int64_t)(q->rt_s * 1000.0f); /* queued, no header until it gave up */
		else
			continue;
		if (held == EV_TIME_NONE || t > held)
			held = t;
	}
	if (held == EV_TIME_NONE || held <= life)
		return false;
	*s = from;
	*e = held;
	*gone = refused;
	return true;
}

void rl_incident_facts(struct rules *r, const struct rules_ctx *c, struct incident *in,
		       struct incident_facts *f)
{
	const struct timeline *tl = c->tl;
	memset(f, 0, sizeof *f);
	f->in = in;
	pick_stops(r, tl, in, &f->sp);
	f->stops_from_pauses = timeline_stops_are_pauses(tl);
	int npause_stop = 0;
	f->wp = worst_pause(r, tl, in, &f->npause_long, r->cfg.long_pause_warn_ms);
	const struct tl_pause *wstop = worst_pause(NULL, tl, in, &npause_stop, r->cfg.stop_ms);

	/* the JVM stop window of this incident */
	f->ws = f->we = EV_TIME_NONE;
	if (f->sp.n > 0) {
		f->ws = f->sp.start_ms;
		f->we = f->sp.end_ms;
		f->worst_total = f->sp.worst->total_ms;
		f->worst_start_ms = f->sp.worst->start_ms;
	} else if (f->stops_from_pauses && wstop) {
		struct tl_stop_iter it;
		struct tl_stopref p;
		timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
		while (timeline_stops_next(&it, &p)) {
			if (f->ws == EV_TIME_NONE || p.start_ms < f->ws)
				f->ws = p.start_ms;
			if (f->we == EV_TIME_NONE || p.end_ms > f->we)
				f->we = p.end_ms;
		}
		f->worst_total = wstop->dur_ms;
		f->worst_start_ms = wstop->t_ms - (int64_t)(wstop->dur_ms + 0.5);
	}
	if (f->ws == EV_TIME_NONE && in->has_slow && c->have_nginx && open_pause_held(c, in, &f->ws, &f->we, &f->open_gone_ms, &f->open_live)) {
		f->open_nginx = true;
		f->worst_total = (double)(f->we - f->ws);
		f->worst_start_ms = f->ws;
	}
	f->xs = f->ws;
	f->xe = f->we;
	if (f->ws != EV_TIME_NONE && c->have_cpu) {
		throttle_extent(r, tl, f->ws, f->we, &f->xs, &f->xe);
		f->have_cd = timeline_cpu_delta(tl, f->xs, f->xe, &f->cd);
		f->throttled = f->have_cd && f->cd.throttled_us >= (int64_t)(r->cfg.throttle_min_ms * 1000) &&
			       (double)f->cd.throttled_us / 1000.0 >=
				       r->cfg.throttle_share * (double)(f->cd.to_ms - f->cd.from_ms);
	}
	f->have_uw = in->has_slow && c->have_nginx;
	if (f->have_uw)
		upstream_window(r, tl, in, f, &f->uw);
}

void rl_missing_sources_advice(struct vdraft *v, const struct rules_ctx *c, bool want_nginx)
{
	if (c->jvm_unanchored)
		vadvice(v, " The GC log has only JVM uptime, so its stops cannot be lined up with the other "
			"sources: add a time decoration (-Xlog:...:time,uptime,level,tags), or pass --pid or "
			"--jvm-start.");
	if (!c->have_cpu)
		vadvice(v, " Add --cpustat-log FILE, --cgroup DIR or --pid PID to check whether the cgroup "
			"was CPU-throttled during this stop.");
	if (want_nginx && !c->have_nginx)
		vadvice(v, " Add --nginx FILE to see what the stop cost the callers.");
}

