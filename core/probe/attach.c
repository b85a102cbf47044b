/* SPDX-License-Identifier: GPL-2.0-or-later */
/* attach.c — the HotSpot attach protocol from C (attach.h): what jcmd's
 * VirtualMachineImpl (Linux) and Debian's jattach do, learnt from HotSpot's
 * attachListener_linux.cpp / attachListener.cpp (request: version "1", a name
 * of at most 16 bytes, three arguments of at most 1024, each NUL-terminated;
 * reply: the status in decimal, '\n', the output; the peer's SO_PEERCRED must be
 * the JVM's euid/egid or root) and AttachListener::is_init_trigger (the JVM,
 * on SIGQUIT, looks for .attach_pid<pid> in its working directory, then in
 * /tmp, owned by its euid or root; else it prints a thread dump). */
#include "stwtop/attach.h"

#include "stwtop/discover.h"
#include "stwtop/hsperf.h"
#include "stwtop/procfile.h"
#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define NAME_MAX_LEN 16    /* AttachOperation::name_length_max */
#define ARG_MAX_LEN 1024   /* AttachOperation::arg_length_max */

int attach_target_read(const char *root, int pid, struct attach_target *t, char *why, size_t whylen)
{
	char rel[96], p[1024], b[4096];
	struct stat st;
	int64_t nspid = pid, uid = -1, gid = -1;
	memset(t, 0, sizeof *t);
	t->pid = pid;
	ssize_t n = procfile_read_status(root, pid, b, sizeof b, p, sizeof p, why, whylen);
	if (n < 0)
		return (int)n;
	procfile_status_num(b, (size_t)n, "\nNSpid:", -1, &nspid);
	if (!procfile_status_num(b, (size_t)n, "\nUid:", 1, &uid) || !procfile_status_num(b, (size_t)n, "\nGid:", 1, &gid)) {
		snprintf(why, whylen, "%s: no Uid/Gid line", p);
		return -EINVAL;
	}
	t->nspid = (int)nspid;
	t->uid = (unsigned)uid;
	t->gid = (unsigned)gid;
	/* HotSpot's temp directory is always /tmp (os::get_temp_directory), in its
	 * own mount namespace: a private /tmp is reached through /proc/PID/root */
	snprintf(rel, sizeof rel, "/proc/%d/root/tmp", pid);
	procfile_join(t->tmp, sizeof t->tmp, root, rel);
	if (stat(t->tmp, &st) < 0)
		procfile_join(t->tmp, sizeof t->tmp, root, "/tmp");
	snprintf(rel, sizeof rel, "/proc/%d/cwd", pid);
	procfile_join(t->cwd, sizeof t->cwd, root, rel);
	return 0;
}

size_t attach_request(char *buf, size_t cap, const char *command, const char *arg)
{
	size_t nc = strlen(command), na = strlen(arg);
	size_t len = 2 + nc + 1 + na + 1 + 2;
	if (nc > NAME_MAX_LEN || na > ARG_MAX_LEN || len > cap)
		return 0;
	size_t o = 0;
	memcpy(buf + o, "1", 2);           /* protocol version 1, NUL included */
	o += 2;
	memcpy(buf + o, command, nc + 1);
	o += nc + 1;
	memcpy(buf + o, arg, na + 1);
	o += na + 1;
	buf[o++] = '\0';                   /* arguments 2 and 3: empty */
	buf[o++] = '\0';
	return o;
}

bool attach_parse_reply(const char *buf, size_t len, int *status, const char **text, size_t *textlen)
{
	const char *nl = memchr(buf, '\n', len);
	int64_t v;
	if (!nl || nl == buf || util_parse_i64(buf, (size_t)(nl - buf), &v) != (size_t)(nl - buf) ||
	    v < INT32_MIN || v > INT32_MAX)
		return false;
	*status = (int)v;
	*text = nl + 1;
	*textlen = len - (size_t)(nl + 1 - buf);
	return true;
}

