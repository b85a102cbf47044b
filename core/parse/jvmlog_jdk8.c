/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog_jdk8.c — lines without unified-logging decorations: JDK 8 (and 7)
 * -XX:+PrintGCDetails / -XX:+PrintGC output with -XX:+PrintGCDateStamps and/or
 * -XX:+PrintGCTimeStamps prefixes, "Total time for which application threads
 * were stopped", -XX:+PrintSafepointStatistics rows and SafepointTimeout
 * reports on stdout, the JDK 8 log header, JDK 9+ lines logged with
 * decorations "none", and the "<epoch ms> uptime_ms=<n>" anchor line of an
 * application console. Everything else is JVMLOG_UNKNOWN.
 *
 * JDK 8 shapes mirror gc_implementation/shared/gcTraceTime.cpp (prefix
 * "date: uptime: [title", end ", %3.7f secs]"), g1CollectorPolicy.cpp
 * print_detailed_heap_transition() ("[Eden: ... Heap: A(B)->C(D)]") and
 * runtime/safepoint.cpp print_statistics().
 * The stamps of a JDK 8 pause line are written when the pause *starts*; the
 * event gets start + duration. A statistics row's stamp is the safepoint's
 * begin (SafepointSynchronize::begin() sets _ts_of_current_safepoint). */
#include "jvmlog_internal.h"

#include "stwtop/util.h"

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* ------------------------------------------------------------------------ */
/* prefixes                                                                 */

struct jl_stamp {
	int64_t wall_ms;   /* PrintGCDateStamps, EV_TIME_NONE */
	int64_t up_us;     /* PrintGCTimeStamps, -1 */
	size_t len;        /* bytes of prefix */
};

/* "12.345: " (any number of decimals, '.' or ','): µs, chars consumed */
static size_t uptime_stamp(const char *s, size_t n, int64_t *up_us)
{
	/* the decimals kept (at most 6) to µs */
	static const uint64_t to_us[7] = { 1000000, 100000, 10000, 1000, 100, 10, 1 };
	size_t i = 0;
	uint64_t sec = 0, frac = 0;
	unsigned digits = 0;
	size_t k = util_parse_u64_inl(s, n, &sec); /* on every line of a JDK 8 log */
	if (!k || k >= n || (s[k] != '.' && s[k] != ','))
		return 0;
	i = k + 1;
	if (n - i >= 8) {
		/* HotSpot's "%.3f": the decimals in one word when there are 1 to 6 */
		uint64_t w = util_load8_le(s + i);
		/* ... and most often exactly 3 and ": " (with the mark, 6 bytes) */
		if ((w & 0x000000ffff000000ULL) == (':' | (uint64_t)' ' << 8) << 24 && s[k] == '.' &&
		    util_digits8((w & 0xffffffULL) | 0x3030303030000000ULL) == 8) {
			if (sec > 1000000000ULL)
				return 0;
			frac = (w & 0xf) * 100 + ((w >> 8) & 0xf) * 10 + ((w >> 16) & 0xf);
			*up_us = (int64_t)(sec * 1000000 + frac * 1000);
			return k + 6;
		}
		unsigned f = util_digits8(w);
		if (f - 1u < 6u) {
			frac = util_value8(w, f);
			digits = f;
			i += f;
		}
	}
	if (digits == 0) {
		if (i >= n || !is_digit(s[i]))
			return 0;
		while (i < n && is_digit(s[i])) {
			if (digits < 6) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				digits++;
			}
			i++;
		}
	}
	if (i + 1 >= n || s[i] != ':' || s[i + 1] != ' ')
		return 0;
	frac *= to_us[digits];
	if (sec > 1000000000ULL)
		return 0;
	*up_us = (int64_t)(sec * 1000000 + frac);
	return i + 2;
}

/* ws: the blanks s starts with (jl_skip_ws(s, n, 0), which the caller has) */
static void parse_stamp(struct jvmlog *p, const char *s, size_t n, size_t ws, struct jl_stamp *st)
{
	size_t i = 0, k;
	int64_t ms;
	bool zone;
	st->wall_ms = EV_TIME_NONE;
	st->up_us = -1;
	if (n >= 28 && is_digit(s[0]) && s[4] == '-') {
		k = jl_iso8601(p, s, n, &ms, &zone);
		if (k && k + 1 < n && s[k] == ':' && s[k + 1] == ' ') {
			st->wall_ms = ms;
			i = k + 2;
		}
	}
	/* JDK 11 statistics rows are "%8.3f: ": leading spaces */
	if (i == 0) {
		size_t j = ws;
		if (j > 0 && j < n && is_digit(s[j]) && (k = uptime_stamp(s + j, n - j, &st->up_us)))
			i = j + k;
	} else if ((k = uptime_stamp(s + i, n - i, &st->up_us))) {
		i += k;
	}
	if (i == 0 && (k = uptime_stamp(s, n, &st->up_us)))
		i = k;
	/* "#%u: " of -XX:+PrintGCID */
	if (i && i < n && s[i] == '#') {
		uint64_t id;
		k = util_parse_u64(s + i + 1, n - i - 1, &id);
		if (k && i + 1 + k + 1 < n && s[i + 1 + k] == ':' && s[i + 2 + k] == ' ')
			i += k + 3;
	}
	st->len = i;
}

/* ------------------------------------------------------------------------ */
/* JDK 8 pauses                                                             */

/* What may follow "[GC" in a record's title. JDK 8 (and 7 with
 * -XX:+PrintGCCause) prints "[GC (cause) ...", "[GC pause", "[GC--" and
 * "[GC [1 CMS-initial-mark"; HotSpot 5-7 without the cause writes the title
 * glued to whatever comes next: the next stamp ("[GC2014-04-09T15:27:23.456+0200:
 * 0.304: [ParNew", "[GC1,320: [DefNew"), -XX:+PrintHeapAtGC ("[GC {Heap before
 * gc"), -XX:+PrintTenuringDistribution or -XX:PrintFLSStatistics output
 * ("[GCDesired survivor size", "[GCBefore GC:"), "[GC[YG occupancy", or the end
 * of the line ("10.392: [GC" then "Desired survivor size ..."). t[0..tn) is the
 * text after "[". G1's "[GC concurrent-..." phases and "[GC Worker ..." rows
 * are not pauses. */
static bool gc_title(const char *t, size_t tn)
{
	char c;
	if (!JL_STARTS(t, tn, "GC"))
		return false;
	if (tn == 2)
		return true;
	c = t[2];
	if (c == ' ')
		return !JL_STARTS(t + 2, tn - 2, " concurrent") && !JL_STARTS(t + 2, tn - 2, " Worker");
	return c == '(' || c == '-' || c == '[' || c == '{' || is_digit(c) || (c >= 'A' && c <= 'Z');
}

static void g8_emit(struct jvmlog *p, struct jl_out *o)
{
	struct jl_g8 *g = &p->g8;
	struct event e = g->ev;
	double d = e.u.pause.dur_ms;
	g->open = g->await_heap = g->heap_split = false;
	/* stamps were taken when the pause started */
	if (e.t_ms != EV_TIME_NONE)
		e.t_ms = jl_add(e.t_ms, jl_i64(d));
	if (e.up_us >= 0)
		e.up_us = jl_add(e.up_us, jl_i64(d * 1000.0));
	jl_push_copy(o, &e);
}

