/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_probe_live.c — the probes on the live system: a real cgroup-v1 cpu cgroup
 * with quota 10000/100000 and a busy shell in it must show nr_throttled and
 * throttled time growing; the sched probe follows the shell and reports -ESRCH
 * once it is gone; /proc/vmstat is read. Needs root and a v1 cpu controller:
 * otherwise the test says exactly why and is reported as skipped.
 * The cgroup and the busy process are always removed (teardown runs after a
 * failed assertion too; the child also dies with us via PR_SET_PDEATHSIG, and a
 * cgroup left by a killed run is removed by the next one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/probe.h"
#include "stwtop/util.h"
#include "testutil_probe.h"

static char g_cgdir[1024];
static pid_t g_child = -1;

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, s, strlen(s));
	int e = n < 0 ? -errno : 0;
	close(fd);
	return e;
}

/* the v1 cpu hierarchy's mount point, read from mountinfo (test-side, independent of the probe) */
static bool find_cpu_mount(char *mnt, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	bool found = false;
	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f)) {
		char *fields[64];
		int n = 0;
		for (char *tok = strtok(line, " \n"); tok && n < 64; tok = strtok(NULL, " \n"))
			fields[n++] = tok;
		for (int i = 6; i < n; i++) {
			if (strcmp(fields[i], "-") != 0)
				continue;
			/* "- cgroup cgroup rw,cpu" : fstype, source, super options */
			if (i + 3 < n && strcmp(fields[i + 1], "cgroup") == 0) {
				char opts[512];
				snprintf(opts, sizeof opts, ",%s,", fields[i + 3]);
				if (strstr(opts, ",cpu,")) {
					snprintf(mnt, len, "%s", fields[4]);
					found = true;
				}
			}
			break;
		}
	}
	fclose(f);
	return found;
}

/* our own cgroup path in the hierarchy with the cpu controller */
static bool own_cpu_path(char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[2048];
	bool found = false;
	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		char ctrls[512];
		snprintf(ctrls, sizeof ctrls, ",%s,", c1 + 1);
		if (strstr(ctrls, ",cpu,")) {
			char *nl = strchr(c2 + 1, '\n');
			if (nl)
				*nl = '\0';
			snprintf(path, len, "%s", strcmp(c2 + 1, "/") == 0 ? "" : c2 + 1);
			found = true;
		}
	}
	fclose(f);
	return found;
}

static bool rmdir_deadline(const char *dir, int ms)
{
	int64_t end = util_mono_ms() + ms;
	while (rmdir(dir) < 0) {
		if (errno == ENOENT)
			return true;
		if (util_mono_ms() > end)
			return false;
		sleep_ms(20);
	}
	return true;
}

/* a cgroup left behind by a run that was killed (its pid no longer exists) */
static void remove_stale(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		int pid;
		if (strncmp(de->d_name, "stwtop-live-", 12) != 0)
			continue;
		pid = atoi(de->d_name + 12);
		if (pid > 0 && kill(pid, 0) == 0)
			continue; /* another live test is running */
		char p[1400];
		if ((size_t)snprintf(p, sizeof p, "%s/%s", parent, de->d_name) >= sizeof p)
			continue;
		if (rmdir_deadline(p, 1000))
			fprintf(stderr, "removed stale cgroup %s\n", p);
	}
	closedir(d);
}

static int teardown(void **state)
{
	(void)state;
	if (g_child > 0) {
		kill(g_child, SIGKILL);
		waitpid(g_child, NULL, 0);
		g_child = -1;
	}
	if (g_cgdir[0]) {
		if (!rmdir_deadline(g_cgdir, 5000))
			fprintf(stderr, "could not remove cgroup %s: %s\n", g_cgdir, strerror(errno));
		g_cgdir[0] = '\0';
	}
	return 0;
}

static bool in_cgroup(pid_t pid, const char *name)
{
	char p[64], b[4096];
	snprintf(p, sizeof p, "/proc/%d/cgroup", (int)pid);
	FILE *f = fopen(p, "r");
	if (!f)
		return false;
	size_t n = fread(b, 1, sizeof b - 1, f);
	fclose(f);
	b[n] = '\0';
	return strstr(b, name) != NULL;
}

