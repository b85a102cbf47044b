/* SPDX-License-Identifier: GPL-2.0-or-later */
/* schedacc.h — per-thread schedstat deltas, summed into one EV_SCHED per
 * interval. Shared by the live probe (sched_probe_poll over
 * /proc/PID/task/(tid)/schedstat) and the replay of a recorded schedstat.log
 * (schedlog_parse_line), so both count exactly the same way.
 *
 * Counting rules (one interval = from the previous sample to this one):
 *  - the first sample is the baseline: no event;
 *  - a thread seen in both samples contributes cur - prev (run and wait);
 *  - a thread first seen in this sample was created after the previous one
 *    (otherwise it would have been listed there), so all of its counters accrued
 *    inside the interval: it contributes its whole run/wait;
 *  - a thread whose counters went backwards is a reused tid: treated as new;
 *  - a thread that vanished contributes nothing (its last partial interval
 *    cannot be read any more).
 * Idle (docs/probes.md: idle = wall - oncpu - delay), summed over threads:
 * only threads present in both samples bring wall time, interval x their count,
 * minus their run and wait deltas. A thread born inside the interval adds its
 * run/wait to oncpu/wait but no idle (when it was born is not read, so its
 * share of the wall time is not known); a thread that vanished adds nothing.
 * The sum is clamped at 0 (two reads of one thread are not at the same instant
 * as the clock read, so a busy thread can show a little more than the interval).
 *
 * Usage per sample: schedacc_begin(); schedacc_add() per thread, in any order;
 * schedacc_end() -> 1 with an event, 0 for the baseline. Memory is reused across
 * samples: no allocation once the thread count is stable. */
#ifndef STWTOP_SCHEDACC_H
#define STWTOP_SCHEDACC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"

struct schedacc_thread {
	int32_t tid;
	uint64_t run_ns, wait_ns;   /* cumulative, as read */
	uint64_t d_run_ns, d_wait_ns; /* delta of the last completed interval */
	char comm[16];              /* "" when the caller does not know it */
};

struct schedacc {
	struct schedacc_thread *cur, *prev;
	size_t ncur, nprev, cap_cur, cap_prev;
	int64_t prev_t_ms;
	bool have_prev;
	bool cur_sorted;
	int32_t last_tid;
};

void schedacc_init(struct schedacc *a);
void schedacc_fini(struct schedacc *a);
void schedacc_reset(struct schedacc *a);   /* forget everything: the next sample is a baseline */

void schedacc_begin(struct schedacc *a);
/* comm may be NULL (probe: read lazily for the worst thread only). -ENOMEM on failure. */
int schedacc_add(struct schedacc *a, int32_t tid, uint64_t run_ns, uint64_t wait_ns,
		 const char *comm, size_t comm_len);
/* Close the sample taken at t_ms. Returns 1 and fills *out (EV_SCHED, t_ms) when there
 * was a previous sample, 0 for the baseline. worst_comm is filled from the thread's
 * comm if the caller gave one. */
int schedacc_end(struct schedacc *a, int64_t t_ms, struct event *out);

/* Threads of the last completed sample with their interval deltas (valid until the
 * next schedacc_begin). */
const struct schedacc_thread *schedacc_threads(const struct schedacc *a, size_t *n);

#endif
