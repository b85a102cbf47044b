/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tail.c — the tailer through appends and every rotation style, on real
 * files in a temp dir with real write/rename/truncate/unlink syscalls. Each
 * test asserts the exact bytes delivered (nothing lost, nothing doubled, in
 * order) and the notes. Waits are deadlines on the inotify descriptor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/time.h>

#include "stwtop/loop.h"
#include "tail_harness.h"

#define WAIT_MS 10000

/* --- 1. appends */

static void test_append_small_writes(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "app.log");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "pre", 0, 3);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_int_equal(id, 0);
	/* what was there is read inside tail_add */
	assert_int_equal(fx->r->f[id].lines, 3);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_OPENED), 1);
	for (int i = 0; i < 3000; i++) {
		h_writef(fd, "small %d\n", i);
		h_text_add(&want, "small %d\n", i);
		if (i % 97 == 0)
			assert_true(h_pump(fx->t, fx->r, id, 3 + (size_t)i + 1, WAIT_MS));
	}
	assert_true(h_pump(fx->t, fx->r, id, 3003, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.lines, 3003);
	assert_int_equal(st.bytes, want.len);
	assert_true(st.open);
	assert_int_equal(st.rotations + st.truncations + st.errors + st.cut, 0);
	close(fd);
	free(want.buf);
	free(p);
}

static void test_append_burst_100k(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "burst.log");
	int fd = h_open_append(p);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	struct h_text want = { 0 };
	/* two bursts of 100 000 lines, each one write() of ~1.5 MB */
	for (int burst = 0; burst < 2; burst++) {
		size_t from = want.len;
		for (int i = 0; i < 100000; i++)
			h_text_add(&want, "burst %d line %06d some padding text\n", burst, i);
		h_write(fd, want.buf + from, want.len - from);
		assert_true(h_pump(fx->t, fx->r, id, (size_t)(burst + 1) * 100000, WAIT_MS));
	}
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_int_equal(fx->r->f[id].lines, 200000);
	close(fd);
	free(want.buf);
	free(p);
}

/* One line in three write()s with the reactor handling the inotify event after
 * each: nothing until its '\n', then exactly the whole line, once. */
static void test_partial_line_three_writes(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "partial.log");
	int fd = h_open_append(p);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	struct loop *l = loop_new();
	assert_int_equal(loop_add_fd(l, tail_fd(fx->t), POLLIN, h_loop_dispatch, fx->t), 0);

	h_writef(fd, "[12.345s][info][gc] GC(7) Pause ");
	assert_true(loop_once(l, WAIT_MS) >= 1);
	assert_int_equal(fx->r->f[id].lines, 0);
	h_writef(fd, "Young (Normal) (G1 Evacuation Pause) ");
	assert_true(loop_once(l, WAIT_MS) >= 1);
	assert_int_equal(fx->r->f[id].lines, 0);
	h_writef(fd, "24M->4M(256M) 3.043ms\nnext");
	assert_true(loop_once(l, WAIT_MS) >= 1);
	assert_int_equal(fx->r->f[id].lines, 1);
	static const char whole[] = "[12.345s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.043ms\n";
	H_ASSERT_TEXT(fx->r, id, whole, sizeof whole - 1);
	/* "next" waits for its '\n' */
	assert_int_equal(loop_once(l, 50), 0);
	h_settle(fx->t, 20);
	assert_int_equal(fx->r->f[id].lines, 1);
	h_writef(fd, " line\n");
	assert_true(h_pump(fx->t, fx->r, id, 2, WAIT_MS));
	static const char both[] = "[12.345s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.043ms\nnext line\n";
	H_ASSERT_TEXT(fx->r, id, both, sizeof both - 1);
	loop_free(l);
	close(fd);
	free(p);
}

/* --- 2. rename rotation, logrotate "create", writer still on the old inode */

