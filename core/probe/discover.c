/* SPDX-License-Identifier: GPL-2.0-or-later */
/* discover.c — find the JVM and what it writes (include/stwtop/discover.h).
 *
 * Sources: proc(5) (/proc/PID/cmdline, environ, stat field 22 starttime, status
 * Uid and NSpid, exe, cwd, maps, ns/mnt, ns/uts; /proc/uptime); setns(2);
 * HotSpot's unified logging syntax (`java -Xlog:help`, JEP 158: -Xlog[:[what][:[output][:[decorators][:output-options]]]],
 * selections tag[+tag...][*][=level], later selections override earlier ones,
 * outputs stdout/stderr/file=PATH or a bare PATH, file options filecount=5,
 * filesize=20M by default, the first %p, %t and (JDK 23+) %hn in file names
 * replaced, logFileOutput.cpp; %t = the VM start time as YYYY-MM-DD_HH-MM-SS
 * in its local time); JDK 8's -Xloggc (%p as pid<N>, %t, ostream.cpp; with
 * -XX:+UseGCLogFileRotation the active file is PATH.N.current); -XX:ErrorFile
 * (%p and %%, Arguments::copy_expand_pid; default hs_err_pid<pid>.log in the
 * working directory, then /tmp); the
 * java launcher's @argfiles and JDK_JAVA_OPTIONS (JDK 9+), JAVA_TOOL_OPTIONS
 * (read by the VM first) and _JAVA_OPTIONS (last). */
#include "stwtop/discover.h"

#include "stwtop/event.h"
#include "stwtop/procfile.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers --- */

static int proc_path(char *dst, size_t len, const char *root, int pid, const char *name)
{
	char rel[96];
	snprintf(rel, sizeof rel, "/proc/%d/%s", pid, name);
	return procfile_join(dst, len, root, rel);
}

static const char *base_name(const char *s, size_t n, size_t *bl)
{
	const char *b = s;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/')
			b = s + i + 1;
	*bl = n - (size_t)(b - s);
	return b;
}

static bool is_java_name(const char *s, size_t n)
{
	size_t bl;
	const char *b = base_name(s, n, &bl);
	return bl == 4 && memcmp(b, "java", 4) == 0;
}

/* JDK tools are JVMs too (libjvm.so mapped), and an on-call engineer runs
 * them beside the service: jcmd, jstat, jps, javac, jshell, jfr ... Their
 * launcher is the JDK's bin/<tool>, never bin/java; jshell runs its snippets
 * in a java process whose main class is RemoteExecutionControl. None is the
 * service to watch, so discovery passes them over. */
#define DISCOVER_JDK_TOOL 2 /* check_java(): a JDK tool, not a service */

static bool is_jdk_tool(const char *exe, size_t exe_n, const char *cmdline, size_t cmd_n)
{
	static const char *const tools[] = {
		"jcmd", "jstat", "jps", "jinfo", "jmap", "jstack", "jhsdb", "jstatd", "javac", "javap",
		"javadoc", "jshell", "jfr", "jconsole", "jdb", "jar", "jarsigner", "jlink", "jdeps",
		"jdeprscan", "jimage", "jmod", "jpackage", "jrunscript", "jwebserver", "keytool",
		"rmiregistry", "serialver", "jjs", "jvisualvm", "jmc", "jaotc", "javah",
	};
	size_t bl;
	const char *b = base_name(exe, exe_n, &bl);
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
		if (bl == strlen(tools[i]) && memcmp(b, tools[i], bl) == 0)
			return true;
	static const char remote[] = "jdk.jshell.execution.RemoteExecutionControl";
	for (size_t i = 0; i < cmd_n; i += strnlen(cmdline + i, cmd_n - i) + 1)
		if (strncmp(cmdline + i, remote, cmd_n - i) == 0)
			return true;
	return false;
}

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* "64m" "1g" "1024K" "1073741824" -> bytes; false if not a size */
static bool parse_size(const char *s, int64_t *out)
{
	uint64_t v;
	size_t n = strlen(s), k = util_parse_u64(s, n, &v);
	uint64_t mul = 1;
	if (k == 0)
		return false;
	if (k < n) {
		switch (s[k]) {
		case 'k': case 'K': mul = 1ULL << 10; break;
		case 'm': case 'M': mul = 1ULL << 20; break;
		case 'g': case 'G': mul = 1ULL << 30; break;
		case 't': case 'T': mul = 1ULL << 40; break;
		default: return false;
		}
		if (k + 1 != n)
			return false;
	}
	if (v > (uint64_t)INT64_MAX / mul)
		return false;
	*out = (int64_t)(v * mul);
	return true;
}

static bool parse_i64_full(const char *s, int64_t *out)
{
	size_t n = strlen(s);
	return n > 0 && util_parse_i64(s, n, out) == n;
}

/* ------------------------------------------------------------ start time --- */

static int read_starttime(const char *root, int pid, uint64_t *ticks, char *state)
{
	char path[DISCOVER_PATH];
	struct procfile_stat st;
	proc_path(path, sizeof path, root, pid, "stat");
	int r = procfile_read_stat(path, &st);
	if (r < 0)
		return r;
	*ticks = st.starttime;
	if (state)
		*state = st.state;
	return 0;
}

int discover_start_ms(const char *root, int pid, int64_t now_ms, int64_t *start_ms)
{
	char path[DISCOVER_PATH], b[128];
	uint64_t ticks;
	double up;
	int r = read_starttime(root, pid, &ticks, NULL);
	if (r < 0)
		return r;
	procfile_join(path, sizeof path, root, "/proc/uptime");
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n < 0)
		return (int)n;
	if (util_parse_double(b, (size_t)n, false, &up) == 0)
		return -EINVAL;
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0)
		hz = 100;
	int64_t boot = now_ms - (int64_t)(up * 1000.0 + 0.5);
	*start_ms = boot + (int64_t)(ticks * 1000 / (uint64_t)hz);
	return 0;
}

/* ------------------------------------------------------------ java pids --- */

/* does maps (read in bounded chunks) map libjvm.so? */
static bool maps_have_libjvm(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char b[8192 + 16];
	size_t keep = 0, total = 0;
	bool found = false;
	if (fd < 0)
		return false;
	while (!found && total < (4u << 20)) {
		ssize_t k = read(fd, b + keep, sizeof b - 1 - keep);
		if (k <= 0)
			break;
		size_t n = keep + (size_t)k;
		total += (size_t)k;
		found = util_memmem(b, n, "/libjvm.so") != NULL;
		/* keep the tail so a name split between two reads is still found */
		keep = n < 10 ? n : 10;
		memmove(b, b + n - keep, keep);
	}
	close(fd);
	return found;
}

/* 1 java, 0 not, -errno when the process vanished */
static int check_java(const char *root, int pid)
{
	char path[DISCOVER_PATH], b[4096], target[DISCOVER_PATH];
	proc_path(path, sizeof path, root, pid, "cmdline");
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n < 0 && n != -EFBIG)
		return (int)n;
	size_t len = n == -EFBIG ? sizeof b - 1 : (size_t)n;
	if (len == 0)
		return 0; /* kernel thread or zombie */
	size_t a0 = strnlen(b, len);
	proc_path(path, sizeof path, root, pid, "exe");
	ssize_t t = readlink(path, target, sizeof target - 1);
	target[t > 0 ? t : 0] = '\0';
	char *del = strstr(target, " (deleted)");
	if (del)
		*del = '\0';
	if (is_jdk_tool(target, strlen(target), b, len) || is_jdk_tool(b, a0, b, len))
		return DISCOVER_JDK_TOOL;
	if (is_java_name(b, a0) || is_java_name(target, strlen(target)))
		return 1;
	/* an embedded JVM (jpackage launcher, custom binary): libjvm.so is mapped */
	proc_path(path, sizeof path, root, pid, "maps");
	return maps_have_libjvm(path) ? 1 : 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int discover_java_pids(const char *root, int *pids, int max)
{
	char path[DISCOVER_PATH];
	DIR *d;
	struct dirent *de;
	int n = 0, found = 0;
	procfile_join(path, sizeof path, root, "/proc");
	d = opendir(path);
	if (!d)
		return -errno;
	int self = (root && root[0]) ? -1 : (int)getpid();
	while ((de = readdir(d)) != NULL) {
		uint64_t v;
		size_t l = strlen(de->d_name);
		if (l == 0 || util_parse_u64(de->d_name, l, &v) != l || v > INT_MAX || (int)v == self)
			continue;
		if (check_java(root, (int)v) == 1) {
			if (n < max)
				pids[n++] = (int)v;
			found++;
		}
	}
	closedir(d);
	qsort(pids, (size_t)n, sizeof *pids, cmp_int);
	return found;
}

/* ------------------------------------------------------------- pick --- */

static unsigned read_uid(const char *root, int pid)
{
	char path[DISCOVER_PATH], b[4096];
	int64_t uid = -1;
	proc_path(path, sizeof path, root, pid, "status");
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n == -EFBIG)
		n = (ssize_t)strlen(b);
	if (n > 0) {
		const char *p = util_memmem(b, (size_t)n, "\nUid:");
		if (p) {
			p += 5;
			while (p < b + n && (*p == '\t' || *p == ' '))
				p++;
			util_parse_i64(p, (size_t)(b + n - p), &uid);
		}
	}
	return uid < 0 ? (unsigned)-1 : (unsigned)uid;
}

