/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_record.c — --record / --replay: exact round trip of every polled kind,
 * on events made from the real samples and the probe fixtures, plus the error
 * messages for malformed and future lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <unistd.h>

#include "stwtop/cpustat.h"
#include "stwtop/probe.h"
#include "stwtop/record.h"
#include "stwtop/samplelog.h"
#include "stwtop/session.h"
#include "stwtop/util.h"
#include "testutil_probe.h"

#define SAMPLES STWTOP_TEST_DIR "/samples"

/* format -> parse -> the identical struct (ev_init zeroes padding and unused union bytes) */
static void round_trip(const struct event *e)
{
	char line[1024], err[256];
	struct event back;
	int n = record_format(e, line, sizeof line);
	assert_true(n > 0);
	assert_int_equal((size_t)n, strlen(line));
	assert_null(strchr(line, '\n'));
	memset(&back, 0xa5, sizeof back);
	int r = record_parse_line(line, (size_t)n, &back, err, sizeof err);
	if (r != 1)
		fail_msg("parse of %s: %d %s", line, r, err);
	if (memcmp(&back, e, sizeof back) != 0)
		fail_msg("round trip changed the event: %s", line);
}

static void test_round_trip_edges(void **state)
{
	(void)state;
	struct event e;
	ev_init(&e, EV_CPU);
	e.t_ms = 1795980244337LL;
	e.u.cpu.nr_periods = INT64_MAX;
	e.u.cpu.nr_throttled = 0;
	e.u.cpu.throttled_us = -1;
	e.u.cpu.usage_us = 123456789012345LL;
	e.u.cpu.quota_us = -1; /* unlimited, distinct from the default -2 */
	e.u.cpu.period_us = 100000;
	e.u.cpu.psi_some_avg10 = 0.1; /* not representable exactly: needs 17 digits */
	e.u.cpu.cg_version = 2;
	round_trip(&e);
	e.u.cpu.quota_us = -2;
	e.u.cpu.psi_some_avg10 = 1.0 / 3.0;
	e.up_us = 22001000; /* optional key */
	round_trip(&e);

	ev_init(&e, EV_MEM);
	e.t_ms = 1;
	e.u.mem.usage_bytes = 402653184;
	e.u.mem.limit_bytes = -1;
	e.u.mem.anon_bytes = 318767104;
	e.u.mem.file_bytes = 71303168;
	e.u.mem.psi_some_avg10 = 99.99;
	round_trip(&e);

	ev_init(&e, EV_SCHED);
	e.t_ms = 1795980247437LL;
	e.u.sched.interval_ms = 499.99999999999994;
	e.u.sched.oncpu_ms = 1e-300;
	e.u.sched.wait_ms = 28700.123456789;
	e.u.sched.nthreads = 2000;
	e.u.sched.worst_tid = INT32_MAX;
	e.u.sched.worst_wait_ms = 3000.5;
	e.u.sched.idle_ms = 970000.25;
	snprintf(e.u.sched.worst_comm, sizeof e.u.sched.worst_comm, "%s", "Тред-1"); /* UTF-8 */
	round_trip(&e);
	snprintf(e.u.sched.worst_comm, sizeof e.u.sched.worst_comm, "%s", "VM Thread");
	round_trip(&e);

	ev_init(&e, EV_VMSTAT);
	e.t_ms = 1795980218437LL;
	e.u.vm.allocstall = 45;
	e.u.vm.pageoutrun = -1;
	e.u.vm.pgscan_direct = 812;
	round_trip(&e);

	/* the followed JVM gone (live --pid): replayed, the report says when */
	ev_init(&e, EV_JVM_EXIT);
	e.t_ms = 1796212237172LL;
	e.u.exit.pid = 28934;
	e.u.exit.alive_ms = 1796212236971LL;
	round_trip(&e);

	/* the JVM's own counters (hsperfdata), one interval: replayed, the rules judge them */
	ev_init(&e, EV_JVMCTR);
	e.t_ms = 1796235531502LL;
	e.u.ctr.interval_ms = 995.194;
	e.u.ctr.heap_used = 97970176;
	e.u.ctr.heap_committed = 100663296;
	e.u.ctr.heap_max = 100663296;
	e.u.ctr.gcs = 73;
	e.u.ctr.full_gcs = 19;
	e.u.ctr.gc_ms = 974.008;
	e.u.ctr.one_gc_ms = -1;
	e.u.ctr.safepoints = 55;
	e.u.ctr.stop_ms = 1006.354;
	e.u.ctr.ttsp_ms = 2.266;
	e.u.ctr.threads = 7;
	e.u.ctr.collector = GC_G1;
	snprintf(e.u.ctr.cause, sizeof e.u.ctr.cause, "%s", "G1 Evacuation Pause");
	round_trip(&e);

	/* a comm cut inside a UTF-8 sequence (prctl keeps 15 bytes): valid JSON, '?' */
	char line[512], err[128];
	struct event back;
	ev_init(&e, EV_SCHED);
	e.t_ms = 5;
	memcpy(e.u.sched.worst_comm, "worker-\xd0\x9f\xd0", 11);
	e.u.sched.worst_comm[11] = '\0';
	assert_true(record_format(&e, line, sizeof line) > 0);
	assert_int_equal(record_parse_line(line, strlen(line), &back, err, sizeof err), 1);
	assert_string_equal(back.u.sched.worst_comm, "worker-\xd0\x9f?");

	/* idle_ms is a key added to schema 1: written, and a recording made before it
	 * (no such key) reads as idle unknown, -1 */
	assert_non_null(strstr(line, "\"idle_ms\":-1"));
	const char *old = "{\"v\":1,\"t\":5,\"kind\":\"sched\",\"interval_ms\":1000.0,\"oncpu_ms\":5.0,"
			  "\"wait_ms\":1.0,\"nthreads\":3}";
	assert_int_equal(record_parse_line(old, strlen(old), &back, err, sizeof err), 1);
	assert_double_equal(back.u.sched.idle_ms, -1, 0);
	assert_int_equal(back.u.sched.nthreads, 3);

	/* non-finite doubles cannot be JSON: written as null, read back as unknown */
	ev_init(&e, EV_CPU);
	e.t_ms = 5;
	e.u.cpu.psi_some_avg10 = NAN;
	assert_true(record_format(&e, line, sizeof line) > 0);
	assert_non_null(strstr(line, "\"psi_some_avg10\":null"));
	assert_int_equal(record_parse_line(line, strlen(line), &back, err, sizeof err), 1);
	assert_double_equal(back.u.cpu.psi_some_avg10, -1, 0);

	/* kinds that are not polled samples are refused; a tiny buffer is -ENOSPC */
	ev_init(&e, EV_GC_PAUSE);
	assert_int_equal(record_format(&e, line, sizeof line), -EINVAL);
	ev_init(&e, EV_VMSTAT);
	assert_int_equal(record_format(&e, line, 10), -ENOSPC);
}

