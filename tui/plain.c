/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plain.c — line mode (--plain, or no usable terminal): each verdict when it
 * appears or changes, then one status line per interval. With --json the same
 * as NDJSON (schema REPORT_JSON_SCHEMA, documented in docs/ndjson.md) for a
 * log shipper. Everything from logs is sanitised before it is printed. */
#include "app.h"

#include "stwtop/report.h"
#include "stwtop/util.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLAIN_NOTES 16

struct plain {
	struct live *l;
	struct session *s;
	const struct cli *c;
	struct app_health *health;
	bool json, color;
	/* what was printed of each verdict, to print changes that matter only */
	struct seen {
		int id;
		uint64_t key;
		int sev;
		bool cleared;
		bool pending;          /* an update held back: printed at most once a second */
		int64_t printed_mono;  /* when it was last printed (monotonic ms) */
		char title[VERDICT_TITLE_LEN];
	} *seen;
	size_t nseen, capseen;
	/* notes told (session_notes), by their text without digits, so a count
	 * that grows does not print the same note again */
	char told[PLAIN_NOTES][SESSION_NOTE_LEN];
	size_t ntold;
	struct report_status_mark mark;   /* the request seconds the status lines have told */
	/* the time the last printed line led with: lines never go back in time
	 * (a verdict is printed when it is raised, its window beside it) */
	int64_t last_ms;
	/* stdout could not be written (its reader is gone, the disk is full): the
	 * errno of the first failed write, 0 while every write went through */
	int out_errno;
};

/* After each batch of output: a write that failed ends the run. A log shipper
 * that died, `| head -1`, a full disk: nobody reads what comes next, and
 * stwtop must not go on polling the JVM (and keeping its logging on) for no
 * one. EAGAIN is not such a failure: a stop signal makes stdout non-blocking
 * to get out of a stalled write, and the run is ending anyway. */
static void out_done(struct plain *p)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	int e = errno ? errno : EIO;
	clearerr(stdout);
	if (e == EAGAIN || e == EINTR || p->out_errno)
		return;
	p->out_errno = e;
	live_stop(p->l);
}

/* t, or the last printed time when t is older: a line's leading time is when
 * it was printed on the input's clock, which only moves forward */
static int64_t line_time(struct plain *p, int64_t t)
{
	if (t == EV_TIME_NONE || (p->last_ms != EV_TIME_NONE && t < p->last_ms))
		return p->last_ms;
	p->last_ms = t;
	return t;
}

static void put_sanitised(FILE *out, const char *prefix, const char *raw)
{
	char buf[4 * VERDICT_ADVICE_LEN + 1], text[2 * VERDICT_ADVICE_LEN];
	/* a verdict's or a note's times, rendered now (util_expand_times) */
	util_expand_times(text, sizeof text, raw, strlen(raw), UTIL_TIMES_OFFSET);
	util_sanitize(buf, sizeof buf, text, strlen(text));
	fprintf(out, "%s%s\n", prefix, buf);
}

/* What was printed of the newest PLAIN_SEEN_MAX verdicts (the rules keep at
 * most 2048: an older one is final, evicted, and never changes again), so a
 * sidecar printing an incident a minute for weeks stays bounded. Searched
 * newest first. */
#define PLAIN_SEEN_MAX 4096
static struct seen *seen_of(struct plain *p, const struct verdict *v)
{
	for (size_t i = p->nseen; i-- > 0;)
		if (p->seen[i].id == v->id && p->seen[i].key == v->key)
			return &p->seen[i];
	if (p->nseen == PLAIN_SEEN_MAX) { /* the oldest half goes */
		memmove(p->seen, p->seen + PLAIN_SEEN_MAX / 2, (PLAIN_SEEN_MAX / 2) * sizeof *p->seen);
		p->nseen = PLAIN_SEEN_MAX / 2;
	}
	if (p->nseen == p->capseen) {
		size_t cap = p->capseen ? p->capseen * 2 : 32;
		struct seen *n = realloc(p->seen, cap * sizeof *n);
		if (!n)
			return NULL;
		p->seen = n;
		p->capseen = cap;
	}
	struct seen *s = &p->seen[p->nseen++];
	memset(s, 0, sizeof *s);
	s->id = v->id;
	s->key = v->key;
	s->sev = -1;
	return s;
}

