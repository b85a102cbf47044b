/* SPDX-License-Identifier: GPL-2.0-or-later */
/* app.c — from the command line to a running session (app.h). */
#include "app.h"
#include "ui.h"

#include "stwtop/discover.h"
#include "stwtop/metrics_srv.h"
#include "stwtop/probe.h"
#include "stwtop/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- the bundled demo --- */

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the demo recordings are: $STWTOP_DEMO_DIR, next to the installed
 * binary (../share/stwtop/demo), the configured data dir, the source tree. */
static bool find_demo_dir(const char *name, char *out, size_t len)
{
	char exe[PATH_MAX];
	const char *env = getenv("STWTOP_DEMO_DIR");
	if (env && env[0]) {
		snprintf(out, len, "%s/%s", env, name);
		if (is_dir(out))
			return true;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (snprintf(out, len, "%s/../share/stwtop/demo/%s", exe, name) < (int)len && is_dir(out))
				return true;
		}
	}
	snprintf(out, len, "%s/demo/%s", STWTOP_DATADIR, name);
	if (is_dir(out))
		return true;
	snprintf(out, len, "%s/data/demo/%s", STWTOP_SOURCE_DIR, name);
	return is_dir(out);
}

struct demo_spec {
	char title[200];
	char nginx_format[400];
};

/* data/demo/NAME/demo.conf: "KIND FILE" per source, "nginx-format FMT", "title TEXT" */
static int load_demo(struct session **sp, const char *dir, const struct rules_config *rc,
		     struct demo_spec *spec, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], line[1024];
	snprintf(path, sizeof path, "%s/demo.conf", dir);
	FILE *f = fopen(path, "re");
	if (!f) {
		if (snprintf(err, errlen, "%s: %s", path, strerror(errno)) >= (int)errlen)
			err[errlen - 1] = '\0';
		return -1;
	}
	struct { enum src_kind k; char file[256]; } srcs[16];
	int n = 0;
	memset(spec, 0, sizeof *spec);
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		char *arg = strchr(line, ' ');
		if (!arg)
			continue;
		*arg++ = '\0';
		if (strcmp(line, "title") == 0) {
			util_strlcpy_n(spec->title, sizeof spec->title, arg, strlen(arg));
			continue;
		}
		if (strcmp(line, "nginx-format") == 0) {
			util_strlcpy_n(spec->nginx_format, sizeof spec->nginx_format, arg, strlen(arg));
			continue;
		}
		int k = src_kind_from_name(line); /* the kind table's names ("gc" for jvm) */
		if (k < 0)
			continue;
		if (n < 16) {
			srcs[n].k = (enum src_kind)k;
			snprintf(srcs[n].file, sizeof srcs[n].file, "%s", arg);
			n++;
		}
	}
	fclose(f);
	struct session_opts o = {
		.keep_lines = true,
		.nginx_format = spec->nginx_format[0] ? spec->nginx_format : NULL,
		.jvm_start_ms = EV_TIME_NONE,
		.rules = rc,
	};
	struct session *s = session_new(&o, err, errlen);
	if (!s)
		return -1;
	for (int i = 0; i < n; i++) {
		char p[PATH_MAX + 300];
		snprintf(p, sizeof p, "%s/%s", dir, srcs[i].file);
		if (session_add_source(s, srcs[i].k, p, err, errlen) < 0) {
			session_free(s);
			return -1;
		}
	}
	*sp = s;
	return 0;
}

/* --- discovery --- */

void app_on_unparsed(void *ctx, int src, const char *src_name, uint64_t line, const char *why)
{
	static unsigned told[64];
	(void)ctx;
	unsigned k = src >= 0 && src < 64 ? (unsigned)src : 63;
	if (told[k] > APP_VERBOSE_MAX)
		return;
	char name[200];
	util_sanitize(name, sizeof name, src_name, strlen(src_name));
	if (told[k]++ == APP_VERBOSE_MAX)
		fprintf(stderr, "stwtop: %s: more lines did not parse; the first %d were told (the report counts "
			"them all)\n", name, APP_VERBOSE_MAX);
	else
		fprintf(stderr, "stwtop: %s:%llu: did not parse: %s\n", name, (unsigned long long)line, why);
}