/* the last of the options that set a boolean -XX flag: 1 on, 0 off, -1 unset */
static int flag_value(const struct jvm_proc *j, const char *name)
{
	int v = -1;
	size_t n = strlen(name);
	for (int i = 0; i < j->nopts; i++) {
		const char *a = j->opts[i].arg;
		if (strncmp(a, "-XX:", 4) == 0 && (a[4] == '+' || a[4] == '-') && strncmp(a + 5, name, n) == 0 &&
		    a[5 + n] == '\0')
			v = a[4] == '+';
	}
	return v;
}

static bool has_opt(const struct jvm_proc *j, const char *opt)
{
	for (int i = 0; i < j->nopts; i++)
		if (strcmp(j->opts[i].arg, opt) == 0)
			return true;
	return false;
}

/* what its counters say: started, and attach supported */
static int check_counters(const char *root, int pid, char *why, size_t whylen)
{
	char path[1024], hwhy[1300], caps[80];
	struct hsperf h;
	int64_t end = 0;
	int rc = hsperf_find_file(root, pid, path, sizeof path, hwhy, sizeof hwhy);
	if (rc == 0)
		rc = hsperf_open(&h, path);
	else
		memset(&h, 0, sizeof h);
	if (rc < 0) {
		snprintf(why, whylen, "cannot tell whether JVM %d accepts attach, so no SIGQUIT was sent: "
			 "its counters are unreadable (%s)", pid, hwhy[0] ? hwhy : h.why);
		return -EOPNOTSUPP;
	}
	bool have_caps = hsperf_string(&h, "sun.rt.jvmCapabilities", caps, sizeof caps);
	bool started = hsperf_long(&h, "sun.rt.createVmEndTime", &end) && end > 0;
	hsperf_close(&h);
	if (!have_caps) {
		snprintf(why, whylen, "JVM %d does not say whether it supports attach (no sun.rt.jvmCapabilities "
			 "in %s): no SIGQUIT was sent", pid, path);
		return -EOPNOTSUPP;
	}
	if (caps[0] != '1') {
		snprintf(why, whylen, "JVM %d does not support attach (sun.rt.jvmCapabilities \"%.8s...\", "
			 "-XX:+DisableAttachMechanism set where stwtop cannot see it?): no SIGQUIT was sent", pid, caps);
		return -EOPNOTSUPP;
	}
	if (!started) {
		snprintf(why, whylen, "JVM %d is still starting (sun.rt.createVmEndTime is 0): a SIGQUIT now could "
			 "kill it; try again in a moment", pid);
		return -EAGAIN;
	}
	return 0;
}

int attach_check(const char *root, int pid, int *java_feature, char *why, size_t whylen)
{
	struct jvm_proc j;
	char err[300];
	*java_feature = 0;
	int rc = discover_inspect(root, pid, &j, err, sizeof err);
	if (rc < 0) {
		snprintf(why, whylen, "%s", err);
		return rc;
	}
	if (!j.is_jvm) {
		snprintf(why, whylen, "process %d is not a JVM: no SIGQUIT was sent (%s)", pid,
			 j.not_jvm[0] ? j.not_jvm : "no java executable, no libjvm.so mapped");
		discover_fini(&j);
		return -ENOTSUP;
	}
	*java_feature = j.java_feature;
	rc = 0;
	if (flag_value(&j, "DisableAttachMechanism") == 1) {
		snprintf(why, whylen, "JVM %d runs with -XX:+DisableAttachMechanism: it accepts no attach "
			 "(jcmd cannot reach it either); no SIGQUIT was sent", pid);
		rc = -EOPNOTSUPP;
	} else if (flag_value(&j, "ReduceSignalUsage") == 1 || has_opt(&j, "-Xrs")) {
		snprintf(why, whylen, "JVM %d runs with %s: it does not handle SIGQUIT, which would kill it; "
			 "no SIGQUIT was sent", pid, has_opt(&j, "-Xrs") ? "-Xrs" : "-XX:+ReduceSignalUsage");
		rc = -EOPNOTSUPP;
	}
	discover_fini(&j);
	return rc < 0 ? rc : check_counters(root, pid, why, whylen);
}

