/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exit.c — the JVM dying is an incident (jvm-exited, rules_internal.h).
 *
 * Evidence, in the order it is trusted:
 *  - a crash report (hs_err_pid*.log, EV_HSERR): it crashed, with the signal
 *    and the problematic frame;
 *  - the memory cgroup's OOM-kill counter (EV_MEM oom_kill) rising while it
 *    died: the kernel's OOM killer ended it (the only evidence for that name);
 *  - what the JVM wrote on its stdout/stderr when they are files (EV_JVM_EXIT
 *    said): "Terminating due to java.lang.OutOfMemoryError" is
 *    -XX:+ExitOnOutOfMemoryError ending it (exit status 3, no heap at exit),
 *    "Aborting due to" is -XX:+CrashOnOutOfMemoryError;
 *  - the GC log's heap at exit ([gc,heap,exit] "Heap", JI_HEAP_AT_EXIT): it
 *    left on its own (System.exit, the end of main, SIGTERM), at that time;
 *  - its command line's OutOfMemoryError flags (EV_JVM_EXIT opts) with the GC
 *    log's last records: back-to-back Full GCs that freed nothing on a full
 *    heap are a heap run out, which those flags turn into an end;
 *  - live, the followed process gone (EV_JVM_EXIT, from the probe finding no
 *    such pid): it ended between the last poll that saw it and that one. With
 *    none of the above it was killed (SIGKILL: a probe, an eviction, kill -9)
 *    or ended without a word.
 *  - a report of the logs alone: the GC log stops and nginx answers 502 with
 *    no upstream connection (refused: nothing listens) from then on.
 * stwtop did not start the JVM, so it cannot see an exit status: the verdict
 * says where to look. What it cost: the requests nginx logged that started
 * after the end of the interval the death is known to (before it, they may
 * have been served), and how many failed; those that started inside it apart.
 *
 * A report raises it from the crash report, from the heap at exit when nginx
 * answered 5xx after it (a JVM whose log simply ends with its exit, as every
 * recording does, is not news), or from the refused 502s; live raises it when
 * the followed process is gone. Live, its text changes when the story does,
 * or the cost at least doubles, not with every request counted (the final
 * verdict has the exact count). */
#include "rules_internal.h"

#include <string.h>

#include "stwtop/fmt.h"

#define GONE_MIN_REFUSED 20       /* refused 502s after the GC log stops: the JVM went away */
#define RUN_MIN_FULLS 2           /* back-to-back Full GCs that freed nothing: a heap run out
				     (HotSpot's last try before OutOfMemoryError is two: a Full GC,
				     then one that clears soft references too) */
#define RUN_NEAR_MS 30000         /* ... this close to its end */
#define OOM_SLACK_MS 3000         /* a counter rise this close to the interval is its death */

/* requests that started in a window, and whether they were refused (502 with no upstream connection) */
struct refused {
	uint32_t n, s5xx, s504, no_connect, refused, served;   /* served: by the upstream, not 5xx */
	int64_t first_refused;
};

/* jvm-exited's state: what is known of the JVM's end */
struct jvm_end {
	int64_t gone_ms, alive_ms;     /* live: the poll that found it gone, the last that saw it */
	int32_t pid;
	uint8_t opts, said;            /* EXIT_OPT_*, enum exit_said */
	char said_line[112], said_path[96];
	int64_t heap_exit_ms;          /* the GC log printed the heap at exit */
	bool crashed;                  /* a crash report was read */
	int64_t crash_ms;
	struct ev_hserr crash;
	uint16_t crash_src;
	uint64_t crash_line;
	/* the memory cgroup's OOM-kill counter: its last sample, and its last rise */
	int64_t oom_prev, oom_prev_ms;
	int64_t oom_rise_from_ms, oom_rise_ms, oom_before, oom_after;
	/* the JVM log's last records */
	int64_t last_jvm_ms;           /* the newest pause or cycle (not every safepoint: a
					  JDK 8 replay has ~90 k, and no other rule wants them) */
	uint32_t fulls;                /* trailing Full GCs that freed nothing (young ones between
					  that freed nothing either do not break the run) */
	int64_t run_first_ms, run_last_ms;
	int64_t run_before_kb, run_after_kb, run_committed_kb;
	/* a report: the requests that started after the JVM log's last record, counted as the
	 * report reads on (the timeline lets old requests go: a long tail of refused requests
	 * after the JVM went away would be cut to its last half minute) */
	int64_t acc_from, scan_to;     /* counted: those that started in [acc_from, scan_to) */
	struct refused acc;
	/* the cost last said, live */
	bool published;
	struct tl_req_sum pub_after, pub_during;
	int64_t pub_ms;
};

