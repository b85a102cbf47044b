/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tail_jvm.c — the tailer following a real JVM's -Xlog file rotation.
 * The sample allocation driver (tests/samples/collectors/AllocStorm.java)
 * runs for 2 s with -Xlog:gc*=debug into gc.log, filesize=64k, so HotSpot
 * rotates it some 80 times (unlink gc.log.NNN, rename gc.log to it, open
 * gc.log again: checked with strace on JDK 17). filecount is large enough
 * that the ring never wraps, so every line the JVM wrote is still on disk at
 * the end: what the tailer delivered must be exactly gc.log.000, .001, ...
 * and gc.log, concatenated. Skipped (with the reason) when no java is on
 * PATH. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <sys/wait.h>

#include "stwtop/loop.h"
#include "tail_harness.h"

#define FILECOUNT 900

struct run {
	struct loop *l;
	struct tail *t;
	pid_t pid;
	int status;
	bool exited;
	int64_t exited_at;
};

static void on_reap(void *ctx)
{
	struct run *r = ctx;
	if (!r->exited && waitpid(r->pid, &r->status, WNOHANG) == r->pid) {
		r->exited = true;
		r->exited_at = util_mono_ms();
	}
	/* the JVM has exited: one last look, and done */
	if (r->exited && util_mono_ms() - r->exited_at > 100) {
		tail_check(r->t);
		loop_stop(r->l);
	}
}

static void on_deadline(void *ctx)
{
	loop_stop(ctx);
}

static bool find_java(char *out, size_t outlen)
{
	const char *path = getenv("PATH");
	char *dup = strdup(path ? path : "/usr/bin:/bin");
	bool found = false;
	for (char *save, *d = strtok_r(dup, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, outlen, "%s/java", d);
		found = access(out, X_OK) == 0;
	}
	free(dup);
	return found;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_real_jvm_xlog_rotation(void **state)
{
	(void)state;
	char java[512];
	if (!find_java(java, sizeof java)) {
		print_message("skipped: no java on PATH\n");
		skip();
	}
	char *dir = h_tmpdir(), *gc = h_path(dir, "gc.log"), *out = h_path(dir, "jvm.out");
	struct h_rec *rec = h_rec_new();
	struct run r = { .l = loop_new() };
	r.t = h_tail(rec, 0);
	int id = tail_add(r.t, gc, TAIL_FROM_START);   /* before the JVM makes it */
	assert_int_equal(h_count_notes(rec, id, TAIL_NOTE_WAITING), 1);
	assert_int_equal(loop_add_fd(r.l, tail_fd(r.t), POLLIN, h_loop_dispatch, r.t), 0);
	assert_true(loop_add_timer(r.l, 1000, 1000, h_loop_check, r.t) >= 0);
	assert_true(loop_add_timer(r.l, 20, 20, on_reap, &r) >= 0);
	assert_true(loop_add_timer(r.l, 120000, 0, on_deadline, r.l) >= 0);

	char xlog[1024];
	snprintf(xlog, sizeof xlog, "-Xlog:gc*=debug,safepoint=debug:file=%s:uptimemillis,level,tags:filecount=%d,filesize=64k",
		 gc, FILECOUNT);
	fflush(NULL);
	r.pid = fork();
	assert_true(r.pid >= 0);
	if (r.pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execl(java, "java", "-XX:+UseSerialGC", "-Xmx48m", xlog,
		      STWTOP_TEST_DIR "/samples/collectors/AllocStorm.java", "2", "2", "8", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(loop_run(r.l), 0);
	assert_true(r.exited);
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0)
		fail_msg("java exited with status 0x%x (output in %s)", r.status, out);

	/* what is on disk: archives in ring order, then the live file */
	DIR *d = opendir(dir);
	char *names[FILECOUNT];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "gc.log.", 7) == 0 && n < FILECOUNT)
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof *names, cmp_names);   /* zero-padded: gc.log.000, .001, ... */
	struct h_text want = { 0 };
	for (size_t i = 0; i <= n; i++) {
		char *p = i < n ? h_path(dir, names[i]) : strdup(gc);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		assert_true(fd >= 0);
		char buf[65536];
		ssize_t k;
		while ((k = read(fd, buf, sizeof buf)) > 0) {
			if (want.len + (size_t)k + 1 > want.cap) {
				want.cap = (want.len + (size_t)k + 1) * 2;
				want.buf = realloc(want.buf, want.cap);
			}
			memcpy(want.buf + want.len, buf, (size_t)k);
			want.len += (size_t)k;
		}
		close(fd);
		free(p);
		if (i < n)
			free(names[i]);
	}
	struct tail_file_stats st;
	tail_stats(r.t, id, &st);
	print_message("real JVM: %zu archives + gc.log, %llu lines, %llu bytes, %llu rotations followed\n", n,
		      (unsigned long long)st.lines, (unsigned long long)st.bytes, (unsigned long long)st.rotations);
	assert_true(n >= 5);                 /* it did rotate, repeatedly */
	assert_true(n < FILECOUNT - 1);      /* and the ring never wrapped */
	H_ASSERT_TEXT(rec, id, want.buf, want.len);
	assert_int_equal(st.rotations, n);
	assert_int_equal(st.cut + st.truncations + st.errors, 0);
	assert_int_equal(rec->f[id].partial, 0);

	tail_free(r.t);
	loop_free(r.l);
	h_rec_free(rec);
	free(want.buf);
	h_rm_rf(dir);
	free(dir);
	free(gc);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_jvm_xlog_rotation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
