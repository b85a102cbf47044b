/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session_kinds.c — what differs per kind of source, one row of kinds[] each
 * (session_internal.h: struct kind_ops): how it is set up, read and parsed,
 * what it tells the rules, what waits for more lines and when its unread
 * lines are said. session.c runs every kind the same way through these rows;
 * adding a kind is adding a row here. */
#include "session_internal.h"

#include "stwtop/cpustat.h"
#include "stwtop/jvmlog.h"
#include "stwtop/record.h"
#include "stwtop/samplelog.h"
#include "stwtop/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEDLOG_QUIET_MS 1000      /* live: a schedstat sample with no rows for this long is whole */

static void nginx_detect(struct session *s, struct source *src, int i);
static bool nginx_second_note(const struct source *src, char *out, size_t outlen);

static int jvm_setup(struct session *s, struct source *src, char *err, size_t errlen)
{
	(void)s, (void)err, (void)errlen;
	src->jvm = jvmlog_new();
	src->jvm_lost = jvmlog_lost_counter(src->jvm);
	return 0;
}

static int jvm_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w)
{
	return kind_jvm_parse(src, line, len, out, cap, w);
}

static int jvm_flush(struct source *src, struct event *out, int cap)
{
	/* a JDK 8 pause, an unfinished report */
	return src->jvm ? jvmlog_flush(src->jvm, out, cap) : 0;
}

/* --nginx-conf FILE without :NAME: the format FILE's access_log line for this
 * log names; the config's other formats read lines of a second one */
static int nginx_setup_conf(struct session *s, struct source *src, char *err, size_t errlen)
{
	struct nginx_conf_fmts cf;
	char why[256];
	if (nginx_conf_formats_for(s->nginx_conf_path, src->path, &cf, why, sizeof why) < 0) {
		snprintf(err, errlen, "--nginx-conf %s: %s", s->nginx_conf_path, why);
		return -EINVAL;
	}
	const char *fmt = cf.nfor > 0 ? cf.fmt[0] : s->nginx_conf_format;
	if (!fmt) {
		snprintf(err, errlen, "--nginx-conf %s: no access_log writes %s, and %s", s->nginx_conf_path,
			 src->name, s->nginx_conf_why);
		nginx_conf_fmts_fini(&cf);
		return -EINVAL;
	}
	src->k.nginx.fmt = nginx_fmt_compile(fmt, strlen(fmt), why, sizeof why);
	if (!src->k.nginx.fmt) {
		snprintf(err, errlen, "--nginx-conf: %s", why);
		nginx_conf_fmts_fini(&cf);
		return -EINVAL;
	}
	for (int k = 0; k < cf.n; k++) {
		if (strcmp(cf.fmt[k], fmt) == 0) {
			if (!src->k.nginx.fmt_name && !(src->k.nginx.fmt_name = strdup(cf.name[k])))
				goto nomem;
			continue;
		}
		struct nginx_fmt *a = nginx_fmt_compile(cf.fmt[k], strlen(cf.fmt[k]), NULL, 0);
		if (a) {
			char *name = strdup(cf.name[k]);
			if (!name) { /* NOTES prints the name of every other format it read */
				nginx_fmt_free(a);
				goto nomem;
			}
			src->k.nginx.alt[src->k.nginx.nalt] = a;
			src->k.nginx.alt_name[src->k.nginx.nalt++] = name;
		}
	}
	nginx_conf_fmts_fini(&cf);
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	nginx_conf_fmts_fini(&cf);
	return -ENOMEM;
}

static void nginx_fini(struct source *src)
{
	struct nginx_src *x = &src->k.nginx;
	nginx_fmt_free(x->fmt);
	free(x->fmt_name);
	for (int k = 0; k < x->nalt; k++) {
		nginx_fmt_free(x->alt[k]);
		free(x->alt_name[k]);
	}
	nginx_fmt_free(x->other);
	nginx_sniff_fini(&x->sniff);
}

