/* SPDX-License-Identifier: GPL-2.0-or-later */
/* live.c — the live engine (live.h): follow, poll, replay, judge, tell the view.
 *
 * Judging happens on the interval timer with the wall clock (or the replay
 * clock in a demo), never while the backlog of the files is being read, so an
 * incident is only final once every source has had its say: the verdicts of a
 * live run over some input end equal to the report's over the same input.
 */
#include "stwtop/live.h"
#include "stwtop/discover.h"
#include "stwtop/hserr.h"
#include "stwtop/probe.h"
#include "stwtop/reader.h"
#include "stwtop/record.h"
#include "stwtop/rules.h"
#include "stwtop/tail.h"
#include "stwtop/util.h"
#include "stwtop/vmlog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TAILS 64
#define DEMO_STEP_MS 50

struct live {
	struct session *s;
	struct live_opts o;
	struct loop *loop;
	struct tail *tail;
	int tail_src[MAX_TAILS];        /* tail id -> session source + 1 (0: not yet known) */
	int adding_src;                 /* the source being added: tail_add reads its content */
	int eval_timer;                 /* one-shot: judge shortly after new data */
	int ctr_timer;                  /* one-shot: the next step of the JVM's counters, -1 none */
	int64_t ctr_step_mono;          /* when the last step was taken */
	int tail_timer;                 /* one-shot: the files' descriptor back in the loop
					   (TAIL_GAP_MS after a pass), -1 none */
	int demo_timer;
	bool eval_armed;
	int64_t last_eval_mono;         /* when data was last judged (eval_soon) */
	int64_t last_demo_eval;
	bool caught_up;                 /* the files' existing content has been read */
	struct cgroup_probe *cg;
	struct sched_probe *sched;
	int64_t sched_ms;               /* the last sched poll, 0 none */
	int64_t nr_throttled;           /* cpu.stat's at the last cgroup poll, -1 unknown */
	struct vmstat_probe *vm;
	struct hsperf_probe *ctr;       /* the JVM's own counters (hsperfdata) */
	int src_cg, src_sched, src_vm, src_ctr;  /* session sources of the probes */
	int ctr_said;                   /* -errno said, 0 none */
	bool sched_gone;
	int64_t alive_ms;        /* the last poll that found the process */
	struct jvmout_probe *out;       /* its stdout/stderr when they are files */
	uint8_t oome_opts;              /* EXIT_OPT_* of its command line */
	int64_t gone_ms;         /* the first that did not (sched_gone) */
	/* the probe problems last said: a problem is said when it appears or
	 * changes, and its end once, not at every poll */
	char cg_said[512];
	int sched_said, vm_said;        /* -errno said, 0 none */
	struct recorder *record;
	int64_t pid_start_ms;           /* --pid: its start time (EV_TIME_NONE unknown) */
	int64_t anchor_said;            /* the JVM start last said and recorded */
	const struct live_view *view;
	void *vctx;
	/* demo */
	int64_t demo_t0, demo_wall0, demo_clock;
	bool demo_done, paused;
	int64_t paused_at;
	/* what was said before a view existed (live_new): told when live_run starts */
	struct { char msg[600]; int src; bool is_error; } early[8];
	int nearly;
	/* crash reports */
	struct hserr_probe *hs;
	int hs_timer;
	int src_hs;
	/* logging turned on in the JVM (--enable-jvm-logging, the L key) */
	struct vmlog_on jlog;
	struct vmlog_on left;    /* an output an earlier stwtop left (vmlog_leftover) */
	bool left_found;
	bool running;                   /* live_run has set up the loop */
};

static void note(struct live *l, int src, const char *msg, bool is_error)
{
	if (src >= 0)
		session_source_note(l->s, src, msg, is_error);
	if (l->view && l->view->note) {
		l->view->note(l->vctx, src, msg, is_error);
	} else if (!l->view && l->nearly < (int)ARRAY_LEN(l->early) && src < 0) {
		/* what a source said is in its stats (views show those at start); the rest waits here */
		util_strlcpy_n(l->early[l->nearly].msg, sizeof l->early[l->nearly].msg, msg, strlen(msg));
		l->early[l->nearly].src = src;
		l->early[l->nearly].is_error = is_error;
		l->nearly++;
	}
}

/* What cannot be followed, said as the source's error (the run goes on with
 * the others and ends with 1): a gzip or zstd file does not grow (whoever compressed it
 * is done with it, or will replace it whole), and "-" is not a file to watch. */
static bool live_refuse(struct live *l, int i)
{
	const char *path = session_source_path(l->s, i), *z;
	char msg[400];
	if (strcmp(path, READER_STDIN) == 0)
		snprintf(msg, sizeof msg, "stdin ('-'): live mode follows files; read a stream with "
			 "stwtop --report --gc -, or follow a FIFO (--gc <(command))");
	else if ((z = reader_compressed_file(path)))
		snprintf(msg, sizeof msg, "%s: a %s-compressed file: it does not grow, so it is not followed; "
			 "read it once with stwtop --report", path, z);
	else
		return false;
	note(l, i, msg, true);
	return true;
}

static void changed(struct live *l)
{
	if (l->view && l->view->changed)
		l->view->changed(l->vctx);
}

/* --- files --- */

static void on_line(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	struct live *l = ctx;
	if (id < 0 || id >= MAX_TAILS)
		return;
	int src = l->tail_src[id] ? l->tail_src[id] - 1 : l->adding_src;
	if (src < 0)
		return;
	session_feed_line(l->s, src, line, len, flags, l->caught_up ? util_now_ms() : EV_TIME_NONE);
}

static void on_note(void *ctx, int id, enum tail_note what, const char *msg)
{
	struct live *l = ctx;
	int src = (id >= 0 && id < MAX_TAILS && l->tail_src[id]) ? l->tail_src[id] - 1 : l->adding_src;
	/* before the note, so the view it reaches already knows */
	if (src >= 0 && what != TAIL_NOTE_OVERFLOW)
		session_source_waiting(l->s, src, what == TAIL_NOTE_WAITING);
	note(l, src, msg, what == TAIL_NOTE_ERROR);
}

/* Incidents are final once the DATA has moved on past them (rules.h): the
 * newest time any source reported, not the wall clock, so a recording that
 * is appended to files now, with old timestamps, is judged like the report. */
static int64_t data_clock(const struct live *l)
{
	return l->o.demo ? l->demo_clock : session_timeline(l->s)->newest_ms;
}