static void exit_state_init(void *p)
{
	struct jvm_end *x = p;
	x->gone_ms = x->alive_ms = x->heap_exit_ms = x->crash_ms = EV_TIME_NONE;
	x->oom_prev = -1;
	x->oom_prev_ms = x->oom_rise_from_ms = x->oom_rise_ms = EV_TIME_NONE;
	x->last_jvm_ms = x->run_first_ms = x->run_last_ms = EV_TIME_NONE;
	x->acc_from = x->scan_to = EV_TIME_NONE;
}

static const struct rule_state_type exit_state_type = {sizeof(struct jvm_end), exit_state_init};

static inline struct jvm_end *exit_st(const struct rules *r)
{
	return rl_state(r, V_JVM_EXITED);
}

/* a pause on a full heap that freed (almost) nothing extends the run; one that freed memory ends it */
static void on_pause(struct jvm_end *x, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	if (!(p->flags & PAUSE_F_HEAP) || p->before_kb <= 0 || p->after_kb < 0 || p->committed_kb <= 0)
		return;
	/* freed under 10 % (a real 64 MB G1 heap's last two before OutOfMemoryError: 62M->58M,
	 * 58M->58M) with the heap mostly full of what is left (not 90 %: another threw it at
	 * 47M->47M(64M), its free regions too few for its copies) */
	bool nothing = p->after_kb * 10 >= p->before_kb * 9 && p->after_kb * 10 >= p->committed_kb * 6 &&
		       !(p->flags & PAUSE_F_SYSTEM_GC);
	if (!nothing) {
		x->fulls = 0;
		return;
	}
	if (p->type != PAUSE_FULL)
		return;
	if (x->fulls++ == 0)
		x->run_first_ms = ev_start_ms(e);
	x->run_last_ms = e->t_ms;
	x->run_before_kb = p->before_kb;
	x->run_after_kb = p->after_kb;
	x->run_committed_kb = p->committed_kb;
}

static void on_mem(struct jvm_end *x, const struct event *e)
{
	int64_t v = e->u.mem.oom_kill;
	if (v < 0)
		return;
	/* a rise after the death (another process of the cgroup) is not this one's */
	if (x->oom_prev >= 0 && v > x->oom_prev && (x->gone_ms == EV_TIME_NONE || e->t_ms <= x->gone_ms + OOM_SLACK_MS)) {
		x->oom_rise_from_ms = x->oom_prev_ms;
		x->oom_rise_ms = e->t_ms;
		x->oom_before = x->oom_prev;
		x->oom_after = v;
	}
	x->oom_prev = v;
	x->oom_prev_ms = e->t_ms;
}

static void exit_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	(void)c;
	struct jvm_end *x = exit_st(r);
	switch (e->kind) {
	case EV_JVM_EXIT:
		if (x->gone_ms == EV_TIME_NONE) {
			const struct ev_jvm_exit *ex = &e->u.exit;
			x->gone_ms = e->t_ms;
			x->alive_ms = ex->alive_ms;
			x->pid = ex->pid;
			x->opts = ex->opts;
			x->said = ex->said;
			util_strlcpy_n(x->said_line, sizeof x->said_line, ex->said_line, strnlen(ex->said_line, sizeof ex->said_line));
			util_strlcpy_n(x->said_path, sizeof x->said_path, ex->said_path, strnlen(ex->said_path, sizeof ex->said_path));
		}
		break;
	case EV_JVM_INFO:
		if (e->u.info.key == JI_HEAP_AT_EXIT && x->heap_exit_ms == EV_TIME_NONE)
			x->heap_exit_ms = e->t_ms;
		break;
	case EV_HSERR:
		if (!x->crashed) {
			x->crashed = true;
			x->crash_ms = e->t_ms;
			x->crash = e->u.hserr;
			x->crash_src = e->src;
			x->crash_line = e->line;
		}
		break;
	case EV_MEM:
		on_mem(x, e);
		break;
	case EV_GC_PAUSE:
		on_pause(x, e);
		/* fall through */
	case EV_GC_CYCLE:
		if (e->t_ms != EV_TIME_NONE && (x->last_jvm_ms == EV_TIME_NONE || e->t_ms > x->last_jvm_ms))
			x->last_jvm_ms = e->t_ms;
		break;
	default:
		break;
	}
}

