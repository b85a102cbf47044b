/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tail.c — follows files through rotation on libinotifytools (see tail.h).
 *
 * Design, after what libinotifytools 3.22 does on Debian 12 (read in its source):
 * - One inotify instance, owned by the library (a process-wide singleton). We
 *   learn its descriptor with the lowest-free-fd trick, assert it through
 *   /proc/self/fd, make it non-blocking + close-on-exec, and drain it with
 *   inotifytools_next_events(0, 1) until NULL.
 * - tail_fd() is an epoll descriptor holding that inotify fd and every FIFO
 *   being followed: on current kernels (seen on 6.18) a write to a named FIFO
 *   raises no IN_MODIFY, and a FIFO that is not read promptly blocks its
 *   writer (the JVM) once the pipe buffer is full. FIFOs are edge-triggered:
 *   a FIFO without writers reports HUP for as long as it has none.
 * - We watch *directories* (one reference-counted watch per directory) and
 *   filter events by name; every followed file keeps its own fd, offset and
 *   inode. The file's inode is never watched, which sidesteps the library's
 *   stale-wd bug for files. Directories can still die (rm -r): the library
 *   then keeps a stale name -> wd entry, so a wd is always checked against the
 *   kernel's list in /proc/self/fdinfo before it is trusted or removed.
 * - A followed path goes through generations (inodes). The current one is read
 *   as it grows; one that was renamed away, deleted or replaced becomes "old"
 *   and is drained until it has been idle for a grace period, because writers
 *   keep writing to the inode they hold open. Before a chunk of the current
 *   generation is delivered the old ones are drained, so a writer that moved
 *   from the old file to the new one is delivered in the order it wrote.
 * - Namespace events are not acted on one by one: a batch of events marks
 *   files dirty, then each dirty file is resolved once against the file system
 *   (stat the path, compare the inode). Renames inside the batch are paired by
 *   cookie so that a generation that was created and renamed away again before
 *   we looked (several rotations in a burst) is still opened and read.
 * Nothing here prints: everything is reported through the note callback.
 */
#include "stwtop/tail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <inotifytools/inotifytools.h>

#include "stwtop/linebuf.h"
#include "stwtop/util.h"

#define TAIL_CHUNK (64 * 1024)               /* one read() */
#define TAIL_DEFAULT_MAX_LINE (1024 * 1024)
#define TAIL_DEFAULT_GRACE_MS 2000
#define TAIL_MAX_OLDS 8                      /* old generations drained at once per file */
#define TAIL_SIG_LEN 32                      /* bytes remembered just before the offset */
#define TAIL_EVENT_BATCH 4096
#define TAIL_MAX_LINK_HOPS 8
#define TAIL_ERR_NOTREG (-1)                 /* pseudo errno: "not a regular file" */
#define TAIL_SEEN_MAX 16384                  /* generations remembered as read (per file) */
#define TAIL_RESCAN_MAX TAIL_SEEN_MAX        /* unread generations recovered after an overflow */
#define TAIL_RESCAN_SLACK_MS 100             /* ctime slack of that search (ctime's granularity) */
#define TAIL_OPEN_COST 4096                  /* budget a rescanned generation's open costs (bytes) */

/* IN_CLOSE_WRITE is left out on purpose: every write already brings IN_MODIFY,
 * and CLOSE_WRITE would double the queue load of one-process-per-line writers.
 * IN_ATTRIB lets a chmod retry a file that could not be opened. */
#define TAIL_DIR_MASK (IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_MODIFY | \
		       IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
/* tail_watch_dir: files appearing and being written. IN_CLOSE_WRITE is what
 * tells a watcher (the crash report probe) that a writer is done; a
 * directory shared with followed files then has both masks (one wd per
 * directory and instance: inotify_add_watch replaces the mask). */
#define TAIL_WATCHDIR_MASK (IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE | IN_ONLYDIR)

/* The library keeps one inotify instance in static storage, so this state is
 * process-wide too. Only one tailer may be live at a time: the library has one
 * event queue and could not route events to two owners. */
static struct {
	bool init;
	int fd;
	struct tail *owner;
} tail_lib = { false, -1, NULL };

struct tail_gen {              /* one inode of a followed path */
	int fd;                    /* -1: none */
	dev_t dev;
	ino_t ino;
	bool regular;              /* offsets and truncation make sense (not a FIFO) */
	bool skip_to_nl;           /* started inside a line: drop bytes up to its '\n' */
	uint64_t off;              /* bytes consumed */
	int64_t last_data_ms;      /* monotonic: old generations close after the grace period */
	struct linebuf lb;
	unsigned char sig[TAIL_SIG_LEN];   /* the bytes just before off, to notice a rewrite */
	size_t sig_len;
};

/* The path's state. A generation being drained after it was renamed or
 * deleted away (DRAINING) lives in old[], whatever the path's state is. */
enum tail_state { TAIL_ST_WAITING, TAIL_ST_OPEN, TAIL_ST_ERROR };

struct tail_file {
	int id;
	char *path;                /* as given: messages and tail_path() */
	char *abs;                 /* absolute, lexically cleaned: every syscall */
	char *dir;                 /* dirname(abs) */
	const char *base;          /* basename, inside abs */
	char *follow;              /* name followed in dir: base, or base.N.current (JDK 8) */
	enum tail_state state;
	int err;                   /* errno of the ERROR state, so it is noted once */
	int watch_err;             /* errno of a failed directory watch, noted once */
	bool ever_open;
	struct tail_gen cur;
	struct tail_gen old[TAIL_MAX_OLDS];    /* replaced generations, oldest first */
	int nold;
	/* inodes read to the end (and the rotated siblings there were at the
	 * start): after a queue overflow the directory is searched for
	 * generations no event told about, and these are not read again */
	struct tail_ino { dev_t dev; ino_t ino; } *seen;   /* a ring that grows to TAIL_SEEN_MAX */
	size_t nseen, seen_next, seen_cap;
	/* generations an overflow rescan found and that are not opened yet,
	 * oldest first: taken (cand[icand..ncand)) a few per turn, each read to
	 * its end before the next, all before the current generation */
	struct tail_cand *cand;
	size_t ncand, icand;
	int wdir;                  /* dir entry watched for the path: its parent or nearest ancestor */
	char *want;                /* wdir is an ancestor: the next path component awaited there */
	int tdir;                  /* the path is a symlink: dir entry of its final target */
	char *tbase;               /* ... and the target's name there */
	/* what the current event batch asked for */
	bool dirty_read, dirty_resolve, dirty_old;
	uint32_t mv_cookie;
	int mv_dir;
	struct tail_file_stats st;
};

struct tail_dir {
	char *path;                /* NULL: free slot */
	int wd;                    /* -1: not watched (failed, or dropped by the kernel) */
	uint32_t mask;             /* what its users need: TAIL_DIR_MASK, TAIL_WATCHDIR_MASK or both */
	dev_t dev;
	ino_t ino;
	int refs;
};

struct tail {
	struct tail_callbacks cb;
	int epfd;                  /* what tail_fd() hands out: inotify + FIFOs */
	size_t max_line;
	int64_t grace_ms;
	struct tail_file **files;
	size_t nfiles, capfiles;
	struct tail_dir *dirs;
	size_t ndirs;
	struct tail_dirwatch {     /* tail_watch_dir: di < 0 is a free slot */
		int di;
		tail_dir_fn fn;
		void *ctx;
	} *dws;
	size_t ndws;
	uint64_t overflows;
	int64_t overflow_told_ms;    /* last time an overflow was noted (monotonic ms) */
	bool rescan;
	int64_t drained_real_ms;     /* wall clock when the queue was last read to empty */
	int64_t rescanned_real_ms;   /* wall clock when the last overflow rescan listed the directories */
	int busy;                  /* inside tail_dispatch/tail_check (callbacks may tail_add) */
	/* A pass reads at most `budget` bytes (0: no limit) and leaves the rest
	 * for the next (tail_pending): a 1 GB log appearing at once or the
	 * generations of an overflow rescan are read in slices, and the loop
	 * draws and ticks between them. `unbounded` > 0: what must be read to
	 * the end now (a generation closed, the bytes between two chunks of
	 * the current one) ignores it. */
	size_t budget, spent;
	int unbounded;
};

struct tail_cand {
	int64_t ctime_ms;
	char *name;
	dev_t dev;
	ino_t ino;
};

