/* rules.c — the verdict engine (rules.h): incidents on one timeline, judged
 * from the evidence of every source, with the advice of FIELD-NOTES.md.
 *
 * Two kinds of verdicts:
 *  - incident verdicts (long-gc-pause, ttsp-spike, cpu-throttled-during-stop,
 *    sched-delay-during-stop, direct-reclaim, accept-queue-overflow,
 *    connect-timeout-504): one instance per incident, re-judged while the
 *    incident is open, frozen once it is final;
 *  - whole-run verdicts (g1-not-shrinking, periodic-gc-*, serial-gc-selected,
 *    zgc-allocation-stall, aot-sigill-adapter): state kept as events arrive.
 */
#include "stwtop/rules.h"
#include "stwtop/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const id_names[V_COUNT] = {
	[V_G1_NOT_SHRINKING] = "g1-not-shrinking",
	[V_PERIODIC_SKIPPED] = "periodic-gc-skipped",
	[V_PERIODIC_SHRANK] = "periodic-gc-shrank",
	[V_LONG_GC_PAUSE] = "long-gc-pause",
	[V_TTSP_SPIKE] = "ttsp-spike",
	[V_CPU_THROTTLED] = "cpu-throttled-during-stop",
	[V_SCHED_DELAY] = "sched-delay-during-stop",
	[V_DIRECT_RECLAIM] = "direct-reclaim",
	[V_ACCEPT_QUEUE] = "accept-queue-overflow",
	[V_CONNECT_504] = "connect-timeout-504",
	[V_SERIAL_GC] = "serial-gc-selected",
	[V_ZGC_STALL] = "zgc-allocation-stall",
	[V_AOT_SIGILL] = "aot-sigill-adapter",
};

const char *verdict_id_name(int id)
{
	return id >= 0 && id < V_COUNT ? id_names[id] : "?";
}

int verdict_id_from_name(const char *name)
{
	for (int i = 0; i < V_COUNT; i++)
		if (strcmp(id_names[i], name) == 0)
			return i;
	return -1;
}

const char *severity_name(int sev)
{
	return sev == SEV_CRIT ? "crit" : sev == SEV_WARN ? "warn" : "info";
}

/* --- state --- */

#define MAX_INCIDENTS 512
#define TREND_BINS 256
#define SHARED_BUCKETS 256               /* advice texts (a power of two) */
#define INCIDENT_DROP_BATCH 64
#define MAX_VERDICTS 2048
#define VIDX_CAP 4096                  /* (id, key) -> verdict slot; a power of two > 2 x MAX_VERDICTS */

struct incident {
	uint64_t id;
	int64_t start_ms, end_ms;      /* union of its marks */
	bool final;
	bool has_stop;                 /* a JVM stop >= stop_ms or a long pause is in it */
	bool has_slow;                 /* slow connects or connect 504s */
	/* the request that waited longest to connect, and the first connect
	 * timeout (504 with no connect time): which request, from which line,
	 * to which server ($request, $upstream_addr, when the format logs them) */
	struct inc_req { float uct_s, rt_s; uint16_t src; uint64_t line; char request[72], upstream[48]; } slowest, t504;
	bool upstream_many;            /* slow connects went to more than one server */
};

struct rules {
	struct rules_config cfg;
	struct verdict *v;
	size_t nv;
	/* find() runs for every verdict built; a linear scan over up to 2048
	 * verdicts of 3.5 KB each made a long replay quadratic */
	int16_t vidx[VIDX_CAP];        /* open addressing, -1 empty */
	int last_long_pause;           /* highest slot holding a long-gc-pause, -1 none */
	bool eager;                    /* judge open incidents at every evaluation (live) */
	bool uptime_axis;              /* times are JVM uptime: say so in evidence */
	uint64_t evicted;              /* verdicts of old final incidents let go to keep the newest */
	int64_t evicted_from_ms, evicted_to_ms;
	uint64_t judging_key;          /* the incident being judged, 0 none */
	bool judging_final;            /* ... for the last time (no more data will change it) */
	unsigned judged_mask;          /* incident verdict ids it committed */
	int64_t whole_built_mono_ms;   /* last refresh of every whole-run verdict */
	unsigned evals_unbuilt;        /* evaluations since the clock was read for that */
	struct incident inc[MAX_INCIDENTS];
	size_t ninc;
	int64_t final_end_max;         /* latest end of the incidents below open_from (EV_TIME_NONE) */
	size_t open_from;              /* every incident below this index is final: the
	                                * evaluations skip them (512 per second of data) */
	uint64_t next_id;
	rules_change_fn fn;
	void *fnctx;

	/* g1-not-shrinking / periodic-gc-shrank */
	int64_t plateau_since_ms, plateau_last_ms;
	double plateau_committed, plateau_max_used, plateau_min_committed;
	int plateau_pauses;
	uint16_t plateau_first_src, plateau_last_src;
	uint64_t plateau_first_line, plateau_last_line;
	double plateau_first_used, plateau_last_used;
	bool saw_shrink_trigger;       /* a Remark or Full inside the plateau */
	struct g1snap {                /* the plateau at the last pause showing g1-not-shrinking */
		int64_t since_ms, last_ms, longest_gap_ms;
		double committed, min_committed, max_used, first_used, last_used;
		int pauses;
		uint16_t first_src, last_src;
		uint64_t first_line, last_line;
		bool saw_trigger;
		/* set when its plateau ended (the bins are the next one's now):
		 * the leak check's quarters as they were */
		bool trend_kept, trend_known;
		double q2, q4;
	} g1snap;
	int64_t g1snap_ms;             /* EV_TIME_NONE: never shown */
	/* used after GC over the plateau, for the leak check: the lowest in each
	 * of at most TREND_BINS bins from its start, the bins doubling in width as
	 * it lasts (a scan of the pauses ring saw only its last 16384 pauses, and
	 * a report lets the pauses go) */
	struct trend { int64_t t0, w; int n; float min[TREND_BINS]; } trend;
	/* stops >= stop_ms of final incidents that no stop verdict explains,
	 * counted as each incident is judged for the last time (a report lets
	 * the stops themselves go) */
	struct unexplained { uint64_t n; double longest_ms; int64_t at_ms; char op[48]; } unexplained;
	int64_t last_periodic_ms;      /* last G1 Periodic Collection pause */
	uint16_t last_periodic_src;
	uint64_t last_periodic_line;
	double last_periodic_committed;
	int64_t longest_gap_ms;        /* longest time between two GC pauses (idle window) */
	int64_t last_pause_ms;
	double committed_peak_mb;
	double shrank_from_mb;         /* committed before the first periodic shrink */
	int64_t first_pause_ms;

	/* periodic-gc-skipped */
	int skips_in_row;
	int64_t skip_first_ms, skip_last_ms;
	int64_t skip_gap_min, skip_gap_max, skip_threshold;
	int skip_load;                 /* skips because of system load */
	uint16_t skip_first_src, skip_last_src;
	uint64_t skip_first_line, skip_last_line;

	/* zgc-allocation-stall */
	uint64_t stalls;
	double stall_max_ms, stall_sum_ms;
	int64_t stall_first_ms, stall_last_ms, stall_max_at;
	char stall_max_thread[40];
	char stall_threads[120];
	uint16_t stall_first_src, stall_max_src;
	uint64_t stall_first_line, stall_max_line;
	uint64_t stall_cycles, cycles;

	/* aot-sigill-adapter */
	bool hserr_seen;

	/* advice texts, each held once for the verdicts that give it */
	struct shared *shared[SHARED_BUCKETS];
};

/* An advice text shared by the verdicts that give it: an incident-dense log
 * gives the same 600-900 bytes of advice for every incident (nginx-ops 1 GB:
 * 1572 verdicts, one advice; the dense safepoint file: 1971, one). */
struct shared {
	struct shared *next;           /* in its bucket */
	uint32_t hash, refs;
	char s[];
};

static uint32_t text_hash(const char *s)
{
	uint32_t h = 2166136261u;      /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
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
static void vdrop(struct rules *r, struct verdict *v)
{
	free(v->text);
	v->text = NULL;
	unshare(r, v->advice);
	v->advice = NULL;
}

struct rules *rules_new(const struct rules_config *cfg)
{
	struct rules *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	if (cfg)
		r->cfg = *cfg;
	else
		rules_config_defaults(&r->cfg);
	r->v = calloc(MAX_VERDICTS, sizeof *r->v);
	if (!r->v) {
		free(r);
		return NULL;
	}
	r->next_id = 1;
	memset(r->vidx, 0xff, sizeof r->vidx);
	r->last_long_pause = -1;
	r->whole_built_mono_ms = 0;   /* boot: long ago */
	r->plateau_since_ms = EV_TIME_NONE;
	r->final_end_max = EV_TIME_NONE;
	r->last_periodic_ms = EV_TIME_NONE;
	r->last_pause_ms = EV_TIME_NONE;
	r->first_pause_ms = EV_TIME_NONE;
	r->g1snap_ms = EV_TIME_NONE;
	r->skip_first_ms = r->skip_last_ms = EV_TIME_NONE;
	return r;
}

void rules_free(struct rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nv; i++)
		vdrop(r, &r->v[i]);
	free(r->v);
	free(r);
}

void rules_set_listener(struct rules *r, rules_change_fn fn, void *ctx)
{
	r->fn = fn;
	r->fnctx = ctx;
}

size_t rules_count(const struct rules *r)
{
	return r->nv;
}

const struct verdict *rules_at(const struct rules *r, size_t i)
{
	return i < r->nv ? &r->v[i] : NULL;
}

/* --- building verdicts --- */

/* A verdict while it is built (and compared with the one held): struct
 * verdict's header, its texts in arrays. commit() packs it. */
struct vdraft {
	int id, severity;
	uint64_t key;
	int64_t start_ms, end_ms, cleared_ms, jump_ms;
	char title[VERDICT_TITLE_LEN];
	char evidence[VERDICT_EVIDENCE_MAX][VERDICT_EVIDENCE_LEN];
	int nevidence;
	char advice[VERDICT_ADVICE_LEN];
};

static void vinit(struct vdraft *v, int id, uint64_t key, int sev)
{
	memset(v, 0, sizeof *v);
	v->id = id;
	v->key = key;
	v->severity = sev;
	v->start_ms = v->end_ms = v->jump_ms = EV_TIME_NONE;
	v->cleared_ms = EV_TIME_NONE;
}

