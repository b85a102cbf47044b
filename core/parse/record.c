/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.c — NDJSON recording and replay of polled samples (include/stwtop/record.h,
 * schema docs/record-format.md), with jansson. The field tables below are the
 * schema: one row per JSON key, its type and where it lives in struct event, so
 * writer and reader cannot drift apart. */
#include "stwtop/record.h"

#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum fkind { F_I64, F_I32, F_U8, F_DBL, F_STR };

struct field {
	const char *key;
	enum fkind type;
	size_t off;   /* offset in struct event */
	size_t size;  /* F_STR: buffer size */
};

#define EV_OFF(m) offsetof(struct event, u.m)
#define EV_SIZE(m) sizeof(((struct event *)0)->u.m)

static const struct field cpu_fields[] = {
	{"nr_periods", F_I64, EV_OFF(cpu.nr_periods), 0},
	{"nr_throttled", F_I64, EV_OFF(cpu.nr_throttled), 0},
	{"throttled_us", F_I64, EV_OFF(cpu.throttled_us), 0},
	{"usage_us", F_I64, EV_OFF(cpu.usage_us), 0},
	{"quota_us", F_I64, EV_OFF(cpu.quota_us), 0},
	{"period_us", F_I64, EV_OFF(cpu.period_us), 0},
	{"psi_some_avg10", F_DBL, EV_OFF(cpu.psi_some_avg10), 0},
	{"cg_version", F_U8, EV_OFF(cpu.cg_version), 0},
};

static const struct field mem_fields[] = {
	{"usage_bytes", F_I64, EV_OFF(mem.usage_bytes), 0},
	{"limit_bytes", F_I64, EV_OFF(mem.limit_bytes), 0},
	{"anon_bytes", F_I64, EV_OFF(mem.anon_bytes), 0},
	{"file_bytes", F_I64, EV_OFF(mem.file_bytes), 0},
	{"psi_some_avg10", F_DBL, EV_OFF(mem.psi_some_avg10), 0},
};

static const struct field sched_fields[] = {
	{"interval_ms", F_DBL, EV_OFF(sched.interval_ms), 0},
	{"oncpu_ms", F_DBL, EV_OFF(sched.oncpu_ms), 0},
	{"wait_ms", F_DBL, EV_OFF(sched.wait_ms), 0},
	{"idle_ms", F_DBL, EV_OFF(sched.idle_ms), 0},
	{"nthreads", F_I32, EV_OFF(sched.nthreads), 0},
	{"worst_tid", F_I32, EV_OFF(sched.worst_tid), 0},
	{"worst_wait_ms", F_DBL, EV_OFF(sched.worst_wait_ms), 0},
	{"worst_comm", F_STR, EV_OFF(sched.worst_comm), EV_SIZE(sched.worst_comm)},
};

static const struct field vm_fields[] = {
	{"allocstall", F_I64, EV_OFF(vm.allocstall), 0},
	{"pageoutrun", F_I64, EV_OFF(vm.pageoutrun), 0},
	{"pgscan_direct", F_I64, EV_OFF(vm.pgscan_direct), 0},
};

