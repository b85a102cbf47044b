/* reader.c — a finished file or a pipe read once, line by line (reader.h).
 * The report's merge pulls from one reader per source; the tailer (tail.c)
 * is the live counterpart. */
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

int reader_open(struct reader *r, const char *path, size_t max_line, char *why, size_t whylen)
{
	struct stat st;
	memset(r, 0, sizeof *r);
	r->path = path;
	r->fd = -1;
	r->opened = true;
	if (linebuf_init(&r->lb, max_line, READER_CHUNK) != 0) {
		snprintf(why, whylen, "%s: out of memory", path);
		return -ENOMEM;
	}
	/* O_NONBLOCK: opening a FIFO must not wait for a writer forever (it is
	 * taken off again below); for a regular file it changes nothing */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "%s: %s", path, strerror(e));
		r->eof = true;
		return -e;
	}
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(why, whylen, "%s: not a regular file (%s)", path,
			 S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a character device" :
			 "a special file");
		r->eof = true;
		close(fd);
		return -EINVAL;
	}
	if (S_ISFIFO(st.st_mode) && !fifo_wait_writer(fd)) {
		snprintf(why, whylen, "%s: a FIFO that no process wrote to for %d s", path,
			 READER_FIFO_WAIT_MS / 1000);
		r->eof = true;
		close(fd);
		return -ETIMEDOUT;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	r->fd = fd;
	return 0;
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
		ssize_t n = read(r->fd, p, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			struct stat st;
			if (n < 0) {
				snprintf(why, whylen, "%s: read: %s", r->path, strerror(errno));
				*failed = true;
			} else if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < r->off) {
				/* someone truncated it under us: what was read is reported, and said */
				snprintf(why, whylen, "%s: truncated while being read (to %lld bytes, after %llu were read)",
					 r->path, (long long)st.st_size, (unsigned long long)r->off);
			}
			r->eof = true;
			close(r->fd);
			r->fd = -1;
			return linebuf_take_partial(&r->lb, line, len, flags);
		}
		linebuf_commit(&r->lb, (size_t)n);
		r->off += (uint64_t)n;
	}
}

void reader_close(struct reader *r)
{
	if (r->fd > 0)
		close(r->fd);
	r->fd = -1;
	if (r->opened)
		linebuf_fini(&r->lb);
	r->opened = false;
}

bool reader_scan_head(const char *path, size_t max_bytes, size_t max_line, reader_line_fn fn, void *ctx)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	struct linebuf lb;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || linebuf_init(&lb, max_line, READER_CHUNK) != 0) {
		close(fd);
		return false;
	}
	size_t total = 0;
	uint64_t lineno = 0;
	bool found = false;
	while (!found && total < max_bytes) {
		size_t room;
		char *buf = linebuf_space(&lb, &room);
		ssize_t n = read(fd, buf, room);
		if (n <= 0)
			break;
		linebuf_commit(&lb, (size_t)n);
		total += (size_t)n;
		const char *line;
		size_t len;
		unsigned fl;
		while (!found && linebuf_next(&lb, &line, &len, &fl))
			found = fn(ctx, line, len, ++lineno);
	}
	linebuf_fini(&lb);
	close(fd);
	return found;
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