/* ---------------------------------------------------------------- strings */

static char *str_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *str_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* Absolute (so a later chdir does not matter) with repeated '/', "." and a
 * trailing '/' removed. ".." stays: resolving it lexically would be wrong
 * through symlinks, and the kernel resolves it anyway. */
static char *path_absolute(const char *p)
{
	char *cwd = NULL;
	if (p[0] != '/' && !(cwd = getcwd(NULL, 0)))
		return NULL;
	char *s = cwd ? str_fmt("%s/%s", cwd, p) : strdup(p);
	free(cwd);
	if (!s)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; s[i];) {
		if (s[i] != '/') {
			s[o++] = s[i++];
			continue;
		}
		while (s[i] == '/')
			i++;
		if (s[i] == '.' && (s[i + 1] == '/' || s[i + 1] == '\0')) {
			i++;
			continue;
		}
		if (s[i] == '\0')
			break;
		s[o++] = '/';
	}
	if (o == 0)
		s[o++] = '/';
	s[o] = '\0';
	return s;
}

static char *path_dirname(const char *abs)
{
	const char *slash = strrchr(abs, '/');
	if (!slash || slash == abs)
		return strdup("/");
	return strndup(abs, (size_t)(slash - abs));
}

static const char *path_base(const char *abs)
{
	const char *slash = strrchr(abs, '/');
	return slash ? slash + 1 : abs;
}

static char *path_join(const char *dir, const char *name)
{
	return str_fmt("%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name);
}

/* base.<digits>.current: what JDK 8 -XX:+UseGCLogFileRotation writes for -Xloggc:base */
static bool name_is_rotated_current(const char *base, const char *name)
{
	static const char suffix[] = ".current";
	size_t bl = strlen(base), nl = strlen(name), sl = sizeof suffix - 1;
	if (nl < bl + 2 + sl || memcmp(name, base, bl) != 0 || name[bl] != '.' ||
	    memcmp(name + nl - sl, suffix, sl) != 0)
		return false;
	size_t digits = nl - sl - bl - 1;
	if (digits > 9)
		return false;
	for (size_t i = bl + 1; i < nl - sl; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

static bool name_matches(const struct tail_file *f, const char *name)
{
	return strcmp(name, f->base) == 0 || name_is_rotated_current(f->base, name);
}

/* ------------------------------------------------------- the library's fd */

/* Is fd an inotify instance? The kernel checks that before it looks the path
 * up, so a watch on "" fails with ENOENT on an inotify descriptor and with
 * EINVAL on any other: no side effect, and no /proc needed (a static binary
 * in a chroot or a pod may have none). what: what it is instead. */
static bool fd_is_inotify(int fd, char *what, size_t whatlen)
{
	if (inotify_add_watch(fd, "", IN_MODIFY) >= 0) /* cannot happen: "" names nothing */
		return true;
	int e = errno;
	if (e == ENOENT)
		return true;
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, what, whatlen - 1);
	if (n < 0)
		snprintf(what, whatlen, "%s", strerror(e));
	else
		what[n] = '\0';
	return false;
}

/* The library cannot forget a watch the kernel dropped (its directory was
 * deleted: a bug of libinotifytools 3.22), so its bookkeeping of that watch
 * lives until the process ends; free it all then, so leak checkers see only
 * real leaks. */
static void lib_cleanup_at_exit(void)
{
	if (tail_lib.init)
		inotifytools_cleanup();
	tail_lib.init = false;
}

static int lib_start(char *err, size_t errlen)
{
	if (!tail_lib.init) {
		/* inotify_init() in the library returns the lowest free descriptor:
		 * take it and give it back just before. This holds while no other
		 * thread opens descriptors, i.e. at start-up. */
		int probe = eventfd(0, EFD_CLOEXEC);
		if (probe < 0) {
			int e = errno;
			snprintf(err, errlen, "tail: cannot probe for a free descriptor: %s", strerror(e));
			return -e;
		}
		close(probe);
		if (!inotifytools_initialize()) {
			int e = inotifytools_error();
			snprintf(err, errlen, "libinotifytools: cannot create an inotify instance: %s",
				 strerror(e ? e : EIO));
			return -(e ? e : EIO);
		}
		tail_lib.init = true;
		tail_lib.fd = probe;
		atexit(lib_cleanup_at_exit);
	}
	/* The second method asserts the first (and that nobody closed or reused
	 * the descriptor since). */
	char what[128];
	if (!fd_is_inotify(tail_lib.fd, what, sizeof what)) {
		snprintf(err, errlen, "libinotifytools: its inotify descriptor is not fd %d "
			 "(fd %d is \"%s\"): was the library initialised elsewhere, "
			 "or from another thread?", tail_lib.fd, tail_lib.fd, what);
		return -EBADF;
	}
	if (tail_lib.fd >= FD_SETSIZE) {
		snprintf(err, errlen, "libinotifytools waits with select(), which cannot take fd %d "
			 "(>= %d): create the tailer before opening many files", tail_lib.fd, FD_SETSIZE);
		return -EMFILE;
	}
	int fl = fcntl(tail_lib.fd, F_GETFL);
	if (fl < 0 || fcntl(tail_lib.fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(tail_lib.fd, F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;
		snprintf(err, errlen, "tail: fcntl on the inotify descriptor: %s", strerror(e));
		return -e;
	}
	return 0;
}

static bool parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	for (; i < n && i < 16; i++) {
		char c = s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			break;
		v = v * 16 + d;
	}
	*out = v;
	return i > 0;
}

/* The watches the kernel holds for the instance: /proc/self/fdinfo/<fd> has
 * one "inotify wd:<hex> ino:... sdev:..." line per live watch. This is the
 * authority the library lacks after a watch died under it. */
static int lib_live_wds(int **out, size_t *n)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/self/fdinfo/%d", tail_lib.fd);
	FILE *fp = fopen(p, "re");
	if (!fp)
		return -errno;
	static const char key[] = "inotify wd:";
	char *line = NULL;
	size_t cap = 0, nv = 0, capv = 0;
	int *v = NULL;
	ssize_t len;
	while ((len = getline(&line, &cap, fp)) > 0) {
		uint64_t wd;
		if ((size_t)len <= sizeof key - 1 || memcmp(line, key, sizeof key - 1) != 0 ||
		    !parse_hex(line + sizeof key - 1, (size_t)len - (sizeof key - 1), &wd) || wd > INT_MAX)
			continue;
		if (nv == capv) {
			size_t c = capv ? capv * 2 : 16;
			int *nvv = realloc(v, c * sizeof *nvv);
			if (!nvv)
				break;
			v = nvv;
			capv = c;
		}
		v[nv++] = (int)wd;
	}
	free(line);
	fclose(fp);
	*out = v;
	*n = nv;
	return 0;
}

static bool lib_wd_alive(int wd)
{
	int *v;
	size_t n;
	bool alive = false;
	if (lib_live_wds(&v, &n) < 0)
		return true;   /* cannot tell: assume alive (worst case one stderr line) */
	for (size_t i = 0; i < n; i++)
		alive |= v[i] == wd;
	free(v);
	return alive;
}

/* -------------------------------------------------------------- directories */

static bool dir_wd_owned(const struct tail *t, int wd)
{
	for (size_t i = 0; i < t->ndirs; i++)
		if (t->dirs[i].path && t->dirs[i].wd == wd)
			return true;
	return false;
}

static int dir_by_wd(const struct tail *t, int wd)
{
	for (size_t i = 0; i < t->ndirs; i++)
		if (t->dirs[i].path && t->dirs[i].wd == wd)
			return (int)i;
	return -1;
}

/* inotifytools_watch_file() answers 1 or 0, never the wd. The library maps
 * "dir/" to it, unless an earlier watch of the same path died under it: then
 * its map still names the dead wd (libinotifytools 3.22 never drops it). A wd the kernel does not list
 * is such a stale entry; the new watch is then the newest live wd we do not
 * own (the kernel allocates wds cyclically upwards). */
static int dir_learn_wd(const struct tail *t, const char *path)
{
	size_t n = strlen(path);
	char *key = (n && path[n - 1] == '/') ? strdup(path) : str_fmt("%s/", path);
	if (!key)
		return -ENOMEM;
	int wd = inotifytools_wd_from_filename(key);
	free(key);
	int *v;
	size_t nv;
	if (lib_live_wds(&v, &nv) < 0)
		return wd >= 0 ? wd : -EIO;
	int best = -1;
	bool lib_ok = false;
	for (size_t i = 0; i < nv; i++) {
		lib_ok |= v[i] == wd;
		if (!dir_wd_owned(t, v[i]) && v[i] > best)
			best = v[i];
	}
	free(v);
	if (wd >= 0 && lib_ok)
		return wd;
	return best >= 0 ? best : -EIO;
}

static void dir_unwatch(struct tail_dir *d)
{
	/* Removing a watch the kernel already dropped (directory deleted) makes
	 * the library print "Failed to remove watch" on stderr: ask the kernel. */
	if (d->wd >= 0 && lib_wd_alive(d->wd))
		inotifytools_remove_watch_by_wd(d->wd);
	d->wd = -1;
}

static int dir_watch(struct tail *t, struct tail_dir *d)
{
	dir_unwatch(d);
	if (!inotifytools_watch_file(d->path, (int)d->mask)) {
		int e = inotifytools_error();
		return -(e ? e : EIO);
	}
	/* Identity after the watch: if the directory was swapped in between, the
	 * next check sees a mismatch and watches again. */
	struct stat st;
	if (stat(d->path, &st) == 0) {
		d->dev = st.st_dev;
		d->ino = st.st_ino;
	}
	int wd = dir_learn_wd(t, d->path);
	if (wd < 0)
		return wd;
	d->wd = wd;
	return 0;
}

static void dir_mark_subscribers(struct tail *t, int di)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->files[i]->wdir == di || t->files[i]->tdir == di)
			t->files[i]->dirty_resolve = true;
}

