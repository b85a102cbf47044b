/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hsperf.h — a JVM's own performance counters, read from its hsperfdata file
 * (/tmp/hsperfdata_<user>/<pid>, the file jstat and `jcmd PerfCounter.print`
 * read), so a JVM started with no flags at all still shows heap, GC and
 * safepoint numbers (issue 15; docs/probes.md).
 *
 * The file is mapped read-only and shared (PROT_READ, MAP_SHARED) and never
 * written. Its layout is HotSpot's PerfDataPrologue and PerfDataEntry
 * (src/hotspot/share/runtime/perfMemory.hpp, entries created by
 * PerfData::create_entry in perfData.cpp). Everything read from it is
 * bounds-checked: the JVM writes it while we read, and anyone who owns it can
 * make it say anything. An owner who truncates the file while it is mapped
 * makes a read of the lost pages raise SIGBUS: every call that reads the
 * mapping runs under a SIGBUS guard (hsperf.c) and fails with -ESTALE (false
 * for the lookups) instead of killing the process.
 *
 * Use: hsperf_open() once per JVM (builds the name index), then per poll
 * hsperf_sample() (re-indexes by itself when the JVM added counters), and
 * hsperf_delta() between two samples. */
#ifndef STWTOP_HSPERF_H
#define STWTOP_HSPERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HSPERF_PROLOGUE_SIZE 32   /* sizeof(PerfDataPrologue) */
#define HSPERF_ENTRY_HEADER  20   /* sizeof(PerfDataEntry), the fixed part */
#define HSPERF_MAX_GENS       3   /* sun.gc.generation.0..2 */
#define HSPERF_MAX_SPACES     3   /* .space.0..2 (eden, s0, s1 in a young gen) */
#define HSPERF_MAX_COLLECTORS 4   /* sun.gc.collector.0..3 */
#define HSPERF_NAME          64   /* longest string value kept (causes, names) */

/* One entry of the file, as indexed. Offsets are from the start of the file. */
struct hsperf_entry {
	uint32_t name_off;        /* NUL-terminated inside the entry */
	uint32_t name_len;
	uint32_t data_off;        /* 8-aligned for 'J' */
	uint32_t vector_length;   /* 0 for a scalar */
	char type;                /* 'J' long, 'B' byte array (a string when units == 5) */
	uint8_t units;            /* 1 none, 2 bytes, 3 ticks, 4 events, 5 string, 6 hertz */
	uint8_t variability;      /* 1 constant, 2 monotonic, 3 variable */
};

/* Offsets into the file of the counters a sample reads (0 = absent). */
struct hsperf_plan {
	uint32_t hrt_frequency, hrt_ticks, create_vm_begin;
	uint32_t safepoints, safepoint_time, safepoint_sync;
	uint32_t threads_live;
	uint32_t cause, last_cause, policy;    /* strings: offset; length in *_len */
	uint32_t cause_len, last_cause_len, policy_len;
	uint32_t meta_cap, meta_used, ccs_cap, ccs_used, meta_max, ccs_max;
	struct {
		uint32_t name, name_len, capacity, max_capacity;
		struct { uint32_t name, name_len, capacity, max_capacity, used; } space[HSPERF_MAX_SPACES];
	} gen[HSPERF_MAX_GENS];
	struct {
		uint32_t name, name_len, invocations, time, last_entry, last_exit;
	} coll[HSPERF_MAX_COLLECTORS];
};

struct hsperf {
	const uint8_t *base;      /* the mapping (or a caller's buffer) */
	size_t size;              /* bytes of base that may be read */
	int fd;                   /* -1 for a buffer */
	bool mapped;
	char path[1024];
	/* the index: entries [0, nindexed) of the file's num_entries */
	struct hsperf_entry *ents;
	uint32_t nents, cap;
	uint32_t seen_entries;    /* num_entries when last indexed */
	uint32_t overflow;        /* bytes of counters that did not fit (-XX:PerfDataMemorySize):
				     those counters are missing from the file */
	int64_t mod_time;         /* hrt ticks of the last entry added */
	bool incomplete;          /* the last entry scanned was still being written */
	struct hsperf_plan plan;
	char why[1280];           /* why the last call failed, for a person */
};

/* One read of the counters. Sizes in bytes; times in ticks of hrt_frequency.
 * -1 where the JVM has no such counter (e.g. ZGC has no young generation,
 * JDK 17's ZGC no sun.gc.policy.name). */
struct hsperf_space {
	bool present;
	char name[16];            /* "eden", "s0", "s1", "space" */
	int64_t capacity, max_capacity, used;
};
struct hsperf_gen {
	bool present;
	char name[16];            /* "young", "old" */
	int64_t capacity, max_capacity;
	struct hsperf_space space[HSPERF_MAX_SPACES];
};
struct hsperf_collector {
	bool present;
	char name[HSPERF_NAME];   /* "G1 young collection pauses", "PSScavenge", ... */
	int64_t invocations, time, last_entry, last_exit;
};
struct hsperf_sample {
	int64_t mono_ns;          /* CLOCK_MONOTONIC when read (ours) */
	int64_t hrt_frequency;    /* ticks per second (1e9 on Linux) */
	int64_t hrt_ticks;        /* the JVM's clock, refreshed by its sampler every ~50 ms */
	int64_t create_vm_begin_ms; /* epoch ms */
	int64_t safepoints, safepoint_time, safepoint_sync;
	int64_t threads_live;
	char cause[HSPERF_NAME], last_cause[HSPERF_NAME], policy[HSPERF_NAME];
	struct hsperf_gen gen[HSPERF_MAX_GENS];
	struct hsperf_collector coll[HSPERF_MAX_COLLECTORS];
	int64_t meta_capacity, meta_used, ccs_capacity, ccs_used;
	int64_t meta_max, ccs_max;   /* maxCapacity (jstat -gccapacity MCMX, CCSMX), -1 unknown */
	/* derived: the Java heap */
	int64_t heap_committed;   /* sum of the generations' capacity */
	int64_t heap_used;        /* sum of the spaces' used */
	int64_t heap_max;         /* G1: one generation's maxCapacity (each is the whole heap);
				     else the sum of the generations' maxCapacity */
};

