/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nginx.h — nginx access log lines to EV_HTTP events, driven by the log_format.
 *
 * A log_format string is compiled into a matcher (literals and variables, with
 * the escaping nginx applies: default \xHH, escape=json, escape=none). The
 * format can come from --nginx-format, from an nginx.conf (--nginx-conf
 * FILE[:NAME], following include and multi-line quoted strings), or be
 * detected from the first lines (combined, combined + key=value timings).
 * Pure parsing: no I/O except nginx_conf_load.
 */
#ifndef STWTOP_NGINX_H
#define STWTOP_NGINX_H

#include <stdbool.h>
#include <stddef.h>
#include "stwtop/event.h"

struct nginx_fmt;

/* Compile a log_format string (the text between the quotes, concatenated).
 * NULL on error with a one-line reason in err. */
struct nginx_fmt *nginx_fmt_compile(const char *fmt, size_t len, char *err, size_t errlen);
void nginx_fmt_free(struct nginx_fmt *f);
/* nginx's built-in "combined" format */
struct nginx_fmt *nginx_fmt_combined(void);
/* The format string it was compiled from (NUL-terminated). */
const char *nginx_fmt_string(const struct nginx_fmt *f);

/* Read the log_format NAME from an nginx config file (includes followed,
 * relative to the config's directory). NAME NULL or "": the only log_format, or
 * the one used by the first access_log. Returns a malloc'd format string, or
 * NULL with a one-line reason in err. */
char *nginx_conf_load(const char *path, const char *name, char *err, size_t errlen);

/* Why a line did not match (for the first-failure message and verbose mode). */
struct nginx_miss {
	size_t offset;        /* byte offset in the line where matching failed */
	char expected[64];    /* "literal ' uct=\"'" or "variable $status" */
};

/* Parse one line (no trailing newline). Returns true and fills *out (EV_HTTP)
 * on a match; false with *why filled (why may be NULL) otherwise. */
bool nginx_parse_line(const struct nginx_fmt *f, const char *line, size_t len,
		      struct event *out, struct nginx_miss *why);

/* Guess a format from sample lines (e.g. the first 20 of a file): combined,
 * combined + key=value fields (rt= uct= uht= urt= ...), or a leading $msec.
 * NULL if nothing fits most of the lines. */
struct nginx_fmt *nginx_fmt_detect(const char *const *lines, const size_t *lens, int n);

/* ---- additions (the functions above are the fixed interface) ---- */

/* Sniffing a source's format when none was given: its first lines are kept
 * (copies) until there are NGINX_SNIFF_LINES of them, or the caller decides
 * with fewer (a quiet log, a short file); then they are parsed with the
 * format chosen, in order. nginx_sniff.c. */
#define NGINX_SNIFF_LINES 20
struct nginx_sniff {
	char *buf[NGINX_SNIFF_LINES];
	size_t len[NGINX_SNIFF_LINES];
	int n;
};
/* Keep a copy of line (dropped when out of memory); true once enough lines
 * are kept to decide. */
bool nginx_sniff_add(struct nginx_sniff *sn, const char *line, size_t len);
/* The format the kept lines fit (nginx_fmt_detect), else combined; NULL only
 * when out of memory. The lines stay for the caller to parse. */
struct nginx_fmt *nginx_sniff_decide(const struct nginx_sniff *sn);
/* Free the kept lines (the struct can be used again). */
void nginx_sniff_fini(struct nginx_sniff *sn);

/* nginx_fmt_detect also recognises escape=json objects and any layout of
 * tokens / key=value pairs whose keys or shapes name the fields; it only
 * returns a format that yields a status and a time (so a GC log is not taken
 * for an access log). nginx_fmt_string() of the result is the log_format it
 * built, to show the user. */

/* A format string may start with the escaping nginx's log_format was given,
 * "escape=json " / "escape=none " / "escape=default " (one space, then the
 * format). nginx_conf_load writes it that way; it only changes how quoted
 * values are delimited (default \xHH never leaves a raw '"' in a value). */

/* What a compiled format can deliver (bits of nginx_fmt_fields()). */
#define NGINX_F_TIME        0x001  /* $msec, $time_local or $time_iso8601 */
#define NGINX_F_TIME_EXACT  0x002  /* $msec (millisecond end time) */
#define NGINX_F_STATUS      0x004
#define NGINX_F_RT          0x008  /* $request_time */
#define NGINX_F_UCT         0x010  /* $upstream_connect_time */
#define NGINX_F_UHT         0x020  /* $upstream_header_time */
#define NGINX_F_URT         0x040  /* $upstream_response_time */
#define NGINX_F_USTATUS     0x080  /* $upstream_status */
#define NGINX_F_RID         0x100  /* $request_id */
#define NGINX_F_UADDR       0x200  /* $upstream_addr */
#define NGINX_F_REQUEST     0x400  /* $request */
unsigned nginx_fmt_fields(const struct nginx_fmt *f);

/* One line for verbose mode: escaping, the variables that give fields and
 * those matched but ignored. Returns bytes written (always NUL-terminated). */
size_t nginx_fmt_describe(const struct nginx_fmt *f, char *buf, size_t len);

/* The first-failure message: "expected literal ' uct=\"' at byte 112 (line
 * has 'uct=0.000 u…')" or "variable $status expects a 3-digit number at byte
 * 40 (…)". line/len is the line that failed (for the excerpt; may be NULL). */
size_t nginx_miss_describe(const struct nginx_miss *why, const char *line, size_t len,
			   char *buf, size_t buflen);

/* --nginx-conf FILE[:NAME]: NAME is what follows the last ':' when FILE alone
 * is not an existing file (so "/etc/my:conf" still names a file). */
char *nginx_conf_load_spec(const char *spec, char *err, size_t errlen);

/* nginx_conf_load on a config already in memory (what nginx_conf_load uses,
 * and what the fuzzer drives). label names it in messages ("nginx.conf");
 * relative includes are resolved against dir (NULL: includes are skipped and
 * reported if the format is then not found). */
char *nginx_conf_parse_mem(const char *buf, size_t len, const char *label, const char *dir,
			   const char *name, char *err, size_t errlen);

/* --nginx-conf FILE without :NAME: the formats the config writes to the
 * access log at log (its access_log lines whose path is that file, relative
 * to the config's directory, or failing that whose file name it has, rotated
 * names included), in the config's order: n_for of them; then every other
 * log_format of the config and combined, so lines of a second format (a
 * reload changed it, two access_log lines write one file) can be read.
 * 0, or -1 with a one-line reason in err (unreadable, not nginx syntax). */
#define NGINX_CONF_MAX_FMTS 16
struct nginx_conf_fmts {
	int n, nfor;
	char *name[NGINX_CONF_MAX_FMTS];
	char *fmt[NGINX_CONF_MAX_FMTS];  /* as nginx_conf_load returns them */
};
int nginx_conf_formats_for(const char *path, const char *log, struct nginx_conf_fmts *out, char *err,
			   size_t errlen);
void nginx_conf_fmts_fini(struct nginx_conf_fmts *f);

/* nginx_parse_line without its fast path: only the backtracking matcher.
 * nginx_parse_line first walks the format once, each variable taking the end
 * the matcher would try first, and runs the matcher only when that walk
 * fails; the results are the same by construction. This is here so the unit
 * tests and the fuzzer can check that they are. */
bool nginx_parse_line_full(const struct nginx_fmt *f, const char *line, size_t len,
			   struct event *out, struct nginx_miss *why);

#endif
