/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog.c — JVM log lines to events: the entry point, JDK 9+ unified-logging
 * decorations, time (wall clock, uptime, anchor, restarts) and the multi-line
 * state shared by the other jvmlog*.c files.
 *
 * Decorations mirror HotSpot logging/logDecorations.cpp and
 * logFileStreamOutput.cpp: each selected
 * decorator is "[%-*s]" in the fixed order time, utctime, uptime, timemillis,
 * uptimemillis, timenanos, uptimenanos, hostname, pid, tid, level, tags, then
 * one space and the message. Padding only grows within a file, so brackets are
 * parsed, never columns. A line that does not start with a valid decoration set
 * is handed to jvmlog_jdk8.c (JDK 8 gc logs, stdout, application lines).
 *
 * Speed: a replay reads millions of lines of few shapes, so the shapes HotSpot
 * writes have fast paths (the minute of the last ISO stamp, "[%.3fs]" read in
 * place, the reading of repeated level/tags decorations reused). Each must
 * give exactly what the general reading gives; jvmlog_set_general_only()
 * turns them off so tests/unit/test_jvmlog_fast.c and the fuzzer compare. */
#include "jvmlog_internal.h"

#include <stdlib.h>

#include "stwtop/util.h"

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* ------------------------------------------------------------------------ */
/* public API                                                               */

struct jvmlog *jvmlog_new(void)
{
	struct jvmlog *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->anchor_told_ms = EV_TIME_NONE;
	p->last_up_us = -1;
	p->life_t_ms = EV_TIME_NONE;
	p->life_up_us = -1;
	p->ns_mono = -1;
	p->collector = GC_UNKNOWN;
	p->pid = -1;
	p->evac_fail_gc_id = -1;
	p->zcap_gc_id = -1;
	p->zcap_kb = -1;
	return p;
}

void jvmlog_free(struct jvmlog *p)
{
	free(p);
}

void jvmlog_set_general_only(struct jvmlog *p, bool on)
{
	if (p)
		p->general_only = on;
}

const char *jvmlog_why(const struct jvmlog *p)
{
	return p ? p->why : NULL;
}

uint64_t jvmlog_blank_lines(const struct jvmlog *p)
{
	return p ? p->blank_lines : 0;
}

bool jvmlog_open_pause(const struct jvmlog *p, int64_t *t_ms, int64_t *up_us)
{
	if (!p || !p->open_pause.open)
		return false;
	*t_ms = p->open_pause.t_ms;
	*up_us = p->open_pause.up_us;
	return true;
}

const uint64_t *jvmlog_lost_counter(const struct jvmlog *p)
{
	return p ? &p->lost_lines : NULL;
}

uint64_t jvmlog_take_lost(struct jvmlog *p, uint64_t *first_line, const char **why)
{
	uint64_t k = p ? p->lost_lines : 0;
	if (k) {
		*first_line = p->lost_first;
		*why = p->lost_why;
		p->lost_lines = 0;
	}
	return k;
}

int jvmlog_collector(const struct jvmlog *p)
{
	return p ? p->collector : GC_UNKNOWN;
}

int jvmlog_jdk_release(const struct jvmlog *p)
{
	return p ? p->release : 0;
}

int jvmlog_flush(struct jvmlog *p, struct event *out, int cap)
{
	struct jl_out o = { out, cap < 0 ? 0 : cap, 0, EV_TIME_NONE, -1 };
	if (!p || !out)
		return 0;
	jl_flush_pending(p, &o);
	return o.n;
}

/* ------------------------------------------------------------------------ */
/* time                                                                     */

