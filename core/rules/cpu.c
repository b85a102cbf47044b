/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu.c — why the stop was long (rules_internal.h): the cgroup's CPU quota
 * ran out (cpu-throttled-during-stop), the CPUs were busy with other work
 * (sched-delay-during-stop), or the machine reclaimed memory (direct-reclaim). */
#include "rules_internal.h"

#include "stwtop/fmt.h"

static void judge_cpu_throttled(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct timeline *tl = c->tl;
	const struct incident *in = f->in;
	bool stops_from_pauses = f->stops_from_pauses;
	int64_t ws = f->ws;
	int64_t xs = f->xs;
	int64_t xe = f->xe;
	double worst_total = f->worst_total;
	const struct tl_cpu_delta cd = f->cd;
	bool throttled = f->throttled;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], t3[UTIL_HMS_LEN];
	char d1[32];
	/* ---- cpu-throttled-during-stop ---- */
	if (ws != EV_TIME_NONE && throttled) {
		struct vdraft v;
		/* which stops had throttling in their own bracket */
		int nthr = 0, nst = 0;
		const struct tl_stop *worst = NULL;
		double worst_thr = 0;
		int64_t worst_from = 0, worst_to = 0;
		if (!stops_from_pauses) {
			struct tl_stop_iter it;
			struct tl_stopref sr;
			timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
			while (timeline_stops_next(&it, &sr)) {
				const struct tl_stop *s = sr.stop;
				struct tl_cpu_delta sd;
				nst++;
				/* a stop from the counters began up to one read earlier */
				if (!timeline_cpu_delta(tl, s->start_ms - (int64_t)s->read_ms, s->end_ms, &sd))
					continue;
				if (sd.throttled_us >= (int64_t)(r->cfg.throttle_min_ms * 1000)) {
					nthr++;
					if (!worst || s->total_ms > worst->total_ms) {
						worst = s;
						worst_thr = sd.throttled_us / 1000.0;
						worst_from = sd.from_ms;
						worst_to = sd.to_ms;
					}
				}
			}
		}
		bool crit = worst_total >= r->cfg.throttle_crit_ms ||
			    (double)cd.throttled_us >= r->cfg.throttle_crit_ms * 1000;
		vinit(&v, V_CPU_THROTTLED, in->id, crit ? SEV_CRIT : SEV_WARN);
		v.start_ms = xs;
		v.end_ms = xe;
		v.jump_ms = ws;
		/* the headline names one stop: its own length with its own time
		 * (the throttled one when a single stop was, else the longest) */
		double head_total = worst ? worst->total_ms : worst_total;
		int64_t head_start = worst ? worst->start_ms : f->worst_start_ms;
		rl_fmt_ms(nthr <= 1 ? head_total : worst_total, d1, sizeof d1);
		const struct tl_stop *head = worst ? worst : f->sp.worst;
		char when[64];
		if (head && (head->flags & TL_STOP_COUNTERS))
			rl_stop_when(r, head, when, sizeof when);
		else
			fmt_s(when, sizeof when, "at %s", rl_hms(r, head_start, t3));
		if (nthr <= 1)
			vtitle(&v, "The %s%s stop %s happened while the cgroup was CPU-throttled: +%.0f ms "
			       "throttled_time in %s-%s", head && (head->flags & TL_STOP_SEVERAL) ? ">= " : "", d1,
			       when, cd.throttled_us / 1000.0, rl_hms(r, cd.from_ms, t1), rl_hms(r, cd.to_ms, t2));
		if (nthr > 1) {
			char sfx[48];
			fmt_s(sfx, sizeof sfx, "%.0f ms%s", r->cfg.stop_ms,
			      head && (head->flags & TL_STOP_COUNTERS) ? " (from the JVM's counters)" : "");
			vtitle(&v, "%d stops >= %s happened while the cgroup was CPU-throttled: +%.0f ms "
			       "throttled_time in %s-%s (worst stop %s)", nthr, sfx, cd.throttled_us / 1000.0,
			       rl_hms(r, cd.from_ms, t1), rl_hms(r, cd.to_ms, t2), d1);
		}
		vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms, nr_throttled %+lld of %+lld periods",
		      rl_hms(r, cd.from_ms, t1), rl_hms(r, cd.to_ms, t2), cd.throttled_us / 1000.0,
		      (long long)cd.throttled, (long long)cd.periods);
		if (cd.quota_us > 0 && cd.period_us > 0)
			vevid(&v, "quota %.2f CPU (cfs_quota_us %lld / cfs_period_us %lld)",
			      (double)cd.quota_us / (double)cd.period_us, (long long)cd.quota_us,
			      (long long)cd.period_us);
		if (worst && (worst->flags & TL_STOP_COUNTERS)) {
			rl_counter_stop_evid(&v, r, c, worst);
			vevid(&v, "throttled_time %+.0f ms in %s-%s, around that stop", worst_thr,
			      rl_hms(r, worst_from, t1), rl_hms(r, worst_to, t2));
		} else if (worst) {
			vevid(&v, "%s:%llu %s safepoint \"%s\" total %.1f ms (reaching %.1f ms): throttled_time "
			      "%+.0f ms in %s-%s", rl_sname(c, worst->src), (unsigned long long)worst->line,
			      rl_hms(r, worst->end_ms, t3), worst->op, worst->total_ms, worst->ttsp_ms, worst_thr,
			      rl_hms(r, worst_from, t1), rl_hms(r, worst_to, t2));
		}
		if (nst > 0)
			vevid(&v, "%d of %d stops >= %.0f ms in this incident had throttling in their own "
			      "window", nthr, nst, r->cfg.stop_ms);
		struct tl_sched_sum ss;
		if (c->have_sched && timeline_sched_sum(tl, xs, xe, &ss))
			vevid(&v, "schedstat %s-%s: JVM threads %.0f ms on CPU, %.0f ms runnable but waiting "
			      "(on this kernel throttled time counts as run-queue wait)",
			      rl_hms(r, ss.from_ms, t1), rl_hms(r, ss.to_ms, t2), ss.oncpu_ms, ss.wait_ms);
		/* how much of the window the cgroup spent throttled: CPU-seconds of
		 * throttling can exceed the wall time with several CPUs */
		double share = cd.to_ms > cd.from_ms ?
				       (double)cd.throttled_us / 1000.0 / (double)(cd.to_ms - cd.from_ms) : 0;
		if (share >= 0.5)
			vadvice(&v, "The JVM's threads were not scheduled: the container's CFS quota was used "
				"up, so the threads sat throttled until the next period. ");
		else
			vadvice(&v, "The container's CFS quota ran out during part of the stop (%.0f ms "
				"throttled in %lld ms): the stop was stretched while threads waited for the next "
				"period. ", cd.throttled_us / 1000.0, (long long)(cd.to_ms - cd.from_ms));
		vadvice(&v, "Raise or remove the CPU limit "
			"(Kubernetes resources.limits.cpu; watch container_cpu_cfs_throttled_seconds_total), "
			"or burn less CPU in bursts (fewer GC/JIT threads: -XX:ParallelGCThreads, "
			"-XX:CICompilerCount; -XX:ActiveProcessorCount to match the quota). Thread names in "
			"SafepointTimeout reports can be coincidental here: a throttled thread is late "
			"wherever it is (ttsp-spike tells when the same thread is late every time).");
		rv_commit(r, &v);
	}
}