/* A directory's mask grows when a new kind of user comes: the same call on
 * the same inode keeps the wd and replaces the mask with the union (no
 * unwatch, so no event of the other users is lost in between). */
static int dir_widen(struct tail *t, struct tail_dir *d, uint32_t mask)
{
	if ((d->mask & mask) == mask)
		return 0;
	d->mask |= mask;
	if (d->wd < 0)
		return dir_watch(t, d);
	/* Straight to the kernel, not inotifytools_watch_file(): on an inode it
	 * already watches the library makes a second record for the same wd that
	 * its tree refuses and nobody frees. The kernel replaces the mask and
	 * keeps the wd, which is all this needs. */
	int wd = inotify_add_watch(tail_lib.fd, d->path, d->mask);
	if (wd < 0)
		return -errno;
	if (wd != d->wd)   /* the directory was swapped under us: learn it again */
		return dir_watch(t, d);
	return 0;
}

static int dir_ref(struct tail *t, const char *path, const struct stat *st, uint32_t mask, int *err)
{
	*err = 0;
	for (size_t i = 0; i < t->ndirs; i++) {
		struct tail_dir *d = &t->dirs[i];
		if (d->path && d->wd >= 0 && d->dev == st->st_dev && d->ino == st->st_ino) {
			d->refs++;
			*err = dir_widen(t, d, mask);
			return (int)i;
		}
	}
	for (size_t i = 0; i < t->ndirs; i++) {
		struct tail_dir *d = &t->dirs[i];
		if (d->path && strcmp(d->path, path) == 0) {
			/* same path, but its watch failed or died: try again, in place */
			d->refs++;
			d->mask |= mask;
			*err = dir_watch(t, d);
			dir_mark_subscribers(t, (int)i);
			return (int)i;
		}
	}
	size_t slot = 0;
	while (slot < t->ndirs && t->dirs[slot].path)
		slot++;
	if (slot == t->ndirs) {
		struct tail_dir *n = realloc(t->dirs, (t->ndirs + 1) * sizeof *n);
		if (!n) {
			*err = -ENOMEM;
			return -1;
		}
		t->dirs = n;
		t->dirs[t->ndirs++].path = NULL;
	}
	struct tail_dir *d = &t->dirs[slot];
	*d = (struct tail_dir){ .path = strdup(path), .wd = -1, .dev = st->st_dev, .ino = st->st_ino, .refs = 1,
				 .mask = mask };
	if (!d->path) {
		*err = -ENOMEM;
		return -1;
	}
	*err = dir_watch(t, d);   /* kept even when it failed: tail_check retries it */
	return (int)slot;
}

static void dir_unref(struct tail *t, int di)
{
	if (di < 0)
		return;
	struct tail_dir *d = &t->dirs[di];
	if (--d->refs > 0)
		return;
	dir_unwatch(d);
	free(d->path);
	d->path = NULL;
}

/* ------------------------------------------------------------------ notes */

static void tail_note(struct tail *t, struct tail_file *f, enum tail_note what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void tail_note(struct tail *t, struct tail_file *f, enum tail_note what, const char *fmt, ...)
{
	if (!t->cb.note)
		return;
	char msg[PATH_MAX + 512];
	int n = snprintf(msg, sizeof msg, "%s: ", f->path);
	if (n < 0 || (size_t)n >= sizeof msg)
		n = 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	va_end(ap);
	t->cb.note(t->cb.ctx, f->id, what, msg);
}

/* ------------------------------------------------------------ generations */

static void emit(struct tail *t, struct tail_file *f, const char *line, size_t len, unsigned flags)
{
	f->st.lines++;
	if (flags & TAIL_LINE_CUT)
		f->st.cut++;
	if (t->cb.line)
		t->cb.line(t->cb.ctx, f->id, line, len, flags);
}

static void deliver(struct tail *t, struct tail_file *f, struct linebuf *lb)
{
	const char *line;
	size_t len;
	unsigned fl;
	while (linebuf_next(lb, &line, &len, &fl))
		emit(t, f, line, len, (fl & LINEBUF_CUT) ? TAIL_LINE_CUT : 0);
}

static void deliver_partial(struct tail *t, struct tail_file *f, struct linebuf *lb)
{
	const char *line;
	size_t len;
	unsigned fl;
	if (linebuf_take_partial(lb, &line, &len, &fl))
		emit(t, f, line, len, TAIL_LINE_PARTIAL);
}

static void gen_clear(struct tail_gen *g)
{
	memset(g, 0, sizeof *g);
	g->fd = -1;
}

static int gen_init(struct tail *t, struct tail_gen *g, int fd, const struct stat *st)
{
	gen_clear(g);
	if (linebuf_init(&g->lb, t->max_line, TAIL_CHUNK) < 0)
		return -ENOMEM;
	g->fd = fd;
	g->dev = st->st_dev;
	g->ino = st->st_ino;
	g->regular = S_ISREG(st->st_mode);
	g->last_data_ms = util_mono_ms();
	if (S_ISFIFO(st->st_mode)) {
		/* closing the fd takes it out of the set again */
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.fd = fd };
		epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ev);
	}
	return 0;
}

static void gen_close(struct tail_gen *g)
{
	if (g->fd >= 0)
		close(g->fd);
	linebuf_fini(&g->lb);
	gen_clear(g);
}

static bool gen_is(const struct tail_gen *g, const struct stat *st)
{
	return g->fd >= 0 && g->dev == st->st_dev && g->ino == st->st_ino;
}

/* Remember the last TAIL_SIG_LEN bytes consumed (they end at g->off). */
static void gen_account(struct tail_gen *g, const char *p, size_t n)
{
	g->off += n;
	if (n >= TAIL_SIG_LEN) {
		memcpy(g->sig, p + n - TAIL_SIG_LEN, TAIL_SIG_LEN);
		g->sig_len = TAIL_SIG_LEN;
		return;
	}
	size_t keep = g->sig_len < TAIL_SIG_LEN - n ? g->sig_len : TAIL_SIG_LEN - n;
	memmove(g->sig, g->sig + g->sig_len - keep, keep);
	memcpy(g->sig + keep, p, n);
	g->sig_len = keep + n;
}

/* Live mode: start at the end, but at the start of the last line if it is
 * still being written, so that line is delivered whole when its '\n' comes. */