/* A report on a JVM started with no logging flags: one read of its counters
 * gives what jstat would, since the JVM started. Not finding them is said as
 * the source's note when logs were given too (they may be enough), and as its
 * error when the counters were all there was to read (exit 1, and the report
 * does not say "nothing abnormal" about nothing). */
static void counters_once(struct session *s, int pid, bool alone)
{
	char why[1400], err[256];
	int src = session_add_source(s, SRC_PROBE, "hsperfdata", err, sizeof err);
	if (src < 0)
		return;
	struct hsperf_probe *p = hsperf_probe_open("", pid, why, sizeof why);
	if (!p) {
		session_source_note(s, src, why, alone);
		return;
	}
	struct event e;
	if (hsperf_probe_snapshot(p, util_now_ms(), &e) == 1) {
		session_feed_event(s, src, &e);
	} else {
		char msg[1500];
		snprintf(msg, sizeof msg, "no JVM counters: %s", hsperf_probe_why(p));
		session_source_note(s, src, msg, alone);
	}
	hsperf_probe_close(p);
}

int app_add_probes_once(struct session *s, const struct cli *c, char *err, size_t errlen)
{
	if (c->pid <= 0)
		return 0;
	counters_once(s, c->pid, c->nsrc == 0);
	if (c->jvm_start_ms != EV_TIME_NONE)
		return 0;
	struct jvm_proc j;
	if (discover_inspect("", c->pid, &j, err, errlen) != 0)
		return -1;
	if (j.start_ms > 0) {
		char how[80];
		snprintf(how, sizeof how, "the start time of process %d", c->pid);
		session_set_jvm_anchor(s, j.start_ms, how);
	}
	discover_fini(&j);
	return 0;
}

/* what the header says about the JVM: its main class, a jar by its file name */
static void jvm_brief(const struct jvm_proc *j, struct ui_info *info)
{
	info->pid = j->pid;
	info->jvm_start_ms = j->start_ms;
	const char *m = j->main;
	if (strncmp(m, "-jar ", 5) == 0) {
		const char *slash = strrchr(m + 5, '/');
		snprintf(info->jvm_main, sizeof info->jvm_main, "-jar %s", slash ? slash + 1 : m + 5);
	} else {
		snprintf(info->jvm_main, sizeof info->jvm_main, "%s", m);
	}
}

/* Build the sources of a live run. Without any, find the JVM and its logs.
 * NULL with *code 1 when no JVM could be found or inspected, 2 when the
 * options cannot make a session (a bad --nginx-conf or --nginx-format), as
 * --report says for the same options, or when several JVMs run and none was
 * chosen (err lists them: --pid PID is the way on). With pick_term (the
 * dashboard), several JVMs are put on the screen to choose from; the chosen
 * one is watched as --pid would, and the terminal is left started in
 * info->term. */