/* a held verdict, to be built on */
static void vdraft_of(struct vdraft *d, const struct verdict *v)
{
	vinit(d, v->id, v->key, v->severity);
	d->start_ms = v->start_ms;
	d->end_ms = v->end_ms;
	d->cleared_ms = v->cleared_ms;
	d->jump_ms = v->jump_ms;
	snprintf(d->title, sizeof d->title, "%s", v->title);
	d->nevidence = v->nevidence;
	for (int i = 0; i < v->nevidence; i++)
		snprintf(d->evidence[i], sizeof d->evidence[i], "%s", v->evidence[i]);
	snprintf(d->advice, sizeof d->advice, "%s", v->advice);
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
	vdrop(r, dst);
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

__attribute__((format(printf, 2, 3))) static void vtitle(struct vdraft *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->title, sizeof v->title, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 2, 3))) static void vevid(struct vdraft *v, const char *fmt, ...)
{
	if (v->nevidence >= VERDICT_EVIDENCE_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->evidence[v->nevidence++], VERDICT_EVIDENCE_LEN, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 2, 3))) static void vadvice(struct vdraft *v, const char *fmt, ...)
{
	size_t n = strlen(v->advice);
	if (n >= sizeof v->advice - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->advice + n, sizeof v->advice - n, fmt, ap);
	va_end(ap);
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
static void vidx_rebuild(struct rules *r)
{
	memset(r->vidx, 0xff, sizeof r->vidx);
	r->last_long_pause = -1;
	for (size_t i = 0; i < r->nv; i++)
		vidx_insert(r, i);
}

static const struct verdict *find_c(const struct rules *r, int id, uint64_t key)
{
	for (size_t h = vidx_slot(id, key); r->vidx[h] >= 0; h = (h + 1) & (VIDX_CAP - 1)) {
		const struct verdict *v = &r->v[r->vidx[h]];
		if (v->id == id && v->key == key)
			return v;
	}
	return NULL;
}

static struct verdict *find(struct rules *r, int id, uint64_t key)
{
	return (struct verdict *)find_c(r, id, key);
}

/* raised and not cleared */
static bool active(struct rules *r, int id, uint64_t key)
{
	const struct verdict *v = find(r, id, key);
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

/* Advice is assembled from pieces: no doubled or trailing spaces. */
static void tidy(char *s)
{
	char *o = s;
	for (char *p = s; *p; p++)
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
		bool old_incident = v->id >= V_LONG_GC_PAUSE && v->id <= V_CONNECT_504 && v->key < open_min &&
				    v->key != r->judging_key;
		if (old_incident && gone < EVICT_BATCH) {
			if (!r->evicted || v->start_ms < r->evicted_from_ms)
				r->evicted_from_ms = v->start_ms;
			int64_t e = v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms;
			if (!r->evicted || e > r->evicted_to_ms)
				r->evicted_to_ms = e;
			r->evicted++;
			gone++;
			vdrop(r, &r->v[i]);
			continue;
		}
		if (w != i)
			r->v[w] = r->v[i];
		w++;
	}
	r->nv = w;
	if (gone)
		vidx_rebuild(r);
	return gone > 0;
}

/* Raise or update: store nv (built from scratch) under (id, key). */
static void commit(struct rules *r, const struct vdraft *nv_in)
{
	struct vdraft tidied = *nv_in;
	const struct vdraft *nv = &tidied;
	tidy(tidied.advice);
	tidy(tidied.title);
	if (r->judging_key && nv->key == r->judging_key)
		r->judged_mask |= 1u << nv->id;
	struct verdict *old = find(r, nv->id, nv->key);
	if (old) {
		if (same_content(old, nv) || !vpack(r, old, nv))
			return;
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
	slot->version = 1;
	vidx_insert(r, r->nv - 1);
	if (r->fn)
		r->fn(r->fnctx, slot, true);
}

/* An incident judged again no longer supports this verdict: tell the
 * listener, then remove it. */
static void withdraw(struct rules *r, int id, uint64_t key)
{
	struct verdict *v = find(r, id, key);
	if (!v)
		return;
	size_t k = (size_t)(v - r->v);
	if (r->fn) {
		v->withdrawn = true;
		r->fn(r->fnctx, v, false);
	}
	vdrop(r, v);
	memmove(&r->v[k], &r->v[k + 1], (r->nv - k - 1) * sizeof r->v[0]);
	r->nv--;
	vidx_rebuild(r);
}

void rules_set_eager(struct rules *r, bool eager)
{
	r->eager = eager;
}

/* Mark a whole-run verdict cleared (the condition went away at t). */
static void clear(struct rules *r, int id, uint64_t key, int64_t t, const char *why)
{
	struct verdict *old = find(r, id, key);
	if (!old || old->cleared_ms != EV_TIME_NONE)
		return;
	struct vdraft nv;
	vdraft_of(&nv, old);
	nv.cleared_ms = t;
	if (why)
		vevid(&nv, "%s", why);
	commit(r, &nv);
}

/* --- formatting helpers --- */

static const char *sname(const struct rules_ctx *c, uint16_t src)
{
	const char *n = c->src_name ? c->src_name(c->src_ctx, src) : NULL;
	return n ? n : "?";
}

/* a time for evidence: the clock (UTC), or "+12.345s" when the only clock is
 * the JVM's uptime (an uptime-only log with nothing else to line it up with) */
static const char *hms(const struct rules *r, int64_t t, char *buf)
{
	if (r->uptime_axis && t != EV_TIME_NONE) {
		/* 16 bytes hold up to 11 digits of seconds (3000 years of uptime) */
		if (snprintf(buf, 16, "+%lld.%03llds", (long long)(t / 1000), (long long)(t % 1000)) >= 16)
			buf[15] = '\0';
		return buf;
	}
	return util_fmt_hms_ms(t, buf, 16);
}

static double mb10(int32_t v)
{
	return v / 10.0;
}

static void fmt_ms(double ms, char *buf, size_t len)
{
	if (ms >= 10000)
		snprintf(buf, len, "%.1f s", ms / 1000.0);
	else if (ms >= 1000)
		snprintf(buf, len, "%.2f s", ms / 1000.0);
	else if (ms >= 10)
		snprintf(buf, len, "%.0f ms", ms);
	else
		snprintf(buf, len, "%.1f ms", ms);
}

/* --- incidents --- */

static struct incident *incident_for(struct rules *r, int64_t a, int64_t b)
{
	int64_t gap = (int64_t)r->cfg.incident_gap_ms;
	struct incident *hit = NULL;
	/* a final incident is only hit by something that starts before its end:
	 * past the latest end of those below open_from, they can be skipped (the
	 * scan of up to 512 incidents per slow request was 6.8% of an nginx replay
	 * with an incident every 14 s) */
	size_t from = r->final_end_max != EV_TIME_NONE && a >= r->final_end_max ? r->open_from : 0;
	for (size_t i = from; i < r->ninc; i++) {
		struct incident *in = &r->inc[i];
		if (a <= in->end_ms + gap && b >= in->start_ms - gap) {
			if (in->final && a >= in->end_ms)
				continue; /* judged already: something new starts after it */
			hit = in;
			break;
		}
	}
	if (hit) {
		if (a < hit->start_ms)
			hit->start_ms = a;
		if (b > hit->end_ms)
			hit->end_ms = b;
		if ((size_t)(hit - r->inc) < r->open_from && hit->end_ms > r->final_end_max)
			r->final_end_max = hit->end_ms; /* a late event grew a final one */
		return hit;
	}
	if (r->ninc == MAX_INCIDENTS) {
		/* drop the oldest final incidents (their verdicts stay), a batch at a
		 * time: one by one, each new incident moved the whole array (a fifth
		 * of a 256 MB JDK 8 replay with an incident every 6 s) */
		size_t w = 0, gone = 0, open_from = r->open_from;
		for (size_t i = 0; i < r->ninc; i++) {
			if (r->inc[i].final && gone < INCIDENT_DROP_BATCH) {
				gone++;
				if (i < open_from)
					r->open_from--;
				continue;
			}
			if (w != i)
				r->inc[w] = r->inc[i];
			w++;
		}
		if (gone == 0) { /* every one is open: the oldest goes */
			memmove(&r->inc[0], &r->inc[1], (r->ninc - 1) * sizeof r->inc[0]);
			w = r->ninc - 1;
			if (r->open_from > 0)
				r->open_from--;
		}
		r->ninc = w;
	}
	struct incident *in = &r->inc[r->ninc++];
	memset(in, 0, sizeof *in);
	in->id = r->next_id++;
	in->start_ms = a;
	in->end_ms = b;
	return in;
}

/* two open incidents that grew into each other become one */
static void merge_incidents(struct rules *r)
{
	int64_t gap = (int64_t)r->cfg.incident_gap_ms;
	bool removed = false;
	for (size_t i = r->open_from; i < r->ninc; i++) {
		if (r->inc[i].final)
			continue; /* most are: skip them here, not once per pair */
		for (size_t j = i + 1; j < r->ninc; j++) {
			struct incident *a = &r->inc[i], *b = &r->inc[j];
			if (b->final)
				continue;
			if (b->start_ms <= a->end_ms + gap && b->end_ms >= a->start_ms - gap) {
				if (b->start_ms < a->start_ms)
					a->start_ms = b->start_ms;
				if (b->end_ms > a->end_ms)
					a->end_ms = b->end_ms;
				a->has_stop |= b->has_stop;
				a->has_slow |= b->has_slow;
				if (b->slowest.uct_s > a->slowest.uct_s)
					a->slowest = b->slowest;
				if (a->t504.line == 0 || (b->t504.line && b->t504.line < a->t504.line))
					a->t504 = b->t504.line ? b->t504 : a->t504;
				a->upstream_many |= b->upstream_many ||
						    (a->slowest.upstream[0] && b->slowest.upstream[0] &&
						     strcmp(a->slowest.upstream, b->slowest.upstream) != 0);
				/* b's verdicts are superseded by a's next evaluation */
				for (size_t k = 0; k < r->nv;) {
					if (r->v[k].key == b->id && r->v[k].id >= V_LONG_GC_PAUSE &&
					    r->v[k].id <= V_CONNECT_504) {
						vdrop(r, &r->v[k]);
						memmove(&r->v[k], &r->v[k + 1], (r->nv - k - 1) * sizeof r->v[0]);
						r->nv--;
						removed = true;
					} else {
						k++;
					}
				}
				memmove(b, b + 1, (r->ninc - j - 1) * sizeof r->inc[0]);
				r->ninc--;
				j = i; /* restart the inner scan */
			}
		}
	}
	if (removed)
		vidx_rebuild(r);
}

/* --- whole-run state fed by events --- */

static bool is_shrink_trigger(const struct ev_pause *p)
{
	return p->type == PAUSE_FULL || p->type == PAUSE_REMARK;
}

static void periodic_skipped_verdict(struct rules *r, const struct rules_ctx *c);
static void g1_shrink_event(struct rules *r, const struct rules_ctx *c, const struct event *e);

static void on_pause(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	int64_t start = e->t_ms - (int64_t)p->dur_ms;
	if (r->first_pause_ms == EV_TIME_NONE)
		r->first_pause_ms = start;
	if (r->last_pause_ms != EV_TIME_NONE && start - r->last_pause_ms > r->longest_gap_ms)
		r->longest_gap_ms = start - r->last_pause_ms;
	if (r->last_pause_ms == EV_TIME_NONE || e->t_ms > r->last_pause_ms)
		r->last_pause_ms = e->t_ms;

	if (p->dur_ms >= r->cfg.stop_ms || p->dur_ms >= r->cfg.long_pause_warn_ms) {
		struct incident *in = incident_for(r, start, e->t_ms);
		in->has_stop = true;
	}
	if (p->flags & PAUSE_F_PERIODIC) {
		r->last_periodic_ms = e->t_ms;
		r->last_periodic_src = e->src;
		r->last_periodic_line = e->line;
		r->last_periodic_committed = p->committed_kb >= 0 ? p->committed_kb / 1024.0 : -1;
		if (r->skips_in_row > 0) {
			char t[16];
			char why[160];
			snprintf(why, sizeof why, "%s:%llu %s the periodic collection ran: %s (%s)",
				 sname(c, e->src), (unsigned long long)e->line, hms(r, e->t_ms, t), p->title,
				 p->cause);
			if (active(r, V_PERIODIC_SKIPPED, 0))
				periodic_skipped_verdict(r, c); /* the clear keeps its latest state */
			clear(r, V_PERIODIC_SKIPPED, 0, e->t_ms, why);
		}
		r->skips_in_row = 0;
	}
	if ((p->flags & PAUSE_F_HEAP) && p->committed_kb >= 0)
		g1_shrink_event(r, c, e);
}

static void on_skip(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_periodic_skip *k = &e->u.pskip;
	if (k->reason != PSKIP_LAST_GC && k->reason != PSKIP_LAST_WHOLE_GC && k->reason != PSKIP_LOAD)
		return; /* a concurrent cycle in progress is not a skip of concern */
	if (r->skips_in_row == 0) {
		r->skip_first_ms = e->t_ms;
		r->skip_first_src = e->src;
		r->skip_first_line = e->line;
		r->skip_gap_min = INT64_MAX;
		r->skip_gap_max = -1;
		r->skip_load = 0;
	}
	r->skips_in_row++;
	r->skip_last_ms = e->t_ms;
	r->skip_last_src = e->src;
	r->skip_last_line = e->line;
	if (k->reason == PSKIP_LOAD)
		r->skip_load++;
	if (k->last_gc_ms >= 0) {
		if (k->last_gc_ms < r->skip_gap_min)
			r->skip_gap_min = k->last_gc_ms;
		if (k->last_gc_ms > r->skip_gap_max)
			r->skip_gap_max = k->last_gc_ms;
	}
	if (k->threshold_ms >= 0)
		r->skip_threshold = k->threshold_ms;
	/* raised at once; its text depends only on the skip counters, and it is
	 * rebuilt before a periodic collection clears it and at the end, so its
	 * final text does not depend on how often anyone looked (live or report) */
	if ((double)r->skips_in_row >= floor(r->cfg.periodic_min_skips) && !active(r, V_PERIODIC_SKIPPED, 0))
		periodic_skipped_verdict(r, c);
}

static void periodic_skipped_verdict(struct rules *r, const struct rules_ctx *c)
{
	struct vdraft v;
	char t1[16], t2[16];
	/* info: skipping under load is what periodic GC is designed to do; it
	 * explains why memory is not returned, it is not an alarm */
	vinit(&v, V_PERIODIC_SKIPPED, 0, SEV_INFO);
	v.start_ms = r->skip_first_ms;
	v.end_ms = v.jump_ms = r->skip_last_ms;
	if (r->skip_load == r->skips_in_row)
		vtitle(&v, "G1 periodic GC skipped %d checks in a row: system load above "
		       "G1PeriodicGCSystemLoadThreshold", r->skips_in_row);
	else if (r->skip_gap_max >= 0)
		vtitle(&v, "G1 periodic GC skipped %d checks in a row: a GC had always run less than %lld ms "
		       "before (gaps %lld-%lld ms), so it never runs under load",
		       r->skips_in_row, (long long)r->skip_threshold, (long long)r->skip_gap_min,
		       (long long)r->skip_gap_max);
	else
		vtitle(&v, "G1 periodic GC skipped %d checks in a row", r->skips_in_row);
	vevid(&v, "%s:%llu %s first skipped check", sname(c, r->skip_first_src),
	      (unsigned long long)r->skip_first_line, hms(r, r->skip_first_ms, t1));
	vevid(&v, "%s:%llu %s last skipped check (%d in a row, no G1 Periodic Collection since)",
	      sname(c, r->skip_last_src), (unsigned long long)r->skip_last_line, hms(r, r->skip_last_ms, t2),
	      r->skips_in_row);
	if (r->plateau_committed > 0)
		vevid(&v, "committed heap stays at %.0f MB meanwhile", r->plateau_committed);
	if (r->skip_load > 0)
		vadvice(&v, "The check is skipped while the system load average is above "
			"G1PeriodicGCSystemLoadThreshold: raise it (or set it to 0 to ignore load), or "
			"accept that memory is returned only when the machine is quieter. ");
	if (r->skip_load < r->skips_in_row)
		vadvice(&v, "Periodic GC is a check every %lld ms that runs only if no GC happened "
			"for that long; continuous allocation keeps resetting it, so it will run only after the "
			"load stops (up to 2x the interval later). To give memory back sooner after load, keep "
			"the interval below half of the idle window; to give it back under steady load, "
			"-XX:+UseParallelGC shrinks at young GCs (longer pauses), or lower -Xmx.",
			(long long)r->skip_threshold);
	commit(r, &v);
}

static void trend_reset(struct trend *tr, int64_t t0)
{
	tr->t0 = t0;
	tr->w = 1;
	tr->n = 0;
}

static void trend_add(struct trend *tr, int64_t t, double used)
{
	if (t < tr->t0)
		t = tr->t0;
	int64_t k = (t - tr->t0) / tr->w;
	while (k >= TREND_BINS) { /* twice as wide: pairs merge */
		for (int i = 0; i < TREND_BINS / 2; i++) {
			float x = i * 2 < tr->n ? tr->min[i * 2] : -1, y = i * 2 + 1 < tr->n ? tr->min[i * 2 + 1] : -1;
			tr->min[i] = x < 0 ? y : y < 0 || x < y ? x : y;
		}
		tr->n = (tr->n + 1) / 2;
		tr->w *= 2;
		k = (t - tr->t0) / tr->w;
	}
	while (tr->n <= k)
		tr->min[tr->n++] = -1;
	if (tr->min[k] < 0 || used < tr->min[k])
		tr->min[k] = (float)used;
}

/* The lowest used-after-GC in the second and in the last quarter of [t0, b]
 * (the first quarter is warm-up; the lowest filters out the old garbage young
 * GCs leave behind): a leak shows as the floor rising. A bin counts in the
 * quarter its start is in. */
static bool used_after_trend(const struct trend *tr, int64_t b, double *q2, double *q4)
{
	int64_t span = b - tr->t0;
	*q2 = *q4 = -1;
	if (span <= 0)
		return false;
	for (int k = 0; k < tr->n; k++) {
		int64_t off = (int64_t)k * tr->w;
		double used = tr->min[k];
		if (off > span)
			break;
		if (used < 0)
			continue;
		if (off >= span / 4 && off < span / 2 && (*q2 < 0 || used < *q2))
			*q2 = used;
		if (off >= span * 3 / 4 && (*q4 < 0 || used < *q4))
			*q4 = used;
	}
	return *q2 >= 0 && *q4 >= 0;
}

static void g1_not_shrinking_verdict(struct rules *r, const struct rules_ctx *c, int64_t t);
static bool g1_condition(const struct rules *r, const struct rules_ctx *c, int64_t t);

static void g1_shrink_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_pause *p = &e->u.pause;
	double committed = p->committed_kb / 1024.0;
	double used = p->after_kb >= 0 ? p->after_kb / 1024.0 : 0;
	if (committed > r->committed_peak_mb)
		r->committed_peak_mb = committed;
	bool shrank = r->plateau_since_ms != EV_TIME_NONE &&
		      committed <= r->plateau_committed * (1.0 - r->cfg.shrink_drop);
	if (shrank) {
		char t[16], why[200];
		/* periodic-gc-shrank: the shrink follows a periodic collection */
		if (r->last_periodic_ms != EV_TIME_NONE && e->t_ms - r->last_periodic_ms <= (int64_t)r->cfg.periodic_link_ms) {
			struct verdict *old = find(r, V_PERIODIC_SHRANK, 0);
			struct vdraft v;
			char t1[16];
			vinit(&v, V_PERIODIC_SHRANK, 0, SEV_INFO);
			if (old)
				vdraft_of(&v, old);
			else
				r->shrank_from_mb = r->plateau_committed; /* the title keeps the first "before" */
			double before = r->shrank_from_mb;
			v.end_ms = e->t_ms;
			if (!old) {
				v.start_ms = r->last_periodic_ms;
				v.jump_ms = e->t_ms;
			}
			vtitle(&v, "G1 periodic GC gave memory back: committed heap %.0f MB -> %.0f MB",
			       before, committed);
			if (!old)
				vevid(&v, "%s:%llu %s periodic collection (committed %.0f MB)",
				      sname(c, r->last_periodic_src), (unsigned long long)r->last_periodic_line,
				      hms(r, r->last_periodic_ms, t1), r->last_periodic_committed);
			vevid(&v, "%s:%llu %s %s: %.0f MB -> %.0f MB committed, %.0f MB used after",
			      sname(c, e->src), (unsigned long long)e->line, hms(r, e->t_ms, t), p->title,
			      r->plateau_committed, committed, used);
			if (!old)
				vadvice(&v, "Working as intended: with G1PeriodicGCInterval the heap shrinks "
					"after the load stops (within 2x the interval).");
			commit(r, &v);
		}
		snprintf(why, sizeof why, "%s:%llu %s committed heap fell %.0f MB -> %.0f MB (%s)",
			 sname(c, e->src), (unsigned long long)e->line, hms(r, e->t_ms, t), r->plateau_committed,
			 committed, p->title);
		if (active(r, V_G1_NOT_SHRINKING, 0))
			g1_not_shrinking_verdict(r, c, r->plateau_last_ms); /* the clear keeps its latest state */
		clear(r, V_G1_NOT_SHRINKING, 0, e->t_ms, why);
	}
	if (r->plateau_since_ms == EV_TIME_NONE || shrank) {
		/* the trend of the plateau ending, if the verdict's snapshot is of it */
		struct g1snap *g = &r->g1snap;
		if (r->g1snap_ms != EV_TIME_NONE && !g->trend_kept && g->since_ms == r->plateau_since_ms) {
			g->trend_known = used_after_trend(&r->trend, g->last_ms, &g->q2, &g->q4);
			g->trend_kept = true;
		}
		trend_reset(&r->trend, e->t_ms);
		r->plateau_since_ms = e->t_ms;
		r->plateau_committed = committed;
		r->plateau_min_committed = committed;
		r->plateau_max_used = used;
		r->plateau_pauses = 0;
		r->plateau_first_src = e->src;
		r->plateau_first_line = e->line;
		r->plateau_first_used = used;
		r->saw_shrink_trigger = false;
	}
	if (committed > r->plateau_committed)
		r->plateau_committed = committed; /* expansion: still not given back */
	if (used > r->plateau_max_used)
		r->plateau_max_used = used;
	if (p->after_kb >= 0) /* in tenths of MB, as the timeline keeps it */
		trend_add(&r->trend, e->t_ms, (int32_t)(p->after_kb / 102.4 + 0.5) / 10.0);
	r->plateau_pauses++;
	r->plateau_last_ms = e->t_ms;
	r->plateau_last_src = e->src;
	r->plateau_last_line = e->line;
	r->plateau_last_used = used;
	if (is_shrink_trigger(p))
		r->saw_shrink_trigger = true;
	/* Judged at every pause, cheaply; the text is built from the state of the
	 * last pause that showed the condition (a snapshot), so it is the same
	 * however often evaluations look at it (live or report). */
	if (g1_condition(r, c, e->t_ms)) {
		r->g1snap_ms = e->t_ms;
		r->g1snap = (struct g1snap){
			.since_ms = r->plateau_since_ms, .last_ms = r->plateau_last_ms,
			.committed = r->plateau_committed, .min_committed = r->plateau_min_committed,
			.max_used = r->plateau_max_used, .first_used = r->plateau_first_used,
			.last_used = r->plateau_last_used, .pauses = r->plateau_pauses,
			.first_src = r->plateau_first_src, .last_src = r->plateau_last_src,
			.first_line = r->plateau_first_line, .last_line = r->plateau_last_line,
			.saw_trigger = r->saw_shrink_trigger, .longest_gap_ms = r->longest_gap_ms,
		};
		if (!active(r, V_G1_NOT_SHRINKING, 0))
			g1_not_shrinking_verdict(r, c, e->t_ms);
	} else if (active(r, V_G1_NOT_SHRINKING, 0) && r->plateau_since_ms == r->g1snap.since_ms &&
		   r->plateau_committed < r->cfg.shrink_ratio * r->plateau_max_used) {
		/* live data grew into the heap: the memory is used now, not idle */
		char t[16], why[220];
		g1_not_shrinking_verdict(r, c, r->g1snap_ms); /* its last state, then the clear */
		snprintf(why, sizeof why, "%s:%llu %s used after GC %.0f MB of %.0f MB committed: the heap is in "
			 "use now", sname(c, e->src), (unsigned long long)e->line, hms(r, e->t_ms, t),
			 r->plateau_max_used, r->plateau_committed);
		clear(r, V_G1_NOT_SHRINKING, 0, e->t_ms, why);
	}
}

static bool g1_condition(const struct rules *r, const struct rules_ctx *c, int64_t t)
{
	double committed = r->plateau_committed, live = r->plateau_max_used;
	return c->sum->collector == GC_G1 &&
	       (double)r->plateau_pauses >= floor(r->cfg.shrink_min_pauses) && /* (int) of 1e12 is undefined */
	       (double)(t - r->plateau_since_ms) >= r->cfg.shrink_min_span_ms &&
	       committed >= r->cfg.shrink_ratio * live && committed - live >= r->cfg.shrink_min_waste_mb;
}

/* built from r->g1snap, the state at the last pause that showed the condition */
static void g1_not_shrinking_verdict(struct rules *r, const struct rules_ctx *c, int64_t t)
{
	const struct summary *s = c->sum;
	const struct g1snap *g = &r->g1snap;
	(void)t;
	if (s->collector != GC_G1 || r->g1snap_ms == EV_TIME_NONE)
		return;
	double committed = g->committed, live = g->max_used;
	struct verdict *old = find(r, V_G1_NOT_SHRINKING, 0);
	if (old && old->cleared_ms != EV_TIME_NONE && old->cleared_ms >= g->since_ms)
		return; /* cleared by the shrink that started this plateau */
	struct vdraft v;
	char t1[16], t2[16];
	int sev = SEV_INFO;
	double floor_mb = s->heap_min_kb >= 0 ? s->heap_min_kb / 1024.0 : -1;
	bool xms_floor = floor_mb > 0 && floor_mb >= committed * 0.98;
	/* urgent only when the container is close to its memory limit: a heap
	 * that grew past -Xms at warm-up and kept it is what every G1 service
	 * does (recordings/healthy-control: 380 -> 793 MB committed, 105 MB live,
	 * steady load), not an incident */
	if (c->have_mem && c->tl->mem.total > 0) {
		const struct tl_mem *m = ring_at(&c->tl->mem, c->tl->mem.total - 1);
		if (m && m->limit_bytes > 0 && (double)m->usage_bytes >= r->cfg.mem_tight * (double)m->limit_bytes)
			sev = SEV_WARN;
	}
	vinit(&v, V_G1_NOT_SHRINKING, 0, sev);
	v.start_ms = g->since_ms;
	v.end_ms = v.jump_ms = g->last_ms;
	/* FIELD-NOTES 1: a leak shows as used-after-GC growing; then "not a leak"
	 * is not ours to say */
	double q2 = -1, q4 = -1;
	bool known;
	if (g->trend_kept) {
		known = g->trend_known;
		q2 = g->q2;
		q4 = g->q4;
	} else {
		known = used_after_trend(&r->trend, g->last_ms, &q2, &q4);
	}
	bool growing = known && q4 >= r->cfg.leak_growth_ratio * q2 && q4 - q2 >= r->cfg.leak_growth_min_mb;
	char grew[64] = "";
	if (committed > g->min_committed * 1.05)
		snprintf(grew, sizeof grew, "grew from %.0f MB to %.0f MB and ", g->min_committed,
			 committed);
	if (growing)
		vtitle(&v, "G1 is not giving memory back: committed heap %sstays at %.0f MB, and used after GC "
		       "keeps growing (%.0f MB -> %.0f MB at its lowest): check for a leak", grew, committed, q2, q4);
	else
		vtitle(&v, "G1 is not giving memory back - not a leak: committed heap %sstays at %.0f MB while "
		       "live data after GC is %.0f MB", grew, committed, g->last_used);
	vevid(&v, "%s:%llu %s %.0f MB committed, %.0f MB used after GC",
	      sname(c, g->first_src), (unsigned long long)g->first_line,
	      hms(r, g->since_ms, t1), g->min_committed, g->first_used);
	vevid(&v, "%s:%llu %s %.0f MB committed, %.0f MB used after GC (%d collections, max used after "
	      "GC %.0f MB)", sname(c, g->last_src), (unsigned long long)g->last_line,
	      hms(r, g->last_ms, t2), committed, g->last_used, g->pauses, live);
	if (!g->saw_trigger)
		vevid(&v, "no Pause Remark or Pause Full in that time: G1 shrinks only after those "
		      "(JDK 12-25; JDK 11: Full only)");
	if (s->periodic_interval_ms == 0)
		vevid(&v, "init: Periodic GC: Disabled");
	else if (s->periodic_interval_ms > 0)
		vevid(&v, "init: Periodic GC Interval: %lld ms", (long long)s->periodic_interval_ms);
	if (xms_floor)
		vevid(&v, "init: Heap Min Capacity %.0f MB = committed: -Xms is the floor", floor_mb);
	if (growing)
		vadvice(&v, "Used after GC keeps growing: compare it after a Full or mixed GC (young GCs "
			"leave old garbage behind); if it still grows under constant load, take a heap "
			"histogram (jcmd <pid> GC.class_histogram) twice and compare. ");
	if (g->longest_gap_ms > 0)
		vevid(&v, "longest time without any GC: %.1f s", g->longest_gap_ms / 1000.0);

	int rel = s->jdk_release;
	if (xms_floor) {
		/* nothing else helps while -Xms holds the heap: a periodic GC or
		 * Parallel shrink to -Xms at most, which is where it already is */
		vadvice(&v, "-Xms (%.0f MB) is the floor: G1 never shrinks below it, so -Xms == -Xmx means "
			"it never gives memory back, whatever triggers a shrink; lower -Xms first.", floor_mb);
	} else if (rel == 11 || rel == 8 || (rel > 0 && rel < 12)) {
		vadvice(&v, "On JDK %d G1 shrinks the heap only after a Pause Full and has no "
			"G1PeriodicGCInterval (the JVM refuses to start with it; it came with JDK 12, JEP 346): "
			"upgrade to JDK 12+ (17 is the nearest LTS), or use -XX:+UseParallelGC, which shrinks at "
			"young GCs even under steady load.", rel);
	} else if (rel >= 26) {
		vadvice(&v, "JDK %d shrinks after young GCs too; if it still does not, check -Xms.", rel);
	} else if (s->periodic_interval_ms > 0) {
		vadvice(&v, "Periodic GC is on (%lld ms) but only runs after that long without any GC: see "
			"periodic-gc-skipped. Under continuous load -XX:+UseParallelGC shrinks at young GCs "
			"(longer pauses).", (long long)s->periodic_interval_ms);
	} else {
		/* a gap between GCs under load is not an idle window: only a gap of
		 * idle_min_ms or more is taken for one; the interval must be below half
		 * of it, so that a periodic collection runs in such a window */
		long long ms = 30000;
		bool idle = g->longest_gap_ms >= (int64_t)r->cfg.idle_min_ms && g->longest_gap_ms >= 2000;
		if (idle) {
			ms = (long long)(g->longest_gap_ms / 2 / 1000) * 1000;
			if (ms * 2 >= g->longest_gap_ms)
				ms -= 1000;
			if (ms < 1000)
				ms = 1000;
		}
		/* without idle time in the log 30 s is a guess: say so rather than call
		 * it "below half of the idle window" */
		vadvice(&v, "Set -XX:G1PeriodicGCInterval=%lld (ms; %s; manageable on a running JVM: jcmd "
			"<pid> VM.set_flag G1PeriodicGCInterval %lld), or -XX:+UseParallelGC, which shrinks at "
			"young GCs even under steady load (longer pauses).", ms,
			idle ? "below half of the longest time without GC in this log" :
			       "this log shows no idle period, so keep it below half of the quiet time "
			       "expected after a peak",
			ms);
	}
	commit(r, &v);
}

static void on_stall(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_alloc_stall *s = &e->u.stall;
	if (r->stalls == 0) {
		r->stall_first_ms = e->t_ms;
		r->stall_first_src = e->src;
		r->stall_first_line = e->line;
	}
	r->stalls++;
	r->stall_sum_ms += s->dur_ms;
	r->stall_last_ms = e->t_ms;
	if (s->dur_ms > r->stall_max_ms) {
		r->stall_max_ms = s->dur_ms;
		r->stall_max_at = e->t_ms;
		r->stall_max_src = e->src;
		r->stall_max_line = e->line;
		memcpy(r->stall_max_thread, s->thread, sizeof r->stall_max_thread);
	}
	if (s->thread[0] && !strstr(r->stall_threads, s->thread) &&
	    strlen(r->stall_threads) + strlen(s->thread) + 3 < sizeof r->stall_threads) {
		if (r->stall_threads[0])
			strcat(r->stall_threads, ", ");
		strcat(r->stall_threads, s->thread);
	}
	/* one verdict, refreshed at most every 64 stalls after the first few, so a
	 * storm of stalls does not become a storm of updates */
	if (r->stalls > 8 && (r->stalls & 63) != 0)
		return;
	(void)c;
}

static void zgc_stall_verdict(struct rules *r, const struct rules_ctx *c)
{
	if (r->stalls == 0)
		return;
	const struct summary *s = c->sum;
	struct vdraft v;
	char t1[16], t2[16];
	vinit(&v, V_ZGC_STALL, 0, r->stall_max_ms >= r->cfg.stall_crit_ms ? SEV_CRIT : SEV_WARN);
	v.start_ms = r->stall_first_ms;
	v.end_ms = r->stall_last_ms;
	v.jump_ms = r->stall_max_at;
	vtitle(&v, "ZGC stalled allocating threads %llu times (max %.1f ms, %.0f ms in all): the heap "
	       "could not grow or be freed fast enough", (unsigned long long)r->stalls, r->stall_max_ms,
	       r->stall_sum_ms);
	vevid(&v, "%s:%llu %s first Allocation Stall", sname(c, r->stall_first_src),
	      (unsigned long long)r->stall_first_line, hms(r, r->stall_first_ms, t1));
	vevid(&v, "%s:%llu %s longest: Allocation Stall (%s) %.3f ms", sname(c, r->stall_max_src),
	      (unsigned long long)r->stall_max_line, hms(r, r->stall_max_at, t2), r->stall_max_thread,
	      r->stall_max_ms);
	if (r->stall_threads[0])
		vevid(&v, "threads that stalled: %s", r->stall_threads);
	if (r->cycles > 0)
		vevid(&v, "%llu of %llu ZGC cycles were started by Allocation Stall",
		      (unsigned long long)r->stall_cycles, (unsigned long long)r->cycles);
	if (s->heap_max_kb > 0)
		vevid(&v, "init: heap min %.0f MB, initial %.0f MB, max %.0f MB", s->heap_min_kb / 1024.0,
		      s->heap_initial_kb / 1024.0, s->heap_max_kb / 1024.0);
	vadvice(&v, "ZGC needs headroom: stalls mean allocation outran the concurrent collector. If they "
		"come in the first seconds, the heap is still growing: a larger pre-touched initial heap "
		"(-Xms close to -Xmx with -XX:+AlwaysPreTouch) starts slower (2G ~0.6 s, 20G ~5.7 s of "
		"pre-touch) but is warm at once; a small -Xms starts fast and warms up for tens of "
		"seconds. Otherwise raise -Xmx or reduce the allocation rate; newer JDKs grow the heap "
		"sooner (-XX:+ZAdaptiveHeapSizing, JEP 545).");
	commit(r, &v);
}

static void on_hserr(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	const struct ev_hserr *h = &e->u.hserr;
	if (strcmp(h->signal, "SIGILL") != 0 || !strstr(h->frame, "AdapterBlob"))
		return;
	struct vdraft v;
	char t[16];
	r->hserr_seen = true;
	vinit(&v, V_AOT_SIGILL, e->line, SEV_CRIT);
	v.start_ms = v.end_ms = v.jump_ms = e->t_ms;
	vtitle(&v, "The JVM crashed with SIGILL in %s: an AOT cache built on a CPU with more features",
	       h->frame);
	vevid(&v, "%s %s %s, problematic frame: %s", h->path[0] ? h->path : sname(c, e->src),
	      hms(r, e->t_ms, t), h->signal, h->frame);
	if (h->aot)
		vevid(&v, "the report mentions the AOT/code cache");
	vadvice(&v, "JDK 24/25 AOT caches (-XX:AOTCache) store adapters compiled for the CPU they were "
		"trained on (AVX-512, SVE); JDK 25 does not check CPU features. Recreate the cache with "
		"-XX:+UnlockDiagnosticVMOptions -XX:-AOTAdapterCaching (default from 25.0.5), train it on "
		"the production CPU type, or run without -XX:AOTCache until then.");
	commit(r, &v);
}

static void serial_verdict(struct rules *r, const struct rules_ctx *c, bool with_long_pause,
			   const char *pause_note)
{
	const struct summary *s = c->sum;
	if (s->collector != GC_SERIAL)
		return;
	struct vdraft v;
	vinit(&v, V_SERIAL_GC, 0, with_long_pause ? SEV_WARN : SEV_INFO);
	v.start_ms = v.jump_ms = r->first_pause_ms;
	v.end_ms = r->last_pause_ms;
	vtitle(&v, "The JVM runs the Serial collector: every collection stops all threads and works on "
	       "one%s", with_long_pause ? ", and one of them was long" : "");
	vevid(&v, "gc: Using Serial");
	/* JDK 8-26 ergonomics pick Serial when the JVM sees 1 CPU or less than
	 * 1792 MB ("server class machine"). gc,init prints both (CPUs:, Memory:);
	 * a JDK 8 log has neither, and a small heap may just be -Xmx. */
	bool one_cpu = s->cpus_available == 1;
	bool small_mem = s->memory_kb > 0 && s->memory_kb < 1792LL * 1024;
	bool small_heap = s->heap_max_kb > 0 && s->heap_max_kb < 1792LL * 1024 / 4;
	if (s->cpus_total >= 0)
		vevid(&v, "init: CPUs: %d total, %d available", s->cpus_total, s->cpus_available);
	if (s->memory_kb > 0)
		vevid(&v, "init: Memory: %.0f MB (what the JVM sees: its container limit, or the machine)",
		      s->memory_kb / 1024.0);
	if (pause_note && pause_note[0])
		vevid(&v, "%s", pause_note);
	if (c->explicit_serial)
		vadvice(&v, "-XX:+UseSerialGC is set explicitly. ");
	else if (one_cpu)
		vadvice(&v, "The JVM sees 1 CPU (CPUs: %d total, 1 available: a CPU quota, cpuset or "
			"affinity), and with 1 CPU JDK ergonomics picks Serial unless a collector is set "
			"(JDK 8-26; JDK 27 picks G1 there). ", s->cpus_total);
	else if (small_mem)
		vadvice(&v, "The JVM sees %.0f MB of memory (a container memory limit under 1792 MB), and "
			"then JDK ergonomics picks Serial unless a collector is set (JDK 8-26). ",
			s->memory_kb / 1024.0);
	else if (s->memory_kb > 0 && s->cpus_available >= 2)
		vadvice(&v, "The JVM sees %d CPUs and %.0f MB, where ergonomics would pick G1: Serial was "
			"chosen explicitly (-XX:+UseSerialGC). ", s->cpus_available, s->memory_kb / 1024.0);
	else if (small_heap && s->cpus_available >= 2)
		vadvice(&v, "With %d CPUs available, Serial comes either from -XX:+UseSerialGC or from "
			"ergonomics seeing less than 1792 MB of memory (a container memory limit; the "
			"%.0f MB max heap fits both). ", s->cpus_available, s->heap_max_kb / 1024.0);
	else if (s->cpus_available >= 2)
		vadvice(&v, "With %d CPUs available ergonomics would pick G1, so Serial was chosen "
			"explicitly (-XX:+UseSerialGC). ", s->cpus_available);
	vadvice(&v, "Use -XX:+UseG1GC (or -XX:+UseParallelGC for throughput) and give the container at "
		"least 2 CPUs and 1792 MB so every collection is parallel.");
	commit(r, &v);
}

void rules_on_event(struct rules *r, const struct rules_ctx *c, const struct event *e)
{
	r->uptime_axis = c->uptime_axis;
	if (e->t_ms == EV_TIME_NONE)
		return;
	switch (e->kind) {
	case EV_GC_PAUSE:
		on_pause(r, c, e);
		break;
	case EV_SAFEPOINT:
		if (e->u.sp.total_ms >= r->cfg.stop_ms) {
			struct incident *in = incident_for(r, ev_start_ms(e), e->t_ms);
			in->has_stop = true;
		}
		break;
	case EV_PERIODIC_SKIP:
		on_skip(r, c, e);
		break;
	case EV_ALLOC_STALL:
		on_stall(r, c, e);
		break;
	case EV_GC_CYCLE:
		r->cycles++;
		if (strcmp(e->u.cycle.cause, "Allocation Stall") == 0)
			r->stall_cycles++;
		break;
	case EV_HSERR:
		on_hserr(r, c, e);
		break;
	case EV_HTTP: {
		const struct ev_http *h = &e->u.http;
		/* a slow connect is one in the 1 s bucket or above: the bucket is the
		 * connect time to the nearest second (DESIGN.md), a definition, not a
		 * threshold */
		bool slow = h->uct_ms >= 500;
		bool timeout504 = h->status == 504 && h->uct_ms < 0;
		if (slow || timeout504) {
			int64_t start = ev_start_ms(e);
			struct incident *in = incident_for(r, start, start);
			struct inc_req *q = slow ? &in->slowest : &in->t504;
			in->has_slow = true;
			if (h->upstream[0] && in->slowest.upstream[0] && strcmp(h->upstream, in->slowest.upstream) != 0)
				in->upstream_many = true;
			if (slow ? h->uct_ms / 1000.0 > q->uct_s : q->line == 0) {
				q->uct_s = (float)(h->uct_ms / 1000.0);
				q->rt_s = (float)(h->rt_ms / 1000.0);
				q->src = e->src;
				q->line = e->line;
				memcpy(q->request, h->request, sizeof q->request);
				memcpy(q->upstream, h->upstream, sizeof q->upstream);
			}
		}
		break;
	}
	default:
		break;
	}
}

/* --- incident judgement --- */

/* GC causes (HotSpot gcCause.cpp) that mean someone asked for the collection */
static bool explicit_gc_cause(const char *cause)
{
	static const char *const asked[] = {
		"System.gc()", "Diagnostic Command", "Heap Inspection Initiated GC",
		"Heap Dump Initiated GC", "JvmtiEnv ForceGarbageCollection", "WhiteBox",
	};
	for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++)
		if (strstr(cause, asked[i]))
			return true;
	return false;
}

