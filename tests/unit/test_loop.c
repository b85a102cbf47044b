/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_loop.c — the reactor: idle means asleep (CPU measured with getrusage),
 * timerfd timers (one-shot, periodic, re-armed, deleted from their own
 * callback), descriptors added and removed inside callbacks, signals through
 * a signalfd, loop_stop from a callback, EINTR. Waits are deadlines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "stwtop/loop.h"
#include "stwtop/util.h"

static int64_t cpu_us(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (int64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

static void on_any_fd(void *ctx, int fd, short revents)
{
	(void)fd;
	(void)revents;
	(*(int *)ctx)++;
}

/* Nothing ready: loop_once sleeps for its whole timeout, handles nothing and
 * burns (next to) no CPU. */
static void test_idle_once_sleeps(void **state)
{
	(void)state;
	struct loop *l = loop_new();
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	int hits = 0;
	assert_int_equal(loop_add_fd(l, p[0], POLLIN, on_any_fd, &hits), 0);
	int sigs[] = { SIGWINCH };
	assert_int_equal(loop_add_signals(l, sigs, 1, NULL, NULL), 0);
	int64_t cpu0 = cpu_us(), t0 = util_mono_ms();
	assert_int_equal(loop_once(l, 2000), 0);
	int64_t elapsed = util_mono_ms() - t0, cpu = cpu_us() - cpu0;
	print_message("idle loop_once(2000): %lld ms elapsed, %lld us CPU\n", (long long)elapsed, (long long)cpu);
	assert_true(elapsed >= 1990);
	assert_true(cpu < 20000);
	assert_int_equal(hits, 0);
	loop_free(l);
	close(p[0]);
	close(p[1]);
}

static void on_stop(void *ctx)
{
	loop_stop(ctx);
}

/* loop_run with nothing to do but a 2 s one-shot timer: asleep in between. */
static void test_idle_run_cpu(void **state)
{
	(void)state;
	struct loop *l = loop_new();
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	int hits = 0;
	assert_int_equal(loop_add_fd(l, p[0], POLLIN, on_any_fd, &hits), 0);
	assert_true(loop_add_timer(l, 2000, 0, on_stop, l) >= 0);
	int64_t cpu0 = cpu_us(), t0 = util_mono_ms();
	assert_int_equal(loop_run(l), 0);
	int64_t elapsed = util_mono_ms() - t0, cpu = cpu_us() - cpu0;
	print_message("idle loop_run 2 s: %lld ms elapsed, %lld us CPU\n", (long long)elapsed, (long long)cpu);
	assert_true(elapsed >= 1990);
	assert_true(cpu < 20000);
	assert_int_equal(hits, 0);
	loop_free(l);
	close(p[0]);
	close(p[1]);
}

struct timers {
	struct loop *l;
	int oneshot, periodic, immediate;
	int periodic_id;
};

static void on_periodic(void *ctx)
{
	struct timers *tm = ctx;
	if (++tm->periodic == 5)
		loop_del_timer(tm->l, tm->periodic_id);   /* from its own callback */
}

static void on_oneshot(void *ctx)
{
	((struct timers *)ctx)->oneshot++;
}

static void on_immediate(void *ctx)
{
	((struct timers *)ctx)->immediate++;
}

static void run_until(struct loop *l, const int *counter, int value, int timeout_ms)
{
	int64_t end = util_mono_ms() + timeout_ms;
	while (*counter < value && util_mono_ms() < end)
		loop_once(l, 100);
}

static void test_timers(void **state)
{
	(void)state;
	struct timers tm = { .l = loop_new() };
	int one = loop_add_timer(tm.l, 10, 0, on_oneshot, &tm);
	tm.periodic_id = loop_add_timer(tm.l, 20, 20, on_periodic, &tm);
	int now = loop_add_timer(tm.l, 0, 0, on_immediate, &tm);
	assert_true(one >= 0 && tm.periodic_id >= 0 && now >= 0);
	assert_true(one != tm.periodic_id && now != one);
	run_until(tm.l, &tm.periodic, 5, 10000);
	assert_int_equal(tm.periodic, 5);
	assert_int_equal(tm.oneshot, 1);
	assert_int_equal(tm.immediate, 1);
	/* deleted, and one-shots do not repeat: 10 periods of quiet */
	int64_t end = util_mono_ms() + 200;
	while (util_mono_ms() < end)
		loop_once(tm.l, 50);
	assert_int_equal(tm.periodic, 5);
	assert_int_equal(tm.oneshot, 1);
	assert_int_equal(loop_set_timer(tm.l, tm.periodic_id, 10, 0), -ENOENT);
	/* a one-shot re-armed fires again, once; disarmed it does not */
	assert_int_equal(loop_set_timer(tm.l, one, 5, 0), 0);
	run_until(tm.l, &tm.oneshot, 2, 10000);
	assert_int_equal(tm.oneshot, 2);
	assert_int_equal(loop_set_timer(tm.l, one, 20, 0), 0);
	assert_int_equal(loop_set_timer(tm.l, one, -1, 0), 0);
	end = util_mono_ms() + 100;
	while (util_mono_ms() < end)
		loop_once(tm.l, 50);
	assert_int_equal(tm.oneshot, 2);
	/* the freed slot is reused */
	int again = loop_add_timer(tm.l, 1000, 0, on_oneshot, &tm);
	assert_int_equal(again, tm.periodic_id);
	loop_free(tm.l);
}

struct fds {
	struct loop *l;
	int a[2], b[2], c[2], n[2];
	int a_hits, b_hits, c_hits, n_hits;
};

static void on_c(void *ctx, int fd, short revents)
{
	(void)revents;
	struct fds *f = ctx;
	char x;
	assert_int_equal(read(fd, &x, 1), 1);
	f->c_hits++;
}

static void on_n(void *ctx, int fd, short revents)
{
	(void)revents;
	struct fds *f = ctx;
	char x;
	assert_int_equal(read(fd, &x, 1), 1);
	f->n_hits++;
}

static void on_b(void *ctx, int fd, short revents)
{
	(void)fd;
	(void)revents;
	((struct fds *)ctx)->b_hits++;
}

/* A's callback removes B (ready in the same pass), closes B's fd and reuses
 * its number for a new pipe, and adds C: B's pending revents must reach
 * neither B nor the newcomer; new fds wait for the next pass. */
static void on_a(void *ctx, int fd, short revents)
{
	(void)revents;
	struct fds *f = ctx;
	char x;
	assert_int_equal(read(fd, &x, 1), 1);
	f->a_hits++;
	loop_del_fd(f->l, f->b[0]);
	int old_b = f->b[0];
	close(f->b[0]);
	assert_int_equal(pipe2(f->n, O_CLOEXEC), 0);
	assert_int_equal(f->n[0], old_b);   /* the lowest free number: B's */
	assert_int_equal(write(f->n[1], "n", 1), 1);
	assert_int_equal(loop_add_fd(f->l, f->n[0], POLLIN, on_n, f), 0);
	assert_int_equal(loop_add_fd(f->l, f->c[0], POLLIN, on_c, f), 0);
}

static void test_fds_changed_inside_callbacks(void **state)
{
	(void)state;
	struct fds f = { .l = loop_new() };
	assert_int_equal(pipe2(f.a, O_CLOEXEC), 0);
	assert_int_equal(pipe2(f.b, O_CLOEXEC), 0);
	assert_int_equal(pipe2(f.c, O_CLOEXEC), 0);
	assert_int_equal(loop_add_fd(f.l, f.a[0], POLLIN, on_a, &f), 0);
	assert_int_equal(loop_add_fd(f.l, f.b[0], POLLIN, on_b, &f), 0);
	assert_int_equal(loop_add_fd(f.l, f.a[0], POLLIN, on_a, &f), -EEXIST);
	assert_int_equal(loop_add_fd(f.l, -1, POLLIN, on_a, &f), -EBADF);
	assert_int_equal(write(f.a[1], "a", 1), 1);
	assert_int_equal(write(f.b[1], "b", 1), 1);
	assert_int_equal(write(f.c[1], "c", 1), 1);
	/* all three readable; a is first in the table */
	assert_int_equal(loop_once(f.l, 1000), 1);
	assert_int_equal(f.a_hits, 1);
	assert_int_equal(f.b_hits, 0);
	assert_int_equal(f.c_hits + f.n_hits, 0);
	assert_int_equal(loop_once(f.l, 1000), 2);
	assert_int_equal(f.c_hits, 1);
	assert_int_equal(f.n_hits, 1);
	assert_int_equal(f.b_hits, 0);
	assert_int_equal(loop_once(f.l, 20), 0);
	loop_del_fd(f.l, f.c[0]);
	assert_int_equal(write(f.c[1], "c", 1), 1);
	assert_int_equal(loop_once(f.l, 20), 0);
	assert_int_equal(f.c_hits, 1);
	loop_free(f.l);
	int all[] = { f.a[0], f.a[1], f.b[1], f.c[0], f.c[1], f.n[0], f.n[1] };
	for (size_t i = 0; i < ARRAY_LEN(all); i++)
		close(all[i]);
}

struct sigs {
	int got[_NSIG];
	int n;
};

static void on_signal(void *ctx, int signo)
{
	struct sigs *s = ctx;
	s->got[signo]++;
	s->n++;
}

static void test_signals(void **state)
{
	(void)state;
	struct loop *l = loop_new();
	struct sigs s = { { 0 }, 0 };
	int signos[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP };
	assert_int_equal(loop_add_signals(l, signos, 4, on_signal, &s), 0);
	/* blocked now: raising them does not run their default actions */
	raise(SIGTERM);
	kill(getpid(), SIGINT);
	raise(SIGWINCH);
	raise(SIGHUP);
	int64_t end = util_mono_ms() + 5000;
	while (s.n < 4 && util_mono_ms() < end)
		loop_once(l, 100);
	assert_int_equal(s.got[SIGTERM], 1);
	assert_int_equal(s.got[SIGINT], 1);
	assert_int_equal(s.got[SIGWINCH], 1);
	assert_int_equal(s.got[SIGHUP], 1);
	int bad[] = { 0 };
	assert_int_equal(loop_add_signals(l, bad, 1, on_signal, &s), -EINVAL);
	/* a pending one is consumed by loop_free, then the mask is as before */
	raise(SIGTERM);
	loop_free(l);
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	assert_false(sigismember(&now, SIGTERM));
	assert_false(sigismember(&now, SIGWINCH));
}

static void on_tick_stop(void *ctx)
{
	struct timers *tm = ctx;
	if (++tm->periodic >= 3)
		loop_stop(tm->l);
}

static void test_stop_from_callback(void **state)
{
	(void)state;
	struct timers tm = { .l = loop_new() };
	assert_true(loop_add_timer(tm.l, 5, 5, on_tick_stop, &tm) >= 0);
	assert_int_equal(loop_run(tm.l), 0);
	assert_int_equal(tm.periodic, 3);
	/* and it can run again */
	assert_int_equal(loop_run(tm.l), 0);
	assert_int_equal(tm.periodic, 4);
	loop_free(tm.l);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int signo)
{
	(void)signo;
	alarms++;
}

/* A signal with a handler (not one the loop reads) interrupts poll():
 * loop_once reports 0 events, loop_run carries on. */
static void test_eintr(void **state)
{
	(void)state;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;   /* no SA_RESTART (poll never restarts anyway) */
	sigaction(SIGALRM, &sa, &old);
	struct loop *l = loop_new();
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	alarms = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	int64_t t0 = util_mono_ms();
	assert_int_equal(loop_once(l, 5000), 0);
	assert_true(util_mono_ms() - t0 < 4000);
	assert_int_equal(alarms, 1);
	/* loop_run: interrupted every 20 ms, stopped by its timer at 300 ms */
	struct itimerval every = { { 0, 20000 }, { 0, 20000 } };
	setitimer(ITIMER_REAL, &every, NULL);
	assert_true(loop_add_timer(l, 300, 0, on_stop, l) >= 0);
	assert_int_equal(loop_run(l), 0);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	assert_true(alarms > 1);
	loop_free(l);
	sigaction(SIGALRM, &old, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_once_sleeps),
		cmocka_unit_test(test_idle_run_cpu),
		cmocka_unit_test(test_timers),
		cmocka_unit_test(test_fds_changed_inside_callbacks),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_stop_from_callback),
		cmocka_unit_test(test_eintr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
