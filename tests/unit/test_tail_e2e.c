/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tail_e2e.c — the reactor and the tailer together against a writer in
 * another process. For ~3 s the child appends numbered lines to three files,
 * each line in 1-3 write()s with random pauses, and rotates each file in its
 * own style at random moments:
 *   ren.log  rename to ren.log.1 (replacing the previous one), maybe in the
 *            middle of a line; the writer finishes the line and writes a few
 *            more to the old inode, then creates ren.log and switches;
 *   ct.log   copytruncate (cp, then truncate -s0), between lines only;
 *   del.log  unlink, a few more lines to the deleted inode, then recreate.
 * The parent runs loop + tail (+ tail_check every second, as the program
 * does) and asserts that every number arrives exactly once, in order, per
 * file.
 *
 * What no reader can get back is not written: nothing is written between cp
 * and truncate (that is copytruncate's own loss), and a rotation starts only
 * once the parent has delivered what was written to that file so far
 * (shared counters, waited on with a deadline) and the current generation
 * has a complete line (so the parent surely has it open). Two deletions, or two
 * copytruncates, before a reader looks destroy lines nobody can read; the
 * unobserved bursts the tailer can survive are in test_tail.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "stwtop/loop.h"
#include "tail_harness.h"

#define NFILES 3
#define RUN_MS 3000

static const char *const names[NFILES] = { "ren.log", "ct.log", "del.log" };

struct shared {
	uint64_t delivered[NFILES];   /* parent -> child */
};

struct parent {
	struct loop *l;
	struct tail *t;
	struct shared *sh;
	int id[NFILES];
	uint64_t next[NFILES];        /* the number expected next */
	bool ended[NFILES];
	uint64_t end_count[NFILES];
	char error[1024];             /* first violation */
	uint64_t rotations_noted, truncations_noted;
};

static int file_of(const struct parent *p, int id)
{
	for (int i = 0; i < NFILES; i++)
		if (p->id[i] == id)
			return i;
	return -1;
}

static void on_line(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	struct parent *p = ctx;
	int f = file_of(p, id);
	char buf[256];
	util_strlcpy_n(buf, sizeof buf, line, len);
	if (f < 0 || p->error[0])
		return;
	if (flags)
		snprintf(p->error, sizeof p->error, "%s: flags %u on \"%s\"", names[f], flags, buf);
	size_t tl = strlen(names[f]);
	if (len < tl + 2 || memcmp(line, names[f], tl) != 0 || line[tl] != ' ') {
		snprintf(p->error, sizeof p->error, "%s: foreign line \"%s\"", names[f], buf);
		return;
	}
	const char *s = line + tl + 1;
	size_t n = len - tl - 1;
	if (n >= 4 && memcmp(s, "END ", 4) == 0) {
		if (p->ended[f])
			snprintf(p->error, sizeof p->error, "%s: END twice", names[f]);
		p->ended[f] = true;
		util_parse_u64(s + 4, n - 4, &p->end_count[f]);
	} else {
		uint64_t v;
		if (util_parse_u64(s, n, &v) == 0 || v != p->next[f] || p->ended[f]) {
			snprintf(p->error, sizeof p->error, "%s: expected %llu%s, got \"%s\"", names[f],
				 (unsigned long long)p->next[f], p->ended[f] ? " (after END)" : "", buf);
			return;
		}
		p->next[f]++;
		__atomic_store_n(&p->sh->delivered[f], p->next[f], __ATOMIC_RELEASE);
	}
	if (p->ended[0] && p->ended[1] && p->ended[2])
		loop_stop(p->l);
}

static void on_note(void *ctx, int id, enum tail_note what, const char *msg)
{
	struct parent *p = ctx;
	(void)id;
	(void)msg;
	p->rotations_noted += what == TAIL_NOTE_ROTATED;
	p->truncations_noted += what == TAIL_NOTE_TRUNCATED;
	if (what == TAIL_NOTE_ERROR && !p->error[0])
		snprintf(p->error, sizeof p->error, "error note: %s", msg);
}

static void on_deadline(void *ctx)
{
	struct parent *p = ctx;
	if (!p->error[0])
		snprintf(p->error, sizeof p->error, "deadline: not every END arrived (next %llu/%llu/%llu)",
			 (unsigned long long)p->next[0], (unsigned long long)p->next[1], (unsigned long long)p->next[2]);
	loop_stop(p->l);
}

/* ---- the child: the writer */

static uint64_t rnd_state;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state % n);
}

static void pause_us(uint32_t us)
{
	struct timespec ts = { 0, (long)us * 1000 };
	nanosleep(&ts, NULL);
}

static void wait_delivered(struct shared *sh, int f, uint64_t written)
{
	int64_t end = util_mono_ms() + 20000;
	while (__atomic_load_n(&sh->delivered[f], __ATOMIC_ACQUIRE) < written && util_mono_ms() < end)
		pause_us(200);
}

struct wfile {
	char *path, *rotated;
	int fd;
	uint64_t written;
	uint64_t gen_written;   /* complete lines in the current generation */
};

static int open_new(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(3);
	return fd;
}

static void rotate_rename_or_delete(struct wfile *w, int f, struct shared *sh, bool rename_it)
{
	wait_delivered(sh, f, w->written);
	if (rename_it ? rename(w->path, w->rotated) != 0 : unlink(w->path) != 0)
		_exit(4);
}