/* Lines arrive one write at a time (nginx writes each request): a pass per
 * write costs a wake-up, poll, epoll_wait, libinotifytools' select, ioctl
 * and read, and the tail's reads. So after a pass the descriptor leaves the
 * loop's set for TAIL_GAP_MS and a timer brings it back: writes of that gap
 * are read in the next pass, which under a steady stream follows the timer at
 * once (the descriptor is readable: poll does not sleep), one wake-up per gap.
 * The first write after a quiet spell is read at once; a line in a steady
 * stream waits at most TAIL_GAP_MS, about half of it in the median, which
 * must stay within the 50 ms median from write to screen. The wake-up is
 * what a pass costs most (a context switch; on a VM, the idle vCPU's exit),
 * so the gap is as long as that median allows. Measured (RESULTS.md,
 * "live cost — the files' gap"), 170 lines/s and a JVM of 2020 threads:
 * a 40 ms gap woke stwtop 28 times a second, 0.48 % of a CPU, stream median
 * 23 ms; 80 ms: ~15 wake-ups, 0.38 %, median 31 ms; 90 ms gave a median of
 * 59 ms in one run, over the bound. With --pid the counters' 100 ms step
 * rides on each pass (ctr_step_early: due within a quarter step). */
#define TAIL_GAP_MS 80

/* Bytes one pass reads at most: a backlog (a 1 GB log appearing at once, an
 * inotify overflow's rescanned generations) is read a slice per loop turn,
 * the next slice at once (tail_more), and ticks, frames and status lines
 * keep their interval meanwhile. 2 MiB parse in a few ms. */
#define TAIL_BUDGET (2u << 20)

/* Judge as soon as new data is in, not at the next tick, so a verdict shows
 * up with the line that completes it; at most once per EVAL_GAP_MS though: a
 * busy log wakes us hundreds of times a second, and judging is the costly
 * part of a wake-up. The first data after a quiet spell is judged at once; in
 * a burst, the rest is judged when the gap is over (always judged: the timer
 * holds it). The gap is the files' own: under a steady stream each pass is
 * judged in the wake-up that read it (a 100 ms gap made a line in a stream
 * wait ~100 ms for its verdict, latency.py with LATENCY_STREAM=1). */
#define EVAL_GAP_MS (TAIL_GAP_MS - 5) /* the pass itself takes time: judged in the same wake-up */

static void eval_now(struct live *l)
{
	l->eval_armed = false;
	l->last_eval_mono = util_mono_ms();
	session_eval(l->s, data_clock(l), false);
	changed(l);
}

static void eval_soon(struct live *l)
{
	if (l->eval_armed || l->eval_timer < 0)
		return;
	int64_t since = util_mono_ms() - l->last_eval_mono;
	if (since >= EVAL_GAP_MS) {
		eval_now(l);
		return;
	}
	if (loop_set_timer(l->loop, l->eval_timer, (int)(EVAL_GAP_MS - since), 0) == 0)
		l->eval_armed = true;
}

static void on_eval_timer(void *ctx)
{
	eval_now(ctx);
}

static void poll_hserr(struct live *l);
static void ctr_step_early(struct live *l);

/* A pass left a backlog: no event will come for it, so the next slice is
 * read as soon as the loop has run what is due (the tail timer at 0). */
static void tail_more(struct live *l)
{
	if (l->tail && l->tail_timer >= 0 && tail_pending(l->tail))
		loop_set_timer(l->loop, l->tail_timer, 0, 0);
}

static void on_inotify(void *ctx, int fd, short revents)
{
	struct live *l = ctx;
	(void)revents;
	if (l->tail_timer >= 0 && loop_set_timer(l->loop, l->tail_timer, TAIL_GAP_MS, 0) == 0)
		loop_del_fd(l->loop, fd);
	tail_dispatch(l->tail);
	tail_more(l);
	ctr_step_early(l);
	if (l->hs && hserr_probe_woken(l->hs))
		poll_hserr(l); /* a crash report's directory spoke */
	eval_soon(l);
	changed(l);
}

static void on_tail_timer(void *ctx)
{
	struct live *l = ctx;
	if (l->tail && tail_pending(l->tail)) {
		on_inotify(l, tail_fd(l->tail), 0);   /* the next slice of a backlog */
		return;
	}
	if (l->tail)
		loop_add_fd(l->loop, tail_fd(l->tail), POLLIN, on_inotify, l);
	ctr_step_early(l);
}

/* --- probes --- */

static void record_event(struct live *l, const struct event *e)
{
	if (!l->record)
		return;
	int rc = record_write(l->record, e);
	if (rc < 0) {
		char msg[300];
		snprintf(msg, sizeof msg, "--record %s: %s (recording stopped)", l->o.record, strerror(-rc));
		record_close(l->record);
		l->record = NULL;
		note(l, -1, msg, true);
	}
}

/* "cpu.stat: /sys/.../cpu.stat: No such file or directory; cpuacct.usage: ..."
 * -> "cpu.stat, cpuacct.usage" (the names of the files of a probe error) */
static void error_files(const char *err, char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (const char *p = err; *p && o + 1 < len;) {
		size_t k = strcspn(p, ":;");
		int w = snprintf(out + o, len - o, "%s%.*s", o ? ", " : "", (int)k, p);
		o += w > 0 ? (size_t)w : 0;
		const char *next = strstr(p, "; ");
		if (!next)
			break;
		p = next + 2;
	}
	if (o >= len && len > 4)
		memcpy(out + len - 4, "...", 4);
}

static void say_cgroup_state(struct live *l, int n)
{
	const char *why = cgroup_probe_last_error(l->cg, NULL);
	char msg[700];
	if (why) {
		if (strcmp(why, l->cg_said) == 0)
			return;
		util_strlcpy_n(l->cg_said, sizeof l->cg_said, why, strlen(why));
		snprintf(msg, sizeof msg, "%s%s", why,
			 n < 0 ? " (nothing could be read: polled again every interval)" :
				 " (polled again every interval)");
		note(l, l->src_cg, msg, n < 0);
	} else if (l->cg_said[0]) {
		char files[300];
		error_files(l->cg_said, files, sizeof files);
		snprintf(msg, sizeof msg, "%s readable again", files);
		l->cg_said[0] = '\0';
		note(l, l->src_cg, msg, false);
	}
}

/* a probe error that is not the cgroup's (those name their files): once per errno */
static void say_errno(struct live *l, int src, int *said, int rc, const char *what)
{
	char msg[300];
	if (rc < 0 && rc != *said) {
		snprintf(msg, sizeof msg, "%s: %s (polled again every interval)", what, strerror(-rc));
		*said = rc;
		note(l, src, msg, true);
	} else if (rc >= 0 && *said) {
		snprintf(msg, sizeof msg, "%s readable again", what);
		*said = 0;
		note(l, src, msg, false);
	}
}

