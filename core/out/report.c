/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c — JSON and text reports, NDJSON objects (report.h). */
#include "stwtop/report.h"
#include "stwtop/hist.h"
#include "stwtop/util.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* room for any verdict text sanitised (util_sanitize writes at most 4 bytes per byte) */
#define SAFE_LEN (4 * VERDICT_ADVICE_LEN + 1)
/* room for a verdict text or a note with its times rendered (util_expand_times:
 * a time token of 15 bytes becomes up to 18) */
#define TIMES_LEN (2 * VERDICT_ADVICE_LEN)

/* --- order --- */

#define REPORT_MAX_NOTES 8

/* --- JSON --- */

/* Log text as a JSON string. jansson refuses invalid UTF-8 (json_string gives
 * NULL and the key silently goes missing): such text is sanitised first, so a
 * byte like \xff shows as the four characters \xff. */
static json_t *jtext(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char buf[SAFE_LEN];
	util_sanitize(buf, sizeof buf, s, strlen(s));
	return json_string(buf);
}

/* a verdict's text or a note: its times rendered (util_expand_times), then as jtext */
static json_t *jtimed(const char *raw)
{
	char s[TIMES_LEN];
	util_expand_times(s, sizeof s, raw, strlen(raw), UTIL_TIMES_OFFSET);
	return jtext(s);
}

static json_t *iso_or_null(int64_t t)
{
	char buf[40];
	if (t == EV_TIME_NONE)
		return json_null();
	return json_string(util_fmt_iso_ms(t, buf, sizeof buf));
}

static json_t *round3(double v)
{
	return json_real(round(v * 1000.0) / 1000.0);
}

/* a verdict for the NDJSON line (report_verdict_json); the report writes the
 * same members itself, in this order (jb_verdict): a member added here goes
 * there too (e2e/verdict_members compares the two) */
static json_t *verdict_obj(const struct verdict *v)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(verdict_id_name(v->id)));
	json_object_set_new(o, "severity", json_string(severity_name(v->severity)));
	json_object_set_new(o, "start", iso_or_null(v->start_ms));
	json_object_set_new(o, "end", iso_or_null(v->end_ms));
	if (v->cleared_ms != EV_TIME_NONE)
		json_object_set_new(o, "cleared", iso_or_null(v->cleared_ms));
	json_object_set_new(o, "title", jtimed(v->title));
	json_t *ev = json_array();
	for (int i = 0; i < v->nevidence; i++)
		json_array_append_new(ev, jtimed(v->evidence[i]));
	json_object_set_new(o, "evidence", ev);
	json_object_set_new(o, "advice", jtimed(v->advice));
	return o;
}

static json_t *pct_obj(const struct hist *h)
{
	json_t *o = json_object();
	json_object_set_new(o, "count", json_integer((json_int_t)h->n));
	if (h->n == 0) { /* no request logged the time: unknown, not 0 */
		json_object_set_new(o, "p50", json_null());
		json_object_set_new(o, "p90", json_null());
		json_object_set_new(o, "p99", json_null());
		json_object_set_new(o, "max", json_null());
		return o;
	}
	json_object_set_new(o, "p50", round3(hist_quantile(h, 0.5) / 1e6));
	json_object_set_new(o, "p90", round3(hist_quantile(h, 0.9) / 1e6));
	json_object_set_new(o, "p99", round3(hist_quantile(h, 0.99) / 1e6));
	json_object_set_new(o, "max", round3(h->max_us / 1e6));
	return o;
}

/* The per-second series of the last hour, oldest first, one second at a time
 * (report_json writes them as they are made: 3600 of them as a tree took
 * ~3.5 MB for the time of the dump). */
struct sec_iter {
	const struct timeline *tl;
	int64_t sec, newest;          /* next second to look at; the newest held */
};

static void sec_iter_start(struct sec_iter *it, const struct session *s)
{
	it->tl = session_timeline(s);
	it->newest = EV_TIME_NONE;
	for (int i = 0; i < TL_SECONDS; i++)
		if (it->tl->secs[i].sec && (it->newest == EV_TIME_NONE || it->tl->secs[i].sec > it->newest))
			it->newest = it->tl->secs[i].sec;
	it->sec = it->newest == EV_TIME_NONE ? 1 : it->newest - TL_SECONDS + 1;
	if (it->newest == EV_TIME_NONE)
		it->newest = 0;
}

static json_t *sec_iter_next(void *state)
{
	struct sec_iter *it = state;
	for (; it->sec <= it->newest; it->sec++) {
		const struct tl_sec *b = timeline_sec(it->tl, it->sec);
		if (!b || b->req == 0)
			continue;
		float p[4];
		timeline_sec_percentiles(it->tl, b, p);
		json_t *o = json_object();
		json_object_set_new(o, "t", json_integer(it->sec));
		json_object_set_new(o, "requests", json_integer(b->req));
		json_object_set_new(o, "5xx", json_integer(b->s5xx));
		json_t *bk = json_array();
		for (int k = 0; k < 5; k++)
			json_array_append_new(bk, json_integer(b->bucket[k]));
		json_object_set_new(o, "uct_buckets", bk);
		/* null: no request of that second logged the time */
		json_object_set_new(o, "rt_p50", b->rt_n ? round3(p[0]) : json_null());
		json_object_set_new(o, "rt_p99", b->rt_n ? round3(p[1]) : json_null());
		json_object_set_new(o, "rt_max", b->rt_n ? round3(b->rt_max) : json_null());
		json_object_set_new(o, "uht_p50", b->uht_n ? round3(p[2]) : json_null());
		json_object_set_new(o, "uht_p99", b->uht_n ? round3(p[3]) : json_null());
		json_object_set_new(o, "uht_max", b->uht_n ? round3(b->uht_max) : json_null());
		float u[2];
		timeline_sec_urt(it->tl, b, u);
		json_object_set_new(o, "urt_p50", b->urt_n ? round3(u[0]) : json_null());
		json_object_set_new(o, "urt_p99", b->urt_n ? round3(u[1]) : json_null());
		json_object_set_new(o, "urt_max", b->urt_n ? round3(b->urt_max) : json_null());
		it->sec++;
		return o;
	}
	return NULL;
}

/* what could be checked: "nothing abnormal" means something only when complete */
static json_t *checked_obj(const struct session *s)
{
	struct session_checked c;
	session_checked(s, &c);
	json_t *o = json_object();
	json_object_set_new(o, "complete", json_boolean(c.complete));
	json_object_set_new(o, "nothing", json_boolean(c.nothing));
	json_t *why = json_array();
	for (size_t i = 0; i < c.nwhy; i++)
		json_array_append_new(why, jtext(c.why[i]));
	json_object_set_new(o, "why", why);
	return o;
}

static json_t *totals_obj(const struct summary *sm);

/* the JVM's own counters (docs/report-json.md): the sums are since stwtop
 * started, since_jvm_start the JVM's own totals */
static json_t *counters_obj(const struct summary *sm)
{
	json_t *jc = json_object();
	json_object_set_new(jc, "samples", json_integer((json_int_t)sm->ctr_samples));
	json_object_set_new(jc, "interval_ms", round3(sm->ctr_interval_ms));
	json_object_set_new(jc, "gcs", json_integer((json_int_t)sm->ctr_gcs));
	json_object_set_new(jc, "full_gcs", json_integer((json_int_t)sm->ctr_full_gcs));
	json_object_set_new(jc, "gc_ms", round3(sm->ctr_gc_ms));
	json_object_set_new(jc, "safepoints", json_integer((json_int_t)sm->ctr_safepoints));
	json_object_set_new(jc, "stopped_ms", round3(sm->ctr_stop_ms));
	json_object_set_new(jc, "ttsp_ms", round3(sm->ctr_ttsp_ms));
	json_object_set_new(jc, "heap_used_mb", sm->ctr_heap_used_mb >= 0 ? round3(sm->ctr_heap_used_mb) : json_null());
	json_object_set_new(jc, "heap_committed_mb",
			    sm->ctr_heap_committed_mb >= 0 ? round3(sm->ctr_heap_committed_mb) : json_null());
	json_object_set_new(jc, "since_jvm_start", totals_obj(sm));
	return jc;
}

static json_t *ms_or_null(double v)
{
	return v >= 0 ? round3(v) : json_null();
}