/* A record whose duration never came cannot be shown: its lines, read as
 * parsed, are handed back as lost (jvmlog_take_lost) with the reason, so the
 * loss is counted and told instead of silent. with_current: the line being
 * read belongs to it. */
void jl_g8_abandon(struct jvmlog *p, const char *why, bool with_current)
{
	if (!p->g8.open)
		return;
	p->g8.open = false;
	uint64_t k = p->nlines - p->g8.first_line + (with_current ? 1 : 0);
	if (k == 0)
		return;
	if (!p->lost_lines)
		p->lost_first = p->g8.first_line;
	p->lost_lines += k;
	p->lost_why = why;
}

/* ------------------------------------------------------------------------ */
/* JDK 8 Shenandoah concurrent phases over several lines                    */

static void sh8_close(struct jvmlog *p, double dur_ms, struct jl_out *o)
{
	struct event e = p->sh8.ev;
	p->sh8.open = false;
	e.u.cycle.dur_ms = dur_ms;
	if (dur_ms >= 0) {
		if (e.t_ms != EV_TIME_NONE)
			e.t_ms = jl_add(e.t_ms, jl_i64(dur_ms));
		if (e.up_us >= 0)
			e.up_us = jl_add(e.up_us, jl_i64(dur_ms * 1000.0));
	}
	jl_push_copy(o, &e);
}

/* "[Concurrent marking" without its "]": the phase goes on over the next lines */
static bool sh8_open(struct jvmlog *p, const char *m, size_t mn, struct jl_out *o)
{
	struct event *e = &p->sh8.ev;
	if (!JL_STARTS(m, mn, "[Concurrent ") || memchr(m, ']', mn))
		return false;
	ev_init(e, EV_GC_CYCLE);
	e->t_ms = o->t_ms;
	e->up_us = o->up_us;
	e->u.cycle.collector = GC_SHENANDOAH;
	util_strlcpy_n(e->u.cycle.title, sizeof e->u.cycle.title, m + 1, mn - 1);
	p->sh8.open = true;
	if (p->collector == GC_UNKNOWN)
		p->collector = GC_SHENANDOAH;
	return true;
}

/* A line while a phase is open: its details ("    Failed to allocate TLAB, 4096K",
 * "    Cancelling GC: Allocation Failure"), or its end ", 2714.003 ms]".
 * Returns false when the line is neither: the phase ended without its time
 * (then it still tells a cancel; a plain phase without a time tells nothing). */
static bool sh8_continue(struct jvmlog *p, const char *s, size_t n, size_t ws, struct jl_out *o)
{
	struct ev_cycle *cy = &p->sh8.ev.u.cycle;
	double ms;
	if (ws > 0 && ws < n) {
		if (JL_STARTS(s + ws, n - ws, "Cancelling GC: ")) {
			cy->flags |= CYCLE_F_CANCELLED;
			util_strlcpy_n(cy->cause, sizeof cy->cause, s + ws + 15, n - ws - 15);
		}
		return true;
	}
	/* ", 2714.003 ms]" (GCTraceTime's end), or " A->B(C), N ms]" with the heap */
	if (n > 5 && (s[0] == ',' || s[0] == ' ') && JL_ENDS(s, n, " ms]")) {
		size_t k = n - 4;
		while (k > 0 && (is_digit(s[k - 1]) || s[k - 1] == '.'))
			k--;
		if (k < n - 4 && util_parse_double_inl(s + k, n - 4 - k, true, &ms)) {
			int64_t b, a, c;
			size_t h = jl_skip_ws(s, n, 0);
			if (h < n && is_digit(s[h]) && jl_parse_heap(s + h, n - h, &b, &a, &c)) {
				cy->before_kb = b;
				cy->after_kb = a;
				cy->committed_kb = c;
			}
			sh8_close(p, jl_ms(ms), o);
			return true;
		}
	}
	p->sh8.open = false;
	if (cy->flags & CYCLE_F_CANCELLED)
		sh8_close(p, -1, o);
	return false;
}

void jl_g8_flush(struct jvmlog *p, struct jl_out *o)
{
	if (p->sh8.open) {
		p->sh8.open = false;
		if (p->sh8.ev.u.cycle.flags & CYCLE_F_CANCELLED)
			sh8_close(p, -1, o);
	}
	if (p->g8.await_heap)
		g8_emit(p, o);
	jl_g8_abandon(p, "a JDK 8 GC record was still open at the end of the log (no \", <n> secs]\" came)", true);
}

/* The duration before s[i] == ']': "..., 0.0124023 secs]" -> ms; -1 if absent. */
static double secs_before(const char *s, size_t i)
{
	size_t j, k;
	double v;
	if (i < 6 || memcmp(s + i - 5, " secs", 5) != 0)
		return -1;
	j = i - 5;
	k = j;
	while (k > 0 && (is_digit(s[k - 1]) || s[k - 1] == '.' || s[k - 1] == ','))
		k--;
	if (k == j || !util_parse_double_inl(s + k, j - k, true, &v))
		return -1;
	return jl_ms(v * 1000.0);
}

/* Inner generation names tell the collector; "[CMS:" / "[CMS<stamp>" is a
 * foreground (stop-the-world) old collection. A CMS JVM of JDK 5/6 may have a
 * DefNew young generation (-XX:+UseConcMarkSweepGC -XX:-UseParNewGC, the
 * default on one CPU): its scavenges read "[DefNew" like Serial's, and only
 * the CMS phases ("[1 CMS-initial-mark", "[YG occupancy", "[1 CMS-remark",
 * "[CMS") tell the JVM apart; once seen, the collector inferred from
 * "[DefNew" is corrected (JI_COLLECTOR) and later DefNew pauses are CMS's. */
static void g8_inner(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	struct ev_pause *ps = &p->g8.ev.u.pause;
	int c = GC_UNKNOWN;
	if (JL_STARTS(s, n, "PSYoungGen") || JL_STARTS(s, n, "ParOldGen") || JL_STARTS(s, n, "PSOldGen"))
		c = GC_PARALLEL;
	else if (JL_STARTS(s, n, "ParNew"))
		c = GC_CMS;
	else if (JL_STARTS(s, n, "DefNew") || JL_STARTS(s, n, "Tenured"))
		c = p->collector == GC_CMS ? GC_CMS : GC_SERIAL;
	else if (JL_STARTS(s, n, "CMS") && n > 3 && (s[3] == ':' || is_digit(s[3]))) {
		c = GC_CMS;
		ps->type = PAUSE_FULL;
	} else if (JL_STARTS(s, n, "1 CMS-initial-mark")) {
		c = GC_CMS;
		ps->type = PAUSE_INIT_MARK;
	} else if (JL_STARTS(s, n, "YG occupancy") || JL_STARTS(s, n, "1 CMS-remark")) {
		c = GC_CMS;
		ps->type = PAUSE_REMARK;
	}
	if (c != GC_UNKNOWN) {
		if (ps->collector == GC_UNKNOWN || ps->collector == GC_SERIAL)
			ps->collector = (uint8_t)c;
		if (p->collector == GC_UNKNOWN)
			p->collector = c;
		else if (p->collector == GC_SERIAL && c == GC_CMS)
			jl_set_collector(p, c, o, NULL, 0);
	}
}

