/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_rules_table.c — each rule on constructed timelines, through the table.
 *
 * The recordings (tests/e2e/verdicts.sh, check-samples) prove the rules on
 * real input; these prove each rule's edges in isolation: it fires on the
 * smallest evidence that should make it, not one step below, and the table's
 * facts (ids, names, kinds, ranks) are what the report and the screen read.
 * Events are built here and fed to a session as a parser would
 * (session_feed_event), then judged as at the end of a report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stwtop/event.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"
#include "stwtop/util.h"

#define T0 1796000000000LL /* 2026-12-02T... : any wall clock */

struct fixture {
	struct session *s;
	int jvm, probe;
	char path[64];
};

static struct fixture *fx_new(bool with_cpu)
{
	struct fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	/* a JVM source must exist for the JVM rules to look: an empty file, never read */
	snprintf(f->path, sizeof f->path, "/tmp/test_rules_table.XXXXXX");
	int fd = mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	char err[256];
	struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
	f->s = session_new(&o, err, sizeof err);
	assert_non_null(f->s);
	f->jvm = session_add_source(f->s, SRC_JVM, f->path, err, sizeof err);
	assert_true(f->jvm >= 0);
	f->probe = with_cpu ? session_add_source(f->s, SRC_PROBE, NULL, err, sizeof err) : -1;
	if (with_cpu)
		assert_true(f->probe >= 0);
	return f;
}

static void fx_free(struct fixture *f)
{
	session_free(f->s);
	unlink(f->path);
	free(f);
}

/* a safepoint ending at end_ms */
static void safepoint(struct fixture *f, int64_t end_ms, double total_ms, double ttsp_ms, const char *op)
{
	struct event e;
	ev_init(&e, EV_SAFEPOINT);
	e.t_ms = end_ms;
	e.u.sp.total_ms = total_ms;
	e.u.sp.ttsp_ms = ttsp_ms;
	e.u.sp.at_ms = total_ms - ttsp_ms;
	e.u.sp.form = SP_UNIFIED;
	snprintf(e.u.sp.op, sizeof e.u.sp.op, "%s", op);
	session_feed_event(f->s, f->jvm, &e);
}

/* a GC pause ending at end_ms, and the safepoint that carried it */
static void gc_pause(struct fixture *f, int64_t end_ms, double dur_ms, int type)
{
	struct event e;
	ev_init(&e, EV_GC_PAUSE);
	e.t_ms = end_ms;
	e.u.pause.dur_ms = dur_ms;
	e.u.pause.type = (uint8_t)type;
	e.u.pause.collector = GC_G1;
	snprintf(e.u.pause.title, sizeof e.u.pause.title, "%s",
		 type == PAUSE_FULL ? "Pause Full" : "Pause Young (Normal)");
	snprintf(e.u.pause.cause, sizeof e.u.pause.cause, "G1 Evacuation Pause");
	session_feed_event(f->s, f->jvm, &e);
	safepoint(f, end_ms, dur_ms + 0.5, 0.1, type == PAUSE_FULL ? "G1CollectFull" : "G1CollectForAllocation");
}

/* a cgroup cpu.stat sample at t_ms with cumulative throttled time */
static void cpu_sample(struct fixture *f, int64_t t_ms, int64_t periods, int64_t throttled_periods,
		       int64_t throttled_us)
{
	struct event e;
	ev_init(&e, EV_CPU);
	e.t_ms = t_ms;
	e.u.cpu.nr_periods = periods;
	e.u.cpu.nr_throttled = throttled_periods;
	e.u.cpu.throttled_us = throttled_us;
	e.u.cpu.usage_us = periods * 80000;
	e.u.cpu.quota_us = 80000;
	e.u.cpu.period_us = 100000;
	e.u.cpu.cg_version = 1;
	session_feed_event(f->s, f->probe, &e);
}

/* a 1 s interval of the JVM's counters ending at t_ms whose longest stop
 * (hsperf_stops_step) ended in the 100 ms before end_ms */
static void ctr_read(struct fixture *f, int64_t t_ms, double stop_max_ms, double ttsp_ms, int64_t end_ms,
		     bool exact)
{
	struct event e;
	ev_init(&e, EV_JVMCTR);
	e.t_ms = t_ms;
	e.u.ctr.interval_ms = 1000;
	e.u.ctr.safepoints = 1;
	e.u.ctr.stop_ms = stop_max_ms;
	e.u.ctr.ttsp_ms = ttsp_ms;
	e.u.ctr.stop_max_ms = stop_max_ms;
	e.u.ctr.stop_max_ttsp_ms = ttsp_ms;
	e.u.ctr.stop_max_end = end_ms;
	e.u.ctr.stop_max_window_ms = 100;
	e.u.ctr.stop_max_exact = exact;
	session_feed_event(f->s, f->probe, &e);
}