static void test_rename_rotation_create(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "app.log"), *p1 = h_path(fx->dir, "app.log.1");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "a", 0, 10);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 10, WAIT_MS));
	int fds_following = h_count_fds();

	h_rename(p, p1);                    /* logrotate: mv app.log app.log.1 */
	h_lines(fd, &want, "a", 10, 20);    /* the app still writes to its open fd */
	assert_true(h_pump(fx->t, fx->r, id, 20, WAIT_MS));
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_GONE), 1);

	int nfd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);   /* create */
	assert_true(nfd >= 0);
	h_settle(fx->t, 20);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 1);
	h_lines(fd, &want, "a", 20, 30);    /* before the HUP reaches it: still the old inode */
	assert_true(h_pump(fx->t, fx->r, id, 30, WAIT_MS));
	close(fd);                          /* reopened after the HUP */
	h_lines(nfd, &want, "a", 30, 40);
	assert_true(h_pump(fx->t, fx->r, id, 40, WAIT_MS));

	/* again, but the writer's last lines to the old inode and its first ones
	 * to the new file are both written before the reader looks: the old
	 * inode must be drained before the new file's lines are delivered */
	h_rename(p, p1);
	int nfd2 = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(nfd2 >= 0);
	h_lines(nfd, &want, "b", 0, 10);
	close(nfd);
	nfd = nfd2;
	h_lines(nfd, &want, "b", 10, 20);
	assert_true(h_pump(fx->t, fx->r, id, 60, WAIT_MS));
	/* same, with the reader having already switched to the new file */
	h_rename(p, p1);
	nfd2 = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(nfd2 >= 0);
	h_settle(fx->t, 10);
	h_lines(nfd, &want, "c", 0, 10);
	close(nfd);
	nfd = nfd2;
	h_lines(nfd, &want, "c", 10, 20);
	assert_true(h_pump(fx->t, fx->r, id, 80, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);

	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, 3);
	assert_true(st.open);
	/* the old inodes are kept open for the grace period, then let go */
	assert_int_equal(tail_draining(fx->t, id), 3);
	tail_set_grace_ms(fx->t, 0);
	tail_check(fx->t);
	assert_int_equal(tail_draining(fx->t, id), 0);
	assert_int_equal(h_count_fds(), fds_following);   /* writer fd swapped for nfd */
	assert_int_equal(fx->r->f[id].partial, 0);
	close(nfd);
	free(want.buf);
	free(p);
	free(p1);
}

/* --- 3. JVM -Xlog rotation: close, rm gc.log.0, mv gc.log gc.log.0, reopen */

static int xlog_rotate(const char *p, const char *p0, int fd)
{
	close(fd);
	if (unlink(p0) < 0 && errno != ENOENT)
		abort();
	h_rename(p, p0);
	int nfd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(nfd >= 0);
	return nfd;
}

static void test_xlog_rotation_three_times(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "gc.log"), *p0 = h_path(fx->dir, "gc.log.0");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "[0.010s][info][gc] gen0", 0, 5);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	size_t n = 5;
	/* three rotations back to back, the reader keeping up as it does live */
	for (int gen = 1; gen <= 3; gen++) {
		fd = xlog_rotate(p, p0, fd);
		char tag[64];
		snprintf(tag, sizeof tag, "[%d.000s][info][gc] gen%d", gen, gen);
		h_lines(fd, &want, tag, 0, 7);
		n += 7;
		assert_true(h_pump(fx->t, fx->r, id, n, WAIT_MS));
	}
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, 3);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 3);
	close(fd);
	free(want.buf);
	free(p);
	free(p0);
}

/* Three rotations before the reader looks at all (filecount=3 ring: gc.log.0,
 * .1, .2 survive): the generations that came and went while it was not
 * looking are found through the rename events and read in order. */
static void test_xlog_rotation_burst_unobserved(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "gc.log");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "gen0", 0, 4);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 4, WAIT_MS));
	h_lines(fd, &want, "gen0", 4, 6);
	for (int gen = 1; gen <= 3; gen++) {
		char *pn = NULL;
		assert_true(asprintf(&pn, "%s.%d", p, gen - 1) > 0);
		fd = xlog_rotate(p, pn, fd);
		free(pn);
		char tag[16];
		snprintf(tag, sizeof tag, "gen%d", gen);
		h_lines(fd, &want, tag, 0, 5);
	}
	assert_true(h_pump(fx->t, fx->r, id, 6 + 15, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, 3);
	close(fd);
	free(want.buf);
	free(p);
}

/* The same burst with a one-file ring (gc.log.0 removed each time): the middle
 * generation is deleted before anyone could open it, so its lines cannot be
 * read by anyone. What exists is delivered once and in order. */