bool discover_passwd_name(const char *passwd, unsigned uid, char *out, size_t len)
{
	char *text = NULL;
	size_t tl = 0;
	bool found = false;
	if (procfile_read_alloc(AT_FDCWD, passwd, 8u << 20, &text, &tl) < 0)
		return false;
	for (size_t i = 0; i < tl;) {
		const char *line = text + i;
		const char *nl = memchr(line, '\n', tl - i);
		size_t ll = nl ? (size_t)(nl - line) : tl - i;
		const char *c1 = memchr(line, ':', ll);
		const char *c2 = c1 ? memchr(c1 + 1, ':', ll - (size_t)(c1 + 1 - line)) : NULL;
		uint64_t u;
		if (c2 && util_parse_u64(c2 + 1, ll - (size_t)(c2 + 1 - line), &u) && u == uid) {
			char name[64];
			util_strlcpy_n(name, sizeof name, line, (size_t)(c1 - line));
			util_sanitize(out, len, name, strlen(name));
			found = true;
			break;
		}
		i += ll + 1;
	}
	free(text);
	return found;
}

/* name of uid from <root>/etc/passwd (no NSS: works on fixtures and in pods) */
static void user_name(const char *root, unsigned uid, char *out, size_t len)
{
	char path[DISCOVER_PATH];
	if (uid == (unsigned)-1) {
		snprintf(out, len, "?");
		return;
	}
	snprintf(out, len, "%u", uid);
	procfile_join(path, sizeof path, root, "/etc/passwd");
	discover_passwd_name(path, uid, out, len);
}

/* "process 1 (init) is not a JVM (executable /sbin/init, no libjvm.so mapped): ..." */
static void not_jvm_message(const char *root, int pid, char *out, size_t len)
{
	char path[DISCOVER_PATH], exe[DISCOVER_PATH] = "", comm[64] = "", safe_exe[300], safe_comm[80];
	proc_path(path, sizeof path, root, pid, "exe");
	ssize_t t = readlink(path, exe, sizeof exe - 1);
	exe[t > 0 ? t : 0] = '\0';
	proc_path(path, sizeof path, root, pid, "comm");
	ssize_t n = procfile_read(AT_FDCWD, path, comm, sizeof comm);
	if (n < 0 && n != -EFBIG)
		comm[0] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	util_sanitize(safe_exe, sizeof safe_exe, exe, strlen(exe));
	util_sanitize(safe_comm, sizeof safe_comm, comm, strlen(comm));
	int pids[8];
	int k = discover_java_pids(root, pids, (int)ARRAY_LEN(pids));
	char others[120] = "";
	size_t o = 0;
	for (int i = 0; i < k && i < (int)ARRAY_LEN(pids) && o < sizeof others; i++) {
		int w = snprintf(others + o, sizeof others - o, "%s%d", i ? ", " : "", pids[i]);
		o += w > 0 ? (size_t)w : 0;
	}
	char hint[40] = "";
	if (k == 1)
		snprintf(hint, sizeof hint, " (stwtop --pid %d)", pids[0]);
	else if (k > 1)
		snprintf(hint, sizeof hint, " (stwtop --pid PID)");
	snprintf(out, len, "process %d%s%s%s is not a JVM (%s%s, no libjvm.so mapped): its threads and cgroup are "
		 "polled, but it has no GC log, crash report or jcmd to advise on; %s%s%s", pid,
		 safe_comm[0] ? " (" : "", safe_comm, safe_comm[0] ? ")" : "",
		 safe_exe[0] ? "executable " : "executable unreadable", safe_exe,
		 k > 0 ? "Java processes here: " : "no Java process runs here", others, hint);
}

/* A chroot, a minimal container or a static binary's pod may have no /proc:
 * say that, not that the process does not exist. */
static bool proc_missing(const char *root, char *msg, size_t msglen)
{
	char path[DISCOVER_PATH];
	struct stat st;
	/* a root given (tests, a container's root): its proc directory */
	procfile_join(path, sizeof path, root, root && root[0] ? "/proc" : "/proc/self/stat");
	if (stat(path, &st) == 0)
		return false;
	procfile_join(path, sizeof path, root, "/proc");
	snprintf(msg, msglen, "%s is not mounted here: finding the JVM (--pid, or no arguments) needs it; "
		 "mount proc (mount -t proc proc /proc), or give the logs (--gc FILE, --nginx FILE ...)", path);
	return true;
}

int discover_pick(const char *root, int want_pid, int *pid, char *msg, size_t msglen)
{
	int pids[64];
	size_t o = 0;
	if (msglen)
		msg[0] = '\0';
	if (proc_missing(root, msg, msglen))
		return -ENOENT;
	if (want_pid > 0) {
		char path[DISCOVER_PATH];
		proc_path(path, sizeof path, root, want_pid, "stat");
		if (!file_exists(path)) {
			snprintf(msg, msglen, "no process %d (%s does not exist)", want_pid, path);
			return -ESRCH;
		}
		*pid = want_pid;
		int k = check_java(root, want_pid);
		if (k == DISCOVER_JDK_TOOL)
			snprintf(msg, msglen, "process %d is a JDK tool (jcmd, jstat, javac, jshell ...), not a service: "
				 "its threads and cgroup are polled, but it has no GC log to follow", want_pid);
		else if (k != 1)
			not_jvm_message(root, want_pid, msg, msglen);
		return 0;
	}
	int n = discover_java_pids(root, pids, (int)ARRAY_LEN(pids));
	if (n < 0) {
		snprintf(msg, msglen, "cannot list processes: %s", strerror(-n));
		return n;
	}
	if (n == 1) {
		*pid = pids[0];
		return 0;
	}
	if (n == 0) {
		snprintf(msg, msglen, "no Java process found (none named java, none with libjvm.so mapped): "
			 "give --pid PID, or the log files (--gc FILE ...)");
		return -ESRCH;
	}
	for (int i = 0; i < n && i < (int)ARRAY_LEN(pids); i++)
		if (pids[i] == 1) {
			*pid = 1; /* a container: its main process is the JVM we are here for */
			return 0;
		}
	struct discover_candidate cand[ARRAY_LEN(pids)];
	int nc = discover_candidates(root, cand, (int)ARRAY_LEN(cand));
	if (nc < 0) {
		snprintf(msg, msglen, "cannot list processes: %s", strerror(-nc));
		return nc;
	}
	int k = snprintf(msg, msglen, "%d Java processes are running; choose one with --pid PID:\n  %-7s %-10s %-7s %s\n",
			 nc, "PID", "USER", "UPTIME", "MAIN");
	o = k < 0 ? 0 : (size_t)k;
	int64_t now = util_now_ms();
	for (int i = 0; i < nc && o < msglen; i++) {
		char up[32];
		discover_fmt_uptime(cand[i].start_ms, now, up, sizeof up);
		k = snprintf(msg + o, msglen - o, "  %-7d %-10s %-7s %s\n", cand[i].pid, cand[i].user, up, cand[i].main);
		o += k < 0 ? 0 : (size_t)k;
	}
	if (o >= msglen && msglen > 4)
		memcpy(msg + msglen - 4, "...", 4);
	return -EEXIST;
}

/* ---------------------------------------------------------- arguments --- */

static int opts_push(struct jvm_proc *j, const char *s, size_t n, int origin)
{
	if ((j->nopts & 63) == 0) {
		struct jvm_opt *o = realloc(j->opts, (size_t)(j->nopts + 64) * sizeof *o);
		if (!o)
			return -ENOMEM;
		j->opts = o;
	}
	char *a = malloc(n + 1);
	if (!a)
		return -ENOMEM;
	memcpy(a, s, n);
	a[n] = '\0';
	j->opts[j->nopts].arg = a;
	j->opts[j->nopts].origin = origin;
	j->nopts++;
	return 0;
}

/* Split an option string the way the VM splits JAVA_TOOL_OPTIONS (whitespace;
 * '...' and "..." group and are removed) and push each word. In an @argfile
 * (comments true) a '#' outside quotes starts a comment up to the end of line. */
static int push_words(struct jvm_proc *j, const char *s, size_t n, int origin, bool comments)
{
	char word[4096];
	size_t i = 0;
	while (i < n) {
		size_t w = 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
			i++;
		if (i < n && comments && s[i] == '#') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (i >= n)
			break;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') {
			if (s[i] == '"' || s[i] == '\'') {
				char q = s[i++];
				while (i < n && s[i] != q) {
					if (w + 1 < sizeof word)
						word[w++] = s[i];
					i++;
				}
				if (i < n)
					i++;
			} else {
				if (w + 1 < sizeof word)
					word[w++] = s[i];
				i++;
			}
		}
		int r = opts_push(j, word, w, origin);
		if (r < 0)
			return r;
	}
	return 0;
}

/* the JVM's view of a path -> how we open it */
static void open_path_of(const char *root, const struct jvm_proc *j, const char *path, char *out, size_t len)
{
	char via[DISCOVER_PATH + 64];
	if (j->other_mntns)
		snprintf(via, sizeof via, "/proc/%d/root%s", j->pid, path);
	else
		snprintf(via, sizeof via, "%s", path);
	if (procfile_join(out, len, root, via) < 0 && len)
		out[0] = '\0';
}

