/* SPDX-License-Identifier: GPL-2.0-or-later */
/* discover.h — find the JVM and what it writes, so `stwtop` with no arguments
 * works inside a pod: which process, its GC/safepoint log files (from -Xlog /
 * -Xloggc on its command line and in JAVA_TOOL_OPTIONS / JDK_JAVA_OPTIONS /
 * _JAVA_OPTIONS), where an hs_err file would appear, its heap and collector
 * flags and its start time (to anchor uptime-only logs); and, when a source is
 * missing, the exact option that would produce it.
 *
 * `root` prefixes every absolute path ("" = the live system; a fixture tree in
 * tests). Paths in struct jvm_proc are as the JVM sees them (its mount
 * namespace); `open_path` is how this process can open them (through
 * /proc/PID/root when the JVM is in another mount namespace). File name
 * patterns are expanded as the JVM expanded them, from inside its namespaces:
 * %p is the pid it sees (NSpid), %hn its uts namespace's host name, %t its
 * start time in its own zone (discover_expand_name). */
#ifndef STWTOP_DISCOVER_H
#define STWTOP_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISCOVER_PATH 1024
#define DISCOVER_MAX_LOGS 8
#define DISCOVER_MAX_CRASH 3

/* What a log output receives (tag set at level, as configured by its -Xlog selections) */
#define DLOG_GC        0x01  /* [gc] info: the pause/cycle summary lines */
#define DLOG_SAFEPOINT 0x02  /* [safepoint] info: one line per safepoint (JDK 8: PrintGCApplicationStoppedTime) */
#define DLOG_PERIODIC  0x04  /* [gc,periodic] debug: G1 periodic GC checks ("Skipping") */
#define DLOG_GC_INIT   0x08  /* [gc,init] info: collector, heap sizes, CPUs */

/* Decorations of the output (JDK 9+) */
#define DDECO_TIME     0x01  /* time (local, with offset) */
#define DDECO_UTCTIME  0x02
#define DDECO_UPTIME   0x04  /* uptime / uptimemillis / uptimenanos */
#define DDECO_TIMEMILLIS 0x08 /* timemillis / timenanos (epoch) */
#define DDECO_LEVEL    0x10
#define DDECO_TAGS     0x20
#define DDECO_PID      0x40
#define DDECO_TID      0x80

enum discover_origin {
	DORIGIN_CMDLINE = 0,        /* /proc/PID/cmdline */
	DORIGIN_ARGFILE,            /* an @argfile named on the command line */
	DORIGIN_JAVA_TOOL_OPTIONS,  /* environment, read by the JVM first */
	DORIGIN_JDK_JAVA_OPTIONS,   /* environment, read by the java launcher (JDK 9+) */
	DORIGIN_JAVA_OPTIONS        /* _JAVA_OPTIONS, read last (overrides) */
};

struct jvm_log {
	char path[DISCOVER_PATH];       /* expanded (%p, %t, %hn), absolute; "" for stdout/stderr */
	char open_path[DISCOVER_PATH];  /* root-prefixed, via /proc/PID/root when needed */
	char option[256];               /* the option as given (cut at 255 bytes) */
	char what[256];                 /* its selections ("gc*,safepoint"); merged when several
					   -Xlog options name the same output */
	int stream;                     /* 0 file, 1 stdout, 2 stderr; a stream whose fd the JVM
					   points at a regular file (java ... > app.log) has that
					   file in path/open_path, and is followed like a file */
	unsigned tags;                  /* DLOG_* */
	unsigned decorations;           /* DDECO_* (JDK 8 -Xloggc: 0) */
	int filecount;                  /* rotated files kept (-Xlog default 5; 0 = no rotation) */
	int64_t filesize;               /* bytes before rotation (default 20M), 0 = unlimited */
	bool jdk8;                      /* -Xloggc (JDK 8 format) */
	bool rotation_current;          /* JDK 8 -XX:+UseGCLogFileRotation: path is FILE.N.current */
	bool exists;                    /* open_path exists now */
	int origin;                     /* enum discover_origin */
};

/* A place where the JVM's crash report can appear. */
struct jvm_crash_file {
	char path[DISCOVER_PATH];       /* as the JVM sees it */
	char open_path[DISCOVER_PATH];  /* as this process opens it */
	const char *why;                /* "-XX:ErrorFile", "working directory", "/tmp fallback" */
};

struct jvm_opt {
	char *arg;                      /* one JVM option, e.g. "-Xmx64m" */
	int origin;                     /* enum discover_origin */
};

