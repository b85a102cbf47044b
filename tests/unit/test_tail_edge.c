/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tail_edge.c — the tailer at its edges, on real files: 1 MiB+ lines and
 * cut lines, NUL and invalid UTF-8, read errors with a clear "path: reason"
 * while other files keep following, a FIFO, permission denied, 10 000
 * rotations without an fd leak, an inotify queue overflow, the
 * libinotifytools singleton and its stderr. */
#include <setjmp.h>
#include <time.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include <inotifytools/inotifytools.h>
#include <sys/inotify.h>

#include "tail_harness.h"

#define WAIT_MS 10000
#define MIB (1024 * 1024)

/* --- 7. long lines, junk */

static void test_long_lines(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "long.log");
	int fd = h_open_append(p);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	char *big = malloc(3 * MIB);
	struct h_text want = { 0 };

	/* exactly max_line: whole */
	memset(big, 'a', MIB);
	h_write(fd, big, MIB);
	h_write(fd, "\n", 1);
	assert_true(h_pump(fx->t, fx->r, id, 1, WAIT_MS));
	assert_int_equal(fx->r->f[id].cut, 0);
	/* max_line + 1000: its head, cut */
	memset(big, 'b', MIB + 1000);
	h_write(fd, big, MIB + 1000);
	h_write(fd, "\n", 1);
	assert_true(h_pump(fx->t, fx->r, id, 2, WAIT_MS));
	assert_int_equal(fx->r->f[id].cut, 1);
	/* 3 MiB in 48 writes of 64 KiB, the reader running after each */
	memset(big, 'c', 3 * MIB);
	for (int i = 0; i < 48; i++) {
		h_write(fd, big + (size_t)i * 65536, 65536);
		h_settle(fx->t, 0);
	}
	h_write(fd, "\nafter\n", 7);
	assert_true(h_pump(fx->t, fx->r, id, 4, WAIT_MS));
	h_settle(fx->t, 30);

	size_t wl = 3 * (MIB + 1) + 6;
	char *w = malloc(wl);
	memset(w, 'a', MIB);
	w[MIB] = '\n';
	memset(w + MIB + 1, 'b', MIB);
	w[2 * MIB + 1] = '\n';
	memset(w + 2 * MIB + 2, 'c', MIB);
	w[3 * MIB + 2] = '\n';
	memcpy(w + 3 * MIB + 3, "after\n", 6);
	H_ASSERT_TEXT(fx->r, id, w, wl);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.lines, 4);
	assert_int_equal(st.cut, 2);
	assert_int_equal(fx->r->f[id].cut, 2);
	assert_int_equal(st.bytes, 5 * MIB + 1000 + 2 + 7);

	/* live mode inside a line longer than what is looked back at: that
	 * line's head is gone, so it is skipped whole, the next one is fine */
	char *q = h_path(fx->dir, "longlive.log");
	int qfd = h_open_append(q);
	h_write(qfd, big, 200 * 1024);
	int idq = tail_add(fx->t, q, TAIL_FROM_END);
	h_write(qfd, "tail of it\nnext\n", 16);
	assert_true(h_pump(fx->t, fx->r, idq, 1, WAIT_MS));
	h_settle(fx->t, 20);
	H_ASSERT_TEXT(fx->r, idq, "next\n", 5);
	close(qfd);
	free(q);
	free(w);
	free(big);
	free(want.buf);
	close(fd);
	free(p);
}

