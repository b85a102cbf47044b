/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_probe.c — cgroup, sched and vmstat probes on fixture trees
 * (tests/fixtures/probe/, tests/fixtures/discover/jvm-real/; see their README).
 * Every test copies its tree to a temp dir first, so rewriting counters between
 * two polls, deleting files or chmod'ing them never touches the source tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stwtop/probe.h"
#include "testutil_probe.h"

#define FIX STWTOP_TEST_DIR "/fixtures"

static const struct event *find_kind(const struct event *ev, int n, int kind)
{
	for (int i = 0; i < n; i++)
		if (ev[i].kind == kind)
			return &ev[i];
	return NULL;
}

static int read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = -1;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &pid), 1); /* our own fixture file, not a log line */
	fclose(f);
	return pid;
}

/* ------------------------------------------------------------ cgroup v1 --- */

/* The real layout of this machine: v1 cpu, cpuacct and memory mounted apart, plus
 * cgroup2 at /sys/fs/cgroup/unified (hybrid); process in nested /stwtop-fx/app. */
static void test_v1_hybrid_by_pid(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-hybrid");
	char err[512], desc[512], p[512];
	snprintf(p, sizeof p, "%s/PID", root);
	int pid = read_pid(p);
	struct cgroup_probe *cg = cgroup_probe_open(root, pid, NULL, err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_cpu_version(cg), 1);
	assert_int_equal(cgroup_probe_mem_version(cg), 1);

	struct event ev[4];
	int n = cgroup_probe_poll(cg, 1000, ev, 4);
	assert_int_equal(n, 2);
	assert_null(cgroup_probe_last_error(cg, NULL));
	const struct event *c = find_kind(ev, n, EV_CPU), *m = find_kind(ev, n, EV_MEM);
	assert_non_null(c);
	assert_non_null(m);
	assert_int_equal(c->t_ms, 1000);
	assert_int_equal(c->u.cpu.cg_version, 1);
	/* values of the captured files (see tests/fixtures/probe/README.md) */
	assert_int_equal(c->u.cpu.nr_periods, 15);
	assert_int_equal(c->u.cpu.nr_throttled, 12);
	assert_int_equal(c->u.cpu.throttled_us, 850808);   /* throttled_time 850808417 ns */
	assert_int_equal(c->u.cpu.quota_us, 30000);
	assert_int_equal(c->u.cpu.period_us, 100000);
	assert_true(c->u.cpu.usage_us > 0);                /* from the separate cpuacct hierarchy */
	assert_true(c->u.cpu.psi_some_avg10 >= 0);         /* from the unified (v2) root */
	assert_int_equal(m->u.mem.usage_bytes, 8581120);
	assert_int_equal(m->u.mem.limit_bytes, 536870912);
	assert_int_equal(m->u.mem.anon_bytes, 8081408);
	assert_int_equal(m->u.mem.file_bytes, 0);
	assert_true(m->u.mem.psi_some_avg10 >= 0);

	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "cgroup v1 cpu "));
	assert_non_null(strstr(desc, "/sys/fs/cgroup/cpu/stwtop-fx/app (quota 0.30 CPU)"));
	assert_non_null(strstr(desc, "cpuacct "));
	assert_non_null(strstr(desc, "memory "));
	assert_non_null(strstr(desc, "/sys/fs/cgroup/memory/stwtop-fx/app (limit 512M)"));
	cgroup_probe_close(cg);
}

/* Deltas: rewrite the counter files between two polls, as the kernel would. */
static void test_v1_deltas(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-hybrid");
	char err[512];
	struct event a[4], b[4];
	struct cgroup_probe *cg = cgroup_probe_open(root, 0, "/sys/fs/cgroup/cpu/stwtop-fx/app", err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_poll(cg, 1000, a, 4), 2);
	write_file(root, "/sys/fs/cgroup/cpu/stwtop-fx/app/cpu.stat",
		   "nr_periods 25\nnr_throttled 21\nthrottled_time 2650808417\nnr_bursts 0\nburst_time 0\n");
	write_file(root, "/sys/fs/cgroup/cpu/stwtop-fx/app/cpu.cfs_quota_us", "5000\n");
	write_file(root, "/sys/fs/cgroup/memory/stwtop-fx/app/memory.usage_in_bytes", "9629696\n");
	assert_int_equal(cgroup_probe_poll(cg, 2000, b, 4), 2);
	const struct event *c0 = find_kind(a, 2, EV_CPU), *c1 = find_kind(b, 2, EV_CPU);
	assert_int_equal(c1->u.cpu.nr_periods - c0->u.cpu.nr_periods, 10);
	assert_int_equal(c1->u.cpu.nr_throttled - c0->u.cpu.nr_throttled, 9);
	assert_int_equal(c1->u.cpu.throttled_us - c0->u.cpu.throttled_us, 1800000);
	assert_int_equal(c1->u.cpu.quota_us, 5000); /* quota changes are seen (throttle-stop does this) */
	assert_int_equal(find_kind(b, 2, EV_MEM)->u.mem.usage_bytes - find_kind(a, 2, EV_MEM)->u.mem.usage_bytes,
			 1048576);
	cgroup_probe_close(cg);
}

