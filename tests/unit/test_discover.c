/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_discover.c — JVM discovery on the fixture tree captured from a real JVM
 * (tests/fixtures/discover/jvm-real, see its README), then on variants made from
 * it in a temp copy (synthetic command lines: JDK 8 rotation, several JVMs, an
 * embedded JVM, -Xlog selection rules, @argfiles, _JAVA_OPTIONS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/discover.h"
#include "stwtop/event.h"
#include "stwtop/util.h"
#include "testutil_probe.h"

#define FIX STWTOP_TEST_DIR "/fixtures/discover/jvm-real"

static char g_tmp[64];
static int g_jvm, g_other;

static long long read_num(const char *root, const char *name)
{
	char p[512], b[64] = "";
	snprintf(p, sizeof p, "%s/%s", root, name);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(b, sizeof b, f));
	fclose(f);
	return atoll(b);
}

static int setup(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(g_tmp, sizeof g_tmp, "/tmp/stwtop-disc-XXXXXX");
	if (!mkdtemp(g_tmp))
		return -1;
	snprintf(cmd, sizeof cmd, "cp -a '%s/.' '%s/'", FIX, g_tmp);
	if (system(cmd) != 0)
		return -1;
	g_jvm = (int)read_num(g_tmp, "JVM_PID");
	g_other = (int)read_num(g_tmp, "OTHER_PID");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *rel, const char *data, size_t n)
{
	char p[1024];
	snprintf(p, sizeof p, "%s%s", g_tmp, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* write /proc/PID/cmdline (NUL-separated) and environ from NULL-terminated lists */
static void put_list(int pid, const char *file, const char *const *items)
{
	char b[8192], rel[64];
	size_t o = 0;
	for (int i = 0; items[i]; i++) {
		size_t l = strlen(items[i]) + 1;
		assert_true(o + l < sizeof b);
		memcpy(b + o, items[i], l);
		o += l;
	}
	snprintf(rel, sizeof rel, "/proc/%d/%s", pid, file);
	put(rel, b, o);
}

static const struct jvm_log *log_named(const struct jvm_proc *j, const char *suffix)
{
	for (int i = 0; i < j->nlogs; i++) {
		size_t a = strlen(j->logs[i].path), b = strlen(suffix);
		if (a >= b && strcmp(j->logs[i].path + a - b, suffix) == 0)
			return &j->logs[i];
	}
	return NULL;
}

/* ------------------------------------------------------------ real JVM --- */

static void test_real_pids_and_pick(void **state)
{
	(void)state;
	int pids[8], pid = 0;
	char msg[1024];
	assert_int_equal(discover_java_pids(g_tmp, pids, 8), 1); /* the sleep is not a JVM */
	assert_int_equal(pids[0], g_jvm);
	assert_int_equal(discover_pick(g_tmp, 0, &pid, msg, sizeof msg), 0);
	assert_int_equal(pid, g_jvm);
	assert_string_equal(msg, "");
	/* --pid of something else: accepted with a warning */
	assert_int_equal(discover_pick(g_tmp, g_other, &pid, msg, sizeof msg), 0);
	assert_int_equal(pid, g_other);
	print_message("%s\n", msg);
	char want[256];
	snprintf(want, sizeof want, "process %d is not a JVM (executable /usr/bin/sleep, no libjvm.so mapped)",
		 g_other); /* the capture has no comm files */
	assert_non_null(strstr(msg, want));
	snprintf(want, sizeof want, "Java processes here: %d (stwtop --pid %d)", g_jvm, g_jvm);
	assert_non_null(strstr(msg, want));
	assert_null(strchr(msg, '\n')); /* one line */
	struct jvm_proc j;
	char err[256], adv[1024];
	assert_int_equal(discover_inspect(g_tmp, g_other, &j, err, sizeof err), 0);
	assert_false(j.is_jvm);
	/* no -Xlog or jcmd advice for it: one item saying what it is */
	assert_int_equal(discover_advice(&j, adv, sizeof adv), 1);
	assert_null(strstr(adv, "VM.log")); /* no "jcmd PID VM.log ..." */
	assert_null(strstr(adv, "-Xlog"));
	assert_non_null(strstr(adv, "is not a JVM"));
	discover_fini(&j);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_true(j.is_jvm);
	discover_fini(&j);
	assert_int_equal(discover_pick(g_tmp, 999999, &pid, msg, sizeof msg), -ESRCH);
	assert_non_null(strstr(msg, "no process 999999"));
}

static void test_real_inspect(void **state)
{
	(void)state;
	struct jvm_proc j;
	char err[256], want[2100];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_string_equal(j.user, "root");
	assert_string_equal(j.exe, "/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
	assert_string_equal(j.java_version, "17.0.15");
	assert_int_equal(j.java_feature, 17);
	assert_string_equal(j.cwd, "/srv/catalog");
	assert_string_equal(j.main, "ProbeTarget");
	assert_true(j.environ_read);
	assert_false(j.other_mntns);
	/* the order the JVM applies them: JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, command line */
	assert_true(j.nopts >= 10);
	assert_string_equal(j.opts[0].arg, "-XX:+SafepointTimeout");
	assert_int_equal(j.opts[0].origin, DORIGIN_JAVA_TOOL_OPTIONS);
	assert_int_equal(j.opts[2].origin, DORIGIN_JDK_JAVA_OPTIONS);
	assert_string_equal(j.opts[3].arg, "-Xms32m");
	assert_int_equal(j.opts[3].origin, DORIGIN_CMDLINE);
	assert_int_equal(j.xms, 32 << 20);
	assert_int_equal(j.xmx, 64 << 20);
	assert_int_equal(j.periodic_gc_ms, 5000);
	assert_int_equal(j.collector, GC_G1);
	assert_int_equal(j.safepoint_timeout, 1);
	assert_int_equal(j.safepoint_timeout_delay_ms, 1000);

	/* -Xlog:gc*,safepoint,gc+periodic=debug:file=gc-%p-%t.log:time,uptime,level,tags:filecount=3,filesize=5m */
	const struct jvm_log *gc = discover_gc_log(&j);
	assert_non_null(gc);
	snprintf(want, sizeof want, "/srv/catalog/gc-%d-2026-11-29_19-58-51.log", g_jvm);
	assert_string_equal(gc->path, want);
	snprintf(want, sizeof want, "%s/srv/catalog/gc-%d-2026-11-29_19-58-51.log", g_tmp, g_jvm);
	assert_string_equal(gc->open_path, want);
	assert_true(gc->exists);
	assert_int_equal(gc->tags, DLOG_GC | DLOG_SAFEPOINT | DLOG_PERIODIC | DLOG_GC_INIT);
	assert_int_equal(gc->decorations, DDECO_TIME | DDECO_UPTIME | DDECO_LEVEL | DDECO_TAGS);
	assert_int_equal(gc->filecount, 3);
	assert_int_equal(gc->filesize, 5 << 20);
	assert_false(gc->jdk8);
	assert_string_equal(gc->what, "gc*,safepoint,gc+periodic=debug");
	/* JDK_JAVA_OPTIONS -Xlog:safepoint=info:file=logs/safepoint.log::filecount=0 */
	const struct jvm_log *sp = log_named(&j, "/srv/catalog/logs/safepoint.log");
	assert_non_null(sp);
	assert_int_equal(sp->tags, DLOG_SAFEPOINT);
	assert_int_equal(sp->filecount, 0);
	assert_int_equal(sp->origin, DORIGIN_JDK_JAVA_OPTIONS);
	assert_int_equal(sp->decorations, DDECO_UPTIME | DDECO_LEVEL | DDECO_TAGS); /* empty = default */
	assert_true(sp->exists);
	/* -Xlog:gc+heap=debug:stdout: a stream, no GC summary lines (exact tag set gc+heap) */
	int streams = 0;
	for (int i = 0; i < j.nlogs; i++)
		if (j.logs[i].stream == 1) {
			streams++;
			assert_int_equal(j.logs[i].tags, 0);
		}
	assert_int_equal(streams, 1);
	assert_int_equal(j.nlogs, 3);
	/* -XX:ErrorFile=/tmp/hs_err_%p.log */
	snprintf(want, sizeof want, "/tmp/hs_err_%d.log", g_jvm);
	assert_string_equal(j.error_file, want);
	assert_true(j.error_file_set);
	snprintf(want, sizeof want, "/tmp/hs_err_pid%d.log", g_jvm);
	assert_string_equal(j.error_fallback, want);
	/* every place HotSpot may write it, in its order, as we open them (fixture root) */
	assert_int_equal(j.ncrash, 3);
	snprintf(want, sizeof want, "/tmp/hs_err_%d.log", g_jvm);
	assert_string_equal(j.crash[0].path, want);
	assert_string_equal(j.crash[0].why, "-XX:ErrorFile");
	snprintf(want, sizeof want, "%s/tmp/hs_err_%d.log", g_tmp, g_jvm);
	assert_string_equal(j.crash[0].open_path, want);
	snprintf(want, sizeof want, "%s/hs_err_pid%d.log", j.cwd, g_jvm);
	assert_string_equal(j.crash[1].path, want);
	assert_string_equal(j.crash[1].why, "working directory");
	snprintf(want, sizeof want, "/tmp/hs_err_pid%d.log", g_jvm);
	assert_string_equal(j.crash[2].path, want);
	assert_string_equal(j.crash[2].why, "/tmp fallback");
	char adv[2048];
	assert_int_equal(discover_advice(&j, adv, sizeof adv), 0); /* nothing is missing */
	assert_string_equal(adv, "");
	discover_fini(&j);
	assert_int_equal(discover_inspect(g_tmp, 999999, &j, err, sizeof err), -ESRCH);
	assert_non_null(strstr(err, "no such process"));
}

/* start time: now - /proc/uptime + starttime/CLK_TCK, against the JVM's own log
 * (first line time - uptime), with the wall clock of the capture */
static void test_real_start_time(void **state)
{
	(void)state;
	int64_t now = read_num(g_tmp, "NOW_MS"), start;
	assert_int_equal(discover_start_ms(g_tmp, g_jvm, now, &start), 0);
	char p[600], line[256];
	snprintf(p, sizeof p, "cat %s/srv/catalog/gc-%d-*.log | head -1", g_tmp, g_jvm);
	FILE *f = popen(p, "r");
	assert_non_null(fgets(line, sizeof line, f));
	pclose(f);
	/* [2026-11-29T19:58:51.441+0000][0.004s][info][gc] Using G1 */
	int64_t t;
	double up;
	assert_int_equal(util_parse_iso8601(line + 1, strlen(line) - 1, &t, NULL), 28);
	assert_true(util_parse_double(line + 31, strlen(line) - 31, false, &up) > 0);
	int64_t jvm_start = t - (int64_t)(up * 1000 + 0.5);
	print_message("start from /proc: %lld, from the log: %lld (diff %lld ms)\n", (long long)start,
		      (long long)jvm_start, (long long)(jvm_start - start));
	assert_true(llabs((long long)(jvm_start - start)) <= 100);
}

/* ------------------------------------------------------------- variants --- */

static void test_several_jvms(void **state)
{
	(void)state;
	int pid = 0, pids[8];
	char msg[2048];
	/* the same JVM also as pid 4242 and 1: a container's pid 1 wins */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "cp -a %s/proc/%d %s/proc/4242 && cp -a %s/proc/%d %s/proc/1", g_tmp, g_jvm, g_tmp,
		 g_tmp, g_jvm, g_tmp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(discover_java_pids(g_tmp, pids, 8), 3);
	assert_int_equal(pids[0], 1);
	assert_int_equal(discover_pick(g_tmp, 0, &pid, msg, sizeof msg), 0);
	assert_int_equal(pid, 1);
	/* without pid 1: the user has to choose, from a readable list */
	snprintf(cmd, sizeof cmd, "rm -rf %s/proc/1", g_tmp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(discover_pick(g_tmp, 0, &pid, msg, sizeof msg), -EEXIST);
	print_message("%s", msg);
	assert_non_null(strstr(msg, "2 Java processes are running; choose one with --pid PID"));
	assert_non_null(strstr(msg, "PID"));
	assert_non_null(strstr(msg, "USER"));
	assert_non_null(strstr(msg, "UPTIME"));
	assert_non_null(strstr(msg, "MAIN"));
	/* the fixture's /proc/uptime is later than the process start: an uptime, not "?" */
	struct discover_candidate c[4];
	assert_int_equal(discover_candidates(g_tmp, c, 4), 2);
	assert_int_equal(c[0].pid, g_jvm < 4242 ? g_jvm : 4242);
	assert_int_equal(c[1].pid, g_jvm < 4242 ? 4242 : g_jvm);
	for (int i = 0; i < 2; i++) {
		assert_string_equal(c[i].user, "root");
		assert_string_equal(c[i].main, "ProbeTarget");
		assert_true(c[i].start_ms > 0);
	}
	/* the uptime column may tick between the message and here: the rest of the rows */
	assert_non_null(strstr(msg, "  4242    root       "));
	snprintf(cmd, sizeof cmd, "  %-7d root       ", g_jvm);
	assert_non_null(strstr(msg, cmd));
	assert_non_null(strstr(msg, " ProbeTarget\n"));
	/* and none at all */
	snprintf(cmd, sizeof cmd, "rm -rf %s/proc/4242 %s/proc/%d", g_tmp, g_tmp, g_jvm);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(discover_pick(g_tmp, 0, &pid, msg, sizeof msg), -ESRCH);
	assert_non_null(strstr(msg, "no Java process found"));
}

static void test_fmt_uptime(void **state)
{
	(void)state;
	char b[16];
	int64_t t = 1800000000000;
	assert_string_equal(discover_fmt_uptime(t - 42000, t, b, sizeof b), "42s");
	assert_string_equal(discover_fmt_uptime(t - 320000, t, b, sizeof b), "5m20s");
	assert_string_equal(discover_fmt_uptime(t - (2 * 3600 + 13 * 60) * 1000LL, t, b, sizeof b), "2h13m");
	assert_string_equal(discover_fmt_uptime(t - (3 * 86400 + 4 * 3600) * 1000LL, t, b, sizeof b), "3d04h");
	assert_string_equal(discover_fmt_uptime(-1, t, b, sizeof b), "?");
	assert_string_equal(discover_fmt_uptime(t + 5000, t, b, sizeof b), "?");
}

/* a candidate started with -jar is named by the jar's file name; one whose main
 * class is not found, by its command line */
static void test_candidate_names(void **state)
{
	(void)state;
	struct discover_candidate c[4];
	const char *jar[] = {"java", "-Xmx64m", "-jar", "/opt/app/lib/orders-1.4.jar", "--port", "8080", NULL};
	put_list(g_jvm, "cmdline", jar);
	assert_int_equal(discover_candidates(g_tmp, c, 4), 1);
	assert_string_equal(c[0].main, "-jar orders-1.4.jar");
	const char *none[] = {"java", "-Xmx64m", "-version", NULL};
	put_list(g_jvm, "cmdline", none);
	assert_int_equal(discover_candidates(g_tmp, c, 4), 1);
	assert_string_equal(c[0].main, "java -Xmx64m -version");
	assert_int_equal(discover_candidates(g_tmp, c, 0), 0);
}

/* synthetic: a jpackage-style launcher, not named java, with libjvm.so mapped */
static void test_embedded_jvm(void **state)
{
	(void)state;
	int pids[8];
	char rel[64];
	const char *argv[] = {"/opt/catalog/bin/catalog-svc", "--port", "8080", NULL};
	put_list(g_other, "cmdline", argv);
	snprintf(rel, sizeof rel, "/proc/%d/exe", g_other);
	char p[600];
	snprintf(p, sizeof p, "%s%s", g_tmp, rel);
	unlink(p);
	assert_int_equal(symlink("/opt/catalog/bin/catalog-svc", p), 0);
	assert_int_equal(discover_java_pids(g_tmp, pids, 8), 1); /* not yet: no libjvm.so */
	snprintf(p, sizeof p, "cat %s/proc/%d/maps >> %s/proc/%d/maps", g_tmp, g_jvm, g_tmp, g_other);
	assert_int_equal(system(p), 0);
	assert_int_equal(discover_java_pids(g_tmp, pids, 8), 2);
}

/* -Xlog selections: later ones override, wildcards, levels, short form, disable, quoted paths */
static void test_xlog_rules(void **state)
{
	(void)state;
	const char *argv[] = {
		"java",
		"-Xlog:all=warning,gc=info,safepoint*=debug:file=a.log",       /* gc + safepoint, no periodic */
		"-Xlog:gc*:b.log",                                              /* short form; gc* at info */
		"-Xlog:gc*=debug,gc+periodic=off:file=c.log:utctime,pid",      /* periodic switched off later */
		"-Xlog:gc+periodic=debug:file=b.log",                           /* same output: merged */
		"-Xlog:gc:file=\"/var/log/with:colon.log\"::filecount=2,filesize=1g",
		"-Xlog:safepoint:file=/var/log/sp-%p-%%.log:none",
		"-cp", "-Xlog:gc:file=not-an-option.log",                      /* a -cp value, not an option */
		"Main", "-Xlog:gc:file=app-arg.log",                            /* after the main class: app args */
		NULL};
	const char *env[] = {"PATH=/usr/bin", NULL};
	put_list(g_jvm, "cmdline", argv);
	put_list(g_jvm, "environ", env);
	struct jvm_proc j;
	char err[256], want[256];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_string_equal(j.main, "Main");
	assert_int_equal(j.nlogs, 5);
	const struct jvm_log *a = log_named(&j, "/srv/catalog/a.log"), *b = log_named(&j, "/srv/catalog/b.log"),
			     *c = log_named(&j, "/srv/catalog/c.log"), *q = log_named(&j, "/var/log/with:colon.log");
	snprintf(want, sizeof want, "/var/log/sp-%d-%%%%.log", g_jvm); /* -Xlog leaves %% as written */
	const struct jvm_log *s = log_named(&j, want);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_non_null(q);
	assert_non_null(s);
	assert_int_equal(a->tags, DLOG_GC | DLOG_SAFEPOINT);
	assert_int_equal(b->tags, DLOG_GC | DLOG_GC_INIT | DLOG_PERIODIC);
	assert_string_equal(b->what, "gc*,gc+periodic=debug");
	assert_int_equal(c->tags, DLOG_GC | DLOG_GC_INIT);
	assert_int_equal(c->decorations, DDECO_UTCTIME | DDECO_PID);
	assert_int_equal(q->tags, DLOG_GC);
	assert_int_equal(q->filecount, 2);
	assert_int_equal(q->filesize, 1LL << 30);
	assert_int_equal(s->decorations, 0);
	assert_false(a->exists);
	assert_null(log_named(&j, "not-an-option.log"));
	assert_null(log_named(&j, "app-arg.log"));
	discover_fini(&j);

	/* -Xlog:disable drops what came before it */
	const char *argv2[] = {"java", "-Xlog:gc:file=x.log", "-Xlog:disable", "-Xlog:safepoint:file=y.log", "Main", NULL};
	put_list(g_jvm, "cmdline", argv2);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(j.nlogs, 1);
	assert_non_null(log_named(&j, "/y.log"));
	assert_null(discover_gc_log(&j));
	discover_fini(&j);
}

/* @argfiles (JDK 9+ launcher) and _JAVA_OPTIONS (applied last) */
static void test_argfile_and_env(void **state)
{
	(void)state;
	const char *argv[] = {"java", "-Xmx256m", "@jvm.opts", "-jar", "app.jar", "-Xmx9g", NULL};
	const char *env[] = {"_JAVA_OPTIONS=-Xmx512m -XX:+UseParallelGC", "JAVA_TOOL_OPTIONS=-XX:+UseSerialGC", NULL};
	put_list(g_jvm, "cmdline", argv);
	put_list(g_jvm, "environ", env);
	const char *opts = "# options\n-Xms128m\n\"-Xlog:gc*,safepoint:file=logs/gc.log:time,uptime,level,tags\"\n";
	put("/srv/catalog/jvm.opts", opts, strlen(opts));
	struct jvm_proc j;
	char err[256];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_string_equal(j.main, "-jar app.jar");
	assert_int_equal(j.xms, 128 << 20);
	assert_int_equal(j.xmx, 512 << 20);       /* _JAVA_OPTIONS wins; the app's -Xmx9g is not a JVM option */
	assert_int_equal(j.collector, GC_PARALLEL); /* _JAVA_OPTIONS after JAVA_TOOL_OPTIONS */
	const struct jvm_log *gc = discover_gc_log(&j);
	assert_non_null(gc);
	assert_string_equal(gc->path, "/srv/catalog/logs/gc.log");
	assert_int_equal(gc->origin, DORIGIN_ARGFILE);
	assert_int_equal(gc->tags, DLOG_GC | DLOG_SAFEPOINT | DLOG_GC_INIT);
	discover_fini(&j);
}

/* JDK 8: -Xloggc with rotation (the active file is PATH.N.current), version from the release file */
static void test_jdk8(void **state)
{
	(void)state;
	char p[600];
	snprintf(p, sizeof p, "mkdir -p %s/usr/lib/jvm/java-8-openjdk-amd64/jre/bin %s/var/log/app && touch %s/var/log/app/gc.log.0",
		 g_tmp, g_tmp, g_tmp);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof p, "touch -d '2026-11-29 19:00' %s/var/log/app/gc.log.1.current && "
			      "touch %s/var/log/app/gc.log.2.current",
		 g_tmp, g_tmp);
	assert_int_equal(system(p), 0);
	const char *rel = "JAVA_VERSION=\"1.8.0_392\"\nOS_NAME=\"Linux\"\n";
	put("/usr/lib/jvm/java-8-openjdk-amd64/release", rel, strlen(rel));
	snprintf(p, sizeof p, "%s/proc/%d/exe", g_tmp, g_jvm);
	unlink(p);
	assert_int_equal(symlink("/usr/lib/jvm/java-8-openjdk-amd64/jre/bin/java", p), 0);
	const char *argv[] = {"java", "-Xloggc:/var/log/app/gc.log", "-XX:+UseGCLogFileRotation", "-XX:+PrintGCDetails",
			      "-XX:+UseConcMarkSweepGC", "-Xmx2g", "com.example.Main", NULL};
	const char *env[] = {"JDK_JAVA_OPTIONS=-Xmx1g", NULL}; /* not read by a JDK 8 launcher */
	put_list(g_jvm, "cmdline", argv);
	put_list(g_jvm, "environ", env);
	struct jvm_proc j;
	char err[256], adv[2048];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(j.java_feature, 8);
	assert_string_equal(j.java_version, "1.8.0_392");
	assert_string_equal(j.java_home, "/usr/lib/jvm/java-8-openjdk-amd64");
	assert_int_equal(j.xmx, 2LL << 30);
	assert_int_equal(j.collector, GC_CMS);
	const struct jvm_log *gc = discover_gc_log(&j);
	assert_non_null(gc);
	assert_true(gc->jdk8);
	assert_true(gc->rotation_current);
	assert_string_equal(gc->path, "/var/log/app/gc.log.2.current"); /* the newest .current */
	assert_true(gc->exists);
	assert_int_equal(gc->tags, DLOG_GC); /* no PrintGCApplicationStoppedTime */
	assert_int_equal(discover_advice(&j, adv, sizeof adv), 2);
	print_message("%s", adv);
	assert_non_null(strstr(adv, "has no safepoint lines: add -XX:+PrintGCApplicationStoppedTime"));
	assert_non_null(strstr(adv, "-XX:+SafepointTimeout -XX:SafepointTimeoutDelay=1000"));
	discover_fini(&j);

	/* no log at all on JDK 8: the -Xloggc flag set */
	const char *argv2[] = {"java", "-Xmx2g", "com.example.Main", NULL};
	put_list(g_jvm, "cmdline", argv2);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(discover_advice(&j, adv, sizeof adv), 2);
	assert_non_null(strstr(adv, "- no GC log file: restart the JVM with -Xloggc:/tmp/gc-%p-%t.log -XX:+PrintGCDetails "
				    "-XX:+PrintGCDateStamps -XX:+PrintGCApplicationStoppedTime -XX:+UseGCLogFileRotation"));
	discover_fini(&j);
}

/* advice on JDK 17 without a log, and on JDK 11 (no gc+periodic tag there) */
static void test_advice(void **state)
{
	(void)state;
	const char *argv[] = {"java", "-Xmx1g", "-XX:G1PeriodicGCInterval=10000", "Main", NULL};
	const char *env[] = {"PATH=/usr/bin", NULL};
	put_list(g_jvm, "cmdline", argv);
	put_list(g_jvm, "environ", env);
	struct jvm_proc j;
	char err[256], adv[2048], want[512];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(discover_advice(&j, adv, sizeof adv), 2);
	print_message("%s", adv);
	assert_non_null(strstr(adv, "- no GC log file: restart the JVM with "
				    "-Xlog:gc*,safepoint,gc+periodic=debug:file=/tmp/gc-%p.log:time,uptime,level,tags:"
				    "filecount=5,filesize=20m"));
	snprintf(want, sizeof want, "jcmd %d VM.log output=file=/tmp/gc-%d.log what=gc*,safepoint,gc+periodic=debug "
		 "decorators=time,uptime,level,tags", g_jvm, g_jvm);
	assert_non_null(strstr(adv, want));
	discover_fini(&j);

	/* a GC log without safepoint, periodic checks or wall-clock time */
	const char *argv2[] = {"java", "-XX:G1PeriodicGCInterval=10000", "-XX:+SafepointTimeout",
			       "-Xlog:gc:file=/var/log/gc.log:uptime", "Main", NULL};
	put_list(g_jvm, "cmdline", argv2);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(discover_advice(&j, adv, sizeof adv), 3);
	print_message("%s", adv);
	assert_non_null(strstr(adv, "- /var/log/gc.log has no safepoint lines: add ,safepoint to its selection (-Xlog:gc,safepoint:...)"));
	assert_non_null(strstr(adv, "-XX:G1PeriodicGCInterval=10000 is set but /var/log/gc.log has no periodic-GC checks"));
	assert_non_null(strstr(adv, "lines carry no wall-clock time"));
	discover_fini(&j);

	const char *rel = "JAVA_VERSION=\"11.0.25\"\n";
	put("/usr/lib/jvm/java-17-openjdk-amd64/release", rel, strlen(rel)); /* pretend: JDK 11 */
	put_list(g_jvm, "cmdline", argv);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(j.java_feature, 11);
	discover_advice(&j, adv, sizeof adv);
	assert_non_null(strstr(adv, "-Xlog:gc*,safepoint:file=/tmp/gc-%p.log"));
	assert_null(strstr(adv, "periodic"));
	discover_fini(&j);
}

/* unreadable details are left empty, never fatal; no cmdline = gone */
static void test_missing_details(void **state)
{
	(void)state;
	char p[600];
	snprintf(p, sizeof p, "rm -f %s/proc/%d/environ %s/proc/%d/exe %s/proc/%d/cwd %s/proc/uptime", g_tmp, g_jvm,
		 g_tmp, g_jvm, g_tmp, g_jvm, g_tmp);
	assert_int_equal(system(p), 0);
	struct jvm_proc j;
	char err[256];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_false(j.environ_read);
	assert_string_equal(j.exe, "");
	assert_string_equal(j.cwd, "");
	assert_int_equal(j.java_feature, 0);
	assert_int_equal(j.start_ms, -1);
	assert_int_equal(j.safepoint_timeout, -1); /* it came from JAVA_TOOL_OPTIONS */
	/* relative log names stay relative when the cwd is unknown */
	const struct jvm_log *gc = discover_gc_log(&j);
	assert_non_null(gc);
	discover_fini(&j);
	put_list(g_jvm, "cmdline", (const char *const[]){NULL});
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), -ESRCH);
	assert_non_null(strstr(err, "has no command line"));
}

/* ------------------------------------------------------ name patterns --- */

/* The three rules HotSpot has (discover.h), on the names a real JDK 17 and 25
 * wrote here: file=a-%p-%%-%hn-%p.log gave a-8285-%%-%hn-%p.log on 17 and
 * a-8309-%%-vm-%p.log on 25 (host "vm"); -Xloggc:c-%p.log gave c-8309.log on 25. */
static void test_expand_rules(void **state)
{
	(void)state;
	char out[256];
	struct discover_name_ctx c = {.pid = 1, .start = "2026-12-06_23-59-01", .host = "podname"};
	discover_expand_name(DNAME_XLOG, "/tmp/gc-%p-%hn-%p-%%-%t-%t-%hn.log", &c, out, sizeof out);
	assert_string_equal(out, "/tmp/gc-1-podname-%p-%%-2026-12-06_23-59-01-%t-%hn.log");
	discover_expand_name(DNAME_XLOG, "%%p%x%", &c, out, sizeof out); /* strstr finds the %p in %%p */
	assert_string_equal(out, "%1%x%");
	c.host = NULL; /* JDK < 23, or not known: as written */
	discover_expand_name(DNAME_XLOG, "gc-%p-%hn.log", &c, out, sizeof out);
	assert_string_equal(out, "gc-1-%hn.log");
	/* JDK 8 -Xloggc: "pid<N>", the base name only */
	discover_expand_name(DNAME_XLOGGC8, "/var/%p/gc-%p-%t-%p.log", &c, out, sizeof out);
	assert_string_equal(out, "/var/%p/gc-pid1-2026-12-06_23-59-01-%p.log");
	/* -XX:ErrorFile: every %p, %% -> %, nothing else */
	discover_expand_name(DNAME_ERRORFILE, "/x/%p/crash-%p-%%-%t-%hn-%q.log", &c, out, sizeof out);
	assert_string_equal(out, "/x/1/crash-1-%-%t-%hn-%q.log");
	c.pid = 123456;
	discover_expand_name(DNAME_ERRORFILE, "ab%pcd", &c, out, 6); /* cut, terminated */
	assert_string_equal(out, "ab123");
	discover_expand_name(DNAME_XLOG, "%t", &(struct discover_name_ctx){.pid = 1, .start = NULL}, out, sizeof out);
	assert_string_equal(out, "%t");
}

static void put_status_nspid(int pid, int nspid)
{
	char b[256], rel[64];
	int n = snprintf(b, sizeof b, "Name:\tjava\nTgid:\t%d\nPid:\t%d\nUid:\t0\t0\t0\t0\nNSpid:\t%d\t%d\nNStgid:\t%d\t%d\n",
			 pid, pid, pid, nspid, pid, nspid);
	snprintf(rel, sizeof rel, "/proc/%d/status", pid);
	put(rel, b, (size_t)n);
}

static void want_time(const char *tz, int64_t ms, char *out, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	setenv("TZ", tz, 1);
	tzset();
	assert_non_null(localtime_r(&t, &tm));
	assert_true(strftime(out, len, "%Y-%m-%d_%H-%M-%S", &tm) > 0);
	unsetenv("TZ");
	tzset();
}

/* A JVM in its own pid and uts namespace (a pod): its pid 7, its host name
 * from /etc/hostname in its root, %t in its TZ; the names it writes (-Xlog,
 * -XX:ErrorFile relative to its cwd, hs_err_pid7.log) carry its pid, not ours. */
static void test_namespace_names(void **state)
{
	(void)state;
	char p[700], want[1100], t[32];
	put_status_nspid(g_jvm, 7);
	put("/etc/hostname", "podname\n", 8);
	const char *argv[] = {"java", "-Xlog:gc*,safepoint:file=/tmp/gc-%p-%hn.log", "-Xlog:gc:file=logs/t-%t.log",
			      "-XX:ErrorFile=crash/hs-%p.log", "Main", NULL};
	const char *env[] = {"TZ=EST5EDT", NULL};
	put_list(g_jvm, "cmdline", argv);
	put_list(g_jvm, "environ", env);
	struct jvm_proc j;
	char err[256];
	/* JDK 17 (the fixture's release): %hn stays in the name */
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(j.pid, g_jvm);
	assert_int_equal(j.nspid, 7);
	assert_string_equal(j.hostname, "podname");
	assert_string_equal(j.hostname_from, "/etc/hostname in its root");
	assert_string_equal(j.zone, "EST5EDT");
	assert_non_null(log_named(&j, "/tmp/gc-7-%hn.log"));
	want_time("EST5EDT", j.start_ms, t, sizeof t);
	snprintf(want, sizeof want, "/srv/catalog/logs/t-%s.log", t);
	assert_non_null(log_named(&j, want));
	assert_string_equal(j.error_file, "/srv/catalog/crash/hs-7.log");
	assert_int_equal(j.ncrash, 3); /* a relative ErrorFile is relative to its cwd */
	assert_string_equal(j.crash[0].path, "/srv/catalog/crash/hs-7.log");
	assert_string_equal(j.crash[1].path, "/srv/catalog/hs_err_pid7.log");
	assert_string_equal(j.crash[2].path, "/tmp/hs_err_pid7.log");
	assert_string_equal(j.error_fallback, "/tmp/hs_err_pid7.log");
	assert_string_equal(j.names_note, "");
	discover_fini(&j);

	/* JDK 25: %hn is the host name of its namespace; TZ a zone file in its root */
	const char *rel = "JAVA_VERSION=\"25.0.1\"\n";
	put("/usr/lib/jvm/java-17-openjdk-amd64/release", rel, strlen(rel));
	bool kolkata = access("/usr/share/zoneinfo/Asia/Kolkata", R_OK) == 0;
	if (kolkata) {
		snprintf(p, sizeof p, "mkdir -p %s/usr/share/zoneinfo/Asia && cp /usr/share/zoneinfo/Asia/Kolkata %s/usr/share/zoneinfo/Asia/",
			 g_tmp, g_tmp);
		assert_int_equal(system(p), 0);
		const char *env2[] = {"TZ=Asia/Kolkata", NULL};
		put_list(g_jvm, "environ", env2);
	}
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(j.java_feature, 25);
	assert_non_null(log_named(&j, "/tmp/gc-7-podname.log"));
	if (kolkata) {
		snprintf(want, sizeof want, ":%s/usr/share/zoneinfo/Asia/Kolkata", g_tmp);
		assert_string_equal(j.zone, want);
		want_time("Asia/Kolkata", j.start_ms, t, sizeof t);
		snprintf(want, sizeof want, "/srv/catalog/logs/t-%s.log", t);
		assert_non_null(log_named(&j, want));
	}
	discover_fini(&j);

	/* no TZ: its /etc/localtime (none here: UTC, as glibc does) */
	const char *env3[] = {"PATH=/bin", NULL};
	put_list(g_jvm, "environ", env3);
	snprintf(p, sizeof p, "%s/etc/localtime", g_tmp);
	unlink(p);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_string_equal(j.zone, "UTC0");
	discover_fini(&j);

	/* no host name to be had: %hn as written, and a note saying why */
	snprintf(p, sizeof p, "%s/etc/hostname", g_tmp);
	unlink(p);
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_string_equal(j.hostname, "");
	assert_non_null(log_named(&j, "/tmp/gc-7-%hn.log"));
	print_message("%s\n", j.names_note);
	assert_non_null(strstr(j.names_note, "%hn in /tmp/gc-%p-%hn.log: the JVM's host name is not known"));
	discover_fini(&j);
}

/* JDK 8 -Xloggc:%p is "pid<N>" (ostream.cpp make_log_name), N as the JVM sees it */
static void test_jdk8_pid_name(void **state)
{
	(void)state;
	char p[600];
	snprintf(p, sizeof p, "mkdir -p %s/usr/lib/jvm/java-8-openjdk-amd64/jre/bin", g_tmp);
	assert_int_equal(system(p), 0);
	const char *rel = "JAVA_VERSION=\"1.8.0_392\"\n";
	put("/usr/lib/jvm/java-8-openjdk-amd64/release", rel, strlen(rel));
	snprintf(p, sizeof p, "%s/proc/%d/exe", g_tmp, g_jvm);
	unlink(p);
	assert_int_equal(symlink("/usr/lib/jvm/java-8-openjdk-amd64/jre/bin/java", p), 0);
	put_status_nspid(g_jvm, 42);
	const char *argv[] = {"java", "-Xloggc:/var/log/gc-%p.log", "-XX:+PrintGCApplicationStoppedTime", "Main", NULL};
	put_list(g_jvm, "cmdline", argv);
	struct jvm_proc j;
	char err[256];
	assert_int_equal(discover_inspect(g_tmp, g_jvm, &j, err, sizeof err), 0);
	assert_int_equal(j.java_feature, 8);
	assert_non_null(log_named(&j, "/var/log/gc-pid42.log"));
	discover_fini(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_real_pids_and_pick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_inspect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_start_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_several_jvms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fmt_uptime, setup, teardown),
		cmocka_unit_test_setup_teardown(test_candidate_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_embedded_jvm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xlog_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_argfile_and_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jdk8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_advice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_details, setup, teardown),
		cmocka_unit_test(test_expand_rules),
		cmocka_unit_test_setup_teardown(test_namespace_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jdk8_pid_name, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
