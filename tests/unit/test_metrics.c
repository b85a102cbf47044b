/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_metrics.c — the Prometheus rendering (metrics.h) on a real incident
 * (tests/samples/combined/throttle-stop: G1 + safepoint log, nginx, cpu.stat,
 * schedstat, vmstat): every number equals the one report_json prints for the
 * same session, the text passes `promtool check metrics`, labels are escaped,
 * OpenMetrics has its own family names and "# EOF", and the --metrics
 * address is parsed as documented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <cmocka.h>
#include <jansson.h>

#include "stwtop/metrics.h"
#include "stwtop/metrics_srv.h"
#include "stwtop/report.h"
#include "stwtop/session.h"

#define TS STWTOP_TEST_DIR "/samples/combined/throttle-stop/"

static struct session *incident(void)
{
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE, .nginx_conf = TS "nginx.conf"};
	struct session *s = session_new(&o, err, sizeof err);
	assert_non_null(s);
	static const struct { enum src_kind k; const char *p; } src[] = {
		{SRC_JVM, TS "gc.log"}, {SRC_JVM, TS "console.log"}, {SRC_NGINX, TS "logs/access.log"},
		{SRC_CPUSTAT, TS "cpustat.log"}, {SRC_SCHEDLOG, TS "schedstat.log"}, {SRC_VMSTATLOG, TS "vmstat.log"},
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
		if (session_add_source(s, src[i].k, src[i].p, err, sizeof err) < 0)
			fail_msg("%s: %s", src[i].p, err);
	assert_int_equal(session_run_report(s), 0);
	return s;
}

static json_t *report_of(const struct session *s)
{
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	assert_non_null(f);
	assert_int_equal(report_json(f, s), 0);
	fclose(f);
	json_error_t e;
	json_t *j = json_loads(txt, 0, &e);
	free(txt);
	if (!j)
		fail_msg("report JSON: %s", e.text);
	return j;
}

/* the value of the sample written exactly "series value" (series with its
 * labels as rendered); fails when it is not there */
static double sample(const char *text, const char *series)
{
	size_t n = strlen(series);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, series, n) == 0 && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	fail_msg("no sample %s", series);
	return -1;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static double jnum(json_t *root, const char *path)
{
	json_t *j = root;
	char buf[200];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		j = json_object_get(j, k);
		if (!j)
			fail_msg("report has no %s", path);
	}
	return json_number_value(j);
}