static void print_verdict(struct plain *p, struct seen *s, const struct verdict *v, const char *what, bool full)
{
	s->sev = v->severity;
	s->cleared = v->cleared_ms != EV_TIME_NONE;
	s->pending = false;
	s->printed_mono = util_mono_ms();
	util_strlcpy_n(s->title, sizeof s->title, v->title, strlen(v->title));
	if (p->json) {
		char *txt = report_verdict_json(p->s, v, what);
		if (txt) {
			puts(txt);
			free(txt);
		}
	} else {
		char t[UTIL_HMS_LEN], a[UTIL_HMS_LEN], b[UTIL_HMS_LEN];
		const char *col = "", *rst = "";
		if (p->color) {
			col = v->severity == SEV_CRIT ? "\033[1;31m" : v->severity == SEV_WARN ? "\033[1;33m" : "\033[1;36m";
			rst = "\033[0m";
		}
		int64_t at = line_time(p, session_timeline(p->s)->newest_ms);
		int64_t end = v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms;
		printf("%s %s%-4s%s %-7s %-28s %s-%s\n", util_fmt_hms_ms(at, t, sizeof t), col,
		       severity_name(v->severity), rst, what, verdict_id_name(v->id),
		       util_fmt_hms_ms(v->start_ms, a, sizeof a), util_fmt_hms_ms(end, b, sizeof b));
		put_sanitised(stdout, "    ", v->title);
		if (full) {
			for (int i = 0; i < v->nevidence; i++)
				put_sanitised(stdout, "    - ", v->evidence[i]);
			if (v->advice[0])
				put_sanitised(stdout, "    > ", v->advice);
		}
	}
	out_done(p);
}

/* A verdict is printed when it appears ("new"), when it is cleared, and when
 * its title or severity changes ("update", at most once a second per
 * verdict: a held-back update is printed by the next tick with what the
 * verdict says then). */
#define PLAIN_UPDATE_MS 1000
static void on_verdict(void *ctx, const struct verdict *v, bool is_new)
{
	struct plain *p = ctx;
	struct seen *s = seen_of(p, v);
	bool cleared = v->cleared_ms != EV_TIME_NONE;
	if (!s)
		return;
	if (is_new) {
		print_verdict(p, s, v, "new", true);
		return;
	}
	if (cleared && !s->cleared) {
		print_verdict(p, s, v, "cleared", false);
		return;
	}
	if (s->sev == v->severity && s->cleared == cleared && strcmp(s->title, v->title) == 0)
		return; /* only evidence details changed */
	if (util_mono_ms() - s->printed_mono < PLAIN_UPDATE_MS) {
		s->pending = true;
		return;
	}
	print_verdict(p, s, v, "update", false);
}

/* the updates held back, once their second is over */
static void flush_updates(struct plain *p)
{
	const struct rules *r = session_rules(p->s);
	int64_t mono = util_mono_ms();
	for (size_t i = 0; i < p->nseen; i++) {
		struct seen *s = &p->seen[i];
		if (!s->pending || mono - s->printed_mono < PLAIN_UPDATE_MS)
			continue;
		s->pending = false;
		for (size_t k = 0; k < rules_count(r); k++) {
			const struct verdict *v = rules_at(r, k);
			if (v->id == s->id && v->key == s->key) {
				if (s->sev != v->severity || strcmp(s->title, v->title) != 0)
					print_verdict(p, s, v, "update", false);
				break;
			}
		}
	}
}

static void stem(char *out, size_t len, const char *in)
{
	size_t o = 0;
	for (; *in && o + 1 < len; in++)
		if (*in < '0' || *in > '9')
			out[o++] = *in;
	out[o] = '\0';
}

/* What the input cannot show (a wrong nginx format, stops no source can
 * explain): said once each, as the report's NOTES say it. */
static void tell_notes(struct plain *p)
{
	char notes[8][SESSION_NOTE_LEN];
	size_t n = session_notes(p->s, notes, 8);
	for (size_t i = 0; i < n; i++) {
		char st[SESSION_NOTE_LEN];
		bool told = false;
		stem(st, sizeof st, notes[i]);
		for (size_t k = 0; k < p->ntold && !told; k++)
			told = strcmp(p->told[k], st) == 0;
		if (told || p->ntold == PLAIN_NOTES)
			continue;
		memcpy(p->told[p->ntold++], st, sizeof st);
		if (p->json) {
			char *txt = report_note_json(notes[i]);
			if (txt) {
				puts(txt);
				free(txt);
			}
		} else {
			put_sanitised(stdout, "note: ", notes[i]);
		}
	}
}