/* --dir with a v1 cpu dir: cpuacct and memory found at the same relative path */
static void test_v1_dir_siblings(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-hybrid");
	char err[512], desc[512];
	struct cgroup_probe *cg = cgroup_probe_open(root, 0, "/sys/fs/cgroup/cpu/stwtop-fx/app", err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_cpu_version(cg), 1);
	assert_int_equal(cgroup_probe_mem_version(cg), 1);
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 1, ev, 2), 2);
	assert_true(ev[0].u.cpu.usage_us > 0);
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "/sys/fs/cgroup/memory/stwtop-fx/app"));
	cgroup_probe_close(cg);

	/* through a symlink, as /sys/fs/cgroup/cpu -> cpu,cpuacct on many distributions:
	 * the siblings are still found (the path is made canonical first) */
	char link[600];
	snprintf(link, sizeof link, "%s/sys/fs/cgroup/cpu-link", root);
	assert_int_equal(symlink("cpu", link), 0);
	cg = cgroup_probe_open(root, 0, "/sys/fs/cgroup/cpu-link/stwtop-fx/app", err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_mem_version(cg), 1);
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "/sys/fs/cgroup/cpu/stwtop-fx/app (quota 0.30 CPU)"));
	cgroup_probe_close(cg);

	/* a memory dir alone gives memory only, with cpu found as its sibling */
	cg = cgroup_probe_open(root, 0, "/sys/fs/cgroup/memory/stwtop-fx/app", err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_mem_version(cg), 1);
	assert_int_equal(cgroup_probe_cpu_version(cg), 1);
	cgroup_probe_close(cg);

	/* not a cgroup dir / missing dir: clear messages */
	cg = cgroup_probe_open(root, 0, "/proc", err, sizeof err);
	assert_null(cg);
	assert_non_null(strstr(err, "is not a cgroup cpu or memory directory"));
	cg = cgroup_probe_open(root, 0, "/sys/fs/cgroup/cpu/nope", err, sizeof err);
	assert_null(cg);
	assert_non_null(strstr(err, "No such file or directory"));
	assert_non_null(strstr(err, "/sys/fs/cgroup/cpu/nope"));
}

/* A v1 container without a cgroup namespace: /proc/1/cgroup shows the host path,
 * mountinfo's root field is that same path, cpu and cpuacct co-mounted. */
static void test_v1_pod(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-pod");
	char err[512], desc[512];
	struct cgroup_probe *cg = cgroup_probe_open(root, 1, NULL, err, sizeof err);
	assert_non_null(cg);
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 5, ev, 2), 2);
	assert_int_equal(ev[0].kind, EV_CPU);
	assert_int_equal(ev[0].u.cpu.nr_throttled, 6034);
	assert_int_equal(ev[0].u.cpu.throttled_us, 1022934871);
	assert_int_equal(ev[0].u.cpu.usage_us, 4511873650);
	assert_int_equal(ev[0].u.cpu.quota_us, 50000);
	assert_int_equal(ev[1].u.mem.limit_bytes, 1073741824);
	assert_int_equal(ev[1].u.mem.anon_bytes, 701497344);
	assert_int_equal(ev[1].u.mem.file_bytes, 94371840);
	assert_double_equal(ev[0].u.cpu.psi_some_avg10, -1, 0); /* no cgroup2: no PSI */
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "/sys/fs/cgroup/cpu,cpuacct (quota 0.50 CPU)"));
	assert_non_null(strstr(desc, "/sys/fs/cgroup/memory (limit 1.0G)"));
	assert_null(strstr(desc, "not visible")); /* the path was under the mount root: no fallback */
	cgroup_probe_close(cg);
}

/* ------------------------------------------------------------ cgroup v2 --- */