/* Whether the JVM stopped for long since t (a log's stop, or one its counters
 * timed and not yet given): the schedstat of every thread then belongs to this
 * interval (sched_probe_read_all). A stop counts when a rule could judge it
 * (rules_stop_ms, 100 ms unless --config says otherwise); a busy G1 JVM's
 * routine 50 ms pauses, nearly one a second, made every poll read all of its
 * 2000 threads (tests/bench/live-overhead.sh). */
static bool stopped_since(struct live *l, int64_t t)
{
	const double min_ms = rules_stop_ms(session_rules(l->s));
	if (l->ctr && hsperf_probe_pending_stop_ms(l->ctr) >= min_ms)
		return true;
	struct tl_stop_iter it;
	struct tl_stopref sr;
	timeline_stops_begin(&it, session_timeline(l->s), t, INT64_MAX / 4, min_ms);
	while (timeline_stops_next(&it, &sr))
		if (sr.end_ms >= t)
			return true;
	return false;
}

/* One poll of the live probes, in the order of the table below: the cgroup
 * first, since a period throttled since the last poll makes the scheduling
 * probe read every thread. */
struct probe_pass {
	int64_t now;
	bool read_all;                 /* read every thread, not only the busy ones */
	struct event ev[4];
};

static void feed(struct live *l, int src, struct event *e)
{
	record_event(l, e);
	session_feed_event(l->s, src, e);
}

static void poll_cgroup(struct live *l, struct probe_pass *p)
{
	int n = cgroup_probe_poll(l->cg, p->now, p->ev, 4);
	for (int i = 0; i < n; i++) {
		feed(l, l->src_cg, &p->ev[i]);
		if (p->ev[i].kind == EV_CPU && p->ev[i].u.cpu.nr_throttled >= 0) {
			p->read_all |= l->nr_throttled >= 0 && p->ev[i].u.cpu.nr_throttled > l->nr_throttled;
			l->nr_throttled = p->ev[i].u.cpu.nr_throttled;
		}
	}
	say_cgroup_state(l, n);
}

static void poll_sched(struct live *l, struct probe_pass *p)
{
	char what[300];
	if (p->read_all || stopped_since(l, l->sched_ms))
		sched_probe_read_all(l->sched);
	l->sched_ms = p->now;
	int n = sched_probe_poll(l->sched, p->now, &p->ev[0]);
	if (n > 0)
		feed(l, l->src_sched, &p->ev[0]);
	if (n >= 0)
		l->alive_ms = p->now;
	if (n == -ESRCH) {
		char msg[160];
		snprintf(msg, sizeof msg, "process %d has exited: the data is kept and the files are "
			 "still followed", l->o.pid);
		l->sched_gone = true;
		l->gone_ms = util_now_ms(); /* seen gone now: the poll's start may precede its read */
		note(l, l->src_sched, msg, false);
		/* its threads and its counters cannot be read any more: down, as its
		 * cgroup goes (the data kept; said once, above) */
		session_source_note(l->s, l->src_sched, msg, true);
		if (l->ctr)
			session_source_note(l->s, l->src_ctr, msg, true);
		/* the JVM's end is an event: the rules say when, how and what it cost */
		struct event ex;
		ev_init(&ex, EV_JVM_EXIT);
		ex.t_ms = l->gone_ms;
		ex.u.exit.pid = l->o.pid;
		ex.u.exit.alive_ms = l->alive_ms ? l->alive_ms : EV_TIME_NONE;
		ex.u.exit.opts = l->oome_opts;
		jvmout_probe_read(l->out, &ex.u.exit);
		feed(l, l->src_sched, &ex);
		/* what it wrote last is read first: a pause it died in has no end line */
		if (l->tail) {
			tail_dispatch(l->tail);
			tail_check(l->tail);
		}
		session_jvm_gone(l->s);
	} else {
		snprintf(what, sizeof what, "%s/proc/%d/task", l->o.proc_root, l->o.pid);
		say_errno(l, l->src_sched, &l->sched_said, n, what);
	}
}

static void poll_counters(struct live *l, struct probe_pass *p)
{
	int n = hsperf_probe_poll(l->ctr, p->now, &p->ev[0]);
	if (n > 0)
		feed(l, l->src_ctr, &p->ev[0]);
	/* the file removed: the JVM exited, which the schedstat probe says once */
	if (n == -ESRCH)
		l->ctr_said = n;
	if (n != -EAGAIN && (n < 0 ? n != l->ctr_said : l->ctr_said != 0)) {
		char msg[1400];
		if (n < 0)
			snprintf(msg, sizeof msg, "JVM counters: %s (looked for again every few seconds)",
				 hsperf_probe_why(l->ctr));
		else
			snprintf(msg, sizeof msg, "JVM counters: reading %s", hsperf_probe_path(l->ctr));
		note(l, l->src_ctr, msg, false);
		l->ctr_said = n < 0 ? n : 0;
	}
}

static void poll_vmstat(struct live *l, struct probe_pass *p)
{
	char what[300];
	int n = vmstat_probe_poll(l->vm, p->now, &p->ev[0]);
	if (n > 0)
		feed(l, l->src_vm, &p->ev[0]);
	snprintf(what, sizeof what, "%s/proc/vmstat", l->o.proc_root);
	say_errno(l, l->src_vm, &l->vm_said, n, what);
}

static bool cgroup_open(const struct live *l) { return l->cg != NULL; }
/* the process gone: no threads and no JVM to read */
static bool sched_open(const struct live *l) { return l->sched && !l->sched_gone; }
static bool counters_open(const struct live *l) { return l->ctr && !l->sched_gone; }
static bool vmstat_open(const struct live *l) { return l->vm != NULL; }

static const struct live_probe_row {
	bool (*polled)(const struct live *l);   /* opened, and still something to read */
	void (*poll)(struct live *l, struct probe_pass *p);
} live_probes[] = {
	{cgroup_open, poll_cgroup},       /* first: throttling makes the next read every thread */
	{sched_open, poll_sched},
	{counters_open, poll_counters},
	{vmstat_open, poll_vmstat},
};

static void poll_probes(struct live *l, int64_t now)
{
	struct probe_pass p = {.now = now};
	for (size_t i = 0; i < ARRAY_LEN(live_probes); i++)
		if (live_probes[i].polled(l))
			live_probes[i].poll(l, &p);
}

/* --- crash reports --- */

