/* SPDX-License-Identifier: GPL-2.0-or-later */
/* schedacc.c — per-thread schedstat deltas over one interval (include/stwtop/schedacc.h).
 * The kernel's /proc/PID/task/(tid)/schedstat holds "run_ns wait_ns timeslices",
 * cumulative since the thread started (Documentation/scheduler/sched-stats.rst).
 * Both samples are kept sorted by tid and merged in one pass, so a poll over
 * thousands of threads is O(n) (plus one sort when readdir order was not sorted). */
#include "stwtop/schedacc.h"

#include "stwtop/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void schedacc_init(struct schedacc *a)
{
	memset(a, 0, sizeof *a);
	a->prev_t_ms = EV_TIME_NONE;
}

void schedacc_fini(struct schedacc *a)
{
	free(a->cur);
	free(a->prev);
	memset(a, 0, sizeof *a);
}

void schedacc_reset(struct schedacc *a)
{
	a->ncur = a->nprev = 0;
	a->have_prev = false;
	a->prev_t_ms = EV_TIME_NONE;
}

void schedacc_begin(struct schedacc *a)
{
	a->ncur = 0;
	a->cur_sorted = true;
	a->last_tid = INT32_MIN;
}

int schedacc_add(struct schedacc *a, int32_t tid, uint64_t run_ns, uint64_t wait_ns,
		 const char *comm, size_t comm_len)
{
	struct schedacc_thread *t;
	if (a->ncur == a->cap_cur) {
		size_t ncap = a->cap_cur ? a->cap_cur * 2 : 256;
		struct schedacc_thread *n = realloc(a->cur, ncap * sizeof *n);
		if (!n)
			return -ENOMEM;
		a->cur = n;
		a->cap_cur = ncap;
	}
	t = &a->cur[a->ncur++];
	t->tid = tid;
	t->run_ns = run_ns;
	t->wait_ns = wait_ns;
	t->d_run_ns = t->d_wait_ns = 0;
	/* whole buffer defined: events are compared and recorded byte for byte */
	memset(t->comm, 0, sizeof t->comm);
	if (comm)
		util_strlcpy_n(t->comm, sizeof t->comm, comm, comm_len);
	if (tid <= a->last_tid)
		a->cur_sorted = false;
	a->last_tid = tid;
	return 0;
}

static int by_tid(const void *x, const void *y)
{
	const struct schedacc_thread *a = x, *b = y;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

int schedacc_end(struct schedacc *a, int64_t t_ms, struct event *out)
{
	size_t i = 0, j = 0;
	uint64_t run = 0, wait = 0, worst = 0, busy_both = 0;
	size_t both = 0;
	const struct schedacc_thread *w = NULL;
	int emitted = 0;

	if (!a->cur_sorted && a->ncur > 1)
		qsort(a->cur, a->ncur, sizeof *a->cur, by_tid);

	if (a->have_prev) {
		for (i = 0; i < a->ncur; i++) {
			struct schedacc_thread *c = &a->cur[i];
			while (j < a->nprev && a->prev[j].tid < c->tid)
				j++; /* vanished thread: nothing to count */
			if (j < a->nprev && a->prev[j].tid == c->tid && c->run_ns >= a->prev[j].run_ns &&
			    c->wait_ns >= a->prev[j].wait_ns) {
				c->d_run_ns = c->run_ns - a->prev[j].run_ns;
				c->d_wait_ns = c->wait_ns - a->prev[j].wait_ns;
				both++;
				busy_both += c->d_run_ns + c->d_wait_ns;
			} else {
				/* new since the previous sample (or a reused tid): all of it is new */
				c->d_run_ns = c->run_ns;
				c->d_wait_ns = c->wait_ns;
			}
			run += c->d_run_ns;
			wait += c->d_wait_ns;
			if (c->d_wait_ns > worst) { /* nobody waited: no worst thread */
				w = c;
				worst = c->d_wait_ns;
			}
		}
		ev_init(out, EV_SCHED);
		out->t_ms = t_ms;
		out->u.sched.interval_ms =
			(t_ms != EV_TIME_NONE && a->prev_t_ms != EV_TIME_NONE) ? (double)(t_ms - a->prev_t_ms) : -1;
		out->u.sched.oncpu_ms = (double)run / 1e6;
		out->u.sched.wait_ms = (double)wait / 1e6;
		out->u.sched.nthreads = (int32_t)(a->ncur > INT32_MAX ? INT32_MAX : a->ncur);
		if (out->u.sched.interval_ms >= 0) {
			double idle = out->u.sched.interval_ms * (double)both - (double)busy_both / 1e6;
			out->u.sched.idle_ms = idle > 0 ? idle : 0;
		}
		if (w) {
			out->u.sched.worst_tid = w->tid;
			out->u.sched.worst_wait_ms = (double)w->d_wait_ns / 1e6;
			memcpy(out->u.sched.worst_comm, w->comm, sizeof out->u.sched.worst_comm);
		}
		emitted = 1;
	}

	/* this sample becomes the previous one; its buffer is reused next time */
	{
		struct schedacc_thread *tp = a->prev;
		size_t tc = a->cap_prev;
		a->prev = a->cur;
		a->cap_prev = a->cap_cur;
		a->nprev = a->ncur;
		a->cur = tp;
		a->cap_cur = tc;
		a->ncur = 0;
	}
	a->prev_t_ms = t_ms;
	a->have_prev = true;
	return emitted;
}

const struct schedacc_thread *schedacc_threads(const struct schedacc *a, size_t *n)
{
	*n = a->nprev;
	return a->prev;
}