static void g8_flag_token(struct ev_pause *ps, const char *s, size_t n)
{
	if (JL_STARTS(s, n, "(to-space exhausted)") || JL_STARTS(s, n, "(to-space overflow)"))
		ps->flags |= PAUSE_F_EVAC_FAIL;
	else if (JL_STARTS(s, n, "(initial-mark)"))
		ps->flags |= PAUSE_F_CONC_START;
	else if (JL_STARTS(s, n, "(mixed)"))
		ps->type = PAUSE_MIXED;
}

/* Scan a pause's text, tracking bracket depth across lines. Returns true when
 * the outer bracket closed (duration known). *times: "[Times:" followed. */
static bool g8_scan(struct jvmlog *p, const char *s, size_t n, bool *times, struct jl_out *o)
{
	struct jl_g8 *g = &p->g8;
	struct ev_pause *ps = &g->ev.u.pause;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '[') {
			g->depth++;
			if (g->depth == 2)
				g8_inner(p, s + i + 1, n - i - 1, o);
		} else if (c == ']') {
			if (g->depth == 1) {
				double d = secs_before(s, i);
				g->depth = 0;
				if (d < 0)
					return false; /* closed without a duration: not a pause line */
				ps->dur_ms = d;
				*times = JL_FIND(s + i, n - i, "[Times:") != NULL;
				return true;
			}
			if (g->depth > 0)
				g->depth--;
		} else if (g->depth == 1) {
			if (c == '(') {
				g8_flag_token(ps, s + i, n - i);
			} else if (is_digit(c) && !(ps->flags & PAUSE_F_HEAP) &&
				   (i == 0 || s[i - 1] == ' ' || s[i - 1] == ']')) {
				int64_t b, a, cm;
				size_t k = jl_parse_heap(s + i, n - i, &b, &a, &cm);
				if (k) {
					ps->before_kb = b;
					ps->after_kb = a;
					ps->committed_kb = cm;
					ps->flags |= PAUSE_F_HEAP;
					i += k - 1;
				}
			}
		}
	}
	return false;
}

static void g8_closed(struct jvmlog *p, bool times, struct jl_out *o)
{
	struct jl_g8 *g = &p->g8;
	g->open = false;
	if ((g->ev.u.pause.flags & PAUSE_F_HEAP) || times) {
		g8_emit(p, o);
	} else {
		/* G1 with PrintGCDetails: the heap comes on the "[Eden: ... Heap: ...]"
		 * line after the phase tree */
		g->await_heap = true;
	}
}

/* "[GC pause (G1 Evacuation Pause) (young), ...", "[Full GC (Ergonomics) [PSYoungGen: ...",
 * "[GC (Allocation Failure) [ParNew: ...", "[GC remark ...", "[GC cleanup ...".
 * Returns 1 if it is a pause line (maybe still open), 0 if not, -1 if the
 * record closed on this line without a duration. */
static int g8_open(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	struct jl_g8 *g = &p->g8;
	struct ev_pause *ps;
	const char *t = s + 1;
	size_t tn = n - 1, i;
	bool g1 = false, times = false;
	int type;
	char title[48];
	size_t title_n;

	if (JL_STARTS(t, tn, "GC pause")) {
		g1 = true;
		type = PAUSE_YOUNG;
		i = 8;
	} else if (JL_STARTS(t, tn, "GC remark")) {
		g1 = true;
		type = PAUSE_REMARK;
		i = 9;
	} else if (JL_STARTS(t, tn, "GC cleanup")) {
		g1 = true;
		type = PAUSE_CLEANUP;
		i = 10;
	} else if (JL_STARTS(t, tn, "Full GC")) {
		type = PAUSE_FULL;
		i = 7;
	} else if (JL_STARTS(t, tn, "Inc GC")) {
		/* JDK 1.4 -Xincgc: a young collection that also collected an increment
		 * of the old generation (the train), stop-the-world like any scavenge
		 * (GCViewer reads it as a young pause: AbstractGCEvent.Type.INC_GC) */
		type = PAUSE_YOUNG;
		i = 6;
	} else if (gc_title(t, tn)) {
		type = PAUSE_YOUNG;
		i = 2;
		if (JL_STARTS(t + 2, tn - 2, "--"))
			i = 4; /* promotion failed */
	} else {
		return 0;
	}
	title_n = i < sizeof title ? i : sizeof title - 1;
	memcpy(title, t, title_n);

	memset(g, 0, sizeof *g);
	ev_init(&g->ev, EV_GC_PAUSE);
	g->ev.t_ms = o->t_ms;
	g->ev.up_us = o->up_us;
	ps = &g->ev.u.pause;
	ps->type = (uint8_t)type;
	ps->collector = g1 ? GC_G1 : GC_UNKNOWN;
	/* "(cause)" and G1's "(young)", "(mixed)", "(initial-mark)", "(to-space exhausted)" */
	while (i < tn) {
		size_t k;
		if (t[i] == ' ')
			i++;
		k = jl_paren_len(t + i, tn - i);
		if (!k)
			break;
		if (JL_EQ(t + i, k, "(young)") || JL_EQ(t + i, k, "(mixed)") ||
		    JL_EQ(t + i, k, "(initial-mark)")) {
			if (title_n + k + 1 < sizeof title) {
				title[title_n++] = ' ';
				memcpy(title + title_n, t + i, k);
				title_n += k;
			}
		} else if (JL_EQ(t + i, k, "(to-space exhausted)") || JL_EQ(t + i, k, "(to-space overflow)")) {
			/* flag only */
		} else if (!ps->cause[0]) {
			util_strlcpy_n(ps->cause, sizeof ps->cause, t + i + 1, k - 2);
			if (JL_EQ(t + i, k, "(CMS Initial Mark)")) {
				ps->type = PAUSE_INIT_MARK;
				ps->collector = GC_CMS;
			} else if (JL_EQ(t + i, k, "(CMS Final Remark)")) {
				ps->type = PAUSE_REMARK;
				ps->collector = GC_CMS;
			}
		}
		i += k;
	}
	title[title_n] = '\0';
	memcpy(ps->title, title, title_n + 1);
	ps->flags |= jl_cause_flags(ps->cause, strlen(ps->cause));

	g->open = true;
	g->depth = 0;
	g->first_line = p->nlines;
	/* "[GC (CMS Final Remark) [YG occupancy: ...]{Heap before GC invocations=22 (full 13):"
	 * (-XX:+CMSScavengeBeforeRemark -XX:+PrintHeapAtGC): the scavenge that follows
	 * on its own lines runs inside this pause */
	g->heap_before = JL_FIND(s, n, "{Heap before GC invocations=") != NULL;
	if (g8_scan(p, s, n, &times, o)) {
		g8_closed(p, times, o);
	} else if (g->depth == 0) {
		g->open = false; /* closed without duration */
		return -1;
	}
	if (g1 && p->collector == GC_UNKNOWN)
		p->collector = GC_G1;
	if (ps->collector == GC_UNKNOWN)
		ps->collector = (uint8_t)p->collector;
	return 1;
}

