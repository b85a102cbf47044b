/* SPDX-License-Identifier: GPL-2.0-or-later */
/* upstream.c — what the stop cost the callers (rules_internal.h): nginx
 * waited whole seconds to connect because the upstream's accept queue
 * overflowed (accept-queue-overflow), or gave up connecting (connect-timeout-504). */
#include "rules_internal.h"

#include <math.h>

#include "stwtop/fmt.h"

/* "access.log:1314 \"GET /req/1313 HTTP/1.1\" waited longest to connect: 2.001 s, to 127.0.0.1:28481" */
static void evid_request(struct vdraft *v, const struct rules_ctx *c, const struct inc_req *q, const char *what,
			 bool many)
{
	char req[80] = "", conn[40] = "", ups[96] = "";
	if (q->request[0])
		fmt_s(req, sizeof req, " \"%s\"", q->request);
	if (q->uct_s >= 0)
		fmt_s(conn, sizeof conn, ": %.3f s", q->uct_s);
	else if (q->rt_s >= 0)
		fmt_s(conn, sizeof conn, " after %.3f s", q->rt_s);
	if (q->upstream[0])
		fmt_s(ups, sizeof ups, ", to %s%s", q->upstream, many ? " (of several servers)" : "");
	vevid(v, "%s:%llu%s %s%s%s", rl_sname(c, q->src), (unsigned long long)q->line, req, what, conn, ups);
}

/* The evidence that sizes the backlog: the stop and the load before it; or,
 * when the input shows no stop, why it cannot be sized (no JVM stop overlaps,
 * and nginx alone saw the upstream hold only a few of the requests). */
/* the upstream stopped accepting while its JVM ran */
static void advice_no_accept(struct vdraft *v)
{
	vadvice(v, "The upstream stopped accepting connections while its JVM ran, and no JVM stop explains "
		"it: the thread that calls accept() is dead or stuck. An OutOfMemoryError or another Error "
		"thrown in it kills it (the JDK HttpServer's HTTP-Dispatcher, an acceptor of Tomcat or "
		"Jetty): look for \"Exception in thread\" in the JVM's stdout/stderr; `jcmd PID Thread.print` "
		"shows whether it is there and where it waits. A larger listen backlog only delays the "
		"timeouts: restart the upstream and fix what killed or blocked its acceptor.");
}

/* accept-queue-overflow with no stop in the input */
static void advice_unsized(struct vdraft *v, const struct rules_ctx *c, const struct tl_req_sum *w)
{
	vadvice(v, "The kernel dropped SYNs while the listen queue was full, and the clients' SYN "
		"retransmits (1 s apart on Linux >= 6.5, else 1 s, 3 s, 7 s) are the whole-second connect "
		"times; %u of %u requests connected at once, so the application kept accepting: bursts of "
		"new connections outran the backlog or its accept loop. Raise the backlog above the largest "
		"burst (Tomcat/Spring Boot server.tomcat.accept-count, default 100; Jetty acceptQueueSize, "
		"default 50; the kernel caps it at net.core.somaxconn), or keep upstream connections alive "
		"(nginx upstream keepalive) so fewer are opened.", w->bucket[0], w->n);
	if (!c->have_jvm)
		vadvice(v, " Add the JVM's GC and safepoint logs (--gc, --safepoint) to see whether short "
			"stops line up with the drops.");
}

static void evid_stop(struct vdraft *v, const struct rules *r, const struct rules_ctx *c,
		      const struct upstream_window *u)
{
	if (u->unexplained) {
		char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
		vevid(v, "no JVM stop explains them: the stop here, %s-%s, lasted %.2f s, against connects "
		      "that waited %.1f s or more; %u of the %u held connects started in it, and they went on "
		      "for %.0f s", rl_hms(r, u->jstop_a, t1), rl_hms(r, u->jstop_b, t2), u->jstop_s, u->held_wait_s,
		      u->held_in, u->held_all, u->held_span_s);
		return;
	}
	if (u->sized) {
		vevid(v, "load before it: %.0f requests/s; %s: %.2f s", u->rate, u->stop_from, u->stop_s);
		return;
	}
	vevid(v, "no stop to size the backlog by (%s): in the %.2f s nginx suggests, the upstream held "
	      "(slow or no connect, or >= 0.5 s queued) %u of the %u requests started; a stop holds most, "
	      "and more than a few", c->have_jvm ? "no JVM stop overlaps them" : "no JVM log was given",
	      u->stop_s, u->held, u->held_of);
}