static void test_xlog_rotation_burst_ring_of_one(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "gc.log"), *p0 = h_path(fx->dir, "gc.log.0");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "gen0", 0, 4);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 4, WAIT_MS));
	fd = xlog_rotate(p, p0, fd);
	h_lines(fd, NULL, "gen1", 0, 5);      /* deleted by the next-but-one rotation */
	fd = xlog_rotate(p, p0, fd);
	h_lines(fd, &want, "gen2", 0, 5);
	fd = xlog_rotate(p, p0, fd);
	h_lines(fd, &want, "gen3", 0, 5);
	assert_true(h_pump(fx->t, fx->r, id, 14, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	close(fd);
	free(want.buf);
	free(p);
	free(p0);
}

/* --- 4. JDK 8 -XX:+UseGCLogFileRotation -XX:NumberOfGCLogFiles=3 -Xloggc:gc.log */

static int jdk8_rotate(const char *dir, int fd, int from, int to, struct h_text *want)
{
	char cur[256], arch[256], next[256];
	snprintf(cur, sizeof cur, "%s/gc.log.%d.current", dir, from);
	snprintf(arch, sizeof arch, "%s/gc.log.%d", dir, from);
	snprintf(next, sizeof next, "%s/gc.log.%d.current", dir, to);
	h_writef(fd, "2016-03-24 10:28:33 GC log file has reached the maximum size. Saved as %s\n", arch);
	if (want)
		h_text_add(want, "2016-03-24 10:28:33 GC log file has reached the maximum size. Saved as %s\n", arch);
	close(fd);
	if (unlink(arch) < 0 && errno != ENOENT)
		abort();
	h_rename(cur, arch);
	int nfd = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(nfd >= 0);
	h_writef(nfd, "2016-03-24 10:28:33 GC log file created %s\n", next);
	if (want)
		h_text_add(want, "2016-03-24 10:28:33 GC log file created %s\n", next);
	return nfd;
}

static void test_jdk8_gc_log_rotation(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "gc.log");
	char *c0 = h_path(fx->dir, "gc.log.0.current"), *stale = h_path(fx->dir, "gc.log.3.current");
	/* a leftover of an earlier JVM run with more files: older, never followed */
	int sfd = h_open_append(stale);
	h_lines(sfd, NULL, "stale", 0, 3);
	close(sfd);
	struct timespec old[2] = { { 946684800, 0 }, { 946684800, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, stale, old, 0), 0);

	struct h_text want = { 0 };
	int fd = h_open_append(c0);
	h_lines(fd, &want, "0.100: [GC pause (G1 Evacuation Pause) (young) file0", 0, 3);
	int id = tail_add(fx->t, p, TAIL_FROM_START);   /* the -Xloggc path, which never exists */
	assert_int_equal(fx->r->f[id].lines, 3);
	const char *opened = h_last_note(fx->r, id, TAIL_NOTE_OPENED);
	assert_non_null(opened);
	assert_non_null(strstr(opened, "gc.log.0.current"));
	size_t n = 3;
	/* 0 -> 1 -> 2 -> 0 (wraps: gc.log.0 is removed when .0.current is archived again) */
	int seq[] = { 0, 1, 2, 0, 1 };
	for (int i = 0; i + 1 < 5; i++) {
		fd = jdk8_rotate(fx->dir, fd, seq[i], seq[i + 1], &want);
		char tag[64];
		snprintf(tag, sizeof tag, "%d.000: [GC pause (young) file%d", i + 1, seq[i + 1]);
		h_lines(fd, &want, tag, 0, 4);
		n += 2 + 4;
		if (i < 2)   /* the last two rotations come in one burst, unobserved */
			assert_true(h_pump(fx->t, fx->r, id, n, WAIT_MS));
	}
	assert_true(h_pump(fx->t, fx->r, id, n, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, 4);
	/* the JVM restarted without rotation writes gc.log itself: that wins */
	int gfd = h_open_append(p);
	h_lines(gfd, &want, "plain", 0, 2);
	assert_true(h_pump(fx->t, fx->r, id, n + 2, WAIT_MS));
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	close(gfd);
	close(fd);
	free(want.buf);
	free(p);
	free(c0);
	free(stale);
}

/* --- 5. copytruncate */

static void test_copytruncate(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "access.log"), *p1 = h_path(fx->dir, "access.log.1");
	struct h_text want = { 0 };
	int fd = h_open_append(p);   /* O_APPEND, as nginx and every logger open their log */
	h_lines(fd, &want, "GET /a", 0, 50);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_int_equal(fx->r->f[id].lines, 50);

	/* logrotate copytruncate: cp, then truncate -s0; nothing written in between */
	h_copy(p, p1);
	assert_int_equal(truncate(p, 0), 0);
	h_lines(fd, &want, "GET /b", 0, 10);
	assert_true(h_pump(fx->t, fx->r, id, 60, WAIT_MS));
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_TRUNCATED), 1);

	/* ": > file" (open with O_TRUNC) */
	int z = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(z >= 0);
	close(z);
	h_lines(fd, &want, "GET /c", 0, 10);
	assert_true(h_pump(fx->t, fx->r, id, 70, WAIT_MS));
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_TRUNCATED), 2);

	/* truncated, then written past the old offset before the reader looked:
	 * the size alone cannot tell, the bytes before the offset do */
	assert_int_equal(ftruncate(fd, 0), 0);
	h_lines(fd, &want, "GET /d", 0, 200);
	assert_true(h_pump(fx->t, fx->r, id, 270, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.truncations, 3);
	assert_int_equal(st.rotations, 0);
	close(fd);
	free(want.buf);
	free(p);
	free(p1);
}