static void poll_hserr(struct live *l)
{
	struct event ev[4];
	int next = -1;
	if (!l->hs)
		return;
	int n = hserr_probe_poll(l->hs, util_now_ms(), ev, 4, &next);
	for (int i = 0; i < n; i++) {
		char msg[400];
		snprintf(msg, sizeof msg, "JVM crash report %s: %s%s%s", ev[i].u.hserr.path,
			 ev[i].u.hserr.signal[0] ? ev[i].u.hserr.signal : "fatal error",
			 ev[i].u.hserr.frame[0] ? ", problematic frame " : "", ev[i].u.hserr.frame);
		note(l, l->src_hs, msg, false);
		session_feed_event(l->s, l->src_hs, &ev[i]);
	}
	const char *why = hserr_probe_take_note(l->hs);
	if (why)
		note(l, l->src_hs, why, false);
	if (next >= 0 && l->hs_timer >= 0)
		loop_set_timer(l->loop, l->hs_timer, next, 0);
	if (n > 0) {
		eval_soon(l);
		changed(l);
	}
}

static void on_hserr_timer(void *ctx)
{
	poll_hserr(ctx);
}

/* What the discovered JVM does not log, as session hints (discover_advice), so
 * the dashboard can show them and --plain prints them at start; not when the
 * user named JVM files of their own (they chose what to follow). */
static void add_hints(struct live *l, const struct jvm_proc *j)
{
	bool named = false, followed = false;
	for (int i = 0; i < session_nsources(l->s); i++) {
		if (session_source_kind(l->s, i) != SRC_JVM)
			continue;
		named = true;
		for (int k = 0; k < j->nlogs; k++)
			if (strcmp(session_source_path(l->s, i), j->logs[k].open_path) == 0)
				followed = true;
	}
	if (j->is_jvm && named && !followed)
		return;
	char adv[4096];
	if (discover_advice(j, adv, sizeof adv) <= 0)
		return;
	/* a stwtop that was killed left its output in the JVM (found from the JVM's
	 * open files, nothing asked of it): not "no GC log file", but what L does */
	struct vmlog_on left;
	char why[600];
	bool leftover = !l->o.demo && j->is_jvm && vmlog_leftover(l->o.proc_root, l->o.pid, &left, why, sizeof why) == 1;
	for (char *line = adv; *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (line[0] == '-' && line[1] == ' ' && !(leftover && strstr(line, "no GC log file")))
			session_add_hint(l->s, line + 2);
		if (!nl)
			break;
		line = nl + 1;
	}
	if (leftover) {
		char h[800];
		snprintf(h, sizeof h, "JVM %d writes GC and safepoints to %s, an output a stwtop that was killed added and "
			 "left: L takes it over (followed, removed when stwtop quits) or removes it", l->o.pid, left.path);
		session_add_hint(l->s, h);
	}
}

/* Where the JVM's crash report can appear (discover.h: -XX:ErrorFile, its cwd,
 * /tmp), plus the directory the caller named. */
static void open_hserr(struct live *l, const struct jvm_proc *j)
{
	int64_t now = util_now_ms();
	/* the name carries the pid the JVM sees (its pid namespace's) */
	int pid = l->o.hs_err_pid > 0 ? l->o.hs_err_pid : j ? j->nspid : l->o.pid;
	char msg[1600], list[1200];
	l->hs = hserr_probe_new(l->tail, l->pid_start_ms != EV_TIME_NONE ? l->pid_start_ms : now);
	if (!l->hs)
		return;
	if (j) {
		for (int i = 0; i < j->ncrash; i++)
			hserr_probe_add(l->hs, j->crash[i].open_path, false, now);
		if (!j->cwd[0]) {
			snprintf(msg, sizeof msg, "%s/proc/%d/cwd: %s: a crash report hs_err_pid%d.log in the working "
				 "directory of process %d cannot be seen (run stwtop as the JVM's user or root)",
				 l->o.proc_root, j->pid, strerror(j->cwd_errno ? j->cwd_errno : ENOENT), j->nspid, j->pid);
			note(l, -1, msg, false);
		}
	}
	if (l->o.hs_err_dir && l->o.hs_err_dir[0] == '/') {
		char p[4200];
		if (pid > 0)
			snprintf(p, sizeof p, "%s/hs_err_pid%d.log", l->o.hs_err_dir, pid);
		else
			snprintf(p, sizeof p, "%s/hs_err_pid", l->o.hs_err_dir);
		hserr_probe_add(l->hs, p, pid <= 0, now);
	}
	if (hserr_probe_describe(l->hs, list, sizeof list) > 0) {
		snprintf(msg, sizeof msg, "a crash report is looked for at %s", list);
		note(l, -1, msg, false);
	}
}

/* An uptime-only JVM log that is being written now: its last line was
 * written when the file was last modified, so start = mtime - that uptime.
 * (Only live: a copied file's mtime says nothing.) A later line read as it is
 * written refines nothing; --pid and --jvm-start win over both. */
static void anchor_from_mtime(struct live *l)
{
	if (session_jvm_anchor(l->s) != EV_TIME_NONE || session_unanchored(l->s) == 0)
		return;
	for (int i = 0; i < session_nsources(l->s); i++) {
		struct stat st;
		int64_t up = session_source_last_uptime_us(l->s, i);
		if (session_source_kind(l->s, i) != SRC_JVM || up < 0 ||
		    stat(session_source_path(l->s, i), &st) != 0)
			continue;
		int64_t mtime = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
		char how[200];
		snprintf(how, sizeof how, "%s: modification time minus the uptime of its last line",
			 session_source_name(l->s, i));
		session_set_jvm_anchor_from(l->s, mtime - up / 1000, ANCHOR_MTIME, how);
		return;
	}
}

/* The JVM's start, once known and whenever it changes: into the recording (a
 * meta line, so --report --replay places an uptime-only log where this run
 * did) and said once, with the value --jvm-start takes. A start "given" that
 * is the --pid process's start time is recorded as what it is. */