static void judge_sched_delay(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct timeline *tl = c->tl;
	const struct incident *in = f->in;
	int64_t ws = f->ws;
	int64_t we = f->we;
	bool have_cd = f->have_cd;
	const struct tl_cpu_delta cd = f->cd;
	bool throttled = f->throttled;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], t3[UTIL_HMS_LEN];
	char d1[32], d2[32];
	/* ---- sched-delay-during-stop (run-queue contention, not throttling) ----
	 * Judged stop by stop, in the schedstat intervals around each stop: over
	 * the incident's whole extent the time between stops dilutes the wait, and
	 * a verdict true for a prefix of an incident but false for all of it
	 * depended on when it was judged (recordings/contention: 19 stops 2-3 s
	 * apart; live and report disagreed). A stop is judged only once the sample
	 * after it is in, so the count of contended stops never goes back. */
	/* live, before cpu.stat brackets the stops: the samples that tell
	 * throttling from contention may still come (a verdict raised now was
	 * withdrawn a tick later when they said "throttled") */
	bool cpu_pending = c->have_cpu && !have_cd && !r->judging_final;
	if (ws != EV_TIME_NONE && c->have_sched && !throttled && !cpu_pending && tl->sched.total > 0) {
		const struct tl_sched *lastsc = ring_at(&tl->sched, tl->sched.total - 1);
		int nstop = 0, nwait = 0, ncont = 0, ncatch = 0;
		struct tl_sched_sum best;
		double best_ps = -1, best_total = 0, prev_total = 0;
		int64_t best_s = 0, prev_end = EV_TIME_NONE, catch_end = EV_TIME_NONE;
		double catch_total = 0;
		struct tl_stop_iter it;
		struct tl_stopref sr;
		timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
		while (timeline_stops_next(&it, &sr)) {
			int64_t s0 = sr.start_ms, s1 = sr.end_ms;
			double tot = sr.total_ms;
			if (s1 > lastsc->t_ms)
				continue;
			/* a stop that starts within 1 s of a longer one meets the threads
			 * that one released, all runnable at once (combined/gc-stop: the
			 * ThreadDump 11 ms after the 3.1 s Full GC) */
			bool catch_up = prev_end != EV_TIME_NONE && (double)(s0 - prev_end) <= r->cfg.catchup_ms &&
					prev_total > tot;
			int64_t pe = prev_end;
			double pt = prev_total;
			prev_end = s1;
			prev_total = tot;
			struct tl_sched_sum ss;
			nstop++;
			if (!timeline_sched_sum(tl, s0, s1, &ss) || ss.to_ms <= ss.from_ms)
				continue;
			/* contention explains a stop only when the threads waited for a CPU
			 * more than they ran; a GC busy on every CPU makes others wait too */
			if (ss.wait_ms <= ss.oncpu_ms)
				continue;
			nwait++;
			double ps = ss.wait_ms * 1000.0 / (double)(ss.to_ms - ss.from_ms);
			if (ps < r->cfg.sched_wait_ms_per_s)
				continue;
			ncont++;
			if (catch_up) {
				ncatch++;
				catch_end = pe;
				catch_total = pt;
			}
			if (ps > best_ps) {
				best = ss;
				best_ps = ps;
				best_s = s0;
				best_total = tot;
			}
		}
		if (ncont > 0) {
			struct vdraft v;
			char sfx[48];
			/* only after-effects of a longer stop: that stop is the finding */
			vinit(&v, V_SCHED_DELAY, in->id, ncatch == ncont ? SEV_INFO : SEV_WARN);
			v.start_ms = ws;
			v.end_ms = we;
			v.jump_ms = best_s;
			rl_fmt_ms(best_total, d1, sizeof d1);
			fmt_s(sfx, sizeof sfx, "%.0f ms", r->cfg.stop_ms);
			/* On this kernel a thread held by the CFS quota is counted as
			 * run-queue wait: only cpu.stat around the stops can say it was
			 * contention. Without usable counters there (no cpu.stat given, or
			 * samples without throttling counters) the title says both. */
			if (have_cd)
				vtitle(&v, "Run-queue contention during %d of %d stops >= %s: the JVM's threads waited "
				       "for a CPU more than they ran (up to %.0f ms per second, around the %s stop at "
				       "%s); the cgroup was not throttled",
				       ncont, nstop, sfx, best_ps, d1, rl_hms(r, best_s, t1));
			else
				vtitle(&v, "The JVM's threads waited for a CPU more than they ran during %d of %d stops "
				       ">= %s (up to %.0f ms per second, around the %s stop at %s): run-queue "
				       "contention or CPU throttling, %s", ncont, nstop, sfx, best_ps, d1,
				       rl_hms(r, best_s, t1),
				       c->have_cpu ? "cpu.stat has no throttling counters for that time"
						   : "no cpu.stat to tell them apart");
			vevid(&v, "schedstat %s-%s (around the %s stop at %s): %.0f ms waiting, %.0f ms on CPU",
			      rl_hms(r, best.from_ms, t1), rl_hms(r, best.to_ms, t2), d1, rl_hms(r, best_s, t3), best.wait_ms,
			      best.oncpu_ms);
			if (best.worst_tid >= 0)
				vevid(&v, "waited most there: \"%s\" (tid %d) %.0f ms", best.worst_comm, best.worst_tid,
				      best.worst_wait_ms);
			vevid(&v, "stops >= %s in this incident: %d; waiting > on CPU around %d of them, and "
			      ">= %.0f ms per second around %d", sfx, nstop, nwait, r->cfg.sched_wait_ms_per_s, ncont);
			if (have_cd)
				vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms", rl_hms(r, cd.from_ms, t1),
				      rl_hms(r, cd.to_ms, t2), cd.throttled_us / 1000.0);
			if (ncatch > 0) {
				rl_fmt_ms(catch_total, d2, sizeof d2);
				vadvice(&v, "%s right after a longer stop (the %s one ending at %s): the threads it "
					"had held became runnable at once and queued for the CPUs, an after-effect of "
					"that stop rather than a cause of its own. ",
					ncont == 1 ? "This stop came" : ncatch == ncont ? "These stops came" :
					"Some of these stops came", d2,
					rl_hms(r, catch_end, t2));
			}
			vadvice(&v, "Threads were runnable but the CPUs were busy with other work: noisy "
				"neighbours on the node, or more runnable threads than CPUs (GC and "
				"application threads together). Check the node's load and steal time, pin or "
				"isolate the pod, or reduce thread counts.");
			if (!c->have_cpu)
				vadvice(&v, " On this kernel CFS throttling also shows up as run-queue wait: "
					"add --cpustat-log, --cgroup or --pid so cpu.stat can tell them apart.");
			else if (!have_cd)
				vadvice(&v, " On this kernel CFS throttling also shows up as run-queue wait, and the "
					"cpu.stat samples around these stops carry no throttling counters (a cgroup "
					"without the cpu controller, or one that went away): check "
					"container_cpu_cfs_throttled_seconds_total for that time.");
			rv_commit(r, &v);
		}
	}
}