/* judged as at the end of a report */
static void judge_final(struct fixture *f, int64_t now_ms)
{
	session_eval(f->s, now_ms, true);
}

static const struct verdict *find(const struct fixture *f, int id)
{
	const struct rules *r = session_rules(f->s);
	for (size_t i = 0; i < rules_count(r); i++)
		if (rules_at(r, i)->id == id)
			return rules_at(r, i);
	return NULL;
}

static int count(const struct fixture *f, int id)
{
	const struct rules *r = session_rules(f->s);
	int n = 0;
	for (size_t i = 0; i < rules_count(r); i++)
		n += rules_at(r, i)->id == id;
	return n;
}

/* ------------------------------------------------------------ the table */

static void test_table_facts(void **state)
{
	(void)state;
	bool seen_name[V_COUNT] = {0};
	int last_incident_rank = -1;
	for (int id = 0; id < V_COUNT; id++) {
		const struct verdict_info *vi = verdict_info(id);
		assert_non_null(vi);
		assert_int_equal(vi->id, id);
		/* the name is the contract's id and maps back */
		assert_int_equal(verdict_id_from_name(vi->name), id);
		assert_string_equal(verdict_id_name(id), vi->name);
		assert_false(seen_name[id]);
		seen_name[id] = true;
		assert_int_equal(verdict_rank(id), vi->rank);
		if (vi->kind == VERDICT_INCIDENT) {
			assert_true(verdict_is_incident(id));
			if (vi->rank > last_incident_rank)
				last_incident_rank = vi->rank;
		} else {
			assert_false(verdict_is_incident(id));
			assert_false(vi->explains_stop);
		}
	}
	/* every whole-run verdict reads after every incident verdict */
	for (int id = 0; id < V_COUNT; id++)
		if (!verdict_is_incident(id))
			assert_true(verdict_rank(id) > last_incident_rank);
	assert_null(verdict_info(V_COUNT));
	assert_null(verdict_info(-1));
	assert_int_equal(verdict_id_from_name("no-such-verdict"), -1);
	/* what explains a stop: the stop's kind and its causes, not its cost */
	assert_true(verdict_info(V_LONG_GC_PAUSE)->explains_stop);
	assert_true(verdict_info(V_CPU_THROTTLED)->explains_stop);
	assert_true(verdict_info(V_LONG_VM_OPERATION)->explains_stop);
	assert_false(verdict_info(V_ACCEPT_QUEUE)->explains_stop);
}

/* ------------------------------------------------------------ long-gc-pause */

static void test_long_gc_pause_edges(void **state)
{
	(void)state;
	struct rules_config d;
	rules_config_defaults(&d);
	/* just under the warning: a 499 ms pause is not a verdict */
	struct fixture *f = fx_new(false);
	gc_pause(f, T0 + 10000, d.long_pause_warn_ms - 1, PAUSE_YOUNG);
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_LONG_GC_PAUSE));
	fx_free(f);

	/* at the warning: warn, with the pause's own time in it */
	f = fx_new(false);
	gc_pause(f, T0 + 10000, d.long_pause_warn_ms, PAUSE_YOUNG);
	judge_final(f, T0 + 60000);
	const struct verdict *v = find(f, V_LONG_GC_PAUSE);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_WARN);
	assert_true(v->start_ms <= T0 + 10000 - (int64_t)d.long_pause_warn_ms + 1);
	assert_true(v->end_ms >= T0 + 10000);
	fx_free(f);

	/* at the critical bound: crit */
	f = fx_new(false);
	gc_pause(f, T0 + 10000, d.long_pause_crit_ms, PAUSE_FULL);
	judge_final(f, T0 + 60000);
	v = find(f, V_LONG_GC_PAUSE);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_CRIT);
	fx_free(f);
}

/* two long pauses further apart than incident_gap_ms are two incidents, two
 * verdicts; closer, one */
static void test_incident_gap(void **state)
{
	(void)state;
	struct rules_config d;
	rules_config_defaults(&d);
	struct fixture *f = fx_new(false);
	gc_pause(f, T0 + 10000, 800, PAUSE_YOUNG);
	gc_pause(f, T0 + 10000 + (int64_t)d.incident_gap_ms + 2000, 800, PAUSE_YOUNG);
	judge_final(f, T0 + 120000);
	assert_int_equal(count(f, V_LONG_GC_PAUSE), 2);
	fx_free(f);

	f = fx_new(false);
	gc_pause(f, T0 + 10000, 800, PAUSE_YOUNG);
	gc_pause(f, T0 + 12000, 900, PAUSE_YOUNG);
	judge_final(f, T0 + 120000);
	assert_int_equal(count(f, V_LONG_GC_PAUSE), 1);
	fx_free(f);
}

