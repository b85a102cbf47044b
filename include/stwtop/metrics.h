/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.h — the session as Prometheus metrics (docs/metrics.md): the text
 * exposition format 0.0.4, or OpenMetrics 1.0.0 when a scraper asks for it.
 *
 * Every counter is read from a running count that only grows while the
 * process lives: the summary (fed by every event, never by the window-bounded
 * timeline; a rotated or truncated log is read on, not counted again from
 * zero), the rules' count of verdicts raised (rules_raised: eviction does not
 * lower it) and the sources' line counts. The numbers are the report's
 * (report.h) for the same input. Pure: no I/O but metrics_write_file. */
#ifndef STWTOP_METRICS_H
#define STWTOP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/session.h"

enum metrics_format {
	METRICS_PROMETHEUS = 0,       /* text/plain; version=0.0.4 */
	METRICS_OPENMETRICS           /* application/openmetrics-text; version=1.0.0 */
};

#define METRICS_CT_PROMETHEUS "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* A verdict counts in stwtop_verdict_active while it is not cleared and its
 * evidence ended less than this long ago (whole-run verdicts: while not
 * cleared). "Ago" is on the data's clock carried on by the wall clock: the
 * newest data's time plus the wall time since stwtop last read a line or a
 * sample (struct metrics_ctx.now_ms). So a log that goes quiet ages its
 * verdicts out in real time, while a recording appended now (old timestamps)
 * is judged as its report is. */
#define METRICS_ACTIVE_MS (5 * 60 * 1000)

/* A growing buffer; zero it before the first use, metrics_buf_fini after. */
struct metrics_buf {
	char *s;                      /* NUL-terminated when len > 0 */
	size_t len, cap;
	bool oom;                     /* an append failed: the text is incomplete */
};
void metrics_buf_reset(struct metrics_buf *b);   /* len 0, memory kept */
void metrics_buf_fini(struct metrics_buf *b);

/* This process, for the process_* metrics client libraries export (read
 * from /proc/self by the caller: metrics.c does no I/O). */
struct metrics_process {
	double cpu_seconds;           /* user + system */
	double start_s;               /* Unix seconds */
	int64_t rss_bytes, vsize_bytes;
	int64_t open_fds, max_fds;    /* -1 unknown */
};

struct metrics_ctx {
	int64_t now_ms;               /* the wall clock; EV_TIME_NONE: the data's clock alone (a report, a test) */
	const struct metrics_process *proc;   /* HTTP: process_* of this process; NULL: none */
	double textfile_start_s;      /* textfile: stwtop_process_start_time_seconds (0: none) */
};

/* Append the whole exposition of s to b. ctx NULL: no clock, no process
 * metrics. 0 or -ENOMEM. */
int metrics_render(struct metrics_buf *b, const struct session *s, enum metrics_format f,
		   const struct metrics_ctx *ctx);

/* The features compiled into this binary, as stwtop_build_info says them:
 * "http,zstd" (a static build without the HTTP server: "zstd" or "") */
const char *metrics_features(void);

/* The format an HTTP Accept header asks for (NULL: none): OpenMetrics when it
 * names application/openmetrics-text with a q above 0, else the text format. */
enum metrics_format metrics_format_for_accept(const char *accept);
const char *metrics_content_type(enum metrics_format f);

/* Write the text format to path atomically: a temporary file in the same
 * directory renamed over path (a reader sees the old file or the new one,
 * never a part; not fsync'd: metrics are not worth a disk flush a second,
 * and after a crash the next write replaces them). 0 or -errno. */
int metrics_write_file(const char *path, const struct session *s, const struct metrics_ctx *ctx);

#endif
