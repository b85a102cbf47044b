/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hsperf.c — a JVM's hsperfdata counters (include/stwtop/hsperf.h).
 *
 * Format: HotSpot's PerfDataPrologue (src/hotspot/share/runtime/perfMemory.hpp:
 * magic 0xcafec0c0 stored big-endian, byte_order 0 big / 1 little, major 2,
 * minor, accessible, used, overflow, mod_time_stamp, entry_offset, num_entries)
 * and PerfDataEntry (entry_length, name_offset, vector_length, data_type,
 * flags, data_units, data_variability, data_offset; name and data inside the
 * entry, offsets from the entry's start: PerfData::create_entry, perfData.cpp).
 * PerfMemory::alloc() counts an entry in num_entries before create_entry()
 * fills it, and data_offset is stored last: an entry whose length or data
 * offset is still 0 is being written, and the index stops before it and tries
 * again at the next poll. Counter names and their meaning: `jcmd PID
 * PerfCounter.print` on JDK 17, jstat's jstat_options (sun/tools/jstat). */
#include "stwtop/hsperf.h"

#include "stwtop/discover.h"
#include "stwtop/procfile.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HSPERF_NATIVE_ORDER 0
#else
#define HSPERF_NATIVE_ORDER 1
#endif

#define MAX_FILE (64u << 20)   /* PerfDataMemorySize is 64 KiB by default; refuse absurd sizes */

/* ------------------------------------------------------- the SIGBUS guard ---
 * Whoever owns the file (the JVM's user) can truncate it while it is mapped: a
 * read of a page past the new end then raises SIGBUS, which would kill stwtop,
 * maybe running as root, at the will of an unprivileged user. fstat() before
 * each read narrows the window; this closes it. Every public function that
 * reads the mapping runs under a guard: a SIGBUS while one is in force jumps
 * back to it, and the call fails with -ESTALE ("truncated while read"). A
 * SIGBUS with no guard in force is not ours: the previous action is put back
 * and the faulting access, run again, meets it. (stwtop is single-threaded:
 * one guard pointer.) The mapping is kept, not copied with read(): an aligned
 * 8-byte load from it is atomic, so a counter is never seen half-updated. */
static sigjmp_buf *volatile bus_at;  /* volatile: the handler reads it; never a dead store */
static struct sigaction bus_old;
static bool bus_installed;

static void on_bus(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	(void)ctx;
	if (bus_at)
		siglongjmp(*bus_at, 1);
	sigaction(SIGBUS, &bus_old, NULL);
}

static void bus_install(void)
{
	if (bus_installed)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &bus_old) == 0)
		bus_installed = true;
}

/* run EXPR (which reads h's mapping) under the guard; on SIGBUS, ON_BUS */
#define GUARDED(h, EXPR, ON_BUS)                                                              \
	do {                                                                                  \
		if (!(h)->mapped) {                                                           \
			EXPR;                                                                 \
			break;                                                                \
		}                                                                             \
		bus_install();                                                                \
		sigjmp_buf jb_;                                                               \
		sigjmp_buf *prev_ = bus_at;                                                   \
		if (sigsetjmp(jb_, 1)) {                                                      \
			bus_at = prev_;                                                       \
			ON_BUS;                                                               \
			break;                                                                \
		}                                                                             \
		bus_at = &jb_;                                                                \
		EXPR;                                                                         \
		bus_at = prev_;                                                               \
	} while (0)

static int truncated(struct hsperf *h)
{
	snprintf(h->why, sizeof h->why, "%s was truncated while it was read: not reading it", h->path);
	return -ESTALE;
}

/* ------------------------------------------------------------- reading --- */

/* The file changes under us: every field is read once, through volatile, into a
 * local that is then checked and used (never read twice). Callers have checked
 * off + 4 <= h->size. */
static uint32_t rd32(const struct hsperf *h, size_t off)
{
	const volatile uint8_t *p = h->base + off;
	uint8_t b[4];
	uint32_t v;
	if (((uintptr_t)p & 3u) == 0)
		return *(const volatile uint32_t *)(const volatile void *)p;
	for (int i = 0; i < 4; i++)
		b[i] = p[i];
	memcpy(&v, b, 4);
	return v;
}