/* --- the connection --- */

struct creds {
	bool switched;
	uid_t uid;
	gid_t gid;
};

/* as root, act as the JVM's user: the JVM checks the peer (JDK 8: its own
 * euid/egid only) and the owner of the trigger file */
static int creds_enter(const struct attach_target *t, struct creds *c)
{
	c->switched = false;
	c->uid = geteuid();
	c->gid = getegid();
	if (c->uid != 0 || (t->uid == 0 && t->gid == 0))
		return 0;
	if (setegid((gid_t)t->gid) < 0)
		return -errno;
	if (seteuid((uid_t)t->uid) < 0) {
		int e = errno;
		if (setegid(c->gid) < 0) { /* nothing more can be done */ }
		return -e;
	}
	c->switched = true;
	return 0;
}

static void creds_leave(struct creds *c)
{
	if (!c->switched)
		return;
	/* the order matters: back to euid 0 first, which may then set the gid */
	if (seteuid(c->uid) < 0 || setegid(c->gid) < 0) { /* cannot fail as we switched from root */ }
	c->switched = false;
}

static bool socket_ready(const struct attach_target *t, char *path, size_t len)
{
	struct stat st;
	snprintf(path, len, "%s/.java_pid%d", t->tmp, t->nspid);
	/* the JVM's own socket, not one planted by another user */
	return lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) && (st.st_uid == t->uid || st.st_uid == 0);
}

/* .attach_pid<nspid> in the JVM's cwd, else its /tmp. 1 created (path set,
 * to be removed), 0 one was there already, -errno. */
static int make_trigger(const struct attach_target *t, char *path, size_t len)
{
	const char *dirs[2] = {t->cwd, t->tmp};
	int rc = -ENOENT;
	for (int i = 0; i < 2; i++) {
		snprintf(path, len, "%s/.attach_pid%d", dirs[i], t->nspid);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			close(fd);
			return 1;
		}
		if (errno == EEXIST)
			return 0;
		rc = -errno;
	}
	path[0] = '\0';
	return rc;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Start the listener: trigger file, SIGQUIT, wait for the socket. */
static int start_listener(const struct attach_target *t, char *sock, size_t socklen, char *why, size_t whylen)
{
	char trig[1100];
	struct creds c;
	int rc = creds_enter(t, &c);
	int made = rc < 0 ? rc : make_trigger(t, trig, sizeof trig);
	creds_leave(&c);
	if (made < 0) {
		snprintf(why, whylen, "cannot create .attach_pid%d in %s or %s: %s; no SIGQUIT was sent", t->nspid,
			 t->cwd, t->tmp, strerror(-made));
		return made;
	}
	if (kill(t->pid, SIGQUIT) < 0) {
		rc = -errno;
		snprintf(why, whylen, "cannot signal JVM %d: %s%s", t->pid, strerror(errno),
			 errno == EPERM ? " (run stwtop as the JVM's user or root)" : "");
	} else {
		rc = -ETIMEDOUT;
		int64_t deadline = util_mono_ms() + ATTACH_START_MS;
		for (int wait = 20; util_mono_ms() < deadline; wait = wait < 200 ? wait * 2 : 200) {
			if (socket_ready(t, sock, socklen)) {
				rc = 0;
				break;
			}
			if (kill(t->pid, 0) < 0 && errno == ESRCH) {
				rc = -ESRCH;
				break;
			}
			sleep_ms(wait);
		}
		if (rc == -ETIMEDOUT)
			snprintf(why, whylen, "JVM %d did not open its attach socket %s within %d s of SIGQUIT",
				 t->pid, sock, ATTACH_START_MS / 1000);
		else if (rc == -ESRCH)
			snprintf(why, whylen, "JVM %d exited while its attach listener was starting", t->pid);
	}
	if (made == 1)
		unlink(trig);
	return rc;
}

