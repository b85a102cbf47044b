/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stop.c — what the stop was (rules_internal.h): long-gc-pause (the time went
 * into a collection) and ttsp-spike (it went into reaching the safepoint). */
#include "rules_internal.h"

/* GC causes (HotSpot gcCause.cpp) that mean someone asked for the collection */
static bool explicit_gc_cause(const char *cause)
{
	static const char *const asked[] = {
		"System.gc()", "Diagnostic Command", "Heap Inspection Initiated GC",
		"Heap Dump Initiated GC", "JvmtiEnv ForceGarbageCollection", "WhiteBox",
	};
	for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++)
		if (strstr(cause, asked[i]))
			return true;
	return false;
}

/* Who asks for an explicit collection of this cause and what stops it. The
 * flags act where HotSpot reads them: -XX:+DisableExplicitGC only in
 * System.gc() (JVM_GC), -XX:+ExplicitGCInvokesConcurrent only for System.gc()
 * and jcmd GC.run (should_do_concurrent_full_gc); the tools' own collections
 * (heap inspection, heap dump) ignore both. */
static void explicit_gc_advice(struct vdraft *v, const char *cause)
{
	if (strstr(cause, "Heap Inspection"))
		vadvice(v, "a class histogram of live objects (jmap -histo:live, jcmd GC.class_histogram) "
			"collected first; -XX:+ExplicitGCInvokesConcurrent and -XX:+DisableExplicitGC do not "
			"prevent it. Find who runs it; `jmap -histo PID` (all objects) or `jcmd PID "
			"GC.class_histogram -all` skip the collection (see long-vm-operation for the whole stop). ");
	else if (strstr(cause, "Heap Dump"))
		vadvice(v, "a heap dump of live objects (jmap -dump:live, jcmd GC.heap_dump) collected first; "
			"-XX:+ExplicitGCInvokesConcurrent and -XX:+DisableExplicitGC do not prevent it. Find who "
			"runs it; `jcmd PID GC.heap_dump -all FILE` skips the collection (see long-vm-operation "
			"for the whole stop). ");
	else if (strstr(cause, "Diagnostic Command"))
		vadvice(v, "jcmd GC.run. Find who runs it and stop it; -XX:+ExplicitGCInvokesConcurrent makes it "
			"a concurrent cycle (G1), -XX:+DisableExplicitGC does not stop it. ");
	else if (strstr(cause, "JvmtiEnv"))
		vadvice(v, "a JVMTI agent's ForceGarbageCollection (a profiler or debugger). Find the agent "
			"(jcmd PID VM.command_line) and stop it; the System.gc() flags do not apply. ");
	else
		vadvice(v, "System.gc() from the application or a library, or RMI's distributed GC "
			"(sun.rmi.dgc.client.gcInterval). Find the caller and stop it, or make it cheap: "
			"-XX:+ExplicitGCInvokesConcurrent (G1 runs a concurrent cycle instead) or "
			"-XX:+DisableExplicitGC. ");
}

/* name[0..nlen) is one entry of the ", "-separated thread list */
static bool list_has(const char *list, const char *name, size_t nlen)
{
	for (const char *p = list; (p = strstr(p, name)) != NULL; p++) {
		bool starts = p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ');
		bool ends = p[nlen] == '\0' || p[nlen] == ',';
		if (starts && ends && strncmp(p, name, nlen) == 0)
			return true;
	}
	return false;
}

/* keep in set (a ", "-separated thread list) only the names also in threads */
static void keep_common(char *set, size_t setlen, const char *threads)
{
	char out[112] = "";
	const char *p = set;
	while (*p) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n > 0 && list_has(threads, p, n) && strlen(out) + n + 3 < sizeof out) {
			if (out[0])
				strcat(out, ", ");
			strncat(out, p, n);
		}
		p += n;
		if (*p)
			p += 2;
	}
	util_strlcpy_n(set, setlen, out, strlen(out));
}