static void gen_seek_end(struct tail_gen *g, uint64_t size)
{
	size_t room;
	char *p = linebuf_space(&g->lb, &room);   /* scratch: nothing is buffered yet */
	size_t win = room < TAIL_CHUNK ? room : TAIL_CHUNK;
	if (win > size)
		win = (size_t)size;
	uint64_t off = size;
	ssize_t n = win ? pread(g->fd, p, win, (off_t)(size - win)) : 0;
	if (n == (ssize_t)win && win > 0) {
		char *nl = memrchr(p, '\n', win);
		if (nl)
			off = size - win + (uint64_t)(nl - p) + 1;
		else if (win == size)
			off = 0;                 /* the whole file is one unfinished line */
		else
			g->skip_to_nl = true;    /* inside a line longer than the window */
		g->off = 0;
		g->sig_len = 0;
		size_t have = (size_t)(off - (size - win));
		gen_account(g, p + (have > TAIL_SIG_LEN ? have - TAIL_SIG_LEN : 0),
			    have > TAIL_SIG_LEN ? TAIL_SIG_LEN : have);
	}
	g->off = off;
	lseek(g->fd, (off_t)off, SEEK_SET);
}

static int gen_read(struct tail *t, struct tail_file *f, struct tail_gen *g, bool current);

static bool tail_spent(const struct tail *t)
{
	return t->budget && !t->unbounded && t->spent >= t->budget;
}

static void drain_olds(struct tail *t, struct tail_file *f)
{
	for (int i = 0; i < f->nold; i++)
		if (gen_read(t, f, &f->old[i], false) < 0)
			f->old[i].last_data_ms = INT64_MIN / 2;   /* unreadable: let it expire now */
}

static bool file_catch_up(struct tail *t, struct tail_file *f);
static bool cand_pending(const struct tail_file *f, dev_t dev, ino_t ino);

/* A regular file that shrank below our offset, or whose bytes just before it
 * changed (truncated and written past the old offset before we looked), was
 * truncated under us: copytruncate or "> file". Read it again from 0. */
static void gen_check_truncated(struct tail *t, struct tail_file *f, struct tail_gen *g)
{
	struct stat st;
	if (g->off == 0 || fstat(g->fd, &st) < 0)
		return;
	uint64_t size = (uint64_t)st.st_size;
	bool trunc = size < g->off;
	/* size == off too: rewritten to exactly the old length */
	if (!trunc && g->sig_len > 0) {
		unsigned char now[TAIL_SIG_LEN];
		ssize_t n = pread(g->fd, now, g->sig_len, (off_t)(g->off - g->sig_len));
		trunc = n != (ssize_t)g->sig_len || memcmp(now, g->sig, g->sig_len) != 0;
	}
	if (!trunc)
		return;
	uint64_t was = g->off;
	deliver_partial(t, f, &g->lb);   /* its rest went with the truncation */
	linebuf_reset(&g->lb);
	lseek(g->fd, 0, SEEK_SET);
	g->off = 0;
	g->sig_len = 0;
	g->skip_to_nl = false;
	f->st.truncations++;
	if (size < was)
		tail_note(t, f, TAIL_NOTE_TRUNCATED, "truncated (size %llu < offset %llu); reading from the start",
			  (unsigned long long)size, (unsigned long long)was);
	else
		tail_note(t, f, TAIL_NOTE_TRUNCATED, "truncated and rewritten past offset %llu; reading from the start",
			  (unsigned long long)was);
}

/* Read g up to what is there now and deliver its complete lines. For the
 * current generation the old ones are drained before each chunk is
 * delivered, so lines come in the order the writer wrote them. */
static int gen_read(struct tail *t, struct tail_file *f, struct tail_gen *g, bool current)
{
	if (g->fd < 0)
		return 0;
	if (current && g->regular)
		gen_check_truncated(t, f, g);
	/* what is older (rescanned, renamed away) goes first, all of it */
	if (current && !file_catch_up(t, f)) {
		f->dirty_read = true;
		return 0;
	}
	for (;;) {
		if (tail_spent(t)) {
			if (current)
				f->dirty_read = true;
			else
				f->dirty_old = true;
			return 0;
		}
		/* At most TAIL_CHUNK a read(), not all the room: the buffer is
		 * max_line + TAIL_CHUNK so that a cut-off line plus a chunk fit, and
		 * reading it all would touch its pages as far as the largest burst
		 * ever reached (1 MB of RSS per file, filled over hours). So a
		 * file's buffer stays at the longest unfinished line + 64 KB. */
		size_t room;
		char *p = linebuf_space(&g->lb, &room);
		if (room > TAIL_CHUNK)
			room = TAIL_CHUNK;
		ssize_t n = read(g->fd, p, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 0 : -errno;
		}
		if (n == 0)
			return 0;
		g->last_data_ms = util_mono_ms();
		f->st.bytes += (uint64_t)n;
		t->spent += (size_t)n;
		gen_account(g, p, (size_t)n);
		size_t keep = (size_t)n;
		if (g->skip_to_nl) {
			char *nl = memchr(p, '\n', keep);
			if (nl) {
				keep -= (size_t)(nl + 1 - p);
				memmove(p, nl + 1, keep);
				g->skip_to_nl = false;
			} else {
				keep = 0;
			}
		}
		linebuf_commit(&g->lb, keep);
		if (current && f->nold) {
			/* they were read to their end before this chunk: only what
			 * was written to them since, which must come before it */
			t->unbounded++;
			drain_olds(t, f);
			t->unbounded--;
		}
		deliver(t, f, &g->lb);
		/* A short read was everything there is: a later write brings a new
		 * IN_MODIFY, so the EOF read() can be saved. */
		if ((size_t)n < room)
			return 0;
	}
}

/* It grows with the rotations seen (a JVM rotating a few times an hour keeps
 * a few entries; 10 000 rotations in a burst need them all, or an overflow
 * rescan reads generations again: 14 004 of 10 000 lines under ASan). */
static void seen_add(struct tail_file *f, dev_t dev, ino_t ino)
{
	if (f->nseen == f->seen_cap && f->seen_cap < TAIL_SEEN_MAX) {
		size_t cap = f->seen_cap ? f->seen_cap * 2 : 64;
		struct tail_ino *n = realloc(f->seen, cap * sizeof *n);
		if (n) {
			/* unroll the ring so that it continues at nseen */
			if (f->seen_next != 0 && f->nseen == f->seen_cap) {
				size_t head = f->seen_cap - f->seen_next;
				struct tail_ino *tmp = malloc(f->seen_next * sizeof *tmp);
				if (tmp) {
					memcpy(tmp, n, f->seen_next * sizeof *tmp);
					memmove(n, n + f->seen_next, head * sizeof *n);
					memcpy(n + head, tmp, f->seen_next * sizeof *tmp);
					free(tmp);
				}
			}
			f->seen = n;
			f->seen_next = f->nseen;
			f->seen_cap = cap;
		}
	}
	if (f->seen_cap == 0)
		return;
	f->seen[f->seen_next] = (struct tail_ino){dev, ino};
	f->seen_next = (f->seen_next + 1) % f->seen_cap;
	if (f->nseen < f->seen_cap)
		f->nseen++;
}

static bool seen_has(const struct tail_file *f, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < f->nseen; i++)
		if (f->seen[i].ino == ino && f->seen[i].dev == dev)
			return true;
	return false;
}

/* Read to the end, hand over an unfinished last line, close. */
static void gen_finish(struct tail *t, struct tail_file *f, struct tail_gen *g)
{
	t->unbounded++;
	gen_read(t, f, g, false);
	t->unbounded--;
	deliver_partial(t, f, &g->lb);
	if (g->regular)
		seen_add(f, g->dev, g->ino);
	gen_close(g);
}

static void olds_push(struct tail *t, struct tail_file *f, const struct tail_gen *g)
{
	if (f->nold == TAIL_MAX_OLDS) {
		gen_finish(t, f, &f->old[0]);
		memmove(&f->old[0], &f->old[1], (TAIL_MAX_OLDS - 1) * sizeof f->old[0]);
		f->nold--;
	}
	f->old[f->nold++] = *g;
}

/* The current generation is no longer at the path: keep draining it. */
static void file_detach(struct tail *t, struct tail_file *f)
{
	if (f->cur.fd < 0)
		return;
	f->cur.last_data_ms = util_mono_ms();
	olds_push(t, f, &f->cur);
	gen_clear(&f->cur);
}

static void olds_expire(struct tail *t, struct tail_file *f, int64_t now)
{
	int j = 0;
	for (int i = 0; i < f->nold; i++) {
		/* one left unread by a spent budget is not idle */
		if (now - f->old[i].last_data_ms >= t->grace_ms && !f->dirty_old)
			gen_finish(t, f, &f->old[i]);
		else
			f->old[j++] = f->old[i];
	}
	f->nold = j;
}

