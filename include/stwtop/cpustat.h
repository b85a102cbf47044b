/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpustat.h — `--cpustat-log FILE`: cgroup cpu.stat samples recorded by a shell
 * loop or a sampler, one line per sample (docs/verdicts.md, cpu-throttled-during-stop):
 *
 *   2026-11-29T19:04:54 nr_periods 11 nr_throttled 10 throttled_time 1465095941 nr_bursts 0 burst_time 0 
 *   2026-11-29T19:04:53.274+0000 nr_periods 2 nr_throttled 1 throttled_time 38777845 ...
 *   2026-11-29T19:04:53Z usage_usec 8317265 ... nr_periods 812 nr_throttled 97 throttled_usec 4176534
 *   1795979093274 nr_periods 2 ...            (epoch seconds or ms, with optional fraction)
 *
 * `while sleep 1; do echo "$(date +%FT%T) $(cat cpu.stat | tr '\n' ' ')"; done` writes the
 * first form: no zone, so the time is local time of the TZ environment (the caller's
 * --help must say so), and a trailing space. Keys: v1 nr_periods, nr_throttled,
 * throttled_time (ns); v2 usage_usec, nr_periods, nr_throttled, throttled_usec; any
 * other key (nr_bursts, burst_time, user_usec, ...) is ignored. */
#ifndef STWTOP_CPUSTAT_H
#define STWTOP_CPUSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"

/* -> EV_CPU (t_ms = the line's time; cumulative counters, -1 when absent; quota
 * unknown (-2); cg_version 0 = recorded). false when the line has no time or no
 * cpu.stat key, or a known key has no numeric value. */
bool cpustat_parse_line(const char *line, size_t len, struct event *out);

/* The sample time at s: ISO 8601 (util_parse_iso8601) or epoch seconds (<= 11
 * digits) / milliseconds (12-14 digits), optional ".fraction". Returns chars
 * consumed, 0 if none. Shared with the sampler logs of samplelog.h. */
size_t cpustat_parse_time(const char *s, size_t n, int64_t *epoch_ms);

#endif