static void judge_accept_queue(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct incident *in = f->in;
	const struct stop_pick sp = f->sp;
	int64_t xs = f->xs;
	int64_t xe = f->xe;
	bool throttled = f->throttled;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	if (!f->have_uw)
		return;
	const struct upstream_window *u = &f->uw;
	int64_t ws = u->unexplained ? EV_TIME_NONE : f->ws; /* a stop that explains them */
	int64_t a = u->a, b = u->b;
	double stop_s = u->stop_s, rate = u->rate;
	long long backlog = u->backlog;
	uint32_t slow = u->slow;
	const struct tl_req_sum w = u->w;
	if ((double)slow >= floor(r->cfg.aq_min_requests)) { /* (uint32_t) of 1e12 is undefined */
		struct vdraft v;
		int maxb = w.bucket[4] ? 4 : w.bucket[3] ? 3 : w.bucket[2] ? 2 : 1;
		vinit(&v, V_ACCEPT_QUEUE, in->id,
		      ((double)maxb >= r->cfg.aq_crit_bucket || (double)slow >= r->cfg.aq_crit_requests) ?
			      SEV_CRIT : SEV_WARN);
		v.start_ms = a;
		v.end_ms = b;
		v.jump_ms = w.first_slow_start != EV_TIME_NONE ? w.first_slow_start : a;
		char steps[64] = "";
		for (int k = 1; k <= 4; k++)
			if (w.bucket[k]) {
				char one[12];
				fmt_s(one, sizeof one, "%s%d%s", steps[0] ? "/" : "", k, k == 4 ? "+" : "");
				strcat(steps, one);
			}
		if (u->sized)
			vtitle(&v, "nginx waited %s s to connect (%u requests) because the upstream's accept "
			       "queue overflowed%s: raise the backlog above %lld", steps, slow,
			       ws != EV_TIME_NONE ? " during the stop" : "", backlog);
		else if (u->unexplained)
			vtitle(&v, "nginx waited %s s to connect (%u requests): the upstream stopped accepting, "
			       "and no JVM stop explains it", steps, slow);
		else
			vtitle(&v, "nginx waited %s s to connect (%u requests): the upstream's accept queue "
			       "overflowed in bursts, with no stop (%u of %u requests connected at once)", steps,
			       slow, w.bucket[0], w.n);
		vevid(&v, "requests started %s-%s: %u; connect time 0 s: %u, 1 s: %u, 2 s: %u, 3 s: %u, "
		      "4+ s: %u%s", rl_hms(r, a, t1), rl_hms(r, b, t2), w.n, w.bucket[0], w.bucket[1], w.bucket[2],
		      w.bucket[3], w.bucket[4], w.no_connect ? ", never connected: " : "");
		if (w.no_connect)
			fmt_s(v.evidence[v.nevidence - 1] + strlen(v.evidence[v.nevidence - 1]),
			      VERDICT_EVIDENCE_LEN - strlen(v.evidence[v.nevidence - 1]), "%u",
			      w.no_connect);
		if (ws != EV_TIME_NONE && sp.worst)
			vevid(&v, "the stop: %s-%s, longest safepoint \"%s\" %.0f ms%s", rl_hms(r, xs, t1),
			      rl_hms(r, xe, t2), sp.worst->op, sp.worst->total_ms,
			      throttled ? ", CPU-throttled" : "");
		else if (ws != EV_TIME_NONE)
			vevid(&v, "the stop: %s-%s (GC pauses)", rl_hms(r, xs, t1), rl_hms(r, xe, t2));
		if (w.first_slow_start != EV_TIME_NONE)
			vevid(&v, "stepped connects started %s-%s (%.1f-%.1f s after the window began)",
			      rl_hms(r, w.first_slow_start, t1), rl_hms(r, w.last_slow_start, t2),
			      (double)(w.first_slow_start - a) / 1000.0,
			      (double)(w.last_slow_start - a) / 1000.0);
		if (w.bucket[0] && w.max_uht_b0 > 0 && u->sized)
			vevid(&v, "%u requests got into the queue (connect ~0 s) and waited up to %.3f s for "
			      "the response header", w.bucket[0], w.max_uht_b0);
		evid_stop(&v, r, c, u);
		if (in->slowest.line)
			evid_request(&v, c, &in->slowest, "waited longest to connect", in->upstream_many);
		if (u->unexplained)
			advice_no_accept(&v);
		else if (!u->sized)
			advice_unsized(&v, c, &w);
		else
			vadvice(&v, "While the application accepted nothing, the kernel queued completed "
			"handshakes up to the listen backlog and then dropped SYNs; the clients' SYN "
			"retransmits (1 s apart on Linux >= 6.5, else 1 s, 3 s, 7 s) are the whole-second "
			"connect times. Raise the backlog above %lld (%.0f req/s x %.2f s): Tomcat/Spring "
			"Boot server.tomcat.accept-count (default 100), Jetty acceptQueueSize (default 50), "
			"or the backlog argument of the server socket; the kernel caps it at "
			"net.core.somaxconn (default 4096)%s. The requests then wait in the queue "
			"($upstream_header_time) instead of retrying; the stop itself is the cause to fix.",
			backlog, rate, stop_s, backlog > 4096 ? ": raise somaxconn too" : "");
		if (in->slowest.upstream[0] && !in->upstream_many)
			vadvice(&v, " The server behind it: %s ($upstream_addr).", in->slowest.upstream);
		rv_commit(r, &v);
	}
}