/* --- 6. delete + recreate, late file, late directory, symlinks */

static void test_delete_recreate(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "app.log");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "d", 0, 10);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(unlink(p) == 0);
	h_lines(fd, &want, "d", 10, 15);   /* written to the deleted inode, still open */
	assert_true(h_pump(fx->t, fx->r, id, 10, WAIT_MS));
	h_settle(fx->t, 20);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_GONE), 1);
	close(fd);
	fd = h_open_append(p);
	h_lines(fd, &want, "d", 15, 25);
	assert_true(h_pump(fx->t, fx->r, id, 25, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 1);
	close(fd);
	free(want.buf);
	free(p);
}

static void test_file_appears_later(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "later.log");
	/* live mode too: a file that appears later is new, read from its start */
	int id = tail_add(fx->t, p, TAIL_FROM_END);
	assert_true(id >= 0);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_WAITING), 1);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_false(st.open);
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "late", 0, 5);
	assert_true(h_pump(fx->t, fx->r, id, 5, WAIT_MS));
	h_settle(fx->t, 20);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_OPENED), 1);
	close(fd);
	free(want.buf);
	free(p);
}

/* The directory does not exist either: the nearest existing ancestor is
 * watched for the next component, step by step, or all at once (mkdir -p). */
static void test_directory_appears_later(void **state)
{
	struct h_fixture *fx = *state;
	char *a = h_path(fx->dir, "a"), *ab = h_path(fx->dir, "a/b"), *p = h_path(fx->dir, "a/b/app.log");
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(id >= 0);
	const char *w = h_last_note(fx->r, id, TAIL_NOTE_WAITING);
	assert_non_null(w);
	assert_non_null(strstr(w, "directory"));
	assert_int_equal(mkdir(a, 0755), 0);
	h_settle(fx->t, 10);
	assert_int_equal(mkdir(ab, 0755), 0);
	h_settle(fx->t, 10);
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "step", 0, 3);
	assert_true(h_pump(fx->t, fx->r, id, 3, WAIT_MS));

	/* mkdir -p x/y/z + file + lines, all before the reader looks */
	char *q = h_path(fx->dir, "x/y/z/app.log");
	int id2 = tail_add(fx->t, q, TAIL_FROM_START);
	struct h_text want2 = { 0 };
	char *x = h_path(fx->dir, "x"), *xy = h_path(fx->dir, "x/y"), *xyz = h_path(fx->dir, "x/y/z");
	assert_int_equal(mkdir(x, 0755), 0);
	assert_int_equal(mkdir(xy, 0755), 0);
	assert_int_equal(mkdir(xyz, 0755), 0);
	int fd2 = h_open_append(q);
	h_lines(fd2, &want2, "at once", 0, 4);
	assert_true(h_pump(fx->t, fx->r, id2, 4, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	H_ASSERT_TEXT(fx->r, id2, want2.buf, want2.len);
	close(fd);
	close(fd2);
	free(want.buf);
	free(want2.buf);
	free(a);
	free(ab);
	free(p);
	free(q);
	free(x);
	free(xy);
	free(xyz);
}

/* The log directory itself is removed and recreated, three times. Its dead
 * watch leaves a stale entry in libinotifytools (DEPS.md §2); following
 * must go on, and nothing may be printed on stderr. */
static void test_directory_recreated(void **state)
{
	struct h_fixture *fx = *state;
	char *sub = h_path(fx->dir, "logs"), *p = h_path(fx->dir, "logs/app.log");
	char *errlog = h_path(fx->dir, "stderr.txt");
	fflush(stderr);
	int efd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(efd >= 0);
	fx->errlog = strdup(errlog);
	fx->saved_stderr = dup(2);
	dup2(efd, 2);
	close(efd);

	assert_int_equal(mkdir(sub, 0755), 0);
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "round0", 0, 3);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	size_t n = 3;
	for (int round = 1; round <= 3; round++) {
		close(fd);
		assert_int_equal(unlink(p), 0);
		assert_int_equal(rmdir(sub), 0);
		h_settle(fx->t, 20);    /* sees the directory go: waits on the ancestor */
		assert_int_equal(mkdir(sub, 0755), 0);
		fd = h_open_append(p);
		char tag[16];
		snprintf(tag, sizeof tag, "round%d", round);
		h_lines(fd, &want, tag, 0, 3);
		n += 3;
		assert_true(h_pump(fx->t, fx->r, id, n, WAIT_MS));
		/* lines that only the new directory watch can announce */
		h_lines(fd, &want, tag, 3, 6);
		n += 3;
		assert_true(h_pump(fx->t, fx->r, id, n, WAIT_MS));
	}
	h_settle(fx->t, 30);
	/* Once more, without the reader seeing the directory go and come back.
	 * While the reader holds the deleted file open (grace period) it pins
	 * the directory, so its watch lives on and the reader removes it itself.
	 * Here the reader lets go of the file first: then rmdir makes the kernel
	 * drop the watch under libinotifytools, which keeps a stale entry for
	 * the path (a libinotifytools 3.22 bug); the watch of the recreated directory must
	 * still be found. */
	close(fd);
	tail_set_grace_ms(fx->t, 0);
	assert_int_equal(unlink(p), 0);
	h_settle(fx->t, 20);
	assert_int_equal(tail_draining(fx->t, id), 0);
	assert_int_equal(h_live_watches(fx->t), 1);
	assert_int_equal(rmdir(sub), 0);
	assert_true(h_wait_watches(fx->t, 0, WAIT_MS));
	assert_int_equal(mkdir(sub, 0755), 0);
	fd = h_open_append(p);
	h_lines(fd, &want, "unseen", 0, 3);
	assert_true(h_pump(fx->t, fx->r, id, n + 3, WAIT_MS));
	h_lines(fd, &want, "unseen", 3, 6);
	assert_true(h_pump(fx->t, fx->r, id, n + 6, WAIT_MS));
	h_settle(fx->t, 30);

	fflush(stderr);
	dup2(fx->saved_stderr, 2);
	close(fx->saved_stderr);
	fx->saved_stderr = -1;
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct stat st;
	assert_int_equal(stat(errlog, &st), 0);
	assert_int_equal(st.st_size, 0);
	close(fd);
	free(want.buf);
	free(sub);
	free(p);
	free(errlog);
}