/* how it ended, from the evidence above: each names only what its evidence shows */
enum end_how {
	END_CRASHED,       /* a crash report */
	END_OOM_KILLED,    /* the cgroup's OOM-kill counter rose while it died */
	END_OOME_EXIT,     /* "Terminating due to java.lang.OutOfMemoryError" */
	END_OOME_ABORT,    /* "Aborting due to ..." with no crash report read */
	END_EXITED,        /* the heap at exit */
	END_AFTER_OOME,    /* gone, its output's last word an OutOfMemoryError (an uncaught one
			      ending main ends the JVM: JDK 17 then prints no heap at exit) */
	END_OOME_LIKELY,   /* -XX:+ExitOnOutOfMemoryError (or an OnOutOfMemoryError command) and a heap run out */
	END_HEAP_RAN_OUT,  /* a heap run out, no flag known to end it */
	END_KILLED,        /* gone without a word */
	END_UNKNOWN,       /* gone, and no GC log that could have told an exit */
	END_WENT_AWAY      /* a report: the GC log stops, nginx refused */
};

/* the interval the death is known to: [lo, hi]; lo == hi when a line dates it */
struct end_when {
	int64_t lo, hi;
};

/* the back-to-back Full GCs that freed nothing, ending near lo */
static bool ran_out(const struct jvm_end *x, int64_t lo)
{
	return x->fulls >= RUN_MIN_FULLS && x->run_last_ms != EV_TIME_NONE && lo != EV_TIME_NONE &&
	       lo - x->run_last_ms <= RUN_NEAR_MS;
}

static bool oom_killed(const struct jvm_end *x, struct end_when w)
{
	if (x->oom_rise_ms == EV_TIME_NONE || w.lo == EV_TIME_NONE)
		return false;
	int64_t from = x->oom_rise_from_ms != EV_TIME_NONE ? x->oom_rise_from_ms : x->oom_rise_ms;
	return x->oom_rise_ms >= w.lo - OOM_SLACK_MS && from <= w.hi;
}

static enum end_how end_how(const struct jvm_end *x, const struct rules_ctx *c, struct end_when w)
{
	if (x->crashed)
		return END_CRASHED;
	if (oom_killed(x, w))
		return END_OOM_KILLED;
	if (x->said == EXIT_SAID_TERMINATING)
		return END_OOME_EXIT;
	if (x->said == EXIT_SAID_ABORTING)
		return END_OOME_ABORT;
	if (x->heap_exit_ms != EV_TIME_NONE)
		return END_EXITED;
	if (x->said == EXIT_SAID_OOME && x->gone_ms != EV_TIME_NONE)
		return END_AFTER_OOME;
	if (x->gone_ms == EV_TIME_NONE)
		return END_WENT_AWAY;
	if (!c->have_jvm)
		return END_UNKNOWN;
	if (ran_out(x, w.lo))
		return x->opts & (EXIT_OPT_EXIT_ON_OOME | EXIT_OPT_ON_OOME_CMD) ? END_OOME_LIKELY : END_HEAP_RAN_OUT;
	return END_KILLED;
}

/* the newest memory sample at or before t, and whether it was near its limit */
static bool memory_tight(const struct timeline *tl, int64_t t, double *pct, int64_t *at)
{
	const struct ring *rg = &tl->mem;
	for (uint64_t i = rg->total; i > ring_first(rg); i--) {
		const struct tl_mem *m = ring_at(rg, i - 1);
		if (!m || m->t_ms > t)
			continue;
		if (m->limit_bytes <= 0 || m->usage_bytes < 0)
			return false;
		*pct = 100.0 * (double)m->usage_bytes / (double)m->limit_bytes;
		*at = m->t_ms;
		return *pct >= 90;
	}
	return false;
}

/* "-XX:+ExitOnOutOfMemoryError, -XX:+HeapDumpOnOutOfMemoryError" */
static void opts_text(uint8_t o, char *buf, size_t len)
{
	static const struct { uint8_t bit; const char *s; } f[] = {
		{EXIT_OPT_EXIT_ON_OOME, "-XX:+ExitOnOutOfMemoryError"},
		{EXIT_OPT_CRASH_ON_OOME, "-XX:+CrashOnOutOfMemoryError"},
		{EXIT_OPT_HEAPDUMP_OOME, "-XX:+HeapDumpOnOutOfMemoryError"},
		{EXIT_OPT_ON_OOME_CMD, "-XX:OnOutOfMemoryError=<command>"},
	};
	size_t o2 = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(f); i++) {
		if (!(o & f[i].bit))
			continue;
		int w = fmt_s(buf + o2, o2 < len ? len - o2 : 0, "%s%s", o2 ? ", " : "", f[i].s);
		o2 += w > 0 ? (size_t)w : 0;
	}
}

