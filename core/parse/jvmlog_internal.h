/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog_internal.h — shared state and helpers of the JVM log parser, split
 * over core/jvmlog.c (dispatch, decorations, time, pending state),
 * core/jvmlog_common.c (helpers every era parser uses),
 * core/jvmlog_unified.c (JDK 9+ -Xlog messages), core/jvmlog_jdk8.c (JDK 8
 * PrintGCDetails and stdout output) and core/jvmlog_safepoint.c (safepoint
 * lines, statistics rows and SafepointTimeout reports shared by all eras).
 * Not a public header: only the jvmlog*.c files include it. */
#ifndef STWTOP_JVMLOG_INTERNAL_H
#define STWTOP_JVMLOG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stwtop/event.h"
#include "stwtop/jvmlog.h"
#include "stwtop/util.h"

/* s[0..n) starts/ends with a string literal (no strlen at run time) */
#define JL_STARTS(s, n, lit) ((n) >= sizeof(lit) - 1 && memcmp((s), (lit), sizeof(lit) - 1) == 0)
#define JL_ENDS(s, n, lit) \
	((n) >= sizeof(lit) - 1 && memcmp((s) + (n) - (sizeof(lit) - 1), (lit), sizeof(lit) - 1) == 0)
#define JL_EQ(s, n, lit) ((n) == sizeof(lit) - 1 && memcmp((s), (lit), sizeof(lit) - 1) == 0)

/* The events one line produces, with the line's own time stamped on each. */
struct jl_out {
	struct event *ev;
	int cap;
	int n;
	int64_t t_ms;   /* time of the current line (EV_TIME_NONE if unknown) */
	int64_t up_us;  /* uptime of the current line (-1 if unknown) */
};

/* A SafepointTimeout report being read (several lines). */
struct jl_report {
	bool open;
	uint8_t spinning;
	uint16_t nthreads;
	bool cut;               /* names did not all fit */
	size_t names_n;
	char names[256];        /* ", "-joined, cut to struct ev_sp_timeout on emit */
	int64_t t_ms, up_us;    /* time of the last report line seen */
};

/* A JDK 8 record is read as it streams by (bracket depth and the few fields
 * kept in struct jl_g8): its memory does not grow with its length, so the
 * bound is on how much of the log one record may take before the parser
 * gives up on it, not on memory. A record is as long as the JVM writes it:
 * -XX:+PrintClassHistogram prints one row per loaded class before and after a
 * Full GC; garbagecat's dataset93 (JDK 8, G1) has 109,566 classes before and
 * 108,247 after, ~80 bytes a row, so ~17 MB in one record. 32 MiB holds that
 * with room; hitting it means an unclosed bracket, which is then counted as
 * unparsed with that reason (jvmlog_why()) instead of swallowing the log. */
#define JL_G8_MAX_BYTES ((size_t)32 << 20)

/* A JDK 8 PrintGCDetails pause being assembled across lines. */
struct jl_g8 {
	bool open;              /* the outer "[GC ..." bracket has not closed yet */
	bool await_heap;        /* closed, waiting for the G1 "[Eden: ... Heap: ...]" line */
	bool heap_split;        /* awaiting the heap: its line was split by "[GC concurrent-..." */
	bool heap_before;       /* "{Heap before GC" printed inside it: a collection
				 * starting now is nested in it (-XX:+CMSScavengeBeforeRemark) */
	int depth;              /* bracket depth while open */
	size_t bytes;           /* bytes of the lines read while open (JL_G8_MAX_BYTES) */
	uint64_t first_line;    /* jvmlog.nlines of the line that opened it */
	int64_t wall_ms;        /* stamps of the line that opened it (= pause start) */
	int64_t up_us;
	struct event ev;        /* the pause (t_ms/up_us filled when it closes) */
};

/* A JDK 8 Shenandoah concurrent phase printed over several lines: "[Concurrent
 * marking", its indented details ("    Cancelling GC: Allocation Failure"),
 * ", 2714.003 ms]" (shenandoahUtils.hpp ShenandoahConcurrentPhase, GCTraceTime). */
struct jl_sh8 {
	bool open;
	struct event ev;        /* EV_GC_CYCLE, stamps of its first line */
};

