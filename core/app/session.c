/* session.c — sources -> parsers -> summary + timeline -> rules (session.h).
 *
 * Time: every event reaches the timeline with a UTC wall-clock time; JVM
 * lines that carry only uptime wait in the JVM clock (jvmclock.h) until the
 * JVM's start is known. The report looks for it before it starts merging.
 */
#include "stwtop/session.h"
#include "stwtop/cpustat.h"
#include "stwtop/samplelog.h"
#include "stwtop/hserr.h"
#include "stwtop/jvmlog.h"
#include "stwtop/linebuf.h"
#include "stwtop/nginx.h"
#include "stwtop/reader.h"
#include "stwtop/record.h"
#include "stwtop/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCES 64
#define MAX_LINE (1 << 20)          /* longer lines are cut and counted */
#define SCHEDLOG_QUIET_MS 1000      /* live: a schedstat sample with no rows for this long is whole */
#define ANCHOR_SCAN_BYTES (4 << 20) /* how far the report looks for a JVM anchor */
#define QCAP 16

struct source {
	enum src_kind kind;
	char *path;
	const char *name;
	struct source_stats st;
	struct jvmlog *jvm;
	struct nginx_fmt *fmt;
	bool fmt_detect;                 /* no format given: guess from the first lines */
	struct nginx_sniff sniff;
	struct schedlog *sched;
	char rec_anchor_how[160];        /* SRC_RECORD: jvm_start_how of the meta line just parsed */
	int64_t last_up_us;              /* uptime of the newest JVM event, -1 none */
	int64_t last_line_mono_ms;       /* live: when its last line was read */
	bool flushed;                    /* jvmlog_flush done at EOF */
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
	struct rules_config rcfg;
	struct source *src[MAX_SOURCES];
	int nsrc;
	struct summary sum;
	struct timeline tl;
	struct rules *rules;
	struct jvmclock clock;
	int64_t last_eval_ms;
	bool has_nginx_uct;
	bool eval_on_data;
	unsigned evals_unkept;        /* evaluations since the timeline's keep was set */
	struct seen_timeout timeouts[TIMEOUT_MEMORY];
	unsigned ntimeouts;               /* report/demo: judge as the data's clock advances */
	char *nginx_conf_format;         /* format read from --nginx-conf */
	char *hints[SESSION_MAX_HINTS];
	int nhints;
};

/* --- what differs per kind of source: one row each --- */

static void emit(struct session *s, int i, struct event *e);
static void nginx_detect(struct session *s, struct source *src, int i);

enum have { HAVE_JVM = 1, HAVE_NGINX = 2, HAVE_CPU = 4, HAVE_SCHED = 8, HAVE_VMSTAT = 16 };

enum kind_read {
	READ_NONE = 0,   /* polled counters: the caller feeds events */
	READ_LINES,      /* a file, line by line (the report merges them by time) */
	READ_WHOLE       /* a file that is one event (session_read_hserr) */
};

struct kind_ops {
	const char *name;          /* src_kind_name */
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
	/* one line into out[]: the number of events, < 0 when it is not of the
	 * format (why: the parser's reason, when wanted) */
	int (*parse)(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
		     size_t whylen, bool wanted);
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

static int jvm_setup(struct session *s, struct source *src, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	src->jvm = jvmlog_new();
	if (src->jvm && s->clock.anchor_ms != EV_TIME_NONE)
		jvmlog_set_anchor(src->jvm, s->clock.anchor_ms);
	return 0;
}

static int jvm_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
		     size_t whylen, bool wanted)
{
	(void)why, (void)whylen, (void)wanted;
	return jvmlog_parse_line(src->jvm, line, len, out, cap);
}

static int jvm_flush(struct source *src, struct event *out, int cap)
{
	/* a JDK 8 pause, an unfinished report */
	return src->jvm ? jvmlog_flush(src->jvm, out, cap) : 0;
}

static int nginx_setup(struct session *s, struct source *src, char *err, size_t errlen)
{
	const char *fmt = s->o.nginx_format ? s->o.nginx_format : s->nginx_conf_format;
	if (!fmt) {
		src->fmt_detect = true;
		return 0;
	}
	char why[256];
	src->fmt = nginx_fmt_compile(fmt, strlen(fmt), why, sizeof why);
	if (!src->fmt) {
		snprintf(err, errlen, "%s: %s", s->o.nginx_format ? "--nginx-format" : "--nginx-conf", why);
		return -EINVAL;
	}
	if (strstr(fmt, "$upstream_connect_time"))
		s->has_nginx_uct = true;
	return 0;
}

static int nginx_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
		       size_t whylen, bool wanted)
{
	struct nginx_miss miss;
	(void)cap;
	if (!src->fmt)
		return -1;
	if (nginx_parse_line(src->fmt, line, len, &out[0], &miss))
		return 1;
	/* which variable or literal did not match, and where */
	if (wanted)
		nginx_miss_describe(&miss, line, len, why, whylen);
	return -1;
}

