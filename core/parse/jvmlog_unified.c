/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog_unified.c — messages of JDK 9+ unified logging (-Xlog:gc*, the
 * decorations already removed by jvmlog.c), also used for lines logged with
 * decorations "none".
 *
 * Formats mirror HotSpot's GCTraceTime end lines
 * "<title> (<cause>) A->B(C) d.dddms" (gc/shared/gcTraceTime.cpp), G1 pause
 * types (g1GCPauseType.hpp), Shenandoah pause titles (shenandoahUtils.cpp),
 * ZGC cycle and phase lines (zStat.cpp: "Garbage Collection (%s) %zuM(%.0f%%)->
 * %zuM(%.0f%%)", generational "%s (%s) ... %.3fs", "Pause Mark Start %.3fms",
 * "Allocation Stall (%s) %.3fms"), the gc,init block (gcInitLogger.cpp,
 * g1InitLogger.cpp) and G1 periodic GC (g1PeriodicGCTask.cpp). */
#include "jvmlog_internal.h"

#include "stwtop/util.h"

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

enum jl_tag jl_tag_kind(const char *s, size_t n)
{
	if (n >= 2 && s[0] == 'g' && s[1] == 'c') {
		if (n == 2)
			return JL_TAG_GC;
		if (s[2] != ',')
			return JL_TAG_OTHER;
		s += 3;
		n -= 3;
		if (JL_EQ(s, n, "phases"))
			return JL_TAG_GC_PHASES;
		if (JL_EQ(s, n, "heap"))
			return JL_TAG_GC_HEAP;
		if (JL_EQ(s, n, "init"))
			return JL_TAG_GC_INIT;
		if (JL_EQ(s, n, "periodic"))
			return JL_TAG_GC_PERIODIC;
		if (JL_EQ(s, n, "alloc"))
			return JL_TAG_GC_ALLOC;
		if (JL_EQ(s, n, "heap,exit"))
			return JL_TAG_GC_HEAP_EXIT;
		return JL_TAG_GC_SKIP;
	}
	if (JL_EQ(s, n, "safepoint"))
		return JL_TAG_SAFEPOINT;
	if (JL_EQ(s, n, "safepoint,stats"))
		return JL_TAG_SAFEPOINT_STATS;
	return JL_TAG_OTHER;
}

/* Append to a NUL-terminated fixed buffer (bounded; cuts silently). */
static void cat(char *dst, size_t cap, const char *s, size_t n)
{
	size_t have = strnlen(dst, cap);
	if (have + 1 >= cap)
		return;
	util_strlcpy_n(dst + have, cap - have, s, n);
}

#define CAT_LIT(dst, lit) cat((dst), sizeof(dst), (lit), sizeof(lit) - 1)

static bool g1_young_type(const char *s, size_t n, struct event *e)
{
	if (JL_EQ(s, n, "Normal")) {
		e->u.pause.type = PAUSE_YOUNG;
	} else if (JL_EQ(s, n, "Concurrent Start")) {
		e->u.pause.type = PAUSE_YOUNG;
		e->u.pause.flags |= PAUSE_F_CONC_START;
	} else if (JL_EQ(s, n, "Prepare Mixed")) {
		e->u.pause.type = PAUSE_YOUNG;
		e->u.pause.flags |= PAUSE_F_PREP_MIXED;
	} else if (JL_EQ(s, n, "Mixed")) {
		e->u.pause.type = PAUSE_MIXED;
	} else {
		return false;
	}
	return true;
}

