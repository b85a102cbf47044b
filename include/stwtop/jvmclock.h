/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmclock.h — the JVM's clock: where JVM uptime 0 is on the wall clock (the
 * "anchor"), how it was learnt, and the uptime-only events that wait for it.
 *
 * Every event reaches the timeline with a UTC wall-clock time. JVM lines that
 * carry only uptime are placed with the JVM's start: given (--jvm-start,
 * --pid), from a line that carries both a wall clock and uptime, from a
 * recording's meta line, or (live only) guessed from an uptime-only line read
 * the moment it was written. Until then they wait here (bounded).
 */
#ifndef STWTOP_JVMCLOCK_H
#define STWTOP_JVMCLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/event.h"

/* How the JVM's start was learnt (the "jvm_start_from" of a recording). */
enum anchor_from {
	ANCHOR_NONE = 0,
	ANCHOR_GIVEN,         /* session_set_jvm_anchor: --jvm-start, --pid (the caller says which in how) */
	ANCHOR_LINE,          /* a JVM log line carrying both a wall clock and uptime */
	ANCHOR_LIVE_LINE,     /* an uptime-only line read the moment it was written (live) */
	ANCHOR_MTIME,         /* an uptime-only log's modification time minus its last uptime (live) */
	ANCHOR_RECORDING,     /* a meta line of a --replay recording (used when nothing better is known) */
	ANCHOR_UPTIME_AXIS    /* none: times are JVM uptime (start = 0) */
};
const char *anchor_from_name(enum anchor_from f);   /* "given", "line", "live-line", ... */

#define JVMCLOCK_PENDING_MAX 8192   /* uptime-only events waiting for the JVM's start */
#define JVMCLOCK_GUESS_MS 1500      /* how long a guessed JVM start waits for a better one */

struct jvmclock {
	int64_t anchor_ms;          /* wall clock of uptime 0, EV_TIME_NONE unknown */
	enum anchor_from from;
	char how[200];
	bool uptime_axis;           /* no wall clock anywhere: times are JVM uptime */
	/* live: the start guessed from an uptime-only line read as it was written,
	 * kept back for JVMCLOCK_GUESS_MS in case a line with both clocks follows
	 * (a console.log, or a replay of an old log): placing events with the
	 * guess first put a replayed log at today's date and moved the data clock
	 * two days on, so every incident was judged final at once */
	int64_t guess_ms, guess_mono_ms;
	char guess_how[120];
	struct event *pending;      /* waiting for the anchor, oldest first */
	size_t npending;
	uint64_t unanchored;        /* events that could not be placed (pending or dropped) */
};

int jvmclock_init(struct jvmclock *c);   /* 0 or -ENOMEM */
void jvmclock_fini(struct jvmclock *c);

/* Anchor at start_ms (ignored when EV_TIME_NONE). The events that waited get
 * their time and are handed back to be placed, in order: *placed (inside the
 * clock, valid until the next jvmclock_time), the count returned. */
size_t jvmclock_set(struct jvmclock *c, int64_t start_ms, enum anchor_from from, const char *how,
		    struct event **placed);
/* Whether a start learnt from the data (ANCHOR_LINE or ANCHOR_RECORDING) at
 * start_ms replaces the one in use: an explicit start (fixed) always wins;
 * otherwise the first one learnt, a line over a recording, or a new JVM (a
 * line's start more than 1 s away; a recording's other start). */
bool jvmclock_wants(const struct jvmclock *c, enum anchor_from from, int64_t start_ms, bool fixed);
/* The wall clock of e: its own, or its uptime placed with the anchor, or
 * EV_TIME_NONE (unknown yet). */
int64_t jvmclock_wall(const struct jvmclock *c, const struct event *e);
/* The same, with no call for an event that has its own wall clock (every
 * nginx line, every probe sample: the hot path of a report). */
static inline int64_t jvmclock_at(const struct jvmclock *c, const struct event *e)
{
	return e->t_ms != EV_TIME_NONE ? e->t_ms : jvmclock_wall(c, e);
}
/* Give e its wall clock: true, or false when it must wait (kept while there
 * is room if it has an uptime; counted unanchored either way). */
bool jvmclock_time(struct jvmclock *c, struct event *e);
/* Live: an uptime-only line was read at now_ms, as it was written (the first
 * such line, while no start is known, makes the guess). */
void jvmclock_guess(struct jvmclock *c, int64_t now_ms, int64_t up_us, const char *src_name);
/* The guess has waited long enough for a better start: take it (jvmclock_set
 * with ANCHOR_LIVE_LINE). */
bool jvmclock_guess_due(const struct jvmclock *c, int64_t mono_now_ms);

#endif