/* -------------------------------------------------------------- following */

static void file_fail(struct tail *t, struct tail_file *f, int e, const char *why)
{
	file_detach(t, f);
	if (f->state != TAIL_ST_ERROR || f->err != e) {
		f->st.errors++;
		tail_note(t, f, TAIL_NOTE_ERROR, "%s", why ? why : strerror(e));
	}
	f->state = TAIL_ST_ERROR;
	f->err = e;
}

static void file_wait(struct tail *t, struct tail_file *f, bool initial)
{
	if (f->cur.fd >= 0) {
		file_detach(t, f);
		tail_note(t, f, TAIL_NOTE_GONE, "deleted or moved away; draining it and waiting for a new file");
	} else if (initial || f->state != TAIL_ST_WAITING) {
		if (f->want)
			tail_note(t, f, TAIL_NOTE_WAITING, "directory %s does not exist yet; waiting for it", f->dir);
		else
			tail_note(t, f, TAIL_NOTE_WAITING, "does not exist yet; waiting for it");
	}
	f->state = TAIL_ST_WAITING;
	f->err = 0;
}

static void file_watch_failed(struct tail *t, struct tail_file *f, const char *dir, int e)
{
	if (e == 0 || f->watch_err == e)
		return;
	f->watch_err = e;
	f->st.errors++;
	tail_note(t, f, TAIL_NOTE_ERROR, "cannot watch %s (%s); checking it periodically instead",
		  dir, strerror(-e));
}

/* Keep *slot watching dir (stat in st), sharing or re-creating the watch. */
static void file_hold_dir(struct tail *t, struct tail_file *f, int *slot, const char *dir, const struct stat *st)
{
	int e = 0;
	if (*slot >= 0) {
		struct tail_dir *d = &t->dirs[*slot];
		if (d->wd >= 0 && d->dev == st->st_dev && d->ino == st->st_ino)
			return;
		if (strcmp(d->path, dir) == 0) {
			/* same path, other directory (recreated) or a watch that failed:
			 * watch again; everyone on it may have missed events */
			e = dir_watch(t, d);
			dir_mark_subscribers(t, *slot);
			f->dirty_resolve = false;
			file_watch_failed(t, f, dir, e);
			if (e == 0)
				f->watch_err = 0;
			return;
		}
	}
	int di = dir_ref(t, dir, st, TAIL_DIR_MASK, &e);
	dir_unref(t, *slot);
	*slot = di;
	file_watch_failed(t, f, dir, e);
	if (e == 0)
		f->watch_err = 0;
}

/* Watch the file's directory, or, while it does not exist, the nearest
 * existing ancestor, waiting there for the next component to appear. */
static void file_place_watch(struct tail *t, struct tail_file *f)
{
	char *dir = strdup(f->dir), *want = NULL;
	struct stat st;
	while (dir && !(stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
		if (strcmp(dir, "/") == 0) {
			free(dir);
			dir = NULL;
			break;
		}
		free(want);
		want = strdup(path_base(dir));
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(f->want);
	f->want = want;
	if (!dir) {
		dir_unref(t, f->wdir);
		f->wdir = -1;
		return;
	}
	file_hold_dir(t, f, &f->wdir, dir, &st);
	free(dir);
}

/* Where a symlink finally points (up to TAIL_MAX_LINK_HOPS links; the last
 * one may dangle). NULL when path is not a symlink. */
static char *link_target(const char *abs)
{
	char *p = strdup(abs);
	struct stat st;
	for (int hop = 0; p && hop < TAIL_MAX_LINK_HOPS && lstat(p, &st) == 0 && S_ISLNK(st.st_mode); hop++) {
		char buf[PATH_MAX];
		ssize_t n = readlink(p, buf, sizeof buf - 1);
		if (n < 0)
			break;
		buf[n] = '\0';
		char *next;
		if (buf[0] == '/') {
			next = path_absolute(buf);
		} else {
			char *dir = path_dirname(p);
			char *joined = dir ? path_join(dir, buf) : NULL;
			next = joined ? path_absolute(joined) : NULL;
			free(dir);
			free(joined);
		}
		free(p);
		p = next;
	}
	if (p && strcmp(p, abs) == 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* A symlinked path rotates where its target lives: watch that directory too
 * (following the path, not the inode: a retargeted link is followed). */
static void file_place_target_watch(struct tail *t, struct tail_file *f)
{
	char *target = link_target(f->abs);
	char *tdir = target ? path_dirname(target) : NULL;
	struct stat st;
	if (!tdir || stat(tdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		dir_unref(t, f->tdir);
		f->tdir = -1;
		free(f->tbase);
		f->tbase = NULL;
	} else {
		file_hold_dir(t, f, &f->tdir, tdir, &st);
		free(f->tbase);
		f->tbase = strdup(path_base(target));
	}
	free(tdir);
	free(target);
}

/* JDK 8 writes <path>.<N>.current and never <path> itself: the newest one is
 * the live one (stale ones from an earlier run are older). */
static char *find_rotated_current(const struct tail_file *f, struct stat *out)
{
	DIR *d = opendir(f->dir);
	if (!d)
		return NULL;
	char *best = NULL;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		if (!name_is_rotated_current(f->base, de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode))
			continue;
		bool newer = !best || st.st_mtim.tv_sec > out->st_mtim.tv_sec ||
			     (st.st_mtim.tv_sec == out->st_mtim.tv_sec && st.st_mtim.tv_nsec > out->st_mtim.tv_nsec) ||
			     (st.st_mtim.tv_sec == out->st_mtim.tv_sec && st.st_mtim.tv_nsec == out->st_mtim.tv_nsec &&
			      strcmp(de->d_name, f->follow) == 0);
		if (newer) {
			free(best);
			best = strdup(de->d_name);
			*out = st;
		}
	}
	closedir(d);
	return best;
}

/* What the path names now: 0 with st and the path to open, or an errno. */
static int file_locate(struct tail_file *f, struct stat *st, char **openpath)
{
	char *follow = NULL;
	*openpath = NULL;
	if (stat(f->abs, st) == 0) {
		follow = strdup(f->base);
		*openpath = strdup(f->abs);
	} else {
		int e = errno;
		if (e != ENOENT || f->want)
			return e;
		follow = find_rotated_current(f, st);
		if (!follow)
			return ENOENT;
		*openpath = path_join(f->dir, follow);
	}
	if (!follow || !*openpath) {
		free(follow);
		free(*openpath);
		*openpath = NULL;
		return ENOMEM;
	}
	free(f->follow);
	f->follow = follow;
	return 0;
}

static void file_open(struct tail *t, struct tail_file *f, const char *openpath, const struct stat *st, bool from_end)
{
	/* Only regular files and FIFOs are opened: opening a device can have side
	 * effects, and reading /dev/zero would never end. */
	if (S_ISDIR(st->st_mode)) {
		file_fail(t, f, EISDIR, NULL);
		return;
	}
	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode)) {
		file_fail(t, f, TAIL_ERR_NOTREG, "not a regular file");
		return;
	}
	int fd = open(openpath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT)
			f->dirty_resolve = true;   /* gone in between: look again */
		else
			file_fail(t, f, e, NULL);
		return;
	}
	struct stat fst;
	if (fstat(fd, &fst) < 0 || (!S_ISREG(fst.st_mode) && !S_ISFIFO(fst.st_mode))) {
		bool dir = S_ISDIR(fst.st_mode);
		close(fd);
		file_fail(t, f, dir ? EISDIR : TAIL_ERR_NOTREG, dir ? NULL : "not a regular file");
		return;
	}
	/* Renamed back (mv a b; mv b a): the old generation is current again. */
	for (int i = 0; i < f->nold; i++) {
		if (!gen_is(&f->old[i], &fst))
			continue;
		close(fd);
		struct tail_gen back = f->old[i];
		memmove(&f->old[i], &f->old[i + 1], (size_t)(f->nold - i - 1) * sizeof f->old[0]);
		f->nold--;
		file_detach(t, f);
		f->cur = back;
		f->state = TAIL_ST_OPEN;
		f->err = 0;
		int r = gen_read(t, f, &f->cur, true);
		if (r < 0)
			file_fail(t, f, -r, NULL);
		return;
	}
	struct tail_gen g;
	if (gen_init(t, &g, fd, &fst) < 0) {
		close(fd);
		linebuf_fini(&g.lb);
		file_fail(t, f, ENOMEM, NULL);
		return;
	}
	if (from_end && g.regular)
		gen_seek_end(&g, (uint64_t)fst.st_size);
	file_detach(t, f);
	f->cur = g;
	bool rotated = f->ever_open;
	f->ever_open = true;
	f->state = TAIL_ST_OPEN;
	f->err = 0;
	const char *via = strcmp(f->follow, f->base) != 0 ? f->follow : NULL;
	if (rotated) {
		f->st.rotations++;
		tail_note(t, f, TAIL_NOTE_ROTATED, "rotated; old file drained, following the new one%s%s",
			  via ? ": " : "", via ? via : "");
	} else {
		tail_note(t, f, TAIL_NOTE_OPENED, "following%s%s%s", via ? " " : "", via ? via : "",
			  via ? " (JDK 8 log rotation)" : "");
	}
	int r = gen_read(t, f, &f->cur, true);
	if (r < 0)
		file_fail(t, f, -r, NULL);
}

/* Bring one file in line with the file system: drain what is open, then look
 * at what the path names now and switch to it if it is another inode. */
static void file_resolve(struct tail *t, struct tail_file *f, bool initial, enum tail_from from)
{
	file_catch_up(t, f);
	if (f->cur.fd >= 0) {
		int r = gen_read(t, f, &f->cur, true);
		if (r < 0) {
			file_fail(t, f, -r, NULL);
			return;
		}
	}
	file_place_watch(t, f);
	file_place_target_watch(t, f);

	struct stat st;
	char *openpath;
	int e = file_locate(f, &st, &openpath);
	if (e == ENOENT) {
		file_wait(t, f, initial);
		return;
	}
	if (e) {
		file_fail(t, f, e, NULL);
		return;
	}
	if (gen_is(&f->cur, &st)) {
		f->state = TAIL_ST_OPEN;
	} else {
		file_open(t, f, openpath, &st, initial && from == TAIL_FROM_END);
	}
	free(openpath);
}

static void file_read(struct tail *t, struct tail_file *f)
{
	if (f->cur.fd < 0) {
		file_resolve(t, f, false, TAIL_FROM_START);
		return;
	}
	int r = gen_read(t, f, &f->cur, true);
	if (r < 0)
		file_fail(t, f, -r, NULL);
}

/* A generation renamed away from the followed name (cookie-paired MOVED_TO).
 * If it is neither the current one nor one being drained, it is a
 * generation we never saw: several rotations happened before we looked, and
 * the resolve of an earlier batch may already have opened a later one. Open
 * it under its new name and read it. Whether a create was seen in the same
 * batch does not matter: a batch ends whenever the queue is momentarily
 * empty, so the create and the rename of one generation often fall into two
 * batches (a writer rotating in a tight loop lost ~7% of its generations so). */
static void file_recover_moved(struct tail *t, struct tail_file *f, int di, const char *name)
{
	char *p = path_join(t->dirs[di].path, name);
	int fd = p ? open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) : -1;
	free(p);
	if (fd < 0)
		return;
	struct stat st;
	bool known = fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || gen_is(&f->cur, &st) ||
		     seen_has(f, st.st_dev, st.st_ino) || cand_pending(f, st.st_dev, st.st_ino);
	for (int i = 0; i < f->nold && !known; i++)
		known = gen_is(&f->old[i], &st);
	struct tail_gen g;
	if (known || gen_init(t, &g, fd, &st) < 0) {
		close(fd);
		if (!known)
			linebuf_fini(&g.lb);
		return;
	}
	/* The one we are reading goes first if it has left the path too. If it
	 * is still there it stays current: the drain before its next chunk
	 * delivers the recovered one (detaching it anyway put it among the old
	 * generations, a burst of recoveries pushed it out, and the resolve
	 * then read the file at the path from the start again: the last line
	 * five times in a 10 000-rotation burst) */
	struct stat pst;
	if (f->cur.fd >= 0 && (stat(f->abs, &pst) != 0 || !gen_is(&f->cur, &pst))) {
		file_detach(t, f);
		f->state = TAIL_ST_WAITING;  /* until the resolve of this batch finds the path's file */
	}
	olds_push(t, f, &g);
	f->st.rotations++;
	f->ever_open = true;
}