void jl_pause_title(struct jvmlog *p, const char *s, size_t n, struct event *e)
{
	struct ev_pause *ps = &e->u.pause;
	const char *base, *grp[6];
	size_t base_n, grp_n[6], ng = 0, i;
	enum { T_CAUSE, T_ALL, T_G1YOUNG } style = T_ALL;
	int coll = p->collector;

	if (!JL_STARTS(s, n, "Pause ")) {
		util_strlcpy_n(ps->title, sizeof ps->title, s, n);
		return;
	}
	base = s + 6;
	i = 6;
	while (i < n && !(s[i] == ' ' && i + 1 < n && s[i + 1] == '('))
		i++;
	base_n = (size_t)(s + i - base);
	while (i < n && ng < 6) {
		size_t k;
		if (s[i] == ' ')
			i++;
		k = jl_paren_len(s + i, n - i);
		if (!k)
			break;
		if (JL_STARTS(s + i + 1, k - 2, "Evacuation Failure")) {
			ps->flags |= PAUSE_F_EVAC_FAIL; /* JDK 17+: "(Evacuation Failure[: ...])" */
		} else {
			grp[ng] = s + i + 1;
			grp_n[ng++] = k - 2;
		}
		i += k;
	}

	ps->type = PAUSE_OTHER;
	if (JL_EQ(base, base_n, "Young")) {
		style = T_CAUSE;
		ps->type = PAUSE_YOUNG;
		if (ng >= 1 && g1_young_type(grp[0], grp_n[0], e)) {
			style = T_G1YOUNG; /* G1 JDK 11+: (type) (cause) */
			coll = GC_G1;
		}
	} else if (JL_EQ(base, base_n, "Full")) {
		style = T_CAUSE;
		ps->type = PAUSE_FULL;
	} else if (JL_EQ(base, base_n, "Mixed")) { /* G1 JDK 9/10 */
		style = T_CAUSE;
		ps->type = PAUSE_MIXED;
		coll = GC_G1;
	} else if (JL_EQ(base, base_n, "Initial Mark")) {
		style = T_CAUSE;
		if (coll == GC_CMS) {
			ps->type = PAUSE_INIT_MARK;
		} else { /* G1 JDK 9/10: the concurrent-start young pause */
			ps->type = PAUSE_YOUNG;
			ps->flags |= PAUSE_F_CONC_START;
			coll = GC_G1;
		}
	} else if (JL_EQ(base, base_n, "Remark")) {
		ps->type = PAUSE_REMARK;
		if (coll != GC_CMS)
			coll = GC_G1;
	} else if (JL_EQ(base, base_n, "Cleanup")) {
		ps->type = PAUSE_CLEANUP;
		coll = GC_G1;
	} else if (JL_EQ(base, base_n, "Init Mark")) {
		ps->type = PAUSE_INIT_MARK;
		coll = GC_SHENANDOAH;
	} else if (JL_EQ(base, base_n, "Final Mark")) {
		ps->type = PAUSE_REMARK;
		coll = GC_SHENANDOAH;
	} else if (JL_EQ(base, base_n, "Degenerated GC")) {
		ps->type = PAUSE_DEGENERATED;
		coll = GC_SHENANDOAH;
	} else if (JL_EQ(base, base_n, "Init Update Refs") || JL_EQ(base, base_n, "Final Update Refs") ||
		   JL_EQ(base, base_n, "Final Evac") || JL_EQ(base, base_n, "Init Evac") ||
		   JL_EQ(base, base_n, "Final Roots") || JL_EQ(base, base_n, "Init Mark Start Evac")) {
		ps->type = PAUSE_RELOCATE;
		coll = GC_SHENANDOAH;
	} else if (JL_EQ(base, base_n, "Mark Start")) {
		ps->type = PAUSE_INIT_MARK;
		ps->flags |= PAUSE_F_PHASE;
		coll = GC_ZGC;
	} else if (JL_EQ(base, base_n, "Mark End")) {
		ps->type = PAUSE_REMARK;
		ps->flags |= PAUSE_F_PHASE;
		coll = GC_ZGC;
	} else if (JL_EQ(base, base_n, "Relocate Start")) {
		ps->type = PAUSE_RELOCATE;
		ps->flags |= PAUSE_F_PHASE;
		coll = GC_ZGC;
	}
	ps->collector = (uint8_t)coll;

	ps->title[0] = '\0';
	CAT_LIT(ps->title, "Pause ");
	cat(ps->title, sizeof ps->title, base, base_n);
	if (style == T_G1YOUNG) {
		CAT_LIT(ps->title, " (");
		cat(ps->title, sizeof ps->title, grp[0], grp_n[0]);
		CAT_LIT(ps->title, ")");
		if (ng >= 2)
			util_strlcpy_n(ps->cause, sizeof ps->cause, grp[1], grp_n[1]);
	} else if (style == T_CAUSE) {
		if (ng >= 1)
			util_strlcpy_n(ps->cause, sizeof ps->cause, grp[0], grp_n[0]);
	} else {
		for (size_t g = 0; g < ng; g++) {
			CAT_LIT(ps->title, " (");
			cat(ps->title, sizeof ps->title, grp[g], grp_n[g]);
			CAT_LIT(ps->title, ")");
		}
	}
	ps->flags |= jl_cause_flags(ps->cause, strlen(ps->cause));
}