static void test_nul_and_invalid_utf8(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "junk.log");
	int fd = h_open_append(p);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	static const char junk[] = "a\0b\n"
				   "\xff\xfe\xc3(\xed\xa0\x80\n"
				   "\x1b[31mred\x1b[0m\n"
				   "\0\0\0\0\n"
				   "\n";
	h_write(fd, junk, sizeof junk - 1);
	assert_true(h_pump(fx->t, fx->r, id, 5, WAIT_MS));
	H_ASSERT_TEXT(fx->r, id, junk, sizeof junk - 1);

	/* 4 MiB of pseudo-random bytes (no '\r' before a '\n', which the line
	 * splitter strips): every byte comes back, split at its '\n's */
	size_t n = 4 * MIB;
	char *rnd = malloc(n);
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t lines = 0;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		rnd[i] = (char)(x >> 56);
		if (rnd[i] == '\r')
			rnd[i] = 'r';
	}
	rnd[n - 1] = '\n';
	for (size_t i = 0; i < n; i++)
		lines += rnd[i] == '\n';
	h_write(fd, rnd, n);
	assert_true(h_pump(fx->t, fx->r, id, 5 + lines, WAIT_MS));
	h_settle(fx->t, 20);
	char *w = malloc(sizeof junk - 1 + n);
	memcpy(w, junk, sizeof junk - 1);
	memcpy(w + sizeof junk - 1, rnd, n);
	H_ASSERT_TEXT(fx->r, id, w, sizeof junk - 1 + n);
	free(w);
	free(rnd);
	close(fd);
	free(p);
}

/* --- 8. read errors: a clear message, the others keep following */

static void assert_note_is(const struct h_rec *r, int id, enum tail_note what, const char *path, const char *reason)
{
	const char *m = h_last_note(r, id, what);
	assert_non_null(m);
	char want[1024];
	snprintf(want, sizeof want, "%s: %s", path, reason);
	assert_string_equal(m, want);
}

static void test_read_errors(void **state)
{
	struct h_fixture *fx = *state;
	char *good = h_path(fx->dir, "good.log"), *adir = h_path(fx->dir, "adir");
	char *reg = h_path(fx->dir, "regular.txt"), *notdir = h_path(fx->dir, "regular.txt/app.log");
	char *loop1 = h_path(fx->dir, "loop1"), *loop2 = h_path(fx->dir, "loop2");
	struct h_text want = { 0 };
	int gfd = h_open_append(good);
	h_lines(gfd, &want, "good", 0, 3);
	int idg = tail_add(fx->t, good, TAIL_FROM_START);

	assert_int_equal(mkdir(adir, 0755), 0);
	int ida = tail_add(fx->t, adir, TAIL_FROM_START);
	assert_true(ida >= 0);
	assert_note_is(fx->r, ida, TAIL_NOTE_ERROR, adir, "Is a directory");

	close(h_open_append(reg));
	int idn = tail_add(fx->t, notdir, TAIL_FROM_START);
	assert_note_is(fx->r, idn, TAIL_NOTE_ERROR, notdir, "Not a directory");

	int idz = tail_add(fx->t, "/dev/zero", TAIL_FROM_START);
	assert_note_is(fx->r, idz, TAIL_NOTE_ERROR, "/dev/zero", "not a regular file");
	int idnull = tail_add(fx->t, "/dev/null", TAIL_FROM_START);
	assert_note_is(fx->r, idnull, TAIL_NOTE_ERROR, "/dev/null", "not a regular file");

	assert_int_equal(symlink("loop2", loop1), 0);
	assert_int_equal(symlink("loop1", loop2), 0);
	int idl = tail_add(fx->t, loop1, TAIL_FROM_START);
	assert_note_is(fx->r, idl, TAIL_NOTE_ERROR, loop1, "Too many levels of symbolic links");

	/* the good one goes on; errors are not repeated by the periodic check */
	h_lines(gfd, &want, "good", 3, 10);
	assert_true(h_pump(fx->t, fx->r, idg, 10, WAIT_MS));
	for (int i = 0; i < 3; i++)
		tail_check(fx->t);
	H_ASSERT_TEXT(fx->r, idg, want.buf, want.len);
	int ids[] = { ida, idn, idz, idnull, idl };
	for (size_t i = 0; i < ARRAY_LEN(ids); i++) {
		struct tail_file_stats st;
		tail_stats(fx->t, ids[i], &st);
		assert_int_equal(h_count_notes(fx->r, ids[i], TAIL_NOTE_ERROR), 1);
		assert_int_equal(st.errors, 1);
		assert_false(st.open);
		assert_int_equal(fx->r->f[ids[i]].lines, 0);
	}
	/* fixed under it: the directory becomes a log file, the loop a link to one */
	assert_int_equal(rmdir(adir), 0);
	int afd = h_open_append(adir);
	h_writef(afd, "now a file\n");
	assert_true(h_pump(fx->t, fx->r, ida, 1, WAIT_MS));
	assert_int_equal(h_count_notes(fx->r, ida, TAIL_NOTE_OPENED), 1);
	/* a link in the middle of a chain is not watched (only the path's own
	 * directory and the final target's are): the periodic check finds it */
	assert_int_equal(unlink(loop2), 0);
	assert_int_equal(symlink("good.log", loop2), 0);
	tail_check(fx->t);
	assert_true(h_pump(fx->t, fx->r, idl, 10, WAIT_MS));
	H_ASSERT_TEXT(fx->r, idl, want.buf, want.len);
	close(afd);
	close(gfd);
	free(want.buf);
	free(good);
	free(adir);
	free(reg);
	free(notdir);
	free(loop1);
	free(loop2);
}