static char proc_state(pid_t pid)
{
	char p[64], b[512];
	snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(p, "r");
	if (!f)
		return 0;
	size_t n = fread(b, 1, sizeof b - 1, f);
	fclose(f);
	b[n] = '\0';
	char *rp = strrchr(b, ')');
	return rp && rp[1] == ' ' ? rp[2] : 0;
}

static void test_live_v1_throttle(void **state)
{
	(void)state;
	char mnt[512], own[512], name[64], path[1200], err[512], desc[1024];
	if (geteuid() != 0) {
		print_message("SKIP: not root (euid %d): creating a cpu cgroup needs root\n", (int)geteuid());
		skip();
	}
	if (!find_cpu_mount(mnt, sizeof mnt)) {
		print_message("SKIP: no cgroup v1 cpu controller in /proc/self/mountinfo "
			      "(cgroup v2 only: this live test covers v1; v2 is covered by fixtures)\n");
		skip();
	}
	if (!own_cpu_path(own, sizeof own)) {
		print_message("SKIP: /proc/self/cgroup has no cpu hierarchy line\n");
		skip();
	}
	snprintf(path, sizeof path, "%s%s", mnt, own);
	remove_stale(path);
	snprintf(name, sizeof name, "stwtop-live-%d", (int)getpid());
	if ((size_t)snprintf(g_cgdir, sizeof g_cgdir, "%s%s/%s", mnt, own, name) >= sizeof g_cgdir) {
		g_cgdir[0] = '\0';
		fail_msg("cgroup path too long");
	}
	if (mkdir(g_cgdir, 0755) < 0) {
		int e = errno;
		g_cgdir[0] = '\0';
		if (e == EACCES || e == EPERM || e == EROFS) {
			print_message("SKIP: cannot create a cgroup under %s%s: %s\n", mnt, own, strerror(e));
			skip();
		}
		fail_msg("mkdir %s%s/%s: %s", mnt, own, name, strerror(e));
	}
	snprintf(path, sizeof path, "%s/cpu.cfs_period_us", g_cgdir);
	assert_int_equal(write_str(path, "100000"), 0);
	snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", g_cgdir);
	assert_int_equal(write_str(path, "10000"), 0);

	snprintf(path, sizeof path, "%s/cgroup.procs", g_cgdir);
	g_child = fork();
	assert_true(g_child >= 0);
	if (g_child == 0) {
		char me[32];
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		snprintf(me, sizeof me, "%d", (int)getpid());
		if (write_str(path, me) < 0)
			_exit(3);
		execl("/bin/sh", "sh", "-c", "while :; do :; done", (char *)NULL);
		_exit(4);
	}
	/* wait (with a deadline) until the child runs in the cgroup */
	int64_t end = util_mono_ms() + 5000;
	while (!in_cgroup(g_child, name)) {
		int st;
		if (waitpid(g_child, &st, WNOHANG) == g_child) {
			g_child = -1;
			fail_msg("busy child exited early (status %d): could not join %s", st, g_cgdir);
		}
		assert_true(util_mono_ms() < end);
		sleep_ms(10);
	}

	/* by pid: the real /proc/PID/cgroup + mountinfo resolve to our directory */
	struct cgroup_probe *byp = cgroup_probe_open("", g_child, NULL, err, sizeof err);
	if (!byp)
		fail_msg("cgroup_probe_open(pid %d): %s", (int)g_child, err);
	cgroup_probe_describe(byp, desc, sizeof desc);
	print_message("probe: %s\n", desc);
	snprintf(path, sizeof path, "cgroup v1 cpu %s (quota 0.10 CPU)", g_cgdir);
	assert_non_null(strstr(desc, path));
	cgroup_probe_close(byp);

	struct cgroup_probe *cg = cgroup_probe_open("", 0, g_cgdir, err, sizeof err);
	if (!cg)
		fail_msg("cgroup_probe_open(%s): %s", g_cgdir, err);
	struct sched_probe *sp = sched_probe_open("", g_child, err, sizeof err);
	if (!sp)
		fail_msg("sched_probe_open(%d): %s", (int)g_child, err);
	struct event a[2], b[2], s;
	/* by dir: cpu only (no memory cgroup of that name exists next to it) */
	assert_int_equal(cgroup_probe_mem_version(cg), 0);
	assert_int_equal(cgroup_probe_poll(cg, util_now_ms(), a, 2), 1);
	assert_int_equal(a[0].kind, EV_CPU);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &s), 0);
	/* poll every 100 ms for ~1.5 s; continue (up to 10 s) only if the kernel has not
	 * throttled yet, so a slow machine does not make the test flaky */
	int64_t t0 = util_mono_ms();
	double oncpu = 0, wait = 0, idle = 0, wall = 0;
	for (;;) {
		sleep_ms(100);
		assert_int_equal(cgroup_probe_poll(cg, util_now_ms(), b, 2), 1);
		int r = sched_probe_poll(sp, util_now_ms(), &s);
		assert_int_equal(r, 1);
		oncpu += s.u.sched.oncpu_ms;
		wait += s.u.sched.wait_ms;
		assert_true(s.u.sched.idle_ms >= 0);
		idle += s.u.sched.idle_ms;
		wall += s.u.sched.interval_ms;
		assert_int_equal(s.u.sched.nthreads, 1);
		bool grew = b[0].u.cpu.nr_throttled > a[0].u.cpu.nr_throttled &&
			    b[0].u.cpu.throttled_us > a[0].u.cpu.throttled_us;
		int64_t el = util_mono_ms() - t0;
		if ((grew && el >= 1500) || el > 10000)
			break;
	}
	print_message("in %lld ms: nr_periods +%lld, nr_throttled +%lld, throttled +%.1f ms, usage +%.1f ms; "
		      "sched: on-CPU %.1f ms\n",
		      (long long)(util_mono_ms() - t0), (long long)(b[0].u.cpu.nr_periods - a[0].u.cpu.nr_periods),
		      (long long)(b[0].u.cpu.nr_throttled - a[0].u.cpu.nr_throttled),
		      (b[0].u.cpu.throttled_us - a[0].u.cpu.throttled_us) / 1000.0,
		      (b[0].u.cpu.usage_us - a[0].u.cpu.usage_us) / 1000.0, oncpu);
	/* one thread present throughout: on CPU + waiting + idle is the wall time */
	print_message("sched: on-CPU %.1f + wait %.1f + idle %.1f ms = %.1f, wall %.1f ms\n", oncpu, wait, idle,
		      oncpu + wait + idle, wall);
	assert_true(fabs(oncpu + wait + idle - wall) <= 0.1 * wall);
	assert_int_equal(b[0].u.cpu.cg_version, 1);
	assert_int_equal(b[0].u.cpu.quota_us, 10000);
	assert_int_equal(b[0].u.cpu.period_us, 100000);
	assert_true(b[0].u.cpu.nr_periods > a[0].u.cpu.nr_periods);
	assert_true(b[0].u.cpu.nr_throttled > a[0].u.cpu.nr_throttled);
	assert_true(b[0].u.cpu.throttled_us > a[0].u.cpu.throttled_us);
	assert_true(oncpu > 0);
	assert_null(cgroup_probe_last_error(cg, NULL));

	/* the process dies: a zombie is already gone for the sched probe... */
	kill(g_child, SIGKILL);
	end = util_mono_ms() + 5000;
	while (proc_state(g_child) != 'Z') {
		assert_true(util_mono_ms() < end);
		sleep_ms(5);
	}
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &s), -ESRCH);
	waitpid(g_child, NULL, 0);
	g_child = -1;
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &s), -ESRCH);
	sched_probe_close(sp);
	/* ...while the cgroup probe keeps working on the (now empty) cgroup directory */
	assert_int_equal(cgroup_probe_poll(cg, util_now_ms(), b, 2), 1);
	assert_null(cgroup_probe_last_error(cg, NULL));
	/* and when the cgroup itself is removed, a clear error, no crash */
	assert_true(rmdir_deadline(g_cgdir, 5000));
	g_cgdir[0] = '\0';
	int r = cgroup_probe_poll(cg, util_now_ms(), b, 2);
	assert_int_equal(r, -ENOENT);
	const char *msg = cgroup_probe_last_error(cg, NULL);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "cpu.stat"));
	print_message("after rmdir: %s\n", msg);
	cgroup_probe_close(cg);
}

