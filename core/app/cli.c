/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.c — the command line (cli.h) as one table, as tmux's cmd_entry tables
 * make its commands: each row of cli_table[] is one option, and getopt_long's
 * array, the --help list and the checks of each value are made from the rows.
 * doc/stwtop.1 is the one copy not made from it: tests/unit/test_cli_table.c
 * holds its OPTIONS list and --help to the table. Every error is one line
 * naming the option; the caller prints it and exits 2. */
#include "stwtop/cli.h"
#include "stwtop/metrics_srv.h"
#include "stwtop/reader.h"
#include "stwtop/util.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* what parsing knows that struct cli does not keep: the mode is decided at the end */
struct cli_state {
	struct cli *c;
	bool report, demo;
};

/* what the generic code does with an option's value */
enum cli_kind {
	CLI_K_SOURCE,   /* add a source of kind .src */
	CLI_K_STR,      /* keep the value in the const char * at .off */
	CLI_K_STR_SET,  /* the same, but not empty: "the .what is empty" */
	CLI_K_FLAG,     /* set the bool at .off */
	CLI_K_INT,      /* an int in [.min, .max] at .off, else "'V' is not .what" */
	CLI_K_MODE,     /* stop parsing: the mode .mode (print something and exit) */
	CLI_K_FN,       /* .fn checks and keeps it; when it fails, "'V' is not .what",
			 * or without .what the reason fn wrote */
};

/* where --help lists an option */
enum cli_sec {
	CLI_SEC_SOURCES,
	CLI_SEC_OTHER,
	CLI_SEC_TOLD,   /* no line of its own: the usage lines at the top tell it, or
			 * (--help-config) the line of the option it serves */
};

struct cli_entry {
	const char *name;       /* the long name, without "--" */
	const char *alias;      /* another spelling getopt takes, not shown; NULL: none */
	char short_name;        /* -X; 0: none */
	const char *arg;        /* the value's name in --help; NULL: no value; "[=NAME]": optional */
	enum cli_sec sec;
	bool join;              /* on the line of the row above: "--gc FILE, --safepoint FILE" */
	const char *help;       /* the --help text; each '\n' starts an indented line */
	enum cli_kind kind;
	size_t off;             /* STR, STR_SET, FLAG, INT: offsetof(struct cli, field) */
	enum src_kind src;      /* SOURCE */
	long min, max;          /* INT */
	const char *what;       /* STR_SET: what is empty; INT, FN: what a bad value is not */
	enum cli_mode mode;     /* MODE */
	bool (*fn)(struct cli_state *st, const char *arg, char *err, size_t errlen);
};

static bool add_source(struct cli *c, enum src_kind k, const char *path, const char *opt, char *err,
		       size_t errlen)
{
	if (c->nsrc >= CLI_MAX_SOURCES) {
		snprintf(err, errlen, "%s: too many sources (at most %d)", opt, CLI_MAX_SOURCES);
		return false;
	}
	if (!path[0]) {
		snprintf(err, errlen, "%s: the file name is empty", opt);
		return false;
	}
	/* one stream cannot feed two sources: each would get a random half of it */
	for (int i = 0; reader_path_is_stdin(path) && i < c->nsrc; i++)
		if (reader_path_is_stdin(c->src[i].path)) {
			snprintf(err, errlen, "%s %s: standard input is already the source '%s': only one source "
				 "can read it (give the others as files, or as <(command))", opt, path, c->src[i].path);
			return false;
		}
	c->src[c->nsrc].kind = k;
	c->src[c->nsrc].path = path;
	c->nsrc++;
	return true;
}