/* the numbers of the report, one by one */
static void test_equals_report(void **state)
{
	(void)state;
	struct session *s = incident();
	json_t *r = report_of(s);
	struct metrics_buf b = {0};
	assert_int_equal(metrics_render(&b, s, METRICS_PROMETHEUS, NULL), 0);
	const char *t = b.s;

	double stops = jnum(r, "summary.stops");
	assert_true(stops > 50); /* the sample's safepoints: a real number, not 0 == 0 */
	assert_null(strstr(t, "stwtop_stops_total")); /* it was the histogram's count (docs/metrics.md) */
	assert_true(sample(t, "stwtop_safepoint_seconds_count") == stops);
	assert_true(sample(t, "stwtop_safepoint_seconds_bucket{le=\"+Inf\"}") == stops);
	assert_true(sample(t, "stwtop_safepoint_sync_seconds_count") == stops);
	assert_true(fabs(sample(t, "stwtop_safepoint_seconds_sum") * 1000 - jnum(r, "summary.total_stop_ms")) < 0.01);
	/* the longest stop (a bit under 1 s here) is the only one above 0.5 s */
	double max_stop = jnum(r, "summary.max_stop_ms") / 1000;
	assert_true(max_stop > 0.5 && max_stop <= 1);
	assert_true(sample(t, "stwtop_safepoint_seconds_bucket{le=\"0.5\"}") == stops - 1);
	assert_true(sample(t, "stwtop_safepoint_seconds_bucket{le=\"1\"}") == stops);

	double pauses = jnum(r, "summary.gc_pauses");
	assert_true(pauses > 0);
	/* one histogram per (collector, kind) that happened: their counts sum to the report's */
	double by_kind = 0;
	for (const char *p = strstr(t, "\nstwtop_gc_pause_seconds_count{"); p; p = strstr(p + 1, "\nstwtop_gc_pause_seconds_count{"))
		by_kind += strtod(strchr(p, '}') + 2, NULL);
	assert_true(by_kind == pauses);
	assert_true(sample(t, "stwtop_gc_pause_seconds_count{collector=\"G1\",kind=\"young\"}") > 0);
	assert_true(sample(t, "stwtop_gc_pause_seconds_bucket{collector=\"G1\",kind=\"young\",le=\"+Inf\"}") ==
		    sample(t, "stwtop_gc_pause_seconds_count{collector=\"G1\",kind=\"young\"}"));
	assert_null(strstr(t, "stwtop_gc_pauses_total"));
	assert_true(fabs(sample(t, "stwtop_heap_committed_bytes") / 1048576 -
			 jnum(r, "summary.heap.committed_last_mb")) < 0.001);

	/* the connect histogram: every request that connected; the report's whole-second
	 * buckets from 2 ("1.5 s or more") are connects over 1 s, so at least that many are
	 * above le="1" (the incident's accept queue: connects of a SYN retry and more) */
	static const char *const bk[] = {"0", "1", "2", "3", "4+"};
	double connected = 0, over_1_5 = 0;
	for (int k = 0; k < 5; k++) {
		char path[80];
		snprintf(path, sizeof path, "summary.nginx.uct_buckets.%s", bk[k]);
		connected += jnum(r, path);
		over_1_5 += k >= 2 ? jnum(r, path) : 0;
	}
	double uct_n = sample(t, "stwtop_nginx_upstream_connect_duration_seconds_count");
	assert_true(uct_n == connected);
	assert_true(uct_n - sample(t, "stwtop_nginx_upstream_connect_duration_seconds_bucket{le=\"1\"}") >= over_1_5);
	assert_true(uct_n - sample(t, "stwtop_nginx_upstream_connect_duration_seconds_bucket{le=\"1\"}") > 0);
	assert_true(sample(t, "stwtop_nginx_requests_without_upstream_connect_total") == jnum(r, "summary.nginx.uct_none"));
	assert_null(strstr(t, "bucket=\""));
	double req = 0;
	static const char *const cls[] = {"1xx", "2xx", "3xx", "4xx", "5xx"};
	for (int k = 0; k < 5; k++) {
		char series[80];
		snprintf(series, sizeof series, "stwtop_nginx_requests_total{status_class=\"%s\"}", cls[k]);
		req += sample(t, series);
	}
	assert_true(req == jnum(r, "summary.nginx.requests"));
	assert_true(sample(t, "stwtop_nginx_request_duration_seconds_count") == jnum(r, "summary.nginx.request_time.count"));

	double thr = jnum(r, "summary.throttle.throttled_ms");
	assert_true(thr > 1000); /* 3 s at 0.05 CPU */
	assert_true(fabs(sample(t, "stwtop_cgroup_cpu_cfs_throttled_seconds_total") * 1000 - thr) < 0.001);
	assert_true(sample(t, "stwtop_cgroup_cpu_cfs_throttled_periods_total") == jnum(r, "summary.throttle.nr_throttled"));
	/* the periods elapsed: more than the throttled ones */
	assert_true(sample(t, "stwtop_cgroup_cpu_cfs_periods_total") > jnum(r, "summary.throttle.nr_throttled"));

	/* verdicts: the report's count of each (id, severity), every other 0 */
	json_t *vs = json_object_get(r, "verdicts");
	assert_true(json_array_size(vs) > 0);
	for (int id = 0; id < V_COUNT; id++)
		for (int sev = SEV_INFO; sev <= SEV_CRIT; sev++) {
			double n = 0;
			size_t i;
			json_t *v;
			json_array_foreach(vs, i, v)
				n += strcmp(json_string_value(json_object_get(v, "id")), verdict_id_name(id)) == 0 &&
				     strcmp(json_string_value(json_object_get(v, "severity")), severity_name(sev)) == 0;
			char series[120];
			snprintf(series, sizeof series, "stwtop_verdicts_total{id=\"%s\",level=\"%s\"}",
				 verdict_id_name(id), severity_name(sev));
			assert_true(sample(t, series) == n);
			/* all of the recording's 46 s are within METRICS_ACTIVE_MS of its end */
			snprintf(series, sizeof series, "stwtop_verdict_active{id=\"%s\",level=\"%s\"}",
				 verdict_id_name(id), severity_name(sev));
			assert_true(sample(t, series) == n);
		}
	assert_true(sample(t, "stwtop_verdicts_total{id=\"cpu-throttled-during-stop\",level=\"crit\"}") +
		    sample(t, "stwtop_verdicts_total{id=\"cpu-throttled-during-stop\",level=\"warn\"}") >= 1);
	assert_null(strstr(t, "severity="));

	/* sources: parsed + unparsed as the report */
	json_t *srcs = json_object_get(r, "sources");
	size_t i;
	json_t *so;
	json_array_foreach(srcs, i, so) {
		char series[600];
		snprintf(series, sizeof series, "stwtop_source_lines_total{source=\"%s\",state=\"parsed\"}",
			 json_string_value(json_object_get(so, "path")));
		assert_true(sample(t, series) == json_number_value(json_object_get(so, "parsed")));
		snprintf(series, sizeof series, "stwtop_source_up{source=\"%s\"}",
			 json_string_value(json_object_get(so, "path")));
		assert_true(sample(t, series) == 1);
	}
	metrics_buf_fini(&b);
	json_decref(r);
	session_free(s);
}