/* The REAL cgroup2 mount (a v2-only host, or the "unified" mount of a hybrid one):
 * a child cgroup with a busy process in it, read through --cgroup DIR. Its
 * cpu.stat always has usage_usec; the throttling counters only with the cpu
 * controller enabled for it (never on a hybrid host, where cpu is bound to v1). */
static void test_live_v2(void **state)
{
	(void)state;
	char mnt[512] = "", line[2048], path[1200], err[512], desc[1024];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	assert_non_null(f);
	while (!mnt[0] && fgets(line, sizeof line, f)) {
		char *sep = strstr(line, " - cgroup2 ");
		char *fld = line;
		if (!sep)
			continue;
		for (int k = 0; k < 4 && fld; k++) /* the mount point is field 5 */
			fld = strchr(fld + 1, ' ');
		if (fld) {
			size_t l = strcspn(fld + 1, " ");
			snprintf(mnt, sizeof mnt, "%.*s", (int)l, fld + 1);
		}
	}
	fclose(f);
	if (!mnt[0]) {
		print_message("SKIP: no cgroup2 mount in /proc/self/mountinfo\n");
		skip();
	}
	snprintf(g_cgdir, sizeof g_cgdir, "%s/stwtop-live-v2-%d", mnt, (int)getpid());
	if (mkdir(g_cgdir, 0755) < 0) {
		int e = errno;
		g_cgdir[0] = '\0';
		if (e == EACCES || e == EPERM || e == EROFS || e == EBUSY) {
			print_message("SKIP: cannot create a cgroup under %s: %s\n", mnt, strerror(e));
			skip();
		}
		fail_msg("mkdir under %s: %s", mnt, strerror(e));
	}
	snprintf(path, sizeof path, "%s/cgroup.procs", g_cgdir);
	g_child = fork();
	assert_true(g_child >= 0);
	if (g_child == 0) {
		char me[32];
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		snprintf(me, sizeof me, "%d", (int)getpid());
		if (write_str(path, me) < 0)
			_exit(3);
		execl("/bin/sh", "sh", "-c", "while :; do :; done", (char *)NULL);
		_exit(4);
	}
	const char *name = strrchr(g_cgdir, '/') + 1;
	int64_t end = util_mono_ms() + 5000;
	while (!in_cgroup(g_child, name)) {
		int st;
		if (waitpid(g_child, &st, WNOHANG) == g_child) {
			g_child = -1;
			fail_msg("busy child exited early (status %d): could not join %s", st, g_cgdir);
		}
		assert_true(util_mono_ms() < end);
		sleep_ms(10);
	}
	struct cgroup_probe *cg = cgroup_probe_open("", 0, g_cgdir, err, sizeof err);
	if (!cg)
		fail_msg("cgroup_probe_open(%s): %s", g_cgdir, err);
	cgroup_probe_describe(cg, desc, sizeof desc);
	print_message("probe: %s\n", desc);
	assert_int_equal(cgroup_probe_cpu_version(cg), 2);
	struct event a[2], b[2];
	int na = cgroup_probe_poll(cg, util_now_ms(), a, 2);
	assert_true(na >= 1);
	assert_int_equal(a[0].kind, EV_CPU);
	/* the busy child's CPU time shows in usage_usec (with a deadline, not a sleep) */
	end = util_mono_ms() + 5000;
	for (;;) {
		assert_true(cgroup_probe_poll(cg, util_now_ms(), b, 2) >= 1);
		if (b[0].u.cpu.usage_us > a[0].u.cpu.usage_us + 20000)
			break;
		assert_true(util_mono_ms() < end);
		sleep_ms(20);
	}
	assert_int_equal(b[0].u.cpu.cg_version, 2);
	snprintf(path, sizeof path, "%s/cpu.max", g_cgdir);
	if (access(path, F_OK) != 0) {
		/* no cpu controller for it: usage only, said so */
		assert_int_equal(b[0].u.cpu.nr_throttled, -1);
		assert_int_equal(b[0].u.cpu.throttled_us, -1);
		assert_int_equal(b[0].u.cpu.quota_us, -2);
		assert_non_null(strstr(desc, "no cpu controller"));
	} else {
		assert_true(b[0].u.cpu.nr_throttled >= 0);
	}
	assert_null(cgroup_probe_last_error(cg, NULL));
	cgroup_probe_close(cg);
}

