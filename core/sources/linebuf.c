/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linebuf.c — see include/stwtop/linebuf.h. A line is delivered only once its
 * '\n' is in: a writer that flushed half a line is waited for. */
#include "stwtop/linebuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int linebuf_init(struct linebuf *lb, size_t max_line, size_t chunk)
{
	memset(lb, 0, sizeof *lb);
	if (max_line < 1)
		max_line = 1;
	lb->max_line = max_line;
	lb->cap = max_line + chunk + 1;
	lb->buf = malloc(lb->cap);
	return lb->buf ? 0 : -ENOMEM;
}

void linebuf_fini(struct linebuf *lb)
{
	free(lb->buf);
	memset(lb, 0, sizeof *lb);
}

void linebuf_reset(struct linebuf *lb)
{
	lb->start = lb->end = 0;
	lb->skipping = false;
}

char *linebuf_space(struct linebuf *lb, size_t *room)
{
	/* Compact: an incomplete line is at most max_line bytes (longer ones are cut
	 * in linebuf_next), so after moving it to the front there is always
	 * cap - max_line >= chunk bytes of room. */
	if (lb->start > 0) {
		size_t n = lb->end - lb->start;
		memmove(lb->buf, lb->buf + lb->start, n);
		lb->start = 0;
		lb->end = n;
	}
	*room = lb->cap - 1 - lb->end;
	return lb->buf + lb->end;
}

void linebuf_commit(struct linebuf *lb, size_t n)
{
	lb->end += n;
}

static void strip_cr(const char *line, size_t *len)
{
	if (*len > 0 && line[*len - 1] == '\r')
		(*len)--;
}

bool linebuf_next_any(struct linebuf *lb, const char **line, size_t *len, unsigned *flags)
{
	for (;;) {
		char *s = lb->buf + lb->start;
		size_t avail = lb->end - lb->start;
		char *nl = avail ? memchr(s, '\n', avail) : NULL;
		if (lb->skipping) {
			if (!nl) { /* the whole rest belongs to the cut line */
				lb->start = lb->end;
				return false;
			}
			lb->start += (size_t)(nl - s) + 1;
			lb->skipping = false;
			continue;
		}
		if (nl && (size_t)(nl - s) <= lb->max_line) {
			*line = s;
			*len = (size_t)(nl - s);
			strip_cr(s, len);
			*flags = 0;
			lb->start += (size_t)(nl - s) + 1;
			return true;
		}
		if (avail > lb->max_line) {
			/* too long: deliver the head, drop the rest up to its '\n' */
			*line = s;
			*len = lb->max_line;
			*flags = LINEBUF_CUT;
			lb->cut++;
			lb->start += lb->max_line;
			lb->skipping = true;
			return true;
		}
		return false;
	}
}

bool linebuf_take_partial(struct linebuf *lb, const char **line, size_t *len, unsigned *flags)
{
	size_t avail = lb->end - lb->start;
	if (lb->skipping || avail == 0) {
		lb->start = lb->end;
		lb->skipping = false;
		return false;
	}
	*line = lb->buf + lb->start;
	*len = avail;
	strip_cr(*line, len);
	*flags = 0;
	lb->start = lb->end;
	return true;
}

size_t linebuf_pending(const struct linebuf *lb)
{
	return lb->skipping ? 0 : lb->end - lb->start;
}
