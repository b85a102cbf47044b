/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_verdicts.c — the Verdicts pane: what the evidence says, newest incident
 * first and each in reading order (the stop, its cause, its cost), severity
 * coloured, with a NEW mark (flashing at first) on verdicts that just appeared.
 * Enter shows the selected verdict's evidence and advice under it; the cursor
 * of every pane jumps to the verdict's moment (ui.c). All text is sanitised:
 * titles quote log content (thread names, operation names). */
#include "ui.h"
#include "stwtop/report.h"
#include "stwtop/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 400
/* notes on the screen: the hints and session_notes, "note: " before each */
#define NOTES_MAX 4
#define NOTE_TEXT_LEN (SESSION_NOTE_LEN * 4)

struct vrow {
	int kind;               /* 0 verdict, 1 detail text, 2 heading, 3 evidence, 4 advice */
	size_t vi;              /* position in ui->vorder; a heading: the incident's number, UINT_MAX whole run */
	const char *s;
	size_t n;
	int role, indent;
};

struct rows {
	struct vrow r[MAX_ROWS];
	int n;
	int role, indent;
};

static void add_piece(void *ctx, int line, const char *s, size_t n)
{
	struct rows *rs = ctx;
	(void)line;
	if (rs->n >= MAX_ROWS)
		return;
	rs->r[rs->n++] = (struct vrow){.kind = 1, .s = s, .n = n, .role = rs->role, .indent = rs->indent};
}

static void add_text(struct rows *rs, const struct ui *ui, const char *text, int w, int indent, int role)
{
	rs->role = role;
	rs->indent = indent;
	ui_wrap(ui, text, w - indent - 1, add_piece, rs);
}

/* where a verdict's row starts its title: the mark, the badge, NEW, the time,
 * and the id where the row is wide enough (draw_verdict_row) */
#define TITLE_X0 21
static int title_x(int w)
{
	return w - TITLE_X0 > 60 ? TITLE_X0 + 27 : TITLE_X0;
}

/* the selected verdict's detail: its title whole when its row cut it, its
 * span, evidence, advice */
static void add_detail(struct ui *ui, struct rows *rs, const struct verdict *v, int w, char (*bufs)[VERDICT_EVIDENCE_LEN * 4],
		       char *advice, size_t advlen, char *span, size_t spanlen, char *title, size_t titlelen)
{
	char a[16], b[16];
	ui_verdict_text(title, titlelen, v->title, strnlen(v->title, VERDICT_TITLE_LEN));
	if (ui_text_width(ui, title) > w - title_x(w) - 1)
		add_text(rs, ui, title, w, 4, TR_TEXT);
	if (v->start_ms != EV_TIME_NONE) {
		ui_fmt_time(ui, v->start_ms, 3, a, sizeof a);
		ui_fmt_time(ui, v->end_ms != EV_TIME_NONE ? v->end_ms : v->start_ms, 3, b, sizeof b);
		snprintf(span, spanlen, "%s: from %s to %s%s", verdict_id_name(v->id), a, b,
			 v->cleared_ms != EV_TIME_NONE ? " (cleared since)" : " - the cursor of every pane is there now");
	} else {
		snprintf(span, spanlen, "%s: about the whole run", verdict_id_name(v->id));
	}
	add_text(rs, ui, span, w, 4, TR_DIM);
	for (int i = 0; i < v->nevidence; i++) {
		ui_verdict_text(bufs[i], sizeof bufs[0], v->evidence[i], strnlen(v->evidence[i], VERDICT_EVIDENCE_LEN));
		int first = rs->n;
		add_text(rs, ui, bufs[i], w, 6, TR_TEXT);
		if (first < rs->n)
			rs->r[first].kind = 3; /* carries the bullet */
	}
	if (v->advice[0]) {
		ui_verdict_text(advice, advlen, v->advice, strnlen(v->advice, VERDICT_ADVICE_LEN));
		int first = rs->n;
		add_text(rs, ui, advice, w, 6, TR_TITLE);
		if (first < rs->n)
			rs->r[first].kind = 4; /* carries the arrow */
	}
}

