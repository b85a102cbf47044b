/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog_safepoint.c — safepoint lines of every era: the JDK 13+ one-line
 * summary (runtime/safepoint.cpp SafepointTracing::end(), four shapes, read in
 * HotSpot's field order with a by-name reading for anything else), "Total
 * time for which application threads were stopped"
 * (services/runtimeService.cpp, JDK 8 and unified 9-12), statistics rows
 * (JDK 8/11 -XX:+PrintSafepointStatistics in ms, -Xlog:safepoint+stats in ns)
 * and -XX:+SafepointTimeout reports (print_safepoint_timeout(); HotSpot
 * safepoint.cpp, JDK 8-25). */
#include "jvmlog_internal.h"

#include "stwtop/util.h"

/* The numbers of one "Safepoint" line (-1: field absent). */
struct sp_vals {
	double reach, clean, at, leave, total;
	int64_t runnable, threads;
	bool has_clean, has_leave, has_threads;
	int fields;
};

static void sp_vals_init(struct sp_vals *f)
{
	f->reach = f->clean = f->at = f->leave = f->total = -1;
	f->runnable = f->threads = -1;
	f->has_clean = f->has_leave = f->has_threads = false;
	f->fields = 0;
}

/* The general reading: ", Name: <n> ns" fields in any order and subset, any
 * spacing, unknown names skipped. i is just past the op's
 * closing quote. */
static void sp_general(const char *m, size_t n, size_t i, struct sp_vals *f)
{
	while (i < n) {
		size_t s, c, k;
		int64_t v;
		if (m[i] == ',' || m[i] == ' ') {
			i++;
			continue;
		}
		s = i;
		while (i < n && m[i] != ',')
			i++;
		/* part m[s..i) */
		c = s;
		while (c < i && m[c] != ':')
			c++;
		if (c >= i) {
			/* "M total" after "Threads: N runnable" */
			k = util_parse_i64(m + s, i - s, &v);
			if (k && JL_STARTS(m + s + k, i - s - k, " total"))
				f->threads = v;
			continue;
		}
		k = jl_skip_ws(m, i, c + 1);
		if (!util_parse_i64(m + k, i - k, &v))
			continue;
#define FIELD(lit) ((c - s) == sizeof(lit) - 1 && memcmp(m + s, lit, sizeof(lit) - 1) == 0)
		f->fields++;
		if (FIELD("Reaching safepoint"))
			f->reach = (double)v / 1e6;
		else if (FIELD("Cleanup"))
			f->clean = (double)v / 1e6, f->has_clean = true;
		else if (FIELD("At safepoint"))
			f->at = (double)v / 1e6;
		else if (FIELD("Leaving safepoint"))
			f->leave = (double)v / 1e6, f->has_leave = true;
		else if (FIELD("Total"))
			f->total = (double)v / 1e6;
		else if (FIELD("Threads"))
			f->runnable = v, f->has_threads = true;
		else if (!FIELD("Time since last"))
			f->fields--;
#undef FIELD
	}
}

/* "<name><digits><tail>" at m[*i]: the value, *i moved past it. At most 18
 * digits, so they fit an int64_t as util_parse_i64 would read them; a
 * mismatch moves nothing. Called through SP_TAKE with literals, so the
 * memcmp()s have constant sizes and are inlined. */
static inline bool sp_take(const char *m, size_t n, size_t *i, const char *name, size_t name_n,
			   const char *tail, size_t tail_n, int64_t *v)
{
	const char *s = m + *i;
	size_t r = n - *i, k;
	uint64_t u;
	if (r < name_n || memcmp(s, name, name_n) != 0)
		return false;
	s += name_n;
	r -= name_n;
	k = util_parse_u64_inl(s, r, &u);
	if (k == 0 || k > 18 || r - k < tail_n || memcmp(s + k, tail, tail_n) != 0)
		return false;
	*v = (int64_t)u;
	*i += name_n + k + tail_n;
	return true;
}

#define SP_TAKE(m, n, i, name, tail, v) \
	sp_take((m), (n), (i), (name), sizeof(name) - 1, (tail), sizeof(tail) - 1, (v))

/* sp_take() without the value, for "Time since last": the general reading
 * counts it as a field but keeps nothing of it, and a line that gets here has
 * four more fields, so any number of digits gives the same result. Counted a
 * word at a time; its value (9-10 digits) was the dearest to compute. */
static inline bool sp_skip(const char *m, size_t n, size_t *i, const char *name, size_t name_n,
			   const char *tail, size_t tail_n)
{
	const char *s = m + *i;
	size_t r = n - *i, k = 0;
	if (r < name_n || memcmp(s, name, name_n) != 0)
		return false;
	s += name_n;
	r -= name_n;
	while (r - k >= 8) {
		unsigned d = util_digits8(util_load8_le(s + k));
		k += d;
		if (d < 8)
			break;
	}
	while (k < r && s[k] >= '0' && s[k] <= '9')
		k++;
	if (k == 0 || r - k < tail_n || memcmp(s + k, tail, tail_n) != 0)
		return false;
	*i += name_n + k + tail_n;
	return true;
}

#define SP_SKIP(m, n, i, name, tail) sp_skip((m), (n), (i), (name), sizeof(name) - 1, (tail), sizeof(tail) - 1)

/* The line as SafepointTracing::end() writes it, in its order: Time since last, Reaching safepoint, [Cleanup], At safepoint,
 * [Leaving safepoint], Total, [Threads: N runnable, M total], nothing after.
 * That covers all four shapes and is most of a safepoint log; for such a line
 * the general reading gives exactly these values. Any other order, spacing,
 * sign, unknown name or number of 19+ digits (which may not fit) returns
 * false and the general reading decides. */
static bool sp_fast(const char *m, size_t n, size_t i, struct sp_vals *f)
{
	int64_t reach, clean = 0, at, leave = 0, total, run = 0, thr = 0;
	bool has_clean, has_leave, has_threads;

	if (!SP_SKIP(m, n, &i, ", Time since last: ", " ns") ||
	    !SP_TAKE(m, n, &i, ", Reaching safepoint: ", " ns", &reach))
		return false;
	has_clean = SP_TAKE(m, n, &i, ", Cleanup: ", " ns", &clean);
	if (!SP_TAKE(m, n, &i, ", At safepoint: ", " ns", &at))
		return false;
	has_leave = SP_TAKE(m, n, &i, ", Leaving safepoint: ", " ns", &leave);
	if (!SP_TAKE(m, n, &i, ", Total: ", " ns", &total))
		return false;
	has_threads = SP_TAKE(m, n, &i, ", Threads: ", " runnable", &run);
	if (has_threads && !SP_TAKE(m, n, &i, ", ", " total", &thr))
		return false;
	if (i != n)
		return false;
	f->reach = (double)reach / 1e6;
	f->at = (double)at / 1e6;
	f->total = (double)total / 1e6;
	f->fields = 4;
	if (has_clean) {
		f->clean = (double)clean / 1e6;
		f->has_clean = true;
		f->fields++;
	}
	if (has_leave) {
		f->leave = (double)leave / 1e6;
		f->has_leave = true;
		f->fields++;
	}
	if (has_threads) {
		f->runnable = run;
		f->threads = thr;
		f->has_threads = true;
		f->fields++;
	}
	return true;
}

int jl_sp_unified(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	const char *q;
	size_t i, op_n;
	struct event *e;
	struct sp_vals f;

	if (!JL_STARTS(m, n, "Safepoint \""))
		return 0;
	q = memchr(m + 11, '"', n - 11);
	if (!q)
		return 0;
	op_n = (size_t)(q - (m + 11));
	i = (size_t)(q - m) + 1;
	sp_vals_init(&f);
	if (p->general_only || !sp_fast(m, n, i, &f)) {
		sp_vals_init(&f); /* a fast attempt may have filled some */
		sp_general(m, n, i, &f);
	}
	double reach = f.reach, clean = f.clean, at = f.at, leave = f.leave, total = f.total;
	int64_t runnable = f.runnable, threads = f.threads;
	bool has_clean = f.has_clean, has_leave = f.has_leave, has_threads = f.has_threads;
	int fields = f.fields;

	if (fields == 0)
		return 0; /* not HotSpot's line: none of its fields */
	if (has_threads)
		jl_infer_release(p, 25);
	else if (has_leave)
		jl_infer_release(p, 21); /* 21.0.8+ */
	else if (has_clean)
		jl_infer_release(p, 17); /* 17.0.8+, 20+ */
	else
		jl_infer_release(p, 13);

	if (total < 0) {
		total = 0;
		if (reach > 0) total += reach;
		if (clean > 0) total += clean;
		if (at > 0) total += at;
		if (leave > 0) total += leave;
	}
	e = jl_push(o, EV_SAFEPOINT);
	if (!e) {
		p->stats_pending = false;
		return 1;
	}
	e->u.sp.form = SP_UNIFIED;
	e->u.sp.total_ms = jl_ms(total);
	e->u.sp.ttsp_ms = reach < 0 ? -1 : jl_ms(reach);
	e->u.sp.cleanup_ms = clean < 0 ? -1 : jl_ms(clean);
	e->u.sp.at_ms = at < 0 ? -1 : jl_ms(at);
	e->u.sp.leaving_ms = leave < 0 ? -1 : jl_ms(leave);
	e->u.sp.threads_total = jl_i32(threads);
	e->u.sp.threads_running = jl_i32(runnable);
	util_strlcpy_n(e->u.sp.op, sizeof e->u.sp.op, m + 11, op_n);
	if (p->stats_pending) {
		/* the safepoint+stats row of this very safepoint: one event, not two */
		if (strcmp(p->stats_ev.u.sp.op, e->u.sp.op) == 0) {
			if (e->u.sp.threads_total < 0)
				e->u.sp.threads_total = p->stats_ev.u.sp.threads_total;
			if (e->u.sp.threads_running < 0)
				e->u.sp.threads_running = p->stats_ev.u.sp.threads_running;
			p->stats_pending = false;
		} else {
			/* not ours: emit the row first, it is older */
			struct event cur = *e;
			o->ev[o->n - 1] = p->stats_ev;
			p->stats_pending = false;
			jl_push_copy(o, &cur);
		}
	}
	return 1;
}

/* "<x> seconds" at s: ms; chars consumed, 0 if not. Inline in both places of
 * jl_sp_stopped(): a call kept the value in memory for the fallback's pointer
 * and cost more than the conversion it wraps (two per JDK 8 stop line). */
static inline __attribute__((always_inline)) size_t seconds(const char *s, size_t n, double *ms)
{
	double v;
	size_t k;
	uint64_t w;
	/* HotSpot's "%3.7f" of a stop under 10 s: a digit, the mark and seven
	 * decimals, read without measuring the runs: the same integer divided
	 * by the same 1e7 as util_parse_double_inl() and util_parse_double() */
	if (n >= 10 && (unsigned)(s[0] - '0') < 10u && (s[1] == '.' || s[1] == ',') &&
	    util_digits8(w = util_load8_le(s + 2)) == 7) {
		v = (double)(int64_t)((uint64_t)(s[0] - '0') * 10000000u + util_value8(w, 7)) / 1e7;
		k = 9;
	} else {
		k = util_parse_double_inl(s, n, true, &v);
	}
	if (!k || !JL_STARTS(s + k, n - k, " seconds"))
		return 0;
	*ms = jl_ms(v * 1000.0);
	return k + 8;
}

int jl_sp_stopped(struct jvmlog *p, const char *m, size_t n, struct jl_out *o, size_t *clean)
{
	static const char took[] = ", Stopping threads took: ";
	const size_t l = sizeof JL_SP_STOPPED - 1;
	const char *t;
	double total, ttsp;
	struct event *e;
	size_t k, k2;

	if (clean)
		*clean = 0;
	if (!(k = seconds(m + l, n - l, &total)))
		return 0;
	/* the words and a number's sign, digits and mark hold no '[' */
	if (clean)
		*clean = l + k;
	if (p->sp8_prev) {
		/* JDK 8: SafepointSynchronize::end() prints the -XX:+PrintSafepointStatistics
		 * row, then RuntimeService::record_safepoint_end() this line: the same
		 * safepoint, already an event (the row's: its operation and phases).
		 * The row's times are whole milliseconds cut down, this one also
		 * holds the printing of the row: a little longer, never shorter. */
		double row = p->sp8_prev_ms;
		p->sp8_prev = false;
		if (total + 1.0 >= row && total <= row * 1.05 + 5.0)
			return 1;
	}
	e = jl_push(o, EV_SAFEPOINT);
	if (!e)
		return 1;
	e->u.sp.form = SP_STOPPED;
	e->u.sp.total_ms = total;
	/* HotSpot prints it right after the total, which holds no 'S': that is
	 * then the first occurrence a search would find */
	bool next = !p->general_only && JL_STARTS(m + l + k, n - l - k, took);
	if (next)
		t = m + l + k + 2;
	else
		t = JL_FIND(m + l, n - l, "Stopping threads took: ");
	if (t) {
		size_t off = (size_t)(t - m) + 23;
		if ((k2 = seconds(m + off, n - off, &ttsp))) {
			e->u.sp.ttsp_ms = ttsp;
			if (next && clean)
				*clean = off + k2; /* read without a gap */
		}
	}
	if (p->sp_op[0]) {
		/* JDK 11 "Entering safepoint region: <op>" named this stop */
		memcpy(e->u.sp.op, p->sp_op, sizeof e->u.sp.op);
		p->sp_op[0] = '\0';
	}
	return 1;
}

/* Integers inside "[ ... ]" at s[0] == '['; returns chars consumed incl. ']' or 0
 * (a header bracket with words, or junk). */
static size_t bracket_ints(const char *s, size_t n, int64_t *v, int max, int *count)
{
	size_t i = 1;
	*count = 0;
	if (n == 0 || s[0] != '[')
		return 0;
	for (;;) {
		size_t k;
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			return 0;
		if (s[i] == ']')
			return i + 1;
		if (*count >= max)
			return 0;
		k = util_parse_i64(s + i, n - i, &v[*count]);
		if (!k)
			return 0;
		(*count)++;
		i += k;
	}
}

bool jl_sp_stats_row(const char *m, size_t n, bool ms_units, struct event *ev)
{
	const char *b = memchr(m, '[', n);
	size_t op_n, i, k;
	int64_t th[3], tm[5];
	int nth, ntm;
	double sc = ms_units ? 1.0 : 1e-6;

	if (!b || b == m)
		return false;
	op_n = (size_t)(b - m);
	while (op_n > 0 && m[op_n - 1] == ' ')
		op_n--;
	if (op_n == 0 || op_n >= 40)
		return false;
	for (size_t j = 0; j < op_n; j++)
		if ((unsigned char)m[j] < 0x20 || m[j] == ':' || m[j] == '"')
			return false;
	i = (size_t)(b - m);
	k = bracket_ints(m + i, n - i, th, 3, &nth);
	if (!k)
		return false;
	i += k;
	while (i < n && m[i] == ' ')
		i++;
	k = bracket_ints(m + i, n - i, tm, 5, &ntm);
	if (!k)
		return false;
	if (ms_units ? !(nth == 3 && ntm == 5) : !(nth == 2 && (ntm == 4 || ntm == 3)))
		return false;

	ev_init(ev, EV_SAFEPOINT);
	ev->u.sp.form = SP_STATS;
	util_strlcpy_n(ev->u.sp.op, sizeof ev->u.sp.op, m, op_n);
	ev->u.sp.threads_total = jl_i32(th[0]);
	ev->u.sp.threads_running = jl_i32(th[1]);
	if (ntm == 5) {
		/* JDK 8/11: spin block sync cleanup vmop (ms); sync = spin + block */
		ev->u.sp.spin_ms = jl_ms((double)tm[0]);
		ev->u.sp.block_ms = jl_ms((double)tm[1]);
		ev->u.sp.ttsp_ms = jl_ms((double)tm[2]);
		ev->u.sp.cleanup_ms = jl_ms((double)tm[3]);
		ev->u.sp.at_ms = jl_ms((double)tm[4]);
		ev->u.sp.total_ms = jl_ms(ev->u.sp.ttsp_ms + ev->u.sp.cleanup_ms + ev->u.sp.at_ms);
	} else if (ntm == 4) {
		/* JDK 13-21: sync cleanup vmop total (ns) */
		ev->u.sp.ttsp_ms = jl_ms((double)tm[0] * sc);
		ev->u.sp.cleanup_ms = jl_ms((double)tm[1] * sc);
		ev->u.sp.at_ms = jl_ms((double)tm[2] * sc);
		ev->u.sp.total_ms = jl_ms((double)tm[3] * sc);
	} else {
		/* JDK 25: sync vmop total (ns) */
		ev->u.sp.ttsp_ms = jl_ms((double)tm[0] * sc);
		ev->u.sp.at_ms = jl_ms((double)tm[1] * sc);
		ev->u.sp.total_ms = jl_ms((double)tm[2] * sc);
	}
	return true;
}

/* ------------------------------------------------------------------------ */
/* SafepointTimeout reports                                                 */

static bool state_line(const char *m, size_t n)
{
	size_t i = jl_skip_ws(m, n, 0);
	return i > 0 && JL_STARTS(m + i, n - i, "java.lang.Thread.State:");
}

bool jl_report_shape(const char *m, size_t n)
{
	return JL_STARTS(m, n, "# SafepointSynchronize") || JL_STARTS(m, n, "# \"") ||
	       jl_blank(m, n) || state_line(m, n);
}

void jl_report_flush(struct jvmlog *p, struct jl_out *o)
{
	struct jl_report *r = &p->rep;
	struct event *e;
	int64_t t = o->t_ms, u = o->up_us;
	size_t k;

	if (!r->open)
		return;
	r->open = false;
	o->t_ms = r->t_ms;
	o->up_us = r->up_us;
	e = jl_push(o, EV_SP_TIMEOUT);
	o->t_ms = t;
	o->up_us = u;
	if (!e)
		return;
	e->u.spt.spinning = r->spinning;
	e->u.spt.nthreads = r->nthreads;
	k = r->names_n;
	if (k < sizeof e->u.spt.threads && !r->cut) {
		memcpy(e->u.spt.threads, r->names, k);
		e->u.spt.threads[k] = '\0';
	} else {
		/* cut on a UTF-8 boundary and mark it with "…" */
		k = sizeof e->u.spt.threads - 4;
		if (k > r->names_n)
			k = r->names_n;
		while (k > 0 && ((unsigned char)r->names[k] & 0xc0) == 0x80)
			k--;
		memcpy(e->u.spt.threads, r->names, k);
		memcpy(e->u.spt.threads + k, "\xe2\x80\xa6", 4);
	}
}

static void report_open(struct jvmlog *p, struct jl_out *o)
{
	struct jl_report *r = &p->rep;
	if (r->open)
		jl_report_flush(p, o);
	memset(r, 0, sizeof *r);
	r->open = true;
}

int jl_report_line(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	static const char begin[] = "# SafepointSynchronize::begin: ";
	struct jl_report *r = &p->rep;

	if (JL_STARTS(m, n, begin)) {
		const char *s = m + sizeof begin - 1;
		size_t sn = n - (sizeof begin - 1);
		if (JL_STARTS(s, sn, "Timeout detected") || !r->open)
			report_open(p, o); /* also when the file starts mid-report */
		r->t_ms = o->t_ms;
		r->up_us = o->up_us;
		if (JL_STARTS(s, sn, "Timed out while spinning"))
			r->spinning = 1;
		else if (JL_STARTS(s, sn, "Timed out while waiting for threads to stop"))
			r->spinning = 2;
		else if (JL_STARTS(s, sn, "(End of list)"))
			jl_report_flush(p, o);
		return 1;
	}
	if (JL_STARTS(m, n, "# SafepointSynchronize: Finished after"))
		return 1;
	if (jl_blank(m, n))
		return 1; /* the empty line before a report and between its threads */
	if (!r->open)
		return 0;
	if (JL_STARTS(m, n, "# \"")) {
		/* # "batch-worker-1" #15 daemon prio=5 ...: the name is between the quotes */
		const char *q = memchr(m + 3, '"', n - 3);
		size_t k = q ? (size_t)(q - (m + 3)) : 0;
		if (r->nthreads < UINT16_MAX)
			r->nthreads++;
		if (q && !r->cut) {
			/* keep what fits; the cut is marked with "…" on emit */
			size_t room = sizeof r->names - r->names_n;
			if (r->names_n && room > 2) {
				memcpy(r->names + r->names_n, ", ", 2);
				r->names_n += 2;
				room -= 2;
			}
			if (k > room) {
				k = room;
				r->cut = true;
			}
			memcpy(r->names + r->names_n, m + 3, k);
			r->names_n += k;
		}
		r->t_ms = o->t_ms;
		r->up_us = o->up_us;
		return 1;
	}
	if (state_line(m, n))
		return 1;
	return 0;
}