static void file_event(struct tail *t, struct tail_file *f, int di, const struct inotify_event *ev, const char *name)
{
	uint32_t m = ev->mask;
	bool hit = false, followed = false;
	if (f->wdir == di) {
		if (f->want) {
			hit = strcmp(name, f->want) == 0;
		} else {
			hit = name_matches(f, name);
			followed = hit && strcmp(name, f->follow) == 0;
		}
	}
	if (f->tdir == di && f->tbase && strcmp(name, f->tbase) == 0)
		hit = followed = true;

	if ((m & IN_MOVED_TO) && f->mv_cookie && ev->cookie == f->mv_cookie && f->mv_dir == di) {
		f->mv_cookie = 0;
		file_recover_moved(t, f, di, name);
	}
	if (hit) {
		if (m & IN_MODIFY) {
			if (followed && f->state == TAIL_ST_OPEN)
				f->dirty_read = true;
			else
				f->dirty_resolve = true;
		}
		if (m & (IN_CREATE | IN_MOVED_TO))
			f->dirty_resolve = true;
		if (m & IN_MOVED_FROM) {
			f->dirty_resolve = true;
			f->mv_cookie = ev->cookie;
			f->mv_dir = di;
		}
		if (m & IN_DELETE)
			f->dirty_resolve = true;
		if ((m & IN_ATTRIB) && f->state == TAIL_ST_ERROR)
			f->dirty_resolve = true;   /* chmod may have fixed it */
		return;
	}
	/* the writer of a renamed-away generation, under its new name */
	if ((m & IN_MODIFY) && f->nold)
		f->dirty_old = true;
}

/* a rotated generation's name: gc.log.3, gc.log-20261201, gc.log_1, gc.log.2.current */
static bool name_is_sibling(const struct tail_file *f, const char *name)
{
	size_t bl = strlen(f->base);
	return strncmp(name, f->base, bl) == 0 && (name[bl] == '.' || name[bl] == '-' || name[bl] == '_') &&
	       name[bl + 1] != '\0' && strcmp(name, f->follow) != 0;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct tail_cand *x = a, *y = b;
	if (x->ctime_ms != y->ctime_ms)
		return x->ctime_ms < y->ctime_ms ? -1 : 1;
	/* renamed in the same tick of a coarse ctime (tmpfs: 4 ms): gc.log.9
	 * before gc.log.10 */
	return strverscmp(x->name, y->name);
}

static bool cand_pending(const struct tail_file *f, dev_t dev, ino_t ino)
{
	for (size_t i = f->icand; i < f->ncand; i++)
		if (f->cand[i].ino == ino && f->cand[i].dev == dev)
			return true;
	return false;
}

static void cands_free(struct tail_file *f)
{
	for (size_t i = f->icand; i < f->ncand; i++)
		free(f->cand[i].name);
	free(f->cand);
	f->cand = NULL;
	f->ncand = f->icand = 0;
}

/* Everything older than the current generation read, as far as the budget
 * goes: the old generations to their end, then the rescanned ones, one at a
 * time (each pushed among the old ones once those are read to their end, so
 * the oldest one that olds_push closes has nothing left). False: the budget
 * ran out first, and the file is marked to go on in the next pass. */
static bool file_catch_up(struct tail *t, struct tail_file *f)
{
	for (;;) {
		drain_olds(t, f);
		if (tail_spent(t)) {
			f->dirty_old = true;
			return false;
		}
		if (f->icand >= f->ncand)
			break;
		struct tail_cand *c = &f->cand[f->icand++];
		char *p = path_join(f->dir, c->name);
		free(c->name);
		c->name = NULL;
		int fd = p ? open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) : -1;
		free(p);
		t->spent += TAIL_OPEN_COST;
		struct stat st;
		struct tail_gen g;
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || gen_init(t, &g, fd, &st) < 0) {
			close(fd);
			continue;
		}
		olds_push(t, f, &g);
		f->st.rotations++;
		f->ever_open = true;
	}
	if (f->cand)
		cands_free(f);
	return true;
}

