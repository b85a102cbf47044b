/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_hsperf_live.c — core/probe/hsperf.c against real JVMs and the JDK's own
 * readers of the same file. tests/fixtures/java/HsperfTarget.java is compiled
 * with javac into a temp dir and run with no flag but the collector (G1,
 * Parallel, Serial, ZGC). For each: our sample, `jstat -gc PID`, our sample
 * again; every jstat column must lie between our two reads (equal in KB to
 * jstat's one decimal), GC counts too; when a GC fell between the two reads the
 * triple is taken again. Safepoint counters are checked the same way against
 * `jcmd PID PerfCounter.print`. Also: deltas over 100 ms polls add up to the
 * whole, a truncated and a corrupted copy of the real file never crash, and a JVM
 * started with -XX:-UsePerfData (or JAVA_TOOL_OPTIONS=-XX:+PerfDisableSharedMem)
 * gets the reason. Skipped when java, javac, jstat or jcmd are missing. Every JVM
 * is killed in teardown (and by PR_SET_PDEATHSIG if the test dies). */
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/hsperf.h"
#include "stwtop/util.h"

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

static void kill_jvm(void)
{
	if (g_jvm > 0) {
		kill(g_jvm, SIGKILL);
		waitpid(g_jvm, NULL, 0);
		g_jvm = -1;
	}
}

static int setup(void **state)
{
	(void)state;
	char cmd[512];
	if (!have("java") || !have("javac") || !have("jstat") || !have("jcmd"))
		return 0;
	snprintf(g_tmp, sizeof g_tmp, "/tmp/stwtop-hsperf-XXXXXX");
	if (!mkdtemp(g_tmp))
		return -1;
	snprintf(cmd, sizeof cmd, "javac -d '%s' '%s/fixtures/java/HsperfTarget.java'", g_tmp, STWTOP_TEST_DIR);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	kill_jvm();
	if (g_tmp[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", g_tmp);
		g_tmp[0] = '\0';
	}
	return 0;
}

static void need_jdk(void)
{
	if (!g_tmp[0]) {
		print_message("SKIP: java, javac, jstat and jcmd are needed on PATH\n");
		skip();
	}
}

/* start HsperfTarget with one JVM option (and an environment entry, or NULL),
 * as user when not NULL (through setpriv); wait for READY */
static void start_jvm_as(const char *user, const char *opt, const char *env)
{
	char out[128], line[64] = "";
	snprintf(out, sizeof out, "%s/stdout.txt", g_tmp);
	unlink(out);
	g_jvm = fork();
	assert_true(g_jvm >= 0);
	if (g_jvm == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(3);
		dup2(fd, 1);
		dup2(fd, 2);
		if (env)
			putenv((char *)env);
		else
			unsetenv("JAVA_TOOL_OPTIONS");
		if (user) {
			char reuid[64];
			snprintf(reuid, sizeof reuid, "--reuid=%s", user);
			execlp("setpriv", "setpriv", reuid, "--regid=65534", "--clear-groups", "java", opt, "-cp", g_tmp,
			       "HsperfTarget", "120", (char *)NULL);
		} else {
			execlp("java", "java", opt, "-cp", g_tmp, "HsperfTarget", "120", (char *)NULL);
		}
		_exit(4);
	}
	int64_t end = util_mono_ms() + 30000;
	while (util_mono_ms() < end) {
		FILE *f = fopen(out, "r");
		bool ready = false;
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "READY", 5) == 0)
				ready = true;
		if (f)
			fclose(f);
		if (ready)
			return;
		sleep_ms(50);
	}
	fail_msg("the JVM (%s) did not print READY in 30 s", opt);
}

static void start_jvm(const char *opt, const char *env)
{
	start_jvm_as(NULL, opt, env);
}

static int64_t gc_count(const struct hsperf_sample *s)
{
	int64_t n = 0;
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++)
		if (s->coll[c].present)
			n += s->coll[c].invocations;
	return n;
}

