/* probe_vmstat.c — direct-reclaim counters from /proc/vmstat
 * (include/stwtop/probe.h). Kernels since 4.x split the old single
 * "allocstall" counter per zone (allocstall_dma, allocstall_dma32,
 * allocstall_normal, allocstall_movable, allocstall_device): the sum is what
 * tells that allocating threads had to reclaim memory themselves. */
#include "stwtop/probe.h"

#include "stwtop/procfile.h"
#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vmstat_probe {
	char path[512];
	char buf[16384];   /* /proc/vmstat is ~5-8 KiB on 6.x kernels */
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A stream of "key value" pairs separated by any whitespace: the /proc/vmstat file
 * (one pair per line) and the vmstat.log sampler lines (pairs on one line). */
bool vmstat_probe_parse(const char *buf, size_t len, struct ev_vmstat *out)
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

struct vmstat_probe *vmstat_probe_open(const char *root, char *err, size_t errlen)
{
	struct vmstat_probe *p = calloc(1, sizeof *p);
	if (errlen)
		err[0] = '\0';
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (procfile_join(p->path, sizeof p->path, root, "/proc/vmstat") < 0) {
		snprintf(err, errlen, "vmstat probe: root path too long");
		free(p);
		return NULL;
	}
	ssize_t n = procfile_read(AT_FDCWD, p->path, p->buf, sizeof p->buf);
	if (n < 0 && n != -EFBIG) {
		snprintf(err, errlen, "%s: %s", p->path, strerror((int)-n));
		free(p);
		return NULL;
	}
	return p;
}

int vmstat_probe_poll(struct vmstat_probe *p, int64_t now_ms, struct event *out)
{
	ssize_t n = procfile_read(AT_FDCWD, p->path, p->buf, sizeof p->buf);
	if (n == -EFBIG)
		n = (ssize_t)strlen(p->buf);
	if (n < 0)
		return (int)n;
	ev_init(out, EV_VMSTAT);
	out->t_ms = now_ms;
	if (!vmstat_probe_parse(p->buf, (size_t)n, &out->u.vm))
		return -ENODATA;
	return 1;
}

void vmstat_probe_close(struct vmstat_probe *p)
{
	free(p);
}