static int open_socket(const struct attach_target *t, const char *sock, char *why, size_t whylen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(sock) >= sizeof sa.sun_path) {
		snprintf(why, whylen, "the attach socket path %s is too long for a UNIX socket", sock);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(why, whylen, "socket: %s", strerror(errno));
		return -errno;
	}
	struct timeval tv = {ATTACH_IO_MS / 1000, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	struct creds c;
	int rc = creds_enter(t, &c);
	if (rc == 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
		rc = -errno;
	creds_leave(&c);
	if (rc < 0) {
		snprintf(why, whylen, "cannot connect to JVM %d's attach socket %s: %s%s", t->pid, sock,
			 strerror(-rc), rc == -EACCES ? " (run stwtop as the JVM's user or root)" :
			 rc == -ECONNREFUSED ? " (a socket left by a JVM that is gone?)" : "");
		close(fd);
		return rc;
	}
	return fd;
}

/* send the request, read the whole reply */
static int exchange(int fd, const char *req, size_t reqlen, char *buf, size_t cap, size_t *got)
{
	for (size_t o = 0; o < reqlen;) {
		ssize_t w = send(fd, req + o, reqlen - o, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		o += (size_t)w;
	}
	*got = 0;
	for (;;) {
		char sink[4096];
		bool full = *got + 1 >= cap;
		ssize_t r = full ? read(fd, sink, sizeof sink) : read(fd, buf + *got, cap - 1 - *got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		if (r == 0)
			break;
		if (!full)
			*got += (size_t)r;
	}
	buf[*got] = '\0';
	return 0;
}

int attach_jcmd(const char *root, int pid, const char *command, int *status, char *out, size_t outlen,
		char *why, size_t whylen)
{
	struct attach_target t;
	char sock[1100], req[ARG_MAX_LEN + 64];
	int feature;
	out[0] = '\0';
	*status = -1;
	size_t reqlen = attach_request(req, sizeof req, "jcmd", command);
	if (!reqlen) {
		snprintf(why, whylen, "the command is longer than the JVM reads (%d bytes)", ARG_MAX_LEN);
		return -E2BIG;
	}
	int rc = attach_target_read(root, pid, &t, why, whylen);
	if (rc < 0)
		return rc;
	if (geteuid() != 0 && geteuid() != t.uid) {
		snprintf(why, whylen, "JVM %d runs as uid %u, stwtop as uid %u: the JVM only accepts its own user "
			 "or root", pid, t.uid, (unsigned)geteuid());
		return -EPERM;
	}
	if (!socket_ready(&t, sock, sizeof sock)) {
		/* the listener is not running: it takes a SIGQUIT, only safe when checked */
		if ((rc = attach_check(root, pid, &feature, why, whylen)) < 0 ||
		    (rc = start_listener(&t, sock, sizeof sock, why, whylen)) < 0)
			return rc;
	}
	int fd = open_socket(&t, sock, why, whylen);
	if (fd < 0)
		return fd;
	size_t got = 0;
	rc = exchange(fd, req, reqlen, out, outlen, &got);
	close(fd);
	const char *text;
	size_t tlen;
	if (rc < 0) {
		snprintf(why, whylen, "JVM %d's attach socket: %s", pid,
			 rc == -ETIMEDOUT ? "no answer within the timeout" : strerror(-rc));
		return rc;
	}
	if (!attach_parse_reply(out, got, status, &text, &tlen)) {
		snprintf(why, whylen, "JVM %d closed the attach connection without an answer (it accepts only "
			 "uid/gid %u/%u or root)", pid, t.uid, t.gid);
		out[0] = '\0';
		return -ECONNRESET;
	}
	memmove(out, text, tlen + 1);
	return 0;
}
