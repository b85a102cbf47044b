/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe_cgroup.c — CPU throttling and memory of a cgroup, v1, v2 or hybrid
 * (include/stwtop/probe.h).
 *
 * Formats: proc(5) /proc/PID/cgroup ("id:controllers:path") and
 * /proc/PID/mountinfo (root and mount point are fields 4 and 5, octal-escaped;
 * fstype and super options follow the " - " separator); cgroup v1
 * Documentation/admin-guide/cgroup-v1/ and scheduler/sched-bwc.rst (cpu.stat
 * nr_periods/nr_throttled/throttled_time ns, cpu.cfs_quota_us, cpuacct.usage ns,
 * memory.usage_in_bytes, memory.stat rss/cache/hierarchical_memory_limit); cgroup
 * v2 Documentation/admin-guide/cgroup-v2.rst (cpu.stat usage_usec/nr_periods/
 * nr_throttled/throttled_usec, cpu.max "max 100000", memory.current, memory.max,
 * memory.stat anon/file, memory.events oom_kill; v1 memory.oom_control oom_kill) and accounting/psi.rst (cpu.pressure, memory.pressure).
 *
 * A process's cgroup path is relative to its cgroup namespace, a mount shows
 * its hierarchy from mountinfo's root field down: a container that sees its own
 * cgroup as "/" has the full host path as the mount root, and the path in
 * /proc/PID/cgroup may then be "/" or a path not visible under the mount.
 * map_path() handles these by stripping the root, or falling back to the
 * mount point itself.
 *
 * From another container of the same pod (a sidecar sharing the process
 * namespace), the process's cgroup is not under our mounts at all: our mount
 * root is our own cgroup. Its own mounts are, seen through /proc/PID/root
 * (its /proc/PID/mountinfo; the same uid or CAP_SYS_PTRACE): open_own_view()
 * takes its cgroup there, when its cgroup.procs lists it.
 *
 * v2 has no hierarchical_memory_limit: the limits that apply may be an ancestor's (a pod's
 * cgroup over its container's, a systemd slice over its service), so the ancestors are
 * read up to the mount's top (v2_parent): the lowest memory.max, and for a cgroup without a
 * quota the nearest ancestor's cpu.max, with the throttling from that ancestor's cpu.stat. */
#include "stwtop/probe.h"

#include "stwtop/procfile.h"
#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CG_PATH 512
#define CG_NOTE 256
#define CG_ERR 512
/* v1 reports "no limit" as LONG_MAX rounded down to a page (9223372036854771712) */
#define CG_UNLIMITED_BYTES (INT64_MAX / 2)

struct cg_mount {
	char root[CG_PATH];
	char point[CG_PATH];
	char opts[256];       /* super options: "rw,cpu,cpuacct" (v1) */
	int version;          /* 1 or 2 */
};

struct cgroup_probe {
	char root[CG_PATH];
	/* where the mounts of the mountinfo read live: root, or root + /proc/PID/root
	 * for the process's own mounts (open_own_view) */
	char fsroot[CG_PATH];
	int cpu_version, mem_version;
	bool cpu_ctrl;        /* v2: the cpu controller is enabled (cpu.max exists) */
	char cpu_dir[CG_PATH];     /* with root prefix; "" none */
	char acct_dir[CG_PATH];    /* v1 cpuacct; "" none */
	char mem_dir[CG_PATH];
	char psi_dir[CG_PATH];     /* v2 dir holding cpu.pressure / memory.pressure */
	/* v2: the top of the hierarchy as mounted (root-prefixed mount point); the ancestors
	 * of cpu_dir/mem_dir up to it hold the limits that apply too (see v2_parent) */
	char v2_top[CG_PATH];
	/* v2, last poll: the ancestor whose cpu.max quota / memory.max applies, when not the
	 * process's own cgroup ("" otherwise) */
	char quota_from[CG_PATH], limit_from[CG_PATH];
	bool psi_cpu, psi_mem;
	/* v2: the memory controller is there but not memory.current: the root cgroup, which has
	 * no memory.current, memory.max or memory.events (a process in it on a v2 host) */
	bool mem_root;
	char note[CG_NOTE];
	/* last values, for describe */
	int64_t quota_us, period_us, limit_bytes;
	/* last poll's problems */
	char err[CG_ERR];
	int err_no;
	char buf[16384];
};

/* ---------------------------------------------------------------- parsing --- */

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape_field(const char *s, size_t n, char *dst, size_t dstlen)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < dstlen; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
		    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			dst[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			dst[o++] = s[i];
		}
	}
	dst[o] = '\0';
}

/* Split a line into space-separated fields (at most max). */
static int split_fields(const char *s, size_t n, const char **f, size_t *fl, int max)
{
	int k = 0;
	size_t i = 0;
	while (i < n && k < max) {
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		f[k] = s + i;
		while (i < n && s[i] != ' ')
			i++;
		fl[k] = (size_t)(s + i - f[k]);
		k++;
	}
	return k;
}

