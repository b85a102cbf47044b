/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_jvmout.c — what the JVM itself wrote on its stdout and stderr before it
 * ended, when they are files (include/stwtop/probe.h).
 *
 * HotSpot's report_java_out_of_memory (src/hotspot/share/utilities/debug.cpp,
 * JDK 8-25) writes on its tty (stdout, unless -XX:+DisplayVMOutputToStderr)
 * "Aborting due to java.lang.OutOfMemoryError: <what>" and then a fatal error
 * (-XX:+CrashOnOutOfMemoryError), or "Terminating due to
 * java.lang.OutOfMemoryError: <what>" and then os::_exit(3)
 * (-XX:+ExitOnOutOfMemoryError: no shutdown hooks, no heap at exit in the GC
 * log). An uncaught one is printed on stderr by the thread that died
 * ("Exception in thread "main" java.lang.OutOfMemoryError: Java heap space").
 *
 * Each file is opened again through /proc/PID/fd/N while the JVM lives (a new
 * descriptor of the same file, kept), so it can be read after the process and
 * its /proc entry are gone, even when the file was deleted. Only what was
 * written after the open counts: a line from before stwtop watched says nothing
 * about how this end came. A file truncated since (smaller than it was) is read from its
 * start; one truncated and then written past its old size cannot be told apart. */
#include "stwtop/probe.h"

#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define JVMOUT_TAIL (64 * 1024)   /* what is read of each file: the end of the JVM's output */

struct jvmout_file {
	int fd;
	off_t start;                  /* its size at open: what was written before is not read */
	char path[96];                /* where /proc/PID/fd/N pointed, for the evidence */
};

struct jvmout_probe {
	struct jvmout_file f[2];      /* stdout, stderr (one when both are the same file) */
	int n;
	char buf[JVMOUT_TAIL + 1];
};

struct jvmout_probe *jvmout_probe_open(const char *root, int pid, char *why, size_t whylen)
{
	struct jvmout_probe *p = calloc(1, sizeof *p);
	if (!p) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	size_t o = 0;
	why[0] = '\0';
	dev_t dev[2];
	ino_t ino[2];
	for (int fdn = 1; fdn <= 2; fdn++) {
		char link[256], target[256];
		snprintf(link, sizeof link, "%s/proc/%d/fd/%d", root, pid, fdn);
		ssize_t tn = readlink(link, target, sizeof target - 1);
		target[tn > 0 ? tn : 0] = '\0';
		/* stat before open: opening a pipe through /proc makes one more reader of it */
		struct stat st;
		const char *bad = NULL;
		int fd = -1;
		if (stat(link, &st) != 0)
			bad = strerror(errno);
		else if (!S_ISREG(st.st_mode))
			bad = "not a file";
		else if ((fd = open(link, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) < 0)
			bad = strerror(errno);
		else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
			bad = "not a file";
		if (bad) {
			if (fd >= 0)
				close(fd);
			int w = snprintf(why + o, o < whylen ? whylen - o : 0, "%s%s (%s): %s", o ? "; " : "", link,
					 target[0] ? target : "?", bad);
			o += w > 0 ? (size_t)w : 0;
			continue;
		}
		bool same = false;
		for (int i = 0; i < p->n; i++)
			same |= dev[i] == st.st_dev && ino[i] == st.st_ino;
		if (same) { /* 2>&1: one file */
			close(fd);
			continue;
		}
		struct jvmout_file *f = &p->f[p->n];
		dev[p->n] = st.st_dev;
		ino[p->n] = st.st_ino;
		f->fd = fd;
		f->start = st.st_size;
		util_sanitize(f->path, sizeof f->path, target, strlen(target));
		p->n++;
	}
	if (p->n == 0) {
		free(p);
		return NULL;
	}
	return p;
}

static int said_rank(const char *line, size_t n)
{
	static const char oome[] = "java.lang.OutOfMemoryError";
	if (!util_memmem(line, n, oome))
		return EXIT_SAID_NOTHING;
	if (util_memmem(line, n, "Aborting due to java.lang.OutOfMemoryError"))
		return EXIT_SAID_ABORTING;
	if (util_memmem(line, n, "Terminating due to java.lang.OutOfMemoryError"))
		return EXIT_SAID_TERMINATING;
	return EXIT_SAID_OOME;
}

/* the strongest line of one file's new bytes into x (a later one of the same rank wins) */
static void scan_file(struct jvmout_probe *p, const struct jvmout_file *f, struct ev_jvm_exit *x)
{
	struct stat st;
	if (fstat(f->fd, &st) != 0)
		return;
	off_t from = st.st_size < f->start ? 0 : f->start; /* truncated: all of it is new */
	bool cut = false;
	if (st.st_size - from > JVMOUT_TAIL) {
		from = st.st_size - JVMOUT_TAIL;
		cut = true;
	}
	ssize_t n = pread(f->fd, p->buf, (size_t)(st.st_size - from), from);
	if (n <= 0)
		return;
	size_t i = 0, len = (size_t)n;
	if (cut) { /* the first line is a piece of one */
		const char *nl = memchr(p->buf, '\n', len);
		i = nl ? (size_t)(nl - p->buf) + 1 : len;
	}
	while (i < len) {
		const char *line = p->buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		size_t next = i + ll + 1;
		int rank = said_rank(line, ll);
		if (rank >= x->said && rank > EXIT_SAID_NOTHING) {
			x->said = (uint8_t)rank;
			while (ll > 0 && (line[ll - 1] == '\r' || line[ll - 1] == ' '))
				ll--;
			util_sanitize(x->said_line, sizeof x->said_line, line, ll);
			util_strlcpy_n(x->said_path, sizeof x->said_path, f->path, strlen(f->path));
		}
		i = next;
	}
}

void jvmout_probe_read(struct jvmout_probe *p, struct ev_jvm_exit *x)
{
	if (!p)
		return;
	if (x->said == EXIT_SAID_UNKNOWN)
		x->said = EXIT_SAID_NOTHING;
	for (int i = 0; i < p->n; i++)
		scan_file(p, &p->f[i], x);
}

int jvmout_probe_files(const struct jvmout_probe *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; p && i < p->n; i++) {
		int w = snprintf(buf + o, o < len ? len - o : 0, "%s%s", i ? ", " : "", p->f[i].path);
		o += w > 0 ? (size_t)w : 0;
	}
	return p ? p->n : 0;
}

void jvmout_probe_close(struct jvmout_probe *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n; i++)
		close(p->f[i].fd);
	free(p);
}