/* the schema as documented in docs/record-format.md, byte for byte */
static void test_schema_text(void **state)
{
	(void)state;
	struct event e;
	char line[512];
	ev_init(&e, EV_CPU);
	e.t_ms = 1795980244337LL;
	e.u.cpu.nr_periods = 259;
	e.u.cpu.nr_throttled = 1;
	e.u.cpu.throttled_us = 186411;
	e.u.cpu.quota_us = 5000;
	e.u.cpu.period_us = 100000;
	e.u.cpu.cg_version = 1;
	assert_true(record_format(&e, line, sizeof line) > 0);
	assert_string_equal(line, "{\"v\":1,\"t\":1795980244337,\"kind\":\"cpu\",\"nr_periods\":259,\"nr_throttled\":1,"
				  "\"throttled_us\":186411,\"usage_us\":-1,\"quota_us\":5000,\"period_us\":100000,"
				  "\"psi_some_avg10\":-1.0,\"cg_version\":1}");
}

/* Real events: every line of the combined throttle-stop recordings, and a poll of
 * the v1 fixture, go through record and replay unchanged. */
static void test_round_trip_samples(void **state)
{
	(void)state;
	char path[512];
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	struct event e;
	int count = 0;

	setenv("TZ", "UTC", 1);
	snprintf(path, sizeof path, "%s/combined/throttle-stop/cpustat.log", SAMPLES);
	f = fopen(path, "r");
	assert_non_null(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		assert_true(cpustat_parse_line(line, (size_t)n - 1, &e));
		round_trip(&e);
		count++;
	}
	fclose(f);
	assert_int_equal(count, 464);

	struct schedlog *sl = schedlog_new();
	snprintf(path, sizeof path, "%s/combined/throttle-stop/schedstat.log", SAMPLES);
	f = fopen(path, "r");
	assert_non_null(f);
	count = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (schedlog_parse_line(sl, line, (size_t)n - 1, &e) == 1) {
			round_trip(&e);
			count++;
		}
	}
	fclose(f);
	if (schedlog_flush(sl, &e) == 1) {
		round_trip(&e);
		count++;
	}
	schedlog_free(sl);
	assert_int_equal(count, 92);

	snprintf(path, sizeof path, "%s/combined/throttle-stop/vmstat.log", SAMPLES);
	f = fopen(path, "r");
	assert_non_null(f);
	count = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		assert_true(vmstatlog_parse_line(line, (size_t)n - 1, &e));
		round_trip(&e);
		count++;
	}
	fclose(f);
	assert_int_equal(count, 47);
	free(line);

	char err[256];
	struct event ev[2];
	struct cgroup_probe *cg = cgroup_probe_open(STWTOP_TEST_DIR "/fixtures/probe/v2-nested", 2211, NULL, err,
						    sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_poll(cg, 1795980244337LL, ev, 2), 2);
	round_trip(&ev[0]);
	round_trip(&ev[1]);
	cgroup_probe_close(cg);
}