static json_t *int_or_null(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

static json_t *mb_or_null(double v)
{
	return v >= 0 ? round3(v) : json_null();
}

/* no GC log, only the JVM's counters: they fill the top-level heap, GC and
 * stop fields (DESIGN "Contracts added 2026-12-06") */
static bool counters_only(const struct summary *sm)
{
	return strcmp(summary_jvm_source(sm), "hsperfdata") == 0;
}

/* the last read of the JVM's counters, counted since the JVM started: what
 * `jstat -gc` shows (docs/report-json.md, docs/ndjson.md) */
static json_t *totals_obj(const struct summary *sm)
{
	const struct jvm_totals *t = &sm->ctr_tot;
	json_t *o = json_object();
	json_object_set_new(o, "since", json_string("jvm_start"));
	const char *cn = jvm_collector_name(sm->ctr_collector);
	json_object_set_new(o, "collector", cn ? json_string(cn) : json_null());
	json_t *gc = json_object();
	for (int k = 0; k < JVM_GC_KINDS; k++) {
		json_t *g = json_object();
		json_object_set_new(g, "collections", int_or_null(t->gcs[k]));
		json_object_set_new(g, "time_ms", ms_or_null(t->gc_ms[k]));
		json_object_set_new(gc, jvm_gc_kind_name((enum jvm_gc_kind)k), g);
	}
	json_object_set_new(o, "gc", gc);
	json_object_set_new(o, "gc_pauses", int_or_null(t->pauses));
	json_object_set_new(o, "gc_pause_ms", ms_or_null(t->pause_ms));
	json_object_set_new(o, "safepoints", int_or_null(t->safepoints));
	json_object_set_new(o, "safepoint_ms", ms_or_null(t->safepoint_ms));
	json_object_set_new(o, "safepoint_sync_ms", ms_or_null(t->safepoint_sync_ms));
	json_object_set_new(o, "stopped_ms", ms_or_null(t->stopped_ms));
	json_t *mem = json_object();
	for (int k = 0; k < JVM_POOLS; k++) {
		json_t *m = json_object();
		json_object_set_new(m, "used_bytes", int_or_null(t->used[k]));
		json_object_set_new(m, "committed_bytes", int_or_null(t->committed[k]));
		json_object_set_new(m, "max_bytes", int_or_null(t->max[k]));
		json_object_set_new(mem, jvm_pool_name((enum jvm_pool)k), m);
	}
	json_object_set_new(o, "memory", mem);
	return o;
}

/* the summary's JVM fields from the logs */
static void log_summary(const struct summary *sm, json_t *sum)
{
	json_object_set_new(sum, "gc_pauses", json_integer((json_int_t)sm->gc_pauses));
	json_object_set_new(sum, "max_gc_pause_ms", round3(sm->max_gc_pause_ms));
	json_object_set_new(sum, "total_gc_pause_ms", round3(sm->total_gc_pause_ms));
	json_object_set_new(sum, "full_gc_pauses", json_integer((json_int_t)sm->full_gcs));
	double share = summary_gc_paused_share(sm);
	json_object_set_new(sum, "gc_paused_share", share >= 0 ? json_real(round(share * 10000) / 10000) : json_null());
	json_object_set_new(sum, "stops", json_integer((json_int_t)sm->stops));
	json_object_set_new(sum, "total_stop_ms", round3(sm->total_stop_ms));
	json_object_set_new(sum, "max_stop_ms", round3(sm->max_stop_ms));
	json_object_set_new(sum, "max_ttsp_ms", round3(sm->max_ttsp_ms));
	json_object_set_new(sum, "periodic_gc_skips", json_integer((json_int_t)sm->periodic_gc_skips));
	json_object_set_new(sum, "periodic_gc_collections", json_integer((json_int_t)sm->periodic_gc_collections));
	json_object_set_new(sum, "safepoint_timeouts", json_integer((json_int_t)sm->sp_timeouts));
	if (sm->open_pauses) {
		/* the log ends inside a pause (or a JVM restarted in it): the last one */
		json_t *op = json_object();
		json_object_set_new(op, "gc_id", sm->open_pause.gc_id >= 0 ? json_integer(sm->open_pause.gc_id) : json_null());
		json_object_set_new(op, "title", json_string(sm->open_pause.title));
		json_object_set_new(op, "cause", sm->open_pause.cause[0] ? json_string(sm->open_pause.cause) : json_null());
		json_object_set_new(op, "last_sign_of_life_from",
				    json_string(sm->open_pause.to_exit ? "process" : "log"));
		json_object_set_new(op, "start", iso_or_null(sm->open_pause.start_ms));
		json_object_set_new(op, "last_sign_of_life", iso_or_null(sm->open_pause.end_ms));
		json_object_set_new(op, "at_least_ms", round3(sm->open_pause.at_least_ms));
		json_object_set_new(op, "count", json_integer((json_int_t)sm->open_pauses));
		json_object_set_new(sum, "open_pause", op);
	}
	json_object_set_new(sum, "allocation_stalls", json_integer((json_int_t)sm->alloc_stalls));
	json_object_set_new(sum, "crash_reports", json_integer((json_int_t)sm->hs_errs));
	json_t *heap = json_object();
	/* an unknown is null, never 0: no line gave a heap, or none its committed size */
	bool ck = sm->heap_known && sm->committed_known;
	json_object_set_new(heap, "committed_max_mb", ck ? round3(sm->committed_max_mb) : json_null());
	json_object_set_new(heap, "committed_last_mb", ck ? round3(sm->committed_last_mb) : json_null());
	json_object_set_new(heap, "used_after_gc_last_mb", sm->heap_known ? round3(sm->used_after_gc_last_mb) : json_null());
	json_object_set_new(sum, "heap", heap);
}

/* The same fields from the JVM's counters: GC and stop totals since the JVM
 * started (as jstat shows them), the longest stop and the most committed seen
 * since stwtop started; what only a log tells (one pause's length, periodic
 * collections, timeouts, stalls, the heap after a GC) is null, not 0. */
static void counters_summary(const struct summary *sm, json_t *sum)
{
	const struct jvm_totals *t = &sm->ctr_tot;
	json_object_set_new(sum, "gc_pauses", int_or_null(t->pauses));
	json_object_set_new(sum, "max_gc_pause_ms", json_null());
	json_object_set_new(sum, "total_gc_pause_ms", ms_or_null(t->pause_ms));
	json_object_set_new(sum, "full_gc_pauses", int_or_null(t->gcs[JVM_GC_FULL]));
	json_object_set_new(sum, "gc_paused_share", json_null());
	json_object_set_new(sum, "stops", int_or_null(t->safepoints));
	json_object_set_new(sum, "total_stop_ms", ms_or_null(t->stopped_ms));
	json_object_set_new(sum, "max_stop_ms", ms_or_null(sm->ctr_max_stop_ms));
	json_object_set_new(sum, "max_ttsp_ms", ms_or_null(sm->ctr_max_ttsp_ms));
	json_object_set_new(sum, "periodic_gc_skips", json_null());
	json_object_set_new(sum, "periodic_gc_collections", json_null());
	json_object_set_new(sum, "safepoint_timeouts", json_null());
	json_object_set_new(sum, "allocation_stalls", json_null());
	json_object_set_new(sum, "crash_reports", json_integer((json_int_t)sm->hs_errs));
	json_t *heap = json_object();
	json_object_set_new(heap, "committed_max_mb", mb_or_null(sm->ctr_heap_committed_max_mb));
	json_object_set_new(heap, "committed_last_mb", mb_or_null(sm->ctr_heap_committed_mb));
	json_object_set_new(heap, "used_after_gc_last_mb", json_null());
	json_object_set_new(heap, "used_last_mb", mb_or_null(sm->ctr_heap_used_mb));
	json_object_set_new(heap, "max_mb", sm->heap_max_kb > 0 ? round3((double)sm->heap_max_kb / 1024.0) : json_null());
	json_object_set_new(sum, "heap", heap);
}

static json_t *report_obj(const struct session *s)
{
	const struct summary *sm = session_summary(s);
	json_t *root = json_object();
	json_object_set_new(root, "tool", json_string("stwtop"));
	json_object_set_new(root, "version", json_string(STWTOP_VERSION));

	json_t *srcs = json_array();
	for (int i = 0; i < session_nsources(s); i++) {
		const struct source_stats *st = session_source_stats(s, i);
		json_t *o = json_object();
		json_object_set_new(o, "path", jtext(session_source_path(s, i)));
		json_object_set_new(o, "kind", json_string(src_kind_name(session_source_kind(s, i))));
		json_object_set_new(o, "lines", json_integer((json_int_t)st->lines));
		json_object_set_new(o, "parsed", json_integer((json_int_t)st->parsed));
		json_object_set_new(o, "unparsed", json_integer((json_int_t)st->unparsed));
		if (st->cut)
			json_object_set_new(o, "cut", json_integer((json_int_t)st->cut));
		if (st->first_error[0]) {
			char buf[260];
			snprintf(buf, sizeof buf, "line %llu: %s", (unsigned long long)st->first_error_line,
				 st->first_error);
			json_object_set_new(o, "first_unparsed", jtext(buf));
		}
		if (st->error)
			json_object_set_new(o, "error", jtext(st->note));
		else if (st->note[0]) /* read in part, and why: a truncated gzip, a file cut while read */
			json_object_set_new(o, "note", jtext(st->note));
		if (session_source_kind(s, i) == SRC_NGINX && session_source_nginx_format(s, i))
			json_object_set_new(o, "format", jtext(session_source_nginx_format(s, i)));
		json_object_set_new(o, "checked", json_string(src_checked_name(session_source_checked(s, i))));
		json_array_append_new(srcs, o);
	}
	json_object_set_new(root, "sources", srcs);

	json_t *jvm = json_object();
	bool ctr = counters_only(sm);
	const char *coll = jvm_collector_name(sm->collector);
	if (!coll && ctr)
		coll = jvm_collector_name(sm->ctr_collector);
	json_object_set_new(jvm, "collector", coll ? json_string(coll) : json_null());
	json_object_set_new(jvm, "version", sm->version[0] ? jtext(sm->version) : json_null());
	if (sm->jdk_release)
		json_object_set_new(jvm, "release", json_integer(sm->jdk_release));
	if (sm->nflags) {
		json_t *fl = json_array();
		for (int i = 0; i < sm->nflags; i++)
			json_array_append_new(fl, jtext(sm->flags[i]));
		json_object_set_new(jvm, "flags", fl);
	}
	if (session_uptime_axis(s)) {
		json_object_set_new(jvm, "time_axis", json_string("uptime"));
	} else if (session_jvm_anchor(s) != EV_TIME_NONE) {
		json_object_set_new(jvm, "time_axis", json_string("utc"));
		json_object_set_new(jvm, "start", iso_or_null(session_jvm_anchor(s)));
		json_object_set_new(jvm, "start_from", jtext(session_jvm_anchor_how(s)));
	}
	if (session_unanchored(s))
		json_object_set_new(jvm, "unanchored_events", json_integer((json_int_t)session_unanchored(s)));
	if (ctr) /* said only then: a report with a GC log stays as it was */
		json_object_set_new(jvm, "source", json_string("hsperfdata"));
	json_object_set_new(root, "jvm", jvm);

	json_t *sum = json_object();
	if (ctr)
		counters_summary(sm, sum);
	else
		log_summary(sm, sum);

	json_t *ng = json_object();
	json_object_set_new(ng, "requests", json_integer((json_int_t)sm->requests));
	json_t *status = json_object();
	for (int c = 0; c < SUMMARY_STATUS_MAX; c++)
		if (sm->status[c]) {
			char k[8];
			snprintf(k, sizeof k, "%d", c);
			json_object_set_new(status, k, json_integer((json_int_t)sm->status[c]));
		}
	if (sm->status_other)
		json_object_set_new(status, "other", json_integer((json_int_t)sm->status_other));
	json_object_set_new(ng, "status", status);
	json_t *b = json_object();
	static const char *const bn[5] = {"0", "1", "2", "3", "4+"};
	for (int k = 0; k < 5; k++)
		json_object_set_new(b, bn[k], json_integer((json_int_t)sm->uct_buckets[k]));
	json_object_set_new(ng, "uct_buckets", b);
	json_object_set_new(ng, "uct_none", json_integer((json_int_t)sm->uct_none));
	/* requests whose log_format lacks the variable: not in any count or percentile */
	json_t *nl = json_object();
	if (sm->lacks_rt)
		json_object_set_new(nl, "request_time", json_integer((json_int_t)sm->lacks_rt));
	if (sm->lacks_uct)
		json_object_set_new(nl, "upstream_connect_time", json_integer((json_int_t)sm->lacks_uct));
	if (sm->lacks_uht)
		json_object_set_new(nl, "upstream_header_time", json_integer((json_int_t)sm->lacks_uht));
	if (sm->lacks_urt)
		json_object_set_new(nl, "upstream_response_time", json_integer((json_int_t)sm->lacks_urt));
	json_object_set_new(ng, "not_logged", nl);
	json_object_set_new(ng, "request_time", pct_obj(&sm->rt));
	json_object_set_new(ng, "upstream_header_time", pct_obj(&sm->uht));
	json_object_set_new(ng, "upstream_response_time", pct_obj(&sm->urt));
	json_object_set_new(ng, "percentile_error", json_string("<= 1.6% (log-linear histogram, 32 buckets per power of two)"));
	json_object_set_new(ng, "per_second", json_array()); /* streamed by report_json */
	json_object_set_new(sum, "nginx", ng);

	json_t *thr = json_object();
	json_object_set_new(thr, "samples", json_integer((json_int_t)sm->throttle_samples));
	json_object_set_new(thr, "nr_throttled", json_integer((json_int_t)summary_nr_throttled(sm)));
	json_object_set_new(thr, "throttled_ms", round3(summary_throttled_ms(sm)));
	json_object_set_new(sum, "throttle", thr);
	if (sm->sched_samples) {
		json_t *sc = json_object();
		json_object_set_new(sc, "samples", json_integer((json_int_t)sm->sched_samples));
		json_object_set_new(sc, "oncpu_ms", round3(sm->sched_oncpu_ms));
		json_object_set_new(sc, "wait_ms", round3(sm->sched_wait_ms));
		json_object_set_new(sc, "idle_ms", sm->sched_idle_samples ? round3(sm->sched_idle_ms) : json_null());
		json_object_set_new(sum, "sched", sc);
	}
	if (sm->ctr_samples)
		json_object_set_new(sum, "jvm_counters", counters_obj(sm));
	if (sm->vmstat_samples) {
		json_t *vm = json_object();
		json_object_set_new(vm, "samples", json_integer((json_int_t)sm->vmstat_samples));
		json_object_set_new(vm, "allocstall", json_integer(sm->allocstall_last - sm->allocstall_first));
		json_object_set_new(sum, "vmstat", vm);
	}
	json_object_set_new(root, "summary", sum);

	char notes[REPORT_MAX_NOTES][SESSION_NOTE_LEN];
	size_t nn = session_notes(s, notes, REPORT_MAX_NOTES);
	json_t *jn = json_array();
	for (size_t i = 0; i < nn; i++)
		json_array_append_new(jn, jtimed(notes[i]));
	json_object_set_new(root, "notes", jn);
	json_object_set_new(root, "checked", checked_obj(s));

	/* the verdicts are written one at a time by report_json */
	json_object_set_new(root, "verdicts", json_array());
	return root;
}

#define REPORT_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

/* A dump of a tree exactly as json_dumps(j, REPORT_JSON_FLAGS) writes it,
 * with `depth` levels of indentation already (a streamed item as it sits in
 * the document), into a growing buffer. jansson's own dump passed every
 * piece through a callback, checked every container for loops with a
 * "%p" key in a hash table and decoded every string's UTF-8: 72
 * instructions a byte, 27% of a report of an incident-dense safepoint log
 * (1221 verdicts). Strings from jansson are valid UTF-8 already (json_string
 * refuses others), so only the escapes are looked for; a real is formatted
 * by jansson itself (its digits depend on how it was built). */
struct jbuf {
	char *p;
	size_t len, cap;
	bool bad;
};

static void jb_put(struct jbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *m = realloc(b->p, cap);
		if (!m) {
			b->bad = true;
			return;
		}
		b->p = m;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void jb_indent(struct jbuf *b, int depth)
{
	static const char nl_spaces[] = "\n                                ";  /* 32 */
	size_t n = (size_t)depth * 2;
	jb_put(b, nl_spaces, 1 + (n < sizeof nl_spaces - 2 ? n : sizeof nl_spaces - 2));
	for (n = n > sizeof nl_spaces - 2 ? n - (sizeof nl_spaces - 2) : 0; n > 0;) {
		size_t k = n < sizeof nl_spaces - 2 ? n : sizeof nl_spaces - 2;
		jb_put(b, nl_spaces + 1, k);
		n -= k;
	}
}

/* does any byte of w need an escape (below 0x20, '"' or '\\')? exact, eight
 * bytes at once (the "has less than" and "has zero byte" tricks) */
static inline bool needs_escape8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
	return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((bs - ones) & ~bs)) & high;
}

