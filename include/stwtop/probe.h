/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.h — polled system counters: the cgroup's CPU throttling and memory, the
 * JVM's per-thread scheduling (schedstat) and the machine's reclaim counters
 * (/proc/vmstat). docs/probes.md: these prove what the logs cannot.
 *
 * Every probe takes a `root`: "" for the live system, or a fixture directory that
 * prefixes every absolute path it opens (/proc/..., /sys/...). Paths passed in
 * (the cgroup `dir`) and paths found in mountinfo are in that same namespace, so
 * the root is prefixed to them too. Messages (err, describe, last_error) show the
 * paths as opened.
 *
 * Polls never abort on a missing or unreadable file: the file is reported and
 * read again at the next poll. The cgroup and vmstat probes keep no fd open
 * across polls; the sched probe keeps /proc/PID/task and one schedstat fd per
 * thread, up to half of the RLIMIT_NOFILE soft limit (raise that limit for
 * JVMs with very many threads; beyond the budget threads are read with
 * open/read/close). */
#ifndef STWTOP_PROBE_H
#define STWTOP_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"

/* ---------------------------------------------------------------- cgroup --- */

struct cgroup_probe;

/* pid > 0: the process's cgroups from <root>/proc/PID/cgroup, located through
 * <root>/proc/self/mountinfo (v1: the cpu hierarchy, cpuacct and memory possibly
 * elsewhere; v2: the unified dir; hybrid: v1 for a controller mounted there, else
 * v2 when its cgroup.controllers has it; mountinfo's root field is stripped, so a
 * container that sees its own cgroup as "/" works). dir != NULL: that cgroup
 * directory directly (a v1 cpu or memory dir, or a v2 dir; its sibling
 * controllers are found through mountinfo when they exist). With both, dir wins.
 * NULL on failure with a one-line reason in err (no controller mounted, the
 * process is gone, a file unreadable — with path and strerror). */
struct cgroup_probe *cgroup_probe_open(const char *root, int pid, const char *dir, char *err,
				       size_t errlen);

/* Read the counters now. Writes up to cap events (EV_CPU then EV_MEM, t_ms = now_ms,
 * line = 0; cg_version 1 or 2; unknown fields -1 (quota_us: -1 unlimited, -2
 * unknown)). Returns the number written, or -errno when nothing could be read at
 * all (cgroup removed, every file unreadable). Files that failed in this poll are
 * named by cgroup_probe_last_error(); they are read again next time. */
int cgroup_probe_poll(struct cgroup_probe *p, int64_t now_ms, struct event *out, int cap);

/* "cgroup v1 cpu /sys/fs/cgroup/cpu/x (quota 0.30 CPU), memory /sys/fs/cgroup/memory/x
 * (limit 512M)" — quota/limit as read at open or at the last poll. */
void cgroup_probe_describe(const struct cgroup_probe *p, char *buf, size_t len);

/* Problems of the last poll ("cpu.stat: /sys/...: Permission denied; ..."), or NULL
 * when every file was read. *err_no (may be NULL) gets the first errno. */
const char *cgroup_probe_last_error(const struct cgroup_probe *p, int *err_no);

/* Which hierarchy serves cpu and memory: 0 none, 1, 2. */
int cgroup_probe_cpu_version(const struct cgroup_probe *p);
int cgroup_probe_mem_version(const struct cgroup_probe *p);

void cgroup_probe_close(struct cgroup_probe *p);

/* ----------------------------------------------------------------- sched --- */

struct sched_probe;

/* Follow the threads of pid through <root>/proc/PID/task. NULL with a reason in err
 * when the process does not exist or its task directory cannot be read. */
struct sched_probe *sched_probe_open(const char *root, int pid, char *err, size_t errlen);

/* 1 with an EV_SCHED for the interval since the previous poll (t_ms = now_ms,
 * interval_ms = now_ms - previous now_ms; sums over all threads; worst thread by
 * run-queue wait with its comm), 0 on the first call (baseline), -ESRCH when the
 * process is gone (exited, a zombie, or its pid reused by another process), other
 * -errno when the task directory cannot be read. Threads are counted as described
 * in schedacc.h: a thread born after the previous poll counts its whole counters,
 * a vanished thread contributes nothing. A thread whose counters did not move in
 * its last two reads is read once every 16 polls (in turns) and counts 0 between:
 * what it did meanwhile lands in the interval of its next read (probe_sched.c). */
int sched_probe_poll(struct sched_probe *p, int64_t now_ms, struct event *out);

struct sched_thread {
	int32_t tid;
	double oncpu_ms, wait_ms;   /* in the last interval */
	char comm[16];
};

/* The threads of the last poll, ordered by wait + on-CPU in the last interval,
 * with their comm (read now: one small read per thread returned). Returns the
 * number written (<= cap). */
int sched_probe_threads(struct sched_probe *p, struct sched_thread *out, int cap);

/* How many polls had to list /proc/PID/task (the others re-read kept fds only:
 * see probe_sched.c). For tests and the benchmark. */
uint64_t sched_probe_listings(const struct sched_probe *p);
/* How many schedstat files were read so far (a quiet thread is read in turns). */
uint64_t sched_probe_reads(const struct sched_probe *p);

/* Read every thread at the next poll, the quiet ones too: the caller saw what
 * makes threads wait (the cgroup throttled, a stop), so each thread's wait
 * belongs in this interval, not in the one its turn comes in. */
