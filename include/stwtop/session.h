/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h — the pipeline that every mode shares: sources -> parsers ->
 * summary + timeline -> rules. The report reads each file once, merging the
 * sources by time; the live run (live.h) feeds it lines as the tailer
 * delivers them and samples as the pollers take them. Views read the session.
 */
#ifndef STWTOP_SESSION_H
#define STWTOP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"
#include "stwtop/jvmclock.h"   /* enum anchor_from */
#include "stwtop/rules.h"
#include "stwtop/summary.h"
#include "stwtop/timeline.h"

enum src_kind {
	SRC_JVM = 1,      /* --gc / --safepoint: any JVM log, detected per line */
	SRC_NGINX,        /* --nginx */
	SRC_CPUSTAT,      /* --cpustat-log: recorded cpu.stat lines */
	SRC_RECORD,       /* --replay: stwtop's own NDJSON recording */
	SRC_SCHEDLOG,     /* --schedstat-log: per-thread schedstat CSV (epoch_ms,tid,comm,run_ns,wait_ns,slices) */
	SRC_VMSTATLOG,    /* --vmstat-log: "<epoch_ms> allocstall_dma N ... pageoutrun N" */
	SRC_HSERR,        /* a JVM crash report (hs_err_pid*.log) */
	SRC_PROBE         /* polled counters (cgroup, schedstat, vmstat): no file */
};

const char *src_kind_name(enum src_kind k);   /* "jvm", "nginx", "cpustat", "record", ... */
/* a file kind by its name or its alias ("gc" for jvm, as a demo.conf says it); -1 none */
int src_kind_from_name(const char *name);

struct source_stats {
	uint64_t lines, parsed, unparsed, cut, events;
	uint64_t lost;             /* of unparsed: lines of JVM records given up on (jvmlog_take_lost) */
	uint64_t records;          /* of events: what a stop can be checked on (SESSION_RECORD_KINDS) */
	uint64_t infos;            /* of events: facts about the JVM (EV_JVM_INFO: version, flags ...) */
	char first_error[200];     /* first unparsed line's reason (nginx), "" if none */
	uint64_t first_error_line;
	char note[200];            /* last tailer note: waiting, rotated, error ... */
	bool error;                /* could not be read (report: exit 1) */
	bool waiting;              /* live: the file (or its directory) does not exist yet */
	int64_t last_read_ms;      /* wall clock when its last line or sample was read, 0 none
	                            * (coarse: a few ms; stwtop_source_last_line_timestamp_seconds) */
};

struct session_opts {
	bool keep_lines;           /* live: keep raw lines for the Lines pane */
	const char *nginx_format;  /* --nginx-format; NULL: --nginx-conf or detection */
	const char *nginx_conf;    /* --nginx-conf FILE[:NAME] */
	int64_t jvm_start_ms;      /* --jvm-start / --pid: wall clock of JVM uptime 0; EV_TIME_NONE */
	bool explicit_serial;      /* -XX:+UseSerialGC seen on the JVM's command line */
	const struct rules_config *rules;   /* NULL = defaults */
	bool verbose;              /* call on_unparsed for every line that did not parse */
	/* --verbose: why line `line` of source src did not parse (core does not
	 * print; the front end says it, at most so many times) */
	void (*on_unparsed)(void *ctx, int src, const char *name, uint64_t line, const char *why);
	void *unparsed_ctx;
};

struct session;

struct session *session_new(const struct session_opts *o, char *err, size_t errlen);
void session_free(struct session *s);

/* Add a source. Returns its index (>= 0) or -errno with err (e.g. a bad nginx
 * format). Files are not opened here. */
int session_add_source(struct session *s, enum src_kind kind, const char *path, char *err, size_t errlen);
int session_nsources(const struct session *s);
enum src_kind session_source_kind(const struct session *s, int i);
const char *session_source_path(const struct session *s, int i);
const char *session_source_name(const struct session *s, int i);   /* basename */
const struct source_stats *session_source_stats(const struct session *s, int i);
void session_source_note(struct session *s, int i, const char *note, bool is_error);
/* live: source i's file does not exist (yet) and is waited for, or is there now */
void session_source_waiting(struct session *s, int i, bool waiting);

