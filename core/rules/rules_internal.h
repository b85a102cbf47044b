/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rules_internal.h — shared by the files of the verdict engine (core/rules/):
 * the engine's state, the verdict builder, the facts of an incident and the
 * rule table. Not a public header: the rest of core/ and tui/ use rules.h.
 *
 *   engine.c    incidents, events, evaluation, what a report may let go
 *   verdicts.c  building, holding, raising, updating and clearing verdicts
 *   facts.c     the facts of an incident, computed once per judgement
 *   table.c     the rule table: the rows of rule_list.h, in its order
 *   stop.c      long-gc-pause, ttsp-spike           (what the stop was)
 *   vmop.c      long-vm-operation, and HotSpot's VM operations (rl_vmop_find)
 *   cpu.c       cpu-throttled-during-stop, sched-delay-during-stop,
 *               direct-reclaim                      (why it was long)
 *   upstream.c  accept-queue-overflow, connect-timeout-504 (what it cost)
 *   heap.c      g1-not-shrinking, periodic-gc-skipped/-shrank (whole run)
 *   jvm.c       serial-gc-selected, zgc-allocation-stall, aot-sigill-adapter
 *   overhead.c  gc-overhead (most of the wall clock paused, Full GCs back to back)
 *   starved.c   cpu-starved (threads waited far longer than they ran, over time)
 *   notes.c     what the input could not show
 *
 * Adding a verdict: its file (its row `rule_SYM`, hooks and state) and one
 * line in include/stwtop/rule_list.h (docs/architecture.md, "Where to add").
 */
#ifndef STWTOP_RULES_INTERNAL_H
#define STWTOP_RULES_INTERNAL_H

#include "stwtop/rules.h"
#include "stwtop/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- state --- */

/* gc-overhead (overhead.c): the recent pauses, and the episode they make */
#define OV_RING 4096                   /* pauses held (a power of two): 10 s at 400 a second */
#define OV_CAUSES 6                    /* distinct Full GC causes named in the evidence */
#define OV_F_FULL 0x01                 /* a Full GC */
#define OV_F_EVAC 0x02                 /* to-space exhausted / evacuation failure */
struct ov_pause {
	double start, dur;             /* ms (epoch), with the fractions the log printed */
	float after_mb, committed_mb;  /* a Full GC's heap after it, -1 unknown */
	uint32_t line;
	uint16_t src;
	uint8_t flags;                 /* OV_F_* */
	uint8_t cause;                 /* index in ov_stats.cause, 0xff none */
};
struct ov_stats {                      /* the pauses of an episode */
	double paused_ms, longest_ms;
	uint32_t pauses, fulls, evac_fails;
	float used_min_mb, used_max_mb, committed_mb;   /* after Full GCs, -1 unknown */
	double first_full_ms;          /* its start, -1 none */
	double first_full_dur;
	uint32_t first_full_line;
	uint16_t first_full_src;
	uint8_t first_full_cause;
	uint32_t cause_n[OV_CAUSES + 1];   /* Full GCs by cause (overhead.causes), the last: others */
};
/* gc-overhead from the JVM's counters (overhead_ctr.c), when no GC log gives pauses */
#define OV_CTR_RING 64                 /* reads held (a power of two): a minute at one a second */
struct ov_read {
	double end, interval, gc_ms;   /* ms */
	uint32_t gcs, fulls;
};
struct ov_ctr {
	struct ov_read ring[OV_CTR_RING];
	uint64_t head;                 /* reads pushed; the last OV_CTR_RING are held */
	bool open;
	uint64_t episode;              /* its key (shared numbering with the pause path) */
	uint64_t first, last;          /* the episode's first read and its last dense one */
	double start, end;
	double paused_ms, span_ms;     /* reads first..last */
	uint32_t gcs, fulls;
	double interval_max;
	float used_mb, committed_mb, max_mb;   /* at the last dense read, -1 unknown */
	char cause[40];                /* the JVM's last GC cause then */
};
struct overhead {
	struct ov_pause ring[OV_RING];
	uint64_t head, tail;           /* [tail, head): the pauses of the last window */
	double win_paused;             /* their paused time ... */
	uint32_t win_full;             /* ... and Full GCs / evacuation failures */
	double newest_end;
	bool open;
	uint64_t episode;              /* the current (or last) episode's number, its key */
	double start, end;             /* its extent: dense pauses only */
	double floor;                  /* pauses before this belong to a closed episode */
	double last_end;               /* the newest pause's end when it closed (clear search) */
	struct ov_stats all, at_end;   /* since start; up to end */
	char causes[OV_CAUSES][48];    /* cause names seen, for ov_pause.cause */
	int ncauses;
	bool saw_pause;                /* a GC log gave pauses: the counters open no episode */
	struct ov_ctr ctr;
};
extern const char ov_advice[];
/* gc-overhead's state (overhead.c defines the type; overhead_ctr.c reads it too) */
static inline struct overhead *ov_st(const struct rules *r);

