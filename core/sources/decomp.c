/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decomp.c — gzip (zlib) and zstd (libzstd, with STWTOP_HAVE_ZSTD) inflated
 * as they are read (decomp.h). Formats: RFC 1952 (gzip members, CRC-32 and
 * length checked by zlib), RFC 8878 (zstd frames; skippable frames skipped by
 * libzstd). */
#include "stwtop/decomp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef STWTOP_HAVE_ZSTD
#include <zstd.h>
#endif

#define DECOMP_IN (256 << 10)   /* compressed bytes read at once */

struct decomp {
	enum decomp_kind kind;
	decomp_in_fn in_fn;
	void *in_ctx;
	unsigned char *in;
	size_t in_len, in_pos;   /* zstd's view of in (gzip keeps it in z) */
	bool in_eof;             /* the input gave its last byte */
	bool in_member;          /* inside a member/frame: its end has not been seen */
	uint64_t members;        /* members/frames ended */
	uint64_t in_total;       /* compressed bytes read */
	char end[200];           /* how the data ended, when not cleanly */
	bool failed;
	z_stream z;
#ifdef STWTOP_HAVE_ZSTD
	ZSTD_DStream *zs;
#endif
};

enum decomp_kind decomp_sniff(const void *head, size_t n)
{
	const unsigned char *m = head;
	if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		return DECOMP_GZIP;
	if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd)
		return DECOMP_ZSTD;
	return DECOMP_NONE;
}

const char *decomp_name(enum decomp_kind k)
{
	return k == DECOMP_GZIP ? "gzip" : k == DECOMP_ZSTD ? "zstd" : "plain";
}

bool decomp_available(enum decomp_kind k)
{
#ifdef STWTOP_HAVE_ZSTD
	return k == DECOMP_GZIP || k == DECOMP_ZSTD;
#else
	return k == DECOMP_GZIP;
#endif
}

struct decomp *decomp_new(enum decomp_kind k, decomp_in_fn in, void *ctx)
{
	if (!decomp_available(k))
		return NULL;
	struct decomp *d = calloc(1, sizeof *d);
	if (!d || !(d->in = malloc(DECOMP_IN))) {
		free(d);
		return NULL;
	}
	d->kind = k;
	d->in_fn = in;
	d->in_ctx = ctx;
	bool ok;
#ifdef STWTOP_HAVE_ZSTD
	if (k == DECOMP_ZSTD)
		ok = (d->zs = ZSTD_createDStream()) != NULL && !ZSTD_isError(ZSTD_initDStream(d->zs));
	else
#endif
		/* 15 + 16: a gzip header and trailer, nothing else */
		ok = inflateInit2(&d->z, 15 + 16) == Z_OK;
	if (!ok) {
#ifdef STWTOP_HAVE_ZSTD
		ZSTD_freeDStream(d->zs);
#endif
		free(d->in);
		free(d);
		return NULL;
	}
	return d;
}

void decomp_free(struct decomp *d)
{
	if (!d)
		return;
#ifdef STWTOP_HAVE_ZSTD
	if (d->kind == DECOMP_ZSTD)
		ZSTD_freeDStream(d->zs);
	else
#endif
		inflateEnd(&d->z);
	free(d->in);
	free(d);
}

const char *decomp_end(const struct decomp *d, bool *failed)
{
	*failed = d->failed;
	return d->end;
}

/* How the data ended when not cleanly: cut (a file still being compressed:
 * said, not a failure), junk after the last member (said, ignored), or
 * corrupt (a failure; what came before stands). left: bytes read, not used. */