/* A symlink to a file that rotates in another directory; then the link is
 * pointed somewhere else (ln -sfn): the path is followed, not the inode. */
static void test_symlink_to_rotating_target(void **state)
{
	struct h_fixture *fx = *state;
	char *real = h_path(fx->dir, "real"), *links = h_path(fx->dir, "links");
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(mkdir(links, 0755), 0);
	char *target = h_path(fx->dir, "real/app.log"), *target1 = h_path(fx->dir, "real/app.log.1");
	char *link = h_path(fx->dir, "links/app.log"), *tmp = h_path(fx->dir, "links/.tmp");
	char *other = h_path(fx->dir, "real/other.log");
	assert_int_equal(symlink("../real/app.log", link), 0);
	struct h_text want = { 0 };
	int fd = h_open_append(target);
	h_lines(fd, &want, "t0", 0, 5);
	int id = tail_add(fx->t, link, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 5, WAIT_MS));
	h_lines(fd, &want, "t0", 5, 8);
	assert_true(h_pump(fx->t, fx->r, id, 8, WAIT_MS));

	/* the target rotates (rename + create) where it lives */
	h_rename(target, target1);
	h_lines(fd, &want, "t0", 8, 10);
	close(fd);
	fd = h_open_append(target);
	h_lines(fd, &want, "t1", 0, 5);
	assert_true(h_pump(fx->t, fx->r, id, 15, WAIT_MS));
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 1);

	/* ln -sfn other.log links/app.log: new link renamed over the old one */
	int ofd = h_open_append(other);
	h_lines(ofd, &want, "other", 0, 4);
	assert_int_equal(symlink(other, tmp), 0);
	h_rename(tmp, link);
	assert_true(h_pump(fx->t, fx->r, id, 19, WAIT_MS));
	/* the previous target is drained for the grace period like any replaced
	 * generation; once that is over it is no longer read */
	tail_set_grace_ms(fx->t, 0);
	tail_check(fx->t);
	assert_int_equal(tail_draining(fx->t, id), 0);
	h_lines(fd, NULL, "not followed any more", 0, 1);
	h_lines(ofd, &want, "other", 4, 6);
	assert_true(h_pump(fx->t, fx->r, id, 21, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 2);
	close(fd);
	close(ofd);
	free(want.buf);
	free(real);
	free(links);
	free(target);
	free(target1);
	free(link);
	free(tmp);
	free(other);
}