#define MAX_INCIDENTS 512
#define TREND_BINS 256
#define SHARED_BUCKETS 256               /* advice texts (a power of two) */
#define INCIDENT_DROP_BATCH 64
#define INCIDENT_STORE (2 * MAX_INCIDENTS)  /* room for the window of MAX_INCIDENTS to slide */
#define MAX_VERDICTS 2048
#define VIDX_CAP 4096                  /* (id, key) -> verdict slot; a power of two > 2 x MAX_VERDICTS */

struct incident {
	uint64_t id;
	int64_t start_ms, end_ms;      /* union of its marks */
	bool final;
	bool has_stop;                 /* a JVM stop >= stop_ms or a long pause is in it */
	bool has_slow;                 /* slow connects or connect 504s */
	/* the request that waited longest to connect, and the first connect
	 * timeout (504 with no connect time): which request, from which line,
	 * to which server ($request, $upstream_addr, when the format logs them) */
	struct inc_req { float uct_s, rt_s; uint16_t src; uint64_t line; char request[72], upstream[48]; } slowest, t504;
	bool upstream_many;            /* slow connects went to more than one server */
};

/* the on_event hooks that want one event kind, in table order (rules_new) */
struct rule_hooks {
	uint8_t n;
	uint8_t row[7];
};

struct rules {
	struct rule_hooks hooks[EV_KIND_COUNT];
	uint64_t gen;                  /* bumped by every change of a verdict or of the slots */
	struct order_cache *order;     /* rules_order()'s, made again when gen moves (order.c) */
	/* each row's family state (rule_state_type), rows of a family sharing
	 * one; rl_state() */
	void *state[V_COUNT];
	/* the rows with a refresh hook, in table order (rules_new): an evaluation
	 * (each second of data) does not walk the whole table for them */
	uint8_t refresh_row[V_COUNT];
	uint8_t nrefresh;
	struct rules_config cfg;
	struct verdict *v;
	size_t nv;
	/* find() runs for every verdict built; a linear scan over up to 2048
	 * verdicts of 3.5 KB each made a long replay quadratic */
	int16_t vidx[VIDX_CAP];        /* open addressing, -1 empty */
	int last_long_pause;           /* highest slot holding a long-gc-pause, -1 none */
	bool eager;                    /* judge open incidents at every evaluation (live) */
	bool uptime_axis;              /* times are JVM uptime: say so in evidence */
	uint64_t evicted;              /* verdicts of old final incidents let go to keep the newest */
	/* verdicts raised, and severities reached by a rise, since the start:
	 * kept here because the verdicts themselves may be evicted (rules_raised) */
	uint64_t raised[V_COUNT][SEV_CRIT + 1];
	int64_t evicted_from_ms, evicted_to_ms;
	uint64_t judging_key;          /* the incident being judged, 0 none */
	bool judging_final;            /* ... for the last time (no more data will change it) */
	unsigned judged_mask;          /* incident verdict ids it committed */
	int64_t whole_built_mono_ms;   /* last refresh of every whole-run verdict */
	unsigned evals_unbuilt;        /* evaluations since the clock was read for that */
	/* the incidents, oldest first: inc[0..ninc) is a window into inc_store
	 * that slides forward when the oldest final ones are dropped, so they
	 * are not moved each time (rl_incident_for) */
	struct incident *inc;
	size_t ninc;
	struct incident inc_store[INCIDENT_STORE];
	bool inc_moved;                /* made or grown since merge_incidents() last found nothing */
	int64_t final_end_max;         /* latest end of the incidents below open_from (EV_TIME_NONE) */
	size_t open_from;              /* every incident below this index is final: the
	                                * evaluations skip them (512 per second of data) */
	int64_t open_end_min;          /* no incident that is not final ends before this (a
	                                * lower bound: ends only grow; INT64_MAX: none open):
	                                * a report's evaluation that can make none final
	                                * skips the scan of the open ones */
	uint64_t next_id;
	rules_change_fn fn;
	void *fnctx;