static void jb_string(struct jbuf *b, const char *s, size_t n)
{
	jb_put(b, "\"", 1);
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t w;
		while (i + 8 <= n && (memcpy(&w, s + i, 8), !needs_escape8(w)))
			i += 8;
		if (i >= n)
			break;
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		jb_put(b, s + from, i - from);
		char esc[8];
		const char *e = NULL;
		switch (c) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		default:
			snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
			e = esc;
		}
		jb_put(b, e, strlen(e));
		from = i + 1;
	}
	jb_put(b, s + from, n - from);
	jb_put(b, "\"", 1);
}

size_t report_fmt_real(double v, char *buf, size_t len)
{
	/* A whole number of thousandths under 1e9 (round3's, most of a report's
	 * reals): its decimals by hand. v is then the double nearest to the
	 * decimal r/1000 of at most 12 digits, which "%.12g" prints back as
	 * that decimal, trailing zeros dropped, and jansson adds ".0" to a
	 * whole number. snprintf was most of the cost of a report's JSON. */
	double a = fabs(v);
	if (a < 1e9 && !(v == 0 && signbit(v)) && len >= 16) {
		double r = nearbyint(a * 1000.0);
		if (r / 1000.0 == a) {
			int64_t q = (int64_t)r;
			int64_t ip = q / 1000;
			int fr = (int)(q % 1000);
			char t[24];
			size_t n = sizeof t;
			int64_t x = ip;
			do {
				t[--n] = (char)('0' + x % 10);
				x /= 10;
			} while (x);
			size_t o = 0;
			if (v < 0)
				buf[o++] = '-';
			memcpy(buf + o, t + n, sizeof t - n);
			o += sizeof t - n;
			buf[o++] = '.';
			if (fr == 0) {
				buf[o++] = '0';
			} else {
				buf[o++] = (char)('0' + fr / 100);
				if (fr % 100) {
					buf[o++] = (char)('0' + fr / 10 % 10);
					if (fr % 10)
						buf[o++] = (char)('0' + fr % 10);
				}
			}
			buf[o] = '\0';
			return o;
		}
	}
	json_t *j = json_real(v);
	size_t k = j ? json_dumpb(j, buf, len, JSON_ENCODE_ANY | REPORT_JSON_FLAGS) : 0;
	json_decref(j);
	if (k == 0 || k >= len)
		return 0;
	buf[k] = '\0';
	return k;
}