/* name[0..nlen) is one entry of the ", "-separated thread list */
static bool list_has(const char *list, const char *name, size_t nlen)
{
	for (const char *p = list; (p = strstr(p, name)) != NULL; p++) {
		bool starts = p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ');
		bool ends = p[nlen] == '\0' || p[nlen] == ',';
		if (starts && ends && strncmp(p, name, nlen) == 0)
			return true;
	}
	return false;
}

/* keep in set (a ", "-separated thread list) only the names also in threads */
static void keep_common(char *set, size_t setlen, const char *threads)
{
	char out[112] = "";
	const char *p = set;
	while (*p) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n > 0 && list_has(threads, p, n) && strlen(out) + n + 3 < sizeof out) {
			if (out[0])
				strcat(out, ", ");
			strncat(out, p, n);
		}
		p += n;
		if (*p)
			p += 2;
	}
	util_strlcpy_n(set, setlen, out, strlen(out));
}

struct stop_pick {
	const struct tl_stop *worst;      /* longest total */
	const struct tl_stop *worst_ttsp; /* longest ttsp that dominates its stop */
	int n;                            /* stops >= stop_ms */
	int64_t start_ms, end_ms;         /* their extent */
};

/* Where to start scanning the stops for ones that overlap [start, ...).
 * Stops are pushed in the order they end, so their starts are sorted only to
 * within the longest stop (span): a stop overlapping start begins at or after
 * start - span, and the binary search lands before every such stop when it
 * looks from start - 2 x span. Scanning from 60 s back (the longest stop the
 * rules look for) visited a minute of stops per judgement to use a few. */