static struct session *live_session(const struct cli *c, const struct rules_config *rc, int *pid,
				    char *hs_dir, size_t hs_len, int *hs_pid, struct ui_info *info, struct ui_term *pick_term,
				    int *code, char *err, size_t errlen)
{
	*code = 1;
	struct jvm_proc j;
	bool have_j = false;
	*pid = c->pid;
	hs_dir[0] = '\0';
	char msg[2048];
	msg[0] = '\0';
	if (c->nsrc == 0 && !c->cgroup) {
		int p = 0;
		int rc2 = discover_pick("", c->pid, &p, msg, sizeof msg);
		if (rc2 == -EEXIST && pick_term) {
			/* no usable terminal (or q): the list below, as --plain says it */
			char why[512];
			int chosen = picker_run(pick_term, "", why, sizeof why);
			if (chosen > 0) {
				info->term = pick_term;
				rc2 = discover_pick("", chosen, &p, msg, sizeof msg);
			} else if (chosen == 0) {
				/* q after a while: the list as it is now (the uptimes moved
				 * on), unless it no longer needs a choice */
				char now[sizeof msg];
				int again = 0;
				if (discover_pick("", 0, &again, now, sizeof now) == -EEXIST)
					snprintf(msg, sizeof msg, "%s", now);
			}
		}
		if (rc2 != 0) {
			snprintf(err, errlen, "%s", msg);
			/* several JVMs and none chosen: the command line must say which */
			if (rc2 == -EEXIST)
				*code = 2;
			return NULL;
		}
		*pid = p;
	}
	if (*pid > 0) {
		char why[512];
		if (discover_inspect("", *pid, &j, why, sizeof why) == 0) {
			have_j = true;
			jvm_brief(&j, info);
		} else if (c->nsrc == 0) {
			snprintf(err, errlen, "%s", why);
			return NULL;
		}
	}
	struct session_opts o = {
		.keep_lines = true,
		.nginx_format = c->nginx_format,
		.nginx_conf = c->nginx_conf,
		.jvm_start_ms = c->jvm_start_ms,
		.rules = rc,
		.verbose = c->verbose,
		.on_unparsed = app_on_unparsed,
	};
	if (have_j) {
		if (o.jvm_start_ms == EV_TIME_NONE && j.start_ms > 0)
			o.jvm_start_ms = j.start_ms;
		o.explicit_serial = j.collector == GC_SERIAL;
	}
	struct session *s = session_new(&o, err, errlen);
	if (!s) {
		if (have_j)
			discover_fini(&j);
		*code = 2;
		return NULL;
	}
	/* what the pick said (a --pid that is not a JVM, the JVM chosen among
	 * several) goes where the user looks: the screen, or --plain's start */
	if (msg[0])
		session_add_hint(s, msg);
	for (int i = 0; i < c->nsrc; i++)
		if (session_add_source(s, c->src[i].kind, c->src[i].path, err, errlen) < 0) {
			session_free(s);
			if (have_j)
				discover_fini(&j);
			*code = 2;
			return NULL;
		}
	if (have_j) {
		/* the JVM's own logs, unless the user named files */
		bool named_jvm = false;
		for (int i = 0; i < c->nsrc; i++)
			if (c->src[i].kind == SRC_JVM)
				named_jvm = true;
		if (!named_jvm)
			for (int i = 0; i < j.nlogs; i++)
				if (j.logs[i].open_path[0]) /* a file, or the file stdout goes to */
					session_add_source(s, SRC_JVM, j.logs[i].open_path, err, errlen);
		/* hs_err_pid<pid>.log appears next to -XX:ErrorFile, else in the cwd */
		const char *ef = j.error_open_path[0] ? j.error_open_path : j.error_file;
		const char *slash = strrchr(ef, '/');
		if (slash && slash > ef)
			util_strlcpy_n(hs_dir, hs_len, ef, (size_t)(slash - ef));
		*hs_pid = j.nspid; /* its name carries the pid the JVM sees */
		/* no GC log: the advice (which -Xlog to add) comes from the live
		 * engine's session_hints(), shown by the view */
		discover_fini(&j);
	}
	return s;
}

/* the picker's terminal, when a run ends before the dashboard takes it over:
 * given back first, so that the message after it reaches the user */
static void picked_term_end(struct ui_info *info)
{
	if (info->term)
		ui_term_end(info->term);
	info->term = NULL;
}