static const struct field ctr_fields[] = {
	{"interval_ms", F_DBL, EV_OFF(ctr.interval_ms), 0},
	{"heap_used", F_I64, EV_OFF(ctr.heap_used), 0},
	{"heap_committed", F_I64, EV_OFF(ctr.heap_committed), 0},
	{"heap_max", F_I64, EV_OFF(ctr.heap_max), 0},
	{"gcs", F_I32, EV_OFF(ctr.gcs), 0},
	{"full_gcs", F_I32, EV_OFF(ctr.full_gcs), 0},
	{"gc_ms", F_DBL, EV_OFF(ctr.gc_ms), 0},
	{"one_gc_ms", F_DBL, EV_OFF(ctr.one_gc_ms), 0},
	{"safepoints", F_I32, EV_OFF(ctr.safepoints), 0},
	{"stop_ms", F_DBL, EV_OFF(ctr.stop_ms), 0},
	{"ttsp_ms", F_DBL, EV_OFF(ctr.ttsp_ms), 0},
	{"threads", F_I32, EV_OFF(ctr.threads), 0},
	{"stop_max_ms", F_DBL, EV_OFF(ctr.stop_max_ms), 0},
	{"stop_max_ttsp_ms", F_DBL, EV_OFF(ctr.stop_max_ttsp_ms), 0},
	{"stop_max_end", F_I64, EV_OFF(ctr.stop_max_end), 0},
	{"stop_max_window_ms", F_DBL, EV_OFF(ctr.stop_max_window_ms), 0},
	{"stop_max_exact", F_I32, EV_OFF(ctr.stop_max_exact), 0},
	{"collector", F_U8, EV_OFF(ctr.collector), 0},
	{"cause", F_STR, EV_OFF(ctr.cause), EV_SIZE(ctr.cause)},
	/* the read's totals since the JVM started (jstat -gc's; added 2026-12-06) */
	{"jvm_young_gcs", F_I64, EV_OFF(ctr.tot.gcs[JVM_GC_YOUNG]), 0},
	{"jvm_young_gc_ms", F_DBL, EV_OFF(ctr.tot.gc_ms[JVM_GC_YOUNG]), 0},
	{"jvm_full_gcs", F_I64, EV_OFF(ctr.tot.gcs[JVM_GC_FULL]), 0},
	{"jvm_full_gc_ms", F_DBL, EV_OFF(ctr.tot.gc_ms[JVM_GC_FULL]), 0},
	{"jvm_concurrent_gcs", F_I64, EV_OFF(ctr.tot.gcs[JVM_GC_CONCURRENT]), 0},
	{"jvm_concurrent_gc_ms", F_DBL, EV_OFF(ctr.tot.gc_ms[JVM_GC_CONCURRENT]), 0},
	{"jvm_pauses", F_I64, EV_OFF(ctr.tot.pauses), 0},
	{"jvm_pause_ms", F_DBL, EV_OFF(ctr.tot.pause_ms), 0},
	{"jvm_safepoints", F_I64, EV_OFF(ctr.tot.safepoints), 0},
	{"jvm_safepoint_ms", F_DBL, EV_OFF(ctr.tot.safepoint_ms), 0},
	{"jvm_safepoint_sync_ms", F_DBL, EV_OFF(ctr.tot.safepoint_sync_ms), 0},
	{"jvm_stopped_ms", F_DBL, EV_OFF(ctr.tot.stopped_ms), 0},
	{"eden_used", F_I64, EV_OFF(ctr.tot.used[JVM_POOL_EDEN]), 0},
	{"eden_committed", F_I64, EV_OFF(ctr.tot.committed[JVM_POOL_EDEN]), 0},
	{"eden_max", F_I64, EV_OFF(ctr.tot.max[JVM_POOL_EDEN]), 0},
	{"survivor_used", F_I64, EV_OFF(ctr.tot.used[JVM_POOL_SURVIVOR]), 0},
	{"survivor_committed", F_I64, EV_OFF(ctr.tot.committed[JVM_POOL_SURVIVOR]), 0},
	{"survivor_max", F_I64, EV_OFF(ctr.tot.max[JVM_POOL_SURVIVOR]), 0},
	{"old_used", F_I64, EV_OFF(ctr.tot.used[JVM_POOL_OLD]), 0},
	{"old_committed", F_I64, EV_OFF(ctr.tot.committed[JVM_POOL_OLD]), 0},
	{"old_max", F_I64, EV_OFF(ctr.tot.max[JVM_POOL_OLD]), 0},
	{"metaspace_used", F_I64, EV_OFF(ctr.tot.used[JVM_POOL_METASPACE]), 0},
	{"metaspace_committed", F_I64, EV_OFF(ctr.tot.committed[JVM_POOL_METASPACE]), 0},
	{"compressed_class_used", F_I64, EV_OFF(ctr.tot.used[JVM_POOL_CCS]), 0},
	{"compressed_class_committed", F_I64, EV_OFF(ctr.tot.committed[JVM_POOL_CCS]), 0},
};

static const struct field exit_fields[] = {
	{"pid", F_I32, EV_OFF(exit.pid), 0},
	{"alive_ms", F_I64, EV_OFF(exit.alive_ms), 0},
};

struct kind_schema {
	enum ev_kind kind;
	const char *name;
	const struct field *fields;
	size_t n;
};

static const struct kind_schema schemas[] = {
	{EV_CPU, "cpu", cpu_fields, ARRAY_LEN(cpu_fields)},
	{EV_MEM, "mem", mem_fields, ARRAY_LEN(mem_fields)},
	{EV_SCHED, "sched", sched_fields, ARRAY_LEN(sched_fields)},
	{EV_VMSTAT, "vmstat", vm_fields, ARRAY_LEN(vm_fields)},
	{EV_JVM_EXIT, "jvm_exit", exit_fields, ARRAY_LEN(exit_fields)},
	{EV_JVMCTR, "jvm_counters", ctr_fields, ARRAY_LEN(ctr_fields)},
};

