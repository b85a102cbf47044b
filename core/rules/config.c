/* config.c — the named thresholds of the rules, their defaults and why, and
 * the JSON file that overrides them (--config FILE). The numbers come from
 * the incident patterns in docs/verdicts.md and the real recordings in tests/samples/; the reasons are
 * printed by --help-config, so they cite docs/verdicts.md, which users have. */
#include "stwtop/rules.h"
#include "stwtop/util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define CONFIG_MAX 1e12

struct knob {
	const char *name;
	size_t off;
	double def;
	const char *doc;
};

#define K(field, value, why) {#field, offsetof(struct rules_config, field), value, why}

static const struct knob knobs[] = {
	K(stop_ms, 100, "a stop >= 100 ms is abnormal: healthy TTSP < 1 ms, stops a few ms (docs/verdicts.md)"),
	K(long_pause_warn_ms, 500, "a GC pause of half a second is visible to every caller"),
	K(long_pause_crit_ms, 2000, "2 s fills a backlog-100 accept queue at 50 req/s and passes nginx's 1 s SYN retry"),
	K(ttsp_warn_ms, 100, "time to safepoint >= 100 ms is abnormal (docs/verdicts.md, ttsp-spike)"),
	K(ttsp_crit_ms, 1000, "a 1 s+ time to safepoint (the published case: 9.35 s) stalls every thread"),
	K(ttsp_share, 0.5, "a TTSP spike means reaching the safepoint is most of the stop"),
	K(throttle_min_ms, 20, "healthy cgroups show 0 ms; 20 ms is one throttled 100 ms period at 0.8 CPU"),
	K(throttle_share, 0.05, "throttled time must be >= 5% of the window bracketing the stop"),
	K(sched_wait_ms_per_s, 500, "normal run-queue wait < 10 ms/s; the idle control shows 133 ms/s (docs/verdicts.md, sched-delay-during-stop)"),
	K(incident_gap_ms, 5000, "stops and slow connects within 5 s are one incident (SYN retries are 1 s apart)"),
	K(horizon_ms, 30000, "nginx logs a request when it ends (30 s covers SYN retries and slow responses)"),
	K(aq_min_requests, 5, "a few requests connecting after whole-second SYN retries means dropped SYNs"),
	K(aq_cluster_gap_ms, 2000, "slow connects more than 2 s apart (by start) belong to separate overflows"),
	K(shrink_ratio, 2, "committed heap at least twice the live data after GC"),
	K(shrink_min_waste_mb, 64, "ignore heaps whose unreturned memory is under 64 MB"),
	K(shrink_min_span_ms, 20000, "committed flat for 20 s (two periodic-GC intervals of the reproduced run)"),
	K(shrink_min_pauses, 3, "at least three collections have looked at the heap"),
	K(shrink_drop, 0.2, "committed falling by 20% or more is G1 giving memory back"),
	K(periodic_min_skips, 2, "two skipped periodic checks in a row; all 5 skipped under load (docs/verdicts.md, periodic-gc-skipped)"),
	K(stall_crit_ms, 100, "a 100 ms allocation stall is a user-visible latency spike"),
	K(mem_tight, 0.8, "container memory above 80% of its limit makes unreturned heap urgent"),
	K(throttle_crit_ms, 1000, "a 1 s throttled stop (or 1 s of throttled time) outlasts nginx's 1 s SYN retry"),
	K(aq_crit_bucket, 2, "connects in the 2 s bucket waited for a second SYN retry: the queue stayed full"),
	K(aq_crit_requests, 100, "100 callers delayed by whole seconds in one overflow (backlog100: 499 of 3600)"),
	K(idle_min_ms, 10000, "10 s without any GC is idle: under load G1 collects every 0.04-1.4 s (g1-periodic)"),
	K(catchup_ms, 1000, "a stop within 1 s of a longer one meets the threads it released (combined/gc-stop: 11 ms)"),
	K(leak_growth_ratio, 1.5, "used after GC up by half over the plateau is growth, not noise (docs/verdicts.md, g1-not-shrinking)"),
	K(leak_growth_min_mb, 64, "... and by at least 64 MB, so a small heap's jitter is not a leak"),
	K(aq_stop_share, 0.5, "nginx alone shows a stop only where most requests started in it were held (slow "
	  "connect, never connected, or >= 0.5 s in the queue): sporadic SYN drops are not a stop"),
	K(periodic_link_ms, 60000, "a shrink within a minute of a periodic collection is its doing (load-stops: 4 ms)"),
	K(overhead_share, 0.3, "paused 30% of a stretch is overhead: the thrashing recordings show 54-99%, healthy runs < 15% a second"),
	K(overhead_min_span_ms, 3000, "3 s of it (and 3 s below it to clear): one busy second is a burst, not overhead"),
	K(overhead_min_full, 2, "two Full GCs or evacuation failures: young pauses alone mean allocation, not a full heap"),
	K(overhead_min_pauses, 5, "five pauses: a few long ones are long-gc-pause, overhead is collections back to back"),
	K(overhead_crit_share, 0.5, "paused half of the time or more: the application got less than half of the wall clock"),
};

void rules_config_defaults(struct rules_config *c)
{
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < ARRAY_LEN(knobs); i++)
		*(double *)((char *)c + knobs[i].off) = knobs[i].def;
}

int rules_config_describe(const struct rules_config *c, int i, const char **name, double *value,
			  const char **doc)
{
	if (i < 0 || (size_t)i >= ARRAY_LEN(knobs))
		return -1;
	*name = knobs[i].name;
	*value = *(const double *)((const char *)c + knobs[i].off);
	*doc = knobs[i].doc;
	return 0;
}

/* Apply a parsed JSON object to c: all or nothing (a copy is filled and kept
 * only when every key is good). name prefixes the messages. */
static int load_root(struct rules_config *c, json_t *root, const char *name, char *err, size_t errlen)
{
	struct rules_config t = *c;
	if (!json_is_object(root)) {
		snprintf(err, errlen, "%s: expected a JSON object of thresholds", name);
		return -EINVAL;
	}
	const char *key;
	json_t *val;
	json_object_foreach(root, key, val) {
		size_t i;
		if (key[0] == '_' || strcmp(key, "comment") == 0)
			continue; /* room for comments */
		for (i = 0; i < ARRAY_LEN(knobs); i++)
			if (strcmp(knobs[i].name, key) == 0)
				break;
		if (i == ARRAY_LEN(knobs)) {
			char safe[120];
			/* the key is the user's text: may hold anything (json allows \u001b) */
			util_sanitize(safe, sizeof safe, key, strlen(key));
			snprintf(err, errlen, "%s: unknown threshold \"%s\" (stwtop --help-config lists them)",
				 name, safe);
			return -EINVAL;
		}
		double v = json_number_value(val);
		/* the rules turn thresholds into int64 milliseconds: 1e12 ms is 31 years,
		 * and anything above could not be converted */
		if (!json_is_number(val) || !(v >= 0) || !(v <= CONFIG_MAX)) {
			snprintf(err, errlen, "%s: \"%s\" must be a non-negative number (at most 1e12)", name, key);
			return -EINVAL;
		}
		*(double *)((char *)&t + knobs[i].off) = v;
	}
	*c = t;
	return 0;
}

static int load_error(const json_error_t *je, const char *name, char *err, size_t errlen)
{
	if (je->line <= 0)
		snprintf(err, errlen, "%s: %s", name, je->text);
	else
		snprintf(err, errlen, "%s:%d: %s", name, je->line, je->text);
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
