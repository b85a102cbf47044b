/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reader.c — a finished file or a pipe read once, line by line (reader.h).
 * The report's merge pulls from one reader per source; the tailer (tail.c)
 * is the live counterpart. A compressed file is inflated as it is read
 * (decomp.h). */
#include "stwtop/reader.h"

#include "stwtop/decomp.h"
#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READER_CHUNK (1 << 20)
/* A pipe from `--gc <(zcat gc.log.gz)` has its writer already; a named FIFO
 * nobody writes to would block the report for good. Linux reports neither
 * POLLIN nor POLLHUP on it until a writer has come, so wait a bounded time
 * for the first bytes (or the first writer's end). */
static bool fifo_wait_writer(int fd)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int64_t end = util_mono_ms() + READER_FIFO_WAIT_MS;
	int n;
	do {
		int64_t left = end - util_mono_ms();
		n = poll(&pfd, 1, left > 0 ? (int)left : 0);
	} while (n < 0 && errno == EINTR);
	return n > 0;
}

/* A pipe of a shell pipeline or <(...), not a FIFO in the file system: its
 * writer exists (or is gone, and read says so), however slowly it starts
 * (`ssh host zcat gc.log.gz | stwtop --report --gc -`): no waiting limit. */
static bool anonymous_pipe(int fd)
{
	char link[64], target[32];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof target - 1);
	return n >= 5 && memcmp(target, "pipe:", 5) == 0;
}

bool reader_path_is_stdin(const char *path)
{
	return strcmp(path, READER_STDIN) == 0 || strcmp(path, "/dev/stdin") == 0 || strcmp(path, "/dev/fd/0") == 0 ||
	       strcmp(path, "/proc/self/fd/0") == 0;
}

/* The path as messages name it */
static const char *label_of(const char *path)
{
	return strcmp(path, READER_STDIN) == 0 ? "stdin" : path;
}