/* long-gc-pause of a pause the log began and never ended (PAUSE_F_OPEN):
 * it lasted at least from its start line to the JVM's last sign of life */
static void open_pause_text(struct rules *r, const struct rules_ctx *c, struct vdraft *v, const struct tl_pause *wp,
			    const char *d1, const struct incident_facts *f)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	int64_t pstart = wp->t_ms - (int64_t)wp->dur_ms;
	vtitle(v, "The JVM stopped at least %s in a GC pause that never ended: %s%s%s%s began at %s and no "
	       "end line follows", d1, wp->title, wp->cause[0] ? " (" : "", wp->cause, wp->cause[0] ? ")" : "",
	       rl_hms(r, pstart, t1));
	vevid(v, "%s %s: the start line of %s%s%s%s; no end line for it follows (the log ends at line %llu)",
	      rl_sname(c, wp->src), rl_hms(r, pstart, t1), wp->title, wp->cause[0] ? " (" : "", wp->cause,
	      wp->cause[0] ? ")" : "", (unsigned long long)wp->line);
	if (f && f->open_nginx) {
		vevid(v, "the GC log's last line is that start line; nginx: from then on the upstream answered "
		      "nothing, and its listen socket still held the connects (SYNs dropped, or queued with no "
		      "header) until %s: the JVM was inside the pause until then", rl_hms(r, wp->t_ms, t2));
		if (f->open_gone_ms != EV_TIME_NONE)
			vevid(v, "nginx's connects were refused from %s on: the process was gone",
			      rl_hms(r, f->open_gone_ms, t2));
	} else if (wp->flags & PAUSE_F_OPEN_EXIT)
		vevid(v, "the JVM process was seen alive until %s and then was gone, with no end line written: "
		      "it was inside the pause until then", rl_hms(r, wp->t_ms, t2));
	else
		vevid(v, "the log's last sign of life: %s; how long the JVM stayed stopped after it is not "
		      "known from the log", rl_hms(r, wp->t_ms, t2));
	vadvice(v, "A pause with a start and no end: the JVM hung inside the collection and was killed, or "
		"died, during it. At a container's memory limit a GC thread that touches pages the process "
		"never used (promotion into the old generation, a heap growing) waits for the cgroup to "
		"reclaim, and the kernel's OOM killer ends it: check the cgroup's OOM-kill counter (v1 "
		"memory.oom_control oom_kill, v2 memory.events oom_kill), dmesg \"Memory cgroup out of "
		"memory\", exit status 137 / OOMKilled. The heap is not all of the JVM's memory: leave room "
		"for metaspace, code cache, thread stacks and GC structures under the limit (a lower -Xmx or "
		"-XX:MaxRAMPercentage), or pre-touch the heap (-XX:+AlwaysPreTouch) so it is charged at "
		"start, not inside a pause.");
}

/* A collection that only the safepoint log shows: the longest stop of the
 * incident whose operation is a collector's (ParallelGCFailedAllocation,
 * G1CollectForAllocation ...), whose time at the safepoint is at least
 * long_pause_warn_ms, and that no GC pause record overlaps (a safepoint log
 * with no GC log: JDK 8 -XX:+PrintSafepointStatistics on stdout, -Xlog:safepoint
 * alone). NULL: none. */
static const struct tl_stop *gc_stop_without_pause(const struct rules *r, const struct timeline *tl,
						   const struct incident *in, int *n)
{
	const struct tl_stop *w = NULL;
	struct tl_stop_iter it, pit;
	struct tl_stopref x, p;
	*n = 0;
	timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.long_pause_warn_ms);
	while (timeline_stops_next(&it, &x)) {
		const struct tl_stop *s = x.stop;
		if (!s || s->op_ms < r->cfg.long_pause_warn_ms || !rl_vmop_is_gc(s->op) ||
		    strcmp(s->op, TL_OPEN_PAUSE_OP) == 0)
			continue;
		timeline_pauses_begin(&pit, tl, s->start_ms, s->end_ms, 0);
		if (timeline_stops_next(&pit, &p))
			continue;
		(*n)++;
		if (!w || s->op_ms > w->op_ms)
			w = s;
	}
	return w;
}

