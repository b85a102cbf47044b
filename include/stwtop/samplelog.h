/* SPDX-License-Identifier: GPL-2.0-or-later */
/* samplelog.h — the other sampler formats of a recorded investigation
 * (tests/samples/combined/README.md, tests/samples/throttle/README.md), so it
 * replays fully:
 *
 * schedstat.log, CSV with a header, one row per thread per sample, cumulative
 * /proc/PID/task/TID/schedstat values:
 *   epoch_ms,tid,comm,run_ns,wait_ns,timeslices
 *   1795980218437,28964,GC Thread#0,91446,597059,2
 * Rows of one sample share epoch_ms. The EV_SCHED of a sample (its interval since
 * the previous sample) is emitted when the first row of the next sample arrives,
 * and by schedlog_flush() at EOF; the first sample is the baseline. Per-thread
 * deltas follow the same rules as the live sched probe (schedacc.h).
 *
 * vmstat.log, one line per sample:
 *   1795980218437 allocstall_dma 0 allocstall_dma32 0 allocstall_normal 0 ... pageoutrun 0
 */
#ifndef STWTOP_SAMPLELOG_H
#define STWTOP_SAMPLELOG_H

#include <stdbool.h>
#include <stddef.h>

#include "stwtop/event.h"

struct schedlog;

struct schedlog *schedlog_new(void);
void schedlog_free(struct schedlog *s);

/* 1: *out holds the EV_SCHED of the previous sample; 0: row (or header, blank
 * line) consumed, no event; -EINVAL: malformed row (ignored, counted by the
 * caller); -ENOMEM. */
int schedlog_parse_line(struct schedlog *s, const char *line, size_t len, struct event *out);
/* At EOF: 1 with the last sample's EV_SCHED, 0 if none is pending. */
int schedlog_flush(struct schedlog *s, struct event *out);
/* A sample is being collected (its end is known only when the next one starts). */
bool schedlog_open(const struct schedlog *s);

/* -> EV_VMSTAT (t_ms = epoch_ms; allocstall = sum of allocstall_*). false if the
 * line has no epoch or none of the keys. */
bool vmstatlog_parse_line(const char *line, size_t len, struct event *out);

#endif
