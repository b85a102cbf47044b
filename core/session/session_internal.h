/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session_internal.h — what session.c and session_kinds.c share: the
 * session's and its sources' state, and the per-kind table (one row per
 * enum src_kind). Not a public header: nothing outside core/session/session*.c
 * includes it. */
#ifndef STWTOP_SESSION_INTERNAL_H
#define STWTOP_SESSION_INTERNAL_H

#include "stwtop/session.h"
#include "stwtop/jvmclock.h"
#include "stwtop/jvmlog.h"
#include "stwtop/nginx.h"
#include "stwtop/reader.h"

#include <stdio.h>

#define MAX_SOURCES 96  /* CLI_MAX_SOURCES and what the session adds (a pid's logs, probes) */
#define MAX_LINE (1 << 20)          /* longer lines are cut and counted */
#define ANCHOR_SCAN_BYTES (4 << 20) /* how far the report looks for a JVM anchor */
#define QCAP 16

/* An nginx log's state (session_kinds.c: nginx_setup, nginx_fini) */
struct nginx_src {
	struct nginx_fmt *fmt;
	bool fmt_detect;                 /* no format given: guess from the first lines */
	bool fmt_guessed;                /* fmt is that guess */
	struct nginx_sniff sniff;
	/* lines of a second format in the same file (a reload changed it, two
	 * access_log lines write it): read with the config's other formats
	 * (alt, --nginx-conf FILE without :NAME), else counted and named (other) */
	char *fmt_name;                  /* the config's name of fmt, NULL none */
	struct nginx_fmt *alt[NGINX_CONF_MAX_FMTS];
	char *alt_name[NGINX_CONF_MAX_FMTS];
	uint64_t alt_lines[NGINX_CONF_MAX_FMTS];
	int nalt;
	struct nginx_fmt *other;         /* the format of the first line fmt missed, if it has one */
	bool other_tried;
	uint64_t other_lines;
};

struct source {
	enum src_kind kind;
	const struct kind_ops *ops;   /* session_kind_ops(kind), looked up once */
	const char *looks;            /* JVM source: what its unread lines look like (jvmlog_foreign_shape) */
	char *path;
	const char *name;                /* in path, or namebuf (session.c: source_name) */
	char namebuf[24];                /* "pipe 63", "fd 3" */
	struct source_stats st;
	struct jvmlog *jvm;
	const uint64_t *jvm_lost;        /* jvmlog_lost_counter(jvm): lines of records given up on */
	/* the state of its kind, made by its row's setup and let go by its fini */
	union {
		struct nginx_src nginx;      /* SRC_NGINX */
		struct schedlog *sched;      /* SRC_SCHEDLOG */
		char rec_anchor_how[160];    /* SRC_RECORD: jvm_start_how of the meta line just parsed */
	} k;
	int64_t last_up_us;              /* uptime of the newest JVM event, -1 none */
	int64_t last_line_mono_ms;       /* live: when its last line was read */
	bool flushed;                    /* its kind's flush ran (end of input) */
	/* report reader */
	bool opened;                     /* the merge has started with it */
	struct reader rd;
	struct event q[QCAP];
	int qhead, qn;
};

#define TIMEOUT_MEMORY 16
struct seen_timeout {
	int src;
	int64_t up_us;
	char threads[112];
};

struct session {
	struct session_opts o;
	/* a report: a pause the JVM log began and never ended (PAUSE_F_OPEN) is held
	 * until the end, when the JVM's exit (EV_JVM_EXIT alive_ms, read from a
	 * recording after the log's end) may say it lasted longer (issue 24) */
	bool hold_open;
	bool open_held;
	int open_src;
	struct event open_ev;
	int64_t jvm_alive_ms;          /* the latest EV_JVM_EXIT alive_ms, EV_TIME_NONE none */
	struct rules_config rcfg;
	struct source *src[MAX_SOURCES];
	int nsrc;
	unsigned have;                /* HAVE_* of every source added */
	struct summary sum;
	struct timeline tl;
	struct rules *rules;
	struct jvmclock clock;
	int64_t last_eval_ms;
	bool eval_on_data;
	unsigned evals_unkept;        /* evaluations since the timeline's keep was set */
	struct seen_timeout timeouts[TIMEOUT_MEMORY];
	unsigned ntimeouts;               /* report/demo: judge as the data's clock advances */
	char *nginx_conf_format;         /* format read from --nginx-conf */
	char *nginx_conf_path;           /* --nginx-conf FILE without :NAME: each log its own format */
	char nginx_conf_why[256];        /* why FILE alone names no one format (NULL format) */
	char *hints[SESSION_MAX_HINTS];
	int nhints;
};

