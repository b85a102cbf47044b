/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verdicts.c — building, holding, raising, updating and clearing verdicts
 * (rules_internal.h): a verdict is built in a draft (struct vdraft), then
 * packed: title and evidence in one allocation of their length, the advice
 * shared with the verdicts that give the same text. */
#include "rules_internal.h"

#include "stwtop/fmt.h"

/* of the advice, which is shared (~1.5 KB): eight bytes a step, the tail
 * byte by byte; the hash lives only in this process's buckets */
static uint32_t text_hash(const char *s)
{
	size_t n = strlen(s), i = 0;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	h ^= h >> 32;
	return (uint32_t)h;
}

/* s held (once more); NULL when out of memory */
static const char *share(struct rules *r, const char *s)
{
	uint32_t h = text_hash(s);
	struct shared **b = &r->shared[h & (SHARED_BUCKETS - 1)];
	for (struct shared *x = *b; x; x = x->next)
		if (x->hash == h && strcmp(x->s, s) == 0) {
			x->refs++;
			return x->s;
		}
	size_t n = strlen(s) + 1;
	struct shared *x = malloc(sizeof *x + n);
	if (!x)
		return NULL;
	x->hash = h;
	x->refs = 1;
	memcpy(x->s, s, n);
	x->next = *b;
	*b = x;
	return x->s;
}

static void unshare(struct rules *r, const char *s)
{
	if (!s)
		return;
	struct shared *x = (struct shared *)(void *)(s - offsetof(struct shared, s));
	if (--x->refs)
		return;
	for (struct shared **p = &r->shared[x->hash & (SHARED_BUCKETS - 1)]; *p; p = &(*p)->next)
		if (*p == x) {
			*p = x->next;
			break;
		}
	free(x);
}

/* a held verdict going: its texts */
void rv_drop(struct rules *r, struct verdict *v)
{
	free(v->text);
	v->text = NULL;
	unshare(r, v->advice);
	v->advice = NULL;
}

/* --- building verdicts --- */

void vinit(struct vdraft *v, int id, uint64_t key, int sev)
{
	memset(v, 0, sizeof *v);
	v->id = id;
	v->key = key;
	v->severity = sev;
	v->start_ms = v->end_ms = v->jump_ms = EV_TIME_NONE;
	v->cleared_ms = EV_TIME_NONE;
}

/* a held verdict, to be built on */
void vdraft_of(struct vdraft *d, const struct verdict *v)
{
	vinit(d, v->id, v->key, v->severity);
	d->start_ms = v->start_ms;
	d->end_ms = v->end_ms;
	d->cleared_ms = v->cleared_ms;
	d->jump_ms = v->jump_ms;
	fmt_s(d->title, sizeof d->title, "%s", v->title);
	d->nevidence = v->nevidence;
	for (int i = 0; i < v->nevidence; i++)
		fmt_s(d->evidence[i], sizeof d->evidence[i], "%s", v->evidence[i]);
	fmt_s(d->advice, sizeof d->advice, "%s", v->advice);
}

/* d into dst: title and evidence in one allocation, the advice shared (dst's
 * old ones let go); false when out of memory, dst unchanged */
static bool vpack(struct rules *r, struct verdict *dst, const struct vdraft *d)
{
	size_t lt = strlen(d->title) + 1, le[VERDICT_EVIDENCE_MAX], n = lt;
	for (int i = 0; i < d->nevidence; i++)
		n += le[i] = strlen(d->evidence[i]) + 1;
	char *t = malloc(n), *o = t;
	const char *adv = t ? share(r, d->advice) : NULL;
	if (!adv) {
		free(t);
		return false;
	}
	rv_drop(r, dst);
	r->gen++;
	dst->text = t;
	dst->id = d->id;
	dst->severity = d->severity;
	dst->key = d->key;
	dst->start_ms = d->start_ms;
	dst->end_ms = d->end_ms;
	dst->cleared_ms = d->cleared_ms;
	dst->jump_ms = d->jump_ms;
	dst->title = memcpy(o, d->title, lt);
	o += lt;
	dst->nevidence = d->nevidence;
	for (int i = 0; i < d->nevidence; i++) {
		dst->evidence[i] = memcpy(o, d->evidence[i], le[i]);
		o += le[i];
	}
	dst->advice = adv;
	return true;
}