/* ------------------------------------------------------------ ttsp-spike */

static void test_ttsp_spike_edges(void **state)
{
	(void)state;
	struct rules_config d;
	rules_config_defaults(&d);
	/* 900 ms reaching the safepoint of a 1000 ms stop: a spike, warn */
	struct fixture *f = fx_new(false);
	safepoint(f, T0 + 10000, 1000, 900, "ThreadDump");
	judge_final(f, T0 + 60000);
	const struct verdict *v = find(f, V_TTSP_SPIKE);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_WARN);
	assert_null(find(f, V_LONG_GC_PAUSE));
	fx_free(f);

	/* the same TTSP in a stop where it is under ttsp_share: the operation
	 * was the stop, not reaching it */
	f = fx_new(false);
	double total = 900 / d.ttsp_share + 400;
	safepoint(f, T0 + 10000, total, 900, "ThreadDump");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_TTSP_SPIKE));
	fx_free(f);

	/* under ttsp_warn_ms: nothing */
	f = fx_new(false);
	safepoint(f, T0 + 10000, 150, d.ttsp_warn_ms - 1, "ThreadDump");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_TTSP_SPIKE));
	fx_free(f);

	/* at ttsp_crit_ms: crit */
	f = fx_new(false);
	safepoint(f, T0 + 10000, d.ttsp_crit_ms + 50, d.ttsp_crit_ms, "ThreadDump");
	judge_final(f, T0 + 60000);
	v = find(f, V_TTSP_SPIKE);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_CRIT);
	fx_free(f);
}

/* ------------------------------------------------------------ long-vm-operation */

/* a collection the tool ran inside its stop: a pause with its cause, no safepoint of its own */
static void tool_pause(struct fixture *f, int64_t end_ms, double dur_ms, const char *cause)
{
	struct event e;
	ev_init(&e, EV_GC_PAUSE);
	e.t_ms = end_ms;
	e.u.pause.dur_ms = dur_ms;
	e.u.pause.type = PAUSE_FULL;
	e.u.pause.collector = GC_G1;
	e.u.pause.before_kb = 799 * 1024;
	e.u.pause.after_kb = 531 * 1024;
	e.u.pause.committed_kb = 1024 * 1024;
	e.u.pause.flags = PAUSE_F_HEAP | PAUSE_F_SYSTEM_GC;
	snprintf(e.u.pause.title, sizeof e.u.pause.title, "Pause Full");
	snprintf(e.u.pause.cause, sizeof e.u.pause.cause, "%s", cause);
	session_feed_event(f->s, f->jvm, &e);
}