static void child(const char *dir, struct shared *sh, uint64_t seed)
{
	rnd_state = seed;
	struct wfile w[NFILES];
	for (int f = 0; f < NFILES; f++) {
		w[f].path = h_path(dir, names[f]);
		if (asprintf(&w[f].rotated, "%s.1", w[f].path) < 0)
			_exit(2);
		w[f].fd = open_new(w[f].path);
		w[f].written = 0;
		w[f].gen_written = 0;
	}
	int pending_switch[NFILES] = { -1, -1, -1 };   /* lines left before reopening */
	int64_t end = util_mono_ms() + RUN_MS;
	while (util_mono_ms() < end) {
		int f = (int)rnd(NFILES);
		char line[400];
		int pad = (int)rnd(120);
		int n = snprintf(line, sizeof line, "%s %llu %lld %.*s\n", names[f], (unsigned long long)w[f].written,
				 (long long)util_mono_ms(), pad,
				 "................................................................................"
				 "........................................");
		int pieces = 1 + (int)rnd(3), off = 0;
		for (int k = 0; k < pieces; k++) {
			int len = k == pieces - 1 ? n - off : (int)rnd((uint32_t)(n - off));
			h_write(w[f].fd, line + off, (size_t)len);
			off += len;
			if (k < pieces - 1) {
				pause_us(rnd(1500));
				/* rename/delete may land in the middle of a line: the
				 * writer finishes it on the inode it holds */
				if (f != 1 && pending_switch[f] < 0 && w[f].gen_written > 0 && rnd(40) == 0) {
					rotate_rename_or_delete(&w[f], f, sh, f == 0);
					pending_switch[f] = (int)rnd(4);
				}
			}
		}
		w[f].written++;
		w[f].gen_written++;
		if (pending_switch[f] >= 0 && pending_switch[f]-- == 0) {
			close(w[f].fd);     /* the app reopens its log (HUP) */
			w[f].fd = open_new(w[f].path);
			w[f].gen_written = 0;
		} else if (pending_switch[f] < 0 && rnd(30) == 0) {
			if (f == 1) {
				/* copytruncate; nothing written between cp and truncate */
				wait_delivered(sh, f, w[f].written);
				h_copy(w[f].path, w[f].rotated);
				if (truncate(w[f].path, 0) != 0)
					_exit(5);
			} else {
				rotate_rename_or_delete(&w[f], f, sh, f == 0);
				pending_switch[f] = (int)rnd(4);
			}
		}
		pause_us(rnd(2000));
	}
	for (int f = 0; f < NFILES; f++) {
		if (pending_switch[f] >= 0) {
			close(w[f].fd);
			w[f].fd = open_new(w[f].path);
		}
		char line[64];
		int n = snprintf(line, sizeof line, "%s END %llu\n", names[f], (unsigned long long)w[f].written);
		h_write(w[f].fd, line, (size_t)n);
		close(w[f].fd);
	}
	_exit(0);
}

static void test_writer_process_with_rotations(void **state)
{
	(void)state;
	char *dir = h_tmpdir();
	struct shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof *sh);
	struct parent *p = calloc(1, sizeof *p);
	p->sh = sh;
	p->l = loop_new();
	struct tail_callbacks cb = { on_line, on_note, p };
	char err[256];
	p->t = tail_new(&cb, 0, err, sizeof err);
	assert_non_null(p->t);
	for (int f = 0; f < NFILES; f++) {
		char *path = h_path(dir, names[f]);
		p->id[f] = tail_add(p->t, path, TAIL_FROM_START);   /* not there yet */
		assert_true(p->id[f] >= 0);
		free(path);
	}
	assert_int_equal(loop_add_fd(p->l, tail_fd(p->t), POLLIN, h_loop_dispatch, p->t), 0);
	assert_true(loop_add_timer(p->l, 1000, 1000, h_loop_check, p->t) >= 0);
	assert_true(loop_add_timer(p->l, 60000, 0, on_deadline, p) >= 0);

	uint64_t seed = (uint64_t)util_now_ms() * 2654435761ULL | 1;
	const char *env = getenv("STWTOP_E2E_SEED");
	if (env)
		seed = strtoull(env, NULL, 0);
	print_message("seed %llu (STWTOP_E2E_SEED to replay)\n", (unsigned long long)seed);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		child(dir, sh, seed);
	assert_int_equal(loop_run(p->l), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);

	for (int f = 0; f < NFILES; f++) {
		struct tail_file_stats st;
		tail_stats(p->t, p->id[f], &st);
		print_message("%-8s %6llu lines, %3llu rotations, %3llu truncations\n", names[f],
			      (unsigned long long)p->next[f], (unsigned long long)st.rotations,
			      (unsigned long long)st.truncations);
	}
	if (p->error[0])
		fail_msg("%s", p->error);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	for (int f = 0; f < NFILES; f++) {
		assert_true(p->ended[f]);
		assert_int_equal(p->next[f], p->end_count[f]);
		assert_true(p->next[f] > 100);
	}
	/* each style did happen */
	struct tail_file_stats st;
	tail_stats(p->t, p->id[0], &st);
	assert_true(st.rotations > 0);
	tail_stats(p->t, p->id[1], &st);
	assert_true(st.truncations > 0);
	tail_stats(p->t, p->id[2], &st);
	assert_true(st.rotations > 0);

	tail_free(p->t);
	loop_free(p->l);
	free(p);
	munmap(sh, sizeof *sh);
	h_rm_rf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_process_with_rotations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