/* one frame's sanitised texts and the rows that point into them */
struct verdict_scratch {
	char ev[VERDICT_EVIDENCE_MAX][VERDICT_EVIDENCE_LEN * 4];
	char advice[VERDICT_ADVICE_LEN * 4];
	char span[200];
	char title[VERDICT_TITLE_LEN * 4];
	char notes[NOTES_MAX][NOTE_TEXT_LEN];
	struct rows rows;
};

static struct verdict_scratch *scratch(struct ui *ui)
{
	if (!ui->vscratch)
		ui->vscratch = calloc(1, sizeof *ui->vscratch);
	return ui->vscratch;
}

void pane_verdicts_free(struct ui *ui)
{
	free(ui->vscratch);
	ui->vscratch = NULL;
}

/* The report's "-- incident N --" over each incident's verdicts (N as the
 * report numbers it: rules_incidents), and "-- whole run --" over verdicts
 * about the whole run, which would otherwise look like part of the incident
 * above them. 0: no heading before position i of ui->vorder. */
static unsigned heading_before(const struct ui *ui, const struct session *s, const struct rules_incident *inc,
			       size_t ninc, size_t i)
{
	const struct verdict *v = rules_at(session_rules(s), ui->vorder[i]);
	const struct verdict *p = i > 0 ? rules_at(session_rules(s), ui->vorder[i - 1]) : NULL;
	bool vi = verdict_is_incident(v->id), pi = p && verdict_is_incident(p->id);
	if (!vi)
		return ninc > 0 && (!p || pi) ? UINT_MAX : 0;
	if (pi && p->key == v->key)
		return 0;
	for (size_t k = 0; k < ninc; k++)
		if (inc[k].key == v->key)
			return inc[k].number;
	return 0;
}

static struct rows *build(const struct pane_ctx *pc, int w)
{
	struct ui *ui = pc->ui;
	struct verdict_scratch *sc = scratch(ui);
	if (!sc)
		return NULL;
	struct rows *rs = &sc->rows;
	rs->n = 0;
	/* headings where rows are not scarce: a stacked screen (80x24) keeps its
	 * few Verdicts rows for verdicts */
	bool headings = ui->layout == LAYOUT_FULL;
	size_t cap = headings ? rules_count(session_rules(pc->s)) : 0;
	struct rules_incident *inc = cap ? calloc(cap, sizeof *inc) : NULL;
	size_t ninc = inc ? view_incidents(pc->s, inc, cap) : 0;
	for (size_t i = 0; i < ui->nv && rs->n < MAX_ROWS; i++) {
		unsigned h = headings ? heading_before(ui, pc->s, inc, ninc, i) : 0;
		if (h)
			rs->r[rs->n++] = (struct vrow){.kind = 2, .vi = h};
		if (rs->n >= MAX_ROWS)
			break;
		rs->r[rs->n++] = (struct vrow){.kind = 0, .vi = i};
		if (ui->vexpand && i == ui->vsel) {
			const struct verdict *v = rules_at(session_rules(pc->s), ui->vorder[i]);
			add_detail(ui, rs, v, w, sc->ev, sc->advice, sizeof sc->advice, sc->span, sizeof sc->span, sc->title,
				   sizeof sc->title);
		}
	}
	free(inc);
	return rs;
}

struct note_draw {
	struct ui *ui;
	int x, y, w, rows, role;
};

static void put_note_line(void *ctx, int line, const char *s, size_t n)
{
	struct note_draw *d = ctx;
	char piece[NOTE_TEXT_LEN];
	if (line >= d->rows)
		return;
	if (n >= sizeof piece)
		n = sizeof piece - 1;
	memcpy(piece, s, n);
	piece[n] = '\0';
	ui_text(d->ui, d->y + line, d->x, d->w, d->role, piece);
}

/* the discovery's hints (what the JVM does not log, and how to make it) first,
 * then what the input cannot show (session_notes), each as the screen shows it */
