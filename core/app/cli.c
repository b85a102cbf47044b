/* cli.c — command-line parsing (cli.h). Every error is one line naming the
 * option; the caller prints it and exits 2. */
#include "stwtop/cli.h"
#include "stwtop/metrics_srv.h"
#include "stwtop/reader.h"
#include "stwtop/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_GC = 256, O_SAFEPOINT, O_NGINX, O_NGINX_FORMAT, O_NGINX_CONF, O_PID, O_CGROUP, O_CPUSTAT,
	O_RECORD, O_REPLAY, O_INTERVAL, O_THEME, O_NO_COLOR, O_PLAIN, O_JSON, O_REPORT, O_DEMO,
	O_HELP, O_VERSION, O_JVM_START, O_CONFIG, O_HELP_CONFIG, O_SCHEDLOG, O_VMSTATLOG, O_HSERR,
	O_VERBOSE, O_DEMO_SPEED, O_BRIEF, O_TZ, O_METRICS, O_METRICS_TEXTFILE,
	O_ENABLE_JVM_LOGGING
};

static const struct option opts[] = {
	{"gc", required_argument, NULL, O_GC},
	{"safepoint", required_argument, NULL, O_SAFEPOINT},
	{"nginx", required_argument, NULL, O_NGINX},
	{"nginx-format", required_argument, NULL, O_NGINX_FORMAT},
	{"nginx-conf", required_argument, NULL, O_NGINX_CONF},
	{"pid", required_argument, NULL, O_PID},
	{"cgroup", required_argument, NULL, O_CGROUP},
	{"cpustat-log", required_argument, NULL, O_CPUSTAT},
	{"schedstat-log", required_argument, NULL, O_SCHEDLOG},
	{"vmstat-log", required_argument, NULL, O_VMSTATLOG},
	{"hs-err", required_argument, NULL, O_HSERR},
	{"record", required_argument, NULL, O_RECORD},
	{"replay", required_argument, NULL, O_REPLAY},
	{"interval", required_argument, NULL, O_INTERVAL},
	{"theme", required_argument, NULL, O_THEME},
	{"no-color", no_argument, NULL, O_NO_COLOR},
	{"no-colour", no_argument, NULL, O_NO_COLOR},
	{"plain", no_argument, NULL, O_PLAIN},
	{"json", no_argument, NULL, O_JSON},
	{"report", no_argument, NULL, O_REPORT},
	{"brief", no_argument, NULL, O_BRIEF},
	{"demo", optional_argument, NULL, O_DEMO},
	{"demo-speed", required_argument, NULL, O_DEMO_SPEED},
	{"help", no_argument, NULL, O_HELP},
	{"version", no_argument, NULL, O_VERSION},
	{"jvm-start", required_argument, NULL, O_JVM_START},
	{"config", required_argument, NULL, O_CONFIG},
	{"help-config", no_argument, NULL, O_HELP_CONFIG},
	{"verbose", no_argument, NULL, O_VERBOSE},
	{"tz", required_argument, NULL, O_TZ},
	{"metrics", required_argument, NULL, O_METRICS},
	{"metrics-textfile", required_argument, NULL, O_METRICS_TEXTFILE},
	{"enable-jvm-logging", no_argument, NULL, O_ENABLE_JVM_LOGGING},
	{NULL, 0, NULL, 0},
};