/* Number just before s[end] going backwards ("3.043" of "... 3.043ms"): its start. */
static size_t num_start(const char *s, size_t end)
{
	size_t j = end;
	while (j > 0 && (is_digit(s[j - 1]) || s[j - 1] == '.' || s[j - 1] == ','))
		j--;
	return j;
}

int jl_pause_summary(struct jvmlog *p, const char *m, size_t n, int64_t gc_id, bool phase_tag,
		     struct jl_out *o)
{
	size_t e, j, t_end, tok;
	double dur;
	int64_t b, a, c;
	struct event *ev;

	if (JL_ENDS(m, n, "ms") && n >= 3 && is_digit(m[n - 3])) {
		/* unified: "... 3.043ms" */
		j = num_start(m, n - 2);
		if (j == 0 || m[j - 1] != ' ')
			return 0;
		e = j - 1;
	} else if (JL_ENDS(m, n, " ms]") && n >= 5 && is_digit(m[n - 5])) {
		/* JDK 8 Shenandoah: "Pause Init Mark, 0.677 ms]" */
		j = num_start(m, n - 4);
		if (j < 2 || m[j - 1] != ' ' || m[j - 2] != ',')
			return 0;
		e = j - 2;
	} else {
		return 0; /* a start line ("gc,start") or something else */
	}
	if (util_parse_double_inl(m + j, n - j, true, &dur) == 0)
		return 0;
	if (!p || !o)
		return 1;
	ev = jl_push(o, EV_GC_PAUSE);
	if (!ev)
		return 1;
	ev->u.pause.gc_id = gc_id;
	ev->u.pause.dur_ms = jl_ms(dur);
	t_end = e;
	tok = e;
	while (tok > 0 && m[tok - 1] != ' ')
		tok--;
	if (tok > 0 && e - tok >= 6 && m[e - 1] == ')' &&
	    jl_parse_heap(m + tok, e - tok, &b, &a, &c) == e - tok) {
		ev->u.pause.before_kb = b;
		ev->u.pause.after_kb = a;
		ev->u.pause.committed_kb = c;
		ev->u.pause.flags |= PAUSE_F_HEAP;
		t_end = tok - 1;
	}
	jl_pause_title(p, m, t_end, ev);
	if (phase_tag)
		ev->u.pause.flags |= PAUSE_F_PHASE;
	if (gc_id >= 0 && gc_id == p->evac_fail_gc_id)
		ev->u.pause.flags |= PAUSE_F_EVAC_FAIL; /* "GC(n) To-space exhausted" before */
	if (p->collector == GC_UNKNOWN && ev->u.pause.collector != GC_UNKNOWN)
		jl_set_collector(p, ev->u.pause.collector, NULL, NULL, 0);
	if (ev->u.pause.collector == GC_UNKNOWN)
		ev->u.pause.collector = (uint8_t)p->collector;
	return 1;
}


/* A size, and the parenthesised share that may follow it ("512M(25%)", ZGC's
 * "Mark Start" columns): the length read, 0 when it is not one */
static size_t size_and_share(const char *s, size_t n, double *kb)
{
	size_t k = jl_parse_size_kb(s, n, kb);
	if (!k)
		return 0;
	if (k < n && s[k] == '(') {
		size_t q = jl_paren_len(s + k, n - k);
		if (!q)
			return 0;
		k += q;
	}
	return k;
}

/* ZGC "Garbage Collection (Warmup) 10M(10%)->8M(8%)[ 0.010s]", generational
 * "Major Collection (Warmup) 30M(31%)->26M(27%) 0.036s" / "Minor Collection ...". */
