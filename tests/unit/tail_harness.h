/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tail_harness.h — shared helpers of the tailer tests: a temp dir, real
 * writes/renames, a recorder of delivered lines and notes, and pumps that
 * wait on the tailer's descriptor with a deadline (never a fixed sleep).
 * Included by test_tail*.c only; everything is static inline so a test
 * that does not use a helper does not warn. */
#ifndef STWTOP_TAIL_HARNESS_H
#define STWTOP_TAIL_HARNESS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stwtop/tail.h"
#include "stwtop/util.h"

#define H_MAX_IDS 16
#define H_MAX_NOTES 4096

struct h_note {
	int id;
	enum tail_note what;
	char msg[600];
};

/* Everything delivered, per file id: the lines joined with '\n' (bytes, so
 * NULs survive), their count and flags. */
struct h_rec {
	struct {
		char *buf;
		size_t len, cap, lines, cut, partial;
	} f[H_MAX_IDS];
	struct h_note notes[H_MAX_NOTES];
	size_t nnotes;
};

static inline void h_on_line(void *ctx, int id, const char *line, size_t len, unsigned flags)
{
	struct h_rec *r = ctx;
	if (id < 0 || id >= H_MAX_IDS)
		abort();
	__typeof__(r->f[0]) *f = &r->f[id];
	if (f->len + len + 1 > f->cap) {
		size_t cap = f->cap ? f->cap : 4096;
		while (cap < f->len + len + 1)
			cap *= 2;
		f->buf = realloc(f->buf, cap);
		if (!f->buf)
			abort();
		f->cap = cap;
	}
	memcpy(f->buf + f->len, line, len);
	f->buf[f->len + len] = '\n';
	f->len += len + 1;
	f->lines++;
	if (flags & TAIL_LINE_CUT)
		f->cut++;
	if (flags & TAIL_LINE_PARTIAL)
		f->partial++;
}

static inline void h_on_note(void *ctx, int id, enum tail_note what, const char *msg)
{
	struct h_rec *r = ctx;
	if (r->nnotes == H_MAX_NOTES)
		return;
	struct h_note *n = &r->notes[r->nnotes++];
	n->id = id;
	n->what = what;
	snprintf(n->msg, sizeof n->msg, "%s", msg);
}

static inline struct h_rec *h_rec_new(void)
{
	struct h_rec *r = calloc(1, sizeof *r);
	if (!r)
		abort();
	return r;
}

static inline void h_rec_free(struct h_rec *r)
{
	for (int i = 0; i < H_MAX_IDS; i++)
		free(r->f[i].buf);
	free(r);
}

static inline size_t h_count_notes(const struct h_rec *r, int id, enum tail_note what)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nnotes; i++)
		n += r->notes[i].id == id && r->notes[i].what == what;
	return n;
}

static inline const char *h_last_note(const struct h_rec *r, int id, enum tail_note what)
{
	for (size_t i = r->nnotes; i-- > 0;)
		if (r->notes[i].id == id && r->notes[i].what == what)
			return r->notes[i].msg;
	return NULL;
}

static inline struct tail *h_tail(struct h_rec *r, size_t max_line)
{
	struct tail_callbacks cb = { h_on_line, h_on_note, r };
	char err[512];
	struct tail *t = tail_new(&cb, max_line, err, sizeof err);
	if (!t) {
		fprintf(stderr, "tail_new: %s\n", err);
		abort();
	}
	return t;
}

/* Dispatch until file id has delivered `lines` lines or timeout_ms passed.
 * Returns true when reached. Sleeps in poll() on the inotify descriptor. */
static inline bool h_pump(struct tail *t, struct h_rec *r, int id, size_t lines, int timeout_ms)
{
	int64_t end = util_mono_ms() + timeout_ms;
	tail_dispatch(t);
	while (r->f[id].lines < lines) {
		int64_t left = end - util_mono_ms();
		if (left <= 0)
			return false;
		struct pollfd p = { tail_fd(t), POLLIN, 0 };
		poll(&p, 1, (int)(left > 100 ? 100 : left));
		tail_dispatch(t);
	}
	return true;
}

/* Keep dispatching for ms: anything delivered now would be a duplicate or
 * stray line the assertions that follow must see. */
static inline void h_settle(struct tail *t, int ms)
{
	int64_t end = util_mono_ms() + ms;
	for (;;) {
		tail_dispatch(t);
		int64_t left = end - util_mono_ms();
		if (left <= 0)
			break;
		struct pollfd p = { tail_fd(t), POLLIN, 0 };
		poll(&p, 1, (int)left);
	}
}

/* The exact bytes delivered for id must be `want` (lines joined by '\n'). */
#define H_ASSERT_TEXT(r, id, want, wantlen)                                                         \
	do {                                                                                        \
		size_t wl_ = (wantlen);                                                             \
		if ((r)->f[id].len != wl_ || memcmp((r)->f[id].buf ? (r)->f[id].buf : "", (want), wl_) != 0) { \
			fprintf(stderr, "delivered %zu bytes / %zu lines for id %d, expected %zu bytes\n", \
				(r)->f[id].len, (r)->f[id].lines, (int)(id), wl_);                 \
			h_dump_diff((r)->f[id].buf, (r)->f[id].len, (want), wl_);                  \
			fail();                                                                     \
		}                                                                                   \
	} while (0)