struct jvmlog {
	/* time */
	/* The anchor this parser last reported (EV_ANCHOR), EV_TIME_NONE when none
	 * since the start or a restart: only so that it is reported once per JVM.
	 * Placing uptime on the wall clock is store/jvmclock.c's, not the parser's. */
	int64_t anchor_told_ms;
	int64_t last_up_us;     /* highest recent uptime: restart detection */
	int8_t ns_mono;         /* single "ns" decoration: 1 timenanos, 0 uptimenanos, -1 undecided */

	/* jvmlog_set_general_only(): fast paths off, so tests can compare them */
	bool general_only;

	/* jvmlog.c deco_scan(): the decorations from the first one not starting
	 * with a digit (level, tags, hostname ...) to the message, as read on
	 * recent lines, and what they gave. A G1 log interleaves up to eight
	 * tag sets ([gc,start], [gc,task], [gc,phases], [gc,heap] ...). */
	struct jl_deco_tail {
		uint8_t n;              /* bytes, with the space after them; 0: none */
		int8_t last;            /* kind of the decoration before them */
		bool tags, tags_known, pid_set, tid_set;
		uint8_t tags_off, tags_n;
		uint8_t tag_kind;       /* jl_tag_kind() of the tags (enum jl_tag) */
		int level;
		int64_t pid, tid;
		char bytes[96];
	} deco_tail[8];            /* a power of two: indices wrap with a mask */
	unsigned deco_tail_next;   /* the entry to replace next */
	unsigned deco_tail_hit;    /* the entry that matched last: tried first */

	/* jl_iso8601(): the minute and offset of the last HotSpot timestamp */
	bool iso_ok;
	uint64_t iso_key[3];       /* "2017-01-12T04:43" and "-0500": the words of s[0..8),
				    * s[8..16) and s[20..28) without the 3 digits of ms */
	int64_t iso_minute_ms;     /* its epoch ms at second 0.000 */

	/* facts */
	int collector;          /* enum jvm_collector */
	int release;            /* JDK feature release, 0 unknown */
	bool release_explicit;  /* from a Version:/JRE line, not inferred from shapes */
	int64_t pid;            /* last pid decoration reported, -1 none */

	/* cross-line context of unified logs */
	int64_t evac_fail_gc_id;   /* GC(n) of the last "To-space exhausted" line */
	int64_t zcap_gc_id;        /* ZGC heap table: GC(n) and Capacity at Relocate End */
	int64_t zcap_kb;
	char sp_op[40];            /* "Entering safepoint region: <op>" (JDK 9-12) */

	/* a pause whose start line ([gc,start] "GC(n) Pause ...") came and whose
	 * summary has not yet: at the end of the log, a JVM that hung in it or was
	 * killed during it (issue 24). life_*: the time of the last line read, the
	 * log's last sign of life. */
	struct jl_open_pause {
		bool open;
		int64_t gc_id;
		int64_t t_ms, up_us;
		char msg[96];
		size_t msg_n;
	} open_pause;
	int64_t life_t_ms, life_up_us;

	/* pending multi-line items */
	bool stats_pending;        /* a safepoint+stats row waiting for its "Safepoint" line */
	struct event stats_ev;
	/* JDK 8 -XX:+PrintSafepointStatistics: the row of the last line, whose
	 * "Total time for which application threads were stopped" line HotSpot
	 * prints right after it (one safepoint: the row's event only), and the
	 * statistics printed at exit after "Polling page always armed" */
	bool sp8_row, sp8_prev;    /* a row on the last line / on the line before this one */
	double sp8_row_ms, sp8_prev_ms;
	bool sp8_exit_stats;
	/* -XX:+LogVMOutput's XML around the JVM's output: 0 none, 1 its header
	 * (<hotspot_log> to </vm_arguments>), 2 after it (<tty> and its tags) */
	uint8_t hsl;
	struct jl_report rep;
	struct jl_g8 g8;
	struct jl_sh8 sh8;
	bool histo;                /* a JDK 8 "[Class Histogram" is being printed */

	/* why the last line returned JVMLOG_UNKNOWN, when more than "not a JVM line" */
	/* lines of JDK 8 records given up on (returned as parsed when read):
	 * jvmlog_take_lost() hands them to the caller to count as unparsed */
	uint64_t nlines;        /* lines fed so far (the source's line numbers) */
	uint64_t blank_lines;   /* of those, nothing but blanks (jvmlog_blank_lines) */
	uint64_t restarts;      /* restart() calls: a JVM started again in the log */
	uint64_t lost_lines, lost_first;
	const char *lost_why;
	const char *why;
};

