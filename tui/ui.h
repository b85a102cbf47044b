/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui.h — internals of the curses dashboard, shared by tui/ui*.c and tui/pane_*.c.
 *
 * One frame: ui_frame() lays the panes out for the terminal's size, fixes the
 * shared time axis (struct view_axis: every chart pane uses the same columns,
 * so one instant is one screen column everywhere), and asks each visible pane
 * to draw itself from the store (view.h) into stdscr; one doupdate() sends the
 * difference. Nothing here keeps a copy of the data.
 */
#ifndef STWTOP_UI_H
#define STWTOP_UI_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "app.h"
#include "stwtop/live.h"
#include "stwtop/session.h"
#include "stwtop/theme.h"
#include "stwtop/view.h"

/* compiled in by cmake/embed.cmake (gen/embed_*.c) */
extern const unsigned char embed_theme_default[];
extern const size_t embed_theme_default_len;
extern const unsigned char embed_terminfo_xterm256[];
extern const size_t embed_terminfo_xterm256_len;

enum pane_id { PANE_VERDICTS = 0, PANE_STOPS, PANE_CPU, PANE_UPSTREAM, PANE_HEAP, PANE_LINES, PANE_COUNT };

#define UI_MAX_VERDICTS 256  /* verdicts the screen orders and shows */

enum ui_layout { LAYOUT_FULL, LAYOUT_COMPACT, LAYOUT_SUMMARY };

struct rect {
	int y, x, h, w;
};

/* A role's curses form, after the theme met the terminal's colours. */
struct ui_style {
	attr_t attr;
	short pair;
	int fg, bg;              /* palette indexes, -1 = terminal default */
};

/* a verdict's first sighting, for the NEW mark */

/* terminal setup state (ui_term.c) */
struct ui_term {
	char ti_dir[512];        /* temporary terminfo dir of the embedded fallback, "" if none */
	char log_path[512];      /* where stderr goes while curses owns the screen */
	long log_from;           /* its size before this run: this run's messages start there */
	long log_hdr;            /* bytes of this run's header line in it */
	int saved_stderr;        /* -1 when not redirected */
	char fallback_from[64];  /* $TERM that had no entry when the built-in one is used, else "" */
	bool term_unset;         /* TERM was unset or empty (kubectl exec -it): the built-in one is used */
	SCREEN *scr;
};

struct ui {
	struct live *l;
	struct session *s;
	const struct cli *c;
	const struct ui_info *info;
	struct ui_term term;
	bool demo;

	/* terminal abilities */
	bool utf8;               /* the locale's codeset is UTF-8: Unicode glyphs */
	bool color;              /* colours are drawn (terminal has them, NO_COLOR unset, theme uses them) */
	bool fine;               /* 1/8-cell bars with two colours per cell (utf8, colour, 16+ colours) */
	bool default_colors;     /* use_default_colors() worked: -1 is the terminal's colour */
	bool color_started;
	int ncolors;

	/* theme */
	struct theme theme;
	char themes[THEME_MAX_LIST][64];
	int nthemes, theme_i;
	struct ui_style st[THEME_ROLE_COUNT];
	struct { int fg, bg; short pair; } pairs[256];
	int npairs;

	/* the shared time axis and cursor */
	int64_t res_ms;          /* time per column */
	int64_t cursor_ms;
	int64_t view_end;        /* exclusive end of the last column when not following */
	bool follow;             /* cursor on the newest data, view advancing */
	bool paused;             /* the view does not move (the demo's replay stops too) */
	int64_t clock_ms;        /* the clock to show: wall, or the replay's */
	bool demo_done;

	/* panes */
	int focus;               /* enum pane_id */
	bool tall[PANE_COUNT];   /* Enter on a chart pane: give it the spare rows */
	size_t vsel;             /* selected verdict: position in the pane's order */
	bool vexpand;            /* the selected verdict shows evidence and advice */
	int vscroll;
	int lines_src;           /* Lines pane source filter, -1 = all */
	bool lines_wrap;
	int lines_back;          /* Lines pane scrolled back by this many rows */
	bool help;
	bool help_notes;         /* the help's box shows the notes whole (the i key), not the keys */
	int help_top;            /* the help's first row shown (it scrolls when cut) */
	int help_max_top;        /* computed by the last frame: 0 when it all fits */
	int help_view;           /* ... and how many rows it shows */

