/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_linebuf.c — libFuzzer target for the line splitter (linebuf.h) that the
 * report's reader and the tailer read every byte through: the input, fed in
 * uneven pieces as a pipe or a growing file gives them, must come out as the
 * lines a one-pass reference splitter makes of it (whole lines of at most
 * max_line bytes without '\n' and a trailing '\r'; the head of a longer one,
 * flagged LINEBUF_CUT; the last line without '\n'), whatever the piece sizes.
 * Byte 0 picks max_line (1..64), byte 1 the first piece size. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/linebuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct ref {
	const char *p;
	size_t n, off, max;
};

/* the next line the reference makes, false at the end */
static bool ref_next(struct ref *r, const char **line, size_t *len, unsigned *flags)
{
	if (r->off >= r->n)
		return false;
	const char *s = r->p + r->off;
	size_t avail = r->n - r->off;
	const char *nl = memchr(s, '\n', avail);
	size_t k = nl ? (size_t)(nl - s) : avail;
	r->off += nl ? k + 1 : k;
	*line = s;
	if (k > r->max) {
		*len = r->max;
		*flags = LINEBUF_CUT;
		return true;
	}
	*len = k > 0 && s[k - 1] == '\r' ? k - 1 : k;
	*flags = 0;
	return nl || k > 0;
}

static void expect(struct ref *r, const char *line, size_t len, unsigned flags)
{
	const char *rl;
	size_t rn;
	unsigned rf;
	if (!ref_next(r, &rl, &rn, &rf) || rn != len || rf != flags || memcmp(rl, line, len) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t max = (size_t)(data[0] % 64) + 1, step = (size_t)data[1] % 97 + 1;
	const char *text = (const char *)data + 2;
	size_t n = size - 2, off = 0;
	struct ref r = { text, n, 0, max };
	struct linebuf lb;
	if (linebuf_init(&lb, max, 16) != 0)
		return 0;
	const char *line;
	size_t len;
	unsigned flags;
	while (off < n) {
		size_t room;
		char *p = linebuf_space(&lb, &room);
		size_t k = n - off < step ? n - off : step;
		if (k > room)
			k = room;
		memcpy(p, text + off, k);
		linebuf_commit(&lb, k);
		off += k;
		step = step * 7 % 89 + 1;
		while (linebuf_next(&lb, &line, &len, &flags))
			expect(&r, line, len, flags);
	}
	if (linebuf_take_partial(&lb, &line, &len, &flags))
		expect(&r, line, len, flags);
	/* nothing the reference has may be left over */
	if (ref_next(&r, &line, &len, &flags))
		abort();
	linebuf_fini(&lb);
	return 0;
}