/* ---- jvmlog_common.c: helpers every era parser uses ---- */
/* Numbers from a line are untrusted: these keep every conversion and sum defined
 * (a duration of 1e300 ms must not become undefined behaviour here or in
 * ev_start_ms()). Durations are clamped to [0, JL_MAX_MS]. */
#define JL_MAX_MS 1e12   /* ~31 years */
/* jl_ms(), jl_i32(), jl_infer_release() are inline: every field of every
 * safepoint line goes through them */
static inline double jl_ms(double v)
{
	if (!(v >= 0)) /* also NaN */
		return 0;
	return v > JL_MAX_MS ? JL_MAX_MS : v;
}
int64_t jl_i64(double v);          /* rounded, saturated to +-9e18 */
int64_t jl_kb(double kb);          /* rounded, saturated */
int64_t jl_add(int64_t a, int64_t b);  /* saturated */
static inline int32_t jl_i32(int64_t v) /* -1 when out of range */
{
	return v < 0 || v > INT32_MAX ? -1 : (int32_t)v;
}
/* The next event of the line, of that kind, stamped with the line's time;
 * NULL when out is full. Inline: one per stop line of a JDK 8 log. */
static inline struct event *jl_push(struct jl_out *o, enum ev_kind kind)
{
	struct event *e;
	if (o->n >= o->cap)
		return NULL; /* cap >= JVMLOG_MAX_EVENTS is the contract; never overrun */
	e = &o->ev[o->n++];
	ev_init(e, kind);
	e->t_ms = o->t_ms;
	e->up_us = o->up_us;
	return e;
}
void jl_push_copy(struct jl_out *o, const struct event *e);
void jl_set_collector(struct jvmlog *p, int c, struct jl_out *o, const char *name, size_t name_n);
/* Raise the inferred JDK release to at least rel (no effect once a Version line was read). */
static inline void jl_infer_release(struct jvmlog *p, int rel)
{
	if (!p->release_explicit && rel > p->release)
		p->release = rel;
}
/* Feature release of a version string: "17.0.15+6" -> 17, "1.8.0_282" -> 8, "21+35" -> 21 */
int jl_feature_release(const char *s, size_t n);

/* The three helpers below run on every line of every era: inline, so a call
 * does not cost more than the scan (tests/bench/compare.sh measured it). */
/* jl_skip_ws(): most lines of a PrintGCDetails log are indented by 3 or 6
 * spaces and the others by none, and byte by byte this loop was 2.6% of a
 * JDK 8 replay's instructions: the first byte alone, then eight at a time.
 * A byte is a blank when it equals ' ' or '\t', i.e. when its xor with one of
 * them is 0; ((x & 0x7f) + 0x7f) | x has its high bit set exactly when the
 * byte x is not 0 (no carry leaves a byte). */
static inline size_t jl_skip_ws(const char *s, size_t n, size_t i)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL, hi = 0x8080808080808080ULL;
	if (i >= n || (s[i] != ' ' && s[i] != '\t'))
		return i;
	while (n - i >= 8) {
		uint64_t w = util_load8_le(s + i);
		uint64_t sp = w ^ 0x2020202020202020ULL, tab = w ^ 0x0909090909090909ULL;
		uint64_t other = (((sp & lo7) + lo7) | sp) & (((tab & lo7) + lo7) | tab) & hi;
		if (other)
			return i + (size_t)__builtin_ctzll(other) / 8;
		i += 8;
	}
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* only spaces and tabs (or empty) */
static inline bool jl_blank(const char *s, size_t n)
{
	return jl_skip_ws(s, n, 0) == n;
}

/* First occurrence of lit[0..k) in s[0..n), NULL if none: memmem() without
 * its per-call set-up, which costs more than scanning a log line. */