/* --- what differs per kind of source: one row each (session_kinds.c) --- */

enum have { HAVE_JVM = 1, HAVE_NGINX = 2, HAVE_CPU = 4, HAVE_SCHED = 8, HAVE_VMSTAT = 16 };

enum kind_read {
	READ_NONE = 0,   /* polled counters: the caller feeds events */
	READ_LINES,      /* a file, line by line (the report merges them by time) */
	READ_WHOLE       /* a file that is one event (session_read_hserr) */
};

/* where a parser says why a line did not parse: s[0..n), only when wanted
 * (six arguments in registers: this is called for every line) */
struct why {
	char *s;
	size_t n;
	bool wanted;
};

struct kind_ops {
	const char *name;          /* src_kind_name */
	const char *alias;         /* another name src_kind_from_name() takes ("gc" for jvm) */
	const char *expected;      /* what its lines should be: "N of M lines of F were not <expected>" */
	enum kind_read read;
	unsigned have;             /* enum have: what the rules may count on when it is given */
	/* A JVM log: its uptime is on the JVM clock; lines of other tags are not
	 * failures; said unread only when no JVM source parsed (a console log
	 * given with --safepoint may hold only application lines) */
	bool jvm;
	enum anchor_from anchor;   /* what an EV_ANCHOR of it is: ANCHOR_LINE, or a recording's meta line */
	const char *not_parsed;    /* why a line did not parse, when the parser does not say */
	/* set up its parser when added: 0, or -errno with err */
	int (*setup)(struct session *s, struct source *src, char *err, size_t errlen);
	/* let go of what setup made (src->k), when the source goes */
	void (*fini)(struct source *src);
	/* one line into out[]: the number of events, < 0 when it is not of the
	 * format (why: the parser's reason, when wanted) */
	int (*parse)(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w);
	/* the line is kept back before parsing (nginx sniffing its format): true */
	bool (*hold)(struct session *s, int i, const char *line, size_t len);
	/* decisions that waited for more lines, taken with what there is */
	void (*decide)(struct session *s, int i);
	/* at the end of the input: the events that waited for a later line */
	int (*flush)(struct source *src, struct event *out, int cap);
	/* live, every interval */
	void (*tick)(struct session *s, int i);
	/* (almost) none of its lines could be read: the note (true), with why =
	 * " (first at line N: reason)" or ""; NULL: never said */
	bool (*unread)(const struct source *src, const char *what, const char *why, char *out, size_t outlen);
	const char *what;          /* for unread: "could not be read as <what>" */
};

/* The JVM kind's parse: its source's line through jvmlog (src->jvm, which
 * only this kind sets up). Inline: parse() in session.c calls it without the
 * table's indirection for a source with src->jvm, as it runs for every line
 * of a JVM log (millions in a report). */
static inline int kind_jvm_parse(struct source *src, const char *line, size_t len, struct event *out, int cap,
				 struct why *w)
{
	int n = jvmlog_parse_line(src->jvm, line, len, out, cap);
	/* a record given up (longer than the parser's bound) says so */
	const char *given_up = n < 0 && w->wanted ? jvmlog_why(src->jvm) : NULL;
	if (given_up)
		snprintf(w->s, w->n, "%s", given_up);
	return n;
}

/* The row of kind k (a row that does nothing for an unknown kind). */
const struct kind_ops *session_kind_ops(enum src_kind k);

#endif