static void test_live_vmstat(void **state)
{
	(void)state;
	char err[256];
	struct vmstat_probe *vp = vmstat_probe_open("", err, sizeof err);
	if (!vp)
		fail_msg("%s", err);
	struct event e;
	assert_int_equal(vmstat_probe_poll(vp, util_now_ms(), &e), 1);
	assert_true(e.u.vm.allocstall >= 0);
	assert_true(e.u.vm.pageoutrun >= 0);
	assert_true(e.u.vm.pgscan_direct >= 0);
	vmstat_probe_close(vp);
}

/* our own process: the sched probe sees at least this thread, and -ESRCH for a pid that is not there */
static void test_live_sched_self(void **state)
{
	(void)state;
	char err[256];
	struct sched_probe *sp = sched_probe_open("", getpid(), err, sizeof err);
	if (!sp)
		fail_msg("%s", err);
	struct event e;
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 0);
	/* burn 30 ms of this thread's CPU time (not wall time: the machine may be busy) */
	volatile uint64_t x = 1;
	struct timespec c0, c1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	int64_t end = util_mono_ms() + 10000;
	do {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ULL + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	} while ((c1.tv_sec - c0.tv_sec) * 1000 + (c1.tv_nsec - c0.tv_nsec) / 1000000 < 30 && util_mono_ms() < end);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_true(e.u.sched.nthreads >= 1);
	assert_true(e.u.sched.oncpu_ms >= 25); /* schedstat run time includes the 30 ms burnt */
	struct sched_thread t[4];
	assert_true(sched_probe_threads(sp, t, 4) >= 1);
	char comm[32] = "";
	FILE *f = fopen("/proc/self/comm", "r"); /* "test_probe_live", or the name a tool (valgrind) gave us */
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof comm, f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	assert_string_equal(t[0].comm, comm);
	sched_probe_close(sp);
	assert_null(sched_probe_open("", 0x3fffffff, err, sizeof err));
	assert_non_null(strstr(err, "no such process"));
}