static inline const char *jl_find(const char *s, size_t n, const char *lit, size_t k)
{
	const char *end = s + n;
	if (k == 0)
		return s;
	while ((size_t)(end - s) >= k) {
		const char *c = memchr(s, lit[0], (size_t)(end - s) - k + 1);
		if (!c)
			return NULL;
		if (memcmp(c + 1, lit + 1, k - 1) == 0)
			return c;
		s = c + 1;
	}
	return NULL;
}
#define JL_FIND(s, n, lit) jl_find((s), (n), (lit), sizeof(lit) - 1)
/* "<digits>[.<digits>]<unit>" with unit B/K/M/G/T -> KB; returns chars consumed or 0 */
size_t jl_parse_size_kb(const char *s, size_t n, double *kb);
/* "A->B(C)" (sizes with units); returns chars consumed or 0 */
size_t jl_parse_heap(const char *s, size_t n, int64_t *before, int64_t *after, int64_t *committed);
/* "GC(<n>) " prefix: returns chars consumed (0 if absent) and sets *id */
size_t jl_parse_gc_id(const char *s, size_t n, int64_t *id);
/* Balanced "(...)" starting at s[0]; returns length including both parentheses, 0 if unbalanced. */
size_t jl_paren_len(const char *s, size_t n);
/* Classify a cause string into flags (periodic, System.gc() ...). */
uint16_t jl_cause_flags(const char *s, size_t n);

/* ---- jvmlog.c: time and pending state ---- */
/* Stamp the current line: restart detection, anchor learning (emits EV_ANCHOR). */
void jl_time(struct jvmlog *p, int64_t wall_ms, int64_t up_us, struct jl_out *o);
/* jl_iso8601(): util_parse_iso8601() with the same result for every input,
 * faster on consecutive HotSpot timestamps of one minute. HotSpot writes
 * os::iso8601_time(), "2017-01-12T04:43:46.411-0500", on every line of a JDK 8
 * gc log with PrintGCDateStamps and of a unified log with the time
 * decoration, and one minute covers many lines. The minute and offset of
 * the last one fully parsed are kept: a line with the same bytes there only
 * needs its seconds and milliseconds. util_parse_iso8601() is linear in those
 * (util_utc_ms() adds sec * 1000 + ms), and the bytes compared already passed
 * its checks of year, month, day, hour, minute and offset, so only the seconds
 * (<= 60) are checked again. Any other shape (no offset, "Z", "+05:30", other
 * fraction lengths) takes util_parse_iso8601() every time.
 * jl_iso_cached(): the kept minute applies to s[0..28); *epoch_ms set. */
#define JL_ISO_OFFSET_BYTES 0xffffffffff000000ULL /* s[23..28) of the word at s + 20 */