static void test_fifo(void **state)
{
	struct h_fixture *fx = *state;
	char *p = h_path(fx->dir, "pipe");
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(60);   /* a blocking read would hang here: fail loudly instead */
	int id = tail_add(fx->t, p, TAIL_FROM_START);   /* no writer yet: must not block */
	assert_int_equal(h_count_notes(fx->r, id, TAIL_NOTE_OPENED), 1);
	tail_check(fx->t);
	int w = open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC);   /* succeeds: a reader exists */
	assert_true(w >= 0);
	h_writef(w, "fi");
	h_settle(fx->t, 10);   /* half a line in the pipe, nothing more: no block */
	assert_int_equal(fx->r->f[id].lines, 0);
	h_writef(w, "fo 1\nfifo 2\n");
	assert_true(h_pump(fx->t, fx->r, id, 2, WAIT_MS));
	close(w);   /* EOF for the reader */
	h_settle(fx->t, 10);
	tail_check(fx->t);
	w = open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC);   /* the next writer */
	assert_true(w >= 0);
	h_writef(w, "fifo 3\n");
	assert_true(h_pump(fx->t, fx->r, id, 3, WAIT_MS));
	h_settle(fx->t, 20);
	alarm(0);
	static const char want[] = "fifo 1\nfifo 2\nfifo 3\n";
	H_ASSERT_TEXT(fx->r, id, want, sizeof want - 1);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.truncations + st.rotations + st.errors, 0);
	close(w);
	free(p);
}

/* Permission denied. We run as root, who can read anything: the file is
 * opened with the effective uid dropped to nobody (seteuid, restored after). */