/* buckets are cumulative and end at the count; promtool finds nothing to say */
static void test_promtool(void **state)
{
	(void)state;
	struct session *s = incident();
	char path[] = "/tmp/stwtop-metrics-XXXXXX.prom";
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(metrics_write_file(path, s, NULL), 0);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "promtool check metrics < %s 2>&1", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char out[4096];
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	int rc = pclose(p);
	if (rc != 0 || n != 0)
		fail_msg("promtool check metrics (rc %d): %s", rc, out);
	/* and the file is what metrics_render gives */
	FILE *f = fopen(path, "r");
	char *txt = calloc(1, 1 << 20);
	size_t got = fread(txt, 1, (1 << 20) - 1, f);
	fclose(f);
	struct metrics_buf b = {0};
	metrics_render(&b, s, METRICS_PROMETHEUS, NULL);
	assert_int_equal(got, b.len);
	assert_memory_equal(txt, b.s, got);
	double last = 0;
	for (const char *q = strstr(b.s, "stwtop_safepoint_seconds_bucket"); q && strncmp(q, "stwtop_safepoint_seconds_bucket", 31) == 0;
	     q = strchr(q, '\n') + 1) {
		double v = strtod(strchr(q, '}') + 2, NULL);
		assert_true(v >= last);
		last = v;
	}
	assert_true(last == sample(b.s, "stwtop_safepoint_seconds_count"));
	free(txt);
	metrics_buf_fini(&b);
	unlink(path);
	session_free(s);
}