struct jvm_proc {
	int pid;                        /* on this side (every /proc path) */
	int nspid;                      /* the pid the JVM sees (getpid(), %p): the last field of
					   NSpid: in /proc/PID/status; pid outside a pid namespace */
	char hostname[256];             /* %hn: the host name of its uts namespace, "" not known */
	char hostname_from[160];         /* where it came from ("gethostname", "its uts namespace",
					   "/etc/hostname in its root"), or why it is not known */
	char zone[DISCOVER_PATH + 8];   /* its zone as a TZ value (%t is in its local time):
					   ":/proc/PID/root/etc/localtime", its TZ, "UTC0"; "" = ours
					   (its environ unreadable) */
	char names_note[400];           /* a placeholder in a file name that could not be known
					   from its namespaces (and so was looked for by pattern): say it */
	bool is_jvm;                    /* java executable, argv[0] "java" or libjvm.so mapped */
	char not_jvm[400];              /* when not: why, and the JVMs that do run here (see discover_pick) */
	unsigned uid;
	char user[32];                  /* from <root>/etc/passwd, else the number */
	char exe[DISCOVER_PATH];        /* /proc/PID/exe target, "" if unreadable */
	char java_home[DISCOVER_PATH];
	char java_version[48];          /* JAVA_VERSION of <java_home>/release, "" unknown */
	int java_feature;               /* 8, 11, 17, 21, ...; 0 unknown */
	char cwd[DISCOVER_PATH];        /* working directory ("" if unreadable) */
	int cwd_errno;                  /* why /proc/PID/cwd could not be read (EACCES as non-root), 0 */
	int64_t start_ms;               /* process start, UTC epoch ms (boot time = now - /proc/uptime) */
	bool other_mntns;               /* JVM in another mount namespace than us */
	bool environ_read;              /* /proc/PID/environ was readable */

	char **argv;                    /* /proc/PID/cmdline, verbatim */
	int argc;
	struct jvm_opt *opts;           /* JVM options in the order the JVM applies them */
	int nopts;
	char main[256];                 /* main class, "-jar app.jar" or "-m mod/cls"; "" none */

	struct jvm_log logs[DISCOVER_MAX_LOGS];
	int nlogs;
	int dropped_logs;               /* more -Xlog outputs than DISCOVER_MAX_LOGS */

	char error_file[DISCOVER_PATH];  /* where hs_err_pid<pid>.log appears (-XX:ErrorFile or cwd) */
	char error_open_path[DISCOVER_PATH];
	bool error_file_set;             /* from -XX:ErrorFile */
	char error_fallback[DISCOVER_PATH]; /* HotSpot's fallback when the first is not writable: /tmp */
	/* Every place, in the order HotSpot tries them (vmError.cpp prepare_log_file; each
	 * opened O_EXCL, so an existing file also moves it on): -XX:ErrorFile with %p and %%
	 * expanded (Arguments::copy_expand_pid; other %x kept), relative to the working
	 * directory; <cwd>/hs_err_pid<pid>.log (left out when the cwd is unreadable:
	 * cwd_errno says why); /tmp/hs_err_pid<pid>.log (os::get_temp_directory). */
	struct jvm_crash_file crash[DISCOVER_MAX_CRASH];
	int ncrash;

	int64_t xms, xmx;               /* bytes, -1 unset */
	int64_t periodic_gc_ms;         /* -XX:G1PeriodicGCInterval, -1 unset (0 = disabled) */
	int collector;                  /* enum jvm_collector from the flags; GC_UNKNOWN = ergonomic */
	int safepoint_timeout;          /* -XX:+/-SafepointTimeout: 1 / 0, -1 unset */
	int64_t safepoint_timeout_delay_ms; /* -1 unset */
	bool always_pretouch;
	char aot_cache[256];            /* -XX:AOTCache= / -XX:SharedArchiveFile= with AOT, "" none */
};

/* pids of JVM processes: exe or argv[0] basename "java", else libjvm.so in maps
 * (checked only for user processes whose name did not tell). Returns the number
 * found (pids[] gets at most max of them, ascending), or -errno if /proc is unreadable. */
int discover_java_pids(const char *root, int *pids, int max);

/* One JVM to choose among, as a person tells them apart. */
struct discover_candidate {
	int pid;
	char user[32];                  /* from <root>/etc/passwd, else the uid; "?" unreadable */
	char main[200];                 /* main class, "-jar app.jar" (the jar's file name) or "-m mod/cls";
					   the command line when it names none; sanitised, cut */
	int64_t start_ms;               /* process start, UTC epoch ms; -1 unknown */
	/* what tells two JVMs of one main class apart (issue 26): */
	char args[120];                 /* the application's own arguments, sanitised, cut; "" none */
	char ports[64];                 /* TCP ports it listens on, "8080 8443" ("" none or not readable) */
	char cgroup[96];                /* the last part of its cgroup path (a container's scope, a
					   service, a pod's container), "" at the root or unknown */
	int64_t xmx;                    /* -Xmx in bytes, -1 unset */
};