static void test_long_vm_operation(void **state)
{
	(void)state;
	struct rules_config d;
	rules_config_defaults(&d);
	/* a heap dump of 1.5 s: crit, the whole stop and the operation in the headline */
	struct fixture *f = fx_new(false);
	safepoint(f, T0 + 10000, 1500, 0.1, "HeapDumper");
	judge_final(f, T0 + 60000);
	const struct verdict *v = find(f, V_LONG_VM_OPERATION);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_CRIT);
	assert_non_null(strstr(v->title, "1.50 s"));
	assert_non_null(strstr(v->title, "\"HeapDumper\""));
	assert_non_null(strstr(v->title, "HeapDumpOnOutOfMemoryError"));
	assert_null(find(f, V_TTSP_SPIKE));
	assert_null(find(f, V_LONG_GC_PAUSE));
	fx_free(f);

	/* at vmop_warn_ms: warn; one below: nothing */
	f = fx_new(false);
	safepoint(f, T0 + 10000, d.vmop_warn_ms, 0.1, "PrintThreads");
	judge_final(f, T0 + 60000);
	v = find(f, V_LONG_VM_OPERATION);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_WARN);
	assert_non_null(strstr(v->title, "jstack"));
	fx_free(f);
	f = fx_new(false);
	safepoint(f, T0 + 10000, d.vmop_warn_ms - 1, 0.1, "PrintThreads");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_LONG_VM_OPERATION));
	fx_free(f);

	/* a collection's operation is long-gc-pause's, whatever its length */
	f = fx_new(false);
	gc_pause(f, T0 + 10000, 1500, PAUSE_FULL);
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_LONG_VM_OPERATION));
	assert_non_null(find(f, V_LONG_GC_PAUSE));
	fx_free(f);

	/* reaching the safepoint was the stop: ttsp-spike's alone; long in both parts: both */
	f = fx_new(false);
	safepoint(f, T0 + 10000, 1000, 1000 - d.vmop_warn_ms + 1, "RedefineClasses");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_LONG_VM_OPERATION));
	assert_non_null(find(f, V_TTSP_SPIKE));
	fx_free(f);
	f = fx_new(false);
	safepoint(f, T0 + 10000, 2000, 1500, "RedefineClasses");
	judge_final(f, T0 + 60000);
	assert_non_null(find(f, V_LONG_VM_OPERATION));
	assert_non_null(find(f, V_TTSP_SPIKE));
	fx_free(f);

	/* jmap -histo:live: a 1040 ms stop, 561 ms of it the Full GC. The stop is
	 * told whole, the collection inside it with its share; no long-gc-pause
	 * of its own, no System.gc() flags in the advice */
	f = fx_new(false);
	tool_pause(f, T0 + 10990, 561, "Heap Inspection Initiated GC");
	safepoint(f, T0 + 11000, 1040, 0.6, "GC_HeapInspection");
	judge_final(f, T0 + 60000);
	v = find(f, V_LONG_VM_OPERATION);
	assert_non_null(v);
	assert_non_null(strstr(v->title, "1.04 s"));
	assert_non_null(strstr(v->title, "jmap -histo"));
	bool shared = false;
	for (int i = 0; i < v->nevidence; i++)
		shared = shared || strstr(v->evidence[i], "the collection 54%") != NULL;
	assert_true(shared);
	assert_non_null(strstr(v->advice, "do not prevent"));
	assert_null(find(f, V_LONG_GC_PAUSE));
	fx_free(f);

	/* ... where the collection is the long part (vmop_gc_share), it is a
	 * long-gc-pause too, and its advice names the tool, not System.gc() */
	f = fx_new(false);
	double gc = d.vmop_gc_share * 1040 + 1;
	tool_pause(f, T0 + 10990, gc, "Heap Inspection Initiated GC");
	safepoint(f, T0 + 11000, 1040, 0.6, "GC_HeapInspection");
	judge_final(f, T0 + 60000);
	assert_non_null(find(f, V_LONG_VM_OPERATION));
	v = find(f, V_LONG_GC_PAUSE);
	assert_non_null(v);
	assert_non_null(strstr(v->advice, "jmap -histo:live"));
	assert_non_null(strstr(v->advice, "do not prevent"));
	fx_free(f);

	/* a name in no VM_OPS_DO list: told, unless a collector's prefix says GC */
	f = fx_new(false);
	safepoint(f, T0 + 10000, 800, 0.1, "VendorSnapshot");
	judge_final(f, T0 + 60000);
	v = find(f, V_LONG_VM_OPERATION);
	assert_non_null(v);
	bool listed = false;
	for (int i = 0; i < v->nevidence; i++)
		listed = listed || strstr(v->evidence[i], "in no VM_OPS_DO list") != NULL;
	assert_true(listed);
	fx_free(f);
	f = fx_new(false);
	safepoint(f, T0 + 10000, 800, 0.1, "ZMarkStartFuture");
	safepoint(f, T0 + 30000, 800, 0.1, "no vm operation");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_LONG_VM_OPERATION));
	fx_free(f);
}

/* ------------------------------------------------ cpu-throttled-during-stop */

/* cpu.stat once a second from 0 to 20 s; throttled time grows by
 * growth_ms over the second holding the stop (9-10 s) */
static void cpu_series(struct fixture *f, int64_t growth_ms)
{
	int64_t thr_us = 0, thr_n = 0;
	for (int s = 0; s <= 20; s++) {
		if (s == 10) {
			thr_us += growth_ms * 1000;
			thr_n += growth_ms > 0 ? 10 : 0;
		}
		cpu_sample(f, T0 + s * 1000, (int64_t)s * 10, thr_n, thr_us);
	}
}

static void test_cpu_throttled_edges(void **state)
{
	(void)state;
	/* a 600 ms stop (TTSP 500 ms) while throttled time grew 400 ms */
	struct fixture *f = fx_new(true);
	cpu_series(f, 400);
	safepoint(f, T0 + 9800, 600, 500, "G1CollectForAllocation");
	judge_final(f, T0 + 60000);
	const struct verdict *v = find(f, V_CPU_THROTTLED);
	assert_non_null(v);
	assert_true(v->start_ms <= T0 + 9200 && v->end_ms >= T0 + 9800);
	assert_non_null(find(f, V_TTSP_SPIKE));
	fx_free(f);

	/* the same stop, the cgroup never throttled: no throttling verdict,
	 * the TTSP spike stays */
	f = fx_new(true);
	cpu_series(f, 0);
	safepoint(f, T0 + 9800, 600, 500, "G1CollectForAllocation");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_CPU_THROTTLED));
	assert_non_null(find(f, V_TTSP_SPIKE));
	fx_free(f);

	/* the bounds: throttled time must be >= throttle_share of the window
	 * bracketing the stop (the 1 s between the samples 9 s and 10 s):
	 * 40 ms (4 %) is not throttling, 60 ms (6 %) is */
	f = fx_new(true);
	cpu_series(f, 40);
	safepoint(f, T0 + 9800, 600, 500, "G1CollectForAllocation");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_CPU_THROTTLED));
	fx_free(f);
	f = fx_new(true);
	cpu_series(f, 60);
	safepoint(f, T0 + 9800, 600, 500, "G1CollectForAllocation");
	judge_final(f, T0 + 60000);
	assert_non_null(find(f, V_CPU_THROTTLED));
	fx_free(f);

	/* no cgroup source at all: it cannot say, and says nothing */
	f = fx_new(false);
	safepoint(f, T0 + 9800, 600, 500, "G1CollectForAllocation");
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_CPU_THROTTLED));
	fx_free(f);
}