static bool opts_have(const char *opts, const char *name)
{
	size_t k = strlen(name);
	const char *p = opts;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == k && memcmp(p, name, k) == 0)
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}

/* The cgroup mounts of a mountinfo text. Returns the count (<= max). */
static int parse_mountinfo(const char *buf, size_t len, struct cg_mount *m, int max)
{
	int n = 0;
	size_t i = 0;
	while (i < len && n < max) {
		const char *line = buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		const char *f[64];
		size_t fl[64];
		int k = split_fields(line, ll, f, fl, 64), sep = -1;
		i += ll + 1;
		for (int j = 6; j < k; j++)
			if (fl[j] == 1 && f[j][0] == '-') {
				sep = j;
				break;
			}
		if (k < 6 || sep < 0 || sep + 3 > k)
			continue;
		int version = 0;
		if (fl[sep + 1] == 6 && memcmp(f[sep + 1], "cgroup", 6) == 0)
			version = 1;
		else if (fl[sep + 1] == 7 && memcmp(f[sep + 1], "cgroup2", 7) == 0)
			version = 2;
		if (!version)
			continue;
		m[n].version = version;
		unescape_field(f[3], fl[3], m[n].root, sizeof m[n].root);
		unescape_field(f[4], fl[4], m[n].point, sizeof m[n].point);
		util_strlcpy_n(m[n].opts, sizeof m[n].opts, f[sep + 3], fl[sep + 3]);
		n++;
	}
	return n;
}

/* From /proc/PID/cgroup: the path of the v1 hierarchy carrying ctrl, or (ctrl NULL)
 * of the v2 line "0::path". */
