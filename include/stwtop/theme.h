/* SPDX-License-Identifier: GPL-2.0-or-later */
/* theme.h — colour themes of the dashboard: JSON files in themes/ that map
 * ROLES ("stop.ttsp", "verdict.crit", "cursor", ...) to a style, in the manner of
 * lnav's JSON themes and goaccess's colour roles. No curses here: the tui turns
 * a style into colour pairs; this module parses, validates, and degrades colours
 * to what the terminal has (256 -> 16 -> 8 -> none).
 *
 * File format (every key optional except "roles"):
 *   {"name": "default", "description": "...",
 *    "roles": {"stop.ttsp": {"fg": "#ff8700", "bg": "default", "bold": true}, ...}}
 * A colour is a name (black red green yellow blue magenta cyan white, bright-<name>,
 * or "default" = the terminal's own), an index 0-255, or "#rrggbb". Attributes:
 * bold, underline, reverse, dim (booleans). A role the file leaves out, and a
 * colour a role leaves out, take the "text" role's.
 */
#ifndef STWTOP_THEME_H
#define STWTOP_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum theme_role {
	TR_TEXT = 0,        /* ordinary text and the screen's background */
	TR_DIM,             /* secondary text: units, stale lines, hints */
	TR_TITLE,           /* pane titles */
	TR_FOCUS,           /* the focused pane's title */
	TR_BORDER,          /* rules and separators */
	TR_HEADER,          /* the top line */
	TR_STATUS,          /* the bottom line (keys) */
	TR_KEY,             /* key names in the footer and the help */
	TR_ERROR,           /* a source that cannot be read */
	TR_CURSOR,          /* the shared cursor column (its bg colours the column) */
	TR_SELECTED,        /* the selected verdict */
	TR_AXIS,            /* the time axis */
	TR_HEAP_COMMITTED,  /* committed heap (line and the unused part) */
	TR_HEAP_USED,       /* used after GC */
	TR_HEAP_MARKER,     /* Remark / Full: shrink triggers */
	TR_HEAP_PERIODIC,   /* periodic collections */
	TR_STOP_TTSP,       /* time to safepoint */
	TR_STOP_OP,         /* the VM operation itself */
	TR_CPU_THROTTLED,
	TR_CPU_WAIT,        /* run-queue wait (schedstat) */
	TR_CPU_ONCPU,
	TR_CPU_ALLOCSTALL,  /* direct reclaim markers */
	TR_UP_B0,           /* upstream connect ~0 s */
	TR_UP_B1,
	TR_UP_B2,
	TR_UP_B3,
	TR_UP_B4,           /* 4 s and more */
	TR_UP_5XX,
	TR_UP_P99,          /* p99 request time */
	TR_VERDICT_INFO,
	TR_VERDICT_WARN,
	TR_VERDICT_CRIT,
	TR_VERDICT_NEW,     /* the NEW mark of a verdict that just appeared */
	THEME_ROLE_COUNT
};

#define THEME_ATTR_BOLD      0x01u
#define THEME_ATTR_UNDERLINE 0x02u
#define THEME_ATTR_REVERSE   0x04u
#define THEME_ATTR_DIM       0x08u

enum theme_color_kind {
	THEME_COLOR_UNSET = 0,   /* not given: inherit from "text" */
	THEME_COLOR_DEFAULT,     /* the terminal's default colour */
	THEME_COLOR_INDEX,       /* 0-255 (0-15 are the named ones) */
	THEME_COLOR_RGB
};

struct theme_color {
	uint8_t kind;            /* enum theme_color_kind */
	uint8_t index;
	uint8_t r, g, b;
};

struct theme_style {
	struct theme_color fg, bg;
	unsigned attrs;          /* THEME_ATTR_* */
	bool set;                /* the file named this role */
};

struct theme {
	char name[64];
	char description[160];
	struct theme_style role[THEME_ROLE_COUNT];
};

const char *theme_role_name(int role);          /* "stop.ttsp"; NULL out of range */
int theme_role_from_name(const char *name);     /* -1 if unknown */

/* Parse a theme from JSON text. origin names it in errors (a path, "built-in").
 * 0, or -EINVAL with a message naming the key ("themes/x.json: role \"stop.ttsp\":
 * \"fg\": \"#12345\" is not a colour ..."). */
int theme_parse(struct theme *t, const char *json, size_t len, const char *origin, char *err,
		size_t errlen);
/* The same from a file (at most 256 KiB). 0, -errno (unreadable) or -EINVAL. */
int theme_load_file(struct theme *t, const char *path, char *err, size_t errlen);

/* "red", "bright-blue", "default", "208", "#ff8700". true if it is a colour. */
bool theme_color_parse(const char *s, size_t n, struct theme_color *out);
/* The colour to use on a terminal with ncolors colours (256, 88, 16, 8, 0):
 * an index below ncolors, nearest by RGB distance, or -1 for the terminal's
 * default (also for any colour when ncolors < 8). */
int theme_color_index(const struct theme_color *c, int ncolors);
/* The xterm RGB value of palette index i (0-255). */
void theme_index_rgb(int i, uint8_t rgb[3]);

/* Attributes a role gets when there is no colour at all (NO_COLOR, --no-color,
 * a monochrome terminal), on top of the theme's own: what keeps the screen
 * readable with bold/reverse/underline only. */
unsigned theme_nocolor_attrs(int role);

/* --- finding themes --- */

#define THEME_PATH_MAX 4096
#define THEME_MAX_DIRS 6
#define THEME_MAX_LIST 32

/* Where --theme NAME looks, in order: $STWTOP_THEME_DIR, $XDG_CONFIG_HOME (or
 * ~/.config)/stwtop/themes, ../share/stwtop/themes next to the binary, the
 * installed data dir, the source tree's themes/. Returns how many. */
int theme_search_dirs(char dirs[][THEME_PATH_MAX], int cap);
/* --theme ARG to a file: ARG itself when it contains a '/' or ends in ".json",
 * else NAME.json in the search dirs. 0, or -ENOENT with a message listing the
 * places looked at. */
int theme_resolve(const char *arg, char *path, size_t len, char *err, size_t errlen);
/* Names of the themes in the search dirs (first found wins), sorted with
 * "default" first; "default" is always listed (it is compiled in). */
int theme_list(char names[][64], int cap);

#endif