/* The inotify queue overflowed: generations renamed away meanwhile had no
 * event. They are the rotated siblings in the directory changed (renamed:
 * ctime) since the queue was last read to empty and not read before: read,
 * oldest rename first, before what is at the path now (a writer rotating
 * faster than a slowed-down reader lost 14-42% of its lines so). Only
 * listed here: file_catch_up opens and reads them a slice per pass (10 000
 * of them read in one go stopped the loop for seconds). */
static void file_rescan_siblings(struct tail *t, struct tail_file *f, int64_t since_ms)
{
	if (f->want || since_ms <= 0)
		return;
	DIR *d = opendir(f->dir);
	if (!d)
		return;
	/* the ones still pending from an earlier rescan stay first */
	if (f->icand > 0) {
		memmove(f->cand, f->cand + f->icand, (f->ncand - f->icand) * sizeof *f->cand);
		f->ncand -= f->icand;
		f->icand = 0;
	}
	size_t had = f->ncand, n = f->ncand, cap = f->ncand;
	struct tail_cand *c = f->cand;
	struct dirent *de;
	while ((de = readdir(d)) != NULL && n < TAIL_RESCAN_MAX) {
		struct stat st;
		if (!name_is_sibling(f, de->d_name) || fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		int64_t ct = (int64_t)st.st_ctim.tv_sec * 1000 + st.st_ctim.tv_nsec / 1000000;
		bool known = ct < since_ms - TAIL_RESCAN_SLACK_MS || gen_is(&f->cur, &st) ||
			     seen_has(f, st.st_dev, st.st_ino);
		for (int i = 0; i < f->nold && !known; i++)
			known = gen_is(&f->old[i], &st);
		for (size_t i = 0; i < had && !known; i++)
			known = c[i].ino == st.st_ino && c[i].dev == st.st_dev;
		if (known)
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct tail_cand *m = realloc(c, nc * sizeof *c);
			if (!m)
				break;
			c = m;
			cap = nc;
		}
		c[n] = (struct tail_cand){.ctime_ms = ct, .name = strdup(de->d_name), .dev = st.st_dev, .ino = st.st_ino};
		if (c[n].name)
			n++;
	}
	closedir(d);
	f->cand = c;
	f->ncand = n;
	if (n > had) {
		qsort(c + had, n - had, sizeof *c, cand_cmp);
		/* the one we were reading went first, if it is no longer at the path */
		struct stat pst;
		if (f->cur.fd >= 0 && (stat(f->abs, &pst) != 0 || !gen_is(&f->cur, &pst)))
			file_detach(t, f);
		tail_note(t, f, TAIL_NOTE_ROTATED, "%zu generation%s rotated away while the inotify queue was full "
			  "found by name and read", n - had, n - had == 1 ? "" : "s");
	}
	if (n == 0)
		cands_free(f);
}

/* ------------------------------------------------------ directory watches */

static void dirwatch_tell(struct tail *t, int di, const char *name, unsigned what)
{
	for (size_t i = 0; i < t->ndws; i++)
		if (t->dws[i].di >= 0 && (di < 0 || t->dws[i].di == di))
			t->dws[i].fn(t->dws[i].ctx, name, what);
}

static void dirwatch_event(struct tail *t, int di, const struct inotify_event *ev)
{
	if (!t->ndws)
		return;
	if (ev->mask & IN_IGNORED) {
		dirwatch_tell(t, di, NULL, TAIL_DIR_LOST);
		for (size_t i = 0; i < t->ndws; i++)
			if (t->dws[i].di == di) {
				t->dws[i].di = -1;   /* its reference goes with the watch */
				dir_unref(t, di);
			}
		return;
	}
	if (ev->len == 0 || ev->name[0] == '\0')
		return;
	unsigned what = ((ev->mask & (IN_CREATE | IN_MOVED_TO)) ? TAIL_DIR_CREATED : 0) |
			((ev->mask & IN_MODIFY) ? TAIL_DIR_MODIFIED : 0) |
			((ev->mask & IN_CLOSE_WRITE) ? TAIL_DIR_CLOSED : 0);
	if (what)
		dirwatch_tell(t, di, ev->name, what);
}

int tail_watch_dir(struct tail *t, const char *dir, tail_dir_fn fn, void *ctx)
{
	if (!t || !dir || !*dir || !fn)
		return -EINVAL;
	if (strlen(dir) >= PATH_MAX)
		return -ENAMETOOLONG;
	struct stat st;
	if (stat(dir, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	size_t slot = 0;
	while (slot < t->ndws && t->dws[slot].di >= 0)
		slot++;
	if (slot == t->ndws) {
		struct tail_dirwatch *n = realloc(t->dws, (t->ndws + 1) * sizeof *n);
		if (!n)
			return -ENOMEM;
		t->dws = n;
		t->dws[t->ndws++].di = -1;
	}
	char *abs = path_absolute(dir);
	if (!abs)
		return -ENOMEM;
	int e;
	int di = dir_ref(t, abs, &st, TAIL_WATCHDIR_MASK, &e);
	free(abs);
	if (di >= 0 && e < 0) {
		dir_unref(t, di);
		di = -1;
	}
	if (di < 0)
		return e < 0 ? e : -EIO;
	t->dws[slot] = (struct tail_dirwatch){ .di = di, .fn = fn, .ctx = ctx };
	return (int)slot;
}

void tail_unwatch_dir(struct tail *t, int id)
{
	if (!t || id < 0 || (size_t)id >= t->ndws || t->dws[id].di < 0)
		return;
	dir_unref(t, t->dws[id].di);
	t->dws[id].di = -1;
}

static void tail_event(struct tail *t, const struct inotify_event *ev)
{
	if (ev->mask & IN_Q_OVERFLOW) {
		t->overflows++;
		t->rescan = true;
		return;
	}
	int di = dir_by_wd(t, ev->wd);
	if (di < 0)
		return;
	dirwatch_event(t, di, ev);
	if (ev->mask & IN_IGNORED) {
		t->dirs[di].wd = -1;     /* the kernel dropped it (directory gone) */
		dir_mark_subscribers(t, di);
		return;
	}
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)) {
		dir_mark_subscribers(t, di);
		return;
	}
	if (ev->len == 0 || ev->name[0] == '\0')
		return;
	for (size_t i = 0; i < t->nfiles; i++) {
		struct tail_file *f = t->files[i];
		if (f->wdir == di || f->tdir == di)
			file_event(t, f, di, ev, ev->name);
	}
}

static void tail_process(struct tail *t)
{
	/* a resolve can re-watch a shared directory and mark others dirty */
	for (int pass = 0; pass < 4; pass++) {
		bool any = false;
		for (size_t i = 0; i < t->nfiles; i++) {
			struct tail_file *f = t->files[i];
			bool resolve = f->dirty_resolve, rd = f->dirty_read, old = f->dirty_old;
			f->dirty_resolve = f->dirty_read = f->dirty_old = false;
			any |= resolve || rd || old;
			if (resolve) {
				file_resolve(t, f, false, TAIL_FROM_START);
				continue;
			}
			if (rd)
				file_read(t, f);
			if (old)
				drain_olds(t, f);
		}
		if (!any || tail_spent(t))
			break;   /* spent: the marks left are the next pass's */
	}
	/* mv_cookie stays: the MOVED_FROM and MOVED_TO of one rename can be
	 * split between two batches; a later MOVED_FROM replaces it */
}

static void tail_expire(struct tail *t)
{
	int64_t now = util_mono_ms();
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->files[i]->nold)
			olds_expire(t, t->files[i], now);
}

static struct tail_file *tail_get(const struct tail *t, int id)
{
	if (!t || id < 0 || (size_t)id >= t->nfiles)
		return NULL;
	return t->files[id];
}

/* ------------------------------------------------------------------ API */

