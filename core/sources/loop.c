/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loop.c — the one reactor (see include/stwtop/loop.h), in the spirit of
 * redis' ae.c: a single poll() backend, no threads, a few hundred lines.
 *
 * Everything the loop waits on is a descriptor: user fds (inotify, the
 * keyboard), one timerfd per timer (CLOCK_MONOTONIC, so a wall-clock jump
 * never fires or starves a timer) and one signalfd for the signals a caller
 * asked for (they are blocked with sigprocmask first, so they arrive as data
 * instead of interrupting whatever runs). When nothing is armed the process
 * sleeps in poll() with no timeout: idle costs no CPU.
 *
 * Callbacks may add and remove descriptors and timers and call loop_stop. A
 * removal inside a callback only marks the entry dead; the table is compacted
 * after the dispatch pass, so an fd number that is closed and reused inside
 * the same pass is never handed the previous owner's revents.
 */
#include "stwtop/loop.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

enum loop_kind { LOOP_KIND_USER, LOOP_KIND_TIMER, LOOP_KIND_SIGNAL };

struct loop_fd {
	int fd;
	short events;
	enum loop_kind kind;
	bool dead;              /* removed; compacted after the dispatch pass */
	loop_fd_fn fn;
	void *ctx;
	int timer;              /* LOOP_KIND_TIMER: its slot in l->timers */
};

struct loop_timer {
	int tfd;                /* -1: free slot */
	loop_timer_fn fn;
	void *ctx;
};

struct loop_sig {
	loop_signal_fn fn;
	void *ctx;
};

struct loop {
	struct loop_fd *fds;
	size_t nfds, capfds;
	struct pollfd *pfds;
	size_t cappfds;
	struct loop_timer *timers;
	size_t ntimers;
	int sfd;                     /* signalfd, -1 until loop_add_signals */
	sigset_t sigmask;            /* signals read through sfd */
	sigset_t blocked_by_us;      /* of those, the ones that were not blocked before */
	struct loop_sig sigs[_NSIG];
	bool stop;
	bool dispatching;
};

struct loop *loop_new(void)
{
	struct loop *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->sfd = -1;
	sigemptyset(&l->sigmask);
	sigemptyset(&l->blocked_by_us);
	return l;
}

static void loop_compact(struct loop *l)
{
	size_t j = 0;
	for (size_t i = 0; i < l->nfds; i++)
		if (!l->fds[i].dead)
			l->fds[j++] = l->fds[i];
	l->nfds = j;
}

static struct loop_fd *loop_find(struct loop *l, int fd)
{
	for (size_t i = 0; i < l->nfds; i++)
		if (l->fds[i].fd == fd && !l->fds[i].dead)
			return &l->fds[i];
	return NULL;
}

static int loop_push(struct loop *l, int fd, short events, enum loop_kind kind)
{
	if (fd < 0)
		return -EBADF;
	if (loop_find(l, fd))
		return -EEXIST;
	if (l->nfds == l->capfds) {
		size_t cap = l->capfds ? l->capfds * 2 : 8;
		struct loop_fd *n = realloc(l->fds, cap * sizeof *n);
		if (!n)
			return -ENOMEM;
		l->fds = n;
		l->capfds = cap;
	}
	l->fds[l->nfds++] = (struct loop_fd){ .fd = fd, .events = events, .kind = kind, .timer = -1 };
	return 0;
}

static void loop_unlink(struct loop *l, struct loop_fd *e)
{
	e->dead = true;
	if (!l->dispatching)
		loop_compact(l);
}

int loop_add_fd(struct loop *l, int fd, short events, loop_fd_fn fn, void *ctx)
{
	int r = loop_push(l, fd, events, LOOP_KIND_USER);
	if (r < 0)
		return r;
	l->fds[l->nfds - 1].fn = fn;
	l->fds[l->nfds - 1].ctx = ctx;
	return 0;
}

void loop_del_fd(struct loop *l, int fd)
{
	struct loop_fd *e = loop_find(l, fd);
	if (e && e->kind == LOOP_KIND_USER)
		loop_unlink(l, e);
}

static void loop_ms_to_ts(int64_t ms, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ms / 1000);
	ts->tv_nsec = (long)(ms % 1000) * 1000000L;
}

/* first_ms < 0 disarms; 0 fires as soon as possible (timerfd reads an all-zero
 * it_value as "disarm", so it becomes 1 ns). */
static int loop_arm(int tfd, int64_t first_ms, int64_t interval_ms)
{
	struct itimerspec its;
	memset(&its, 0, sizeof its);
	if (first_ms >= 0) {
		loop_ms_to_ts(first_ms, &its.it_value);
		if (first_ms == 0)
			its.it_value.tv_nsec = 1;
		if (interval_ms > 0)
			loop_ms_to_ts(interval_ms, &its.it_interval);
	}
	return timerfd_settime(tfd, 0, &its, NULL) < 0 ? -errno : 0;
}

int loop_add_timer(struct loop *l, int64_t first_ms, int64_t interval_ms, loop_timer_fn fn, void *ctx)
{
	size_t slot = 0;
	while (slot < l->ntimers && l->timers[slot].tfd >= 0)
		slot++;
	if (slot == l->ntimers) {
		struct loop_timer *n = realloc(l->timers, (l->ntimers + 1) * sizeof *n);
		if (!n)
			return -ENOMEM;
		l->timers = n;
		l->timers[l->ntimers++].tfd = -1;
	}
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (tfd < 0)
		return -errno;
	int r = loop_arm(tfd, first_ms, interval_ms);
	if (r == 0)
		r = loop_push(l, tfd, POLLIN, LOOP_KIND_TIMER);
	if (r < 0) {
		close(tfd);
		return r;
	}
	l->fds[l->nfds - 1].timer = (int)slot;
	l->timers[slot] = (struct loop_timer){ .tfd = tfd, .fn = fn, .ctx = ctx };
	return (int)slot;
}