static uint64_t stops_from(const struct timeline *tl, int64_t start)
{
	int64_t span = tl->stop_span_max_ms;
	int64_t back = span < 30000 ? 2 * span + 1 : 60000;
	return timeline_lower_bound(&tl->stops, start - back);
}

static void pick_stops(const struct rules *r, const struct timeline *tl, const struct incident *in,
		       struct stop_pick *out)
{
	memset(out, 0, sizeof *out);
	out->start_ms = out->end_ms = EV_TIME_NONE;
	const struct ring *sr = &tl->stops;
	for (uint64_t i = stops_from(tl, in->start_ms); i < sr->total; i++) {
		const struct tl_stop *s = ring_at(sr, i);
		if (s->start_ms > in->end_ms)
			break;
		if (s->end_ms < in->start_ms || s->total_ms < r->cfg.stop_ms)
			continue;
		out->n++;
		if (out->start_ms == EV_TIME_NONE || s->start_ms < out->start_ms)
			out->start_ms = s->start_ms;
		if (out->end_ms == EV_TIME_NONE || s->end_ms > out->end_ms)
			out->end_ms = s->end_ms;
		if (!out->worst || s->total_ms > out->worst->total_ms)
			out->worst = s;
		if (s->ttsp_ms >= r->cfg.ttsp_warn_ms && s->ttsp_ms >= r->cfg.ttsp_share * s->total_ms &&
		    (!out->worst_ttsp || s->ttsp_ms > out->worst_ttsp->ttsp_ms))
			out->worst_ttsp = s;
	}
}

