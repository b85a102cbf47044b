/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_lines.c — the Lines pane: the raw log lines at the cursor, so a verdict
 * can be checked against what the sources actually wrote. The lines of the
 * cursor's column come first (bright), then what each source said just before
 * (dim), shared among the sources so a busy access log does not hide the one
 * safepoint line that matters (view_lines). Every byte from a log goes through
 * util_sanitize: an escape sequence in a log line is shown as "\e[2J", never
 * sent to the terminal. */
#include "ui.h"
#include "stwtop/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHOWN 300

struct drow {
	int line;               /* index into the chosen lines */
	const char *s;          /* piece of the sanitised text */
	size_t n;
	bool first;             /* carries the prefix */
};

struct dctx {
	struct drow *rows;
	int n, cap, line;
};

static void add_piece(void *ctx, int k, const char *s, size_t n)
{
	struct dctx *d = ctx;
	if (d->n >= d->cap)
		return;
	d->rows[d->n++] = (struct drow){.line = d->line, .s = s, .n = n, .first = k == 0};
}

static void draw_title(const struct pane_ctx *pc, const struct rect *r, int64_t lo)
{
	struct ui *ui = pc->ui;
	bool focused = pc->focus == PANE_LINES;
	int x = ui_title(ui, r, "Lines", focused);
	char t[16], ro[160];
	ui_fmt_time(ui, lo, pc->axis->res_ms < 1000 ? 1 : 0, t, sizeof t);
	if (ui->lines_src >= 0)
		snprintf(ro, sizeof ro, "at %s, only %s (s: all)%s", t, ui_src_name(pc->s, ui->lines_src),
			 ui->lines_wrap ? ", wrapped" : "");
	else
		snprintf(ro, sizeof ro, "at %s%s", t, ui->lines_wrap ? ", wrapped" : "");
	int rx = r->x + r->w - 2 - ui_text_width(ui, ro) - 2;
	ui_readout(ui, r, x, TR_TITLE, ro);
	/* every source with its line count, or why it is not being read */
	for (int i = 0; i < session_nsources(pc->s); i++) {
		const struct source_stats *st = session_source_stats(pc->s, i);
		if (session_source_kind(pc->s, i) == SRC_PROBE && !st->error)
			continue;
		char item[300], safe[300];
		if (st->error || (st->lines == 0 && st->note[0]))
			snprintf(item, sizeof item, " %s: %s ", session_source_name(pc->s, i), st->note);
		else
			snprintf(item, sizeof item, " %s %llu ", session_source_name(pc->s, i), (unsigned long long)st->lines);
		util_sanitize(safe, sizeof safe, item, strlen(item));
		int w = ui_text_width(ui, safe);
		if (x + w >= rx)
			break;
		x += ui_text(ui, r->y, x, rx - x, st->error ? TR_ERROR : TR_DIM, safe);
	}
}