static bool nginx_hold(struct session *s, int i, const char *line, size_t len)
{
	struct source *src = s->src[i];
	if (!src->fmt_detect || src->fmt)
		return false;
	/* wait for enough lines to guess (session_tick and _source_eof also decide) */
	if (nginx_sniff_add(&src->sniff, line, len))
		nginx_detect(s, src, i);
	return true;
}

static void nginx_decide(struct session *s, int i)
{
	struct source *src = s->src[i];
	if (src->fmt_detect && !src->fmt)
		nginx_detect(s, src, i);
}

static void nginx_tick(struct session *s, int i)
{
	/* a quiet nginx: decide its format with the lines there are, so they show */
	if (s->src[i]->sniff.n > 0)
		nginx_decide(s, i);
}

static bool nginx_unread(const struct source *src, const char *what, const char *why, char *out, size_t outlen)
{
	const struct source_stats *st = &src->st;
	(void)what;
	/* an access log is all requests: most of it unread is said */
	if (!(st->parsed == 0 || st->unparsed * 2 > st->lines))
		return false;
	snprintf(out, outlen, "%s: %llu of %llu lines did not match the log format%s: give nginx's own "
		 "log_format with --nginx-format 'FMT' or --nginx-conf FILE:NAME", src->name,
		 (unsigned long long)st->unparsed, (unsigned long long)st->lines, why);
	return true;
}

/* most of a GC log can be other tags: said only when none of it parsed */
static bool none_read(const struct source *src, const char *what, const char *why, char *out, size_t outlen)
{
	if (src->st.parsed != 0)
		return false;
	snprintf(out, outlen, "%s: none of its %llu lines could be read as %s%s", src->name,
		 (unsigned long long)src->st.lines, what, why);
	return true;
}

static int cpustat_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
			 size_t whylen, bool wanted)
{
	(void)src, (void)cap, (void)why, (void)whylen, (void)wanted;
	return cpustat_parse_line(line, len, &out[0]) ? 1 : -1;
}

static int record_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
			size_t whylen, bool wanted)
{
	(void)cap, (void)wanted;
	int rc = record_parse_line(line, len, &out[0], why, whylen);
	if (rc == 1 && out[0].kind == EV_ANCHOR) {
		int64_t ms;
		char from[32];
		if (!record_meta_anchor(line, len, &ms, from, sizeof from, src->rec_anchor_how, sizeof src->rec_anchor_how))
			src->rec_anchor_how[0] = '\0';
	}
	return rc >= 0 ? rc : -1; /* 1 sample or the JVM start, 0 a meta line */
}

static int schedlog_setup(struct session *s, struct source *src, char *err, size_t errlen)
{
	(void)s, (void)err, (void)errlen;
	src->sched = schedlog_new();
	return 0;
}

static int schedlog_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
			  size_t whylen, bool wanted)
{
	(void)cap, (void)why, (void)whylen, (void)wanted;
	int n = schedlog_parse_line(src->sched, line, len, &out[0]);
	/* the CSV header is not an error */
	if (n < 0 && util_starts_with(line, len, "epoch_ms,"))
		return 0;
	return n;
}

static int schedlog_flush_one(struct source *src, struct event *out, int cap)
{
	(void)cap;
	return src->sched && schedlog_flush(src->sched, &out[0]) > 0 ? 1 : 0;
}

static void schedlog_tick(struct session *s, int i)
{
	/* a schedstat sample ends when the next one starts; a sampler writes
	 * one at once, so a second without rows means the last one is whole
	 * (the report ends it at EOF; live kept it back and differed) */
	struct source *src = s->src[i];
	if (schedlog_open(src->sched) && src->last_line_mono_ms &&
	    util_mono_ms() - src->last_line_mono_ms >= SCHEDLOG_QUIET_MS) {
		struct event e;
		if (schedlog_flush(src->sched, &e) > 0) {
			e.line = src->st.lines;
			emit(s, i, &e);
		}
	}
}

static int vmstatlog_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, char *why,
			   size_t whylen, bool wanted)
{
	(void)src, (void)cap, (void)why, (void)whylen, (void)wanted;
	return vmstatlog_parse_line(line, len, &out[0]) ? 1 : -1;
}

