/* SPDX-License-Identifier: GPL-2.0-or-later */
/* live.h — the live engine: one reactor (loop.h) that follows the files
 * (tail.h), polls the probes every interval (probe.h), replays a demo at a
 * pace, feeds everything into the session, and tells the view when to draw.
 * No threads; idle means asleep in poll(). The view (curses or plain) adds
 * its own descriptors (the keyboard) to live_loop(). */
#ifndef STWTOP_LIVE_H
#define STWTOP_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/loop.h"
#include "stwtop/session.h"

struct live_opts {
	int interval_ms;            /* probes, status and judgement */
	int pid;                    /* 0: none */
	const char *cgroup;         /* --cgroup DIR */
	const char *record;         /* --record FILE */
	const char *proc_root;      /* "" (tests may point it at a fixture tree) */
	bool demo;                  /* replay the sources at a pace instead of following them */
	double demo_speed;          /* event time per wall time */
	const char *hs_err_dir;     /* also watch this directory for hs_err_pid<hs_err_pid>.log (0: any
				       hs_err_pid*); with a pid, every place its JVM may write a crash
				       report is watched anyway (-XX:ErrorFile, cwd, /tmp: discover.h) */
	int hs_err_pid;             /* ... of this pid, as the JVM sees it (its NSpid; 0: any) */
	bool enable_jvm_logging;    /* --enable-jvm-logging: turn GC + safepoint logging on in pid
				       when the run starts (live_enable_jvm_logging) */
};

struct live_view {
	void (*tick)(void *ctx, int64_t now_ms);          /* every interval, after judging */
	void (*changed)(void *ctx);                       /* new data: redraw soon */
	void (*signal)(void *ctx, int signo);             /* SIGWINCH, SIGHUP (SIGINT/TERM stop) */
	void (*note)(void *ctx, int src, const char *msg, bool is_error);
	void (*demo_done)(void *ctx);                     /* the replay reached its end */
	/* each of session_hints() once, when the run starts; NULL: told as a note
	 * ("hint: ...", src -1), which is how --plain prints them */
	void (*hint)(void *ctx, const char *text);
};

struct live;

struct live *live_new(struct session *s, const struct live_opts *o, char *err, size_t errlen);
void live_free(struct live *l);
void live_set_view(struct live *l, const struct live_view *v, void *ctx);
struct loop *live_loop(struct live *l);
/* Start following / polling / replaying and run until live_stop or a signal. */
int live_run(struct live *l);
void live_stop(struct live *l);
/* demo: the event time shown (the replay clock) */
int64_t live_clock(const struct live *l);
bool live_demo_done(const struct live *l);
/* the JVM of --pid has exited: true, *alive_ms the last poll that found it
 * (0 unknown), *gone_ms the first that did not; false while it runs (or no pid) */
bool live_jvm_gone(const struct live *l, int64_t *alive_ms, int64_t *gone_ms);
void live_set_paused(struct live *l, bool paused);

/* GC + safepoint logging turned on in the JVM of --pid with the user's consent
 * (vmlog.h), and its file followed as a JVM log source from then on, like a --gc
 * file. live_jvm_logging_target: the pid and the file the JVM would write (its
 * own path), for a question to the user; 0 when there is nothing to ask, why
 * saying which (no JVM pid: demo, files only; the JVM exited; stwtop turned its
 * logging on already, to which file; the JVM cannot be attached to). live_enable_jvm_logging: 0 (msg says
 * what was done, or that the JVM already logs GC to a file, now followed) or
 * -errno (msg: why not). Both also say msg as a note. Blocks while the JVM's
 * attach listener starts (at most seconds). live_disable_jvm_logging: removes
 * the output that was added (only that one): 1 removed, 0 nothing to do,
 * -errno; msg says which. live_free does it too, silently. */
int live_jvm_logging_target(const struct live *l, char *path, size_t len, char *why, size_t whylen);
int live_enable_jvm_logging(struct live *l, char *msg, size_t msglen);
int live_disable_jvm_logging(struct live *l, char *msg, size_t msglen);
/* The output to stwtop's own file an earlier stwtop added to the JVM of --pid and
 * left (vmlog_leftover): 1 found (msg says so; kept for live_jvm_logging_leftover_do),
 * 0 none, -errno (msg: why). live_jvm_logging_leftover_do: take it over (follow its
 * file, remove it at exit, as if L had added it) or remove it now; 0 or -errno, msg
 * says what was done (also as a note). */
int live_jvm_logging_leftover(struct live *l, char *msg, size_t msglen);
int live_jvm_logging_leftover_do(struct live *l, bool take_over, char *msg, size_t msglen);

#endif