struct tail *tail_new(const struct tail_callbacks *cb, size_t max_line, char *err, size_t errlen)
{
	char dummy[8];
	if (!err || errlen == 0) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	if (tail_lib.owner) {
		snprintf(err, errlen, "tail: another tailer is live in this process; libinotifytools keeps "
			 "one inotify instance per process, so only one tailer at a time");
		errno = EBUSY;
		return NULL;
	}
	int r = lib_start(err, errlen);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	/* leftovers of an earlier tailer's watches (IN_IGNORED of its removals) */
	while (inotifytools_next_events(0, 1) != NULL)
		;
	struct tail *t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, errlen, "tail: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	t->epfd = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = tail_lib.fd };
	if (t->epfd < 0 || epoll_ctl(t->epfd, EPOLL_CTL_ADD, tail_lib.fd, &ev) < 0) {
		int e = errno;
		snprintf(err, errlen, "tail: epoll: %s", strerror(e));
		if (t->epfd >= 0)
			close(t->epfd);
		free(t);
		errno = e;
		return NULL;
	}
	if (cb)
		t->cb = *cb;
	t->max_line = max_line ? max_line : TAIL_DEFAULT_MAX_LINE;
	t->grace_ms = TAIL_DEFAULT_GRACE_MS;
	t->drained_real_ms = util_now_ms();
	tail_lib.owner = t;
	return t;
}

void tail_free(struct tail *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nfiles; i++) {
		struct tail_file *f = t->files[i];
		gen_close(&f->cur);
		for (int j = 0; j < f->nold; j++)
			gen_close(&f->old[j]);
		free(f->path);
		free(f->abs);
		free(f->dir);
		free(f->follow);
		free(f->seen);
		cands_free(f);
		free(f->want);
		free(f->tbase);
		free(f);
	}
	/* only this tailer's watches; the instance itself stays for the next one */
	for (size_t i = 0; i < t->ndirs; i++) {
		if (t->dirs[i].path) {
			dir_unwatch(&t->dirs[i]);
			free(t->dirs[i].path);
		}
	}
	free(t->files);
	free(t->dirs);
	free(t->dws);
	close(t->epfd);
	if (tail_lib.owner == t)
		tail_lib.owner = NULL;
	free(t);
}

int tail_add(struct tail *t, const char *path, enum tail_from from)
{
	if (!t || !path || !*path)
		return -EINVAL;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	if (t->nfiles == t->capfiles) {
		size_t cap = t->capfiles ? t->capfiles * 2 : 8;
		struct tail_file **n = realloc(t->files, cap * sizeof *n);
		if (!n)
			return -ENOMEM;
		t->files = n;
		t->capfiles = cap;
	}
	struct tail_file *f = calloc(1, sizeof *f);
	if (!f)
		return -ENOMEM;
	f->path = strdup(path);
	f->abs = path_absolute(path);
	f->dir = f->abs ? path_dirname(f->abs) : NULL;
	f->base = f->abs ? path_base(f->abs) : NULL;
	f->follow = f->base ? strdup(f->base) : NULL;
	if (!f->path || !f->abs || !f->dir || !f->follow) {
		int e = f->abs ? ENOMEM : errno;
		free(f->path);
		free(f->abs);
		free(f->dir);
		free(f->follow);
		free(f);
		return -(e ? e : ENOMEM);
	}
	gen_clear(&f->cur);
	f->wdir = f->tdir = -1;
	f->state = TAIL_ST_WAITING;
	f->id = (int)t->nfiles;
	t->files[t->nfiles++] = f;
	/* the rotated generations there already are history: an overflow rescan
	 * must not take them for unread ones */
	DIR *d = f->want ? NULL : opendir(f->dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)) != NULL) {
			struct stat st;
			if (name_is_sibling(f, de->d_name) && fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode))
				seen_add(f, st.st_dev, st.st_ino);
		}
		closedir(d);
	}
	/* what is there already is read now, whole (the content before a live
	 * run starts); from a callback, the running dispatch's budget goes on */
	if (!t->busy)
		t->unbounded++;
	file_resolve(t, f, true, from);
	/* from a callback, the running dispatch finishes the batch itself */
	if (!t->busy) {
		tail_process(t);
		t->unbounded--;
	}
	return f->id;
}

int tail_fd(const struct tail *t)
{
	return t->epfd;
}

int tail_inotify_fd(void)
{
	return tail_lib.init ? tail_lib.fd : -1;
}

/* Harvest the epoll set: the inotify fd is drained below anyway; a FIFO
 * that became readable marks the file that holds it. */
static void tail_poll_fifos(struct tail *t)
{
	struct epoll_event evs[32];
	int n;
	do {
		n = epoll_wait(t->epfd, evs, (int)ARRAY_LEN(evs), 0);
		for (int i = 0; i < n; i++) {
			int fd = evs[i].data.fd;
			for (size_t j = 0; j < t->nfiles && fd != tail_lib.fd; j++) {
				struct tail_file *f = t->files[j];
				if (f->cur.fd == fd)
					f->dirty_read = true;
				for (int k = 0; k < f->nold; k++)
					if (f->old[k].fd == fd)
						f->dirty_old = true;
			}
		}
	} while (n == (int)ARRAY_LEN(evs));
}

void tail_dispatch(struct tail *t)
{
	int64_t drain_start = util_now_ms();
	t->busy++;
	t->spent = 0;
	tail_poll_fifos(t);
	for (;;) {
		int n = 0;
		struct inotify_event *ev;
		while (n < TAIL_EVENT_BATCH && (ev = inotifytools_next_events(0, 1)) != NULL) {
			tail_event(t, ev);
			n++;
		}
		if (t->rescan) {
			/* events were lost: look at everything, and say so (once a
			 * minute at most): generations renamed away while the queue was
			 * full are unknown to us, their unread lines cannot be found */
			t->rescan = false;
			int64_t now = util_mono_ms();
			bool tell = now - t->overflow_told_ms >= 60000 || t->overflow_told_ms == 0;
			/* renamed before the last drain had its event read; renamed before
			 * the last rescan was in that rescan's listing: only what came
			 * after both can be unread */
			int64_t since = t->drained_real_ms > t->rescanned_real_ms ? t->drained_real_ms
										   : t->rescanned_real_ms;
			t->rescanned_real_ms = util_now_ms();
			for (size_t i = 0; i < t->nfiles; i++) {
				file_rescan_siblings(t, t->files[i], since);
				t->files[i]->dirty_resolve = true;
				if (tell)
					tail_note(t, t->files[i], TAIL_NOTE_OVERFLOW,
						  "the kernel's inotify queue overflowed (files changing faster than "
						  "they are read): lines of files rotated away meanwhile may be missed");
			}
			if (tell)
				t->overflow_told_ms = now;
			dirwatch_tell(t, -1, NULL, TAIL_DIR_OVERFLOW);
		}
		tail_process(t);
		if (n < TAIL_EVENT_BATCH)
			break;
	}
	/* everything renamed before now had its event read (or was rescanned) */
	t->drained_real_ms = drain_start;
	tail_expire(t);
	t->busy--;
}

bool tail_pending(const struct tail *t)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct tail_file *f = t->files[i];
		if (f->dirty_read || f->dirty_resolve || f->dirty_old || f->icand < f->ncand)
			return true;
	}
	return false;
}

void tail_set_budget(struct tail *t, size_t bytes)
{
	t->budget = bytes;
}

void tail_check(struct tail *t)
{
	tail_dispatch(t);
	t->busy++;
	for (size_t i = 0; i < t->nfiles; i++)
		t->files[i]->dirty_resolve = true;
	tail_process(t);   /* what it detaches now starts its grace period now */
	t->busy--;
}

void tail_stats(const struct tail *t, int id, struct tail_file_stats *out)
{
	const struct tail_file *f = tail_get(t, id);
	memset(out, 0, sizeof *out);
	if (!f)
		return;
	*out = f->st;
	out->open = f->cur.fd >= 0;
}

const char *tail_path(const struct tail *t, int id)
{
	const struct tail_file *f = tail_get(t, id);
	return f ? f->path : NULL;
}

void tail_set_grace_ms(struct tail *t, int64_t ms)
{
	t->grace_ms = ms < 0 ? 0 : ms;
}

uint64_t tail_overflows(const struct tail *t)
{
	return t->overflows;
}

int tail_draining(const struct tail *t, int id)
{
	const struct tail_file *f = tail_get(t, id);
	return f ? f->nold : 0;
}

int tail_set_stderr_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return -errno;
	if (fd != STDERR_FILENO) {
		int r = dup2(fd, STDERR_FILENO);
		int e = errno;
		close(fd);
		if (r < 0)
			return -e;
	}
	return 0;
}