/* --- 10. where reading starts */

static void test_from_end_and_from_start(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "live.log"), *q = h_path(fx->dir, "whole.log");
	int fd = h_open_append(p);
	h_lines(fd, NULL, "history", 0, 5);
	h_writef(fd, "being writ");   /* the line in progress when stwtop starts */
	int id = tail_add(fx->t, p, TAIL_FROM_END);
	assert_int_equal(fx->r->f[id].lines, 0);
	h_writef(fd, "ten\nnew 1\n");
	assert_true(h_pump(fx->t, fx->r, id, 2, WAIT_MS));
	static const char live[] = "being written\nnew 1\n";
	h_settle(fx->t, 20);
	H_ASSERT_TEXT(fx->r, id, live, sizeof live - 1);

	/* ends with '\n': starts exactly at the end */
	int qfd = h_open_append(q);
	struct h_text want = { 0 };
	h_lines(qfd, &want, "history", 0, 5);
	int idq = tail_add(fx->t, q, TAIL_FROM_START);
	int idq_end = tail_add(fx->t, q, TAIL_FROM_END);
	assert_int_equal(fx->r->f[idq].lines, 5);
	assert_int_equal(fx->r->f[idq_end].lines, 0);
	h_lines(qfd, &want, "new", 0, 2);
	assert_true(h_pump(fx->t, fx->r, idq, 7, WAIT_MS));
	assert_true(h_pump(fx->t, fx->r, idq_end, 2, WAIT_MS));
	static const char fresh[] = "new 0\nnew 1\n";
	H_ASSERT_TEXT(fx->r, idq, want.buf, want.len);
	H_ASSERT_TEXT(fx->r, idq_end, fresh, sizeof fresh - 1);
	close(fd);
	close(qfd);
	free(want.buf);
	free(p);
	free(q);
}

/* A line without its '\n' when its file is let go (rotated away and the
 * grace period over) or truncated under it: delivered as it is, flagged. */
static void test_partial_line_flag(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "app.log"), *p1 = h_path(fx->dir, "app.log.1");
	int fd = h_open_append(p);
	h_writef(fd, "one\nhalf");
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_int_equal(fx->r->f[id].lines, 1);
	h_rename(p, p1);
	int nfd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	h_settle(fx->t, 10);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 1);
	assert_int_equal(fx->r->f[id].lines, 1);   /* still waiting for its '\n' */
	tail_set_grace_ms(fx->t, 0);
	tail_check(fx->t);
	H_ASSERT_TEXT(fx->r, id, "one\nhalf\n", 9);
	assert_int_equal(fx->r->f[id].partial, 1);

	char *q = h_path(fx->dir, "ct.log");
	int qfd = h_open_append(q);
	h_writef(qfd, "abc\ndef");
	int idq = tail_add(fx->t, q, TAIL_FROM_START);
	assert_int_equal(truncate(q, 0), 0);
	h_writef(qfd, "x\n");
	assert_true(h_pump(fx->t, fx->r, idq, 3, WAIT_MS));
	H_ASSERT_TEXT(fx->r, idq, "abc\ndef\nx\n", 10);
	assert_int_equal(fx->r->f[idq].partial, 1);
	assert_int_equal(h_count_notes(fx->r, idq, TAIL_NOTE_TRUNCATED), 1);
	close(fd);
	close(nfd);
	close(qfd);
	free(p);
	free(p1);
	free(q);
}