static void test_v2_nested(void **state)
{
	(void)state;
	const char *root = stage("probe/v2-nested");
	char err[512], desc[512];
	struct cgroup_probe *cg = cgroup_probe_open(root, 2211, NULL, err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_cpu_version(cg), 2);
	assert_int_equal(cgroup_probe_mem_version(cg), 2);
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 7, ev, 2), 2);
	const struct ev_cpu *c = &ev[0].u.cpu;
	assert_int_equal(c->cg_version, 2);
	assert_int_equal(c->usage_us, 8317265);
	assert_int_equal(c->nr_periods, 812);
	assert_int_equal(c->nr_throttled, 97);
	assert_int_equal(c->throttled_us, 4176534);
	assert_int_equal(c->quota_us, 150000);
	assert_int_equal(c->period_us, 100000);
	assert_double_equal(c->psi_some_avg10, 12.5, 1e-9);
	const struct ev_mem *m = &ev[1].u.mem;
	assert_int_equal(m->usage_bytes, 402653184);
	assert_int_equal(m->limit_bytes, 536870912);
	assert_int_equal(m->anon_bytes, 318767104);
	assert_int_equal(m->file_bytes, 71303168); /* "file", not "file_mapped" */
	assert_double_equal(m->psi_some_avg10, 0.31, 1e-9);
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "cgroup v2 cpu "));
	assert_non_null(strstr(desc, "/sys/fs/cgroup/system.slice/catalog.service/jvm (quota 1.50 CPU)"));

	/* cpu.max "max": unlimited; memory.max "max": unlimited */
	write_file(root, "/sys/fs/cgroup/system.slice/catalog.service/jvm/cpu.max", "max 100000\n");
	write_file(root, "/sys/fs/cgroup/system.slice/catalog.service/jvm/memory.max", "max\n");
	assert_int_equal(cgroup_probe_poll(cg, 8, ev, 2), 2);
	assert_int_equal(ev[0].u.cpu.quota_us, -1);
	assert_int_equal(ev[0].u.cpu.period_us, 100000);
	assert_int_equal(ev[1].u.mem.limit_bytes, -1);
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "(no quota)"));
	assert_non_null(strstr(desc, "(no limit)"));
	cgroup_probe_close(cg);
}

/* The REAL v2 tree of a hybrid host (capture-v2-hybrid.sh): a child of the
 * cgroup2 "unified" mount, whose controllers are all bound to v1 here. cpu.stat
 * has usage_usec and friends only (no nr_periods/nr_throttled/throttled_usec:
 * those come with the cpu controller), there is no cpu.max and no memory.*
 * but the pressure files: CPU usage is known, throttling and quota are not. */
static void test_v2_hybrid_real(void **state)
{
	(void)state;
	const char *root = stage("probe/v2-hybrid-real");
	char err[512], desc[512];
	const char *dir = "/sys/fs/cgroup/unified/stwtop-fx/app";
	struct cgroup_probe *cg = cgroup_probe_open(root, 0, dir, err, sizeof err);
	if (!cg)
		fail_msg("%s", err);
	assert_int_equal(cgroup_probe_cpu_version(cg), 2);
	assert_int_equal(cgroup_probe_mem_version(cg), 0);
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 7, ev, 2), 1);
	assert_null(cgroup_probe_last_error(cg, NULL)); /* nothing missing is read */
	const struct ev_cpu *c = &ev[0].u.cpu;
	assert_int_equal(ev[0].kind, EV_CPU);
	assert_int_equal(c->cg_version, 2);
	assert_int_equal(c->usage_us, 490648);
	assert_int_equal(c->nr_periods, -1);
	assert_int_equal(c->nr_throttled, -1);
	assert_int_equal(c->throttled_us, -1);
	assert_int_equal(c->quota_us, -2);
	assert_double_equal(c->psi_some_avg10, 0.0, 0);
	cgroup_probe_describe(cg, desc, sizeof desc);
	print_message("%s\n", desc);
	assert_non_null(strstr(desc, "cgroup v2 cpu "));
	assert_non_null(strstr(desc, "(no cpu controller here: usage only, no quota or throttling)"));
	assert_non_null(strstr(desc, "no memory controller"));
	assert_non_null(strstr(desc, "pressure "));
	cgroup_probe_close(cg);
}

/* The pod case: the container sees its own cgroup as "/" (/proc/1/cgroup "0::/"),
 * mountinfo's root field is the host path; and pid 77 shows the full host path. */