static const struct tl_pause *worst_pause(const struct timeline *tl, const struct incident *in, int *n,
					  double min_ms)
{
	const struct tl_pause *w = NULL;
	const struct ring *pr = &tl->pauses;
	*n = 0;
	for (uint64_t i = timeline_lower_bound(pr, in->start_ms); i < pr->total; i++) {
		const struct tl_pause *p = ring_at(pr, i);
		if (p->t_ms - (int64_t)p->dur_ms > in->end_ms)
			break;
		if (p->dur_ms < min_ms)
			continue;
		(*n)++;
		if (!w || p->dur_ms > w->dur_ms)
			w = p;
	}
	return w;
}

/* Extend [a, b] over the cgroup throttling it overlaps: walk the cpu samples
 * outwards while each interval keeps growing throttled_time. */
static void throttle_extent(const struct rules *r, const struct timeline *tl, int64_t a, int64_t b,
			    int64_t *xa, int64_t *xb)
{
	const struct ring *cr = &tl->cpu;
	*xa = a;
	*xb = b;
	if (cr->total < 2)
		return;
	uint64_t first = ring_first(cr);
	uint64_t i = timeline_lower_bound(cr, a);
	if (i > first)
		i--;
	/* backwards from the sample at/before a */
	for (uint64_t k = i; k > first; k--) {
		const struct tl_cpu *c1 = ring_at(cr, k - 1), *c2 = ring_at(cr, k);
		if (c2->throttled_us - c1->throttled_us < (int64_t)(r->cfg.throttle_min_ms * 1000 / 4))
			break;
		if (a - c1->t_ms > 60000)
			break;
		*xa = c1->t_ms;
	}
	uint64_t j = timeline_lower_bound(cr, b);
	if (j >= cr->total)
		j = cr->total - 1;
	for (uint64_t k = j; k + 1 < cr->total; k++) {
		const struct tl_cpu *c1 = ring_at(cr, k), *c2 = ring_at(cr, k + 1);
		if (c2->throttled_us - c1->throttled_us < (int64_t)(r->cfg.throttle_min_ms * 1000 / 4))
			break;
		if (c2->t_ms - b > 60000)
			break;
		*xb = c2->t_ms;
	}
	/* only keep the extension if throttling touches the window itself */
	struct tl_cpu_delta d;
	if (!timeline_cpu_delta(tl, a, b, &d) || d.throttled_us < (int64_t)(r->cfg.throttle_min_ms * 1000)) {
		*xa = a;
		*xb = b;
	}
}

static void missing_sources_advice(struct vdraft *v, const struct rules_ctx *c, bool want_nginx)
{
	if (c->jvm_unanchored)
		vadvice(v, " The GC log has only JVM uptime, so its stops cannot be lined up with the other "
			"sources: add a time decoration (-Xlog:...:time,uptime,level,tags), or pass --pid or "
			"--jvm-start.");
	if (!c->have_cpu)
		vadvice(v, " Add --cpustat-log FILE, --cgroup DIR or --pid PID to check whether the cgroup "
			"was CPU-throttled during this stop.");
	if (want_nginx && !c->have_nginx)
		vadvice(v, " Add --nginx FILE to see what the stop cost the callers.");
}

/* "access.log:1314 \"GET /req/1313 HTTP/1.1\" waited longest to connect: 2.001 s, to 127.0.0.1:28481" */
static void evid_request(struct vdraft *v, const struct rules_ctx *c, const struct inc_req *q, const char *what,
			 bool many)
{
	char req[80] = "", conn[40] = "", ups[96] = "";
	if (q->request[0])
		snprintf(req, sizeof req, " \"%s\"", q->request);
	if (q->uct_s >= 0)
		snprintf(conn, sizeof conn, ": %.3f s", q->uct_s);
	else if (q->rt_s >= 0)
		snprintf(conn, sizeof conn, " after %.3f s", q->rt_s);
	if (q->upstream[0])
		snprintf(ups, sizeof ups, ", to %s%s", q->upstream, many ? " (of several servers)" : "");
	vevid(v, "%s:%llu%s %s%s%s", sname(c, q->src), (unsigned long long)q->line, req, what, conn, ups);
}