void cli_usage(FILE *out)
{
	fputs("usage: stwtop [SOURCES] [OPTIONS]          live dashboard (no source: find the JVM)\n"
	      "       stwtop --demo[=NAME]                replay a bundled real incident: throttle-stop\n"
	      "                                           (the default) or gc-stop (--demo=gc-stop)\n"
	      "       stwtop --report [--json] SOURCES    read the sources once, print summary + verdicts\n"
	      "       stwtop --report --brief SOURCES     the same in at most 12 lines, to paste in a chat\n"
	      "\n"
	      "Sources (repeatable):\n"
	      "  --gc FILE, --safepoint FILE  JVM GC/safepoint log or console log; every JDK 8-25 format is\n"
	      "                               detected per line (unified -Xlog with any decorations,\n"
	      "                               PrintGCDetails, PrintSafepointStatistics, SafepointTimeout)\n"
	      "                               A FILE of any source may be gzip/zstd-compressed (--report),\n"
	      "                               '-' (stdin, for one source), or a pipe: <(xzcat gc.log.1.xz)\n"
	      "  --nginx FILE                 nginx access log\n"
	      "  --nginx-format 'FMT'         its log_format string (default: detected, else combined)\n"
	      "  --nginx-conf FILE[:NAME]     read log_format NAME from an nginx config (includes followed)\n"
	      "  --pid PID                    poll /proc/PID/task/*/schedstat and PID's cgroup; anchors\n"
	      "                               uptime-only JVM logs to the process start\n"
	      "  --cgroup DIR                 poll this cgroup (v1 cpu dir or v2 dir)\n"
	      "  --cpustat-log FILE           recorded samples: '<ISO time> nr_periods N nr_throttled N\n"
	      "                               throttled_time N ...' (a time without offset, as\n"
	      "                               `date +%FT%T` prints it, is local time: set TZ)\n"
	      "  --schedstat-log FILE         recorded per-thread schedstat CSV\n"
	      "                               (epoch_ms,tid,comm,run_ns,wait_ns,timeslices)\n"
	      "  --vmstat-log FILE            recorded '<epoch_ms> allocstall_dma N ... pageoutrun N'\n"
	      "  --hs-err FILE                a JVM crash report (hs_err_pid*.log)\n"
	      "  --record FILE                append every polled sample as NDJSON\n"
	      "  --replay FILE                read samples written by --record\n"
	      "  --jvm-start TIME|FILE        wall clock of JVM uptime 0 (epoch ms, ISO 8601, or a file whose\n"
	      "                               first line is one) for logs that carry only uptime\n"
	      "\n"
	      "Other options:\n"
	      "  --interval MS                polling and status interval (default 1000)\n"
	      "  --plain                      line mode: verdicts and a status line per interval\n"
	      "  --json                       with --report: the report as JSON; with --plain: NDJSON\n"
	      "  --brief                      with --report: at most 12 lines, no colour: each incident's\n"
	      "                               headline verdict, one line of numbers, what was not checked\n"
	      "  --tz utc|local|Area/City     the zone times are shown in, with their offset (default utc;\n"
	      "                               the z key switches utc/local on the screen); JSON stays UTC\n"
	      "  --theme NAME|FILE            colour theme (dark, light, mono, or a JSON file)\n"
	      "  --no-color                   no colours (also when NO_COLOR is set and not empty)\n"
	      "  --config FILE                override verdict thresholds (JSON); --help-config lists them\n"
	      "  --demo-speed X               demo pace (default 4 = four times real time)\n"
	      "  --verbose                    say why lines did not parse\n"
	      "  --metrics [ADDR:]PORT        serve Prometheus metrics at http://ADDR:PORT/metrics from\n"
	      "                               the live run (--plain, the dashboard, --demo); ADDR defaults\n"
	      "                               to 127.0.0.1 (PORT or :PORT); 0.0.0.0:PORT for every address,\n"
	      "                               [::1]:PORT for IPv6 (docs/metrics.md)\n"
	      "  --metrics-textfile FILE      write the same metrics to FILE every interval and at exit,\n"
	      "                               atomically (for node_exporter's textfile collector)\n"
	      "  --enable-jvm-logging         live, with the JVM's pid: turn on its GC + safepoint logging\n"
	      "                               (attach API, VM.log to /tmp/stwtop-gc-PID.log, 5 x 20 MB)\n"
	      "                               and follow that file; the output is removed at exit (the L\n"
	      "                               key does the same after a y/N question)\n"
	      "  --help, --version\n"
	      "\n"
	      "Exit codes: 0 ok, 1 a source could not be read, 2 usage error.\n",
	      out);
}

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

/* long: one getopt switch with a case of a few lines per option, read top to
 * bottom like the --help text; splitting it would scatter the options. */