static void said(struct decomp *d, const char *what, size_t left, const char *detail)
{
	const char *name = decomp_name(d->kind);
	unsigned long long at = (unsigned long long)(d->in_total - left);
	if (strcmp(what, "cut") == 0)
		snprintf(d->end, sizeof d->end, "truncated %s: it ends inside compressed data (%llu bytes; still "
			 "being compressed?): the lines before the cut are read", name, at);
	else if (strcmp(what, "junk") == 0)
		snprintf(d->end, sizeof d->end, "what follows the %s data at byte %llu is not %s: ignored", name, at,
			 name);
	else {
		snprintf(d->end, sizeof d->end, "corrupt %s data near byte %llu (%s): the lines before it are read",
			 name, at, detail);
		d->failed = true;
	}
}

/* more compressed bytes into d->in when all were used; false: the input failed */
static bool refill(struct decomp *d, size_t left)
{
	if (left > 0 || d->in_eof)
		return true;
	ssize_t k = d->in_fn(d->in_ctx, d->in, DECOMP_IN);
	if (k < 0)
		return false;
	d->in_eof = k == 0;
	d->in_len = (size_t)k;
	d->in_pos = 0;
	d->in_total += (uint64_t)k;
	return true;
}

static ssize_t gz_read(struct decomp *d, char *p, size_t n)
{
	z_stream *z = &d->z;
	z->next_out = (Bytef *)p;
	z->avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
	uInt want = z->avail_out;
	while (z->avail_out > 0) {
		if (!refill(d, z->avail_in))
			return want - z->avail_out > 0 ? (ssize_t)(want - z->avail_out) : -1;
		if (z->avail_in == 0 && d->in_len) {
			z->next_in = d->in;
			z->avail_in = (uInt)d->in_len;
			d->in_len = 0;
		}
		if (z->avail_in == 0) {
			if (d->in_member)
				said(d, "cut", 0, NULL);
			break;
		}
		d->in_member = true;
		int rc = inflate(z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* the next member (cat a.gz b.gz), if any, starts afresh */
			d->members++;
			d->in_member = false;
			inflateReset(z);
		} else if (rc == Z_DATA_ERROR && d->members > 0 && z->total_out == 0) {
			said(d, "junk", z->avail_in, NULL);   /* not a member's start: what gzip(1) ignores too */
			break;
		} else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z->avail_in == 0)) {
			said(d, "corrupt", z->avail_in, z->msg ? z->msg : "zlib error");
			break;
		}
	}
	return (ssize_t)(want - z->avail_out);
}

#ifdef STWTOP_HAVE_ZSTD
static ssize_t zs_read(struct decomp *d, char *p, size_t n)
{
	ZSTD_outBuffer ob = {p, n, 0};
	while (ob.pos < ob.size) {
		if (!refill(d, d->in_len - d->in_pos))
			return ob.pos ? (ssize_t)ob.pos : -1;
		bool dry = d->in_pos == d->in_len;
		if (dry && !d->in_member)
			break;
		ZSTD_inBuffer ib = {d->in, d->in_len, d->in_pos};
		size_t before = ob.pos;
		bool starting = !d->in_member;
		d->in_member = true;
		size_t rc = ZSTD_decompressStream(d->zs, &ob, &ib);
		d->in_pos = ib.pos;
		if (ZSTD_isError(rc)) {
			if (d->members > 0 && starting)
				said(d, "junk", d->in_len - d->in_pos, NULL);
			else
				said(d, "corrupt", d->in_len - d->in_pos, ZSTD_getErrorName(rc));
			break;
		}
		/* 0: a frame ended and all of it was given out */
		if (rc == 0)
			d->members++;
		d->in_member = rc != 0;
		if (dry && ob.pos == before) {
			/* nothing more will come: buffered output was given above */
			if (d->in_member)
				said(d, "cut", 0, NULL);
			break;
		}
	}
	return (ssize_t)ob.pos;
}
#endif

ssize_t decomp_read(struct decomp *d, char *out, size_t n)
{
	if (d->end[0])
		return 0;
#ifdef STWTOP_HAVE_ZSTD
	if (d->kind == DECOMP_ZSTD)
		return zs_read(d, out, n);
#endif
	return gz_read(d, out, n);
}