static void test_openmetrics(void **state)
{
	(void)state;
	struct session *s = incident();
	struct metrics_buf b = {0};
	assert_int_equal(metrics_render(&b, s, METRICS_OPENMETRICS, NULL), 0);
	assert_true(b.len > 6 && strcmp(b.s + b.len - 6, "# EOF\n") == 0);
	assert_true(has_line(b.s, "# TYPE stwtop_verdicts counter"));
	assert_true(has_line(b.s, "# TYPE stwtop_build info"));
	assert_true(has_line(b.s, "# TYPE stwtop_safepoint_seconds histogram"));
	assert_null(strstr(b.s, "# TYPE stwtop_verdicts_total"));
	assert_true(sample(b.s, "stwtop_verdicts_total{id=\"cpu-throttled-during-stop\",level=\"crit\"}") +
		    sample(b.s, "stwtop_verdicts_total{id=\"cpu-throttled-during-stop\",level=\"warn\"}") > 0);
	metrics_buf_reset(&b);
	metrics_render(&b, s, METRICS_PROMETHEUS, NULL);
	assert_true(has_line(b.s, "# TYPE stwtop_verdicts_total counter"));
	assert_null(strstr(b.s, "# EOF"));
	metrics_buf_fini(&b);
	session_free(s);

	assert_int_equal(metrics_format_for_accept(NULL), METRICS_PROMETHEUS);
	assert_int_equal(metrics_format_for_accept("*/*"), METRICS_PROMETHEUS);
	/* what Prometheus 2.42 sends */
	assert_int_equal(metrics_format_for_accept("application/openmetrics-text;version=1.0.0,application/"
						   "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
						   "q=0.5,*/*;q=0.1"), METRICS_OPENMETRICS);
	assert_int_equal(metrics_format_for_accept("text/plain;version=0.0.4;q=1, application/openmetrics-text;q=0"),
			 METRICS_PROMETHEUS);
	assert_string_equal(metrics_content_type(METRICS_OPENMETRICS),
			    "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

/* a path with a quote, a backslash and a newline stays one label value */
static void test_label_escaping(void **state)
{
	(void)state;
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&o, err, sizeof err);
	assert_true(session_add_source(s, SRC_JVM, "/tmp/a\"b\\c\nd.log", err, sizeof err) >= 0);
	struct metrics_buf b = {0};
	assert_int_equal(metrics_render(&b, s, METRICS_PROMETHEUS, NULL), 0);
	assert_true(has_line(b.s, "stwtop_source_up{source=\"/tmp/a\\\"b\\\\c\\nd.log\"} 1"));
	metrics_buf_fini(&b);
	session_free(s);
}

/* verdict_active holds the verdicts of the last 5 minutes of data only;
 * verdicts_total keeps every one */
static void test_active_window(void **state)
{
	(void)state;
	char err[256], line[300];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&o, err, sizeof err);
	int src = session_add_source(s, SRC_JVM, "gen.log", err, sizeof err);
	assert_true(src >= 0);
	/* ten 600 ms pauses (long-gc-pause warn at 500 ms), 70 s apart: the
	 * newest at +630 s, so those ending after +330 s are recent: 5 of them */
	for (int i = 0; i < 10; i++) {
		int n = snprintf(line, sizeof line, "[2026-11-28T01:%02d:%02d.000+0000][%d.000s][info][gc] GC(%d) Pause "
				 "Young (Normal) (G1 Evacuation Pause) 300M->100M(1024M) 600.000ms",
				 i * 70 / 60, i * 70 % 60, 100 + 70 * i, i);
		session_feed_line(s, src, line, (size_t)n, 0, EV_TIME_NONE);
	}
	session_eval(s, session_timeline(s)->newest_ms, true);
	struct metrics_buf b = {0};
	assert_int_equal(metrics_render(&b, s, METRICS_PROMETHEUS, NULL), 0);
	assert_true(sample(b.s, "stwtop_verdicts_total{id=\"long-gc-pause\",level=\"warn\"}") == 10);
	assert_true(sample(b.s, "stwtop_verdict_active{id=\"long-gc-pause\",level=\"warn\"}") == 5);
	assert_true(sample(b.s, "stwtop_gc_pause_seconds_bucket{collector=\"G1\",kind=\"young\",le=\"0.5\"}") == 0);
	assert_true(sample(b.s, "stwtop_gc_pause_seconds_bucket{collector=\"G1\",kind=\"young\",le=\"1\"}") == 10);
	/* the newest evidence: the last pause, 01:10:30 + 600 ms */
	int64_t last_end = session_timeline(s)->newest_ms;
	assert_true(fabs(sample(b.s, "stwtop_verdict_last_evidence_timestamp_seconds{id=\"long-gc-pause\",level=\"warn\"}") -
			 (double)last_end / 1000.0) < 0.001);
	assert_true(sample(b.s, "stwtop_verdict_last_evidence_timestamp_seconds{id=\"ttsp-spike\",level=\"warn\"}") == 0);

	/* the wall clock: read just now, the data's clock is the newest line's (5 hold);
	 * the log quiet for 4 minutes more, the pauses that ended within a minute of the
	 * newest data still hold (its own, at +630 s: 1); quiet 6 minutes, none does (it
	 * used to stay 5 for ever) */
	int64_t read_ms = session_source_stats(s, src)->last_read_ms;
	assert_true(read_ms > 0);
	static const struct {
		int64_t after_ms;
		double active;
	} quiet[] = {{0, 5}, {4 * 60000 + 30000, 1}, {6 * 60000, 0}};
	for (size_t k = 0; k < sizeof quiet / sizeof quiet[0]; k++) {
		struct metrics_ctx ctx = {.now_ms = read_ms + quiet[k].after_ms};
		metrics_buf_reset(&b);
		assert_int_equal(metrics_render(&b, s, METRICS_PROMETHEUS, &ctx), 0);
		assert_true(sample(b.s, "stwtop_verdict_active{id=\"long-gc-pause\",level=\"warn\"}") == quiet[k].active);
		assert_true(sample(b.s, "stwtop_verdicts_total{id=\"long-gc-pause\",level=\"warn\"}") == 10);
	}
	metrics_buf_fini(&b);
	session_free(s);
}

