/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_hserr.c — crash reports: two REAL hs_err files provoked here (OpenJDK 17
 * and Temurin 25 with an AOT cache, SIGSEGV through Unsafe.putAddress(0)), a
 * synthetic AOT-cache SIGILL in ~AdapterBlob derived from the JDK 25 one
 * (FIELD-NOTES 7), and synthetic JDK 8 / out-of-memory headers. See
 * tests/fixtures/hserr/README.md. Then the watcher (hserr_probe, probe.h) on
 * real files in a temp dir written the way a crashing JVM writes them: created
 * empty, then filled, then closed. The probe watches directories through the
 * tailer (tail_watch_dir): the process keeps one inotify instance. */
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
#include <linux/capability.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "stwtop/hserr.h"
#include "stwtop/probe.h"
#include "stwtop/tail.h"
#include "stwtop/util.h"
#include "testutil_probe.h"

#define HS STWTOP_TEST_DIR "/fixtures/hserr/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b; /* deliberately not NUL-terminated for the parser */
}

static void test_real_jdk17(void **state)
{
	(void)state;
	size_t len;
	char *b = slurp(HS "hs_err_pid26891-jdk17-sigsegv.log", &len);
	struct event e;
	assert_true(hserr_parse(b, len, &e));
	assert_int_equal(e.kind, EV_HSERR);
	assert_string_equal(e.u.hserr.signal, "SIGSEGV");
	assert_string_equal(e.u.hserr.frame, "V  [libjvm.so+0xed2f94]  Unsafe_PutLong+0x124");
	assert_int_equal(e.u.hserr.aot, 0);
	assert_string_equal(e.u.hserr.path, "");
	assert_int_equal(e.t_ms, util_utc_ms(2026, 11, 29, 20, 8, 33, 0));
	assert_int_equal(e.up_us, 53530);

	/* the same file with CRLF line ends */
	char *crlf = malloc(len * 2);
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (b[i] == '\n')
			crlf[o++] = '\r';
		crlf[o++] = b[i];
	}
	struct event c;
	assert_true(hserr_parse(crlf, o, &c));
	assert_string_equal(c.u.hserr.frame, e.u.hserr.frame);
	assert_string_equal(c.u.hserr.signal, "SIGSEGV");
	assert_int_equal(c.t_ms, e.t_ms);
	free(crlf);

	/* a report still being written: as far as it goes */
	assert_true(hserr_parse(b, 200, &c));
	assert_string_equal(c.u.hserr.signal, "SIGSEGV");
	assert_string_equal(c.u.hserr.frame, "");
	assert_int_equal(c.t_ms, EV_TIME_NONE);
	assert_false(hserr_parse(b, 40, &c)); /* the header line is not complete yet */
	free(b);
}

static void test_real_jdk25_aot(void **state)
{
	(void)state;
	size_t len;
	char *b = slurp(HS "hs_err_pid27641-jdk25-aot-sigsegv.log", &len);
	struct event e;
	assert_true(hserr_parse(b, len, &e));
	assert_string_equal(e.u.hserr.signal, "SIGSEGV");
	assert_string_equal(e.u.hserr.frame, "V  [libjvm.so+0x123632d]  Unsafe_PutLong+0xad");
	assert_int_equal(e.u.hserr.aot, 1); /* -XX:AOTCache=app.aot on the command line */
	assert_int_equal(e.t_ms, util_utc_ms(2026, 11, 29, 20, 8, 45, 0));
	assert_int_equal(e.up_us, 66970);
	free(b);
}

/* synthetic: the incident of FIELD-NOTES 7 (SIGILL in an adapter from an AOT cache
 * trained on a CPU with more features), time in CET */
