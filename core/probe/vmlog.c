/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmlog.c — GC + safepoint logging turned on in a running JVM and off again
 * (vmlog.h), through VM.log (HotSpot's LogDiagnosticCommand, logConfiguration.cpp:
 * `VM.log list` prints " #N: NAME SELECTIONS DECORATORS OPTIONS" per output, an
 * output named again is reconfigured, and one whose selections are all off is
 * deleted). A VM.log that fails still answers status 0, with the reason as its
 * text ("Error opening log file ..."): success is an empty answer. */
#include "stwtop/vmlog.h"

#include "stwtop/attach.h"
#include "stwtop/procfile.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LIST_CAP (64 * 1024)

/* "all=off,gc*=info,safepoint=info": does [gc] get info or finer? */
static bool selects_gc(const char *s, size_t n)
{
	bool gc = false;
	while (n > 0) {
		const char *comma = memchr(s, ',', n);
		size_t k = comma ? (size_t)(comma - s) : n;
		const char *eq = memchr(s, '=', k);
		if (eq) {
			size_t tk = (size_t)(eq - s);
			const char *lvl = eq + 1;
			size_t lk = k - tk - 1;
			bool tag = (tk == 2 && memcmp(s, "gc", 2) == 0) || (tk == 3 && memcmp(s, "gc*", 3) == 0) ||
				   (tk == 3 && memcmp(s, "all", 3) == 0);
			bool on = (lk == 4 && memcmp(lvl, "info", 4) == 0) || (lk == 5 && memcmp(lvl, "debug", 5) == 0) ||
				  (lk == 5 && memcmp(lvl, "trace", 5) == 0);
			if (tag)
				gc = on; /* a later selection overrides */
		}
		if (!comma)
			break;
		n -= k + 1;
		s = comma + 1;
	}
	return gc;
}