static void check_anchor(struct live *l)
{
	int64_t a = session_jvm_anchor(l->s);
	enum anchor_from f = session_jvm_anchor_from(l->s);
	if (a == EV_TIME_NONE || f == ANCHOR_UPTIME_AXIS || a == l->anchor_said)
		return;
	l->anchor_said = a;
	const char *from = anchor_from_name(f);
	const char *how = session_jvm_anchor_how(l->s);
	char pid_how[120];
	if (f == ANCHOR_GIVEN && l->pid_start_ms != EV_TIME_NONE && llabs(a - l->pid_start_ms) <= 100) {
		from = "pid";
		snprintf(pid_how, sizeof pid_how, "the start time of process %d (%s/proc/%d/stat)", l->o.pid,
			 l->o.proc_root, l->o.pid);
		how = pid_how;
	}
	if (l->record) {
		int rc = record_write_anchor(l->record, util_now_ms(), a, from, how);
		if (rc < 0) {
			char msg[300];
			snprintf(msg, sizeof msg, "--record %s: %s (recording stopped)", l->o.record, strerror(-rc));
			record_close(l->record);
			l->record = NULL;
			note(l, -1, msg, true);
		}
	}
	bool jvm = false;
	for (int i = 0; i < session_nsources(l->s); i++)
		if (session_source_kind(l->s, i) == SRC_JVM)
			jvm = true;
	if (jvm) {
		char t[40], msg[400];
		snprintf(msg, sizeof msg, "JVM start %s = %lld epoch ms, from %s: a report of these logs takes it "
			 "as --jvm-start %lld", util_fmt_iso_ms(a, t, sizeof t), (long long)a, how, (long long)a);
		note(l, -1, msg, false);
	}
}

/* --- JVM logging turned on (vmlog.h) --- */

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (strcmp(a, b) == 0)
		return true;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* the session source following path as a JVM log, or -1 */
static int jvm_source_of(const struct live *l, const char *path)
{
	for (int i = 0; i < session_nsources(l->s); i++)
		if (session_source_kind(l->s, i) == SRC_JVM && same_file(session_source_path(l->s, i), path))
			return i;
	return -1;
}

/* Follow path from now on as a JVM log source, as a --gc file is: a source of
 * the session and a file of the tailer (created, and watched by the loop, if
 * the run had no file yet). */
static int follow_jvm_log(struct live *l, const char *path, char *msg, size_t msglen)
{
	char err[300];
	if (!l->tail) {
		struct tail_callbacks cb = {.line = on_line, .note = on_note, .ctx = l};
		if (!(l->tail = tail_new(&cb, 1 << 20, err, sizeof err))) {
			snprintf(msg, msglen, "cannot follow %s: %s", path, err);
			return -EIO;
		}
		if (l->running)
			loop_add_fd(l->loop, tail_fd(l->tail), POLLIN, on_inotify, l);
	}
	int i = session_add_source(l->s, SRC_JVM, path, err, sizeof err);
	if (i < 0) {
		snprintf(msg, msglen, "cannot follow %s: %s", path, err);
		return i;
	}
	l->adding_src = i;
	int id = tail_add(l->tail, path, TAIL_FROM_START);
	l->adding_src = -1;
	if (id < 0) {
		snprintf(msg, msglen, "%s: %s", path, strerror(-id));
		note(l, i, msg, true);
		return id;
	}
	if (id < MAX_TAILS)
		l->tail_src[id] = i + 1;
	return 0;
}

int live_jvm_logging_target(const struct live *l, char *path, size_t len, char *why, size_t whylen)
{
	struct vmlog_on plan;
	char err[300];
	if (l->o.demo || l->o.pid <= 0) {
		snprintf(why, whylen, "no JVM process is followed (%s)", l->o.demo ? "a demo" : "files only: --pid PID follows one");
		return 0;
	}
	if (l->sched_gone) {
		snprintf(why, whylen, "JVM %d has exited", l->o.pid);
		return 0;
	}
	if (l->jlog.active) {
		snprintf(why, whylen, "GC logging is on already in JVM %d: stwtop turned it on (VM.log to %s) and "
			 "turns it off when it quits", l->o.pid, l->jlog.path);
		return 0;
	}
	if (vmlog_plan(l->o.proc_root, l->o.pid, &plan, err, sizeof err) < 0) {
		snprintf(why, whylen, "JVM %d: %s", l->o.pid, err);
		return 0;
	}
	snprintf(path, len, "%s", plan.path);
	return l->o.pid;
}

bool live_jvm_gone(const struct live *l, int64_t *alive_ms, int64_t *gone_ms)
{
	*alive_ms = l->alive_ms;
	*gone_ms = l->gone_ms;
	return l->o.pid > 0 && !l->o.demo && l->sched_gone;
}

int live_enable_jvm_logging(struct live *l, char *msg, size_t msglen)
{
	struct vmlog_output have;
	int rc;
	if (l->o.demo || l->o.pid <= 0) {
		snprintf(msg, msglen, "JVM logging: no JVM process is followed (--pid, or the JVM found at start)");
		rc = -ESRCH;
	} else if (l->jlog.active) {
		snprintf(msg, msglen, "JVM logging is on already: %s", l->jlog.path);
		rc = 0;
	} else {
		rc = vmlog_enable(l->o.proc_root, l->o.pid, &l->jlog, &have, msg, msglen);
	}
	if (rc == 1) {
		char fmsg[600];
		if (follow_jvm_log(l, l->jlog.open_path, fmsg, sizeof fmsg) < 0)
			note(l, -1, fmsg, true);
		rc = 0;
	} else if (rc == 0 && l->o.pid > 0 && !l->o.demo && !l->jlog.active) {
		/* the JVM logs GC to a file already: followed, if it was not */
		size_t n = strlen(msg);
		if (jvm_source_of(l, have.path) >= 0) {
			snprintf(msg + n, msglen - n, "; stwtop follows it");
		} else {
			char fmsg[600];
			snprintf(msg + n, msglen - n, "; followed from now on");
			if (follow_jvm_log(l, have.path, fmsg, sizeof fmsg) < 0)
				note(l, -1, fmsg, true);
		}
	}
	/* a GC log is followed now: the hint that said how to get one is done */
	if (rc == 0 && l->o.pid > 0 && !l->o.demo) {
		session_drop_hints(l->s, "no GC log file");
		session_drop_hints(l->s, "a stwtop that was killed");
	}
	note(l, -1, msg, rc < 0);
	eval_soon(l);
	changed(l);
	return rc;
}

int live_jvm_logging_leftover(struct live *l, char *msg, size_t msglen)
{
	l->left_found = false;
	if (l->o.demo || l->o.pid <= 0 || l->jlog.active || l->sched_gone)
		return 0;
	int rc = vmlog_leftover(l->o.proc_root, l->o.pid, &l->left, msg, msglen);
	l->left_found = rc == 1;
	return rc;
}