static bool cgroup_line_path(const char *buf, size_t len, const char *ctrl, char *path, size_t plen)
{
	size_t i = 0;
	while (i < len) {
		const char *line = buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		const char *c1 = memchr(line, ':', ll);
		const char *c2 = c1 ? memchr(c1 + 1, ':', ll - (size_t)(c1 + 1 - line)) : NULL;
		i += ll + 1;
		if (!c2)
			continue;
		const char *ctrls = c1 + 1;
		size_t cl = (size_t)(c2 - ctrls);
		const char *p = c2 + 1;
		size_t pl = ll - (size_t)(p - line);
		if (!ctrl) {
			if (cl == 0 && c1 - line == 1 && line[0] == '0') {
				util_strlcpy_n(path, plen, p, pl);
				return true;
			}
			continue;
		}
		char list[256];
		util_strlcpy_n(list, sizeof list, ctrls, cl);
		if (opts_have(list, ctrl)) {
			util_strlcpy_n(path, plen, p, pl);
			return true;
		}
	}
	return false;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists_in(const char *dir, const char *name)
{
	char p[CG_PATH + 64];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* A container whose cgroup path is not under the mount's root: say which fallback we took. */
static void note_fallback(struct cgroup_probe *p, const char *cg, const char *point)
{
	size_t l = strlen(p->note);
	if (l + 3 >= sizeof p->note)
		return;
	if (snprintf(p->note + l, sizeof p->note - l, "%scgroup %s not visible under the mount: using its root %s",
		     l ? "; " : "", cg, point) < 0)
		p->note[l] = '\0';
}

/* Where cgroup path `cg` of a process lives under mount m, as an openable path
 * (root-prefixed). See the comment at the top about containers. */
static int map_path(struct cgroup_probe *p, const struct cg_mount *m, const char *cg, char *out,
		    size_t outlen)
{
	char rel[CG_PATH];
	size_t rl = strlen(m->root);
	const char *tail = NULL;
	if (strcmp(m->root, "/") == 0) {
		tail = cg;
	} else if (strncmp(cg, m->root, rl) == 0 && (cg[rl] == '/' || cg[rl] == '\0')) {
		tail = cg + rl; /* "/kubepods/pod1/ctr" under a mount rooted at "/kubepods/pod1" */
	}
	if (tail) {
		if ((size_t)snprintf(rel, sizeof rel, "%s%s", m->point, strcmp(tail, "/") == 0 ? "" : tail) >=
			    sizeof rel ||
		    procfile_join(out, outlen, p->fsroot, rel) < 0)
			return -ENAMETOOLONG;
		if (is_dir(out))
			return 0;
	}
	/* the container's own cgroup is the mount root: "/" or an outside path */
	if (procfile_join(out, outlen, p->fsroot, m->point) < 0)
		return -ENAMETOOLONG;
	if (strcmp(cg, "/") != 0 || tail)
		note_fallback(p, cg, m->point);
	return is_dir(out) ? 0 : -ENOENT;
}

static const struct cg_mount *find_v1(const struct cg_mount *m, int n, const char *ctrl, const char *cg)
{
	const struct cg_mount *best = NULL;
	size_t best_len = 0;
	for (int i = 0; i < n; i++) {
		if (m[i].version != 1 || !opts_have(m[i].opts, ctrl))
			continue;
		size_t rl = strlen(m[i].root);
		bool prefix = strcmp(m[i].root, "/") == 0 ||
			      (cg && strncmp(cg, m[i].root, rl) == 0 && (cg[rl] == '/' || cg[rl] == '\0'));
		/* several mounts of one hierarchy (bind mounts): the one whose root covers the path */
		if (!best || (prefix && rl + 1 > best_len)) {
			best = &m[i];
			best_len = prefix ? rl + 1 : 0;
		}
	}
	return best;
}

static const struct cg_mount *find_v2(const struct cg_mount *m, int n)
{
	for (int i = 0; i < n; i++)
		if (m[i].version == 2)
			return &m[i];
	return NULL;
}

static bool v2_has_controller(const char *dir, const char *ctrl)
{
	char path[CG_PATH + 32];
	char b[512];
	snprintf(path, sizeof path, "%s/cgroup.controllers", dir);
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n < 0)
		return false;
	for (ssize_t i = 0; i < n; i++)
		if (b[i] == '\n')
			b[i] = ' ';
	/* space-separated list */
	size_t k = strlen(ctrl);
	for (const char *s = b; (s = strstr(s, ctrl)) != NULL; s += k)
		if ((s == b || s[-1] == ' ') && (s[k] == ' ' || s[k] == '\0'))
			return true;
	return false;
}

/* psi files are optional (kernel built without PSI or booted psi=0): probe once */
static void probe_psi(struct cgroup_probe *p)
{
	char path[CG_PATH + 32];
	double v;
	if (!p->psi_dir[0])
		return;
	snprintf(path, sizeof path, "%s/cpu.pressure", p->psi_dir);
	ssize_t n = procfile_read(AT_FDCWD, path, p->buf, sizeof p->buf);
	p->psi_cpu = n > 0 && procfile_psi_some_avg10(p->buf, (size_t)n, &v);
	snprintf(path, sizeof path, "%s/memory.pressure", p->psi_dir);
	n = procfile_read(AT_FDCWD, path, p->buf, sizeof p->buf);
	p->psi_mem = n > 0 && procfile_psi_some_avg10(p->buf, (size_t)n, &v);
	if (!p->psi_cpu && !p->psi_mem)
		p->psi_dir[0] = '\0';
}

/* The mount (v1 or v2) whose mount point contains dir (root-prefixed; canonical,
 * so a symlinked name like /sys/fs/cgroup/cpu -> cpu,cpuacct still matches). */
static const struct cg_mount *mount_of(const struct cgroup_probe *p, const struct cg_mount *m, int n,
				       const char *dir, const char **rel)
{
	const struct cg_mount *best = NULL;
	size_t best_len = 0;
	char rootc[PATH_MAX] = "";
	size_t rl = 0;
	if (p->root[0]) {
		if (!realpath(p->root, rootc))
			snprintf(rootc, sizeof rootc, "%s", p->root);
		rl = strlen(rootc);
		while (rl > 0 && rootc[rl - 1] == '/')
			rl--;
		if (strncmp(dir, rootc, rl) != 0)
			return NULL;
	}
	const char *d = dir + rl; /* dir without the fixture root */
	for (int i = 0; i < n; i++) {
		size_t pl = strlen(m[i].point);
		if (strncmp(d, m[i].point, pl) == 0 && (d[pl] == '/' || d[pl] == '\0') && pl >= best_len) {
			best = &m[i];
			best_len = pl;
			*rel = d + pl;
		}
	}
	return best;
}

static void open_dir(struct cgroup_probe *p, const struct cg_mount *m, int nm, const char *dir)
{
	const char *rel = "";
	const struct cg_mount *own = mount_of(p, m, nm, dir, &rel);
	if (exists_in(dir, "cgroup.controllers")) {
		/* v2: everything in one directory */
		p->cpu_version = p->mem_version = 2;
		snprintf(p->cpu_dir, sizeof p->cpu_dir, "%s", dir);
		p->cpu_ctrl = exists_in(dir, "cpu.max");
		if (exists_in(dir, "memory.current"))
			snprintf(p->mem_dir, sizeof p->mem_dir, "%s", dir);
		else
			p->mem_version = 0;
		p->mem_root = !p->mem_version && v2_has_controller(dir, "memory");
		snprintf(p->psi_dir, sizeof p->psi_dir, "%s", dir);
		if (own && own->version == 2 && procfile_join(p->v2_top, sizeof p->v2_top, p->root, own->point) < 0)
			p->v2_top[0] = '\0';
		return;
	}
	if (exists_in(dir, "cpu.cfs_quota_us") || exists_in(dir, "cpu.stat")) {
		p->cpu_version = 1;
		snprintf(p->cpu_dir, sizeof p->cpu_dir, "%s", dir);
		if (exists_in(dir, "cpuacct.usage"))
			snprintf(p->acct_dir, sizeof p->acct_dir, "%s", dir);
	}
	if (exists_in(dir, "memory.usage_in_bytes")) {
		p->mem_version = 1;
		snprintf(p->mem_dir, sizeof p->mem_dir, "%s", dir);
	}
	if (!own)
		return;
	/* the same relative path in the other v1 hierarchies (cpuacct, memory, cpu) */
	static const char *const ctrls[] = {"cpu", "cpuacct", "memory"};
	for (size_t c = 0; c < ARRAY_LEN(ctrls); c++) {
		char *slot = c == 0 ? p->cpu_dir : c == 1 ? p->acct_dir : p->mem_dir;
		if (slot[0])
			continue;
		for (int i = 0; i < nm; i++) {
			char cand[CG_PATH], full[CG_PATH];
			if (m[i].version != 1 || !opts_have(m[i].opts, ctrls[c]))
				continue;
			snprintf(cand, sizeof cand, "%s%s", m[i].point, rel);
			if (procfile_join(full, sizeof full, p->root, cand) == 0 && is_dir(full)) {
				snprintf(slot, CG_PATH, "%s", full);
				if (c == 0)
					p->cpu_version = 1;
				if (c == 2)
					p->mem_version = 1;
				break;
			}
		}
	}
}

static int open_pid(struct cgroup_probe *p, const struct cg_mount *m, int nm, int pid, char *err,
		    size_t errlen)
{
	char path[CG_PATH], rel[64], cg[CG_PATH];
	char *text = NULL;
	size_t len = 0;
	snprintf(rel, sizeof rel, "/proc/%d/cgroup", pid);
	procfile_join(path, sizeof path, p->root, rel);
	int r = procfile_read_alloc(AT_FDCWD, path, 1 << 20, &text, &len);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(-r),
			 r == -ENOENT ? " (no such process?)" : "");
		return r;
	}
	const struct cg_mount *v2 = find_v2(m, nm);
	char v2dir[CG_PATH] = "";
	if (v2 && cgroup_line_path(text, len, NULL, cg, sizeof cg) && map_path(p, v2, cg, v2dir, sizeof v2dir) < 0)
		v2dir[0] = '\0';
	if (v2dir[0] && procfile_join(p->v2_top, sizeof p->v2_top, p->fsroot, v2->point) < 0)
		p->v2_top[0] = '\0';

	/* cpu: a v1 hierarchy that has it for this process wins (hybrid: v2 then lacks it) */
	const struct cg_mount *mc;
	if (cgroup_line_path(text, len, "cpu", cg, sizeof cg) && (mc = find_v1(m, nm, "cpu", cg)) &&
	    map_path(p, mc, cg, p->cpu_dir, sizeof p->cpu_dir) == 0) {
		p->cpu_version = 1;
		if (exists_in(p->cpu_dir, "cpuacct.usage"))
			snprintf(p->acct_dir, sizeof p->acct_dir, "%s", p->cpu_dir);
	} else if (v2dir[0]) {
		p->cpu_version = 2;
		snprintf(p->cpu_dir, sizeof p->cpu_dir, "%s", v2dir);
		p->cpu_ctrl = v2_has_controller(v2dir, "cpu") && exists_in(v2dir, "cpu.max");
	}
	if (!p->acct_dir[0] && p->cpu_version == 1 && cgroup_line_path(text, len, "cpuacct", cg, sizeof cg) &&
	    (mc = find_v1(m, nm, "cpuacct", cg)) && map_path(p, mc, cg, p->acct_dir, sizeof p->acct_dir) < 0)
		p->acct_dir[0] = '\0';

	if (cgroup_line_path(text, len, "memory", cg, sizeof cg) && (mc = find_v1(m, nm, "memory", cg)) &&
	    map_path(p, mc, cg, p->mem_dir, sizeof p->mem_dir) == 0) {
		p->mem_version = 1;
	} else if (v2dir[0] && v2_has_controller(v2dir, "memory") && exists_in(v2dir, "memory.current")) {
		p->mem_version = 2;
		snprintf(p->mem_dir, sizeof p->mem_dir, "%s", v2dir);
	} else {
		p->mem_root = v2dir[0] && v2_has_controller(v2dir, "memory");
		p->mem_dir[0] = '\0';
	}
	if (v2dir[0])
		snprintf(p->psi_dir, sizeof p->psi_dir, "%s", v2dir);
	free(text);
	return 0;
}

