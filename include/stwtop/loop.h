/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loop.h — the one reactor: poll() over file descriptors, a timerfd for
 * periodic work and a signalfd for SIGWINCH/SIGINT/SIGTERM/SIGHUP. No threads,
 * no busy waiting: when nothing happens the process sleeps in poll().
 *
 * Callbacks may add and remove fds and timers and call loop_stop: a removed
 * entry is never called again, not even for events of the pass that removed
 * it, and an added one waits for the next pass. Not thread-safe (one loop,
 * one thread). */
#ifndef STWTOP_LOOP_H
#define STWTOP_LOOP_H

#include <stdbool.h>
#include <stdint.h>

struct loop;

typedef void (*loop_fd_fn)(void *ctx, int fd, short revents);
typedef void (*loop_timer_fn)(void *ctx);
typedef void (*loop_signal_fn)(void *ctx, int signo);

struct loop *loop_new(void);
void loop_free(struct loop *l);

/* Watch fd for events (POLLIN...). Returns 0 or -errno. */
int loop_add_fd(struct loop *l, int fd, short events, loop_fd_fn fn, void *ctx);
void loop_del_fd(struct loop *l, int fd);

/* A periodic timer (timerfd, CLOCK_MONOTONIC): first after first_ms, then every
 * interval_ms (0 = one-shot). Returns a timer id >= 0 or -errno. first_ms 0
 * fires as soon as possible, first_ms < 0 leaves it disarmed (loop_set_timer
 * re-arms). Expirations missed while the process was stalled are coalesced
 * into one call. A one-shot timer keeps its id until loop_del_timer. */
int loop_add_timer(struct loop *l, int64_t first_ms, int64_t interval_ms, loop_timer_fn fn, void *ctx);
int loop_set_timer(struct loop *l, int id, int64_t first_ms, int64_t interval_ms);
void loop_del_timer(struct loop *l, int id);

/* Block these signals and deliver them through a signalfd in the loop (may be
 * called again to add more). loop_free consumes what is pending and unblocks
 * the ones it blocked. Children inherit the blocked mask: a child that execs
 * should unblock them. */
int loop_add_signals(struct loop *l, const int *signos, int n, loop_signal_fn fn, void *ctx);

/* Run until loop_stop. Returns 0, or -errno if poll failed. */
int loop_run(struct loop *l);
void loop_stop(struct loop *l);
/* One iteration with a timeout (ms, -1 = forever): for tests. Returns events handled. */
int loop_once(struct loop *l, int timeout_ms);

#endif