/* ------------------------------------------------------------ jstat -gc --- */

#define JSTAT_MAX 24
struct jstat {
	int n;
	char name[JSTAT_MAX][8];
	double v[JSTAT_MAX];
	bool dash[JSTAT_MAX];
};

static bool run_jstat(int pid, struct jstat *j)
{
	char cmd[64], head[512], vals[512];
	snprintf(cmd, sizeof cmd, "jstat -gc %d 2>&1", pid);
	FILE *p = popen(cmd, "r");
	bool ok = p && fgets(head, sizeof head, p) && fgets(vals, sizeof vals, p);
	if (p)
		pclose(p);
	if (!ok)
		return false;
	memset(j, 0, sizeof *j);
	char *s1, *s2, *h = strtok_r(head, " \n", &s1), *v = strtok_r(vals, " \n", &s2);
	while (h && v && j->n < JSTAT_MAX) {
		snprintf(j->name[j->n], sizeof j->name[j->n], "%s", h);
		j->dash[j->n] = strcmp(v, "-") == 0;
		j->v[j->n] = j->dash[j->n] ? 0 : atof(v);
		j->n++;
		h = strtok_r(NULL, " \n", &s1);
		v = strtok_r(NULL, " \n", &s2);
	}
	return j->n >= 17;
}

/* our value of jstat's column, in jstat's unit (KB, count or s); false: we have none */
static bool column(const struct hsperf_sample *s, const char *col, double *out)
{
	const struct hsperf_gen *y = &s->gen[0], *o = &s->gen[1];
	const struct hsperf_collector *c = s->coll;
	double f = s->hrt_frequency > 0 ? (double)s->hrt_frequency : 1e9;
#define KB(present, x) return (present) && (x) >= 0 ? (*out = (double)(x) / 1024.0, true) : false
	if (!strcmp(col, "S0C")) KB(y->space[1].present, y->space[1].capacity);
	if (!strcmp(col, "S1C")) KB(y->space[2].present, y->space[2].capacity);
	if (!strcmp(col, "S0U")) KB(y->space[1].present, y->space[1].used);
	if (!strcmp(col, "S1U")) KB(y->space[2].present, y->space[2].used);
	if (!strcmp(col, "EC")) KB(y->space[0].present, y->space[0].capacity);
	if (!strcmp(col, "EU")) KB(y->space[0].present, y->space[0].used);
	if (!strcmp(col, "OC")) KB(o->space[0].present, o->space[0].capacity);
	if (!strcmp(col, "OU")) KB(o->space[0].present, o->space[0].used);
	if (!strcmp(col, "MC")) KB(true, s->meta_capacity);
	if (!strcmp(col, "MU")) KB(true, s->meta_used);
	if (!strcmp(col, "CCSC")) KB(true, s->ccs_capacity);
	if (!strcmp(col, "CCSU")) KB(true, s->ccs_used);
#undef KB
#define CNT(i, x) return c[i].present ? (*out = (double)(x), true) : false
	if (!strcmp(col, "YGC")) CNT(0, c[0].invocations);
	if (!strcmp(col, "FGC")) CNT(1, c[1].invocations);
	if (!strcmp(col, "CGC")) CNT(2, c[2].invocations);
	if (!strcmp(col, "YGCT")) CNT(0, (double)c[0].time / f);
	if (!strcmp(col, "FGCT")) CNT(1, (double)c[1].time / f);
	if (!strcmp(col, "CGCT")) CNT(2, (double)c[2].time / f);
#undef CNT
	return false; /* GCT: a sum jstat makes */
}

/* Is every column of j between a and b? *gc_between: a GC happened between the
 * two reads (then a mismatch is not conclusive). Prints the comparison. */