/* pid is listed in dir's cgroup.procs (pids as our pid namespace numbers them) */
static bool lists_pid(const char *dir, int pid)
{
	char path[CG_PATH + 16], *text = NULL;
	size_t len = 0;
	if ((size_t)snprintf(path, sizeof path, "%s/cgroup.procs", dir) >= sizeof path ||
	    procfile_read_alloc(AT_FDCWD, path, 4 << 20, &text, &len) < 0)
		return false;
	bool found = false;
	for (size_t i = 0; i < len && !found;) {
		int64_t v;
		size_t k = util_parse_i64(text + i, len - i, &v);
		found = k > 0 && v == pid;
		i += k;
		while (i < len && text[i] != '\n')
			i++;
		i++;
	}
	free(text);
	return found;
}

/* The process's cgroup is not under our mounts (we fell back to a mount's
 * root, our own cgroup): take it through the process's own mounts instead,
 * when what is found there holds the process. Otherwise p stays as it was,
 * with its note. */
static void open_own_view(struct cgroup_probe *p, int pid)
{
	char rel[64], path[CG_PATH], *mi = NULL;
	size_t milen = 0;
	struct cgroup_probe *q = calloc(1, sizeof *q);
	struct cg_mount *m = calloc(64, sizeof *m);
	snprintf(rel, sizeof rel, "/proc/%d/mountinfo", pid);
	if (!q || !m || procfile_join(path, sizeof path, p->root, rel) < 0 ||
	    procfile_read_alloc(AT_FDCWD, path, 16 << 20, &mi, &milen) < 0)
		goto out;
	int nm = parse_mountinfo(mi, milen, m, 64);
	snprintf(rel, sizeof rel, "/proc/%d/root", pid);
	snprintf(q->root, sizeof q->root, "%s", p->root);
	if (procfile_join(q->fsroot, sizeof q->fsroot, p->root, rel) < 0)
		goto out;
	char err[CG_ERR];
	if (open_pid(q, m, nm, pid, err, sizeof err) < 0 || q->note[0] || !q->cpu_version ||
	    !lists_pid(q->cpu_dir, pid))
		goto out;
	memcpy(p->fsroot, q->fsroot, sizeof p->fsroot);
	p->cpu_version = q->cpu_version;
	p->mem_version = q->mem_version;
	p->mem_root = q->mem_root;
	p->cpu_ctrl = q->cpu_ctrl;
	memcpy(p->cpu_dir, q->cpu_dir, sizeof p->cpu_dir);
	memcpy(p->acct_dir, q->acct_dir, sizeof p->acct_dir);
	memcpy(p->mem_dir, q->mem_dir, sizeof p->mem_dir);
	memcpy(p->psi_dir, q->psi_dir, sizeof p->psi_dir);
	memcpy(p->v2_top, q->v2_top, sizeof p->v2_top);
	int w = snprintf(p->note, sizeof p->note, "process %d's cgroup read through its own mounts (%s)", pid,
			 q->cpu_dir);
	if (w < 0 || (size_t)w >= sizeof p->note)
		snprintf(p->note, sizeof p->note, "process %d's cgroup read through its own mounts", pid);
out:
	free(mi);
	free(m);
	free(q);
}