static const struct kind_ops kinds[] = {
	[SRC_JVM] = {
		.name = "jvm", .read = READ_LINES, .have = HAVE_JVM, .jvm = true, .anchor = ANCHOR_LINE,
		.not_parsed = "not a line of the JVM's GC, safepoint or start-up output that stwtop reads",
		.setup = jvm_setup, .parse = jvm_parse, .flush = jvm_flush,
		.unread = none_read, .what = "a JVM GC or safepoint log",
	},
	[SRC_NGINX] = {
		.name = "nginx", .read = READ_LINES, .have = HAVE_NGINX, .anchor = ANCHOR_LINE,
		.setup = nginx_setup, .parse = nginx_parse, .hold = nginx_hold, .decide = nginx_decide,
		.tick = nginx_tick, .unread = nginx_unread,
	},
	[SRC_CPUSTAT] = {
		.name = "cpustat", .read = READ_LINES, .have = HAVE_CPU, .anchor = ANCHOR_LINE,
		.not_parsed = "not '<ISO time> nr_periods N nr_throttled N throttled_time N ...'",
		.parse = cpustat_parse, .unread = none_read, .what = "cpustat",
	},
	[SRC_RECORD] = {
		/* tells what it holds by what it carries (make_ctx) */
		.name = "record", .read = READ_LINES, .anchor = ANCHOR_RECORDING,
		.parse = record_parse, .unread = none_read, .what = "record",
	},
	[SRC_SCHEDLOG] = {
		.name = "schedstat", .read = READ_LINES, .have = HAVE_SCHED, .anchor = ANCHOR_LINE,
		.not_parsed = "not 'epoch_ms,tid,comm,run_ns,wait_ns,timeslices'",
		.setup = schedlog_setup, .parse = schedlog_parse, .flush = schedlog_flush_one,
		.tick = schedlog_tick, .unread = none_read, .what = "schedstat",
	},
	[SRC_VMSTATLOG] = {
		.name = "vmstat", .read = READ_LINES, .have = HAVE_VMSTAT, .anchor = ANCHOR_LINE,
		.not_parsed = "not '<time> allocstall_... N ... pageoutrun N' (/proc/vmstat)",
		.parse = vmstatlog_parse, .unread = none_read, .what = "vmstat",
	},
	/* a crash report is one event: read whole, never said unread (it says
	 * "not a JVM crash report" itself) */
	[SRC_HSERR] = {.name = "hs_err", .read = READ_WHOLE, .anchor = ANCHOR_LINE},
	[SRC_PROBE] = {.name = "probe", .read = READ_NONE, .anchor = ANCHOR_LINE},
};

static const struct kind_ops kind_unknown = {.name = "?", .read = READ_NONE, .anchor = ANCHOR_LINE};

static const struct kind_ops *ops_of(enum src_kind k)
{
	return (unsigned)k < ARRAY_LEN(kinds) && kinds[k].name ? &kinds[k] : &kind_unknown;
}

const char *src_kind_name(enum src_kind k)
{
	return ops_of(k)->name;
}

struct session *session_new(const struct session_opts *o, char *err, size_t errlen)
{
	struct session *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (o)
		s->o = *o;
	else
		s->o.jvm_start_ms = EV_TIME_NONE;
	if (s->o.rules)
		s->rcfg = *s->o.rules;
	else
		rules_config_defaults(&s->rcfg);
	summary_init(&s->sum);
	timeline_init(&s->tl, s->o.keep_lines);
	s->rules = rules_new(&s->rcfg);
	if (jvmclock_init(&s->clock) != 0 || !s->rules) {
		snprintf(err, errlen, "out of memory");
		session_free(s);
		return NULL;
	}
	s->last_eval_ms = EV_TIME_NONE;
	s->eval_on_data = true;
	for (int k = 0; k < TIMEOUT_MEMORY; k++)
		s->timeouts[k].up_us = -1;
	if (s->o.jvm_start_ms != EV_TIME_NONE)
		session_set_jvm_anchor(s, s->o.jvm_start_ms, "given (--jvm-start/--pid)");
	if (s->o.nginx_conf && !s->o.nginx_format) {
		char why[256];
		s->nginx_conf_format = nginx_conf_load_spec(s->o.nginx_conf, why, sizeof why);
		if (!s->nginx_conf_format) {
			snprintf(err, errlen, "--nginx-conf %s: %s", s->o.nginx_conf, why);
			session_free(s);
			return NULL;
		}
	}
	return s;
}

static void source_free(struct source *src)
{
	if (!src)
		return;
	reader_close(&src->rd);
	jvmlog_free(src->jvm);
	nginx_fmt_free(src->fmt);
	schedlog_free(src->sched);
	nginx_sniff_fini(&src->sniff);
	free(src->path);
	free(src);
}

void session_free(struct session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nsrc; i++)
		source_free(s->src[i]);
	rules_free(s->rules);
	timeline_fini(&s->tl);
	jvmclock_fini(&s->clock);
	free(s->nginx_conf_format);
	for (int i = 0; i < s->nhints; i++)
		free(s->hints[i]);
	free(s);
}