/* jl_iso8601() when the kept minute did not apply (jvmlog_internal.h) */
size_t jl_iso8601_parse(struct jvmlog *p, const char *s, size_t n, int64_t *epoch_ms, bool *has_zone)
{
	size_t k;

	if (p->general_only)
		return util_parse_iso8601(s, n, epoch_ms, has_zone);
	k = util_parse_iso8601(s, n, epoch_ms, has_zone);
	/* 28 chars with 3 decimals and a sign at 23 can only be "+hhmm" */
	if (k == 28 && *has_zone && s[16] == ':' && s[19] == '.' && is_digit(s[17]) && is_digit(s[18]) &&
	    is_digit(s[20]) && is_digit(s[21]) && is_digit(s[22]) && (s[23] == '+' || s[23] == '-')) {
		p->iso_key[0] = util_load8_le(s);
		p->iso_key[1] = util_load8_le(s + 8);
		p->iso_key[2] = util_load8_le(s + 20) & JL_ISO_OFFSET_BYTES;
		p->iso_minute_ms = *epoch_ms - (jl_dig2(s + 17) * 1000 + jl_dig2(s + 20) * 10 + (s[22] - '0'));
		p->iso_ok = true;
	}
	return k;
}

static void restart(struct jvmlog *p)
{
	/* A new JVM in the same file (console logs of a restarted pod, a gc.log
	 * that was not rotated): its uptime starts again, so its anchor is
	 * reported anew when a line tells it. Half-read reports belong to the old
	 * JVM and are dropped with it. */
	p->anchor_told_ms = EV_TIME_NONE;
	p->restarts++;
	p->rep.open = false;
	jl_g8_abandon(p, "a JDK 8 GC record was cut by the start of a new JVM in the same log", false);
	p->g8.await_heap = false;
	p->histo = false;
	p->stats_pending = false;
	p->sp8_row = p->sp8_prev = p->sp8_exit_stats = false;
	p->evac_fail_gc_id = p->zcap_gc_id = -1;
	p->sp_op[0] = '\0';
}

void jl_time(struct jvmlog *p, int64_t wall_ms, int64_t up_us, struct jl_out *o)
{
	if (up_us >= 0) {
		/* last_up_us - 1 s, not up_us + 1 s: an uptime near INT64_MAX must not overflow */
		if (p->last_up_us >= 0 && up_us < p->last_up_us - 1000000) {
			jl_open_pause_flush(p, o); /* the JVM before died inside it */
			restart(p);
		}
		p->last_up_us = up_us;
	}
	o->up_us = up_us;
	/* the line's own wall clock, or none: uptime is placed by the caller's
	 * clock (store/jvmclock.c), from the anchor reported here once per JVM */
	o->t_ms = wall_ms;
	if (wall_ms != EV_TIME_NONE && up_us >= 0 && p->anchor_told_ms == EV_TIME_NONE) {
		struct event *e = jl_push(o, EV_ANCHOR);
		p->anchor_told_ms = wall_ms - (up_us + 500) / 1000;
		if (e)
			e->u.anchor_ms = p->anchor_told_ms;
	}
	if (o->t_ms != EV_TIME_NONE || up_us >= 0) {
		p->life_t_ms = o->t_ms;
		p->life_up_us = up_us;
	}
}

/* ------------------------------------------------------------------------ */
/* pending multi-line items                                                 */

static bool any_pending(const struct jvmlog *p)
{
	return p->rep.open || p->stats_pending || p->g8.open || p->g8.await_heap || p->sh8.open;
}

void jl_flush_pending(struct jvmlog *p, struct jl_out *o)
{
	jl_g8_flush(p, o);
	jl_open_pause_flush(p, o);
	if (p->stats_pending) {
		p->stats_pending = false;
		jl_push_copy(o, &p->stats_ev);
	}
	jl_report_flush(p, o);
}

/* Is the line (wall, up) within a second of a pending item's time? Lines of
 * other threads may interleave with a multi-line report; they must not cut it. */
static bool near_in_time(int64_t pt, int64_t pu, int64_t wall, int64_t up)
{
	if (pu >= 0 && up >= 0)
		return up - pu <= 1000000 && pu - up <= 1000000;
	if (pt != EV_TIME_NONE && wall != EV_TIME_NONE)
		return jl_add(wall, -pt) <= 1000 && jl_add(pt, -wall) <= 1000; /* saturated: any int64 */
	return true;
}

