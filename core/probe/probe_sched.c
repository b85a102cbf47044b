/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_sched.c — per-interval on-CPU time and run-queue wait summed over a
 * process's threads (include/stwtop/probe.h), from
 * /proc/PID/task/(tid)/schedstat: "run_ns wait_ns timeslices"
 * (Documentation/scheduler/sched-stats.rst, "/proc/<pid>/schedstat").
 *
 * Cost matters: a JVM can have thousands of threads and we poll every second.
 * Measured on 2000 threads (tests/bench/bench_sched.c): open+read+close of every
 * schedstat costs ~7 µs per thread, a pread(2) at offset 0 on a kept fd ~1.4 µs
 * (procfs regenerates the text on each read), listing the task directory ~1-2 µs
 * per thread. So:
 *  - each thread's schedstat fd is kept open and re-read with one pread, within
 *    a budget of half the RLIMIT_NOFILE soft limit; threads beyond it fall back
 *    to one openat/read/close relative to the task directory fd;
 *  - the task directory is listed only when the thread set may have changed: a
 *    thread that exited makes its kept fd fail (ESRCH), and if none failed and
 *    /proc/PID/stat's num_threads equals the threads we hold, no thread was born
 *    either (births = now - before + deaths = 0). That shortcut needs procfs
 *    semantics, so it is used on the live system only (root ""), never on a
 *    fixture tree of regular files;
 *  - comm is read only for the thread(s) we report; no stdio, no allocation once
 *    the thread count is stable;
 *  - a thread whose counters did not move in its last QUIET_READS reads (a
 *    parked pool thread: most of a JVM's thousands) is re-read once every
 *    QUIET_EVERY polls, in turns, and counts 0 in the polls between. The
 *    kernel adds to a thread's wait only when it gets a CPU (sched_info_arrive),
 *    and then its run time moves too, so a quiet thread's next read holds all
 *    it did since: nothing is lost, it lands in the interval it is read in.
 *    Every thread is read when the busy threads waited QUIET_WAKE_WAIT_NS in
 *    the interval (contention: the quiet ones that woke waited too), and when
 *    the caller asks (sched_probe_read_all: throttling, a stop). Without a read
 *    of every fd a death is not seen, so births are found instead: every task
 *    the kernel created since the last poll has a pid between the last two
 *    values of /proc/loadavg's last pid, and one of ours is /proc/PID/task/TID.
 *    A birth, or too many pids to look at, reads every thread as before.
 *    Only where /proc is this process's pid namespace (tids and last pid agree).
 *  - a thread that ran but little (under COOL_NS on a CPU a poll since its
 *    last read: a pool thread waking every 100 ms to look for work; its wait
 *    is not looked at, a loaded machine makes every wake-up wait) is
 *    read in the same turns, for the same reason nothing is lost: its counters
 *    only grow, and the next read holds all of it. A JVM with 2000 such
 *    threads cost every one of them read every second (0.68 % of a CPU, twice
 *    `top -d 1`); the busy threads, whose time the status shows, still are.
 * The delta rules live in schedacc.c, shared with the schedstat.log replay. */
#include "stwtop/probe.h"
#include "stwtop/procstat.h"

#include "stwtop/procfile.h"
#include "stwtop/schedacc.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#define QUIET_READS 2
#define QUIET_EVERY 16
#define QUIET_WAKE_WAIT_NS 50000000ull
#define COOL_NS 2000000ull          /* on-CPU a poll under which a thread is read in turns */
/* a wider gap in the last pid (and wider than half the threads) reads every
 * thread (cheaper than the lookups) */
#define QUIET_MAX_NEW_PIDS 64
#define PROC_FS_MAGIC 0x9fa0

struct tidfd {
	int32_t tid;
	int fd;                    /* kept schedstat fd, -1 when over the budget */
	uint64_t run, wait;        /* as last read */
	uint8_t quiet;             /* reads in a row that found the counters unchanged */
	bool cool;                 /* its last read found under COOL_NS on-CPU a poll since the one before */
	bool read;                 /* read in this poll */
	uint64_t read_poll;        /* p->polls at its last read */
};

struct sched_probe {
	int pid;
	bool live;                 /* root "": procfs semantics, the no-listing shortcut is sound */
	DIR *task;                 /* /proc/PID/task, kept open */
	int taskfd;
	char stat_path[512];       /* /proc/PID/stat: liveness, pid reuse, num_threads */
	uint64_t starttime;        /* field 22 at open, clock ticks since boot */
	struct schedacc acc;
	struct tidfd *fds, *tmp;   /* threads of the last poll, sorted by tid; scratch */
	size_t nfds, cap_fds, ntmp, cap_tmp;
	size_t fd_budget, fd_used;
	bool all_kept;             /* every thread of the last poll has a kept fd */
	uint64_t listings;         /* task directory listings so far (for tests/bench) */
	uint64_t reads;            /* schedstat reads so far (for tests/bench) */
	int loadavg;               /* /proc/loadavg, -1: every thread is read at every poll */
	int status_fd;             /* /proc/PID/status kept open (live), -1: stat_path is read */
	int64_t last_pid;          /* its last field at the previous poll, -1 unknown */
	uint64_t polls;
	bool read_all;             /* asked for the next poll */
};

/* /proc/loadavg when its last pid and /proc's tids are of this process's pid
 * namespace and it is procfs itself (lxcfs serves its own loadavg); else -1 */
static int open_loadavg(void)
{
	char self[32];
	struct statfs fs;
	ssize_t n = readlink("/proc/self", self, sizeof self - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	if (atoi(self) != (int)getpid() || statfs("/proc/loadavg", &fs) < 0 || fs.f_type != PROC_FS_MAGIC)
		return -1;
	return open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
}

struct sched_probe *sched_probe_open(const char *root, int pid, char *err, size_t errlen)
{
	struct sched_probe *p;
	char path[512], rel[64];
	struct procfile_stat si;
	struct rlimit rl;
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
	p->loadavg = -1;
	p->status_fd = -1;
	p->last_pid = -1;
	p->live = !root || !root[0];
	if (p->live)
		p->loadavg = open_loadavg();
	schedacc_init(&p->acc);
	/* half of the fd limit for kept schedstat fds: the rest of the program keeps room */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		p->fd_budget = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 131072 ? 65536 : (size_t)rl.rlim_cur / 2;
	snprintf(rel, sizeof rel, "/proc/%d/stat", pid);
	if (procfile_join(p->stat_path, sizeof p->stat_path, root, rel) < 0) {
		snprintf(err, errlen, "sched probe: root path too long");
		goto fail;
	}
	r = procfile_read_stat(p->stat_path, &si);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", p->stat_path, r == -ESRCH ? "no such process" : strerror(-r));
		goto fail;
	}
	p->starttime = si.starttime;
	if (p->live) {
		snprintf(rel, sizeof rel, "/proc/%d/status", pid);
		p->status_fd = open(rel, O_RDONLY | O_CLOEXEC);
		/* opened after the stat read: the same process, unless it was reaped and
		 * its pid reused in between, which the status read's liveness cannot tell */
		if (p->status_fd >= 0 && (r = procfile_read_stat(p->stat_path, &si)) == 0 && si.starttime != p->starttime) {
			snprintf(err, errlen, "%s: no such process", p->stat_path);
			goto fail;
		}
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
	if (p->loadavg >= 0)
		close(p->loadavg);
	if (p->status_fd >= 0)
		close(p->status_fd);
	schedacc_fini(&p->acc);
	free(p);
	return NULL;
}

static void close_fds(struct sched_probe *p)
{
	for (size_t i = 0; i < p->nfds; i++)
		if (p->fds[i].fd >= 0)
			close(p->fds[i].fd);
	p->nfds = 0;
	p->fd_used = 0;
	p->all_kept = false;
}

void sched_probe_close(struct sched_probe *p)
{
	if (!p)
		return;
	close_fds(p);
	if (p->loadavg >= 0)
		close(p->loadavg);
	if (p->status_fd >= 0)
		close(p->status_fd);
	if (p->task)
		closedir(p->task); /* closes taskfd too */
	schedacc_fini(&p->acc);
	free(p->fds);
	free(p->tmp);
	free(p);
}

/* re-read a kept fd; false when the thread is gone */
static bool pread_one(int fd, uint64_t *run, uint64_t *wait)
{
	char b[128];
	ssize_t n;
	do
		n = pread(fd, b, sizeof b - 1, 0);
	while (n < 0 && errno == EINTR);
	return n > 0 && procstat_schedstat(b, (size_t)n, run, wait);
}

static void tid_rel(char *dst, size_t len, int32_t tid, const char *name)
{
	snprintf(dst, len, "%d/%s", (int)tid, name);
}

static void read_comm(struct sched_probe *p, int32_t tid, char *comm, size_t len)
{
	char rel[32], b[64];
	tid_rel(rel, sizeof rel, tid, "comm");
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

static int by_tid(const void *x, const void *y)
{
	const struct tidfd *a = x, *b = y;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

static int grow(struct tidfd **a, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	struct tidfd *n = realloc(*a, nc * sizeof *n);
	if (!n)
		return -ENOMEM;
	*a = n;
	*cap = nc;
	return 0;
}

/* a read of a kept fd into t; false when the thread is gone */
static bool read_kept(struct sched_probe *p, struct tidfd *t)
{
	uint64_t run, wait;
	p->reads++;
	if (!pread_one(t->fd, &run, &wait))
		return false;
	if (run == t->run && wait == t->wait)
		t->quiet += t->quiet < UINT8_MAX;
	else
		t->quiet = 0;
	uint64_t span = p->polls > t->read_poll ? p->polls - t->read_poll : 1;
	t->cool = t->run != UINT64_MAX && run >= t->run && wait >= t->wait &&
		  run - t->run < COOL_NS * span;
	t->read_poll = p->polls;
	t->run = run;
	t->wait = wait;
	return true;
}

/* Whether a task of this process may have been born since the previous
 * poll: see the top of this file. Called first in every poll. */
static bool maybe_born(struct sched_probe *p)
{
	char b[128];
	ssize_t n;
	uint64_t last;
	do
		n = pread(p->loadavg, b, sizeof b - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return true;
	while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == ' '))
		n--;
	size_t e = (size_t)n;
	while (n > 0 && b[n - 1] >= '0' && b[n - 1] <= '9')
		n--;
	if (e == (size_t)n || util_parse_u64(b + n, e - (size_t)n, &last) != e - (size_t)n || last > INT32_MAX)
		return true;
	int64_t prev = p->last_pid;
	p->last_pid = (int64_t)last;
	/* looking a pid up (~1 us, most are other processes') is cheaper than
	 * reading a thread's schedstat: up to half as many as there are threads
	 * (a loaded machine makes 100+ pids a second: with 64 at most, 2000
	 * sleepers were all read at every poll) */
	int64_t most = (int64_t)p->nfds / 2 > QUIET_MAX_NEW_PIDS ? (int64_t)p->nfds / 2 : QUIET_MAX_NEW_PIDS;
	if (prev < 0 || (int64_t)last < prev || (int64_t)last - prev > most)
		return true; /* the first poll, pids wrapped, or too many to look at */
	for (int64_t tid = prev + 1; tid <= (int64_t)last; tid++) {
		char rel[16];
		snprintf(rel, sizeof rel, "%d", (int)tid);
		if (faccessat(p->taskfd, rel, F_OK, 0) == 0)
			return true;
	}
	return false;
}

/* Fast path: every thread has a kept fd and the count says nobody was born.
 * Quiet threads are read in turns unless everyone must be (top of this file).
 * Returns 1 when the sample is complete, 0 when the task dir must be listed. */
static int poll_kept(struct sched_probe *p, uint64_t num_threads, bool born)
{
	if (!p->live || !p->all_kept || p->nfds == 0 || num_threads != p->nfds)
		return 0;
	/* a death is seen only by reading its fd: skip none when one may hide behind a birth */
	bool all = p->loadavg < 0 || born || p->read_all;
	size_t turn = (size_t)(p->polls % QUIET_EVERY);
	uint64_t woke_wait = 0;
	for (size_t i = 0; i < p->nfds; i++) {
		struct tidfd *t = &p->fds[i];
		uint64_t w0 = t->wait;
		bool every = all || (t->quiet < QUIET_READS && !t->cool);
		t->read = every || i % QUIET_EVERY == turn;
		if (!t->read)
			continue;
		if (!read_kept(p, t))
			return 0; /* a thread exited: list the directory to learn who was born */
		/* the busy ones' wait of this interval: a cool one read in its turn
		 * brings the wait of 16 (2000 sleepers on a loaded machine made
		 * every poll read every thread so) */
		if (every)
			woke_wait += t->wait > w0 ? t->wait - w0 : 0;
	}
	if (!all && woke_wait >= QUIET_WAKE_WAIT_NS)
		for (size_t i = 0; i < p->nfds; i++)
			if (!p->fds[i].read && !read_kept(p, &p->fds[i]))
				return 0;
	for (size_t i = 0; i < p->nfds; i++)
		if (schedacc_add(&p->acc, p->fds[i].tid, p->fds[i].run, p->fds[i].wait, NULL, 0) < 0)
			return -ENOMEM;
	return 1;
}

/* Slow path: list the task directory, reuse kept fds, open new ones within budget. */
static int poll_listed(struct sched_probe *p, int *nthreads)
{
	struct dirent *de;
	bool sorted = true;
	int32_t last = INT32_MIN;
	p->listings++;
	p->ntmp = 0;
	rewinddir(p->task);
	errno = 0;
	while ((de = readdir(p->task)) != NULL) {
		const char *name = de->d_name;
		size_t tl = strlen(name);
		uint64_t tid;
		if (name[0] < '0' || name[0] > '9' || tl > 10 || util_parse_u64(name, tl, &tid) != tl || tid > INT32_MAX)
			continue;
		if (grow(&p->tmp, &p->cap_tmp, p->ntmp + 1) < 0)
			return -ENOMEM;
		p->tmp[p->ntmp].tid = (int32_t)tid;
		p->tmp[p->ntmp].fd = -1;
		p->tmp[p->ntmp].run = p->tmp[p->ntmp].wait = UINT64_MAX; /* never read: not quiet */
		p->tmp[p->ntmp].quiet = 0;
		p->tmp[p->ntmp].cool = false;
		p->tmp[p->ntmp].read_poll = p->polls;
		sorted &= (int32_t)tid > last;
		last = (int32_t)tid;
		p->ntmp++;
		errno = 0;
	}
	if (errno && errno != ENOENT)
		return -errno;
	if (!sorted)
		qsort(p->tmp, p->ntmp, sizeof *p->tmp, by_tid);
	/* carry kept fds over to the threads still listed; close the others */
	size_t j = 0;
	for (size_t i = 0; i < p->nfds; i++) {
		while (j < p->ntmp && p->tmp[j].tid < p->fds[i].tid)
			j++;
		if (j < p->ntmp && p->tmp[j].tid == p->fds[i].tid && p->tmp[j].fd < 0) {
			p->tmp[j].fd = p->fds[i].fd;
			p->tmp[j].run = p->fds[i].run;
			p->tmp[j].wait = p->fds[i].wait;
			p->tmp[j].quiet = p->fds[i].quiet;
			p->tmp[j].cool = p->fds[i].cool;
			p->tmp[j].read_poll = p->fds[i].read_poll;
		} else if (p->fds[i].fd >= 0) {
			close(p->fds[i].fd);
			p->fd_used--;
		}
	}
	p->nfds = 0;
	bool all = true;
	size_t out = 0;
	for (size_t i = 0; i < p->ntmp; i++) {
		struct tidfd *t = &p->tmp[i];
		uint64_t run, wait;
		bool ok;
		char rel[32];
		if (t->fd < 0 && p->fd_used < p->fd_budget) {
			tid_rel(rel, sizeof rel, t->tid, "schedstat");
			t->fd = openat(p->taskfd, rel, O_RDONLY | O_CLOEXEC);
			if (t->fd >= 0)
				p->fd_used++;
		}
		if (t->fd >= 0) {
			ok = read_kept(p, t);
			if (!ok) {
				close(t->fd);
				p->fd_used--;
				t->fd = -1;
			}
			run = t->run;
			wait = t->wait;
		} else {
			char b[128];
			tid_rel(rel, sizeof rel, t->tid, "schedstat");
			p->reads++;
			ssize_t n = procfile_read(p->taskfd, rel, b, sizeof b);
			ok = n > 0 && procstat_schedstat(b, (size_t)n, &run, &wait);
		}
		if (!ok)
			continue; /* the thread exited between the listing and the read */
		if (schedacc_add(&p->acc, t->tid, run, wait, NULL, 0) < 0)
			return -ENOMEM;
		all &= t->fd >= 0;
		p->tmp[out++] = *t;
	}
	/* the listed (and readable) threads become the kept set */
	struct tidfd *sw = p->fds;
	size_t swc = p->cap_fds;
	p->fds = p->tmp;
	p->cap_fds = p->cap_tmp;
	p->nfds = out;
	p->tmp = sw;
	p->cap_tmp = swc;
	p->all_kept = all;
	*nthreads = (int)out;
	return 0;
}

/* State and thread count from the kept /proc/PID/status fd. It names the
 * process it was opened on: once that is gone (the pid reused or not) a read
 * fails with ESRCH. */
static int read_status(struct sched_probe *p, struct procfile_stat *si)
{
	char b[2048];
	ssize_t n;
	int64_t th;
	do
		n = pread(p->status_fd, b, sizeof b - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	b[n] = '\0';
	const char *st = util_memmem(b, (size_t)n, "\nState:");
	if (!st || !procfile_status_num(b, (size_t)n, "\nThreads:", 0, &th) || th < 0)
		return -EINVAL;
	st += 7;
	while (*st == ' ' || *st == '\t')
		st++;
	si->state = *st;
	si->num_threads = (uint64_t)th;
	si->starttime = p->starttime;
	return 0;
}

int sched_probe_poll(struct sched_probe *p, int64_t now_ms, struct event *out)
{
	struct procfile_stat si;
	/* before anything else: a thread born after this read is in the next range */
	bool born = p->loadavg < 0 || maybe_born(p);
	/* /proc/PID/stat sums the CPU time of every thread (2000 threads: ~0.8 ms a
	 * read here); status does not */
	int r = p->status_fd >= 0 ? read_status(p, &si) : procfile_read_stat(p->stat_path, &si);
	int nthreads = 0;
	if (r < 0)
		return r;
	if (si.state == 'Z' || si.state == 'X' || si.starttime != p->starttime)
		return -ESRCH; /* exited (zombie until reaped) or the pid now names another process */

	schedacc_begin(&p->acc);
	r = poll_kept(p, si.num_threads, born);
	if (r < 0)
		return r;
	if (r == 1) {
		nthreads = (int)p->nfds;
	} else {
		schedacc_begin(&p->acc); /* drop what the fast path added before it gave up */
		r = poll_listed(p, &nthreads);
		if (r < 0)
			return r;
	}
	if (nthreads == 0)
		return -ESRCH; /* the task directory emptied: the process died after the stat read */
	p->polls++;
	p->read_all = false;
	r = schedacc_end(&p->acc, now_ms, out);
	if (r == 1 && out->u.sched.worst_tid >= 0)
		read_comm(p, out->u.sched.worst_tid, out->u.sched.worst_comm, sizeof out->u.sched.worst_comm);
	return r;
}

uint64_t sched_probe_listings(const struct sched_probe *p)
{
	return p->listings;
}

uint64_t sched_probe_reads(const struct sched_probe *p)
{
	return p->reads;
}

void sched_probe_read_all(struct sched_probe *p)
{
	p->read_all = true;
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