static void said_evidence(const struct jvm_end *x, struct vdraft *v)
{
	char o[160];
	if (x->said >= EXIT_SAID_OOME)
		vevid(v, "%s (the JVM's own output) says: %s", x->said_path[0] ? x->said_path : "its stdout/stderr",
		      x->said_line);
	else if (x->said == EXIT_SAID_NOTHING)
		vevid(v, "its stdout/stderr (files, read after it ended) say nothing of an OutOfMemoryError");
	if (x->opts & EXIT_OPT_KNOWN) {
		opts_text(x->opts, o, sizeof o);
		if (o[0])
			vevid(v, "its command line has %s", o);
		else
			vevid(v, "its command line has none of -XX:+ExitOnOutOfMemoryError, "
			      "-XX:+CrashOnOutOfMemoryError, -XX:OnOutOfMemoryError");
	}
}

static void evidence(struct rules *r, const struct rules_ctx *c, const struct jvm_end *x, enum end_how how,
		     struct end_when w, struct vdraft *v)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], k1[16], k2[16], k3[16];
	if (x->crashed)
		vevid(v, "%s: %s, problematic frame %s", x->crash.path[0] ? x->crash.path : rl_sname(c, x->crash_src),
		      x->crash.signal[0] ? x->crash.signal : "a crash", x->crash.frame[0] ? x->crash.frame : "(not given)");
	if (oom_killed(x, w))
		vevid(v, "the memory cgroup's OOM-kill counter rose from %lld to %lld between its reads at %s and %s "
		      "(memory.oom_control / memory.events oom_kill): the kernel's OOM killer killed a process of the "
		      "JVM's cgroup as it died", (long long)x->oom_before, (long long)x->oom_after,
		      rl_hms(r, x->oom_rise_from_ms != EV_TIME_NONE ? x->oom_rise_from_ms : x->oom_rise_ms, t1),
		      rl_hms(r, x->oom_rise_ms, t2));
	else if (x->oom_prev >= 0 && x->gone_ms != EV_TIME_NONE)
		vevid(v, "the memory cgroup's OOM-kill counter did not rise (oom_kill %lld): not its memory "
		      "limit (a node-wide OOM kill is counted in no cgroup: the node's kernel log tells)",
		      (long long)x->oom_prev);
	said_evidence(x, v);
	if (x->fulls >= RUN_MIN_FULLS && x->run_last_ms != EV_TIME_NONE)
		vevid(v, "the GC log's last records: %u back-to-back Full GCs from %s to %s freed nothing "
		      "(the last %s->%s(%s)): the heap ran out", x->fulls, rl_hms(r, x->run_first_ms, t1),
		      rl_hms(r, x->run_last_ms, t2), util_fmt_kb(x->run_before_kb, k1, sizeof k1),
		      util_fmt_kb(x->run_after_kb, k2, sizeof k2), util_fmt_kb(x->run_committed_kb, k3, sizeof k3));
	if (x->heap_exit_ms != EV_TIME_NONE)
		vevid(v, "the GC log printed the heap at exit at %s ([gc,heap,exit]): the JVM was shutting down "
		      "on its own", rl_hms(r, x->heap_exit_ms, t1));
	if (x->gone_ms != EV_TIME_NONE) {
		if (x->alive_ms != EV_TIME_NONE)
			vevid(v, "process %d was running at %s and gone at %s (its /proc entry disappeared)", x->pid,
			      rl_hms(r, x->alive_ms, t1), rl_hms(r, x->gone_ms, t2));
		else
			vevid(v, "process %d was gone at %s (its /proc entry disappeared)", x->pid,
			      rl_hms(r, x->gone_ms, t2));
	}
	if (how == END_KILLED || how == END_HEAP_RAN_OUT)
		vevid(v, "no crash report and no heap-at-exit lines in the GC log: not an orderly shutdown (a "
		      "kill, or an exit that skips it: Runtime.halt, -XX:+ExitOnOutOfMemoryError)");
	double pct;
	int64_t at;
	if (memory_tight(c->tl, w.lo, &pct, &at))
		vevid(v, "container memory was at %.0f%% of its limit at %s: the kernel's OOM killer acts at 100%%",
		      pct, rl_hms(r, at, t1));
}