static bool parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* epoch ms, ISO 8601, or a file whose first line is one of those */
static bool parse_jvm_start(const char *arg, int64_t *out)
{
	char buf[128];
	const char *s = arg;
	FILE *f = NULL;
	if (!((arg[0] >= '0' && arg[0] <= '9') && (strlen(arg) == 13 || strchr(arg, 'T')))) {
		f = fopen(arg, "r");
		if (!f)
			return false;
		if (!fgets(buf, sizeof buf, f)) {
			fclose(f);
			return false;
		}
		fclose(f);
		buf[strcspn(buf, "\r\n ")] = '\0';
		s = buf;
	}
	size_t n = strlen(s);
	uint64_t ms;
	bool zone;
	if (util_parse_u64(s, n, &ms) == n && n >= 12 && n <= 14) {
		*out = (int64_t)ms;
		return true;
	}
	int64_t t;
	if (util_parse_iso8601(s, n, &t, &zone) == n) {
		*out = t;
		return true;
	}
	return false;
}

static bool opt_report(struct cli_state *st, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	st->report = true;
	return true;
}

static bool opt_demo(struct cli_state *st, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	st->demo = true;
	st->c->demo_name = arg;
	return true;
}

static bool opt_demo_speed(struct cli_state *st, const char *arg, char *err, size_t errlen)
{
	char *end;
	(void)err, (void)errlen;
	double d = strtod(arg, &end);
	if (end == arg || *end || !(d > 0 && d <= 1000))
		return false;
	st->c->demo_speed = d;
	return true;
}

static bool opt_jvm_start(struct cli_state *st, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	return parse_jvm_start(arg, &st->c->jvm_start_ms);
}

static bool opt_tz(struct cli_state *st, const char *arg, char *err, size_t errlen)
{
	if (util_tz_set(arg, err, errlen) < 0)
		return false;
	st->c->tz = arg;
	return true;
}

static bool opt_metrics(struct cli_state *st, const char *arg, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	if (metrics_parse_addr(arg, &ss, &sl, err, errlen) != 0)
		return false;
	st->c->metrics = arg;
	return true;
}

#define F(field) offsetof(struct cli, field)