/* no GC log, only the JVM's counters: the jvm_* series, the report's summary
 * and the status object carry the totals since the JVM started; what the JVM
 * has no counter for (ZGC: no young nor full collector, no eden) is absent
 * from /metrics and null in the JSON, never 0 */
static void test_jvm_counters(void **state)
{
	(void)state;
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&o, err, sizeof err);
	int src = session_add_source(s, SRC_PROBE, "hsperfdata", err, sizeof err);
	assert_true(src >= 0);
	struct event e;
	int64_t t0 = 1796600000000;
	for (int i = 0; i < 2; i++) {
		ev_init(&e, EV_JVMCTR);
		e.t_ms = t0 + 1000 * i;
		struct ev_jvmctr *c = &e.u.ctr;
		c->interval_ms = 1000;
		c->heap_used = 6 << 20, c->heap_committed = 256 << 20, c->heap_max = 256 << 20;
		c->gcs = 3, c->gc_ms = 0.3, c->safepoints = 3, c->stop_ms = 40, c->ttsp_ms = 39;
		c->stop_max_ms = 38.5, c->stop_max_ttsp_ms = 37.25, c->stop_max_end = e.t_ms - 20;
		c->stop_max_window_ms = 50, c->stop_max_exact = 1;
		c->collector = GC_ZGC;
		c->tot.gcs[JVM_GC_CONCURRENT] = 22 + i, c->tot.gc_ms[JVM_GC_CONCURRENT] = 1.5;
		c->tot.pauses = 22 + i, c->tot.pause_ms = 1.5;
		c->tot.safepoints = 29 + i, c->tot.safepoint_ms = 2.25, c->tot.safepoint_sync_ms = 34;
		c->tot.stopped_ms = 36.25;
		c->tot.used[JVM_POOL_OLD] = 2 << 20, c->tot.committed[JVM_POOL_OLD] = 256 << 20;
		c->tot.max[JVM_POOL_OLD] = 256 << 20;
		c->tot.used[JVM_POOL_METASPACE] = 240032, c->tot.committed[JVM_POOL_METASPACE] = 458752;
		session_feed_event(s, src, &e);
	}
	struct metrics_buf b = {0};
	assert_int_equal(metrics_render(&b, s, METRICS_PROMETHEUS, NULL), 0);
	assert_true(sample(b.s, "stwtop_jvm_gc_collections_total{type=\"concurrent\"}") == 23);
	assert_true(sample(b.s, "stwtop_jvm_gc_collection_seconds_total{type=\"concurrent\"}") == 0.0015);
	assert_null(strstr(b.s, "type=\"young\""));
	assert_null(strstr(b.s, "type=\"full\""));
	assert_true(sample(b.s, "stwtop_jvm_safepoints_total") == 30);
	assert_true(sample(b.s, "stwtop_jvm_safepoint_seconds_total") == 0.00225);
	assert_true(sample(b.s, "stwtop_jvm_safepoint_sync_seconds_total") == 0.034);
	assert_true(sample(b.s, "stwtop_jvm_memory_used_bytes{pool=\"old\"}") == 2 << 20);
	assert_true(sample(b.s, "stwtop_jvm_memory_max_bytes{pool=\"old\"}") == 256 << 20);
	assert_true(sample(b.s, "stwtop_jvm_memory_committed_bytes{pool=\"metaspace\"}") == 458752);
	assert_null(strstr(b.s, "pool=\"eden\""));
	assert_null(strstr(b.s, "stwtop_jvm_memory_max_bytes{pool=\"metaspace\"}"));
	assert_true(has_line(b.s, "stwtop_jvm_info{collector=\"ZGC\"} 1"));
	assert_true(has_line(b.s, "# TYPE stwtop_jvm_gc_collections_total counter"));
	metrics_buf_fini(&b);
	assert_int_equal(metrics_render(&b, s, METRICS_OPENMETRICS, NULL), 0);
	assert_true(has_line(b.s, "# TYPE stwtop_jvm_gc_collections counter"));
	assert_true(has_line(b.s, "# TYPE stwtop_jvm info"));
	metrics_buf_fini(&b);

	json_t *r = report_of(s);
	assert_string_equal(json_string_value(json_object_get(json_object_get(r, "jvm"), "source")), "hsperfdata");
	assert_string_equal(json_string_value(json_object_get(json_object_get(r, "jvm"), "collector")), "ZGC");
	assert_true(jnum(r, "summary.stops") == 30);
	assert_true(jnum(r, "summary.gc_pauses") == 23);
	assert_true(jnum(r, "summary.max_stop_ms") == 38.5);
	assert_true(jnum(r, "summary.heap.committed_last_mb") == 256);
	json_t *sum = json_object_get(r, "summary");
	assert_true(json_is_null(json_object_get(sum, "max_gc_pause_ms")));
	assert_true(json_is_null(json_object_get(sum, "full_gc_pauses")));
	assert_true(json_is_null(json_object_get(json_object_get(sum, "heap"), "used_after_gc_last_mb")));
	json_t *tot = json_object_get(json_object_get(sum, "jvm_counters"), "since_jvm_start");
	assert_true(json_is_null(json_object_get(json_object_get(json_object_get(tot, "gc"), "young"), "collections")));
	assert_true(jnum(tot, "gc.concurrent.collections") == 23);
	json_decref(r);

	struct report_status_mark m;
	report_status_init(&m);
	char *txt = report_status_json(s, t0 + 1000, &m);
	json_error_t je;
	json_t *st = json_loads(txt, 0, &je);
	free(txt);
	assert_non_null(st);
	assert_true(jnum(st, "stops") == 3);
	assert_true(jnum(st, "max_stop_ms") == 38.5);
	assert_true(jnum(st, "max_ttsp_ms") == 37.25);
	assert_true(jnum(st, "gc_pauses_total") == 23);
	assert_true(jnum(st, "heap_committed_mb") == 256);
	assert_true(json_is_null(json_object_get(st, "heap_used_after_gc_mb")));
	assert_true(jnum(st, "jvm.gcs_since_stwtop") == 6);
	assert_true(jnum(st, "jvm.since_jvm_start.safepoints") == 30);
	json_decref(st);
	session_free(s);
}