/* The headline pairs a duration with its own stop: a 131 ms stop before the
 * quota cut, then a throttled 301 ms stop 3.4 s later, in one incident: the
 * title names 301 ms at the second stop's time, not at the first's (a user
 * saw "The 301 ms stop at <the 131 ms stop's time>"). */
static void test_throttled_headline_names_its_stop(void **state)
{
	(void)state;
	struct fixture *f = fx_new(true);
	int64_t thr_us = 0;
	for (int s = 0; s <= 20; s++) {
		if (s == 10)
			thr_us += 250 * 1000;   /* throttled only in 9-10 s */
		cpu_sample(f, T0 + s * 1000, (int64_t)s * 10, s >= 10 ? 10 : 0, thr_us);
	}
	safepoint(f, T0 + 6191, 131, 120, "G1CollectForAllocation");   /* [6060, 6191] */
	safepoint(f, T0 + 9769, 301, 290, "G1CollectForAllocation");   /* [9468, 9769] */
	judge_final(f, T0 + 60000);
	const struct verdict *v = find(f, V_CPU_THROTTLED);
	assert_non_null(v);
	char first[16], second[16];
	util_fmt_hms_ms(T0 + 6060, first, sizeof first);
	util_fmt_hms_ms(T0 + 9468, second, sizeof second);
	/* the title keeps its times as instants: rendered as a reader sees them */
	char title[2 * VERDICT_TITLE_LEN];
	util_expand_times(title, sizeof title, v->title, strlen(v->title), UTIL_TIMES_OFFSET);
	if (!strstr(title, "301 ms stop at") || !strstr(title, second) || strstr(title, first))
		fail_msg("headline pairs the wrong stop: %s (want 301 ms at %s)", title, second);
	fx_free(f);
}

/* ------------------------------------------------------------ whole run */

/* ------------------------------------------- stops from the JVM's counters */

static void test_counter_stops(void **state)
{
	(void)state;
	char title[2 * VERDICT_TITLE_LEN];
	/* a 9 s stop, 8.9 s of it reaching the safepoint, that the counters saw
	 * end between two reads 100 ms apart, while the cgroup was throttled: a
	 * crit ttsp-spike and the throttling, both saying where they come from */
	struct fixture *f = fx_new(true);
	cpu_series(f, 900);
	for (int s = 1; s <= 10; s++)
		ctr_read(f, T0 + s * 1000, 0, 0, -1, false);
	ctr_read(f, T0 + 11000, 9000, 8900, T0 + 10400, true);
	ctr_read(f, T0 + 12000, 0, 0, -1, false);
	judge_final(f, T0 + 60000);
	const struct verdict *v = find(f, V_TTSP_SPIKE);
	assert_non_null(v);
	assert_int_equal(v->severity, SEV_CRIT);
	util_expand_times(title, sizeof title, v->title, strlen(v->title), UTIL_TIMES_OFFSET);
	assert_non_null(strstr(title, "ending between 00:53:30.300 and 00:53:30.400"));
	assert_non_null(strstr(title, "counters"));
	assert_null(strstr(title, "at least"));
	/* the counters' evidence whole (issue 26: it ended "its operation is not na") */
	bool whole = false;
	for (int i = 0; i < v->nevidence; i++)
		if (strstr(v->evidence[i], "reads at")) {
			size_t n = strlen(v->evidence[i]);
			assert_true(n > 27);
			assert_string_equal(v->evidence[i] + n - 27, "its operation is not named)");
			whole = true;
		}
	assert_true(whole);
	v = find(f, V_CPU_THROTTLED);
	assert_non_null(v);
	assert_true(v->start_ms <= T0 + 1400 && v->end_ms >= T0 + 10400);
	/* the summary's stops are logged ones only */
	assert_int_equal(session_summary(f->s)->stops, 0);
	fx_free(f);

	/* lower bounds: said as such */
	f = fx_new(true);
	ctr_read(f, T0 + 1000, 0, 0, -1, false);
	ctr_read(f, T0 + 3000, 1600, 1500, T0 + 2700, false);
	judge_final(f, T0 + 60000);
	v = find(f, V_TTSP_SPIKE);
	assert_non_null(v);
	util_expand_times(title, sizeof title, v->title, strlen(v->title), UTIL_TIMES_OFFSET);
	assert_non_null(strstr(title, "at least 1.6"));
	fx_free(f);

	/* a 3 s stop, 50 ms of it reaching the safepoint: no ttsp-spike */
	f = fx_new(true);
	ctr_read(f, T0 + 4000, 3000, 50, T0 + 3900, true);
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_TTSP_SPIKE));
	fx_free(f);

	/* a safepoint log wins: once it gave a stop, the counters make none */
	f = fx_new(true);
	safepoint(f, T0 + 500, 2, 0.1, "Cleanup");
	ctr_read(f, T0 + 11000, 9000, 8900, T0 + 10400, true);
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_TTSP_SPIKE));
	fx_free(f);
}