void sched_probe_read_all(struct sched_probe *p);

void sched_probe_close(struct sched_probe *p);

/* --------------------------------------------------------------- hsperf --- */

struct hsperf_probe;

/* The JVM's own counters (its hsperfdata file, hsperf.h), found for pid under
 * root. NULL only when out of memory. When the file cannot be opened now, err
 * says why (no such file: -XX:-UsePerfData, -XX:+PerfDisableSharedMem, a
 * private /tmp, a JVM still starting; unreadable) and polls look for it again
 * every few seconds; "" when it was opened. */
struct hsperf_probe *hsperf_probe_open(const char *root, int pid, char *err, size_t errlen);
/* 1 with an EV_JVMCTR for the interval since the previous read (t_ms = now_ms),
 * 0 on a baseline read (the first, or the first after the JVM restarted),
 * -errno when the counters cannot be read now (hsperf_probe_why says why):
 * -ESRCH/-ESTALE the file went away (the JVM exited); it is looked for again
 * every few seconds, -EAGAIN while waiting for that. */
int hsperf_probe_poll(struct hsperf_probe *p, int64_t now_ms, struct event *out);
/* A read between polls (every HSPERF_STEP_MS), which only follows the stops:
 * each stop's end is then known to that step, and most stops on their own
 * (hsperf_stops_step). 0, or the errors of hsperf_probe_poll. */
#define HSPERF_STEP_MS 100
int hsperf_probe_step(struct hsperf_probe *p, int64_t now_ms);
/* The longest stop the steps saw end since the last poll, or the time to
 * safepoint of one still under way when that is longer; -1 none. */
double hsperf_probe_pending_stop_ms(const struct hsperf_probe *p);
/* One read for a report (--report --pid): 1 with an EV_JVMCTR whose interval
 * is 0 (nothing counted in it) and whose totals, heap and collector are the
 * read's; -errno as hsperf_probe_poll. */
int hsperf_probe_snapshot(struct hsperf_probe *p, int64_t now_ms, struct event *out);

/* What one read says since the JVM started, as `jstat -gc` maps the counters
 * (struct jvm_totals). stop_has_sync: JDK 8-12, whose safepointTime includes
 * the time to reach the safepoint. */
struct hsperf_sample;
void hsperf_probe_totals(const struct hsperf_sample *s, bool stop_has_sync, struct jvm_totals *t);
/* enum jvm_collector from the policy and collector names of a read (JDK 8 to 17) */
int hsperf_probe_collector(const struct hsperf_sample *s);
const char *hsperf_probe_path(const struct hsperf_probe *p);   /* "" when not open */
const char *hsperf_probe_why(const struct hsperf_probe *p);
void hsperf_probe_close(struct hsperf_probe *p);

/* ---------------------------------------------------------------- hs_err --- */

struct hserr_probe;
struct tail;

/* Watch for JVM crash reports (hs_err). Files already there whose mtime is
 * before since_ms are an earlier crash: ignored unless they change. The
 * directories are watched through the tailer t (tail_watch_dir: the process
 * keeps one inotify instance); t NULL: names are looked for at every poll.
 * Free the probe before the tailer. */
struct hserr_probe *hserr_probe_new(struct tail *t, int64_t since_ms);
/* Watch path (an absolute file name), or with prefix every file of path's
 * directory whose name starts with path's last component. Its directory is
 * watched with inotify (the tailer's); without read permission on it, and in /tmp (where every
 * process's temporary files would wake us), an exact name is looked for at
 * every poll instead; what cannot be watched at all is said (take_note). 0 or
 * -EINVAL (not absolute), -E2BIG (too many). */
int hserr_probe_add(struct hserr_probe *p, const char *path, bool prefix, int64_t now_ms);
/* true (once) when the tailer told of a watched name since the last poll:
 * call hserr_probe_poll after tail_dispatch when it says so. */
bool hserr_probe_woken(struct hserr_probe *p);
/* Look now. Writes up to cap complete reports as EV_HSERR (path set, t_ms = the
 * file's mtime; up_us from "elapsed time") and returns their count. A report is
 * complete once it was closed or has not grown for ~300 ms; each is given once.
 * *next_ms: look again that soon (a file being written), -1 no need. */
int hserr_probe_poll(struct hserr_probe *p, int64_t now_ms, struct event *out, int cap, int *next_ms);
/* What could not be watched, or a file that is no crash report: the text once
 * (NULL when nothing new since the last call). */
const char *hserr_probe_take_note(struct hserr_probe *p);
/* "/srv/crash-42.log, /srv/app/hs_err_pid42.log, /tmp/hs_err_pid42.log"; returns the count. */
int hserr_probe_describe(const struct hserr_probe *p, char *buf, size_t len);
void hserr_probe_free(struct hserr_probe *p);

/* ---------------------------------------------------------------- vmstat --- */

struct vmstat_probe;

struct vmstat_probe *vmstat_probe_open(const char *root, char *err, size_t errlen);
/* 1 with an EV_VMSTAT (allocstall = sum of allocstall_* or the older single
 * allocstall; pageoutrun; pgscan_direct; cumulative), or -errno. */
int vmstat_probe_poll(struct vmstat_probe *p, int64_t now_ms, struct event *out);
void vmstat_probe_close(struct vmstat_probe *p);

/* The file's text is parsed by procstat_vmstat (procstat.h). */

#endif