static size_t gather_notes(const struct pane_ctx *pc, char (*out)[NOTE_TEXT_LEN])
{
	char raw[NOTES_MAX][SESSION_NOTE_LEN], safe[NOTE_TEXT_LEN - 8];
	size_t n = 0;
	int nh = 0;
	const char *const *hints = session_hints(pc->s, &nh);
	for (int i = 0; i < nh && n < NOTES_MAX; i++) {
		ui_verdict_text(safe, sizeof safe, hints[i], strlen(hints[i]));
		snprintf(out[n++], NOTE_TEXT_LEN, "note: %s", safe);
	}
	size_t k = session_notes(pc->s, raw, NOTES_MAX - n);
	for (size_t i = 0; i < k; i++) {
		ui_verdict_text(safe, sizeof safe, raw[i], strnlen(raw[i], SESSION_NOTE_LEN));
		snprintf(out[n++], NOTE_TEXT_LEN, "note: %s", safe);
	}
	return n;
}

static bool is_clause_end(char c)
{
	return c == ',' || c == ';' || c == ':' || c == '.';
}

/* s for at most rows lines of w columns: whole when it fits; else shortened
 * where a clause ends (", " "; " ": " ". ", or before " (") with "... (i: whole
 * note)" after it, so that a command (which has no such break: "jcmd 26598
 * VM.log output=...") is shown whole or not at all; only when no clause fits,
 * at a word. Returns the lines out wraps to. */
static int fit_note(const struct ui *ui, const char *s, int w, int rows, char *out, size_t outlen)
{
	int lines = ui_wrap(ui, s, w, NULL, NULL);
	if (lines <= rows || rows < 1) {
		snprintf(out, outlen, "%s", s);
		return lines;
	}
	const char *more = ui->utf8 ? "… (i: whole note)" : "... (i: whole note)";
	size_t n = strlen(s);
	for (int pass = 0; pass < 2; pass++)
		for (size_t p = n - 1; p > 6; p--) {
			if (s[p] != ' ' || s[p - 1] == ' ')
				continue;
			bool clause = is_clause_end(s[p - 1]) || s[p + 1] == '(';
			if (pass == 0 && !clause)
				continue;
			size_t keep = is_clause_end(s[p - 1]) ? p - 1 : p;
			/* a line holds w columns: no need to try what cannot fit */
			if (keep > (size_t)rows * (size_t)w * 4)
				continue;
			snprintf(out, outlen, "%.*s%s", (int)keep, s, more);
			int l = ui_wrap(ui, out, w, NULL, NULL);
			if (l <= rows)
				return l;
		}
	snprintf(out, outlen, "%s", more + 4); /* past the ellipsis and its space */
	return 1;
}

/* the rows the notes take, shortened to most rows */
static int notes_rows(const struct ui *ui, char (*notes)[NOTE_TEXT_LEN], size_t nn, int w, int most)
{
	int used = 0;
	char fit[NOTE_TEXT_LEN + 32];
	for (size_t i = 0; i < nn; i++) {
		int left = most - used - (int)(nn - i - 1);
		used += fit_note(ui, notes[i], w - 4, left < 1 ? 1 : left, fit, sizeof fit);
	}
	return used;
}

/* What the input cannot show and how to make the JVM show more: wrapped over
 * the rows given, from y, each note shortened at a clause when they do not all
 * fit, so that every note keeps a row; returns rows used. */
static int draw_notes(struct ui *ui, int y, int w, int rows, char (*notes)[NOTE_TEXT_LEN], size_t nn)
{
	int used = 0;
	char fit[NOTE_TEXT_LEN + 32];
	for (size_t i = 0; i < nn && used < rows; i++) {
		int left = rows - used - (int)(nn - i - 1);
		if (left < 1)
			left = 1;
		fit_note(ui, notes[i], w - 4, left, fit, sizeof fit);
		struct note_draw d = {ui, 2, y + used, w - 4, left, TR_VERDICT_WARN};
		int lines = ui_wrap(ui, fit, w - 4, put_note_line, &d);
		used += lines < left ? lines : left;
	}
	return used;
}