/* requests counted in [a, b), and whether they were refused (502 with no upstream connection) */
static void count_refused(const struct timeline *tl, int64_t a, int64_t b, struct refused *out)
{
	struct tl_req_iter it;
	const struct tl_req *q;
	timeline_reqs_begin(&it, tl, a, b);
	while ((q = timeline_reqs_next(&it))) {
		out->n++;
		if (q->status >= 500 && q->status <= 599)
			out->s5xx++;
		if (q->status == 504)
			out->s504++;
		if (q->uct_s < 0 && !(q->flags & TL_REQ_NO_UCT))
			out->no_connect++;
		if (q->status == 502 && q->uct_s < 0) {
			out->refused++;
			if (out->first_refused == EV_TIME_NONE || q->start_ms < out->first_refused)
				out->first_refused = q->start_ms;
		} else if (q->status > 0 && q->status < 500 && q->uct_s >= 0) {
			out->served++;
		}
	}
}

/* A report: count the requests that started since the JVM log's last record, from where the
 * last call stopped up to those that have all been logged by now (horizon_ms: nginx logs a
 * request when it ends), all of them at the end. A newer record starts again. */
static void accumulate(struct rules *r, const struct rules_ctx *c, struct jvm_end *x)
{
	if (x->last_jvm_ms == EV_TIME_NONE || !c->have_nginx)
		return;
	if (x->acc_from != x->last_jvm_ms) {
		x->acc_from = x->scan_to = x->last_jvm_ms;
		memset(&x->acc, 0, sizeof x->acc);
		x->acc.first_refused = EV_TIME_NONE;
	}
	int64_t upto = r->eval_final ? c->tl->newest_ms + 1 : c->tl->newest_ms - (int64_t)r->cfg.horizon_ms;
	if (upto <= x->scan_to)
		return;
	count_refused(c->tl, x->scan_to, upto, &x->acc);
	x->scan_to = upto;
}

/* A report of the logs alone: the GC log's last record, then nginx refused (nothing listened),
 * and nothing served by the upstream: the JVM went away. The interval is from its last record
 * to the first refused request. */
static bool went_away(const struct jvm_end *x, const struct rules_ctx *c, struct end_when *w, struct refused *f)
{
	if (!c->have_jvm || !c->have_nginx || x->last_jvm_ms == EV_TIME_NONE || x->acc_from != x->last_jvm_ms)
		return false;
	*f = x->acc;
	if (f->refused < GONE_MIN_REFUSED || f->served * 10 > f->refused)
		return false;
	w->lo = x->last_jvm_ms;
	w->hi = f->first_refused;
	return true;
}

/* The cost said live: the count changes the text when the story does (the first
 * 5xx), when it at least doubles, or after a minute of data; the final text is exact. */
static bool material(const struct jvm_end *x, const struct tl_req_sum *q, int64_t now, bool final)
{
	if (final || !x->published)
		return true;
	const struct tl_req_sum *p = &x->pub_after;
	if ((p->s5xx == 0) != (q->s5xx == 0) || (p->n == 0) != (q->n == 0))
		return true;
	if (q->s5xx >= 2 * p->s5xx + 2 || (q->s5xx == 0 && q->n >= 2 * p->n + 2))
		return true;
	return now != EV_TIME_NONE && now - x->pub_ms >= 60000 && (q->n != p->n || q->s5xx != p->s5xx);
}

static void cost(struct rules *r, const struct rules_ctx *c, struct jvm_end *x, struct end_when w,
		 struct vdraft *v, struct tl_req_sum *q)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	memset(q, 0, sizeof *q);
	if (!c->have_nginx)
		return;
	int64_t end = c->now_ms != EV_TIME_NONE && c->now_ms > w.hi ? c->now_ms : c->tl->newest_ms;
	struct tl_req_sum during;
	timeline_req_sum(c->tl, w.hi, end + 1, q);
	memset(&during, 0, sizeof during);
	if (w.hi > w.lo)
		timeline_req_sum(c->tl, w.lo + 1, w.hi, &during);
	if (material(x, q, c->now_ms, r->eval_final)) {
		x->published = true;
		x->pub_after = *q;
		x->pub_during = during;
		x->pub_ms = c->now_ms;
	} else {
		*q = x->pub_after;
		during = x->pub_during;
	}
	if (during.n > 0)
		vevid(v, "nginx between %s and %s, while it died: %u requests started, %u answered 5xx (not "
		      "counted as after it: some may have been served)", rl_hms(r, w.lo, t1), rl_hms(r, w.hi, t2),
		      during.n, during.s5xx);
	if (q->n == 0) {
		vevid(v, "nginx logged no request that started after %s", rl_hms(r, w.hi, t1));
		return;
	}
	vevid(v, "nginx after %s: %u requests started, %u answered 5xx (%u of them 504), %u never connected",
	      rl_hms(r, w.hi, t1), q->n, q->s5xx, q->s504, q->no_connect);
}

