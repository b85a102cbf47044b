/* SPDX-License-Identifier: GPL-2.0-or-later */
/* notes.c — what the input could not show (rules_notes): stops that no
 * verdict explains while a source that could is missing, verdicts let go to
 * stay bounded, a GC log without safepoint lines. */
#include "rules_internal.h"

#include "stwtop/fmt.h"

void rl_count_unexplained(const struct rules *r, const struct timeline *tl, const struct incident *in,
			  bool but_vmop, struct unexplained *u)
{
	struct tl_stop_iter it;
	struct tl_stopref s;
	timeline_stops_begin(&it, tl, in->start_ms, in->end_ms, r->cfg.stop_ms);
	while (timeline_stops_next(&it, &s)) {
		if (but_vmop && s.stop && rl_vmop_stop(r, s.stop))
			continue;
		u->n++;
		if (s.total_ms > u->longest_ms) {
			u->longest_ms = s.total_ms;
			u->at_ms = s.start_ms;
			fmt_s(u->op, sizeof u->op, "%s", s.what);
		}
	}
}

/* The times the nginx log_format does not have are unknown, not 0: which
 * ones, what cannot be judged without them, and the line that adds them. */
static void nginx_lacks_note(unsigned lacks, bool guessed, char *out)
{
	char vars[96] = "", what[160] = "";
	size_t lv = 0, lw = 0;
	if (lacks & EV_HTTP_NO_RT) {
		lv += (size_t)fmt_s(vars + lv, sizeof vars - lv, "$request_time");
		lw += (size_t)fmt_s(what + lw, sizeof what - lw, "request times");
	}
	if ((lacks & EV_HTTP_NO_UCT) && lv < sizeof vars && lw < sizeof what) {
		lv += (size_t)fmt_s(vars + lv, sizeof vars - lv, "%s$upstream_connect_time", lv ? ", " : "");
		lw += (size_t)fmt_s(what + lw, sizeof what - lw, "%sconnect times (so connect timeouts and "
				    "accept-queue overflows)", lw ? ", " : "");
	}
	if ((lacks & EV_HTTP_NO_UHT) && lv < sizeof vars && lw < sizeof what) {
		fmt_s(vars + lv, sizeof vars - lv, "%s$upstream_header_time", lv ? ", " : "");
		fmt_s(what + lw, sizeof what - lw, "%sthe wait for the upstream's answer", lw ? " and " : "");
	}
	if (guessed) {
		/* the format was guessed and some fields stayed unnamed: the
		 * times may well be in them; saying the log_format has none is
		 * a claim about nginx's config stwtop cannot make */
		fmt_s(out, RULES_NOTE_LEN,
		      "No log_format was given and the one guessed from the access log's lines could not "
		      "tell which field is %s (the lines have fields it could not name): %s are unknown, not "
		      "0. Give nginx's format: --nginx-conf /etc/nginx/nginx.conf (the access_log line that "
		      "writes the file names it) or --nginx-format 'the log_format's quoted strings'.",
		      vars, what);
		return;
	}
	fmt_s(out, RULES_NOTE_LEN,
	      "The nginx log_format has no %s: %s cannot be read from the access log (they are unknown, "
	      "not 0). Log them, e.g. log_format timed '$remote_addr - $remote_user [$time_local] "
	      "\"$request\" $status $body_bytes_sent rt=$request_time uct=\"$upstream_connect_time\" "
	      "uht=\"$upstream_header_time\"'; access_log ... timed;", vars, what);
}

/* Shenandoah cancelled concurrent cycles (shenandoahHeap.cpp cancel_gc():
 * "Cancelling GC: <cause>"): on an allocation failure the control thread
 * finishes the cycle stop-the-world, a Degenerated GC from where it stopped,
 * upgraded to a Full GC when that frees too little (shenandoahControlThread.cpp).
 * Those pauses are judged as pauses when the log has them; a log that has the
 * cancel without them (it ends there, or the next file holds them) hides a
 * stop of unknown length, which must not read as "nothing abnormal". */