/* ------------------------------------------------------------------------ */
/* unified logging decorations                                              */

struct jl_deco {
	const char *time;        /* ISO time or utctime (first one) */
	const char *up;          /* uptime "0.005s" (unit 's') or uptimemillis "101" (unit 'm') */
	size_t up_n;
	char up_unit;
	int64_t up_us;           /* uptime in µs if the scan could compute it, else -2 */
	int tag_kind;            /* jl_tag_kind() of tags if known from a kept tail, else -1 */
	bool wall_known;         /* wall_ms of the time decoration computed by the scan */
	int64_t wall_ms;
	const char *ns[2];       /* "ns" decorations (digits only): timenanos and/or uptimenanos */
	size_t ns_n[2];
	int nns;
	int64_t tmillis;         /* timemillis, -1 */
	int64_t pid, tid;
	int level;               /* 0 none, 1 trace .. 5 error */
	const char *tags;
	size_t tags_n;
	const char *msg;
	size_t msg_n;
	bool strong;             /* carried a time, uptime or level decoration */
	bool weak;               /* only hostname/pid/tid/unknown tags: the message decides */
};

enum { DK_TIME = 0, DK_UTCTIME, DK_UPTIME, DK_TIMEMILLIS, DK_UPTIMEMILLIS, DK_TIMENANOS,
       DK_UPTIMENANOS, DK_HOST, DK_PID, DK_TID, DK_LEVEL, DK_TAGS };

static int level_of(const char *s, size_t n)
{
	if (JL_EQ(s, n, "info")) return 3;
	if (JL_EQ(s, n, "debug")) return 2;
	if (JL_EQ(s, n, "warning")) return 4;
	if (JL_EQ(s, n, "trace")) return 1;
	if (JL_EQ(s, n, "error")) return 5;
	return 0;
}

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

/* HotSpot's own ISO form: 2026-11-29T19:23:38.332+0000 (os::iso8601_time) */
static bool iso_shape(const char *c, size_t k)
{
	return k == 28 && is_digit(c[0]) && c[4] == '-' && c[7] == '-' && c[10] == 'T' &&
	       c[13] == ':' && c[16] == ':' && c[19] == '.' && (c[23] == '+' || c[23] == '-') &&
	       is_digit(c[27]);
}

/* bytes of a tag set: a-z, 0-9, '_' and ',' (one load per byte instead of
 * four range tests: every unified line has a tags decoration) */
static const bool tag_byte[256] = {
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['_'] = 1, [','] = 1,
};

static bool tag_like(const char *c, size_t k)
{
	if (k == 0 || c[0] < 'a' || c[0] > 'z')
		return false;
	for (size_t i = 0; i < k; i++)
		if (!tag_byte[(unsigned char)c[i]])
			return false;
	return true;
}

static bool host_like(const char *c, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		char ch = c[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || is_digit(ch) || ch == '-' ||
		      ch == '.' || ch == '_'))
			return false;
	}
	return k > 0;
}

/* First tag of a tags-only decoration: only HotSpot's own tags make a line a JVM
 * line when nothing else (time, uptime, level) says so ("[main] INFO ..." of an
 * application must stay an application line). */
static bool known_first_tag(const char *s, size_t n)
{
	static const char *const tags[] = {
		"gc", "safepoint", "os", "jit", "class", "cds", "codecache", "logging",
		"startuptime", "pagesize", "monitorinflation", "exceptions", "aot", "jni",
		"jvmti", "stringtable", "symboltable", "nmt", "vmthread", "thread", "handshake",
		"redefine", "perf", "container", "cpu", "arguments", "module", "stacktrace",
		"metaspace", "heap", "init", "compilation", "verification", "deoptimization",
		"interpreter", "biasedlocking", "sweeper", "jfr", "stats", "periodic", "age",
	};
	size_t k = 0;
	while (k < n && s[k] != ',')
		k++;
	for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
		if (strlen(tags[i]) == k && memcmp(tags[i], s, k) == 0)
			return true;
	return false;
}