/* A line that opened a GC record with g8_open() (r) and yielded nothing. */
#define G8_NO_SECS "a GC record (\"[GC\" or \"[Full GC\") closed without its \", <n> secs]\": no pause counted"

static int g8_opened(struct jvmlog *p, int r, struct jl_out *o)
{
	if (r < 0 && o->n == 0) {
		p->why = G8_NO_SECS;
		return JVMLOG_UNKNOWN;
	}
	return o->n;
}

/* "[GC ...", "[Full GC ...", JDK 1.4's "[Inc GC ..." but not G1's "[GC concurrent-..." phases */
static bool g8_pause_start(const char *m, size_t n)
{
	if (n < 3 || m[0] != '[')
		return false;
	if (JL_STARTS(m + 1, n - 1, "Full GC") || JL_STARTS(m + 1, n - 1, "Inc GC"))
		return true;
	return gc_title(m + 1, n - 1);
}

static bool heap_exit_line(const char *s, size_t n);

/* Two threads' output on one line: the VM thread's stop line glued after a
 * concurrent phase ("...abortable-preclean: 0.038/0.118 secs]Total time for
 * which ..."), or after stamps that were themselves interleaved
 * ("<date>: <date>: Total time ...", "0.408: 0.408Total time ..."). The stop
 * gets the line's stamps. from: where the search starts. */
static void stop_inside(struct jvmlog *p, const char *s, size_t n, size_t from, struct jl_out *o)
{
	const char *t;
	if (from >= n)
		return;
	t = JL_FIND(s + from, n - from, JL_SP_STOPPED);
	if (!t)
		return;
	jl_infer_release(p, 8);
	jl_sp_stopped(p, t, (size_t)(s + n - t), o, NULL);
}

/* -XX:+PrintClassHistogram output (memory/heapInspection.cpp,
 * KlassInfoHistogram::print_histo_on()): " num     #instances         #bytes  class name",
 * a line of '-', rows "%5ld: %13ld %13lu  %s" (hence "32842:" and "   1:") and
 * "Total %13ld %13lu". A row's class name is a JVM descriptor: array classes
 * are "[C", "[Ljava.lang.Object;", "[[I", whose '[' close nothing. */
static bool histo_row(const char *s, size_t n)
{
	size_t i = jl_skip_ws(s, n, 0), k;
	uint64_t v;
	if (!(k = util_parse_u64(s + i, n - i, &v)) || i + k >= n || s[i + k] != ':')
		return false;
	i += k + 1;
	for (int col = 0; col < 2; col++) {
		size_t j = jl_skip_ws(s, n, i);
		if (j == i || !(k = util_parse_u64(s + j, n - j, &v)))
			return false;
		i = j + k;
	}
	return i + 2 < n && s[i] == ' ' && s[i + 1] == ' ' && s[i + 2] != ' ';
}

static bool histo_line(const char *s, size_t n)
{
	size_t i = jl_skip_ws(s, n, 0);
	if (JL_STARTS(s + i, n - i, "num ") && JL_ENDS(s, n, "#bytes  class name"))
		return true;
	if (n >= 10 && s[0] == '-' && s[n - 1] == '-' && !memchr(s, ' ', n))
		return true;
	if (JL_STARTS(s, n, "Total ")) {
		uint64_t a, b;
		size_t j = jl_skip_ws(s, n, 6), k = util_parse_u64(s + j, n - j, &a);
		if (k && (j = jl_skip_ws(s, n, j + k)) < n && util_parse_u64(s + j, n - j, &b) == n - j)
			return true;
	}
	return histo_row(s, n);
}

/* A line while a pause bracket is open: CMS concurrent output spliced in,
 * G1Ergonomics lines, " (to-space exhausted), 0.3857580 secs]", class
 * histogram rows (their brackets are class names, not read). */
static void g8_continue(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	bool times = false;
	if (histo_row(s, n))
		return;
	/* -XX:+PrintHeapAtGC inside the record: "[0x..., 0x..., 0x...)" close nothing */
	if (heap_exit_line(s, n) || JL_STARTS(s, n, "Heap after GC invocations="))
		return;
	if (JL_EQ(s, n, "}")) {
		p->g8.heap_before = false;
		return;
	}
	if (JL_FIND(s, n, "{Heap before GC invocations="))
		p->g8.heap_before = true;
	if (g8_scan(p, s, n, &times, o))
		g8_closed(p, times, o);
	else if (p->g8.depth == 0)
		jl_g8_abandon(p, "a JDK 8 GC record closed its brackets without a duration", true);
	stop_inside(p, s, n, 0, o);
}

/* "   [Eden: 1024.0K(1024.0K)->0.0B(1024.0K) Survivors: ... Heap: 1024.0K(2048.0K)->565.8K(2048.0K)]" */
static bool g8_heap_line(struct jvmlog *p, const char *s, size_t n)
{
	const char *h = JL_FIND(s, n, "Heap: ");
	size_t i, k;
	double b, bc, a, ac;
	struct ev_pause *ps = &p->g8.ev.u.pause;
	if (!h)
		return false;
	i = (size_t)(h - s) + 6;
	if (!(k = jl_parse_size_kb(s + i, n - i, &b)))
		return false;
	i += k;
	if (i >= n || s[i] != '(' || !(k = jl_parse_size_kb(s + i + 1, n - i - 1, &bc)))
		return false;
	i += 1 + k;
	if (!JL_STARTS(s + i, n - i, ")->"))
		return false;
	i += 3;
	if (!(k = jl_parse_size_kb(s + i, n - i, &a)))
		return false;
	i += k;
	if (i >= n || s[i] != '(' || !(k = jl_parse_size_kb(s + i + 1, n - i - 1, &ac)))
		return false;
	ps->before_kb = jl_kb(b);
	ps->after_kb = jl_kb(a);
	ps->committed_kb = jl_kb(ac);
	ps->flags |= PAUSE_F_HEAP;
	return true;
}

/* "   [ 29M->2589K(59M)]": the heap after the phase tree of a G1 pause in JDK
 * 6 and 7 before 7u2 (g1CollectorPolicy.cpp of those releases printed only
 * " A->B(C)" inside brackets where JDK 8 prints "[Eden: ... Heap: ...]"). */
static bool g8_heap_line_old(struct jvmlog *p, const char *s, size_t n, size_t ws)
{
	size_t i = ws, k;
	int64_t b, a, c;
	struct ev_pause *ps = &p->g8.ev.u.pause;
	if (!JL_STARTS(s + i, n - i, "[ "))
		return false;
	i += 2;
	if (!(k = jl_parse_heap(s + i, n - i, &b, &a, &c)) || !JL_EQ(s + i + k, n - i - k, "]"))
		return false;
	ps->before_kb = b;
	ps->after_kb = a;
	ps->committed_kb = c;
	ps->flags |= PAUSE_F_HEAP;
	return true;
}

/* ------------------------------------------------------------------------ */
/* other JDK 8 lines                                                        */

