/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_reader.c — the report's reader (reader.h) on what arrives during an
 * incident: gzip (told by its magic, members one after the other, cut short,
 * corrupt), a pipe, and the head peeked before the read (several reads long)
 * giving every line again, in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stwtop/reader.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_reader.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* "line 1\nline 2\n..." up to at least bytes */
static char *make_text(size_t bytes, size_t *len, unsigned *nlines)
{
	char *t = malloc(bytes + 64);
	size_t n = 0;
	unsigned k = 0;
	while (n < bytes)
		n += (size_t)sprintf(t + n, "[%u] some log line %u with text\n", k + 1, (k + 1) * 7), k++;
	*len = n;
	*nlines = k;
	return t;
}

/* one gzip member of s[0..n) appended to f */
static void gz_member(FILE *f, const char *s, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&z, n);
	unsigned char *out = malloc(cap);
	z.next_in = (Bytef *)s;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	fwrite(out, 1, cap - z.avail_out, f);
	deflateEnd(&z);
	free(out);
}

static void write_file(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(s, 1, n, f);
	fclose(f);
}

/* read every line of path; they must be the lines of text; what the end said in why */
static void read_all(const char *path, const char *text, unsigned want_lines, bool exact, char *why, bool *failed)
{
	struct reader r;
	char err[256] = "";
	assert_int_equal(reader_open(&r, path, 1 << 20, err, sizeof err), 0);
	const char *line, *p = text;
	size_t len;
	unsigned fl, k = 0;
	why[0] = '\0';
	*failed = false;
	while (reader_next(&r, &line, &len, &fl, why, 256, failed)) {
		const char *nl = strchr(p, '\n');
		assert_non_null(nl);
		if (exact) { /* cut or corrupt data: only a prefix, and the last line may be cut */
			assert_int_equal(len, (size_t)(nl - p));
			assert_memory_equal(line, p, len);
		}
		p = nl + 1;
		k++;
	}
	if (exact)
		assert_int_equal(k, want_lines);
	else
		assert_true(k > 0 && k < want_lines);
	reader_close(&r);
}

static void test_gzip_members_and_magic(void **state)
{
	(void)state;
	size_t n;
	unsigned lines;
	char *t = make_text(3u << 20, &n, &lines);
	char path[128], why[256];
	bool failed;
	/* two members, and a name that does not say gzip */
	snprintf(path, sizeof path, "%s/gc.log", tmpdir);
	FILE *f = fopen(path, "wb");
	size_t half = (size_t)(strchr(t + n / 2, '\n') + 1 - t);
	gz_member(f, t, half);
	gz_member(f, t + half, n - half);
	fclose(f);
	read_all(path, t, lines, true, why, &failed);
	assert_false(failed);
	assert_string_equal(why, "");
	free(t);
}