/* long-gc-pause from the safepoint log alone (gc_stop_without_pause) */
static void gc_stop_text(struct rules *r, const struct rules_ctx *c, const struct incident *in,
			 const struct tl_stop *s, int n)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], d1[32], d2[32];
	struct vdraft v;
	vinit(&v, V_LONG_GC_PAUSE, in->id, s->op_ms >= r->cfg.long_pause_crit_ms ? SEV_CRIT : SEV_WARN);
	v.start_ms = s->start_ms;
	v.end_ms = s->end_ms;
	v.jump_ms = s->start_ms;
	rl_fmt_ms(s->op_ms, d1, sizeof d1);
	rl_fmt_ms(s->total_ms, d2, sizeof d2);
	vtitle(&v, "The JVM stopped %s for a collection: the safepoint operation \"%s\" at %s (no GC log line "
	       "shows this pause)", d2, s->op, rl_hms(r, s->start_ms, t1));
	vevid(&v, "%s:%llu %s safepoint \"%s\": total %s, reaching it %.1f ms, at it %s: the time went into "
	      "the collection, not into reaching the safepoint", rl_sname(c, s->src), (unsigned long long)s->line,
	      rl_hms(r, s->end_ms, t2), s->op, d2, s->ttsp_ms, d1);
	if (n > 1)
		vevid(&v, "%d collections of >= %.0f ms in this incident, seen in the safepoint log only", n,
		      r->cfg.long_pause_warn_ms);
	if (strstr(s->op, "Full"))
		vadvice(&v, "The operation is a full collection; the safepoint log does not say why it ran. Add "
			"the GC log to see its cause (System.gc(), a full heap), how much it freed and how large "
			"the heap is (JDK 8: ");
	else
		vadvice(&v, "The safepoint log names the operation, not what the collection did. Add the GC log "
			"to see whether it was a full collection, how much it freed and how large the heap is "
			"(JDK 8: ");
	vadvice(&v, "-XX:+PrintGCDetails -XX:+PrintGCDateStamps -Xloggc:FILE; JDK 9+: "
		"-Xlog:gc*:file=FILE:time,uptime,level,tags) and give it to stwtop with --gc. ");
	vadvice(&v, "%s: raise -Xmx or shrink what the application keeps.",
		strstr(s->op, "Full") ? "Unless it was asked for (System.gc(), jcmd GC.run), a full collection this "
					"long means the live data nearly fills the heap" :
					"A collection this long is most often a full collection of a heap whose live "
					"data nearly fills it");
	rl_missing_sources_advice(&v, c, true);
	rv_commit(r, &v);
}