static int nginx_setup(struct session *s, struct source *src, char *err, size_t errlen)
{
	if (!s->o.nginx_format && s->nginx_conf_path)
		return nginx_setup_conf(s, src, err, errlen);
	const char *fmt = s->o.nginx_format ? s->o.nginx_format : s->nginx_conf_format;
	if (!fmt) {
		src->k.nginx.fmt_detect = true;
		return 0;
	}
	char why[256];
	src->k.nginx.fmt = nginx_fmt_compile(fmt, strlen(fmt), why, sizeof why);
	if (!src->k.nginx.fmt) {
		snprintf(err, errlen, "%s: %s", s->o.nginx_format ? "--nginx-format" : "--nginx-conf", why);
		return -EINVAL;
	}
	return 0;
}

/* A line the source's format missed: one of the config's other formats
 * (learned: read with it), else counted as a second format when it has the
 * one of the first such line (named in NOTES), else unparsed. */
static int nginx_second_format(struct source *src, const char *line, size_t len, struct event *out,
			       struct why *w)
{
	struct event ev;
	(void)w;
	for (int k = 0; k < src->k.nginx.nalt; k++)
		if (nginx_parse_line(src->k.nginx.alt[k], line, len, &out[0], NULL)) {
			src->k.nginx.alt_lines[k]++;
			return 1;
		}
	if (!src->k.nginx.other_tried) {
		const char *one[1] = {line};
		src->k.nginx.other_tried = true;
		src->k.nginx.other = nginx_fmt_detect(one, &len, 1);
	}
	/* its reason stays the mismatch; NOTES names the format */
	if (src->k.nginx.other && nginx_parse_line(src->k.nginx.other, line, len, &ev, NULL))
		src->k.nginx.other_lines++;
	return -1;
}

static int nginx_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w)
{
	struct nginx_miss miss;
	(void)cap;
	if (!src->k.nginx.fmt)
		return -1;
	if (nginx_parse_line(src->k.nginx.fmt, line, len, &out[0], &miss))
		return 1;
	/* which variable or literal did not match, and where */
	if (w->wanted)
		nginx_miss_describe(&miss, line, len, w->s, w->n);
	return nginx_second_format(src, line, len, out, w);
}

static bool nginx_hold(struct session *s, int i, const char *line, size_t len)
{
	struct source *src = s->src[i];
	if (!src->k.nginx.fmt_detect || src->k.nginx.fmt)
		return false;
	/* wait for enough lines to guess (session_tick and _source_eof also decide) */
	if (nginx_sniff_add(&src->k.nginx.sniff, line, len))
		nginx_detect(s, src, i);
	return true;
}

static void nginx_decide(struct session *s, int i)
{
	struct source *src = s->src[i];
	if (src->k.nginx.fmt_detect && !src->k.nginx.fmt)
		nginx_detect(s, src, i);
}

static void nginx_tick(struct session *s, int i)
{
	/* a quiet nginx: decide its format with the lines there are, so they show */
	if (s->src[i]->k.nginx.sniff.n > 0)
		nginx_decide(s, i);
}

static bool nginx_unread(const struct source *src, const char *what, const char *why, char *out, size_t outlen)
{
	const struct source_stats *st = &src->st;
	(void)what;
	/* an access log is all requests: most of it unread is said */
	if (!(st->parsed == 0 || st->unparsed * 2 > st->lines))
		return nginx_second_note(src, out, outlen);
	snprintf(out, outlen, "%s: %llu of %llu lines did not match the log format%s: give nginx's own "
		 "log_format with --nginx-format 'FMT' or --nginx-conf FILE:NAME", src->name,
		 (unsigned long long)st->unparsed, (unsigned long long)st->lines, why);
	return true;
}