/* What happened between two samples. Times in ns; -1 where unknown. */
struct hsperf_delta {
	int64_t interval_ns;      /* between the two reads (our clock) */
	bool restarted;           /* a counter went backwards: not the same JVM; nothing else is set */
	int64_t safepoints;
	int64_t safepoint_op_ns;  /* sun.rt.safepointTime: JDK 17 counts from the end of the
				     cleanup to the end of the safepoint (SafepointTracing::end in
				     safepoint.cpp; seen live: ZGC's sync time exceeds it), so it
				     excludes the sync */
	int64_t ttsp_ns;          /* sun.rt.safepointSyncTime: time to safepoint, summed */
	int64_t stop_ns;          /* op + ttsp: threads stopped during the interval, less the
				     safepoint cleanups (in neither counter; usually microseconds).
				     JDK 8 and 11 timed safepointTime from the safepoint's begin,
				     sync included: there this double-counts the TTSP, and
				     safepoint_op_ns alone is the stop (not yet told apart here) */
	struct {
		int64_t gcs;          /* invocations in the interval */
		int64_t time_ns;      /* their summed time */
		int64_t one_gc_ns;    /* exactly one GC fell in the interval: its own duration
					 (lastExitTime - lastEntryTime); else -1 */
	} coll[HSPERF_MAX_COLLECTORS];
};

/* Map path and index it. 0, or -errno with h->why saying why in words
 * (-EBADMSG: not an hsperfdata file; -EAGAIN: the JVM is still starting). */
int hsperf_open(struct hsperf *h, const char *path);
/* Parse a buffer the caller owns and keeps (tests, the fuzzer). Same returns. */
int hsperf_open_mem(struct hsperf *h, const void *buf, size_t len);
void hsperf_close(struct hsperf *h);

/* Check the prologue and re-index when the JVM added entries. 0, or -errno
 * (-ESTALE: the file shrank under us, nothing may be read; -ESRCH: the file was
 * removed, the JVM has exited: find and open again to follow a new one). Called
 * by hsperf_sample(). */
int hsperf_refresh(struct hsperf *h);

/* Lookups in the index (tests and tools; a poll uses the plan). */
const struct hsperf_entry *hsperf_find(const struct hsperf *h, const char *name);
bool hsperf_long(const struct hsperf *h, const char *name, int64_t *out);
/* A string ('B') value, printable ASCII only (others become '?'), NUL-terminated.
 * Returns false (out "") when absent or unreadable. */
bool hsperf_string(const struct hsperf *h, const char *name, char *out, size_t cap);

/* Read every counter of struct hsperf_sample. 0 or -errno (h->why). */
int hsperf_sample(struct hsperf *h, struct hsperf_sample *s);
void hsperf_delta(const struct hsperf_sample *a, const struct hsperf_sample *b, struct hsperf_delta *d);

/* The stops, from the safepoint counters read often (stwtop: every
 * HSPERF_STEP_MS). A safepoint is counted when it begins, its time to
 * safepoint when it is reached, its time (sun.rt.safepointTime) when it ends.
 * Between two reads where safepoint time ended and no safepoint began,
 * exactly one stop ended, the one in progress at the earlier read: its time to
 * safepoint is what was reached since the last stop ended, its length that
 * plus the ended time (JDK 13+; JDK 8-12 count the sync in the ended time).
 * Where safepoints began too, up to began + 1 ended, all but the first inside
 * the window: the longest took at least max(ended - window, ended / (began + 1)),
 * and at least the time to safepoint carried from earlier reads. */
struct hsperf_stop {
	double total_ms, ttsp_ms;   /* the longest stop that ended; total -1: none */
	int64_t end_ms;             /* the read that saw it end (the caller's clock) */
	double window_ms;           /* it ended within this before end_ms */
	bool exact;                 /* its own length and TTSP, not lower bounds */
};
struct hsperf_stops {
	int64_t carry_ns;           /* time to safepoint of a stop that had not ended */
	struct hsperf_stop longest; /* since the last hsperf_stops_take */
};
void hsperf_stops_init(struct hsperf_stops *st);
/* one more pair of reads (d from hsperf_delta), the later at now_ms */
void hsperf_stops_step(struct hsperf_stops *st, const struct hsperf_delta *d, bool stop_has_sync, int64_t now_ms);
/* the longest stop since the last take (total_ms -1: none), and start again */
void hsperf_stops_take(struct hsperf_stops *st, struct hsperf_stop *out);

/* Where the file of pid is, as this process opens it: /tmp/hsperfdata_<user>/<pid>,
 * user the owner of /proc/PID (named from the JVM's own /etc/passwd, then
 * this machine's /etc/passwd), or /proc/PID/root/tmp/hsperfdata_<user>/<nspid> for a JVM in another
 * mount namespace (nspid: the last NSpid of /proc/PID/status); every
 * hsperfdata_* directory is tried when the name did not give it. root prefixes
 * /proc and /etc ("" live). 0 with path set, or -errno with why saying what
 * likely happened (-XX:-UsePerfData, -XX:+PerfDisableSharedMem, a private /tmp). */
int hsperf_find_file(const char *root, int pid, char *path, size_t pathlen, char *why, size_t whylen);

#endif