int live_jvm_logging_leftover_do(struct live *l, bool take_over, char *msg, size_t msglen)
{
	int rc;
	if (!l->left_found) {
		snprintf(msg, msglen, "JVM logging: no output left by an earlier stwtop");
		rc = -ENOENT;
	} else if (take_over) {
		l->jlog = l->left;
		l->jlog.active = true;
		snprintf(msg, msglen, "JVM logging: took over the output an earlier stwtop left (to %s), followed as "
			 "%s; turned off when stwtop exits", l->jlog.path, l->jlog.open_path);
		char fmsg[600];
		if (jvm_source_of(l, l->jlog.open_path) < 0 && follow_jvm_log(l, l->jlog.open_path, fmsg, sizeof fmsg) < 0)
			note(l, -1, fmsg, true);
		session_drop_hints(l->s, "no GC log file");
		session_drop_hints(l->s, "a stwtop that was killed");
		rc = 0;
	} else {
		session_drop_hints(l->s, "a stwtop that was killed");
		l->left.active = true;
		rc = vmlog_disable(&l->left, msg, msglen);
		if (rc == 1)
			snprintf(msg, msglen, "JVM logging: removed the output an earlier stwtop left (%s and its rotations "
				 "stay)", l->left.path);
		rc = rc < 0 ? rc : 0;
	}
	l->left_found = false;
	note(l, -1, msg, rc < 0);
	eval_soon(l);
	changed(l);
	return rc;
}

int live_disable_jvm_logging(struct live *l, char *msg, size_t msglen)
{
	msg[0] = '\0';
	return vmlog_disable(&l->jlog, msg, msglen);
}

/* --- the clock --- */

static void demo_advance(struct live *l, int64_t wall)
{
	if (l->demo_done || l->paused)
		return;
	l->demo_clock = l->demo_t0 + (int64_t)((double)(wall - l->demo_wall0) * l->o.demo_speed);
	bool more = session_replay_step(l->s, l->demo_clock);
	if (more && l->demo_clock - l->last_demo_eval >= 250) {
		session_eval(l->s, l->demo_clock, false);
		l->last_demo_eval = l->demo_clock;
	}
	if (!more) {
		session_replay_finish(l->s);
		l->demo_done = true;
		l->demo_clock = session_timeline(l->s)->newest_ms;
		if (l->demo_timer >= 0)
			loop_set_timer(l->loop, l->demo_timer, -1, 0);
		if (l->view && l->view->demo_done)
			l->view->demo_done(l->vctx);
	}
	changed(l);
}

static void on_demo_timer(void *ctx)
{
	struct live *l = ctx;
	demo_advance(l, util_mono_ms());
}

/* between ticks, the JVM's counters are read every HSPERF_STEP_MS to time
 * each stop's end to that step (what a tick emits says the longest); a
 * failing read is left for the tick to say */
static void ctr_step(struct live *l)
{
	if (l->ctr && !l->sched_gone)
		hsperf_probe_step(l->ctr, util_now_ms());
	l->ctr_step_mono = util_mono_ms();
	loop_set_timer(l->loop, l->ctr_timer, HSPERF_STEP_MS, 0);
}

static void on_ctr_step(void *ctx)
{
	ctr_step(ctx);
}

/* A wake-up for something else (the files) takes the step when it is due
 * within a quarter of a step: under a steady stream the step's own timer
 * never wakes the process, and steps stay at most HSPERF_STEP_MS apart. */
static void ctr_step_early(struct live *l)
{
	if (l->ctr_timer >= 0 && util_mono_ms() - l->ctr_step_mono >= HSPERF_STEP_MS * 3 / 4)
		ctr_step(l);
}

static void on_tick(void *ctx)
{
	struct live *l = ctx;
	int64_t now = util_now_ms();
	if (l->o.demo) {
		if (!l->demo_done)
			session_eval(l->s, l->demo_clock, false);
	} else {
		if (l->tail) {
			tail_check(l->tail);
			tail_more(l);
		}
		session_tick(l->s);
		poll_probes(l, now);
		poll_hserr(l);
		check_anchor(l);
		session_eval(l->s, data_clock(l), false);
	}
	if (l->view && l->view->tick)
		l->view->tick(l->vctx, l->o.demo ? l->demo_clock : now);
}

/* SIGINT/SIGTERM come through a self-pipe from a real handler installed
 * without SA_RESTART, not through the signalfd: a process blocked writing to a
 * stalled stdout (a log shipper that stopped reading) must still be stoppable.
 * The handler interrupts the write; the loop then sees the pipe. A second
 * signal ends the process at once. (The handler needs the pipe in a static.) */
static int stop_pipe[2] = {-1, -1};
static volatile sig_atomic_t stop_signals;
static int stdout_not_tty;

static void stop_handler(int signo)
{
	int saved = errno;
	if (stop_signals++ > 0)
		_exit(128 + signo);
	/* stdio retries a partial write, so a write blocked on a full pipe would
	 * block again after the interruption: make stdout non-blocking, so what
	 * cannot be written now fails instead (the view finishes with a timed write) */
	if (stdout_not_tty) {
		int fl = fcntl(STDOUT_FILENO, F_GETFL);
		if (fl >= 0)
			fcntl(STDOUT_FILENO, F_SETFL, fl | O_NONBLOCK);
	}
	unsigned char b = (unsigned char)signo;
	if (stop_pipe[1] >= 0 && write(stop_pipe[1], &b, 1) < 0) {
		/* the pipe is non-blocking and nearly empty: nothing to do */
	}
	errno = saved;
}

static void on_stop_pipe(void *ctx, int fd, short revents)
{
	struct live *l = ctx;
	unsigned char b[16];
	(void)revents;
	while (read(fd, b, sizeof b) > 0)
		;
	loop_stop(l->loop);
}

static int install_stop_signals(struct live *l)
{
	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
		return -errno;
	stdout_not_tty = !isatty(STDOUT_FILENO);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = stop_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns EINTR */
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0)
		return -errno;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	stop_signals = 0;
	return loop_add_fd(l->loop, stop_pipe[0], POLLIN, on_stop_pipe, l);
}

static void on_signal(void *ctx, int signo)
{
	struct live *l = ctx;
	if (signo == SIGINT || signo == SIGTERM) {
		loop_stop(l->loop);
		return;
	}
	if (l->view && l->view->signal)
		l->view->signal(l->vctx, signo);
}

/* --- setup --- */

