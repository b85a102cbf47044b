/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rules.h — the verdict engine: turns the timeline into plain-language
 * verdicts with evidence and advice (docs/verdicts.md), the same way live and
 * in --report.
 *
 * How it works: stops (safepoints, or GC pauses when the log has no safepoint
 * lines), slow-connect request clusters and 504 clusters are grouped into
 * *incidents* (merged when closer than incident_gap_ms), extended over the
 * contiguous CPU-throttling they overlap. Each evaluation looks only at
 * incidents that are still open: an incident is final once the newest data is
 * more than horizon_ms past its end (every source has had time to report on
 * it), and is never re-judged after that. Verdicts are therefore a function of
 * the data, not of the order it arrived in: a live run and a report over the
 * same input end with the same verdicts. Whole-run verdicts (G1 shrinking,
 * periodic GC, ZGC stalls, collector choice, crash reports) follow the
 * pauses and facts as they come.
 */
#ifndef STWTOP_RULES_H
#define STWTOP_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"
#include "stwtop/summary.h"
#include "stwtop/timeline.h"

enum verdict_id {
#define RULE(id, sym) V_##id,
#include "stwtop/rule_list.h"
#undef RULE
	V_COUNT
};

enum severity { SEV_INFO = 0, SEV_WARN, SEV_CRIT };

#define VERDICT_EVIDENCE_MAX 10
#define VERDICT_EVIDENCE_LEN 480      /* the longest evidence line, with its NUL (longer: cut at a word, " ...") */
#define VERDICT_TITLE_LEN 320
#define VERDICT_ADVICE_LEN 900

/* A verdict as the rules hold it. Its texts are the rules' (title and
 * evidence packed in one allocation, the advice shared with the verdicts that
 * give the same), valid until the verdict changes or goes (the next rules
 * call): with fixed arrays a verdict took 3.6 KB, most of it empty, and an
 * incident-dense replay holds 2048 of them. */
struct verdict {
	int id;                   /* enum verdict_id */
	int severity;             /* enum severity */
	uint64_t key;             /* instance within the id (incident number, 0 for whole-run) */
	int64_t start_ms, end_ms; /* extent of the evidence */
	int64_t cleared_ms;       /* EV_TIME_NONE while the condition holds */
	int64_t jump_ms;          /* where a view should put the cursor */
	uint32_t version;         /* bumped whenever anything in it changes */
	int64_t raised_mono_ms;   /* when it was raised (CLOCK_MONOTONIC): a view ages its NEW mark from it */
	const char *title;        /* < VERDICT_TITLE_LEN bytes */
	const char *evidence[VERDICT_EVIDENCE_MAX];   /* each < VERDICT_EVIDENCE_LEN */
	int nevidence;
	const char *advice;       /* < VERDICT_ADVICE_LEN */
	char *text;               /* the allocation holding title and evidence (verdicts.c) */
};

/* What every reader needs to know about a verdict id, from the rule table
 * (core/rules/table.c), so no one re-derives it from the enum's order. */
enum verdict_kind {
	VERDICT_RUN = 0,          /* whole-run: state kept as events arrive (one instance, or one per crash) */
	VERDICT_INCIDENT,         /* one instance per incident, judged while it is open, frozen when final */
};
struct verdict_info {
	int id;                   /* enum verdict_id */
	const char *name;         /* "ttsp-spike" */
	int kind;                 /* enum verdict_kind */
	int rank;                 /* reading order in an incident: the stop, its cause, its cost */
	bool explains_stop;       /* says why a stop was long (the notes count stops none explains) */
};
const struct verdict_info *verdict_info(int id);   /* NULL for an unknown id */
bool verdict_is_incident(int id);
int verdict_rank(int id);

const char *verdict_id_name(int id);      /* "ttsp-spike" */
int verdict_id_from_name(const char *name);
const char *severity_name(int sev);       /* "info" | "warn" | "crit" */

/* Thresholds: named, documented, overridable (rules_config_load). Defaults
 * and the measured numbers behind them are in core/rules/config.c. */