static inline bool same8(const char *x, const char *y)
{
	uint64_t a, b;
	memcpy(&a, x, 8);
	memcpy(&b, y, 8);
	return a == b;
}

/* Decorations after the time ones repeat line after line ("[info][safepoint   ] ").
 * Their reading depends only on their bytes and the kind of the decoration
 * before them, so when both match a recent line's, its result is reused. */
static bool deco_tail_match(const struct jl_deco_tail *e, const char *t, size_t room, int last)
{
	size_t n = e->n;
	if (n == 0 || e->last != last || room < n)
		return false;
	if (n < 8)
		return memcmp(t, e->bytes, n) == 0;
	/* word compares, the last one overlapping; entries mostly differ in
	 * bytes 8..16 (the tags after "[info ][") so those go first */
	if (n >= 16 && !same8(t + 8, e->bytes + 8))
		return false;
	if (!same8(t, e->bytes) || !same8(t + n - 8, e->bytes + n - 8))
		return false;
	return n <= 24 || memcmp(t + 16, e->bytes + 16, n - 24) == 0;
}

#define DECO_TAILS (sizeof ((struct jvmlog *)0)->deco_tail / sizeof ((struct jvmlog *)0)->deco_tail[0])
_Static_assert((DECO_TAILS & (DECO_TAILS - 1)) == 0, "deco_tail indices wrap with a mask");

static bool deco_tail_hit(struct jvmlog *p, const char *s, size_t n, size_t i, int last,
			  struct jl_deco *d)
{
	const unsigned ne = DECO_TAILS;
	const char *t = s + i;
	const struct jl_deco_tail *e = NULL;
	/* from the entry of the last hit on: one tag set usually follows itself,
	 * and in a G1 log the next one is often the one kept after it */
	for (unsigned k = 0; k < ne; k++) {
		unsigned at = (p->deco_tail_hit + k) & (ne - 1);
		if (deco_tail_match(&p->deco_tail[at], t, n - i, last)) {
			e = &p->deco_tail[at];
			p->deco_tail_hit = at;
			break;
		}
	}
	if (!e)
		return false;
	if (e->level) {
		d->level = e->level;
		d->strong = true;
	}
	if (e->pid_set)
		d->pid = e->pid;
	if (e->tid_set)
		d->tid = e->tid;
	if (e->tags) {
		d->tags = t + e->tags_off;
		d->tags_n = e->tags_n;
		d->tag_kind = e->tag_kind;
	}
	d->msg = t + e->n;
	d->msg_n = n - i - e->n;
	d->weak = !d->strong && (!d->tags || !e->tags_known);
	return true;
}

/* Remember the decorations s[i..) read up to the message at s[e] (e - 1 is the
 * space after them). The time ones before cannot set what they give: level
 * and tags never start with a digit, pid and tid in them only follow a hostname. */
static void deco_tail_keep(struct jvmlog *p, const char *s, size_t i, size_t end, int last,
			   const struct jl_deco *d, bool pid_set, bool tid_set)
{
	const size_t ne = DECO_TAILS;
	struct jl_deco_tail *e = &p->deco_tail[p->deco_tail_next];
	size_t len = end - i;
	if (len > sizeof e->bytes || len > UINT8_MAX)
		return;
	p->deco_tail_next = (unsigned)((p->deco_tail_next + 1) & (ne - 1));
	memcpy(e->bytes, s + i, len);
	e->last = (int8_t)last;
	e->level = d->level;
	e->pid_set = pid_set;
	e->tid_set = tid_set;
	e->pid = d->pid;
	e->tid = d->tid;
	e->tags = d->tags != NULL;
	e->tags_off = d->tags ? (uint8_t)(d->tags - (s + i)) : 0;
	e->tags_n = d->tags ? (uint8_t)d->tags_n : 0;
	e->tag_kind = (uint8_t)(d->tags ? jl_tag_kind(d->tags, d->tags_n) : JL_TAG_NONE);
	/* only read without a level decoration (weak lines); the table is long */
	e->tags_known = d->tags && !d->level && known_first_tag(d->tags, d->tags_n);
	e->n = (uint8_t)len;
}