static uint8_t rd8(const struct hsperf *h, size_t off)
{
	return ((const volatile uint8_t *)h->base)[off];
}

/* a long counter at a checked, 8-aligned offset (0: absent) */
static int64_t plong(const struct hsperf *h, uint32_t off)
{
	if (!off)
		return -1;
	return *(const volatile int64_t *)(const volatile void *)(h->base + off);
}

/* a byte-array string: up to the first NUL, printable ASCII */
static void pstring(const struct hsperf *h, uint32_t off, uint32_t len, char *out, size_t cap)
{
	size_t n = 0;
	if (!cap)
		return;
	for (uint32_t i = 0; off && i < len && n + 1 < cap; i++) {
		uint8_t c = rd8(h, (size_t)off + i);
		if (c == 0)
			break;
		out[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	out[n] = '\0';
}

__attribute__((format(printf, 2, 3))) static void set_why(struct hsperf *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof h->why, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ indexing --- */

static const struct hsperf_entry *find_n(const struct hsperf *h, const char *name, size_t n)
{
	for (uint32_t i = 0; i < h->nents; i++) {
		const struct hsperf_entry *e = &h->ents[i];
		if (e->name_len == n && memcmp((const char *)h->base + e->name_off, name, n) == 0)
			return e;
	}
	return NULL;
}

const struct hsperf_entry *hsperf_find(const struct hsperf *h, const char *name)
{
	const struct hsperf_entry *volatile e = NULL;
	GUARDED(h, e = find_n(h, name, strlen(name)), e = NULL);
	return e;
}

/* data offset of a long counter, 0 when absent */
static uint32_t plan_long(const struct hsperf *h, const char *name)
{
	const struct hsperf_entry *e = hsperf_find(h, name);
	return e && e->type == 'J' && e->vector_length == 0 ? e->data_off : 0;
}

static uint32_t plan_str(const struct hsperf *h, const char *name, uint32_t *len)
{
	const struct hsperf_entry *e = hsperf_find(h, name);
	*len = 0;
	if (!e || e->type != 'B')
		return 0;
	*len = e->vector_length;
	return e->data_off;
}

static void build_plan(struct hsperf *h)
{
	struct hsperf_plan *p = &h->plan;
	char n[96];
	memset(p, 0, sizeof *p);
	p->hrt_frequency = plan_long(h, "sun.os.hrt.frequency");
	p->hrt_ticks = plan_long(h, "sun.os.hrt.ticks");
	p->create_vm_begin = plan_long(h, "sun.rt.createVmBeginTime");
	p->safepoints = plan_long(h, "sun.rt.safepoints");
	p->safepoint_time = plan_long(h, "sun.rt.safepointTime");
	p->safepoint_sync = plan_long(h, "sun.rt.safepointSyncTime");
	p->threads_live = plan_long(h, "java.threads.live");
	if (!p->threads_live)
		p->threads_live = plan_long(h, "sun.threads.live");
	p->cause = plan_str(h, "sun.gc.cause", &p->cause_len);
	p->last_cause = plan_str(h, "sun.gc.lastCause", &p->last_cause_len);
	p->policy = plan_str(h, "sun.gc.policy.name", &p->policy_len);
	p->meta_cap = plan_long(h, "sun.gc.metaspace.capacity");
	p->meta_used = plan_long(h, "sun.gc.metaspace.used");
	p->ccs_cap = plan_long(h, "sun.gc.compressedclassspace.capacity");
	p->ccs_used = plan_long(h, "sun.gc.compressedclassspace.used");
	p->meta_max = plan_long(h, "sun.gc.metaspace.maxCapacity");
	p->ccs_max = plan_long(h, "sun.gc.compressedclassspace.maxCapacity");
	for (int g = 0; g < HSPERF_MAX_GENS; g++) {
#define GEN(field, suffix) (snprintf(n, sizeof n, "sun.gc.generation.%d.%s", g, suffix), field = plan_long(h, n))
		GEN(p->gen[g].capacity, "capacity");
		GEN(p->gen[g].max_capacity, "maxCapacity");
		snprintf(n, sizeof n, "sun.gc.generation.%d.name", g);
		p->gen[g].name = plan_str(h, n, &p->gen[g].name_len);
		for (int s = 0; s < HSPERF_MAX_SPACES; s++) {
#define SPACE(field, suffix) (snprintf(n, sizeof n, "sun.gc.generation.%d.space.%d.%s", g, s, suffix), field = plan_long(h, n))
			SPACE(p->gen[g].space[s].capacity, "capacity");
			SPACE(p->gen[g].space[s].max_capacity, "maxCapacity");
			SPACE(p->gen[g].space[s].used, "used");
			snprintf(n, sizeof n, "sun.gc.generation.%d.space.%d.name", g, s);
			p->gen[g].space[s].name = plan_str(h, n, &p->gen[g].space[s].name_len);
#undef SPACE
		}
#undef GEN
	}
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++) {
#define COLL(field, suffix) (snprintf(n, sizeof n, "sun.gc.collector.%d.%s", c, suffix), field = plan_long(h, n))
		COLL(p->coll[c].invocations, "invocations");
		COLL(p->coll[c].time, "time");
		COLL(p->coll[c].last_entry, "lastEntryTime");
		COLL(p->coll[c].last_exit, "lastExitTime");
		snprintf(n, sizeof n, "sun.gc.collector.%d.name", c);
		p->coll[c].name = plan_str(h, n, &p->coll[c].name_len);
#undef COLL
	}
}

static int push_entry(struct hsperf *h, const struct hsperf_entry *e)
{
	if (h->nents == h->cap) {
		uint32_t cap = h->cap ? h->cap * 2 : 256;
		struct hsperf_entry *n = realloc(h->ents, (size_t)cap * sizeof *n);
		if (!n)
			return -ENOMEM;
		h->ents = n;
		h->cap = cap;
	}
	h->ents[h->nents++] = *e;
	return 0;
}

/* One entry at off (off + HSPERF_ENTRY_HEADER <= limit checked). Returns its
 * length (> 0) with *e filled (e->type 0: a type we do not read), 0 when it is
 * still being written, -EBADMSG when it cannot be an entry. */
static int64_t parse_entry(const struct hsperf *h, size_t off, size_t limit, struct hsperf_entry *e)
{
	uint32_t el = rd32(h, off), name_off = rd32(h, off + 4), vlen = rd32(h, off + 8);
	uint8_t type = rd8(h, off + 12);
	uint32_t data_off = rd32(h, off + 16);
	uint64_t dsize;
	if (el == 0 || data_off == 0)
		return 0;
	if (el < HSPERF_ENTRY_HEADER || el > limit - off || name_off < HSPERF_ENTRY_HEADER || name_off >= el ||
	    data_off < HSPERF_ENTRY_HEADER || data_off >= el)
		return -EBADMSG;
	const uint8_t *name = h->base + off + name_off;
	const uint8_t *nul = memchr(name, 0, el - name_off);
	if (!nul || nul == name)
		return -EBADMSG;
	memset(e, 0, sizeof *e);
	e->name_off = (uint32_t)(off + name_off);
	e->name_len = (uint32_t)(nul - name);
	e->vector_length = vlen;
	e->units = rd8(h, off + 14);
	e->variability = rd8(h, off + 15);
	if (type == 'J')
		dsize = vlen ? (uint64_t)vlen * 8 : 8;
	else if (type == 'B')
		dsize = vlen;
	else
		dsize = 0; /* a type stwtop does not read: indexed by name only */
	if (dsize && (uint64_t)data_off + dsize <= el &&
	    (type != 'J' || ((uintptr_t)(h->base + off + data_off) & 7u) == 0)) {
		e->type = (char)type;
		e->data_off = (uint32_t)(off + data_off);
	}
	return el;
}

/* Read the prologue: 0 with *eoff, *num, *limit, or -errno with h->why. */
static int check_prologue(struct hsperf *h, size_t *eoff, uint32_t *num, size_t *limit)
{
	static const uint8_t magic[4] = {0xca, 0xfe, 0xc0, 0xc0};
	if (h->size < HSPERF_PROLOGUE_SIZE) {
		set_why(h, "%s is %lld bytes, shorter than the %lld-byte hsperfdata prologue", h->path,
			(long long)h->size, (long long)HSPERF_PROLOGUE_SIZE);
		return -EBADMSG;
	}
	for (int i = 0; i < 4; i++)
		if (rd8(h, (size_t)i) != magic[i]) {
			set_why(h, "%s is not an hsperfdata file (no magic 0xcafec0c0)", h->path);
			return -EBADMSG;
		}
	uint8_t order = rd8(h, 4), major = rd8(h, 5), minor = rd8(h, 6), accessible = rd8(h, 7);
	if (order != HSPERF_NATIVE_ORDER) {
		set_why(h, "%s: byte order %lld is not this machine's (%lld)", h->path, (long long)order, (long long)HSPERF_NATIVE_ORDER);
		return -EBADMSG;
	}
	if (major != 2) {
		set_why(h, "%s: hsperfdata version %lld.%lld is not supported (2.x)", h->path, (long long)major, (long long)minor);
		return -EBADMSG;
	}
	if (!accessible) {
		set_why(h, "%s: the JVM has not finished starting (counters not yet accessible)", h->path);
		return -EAGAIN;
	}
	uint32_t used = rd32(h, 8), entry_offset = rd32(h, 24);
	h->overflow = rd32(h, 12);
	uint8_t t[8];
	for (int i = 0; i < 8; i++)
		t[i] = rd8(h, 16 + (size_t)i);
	memcpy(&h->mod_time, t, 8);
	*num = rd32(h, 28);
	*limit = used >= HSPERF_PROLOGUE_SIZE && used <= h->size ? used : h->size;
	if (entry_offset < HSPERF_PROLOGUE_SIZE || entry_offset > *limit) {
		set_why(h, "%s: entry offset %lld is outside the %lld bytes in use", h->path, (long long)entry_offset,
			(long long)*limit);
		return -EBADMSG;
	}
	*eoff = entry_offset;
	return 0;
}

static int reindex(struct hsperf *h, size_t off, uint32_t num, size_t limit)
{
	h->nents = 0;
	h->incomplete = false;
	for (uint32_t i = 0; i < num; i++) {
		struct hsperf_entry e;
		int64_t el;
		if (off > limit || limit - off < HSPERF_ENTRY_HEADER) {
			h->incomplete = true;
			break;
		}
		el = parse_entry(h, off, limit, &e);
		if (el <= 0) {
			/* being written (0), or garbage (-EBADMSG): the rest cannot be found without it */
			h->incomplete = true;
			break;
		}
		if (e.type && push_entry(h, &e) < 0)
			return -ENOMEM;
		off += (size_t)el;
	}
	h->seen_entries = num;
	build_plan(h);
	return 0;
}

static int refresh_body(struct hsperf *h);

int hsperf_refresh(struct hsperf *h)
{
	volatile int r = -EFAULT;
	GUARDED(h, r = refresh_body(h), r = truncated(h));
	return r;
}

static int refresh_body(struct hsperf *h)
{
	size_t eoff, limit;
	uint32_t num;
	int r;
	if (!h->base)
		return -EBADF;
	if (h->fd >= 0) {
		struct stat st;
		if (fstat(h->fd, &st) < 0)
			return -errno;
		if ((uint64_t)st.st_size < h->size) {
			snprintf(h->why, sizeof h->why, "%s shrank under us: not reading it", h->path);
			return -ESTALE;
		}
		if (st.st_nlink == 0) {
			snprintf(h->why, sizeof h->why, "%s was removed: the JVM has exited", h->path);
			return -ESRCH;
		}
	}
	r = check_prologue(h, &eoff, &num, &limit);
	if (r < 0)
		return r;
	if (num == h->seen_entries && !h->incomplete)
		return 0;
	r = reindex(h, eoff, num, limit);
	if (r < 0)
		snprintf(h->why, sizeof h->why, "out of memory indexing %s", h->path);
	return r;
}

/* --------------------------------------------------------- open, close --- */

int hsperf_open_mem(struct hsperf *h, const void *buf, size_t len)
{
	memset(h, 0, sizeof *h);
	h->fd = -1;
	h->base = buf;
	h->size = len;
	snprintf(h->path, sizeof h->path, "(buffer)");
	return hsperf_refresh(h);
}

int hsperf_open(struct hsperf *h, const char *path)
{
	struct stat st;
	int e;
	memset(h, 0, sizeof *h);
	h->fd = -1;
	snprintf(h->path, sizeof h->path, "%s", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0) {
		e = errno;
		snprintf(h->why, sizeof h->why, "%s: %s%s", path, strerror(e),
			 e == EACCES ? " (it is readable by its owner, the JVM's user, and root only)" : "");
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(h->why, sizeof h->why, "%s: %s", path, strerror(e));
		close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(h->why, sizeof h->why, "%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size < HSPERF_PROLOGUE_SIZE || (uint64_t)st.st_size > MAX_FILE) {
		snprintf(h->why, sizeof h->why, "%s is %lld bytes: not an hsperfdata file", path, (long long)st.st_size);
		close(fd);
		return -EBADMSG;
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		e = errno;
		snprintf(h->why, sizeof h->why, "%s: mmap: %s", path, strerror(e));
		close(fd);
		return -e;
	}
	h->base = m;
	h->size = (size_t)st.st_size;
	h->fd = fd;
	h->mapped = true;
	int r = hsperf_refresh(h);
	if (r < 0 && r != -EAGAIN) {
		char why[sizeof h->why];
		memcpy(why, h->why, sizeof why);
		hsperf_close(h);
		memcpy(h->why, why, sizeof why);
	}
	return r;
}

void hsperf_close(struct hsperf *h)
{
	if (h->mapped && h->base)
		munmap((void *)(uintptr_t)h->base, h->size);
	if (h->fd >= 0)
		close(h->fd);
	free(h->ents);
	memset(h, 0, sizeof *h);
	h->fd = -1;
}

/* ------------------------------------------------------------- lookups --- */

bool hsperf_long(const struct hsperf *h, const char *name, int64_t *out)
{
	const struct hsperf_entry *e = hsperf_find(h, name);
	if (!e || e->type != 'J' || e->vector_length)
		return false;
	volatile bool ok = true;
	int64_t v = 0;
	GUARDED(h, v = plong(h, e->data_off), ok = false);
	if (ok)
		*out = v;
	return ok;
}

bool hsperf_string(const struct hsperf *h, const char *name, char *out, size_t cap)
{
	if (cap)
		out[0] = '\0';
	const struct hsperf_entry *e = hsperf_find(h, name);
	if (!e || e->type != 'B')
		return false;
	volatile bool ok = true;
	GUARDED(h, pstring(h, e->data_off, e->vector_length, out, cap), ok = false);
	if (!ok && cap)
		out[0] = '\0';
	return ok;
}

/* -------------------------------------------------------------- sample --- */

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sample_heap(const struct hsperf *h, struct hsperf_sample *s)
{
	const struct hsperf_plan *p = &h->plan;
	int64_t used = 0, committed = 0, max_sum = 0, max_one = 0;
	bool any = false;
	for (int g = 0; g < HSPERF_MAX_GENS; g++) {
		struct hsperf_gen *gen = &s->gen[g];
		gen->present = p->gen[g].capacity != 0;
		gen->capacity = plong(h, p->gen[g].capacity);
		gen->max_capacity = plong(h, p->gen[g].max_capacity);
		pstring(h, p->gen[g].name, p->gen[g].name_len, gen->name, sizeof gen->name);
		for (int k = 0; k < HSPERF_MAX_SPACES; k++) {
			struct hsperf_space *sp = &gen->space[k];
			sp->present = p->gen[g].space[k].used != 0;
			sp->capacity = plong(h, p->gen[g].space[k].capacity);
			sp->max_capacity = plong(h, p->gen[g].space[k].max_capacity);
			sp->used = plong(h, p->gen[g].space[k].used);
			pstring(h, p->gen[g].space[k].name, p->gen[g].space[k].name_len, sp->name, sizeof sp->name);
			if (sp->present && sp->used > 0)
				used += sp->used;
		}
		if (!gen->present)
			continue;
		any = true;
		if (gen->capacity > 0)
			committed += gen->capacity;
		if (gen->max_capacity > 0) {
			max_sum += gen->max_capacity;
			if (gen->max_capacity > max_one)
				max_one = gen->max_capacity;
		}
	}
	s->heap_used = any ? used : -1;
	s->heap_committed = any ? committed : -1;
	/* G1's young and old generations each report the whole heap as their maximum */
	s->heap_max = !any ? -1 : strcmp(s->policy, "GarbageFirst") == 0 ? max_one : max_sum;
}

static int sample_body(struct hsperf *h, struct hsperf_sample *s);

int hsperf_sample(struct hsperf *h, struct hsperf_sample *s)
{
	volatile int r = -EFAULT;
	GUARDED(h, r = sample_body(h, s), r = truncated(h));
	return r;
}

static int sample_body(struct hsperf *h, struct hsperf_sample *s)
{
	int r = refresh_body(h);
	if (r < 0)
		return r;
	const struct hsperf_plan *p = &h->plan;
	memset(s, 0, sizeof *s);
	s->mono_ns = mono_ns();
	s->hrt_frequency = plong(h, p->hrt_frequency);
	s->hrt_ticks = plong(h, p->hrt_ticks);
	s->create_vm_begin_ms = plong(h, p->create_vm_begin);
	s->safepoints = plong(h, p->safepoints);
	s->safepoint_time = plong(h, p->safepoint_time);
	s->safepoint_sync = plong(h, p->safepoint_sync);
	s->threads_live = plong(h, p->threads_live);
	pstring(h, p->cause, p->cause_len, s->cause, sizeof s->cause);
	pstring(h, p->last_cause, p->last_cause_len, s->last_cause, sizeof s->last_cause);
	pstring(h, p->policy, p->policy_len, s->policy, sizeof s->policy);
	s->meta_capacity = plong(h, p->meta_cap);
	s->meta_used = plong(h, p->meta_used);
	s->ccs_capacity = plong(h, p->ccs_cap);
	s->meta_max = plong(h, p->meta_max);
	s->ccs_max = plong(h, p->ccs_max);
	s->ccs_used = plong(h, p->ccs_used);
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++) {
		struct hsperf_collector *col = &s->coll[c];
		col->present = p->coll[c].invocations != 0;
		col->invocations = plong(h, p->coll[c].invocations);
		col->time = plong(h, p->coll[c].time);
		col->last_entry = plong(h, p->coll[c].last_entry);
		col->last_exit = plong(h, p->coll[c].last_exit);
		pstring(h, p->coll[c].name, p->coll[c].name_len, col->name, sizeof col->name);
	}
	sample_heap(h, s);
	return 0;
}

/* ticks to ns without overflow for any tick count below 2^63 */
static int64_t ticks_ns(int64_t t, int64_t freq)
{
	if (t < 0 || freq <= 0)
		return -1;
	return (t / freq) * 1000000000 + (int64_t)((double)(t % freq) * 1e9 / (double)freq);
}

/* b - a for counters that only grow; -1 when either is unknown */
static int64_t grew(int64_t a, int64_t b, bool *backwards)
{
	if (a < 0 || b < 0)
		return -1;
	if (b < a)
		*backwards = true;
	return b - a;
}

void hsperf_delta(const struct hsperf_sample *a, const struct hsperf_sample *b, struct hsperf_delta *d)
{
	bool back = false;
	int64_t f = b->hrt_frequency;
	memset(d, 0, sizeof *d);
	d->interval_ns = b->mono_ns - a->mono_ns;
	d->safepoints = grew(a->safepoints, b->safepoints, &back);
	int64_t op = grew(a->safepoint_time, b->safepoint_time, &back);
	int64_t sync = grew(a->safepoint_sync, b->safepoint_sync, &back);
	d->safepoint_op_ns = ticks_ns(op, f);
	d->ttsp_ns = ticks_ns(sync, f);
	d->stop_ns = d->safepoint_op_ns >= 0 && d->ttsp_ns >= 0 ? d->safepoint_op_ns + d->ttsp_ns : -1;
	for (int c = 0; c < HSPERF_MAX_COLLECTORS; c++) {
		const struct hsperf_collector *x = &a->coll[c], *y = &b->coll[c];
		d->coll[c].gcs = d->coll[c].time_ns = d->coll[c].one_gc_ns = -1;
		if (!x->present || !y->present)
			continue;
		d->coll[c].gcs = grew(x->invocations, y->invocations, &back);
		d->coll[c].time_ns = ticks_ns(grew(x->time, y->time, &back), f);
		/* invocations count a GC when it starts (PerfTraceTimedEvent), lastExitTime is
		 * set when it ends: one GC, begun after the previous one ended, and over */
		if (d->coll[c].gcs == 1 && y->last_exit >= y->last_entry && y->last_entry >= x->last_exit &&
		    x->last_exit >= 0)
			d->coll[c].one_gc_ns = ticks_ns(y->last_exit - y->last_entry, f);
	}
	if (a->create_vm_begin_ms != b->create_vm_begin_ms)
		back = true;
	if (back) {
		memset(d, 0, sizeof *d);
		d->interval_ns = b->mono_ns - a->mono_ns;
		d->restarted = true;
	}
}

/* ------------------------------------------------------- finding a file --- */

static const char *origin_name(int o)
{
	switch (o) {
	case DORIGIN_ARGFILE: return "an @argfile";
	case DORIGIN_JAVA_TOOL_OPTIONS: return "JAVA_TOOL_OPTIONS";
	case DORIGIN_JDK_JAVA_OPTIONS: return "JDK_JAVA_OPTIONS";
	case DORIGIN_JAVA_OPTIONS: return "_JAVA_OPTIONS";
	default: return "the command line";
	}
}

/* Why pid has no file where it should be: the flags that turn it off, if the
 * JVM shows them, else the likely causes. */
static void explain_missing(const char *root, int pid, const char *looked, char *why, size_t len)
{
	struct jvm_proc j;
	char err[256];
	const char *off = NULL;
	int origin = 0;
	if (discover_inspect(root, pid, &j, err, sizeof err) < 0) {
		snprintf(why, len, "no hsperfdata file for process %d (%s): %s", pid, looked, err);
		return;
	}
	if (!j.is_jvm) {
		snprintf(why, len, "%s", j.not_jvm[0] ? j.not_jvm : "the process is not a JVM");
		discover_fini(&j);
		return;
	}
	for (int i = 0; i < j.nopts; i++) {
		const char *a = j.opts[i].arg;
		if (strcmp(a, "-XX:-UsePerfData") == 0 || strcmp(a, "-XX:+PerfDisableSharedMem") == 0) {
			off = a;
			origin = j.opts[i].origin;
		} else if (strcmp(a, "-XX:+UsePerfData") == 0 || strcmp(a, "-XX:-PerfDisableSharedMem") == 0) {
			off = NULL; /* a later option turns it back on */
		}
	}
	if (off && strcmp(off, "-XX:-UsePerfData") == 0)
		snprintf(why, len, "JVM %d runs with -XX:-UsePerfData (from %s): it keeps no performance counters, "
			 "so heap and GC numbers come only from its logs (jstat cannot see it either; the counters "
			 "need a restart without that flag)", pid, origin_name(origin));
	else if (off)
		snprintf(why, len, "JVM %d runs with -XX:+PerfDisableSharedMem (from %s): its counters are in private "
			 "memory, not in %s (jstat cannot see it either; a restart without that flag shares them)",
			 pid, origin_name(origin), looked);
	else
		snprintf(why, len, "JVM %d has no hsperfdata file (%s): -XX:-UsePerfData or -XX:+PerfDisableSharedMem "
			 "set where stwtop cannot see it%s, /tmp not writable (or its hsperfdata_ directory not owned "
			 "by the JVM's user) when the JVM started, or a /tmp cleaner (systemd-tmpfiles, tmpwatch) "
			 "removed it; jstat -gc %d fails the same way", pid, looked,
			 j.environ_read ? "" : " (its environment is unreadable to us)", pid);
	discover_fini(&j);
}

/* a regular file owned by uid (uid -1: anyone) */
static int usable(const char *path, unsigned uid)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || (uid != (unsigned)-1 && st.st_uid != uid))
		return -ENOENT;
	return 0;
}

