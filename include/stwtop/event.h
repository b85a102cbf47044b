/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event.h — the typed events every parser and poller produces, and the one
 * timeline they live on.
 *
 * Time: every event carries `t_ms`, UTC epoch milliseconds of the moment the
 * source says the event *ended* (a pause line, a safepoint line and an nginx
 * `$msec` are all written at the end), or EV_TIME_NONE when the line had only
 * JVM uptime and the JVM's start is not known yet. `up_us` is the JVM uptime in
 * microseconds where the line carried it (-1 otherwise). Durations are in ms
 * (double: HotSpot prints 3 decimals of ms, or ns). Start = t_ms - duration.
 */
#ifndef STWTOP_EVENT_H
#define STWTOP_EVENT_H

#include <stdint.h>
#include <stddef.h>

#define EV_TIME_NONE INT64_MIN

enum ev_kind {
	EV_NONE = 0,
	EV_ANCHOR,        /* wall clock of JVM uptime 0 learnt from a line */
	EV_JVM_INFO,      /* a fact about the JVM: collector, version, heap sizes, flags */
	EV_GC_PAUSE,      /* a stop-the-world GC pause (one per summary line) */
	EV_GC_CYCLE,      /* a concurrent/ZGC cycle summary: heap numbers, not a pause */
	EV_SAFEPOINT,     /* one safepoint / "Total time ... stopped" / JDK 8 stats row */
	EV_SP_TIMEOUT,    /* a complete SafepointTimeout report with the late threads */
	EV_PERIODIC_SKIP, /* G1 periodic GC check that skipped */
	EV_ALLOC_STALL,   /* ZGC "Allocation Stall (thread) N ms" */
	EV_HSERR,         /* a JVM crash report (hs_err_pid*.log) was read */
	EV_HTTP,          /* one nginx request */
	EV_CPU,           /* a cgroup cpu.stat sample (cumulative counters) */
	EV_MEM,           /* a cgroup memory sample */
	EV_SCHED,         /* schedstat summed over a process's threads for one interval */
	EV_VMSTAT,        /* /proc/vmstat reclaim counters (cumulative) */
	EV_JVM_EXIT,      /* the followed JVM process is gone (live: the probe found no such pid) */
	EV_JVMCTR,        /* one interval of the JVM's own counters (hsperfdata), polled */
	EV_KIND_COUNT
};

enum jvm_collector {
	GC_UNKNOWN = 0, GC_G1, GC_PARALLEL, GC_SERIAL, GC_ZGC, GC_SHENANDOAH, GC_CMS, GC_EPSILON
};

/* EV_JVM_INFO keys */
enum jvm_info_key {
	JI_COLLECTOR = 1, /* a = enum jvm_collector, text = name as printed ("G1") */
	JI_VERSION,       /* text = "17.0.15+6-Debian-1deb12u1"; a = feature release (17) or 0 */
	JI_HEAP_MIN,      /* a = bytes */
	JI_HEAP_INITIAL,  /* a = bytes */
	JI_HEAP_MAX,      /* a = bytes */
	JI_PERIODIC_GC,   /* a = interval ms, 0 = disabled */
	JI_CPUS,          /* a = total, b = available */
	JI_FLAG,          /* text = one -XX flag as printed ("-XX:G1PeriodicGCInterval=5000") */
	JI_PID,           /* a = pid (from the pid decoration) */
	JI_MEMORY,        /* a = bytes of memory the JVM sees (gc,init "Memory: 24105M") */
	JI_HEAP_AT_EXIT   /* the JVM printed its heap at exit ([gc,heap,exit] "Heap"): it was exiting */
};

struct ev_info {
	int key;          /* enum jvm_info_key */
	int64_t a, b;
	char text[96];
};

