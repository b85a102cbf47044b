/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procfile.h — reading small kernel files (/proc, /sys/fs/cgroup) cheaply and
 * safely: one open/read/close per file, no stdio, bounded buffers, and a "root"
 * prefix so the probes and discovery can be pointed at a fixture tree instead of
 * the live system. Shared by probe_cgroup.c, probe_sched.c, probe_vmstat.c and
 * discover.c. */
#ifndef STWTOP_PROCFILE_H
#define STWTOP_PROCFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read path (relative to dirfd, or absolute; dirfd may be AT_FDCWD) into
 * buf[0..cap-1] and NUL-terminate. Returns the bytes read (>= 0), -EFBIG when the
 * file did not fit (buf then holds the first cap-1 bytes), or -errno. */
ssize_t procfile_read(int dirfd, const char *path, char *buf, size_t cap);

/* Read a whole file of any size into a malloc'ed, NUL-terminated buffer (for
 * mountinfo, cmdline, environ). *buf is NULL on error. Returns 0 or -errno;
 * files larger than max bytes give -EFBIG. */
int procfile_read_alloc(int dirfd, const char *path, size_t max, char **buf, size_t *len);

/* dst = root + path ("" root: path itself). Returns 0, or -ENAMETOOLONG. */
int procfile_join(char *dst, size_t dstlen, const char *root, const char *path);

/* In a "key value\n" file (cpu.stat, memory.stat, vmstat): the value of key.
 * Returns false if the key is absent or its value is not an integer. */
bool procfile_kv_i64(const char *buf, size_t len, const char *key, int64_t *out);

/* One integer file ("100000\n", "-1\n"). */
bool procfile_parse_i64(const char *buf, size_t len, int64_t *out);

/* PSI file ("some avg10=0.00 avg60=... total=N\nfull ..."): the "some" avg10. */
bool procfile_psi_some_avg10(const char *buf, size_t len, double *out);

/* /proc/PID/stat fields stwtop needs. comm (field 2) may hold spaces and
 * parentheses, so fields are counted from the last ')'. */
struct procfile_stat {
	char state;                 /* field 3 */
	uint64_t num_threads;       /* field 20 */
	uint64_t starttime;         /* field 22, clock ticks after boot */
};
/* 0, -ESRCH when the process is gone, -EINVAL when malformed, other -errno. */
int procfile_read_stat(const char *path, struct procfile_stat *out);

/* <root>/proc/PID/status into buf (its path in path): the bytes read (a status
 * longer than cap is cut, its first lines kept), or -ESRCH with why saying
 * "no process PID (...)", or another -errno. */
ssize_t procfile_read_status(const char *root, int pid, char *buf, size_t cap, char *path, size_t pathlen,
			     char *why, size_t whylen);
/* The numbers of a "Key:\tN\tN..." line of a status (key with its leading
 * "\n", e.g. "\nUid:"): the idx'th (0-based) or, idx < 0, the last one (NSpid:
 * the pid in the innermost namespace). false when absent. */
bool procfile_status_num(const char *b, size_t n, const char *key, int idx, int64_t *out);

#endif