static int zgc_cycle(struct jvmlog *p, const char *m, size_t n, int64_t gc_id, struct jl_out *o)
{
	size_t i = 0, k, title_n;
	const char *cause = NULL;
	size_t cause_n = 0;
	double bkb, akb, d;
	struct event *e;

	while (i < n && m[i] != '(')
		i++;
	if (i < 2 || i >= n || m[i - 1] != ' ')
		return 0;
	title_n = i - 1;
	k = jl_paren_len(m + i, n - i);
	if (!k)
		return 0;
	cause = m + i + 1;
	cause_n = k - 2;
	i += k;
	if (i >= n || m[i] != ' ')
		return 1; /* the start line: "Garbage Collection (Warmup)" */
	i++;
	if (JL_STARTS(m + i, n - i, "Aborted")) {
		/* a cycle cut short (at exit): still a cycle, without heap numbers */
		e = jl_push(o, EV_GC_CYCLE);
		if (e) {
			e->u.cycle.gc_id = gc_id;
			e->u.cycle.collector = GC_ZGC;
			util_strlcpy_n(e->u.cycle.title, sizeof e->u.cycle.title, m, title_n);
			util_strlcpy_n(e->u.cycle.cause, sizeof e->u.cycle.cause, cause, cause_n);
		}
		return 1;
	}
	/* "A(B)->C(D)": before and after, each with its share in parentheses */
	k = size_and_share(m + i, n - i, &bkb);
	if (!k)
		return 1;
	i += k;
	if (!JL_STARTS(m + i, n - i, "->"))
		return 1;
	i += 2;
	k = size_and_share(m + i, n - i, &akb);
	if (!k)
		return 1;
	i += k;
	e = jl_push(o, EV_GC_CYCLE);
	if (!e)
		return 1;
	e->u.cycle.gc_id = gc_id;
	e->u.cycle.before_kb = jl_kb(bkb);
	e->u.cycle.after_kb = jl_kb(akb);
	e->u.cycle.collector = GC_ZGC;
	util_strlcpy_n(e->u.cycle.title, sizeof e->u.cycle.title, m, title_n);
	util_strlcpy_n(e->u.cycle.cause, sizeof e->u.cycle.cause, cause, cause_n);
	if (i < n && m[i] == ' ') {
		k = util_parse_double_inl(m + i + 1, n - i - 1, true, &d);
		if (k && JL_EQ(m + i + 1 + k, n - i - 1 - k, "s"))
			e->u.cycle.dur_ms = jl_ms(d * 1000.0); /* generational ZGC prints seconds */
		else if (k && JL_EQ(m + i + 1 + k, n - i - 1 - k, "ms"))
			e->u.cycle.dur_ms = jl_ms(d);
	}
	if (gc_id >= 0 && gc_id == p->zcap_gc_id)
		e->u.cycle.committed_kb = p->zcap_kb;
	if (p->collector == GC_UNKNOWN)
		jl_set_collector(p, GC_ZGC, NULL, NULL, 0);
	if (title_n == 16 && (m[0] == 'M'))
		jl_infer_release(p, 21); /* Major/Minor Collection: generational ZGC */
	return 1;
}

/* ZGC heap table row " Capacity:  96M (100%)  96M (100%) ..." in the columns
 * Mark Start, Mark End, Relocate Start, Relocate End, High, Low: the committed
 * heap after the cycle is the Relocate End column. */
static void zgc_capacity(struct jvmlog *p, const char *m, size_t n, int64_t gc_id)
{
	size_t i = 0, k;
	int col = 0;
	double kb, last = -1;
	i = jl_skip_ws(m, n, i);
	if (!JL_STARTS(m + i, n - i, "Capacity:"))
		return;
	i += 9;
	while (i < n && col < 4) {
		i = jl_skip_ws(m, n, i);
		k = jl_parse_size_kb(m + i, n - i, &kb);
		if (!k)
			break;
		i += k;
		last = kb;
		col++;
		i = jl_skip_ws(m, n, i);
		if (i < n && m[i] == '(') {
			k = jl_paren_len(m + i, n - i);
			if (!k)
				break;
			i += k;
		}
	}
	if (last >= 0) {
		p->zcap_gc_id = gc_id;
		p->zcap_kb = jl_kb(last);
	}
}