static void judge(struct rules *r, const struct rules_ctx *c, struct incident *in)
{
	const struct timeline *tl = c->tl;
	char t1[16], t2[16], t3[16], d1[32], d2[32];
	struct stop_pick sp;
	pick_stops(r, tl, in, &sp);
	bool stops_from_pauses = tl->stops.total == 0;
	int npause_long = 0, npause_stop = 0;
	const struct tl_pause *wp = worst_pause(tl, in, &npause_long, r->cfg.long_pause_warn_ms);
	const struct tl_pause *wstop = worst_pause(tl, in, &npause_stop, r->cfg.stop_ms);

	/* the JVM stop window of this incident */
	int64_t ws = EV_TIME_NONE, we = EV_TIME_NONE;
	double worst_total = 0;
	if (sp.n > 0) {
		ws = sp.start_ms;
		we = sp.end_ms;
		worst_total = sp.worst->total_ms;
	} else if (stops_from_pauses && wstop) {
		ws = in->start_ms;
		we = in->end_ms;
		const struct ring *pr = &tl->pauses;
		ws = EV_TIME_NONE;
		for (uint64_t i = timeline_lower_bound(pr, in->start_ms); i < pr->total; i++) {
			const struct tl_pause *p = ring_at(pr, i);
			int64_t ps = p->t_ms - (int64_t)p->dur_ms;
			if (ps > in->end_ms)
				break;
			if (p->dur_ms < r->cfg.stop_ms)
				continue;
			if (ws == EV_TIME_NONE || ps < ws)
				ws = ps;
			if (we == EV_TIME_NONE || p->t_ms > we)
				we = p->t_ms;
		}
		worst_total = wstop->dur_ms;
	}
	int64_t xs = ws, xe = we;
	bool throttled = false;
	struct tl_cpu_delta cd;
	bool have_cd = false;
	if (ws != EV_TIME_NONE && c->have_cpu) {
		throttle_extent(r, tl, ws, we, &xs, &xe);
		have_cd = timeline_cpu_delta(tl, xs, xe, &cd);
		throttled = have_cd && cd.throttled_us >= (int64_t)(r->cfg.throttle_min_ms * 1000) &&
			    (double)cd.throttled_us / 1000.0 >=
				    r->cfg.throttle_share * (double)(cd.to_ms - cd.from_ms);
	}

	/* ---- long-gc-pause ---- */
	if (wp) {
		struct vdraft v;
		int64_t pstart = wp->t_ms - (int64_t)wp->dur_ms;
		vinit(&v, V_LONG_GC_PAUSE, in->id,
		      wp->dur_ms >= r->cfg.long_pause_crit_ms ? SEV_CRIT : SEV_WARN);
		v.start_ms = pstart;
		v.end_ms = wp->t_ms;
		v.jump_ms = pstart;
		fmt_ms(wp->dur_ms, d1, sizeof d1);
		vtitle(&v, "The JVM stopped %s for GC work: %s%s%s%s at %s", d1, wp->title,
		       wp->cause[0] ? " (" : "", wp->cause, wp->cause[0] ? ")" : "", hms(r, pstart, t1));
		vevid(&v, "%s:%llu %s %s%s%s%s %.0fM->%.0fM(%.0fM) %.3f ms", sname(c, wp->src),
		      (unsigned long long)wp->line, hms(r, wp->t_ms, t2), wp->title, wp->cause[0] ? " (" : "",
		      wp->cause, wp->cause[0] ? ")" : "", mb10(wp->before_mb10), mb10(wp->after_mb10),
		      mb10(wp->committed_mb10), wp->dur_ms);
		if (sp.worst && sp.worst->start_ms <= wp->t_ms && sp.worst->end_ms >= pstart) {
			fmt_ms(sp.worst->total_ms, d2, sizeof d2);
			vevid(&v, "%s:%llu %s safepoint \"%s\": total %s, reaching it %.1f ms, at it %.1f ms: "
			      "the time went into the GC, not into reaching the safepoint",
			      sname(c, sp.worst->src), (unsigned long long)sp.worst->line,
			      hms(r, sp.worst->end_ms, t3), sp.worst->op, d2, sp.worst->ttsp_ms, sp.worst->op_ms);
		}
		if (npause_long > 1)
			vevid(&v, "%d pauses >= %.0f ms in this incident", npause_long, r->cfg.long_pause_warn_ms);
		if (c->have_cpu && have_cd)
			vevid(&v, "cgroup: throttled_time %+.0f ms in %s-%s (%s)", cd.throttled_us / 1000.0,
			      hms(r, cd.from_ms, t1), hms(r, cd.to_ms, t2),
			      throttled ? "throttled too: see cpu-throttled-during-stop" : "no CPU throttling");
		if (wp->type == PAUSE_FULL && explicit_gc_cause(wp->cause)) {
			/* asked for, not forced by a full heap: the fix is the caller */
			double live = mb10(wp->after_mb10), cap = mb10(wp->committed_mb10);
			vadvice(&v, "An explicit full collection (%s), not a full heap (%.0f MB before, %.0f MB live "
				"after, %.0f MB heap): System.gc() from the application or a library, RMI's "
				"distributed GC (sun.rmi.dgc.client.gcInterval), or a tool (jcmd GC.run, "
				"jmap -histo:live, a heap dump). Find the caller and stop it, or make it cheap: "
				"-XX:+ExplicitGCInvokesConcurrent (G1 runs a concurrent cycle instead) or "
				"-XX:+DisableExplicitGC. ", wp->cause, mb10(wp->before_mb10), live, cap);
			if (cap > 0 && live > 0.5 * cap)
				vadvice(&v, "It took this long because %.0f MB are live (%.0f%% of the heap) and a "
					"full collection visits all of it. ", live, 100.0 * live / cap);
		} else if (wp->type == PAUSE_FULL) {
			double live = mb10(wp->after_mb10), cap = mb10(wp->committed_mb10);
			vadvice(&v, "A full collection: the old generation was full (%.0f MB before, %.0f MB live "
				"after, %.0f MB heap). ", mb10(wp->before_mb10), live, cap);
			if (cap > 0 && live > 0.5 * cap)
				vadvice(&v, "Live data is %.0f%% of the heap: raise -Xmx (keep live data under "
					"half) or shrink what the application keeps (caches). ", 100.0 * live / cap);
			if (c->sum->collector == GC_SERIAL)
				vadvice(&v, "Serial compacts with one thread: -XX:+UseG1GC or -XX:+UseParallelGC "
					"spread the work over all CPUs. ");
			else if (c->sum->collector == GC_G1)
				vadvice(&v, "G1 falls back to a full GC when concurrent marking cannot keep up or a "
					"humongous allocation finds no room: lower "
					"-XX:InitiatingHeapOccupancyPercent, raise -Xmx, or avoid very large arrays. ");
			vadvice(&v, "One huge allocation (a large byte[] on reload) can trigger it on its own.");
		} else {
			/* only G1 (and ZGC/Shenandoah) have a pause goal to lower */
			const char *knob = c->sum->collector == GC_G1 ? "lower -XX:MaxGCPauseMillis or cap "
									 "-XX:G1MaxNewSizePercent" :
					   c->sum->collector == GC_SERIAL ? "-Xmn smaller, or a parallel collector "
									    "(-XX:+UseParallelGC / -XX:+UseG1GC)" :
									  "-Xmn smaller";
			vadvice(&v, "A %s pause this long means a lot of live data was copied: a young "
				"generation too large for one collection (%s), or a starved collector (see "
				"the CPU evidence). ", wp->title, knob);
		}
		missing_sources_advice(&v, c, true);
		commit(r, &v);
	}

	/* ---- ttsp-spike ---- */
	if (sp.worst_ttsp) {
		const struct tl_stop *s = sp.worst_ttsp;
		struct vdraft v;
		vinit(&v, V_TTSP_SPIKE, in->id, s->ttsp_ms >= r->cfg.ttsp_crit_ms ? SEV_CRIT : SEV_WARN);
		v.start_ms = s->start_ms;
		v.end_ms = s->end_ms;
		v.jump_ms = s->start_ms;
		fmt_ms(s->ttsp_ms, d1, sizeof d1);
		fmt_ms(s->total_ms, d2, sizeof d2);
		vtitle(&v, "The %s stop at %s was spent reaching the safepoint (%s), not in the operation "
		       "\"%s\"%s", d2, hms(r, s->start_ms, t1), d1, s->op,
		       throttled ? ", while the cgroup was CPU-throttled" : "");
		vevid(&v, "%s:%llu %s safepoint \"%s\": reaching %.1f ms, at safepoint %.1f ms, total %.1f ms",
		      sname(c, s->src), (unsigned long long)s->line, hms(r, s->end_ms, t2), s->op, s->ttsp_ms,
		      s->op_ms, s->total_ms);
		if (s->spin_ms >= 0)
			vevid(&v, "spin %.0f ms (threads running Java code), block %.0f ms (threads in VM code)",
			      s->spin_ms, s->block_ms);
		int nttsp = 0;
		const struct ring *sr = &tl->stops;
		for (uint64_t i = stops_from(tl, in->start_ms); i < sr->total; i++) {
			const struct tl_stop *x = ring_at(sr, i);
			if (x->start_ms > in->end_ms)
				break;
			if (x->end_ms >= in->start_ms && x->ttsp_ms >= r->cfg.ttsp_warn_ms)
				nttsp++;
		}
		if (nttsp > 1)
			vevid(&v, "%d safepoints in this incident took >= %.0f ms to reach", nttsp,
			      r->cfg.ttsp_warn_ms);
		/* SafepointTimeout reports during the incident, the same report from two
		 * sources (gc.log and the console) shown once */
		const struct ring *tr = &tl->timeouts;
		int shown = 0;
		int64_t last_t = EV_TIME_NONE;
		char last_threads[112] = "";
		char names[200] = "";
		char always[112] = "";   /* threads named by every report */
		/* how many reports name each set of late threads: the one named most */
		char tally_t[8][112];
		int tally_n[8], ntally = 0;
		for (uint64_t i = timeline_lower_bound(tr, in->start_ms - 1000); i < tr->total; i++) {
			const struct tl_timeout *to = ring_at(tr, i);
			if (to->t_ms > in->end_ms + 1000)
				break;
			if (last_t != EV_TIME_NONE && llabs(to->t_ms - last_t) < 100 &&
			    strcmp(last_threads, to->threads) == 0)
				continue;
			last_t = to->t_ms;
			memcpy(last_threads, to->threads, sizeof last_threads);
			if (shown < 3)
				vevid(&v, "%s:%llu %s SafepointTimeout: threads that did not reach the safepoint: %s",
				      sname(c, to->src), (unsigned long long)to->line, hms(r, to->t_ms, t3), to->threads);
			if (!strstr(names, to->threads) && strlen(names) + strlen(to->threads) + 3 < sizeof names) {
				if (names[0])
					strcat(names, "; ");
				strcat(names, to->threads);
			}
			if (shown == 0)
				util_strlcpy_n(always, sizeof always, to->threads, strnlen(to->threads, sizeof to->threads));
			else
				keep_common(always, sizeof always, to->threads);
			int k;
			for (k = 0; k < ntally && strcmp(tally_t[k], to->threads) != 0; k++)
				;
			if (k == ntally && ntally < 8) {
				memcpy(tally_t[ntally], to->threads, sizeof tally_t[0]);
				tally_n[ntally++] = 0;
			}
			if (k < ntally)
				tally_n[k]++;
			shown++;
		}
		int most = -1;
		for (int k = 0; k < ntally; k++)
			if (most < 0 || tally_n[k] > tally_n[most])
				most = k;
		if (shown > 3)
			vevid(&v, "%d SafepointTimeout reports in all", shown);
		if (throttled)
			vevid(&v, "cgroup: throttled_time %+.0f ms in %s-%s (%lld of %lld periods throttled)",
			      cd.throttled_us / 1000.0, hms(r, cd.from_ms, t1), hms(r, cd.to_ms, t2),
			      (long long)cd.throttled, (long long)cd.periods);
		else if (have_cd)
			vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms: the CPU was there, the threads "
			      "did not come", hms(r, cd.from_ms, t1), hms(r, cd.to_ms, t2), cd.throttled_us / 1000.0);
		/* Under throttling any runnable thread can be the late one, so one report
		 * proves little; the same thread late in every one of several reports is
		 * its own code (throttle/throttled-arraycopy: "copier" in 5 of 5). */
		if (throttled && shown >= 2 && always[0])
			vadvice(&v, "The cgroup's CPU quota was exhausted (see cpu-throttled-during-stop), which "
				"delays every thread, but each of the %d timeout reports names %s as late: a thread "
				"that is late every time runs code without a safepoint poll (a long counted loop, a "
				"large System.arraycopy, an intrinsic over a big buffer). Fix the throttling and "
				"split that thread's work into chunks. ", shown, always);
		else if (throttled)
			vadvice(&v, "The cgroup's CPU quota was exhausted (see cpu-throttled-during-stop): a thread "
				"that gets no CPU is late wherever it is, so the thread names%s may be coincidental. "
				"Fix the throttling first; if the same threads are still late afterwards, look at "
				"their code. ", names[0] ? " in the timeout report" : "");
		else if (most >= 0 && shown >= 2 && tally_n[most] * 2 > shown)
			vadvice(&v, "%d of the %d timeout reports name %s as late: it runs code without a "
				"safepoint poll (a long counted loop, a large System.arraycopy, an intrinsic over a "
				"big buffer such as hashing or copying). Split that work into chunks. ",
				tally_n[most], shown, tally_t[most]);
		else if (names[0])
			vadvice(&v, "The threads that did not arrive (%s) were running code without a safepoint "
				"poll: a long counted loop, a large System.arraycopy, or an intrinsic over a big "
				"buffer (hashing, copying). Split the work into chunks. ", names);
		vadvice(&v, "To find the code: async-profiler's TTSP mode samples exactly the time between the "
			"safepoint request and all threads arriving (-e wall -t --ttsp, or --begin "
			"SafepointSynchronize::print_safepoint_timeout --end "
			"RuntimeService::record_safepoint_synchronized for the timed-out ones); JFR records "
			"safepoints too.");
		if (shown == 0)
			vadvice(&v, " -XX:+SafepointTimeout -XX:SafepointTimeoutDelay=%.0f names the late threads "
				"in the log.", r->cfg.ttsp_warn_ms * 5);
		if (!throttled)
			missing_sources_advice(&v, c, false);
		commit(r, &v);
	}

	/* ---- cpu-throttled-during-stop ---- */
	if (ws != EV_TIME_NONE && throttled) {
		struct vdraft v;
		/* which stops had throttling in their own bracket */
		int nthr = 0, nst = 0;
		const struct tl_stop *worst = NULL;
		double worst_thr = 0;
		int64_t worst_from = 0, worst_to = 0;
		if (!stops_from_pauses) {
			const struct ring *sr = &tl->stops;
			for (uint64_t i = stops_from(tl, in->start_ms); i < sr->total; i++) {
				const struct tl_stop *s = ring_at(sr, i);
				if (s->start_ms > in->end_ms)
					break;
				if (s->end_ms < in->start_ms || s->total_ms < r->cfg.stop_ms)
					continue;
				struct tl_cpu_delta sd;
				nst++;
				if (!timeline_cpu_delta(tl, s->start_ms, s->end_ms, &sd))
					continue;
				if (sd.throttled_us >= (int64_t)(r->cfg.throttle_min_ms * 1000)) {
					nthr++;
					if (!worst || s->total_ms > worst->total_ms) {
						worst = s;
						worst_thr = sd.throttled_us / 1000.0;
						worst_from = sd.from_ms;
						worst_to = sd.to_ms;
					}
				}
			}
		}
		bool crit = worst_total >= r->cfg.throttle_crit_ms ||
			    (double)cd.throttled_us >= r->cfg.throttle_crit_ms * 1000;
		vinit(&v, V_CPU_THROTTLED, in->id, crit ? SEV_CRIT : SEV_WARN);
		v.start_ms = xs;
		v.end_ms = xe;
		v.jump_ms = ws;
		fmt_ms(worst_total, d1, sizeof d1);
		if (nthr <= 1)
			vtitle(&v, "The %s stop at %s happened while the cgroup was CPU-throttled: +%.0f ms "
			       "throttled_time in %s-%s", d1, hms(r, ws, t3), cd.throttled_us / 1000.0,
			       hms(r, cd.from_ms, t1), hms(r, cd.to_ms, t2));
		if (nthr > 1) {
			char sfx[48];
			snprintf(sfx, sizeof sfx, "%.0f ms", r->cfg.stop_ms);
			vtitle(&v, "%d stops >= %s happened while the cgroup was CPU-throttled: +%.0f ms "
			       "throttled_time in %s-%s (worst stop %s)", nthr, sfx, cd.throttled_us / 1000.0,
			       hms(r, cd.from_ms, t1), hms(r, cd.to_ms, t2), d1);
		}
		vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms, nr_throttled %+lld of %+lld periods",
		      hms(r, cd.from_ms, t1), hms(r, cd.to_ms, t2), cd.throttled_us / 1000.0,
		      (long long)cd.throttled, (long long)cd.periods);
		if (cd.quota_us > 0 && cd.period_us > 0)
			vevid(&v, "quota %.2f CPU (cfs_quota_us %lld / cfs_period_us %lld)",
			      (double)cd.quota_us / (double)cd.period_us, (long long)cd.quota_us,
			      (long long)cd.period_us);
		if (worst) {
			vevid(&v, "%s:%llu %s safepoint \"%s\" total %.1f ms (reaching %.1f ms): throttled_time "
			      "%+.0f ms in %s-%s", sname(c, worst->src), (unsigned long long)worst->line,
			      hms(r, worst->end_ms, t3), worst->op, worst->total_ms, worst->ttsp_ms, worst_thr,
			      hms(r, worst_from, t1), hms(r, worst_to, t2));
		}
		if (nst > 0)
			vevid(&v, "%d of %d stops >= %.0f ms in this incident had throttling in their own "
			      "window", nthr, nst, r->cfg.stop_ms);
		struct tl_sched_sum ss;
		if (c->have_sched && timeline_sched_sum(tl, xs, xe, &ss))
			vevid(&v, "schedstat %s-%s: JVM threads %.0f ms on CPU, %.0f ms runnable but waiting "
			      "(on this kernel throttled time counts as run-queue wait)",
			      hms(r, ss.from_ms, t1), hms(r, ss.to_ms, t2), ss.oncpu_ms, ss.wait_ms);
		/* how much of the window the cgroup spent throttled: CPU-seconds of
		 * throttling can exceed the wall time with several CPUs */
		double share = cd.to_ms > cd.from_ms ?
				       (double)cd.throttled_us / 1000.0 / (double)(cd.to_ms - cd.from_ms) : 0;
		if (share >= 0.5)
			vadvice(&v, "The JVM's threads were not scheduled: the container's CFS quota was used "
				"up, so the threads sat throttled until the next period. ");
		else
			vadvice(&v, "The container's CFS quota ran out during part of the stop (%.0f ms "
				"throttled in %lld ms): the stop was stretched while threads waited for the next "
				"period. ", cd.throttled_us / 1000.0, (long long)(cd.to_ms - cd.from_ms));
		vadvice(&v, "Raise or remove the CPU limit "
			"(Kubernetes resources.limits.cpu; watch container_cpu_cfs_throttled_seconds_total), "
			"or burn less CPU in bursts (fewer GC/JIT threads: -XX:ParallelGCThreads, "
			"-XX:CICompilerCount; -XX:ActiveProcessorCount to match the quota). Thread names in "
			"SafepointTimeout reports can be coincidental here: a throttled thread is late "
			"wherever it is (ttsp-spike tells when the same thread is late every time).");
		commit(r, &v);
	}

	/* ---- sched-delay-during-stop (run-queue contention, not throttling) ----
	 * Judged stop by stop, in the schedstat intervals around each stop: over
	 * the incident's whole extent the time between stops dilutes the wait, and
	 * a verdict true for a prefix of an incident but false for all of it
	 * depended on when it was judged (recordings/contention: 19 stops 2-3 s
	 * apart; live and report disagreed). A stop is judged only once the sample
	 * after it is in, so the count of contended stops never goes back. */
	/* live, before cpu.stat brackets the stops: the samples that tell
	 * throttling from contention may still come (a verdict raised now was
	 * withdrawn a tick later when they said "throttled") */
	bool cpu_pending = c->have_cpu && !have_cd && !r->judging_final;
	if (ws != EV_TIME_NONE && c->have_sched && !throttled && !cpu_pending && tl->sched.total > 0) {
		const struct tl_sched *lastsc = ring_at(&tl->sched, tl->sched.total - 1);
		int nstop = 0, nwait = 0, ncont = 0, ncatch = 0;
		struct tl_sched_sum best;
		double best_ps = -1, best_total = 0, prev_total = 0;
		int64_t best_s = 0, prev_end = EV_TIME_NONE, catch_end = EV_TIME_NONE;
		double catch_total = 0;
		const struct ring *sr = stops_from_pauses ? &tl->pauses : &tl->stops;
		uint64_t i0 = timeline_lower_bound(sr, in->start_ms - 60000);
		for (uint64_t i = i0; i < sr->total; i++) {
			int64_t s0, s1;
			double tot;
			if (stops_from_pauses) {
				const struct tl_pause *p = ring_at(sr, i);
				tot = p->dur_ms;
				s1 = p->t_ms;
				s0 = s1 - (int64_t)p->dur_ms;
			} else {
				const struct tl_stop *st = ring_at(sr, i);
				tot = st->total_ms;
				s0 = st->start_ms;
				s1 = st->end_ms;
			}
			if (s0 > in->end_ms)
				break;
			if (s1 < in->start_ms || tot < r->cfg.stop_ms || s1 > lastsc->t_ms)
				continue;
			/* a stop that starts within 1 s of a longer one meets the threads
			 * that one released, all runnable at once (combined/gc-stop: the
			 * ThreadDump 11 ms after the 3.1 s Full GC) */
			bool catch_up = prev_end != EV_TIME_NONE && (double)(s0 - prev_end) <= r->cfg.catchup_ms &&
					prev_total > tot;
			int64_t pe = prev_end;
			double pt = prev_total;
			prev_end = s1;
			prev_total = tot;
			struct tl_sched_sum ss;
			nstop++;
			if (!timeline_sched_sum(tl, s0, s1, &ss) || ss.to_ms <= ss.from_ms)
				continue;
			/* contention explains a stop only when the threads waited for a CPU
			 * more than they ran; a GC busy on every CPU makes others wait too */
			if (ss.wait_ms <= ss.oncpu_ms)
				continue;
			nwait++;
			double ps = ss.wait_ms * 1000.0 / (double)(ss.to_ms - ss.from_ms);
			if (ps < r->cfg.sched_wait_ms_per_s)
				continue;
			ncont++;
			if (catch_up) {
				ncatch++;
				catch_end = pe;
				catch_total = pt;
			}
			if (ps > best_ps) {
				best = ss;
				best_ps = ps;
				best_s = s0;
				best_total = tot;
			}
		}
		if (ncont > 0) {
			struct vdraft v;
			char sfx[48];
			/* only after-effects of a longer stop: that stop is the finding */
			vinit(&v, V_SCHED_DELAY, in->id, ncatch == ncont ? SEV_INFO : SEV_WARN);
			v.start_ms = ws;
			v.end_ms = we;
			v.jump_ms = best_s;
			fmt_ms(best_total, d1, sizeof d1);
			snprintf(sfx, sizeof sfx, "%.0f ms", r->cfg.stop_ms);
			/* On this kernel a thread held by the CFS quota is counted as
			 * run-queue wait: only cpu.stat around the stops can say it was
			 * contention. Without usable counters there (no cpu.stat given, or
			 * samples without throttling counters) the title says both. */
			if (have_cd)
				vtitle(&v, "Run-queue contention during %d of %d stops >= %s: the JVM's threads waited "
				       "for a CPU more than they ran (up to %.0f ms per second, around the %s stop at "
				       "%s); the cgroup was not throttled",
				       ncont, nstop, sfx, best_ps, d1, hms(r, best_s, t1));
			else
				vtitle(&v, "The JVM's threads waited for a CPU more than they ran during %d of %d stops "
				       ">= %s (up to %.0f ms per second, around the %s stop at %s): run-queue "
				       "contention or CPU throttling, %s", ncont, nstop, sfx, best_ps, d1,
				       hms(r, best_s, t1),
				       c->have_cpu ? "cpu.stat has no throttling counters for that time"
						   : "no cpu.stat to tell them apart");
			vevid(&v, "schedstat %s-%s (around the %s stop at %s): %.0f ms waiting, %.0f ms on CPU",
			      hms(r, best.from_ms, t1), hms(r, best.to_ms, t2), d1, hms(r, best_s, t3), best.wait_ms,
			      best.oncpu_ms);
			if (best.worst_tid >= 0)
				vevid(&v, "waited most there: \"%s\" (tid %d) %.0f ms", best.worst_comm, best.worst_tid,
				      best.worst_wait_ms);
			vevid(&v, "stops >= %s in this incident: %d; waiting > on CPU around %d of them, and "
			      ">= %.0f ms per second around %d", sfx, nstop, nwait, r->cfg.sched_wait_ms_per_s, ncont);
			if (have_cd)
				vevid(&v, "cgroup cpu.stat %s-%s: throttled_time %+.1f ms", hms(r, cd.from_ms, t1),
				      hms(r, cd.to_ms, t2), cd.throttled_us / 1000.0);
			if (ncatch > 0) {
				fmt_ms(catch_total, d2, sizeof d2);
				vadvice(&v, "%s right after a longer stop (the %s one ending at %s): the threads it "
					"had held became runnable at once and queued for the CPUs, an after-effect of "
					"that stop rather than a cause of its own. ",
					ncont == 1 ? "This stop came" : ncatch == ncont ? "These stops came" :
					"Some of these stops came", d2,
					hms(r, catch_end, t2));
			}
			vadvice(&v, "Threads were runnable but the CPUs were busy with other work: noisy "
				"neighbours on the node, or more runnable threads than CPUs (GC and "
				"application threads together). Check the node's load and steal time, pin or "
				"isolate the pod, or reduce thread counts.");
			if (!c->have_cpu)
				vadvice(&v, " On this kernel CFS throttling also shows up as run-queue wait: "
					"add --cpustat-log, --cgroup or --pid so cpu.stat can tell them apart.");
			else if (!have_cd)
				vadvice(&v, " On this kernel CFS throttling also shows up as run-queue wait, and the "
					"cpu.stat samples around these stops carry no throttling counters (a cgroup "
					"without the cpu controller, or one that went away): check "
					"container_cpu_cfs_throttled_seconds_total for that time.");
			commit(r, &v);
		}
	}

	/* ---- direct-reclaim ---- */
	if (ws != EV_TIME_NONE && c->have_vmstat) {
		int64_t stalls = -1, pageout = -1, vfrom = EV_TIME_NONE, vto = EV_TIME_NONE;
		if (timeline_vmstat_delta(tl, ws, we, &stalls, &pageout) && stalls > 0 &&
		    timeline_vmstat_bracket(tl, ws, we, &vfrom, &vto)) {
			struct vdraft v;
			vinit(&v, V_DIRECT_RECLAIM, in->id, SEV_WARN);
			v.start_ms = ws;
			v.end_ms = we;
			v.jump_ms = ws;
			fmt_ms(worst_total, d1, sizeof d1);
			vtitle(&v, "The machine reclaimed memory directly during the %s stop at %s (%lld allocation "
			       "stalls machine-wide)", d1, hms(r, ws, t1), (long long)stalls);
			vevid(&v, "/proc/vmstat samples %s-%s: allocstall %+lld, pageoutrun %+lld (all processes)",
			      hms(r, vfrom, t1), hms(r, vto, t2), (long long)stalls, (long long)pageout);
			vadvice(&v, "Threads that allocate had to free page cache themselves because the MACHINE "
				"was short of free memory (allocstall counts only machine-wide reclaim; a "
				"container at its own memory limit reclaims without it). Leave free memory on "
				"the node (other pods, page cache), pre-touch the heap (-XX:+AlwaysPreTouch) so "
				"GC does not fault pages in during a pause, or raise vm.min_free_kbytes so "
				"kswapd starts earlier.");
			commit(r, &v);
		}
	}

	/* ---- accept-queue-overflow and connect-timeout-504 ---- */
	if (in->has_slow && c->have_nginx) {
		/* The window W of the requests to count and how long the upstream accepted
		 * nothing: the JVM's stop (with its throttling) when the JVM logs show one;
		 * from nginx alone, the first request that got into the accept queue
		 * waited the whole stop in $upstream_header_time, and the stepped
		 * connects started after the queue was full. */
		struct tl_req_sum all;
		timeline_req_sum(tl, in->start_ms - 3000, in->end_ms + 1, &all);
		int64_t a, b;
		double stop_s;
		const char *stop_from;
		if (ws != EV_TIME_NONE) {
			a = xs;
			b = xe;
			stop_s = (double)(xe - xs) / 1000.0;
			stop_from = throttled ? "the JVM stop with CPU throttling" : "the JVM stop";
		} else {
			double span = all.first_slow_start != EV_TIME_NONE ?
					      (double)(all.last_slow_start - all.first_slow_start) / 1000.0 : 0;
			stop_s = all.max_uht_b0;
			stop_from = "the longest wait in the accept queue ($upstream_header_time of a request "
				    "that connected at once)";
			a = all.max_uht_b0_start != EV_TIME_NONE ? all.max_uht_b0_start : in->start_ms;
			if (span > stop_s) {
				stop_s = span;
				stop_from = "the span of the stepped connects";
			}
			b = a + (int64_t)(stop_s * 1000);
		}
		/* the slow connects belong to W even where the estimate falls short */
		if (all.first_slow_start != EV_TIME_NONE && all.first_slow_start < a)
			a = all.first_slow_start;
		if (all.last_slow_start != EV_TIME_NONE && all.last_slow_start + 1 > b)
			b = all.last_slow_start + 1;
		if (in->start_ms < a && ws == EV_TIME_NONE)
			a = in->start_ms;
		if (in->end_ms + 1 > b)
			b = in->end_ms + 1;
		struct tl_req_sum w;
		timeline_req_sum(tl, a, b, &w);
		uint32_t slow = w.bucket[1] + w.bucket[2] + w.bucket[3] + w.bucket[4];
		double rate = timeline_req_rate(tl, a - 30000, a);
		if (rate <= 0)
			rate = timeline_req_rate(tl, b, b + 30000);
		long long backlog = llround(rate * stop_s);

		if ((double)slow >= floor(r->cfg.aq_min_requests)) { /* (uint32_t) of 1e12 is undefined */
			struct vdraft v;
			int maxb = w.bucket[4] ? 4 : w.bucket[3] ? 3 : w.bucket[2] ? 2 : 1;
			vinit(&v, V_ACCEPT_QUEUE, in->id,
			      ((double)maxb >= r->cfg.aq_crit_bucket || (double)slow >= r->cfg.aq_crit_requests) ?
				      SEV_CRIT : SEV_WARN);
			v.start_ms = a;
			v.end_ms = b;
			v.jump_ms = w.first_slow_start != EV_TIME_NONE ? w.first_slow_start : a;
			char steps[64] = "";
			for (int k = 1; k <= 4; k++)
				if (w.bucket[k]) {
					char one[12];
					snprintf(one, sizeof one, "%s%d%s", steps[0] ? "/" : "", k, k == 4 ? "+" : "");
					strcat(steps, one);
				}
			vtitle(&v, "nginx waited %s s to connect (%u requests) because the upstream's accept queue "
			       "overflowed%s: raise the backlog above %lld", steps, slow,
			       ws != EV_TIME_NONE ? " during the stop" : "", backlog);
			vevid(&v, "requests started %s-%s: %u; connect time 0 s: %u, 1 s: %u, 2 s: %u, 3 s: %u, "
			      "4+ s: %u%s", hms(r, a, t1), hms(r, b, t2), w.n, w.bucket[0], w.bucket[1], w.bucket[2],
			      w.bucket[3], w.bucket[4], w.no_connect ? ", never connected: " : "");
			if (w.no_connect)
				snprintf(v.evidence[v.nevidence - 1] + strlen(v.evidence[v.nevidence - 1]),
					 VERDICT_EVIDENCE_LEN - strlen(v.evidence[v.nevidence - 1]), "%u",
					 w.no_connect);
			if (ws != EV_TIME_NONE && sp.worst)
				vevid(&v, "the stop: %s-%s, longest safepoint \"%s\" %.0f ms%s", hms(r, xs, t1),
				      hms(r, xe, t2), sp.worst->op, sp.worst->total_ms,
				      throttled ? ", CPU-throttled" : "");
			else if (ws != EV_TIME_NONE)
				vevid(&v, "the stop: %s-%s (GC pauses)", hms(r, xs, t1), hms(r, xe, t2));
			if (w.first_slow_start != EV_TIME_NONE)
				vevid(&v, "stepped connects started %s-%s (%.1f-%.1f s after the window began)",
				      hms(r, w.first_slow_start, t1), hms(r, w.last_slow_start, t2),
				      (double)(w.first_slow_start - a) / 1000.0,
				      (double)(w.last_slow_start - a) / 1000.0);
			if (w.bucket[0] && w.max_uht_b0 > 0)
				vevid(&v, "%u requests got into the queue (connect ~0 s) and waited up to %.3f s for "
				      "the response header", w.bucket[0], w.max_uht_b0);
			vevid(&v, "load before it: %.0f requests/s; %s: %.2f s", rate, stop_from, stop_s);
			if (in->slowest.line)
				evid_request(&v, c, &in->slowest, "waited longest to connect", in->upstream_many);
			vadvice(&v, "While the application accepted nothing, the kernel queued completed "
				"handshakes up to the listen backlog and then dropped SYNs; the clients' SYN "
				"retransmits (1 s apart on Linux >= 6.5, else 1 s, 3 s, 7 s) are the whole-second "
				"connect times. Raise the backlog above %lld (%.0f req/s x %.2f s): Tomcat/Spring "
				"Boot server.tomcat.accept-count (default 100), Jetty acceptQueueSize (default 50), "
				"or the backlog argument of the server socket; the kernel caps it at "
				"net.core.somaxconn (default 4096)%s. The requests then wait in the queue "
				"($upstream_header_time) instead of retrying; the stop itself is the cause to fix.",
				backlog, rate, stop_s, backlog > 4096 ? ": raise somaxconn too" : "");
			if (in->slowest.upstream[0] && !in->upstream_many)
				vadvice(&v, " The server behind it: %s ($upstream_addr).", in->slowest.upstream);
			commit(r, &v);
		}
		/* connect timeouts: 504 with no connect time */
		uint32_t n504 = 0;
		float t504_max = 0;
		{
			const struct ring *qr = &tl->reqs;
			for (uint64_t i = timeline_lower_bound(qr, a); i < qr->total; i++) {
				const struct tl_req *q = ring_at(qr, i);
				if (q->end_ms >= b + timeline_req_scan_slack(tl))
					break;
				if (q->start_ms < a || q->start_ms >= b)
					continue;
				if (q->status == 504 && q->uct_s < 0) {
					n504++;
					if (q->rt_s > t504_max)
						t504_max = q->rt_s;
				}
			}
		}
		if (n504 > 0) {
			struct vdraft v;
			vinit(&v, V_CONNECT_504, in->id, SEV_CRIT);
			v.start_ms = a;
			v.end_ms = b;
			v.jump_ms = a;
			vtitle(&v, "%u requests failed with 504: nginx gave up connecting after %.1f s "
			       "(proxy_connect_timeout)%s", n504, t504_max,
			       ws != EV_TIME_NONE ? " during the stop" : " while the upstream accepted nothing");
			vevid(&v, "requests started %s-%s: %u, of them 504 with $upstream_connect_time \"-\": %u "
			      "(request time up to %.3f s)", hms(r, a, t1), hms(r, b, t2), w.n, n504, t504_max);
			vevid(&v, "load before it: %.0f requests/s; %s: %.2f s", rate, stop_from, stop_s);
			if (in->t504.line)
				evid_request(&v, c, &in->t504, "was the first to time out", false);
			vadvice(&v, "The upstream's accept queue was full, so nginx's SYNs were dropped and the "
				"connect timed out before the first retransmit. Raise the upstream's listen "
				"backlog above %lld (%.0f req/s x %.2f s) so connections queue instead of being "
				"dropped, and/or raise proxy_connect_timeout above the stop length; then fix the "
				"stop.", backlog, rate, stop_s);
			commit(r, &v);
		}
	}
}