/* ---- thread churn: a child whose threads start and exit on command ------- */

static int g_cmd[2] = {-1, -1}, g_ack[2] = {-1, -1};
static pid_t g_churn = -1;

struct churn_thread {
	pthread_t t;
	int wake[2];
};

/* blocks on its pipe: 'x' ends it, 'b' makes it run ~30 ms and block again */
static void *churn_body(void *arg)
{
	struct churn_thread *c = arg;
	char x;
	for (;;) {
		ssize_t n = read(c->wake[0], &x, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 1 && x == 'w')
			continue;   /* woken: runs a few microseconds */
		if (n != 1 || x != 'b')
			return NULL;
		struct timespec t0, t1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 30000000L);
	}
}

/* '+' starts a thread that blocks on its pipe, '-' ends the oldest one and joins it,
 * 'b' makes the newest one run ~30 ms of CPU (acknowledged at once), 'w' wakes
 * every thread for a moment (a pool thread looking for work) */
static void churn_child(void)
{
	struct churn_thread th[64];
	int n = 0, first = 0;
	char c;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (read(g_cmd[0], &c, 1) == 1) {
		if (c == '+' && n < 64) {
			if (pipe(th[n].wake) < 0 || pthread_create(&th[n].t, NULL, churn_body, &th[n]) != 0)
				_exit(5);
			n++;
		} else if (c == 'w') {
			for (int i = first; i < n; i++)
				if (write(th[i].wake[1], "w", 1) != 1)
					_exit(9);
		} else if (c == 'b' && first < n) {
			if (write(th[n - 1].wake[1], "b", 1) != 1)
				_exit(8);
		} else if (c == '-' && first < n) {
			if (write(th[first].wake[1], "x", 1) != 1)
				_exit(6);
			pthread_join(th[first].t, NULL);
			first++;
		}
		if (write(g_ack[1], &c, 1) != 1)
			_exit(7);
	}
	_exit(0);
}

