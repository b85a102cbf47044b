/* probe_sched.c — per-interval on-CPU time and run-queue wait summed over a
 * process's threads (include/stwtop/probe.h), from
 * /proc/PID/task/(tid)/schedstat: "run_ns wait_ns timeslices"
 * (Documentation/scheduler/sched-stats.rst, "/proc/<pid>/schedstat").
 *
 * Cost matters: a JVM can have thousands of threads and we poll every second.
 * The task directory stays open (rewinddir per poll, one getdents stream), each
 * schedstat is one openat/read/close relative to it, no stdio, no allocation
 * once the thread count is stable, and comm is read only for the thread(s) we
 * report. The delta rules live in schedacc.c, shared with the schedstat.log
 * replay. */
#include "stwtop/probe.h"

#include "stwtop/procfile.h"
#include "stwtop/schedacc.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sched_probe {
	int pid;
	DIR *task;                 /* /proc/PID/task, kept open */
	int taskfd;
	char stat_path[512];       /* /proc/PID/stat: liveness and pid reuse */
	uint64_t starttime;        /* field 22 at open, clock ticks since boot */
	struct schedacc acc;
};

/* /proc/PID/stat: state (field 3) and starttime (field 22). The comm field may
 * hold spaces and parentheses, so fields are counted from the last ')'. */
static int read_stat(const char *path, char *state, uint64_t *starttime)
{
	char b[1024];
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	const char *rp = NULL;
	for (ssize_t i = n - 1; i >= 0; i--)
		if (b[i] == ')') {
			rp = b + i;
			break;
		}
	if (!rp || rp + 2 >= b + n)
		return -EINVAL;
	const char *s = rp + 2, *end = b + n;
	*state = *s;
	/* s is at field 3; advance to field 22 */
	for (int f = 3; f < 22; f++) {
		while (s < end && *s != ' ')
			s++;
		while (s < end && *s == ' ')
			s++;
	}
	if (s >= end || util_parse_u64(s, (size_t)(end - s), starttime) == 0)
		return -EINVAL;
	return 0;
}

struct sched_probe *sched_probe_open(const char *root, int pid, char *err, size_t errlen)
{
	struct sched_probe *p;
	char path[512], rel[64];
	char state;
	int r;
	if (errlen)
		err[0] = '\0';
	if (pid <= 0) {
		snprintf(err, errlen, "sched probe: invalid pid %d", pid);
		return NULL;
	}
	p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->pid = pid;
	p->taskfd = -1;
	schedacc_init(&p->acc);
	snprintf(rel, sizeof rel, "/proc/%d/stat", pid);
	if (procfile_join(p->stat_path, sizeof p->stat_path, root, rel) < 0) {
		snprintf(err, errlen, "sched probe: root path too long");
		goto fail;
	}
	r = read_stat(p->stat_path, &state, &p->starttime);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", p->stat_path,
			 r == -ESRCH ? "no such process" : strerror(-r));
		goto fail;
	}
	snprintf(rel, sizeof rel, "/proc/%d/task", pid);
	procfile_join(path, sizeof path, root, rel);
	p->taskfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->taskfd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	p->task = fdopendir(p->taskfd);
	if (!p->task) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(p->taskfd);
		goto fail;
	}
	return p;
fail:
	schedacc_fini(&p->acc);
	free(p);
	return NULL;
}

void sched_probe_close(struct sched_probe *p)
{
	if (!p)
		return;
	if (p->task)
		closedir(p->task); /* closes taskfd too */
	schedacc_fini(&p->acc);
	free(p);
}

/* "<tid>/<name>" relative to the task dir, without snprintf in the hot loop */
static void tid_path(char *dst, const char *tid, size_t tl, const char *name)
{
	size_t nl = strlen(name);
	memcpy(dst, tid, tl);
	dst[tl] = '/';
	memcpy(dst + tl + 1, name, nl + 1);
}

static void read_comm(struct sched_probe *p, int32_t tid, char *comm, size_t len)
{
	char rel[32], b[64];
	snprintf(rel, sizeof rel, "%d/comm", (int)tid);
	ssize_t n = procfile_read(p->taskfd, rel, b, sizeof b);
	if (n < 0 && n != -EFBIG) {
		if (len)
			comm[0] = '\0';
		return;
	}
	n = (ssize_t)strlen(b);
	while (n > 0 && (b[n - 1] == '\n'))
		n--;
	util_strlcpy_n(comm, len, b, (size_t)n);
}

int sched_probe_poll(struct sched_probe *p, int64_t now_ms, struct event *out)
{
	char state = '?';
	uint64_t st = 0;
	int r = read_stat(p->stat_path, &state, &st);
	struct dirent *de;
	int nthreads = 0;
	if (r < 0)
		return r;
	if (state == 'Z' || state == 'X' || st != p->starttime)
		return -ESRCH; /* exited (zombie until reaped) or the pid now names another process */

	schedacc_begin(&p->acc);
	rewinddir(p->task);
	errno = 0;
	while ((de = readdir(p->task)) != NULL) {
		const char *name = de->d_name;
		size_t tl = strlen(name);
		char rel[48], b[128];
		uint64_t run, wait, tid;
		if (name[0] < '0' || name[0] > '9' || tl > 10)
			continue;
		if (util_parse_u64(name, tl, &tid) != tl)
			continue;
		tid_path(rel, name, tl, "schedstat");
		ssize_t n = procfile_read(p->taskfd, rel, b, sizeof b);
		if (n <= 0)
			continue; /* the thread exited between readdir and read */
		size_t i = util_parse_u64(b, (size_t)n, &run);
		if (i == 0 || i >= (size_t)n || b[i] != ' ')
			continue;
		size_t k = util_parse_u64(b + i + 1, (size_t)n - i - 1, &wait);
		if (k == 0)
			continue;
		if (schedacc_add(&p->acc, (int32_t)tid, run, wait, NULL, 0) < 0)
			return -ENOMEM;
		nthreads++;
	}
	if (errno && errno != ENOENT)
		return -errno;
	if (nthreads == 0)
		return -ESRCH; /* the task directory emptied: the process died after the stat read */
	r = schedacc_end(&p->acc, now_ms, out);
	if (r == 1 && out->u.sched.worst_tid >= 0)
		read_comm(p, out->u.sched.worst_tid, out->u.sched.worst_comm, sizeof out->u.sched.worst_comm);
	return r;
}

struct rank {
	uint64_t key;
	size_t idx;
};

static int by_key_desc(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? 1 : -1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

int sched_probe_threads(struct sched_probe *p, struct sched_thread *out, int cap)
{
	size_t n;
	const struct schedacc_thread *t = schedacc_threads(&p->acc, &n);
	struct rank *r;
	int k = 0;
	if (cap <= 0 || n == 0)
		return 0;
	r = malloc(n * sizeof *r);
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r[i].key = t[i].d_wait_ns + t[i].d_run_ns;
		r[i].idx = i;
	}
	qsort(r, n, sizeof *r, by_key_desc);
	for (size_t i = 0; i < n && k < cap; i++, k++) {
		const struct schedacc_thread *s = &t[r[i].idx];
		out[k].tid = s->tid;
		out[k].oncpu_ms = (double)s->d_run_ns / 1e6;
		out[k].wait_ms = (double)s->d_wait_ns / 1e6;
		read_comm(p, s->tid, out[k].comm, sizeof out[k].comm);
	}
	free(r);
	return k;
}
