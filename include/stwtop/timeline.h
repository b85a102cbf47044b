/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timeline.h — the store: one wall-clock timeline of everything the sources
 * said, in rings of bounded size, so memory stays bounded however long the input.
 *
 * Rules ask it questions about windows ("how much throttled time between these
 * two instants", "which requests started inside this stop"); views draw from
 * it. Only events with a known wall-clock time enter the timeline (uptime-only
 * JVM lines wait in the session until the JVM's start is known).
 *
 * Every ring keeps the newest records, at most N; in a report only those the
 * rules can still ask about (keep), so a report's memory does not depend on
 * how long its input was. Records are appended in arrival
 * order, which is time order per source (not across sources), so queries scan
 * from a binary-searched start and tolerate small disorder.
 */
#ifndef STWTOP_TIMELINE_H
#define STWTOP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"
#include "stwtop/hist.h"

/* A generic ring of fixed-size records, each starting with its int64_t time.
 * Index i in [ring_first(), r->total) is valid; older ones were overwritten.
 * It starts small and doubles up to max while the oldest record is still
 * wanted (timeline.keep_from_ms), so what is resident follows what the rules
 * can still ask about, not how long the input was. */
struct ring {
	unsigned char *buf;
	size_t elem, cap, max;  /* cap: records allocated; both powers of two */
	uint64_t first, total;  /* records held are [first, total) */
};

uint64_t ring_first(const struct ring *r);
void *ring_at(const struct ring *r, uint64_t i);   /* NULL when not (or no longer) held */

/* --- records --- */

/* A stop of the application: a safepoint (total/ttsp known) or, when the log
 * has no safepoint lines, a GC pause. */
struct tl_stop {
	int64_t start_ms, end_ms;
	float total_ms, ttsp_ms, op_ms;   /* ttsp/op -1 when unknown */
	float spin_ms, block_ms;          /* -1 unknown */
	float read_ms;                    /* TL_STOP_COUNTERS: the reads' interval, the precision
					     of start and end; 0 for a logged stop */
	uint16_t src;
	uint8_t flags;                    /* TL_STOP_* */
	uint64_t line;
	char op[40];
};

/* a stop known from the JVM's counters (SP_COUNTERS), not from a log line:
 * the longest that ended between two reads, placed at the later read */
#define TL_STOP_COUNTERS 0x01
/* ...and other safepoints began between those reads: total_ms and ttsp_ms
 * are what it took at least */
#define TL_STOP_SEVERAL  0x02

struct tl_pause {
	int64_t t_ms;                     /* end */
	float dur_ms;
	int32_t before_mb10, after_mb10, committed_mb10;  /* tenths of MB, -1 unknown */
	uint8_t type, collector;
	uint16_t flags;
	uint16_t src;
	uint64_t line;
	char title[48];
	char cause[40];
};

/* The heap as a collection left it: from a pause line that carries sizes, or
 * from a concurrent cycle's summary (ZGC "Garbage Collection (...) A->B",
 * Shenandoah "Concurrent cleanup A->B(C)"), whose collectors print no heap on
 * their pauses. */
struct tl_heap {
	int64_t t_ms;
	int32_t used_mb10, committed_mb10; /* tenths of MB after the collection, -1 unknown */
	uint16_t src;
	uint64_t line;
};

struct tl_cpu {                       /* cumulative cgroup counters at t_ms */
	int64_t t_ms;
	int64_t nr_periods, nr_throttled, throttled_us, usage_us, quota_us, period_us;
	uint16_t src;
};

struct tl_sched {                     /* one interval ending at t_ms */
	int64_t t_ms;
	float interval_ms, oncpu_ms, wait_ms, worst_wait_ms;
	float idle_ms;                     /* -1 unknown (event.h) */
	int32_t nthreads, worst_tid;
	char worst_comm[16];
};

struct tl_vmstat {
	int64_t t_ms;
	int64_t allocstall, pageoutrun;
};

struct tl_mem {
	int64_t t_ms;
	int64_t usage_bytes, limit_bytes;
};

/* one interval of the JVM's own counters (EV_JVMCTR), ending at t_ms */
struct tl_ctr {
	int64_t t_ms;
	float interval_ms;
	float used_mb, committed_mb;       /* at t_ms, -1 unknown */
	float gc_ms, stop_ms, ttsp_ms;    /* in the interval; stop/ttsp -1 unknown */
	float stop_max_ms, stop_max_ttsp_ms; /* the longest stop that ended in it, -1 none known */
	int32_t safepoints;               /* in the interval, -1 unknown */
	uint16_t gcs, full_gcs;
};

struct tl_req {                       /* one nginx request (ring ordered by end) */
	int64_t end_ms, start_ms;
	float uct_s, uht_s, rt_s, urt_s;  /* -1 unknown/dash */
	int16_t status;
	int8_t bucket;                    /* 0..4 (4 = 4+), -1 not bucketed */
	uint8_t flags;                    /* TL_REQ_* */
	uint64_t line;
};

#define TL_REQ_EXACT  0x01                /* end time had ms resolution */
#define TL_REQ_NO_RT  0x02                /* the format has no $request_time: rt_s -1 is "not logged" */
#define TL_REQ_NO_UCT 0x04                /* ... no $upstream_connect_time: uct_s -1 is not "-" */
#define TL_REQ_NO_UHT 0x08                /* ... no $upstream_header_time */

struct tl_timeout {
	int64_t t_ms;
	uint16_t src;
	uint64_t line;
	uint16_t nthreads;
	char threads[112];
};

struct tl_skip {
	int64_t t_ms;
	int64_t last_gc_ms, threshold_ms;
	uint8_t reason;
};

struct tl_stall {
	int64_t t_ms;
	float dur_ms;
	char thread[40];
};

/* A raw line kept for the Lines pane (live mode only). */
struct tl_line {
	int64_t t_ms;                     /* EV_TIME_NONE if the line had none */
	uint16_t src;
	uint16_t len;
	uint64_t line;
	char text[240];
};

/* Per-second bin of the request series, by request START second. */
struct tl_sec {
	int64_t sec;                      /* epoch second held, 0 = empty */
	uint32_t req, s5xx, s504, bucket[5], no_connect;   /* no_connect: $upstream_connect_time "-" */
	uint32_t rt_n, uht_n;             /* requests that logged a request / header time: the
	                                   * percentiles below mean nothing without them */
	float rt_p50, rt_p99, rt_max;     /* seconds; valid once finalised (or open) */
	float uht_p50, uht_p99, uht_max;
	uint32_t urt_n;                   /* ... that logged $upstream_response_time */
	float urt_p50, urt_p99, urt_max;
	int16_t open;                     /* index into the open histogram pool, -1 */
};

/* Ring capacities, in records (powers of two). These bound live mode's
 * memory: live keeps every record (keep INT64_MIN), so each ring a source
 * feeds grows by doubling to its cap and then overwrites its oldest; it never
 * holds more than cap x its record size (pauses 16384 x 128 B = 2 MB, requests
 * 131072 x 48 B = 6 MB, the lines of a source TL_LINES_PER_SOURCE x 264 B =
 * 1 MB). Its pages are touched only as records come, so RSS climbs until the
 * slowest ring is full: at one G1 pause every 5 s (the throttle-stop sample)
 * the pauses ring fills after 23 hours (tests/bench/RESULTS.md, "A day live, issue 17 continued"). */
enum {
	TL_CAP_STOPS = 1 << 14, TL_CAP_PAUSES = 1 << 14, TL_CAP_HEAP = 1 << 14, TL_CAP_CPU = 1 << 16,
	TL_CAP_SCHED = 1 << 14, TL_CAP_VMSTAT = 1 << 13, TL_CAP_MEM = 1 << 14, TL_CAP_REQS = 1 << 17,
	TL_CAP_TIMEOUTS = 1 << 10, TL_CAP_SKIPS = 1 << 12, TL_CAP_STALLS = 1 << 14,
	TL_CAP_CTR = 1 << 14
};

#define TL_SECONDS 3600               /* per-second request series: the last hour */
#define TL_LINE_SOURCES 16
#define TL_LINES_PER_SOURCE 4096      /* raw lines kept per source (live/demo) */
#define TL_OPEN_SECONDS 64            /* seconds whose exact histograms are kept */

struct tl_keep {
	int64_t from_ms;                  /* every ring but the requests */
	int64_t reqs_from_ms;             /* requests: read from an incident's start on, not before */
};

struct timeline {
	struct ring stops, pauses, heap, cpu, sched, vmstat, mem, reqs, timeouts, skips, stalls, ctr;
	/* raw lines, one ring per source, so a busy access log cannot push the GC
	 * log's lines out (sources beyond TL_LINE_SOURCES share the last ring) */
	struct ring lines[TL_LINE_SOURCES];
	struct tl_sec secs[TL_SECONDS];
	struct { int64_t sec; struct hist rt, uht, urt; } open[TL_OPEN_SECONDS];
	int64_t newest_ms;                /* latest event time seen */
	int64_t oldest_ms;                /* earliest event time seen */
	uint64_t log_stops;               /* stops pushed from a log (not TL_STOP_COUNTERS) */
	int64_t stop_span_max_ms;         /* longest stop pushed (end - start): a stop that
	                                   * overlaps time t starts at or after t minus this */
	int64_t pause_span_max_ms;        /* the same for GC pauses */
	int64_t req_span_max_ms;          /* longest request pushed (end - start) */
	int64_t req_end_max_ms;           /* latest request end pushed */
	int64_t req_disorder_max_ms;      /* most a request ended before one pushed earlier */
	int64_t req_sec_min, req_sec_max; /* earliest and latest start second in the series */
	struct tl_req_count {             /* every request counted into the series so far */
		uint64_t req, slow, s5xx;     /* slow: connect time rounded to 1 s or more */
	} req_counted;
	/* Records older than these are not wanted any more: a full ring
	 * overwrites its oldest instead of growing when the one after it is
	 * older too (one sample before the time stays, to bracket it). INT64_MIN
	 * (live: the views show history) grows every ring to its max. A report
	 * sets them from what the rules can still ask about (rules_keep_from). */
	struct tl_keep keep;
	bool keep_lines;
};

int timeline_init(struct timeline *tl, bool keep_lines);
/* How far past b the requests ring (ordered by end, as pushed) must be read to
 * see every request that started before b: the longest request plus the
 * largest disorder seen, at most 10 minutes. */
int64_t timeline_req_scan_slack(const struct timeline *tl);
/* nginx logs a request when it ends, so the count of a start second grows
 * until every request that started in it has ended. The newest start second
 * no request still to come can land in: one logged after the newest end E seen
 * ends at or after E minus the largest disorder seen and lasts at most the
 * longest request seen, so it starts at or after E - disorder - longest (a
 * request longer than any before breaks this: it lands late). EV_TIME_NONE
 * before any request. */
int64_t timeline_req_settled_sec(const struct timeline *tl);
/* The requests counted into the per-second series so far that started in
 * second sec or before (all of req_counted less the bins after sec). */
void timeline_req_count_upto(const struct timeline *tl, int64_t sec, struct tl_req_count *out);
void timeline_fini(struct timeline *tl);

/* Put one time-resolved event in (t_ms must be known). */
void timeline_push(struct timeline *tl, const struct event *e);
void timeline_push_line(struct timeline *tl, uint16_t src, uint64_t line_no, int64_t t_ms,
			const char *text, size_t len);
/* A kept line by reference: ring k (source, or the shared last ring) in the
 * top 8 bits, index in that ring below. NULL once overwritten. */
#define TL_LINE_REF(k, i) (((uint64_t)(k) << 56) | (i))
const struct tl_line *timeline_line(const struct timeline *tl, uint64_t ref);

/* --- stops ---
 * "A stop" is a safepoint, or a GC pause when the log has no safepoint lines
 * at all (JDK 8 without -XX:+PrintGCApplicationStoppedTime, -Xlog:gc only).
 * Every reader (rules, notes, views, status lines) takes stops from here, so
 * they agree on which records are stops and on where a scan may stop. */
struct tl_stopref {
	int64_t start_ms, end_ms;
	double total_ms;
	double ttsp_ms;                   /* -1 unknown (always for a pause) */
	const char *what;                 /* the safepoint operation, or the pause's title */
	uint16_t src;
	uint64_t line;
	uint64_t idx;                     /* in its ring (stops, or pauses) */
	const struct tl_stop *stop;       /* the safepoint; NULL for a pause */
	const struct tl_pause *pause;     /* the pause; NULL for a safepoint */
};

struct tl_stop_iter {
	const struct timeline *tl;
	const struct ring *r;
	bool pauses;
	uint64_t i;
	int64_t a, b;
	double min_ms;
};

/* The stops are GC pauses: no log has safepoint lines, and a GC log has
 * pauses (they are exact; stops from the JVM's counters are not). */
bool timeline_stops_are_pauses(const struct timeline *tl);
/* The stops come from the JVM's counters alone: no safepoint line, no GC pause,
 * counter reads (a JVM started with no logging flags). */
bool timeline_stops_from_counters(const struct timeline *tl);
/* Whether any stop came from a log (a safepoint or a GC pause line), not the counters. */
bool timeline_stops_from_log(const struct timeline *tl);
/* An interval of the JVM's counters (EV_JVMCTR) whose longest stop makes a
 * stop of the timeline: *stop, an EV_SAFEPOINT of form SP_COUNTERS, to push
 * and judge like a logged one. False when it has none, or once a safepoint
 * log gave a stop (the log wins). */
bool timeline_counter_stop(const struct timeline *tl, const struct event *ctr, struct event *stop);
/* Every stop at least min_ms long that overlaps [a, b] (end >= a, start <= b),
 * in the order they were logged. Records arrive in the order they end, so
 * starts are sorted only to within the longest stop: the scan begins and ends
 * that much beyond the window, and no caller needs to know it. */
void timeline_stops_begin(struct tl_stop_iter *it, const struct timeline *tl, int64_t a, int64_t b,
			  double min_ms);
bool timeline_stops_next(struct tl_stop_iter *it, struct tl_stopref *out);
/* The same over the GC pauses, whether or not the log has safepoint lines
 * (long-gc-pause is about the collection, not the stop). */
void timeline_pauses_begin(struct tl_stop_iter *it, const struct timeline *tl, int64_t a, int64_t b,
			   double min_ms);
/* The stop at idx of its ring (views keep indices); false when gone. */
bool timeline_stop_at(const struct timeline *tl, uint64_t idx, struct tl_stopref *out);

/* --- window queries --- */

/* cgroup cpu counters over [a, b]: deltas between the last sample at or before a
 * and the first at or after b (the bracketing samples). false if not bracketed. */
struct tl_cpu_delta {
	int64_t from_ms, to_ms;
	int64_t periods, throttled, throttled_us;
	int64_t quota_us, period_us;
};
bool timeline_cpu_delta(const struct timeline *tl, int64_t a, int64_t b, struct tl_cpu_delta *out);

/* sched intervals overlapping [a, b], summed */
struct tl_sched_sum {
	int64_t from_ms, to_ms;           /* span of the intervals summed */
	double oncpu_ms, wait_ms;
	double idle_ms;                   /* of the intervals that know it; -1 if none did */
	int n;
	int32_t worst_tid;
	double worst_wait_ms;
	char worst_comm[16];
};
bool timeline_sched_sum(const struct timeline *tl, int64_t a, int64_t b, struct tl_sched_sum *out);

/* vmstat deltas over the bracketing samples of [a, b] */
bool timeline_vmstat_delta(const struct timeline *tl, int64_t a, int64_t b,
			   int64_t *allocstall, int64_t *pageoutrun);

/* the times of the vmstat samples that bracket [a, b] */
bool timeline_vmstat_bracket(const struct timeline *tl, int64_t a, int64_t b, int64_t *from, int64_t *to);

/* Every request that STARTED in [a, b), in the order they ended. The ring is
 * ordered by end, so the scan runs past b by the longest request seen (and
 * nginx's disorder): every reader of requests by start takes them from here. */
struct tl_req_iter {
	const struct timeline *tl;
	uint64_t i;
	int64_t a, b, end_limit;
};
void timeline_reqs_begin(struct tl_req_iter *it, const struct timeline *tl, int64_t a, int64_t b);
const struct tl_req *timeline_reqs_next(struct tl_req_iter *it);

/* requests that STARTED in [a, b) */
struct tl_req_sum {
	uint32_t n, bucket[5], no_connect, s5xx, s504;
	float max_uht_b0;                 /* longest header wait among bucket-0 requests (s) */
	int64_t max_uht_b0_start;         /* ... and when that request started */
	float max_rt;
	int64_t first_slow_start, last_slow_start;   /* bucket >= 1 requests, EV_TIME_NONE if none */
};
void timeline_req_sum(const struct timeline *tl, int64_t a, int64_t b, struct tl_req_sum *out);

/* typical request rate: median of the per-second counts in [a, b), from the
 * first second that had requests (so a window reaching back before the
 * traffic began does not read as idle) */
double timeline_req_rate(const struct timeline *tl, int64_t a, int64_t b);

/* per-second bin for epoch second `sec`, NULL if not held */
const struct tl_sec *timeline_sec(const struct timeline *tl, int64_t sec);
/* p50/p99 of request_time and upstream_header_time of that second (seconds):
 * out = {rt_p50, rt_p99, uht_p50, uht_p99}; exact to 1/64 while the second is
 * among the last TL_OPEN_SECONDS that saw requests, frozen afterwards. */
void timeline_sec_percentiles(const struct timeline *tl, const struct tl_sec *b, float out[4]);
/* the same for $upstream_response_time: out = {urt_p50, urt_p99} */
void timeline_sec_urt(const struct timeline *tl, const struct tl_sec *b, float out[2]);

/* uct bucket of a connect time: nearest second, 4 = 4 and above, -1 none */
int8_t timeline_bucket(double uct_ms);

/* index of the first record whose time >= t (binary search on a ring of
 * records that start with an int64_t time field, tolerating small disorder) */
uint64_t timeline_lower_bound(const struct ring *r, int64_t t);

#endif