/* Its -XX flags about OutOfMemoryError, as the JVM applies them (the last wins). */
static uint8_t oome_opts(const struct jvm_proc *j)
{
	static const struct { const char *name; uint8_t bit; } flags[] = {
		{"ExitOnOutOfMemoryError", EXIT_OPT_EXIT_ON_OOME},
		{"CrashOnOutOfMemoryError", EXIT_OPT_CRASH_ON_OOME},
		{"HeapDumpOnOutOfMemoryError", EXIT_OPT_HEAPDUMP_OOME},
	};
	uint8_t o = EXIT_OPT_KNOWN;
	for (int i = 0; i < j->nopts; i++) {
		const char *a = j->opts[i].arg;
		if (strncmp(a, "-XX:OnOutOfMemoryError=", 23) == 0) {
			o = (uint8_t)(a[23] ? o | EXIT_OPT_ON_OOME_CMD : o & ~EXIT_OPT_ON_OOME_CMD);
			continue;
		}
		if (strncmp(a, "-XX:", 4) != 0 || (a[4] != '+' && a[4] != '-'))
			continue;
		for (size_t k = 0; k < ARRAY_LEN(flags); k++)
			if (strcmp(a + 5, flags[k].name) == 0)
				o = (uint8_t)(a[4] == '+' ? o | flags[k].bit : o & ~flags[k].bit);
	}
	return o;
}

/* What the JVM itself tells, found from --pid: where its crash report would
 * go (the pod's own pid and host name in its file names), its counters. */
static void open_jvm_probes(struct live *l, const struct tail_callbacks *cb, char *err, size_t errlen)
{
	struct session *s = l->s;
	char why[300];
	/* the JVM's own facts: where its crash report would go */
	struct jvm_proc j;
	bool have_j = l->o.pid > 0 && discover_inspect(l->o.proc_root, l->o.pid, &j, why, sizeof why) == 0;
	if (have_j && j.is_jvm && j.nspid != j.pid) {
		/* a pod: the names it writes carry its own pid, not ours */
		char msg[600];
		snprintf(msg, sizeof msg, "process %d is pid %d in its own pid namespace: its file names "
			 "(%%p, hs_err_pid%d.log) are looked for with %d; its host name (%%hn, JDK 23+) is %s (%s)",
			 j.pid, j.nspid, j.nspid, j.nspid, j.hostname[0] ? j.hostname : "not known", j.hostname_from);
		note(l, -1, msg, false);
	}
	if (have_j && j.is_jvm && j.names_note[0])
		note(l, -1, j.names_note, false);
	if ((l->o.hs_err_dir || have_j) && !(have_j && !j.is_jvm)) {
		l->src_hs = session_add_source(s, SRC_PROBE, "hs_err", err, errlen);
		/* its directories are watched by the tailer: the one inotify instance */
		if (!l->tail && !(l->tail = tail_new(cb, 1 << 20, why, sizeof why)))
			note(l, l->src_hs, why, false);
		open_hserr(l, have_j ? &j : NULL);
	}
	/* the JVM's own counters: heap, collections and stops with no log at all */
	if (have_j && j.is_jvm) {
		char cwhy[1400];
		l->ctr = hsperf_probe_open(l->o.proc_root, l->o.pid, cwhy, sizeof cwhy);
		l->src_ctr = session_add_source(s, SRC_PROBE, "hsperfdata", err, errlen);
		if (l->ctr && cwhy[0]) {
			char msg[1500];
			snprintf(msg, sizeof msg, "no JVM counters: %s "
				 "(looked for again every few seconds)", cwhy);
			/* the source's own note is short; the reason in full is said once */
			note(l, l->src_ctr, "no counters file: looked for again every few seconds", false);
			note(l, -1, msg, false);
			l->ctr_said = -ENOENT;
		}
	}
	/* how it could end itself: its flags, and what it writes when it does */
	if (have_j && j.is_jvm) {
		l->oome_opts = oome_opts(&j);
		l->out = jvmout_probe_open(l->o.proc_root, l->o.pid, why, sizeof why);
	}
	if (have_j) {
		add_hints(l, &j);
		discover_fini(&j);
	}
}

struct live *live_new(struct session *s, const struct live_opts *o, char *err, size_t errlen)
{
	struct live *l = calloc(1, sizeof *l);
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->s = s;
	l->o = *o;
	if (l->o.interval_ms <= 0)
		l->o.interval_ms = 1000;
	if (!l->o.proc_root)
		l->o.proc_root = "";
	l->src_cg = l->src_sched = l->src_vm = l->src_hs = -1;
	l->nr_throttled = -1;
	l->adding_src = -1;
	l->eval_timer = -1;
	l->tail_timer = -1;
	l->ctr_timer = -1;
	l->demo_timer = -1;
	l->hs_timer = -1;
	l->pid_start_ms = l->anchor_said = EV_TIME_NONE;
	if (l->o.pid > 0 && !l->o.demo && discover_start_ms(l->o.proc_root, l->o.pid, util_now_ms(), &l->pid_start_ms) < 0)
		l->pid_start_ms = EV_TIME_NONE;
	l->loop = loop_new();
	if (!l->loop) {
		snprintf(err, errlen, "cannot create the event loop: %s", strerror(errno));
		free(l);
		return NULL;
	}
	/* judge on our clock, not while reading */
	session_set_eval_on_data(s, false);

	if (l->o.demo) {
		if (session_replay_open(s) != 0) {
			for (int i = 0; i < session_nsources(s); i++)
				if (session_source_stats(s, i)->error) {
					snprintf(err, errlen, "%s", session_source_stats(s, i)->note);
					break;
				}
			live_free(l);
			return NULL;
		}
		return l;
	}

	/* files */
	struct tail_callbacks cb = {.line = on_line, .note = on_note, .ctx = l};
	bool files = false;
	for (int i = 0; i < session_nsources(s); i++)
		if (session_source_kind(s, i) != SRC_PROBE && session_source_kind(s, i) != SRC_HSERR)
			files = true;
	if (files) {
		l->tail = tail_new(&cb, 1 << 20, err, errlen);
		if (!l->tail) {
			live_free(l);
			return NULL;
		}
		for (int i = 0; i < session_nsources(s); i++) {
			enum src_kind k = session_source_kind(s, i);
			if (k == SRC_PROBE)
				continue;
			if (k == SRC_HSERR) {
				/* read at once if it is there; its directory is watched for it */
				session_read_hserr(s, i);
				continue;
			}
			if (live_refuse(l, i))
				continue;
			l->adding_src = i;
			int id = tail_add(l->tail, session_source_path(s, i), TAIL_FROM_START);
			if (id < 0) {
				char msg[300];
				snprintf(msg, sizeof msg, "%s: %s", session_source_path(s, i), strerror(-id));
				note(l, i, msg, true);
				continue;
			}
			if (id < MAX_TAILS)
				l->tail_src[id] = i + 1;
		}
		l->adding_src = -1;
	}
	/* probes */
	char why[300];
	if (l->o.pid > 0 || l->o.cgroup) {
		l->cg = cgroup_probe_open(l->o.proc_root, l->o.pid, l->o.cgroup, why, sizeof why);
		if (l->cg) {
			l->src_cg = session_add_source(s, SRC_PROBE, "cgroup", why, sizeof why);
		} else {
			int k = session_add_source(s, SRC_PROBE, "cgroup", err, errlen);
			note(l, k, why, true);
		}
	}
	if (l->o.pid > 0) {
		l->sched = sched_probe_open(l->o.proc_root, l->o.pid, why, sizeof why);
		l->src_sched = session_add_source(s, SRC_PROBE, "schedstat", err, errlen);
		if (!l->sched)
			note(l, l->src_sched, why, true);
		l->vm = vmstat_probe_open(l->o.proc_root, why, sizeof why);
		l->src_vm = session_add_source(s, SRC_PROBE, "vmstat", err, errlen);
		if (!l->vm)
			note(l, l->src_vm, why, true);
	}
	open_jvm_probes(l, &cb, err, errlen);
	if (l->o.record) {
		char note_txt[300] = "";
		char rerr[300];
		if (l->cg)
			cgroup_probe_describe(l->cg, note_txt, sizeof note_txt);
		l->record = record_open(l->o.record, util_now_ms(), note_txt, rerr, sizeof rerr);
		if (!l->record) {
			snprintf(err, errlen, "--record %s: %s", l->o.record, rerr);
			live_free(l);
			return NULL;
		}
	}
	return l;
}

