/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_discover_live.c — discovery and the sched probe against a real JVM that
 * the test starts: tests/fixtures/java/ProbeTarget.java compiled with javac into
 * a temp dir, run with -Xmx64m and
 * -Xlog:gc*,safepoint:file=<tmp>/gc-%p.log:time,uptime,level,tags.
 * Skipped (with the reason) when java/javac are not installed. The JVM is killed
 * and the temp dir removed in all cases (teardown; PR_SET_PDEATHSIG as well). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/discover.h"
#include "stwtop/live.h"
#include "stwtop/probe.h"
#include "stwtop/session.h"
#include "stwtop/util.h"
#include "testutil_probe.h"

static char g_tmp[64];
static pid_t g_jvm = -1;

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static bool have(const char *prog)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

static int teardown(void **state)
{
	(void)state;
	if (g_jvm > 0) {
		kill(g_jvm, SIGKILL);
		waitpid(g_jvm, NULL, 0);
		g_jvm = -1;
	}
	if (g_tmp[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", g_tmp);
		g_tmp[0] = '\0';
	}
	return 0;
}

/* first line of a file, or false */
static bool first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(buf, (int)len, f) && strchr(buf, '\n');
	if (f)
		fclose(f);
	return ok;
}

static bool has_thread(const struct sched_thread *t, int n, const char *comm)
{
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].comm, comm) == 0)
			return true;
	return false;
}

/* A JDK tool run beside the service (jstat watching it, as an on-call engineer
 * does) is a JVM too; discovery passes it over. The real /proc files of both
 * processes are copied into a root of their own, so other JVMs on the machine
 * (parallel test runs) cannot change the answer. */
static void jdk_tool_beside(char *msg, size_t msglen)
{
	char cmd[1024], jpid[16], root[300];
	if (!have("jstat")) {
		print_message("no jstat on PATH: the JDK-tool part is not checked\n");
		return;
	}
	snprintf(jpid, sizeof jpid, "%d", (int)g_jvm);
	pid_t tool = fork();
	assert_true(tool >= 0);
	if (tool == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("jstat", "jstat", "-gcutil", jpid, "1000", (char *)NULL);
		_exit(4);
	}
	/* the tool is a JVM once libjvm.so is mapped */
	snprintf(cmd, sizeof cmd, "grep -q libjvm.so /proc/%d/maps 2>/dev/null", (int)tool);
	int64_t end = util_mono_ms() + 20000;
	while (system(cmd) != 0 && util_mono_ms() < end)
		sleep_ms(50);
	snprintf(root, sizeof root, "%s/root", g_tmp);
	snprintf(cmd, sizeof cmd,
		 "for p in %d %d; do d='%s'/proc/$p; mkdir -p $d && for f in cmdline stat status maps; do "
		 "cat /proc/$p/$f > $d/$f || exit 1; done && ln -s \"$(readlink /proc/$p/exe)\" $d/exe || exit 1; done",
		 (int)g_jvm, (int)tool, root);
	assert_int_equal(system(cmd), 0);
	kill(tool, SIGKILL);
	waitpid(tool, NULL, 0);
	int pids[8], pid = 0;
	assert_int_equal(discover_java_pids(root, pids, 8), 1);
	assert_int_equal(pids[0], g_jvm);
	assert_int_equal(discover_pick(root, 0, &pid, msg, msglen), 0);
	assert_int_equal(pid, g_jvm);
	/* asked for by pid, it is said to be a tool */
	assert_int_equal(discover_pick(root, (int)tool, &pid, msg, msglen), 0);
	assert_non_null(strstr(msg, "is a JDK tool"));
}

