/* SPDX-License-Identifier: GPL-2.0-or-later */
/* brief.c — `--report --brief`: the report in at most BRIEF_MAX_LINES lines
 * for an incident chat (report.h). The same session and verdicts as the full
 * report, cut down: one headline per incident, whole-run verdicts, one line of
 * numbers, one line of what could not be checked. Never colour: it is pasted. */
#include "stwtop/report.h"
#include "stwtop/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define BRIEF_COLS 160         /* a chat message line that still reads as one line */
#define BRIEF_FIXED 3          /* the range line, the numbers line, the checked line */
#define BRIEF_ITEMS (BRIEF_MAX_LINES - BRIEF_FIXED)

struct line {
	char b[4 * BRIEF_COLS];
	size_t n;
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	if (l->n >= sizeof l->b - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(l->b + l->n, sizeof l->b - l->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		l->n += (size_t)w < sizeof l->b - l->n ? (size_t)w : sizeof l->b - l->n - 1;
}

/* Print the line cut to BRIEF_COLS at a word boundary, "..." marking the cut. */
static void put(FILE *out, const struct line *l)
{
	if (l->n <= BRIEF_COLS) {
		fprintf(out, "%s\n", l->b);
		return;
	}
	size_t cut = BRIEF_COLS - 3;
	while (cut > BRIEF_COLS / 2 && l->b[cut] != ' ')
		cut--;
	if (l->b[cut] != ' ')
		cut = BRIEF_COLS - 3;
	while (cut > 0 && strchr(" ,;:.", l->b[cut - 1]))
		cut--;
	fprintf(out, "%.*s...\n", (int)cut, l->b);
}

/* One line of the brief: an incident (its headline verdict, the first in
 * reading order, and the ids of the others) or one whole-run verdict. */
struct item {
	size_t first, count;   /* into the report order: the incident's verdicts */
	int worst;             /* the highest severity among them */
	int ncrit;             /* how many of them are crit */
	int64_t span_ms;       /* how long the evidence lasts: a longer incident is worse */
	bool incident, shown;
};

static const char *when(const struct session *s, int64_t t, char *buf, size_t len)
{
	if (t == EV_TIME_NONE)
		return "";
	if (session_uptime_axis(s)) {
		snprintf(buf, len, "+%.3fs", t / 1000.0);
		return buf;
	}
	return util_fmt_hms_ms(t, buf, len);
}

static void put_item(FILE *out, const struct session *s, const size_t *idx, const struct item *it)
{
	const struct rules *r = session_rules(s);
	const struct verdict *v = rules_at(r, idx[it->first]);
	char t[32], title[4 * VERDICT_TITLE_LEN + 1], timed[2 * VERDICT_TITLE_LEN];
	util_expand_times(timed, sizeof timed, v->title, strlen(v->title), UTIL_TIMES_OFFSET);
	util_sanitize(title, sizeof title, timed, strlen(timed));
	struct line also = {.n = 0};
	for (size_t k = 1; k < it->count; k++) {
		const struct verdict *o = rules_at(r, idx[it->first + k]);
		add(&also, "%s%s %s", k > 1 ? ", " : " [also ", severity_name(o->severity), verdict_id_name(o->id));
	}
	if (also.n)
		add(&also, "]");
	struct line l = {.n = 0};
	add(&l, "%s %s %s ", severity_name(v->severity), verdict_id_name(v->id),
	    when(s, v->start_ms, t, sizeof t));
	/* the title gives way to the other ids: they say what else the incident was */
	size_t room = BRIEF_COLS > l.n + also.n ? BRIEF_COLS - l.n - also.n : 0;
	size_t tl = strlen(title);
	if (tl > room) {
		size_t cut = room > 4 ? room - 4 : 0;
		while (cut > room / 2 && title[cut] != ' ')
			cut--;
		while (cut > 0 && strchr(" ,;:.(", title[cut - 1]))
			cut--;
		add(&l, "%.*s...", (int)cut, title);
	} else {
		add(&l, "%s", title);
	}
	add(&l, "%s", also.b);
	put(out, &l);
}

/* most severe first; incidents before whole-run verdicts; then reading order */
static int cmp_worst(const void *pa, const void *pb)
{
	const struct item *a = *(const struct item *const *)pa, *b = *(const struct item *const *)pb;
	if (a->worst != b->worst)
		return b->worst - a->worst;
	if (a->incident != b->incident)
		return a->incident ? -1 : 1;
	if (a->ncrit != b->ncrit)
		return b->ncrit - a->ncrit;
	if (a->span_ms != b->span_ms)
		return a->span_ms > b->span_ms ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

static int64_t span_of(const struct verdict *v)
{
	if (v->start_ms == EV_TIME_NONE || v->end_ms == EV_TIME_NONE)
		return 0;
	return v->end_ms - v->start_ms;
}

/* Group the report order into items; mark the ones that fit as shown. */
static size_t brief_items(const struct session *s, const size_t *idx, size_t n, struct item *items)
{
	const struct rules *r = session_rules(s);
	size_t ni = 0;
	for (size_t i = 0; i < n; i++) {
		const struct verdict *v = rules_at(r, idx[i]);
		bool inc = verdict_is_incident(v->id);
		struct item *it = ni > 0 ? &items[ni - 1] : NULL;
		if (!(inc && it && it->incident && rules_at(r, idx[it->first])->key == v->key)) {
			it = &items[ni++];
			*it = (struct item){.first = i, .worst = v->severity, .incident = inc};
		}
		it->count++;
		if (v->severity > it->worst)
			it->worst = v->severity;
		it->ncrit += v->severity == SEV_CRIT;
		if (span_of(v) > it->span_ms)
			it->span_ms = span_of(v);
	}
	size_t fit = ni <= BRIEF_ITEMS ? ni : BRIEF_ITEMS - 1;   /* one line says what is left out */
	struct item **by = calloc(ni ? ni : 1, sizeof *by);
	if (!by) {
		for (size_t i = 0; i < fit; i++)
			items[i].shown = true;
		return ni;
	}
	for (size_t i = 0; i < ni; i++)
		by[i] = &items[i];
	qsort(by, ni, sizeof *by, cmp_worst);
	for (size_t i = 0; i < fit; i++)
		by[i]->shown = true;
	free(by);
	return ni;
}

static void put_range(FILE *out, const struct session *s)
{
	const struct timeline *tl = session_timeline(s);
	char a[40], b[40];
	struct line l = {.n = 0};
	add(&l, "stwtop %s brief: ", STWTOP_VERSION);
	if (tl->oldest_ms == EV_TIME_NONE)
		add(&l, "no events");
	else if (session_uptime_axis(s))
		add(&l, "JVM uptime %.3f s .. %.3f s (no wall clock)", tl->oldest_ms / 1000.0, tl->newest_ms / 1000.0);
	else
		/* the ISO times carry the zone ("Z", "+01:00"), and every time below
		 * carries its offset unless the zone is UTC */
		add(&l, "%s .. %s (%.0f s)", util_fmt_iso_disp(tl->oldest_ms, a, sizeof a),
		    util_fmt_iso_disp(tl->newest_ms, b, sizeof b), (tl->newest_ms - tl->oldest_ms) / 1000.0);
	add(&l, "; sources:");
	for (int i = 0; i < session_nsources(s); i++) {
		const char *p = session_source_path(s, i), *base = strrchr(p, '/');
		char sb[4 * 64 + 1];
		base = base && base[1] ? base + 1 : p;
		util_sanitize(sb, sizeof sb, base, strnlen(base, 64));
		add(&l, " %s", sb);
	}
	put(out, &l);
}

/* No GC log: the JVM's counters, named as such, with jstat's totals since
 * the JVM started when the read had them (a recording replayed has only the
 * sums since stwtop started, and says so) */
static void add_counters(struct line *l, const struct summary *sm)
{
	const struct jvm_totals *t = &sm->ctr_tot;
	const char *cn = jvm_collector_name(sm->ctr_collector);
	if (t->gcs[JVM_GC_YOUNG] >= 0 || t->safepoints >= 0) {
		add(l, " JVM counters since JVM start (hsperfdata%s%s):", cn ? ", " : "", cn ? cn : "");
		static const char *const col[JVM_GC_KINDS] = {"YGC", "FGC", "CGC"};
		const char *sep = "";
		for (int k = 0; k < JVM_GC_KINDS; k++)
			if (t->gcs[k] >= 0) {
				add(l, "%s %s %lld %.3fs", sep, col[k], (long long)t->gcs[k],
				    t->gc_ms[k] > 0 ? t->gc_ms[k] / 1000 : 0);
				sep = ",";
			}
		if (t->safepoints >= 0)
			add(l, "; safepoints %lld %.3fs", (long long)t->safepoints,
			    t->stopped_ms > 0 ? t->stopped_ms / 1000 : 0);
	} else {
		add(l, " JVM counters (hsperfdata) since stwtop started: GCs %llu (%llu Full) %.3f s; safepoints %llu, "
		    "stopped %.3f s", (unsigned long long)sm->ctr_gcs, (unsigned long long)sm->ctr_full_gcs,
		    sm->ctr_gc_ms / 1000, (unsigned long long)sm->ctr_safepoints, sm->ctr_stop_ms / 1000);
	}
	if (sm->ctr_max_stop_ms > 0)
		add(l, ", max %.1f ms", sm->ctr_max_stop_ms);
	if (sm->ctr_heap_committed_mb >= 0)
		add(l, "; heap %.0f/%.0f MB used/committed", sm->ctr_heap_used_mb, sm->ctr_heap_committed_mb);
}

/* The numbers of the SUMMARY that say how bad it was; the throttled time only
 * when it still fits (the line is never cut mid-number). */
static void put_numbers(FILE *out, const struct session *s)
{
	const struct summary *sm = session_summary(s);
	struct line l = {.n = 0};
	add(&l, "numbers:");
	size_t empty = l.n;
	if (sm->gc_pauses || sm->stops || sm->collector) {
		add(&l, " stops %llu", (unsigned long long)sm->stops);
		if (sm->stops)
			add(&l, ", max %.1f ms (ttsp %.1f ms)", sm->max_stop_ms, sm->max_ttsp_ms);
		add(&l, "; GC pauses %llu, %llu Full", (unsigned long long)sm->gc_pauses,
		    (unsigned long long)sm->full_gcs);
		double share = summary_gc_paused_share(sm);
		if (sm->gc_pauses && share >= 0)
			add(&l, ", paused %.1f %%", share * 100);
	}
	if (strcmp(summary_jvm_source(sm), "hsperfdata") == 0)
		add_counters(&l, sm);
	if (sm->hs_errs)
		add(&l, "%s crash reports %llu", l.n > empty ? ";" : "", (unsigned long long)sm->hs_errs);
	if (sm->requests) {
		unsigned long long s5 = 0, slow = 0;
		for (int c = 500; c < 600 && c < SUMMARY_STATUS_MAX; c++)
			s5 += sm->status[c];
		for (int k = 1; k < 5; k++)
			slow += sm->uct_buckets[k];
		add(&l, "%s requests %llu, 5xx %llu", l.n > empty ? ";" : "", (unsigned long long)sm->requests, s5);
		if (sm->lacks_uct < sm->requests)
			add(&l, ", slow connects %llu", slow);
	}
	if (sm->throttle_samples) {
		char t[64];
		int w = snprintf(t, sizeof t, "%s throttled %+.0f ms", l.n > empty ? ";" : "", summary_throttled_ms(sm));
		if (w > 0 && l.n + (size_t)w <= BRIEF_COLS)
			add(&l, "%s", t);
	}
	if (l.n == empty)
		add(&l, " none (no event read)");
	put(out, &l);
}

/* A note or a reason in brief: the sentence up to its first ": " (what was
 * not checked; the how-to after it is in the full report), when that part
 * says enough on its own. */
static void add_short(struct line *l, const char *sep, const char *raw)
{
	char text[2 * SESSION_NOTE_LEN];
	util_expand_times(text, sizeof text, raw, strlen(raw), UTIL_TIMES_OFFSET);
	const char *colon = strstr(text, ": ");
	size_t n = colon && colon - text >= 30 ? (size_t)(colon - text) : strlen(text);
	add(l, "%s %.*s", sep, (int)n, text);
}

/* The report's VERDICTS headline, in one line: "nothing abnormal" only where
 * the full report says it (every source read and understood, no verdict, no
 * note); otherwise what could not be checked. */
static void put_checked(FILE *out, const struct session *s, size_t nverdicts)
{
	struct session_checked c;
	session_checked(s, &c);
	char notes[8][SESSION_NOTE_LEN];
	size_t nn = session_notes(s, notes, ARRAY_LEN(notes));
	struct line l = {.n = 0};
	if (c.complete && nverdicts == 0 && nn == 0) {
		fputs("checked: nothing abnormal in this input\n", out);
		return;
	}
	if (c.complete && nn == 0) {
		fputs("checked: every source was read and understood\n", out);
		return;
	}
	if (!c.complete && c.nothing)
		add(&l, "nothing was checked:");
	else if (nverdicts == 0)
		add(&l, "no verdict in what could be checked; not checked:");
	else
		add(&l, "not checked:");
	size_t k = 0;
	for (size_t i = 0; i < c.nwhy; i++, k++)
		add_short(&l, k ? ";" : "", c.why[i]);
	for (size_t i = 0; i < nn; i++, k++)
		add_short(&l, k ? ";" : "", notes[i]);
	put(out, &l);
}

int report_brief(FILE *out, const struct session *s)
{
	const struct rules *r = session_rules(s);
	size_t n;
	const size_t *idx = rules_order(r, &n);
	struct item *items = calloc(n ? n : 1, sizeof *items);
	if (!items || (n && !idx)) {
		free(items);
		return -1;
	}
	size_t ni = brief_items(s, idx, n, items);
	put_range(out, s);
	size_t more_inc = 0, more_run = 0;
	for (size_t i = 0; i < ni; i++) {
		if (items[i].shown)
			put_item(out, s, idx, &items[i]);
		else if (items[i].incident)
			more_inc++;
		else
			more_run++;
	}
	if (more_inc || more_run) {
		struct line l = {.n = 0};
		if (more_inc)
			add(&l, "+%zu more incident%s", more_inc, more_inc == 1 ? "" : "s");
		if (more_run)
			add(&l, "%s+%zu more whole-run verdict%s", more_inc ? ", " : "", more_run, more_run == 1 ? "" : "s");
		add(&l, " (stwtop --report for all)");
		put(out, &l);
	}
	put_numbers(out, s);
	put_checked(out, s, n);
	free(items);
	return ferror(out) ? -1 : 0;
}
