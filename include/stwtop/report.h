/* report.h — the two printed views of a session: the JSON of DESIGN.md
 * ("Report JSON", a contract: extend, never rename) and the text an on-call
 * engineer pastes into the incident channel. Also the NDJSON objects of
 * --plain --json. */
#ifndef STWTOP_REPORT_H
#define STWTOP_REPORT_H

#include <stdio.h>

#include "stwtop/rules.h"
#include "stwtop/session.h"

/* Verdicts in the order a person reads an incident: by incident, the stop,
 * then its cause, then its cost; whole-run verdicts after. Fills idx[] with
 * indexes into session_rules(); returns how many. */
size_t report_order(const struct session *s, size_t *idx, size_t cap);

int report_json(FILE *out, const struct session *s);
int report_text(FILE *out, const struct session *s, bool color);

/* One verdict as a JSON object string (malloc'd), for NDJSON lines. */
char *report_verdict_json(const struct session *s, const struct verdict *v, const char *event);
/* One note (session_notes) as an NDJSON object string (malloc'd). */
char *report_note_json(const char *text);
/* The NDJSON status object of one interval (malloc'd). */
char *report_status_json(const struct session *s, int64_t now_ms);
/* One-line status for --plain (into buf). */
void report_status_line(const struct session *s, int64_t now_ms, char *buf, size_t len);

#define REPORT_JSON_SCHEMA 1   /* "schema" field of --plain --json objects */

#endif