static void test_serial_gc_selected(void **state)
{
	(void)state;
	struct fixture *f = fx_new(false);
	struct event e;
	ev_init(&e, EV_JVM_INFO);
	e.t_ms = T0 + 100;
	e.u.info.key = JI_COLLECTOR;
	e.u.info.a = GC_SERIAL;
	snprintf(e.u.info.text, sizeof e.u.info.text, "Serial");
	session_feed_event(f->s, f->jvm, &e);
	gc_pause(f, T0 + 2000, 12, PAUSE_YOUNG);
	judge_final(f, T0 + 60000);
	assert_non_null(find(f, V_SERIAL_GC));
	assert_null(find(f, V_G1_NOT_SHRINKING));
	fx_free(f);

	/* G1: not this verdict */
	f = fx_new(false);
	ev_init(&e, EV_JVM_INFO);
	e.t_ms = T0 + 100;
	e.u.info.key = JI_COLLECTOR;
	e.u.info.a = GC_G1;
	snprintf(e.u.info.text, sizeof e.u.info.text, "G1");
	session_feed_event(f->s, f->jvm, &e);
	gc_pause(f, T0 + 2000, 12, PAUSE_YOUNG);
	judge_final(f, T0 + 60000);
	assert_null(find(f, V_SERIAL_GC));
	fx_free(f);
}

/* a healthy JVM: many short pauses, nothing to say */
/* one nginx request ending at end_ms: 200 connected at once, or 504 after a
 * 1 s connect timeout ($upstream_connect_time "-") */
static void http_req(struct fixture *f, int ng, int64_t end_ms, bool timeout)
{
	struct event e;
	ev_init(&e, EV_HTTP);
	e.t_ms = end_ms;
	e.u.http.status = timeout ? 504 : 200;
	e.u.http.upstream_status = timeout ? 504 : 200;
	e.u.http.uct_n = 1;
	e.u.http.uct_dash = timeout;
	e.u.http.uct_ms = timeout ? -1 : 1;
	e.u.http.rt_ms = timeout ? 1000 : 3;
	e.u.http.uht_ms = timeout ? -1 : 3;
	e.u.http.urt_ms = timeout ? 1000 : 3;
	e.u.http.t_exact = 1;
	session_feed_event(f->s, ng, &e);
}

/* 20 requests/s for 40 s, those starting in [to_a, to_b) time out connecting,
 * with a Full GC of stop_ms from stop_at, fed in time order (by end) and
 * judged once a second as a report does */
static void http_load(struct fixture *f, int ng, int64_t to_a, int64_t to_b, int64_t stop_at, int64_t stop_ms)
{
	bool stopped = false;
	int64_t next_eval = T0 + 1000;
	for (int64_t t = T0; t < T0 + 40000; t += 50) {
		bool timeout = t >= to_a && t < to_b;
		int64_t end = t + (timeout ? 1000 : 3);
		if (!stopped && end >= T0 + stop_at + stop_ms) {
			gc_pause(f, T0 + stop_at + stop_ms, (double)stop_ms, PAUSE_FULL);
			stopped = true;
		}
		http_req(f, ng, end, timeout);
		if (end >= next_eval) {
			session_eval(f->s, next_eval, false);
			next_eval += 1000;
		}
	}
}

/* connect-timeout-504 blames a JVM stop only when the stop can explain the
 * timeouts (issue 24: a dead acceptor's 504s were "during the stop" of a
 * 0.2 s GC, with a backlog sized from it) */