static void test_v2_pod(void **state)
{
	(void)state;
	const char *root = stage("probe/v2-pod");
	char err[512], desc[512];
	int pids[] = {1, 77};
	for (size_t i = 0; i < 2; i++) {
		struct cgroup_probe *cg = cgroup_probe_open(root, pids[i], NULL, err, sizeof err);
		assert_non_null(cg);
		struct event ev[2];
		assert_int_equal(cgroup_probe_poll(cg, 9, ev, 2), 2);
		assert_int_equal(ev[0].u.cpu.nr_throttled, 4419);
		assert_int_equal(ev[0].u.cpu.throttled_us, 301884211);
		assert_int_equal(ev[0].u.cpu.quota_us, 200000);
		assert_double_equal(ev[0].u.cpu.psi_some_avg10, 31.04, 1e-9);
		assert_int_equal(ev[1].u.mem.limit_bytes, 2147483648LL);
		cgroup_probe_describe(cg, desc, sizeof desc);
		char want[512];
		snprintf(want, sizeof want, "cgroup v2 cpu %s/sys/fs/cgroup (quota 2.00 CPU)", root);
		assert_non_null(strstr(desc, want));
		cgroup_probe_close(cg);
	}
}

/* REAL, from Debian 12's 6.1 kernel booted on pure cgroup v2 (tests/e2e/cgroup2_vm.sh, its
 * sigkill case): the JVM (pid 274) in /stwtop-sigkill/jvm, which has the cpu and memory
 * controllers but no limits of its own (cpu.max "max 100000", memory.max "max"); the limits are
 * on its parent (cpu.max "50000 100000", memory.max 128 MiB), as a pod's cgroup holds a
 * container's or a systemd slice a service's. The kernel counts the throttling in the parent's
 * cpu.stat only (108 of 215 periods there, 0 of 0 in the JVM's own). Before the fix stwtop said
 * "no quota", "no limit" and 0 throttled periods for a JVM throttled half the time. */
static void test_v2_vm_ancestor(void **state)
{
	(void)state;
	const char *root = stage("probe/v2-vm-ancestor");
	char err[512], desc[1024], want[512];
	int pid = read_pid(FIX "/probe/v2-vm-ancestor/PID");
	struct cgroup_probe *cg = cgroup_probe_open(root, pid, NULL, err, sizeof err);
	if (!cg)
		fail_msg("%s", err);
	assert_int_equal(cgroup_probe_cpu_version(cg), 2);
	assert_int_equal(cgroup_probe_mem_version(cg), 2);
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 7, ev, 2), 2);
	assert_null(cgroup_probe_last_error(cg, NULL));
	const struct ev_cpu *c = &ev[0].u.cpu;
	assert_int_equal(c->cg_version, 2);
	assert_int_equal(c->usage_us, 9207976);    /* its own usage_usec */
	assert_int_equal(c->nr_periods, 215);      /* the parent's throttling */
	assert_int_equal(c->nr_throttled, 108);
	assert_int_equal(c->throttled_us, 2728589);
	assert_int_equal(c->quota_us, 50000);
	assert_int_equal(c->period_us, 100000);
	assert_double_equal(c->psi_some_avg10, 45.73, 1e-9);
	const struct ev_mem *m = &ev[1].u.mem;
	assert_int_equal(m->usage_bytes, 57929728);
	assert_int_equal(m->limit_bytes, 134217728); /* the parent's memory.max */
	assert_int_equal(m->anon_bytes, 22204416);
	assert_int_equal(m->file_bytes, 35233792);
	assert_int_equal(m->oom_kill, 0);
	cgroup_probe_describe(cg, desc, sizeof desc);
	print_message("%s\n", desc);
	snprintf(want, sizeof want, "cgroup v2 cpu %s/sys/fs/cgroup/stwtop-sigkill/jvm (quota 0.50 CPU, from its ancestor "
		 "%s/sys/fs/cgroup/stwtop-sigkill)", root, root);
	assert_non_null(strstr(desc, want));
	snprintf(want, sizeof want, "memory %s/sys/fs/cgroup/stwtop-sigkill/jvm (limit 128M, from its ancestor "
		 "%s/sys/fs/cgroup/stwtop-sigkill)", root, root);
	assert_non_null(strstr(desc, want));

	/* a quota of its own: that one, and its own counters; a lower memory.max of its own wins, a
	 * higher one does not */
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/jvm/cpu.max", "20000 100000\n");
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/jvm/memory.max", "67108864\n");
	assert_int_equal(cgroup_probe_poll(cg, 8, ev, 2), 2);
	assert_int_equal(ev[0].u.cpu.quota_us, 20000);
	assert_int_equal(ev[0].u.cpu.nr_periods, 0);
	assert_int_equal(ev[0].u.cpu.nr_throttled, 0);
	assert_int_equal(ev[1].u.mem.limit_bytes, 67108864);
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_null(strstr(desc, "ancestor"));
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/jvm/memory.max", "268435456\n");
	assert_int_equal(cgroup_probe_poll(cg, 9, ev, 2), 2);
	assert_int_equal(ev[1].u.mem.limit_bytes, 134217728);

	/* no limit anywhere up to the mount (the root cgroup has no cpu.max or memory.max): none */
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/jvm/cpu.max", "max 100000\n");
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/cpu.max", "max 100000\n");
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/jvm/memory.max", "max\n");
	write_file(root, "/sys/fs/cgroup/stwtop-sigkill/memory.max", "max\n");
	assert_int_equal(cgroup_probe_poll(cg, 10, ev, 2), 2);
	assert_int_equal(ev[0].u.cpu.quota_us, -1);
	assert_int_equal(ev[0].u.cpu.nr_throttled, 0);
	assert_int_equal(ev[1].u.mem.limit_bytes, -1);
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "(no quota)"));
	assert_non_null(strstr(desc, "(no limit)"));
	cgroup_probe_close(cg);
}