/* "at 10:00:01.234" or "between 10:00:01.000 and 10:00:01.200" */
static const char *when_text(struct rules *r, struct end_when w, char *buf, size_t len)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	if (w.hi <= w.lo)
		fmt_s(buf, len, "at %s", rl_hms(r, w.lo, t1));
	else
		fmt_s(buf, len, "between %s and %s", rl_hms(r, w.lo, t1), rl_hms(r, w.hi, t2));
	return buf;
}

static void headline(struct rules *r, const struct jvm_end *x, enum end_how how, struct end_when w,
		     const struct refused *f, const char *cost_txt, struct vdraft *v)
{
	char when[64], t1[UTIL_HMS_LEN];
	when_text(r, w, when, sizeof when);
	const char *sig = x->crash.signal[0] ? x->crash.signal : "hs_err report";
	switch (how) {
	case END_CRASHED:
		if (x->said == EXIT_SAID_ABORTING)
			vtitle(v, "The JVM crashed on purpose on OutOfMemoryError (-XX:+CrashOnOutOfMemoryError, %s) "
			       "%s%s", sig, when, cost_txt);
		else
			vtitle(v, "The JVM crashed (%s) %s%s", sig, when, cost_txt);
		break;
	case END_OOM_KILLED:
		vtitle(v, "The JVM was killed by the kernel's OOM killer (its memory cgroup's limit) %s%s", when, cost_txt);
		break;
	case END_OOME_EXIT:
		vtitle(v, "The JVM ended itself on OutOfMemoryError (-XX:+ExitOnOutOfMemoryError: exit status 3) %s%s",
		       when, cost_txt);
		break;
	case END_OOME_ABORT:
		vtitle(v, "The JVM aborted on OutOfMemoryError (-XX:+CrashOnOutOfMemoryError) %s%s", when, cost_txt);
		break;
	case END_EXITED:
		vtitle(v, "The JVM exited %s%s%s", x->said >= EXIT_SAID_OOME ? "after an OutOfMemoryError " : "", when,
		       cost_txt);
		break;
	case END_AFTER_OOME:
		vtitle(v, "The JVM ended after an OutOfMemoryError %s%s", when, cost_txt);
		break;
	case END_OOME_LIKELY:
		vtitle(v, "The JVM ended %s, most likely on OutOfMemoryError: its heap ran out and it ran with %s%s",
		       when, x->opts & EXIT_OPT_EXIT_ON_OOME ? "-XX:+ExitOnOutOfMemoryError" :
		       "-XX:OnOutOfMemoryError=<command>", cost_txt);
		break;
	case END_HEAP_RAN_OUT:
		vtitle(v, "The JVM ended %s with its heap run out (killed or ended without a word)%s", when, cost_txt);
		break;
	case END_KILLED:
		vtitle(v, "The JVM was killed or died without a word %s%s", when, cost_txt);
		break;
	case END_UNKNOWN:
		vtitle(v, "The JVM ended (exited or was killed: no GC log to tell which) %s%s", when, cost_txt);
		break;
	case END_WENT_AWAY:
		vtitle(v, "The JVM went away after %s%s: its GC log stops there and nginx answered %u requests with "
		       "502 (connection refused) from %s on", rl_hms(r, w.lo, t1),
		       ran_out(x, w.lo) ? ", its heap run out" : "", f->refused, rl_hms(r, w.hi, when));
		break;
	}
}

static const char HEAP_ADVICE[] = "Its heap ran out: the live data no longer fits in -Xmx (raise it) or something "
	"keeps objects it should not (a leak: a heap dump at the OutOfMemoryError, "
	"-XX:+HeapDumpOnOutOfMemoryError, shows what holds them). ";