static int open_fd(const char *path)
{
	/* a copy: closing it leaves fd 0 alone. Its flags are shared with
	 * whoever gave it: never made non-blocking (a terminal would stay so) */
	if (strcmp(path, READER_STDIN) == 0)
		return fcntl(0, F_DUPFD_CLOEXEC, 3);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer forever (it is
	 * taken off again by the caller); for a regular file it changes nothing */
	return open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

/* bytes from the file itself: the magic bytes given back first */
static ssize_t raw_read(struct reader *r, void *p, size_t n)
{
	if (r->magic_off < r->nmagic) {
		size_t k = r->nmagic - r->magic_off;
		if (k > n)
			k = n;
		memcpy(p, r->magic + r->magic_off, k);
		r->magic_off += k;
		r->off += k;
		return (ssize_t)k;
	}
	ssize_t k;
	do
		k = read(r->fd, p, n);
	while (k < 0 && errno == EINTR);
	if (k > 0)
		r->off += (uint64_t)k;
	return k;
}

static ssize_t decomp_in(void *ctx, void *buf, size_t n)
{
	return raw_read(ctx, buf, n);
}

/* The first bytes (a pipe may give them one at a time): compressed or not.
 * 0, or -errno; -ENOTSUP: a format this build cannot read. */
static int sniff_magic(struct reader *r)
{
	while (r->nmagic < DECOMP_MAGIC_LEN) {
		ssize_t k = raw_read(r, r->magic + r->nmagic, DECOMP_MAGIC_LEN - r->nmagic);
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		r->nmagic += (size_t)k;
	}
	r->off = 0;   /* counted when given back */
	enum decomp_kind k = decomp_sniff(r->magic, r->nmagic);
	if (k == DECOMP_NONE)
		return 0;
	if (!decomp_available(k))
		return -ENOTSUP;
	r->dec = decomp_new(k, decomp_in, r);
	return r->dec ? 0 : -ENOMEM;
}

int reader_open(struct reader *r, const char *path, size_t max_line, char *why, size_t whylen)
{
	struct stat st;
	memset(r, 0, sizeof *r);
	r->path = path;
	r->label = label_of(path);
	r->fd = -1;
	r->opened = true;
	if (linebuf_init(&r->lb, max_line, READER_CHUNK) != 0) {
		snprintf(why, whylen, "%s: out of memory", r->label);
		return -ENOMEM;
	}
	int fd = open_fd(path);
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "%s: %s", r->label, strerror(e));
		r->eof = true;
		return -e;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;
		snprintf(why, whylen, "%s: %s", r->label, strerror(e));
		r->eof = true;
		close(fd);
		return -e;
	}
	if (isatty(fd)) {
		snprintf(why, whylen, "%s: a terminal, not a log: pipe one in (zcat gc.log.1.gz | stwtop --report "
			 "--gc -) or give it as a file", r->label);
		r->eof = true;
		close(fd);
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(why, whylen, "%s: not a regular file (%s)", r->label,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a character device" :
			 "a special file");
		r->eof = true;
		close(fd);
		return -EINVAL;
	}
	if (S_ISFIFO(st.st_mode) && !anonymous_pipe(fd) && !fifo_wait_writer(fd)) {
		snprintf(why, whylen, "%s: a FIFO that no process wrote to for %d s", r->label,
			 READER_FIFO_WAIT_MS / 1000);
		r->eof = true;
		close(fd);
		return -ETIMEDOUT;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && (fl & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	r->fd = fd;
	int rc = sniff_magic(r);
	if (rc < 0) {
		const char *z = decomp_name(decomp_sniff(r->magic, r->nmagic));
		if (rc == -ENOTSUP)
			snprintf(why, whylen, "%s: %s-compressed, and this stwtop was built without lib%s: "
				 "give it as a pipe, e.g. <(%scat FILE)", r->label, z, z, z);
		else
			snprintf(why, whylen, "%s: %s", r->label, rc == -ENOMEM ? "out of memory (decompressor)" :
				 strerror(-rc));
		r->eof = true;
		close(fd);
		r->fd = -1;
		return rc;
	}
	return 0;
}

/* Up to n bytes of the file's text (inflated when it is compressed). 0 at
 * the end (how a compressed one ended is kept in end_why), < 0 a read error
 * (errno). */
static ssize_t file_read(struct reader *r, char *p, size_t n)
{
	if (!r->dec)
		return raw_read(r, p, n);
	ssize_t k = decomp_read(r->dec, p, n);
	bool failed;
	const char *end = k == 0 ? decomp_end(r->dec, &failed) : "";
	if (end[0] && !r->end_why[0]) {
		snprintf(r->end_why, sizeof r->end_why, "%s: %s", r->label, end);
		r->end_failed = failed;
	}
	return k;
}

/* What reader_peek kept, then the file. */
static ssize_t text_read(struct reader *r, char *p, size_t n)
{
	if (r->head) {
		size_t k = r->head_len - r->head_off;
		if (k > n)
			k = n;
		memcpy(p, r->head + r->head_off, k);
		r->head_off += k;
		if (r->head_off == r->head_len) {
			free(r->head);
			r->head = NULL;
		}
		return (ssize_t)k;
	}
	return file_read(r, p, n);
}

/* reader_next() when the buffer holds no whole line: read more */
bool reader_next_read(struct reader *r, const char **line, size_t *len, unsigned *flags, char *why,
		      size_t whylen, bool *failed)
{
	for (;;) {
		if (linebuf_next(&r->lb, line, len, flags))
			return true;
		if (r->eof)
			return false;
		size_t room;
		char *p = linebuf_space(&r->lb, &room);
		ssize_t n = text_read(r, p, room);
		if (n <= 0) {
			struct stat st;
			if (n < 0) {
				snprintf(why, whylen, "%s: read: %s", r->label, strerror(errno));
				*failed = true;
			} else if (r->end_why[0]) {
				snprintf(why, whylen, "%s", r->end_why);
				if (r->end_failed)
					*failed = true;
			} else if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < r->off) {
				/* someone truncated it under us: what was read is reported, and said */
				snprintf(why, whylen, "%s: truncated while being read (to %lld bytes, after %llu were read)",
					 r->label, (long long)st.st_size, (unsigned long long)r->off);
			}
			r->eof = true;
			close(r->fd);
			r->fd = -1;
			return linebuf_take_partial(&r->lb, line, len, flags);
		}
		linebuf_commit(&r->lb, (size_t)n);
	}
}

void reader_close(struct reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	decomp_free(r->dec);
	r->dec = NULL;
	free(r->head);
	r->head = NULL;
	if (r->opened)
		linebuf_fini(&r->lb);
	r->opened = false;
}

/* n bytes of the file's text, or fewer only at its end: a pipe's short
 * reads must not change which lines the peek sees */