static bool matches(const struct hsperf_sample *a, const struct hsperf_sample *b, const struct jstat *j,
		    char *report, size_t len)
{
	size_t o = 0;
	bool all = true;
	report[0] = '\0';
	for (int i = 0; i < j->n; i++) {
		double x, y;
		bool has = column(a, j->name[i], &x) && column(b, j->name[i], &y);
		if (!strcmp(j->name[i], "GCT"))
			continue;
		if (j->dash[i] || !has) {
			/* jstat prints "-" exactly where we have no counter */
			if (j->dash[i] != !has) {
				all = false;
				o += (size_t)snprintf(report + o, o < len ? len - o : 0, " %s:jstat=%s,ours=%s", j->name[i],
						      j->dash[i] ? "-" : "value", has ? "value" : "none");
			}
			continue;
		}
		double lo = x < y ? x : y, hi = x < y ? y : x;
		/* jstat rounds KB to 0.1 and seconds to 0.001 */
		double tol = strstr(j->name[i], "GCT") ? 0.0006 : 0.051;
		bool ok = j->v[i] >= lo - tol && j->v[i] <= hi + tol;
		all = all && ok;
		if (o < len)
			o += (size_t)snprintf(report + o, len - o, " %s=%g%s", j->name[i], j->v[i],
					      ok ? "" : lo == hi ? "(ours %g!)" : "(ours %g..!)");
		if (!ok && o < len)
			o += (size_t)snprintf(report + o, len - o, "%g", lo);
	}
	return all;
}

static void compare_jstat(struct hsperf *h, int pid, const char *gc)
{
	struct hsperf_sample a, b;
	struct jstat j;
	char report[2048];
	for (int attempt = 0; attempt < 30; attempt++) {
		assert_int_equal(hsperf_sample(h, &a), 0);
		assert_true(run_jstat(pid, &j));
		assert_int_equal(hsperf_sample(h, &b), 0);
		bool ok = matches(&a, &b, &j, report, sizeof report);
		if (gc_count(&a) != gc_count(&b)) {
			sleep_ms(100);
			continue; /* a GC between the reads: take the three again */
		}
		if (!ok)
			fail_msg("%s: jstat -gc differs from our reads (no GC between them):%s", gc, report);
		print_message("%s vs jstat -gc (attempt %d):%s\n", gc, attempt + 1, report);
		return;
	}
	fail_msg("%s: a GC fell between every one of 30 reads", gc);
}

/* --------------------------------------------- jcmd PerfCounter.print --- */

static void compare_jcmd(struct hsperf *h, int pid, const char *gc)
{
	static const char *const names[] = {"sun.rt.safepoints", "sun.rt.safepointTime", "sun.rt.safepointSyncTime"};
	struct hsperf_sample a, b;
	char cmd[64], line[512];
	int64_t got[3] = {-1, -1, -1}, vm_begin = -1;
	assert_int_equal(hsperf_sample(h, &a), 0);
	snprintf(cmd, sizeof cmd, "jcmd %d PerfCounter.print 2>&1", pid);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p)) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (int i = 0; i < 3; i++)
			if (!strcmp(line, names[i]))
				got[i] = atoll(eq + 1);
		if (!strcmp(line, "sun.rt.createVmBeginTime"))
			vm_begin = atoll(eq + 1);
	}
	pclose(p);
	assert_int_equal(hsperf_sample(h, &b), 0);
	const int64_t lo[3] = {a.safepoints, a.safepoint_time, a.safepoint_sync};
	const int64_t hi[3] = {b.safepoints, b.safepoint_time, b.safepoint_sync};
	for (int i = 0; i < 3; i++) {
		if (got[i] < lo[i] || got[i] > hi[i])
			fail_msg("%s: jcmd %s=%lld, ours %lld..%lld", gc, names[i], (long long)got[i], (long long)lo[i],
				 (long long)hi[i]);
		print_message("%s vs jcmd: %s=%lld (ours %lld..%lld)\n", gc, names[i], (long long)got[i],
			      (long long)lo[i], (long long)hi[i]);
	}
	assert_int_equal(vm_begin, b.create_vm_begin_ms);
}

/* ------------------------------------------------------------- deltas --- */