/* ------------------------------------------------------------------- poll --- */

/* v2: the parent of cgroup directory dir (root-prefixed, in place), while it is still
 * under the mount's top (the top itself included). False at the top, or with no top known
 * (no mountinfo: the directory alone is read). */
static bool v2_parent(const struct cgroup_probe *p, char *dir)
{
	size_t tl = strlen(p->v2_top);
	if (!tl || p->v2_top[tl - 1] == '/' || strncmp(dir, p->v2_top, tl) != 0 || dir[tl] != '/')
		return false;
	*strrchr(dir, '/') = '\0'; /* at index tl or later: the result is the top or under it */
	return true;
}

static void note_error(struct cgroup_probe *p, const char *what, const char *path, int e)
{
	size_t l = strlen(p->err);
	if (!p->err_no)
		p->err_no = e;
	if (l + 4 < sizeof p->err)
		snprintf(p->err + l, sizeof p->err - l, "%s%s: %s: %s", l ? "; " : "", what, path,
			 strerror(e));
}

/* read dir/name into p->buf; on failure note it and return -errno */
static ssize_t read_file(struct cgroup_probe *p, const char *dir, const char *name)
{
	char path[CG_PATH + 64];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	ssize_t n = procfile_read(AT_FDCWD, path, p->buf, sizeof p->buf);
	if (n == -EFBIG)
		n = (ssize_t)strlen(p->buf); /* a huge memory.stat: the keys we need come first */
	if (n < 0)
		note_error(p, name, path, (int)-n);
	return n;
}

static bool read_i64(struct cgroup_probe *p, const char *dir, const char *name, int64_t *out)
{
	ssize_t n = read_file(p, dir, name);
	if (n < 0)
		return false;
	if (!procfile_parse_i64(p->buf, (size_t)n, out)) {
		note_error(p, name, dir, EINVAL);
		return false;
	}
	return true;
}

static void read_psi(struct cgroup_probe *p, const char *name, double *out)
{
	ssize_t n = read_file(p, p->psi_dir, name);
	double v;
	if (n > 0 && procfile_psi_some_avg10(p->buf, (size_t)n, &v))
		*out = v;
}

/* cpu.max "QUOTA PERIOD" or "max PERIOD" */
static void parse_cpu_max(const char *b, size_t l, int64_t *quota, int64_t *period)
{
	size_t i = 0;
	int64_t q, per;
	if (util_starts_with(b, l, "max")) {
		*quota = -1;
		i = 3;
	} else if ((i = util_parse_i64(b, l, &q)) > 0) {
		*quota = q;
	}
	while (i < l && b[i] == ' ')
		i++;
	if (i < l && util_parse_i64(b + i, l - i, &per) > 0)
		*period = per;
}