static void test_malformed(void **state)
{
	(void)state;
	struct event e;
	char err[256];
	struct {
		const char *line;
		int r;
		const char *msg;
	} cases[] = {
		{"", 0, ""},
		{"   ", 0, ""},
		{"{", -EINVAL, "not JSON"},
		{"{\"v\":1,\"t\":1,\"kind\":\"cpu\"} trailing", -EINVAL, "not JSON"},
		{"[1,2]", -EINVAL, "not a JSON object"},
		{"{\"t\":1,\"kind\":\"cpu\"}", -EINVAL, "version field \"v\""},
		{"{\"v\":\"1\",\"t\":1,\"kind\":\"cpu\"}", -EINVAL, "version field \"v\""},
		{"{\"v\":0,\"t\":1,\"kind\":\"cpu\"}", -EINVAL, "must be >= 1"},
		{"{\"v\":2,\"t\":1,\"kind\":\"cpu\"}", -EPROTONOSUPPORT, "version 2 is newer than this stwtop reads (1)"},
		{"{\"v\":1,\"t\":1}", -EINVAL, "\"kind\""},
		{"{\"v\":1,\"t\":\"x\",\"kind\":\"cpu\"}", -EINVAL, "time field \"t\""},
		{"{\"v\":1,\"t\":1,\"kind\":\"cpu\",\"nr_periods\":\"5\"}", -EINVAL, "field \"nr_periods\": expected an integer"},
		{"{\"v\":1,\"t\":1,\"kind\":\"cpu\",\"nr_periods\":5.5}", -EINVAL, "field \"nr_periods\": expected an integer"},
		{"{\"v\":1,\"t\":1,\"kind\":\"cpu\",\"cg_version\":300}", -EINVAL, "field \"cg_version\": out of range"},
		{"{\"v\":1,\"t\":1,\"kind\":\"sched\",\"nthreads\":10000000000}", -EINVAL, "field \"nthreads\": out of range"},
		{"{\"v\":1,\"t\":1,\"kind\":\"sched\",\"worst_comm\":5}", -EINVAL, "field \"worst_comm\": expected a string"},
		{"{\"v\":1,\"t\":1,\"kind\":\"mem\",\"psi_some_avg10\":\"x\"}", -EINVAL, "expected a number"},
		{"{\"v\":1,\"t\":1,\"kind\":\"cpu\",\"nr_periods\":1,\"nr_periods\":2}", -EINVAL, "not JSON"},
		{"{\"v\":1,\"t\":1,\"kind\":\"gpu\",\"x\":1}", 0, "kind \"gpu\" is not known to this version: skipped"},
		{"{\"v\":1,\"t\":1,\"kind\":\"meta\",\"tool\":\"stwtop\"}", 0, ""},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		int r = record_parse_line(cases[i].line, strlen(cases[i].line), &e, err, sizeof err);
		if (r != cases[i].r || !strstr(err, cases[i].msg) || (cases[i].msg[0] == '\0' && err[0]))
			fail_msg("'%s': got %d '%s', want %d '%s'", cases[i].line, r, err, cases[i].r, cases[i].msg);
	}
	/* a later minor version: unknown keys ignored, missing keys stay unknown, integer
	 * accepted where a double is expected, \r\n line ending */
	const char *future = "{\"v\":1,\"t\":7,\"kind\":\"sched\",\"oncpu_ms\":5,\"gpu_ms\":3,\"extra\":{\"a\":[1]}}\r";
	assert_int_equal(record_parse_line(future, strlen(future), &e, err, sizeof err), 1);
	assert_int_equal(e.kind, EV_SCHED);
	assert_int_equal(e.t_ms, 7);
	assert_double_equal(e.u.sched.oncpu_ms, 5, 0);
	assert_int_equal(e.u.sched.worst_tid, -1);
	/* length-bounded: bytes after len are not read */
	char buf[64];
	memcpy(buf, "{\"v\":1,\"t\":9,\"kind\":\"vmstat\"}GARBAGE", 36);
	assert_int_equal(record_parse_line(buf, 29, &e, err, sizeof err), 1);
	assert_int_equal(e.t_ms, 9);
}