/* In --help's order; the modes first (the usage lines tell them). */
static const struct cli_entry cli_table[] = {
	{.name = "report", .sec = CLI_SEC_TOLD, .kind = CLI_K_FN, .fn = opt_report},
	{.name = "demo", .arg = "[=NAME]", .sec = CLI_SEC_TOLD, .kind = CLI_K_FN, .fn = opt_demo},

	{.name = "gc", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE, .src = SRC_JVM,
	 .help = "JVM GC/safepoint log or console log; every JDK 8-25 format is\n"
		 "detected per line (unified -Xlog with any decorations,\n"
		 "PrintGCDetails, PrintSafepointStatistics, SafepointTimeout)\n"
		 "A FILE of any source may be gzip/zstd-compressed (--report),\n"
		 "'-' (stdin, for one source), or a pipe: <(xzcat gc.log.1.xz)"},
	{.name = "safepoint", .arg = "FILE", .sec = CLI_SEC_SOURCES, .join = true, .kind = CLI_K_SOURCE,
	 .src = SRC_JVM},
	{.name = "nginx", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE, .src = SRC_NGINX,
	 .help = "nginx access log"},
	{.name = "nginx-format", .arg = "'FMT'", .sec = CLI_SEC_SOURCES, .kind = CLI_K_STR_SET,
	 .off = F(nginx_format), .what = "format string",
	 .help = "its log_format string (default: detected, else combined)"},
	{.name = "nginx-conf", .arg = "FILE[:NAME]", .sec = CLI_SEC_SOURCES, .kind = CLI_K_STR,
	 .off = F(nginx_conf),
	 .help = "read log_format NAME from an nginx config (includes followed)"},
	{.name = "pid", .arg = "PID", .sec = CLI_SEC_SOURCES, .kind = CLI_K_INT, .off = F(pid),
	 .min = 1, .max = 4194304, .what = "a process id",
	 .help = "poll /proc/PID/task/*/schedstat and PID's cgroup; anchors\n"
		 "uptime-only JVM logs to the process start"},
	{.name = "cgroup", .arg = "DIR", .sec = CLI_SEC_SOURCES, .kind = CLI_K_STR, .off = F(cgroup),
	 .help = "poll this cgroup (v1 cpu dir or v2 dir)"},
	{.name = "cpustat-log", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE,
	 .src = SRC_CPUSTAT,
	 .help = "recorded samples: '<ISO time> nr_periods N nr_throttled N\n"
		 "throttled_time N ...' (a time without offset, as\n"
		 "`date +%FT%T` prints it, is local time: set TZ)"},
	{.name = "schedstat-log", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE,
	 .src = SRC_SCHEDLOG,
	 .help = "recorded per-thread schedstat CSV\n"
		 "(epoch_ms,tid,comm,run_ns,wait_ns,timeslices)"},
	{.name = "vmstat-log", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE,
	 .src = SRC_VMSTATLOG,
	 .help = "recorded '<epoch_ms> allocstall_dma N ... pageoutrun N'"},
	{.name = "hs-err", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE, .src = SRC_HSERR,
	 .help = "a JVM crash report (hs_err_pid*.log)"},
	{.name = "record", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_STR, .off = F(record),
	 .help = "append every polled sample as NDJSON"},
	{.name = "replay", .arg = "FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_SOURCE, .src = SRC_RECORD,
	 .help = "read samples written by --record"},
	{.name = "jvm-start", .arg = "TIME|FILE", .sec = CLI_SEC_SOURCES, .kind = CLI_K_FN,
	 .fn = opt_jvm_start,
	 .what = "an epoch ms, an ISO 8601 time, or a readable file starting with one",
	 .help = "wall clock of JVM uptime 0 (epoch ms, ISO 8601, or a file whose\n"
		 "first line is one) for logs that carry only uptime"},

	{.name = "interval", .arg = "MS", .sec = CLI_SEC_OTHER, .kind = CLI_K_INT, .off = F(interval_ms),
	 .min = 10, .max = 3600000, .what = "a number of milliseconds (10..3600000)",
	 .help = "polling and status interval (default 1000)"},
	{.name = "plain", .sec = CLI_SEC_OTHER, .kind = CLI_K_FLAG, .off = F(plain),
	 .help = "line mode: verdicts and a status line per interval"},
	{.name = "json", .sec = CLI_SEC_OTHER, .kind = CLI_K_FLAG, .off = F(json),
	 .help = "with --report: the report as JSON; with --plain: NDJSON"},
	{.name = "brief", .sec = CLI_SEC_OTHER, .kind = CLI_K_FLAG, .off = F(brief),
	 .help = "with --report: at most 12 lines, no colour: each incident's\n"
		 "headline verdict, one line of numbers, what was not checked"},
	{.name = "tz", .arg = "utc|local|Area/City", .sec = CLI_SEC_OTHER, .kind = CLI_K_FN, .fn = opt_tz,
	 .help = "the zone times are shown in, with their offset (default utc;\n"
		 "the z key switches utc/local on the screen); JSON stays UTC"},
	{.name = "theme", .arg = "NAME|FILE", .sec = CLI_SEC_OTHER, .kind = CLI_K_STR, .off = F(theme),
	 .help = "colour theme (dark, light, mono, or a JSON file)"},
	{.name = "no-color", .alias = "no-colour", .sec = CLI_SEC_OTHER, .kind = CLI_K_FLAG,
	 .off = F(no_color),
	 .help = "no colours (also when NO_COLOR is set and not empty)"},
	{.name = "config", .arg = "FILE", .sec = CLI_SEC_OTHER, .kind = CLI_K_STR, .off = F(config),
	 .help = "override verdict thresholds (JSON); --help-config lists them"},
	{.name = "help-config", .sec = CLI_SEC_TOLD, .kind = CLI_K_MODE, .mode = CLI_HELP_CONFIG},
	{.name = "demo-speed", .arg = "X", .sec = CLI_SEC_OTHER, .kind = CLI_K_FN, .fn = opt_demo_speed,
	 .what = "a speed factor (0 < X <= 1000)",
	 .help = "demo pace (default 4 = four times real time)"},
	{.name = "verbose", .sec = CLI_SEC_OTHER, .kind = CLI_K_FLAG, .off = F(verbose),
	 .help = "say why lines did not parse"},
	{.name = "metrics", .arg = "[ADDR:]PORT", .sec = CLI_SEC_OTHER, .kind = CLI_K_FN, .fn = opt_metrics,
	 .help = "serve Prometheus metrics at http://ADDR:PORT/metrics from\n"
		 "the live run (--plain, the dashboard, --demo); ADDR defaults\n"
		 "to 127.0.0.1 (PORT or :PORT); 0.0.0.0:PORT for every address,\n"
		 "[::1]:PORT for IPv6 (docs/metrics.md)"},
	{.name = "metrics-textfile", .arg = "FILE", .sec = CLI_SEC_OTHER, .kind = CLI_K_STR_SET,
	 .off = F(metrics_textfile), .what = "file name",
	 .help = "write the same metrics to FILE every interval and at exit,\n"
		 "atomically (for node_exporter's textfile collector)"},
	{.name = "enable-jvm-logging", .sec = CLI_SEC_OTHER, .kind = CLI_K_FLAG,
	 .off = F(enable_jvm_logging),
	 .help = "live, with the JVM's pid: turn on its GC + safepoint logging\n"
		 "(attach API, VM.log to /tmp/stwtop-gc-PID.log, 5 x 20 MB)\n"
		 "and follow that file; the output is removed at exit (the L\n"
		 "key does the same after a y/N question)"},
	{.name = "help", .sec = CLI_SEC_OTHER, .kind = CLI_K_MODE, .mode = CLI_HELP},
	{.name = "version", .sec = CLI_SEC_OTHER, .join = true, .kind = CLI_K_MODE, .mode = CLI_VERSION},
};

