/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exit.c — the JVM dying is an incident (jvm-exited, rules_internal.h).
 *
 * Evidence, in the order it is trusted:
 *  - a crash report (hs_err_pid*.log, EV_HSERR): it crashed, with the signal
 *    and the problematic frame;
 *  - the GC log's heap at exit ([gc,heap,exit] "Heap", JI_HEAP_AT_EXIT): it
 *    left on its own (System.exit, the end of main, SIGTERM), at that time;
 *  - live, the followed process gone (EV_JVM_EXIT, from the probe finding no
 *    such pid): it ended between the last poll that saw it and that one. With
 *    neither of the above, it was killed (SIGKILL: the OOM killer, a probe,
 *    an eviction) or died without a word.
 * stwtop did not start the JVM, so it cannot see an exit status: the verdict
 * says where to look. What it cost: the requests nginx logged that started
 * after it, and how many failed.
 *
 * A report raises it from the crash report, or from the heap at exit when
 * nginx answered 5xx after it (a JVM whose log simply ends with its exit,
 * as every recording does, is not news); live raises it when the followed
 * process is gone. */
#include "rules_internal.h"

#include <string.h>

/* jvm-exited's state: what is known of the JVM's end */
struct jvm_end {
	int64_t gone_ms, alive_ms;     /* live: the poll that found it gone, the last that saw it */
	int32_t pid;
	int64_t heap_exit_ms;          /* the GC log printed the heap at exit */
	bool crashed;                  /* a crash report was read */
	int64_t crash_ms;
	struct ev_hserr crash;
	uint16_t crash_src;
	uint64_t crash_line;
};

static void exit_state_init(void *p)
{
	struct jvm_end *x = p;
	x->gone_ms = x->alive_ms = x->heap_exit_ms = x->crash_ms = EV_TIME_NONE;
}

static const struct rule_state_type exit_state_type = {sizeof(struct jvm_end), exit_state_init};

static inline struct jvm_end *exit_st(const struct rules *r)
{
	return rl_state(r, V_JVM_EXITED);
}

static void exit_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	(void)c;
	struct jvm_end *x = exit_st(r);
	switch (e->kind) {
	case EV_JVM_EXIT:
		if (x->gone_ms == EV_TIME_NONE) {
			x->gone_ms = e->t_ms;
			x->alive_ms = e->u.exit.alive_ms;
			x->pid = e->u.exit.pid;
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
	default:
		break;
	}
}

/* when it died: the crash report, the heap at exit, or the poll that found it gone */
static int64_t death_ms(const struct jvm_end *x)
{
	if (x->crashed && x->crash_ms != EV_TIME_NONE)
		return x->crash_ms;
	if (x->heap_exit_ms != EV_TIME_NONE)
		return x->heap_exit_ms;
	return x->alive_ms != EV_TIME_NONE ? x->alive_ms : x->gone_ms;
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

static void how_it_ended(struct rules *r, const struct rules_ctx *c, const struct jvm_end *x, struct vdraft *v)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	if (x->crashed) {
		vevid(v, "%s: %s, problematic frame %s", x->crash.path[0] ? x->crash.path : rl_sname(c, x->crash_src),
		      x->crash.signal[0] ? x->crash.signal : "a crash", x->crash.frame[0] ? x->crash.frame : "(not given)");
	}
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
	if (!x->crashed && x->heap_exit_ms == EV_TIME_NONE && c->have_jvm)
		vevid(v, "no crash report and no heap-at-exit lines in the GC log: it did not shut down on its own");
	double pct;
	int64_t at;
	if (memory_tight(c->tl, death_ms(x), &pct, &at))
		vevid(v, "container memory was at %.0f%% of its limit at %s: the kernel's OOM killer acts at 100%%",
		      pct, rl_hms(r, at, t1));
}

static void cost(struct rules *r, const struct rules_ctx *c, int64_t t, struct vdraft *v, struct tl_req_sum *q)
{
	char t1[UTIL_HMS_LEN];
	memset(q, 0, sizeof *q);
	if (!c->have_nginx)
		return;
	int64_t end = c->now_ms != EV_TIME_NONE && c->now_ms > t ? c->now_ms : c->tl->newest_ms;
	timeline_req_sum(c->tl, t, end + 1, q);
	if (q->n == 0) {
		vevid(v, "nginx logged no request that started after %s", rl_hms(r, t, t1));
		return;
	}
	vevid(v, "nginx after %s: %u requests started, %u answered 5xx (%u of them 504), %u never connected",
	      rl_hms(r, t, t1), q->n, q->s5xx, q->s504, q->no_connect);
}