static void test_live_jvm(void **state)
{
	(void)state;
	char cmd[1024], err[512], msg[4096], path[256], line[512];
	if (!have("java") || !have("javac")) {
		print_message("SKIP: java and javac are needed on PATH for the live JVM test\n");
		skip();
	}
	snprintf(g_tmp, sizeof g_tmp, "/tmp/stwtop-jvm-XXXXXX");
	assert_non_null(mkdtemp(g_tmp));
	snprintf(cmd, sizeof cmd, "javac -d '%s' '%s/fixtures/java/ProbeTarget.java'", g_tmp, STWTOP_TEST_DIR);
	assert_int_equal(system(cmd), 0);

	char xlog[200], out[128];
	snprintf(xlog, sizeof xlog, "-Xlog:gc*,safepoint:file=%s/gc-%%p.log:time,uptime,level,tags", g_tmp);
	snprintf(out, sizeof out, "%s/stdout.txt", g_tmp);
	g_jvm = fork();
	assert_true(g_jvm >= 0);
	if (g_jvm == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || chdir(g_tmp) < 0)
			_exit(3);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("java", "java", "-Xmx64m", xlog, "-cp", g_tmp, "ProbeTarget", "2", "120", (char *)NULL);
		_exit(4);
	}
	/* wait for READY and the log's first line, with a deadline */
	snprintf(path, sizeof path, "%s/gc-%d.log", g_tmp, (int)g_jvm);
	int64_t end = util_mono_ms() + 30000;
	for (;;) {
		char ready[64];
		int st;
		if (first_line(out, ready, sizeof ready) && strncmp(ready, "READY", 5) == 0 &&
		    first_line(path, line, sizeof line))
			break;
		if (waitpid(g_jvm, &st, WNOHANG) == g_jvm) {
			g_jvm = -1;
			snprintf(cmd, sizeof cmd, "cat '%s'", out);
			if (system(cmd) != 0)
				break;
			fail_msg("the JVM exited early (status %d)", st);
		}
		if (util_mono_ms() > end)
			fail_msg("the JVM did not become ready in 30 s");
		sleep_ms(20);
	}

	/* discover_pick: with no pid when ours is the only JVM; other JVMs (parallel test runs
	 * of other worktrees) make it ask for --pid, then we pass ours */
	int pids[64], pid = 0;
	int n = discover_java_pids("", pids, 64);
	assert_true(n >= 1);
	bool found = false;
	for (int i = 0; i < n && i < 64; i++)
		found |= pids[i] == g_jvm;
	assert_true(found);
	int r = discover_pick("", 0, &pid, msg, sizeof msg);
	if (n == 1 && r == 0) {
		assert_int_equal(pid, g_jvm);
	} else {
		print_message("%d JVMs running (other tests?): picking by pid\n%s", n, msg);
		if (r == -EEXIST) {
			snprintf(cmd, sizeof cmd, "  %-7d ", (int)g_jvm);
			assert_non_null(strstr(msg, cmd)); /* ours is in the list */
		}
		assert_int_equal(discover_pick("", g_jvm, &pid, msg, sizeof msg), 0);
		assert_int_equal(pid, g_jvm);
		assert_string_equal(msg, "");
	}
	jdk_tool_beside(msg, sizeof msg);

	struct jvm_proc j;
	assert_int_equal(discover_inspect("", g_jvm, &j, err, sizeof err), 0);
	assert_string_equal(j.cwd, g_tmp);
	assert_int_equal(j.xmx, 64 << 20);
	assert_true(j.java_feature >= 9);
	assert_string_equal(j.main, "ProbeTarget");
	const struct jvm_log *gc = discover_gc_log(&j);
	assert_non_null(gc);
	assert_string_equal(gc->path, path); /* %p expanded */
	assert_string_equal(gc->open_path, path);
	assert_true(gc->exists);
	assert_int_equal(gc->tags & (DLOG_GC | DLOG_SAFEPOINT), DLOG_GC | DLOG_SAFEPOINT);
	assert_int_equal(gc->decorations, DDECO_TIME | DDECO_UPTIME | DDECO_LEVEL | DDECO_TAGS);
	snprintf(cmd, sizeof cmd, "%s/hs_err_pid%d.log", g_tmp, (int)g_jvm);
	assert_string_equal(j.error_file, cmd);
	/* start time vs the log's own anchor: first line time - uptime */
	int64_t t;
	double up;
	size_t k = util_parse_iso8601(line + 1, strlen(line) - 1, &t, NULL);
	assert_true(k > 0);
	assert_true(util_parse_double(line + 1 + k + 2, strlen(line) - k - 3, false, &up) > 0);
	int64_t anchor = t - (int64_t)(up * 1000 + 0.5);
	print_message("JVM %d: start %lld from /proc, %lld from %s (diff %lld ms)\n", (int)g_jvm,
		      (long long)j.start_ms, (long long)anchor, path, (long long)(anchor - j.start_ms));
	assert_true(llabs((long long)(anchor - j.start_ms)) <= 100);
	char adv[2048];
	discover_advice(&j, adv, sizeof adv);
	print_message("advice:\n%s", adv);
	assert_null(strstr(adv, "no GC log file"));
	assert_null(strstr(adv, "lines carry")); /* time is in the decorations */
	discover_fini(&j);

	/* the sched probe sees the JVM's threads by name */
	struct sched_probe *sp = sched_probe_open("", g_jvm, err, sizeof err);
	if (!sp)
		fail_msg("%s", err);
	struct event e;
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 0);
	sleep_ms(300);
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), 1);
	assert_true(e.u.sched.nthreads > 10);
	assert_true(e.u.sched.oncpu_ms > 0); /* two workers spin half the time */
	struct sched_thread th[512];
	int nt = sched_probe_threads(sp, th, 512);
	assert_int_equal(nt, e.u.sched.nthreads);
	assert_true(has_thread(th, nt, "VM Thread"));
	assert_true(has_thread(th, nt, "GC Thread#0"));
	assert_true(has_thread(th, nt, "worker-0"));
	assert_true(has_thread(th, nt, "worker-1"));
	print_message("%d threads; busiest: %s (%.1f ms on CPU, %.1f ms waiting)\n", nt, th[0].comm, th[0].oncpu_ms,
		      th[0].wait_ms);

	/* killed: the probe says the process is gone, as does discovery */
	kill(g_jvm, SIGKILL);
	waitpid(g_jvm, NULL, 0);
	int dead = g_jvm;
	g_jvm = -1;
	assert_int_equal(sched_probe_poll(sp, util_now_ms(), &e), -ESRCH);
	sched_probe_close(sp);
	assert_int_equal(discover_inspect("", dead, &j, err, sizeof err), -ESRCH);
	assert_int_equal(discover_pick("", dead, &pid, msg, sizeof msg), -ESRCH);
}