/* The time decorations HotSpot writes on most lines, read without searching
 * for ']': "[<a stamp of the minute jl_iso8601() holds>]" and "[%.3fs]" with
 * up to 8 digits of seconds. c[0] is a digit. Returns the bracket's
 * length, with *kind and d set as the general reading sets them (its bytes
 * hold no ']' and no padding, so that reading finds the same bracket), or 0
 * to let the general reading decide. */
static size_t deco_fast_time(const struct jvmlog *p, const char *c, size_t room, int last,
			     struct jl_deco *d, int *kind)
{
	if (room >= 29 && c[28] == ']') {
		int64_t ms;
		/* iso_shape() wants 'T' where util_parse_iso8601() also takes ' ' */
		if (c[10] != 'T' || !jl_iso_cached(p, c, &ms))
			return 0;
		*kind = last < DK_TIME ? DK_TIME : DK_UTCTIME;
		if (!d->time) {
			d->time = c;
			d->wall_ms = ms;
			d->wall_known = true;
		}
		return 28;
	}
	if (room >= 8) {
		uint64_t w = util_load8_le(c);
		unsigned j = util_digits8(w);
		if (j == 0 || room < j + 6 || c[j] != '.' || !is_digit(c[j + 1]) ||
		    !is_digit(c[j + 2]) || !is_digit(c[j + 3]) || c[j + 4] != 's' || c[j + 5] != ']')
			return 0;
		*kind = DK_UPTIME;
		d->up = c;
		d->up_n = j + 4;
		d->up_unit = 's';
		d->up_us = (int64_t)(util_value8(w, j) * 1000000 +
				     (uint64_t)(((c[j + 1] - '0') * 100 + (c[j + 2] - '0') * 10 + (c[j + 3] - '0')) * 1000));
		return j + 5;
	}
	return 0;
}

/* Parse the decoration brackets at the start of a line. false: not a unified line.
 * One function of ~150 lines on purpose: each bracket's kind depends on the
 * kind before it (decorators come in one fixed order) and on the fast-path
 * state (tail, pid_set ...), all of it local; split up, that state would go
 * through pointers on the hottest path of every unified line. */
