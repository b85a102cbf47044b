/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvm.c — whole-run JVM verdicts (rules_internal.h): serial-gc-selected (the
 * collector ergonomics picked, and why), zgc-allocation-stall, and
 * aot-sigill-adapter (a crash report of a JDK 24/25 AOT cache). */
#include "rules_internal.h"

#include "stwtop/fmt.h"

/* zgc-allocation-stall's state: the stalls and the ZGC cycles they started */
struct zgc_state {
	uint64_t stalls;
	double stall_max_ms, stall_sum_ms;
	int64_t stall_first_ms, stall_last_ms, stall_max_at;
	char stall_max_thread[40];
	char stall_threads[120];
	uint16_t stall_first_src, stall_max_src;
	uint64_t stall_first_line, stall_max_line;
	uint64_t stall_cycles, cycles;
};

static const struct rule_state_type zgc_state_type = {sizeof(struct zgc_state), NULL};

static inline struct zgc_state *zgc_st(const struct rules *r)
{
	return rl_state(r, V_ZGC_STALL);
}

static void on_stall(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_alloc_stall *s = &e->u.stall;
	if (zgc_st(r)->stalls == 0) {
		zgc_st(r)->stall_first_ms = e->t_ms;
		zgc_st(r)->stall_first_src = e->src;
		zgc_st(r)->stall_first_line = e->line;
	}
	zgc_st(r)->stalls++;
	zgc_st(r)->stall_sum_ms += s->dur_ms;
	zgc_st(r)->stall_last_ms = e->t_ms;
	if (s->dur_ms > zgc_st(r)->stall_max_ms) {
		zgc_st(r)->stall_max_ms = s->dur_ms;
		zgc_st(r)->stall_max_at = e->t_ms;
		zgc_st(r)->stall_max_src = e->src;
		zgc_st(r)->stall_max_line = e->line;
		memcpy(zgc_st(r)->stall_max_thread, s->thread, sizeof zgc_st(r)->stall_max_thread);
	}
	if (s->thread[0] && !strstr(zgc_st(r)->stall_threads, s->thread) &&
	    strlen(zgc_st(r)->stall_threads) + strlen(s->thread) + 3 < sizeof zgc_st(r)->stall_threads) {
		if (zgc_st(r)->stall_threads[0])
			strcat(zgc_st(r)->stall_threads, ", ");
		strcat(zgc_st(r)->stall_threads, s->thread);
	}
	/* one verdict, refreshed at most every 64 stalls after the first few, so a
	 * storm of stalls does not become a storm of updates */
	if (zgc_st(r)->stalls > 8 && (zgc_st(r)->stalls & 63) != 0)
		return;
	(void)c;
}

static void zgc_stall_verdict(struct rules *r, const struct rules_ctx *c)
{
	if (zgc_st(r)->stalls == 0)
		return;
	const struct summary *s = c->sum;
	struct vdraft v;
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	vinit(&v, V_ZGC_STALL, 0, zgc_st(r)->stall_max_ms >= r->cfg.stall_crit_ms ? SEV_CRIT : SEV_WARN);
	v.start_ms = zgc_st(r)->stall_first_ms;
	v.end_ms = zgc_st(r)->stall_last_ms;
	v.jump_ms = zgc_st(r)->stall_max_at;
	vtitle(&v, "ZGC stalled allocating threads %llu times (max %.1f ms, %.0f ms in all): the heap "
	       "could not grow or be freed fast enough", (unsigned long long)zgc_st(r)->stalls, zgc_st(r)->stall_max_ms,
	       zgc_st(r)->stall_sum_ms);
	vevid(&v, "%s:%llu %s first Allocation Stall", rl_sname(c, zgc_st(r)->stall_first_src),
	      (unsigned long long)zgc_st(r)->stall_first_line, rl_hms(r, zgc_st(r)->stall_first_ms, t1));
	vevid(&v, "%s:%llu %s longest: Allocation Stall (%s) %.3f ms", rl_sname(c, zgc_st(r)->stall_max_src),
	      (unsigned long long)zgc_st(r)->stall_max_line, rl_hms(r, zgc_st(r)->stall_max_at, t2), zgc_st(r)->stall_max_thread,
	      zgc_st(r)->stall_max_ms);
	if (zgc_st(r)->stall_threads[0])
		vevid(&v, "threads that stalled: %s", zgc_st(r)->stall_threads);
	if (zgc_st(r)->cycles > 0)
		vevid(&v, "%llu of %llu ZGC cycles were started by Allocation Stall",
		      (unsigned long long)zgc_st(r)->stall_cycles, (unsigned long long)zgc_st(r)->cycles);
	if (s->heap_max_kb > 0)
		vevid(&v, "init: heap min %.0f MB, initial %.0f MB, max %.0f MB", s->heap_min_kb / 1024.0,
		      s->heap_initial_kb / 1024.0, s->heap_max_kb / 1024.0);
	vadvice(&v, "ZGC needs headroom: stalls mean allocation outran the concurrent collector. If they "
		"come in the first seconds, the heap is still growing: a larger pre-touched initial heap "
		"(-Xms close to -Xmx with -XX:+AlwaysPreTouch) starts slower (2G ~0.6 s, 20G ~5.7 s of "
		"pre-touch) but is warm at once; a small -Xms starts fast and warms up for tens of "
		"seconds. Otherwise raise -Xmx or reduce the allocation rate; newer JDKs grow the heap "
		"sooner (-XX:+ZAdaptiveHeapSizing, JEP 545).");
	rv_commit(r, &v);
}

