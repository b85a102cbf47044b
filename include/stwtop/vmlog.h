/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmlog.h — turn a running JVM's GC + safepoint logging on and off again with
 * its VM.log command (attach.h), with the user's consent (--enable-jvm-logging,
 * the `L` key): one file output is added, rotating like -Xlog's default
 * (filecount=5, filesize=20m), and at the end exactly that output is removed:
 * `VM.log output=file=PATH what=all=off` drops one output (seen on JDK 17:
 * `VM.log list` no longer shows it); `VM.log disable` would turn off every output
 * the JVM had, so it is never used. The file stays where it is. */
#ifndef STWTOP_VMLOG_H
#define STWTOP_VMLOG_H

#include <stdbool.h>
#include <stddef.h>

#define VMLOG_WHAT "gc*,safepoint"
#define VMLOG_MAX_OUTPUTS 16

/* One output of `VM.log list` ("#2: file=/tmp/x.log all=off,gc*=info ..."). */
struct vmlog_output {
	int num;            /* its number, -1 unknown */
	char name[1024];    /* "stdout", "stderr", "file=/tmp/x.log" */
	bool file;
	char path[1024];    /* the file as the JVM names it (file outputs) */
	bool gc;            /* receives [gc] at info or finer */
};

/* The outputs in the text of `VM.log list`. Returns how many (at most max). */
int vmlog_parse_list(const char *text, size_t len, struct vmlog_output *out, int max);

/* The VM.log command that adds (on) or removes (off) the output to path. */
void vmlog_command(char *buf, size_t len, const char *path, bool on);

/* What stwtop turned on in one JVM. */
struct vmlog_on {
	bool active;        /* an output was added and not yet removed */
	int pid;
	char root[256];
	char path[512];     /* as the JVM sees it: /tmp/stwtop-gc-<nspid>.log */
	char open_path[1100]; /* as stwtop opens it: /proc/PID/root/tmp/... */
	int output;         /* its number in VM.log list, -1 unknown */
};

/* Where the output of pid would go (path, open_path). 0 or -errno (why). */
int vmlog_plan(const char *root, int pid, struct vmlog_on *on, char *why, size_t whylen);

/* An output to stwtop's own file name for this JVM (vmlog_plan's path), left by
 * an earlier stwtop that did not end cleanly (SIGKILL), so nobody removes it:
 * found without asking the JVM anything (no attach, nothing sent before the
 * user says so), by the file among the JVM's open descriptors. 1: found (on set
 * as vmlog_plan sets it, its output number unknown, not active; msg says so),
 * 0: none, -errno (msg: why). To take it over,
 * set on->active (vmlog_disable then removes it); to remove it now, the same and
 * vmlog_disable. */
int vmlog_leftover(const char *root, int pid, struct vmlog_on *on, char *msg, size_t msglen);

/* Turn it on. 1: added (on->active; msg "JVM logging turned on: ..."), or an
 * output an earlier stwtop added and left (vmlog_leftover) taken over as if
 * added now; 0: the JVM already logs GC to a file (*existing set: the output, its open path in
 * existing->path made openable by stwtop; nothing was changed); -errno with msg
 * the one-line reason. */
int vmlog_enable(const char *root, int pid, struct vmlog_on *on, struct vmlog_output *existing, char *msg,
		 size_t msglen);

/* Remove the output vmlog_enable added (nothing when none is active). 1 removed,
 * 0 nothing to do, -errno (msg says why). */
int vmlog_disable(struct vmlog_on *on, char *msg, size_t msglen);

#endif