/* The same real v2 tree, a process in the root cgroup ("0::/"; the guest's own processes before
 * a cgroup is made). The kernel has no memory.current, memory.max or memory.events there, only
 * memory.stat and memory.pressure: nothing to poll for memory, and nothing to complain about at
 * every poll (before: "memory.current: ... No such file or directory" and no memory sample). */
static void test_v2_vm_root(void **state)
{
	(void)state;
	const char *root = stage("probe/v2-vm-ancestor");
	char err[512], desc[1024];
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/proc/1'", root);
	assert_int_equal(system(cmd), 0);
	write_file(root, "/proc/1/cgroup", "0::/\n");
	struct cgroup_probe *cg = cgroup_probe_open(root, 1, NULL, err, sizeof err);
	if (!cg)
		fail_msg("%s", err);
	assert_int_equal(cgroup_probe_cpu_version(cg), 2);
	assert_int_equal(cgroup_probe_mem_version(cg), 0);
	assert_null(cgroup_probe_last_error(cg, NULL));
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 7, ev, 2), 1);
	assert_null(cgroup_probe_last_error(cg, NULL));
	assert_int_equal(ev[0].kind, EV_CPU);
	assert_int_equal(ev[0].u.cpu.usage_us, 39484000);
	cgroup_probe_describe(cg, desc, sizeof desc);
	print_message("%s\n", desc);
	assert_non_null(strstr(desc, "memory: none read (the root cgroup has no memory.current or memory.max)"));
	cgroup_probe_close(cg);
}

/* Hybrid where v1 carries only memory and the unified hierarchy has cpu. */
static void test_hybrid_v2_cpu(void **state)
{
	(void)state;
	const char *root = stage("probe/hybrid-v2cpu");
	char err[512], desc[512];
	struct cgroup_probe *cg = cgroup_probe_open(root, 900, NULL, err, sizeof err);
	assert_non_null(cg);
	assert_int_equal(cgroup_probe_cpu_version(cg), 2);
	assert_int_equal(cgroup_probe_mem_version(cg), 1);
	struct event ev[2];
	assert_int_equal(cgroup_probe_poll(cg, 3, ev, 2), 2);
	assert_int_equal(ev[0].u.cpu.throttled_us, 900000);
	assert_int_equal(ev[0].u.cpu.quota_us, -1);
	assert_int_equal(ev[1].u.mem.usage_bytes, 104857600);
	assert_int_equal(ev[1].u.mem.limit_bytes, -1); /* v1's 9223372036854771712 = unlimited */
	cgroup_probe_describe(cg, desc, sizeof desc);
	assert_non_null(strstr(desc, "cgroup v2 cpu "));
	assert_non_null(strstr(desc, "memory v1 "));
	cgroup_probe_close(cg);
}

static void test_no_cgroup(void **state)
{
	(void)state;
	const char *root = stage("probe/no-cgroup");
	char err[512];
	assert_null(cgroup_probe_open(root, 5, NULL, err, sizeof err));
	assert_non_null(strstr(err, "no cgroup (v1 or v2) is mounted"));
	/* a process that does not exist */
	const char *r2 = FIX "/probe/v1-hybrid";
	assert_null(cgroup_probe_open(r2, 999999, NULL, err, sizeof err));
	assert_non_null(strstr(err, "/proc/999999/cgroup"));
	assert_non_null(strstr(err, "no such process"));
	assert_null(cgroup_probe_open(r2, 0, NULL, err, sizeof err));
	assert_true(strlen(err) > 0);
}

