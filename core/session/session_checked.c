/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session_checked.c — what the input let stwtop check (session.h:
 * session_checked): per source read or not, empty or not, understood or not,
 * so that a report never says "nothing abnormal" about input it could not
 * read (a missing file) or did not understand (a binary, an IBM/OpenJ9
 * verbose GC log, an nginx log in another format). */
#include "session_internal.h"

#include <stdio.h>
#include <string.h>

const char *src_checked_name(enum src_checked c)
{
	switch (c) {
	case SRC_CHECKED_YES: return "yes";
	case SRC_CHECKED_UNREADABLE: return "unreadable";
	case SRC_CHECKED_EMPTY: return "empty";
	case SRC_CHECKED_NOT_UNDERSTOOD: return "not-understood";
	}
	return "yes";
}

static bool mostly_unread(uint64_t unparsed, uint64_t lines)
{
	return lines > 0 && (double)unparsed > SESSION_UNREAD_SHARE * (double)lines;
}

enum src_checked session_source_checked(const struct session *s, int i)
{
	const struct source *src = s->src[i];
	const struct source_stats *st = &src->st;
	if (st->error)                /* a probe too: --report --pid whose counters could not be read */
		return SRC_CHECKED_UNREADABLE;
	if (src->kind == SRC_PROBE)
		return SRC_CHECKED_YES;   /* polled, no file: its samples are what it has */
	if (st->lines == 0)
		return SRC_CHECKED_EMPTY;
	if (!src->ops->jvm)
		return mostly_unread(st->unparsed, st->lines) ? SRC_CHECKED_NOT_UNDERSTOOD : SRC_CHECKED_YES;
	/* the JVM sources together (a console log beside a GC log: session.h):
	 * the JVM was read when one of them was mostly understood and gave
	 * events (blank lines parse to nothing and do not make a text a JVM
	 * log); a console of application lines beside it is then fine */
	for (int k = 0; k < s->nsrc; k++) {
		const struct source *o = s->src[k];
		if (o->ops->jvm && !o->st.error && o->st.events > 0 && !mostly_unread(o->st.unparsed, o->st.lines))
			return SRC_CHECKED_YES;
	}
	return SRC_CHECKED_NOT_UNDERSTOOD;
}

/* what the lines of a kind should have been */
static void why_one(const struct session *s, int i, enum src_checked c, char *out, size_t len)
{
	const struct source *src = s->src[i];
	const struct source_stats *st = &src->st;
	switch (c) {
	case SRC_CHECKED_UNREADABLE: {
		/* the reader's note is "path: reason": the reason alone */
		const char *why = st->note;
		size_t pl = strlen(src->path);
		if (strncmp(why, src->path, pl) == 0 && why[pl] == ':' && why[pl + 1] == ' ')
			why += pl + 2;
		snprintf(out, len, "%s could not be read (%s)", src->name, why[0] ? why : "unknown error");
		break;
	}
	case SRC_CHECKED_EMPTY:
		snprintf(out, len, "%s is empty", src->name);
		break;
	case SRC_CHECKED_NOT_UNDERSTOOD:
		if (src->looks)
			snprintf(out, len, "%s looks like %s, which stwtop does not read (%llu of %llu lines)",
				 src->name, src->looks, (unsigned long long)st->unparsed, (unsigned long long)st->lines);
		else
			snprintf(out, len, "%llu of %llu lines of %s were not %s", (unsigned long long)st->unparsed,
				 (unsigned long long)st->lines, src->name,
				 src->ops->expected ? src->ops->expected : "what stwtop reads");
		break;
	case SRC_CHECKED_YES:
		out[0] = '\0';
		break;
	}
}

void session_checked(const struct session *s, struct session_checked *out)
{
	memset(out, 0, sizeof *out);
	out->complete = true;
	bool any_checked = false;
	for (int i = 0; i < s->nsrc; i++) {
		enum src_checked c = session_source_checked(s, i);
		if (c == SRC_CHECKED_YES) {
			any_checked = true;
			continue;
		}
		out->complete = false;
		if (out->nwhy < SESSION_CHECKED_MAX_WHY)
			why_one(s, i, c, out->why[out->nwhy++], SESSION_CHECKED_WHY_LEN);
	}
	out->nothing = !out->complete && !any_checked;
}