/* "OpenJDK 64-Bit Server VM (25.282-b08) for linux-amd64 JRE (1.8.0_282-b08), built on ..." */
static int jdk8_header(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	const char *j = JL_FIND(s, n, " JRE (");
	const char *e;
	struct event *ev;
	size_t off;
	if (!j)
		return 0;
	off = (size_t)(j - s) + 6;
	e = memchr(s + off, ')', n - off);
	if (!e)
		return 0;
	p->release = jl_feature_release(s + off, (size_t)(e - (s + off)));
	p->release_explicit = p->release > 0;
	ev = jl_push(o, EV_JVM_INFO);
	if (ev) {
		ev->u.info.key = JI_VERSION;
		ev->u.info.a = p->release;
		util_strlcpy_n(ev->u.info.text, sizeof ev->u.info.text, s + off, (size_t)(e - (s + off)));
	}
	return 1;
}

/* "CommandLine flags: -XX:InitialHeapSize=... -XX:+UseG1GC ...": the interesting
 * flags as facts. A line yields at most JVMLOG_MAX_EVENTS events, so: the
 * collector (JI_COLLECTOR), the heap sizes (JI_HEAP_MAX/JI_HEAP_INITIAL, text =
 * the flag as printed), G1PeriodicGCInterval (JI_PERIODIC_GC; JDK 12+ only, so
 * never with the three others in a JDK 8 log), then JI_FLAG for the collector
 * flag itself and for a few flags a verdict may quote, while room is left. */
struct jl_flag {
	const char *t;
	size_t n;
};

static struct event *flag_fact(struct jl_out *o, int key, struct jl_flag f, int64_t a)
{
	struct event *e;
	if (!f.t || !(e = jl_push(o, EV_JVM_INFO)))
		return NULL;
	e->u.info.key = key;
	e->u.info.a = a;
	util_strlcpy_n(e->u.info.text, sizeof e->u.info.text, f.t, f.n);
	return e;
}

static int jdk8_flags(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	static const struct { const char *flag; int c; } gcs[] = {
		{ "-XX:+UseG1GC", GC_G1 }, { "-XX:+UseParallelGC", GC_PARALLEL },
		{ "-XX:+UseParallelOldGC", GC_PARALLEL }, { "-XX:+UseConcMarkSweepGC", GC_CMS },
		{ "-XX:+UseSerialGC", GC_SERIAL }, { "-XX:+UseShenandoahGC", GC_SHENANDOAH },
		{ "-XX:+UseZGC", GC_ZGC }, { "-XX:+UseEpsilonGC", GC_EPSILON },
	};
	static const char *const extra[] = {
		"-XX:+SafepointTimeout", "-XX:SafepointTimeoutDelay=", "-XX:MaxGCPauseMillis=",
		"-XX:+AlwaysPreTouch", "-XX:+DisableExplicitGC", "-XX:+ExplicitGCInvokesConcurrent",
	};
	int coll = GC_UNKNOWN;
	uint64_t maxh = 0, inith = 0, per = 0;
	struct jl_flag fc = { 0 }, fmax = { 0 }, finit = { 0 }, fper = { 0 }, fx[4];
	size_t nx = 0, i = 19;
	struct event *e;

	while (i < n) {
		size_t a = jl_skip_ws(s, n, i), b = a;
		while (b < n && s[b] != ' ')
			b++;
		if (b > a) {
			struct jl_flag f = { s + a, b - a };
			for (size_t g = 0; g < sizeof gcs / sizeof gcs[0]; g++)
				if (strlen(gcs[g].flag) == f.n && memcmp(gcs[g].flag, f.t, f.n) == 0) {
					coll = gcs[g].c;
					fc = f;
				}
			if (JL_STARTS(f.t, f.n, "-XX:MaxHeapSize=") && util_parse_u64(f.t + 16, f.n - 16, &maxh))
				fmax = f;
			else if (JL_STARTS(f.t, f.n, "-XX:InitialHeapSize=") &&
				 util_parse_u64(f.t + 20, f.n - 20, &inith))
				finit = f;
			else if (JL_STARTS(f.t, f.n, "-XX:G1PeriodicGCInterval=") &&
				 util_parse_u64(f.t + 25, f.n - 25, &per))
				fper = f;
			for (size_t x = 0; x < sizeof extra / sizeof extra[0] && nx < 4; x++)
				if (f.n >= strlen(extra[x]) && memcmp(f.t, extra[x], strlen(extra[x])) == 0)
					fx[nx++] = f;
		}
		i = b + 1;
	}
	if (coll != GC_UNKNOWN) {
		const char *name = jvm_collector_name(coll);
		p->collector = coll;
		flag_fact(o, JI_COLLECTOR, (struct jl_flag){ name, strlen(name) }, coll);
	}
	flag_fact(o, JI_HEAP_MAX, fmax, (int64_t)(maxh & INT64_MAX));
	flag_fact(o, JI_HEAP_INITIAL, finit, (int64_t)(inith & INT64_MAX));
	flag_fact(o, JI_PERIODIC_GC, fper, (int64_t)(per & INT64_MAX));
	if ((e = flag_fact(o, JI_FLAG, fc, coll)))
		e->u.info.b = coll;
	for (size_t x = 0; x < nx; x++)
		flag_fact(o, JI_FLAG, fx[x], 0);
	return 1;
}

/* "<13-digit epoch ms> uptime_ms=<n> ...": an application stating the JVM's
 * clock pair (the sample programs print it first). */
static int anchor_pair(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	uint64_t epoch, up;
	size_t k;
	int64_t a;
	if (n < 25 || util_parse_u64(s, 14, &epoch) != 13 || !JL_STARTS(s + 13, n - 13, " uptime_ms="))
		return 0;
	k = util_parse_u64(s + 24, n - 24, &up);
	if (!k || (24 + k < n && s[24 + k] != ' ') || up > epoch)
		return 0;
	a = (int64_t)(epoch - up);
	/* a restart shows as a different pair; restart detection sees the uptime */
	if (p->anchor_told_ms != EV_TIME_NONE && (a - p->anchor_told_ms > 1000 || p->anchor_told_ms - a > 1000))
		p->anchor_told_ms = EV_TIME_NONE;
	jl_time(p, (int64_t)epoch, (int64_t)up * 1000, o); /* emits EV_ANCHOR when new */
	return 1;
}

/* The heap print-out at JVM exit (-XX:+PrintGCDetails): "Heap" and indented lines. */
static bool heap_exit_line(const char *s, size_t n)
{
	static const char *const heads[] = {
		"PSYoungGen", "ParOldGen", "PSOldGen", "PSPermGen", "eden space", "from space",
		"to   space", "object space", "Metaspace", "class space", "garbage-first heap",
		"region size", "def new generation", "tenured generation", "the space",
		"par new generation", "concurrent mark-sweep generation", "concurrent-mark-sweep perm gen",
		"compacting perm gen", "No shared spaces",
	};
	size_t i = jl_skip_ws(s, n, 0);
	if (i == 0)
		return false;
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
		size_t l = strlen(heads[h]);
		if (n - i >= l && memcmp(s + i, heads[h], l) == 0)
			return true;
	}
	return false;
}