struct rules_config {
	double stop_ms;               /* a stop this long is worth explaining */
	double long_pause_warn_ms, long_pause_crit_ms;
	double ttsp_warn_ms, ttsp_crit_ms;
	double ttsp_share;            /* TTSP must be at least this share of the stop */
	double throttle_min_ms;       /* throttled_time growth that counts as throttling in a window */
	double throttle_share;        /* ... and at least this share of the bracketing window */
	double sched_wait_ms_per_s;   /* run-queue wait (all threads) per second of wall that is high */
	double incident_gap_ms;       /* stops/clusters closer than this are one incident */
	double horizon_ms;            /* an incident is final this long after its end */
	double aq_min_requests;       /* slow-connect requests (bucket >= 1) that make an overflow */
	double aq_cluster_gap_ms;     /* slow connects further apart start separate clusters */
	double shrink_ratio;          /* committed >= ratio x live data (used after GC) ... */
	double shrink_min_waste_mb;   /* ... and at least this many MB not returned ... */
	double shrink_min_span_ms;    /* ... for at least this long, over ... */
	double shrink_min_pauses;     /* ... at least this many pauses */
	double shrink_drop;           /* committed falling by this share counts as a shrink */
	double periodic_min_skips;    /* skipped checks in a row that make periodic-gc-skipped */
	double stall_crit_ms;         /* a ZGC allocation stall this long is critical */
	double mem_tight;             /* container memory use / limit that makes g1-not-shrinking warn */
	double throttle_crit_ms;      /* a throttled stop this long, or this much throttled time, is crit */
	double aq_crit_bucket;        /* slow connects in this uct bucket (s) or above make accept-queue crit */
	double aq_crit_requests;      /* ... or this many slow connects in one overflow */
	double idle_min_ms;           /* a time without any GC this long is an idle window */
	double catchup_ms;            /* a stop starting this soon after a longer one is its after-effect */
	double leak_growth_ratio;     /* used after GC growing by this factor over a plateau ... */
	double leak_growth_min_mb;    /* ... and by this many MB: check for a leak, do not say "not a leak" */
	double periodic_link_ms;      /* a shrink this soon after a periodic collection is its doing */
	double overhead_share;        /* gc-overhead: this share of a stretch paused ... */
	double overhead_min_span_ms;  /* ... over a stretch at least this long (and the window that clears it) ... */
	double overhead_min_full;     /* ... with at least this many Full GCs or evacuation failures ... */
	double overhead_min_pauses;   /* ... in at least this many pauses */
	double overhead_crit_share;   /* a paused share this high is critical */
	double aq_stop_share;         /* from nginx alone, a stop needs this share of its requests held */
	double aq_explain_share;      /* a JVM stop explains held connects only when it lasts this share
	                               * of their shortest wait and this share of them started in it */
	double vmop_warn_ms;          /* a stop of a VM operation that is no collection this long ... */
	double vmop_crit_ms;          /* ... and this long is critical */
	double vmop_gc_share;         /* a collection inside such a stop is its long part from this share */
	double starved_window_ms;     /* cpu-starved: over windows this long ... */
	double starved_ratio;         /* ... the threads waited this many times their time on CPU ... */
	double starved_wait_ms_per_s; /* ... and at least this much per second (all threads) */
};

void rules_config_defaults(struct rules_config *c);
/* Override from a JSON object {"ttsp_warn_ms": 50, ...}. Unknown keys and
 * non-numbers are errors naming the key. 0 or -errno/-EINVAL with err. */
int rules_config_load(struct rules_config *c, const char *path, char *err, size_t errlen);
/* The same from memory (len bytes, no NUL needed; name for the messages). Both
 * change c only when every key is good. */
int rules_config_load_mem(struct rules_config *c, const char *buf, size_t len, const char *name, char *err,
			  size_t errlen);
/* Name, value and one-line justification of every threshold, for --help-config. */
int rules_config_describe(const struct rules_config *c, int i, const char **name, double *value,
			  const char **doc);

/* What the rules need to know about the session besides the timeline. */
struct rules_ctx {
	const struct timeline *tl;
	const struct summary *sum;
	bool have_jvm, have_nginx, have_cpu, have_sched, have_vmstat, have_mem;
	bool jvm_unanchored;          /* uptime-only JVM lines could not be placed on the clock */
	unsigned nginx_lacks;         /* EV_HTTP_NO_*: variables the log_format of some requests read
	                               * did not have (their times are unknown, never 0 or "-") */
	bool nginx_guessed;           /* ... and that format was guessed from the lines (no
	                               * --nginx-conf/--nginx-format) with fields it could not name:
	                               * the lines may carry those times */
	const char *(*src_name)(void *ctx, uint16_t src);   /* basename of a source for evidence */
	void *src_ctx;
	bool explicit_serial;         /* -XX:+UseSerialGC seen on the command line/flags */
	bool uptime_axis;             /* times are JVM uptime (session_uptime_axis) */
	int64_t now_ms;               /* live: wall clock; report: newest event time */
	int64_t pause_open_ms;        /* live: when a GC pause began whose end line has not come
	                               * yet (the JVM may be stopped in it now); EV_TIME_NONE none */
};