static void jb_dump(struct jbuf *b, const json_t *j, int depth)
{
	char num[64];
	switch (json_typeof(j)) {
	case JSON_NULL:
		jb_put(b, "null", 4);
		break;
	case JSON_TRUE:
		jb_put(b, "true", 4);
		break;
	case JSON_FALSE:
		jb_put(b, "false", 5);
		break;
	case JSON_INTEGER: {
		int k = snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
		jb_put(b, num, (size_t)k);
		break;
	}
	case JSON_REAL: {
		size_t k = report_fmt_real(json_real_value(j), num, sizeof num);
		if (k == 0)
			b->bad = true;
		else
			jb_put(b, num, k);
		break;
	}
	case JSON_STRING:
		jb_string(b, json_string_value(j), json_string_length(j));
		break;
	case JSON_ARRAY: {
		size_t n = json_array_size(j);
		if (n == 0) {
			jb_put(b, "[]", 2);
			break;
		}
		jb_put(b, "[", 1);
		for (size_t i = 0; i < n; i++) {
			if (i)
				jb_put(b, ",", 1);
			jb_indent(b, depth + 1);
			jb_dump(b, json_array_get(j, i), depth + 1);
		}
		jb_indent(b, depth);
		jb_put(b, "]", 1);
		break;
	}
	case JSON_OBJECT: {
		void *it = json_object_iter((json_t *)j);
		if (!it) {
			jb_put(b, "{}", 2);
			break;
		}
		jb_put(b, "{", 1);
		for (bool first = true; it; it = json_object_iter_next((json_t *)j, it), first = false) {
			if (!first)
				jb_put(b, ",", 1);
			jb_indent(b, depth + 1);
			jb_string(b, json_object_iter_key(it), json_object_iter_key_len(it));
			jb_put(b, ": ", 2);
			jb_dump(b, json_object_iter_value(it), depth + 1);
		}
		jb_indent(b, depth);
		jb_put(b, "}", 1);
		break;
	}
	default:
		b->bad = true;
	}
}

/* report.h: jansson takes exactly the well-formed UTF-8 (util_utf8_seq); pure
 * ASCII is passed over eight bytes at a time */
bool report_text_ok(const char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k) {
		uint64_t w;
		if (i + 8 <= n && (memcpy(&w, s + i, 8), !(w & 0x8080808080808080ull)))
			k = 8;
		else if ((k = util_utf8_seq(s + i, n - i)) == 0)
			return false;
	}
	return true;
}

/* jtimed(raw) as jb_dump writes it: false (nothing written) where jtimed gives
 * NULL, which jansson's setters then leave out */
static bool jb_timed(struct jbuf *b, const char *raw)
{
	char s[TIMES_LEN];
	util_expand_times(s, sizeof s, raw, strlen(raw), UTIL_TIMES_OFFSET);
	size_t n = strlen(s);
	if (report_text_ok(s, n)) {
		jb_string(b, s, n);
		return true;
	}
	char safe[SAFE_LEN];
	util_sanitize(safe, sizeof safe, s, n);
	n = strlen(safe);
	if (!report_text_ok(safe, n))
		return false;
	jb_string(b, safe, n);
	return true;
}

/* a member "key": of an object at depth, its value to follow */
static void jb_key(struct jbuf *b, const char *key, int depth, bool first)
{
	if (!first)
		jb_put(b, ",", 1);
	jb_indent(b, depth + 1);
	jb_string(b, key, strlen(key));
	jb_put(b, ": ", 2);
}

static void jb_iso_or_null(struct jbuf *b, int64_t t)
{
	char buf[40];
	if (t == EV_TIME_NONE) {
		jb_put(b, "null", 4);
		return;
	}
	const char *iso = util_fmt_iso_ms(t, buf, sizeof buf);
	jb_string(b, iso, strlen(iso));
}

/* verdict_obj(v) dumped at depth (its members, in its order), written straight from the verdict: building
 * jansson's tree of it (a string copied and UTF-8-checked per member, a hash
 * table per object) cost about as much as writing it */
static void jb_verdict(struct jbuf *b, const struct verdict *v, int depth)
{
	const char *id = verdict_id_name(v->id), *sev = severity_name(v->severity);
	jb_put(b, "{", 1);
	jb_key(b, "id", depth, true);
	jb_string(b, id, strlen(id));
	jb_key(b, "severity", depth, false);
	jb_string(b, sev, strlen(sev));
	jb_key(b, "start", depth, false);
	jb_iso_or_null(b, v->start_ms);
	jb_key(b, "end", depth, false);
	jb_iso_or_null(b, v->end_ms);
	if (v->cleared_ms != EV_TIME_NONE) {
		jb_key(b, "cleared", depth, false);
		jb_iso_or_null(b, v->cleared_ms);
	}
	/* a member whose value jtimed refuses is left out, as json_object_set_new does */
	size_t mark = b->len;
	jb_key(b, "title", depth, false);
	if (!jb_timed(b, v->title))
		b->len = mark;
	jb_key(b, "evidence", depth, false);
	size_t open = b->len;
	jb_put(b, "[", 1);
	bool any = false;
	for (int i = 0; i < v->nevidence; i++) {
		size_t at = b->len;
		if (any)
			jb_put(b, ",", 1);
		jb_indent(b, depth + 2);
		if (jb_timed(b, v->evidence[i]))
			any = true;
		else
			b->len = at;
	}
	if (any) {
		jb_indent(b, depth + 1);
		jb_put(b, "]", 1);
	} else {
		b->len = open;
		jb_put(b, "[]", 2);
	}
	mark = b->len;
	jb_key(b, "advice", depth, false);
	if (!jb_timed(b, v->advice))
		b->len = mark;
	jb_indent(b, depth);
	jb_put(b, "}", 1);
}

/* One item as it sits in an array of the document: jansson indents a nested
 * value by its depth, so the standalone dump gets that many levels (2 spaces
 * each) after every newline, and the bytes equal a dump of the whole. */
static void put_nested(FILE *out, const char *txt, int depth)
{
	static const char spaces[] = "                ";  /* 16: depth 8 */
	size_t ind = (size_t)(2 * depth) < sizeof spaces - 1 ? (size_t)(2 * depth) : sizeof spaces - 1;
	fwrite(spaces, 1, ind, out);
	for (const char *p = txt, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fputs(p, out);
			break;
		}
		fwrite(p, 1, (size_t)(nl - p) + 1, out);
		fwrite(spaces, 1, ind, out);
	}
}

/* An array member of the document written item by item, instead of built as a
 * tree and dumped whole: the tree holds placeholder "[]" for it. */
struct streamed {
	const char *marker;               /* the member as jansson dumps it empty */
	int depth;                        /* of its items: root members are 1 */
	/* the next item into b, as jb_dump writes it at depth; false after the last */
	bool (*next)(void *state, struct jbuf *b, int depth);
	void *state;
};

/* Write the dump, from *pos, up to and including the streamed member st, its
 * items made one at a time; *pos moves past the placeholder. */
static int put_streamed(FILE *out, const char **pos, const struct streamed *st)
{
	const char *m = strstr(*pos, st->marker);
	if (!m)
		return -1;
	const char *arr = m + strlen(st->marker) - 2; /* its "[]" */
	fwrite(*pos, 1, (size_t)(arr - *pos), out);
	*pos = arr + 2;
	size_t n = 0;
	struct jbuf b = {0};
	for (;; n++) {
		b.len = 0;
		jb_put(&b, n ? ",\n" : "[\n", 2);
		jb_put(&b, "                ", (size_t)(2 * st->depth) < 16 ? (size_t)(2 * st->depth) : 16);
		if (!st->next(st->state, &b, st->depth))
			break;
		if (b.bad || fwrite(b.p, 1, b.len, out) != b.len || ferror(out)) {
			free(b.p);
			return -1;
		}
	}
	free(b.p);
	if (n) {
		fputc('\n', out);
		put_nested(out, "]", st->depth - 1);
	} else {
		fputs("[]", out);
	}
	return 0;
}

struct verdict_iter {
	const struct rules *r;
	const size_t *idx;
	size_t n, i;
};

static bool verdict_iter_next(void *state, struct jbuf *b, int depth)
{
	struct verdict_iter *it = state;
	if (it->i >= it->n)
		return false;
	jb_verdict(b, rules_at(it->r, it->idx[it->i++]), depth);
	return true;
}

static bool sec_iter_put(void *state, struct jbuf *b, int depth)
{
	json_t *o = sec_iter_next(state);
	if (!o)
		return false;
	jb_dump(b, o, depth);
	json_decref(o);
	return true;
}