/* relative paths are relative to the JVM's working directory */
static void absolute(const struct jvm_proc *j, const char *p, char *out, size_t len)
{
	if (p[0] == '/' || !j->cwd[0])
		snprintf(out, len, "%s", p);
	else if ((size_t)snprintf(out, len, "%s%s%s", j->cwd, strcmp(j->cwd, "/") == 0 ? "" : "/", p) >= len)
		out[len ? len - 1 : 0] = '\0';
}

/* launcher options that take the next argument as their value */
static bool takes_value(const char *a)
{
	static const char *const opts[] = {"-cp", "-classpath", "--class-path", "-p", "--module-path",
					   "--upgrade-module-path", "--add-modules", "--limit-modules",
					   "--add-exports", "--add-opens", "--add-reads", "--patch-module",
					   "--enable-native-access", "--source"};
	for (size_t i = 0; i < ARRAY_LEN(opts); i++)
		if (strcmp(a, opts[i]) == 0)
			return true;
	return false;
}

static int expand_argfile(const char *root, struct jvm_proc *j, const char *name)
{
	char p[DISCOVER_PATH], op[DISCOVER_PATH];
	char *text = NULL;
	size_t tl = 0;
	absolute(j, name, p, sizeof p);
	open_path_of(root, j, p, op, sizeof op);
	if (procfile_read_alloc(AT_FDCWD, op, 1u << 20, &text, &tl) < 0)
		return opts_push(j, name - 1, strlen(name) + 1, DORIGIN_CMDLINE); /* keep "@file" as given */
	int r = push_words(j, text, tl, DORIGIN_ARGFILE, true);
	free(text);
	return r;
}

/* the launcher's options (before the main class / -jar / -m) become JVM options */
static int collect_cmdline_opts(const char *root, struct jvm_proc *j)
{
	for (int i = 1; i < j->argc; i++) {
		const char *a = j->argv[i];
		if (a[0] == '@' && a[1] && j->java_feature != 8) {
			int r = expand_argfile(root, j, a + 1);
			if (r < 0)
				return r;
			continue;
		}
		if (strcmp(a, "-jar") == 0 || strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0) {
			if (i + 1 < j->argc)
				snprintf(j->main, sizeof j->main, "%s %s", a, j->argv[i + 1]);
			return 0;
		}
		if (strncmp(a, "--module=", 9) == 0) {
			snprintf(j->main, sizeof j->main, "-m %s", a + 9);
			return 0;
		}
		if (a[0] != '-') {
			snprintf(j->main, sizeof j->main, "%s", a);
			return 0; /* the rest are the application's arguments */
		}
		int r = opts_push(j, a, strlen(a), DORIGIN_CMDLINE);
		if (r < 0)
			return r;
		if (takes_value(a))
			i++;
	}
	return 0;
}

/* -------------------------------------------------------- -Xlog parsing --- */

enum { LV_TRACE, LV_DEBUG, LV_INFO, LV_WARNING, LV_ERROR, LV_OFF };

static int level_of(const char *s, size_t n)
{
	static const char *const names[] = {"trace", "debug", "info", "warning", "error", "off"};
	for (int i = 0; i < 6; i++)
		if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
			return i;
	return -1;
}

/* Is tag set `want` (n tags) enabled at level `lv` by the selections in `what`?
 * Later selections override earlier ones, as HotSpot applies them in order. */
static bool covers(const char *what, const char *const *want, int n, int lv)
{
	int level = LV_OFF;
	const char *s = what;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t sl = e ? (size_t)(e - s) : strlen(s);
		const char *eq = memchr(s, '=', sl);
		size_t tl = eq ? (size_t)(eq - s) : sl;
		int sel_level = eq ? level_of(eq + 1, sl - tl - 1) : LV_INFO;
		bool wild = tl > 0 && s[tl - 1] == '*';
		size_t tagl = wild ? tl - 1 : tl;
		bool match;
		if (tagl == 3 && memcmp(s, "all", 3) == 0) {
			match = true;
		} else {
			/* every selected tag must be in `want`; without '*' the sets must be equal */
			int count = 0;
			match = tagl > 0;
			for (size_t i = 0; match && i < tagl;) {
				const char *plus = memchr(s + i, '+', tagl - i);
				size_t l = plus ? (size_t)(plus - (s + i)) : tagl - i;
				bool in = false;
				for (int k = 0; k < n; k++)
					if (strlen(want[k]) == l && memcmp(want[k], s + i, l) == 0)
						in = true;
				match = in;
				count++;
				i += l + 1;
			}
			if (match && !wild && count != n)
				match = false;
		}
		if (match && sel_level >= 0)
			level = sel_level;
		if (!e)
			break;
		s = e + 1;
	}
	return level != LV_OFF && level <= lv;
}

static unsigned tags_of(const char *what)
{
	static const char *const gc[] = {"gc"};
	static const char *const sp[] = {"safepoint"};
	static const char *const per[] = {"gc", "periodic"};
	static const char *const init[] = {"gc", "init"};
	unsigned t = 0;
	if (covers(what, gc, 1, LV_INFO))
		t |= DLOG_GC;
	if (covers(what, sp, 1, LV_INFO))
		t |= DLOG_SAFEPOINT;
	if (covers(what, per, 2, LV_DEBUG))
		t |= DLOG_PERIODIC;
	if (covers(what, init, 2, LV_INFO))
		t |= DLOG_GC_INIT;
	return t;
}

static unsigned decorations_of(const char *s, size_t n)
{
	static const struct {
		const char *name;
		unsigned bit;
	} d[] = {{"time", DDECO_TIME},          {"t", DDECO_TIME},           {"utctime", DDECO_UTCTIME},
		 {"utc", DDECO_UTCTIME},        {"uptime", DDECO_UPTIME},    {"u", DDECO_UPTIME},
		 {"uptimemillis", DDECO_UPTIME}, {"um", DDECO_UPTIME},       {"uptimenanos", DDECO_UPTIME},
		 {"un", DDECO_UPTIME},          {"timemillis", DDECO_TIMEMILLIS}, {"tm", DDECO_TIMEMILLIS},
		 {"timenanos", DDECO_TIMEMILLIS}, {"tn", DDECO_TIMEMILLIS},  {"level", DDECO_LEVEL},
		 {"l", DDECO_LEVEL},            {"tags", DDECO_TAGS},        {"tg", DDECO_TAGS},
		 {"pid", DDECO_PID},            {"p", DDECO_PID},            {"tid", DDECO_TID},
		 {"ti", DDECO_TID}};
	unsigned bits = 0;
	if (n == 0)
		return DDECO_UPTIME | DDECO_LEVEL | DDECO_TAGS; /* HotSpot's default */
	for (size_t i = 0; i < n;) {
		const char *c = memchr(s + i, ',', n - i);
		size_t l = c ? (size_t)(c - (s + i)) : n - i;
		for (size_t k = 0; k < ARRAY_LEN(d); k++)
			if (strlen(d[k].name) == l && memcmp(d[k].name, s + i, l) == 0)
				bits |= d[k].bit;
		i += l + 1;
	}
	return bits;
}

static size_t put_str(char *out, size_t o, size_t len, const char *ins)
{
	size_t l = strlen(ins);
	if (o + l >= len)
		l = len - 1 - o;
	memcpy(out + o, ins, l);
	return o + l;
}

void discover_expand_name(enum discover_name_rule rule, const char *pat, const struct discover_name_ctx *c,
			  char *out, size_t len)
{
	char pid[24];
	size_t o = 0;
	bool done_p = false, done_t = false, done_hn = false;
	const char *base = pat;
	if (len == 0)
		return;
	if (rule == DNAME_XLOGGC8)
		for (const char *s = pat; *s; s++)
			if (*s == '/')
				base = s + 1; /* make_log_name looks at the base name only */
	snprintf(pid, sizeof pid, rule == DNAME_XLOGGC8 ? "pid%d" : "%d", c->pid);
	for (const char *p = pat; *p && o + 1 < len; p++) {
		const char *ins = NULL;
		size_t skip = 2;
		if (p[0] != '%' || p < base) {
			out[o++] = *p;
			continue;
		}
		if (p[1] == 'p' && (rule == DNAME_ERRORFILE || !done_p)) {
			ins = pid;
			done_p = true;
		} else if (p[1] == '%' && rule == DNAME_ERRORFILE) {
			ins = "%";
		} else if (p[1] == 't' && rule != DNAME_ERRORFILE && !done_t) {
			done_t = true;
			ins = c->start;
		} else if (p[1] == 'h' && p[2] == 'n' && rule == DNAME_XLOG && !done_hn) {
			done_hn = true;
			ins = c->host;
			skip = 3;
		}
		if (!ins) {
			/* not a placeholder here, or one kept as written: copy the '%' and
			 * go on with the next character (so "%%p" still expands its %p
			 * under -Xlog, as HotSpot's strstr finds it) */
			out[o++] = *p;
			continue;
		}
		o = put_str(out, o, len, ins);
		p += skip - 1;
	}
	out[o] = '\0';
}

/* the JVM's start time as HotSpot writes %t: YYYY-MM-DD_HH-MM-SS in its
 * local time (os::localtime_pd: its TZ, else its /etc/localtime); "%t"
 * when the start is not known */