static void test_writer(void **state)
{
	(void)state;
	char path[] = "/tmp/stwtop-record-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char err[256];
	struct recorder *r = record_open(path, 1000, "cgroup v1 cpu /sys/fs/cgroup/cpu/x (quota 0.30 CPU)", err, sizeof err);
	assert_non_null(r);
	struct event e[3];
	ev_init(&e[0], EV_CPU);
	e[0].t_ms = 1001;
	e[0].u.cpu.nr_throttled = 4;
	ev_init(&e[1], EV_VMSTAT);
	e[1].t_ms = 1002;
	e[1].u.vm.allocstall = 3;
	ev_init(&e[2], EV_SCHED);
	e[2].t_ms = 1003;
	snprintf(e[2].u.sched.worst_comm, 16, "GC Thread#0");
	for (int i = 0; i < 3; i++)
		assert_int_equal(record_write(r, &e[i]), 0);
	struct event bad;
	ev_init(&bad, EV_HTTP);
	assert_int_equal(record_write(r, &bad), -EINVAL);
	record_close(r);
	/* appending: a second session adds its own meta line */
	r = record_open(path, 2000, NULL, err, sizeof err);
	assert_non_null(r);
	assert_int_equal(record_write(r, &e[0]), 0);
	record_close(r);

	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lines = 0, samples = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		struct event back;
		assert_int_equal(line[n - 1], '\n');
		int k = record_parse_line(line, (size_t)n - 1, &back, err, sizeof err);
		assert_true(k >= 0);
		if (lines == 0) {
			assert_non_null(strstr(line, "\"kind\":\"meta\""));
			assert_non_null(strstr(line, "\"note\":\"cgroup v1 cpu /sys/fs/cgroup/cpu/x (quota 0.30 CPU)\""));
			assert_non_null(strstr(line, "\"tool\":\"stwtop\""));
		}
		if (k == 1) {
			static const int order[] = {0, 1, 2, 0}; /* first session, then the second */
			assert_true(samples < 4);
			assert_memory_equal(&back, &e[order[samples]], sizeof back);
			samples++;
		}
		lines++;
	}
	free(line);
	fclose(f);
	assert_int_equal(lines, 6);
	assert_int_equal(samples, 4);
	unlink(path);

	assert_null(record_open("/nonexistent-dir/x.ndjson", 0, NULL, err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent-dir/x.ndjson: No such file or directory"));
}

/* The JVM's start as a meta line: written, read back as an EV_ANCHOR, and a
 * report of an uptime-only GC log (the real tests/samples/throttle/throttled
 * one) with that recording is placed on the clock by it. */
static void test_anchor_meta(void **state)
{
	(void)state;
	char path[] = "/tmp/stwtop-record-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char err[256], line[1024];
	const int64_t start = 1795979092550LL; /* throttled/jvm-start.txt */
	struct recorder *r = record_open(path, start + 500, NULL, err, sizeof err);
	assert_non_null(r);
	assert_int_equal(record_write_anchor(r, start + 600, start, "pid", "the start time of process 11488"), 0);
	record_close(r);

	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	struct event e;
	assert_int_equal(record_parse_line(line, strlen(line) - 1, &e, err, sizeof err), 0); /* plain meta */
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_non_null(strstr(line, "\"kind\":\"meta\""));
	assert_non_null(strstr(line, "\"jvm_start\":1795979092550"));
	assert_non_null(strstr(line, "\"jvm_start_from\":\"pid\""));
	assert_int_equal(record_parse_line(line, strlen(line) - 1, &e, err, sizeof err), 1);
	assert_int_equal(e.kind, EV_ANCHOR);
	assert_int_equal(e.u.anchor_ms, start);
	assert_int_equal(e.t_ms, start + 600);
	int64_t ms = 0;
	char from[16], how[128];
	assert_true(record_meta_anchor(line, strlen(line) - 1, &ms, from, sizeof from, how, sizeof how));
	assert_int_equal(ms, start);
	assert_string_equal(from, "pid");
	assert_string_equal(how, "the start time of process 11488");
	const char *bad = "{\"v\":1,\"t\":1,\"kind\":\"meta\",\"jvm_start\":\"soon\"}";
	assert_int_equal(record_parse_line(bad, strlen(bad), &e, err, sizeof err), 0);
	assert_non_null(strstr(err, "jvm_start"));

	/* the report: without the recording the log is on an uptime axis; with one that
	 * has no start it cannot be placed; with the start it is where the JVM was */
	const char *gc = SAMPLES "/throttle/throttled/gc.log";
	for (int variant = 0; variant < 2; variant++) {
		struct session_opts o = {.jvm_start_ms = EV_TIME_NONE};
		struct session *s = session_new(&o, err, sizeof err);
		assert_non_null(s);
		assert_true(session_add_source(s, SRC_JVM, gc, err, sizeof err) >= 0);
		char empty[] = "/tmp/stwtop-record-XXXXXX";
		if (variant == 0) {
			fd = mkstemp(empty);
			assert_true(fd >= 0);
			assert_true(write(fd, "{\"v\":1,\"t\":5,\"kind\":\"meta\",\"tool\":\"stwtop\"}\n", 45) == 45);
			close(fd);
		}
		assert_true(session_add_source(s, SRC_RECORD, variant ? path : empty, err, sizeof err) >= 0);
		assert_int_equal(session_run_report(s), 0);
		const struct timeline *tl = session_timeline(s);
		if (variant == 0) {
			assert_int_equal(session_jvm_anchor(s), EV_TIME_NONE);
			assert_true(session_unanchored(s) > 0);
			unlink(empty);
		} else {
			assert_int_equal(session_jvm_anchor(s), start);
			assert_int_equal(session_jvm_anchor_from(s), ANCHOR_RECORDING);
			assert_non_null(strstr(session_jvm_anchor_how(s), "recorded: the start time of process 11488"));
			assert_int_equal(session_unanchored(s), 0);
			assert_true(tl->stops.total > 10);
			/* its last stop ended at uptime 18.99 s: placed that long after the start */
			assert_true(tl->newest_ms > start + 18000 && tl->newest_ms < start + 21000);
		}
		session_free(s);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_edges),
		cmocka_unit_test(test_schema_text),
		cmocka_unit_test(test_round_trip_samples),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_writer),
		cmocka_unit_test(test_anchor_meta),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