static void test_synthetic_aot_sigill(void **state)
{
	(void)state;
	size_t len;
	char *b = slurp(HS "hs_err_synthetic-jdk25-aot-sigill.log", &len);
	struct event e;
	setenv("TZ", "Europe/Paris", 1);
	assert_true(hserr_parse(b, len, &e));
	setenv("TZ", "UTC", 1);
	assert_string_equal(e.u.hserr.signal, "SIGILL");
	assert_string_equal(e.u.hserr.frame, "v  ~AdapterBlob 0x00007f93c4a1e400");
	assert_non_null(strstr(e.u.hserr.frame, "~AdapterBlob"));
	assert_int_equal(e.u.hserr.aot, 1);
	assert_int_equal(e.t_ms, util_utc_ms(2026, 11, 29, 20, 8, 45, 0)); /* 21:08:45 CET */
	free(b);
}

/* synthetic: older header forms and odd content */
static void test_synthetic_forms(void **state)
{
	(void)state;
	struct event e;
	const char *jdk8 = "#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n"
			   "#  Internal Error (sharedRuntime.cpp:834), pid=4242, tid=0x00007f2c\n"
			   "#  fatal error: exception happened outside interpreter, nmethods and vtable stubs at pc 0x1\n#\n"
			   "# JRE version: OpenJDK Runtime Environment (8.0_392-b08) (build 1.8.0_392-b08)\n"
			   "# Problematic frame:\n# V  [libjvm.so+0xa0c5e1]  SharedRuntime::continuation_for_implicit_exception+0x1\n#\n"
			   "---------------  T H R E A D  ---------------\n\n"
			   "time: Mon Jan  6 10:54:11 2025\nelapsed time: 3 seconds (0d 0h 0m 3s)\n";
	setenv("TZ", "UTC", 1);
	assert_true(hserr_parse(jdk8, strlen(jdk8), &e));
	assert_string_equal(e.u.hserr.signal, "Internal Error");
	/* ev_hserr.frame holds 63 bytes: a long C++ frame is cut */
	assert_string_equal(e.u.hserr.frame, "V  [libjvm.so+0xa0c5e1]  SharedRuntime::continuation_for_implic");
	assert_int_equal(e.t_ms, util_utc_ms(2025, 1, 6, 10, 54, 11, 0));
	assert_int_equal(e.up_us, 3000000);
	assert_int_equal(e.u.hserr.aot, 0);

	const char *oom = "#\n# There is insufficient memory for the Java Runtime Environment to continue.\n"
			  "# Native memory allocation (mmap) failed to map 65536 bytes for committing reserved memory.\n"
			  "# An error report file with more information is saved as:\n# /srv/hs_err_pid7.log\n";
	assert_true(hserr_parse(oom, strlen(oom), &e));
	assert_string_equal(e.u.hserr.signal, "Out of Memory");
	assert_string_equal(e.u.hserr.frame, "");

	/* control bytes in the frame are escaped before they can reach a terminal */
	const char *esc = "# A fatal error has been detected by the Java Runtime Environment:\n"
			  "#  SIGBUS (0x7) at pc=0x0\n# Problematic frame:\n# C  [libevil.so+0x1]  f\x1b[31mred\n";
	assert_true(hserr_parse(esc, strlen(esc), &e));
	assert_string_equal(e.u.hserr.signal, "SIGBUS");
	assert_string_equal(e.u.hserr.frame, "C  [libevil.so+0x1]  f\\e[31mred");

	/* an absurd elapsed time is not converted (found by fuzz_hserr: double -> int64 overflow) */
	const char *huge = "# A fatal error has been detected by the Java Runtime Environment:\n"
			   "elapsed time: 888888888888888888888888888888888888888888888888892\n";
	assert_true(hserr_parse(huge, strlen(huge), &e));
	assert_int_equal(e.up_us, -1);

	/* not crash reports */
	const char *gc = "[2026-11-29T19:23:38.327+0000][0.005s][info][gc] Using G1\n";
	assert_false(hserr_parse(gc, strlen(gc), &e));
	assert_false(hserr_parse("", 0, &e));
	size_t len;
	char *g = slurp(STWTOP_TEST_DIR "/samples/combined/throttle-stop/gc.log", &len);
	assert_false(hserr_parse(g, len, &e));
	free(g);
}