static void advice(const struct jvm_end *x, enum end_how how, struct vdraft *v)
{
	switch (how) {
	case END_CRASHED:
		if (x->said == EXIT_SAID_ABORTING)
			vadvice(v, "%s", HEAP_ADVICE);
		else
			vadvice(v, "Read the crash report's header (the problematic frame, the signal) and its thread "
				"stack; a JVM bug or a native library is the usual cause. ");
		break;
	case END_OOM_KILLED:
		vadvice(v, "The kernel killed it at its cgroup's memory limit, before the JVM could throw "
			"OutOfMemoryError: heap + metaspace + thread stacks + direct buffers + code cache exceeded "
			"the limit. Keep -Xmx (or -XX:MaxRAMPercentage) well under the limit or raise the limit; "
			"-XX:NativeMemoryTracking=summary and `jcmd PID VM.native_memory` show what is outside the "
			"heap. `dmesg | grep -i 'killed process'` has the kernel's account. ");
		break;
	case END_OOME_EXIT:
	case END_OOME_ABORT:
	case END_OOME_LIKELY:
		vadvice(v, "%sIt ended itself as told to (so an orchestrator restarts it rather than it limping "
			"on); the restart does not fix the cause. ", HEAP_ADVICE);
		break;
	case END_AFTER_OOME:
		vadvice(v, "%sA thread that dies of an OutOfMemoryError ends the JVM when it was the last "
			"one that kept it running (main here, or every non-daemon thread); "
			"-XX:+ExitOnOutOfMemoryError ends it at the first one, for a restart, instead of a JVM "
			"that limps on with some threads dead. ", HEAP_ADVICE);
		break;
	case END_HEAP_RAN_OUT:
		vadvice(v, "%sWhat ended it is not in the evidence: look for -XX:OnOutOfMemoryError or an "
			"orchestrator's kill (`kubectl describe pod`: Last State, exit code 137 = SIGKILL, 3 = "
			"ExitOnOutOfMemoryError). ", HEAP_ADVICE);
		break;
	case END_EXITED:
		if (x->said >= EXIT_SAID_OOME)
			vadvice(v, "%s", HEAP_ADVICE);
		else
			vadvice(v, "It shut down on its own: look for who asked (a deploy, a SIGTERM from the "
				"orchestrator, System.exit in the application log). ");
		break;
	case END_KILLED:
		vadvice(v, "Something outside the JVM ended it: check `kubectl describe pod` (Last State: "
			"OOMKilled, exit code 137 = SIGKILL), `dmesg | grep -i 'killed process'` for the OOM "
			"killer, and liveness-probe failures in the pod's events. ");
		break;
	case END_UNKNOWN:
	case END_WENT_AWAY:
		if (ran_out(x, x->last_jvm_ms))
			vadvice(v, "%s", HEAP_ADVICE);
		vadvice(v, "Look for who ended it: a deploy or a SIGTERM from the orchestrator, System.exit or an "
			"OutOfMemoryError in the application's output (\"Terminating due to "
			"java.lang.OutOfMemoryError\" is -XX:+ExitOnOutOfMemoryError), or a kill from outside "
			"(`kubectl describe pod`: Last State OOMKilled, exit code 137 = SIGKILL; `dmesg | grep -i "
			"'killed process'` for the OOM killer). ");
		break;
	}
	if (how != END_OOME_EXIT && how != END_OOM_KILLED)
		vadvice(v, "stwtop did not start this JVM and cannot see its exit status.");
}

/* when it died: the crash report, the heap at exit, or the polls around it */
static struct end_when death_when(const struct jvm_end *x)
{
	struct end_when w = {EV_TIME_NONE, EV_TIME_NONE};
	if (x->crashed && x->crash_ms != EV_TIME_NONE)
		w.lo = w.hi = x->crash_ms;
	else if (x->heap_exit_ms != EV_TIME_NONE)
		w.lo = w.hi = x->heap_exit_ms;
	else if (x->gone_ms != EV_TIME_NONE) {
		w.lo = x->alive_ms != EV_TIME_NONE ? x->alive_ms : x->gone_ms;
		w.hi = x->gone_ms;
	}
	return w;
}

