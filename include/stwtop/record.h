/* record.h — `--record FILE` / `--replay FILE`: every polled sample (EV_CPU,
 * EV_MEM, EV_SCHED, EV_VMSTAT) as one JSON object per line (NDJSON), schema in
 * docs/record-format.md:
 *
 *   {"v":1,"t":1795980244337,"kind":"cpu","nr_periods":259,"nr_throttled":1,...}
 *
 * "v" is the major version of the schema: additions (new keys, new kinds) keep it,
 * and readers ignore keys and kinds they do not know; a reader refuses a higher
 * major version. Round trip is exact: every field of the four kinds, doubles
 * included (17 significant digits), -1 "unknown" values written as they are. */
#ifndef STWTOP_RECORD_H
#define STWTOP_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"

#define RECORD_VERSION 1

/* One line (no '\n') for e into buf, NUL-terminated. Returns its length, -EINVAL
 * for a kind that is not a polled sample, -ENOSPC if len is too small, -ENOMEM. */
int record_format(const struct event *e, char *buf, size_t len);

/* The first line record_open() writes: {"v":1,"t":...,"kind":"meta","tool":"stwtop",
 * "version":"0.1.0"}; note (may be NULL) says what was polled (cgroup_probe_describe). */
int record_format_meta(int64_t now_ms, const char *note, char *buf, size_t len);

/* Parse one line. 1: *out holds a sample (kind, t_ms, up_us, fields; line/src 0);
 * 0: nothing to replay (blank line, the meta line, or a kind this version does
 * not know — err then says which); -EINVAL: malformed (err says where and why);
 * -EPROTONOSUPPORT: written by a newer major version. */
int record_parse_line(const char *line, size_t len, struct event *out, char *err, size_t errlen);

/* Appending writer: O_APPEND so several writers or a crash never interleave
 * half lines; one write(2) per sample. */
struct recorder;
struct recorder *record_open(const char *path, int64_t now_ms, const char *note, char *err, size_t errlen);
int record_write(struct recorder *r, const struct event *e);   /* 0 or -errno */
void record_close(struct recorder *r);

#endif