static void start_string(const struct jvm_proc *j, char *buf, size_t len)
{
	time_t t = (time_t)(j->start_ms / 1000);
	struct tm tm;
	char *old = NULL;
	bool ok;
	if (j->start_ms <= 0) {
		snprintf(buf, len, "%s", "%t");
		return;
	}
	if (j->zone[0]) {
		const char *o = getenv("TZ");
		old = o ? strdup(o) : NULL;
		setenv("TZ", j->zone, 1);
		tzset();
	}
	ok = localtime_r(&t, &tm) && strftime(buf, len, "%Y-%m-%d_%H-%M-%S", &tm) != 0;
	if (j->zone[0]) {
		if (old)
			setenv("TZ", old, 1);
		else
			unsetenv("TZ");
		tzset();
		free(old);
	}
	if (!ok)
		snprintf(buf, len, "%s", "%t");
}

static bool ts_shape(const char *s)
{
	/* YYYY-MM-DD_HH-MM-SS */
	static const char shape[] = "dddd-dd-dd_dd-dd-dd";
	for (size_t i = 0; i < sizeof shape - 1; i++) {
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
			return false;
	}
	return true;
}

static int64_t ts_naive(const char *s)
{
	int v[6], k = 0;
	for (int i = 0; i < 19 && k < 6; i += 3) {
		int w = i == 0 ? 4 : 2, x = 0;
		for (int c = 0; c < w; c++)
			x = x * 10 + (s[i + c] - '0');
		v[k++] = x;
		if (i == 0)
			i += 2;
	}
	return util_utc_ms(v[0], v[1], v[2], v[3], v[4], v[5], 0) / 1000;
}

/* What %hn becomes under -Xlog: JDK 23+ only (JDK-8327410; older ones leave
 * it in the name); a version not known is taken as a recent one. NULL: kept. */
static const char *host_for(const struct jvm_proc *j)
{
	if (j->java_feature > 0 && j->java_feature < 23)
		return NULL;
	return j->hostname[0] ? j->hostname : NULL;
}

/* Resolve a file name pattern to the file the JVM writes: %p/%t/%hn expanded
 * by rule, made absolute. If %t gives no existing file (the VM takes its start
 * time at log init, a little after the process start; its zone may not be
 * known), the directory is searched for the same pattern with any timestamp,
 * nearest first. */
static void resolve_file(const char *root, struct jvm_proc *j, enum discover_name_rule rule, const char *pat,
			 char *path, size_t plen, char *open, size_t olen)
{
	char t[32], rel[DISCOVER_PATH];
	struct discover_name_ctx c = {.pid = j->nspid, .host = host_for(j)};
	start_string(j, t, sizeof t);
	c.start = t;
	discover_expand_name(rule, pat, &c, rel, sizeof rel);
	absolute(j, rel, path, plen);
	open_path_of(root, j, path, open, olen);
	if (rule == DNAME_XLOG && strstr(pat, "%hn") && !c.host && (j->java_feature == 0 || j->java_feature >= 23) &&
	    !j->names_note[0])
		snprintf(j->names_note, sizeof j->names_note, "%%hn in %s: the JVM's host name is not known (%s): "
			 "looked for as written", pat, j->hostname_from);
	if (!strstr(pat, "%t") || file_exists(open))
		return;
	/* the pattern with %t as a marker, then split the basename around it */
	char marked[DISCOVER_PATH], abs[DISCOVER_PATH], dir[DISCOVER_PATH], odir[DISCOVER_PATH];
	c.start = "\x01";
	discover_expand_name(rule, pat, &c, marked, sizeof marked);
	absolute(j, marked, abs, sizeof abs);
	char *slash = strrchr(abs, '/');
	char *mark = strchr(abs, '\x01');
	if (!slash || !mark || mark < slash || strchr(mark + 1, '\x01'))
		return;
	*slash = '\0';
	snprintf(dir, sizeof dir, "%s", abs[0] ? abs : "/");
	const char *prefix = slash + 1;
	size_t pl = (size_t)(mark - prefix);
	const char *suffix = mark + 1;
	size_t sl = strlen(suffix);
	open_path_of(root, j, dir, odir, sizeof odir);
	DIR *d = opendir(odir);
	if (!d)
		return;
	/* start unknown: the newest file is the running JVM's */
	int64_t want = t[0] == '%' ? INT64_MAX / 4 : ts_naive(t), best = INT64_MAX;
	struct dirent *de;
	char bestname[256] = "";
	while ((de = readdir(d)) != NULL) {
		const char *nm = de->d_name;
		size_t nl = strlen(nm);
		if (nl != pl + 19 + sl || strncmp(nm, prefix, pl) != 0 || strcmp(nm + pl + 19, suffix) != 0 ||
		    !ts_shape(nm + pl))
			continue;
		int64_t diff = ts_naive(nm + pl) - want;
		if (diff < 0)
			diff = -diff;
		if (diff < best) {
			best = diff;
			snprintf(bestname, sizeof bestname, "%s", nm);
		}
	}
	closedir(d);
	if (bestname[0]) {
		if ((size_t)snprintf(path, plen, "%s%s%s", strcmp(dir, "/") == 0 ? "" : dir, "/", bestname) >= plen)
			path[plen ? plen - 1 : 0] = '\0';
		open_path_of(root, j, path, open, olen);
	}
}

static struct jvm_log *log_slot(struct jvm_proc *j, int stream, const char *path)
{
	for (int i = 0; i < j->nlogs; i++)
		if (j->logs[i].stream == stream && strcmp(j->logs[i].path, path) == 0)
			return &j->logs[i];
	if (j->nlogs == DISCOVER_MAX_LOGS) {
		j->dropped_logs++;
		return NULL;
	}
	struct jvm_log *l = &j->logs[j->nlogs++];
	memset(l, 0, sizeof *l);
	l->stream = stream;
	l->filecount = 5;
	l->filesize = 20 << 20;
	snprintf(l->path, sizeof l->path, "%s", path);
	return l;
}