static void test_connect_504_blames_only_a_stop_that_explains(void **state)
{
	(void)state;
	static const struct {
		int64_t stop_at, stop_ms, to_a, to_b;
		bool explains;
	} t[] = {
		/* a 2 s stop; the connects that start in it time out: the stop */
		{10000, 2000, 10300, 12000, true},
		/* the same timeouts beside a 0.2 s stop: far shorter than the 1 s wait */
		{10000, 200, 10300, 12000, false},
		/* a 2 s stop, and timeouts for 20 s after it: the upstream stopped accepting */
		{10000, 2000, 10300, 32000, false},
		/* a stop half the 1 s wait is still a cause (aq_explain_share 0.5) */
		{10000, 600, 10100, 10700, true},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct fixture *f = fx_new(false);
		char err[256], ng_path[64];
		snprintf(ng_path, sizeof ng_path, "/tmp/test_rules_table_ng.XXXXXX");
		int fd = mkstemp(ng_path);
		assert_true(fd >= 0);
		close(fd);
		int ng = session_add_source(f->s, SRC_NGINX, ng_path, err, sizeof err);
		assert_true(ng >= 0);
		/* the stop's events come in time order with the requests' */
		http_load(f, ng, T0 + t[i].to_a, T0 + t[i].to_b, t[i].stop_at, t[i].stop_ms);
		session_eval(f->s, T0 + 60000, true);
		const struct verdict *v = find(f, V_CONNECT_504);
		if (!v)
			fail_msg("case %zu: no connect-timeout-504", i);
		bool during = strstr(v->title, "during the stop") != NULL;
		bool sized = strstr(v->advice, "backlog above") != NULL;
		bool says_none = strstr(v->title, "no JVM stop explains it") != NULL;
		if (during != t[i].explains || sized != t[i].explains || says_none == t[i].explains)
			fail_msg("case %zu: %s / %s", i, v->title, v->advice);
		fx_free(f);
		unlink(ng_path);
	}
}

/* The backlog is sized from the run of stops around the longest, not the
 * incident's whole extent: a 0.2 s GC 2.8 s before a 3 s one (one incident,
 * 5 s gap) left the JVM running and accepting in between (issue 24 point 7:
 * a 118 ms GC 4 s before the hung pause made "the JVM stop: 10.91 s") */
static void test_connect_504_sized_by_the_longest_run(void **state)
{
	(void)state;
	struct fixture *f = fx_new(false);
	char err[256], ng_path[64];
	snprintf(ng_path, sizeof ng_path, "/tmp/test_rules_table_ng.XXXXXX");
	int fd = mkstemp(ng_path);
	assert_true(fd >= 0);
	close(fd);
	int ng = session_add_source(f->s, SRC_NGINX, ng_path, err, sizeof err);
	assert_true(ng >= 0);
	gc_pause(f, T0 + 5200, 200, PAUSE_YOUNG);
	http_load(f, ng, T0 + 8300, T0 + 11000, 8000, 3000);
	session_eval(f->s, T0 + 60000, true);
	const struct verdict *v = find(f, V_CONNECT_504);
	if (!v)
		fail_msg("no connect-timeout-504");
	bool three = false;
	for (int i = 0; i < v->nevidence; i++)
		three |= strstr(v->evidence[i], "the JVM stop: 3.00 s") != NULL;
	if (!strstr(v->title, "during the stop") || !three)
		fail_msg("%s / %s", v->title, v->nevidence > 1 ? v->evidence[1] : "");
	fx_free(f);
	unlink(ng_path);
}

/* an nginx request started at start_ms: 'o' 200 at once, 't' 504 after a 1 s
 * connect timeout, 'r' 502 refused at once (no upstream connection) */
static void http_one(struct fixture *f, int ng, int64_t start_ms, char kind)
{
	struct event e;
	ev_init(&e, EV_HTTP);
	e.t_ms = start_ms + (kind == 't' ? 1000 : kind == 'o' ? 3 : 0);
	e.u.http.status = kind == 't' ? 504 : kind == 'o' ? 200 : 502;
	e.u.http.upstream_status = e.u.http.status;
	e.u.http.uct_n = 1;
	e.u.http.uct_dash = kind != 'o';
	e.u.http.uct_ms = kind == 'o' ? 1 : -1;
	e.u.http.rt_ms = kind == 't' ? 1000 : kind == 'o' ? 3 : 0;
	e.u.http.uht_ms = kind == 'o' ? 3 : -1;
	e.u.http.urt_ms = kind == 'o' ? 3 : kind == 't' ? 1000 : 0;
	e.u.http.t_exact = 1;
	session_feed_event(f->s, ng, &e);
}

/* A GC log whose last line is a pause's start line (PAUSE_F_OPEN, no length
 * from the log), and nginx in front: from that start the upstream answered
 * nothing, nginx's connects timed out (SYNs dropped), then were refused (the
 * JVM killed). The timeouts are the pause's, not "no JVM stop overlaps them"
 * (issue 24 point 7, recordings/pause-never-ended-nginx), and the pause is a
 * long-gc-pause as long as nginx saw the upstream held, also when a report
 * reads a long tail of nginx after it; where the upstream answered again
 * after the start, the pause had ended and makes no stop. */