static bool deco_scan(struct jvmlog *p, const char *s, size_t n, struct jl_deco *d)
{
	size_t i = 0, tail = SIZE_MAX;
	int last = -1, tail_last = -1;
	bool any = false, pid_set = false, tid_set = false;

	/* every field, as memset() and the -1s would, in stores gcc can merge */
	*d = (struct jl_deco){ .up_us = -2, .tag_kind = -1, .tmillis = -1, .pid = -1, .tid = -1 };
	while (i < n && s[i] == '[') {
		const char *c = s + i + 1;
		size_t room = n - i - 1, k = 0, w;
		const char *close;
		int kind = -1;
		if (room > 0 && !p->general_only) {
			if (is_digit(c[0])) {
				k = deco_fast_time(p, c, room, last, d, &kind);
			} else if (tail == SIZE_MAX) {
				if (deco_tail_hit(p, s, n, i, last, d))
					return true;
				tail = i;
				tail_last = last;
			}
		}
		if (k) {
			w = k;
		} else {
			if (room > 160)
				room = 160; /* no decoration is longer; bounds the search on junk */
			close = memchr(c, ']', room);
			if (!close)
				return false;
			k = (size_t)(close - c);
			w = k;
			while (w > 0 && c[w - 1] == ' ')
				w--; /* "[%-*s]" pads on the right */
			if (w == 0)
				return false;
		}
		size_t after = i + 1 + k + 1; /* index after ']' */
		bool more = after < n && s[after] == '[';
		bool end = after >= n || s[after] == ' ';
		if (!more && !end)
			return false;
		if (kind >= 0) {
			/* read by deco_fast_time() */
		} else if (is_digit(c[0])) {
			if (iso_shape(c, w)) {
				kind = last < DK_TIME ? DK_TIME : DK_UTCTIME;
				if (!d->time)
					d->time = c;
			} else if (c[w - 1] == 's' && w >= 3 && c[w - 2] == 'm' && all_digits(c, w - 2)) {
				uint64_t v = 0;
				util_parse_u64(c, w - 2, &v);
				if (v > 100000000000ULL) { /* > 10^11 ms: epoch, timemillis */
					kind = DK_TIMEMILLIS;
					d->tmillis = v > (uint64_t)INT64_MAX ? -1 : (int64_t)v;
				} else {
					kind = DK_UPTIMEMILLIS;
					d->up = c;
					d->up_n = w - 2;
					d->up_unit = 'm';
					d->up_us = -2;
				}
			} else if (c[w - 1] == 's' && w >= 3 && c[w - 2] == 'n' && all_digits(c, w - 2)) {
				if (d->nns >= 2)
					return false;
				kind = d->nns == 0 ? DK_TIMENANOS : DK_UPTIMENANOS;
				d->ns[d->nns] = c;
				d->ns_n[d->nns++] = w - 2;
			} else if (c[w - 1] == 's') {
				/* "%.3fs": the value is taken in the same pass (deco_up_us()
				 * would read it again); up to 12 digits of seconds, far
				 * from any overflow, else deco_up_us() decides */
				size_t j = 0, f;
				uint64_t sec = 0, frac = 0;
				while (j < w - 1 && is_digit(c[j])) {
					sec = sec * 10 + (uint64_t)(c[j] - '0');
					j++;
				}
				if (j == 0 || j >= w - 1 || (c[j] != '.' && c[j] != ','))
					return false;
				if (j + 2 >= w)
					return false; /* no decimals */
				for (f = j + 1; f < w - 1; f++) {
					if (!is_digit(c[f]))
						return false;
					if (f - j <= 6)
						frac = frac * 10 + (uint64_t)(c[f] - '0');
				}
				for (f = w - 2 - j; f < 6; f++)
					frac *= 10;
				kind = DK_UPTIME;
				d->up = c;
				d->up_n = w - 1;
				d->up_unit = 's';
				d->up_us = j <= 12 ? (int64_t)(sec * 1000000 + frac) : -2;
			} else if (all_digits(c, w)) {
				uint64_t v = 0;
				util_parse_u64(c, w, &v);
				kind = last < DK_PID ? DK_PID : DK_TID;
				if (v > INT64_MAX)
					v = 0;
				if (kind == DK_PID) {
					d->pid = (int64_t)v;
					pid_set = tail != SIZE_MAX;
				} else {
					d->tid = (int64_t)v;
					tid_set = tail != SIZE_MAX;
				}
			} else if (host_like(c, w) && last < DK_HOST) {
				kind = DK_HOST; /* "10-0-0-7.pod" */
			} else {
				return false;
			}
		} else {
			int lv = level_of(c, w);
			if (lv && last < DK_LEVEL) {
				kind = DK_LEVEL;
				d->level = lv;
			} else if (tag_like(c, w) && end) {
				kind = DK_TAGS;
				d->tags = c;
				d->tags_n = w;
			} else if (host_like(c, w) && last < DK_HOST) {
				kind = DK_HOST;
			} else {
				return false;
			}
		}
		if (kind <= last)
			return false; /* decorators come in one fixed order */
		last = kind;
		any = true;
		if (kind <= DK_UPTIMENANOS || kind == DK_LEVEL)
			d->strong = true;
		i = after;
		if (end) {
			if (i < n) {
				i++; /* the one space between decorations and message */
				if (tail != SIZE_MAX)
					deco_tail_keep(p, s, tail, i, tail_last, d, pid_set, tid_set);
			}
			d->msg = s + i;
			d->msg_n = n - i;
			/* hostname/pid/tid alone, or unknown tags alone, do not prove a JVM
			 * line ("[main] INFO ..."): its message will have to */
			d->weak = !d->strong && (!d->tags || !known_first_tag(d->tags, d->tags_n));
			return any;
		}
	}
	return false;
}