static void test_permission_denied(void **state)
{
	struct h_fixture *fx = *state;
	char *secret = h_path(fx->dir, "secret.log"), *good = h_path(fx->dir, "good.log");
	assert_int_equal(chmod(fx->dir, 0755), 0);
	int sfd = open(secret, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	assert_true(sfd >= 0);
	assert_int_equal(fchmod(sfd, 0600), 0);
	struct h_text ws = { 0 }, wg = { 0 };
	h_lines(sfd, &ws, "secret", 0, 3);
	int gfd = h_open_append(good);
	h_lines(gfd, &wg, "good", 0, 3);

	bool dropped = false;
	if (geteuid() == 0) {
		if (seteuid(65534) != 0) {
			print_message("skipped: cannot seteuid(65534): %s\n", strerror(errno));
			skip();
		}
		dropped = true;
	} else {
		assert_int_equal(fchmod(sfd, 0), 0);
	}
	int ids = tail_add(fx->t, secret, TAIL_FROM_START);
	int idg = tail_add(fx->t, good, TAIL_FROM_START);
	if (dropped)
		assert_int_equal(seteuid(0), 0);
	assert_note_is(fx->r, ids, TAIL_NOTE_ERROR, secret, "Permission denied");
	assert_int_equal(fx->r->f[ids].lines, 0);
	assert_int_equal(fx->r->f[idg].lines, 3);
	h_lines(gfd, &wg, "good", 3, 6);
	assert_true(h_pump(fx->t, fx->r, idg, 6, WAIT_MS));
	/* chmod fixes it: IN_ATTRIB makes it retried at once */
	assert_int_equal(fchmod(sfd, 0644), 0);
	assert_true(h_pump(fx->t, fx->r, ids, 3, WAIT_MS));
	assert_int_equal(h_count_notes(fx->r, ids, TAIL_NOTE_OPENED), 1);
	h_settle(fx->t, 20);
	H_ASSERT_TEXT(fx->r, ids, ws.buf, ws.len);
	H_ASSERT_TEXT(fx->r, idg, wg.buf, wg.len);
	close(sfd);
	close(gfd);
	free(ws.buf);
	free(wg.buf);
	free(secret);
	free(good);
}

/* --- 9. 10 000 rotations: every line once, no descriptor left behind. On
 * tmpfs when there is one (a rotation costs ~1 ms on this VM's ext4, 17 us on
 * tmpfs), which also has inotify followed on a second file system type. */

static void test_10000_rotations_no_fd_leak(void **state)
{
	struct h_fixture *fx = *state;
	char *dir = h_tmpdir_in("/dev/shm");
	char *p = h_path(dir, "gc.log"), *p0 = h_path(dir, "gc.log.0");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "rotation", 0, 1);
	close(fd);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	int before = h_count_fds();
	for (int i = 1; i <= 10000; i++) {
		h_rename(p, p0);   /* replaces (and so deletes) the previous gc.log.0 */
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		h_lines(fd, &want, "rotation", i, i + 1);
		close(fd);
		if (!h_pump(fx->t, fx->r, id, (size_t)i + 1, WAIT_MS))
			fail_msg("rotation %d: line not delivered", i);
	}
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, 10000);
	assert_int_equal(st.lines, 10001);
	/* old generations are bounded while draining, and all let go after */
	assert_true(tail_draining(fx->t, id) <= 8);
	tail_set_grace_ms(fx->t, 0);
	tail_check(fx->t);
	assert_int_equal(tail_draining(fx->t, id), 0);
	assert_int_equal(h_count_fds(), before);
	assert_int_equal(h_live_watches(fx->t), 1);
	h_rm_rf(dir);
	free(dir);
	free(want.buf);
	free(p);
	free(p0);
}

/* --- inotify queue overflow: everything is looked at again */

/* Fill the inotify queue with other files' events (max_queued_events + 100,
 * each distinct, none merged): what happens next has no event. False (and
 * the test skips) where the queue is too big to fill quickly. */
static bool fill_inotify_queue(const char *dir)
{
	int limit = 16384;
	FILE *mq = fopen("/proc/sys/fs/inotify/max_queued_events", "r");
	if (mq) {
		if (fscanf(mq, "%d", &limit) != 1)
			limit = 16384;
		fclose(mq);
	}
	if (limit > 200000) {
		print_message("skipped: max_queued_events is %d\n", limit);
		return false;
	}
	char *junk = h_path(dir, "junk"), *tmp = h_path(dir, "t");
	assert_int_equal(mkdir(junk, 0755), 0);
	for (int i = 0; i < limit + 100; i++) {
		char name[64];
		snprintf(name, sizeof name, "n%d", i);
		int j = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);   /* CREATE + ... */
		close(j);
		char *dst = h_path(junk, name);
		h_rename(tmp, dst);   /* ... MOVED_FROM: each distinct, none merged */
		free(dst);
	}
	free(junk);
	free(tmp);
	return true;
}