static void judge_long_gc_pause(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct incident *in = f->in;
	const struct stop_pick sp = f->sp;
	const struct tl_pause *wp = f->wp;
	int npause_long = f->npause_long;
	bool have_cd = f->have_cd;
	const struct tl_cpu_delta cd = f->cd;
	bool throttled = f->throttled;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], t3[UTIL_HMS_LEN];
	char d1[32], d2[32];
	/* ---- long-gc-pause ---- */
	if (!wp) {
		int n;
		const struct tl_stop *gs;
		if (f->open_nginx) {
			/* a pause the log never ended and gives no length: as long as nginx
			 * saw the upstream held after its start (facts.c) */
			const struct tl_pause *op = NULL;
			struct tl_stop_iter it;
			struct tl_stopref p;
			timeline_pauses_begin(&it, c->tl, f->ws, f->ws, 0);
			while (timeline_stops_next(&it, &p))
				if (p.pause && (p.pause->flags & PAUSE_F_OPEN))
					op = p.pause;
			struct tl_pause held;
			if (op) {
				held = *op;
				held.t_ms = f->we;
				held.dur_ms = (float)(f->we - f->ws);
			}
			if (op && held.dur_ms >= r->cfg.long_pause_warn_ms) {
				struct vdraft v;
				vinit(&v, V_LONG_GC_PAUSE, in->id,
				      held.dur_ms >= r->cfg.long_pause_crit_ms ? SEV_CRIT : SEV_WARN);
				v.start_ms = v.jump_ms = f->ws;
				v.end_ms = f->we;
				rl_fmt_ms(held.dur_ms, d1, sizeof d1);
				open_pause_text(r, c, &v, &held, d1, f);
				rv_commit(r, &v);
			}
		} else if ((gs = gc_stop_without_pause(r, c->tl, in, &n)) != NULL) {
			gc_stop_text(r, c, in, gs, n);
		}
		return;
	}
	if (wp) {
		struct vdraft v;
		int64_t pstart = wp->t_ms - (int64_t)wp->dur_ms;
		vinit(&v, V_LONG_GC_PAUSE, in->id,
		      wp->dur_ms >= r->cfg.long_pause_crit_ms ? SEV_CRIT : SEV_WARN);
		v.start_ms = pstart;
		v.end_ms = wp->t_ms;
		v.jump_ms = pstart;
		rl_fmt_ms(wp->dur_ms, d1, sizeof d1);
		if (wp->flags & PAUSE_F_OPEN) {
			open_pause_text(r, c, &v, wp, d1, NULL);
			rv_commit(r, &v);
			return;
		}
		vtitle(&v, "The JVM stopped %s for GC work: %s%s%s%s at %s", d1, wp->title,
		       wp->cause[0] ? " (" : "", wp->cause, wp->cause[0] ? ")" : "", rl_hms(r, pstart, t1));
		vevid(&v, "%s:%llu %s %s%s%s%s %.0fM->%.0fM(%.0fM) %.3f ms", rl_sname(c, wp->src),
		      (unsigned long long)wp->line, rl_hms(r, wp->t_ms, t2), wp->title, wp->cause[0] ? " (" : "",
		      wp->cause, wp->cause[0] ? ")" : "", rl_mb10(wp->before_mb10), rl_mb10(wp->after_mb10),
		      rl_mb10(wp->committed_mb10), wp->dur_ms);
		if (sp.worst && sp.worst->start_ms <= wp->t_ms && sp.worst->end_ms >= pstart) {
			rl_fmt_ms(sp.worst->total_ms, d2, sizeof d2);
			vevid(&v, "%s:%llu %s safepoint \"%s\": total %s, reaching it %.1f ms, at it %.1f ms: "
			      "the time went into the GC, not into reaching the safepoint",
			      rl_sname(c, sp.worst->src), (unsigned long long)sp.worst->line,
			      rl_hms(r, sp.worst->end_ms, t3), sp.worst->op, d2, sp.worst->ttsp_ms, sp.worst->op_ms);
		}
		if (npause_long > 1)
			vevid(&v, "%d pauses >= %.0f ms in this incident", npause_long, r->cfg.long_pause_warn_ms);
		if (c->have_cpu && have_cd)
			vevid(&v, "cgroup: throttled_time %+.0f ms in %s-%s (%s)", cd.throttled_us / 1000.0,
			      rl_hms(r, cd.from_ms, t1), rl_hms(r, cd.to_ms, t2),
			      throttled ? "throttled too: see cpu-throttled-during-stop" : "no CPU throttling");
		if (wp->type == PAUSE_FULL && explicit_gc_cause(wp->cause)) {
			/* asked for, not forced by a full heap: the fix is the caller */
			double live = rl_mb10(wp->after_mb10), cap = rl_mb10(wp->committed_mb10);
			vadvice(&v, "An explicit full collection (%s), not a full heap (%.0f MB before, %.0f MB live "
				"after, %.0f MB heap): ", wp->cause, rl_mb10(wp->before_mb10), live, cap);
			explicit_gc_advice(&v, wp->cause);
			if (cap > 0 && live > 0.5 * cap)
				vadvice(&v, "It took this long because %.0f MB are live (%.0f%% of the heap) and a "
					"full collection visits all of it. ", live, 100.0 * live / cap);
		} else if (wp->type == PAUSE_FULL) {
			double live = rl_mb10(wp->after_mb10), cap = rl_mb10(wp->committed_mb10);
			vadvice(&v, "A full collection: the old generation was full (%.0f MB before, %.0f MB live "
				"after, %.0f MB heap). ", rl_mb10(wp->before_mb10), live, cap);
			if (cap > 0 && live > 0.5 * cap)
				vadvice(&v, "Live data is %.0f%% of the heap: raise -Xmx (keep live data under "
					"half) or shrink what the application keeps (caches). ", 100.0 * live / cap);
			if (c->sum->collector == GC_SERIAL)
				vadvice(&v, "Serial compacts with one thread: -XX:+UseG1GC or -XX:+UseParallelGC "
					"spread the work over all CPUs. ");
			else if (c->sum->collector == GC_G1)
				vadvice(&v, "G1 falls back to a full GC when concurrent marking cannot keep up or a "
					"humongous allocation finds no room: lower "
					"-XX:InitiatingHeapOccupancyPercent, raise -Xmx, or avoid very large arrays. ");
			vadvice(&v, "One huge allocation (a large byte[] on reload) can trigger it on its own.");
		} else {
			/* only G1 (and ZGC/Shenandoah) have a pause goal to lower */
			const char *knob = c->sum->collector == GC_G1 ? "lower -XX:MaxGCPauseMillis or cap "
									 "-XX:G1MaxNewSizePercent" :
					   c->sum->collector == GC_SERIAL ? "-Xmn smaller, or a parallel collector "
									    "(-XX:+UseParallelGC / -XX:+UseG1GC)" :
									  "-Xmn smaller";
			vadvice(&v, "A %s pause this long means a lot of live data was copied: a young "
				"generation too large for one collection (%s), or a starved collector (see "
				"the CPU evidence). ", wp->title, knob);
		}
		rl_missing_sources_advice(&v, c, true);
		rv_commit(r, &v);
	}

}