void live_free(struct live *l)
{
	if (!l)
		return;
	char msg[600];
	vmlog_disable(&l->jlog, msg, sizeof msg); /* what the caller has not removed yet */
	hserr_probe_free(l->hs); /* its directory watches are the tailer's */
	if (l->tail)
		tail_free(l->tail);
	cgroup_probe_close(l->cg);
	sched_probe_close(l->sched);
	jvmout_probe_close(l->out);
	vmstat_probe_close(l->vm);
	hsperf_probe_close(l->ctr);
	record_close(l->record);
	loop_free(l->loop);
	free(l);
}

void live_set_view(struct live *l, const struct live_view *v, void *ctx)
{
	l->view = v;
	l->vctx = ctx;
}

struct loop *live_loop(struct live *l)
{
	return l->loop;
}

int64_t live_clock(const struct live *l)
{
	return l->o.demo ? l->demo_clock : util_now_ms();
}

bool live_demo_done(const struct live *l)
{
	return l->demo_done;
}

void live_set_paused(struct live *l, bool paused)
{
	if (!l->o.demo || paused == l->paused)
		return;
	int64_t now = util_mono_ms();
	if (paused) {
		l->paused_at = now;
	} else {
		/* resume where it was: shift the wall origin by the pause */
		l->demo_wall0 += now - l->paused_at;
	}
	l->paused = paused;
}

void live_stop(struct live *l)
{
	loop_stop(l->loop);
}

int live_run(struct live *l)
{
	static const int sigs[] = {SIGWINCH, SIGHUP};
	/* a source that could not be opened while live_new set things up (a
	 * directory, a symlink loop, no permission) was noted before any view
	 * existed: say it now, or the user only sees it waiting */
	if (l->view && l->view->note)
		for (int i = 0; i < session_nsources(l->s); i++) {
			const struct source_stats *st = session_source_stats(l->s, i);
			if (st->error && st->note[0])
				l->view->note(l->vctx, i, st->note, true);
		}
	for (int i = 0; l->view && l->view->note && i < l->nearly; i++)
		l->view->note(l->vctx, l->early[i].src, l->early[i].msg, l->early[i].is_error);
	l->nearly = 0;
	/* --enable-jvm-logging first: once it is on, the hint saying how to turn it
	 * on (issue 26: "use --enable-jvm-logging", to the user who had) is dropped */
	if (!l->o.demo && l->o.enable_jvm_logging) {
		char msg[1600];
		live_enable_jvm_logging(l, msg, sizeof msg);
	}
	int nh;
	const char *const *hints = session_hints(l->s, &nh);
	for (int i = 0; l->view && i < nh; i++) {
		if (l->view->hint) {
			l->view->hint(l->vctx, hints[i]);
		} else if (l->view->note) {
			char msg[1200];
			snprintf(msg, sizeof msg, "hint: %s", hints[i]);
			l->view->note(l->vctx, -1, msg, false);
		}
	}
	loop_add_signals(l->loop, sigs, 2, on_signal, l);
	install_stop_signals(l);
	l->eval_timer = loop_add_timer(l->loop, -1, 0, on_eval_timer, l);
	l->tail_timer = loop_add_timer(l->loop, -1, 0, on_tail_timer, l);
	if (l->o.demo) {
		l->demo_t0 = session_replay_next_time(l->s);
		l->demo_wall0 = util_mono_ms();
		l->demo_clock = l->demo_t0;
		l->demo_timer = loop_add_timer(l->loop, DEMO_STEP_MS, DEMO_STEP_MS, on_demo_timer, l);
		loop_add_timer(l->loop, 1, l->o.interval_ms, on_tick, l);
	} else {
		l->running = true;
		if (l->tail) {
			loop_add_fd(l->loop, tail_fd(l->tail), POLLIN, on_inotify, l);
			tail_dispatch(l->tail); /* the existing content */
			tail_set_budget(l->tail, TAIL_BUDGET);
		}
		if (l->hs) {
			l->hs_timer = loop_add_timer(l->loop, -1, 0, on_hserr_timer, l);
		}
		anchor_from_mtime(l);
		l->caught_up = true;
		check_anchor(l); /* before the first samples: a recording starts with it */
		poll_probes(l, util_now_ms()); /* baselines */
		poll_hserr(l);
		session_eval(l->s, data_clock(l), false);
		changed(l);
		loop_add_timer(l->loop, l->o.interval_ms, l->o.interval_ms, on_tick, l);
		if (l->ctr && l->o.interval_ms > HSPERF_STEP_MS) {
			l->ctr_step_mono = util_mono_ms();
			l->ctr_timer = loop_add_timer(l->loop, HSPERF_STEP_MS, 0, on_ctr_step, l);
		}
	}
	int rc = loop_run(l->loop);
	/* what was written before the stop and not read yet (a pass waiting out
	 * TAIL_GAP_MS, or written since the last one) is read now: no lost line */
	if (l->tail && l->running) {
		tail_set_budget(l->tail, 0);
		tail_dispatch(l->tail);
	}
	/* the end of the input, as a report over the same files ends: the rules
	 * judge with everything in (a gc-overhead episode still open is closed if
	 * the data has moved on), and the listener hears the last changes before
	 * the view says its final state */
	session_eval(l->s, data_clock(l), true);
	if (stop_pipe[0] >= 0)
		loop_del_fd(l->loop, stop_pipe[0]);
	return rc;
}