int app_run_live(const struct cli *c, const struct rules_config *rc)
{
	char err[2048];
	struct session *s = NULL;
	struct live_opts lo = {
		.interval_ms = c->interval_ms,
		.cgroup = c->cgroup,
		.record = c->record,
		.proc_root = "",
		.demo_speed = c->demo_speed,
	};
	char hs_dir[4096];
	struct demo_spec spec;
	struct app_health health = {{false}};
	struct ui_info info = {.health = &health};
	struct ui_term pick_term;
	if (c->mode == CLI_DEMO) {
		char dir[PATH_MAX];
		const char *name = c->demo_name ? c->demo_name : "throttle-stop";
		if (!find_demo_dir(name, dir, sizeof dir)) {
			fprintf(stderr, "stwtop: demo '%s' not found (looked in $STWTOP_DEMO_DIR, "
				"../share/stwtop/demo next to the binary, %s/demo, %s/data/demo)\n", name,
				STWTOP_DATADIR, STWTOP_SOURCE_DIR);
			return 1;
		}
		if (load_demo(&s, dir, rc, &spec, err, sizeof err) != 0) {
			fprintf(stderr, "stwtop: demo: %s\n", err);
			return 1;
		}
		lo.demo = true;
		info.demo_title = spec.title[0] ? spec.title : name;
	} else {
		int pid = 0, hs_pid = 0, code = 1;
		s = live_session(c, rc, &pid, hs_dir, sizeof hs_dir, &hs_pid, &info, c->plain ? NULL : &pick_term, &code, err,
				 sizeof err);
		if (!s) {
			picked_term_end(&info);
			fprintf(stderr, "stwtop: %s\n", err);
			return code;
		}
		lo.pid = pid;
		lo.enable_jvm_logging = c->enable_jvm_logging;
		if (hs_dir[0]) {
			lo.hs_err_dir = hs_dir;
			lo.hs_err_pid = hs_pid > 0 ? hs_pid : pid;
		}
	}
	struct live *l = live_new(s, &lo, err, sizeof err);
	if (!l) {
		picked_term_end(&info);
		fprintf(stderr, "stwtop: %s\n", err);
		session_free(s);
		return 1;
	}
	struct metrics_srv *ms = NULL;
	if (c->metrics || c->metrics_textfile) {
		struct metrics_srv_opts mo = {
			.addr = c->metrics,
			.textfile = c->metrics_textfile,
			.interval_ms = c->interval_ms,
		};
		ms = metrics_srv_new(live_loop(l), s, &mo, err, sizeof err);
		if (!ms) {
			/* a port taken or a directory not writable: the command line asked
			 * for something this machine cannot give, as a bad argument */
			picked_term_end(&info);
			fprintf(stderr, "stwtop: %s\n", err);
			live_free(l);
			session_free(s);
			return 2;
		}
	}
	int rc_run;
	char why[256] = "";
	if (c->plain) {
		rc_run = plain_run(l, s, c, &health);
	} else {
		rc_run = ui_run(l, s, c, &info, why, sizeof why);
		if (rc_run == -1) {
			/* no usable terminal: line mode instead of a crash */
			fprintf(stderr, "stwtop: %s; using line mode (--plain)\n", why);
			rc_run = plain_run(l, s, c, &health);
		}
	}
	/* the logging turned on in the JVM is turned off again, and said where the
	 * user sees it now that the screen is gone */
	char jmsg[1600];
	int jrc = live_disable_jvm_logging(l, jmsg, sizeof jmsg);
	if (jmsg[0]) {
		char safe[1700];
		util_sanitize(safe, sizeof safe, jmsg, strlen(jmsg));
		fprintf(stderr, "stwtop: %s%s\n", jrc < 0 ? "could not turn JVM logging off: " : "", safe);
	}
	/* exit 1 when a file source cannot be read as the run ends: said again now
	 * that the screen is gone, since the dashboard's message may have gone by.
	 * A polled cgroup that gave samples and then went away is how a container
	 * ends, not a source given wrong (a --cgroup that never was one): its
	 * samples are kept and it was said when it happened. */
	if (rc_run == 0)
		for (int i = 0; i < session_nsources(s) && i < APP_HEALTH_MAX; i++) {
			if (!health.bad[i] ||
			    (session_source_kind(s, i) == SRC_PROBE && session_source_stats(s, i)->events > 0))
				continue;
			/* the note names the path already when the tailer made it */
			const struct source_stats *st = session_source_stats(s, i);
			const char *path = session_source_path(s, i);
			char said[1200], safe[1400];
			if (strncmp(st->note, path, strlen(path)) == 0)
				snprintf(said, sizeof said, "%s", st->note);
			else
				snprintf(said, sizeof said, "%s%s%s", path, st->note[0] ? ": " : "", st->note);
			util_sanitize(safe, sizeof safe, said, strlen(said));
			fprintf(stderr, "stwtop: could not read %s\n", safe);
			rc_run = 1;
		}
	metrics_srv_free(ms);   /* the file's last write: the run's final state */
	live_free(l);
	session_free(s);
	return rc_run;
}
