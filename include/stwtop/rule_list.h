/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rule_list.h — every verdict, one line each, in evaluation order: the
 * incident rules in reading order (the stop, why it was long, what it cost),
 * then the whole-run rules in the order they are refreshed. (No include
 * guard: it is included with a definition of RULE, as an X-macro.)
 *
 *   RULE(ID, sym)  makes V_ID in enum verdict_id (rules.h) and lists the row
 *                  `const struct rule rule_sym`, which the rule's own file in
 *                  core/rules/ defines with its name, kind, rank and hooks.
 *
 * Adding a verdict: its file, one line here, its section in docs/verdicts.md
 * and its tests (docs/architecture.md, "Where to add"). */
RULE(LONG_GC_PAUSE, long_gc_pause)
RULE(TTSP_SPIKE, ttsp_spike)
RULE(LONG_VM_OPERATION, long_vm_operation)
RULE(CPU_THROTTLED, cpu_throttled)
RULE(SCHED_DELAY, sched_delay)
RULE(DIRECT_RECLAIM, direct_reclaim)
RULE(ACCEPT_QUEUE, accept_queue)
RULE(CONNECT_504, connect_504)
RULE(JVM_EXITED, jvm_exited)
RULE(GC_OVERHEAD, gc_overhead)
RULE(SERIAL_GC, serial_gc)
RULE(ZGC_STALL, zgc_stall)
RULE(PERIODIC_SKIPPED, periodic_skipped)
RULE(G1_NOT_SHRINKING, g1_not_shrinking)
RULE(PERIODIC_SHRANK, periodic_shrank)
RULE(AOT_SIGILL, aot_sigill)