static int churn_teardown(void **state)
{
	(void)state;
	if (g_churn > 0) {
		kill(g_churn, SIGKILL);
		waitpid(g_churn, NULL, 0);
		g_churn = -1;
	}
	for (int i = 0; i < 2; i++) {
		if (g_cmd[i] >= 0)
			close(g_cmd[i]);
		if (g_ack[i] >= 0)
			close(g_ack[i]);
		g_cmd[i] = g_ack[i] = -1;
	}
	return 0;
}

/* the child's tids from /proc, sorted */
static int proc_tids(pid_t pid, int *tids, int max)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/task", (int)pid);
	DIR *d = opendir(p);
	struct dirent *de;
	int n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL && n < max)
		if (de->d_name[0] != '.')
			tids[n++] = atoi(de->d_name);
	closedir(d);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && tids[j - 1] > tids[j]; j--) {
			int t = tids[j];
			tids[j] = tids[j - 1];
			tids[j - 1] = t;
		}
	return n;
}

static void churn(char c, int want_threads)
{
	char a;
	assert_int_equal(write(g_cmd[1], &c, 1), 1);
	assert_int_equal(read(g_ack[0], &a, 1), 1);
	/* a joined thread can linger in /proc for a moment: wait for the kernel */
	int tids[128];
	int64_t end = util_mono_ms() + 5000;
	while (proc_tids(g_churn, tids, 128) != want_threads) {
		assert_true(util_mono_ms() < end);
		sleep_ms(2);
	}
}

/* the probe's view equals /proc's after each poll */
static void same_tids(struct sched_probe *sp, int nthreads)
{
	int tids[128], probe[128];
	struct sched_thread th[128];
	int n = proc_tids(g_churn, tids, 128);
	int k = sched_probe_threads(sp, th, 128);
	assert_int_equal(k, nthreads);
	assert_int_equal(n, k);
	for (int i = 0; i < k; i++)
		probe[i] = th[i].tid;
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && probe[j - 1] > probe[j]; j--) {
			int t = probe[j];
			probe[j] = probe[j - 1];
			probe[j - 1] = t;
		}
	assert_memory_equal(tids, probe, (size_t)k * sizeof *tids);
}

/* the churn child with nthreads threads in all, and a probe on it */
static struct sched_probe *start_churn(int nthreads)
{
	char err[256];
	assert_int_equal(pipe(g_cmd), 0);
	assert_int_equal(pipe(g_ack), 0);
	g_churn = fork();
	assert_true(g_churn >= 0);
	if (g_churn == 0)
		churn_child();
	for (int i = 2; i <= nthreads; i++)
		churn('+', i);
	struct sched_probe *sp = sched_probe_open("", g_churn, err, sizeof err);
	if (!sp)
		fail_msg("%s", err);
	return sp;
}

/* The sched probe lists /proc/PID/task only when the thread set may have changed:
 * births change num_threads, deaths make a kept fd fail. Here one thread exits and
 * another starts between two polls (same count): the probe must still see both. */
static void test_live_sched_churn(void **state)
{
	(void)state;
	struct event e;
	struct sched_probe *sp = start_churn(3);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 0);
	assert_int_equal(sched_probe_listings(sp), 1);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_int_equal(e.u.sched.nthreads, 3);
	assert_int_equal(sched_probe_listings(sp), 1); /* nothing changed: kept fds only */
	same_tids(sp, 3);

	churn('+', 4); /* a birth */
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_int_equal(e.u.sched.nthreads, 4);
	assert_int_equal(sched_probe_listings(sp), 2);
	same_tids(sp, 4);

	churn('-', 3); /* a death and a birth: same count */
	churn('+', 4);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_int_equal(e.u.sched.nthreads, 4);
	assert_int_equal(sched_probe_listings(sp), 3);
	same_tids(sp, 4);

	churn('-', 3); /* a death only */
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_int_equal(e.u.sched.nthreads, 3);
	same_tids(sp, 3);
	uint64_t l = sched_probe_listings(sp);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_int_equal(sched_probe_listings(sp), l); /* steady again */
	sched_probe_close(sp);
}

