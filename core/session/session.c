/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.c — sources -> parsers -> summary + timeline -> rules (session.h).
 *
 * Time: every event reaches the timeline with a UTC wall-clock time; JVM
 * lines that carry only uptime wait in the JVM clock (jvmclock.h) until the
 * JVM's start is known. The report looks for it before it starts merging.
 * What differs per kind of source is a table row in session_kinds.c.
 */
#include "stwtop/session.h"
#include "stwtop/hserr.h"
#include "stwtop/jvmlog.h"
#include "stwtop/linebuf.h"
#include "stwtop/nginx.h"
#include "stwtop/reader.h"
#include "stwtop/record.h"
#include "stwtop/samplelog.h"
#include "stwtop/util.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "session_internal.h"

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
	s->jvm_alive_ms = EV_TIME_NONE;
	s->eval_on_data = true;
	for (int k = 0; k < TIMEOUT_MEMORY; k++)
		s->timeouts[k].up_us = -1;
	if (s->o.jvm_start_ms != EV_TIME_NONE)
		session_set_jvm_anchor(s, s->o.jvm_start_ms, "given (--jvm-start/--pid)");
	struct stat cst;
	if (s->o.nginx_conf && !s->o.nginx_format &&
	    (!strrchr(s->o.nginx_conf, ':') || stat(s->o.nginx_conf, &cst) == 0)) {
		/* no :NAME: each access log gets the format its access_log line names */
		char why[256];
		struct nginx_conf_fmts cf;
		if (nginx_conf_formats_for(s->o.nginx_conf, NULL, &cf, why, sizeof why) < 0) {
			snprintf(err, errlen, "--nginx-conf %s: %s", s->o.nginx_conf, why);
			session_free(s);
			return NULL;
		}
		nginx_conf_fmts_fini(&cf);
		s->nginx_conf_path = strdup(s->o.nginx_conf);
		if (!s->nginx_conf_path) {
			/* without it each nginx source would quietly get the first format */
			snprintf(err, errlen, "out of memory");
			session_free(s);
			return NULL;
		}
		s->nginx_conf_format = nginx_conf_load(s->o.nginx_conf, NULL, s->nginx_conf_why,
						       sizeof s->nginx_conf_why);
	} else if (s->o.nginx_conf && !s->o.nginx_format) {
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
	if (src->ops && src->ops->fini)
		src->ops->fini(src);
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
	free(s->nginx_conf_path);
	for (int i = 0; i < s->nhints; i++)
		free(s->hints[i]);
	free(s);
}

/* What evidence calls the source (`gc.log:47`): its file name; a pipe has
 * none worth saying (`<(zcat ...)` is /dev/fd/63), so "stdin" or "pipe 63". */