/* "Allocation Stall (http-nio-8080-exec-7) 12.345ms"; names may hold spaces. */
static int alloc_stall(const char *m, size_t n, struct jl_out *o)
{
	size_t j;
	double d;
	struct event *e;
	if (!JL_STARTS(m, n, "Allocation Stall (") || !JL_ENDS(m, n, "ms") || n < 22)
		return 0;
	j = num_start(m, n - 2);
	if (j < 20 || j == n - 2 || m[j - 1] != ' ' || m[j - 2] != ')')
		return 0;
	if (util_parse_double_inl(m + j, n - 2 - j, true, &d) == 0)
		return 0;
	e = jl_push(o, EV_ALLOC_STALL);
	if (!e)
		return 1;
	e->u.stall.dur_ms = jl_ms(d);
	util_strlcpy_n(e->u.stall.thread, sizeof e->u.stall.thread, m + 18, j - 2 - 18);
	return 1;
}

/* "... <n>ms ..." after a literal: the number */
static bool num_after(const char *m, size_t n, const char *lit, double *v)
{
	const char *f = jl_find(m, n, lit, strlen(lit));
	size_t off, k;
	if (!f)
		return false;
	off = (size_t)(f - m) + strlen(lit);
	k = util_parse_double_inl(m + off, n - off, false, v);
	return k > 0;
}

static int periodic_skip(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	struct event *e;
	double a, b;
	if (!JL_ENDS(m, n, "Skipping."))
		return JL_EQ(m, n, "Checking for periodic GC.");
	e = jl_push(o, EV_PERIODIC_SKIP);
	if (!e)
		return 1;
	if (JL_STARTS(m, n, "Last GC occurred ") || JL_STARTS(m, n, "Last whole heap GC occurred ")) {
		bool whole = m[5] == 'w';
		e->u.pskip.reason = whole ? PSKIP_LAST_WHOLE_GC : PSKIP_LAST_GC;
		if (whole)
			jl_infer_release(p, 23); /* JDK-8317755 reworded it in JDK 23 */
		if (num_after(m, n, "occurred ", &a))
			e->u.pskip.last_gc_ms = jl_i64(a);
		if (num_after(m, n, "threshold ", &b))
			e->u.pskip.threshold_ms = jl_i64(b);
	} else if (JL_STARTS(m, n, "Load ")) {
		e->u.pskip.reason = PSKIP_LOAD;
		if (num_after(m, n, "Load ", &a))
			e->u.pskip.load = a;
		if (num_after(m, n, "threshold ", &b))
			e->u.pskip.load_threshold = b;
	} else if (JL_STARTS(m, n, "Concurrent cycle in progress")) {
		e->u.pskip.reason = PSKIP_CONCURRENT;
	} else if (JL_STARTS(m, n, "GC request denied")) {
		e->u.pskip.reason = PSKIP_DENIED;
	}
	/* an unknown wording still counts as a skip (reason 0) */
	return 1;
}

static struct event *info(struct jl_out *o, int key)
{
	struct event *e = jl_push(o, EV_JVM_INFO);
	if (e)
		e->u.info.key = key;
	return e;
}

/* "8M", "1G", "378M" -> bytes */
static bool size_bytes(const char *s, size_t n, int64_t *bytes)
{
	double kb;
	size_t k = jl_parse_size_kb(s, n, &kb);
	if (!k || k != n)
		return false;
	*bytes = jl_i64(kb * 1024.0);
	return true;
}

static int using_collector(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	static const struct { const char *name; int c; } names[] = {
		{ "G1", GC_G1 }, { "Parallel", GC_PARALLEL }, { "Serial", GC_SERIAL },
		{ "Shenandoah", GC_SHENANDOAH }, { "The Z Garbage Collector", GC_ZGC },
		{ "Concurrent Mark Sweep", GC_CMS }, { "Epsilon", GC_EPSILON },
	};
	const char *s = m + 6;
	size_t k = n - 6;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strlen(names[i].name) == k && memcmp(names[i].name, s, k) == 0) {
			jl_set_collector(p, names[i].c, o, s, k);
			return 1;
		}
	}
	return 0;
}

