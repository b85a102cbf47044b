/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmclock.c — where JVM uptime 0 is on the wall clock, and the uptime-only
 * events waiting to know it (jvmclock.h). */
#include "stwtop/jvmclock.h"

#include "stwtop/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *anchor_from_name(enum anchor_from f)
{
	switch (f) {
	case ANCHOR_NONE: return "none";
	case ANCHOR_GIVEN: return "given";
	case ANCHOR_LINE: return "line";
	case ANCHOR_LIVE_LINE: return "live-line";
	case ANCHOR_MTIME: return "mtime";
	case ANCHOR_RECORDING: return "recording";
	case ANCHOR_UPTIME_AXIS: return "uptime";
	}
	return "?";
}

int jvmclock_init(struct jvmclock *c)
{
	memset(c, 0, sizeof *c);
	c->anchor_ms = EV_TIME_NONE;
	c->guess_ms = EV_TIME_NONE;
	c->pending = calloc(JVMCLOCK_PENDING_MAX, sizeof *c->pending);
	return c->pending ? 0 : -ENOMEM;
}

void jvmclock_fini(struct jvmclock *c)
{
	free(c->pending);
	c->pending = NULL;
	c->npending = 0;
}

size_t jvmclock_set(struct jvmclock *c, int64_t start_ms, enum anchor_from from, const char *how,
		    struct event **placed)
{
	*placed = c->pending;
	if (start_ms == EV_TIME_NONE)
		return 0;
	c->anchor_ms = start_ms;
	c->guess_ms = EV_TIME_NONE;
	c->from = from;
	util_strlcpy_n(c->how, sizeof c->how, how, strlen(how));
	size_t n = c->npending;
	c->npending = 0;
	for (size_t k = 0; k < n; k++)
		c->pending[k].t_ms = jvmclock_wall(c, &c->pending[k]);
	c->unanchored = 0;
	return n;
}

bool jvmclock_wants(const struct jvmclock *c, enum anchor_from from, int64_t start_ms, bool fixed)
{
	if (fixed)
		return false;
	if (c->anchor_ms == EV_TIME_NONE)
		return true;
	if (from == ANCHOR_RECORDING) /* a later meta line of the same recording: the JVM was restarted */
		return c->from == ANCHOR_RECORDING && c->anchor_ms != start_ms;
	return c->from == ANCHOR_RECORDING || llabs(c->anchor_ms - start_ms) > 1000;
}

int64_t jvmclock_wall(const struct jvmclock *c, const struct event *e)
{
	if (e->t_ms != EV_TIME_NONE)
		return e->t_ms;
	if (e->up_us >= 0 && c->anchor_ms != EV_TIME_NONE) {
		/* to the nearest ms, as an anchor is learnt; saturated: a recording's
		 * or --jvm-start's start can be any number */
		int64_t up_ms = e->up_us / 1000 + (e->up_us % 1000 >= 500);
		if (c->anchor_ms > 0 && up_ms > INT64_MAX - c->anchor_ms)
			return INT64_MAX;
		return c->anchor_ms + up_ms;
	}
	return EV_TIME_NONE;
}

bool jvmclock_time(struct jvmclock *c, struct event *e)
{
	e->t_ms = jvmclock_wall(c, e);
	if (e->t_ms != EV_TIME_NONE)
		return true;
	if (e->up_us >= 0 && c->npending < JVMCLOCK_PENDING_MAX)
		c->pending[c->npending++] = *e;
	c->unanchored++;
	return false;
}

void jvmclock_guess(struct jvmclock *c, int64_t now_ms, int64_t up_us, const char *src_name)
{
	if (c->anchor_ms != EV_TIME_NONE || c->guess_ms != EV_TIME_NONE || now_ms == EV_TIME_NONE || up_us < 0)
		return;
	c->guess_ms = now_ms - up_us / 1000;
	c->guess_mono_ms = util_mono_ms();
	snprintf(c->guess_how, sizeof c->guess_how, "%s: uptime of a line read as it was written", src_name);
}

bool jvmclock_guess_due(const struct jvmclock *c, int64_t mono_now_ms)
{
	return c->anchor_ms == EV_TIME_NONE && c->guess_ms != EV_TIME_NONE &&
	       mono_now_ms - c->guess_mono_ms >= JVMCLOCK_GUESS_MS;
}