enum pause_type {
	PAUSE_OTHER = 0,
	PAUSE_YOUNG,      /* G1 Normal/Concurrent Start/Prepare Mixed, Parallel/Serial young, JDK 8 "GC (" */
	PAUSE_MIXED,      /* G1 Mixed / JDK 8 "(mixed)" */
	PAUSE_FULL,       /* Pause Full / JDK 8 "Full GC" */
	PAUSE_REMARK,     /* G1 Remark, CMS remark, Shenandoah Final Mark, ZGC Mark End */
	PAUSE_CLEANUP,    /* G1 Cleanup */
	PAUSE_INIT_MARK,  /* CMS initial mark, Shenandoah Init Mark, ZGC Mark Start */
	PAUSE_RELOCATE,   /* ZGC Relocate Start, Shenandoah Init/Final Update Refs, evac */
	PAUSE_DEGENERATED /* Shenandoah degenerated GC */
};

/* ev_pause.flags */
#define PAUSE_F_HEAP        0x01  /* before/after/committed are valid */
#define PAUSE_F_CONC_START  0x02  /* G1 "(Concurrent Start)" / JDK 8 "(initial-mark)" */
#define PAUSE_F_PREP_MIXED  0x04  /* G1 "(Prepare Mixed)" */
#define PAUSE_F_PERIODIC    0x08  /* cause "G1 Periodic Collection" */
#define PAUSE_F_EVAC_FAIL   0x10  /* Evacuation Failure / to-space exhausted */
#define PAUSE_F_PHASE       0x20  /* a phase pause (ZGC "Pause Mark Start"), not a [gc] summary line */
#define PAUSE_F_SYSTEM_GC   0x40  /* cause System.gc() / Diagnostic Command / Heap Dump */

struct ev_pause {
	int64_t gc_id;          /* GC(n), -1 if absent */
	double dur_ms;
	int64_t before_kb, after_kb, committed_kb;  /* -1 when not printed */
	uint8_t type;           /* enum pause_type */
	uint8_t collector;      /* enum jvm_collector if the line tells, else GC_UNKNOWN */
	uint16_t flags;
	char title[48];         /* as printed: "Pause Young (Normal)", "Pause Full" */
	char cause[40];         /* "G1 Evacuation Pause", "" if none */
};

/* A concurrent (non-pause) collection summary: ZGC "Garbage Collection (Warmup) 10M(10%)->8M(8%)",
 * generational ZGC "Major Collection (...) ... 0.036s", Shenandoah concurrent cycles. */
struct ev_cycle {
	int64_t gc_id;
	double dur_ms;          /* -1 if not printed */
	int64_t before_kb, after_kb, committed_kb;  /* -1 when not printed */
	uint8_t collector;
	char title[48];
	char cause[40];
};

/* ev_safepoint.form */
enum sp_form {
	SP_UNIFIED = 1,   /* JDK 13+ "Safepoint \"op\", Time since last: ..., Total: N ns" */
	SP_STOPPED,       /* "Total time for which application threads were stopped" (JDK 8-12) */
	SP_STATS,         /* JDK 8/11 -XX:+PrintSafepointStatistics row, or -Xlog:safepoint+stats row */
	SP_COUNTERS       /* made by the session from two reads of the JVM's counters (hsperfdata),
			     never parsed nor recorded: the stops that ended between them, see
			     session.c counter_stop() */
};

struct ev_safepoint {
	double total_ms;        /* whole stop */
	double ttsp_ms;         /* reaching the safepoint (JDK 8 stats: sync = spin + block) */
	double cleanup_ms;      /* -1 when not printed */
	double at_ms;           /* the operation itself ("At safepoint", vmop); -1 unknown */
	double leaving_ms;      /* -1 unknown */
	double spin_ms, block_ms;  /* JDK 8 stats; -1 unknown */
	int32_t threads_total;  /* -1 unknown */
	int32_t threads_running;/* initially running (JDK 8) / runnable (JDK 25); -1 unknown */
	uint8_t form;           /* enum sp_form */
	char op[40];            /* VM operation, "" for SP_STOPPED */
	/* SP_COUNTERS only (0/false otherwise): the window between the two reads
	 * it ended in, and whether total and ttsp are lower bounds (other
	 * safepoints began in that window) rather than the stop's own */
	double read_ms;
	uint8_t bounds;
};