/* uptime decoration -> µs (exact integer arithmetic: "0.115s" is 115000) */
static int64_t deco_up_us(const struct jl_deco *d, int8_t ns_mono, bool p_general_only)
{
	uint64_t v = 0;
	if (!d->up) {
		/* timenanos,uptimenanos: the second; a lone ns decoration is uptimenanos
		 * unless the file showed it is timenanos (monotonic since boot) */
		const char *c = d->nns == 2 ? d->ns[1] : d->nns == 1 && ns_mono != 1 ? d->ns[0] : NULL;
		size_t cn = d->nns == 2 ? d->ns_n[1] : d->ns_n[0];
		if (!c)
			return -1;
		util_parse_u64(c, cn, &v);
		return (int64_t)(v / 1000);
	}
	if (d->up_unit == 'm') {
		util_parse_u64(d->up, d->up_n, &v);
		return v > (uint64_t)INT64_MAX / 1000 ? -1 : (int64_t)v * 1000;
	}
	if (d->up_us >= 0 && !p_general_only)
		return d->up_us; /* computed by deco_scan() */
	/* seconds with 3 (or more) decimals, '.' or ',' */
	{
		size_t j = 0;
		uint64_t sec = 0, frac = 0;
		unsigned digits = 0;
		j = util_parse_u64(d->up, d->up_n, &sec);
		if (j < d->up_n)
			j++;
		for (; j < d->up_n && digits < 6; j++, digits++)
			frac = frac * 10 + (uint64_t)(d->up[j] - '0');
		while (digits++ < 6)
			frac *= 10;
		if (sec > (uint64_t)INT64_MAX / 1000000 - 1)
			return -1;
		return (int64_t)(sec * 1000000 + frac);
	}
}

static int64_t deco_wall_ms(struct jvmlog *p, const struct jl_deco *d)
{
	int64_t ms;
	bool zone;
	if (d->wall_known)
		return d->wall_ms;
	if (d->time && jl_iso8601(p, d->time, 28, &ms, &zone) == 28)
		return ms;
	if (d->tmillis >= 0)
		return d->tmillis;
	return EV_TIME_NONE;
}

/* JVM start-up lines: a lone "ns" decoration on them tells uptime from timenanos. */
static bool startup_message(const char *m, size_t n)
{
	return JL_STARTS(m, n, "Using ") || JL_STARTS(m, n, "Version: ") ||
	       JL_STARTS(m, n, "Initializing ") || JL_STARTS(m, n, "CPUs: ");
}