static const char *source_name(struct source *src)
{
	const char *p = src->path;
	if (reader_path_is_stdin(p))
		return "stdin";
	const char *n = NULL;
	if (strncmp(p, "/dev/fd/", 8) == 0)
		n = p + 8;
	else if (strncmp(p, "/proc/self/fd/", 14) == 0)
		n = p + 14;
	if (n && n[0] && strspn(n, "0123456789") == strlen(n) && strlen(n) < 12) {
		struct stat st;
		bool fifo = stat(p, &st) == 0 && S_ISFIFO(st.st_mode);
		snprintf(src->namebuf, sizeof src->namebuf, "%s %s", fifo ? "pipe" : "fd", n);
		return src->namebuf;
	}
	const char *slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
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
	src->name = source_name(src);
	const struct kind_ops *k = session_kind_ops(kind);
	src->ops = k;
	int rc = k->setup ? k->setup(s, src, err, errlen) : 0;
	if (rc < 0) {
		source_free(src);
		return rc;
	}
	s->have |= k->have;
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

void session_source_waiting(struct session *s, int i, bool waiting)
{
	s->src[i]->st.waiting = waiting;
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

int session_drop_hints(struct session *s, const char *part)
{
	int k = 0, dropped = 0;
	for (int i = 0; i < s->nhints; i++) {
		if (strstr(s->hints[i], part)) {
			free(s->hints[i]);
			dropped++;
		} else {
			s->hints[k++] = s->hints[i];
		}
	}
	s->nhints = k;
	return dropped;
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

const char *session_source_nginx_format(const struct session *s, int i)
{
	const struct source *src = s->src[i];
	return src->kind == SRC_NGINX && src->k.nginx.fmt ? nginx_fmt_string(src->k.nginx.fmt) : session_nginx_format(s);
}

const char *session_nginx_format(const struct session *s)
{
	for (int i = 0; i < s->nsrc; i++)
		if (s->src[i]->kind == SRC_NGINX && s->src[i]->k.nginx.fmt)
			return nginx_fmt_string(s->src[i]->k.nginx.fmt);
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

bool session_nginx_guessed(const struct session *s)
{
	for (int i = 0; i < s->nsrc; i++) {
		const struct source *src = s->src[i];
		if (src->kind == SRC_NGINX && src->k.nginx.fmt_guessed && src->k.nginx.fmt &&
		    nginx_fmt_has_unnamed(src->k.nginx.fmt))
			return true;
	}
	return false;
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
	unsigned have = s->have;
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
	c->nginx_lacks = (s->sum.lacks_rt ? EV_HTTP_NO_RT : 0u) | (s->sum.lacks_uct ? EV_HTTP_NO_UCT : 0u) |
			 (s->sum.lacks_uht ? EV_HTTP_NO_UHT : 0u);
	c->nginx_guessed = c->nginx_lacks && session_nginx_guessed(s);
	c->src_name = name_of;
	c->src_ctx = (void *)(uintptr_t)s;   /* name_of only reads it */
	c->explicit_serial = s->o.explicit_serial;
	c->uptime_axis = s->clock.uptime_axis;
	c->now_ms = now;
	c->pause_open_ms = EV_TIME_NONE;
	/* live: a pause's start line with no end yet (a report reads the logs to
	 * their end, where such a pause is released as one that never ended) */
	for (int i = 0; !s->eval_on_data && i < s->nsrc; i++) {
		int64_t t, up;
		if (!s->src[i]->jvm || !jvmlog_open_pause(s->src[i]->jvm, &t, &up))
			continue;
		if (t == EV_TIME_NONE && up >= 0) {
			struct event e;
			ev_init(&e, EV_GC_PAUSE);
			e.up_us = up;
			t = jvmclock_wall(&s->clock, &e);
		}
		if (t != EV_TIME_NONE && (c->pause_open_ms == EV_TIME_NONE || t < c->pause_open_ms))
			c->pause_open_ms = t;
	}
}

void session_eval(struct session *s, int64_t now_ms, bool final)
{
	struct rules_ctx c;
	/* a report holds a pause the JVM log never ended until the end, where its
	 * length is known (release_open_pause): no incident that can hold it, or
	 * the requests it stopped, is final before that (the judgement clock
	 * stays at its last sign of life), however long the tail of the other
	 * sources after it */
	int64_t judge_ms = now_ms;
	if (!final && s->open_held && s->open_ev.t_ms != EV_TIME_NONE && now_ms != EV_TIME_NONE &&
	    now_ms > s->open_ev.t_ms)
		judge_ms = s->open_ev.t_ms;
	make_ctx(s, &c, judge_ms);
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
		if (s->src[i]->ops->jvm && s->src[i]->st.parsed > 0)
			jvm_parsed = true;
	/* a source of which (almost) nothing could be read: a wrong nginx format
	 * is one message, not a clean report with no requests */
	for (int i = 0; i < s->nsrc && n < max; i++) {
		const struct source *src = s->src[i];
		const struct source_stats *st = &src->st;
		const struct kind_ops *k = src->ops;
		if (k->jvm && src->looks && !st->error && session_source_checked(s, i) == SRC_CHECKED_NOT_UNDERSTOOD) {
			snprintf(out[n++], SESSION_NOTE_LEN, "%s looks like %s, which stwtop does not read: %llu of its "
				 "%llu lines were not understood", src->name, src->looks, (unsigned long long)st->unparsed,
				 (unsigned long long)st->lines);
			continue;
		}
		if (k->jvm && st->lost && !st->error) {
			/* first_error of a JVM source is only ever a record given up on */
			snprintf(out[n++], SESSION_NOTE_LEN, "%s: %llu lines of GC records were dropped and counted "
				 "as unparsed (first at line %llu: %s)", src->name, (unsigned long long)st->lost,
				 (unsigned long long)st->first_error_line, st->first_error);
			continue;
		}
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
	timeline_push(&s->tl, e);
	/* most events (a JDK 8 log's stops) want no context built: see rules.h */
	if (e->kind == EV_JVMCTR || !rules_on_event_bare(s->rules, s->clock.uptime_axis, e)) {
		struct rules_ctx c;
		make_ctx(s, &c, s->tl.newest_ms);
		rules_on_event(s->rules, &c, e);
		struct event cs;
		if (e->kind == EV_JVMCTR && timeline_counter_stop(&s->tl, e, &cs)) {
			timeline_push(&s->tl, &cs);
			rules_on_event(s->rules, &c, &cs);
		}
	}
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
	int64_t et = jvmclock_at(&s->clock, e);
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
	if ((SESSION_RECORD_KINDS >> e->kind) & 1u)
		src->st.records++;
	else if (e->kind == EV_JVM_INFO)
		src->st.infos++;
	enum anchor_from from = src->ops->anchor;
	if (e->kind == EV_ANCHOR && from == ANCHOR_RECORDING) {
		/* what the recording session knew: used when nothing better is known
		 * (or a later meta line of the same recording: the JVM was restarted) */
		if (jvmclock_wants(&s->clock, ANCHOR_RECORDING, e->u.anchor_ms, s->o.jvm_start_ms != EV_TIME_NONE)) {
			char how[200];
			snprintf(how, sizeof how, "%s line %llu, recorded: %s", src->name, (unsigned long long)e->line,
				 src->k.rec_anchor_how[0] ? src->k.rec_anchor_how : "the JVM start");
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
	/* the clock places uptime before anything reads the time (a line's own
	 * wall clock is kept); what cannot be placed yet waits below */
	e->t_ms = jvmclock_at(&s->clock, e);
	if (e->kind == EV_SP_TIMEOUT && duplicate_timeout(s, e))
		return;
	if (e->kind == EV_JVM_EXIT && e->u.exit.alive_ms != EV_TIME_NONE &&
	    (s->jvm_alive_ms == EV_TIME_NONE || e->u.exit.alive_ms > s->jvm_alive_ms))
		s->jvm_alive_ms = e->u.exit.alive_ms;
	if (e->kind == EV_GC_PAUSE && (e->u.pause.flags & PAUSE_F_OPEN) && s->hold_open && !s->open_held) {
		s->open_held = true;
		s->open_src = i;
		s->open_ev = *e;
		return;
	}
	summary_add(&s->sum, e);
	if (e->up_us >= 0)
		src->last_up_us = e->up_us;
	if (e->t_ms != EV_TIME_NONE || jvmclock_time(&s->clock, e))
		place(s, e);
}

/* when a line or a sample was read: a coarse clock, read per line on the
 * hottest path (a few ns, against ~20 for CLOCK_REALTIME) */
static int64_t read_clock_ms(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME_COARSE, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void session_feed_event(struct session *s, int i, struct event *e)
{
	/* a sample read: the probe can read again */
	s->src[i]->st.error = false;
	s->src[i]->st.last_read_ms = read_clock_ms();
	emit(s, i, e);
}

/* --- parsing one line into events --- */

/* One line of source i into events; < 0 when it did not parse, with the
 * reason in why (wanted: the first failure of a source is kept, and every one
 * in verbose mode) */
static int parse(struct session *s, int i, const char *line, size_t len, struct event *out, int cap,
		 char *why, size_t whylen, bool wanted)
{
	struct source *src = s->src[i];
	const struct kind_ops *k = src->ops;
	why[0] = '\0';
	if (!k->parse)
		return -1;
	struct why w = {why, whylen, wanted};
	int n = src->jvm ? kind_jvm_parse(src, line, len, out, cap, &w) : k->parse(src, line, len, out, cap, &w);
	if (n < 0 && wanted && !why[0] && k->not_parsed)
		snprintf(why, whylen, "%s", k->not_parsed);
	return n;
}

/* count the line and parse it into the given queue */
/* Lines the JVM parser gave up on after reading them as parsed (a JDK 8
 * record whose duration never came): counted as unparsed, told in the
 * report (first_unparsed, NOTES) and to --verbose. Never silent. */
static void count_lost(struct session *s, int i)
{
	struct source *src = s->src[i];
	uint64_t first = 0;
	const char *why = NULL;
	uint64_t k = jvmlog_take_lost(src->jvm, &first, &why);
	if (!k)
		return;
	k = k < src->st.parsed ? k : src->st.parsed;
	src->st.parsed -= k;
	src->st.unparsed += k;
	src->st.lost += k;
	if (!src->st.first_error[0] && why) {
		util_strlcpy_n(src->st.first_error, sizeof src->st.first_error, why, strlen(why));
		src->st.first_error_line = first;
	}
	if (s->o.verbose && s->o.on_unparsed && why) {
		char msg[300];
		snprintf(msg, sizeof msg, "%s: %llu lines from line %llu counted as unparsed", why,
			 (unsigned long long)k, (unsigned long long)first);
		s->o.on_unparsed(s->o.unparsed_ctx, i, src->name, first, msg);
	}
}

static int parse_counted(struct session *s, int i, const char *line, size_t len, unsigned flags,
			 struct event *out, int cap)
{
	struct source *src = s->src[i];
	src->st.lines++;
	src->st.last_read_ms = read_clock_ms();
	/* live, a line read: whatever kept the source from being read (no
	 * permission, a directory in its place) is over. (A report's reader
	 * may hand out lines it had read before an error it met: that stays.) */
	if (__builtin_expect(src->st.error, 0) && !src->opened)
		src->st.error = false;
	if (flags & LINEBUF_CUT)
		src->st.cut++;
	char why[200];
	bool verbose = s->o.verbose && s->o.on_unparsed;
	int n = parse(s, i, line, len, out, cap, why, sizeof why, verbose || !src->st.first_error[0]);
	if (n < 0) {
		src->st.unparsed++;
		if (src->jvm_lost && *src->jvm_lost)
			count_lost(s, i);
		/* what a log stwtop does not read looks like, from its first unread lines */
		if (src->ops->jvm && !src->looks && src->st.unparsed <= 256)
			src->looks = jvmlog_foreign_shape(line, len);
		if (why[0] && !src->st.first_error[0] && !src->ops->jvm) {
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
	if (src->jvm_lost && *src->jvm_lost)
		count_lost(s, i);
	for (int k = 0; k < n; k++)
		out[k].line = src->st.lines;
	return n;
}

void session_feed_line(struct session *s, int i, const char *line, size_t len, unsigned flags,
		       int64_t live_now_ms)
{
	struct source *src = s->src[i];
	const struct kind_ops *ops = src->ops;
	struct event ev[QCAP];
	if (ops->hold && ops->hold(s, i, line, len))
		return;
	int n = parse_counted(s, i, line, len, flags, ev, QCAP);
	if (live_now_ms != EV_TIME_NONE)
		src->last_line_mono_ms = util_mono_ms();
	if (s->tl.keep_lines) {
		int64_t t = n > 0 ? jvmclock_at(&s->clock, &ev[0]) : EV_TIME_NONE;
		timeline_push_line(&s->tl, (uint16_t)i, src->st.lines, t, line, len);
	}
	for (int k = 0; k < n; k++) {
		/* a line being written right now tells when the JVM started */
		if (ops->jvm && ev[k].t_ms == EV_TIME_NONE)
			jvmclock_guess(&s->clock, live_now_ms, ev[k].up_us, src->name);
		emit(s, i, &ev[k]);
	}
}

void session_tick(struct session *s)
{
	/* no line with both clocks came: the guess it is */
	if (jvmclock_guess_due(&s->clock, util_mono_ms()))
		session_set_jvm_anchor_from(s, s->clock.guess_ms, ANCHOR_LIVE_LINE, s->clock.guess_how);
	for (int i = 0; i < s->nsrc; i++) {
		const struct kind_ops *k = s->src[i]->ops;
		if (k->tick)
			k->tick(s, i);
	}
}

void session_source_eof(struct session *s, int i)
{
	struct source *src = s->src[i];
	const struct kind_ops *k = src->ops;
	if (k->decide)
		k->decide(s, i);
	if (k->flush && !src->flushed) {
		struct event ev[QCAP];
		src->flushed = true;
		int n = k->flush(src, ev, QCAP);
		if (src->jvm_lost && *src->jvm_lost)
			count_lost(s, i);
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
	const struct kind_ops *k = src->ops;
	const char *line;
	size_t len;
	unsigned flags;
	while (src->qn == 0) {
		if (!read_line(src, &line, &len, &flags)) {
			if (k->flush && src->rd.eof && !src->flushed) {
				/* what waited for a later line */
				src->flushed = true;
				int n = k->flush(src, src->q, QCAP);
				if (src->jvm_lost && *src->jvm_lost)
					count_lost(s, i);
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
			timeline_push_line(&s->tl, (uint16_t)i, src->st.lines,
					   n > 0 ? jvmclock_at(&s->clock, &src->q[0]) : EV_TIME_NONE, line, len);
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

/* Whether source i's head can be looked at: opened for the merge, nothing
 * read yet. Its head is read into memory and given to the merge again, so a
 * pipe (`--gc -`, `<(zcat ...)`) is read once and tells the same as a file. */
static bool peekable(const struct source *src)
{
	return src->opened && src->rd.fd >= 0 && !src->rd.peeked;
}

/* The first jvm_start of the --replay recordings (their first 4 MiB), so the
 * merge places uptime-only lines where the live run had them. Only when some
 * JVM source needs it: a recording alone has nothing to place. */
static bool anchor_from_recording(struct session *s)
{
	bool jvm = false;
	for (int i = 0; i < s->nsrc; i++)
		if (s->src[i]->ops->jvm)
			jvm = true;
	for (int i = 0; jvm && i < s->nsrc; i++) {
		struct anchor_scan a = {s, s->src[i], NULL, false};
		if (s->src[i]->ops->anchor == ANCHOR_RECORDING && peekable(s->src[i]) &&
		    reader_peek(&s->src[i]->rd, ANCHOR_SCAN_BYTES, recording_anchor_line, &a))
			return true;
	}
	return false;
}

/* The report needs the JVM's start before merging uptime-only lines: the
 * sources are open, their heads are looked at (and kept for the merge). */
static void find_anchor(struct session *s)
{
	bool wall = false, jvm_only = true;
	if (s->clock.anchor_ms != EV_TIME_NONE)
		return;
	for (int i = 0; i < s->nsrc; i++) {
		struct source *src = s->src[i];
		if (!src->ops->jvm || !peekable(src))
			continue;
		struct anchor_scan a = {s, src, jvmlog_new(), false};
		bool found = a.p && reader_peek(&src->rd, ANCHOR_SCAN_BYTES, jvm_anchor_line, &a);
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
		if (!s->src[i]->ops->jvm)
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
	s->hold_open = true;
	/* the files first: the JVM's start is looked for in their heads */
	for (int i = 0; i < s->nsrc; i++)
		if (!s->src[i]->opened && s->src[i]->ops->read == READ_LINES && open_source(s->src[i]) != 0)
			rc = -1;
	find_anchor(s);
	for (int i = 0; i < s->nsrc; i++) {
		struct source *src = s->src[i];
		if (src->opened || src->ops->read != READ_WHOLE)
			continue;
		src->opened = true;
		if (session_read_hserr(s, i) != 0)
			rc = -1;
	}
	return rc;
}

/* the source whose next event is earliest on the JVM clock (unplaced ones
 * first), -1 at the end */
static int next_source(struct session *s)
{
	int best = -1;
	int64_t best_t = 0;
	for (int i = 0; i < s->nsrc; i++) {
		struct source *src = s->src[i];
		if (src->ops->read != READ_LINES || !src->opened)
			continue;
		if (src->qn == 0)
			refill(s, i);
		if (src->qn == 0)
			continue;
		int64_t t = jvmclock_at(&s->clock, &src->q[src->qhead]);
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
	return i < 0 ? EV_TIME_NONE : jvmclock_at(&s->clock, &s->src[i]->q[s->src[i]->qhead]);
}

bool session_replay_step(struct session *s, int64_t until_ms)
{
	for (;;) {
		int i = next_source(s);
		if (i < 0)
			return false;
		struct source *src = s->src[i];
		int64_t t = jvmclock_at(&s->clock, &src->q[src->qhead]);
		if (t != EV_TIME_NONE && t > until_ms)
			return true;
		/* emitted from the queue itself: nothing refills it before the next
		 * next_source() (a copy of the 248 bytes per event showed) */
		struct event *e = &src->q[src->qhead++];
		src->qn--;
		emit(s, i, e);
	}
}

/* The pause the JVM log never ended, held until the end of the report: it
 * lasted at least until the JVM's last sign of life, the log's last line or
 * the process seen alive after it (a recording's exit). When the log has
 * safepoint lines, the safepoint it held never ended either: a stop too. */
static void release_open_pause(struct session *s)
{
	struct event e = s->open_ev;
	s->open_held = false;
	s->hold_open = false;
	if (e.t_ms != EV_TIME_NONE && s->jvm_alive_ms != EV_TIME_NONE && s->jvm_alive_ms > e.t_ms) {
		e.u.pause.dur_ms += (double)(s->jvm_alive_ms - e.t_ms);
		e.t_ms = s->jvm_alive_ms;
		e.up_us = -1;
		e.u.pause.flags |= PAUSE_F_OPEN_EXIT;
	}
	emit(s, s->open_src, &e);
	if (s->tl.log_stops > 0 && e.t_ms != EV_TIME_NONE) {
		struct event sp;
		ev_init(&sp, EV_SAFEPOINT);
		sp.t_ms = e.t_ms;
		sp.line = e.line;
		sp.u.sp.form = SP_UNIFIED;
		sp.u.sp.total_ms = e.u.pause.dur_ms;
		sp.u.sp.ttsp_ms = 0;
		sp.u.sp.at_ms = e.u.pause.dur_ms;
		snprintf(sp.u.sp.op, sizeof sp.u.sp.op, "%s", TL_OPEN_PAUSE_OP);
		/* into the timeline only: the summary counts the safepoint lines logged */
		sp.src = (uint16_t)s->open_src;
		if (jvmclock_time(&s->clock, &sp))
			place(s, &sp);
	}
}

void session_jvm_gone(struct session *s)
{
	/* Nothing more comes of the JVM's logs: what they left open (a pause it
	 * died in, a half-read record) is read as at the end of a report, the
	 * open pause lasting until the process was last seen alive. */
	s->hold_open = true;
	for (int i = 0; i < s->nsrc; i++)
		if (s->src[i]->ops->jvm)
			session_source_eof(s, i);
	if (s->open_held)
		release_open_pause(s);
	s->hold_open = false;
}

void session_replay_finish(struct session *s)
{
	for (int i = 0; i < s->nsrc; i++) {
		const struct kind_ops *k = s->src[i]->ops;
		if (k->decide)
			k->decide(s, i); /* a short file still decides its format */
	}
	if (s->open_held)
		release_open_pause(s);
	session_eval(s, s->tl.newest_ms, true);
}

int session_run_report(struct session *s)
{
	int rc = session_replay_open(s);
	session_replay_step(s, INT64_MAX);
	session_replay_finish(s);
	return rc;
}