/* v2, a cgroup without a quota of its own: the nearest ancestor's cpu.max quota applies to
 * it (a Kubernetes pod's cgroup, a systemd slice's CPUQuota=, a container run in a child of
 * its limited cgroup), and the kernel counts that throttling in the ancestor's cpu.stat
 * only: the cgroup's own nr_throttled stays 0 (seen on Debian 12's 6.1, tests/fixtures/
 * probe/v2-vm-ancestor). So take quota, period and the throttling counters there; the
 * usage stays the cgroup's own. Ancestors are read quietly: their absence is no error. */
static void v2_ancestor_quota(struct cgroup_probe *p, struct ev_cpu *c)
{
	char d[CG_PATH], path[CG_PATH + 16];
	int64_t v;
	snprintf(d, sizeof d, "%s", p->cpu_dir);
	while (v2_parent(p, d)) {
		int64_t q = -2, per = -1;
		snprintf(path, sizeof path, "%s/cpu.max", d);
		ssize_t n = procfile_read(AT_FDCWD, path, p->buf, sizeof p->buf);
		if (n <= 0)
			continue;
		parse_cpu_max(p->buf, (size_t)n, &q, &per);
		if (q < 0)
			continue;
		c->quota_us = q;
		c->period_us = per;
		snprintf(p->quota_from, sizeof p->quota_from, "%s", d);
		snprintf(path, sizeof path, "%s/cpu.stat", d);
		n = procfile_read(AT_FDCWD, path, p->buf, sizeof p->buf);
		if (n > 0) {
			if (procfile_kv_i64(p->buf, (size_t)n, "nr_periods", &v))
				c->nr_periods = v;
			if (procfile_kv_i64(p->buf, (size_t)n, "nr_throttled", &v))
				c->nr_throttled = v;
			if (procfile_kv_i64(p->buf, (size_t)n, "throttled_usec", &v))
				c->throttled_us = v;
		}
		return;
	}
}

static bool poll_cpu(struct cgroup_probe *p, struct event *e, int64_t now_ms)
{
	bool got = false;
	struct ev_cpu *c = &e->u.cpu;
	int64_t v;
	ev_init(e, EV_CPU);
	e->t_ms = now_ms;
	c->cg_version = (uint8_t)p->cpu_version;
	ssize_t n = read_file(p, p->cpu_dir, "cpu.stat");
	if (n >= 0) {
		const char *b = p->buf;
		size_t l = (size_t)n;
		got = true;
		if (procfile_kv_i64(b, l, "nr_periods", &v))
			c->nr_periods = v;
		if (procfile_kv_i64(b, l, "nr_throttled", &v))
			c->nr_throttled = v;
		if (procfile_kv_i64(b, l, "throttled_usec", &v))
			c->throttled_us = v;
		else if (procfile_kv_i64(b, l, "throttled_time", &v))
			c->throttled_us = v / 1000;
		if (procfile_kv_i64(b, l, "usage_usec", &v))
			c->usage_us = v;
	}
	if (p->cpu_version == 1) {
		if (read_i64(p, p->cpu_dir, "cpu.cfs_quota_us", &v))
			c->quota_us = v < 0 ? -1 : v;
		if (read_i64(p, p->cpu_dir, "cpu.cfs_period_us", &v))
			c->period_us = v;
		if (p->acct_dir[0] && read_i64(p, p->acct_dir, "cpuacct.usage", &v)) {
			c->usage_us = v / 1000;
			got = true;
		}
	} else if (p->cpu_ctrl) {
		n = read_file(p, p->cpu_dir, "cpu.max");
		if (n > 0)
			parse_cpu_max(p->buf, (size_t)n, &c->quota_us, &c->period_us);
		p->quota_from[0] = '\0';
		if (c->quota_us == -1)
			v2_ancestor_quota(p, c);
	}
	if (p->psi_cpu)
		read_psi(p, "cpu.pressure", &c->psi_some_avg10);
	p->quota_us = c->quota_us;
	p->period_us = c->period_us;
	return got;
}

