/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.c — the named thresholds of the rules, their defaults and why, and
 * the JSON file that overrides them (--config FILE). The numbers come from
 * the incident patterns in docs/verdicts.md and the real recordings in tests/samples/; the reasons are
 * printed by --help-config, so they cite docs/verdicts.md, which users have. */
#include "rules_internal.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stwtop/fmt.h"

#define CONFIG_MAX 1e12

/* The engine's own thresholds, shared by the rules: what is a stop, what is one
 * incident. Each rule's are in its row (rule_knob, RULE_KNOBS in its file). */
static const struct rule_knob engine_knobs[] = {
	RULE_KNOB(stop_ms, 100, "a stop >= 100 ms is abnormal: healthy TTSP < 1 ms, stops a few ms (docs/verdicts.md)"),
	RULE_KNOB(incident_gap_ms, 5000, "stops and slow connects within 5 s are one incident (SYN retries are 1 s apart)"),
	RULE_KNOB(horizon_ms, 30000, "nginx logs a request when it ends (30 s covers SYN retries and slow responses)"),
	RULE_KNOB(catchup_ms, 1000, "a stop within 1 s of a longer one meets the threads it released (combined/gc-stop: 11 ms)"),
};

/* threshold i: the engine's first, then each row's in table order; NULL past the end */
static const struct rule_knob *knob_at(size_t i)
{
	if (i < ARRAY_LEN(engine_knobs))
		return &engine_knobs[i];
	i -= ARRAY_LEN(engine_knobs);
	for (size_t r = 0; r < rule_count; r++) {
		if (i < rule_table[r]->nknobs)
			return &rule_table[r]->knobs[i];
		i -= rule_table[r]->nknobs;
	}
	return NULL;
}

static const struct rule_knob *knob_named(const char *name)
{
	const struct rule_knob *k;
	for (size_t i = 0; (k = knob_at(i)) != NULL; i++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

void rules_config_defaults(struct rules_config *c)
{
	memset(c, 0, sizeof *c);
	const struct rule_knob *k;
	for (size_t i = 0; (k = knob_at(i)) != NULL; i++)
		*(double *)((char *)c + k->off) = k->def;
}

int rules_config_describe(const struct rules_config *c, int i, const char **name, double *value,
			  const char **doc)
{
	const struct rule_knob *k = i < 0 ? NULL : knob_at((size_t)i);
	if (!k)
		return -1;
	*name = k->name;
	*value = *(const double *)((const char *)c + k->off);
	*doc = k->why;
	return 0;
}

/* Apply a parsed JSON object to c: all or nothing (a copy is filled and kept
 * only when every key is good). name prefixes the messages. */
static int load_root(struct rules_config *c, json_t *root, const char *name, char *err, size_t errlen)
{
	struct rules_config t = *c;
	if (!json_is_object(root)) {
		fmt_s(err, errlen, "%s: expected a JSON object of thresholds", name);
		return -EINVAL;
	}
	const char *key;
	json_t *val;
	json_object_foreach(root, key, val) {
		if (key[0] == '_' || strcmp(key, "comment") == 0)
			continue; /* room for comments */
		const struct rule_knob *k = knob_named(key);
		if (!k) {
			char safe[120];
			/* the key is the user's text: may hold anything (json allows \u001b) */
			util_sanitize(safe, sizeof safe, key, strlen(key));
			fmt_s(err, errlen, "%s: unknown threshold \"%s\" (stwtop --help-config lists them)",
			      name, safe);
			return -EINVAL;
		}
		double v = json_number_value(val);
		/* the rules turn thresholds into int64 milliseconds: 1e12 ms is 31 years,
		 * and anything above could not be converted */
		if (!json_is_number(val) || !(v >= 0) || !(v <= CONFIG_MAX)) {
			fmt_s(err, errlen, "%s: \"%s\" must be a non-negative number (at most 1e12)", name, key);
			return -EINVAL;
		}
		*(double *)((char *)&t + k->off) = v;
	}
	*c = t;
	return 0;
}

static int load_error(const json_error_t *je, const char *name, char *err, size_t errlen)
{
	if (je->line <= 0)
		fmt_s(err, errlen, "%s: %s", name, je->text);
	else
		fmt_s(err, errlen, "%s:%d: %s", name, je->line, je->text);
	return -EINVAL;
}

int rules_config_load(struct rules_config *c, const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return load_error(&je, path, err, errlen);
	int rc = load_root(c, root, path, err, errlen);
	json_decref(root);
	return rc;
}

int rules_config_load_mem(struct rules_config *c, const char *buf, size_t len, const char *name, char *err,
			  size_t errlen)
{
	json_error_t je;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!name)
		name = "config";
	if (!root)
		return load_error(&je, name, err, errlen);
	int rc = load_root(c, root, name, err, errlen);
	json_decref(root);
	return rc;
}
