/* notes.c — what the input could not show (rules_notes): stops that no
 * verdict explains while a source that could is missing, verdicts let go to
 * stay bounded, a GC log without safepoint lines. */
#include "rules_internal.h"

void rl_count_unexplained(const struct rules *r, const struct timeline *tl, const struct incident *in,
			  struct unexplained *u)
{
	struct tl_stop_iter it;
	struct tl_stopref s;
	timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
	while (timeline_stops_next(&it, &s)) {
		u->n++;
		if (s.total_ms > u->longest_ms) {
			u->longest_ms = s.total_ms;
			u->at_ms = s.start_ms;
			snprintf(u->op, sizeof u->op, "%s", s.what);
		}
	}
}

size_t rules_notes(const struct rules *r, const struct rules_ctx *c, char (*out)[RULES_NOTE_LEN], size_t max)
{
	const struct timeline *tl = c->tl;
	size_t n = 0;
	if (max == 0)
		return 0;
	bool from_pauses = timeline_stops_are_pauses(tl);
	/* the final incidents' unexplained stops, and those of the open ones
	 * that no verdict explains yet (live) */
	struct unexplained u = r->unexplained;
	for (size_t i = r->open_from; i < r->ninc; i++) {
		const struct incident *in = &r->inc[i];
		if (in->final || !in->has_stop)
			continue;
		bool explained = false;
		for (size_t k = 0; k < rule_count && !explained; k++)
			explained = rule_table[k].info.explains_stop && rv_find_c(r, rule_table[k].info.id, in->id);
		if (!explained)
			rl_count_unexplained(r, tl, in, &u);
	}
	uint64_t nstop = u.n;
	double longest = u.longest_ms;
	int64_t longest_at = u.at_ms;
	const char *op = u.op;
	if (nstop > 0 && (!c->have_cpu || !c->have_sched || !c->have_vmstat)) {
		char d[32], t[16], miss[300] = "";
		size_t ml = 0;
		rl_fmt_ms(longest, d, sizeof d);
		if (!c->have_cpu)
			ml += (size_t)snprintf(miss + ml, sizeof miss - ml, "%sCPU throttling: --cpustat-log FILE, "
					       "--cgroup DIR or --pid PID", ml ? "; " : "");
		if (!c->have_sched && ml < sizeof miss)
			ml += (size_t)snprintf(miss + ml, sizeof miss - ml, "%srun-queue wait: --pid PID or "
					       "--schedstat-log FILE", ml ? "; " : "");
		if (!c->have_vmstat && ml < sizeof miss)
			snprintf(miss + ml, sizeof miss - ml, "%sdirect reclaim: --pid PID or --vmstat-log FILE",
				 ml ? "; " : "");
		snprintf(out[n++], RULES_NOTE_LEN,
			 "%llu %s >= %.0f ms (the longest %s at %s, \"%s\") %s no verdict, and the sources that "
			 "could explain %s are missing. To check for %s.",
			 (unsigned long long)nstop, from_pauses ? "GC pauses" : "stops", r->cfg.stop_ms, d, rl_hms(r, longest_at, t), op,
			 nstop == 1 ? "has" : "have", nstop == 1 ? "it" : "them", miss);
	}
	if (n < max && r->evicted) {
		char t1[40], t2[40];
		/* they can span days: dates unless the times are JVM uptime */
		if (r->uptime_axis) {
			rl_hms(r, r->evicted_from_ms, t1);
			rl_hms(r, r->evicted_to_ms, t2);
		} else {
			util_fmt_iso_ms(r->evicted_from_ms, t1, sizeof t1);
			util_fmt_iso_ms(r->evicted_to_ms, t2, sizeof t2);
		}
		snprintf(out[n++], RULES_NOTE_LEN,
			 "%llu verdicts of older incidents (from %s to %s) were let go to keep the newest %d; the "
			 "summary still counts the whole input.", (unsigned long long)r->evicted, t1, t2,
			 MAX_VERDICTS);
	}
	if (n < max && from_pauses && tl->pauses.total > 0)
		snprintf(out[n++], RULES_NOTE_LEN,
			 "The JVM log has GC pauses but no safepoint lines, so a stop spent reaching the "
			 "safepoint (ttsp-spike) cannot be seen: log them too, e.g. "
			 "-Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags:filecount=5,filesize=20M "
			 "(JDK 9+; JDK 8: -XX:+PrintGCApplicationStoppedTime).");
	return n;
}