/* ------------------------------------------------------------ the watcher --- */

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* the tailer whose inotify instance the probe shares (one per process) */
static struct tail *g_tail;

static struct tail *test_tail(void)
{
	char err[300];
	if (!g_tail)
		g_tail = tail_new(NULL, 0, err, sizeof err);
	assert_non_null(g_tail);
	return g_tail;
}

/* the live loop: the tailer's descriptor woke it, tail_dispatch, then the probe */
static int probe_poll(struct hserr_probe *p, struct event *e, int *next)
{
	tail_dispatch(test_tail());
	return hserr_probe_poll(p, util_now_ms(), e, 1, next);
}

/* anon_inode:inotify descriptors of this process */
static int inotify_instances(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		char link[300], what[64];
		snprintf(link, sizeof link, "/proc/self/fd/%s", de->d_name);
		ssize_t l = readlink(link, what, sizeof what - 1);
		if (l > 0) {
			what[l] = '\0';
			n += strcmp(what, "anon_inode:inotify") == 0;
		}
	}
	closedir(d);
	return n;
}

/* poll as the live loop does (waiting the time the probe asks for), up to a deadline */
static int poll_until(struct hserr_probe *p, struct event *e, int deadline_ms)
{
	int64_t end = util_mono_ms() + deadline_ms;
	for (;;) {
		int next = -1;
		int n = probe_poll(p, e, &next);
		if (n != 0 || util_mono_ms() >= end)
			return n;
		sleep_ms(next > 0 ? next : 50);
	}
}

static void test_watch_staged(void **state)
{
	(void)state;
	const char *dir = tu_tempdir();
	char path[128], other[128];
	snprintf(path, sizeof path, "%s/crash-4242.log", dir);
	snprintf(other, sizeof other, "%s/hs_err_pid4242.log", dir);
	size_t len;
	char *aot = slurp(HS "hs_err_synthetic-jdk25-aot-sigill.log", &len);
	struct hserr_probe *p = hserr_probe_new(test_tail(), util_now_ms() - 1000);
	assert_non_null(p);
	assert_int_equal(hserr_probe_add(p, path, false, util_now_ms()), 0);
	assert_int_equal(hserr_probe_add(p, other, false, util_now_ms()), 0);
	assert_int_equal(inotify_instances(), 1); /* the tailer's, nothing of its own */
	assert_int_equal(hserr_probe_add(p, "relative.log", false, 0), -EINVAL);
	char list[512];
	assert_int_equal(hserr_probe_describe(p, list, sizeof list), 2);
	assert_non_null(strstr(list, "crash-4242.log"));
	assert_null(hserr_probe_take_note(p));

	struct event e;
	int next = -1;
	assert_int_equal(probe_poll(p, &e, &next), 0);
	assert_int_equal(next, -1); /* nothing there: no hurry */

	/* created empty (the JVM has opened it): nothing yet, but look again soon */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(probe_poll(p, &e, &next), 0);
	assert_true(next > 0);
	sleep_ms(400);
	assert_int_equal(probe_poll(p, &e, &next), 0); /* still empty */
	assert_true(next > 0);
	/* the header and the problematic frame come first; the rest is still being written */
	assert_int_equal(write(fd, aot, 700), 700);
	assert_int_equal(probe_poll(p, &e, &next), 0); /* growing: not yet */
	assert_true(next > 0 && next <= 300);
	assert_int_equal(write(fd, aot + 700, len - 700), (ssize_t)(len - 700));
	/* closed: complete at once, no settling time needed */
	assert_int_equal(close(fd), 0);
	int64_t t0 = util_mono_ms();
	assert_int_equal(probe_poll(p, &e, &next), 1);
	assert_true(util_mono_ms() - t0 < 100);
	assert_int_equal(e.kind, EV_HSERR);
	assert_string_equal(e.u.hserr.signal, "SIGILL");
	assert_string_equal(e.u.hserr.frame, "v  ~AdapterBlob 0x00007f93c4a1e400");
	assert_string_equal(e.u.hserr.path, path);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(e.t_ms, (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000);
	/* given once */
	assert_int_equal(probe_poll(p, &e, &next), 0);

	/* left open (a core dump being written after it): read once it stopped growing */
	fd = open(other, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, aot, len), (ssize_t)len);
	assert_int_equal(probe_poll(p, &e, &next), 0);
	t0 = util_mono_ms();
	assert_int_equal(poll_until(p, &e, 3000), 1);
	assert_true(util_mono_ms() - t0 >= 250); /* it waited for the file to settle */
	assert_string_equal(e.u.hserr.path, other);
	close(fd);
	assert_int_equal(probe_poll(p, &e, &next), 0);
	hserr_probe_free(p);
	free(aot);
}

