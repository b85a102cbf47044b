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

void ev_init(struct event *e, enum ev_kind kind)
{
	memset(e, 0, sizeof *e);
	e->kind = (uint8_t)kind;
	e->t_ms = EV_TIME_NONE;
	e->up_us = -1;
	switch (kind) {
	case EV_GC_PAUSE:
		e->u.pause.gc_id = -1;
		e->u.pause.before_kb = e->u.pause.after_kb = e->u.pause.committed_kb = -1;
		break;
	case EV_GC_CYCLE:
		e->u.cycle.gc_id = -1;
		e->u.cycle.dur_ms = -1;
		e->u.cycle.before_kb = e->u.cycle.after_kb = e->u.cycle.committed_kb = -1;
		break;
	case EV_SAFEPOINT:
		e->u.sp.ttsp_ms = e->u.sp.cleanup_ms = e->u.sp.at_ms = e->u.sp.leaving_ms = -1;
		e->u.sp.spin_ms = e->u.sp.block_ms = -1;
		e->u.sp.threads_total = e->u.sp.threads_running = -1;
		break;
	case EV_PERIODIC_SKIP:
		e->u.pskip.last_gc_ms = e->u.pskip.threshold_ms = -1;
		e->u.pskip.load = e->u.pskip.load_threshold = -1;
		break;
	case EV_HTTP:
		e->u.http.status = e->u.http.upstream_status = -1;
		e->u.http.rt_ms = e->u.http.uct_ms = e->u.http.uht_ms = e->u.http.urt_ms = -1;
		break;
	case EV_CPU:
		e->u.cpu.nr_periods = e->u.cpu.nr_throttled = e->u.cpu.throttled_us = -1;
		e->u.cpu.usage_us = e->u.cpu.period_us = -1;
		e->u.cpu.quota_us = -2;
		e->u.cpu.psi_some_avg10 = -1;
		break;
	case EV_MEM:
		e->u.mem.usage_bytes = e->u.mem.limit_bytes = -1;
		e->u.mem.anon_bytes = e->u.mem.file_bytes = -1;
		e->u.mem.psi_some_avg10 = -1;
		break;
	case EV_SCHED:
		e->u.sched.worst_tid = -1;
		e->u.sched.idle_ms = -1;
		break;
	case EV_VMSTAT:
		e->u.vm.allocstall = e->u.vm.pageoutrun = e->u.vm.pgscan_direct = -1;
		break;
	case EV_JVMCTR:
		e->u.ctr.heap_used = e->u.ctr.heap_committed = e->u.ctr.heap_max = -1;
		e->u.ctr.one_gc_ms = e->u.ctr.stop_ms = e->u.ctr.ttsp_ms = -1;
		e->u.ctr.safepoints = e->u.ctr.threads = -1;
		e->u.ctr.stop_max_ms = e->u.ctr.stop_max_ttsp_ms = e->u.ctr.stop_max_window_ms = -1;
		e->u.ctr.stop_max_end = -1;
		e->u.ctr.stop_max_exact = -1;
		break;
	case EV_JVM_EXIT:
		e->u.exit.pid = -1;
		e->u.exit.alive_ms = EV_TIME_NONE;
		break;
	default:
		break;
	}
}

int64_t ev_start_ms(const struct event *e)
{
	double d = 0;
	if (e->t_ms == EV_TIME_NONE)
		return EV_TIME_NONE;
	switch (e->kind) {
	case EV_GC_PAUSE: d = e->u.pause.dur_ms; break;
	case EV_SAFEPOINT: d = e->u.sp.total_ms; break;
	case EV_ALLOC_STALL: d = e->u.stall.dur_ms; break;
	case EV_HTTP:
		d = e->u.http.rt_ms;
		/* a second-resolution time ($time_local) was truncated: the request
		 * ended somewhere in that second, so take its middle */
		if (!e->u.http.t_exact)
			return e->t_ms + 500 - (int64_t)((d > 0 ? (d < 1e12 ? d : 1e12) : 0) + 0.5);
		break;
	case EV_GC_CYCLE: d = e->u.cycle.dur_ms; break;
	default: break;
	}
	if (!(d > 0))
		return e->t_ms;
	if (d > 1e12)
		d = 1e12; /* no duration from a line may overflow the clock */
	return e->t_ms - (int64_t)(d + 0.5);
}