static void judge_direct_reclaim(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct timeline *tl = c->tl;
	const struct incident *in = f->in;
	int64_t ws = f->ws;
	int64_t we = f->we;
	double worst_total = f->worst_total;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	char d1[32];
	/* ---- direct-reclaim ---- */
	if (ws != EV_TIME_NONE && c->have_vmstat) {
		int64_t stalls = -1, pageout = -1, vfrom = EV_TIME_NONE, vto = EV_TIME_NONE;
		if (timeline_vmstat_delta(tl, ws, we, &stalls, &pageout) && stalls > 0 &&
		    timeline_vmstat_bracket(tl, ws, we, &vfrom, &vto)) {
			struct vdraft v;
			vinit(&v, V_DIRECT_RECLAIM, in->id, SEV_WARN);
			v.start_ms = ws;
			v.end_ms = we;
			v.jump_ms = ws;
			rl_fmt_ms(worst_total, d1, sizeof d1);
			vtitle(&v, "The machine reclaimed memory directly during the %s stop at %s (%lld allocation "
			       "stalls machine-wide)", d1, rl_hms(r, f->worst_start_ms, t1), (long long)stalls);
			vevid(&v, "/proc/vmstat samples %s-%s: allocstall %+lld, pageoutrun %+lld (all processes)",
			      rl_hms(r, vfrom, t1), rl_hms(r, vto, t2), (long long)stalls, (long long)pageout);
			vadvice(&v, "Threads that allocate had to free page cache themselves because the MACHINE "
				"was short of free memory (allocstall counts only machine-wide reclaim; a "
				"container at its own memory limit reclaims without it). Leave free memory on "
				"the node (other pods, page cache), pre-touch the heap (-XX:+AlwaysPreTouch) so "
				"GC does not fault pages in during a pause, or raise vm.min_free_kbytes so "
				"kswapd starts earlier.");
			rv_commit(r, &v);
		}
	}
}