int session_add_source(struct session *s, enum src_kind kind, const char *path, char *err, size_t errlen)
{
	if (s->nsrc >= MAX_SOURCES) {
		snprintf(err, errlen, "too many sources (at most %d)", MAX_SOURCES);
		return -E2BIG;
	}
	struct source *src = calloc(1, sizeof *src);
	if (!src) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	src->kind = kind;
	src->rd.fd = -1;
	src->last_up_us = -1;
	src->path = strdup(path ? path : "");
	if (!src->path) {
		free(src);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	const char *slash = strrchr(src->path, '/');
	src->name = slash ? slash + 1 : src->path;
	const struct kind_ops *k = ops_of(kind);
	int rc = k->setup ? k->setup(s, src, err, errlen) : 0;
	if (rc < 0) {
		source_free(src);
		return rc;
	}
	s->src[s->nsrc] = src;
	return s->nsrc++;
}

int session_nsources(const struct session *s) { return s->nsrc; }
enum src_kind session_source_kind(const struct session *s, int i) { return s->src[i]->kind; }
const char *session_source_path(const struct session *s, int i) { return s->src[i]->path; }
const char *session_source_name(const struct session *s, int i) { return s->src[i]->name; }
const struct source_stats *session_source_stats(const struct session *s, int i) { return &s->src[i]->st; }

void session_source_note(struct session *s, int i, const char *note, bool is_error)
{
	struct source *src = s->src[i];
	util_strlcpy_n(src->st.note, sizeof src->st.note, note, strlen(note));
	if (is_error)
		src->st.error = true;
}

int session_add_hint(struct session *s, const char *text)
{
	for (int i = 0; i < s->nhints; i++)
		if (strcmp(s->hints[i], text) == 0)
			return 0;
	if (s->nhints >= SESSION_MAX_HINTS)
		return -E2BIG;
	char *c = strdup(text);
	if (!c)
		return -ENOMEM;
	s->hints[s->nhints++] = c;
	return 0;
}

const char *const *session_hints(const struct session *s, int *n)
{
	*n = s->nhints;
	return (const char *const *)s->hints;
}

const struct summary *session_summary(const struct session *s) { return &s->sum; }
const struct timeline *session_timeline(const struct session *s) { return &s->tl; }
const struct rules *session_rules(const struct session *s) { return s->rules; }
int64_t session_jvm_anchor(const struct session *s) { return s->clock.anchor_ms; }
const char *session_jvm_anchor_how(const struct session *s) { return s->clock.how; }
uint64_t session_unanchored(const struct session *s) { return s->clock.unanchored; }
bool session_uptime_axis(const struct session *s) { return s->clock.uptime_axis; }
int64_t session_source_last_uptime_us(const struct session *s, int i) { return s->src[i]->last_up_us; }

const char *session_nginx_format(const struct session *s)
{
	for (int i = 0; i < s->nsrc; i++)
		if (s->src[i]->fmt)
			return nginx_fmt_string(s->src[i]->fmt);
	return s->o.nginx_format ? s->o.nginx_format : s->nginx_conf_format;
}

void session_set_eval_on_data(struct session *s, bool on)
{
	s->eval_on_data = on;
	/* live and demo judge as data comes (verdicts at once); a report judges
	 * each incident once it is complete */
	rules_set_eager(s->rules, !on);
}

void session_set_listener(struct session *s, rules_change_fn fn, void *ctx)
{
	rules_set_listener(s->rules, fn, ctx);
}

/* --- rules context --- */

static const char *name_of(void *ctx, uint16_t i)
{
	struct session *s = ctx;
	return i < s->nsrc ? s->src[i]->name : "?";
}

static void make_ctx(const struct session *s, struct rules_ctx *c, int64_t now)
{
	memset(c, 0, sizeof *c);
	c->tl = &s->tl;
	c->sum = &s->sum;
	unsigned have = 0;
	for (int i = 0; i < s->nsrc; i++)
		have |= ops_of(s->src[i]->kind)->have;
	c->have_jvm = have & HAVE_JVM;
	c->have_nginx = have & HAVE_NGINX;
	c->have_cpu = have & HAVE_CPU;
	c->have_sched = have & HAVE_SCHED;
	c->have_vmstat = have & HAVE_VMSTAT;
	/* recordings and live probes tell by what they carry */
	if (s->tl.cpu.total)
		c->have_cpu = true;
	if (s->tl.sched.total)
		c->have_sched = true;
	if (s->tl.vmstat.total)
		c->have_vmstat = true;
	if (s->tl.mem.total)
		c->have_mem = true;
	c->jvm_unanchored = s->clock.unanchored > 0 && s->clock.anchor_ms == EV_TIME_NONE;
	c->nginx_has_uct = s->has_nginx_uct;
	c->src_name = name_of;
	c->src_ctx = (void *)(uintptr_t)s;   /* name_of only reads it */
	c->explicit_serial = s->o.explicit_serial;
	c->uptime_axis = s->clock.uptime_axis;
	c->now_ms = now;
}

void session_eval(struct session *s, int64_t now_ms, bool final)
{
	struct rules_ctx c;
	make_ctx(s, &c, now_ms);
	rules_eval(s->rules, &c, final);
	s->last_eval_ms = now_ms;
	/* a report lets go of what no judgement to come reads; live keeps
	 * history for the views; events waiting for the JVM's start will be
	 * placed in the past */
	if (s->eval_on_data && s->clock.npending == 0 && (final || ++s->evals_unkept >= 16)) {
		s->evals_unkept = 0; /* every 16th: an older keep only keeps more */
		rules_keep_from(s->rules, &c, &s->tl.keep);
	}
}

size_t session_notes(const struct session *s, char (*out)[SESSION_NOTE_LEN], size_t max)
{
	size_t n = 0;
	/* a console log given with --safepoint may hold only application lines
	 * (no timeout happened): a JVM source is said only when none of the JVM
	 * sources held a GC or safepoint line */
	bool jvm_parsed = false;
	for (int i = 0; i < s->nsrc; i++)
		if (ops_of(s->src[i]->kind)->jvm && s->src[i]->st.parsed > 0)
			jvm_parsed = true;
	/* a source of which (almost) nothing could be read: a wrong nginx format
	 * is one message, not a clean report with no requests */
	for (int i = 0; i < s->nsrc && n < max; i++) {
		const struct source *src = s->src[i];
		const struct source_stats *st = &src->st;
		const struct kind_ops *k = ops_of(src->kind);
		if (st->error || st->lines == 0 || !k->unread || (k->jvm && jvm_parsed))
			continue;
		char why[260] = "";
		if (st->first_error[0])
			snprintf(why, sizeof why, " (first at line %llu: %s)", (unsigned long long)st->first_error_line,
				 st->first_error);
		if (k->unread(src, k->what, why, out[n], SESSION_NOTE_LEN))
			n++;
	}
	if (n < max) {
		struct rules_ctx c;
		make_ctx(s, &c, s->tl.newest_ms);
		n += rules_notes(s->rules, &c, out + n, max - n);
	}
	return n;
}

/* --- events --- */

static void place(struct session *s, struct event *e)
{
	struct rules_ctx c;
	timeline_push(&s->tl, e);
	make_ctx(s, &c, s->tl.newest_ms);
	rules_on_event(s->rules, &c, e);
	/* judge as the data's clock advances, not per event */
	if (s->eval_on_data && (s->last_eval_ms == EV_TIME_NONE || s->tl.newest_ms - s->last_eval_ms >= 1000))
		session_eval(s, s->tl.newest_ms, false);
}

enum anchor_from session_jvm_anchor_from(const struct session *s) { return s->clock.from; }

void session_set_jvm_anchor(struct session *s, int64_t start_ms, const char *how)
{
	session_set_jvm_anchor_from(s, start_ms, ANCHOR_GIVEN, how);
}

void session_set_jvm_anchor_from(struct session *s, int64_t start_ms, enum anchor_from from, const char *how)
{
	if (start_ms == EV_TIME_NONE)
		return;
	struct event *waited;
	size_t n = jvmclock_set(&s->clock, start_ms, from, how, &waited);
	for (int i = 0; i < s->nsrc; i++)
		if (s->src[i]->jvm)
			jvmlog_set_anchor(s->src[i]->jvm, start_ms);
	for (size_t k = 0; k < n; k++)
		place(s, &waited[k]); /* what waited */
}

/* The copy kept of a report read twice is the one of the source given first,
 * whichever came first: a live run reads the two files in the order they
 * were written to, a report in the order of their times, and the evidence
 * must name the same line in both. */
static void prefer_timeout_copy(struct session *s, struct seen_timeout *t, const struct event *e)
{
	/* its time too: a console line has only uptime, gc.log's its own clock */
	int64_t et = jvmclock_wall(&s->clock, e);
	for (size_t k = s->clock.npending; k-- > 0;) {
		struct event *p = &s->clock.pending[k];
		if (p->kind == EV_SP_TIMEOUT && p->src == t->src && p->up_us == t->up_us &&
		    strcmp(p->u.spt.threads, t->threads) == 0) {
			p->src = e->src;
			p->line = e->line;
			p->t_ms = e->t_ms;
			p->up_us = e->up_us;
			t->src = e->src;
			return;
		}
	}
	const struct ring *r = &s->tl.timeouts;
	for (uint64_t i = r->total, n = 0; i > ring_first(r) && n < TIMEOUT_MEMORY * 4; i--, n++) {
		struct tl_timeout *x = ring_at(r, i - 1);
		if (x && x->src == t->src && strcmp(x->threads, t->threads) == 0 &&
		    (et == EV_TIME_NONE || llabs(x->t_ms - et) <= 2000)) {
			x->src = e->src;
			x->line = e->line;
			if (et != EV_TIME_NONE)
				x->t_ms = et;
			t->src = e->src;
			return;
		}
	}
}

/* The same SafepointTimeout report read from gc.log and from the console:
 * same uptime (to the ms) and the same late threads, another source. */
static bool duplicate_timeout(struct session *s, const struct event *e)
{
	for (int k = 0; k < TIMEOUT_MEMORY; k++) {
		struct seen_timeout *t = &s->timeouts[k];
		if (t->src != e->src && t->up_us >= 0 && e->up_us >= 0 && llabs(t->up_us - e->up_us) <= 2000 &&
		    strcmp(t->threads, e->u.spt.threads) == 0) {
			if (e->src < t->src)
				prefer_timeout_copy(s, t, e);
			return true;
		}
	}
	struct seen_timeout *slot = &s->timeouts[s->ntimeouts++ % TIMEOUT_MEMORY];
	slot->src = e->src;
	slot->up_us = e->up_us;
	memcpy(slot->threads, e->u.spt.threads, sizeof slot->threads);
	return false;
}

/* An event parsed from source i: count it, place it on the clock. */
static void emit(struct session *s, int i, struct event *e)
{
	struct source *src = s->src[i];
	e->src = (uint16_t)i;
	src->st.events++;
	enum anchor_from from = ops_of(src->kind)->anchor;
	if (e->kind == EV_ANCHOR && from == ANCHOR_RECORDING) {
		/* what the recording session knew: used when nothing better is known
		 * (or a later meta line of the same recording: the JVM was restarted) */
		if (jvmclock_wants(&s->clock, ANCHOR_RECORDING, e->u.anchor_ms, s->o.jvm_start_ms != EV_TIME_NONE)) {
			char how[200];
			snprintf(how, sizeof how, "%s line %llu, recorded: %s", src->name, (unsigned long long)e->line,
				 src->rec_anchor_how[0] ? src->rec_anchor_how : "the JVM start");
			session_set_jvm_anchor_from(s, e->u.anchor_ms, ANCHOR_RECORDING, how);
		}
		return;
	}
	if (e->kind == EV_ANCHOR) {
		/* an explicit start wins; otherwise the first pair learnt, or a new JVM */
		if (jvmclock_wants(&s->clock, ANCHOR_LINE, e->u.anchor_ms, s->o.jvm_start_ms != EV_TIME_NONE)) {
			char how[120];
			snprintf(how, sizeof how, "%s line %llu (wall clock and uptime)", src->name,
				 (unsigned long long)e->line);
			session_set_jvm_anchor_from(s, e->u.anchor_ms, ANCHOR_LINE, how);
		}
		return;
	}
	if (e->kind == EV_SP_TIMEOUT && duplicate_timeout(s, e))
		return;
	summary_add(&s->sum, e);
	if (e->up_us >= 0)
		src->last_up_us = e->up_us;
	if (jvmclock_time(&s->clock, e))
		place(s, e);
}

void session_feed_event(struct session *s, int i, struct event *e)
{
	emit(s, i, e);
}

/* --- parsing one line into events --- */

static void nginx_detect(struct session *s, struct source *src, int i);

/* One line of source i into events; < 0 when it did not parse, with the
 * reason in why (wanted: the first failure of a source is kept, and every one
 * in verbose mode) */
static int parse(struct session *s, int i, const char *line, size_t len, struct event *out, int cap,
		 char *why, size_t whylen, bool wanted)
{
	struct source *src = s->src[i];
	const struct kind_ops *k = ops_of(src->kind);
	why[0] = '\0';
	if (!k->parse)
		return -1;
	int n = k->parse(src, line, len, out, cap, why, whylen, wanted);
	if (n < 0 && wanted && !why[0] && k->not_parsed)
		snprintf(why, whylen, "%s", k->not_parsed);
	return n;
}

/* count the line and parse it into the given queue */
static int parse_counted(struct session *s, int i, const char *line, size_t len, unsigned flags,
			 struct event *out, int cap)
{
	struct source *src = s->src[i];
	src->st.lines++;
	if (flags & LINEBUF_CUT)
		src->st.cut++;
	char why[200];
	bool verbose = s->o.verbose && s->o.on_unparsed;
	int n = parse(s, i, line, len, out, cap, why, sizeof why, verbose || !src->st.first_error[0]);
	if (n < 0) {
		src->st.unparsed++;
		if (why[0] && !src->st.first_error[0] && !ops_of(src->kind)->jvm) {
			/* the first failure of a source is told in the report (a JVM log
			 * holds lines of other tags: those are not failures) */
			util_strlcpy_n(src->st.first_error, sizeof src->st.first_error, why, strlen(why));
			src->st.first_error_line = src->st.lines;
		}
		if (verbose && why[0])
			s->o.on_unparsed(s->o.unparsed_ctx, i, src->name, src->st.lines, why);
		return 0;
	}
	src->st.parsed++;
	for (int k = 0; k < n; k++)
		out[k].line = src->st.lines;
	return n;
}

void session_feed_line(struct session *s, int i, const char *line, size_t len, unsigned flags,
		       int64_t live_now_ms)
{
	struct source *src = s->src[i];
	const struct kind_ops *ops = ops_of(src->kind);
	struct event ev[QCAP];
	if (ops->hold && ops->hold(s, i, line, len))
		return;
	int n = parse_counted(s, i, line, len, flags, ev, QCAP);
	if (live_now_ms != EV_TIME_NONE)
		src->last_line_mono_ms = util_mono_ms();
	if (s->tl.keep_lines) {
		int64_t t = n > 0 ? jvmclock_wall(&s->clock, &ev[0]) : EV_TIME_NONE;
		timeline_push_line(&s->tl, (uint16_t)i, src->st.lines, t, line, len);
	}
	for (int k = 0; k < n; k++) {
		/* a line being written right now tells when the JVM started */
		if (ops->jvm && ev[k].t_ms == EV_TIME_NONE)
			jvmclock_guess(&s->clock, live_now_ms, ev[k].up_us, src->name);
		emit(s, i, &ev[k]);
	}
}

static void nginx_detect(struct session *s, struct source *src, int i)
{
	src->fmt = nginx_sniff_decide(&src->sniff);
	src->fmt_detect = false;
	if (src->fmt && strstr(nginx_fmt_string(src->fmt), "$upstream_connect_time"))
		s->has_nginx_uct = true;
	/* replay the buffered lines through the chosen format */
	struct nginx_sniff kept = src->sniff;
	memset(&src->sniff, 0, sizeof src->sniff);
	for (int k = 0; k < kept.n; k++)
		session_feed_line(s, i, kept.buf[k], kept.len[k], 0, EV_TIME_NONE);
	nginx_sniff_fini(&kept);
}

void session_tick(struct session *s)
{
	/* no line with both clocks came: the guess it is */
	if (jvmclock_guess_due(&s->clock, util_mono_ms()))
		session_set_jvm_anchor_from(s, s->clock.guess_ms, ANCHOR_LIVE_LINE, s->clock.guess_how);
	for (int i = 0; i < s->nsrc; i++) {
		const struct kind_ops *k = ops_of(s->src[i]->kind);
		if (k->tick)
			k->tick(s, i);
	}
}

void session_source_eof(struct session *s, int i)
{
	struct source *src = s->src[i];
	const struct kind_ops *k = ops_of(src->kind);
	if (k->decide)
		k->decide(s, i);
	if (k->flush && !src->flushed) {
		struct event ev[QCAP];
		src->flushed = true;
		int n = k->flush(src, ev, QCAP);
		for (int j = 0; j < n; j++) {
			ev[j].line = src->st.lines;
			emit(s, i, &ev[j]);
		}
	}
}

/* --- report mode: read each file once, merged by time --- */

static int open_source(struct source *src)
{
	src->opened = true;
	int rc = reader_open(&src->rd, src->path, MAX_LINE, src->st.note, sizeof src->st.note);
	if (rc < 0)
		src->st.error = true;
	return rc;
}

/* next line of a report source; false at EOF (or error) */
static bool read_line(struct source *src, const char **line, size_t *len, unsigned *flags)
{
	return reader_next(&src->rd, line, len, flags, src->st.note, sizeof src->st.note, &src->st.error);
}

/* fill the source's queue with the events of its next line(s) */
static void refill(struct session *s, int i)
{
	struct source *src = s->src[i];
	const struct kind_ops *k = ops_of(src->kind);
	const char *line;
	size_t len;
	unsigned flags;
	while (src->qn == 0) {
		if (!read_line(src, &line, &len, &flags)) {
			if (k->flush && src->rd.eof && !src->flushed) {
				/* what waited for a later line */
				src->flushed = true;
				int n = k->flush(src, src->q, QCAP);
				for (int j = 0; j < n; j++)
					src->q[j].line = src->st.lines;
				src->qhead = 0;
				src->qn = n > 0 ? n : 0;
			}
			return;
		}
		if (k->hold && k->hold(s, i, line, len))
			continue; /* nginx: kept to sniff its format, replayed from there */
		int n = parse_counted(s, i, line, len, flags, src->q, QCAP);
		if (s->tl.keep_lines)
			timeline_push_line(&s->tl, (uint16_t)i, src->st.lines, n > 0 ? src->q[0].t_ms : EV_TIME_NONE,
					   line, len);
		src->qhead = 0;
		src->qn = n;
	}
}

struct anchor_scan {
	struct session *s;
	const struct source *src;
	struct jvmlog *p;
	bool wall;               /* some line had a wall clock */
};

/* a recording's meta line with the JVM start */
static bool recording_anchor_line(void *ctx, const char *line, size_t len, uint64_t lineno)
{
	struct anchor_scan *a = ctx;
	int64_t ms;
	char from[32], rhow[160], how[200];
	if (!util_memmem(line, len, "\"jvm_start\"") ||
	    !record_meta_anchor(line, len, &ms, from, sizeof from, rhow, sizeof rhow))
		return false;
	snprintf(how, sizeof how, "%s line %llu, recorded: %s", a->src->name, (unsigned long long)lineno,
		 rhow[0] ? rhow : "the JVM start");
	session_set_jvm_anchor_from(a->s, ms, ANCHOR_RECORDING, how);
	return true;
}

/* a JVM log line with both clocks */
static bool jvm_anchor_line(void *ctx, const char *line, size_t len, uint64_t lineno)
{
	struct anchor_scan *a = ctx;
	struct event ev[QCAP];
	int k = jvmlog_parse_line(a->p, line, len, ev, QCAP);
	for (int j = 0; j < k; j++)
		if (ev[j].kind != EV_ANCHOR && ev[j].t_ms != EV_TIME_NONE)
			a->wall = true;
	for (int j = 0; j < k; j++)
		if (ev[j].kind == EV_ANCHOR) {
			char how[120];
			snprintf(how, sizeof how, "%s line %llu (wall clock and uptime)", a->src->name,
				 (unsigned long long)lineno);
			session_set_jvm_anchor_from(a->s, ev[j].u.anchor_ms, ANCHOR_LINE, how);
			return true;
		}
	return false;
}

/* The first jvm_start of the --replay recordings (their first 4 MiB), so the
 * merge places uptime-only lines where the live run had them. Only when some
 * JVM source needs it: a recording alone has nothing to place. */
static bool anchor_from_recording(struct session *s)
{
	bool jvm = false;
	for (int i = 0; i < s->nsrc; i++)
		if (ops_of(s->src[i]->kind)->jvm)
			jvm = true;
	for (int i = 0; jvm && i < s->nsrc; i++) {
		struct anchor_scan a = {s, s->src[i], NULL, false};
		if (ops_of(s->src[i]->kind)->anchor == ANCHOR_RECORDING &&
		    reader_scan_head(s->src[i]->path, ANCHOR_SCAN_BYTES, MAX_LINE, recording_anchor_line, &a))
			return true;
	}
	return false;
}

/* The report needs the JVM's start before merging uptime-only lines. */
static void find_anchor(struct session *s)
{
	bool wall = false, jvm_only = true;
	if (s->clock.anchor_ms != EV_TIME_NONE)
		return;
	for (int i = 0; i < s->nsrc; i++) {
		struct source *src = s->src[i];
		if (!ops_of(src->kind)->jvm)
			continue;
		struct anchor_scan a = {s, src, jvmlog_new(), false};
		bool found = a.p && reader_scan_head(src->path, ANCHOR_SCAN_BYTES, MAX_LINE, jvm_anchor_line, &a);
		wall |= a.wall;
		jvmlog_free(a.p);
		if (found)
			return;
	}
	/* no line tells: a recording made while the JVM ran may (its meta lines) */
	if (anchor_from_recording(s))
		return;
	/* Only uptime in the JVM's logs and nothing else to line them up with: put
	 * them on an uptime axis (epoch 0 = JVM start) so every rule still works. */
	for (int i = 0; i < s->nsrc; i++)
		if (!ops_of(s->src[i]->kind)->jvm)
			jvm_only = false;
	if (jvm_only && !wall && s->nsrc > 0) {
		session_set_jvm_anchor_from(s, 0, ANCHOR_UPTIME_AXIS, "none in the log: times are JVM uptime");
		s->clock.uptime_axis = true;
	}
}

int session_read_hserr(struct session *s, int i)
{
	struct source *src = s->src[i];
	/* a crash report is read whole (the first 4 MiB: the header, the frame and
	 * the code cache sections are at its top) */
	char *buf;
	size_t len;
	int64_t mtime_ms;
	int rc = reader_slurp(src->path, 4u << 20, &buf, &len, &mtime_ms, src->st.note, sizeof src->st.note);
	if (rc < 0) {
		if (rc != -ENOMEM)
			src->st.error = true;
		return rc;
	}
	for (size_t k = 0; k < len; k++)
		if (buf[k] == '\n')
			src->st.lines++;
	struct event e;
	if (hserr_parse(buf, len, &e)) {
		src->st.parsed = src->st.lines;
		util_strlcpy_n(e.u.hserr.path, sizeof e.u.hserr.path, src->path, strlen(src->path));
		e.line = 1;
		if (e.t_ms == EV_TIME_NONE)
			e.t_ms = mtime_ms;
		emit(s, i, &e);
	} else {
		src->st.unparsed = src->st.lines;
		snprintf(src->st.first_error, sizeof src->st.first_error, "not a JVM crash report (hs_err)");
		src->st.first_error_line = 1;
	}
	free(buf);
	return 0;
}

int session_replay_open(struct session *s)
{
	int rc = 0;
	find_anchor(s);
	for (int i = 0; i < s->nsrc; i++) {
		struct source *src = s->src[i];
		if (src->opened)
			continue;
		switch (ops_of(src->kind)->read) {
		case READ_WHOLE:
			src->opened = true;
			if (session_read_hserr(s, i) != 0)
				rc = -1;
			break;
		case READ_LINES:
			if (open_source(src) != 0)
				rc = -1;
			break;
		case READ_NONE:
			break;
		}
	}
	return rc;
}

/* the source whose next event is earliest (unplaced ones first), -1 at the end */
static int next_source(struct session *s)
{
	int best = -1;
	int64_t best_t = 0;
	for (int i = 0; i < s->nsrc; i++) {
		struct source *src = s->src[i];
		if (ops_of(src->kind)->read != READ_LINES || !src->opened)
			continue;
		if (src->qn == 0)
			refill(s, i);
		if (src->qn == 0)
			continue;
		int64_t t = src->q[src->qhead].t_ms;
		if (t == EV_TIME_NONE)
			return i;
		if (best < 0 || t < best_t) {
			best = i;
			best_t = t;
		}
	}
	return best;
}

int64_t session_replay_next_time(struct session *s)
{
	int i = next_source(s);
	return i < 0 ? EV_TIME_NONE : s->src[i]->q[s->src[i]->qhead].t_ms;
}

bool session_replay_step(struct session *s, int64_t until_ms)
{
	for (;;) {
		int i = next_source(s);
		if (i < 0)
			return false;
		struct source *src = s->src[i];
		if (src->q[src->qhead].t_ms != EV_TIME_NONE && src->q[src->qhead].t_ms > until_ms)
			return true;
		struct event e = src->q[src->qhead++];
		src->qn--;
		emit(s, i, &e);
	}
}

void session_replay_finish(struct session *s)
{
	for (int i = 0; i < s->nsrc; i++) {
		const struct kind_ops *k = ops_of(s->src[i]->kind);
		if (k->decide)
			k->decide(s, i); /* a short file still decides its format */
	}
	session_eval(s, s->tl.newest_ms, true);
}

int session_run_report(struct session *s)
{
	int rc = session_replay_open(s);
	session_replay_step(s, INT64_MAX);
	session_replay_finish(s);
	return rc;
}
