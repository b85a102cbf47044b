/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.h — the two printed views of a session: the JSON of docs/report-json.md
 * ("Report JSON", a contract: extend, never rename) and the text an on-call
 * engineer pastes into the incident channel. Also the NDJSON objects of
 * --plain --json. */
#ifndef STWTOP_REPORT_H
#define STWTOP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "stwtop/rules.h"
#include "stwtop/session.h"

/* The order of the verdicts and the incidents they make are the rules'
 * (rules.h: rules_order(), rules_incidents()): every view reads them there. */

int report_json(FILE *out, const struct session *s);
/* v as the report's JSON writes a real (jansson's dump with
 * JSON_REAL_PRECISION(12)): its length, 0 if it does not fit in len */
size_t report_fmt_real(double v, char *buf, size_t len);
/* Would jansson take s[0..n) as a string (json_stringn: valid UTF-8 by its
 * own rules)? The report writes a verdict's texts itself and sanitises those
 * jansson would refuse, as it does for the texts it gives jansson. */
bool report_text_ok(const char *s, size_t n);
int report_text(FILE *out, const struct session *s, bool color);
/* --report --brief (brief.c): at most BRIEF_MAX_LINES lines, no colour, for a
 * chat: the time range and sources; each incident's headline verdict (the
 * worst incidents when they do not all fit, and how many more); the whole-run
 * verdicts; one line of numbers; what could not be checked, or "nothing
 * abnormal" exactly when report_text says it. */
#define BRIEF_MAX_LINES 12
int report_brief(FILE *out, const struct session *s);

/* One verdict as a JSON object string (malloc'd), for NDJSON lines. */
char *report_verdict_json(const struct session *s, const struct verdict *v, const char *event);
/* One note (session_notes) as an NDJSON object string (malloc'd). */
char *report_note_json(const char *text);
/* What the status lines have said about requests so far: nginx logs a
 * request when it ends, so a status reports the start seconds that are
 * settled (timeline_req_settled_sec) and not reported yet, each once, and
 * summing the statuses of a run gives the access log's counts. Zeroed
 * (report_status_init) before the first status; each status moves it on. */
struct report_status_mark {
	int64_t to_sec;                   /* newest start second reported; EV_TIME_NONE none yet */
	struct tl_req_count told;         /* requests counted in the statuses printed so far */
};
void report_status_init(struct report_status_mark *m);
/* The NDJSON status object of one interval (malloc'd). */
char *report_status_json(const struct session *s, int64_t now_ms, struct report_status_mark *m);
/* One-line status for --plain (into buf). */
void report_status_line(const struct session *s, int64_t now_ms, struct report_status_mark *m, char *buf,
			size_t len);

#define REPORT_JSON_SCHEMA 1   /* "schema" field of --plain --json objects */

#endif