static inline void h_dump_diff(const char *got, size_t gl, const char *want, size_t wl)
{
	size_t i = 0;
	while (i < gl && i < wl && got[i] == want[i])
		i++;
	size_t s = i > 60 ? i - 60 : 0;
	fprintf(stderr, "first difference at byte %zu\n  got:  ...%.*s\n  want: ...%.*s\n", i,
		(int)((gl - s) < 120 ? gl - s : 120), got ? got + s : "",
		(int)((wl - s) < 120 ? wl - s : 120), want + s);
}

/* A growing expected text. */
struct h_text {
	char *buf;
	size_t len, cap;
};

static inline void h_text_add(struct h_text *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void h_text_add(struct h_text *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[1024];
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp)
		abort();
	if (x->len + (size_t)n + 1 > x->cap) {
		x->cap = x->cap ? x->cap * 2 : 4096;
		while (x->cap < x->len + (size_t)n + 1)
			x->cap *= 2;
		x->buf = realloc(x->buf, x->cap);
		if (!x->buf)
			abort();
	}
	memcpy(x->buf + x->len, tmp, (size_t)n + 1);
	x->len += (size_t)n;
}

/* ---- files: real syscalls, checked */

/* A fresh directory under base (e.g. /dev/shm for tmpfs), or under /tmp. */
static inline char *h_tmpdir_in(const char *base)
{
	char tmpl[256];
	snprintf(tmpl, sizeof tmpl, "%s/stwtop-tail-XXXXXX", base);
	char *d = mkdtemp(tmpl);
	if (!d && strcmp(base, "/tmp") != 0)
		return h_tmpdir_in("/tmp");
	if (!d)
		abort();
	return strdup(d);
}

static inline char *h_tmpdir(void)
{
	return h_tmpdir_in("/tmp");
}

static inline int h_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static inline void h_rm_rf(const char *dir)
{
	nftw(dir, h_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static inline char *h_path(const char *dir, const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		abort();
	return p;
}

static inline int h_open_append(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(path);
		abort();
	}
	return fd;
}

static inline void h_write(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			perror("write");
			abort();
		}
		p += w;
		n -= (size_t)w;
	}
}

static inline void h_writef(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void h_writef(int fd, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp)
		abort();
	h_write(fd, tmp, (size_t)n);
}

/* Append lines "<tag> <i>" for i in [from, to) to fd, and to the expectation. */
static inline void h_lines(int fd, struct h_text *want, const char *tag, int from, int to)
{
	for (int i = from; i < to; i++) {
		h_writef(fd, "%s %d\n", tag, i);
		if (want)
			h_text_add(want, "%s %d\n", tag, i);
	}
}

static inline void h_rename(const char *a, const char *b)
{
	if (rename(a, b) < 0) {
		perror("rename");
		abort();
	}
}

static inline int h_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;   /* the DIR's own */
}

/* Watches the kernel holds on the tailer's inotify instance. */
static inline int h_live_watches(const struct tail *t)
{
	char p[64], line[512];
	(void)t;
	snprintf(p, sizeof p, "/proc/self/fdinfo/%d", tail_inotify_fd());
	FILE *f = fopen(p, "re");
	if (!f)
		return -1;
	int n = 0;
	while (fgets(line, sizeof line, f))
		n += strncmp(line, "inotify wd:", 11) == 0;
	fclose(f);
	return n;
}

/* Wait (deadline) until the kernel holds exactly n watches. */
static inline bool h_wait_watches(const struct tail *t, int n, int timeout_ms)
{
	int64_t end = util_mono_ms() + timeout_ms;
	while (h_live_watches(t) != n) {
		if (util_mono_ms() > end)
			return false;
		usleep(1000);
	}
	return true;
}

/* Copy a file like logrotate's copytruncate does (before the truncate). */
static inline void h_copy(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in < 0 || out < 0)
		abort();
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		h_write(out, buf, (size_t)n);
	close(in);
	close(out);
}

/* The usual test fixture: a temp dir, a recorder, a tailer (max_line 1 MiB).
 * A test that sends fd 2 to a file sets saved_stderr/errlog; teardown puts
 * fd 2 back (an assertion may have jumped out) and shows what was captured. */
struct h_fixture {
	char *dir;
	struct h_rec *r;
	struct tail *t;
	int saved_stderr;
	char *errlog;
};

static inline int h_setup(void **state)
{
	struct h_fixture *fx = calloc(1, sizeof *fx);
	if (!fx)
		abort();
	fx->dir = h_tmpdir();
	fx->r = h_rec_new();
	fx->t = h_tail(fx->r, 1024 * 1024);
	fx->saved_stderr = -1;
	*state = fx;
	return 0;
}

static inline int h_teardown(void **state)
{
	struct h_fixture *fx = *state;
	if (fx->saved_stderr >= 0) {
		fflush(stderr);
		dup2(fx->saved_stderr, 2);
		close(fx->saved_stderr);
		FILE *f = fopen(fx->errlog, "r");
		char line[1024];
		while (f && fgets(line, sizeof line, f))
			fprintf(stderr, "(captured) %s", line);
		if (f)
			fclose(f);
	}
	free(fx->errlog);
	tail_free(fx->t);
	h_rec_free(fx->r);
	h_rm_rf(fx->dir);
	free(fx->dir);
	free(fx);
	return 0;
}

/* Reactor glue, as the program wires it: the tailer's fd and a 1 s check. */
static inline void h_loop_dispatch(void *ctx, int fd, short revents)
{
	(void)fd;
	(void)revents;
	tail_dispatch(ctx);
}

static inline void h_loop_check(void *ctx)
{
	tail_check(ctx);
}

#endif
