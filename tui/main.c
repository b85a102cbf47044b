/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c — stwtop's entry point: parse the command line and run the mode. */
#include "stwtop/cli.h"
#include "stwtop/report.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"
#include "stwtop/util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

static int run_report(const struct cli *c, const struct rules_config *rcfg)
{
	char err[512];
	struct session_opts o = {
		.nginx_format = c->nginx_format,
		.nginx_conf = c->nginx_conf,
		.jvm_start_ms = c->jvm_start_ms,
		.rules = rcfg,
		.verbose = c->verbose,
		.on_unparsed = app_on_unparsed,
	};
	struct session *s = session_new(&o, err, sizeof err);
	if (!s) {
		fprintf(stderr, "stwtop: %s\n", err);
		return 2;
	}
	for (int i = 0; i < c->nsrc; i++)
		if (session_add_source(s, c->src[i].kind, c->src[i].path, err, sizeof err) < 0) {
			fprintf(stderr, "stwtop: %s\n", err);
			session_free(s);
			return 2;
		}
	int rc_read = app_add_probes_once(s, c, err, sizeof err);
	if (rc_read < 0)
		fprintf(stderr, "stwtop: %s\n", err);
	int rc = session_run_report(s);
	if (c->json)
		report_json(stdout, s);
	else if (c->brief)
		report_brief(stdout, s);
	else
		report_text(stdout, s, isatty(1) && !c->no_color);
	int status = 0;
	for (int i = 0; i < session_nsources(s); i++) {
		const struct source_stats *st = session_source_stats(s, i);
		if (st->error) {
			fprintf(stderr, "stwtop: %s\n", st->note);
			status = 1;
		}
	}
	if (rc < 0 || rc_read < 0)
		status = 1;
	if (fflush(stdout) != 0 && errno != EPIPE) {
		fprintf(stderr, "stwtop: writing the report: %s\n", strerror(errno));
		status = 1;
	}
	session_free(s);
	return status;
}

int main(int argc, char **argv)
{
	struct cli c;
	char err[512];
	/* `stwtop --report ... | head -1` must end quietly, not die on SIGPIPE mid-write
	 * with a half-written message: writes fail with EPIPE and we exit 0. */
	signal(SIGPIPE, SIG_IGN);
	/* the sched probe keeps one descriptor per JVM thread: take the hard limit */
	util_raise_nofile(NULL);
	int rc = cli_parse(&c, argc, argv, err, sizeof err);
	if (rc != 0) {
		fprintf(stderr, "stwtop: %s\n", err);
		return rc;
	}
	struct rules_config rcfg;
	rules_config_defaults(&rcfg);
	if (c.config && rules_config_load(&rcfg, c.config, err, sizeof err) != 0) {
		fprintf(stderr, "stwtop: --config %s\n", err);
		return 2;
	}
	switch (c.mode) {
	case CLI_HELP:
		cli_usage(stdout);
		return 0;
	case CLI_VERSION:
		/* the GNU short notice (LICENSE; README's "License") */
		printf("stwtop %s\n"
		       "Copyright (C) 2026 the stwtop authors.\n"
		       "License GPL-2.0-or-later: GNU GPL version 2 or later "
		       "<https://www.gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
		       "This is free software: you are free to change and redistribute it.\n"
		       "There is NO WARRANTY, to the extent permitted by law.\n",
		       STWTOP_VERSION);
		return 0;
	case CLI_HELP_CONFIG: {
		const char *name, *doc;
		double v;
		puts("Verdict thresholds (override with --config FILE, a JSON object {\"name\": value});\n"
		     "what each verdict means and why these values: docs/verdicts.md");
		for (int i = 0; rules_config_describe(&rcfg, i, &name, &v, &doc) == 0; i++)
			printf("  %-22s %10g  %s\n", name, v, doc);
		return 0;
	}
	case CLI_REPORT:
		return run_report(&c, &rcfg);
	case CLI_DEMO:
	case CLI_LIVE:
		return app_run_live(&c, &rcfg);
	}
	return 0;
}