/* ---- notes: what the input could not show ---- */

/* the verdicts that explain a stop */
#define STOP_VERDICTS (((1u << (V_DIRECT_RECLAIM + 1)) - 1) & ~((1u << V_LONG_GC_PAUSE) - 1))

/* in's stops >= stop_ms into u (GC pauses when the log has no safepoint lines) */
static void count_stops(const struct rules *r, const struct timeline *tl, const struct incident *in,
			struct unexplained *u)
{
	bool from_pauses = tl->stops.total == 0;
	const struct ring *sr = from_pauses ? &tl->pauses : &tl->stops;
	uint64_t i = from_pauses ? timeline_lower_bound(sr, in->start_ms) : stops_from(tl, in->start_ms);
	for (; i < sr->total; i++) {
		int64_t a, b;
		double tot;
		const char *what;
		if (from_pauses) {
			const struct tl_pause *p = ring_at(sr, i);
			tot = p->dur_ms;
			b = p->t_ms;
			a = b - (int64_t)p->dur_ms;
			what = p->title;
		} else {
			const struct tl_stop *st = ring_at(sr, i);
			tot = st->total_ms;
			a = st->start_ms;
			b = st->end_ms;
			what = st->op;
		}
		if (a > in->end_ms) {
			if (!from_pauses)
				break; /* pauses are ordered by end: a long one may come later */
			if (a > in->end_ms + tl->stop_span_max_ms)
				break;
			continue;
		}
		if (b < in->start_ms || tot < r->cfg.stop_ms)
			continue;
		u->n++;
		if (tot > u->longest_ms) {
			u->longest_ms = tot;
			u->at_ms = a;
			snprintf(u->op, sizeof u->op, "%s", what);
		}
	}
}

