/* table.c — the rule table (rules_internal.h): every verdict id, what kind it
 * is, where it stands in an incident's reading order, whether it explains a
 * stop, and its hooks. The engine, the report, the views and the screen read
 * these facts from here.
 *
 * The rows are in evaluation order: the incident rules in reading order (the
 * stop, its cause, its cost: a verdict raised first is listed first), then the
 * whole-run rules in the order they are refreshed. Whole-run verdicts follow
 * the incidents in a report (rank 10 + id keeps their old order; gc-overhead,
 * rank 9, leads them).
 */
#include "rules_internal.h"

const struct rule rule_table[] = {
	/* what the stop was */
	{{V_LONG_GC_PAUSE, "long-gc-pause", VERDICT_INCIDENT, 0, true}, judge_long_gc_pause, NULL, 0, NULL},
	{{V_TTSP_SPIKE, "ttsp-spike", VERDICT_INCIDENT, 1, true}, judge_ttsp_spike, NULL, 0, NULL},
	/* why it was long */
	{{V_CPU_THROTTLED, "cpu-throttled-during-stop", VERDICT_INCIDENT, 2, true}, judge_cpu_throttled, NULL, 0, NULL},
	{{V_SCHED_DELAY, "sched-delay-during-stop", VERDICT_INCIDENT, 3, true}, judge_sched_delay, NULL, 0, NULL},
	{{V_DIRECT_RECLAIM, "direct-reclaim", VERDICT_INCIDENT, 4, true}, judge_direct_reclaim, NULL, 0, NULL},
	/* what it cost the callers */
	{{V_ACCEPT_QUEUE, "accept-queue-overflow", VERDICT_INCIDENT, 5, false}, judge_accept_queue, NULL, 0, NULL},
	{{V_CONNECT_504, "connect-timeout-504", VERDICT_INCIDENT, 6, false}, judge_connect_504, NULL, 0, NULL},
	/* whole run; the JVM's end and gc-overhead first of them: when the JVM is gone or barely
	 * runs, that is the news */
	{{V_JVM_EXITED, "jvm-exited", VERDICT_RUN, 8, false}, NULL, exit_on_event, EXIT_ON_KINDS, exit_refresh},
	{{V_GC_OVERHEAD, "gc-overhead", VERDICT_RUN, 9, false}, NULL, overhead_on_event,
	 1u << EV_GC_PAUSE | 1u << EV_JVMCTR,
	 overhead_refresh},
	{{V_SERIAL_GC, "serial-gc-selected", VERDICT_RUN, 10 + V_SERIAL_GC, false}, NULL, jvm_on_event,
	 JVM_ON_KINDS, jvm_refresh_serial},
	{{V_ZGC_STALL, "zgc-allocation-stall", VERDICT_RUN, 10 + V_ZGC_STALL, false}, NULL, NULL, 0, jvm_refresh_zgc},
	{{V_G1_NOT_SHRINKING, "g1-not-shrinking", VERDICT_RUN, 10 + V_G1_NOT_SHRINKING, false}, NULL, heap_on_event,
	 HEAP_ON_KINDS, heap_refresh_g1},
	{{V_PERIODIC_SKIPPED, "periodic-gc-skipped", VERDICT_RUN, 10 + V_PERIODIC_SKIPPED, false}, NULL, NULL, 0,
	 heap_refresh_periodic},
	{{V_PERIODIC_SHRANK, "periodic-gc-shrank", VERDICT_RUN, 10 + V_PERIODIC_SHRANK, false}, NULL, NULL, 0, NULL},
	{{V_AOT_SIGILL, "aot-sigill-adapter", VERDICT_RUN, 10 + V_AOT_SIGILL, false}, NULL, NULL, 0, NULL},
};
const size_t rule_count = sizeof rule_table / sizeof rule_table[0];

_Static_assert(sizeof rule_table / sizeof rule_table[0] == V_COUNT, "one row per verdict id");
/* judged_mask and rl_stop_verdicts_mask() are bit sets of ids */
_Static_assert(V_COUNT <= 32, "verdict ids fit a 32-bit mask");

/* one row per verdict (V_COUNT, a few dozen): a scan costs less than keeping an index in step with the table */
static const struct rule *row(int id)
{
	for (size_t i = 0; i < rule_count; i++)
		if (rule_table[i].info.id == id)
			return &rule_table[i];
	return NULL;
}

const struct verdict_info *verdict_info(int id)
{
	const struct rule *r = row(id);
	return r ? &r->info : NULL;
}

bool verdict_is_incident(int id)
{
	const struct rule *r = row(id);
	return r && r->info.kind == VERDICT_INCIDENT;
}

int verdict_rank(int id)
{
	const struct rule *r = row(id);
	return r ? r->info.rank : 10 + id;
}

const char *verdict_id_name(int id)
{
	const struct rule *r = row(id);
	return r ? r->info.name : "?";
}

int verdict_id_from_name(const char *name)
{
	for (size_t i = 0; i < rule_count; i++)
		if (strcmp(rule_table[i].info.name, name) == 0)
			return rule_table[i].info.id;
	return -1;
}

const char *severity_name(int sev)
{
	return sev == SEV_CRIT ? "crit" : sev == SEV_WARN ? "warn" : "info";
}

unsigned rl_stop_verdicts_mask(void)
{
	unsigned m = 0;
	for (size_t i = 0; i < rule_count; i++)
		if (rule_table[i].info.explains_stop)
			m |= 1u << rule_table[i].info.id;
	return m;
}