/* 100 ms polls for ~4 s: the intervals add up to the whole, and a GC alone in
 * its interval has its own duration, close to the collector's time for it */
static void check_deltas(struct hsperf *h, const char *gc)
{
	struct hsperf_sample first, prev, cur;
	struct hsperf_delta d, whole;
	int64_t stop = 0, ttsp = 0, sp = 0, gcs[HSPERF_MAX_COLLECTORS] = {0};
	int singles = 0;
	assert_int_equal(hsperf_sample(h, &first), 0);
	prev = first;
	for (int i = 0; i < 40; i++) {
		sleep_ms(100);
		assert_int_equal(hsperf_sample(h, &cur), 0);
		hsperf_delta(&prev, &cur, &d);
		assert_false(d.restarted);
		assert_true(d.interval_ns >= 90000000);
		assert_true(d.stop_ns >= d.ttsp_ns && d.ttsp_ns >= 0);
		stop += d.stop_ns;
		ttsp += d.ttsp_ns;
		sp += d.safepoints;
		for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++) {
			if (!cur.coll[c].present)
				continue;
			gcs[c] += d.coll[c].gcs;
			if (d.coll[c].one_gc_ns >= 0) {
				int64_t diff = d.coll[c].one_gc_ns - d.coll[c].time_ns;
				singles++;
				/* entry/exit ticks and the collector's own timer measure the same GC */
				if (diff < -2000000 || diff > 2000000)
					fail_msg("%s collector.%d: one GC of %lld ns by entry/exit, %lld ns by its time",
						 gc, c, (long long)d.coll[c].one_gc_ns, (long long)d.coll[c].time_ns);
			}
		}
		prev = cur;
	}
	hsperf_delta(&first, &cur, &whole);
	assert_int_equal(sp, whole.safepoints);
	assert_int_equal(stop, whole.stop_ns);
	assert_int_equal(ttsp, whole.ttsp_ns);
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++)
		if (cur.coll[c].present)
			assert_int_equal(gcs[c], whole.coll[c].gcs);
	print_message("%s deltas over %.1f s: %lld safepoints, stopped %.3f ms, TTSP %.3f ms, %d GCs timed alone\n",
		      gc, whole.interval_ns / 1e9, (long long)sp, stop / 1e6, ttsp / 1e6, singles);
}

/* ------------------------------------------- truncated, corrupted copies --- */

static void check_copies(const struct hsperf *live)
{
	size_t size = live->size;
	uint8_t *buf = malloc(size), *bad = malloc(size);
	struct hsperf h;
	struct hsperf_sample s;
	uint32_t prev = 0;
	assert_non_null(buf);
	assert_non_null(bad);
	memcpy(buf, live->base, size);
	for (size_t len = 0; len <= size; len += len < 512 ? 1 : 61) {
		int r = hsperf_open_mem(&h, buf, len);
		if (len < HSPERF_PROLOGUE_SIZE)
			assert_int_equal(r, -EBADMSG);
		else if (r == 0) {
			assert_int_equal(hsperf_sample(&h, &s), 0);
			assert_true(h.nents >= prev); /* a longer prefix never knows fewer counters */
			prev = h.nents;
		}
		hsperf_close(&h);
	}
	assert_int_equal(hsperf_open_mem(&h, buf, size), 0);
	uint32_t full = h.nents;
	hsperf_close(&h);
	/* a truncated file on disk */
	char path[128];
	snprintf(path, sizeof path, "%s/truncated.hsperf", g_tmp);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, size / 3), (ssize_t)(size / 3));
	close(fd);
	assert_int_equal(hsperf_open(&h, path), 0);
	assert_true(h.nents > 0 && h.nents < full);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	print_message("truncated copy (%zu of %zu bytes): %u of %u counters indexed\n", size / 3, size, h.nents, full);
	hsperf_close(&h);
	/* bytes flipped anywhere, most often in the headers at the front */
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 3000; i++) {
		memcpy(bad, buf, size);
		for (int k = 0; k < 1 + i % 8; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t at = (size_t)(x >> 8) % (i % 2 ? size : 4096);
			bad[at] = (uint8_t)(x >> 56);
		}
		if (hsperf_open_mem(&h, bad, size) == 0 && hsperf_sample(&h, &s) == 0) {
			assert_true(strlen(s.cause) < sizeof s.cause && strlen(s.policy) < sizeof s.policy);
			for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++)
				assert_true(strlen(s.coll[c].name) < sizeof s.coll[c].name);
		}
		hsperf_close(&h);
	}
	free(buf);
	free(bad);
}

