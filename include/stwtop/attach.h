/* SPDX-License-Identifier: GPL-2.0-or-later */
/* attach.h — run one diagnostic command (what `jcmd PID CMD` runs) in a
 * HotSpot JVM through its attach mechanism, from C, with no JDK tools: the
 * UNIX socket /tmp/.java_pid<nspid> in the JVM's mount namespace, started on
 * demand by a SIGQUIT after creating .attach_pid<nspid> (HotSpot attachListener_linux.cpp).
 *
 * SIGQUIT is only sent to a process that discovery says is a JVM, whose
 * counters say it finished starting and supports attach (hsperfdata
 * sun.rt.createVmEndTime, sun.rt.jvmCapabilities), and whose flags do not turn
 * the mechanism or its signal off (-XX:+DisableAttachMechanism,
 * -XX:+ReduceSignalUsage, -Xrs): to any other process SIGQUIT means a thread
 * dump on its stdout, or death. A JVM whose socket already exists is never
 * signalled. Used only with the user's consent (--enable-jvm-logging, `L`).
 *
 * Protocol (HotSpot attachListener_linux.cpp, JDK 6 to 25; JDK 8 too): the
 * client writes "1" (protocol version), the command name "jcmd" and three
 * arguments, each NUL-terminated; the JVM writes the status as a decimal line
 * ("0\n", "-1\n") then the command's output, and closes. The JVM accepts a peer
 * with its own euid and egid, or root (JDK 8: its own only), so root connects
 * with the JVM's egid/euid and switches back. */
#ifndef STWTOP_ATTACH_H
#define STWTOP_ATTACH_H

#include <stdbool.h>
#include <stddef.h>

#define ATTACH_START_MS 5000  /* how long the JVM may take to open its socket after SIGQUIT */
#define ATTACH_IO_MS   10000  /* how long a command may take to answer */

/* What /proc says about the process (root prefixes /proc, "" live). */
struct attach_target {
	int pid;
	int nspid;          /* the last NSpid of /proc/PID/status: the pid the JVM knows itself by */
	unsigned uid, gid;  /* effective */
	char tmp[1024];     /* the JVM's /tmp as we open it: <root>/proc/PID/root/tmp */
	char cwd[1024];     /* <root>/proc/PID/cwd */
};

int attach_target_read(const char *root, int pid, struct attach_target *t, char *why, size_t whylen);

/* The request for command (e.g. "jcmd") with one argument, the others empty:
 * "1\0jcmd\0ARG\0\0\0". Returns its length; 0 when it does not fit in cap or is
 * longer than HotSpot reads (a name over 16 bytes, an argument over 1024). */
size_t attach_request(char *buf, size_t cap, const char *command, const char *arg);

/* Split a reply: the status line and the text after it. false when there is no
 * complete status line (the JVM closed early). */
bool attach_parse_reply(const char *buf, size_t len, int *status, const char **text, size_t *textlen);

/* May pid be made to start its attach listener (a SIGQUIT)? 0, or -errno with
 * a one-line reason: not a JVM, -XX:+DisableAttachMechanism, -XX:+ReduceSignalUsage
 * or -Xrs, still starting, counters unreadable. *java_feature gets 8, 11, 17... (0 unknown). */
int attach_check(const char *root, int pid, int *java_feature, char *why, size_t whylen);

/* Run `jcmd PID command` in the JVM: out gets the JVM's text (NUL-terminated,
 * cut at outlen - 1), *status the JVM's status (0 ok). Returns 0 when the JVM
 * answered (whatever its status), else -errno with a one-line reason in why
 * (permission, refused, timeout, not a JVM). Blocks up to ATTACH_START_MS +
 * ATTACH_IO_MS. */
int attach_jcmd(const char *root, int pid, const char *command, int *status, char *out, size_t outlen,
		char *why, size_t whylen);

#endif