/* split s at ':' into at most max parts, a "..." quoted part kept whole */
static int split_colons(const char *s, const char **part, size_t *pl, int max)
{
	int k = 0;
	const char *start = s;
	bool q = false;
	for (const char *p = s;; p++) {
		if (*p == '"')
			q = !q;
		if ((*p == ':' && !q && k < max - 1) || *p == '\0') {
			part[k] = start;
			pl[k] = (size_t)(p - start);
			k++;
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return k;
}

static void parse_xlog(const char *root, struct jvm_proc *j, const char *opt, int origin)
{
	const char *s = opt + 5; /* after "-Xlog" */
	const char *part[4] = {"", "", "", ""};
	size_t pl[4] = {0, 0, 0, 0};
	char what[256], out[DISCOVER_PATH], path[DISCOVER_PATH], open[DISCOVER_PATH];
	if (*s == '\0') {
		/* bare -Xlog: all=info on stdout */
		part[0] = "all";
		pl[0] = 3;
	} else {
		if (*s != ':')
			return;
		s++;
		if (strcmp(s, "help") == 0 || strcmp(s, "async") == 0)
			return;
		if (strcmp(s, "disable") == 0) {
			j->nlogs = 0; /* turns off every output configured so far */
			return;
		}
		split_colons(s, part, pl, 4);
	}
	if (pl[0] == 0)
		snprintf(what, sizeof what, "all");
	else
		util_strlcpy_n(what, sizeof what, part[0], pl[0]);
	util_strlcpy_n(out, sizeof out, part[1], pl[1]);
	int stream = 0;
	const char *file = out;
	if (out[0] == '\0' || strcmp(out, "stdout") == 0 || strcmp(out, "#0") == 0)
		stream = 1;
	else if (strcmp(out, "stderr") == 0 || strcmp(out, "#1") == 0)
		stream = 2;
	else if (strncmp(out, "file=", 5) == 0)
		file = out + 5;
	path[0] = open[0] = '\0';
	if (!stream) {
		char unq[DISCOVER_PATH];
		size_t fl = strlen(file);
		if (fl >= 2 && file[0] == '"' && file[fl - 1] == '"')
			util_strlcpy_n(unq, sizeof unq, file + 1, fl - 2);
		else
			snprintf(unq, sizeof unq, "%s", file);
		resolve_file(root, j, DNAME_XLOG, unq, path, sizeof path, open, sizeof open);
	}
	struct jvm_log *l = log_slot(j, stream, path);
	if (!l)
		return;
	if (!l->option[0]) {
		snprintf(l->option, sizeof l->option, "%s", opt);
		l->origin = origin;
		snprintf(l->open_path, sizeof l->open_path, "%s", open);
		snprintf(l->what, sizeof l->what, "%s", what);
	} else {
		/* the same output again: its selections are applied after the earlier ones */
		size_t wl = strlen(l->what);
		snprintf(l->what + wl, sizeof l->what - wl, ",%s", what);
	}
	if (pl[2] > 0 || !l->decorations)
		l->decorations = decorations_of(part[2], pl[2]);
	if (pl[2] == 4 && memcmp(part[2], "none", 4) == 0)
		l->decorations = 0;
	/* output options: filecount=N,filesize=N[KMG] */
	char oo[256];
	util_strlcpy_n(oo, sizeof oo, part[3], pl[3]);
	for (char *tok = strtok(oo, ","); tok; tok = strtok(NULL, ",")) {
		int64_t v;
		if (strncmp(tok, "filecount=", 10) == 0 && parse_i64_full(tok + 10, &v) && v >= 0 && v <= INT32_MAX)
			l->filecount = (int)v;
		else if (strncmp(tok, "filesize=", 9) == 0 && parse_size(tok + 9, &v))
			l->filesize = v;
	}
	l->tags = tags_of(l->what);
}

/* GC logging on stdout/stderr whose fd the JVM's shell pointed at a regular
 * file (`java ... > app.log`): that file is the GC log, with the application's
 * own lines in between (they are no GC record, and are passed over). A pipe, a
 * socket, a terminal or /dev/null is not followed. */
static void stream_files(const char *root, struct jvm_proc *j)
{
	for (int i = 0; i < j->nlogs; i++) {
		struct jvm_log *l = &j->logs[i];
		if (l->stream == 0 || !(l->tags & DLOG_GC))
			continue;
		char rel[64], fd[DISCOVER_PATH], target[DISCOVER_PATH];
		snprintf(rel, sizeof rel, "/proc/%d/fd/%d", j->pid, l->stream);
		procfile_join(fd, sizeof fd, root, rel);
		ssize_t n = readlink(fd, target, sizeof target - 1);
		if (n <= 0 || target[0] != '/')
			continue; /* "pipe:[...]", "socket:[...]", or unreadable */
		target[n] = '\0';
		if (n > 10 && strcmp(target + n - 10, " (deleted)") == 0)
			continue;
		struct stat st;
		if (stat(fd, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(l->path, sizeof l->path, "%s", target);
		open_path_of(root, j, l->path, l->open_path, sizeof l->open_path);
	}
}

/* JDK 8: -Xloggc:PATH; with rotation the JVM writes PATH.N.current */
static void parse_xloggc(const char *root, struct jvm_proc *j, const char *opt, int origin, bool rotation,
			 bool stopped_time, bool details)
{
	char path[DISCOVER_PATH], open[DISCOVER_PATH];
	/* after "-Xloggc:"; JDK 9+ turns it into -Xlog:gc:FILE (unified logging's rule); a
	 * version not known: JDK 8's, whose option it is */
	resolve_file(root, j, j->java_feature >= 9 ? DNAME_XLOG : DNAME_XLOGGC8, opt + 8, path, sizeof path, open,
		     sizeof open);
	if (rotation) {
		/* the active part: PATH.<n>.current, the newest if several */
		char dir[DISCOVER_PATH], odir[DISCOVER_PATH], base[DISCOVER_PATH];
		const char *slash = strrchr(path, '/');
		snprintf(dir, sizeof dir, "%.*s", slash && slash != path ? (int)(slash - path) : 1, slash ? path : "/");
		snprintf(base, sizeof base, "%s", slash ? slash + 1 : path);
		open_path_of(root, j, dir, odir, sizeof odir);
		DIR *d = opendir(odir);
		struct dirent *de;
		time_t newest = 0;
		char best[256] = "";
		size_t bl = strlen(base);
		while (d && (de = readdir(d)) != NULL) {
			const char *n = de->d_name;
			size_t nl = strlen(n);
			uint64_t idx;
			if (nl <= bl + 9 || strncmp(n, base, bl) != 0 || n[bl] != '.' ||
			    strcmp(n + nl - 8, ".current") != 0 ||
			    util_parse_u64(n + bl + 1, nl - bl - 9, &idx) != nl - bl - 9)
				continue;
			char full[DISCOVER_PATH + 300];
			struct stat st;
			snprintf(full, sizeof full, "%s/%s", odir, n);
			if (stat(full, &st) == 0 && (best[0] == '\0' || st.st_mtime > newest)) {
				newest = st.st_mtime;
				snprintf(best, sizeof best, "%s", n);
			}
		}
		if (d)
			closedir(d);
		size_t pl = strlen(path);
		if (best[0])
			snprintf(path + (pl - bl), sizeof path - (pl - bl), "%s", best);
		else
			snprintf(path + pl, sizeof path - pl, ".0.current");
		open_path_of(root, j, path, open, sizeof open);
	}
	struct jvm_log *l = log_slot(j, 0, path);
	if (!l)
		return;
	snprintf(l->option, sizeof l->option, "%s", opt);
	snprintf(l->open_path, sizeof l->open_path, "%s", open);
	snprintf(l->what, sizeof l->what, "%s", details ? "gc*" : "gc");
	l->jdk8 = true;
	l->rotation_current = rotation;
	l->origin = origin;
	l->decorations = 0;
	l->tags = DLOG_GC | (stopped_time ? DLOG_SAFEPOINT : 0);
	l->filecount = rotation ? l->filecount : 0;
}

/* ----------------------------------------------------------- inspect --- */

static bool flag_bool(const char *a, const char *name, int *out)
{
	size_t n = strlen(name);
	if (strncmp(a, "-XX:", 4) != 0 || (a[4] != '+' && a[4] != '-') || strcmp(a + 5, name) != 0 || n == 0)
		return false;
	*out = a[4] == '+';
	return true;
}

static const char *flag_value(const char *a, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(a, "-XX:", 4) == 0 && strncmp(a + 4, name, n) == 0 && a[4 + n] == '=')
		return a + 5 + n;
	return NULL;
}

static void add_crash_file(const char *root, struct jvm_proc *j, const char *path, const char *why)
{
	for (int i = 0; i < j->ncrash; i++)
		if (strcmp(j->crash[i].path, path) == 0)
			return;
	if (j->ncrash >= DISCOVER_MAX_CRASH)
		return;
	struct jvm_crash_file *c = &j->crash[j->ncrash++];
	snprintf(c->path, sizeof c->path, "%s", path);
	open_path_of(root, j, path, c->open_path, sizeof c->open_path);
	c->why = why;
}

static void apply_flags(const char *root, struct jvm_proc *j)
{
	static const struct {
		const char *flag;
		int gc;
	} collectors[] = {{"UseG1GC", GC_G1},       {"UseParallelGC", GC_PARALLEL}, {"UseParallelOldGC", GC_PARALLEL},
			  {"UseSerialGC", GC_SERIAL}, {"UseZGC", GC_ZGC},          {"UseShenandoahGC", GC_SHENANDOAH},
			  {"UseConcMarkSweepGC", GC_CMS}, {"UseEpsilonGC", GC_EPSILON}};
	bool rotation = false, stopped = false, details = false;
	const char *xloggc = NULL, *error_file = NULL;
	int xloggc_origin = 0;
	int b;
	const char *v;
	int64_t x;
	/* first pass: flags that change how -Xloggc is read (they may come after it) */
	for (int i = 0; i < j->nopts; i++) {
		const char *a = j->opts[i].arg;
		if (flag_bool(a, "UseGCLogFileRotation", &b))
			rotation = b;
		else if (flag_bool(a, "PrintGCApplicationStoppedTime", &b))
			stopped = b;
		else if (flag_bool(a, "PrintGCDetails", &b))
			details = b;
	}
	for (int i = 0; i < j->nopts; i++) {
		const char *a = j->opts[i].arg;
		if (strncmp(a, "-Xms", 4) == 0 && parse_size(a + 4, &x))
			j->xms = x;
		else if (strncmp(a, "-Xmx", 4) == 0 && parse_size(a + 4, &x))
			j->xmx = x;
		else if ((v = flag_value(a, "InitialHeapSize")) && parse_size(v, &x))
			j->xms = x;
		else if ((v = flag_value(a, "MaxHeapSize")) && parse_size(v, &x))
			j->xmx = x;
		else if ((v = flag_value(a, "G1PeriodicGCInterval")) && parse_i64_full(v, &x))
			j->periodic_gc_ms = x;
		else if ((v = flag_value(a, "SafepointTimeoutDelay")) && parse_i64_full(v, &x))
			j->safepoint_timeout_delay_ms = x;
		else if (flag_bool(a, "SafepointTimeout", &b))
			j->safepoint_timeout = b;
		else if (flag_bool(a, "AlwaysPreTouch", &b))
			j->always_pretouch = b;
		else if ((v = flag_value(a, "AOTCache")))
			snprintf(j->aot_cache, sizeof j->aot_cache, "%s", v);
		else if ((v = flag_value(a, "ErrorFile")))
			error_file = v;
		else if (strncmp(a, "-Xloggc:", 8) == 0) {
			xloggc = a;
			xloggc_origin = j->opts[i].origin;
		} else if (strncmp(a, "-Xlog", 5) == 0 && (a[5] == '\0' || a[5] == ':'))
			parse_xlog(root, j, a, j->opts[i].origin);
		else {
			for (size_t c = 0; c < ARRAY_LEN(collectors); c++)
				if (flag_bool(a, collectors[c].flag, &b)) {
					if (b)
						j->collector = collectors[c].gc;
					else if (j->collector == collectors[c].gc)
						j->collector = GC_UNKNOWN;
				}
		}
	}
	if (xloggc)
		parse_xloggc(root, j, xloggc, xloggc_origin, rotation, stopped, details);
	stream_files(root, j);
	for (int i = 0; i < j->nlogs; i++)
		j->logs[i].exists = j->logs[i].open_path[0] && file_exists(j->logs[i].open_path);

	char name[64], rel[DISCOVER_PATH];
	/* the pid in its name is the one the JVM sees */
	snprintf(name, sizeof name, "hs_err_pid%d.log", j->nspid);
	if (error_file && error_file[0]) {
		struct discover_name_ctx c = {.pid = j->nspid};
		discover_expand_name(DNAME_ERRORFILE, error_file, &c, rel, sizeof rel);
		absolute(j, rel, j->error_file, sizeof j->error_file);
		j->error_file_set = true;
	} else {
		absolute(j, name, j->error_file, sizeof j->error_file);
	}
	open_path_of(root, j, j->error_file, j->error_open_path, sizeof j->error_open_path);
	snprintf(j->error_fallback, sizeof j->error_fallback, "/tmp/%s", name);

	/* where HotSpot may write it, in its order; a relative name needs the cwd */
	j->ncrash = 0;
	if (j->error_file_set && j->error_file[0] == '/')
		add_crash_file(root, j, j->error_file, "-XX:ErrorFile");
	if (j->cwd[0]) {
		absolute(j, name, rel, sizeof rel);
		add_crash_file(root, j, rel, "working directory");
	}
	add_crash_file(root, j, j->error_fallback, "/tmp fallback");
}

static void read_release(const char *root, struct jvm_proc *j)
{
	char home[DISCOVER_PATH], p[DISCOVER_PATH + 32], op[DISCOVER_PATH + 64], b[4096];
	snprintf(home, sizeof home, "%s", j->exe);
	for (int up = 0; up < 2; up++) {
		char *s = strrchr(home, '/');
		if (!s || s == home)
			return;
		*s = '\0';
	}
	/* JDK 8: <jdk>/jre/bin/java, release at <jdk>/release */
	for (int attempt = 0; attempt < 2; attempt++) {
		snprintf(p, sizeof p, "%s/release", home);
		open_path_of(root, j, p, op, sizeof op);
		ssize_t n = procfile_read(AT_FDCWD, op, b, sizeof b);
		if (n == -EFBIG)
			n = (ssize_t)strlen(b);
		if (n > 0) {
			const char *v = util_memmem(b, (size_t)n, "JAVA_VERSION=\"");
			if (v) {
				v += 14;
				const char *q = memchr(v, '"', (size_t)(b + n - v));
				if (q) {
					uint64_t major, minor = 0;
					util_strlcpy_n(j->java_version, sizeof j->java_version, v, (size_t)(q - v));
					size_t k = util_parse_u64(v, (size_t)(q - v), &major);
					if (k && major == 1 && v[k] == '.')
						util_parse_u64(v + k + 1, (size_t)(q - v - (ptrdiff_t)k - 1), &minor);
					j->java_feature = (int)(major == 1 ? minor : major);
				}
			}
			snprintf(j->java_home, sizeof j->java_home, "%s", home);
			return;
		}
		char *s = strrchr(home, '/');
		if (!s || strcmp(s, "/jre") != 0)
			break;
		*s = '\0';
	}
	snprintf(j->java_home, sizeof j->java_home, "%s", home);
}

static int split_cmdline(struct jvm_proc *j, const char *b, size_t n)
{
	int count = 0;
	for (size_t i = 0; i < n; i++)
		if (b[i] == '\0' || i == n - 1)
			count++;
	j->argv = calloc((size_t)count + 1, sizeof *j->argv);
	if (!j->argv)
		return -ENOMEM;
	for (size_t i = 0; i < n && j->argc < count;) {
		size_t l = strnlen(b + i, n - i);
		j->argv[j->argc] = malloc(l + 1);
		if (!j->argv[j->argc])
			return -ENOMEM;
		memcpy(j->argv[j->argc], b + i, l);
		j->argv[j->argc][l] = '\0';
		j->argc++;
		i += l + 1;
	}
	return 0;
}

/* the value of one variable in an environ block */
static const char *env_get(const char *env, size_t n, const char *name, size_t *vl)
{
	size_t k = strlen(name);
	for (size_t i = 0; i < n;) {
		size_t l = strnlen(env + i, n - i);
		if (l > k && memcmp(env + i, name, k) == 0 && env[i + k] == '=') {
			*vl = l - k - 1;
			return env + i + k + 1;
		}
		i += l + 1;
	}
	return NULL;
}


/* the pid the JVM sees: the last field of NSpid: (the innermost pid namespace,
 * what its getpid() returns); pid when the line is missing (kernel < 4.1) */
static int read_nspid(const char *root, int pid)
{
	char path[DISCOVER_PATH], b[4096];
	int64_t v = pid;
	proc_path(path, sizeof path, root, pid, "status");
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n == -EFBIG)
		n = (ssize_t)strlen(b);
	if (n <= 0 || !procfile_status_num(b, (size_t)n, "\nNSpid:", -1, &v) || v <= 0 || v > INT_MAX)
		return pid;
	return (int)v;
}

/* the namespace link of pid and of ourselves: 1 same, 0 different, -1 cannot tell */
static int same_ns(const char *root, int pid, const char *ns)
{
	char a[DISCOVER_PATH], b[DISCOVER_PATH], ta[128], tb[128], rel[64];
	snprintf(rel, sizeof rel, "/proc/self/ns/%s", ns);
	procfile_join(a, sizeof a, root, rel);
	snprintf(rel, sizeof rel, "ns/%s", ns);
	proc_path(b, sizeof b, root, pid, rel);
	ssize_t x = readlink(a, ta, sizeof ta - 1), y = readlink(b, tb, sizeof tb - 1);
	if (x <= 0 || y <= 0)
		return -1;
	ta[x] = tb[y] = '\0';
	return strcmp(ta, tb) == 0;
}

/* HotSpot's %hn is os::get_host_name(): uname's nodename in the JVM's uts
 * namespace. In ours: gethostname(). In another: that namespace's name, read by
 * a child that enters it (setns needs CAP_SYS_ADMIN; this process never
 * leaves its own); else <its root>/etc/hostname, which
 * container runtimes (podman, kubelet) write with the name they give it. */
static void read_hostname(const char *root, struct jvm_proc *j)
{
	char path[DISCOVER_PATH], b[300];
	int same = same_ns(root, j->pid, "uts"), err = 0;
	j->hostname[0] = '\0';
	if (same == 1 || (same < 0 && !(root && root[0]))) {
		if (gethostname(b, sizeof b - 1) == 0) {
			b[sizeof b - 1] = '\0';
			util_strlcpy_n(j->hostname, sizeof j->hostname, b, strlen(b));
			snprintf(j->hostname_from, sizeof j->hostname_from, "gethostname%s",
				 same < 0 ? " (its uts namespace not readable: ours assumed)" : "");
			return;
		}
	}
	if (same == 0 && !(root && root[0])) {
		/* in a child: this process never leaves its own namespace */
		int fd[2] = {-1, -1};
		pid_t c = -1;
		proc_path(path, sizeof path, root, j->pid, "ns/uts");
		if (pipe2(fd, O_CLOEXEC) != 0 || (c = fork()) < 0) {
			err = errno;
		} else if (c == 0) {
			int theirs = open(path, O_RDONLY | O_CLOEXEC);
			int ok = theirs >= 0 && setns(theirs, CLONE_NEWUTS) == 0 && gethostname(b, sizeof b - 1) == 0;
			unsigned char e = ok ? 0 : (unsigned char)(errno ? errno : EIO);
			b[sizeof b - 1] = '\0';
			if (write(fd[1], &e, 1) == 1 && ok && write(fd[1], b, strlen(b)) < 0)
				_exit(1);
			_exit(0);
		}
		if (c > 0) {
			unsigned char e = EIO;
			close(fd[1]);
			fd[1] = -1;
			ssize_t n = read(fd[0], &e, 1);
			ssize_t m = n == 1 && e == 0 ? read(fd[0], b, sizeof b - 1) : -1;
			if (n != 1)
				err = EIO;
			else if (e != 0)
				err = e;
			else if (m > 0) {
				b[m] = '\0';
				util_strlcpy_n(j->hostname, sizeof j->hostname, b, (size_t)m);
				snprintf(j->hostname_from, sizeof j->hostname_from, "its uts namespace");
			}
			while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (fd[0] >= 0)
			close(fd[0]);
		if (fd[1] >= 0)
			close(fd[1]);
		if (j->hostname[0])
			return;
	}
	open_path_of(root, j, "/etc/hostname", path, sizeof path);
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n == -EFBIG)
		n = (ssize_t)strlen(b);
	if (n > 0) {
		size_t l = strcspn(b, "\n\r \t");
		if (l > 0 && l < sizeof j->hostname) {
			util_strlcpy_n(j->hostname, sizeof j->hostname, b, l);
			snprintf(j->hostname_from, sizeof j->hostname_from, "/etc/hostname in its root");
			return;
		}
	}
	snprintf(j->hostname_from, sizeof j->hostname_from, "its uts namespace %s%s and "
		 "/etc/hostname in its root is %s", same == 0 ? "cannot be entered: " : "cannot be read",
		 same == 0 ? strerror(err ? err : EPERM) : "",
		 n < 0 ? strerror((int)-n) : "empty");
}

/* The zone the JVM formats %t in: its TZ (a name is looked up under its own
 * /usr/share/zoneinfo), else its /etc/localtime; neither: UTC (glibc). As a TZ
 * value for start_string; "" (ours) when its environ cannot be read. */
static void read_zone(const char *root, struct jvm_proc *j, const char *env, size_t envlen)
{
	char p[DISCOVER_PATH + 32], op[DISCOVER_PATH];
	size_t vl;
	const char *v;
	j->zone[0] = '\0';
	if (!j->environ_read)
		return;
	if ((v = env_get(env, envlen, "TZ", &vl)) != NULL) {
		char tz[DISCOVER_PATH];
		util_strlcpy_n(tz, sizeof tz, v, vl);
		const char *name = tz[0] == ':' ? tz + 1 : tz;
		if (!name[0]) {
			snprintf(j->zone, sizeof j->zone, "UTC0");
			return;
		}
		if (name[0] == '/')
			snprintf(p, sizeof p, "%s", name);
		else
			snprintf(p, sizeof p, "/usr/share/zoneinfo/%s", name);
		open_path_of(root, j, p, op, sizeof op);
		if (!strstr(name, "..") && file_exists(op))
			snprintf(j->zone, sizeof j->zone, ":%s", op);
		else
			snprintf(j->zone, sizeof j->zone, "%s", tz); /* a POSIX rule: "EST5EDT", "UTC0" */
		return;
	}
	open_path_of(root, j, "/etc/localtime", op, sizeof op);
	if (file_exists(op))
		snprintf(j->zone, sizeof j->zone, ":%s", op);
	else
		snprintf(j->zone, sizeof j->zone, "UTC0");
}

void discover_fini(struct jvm_proc *j)
{
	if (!j)
		return;
	for (int i = 0; i < j->argc; i++)
		free(j->argv[i]);
	free(j->argv);
	for (int i = 0; i < j->nopts; i++)
		free(j->opts[i].arg);
	free(j->opts);
	j->argv = NULL;
	j->opts = NULL;
	j->argc = j->nopts = 0;
}

int discover_inspect(const char *root, int pid, struct jvm_proc *j, char *err, size_t errlen)
{
	char path[DISCOVER_PATH];
	char *buf = NULL, *env = NULL;
	size_t len = 0, envlen = 0;
	int r;
	memset(j, 0, sizeof *j);
	j->pid = j->nspid = pid;
	j->xms = j->xmx = j->periodic_gc_ms = j->safepoint_timeout_delay_ms = -1;
	j->safepoint_timeout = -1;
	j->start_ms = -1;
	if (errlen)
		err[0] = '\0';

	proc_path(path, sizeof path, root, pid, "cmdline");
	r = procfile_read_alloc(AT_FDCWD, path, 4u << 20, &buf, &len);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, r == -ENOENT ? "no such process" : strerror(-r));
		return r == -ENOENT ? -ESRCH : r;
	}
	if (len == 0) {
		free(buf);
		snprintf(err, errlen, "process %d has no command line (a kernel thread, or it is exiting)", pid);
		return -ESRCH;
	}
	r = split_cmdline(j, buf, len);
	free(buf);
	if (r < 0)
		goto nomem;
	j->is_jvm = check_java(root, pid) == 1;
	if (!j->is_jvm)
		not_jvm_message(root, pid, j->not_jvm, sizeof j->not_jvm);

	j->uid = read_uid(root, pid);
	user_name(root, j->uid, j->user, sizeof j->user);
	j->other_mntns = same_ns(root, pid, "mnt") == 0; /* cannot tell (a fixture, not permitted): ours */
	j->nspid = read_nspid(root, pid);
	proc_path(path, sizeof path, root, pid, "exe");
	ssize_t t = readlink(path, j->exe, sizeof j->exe - 1);
	j->exe[t > 0 ? t : 0] = '\0';
	char *del = strstr(j->exe, " (deleted)");
	if (del)
		*del = '\0';
	proc_path(path, sizeof path, root, pid, "cwd");
	t = readlink(path, j->cwd, sizeof j->cwd - 1);
	j->cwd_errno = t > 0 ? 0 : errno;
	j->cwd[t > 0 ? t : 0] = '\0';
	if (discover_start_ms(root, pid, util_now_ms(), &j->start_ms) < 0)
		j->start_ms = -1;
	if (j->exe[0])
		read_release(root, j);

	proc_path(path, sizeof path, root, pid, "environ");
	j->environ_read = procfile_read_alloc(AT_FDCWD, path, 4u << 20, &env, &envlen) == 0;
	read_zone(root, j, env, envlen);
	read_hostname(root, j);
	size_t vl;
	const char *v;
	/* the order the JVM applies them: JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS (launcher,
	 * JDK 9+), the command line, _JAVA_OPTIONS */
	if (env && (v = env_get(env, envlen, "JAVA_TOOL_OPTIONS", &vl)) && push_words(j, v, vl, DORIGIN_JAVA_TOOL_OPTIONS, false) < 0)
		goto nomem;
	if (env && j->java_feature != 8 && (v = env_get(env, envlen, "JDK_JAVA_OPTIONS", &vl)) &&
	    push_words(j, v, vl, DORIGIN_JDK_JAVA_OPTIONS, false) < 0)
		goto nomem;
	if (collect_cmdline_opts(root, j) < 0)
		goto nomem;
	if (env && (v = env_get(env, envlen, "_JAVA_OPTIONS", &vl)) && push_words(j, v, vl, DORIGIN_JAVA_OPTIONS, false) < 0)
		goto nomem;
	free(env);
	env = NULL;
	apply_flags(root, j);
	return 0;
nomem:
	free(env);
	discover_fini(j);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

/* ---------------------------------------------------------- candidates --- */

/* the command line, spaces for NULs, for a JVM whose main class is not found */
static void cmdline_text(const struct jvm_proc *j, char *out, size_t len)
{
	char cmd[sizeof ((struct discover_candidate *)0)->main];
	size_t o = 0;
	cmd[0] = '\0';
	for (int i = 0; i < j->argc && o + 1 < sizeof cmd; i++) {
		int k = snprintf(cmd + o, sizeof cmd - o, "%s%s", i ? " " : "", j->argv[i]);
		o += k > 0 ? (size_t)k : 0;
	}
	if (o >= sizeof cmd - 1)
		memcpy(cmd + sizeof cmd - 4, "...", 4);
	util_sanitize(out, len, cmd, strlen(cmd));
}

/* where the application's own arguments start in argv: after the main class,
 * -jar JAR or -m MOD (the scan of collect_cmdline_opts); argc when none */
static int app_args_from(const struct jvm_proc *j)
{
	for (int i = 1; i < j->argc; i++) {
		const char *a = j->argv[i];
		if (strcmp(a, "-jar") == 0 || strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0)
			return i + 2 < j->argc ? i + 2 : j->argc;
		if (strncmp(a, "--module=", 9) == 0 || (a[0] != '-' && a[0] != '@'))
			return i + 1;
		if (a[0] == '-' && takes_value(a))
			i++;
	}
	return j->argc;
}

static void app_args_text(const struct jvm_proc *j, char *out, size_t len)
{
	char buf[256];
	size_t o = 0;
	buf[0] = '\0';
	for (int i = app_args_from(j); i < j->argc && o + 1 < sizeof buf; i++) {
		int k = snprintf(buf + o, sizeof buf - o, "%s%s", o ? " " : "", j->argv[i]);
		o += k > 0 ? (size_t)k : 0;
	}
	util_sanitize(out, len, buf, strnlen(buf, sizeof buf));
}

/* the next whitespace-separated field of s[*i..n) */
static bool next_field(const char *s, size_t n, size_t *i, const char **f, size_t *fl)
{
	while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	size_t a = *i;
	while (*i < n && s[*i] != ' ' && s[*i] != '\t' && s[*i] != '\n')
		(*i)++;
	*f = s + a;
	*fl = *i - a;
	return *fl > 0;
}

/* The TCP ports pid listens on ("8080 8443"): the inodes of its sockets
 * (/proc/PID/fd) that its network namespace's /proc/PID/net/tcp and tcp6 list
 * in state 0A (LISTEN). Needs to read its fds: another user's JVM without root
 * gives "". */
#define PORT_SOCKETS 256
static void listen_ports(const char *root, int pid, char *out, size_t len)
{
	uint64_t inode[PORT_SOCKETS];
	size_t ni = 0, o = 0;
	char rel[64], dir[DISCOVER_PATH];
	out[0] = '\0';
	snprintf(rel, sizeof rel, "/proc/%d/fd", pid);
	procfile_join(dir, sizeof dir, root, rel);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) && ni < PORT_SOCKETS;) {
		char p[DISCOVER_PATH + 260], t[64];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		ssize_t n = readlink(p, t, sizeof t - 1);
		uint64_t ino;
		if (n > 9 && memcmp(t, "socket:[", 8) == 0 && util_parse_u64(t + 8, (size_t)n - 9, &ino) == (size_t)n - 9)
			inode[ni++] = ino;
	}
	closedir(d);
	static const char *const tables[] = {"tcp", "tcp6"};
	for (size_t k = 0; k < ARRAY_LEN(tables) && ni; k++) {
		char path[DISCOVER_PATH], *text = NULL;
		size_t tl = 0;
		snprintf(rel, sizeof rel, "/proc/%d/net/%s", pid, tables[k]);
		procfile_join(path, sizeof path, root, rel);
		if (procfile_read_alloc(AT_FDCWD, path, 8u << 20, &text, &tl) < 0)
			continue;
		for (size_t i = 0; i < tl;) {
			size_t eol = i;
			while (eol < tl && text[eol] != '\n')
				eol++;
			/* sl local rem st queues timer retrnsmt uid timeout inode */
			const char *f[10];
			size_t fl[10], c = i;
			int nf = 0;
			while (nf < 10 && next_field(text, eol, &c, &f[nf], &fl[nf]))
				nf++;
			i = eol + 1;
			uint64_t ino, port;
			const char *colon = nf == 10 ? memchr(f[1], ':', fl[1]) : NULL;
			if (!colon || fl[3] != 2 || memcmp(f[3], "0A", 2) != 0 ||
			    util_parse_u64(f[9], fl[9], &ino) != fl[9])
				continue;
			size_t pl = fl[1] - (size_t)(colon + 1 - f[1]);
			port = 0;
			for (size_t x = 0; x < pl; x++) {
				char h = colon[1 + x];
				port = port * 16 + (uint64_t)(h >= 'A' ? h - 'A' + 10 : h >= 'a' ? h - 'a' + 10 : h - '0');
			}
			bool ours = false;
			for (size_t x = 0; x < ni && !ours; x++)
				ours = inode[x] == ino;
			char pb[16];
			snprintf(pb, sizeof pb, "%llu", (unsigned long long)port);
			bool seen = false; /* the same port on v4 and v6 */
			for (const char *q = out; !seen && (q = strstr(q, pb)); q++)
				seen = (q == out || q[-1] == ' ') && (q[strlen(pb)] == ' ' || q[strlen(pb)] == '\0');
			if (ours && !seen && o + strlen(pb) + 2 < len)
				o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", pb);
		}
		free(text);
	}
}