/* its thresholds (--config, --help-config) */
static const struct rule_knob cpu_throttled_knobs[] = {
	RULE_KNOB(throttle_min_ms, 20, "healthy cgroups show 0 ms; 20 ms is one throttled 100 ms period at 0.8 CPU"),
	RULE_KNOB(throttle_share, 0.05, "throttled time must be >= 5% of the window bracketing the stop"),
	RULE_KNOB(throttle_crit_ms, 1000, "a 1 s throttled stop (or 1 s of throttled time) outlasts nginx's 1 s SYN retry"),
};

const struct rule rule_cpu_throttled = {
	.info = {.id = V_CPU_THROTTLED, .name = "cpu-throttled-during-stop", .kind = VERDICT_INCIDENT, .rank = 3,
		 .explains_stop = true},
	.judge = judge_cpu_throttled,
	RULE_KNOBS(cpu_throttled_knobs),
};

/* its thresholds (--config, --help-config) */
static const struct rule_knob sched_delay_knobs[] = {
	RULE_KNOB(sched_wait_ms_per_s, 500, "normal run-queue wait < 10 ms/s; the idle control shows 133 ms/s (docs/verdicts.md, sched-delay-during-stop)"),
};

const struct rule rule_sched_delay = {
	.info = {.id = V_SCHED_DELAY, .name = "sched-delay-during-stop", .kind = VERDICT_INCIDENT, .rank = 4,
		 .explains_stop = true},
	.judge = judge_sched_delay,
	RULE_KNOBS(sched_delay_knobs),
};

const struct rule rule_direct_reclaim = {
	.info = {.id = V_DIRECT_RECLAIM, .name = "direct-reclaim", .kind = VERDICT_INCIDENT, .rank = 5,
		 .explains_stop = true},
	.judge = judge_direct_reclaim,
};
