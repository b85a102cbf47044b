/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decomp.h — compressed logs inflated as they are read: gzip (zlib, RFC 1952;
 * members one after the other, as `cat a.gz b.gz` makes them, are one text,
 * as gzip(1) reads them) and zstd (libzstd, when stwtop is built with it;
 * frames one after the other likewise). Told by the first bytes, never by
 * the name: logrotate's gc.log.3.gz and a JVM rotation renamed by hand are
 * the same. The compressed bytes come from a callback (the reader's file or
 * pipe, reader.h), so nothing here does I/O.
 */
#ifndef STWTOP_DECOMP_H
#define STWTOP_DECOMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum decomp_kind { DECOMP_NONE = 0, DECOMP_GZIP, DECOMP_ZSTD };

#define DECOMP_MAGIC_LEN 4   /* bytes decomp_sniff wants to see (fewer: a short file) */

/* What the first n bytes of a file say it is (DECOMP_NONE: plain text). */
enum decomp_kind decomp_sniff(const void *head, size_t n);
const char *decomp_name(enum decomp_kind k);         /* "gzip", "zstd" */
bool decomp_available(enum decomp_kind k);           /* built with its library */

/* The next compressed bytes: > 0 read, 0 at the end, < 0 an error (errno set). */
typedef ssize_t (*decomp_in_fn)(void *ctx, void *buf, size_t n);

struct decomp;
/* NULL: out of memory, or the kind is not available. */
struct decomp *decomp_new(enum decomp_kind k, decomp_in_fn in, void *ctx);
void decomp_free(struct decomp *d);

/* Up to n bytes of text, fewer only at its end; 0 at the end, < 0 when the
 * input failed (errno). At the end decomp_end() says how it ended. */
ssize_t decomp_read(struct decomp *d, char *out, size_t n);

/* After the end: "" when the data ended cleanly, else a sentence for the
 * user (no path): the data was cut inside a member or frame (a file still
 * being compressed: *failed false, what came before stands), bytes after the
 * last member that are not compressed data (ignored, *failed false), or
 * corrupt data (*failed true). */
const char *decomp_end(const struct decomp *d, bool *failed);

#endif