/* the last part of its cgroup path: "0::/system.slice/docker-ab12.scope" (v2) or
 * the first v1 line's; "" at the root */
static void cgroup_name(const char *root, int pid, char *out, size_t len)
{
	char rel[64], path[DISCOVER_PATH], b[4096];
	out[0] = '\0';
	snprintf(rel, sizeof rel, "/proc/%d/cgroup", pid);
	procfile_join(path, sizeof path, root, rel);
	ssize_t n = procfile_read(AT_FDCWD, path, b, sizeof b);
	if (n <= 0)
		return;
	const char *line = b, *end = b + n;
	for (const char *l = b; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		if (!e)
			e = end;
		if (e - l > 3 && memcmp(l, "0::", 3) == 0) {
			line = l;
			break;
		}
		l = e + 1;
	}
	const char *e = memchr(line, '\n', (size_t)(end - line));
	if (!e)
		e = end;
	const char *slash = line;
	for (const char *q = line; q < e; q++)
		if (*q == '/')
			slash = q + 1;
	if (slash > line && slash < e)
		util_sanitize(out, len, slash, (size_t)(e - slash));
}

int discover_candidates(const char *root, struct discover_candidate *out, int max)
{
	int pids[64];
	int n = discover_java_pids(root, pids, (int)ARRAY_LEN(pids));
	if (n < 0)
		return n;
	int k = 0;
	for (int i = 0; i < n && i < (int)ARRAY_LEN(pids) && k < max; i++) {
		struct jvm_proc j;
		char why[256];
		if (discover_inspect(root, pids[i], &j, why, sizeof why) != 0)
			continue; /* gone since it was listed */
		struct discover_candidate *c = &out[k++];
		c->pid = pids[i];
		snprintf(c->user, sizeof c->user, "%s", j.user[0] ? j.user : "?");
		c->start_ms = j.start_ms;
		c->xmx = j.xmx;
		app_args_text(&j, c->args, sizeof c->args);
		listen_ports(root, pids[i], c->ports, sizeof c->ports);
		cgroup_name(root, pids[i], c->cgroup, sizeof c->cgroup);
		if (strncmp(j.main, "-jar ", 5) == 0) {
			/* the jar's name tells services apart; its directory rarely does */
			const char *slash = strrchr(j.main + 5, '/');
			const char *name = slash ? slash + 1 : j.main + 5;
			char jar[sizeof c->main] = "-jar ";
			util_strlcpy_n(jar + 5, sizeof jar - 5, name, strnlen(name, sizeof j.main));
			util_sanitize(c->main, sizeof c->main, jar, strlen(jar));
		} else if (j.main[0]) {
			util_sanitize(c->main, sizeof c->main, j.main, strlen(j.main));
		} else {
			cmdline_text(&j, c->main, sizeof c->main);
		}
		discover_fini(&j);
	}
	return k;
}