/* The JVMs discover_pick chooses among with no pid given (JDK tools left out),
 * ascending pid, at most max of them in out. Returns how many were written (a
 * process gone meanwhile is left out), or -errno when /proc cannot be listed.
 * The -EEXIST message of discover_pick and the dashboard's picker both list these. */
int discover_candidates(const char *root, struct discover_candidate *out, int max);

/* How long the process has run at now_ms: "3d04h", "2h13m", "5m20s", "42s"; "?"
 * when start_ms is unknown. Returns buf. */
char *discover_fmt_uptime(int64_t start_ms, int64_t now_ms, char *buf, size_t len);

/* Choose the JVM: want_pid > 0 must exist (0; msg then warns, one line, when it is
 * not a JVM: "process 1 (init) is not a JVM (executable /sbin/init, no libjvm.so
 * mapped): ... Java processes here: 4242 (stwtop --pid 4242)"; the caller must
 * show it); else the only JVM; else pid 1 when it is one of several JVMs (a
 * container); else -ESRCH (none) or -EEXIST (several), msg holding a human list
 * of the candidates "  PID  USER  UPTIME  MAIN" (discover_candidates) for the
 * user to pick one with --pid. */
int discover_pick(const char *root, int want_pid, int *pid, char *msg, size_t msglen);

/* Everything above about pid. 0, or -errno with a reason in err (the process is
 * gone, its cmdline unreadable). Missing details (environ, exe, cwd of another
 * user's process without root) are left empty, never fatal. Free with discover_fini. */
int discover_inspect(const char *root, int pid, struct jvm_proc *out, char *err, size_t errlen);
void discover_fini(struct jvm_proc *j);

/* Process start time in UTC epoch ms at now_ms: boot = now_ms - /proc/uptime,
 * plus /proc/PID/stat starttime / CLK_TCK. Accurate to ~10 ms, unlike btime
 * (whole seconds: up to 1 s early; see tests/samples/throttle/README.md). */
int discover_start_ms(const char *root, int pid, int64_t now_ms, int64_t *start_ms);

/* The user name of uid in a passwd(5) file (e.g. a container's, through
 * /proc/PID/root/etc/passwd): false when the file or the uid is not there. No NSS. */
bool discover_passwd_name(const char *passwd, unsigned uid, char *out, size_t len);

/* HotSpot expands file name patterns by three rules (checked against its sources):
 *  DNAME_XLOG       -Xlog file= (logFileOutput.cpp make_file_name), and -Xloggc on JDK 9+
 *                   (turned into -Xlog:gc:FILE): the FIRST %p (pid), %t (start time) and, JDK 23+
 *                   (JDK-8327410), %hn (host name) are replaced; later ones and %% stay as written.
 *  DNAME_XLOGGC8    JDK 8 -Xloggc (ostream.cpp make_log_name): in the base name only, the first
 *                   %p becomes "pid<N>" (not N) and the first %t the time.
 *  DNAME_ERRORFILE  -XX:ErrorFile (Arguments::copy_expand_pid): every %p, %% -> %, any other
 *                   %x kept. No %t, no %hn. */
enum discover_name_rule { DNAME_XLOG, DNAME_XLOGGC8, DNAME_ERRORFILE };

struct discover_name_ctx {
	int pid;                        /* as the JVM sees it (jvm_proc.nspid) */
	const char *start;              /* what %t becomes; NULL: kept as %t */
	const char *host;               /* what %hn becomes; NULL: kept (JDK < 23, or not known) */
};

/* pat expanded by rule into out (cut at len). */
void discover_expand_name(enum discover_name_rule rule, const char *pat, const struct discover_name_ctx *c,
			  char *out, size_t len);

/* The first log output that receives GC pause lines in a file, or NULL. */
const struct jvm_log *discover_gc_log(const struct jvm_proc *j);

/* What to add when a source is missing (no GC log file, no safepoint lines, no
 * periodic-GC lines while G1PeriodicGCInterval is set, uptime-only decorations,
 * no SafepointTimeout): one "- ..." line per item, with the exact flags for the
 * JVM's version (JDK 8: -Xloggc flags) and the jcmd command that enables it on
 * the running JVM where possible. For a process that is not a JVM, one item
 * saying so (j->not_jvm) and no JVM flags or jcmd. Returns the number of items
 * (0: nothing missing). */
int discover_advice(const struct jvm_proc *j, char *buf, size_t len);

#endif