static void test_queue_overflow_rescans(void **state)
{
	struct h_fixture *fx = *state;
	char *dir = h_tmpdir_in("/dev/shm");   /* 16 000+ renames: fast on tmpfs */
	char *p = h_path(dir, "app.log"), *p1 = h_path(dir, "app.log.1");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "o", 0, 10);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_int_equal(fx->r->f[id].lines, 10);
	/* more distinct events than the queue holds (16384 here), unread */
	if (!fill_inotify_queue(dir))
		skip();
	/* what happens now has no event: the queue is full */
	h_lines(fd, &want, "o", 10, 20);
	h_rename(p, p1);
	h_lines(fd, &want, "o", 20, 25);
	close(fd);
	fd = h_open_append(p);
	h_lines(fd, &want, "o", 25, 35);
	assert_true(h_pump(fx->t, fx->r, id, 35, WAIT_MS));
	h_settle(fx->t, 30);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_true(tail_overflows(fx->t) >= 1);
	struct tail_file_stats st;
	tail_stats(fx->t, id, &st);
	assert_int_equal(st.rotations, 1);
	close(fd);
	h_rm_rf(dir);
	free(dir);
	free(want.buf);
	free(p);
	free(p1);
}

/* --- overflow while the file rotates: the generations renamed away in the
 * dark (no event for them) are found by name in the directory and read, in
 * rename order, once; a rotated file that was there before is history */

static void test_overflow_during_rotations(void **state)
{
	struct h_fixture *fx = *state;
	char *dir = h_tmpdir_in("/dev/shm");
	char *p = h_path(dir, "gc.log"), *old = h_path(dir, "gc.log.old");
	struct h_text want = { 0 };
	int fd = h_open_append(old);
	h_lines(fd, NULL, "history", 0, 3);   /* an earlier run's log: never read */
	close(fd);
	fd = h_open_append(p);
	h_lines(fd, &want, "gen0", 0, 3);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 3, WAIT_MS));
	/* the queue fills up with other files' events first */
	if (!fill_inotify_queue(dir))
		skip();
	/* five rotations nobody hears of: gen0 -> gc.log.1, gen1 -> gc.log.2, ... */
	for (int g = 1; g <= 5; g++) {
		h_lines(fd, &want, g == 1 ? "gen0" : "gen", g == 1 ? 3 : g * 10, g == 1 ? 5 : g * 10 + 2);
		close(fd);
		char *pn = NULL;
		assert_true(asprintf(&pn, "%s.%d", p, g) > 0);
		h_rename(p, pn);
		free(pn);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		if (g == 5)
			h_lines(fd, &want, "gen", 60, 63);   /* the one at the path now */
		struct timespec ts = {0, 2000000};      /* distinct ctimes, in rename order */
		nanosleep(&ts, NULL);
	}
	assert_true(h_pump(fx->t, fx->r, id, 3 + 2 + 4 * 2 + 3, WAIT_MS));
	h_settle(fx->t, 50);
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_true(tail_overflows(fx->t) >= 1);
	assert_non_null(h_last_note(fx->r, id, TAIL_NOTE_ROTATED));
	close(fd);
	h_rm_rf(dir);
	free(dir);
	free(old);
	free(want.buf);
	free(p);
}

/* --- with a budget (tail_set_budget), the rescan's generations and a large
 * backlog are read a slice per pass: no pass reads much more than the budget
 * (one read() of 64 KB past it at most), tail_pending says there is more
 * with no event to tell it, and the lines come whole, in order, once */