/* ------------------------------------------------------- per collector --- */

static void check_collector(const char *opt, const char *gc, const char *policy, bool copies)
{
	char path[1024], why[1280];
	struct hsperf h;
	struct hsperf_sample s;
	int r = -1;
	need_jdk();
	start_jvm(opt, NULL);
	if (hsperf_find_file("", (int)g_jvm, path, sizeof path, why, sizeof why) < 0)
		fail_msg("%s: %s", gc, why);
	int64_t end = util_mono_ms() + 10000;
	while (util_mono_ms() < end && (r = hsperf_open(&h, path)) == -EAGAIN) {
		hsperf_close(&h);
		sleep_ms(50);
	}
	if (r < 0)
		fail_msg("%s: %s", gc, h.why);
	/* wait for GCs to compare */
	end = util_mono_ms() + 30000;
	do {
		assert_int_equal(hsperf_sample(&h, &s), 0);
		sleep_ms(100);
	} while (gc_count(&s) < 3 && util_mono_ms() < end);
	assert_true(gc_count(&s) >= 3);
	assert_string_equal(s.policy, policy);
	assert_true(s.heap_used > 0 && s.heap_committed >= s.heap_used && s.heap_max >= s.heap_committed);
	assert_true(s.threads_live > 1 && s.hrt_frequency > 0 && s.create_vm_begin_ms > 1600000000000LL);
	print_message("%s: %s, %u counters, heap %lld/%lld KB (max %lld KB), %d collectors, policy \"%s\"\n", gc,
		      path, h.nents, (long long)s.heap_used / 1024, (long long)s.heap_committed / 1024,
		      (long long)s.heap_max / 1024, (int)(s.coll[0].present + s.coll[1].present + s.coll[2].present),
		      s.policy);
	compare_jstat(&h, (int)g_jvm, gc);
	compare_jcmd(&h, (int)g_jvm, gc);
	check_deltas(&h, gc);
	if (copies)
		check_copies(&h);
	hsperf_close(&h);
	/* once the JVM is gone, its file is removed and the mapping says so */
	assert_int_equal(hsperf_open(&h, path), 0);
	kill(g_jvm, SIGTERM);
	waitpid(g_jvm, NULL, 0);
	g_jvm = -1;
	assert_int_equal(hsperf_sample(&h, &s), -ESRCH);
	print_message("%s after exit: %s\n", gc, h.why);
	hsperf_close(&h);
}

static void test_g1(void **state)
{
	(void)state;
	check_collector("-XX:+UseG1GC", "G1", "GarbageFirst", true);
}

static void test_parallel(void **state)
{
	(void)state;
	check_collector("-XX:+UseParallelGC", "Parallel", "ParScav:MSC", false);
}

static void test_serial(void **state)
{
	(void)state;
	check_collector("-XX:+UseSerialGC", "Serial", "Copy:MSC", false);
}

static void test_zgc(void **state)
{
	(void)state;
	check_collector("-XX:+UseZGC", "ZGC", "", false); /* JDK 17's ZGC has no sun.gc.policy.name */
}

/* ------------------------------------------------ no file: the reasons --- */