/* The document is the summary tree with its two long arrays streamed into it
 * (summary.nginx.per_second, then verdicts, its last member): a tree of 2048
 * verdicts took ~12 MB for the time of the dump, one verdict takes ~6 KB. */
int report_json(FILE *out, const struct session *s)
{
	json_t *root = report_obj(s);
	char *head = json_dumps(root, REPORT_JSON_FLAGS);
	json_decref(root);
	if (!head)
		return -1;
	struct sec_iter secs;
	sec_iter_start(&secs, s);
	struct verdict_iter vi = {session_rules(s), NULL, 0, 0};
	vi.idx = rules_order(vi.r, &vi.n);
	int rc = 0;
	const struct streamed parts[] = {
		{"\"per_second\": []", 4, sec_iter_put, &secs},
		{"\"verdicts\": []", 2, verdict_iter_next, &vi},
	};
	const char *pos = head;
	for (size_t i = 0; i < ARRAY_LEN(parts) && rc == 0; i++)
		rc = put_streamed(out, &pos, &parts[i]);
	if (rc == 0)
		fputs(pos, out);
	fputc('\n', out);
	free(head);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

char *report_verdict_json(const struct session *s, const struct verdict *v, const char *event)
{
	json_t *o = verdict_obj(v);
	json_object_set_new(o, "type", json_string("verdict"));
	json_object_set_new(o, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(o, "event", json_string(event));
	json_object_set_new(o, "incident", json_integer((json_int_t)v->key));
	(void)s;
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return txt;
}

/* --- per-interval status --- */

struct interval {
	int stops;
	double max_stop_ms, max_ttsp_ms;
	bool have_cpu;
	double throttled_ms;
	const struct tl_sched *sched;  /* the newest schedstat interval, if recent; NULL none */
	const struct tl_ctr *ctr;      /* the newest read of the JVM's counters, if recent; NULL none */
	uint64_t req, slow, s5xx;      /* requests started in [from_sec, to_sec], and late ones */
	uint64_t late;                 /* of req, those that started before from_sec */
	int64_t from_sec, to_sec;      /* start seconds settled since the last status; EV_TIME_NONE none */
	int crit, warn, info;
};

void report_status_init(struct report_status_mark *m)
{
	memset(m, 0, sizeof *m);
	m->to_sec = EV_TIME_NONE;
}

/* The requests of the start seconds settled since the last status, plus any
 * that landed in a second already reported (longer than every request before
 * them: `late`), so that each request is in exactly one status; moves the
 * mark on. */
static void interval_requests(const struct timeline *tl, struct report_status_mark *m, struct interval *iv)
{
	iv->from_sec = iv->to_sec = EV_TIME_NONE;
	int64_t settled = timeline_req_settled_sec(tl);
	int64_t from = m->to_sec == EV_TIME_NONE ? tl->req_sec_min : m->to_sec + 1;
	int64_t upto = m->to_sec;
	if (settled != EV_TIME_NONE && from != EV_TIME_NONE && settled >= from) {
		iv->from_sec = from;
		iv->to_sec = upto = settled;
	}
	if (upto == EV_TIME_NONE)
		return;
	struct tl_req_count now, before;
	timeline_req_count_upto(tl, upto, &now);
	timeline_req_count_upto(tl, m->to_sec == EV_TIME_NONE ? upto : m->to_sec, &before);
	iv->req = now.req - m->told.req;
	iv->slow = now.slow - m->told.slow;
	iv->s5xx = now.s5xx - m->told.s5xx;
	iv->late = m->to_sec == EV_TIME_NONE ? 0 : before.req - m->told.req;
	m->told = now;
	m->to_sec = upto;
}

/* no safepoint line from any log: the counters are all there is of the
 * stops (a log with only GC pauses has not the others, nor any TTSP) */
static void interval_facts(const struct session *s, int64_t now, struct report_status_mark *m,
			   struct interval *iv)
{
	const struct timeline *tl = session_timeline(s);
	memset(iv, 0, sizeof *iv);
	int64_t a = now - 1000;
	struct tl_stop_iter it;
	struct tl_stopref st;
	timeline_stops_begin(&it, tl, a, now, 0);
	while (timeline_stops_next(&it, &st)) {
		if (st.end_ms < a || st.end_ms > now || (st.stop && (st.stop->flags & TL_STOP_COUNTERS)))
			continue; /* the counters' stop time is said from them, summed */
		iv->stops++;
		if (st.total_ms > iv->max_stop_ms)
			iv->max_stop_ms = st.total_ms;
		if (st.ttsp_ms > iv->max_ttsp_ms)
			iv->max_ttsp_ms = st.ttsp_ms;
	}
	struct tl_cpu_delta d;
	if (tl->cpu.total >= 2) {
		const struct tl_cpu *last = ring_at(&tl->cpu, tl->cpu.total - 1);
		int64_t b = last->t_ms < now ? last->t_ms : now;
		if (timeline_cpu_delta(tl, b - 1000, b, &d)) {
			iv->have_cpu = true;
			iv->throttled_ms = d.throttled_us / 1000.0;
		}
	}
	/* the schedstat interval that ended last, unless it is older than two of its
	 * own intervals (the process exited, the probe stopped) */
	if (tl->sched.total) {
		const struct tl_sched *sc = ring_at(&tl->sched, tl->sched.total - 1);
		double span = sc->interval_ms > 0 ? 2.0 * sc->interval_ms : 2000.0;
		if (sc->t_ms <= now && (double)(now - sc->t_ms) <= span)
			iv->sched = sc;
	}
	if (tl->ctr.total) {
		const struct tl_ctr *c = ring_at(&tl->ctr, tl->ctr.total - 1);
		double span = c->interval_ms > 0 ? 2.0 * c->interval_ms : 2000.0;
		if (c->t_ms <= now && (double)(now - c->t_ms) <= span)
			iv->ctr = c;
	}
	interval_requests(tl, m, iv);
	const struct rules *r = session_rules(s);
	for (size_t i = 0; i < rules_count(r); i++) {
		const struct verdict *v = rules_at(r, i);
		if (v->cleared_ms != EV_TIME_NONE)
			continue;
		if (v->severity == SEV_CRIT)
			iv->crit++;
		else if (v->severity == SEV_WARN)
			iv->warn++;
		else
			iv->info++;
	}
}

/* " | nginx 81 requests started 19:24:05, 35 slow connects, 0 5xx" */
static size_t status_line_requests(const struct interval *iv, char *buf, size_t len)
{
	char a[UTIL_HMS_LEN], b[UTIL_HMS_LEN];
	size_t o = (size_t)snprintf(buf, len, " | nginx %llu requests", (unsigned long long)iv->req);
	if (iv->from_sec == EV_TIME_NONE) {
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, iv->req ? " late" : " (no second complete)");
	} else if (o < len) {
		util_fmt_hms_ms(iv->from_sec * 1000, a, sizeof a);
		util_fmt_hms_ms(iv->to_sec * 1000, b, sizeof b);
		a[8] = b[8] = '\0';  /* whole seconds: drop ".000" */
		if (iv->from_sec == iv->to_sec)
			o += (size_t)snprintf(buf + o, len - o, " started %s", a);
		else
			o += (size_t)snprintf(buf + o, len - o, " started %s-%s", a, b);
		if (iv->late && o < len)
			o += (size_t)snprintf(buf + o, len - o, " (+%llu late)", (unsigned long long)iv->late);
	}
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, ", %llu slow connects, %llu 5xx", (unsigned long long)iv->slow,
				      (unsigned long long)iv->s5xx);
	return o;
}

/* One line: what the last second held (stops, throttling, the JVM threads'
 * time summed over every thread, so it can be many seconds a second), then what
 * is counted since the start, then nginx's requests by start time; each part
 * says which it is. */
