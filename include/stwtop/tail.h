/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tail.h — follows log files as they grow, through rotation, on libinotifytools.
 *
 * One inotify instance (libinotifytools keeps it; we learn its descriptor at
 * start-up so it sits in the reactor's poll set). We watch each file's parent
 * *directory* and filter by name, keeping our own fd/offset/inode per file:
 * this survives rename rotation (logrotate create, JVM -Xlog filecount ring,
 * JDK 8 gc.log.N.current), copytruncate, delete + recreate and files that do
 * not exist yet, and avoids libinotifytools' stale-wd bug on re-watch.
 * Lines are delivered only when complete; oversized lines are cut and counted.
 * Never writes to, moves or truncates what it follows (O_RDONLY|O_NONBLOCK).
 *
 * What no reader can get back is not delivered: with copytruncate, lines
 * written between the copy and the truncate, and lines not yet read when the
 * truncate comes; a generation created and deleted (not renamed) before the
 * reader looked. A truncated file rewritten to exactly its old bytes up to our
 * offset cannot be told from the original. A writer that writes to a rotated
 * file after the grace period (tail_set_grace_ms) is no longer read.
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
	TAIL_NOTE_ERROR,        /* cannot read it (permission, a directory, ...) or cannot watch its
	                         * directory (then it is checked by tail_check only): msg says why */
	TAIL_NOTE_OVERFLOW      /* inotify events were lost: everything was looked at again, but
	                         * generations rotated away meanwhile may have unread lines */
};

enum tail_from { TAIL_FROM_START = 0, TAIL_FROM_END = 1 };

#define TAIL_LINE_CUT 0x1      /* same bit as LINEBUF_CUT */
#define TAIL_LINE_PARTIAL 0x2  /* the file was truncated, replaced and drained, or let go before
                                * this line's '\n' came: this is all there was of it */

struct tail_callbacks {
	/* a complete line of file `id` (no '\n', no trailing '\r'); flags
	 * TAIL_LINE_CUT, TAIL_LINE_PARTIAL; line is valid during the call only */
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
 * prints errors to stderr: callers that own the terminal redirect stderr
 * (tail_set_stderr_file). The library is a process-wide singleton with one
 * event queue: only one tailer may be live at a time (a second tail_new fails
 * with EBUSY and says so in err); after tail_free a new one can be made, the
 * inotify instance is reused. Create the first tailer at start-up, before
 * other threads exist and before many files are open (the library waits with
 * select(), so its fd must stay below FD_SETSIZE). max_line 0 = 1 MiB. */
struct tail *tail_new(const struct tail_callbacks *cb, size_t max_line, char *err, size_t errlen);
void tail_free(struct tail *t);

/* Follow path. Returns an id >= 0, or -errno only for a bad argument or no
 * memory (-EINVAL, -ENAMETOOLONG, -ENOMEM). A missing file is not an error:
 * it is waited for (TAIL_NOTE_WAITING), and so is a missing directory: the
 * nearest existing ancestor is watched for the next path component. A path
 * that cannot be read (a directory, not a regular file, permission, a
 * symlink loop) gets TAIL_NOTE_ERROR "path: reason" and is retried on
 * events for its name and by tail_check. Existing content is read before
 * tail_add returns (callbacks run inside it) from the start, or with
 * TAIL_FROM_END from the start of the last line still being written.
 * If path does not exist but path.<N>.current does (JDK 8
 * -Xloggc:path -XX:+UseGCLogFileRotation), the newest of those is followed
 * and the next one is picked up when the JVM rotates. A symlinked path is
 * followed by name: the target's directory is watched too, and a retargeted
 * link counts as a rotation. Callbacks may call tail_add, not tail_free,
 * tail_dispatch or tail_check. */
int tail_add(struct tail *t, const char *path, enum tail_from from);

/* The descriptor to poll for POLLIN: an epoll set holding libinotifytools'
 * inotify fd and the FIFOs being followed (a FIFO write raises no inotify
 * event on current kernels). */
int tail_fd(const struct tail *t);
/* libinotifytools' inotify descriptor itself (inside tail_fd's set), -1 before
 * the first tail_new: for diagnostics and tests. */
int tail_inotify_fd(void);

/* Drain pending inotify events (non-blocking) and read what they announce. */
void tail_dispatch(struct tail *t);
/* At most `bytes` read per tail_dispatch/tail_check (0, the default: no
 * limit; tail_add reads what is there whole). What a pass leaves (a 1 GB log
 * appearing at once, the generations an inotify overflow rescan found) is
 * read by the next passes, in the order it was written, nothing twice:
 * call tail_dispatch again while tail_pending says so (no event will come
 * for it), letting the loop draw and tick in between. */
void tail_set_budget(struct tail *t, size_t bytes);
bool tail_pending(const struct tail *t);

/* Periodic safety net (call every second or so): stat each path to catch a
 * missed event or an inotify queue overflow, retry files in error, let go of
 * old generations past the grace period. Also the only thing that notices a
 * change of a link in the middle of a symlink chain. Cheap: a few syscalls
 * per file. */
void tail_check(struct tail *t);

void tail_stats(const struct tail *t, int id, struct tail_file_stats *out);
const char *tail_path(const struct tail *t, int id);

/* A generation renamed or deleted away (or replaced) keeps being read until it
 * has had no new data for this long (default 2000 ms; checked by tail_dispatch
 * and tail_check): writers keep writing to the inode they hold open. */
void tail_set_grace_ms(struct tail *t, int64_t ms);
/* Old generations of file id still open and drained. */
int tail_draining(const struct tail *t, int id);
/* inotify queue overflows seen; each one made every file be looked at again. */
uint64_t tail_overflows(const struct tail *t);

/* Directory watches for other modules (the crash report probe), on the same
 * inotify instance: one owner of the kernel resource. fn is called from
 * tail_dispatch with the name of a file created, moved in, written to
 * (TAIL_DIR_MODIFIED) or closed after writing (TAIL_DIR_CLOSED), mask bits
 * together; with name NULL and TAIL_DIR_OVERFLOW when events were lost (look
 * at the directory again), or TAIL_DIR_LOST when the kernel dropped the watch
 * (the directory was deleted or moved): no more calls come, look by other
 * means. fn may not call tail_* functions. */
enum {
	TAIL_DIR_CREATED = 0x1,      /* created or moved in */
	TAIL_DIR_MODIFIED = 0x2,
	TAIL_DIR_CLOSED = 0x4,       /* closed after writing */
	TAIL_DIR_OVERFLOW = 0x8,
	TAIL_DIR_LOST = 0x10
};
typedef void (*tail_dir_fn)(void *ctx, const char *name, unsigned what);
/* Watch dir (absolute or relative; a directory). Returns an id >= 0, or
 * -errno when it cannot be watched (-ENOTDIR, -EACCES, -ENOSPC: inotify
 * limits, ...). */
int tail_watch_dir(struct tail *t, const char *dir, tail_dir_fn fn, void *ctx);
void tail_unwatch_dir(struct tail *t, int id);

/* libinotifytools writes its errors to stderr (fd 2). A curses front end calls
 * this before it owns the terminal: path is opened (append, 0600) and dup2()ed
 * onto fd 2 for the whole process. Returns 0 or -errno. The tailer itself never
 * prints; it reports through the note callback only. */
int tail_set_stderr_file(const char *path);

#endif