static void test_no_perfdata(void **state)
{
	(void)state;
	char path[1024], why[1280];
	need_jdk();
	start_jvm("-XX:-UsePerfData", NULL);
	assert_int_equal(hsperf_find_file("", (int)g_jvm, path, sizeof path, why, sizeof why), -ENOENT);
	print_message("-XX:-UsePerfData: %s\n", why);
	assert_non_null(strstr(why, "runs with -XX:-UsePerfData (from the command line)"));
	kill_jvm();

	start_jvm("-XX:+UseSerialGC", "JAVA_TOOL_OPTIONS=-XX:+PerfDisableSharedMem");
	assert_int_equal(hsperf_find_file("", (int)g_jvm, path, sizeof path, why, sizeof why), -ENOENT);
	print_message("JAVA_TOOL_OPTIONS=-XX:+PerfDisableSharedMem: %s\n", why);
	assert_non_null(strstr(why, "-XX:+PerfDisableSharedMem (from JAVA_TOOL_OPTIONS)"));
	kill_jvm();

	assert_int_equal(hsperf_find_file("", 0x3ffffff0, path, sizeof path, why, sizeof why), -ESRCH);
	assert_non_null(strstr(why, "no process"));
}

/* ------------------------------------------- a JVM in other namespaces --- */

/* the pid (in our namespace) of the first child of pid, -1 when none */
static int child_of(int pid)
{
	char path[64], b[256];
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", pid, pid);
	FILE *f = fopen(path, "r");
	int c = -1;
	if (f && fgets(b, sizeof b, f))
		c = atoi(b);
	if (f)
		fclose(f);
	return c;
}

/* A JVM as in a container: its own pid namespace (it is pid 1 there) and mount
 * namespace with a private /tmp, so its file is only reachable as
 * /proc/PID/root/tmp/hsperfdata_root/1. Needs unshare(1) and CAP_SYS_ADMIN. */
static void test_other_namespace(void **state)
{
	(void)state;
	char out[128], script[512], path[1024], why[1280], line[64] = "";
	struct hsperf h;
	struct hsperf_sample s;
	need_jdk();
	if (!have("unshare") || system("unshare --pid --mount --fork true >/dev/null 2>&1") != 0) {
		print_message("SKIP: unshare --pid --mount is not permitted here\n");
		skip();
	}
	snprintf(out, sizeof out, "%s/stdout.txt", g_tmp);
	unlink(out);
	/* the working directory keeps the classes reachable under the new /tmp (through
	 * /proc/self/cwd: "." would be resolved again by name, in the new /tmp) */
	snprintf(script, sizeof script,
		 "cd '%s' && mount -t tmpfs tmpfs /tmp && exec java -XX:+UseSerialGC -cp /proc/self/cwd HsperfTarget 120",
		 g_tmp);
	g_jvm = fork();
	assert_true(g_jvm >= 0);
	if (g_jvm == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(3);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("unshare", "unshare", "--pid", "--mount", "--fork", "--kill-child", "sh", "-c", script, (char *)NULL);
		_exit(4);
	}
	int64_t end = util_mono_ms() + 30000;
	bool ready = false;
	while (!ready && util_mono_ms() < end) {
		FILE *f = fopen(out, "r");
		while (f && fgets(line, sizeof line, f))
			ready = ready || strncmp(line, "READY", 5) == 0;
		if (f)
			fclose(f);
		sleep_ms(50);
	}
	assert_true(ready);
	assert_string_equal(line, "READY 1\n"); /* pid 1 in its namespace */
	int jvm = child_of((int)g_jvm);
	assert_true(jvm > 1);
	snprintf(path, sizeof path, "/tmp/hsperfdata_root/%d", jvm);
	assert_int_not_equal(access(path, F_OK), 0); /* not in our /tmp */
	if (hsperf_find_file("", jvm, path, sizeof path, why, sizeof why) < 0)
		fail_msg("%s", why);
	char want[128];
	snprintf(want, sizeof want, "/proc/%d/root/tmp/hsperfdata_root/1", jvm);
	assert_string_equal(path, want);
	end = util_mono_ms() + 10000;
	int r;
	while ((r = hsperf_open(&h, path)) == -EAGAIN && util_mono_ms() < end) {
		hsperf_close(&h);
		sleep_ms(50);
	}
	if (r < 0)
		fail_msg("%s", h.why);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	assert_string_equal(s.policy, "Copy:MSC");
	assert_true(s.heap_committed > 0 && s.threads_live > 1);
	print_message("JVM %d (pid 1 in its namespaces): %s, heap %lld/%lld KB, %lld young GCs\n", jvm, path,
		      (long long)s.heap_used / 1024, (long long)s.heap_committed / 1024, (long long)s.coll[0].invocations);
	hsperf_close(&h);
	/* unshare reaps the JVM and exits with it */
	kill(jvm, SIGKILL);
	waitpid(g_jvm, NULL, 0);
	g_jvm = -1;
}