/* A real process that is not a JVM, given JVM options through JAVA_TOOL_OPTIONS
 * (read from its environ as the JVM would): discovery says it is not a JVM,
 * still expands -XX:ErrorFile as HotSpot would (%p, %%; %t kept), and the live
 * engine gives one hint saying so, with no -Xlog or jcmd advice. */
static void test_live_not_jvm(void **state)
{
	(void)state;
	char err[512], msg[2048], want[512];
	snprintf(g_tmp, sizeof g_tmp, "/tmp/stwtop-notjvm-XXXXXX");
	assert_non_null(mkdtemp(g_tmp));
	char opts[256];
	snprintf(opts, sizeof opts, "JAVA_TOOL_OPTIONS=-XX:ErrorFile=%s/crash-%%p-%%%%-%%t.log -Xmx8m", g_tmp);
	g_jvm = fork(); /* not a JVM, but killed by the same teardown */
	assert_true(g_jvm >= 0);
	if (g_jvm == 0) {
		char *envp[] = {opts, NULL};
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (chdir(g_tmp) < 0)
			_exit(3);
		execle("/bin/sleep", "sleep", "60", (char *)NULL, envp);
		_exit(4);
	}
	/* exec done: /proc/PID/exe is sleep */
	int64_t end = util_mono_ms() + 5000;
	for (;;) {
		char exe[256], p[64];
		snprintf(p, sizeof p, "/proc/%d/exe", (int)g_jvm);
		ssize_t n = readlink(p, exe, sizeof exe - 1);
		if (n > 0 && (exe[n] = '\0', strstr(exe, "sleep")))
			break;
		if (util_mono_ms() > end)
			fail_msg("the child did not exec sleep");
		sleep_ms(10);
	}
	int pid = 0;
	assert_int_equal(discover_pick("", g_jvm, &pid, msg, sizeof msg), 0);
	snprintf(want, sizeof want, "process %d (sleep) is not a JVM", (int)g_jvm);
	assert_non_null(strstr(msg, want));

	struct jvm_proc j;
	assert_int_equal(discover_inspect("", g_jvm, &j, err, sizeof err), 0);
	assert_false(j.is_jvm);
	assert_int_equal(j.ncrash, 3);
	snprintf(want, sizeof want, "%s/crash-%d-%%-%%t.log", g_tmp, (int)g_jvm);
	assert_string_equal(j.crash[0].path, want);
	snprintf(want, sizeof want, "%s/hs_err_pid%d.log", g_tmp, (int)g_jvm);
	assert_string_equal(j.crash[1].path, want);
	discover_fini(&j);

	struct session_opts so = {.jvm_start_ms = EV_TIME_NONE};
	struct session *s = session_new(&so, err, sizeof err);
	assert_non_null(s);
	struct live_opts lo = {.interval_ms = 1000, .pid = g_jvm, .proc_root = ""};
	struct live *l = live_new(s, &lo, err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	int n;
	const char *const *h = session_hints(s, &n);
	assert_int_equal(n, 1);
	print_message("hint: %s\n", h[0]);
	assert_non_null(strstr(h[0], "is not a JVM"));
	assert_null(strstr(h[0], "VM.log"));
	assert_null(strstr(h[0], "-Xlog"));
	/* a hint is kept once */
	assert_int_equal(session_add_hint(s, h[0]), 0);
	session_hints(s, &n);
	assert_int_equal(n, 1);
	live_free(l);
	session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_live_jvm, teardown),
		cmocka_unit_test_teardown(test_live_not_jvm, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
