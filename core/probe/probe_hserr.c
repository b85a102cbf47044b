/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_hserr.c — wait for a JVM crash report to appear and be complete
 * (include/stwtop/probe.h).
 *
 * HotSpot writes hs_err in one go from the crashing thread (vmError.cpp
 * VMError::report_and_die): it creates the file (O_EXCL), writes the report over
 * a few milliseconds to a second or more (a core dump may be written in between),
 * and the fd is closed at the latest when the process dies. So a report is read
 * once it was closed (inotify IN_CLOSE_WRITE) or once it has stopped growing for
 * HSERR_SETTLE_MS, never at first sight: a file first seen empty is looked at
 * again, not forgotten. Directories are watched through the tailer's
 * directory watches (tail_watch_dir: the process has one inotify instance,
 * the tailer's); when that is not possible (no read permission on the directory, inotify exhausted) the exact
 * names are stat(2)ed at every poll, comparing size and nanosecond mtime. What
 * can be watched neither way is said once.
 *
 * A directory seen through another process's root (/proc/PID/root/..., a JVM
 * in its own mount namespace) is held open from the start: when that JVM is
 * the first process of its pid namespace (a pod), its crash takes the
 * namespaces down with it, /proc/PID/root goes, and a private /tmp is
 * unmounted; the held directory still reaches the report it wrote. */
#include "stwtop/probe.h"

#include "stwtop/hserr.h"
#include "stwtop/tail.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HSERR_MAX_WATCH 8
#define HSERR_MAX_FILES 16
#define HSERR_SETTLE_MS 300          /* unchanged this long after its last growth: complete */
#define HSERR_GIVE_UP_MS 5000        /* unchanged this long and still not a crash report: say so */
#define HSERR_READ_MAX (4u << 20)    /* the top of a report holds all we parse */
#define HSERR_PATH 1024
#define HSERR_NOTE 1024

struct hserr_probe;

struct hs_watch {
	struct hserr_probe *p;           /* for the tailer's callback */
	char dir[HSERR_PATH];
	char name[256];                  /* exact name, or a prefix when prefix is set */
	bool prefix;
	int dw;                          /* tail_watch_dir id of dir, -1 none */
	int dirfd;                       /* dir held open (O_PATH), -1 none: see the top */
	int64_t dir_mtime_ns;            /* polling fallback for prefix watches */
	bool said;                       /* its problem was said */
};

struct hs_file {
	char path[HSERR_PATH];
	off_t size;
	int64_t mtime_ns;
	ino_t ino;
	int64_t changed_ms;              /* when size/mtime last changed (our clock) */
	bool closed;                     /* IN_CLOSE_WRITE since the last change */
	bool old;                        /* there before the watch began and unchanged since */
	bool done;
};

struct hserr_probe {
	struct tail *t;                  /* its directory watches; NULL: stat() every poll */
	bool woken;                      /* a watched name was touched since the last poll */
	int64_t since_ms;
	struct hs_watch w[HSERR_MAX_WATCH];
	int nw;
	struct hs_file f[HSERR_MAX_FILES];
	int nf;
	char note[HSERR_NOTE];
	bool note_new;
};

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* the watch whose held directory path is in, and the name in it */
static const struct hs_watch *held(const struct hserr_probe *p, const char *path, const char **name)
{
	for (int i = 0; i < p->nw; i++) {
		const struct hs_watch *w = &p->w[i];
		size_t dl = strlen(w->dir);
		if (w->dirfd >= 0 && strncmp(path, w->dir, dl) == 0 && path[dl] == '/' && !strchr(path + dl + 1, '/')) {
			*name = path + dl + 1;
			return w;
		}
	}
	return NULL;
}

static int hs_stat(const struct hserr_probe *p, const char *path, struct stat *st)
{
	const char *name;
	const struct hs_watch *w = held(p, path, &name);
	return w ? fstatat(w->dirfd, name, st, 0) : stat(path, st);
}

static int hs_open(const struct hserr_probe *p, const char *path)
{
	const char *name;
	const struct hs_watch *w = held(p, path, &name);
	int fl = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	return w ? openat(w->dirfd, name, fl) : open(path, fl);
}