int pane_verdicts_want(const struct pane_ctx *pc, int w)
{
	struct ui *ui = pc->ui;
	if (ui->nv == 0) {
		/* the notes whole when they fit in a few rows (the first screen of a
		 * JVM that logs nothing: how to make it log), else shortened */
		struct verdict_scratch *sc = scratch(ui);
		size_t nn = sc ? gather_notes(pc, sc->notes) : 0;
		int most = ui->layout == LAYOUT_FULL ? 5 : 3;
		int n = nn ? notes_rows(ui, sc->notes, nn, w, most) : 2;
		if (n > most)
			n = most;
		return n < 2 ? 2 : n;
	}
	struct rows *rs = build(pc, w);
	int n = rs ? rs->n : (int)ui->nv;
	/* collapsed: six verdicts, and the incident headings between them */
	int most = ui->layout == LAYOUT_FULL ? 9 : 6;
	if (!ui->vexpand)
		return n < most ? n : most;
	return n;
}

static int sev_role(int sev)
{
	return sev == SEV_CRIT ? TR_VERDICT_CRIT : sev == SEV_WARN ? TR_VERDICT_WARN : TR_VERDICT_INFO;
}

static void draw_verdict_row(const struct pane_ctx *pc, int y, int w, size_t vi)
{
	struct ui *ui = pc->ui;
	const struct verdict *v = rules_at(session_rules(pc->s), ui->vorder[vi]);
	bool sel = vi == ui->vsel;
	bool focused = pc->focus == PANE_VERDICTS;
	bool flash = pc->vflash[vi], isnew = pc->vnew[vi];
	/* a verdict that just appeared flashes: its title bold until UI_FLASH_MS */
	int base = sel && focused ? TR_SELECTED : flash ? TR_TITLE : TR_TEXT;
	ui_fill(ui, y, 0, w, base);
	int x = 0;
	/* column 0: the selection, or a dot while a new verdict flashes */
	if (sel)
		x += ui_text(ui, y, x, w, focused ? TR_SELECTED : TR_TITLE, ui->utf8 ? "▸" : ">");
	else if (flash)
		x += ui_text(ui, y, x, w, TR_VERDICT_NEW, ui->utf8 ? "●" : "*");
	else
		x += ui_text(ui, y, x, w, base, " ");
	char badge[8];
	snprintf(badge, sizeof badge, " %s ", v->severity == SEV_CRIT ? "CRIT" : v->severity == SEV_WARN ? "WARN" : "INFO");
	x += ui_text(ui, y, x, w - x, sev_role(v->severity), badge);
	x += 1;
	if (isnew)
		ui_text(ui, y, x, w - x, TR_VERDICT_NEW, "NEW");
	x += 4;
	char t[16];
	if (v->start_ms != EV_TIME_NONE)
		ui_text(ui, y, x, w - x, sel && focused ? TR_SELECTED : TR_DIM, ui_fmt_time(ui, v->start_ms, 0, t, sizeof t));
	x += 9;
	char id[40];
	snprintf(id, sizeof id, "%-26s", verdict_id_name(v->id));
	if (title_x(w) > x)
		ui_text(ui, y, x, w - x, sel && focused ? TR_SELECTED : TR_DIM, id);
	x = title_x(w);
	char title[VERDICT_TITLE_LEN * 4 + 64];
	ui_verdict_text(title, sizeof title, v->title, strnlen(v->title, VERDICT_TITLE_LEN));
	if (v->cleared_ms != EV_TIME_NONE) {
		char c[16];
		snprintf(title + strlen(title), sizeof title - strlen(title), " (cleared %s)",
			 ui_fmt_time(ui, v->cleared_ms, 0, c, sizeof c));
	}
	ui_text_cut(ui, y, x, w - x - 1, base, title);
}