#undef F

#define CLI_NROWS (sizeof cli_table / sizeof cli_table[0])
#define CLI_HELP_COL 31 /* where the --help text starts: "  " + the label + at least 2 spaces */

const char *cli_option_name(int i, const char **alias)
{
	if (i < 0 || (size_t)i >= CLI_NROWS)
		return NULL;
	if (alias)
		*alias = cli_table[i].alias;
	return cli_table[i].name;
}

/* an argument spelled "[=NAME]" is optional, as getopt_long writes it */
static int entry_has_arg(const struct cli_entry *e)
{
	if (!e->arg)
		return no_argument;
	return strncmp(e->arg, "[=", 2) == 0 ? optional_argument : required_argument;
}

/* getopt_long's view of the table: a long option per name and alias (val:
 * 256 + the row), the short ones in shorts ("+": stop at the first non-option) */
static void cli_getopt_build(struct option *opts, char *shorts)
{
	size_t n = 0, k = 0;
	shorts[k++] = '+';
	for (size_t i = 0; i < CLI_NROWS; i++) {
		const struct cli_entry *e = &cli_table[i];
		struct option o = {e->name, entry_has_arg(e), NULL, 256 + (int)i};
		opts[n++] = o;
		if (e->alias) {
			o.name = e->alias;
			opts[n++] = o;
		}
		if (e->short_name) {
			shorts[k++] = e->short_name;
			if (o.has_arg != no_argument)
				shorts[k++] = ':';
			if (o.has_arg == optional_argument)
				shorts[k++] = ':';
		}
	}
	memset(&opts[n], 0, sizeof opts[n]);
	shorts[k] = '\0';
}

/* the row getopt_long returned o for, NULL: an error ('?') */
static const struct cli_entry *cli_entry_of(int o)
{
	if (o >= 256 && (size_t)(o - 256) < CLI_NROWS)
		return &cli_table[o - 256];
	for (size_t i = 0; o != '?' && i < CLI_NROWS; i++)
		if (cli_table[i].short_name == o)
			return &cli_table[i];
	return NULL;
}

/* "--name ARG" (or "--name[=ARG]") after sep, into buf; its length */
static size_t entry_label(const struct cli_entry *e, const char *sep, char *buf, size_t len)
{
	int w = snprintf(buf, len, "%s--%s%s%s", sep, e->name,
			 e->arg && entry_has_arg(e) == required_argument ? " " : "", e->arg ? e->arg : "");
	return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
}