/* a file that holds a second format says so: which, and how many lines */
static bool nginx_second_note(const struct source *src, char *out, size_t outlen)
{
	uint64_t learned = 0;
	char names[160] = "";
	size_t o = 0;
	for (int k = 0; k < src->k.nginx.nalt; k++)
		if (src->k.nginx.alt_lines[k] && o < sizeof names) {
			learned += src->k.nginx.alt_lines[k];
			o += (size_t)snprintf(names + o, sizeof names - o, "%s'%s' (%llu)", o ? ", " : "",
					      src->k.nginx.alt_name[k], (unsigned long long)src->k.nginx.alt_lines[k]);
		}
	if (learned) {
		snprintf(out, outlen, "%s: holds a second log_format: %llu of %llu lines are in %s of the "
			 "config, not in '%s' that its access_log names (the format changed at a reload, or "
			 "two access_log lines write this file); read with it", src->name,
			 (unsigned long long)learned, (unsigned long long)src->st.lines, names,
			 src->k.nginx.fmt_name ? src->k.nginx.fmt_name : "?");
		return true;
	}
	if (!src->k.nginx.other_lines)
		return false;
	const char *of = nginx_fmt_string(src->k.nginx.other);
	struct nginx_fmt *comb = nginx_fmt_combined();
	bool is_comb = comb && strcmp(of, nginx_fmt_string(comb)) == 0;
	nginx_fmt_free(comb);
	snprintf(out, outlen, "%s: holds a second log_format: %llu of %llu lines are in %s%s%s, not "
		 "counted (unparsed); give the nginx config with --nginx-conf FILE to read both", src->name,
		 (unsigned long long)src->k.nginx.other_lines, (unsigned long long)src->st.lines,
		 is_comb ? "nginx's combined" : "'", is_comb ? "" : of, is_comb ? "" : "'");
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

static int cpustat_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w)
{
	(void)src, (void)cap, (void)w;
	return cpustat_parse_line(line, len, &out[0]) ? 1 : -1;
}

static int record_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w)
{
	(void)cap;
	int rc = record_parse_line(line, len, &out[0], w->s, w->n);
	if (rc == 1 && out[0].kind == EV_ANCHOR) {
		int64_t ms;
		char from[32];
		if (!record_meta_anchor(line, len, &ms, from, sizeof from, src->k.rec_anchor_how, sizeof src->k.rec_anchor_how))
			src->k.rec_anchor_how[0] = '\0';
	}
	return rc >= 0 ? rc : -1; /* 1 sample or the JVM start, 0 a meta line */
}

static void schedlog_fini(struct source *src)
{
	schedlog_free(src->k.sched);
}

static int schedlog_setup(struct session *s, struct source *src, char *err, size_t errlen)
{
	(void)s, (void)err, (void)errlen;
	src->k.sched = schedlog_new();
	return 0;
}

static int schedlog_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w)
{
	(void)cap, (void)w;
	int n = schedlog_parse_line(src->k.sched, line, len, &out[0]);
	/* the CSV header is not an error */
	if (n < 0 && util_starts_with(line, len, "epoch_ms,"))
		return 0;
	return n;
}

static int schedlog_flush_one(struct source *src, struct event *out, int cap)
{
	(void)cap;
	return src->k.sched && schedlog_flush(src->k.sched, &out[0]) > 0 ? 1 : 0;
}

static void schedlog_tick(struct session *s, int i)
{
	/* a schedstat sample ends when the next one starts; a sampler writes
	 * one at once, so a second without rows means the last one is whole
	 * (the report ends it at EOF; live kept it back and differed) */
	struct source *src = s->src[i];
	if (schedlog_open(src->k.sched) && src->last_line_mono_ms &&
	    util_mono_ms() - src->last_line_mono_ms >= SCHEDLOG_QUIET_MS) {
		struct event e;
		if (schedlog_flush(src->k.sched, &e) > 0) {
			e.line = src->st.lines;
			session_feed_event(s, i, &e);
		}
	}
}

static int vmstatlog_parse(struct source *src, const char *line, size_t len, struct event *out, int cap, struct why *w)
{
	(void)src, (void)cap, (void)w;
	return vmstatlog_parse_line(line, len, &out[0]) ? 1 : -1;
}