/* ------------------------------------------------- a JVM of another user --- */

/* A JVM running as nobody: found in /tmp/hsperfdata_nobody and read by root;
 * a third user (daemon) is told that only the JVM's user and root may read it. */
static void test_other_user(void **state)
{
	(void)state;
	char path[1024], why[1280], want[128];
	struct hsperf h;
	struct hsperf_sample s;
	need_jdk();
	if (geteuid() != 0 || !have("setpriv") || system("id nobody >/dev/null 2>&1 && id daemon >/dev/null 2>&1") != 0) {
		print_message("SKIP: needs root, setpriv and the users nobody and daemon\n");
		skip();
	}
	assert_int_equal(chmod(g_tmp, 0755), 0); /* nobody reads the classes */
	start_jvm_as("nobody", "-XX:+UseSerialGC", NULL);
	if (hsperf_find_file("", (int)g_jvm, path, sizeof path, why, sizeof why) < 0)
		fail_msg("%s", why);
	snprintf(want, sizeof want, "/proc/%d/root/tmp/hsperfdata_nobody/%d", (int)g_jvm, (int)g_jvm);
	assert_string_equal(path, want);
	int64_t end = util_mono_ms() + 10000;
	int r;
	while ((r = hsperf_open(&h, path)) == -EAGAIN && util_mono_ms() < end) {
		hsperf_close(&h);
		sleep_ms(50);
	}
	if (r < 0)
		fail_msg("%s", h.why);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	assert_string_equal(s.policy, "Copy:MSC");
	hsperf_close(&h);
	print_message("JVM %d of nobody, read by root: %s\n", (int)g_jvm, path);

	/* the same from user daemon (uid 1): the answer goes back through a pipe */
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(fds[0]);
		if (setgid(1) < 0 || setuid(1) < 0)
			_exit(3);
		int e = hsperf_find_file("", (int)g_jvm, path, sizeof path, why, sizeof why);
		if (e == 0)
			e = hsperf_open(&h, path);
		const char *msg = e == 0 ? "opened" : e == -EACCES ? (h.why[0] ? h.why : why) : "other";
		if (write(fds[1], msg, strlen(msg)) < 0)
			_exit(5);
		_exit(0);
	}
	close(fds[1]);
	char got[1400] = "";
	ssize_t n = read(fds[0], got, sizeof got - 1);
	close(fds[0]);
	waitpid(c, NULL, 0);
	got[n > 0 ? n : 0] = '\0';
	print_message("as daemon: %s\n", got);
	assert_non_null(strstr(got, "Permission denied"));
	assert_non_null(strstr(got, "the JVM's user, and root only"));
	kill_jvm();
}

static int stop_jvm(void **state)
{
	(void)state;
	kill_jvm();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_g1, stop_jvm),
		cmocka_unit_test_teardown(test_parallel, stop_jvm),
		cmocka_unit_test_teardown(test_serial, stop_jvm),
		cmocka_unit_test_teardown(test_zgc, stop_jvm),
		cmocka_unit_test_teardown(test_no_perfdata, stop_jvm),
		cmocka_unit_test_teardown(test_other_namespace, stop_jvm),
		cmocka_unit_test_teardown(test_other_user, stop_jvm),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