size_t rules_notes(const struct rules *r, const struct rules_ctx *c, char (*out)[RULES_NOTE_LEN], size_t max)
{
	const struct timeline *tl = c->tl;
	size_t n = 0;
	if (max == 0)
		return 0;
	bool from_pauses = tl->stops.total == 0;
	/* the final incidents' unexplained stops, and those of the open ones
	 * that no verdict explains yet (live) */
	struct unexplained u = r->unexplained;
	for (size_t i = r->open_from; i < r->ninc; i++) {
		const struct incident *in = &r->inc[i];
		if (in->final || !in->has_stop)
			continue;
		bool explained = false;
		for (int id = V_LONG_GC_PAUSE; id <= V_DIRECT_RECLAIM && !explained; id++)
			explained = find_c(r, id, in->id) != NULL;
		if (!explained)
			count_stops(r, tl, in, &u);
	}
	uint64_t nstop = u.n;
	double longest = u.longest_ms;
	int64_t longest_at = u.at_ms;
	const char *op = u.op;
	if (nstop > 0 && (!c->have_cpu || !c->have_sched || !c->have_vmstat)) {
		char d[32], t[16], miss[300] = "";
		size_t ml = 0;
		fmt_ms(longest, d, sizeof d);
		if (!c->have_cpu)
			ml += (size_t)snprintf(miss + ml, sizeof miss - ml, "%sCPU throttling: --cpustat-log FILE, "
					       "--cgroup DIR or --pid PID", ml ? "; " : "");
		if (!c->have_sched && ml < sizeof miss)
			ml += (size_t)snprintf(miss + ml, sizeof miss - ml, "%srun-queue wait: --pid PID or "
					       "--schedstat-log FILE", ml ? "; " : "");
		if (!c->have_vmstat && ml < sizeof miss)
			snprintf(miss + ml, sizeof miss - ml, "%sdirect reclaim: --pid PID or --vmstat-log FILE",
				 ml ? "; " : "");
		snprintf(out[n++], RULES_NOTE_LEN,
			 "%llu %s >= %.0f ms (the longest %s at %s, \"%s\") %s no verdict, and the sources that "
			 "could explain %s are missing. To check for %s.",
			 (unsigned long long)nstop, from_pauses ? "GC pauses" : "stops", r->cfg.stop_ms, d, hms(r, longest_at, t), op,
			 nstop == 1 ? "has" : "have", nstop == 1 ? "it" : "them", miss);
	}
	if (n < max && r->evicted) {
		char t1[40], t2[40];
		/* they can span days: dates unless the times are JVM uptime */
		if (r->uptime_axis) {
			hms(r, r->evicted_from_ms, t1);
			hms(r, r->evicted_to_ms, t2);
		} else {
			util_fmt_iso_ms(r->evicted_from_ms, t1, sizeof t1);
			util_fmt_iso_ms(r->evicted_to_ms, t2, sizeof t2);
		}
		snprintf(out[n++], RULES_NOTE_LEN,
			 "%llu verdicts of older incidents (from %s to %s) were let go to keep the newest %d; the "
			 "summary still counts the whole input.", (unsigned long long)r->evicted, t1, t2,
			 MAX_VERDICTS);
	}
	if (n < max && from_pauses && tl->pauses.total > 0)
		snprintf(out[n++], RULES_NOTE_LEN,
			 "The JVM log has GC pauses but no safepoint lines, so a stop spent reaching the "
			 "safepoint (ttsp-spike) cannot be seen: log them too, e.g. "
			 "-Xlog:gc*,safepoint:file=gc.log:time,uptime,level,tags:filecount=5,filesize=20M "
			 "(JDK 9+; JDK 8: -XX:+PrintGCApplicationStoppedTime).");
	return n;
}

/* what judging reads before an incident's start: stops, cpu.stat and
 * schedstat samples up to a minute back (stops_from, throttle_span, the sched
 * windows), and the sample bracketing that; five minutes covers it */
#define KEEP_MARGIN_MS (5 * 60 * 1000)

void rules_keep_from(const struct rules *r, const struct rules_ctx *c, struct tl_keep *keep)
{
	keep->from_ms = keep->reqs_from_ms = INT64_MIN;
	if (c->now_ms == EV_TIME_NONE)
		return;
	/* a new incident starts no earlier than a request ending now started;
	 * the horizon on top, for an incident made final too early */
	int64_t t = c->now_ms - (int64_t)r->cfg.horizon_ms - timeline_req_scan_slack(c->tl);
	for (size_t i = r->open_from; i < r->ninc; i++)
		if (!r->inc[i].final && r->inc[i].start_ms < t)
			t = r->inc[i].start_ms;
	/* requests are read from the start of a window on (ordered by end) */
	keep->reqs_from_ms = t - 1000;
	t -= KEEP_MARGIN_MS;
	keep->from_ms = t;
}

void rules_eval(struct rules *r, const struct rules_ctx *c, bool final)
{
	r->uptime_axis = c->uptime_axis;
	merge_incidents(r);
	int64_t now = c->now_ms;
	bool long_pause = false;
	char note[300];
	note[0] = '\0'; /* not 300 bytes zeroed per evaluation */
	for (size_t i = r->open_from; i < r->ninc; i++) {
		struct incident *in = &r->inc[i];
		if (in->final)
			continue;
		bool becomes_final = final || (now != EV_TIME_NONE && now - in->end_ms > (int64_t)r->cfg.horizon_ms);
		if (!r->eager && !becomes_final)
			continue; /* a report judges each incident once, with all its data */
		r->judging_key = in->id;
		r->judging_final = becomes_final;
		r->judged_mask = 0;
		judge(r, c, in);
		r->judging_key = 0;
		for (int id = V_LONG_GC_PAUSE; id <= V_CONNECT_504; id++)
			if (!(r->judged_mask & (1u << id)))
				withdraw(r, id, in->id);
		if (becomes_final) {
			in->final = true;
			if (in->has_stop && !(r->judged_mask & STOP_VERDICTS))
				count_stops(r, c->tl, in, &r->unexplained);
		}
	}
	while (r->open_from < r->ninc && r->inc[r->open_from].final) {
		const struct incident *in = &r->inc[r->open_from];
		if (r->final_end_max == EV_TIME_NONE || in->end_ms > r->final_end_max)
			r->final_end_max = in->end_ms;
		r->open_from++;
	}
	/* Whole-run verdicts. Each is raised (or raised again after a clear) on
	 * the first evaluation or event that finds its condition; the text of one
	 * already raised is rebuilt from the state on every evaluation when a
	 * listener follows changes, else at most every 100 ms of wall time and at
	 * the end. A replay evaluates once per second of data: rebuilding and
	 * comparing four verdicts' text each time cost more than parsing the log. */
	bool all = final || r->fn;
	if (!all && ++r->evals_unbuilt >= 16) { /* reading the clock on every evaluation shows in a profile */
		int64_t mono = util_mono_ms();
		r->evals_unbuilt = 0;
		all = mono - r->whole_built_mono_ms >= 100;
		if (all)
			r->whole_built_mono_ms = mono;
	}
	bool serial_due = all || !active(r, V_SERIAL_GC, 0);
	if (r->last_long_pause >= 0) {
		long_pause = true;
		if (serial_due)
			snprintf(note, sizeof note, "long pause: %s", r->v[r->last_long_pause].title);
	}
	if (serial_due)
		serial_verdict(r, c, long_pause, note);
	if (all || !active(r, V_ZGC_STALL, 0))
		zgc_stall_verdict(r, c);
	if (c->sum->collector == GC_G1 && r->plateau_since_ms != EV_TIME_NONE &&
	    (all || !active(r, V_G1_NOT_SHRINKING, 0)))
		g1_not_shrinking_verdict(r, c, r->plateau_last_ms);
	if ((double)r->skips_in_row >= floor(r->cfg.periodic_min_skips) && (all || !active(r, V_PERIODIC_SKIPPED, 0)))
		periodic_skipped_verdict(r, c);
}