static void judge_connect_504(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct timeline *tl = c->tl;
	const struct incident *in = f->in;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	if (!f->have_uw)
		return;
	const struct upstream_window *u = &f->uw;
	int64_t ws = u->unexplained ? EV_TIME_NONE : f->ws; /* a stop that explains them */
	int64_t a = u->a, b = u->b;
	double stop_s = u->stop_s, rate = u->rate;
	long long backlog = u->backlog;
	const struct tl_req_sum w = u->w;
	/* connect timeouts: 504s whose connect did not complete, $upstream_connect_time "-";
	 * a format without the variable says nothing about the connect (a read timeout is
	 * a 504 too) */
	uint32_t n504 = 0;
	float t504_max = 0;
	bool rt_known = false;
	struct tl_req_iter it;
	const struct tl_req *q;
	timeline_reqs_begin(&it, tl, a, b);
	while ((q = timeline_reqs_next(&it))) {
		if (q->status == 504 && q->uct_s < 0 && !(q->flags & TL_REQ_NO_UCT)) {
			n504++;
			if (q->rt_s > t504_max)
				t504_max = q->rt_s;
			if (q->rt_s >= 0)
				rt_known = true;
		}
	}
	if (n504 > 0) {
		struct vdraft v;
		vinit(&v, V_CONNECT_504, in->id, SEV_CRIT);
		v.start_ms = a;
		v.end_ms = b;
		v.jump_ms = a;
		char after[32] = "";
		if (rt_known)
			fmt_s(after, sizeof after, " after %.1f s", t504_max);
		vtitle(&v, "%u requests failed with 504: nginx gave up connecting%s (proxy_connect_timeout)%s",
		       n504, after, ws != EV_TIME_NONE ? " during the stop" :
				    u->unexplained ? ": the upstream stopped accepting, and no JVM stop explains it" :
				    u->sized ? " while the upstream accepted nothing" : "");
		vevid(&v, "requests started %s-%s: %u, of them 504 with $upstream_connect_time \"-\": %u%s",
		      rl_hms(r, a, t1), rl_hms(r, b, t2), w.n, n504, after[0] ? "" : " ($request_time not logged)");
		if (rt_known)
			fmt_s(v.evidence[v.nevidence - 1] + strlen(v.evidence[v.nevidence - 1]),
			      VERDICT_EVIDENCE_LEN - strlen(v.evidence[v.nevidence - 1]),
			      " (request time up to %.3f s)", t504_max);
		evid_stop(&v, r, c, u);
		if (in->t504.line)
			evid_request(&v, c, &in->t504, "was the first to time out", false);
		if (u->unexplained)
			advice_no_accept(&v);
		else if (!u->sized)
			vadvice(&v, "nginx's connects got no answer within proxy_connect_timeout: the upstream's "
				"accept queue was full (its SYNs dropped) or the server did not answer at all. "
				"No stop shows in this input, so the backlog cannot be sized from it: check that "
				"the upstream accepts (ss -ltn: Recv-Q at the backlog), raise its listen backlog, "
				"and/or raise proxy_connect_timeout above the 1 s SYN retransmit.");
		else
			vadvice(&v, "The upstream's accept queue was full, so nginx's SYNs were dropped and the "
			"connect timed out before the first retransmit. Raise the upstream's listen "
			"backlog above %lld (%.0f req/s x %.2f s) so connections queue instead of being "
			"dropped, and/or raise proxy_connect_timeout above the stop length; then fix the "
			"stop.", backlog, rate, stop_s);
		rv_commit(r, &v);
	}
}

/* its thresholds (--config, --help-config) */
static const struct rule_knob accept_queue_knobs[] = {
	RULE_KNOB(aq_min_requests, 5, "a few requests connecting after whole-second SYN retries means dropped SYNs"),
	RULE_KNOB(aq_cluster_gap_ms, 2000, "slow connects more than 2 s apart (by start) belong to separate overflows"),
	RULE_KNOB(aq_crit_bucket, 2, "connects in the 2 s bucket waited for a second SYN retry: the queue stayed full"),
	RULE_KNOB(aq_crit_requests, 100, "100 callers delayed by whole seconds in one overflow (backlog100: 499 of 3600)"),
	RULE_KNOB(aq_explain_share, 0.5, "a JVM stop explains held connects when it lasts half their shortest wait "
	  "(1 s SYN retry, proxy_connect_timeout) and half of them started in it (or the second before)"),
	RULE_KNOB(aq_stop_share, 0.5, "nginx alone shows a stop only where most requests started in it were held (slow "
	  "connect, never connected, or >= 0.5 s in the queue): sporadic SYN drops are not a stop"),
};

const struct rule rule_accept_queue = {
	.info = {.id = V_ACCEPT_QUEUE, .name = "accept-queue-overflow", .kind = VERDICT_INCIDENT, .rank = 6},
	.judge = judge_accept_queue,
	RULE_KNOBS(accept_queue_knobs),
};

const struct rule rule_connect_504 = {
	.info = {.id = V_CONNECT_504, .name = "connect-timeout-504", .kind = VERDICT_INCIDENT, .rank = 7},
	.judge = judge_connect_504,
};