int jl_info_message(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	struct event *e;
	int64_t v;
	uint64_t a, b;
	size_t k;

	if (JL_STARTS(m, n, "Using "))
		return using_collector(p, m, n, o);
	if (JL_STARTS(m, n, "Version: ")) {
		/* "Version: 17.0.15+6-Debian-1deb12u1 (release)" */
		const char *s = m + 9;
		size_t sn = n - 9;
		const char *sp = memchr(s, ' ', sn);
		/* "<version> (release)": an application's "Version: 1.2" is not the JVM's */
		if (!sp || !JL_ENDS(m, n, ")") || sp[1] != '(')
			return 0;
		sn = (size_t)(sp - s);
		e = info(o, JI_VERSION);
		p->release = jl_feature_release(s, sn);
		p->release_explicit = p->release > 0;
		if (e) {
			util_strlcpy_n(e->u.info.text, sizeof e->u.info.text, s, sn);
			e->u.info.a = p->release;
		}
		return 1;
	}
	if (JL_STARTS(m, n, "CPUs: ")) {
		/* "CPUs: 2 total, 1 available" */
		k = util_parse_u64(m + 6, n - 6, &a);
		if (!k || !JL_STARTS(m + 6 + k, n - 6 - k, " total, "))
			return 0;
		k += 6 + 8;
		if (!util_parse_u64(m + k, n - k, &b))
			return 0;
		e = info(o, JI_CPUS);
		if (e) {
			e->u.info.a = (int64_t)(a & INT64_MAX);
			e->u.info.b = (int64_t)(b & INT64_MAX);
		}
		return 1;
	}
	{
		static const struct { const char *lit; int key; } caps[] = {
			{ "Heap Min Capacity: ", JI_HEAP_MIN }, { "Heap Initial Capacity: ", JI_HEAP_INITIAL },
			{ "Heap Max Capacity: ", JI_HEAP_MAX }, { "Min Capacity: ", JI_HEAP_MIN },
			{ "Initial Capacity: ", JI_HEAP_INITIAL }, { "Max Capacity: ", JI_HEAP_MAX },
			{ "Memory: ", JI_MEMORY }, /* what the JVM sees: the container's limit or the machine */
		};
		for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
			size_t l = strlen(caps[i].lit);
			if (n > l && memcmp(m, caps[i].lit, l) == 0) {
				if (!size_bytes(m + l, n - l, &v))
					return 0;
				if ((e = info(o, caps[i].key)))
					e->u.info.a = v;
				return 1;
			}
		}
	}
	if (JL_STARTS(m, n, "Periodic GC")) {
		double ms;
		if (JL_EQ(m, n, "Periodic GC: Disabled") || JL_EQ(m, n, "Periodic GC disabled")) {
			if ((e = info(o, JI_PERIODIC_GC)))
				e->u.info.a = 0;
		} else if (num_after(m, n, "Interval: ", &ms) ||
			   num_after(m, n, "enabled with interval ", &ms)) {
			if (m[12] == 'e')
				jl_infer_release(p, 12); /* JDK 12-15 wording */
			if ((e = info(o, JI_PERIODIC_GC)))
				e->u.info.a = jl_i64(ms);
		} else if (!JL_EQ(m, n, "Periodic GC: Enabled")) {
			return 0;
		}
		return 1;
	}
	if (JL_EQ(m, n, "Initializing The Z Garbage Collector")) {
		jl_set_collector(p, GC_ZGC, NULL, NULL, 0);
		return 1;
	}
	return 0;
}

/* No "Using ..." line seen (a log that starts after it): the generation names
 * of the gc,heap lines tell the collector. */
static void heap_collector(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	int c = GC_UNKNOWN;
	if (JL_STARTS(m, n, "PSYoungGen:"))
		c = GC_PARALLEL;
	else if (JL_STARTS(m, n, "DefNew:"))
		c = GC_SERIAL;
	else if (JL_STARTS(m, n, "ParNew:"))
		c = GC_CMS;
	else if (JL_STARTS(m, n, "Eden regions:"))
		c = GC_G1;
	if (c != GC_UNKNOWN)
		jl_set_collector(p, c, o, NULL, 0);
}