/* SafepointTimeout report, emitted when "(End of list)" is read. */
struct ev_sp_timeout {
	uint8_t spinning;       /* 1 "while spinning", 2 "waiting for threads to stop", 0 unknown */
	uint16_t nthreads;      /* late threads listed */
	char threads[112];      /* their names, ", "-joined, cut with "…" when longer */
};

enum periodic_reason {
	PSKIP_LAST_GC = 1,      /* "Last GC occurred Nms before which is below threshold Mms" */
	PSKIP_LAST_WHOLE_GC,    /* JDK 23+: "Last whole heap GC occurred ..." */
	PSKIP_LOAD,             /* "Load X is higher than threshold Y" */
	PSKIP_CONCURRENT,       /* "Concurrent cycle in progress" */
	PSKIP_DENIED            /* "GC request denied" */
};

struct ev_periodic_skip {
	uint8_t reason;         /* enum periodic_reason */
	int64_t last_gc_ms;     /* -1 unless LAST_GC */
	int64_t threshold_ms;   /* -1 unless LAST_GC */
	double load, load_threshold;  /* -1 unless LOAD */
};

struct ev_alloc_stall {
	double dur_ms;
	char thread[40];
};

struct ev_hserr {
	char signal[16];        /* "SIGILL", "SIGSEGV" */
	char frame[64];         /* problematic frame: "v  ~AdapterBlob" */
	uint8_t aot;            /* 1 when an AOT cache / code cache is mentioned */
	char path[128];
};

struct ev_jvm_exit {
	int32_t pid;
	int64_t alive_ms;       /* the last time it was seen running (EV_TIME_NONE unknown) */
};

#define EV_HTTP_NO_RT  0x01     /* $request_time */
#define EV_HTTP_NO_UCT 0x02     /* $upstream_connect_time */
#define EV_HTTP_NO_UHT 0x04     /* $upstream_header_time */
#define EV_HTTP_NO_URT 0x08     /* $upstream_response_time */

struct ev_http {
	int16_t status;         /* -1 unknown */
	int16_t upstream_status;/* last value of $upstream_status, -1 unknown */
	uint8_t uct_n;          /* number of upstream connect values (0 = field absent) */
	uint8_t uct_dash;       /* 1 when every value was "-" (never connected) */
	double rt_ms;           /* $request_time, -1 unknown */
	double uct_ms;          /* sum of $upstream_connect_time values, -1 if absent or "-" */
	double uht_ms;          /* sum of $upstream_header_time, -1 unknown */
	double urt_ms;          /* sum of $upstream_response_time, -1 unknown */
	uint8_t t_exact;        /* 1: t_ms from $msec/$time_iso8601 ms; 0: second resolution */
	uint8_t lacks;          /* EV_HTTP_NO_*: variables the line's log_format does not have, so
	                         * their -1 above means "not logged", never "-" (0: not said) */
	char rid[33];           /* $request_id, "" if absent */
	char upstream[48];      /* the last address of $upstream_addr (after retries), "" if absent */
	char request[72];       /* $request as logged ("GET /path HTTP/1.1"), cut; "" if absent */
};

/* Cumulative cgroup CPU counters; -1 for a counter the source did not have. */
struct ev_cpu {
	int64_t nr_periods;
	int64_t nr_throttled;
	int64_t throttled_us;   /* v1 throttled_time ns / 1000, v2 throttled_usec */
	int64_t usage_us;       /* cpuacct.usage / cpu.stat usage_usec */
	int64_t quota_us;       /* cfs_quota_us or cpu.max; -1 = unlimited, -2 = unknown */
	int64_t period_us;      /* -1 unknown */
	double psi_some_avg10;  /* cpu.pressure some avg10, -1 unknown */
	uint8_t cg_version;     /* 1, 2, or 0 for a recorded log */
};

struct ev_mem {
	int64_t usage_bytes;    /* memory.current / memory.usage_in_bytes */
	int64_t limit_bytes;    /* -1 = unlimited/unknown */
	int64_t anon_bytes;     /* memory.stat anon / rss, -1 unknown */
	int64_t file_bytes;     /* memory.stat file / cache, -1 unknown */
	double psi_some_avg10;  /* -1 unknown */
};