void cli_usage(FILE *out)
{
	static const char *const title[] = {
		[CLI_SEC_SOURCES] = "Sources (repeatable)",
		[CLI_SEC_OTHER] = "Other options",
	};
	fputs("usage: stwtop [SOURCES] [OPTIONS]          live dashboard (no source: find the JVM)\n"
	      "       stwtop --demo[=NAME]                replay a bundled real incident: throttle-stop\n"
	      "                                           (the default) or gc-stop (--demo=gc-stop)\n"
	      "       stwtop --report [--json] SOURCES    read the sources once, print summary + verdicts\n"
	      "       stwtop --report --brief SOURCES     the same in at most 12 lines, to paste in a chat\n",
	      out);
	int sec = -1;
	for (size_t i = 0; i < CLI_NROWS; i++) {
		const struct cli_entry *e = &cli_table[i];
		if (e->sec == CLI_SEC_TOLD || e->join)
			continue;
		if ((int)e->sec != sec) {
			sec = (int)e->sec;
			fprintf(out, "\n%s:\n", title[sec]);
		}
		char label[128];
		size_t n = entry_label(e, "", label, sizeof label);
		for (size_t j = i + 1; j < CLI_NROWS && cli_table[j].join; j++)
			n += entry_label(&cli_table[j], ", ", label + n, sizeof label - n);
		if (!e->help) {
			fprintf(out, "  %s\n", label);
			continue;
		}
		fprintf(out, "  %-*s", CLI_HELP_COL - 2, label);
		for (const char *h = e->help;;) {
			size_t k = strcspn(h, "\n");
			fprintf(out, "%.*s\n", (int)k, h);
			if (!h[k])
				break;
			h += k + 1;
			fprintf(out, "%*s", CLI_HELP_COL, "");
		}
	}
	fputs("\nExit codes: 0 ok, 1 a source could not be read, 2 usage error.\n", out);
}

/* check and keep one option's value; false: a usage error, its message in err */
static bool entry_apply(struct cli_state *st, const struct cli_entry *e, const char *arg,
			const char *optname, char *err, size_t errlen)
{
	char *field = (char *)st->c + e->off;
	long v;
	switch (e->kind) {
	case CLI_K_SOURCE:
		return add_source(st->c, e->src, arg, optname, err, errlen);
	case CLI_K_STR_SET:
		if (!arg[0]) {
			snprintf(err, errlen, "%s: the %s is empty", optname, e->what);
			return false;
		}
		/* fall through */
	case CLI_K_STR:
		*(const char **)(void *)field = arg;
		return true;
	case CLI_K_FLAG:
		*(bool *)(void *)field = true;
		return true;
	case CLI_K_INT:
		if (!parse_int(arg, e->min, e->max, &v))
			break;
		*(int *)(void *)field = (int)v;
		return true;
	case CLI_K_MODE:
		st->c->mode = e->mode;
		return true;
	case CLI_K_FN:
		if (e->fn(st, arg, err, errlen))
			return true;
		if (!e->what)
			return false;
		break;
	}
	snprintf(err, errlen, "%s: '%s' is not %s", optname, arg, e->what);
	return false;
}

/* getopt_long said '?': an unknown option, or a known one without its value */
static int cli_bad_option(const struct option *opts, char **argv, char *err, size_t errlen)
{
	const char *bad = argv[optind - 1];
	if (optopt && optopt < 256) {
		const struct cli_entry *e = cli_entry_of(optopt);
		if (e && entry_has_arg(e) == required_argument)
			snprintf(err, errlen, "-%c needs a value", optopt);
		else
			snprintf(err, errlen, "unknown option '-%c' (see stwtop --help)", optopt);
	} else if (bad && strncmp(bad, "--", 2) == 0) {
		/* a known long option missing its value, or an unknown one */
		char nm[64];
		util_strlcpy_n(nm, sizeof nm, bad + 2, strcspn(bad + 2, "="));
		for (const struct option *p = opts; p->name; p++)
			if (strcmp(p->name, nm) == 0 && p->has_arg == required_argument) {
				snprintf(err, errlen, "--%s needs a value", nm);
				return 2;
			}
		snprintf(err, errlen, "unknown option '%s' (see stwtop --help)", bad);
	} else {
		snprintf(err, errlen, "unknown option '%s' (see stwtop --help)", bad ? bad : "?");
	}
	return 2;
}