void pane_verdicts_draw(const struct pane_ctx *pc, const struct rect *r)
{
	struct ui *ui = pc->ui;
	bool focused = pc->focus == PANE_VERDICTS;
	int x = ui_title(ui, r, "Verdicts", focused);
	char hint[120];
	if (ui->nv)
		snprintf(hint, sizeof hint, "%zu, newest incident first%s", ui->nv,
			 ui->vexpand ? "  Esc collapses" : focused ? "  ↑↓ select  Enter: evidence" : "  Tab here, Enter: evidence");
	else
		snprintf(hint, sizeof hint, "none yet");
	if (!ui->utf8 && !ui->vexpand && focused && ui->nv)
		snprintf(hint, sizeof hint, "%zu, newest incident first  Up/Down select  Enter: evidence", ui->nv);
	ui_readout(ui, r, x + 1, TR_DIM, hint);
	int body = r->h - 1, y0 = r->y + 1;
	if (body <= 0)
		return;
	struct verdict_scratch *sc = scratch(ui);
	if (!sc)
		return;
	size_t nn = gather_notes(pc, sc->notes);
	if (ui->nv == 0) {
		int n = session_nsources(pc->s);
		if (nn > 0) {
			draw_notes(ui, y0, r->w, body, sc->notes, nn);
			return;
		}
		ui_textf(ui, y0, 2, r->w - 4, TR_DIM, "No verdict yet. stwtop is reading %d source%s; a JVM stop, "
			 "CPU throttling or stepped nginx connects will be explained here.", n, n == 1 ? "" : "s");
		return;
	}
	/* with verdicts, the first note keeps the pane's last row when it has room */
	if (nn > 0 && body >= 4) {
		body--;
		char txt[NOTE_TEXT_LEN + 32], fit[NOTE_TEXT_LEN + 64];
		snprintf(txt, sizeof txt, "note%s%s", nn > 1 ? "s (1 of more)" : "", sc->notes[0] + 4);
		fit_note(ui, txt, r->w - 5, 1, fit, sizeof fit);
		ui_text(ui, y0 + body, 2, r->w - 5, TR_VERDICT_WARN, fit);
	}
	struct rows *rs = build(pc, r->w);
	if (!rs)
		return;
	/* keep the selection (and as much of its detail as fits) in view */
	int sel_row = 0, ndetail = 0;
	for (int i = 0; i < rs->n; i++)
		if (rs->r[i].kind == 0 && rs->r[i].vi == ui->vsel) {
			sel_row = i;
			for (int k = i + 1; k < rs->n && rs->r[k].kind != 0 && rs->r[k].kind != 2; k++)
				ndetail++;
		}
	/* the heading over the selected verdict stays in view with it */
	if (sel_row > 0 && rs->r[sel_row - 1].kind == 2) {
		sel_row--;
		ndetail++;
	}
	if (ui->vscroll > sel_row)
		ui->vscroll = sel_row;
	int last = sel_row + ndetail;
	if (last >= ui->vscroll + body)
		ui->vscroll = last - body + 1;
	if (ui->vscroll > sel_row)
		ui->vscroll = sel_row;
	if (ui->vscroll < 0)
		ui->vscroll = 0;
	for (int k = 0; k < body && ui->vscroll + k < rs->n; k++) {
		const struct vrow *row = &rs->r[ui->vscroll + k];
		int y = y0 + k;
		if (row->kind == 0) {
			draw_verdict_row(pc, y, r->w, row->vi);
			continue;
		}
		if (row->kind == 2) {
			/* a heading with nothing under it in view: the ↓ says there is more */
			if (k == body - 1)
				break;
			char head[40];
			if (row->vi == UINT_MAX)
				snprintf(head, sizeof head, " -- whole run --");
			else
				snprintf(head, sizeof head, " -- incident %u --", (unsigned)row->vi);
			ui_text(ui, y, 0, r->w, TR_DIM, head);
			continue;
		}
		char piece[1200];
		size_t n = row->n < sizeof piece - 1 ? row->n : sizeof piece - 1;
		memcpy(piece, row->s, n);
		piece[n] = '\0';
		if (row->kind == 3)
			ui_text(ui, y, row->indent - 2, 2, TR_DIM, ui->utf8 ? "•" : "-");
		if (row->kind == 4)
			ui_text(ui, y, row->indent - 2, 2, TR_TITLE, ui->utf8 ? "→" : ">");
		ui_text(ui, y, row->indent, r->w - row->indent - 1, row->role, piece);
	}
	/* more below */
	if (ui->vscroll + body < rs->n)
		ui_text(ui, r->y + r->h - 1, r->w - 2, 1, TR_DIM, ui->utf8 ? "↓" : "v");
}