void report_status_line(const struct session *s, int64_t now_ms, struct report_status_mark *m, char *buf,
			size_t len)
{
	struct interval iv;
	char t[UTIL_HMS_LEN];
	interval_facts(s, now_ms, m, &iv);
	const struct summary *sm = session_summary(s);
	size_t o = (size_t)snprintf(buf, len, "%s last 1 s: stops %d", util_fmt_hms_ms(now_ms, t, sizeof t), iv.stops);
	if (iv.stops && o < len)
		o += (size_t)snprintf(buf + o, len - o, " (max %.0f ms, ttsp %.0f ms)", iv.max_stop_ms,
				      iv.max_ttsp_ms);
	/* no safepoint log: the JVM's counters say how long it was stopped in every
	 * safepoint (GC or not) and how long reaching them took, not in which stops */
	if (iv.ctr && !timeline_stops_from_log(session_timeline(s)) && iv.ctr->stop_ms >= 0 && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", stopped %.0f ms (ttsp %.0f ms, JVM counters)",
				      iv.ctr->stop_ms, iv.ctr->ttsp_ms > 0 ? iv.ctr->ttsp_ms : 0);
	if (iv.have_cpu && o < len)
		o += (size_t)snprintf(buf + o, len - o, ", throttled %+.0f ms", iv.throttled_ms);
	if (iv.sched && o < len) {
		o += (size_t)snprintf(buf + o, len - o, ", JVM threads summed: on CPU %.0f ms, waiting %.0f ms",
				      iv.sched->oncpu_ms, iv.sched->wait_ms);
		if (iv.sched->idle_ms >= 0 && o < len)
			o += (size_t)snprintf(buf + o, len - o, ", idle %.0f ms", iv.sched->idle_ms);
	}
	if (strcmp(summary_jvm_source(sm), "hsperfdata") == 0) {
		/* the JVM's own totals, as jstat shows them */
		const struct jvm_totals *jt = &sm->ctr_tot;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o,
					      " | since JVM start: gc %lld collections (%lld Full) %.1f s, heap %.0f/%.0f MB "
					      "used/committed (JVM counters)",
					      (long long)jt->pauses, (long long)jt->gcs[JVM_GC_FULL], jt->pause_ms / 1000,
					      sm->ctr_heap_used_mb, sm->ctr_heap_committed_mb);
	} else if (o < len) {
		/* an unknown heap is not 0 */
		if (sm->heap_known && sm->committed_known)
			o += (size_t)snprintf(buf + o, len - o, " | since start: gc %llu pauses, heap %.0f/%.0f MB",
					      (unsigned long long)sm->gc_pauses, sm->used_after_gc_last_mb,
					      sm->committed_last_mb);
		else if (sm->heap_known)
			o += (size_t)snprintf(buf + o, len - o, " | since start: gc %llu pauses, heap %.0f MB used",
					      (unsigned long long)sm->gc_pauses, sm->used_after_gc_last_mb);
		else
			o += (size_t)snprintf(buf + o, len - o, " | since start: gc %llu pauses",
					      (unsigned long long)sm->gc_pauses);
	}
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, ", verdicts %d crit %d warn %d info", iv.crit, iv.warn, iv.info);
	if (sm->requests && o < len)
		status_line_requests(&iv, buf + o, len - o);
}

char *report_note_json(const char *text)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("note"));
	json_object_set_new(o, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(o, "text", jtimed(text));
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return txt;
}

/* a JVM is read: a JVM log given, or its counters */
static bool jvm_followed(const struct session *s)
{
	for (int i = 0; i < session_nsources(s); i++)
		if (session_source_kind(s, i) == SRC_JVM)
			return true;
	return session_summary(s)->ctr_samples > 0;
}

char *report_status_json(const struct session *s, int64_t now_ms, struct report_status_mark *m)
{
	struct interval iv;
	interval_facts(s, now_ms, m, &iv);
	const struct summary *sm = session_summary(s);
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("status"));
	json_object_set_new(o, "schema", json_integer(REPORT_JSON_SCHEMA));
	json_object_set_new(o, "time", iso_or_null(now_ms));
	const char *src = summary_jvm_source(sm);
	bool ctr = strcmp(src, "hsperfdata") == 0;
	if (ctr && !timeline_stops_from_log(session_timeline(s))) {
		/* no safepoint log: the stops of the counters' last interval (null
		 * when no read is recent); the longest one from the reads every
		 * HSPERF_STEP_MS */
		const struct tl_ctr *c = iv.ctr;
		json_object_set_new(o, "stops", c && c->safepoints >= 0 ? json_integer(c->safepoints) : json_null());
		json_object_set_new(o, "max_stop_ms", c ? ms_or_null(c->stop_max_ms) : json_null());
		/* none ended (stop_max_ms 0): none reached either */
		double tt = c && c->stop_max_ms == 0 ? 0 : c ? c->stop_max_ttsp_ms : -1;
		json_object_set_new(o, "max_ttsp_ms", ms_or_null(tt));
	} else if (!jvm_followed(s)) {
		/* nothing of the JVM is read (an nginx log alone): its stops are not known */
		json_object_set_new(o, "stops", json_null());
		json_object_set_new(o, "max_stop_ms", json_null());
		json_object_set_new(o, "max_ttsp_ms", json_null());
	} else {
		json_object_set_new(o, "stops", json_integer(iv.stops));
		json_object_set_new(o, "max_stop_ms", round3(iv.max_stop_ms));
		json_object_set_new(o, "max_ttsp_ms", round3(iv.max_ttsp_ms));
	}
	if (ctr) { /* the counters' totals since the JVM started; no heap after a GC in them */
		json_object_set_new(o, "gc_pauses_total", int_or_null(sm->ctr_tot.pauses));
		json_object_set_new(o, "heap_committed_mb", mb_or_null(sm->ctr_heap_committed_mb));
		json_object_set_new(o, "heap_used_after_gc_mb", json_null());
	} else {
		/* a heap no line has sized yet, a JVM not read at all: null, not 0 */
		json_object_set_new(o, "gc_pauses_total",
				    jvm_followed(s) ? json_integer((json_int_t)sm->gc_pauses) : json_null());
		json_object_set_new(o, "heap_committed_mb",
				    sm->heap_known && sm->committed_known ? round3(sm->committed_last_mb) : json_null());
		json_object_set_new(o, "heap_used_after_gc_mb",
				    sm->heap_known ? round3(sm->used_after_gc_last_mb) : json_null());
	}
	json_object_set_new(o, "throttled_ms", iv.have_cpu ? round3(iv.throttled_ms) : json_null());
	if (iv.sched) {
		json_t *sc = json_object();
		json_object_set_new(sc, "interval_ms", round3(iv.sched->interval_ms));
		json_object_set_new(sc, "threads", json_integer(iv.sched->nthreads));
		json_object_set_new(sc, "oncpu_ms", round3(iv.sched->oncpu_ms));
		json_object_set_new(sc, "wait_ms", round3(iv.sched->wait_ms));
		json_object_set_new(sc, "idle_ms", iv.sched->idle_ms >= 0 ? round3(iv.sched->idle_ms) : json_null());
		json_object_set_new(o, "sched", sc);
	} else {
		json_object_set_new(o, "sched", json_null());
	}
	/* where the heap and GC numbers come from (docs/ndjson.md) */
	json_t *jv = json_object();
	json_object_set_new(jv, "source", json_string(src));
	if (ctr) {
		/* since stwtop started; gcs_total, full_gcs_total and gc_ms_total
		 * are the same numbers under their first, misleading names */
		json_object_set_new(jv, "gcs_total", json_integer((json_int_t)sm->ctr_gcs));
		json_object_set_new(jv, "full_gcs_total", json_integer((json_int_t)sm->ctr_full_gcs));
		json_object_set_new(jv, "gc_ms_total", round3(sm->ctr_gc_ms));
		json_object_set_new(jv, "gcs_since_stwtop", json_integer((json_int_t)sm->ctr_gcs));
		json_object_set_new(jv, "full_gcs_since_stwtop", json_integer((json_int_t)sm->ctr_full_gcs));
		json_object_set_new(jv, "gc_ms_since_stwtop", round3(sm->ctr_gc_ms));
		json_object_set_new(jv, "safepoints_since_stwtop", json_integer((json_int_t)sm->ctr_safepoints));
		json_object_set_new(jv, "stopped_ms_since_stwtop", round3(sm->ctr_stop_ms));
		json_object_set_new(jv, "heap_used_mb", mb_or_null(sm->ctr_heap_used_mb));
		json_object_set_new(jv, "heap_committed_mb", mb_or_null(sm->ctr_heap_committed_mb));
	}
	if (sm->ctr_samples) /* with a GC log too: the counters' own view, beside the log's */
		json_object_set_new(jv, "since_jvm_start", totals_obj(sm));
	if (iv.ctr) {
		json_object_set_new(jv, "interval_ms", round3(iv.ctr->interval_ms));
		json_object_set_new(jv, "gcs", json_integer(iv.ctr->gcs));
		json_object_set_new(jv, "gc_ms", round3(iv.ctr->gc_ms));
		json_object_set_new(jv, "stopped_ms", iv.ctr->stop_ms >= 0 ? round3(iv.ctr->stop_ms) : json_null());
		json_object_set_new(jv, "ttsp_ms", iv.ctr->ttsp_ms >= 0 ? round3(iv.ctr->ttsp_ms) : json_null());
	}
	json_object_set_new(o, "jvm", jv);
	json_object_set_new(o, "crash_reports", json_integer((json_int_t)sm->hs_errs));
	json_object_set_new(o, "requests", json_integer((json_int_t)iv.req));
	json_object_set_new(o, "slow_connects", json_integer((json_int_t)iv.slow));
	json_object_set_new(o, "5xx", json_integer((json_int_t)iv.s5xx));
	/* the start seconds counted, [from, to) (docs/ndjson.md) */
	bool secs = iv.from_sec != EV_TIME_NONE;
	json_object_set_new(o, "requests_from", iso_or_null(secs ? iv.from_sec * 1000 : EV_TIME_NONE));
	json_object_set_new(o, "requests_to", iso_or_null(secs ? (iv.to_sec + 1) * 1000 : EV_TIME_NONE));
	json_object_set_new(o, "late_requests", json_integer((json_int_t)iv.late));
	json_t *v = json_object();
	json_object_set_new(v, "crit", json_integer(iv.crit));
	json_object_set_new(v, "warn", json_integer(iv.warn));
	json_object_set_new(v, "info", json_integer(iv.info));
	json_object_set_new(o, "verdicts", v);
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return txt;
}

