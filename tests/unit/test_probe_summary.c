/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_probe_summary.c — the report's throttle totals over samples the real
 * cgroup probe takes while its cgroup goes away: the committed v1-hybrid tree
 * (tests/fixtures/probe/README.md: cpu, cpuacct and memory mounted apart, as on
 * this machine) is copied to a temp dir; its cpu dir is then removed, so the
 * probe still reads cpuacct.usage and emits samples whose throttling counters
 * are -1 (unknown), as it does live when `rmdir /sys/fs/cgroup/cpu/X` comes
 * before the cpuacct one. Those samples must not turn the totals into +0, and a
 * re-created cgroup (counters from 0) must not make them negative. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stwtop/probe.h"
#include "stwtop/summary.h"
#include "testutil_probe.h"

#define CPU_DIR "/sys/fs/cgroup/cpu/stwtop-fx/app"

/* poll and feed every EV_CPU to the summary; returns the cpu sample */
static struct event poll_into(struct cgroup_probe *cg, struct summary *sm, int64_t t)
{
	struct event ev[2], cpu;
	int n = cgroup_probe_poll(cg, t, ev, 2);
	memset(&cpu, 0, sizeof cpu);
	assert_true(n >= 1);
	for (int i = 0; i < n; i++) {
		summary_add(sm, &ev[i]);
		if (ev[i].kind == EV_CPU)
			cpu = ev[i];
	}
	assert_int_equal(cpu.kind, EV_CPU);
	return cpu;
}

static void test_cpu_dir_removed(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-hybrid");
	char err[512], cmd[700];
	struct summary sm;
	summary_init(&sm);
	struct cgroup_probe *cg = cgroup_probe_open(root, 0, CPU_DIR, err, sizeof err);
	if (!cg)
		fail_msg("%s", err);
	/* the committed counters: nr_throttled 12, throttled_time 850808417 ns */
	struct event e = poll_into(cg, &sm, 1000);
	assert_int_equal(e.u.cpu.nr_throttled, 12);
	write_file(root, CPU_DIR "/cpu.stat", "nr_periods 40\nnr_throttled 35\nthrottled_time 2850808417\n"
		   "nr_bursts 0\nburst_time 0\n");
	poll_into(cg, &sm, 2000);
	/* the cpu cgroup is removed, the cpuacct one not yet: samples without counters */
	snprintf(cmd, sizeof cmd, "rm -rf '%s%s'", root, CPU_DIR);
	assert_int_equal(system(cmd), 0);
	e = poll_into(cg, &sm, 3000);
	assert_int_equal(e.u.cpu.nr_throttled, -1);
	assert_int_equal(e.u.cpu.throttled_us, -1);
	assert_true(e.u.cpu.usage_us > 0); /* cpuacct.usage still read */
	assert_non_null(strstr(cgroup_probe_last_error(cg, NULL), "cpu.stat"));
	poll_into(cg, &sm, 4000);
	assert_int_equal(sm.throttle_samples, 4);
	/* the growth between the first and the last sample that had the counters */
	assert_int_equal(summary_nr_throttled(&sm), 35 - 12);
	assert_double_equal(summary_throttled_ms(&sm), 2000.0, 1e-9);

	/* created again (counters from 0) and throttled a little more */
	snprintf(cmd, sizeof cmd, "%s%s", root, CPU_DIR);
	assert_int_equal(mkdir(cmd, 0755), 0);
	write_file(root, CPU_DIR "/cpu.stat", "nr_periods 3\nnr_throttled 2\nthrottled_time 150000000\n");
	write_file(root, CPU_DIR "/cpu.cfs_quota_us", "30000\n");
	write_file(root, CPU_DIR "/cpu.cfs_period_us", "100000\n");
	e = poll_into(cg, &sm, 5000);
	assert_int_equal(e.u.cpu.nr_throttled, 2);
	assert_null(cgroup_probe_last_error(cg, NULL));
	assert_int_equal(summary_nr_throttled(&sm), 23 + 2);
	assert_double_equal(summary_throttled_ms(&sm), 2150.0, 1e-9);
	cgroup_probe_close(cg);
}

/* Samples that never had the counters (a v2 cgroup without the cpu controller,
 * a recording of one) give 0, and so does an empty run. */
static void test_never_known(void **state)
{
	(void)state;
	struct summary sm;
	summary_init(&sm);
	assert_int_equal(summary_nr_throttled(&sm), 0);
	assert_double_equal(summary_throttled_ms(&sm), 0, 0);
	for (int i = 0; i < 3; i++) {
		struct event e;
		ev_init(&e, EV_CPU);
		e.t_ms = 1000 * i;
		e.u.cpu.usage_us = 1000 * i;
		summary_add(&sm, &e);
	}
	assert_int_equal(sm.throttle_samples, 3);
	assert_int_equal(summary_nr_throttled(&sm), 0);
	assert_double_equal(summary_throttled_ms(&sm), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cpu_dir_removed, unstage),
		cmocka_unit_test(test_never_known),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