/* Interleaved writes of several threads put a piece of one line before a
 * complete GC record on the same line (garbagecat dataset89: "831626.089:
 * [ParNew831628.158: [ParNew2016-09-30T14:11:25.873+0900: 833918.729: [GC
 * (Allocation Failure) ..., 0.0561698 secs]"). s[from] is a '[' that opens no
 * record. Returns where the complete record starts (its stamp, or its "[GC" /
 * "[Full GC" when it has none), 0 when the line holds none; *piece: the text
 * before it leaves a bracket open (a record never finished), rather than
 * closing everything it opened (a whole concurrent phase glued before). */
static size_t glued_record(struct jvmlog *p, const char *s, size_t n, size_t from, bool *piece)
{
	/* "[GC" or "[Full GC": both hold "GC" */
	if (n - from < 6 || !JL_FIND(s + from + 1, n - from - 1, "GC"))
		return 0;
	int depth = 0;
	size_t closed_at = from; /* the text before here closed all it opened */
	for (size_t q = from; q < n; q++) {
		if (s[q] == ']') {
			if (depth > 0 && --depth == 0)
				closed_at = q + 1;
			continue;
		}
		if (s[q] != '[')
			continue;
		if (q > from && g8_pause_start(s + q, n - q)) {
			/* its stamp: the earliest start whose stamp ends right at the "[" */
			size_t j = q, lo = q - from > 64 ? q - 64 : from + 1;
			for (size_t c = lo; c < q; c++) {
				struct jl_stamp st;
				if (!is_digit(s[c]) || is_digit(s[c - 1]))
					continue;
				parse_stamp(p, s + c, n - c, 0, &st);
				if (st.len == q - c) {
					j = c;
					break;
				}
			}
			*piece = depth > 0 || closed_at < j;
			return j;
		}
		depth++;
	}
	return 0;
}

static int stamped_line(struct jvmlog *p, const struct jl_stamp *st, const char *s, size_t n,
			struct jl_out *o);
static int bare_line(struct jvmlog *p, const char *s, size_t n, struct jl_out *o);

#define G8_PIECE "a piece of another line (writes of two threads interleaved) came before this line's " \
		 "complete GC record: the piece is counted unparsed, the record is read"

/* The complete record at s[j..n) of a line with something glued before it. */
static int glued_read(struct jvmlog *p, const char *s, size_t n, size_t j, bool piece, struct jl_out *o)
{
	struct jl_stamp st;
	if (piece) {
		/* the line's record is read, its piece lost: counted as the line lost */
		if (!p->lost_lines)
			p->lost_first = p->nlines;
		p->lost_lines++;
		p->lost_why = G8_PIECE;
	}
	parse_stamp(p, s + j, n - j, 0, &st);
	return st.len > 0 ? stamped_line(p, &st, s + j, n - j, o) : bare_line(p, s + j, n - j, o);
}

/* A line after a JDK 8 stamp prefix (st->len > 0): always the JVM's own line. */
static int stamped_line(struct jvmlog *p, const struct jl_stamp *st, const char *s, size_t n,
			struct jl_out *o)
{
	const char *m = s + st->len;
	size_t mn = n - st->len;
	struct event ev;

	if (mn > 1 && m[0] == '[') {
		if (JL_STARTS(m + 1, mn - 1, "Pause ")) {
			/* JDK 8 Shenandoah: "[Pause Init Mark, 0.677 ms]" at the end */
			jl_time(p, st->wall_ms, st->up_us, o);
			jl_pause_summary(p, m + 1, mn - 1, -1, false, o);
			return o->n;
		}
		int r;
		bool piece = false;
		size_t j;
		if (!g8_pause_start(m, mn) && (j = glued_record(p, s, n, st->len, &piece)))
			return glued_read(p, s, n, j, piece, o);
		if (m[1] == 'C' && JL_STARTS(m, mn, "[Concurrent ")) {
			jl_time(p, st->wall_ms, st->up_us, o);
			sh8_open(p, m, mn, o);
			return o->n;
		}
		jl_time(p, st->wall_ms, st->up_us, o);
		jl_infer_release(p, 8);
		r = g8_open(p, m, mn, o);
		stop_inside(p, m, mn, 1, o);
		return g8_opened(p, r, o);
	}
	if (JL_STARTS(m, mn, JL_SP_STOPPED)) {
		jl_time(p, st->wall_ms, st->up_us, o);
		jl_infer_release(p, 8);
		jl_sp_stopped(p, m, mn, o, NULL);
		return o->n;
	}
	if (JL_STARTS(m, mn, "Application time: ")) {
		jl_time(p, st->wall_ms, st->up_us, o);
		return o->n;
	}
	if (st->wall_ms == EV_TIME_NONE && st->up_us >= 0 && jl_sp_stats_row(m, mn, true, &ev)) {
		/* -XX:+PrintSafepointStatistics row: stamped at the safepoint's begin,
		 * printed in batches later: no restart check, no anchor learning;
		 * its end is placed by the caller's clock */
		ev.up_us = jl_add(st->up_us, jl_i64(ev.u.sp.total_ms * 1000.0));
		ev.t_ms = EV_TIME_NONE;
		jl_push_copy(o, &ev);
		p->sp8_row = true;
		p->sp8_row_ms = ev.u.sp.total_ms;
		return o->n;
	}
	/* other stamped JVM output (CMS concurrent phases without brackets ...) */
	jl_time(p, st->wall_ms, st->up_us, o);
	stop_inside(p, m, mn, 0, o);
	return o->n;
}

/* A stamped "Total time for which application threads were stopped" line,
 * half the lines of a JDK 8 log with -XX:+PrintGCApplicationStoppedTime:
 * what stamped_line() does with it, with jl_plain_line()'s search for "[Class
 * Histogram" only over the bytes jl_sp_stopped() did not read (on HotSpot's
 * line: none). That search came before jl_time(), whose restart() clears the
 * flag it sets: after a restart it is not set. */
static int stopped_line(struct jvmlog *p, const struct jl_stamp *st, const char *s, size_t n, struct jl_out *o)
{
	const char *m = s + st->len;
	size_t mn = n - st->len, clean;
	uint64_t restarts = p->restarts;
	jl_time(p, st->wall_ms, st->up_us, o);
	jl_infer_release(p, 8);
	jl_sp_stopped(p, m, mn, o, &clean);
	if (p->restarts == restarts && JL_FIND(m + clean, mn - clean, "[Class Histogram"))
		p->histo = true;
	return o->n;
}