/* A thread whose counters did not move in two reads is read in turns (one
 * poll in 16), unless the caller asks for every thread; what it did between
 * its reads is not lost; a birth behind a death is still found. */
static void test_live_sched_quiet(void **state)
{
	(void)state;
	struct event e;
	const int n = 40;
	struct sched_probe *sp = start_churn(n);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 0);
	for (int i = 0; i < 3; i++) /* every thread read: none is quiet yet */
		assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	/* now all are quiet: a poll reads about n/16 of them. Other processes'
	 * births (more than 64 pids since the last poll) make a poll read all of
	 * them, so the fewest reads of 8 polls is what is checked */
	uint64_t fewest = UINT64_MAX;
	for (int i = 0; i < 8; i++) {
		uint64_t r0 = sched_probe_reads(sp);
		assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
		assert_int_equal(e.u.sched.nthreads, n);
		uint64_t d = sched_probe_reads(sp) - r0;
		fewest = d < fewest ? d : fewest;
	}
	assert_true(fewest <= (uint64_t)n / 16 + 2);
	uint64_t r0 = sched_probe_reads(sp);
	sched_probe_read_all(sp);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_true(sched_probe_reads(sp) - r0 >= (uint64_t)n);

	/* a quiet thread runs 30 ms: the CPU shows up within one round of turns */
	char a;
	assert_int_equal(write(g_cmd[1], "b", 1), 1);
	assert_int_equal(read(g_ack[0], &a, 1), 1);
	sleep_ms(100);
	double oncpu = 0;
	for (int i = 0; i < 17 && oncpu < 25; i++) {
		assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
		oncpu += e.u.sched.oncpu_ms;
	}
	assert_true(oncpu >= 25);

	/* a death and a birth among quiet threads, same count */
	for (int i = 0; i < 3; i++)
		assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	uint64_t l = sched_probe_listings(sp);
	churn('-', n - 1);
	churn('+', n);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_int_equal(e.u.sched.nthreads, n);
	assert_true(sched_probe_listings(sp) > l);
	same_tids(sp, n);
	sched_probe_close(sp);
}

/* A thread that wakes every interval but runs little (under 2 ms a poll: a
 * pool thread looking for work) is read in turns like a quiet one: a JVM
 * with 2000 of them had all of them read at every poll. */
static void test_live_sched_cool(void **state)
{
	(void)state;
	struct event e;
	const int n = 40;
	struct sched_probe *sp = start_churn(n);
	char a;
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 0);
	uint64_t fewest = UINT64_MAX;
	for (int i = 0; i < 12; i++) {
		assert_int_equal(write(g_cmd[1], "w", 1), 1);   /* every thread wakes */
		assert_int_equal(read(g_ack[0], &a, 1), 1);
		sleep_ms(20);
		uint64_t r0 = sched_probe_reads(sp);
		assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
		assert_int_equal(e.u.sched.nthreads, n);
		uint64_t d = sched_probe_reads(sp) - r0;
		if (i >= 3)   /* two reads make a thread cool */
			fewest = d < fewest ? d : fewest;
	}
	/* others' births (64+ pids between two polls) read all: the fewest of 9 */
	assert_true(fewest <= (uint64_t)n / 16 + 2);
	sched_probe_close(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_live_v1_throttle, teardown),
		cmocka_unit_test_teardown(test_live_v2, teardown),
		cmocka_unit_test(test_live_vmstat),
		cmocka_unit_test(test_live_sched_self),
		cmocka_unit_test_teardown(test_live_sched_churn, churn_teardown),
		cmocka_unit_test_teardown(test_live_sched_quiet, churn_teardown),
		cmocka_unit_test_teardown(test_live_sched_cool, churn_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