/* A file vanishes, then comes back; the whole cgroup goes away. */
static void test_file_vanishes(void **state)
{
	(void)state;
	const char *root = stage("probe/v2-nested");
	char err[512], path[600];
	int e = 0;
	const char *dir = "/sys/fs/cgroup/system.slice/catalog.service/jvm";
	struct cgroup_probe *cg = cgroup_probe_open(root, 2211, NULL, err, sizeof err);
	assert_non_null(cg);
	struct event ev[2];
	snprintf(path, sizeof path, "%s%s/cpu.stat", root, dir);
	assert_int_equal(unlink(path), 0);
	int n = cgroup_probe_poll(cg, 1, ev, 2);
	assert_int_equal(n, 1); /* memory still read */
	assert_int_equal(ev[0].kind, EV_MEM);
	const char *msg = cgroup_probe_last_error(cg, &e);
	assert_non_null(msg);
	assert_int_equal(e, ENOENT);
	assert_non_null(strstr(msg, "cpu.stat: "));
	assert_non_null(strstr(msg, path));
	assert_non_null(strstr(msg, "No such file or directory"));
	/* it comes back: polled again, no error */
	write_file(root, "/sys/fs/cgroup/system.slice/catalog.service/jvm/cpu.stat",
		   "usage_usec 9000000\nnr_periods 900\nnr_throttled 98\nthrottled_usec 4200000\n");
	assert_int_equal(cgroup_probe_poll(cg, 2, ev, 2), 2);
	assert_null(cgroup_probe_last_error(cg, NULL));
	assert_int_equal(ev[0].u.cpu.nr_periods, 900);
	/* the cgroup is removed entirely: -ENOENT, never a crash */
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s%s'", root, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(cgroup_probe_poll(cg, 3, ev, 2), -ENOENT);
	assert_non_null(cgroup_probe_last_error(cg, NULL));
	cgroup_probe_close(cg);
}

static void test_unreadable(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-hybrid");
	char err[512], path[600];
	int e = 0;
	struct cgroup_probe *cg = cgroup_probe_open(root, 0, "/sys/fs/cgroup/cpu/stwtop-fx/app", err, sizeof err);
	assert_non_null(cg);
	snprintf(path, sizeof path, "%s/sys/fs/cgroup/memory/stwtop-fx/app/memory.stat", root);
	assert_int_equal(chmod(path, 0), 0);
	snprintf(path, sizeof path, "%s/sys/fs/cgroup/cpu/stwtop-fx/app/cpu.stat", root);
	assert_int_equal(chmod(path, 0), 0);
	assert_true(caps_dac(false));
	struct event ev[2];
	int n = cgroup_probe_poll(cg, 1, ev, 2);
	const char *msg = cgroup_probe_last_error(cg, &e);
	char copy[512];
	snprintf(copy, sizeof copy, "%s", msg ? msg : "");
	assert_true(caps_dac(true));
	/* the cpu event still comes from cpuacct.usage and the quota files; memory without anon/file */
	assert_int_equal(n, 2);
	assert_int_equal(ev[0].kind, EV_CPU);
	assert_int_equal(ev[0].u.cpu.nr_throttled, -1);
	assert_int_equal(ev[0].u.cpu.quota_us, 30000);
	assert_int_equal(ev[1].u.mem.anon_bytes, -1);
	assert_int_equal(ev[1].u.mem.usage_bytes, 8581120);
	assert_int_equal(e, EACCES);
	assert_non_null(strstr(copy, "cpu.stat: "));
	assert_non_null(strstr(copy, "memory.stat: "));
	assert_non_null(strstr(copy, "Permission denied"));
	cgroup_probe_close(cg);
}

/* ----------------------------------------------------------------- sched --- */

