/* SPDX-License-Identifier: GPL-2.0-or-later */
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

#include <stdbool.h>
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

/* A meta line with the JVM's start: {"v":1,"t":...,"kind":"meta",...,"jvm_start":
 * 1795980218000,"jvm_start_from":"pid","jvm_start_how":"the start time of process
 * 4242"}. Written when the start becomes known and whenever it changes, so a
 * replay of an uptime-only GC log with the recording is placed where live had it.
 * from: "pid" (/proc/PID/stat start time), "line" (a log line with both clocks),
 * "live-line" (an uptime-only line read as it was written), "mtime", "given"
 * (--jvm-start), "recording" (itself read from a recording). */
int record_format_anchor(int64_t now_ms, int64_t start_ms, const char *from, const char *how, char *buf,
			 size_t len);

/* Parse one line. 1: *out holds a sample (kind, t_ms, up_us, fields; line/src 0),
 * or an EV_ANCHOR (u.anchor_ms, t_ms = the meta line's t) for a meta line with
 * jvm_start; 0: nothing to replay (blank line, a meta line without jvm_start, or
 * a kind this version does not know — err then says which); -EINVAL: malformed
 * (err says where and why); -EPROTONOSUPPORT: written by a newer major version. */
int record_parse_line(const char *line, size_t len, struct event *out, char *err, size_t errlen);
/* The jvm_start, jvm_start_from and jvm_start_how of a meta line (false if it has none). */
bool record_meta_anchor(const char *line, size_t len, int64_t *start_ms, char *from, size_t fromlen, char *how,
			size_t howlen);

/* Appending writer: O_APPEND so several writers or a crash never interleave
 * half lines; one write(2) per sample. */
struct recorder;
struct recorder *record_open(const char *path, int64_t now_ms, const char *note, char *err, size_t errlen);
int record_write(struct recorder *r, const struct event *e);   /* 0 or -errno */
int record_write_anchor(struct recorder *r, int64_t now_ms, int64_t start_ms, const char *from,
			const char *how);                      /* 0 or -errno */
void record_close(struct recorder *r);

#endif