struct adder {
	struct h_rec *r;
	struct tail *t;
	char *dir;
	int added;
};

/* "open NAME" in the followed file makes the callback follow NAME too */
static void on_line_adding(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	struct adder *a = ctx;
	h_on_line(a->r, id, line, len, flags);
	if (len > 5 && memcmp(line, "open ", 5) == 0) {
		char name[64];
		util_strlcpy_n(name, sizeof name, line + 5, len - 5);
		char *p = h_path(a->dir, name);
		a->added = tail_add(a->t, p, TAIL_FROM_START);
		free(p);
	}
}

static void on_note_adding(void *ctx, int id, enum tail_note what, const char *msg)
{
	h_on_note(((struct adder *)ctx)->r, id, what, msg);
}

/* tail_add from a line callback, in the middle of a batch that also rotates
 * the file the line came from */
static void test_tail_add_from_callback(void **state)
{
	struct h_fixture *fx = *state;
	/* this test makes its own tailer: the callbacks need to reach it */
	tail_free(fx->t);
	struct adder a = { .r = fx->r, .dir = fx->dir, .added = -1 };
	struct tail_callbacks cb = { on_line_adding, on_note_adding, &a };
	char err[256];
	fx->t = a.t = tail_new(&cb, 0, err, sizeof err);
	assert_non_null(fx->t);
	char *p = h_path(fx->dir, "a.log"), *p1 = h_path(fx->dir, "a.log.1"), *b = h_path(fx->dir, "b.log");
	int bfd = h_open_append(b);
	h_writef(bfd, "b first\n");
	int fd = h_open_append(p);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	h_writef(fd, "open b.log\n");
	h_rename(p, p1);
	h_writef(fd, "a after rename\n");
	close(fd);
	fd = h_open_append(p);
	h_writef(fd, "a new\n");
	assert_true(h_pump(fx->t, fx->r, id, 3, WAIT_MS));
	assert_int_equal(a.added, 1);
	h_writef(bfd, "b second\n");
	assert_true(h_pump(fx->t, fx->r, a.added, 2, WAIT_MS));
	h_settle(fx->t, 20);
	static const char wa[] = "open b.log\na after rename\na new\n", wb[] = "b first\nb second\n";
	H_ASSERT_TEXT(fx->r, id, wa, sizeof wa - 1);
	H_ASSERT_TEXT(fx->r, a.added, wb, sizeof wb - 1);
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_ROTATED), 1);
	close(fd);
	close(bfd);
	free(p);
	free(p1);
	free(b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* --- a writer that rotates while the reader is between reading the events
 * and looking at the path: the resolve finds a generation two rotations on,
 * and the rename of the one in between arrives in the next batch, without a
 * create in that batch. That generation is opened under its new name: every
 * line arrives once (7% of a tight rotation loop's generations were lost
 * before). The line callback plays the concurrent writer, so it is exact. */

struct racer {
	struct h_rec *r;
	const char *p;         /* gc.log */
	const char *dir;
	int fd;                /* the writer's current generation */
	int gen;               /* generations made so far */
	int races;             /* rotations still to make from the callback */
	int burst;             /* rotations in one callback (0: 2) */
	struct h_text *want;
};

static void racer_rotate(struct racer *x)
{
	char *pn = NULL;
	if (asprintf(&pn, "%s.%d", x->p, x->gen) < 0)
		abort();
	close(x->fd);
	h_rename(x->p, pn);    /* unique names: nothing is deleted unread */
	free(pn);
	x->gen++;
	x->fd = open(x->p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(x->fd >= 0);
	char tag[32];
	snprintf(tag, sizeof tag, "gen%d", x->gen);
	h_lines(x->fd, x->want, tag, 0, 2);
}

static void on_line_racing(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	struct racer *x = ctx;
	h_on_line(x->r, id, line, len, flags);
	/* the last line of a generation that was renamed away: the tailer is
	 * draining it inside the resolve of the batch that saw the rename */
	if (x->races > 0 && len > 4 && memcmp(line + len - 2, " 9", 2) == 0) {
		x->races--;
		/* gen N+1 (and more) renamed away before anyone opens them, and the
		 * last one at the path when the resolve looks */
		for (int k = 0; k < (x->burst ? x->burst : 2); k++)
			racer_rotate(x);
	}
}

static void on_note_racing(void *ctx, int id, enum tail_note what, const char *msg)
{
	h_on_note(((struct racer *)ctx)->r, id, what, msg);
}

static void race_rounds(struct h_fixture *fx, int races, int burst)
{
	tail_free(fx->t);
	char *p = h_path(fx->dir, "gc.log");
	struct h_text want = { 0 };
	struct racer x = { .r = fx->r, .p = p, .dir = fx->dir, .races = races, .burst = burst, .want = &want };
	struct tail_callbacks cb = { on_line_racing, on_note_racing, &x };
	char err[256];
	fx->t = tail_new(&cb, 0, err, sizeof err);
	assert_non_null(fx->t);
	x.fd = h_open_append(p);
	h_lines(x.fd, &want, "gen0", 0, 2);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 2, WAIT_MS));
	size_t n = 2;
	for (int round = 0; round < races; round++) {
		/* lines 2..9 of the current generation, unread, then a rotation:
		 * the resolve drains them and the callback rotates twice */
		char tag[32];
		snprintf(tag, sizeof tag, "gen%d", x.gen);
		h_lines(x.fd, &want, tag, 2, 10);
		racer_rotate(&x);
		n += 8 + 2 + (size_t)(burst ? burst : 2) * 2;
		if (!h_pump(fx->t, fx->r, id, n, WAIT_MS))
			fail_msg("round %d: %zu of %zu lines delivered", round, fx->r->f[id].lines, n);
	}
	h_settle(fx->t, 30);
	/* every line once; the generation found late comes after the one the
	 * resolve opened, so compare as sorted sets and count the lines */
	assert_int_equal(fx->r->f[id].lines, n);
	char *got = strndup(fx->r->f[id].buf, fx->r->f[id].len), *exp = strndup(want.buf, want.len);
	char *gl[2048], *el[2048];
	size_t ng = 0, ne = 0;
	for (char *s = strtok(got, "\n"); s && ng < 2048; s = strtok(NULL, "\n"))
		gl[ng++] = s;
	for (char *s = strtok(exp, "\n"); s && ne < 2048; s = strtok(NULL, "\n"))
		el[ne++] = s;
	assert_int_equal(ng, ne);
	qsort(gl, ng, sizeof gl[0], cmp_str);
	qsort(el, ne, sizeof el[0], cmp_str);
	for (size_t i = 0; i < ng; i++)
		assert_string_equal(gl[i], el[i]);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, x.gen);
	free(got);
	free(exp);
	close(x.fd);
	free(want.buf);
	free(p);
}

static void test_rotation_races_the_resolve(void **state)
{
	race_rounds(*state, 20, 2);
}

/* More generations renamed away in one go than are drained at once (8): the
 * one at the path stays current while they are recovered; detached with them
 * it was pushed out and then read again from the start. */
static void test_rotation_burst_races_the_resolve(void **state)
{
	race_rounds(*state, 5, 12);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_append_small_writes, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_append_burst_100k, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_partial_line_three_writes, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_rename_rotation_create, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_xlog_rotation_three_times, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_xlog_rotation_burst_unobserved, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_xlog_rotation_burst_ring_of_one, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_jdk8_gc_log_rotation, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_copytruncate, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_delete_recreate, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_file_appears_later, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_directory_appears_later, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_directory_recreated, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_symlink_to_rotating_target, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_from_end_and_from_start, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_partial_line_flag, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_tail_add_from_callback, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_rotation_races_the_resolve, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_rotation_burst_races_the_resolve, h_setup, h_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