/* The real task directory of a JVM (23 threads) captured by capture-jvm.sh */
static void test_sched_fixture(void **state)
{
	(void)state;
	const char *root = stage("discover/jvm-real");
	char err[512], p[600];
	snprintf(p, sizeof p, "%s/JVM_PID", root);
	int pid = read_pid(p);
	struct sched_probe *sp = sched_probe_open(root, pid, err, sizeof err);
	assert_non_null(sp);
	struct event ev;
	assert_int_equal(sched_probe_poll(sp, 10000, &ev), 0); /* baseline */

	/* find the VM Thread and worker-0 tids by comm, as the kernel names them */
	int vm = -1, w0 = -1, gone = -1;
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cd '%s/proc/%d/task' && grep -l . */comm", root, pid);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	char line[256];
	while (fgets(line, sizeof line, f)) {
		int tid = atoi(line);
		char cp[700], comm[64] = "";
		snprintf(cp, sizeof cp, "%s/proc/%d/task/%d/comm", root, pid, tid);
		FILE *c = fopen(cp, "r");
		if (c && fgets(comm, sizeof comm, c)) {
			if (strcmp(comm, "VM Thread\n") == 0)
				vm = tid;
			else if (strcmp(comm, "worker-0\n") == 0)
				w0 = tid;
			else if (strcmp(comm, "Finalizer\n") == 0)
				gone = tid;
		}
		if (c)
			fclose(c);
	}
	pclose(f);
	assert_true(vm > 0 && w0 > 0 && gone > 0);

	/* VM Thread: +10 ms on CPU, +20 ms waiting; worker-0 +5/+1 ms; Finalizer exits;
	 * a new thread appears with 3 ms / 4 ms */
	snprintf(p, sizeof p, "/proc/%d/task/%d/schedstat", pid, vm);
	write_file(root, p, "11906554 23946048 20\n");            /* was 1906554 3946048 */
	snprintf(p, sizeof p, "/proc/%d/task/%d/schedstat", pid, w0);
	write_file(root, p, "315749390 126719309 140\n");          /* was 310749390 125719309 */
	snprintf(cmd, sizeof cmd, "rm -rf '%s/proc/%d/task/%d' && mkdir '%s/proc/%d/task/99999'", root, pid, gone,
		 root, pid);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof p, "/proc/%d/task/99999/schedstat", pid);
	write_file(root, p, "3000000 4000000 5\n");
	snprintf(p, sizeof p, "/proc/%d/task/99999/comm", pid);
	write_file(root, p, "new-thread\n");

	assert_int_equal(sched_probe_poll(sp, 11000, &ev), 1);
	assert_int_equal(ev.kind, EV_SCHED);
	assert_int_equal(ev.t_ms, 11000);
	assert_double_equal(ev.u.sched.interval_ms, 1000, 0);
	assert_int_equal(ev.u.sched.nthreads, 23);               /* 23 - 1 + 1 */
	assert_double_equal(ev.u.sched.oncpu_ms, 18.0, 1e-9);    /* 10 + 5 + 3 */
	assert_double_equal(ev.u.sched.wait_ms, 25.0, 1e-9);     /* 20 + 1 + 4 */
	/* idle: the 22 threads present at both polls x 1000 ms - their 10+20 + 5+1 ms;
	 * the new thread adds its 3 + 4 ms above but no idle, the exited one nothing */
	assert_double_equal(ev.u.sched.idle_ms, 22 * 1000.0 - 36.0, 1e-6);
	assert_int_equal(ev.u.sched.worst_tid, vm);
	assert_double_equal(ev.u.sched.worst_wait_ms, 20.0, 1e-9);
	assert_string_equal(ev.u.sched.worst_comm, "VM Thread");

	struct sched_thread th[64];
	int n = sched_probe_threads(sp, th, 64);
	assert_int_equal(n, 23);
	assert_string_equal(th[0].comm, "VM Thread");
	assert_int_equal(th[0].tid, vm);
	assert_string_equal(th[1].comm, "new-thread");
	assert_string_equal(th[2].comm, "worker-0");

	/* nothing changed: an interval with zeros and no worst thread */
	assert_int_equal(sched_probe_poll(sp, 12000, &ev), 1);
	assert_double_equal(ev.u.sched.oncpu_ms, 0, 0);
	assert_int_equal(ev.u.sched.worst_tid, -1);
	assert_double_equal(ev.u.sched.idle_ms, 23 * 1000.0, 1e-6); /* all of them slept */

	/* the pid now names another process (different start time): gone */
	char statp[600], stat[1024];
	snprintf(statp, sizeof statp, "%s/proc/%d/stat", root, pid);
	f = fopen(statp, "r");
	assert_non_null(f);
	assert_non_null(fgets(stat, sizeof stat, f));
	fclose(f);
	char *st = strdup(stat);
	/* zombie: state Z */
	char *rp = strrchr(stat, ')');
	rp[2] = 'Z';
	snprintf(p, sizeof p, "/proc/%d/stat", pid);
	write_file(root, p, stat);
	assert_int_equal(sched_probe_poll(sp, 13000, &ev), -ESRCH);
	/* back alive, then the process directory disappears */
	write_file(root, p, st);
	free(st);
	assert_int_equal(sched_probe_poll(sp, 14000, &ev), 1);
	snprintf(cmd, sizeof cmd, "rm -rf '%s/proc/%d'", root, pid);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sched_probe_poll(sp, 15000, &ev), -ESRCH);
	sched_probe_close(sp);

	assert_null(sched_probe_open(root, pid, err, sizeof err));
	assert_non_null(strstr(err, "no such process"));
}