/* Feed one complete line of source i (live mode, or tests). live_now_ms: the
 * wall clock when it was read live (to anchor uptime-only logs being written
 * now), EV_TIME_NONE when replaying. */
void session_feed_line(struct session *s, int i, const char *line, size_t len, unsigned flags,
		       int64_t live_now_ms);
/* Feed a polled sample (EV_CPU, EV_MEM, EV_SCHED, EV_VMSTAT) or any event. */
void session_feed_event(struct session *s, int i, struct event *e);
/* Read a --hs-err source whole (a crash report is one event). 0 or -errno. */
int session_read_hserr(struct session *s, int i);
/* Live, every interval: decisions that waited for more lines are taken with
 * what there is (an nginx format guessed from fewer than 20 lines). */
void session_tick(struct session *s);
/* End of a finished source (report mode, or a replay file at EOF). */
void session_source_eof(struct session *s, int i);
/* Live: the followed JVM is gone (after its EV_JVM_EXIT was fed): its logs
 * are read to their end, so a pause it died in becomes a stop of at least
 * until it was last seen alive. */
void session_jvm_gone(struct session *s);

/* Report mode: read every source from the start, merged by time. 0, or -1 if
 * a source could not be read (its stats say why; the others are still read). */
int session_run_report(struct session *s);
/* The same in steps (the demo replays at a pace): open every source (and find
 * the JVM's start), then emit the merged events up to a time. */
int session_replay_open(struct session *s);
bool session_replay_step(struct session *s, int64_t until_ms);   /* true while events remain */
int64_t session_replay_next_time(struct session *s);             /* EV_TIME_NONE at the end */
void session_replay_finish(struct session *s);
/* Live: judge only on the view's clock (not while a backlog is read). */
void session_set_eval_on_data(struct session *s, bool on);

/* Judge again (live: every tick with the wall clock; final at end of input). */
void session_eval(struct session *s, int64_t now_ms, bool final);

void session_set_listener(struct session *s, rules_change_fn fn, void *ctx);
/* The wall clock of JVM uptime 0 in use (EV_TIME_NONE unknown). */
int64_t session_jvm_anchor(const struct session *s);
void session_set_jvm_anchor(struct session *s, int64_t start_ms, const char *how);   /* ANCHOR_GIVEN */
void session_set_jvm_anchor_from(struct session *s, int64_t start_ms, enum anchor_from from, const char *how);
enum anchor_from session_jvm_anchor_from(const struct session *s);
const char *session_jvm_anchor_how(const struct session *s);
/* uptime-only JVM events that could not be placed on the clock */
uint64_t session_unanchored(const struct session *s);
/* true when the JVM logs carry only uptime and no other source has a wall
 * clock: times on the timeline are then JVM uptime (epoch 0 = JVM start) */
bool session_uptime_axis(const struct session *s);
/* JVM uptime (µs) of the newest event of source i, -1 if none had one */
int64_t session_source_last_uptime_us(const struct session *s, int i);

/* Hints: what the user should know before trusting the screen, found while
 * setting up (a discovered JVM that writes no GC log and the exact -Xlog option
 * or `jcmd PID VM.log ...` to fix it, a --pid that is not a JVM, ...). One line
 * each, no leading "- ", in the order added; the same text is kept once. The
 * TUI shows them, --plain prints them at start (live.h). */
#define SESSION_MAX_HINTS 8
int session_add_hint(struct session *s, const char *text);   /* 0, -E2BIG full, -ENOMEM */
/* forget the hints that contain part (what they advised was done); how many */
int session_drop_hints(struct session *s, const char *part);
const char *const *session_hints(const struct session *s, int *n);