static void aot_on_hserr(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_hserr *h = &e->u.hserr;
	if (strcmp(h->signal, "SIGILL") != 0 || !strstr(h->frame, "AdapterBlob"))
		return;
	struct vdraft v;
	char t[UTIL_HMS_LEN];
	vinit(&v, V_AOT_SIGILL, e->line, SEV_CRIT);
	v.start_ms = v.end_ms = v.jump_ms = e->t_ms;
	vtitle(&v, "The JVM crashed with SIGILL in %s: an AOT cache built on a CPU with more features",
	       h->frame);
	vevid(&v, "%s %s %s, problematic frame: %s", h->path[0] ? h->path : rl_sname(c, e->src),
	      rl_hms(r, e->t_ms, t), h->signal, h->frame);
	if (h->aot)
		vevid(&v, "the report mentions the AOT/code cache");
	vadvice(&v, "JDK 24/25 AOT caches (-XX:AOTCache) store adapters compiled for the CPU they were "
		"trained on (AVX-512, SVE); JDK 25 does not check CPU features. Recreate the cache with "
		"-XX:+UnlockDiagnosticVMOptions -XX:-AOTAdapterCaching (default from 25.0.5), train it on "
		"the production CPU type, or run without -XX:AOTCache until then.");
	rv_commit(r, &v);
}

static void serial_verdict(struct rules *r, const struct rules_ctx *c, bool with_long_pause,
			   const char *pause_note)
{
	const struct summary *s = c->sum;
	if (s->collector != GC_SERIAL)
		return;
	struct vdraft v;
	vinit(&v, V_SERIAL_GC, 0, with_long_pause ? SEV_WARN : SEV_INFO);
	v.start_ms = v.jump_ms = r->first_pause_ms;
	v.end_ms = r->last_pause_ms;
	vtitle(&v, "The JVM runs the Serial collector: every collection stops all threads and works on "
	       "one%s", with_long_pause ? ", and one of them was long" : "");
	vevid(&v, "gc: Using Serial");
	/* JDK 8-26 ergonomics pick Serial when the JVM sees 1 CPU or less than
	 * 1792 MB ("server class machine"). gc,init prints both (CPUs:, Memory:);
	 * a JDK 8 log has neither, and a small heap may just be -Xmx. */
	bool one_cpu = s->cpus_available == 1;
	bool small_mem = s->memory_kb > 0 && s->memory_kb < 1792LL * 1024;
	bool small_heap = s->heap_max_kb > 0 && s->heap_max_kb < 1792LL * 1024 / 4;
	if (s->cpus_total >= 0)
		vevid(&v, "init: CPUs: %d total, %d available", s->cpus_total, s->cpus_available);
	if (s->memory_kb > 0)
		vevid(&v, "init: Memory: %.0f MB (what the JVM sees: its container limit, or the machine)",
		      s->memory_kb / 1024.0);
	if (pause_note && pause_note[0])
		vevid(&v, "%s", pause_note);
	if (c->explicit_serial)
		vadvice(&v, "-XX:+UseSerialGC is set explicitly. ");
	else if (one_cpu)
		vadvice(&v, "The JVM sees 1 CPU (CPUs: %d total, 1 available: a CPU quota, cpuset or "
			"affinity), and with 1 CPU JDK ergonomics picks Serial unless a collector is set "
			"(JDK 8-26; JDK 27 picks G1 there). ", s->cpus_total);
	else if (small_mem)
		vadvice(&v, "The JVM sees %.0f MB of memory (a container memory limit under 1792 MB), and "
			"then JDK ergonomics picks Serial unless a collector is set (JDK 8-26). ",
			s->memory_kb / 1024.0);
	else if (s->memory_kb > 0 && s->cpus_available >= 2)
		vadvice(&v, "The JVM sees %d CPUs and %.0f MB, where ergonomics would pick G1: Serial was "
			"chosen explicitly (-XX:+UseSerialGC). ", s->cpus_available, s->memory_kb / 1024.0);
	else if (small_heap && s->cpus_available >= 2)
		vadvice(&v, "With %d CPUs available, Serial comes either from -XX:+UseSerialGC or from "
			"ergonomics seeing less than 1792 MB of memory (a container memory limit; the "
			"%.0f MB max heap fits both). ", s->cpus_available, s->heap_max_kb / 1024.0);
	else if (s->cpus_available >= 2)
		vadvice(&v, "With %d CPUs available ergonomics would pick G1, so Serial was chosen "
			"explicitly (-XX:+UseSerialGC). ", s->cpus_available);
	vadvice(&v, "Use -XX:+UseG1GC (or -XX:+UseParallelGC for throughput) and give the container at "
		"least 2 CPUs and 1792 MB so every collection is parallel.");
	rv_commit(r, &v);
}