static const struct kind_schema *schema_of(int kind)
{
	for (size_t i = 0; i < ARRAY_LEN(schemas); i++)
		if ((int)schemas[i].kind == kind)
			return &schemas[i];
	return NULL;
}

/* Thread names are bytes (prctl cuts at 15 bytes, possibly inside a UTF-8
 * sequence); JSON strings must be UTF-8: invalid bytes become '?'. */
static void utf8_clean(const char *s, size_t n, char *dst, size_t dstlen)
{
	size_t o = 0, i = 0;
	const unsigned char *u = (const unsigned char *)s;
	while (i < n && u[i] && o + 1 < dstlen) {
		size_t k = 0;
		unsigned char c = u[i];
		if (c < 0x80)
			k = 1;
		else if (c >= 0xc2 && c <= 0xdf)
			k = 2;
		else if (c >= 0xe0 && c <= 0xef)
			k = 3;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 4;
		bool ok = k > 0 && i + k <= n;
		for (size_t j = 1; ok && j < k; j++)
			ok = (u[i + j] & 0xc0) == 0x80;
		if (ok && k == 3 && ((c == 0xe0 && u[i + 1] < 0xa0) || (c == 0xed && u[i + 1] >= 0xa0)))
			ok = false; /* overlong / surrogate */
		if (ok && k == 4 && ((c == 0xf0 && u[i + 1] < 0x90) || (c == 0xf4 && u[i + 1] >= 0x90)))
			ok = false;
		if (ok && o + k < dstlen) {
			memcpy(dst + o, s + i, k);
			o += k;
			i += k;
		} else if (ok) {
			break;
		} else {
			dst[o++] = '?';
			i++;
		}
	}
	dst[o] = '\0';
}

static int set_num(json_t *obj, const char *key, json_t *v)
{
	if (!v || json_object_set_new(obj, key, v) < 0)
		return -ENOMEM;
	return 0;
}

static int dump(json_t *o, char *buf, size_t len)
{
	size_t n = json_dumpb(o, buf, len, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (n == 0)
		return -ENOMEM;
	if (n >= len)
		return -ENOSPC;
	buf[n] = '\0';
	return (int)n;
}

int record_format(const struct event *e, char *buf, size_t len)
{
	const struct kind_schema *k = schema_of(e->kind);
	json_t *o;
	int r = 0;
	if (!k)
		return -EINVAL;
	o = json_object();
	if (!o)
		return -ENOMEM;
	r |= set_num(o, "v", json_integer(RECORD_VERSION));
	r |= set_num(o, "t", e->t_ms == EV_TIME_NONE ? json_null() : json_integer(e->t_ms));
	r |= set_num(o, "kind", json_string(k->name));
	if (e->up_us >= 0)
		r |= set_num(o, "up_us", json_integer(e->up_us));
	for (size_t i = 0; i < k->n; i++) {
		const struct field *f = &k->fields[i];
		const char *p = (const char *)e + f->off;
		json_t *v = NULL;
		switch (f->type) {
		case F_I64: {
			int64_t x;
			memcpy(&x, p, sizeof x);
			v = json_integer(x);
			break;
		}
		case F_I32: {
			int32_t x;
			memcpy(&x, p, sizeof x);
			v = json_integer(x);
			break;
		}
		case F_U8:
			v = json_integer(*(const uint8_t *)p);
			break;
		case F_DBL: {
			double x;
			memcpy(&x, p, sizeof x);
			v = isfinite(x) ? json_real(x) : json_null(); /* JSON has no NaN: null = unknown */
			break;
		}
		case F_STR: {
			char clean[64];
			utf8_clean(p, strnlen(p, f->size), clean, sizeof clean < f->size ? sizeof clean : f->size);
			v = json_string(clean);
			break;
		}
		}
		r |= set_num(o, f->key, v);
	}
	if (r) {
		json_decref(o);
		return -ENOMEM;
	}
	return dump(o, buf, len);
}

/* the fields every meta line starts with; *r gets any failure */
static json_t *meta_obj(int64_t now_ms, int *r)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	*r |= set_num(o, "v", json_integer(RECORD_VERSION));
	*r |= set_num(o, "t", json_integer(now_ms));
	*r |= set_num(o, "kind", json_string("meta"));
	*r |= set_num(o, "tool", json_string("stwtop"));
	*r |= set_num(o, "version", json_string(STWTOP_VERSION));
	return o;
}

