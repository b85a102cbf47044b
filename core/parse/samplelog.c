/* SPDX-License-Identifier: GPL-2.0-or-later */
/* samplelog.c — schedstat.log and vmstat.log of the recorded samples
 * (include/stwtop/samplelog.h; format in tests/samples/combined/README.md, written
 * by the samples' sampler.py/cgsample.py). The schedstat rows go through the same
 * per-thread delta rules as the live probe (schedacc.c). */
#include "stwtop/samplelog.h"

#include "stwtop/cpustat.h"
#include "stwtop/procstat.h"
#include "stwtop/schedacc.h"
#include "stwtop/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct schedlog {
	struct schedacc acc;
	int64_t group_t;      /* epoch_ms of the sample being collected */
	bool open;            /* a sample has rows */
	bool flushed;         /* the group_t sample was ended by schedlog_flush */
};

struct schedlog *schedlog_new(void)
{
	struct schedlog *s = calloc(1, sizeof *s);
	if (s)
		schedacc_init(&s->acc);
	return s;
}

void schedlog_free(struct schedlog *s)
{
	if (!s)
		return;
	schedacc_fini(&s->acc);
	free(s);
}

/* last comma in s[0..n) */
static const char *last_comma(const char *s, size_t n)
{
	while (n > 0) {
		if (s[n - 1] == ',')
			return s + n - 1;
		n--;
	}
	return NULL;
}

static bool field_u64(const char *s, size_t n, uint64_t *v)
{
	return n > 0 && util_parse_u64(s, n, v) == n;
}

int schedlog_parse_line(struct schedlog *s, const char *line, size_t len, struct event *out)
{
	uint64_t t, tid, run, wait, slices;
	const char *c1, *c2, *c5, *c4, *c3;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\r'))
		len--;
	if (len == 0 || util_starts_with(line, len, "epoch_ms,"))
		return 0;
	/* epoch_ms and tid from the left, the three counters from the right: comm may
	 * hold anything (the sampler replaced commas, but a hand-made log may not) */
	c1 = memchr(line, ',', len);
	if (!c1)
		return -EINVAL;
	c2 = memchr(c1 + 1, ',', len - (size_t)(c1 + 1 - line));
	c5 = last_comma(line, len);
	c4 = c5 ? last_comma(line, (size_t)(c5 - line)) : NULL;
	c3 = c4 ? last_comma(line, (size_t)(c4 - line)) : NULL;
	if (!c2 || !c3 || c3 <= c2) /* c3 == c2: no comm field at all */
		return -EINVAL;
	if (!field_u64(line, (size_t)(c1 - line), &t) || !field_u64(c1 + 1, (size_t)(c2 - c1 - 1), &tid) ||
	    !field_u64(c3 + 1, (size_t)(c4 - c3 - 1), &run) || !field_u64(c4 + 1, (size_t)(c5 - c4 - 1), &wait) ||
	    !field_u64(c5 + 1, len - (size_t)(c5 + 1 - line), &slices) || tid > INT32_MAX || t > INT64_MAX)
		return -EINVAL;

	int r = 0;
	/* a row of a sample that was already ended (live: it looked complete after
	 * a quiet second): its interval is out; the thread's next one counts it */
	if (!s->open && s->flushed && (int64_t)t == s->group_t)
		return 0;
	if (s->open && (int64_t)t != s->group_t) {
		r = schedacc_end(&s->acc, s->group_t, out);
		s->open = false;
	}
	if (!s->open) {
		s->flushed = false;
		schedacc_begin(&s->acc);
		s->group_t = (int64_t)t;
		s->open = true;
	}
	if (schedacc_add(&s->acc, (int32_t)tid, run, wait, c2 + 1, (size_t)(c3 - c2 - 1)) < 0)
		return -ENOMEM;
	return r;
}

int schedlog_flush(struct schedlog *s, struct event *out)
{
	if (!s->open)
		return 0;
	s->open = false;
	s->flushed = true;
	return schedacc_end(&s->acc, s->group_t, out);
}

bool schedlog_open(const struct schedlog *s)
{
	return s && s->open;
}

bool vmstatlog_parse_line(const char *line, size_t len, struct event *out)
{
	int64_t t;
	size_t k = cpustat_parse_time(line, len, &t);
	if (k == 0 || (k < len && line[k] != ' ' && line[k] != '\t'))
		return false;
	ev_init(out, EV_VMSTAT);
	out->t_ms = t;
	return procstat_vmstat(line + k, len - k, &out->u.vm);
}