char *discover_fmt_uptime(int64_t start_ms, int64_t now_ms, char *buf, size_t len)
{
	if (start_ms <= 0 || now_ms < start_ms) {
		snprintf(buf, len, "?");
		return buf;
	}
	long long s = (long long)((now_ms - start_ms) / 1000), m = s / 60, h = m / 60, d = h / 24;
	if (d > 0)
		snprintf(buf, len, "%lldd%02lldh", d, h % 24);
	else if (h > 0)
		snprintf(buf, len, "%lldh%02lldm", h, m % 60);
	else if (m > 0)
		snprintf(buf, len, "%lldm%02llds", m, s % 60);
	else
		snprintf(buf, len, "%llds", s);
	return buf;
}

const struct jvm_log *discover_gc_log(const struct jvm_proc *j)
{
	for (int i = 0; i < j->nlogs; i++)
		if (j->logs[i].open_path[0] && (j->logs[i].tags & DLOG_GC))
			return &j->logs[i];
	return NULL;
}

/* ------------------------------------------------------------- advice --- */

int discover_advice(const struct jvm_proc *j, char *buf, size_t len)
{
	size_t o = 0;
	int items = 0;
	const struct jvm_log *gc = discover_gc_log(j);
	bool jdk8 = j->java_feature == 8;
	bool no_periodic_tag = j->java_feature >= 9 && j->java_feature < 12; /* JDK 11 rejects gc+periodic */
#define SAY(...)                                                                       \
	do {                                                                           \
		if (o < len) {                                                         \
			int k_ = snprintf(buf + o, len - o, __VA_ARGS__);              \
			o += k_ > 0 ? (size_t)k_ : 0;                                  \
		}                                                                      \
	} while (0)
	if (len)
		buf[0] = '\0';
	if (!j->is_jvm) {
		/* no -Xlog, jcmd or HotSpot flag applies to it */
		SAY("- %s\n", j->not_jvm[0] ? j->not_jvm : "the process is not a JVM");
		return 1;
	}
	if (!gc) {
		items++;
		if (jdk8) {
			SAY("- no GC log file: restart the JVM with -Xloggc:/tmp/gc-%%p-%%t.log -XX:+PrintGCDetails "
			    "-XX:+PrintGCDateStamps -XX:+PrintGCApplicationStoppedTime -XX:+UseGCLogFileRotation "
			    "-XX:NumberOfGCLogFiles=5 -XX:GCLogFileSize=20M (JDK 8; -XX:+PrintSafepointStatistics "
			    "-XX:PrintSafepointStatisticsCount=1 adds per-safepoint timings on stdout)\n");
		} else {
			const char *what = no_periodic_tag ? "gc*,safepoint" : "gc*,safepoint,gc+periodic=debug";
			SAY("- no GC log file: restart the JVM with "
			    "-Xlog:%s:file=/tmp/gc-%%p.log:time,uptime,level,tags:filecount=5,filesize=20m, "
			    "or turn it on now without a restart: the L key (or --enable-jvm-logging) does it and "
			    "removes it at exit; by hand: jcmd %d VM.log output=file=/tmp/gc-%d.log what=%s "
			    "decorators=time,uptime,level,tags output_options=filecount=5,filesize=20m\n",
			    what, j->pid, j->pid, what);
		}
	} else {
		if (!(gc->tags & DLOG_SAFEPOINT)) {
			items++;
			if (gc->jdk8)
				SAY("- %s has no safepoint lines: add -XX:+PrintGCApplicationStoppedTime "
				    "(time to safepoint per stop)\n", gc->path);
			else
				SAY("- %s has no safepoint lines: add ,safepoint to its selection (-Xlog:%s,safepoint:...), "
				    "or now: jcmd %d VM.log output=file=%s what=safepoint\n",
				    gc->path, gc->what, j->pid, gc->path);
		}
		if (j->periodic_gc_ms > 0 && !(gc->tags & DLOG_PERIODIC) && !gc->jdk8) {
			items++;
			SAY("- -XX:G1PeriodicGCInterval=%lld is set but %s has no periodic-GC checks: add "
			    "gc+periodic=debug (-Xlog:%s,gc+periodic=debug:...) to see the \"Skipping\" lines\n",
			    (long long)j->periodic_gc_ms, gc->path, gc->what);
		}
		if (!gc->jdk8 && !(gc->decorations & (DDECO_TIME | DDECO_UTCTIME | DDECO_TIMEMILLIS))) {
			items++;
			SAY("- %s lines carry no wall-clock time: stwtop anchors them to the JVM start "
			    "(/proc/%d/stat, ~10 ms); add time to the decorations (:time,uptime,level,tags) to "
			    "correlate without it\n", gc->path, j->pid);
		}
	}
	if (j->safepoint_timeout != 1) {
		items++;
		SAY("- to name the threads that are late to a safepoint, add -XX:+SafepointTimeout "
		    "-XX:SafepointTimeoutDelay=1000%s\n", jdk8 ? "" : " (needs a restart)");
	}
#undef SAY
	return items;
}