/* One interval of /proc/PID/task/(all)/schedstat, summed over threads. */
struct ev_sched {
	double interval_ms;     /* wall time covered */
	double oncpu_ms;        /* sum over threads of on-CPU time in the interval */
	double wait_ms;         /* sum over threads of run-queue wait in the interval */
	double idle_ms;         /* sum over threads of the interval spent neither on CPU nor
				   waiting for one (sleeping, blocked, or held by nothing at all):
				   threads present at both ends x interval - their on-CPU - their
				   wait, clamped at 0 (schedacc.h says how threads that came or
				   went count); -1 unknown */
	int32_t nthreads;
	int32_t worst_tid;      /* thread that waited most, -1 none */
	double worst_wait_ms;
	char worst_comm[16];
};

struct ev_vmstat {
	int64_t allocstall;     /* sum of allocstall_* (cumulative) */
	int64_t pageoutrun;     /* cumulative, -1 unknown */
	int64_t pgscan_direct;  /* cumulative, -1 unknown */
};

/* What the JVM's counters say at one read, counted since the JVM started (not
 * since stwtop did): the numbers `jstat -gc` prints, from the same counters
 * (jdk.jcmd's jstat_options: YGC/YGCT sun.gc.collector.0, FGC/FGCT .1, CGC/CGCT
 * .2; EC/EU generation.0.space.0, S0/S1 .space.1/.2, OC/OU generation.1.space.0,
 * MC/MU metaspace, CCSC/CCSU compressedclassspace). -1 where the JVM has no
 * such counter (jstat prints "-"). */
enum jvm_gc_kind { JVM_GC_YOUNG, JVM_GC_FULL, JVM_GC_CONCURRENT, JVM_GC_KINDS };
enum jvm_pool { JVM_POOL_EDEN, JVM_POOL_SURVIVOR, JVM_POOL_OLD, JVM_POOL_METASPACE, JVM_POOL_CCS, JVM_POOLS };
struct jvm_totals {
	int64_t gcs[JVM_GC_KINDS];     /* collections (jstat YGC, FGC, CGC) */
	double gc_ms[JVM_GC_KINDS];    /* their summed time (YGCT, FGCT, CGCT, in ms) */
	int64_t pauses;                /* of all collectors, those whose time is pauses */
	double pause_ms;
	int64_t safepoints;            /* sun.rt.safepoints */
	double safepoint_ms;           /* sun.rt.safepointTime */
	double safepoint_sync_ms;      /* sun.rt.safepointSyncTime: reaching them */
	double stopped_ms;             /* threads stopped: safepointTime plus the sync where
					  safepointTime excludes it (JDK 13+, see hsperf.h) */
	int64_t used[JVM_POOLS], committed[JVM_POOLS], max[JVM_POOLS];   /* bytes */
};
#define JVM_TOTALS_UNKNOWN                                                                        \
	{ .gcs = {-1, -1, -1}, .gc_ms = {-1, -1, -1}, .pauses = -1, .pause_ms = -1, .safepoints = -1, \
	  .safepoint_ms = -1, .safepoint_sync_ms = -1, .stopped_ms = -1, .used = {-1, -1, -1, -1, -1},  \
	  .committed = {-1, -1, -1, -1, -1}, .max = {-1, -1, -1, -1, -1} }

/* One interval of the JVM's performance counters (the hsperfdata file jstat
 * reads): what the JVM itself counted between two of our reads. Per-pause facts
 * are not in the counters: a pause's exact time and length are known only from
 * a GC log; here only how many collections ended in the interval and their
 * summed time. -1 where the JVM has no such counter. */