static void test_gzip_cut_and_corrupt(void **state)
{
	(void)state;
	size_t n;
	unsigned lines;
	char *t = make_text(1u << 20, &n, &lines);
	char path[128], why[256];
	bool failed;
	snprintf(path, sizeof path, "%s/full.gz", tmpdir);
	FILE *f = fopen(path, "wb");
	gz_member(f, t, n);
	long size = ftell(f);
	fclose(f);
	char *gz = malloc((size_t)size);
	f = fopen(path, "rb");
	assert_int_equal(fread(gz, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	/* cut in the middle: a prefix of the lines, said, not a failure */
	snprintf(path, sizeof path, "%s/cut.gz", tmpdir);
	write_file(path, gz, (size_t)size / 2);
	read_all(path, t, lines, false, why, &failed);
	assert_false(failed);
	assert_non_null(strstr(why, "truncated gzip"));
	/* bytes spoiled in the middle: a failure */
	memset(gz + size / 2, 'x', 64);
	snprintf(path, sizeof path, "%s/bad.gz", tmpdir);
	write_file(path, gz, (size_t)size);
	read_all(path, t, lines, false, why, &failed);
	assert_true(failed);
	assert_non_null(strstr(why, "corrupt gzip"));
	free(gz);
	free(t);
}

struct find {
	unsigned want, seen;
};

static bool find_line(void *ctx, const char *line, size_t len, uint64_t lineno)
{
	struct find *fd = ctx;
	char tag[32];
	int k = snprintf(tag, sizeof tag, "[%u] ", fd->want);
	fd->seen = (unsigned)lineno;
	return len >= (size_t)k && memcmp(line, tag, (size_t)k) == 0;
}

/* A pipe (a child writes the text): the peek reads several chunks, looks for
 * a line and for one that is not there; every line comes again afterwards. */
static void peek_pipe(unsigned want, bool found_want)
{
	size_t n;
	unsigned lines;
	char *t = make_text(3u << 20, &n, &lines);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (size_t off = 0; off < n;) {
			ssize_t k = write(p[1], t + off, n - off > 4096 ? 4096 : n - off); /* short writes */
			if (k <= 0)
				_exit(1);
			off += (size_t)k;
		}
		_exit(0);
	}
	close(p[1]);
	char path[64], err[256] = "", why[256] = "";
	snprintf(path, sizeof path, "/dev/fd/%d", p[0]);
	struct reader r;
	assert_int_equal(reader_open(&r, path, 1 << 20, err, sizeof err), 0);
	struct find fd = {want, 0};
	assert_int_equal(reader_peek(&r, 2u << 20, find_line, &fd), found_want);
	if (found_want)
		assert_int_equal(fd.seen, want);
	const char *line, *q = t;
	size_t len;
	unsigned fl, k = 0;
	bool failed = false;
	while (reader_next(&r, &line, &len, &fl, why, sizeof why, &failed)) {
		const char *nl = strchr(q, '\n');
		assert_int_equal(len, (size_t)(nl - q));
		assert_memory_equal(line, q, len);
		q = nl + 1;
		k++;
	}
	assert_int_equal(k, lines);
	assert_false(failed);
	reader_close(&r);
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	free(t);
}

static void test_peek_pipe_found(void **state)
{
	(void)state;
	peek_pipe(40000, true); /* past the first read of the head */
	peek_pipe(10, true);    /* in it */
}

static void test_peek_pipe_not_found(void **state)
{
	(void)state;
	peek_pipe(0, false);
}

/* Every line (bytes and flags) of path, read with or without a peek first
 * that looks for line want ([want] at its start); 0: looks for none. */
struct seen_lines {
	char *buf;
	size_t n, cap;
	unsigned lines;
};

static void seen_add(struct seen_lines *sl, const char *line, size_t len, unsigned fl)
{
	if (sl->n + len + 16 > sl->cap) {
		sl->cap = (sl->n + len + 16) * 2;
		sl->buf = realloc(sl->buf, sl->cap);
		assert_non_null(sl->buf);
	}
	sl->n += (size_t)sprintf(sl->buf + sl->n, "%zu/%u:", len, fl);
	memcpy(sl->buf + sl->n, line, len);
	sl->n += len;
	sl->lines++;
}

static void read_lines(const char *path, unsigned want, bool *found, struct seen_lines *sl)
{
	struct reader r;
	char err[256] = "", why[256] = "";
	bool failed = false;
	const char *line;
	size_t len;
	unsigned fl;
	assert_int_equal(reader_open(&r, path, 1 << 20, err, sizeof err), 0);
	if (found) {
		struct find fd = {want, 0};
		*found = reader_peek(&r, 2u << 20, find_line, &fd);
		if (*found)
			assert_int_equal(fd.seen, want);
	}
	while (reader_next(&r, &line, &len, &fl, why, sizeof why, &failed))
		seen_add(sl, line, len, fl);
	assert_false(failed);
	reader_close(&r);
}

/* The peek keeps what it read where the reader reads it, unless the head
 * outgrows the line buffer: either way the lines after it are the lines of a
 * read without a peek, cut lines and a last line without '\n' included. */
static void test_peek_file_same_lines(void **state)
{
	(void)state;
	size_t n;
	unsigned lines;
	char *t = make_text(3u << 20, &n, &lines);
	char path[128];
	snprintf(path, sizeof path, "%s/peek.log", tmpdir);
	/* a 1.5 MB line (longer than max_line: cut) across the end of the first read */
	size_t at = (size_t)(strstr(t + (1900u << 10), "\n") - t) + 1, big = 3u << 19;
	char *u = malloc(n + big + 32);
	memcpy(u, t, at);
	memset(u + at, 'x', big);
	u[at + big] = '\n';
	memcpy(u + at + big + 1, t + at, n - at);
	size_t un = n + big + 1;
	static const unsigned wants[] = { 0, 1, 10, 20000, 40000, 60000 };
	for (int form = 0; form < 3; form++) {
		/* form 0: the text; 1: with the long line; 2: short, no final '\n' */
		if (form == 0)
			write_file(path, t, n);
		else if (form == 1)
			write_file(path, u, un);
		else
			write_file(path, t, 5000);
		struct seen_lines plain = {0};
		read_lines(path, 0, NULL, &plain);
		for (size_t w = 0; w < sizeof wants / sizeof wants[0]; w++) {
			struct seen_lines peeked = {0};
			bool found;
			read_lines(path, wants[w], &found, &peeked);
			/* the peek's one read is the line buffer, 2 MB: it sees the
			 * lines whose '\n' is in it */
			const char *txt = form == 1 ? u : t;
			size_t tn = form == 0 ? n : form == 1 ? un : 5000, end = 0;
			for (unsigned k = 0; k < wants[w] && end < tn; k++) {
				const char *nl = memchr(txt + end, '\n', tn - end);
				end = nl ? (size_t)(nl - txt) + 1 : tn + 1;
			}
			assert_int_equal(found, wants[w] > 0 && end <= tn && end <= (2u << 20));
			assert_int_equal(peeked.lines, plain.lines);
			assert_int_equal(peeked.n, plain.n);
			assert_memory_equal(peeked.buf, plain.buf, plain.n);
			free(peeked.buf);
		}
		free(plain.buf);
	}
	free(u);
	free(t);
}

static void test_stdin_path(void **state)
{
	(void)state;
	assert_true(reader_path_is_stdin("-"));
	assert_true(reader_path_is_stdin("/dev/stdin"));
	assert_true(reader_path_is_stdin("/dev/fd/0"));
	assert_false(reader_path_is_stdin("/dev/fd/63"));
	assert_false(reader_path_is_stdin("gc.log"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gzip_members_and_magic),
		cmocka_unit_test(test_gzip_cut_and_corrupt),
		cmocka_unit_test(test_peek_pipe_found),
		cmocka_unit_test(test_peek_pipe_not_found),
		cmocka_unit_test(test_peek_file_same_lines),
		cmocka_unit_test(test_stdin_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
