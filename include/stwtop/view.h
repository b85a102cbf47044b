/* SPDX-License-Identifier: GPL-2.0-or-later */
/* view.h — what the dashboard draws, computed from the store without curses:
 * the one time axis all panes share, per-column aggregates for each chart,
 * the stops worth listing, the raw lines at the cursor, and the verdicts in
 * the order the Verdicts pane lists them. The tui only turns these numbers
 * into glyphs; keeping the arithmetic here lets it be tested on real data.
 *
 * Column c of an axis covers [end - (ncols - c) * res, end - (ncols - c - 1) * res).
 */
#ifndef STWTOP_VIEW_H
#define STWTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/session.h"
#include "stwtop/timeline.h"

struct view_axis {
	int64_t end_ms;      /* exclusive end of the last column (a multiple of res_ms) */
	int64_t res_ms;      /* time per column */
	int ncols;
};

int64_t view_col_start(const struct view_axis *a, int col);
/* column holding t: may be < 0 (before) or >= ncols (after) */
int view_col_of(const struct view_axis *a, int64_t t);
/* floor of t to a multiple of res (also for negative t) */
int64_t view_floor(int64_t t, int64_t res);

/* --- Stops --- */

struct view_stop_col {
	float total_ms;      /* the longest stop overlapping the column, 0 if none */
	float ttsp_ms;       /* its time to safepoint, -1 unknown (a GC pause) */
	int nstart;          /* stops that began in the column */
	uint64_t idx;        /* ring index of that longest stop */
};

/* One stop as the panes list it: a safepoint, or a GC pause when the log has
 * no safepoint lines. */
struct view_stop {
	int64_t start_ms, end_ms;
	float total_ms, ttsp_ms;   /* ttsp -1 unknown */
	uint16_t src;
	uint64_t line;
	char op[48];               /* VM operation, or the pause title */
};

/* true when the stops ring is empty and the GC pauses stand in for stops */
bool view_stops_from_pauses(const struct timeline *tl);
/* Fill cols[0..ncols) (a stop fills every column it overlaps). Returns the
 * number of stops that touch the window. */
int view_stops(const struct timeline *tl, const struct view_axis *a, struct view_stop_col *cols);
/* No log gave stops: the JVM's counters (view_stops_from_counters). A column
 * gets the time stopped in the reads that ended in it (total_ms, ttsp_ms
 * summed over the interval, not one stop: when each began is only in a log),
 * nstart their safepoint-free GC count is not known: 0. Returns the columns set. */
bool view_stops_from_counters(const struct timeline *tl);
int view_stops_counters(const struct timeline *tl, const struct view_axis *a, struct view_stop_col *cols);
/* A stop by ring index (from view_stop_col.idx). false when no longer held. */
bool view_stop_get(const struct timeline *tl, uint64_t idx, struct view_stop *out);
/* The n longest stops that started in [a, b), longest first. Returns how many. */
int view_worst_stops(const struct timeline *tl, int64_t a, int64_t b, struct view_stop *out, int n);

/* --- CPU --- */

struct view_cpu_col {
	float throttled_ms;        /* cgroup throttled time in the column; -1 no samples around it */
	float nr_throttled, nr_periods;
	float oncpu_ms, wait_ms;   /* schedstat summed over the JVM's threads; -1 unknown */
	int64_t allocstall;        /* direct-reclaim stalls begun in the column; -1 unknown */
};

struct view_cpu_info {
	int64_t quota_us, period_us;   /* newest cgroup sample's; quota -1 unlimited, -2 unknown */
	bool have_cpu, have_sched, have_vmstat;
};

/* The cgroup's quota as the newest sample at or before t said it (a quota
 * changed during the run: the one in force at the cursor). false: no sample
 * by then. */
bool view_cpu_quota_at(const struct timeline *tl, int64_t t, int64_t *quota_us, int64_t *period_us);

/* Cumulative counters are interpolated between samples, so a column narrower
 * than the sampling interval gets its share instead of the whole delta. */