int vmlog_parse_list(const char *text, size_t len, struct vmlog_output *out, int max)
{
	int n = 0;
	const char *p = text, *end = text + len;
	while (p < end && n < max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && *q == ' ')
			q++;
		int64_t num;
		size_t used = q < le && *q == '#' ? util_parse_i64(q + 1, (size_t)(le - q - 1), &num) : 0;
		if (used && q + 1 + used + 1 < le && q[1 + used] == ':' && q[2 + used] == ' ') {
			struct vmlog_output *o = &out[n++];
			memset(o, 0, sizeof *o);
			o->num = (int)num;
			const char *name = q + 3 + used;
			/* a file name with a space is printed quoted */
			const char *from = name;
			if ((size_t)(le - name) > 6 && memcmp(name, "file=\"", 6) == 0) {
				const char *cq = memchr(name + 6, '"', (size_t)(le - name - 6));
				from = cq ? cq : name;
			}
			const char *sp = memchr(from, ' ', (size_t)(le - from));
			size_t nk = sp ? (size_t)(sp - name) : (size_t)(le - name);
			util_strlcpy_n(o->name, sizeof o->name, name, nk);
			if (nk > 5 && memcmp(name, "file=", 5) == 0) {
				o->file = true;
				const char *f = name + 5;
				size_t fk = nk - 5;
				if (fk >= 2 && f[0] == '"' && f[fk - 1] == '"') {
					f++;
					fk -= 2;
				}
				util_strlcpy_n(o->path, sizeof o->path, f, fk);
			}
			if (sp) {
				const char *sel = sp + 1, *sp2 = memchr(sel, ' ', (size_t)(le - sel));
				o->gc = selects_gc(sel, sp2 ? (size_t)(sp2 - sel) : (size_t)(le - sel));
			}
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}

void vmlog_command(char *buf, size_t len, const char *path, bool on)
{
	if (on)
		snprintf(buf, len, "VM.log output=file=%s what=" VMLOG_WHAT " decorators=time,uptime,level,tags "
			 "output_options=filecount=5,filesize=20m", path);
	else
		snprintf(buf, len, "VM.log output=file=%s what=all=off", path);
}

int vmlog_plan(const char *root, int pid, struct vmlog_on *on, char *why, size_t whylen)
{
	struct attach_target t;
	int rc = attach_target_read(root, pid, &t, why, whylen);
	if (rc < 0)
		return rc;
	memset(on, 0, sizeof *on);
	on->pid = pid;
	on->output = -1;
	snprintf(on->root, sizeof on->root, "%s", root);
	snprintf(on->path, sizeof on->path, "/tmp/stwtop-gc-%d.log", t.nspid);
	snprintf(on->open_path, sizeof on->open_path, "%s/stwtop-gc-%d.log", t.tmp, t.nspid);
	return 0;
}

/* the first line of the JVM's text, for a message */
static void first_line(const char *text, char *out, size_t len)
{
	while (*text == '\n' || *text == ' ')
		text++;
	util_sanitize(out, len, text, strcspn(text, "\n"));
}

static int run(const struct vmlog_on *on, const char *cmd, char *out, size_t outlen, char *msg, size_t msglen)
{
	int status;
	char why[1600];
	int rc = attach_jcmd(on->root, on->pid, cmd, &status, out, outlen, why, sizeof why);
	if (rc < 0) {
		snprintf(msg, msglen, "%s", why);
		return rc;
	}
	if (status != 0) {
		char line[300];
		first_line(out, line, sizeof line);
		if (strstr(out, "Unknown diagnostic command"))
			snprintf(msg, msglen, "JVM %d has no VM.log (JDK 8: GC logging is set at start only, "
				 "-Xloggc:FILE -XX:+PrintGCDetails -XX:+PrintGCApplicationStoppedTime)", on->pid);
		else
			snprintf(msg, msglen, "JVM %d says (status %d): %s", on->pid, status, line);
		return -EPROTO;
	}
	return 0;
}

/* the output named file=path in VM.log list, or -1 */
static int find_output(const struct vmlog_output *o, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (o[i].file && strcmp(o[i].path, path) == 0)
			return o[i].num;
	return -1;
}

int vmlog_leftover(const char *root, int pid, struct vmlog_on *on, char *msg, size_t msglen)
{
	int rc = vmlog_plan(root, pid, on, msg, msglen);
	if (rc < 0)
		return rc;
	/* nothing is sent to the JVM for this: it holds the file of an output open
	 * while the output lasts, and its fds name it as the JVM sees it */
	char rel[64], dir[600];
	snprintf(rel, sizeof rel, "/proc/%d/fd", pid);
	procfile_join(dir, sizeof dir, root, rel);
	DIR *d = opendir(dir);
	if (!d) {
		rc = -errno;
		snprintf(msg, msglen, "%s: %s", dir, strerror(errno));
		return rc;
	}
	for (struct dirent *e; !rc && (e = readdir(d));) {
		char p[900], t[sizeof on->path];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		ssize_t n = readlink(p, t, sizeof t - 1);
		if (n <= 0)
			continue;
		t[n] = '\0';
		rc = strcmp(t, on->path) == 0;
	}
	closedir(d);
	if (rc)
		snprintf(msg, msglen, "JVM %d writes %s: stwtop's own output, added by an earlier stwtop that did not "
			 "remove it (it was killed)", pid, on->path);
	return rc;
}

int vmlog_enable(const char *root, int pid, struct vmlog_on *on, struct vmlog_output *existing, char *msg,
		 size_t msglen)
{
	static struct vmlog_output outs[VMLOG_MAX_OUTPUTS];
	char cmd[700], line[300];
	char *out = malloc(LIST_CAP);
	int rc = out ? vmlog_plan(root, pid, on, msg, msglen) : -ENOMEM;
	if (rc == 0)
		rc = run(on, "VM.log list", out, LIST_CAP, msg, msglen);
	if (rc < 0)
		goto done;
	int n = vmlog_parse_list(out, strlen(out), outs, VMLOG_MAX_OUTPUTS);
	for (int i = 0; i < n; i++) {
		if (!outs[i].file || !outs[i].gc)
			continue;
		if (strcmp(outs[i].path, on->path) == 0) {
			/* stwtop's own name: an earlier stwtop added it and was killed before it
			 * could remove it; taken over as if added now, removed at the end */
			on->active = true;
			on->output = outs[i].num;
			snprintf(msg, msglen, "JVM logging: took over the output an earlier stwtop added and did not "
				 "remove (VM.log output #%d, JVM %d writes " VMLOG_WHAT " to %s), followed as %s; turned off "
				 "when stwtop exits", on->output, pid, on->path, on->open_path);
			rc = 1;
			goto done;
		}
		*existing = outs[i];
		char rel[64], base[300];
		/* as stwtop opens it: through the JVM's root, relative to its cwd */
		snprintf(rel, sizeof rel, outs[i].path[0] == '/' ? "/proc/%d/root" : "/proc/%d/cwd/", pid);
		procfile_join(base, sizeof base, root, rel);
		snprintf(existing->path, sizeof existing->path, "%s%s", base, outs[i].path);
		snprintf(msg, msglen, "JVM %d already logs GC to %s (VM.log output #%d): nothing turned on", pid,
			 outs[i].path, outs[i].num);
		rc = 0;
		goto done;
	}
	vmlog_command(cmd, sizeof cmd, on->path, true);
	if ((rc = run(on, cmd, out, LIST_CAP, msg, msglen)) < 0)
		goto done;
	first_line(out, line, sizeof line);
	if (line[0]) {
		snprintf(msg, msglen, "JVM %d says: %s", pid, line);
		rc = -EIO;
		goto done;
	}
	on->active = true;
	if (run(on, "VM.log list", out, LIST_CAP, line, sizeof line) == 0)
		on->output = find_output(outs, vmlog_parse_list(out, strlen(out), outs, VMLOG_MAX_OUTPUTS), on->path);
	snprintf(msg, msglen, "JVM logging turned on: JVM %d writes " VMLOG_WHAT " to %s (VM.log output #%d, "
		 "5 files of 20 MB), followed as %s; turned off again when stwtop exits", pid, on->path, on->output,
		 on->open_path);
	rc = 1;
done:
	free(out);
	return rc;
}

int vmlog_disable(struct vmlog_on *on, char *msg, size_t msglen)
{
	static struct vmlog_output outs[VMLOG_MAX_OUTPUTS];
	char cmd[700];
	if (!on->active)
		return 0;
	char *out = malloc(LIST_CAP);
	if (!out) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	vmlog_command(cmd, sizeof cmd, on->path, false);
	int rc = run(on, cmd, out, LIST_CAP, msg, msglen);
	if (rc == 0 && (rc = run(on, "VM.log list", out, LIST_CAP, msg, msglen)) == 0) {
		int n = vmlog_parse_list(out, strlen(out), outs, VMLOG_MAX_OUTPUTS);
		if (find_output(outs, n, on->path) >= 0) {
			snprintf(msg, msglen, "JVM %d still lists its output to %s after VM.log ... what=all=off: remove "
				 "it with jcmd %d VM.log output=file=%s what=all=off", on->pid, on->path, on->pid, on->path);
			rc = -EIO;
		}
	}
	if (rc == 0) {
		snprintf(msg, msglen, "JVM logging turned off again (output #%d removed; %s and its rotations stay)",
			 on->output, on->path);
		on->active = false;
		rc = 1;
	} else if (kill(on->pid, 0) < 0 && errno == ESRCH) {
		snprintf(msg, msglen, "JVM %d has exited: its logging to %s ended with it", on->pid, on->path);
		on->active = false;
		rc = 0;
	}
	free(out);
	return rc;
}