/* A line without any stamp prefix or leading white space. */
static int bare_line(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	if (s[0] == '[') {
		if (JL_STARTS(s + 1, n - 1, "Pause ")) {
			if (JL_ENDS(s, n, ", start]"))
				return o->n;
			if (jl_pause_summary(p, s + 1, n - 1, -1, false, o))
				return o->n;
		}
		int r = g8_open(p, s, n, o);
		if (r) {
			stop_inside(p, s, n, 1, o);
			return g8_opened(p, r, o);
		}
		bool piece = false;
		size_t j = glued_record(p, s, n, 0, &piece);
		if (j)
			return glued_read(p, s, n, j, piece, o);
		if (JL_STARTS(s + 1, n - 1, "CMS-concurrent-") || JL_STARTS(s + 1, n - 1, "GC concurrent-") ||
		    JL_STARTS(s + 1, n - 1, "Times: ") || JL_STARTS(s + 1, n - 1, "Concurrent ")) {
			stop_inside(p, s, n, 1, o);
			return o->n;
		}
		return o->n ? o->n : JVMLOG_UNKNOWN;
	}
	if (JL_STARTS(s, n, JL_SP_STOPPED) && jl_sp_stopped(p, s, n, o, NULL))
		return o->n;
	if (JL_STARTS(s, n, "Application time: "))
		return o->n;
	if (JL_STARTS(s, n, "CommandLine flags: ")) {
		jl_infer_release(p, 8);
		jdk8_flags(p, s, n, o);
		return o->n;
	}
	if ((JL_STARTS(s, n, "OpenJDK ") || JL_STARTS(s, n, "Java HotSpot(TM) ")) &&
	    jdk8_header(p, s, n, o))
		return o->n;
	if (JL_STARTS(s, n, "Memory: ") && JL_FIND(s, n, " page, physical "))
		return o->n;
	/* -XX:+PrintHeapAtGC around every pause */
	if (JL_STARTS(s, n, "{Heap before GC invocations=") || JL_STARTS(s, n, "Heap after GC invocations=") ||
	    JL_EQ(s, n, "}"))
		return o->n;
	if (JL_EQ(s, n, "Polling page always armed")) {
		p->sp8_exit_stats = true;
		return o->n;
	}
	if (JL_EQ(s, n, "Heap") ||
	    JL_EQ(s, n, "No shared spaces configured.") ||
	    JL_STARTS(s, n, "Maximum sync time ") || JL_STARTS(s, n, "Maximum vm operation time ") ||
	    JL_STARTS(s, n, "Maximum cleanup time "))
		return o->n;
	if (is_digit(s[0]) && anchor_pair(p, s, n, o))
		return o->n;
	/* JDK 9+ with decorations "none": the bare unified message */
	if (jl_unified_message(p, JL_TAG_NONE, s, n, o))
		return o->n;
	return o->n ? o->n : JVMLOG_UNKNOWN;
}

/* The second line of a JDK 6/7 G1 phase tree row: "       Avg:   0.0, Min:   0.0,
 * Max:   0.1]" under "[Update RS (ms):  0.1  0.1  0.0  0.0", and "Sum: 3, Avg: 0,
 * Min: 0, Max: 2]" under "[Processed Buffers : 2 1 0 0" (s: after the indent).
 * Inline: it is asked of every line of a G1 phase tree. */
static inline bool g1_stat_row(const char *s, size_t n)
{
	return (JL_STARTS(s, n, "Avg: ") || JL_STARTS(s, n, "Sum: ")) && JL_ENDS(s, n, "]");
}

/* A line of the phase tree of a G1 pause whose record closed, while its heap
 * is awaited: "   [Parallel Time: ...", "   [Eden: ... Heap: ...]", the JDK 6/7
 * "   [ 29M->2589K(59M)]", " [Times: ...]". A JDK 6 G1 writes its concurrent
 * marking's "[GC concurrent-mark-start]" from another thread into the tree
 * (GCViewer's SampleSun1_6_0G1*: on a line of its own, or glued to a row
 * whose values then come on the next line, or splitting the heap line into
 * "   [[GC concurrent-mark-start]" and " 7399M->4700M(10240M)]"), and stamps
 * and ':' land in it: those lines are the tree's too. Returns true when the
 * line was the tree's (the pause is emitted once its heap or "[Times:" came). */