int record_format_meta(int64_t now_ms, const char *note, char *buf, size_t len)
{
	int r = 0;
	json_t *o = meta_obj(now_ms, &r);
	char clean[512];
	if (!o)
		return -ENOMEM;
	if (note) {
		utf8_clean(note, strlen(note), clean, sizeof clean);
		r |= set_num(o, "note", json_string(clean));
	}
	if (r) {
		json_decref(o);
		return -ENOMEM;
	}
	return dump(o, buf, len);
}

int record_format_anchor(int64_t now_ms, int64_t start_ms, const char *from, const char *how, char *buf,
			 size_t len)
{
	int r = 0;
	json_t *o = meta_obj(now_ms, &r);
	char clean[256];
	if (!o)
		return -ENOMEM;
	r |= set_num(o, "jvm_start", json_integer(start_ms));
	utf8_clean(from, strlen(from), clean, sizeof clean);
	r |= set_num(o, "jvm_start_from", json_string(clean));
	utf8_clean(how, strlen(how), clean, sizeof clean);
	r |= set_num(o, "jvm_start_how", json_string(clean));
	if (r) {
		json_decref(o);
		return -ENOMEM;
	}
	return dump(o, buf, len);
}

/* ------------------------------------------------------------------ parse --- */

/* message into err (a literal format, so the compiler checks it), evaluates to code */
#define fail(err, errlen, code, ...) ((errlen) ? (void)snprintf((err), (errlen), __VA_ARGS__) : (void)0, (code))

static int get_field(const struct field *f, json_t *v, struct event *out, char *err, size_t errlen)
{
	char *p = (char *)out + f->off;
	if (f->type == F_DBL) {
		double x;
		if (json_is_null(v))
			x = -1; /* written for a non-finite value */
		else if (json_is_number(v))
			x = json_number_value(v);
		else
			return fail(err, errlen, -EINVAL, "field \"%s\": expected a number", f->key);
		memcpy(p, &x, sizeof x);
		return 0;
	}
	if (f->type == F_STR) {
		if (!json_is_string(v))
			return fail(err, errlen, -EINVAL, "field \"%s\": expected a string", f->key);
		util_strlcpy_n(p, f->size, json_string_value(v), json_string_length(v));
		return 0;
	}
	if (!json_is_integer(v))
		return fail(err, errlen, -EINVAL, "field \"%s\": expected an integer", f->key);
	json_int_t x = json_integer_value(v);
	if (f->type == F_I64) {
		int64_t y = (int64_t)x;
		memcpy(p, &y, sizeof y);
	} else if (f->type == F_I32) {
		if (x < INT32_MIN || x > INT32_MAX)
			return fail(err, errlen, -EINVAL, "field \"%s\": out of range", f->key);
		int32_t y = (int32_t)x;
		memcpy(p, &y, sizeof y);
	} else {
		if (x < 0 || x > 255)
			return fail(err, errlen, -EINVAL, "field \"%s\": out of range", f->key);
		*(uint8_t *)p = (uint8_t)x;
	}
	return 0;
}