/* --- text --- */

/* the last read's totals since the JVM started, jstat's columns */
static void text_totals(FILE *out, const struct summary *sm)
{
	const struct jvm_totals *t = &sm->ctr_tot;
	if (t->gcs[JVM_GC_YOUNG] < 0 && t->safepoints < 0)
		return;
	static const char *const col[JVM_GC_KINDS] = {"YGC", "FGC", "CGC"};
	const char *cn = jvm_collector_name(sm->ctr_collector);
	fprintf(out, "             since the JVM started%s%s:", cn ? ", " : "", cn ? cn : "");
	for (int k = 0; k < JVM_GC_KINDS; k++)
		if (t->gcs[k] >= 0)
			fprintf(out, " %s %lld (%.3f s)", col[k], (long long)t->gcs[k], t->gc_ms[k] > 0 ? t->gc_ms[k] / 1000 : 0);
	if (t->safepoints >= 0)
		fprintf(out, ", %lld safepoints (%.3f s, %.3f s reaching them)", (long long)t->safepoints,
			t->safepoint_ms > 0 ? t->safepoint_ms / 1000 : 0,
			t->safepoint_sync_ms > 0 ? t->safepoint_sync_ms / 1000 : 0);
	fputc('\n', out);
}

static const char *sev_color(int sev, bool color)
{
	if (!color)
		return "";
	return sev == SEV_CRIT ? "\033[1;31m" : sev == SEV_WARN ? "\033[1;33m" : "\033[1;36m";
}

/* Text that came from a log (operation and thread names, pause causes, paths)
 * may hold escape sequences: shown escaped, never sent to the terminal as is
 * (util_sanitize turns a byte into at most 4). */
static const char *safe(char *buf, size_t len, const char *s)
{
	util_sanitize(buf, len, s, strlen(s));
	return buf;
}

/* print s (sanitised) wrapped at width, each line prefixed; a word longer than
 * the width (a path, a command) is kept whole on its line */
static void wrap(FILE *out, const char *prefix, const char *raw, int width)
{
	char buf[SAFE_LEN];
	const char *s = safe(buf, sizeof buf, raw);
	int plen = (int)strlen(prefix);
	while (*s) {
		int avail = width - plen;
		int n = (int)strlen(s);
		if (n <= avail) {
			fprintf(out, "%s%s\n", prefix, s);
			return;
		}
		int cut = avail;
		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0) {
			cut = avail;
			while (s[cut] && s[cut] != ' ')
				cut++;
		}
		fprintf(out, "%s%.*s\n", prefix, cut, s);
		s += cut;
		while (*s == ' ')
			s++;
		prefix = "      ";
		plen = 6;
	}
}

/* a verdict's text or a note: its times rendered (util_expand_times), then wrapped */
static void wrap_timed(FILE *out, const char *prefix, const char *raw, int width)
{
	char t[TIMES_LEN];
	util_expand_times(t, sizeof t, raw, strlen(raw), UTIL_TIMES_OFFSET);
	wrap(out, prefix, t, width);
}

/* The rest of the VERDICTS line: "nothing abnormal" only when every source
 * was read and mostly understood (session_checked); otherwise what was not,
 * so that a missing file or a log stwtop cannot read never reads as healthy. */
static void verdicts_headline(FILE *out, const struct session *s, size_t n, size_t nn)
{
	struct session_checked c;
	session_checked(s, &c);
	if (c.complete) {
		if (n == 0 && nn == 0)
			fputs("  none: nothing abnormal in this input\n", out);
		else if (n == 0)
			fputs("  none in what could be checked: see NOTES\n", out);
		else
			fputc('\n', out);
		return;
	}
	char msg[SESSION_CHECKED_MAX_WHY * (SESSION_CHECKED_WHY_LEN + 2) + 80];
	size_t l = 0;
	if (n > 0)
		l += (size_t)snprintf(msg, sizeof msg, "in what could be read; not checked: ");
	else if (c.nothing)
		l += (size_t)snprintf(msg, sizeof msg, "none found, but ");
	else
		l += (size_t)snprintf(msg, sizeof msg, "none found in what could be read: ");
	for (size_t i = 0; i < c.nwhy && l < sizeof msg; i++)
		l += (size_t)snprintf(msg + l, sizeof msg - l, "%s%s", i ? "; " : "", c.why[i]);
	if (n == 0 && c.nothing && l < sizeof msg)
		snprintf(msg + l, sizeof msg - l, ": nothing was checked");
	wrap(out, "  ", msg, 100 - 8);
}

/* VERDICTS, in report order and grouped by incident, then NOTES */
static void text_verdicts(FILE *out, const struct session *s, bool color)
{
	const char *rst = color ? "\033[0m" : "", *bold = color ? "\033[1m" : "";
	bool up = session_uptime_axis(s);
	const struct rules *r = session_rules(s);
	size_t n = rules_count(r);
	char notes[REPORT_MAX_NOTES][SESSION_NOTE_LEN];
	size_t nn = session_notes(s, notes, REPORT_MAX_NOTES);
	fprintf(out, "%sVERDICTS%s", bold, rst);
	verdicts_headline(out, s, n, nn);
	size_t ninc, ki = 0;
	const size_t *idx = rules_order(r, &n);
	const struct rules_incident *inc = rules_incidents(r, &ninc);
	if (idx) {
		for (size_t i = 0; i < n; i++) {
			const struct verdict *v = rules_at(r, idx[i]);
			char t1[24], t2[24], span[60] = "";
			if (ki < ninc && inc[ki].first == i)
				fprintf(out, " -- incident %u --\n", inc[ki++].number);
			if (v->start_ms != EV_TIME_NONE) {
				if (up)
					snprintf(span, sizeof span, "+%.3fs-+%.3fs", v->start_ms / 1000.0,
						 (v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms) / 1000.0);
				else
					snprintf(span, sizeof span, "%s-%s", util_fmt_hms_ms(v->start_ms, t1, sizeof t1),
						 util_fmt_hms_ms(v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms, t2,
								 sizeof t2));
			}
			fprintf(out, " %s%-4s%s %-26s %s%s\n", sev_color(v->severity, color),
				severity_name(v->severity), rst, verdict_id_name(v->id), span,
				v->cleared_ms != EV_TIME_NONE ? "  (cleared)" : "");
			wrap_timed(out, "      ", v->title, 100);
			for (int k = 0; k < v->nevidence; k++)
				wrap_timed(out, "      - ", v->evidence[k], 100);
			if (v->advice[0])
				wrap_timed(out, "      > ", v->advice, 100);
		}
	}

	if (nn > 0) {
		fprintf(out, "\n%sNOTES%s\n", bold, rst);
		for (size_t i = 0; i < nn; i++)
			wrap_timed(out, "  - ", notes[i], 100);
	}

}