static inline int jl_dig2(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

/* The checks and compares of jl_iso_cached() are done a word at a time: it runs
 * on every line of such a log, and byte by byte they were 3% of a JDK 8
 * replay's instructions. */
static inline bool jl_iso_cached(const struct jvmlog *p, const char *s, int64_t *epoch_ms)
{
	int se;
	/* ":SS.mmm" and the offset's sign: ':' at 16 and '.' at 19 ... */
	uint64_t w = util_load8_le(s + 16);
	if (!p->iso_ok || (w & 0x00000000ff0000ffULL) != (':' | (uint64_t)'.' << 24))
		return false;
	/* ... and digits at 17, 18, 20, 21, 22 (the other bytes made a '0') */
	if (util_digits8((w & 0x00ffffff00ffff00ULL) | 0x3000000030000030ULL) != 8)
		return false;
	se = jl_dig2(s + 17);
	if (se > 60 || ((util_load8_le(s) ^ p->iso_key[0]) | (util_load8_le(s + 8) ^ p->iso_key[1]) |
			((util_load8_le(s + 20) & JL_ISO_OFFSET_BYTES) ^ p->iso_key[2])) != 0)
		return false;
	*epoch_ms = p->iso_minute_ms + se * 1000 + jl_dig2(s + 20) * 10 + (s[22] - '0');
	return true;
}

size_t jl_iso8601_parse(struct jvmlog *p, const char *s, size_t n, int64_t *epoch_ms, bool *has_zone);
/* Inline up to the kept minute's test: a JDK 8 line's stamp is read here,
 * and the call around that test showed */
static inline size_t jl_iso8601(struct jvmlog *p, const char *s, size_t n, int64_t *epoch_ms, bool *has_zone)
{
	if (!p->general_only && n >= 28 && jl_iso_cached(p, s, epoch_ms)) {
		*has_zone = true;
		return 28;
	}
	return jl_iso8601_parse(p, s, n, epoch_ms, has_zone);
}
/* Emit every pending multi-line item (reports, stats rows, JDK 8 pauses). */
void jl_flush_pending(struct jvmlog *p, struct jl_out *o);
/* An open pause (struct jl_open_pause) that will never end in this log (its
 * end, or a restart of the JVM in the same log): one EV_GC_PAUSE with
 * PAUSE_F_OPEN, ending at the log's last sign of life. */
void jl_open_pause_flush(struct jvmlog *p, struct jl_out *o);

/* ---- jvmlog_unified.c ---- */
/* Interpret "Pause ..." title text (without heap and duration) into e->u.pause. */
void jl_pause_title(struct jvmlog *p, const char *s, size_t n, struct event *e);
/* tag sets the parser cares about */
enum jl_tag {
	JL_TAG_NONE = 0,     /* no tags decoration on the line */
	JL_TAG_OTHER,        /* a non-GC, non-safepoint tag set */
	JL_TAG_GC,           /* exactly "gc": pause summaries, cycles, stalls, Using ... */
	JL_TAG_GC_INIT,
	JL_TAG_GC_PHASES,    /* ZGC phase pauses */
	JL_TAG_GC_HEAP,      /* ZGC heap table (committed capacity) */
	JL_TAG_GC_PERIODIC,
	JL_TAG_GC_ALLOC,     /* generational ZGC allocation stalls */
	JL_TAG_GC_HEAP_EXIT, /* the heap printed as the JVM exits */
	JL_TAG_GC_START,     /* "gc,start": a pause's start line ("GC(n) Pause Young (...)") */
	JL_TAG_GC_SKIP,      /* any other gc,* tag set: details we never need */
	JL_TAG_SAFEPOINT,
	JL_TAG_SAFEPOINT_STATS
};
enum jl_tag jl_tag_kind(const char *s, size_t n);
/* A unified-logging message (decorations removed). Returns events or 0. */
int jl_unified_message(struct jvmlog *p, enum jl_tag tag, const char *m, size_t n, struct jl_out *o);
/* Messages every era shares (Using, Version, CPUs, heap capacities ...): 1 if handled. */
int jl_info_message(struct jvmlog *p, const char *m, size_t n, struct jl_out *o);
/* "Pause ..." summary with "<heap> <dur>ms" or JDK 8 Shenandoah ", <dur> ms]". */
int jl_pause_summary(struct jvmlog *p, const char *m, size_t n, int64_t gc_id, bool phase_tag,
		     struct jl_out *o);

/* ---- jvmlog_safepoint.c ---- */
/* "Safepoint \"op\", Time since last: ..." */
int jl_sp_unified(struct jvmlog *p, const char *m, size_t n, struct jl_out *o);
/* "Total time for which application threads were stopped: ...": m starts
 * with JL_SP_STOPPED (every caller has matched it already) */
#define JL_SP_STOPPED "Total time for which application threads were stopped: "
/* clean (may be NULL): how many bytes of m from its start are known to hold
 * no '[' (what the fast path read without a gap; 0 when it did not parse) */
int jl_sp_stopped(struct jvmlog *p, const char *m, size_t n, struct jl_out *o, size_t *clean);
/* A statistics row "<op> [ threads ][ times ] n" (ms_units: JDK 8/11 stdout rows). Sets *ev. */
bool jl_sp_stats_row(const char *m, size_t n, bool ms_units, struct event *ev);
/* Report lines: returns 1 if the line belongs to a SafepointTimeout report. */
int jl_report_line(struct jvmlog *p, const char *m, size_t n, struct jl_out *o);
void jl_report_flush(struct jvmlog *p, struct jl_out *o);
bool jl_report_shape(const char *m, size_t n);

/* ---- jvmlog_jdk8.c ---- */
/* A line without unified decorations (JDK 8 gc log, stdout, console). */
int jl_plain_line(struct jvmlog *p, const char *s, size_t n, struct jl_out *o);
void jl_g8_abandon(struct jvmlog *p, const char *why, bool with_current);
void jl_g8_flush(struct jvmlog *p, struct jl_out *o);

#endif