static void cancel_note(const struct summary *sm, char *out)
{
	uint64_t degen = 0, full = 0;
	for (int c = 0; c < SUMMARY_COLLECTORS; c++) {
		degen += sm->pauses_by[c][PAUSE_DEGENERATED];
		full += sm->pauses_by[c][PAUSE_FULL];
	}
	int l = fmt_s(out, RULES_NOTE_LEN,
		      "Shenandoah cancelled %llu concurrent cycle%s (the first in \"%.47s\" for %.39s): the "
		      "application allocated faster than the collector freed memory, and a cancelled cycle is "
		      "finished stop-the-world by a Degenerated GC (a Full GC when that frees too little). ",
		      (unsigned long long)sm->gc_cancels, sm->gc_cancels == 1 ? "" : "s", sm->gc_cancel_title,
		      sm->gc_cancel_cause);
	if (l < 0 || l >= RULES_NOTE_LEN)
		return;
	if (degen + full == 0)
		fmt_s(out + l, RULES_NOTE_LEN - (size_t)l, "None of those pauses is in this log, so how long the "
		      "application was stopped is unknown: read the log that follows this one.");
	else
		fmt_s(out + l, RULES_NOTE_LEN - (size_t)l, "This log has %llu Degenerated and %llu Full GC pauses "
		      "(judged as pauses).", (unsigned long long)degen, (unsigned long long)full);
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
			explained = rule_table[k]->info.explains_stop && rule_table[k]->info.id != V_LONG_VM_OPERATION &&
				    rv_find_c(r, rule_table[k]->info.id, in->id);
		/* long-vm-operation explains its own stops only */
		if (!explained)
			rl_count_unexplained(r, tl, in, rv_find_c(r, V_LONG_VM_OPERATION, in->id) != NULL, &u);
	}
	uint64_t nstop = u.n;
	double longest = u.longest_ms;
	int64_t longest_at = u.at_ms;
	const char *op = u.op;
	if (nstop > 0 && (!c->have_cpu || !c->have_sched || !c->have_vmstat)) {
		char d[32], t[UTIL_HMS_LEN], miss[300] = "";
		size_t ml = 0;
		rl_fmt_ms(longest, d, sizeof d);
		if (!c->have_cpu)
			ml += (size_t)fmt_s(miss + ml, sizeof miss - ml, "%sCPU throttling: --cpustat-log FILE, "
					    "--cgroup DIR or --pid PID", ml ? "; " : "");
		if (!c->have_sched && ml < sizeof miss)
			ml += (size_t)fmt_s(miss + ml, sizeof miss - ml, "%srun-queue wait: --pid PID or "
					    "--schedstat-log FILE", ml ? "; " : "");
		if (!c->have_vmstat && ml < sizeof miss)
			fmt_s(miss + ml, sizeof miss - ml, "%sdirect reclaim: --pid PID or --vmstat-log FILE",
			      ml ? "; " : "");
		fmt_s(out[n++], RULES_NOTE_LEN,
		      "%llu %s >= %.0f ms (the longest %s at %s, \"%s\") %s no verdict, and the sources that "
		      "could explain %s are missing. To check for %s.",
		      (unsigned long long)nstop, from_pauses ? "GC pauses" : "stops", r->cfg.stop_ms, d, rl_hms(r, longest_at, t), op,
		      nstop == 1 ? "has" : "have", nstop == 1 ? "it" : "them", miss);
	}
	if (n < max && c->sum && c->sum->gc_cancels > 0)
		cancel_note(c->sum, out[n++]);
	if (n < max && c->have_nginx && c->nginx_lacks)
		nginx_lacks_note(c->nginx_lacks, c->nginx_guessed, out[n++]);
	if (n < max && r->evicted) {
		char t1[40], t2[40];
		/* they can span days: dates unless the times are JVM uptime */
		if (r->uptime_axis) {
			rl_hms(r, r->evicted_from_ms, t1);
			rl_hms(r, r->evicted_to_ms, t2);
		} else {
			util_fmt_iso_disp(r->evicted_from_ms, t1, sizeof t1);
			util_fmt_iso_disp(r->evicted_to_ms, t2, sizeof t2);
		}
		fmt_s(out[n++], RULES_NOTE_LEN,
		      "%llu verdicts of older incidents (from %s to %s) were let go to keep the newest %d; the "
		      "summary still counts the whole input.", (unsigned long long)r->evicted, t1, t2,
		      MAX_VERDICTS);
	}
	if (n < max && from_pauses && tl->pauses.total > 0)
		fmt_s(out[n++], RULES_NOTE_LEN,
		      "The JVM log has GC pauses but no safepoint lines, so a stop spent reaching the "
		      "safepoint (ttsp-spike) cannot be seen: log them too, e.g. "
		      "-Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags:filecount=5,filesize=20M "
		      "(JDK 9+; JDK 8: -XX:+PrintGCApplicationStoppedTime).");
	return n;
}