void hsperf_stops_init(struct hsperf_stops *st)
{
	memset(st, 0, sizeof *st);
	st->longest.total_ms = -1;
}

void hsperf_stops_step(struct hsperf_stops *st, const struct hsperf_delta *d, bool stop_has_sync, int64_t now_ms)
{
	if (d->restarted || d->safepoints < 0 || d->safepoint_op_ns < 0 || d->ttsp_ns < 0 || d->interval_ns <= 0) {
		st->carry_ns = 0;
		return;
	}
	int64_t sync = st->carry_ns + d->ttsp_ns;
	if (d->safepoint_op_ns == 0) {
		st->carry_ns = sync; /* reached, not ended: the stop is still on */
		return;
	}
	int64_t ended = stop_has_sync ? d->safepoint_op_ns : sync + d->safepoint_op_ns;
	struct hsperf_stop s = {.end_ms = now_ms, .window_ms = (double)d->interval_ns / 1e6};
	if (d->safepoints == 0) {
		s.exact = true;
		s.total_ms = (double)ended / 1e6;
		s.ttsp_ms = (double)(sync < ended ? sync : ended) / 1e6;
	} else {
		double e = (double)ended / 1e6, by_time = e - s.window_ms, by_count = e / (double)(d->safepoints + 1);
		s.total_ms = by_time > by_count ? by_time : by_count;
		s.ttsp_ms = (double)st->carry_ns / 1e6;
		if (s.ttsp_ms > s.total_ms)
			s.total_ms = s.ttsp_ms;
	}
	st->carry_ns = 0;
	if (s.total_ms > st->longest.total_ms)
		st->longest = s;
}