static void exit_refresh(struct rules *r, const struct rules_ctx *c, bool all)
{
	const struct jvm_end *x = exit_st(r);
	if (!x->crashed && x->heap_exit_ms == EV_TIME_NONE && x->gone_ms == EV_TIME_NONE)
		return;
	if (!all && rv_active(r, V_JVM_EXITED, 0))
		return;
	int64_t t = death_ms(x);
	if (t == EV_TIME_NONE)
		return;
	struct vdraft v;
	struct tl_req_sum q;
	char t1[UTIL_HMS_LEN];
	vinit(&v, V_JVM_EXITED, 0, SEV_WARN);
	v.start_ms = v.jump_ms = t;
	v.end_ms = x->gone_ms != EV_TIME_NONE && x->gone_ms > t ? x->gone_ms : t;
	how_it_ended(r, c, x, &v);
	cost(r, c, t, &v, &q);
	bool own_exit = !x->crashed && x->heap_exit_ms != EV_TIME_NONE;
	/* a report: a log that ends with its JVM's exit is every recording; it is
	 * news when a crash says so, or nginx paid for it */
	if (x->gone_ms == EV_TIME_NONE && !x->crashed && q.s5xx == 0)
		return;
	bool crit = x->crashed || q.s5xx > 0 || (!own_exit && x->gone_ms != EV_TIME_NONE && c->have_jvm);
	v.severity = crit ? SEV_CRIT : SEV_WARN;
	/* with no GC log, nothing could have said it was shutting down: the
	 * difference between an exit and a kill is not in the evidence */
	bool unknown = !x->crashed && !own_exit && !c->have_jvm;
	const char *how = x->crashed ? "crashed" : own_exit ? "exited" : unknown ? "ended (exited or was killed: no GC log "
		"to tell which)" : "was killed or died without a word";
	if (unknown)
		vevid(&v, "not checked: whether it shut down on its own (a GC log prints the heap at exit; none was "
		      "followed); no crash report was seen");
	char cost_txt[96] = "";
	if (q.s5xx > 0)
		snprintf(cost_txt, sizeof cost_txt, ": nginx answered %u of the %u requests after it with 5xx", q.s5xx,
			 q.n);
	else if (q.n > 0)
		snprintf(cost_txt, sizeof cost_txt, "; nginx logged %u requests after it, none 5xx", q.n);
	if (x->crashed)
		vtitle(&v, "The JVM crashed (%s) at %s%s", x->crash.signal[0] ? x->crash.signal : "hs_err report",
		       rl_hms(r, t, t1), cost_txt);
	else
		vtitle(&v, "The JVM %s at %s%s", how, rl_hms(r, t, t1), cost_txt);
	if (x->crashed)
		vadvice(&v, "Read the crash report's header (the problematic frame, the signal) and its thread "
			"stack; a JVM bug or a native library is the usual cause. ");
	else if (unknown)
		vadvice(&v, "Look for who ended it: a deploy or a SIGTERM from the orchestrator, System.exit or "
			"the end of main in the application log, or a kill from outside (`kubectl describe pod`: "
			"Last State OOMKilled, exit code 137 = SIGKILL; `dmesg | grep -i 'killed process'` for the "
			"OOM killer). ");
	else if (!own_exit)
		vadvice(&v, "Something outside the JVM ended it: check `kubectl describe pod` (Last State: "
			"OOMKilled, exit code 137 = SIGKILL), `dmesg | grep -i 'killed process'` for the OOM "
			"killer, and liveness-probe failures in the pod's events. A JVM in a container is killed "
			"at its memory limit before it throws OutOfMemoryError when heap + metaspace + threads + "
			"direct memory exceed it: keep -Xmx (or -XX:MaxRAMPercentage) well under the limit. ");
	else
		vadvice(&v, "It shut down on its own: look for who asked (a deploy, a SIGTERM from the "
			"orchestrator, System.exit in the application log). ");
	vadvice(&v, "stwtop did not start this JVM and cannot see its exit status.");
	if (q.s5xx > 0)
		vadvice(&v, " While no JVM listens, nginx answers 502 (connection refused) or 504: a readiness "
			"probe that fails before the JVM stops, and a second replica, keep requests away from it.");
	rv_commit(r, &v);
}

/* whole run, the JVM's end first of them (rank 8): when the JVM is gone, that is the news */
const struct rule rule_jvm_exited = {
	.info = {.id = V_JVM_EXITED, .name = "jvm-exited", .kind = VERDICT_RUN, .rank = 8},
	.on_event = exit_on_event,
	.on_kinds = (1u << EV_JVM_EXIT) | (1u << EV_JVM_INFO) | (1u << EV_HSERR),
	.refresh = exit_refresh,
	.state = &exit_state_type,
};