static void on_tick(void *ctx, int64_t now)
{
	struct plain *p = ctx;
	flush_updates(p);
	tell_notes(p);
	if (p->json) {
		char *txt = report_status_json(p->s, now, &p->mark);
		if (txt) {
			puts(txt);
			free(txt);
		}
	} else {
		char line[512];
		report_status_line(p->s, line_time(p, now), &p->mark, line, sizeof line);
		puts(line);
	}
	out_done(p);
}

static void on_note(void *ctx, int src, const char *msg, bool is_error)
{
	struct plain *p = ctx;
	char buf[600];
	util_sanitize(buf, sizeof buf, msg, strlen(msg));
	/* notes go to stderr: stdout is the data (with --json, one schema) */
	fprintf(stderr, "stwtop: %s%s\n", is_error ? "error: " : "", buf);
	app_health_note(p->health, src, is_error);
}

/* A hangup (the SSH session that ran it dropped) ends line mode as SIGTERM
 * does: the run's end undoes what it turned on in the JVM. */
static void on_signal(void *ctx, int signo)
{
	struct plain *p = ctx;
	if (signo == SIGHUP)
		live_stop(p->l);
}

static void on_demo_done(void *ctx)
{
	struct plain *p = ctx;
	/* line mode has nothing to stay on: the replay's end is the end */
	live_stop(p->l);
}

/* write all of buf to fd, waiting for room until the deadline (monotonic ms) */
static bool write_until(int fd, const char *buf, size_t len, int64_t deadline)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return false;
		int64_t left = deadline - util_mono_ms();
		if (left <= 0)
			return false;
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		poll(&pfd, 1, (int)left);
	}
	return true;
}

int plain_run(struct live *l, struct session *s, const struct cli *c, struct app_health *h)
{
	struct plain p = {
		.l = l, .s = s, .c = c, .health = h, .json = c->json, .last_ms = EV_TIME_NONE,
		.color = !c->no_color && isatty(1) && !c->json,
	};
	static const struct live_view view = {
		.tick = on_tick, .note = on_note, .demo_done = on_demo_done, .signal = on_signal,
	};
	report_status_init(&p.mark);
	session_set_listener(s, on_verdict, &p);
	live_set_view(l, &view, &p);
	/* say what is being watched (stderr: stdout is the data) */
	for (int i = 0; i < session_nsources(s); i++) {
		enum src_kind k = session_source_kind(s, i);
		const char *path = session_source_path(s, i);
		char safe[1024];
		util_sanitize(safe, sizeof safe, path, strlen(path)); /* a path is bytes too */
		fprintf(stderr, "stwtop: %s %s (%s)", k == SRC_PROBE ? "polling" : "following", safe,
			src_kind_name(k));
		/* what it said when it was opened (a probe that found nothing to read, and why) */
		const struct source_stats *st = session_source_stats(s, i);
		if (st && st->note[0]) {
			char nb[1200];
			util_sanitize(nb, sizeof nb, st->note, strlen(st->note));
			fprintf(stderr, ": %s", nb);
		}
		fputc('\n', stderr);
	}
	int rc = live_run(l);
	session_set_listener(s, NULL, NULL);
	/* at exit, the state of every verdict: what a shipper (or a test) compares
	 * with the report over the same input. A stop signal may have left stdout
	 * non-blocking (a reader that stalled): write with a deadline, not forever. */
	if (p.out_errno) {
		/* said once, on stderr (stdout is what failed), before the caller
		 * undoes the JVM logging it turned on and says so */
		fprintf(stderr, "stwtop: writing to standard output: %s: stopping\n", strerror(p.out_errno));
		free(p.seen);
		return 1;
	}
	if (p.json) {
		const struct rules *r = session_rules(s);
		int64_t deadline = util_mono_ms() + 2000;
		fflush(stdout);
		clearerr(stdout);
		for (size_t i = 0; i < rules_count(r); i++) {
			char *txt = report_verdict_json(s, rules_at(r, i), "final");
			if (txt) {
				size_t n = strlen(txt);
				bool ok = write_until(STDOUT_FILENO, txt, n, deadline) &&
					  write_until(STDOUT_FILENO, "\n", 1, deadline);
				free(txt);
				if (!ok)
					break;
			}
		}
	}
	free(p.seen);
	return rc < 0 ? 1 : 0;
}