int record_parse_line(const char *line, size_t len, struct event *out, char *err, size_t errlen)
{
	json_error_t je;
	json_t *o, *v;
	int r = -EINVAL;
	if (errlen)
		err[0] = '\0';
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == len)
		return 0;
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!o) {
		if (errlen)
			snprintf(err, errlen, "not JSON: %s (column %d)", je.text, je.column);
		return -EINVAL;
	}
	if (!json_is_object(o)) {
		r = fail(err, errlen, -EINVAL, "%s", "not a JSON object");
		goto out;
	}
	v = json_object_get(o, "v");
	if (!json_is_integer(v)) {
		r = fail(err, errlen, -EINVAL, "%s", "no integer version field \"v\"");
		goto out;
	}
	if (json_integer_value(v) > RECORD_VERSION) {
		if (errlen)
			snprintf(err, errlen, "record format version %lld is newer than this stwtop reads (%d)",
				 (long long)json_integer_value(v), RECORD_VERSION);
		r = -EPROTONOSUPPORT;
		goto out;
	}
	if (json_integer_value(v) < 1) {
		r = fail(err, errlen, -EINVAL, "%s", "version \"v\" must be >= 1");
		goto out;
	}
	v = json_object_get(o, "kind");
	if (!json_is_string(v)) {
		r = fail(err, errlen, -EINVAL, "%s", "no string field \"kind\"");
		goto out;
	}
	const char *kname = json_string_value(v);
	const struct kind_schema *k = NULL;
	for (size_t s = 0; s < ARRAY_LEN(schemas); s++)
		if (strcmp(schemas[s].name, kname) == 0)
			k = &schemas[s];
	if (!k) {
		if (strcmp(kname, "meta") != 0) {
			(void)fail(err, errlen, 0, "kind \"%.40s\" is not known to this version: skipped", kname);
			r = 0;
			goto out;
		}
		/* a meta line that says when the JVM started: an anchor for uptime-only logs */
		v = json_object_get(o, "jvm_start");
		json_t *t = json_object_get(o, "t");
		r = 0;
		if (v && !json_is_integer(v))
			(void)fail(err, errlen, 0, "%s", "meta: \"jvm_start\" is not an integer: ignored");
		else if (v) {
			ev_init(out, EV_ANCHOR);
			out->t_ms = json_is_integer(t) ? json_integer_value(t) : EV_TIME_NONE;
			out->u.anchor_ms = json_integer_value(v);
			r = 1;
		}
		goto out;
	}
	ev_init(out, k->kind);
	v = json_object_get(o, "t");
	if (json_is_integer(v))
		out->t_ms = json_integer_value(v);
	else if (!json_is_null(v)) {
		r = fail(err, errlen, -EINVAL, "%s", "no integer time field \"t\"");
		goto out;
	}
	v = json_object_get(o, "up_us");
	if (v) {
		if (!json_is_integer(v)) {
			r = fail(err, errlen, -EINVAL, "%s", "field \"up_us\": expected an integer");
			goto out;
		}
		out->up_us = json_integer_value(v);
	}
	for (size_t f = 0; f < k->n; f++) {
		v = json_object_get(o, k->fields[f].key);
		if (!v)
			continue; /* absent: stays "unknown" as ev_init set it */
		if ((r = get_field(&k->fields[f], v, out, err, errlen)) < 0)
			goto out;
	}
	r = 1;
out:
	json_decref(o);
	return r;
}

/* ----------------------------------------------------------------- writer --- */

struct recorder {
	int fd;
	char path[512];
};

static int write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, b, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

struct recorder *record_open(const char *path, int64_t now_ms, const char *note, char *err, size_t errlen)
{
	struct recorder *r = calloc(1, sizeof *r);
	char line[1024];
	int n;
	if (errlen)
		err[0] = '\0';
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(r->path, sizeof r->path, "%s", path);
	r->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (r->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	n = record_format_meta(now_ms, note, line, sizeof line - 1);
	if (n > 0) {
		line[n] = '\n';
		int w = write_all(r->fd, line, (size_t)n + 1);
		if (w < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(-w));
			close(r->fd);
			free(r);
			return NULL;
		}
	}
	return r;
}

bool record_meta_anchor(const char *line, size_t len, int64_t *start_ms, char *from, size_t fromlen, char *how,
			size_t howlen)
{
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
	bool ok = false;
	if (fromlen)
		from[0] = '\0';
	if (howlen)
		how[0] = '\0';
	if (o && json_is_object(o) && json_is_string(json_object_get(o, "kind")) &&
	    strcmp(json_string_value(json_object_get(o, "kind")), "meta") == 0 &&
	    json_is_integer(json_object_get(o, "jvm_start"))) {
		json_t *f = json_object_get(o, "jvm_start_from"), *h = json_object_get(o, "jvm_start_how");
		*start_ms = json_integer_value(json_object_get(o, "jvm_start"));
		if (json_is_string(f))
			util_strlcpy_n(from, fromlen, json_string_value(f), json_string_length(f));
		if (json_is_string(h))
			util_strlcpy_n(how, howlen, json_string_value(h), json_string_length(h));
		ok = true;
	}
	json_decref(o);
	return ok;
}

int record_write_anchor(struct recorder *r, int64_t now_ms, int64_t start_ms, const char *from, const char *how)
{
	char line[1024];
	int n = record_format_anchor(now_ms, start_ms, from, how, line, sizeof line - 1);
	if (n < 0)
		return n;
	line[n] = '\n';
	return write_all(r->fd, line, (size_t)n + 1);
}

int record_write(struct recorder *r, const struct event *e)
{
	char line[4096]; /* a jvm_counters line with its totals is about 1.2 KB */
	int n = record_format(e, line, sizeof line - 1);
	if (n < 0)
		return n;
	line[n] = '\n';
	return write_all(r->fd, line, (size_t)n + 1);
}

void record_close(struct recorder *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r);
}