	/* stops >= stop_ms of final incidents that no stop verdict explains,
	 * counted as each incident is judged for the last time (a report lets
	 * the stops themselves go) */
	struct unexplained { uint64_t n; double longest_ms; int64_t at_ms; char op[48]; } unexplained;
	int64_t longest_gap_ms;        /* longest time between two GC pauses (idle window) */
	int64_t last_pause_ms;
	int64_t first_pause_ms;

	bool eval_final;               /* rules_eval(final): the refresh hooks see the end of input */

	/* advice texts, each held once for the verdicts that give it */
	struct shared *shared[SHARED_BUCKETS];
};

/* An advice text shared by the verdicts that give it: an incident-dense log
 * gives the same 600-900 bytes of advice for every incident (nginx-ops 1 GB:
 * 1572 verdicts, one advice; the dense safepoint file: 1971, one). */
struct shared {
	struct shared *next;           /* in its bucket */
	uint32_t hash, refs;
	char s[];
};


/* A verdict while it is built (and compared with the one held): struct
 * verdict's header, its texts in arrays. rv_commit() packs it. */
struct vdraft {
	int id, severity;
	uint64_t key;
	int64_t start_ms, end_ms, cleared_ms, jump_ms;
	char title[VERDICT_TITLE_LEN];
	char evidence[VERDICT_EVIDENCE_MAX][VERDICT_EVIDENCE_LEN];
	int nevidence;
	char advice[VERDICT_ADVICE_LEN];
};