	struct verdict_scratch *vscratch;   /* pane_verdicts.c's per-frame texts */

	/* verdict sightings */

	/* redraw scheduling */
	int redraw_timer;        /* one-shot loop timer: coalesces changes into one frame */
	bool redraw_armed;
	int new_timer;           /* one-shot: when the next NEW mark expires */
	int64_t last_frame_mono;
	bool quit;

	/* search in the Lines pane (ui_go.c) */
	bool prompt;             /* the footer is the search prompt: keys go to it */
	char query[128];         /* what is typed at the prompt (UTF-8) */
	char search[128];        /* the last search made: n and N repeat it */
	uint64_t match_ref;      /* the line it found (TL_LINE_REF) ... */
	int64_t match_t;         /* ... at this time, EV_TIME_NONE: none */

	/* L asked "Turn on GC + safepoint logging in JVM PID?": y does it, any other key not */
	bool confirm_log;
	bool confirm_leftover;   /* L found an output an earlier stwtop left: t / r asked */

	/* a message in the footer until msg_until (monotonic ms) */
	char msg[240];
	int64_t msg_until;
	bool msg_error;
	bool msg_sticky;         /* until the next key (ui_message_sticky) */
	/* a routine message that came while a sticky one showed: shown after the
	 * key that dismisses it (the newest one; an error replaces the sticky one) */
	char msg_next[240];
	int64_t msg_next_ms;

	/* computed by the last frame */
	enum ui_layout layout;
	struct rect pane[PANE_COUNT];
	bool shown[PANE_COUNT];
	struct view_axis axis;   /* chart columns: x = chart_x + column */
	int chart_x, chart_w;    /* chart area (all chart panes) */
	int side_x, side_w;      /* numbers column right of the charts (0 wide in compact) */
	int axis_y;              /* the time axis row, -1 none */
	size_t vorder[UI_MAX_VERDICTS];   /* verdicts in display order (indexes into session_rules), newest first */
	size_t nv;
};

#define UI_NEW_MS 10000      /* a verdict is NEW this long after it appeared */
#define UI_FLASH_MS 1500     /* ... and flashes for this long */

/* --- ui_term.c: the terminal --- */

/* Can curses draw here? 0, or -1 with the reason in why (then line mode). Sets
 * TERM/TERMINFO to the embedded xterm-256color entry when $TERM has none. */
int ui_term_probe(struct ui_term *t, char *why, size_t whylen);
/* newterm and modes; stderr into a log file. 0 or -1 with why. */
int ui_term_start(struct ui_term *t, char *why, size_t whylen);
/* endwin, delscreen, stderr back, temporary terminfo removed; says where the log is */
void ui_term_end(struct ui_term *t);
/* the terminal's size changed (SIGWINCH arrives through the loop's signalfd) */
void ui_term_resize(void);

/* --- ui_draw.c: styles and drawing primitives --- */

/* theme -> styles and colour pairs for this terminal */
void ui_apply_theme(struct ui *ui);
/* Text at (y, x) clipped to w columns (UTF-8 in, display width aware); returns
 * columns used. Non-ASCII becomes '?' when the locale is not UTF-8. */