static void test_overflow_catch_up_in_slices(void **state)
{
	struct h_fixture *fx = *state;
	char *dir = h_tmpdir_in("/dev/shm");
	char *p = h_path(dir, "gc.log");
	struct h_text want = { 0 };
	int fd = h_open_append(p);
	h_lines(fd, &want, "gen0", 0, 3);
	int id = tail_add(fx->t, p, TAIL_FROM_START);
	assert_true(h_pump(fx->t, fx->r, id, 3, WAIT_MS));
	const size_t budget = 4096;
	tail_set_budget(fx->t, budget);
	if (!fill_inotify_queue(dir))
		skip();
	size_t total = 3;
	for (int g = 1; g <= 300; g++) {   /* rotations in the dark: 300 generations */
		h_lines(fd, &want, "gen", g * 100, g * 100 + 40);
		total += 40;
		close(fd);
		char *pn = NULL;
		assert_true(asprintf(&pn, "%s.%d", p, g) > 0);
		h_rename(p, pn);
		free(pn);
		fd = h_open_append(p);
	}
	h_lines(fd, &want, "big", 0, 60000);   /* ~600 KB at the path at once */
	total += 60000;
	int passes = 0;
	bool sliced = false;
	while (fx->r->f[id].lines < total && passes < 100000) {
		size_t before = fx->r->f[id].len;
		tail_dispatch(fx->t);
		passes++;
		assert_true(fx->r->f[id].len - before <= budget + 64 * 1024 + 4096);
		if (tail_pending(fx->t))
			sliced = true;
		else if (fx->r->f[id].lines < total)
			h_pump(fx->t, fx->r, id, total, 100);   /* the rest has an event */
	}
	assert_true(sliced);
	assert_true(passes > 10);
	h_settle(fx->t, 50);
	assert_false(tail_pending(fx->t));
	H_ASSERT_TEXT(fx->r, id, want.buf, want.len);
	assert_true(tail_overflows(fx->t) >= 1);
	close(fd);
	h_rm_rf(dir);
	free(dir);
	free(want.buf);
	free(p);
}

/* --- the libinotifytools singleton */

static void test_singleton_and_own_watches(void **state)
{
	struct h_fixture *fx = *state;
	char *a = h_path(fx->dir, "a.log");
	close(h_open_append(a));
	int fd = tail_inotify_fd();
	/* the library's descriptor is its inotify instance, non-blocking, CLOEXEC;
	 * what the reactor polls is an epoll set around it */
	assert_true(fd >= 0 && fd != tail_fd(fx->t));
	char link[64], what[64] = "";
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	assert_true(readlink(link, what, sizeof what - 1) > 0);
	assert_string_equal(what, "anon_inode:inotify");
	assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);

	/* a second live tailer is refused, and says why */
	char err[512];
	struct tail_callbacks cb = { h_on_line, h_on_note, fx->r };
	errno = 0;
	assert_null(tail_new(&cb, 0, err, sizeof err));
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(err, "one tailer at a time"));

	assert_true(tail_add(fx->t, a, TAIL_FROM_START) >= 0);
	assert_int_equal(h_live_watches(fx->t), 1);
	tail_free(fx->t);   /* removes its own watches, keeps the instance */
	fx->t = NULL;
	snprintf(link, sizeof link, "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(link, "r");
	assert_non_null(f);
	char line[512];
	int watches = 0;
	while (fgets(line, sizeof line, f))
		watches += strncmp(line, "inotify wd:", 11) == 0;
	fclose(f);
	assert_int_equal(watches, 0);

	/* the next tailer reuses it, and works */
	struct h_rec *r2 = h_rec_new();
	fx->t = h_tail(r2, 0);
	assert_int_equal(tail_inotify_fd(), fd);
	int id = tail_add(fx->t, a, TAIL_FROM_START);
	int w = h_open_append(a);
	h_writef(w, "second tailer\n");
	assert_true(h_pump(fx->t, r2, id, 1, WAIT_MS));
	H_ASSERT_TEXT(r2, id, "second tailer\n", 14);
	tail_free(fx->t);
	fx->t = h_tail(fx->r, 0);   /* for teardown, with the fixture's recorder */
	h_rec_free(r2);
	close(w);
	free(a);
}