struct ev_jvmctr {
	double interval_ms;     /* between the two reads, our clock */
	int64_t heap_used;      /* bytes, at the read: live and garbage not yet collected */
	int64_t heap_committed; /* bytes, at the read */
	int64_t heap_max;       /* bytes */
	int32_t gcs;            /* collections that ended in the interval (their pauses) */
	int32_t full_gcs;       /* of them, full collections (the old generation's collector) */
	double gc_ms;           /* the summed time of those collections' pauses */
	double one_gc_ms;       /* exactly one collection in the interval: its own length; else -1 */
	int32_t safepoints;     /* -1 unknown */
	double stop_ms;         /* application threads stopped in the interval, -1 unknown */
	double ttsp_ms;         /* of it, reaching the safepoints (summed), -1 unknown */
	int32_t threads;        /* live Java threads, -1 unknown */
	/* the longest stop that ended in the interval, from reads every HSPERF_STEP_MS
	 * (hsperf_stops_step): -1 none ended or not known */
	double stop_max_ms, stop_max_ttsp_ms;
	int64_t stop_max_end;   /* epoch ms of the read that saw it end, -1 none */
	double stop_max_window_ms; /* it ended within this before stop_max_end */
	int32_t stop_max_exact; /* 1 its own length and TTSP; 0 lower bounds (other safepoints
				   began in that window); -1 unknown */
	uint8_t collector;      /* enum jvm_collector, from sun.gc.policy.name and the collectors */
	char cause[40];         /* sun.gc.lastCause: why the last collection ran */
	struct jvm_totals tot;  /* at the later read, since the JVM started */
};

struct event {
	uint8_t kind;           /* enum ev_kind */
	uint16_t src;           /* index of the source it came from (set by the session) */
	uint64_t line;          /* 1-based line number in that source, 0 for polled samples */
	int64_t t_ms;           /* UTC epoch ms (end of the event), or EV_TIME_NONE */
	int64_t up_us;          /* JVM uptime µs at t_ms, -1 unknown */
	union {
		int64_t anchor_ms;  /* EV_ANCHOR: epoch ms of JVM uptime 0 */
		struct ev_info info;
		struct ev_pause pause;
		struct ev_cycle cycle;
		struct ev_safepoint sp;
		struct ev_sp_timeout spt;
		struct ev_periodic_skip pskip;
		struct ev_alloc_stall stall;
		struct ev_hserr hserr;
		struct ev_http http;
		struct ev_cpu cpu;
		struct ev_mem mem;
		struct ev_sched sched;
		struct ev_vmstat vm;
		struct ev_jvm_exit exit;
		struct ev_jvmctr ctr;
	} u;
};

const char *ev_kind_name(enum ev_kind k);
const char *jvm_collector_name(enum jvm_collector c);  /* "G1", ..., NULL for unknown */
const char *pause_type_name(enum pause_type t);        /* "young", "full", ..., "other" */
const char *jvm_gc_kind_name(enum jvm_gc_kind k);      /* "young", "full", "concurrent" */
const char *jvm_pool_name(enum jvm_pool p);            /* "eden", ..., "compressed_class" */

/* Fill *e with kind and "unknown" defaults (-1 everywhere a -1 means unknown). */
void ev_init(struct event *e, enum ev_kind kind);

/* Start of an interval event (pauses, safepoints, stalls, requests); t_ms
 * otherwise. Inline: the timeline and the rules take it of every stop and
 * pause placed. */
static inline int64_t ev_start_ms(const struct event *e)
{
	double d = 0;
	if (e->t_ms == EV_TIME_NONE)
		return EV_TIME_NONE;
	switch (e->kind) {
	case EV_GC_PAUSE: d = e->u.pause.dur_ms; break;
	case EV_SAFEPOINT: d = e->u.sp.total_ms; break;
	case EV_ALLOC_STALL: d = e->u.stall.dur_ms; break;
	case EV_HTTP:
		d = e->u.http.rt_ms;
		/* a second-resolution time ($time_local) was truncated: the request
		 * ended somewhere in that second, so take its middle */
		if (!e->u.http.t_exact)
			return e->t_ms + 500 - (int64_t)((d > 0 ? (d < 1e12 ? d : 1e12) : 0) + 0.5);
		break;
	case EV_GC_CYCLE: d = e->u.cycle.dur_ms; break;
	default: break;
	}
	if (!(d > 0))
		return e->t_ms;
	if (d > 1e12)
		d = 1e12; /* no duration from a line may overflow the clock */
	return e->t_ms - (int64_t)(d + 0.5);
}

#endif
