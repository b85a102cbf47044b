/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linebuf.h — splits a byte stream into complete lines, without copying when it
 * can, cutting lines longer than a maximum (the cut part is counted, never
 * delivered as a separate line). Used by the report reader and the tailer.
 *
 *   char *p = linebuf_space(&lb, &room);  n = read(fd, p, room);  linebuf_commit(&lb, n);
 *   while (linebuf_next(&lb, &line, &len, &flags)) ...
 */
#ifndef STWTOP_LINEBUF_H
#define STWTOP_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LINEBUF_CUT 0x1   /* the line was longer than max_line: only its head is delivered */

struct linebuf {
	char *buf;
	size_t cap;       /* allocated */
	size_t start;     /* first byte not yet delivered */
	size_t end;       /* bytes filled */
	size_t max_line;  /* longest line delivered whole */
	bool skipping;    /* inside the tail of a cut line: drop bytes up to '\n' */
	uint64_t cut;     /* lines cut so far */
};

/* chunk is the read size the caller will ask room for (e.g. 64 KiB .. 1 MiB). */
int linebuf_init(struct linebuf *lb, size_t max_line, size_t chunk);
void linebuf_fini(struct linebuf *lb);
void linebuf_reset(struct linebuf *lb);       /* drop everything buffered (file truncated/replaced) */

/* Room to read into (at least the chunk size given at init). */
char *linebuf_space(struct linebuf *lb, size_t *room);
void linebuf_commit(struct linebuf *lb, size_t n);

/* Next complete line (without '\n' and a trailing '\r'); valid until the next
 * linebuf_space call. */
bool linebuf_next_any(struct linebuf *lb, const char **line, size_t *len, unsigned *flags);
static inline bool linebuf_next(struct linebuf *lb, const char **line, size_t *len, unsigned *flags)
{
	/* a whole line of at most max_line bytes, the case of (nearly) every line
	 * of a log, without a call: a report reads millions */
	size_t avail = lb->end - lb->start;
	if (!lb->skipping && avail > 0) {
		char *s = lb->buf + lb->start;
		char *nl = memchr(s, '\n', avail <= lb->max_line ? avail : lb->max_line + 1);
		if (nl) {
			size_t k = (size_t)(nl - s);
			lb->start += k + 1;
			*line = s;
			*len = k > 0 && s[k - 1] == '\r' ? k - 1 : k;
			*flags = 0;
			return true;
		}
	}
	return linebuf_next_any(lb, line, len, flags);
}
/* At the end of a finished file: the last line if it had no '\n'. */
bool linebuf_take_partial(struct linebuf *lb, const char **line, size_t *len, unsigned *flags);
/* Bytes of an incomplete line waiting for its '\n'. */
size_t linebuf_pending(const struct linebuf *lb);

#endif