/* --- verdicts.c --- */
void vinit(struct vdraft *v, int id, uint64_t key, int sev);
void vdraft_of(struct vdraft *d, const struct verdict *v);
__attribute__((format(printf, 2, 3))) void vtitle(struct vdraft *v, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void vevid(struct vdraft *v, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void vadvice(struct vdraft *v, const char *fmt, ...);
/* Raise or update: store v (built from scratch) under (id, key). */
void rv_commit(struct rules *r, const struct vdraft *v);
/* An incident judged again no longer supports this verdict: tell the
 * listener, then remove it. */
/* Mark a whole-run verdict cleared (the condition went away at t). */
void rv_clear(struct rules *r, int id, uint64_t key, int64_t t, const char *why);
const struct verdict *rv_find_c(const struct rules *r, int id, uint64_t key);
struct verdict *rv_find(struct rules *r, int id, uint64_t key);
bool rv_active(struct rules *r, int id, uint64_t key);   /* raised and not cleared */
void rv_drop(struct rules *r, struct verdict *v);        /* a held verdict going: its texts */
void rv_index_rebuild(struct rules *r);                  /* after verdicts were removed */

/* formatting for evidence */
const char *rl_sname(const struct rules_ctx *c, uint16_t src);
const char *rl_hms(const struct rules *r, int64_t t, char *buf);   /* buf of UTIL_HMS_LEN */
/* "at HH:MM:SS.mmm" of a logged stop's start; for one from the JVM's counters
 * (TL_STOP_COUNTERS), which ended between two reads, "ending between A and B" */
const char *rl_stop_when(const struct rules *r, const struct tl_stop *s, char *buf, size_t len);
/* the evidence line of a stop from the JVM's counters */
void rl_counter_stop_evid(struct vdraft *v, const struct rules *r, const struct rules_ctx *c,
			  const struct tl_stop *s);
double rl_mb10(int32_t v);
void rl_fmt_ms(double ms, char *buf, size_t len);

/* --- order.c --- */
int rl_order_init(struct rules *r);
void rl_order_fini(struct rules *r);

/* --- engine.c --- */
struct incident *rl_incident_for(struct rules *r, int64_t a, int64_t b);

/* --- facts.c: the facts of an incident, computed once and passed to every
 * incident rule --- */
struct stop_pick {
	const struct tl_stop *worst;      /* longest total */
	const struct tl_stop *worst_ttsp; /* longest ttsp that dominates its stop */
	int n;                            /* stops >= stop_ms */
	int64_t start_ms, end_ms;         /* their extent */
};

/* The window W of the requests nginx logged around an incident, and how long
 * the upstream accepted nothing (accept-queue-overflow, connect-timeout-504). */
struct upstream_window {
	int64_t a, b;                     /* W */
	double stop_s;                    /* how long nothing was accepted, when sized */
	bool sized;                       /* a stop shows: a JVM stop overlaps the slow connects, or
	                                   * nginx held most requests started in the estimate */
	const char *stop_from;            /* where stop_s comes from, for the evidence */
	uint32_t held, held_of;           /* nginx alone: requests held / started in the estimate */
	struct tl_req_sum w;              /* the requests started in W */
	uint32_t slow;                    /* of them, connects of 1 s or more */
	double rate;                      /* requests/s before W (or after it) */
	long long backlog;                /* rate x stop_s; only when sized */
	/* a JVM stop in the incident that cannot explain the held connects
	 * (too short for their wait, or they went on long after it): the
	 * upstream stopped accepting with no stop to explain it */
	bool unexplained;
	double jstop_s;                   /* ... that stop's length (s) */
	int64_t jstop_a, jstop_b;         /* ... and its window */
	double held_wait_s;               /* the shortest wait of a held connect (s) */
	double held_span_s;               /* first to last start of the held connects (s) */
	uint32_t held_in, held_all;       /* held connects started in the stop / in all */
};

struct incident_facts {
	struct incident *in;
	struct stop_pick sp;              /* the safepoints >= stop_ms */
	bool stops_from_pauses;           /* the log has no safepoint lines */
	const struct tl_pause *wp;        /* the longest pause >= long_pause_warn_ms */
	int npause_long;                  /* pauses >= long_pause_warn_ms */
	int64_t ws, we;                   /* the JVM stop window, EV_TIME_NONE: no stop */
	double worst_total;               /* the longest stop in it ... */
	int64_t worst_start_ms;           /* ... and when it began: a headline pairs the two */
	int64_t xs, xe;                   /* ... extended over the throttling it overlaps */
	bool have_cd;                     /* cpu.stat brackets [xs, xe] */
	struct tl_cpu_delta cd;
	bool throttled;                   /* ... and shows throttling */
	bool have_uw;                     /* slow connects and an nginx log */
	struct upstream_window uw;
	/* the stop [ws, we] is a GC pause the JVM log began and never ended,
	 * whose length the log alone cannot give (its last line is the start):
	 * we is the last request nginx saw the upstream hold after it */
	bool open_nginx;
	int64_t open_gone_ms;             /* ... and nginx's first refused connect after it, EV_TIME_NONE */
	bool open_live;                   /* ... still open live: no end line yet (rules_ctx.pause_open_ms) */
};

void rl_incident_facts(struct rules *r, const struct rules_ctx *c, struct incident *in,
		       struct incident_facts *f);
/* advice common to the stop verdicts: the sources that would tell more */
void rl_missing_sources_advice(struct vdraft *v, const struct rules_ctx *c, bool want_nginx);

/* --- the rule table (table.c) --- */
/* A rule family's state, owned by the family's file and allocated by the
 * engine: one per type named by the rows (rows of one family share it),
 * zeroed, then init; rl_state() finds it for a row's id. */
struct rule_state_type {
	size_t size;
	void (*init)(void *state);
};

/* A threshold a rule owns: its name in --config and --help-config, the field
 * of struct rules_config it sets, its default, and why that value (the reason
 * --help-config prints; docs/verdicts.md explains it). */
struct rule_knob {
	const char *name;
	size_t off;
	double def;
	const char *why;
};
#define RULE_KNOB(field, value, reason) {#field, offsetof(struct rules_config, field), value, reason}
#define RULE_KNOBS(list) .knobs = (list), .nknobs = sizeof(list) / sizeof((list)[0])

/* One row of the table: a rule says what it is and what it hooks. Each rule's
 * file defines its row as `const struct rule rule_SYM` (rule_list.h). */
struct rule {
	struct verdict_info info;
	/* incident rules: judge the incident (commit, or leave uncommitted: one
	 * raised before stays, and is cleared if the final judgement leaves it) */
	void (*judge)(struct rules *r, const struct rules_ctx *c, const struct incident_facts *f);
	/* whole-run rules: every time-resolved event of the kinds in on_kinds
	 * (bits 1u << enum ev_kind), after the engine's own bookkeeping, in table
	 * order */
	void (*on_event)(struct rules *r, const struct rules_ctx *c, const struct event *e);
	uint32_t on_kinds;
	/* whole-run rules: at each evaluation; all: rebuild the text even when
	 * raised already (else only raise when not active) */
	void (*refresh)(struct rules *r, const struct rules_ctx *c, bool all);
	const struct rule_state_type *state;   /* NULL: it keeps none */
	const struct rule_knob *knobs;         /* its thresholds (RULE_KNOBS) */
	size_t nknobs;
};

/* the rows, in rule_list.h's order (the evaluation order): row i is id i */
#define RULE(id, sym) extern const struct rule rule_##sym;
#include "stwtop/rule_list.h"
#undef RULE
extern const struct rule *const rule_table[];
extern const size_t rule_count;

/* the state of rule id's family (rule_state_type), NULL when it keeps none */
static inline void *rl_state(const struct rules *r, int id)
{
	return r->state[id];
}

static inline struct overhead *ov_st(const struct rules *r)
{
	return rl_state(r, V_GC_OVERHEAD);
}

/* the ids of the rules that explain a stop, as a bit set */
unsigned rl_stop_verdicts_mask(void);
/* notes.c: count in's stops >= stop_ms into u (no verdict explained them);
 * but_vmop: all but those long-vm-operation tells (the incident's only stop verdict) */
void rl_count_unexplained(const struct rules *r, const struct timeline *tl, const struct incident *in,
			  bool but_vmop, struct unexplained *u);

/* --- vmop.c: HotSpot's VM operations (VM_OPS_DO of JDK 8, 11, 17, 21) --- */
enum vmop_kind {
	VMOP_GC = 1,                   /* a collection: its stop is long-gc-pause's */
	VMOP_MAY_GC,                   /* a tool's operation that may run a collection first */
	VMOP_OTHER                     /* the JVM's or a tool's own work */
};
struct vmop_info {
	const char *name;              /* as the safepoint log prints it */
	unsigned jdk;                  /* the releases whose VM_OPS_DO lists it (vmop.c) */
	int kind;                      /* enum vmop_kind */
	const char *what;              /* what it is and who runs it */
	const char *advice;            /* what to do; NULL: the generic text */
};
const struct vmop_info *rl_vmop_find(const char *name);   /* NULL: in no list */
/* a collector's operation (a name in no list: by its prefix) */
bool rl_vmop_is_gc(const char *name);
/* the summed length of the GC pauses inside stop s, and the longest of them */
double rl_stop_gc_ms(const struct timeline *tl, const struct tl_stop *s, const struct tl_pause **longest);
/* pause p is part of the stop of a VM operation that is no collection and is
 * not its long part (vmop_gc_share): long-vm-operation tells it, not long-gc-pause */
bool rl_pause_is_vmop_part(const struct rules *r, const struct timeline *tl, const struct tl_pause *p);
/* stop s is long-vm-operation's: a VM operation that is no collection took its time */
bool rl_vmop_stop(const struct rules *r, const struct tl_stop *s);

/* gc-overhead from the JVM's counters (overhead_ctr.c), called by gc-overhead's hooks */
void overhead_ctr_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e);
void overhead_ctr_refresh(struct rules *r, const struct rules_ctx *c, bool all);

#endif
