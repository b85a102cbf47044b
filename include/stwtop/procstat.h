/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procstat.h — pure parsers of the kernel's counter files, shared by the live
 * probes (probe.h) and the recorded sampler logs (samplelog.h). */
#ifndef STWTOP_PROCSTAT_H
#define STWTOP_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"

/* Parse whitespace-separated "key value" pairs: /proc/vmstat (one pair per line)
 * or a vmstat.log line after its time (vmstatlog_parse_line). allocstall is the
 * sum of allocstall and allocstall_*; fields not there are -1. false if none
 * of the keys was there. */
bool procstat_vmstat(const char *buf, size_t len, struct ev_vmstat *out);

/* /proc/PID/task/TID/schedstat: "run_ns wait_ns timeslices\n" -> run, wait.
 * false when it does not start with two numbers. */
bool procstat_schedstat(const char *b, size_t n, uint64_t *run, uint64_t *wait);

#endif
