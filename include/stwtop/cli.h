/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h — the command line (doc/stwtop.1, a contract). Parsing is
 * here, in core, so its error paths are unit-tested; main() only dispatches. */
#ifndef STWTOP_CLI_H
#define STWTOP_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stwtop/session.h"

/* Sources named on the command line; the session has room for these and
 * for what it adds itself (a followed JVM's logs and probes). */
#define CLI_MAX_SOURCES 64

enum cli_mode { CLI_LIVE = 0, CLI_REPORT, CLI_DEMO, CLI_HELP, CLI_VERSION, CLI_HELP_CONFIG };

struct cli_source {
	enum src_kind kind;
	const char *path;
};

struct cli {
	enum cli_mode mode;
	bool json, plain, verbose;
	bool no_color;              /* --no-color, or NO_COLOR set and not empty (no-color.org) */
	bool brief;                 /* --report --brief */
	const char *tz;             /* --tz as given (util_tz_set done), NULL: UTC */
	struct cli_source src[CLI_MAX_SOURCES];
	int nsrc;
	const char *nginx_format, *nginx_conf;
	int pid;                    /* 0 = none */
	const char *cgroup;
	const char *record, *replay_unused;
	int interval_ms;
	const char *theme;
	const char *config;
	int64_t jvm_start_ms;       /* EV_TIME_NONE unless --jvm-start */
	const char *demo_name;      /* --demo[=NAME] */
	double demo_speed;          /* --demo-speed X (1 = real time) */
	const char *metrics;        /* --metrics ADDR:PORT (checked by metrics_parse_addr) */
	const char *metrics_textfile;   /* --metrics-textfile FILE */
	bool enable_jvm_logging;        /* --enable-jvm-logging (live: VM.log in the JVM, vmlog.h) */
};

/* Parse argv. 0 on success; 2 on a usage error with a one-line message in err
 * (naming the option). Reads --jvm-start FILE if given a file. */
int cli_parse(struct cli *c, int argc, char **argv, char *err, size_t errlen);
void cli_usage(FILE *out);
/* The long name (without "--") of the table's option i, NULL past the last;
 * *alias (when alias is not NULL) its other spelling or NULL.
 * tests/unit/test_cli_table.c holds doc/stwtop.1 and --help to these. */
const char *cli_option_name(int i, const char **alias);

#endif
