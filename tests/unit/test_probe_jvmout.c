/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_probe_jvmout.c — the probe of a process's stdout/stderr (core/probe/probe_jvmout.c) on
 * real child processes:
 * - stdout and stderr as files: what the child writes after the open is read once it is
 *   gone (its /proc entry with it), the strongest line wins ("Terminating due to" over an
 *   uncaught OutOfMemoryError), and a line written before the open does not count;
 * - 2>&1 to one file is read once;
 * - a pipe is not opened (no reader is added to it): NULL with the reason;
 * - a file read and silent says nothing; truncated (smaller than when opened: a size
 *   is all there is to tell), it is read from its start. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stwtop/probe.h"

static int g_ack = -1;     /* the child's acknowledgements */

/* a child with stdout on out_fd and stderr on err_fd that writes, on each byte read from
 * its command pipe, the next of lines[] to fd 1 or 2 (prefix '1'/'2'), then exits */
static pid_t child(int out_fd, int err_fd, const char *const *lines, int *cmd)
{
	int p[2], ready[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(ready), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		close(p[1]);
		if (write(ready[1], "r", 1) != 1) /* its fds are in place */
			_exit(1);
		char c;
		for (int i = 0; lines[i]; i++) {
			if (read(p[0], &c, 1) != 1)
				_exit(1);
			const char *l = lines[i] + 1;
			if (write(lines[i][0] == '2' ? 2 : 1, l, strlen(l)) < 0 || write(ready[1], "w", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	char c;
	assert_int_equal(read(ready[0], &c, 1), 1);
	g_ack = ready[0];
	*cmd = p[1];
	return pid;
}

/* the next line written, and the child's word that it is */
static void step(int cmd)
{
	char c;
	assert_int_equal(write(cmd, "x", 1), 1);
	assert_int_equal(read(g_ack, &c, 1), 1);
}

static void reap(pid_t pid, int cmd)
{
	int st;
	close(cmd);
	close(g_ack);
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static int tmpfile_fd(char *path, size_t len)
{
	snprintf(path, len, "/tmp/stwtop-jvmout-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	return fd;
}

static void test_files(void **state)
{
	(void)state;
	char po[64], pe[64], why[512];
	int fo = tmpfile_fd(po, sizeof po), fe = tmpfile_fd(pe, sizeof pe);
	/* written before stwtop looked: not this end's */
	assert_int_equal(write(fo, "Terminating due to java.lang.OutOfMemoryError: old\n", 51), 51);
	const char *const lines[] = {
		"2Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n",
		"1READY\n",
		"1Terminating due to java.lang.OutOfMemoryError: Java heap space\n",
		NULL,
	};
	int cmd;
	pid_t pid = child(fo, fe, lines, &cmd);
	struct jvmout_probe *p = jvmout_probe_open("", pid, why, sizeof why);
	assert_non_null(p);
	char files[256];
	assert_int_equal(jvmout_probe_files(p, files, sizeof files), 2);
	struct ev_jvm_exit x;
	memset(&x, 0, sizeof x);
	jvmout_probe_read(p, &x);
	assert_int_equal(x.said, EXIT_SAID_NOTHING); /* the old line is not counted */
	step(cmd);
	memset(&x, 0, sizeof x);
	jvmout_probe_read(p, &x);
	assert_int_equal(x.said, EXIT_SAID_OOME);
	assert_string_equal(x.said_line, "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space");
	assert_string_equal(x.said_path, pe);
	step(cmd);
	step(cmd);
	reap(pid, cmd);
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/%d", (int)pid);
	assert_int_not_equal(access(proc, F_OK), 0); /* gone: read through the kept descriptors */
	memset(&x, 0, sizeof x);
	jvmout_probe_read(p, &x);
	assert_int_equal(x.said, EXIT_SAID_TERMINATING);
	assert_string_equal(x.said_line, "Terminating due to java.lang.OutOfMemoryError: Java heap space");
	assert_string_equal(x.said_path, po);
	jvmout_probe_close(p);
	close(fo);
	close(fe);
	unlink(po);
	unlink(pe);
}

static void test_one_file_and_truncation(void **state)
{
	(void)state;
	char po[64], why[512];
	int fo = tmpfile_fd(po, sizeof po);
	char early[200];
	memset(early, '.', sizeof early);
	early[sizeof early - 1] = '\n';
	assert_int_equal(write(fo, early, sizeof early), (ssize_t)sizeof early);
	const char *const lines[] = {"1READY\n", "2Aborting due to java.lang.OutOfMemoryError: Java heap space\n", NULL};
	int cmd;
	pid_t pid = child(fo, fo, lines, &cmd);
	struct jvmout_probe *p = jvmout_probe_open("", pid, why, sizeof why);
	assert_non_null(p);
	char files[256];
	assert_int_equal(jvmout_probe_files(p, files, sizeof files), 1); /* 2>&1: one file */
	assert_int_equal(ftruncate(fo, 0), 0);                          /* truncated: all of it is new */
	assert_int_equal(lseek(fo, 0, SEEK_SET), 0);
	step(cmd);
	step(cmd);
	reap(pid, cmd);
	struct ev_jvm_exit x;
	memset(&x, 0, sizeof x);
	jvmout_probe_read(p, &x);
	assert_int_equal(x.said, EXIT_SAID_ABORTING);
	jvmout_probe_close(p);
	close(fo);
	unlink(po);
}

static void test_pipe(void **state)
{
	(void)state;
	int p2[2];
	char why[512];
	assert_int_equal(pipe(p2), 0);
	const char *const lines[] = {"1READY\n", NULL};
	int cmd;
	pid_t pid = child(p2[1], p2[1], lines, &cmd);
	struct jvmout_probe *p = jvmout_probe_open("", pid, why, sizeof why);
	assert_null(p);
	assert_non_null(strstr(why, "not a file"));
	assert_non_null(strstr(why, "pipe:"));
	struct ev_jvm_exit x;
	memset(&x, 0, sizeof x);
	jvmout_probe_read(NULL, &x);
	assert_int_equal(x.said, EXIT_SAID_UNKNOWN);
	step(cmd);
	reap(pid, cmd);
	close(p2[0]);
	close(p2[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_one_file_and_truncation),
		cmocka_unit_test(test_pipe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