static bool poll_mem(struct cgroup_probe *p, struct event *e, int64_t now_ms)
{
	struct ev_mem *m = &e->u.mem;
	int64_t v;
	bool got;
	ev_init(e, EV_MEM);
	e->t_ms = now_ms;
	if (p->mem_version == 1) {
		got = read_i64(p, p->mem_dir, "memory.usage_in_bytes", &v);
		if (got)
			m->usage_bytes = v;
		if (read_i64(p, p->mem_dir, "memory.limit_in_bytes", &v))
			m->limit_bytes = v >= CG_UNLIMITED_BYTES ? -1 : v;
		ssize_t n = read_file(p, p->mem_dir, "memory.stat");
		if (n >= 0) {
			const char *b = p->buf;
			size_t l = (size_t)n;
			/* total_* include child cgroups, like usage_in_bytes does */
			if (procfile_kv_i64(b, l, "total_rss", &v) || procfile_kv_i64(b, l, "rss", &v))
				m->anon_bytes = v;
			if (procfile_kv_i64(b, l, "total_cache", &v) || procfile_kv_i64(b, l, "cache", &v))
				m->file_bytes = v;
			/* an ancestor's lower limit is the one that applies */
			if (procfile_kv_i64(b, l, "hierarchical_memory_limit", &v) && v < CG_UNLIMITED_BYTES &&
			    (m->limit_bytes < 0 || v < m->limit_bytes))
				m->limit_bytes = v;
		}
	} else {
		got = read_i64(p, p->mem_dir, "memory.current", &v);
		if (got)
			m->usage_bytes = v;
		ssize_t n = read_file(p, p->mem_dir, "memory.max");
		if (n > 0) {
			if (util_starts_with(p->buf, (size_t)n, "max"))
				m->limit_bytes = -1;
			else if (procfile_parse_i64(p->buf, (size_t)n, &v))
				m->limit_bytes = v;
		}
		/* an ancestor's lower memory.max is the one that applies (v1's
		 * hierarchical_memory_limit, which v2 has no file for): read them quietly */
		char d[CG_PATH], path[CG_PATH + 16];
		snprintf(d, sizeof d, "%s", p->mem_dir);
		p->limit_from[0] = '\0';
		while (v2_parent(p, d)) {
			snprintf(path, sizeof path, "%s/memory.max", d);
			n = procfile_read(AT_FDCWD, path, p->buf, sizeof p->buf);
			if (n > 0 && !util_starts_with(p->buf, (size_t)n, "max") &&
			    procfile_parse_i64(p->buf, (size_t)n, &v) && (m->limit_bytes < 0 || v < m->limit_bytes)) {
				m->limit_bytes = v;
				snprintf(p->limit_from, sizeof p->limit_from, "%s", d);
			}
		}
		n = read_file(p, p->mem_dir, "memory.stat");
		if (n >= 0) {
			if (procfile_kv_i64(p->buf, (size_t)n, "anon", &v))
				m->anon_bytes = v;
			if (procfile_kv_i64(p->buf, (size_t)n, "file", &v))
				m->file_bytes = v;
		}
	}
	/* the kernel counts each OOM kill in the cgroup (mm/memcontrol.c MEMCG_OOM_KILL): v1
	 * memory.oom_control "oom_kill" (Linux 4.13+), v2 memory.events "oom_kill". Read
	 * quietly: an older kernel or the root cgroup has none, and that is not a problem
	 * to say at every poll (the counter is then unknown, and nothing claims a kill) */
	char opath[CG_PATH + 64];
	snprintf(opath, sizeof opath, "%s/%s", p->mem_dir,
		 p->mem_version == 1 ? "memory.oom_control" : "memory.events");
	ssize_t on = procfile_read(AT_FDCWD, opath, p->buf, sizeof p->buf);
	if (on > 0 && procfile_kv_i64(p->buf, (size_t)on, "oom_kill", &v))
		m->oom_kill = v;
	if (p->psi_mem)
		read_psi(p, "memory.pressure", &m->psi_some_avg10);
	p->limit_bytes = m->limit_bytes;
	return got;
}

int cgroup_probe_poll(struct cgroup_probe *p, int64_t now_ms, struct event *out, int cap)
{
	int n = 0;
	p->err[0] = '\0';
	p->err_no = 0;
	if (cap > n && p->cpu_version && poll_cpu(p, &out[n], now_ms))
		n++;
	if (cap > n && p->mem_version && poll_mem(p, &out[n], now_ms))
		n++;
	if (n == 0 && p->err_no)
		return -p->err_no;
	return n;
}

/* ------------------------------------------------------------------- open --- */

