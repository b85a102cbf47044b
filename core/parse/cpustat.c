/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpustat.c — one recorded cpu.stat sample per line (include/stwtop/cpustat.h).
 * Keys mirror the kernel's cpu.stat: cgroup v1 Documentation/scheduler/
 * sched-bwc.rst (nr_periods, nr_throttled, throttled_time in ns) and cgroup v2
 * Documentation/admin-guide/cgroup-v2.rst (usage_usec, nr_periods, nr_throttled,
 * throttled_usec). Tokens are matched one at a time, so an unknown key with an
 * odd value can never shift the pairing of the keys we use. */
#include "stwtop/cpustat.h"

#include "stwtop/util.h"

#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

size_t cpustat_parse_time(const char *s, size_t n, int64_t *epoch_ms)
{
	size_t k = util_parse_iso8601(s, n, epoch_ms, NULL);
	if (k)
		return k;
	uint64_t v;
	size_t d = util_parse_u64(s, n, &v);
	if (d < 9 || d > 14)
		return 0; /* not an epoch: 9 digits reach back to 1973, 14 to year 5138 in ms */
	int64_t ms = d <= 11 ? (int64_t)v * 1000 : (int64_t)v;
	size_t i = d;
	if (i + 1 < n && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
		int scale = d <= 11 ? 100 : 0; /* a fraction of seconds adds ms; of ms is dropped */
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			ms += (s[i] - '0') * scale;
			scale /= 10;
			i++;
		}
	}
	*epoch_ms = ms;
	return i;
}

bool cpustat_parse_line(const char *line, size_t len, struct event *out)
{
	size_t i = 0;
	int64_t t;
	bool any = false;
	while (i < len && is_blank(line[i]))
		i++;
	size_t k = cpustat_parse_time(line + i, len - i, &t);
	if (k == 0 || (i + k < len && !is_blank(line[i + k])))
		return false;
	i += k;
	ev_init(out, EV_CPU);
	out->t_ms = t;
	out->u.cpu.cg_version = 0;
	while (i < len) {
		while (i < len && is_blank(line[i]))
			i++;
		const char *key = line + i;
		while (i < len && !is_blank(line[i]))
			i++;
		size_t kl = (size_t)(line + i - key);
		if (kl == 0)
			break;
		int64_t *slot = NULL;
		bool ns = false;
		if (kl == 10 && memcmp(key, "nr_periods", 10) == 0)
			slot = &out->u.cpu.nr_periods;
		else if (kl == 12 && memcmp(key, "nr_throttled", 12) == 0)
			slot = &out->u.cpu.nr_throttled;
		else if (kl == 14 && memcmp(key, "throttled_time", 14) == 0)
			slot = &out->u.cpu.throttled_us, ns = true;
		else if (kl == 14 && memcmp(key, "throttled_usec", 14) == 0)
			slot = &out->u.cpu.throttled_us;
		else if (kl == 10 && memcmp(key, "usage_usec", 10) == 0)
			slot = &out->u.cpu.usage_us;
		if (!slot)
			continue; /* unknown key or a value: look at the next token */
		size_t j = i;
		while (j < len && is_blank(line[j]))
			j++;
		int64_t v;
		size_t vl = util_parse_i64(line + j, len - j, &v);
		if (vl == 0 || (j + vl < len && !is_blank(line[j + vl])) || v < 0)
			return false; /* a counter we need without a usable value: not a sample */
		*slot = ns ? v / 1000 : v;
		i = j + vl;
		any = true;
	}
	return any;
}
