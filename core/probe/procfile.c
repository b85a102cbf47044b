/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procfile.c — one open/read/close per small kernel file (include/stwtop/procfile.h).
 * Kernel seq_files may hand out less than the whole file per read(), so reads
 * loop until EOF; nothing here trusts the content to be NUL-free or well formed. */
#include "stwtop/procfile.h"

#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t procfile_read(int dirfd, const char *path, char *buf, size_t cap)
{
	size_t n = 0;
	int fd;
	if (cap == 0)
		return -EINVAL;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t k;
		if (n == cap - 1) {
			/* full: a file that is exactly cap-1 bytes long is not "too big" */
			char probe;
			do
				k = read(fd, &probe, 1);
			while (k < 0 && errno == EINTR);
			close(fd);
			buf[n] = '\0';
			return k == 0 ? (ssize_t)n : -EFBIG;
		}
		k = read(fd, buf + n, cap - 1 - n);
		if (k < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			close(fd);
			buf[n] = '\0';
			return -e;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

int procfile_read_alloc(int dirfd, const char *path, size_t max, char **out, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf;
	int fd;
	*out = NULL;
	*len = 0;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t k;
		if (n + 1 >= cap) {
			char *nb;
			if (cap >= max) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			cap = cap * 2 > max ? max : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
		}
		k = read(fd, buf + n, cap - 1 - n);
		if (k < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			return -e;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int procfile_join(char *dst, size_t dstlen, const char *root, const char *path)
{
	size_t r = root ? strlen(root) : 0, p = strlen(path);
	/* "/fixture/" + "/proc": drop the doubled slash so messages stay readable */
	while (r > 0 && root[r - 1] == '/' && p > 0 && path[0] == '/')
		r--;
	if (r + p + 1 > dstlen)
		return -ENAMETOOLONG;
	if (r)
		memcpy(dst, root, r);
	memcpy(dst + r, path, p + 1);
	return 0;
}

bool procfile_kv_i64(const char *buf, size_t len, const char *key, int64_t *out)
{
	size_t k = strlen(key), i = 0;
	while (i < len) {
		const char *line = buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		if (ll > k && memcmp(line, key, k) == 0 && (line[k] == ' ' || line[k] == '\t')) {
			size_t j = k;
			while (j < ll && (line[j] == ' ' || line[j] == '\t'))
				j++;
			return util_parse_i64(line + j, ll - j, out) > 0;
		}
		i += ll + 1;
	}
	return false;
}

bool procfile_parse_i64(const char *buf, size_t len, int64_t *out)
{
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	return util_parse_i64(buf + i, len - i, out) > 0;
}

bool procfile_psi_some_avg10(const char *buf, size_t len, double *out)
{
	const char *p;
	if (!util_starts_with(buf, len, "some "))
		return false;
	p = util_memmem(buf, len, "avg10=");
	if (!p)
		return false;
	p += 6;
	return util_parse_double(p, len - (size_t)(p - buf), false, out) > 0;
}

int procfile_read_stat(const char *path, struct procfile_stat *out)
{
	char b[1024];
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	const char *rp = NULL;
	for (ssize_t i = n - 1; i >= 0; i--)
		if (b[i] == ')') {
			rp = b + i;
			break;
		}
	if (!rp || rp + 2 >= b + n)
		return -EINVAL;
	const char *s = rp + 2, *end = b + n;
	out->state = *s;
	for (int f = 3; f < 22; f++) {
		if (f == 20 && util_parse_u64(s, (size_t)(end - s), &out->num_threads) == 0)
			return -EINVAL;
		while (s < end && *s != ' ')
			s++;
		while (s < end && *s == ' ')
			s++;
	}
	if (s >= end || util_parse_u64(s, (size_t)(end - s), &out->starttime) == 0)
		return -EINVAL;
	return 0;
}

ssize_t procfile_read_status(const char *root, int pid, char *buf, size_t cap, char *path, size_t pathlen,
			     char *why, size_t whylen)
{
	char rel[64];
	snprintf(rel, sizeof rel, "/proc/%d/status", pid);
	procfile_join(path, pathlen, root, rel);
	ssize_t n = procfile_read(AT_FDCWD, path, buf, cap);
	if (n == -EFBIG)
		n = (ssize_t)strlen(buf);
	if (n < 0) {
		snprintf(why, whylen, "no process %d (%s: %s)", pid, path, strerror((int)-n));
		return n == -ENOENT ? -ESRCH : n;
	}
	return n;
}

bool procfile_status_num(const char *b, size_t n, const char *key, int idx, int64_t *out)
{
	const char *p = util_memmem(b, n, key), *end = b + n;
	bool got = false;
	if (!p)
		return false;
	p += strlen(key);
	for (int i = 0; p < end && *p != '\n'; i++) {
		int64_t v;
		size_t k;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		k = util_parse_i64(p, (size_t)(end - p), &v);
		if (!k)
			break;
		p += k;
		if (idx < 0 || i == idx) {
			*out = v;
			got = true;
			if (idx >= 0)
				break;
		}
	}
	return got;
}