/* a report from an earlier crash is not news; a file that never becomes a crash
 * report is said once */
static void test_watch_old_and_junk(void **state)
{
	(void)state;
	const char *dir = tu_tempdir();
	char old[128], cmd[600];
	snprintf(old, sizeof old, "%s/hs_err_pid77.log", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s' && touch -d '2020-01-01' '%s'", HS "hs_err_pid26891-jdk17-sigsegv.log",
		 old, old);
	assert_int_equal(system(cmd), 0);
	struct hserr_probe *p = hserr_probe_new(test_tail(), util_now_ms());
	char prefix[128];
	snprintf(prefix, sizeof prefix, "%s/hs_err_pid", dir);
	assert_int_equal(hserr_probe_add(p, prefix, true, util_now_ms()), 0);
	struct event e;
	int next;
	assert_int_equal(probe_poll(p, &e, &next), 0);
	/* a new one with another pid, by the directory watch */
	char fresh[128];
	snprintf(fresh, sizeof fresh, "%s/hs_err_pid78.log", dir);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", HS "hs_err_pid26891-jdk17-sigsegv.log", fresh);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(poll_until(p, &e, 3000), 1);
	assert_string_equal(e.u.hserr.path, fresh);
	assert_string_equal(e.u.hserr.signal, "SIGSEGV");
	/* junk with the name */
	char junk[128];
	snprintf(junk, sizeof junk, "%s/hs_err_pid79.log", dir);
	FILE *f = fopen(junk, "w");
	assert_non_null(f);
	fputs("not a crash report\n", f);
	fclose(f);
	int64_t end = util_mono_ms() + 8000;
	const char *msg = NULL;
	while (!msg && util_mono_ms() < end) {
		assert_int_equal(probe_poll(p, &e, &next), 0);
		msg = hserr_probe_take_note(p);
		if (!msg)
			sleep_ms(next > 0 ? next : 100);
	}
	assert_non_null(msg);
	assert_non_null(strstr(msg, junk));
	assert_non_null(strstr(msg, "not a JVM crash report"));
	assert_int_equal(probe_poll(p, &e, &next), 0);
	assert_null(hserr_probe_take_note(p)); /* once */
	hserr_probe_free(p);
}

/* HotSpot's last fallback, /tmp/hs_err_pid<pid>.log: /tmp is not watched with
 * inotify (every process's temporary files would wake us), the name is looked
 * at every poll; a report written there is still found, once complete. */
static char g_tmpfile[64];

static int rm_tmpfile(void **state)
{
	(void)state;
	if (g_tmpfile[0])
		unlink(g_tmpfile);
	g_tmpfile[0] = '\0';
	return 0;
}

