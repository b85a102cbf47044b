/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_hsperf.c — core/probe/hsperf.c on real hsperfdata files copied from
 * JDK 17 JVMs (tests/fixtures/hsperf/: g1-jdk17.hsperf after two young GCs,
 * z-jdk17.hsperf before its first cycle), and on copies of them altered the
 * ways a live or hostile file can be: a JVM still starting, entries added while
 * we read, an entry half written, names without a NUL, offsets past the end,
 * another byte order or version. The numbers themselves are compared with jstat
 * and jcmd on live JVMs in test_hsperf_live.c. */
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

#include "stwtop/hsperf.h"
#include "stwtop/probe.h"

static uint8_t *load(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/fixtures/hsperf/%s", STWTOP_TEST_DIR, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t *b = malloc(1 << 16);
	assert_non_null(b);
	*len = fread(b, 1, 1 << 16, f);
	fclose(f);
	assert_int_equal(*len, 32768);
	return b;
}

static void put32(uint8_t *b, size_t off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static uint32_t get32(const uint8_t *b, size_t off)
{
	uint32_t v;
	memcpy(&v, b + off, 4);
	return v;
}

static void test_g1_file(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("g1-jdk17.hsperf", &len);
	struct hsperf h;
	struct hsperf_sample s;
	int64_t v;
	char str[64];
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	assert_int_equal(h.nents, 187);
	assert_false(h.incomplete);
	assert_int_equal(h.overflow, 0);
	assert_int_equal(h.mod_time, 192511573); /* prologue bytes 16-23 */
	assert_true(hsperf_long(&h, "sun.os.hrt.frequency", &v));
	assert_int_equal(v, 1000000000);
	assert_true(hsperf_string(&h, "sun.gc.collector.0.name", str, sizeof str));
	assert_string_equal(str, "G1 young collection pauses");
	assert_false(hsperf_long(&h, "sun.gc.collector.0.name", &v)); /* a string, not a long */
	assert_false(hsperf_long(&h, "sun.gc.collector.3.invocations", &v));
	assert_int_equal(hsperf_sample(&h, &s), 0);
	assert_string_equal(s.policy, "GarbageFirst");
	assert_string_equal(s.last_cause, "G1 Evacuation Pause");
	assert_string_equal(s.gen[0].name, "young");
	assert_string_equal(s.gen[0].space[0].name, "eden");
	assert_string_equal(s.gen[1].space[0].name, "space");
	assert_true(s.coll[0].present && s.coll[1].present && s.coll[2].present && !s.coll[3].present);
	assert_int_equal(s.coll[0].invocations, 2);
	assert_int_equal(s.safepoints, 2);
	assert_int_equal(s.create_vm_begin_ms, 1796225375295LL);
	/* G1: each generation's maximum is the whole heap; committed is young + old */
	assert_int_equal(s.heap_max, s.gen[0].max_capacity);
	assert_int_equal(s.heap_committed, s.gen[0].capacity + s.gen[1].capacity);
	assert_int_equal(s.heap_used, s.gen[0].space[0].used + s.gen[0].space[1].used + s.gen[0].space[2].used +
					     s.gen[1].space[0].used);
	hsperf_close(&h);
	free(b);
}

static void test_zgc_file(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("z-jdk17.hsperf", &len);
	struct hsperf h;
	struct hsperf_sample s;
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	/* ZGC (JDK 17): one "old" generation, one collector, index 2, and no policy name */
	assert_false(s.gen[0].present);
	assert_true(s.gen[1].present);
	assert_false(s.coll[0].present || s.coll[1].present);
	assert_string_equal(s.coll[2].name, "Z concurrent cycle pauses");
	assert_string_equal(s.policy, "");
	assert_int_equal(s.heap_max, s.gen[1].max_capacity);
	hsperf_close(&h);
	free(b);
}

static void test_prologue(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("g1-jdk17.hsperf", &len);
	struct hsperf h;
	b[7] = 0; /* accessible: the JVM has not finished starting */
	assert_int_equal(hsperf_open_mem(&h, b, len), -EAGAIN);
	assert_non_null(strstr(h.why, "not finished starting"));
	b[7] = 1;
	b[4] = 0; /* big-endian data */
	assert_int_equal(hsperf_open_mem(&h, b, len), -EBADMSG);
	assert_non_null(strstr(h.why, "byte order"));
	b[4] = 1;
	b[5] = 1; /* version 1 (JDK 1.4) */
	assert_int_equal(hsperf_open_mem(&h, b, len), -EBADMSG);
	b[5] = 2;
	b[0] = 0; /* magic */
	assert_int_equal(hsperf_open_mem(&h, b, len), -EBADMSG);
	assert_non_null(strstr(h.why, "magic"));
	b[0] = 0xca;
	put32(b, 24, 40000); /* entry_offset past the end */
	assert_int_equal(hsperf_open_mem(&h, b, len), -EBADMSG);
	put32(b, 24, 32);
	assert_int_equal(hsperf_open_mem(&h, b, 31), -EBADMSG);
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	hsperf_close(&h);
	free(b);
}

/* the entry set grows while the JVM runs: a new entry is counted before it is
 * written, and the index catches up at the next refresh */
static void test_growing(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("g1-jdk17.hsperf", &len);
	struct hsperf h;
	struct hsperf_sample s;
	uint32_t num = get32(b, 28);
	/* find the offset of entry 100 */
	size_t off = get32(b, 24);
	for (int i = 0; i < 100; i++)
		off += get32(b, off);
	uint8_t saved[20];
	memcpy(saved, b + off, 20);
	memset(b + off, 0, 20); /* entry 100 allocated, not yet written */
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	assert_int_equal(h.nents, 100);
	assert_true(h.incomplete);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	memcpy(b + off, saved, 20); /* written now */
	assert_int_equal(hsperf_refresh(&h), 0);
	assert_int_equal(h.nents, 187);
	assert_false(h.incomplete);
	/* fewer entries announced, then more: re-indexed each time */
	put32(b, 28, 50);
	assert_int_equal(hsperf_refresh(&h), 0);
	assert_int_equal(h.nents, 50);
	put32(b, 28, num);
	assert_int_equal(hsperf_refresh(&h), 0);
	assert_int_equal(h.nents, 187);
	hsperf_close(&h);
	free(b);
}

static void test_hostile_entries(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("g1-jdk17.hsperf", &len);
	struct hsperf h;
	struct hsperf_sample s;
	size_t e0 = get32(b, 24), e1 = e0 + get32(b, e0);
	/* the second entry's name runs to the end of the entry with no NUL */
	uint32_t el = get32(b, e1), no = get32(b, e1 + 4);
	memset(b + e1 + no, 'x', el - no);
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	assert_int_equal(h.nents, 1);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	assert_int_equal(s.safepoints, -1); /* not found: unknown, not 0 */
	hsperf_close(&h);
	free(b);

	static const struct { size_t at; uint32_t v; } bad[] = {
		{0, 0xfffffff0},  /* entry_length past the end */
		{0, 12},          /* shorter than an entry header */
		{4, 4000},        /* name_offset past the entry */
		{16, 4000},       /* data_offset past the entry */
		{16, 52},         /* a long's data crossing the entry's end */
		{16, 44},         /* a long's data not 8-aligned: not read */
		{8, 0x7fffffff},  /* a huge vector length */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		b = load("g1-jdk17.hsperf", &len);
		put32(b, e0 + bad[i].at, bad[i].v);
		int r = hsperf_open_mem(&h, b, len);
		assert_int_equal(r, 0);
		assert_int_equal(hsperf_sample(&h, &s), 0);
		assert_true(h.nents <= 187);
		hsperf_close(&h);
		free(b);
	}
}

static void test_delta(void **state)
{
	(void)state;
	struct hsperf_sample a, b;
	struct hsperf_delta d;
	memset(&a, 0, sizeof a);
	a.hrt_frequency = 1000000000;
	a.mono_ns = 1000000000;
	a.safepoints = 10, a.safepoint_time = 5000000, a.safepoint_sync = 100000;
	a.coll[0] = (struct hsperf_collector){true, "young", 4, 8000000, 900000000, 902000000};
	a.coll[1] = (struct hsperf_collector){true, "full", 0, 0, 0, 0};
	a.create_vm_begin_ms = 1;
	b = a;
	b.mono_ns += 100000000;
	b.safepoints = 12, b.safepoint_time = 8000000, b.safepoint_sync = 600000;
	b.coll[0] = (struct hsperf_collector){true, "young", 5, 10500000, 950000000, 952400000};
	hsperf_delta(&a, &b, &d);
	assert_false(d.restarted);
	assert_int_equal(d.interval_ns, 100000000);
	assert_int_equal(d.safepoints, 2);
	assert_int_equal(d.ttsp_ns, 500000);
	assert_int_equal(d.safepoint_op_ns, 3000000);
	assert_int_equal(d.stop_ns, 3500000);
	assert_int_equal(d.coll[0].gcs, 1);
	assert_int_equal(d.coll[0].time_ns, 2500000);
	assert_int_equal(d.coll[0].one_gc_ns, 2400000);
	assert_int_equal(d.coll[1].gcs, 0);
	assert_int_equal(d.coll[1].one_gc_ns, -1);
	/* one GC counted but still running (entry after exit): no duration yet */
	b.coll[0].last_exit = 902000000;
	hsperf_delta(&a, &b, &d);
	assert_int_equal(d.coll[0].one_gc_ns, -1);
	/* two GCs: only their sum */
	b.coll[0].invocations = 6;
	b.coll[0].last_exit = 952400000;
	hsperf_delta(&a, &b, &d);
	assert_int_equal(d.coll[0].gcs, 2);
	assert_int_equal(d.coll[0].one_gc_ns, -1);
	/* another JVM (counters back, or another start time) */
	b.safepoints = 3;
	hsperf_delta(&a, &b, &d);
	assert_true(d.restarted);
	b.safepoints = 12;
	b.create_vm_begin_ms = 2;
	hsperf_delta(&a, &b, &d);
	assert_true(d.restarted);
	/* a frequency that is not 1 GHz */
	a.hrt_frequency = b.hrt_frequency = 3000000;
	b.create_vm_begin_ms = 1;
	hsperf_delta(&a, &b, &d);
	assert_int_equal(d.ttsp_ns, 500000LL * 1000000000 / 3000000);
}

/* The file's owner truncates it while it is mapped: reads past the new end
 * raise SIGBUS. Every call fails cleanly instead of killing the process: the
 * poll by its size check (-ESTALE), a lookup by the SIGBUS guard; and the
 * mapping of a file that grows back is read again. */
static void test_truncated_under_us(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("g1-jdk17.hsperf", &len);
	char path[] = "/tmp/stwtop-hsperf-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, len), (ssize_t)len);
	struct hsperf h;
	assert_int_equal(hsperf_open(&h, path), 0);
	int64_t v = -1;
	assert_true(hsperf_long(&h, "sun.rt.safepoints", &v));
	assert_int_equal(v, 2);
	assert_int_equal(ftruncate(fd, 0), 0);
	struct hsperf_sample smp;
	assert_int_equal(hsperf_sample(&h, &smp), -ESTALE);           /* the size check */
	v = -1;
	assert_false(hsperf_long(&h, "sun.rt.safepoints", &v));       /* the guard: SIGBUS caught */
	assert_int_equal(v, -1);
	char str[64] = "x";
	assert_false(hsperf_string(&h, "sun.gc.policy.name", str, sizeof str));
	assert_string_equal(str, "");
	/* the same pages, written back: readable again through the same mapping */
	assert_int_equal(pwrite(fd, b, len, 0), (ssize_t)len);
	assert_true(hsperf_long(&h, "sun.rt.safepoints", &v));
	assert_int_equal(v, 2);
	hsperf_close(&h);
	close(fd);
	unlink(path);
	free(b);
}

/* one 100 ms step of the safepoint counters: began, reached (ttsp) and ended (op) */
static void step(struct hsperf_stops *st, int64_t began, double ttsp_ms, double op_ms, int64_t now_ms)
{
	struct hsperf_delta d;
	memset(&d, 0, sizeof d);
	d.interval_ns = 100 * 1000000LL;
	d.safepoints = began;
	d.ttsp_ns = (int64_t)(ttsp_ms * 1e6);
	d.safepoint_op_ns = (int64_t)(op_ms * 1e6);
	d.stop_ns = d.ttsp_ns + d.safepoint_op_ns;
	hsperf_stops_step(st, &d, false, now_ms);
}

static void test_stops(void **state)
{
	(void)state;
	struct hsperf_stops st;
	struct hsperf_stop m;
	hsperf_stops_init(&st);
	/* a 9 s stop: begun, then nothing for 89 steps, reached at 8.9 s and
	 * ended 100 ms later, no other safepoint began meanwhile: exact */
	step(&st, 1, 0, 0, 100);
	for (int i = 2; i <= 89; i++)
		step(&st, 0, 0, 0, i * 100);
	step(&st, 0, 8900, 0, 9000);
	step(&st, 0, 0, 100, 9100);
	hsperf_stops_take(&st, &m);
	assert_true(m.exact);
	assert_true(m.total_ms > 8999.9 && m.total_ms < 9000.1);
	assert_true(m.ttsp_ms > 8899.9 && m.ttsp_ms < 8900.1);
	assert_int_equal(m.end_ms, 9100);
	assert_true(m.window_ms > 99.9 && m.window_ms < 100.1);
	/* taken: nothing until the next stop ends */
	hsperf_stops_take(&st, &m);
	assert_true(m.total_ms < 0);

	/* a 3 s stop reached in 50 ms: the reach is carried to its end */
	step(&st, 1, 50, 0, 10000);
	for (int i = 1; i < 30; i++)
		step(&st, 0, 0, 0, 10000 + i * 100);
	step(&st, 0, 0, 2950, 13000);
	hsperf_stops_take(&st, &m);
	assert_true(m.exact);
	assert_true(m.total_ms > 2999.9 && m.total_ms < 3000.1);
	assert_true(m.ttsp_ms > 49.9 && m.ttsp_ms < 50.1);

	/* the long stop ends in a step where 3 short ones began and ended too:
	 * lower bounds, at least ended - window and the carried reach */
	step(&st, 1, 1500, 0, 20000);
	for (int i = 1; i < 20; i++)
		step(&st, 0, 0, 0, 20000 + i * 100);
	step(&st, 3, 0.3, 500 + 0.6, 22000);
	hsperf_stops_take(&st, &m);
	assert_false(m.exact);
	assert_true(m.total_ms >= 1500 && m.total_ms <= 2000.9);
	assert_true(m.ttsp_ms > 1499.9 && m.ttsp_ms < 1500.1);

	/* many short stops in one step: the longest is only known to be
	 * at least their sum over their count, never their sum */
	step(&st, 30, 3, 57, 30000);
	hsperf_stops_take(&st, &m);
	assert_false(m.exact);
	assert_true(m.total_ms > 1.9 && m.total_ms < 2.0);
	/* more stop time than the window holds: one of them began before it */
	step(&st, 30, 3, 147, 30100);
	hsperf_stops_take(&st, &m);
	assert_true(m.total_ms > 49.9 && m.total_ms < 50.1);

	/* JDK 8-12: the ended time includes the reach */
	hsperf_stops_init(&st);
	struct hsperf_delta d;
	memset(&d, 0, sizeof d);
	d.interval_ns = 100 * 1000000LL;
	d.ttsp_ns = 700 * 1000000LL;
	d.safepoint_op_ns = 800 * 1000000LL;
	hsperf_stops_step(&st, &d, true, 500);
	hsperf_stops_take(&st, &m);
	assert_true(m.exact && m.total_ms > 799.9 && m.total_ms < 800.1 && m.ttsp_ms > 699.9 && m.ttsp_ms < 700.1);
}

static int64_t long_of(const struct hsperf *h, const char *name)
{
	int64_t v;
	return hsperf_long(h, name, &v) ? v : -1;
}

static double ms_of(const struct hsperf *h, const char *name)
{
	int64_t v = long_of(h, name), hz = long_of(h, "sun.os.hrt.frequency");
	return v < 0 ? -1 : (double)v * 1000.0 / (double)hz;
}

/* The totals since the JVM started are jstat -gc's columns, each from the
 * counter jstat_options names (looked up here by name, not through the plan) */
static void test_totals(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = load("g1-jdk17.hsperf", &len);
	struct hsperf h;
	struct hsperf_sample s;
	struct jvm_totals t;
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	hsperf_probe_totals(&s, false, &t);
	assert_int_equal(hsperf_probe_collector(&s), GC_G1);
	static const char *const inv[] = {"sun.gc.collector.0.invocations", "sun.gc.collector.1.invocations",
					  "sun.gc.collector.2.invocations"};
	static const char *const tm[] = {"sun.gc.collector.0.time", "sun.gc.collector.1.time", "sun.gc.collector.2.time"};
	for (int k = 0; k < JVM_GC_KINDS; k++) {
		assert_int_equal(t.gcs[k], long_of(&h, inv[k]));
		assert_true(t.gc_ms[k] == ms_of(&h, tm[k]));
	}
	assert_int_equal(t.gcs[JVM_GC_YOUNG], 2); /* the file was copied after two young GCs */
	assert_int_equal(t.pauses, t.gcs[0] + t.gcs[1] + t.gcs[2]);
	assert_int_equal(t.safepoints, long_of(&h, "sun.rt.safepoints"));
	assert_true(t.safepoint_ms == ms_of(&h, "sun.rt.safepointTime"));
	assert_true(t.safepoint_sync_ms == ms_of(&h, "sun.rt.safepointSyncTime"));
	assert_true(t.stopped_ms == t.safepoint_ms + t.safepoint_sync_ms); /* JDK 17: the sync is apart */
	assert_int_equal(t.used[JVM_POOL_EDEN], long_of(&h, "sun.gc.generation.0.space.0.used"));
	assert_int_equal(t.committed[JVM_POOL_EDEN], long_of(&h, "sun.gc.generation.0.space.0.capacity"));
	assert_int_equal(t.used[JVM_POOL_SURVIVOR], long_of(&h, "sun.gc.generation.0.space.1.used") +
							    long_of(&h, "sun.gc.generation.0.space.2.used"));
	assert_int_equal(t.committed[JVM_POOL_SURVIVOR], long_of(&h, "sun.gc.generation.0.space.1.capacity") +
								 long_of(&h, "sun.gc.generation.0.space.2.capacity"));
	assert_int_equal(t.used[JVM_POOL_OLD], long_of(&h, "sun.gc.generation.1.space.0.used"));
	assert_int_equal(t.committed[JVM_POOL_OLD], long_of(&h, "sun.gc.generation.1.space.0.capacity"));
	assert_int_equal(t.max[JVM_POOL_OLD], long_of(&h, "sun.gc.generation.1.space.0.maxCapacity"));
	assert_int_equal(t.used[JVM_POOL_METASPACE], long_of(&h, "sun.gc.metaspace.used"));
	assert_int_equal(t.committed[JVM_POOL_METASPACE], long_of(&h, "sun.gc.metaspace.capacity"));
	assert_int_equal(t.used[JVM_POOL_CCS], long_of(&h, "sun.gc.compressedclassspace.used"));
	assert_int_equal(t.committed[JVM_POOL_CCS], long_of(&h, "sun.gc.compressedclassspace.capacity"));
	/* jstat -gccapacity's MCMX and CCSMX */
	assert_true(long_of(&h, "sun.gc.metaspace.maxCapacity") > 0);
	assert_int_equal(t.max[JVM_POOL_METASPACE], long_of(&h, "sun.gc.metaspace.maxCapacity"));
	assert_int_equal(t.max[JVM_POOL_CCS], long_of(&h, "sun.gc.compressedclassspace.maxCapacity"));
	/* JDK 8-12: safepointTime already holds the sync */
	hsperf_probe_totals(&s, true, &t);
	assert_true(t.stopped_ms == t.safepoint_ms);
	hsperf_close(&h);
	free(b);

	/* ZGC: no young generation nor young or full collector: unknown (jstat "-"), not 0 */
	b = load("z-jdk17.hsperf", &len);
	assert_int_equal(hsperf_open_mem(&h, b, len), 0);
	assert_int_equal(hsperf_sample(&h, &s), 0);
	hsperf_probe_totals(&s, false, &t);
	assert_int_equal(hsperf_probe_collector(&s), GC_ZGC);
	assert_int_equal(t.gcs[JVM_GC_YOUNG], -1);
	assert_int_equal(t.gcs[JVM_GC_FULL], -1);
	assert_true(t.gc_ms[JVM_GC_YOUNG] < 0);
	assert_int_equal(t.gcs[JVM_GC_CONCURRENT], long_of(&h, "sun.gc.collector.2.invocations"));
	assert_int_equal(t.used[JVM_POOL_EDEN], -1);
	assert_int_equal(t.committed[JVM_POOL_SURVIVOR], -1);
	assert_int_equal(t.used[JVM_POOL_OLD], long_of(&h, "sun.gc.generation.1.space.0.used"));
	hsperf_close(&h);
	free(b);

	/* JDK 17's Parallel and Serial name their policy and collectors anew */
	memset(&s, 0, sizeof s);
	snprintf(s.policy, sizeof s.policy, "ParScav:MSC");
	assert_int_equal(hsperf_probe_collector(&s), GC_PARALLEL);
	snprintf(s.policy, sizeof s.policy, "Copy:MSC");
	assert_int_equal(hsperf_probe_collector(&s), GC_SERIAL);
	s.policy[0] = '\0';
	s.coll[0].present = true;
	snprintf(s.coll[0].name, sizeof s.coll[0].name, "Serial young collection pauses");
	assert_int_equal(hsperf_probe_collector(&s), GC_SERIAL);
	snprintf(s.coll[0].name, sizeof s.coll[0].name, "Parallel young collection pauses");
	assert_int_equal(hsperf_probe_collector(&s), GC_PARALLEL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_g1_file),
		cmocka_unit_test(test_zgc_file),
		cmocka_unit_test(test_prologue),
		cmocka_unit_test(test_growing),
		cmocka_unit_test(test_hostile_entries),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_truncated_under_us),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_totals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