/* Message of a line tagged [gc] (or untagged): after "GC(n) ". */
static int gc_message(struct jvmlog *p, const char *m, size_t n, int64_t id, struct jl_out *o)
{
	double d;
	size_t j;
	struct event *e;

	if (n < 2)
		return 0;
	switch (m[0]) {
	case 'P':
		if (JL_STARTS(m, n, "Pause "))
			return jl_pause_summary(p, m, n, id, false, o) || 1;
		if (JL_STARTS(m, n, "Periodic GC"))
			return jl_info_message(p, m, n, o);
		break;
	case 'G':
		if (JL_STARTS(m, n, "Garbage Collection ("))
			return zgc_cycle(p, m, n, id, o);
		if (JL_STARTS(m, n, "GC(")) /* never nested; defensive */
			return 0;
		break;
	case 'M':
		if (JL_STARTS(m, n, "Major Collection (") || JL_STARTS(m, n, "Minor Collection ("))
			return zgc_cycle(p, m, n, id, o);
		break;
	case 'A':
		if (JL_STARTS(m, n, "Allocation Stall ("))
			return alloc_stall(m, n, o);
		break;
	case 'U':
		if (JL_STARTS(m, n, "Using "))
			return using_collector(p, m, n, o);
		break;
	case 'T':
		if (JL_EQ(m, n, "To-space exhausted")) {
			p->evac_fail_gc_id = id;
			return 1;
		}
		break;
	case 'C':
		/* G1 "Concurrent Cycle 1139.888ms" / "Concurrent Mark Cycle ...": a cycle
		 * summary without heap; Shenandoah "Concurrent cleanup A->B(C) 0.022ms"
		 * carries the heap after the cycle. */
		if ((JL_STARTS(m, n, "Concurrent Cycle ") || JL_STARTS(m, n, "Concurrent Mark Cycle ") ||
		     JL_STARTS(m, n, "Concurrent cleanup ")) &&
		    JL_ENDS(m, n, "ms") && n > 4 && is_digit(m[n - 3])) {
			j = num_start(m, n - 2);
			if (j == 0 || m[j - 1] != ' ' || !util_parse_double_inl(m + j, n - 2 - j, true, &d))
				return 1;
			if (!(e = jl_push(o, EV_GC_CYCLE)))
				return 1;
			e->u.cycle.gc_id = id;
			e->u.cycle.dur_ms = jl_ms(d);
			if (m[11] == 'c') {
				size_t tok = j - 1;
				while (tok > 0 && m[tok - 1] != ' ')
					tok--;
				jl_parse_heap(m + tok, j - 1 - tok, &e->u.cycle.before_kb,
					      &e->u.cycle.after_kb, &e->u.cycle.committed_kb);
				e->u.cycle.collector = GC_SHENANDOAH;
				util_strlcpy_n(e->u.cycle.title, sizeof e->u.cycle.title, m, 18);
			} else {
				e->u.cycle.collector = GC_G1;
				util_strlcpy_n(e->u.cycle.title, sizeof e->u.cycle.title, m,
					       m[11] == 'C' ? 16 : 21);
			}
			return 1;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* A message with no tags decoration (or decorations "none"): try every kind. */
static int untagged(struct jvmlog *p, const char *m, size_t n, struct jl_out *o)
{
	int64_t id = -1;
	size_t i = jl_parse_gc_id(m, n, &id);
	const char *g = m + i;
	size_t gn = n - i;
	struct event ev;

	if (i) {
		/* generational ZGC sub-lines "y: ..." / "O: ..." */
		if (gn >= 3 && g[1] == ':' && g[2] == ' ' &&
		    (g[0] == 'y' || g[0] == 'Y' || g[0] == 'o' || g[0] == 'O')) {
			if (JL_STARTS(g + 3, gn - 3, "Pause "))
				jl_pause_summary(p, g + 3, gn - 3, id, true, o);
			else
				zgc_capacity(p, g + 3, gn - 3, id);
			return 1;
		}
		if (!gc_message(p, g, gn, id, o))
			zgc_capacity(p, g, gn, id);
		return 1; /* "GC(n) ..." is always the JVM's */
	}
	if (jl_report_shape(m, n) && jl_report_line(p, m, n, o))
		return 1;
	if (JL_STARTS(m, n, "Safepoint \""))
		return jl_sp_unified(p, m, n, o);
	if (JL_STARTS(m, n, JL_SP_STOPPED)) {
		if (!jl_sp_stopped(p, m, n, o, NULL))
			return 0;
		jl_infer_release(p, 9);
		return 1;
	}
	if (JL_STARTS(m, n, "Entering safepoint region: ")) {
		util_strlcpy_n(p->sp_op, sizeof p->sp_op, m + 27, n - 27);
		return 1;
	}
	if (JL_EQ(m, n, "Leaving safepoint region") || JL_STARTS(m, n, "Application time: "))
		return 1;
	if (JL_STARTS(m, n, "VM Operation ") && JL_FIND(m, n, "[ threads:"))
		return 1;
	if (jl_sp_stats_row(m, n, false, &ev)) {
		ev.t_ms = o->t_ms;
		ev.up_us = o->up_us;
		jl_push_copy(o, &ev);
		return 1;
	}
	if (JL_ENDS(m, n, "Skipping.") || JL_EQ(m, n, "Checking for periodic GC."))
		return periodic_skip(p, m, n, o);
	if (gc_message(p, m, n, -1, o))
		return 1;
	return jl_info_message(p, m, n, o);
}

int jl_unified_message(struct jvmlog *p, enum jl_tag tag, const char *m, size_t n, struct jl_out *o)
{
	int64_t id = -1;
	size_t i;
	struct event ev;

	switch (tag) {
	case JL_TAG_NONE:
		return untagged(p, m, n, o);
	case JL_TAG_GC:
		i = jl_parse_gc_id(m, n, &id);
		gc_message(p, m + i, n - i, id, o);
		return 1;
	case JL_TAG_GC_INIT:
		jl_info_message(p, m, n, o);
		return 1;
	case JL_TAG_GC_PHASES:
	case JL_TAG_GC_HEAP:
		i = jl_parse_gc_id(m, n, &id);
		if (i + 3 <= n && m[i + 1] == ':' && m[i + 2] == ' ')
			i += 3;
		if (tag == JL_TAG_GC_PHASES) {
			if (JL_STARTS(m + i, n - i, "Pause "))
				jl_pause_summary(p, m + i, n - i, id, true, o);
		} else {
			zgc_capacity(p, m + i, n - i, id);
			if (p->collector == GC_UNKNOWN)
				heap_collector(p, m + i, n - i, o);
		}
		return 1;
	case JL_TAG_GC_PERIODIC:
		periodic_skip(p, m, n, o);
		return 1;
	case JL_TAG_GC_ALLOC:
		i = jl_parse_gc_id(m, n, &id);
		alloc_stall(m + i, n - i, o);
		return 1;
	case JL_TAG_GC_HEAP_EXIT:
		/* Universe::print_heap_at_exit / log_heap_on_exit: "Heap", then the
		 * heap; printed by a JVM on its way out (System.exit, end of main,
		 * SIGTERM), never by one that is killed or crashes */
		if (JL_EQ(m, n, "Heap"))
			info(o, JI_HEAP_AT_EXIT);
		return 1;
	case JL_TAG_SAFEPOINT:
		if (JL_STARTS(m, n, "Safepoint \"")) {
			jl_sp_unified(p, m, n, o);
		} else if (JL_STARTS(m, n, JL_SP_STOPPED)) {
			if (jl_sp_stopped(p, m, n, o, NULL))
				jl_infer_release(p, 9); /* removed by JDK-8219436 in JDK 13 */
		} else if (JL_STARTS(m, n, "Entering safepoint region: ")) {
			util_strlcpy_n(p->sp_op, sizeof p->sp_op, m + 27, n - 27);
		} else {
			jl_report_line(p, m, n, o);
		}
		return 1;
	case JL_TAG_SAFEPOINT_STATS:
		if (jl_sp_stats_row(m, n, false, &ev)) {
			/* JDK 17 prints the row just before the "Safepoint" line of the
			 * same safepoint: hold it so the two become one event */
			ev.t_ms = o->t_ms;
			ev.up_us = o->up_us;
			if (p->stats_pending)
				jl_push_copy(o, &p->stats_ev);
			p->stats_ev = ev;
			p->stats_pending = true;
		}
		return 1;
	default:
		return 1;
	}
}