int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	/* https://no-color.org: any non-empty NO_COLOR is --no-color, decided here
	 * once so that everything that draws reads one setting */
	const char *nc = getenv("NO_COLOR");
	c->no_color = nc && nc[0];
	c->interval_ms = 1000;
	c->jvm_start_ms = EV_TIME_NONE;
	c->demo_speed = 4;
	optind = 1;
	opterr = 0;
	bool report = false, demo = false;
	for (;;) {
		int idx = -1;
		int o = getopt_long(argc, argv, "+", opts, &idx);
		if (o == -1)
			break;
		const char *name = idx >= 0 ? opts[idx].name : NULL;
		char optname[64];
		snprintf(optname, sizeof optname, "--%s", name ? name : "?");
		long v;
		switch (o) {
		case O_GC:
		case O_SAFEPOINT:
			if (!add_source(c, SRC_JVM, optarg, optname, err, errlen))
				return 2;
			break;
		case O_NGINX:
			if (!add_source(c, SRC_NGINX, optarg, optname, err, errlen))
				return 2;
			break;
		case O_CPUSTAT:
			if (!add_source(c, SRC_CPUSTAT, optarg, optname, err, errlen))
				return 2;
			break;
		case O_SCHEDLOG:
			if (!add_source(c, SRC_SCHEDLOG, optarg, optname, err, errlen))
				return 2;
			break;
		case O_VMSTATLOG:
			if (!add_source(c, SRC_VMSTATLOG, optarg, optname, err, errlen))
				return 2;
			break;
		case O_HSERR:
			if (!add_source(c, SRC_HSERR, optarg, optname, err, errlen))
				return 2;
			break;
		case O_REPLAY:
			if (!add_source(c, SRC_RECORD, optarg, optname, err, errlen))
				return 2;
			break;
		case O_NGINX_FORMAT:
			if (!optarg[0]) {
				snprintf(err, errlen, "--nginx-format: the format string is empty");
				return 2;
			}
			c->nginx_format = optarg;
			break;
		case O_NGINX_CONF:
			c->nginx_conf = optarg;
			break;
		case O_PID:
			if (!parse_int(optarg, 1, 4194304, &v)) {
				snprintf(err, errlen, "--pid: '%s' is not a process id", optarg);
				return 2;
			}
			c->pid = (int)v;
			break;
		case O_CGROUP:
			c->cgroup = optarg;
			break;
		case O_RECORD:
			c->record = optarg;
			break;
		case O_INTERVAL:
			if (!parse_int(optarg, 10, 3600000, &v)) {
				snprintf(err, errlen, "--interval: '%s' is not a number of milliseconds (10..3600000)",
					 optarg);
				return 2;
			}
			c->interval_ms = (int)v;
			break;
		case O_THEME:
			c->theme = optarg;
			break;
		case O_NO_COLOR:
			c->no_color = true;
			break;
		case O_PLAIN:
			c->plain = true;
			break;
		case O_JSON:
			c->json = true;
			break;
		case O_REPORT:
			report = true;
			break;
		case O_BRIEF:
			c->brief = true;
			break;
		case O_DEMO:
			demo = true;
			c->demo_name = optarg;
			break;
		case O_DEMO_SPEED: {
			char *end;
			double d = strtod(optarg, &end);
			if (end == optarg || *end || !(d > 0 && d <= 1000)) {
				snprintf(err, errlen, "--demo-speed: '%s' is not a speed factor (0 < X <= 1000)", optarg);
				return 2;
			}
			c->demo_speed = d;
			break;
		}
		case O_HELP:
			c->mode = CLI_HELP;
			return 0;
		case O_VERSION:
			c->mode = CLI_VERSION;
			return 0;
		case O_HELP_CONFIG:
			c->mode = CLI_HELP_CONFIG;
			return 0;
		case O_JVM_START:
			if (!parse_jvm_start(optarg, &c->jvm_start_ms)) {
				snprintf(err, errlen, "--jvm-start: '%s' is not an epoch ms, an ISO 8601 time, or a "
					 "readable file starting with one", optarg);
				return 2;
			}
			break;
		case O_CONFIG:
			c->config = optarg;
			break;
		case O_TZ:
			if (util_tz_set(optarg, err, errlen) < 0)
				return 2;
			c->tz = optarg;
			break;
		case O_VERBOSE:
			c->verbose = true;
			break;
		case O_METRICS: {
			struct sockaddr_storage ss;
			socklen_t sl;
			if (metrics_parse_addr(optarg, &ss, &sl, err, errlen) != 0)
				return 2;
			c->metrics = optarg;
			break;
		}
		case O_METRICS_TEXTFILE:
			if (!optarg[0]) {
				snprintf(err, errlen, "--metrics-textfile: the file name is empty");
				return 2;
			}
			c->metrics_textfile = optarg;
			break;
		case O_ENABLE_JVM_LOGGING:
			c->enable_jvm_logging = true;
			break;
		case ':':
			snprintf(err, errlen, "%s needs a value", argv[optind - 1]);
			return 2;
		case '?':
		default: {
			const char *bad = argv[optind - 1];
			if (optopt && optopt < 256) {
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
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s': sources need an option, e.g. --gc %s",
			 argv[optind], argv[optind]);
		return 2;
	}
	if (report && demo) {
		snprintf(err, errlen, "--report and --demo cannot be combined");
		return 2;
	}
	if (c->brief && !report) {
		snprintf(err, errlen, "--brief needs --report (it shortens the report to 12 lines for a chat)");
		return 2;
	}
	if (c->brief && c->json) {
		snprintf(err, errlen, "--brief and --json cannot be combined: --brief is text for a chat, "
			 "--json the whole report for programs");
		return 2;
	}
	if (report) {
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
	} else if (demo) {
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
