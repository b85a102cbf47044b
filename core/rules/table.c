/* SPDX-License-Identifier: GPL-2.0-or-later */
/* table.c — the rule table (rules_internal.h): the rows of include/stwtop/rule_list.h
 * in its order, each defined by its rule's own file (id, name, kind, reading
 * rank, whether it explains a stop, its hooks and its state). The engine, the
 * report, the views and the screen read these facts from here.
 *
 * The order is the evaluation order: the incident rules in reading order (the
 * stop, its cause, its cost: a verdict raised first is listed first), then the
 * whole-run rules in the order they are refreshed. A report lists whole-run
 * verdicts after the incidents by their rank (gc-overhead, rank 9, leads).
 */
#include "rules_internal.h"

#define RULE(id, sym) &rule_##sym,
const struct rule *const rule_table[] = {
#include "stwtop/rule_list.h"
};
#undef RULE
const size_t rule_count = sizeof rule_table / sizeof rule_table[0];

_Static_assert(sizeof rule_table / sizeof rule_table[0] == V_COUNT, "one row per verdict id");
/* judged_mask and rl_stop_verdicts_mask() are bit sets of ids */
_Static_assert(V_COUNT <= 32, "verdict ids fit a 32-bit mask");

/* the row of an id: the list makes the ids, so id i is row i */
static const struct rule *row(int id)
{
	return id >= 0 && (size_t)id < rule_count ? rule_table[id] : NULL;
}

const struct verdict_info *verdict_info(int id)
{
	const struct rule *r = row(id);
	return r ? &r->info : NULL;
}

bool verdict_is_incident(int id)
{
	const struct rule *r = row(id);
	return r && r->info.kind == VERDICT_INCIDENT;
}

int verdict_rank(int id)
{
	const struct rule *r = row(id);
	return r ? r->info.rank : 10 + id;
}

const char *verdict_id_name(int id)
{
	const struct rule *r = row(id);
	return r ? r->info.name : "?";
}

int verdict_id_from_name(const char *name)
{
	for (size_t i = 0; i < rule_count; i++)
		if (strcmp(rule_table[i]->info.name, name) == 0)
			return rule_table[i]->info.id;
	return -1;
}

const char *severity_name(int sev)
{
	return sev == SEV_CRIT ? "crit" : sev == SEV_WARN ? "warn" : "info";
}

unsigned rl_stop_verdicts_mask(void)
{
	unsigned m = 0;
	for (size_t i = 0; i < rule_count; i++)
		if (rule_table[i]->info.explains_stop)
			m |= 1u << rule_table[i]->info.id;
	return m;
}
