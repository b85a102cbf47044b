/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary.h — exact whole-input counters of the report (docs/report-json.md "Report
 * JSON"): constant memory, fed every event whether or not its wall-clock time
 * is known. */
#ifndef STWTOP_SUMMARY_H
#define STWTOP_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "stwtop/event.h"
#include "stwtop/hist.h"

#define SUMMARY_STATUS_MAX 600

/* Growth of one cumulative counter over the samples that HAVE it (-1 = the
 * sample did not: a cgroup removed, cpu.stat unreadable while cpuacct.usage
 * still was, a v2 cgroup without the cpu controller): a sample without it is
 * skipped, not taken as the last value. A value lower than the previous one is
 * a counter reset (the cgroup was removed and created again): the growth so
 * far is kept and the new value counts whole, as it accrued since the
 * re-creation, which came after the previous sample. */
struct summary_counter {
	int64_t first, last;           /* of the current segment; -1 no sample had it yet */
	int64_t done;                  /* growth of the segments before the last reset */
	uint64_t samples;              /* samples that had it */
};

#define SUMMARY_FLAGS_MAX 16

/* Durations counted in fixed buckets, for the Prometheus histograms of
 * metrics.h (a quantile of struct hist cannot be turned back into "how many
 * were <= 0.5 s", and Prometheus needs exactly that). The upper bounds, in
 * seconds, are summary_le_s[]; a value equal to a bound is in its bucket (as
 * Prometheus' le says); longer than the last one: only in n. Why these
 * bounds: core/store/summary.c. */
#define SUMMARY_LE_N 14
extern const double summary_le_s[SUMMARY_LE_N];
struct summary_le {
	uint64_t n;                    /* every value */
	double sum_s;
	uint64_t b[SUMMARY_LE_N];      /* values in (le[i-1], le[i]]: not cumulative */
};
void summary_le_add(struct summary_le *h, double seconds);

#define SUMMARY_PAUSE_TYPES 9          /* enum pause_type */
#define SUMMARY_COLLECTORS 8           /* enum jvm_collector */

struct summary {
	/* jvm */
	int collector;                 /* enum jvm_collector */
	char version[48];              /* "" unknown */
	int jdk_release;               /* 0 unknown */
	int64_t heap_min_kb, heap_initial_kb, heap_max_kb;   /* -1 unknown */
	int64_t periodic_interval_ms;  /* -1 unknown, 0 disabled */
	int cpus_total, cpus_available;/* -1 unknown */
	int64_t memory_kb;             /* memory the JVM sees (container limit or machine), -1 unknown */
	/* the GC-relevant -XX flags the log printed (JDK 8 "CommandLine flags:": the
	 * collector, pause goal, safepoint timeout, pre-touch, explicit GC), once each */
	char flags[SUMMARY_FLAGS_MAX][96];
	int nflags;
	uint64_t gc_pauses;
	double max_gc_pause_ms, total_gc_pause_ms;
	uint64_t full_gcs;
	/* by the collector the pause line names (else the log's) and its enum pause_type */
	uint64_t pauses_by[SUMMARY_COLLECTORS][SUMMARY_PAUSE_TYPES];
	struct summary_le gc_pause_le;       /* every pause, seconds */
	/* the same by collector and kind, like pauses_by (the metrics' labels) */
	struct summary_le gc_pause_le_by[SUMMARY_COLLECTORS][SUMMARY_PAUSE_TYPES];
	/* the time the JVM log covers: its first event's start to its last
	 * event's end, by the JVM's uptime and by the clock (-1 / EV_TIME_NONE
	 * unknown); summary_jvm_span_ms() picks */
	int64_t jvm_first_up_us, jvm_last_up_us;
	int64_t jvm_first_ms, jvm_last_ms;
	uint64_t stops;
	double total_stop_ms, max_stop_ms, max_ttsp_ms;
	struct summary_le stop_le, ttsp_le;  /* every safepoint: its whole stop, its time to safepoint */
	uint64_t periodic_gc_skips, periodic_gc_collections;
	bool heap_known;
	double committed_max_mb, committed_last_mb, used_after_gc_last_mb;
	/* a line printed the committed heap: ZGC's "-Xlog:gc" cycle line gives
	 * only used sizes ("502M(49%)->716M(70%)"), so heap_known may be true
	 * while the committed heap is unknown (never 0) */
	bool committed_known;
	uint64_t sp_timeouts;
	/* pauses the log began and never ended (PAUSE_F_OPEN: the JVM hung in one,
	 * or was killed during it), not counted in gc_pauses; the last one's
	 * GC(n), title, start, the log's last sign of life, and how long it lasted
	 * at least (start to that sign) */
	uint64_t open_pauses;
	struct summary_open_pause {
		int64_t gc_id, start_ms, end_ms;
		double at_least_ms;
		bool to_exit;              /* its end: the process seen alive (PAUSE_F_OPEN_EXIT), not the log */
		char title[48], cause[40];
	} open_pause;
	/* Shenandoah cycles cancelled (CYCLE_F_CANCELLED) for another cause than
	 * the JVM stopping: each is finished by a stop-the-world Degenerated or
	 * Full GC; the first one's phase and cause */
	uint64_t gc_cancels;
	char gc_cancel_title[48], gc_cancel_cause[40];
	uint64_t alloc_stalls;
	double max_alloc_stall_ms;
	uint64_t hs_errs;
	/* nginx */
	uint64_t requests;
	uint64_t status[SUMMARY_STATUS_MAX];   /* by code; codes outside 0..599 in status_other */
	uint64_t status_other;
	uint64_t uct_buckets[5];
	uint64_t uct_none;             /* $upstream_connect_time "-" (never connected) */
	struct summary_le uct_le;           /* $upstream_connect_time of the requests that connected */
	/* requests whose log_format does not have $request_time, $upstream_connect_time,
	 * $upstream_header_time: their times are unknown, not 0 and not "-" */
	uint64_t lacks_rt, lacks_uct, lacks_uht, lacks_urt;
	struct hist rt, uht, urt;           /* whole-run percentiles */
	struct summary_le rt_le;            /* $request_time of the requests that log it */
	/* cgroup cpu samples */
	uint64_t throttle_samples;     /* every EV_CPU, with or without throttling counters */
	struct summary_counter nr_periods, nr_throttled, throttled_us;
	/* sched / vmstat */
	uint64_t sched_samples;
	double sched_oncpu_ms, sched_wait_ms;
	double sched_idle_ms;          /* over the intervals whose idle is known */
	uint64_t sched_idle_samples;
	uint64_t vmstat_samples;
	int64_t allocstall_first, allocstall_last;
	/* the JVM's own counters (EV_JVMCTR): the heap at the last read, the
	 * collections and stops summed over every interval */
	uint64_t ctr_samples;
	double ctr_interval_ms;
	uint64_t ctr_gcs, ctr_full_gcs;
	double ctr_gc_ms;
	uint64_t ctr_safepoints;
	double ctr_stop_ms, ctr_ttsp_ms;
	double ctr_heap_used_mb, ctr_heap_committed_mb;   /* at the last read, -1 none */
	int ctr_collector;             /* enum jvm_collector the counters name */
	/* the longest stop the counters saw end and its TTSP, since stwtop started
	 * (hsperf_stops_step); -1 none known */
	double ctr_max_stop_ms, ctr_max_ttsp_ms;
	double ctr_heap_committed_max_mb;  /* the most committed at a read, -1 none */
	/* the last read's numbers since the JVM started (jstat's), when ctr_samples */
	struct jvm_totals ctr_tot;
};

/* Where the heap and GC numbers come from: "gclog" (a GC log gave pauses or
 * heap sizes), "hsperfdata" (only the JVM's counters did) or "none". */
const char *summary_jvm_source(const struct summary *s);

void summary_init(struct summary *s);
void summary_add(struct summary *s, const struct event *e);

/* growth of the throttle counters between the first and the last sample that
 * had them (struct summary_counter) */
int64_t summary_nr_throttled(const struct summary *s);
int64_t summary_nr_periods(const struct summary *s);
/* the wall time the JVM log covers (ms), and the share of it in GC pauses;
 * -1 when the log covers no time. The share is -1 too when there is nothing
 * to share: a log that covers less than SUMMARY_SHARE_MIN_MS, or no time
 * besides its pauses (a single record: "paused 98.5 % of the 0.0 s" told
 * nothing) */
#define SUMMARY_SHARE_MIN_MS 1000.0
double summary_jvm_span_ms(const struct summary *s);
double summary_gc_paused_share(const struct summary *s);
double summary_throttled_ms(const struct summary *s);

#endif
