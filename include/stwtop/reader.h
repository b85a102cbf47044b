/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reader.h — reads a finished file (or a pipe) once, from the start, line by
 * line: the report's and the demo's source reader, the counterpart of the
 * tailer (tail.h) that follows files as they grow. Also the two other ways
 * a file is read once: its head only (to learn something before the real
 * read, e.g. the JVM's start) and whole (a crash report is one event).
 *
 * A regular file, or a FIFO/pipe (`--gc <(zcat gc.log.gz)`, `--gc -` for
 * stdin, /dev/stdin, /dev/fd/N): a named FIFO nobody writes to is given up
 * after READER_FIFO_WAIT_MS instead of blocking the report for good (a
 * pipeline's pipe is waited for: its writer is there, maybe slow to start). Either may be
 * compressed (gzip, zstd: told by its first bytes, not by its name; decomp.h).
 * A pipe cannot be read twice: what must be known before the real read (the
 * JVM's start) is learnt with reader_peek(), whose bytes are kept and read
 * again. Messages name the path and the reason, for the caller to show as it is.
 */
#ifndef STWTOP_READER_H
#define STWTOP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/linebuf.h"

#define READER_FIFO_WAIT_MS 5000   /* how long a FIFO may wait for its writer */

#define READER_STDIN "-"            /* the path that means standard input */

/* "-", /dev/stdin, /dev/fd/0, /proc/self/fd/0: only one source can read it */
bool reader_path_is_stdin(const char *path);

struct decomp;                     /* decomp.h */

struct reader {
	const char *path;   /* borrowed: the caller keeps it alive */
	const char *label;  /* path, or "stdin": what messages name */
	int fd;             /* -1: closed */
	bool opened;        /* reader_open was called (its linebuf is to be freed) */
	bool eof;
	bool peeked;        /* reader_peek ran (it runs once, before any line) */
	uint64_t off;       /* bytes read from the file (compressed bytes when compressed) */
	char magic[4];      /* the first bytes, read to tell compression: given back first */
	size_t nmagic, magic_off;
	struct decomp *dec; /* non-NULL: the file is compressed (gzip, zstd) */
	char *head;         /* text read by reader_peek, given back before the file's next */
	size_t head_len, head_off;
	char end_why[240];  /* what the end of the text must say (a truncated gzip...) */
	bool end_failed;    /* ... and whether it is a failure */
	struct linebuf lb;
};

/* Open path ("-": standard input) for reading from the start. 0, or -errno
 * with "path: reason" in why (not there, a directory or device, a FIFO without
 * a writer, a zstd file in a build without libzstd). Lines longer than max_line are cut
 * (LINEBUF_CUT). */
int reader_open(struct reader *r, const char *path, size_t max_line, char *why, size_t whylen);
/* The next line (no '\n', no trailing '\r'; valid until the next call), the
 * last one also without its '\n'. false at the end: then why holds what the
 * caller should know, or "" (a read error or corrupt compressed data: *failed
 * set; a file truncated while it was read, a gzip or zstd that ends inside a
 * member (still being compressed): not a failure, what was read stands and
 * why says so). */
bool reader_next_read(struct reader *r, const char **line, size_t *len, unsigned *flags, char *why,
		      size_t whylen, bool *failed);
static inline bool reader_next(struct reader *r, const char **line, size_t *len, unsigned *flags, char *why,
			       size_t whylen, bool *failed)
{
	/* a line already in the buffer costs no call (a report reads millions) */
	return linebuf_next(&r->lb, line, len, flags) || reader_next_read(r, line, len, flags, why, whylen, failed);
}
void reader_close(struct reader *r);

/* Read the head of an opened reader's text (about max_bytes: whole reads of
 * the line buffer's chunk until max_bytes are passed) and give its lines to
 * fn until it says it found what it looked for: true then. The bytes read
 * stay in memory and reader_next gives them again, so a pipe yields the same
 * lines as a file. Once, before the first reader_next. lineno counts from 1. */
typedef bool (*reader_line_fn)(void *ctx, const char *line, size_t len, uint64_t lineno);
bool reader_peek(struct reader *r, size_t max_bytes, reader_line_fn fn, void *ctx);

/* "gzip" or "zstd" when path is a regular file that starts with their magic
 * bytes, else NULL: the live tailer cannot follow one (it does not grow). */
const char *reader_compressed_file(const char *path);

/* Read a regular file whole, up to cap bytes, into a malloc'ed *buf (the
 * caller frees it). *mtime_ms: its modification time. 0, -ENOMEM, or -errno
 * with "path: reason" in why. */
int reader_slurp(const char *path, size_t cap, char **buf, size_t *len, int64_t *mtime_ms, char *why, size_t whylen);

#endif