static void addr_is(const char *arg, int family, const char *host, int port)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[200], got[64];
	if (metrics_parse_addr(arg, &ss, &sl, err, sizeof err) != 0)
		fail_msg("%s: %s", arg, err);
	assert_int_equal(ss.ss_family, family);
	if (family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
		inet_ntop(AF_INET, &a->sin_addr, got, sizeof got);
		assert_int_equal(ntohs(a->sin_port), port);
	} else {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
		inet_ntop(AF_INET6, &a->sin6_addr, got, sizeof got);
		assert_int_equal(ntohs(a->sin6_port), port);
	}
	assert_string_equal(got, host);
}

static void test_addr(void **state)
{
	(void)state;
	addr_is("9404", AF_INET, "127.0.0.1", 9404);
	addr_is(":9404", AF_INET, "127.0.0.1", 9404);
	addr_is("localhost:1", AF_INET, "127.0.0.1", 1);
	addr_is("0.0.0.0:65535", AF_INET, "0.0.0.0", 65535);
	addr_is("[::1]:9404", AF_INET6, "::1", 9404);
	static const char *const bad[] = {"", ":", "0", "65536", "x:9404", "1.2.3.4:", "[::1]9404", "9404x",
					  "example.com:80"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct sockaddr_storage ss;
		socklen_t sl;
		char err[200] = "";
		if (metrics_parse_addr(bad[i], &ss, &sl, err, sizeof err) == 0)
			fail_msg("'%s' accepted", bad[i]);
		assert_non_null(strstr(err, "--metrics"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equals_report),
		cmocka_unit_test(test_promtool),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_label_escaping),
		cmocka_unit_test(test_active_window),
		cmocka_unit_test(test_jvm_counters),
		cmocka_unit_test(test_addr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