static int dir_stat(const struct hs_watch *w, struct stat *st)
{
	return w->dirfd >= 0 ? fstat(w->dirfd, st) : stat(w->dir, st);
}

static DIR *dir_open(const struct hs_watch *w)
{
	if (w->dirfd < 0)
		return opendir(w->dir);
	int fd = openat(w->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* a directory through another process's root or cwd */
static bool through_proc(const char *dir)
{
	const char *s = dir;
	if (strncmp(s, "/proc/", 6) != 0)
		return false;
	s += 6;
	if (strncmp(s, "self/", 5) == 0)
		s += 4;
	else
		while (*s >= '0' && *s <= '9')
			s++;
	return s > dir + 6 && (strncmp(s, "/root/", 6) == 0 || strcmp(s, "/root") == 0 || strncmp(s, "/cwd", 4) == 0);
}

/* a problem to say (once: the caller takes it with hserr_probe_take_note) */
static void add_note(struct hserr_probe *p, const char *msg)
{
	size_t l = p->note_new ? strlen(p->note) : 0;
	if (l + 3 < sizeof p->note)
		snprintf(p->note + l, sizeof p->note - l, "%s%s", l ? "; " : "", msg);
	p->note_new = true;
}

struct hserr_probe *hserr_probe_new(struct tail *t, int64_t since_ms)
{
	struct hserr_probe *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->t = t;
	p->since_ms = since_ms;
	return p;
}

void hserr_probe_free(struct hserr_probe *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nw; i++) {
		if (p->w[i].dw >= 0)
			tail_unwatch_dir(p->t, p->w[i].dw);
		if (p->w[i].dirfd >= 0)
			close(p->w[i].dirfd);
	}
	free(p);
}

bool hserr_probe_woken(struct hserr_probe *p)
{
	bool w = p->woken;
	p->woken = false;
	return w;
}

static struct hs_file *file_of(struct hserr_probe *p, const char *path)
{
	for (int i = 0; i < p->nf; i++)
		if (strcmp(p->f[i].path, path) == 0)
			return &p->f[i];
	if (p->nf >= HSERR_MAX_FILES)
		return NULL;
	struct hs_file *f = &p->f[p->nf++];
	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	f->size = -1;
	return f;
}

/* What we know of path now: new, grown, or gone. */
static void look(struct hserr_probe *p, const char *path, int64_t now_ms, bool first_look)
{
	struct stat st;
	if (hs_stat(p, path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	struct hs_file *f = file_of(p, path);
	if (!f)
		return;
	bool fresh = f->size < 0;
	if (!fresh && f->done && st.st_ino == f->ino && mtime_ns(&st) == f->mtime_ns)
		return;
	if (fresh || st.st_size != f->size || mtime_ns(&st) != f->mtime_ns || st.st_ino != f->ino) {
		if (fresh && first_look && mtime_ns(&st) / 1000000 < p->since_ms)
			f->old = true;    /* an earlier crash (another JVM): only if it changes */
		else if (!fresh)
			f->old = false;
		if (!fresh && st.st_ino != f->ino)
			f->done = false;  /* replaced by a new file */
		f->size = st.st_size;
		f->mtime_ns = mtime_ns(&st);
		f->ino = st.st_ino;
		f->changed_ms = now_ms;
		f->closed = false;
	}
}

/* /tmp (ours, or a container's through /proc/PID/root/tmp) is where every
 * process keeps its temporary files: an inotify watch there would wake us for
 * each of them. The exact name HotSpot falls back to is stat()ed every poll
 * instead (a crash report is not a matter of milliseconds). */
static bool busy_dir(const char *dir)
{
	size_t l = strlen(dir);
	return strcmp(dir, "/tmp") == 0 ||
	       (strncmp(dir, "/proc/", 6) == 0 && l > 9 && strcmp(dir + l - 9, "/root/tmp") == 0);
}

/* The tailer tells of a name in w's directory (from tail_dispatch). */
static void on_dir_event(void *ctx, const char *name, unsigned what)
{
	struct hs_watch *w = ctx;
	struct hserr_probe *p = w->p;
	if (what & (TAIL_DIR_OVERFLOW | TAIL_DIR_LOST)) {
		if (what & TAIL_DIR_LOST)
			w->dw = -1;        /* the directory went: its mtime is polled */
		w->dir_mtime_ns = -1;  /* look at everything again */
		p->woken = true;
		return;
	}
	bool match = w->prefix ? strncmp(name, w->name, strlen(w->name)) == 0 : strcmp(name, w->name) == 0;
	char path[HSERR_PATH + 256];
	if (!match || (size_t)snprintf(path, sizeof path, "%s/%s", w->dir, name) >= HSERR_PATH)
		return;
	look(p, path, util_now_ms(), false);
	if (what & TAIL_DIR_CLOSED) {
		struct hs_file *f = file_of(p, path);
		if (f && f->size >= 0)
			f->closed = true;
	}
	p->woken = true;
}

static int watch_dir(struct hserr_probe *p, struct hs_watch *w)
{
	if (!p->t)
		return -ENOSYS;
	if (!w->prefix && busy_dir(w->dir))
		return 0; /* polled by name (hserr_probe_poll looks at every exact name) */
	int id = tail_watch_dir(p->t, w->dir, on_dir_event, w);
	if (id < 0)
		return id;
	w->dw = id;
	return 0;
}

static void scan_prefix(struct hserr_probe *p, struct hs_watch *w, int64_t now_ms, bool first_look)
{
	DIR *d = dir_open(w);
	struct dirent *de;
	size_t pl = strlen(w->name);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[HSERR_PATH + 256];
		if (strncmp(de->d_name, w->name, pl) != 0)
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", w->dir, de->d_name) >= HSERR_PATH)
			continue;
		look(p, path, now_ms, first_look);
	}
	closedir(d);
}

int hserr_probe_add(struct hserr_probe *p, const char *path, bool prefix, int64_t now_ms)
{
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1] || strlen(path) >= HSERR_PATH)
		return -EINVAL;
	for (int i = 0; i < p->nw; i++) {
		size_t dl = strlen(p->w[i].dir);
		if (p->w[i].prefix == prefix && strncmp(path, p->w[i].dir, dl) == 0 &&
		    (path[dl] == '/' || dl == 1) && strcmp(path + (dl == 1 ? 1 : dl + 1), p->w[i].name) == 0)
			return 0; /* already watched */
	}
	if (p->nw >= HSERR_MAX_WATCH)
		return -E2BIG;
	struct hs_watch *w = &p->w[p->nw];
	memset(w, 0, sizeof *w);
	w->p = p;
	w->dw = -1;
	w->prefix = prefix;
	util_strlcpy_n(w->dir, sizeof w->dir, path, slash == path ? 1 : (size_t)(slash - path));
	util_strlcpy_n(w->name, sizeof w->name, slash + 1, strlen(slash + 1));
	w->dirfd = through_proc(w->dir) ? open(w->dir, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
	/* the tailer keeps one inotify watch per directory, whoever asks */
	int rc = watch_dir(p, w);
	struct stat st;
	char msg[HSERR_PATH + 400];
	if (rc < 0) {
		/* an exact name can still be stat()ed in a directory we may search but
		 * not read; a prefix needs the listing */
		int se = stat(w->dir, &st) == 0 ? 0 : errno;
		int fe = 0;
		DIR *d = NULL;
		if (se == 0 && !prefix)
			fe = stat(path, &st) == 0 ? 0 : errno;
		if (se == 0 && !prefix && (fe == 0 || fe == ENOENT)) {
			if (rc != -ENOSYS) {
				snprintf(msg, sizeof msg, "%s: inotify: %s: the crash report %s is looked for every "
					 "interval instead", w->dir, strerror(-rc), w->name);
				add_note(p, msg);
			}
		} else if (se == 0 && prefix && (d = opendir(w->dir)) != NULL) {
			closedir(d); /* listable after all (inotify limits): polled by its mtime */
		} else {
			snprintf(msg, sizeof msg, "%s: %s: a crash report %s%s there cannot be seen", w->dir,
				 strerror(se ? se : fe ? fe : -rc), w->name, prefix ? "*" : "");
			add_note(p, msg);
			w->said = true;
		}
	}
	if (dir_stat(w, &st) == 0)
		w->dir_mtime_ns = mtime_ns(&st);
	p->nw++;
	if (prefix)
		scan_prefix(p, w, now_ms, true);
	else
		look(p, path, now_ms, true);
	return 0;
}

/* read and parse f; 1 an event, 0 not (yet) a crash report */
static int read_report(const struct hserr_probe *p, struct hs_file *f, struct event *out)
{
	int fd = hs_open(p, f->path);
	if (fd < 0)
		return 0;
	size_t cap = (size_t)f->size < HSERR_READ_MAX ? (size_t)f->size + 1 : HSERR_READ_MAX, len = 0;
	char *buf = malloc(cap);
	ssize_t n = 0;
	while (buf && len < cap && (n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	close(fd);
	int rc = 0;
	if (buf && len > 0 && hserr_parse(buf, len, out)) {
		util_strlcpy_n(out->u.hserr.path, sizeof out->u.hserr.path, f->path, strlen(f->path));
		/* when it was written, on this machine's clock (the report's own Time:
		 * line may be in a zone we cannot tell) */
		out->t_ms = f->mtime_ns / 1000000;
		rc = 1;
	}
	free(buf);
	return rc;
}

int hserr_probe_poll(struct hserr_probe *p, int64_t now_ms, struct event *out, int cap, int *next_ms)
{
	int n = 0;
	*next_ms = -1;
	p->woken = false;
	for (int i = 0; i < p->nw; i++) {
		struct hs_watch *w = &p->w[i];
		if (!w->prefix) {
			char path[HSERR_PATH + 256];
			snprintf(path, sizeof path, "%s/%s", w->dir, w->name);
			look(p, path, now_ms, false); /* cheap; covers a missed or impossible watch */
			continue;
		}
		struct stat st;
		if (w->dw < 0 && dir_stat(w, &st) == 0 && mtime_ns(&st) != w->dir_mtime_ns) {
			w->dir_mtime_ns = mtime_ns(&st);
			scan_prefix(p, w, now_ms, false);
		} else if (w->dir_mtime_ns == -1) {
			if (dir_stat(w, &st) == 0)
				w->dir_mtime_ns = mtime_ns(&st);
			scan_prefix(p, w, now_ms, false);
		}
		for (int k = 0; k < p->nf; k++)
			if (!p->f[k].done && strncmp(p->f[k].path, w->dir, strlen(w->dir)) == 0)
				look(p, p->f[k].path, now_ms, false);
	}
	for (int i = 0; i < p->nf && n < cap; i++) {
		struct hs_file *f = &p->f[i];
		if (f->done || f->old)
			continue;
		int64_t quiet = now_ms - f->changed_ms;
		if (f->size <= 0 || (!f->closed && quiet < HSERR_SETTLE_MS)) {
			/* being written (or created, not written yet): look again soon */
			int64_t wait = f->size <= 0 ? 200 : HSERR_SETTLE_MS - quiet;
			if (wait < 10)
				wait = 10;
			if (*next_ms < 0 || wait < *next_ms)
				*next_ms = (int)wait;
			continue;
		}
		if (read_report(p, f, &out[n])) {
			f->done = true;
			n++;
		} else if (quiet >= HSERR_GIVE_UP_MS) {
			char msg[HSERR_PATH + 120];
			f->done = true;
			snprintf(msg, sizeof msg, "%s: not a JVM crash report (no \"# A fatal error has been detected\" "
				 "header): ignored", f->path);
			add_note(p, msg);
		} else {
			int wait = (int)(HSERR_GIVE_UP_MS - quiet);
			if (*next_ms < 0 || wait < *next_ms)
				*next_ms = wait < 200 ? wait : 200;
		}
	}
	return n;
}

const char *hserr_probe_take_note(struct hserr_probe *p)
{
	if (!p->note_new)
		return NULL;
	p->note_new = false;
	return p->note;
}

int hserr_probe_describe(const struct hserr_probe *p, char *buf, size_t len)
{
	size_t o = 0;
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < p->nw && o < len; i++) {
		int k = snprintf(buf + o, len - o, "%s%s/%s%s", i ? ", " : "", strcmp(p->w[i].dir, "/") ? p->w[i].dir : "",
				 p->w[i].name, p->w[i].prefix ? "*" : "");
		o += k > 0 ? (size_t)k : 0;
	}
	return p->nw;
}
