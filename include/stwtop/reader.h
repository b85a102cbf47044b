/* reader.h — reads a finished file (or a pipe) once, from the start, line by
 * line: the report's and the demo's source reader, the counterpart of the
 * tailer (tail.h) that follows files as they grow. Also the two other ways
 * a file is read once: its head only (to learn something before the real
 * read, e.g. the JVM's start) and whole (a crash report is one event).
 *
 * A regular file, or a FIFO/pipe (`--gc <(zcat gc.log.gz)`, `--gc -` through
 * /dev/stdin): a FIFO nobody writes to is given up after READER_FIFO_WAIT_MS
 * instead of blocking the report for good. Messages name the path and the
 * reason, for the caller to show as it is.
 */
#ifndef STWTOP_READER_H
#define STWTOP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/linebuf.h"

#define READER_FIFO_WAIT_MS 5000   /* how long a FIFO may wait for its writer */

struct reader {
	const char *path;   /* borrowed: the caller keeps it alive */
	int fd;             /* -1: closed */
	bool opened;        /* reader_open was called (its linebuf is to be freed) */
	bool eof;
	uint64_t off;       /* bytes read */
	struct linebuf lb;
};

/* Open path for reading from the start. 0, or -errno with "path: reason" in
 * why (not there, a directory or device, a FIFO without a writer). Lines
 * longer than max_line are cut (LINEBUF_CUT). */
int reader_open(struct reader *r, const char *path, size_t max_line, char *why, size_t whylen);
/* The next line (no '\n', no trailing '\r'; valid until the next call), the
 * last one also without its '\n'. false at the end: then why holds what the
 * caller should know, or "" (a read error: *failed set; a file truncated
 * while it was read: not a failure, what was read stands). */
bool reader_next_read(struct reader *r, const char **line, size_t *len, unsigned *flags, char *why,
		      size_t whylen, bool *failed);
static inline bool reader_next(struct reader *r, const char **line, size_t *len, unsigned *flags, char *why,
			       size_t whylen, bool *failed)
{
	/* a line already in the buffer costs no call (a report reads millions) */
	return linebuf_next(&r->lb, line, len, flags) || reader_next_read(r, line, len, flags, why, whylen, failed);
}
void reader_close(struct reader *r);

/* Read the head of a regular file (max_bytes at most) line by line until fn
 * says it found what it looked for: true then. Not a FIFO: opening one would
 * wait for its writer, and closing it again could make that writer fail with
 * EPIPE (stat first, then fstat what was opened). lineno counts from 1. */
typedef bool (*reader_line_fn)(void *ctx, const char *line, size_t len, uint64_t lineno);
bool reader_scan_head(const char *path, size_t max_bytes, size_t max_line, reader_line_fn fn, void *ctx);

/* Read a regular file whole, up to cap bytes, into a malloc'ed *buf (the
 * caller frees it). *mtime_ms: its modification time. 0, -ENOMEM, or -errno
 * with "path: reason" in why. */
int reader_slurp(const char *path, size_t cap, char **buf, size_t *len, int64_t *mtime_ms, char *why, size_t whylen);

#endif
