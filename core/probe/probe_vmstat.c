/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_vmstat.c — direct-reclaim counters from /proc/vmstat
 * (include/stwtop/probe.h). Kernels since 4.x split the old single
 * "allocstall" counter per zone (allocstall_dma, allocstall_dma32,
 * allocstall_normal, allocstall_movable, allocstall_device): the sum is what
 * tells that allocating threads had to reclaim memory themselves. The file's
 * format is read by procstat_vmstat (core/parse/procstat.c). */
#include "stwtop/probe.h"

#include "stwtop/procfile.h"
#include "stwtop/procstat.h"
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
	if (!procstat_vmstat(p->buf, (size_t)n, &out->u.vm))
		return -ENODATA;
	return 1;
}

void vmstat_probe_close(struct vmstat_probe *p)
{
	free(p);
}
