/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_jvmlog.c — libFuzzer target for the JVM log parser (core/jvmlog*.c).
 * The input is split at '\n' and fed through one parser (so multi-line state:
 * open JDK 8 pauses, timeout reports, pending stats rows, anchors, restarts is
 * exercised), then every line again on a fresh parser with odd lengths (each
 * from an exact-size heap copy, so a read past len is an ASan error). The
 * first input byte picks a preset anchor and a too-small cap is never used:
 * the contract is cap >= JVMLOG_MAX_EVENTS. Last, the lines go through a
 * parser with its fast paths and one with jvmlog_set_general_only(): any
 * difference in events or learnt facts is a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/jvmlog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct event *ev, int r)
{
	if (r < JVMLOG_UNKNOWN || r > JVMLOG_MAX_EVENTS)
		abort();
	for (int i = 0; i < r; i++) {
		if (ev[i].kind == EV_NONE || ev[i].kind >= EV_KIND_COUNT)
			abort();
		if (ev[i].kind == EV_SP_TIMEOUT &&
		    memchr(ev[i].u.spt.threads, '\0', sizeof ev[i].u.spt.threads) == NULL)
			abort();
		if (ev[i].kind == EV_GC_PAUSE &&
		    memchr(ev[i].u.pause.title, '\0', sizeof ev[i].u.pause.title) == NULL)
			abort();
	}
}

static int parse_copy(struct jvmlog *p, const uint8_t *s, size_t n, struct event *ev)
{
	char *copy = malloc(n ? n : 1);
	int r;
	if (!copy)
		return 0;
	memcpy(copy, s, n);
	r = jvmlog_parse_line(p, copy, n, ev, JVMLOG_MAX_EVENTS);
	free(copy);
	return r;
}

/* fast paths vs the general reading, line by line on two parsers */
static void differential(const uint8_t *data, size_t size)
{
	struct event a[JVMLOG_MAX_EVENTS], b[JVMLOG_MAX_EVENTS];
	struct jvmlog *pf = jvmlog_new(), *pg = jvmlog_new();
	size_t i = 0;
	int ra, rb;
	if (!pf || !pg)
		goto out;
	jvmlog_set_general_only(pg, true);
	for (;;) {
		const uint8_t *nl = i < size ? memchr(data + i, '\n', size - i) : NULL;
		size_t e = nl ? (size_t)(nl - data) : size;
		memset(a, 0, sizeof a);
		memset(b, 0, sizeof b);
		if (i < size) {
			ra = parse_copy(pf, data + i, e - i, a);
			rb = parse_copy(pg, data + i, e - i, b);
		} else {
			ra = jvmlog_flush(pf, a, JVMLOG_MAX_EVENTS);
			rb = jvmlog_flush(pg, b, JVMLOG_MAX_EVENTS);
		}
		if (ra != rb || (ra > 0 && memcmp(a, b, sizeof a[0] * (size_t)ra) != 0) ||
		    jvmlog_collector(pf) != jvmlog_collector(pg) ||
		    jvmlog_jdk_release(pf) != jvmlog_jdk_release(pg))
			abort();
		if (i >= size)
			break;
		i = e + 1;
	}
out:
	jvmlog_free(pf);
	jvmlog_free(pg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event ev[JVMLOG_MAX_EVENTS];
	struct jvmlog *p = jvmlog_new();
	size_t i = 0;
	if (!p)
		return 0;
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t e = nl ? (size_t)(nl - data) : size;
		check(ev, parse_copy(p, data + i, e - i, ev));
		i = e + 1;
	}
	check(ev, jvmlog_flush(p, ev, JVMLOG_MAX_EVENTS));
	jvmlog_free(p);

	/* single lines with odd lengths on a fresh parser */
	p = jvmlog_new();
	if (!p)
		return 0;
	i = 0;
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t e = nl ? (size_t)(nl - data) : size;
		size_t n = e - i;
		check(ev, parse_copy(p, data + i, n / 2, ev));
		check(ev, parse_copy(p, data + i, n > 0 ? n - 1 : 0, ev));
		check(ev, parse_copy(p, data + i, (n & 1) ? n : (n ? n - 1 : 0), ev));
		i = e + 1;
	}
	jvmlog_free(p);
	differential(data, size);
	return 0;
}