static void test_watch_tmp(void **state)
{
	(void)state;
	snprintf(g_tmpfile, sizeof g_tmpfile, "/tmp/hs_err_pid%d%d.log", 99, (int)getpid());
	unlink(g_tmpfile);
	struct hserr_probe *p = hserr_probe_new(test_tail(), util_now_ms());
	assert_int_equal(hserr_probe_add(p, g_tmpfile, false, util_now_ms()), 0);
	struct event e;
	int next;
	assert_int_equal(probe_poll(p, &e, &next), 0);
	assert_null(hserr_probe_take_note(p)); /* not a problem: looked at by name */
	char cmd[300];
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", HS "hs_err_pid26891-jdk17-sigsegv.log", g_tmpfile);
	assert_int_equal(system(cmd), 0);
	/* no inotify event comes: the caller's interval polls find it */
	assert_int_equal(poll_until(p, &e, 3000), 1);
	assert_string_equal(e.u.hserr.path, g_tmpfile);
	hserr_probe_free(p);
}

static void test_watch_unreadable(void **state)
{
	(void)state;
	const char *dir = tu_tempdir();
	char sub[128], path[160], closed[128], cpath[160];
	snprintf(sub, sizeof sub, "%s/search-only", dir);
	snprintf(closed, sizeof closed, "%s/closed", dir);
	assert_int_equal(mkdir(sub, 0311), 0);  /* --x: names can be looked up, not listed */
	assert_int_equal(mkdir(closed, 0000), 0);
	snprintf(path, sizeof path, "%s/hs_err_pid5.log", sub);
	snprintf(cpath, sizeof cpath, "%s/hs_err_pid5.log", closed);
	if (!caps_dac(false))
		skip();
	struct hserr_probe *p = hserr_probe_new(test_tail(), util_now_ms());
	assert_int_equal(hserr_probe_add(p, path, false, util_now_ms()), 0);
	assert_int_equal(hserr_probe_add(p, cpath, false, util_now_ms()), 0);
	struct event e;
	int next;
	assert_int_equal(probe_poll(p, &e, &next), 0);
	const char *msg = hserr_probe_take_note(p);
	caps_dac(true);
	assert_non_null(msg);
	print_message("%s\n", msg);
	assert_non_null(strstr(msg, sub));
	assert_non_null(strstr(msg, "looked for every interval instead"));
	assert_non_null(strstr(msg, closed));
	assert_non_null(strstr(msg, "Permission denied: a crash report hs_err_pid5.log there cannot be seen"));
	/* the search-only directory is still looked into by name */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", HS "hs_err_pid26891-jdk17-sigsegv.log", path);
	assert_int_equal(system(cmd), 0);
	caps_dac(false);
	int n = poll_until(p, &e, 3000);
	caps_dac(true);
	assert_int_equal(n, 1);
	assert_string_equal(e.u.hserr.path, path);
	assert_null(hserr_probe_take_note(p));
	hserr_probe_free(p);
}

/* One owner per kernel resource: the probe's directory watches live on the
 * tailer's inotify instance, also while a file is followed in the same
 * directory (one watch, both masks) and after the probe is gone. A second
 * instance (inotify_init in the probe) fails this. */
static int g_lines;

static void count_line(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	(void)ctx, (void)id, (void)line, (void)len, (void)flags;
	g_lines++;
}