static void judge_ttsp_spike(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f)
{
	const struct timeline *tl = c->tl;
	const struct incident *in = f->in;
	const struct stop_pick sp = f->sp;
	bool have_cd = f->have_cd;
	const struct tl_cpu_delta cd = f->cd;
	bool throttled = f->throttled;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN], t3[UTIL_HMS_LEN];
	char d1[32], d2[32];
	/* ---- ttsp-spike ---- */
	if (sp.worst_ttsp) {
		const struct tl_stop *s = sp.worst_ttsp;
		struct vdraft v;
		vinit(&v, V_TTSP_SPIKE, in->id, s->ttsp_ms >= r->cfg.ttsp_crit_ms ? SEV_CRIT : SEV_WARN);
		v.start_ms = s->start_ms;
		v.end_ms = s->end_ms;
		v.jump_ms = s->start_ms;
		rl_fmt_ms(s->ttsp_ms, d1, sizeof d1);
		rl_fmt_ms(s->total_ms, d2, sizeof d2);
		bool ctr = s->flags & TL_STOP_COUNTERS;
		char when[64];
		if (ctr) {
			const char *least = s->flags & TL_STOP_SEVERAL ? "at least " : "";
			vtitle(&v, "The JVM stopped %s%s in a stop %s, %s%s of it reaching the safepoint%s (its "
			       "counters: no safepoint log names the operation)", least, d2,
			       rl_stop_when(r, s, when, sizeof when), least, d1,
			       throttled ? ", while the cgroup was CPU-throttled" : "");
			rl_counter_stop_evid(&v, r, c, s);
		} else {
			vtitle(&v, "The %s stop at %s was spent reaching the safepoint (%s), not in the operation "
			       "\"%s\"%s", d2, rl_hms(r, s->start_ms, t1), d1, s->op,
			       throttled ? ", while the cgroup was CPU-throttled" : "");
			vevid(&v, "%s:%llu %s safepoint \"%s\": reaching %.1f ms, at safepoint %.1f ms, total %.1f ms",
			      rl_sname(c, s->src), (unsigned long long)s->line, rl_hms(r, s->end_ms, t2), s->op,
			      s->ttsp_ms, s->op_ms, s->total_ms);
		}
		if (s->spin_ms >= 0)
			vevid(&v, "spin %.0f ms (threads running Java code), block %.0f ms (threads in VM code)",
			      s->spin_ms, s->block_ms);
		int nttsp = 0;
		struct tl_stop_iter it;
		struct tl_stopref x;
		timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, 0);
		while (timeline_stops_next(&it, &x))
			if (x.ttsp_ms >= r->cfg.ttsp_warn_ms)
				nttsp++;
		if (nttsp > 1)
			vevid(&v, "%d safepoints in this incident took >= %.0f ms to reach", nttsp,
			      r->cfg.ttsp_warn_ms);
		/* SafepointTimeout reports during the incident, the same report from two
		 * sources (gc.log and the console) shown once */
		const struct ring *tr = &tl->timeouts;
		int shown = 0;
		int64_t last_t = EV_TIME_NONE;
		char last_threads[112] = "";
		char names[200] = "";
		char always[112] = "";   /* threads named by every report */
		/* how many reports name each set of late threads: the one named most */
		char tally_t[8][112];
		int tally_n[8], ntally = 0;
		for (uint64_t i = timeline_lower_bound(tr, in->start_ms - 1000); i < tr->total; i++) {
			const struct tl_timeout *to = ring_at(tr, i);
			if (to->t_ms > in->end_ms + 1000)
				break;
			if (last_t != EV_TIME_NONE && llabs(to->t_ms - last_t) < 100 &&
			    strcmp(last_threads, to->threads) == 0)
				continue;
			last_t = to->t_ms;
			memcpy(last_threads, to->threads, sizeof last_threads);
			if (shown < 3)
				vevid(&v, "%s:%llu %s SafepointTimeout: threads that did not reach the safepoint: %s",
				      rl_sname(c, to->src), (unsigned long long)to->line, rl_hms(r, to->t_ms, t3), to->threads);
			if (!strstr(names, to->threads) && strlen(names) + strlen(to->threads) + 3 < sizeof names) {
				if (names[0])
					strcat(names, "; ");
				strcat(names, to->threads);
			}
			if (shown == 0)
				util_strlcpy_n(always, sizeof always, to->threads, strnlen(to->threads, sizeof to->threads));
			else
				keep_common(always, sizeof always, to->threads);
			int k;
			for (k = 0; k < ntally && strcmp(tally_t[k], to->threads) != 0; k++)
				;
			if (k == ntally && ntally < 8) {
				memcpy(tally_t[ntally], to->threads, sizeof tally_t[0]);
				tally_n[ntally++] = 0;
			}
			if (k < ntally)
				tally_n[k]++;
			shown++;
		}
		int most = -1;
		for (int k = 0; k < ntally; k++)
			if (most < 0 || tally_n[k] > tally_n[most])
				most = k;
		if (shown > 3)
			vevid(&v, "%d SafepointTimeout reports in all", shown);
		if (throttled)
			vevid(&v, "cgroup: throttled_time %+.0f ms in %s-%s (%lld of %lld periods throttled)",
			      cd.throttled_us / 1000.0, rl_hms(r, cd.from_ms, t1), rl_hms(r, cd.to_ms, t2),
			      (long long)cd.throttled, (long long)cd.periods);
		else if (have_cd)
			vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms: the CPU was there, the threads "
			      "did not come", rl_hms(r, cd.from_ms, t1), rl_hms(r, cd.to_ms, t2), cd.throttled_us / 1000.0);
		/* Under throttling any runnable thread can be the late one, so one report
		 * proves little; the same thread late in every one of several reports is
		 * its own code (throttle/throttled-arraycopy: "copier" in 5 of 5). */
		if (throttled && shown >= 2 && always[0])
			vadvice(&v, "The cgroup's CPU quota was exhausted (see cpu-throttled-during-stop), which "
				"delays every thread, but each of the %d timeout reports names %s as late: a thread "
				"that is late every time runs code without a safepoint poll (a long counted loop, a "
				"large System.arraycopy, an intrinsic over a big buffer). Fix the throttling and "
				"split that thread's work into chunks. ", shown, always);
		else if (throttled)
			vadvice(&v, "The cgroup's CPU quota was exhausted (see cpu-throttled-during-stop): a thread "
				"that gets no CPU is late wherever it is, so the thread names%s may be coincidental. "
				"Fix the throttling first; if the same threads are still late afterwards, look at "
				"their code. ", names[0] ? " in the timeout report" : "");
		else if (most >= 0 && shown >= 2 && tally_n[most] * 2 > shown)
			vadvice(&v, "%d of the %d timeout reports name %s as late: it runs code without a "
				"safepoint poll (a long counted loop, a large System.arraycopy, an intrinsic over a "
				"big buffer such as hashing or copying). Split that work into chunks. ",
				tally_n[most], shown, tally_t[most]);
		else if (names[0])
			vadvice(&v, "The threads that did not arrive (%s) were running code without a safepoint "
				"poll: a long counted loop, a large System.arraycopy, or an intrinsic over a big "
				"buffer (hashing, copying). Split the work into chunks. ", names);
		vadvice(&v, "To find the code: async-profiler's TTSP mode samples exactly the time between the "
			"safepoint request and all threads arriving (-e wall -t --ttsp, or --begin "
			"SafepointSynchronize::print_safepoint_timeout --end "
			"RuntimeService::record_safepoint_synchronized for the timed-out ones); JFR records "
			"safepoints too.");
		if (shown == 0)
			vadvice(&v, " -XX:+SafepointTimeout -XX:SafepointTimeoutDelay=%.0f names the late threads "
				"in the log.", r->cfg.ttsp_warn_ms * 5);
		if (ctr)
			vadvice(&v, " A safepoint log times each stop and names its operation: -Xlog:safepoint, or "
				"without a restart `jcmd PID VM.log output=FILE what=safepoint` (stwtop's L key or "
				"--enable-jvm-logging does it and follows the file).");
		if (!throttled)
			rl_missing_sources_advice(&v, c, false);
		rv_commit(r, &v);
	}

}