/* A text longer than its buffer (a quoted thread or file name can be long) ends
 * at the last space that leaves room for " ..." and says so with it: never
 * inside a word, a number or a time token ("its operation is not na"). */
static void fit_words(char *buf, size_t len, int wanted)
{
	if (wanted < 0 || (size_t)wanted < len || len < 8)
		return;
	size_t cut = len - 5; /* room for " ..." and the NUL */
	while (cut > 0 && buf[cut] != ' ')
		cut--;
	while (cut > 0 && (buf[cut - 1] == ' ' || buf[cut - 1] == ',' || buf[cut - 1] == ';' || buf[cut - 1] == ':'))
		cut--;
	memcpy(buf + cut, " ...", 5);
}

void vtitle(struct vdraft *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = fmt_v(v->title, sizeof v->title, fmt, ap);
	va_end(ap);
	fit_words(v->title, sizeof v->title, k);
}

void vevid(struct vdraft *v, const char *fmt, ...)
{
	if (v->nevidence >= VERDICT_EVIDENCE_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *e = v->evidence[v->nevidence++];
	int k = fmt_v(e, VERDICT_EVIDENCE_LEN, fmt, ap);
	va_end(ap);
	fit_words(e, VERDICT_EVIDENCE_LEN, k);
}

void vadvice(struct vdraft *v, const char *fmt, ...)
{
	size_t n = strlen(v->advice);
	if (n >= sizeof v->advice - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = fmt_v(v->advice + n, sizeof v->advice - n, fmt, ap);
	va_end(ap);
	fit_words(v->advice + n, sizeof v->advice - n, k);
}

static size_t vidx_slot(int id, uint64_t key)
{
	uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(unsigned)id * 0xC2B2AE3D27D4EB4FULL;
	return (size_t)(h >> 40) & (VIDX_CAP - 1);
}

static void vidx_insert(struct rules *r, size_t i)
{
	size_t h = vidx_slot(r->v[i].id, r->v[i].key);
	while (r->vidx[h] >= 0)
		h = (h + 1) & (VIDX_CAP - 1);
	r->vidx[h] = (int16_t)i;
	if (r->v[i].id == V_LONG_GC_PAUSE && (int)i > r->last_long_pause)
		r->last_long_pause = (int)i;
}

/* after verdicts were removed (merged incidents) the slots moved */
void rv_index_rebuild(struct rules *r)
{
	memset(r->vidx, 0xff, sizeof r->vidx);
	r->last_long_pause = -1;
	for (size_t i = 0; i < r->nv; i++)
		vidx_insert(r, i);
}

const struct verdict *rv_find_c(const struct rules *r, int id, uint64_t key)
{
	for (size_t h = vidx_slot(id, key); r->vidx[h] >= 0; h = (h + 1) & (VIDX_CAP - 1)) {
		const struct verdict *v = &r->v[r->vidx[h]];
		if (v->id == id && v->key == key)
			return v;
	}
	return NULL;
}

struct verdict *rv_find(struct rules *r, int id, uint64_t key)
{
	return (struct verdict *)rv_find_c(r, id, key);
}

/* raised and not cleared */
bool rv_active(struct rules *r, int id, uint64_t key)
{
	const struct verdict *v = rv_find(r, id, key);
	return v && v->cleared_ms == EV_TIME_NONE;
}

static bool same_content(const struct verdict *a, const struct vdraft *b)
{
	if (a->severity != b->severity || a->start_ms != b->start_ms || a->end_ms != b->end_ms ||
	    a->cleared_ms != b->cleared_ms || a->nevidence != b->nevidence ||
	    strcmp(a->title, b->title) != 0 || strcmp(a->advice, b->advice) != 0)
		return false;
	for (int i = 0; i < a->nevidence; i++)
		if (strcmp(a->evidence[i], b->evidence[i]) != 0)
			return false;
	return true;
}

/* Advice is assembled from pieces: no leading, doubled or trailing spaces.
 * Most texts have none: found with strstr (the C library's word-wide search)
 * and the text left alone; else squeezed from the first one on. */
static void tidy(char *s)
{
	char *p = s;
	if (*s != ' ') {
		p = strstr(s, "  ");
		if (!p) {
			size_t n = strlen(s);
			if (n == 0 || s[n - 1] != ' ')
				return;
			p = s + n - 1; /* only trailing: one space */
		}
	}
	char *o = p;
	for (; *p; p++)
		if (!(*p == ' ' && (o == s || o[-1] == ' ')))
			*o++ = *p;
	while (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
}

/* Bounded at MAX_VERDICTS: when full, the verdicts of the oldest incidents that
 * are final (no more data can change them) go, EVICT_BATCH at a time so that
 * one memmove serves many new verdicts. A live session of days keeps showing
 * its newest incidents (it kept the first 2048 and dropped every new one);
 * whole-run verdicts stay; the notes say how many went and from when. */
#define EVICT_BATCH 256
static bool evict_oldest(struct rules *r)
{
	uint64_t open_min = UINT64_MAX;
	for (size_t i = r->open_from; i < r->ninc; i++)
		if (!r->inc[i].final && r->inc[i].id < open_min)
			open_min = r->inc[i].id;
	size_t w = 0, gone = 0;
	for (size_t i = 0; i < r->nv; i++) {
		const struct verdict *v = &r->v[i];
		bool old_incident = verdict_is_incident(v->id) && v->key < open_min &&
				    v->key != r->judging_key;
		if (old_incident && gone < EVICT_BATCH) {
			if (!r->evicted || v->start_ms < r->evicted_from_ms)
				r->evicted_from_ms = v->start_ms;
			int64_t e = v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms;
			if (!r->evicted || e > r->evicted_to_ms)
				r->evicted_to_ms = e;
			r->evicted++;
			gone++;
			rv_drop(r, &r->v[i]);
			continue;
		}
		if (w != i)
			r->v[w] = r->v[i];
		w++;
	}
	r->nv = w;
	r->gen++;
	if (gone)
		rv_index_rebuild(r);
	return gone > 0;
}

/* Raise or update: store nv (built from scratch) under (id, key). */
void rv_commit(struct rules *r, const struct vdraft *nv_in)
{
	struct vdraft tidied = *nv_in;
	const struct vdraft *nv = &tidied;
	tidy(tidied.advice);
	tidy(tidied.title);
	if (r->judging_key && nv->key == r->judging_key)
		r->judged_mask |= 1u << nv->id;
	struct verdict *old = rv_find(r, nv->id, nv->key);
	/* an incident's severity rises with its evidence, never back down:
	 * whoever was paged for a crit is not told a second later it was a warn */
	if (old && verdict_is_incident(nv->id) && old->severity > tidied.severity)
		tidied.severity = old->severity;
	if (old) {
		int was = old->severity;
		if (same_content(old, nv) || !vpack(r, old, nv))
			return;
		if (old->severity > was && !verdict_is_incident(old->id))
			r->raised[old->id][old->severity]++;
		old->version++;
		if (r->fn)
			r->fn(r->fnctx, old, false);
		return;
	}
	if (r->nv >= MAX_VERDICTS && !evict_oldest(r))
		return; /* every one is current: the new one waits for room */
	struct verdict *slot = &r->v[r->nv];
	memset(slot, 0, sizeof *slot);
	if (!vpack(r, slot, nv))
		return;
	r->nv++;
	if (!verdict_is_incident(slot->id)) /* an incident's: counted when final (rules_eval) */
		r->raised[slot->id][slot->severity]++;
	slot->version = 1;
	slot->raised_mono_ms = util_mono_ms();
	vidx_insert(r, r->nv - 1);
	if (r->fn)
		r->fn(r->fnctx, slot, true);
}

/* Mark a verdict cleared (the condition went away at t). */
void rv_clear(struct rules *r, int id, uint64_t key, int64_t t, const char *why)
{
	struct verdict *old = rv_find(r, id, key);
	if (!old || old->cleared_ms != EV_TIME_NONE)
		return;
	struct vdraft nv;
	vdraft_of(&nv, old);
	nv.cleared_ms = t;
	if (why)
		vevid(&nv, "%s", why);
	rv_commit(r, &nv);
}

/* --- formatting helpers --- */

const char *rl_sname(const struct rules_ctx *c, uint16_t src)
{
	const char *n = c->src_name ? c->src_name(c->src_ctx, src) : NULL;
	return n ? n : "?";
}

/* a time for evidence (buf: UTIL_HMS_LEN bytes): the instant as a time token (util.h:
 * util_expand_times() renders it when the text is read, in the zone shown then), or
 * "+12.345s" when the only clock is the JVM's uptime (an uptime-only log with nothing
 * else to line it up with) */
const char *rl_hms(const struct rules *r, int64_t t, char *buf)
{
	if (r->uptime_axis && t != EV_TIME_NONE) {
		/* 16 bytes hold up to 11 digits of seconds (3000 years of uptime) */
		if (fmt_s(buf, 16, "+%lld.%03llds", (long long)(t / 1000), (long long)(t % 1000)) >= 16)
			buf[15] = '\0';
		return buf;
	}
	return util_fmt_time_token(t, buf, UTIL_HMS_LEN);
}

const char *rl_stop_when(const struct rules *r, const struct tl_stop *s, char *buf, size_t len)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	if (s->flags & TL_STOP_COUNTERS)
		fmt_s(buf, len, "ending between %s and %s", rl_hms(r, s->end_ms - (int64_t)s->read_ms, t1),
		      rl_hms(r, s->end_ms, t2));
	else
		fmt_s(buf, len, "at %s", rl_hms(r, s->start_ms, t1));
	return buf;
}

void rl_counter_stop_evid(struct vdraft *v, const struct rules *r, const struct rules_ctx *c,
			  const struct tl_stop *s)
{
	char t1[UTIL_HMS_LEN], t2[UTIL_HMS_LEN];
	const char *a = rl_hms(r, s->end_ms - (int64_t)s->read_ms, t1), *b = rl_hms(r, s->end_ms, t2);
	if (s->flags & TL_STOP_SEVERAL)
		vevid(v, "%s, reads at %s and %s: of the safepoints that ended between them the longest "
		      "stopped the JVM at least %.1f ms, at least %.1f ms of it reaching the safepoint (others "
		      "began in that window, and the counters sum the stops; a safepoint log has each one)",
		      rl_sname(c, s->src), a, b, s->total_ms, s->ttsp_ms);
	else
		vevid(v, "%s, reads at %s and %s: one safepoint ended between them; it stopped the JVM "
		      "%.1f ms, %.1f ms of it reaching the safepoint (the JVM's counters: its start and end "
		      "are known to %.0f ms and its operation is not named)", rl_sname(c, s->src), a, b,
		      s->total_ms, s->ttsp_ms, s->read_ms);
}

double rl_mb10(int32_t v)
{
	return v / 10.0;
}

void rl_fmt_ms(double ms, char *buf, size_t len)
{
	if (ms >= 10000)
		fmt_s(buf, len, "%.1f s", ms / 1000.0);
	else if (ms >= 1000)
		fmt_s(buf, len, "%.2f s", ms / 1000.0);
	else if (ms >= 10)
		fmt_s(buf, len, "%.0f ms", ms);
	else
		fmt_s(buf, len, "%.1f ms", ms);
}