static void text_summary(FILE *out, const struct session *s, bool color)
{
	const struct summary *sm = session_summary(s);
	const char *rst = color ? "\033[0m" : "", *bold = color ? "\033[1m" : "";
	char sb[SAFE_LEN];
	fprintf(out, "\n%sSUMMARY%s\n", bold, rst);
	if (sm->gc_pauses || sm->stops || sm->collector) {
		const char *coll = jvm_collector_name(sm->collector);
		fprintf(out, "  JVM        %s%s%s\n", coll ? coll : "collector unknown", sm->version[0] ? ", " : "",
			safe(sb, sizeof sb, sm->version));
		if (sm->nflags) {
			char fl[SUMMARY_FLAGS_MAX * 97] = "";
			for (int i = 0; i < sm->nflags; i++)
				snprintf(fl + strlen(fl), sizeof fl - strlen(fl), "%s%s", i ? " " : "", sm->flags[i]);
			wrap(out, "  Flags      ", fl, 100);
		}
		fprintf(out, "  GC pauses  %llu, max %.1f ms, total %.1f ms, %llu Full", (unsigned long long)sm->gc_pauses,
			sm->max_gc_pause_ms, sm->total_gc_pause_ms, (unsigned long long)sm->full_gcs);
		double share = summary_gc_paused_share(sm);
		if (share >= 0)
			fprintf(out, "; paused %.1f %% of the %.1f s the JVM log covers", share * 100,
				summary_jvm_span_ms(sm) / 1000);
		fputc('\n', out);
		if (sm->stops)
			fprintf(out, "  Stops      %llu safepoints, max %.1f ms, total %.1f ms, max time to "
				"safepoint %.1f ms\n", (unsigned long long)sm->stops, sm->max_stop_ms,
				sm->total_stop_ms, sm->max_ttsp_ms);
		if (sm->heap_known && sm->committed_known)
			fprintf(out, "  Heap       committed max %.0f MB, last %.0f MB; used after last GC %.0f MB\n",
				sm->committed_max_mb, sm->committed_last_mb, sm->used_after_gc_last_mb);
		else if (sm->heap_known)
			fprintf(out, "  Heap       used after last GC %.0f MB; committed not in the log (ZGC prints it "
				"with -Xlog:gc*)\n", sm->used_after_gc_last_mb);
		if (sm->periodic_gc_skips || sm->periodic_gc_collections)
			fprintf(out, "  Periodic   %llu checks skipped, %llu periodic collections\n",
				(unsigned long long)sm->periodic_gc_skips,
				(unsigned long long)sm->periodic_gc_collections);
		if (sm->sp_timeouts)
			fprintf(out, "  Timeouts   %llu SafepointTimeout reports\n", (unsigned long long)sm->sp_timeouts);
		if (sm->open_pauses) {
			char a[UTIL_HMS_LEN] = "?", b[UTIL_HMS_LEN] = "?";
			if (sm->open_pause.start_ms != EV_TIME_NONE)
				util_fmt_hms_ms(sm->open_pause.start_ms, a, sizeof a);
			if (sm->open_pause.end_ms != EV_TIME_NONE)
				util_fmt_hms_ms(sm->open_pause.end_ms, b, sizeof b);
			fprintf(out, "  Never ended GC(%lld) %s%s%s%s began at %s and no end line follows (the JVM's last "
				"sign of life: %s, %.1f ms later, %s): it hung in it or died during it, or the log was read "
				"while it ran\n",
				(long long)sm->open_pause.gc_id, sm->open_pause.title, sm->open_pause.cause[0] ? " (" : "",
				sm->open_pause.cause, sm->open_pause.cause[0] ? ")" : "", a, b, sm->open_pause.at_least_ms,
				sm->open_pause.to_exit ? "the process seen alive" : "the log's last line");
		}
		if (sm->alloc_stalls)
			fprintf(out, "  Stalls     %llu ZGC allocation stalls, max %.1f ms\n",
				(unsigned long long)sm->alloc_stalls, sm->max_alloc_stall_ms);
	}
	if (sm->hs_errs)
		fprintf(out, "  Crashes    %llu JVM crash report(s) (hs_err)\n", (unsigned long long)sm->hs_errs);
	if (sm->requests) {
		fprintf(out, "  nginx      %llu requests;", (unsigned long long)sm->requests);
		for (int c = 0; c < SUMMARY_STATUS_MAX; c++)
			if (sm->status[c])
				fprintf(out, " %d: %llu", c, (unsigned long long)sm->status[c]);
		fputc('\n', out);
		if (sm->lacks_uct < sm->requests)
			fprintf(out, "             connect 0 s: %llu, 1 s: %llu, 2 s: %llu, 3 s: %llu, 4+ s: %llu, "
				"none: %llu\n", (unsigned long long)sm->uct_buckets[0],
				(unsigned long long)sm->uct_buckets[1], (unsigned long long)sm->uct_buckets[2],
				(unsigned long long)sm->uct_buckets[3], (unsigned long long)sm->uct_buckets[4],
				(unsigned long long)sm->uct_none);
		if (sm->lacks_uct || sm->lacks_rt || sm->lacks_uht)
			fprintf(out, "             %s (see NOTES): %s%s%s\n",
				session_nginx_guessed(s) ? "not read" : "not logged",
				sm->lacks_rt ? "$request_time " : "", sm->lacks_uct ? "$upstream_connect_time " : "",
				sm->lacks_uht ? "$upstream_header_time" : "");
		if (sm->rt.n)
			fprintf(out, "             request_time p50 %.3f s, p99 %.3f s, max %.3f s\n",
				hist_quantile(&sm->rt, 0.5) / 1e6, hist_quantile(&sm->rt, 0.99) / 1e6,
				sm->rt.max_us / 1e6);
		/* ingress-nginx's default format: the one upstream time it has */
		if (sm->urt.n && !sm->uht.n)
			fprintf(out, "             upstream_response_time p50 %.3f s, p99 %.3f s, max %.3f s\n",
				hist_quantile(&sm->urt, 0.5) / 1e6, hist_quantile(&sm->urt, 0.99) / 1e6,
				sm->urt.max_us / 1e6);
	}
	if (sm->throttle_samples)
		fprintf(out, "  cgroup     %llu cpu.stat samples, nr_throttled %+lld, throttled_time %+.1f ms\n",
			(unsigned long long)sm->throttle_samples, (long long)summary_nr_throttled(sm),
			summary_throttled_ms(sm));
	if (sm->sched_samples)
	{
		fprintf(out, "  schedstat  %llu intervals, %.0f ms on CPU, %.0f ms waiting for a CPU",
			(unsigned long long)sm->sched_samples, sm->sched_oncpu_ms, sm->sched_wait_ms);
		if (sm->sched_idle_samples)
			fprintf(out, ", %.0f ms idle", sm->sched_idle_ms);
		fputc('\n', out);
	}
	if (sm->ctr_samples)
		fprintf(out, "  counters   %llu reads over %.0f s (the JVM's hsperfdata): %llu GCs (%llu Full) took %.1f s\n"
			"             %llu safepoints stopped it %.1f s (%.3f s reaching them); heap at the last read "
			"%.0f/%.0f MB used/committed\n",
			(unsigned long long)sm->ctr_samples, sm->ctr_interval_ms / 1000, (unsigned long long)sm->ctr_gcs,
			(unsigned long long)sm->ctr_full_gcs, sm->ctr_gc_ms / 1000, (unsigned long long)sm->ctr_safepoints,
			sm->ctr_stop_ms / 1000, sm->ctr_ttsp_ms / 1000, sm->ctr_heap_used_mb, sm->ctr_heap_committed_mb);
	if (sm->ctr_samples)
		text_totals(out, sm);
	if (sm->vmstat_samples)
		fprintf(out, "  vmstat     %llu samples, allocstall %+lld\n", (unsigned long long)sm->vmstat_samples,
			(long long)(sm->allocstall_last - sm->allocstall_first));

}

static void text_sources(FILE *out, const struct session *s, bool color)
{
	const char *rst = color ? "\033[0m" : "", *bold = color ? "\033[1m" : "";
	char sb[SAFE_LEN];
	fprintf(out, "\n%sSOURCES%s\n", bold, rst);
	for (int i = 0; i < session_nsources(s); i++) {
		const struct source_stats *st = session_source_stats(s, i);
		fprintf(out, "  %-9s %s: %llu lines, %llu parsed, %llu unparsed", src_kind_name(session_source_kind(s, i)),
			strcmp(session_source_path(s, i), "-") == 0 ? "stdin (-)" : safe(sb, sizeof sb, session_source_path(s, i)),
			(unsigned long long)st->lines,
			(unsigned long long)st->parsed,
			(unsigned long long)st->unparsed);
		if (st->cut)
			fprintf(out, ", %llu cut (over 1 MiB)", (unsigned long long)st->cut);
		fputc('\n', out);
		if (st->first_error[0])
			fprintf(out, "            first unparsed line %llu: %s\n",
				(unsigned long long)st->first_error_line, safe(sb, sizeof sb, st->first_error));
		if (st->error)
			fprintf(out, "            error: %s\n", safe(sb, sizeof sb, st->note));
		else if (st->note[0])
			fprintf(out, "            note: %s\n", safe(sb, sizeof sb, st->note));
	}
	if (session_uptime_axis(s)) {
		fprintf(out, "  JVM start  unknown: the JVM log has only uptime, so times above are JVM uptime "
			"(add --jvm-start or --pid for wall-clock times)\n");
	} else if (session_jvm_anchor(s) != EV_TIME_NONE && session_unanchored(s) == 0) {
		char t[40];
		fprintf(out, "  JVM start  %s (from %s)\n", util_fmt_iso_disp(session_jvm_anchor(s), t, sizeof t),
			safe(sb, sizeof sb, session_jvm_anchor_how(s)));
	} else if (session_unanchored(s)) {
		fprintf(out, "  JVM start  unknown: %llu uptime-only events not placed on the clock "
			"(add --jvm-start or --pid)\n", (unsigned long long)session_unanchored(s));
	}
}

int report_text(FILE *out, const struct session *s, bool color)
{
	const struct timeline *tl = session_timeline(s);
	const char *rst = color ? "\033[0m" : "", *bold = color ? "\033[1m" : "";
	char a[40], b[40];
	fprintf(out, "%sstwtop %s report%s", bold, STWTOP_VERSION, rst);
	bool up = session_uptime_axis(s);
	if (tl->oldest_ms != EV_TIME_NONE && up)
		fprintf(out, "  JVM uptime %.3f s .. %.3f s (the log has no wall clock)", tl->oldest_ms / 1000.0,
			tl->newest_ms / 1000.0);
	else if (tl->oldest_ms != EV_TIME_NONE)
		fprintf(out, "  %s .. %s (%.0f s, times in %s)", util_fmt_iso_disp(tl->oldest_ms, a, sizeof a),
			util_fmt_iso_disp(tl->newest_ms, b, sizeof b), (tl->newest_ms - tl->oldest_ms) / 1000.0,
			util_tz_display_name());
	fputs("\n\n", out);


	text_verdicts(out, s, color);
	text_summary(out, s, color);
	text_sources(out, s, color);
	return 0;
}