void view_cpu(const struct timeline *tl, const struct view_axis *a, struct view_cpu_col *cols,
	      struct view_cpu_info *info);

/* --- Upstream (nginx) --- */

struct view_up_col {
	float rate;                /* requests/s started in the column; -1 no data */
	float bucket[5];           /* of which with connect time ~0, 1, 2, 3, 4+ s (per second) */
	uint32_t req, s5xx;        /* counts in the column's seconds */
	float rt_p99;              /* s, the worst second's p99 of $request_time; -1 unknown */
	float urt_p99;             /* s, the same of $upstream_response_time; -1 unknown */
};

/* From the per-second bins (by request start); a column narrower than a
 * second shows its second's rate. */
void view_upstream(const struct timeline *tl, const struct view_axis *a, struct view_up_col *cols);

/* Requests/s started over the last n settled seconds (timeline_req_settled_sec:
 * nginx logs a request when it ends, so the newest seconds are still filling),
 * counting from the first second with requests; *to_sec gets the newest of
 * them. -1 when no second is settled yet. */
#define VIEW_SETTLED_RATE_SECS 5
double view_req_settled_rate(const struct timeline *tl, int n, int64_t *to_sec);

/* --- Heap --- */

#define VIEW_HEAP_FULL     0x01
#define VIEW_HEAP_REMARK   0x02
#define VIEW_HEAP_PERIODIC 0x04

struct view_heap_col {
	float committed_mb, used_mb;   /* after the last GC at or before the column; -1 unknown */
	uint8_t marks;                 /* VIEW_HEAP_* of pauses that ended in the column */
	int npauses;
};

/* Columns from the GC log's heap sizes; when no log gave any, from the JVM's
 * counters (view_heap_from_counters: used is then the heap at each read,
 * garbage included, not used after GC; npauses the collections counted). */
void view_heap(const struct timeline *tl, const struct view_axis *a, struct view_heap_col *cols);
bool view_heap_from_counters(const struct timeline *tl);
/* periodic-GC checks that skipped, ended in [a, b) */
uint64_t view_skips(const struct timeline *tl, int64_t a, int64_t b);

/* --- Lines --- */

struct view_line {
	uint64_t idx;        /* reference for timeline_line() */
	int64_t t_ms;        /* the line's time, or its source's previous line's if it had none */
	bool in_window;      /* t_ms in [lo, hi) */
};

/* Up to n raw lines at or before hi: each source's newest first, then the
 * other lines in [lo, hi), then older ones, shared fairly among the sources so
 * a busy access log does not hide the GC log; only source src_filter when
 * >= 0. Sorted by time. Returns how many. */
int view_lines(const struct timeline *tl, int64_t lo, int64_t hi, int src_filter, struct view_line *out,
	       int n);
/* time of the oldest line still held (EV_TIME_NONE if none) */
int64_t view_lines_oldest(const struct timeline *tl);
/* Search the held lines (of source src_filter, -1 every source) for needle (n
 * bytes; ASCII letters match in either case) in the Lines pane's order (time,
 * then where held; a line without a time at its source's previous one): the
 * first match after (dir > 0) or before (dir < 0) the place (from_t,
 * from_ref). 1 found, 2 found only by wrapping round to the other end, 0 no
 * line holds it. */
int view_line_find(const struct timeline *tl, const char *needle, size_t n, int src_filter, int64_t from_t,
		   uint64_t from_ref, int dir, struct view_line *found);

/* --- Verdicts --- */

/* The Verdicts pane's order: incidents newest first, each in reading order
 * (the stop, its cause, its cost: rules_order), whole-run verdicts by their
 * start among them. Fills idx[] with indexes into session_rules(). */
size_t view_verdict_order(const struct session *s, size_t *idx, size_t cap);
/* The incidents as the report numbers them (rules_incidents), oldest start
 * first: where "next incident" goes. Returns how many (at most cap). */
struct rules_incident;
size_t view_incidents(const struct session *s, struct rules_incident *out, size_t cap);

#endif