static int unified_line(struct jvmlog *p, struct jl_deco *d, struct jl_out *o)
{
	enum jl_tag tag = !d->tags || d->weak ? JL_TAG_NONE
			  : d->tag_kind >= 0   ? (enum jl_tag)d->tag_kind
					       : jl_tag_kind(d->tags, d->tags_n);
	int known;
	const char *m = d->msg;
	size_t n = d->msg_n;
	bool pend = any_pending(p);
	bool gcish = tag >= JL_TAG_GC && tag <= JL_TAG_GC_SKIP;
	int64_t wall, up;

	/* The cheap path: most lines of a gc* log are details nobody needs. */
	if (!pend) {
		switch (tag) {
		case JL_TAG_GC_SKIP:
		case JL_TAG_OTHER:
			if (!p->open_pause.open)
				return 0;
			/* a line while a pause is open: the JVM still logs */
			jl_time(p, deco_wall_ms(p, d), deco_up_us(d, p->ns_mono, p->general_only), o);
			return o->n;
		case JL_TAG_GC_PERIODIC:
			if (!JL_ENDS(m, n, "Skipping."))
				return 0;
			break;
		case JL_TAG_GC_PHASES:
		case JL_TAG_GC_HEAP: {
			/* only ZGC phase pauses and the ZGC "Capacity:" table row */
			size_t i = 0;
			int64_t id;
			i += jl_parse_gc_id(m, n, &id);
			if (i + 3 <= n && m[i + 1] == ':' && m[i + 2] == ' ')
				i += 3; /* generational ZGC "y: " / "O: " */
			if (tag == JL_TAG_GC_PHASES) {
				if (!JL_STARTS(m + i, n - i, "Pause "))
					return 0;
			} else {
				i = jl_skip_ws(m, n, i);
				if (!JL_STARTS(m + i, n - i, "Capacity:") && p->collector != GC_UNKNOWN)
					return 0;
			}
			break;
		}
		default:
			break;
		}
	}

	if (d->nns == 1 && !d->up && p->ns_mono < 0 && startup_message(m, n)) {
		uint64_t v = 0;
		util_parse_u64(d->ns[0], d->ns_n[0], &v);
		p->ns_mono = v > 60000000000ULL ? 1 : 0; /* a JVM logs its start-up within a minute */
	}
	wall = deco_wall_ms(p, d);
	up = deco_up_us(d, p->ns_mono, p->general_only);

	if (pend) {
		bool sp_tag = tag == JL_TAG_SAFEPOINT || tag == JL_TAG_NONE;
		if (p->g8.open || p->g8.await_heap)
			jl_g8_flush(p, o);
		if (p->stats_pending) {
			bool completes = sp_tag && JL_STARTS(m, n, "Safepoint \"");
			bool keep = gcish && near_in_time(p->stats_ev.t_ms, p->stats_ev.up_us, wall, up);
			if (!completes && !keep) {
				p->stats_pending = false;
				jl_push_copy(o, &p->stats_ev);
			}
		}
		if (p->rep.open) {
			bool part = sp_tag && jl_report_shape(m, n);
			bool keep = gcish && near_in_time(p->rep.t_ms, p->rep.up_us, wall, up);
			if (!part && !keep)
				jl_report_flush(p, o);
		}
		if (tag == JL_TAG_GC_SKIP || tag == JL_TAG_OTHER)
			return o->n;
	}

	jl_time(p, wall, up, o);
	known = jl_unified_message(p, tag, m, n, o);
	if (d->weak && !known)
		return o->n ? o->n : JVMLOG_UNKNOWN;
	if (d->pid >= 0 && d->pid != p->pid) {
		struct event *e = jl_push(o, EV_JVM_INFO);
		p->pid = d->pid;
		if (e) {
			e->u.info.key = JI_PID;
			e->u.info.a = d->pid;
		}
	}
	return o->n;
}

/* ------------------------------------------------------------------------ */

/* A line that starts with '[': unified decorations, or not. Out of line so
 * that a JDK 8 line (a plain one) does not pay for the decoration reading's
 * stack frame. */
__attribute__((noinline)) static int bracket_line(struct jvmlog *p, const char *line, size_t len,
						   struct jl_out *o)
{
	struct jl_deco d;
	if (deco_scan(p, line, len, &d))
		return unified_line(p, &d, o);
	return jl_plain_line(p, line, len, o);
}

int jvmlog_parse_line(struct jvmlog *p, const char *line, size_t len, struct event *out, int cap)
{
	struct jl_out o = { out, cap < 0 ? 0 : cap, 0, EV_TIME_NONE, -1 };

	if (!p || !out || (!line && len))
		return JVMLOG_UNKNOWN;
	p->why = NULL;
	p->nlines++;
	if (!line)
		line = "";
	if (len && line[len - 1] == '\r')
		len--;
	if (len && line[0] == '[')
		return bracket_line(p, line, len, &o);
	return jl_plain_line(p, line, len, &o);
}
