/* SPDX-License-Identifier: GPL-2.0-or-later */
/* app.h — glue between the command line and the engines: builds the session
 * from the options (or from discovery), picks the view (curses or plain), and
 * finds the bundled demo. */
#ifndef STWTOP_APP_H
#define STWTOP_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stwtop/cli.h"
#include "stwtop/live.h"
#include "stwtop/rules.h"
#include "stwtop/session.h"

/* --report with --pid: the process start anchors uptime-only logs. 0 or -1 with err. */
int app_add_probes_once(struct session *s, const struct cli *c, char *err, size_t errlen);
/* --verbose: say why a line did not parse, on stderr, at most
 * APP_VERBOSE_MAX times per source (then once that the rest are not shown). */
#define APP_VERBOSE_MAX 100
void app_on_unparsed(void *ctx, int src, const char *name, uint64_t line, const char *why);
/* live dashboard, plain line mode, or the demo; returns the exit code */
int app_run_live(const struct cli *c, const struct rules_config *rc);

/* Which sources cannot be read right now, from the engine's notes: the last
 * note of each says. A live run exits 1 when one is unreadable as it ends (a
 * directory, no permission, a probe that did not open); one that came right
 * later (the directory replaced by a log), or a file that does not exist yet
 * and is waited for, is not an error. */
#define APP_HEALTH_MAX 64
struct app_health {
	bool bad[APP_HEALTH_MAX];
};
/* a note about source src (-1: not about a source) reached the view; inline:
 * the views below app.c record into it without calling up (docs/architecture.md) */
static inline void app_health_note(struct app_health *h, int src, bool is_error)
{
	if (h && src >= 0 && src < APP_HEALTH_MAX)
		h->bad[src] = is_error;
}

/* plain.c: verdicts and one status line per interval on stdout */
int plain_run(struct live *l, struct session *s, const struct cli *c, struct app_health *h);

/* picker.c: several JVMs and no --pid: a full-screen list to choose one from.
 * Returns the pid chosen (> 0), 0 when the user quit (q, Esc, Ctrl-C, the
 * terminal gone; the terminal is given back), -1 when there is no usable
 * terminal (why says). On a choice the terminal stays started in *term, for
 * ui_run to take over (struct ui_info.term). */
struct ui_term;
int picker_run(struct ui_term *term, const char *root, char *why, size_t whylen);

/* ui.c: the curses dashboard. Returns -1 (with a reason in why) when there is no
 * usable terminal, so the caller can fall back to plain mode. */
struct ui_info {
	const char *demo_title;     /* NULL unless --demo */
	struct app_health *health;  /* the view's notes go here */
	/* the JVM watched, as discovery knows it (--pid, or the one found) */
	int pid;                    /* 0: none known */
	char jvm_main[256];         /* its main class, "-jar app.jar" or "-m mod/cls"; "" unknown */
	int64_t jvm_start_ms;       /* its start, UTC epoch ms; 0 unknown */
	/* a terminal already started (the picker's): ui_run takes it over and ends
	 * it, also when it fails; NULL: ui_run starts its own */
	struct ui_term *term;
};
int ui_run(struct live *l, struct session *s, const struct cli *c, const struct ui_info *info,
	   char *why, size_t whylen);

#endif