static const struct kind_ops kinds[] = {
	[SRC_JVM] = {
		.name = "jvm", .alias = "gc", .read = READ_LINES, .have = HAVE_JVM, .jvm = true, .anchor = ANCHOR_LINE,
		.expected = "a JVM log stwtop understands (HotSpot GC, safepoint or start-up output)",
		.not_parsed = "not a line of the JVM's GC, safepoint or start-up output that stwtop reads",
		.setup = jvm_setup, .parse = jvm_parse, .flush = jvm_flush,
		.unread = none_read, .what = "a JVM GC or safepoint log",
	},
	[SRC_NGINX] = {
		.name = "nginx", .read = READ_LINES, .have = HAVE_NGINX, .anchor = ANCHOR_LINE,
		.expected = "requests in the nginx log_format in use",
		.setup = nginx_setup, .fini = nginx_fini, .parse = nginx_parse, .hold = nginx_hold, .decide = nginx_decide,
		.tick = nginx_tick, .unread = nginx_unread,
	},
	[SRC_CPUSTAT] = {
		.name = "cpustat", .read = READ_LINES, .have = HAVE_CPU, .anchor = ANCHOR_LINE,
		.expected = "cpu.stat samples",
		.not_parsed = "not '<ISO time> nr_periods N nr_throttled N throttled_time N ...'",
		.parse = cpustat_parse, .unread = none_read, .what = "cpustat",
	},
	[SRC_RECORD] = {
		/* tells what it holds by what it carries (make_ctx) */
		.name = "record", .read = READ_LINES, .anchor = ANCHOR_RECORDING, .expected = "an stwtop recording",
		.parse = record_parse, .unread = none_read, .what = "record",
	},
	[SRC_SCHEDLOG] = {
		.name = "schedstat", .read = READ_LINES, .have = HAVE_SCHED, .anchor = ANCHOR_LINE,
		.expected = "schedstat samples",
		.not_parsed = "not 'epoch_ms,tid,comm,run_ns,wait_ns,timeslices'",
		.setup = schedlog_setup, .fini = schedlog_fini, .parse = schedlog_parse, .flush = schedlog_flush_one,
		.tick = schedlog_tick, .unread = none_read, .what = "schedstat",
	},
	[SRC_VMSTATLOG] = {
		.name = "vmstat", .read = READ_LINES, .have = HAVE_VMSTAT, .anchor = ANCHOR_LINE,
		.expected = "vmstat samples",
		.not_parsed = "not '<time> allocstall_... N ... pageoutrun N' (/proc/vmstat)",
		.parse = vmstatlog_parse, .unread = none_read, .what = "vmstat",
	},
	/* a crash report is one event: read whole, never said unread (it says
	 * "not a JVM crash report" itself) */
	[SRC_HSERR] = {.name = "hs_err", .read = READ_WHOLE, .anchor = ANCHOR_LINE, .expected = "a JVM crash report"},
	[SRC_PROBE] = {.name = "probe", .read = READ_NONE, .anchor = ANCHOR_LINE},
};

static const struct kind_ops kind_unknown = {.name = "?", .read = READ_NONE, .anchor = ANCHOR_LINE};

const struct kind_ops *session_kind_ops(enum src_kind k)
{
	return (unsigned)k < ARRAY_LEN(kinds) && kinds[k].name ? &kinds[k] : &kind_unknown;
}

const char *src_kind_name(enum src_kind k)
{
	return session_kind_ops(k)->name;
}

int src_kind_from_name(const char *name)
{
	for (size_t k = 0; k < ARRAY_LEN(kinds); k++)
		if (kinds[k].name && k != SRC_PROBE &&
		    (strcmp(kinds[k].name, name) == 0 || (kinds[k].alias && strcmp(kinds[k].alias, name) == 0)))
			return (int)k;
	return -1;
}

/* The format is chosen (sniffed from the lines kept, when none was given):
 * the kept lines are parsed with it, in order. */
static void nginx_detect(struct session *s, struct source *src, int i)
{
	src->k.nginx.fmt = nginx_sniff_decide(&src->k.nginx.sniff);
	src->k.nginx.fmt_detect = false;
	/* replay the buffered lines through the chosen format */
	struct nginx_sniff kept = src->k.nginx.sniff;
	memset(&src->k.nginx.sniff, 0, sizeof src->k.nginx.sniff);
	for (int k = 0; k < kept.n; k++)
		session_feed_line(s, i, kept.buf[k], kept.len[k], 0, EV_TIME_NONE);
	nginx_sniff_fini(&kept);
}
