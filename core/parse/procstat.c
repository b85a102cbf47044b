/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procstat.c — the kernel's counter files as text (procstat.h): /proc/vmstat
 * (mm/vmstat.c vmstat_text[]: "name value" per line; allocstall split per zone
 * since 4.x) and /proc/PID/task/TID/schedstat (kernel/sched/stats.h,
 * proc_pid_schedstat: "run_ns wait_ns timeslices"). Pure functions, no I/O:
 * the probes read the files, the sampler logs carry the same text. */
#include "stwtop/procstat.h"

#include "stwtop/util.h"

#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A stream of "key value" pairs separated by any whitespace: the /proc/vmstat file
 * (one pair per line) and the vmstat.log sampler lines (pairs on one line). */
bool procstat_vmstat(const char *buf, size_t len, struct ev_vmstat *out)
{
	size_t i = 0;
	bool any = false, have_stall = false;
	int64_t stall = 0;
	out->allocstall = out->pageoutrun = out->pgscan_direct = -1;
	while (i < len) {
		while (i < len && is_space(buf[i]))
			i++;
		const char *key = buf + i;
		while (i < len && !is_space(buf[i]))
			i++;
		size_t kl = (size_t)(buf + i - key);
		while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
			i++;
		int64_t v;
		size_t vl = util_parse_i64(buf + i, len - i, &v);
		if (kl == 0)
			break;
		if (vl == 0 || (i + vl < len && !is_space(buf[i + vl])))
			continue; /* not a pair: the next token may be a key */
		i += vl;
		if (kl >= 10 && memcmp(key, "allocstall", 10) == 0 && (kl == 10 || key[10] == '_')) {
			stall += v;
			have_stall = any = true;
		} else if (kl == 10 && memcmp(key, "pageoutrun", 10) == 0) {
			out->pageoutrun = v;
			any = true;
		} else if (kl == 13 && memcmp(key, "pgscan_direct", 13) == 0) {
			out->pgscan_direct = v;
			any = true;
		}
	}
	if (have_stall)
		out->allocstall = stall;
	return any;
}

/* "run_ns wait_ns timeslices\n" */
bool procstat_schedstat(const char *b, size_t n, uint64_t *run, uint64_t *wait)
{
	size_t i = util_parse_u64(b, n, run);
	if (i == 0 || i >= n || b[i] != ' ')
		return false;
	return util_parse_u64(b + i + 1, n - i - 1, wait) > 0;
}