struct rules;
typedef void (*rules_change_fn)(void *ctx, const struct verdict *v, bool is_new);

struct rules *rules_new(const struct rules_config *cfg);
/* Eager (live, demo): judge open incidents at every evaluation once the
 * cpu.stat sample after them is in (with a cgroup source), so a verdict shows as soon as its
 * evidence is; a verdict raised is never taken back: more data updates it
 * (its severity only rises) and one the incident's whole data no longer
 * supports is cleared when the incident is final. Lazy (the default,
 * reports): judge an incident once, when it is final. Both end with the
 * same verdicts over the same input (live may also hold a cleared one). */
void rules_set_eager(struct rules *r, bool eager);
/* The shortest stop any rule judges (stop_ms, --config): live reads every
 * thread's schedstat after one, and only then. */
double rules_stop_ms(const struct rules *r);
void rules_free(struct rules *r);
void rules_set_listener(struct rules *r, rules_change_fn fn, void *ctx);

/* Every time-resolved event, after it is in the timeline. */
void rules_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e);
/* rules_on_event() for an event of a kind no rule's hook wants, which reads
 * nothing of the context but the axis: true when taken, false (nothing done)
 * when a hook wants it. A JDK 8 replay places ~90 k safepoint events per
 * 20 MB, and a whole context built for each was 3.5% of its instructions. */
bool rules_on_event_bare(struct rules *r, bool uptime_axis, const struct event *e);
/* The earliest time a judgement still to come can ask the timeline about:
 * the open incidents and the ones data still to come can make (whole-run
 * verdicts keep their own running summaries). A report lets older records go
 * (timeline.keep); INT64_MIN while nothing can be let go. */
void rules_keep_from(const struct rules *r, const struct rules_ctx *c, struct tl_keep *keep);
/* Re-judge open incidents and whole-run verdicts. final: end of input (report). */
void rules_eval(struct rules *r, const struct rules_ctx *c, bool final);

/* Notes on what the input could not show, for the report and the screen: stops
 * >= stop_ms that no incident verdict covers while a source that could explain
 * them is missing (which one, and how to add it), and a GC log without
 * safepoint lines. Up to max notes of RULES_NOTE_LEN bytes; returns how many. */
#define RULES_NOTE_LEN 512
size_t rules_notes(const struct rules *r, const struct rules_ctx *c, char (*out)[RULES_NOTE_LEN], size_t max);

size_t rules_count(const struct rules *r);
/* Verdicts of this id with this severity since the start: a running count
 * that eviction (or anything else) never lowers, for counters (metrics.h).
 * An incident's verdicts count once the incident is final (horizon_ms after
 * its end, or at the end of input), with the severity they end with, so the
 * counts equal the report's over the same input, live or not; a whole-run
 * verdict counts when raised, and again at each severity it rises to. */
uint64_t rules_raised(const struct rules *r, int id, int severity);
/* verdicts in order of first appearance */
const struct verdict *rules_at(const struct rules *r, size_t i);

/* The verdicts in reading order, as indexes for rules_at(): each incident's
 * verdicts together (incidents in the order they began, within one the stop,
 * then its cause, then its cost), then the whole-run verdicts (the most
 * severe first). *n gets how many. Sorted again only after a verdict changed;
 * valid until the next call that judges or feeds events (core/rules/order.c). */
const size_t *rules_order(const struct rules *r, size_t *n);

/* An incident as every view shows it: its verdicts (one key) under
 * "-- incident N --", numbered 1, 2, ... in reading order. The report, the
 * dashboard's panes and the [ ] keys all take "incident N" from here. */
struct rules_incident {
	unsigned number;          /* N of "-- incident N --" */
	uint64_t key;             /* the key its verdicts share */
	size_t first, n;          /* its verdicts: rules_order()[first .. first + n - 1] */
	int64_t start_ms, end_ms; /* earliest start and latest end of its verdicts (EV_TIME_NONE: none) */
};
/* the incidents of rules_order(), in that order; *n gets how many */
const struct rules_incident *rules_incidents(const struct rules *r, size_t *n);

#endif
