/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog_common.c — helpers every JVM log era parser uses (jvmlog.c's
 * unified decorations, jvmlog_unified.c, jvmlog_jdk8.c, jvmlog_safepoint.c):
 * event output, collector and release facts, and the number, size, heap and
 * bracket readers of HotSpot's printf formats. Numbers come from
 * untrusted lines, so every conversion here saturates instead of overflowing. */
#include "jvmlog_internal.h"

#include "stwtop/util.h"

void jl_push_copy(struct jl_out *o, const struct event *e)
{
	if (o->n >= o->cap)
		return;
	o->ev[o->n++] = *e;
}

void jl_set_collector(struct jvmlog *p, int c, struct jl_out *o, const char *name, size_t name_n)
{
	struct event *e;
	bool changed = p->collector != c;
	p->collector = c;
	/* An explicit "Using ..." line always reports; inferred ones only when new. */
	if (!name && !changed)
		return;
	e = o ? jl_push(o, EV_JVM_INFO) : NULL;
	if (!e)
		return;
	e->u.info.key = JI_COLLECTOR;
	e->u.info.a = c;
	if (name)
		util_strlcpy_n(e->u.info.text, sizeof e->u.info.text, name, name_n);
	else
		util_strlcpy_n(e->u.info.text, sizeof e->u.info.text, jvm_collector_name(c),
			       strlen(jvm_collector_name(c)));
}

int jl_feature_release(const char *s, size_t n)
{
	uint64_t a = 0, b = 0;
	size_t k = util_parse_u64(s, n, &a);
	if (k == 0 || a > 1000)
		return 0;
	if (a == 1 && k < n && s[k] == '.' && util_parse_u64(s + k + 1, n - k - 1, &b) > 0 && b < 100)
		return (int)b; /* "1.8.0_282" is 8 */
	return (int)a;
}

size_t jl_parse_size_kb(const char *s, size_t n, double *kb)
{
	double v;
	size_t k = util_parse_double_inl(s, n, false, &v);
	if (k == 0 || k >= n || s[0] == '-' || s[0] == '+')
		return 0;
	switch (s[k]) {
	case 'B': v /= 1024.0; break;
	case 'K': break;
	case 'M': v *= 1024.0; break;
	case 'G': v *= 1024.0 * 1024.0; break;
	case 'T': v *= 1024.0 * 1024.0 * 1024.0; break;
	default: return 0;
	}
	*kb = v;
	return k + 1;
}

int64_t jl_i64(double v)
{
	if (!(v > -9e18)) /* also NaN */
		return v != v ? 0 : (int64_t)-9e18;
	if (v >= 9e18)
		return (int64_t)9e18;
	return (int64_t)(v < 0 ? v - 0.5 : v + 0.5);
}

int64_t jl_kb(double kb)
{
	return kb > 9e15 ? INT64_MAX / 1024 : jl_i64(kb);
}

int64_t jl_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN + 1; /* never EV_TIME_NONE */
	return r;
}

size_t jl_parse_heap(const char *s, size_t n, int64_t *before, int64_t *after, int64_t *committed)
{
	double a, b, c;
	size_t i = 0, k;
	k = jl_parse_size_kb(s, n, &a);
	if (!k)
		return 0;
	i += k;
	if (i + 2 > n || s[i] != '-' || s[i + 1] != '>')
		return 0;
	i += 2;
	k = jl_parse_size_kb(s + i, n - i, &b);
	if (!k)
		return 0;
	i += k;
	if (i >= n || s[i] != '(')
		return 0;
	i++;
	k = jl_parse_size_kb(s + i, n - i, &c);
	if (!k)
		return 0;
	i += k;
	if (i >= n || s[i] != ')')
		return 0;
	*before = jl_kb(a);
	*after = jl_kb(b);
	*committed = jl_kb(c);
	return i + 1;
}

size_t jl_parse_gc_id(const char *s, size_t n, int64_t *id)
{
	uint64_t v;
	size_t k;
	if (!JL_STARTS(s, n, "GC("))
		return 0;
	k = util_parse_u64(s + 3, n - 3, &v);
	if (!k || 3 + k >= n || s[3 + k] != ')' || v > INT64_MAX)
		return 0;
	*id = (int64_t)v;
	k += 4;
	if (k < n && s[k] == ' ')
		k++;
	return k;
}

size_t jl_paren_len(const char *s, size_t n)
{
	int depth = 0;
	if (n == 0 || s[0] != '(')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			return i + 1;
	}
	return 0;
}

uint16_t jl_cause_flags(const char *s, size_t n)
{
	if (JL_EQ(s, n, "G1 Periodic Collection"))
		return PAUSE_F_PERIODIC;
	/* collections somebody asked for: the application, jcmd, jmap, an agent */
	if (JL_EQ(s, n, "System.gc()") || JL_EQ(s, n, "Diagnostic Command") ||
	    JL_EQ(s, n, "Heap Dump Initiated GC") || JL_EQ(s, n, "Heap Inspection Initiated GC") ||
	    JL_EQ(s, n, "JvmtiEnv ForceGarbageCollection"))
		return PAUSE_F_SYSTEM_GC;
	return 0;
}

static bool has(const char *s, size_t n, const char *lit)
{
	return jl_find(s, n, lit, strlen(lit)) != NULL;
}

const char *jvmlog_foreign_shape(const char *s, size_t n)
{
	if (n >= 4 && memcmp(s, "\x7f" "ELF", 4) == 0)
		return "an executable (ELF), not a log";
	size_t ctl = 0;
	for (size_t i = 0; i < n; i++)
		ctl += ((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f;
	if (n > 0 && (memchr(s, 0, n) || ctl * 10 > n))
		return "binary data, not a text log";
	size_t i = jl_skip_ws(s, n, 0);
	if (i < n && s[i] == '<' &&
	    (has(s + i, n - i, "<verbosegc") || has(s + i, n - i, "<exclusive-start") || has(s + i, n - i, "<af-start") ||
	     has(s + i, n - i, "<gc-start") || has(s + i, n - i, "<cycle-start") || has(s + i, n - i, "<gc-op") ||
	     has(s + i, n - i, "<concurrent-kickoff") || has(s + i, n - i, "<allocation-stats") ||
	     has(s + i, n - i, "<mem-info") || has(s + i, n - i, "<?xml")))
		return "an OpenJ9 / IBM J9 verbose GC log (XML)";
	if (has(s, n, "[memory ]") || has(s, n, "[INFO ][memory ]"))
		return "JRockit -Xverbose:memory output";
	/* GODEBUG=gctrace=1: "gc 1 @0.012s 2%: 0.011+0.35+0.003 ms clock, ..." */
	if (n > 5 && memcmp(s, "gc ", 3) == 0 && s[3] >= '0' && s[3] <= '9' && has(s, n, " @") && has(s, n, "%: "))
		return "a Go runtime GC trace (GODEBUG=gctrace=1), not a JVM log";
	return NULL;
}
