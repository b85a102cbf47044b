/* tail.h — follows log files as they grow, through rotation, on libinotifytools.
 *
 * One inotify instance (libinotifytools keeps it; we learn its descriptor at
 * start-up so it sits in the reactor's poll set). We watch each file's parent
 * *directory* and filter by name, keeping our own fd/offset/inode per file:
 * this survives rename rotation (logrotate create, JVM -Xlog filecount ring,
 * JDK 8 gc.log.N.current), copytruncate, delete + recreate and files that do
 * not exist yet, and avoids libinotifytools' stale-wd bug on re-watch.
 * Lines are delivered only when complete; oversized lines are cut and counted.
 * Never writes to, moves or truncates what it follows.
 */
#ifndef STWTOP_TAIL_H
#define STWTOP_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tail_note {
	TAIL_NOTE_OPENED = 1,   /* the file is open and followed */
	TAIL_NOTE_WAITING,      /* it does not exist (yet): waiting for it to appear */
	TAIL_NOTE_ROTATED,      /* renamed/deleted away and replaced: old one drained, new one opened */
	TAIL_NOTE_TRUNCATED,    /* shrank under us (copytruncate, "> file"): reading from 0 */
	TAIL_NOTE_GONE,         /* deleted or moved away, no replacement yet */
	TAIL_NOTE_ERROR         /* cannot read it (permission, a directory, ...): msg says why */
};

enum tail_from { TAIL_FROM_START = 0, TAIL_FROM_END = 1 };

#define TAIL_LINE_CUT 0x1      /* same bit as LINEBUF_CUT */

struct tail_callbacks {
	/* a complete line of file `id` (no '\n'); flags TAIL_LINE_CUT */
	void (*line)(void *ctx, int id, const char *line, size_t len, unsigned flags);
	/* something happened to file `id`; msg is a one-line human explanation with the path */
	void (*note)(void *ctx, int id, enum tail_note what, const char *msg);
	void *ctx;
};

struct tail_file_stats {
	uint64_t lines, bytes, cut, rotations, truncations, errors;
	bool open;                 /* currently has an open fd */
};

struct tail;

/* Initialise libinotifytools (once per process) and learn its fd. The library
 * prints errors to stderr: callers that own the terminal redirect stderr. */
struct tail *tail_new(const struct tail_callbacks *cb, size_t max_line, char *err, size_t errlen);
void tail_free(struct tail *t);

/* Follow path. Returns an id >= 0, or -errno (e.g. -ENOENT for a missing
 * parent directory). A missing file is not an error: it is waited for. */
int tail_add(struct tail *t, const char *path, enum tail_from from);

/* The descriptor to poll for POLLIN. */
int tail_fd(const struct tail *t);

/* Drain pending inotify events (non-blocking) and read what they announce. */
void tail_dispatch(struct tail *t);

/* Periodic safety net (call every second or so): stat each path to catch a
 * missed event or an inotify queue overflow, retry files in error. Cheap. */
void tail_check(struct tail *t);

void tail_stats(const struct tail *t, int id, struct tail_file_stats *out);
const char *tail_path(const struct tail *t, int id);

#endif