void hsperf_stops_take(struct hsperf_stops *st, struct hsperf_stop *out)
{
	*out = st->longest;
	st->longest.total_ms = -1;
}

/* every <tmp>/hsperfdata_* /<nspid> owned by uid: the JVM named its directory
 * with a name we could not work out (a uid without a passwd entry here) */
static bool scan_dirs(const char *tmp, int nspid, unsigned uid, char *path, size_t len)
{
	DIR *d = opendir(tmp);
	struct dirent *de;
	bool found = false;
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "hsperfdata_", 11) != 0)
			continue;
		if ((size_t)snprintf(path, len, "%s/%s/%d", tmp, de->d_name, nspid) < len && usable(path, uid) == 0)
			found = true;
	}
	closedir(d);
	return found;
}

int hsperf_find_file(const char *root, int pid, char *path, size_t pathlen, char *why, size_t whylen)
{
	char rel[96], p[1024], tmp[1024], user[64], b[4096];
	int64_t euid = -1, nspid = pid;
	struct stat st;
	if (whylen)
		why[0] = '\0';
	ssize_t n = procfile_read_status(root, pid, b, sizeof b, p, sizeof p, why, whylen);
	if (n < 0)
		return (int)n;
	procfile_status_num(b, (size_t)n, "\nUid:", 1, &euid); /* HotSpot names the directory after geteuid() */
	procfile_status_num(b, (size_t)n, "\nNSpid:", -1, &nspid);

	/* the JVM's /tmp: through /proc/PID/root, which is also right for a private /tmp
	 * (systemd PrivateTmp) and any other mount namespace; our own when we may not look there */
	snprintf(rel, sizeof rel, "/proc/%d/root/tmp", pid);
	procfile_join(tmp, sizeof tmp, root, rel);
	if (stat(tmp, &st) < 0)
		procfile_join(tmp, sizeof tmp, root, "/tmp");

	snprintf(user, sizeof user, "%lld", (long long)euid);
	snprintf(rel, sizeof rel, "/proc/%d/root/etc/passwd", pid);
	procfile_join(p, sizeof p, root, rel);
	/* the JVM's own passwd first, then ours; never getpwuid(): NSS would tie the
	 * static binary to the glibc it was linked with, and scan_dirs covers the rest */
	if (euid >= 0 && !discover_passwd_name(p, (unsigned)euid, user, sizeof user)) {
		procfile_join(p, sizeof p, root, "/etc/passwd");
		discover_passwd_name(p, (unsigned)euid, user, sizeof user);
	}
	if ((size_t)snprintf(path, pathlen, "%s/hsperfdata_%s/%lld", tmp, user, (long long)nspid) >= pathlen) {
		snprintf(why, whylen, "path too long");
		return -ENAMETOOLONG;
	}
	int r = usable(path, euid >= 0 ? (unsigned)euid : (unsigned)-1);
	if (r == 0)
		return 0;
	if (r == -EACCES) {
		snprintf(why, whylen, "cannot read %s: permission denied (run stwtop as root or as %s)", path, user);
		return r;
	}
	char want[1024];
	snprintf(want, sizeof want, "%s", path);
	if (scan_dirs(tmp, (int)nspid, euid >= 0 ? (unsigned)euid : (unsigned)-1, path, pathlen))
		return 0;
	explain_missing(root, pid, want, why, whylen);
	snprintf(path, pathlen, "%s", want);
	return -ENOENT;
}