static void test_one_inotify_instance(void **state)
{
	(void)state;
	const char *dir = tu_tempdir();
	char path[128], log[128];
	snprintf(path, sizeof path, "%s/hs_err_pid5151.log", dir);
	snprintf(log, sizeof log, "%s/gc.log", dir);
	if (g_tail) {
		tail_free(g_tail);
		g_tail = NULL;
	}
	struct tail_callbacks cb = {.line = count_line};
	char err[300];
	g_tail = tail_new(&cb, 0, err, sizeof err);
	assert_non_null(g_tail);
	int before = inotify_instances();
	assert_int_equal(before, 1);
	assert_int_equal(tail_inotify_fd() >= 0, 1);
	FILE *f = fopen(log, "w");
	assert_non_null(f);
	assert_true(tail_add(g_tail, log, TAIL_FROM_START) >= 0);
	struct hserr_probe *p = hserr_probe_new(g_tail, util_now_ms());
	char prefix[128];
	snprintf(prefix, sizeof prefix, "%s/hs_err_pid", dir);
	assert_int_equal(hserr_probe_add(p, path, false, util_now_ms()), 0);
	assert_int_equal(hserr_probe_add(p, prefix, true, util_now_ms()), 0);
	assert_int_equal(inotify_instances(), 1);
	/* the followed file still gets its lines with the probe's mask on the directory */
	fputs("line 1\n", f);
	fflush(f);
	int64_t end = util_mono_ms() + 3000;
	while (g_lines < 1 && util_mono_ms() < end) {
		tail_dispatch(g_tail);
		sleep_ms(20);
	}
	assert_int_equal(g_lines, 1);
	/* and a crash report written and closed there is seen at once */
	char cmd[600];
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", HS "hs_err_pid26891-jdk17-sigsegv.log", path);
	assert_int_equal(system(cmd), 0);
	struct event e;
	int next;
	end = util_mono_ms() + 3000;
	int n = 0;
	while (!n && util_mono_ms() < end) {
		tail_dispatch(g_tail);
		if (hserr_probe_woken(p))
			n = hserr_probe_poll(p, util_now_ms(), &e, 1, &next);
		else
			sleep_ms(20);
	}
	assert_int_equal(n, 1);
	assert_string_equal(e.u.hserr.path, path);
	hserr_probe_free(p);
	fputs("line 2\n", f);
	fclose(f);
	end = util_mono_ms() + 3000;
	while (g_lines < 2 && util_mono_ms() < end) {
		tail_dispatch(g_tail);
		sleep_ms(20);
	}
	assert_int_equal(g_lines, 2);
	assert_int_equal(inotify_instances(), 1);
	tail_free(g_tail);
	g_tail = NULL;
}

/* A directory seen through another process's root (a JVM in a pod) is held
 * open: when the pod's namespaces go with its pid 1, the path no longer
 * resolves, yet the report written there is read. Here the directory is
 * moved away after the watch began, through /proc/self/root. */
static void test_watch_held_dir(void **state)
{
	(void)state;
	const char *dir = tu_tempdir();
	char pod[256], gone[256], path[512], cmd[1200];
	snprintf(pod, sizeof pod, "%s/pod", dir);
	snprintf(gone, sizeof gone, "%s/gone", dir);
	assert_int_equal(mkdir(pod, 0755), 0);
	snprintf(path, sizeof path, "/proc/self/root%s/hs_err_pid1.log", pod);
	struct hserr_probe *p = hserr_probe_new(test_tail(), util_now_ms());
	assert_int_equal(hserr_probe_add(p, path, false, util_now_ms()), 0);
	struct event e;
	int next;
	assert_int_equal(probe_poll(p, &e, &next), 0);
	assert_int_equal(rename(pod, gone), 0);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s/hs_err_pid1.log'", HS "hs_err_pid26891-jdk17-sigsegv.log", gone);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(poll_until(p, &e, 3000), 1);
	assert_string_equal(e.u.hserr.path, path);
	assert_string_equal(e.u.hserr.signal, "SIGSEGV");
	hserr_probe_free(p);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", gone);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_jdk17),
		cmocka_unit_test(test_real_jdk25_aot),
		cmocka_unit_test(test_synthetic_aot_sigill),
		cmocka_unit_test(test_synthetic_forms),
		cmocka_unit_test_teardown(test_watch_staged, unstage),
		cmocka_unit_test_teardown(test_watch_old_and_junk, unstage),
		cmocka_unit_test_teardown(test_watch_unreadable, unstage),
		cmocka_unit_test_teardown(test_watch_tmp, rm_tmpfile),
		cmocka_unit_test(test_watch_held_dir),
		cmocka_unit_test_teardown(test_one_inotify_instance, unstage),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	tail_free(g_tail);
	return rc;
}