const struct summary *session_summary(const struct session *s);
const struct timeline *session_timeline(const struct session *s);
const struct rules *session_rules(const struct session *s);
/* What the input could not show, one sentence each: sources that (almost) did
 * not parse, stops with no verdict while the source that could explain them
 * is missing, a GC log without safepoint lines (rules_notes). */
#define SESSION_NOTE_LEN RULES_NOTE_LEN
size_t session_notes(const struct session *s, char (*out)[SESSION_NOTE_LEN], size_t max);
/* The events a JVM log is read for: GC pauses and cycles, safepoints and
 * their timeouts, periodic GC checks, allocation stalls. A JVM log without
 * any (a header just written after a rotation, the statistics printed at
 * exit) was read, but there was nothing in it to check. */
#define SESSION_RECORD_KINDS                                                                       \
	((1u << EV_GC_PAUSE) | (1u << EV_GC_CYCLE) | (1u << EV_SAFEPOINT) | (1u << EV_SP_TIMEOUT) |   \
	 (1u << EV_PERIODIC_SKIP) | (1u << EV_ALLOC_STALL))
/* What the input let stwtop check (session_checked.c). A source is checked
 * when something was read from it: for the JVM logs, a record of
 * SESSION_RECORD_KINDS in one of them (the JVM logs are judged together: a
 * console log beside a GC log holds JVM lines only when a safepoint timed
 * out); for another kind, when most of its lines parsed. The report's
 * headline says "nothing abnormal" only when every source was checked.
 * A JVM source without records is told apart by what it held: JVM output
 * without records (no-records) or text stwtop does not read (not-understood:
 * no line but blank ones parsed, or more than this share of its lines did
 * not parse). A source of another kind is "mostly not understood" when more
 * than this share of its lines did not parse: a healthy JVM log parses 99-100 % (every sample and recording
 * of tests/), the worst real log we read (a JDK 8 Shenandoah log with its
 * statistics tables, samples/public-gc-logs/dataset259.txt) 28 %; a binary or
 * an IBM/OpenJ9 verbose GC log 3-7 %. 80 % leaves room for a log that is half
 * other output and still says so when nearly nothing was understood. JVM
 * sources are judged together first: a console log given with --safepoint
 * beside a GC log holds application lines and JVM lines only when a safepoint
 * timed out, so it is said only when the JVM sources as a whole were mostly
 * not understood. */
#define SESSION_UNREAD_SHARE 0.80
enum src_checked {
	SRC_CHECKED_YES = 0,          /* read and mostly understood */
	SRC_CHECKED_UNREADABLE,       /* could not be read (stats.error) */
	SRC_CHECKED_EMPTY,            /* read, no line in it */
	SRC_CHECKED_NOT_UNDERSTOOD,   /* more than SESSION_UNREAD_SHARE of its lines did not parse */
	SRC_CHECKED_NO_RECORDS        /* JVM output read, but no record in it (nor in the other JVM logs) */
};
/* "yes", "unreadable", "empty", "not-understood", "no-records" */
const char *src_checked_name(enum src_checked c);
enum src_checked session_source_checked(const struct session *s, int i);
#define SESSION_CHECKED_MAX_WHY 8
#define SESSION_CHECKED_WHY_LEN 320
struct session_checked {
	bool complete;                /* every source checked */
	bool nothing;                 /* no source checked: nothing was */
	size_t nwhy;                  /* one sentence per source not checked, in order */
	char why[SESSION_CHECKED_MAX_WHY][SESSION_CHECKED_WHY_LEN];
};
void session_checked(const struct session *s, struct session_checked *out);
/* the nginx format in use (NUL-terminated), NULL if none yet */
const char *session_nginx_format(const struct session *s);
/* the log_format source i (nginx) is read with: each access log can have its own */
const char *session_source_nginx_format(const struct session *s, int i);
/* an nginx source's format was guessed from its lines (none given) and has
 * fields the guess could not name: times it lacks may be in the lines */
bool session_nginx_guessed(const struct session *s);

#endif
