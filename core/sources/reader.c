/* reader.c — a finished file or a pipe read once, line by line (reader.h).
 * The report's merge pulls from one reader per source; the tailer (tail.c)
 * is the live counterpart. A gzip is inflated with zlib as it is read
 * (RFC 1952; several members one after the other are one text, as gzip(1)
 * reads them). */
#include "stwtop/reader.h"

#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define READER_CHUNK (1 << 20)
#define READER_GZ_IN (256 << 10)   /* compressed bytes read at once */

struct reader_gz {
	z_stream z;
	unsigned char *in;
	bool in_eof;          /* the file gave its last compressed byte */
	bool in_member;       /* inside a member: its end has not been seen */
	uint64_t members;     /* members ended */
};

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

static ssize_t raw_read(struct reader *r, void *p, size_t n);

static int gz_begin(struct reader *r)
{
	struct reader_gz *g = calloc(1, sizeof *g);
	if (!g || !(g->in = malloc(READER_GZ_IN))) {
		free(g);
		return -ENOMEM;
	}
	/* 15 + 16: a gzip header and trailer (CRC-32 and length checked) */
	if (inflateInit2(&g->z, 15 + 16) != Z_OK) {
		free(g->in);
		free(g);
		return -ENOMEM;
	}
	r->gz = g;
	return 0;
}

static void gz_end(struct reader *r)
{
	if (!r->gz)
		return;
	inflateEnd(&r->gz->z);
	free(r->gz->in);
	free(r->gz);
	r->gz = NULL;
}

/* What inflate said at the end of the text: a file cut inside a member is
 * what a gzip still being written looks like (said, not a failure); bad data
 * is a failure, what came before it stands. */
static void gz_said(struct reader *r, int zrc)
{
	struct reader_gz *g = r->gz;
	unsigned long long at = (unsigned long long)(r->off - g->z.avail_in);
	if (zrc == Z_OK)
		snprintf(r->end_why, sizeof r->end_why, "%s: truncated gzip: it ends inside compressed data "
			 "(%llu bytes; still being compressed?): the lines before the cut are read", r->label, at);
	else if (zrc == Z_DATA_ERROR && g->members > 0 && g->z.total_out == 0)
		snprintf(r->end_why, sizeof r->end_why, "%s: what follows the gzip data at byte %llu is not gzip: "
			 "ignored", r->label, at);
	else {
		snprintf(r->end_why, sizeof r->end_why, "%s: corrupt gzip data near byte %llu (%s): the lines "
			 "before it are read", r->label, at, g->z.msg ? g->z.msg : "zlib error");
		r->end_failed = true;
	}
}

/* Up to n bytes of inflated text (fewer only at its end). */
static ssize_t gz_read(struct reader *r, char *p, size_t n)
{
	struct reader_gz *g = r->gz;
	if (r->end_why[0])
		return 0;
	g->z.next_out = (Bytef *)p;
	g->z.avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
	uInt want = g->z.avail_out;
	while (g->z.avail_out > 0) {
		if (g->z.avail_in == 0 && !g->in_eof) {
			ssize_t k = raw_read(r, g->in, READER_GZ_IN);
			if (k < 0)
				return want - g->z.avail_out > 0 ? (ssize_t)(want - g->z.avail_out) : -1;
			g->in_eof = k == 0;
			g->z.next_in = g->in;
			g->z.avail_in = (uInt)k;
		}
		if (g->z.avail_in == 0) {
			if (g->in_member)
				gz_said(r, Z_OK);
			break;
		}
		g->in_member = true;
		int zrc = inflate(&g->z, Z_NO_FLUSH);
		if (zrc == Z_STREAM_END) {
			/* the next member (cat a.gz b.gz), if any, starts afresh */
			g->members++;
			g->in_member = false;
			inflateReset(&g->z);
		} else if (zrc != Z_OK && !(zrc == Z_BUF_ERROR && g->z.avail_in == 0)) {
			gz_said(r, zrc);
			break;
		}
	}
	return (ssize_t)(want - g->z.avail_out);
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
	if (strcmp(path, READER_STDIN) == 0) {
		/* a copy: closing it leaves fd 0 alone; the flags below are the
		 * pipe's own, shared, but only O_NONBLOCK is touched and taken off */
		int fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
		if (fd >= 0) {
			int fl = fcntl(fd, F_GETFL);
			if (fl >= 0)
				(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
		}
		return fd;
	}
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

/* The first two bytes (a pipe may give them one at a time): gzip or not. */
static int sniff_magic(struct reader *r)
{
	while (r->nmagic < 2) {
		ssize_t k = raw_read(r, r->magic + r->nmagic, 2 - r->nmagic);
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		r->nmagic += (size_t)k;
	}
	r->off = 0;   /* counted when given back */
	if (r->nmagic == 2 && (unsigned char)r->magic[0] == 0x1f && (unsigned char)r->magic[1] == 0x8b)
		return gz_begin(r);
	return 0;
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
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(why, whylen, "%s: not a regular file (%s)", r->label,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a character device" :
			 "a special file");
		r->eof = true;
		close(fd);
		return -EINVAL;
	}
	if (S_ISFIFO(st.st_mode) && !fifo_wait_writer(fd)) {
		snprintf(why, whylen, "%s: a FIFO that no process wrote to for %d s", r->label,
			 READER_FIFO_WAIT_MS / 1000);
		r->eof = true;
		close(fd);
		return -ETIMEDOUT;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	r->fd = fd;
	int rc = sniff_magic(r);
	if (rc < 0) {
		snprintf(why, whylen, "%s: %s", r->label, rc == -ENOMEM ? "out of memory (gzip)" : strerror(-rc));
		r->eof = true;
		close(fd);
		r->fd = -1;
		return rc;
	}
	return 0;
}

/* Up to n bytes of the file's text (inflated when it is a gzip). 0 at the
 * end, < 0 a read error (errno). */
static ssize_t file_read(struct reader *r, char *p, size_t n)
{
	return r->gz ? gz_read(r, p, n) : raw_read(r, p, n);
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
	gz_end(r);
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

bool reader_peek(struct reader *r, size_t max_bytes, reader_line_fn fn, void *ctx)
{
	if (r->peeked || r->fd < 0 || r->eof)
		return false;
	r->peeked = true;
	struct linebuf lb;
	if (linebuf_init(&lb, r->lb.max_line, READER_CHUNK) != 0)
		return false;
	size_t total = 0;
	uint64_t lineno = 0;
	bool found = false;
	while (!found && total < max_bytes) {
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
		const char *line;
		size_t len;
		unsigned fl;
		while (!found && linebuf_next(&lb, &line, &len, &fl))
			found = fn(ctx, line, len, ++lineno);
	}
	linebuf_fini(&lb);
	return found;
}

bool reader_is_gzip_file(const char *path)
{
	struct stat st;
	unsigned char m[2];
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	bool gz = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, m, 2) == 2 && m[0] == 0x1f && m[1] == 0x8b;
	close(fd);
	return gz;
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