/* libinotifytools prints its errors on stderr; tail_set_stderr_file sends
 * them (and all of fd 2) to a file. Provoked in a child, so the test
 * process keeps its stderr: a watch removed after the kernel dropped it. */
static void test_stderr_file(void **state)
{
	struct h_fixture *fx = *state;
	char *log = h_path(fx->dir, "stwtop-stderr.log"), *d = h_path(fx->dir, "gone");
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (tail_set_stderr_file(log) != 0 || mkdir(d, 0755) != 0 ||
		    !inotifytools_watch_file(d, IN_DELETE_SELF))
			_exit(2);
		char key[512];
		snprintf(key, sizeof key, "%s/", d);
		int wd = inotifytools_wd_from_filename(key);
		rmdir(d);
		int64_t end = util_mono_ms() + WAIT_MS;
		while (h_live_watches(fx->t) > 0 && util_mono_ms() < end)
			usleep(1000);
		inotifytools_remove_watch_by_wd(wd);   /* prints "Failed to remove watch ..." */
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	char buf[1024] = "";
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "Failed to remove watch"));
	struct stat st;
	assert_int_equal(stat(log, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(tail_set_stderr_file("/nonexistent-dir/x.log"), -ENOENT);
	free(log);
	free(d);
}

/* The tailer reports through the note callback only: outside comments and
 * string literals its source has no call that writes to stdout or stderr. */
static void test_tail_source_never_prints(void **state)
{
	(void)state;
	FILE *f = fopen(STWTOP_SOURCE_DIR "/core/sources/tail.c", "r");
	assert_non_null(f);
	static char src[1 << 20];
	size_t n = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	assert_true(n > 1000 && n < sizeof src - 1);
	/* blank out comments and literals, keep the code */
	for (size_t i = 0; i < n; i++) {
		if (src[i] == '/' && src[i + 1] == '*') {
			while (i < n && !(src[i] == '*' && src[i + 1] == '/'))
				src[i++] = ' ';
			src[i] = src[i + 1] = ' ';
		} else if (src[i] == '"' || src[i] == '\'') {
			char q = src[i];
			src[i++] = ' ';
			while (i < n && src[i] != q) {
				if (src[i] == '\\')
					src[i++] = ' ';
				src[i++] = ' ';
			}
			src[i] = ' ';
		}
	}
	src[n] = '\0';
	static const char *bad[] = { "fprintf", "dprintf", "perror", "puts", "putchar", "fputs",
				     "fwrite", "stdout", "stderr", "printf" };
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		size_t bl = strlen(bad[i]);
		for (const char *p = src; (p = strstr(p, bad[i])) != NULL; p++) {
			bool is_stream = bad[i][0] == 's' && bad[i][1] == 't';   /* stdout, stderr */
			bool word = (p == src || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
				    (is_stream ? !(isalnum((unsigned char)p[bl]) || p[bl] == '_') : p[bl] == '(');
			if (word)
				fail_msg("core/tail.c writes output: ...%.60s", p > src + 20 ? p - 20 : src);
		}
	}
	if (strstr(src, "write(1") || strstr(src, "write(2") || strstr(src, "write(STDERR"))
		fail_msg("core/tail.c writes to fd 1 or 2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_long_lines, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_nul_and_invalid_utf8, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_read_errors, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_fifo, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_permission_denied, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_10000_rotations_no_fd_leak, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_queue_overflow_rescans, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_overflow_during_rotations, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_overflow_catch_up_in_slices, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_singleton_and_own_watches, h_setup, h_teardown),
		cmocka_unit_test_setup_teardown(test_stderr_file, h_setup, h_teardown),
		cmocka_unit_test(test_tail_source_never_prints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