static bool g1_tree_line(struct jvmlog *p, const char *s, size_t n, size_t ws, struct jl_out *o)
{
	struct jl_g8 *g = &p->g8;
	size_t i = ws;
	if (g->heap_split) {
		/* " 7399M->4700M(10240M)]": the rest of the heap line */
		struct ev_pause *ps = &g->ev.u.pause;
		int64_t b, a, c;
		size_t k = i < n ? jl_parse_heap(s + i, n - i, &b, &a, &c) : 0;
		g->heap_split = false;
		if (k && JL_EQ(s + i + k, n - i - k, "]")) {
			ps->before_kb = b;
			ps->after_kb = a;
			ps->committed_kb = c;
			ps->flags |= PAUSE_F_HEAP;
			g8_emit(p, o);
			return true;
		}
	}
	if (i > 0 && g1_stat_row(s + i, n - i))
		return true;
	if (i < n && s[i] == ':') /* a stray ':' of another line's stamp: "   : [Other:  12.0 ms]" */
		i = jl_skip_ws(s, n, i + 1);
	if (i < n && s[i] == '[' &&
	    (i > 0 || JL_STARTS(s, n, "[Parallel Time") || JL_STARTS(s, n, "[GC Worker"))) {
		/* the phase tree of the pause: "   [Parallel Time: ...", "   [Eden: ..." */
		if (i == ws && i + 1 < n && s[i + 1] == '[' && JL_STARTS(s + i + 1, n - i - 1, "[GC concurrent-") &&
		    JL_ENDS(s, n, "]"))
			g->heap_split = true; /* "   [[GC concurrent-mark-start]": the heap line's "[" before it */
		else if (g8_heap_line(p, s, n) || g8_heap_line_old(p, s, n, i) || JL_STARTS(s + i, n - i, "[Times:"))
			g8_emit(p, o);
		return true;
	}
	/* "[GC concurrent-mark-start]" alone, after a ':', or glued to a row's
	 * name whose values come on the next line */
	if (JL_FIND(s, n, "[GC concurrent-"))
		return true;
	/* a row's values cut from its name by a line written into it: "  3007.0  3007.3]" */
	if (i > 0 && i < n && is_digit(s[i]) && s[n - 1] == ']') {
		for (size_t k = i; k + 1 < n; k++)
			if (!is_digit(s[k]) && s[k] != '.' && s[k] != ' ')
				return false;
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------------ */

/* The lines of SafepointSynchronize::print_stat_on_exit() (JDK 8) between
 * "Polling page always armed" and "Maximum sync time": one "%-26s%10llu" line
 * per VM operation that ran ("RevokeBias                       87") and
 * "%5llu VM operations coalesced during safepoint". */
static bool sp8_exit_stats_line(const char *s, size_t n, size_t ws)
{
	size_t i = ws, k;
	if (i < n && is_digit(s[i])) {
		while (i < n && is_digit(s[i]))
			i++;
		return JL_EQ(s + i, n - i, " VM operations coalesced during safepoint");
	}
	/* VM_Operation::name(): letters, digits and '_' ("CMS_Final_Remark") */
	while (i < n && (is_digit(s[i]) || s[i] == '_' || ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')))
		i++;
	if (ws > 0 || i == 0 || is_digit(s[0]))
		return false;
	k = i;
	while (i < n && s[i] == ' ')
		i++;
	if (i == k || i == n)
		return false;
	while (i < n && is_digit(s[i]))
		i++;
	return i == n;
}

/* -XX:+LogVMOutput -XX:LogFile=FILE (JDK 8's way to keep -XX:+PrintSafepointStatistics
 * and the GC output off stdout; vmcat reads such files): the JVM's output inside
 * HotSpot's XML (ostream.cpp defaultStream::start_log/finish_log). Its header,
 * "<?xml ...?>" "<hotspot_log ...>" <vm_version> <vm_arguments> (names,
 * flags, properties), and the tags between the output lines are the file's,
 * not the JVM's output: read, no event. The <info> line of the header is the
 * JDK 8 version line and is read as such. -1: not such a line. */
static int hsl_line(struct jvmlog *p, const char *s, size_t n)
{
	static const char *const tags[] = {"<tty>", "</tty>", "<writer ", "<blob ", "<sect ", "</blob>",
					   "<destroy_vm ", "<tty_done ", "<hotspot_log_done ", "</hotspot_log>"};
	if (JL_EQ(s, n, "<?xml version='1.0' encoding='UTF-8'?>"))
		return 0;
	if (JL_STARTS(s, n, "<hotspot_log ") && s[n - 1] == '>') {
		p->hsl = 1;
		return 0;
	}
	if (p->hsl == 1) {
		if (JL_EQ(s, n, "</vm_arguments>"))
			p->hsl = 2;
		/* <info>: "Java HotSpot(TM) 64-Bit Server VM (25.121-b13) for linux-amd64
		 * JRE (1.8.0_121-b13), built on ..."; <name> holds the VM's name alone */
		if ((JL_STARTS(s, n, "OpenJDK ") || JL_STARTS(s, n, "Java HotSpot(TM) ")) && JL_FIND(s, n, " JRE ("))
			return -1;
		return 0;
	}
	if (s[0] != '<' || s[n - 1] != '>')
		return -1;
	for (size_t i = 0; i < ARRAY_LEN(tags); i++)
		if (n >= strlen(tags[i]) && memcmp(s, tags[i], strlen(tags[i])) == 0) {
			if (JL_EQ(s, n, "</hotspot_log>"))
				p->hsl = 0;
			return 0;
		}
	return -1;
}

int jl_plain_line(struct jvmlog *p, const char *s, size_t n, struct jl_out *o)
{
	struct jl_stamp st;
	/* the leading blanks, once: most lines of a PrintGCDetails log are indented */
	size_t ws = jl_skip_ws(s, n, 0);
	bool lead_ws = ws > 0;

	/* a PrintSafepointStatistics row on the line before (jl_sp_stopped()) */
	p->sp8_prev = p->sp8_row;
	p->sp8_prev_ms = p->sp8_row_ms;
	p->sp8_row = false;
	if (p->sp8_exit_stats) {
		if (sp8_exit_stats_line(s, n, ws))
			return 0;
		p->sp8_exit_stats = false;
	}
	if (n > 0 && (p->hsl || s[0] == '<')) {
		int r = hsl_line(p, s, n);
		if (r >= 0)
			return r;
	}

	/* A JDK 8 pause bracket still open: CMS concurrent output spliced into it,
	 * G1Ergonomics lines, -XX:+PrintTenuringDistribution ("Desired survivor
	 * size ...", "- age 1: ...", "[PSYoungGen: ..."), the tail " (concurrent mode
	 * failure): ..., 2.71 secs]". Only a new pause (unless it is nested: printed
	 * after "{Heap before GC" inside this one), or a stamped line that is not a
	 * bracket, ends it without a duration. */
	if (p->g8.open) {
		struct jl_stamp cs;
		parse_stamp(p, s, n, ws, &cs);
		bool start = g8_pause_start(s + cs.len, n - cs.len);
		if ((start && p->g8.heap_before) ||
		    (!start && !(cs.len > 0 && (cs.len >= n || s[cs.len] != '[')))) {
			if (n >= JL_G8_MAX_BYTES - p->g8.bytes) {
				p->why = "a JDK 8 GC record grew past 32 MiB without its closing \", <n> secs]\": "
					 "the record is dropped";
				jl_g8_abandon(p, p->why, false);
				return JVMLOG_UNKNOWN;
			}
			p->g8.bytes += n + 1;
			g8_continue(p, s, n, o);
			return o->n;
		}
		jl_g8_abandon(p, start ? "a JDK 8 GC record was cut by the next pause before its duration"
				       : "a JDK 8 GC record was cut by another line before its duration",
			      false);
	}
	if (p->sh8.open && sh8_continue(p, s, n, ws, o))
		return o->n;
	if (ws == n) {
		p->blank_lines++;
		/* part of a report, or an empty line a JVM prints (-XX:+PrintGCDetails,
		 * print_safepoint_timeout()); it does not end anything */
		return 0;
	}
	if (p->g8.await_heap) {
		if (g1_tree_line(p, s, n, ws, o))
			return o->n;
		g8_emit(p, o);
	}

	/* SafepointTimeout report printed on stdout (JDK 8/11, or "none" decorations) */
	if ((s[0] == '#' || p->rep.open) && jl_report_shape(s, n)) {
		if (p->stats_pending) {
			p->stats_pending = false;
			jl_push_copy(o, &p->stats_ev);
		}
		o->t_ms = EV_TIME_NONE;
		o->up_us = -1;
		if (jl_report_line(p, s, n, o))
			return o->n;
	}
	if (p->rep.open || p->stats_pending) {
		if (p->stats_pending && JL_STARTS(s, n, "Safepoint \"")) {
			/* "none" decorations: the row's own Safepoint line */
		} else {
			jl_report_flush(p, o);
			if (p->stats_pending) {
				p->stats_pending = false;
				jl_push_copy(o, &p->stats_ev);
			}
		}
	}

	parse_stamp(p, s, n, ws, &st);
	if (p->histo) {
		/* after the pause closed: "[Class Histogram (after full gc):" and its
		 * rows, ending with ", 4.5682980 secs]" */
		if (st.len == 0 && histo_line(s, n))
			return o->n;
		p->histo = false;
		if (st.len == 0 && JL_STARTS(s, n, ", ") && secs_before(s, n - 1) >= 0 && s[n - 1] == ']')
			return o->n;
	}
	if (st.len > 0 && !p->general_only && JL_STARTS(s + st.len, n - st.len, JL_SP_STOPPED))
		return stopped_line(p, &st, s, n, o);
	/* a stamp holds no '[' (digits, date and time marks, blanks): the search
	 * starts after it */
	if (JL_FIND(s + st.len, n - st.len, "[Class Histogram"))
		p->histo = true;

	if (st.len == 0 && lead_ws) {
		/* detail lines of a PrintGCDetails block, statistics headers, heap at exit */
		size_t i = ws;
		if (i < n && (s[i] == '[' || s[i] == '(' || heap_exit_line(s, n) || g1_stat_row(s + i, n - i)))
			return o->n;
		if (JL_STARTS(s + i, n - i, "vmop ") && JL_FIND(s, n, "[threads:"))
			return o->n; /* -XX:+PrintSafepointStatistics header (JDK 8) */
		if (JL_STARTS(s + i, n - i, "vmop ") && JL_FIND(s, n, "[ threads:"))
			return o->n; /* JDK 11 header */
		return o->n ? o->n : JVMLOG_UNKNOWN;
	}

	if (st.len > 0)
		return stamped_line(p, &st, s, n, o);
	return bare_line(p, s, n, o);
}