static ssize_t file_read_full(struct reader *r, char *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = file_read(r, p + got, n - got);
		if (k < 0)
			return got ? (ssize_t)got : -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

/* The peek's text no longer fits the reader's line buffer: it is moved to
 * r->head (given back by text_read()), and the lines not yet looked at go on
 * in lb, a buffer of the same size, as they would have after a compaction. */
static bool peek_spill(struct reader *r, const struct linebuf *scan, struct linebuf *lb)
{
	size_t rest = scan->end - scan->start;
	r->head = malloc(r->lb.end);
	if (!r->head || linebuf_init(lb, r->lb.max_line, READER_CHUNK) != 0) {
		snprintf(r->end_why, sizeof r->end_why, "%s: out of memory after %zu bytes", r->label, r->lb.end);
		r->end_failed = true;
		free(r->head);
		r->head = NULL;
		return false;
	}
	memcpy(r->head, r->lb.buf, r->lb.end);
	r->head_len = r->lb.end;
	r->head_off = 0;
	memcpy(lb->buf, scan->buf + scan->start, rest);
	lb->end = rest;
	lb->skipping = scan->skipping;
	linebuf_reset(&r->lb);
	return true;
}

bool reader_peek(struct reader *r, size_t max_bytes, reader_line_fn fn, void *ctx)
{
	if (r->peeked || r->fd < 0 || r->eof)
		return false;
	r->peeked = true;
	/* The head is read into the reader's own line buffer, in the read sizes of
	 * a line buffer like it (so fn sees the same lines), and looked at through
	 * a copy of its cursor (scan): the bytes stay where reader_next() reads
	 * them, without a copy and without the page faults of two more 2 MB
	 * buffers (12 ms of a 256 MB report). Only a head longer than that buffer
	 * is kept in r->head. */
	struct linebuf scan = r->lb, lb;
	bool spilled = false, found = false;
	size_t total = 0;
	uint64_t lineno = 0;
	const char *line;
	size_t len;
	unsigned fl;
	if (r->lb.end != 0) {
		/* lines were read already (not how it is meant to be used): the head
		 * goes to r->head, behind what the buffer holds */
		if (linebuf_init(&lb, r->lb.max_line, READER_CHUNK) != 0)
			return false;
		spilled = true;
	}
	while (!found && total < max_bytes) {
		if (!spilled && r->lb.end < r->lb.cap - 1) {
			ssize_t n = file_read_full(r, r->lb.buf + r->lb.end, r->lb.cap - 1 - r->lb.end);
			if (n <= 0)
				break;
			linebuf_commit(&r->lb, (size_t)n);
			scan.end = r->lb.end;
			total += (size_t)n;
			while (!found && linebuf_next(&scan, &line, &len, &fl))
				found = fn(ctx, line, len, ++lineno);
			continue;
		}
		if (!spilled && !peek_spill(r, &scan, &lb))
			break;
		spilled = true;
		size_t room;
		char *buf = linebuf_space(&lb, &room);
		ssize_t n = file_read_full(r, buf, room);
		if (n <= 0)
			break;
		char *h = realloc(r->head, total + (size_t)n);
		if (!h) {
			snprintf(r->end_why, sizeof r->end_why, "%s: out of memory after %zu bytes", r->label, total);
			r->end_failed = true;
			break;
		}
		memcpy(h + total, buf, (size_t)n);
		r->head = h;
		r->head_len = total + (size_t)n;
		linebuf_commit(&lb, (size_t)n);
		total += (size_t)n;
		while (!found && linebuf_next(&lb, &line, &len, &fl))
			found = fn(ctx, line, len, ++lineno);
	}
	if (spilled)
		linebuf_fini(&lb);
	return found;
}

const char *reader_compressed_file(const char *path)
{
	struct stat st;
	unsigned char m[DECOMP_MAGIC_LEN];
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, m, sizeof m) : -1;
	close(fd);
	enum decomp_kind k = n > 0 ? decomp_sniff(m, (size_t)n) : DECOMP_NONE;
	return k == DECOMP_NONE ? NULL : decomp_name(k);
}

int reader_slurp(const char *path, size_t cap, char **out, size_t *outlen, int64_t *mtime_ms, char *why,
		 size_t whylen)
{
	struct stat st;
	*out = NULL;
	*outlen = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = fd < 0 ? errno : EINVAL;
		snprintf(why, whylen, "%s: %s", path, fd < 0 ? strerror(e) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -e;
	}
	size_t len = 0;
	char *buf = malloc(cap);
	ssize_t n = 0;
	while (buf && len < cap && (n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (!buf)
		return -ENOMEM;
	*out = buf;
	*outlen = len;
	*mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	return 0;
}