static int cmp_shown(const void *x, const void *y)
{
	const struct view_line *a = x, *b = y;
	if (a->t_ms != b->t_ms)
		return a->t_ms < b->t_ms ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The line a search found (ui_go.c) is in the cursor's column but may not be
 * among the few a busy column shows: it takes the oldest one's place. */
static void keep_match(struct ui *ui, const struct timeline *tl, int64_t lo, int64_t hi, struct view_line *out,
		       int *got, int want)
{
	if (ui->match_t == EV_TIME_NONE || ui->match_t < lo || ui->match_t >= hi || !timeline_line(tl, ui->match_ref))
		return;
	for (int i = 0; i < *got; i++)
		if (out[i].idx == ui->match_ref)
			return;
	int at = *got < want ? (*got)++ : 0;
	out[at] = (struct view_line){.idx = ui->match_ref, .t_ms = ui->match_t, .in_window = true};
	qsort(out, (size_t)*got, sizeof *out, cmp_shown);
}

void pane_lines_draw(const struct pane_ctx *pc, const struct rect *r)
{
	struct ui *ui = pc->ui;
	const struct timeline *tl = session_timeline(pc->s);
	int cc = pc->cursor_col;
	int64_t lo = view_col_start(pc->axis, cc), hi = lo + pc->axis->res_ms;
	draw_title(pc, r, lo);
	/* a stop under the cursor is logged when it ends: its lines belong here */
	struct view_axis one = {.end_ms = hi, .res_ms = pc->axis->res_ms, .ncols = 1};
	struct view_stop_col sc;
	struct view_stop st;
	if (view_stops(tl, &one, &sc) > 0 && sc.total_ms > 0 && view_stop_get(tl, sc.idx, &st) && st.end_ms >= hi)
		hi = st.end_ms + 1;
	int rows = r->h - 1;
	if (rows <= 0)
		return;
	int want = rows + ui->lines_back;
	if (want > MAX_SHOWN)
		want = MAX_SHOWN;
	struct view_line *out = calloc((size_t)want, sizeof *out);
	char(*text)[1024] = calloc((size_t)want, sizeof *text);
	struct drow *drows = calloc((size_t)(want * 8 + 8), sizeof *drows);
	if (!out || !text || !drows) {
		free(out);
		free(text);
		free(drows);
		return;
	}
	int got = view_lines(tl, lo, hi, ui->lines_src, out, want);
	keep_match(ui, tl, lo, hi, out, &got, want);
	if (ui->lines_back > 0 && ui->lines_back >= got)
		ui->lines_back = got > 0 ? got - 1 : 0;
	int shown = got - ui->lines_back;
	if (got == 0) {
		int64_t oldest = view_lines_oldest(tl);
		char t[16];
		if (!tl->keep_lines)
			ui_empty(ui, r, "raw lines are not kept in this mode");
		else if (oldest != EV_TIME_NONE && hi <= oldest)
			ui_textf(ui, r->y + 1, 2, r->w - 4, TR_DIM, "lines before %s are no longer held (the newest %d of each source are kept)",
				 ui_fmt_time(ui, oldest, 0, t, sizeof t), TL_LINES_PER_SOURCE);
		else
			ui_text(ui, r->y + 1, 2, r->w - 4, TR_DIM, "no lines at or before the cursor");
		goto out;
	}
	/* prefix width: the longest "name:line" shown */
	int pw = 0;
	for (int i = 0; i < shown; i++) {
		const struct tl_line *l = timeline_line(tl, out[i].idx);
		if (!l)
			continue;
		char p[64];
		int w = snprintf(p, sizeof p, "%s:%llu", ui_src_name(pc->s, l->src), (unsigned long long)l->line);
		if (w > pw)
			pw = w;
	}
	if (pw > 24)
		pw = 24;
	int tw = r->w - pw - 2;
	if (tw < 10)
		tw = 10;
	struct dctx d = {.rows = drows, .cap = want * 8 + 8};
	for (int i = 0; i < shown; i++) {
		const struct tl_line *l = timeline_line(tl, out[i].idx);
		if (!l)
			continue;
		util_sanitize(text[i], sizeof text[i], l->text, l->len);
		d.line = i;
		if (ui->lines_wrap && ui_text_width(ui, text[i]) > tw)
			ui_wrap(ui, text[i], tw, add_piece, &d);
		else
			add_piece(&d, 0, text[i], strlen(text[i]));
	}
	/* the newest at the bottom, like a log */
	int first = d.n > rows ? d.n - rows : 0;
	for (int k = first; k < d.n; k++) {
		int y = r->y + 1 + (k - first);
		const struct drow *dr = &drows[k];
		const struct view_line *vl = &out[dr->line];
		const struct tl_line *l = timeline_line(tl, vl->idx);
		bool match = ui->match_t != EV_TIME_NONE && vl->idx == ui->match_ref;
		int role = match ? TR_SELECTED : vl->in_window ? TR_TEXT : TR_DIM;
		if (match)
			ui_fill(ui, y, pw + 1, r->w - pw - 1, TR_SELECTED);
		if (dr->first && l) {
			char p[64];
			snprintf(p, sizeof p, "%s:%llu", ui_src_name(pc->s, l->src), (unsigned long long)l->line);
			ui_text(ui, y, 0, pw, TR_DIM, p);
		}
		char piece[1024];
		size_t n = dr->n < sizeof piece - 1 ? dr->n : sizeof piece - 1;
		memcpy(piece, dr->s, n);
		piece[n] = '\0';
		ui_text(ui, y, pw + 1, r->w - pw - 1, role, piece);
	}
out:
	free(out);
	free(text);
	free(drows);
}