/* the options that do not go together, and the mode; checked in this order,
 * the first that applies is the message */
static int cli_combine(struct cli_state *st, char *err, size_t errlen)
{
	struct cli *c = st->c;
	if (st->report && st->demo) {
		snprintf(err, errlen, "--report and --demo cannot be combined");
		return 2;
	}
	if (c->brief && !st->report) {
		snprintf(err, errlen, "--brief needs --report (it shortens the report to 12 lines for a chat)");
		return 2;
	}
	if (c->brief && c->json) {
		snprintf(err, errlen, "--brief and --json cannot be combined: --brief is text for a chat, "
			 "--json the whole report for programs");
		return 2;
	}
	if (st->report) {
		c->mode = CLI_REPORT;
		if (c->nsrc == 0 && !c->pid && !c->cgroup) {
			snprintf(err, errlen, "--report needs at least one source (--gc, --nginx, --cpustat-log, ...)");
			return 2;
		}
		if (c->plain) {
			snprintf(err, errlen, "--plain is for live mode; --report already prints text");
			return 2;
		}
		if (c->metrics || c->metrics_textfile) {
			snprintf(err, errlen, "%s is for live mode (--plain, the dashboard, --demo); --report "
				 "prints its numbers once (--json)", c->metrics ? "--metrics" : "--metrics-textfile");
			return 2;
		}
		if (c->enable_jvm_logging) {
			snprintf(err, errlen, "--enable-jvm-logging is for live mode: it turns logging on in a "
				 "running JVM and follows the file while stwtop runs");
			return 2;
		}
		if (c->record) {
			/* a report polls nothing: it would write an empty recording and say nothing */
			snprintf(err, errlen, "--record is for live mode (it records the samples polled while "
				 "stwtop runs); --report reads files once");
			return 2;
		}
	} else if (st->demo) {
		c->mode = CLI_DEMO;
		if (c->enable_jvm_logging) {
			snprintf(err, errlen, "--enable-jvm-logging is for live mode with a JVM, not --demo");
			return 2;
		}
	} else {
		c->mode = CLI_LIVE;
		if (c->json && !c->plain) {
			snprintf(err, errlen, "--json needs --report or --plain");
			return 2;
		}
	}
	if (c->nginx_format && c->nginx_conf) {
		snprintf(err, errlen, "--nginx-format and --nginx-conf cannot both be given");
		return 2;
	}
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	struct option opts[2 * CLI_NROWS + 1];
	char shorts[1 + 3 * CLI_NROWS + 1];
	struct cli_state st = {.c = c};
	memset(c, 0, sizeof *c);
	/* https://no-color.org: any non-empty NO_COLOR is --no-color, decided here
	 * once so that everything that draws reads one setting */
	const char *nc = getenv("NO_COLOR");
	c->no_color = nc && nc[0];
	c->interval_ms = 1000;
	c->jvm_start_ms = EV_TIME_NONE;
	c->demo_speed = 4;
	cli_getopt_build(opts, shorts);
	optind = 1;
	opterr = 0;
	for (;;) {
		int idx = -1;
		int o = getopt_long(argc, argv, shorts, opts, &idx);
		if (o == -1)
			break;
		const struct cli_entry *e = cli_entry_of(o);
		if (!e)
			return cli_bad_option(opts, argv, err, errlen);
		char optname[64];
		snprintf(optname, sizeof optname, "--%s", idx >= 0 ? opts[idx].name : e->name);
		if (!entry_apply(&st, e, optarg, optname, err, errlen))
			return 2;
		if (e->kind == CLI_K_MODE)
			return 0; /* --help, --version, --help-config: nothing else matters */
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s': sources need an option, e.g. --gc %s",
			 argv[optind], argv[optind]);
		return 2;
	}
	return cli_combine(&st, err, errlen);
}
