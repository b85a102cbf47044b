/* SPDX-License-Identifier: GPL-2.0-or-later */
/* order.c — the verdicts in reading order and the incidents they make
 * (rules.h: rules_order(), rules_incidents()). The engine owns them: they are
 * sorted again only after a verdict changed, so the report, the dashboard's
 * panes and its keys read one order, and a frame does not regroup the
 * verdicts for each pane.
 *
 * Reading order: each incident's verdicts together (incidents by their key:
 * the order they began), within one the rank (the stop, its cause, its cost);
 * then the whole-run verdicts, the most severe first, then by rank. */
#include "rules_internal.h"

#include <errno.h>

struct order_cache {
	uint64_t gen;                  /* r->gen they were made at */
	bool valid;
	size_t *idx, n, cap;
	struct rules_incident *inc;
	size_t ninc;
};

struct sort_rec {
	bool whole;                    /* a whole-run verdict: after the incidents */
	uint64_t key;                  /* an incident's key; a whole-run verdict: SEV_CRIT - severity */
	int rank;
	size_t idx;                    /* the slot: ties keep the order verdicts were raised in */
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct sort_rec *a = pa, *b = pb;
	if (a->whole != b->whole)
		return a->whole ? 1 : -1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static bool grow(struct order_cache *c, size_t n)
{
	if (n <= c->cap)
		return true;
	size_t cap = c->cap ? c->cap : 64;
	while (cap < n)
		cap *= 2;
	size_t *idx = realloc(c->idx, cap * sizeof *idx);
	if (!idx)
		return false;
	c->idx = idx;
	struct rules_incident *inc = realloc(c->inc, cap * sizeof *inc);
	if (!inc)
		return false;
	c->inc = inc;
	c->cap = cap;
	return true;
}

static void group(const struct rules *r, struct order_cache *c)
{
	c->ninc = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct verdict *v = rules_at(r, c->idx[i]);
		if (!verdict_is_incident(v->id))
			continue;
		struct rules_incident *cur = c->ninc > 0 ? &c->inc[c->ninc - 1] : NULL;
		if (!cur || cur->key != v->key || cur->first + cur->n != i) {
			cur = &c->inc[c->ninc];
			*cur = (struct rules_incident){.number = (unsigned)++c->ninc, .key = v->key, .first = i,
						       .start_ms = EV_TIME_NONE, .end_ms = EV_TIME_NONE};
		}
		cur->n++;
		/* EV_TIME_NONE is INT64_MIN: a known time always wins over it */
		if (v->start_ms != EV_TIME_NONE && (cur->start_ms == EV_TIME_NONE || v->start_ms < cur->start_ms))
			cur->start_ms = v->start_ms;
		int64_t end = v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms;
		if (end > cur->end_ms)
			cur->end_ms = end;
	}
}

static const struct order_cache *ordered(const struct rules *r)
{
	struct order_cache *c = r->order;
	if (!c || (c->valid && c->gen == r->gen))
		return c;
	c->valid = false;
	c->n = c->ninc = 0;
	size_t n = rules_count(r);
	struct sort_rec *rec = n ? calloc(n, sizeof *rec) : NULL;
	if (n && (!rec || !grow(c, n))) {
		free(rec);
		return c; /* out of memory: an empty order, tried again next time */
	}
	for (size_t i = 0; i < n; i++) {
		const struct verdict *v = rules_at(r, i);
		bool whole = !verdict_is_incident(v->id);
		rec[i] = (struct sort_rec){.whole = whole,
					   .key = whole ? (uint64_t)(SEV_CRIT - v->severity) : v->key,
					   .rank = verdict_rank(v->id), .idx = i};
	}
	if (n > 1)
		qsort(rec, n, sizeof *rec, cmp_rec);
	for (size_t i = 0; i < n; i++)
		c->idx[i] = rec[i].idx;
	free(rec);
	c->n = n;
	group(r, c);
	c->gen = r->gen;
	c->valid = true;
	return c;
}

const size_t *rules_order(const struct rules *r, size_t *n)
{
	const struct order_cache *c = ordered(r);
	*n = c ? c->n : 0;
	return c ? c->idx : NULL;
}

const struct rules_incident *rules_incidents(const struct rules *r, size_t *n)
{
	const struct order_cache *c = ordered(r);
	*n = c ? c->ninc : 0;
	return c ? c->inc : NULL;
}

int rl_order_init(struct rules *r)
{
	r->order = calloc(1, sizeof *r->order);
	return r->order ? 0 : -ENOMEM;
}

void rl_order_fini(struct rules *r)
{
	if (!r->order)
		return;
	free(r->order->idx);
	free(r->order->inc);
	free(r->order);
	r->order = NULL;
}