static void test_sched_pid_reuse(void **state)
{
	(void)state;
	const char *root = stage("discover/jvm-real");
	char err[512], p[600], statp[600], stat[1024];
	snprintf(p, sizeof p, "%s/JVM_PID", root);
	int pid = read_pid(p);
	struct sched_probe *sp = sched_probe_open(root, pid, err, sizeof err);
	assert_non_null(sp);
	struct event ev;
	assert_int_equal(sched_probe_poll(sp, 1, &ev), 0);
	snprintf(statp, sizeof statp, "%s/proc/%d/stat", root, pid);
	FILE *f = fopen(statp, "r");
	assert_non_null(fgets(stat, sizeof stat, f));
	fclose(f);
	/* field 22 (starttime) + 1: another process with the same pid */
	char *s = strrchr(stat, ')') + 2;
	for (int i = 3; i < 22; i++)
		s = strchr(s, ' ') + 1;
	char *e = strchr(s, ' ');
	char out[1100];
	long long t = atoll(s);
	snprintf(out, sizeof out, "%.*s%lld%s", (int)(s - stat), stat, t + 1, e);
	snprintf(p, sizeof p, "/proc/%d/stat", pid);
	write_file(root, p, out);
	assert_int_equal(sched_probe_poll(sp, 2, &ev), -ESRCH);
	sched_probe_close(sp);
}

/* ---------------------------------------------------------------- vmstat --- */

static void test_vmstat(void **state)
{
	(void)state;
	const char *root = stage("probe/v1-hybrid");
	char err[256];
	struct vmstat_probe *vp = vmstat_probe_open(root, err, sizeof err);
	assert_non_null(vp);
	struct event ev;
	assert_int_equal(vmstat_probe_poll(vp, 5, &ev), 1);
	assert_int_equal(ev.kind, EV_VMSTAT);
	/* the real file of this machine (6.18): five allocstall_* zones */
	assert_int_equal(ev.u.vm.allocstall, 0);
	assert_int_equal(ev.u.vm.pageoutrun, 0);
	assert_int_equal(ev.u.vm.pgscan_direct, 0);
	/* counters move */
	write_file(root, "/proc/vmstat",
		   "nr_free_pages 1000\nallocstall_dma 0\nallocstall_dma32 3\nallocstall_normal 40\n"
		   "allocstall_movable 2\nallocstall_device 0\npgscan_kswapd 5\npgscan_direct 812\n"
		   "pgscan_direct_throttle 0\npageoutrun 17\n");
	assert_int_equal(vmstat_probe_poll(vp, 6, &ev), 1);
	assert_int_equal(ev.u.vm.allocstall, 45);
	assert_int_equal(ev.u.vm.pgscan_direct, 812);
	assert_int_equal(ev.u.vm.pageoutrun, 17);
	/* synthetic: a pre-4.8 kernel with one allocstall counter and no pgscan_direct */
	write_file(root, "/proc/vmstat", "nr_free_pages 1000\nallocstall 12\npageoutrun 3\n");
	assert_int_equal(vmstat_probe_poll(vp, 7, &ev), 1);
	assert_int_equal(ev.u.vm.allocstall, 12);
	assert_int_equal(ev.u.vm.pgscan_direct, -1);
	/* gone: -ENOENT, then back */
	char path[600];
	snprintf(path, sizeof path, "%s/proc/vmstat", root);
	unlink(path);
	assert_int_equal(vmstat_probe_poll(vp, 8, &ev), -ENOENT);
	vmstat_probe_close(vp);
	assert_null(vmstat_probe_open(root, err, sizeof err));
	assert_non_null(strstr(err, "/proc/vmstat: No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_v1_hybrid_by_pid, unstage),
		cmocka_unit_test_teardown(test_v1_deltas, unstage),
		cmocka_unit_test_teardown(test_v1_dir_siblings, unstage),
		cmocka_unit_test_teardown(test_v1_pod, unstage),
		cmocka_unit_test_teardown(test_v2_nested, unstage),
		cmocka_unit_test_teardown(test_v2_pod, unstage),
		cmocka_unit_test_teardown(test_v2_hybrid_real, unstage),
		cmocka_unit_test_teardown(test_v2_vm_ancestor, unstage),
		cmocka_unit_test_teardown(test_v2_vm_root, unstage),
		cmocka_unit_test_teardown(test_hybrid_v2_cpu, unstage),
		cmocka_unit_test_teardown(test_no_cgroup, unstage),
		cmocka_unit_test_teardown(test_file_vanishes, unstage),
		cmocka_unit_test_teardown(test_unreadable, unstage),
		cmocka_unit_test_teardown(test_sched_fixture, unstage),
		cmocka_unit_test_teardown(test_sched_pid_reuse, unstage),
		cmocka_unit_test_teardown(test_vmstat, unstage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