static void exit_refresh(struct rules *r, const struct rules_ctx *c, bool all)
{
	struct jvm_end *x = exit_st(r);
	struct end_when w = death_when(x);
	struct refused f;
	memset(&f, 0, sizeof f);
	if (x->gone_ms == EV_TIME_NONE && !x->crashed && x->heap_exit_ms == EV_TIME_NONE && c->have_jvm)
		accumulate(r, c, x);
	/* a report of the logs alone: judged once, at the end, where a JVM that comes back is known */
	bool away = w.lo == EV_TIME_NONE && r->eval_final && went_away(x, c, &w, &f);
	if (w.lo == EV_TIME_NONE)
		return;
	if (!all && rv_active(r, V_JVM_EXITED, 0))
		return;
	struct vdraft v;
	struct tl_req_sum q;
	vinit(&v, V_JVM_EXITED, 0, SEV_WARN);
	v.start_ms = v.jump_ms = w.lo;
	v.end_ms = w.hi > w.lo ? w.hi : w.lo;
	enum end_how how = away ? END_WENT_AWAY : end_how(x, c, w);
	evidence(r, c, x, how, w, &v);
	if (away)
		vevid(&v, "the GC log's last record is at %s; nginx then logged %u requests, %u of them 502 with no "
		      "upstream connection (refused: nothing listened), %u served by the upstream", rl_hms(r, w.lo, (char[UTIL_HMS_LEN]){0}),
		      f.n, f.refused, f.served);
	if (away && c->sum->open_pauses && c->sum->open_pause.start_ms != EV_TIME_NONE &&
	    c->sum->open_pause.start_ms >= w.lo && c->sum->open_pause.start_ms <= w.hi) {
		const struct summary_open_pause *op = &c->sum->open_pause;
		vevid(&v, "after it the GC log has only the start line of %s%s%s%s at %s, and no end line: the JVM "
		      "went away inside that pause", op->title, op->cause[0] ? " (" : "", op->cause,
		      op->cause[0] ? ")" : "", rl_hms(r, op->start_ms, (char[UTIL_HMS_LEN]){0}));
	}
	if (away) {
		/* the whole tail, counted as it was read: from the GC log's last record */
		memset(&q, 0, sizeof q);
		q.n = f.n;
		q.s5xx = f.s5xx;
		q.s504 = f.s504;
		q.no_connect = f.no_connect;
		vevid(&v, "nginx after %s: %u requests started, %u answered 5xx (%u of them 504), %u never connected",
		      rl_hms(r, w.lo, (char[UTIL_HMS_LEN]){0}), q.n, q.s5xx, q.s504, q.no_connect);
	} else {
		cost(r, c, x, w, &v, &q);
	}
	bool own_exit = how == END_EXITED;
	/* a report: a log that ends with its JVM's exit is every recording; it is
	 * news when a crash says so, or nginx paid for it */
	if (x->gone_ms == EV_TIME_NONE && !x->crashed && !away && q.s5xx == 0)
		return;
	/* an end that was not an orderly shutdown is crit: a kill, a heap run out, a crash */
	bool crit = x->crashed || q.s5xx > 0 || away || (!own_exit && x->gone_ms != EV_TIME_NONE && c->have_jvm) ||
		    how == END_OOM_KILLED || how == END_OOME_EXIT || how == END_OOME_ABORT || how == END_AFTER_OOME;
	v.severity = crit ? SEV_CRIT : SEV_WARN;
	if (how == END_UNKNOWN)
		vevid(&v, "not checked: whether it shut down on its own (a GC log prints the heap at exit; none was "
		      "followed); no crash report was seen");
	char cost_txt[96] = "";
	if (q.s5xx > 0)
		fmt_s(cost_txt, sizeof cost_txt, ": nginx answered %u of the %u requests after it with 5xx", q.s5xx,
		      q.n);
	else if (q.n > 0)
		fmt_s(cost_txt, sizeof cost_txt, "; nginx logged %u requests after it, none 5xx", q.n);
	headline(r, x, how, w, &f, cost_txt, &v);
	advice(x, how, &v);
	if (q.s5xx > 0 || away)
		vadvice(&v, " While no JVM listens, nginx answers 502 (connection refused) or 504: a readiness "
			"probe that fails before the JVM stops, and a second replica, keep requests away from it.");
	rv_commit(r, &v);
}

/* whole run, the JVM's end first of them (rank 8): when the JVM is gone, that is the news */
const struct rule rule_jvm_exited = {
	.info = {.id = V_JVM_EXITED, .name = "jvm-exited", .kind = VERDICT_RUN, .rank = 8},
	.on_event = exit_on_event,
	.on_kinds = (1u << EV_JVM_EXIT) | (1u << EV_JVM_INFO) | (1u << EV_HSERR) | (1u << EV_MEM) |
		    (1u << EV_GC_PAUSE) | (1u << EV_GC_CYCLE),
	.refresh = exit_refresh,
	.state = &exit_state_type,
};