/* zgc-allocation-stall keeps the stalls and the ZGC cycles they started */
static void zgc_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	if (e->kind == EV_ALLOC_STALL) {
		on_stall(r, c, e);
	} else if (e->kind == EV_GC_CYCLE) {
		zgc_st(r)->cycles++;
		if (strcmp(e->u.cycle.cause, "Allocation Stall") == 0)
			zgc_st(r)->stall_cycles++;
	}
}

static void jvm_refresh_serial(struct rules *r, const struct rules_ctx *c, bool all)
{
	/* A JDK 5-7 CMS JVM with ParNew off scavenges with DefNew like Serial:
	 * the first pauses read as Serial until a CMS phase shows (jvmlog_jdk8.c
	 * g8_inner() then reports the collector again) */
	if (c->sum->collector != GC_SERIAL) {
		if (c->sum->collector != GC_UNKNOWN && rv_active(r, V_SERIAL_GC, 0)) {
			char why[160];
			fmt_s(why, sizeof why, "then the log showed the %s collector: its young generation "
			      "(DefNew) is the one Serial uses", jvm_collector_name(c->sum->collector));
			rv_clear(r, V_SERIAL_GC, 0, r->last_pause_ms, why);
		}
		/* serial_verdict() says nothing: not its 3 KB frame, nor a second
		 * look-up of the verdict, per evaluation */
		return;
	}
	if (!all && rv_active(r, V_SERIAL_GC, 0))
		return;
	char note[300];
	bool long_pause = r->last_long_pause >= 0;
	note[0] = '\0'; /* not 300 bytes zeroed per evaluation */
	if (long_pause)
		fmt_s(note, sizeof note, "long pause: %s", r->v[r->last_long_pause].title);
	serial_verdict(r, c, long_pause, note);
}

static void jvm_refresh_zgc(struct rules *r, const struct rules_ctx *c, bool all)
{
	if (zgc_st(r)->stalls == 0)
		return; /* zgc_stall_verdict() says nothing: not its 3 KB frame per evaluation */
	if (all || !rv_active(r, V_ZGC_STALL, 0))
		zgc_stall_verdict(r, c);
}

/* whole-run verdicts of the JVM's make-up, after the heap's in a report (ranks 20-22) */
const struct rule rule_serial_gc = {
	.info = {.id = V_SERIAL_GC, .name = "serial-gc-selected", .kind = VERDICT_RUN, .rank = 20},
	.refresh = jvm_refresh_serial,
};

/* its thresholds (--config, --help-config) */
static const struct rule_knob zgc_stall_knobs[] = {
	RULE_KNOB(stall_crit_ms, 100, "a 100 ms allocation stall is a user-visible latency spike"),
};

const struct rule rule_zgc_stall = {
	.info = {.id = V_ZGC_STALL, .name = "zgc-allocation-stall", .kind = VERDICT_RUN, .rank = 21},
	.on_event = zgc_on_event,
	.on_kinds = (1u << EV_ALLOC_STALL) | (1u << EV_GC_CYCLE),
	.refresh = jvm_refresh_zgc,
	.state = &zgc_state_type,
	RULE_KNOBS(zgc_stall_knobs),
};

const struct rule rule_aot_sigill = {
	.info = {.id = V_AOT_SIGILL, .name = "aot-sigill-adapter", .kind = VERDICT_RUN, .rank = 22},
	.on_event = aot_on_hserr,
	.on_kinds = 1u << EV_HSERR,
};
