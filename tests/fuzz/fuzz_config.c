/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_config.c — libFuzzer target for --config: rules_config_load_mem on
 * arbitrary bytes. A config that loads must hold only finite non-negative
 * thresholds (at most 1e12), one that does not must leave the config as it
 * was; and every config that loads is then used for what it is for: a whole
 * report (session_run_report + report_text + report_json) over the real
 * throttle-stop incident (gc.log, cpustat.log, schedstat.log, nginx access.log),
 * so thresholds of 0, 1e12 or 0.5 ms meet the rules' arithmetic (int64 casts,
 * divisions by windows, the incident merge) under ASan/UBSan.
 * Seeds: tests/fuzz/seeds/fuzz_config/ (the defaults, the documented example,
 * extremes). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/report.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SAMPLE STWTOP_SOURCE_DIR "/tests/samples/combined/throttle-stop/"
static const char lab[] = "$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time "
			  "urt=$upstream_response_time rt=$request_time";

static FILE *devnull(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules_config c, before;
	char err[512];
	rules_config_defaults(&c);
	before = c;
	if (rules_config_load_mem(&c, (const char *)data, size, "fuzz", err, sizeof err) != 0) {
		if (memcmp(&c, &before, sizeof c) != 0 || strnlen(err, sizeof err) == sizeof err || !err[0])
			__builtin_trap(); /* a failed load changed something, or said nothing */
		return 0;
	}
	const char *name;
	double v, *all = (double *)&c;
	const char *doc;
	for (int i = 0; rules_config_describe(&c, i, &name, &v, &doc) == 0; i++)
		if (!isfinite(v) || v < 0 || v > 1e12)
			__builtin_trap();
	for (size_t i = 0; i < sizeof c / sizeof(double); i++)
		if (!isfinite(all[i]))
			__builtin_trap();

	struct session_opts o = {.nginx_format = lab, .jvm_start_ms = EV_TIME_NONE, .rules = &c};
	struct session *s = session_new(&o, err, sizeof err);
	if (!s)
		__builtin_trap();
	if (session_add_source(s, SRC_JVM, SAMPLE "gc.log", err, sizeof err) < 0 ||
	    session_add_source(s, SRC_CPUSTAT, SAMPLE "cpustat.log", err, sizeof err) < 0 ||
	    session_add_source(s, SRC_SCHEDLOG, SAMPLE "schedstat.log", err, sizeof err) < 0 ||
	    session_add_source(s, SRC_NGINX, SAMPLE "logs/access.log", err, sizeof err) < 0)
		__builtin_trap();
	if (session_run_report(s) != 0)
		__builtin_trap(); /* the samples are readable */
	report_text(devnull(), s, false);
	report_json(devnull(), s);
	session_free(s);
	return 0;
}
