/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.c — the session as Prometheus metrics (metrics.h). The formats
 * mirror the Prometheus "Exposition formats" page (text format 0.0.4) and
 * the OpenMetrics 1.0 specification: in OpenMetrics a counter's family is
 * named without "_total" (its sample keeps it), build info is an info
 * family, and the exposition ends with "# EOF". */
#include "stwtop/metrics.h"
#include "stwtop/rules.h"
#include "stwtop/summary.h"
#include "stwtop_revision.h"    /* generated: STWTOP_REVISION */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void metrics_buf_reset(struct metrics_buf *b)
{
	b->len = 0;
	b->oom = false;
	if (b->s)
		b->s[0] = '\0';
}

void metrics_buf_fini(struct metrics_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

static bool grow(struct metrics_buf *b, size_t need)
{
	if (b->oom)
		return false;
	if (b->len + need + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 16384;
	while (cap < b->len + need + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

static void put(struct metrics_buf *b, const char *s, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void puts_(struct metrics_buf *b, const char *s)
{
	put(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void putf(struct metrics_buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		put(b, small, (size_t)n);
		return;
	}
	if (!grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* a label value: backslash, double quote and newline escaped (both formats) */
static void put_label(struct metrics_buf *b, const char *v)
{
	const char *run = v;
	for (const char *p = v; *p; p++) {
		const char *esc = *p == '\\' ? "\\\\" : *p == '"' ? "\\\"" : *p == '\n' ? "\\n" : NULL;
		if (!esc)
			continue;
		put(b, run, (size_t)(p - run));
		puts_(b, esc);
		run = p + 1;
	}
	puts_(b, run);
}

enum mtype { M_COUNTER, M_GAUGE, M_HISTOGRAM };

/* "# HELP" and "# TYPE" of a family; name is the sample name without a
 * counter's "_total" */
static void family(struct metrics_buf *b, enum metrics_format f, const char *name, enum mtype t, const char *help)
{
	static const char *const tn[] = {"counter", "gauge", "histogram"};
	const char *suffix = t == M_COUNTER && f == METRICS_PROMETHEUS ? "_total" : "";
	putf(b, "# HELP stwtop_%s%s %s\n# TYPE stwtop_%s%s %s\n", name, suffix, help, name, suffix, tn[t]);
}

/* the samples of one histogram; labels: "" or `a="x",b="y"` (no braces) */
static void histogram_samples(struct metrics_buf *b, const char *name, const char *labels, const struct summary_le *h)
{
	const char *sep = labels[0] ? "," : "";
	uint64_t cum = 0;
	for (int i = 0; i < SUMMARY_LE_N; i++) {
		cum += h->b[i];
		putf(b, "stwtop_%s_bucket{%s%sle=\"%g\"} %llu\n", name, labels, sep, summary_le_s[i],
		     (unsigned long long)cum);
	}
	putf(b, "stwtop_%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, labels, sep, (unsigned long long)h->n);
	const char *lo = labels[0] ? "{" : "", *lc = labels[0] ? "}" : "";
	putf(b, "stwtop_%s_sum%s%s%s %.17g\nstwtop_%s_count%s%s%s %llu\n", name, lo, labels, lc, h->sum_s, name, lo,
	     labels, lc, (unsigned long long)h->n);
}

static void histogram(struct metrics_buf *b, enum metrics_format f, const char *name, const char *help,
		      const struct summary_le *h)
{
	family(b, f, name, M_HISTOGRAM, help);
	histogram_samples(b, name, "", h);
}

static bool have_kind(const struct session *s, enum src_kind k)
{
	for (int i = 0; i < session_nsources(s); i++)
		if (session_source_kind(s, i) == k)
			return true;
	return false;
}

static void put_jvm(struct metrics_buf *b, const struct session *s, enum metrics_format f)
{
	const struct summary *sm = session_summary(s);
	histogram(b, f, "safepoint_seconds",
		  "Safepoints in the JVM logs: each whole stop (reaching it, the operation, leaving).", &sm->stop_le);
	histogram(b, f, "safepoint_sync_seconds",
		  "Safepoints in the JVM logs: the time to reach each (HotSpot's safepoint sync time).", &sm->ttsp_le);
	family(b, f, "gc_pause_seconds", M_HISTOGRAM, "GC pauses in the JVM logs by collector and kind.");
	for (int c = 0; c < SUMMARY_COLLECTORS; c++)
		for (int t = 0; t < SUMMARY_PAUSE_TYPES; t++) {
			if (!sm->gc_pause_le_by[c][t].n)
				continue;
			const char *cn = jvm_collector_name((enum jvm_collector)c);
			char labels[96];
			snprintf(labels, sizeof labels, "collector=\"%s\",kind=\"%s\"", cn ? cn : "unknown",
				 pause_type_name((enum pause_type)t));
			histogram_samples(b, "gc_pause_seconds", labels, &sm->gc_pause_le_by[c][t]);
		}
	if (sm->heap_known) {
		if (sm->committed_known) { /* ZGC's -Xlog:gc alone does not print it: no series, not 0 */
			family(b, f, "heap_committed_bytes", M_GAUGE, "Heap committed after the last GC that printed it.");
			putf(b, "stwtop_heap_committed_bytes %.17g\n", sm->committed_last_mb * 1048576.0);
		}
		family(b, f, "heap_used_after_gc_bytes", M_GAUGE, "Heap used after the last GC that printed it.");
		putf(b, "stwtop_heap_used_after_gc_bytes %.17g\n", sm->used_after_gc_last_mb * 1048576.0);
	}
}

/* The JVM's own counters at the last read (hsperfdata), as `jstat -gc` shows
 * them: counters the JVM owns, since its start (they go down only when it
 * restarts). A series the JVM has no counter for is left out. */
static void put_jvm_counters(struct metrics_buf *b, const struct session *s, enum metrics_format f)
{
	const struct summary *sm = session_summary(s);
	const struct jvm_totals *t = &sm->ctr_tot;
	static const struct {
		const char *name, *help;
		size_t off;
	} mem[] = {
		{"jvm_memory_used_bytes", "JVM memory used by pool, from its counters (jstat EU, S0U+S1U, OU, MU, CCSU).",
		 offsetof(struct jvm_totals, used)},
		{"jvm_memory_committed_bytes",
		 "JVM memory committed by pool, from its counters (jstat EC, S0C+S1C, OC, MC, CCSC).",
		 offsetof(struct jvm_totals, committed)},
		{"jvm_memory_max_bytes", "JVM memory a pool may grow to, from its counters, where the JVM says.",
		 offsetof(struct jvm_totals, max)},
	};
	for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) {
		const int64_t *v = (const int64_t *)(const void *)((const char *)t + mem[i].off);
		bool any = false;
		for (int k = 0; k < JVM_POOLS; k++)
			any |= v[k] >= 0;
		if (!any)
			continue;
		family(b, f, mem[i].name, M_GAUGE, mem[i].help);
		for (int k = 0; k < JVM_POOLS; k++)
			if (v[k] >= 0)
				putf(b, "stwtop_%s{pool=\"%s\"} %lld\n", mem[i].name, jvm_pool_name((enum jvm_pool)k),
				     (long long)v[k]);
	}
	bool any = false;
	for (int k = 0; k < JVM_GC_KINDS; k++)
		any |= t->gcs[k] >= 0;
	if (any) {
		family(b, f, "jvm_gc_collections", M_COUNTER,
		       "Collections since the JVM started, from its counters (jstat YGC, FGC, CGC).");
		for (int k = 0; k < JVM_GC_KINDS; k++)
			if (t->gcs[k] >= 0)
				putf(b, "stwtop_jvm_gc_collections_total{type=\"%s\"} %lld\n",
				     jvm_gc_kind_name((enum jvm_gc_kind)k), (long long)t->gcs[k]);
		family(b, f, "jvm_gc_collection_seconds", M_COUNTER,
		       "Time in those collections since the JVM started (jstat YGCT, FGCT, CGCT).");
		for (int k = 0; k < JVM_GC_KINDS; k++)
			if (t->gcs[k] >= 0 && t->gc_ms[k] >= 0)
				putf(b, "stwtop_jvm_gc_collection_seconds_total{type=\"%s\"} %.17g\n",
				     jvm_gc_kind_name((enum jvm_gc_kind)k), t->gc_ms[k] / 1000.0);
	}
	if (t->safepoints >= 0) {
		family(b, f, "jvm_safepoints", M_COUNTER, "Safepoints since the JVM started (sun.rt.safepoints).");
		putf(b, "stwtop_jvm_safepoints_total %lld\n", (long long)t->safepoints);
	}
	if (t->safepoint_ms >= 0) {
		family(b, f, "jvm_safepoint_seconds", M_COUNTER,
		       "Time in safepoints since the JVM started (sun.rt.safepointTime; JDK 13+: without reaching them).");
		putf(b, "stwtop_jvm_safepoint_seconds_total %.17g\n", t->safepoint_ms / 1000.0);
	}
	if (t->safepoint_sync_ms >= 0) {
		family(b, f, "jvm_safepoint_sync_seconds", M_COUNTER,
		       "Time reaching safepoints since the JVM started (sun.rt.safepointSyncTime).");
		putf(b, "stwtop_jvm_safepoint_sync_seconds_total %.17g\n", t->safepoint_sync_ms / 1000.0);
	}
	const char *cn = jvm_collector_name(sm->ctr_collector);
	if (cn) {
		if (f == METRICS_OPENMETRICS)
			puts_(b, "# HELP stwtop_jvm The JVM's collector, from its counters.\n# TYPE stwtop_jvm info\n");
		else
			family(b, f, "jvm_info", M_GAUGE, "The JVM's collector, from its counters.");
		putf(b, "stwtop_jvm_info{collector=\"%s\"} 1\n", cn);
	}
}

/* cAdvisor's names (container_cpu_cfs_*) for the same cpu.stat counters */
static void put_cgroup(struct metrics_buf *b, const struct session *s, enum metrics_format f)
{
	const struct summary *sm = session_summary(s);
	family(b, f, "cgroup_cpu_cfs_periods", M_COUNTER,
	       "Growth of cpu.stat nr_periods: CFS enforcement periods that elapsed (a re-created cgroup adds on).");
	putf(b, "stwtop_cgroup_cpu_cfs_periods_total %lld\n", (long long)summary_nr_periods(sm));
	family(b, f, "cgroup_cpu_cfs_throttled_periods", M_COUNTER,
	       "Growth of cpu.stat nr_throttled: periods in which the quota ran out.");
	putf(b, "stwtop_cgroup_cpu_cfs_throttled_periods_total %lld\n", (long long)summary_nr_throttled(sm));
	family(b, f, "cgroup_cpu_cfs_throttled_seconds", M_COUNTER,
	       "Growth of cpu.stat throttled_time: summed over the CPUs, so it can pass the wall clock.");
	putf(b, "stwtop_cgroup_cpu_cfs_throttled_seconds_total %.17g\n", summary_throttled_ms(sm) / 1000.0);
}

static void put_nginx(struct metrics_buf *b, const struct session *s, enum metrics_format f)
{
	const struct summary *sm = session_summary(s);
	uint64_t cls[6] = {0};          /* 1xx..5xx, other */
	for (int c = 0; c < SUMMARY_STATUS_MAX; c++)
		cls[c >= 100 ? c / 100 - 1 : 5] += sm->status[c];
	cls[5] += sm->status_other;
	family(b, f, "nginx_requests", M_COUNTER, "Requests in the nginx access logs by status class.");
	static const char *const cn[6] = {"1xx", "2xx", "3xx", "4xx", "5xx", "other"};
	for (int k = 0; k < 6; k++)
		if (k < 5 || cls[k])
			putf(b, "stwtop_nginx_requests_total{status_class=\"%s\"} %llu\n", cn[k],
			     (unsigned long long)cls[k]);
	histogram(b, f, "nginx_request_duration_seconds", "nginx $request_time of the requests that log it.",
		  &sm->rt_le);
	histogram(b, f, "nginx_upstream_connect_duration_seconds",
		  "nginx $upstream_connect_time of the requests that connected to an upstream.", &sm->uct_le);
	family(b, f, "nginx_requests_without_upstream_connect", M_COUNTER,
	       "Requests whose $upstream_connect_time is \"-\": nginx never connected to an upstream.");
	putf(b, "stwtop_nginx_requests_without_upstream_connect_total %llu\n", (unsigned long long)sm->uct_none);
}

/* the data's clock carried on by the wall clock (metrics.h, METRICS_ACTIVE_MS) */
static int64_t data_now(const struct session *s, int64_t wall_ms)
{
	int64_t newest = session_timeline(s)->newest_ms;
	if (newest == EV_TIME_NONE || wall_ms == EV_TIME_NONE)
		return newest;
	int64_t last_read = 0;
	for (int i = 0; i < session_nsources(s); i++) {
		int64_t t = session_source_stats(s, i)->last_read_ms;
		if (t > last_read)
			last_read = t;
	}
	return last_read > 0 && wall_ms > last_read ? newest + (wall_ms - last_read) : newest;
}

static bool verdict_active(const struct verdict *v, int64_t now_ms)
{
	if (v->cleared_ms != EV_TIME_NONE)
		return false;
	if (!verdict_is_incident(v->id))
		return true;
	int64_t end = v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms;
	return end == EV_TIME_NONE || now_ms == EV_TIME_NONE || now_ms - end < METRICS_ACTIVE_MS;
}

static void put_verdicts(struct metrics_buf *b, const struct session *s, enum metrics_format f, int64_t wall_ms)
{
	const struct rules *r = session_rules(s);
	int64_t now_ms = data_now(s, wall_ms);
	family(b, f, "verdicts", M_COUNTER,
	       "Verdicts by id and level: an incident's once it is final, a whole-run one when raised or risen.");
	for (int id = 0; id < V_COUNT; id++)
		for (int sev = SEV_INFO; sev <= SEV_CRIT; sev++)
			putf(b, "stwtop_verdicts_total{id=\"%s\",level=\"%s\"} %llu\n", verdict_id_name(id),
			     severity_name(sev), (unsigned long long)rules_raised(r, id, sev));
	unsigned active[V_COUNT][SEV_CRIT + 1];
	int64_t last[V_COUNT][SEV_CRIT + 1];
	memset(active, 0, sizeof active);
	memset(last, 0, sizeof last);
	for (size_t i = 0; i < rules_count(r); i++) {
		const struct verdict *v = rules_at(r, i);
		if (v->id < 0 || v->id >= V_COUNT || v->severity < SEV_INFO || v->severity > SEV_CRIT)
			continue;
		if (verdict_active(v, now_ms))
			active[v->id][v->severity]++;
		int64_t end = v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms;
		if (end != EV_TIME_NONE && end > last[v->id][v->severity])
			last[v->id][v->severity] = end;
	}
	family(b, f, "verdict_active", M_GAUGE,
	       "Verdicts holding: not cleared, evidence ended under 5 minutes ago (whole-run: not cleared).");
	for (int id = 0; id < V_COUNT; id++)
		for (int sev = SEV_INFO; sev <= SEV_CRIT; sev++)
			putf(b, "stwtop_verdict_active{id=\"%s\",level=\"%s\"} %u\n", verdict_id_name(id),
			     severity_name(sev), active[id][sev]);
	family(b, f, "verdict_last_evidence_timestamp_seconds", M_GAUGE,
	       "Where the newest evidence of a verdict of this id and level ends, on the data's clock (0: none).");
	for (int id = 0; id < V_COUNT; id++)
		for (int sev = SEV_INFO; sev <= SEV_CRIT; sev++)
			putf(b, "stwtop_verdict_last_evidence_timestamp_seconds{id=\"%s\",level=\"%s\"} %.3f\n",
			     verdict_id_name(id), severity_name(sev), (double)last[id][sev] / 1000.0);
}

static void put_sources(struct metrics_buf *b, const struct session *s, enum metrics_format f)
{
	int n = session_nsources(s);
	family(b, f, "source_lines", M_COUNTER, "Lines read per source: parsed into events, or not understood.");
	for (int i = 0; i < n; i++) {
		const struct source_stats *st = session_source_stats(s, i);
		for (int k = 0; k < 2; k++) {
			puts_(b, "stwtop_source_lines_total{source=\"");
			put_label(b, session_source_path(s, i));
			putf(b, "\",state=\"%s\"} %llu\n", k ? "unparsed" : "parsed",
			     (unsigned long long)(k ? st->unparsed : st->parsed));
		}
	}
	family(b, f, "source_up", M_GAUGE, "1 while the source can be read, 0 when it could not (see the notes).");
	for (int i = 0; i < n; i++) {
		puts_(b, "stwtop_source_up{source=\"");
		put_label(b, session_source_path(s, i));
		putf(b, "\"} %d\n", session_source_stats(s, i)->error ? 0 : 1);
	}
	family(b, f, "source_last_line_timestamp_seconds", M_GAUGE,
	       "When stwtop last read a line (or a sample) of the source, by the wall clock.");
	for (int i = 0; i < n; i++) {
		int64_t t = session_source_stats(s, i)->last_read_ms;
		if (t <= 0)
			continue; /* nothing read yet: no time to give */
		puts_(b, "stwtop_source_last_line_timestamp_seconds{source=\"");
		put_label(b, session_source_path(s, i));
		putf(b, "\"} %.3f\n", (double)t / 1000.0);
	}
}

const char *metrics_features(void)
{
	/* what a build can leave out (CMakeLists.txt): the HTTP server, zstd */
#if defined(STWTOP_HAVE_MHD) && defined(STWTOP_HAVE_ZSTD)
	return "http,zstd";
#elif defined(STWTOP_HAVE_MHD)
	return "http";
#elif defined(STWTOP_HAVE_ZSTD)
	return "zstd";
#else
	return "";
#endif
}

/* the names client libraries give a process's own numbers (Prometheus'
 * "Writing client libraries", process metrics): no stwtop_ prefix */
static void put_process(struct metrics_buf *b, enum metrics_format f, const struct metrics_process *p)
{
	bool om = f == METRICS_OPENMETRICS;
	putf(b, "# HELP process_cpu_seconds%s Total user and system CPU time spent in seconds.\n"
		"# TYPE process_cpu_seconds%s counter\nprocess_cpu_seconds_total %.17g\n",
	     om ? "" : "_total", om ? "" : "_total", p->cpu_seconds);
	putf(b, "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
		"# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %lld\n",
	     (long long)p->rss_bytes);
	putf(b, "# HELP process_virtual_memory_bytes Virtual memory size in bytes.\n"
		"# TYPE process_virtual_memory_bytes gauge\nprocess_virtual_memory_bytes %lld\n",
	     (long long)p->vsize_bytes);
	if (p->open_fds >= 0)
		putf(b, "# HELP process_open_fds Number of open file descriptors.\n"
			"# TYPE process_open_fds gauge\nprocess_open_fds %lld\n", (long long)p->open_fds);
	if (p->max_fds >= 0)
		putf(b, "# HELP process_max_fds Maximum number of open file descriptors.\n"
			"# TYPE process_max_fds gauge\nprocess_max_fds %lld\n", (long long)p->max_fds);
	putf(b, "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n"
		"# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds %.3f\n", p->start_s);
}

int metrics_render(struct metrics_buf *b, const struct session *s, enum metrics_format f,
		   const struct metrics_ctx *ctx)
{
	if (f == METRICS_OPENMETRICS)
		puts_(b, "# HELP stwtop_build stwtop's version, commit and compiled-in features.\n# TYPE stwtop_build info\n");
	else
		puts_(b, "# HELP stwtop_build_info stwtop's version, commit and compiled-in features.\n"
			 "# TYPE stwtop_build_info gauge\n");
	puts_(b, "stwtop_build_info{version=\"");
	put_label(b, STWTOP_VERSION);
	puts_(b, "\",revision=\"");
	put_label(b, STWTOP_REVISION);
	puts_(b, "\",features=\"");
	put_label(b, metrics_features());
	puts_(b, "\"} 1\n");
	if (ctx && ctx->proc)
		put_process(b, f, ctx->proc);
	if (ctx && ctx->textfile_start_s > 0)
		putf(b, "# HELP stwtop_process_start_time_seconds When the stwtop writing this file started (Unix seconds).\n"
			"# TYPE stwtop_process_start_time_seconds gauge\nstwtop_process_start_time_seconds %.3f\n",
		     ctx->textfile_start_s);
	const struct summary *sm = session_summary(s);
	if (have_kind(s, SRC_JVM) || sm->stops || sm->gc_pauses)
		put_jvm(b, s, f);
	if (sm->ctr_samples)
		put_jvm_counters(b, s, f);
	if (sm->throttle_samples || have_kind(s, SRC_CPUSTAT))
		put_cgroup(b, s, f);
	if (have_kind(s, SRC_NGINX) || sm->requests)
		put_nginx(b, s, f);
	put_verdicts(b, s, f, ctx ? ctx->now_ms : EV_TIME_NONE);
	put_sources(b, s, f);
	if (f == METRICS_OPENMETRICS)
		puts_(b, "# EOF\n");
	return b->oom ? -ENOMEM : 0;
}

/* "application/openmetrics-text; version=1.0.0, text/plain;q=0.5": the first
 * media range naming openmetrics with q > 0 wins; anything else is text */
enum metrics_format metrics_format_for_accept(const char *accept)
{
	if (!accept)
		return METRICS_PROMETHEUS;
	for (const char *p = accept; *p;) {
		size_t n = strcspn(p, ",");
		const char *mt = p;
		while (mt < p + n && (*mt == ' ' || *mt == '\t'))
			mt++;
		static const char om[] = "application/openmetrics-text";
		if ((size_t)(p + n - mt) >= sizeof om - 1 && strncasecmp(mt, om, sizeof om - 1) == 0) {
			const char *q = NULL;
			for (const char *x = mt; x + 2 < p + n; x++)
				if (x[0] == ';' ) {
					const char *y = x + 1;
					while (*y == ' ')
						y++;
					if ((y[0] == 'q' || y[0] == 'Q') && y[1] == '=')
						q = y + 2;
				}
			if (!q || strtod(q, NULL) > 0)
				return METRICS_OPENMETRICS;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return METRICS_PROMETHEUS;
}

const char *metrics_content_type(enum metrics_format f)
{
	return f == METRICS_OPENMETRICS ? METRICS_CT_OPENMETRICS : METRICS_CT_PROMETHEUS;
}

int metrics_write_file(const char *path, const struct session *s, const struct metrics_ctx *ctx)
{
	struct metrics_buf b = {0};
	int rc = metrics_render(&b, s, METRICS_PROMETHEUS, ctx);
	if (rc != 0) {
		metrics_buf_fini(&b);
		return rc;
	}
	/* node_exporter reads every *.prom of its directory: the temporary name
	 * must not end so ("name.prom.tmp.PID" is ignored) */
	size_t pl = strlen(path);
	char *tmp = malloc(pl + 32);
	if (!tmp) {
		metrics_buf_fini(&b);
		return -ENOMEM;
	}
	snprintf(tmp, pl + 32, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	for (size_t off = 0; off < b.len;) {
		ssize_t w = write(fd, b.s + off, b.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(tmp);
out:
	free(tmp);
	metrics_buf_fini(&b);
	return rc;
}
