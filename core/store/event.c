/* SPDX-License-Identifier: GPL-2.0-or-later */
/* event.c — names and defaults of the event model (include/stwtop/event.h). */
#include "stwtop/event.h"

#include <string.h>

const char *ev_kind_name(enum ev_kind k)
{
	static const char *const names[EV_KIND_COUNT] = {
		[EV_NONE] = "none",          [EV_ANCHOR] = "anchor",
		[EV_JVM_INFO] = "jvm-info",  [EV_GC_PAUSE] = "gc-pause",
		[EV_GC_CYCLE] = "gc-cycle",  [EV_SAFEPOINT] = "safepoint",
		[EV_SP_TIMEOUT] = "safepoint-timeout",
		[EV_PERIODIC_SKIP] = "periodic-skip",
		[EV_ALLOC_STALL] = "allocation-stall",
		[EV_HSERR] = "hs-err",       [EV_HTTP] = "http",
		[EV_CPU] = "cpu",            [EV_MEM] = "mem",
		[EV_SCHED] = "sched",        [EV_VMSTAT] = "vmstat",
		[EV_JVM_EXIT] = "jvm-exit",  [EV_JVMCTR] = "jvm-counters",
	};
	return (unsigned)k < EV_KIND_COUNT && names[k] ? names[k] : "?";
}

const char *pause_type_name(enum pause_type t)
{
	switch (t) {
	case PAUSE_YOUNG: return "young";
	case PAUSE_MIXED: return "mixed";
	case PAUSE_FULL: return "full";
	case PAUSE_REMARK: return "remark";
	case PAUSE_CLEANUP: return "cleanup";
	case PAUSE_INIT_MARK: return "init-mark";
	case PAUSE_RELOCATE: return "relocate";
	case PAUSE_DEGENERATED: return "degenerated";
	default: return "other";
	}
}

const char *jvm_collector_name(enum jvm_collector c)
{
	switch (c) {
	case GC_G1: return "G1";
	case GC_PARALLEL: return "Parallel";
	case GC_SERIAL: return "Serial";
	case GC_ZGC: return "ZGC";
	case GC_SHENANDOAH: return "Shenandoah";
	case GC_CMS: return "CMS";
	case GC_EPSILON: return "Epsilon";
	default: return NULL;
	}
}

/* Each kind's defaults as a whole event, copied in one assignment: the
 * parsers make an event per line, and a memset of the 248 bytes followed by
 * the stores of a switch was compiled to "rep stosq", whose start-up cost
 * made ev_init 4.5% of a JDK 8 replay's time; a copy of a constant is plain
 * vector moves. */
#define EV_BASE(k) .kind = (k), .t_ms = EV_TIME_NONE, .up_us = -1
static const struct event ev_defaults[EV_KIND_COUNT] = {
	[EV_NONE] = { EV_BASE(EV_NONE) },
	[EV_ANCHOR] = { EV_BASE(EV_ANCHOR) },
	[EV_JVM_INFO] = { EV_BASE(EV_JVM_INFO) },
	[EV_GC_PAUSE] = { EV_BASE(EV_GC_PAUSE),
			  .u.pause = { .gc_id = -1, .before_kb = -1, .after_kb = -1, .committed_kb = -1 } },
	[EV_GC_CYCLE] = { EV_BASE(EV_GC_CYCLE),
			  .u.cycle = { .gc_id = -1, .dur_ms = -1, .before_kb = -1, .after_kb = -1,
				       .committed_kb = -1 } },
	[EV_SAFEPOINT] = { EV_BASE(EV_SAFEPOINT),
			   .u.sp = { .ttsp_ms = -1, .cleanup_ms = -1, .at_ms = -1, .leaving_ms = -1,
				     .spin_ms = -1, .block_ms = -1, .threads_total = -1, .threads_running = -1 } },
	[EV_SP_TIMEOUT] = { EV_BASE(EV_SP_TIMEOUT) },
	[EV_PERIODIC_SKIP] = { EV_BASE(EV_PERIODIC_SKIP),
			       .u.pskip = { .last_gc_ms = -1, .threshold_ms = -1, .load = -1,
					    .load_threshold = -1 } },
	[EV_ALLOC_STALL] = { EV_BASE(EV_ALLOC_STALL) },
	[EV_HSERR] = { EV_BASE(EV_HSERR) },
	[EV_HTTP] = { EV_BASE(EV_HTTP),
		      .u.http = { .status = -1, .upstream_status = -1, .rt_ms = -1, .uct_ms = -1,
				  .uht_ms = -1, .urt_ms = -1 } },
	[EV_CPU] = { EV_BASE(EV_CPU),
		     .u.cpu = { .nr_periods = -1, .nr_throttled = -1, .throttled_us = -1, .usage_us = -1,
				.period_us = -1, .quota_us = -2, .psi_some_avg10 = -1 } },
	[EV_MEM] = { EV_BASE(EV_MEM),
		     .u.mem = { .usage_bytes = -1, .limit_bytes = -1, .anon_bytes = -1, .file_bytes = -1,
				.psi_some_avg10 = -1 } },
	[EV_SCHED] = { EV_BASE(EV_SCHED), .u.sched = { .worst_tid = -1, .idle_ms = -1 } },
	[EV_VMSTAT] = { EV_BASE(EV_VMSTAT),
			.u.vm = { .allocstall = -1, .pageoutrun = -1, .pgscan_direct = -1 } },
	[EV_JVM_EXIT] = { EV_BASE(EV_JVM_EXIT), .u.exit = { .pid = -1, .alive_ms = EV_TIME_NONE } },
	[EV_JVMCTR] = { EV_BASE(EV_JVMCTR),
			.u.ctr = { .heap_used = -1, .heap_committed = -1, .heap_max = -1, .one_gc_ms = -1,
				   .stop_ms = -1, .ttsp_ms = -1, .safepoints = -1, .threads = -1,
				   .stop_max_ms = -1, .stop_max_ttsp_ms = -1, .stop_max_window_ms = -1,
				   .stop_max_end = -1, .stop_max_exact = -1, .tot = JVM_TOTALS_UNKNOWN } },
};
#undef EV_BASE

const char *jvm_gc_kind_name(enum jvm_gc_kind k)
{
	static const char *const n[JVM_GC_KINDS] = {"young", "full", "concurrent"};
	return (unsigned)k < JVM_GC_KINDS ? n[k] : "other";
}

const char *jvm_pool_name(enum jvm_pool p)
{
	static const char *const n[JVM_POOLS] = {"eden", "survivor", "old", "metaspace", "compressed_class"};
	return (unsigned)p < JVM_POOLS ? n[p] : "other";
}

void ev_init(struct event *e, enum ev_kind kind)
{
	if ((unsigned)kind < EV_KIND_COUNT) {
		*e = ev_defaults[kind];
		return;
	}
	*e = ev_defaults[EV_NONE];
	e->kind = (uint8_t)kind;
}