struct cgroup_probe *cgroup_probe_open(const char *root, int pid, const char *dir, char *err, size_t errlen)
{
	struct cgroup_probe *p = calloc(1, sizeof *p);
	char path[CG_PATH];
	char *mi = NULL;
	size_t milen = 0;
	struct cg_mount *m = NULL;
	int nm = 0, r;
	if (errlen)
		err[0] = '\0';
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->quota_us = -2;
	p->period_us = -1;
	p->limit_bytes = -1;
	snprintf(p->root, sizeof p->root, "%s", root ? root : "");
	snprintf(p->fsroot, sizeof p->fsroot, "%s", p->root);
	if (pid <= 0 && !dir) {
		snprintf(err, errlen, "cgroup probe: neither a pid nor a cgroup directory given");
		goto fail;
	}
	procfile_join(path, sizeof path, p->root, "/proc/self/mountinfo");
	r = procfile_read_alloc(AT_FDCWD, path, 16 << 20, &mi, &milen);
	if (r < 0 && !dir) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		goto fail;
	}
	m = calloc(64, sizeof *m);
	if (!m) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (mi)
		nm = parse_mountinfo(mi, milen, m, 64);
	if (dir) {
		char full[CG_PATH];
		struct stat st;
		if (procfile_join(full, sizeof full, p->root, dir) < 0) {
			snprintf(err, errlen, "cgroup directory %s%s: %s", p->root, dir, strerror(ENAMETOOLONG));
			goto fail;
		}
		if (stat(full, &st) < 0) {
			snprintf(err, errlen, "cgroup directory %s: %s", full, strerror(errno));
			goto fail;
		}
		if (!S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "cgroup directory %s: %s", full, strerror(ENOTDIR));
			goto fail;
		}
		char canon[PATH_MAX];
		if (realpath(full, canon) && strlen(canon) < sizeof full)
			snprintf(full, sizeof full, "%s", canon);
		open_dir(p, m, nm, full);
		if (!p->cpu_version && !p->mem_version) {
			snprintf(err, errlen, "%s is not a cgroup cpu or memory directory (no cpu.stat, "
				 "cgroup.controllers or memory.usage_in_bytes)", full);
			goto fail;
		}
	} else {
		if (nm == 0) {
			snprintf(err, errlen, "no cgroup (v1 or v2) is mounted: nothing in %s", path);
			goto fail;
		}
		if (open_pid(p, m, nm, pid, err, errlen) < 0)
			goto fail;
		if (p->note[0])
			open_own_view(p, pid);
		if (!p->cpu_version && !p->mem_version) {
			snprintf(err, errlen, "process %d: no cgroup cpu or memory controller found "
				 "(neither a v1 cpu/memory hierarchy nor cgroup2 is mounted for it, see %s)", pid, path);
			goto fail;
		}
	}
	probe_psi(p);
	free(m);
	free(mi);
	/* first read for describe(); its errors stay visible through last_error */
	struct event ev[2];
	cgroup_probe_poll(p, util_now_ms(), ev, 2);
	return p;
fail:
	free(m);
	free(mi);
	free(p);
	return NULL;
}

void cgroup_probe_close(struct cgroup_probe *p)
{
	free(p);
}

int cgroup_probe_cpu_version(const struct cgroup_probe *p)
{
	return p->cpu_version;
}

int cgroup_probe_mem_version(const struct cgroup_probe *p)
{
	return p->mem_version;
}

const char *cgroup_probe_last_error(const struct cgroup_probe *p, int *err_no)
{
	if (err_no)
		*err_no = p->err_no;
	return p->err[0] ? p->err : NULL;
}

void cgroup_probe_describe(const struct cgroup_probe *p, char *buf, size_t len)
{
	size_t o = 0;
	char q[80], kb[24];
#define APPEND(...)                                                              \
	do {                                                                     \
		if (o < len)                                                     \
			o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__);    \
	} while (0)
	if (len == 0)
		return;
	buf[0] = '\0';
	if (p->cpu_version) {
		if (p->cpu_version == 2 && !p->cpu_ctrl)
			snprintf(q, sizeof q, "no cpu controller here: usage only, no quota or throttling");
		else if (p->quota_us >= 0 && p->period_us > 0)
			snprintf(q, sizeof q, "quota %.2f CPU", (double)p->quota_us / (double)p->period_us);
		else if (p->quota_us == -1)
			snprintf(q, sizeof q, "no quota");
		else
			snprintf(q, sizeof q, "quota unknown");
		APPEND("cgroup v%d cpu %s (%s", p->cpu_version, p->cpu_dir, q);
		if (p->quota_from[0])
			APPEND(", from its ancestor %s", p->quota_from);
		APPEND(")");
		if (p->acct_dir[0] && strcmp(p->acct_dir, p->cpu_dir) != 0)
			APPEND(", cpuacct %s", p->acct_dir);
	}
	if (p->mem_version) {
		if (p->limit_bytes >= 0)
			snprintf(q, sizeof q, "limit %s", util_fmt_kb(p->limit_bytes / 1024, kb, sizeof kb));
		else
			snprintf(q, sizeof q, "no limit");
		if (!p->cpu_version)
			APPEND("cgroup v%d memory %s (%s", p->mem_version, p->mem_dir, q);
		else if (p->mem_version != p->cpu_version)
			APPEND(", memory v%d %s (%s", p->mem_version, p->mem_dir, q);
		else
			APPEND(", memory %s (%s", p->mem_dir, q);
		if (p->limit_from[0])
			APPEND(", from its ancestor %s", p->limit_from);
		APPEND(")");
	} else if (p->mem_root) {
		APPEND(", memory: none read (the root cgroup has no memory.current or memory.max)");
	} else {
		APPEND(", no memory controller");
	}
	if (p->psi_dir[0])
		APPEND(", pressure %s", p->psi_dir);
	if (p->note[0])
		APPEND(" [%s]", p->note);
#undef APPEND
	if (o >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}