static struct loop_timer *loop_timer_get(struct loop *l, int id)
{
	if (id < 0 || (size_t)id >= l->ntimers || l->timers[id].tfd < 0)
		return NULL;
	return &l->timers[id];
}

int loop_set_timer(struct loop *l, int id, int64_t first_ms, int64_t interval_ms)
{
	struct loop_timer *tm = loop_timer_get(l, id);
	if (!tm)
		return -ENOENT;
	return loop_arm(tm->tfd, first_ms, interval_ms);
}

void loop_del_timer(struct loop *l, int id)
{
	struct loop_timer *tm = loop_timer_get(l, id);
	if (!tm)
		return;
	struct loop_fd *e = loop_find(l, tm->tfd);
	if (e)
		loop_unlink(l, e);
	close(tm->tfd);
	tm->tfd = -1;
}

int loop_add_signals(struct loop *l, const int *signos, int n, loop_signal_fn fn, void *ctx)
{
	sigset_t add, old;
	sigemptyset(&add);
	for (int i = 0; i < n; i++) {
		if (signos[i] <= 0 || signos[i] >= _NSIG || sigaddset(&add, signos[i]) < 0)
			return -EINVAL;
	}
	/* Block before the signalfd exists: a signal arriving in between stays
	 * pending and is read from the signalfd, it never runs a default action. */
	if (sigprocmask(SIG_BLOCK, &add, &old) < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (!sigismember(&old, signos[i]))
			sigaddset(&l->blocked_by_us, signos[i]);
		sigaddset(&l->sigmask, signos[i]);
		l->sigs[signos[i]] = (struct loop_sig){ .fn = fn, .ctx = ctx };
	}
	int sfd = signalfd(l->sfd, &l->sigmask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0)
		return -errno;
	if (l->sfd < 0) {
		int r = loop_push(l, sfd, POLLIN, LOOP_KIND_SIGNAL);
		if (r < 0) {
			close(sfd);
			return r;
		}
		l->sfd = sfd;
	}
	return 0;
}

static void loop_read_signals(struct loop *l)
{
	struct signalfd_siginfo si;
	while (read(l->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
		int signo = (int)si.ssi_signo;
		if (signo > 0 && signo < _NSIG && l->sigs[signo].fn)
			l->sigs[signo].fn(l->sigs[signo].ctx, signo);
	}
}

static void loop_fire_timer(struct loop *l, int slot)
{
	struct loop_timer *tm = loop_timer_get(l, slot);
	uint64_t expirations;
	/* Overruns (a stalled process) are coalesced into one call: pollers read
	 * counters, they do not need one call per missed tick. */
	if (!tm || read(tm->tfd, &expirations, sizeof expirations) != (ssize_t)sizeof expirations)
		return;
	if (tm->fn)
		tm->fn(tm->ctx);
}

int loop_once(struct loop *l, int timeout_ms)
{
	loop_compact(l);
	if (l->nfds > l->cappfds) {
		struct pollfd *n = realloc(l->pfds, l->nfds * sizeof *n);
		if (!n)
			return -ENOMEM;
		l->pfds = n;
		l->cappfds = l->nfds;
	}
	size_t n = l->nfds;
	for (size_t i = 0; i < n; i++)
		l->pfds[i] = (struct pollfd){ .fd = l->fds[i].fd, .events = l->fds[i].events };
	int r = poll(l->pfds, n, timeout_ms);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;

	/* Entries added by callbacks are appended after n and wait for the next
	 * pass; entries removed are marked dead and skipped. fds may be
	 * reallocated by a callback, so it is indexed afresh every time. */
	int handled = 0;
	l->dispatching = true;
	for (size_t i = 0; i < n && r > 0; i++) {
		short rev = l->pfds[i].revents;
		if (!rev)
			continue;
		r--;
		if (l->fds[i].dead)
			continue;
		handled++;
		switch (l->fds[i].kind) {
		case LOOP_KIND_USER:
			l->fds[i].fn(l->fds[i].ctx, l->fds[i].fd, rev);
			break;
		case LOOP_KIND_TIMER:
			loop_fire_timer(l, l->fds[i].timer);
			break;
		case LOOP_KIND_SIGNAL:
			loop_read_signals(l);
			break;
		}
	}
	l->dispatching = false;
	loop_compact(l);
	return handled;
}

int loop_run(struct loop *l)
{
	int r = 0;
	while (!l->stop) {
		r = loop_once(l, -1);
		if (r < 0)
			break;
		r = 0;
	}
	l->stop = false;
	return r;
}

void loop_stop(struct loop *l)
{
	l->stop = true;
}

void loop_free(struct loop *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->ntimers; i++)
		if (l->timers[i].tfd >= 0)
			close(l->timers[i].tfd);
	if (l->sfd >= 0) {
		/* Consume what is pending first: unblocking a pending SIGTERM would
		 * otherwise run its default action at this point. */
		struct signalfd_siginfo si;
		while (read(l->sfd, &si, sizeof si) == (ssize_t)sizeof si)
			;
		close(l->sfd);
		sigprocmask(SIG_UNBLOCK, &l->blocked_by_us, NULL);
	}
	free(l->fds);
	free(l->pfds);
	free(l->timers);
	free(l);
}