/* its thresholds (--config, --help-config) */
static const struct rule_knob long_gc_pause_knobs[] = {
	RULE_KNOB(long_pause_warn_ms, 500, "a GC pause of half a second is visible to every caller"),
	RULE_KNOB(long_pause_crit_ms, 2000, "2 s fills a backlog-100 accept queue at 50 req/s and passes nginx's 1 s SYN retry"),
};

const struct rule rule_long_gc_pause = {
	.info = {.id = V_LONG_GC_PAUSE, .name = "long-gc-pause", .kind = VERDICT_INCIDENT, .rank = 0,
		 .explains_stop = true},
	.judge = judge_long_gc_pause,
	RULE_KNOBS(long_gc_pause_knobs),
};

/* its thresholds (--config, --help-config) */
static const struct rule_knob ttsp_spike_knobs[] = {
	RULE_KNOB(ttsp_warn_ms, 100, "time to safepoint >= 100 ms is abnormal (docs/verdicts.md, ttsp-spike)"),
	RULE_KNOB(ttsp_crit_ms, 1000, "a 1 s+ time to safepoint (the published case: 9.35 s) stalls every thread"),
	RULE_KNOB(ttsp_share, 0.5, "a TTSP spike means reaching the safepoint is most of the stop"),
};

const struct rule rule_ttsp_spike = {
	.info = {.id = V_TTSP_SPIKE, .name = "ttsp-spike", .kind = VERDICT_INCIDENT, .rank = 1, .explains_stop = true},
	.judge = judge_ttsp_spike,
	RULE_KNOBS(ttsp_spike_knobs),
};
