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

bool vmstat_probe_parse(const char *buf, size_t len, struct ev_vmstat *out)
{
	size_t i = 0;
	bool any = false;
	int64_t stall = 0;
	bool have_stall = false;
	out->allocstall = out->pageoutrun = out->pgscan_direct = -1;
	while (i < len) {
		const char *line = buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		const char *sp = memchr(line, ' ', ll);
		i += ll + 1;
		if (!sp)
			continue;
		size_t kl = (size_t)(sp - line);
		int64_t v;
		if (util_parse_i64(sp + 1, ll - kl - 1, &v) == 0)
			continue;
		if (kl >= 10 && memcmp(line, "allocstall", 10) == 0 && (kl == 10 || line[10] == '_')) {
			stall += v;
			have_stall = any = true;
		} else if (kl == 10 && memcmp(line, "pageoutrun", 10) == 0) {
			out->pageoutrun = v;
			any = true;
		} else if (kl == 13 && memcmp(line, "pgscan_direct", 13) == 0) {
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