int ui_text(struct ui *ui, int y, int x, int w, int role, const char *s);
int ui_textf(struct ui *ui, int y, int x, int w, int role, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Text in w columns, cut where a word ends with an ellipsis when it does not
 * fit (never inside a number); returns columns used. */
int ui_text_cut(struct ui *ui, int y, int x, int w, int role, const char *s);
/* where ui_text_cut cuts s for w columns (the ellipsis' column included): bytes kept */
size_t ui_cut_at_word(const struct ui *ui, const char *s, int w);
/* the display width of UTF-8 text (as ui_text would draw it) */
int ui_text_width(const struct ui *ui, const char *s);
/* text in one role's foreground on another role's background (a badge on the header bar) */
int ui_text2(struct ui *ui, int y, int x, int w, int fg_role, int bg_role, const char *s);
/* one cell: a wide glyph with a role's attributes and explicit colours */
void ui_cell(struct ui *ui, int y, int x, wchar_t ch, const char *ascii, int role, int fg, int bg);
/* fill a row segment with a role's background */
void ui_fill(struct ui *ui, int y, int x, int w, int role);
/* a pane's title row "─ Title ──────": returns the column after the title, where
 * the pane writes its legend and readout */
int ui_title(struct ui *ui, const struct rect *r, const char *title, bool focused);
/* the title row's readout, right-aligned, cut with an ellipsis before xmin */
void ui_readout(struct ui *ui, const struct rect *r, int xmin, int role, const char *text);
/* what a chart's colours mean: "▆ label" entries in the title row */
struct ui_legend {
	int role;
	const char *label, *brief;   /* brief: for narrow screens */
};
/* The rest of a title row from x: legends (full, brief, or as many as fit) and
 * the readout of the values at the cursor, right-aligned. */
void ui_title_row(struct ui *ui, const struct rect *r, int x, const struct ui_legend *lg, int n, int role,
		  const char *readout);
/* a centred hint in an empty pane */
void ui_empty(struct ui *ui, const struct rect *r, const char *text);
/* Word-wrap UTF-8 text to width w: calls fn for each line piece. Returns lines. */
typedef void (*ui_wrap_fn)(void *ctx, int line, const char *s, size_t n);
int ui_wrap(const struct ui *ui, const char *s, int w, ui_wrap_fn fn, void *ctx);

/* a stacked bar in one chart column: seg[k] eighths of a cell from the bottom
 * up, in roles[k]; cursor: this is the cursor's column */
void ui_bar(struct ui *ui, int ybottom, int x, int rows, const int *seg, const int *roles, int nseg,
	    bool cursor);
/* y-axis label right-aligned in the gutter left of the chart */
void ui_ylabel(struct ui *ui, int y, const char *s);
/* formats */
char *ui_fmt_time(const struct ui *ui, int64_t t, int decimals, char *buf, size_t len);
/* a verdict's or a note's text for the screen: its times (time tokens,
 * util_expand_times) in the zone shown, without the offset (the axis names the
 * zone once), then sanitised (it quotes log content); dst >= 4 * n bytes */
size_t ui_verdict_text(char *dst, size_t dstlen, const char *raw, size_t n);
/* the zone of the screen's times, at most 5 columns: "UTC", or the offset at t
 * ("+01", "+0530", "-05") */
const char *ui_zone_label(int64_t t, char *buf, size_t len);
char *ui_fmt_ms(double ms, char *buf, size_t len);      /* "701 ms", "3.1 s", "850 us" */
char *ui_fmt_count(double v, char *buf, size_t len);    /* "243", "1.2k", "3.4M" */
char *ui_fmt_ms_short(double ms, char *buf, size_t len); /* at most 5 columns: "930ms", "1.2s" */

/* --- ui.c --- */

int64_t ui_mono(void);
bool ui_verdict_is_new(const struct ui *ui, const struct verdict *v, bool *flash);
/* cursor column of the shared axis (may be outside [0, ncols) only transiently) */
int ui_cursor_col(const struct ui *ui);
void ui_message(struct ui *ui, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* the same for ms milliseconds */
void ui_message_for(struct ui *ui, int64_t ms, bool error, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* an important message: on the footer until the next key, not replaced by routine ones */
void ui_message_sticky(struct ui *ui, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Put every pane's cursor at t (clamped to the data), leaving follow; center:
 * the view moves so t is a third from the left. */
void ui_set_cursor(struct ui *ui, int64_t t, bool center);

/* --- ui_go.c: the keys that go somewhere or write something --- */

/* [ ] : the previous / next incident (as the report numbers them) */
void ui_act_incident(struct ui *ui, int dir);
/* / (0) opens the search prompt; n (1) and N (-1) repeat the last search forward / back */
void ui_act_search(struct ui *ui, int dir);
/* a key while the prompt is open: typed, Backspace, Enter searches, Esc cancels */
void ui_prompt_key(struct ui *ui, bool fkey, wint_t ch);
/* w: the report of everything read so far into a file */
void ui_act_write(struct ui *ui, int arg);

/* The key table (ui.c): one row per key or pair of keys, read by the dispatch,
 * the ? help and the footer. */
#define UI_FN(k) (-(int)(k))   /* a curses function key (KEY_LEFT ...): negative, so no character is one */
struct ui_binding {
	int code;                 /* a character, or UI_FN(KEY_...); 0 ends the list */
	int arg;                  /* given to the action: a direction, a number of columns */
};
struct ui_key {
	const char *label, *label_ascii;   /* the keys as ? names them; NULL: not in the help */
	const char *what;                  /* what ? says they do */
	const char *foot, *foot_ascii, *foot_what;   /* the footer's short form; NULL: not there */
	int foot_small;                    /* place in a tiny screen's footer (1 first), 0: not there */
	void (*act)(struct ui *ui, int arg);
	struct ui_binding keys[6];
};
extern const struct ui_key ui_keys[];
extern const size_t ui_nkeys;

/* --- ui_frame.c: the whole screen --- */

void ui_frame(struct ui *ui);

/* --- panes (tui/pane_*.c) --- */

/* What a pane is given for one frame (ui_frame.c fills it once, after the
 * layout and the time axis are fixed), so a pane asks ui.c for nothing. The
 * ui pointer is there for the drawing primitives (ui_draw.c) and for the
 * scroll and selection state the keys move (vsel, vscroll, lines_back ...). */
struct pane_ctx {
	struct ui *ui;
	const struct session *s;
	enum ui_layout layout;
	int focus;                      /* enum pane_id */
	const struct view_axis *axis;   /* the shared columns: x = chart_x + column */
	int cursor_col;                 /* the cursor's column on it */
	int chart_x, chart_w;           /* chart area (all chart panes) */
	int side_x, side_w;             /* numbers column right of the charts (0 wide in compact) */
	/* per position in ui->vorder: the verdict is NEW, and still flashing */
	bool vnew[UI_MAX_VERDICTS], vflash[UI_MAX_VERDICTS];
};

/* One row per pane, indexed by enum pane_id: what the layout needs to know
 * about it and how to draw it (ui_frame.c). Rows are body rows (the title row
 * is extra). */
struct pane_def {
	const char *name;
	int min;                  /* body rows it needs to be shown at all */
	int want_full, want_compact;   /* body rows it would like in each layout */
	int want_expanded;        /* ... while a verdict is expanded; -1: as otherwise */
	int (*want)(const struct pane_ctx *pc, int w);   /* instead of want_*, when set */
	int grow_rank;            /* spare rows go round-robin in this order (0 first) */
	int drop_rank;            /* panes dropped in this order when rows run out; -1 never */
	int spare_rank;           /* rows left when all have what they want: the first shown; -1 none */
	bool chart;               /* on the shared time axis, with the numbers column beside it */
	bool axis_above;          /* the time axis row goes just above this pane */
	void (*draw)(const struct pane_ctx *pc, const struct rect *r);
};
extern const struct pane_def pane_defs[PANE_COUNT];

int pane_verdicts_want(const struct pane_ctx *pc, int w);
void pane_verdicts_draw(const struct pane_ctx *pc, const struct rect *r);
void pane_verdicts_free(struct ui *ui);
void pane_stops_draw(const struct pane_ctx *pc, const struct rect *r);
void pane_cpu_draw(const struct pane_ctx *pc, const struct rect *r);
void pane_upstream_draw(const struct pane_ctx *pc, const struct rect *r);
void pane_heap_draw(const struct pane_ctx *pc, const struct rect *r);
void pane_lines_draw(const struct pane_ctx *pc, const struct rect *r);
/* the one-screen summary for terminals too small for panes */
void pane_summary_draw(struct ui *ui, int y, int h, int w);

/* a source's name for the screen, "?" for none (-1, gone) */
static inline const char *ui_src_name(const struct session *s, int src)
{
	return src >= 0 && src < session_nsources(s) ? session_source_name(s, src) : "?";
}

#endif