static void test_connect_504_in_a_pause_that_never_ended(void **state)
{
	(void)state;
	/* answered 2: as a report reads it (session_replay_open holds the open
	 * pause until the end) with a minute of refused requests after the kill,
	 * judged once a second: the incident must not be final before the pause
	 * is known */
	for (int answered = 0; answered <= 2; answered++) {
		bool report = answered == 2;
		struct fixture *f = fx_new(false);
		char err[256], ng_path[64];
		snprintf(ng_path, sizeof ng_path, "/tmp/test_rules_table_ng.XXXXXX");
		int fd = mkstemp(ng_path);
		assert_true(fd >= 0);
		close(fd);
		int ng = session_add_source(f->s, SRC_NGINX, ng_path, err, sizeof err);
		assert_true(ng >= 0);
		if (report)
			assert_int_equal(session_replay_open(f->s), 0);
		for (int64_t t = 1000; t < 10000; t += 500)
			gc_pause(f, T0 + t + 10, 10, PAUSE_YOUNG);
		struct event e;
		ev_init(&e, EV_GC_PAUSE);
		e.t_ms = T0 + 10000; /* the log's last sign of life: its own start line */
		e.u.pause.dur_ms = 0;
		e.u.pause.type = PAUSE_YOUNG;
		e.u.pause.collector = GC_SERIAL;
		e.u.pause.flags = PAUSE_F_OPEN;
		snprintf(e.u.pause.title, sizeof e.u.pause.title, "Pause Young");
		snprintf(e.u.pause.cause, sizeof e.u.pause.cause, "Allocation Failure");
		session_feed_event(f->s, f->jvm, &e);
		/* 20 requests/s: served, then (from 12.5 s: the accept queue full)
		 * connect timeouts until the kill at 17.5 s, then refused; or, with
		 * answered, served again from 14 s on */
		int64_t next_eval = T0 + 1000;
		for (int64_t t = 0; t < (report ? 90000 : 30000); t += 50) {
			char k = t < 10000 ? 'o' : t < 12500 ? 'q' : t < 17500 ? 't' : 'r';
			if (answered == 1 && t >= 14000)
				k = 'o';
			if (k == 'q')
				continue; /* in the accept queue: a read timeout later, left out here */
			http_one(f, ng, T0 + t, k);
			if (report && T0 + t >= next_eval) {
				session_eval(f->s, next_eval, false);
				next_eval += 1000;
			}
		}
		if (report)
			session_replay_finish(f->s);
		else
			session_eval(f->s, T0 + 60000, true);
		const struct verdict *v = find(f, V_CONNECT_504);
		if (!v)
			fail_msg("answered %d: no connect-timeout-504", answered);
		bool during = strstr(v->title, "during the stop") != NULL;
		bool none = false;
		for (int i = 0; i < v->nevidence; i++)
			none |= strstr(v->evidence[i], "no JVM stop") != NULL;
		if (during == (answered == 1) || none != (answered == 1))
			fail_msg("answered %d: %s / %s", answered, v->title, v->nevidence > 1 ? v->evidence[1] : "");
		/* and the pause is a long-gc-pause from 10 s to at least 17.45 s (the last
		 * connect held), crit; none where the upstream answered again */
		const struct verdict *p = find(f, V_LONG_GC_PAUSE);
		if (answered == 1 ? p != NULL :
			       !p || p->severity != SEV_CRIT || !strstr(p->title, "at least 7.45 s in a GC pause that never ended"))
			fail_msg("answered %d: long-gc-pause %s", answered, p ? p->title : "(none)");
		fx_free(f);
		unlink(ng_path);
	}
}

static void test_healthy_says_nothing(void **state)
{
	(void)state;
	struct fixture *f = fx_new(true);
	cpu_series(f, 0);
	for (int i = 0; i < 200; i++)
		gc_pause(f, T0 + 100 + i * 97, 4 + i % 7, PAUSE_YOUNG);
	judge_final(f, T0 + 60000);
	assert_int_equal(rules_count(session_rules(f->s)), 0);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_facts),
		cmocka_unit_test(test_long_gc_pause_edges),
		cmocka_unit_test(test_incident_gap),
		cmocka_unit_test(test_ttsp_spike_edges),
		cmocka_unit_test(test_long_vm_operation),
		cmocka_unit_test(test_counter_stops),
		cmocka_unit_test(test_cpu_throttled_edges),
		cmocka_unit_test(test_throttled_headline_names_its_stop),
		cmocka_unit_test(test_serial_gc_selected),
		cmocka_unit_test(test_connect_504_blames_only_a_stop_that_explains),
		cmocka_unit_test(test_connect_504_in_a_pause_that_never_ended),
		cmocka_unit_test(test_connect_504_sized_by_the_longest_run),
		cmocka_unit_test(test_healthy_says_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
