/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_draw.c — the dashboard's drawing primitives: theme roles as curses
 * attributes and colour pairs, width-aware UTF-8 text (ASCII when the locale is
 * not UTF-8), word wrap, stacked bars with 1/8-cell resolution (two colours per
 * cell) or, without colour, whole cells told apart by glyph. */
#include "ui.h"
#include "stwtop/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- styles --- */

static wchar_t ui_fill_glyph(const struct ui *ui, int role, const char **ascii);

/* the colour pair for fg on bg, made on first use (pairs are few: roles and bar edges) */
static short ui_pair(struct ui *ui, int fg, int bg)
{
	if (!ui->color)
		return 0;
	if (!ui->default_colors) {
		if (fg < 0)
			fg = COLOR_WHITE;
		if (bg < 0)
			bg = COLOR_BLACK;
	}
	if (fg < 0 && bg < 0)
		return 0;
	for (int i = 0; i < ui->npairs; i++)
		if (ui->pairs[i].fg == fg && ui->pairs[i].bg == bg)
			return ui->pairs[i].pair;
	int limit = COLOR_PAIRS - 1;
	if (limit > (int)(sizeof ui->pairs / sizeof ui->pairs[0]))
		limit = (int)(sizeof ui->pairs / sizeof ui->pairs[0]);
	if (ui->npairs >= limit)
		return 0;
	short p = (short)(ui->npairs + 1);
	if (init_pair(p, (short)fg, (short)bg) == ERR)
		return 0;
	ui->pairs[ui->npairs].fg = fg;
	ui->pairs[ui->npairs].bg = bg;
	ui->pairs[ui->npairs].pair = p;
	ui->npairs++;
	return p;
}

static attr_t to_attr(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & THEME_ATTR_BOLD)
		r |= A_BOLD;
	if (a & THEME_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & THEME_ATTR_DIM)
		r |= A_DIM;
	return r;
}

/* a theme colour as RGB and whether it is a grey; false when it has none */
static bool color_rgb(const struct theme_color *c, uint8_t rgb[3], bool *grey)
{
	if (c->kind == THEME_COLOR_INDEX) {
		theme_index_rgb(c->index, rgb);
	} else if (c->kind == THEME_COLOR_RGB) {
		rgb[0] = c->r;
		rgb[1] = c->g;
		rgb[2] = c->b;
	} else {
		return false;
	}
	int mx = rgb[0], mn = rgb[0];
	for (int i = 1; i < 3; i++) {
		mx = rgb[i] > mx ? rgb[i] : mx;
		mn = rgb[i] < mn ? rgb[i] : mn;
	}
	*grey = mx - mn <= 24;
	return true;
}

static int lightness(const uint8_t rgb[3])
{
	int mx = rgb[0], mn = rgb[0];
	for (int i = 1; i < 3; i++) {
		mx = rgb[i] > mx ? rgb[i] : mx;
		mn = rgb[i] < mn ? rgb[i] : mn;
	}
	return (mx + mn) / 2;
}

/* Eight colours have no grey: the nearest colour of a dark grey border is
 * black (invisible on a dark terminal), of a mid grey yellow. A grey
 * background becomes black or white by its lightness; a grey foreground the
 * colour that contrasts with what it is drawn on, dim when it was meant to be
 * quieter than the text. */
static void grey_on_8(const struct theme *t, int role, struct ui_style *st)
{
	const struct theme_style *ts = &t->role[role];
	uint8_t rgb[3], brgb[3];
	bool grey, bgrey;
	if (color_rgb(&ts->bg, brgb, &bgrey) && bgrey)
		st->bg = lightness(brgb) >= 128 ? COLOR_WHITE : COLOR_BLACK;
	if (!color_rgb(&ts->fg, rgb, &grey) || !grey)
		return;
	/* what it is drawn on: its own background, else the text's, else the terminal's (dark) */
	const struct theme_color *on = ts->bg.kind == THEME_COLOR_INDEX || ts->bg.kind == THEME_COLOR_RGB
					       ? &ts->bg : &t->role[TR_TEXT].bg;
	bool light_bg = color_rgb(on, brgb, &bgrey) && lightness(brgb) >= 128;
	int l = lightness(rgb);
	if (light_bg) {
		st->fg = COLOR_BLACK;
		if (l >= 100)
			st->attr |= A_DIM;
	} else {
		st->fg = COLOR_WHITE;
		if (l < 200)
			st->attr |= A_DIM;
	}
}

void ui_apply_theme(struct ui *ui)
{
	bool term_color = has_colors() && !ui->c->no_color;
	/* COLORS is only known once colour is started */
	if (term_color && !ui->color_started) {
		if (start_color() == OK) {
			ui->color_started = true;
			ui->default_colors = use_default_colors() == OK;
		}
	}
	term_color = term_color && ui->color_started && COLORS >= 8;
	ui->ncolors = term_color ? COLORS : 0;
	bool theme_color = false;
	for (int r = 0; r < THEME_ROLE_COUNT && term_color; r++)
		if (theme_color_index(&ui->theme.role[r].fg, ui->ncolors) >= 0 ||
		    theme_color_index(&ui->theme.role[r].bg, ui->ncolors) >= 0)
			theme_color = true;
	ui->color = term_color && theme_color;
	/* 1/8-cell bars tell their segments apart by colour alone: eight colours
	 * are too few (heap used and committed both become cyan), so there whole
	 * cells are told apart by glyph, in colour */
	ui->fine = ui->utf8 && ui->color && ui->ncolors >= 16;
	ui->npairs = 0;
	for (int r = 0; r < THEME_ROLE_COUNT; r++) {
		const struct theme_style *ts = &ui->theme.role[r];
		struct ui_style *st = &ui->st[r];
		st->attr = to_attr(ts->attrs);
		if (ui->color) {
			st->fg = theme_color_index(&ts->fg, ui->ncolors);
			st->bg = theme_color_index(&ts->bg, ui->ncolors);
			if (ui->ncolors < 16)
				grey_on_8(&ui->theme, r, st);
			/* a colour that degraded onto its own background would vanish */
			if (st->fg >= 0 && st->fg == st->bg)
				st->fg = -1;
		} else {
			st->fg = st->bg = -1;
			st->attr |= to_attr(theme_nocolor_attrs(r));
		}
		st->pair = ui_pair(ui, st->fg, st->bg);
	}
	bkgdset(' ' | COLOR_PAIR(ui->st[TR_TEXT].pair));
	clearok(curscr, TRUE);
}

/* a role's attributes and pair as the window's current rendition */
static void ui_role(struct ui *ui, int role)
{
	attr_set(ui->st[role].attr, ui->st[role].pair, NULL);
}

/* --- text --- */

/* One code point from UTF-8 at s[0..n): its length, or 1 for a stray byte (cp = 0xFFFD). */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		len = 2;
		v = c & 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		v = c & 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		v = c & 0x07;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (len > n) {
		*cp = 0xFFFD;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/* the character and width ui_text draws for a code point */
static wchar_t shown(const struct ui *ui, uint32_t cp, int *width)
{
	if (cp < 0x20 || cp == 0x7F) {
		*width = 1;
		return L'?';
	}
	if (cp < 0x80) {
		*width = 1;
		return (wchar_t)cp;
	}
	if (!ui->utf8) {
		*width = 1;
		return L'?';
	}
	int w = wcwidth((wchar_t)cp);
	if (w < 0) {
		*width = 1;
		return L'?';
	}
	*width = w;
	return (wchar_t)cp;
}

int ui_text_width(const struct ui *ui, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	int w = 0;
	while (n > 0) {
		uint32_t cp;
		size_t l = utf8_next(p, n, &cp);
		int cw;
		shown(ui, cp, &cw);
		w += cw;
		p += l;
		n -= l;
	}
	return w;
}

int ui_text(struct ui *ui, int y, int x, int w, int role, const char *s)
{
	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	wchar_t buf[512];
	int used = 0, k = 0;
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	while (n > 0 && k < (int)(sizeof buf / sizeof buf[0]) - 1) {
		uint32_t cp;
		size_t l = utf8_next(p, n, &cp);
		int cw;
		wchar_t wc = shown(ui, cp, &cw);
		if (used + cw > w)
			break;
		if (cw > 0 || k > 0)   /* a combining mark needs a base */
			buf[k++] = wc;
		used += cw;
		p += l;
		n -= l;
	}
	buf[k] = L'\0';
	ui_role(ui, role);
	mvaddnwstr(y, x, buf, k);
	return used;
}

int ui_text2(struct ui *ui, int y, int x, int w, int fg_role, int bg_role, const char *s)
{
	/* borrow the fg role's slot for the combined style, then put it back */
	struct ui_style keep = ui->st[fg_role];
	attr_t attr = ui->st[fg_role].attr & ~(attr_t)A_REVERSE;
	if (!ui->color)
		attr = ui->st[fg_role].attr | ui->st[bg_role].attr;
	ui->st[fg_role].attr = attr;
	ui->st[fg_role].pair = ui->color ? ui_pair(ui, ui->st[fg_role].fg, ui->st[bg_role].bg) : 0;
	int used = ui_text(ui, y, x, w, fg_role, s);
	ui->st[fg_role] = keep;
	return used;
}

int ui_textf(struct ui *ui, int y, int x, int w, int role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ui_text(ui, y, x, w, role, buf);
}

void ui_cell(struct ui *ui, int y, int x, wchar_t ch, const char *ascii, int role, int fg, int bg)
{
	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return;
	cchar_t cc;
	wchar_t w[2] = {ch, L'\0'};
	if (!ui->utf8 && ch > 0x7F)
		w[0] = ascii && ascii[0] ? (wchar_t)(unsigned char)ascii[0] : L'?';
	short pair = ui->color ? ui_pair(ui, fg, bg) : 0;
	attr_t attr = ui->st[role].attr;
	if (ui->color)
		attr &= ~(attr_t)A_REVERSE;
	setcchar(&cc, w, attr, pair, NULL);
	/* add_wch merges the window's current rendition into the cell: clear it */
	attr_set(A_NORMAL, 0, NULL);
	mvadd_wch(y, x, &cc);
}

void ui_fill(struct ui *ui, int y, int x, int w, int role)
{
	if (y < 0 || y >= LINES || w <= 0)
		return;
	if (x + w > COLS)
		w = COLS - x;
	ui_role(ui, role);
	mvhline(y, x, ' ', w);
}

int ui_title(struct ui *ui, const struct rect *r, const char *title, bool focused)
{
	const char *h = ui->utf8 ? "─" : "-";
	ui_role(ui, TR_BORDER);
	for (int i = 0; i < r->w; i++)
		ui_text(ui, r->y, r->x + i, 1, TR_BORDER, h);
	int x = r->x + 1;
	char t[128];
	snprintf(t, sizeof t, " %s ", title);
	x += ui_text(ui, r->y, x, r->w - 2, focused ? TR_FOCUS : TR_TITLE, t);
	return x + 1;
}

/* s[0..n) without the separators a cut would leave hanging (", " " · " ": " " (") */
static size_t trim_cut(const char *s, size_t n)
{
	while (n > 0) {
		unsigned char c = (unsigned char)s[n - 1];
		if (c == ' ' || c == ',' || c == ';' || c == ':' || c == '(' || c == '-')
			n--;
		else if (n >= 2 && c == 0xB7 && (unsigned char)s[n - 2] == 0xC2)   /* "·" */
			n -= 2;
		else
			break;
	}
	return n;
}

/* the last word of s[0..n) holds a digit: a value whose unit or rest was cut away */
static bool ends_in_number(const char *s, size_t n)
{
	for (size_t i = n; i > 0 && s[i - 1] != ' '; i--)
		if (s[i - 1] >= '0' && s[i - 1] <= '9')
			return true;
	return false;
}

/* How many bytes of s to keep so that they and an ellipsis fit w columns: cut
 * where a word ends, never inside a word, and not after a number either ("used
 * 1…" and "on CPU 22…" both read as values, of the wrong size or unit), without
 * the separator the cut would leave hanging. 0 when nothing fits so. */
size_t ui_cut_at_word(const struct ui *ui, const char *s, int w)
{
	size_t fit = 0, n = strlen(s);
	char tmp[1024];
	for (size_t i = 1; i < n && i < sizeof tmp; i++) {
		if (s[i] != ' ' || s[i - 1] == ' ')
			continue;
		memcpy(tmp, s, i);
		tmp[i] = '\0';
		if (ui_text_width(ui, tmp) + 1 > w)
			break;
		fit = i;
	}
	/* back off word by word while the kept text ends in a number */
	size_t keep = trim_cut(s, fit);
	while (keep > 0 && ends_in_number(s, keep)) {
		while (keep > 0 && s[keep - 1] != ' ')
			keep--;
		keep = trim_cut(s, keep);
	}
	return keep;
}

int ui_text_cut(struct ui *ui, int y, int x, int w, int role, const char *s)
{
	if (ui_text_width(ui, s) <= w)
		return ui_text(ui, y, x, w, role, s);
	char t[1024];
	size_t n = ui_cut_at_word(ui, s, w);
	if (n >= sizeof t)
		n = sizeof t - 1;
	memcpy(t, s, n);
	t[n] = '\0';
	snprintf(t + n, sizeof t - n, "%s", ui->utf8 ? "…" : "~");
	return ui_text(ui, y, x, w, role, t);
}

void ui_readout(struct ui *ui, const struct rect *r, int xmin, int role, const char *text)
{
	char t[400];
	snprintf(t, sizeof t, " %s ", text);
	int tw = ui_text_width(ui, t);
	int room = r->x + r->w - 2 - xmin;
	if (room < 8)
		return;
	if (tw > room) {
		/* cut where a word ends, the ellipsis and a space after it */
		size_t n = ui_cut_at_word(ui, t, room - 1);
		snprintf(t + n, sizeof t - n, "%s ", ui->utf8 ? "…" : "~");
		tw = ui_text_width(ui, t);
	}
	ui_text(ui, r->y, r->x + r->w - 2 - tw, tw, role, t);
}

static int legend_width(const struct ui *ui, const struct ui_legend *lg, int n, bool brief)
{
	int w = 0;
	for (int i = 0; i < n; i++)
		w += 3 + ui_text_width(ui, brief ? lg[i].brief : lg[i].label);
	return w;
}


static int draw_legend(struct ui *ui, int y, int x, int role, const char *label)
{
	if (role == TR_HEAP_MARKER || role == TR_HEAP_PERIODIC) {
		/* marker letters explain themselves: "R Remark" */
		int w = ui_text_width(ui, label) + 2;
		ui_cell(ui, y, x, L' ', " ", TR_BORDER, ui->st[TR_BORDER].fg, ui->st[TR_TEXT].bg);
		ui_text(ui, y, x + 1, w - 2, role, label);
		ui_cell(ui, y, x + w - 1, L' ', " ", TR_BORDER, ui->st[TR_BORDER].fg, ui->st[TR_TEXT].bg);
		return x + w;
	}
	const char *ascii;
	wchar_t g = ui->fine ? L'▆' : ui_fill_glyph(ui, role, &ascii);
	if (ui->fine)
		ascii = "#";
	int need = 3 + ui_text_width(ui, label);
	ui_cell(ui, y, x, L' ', " ", TR_BORDER, ui->st[TR_BORDER].fg, ui->st[TR_TEXT].bg);
	ui_cell(ui, y, x + 1, g, ascii, role, ui->st[role].fg, ui->st[TR_TEXT].bg);
	ui_text(ui, y, x + 2, need - 2, TR_DIM, label);
	ui_cell(ui, y, x + need - 1, L' ', " ", TR_BORDER, ui->st[TR_BORDER].fg, ui->st[TR_TEXT].bg);
	return x + need;
}

void ui_title_row(struct ui *ui, const struct rect *r, int x, const struct ui_legend *lg, int n, int role,
		  const char *readout)
{
	int space = r->x + r->w - 2 - x;
	int rw = readout && readout[0] ? ui_text_width(ui, readout) + 2 : 0;
	bool brief = false;
	int keep = rw < 40 ? rw : 40;
	if (legend_width(ui, lg, n, false) + keep > space) {
		brief = true;
		keep = rw < 30 ? rw : 30;
	}
	int lim = r->x + r->w - 2 - (legend_width(ui, lg, n, brief) + keep > space ? (rw < 24 ? rw : 24) : keep);
	for (int i = 0; i < n; i++) {
		const char *label = brief ? lg[i].brief : lg[i].label;
		if (x + 3 + ui_text_width(ui, label) > lim)
			break;
		x = draw_legend(ui, r->y, x, lg[i].role, label);
	}
	if (rw)
		ui_readout(ui, r, x + 1, role, readout);
}

struct empty_draw {
	struct ui *ui;
	int x, y, w;
};

static void empty_line(void *ctx, int line, const char *s, size_t n)
{
	struct empty_draw *d = ctx;
	char piece[400];
	if (n >= sizeof piece)
		n = sizeof piece - 1;
	memcpy(piece, s, n);
	piece[n] = '\0';
	ui_text(d->ui, d->y + line, d->x, d->w, TR_DIM, piece);
}

void ui_empty(struct ui *ui, const struct rect *r, const char *text)
{
	if (r->h < 2)
		return;
	/* centred in the chart columns, clear of the numbers beside them */
	int x0 = ui->chart_x, w = ui->chart_w;
	int y = r->y + 1 + (r->h - 1) / 2 - ((r->h - 1) > 2 ? 1 : 0);
	int tw = ui_text_width(ui, text);
	if (tw > w) {
		/* too wide: wrapped at words over the pane's rows, else cut at a word */
		struct empty_draw d = {ui, x0, r->y + 1, w};
		if (ui_wrap(ui, text, w, NULL, NULL) <= r->h - 1)
			ui_wrap(ui, text, w, empty_line, &d);
		else
			ui_text_cut(ui, y, x0, w, TR_DIM, text);
		return;
	}
	int x = x0 + (w - tw) / 2;
	if (x < x0)
		x = x0;
	ui_text(ui, y, x, w, TR_DIM, text);
}

int ui_wrap(const struct ui *ui, const char *s, int w, ui_wrap_fn fn, void *ctx)
{
	int lines = 0;
	size_t n = strlen(s);
	const unsigned char *p = (const unsigned char *)s;
	if (w < 1)
		w = 1;
	while (n > 0) {
		/* skip the spaces a break left at the start of a line */
		if (lines > 0)
			while (n > 0 && *p == ' ') {
				p++;
				n--;
			}
		if (n == 0)
			break;
		size_t i = 0, last_space = 0;
		int used = 0;
		bool broke = false;
		while (i < n) {
			uint32_t cp;
			size_t l = utf8_next(p + i, n - i, &cp);
			int cw;
			shown(ui, cp, &cw);
			if (used + cw > w) {
				broke = true;
				break;
			}
			if (cp == ' ')
				last_space = i;
			used += cw;
			i += l;
		}
		size_t take = i;
		if (broke && last_space > 0)
			take = last_space;
		if (take == 0) /* a character wider than the line */
			take = i > 0 ? i : 1;
		if (fn)
			fn(ctx, lines, (const char *)p, take);
		lines++;
		p += take;
		n -= take;
	}
	return lines;
}

/* --- bars --- */

/* the glyph a role fills whole cells with when colours cannot tell segments apart */
static wchar_t ui_fill_glyph(const struct ui *ui, int role, const char **ascii)
{
	static const struct { int role; wchar_t u; const char *a; } g[] = {
		{TR_STOP_TTSP, L'░', ":"}, {TR_STOP_OP, L'█', "#"},
		{TR_CPU_THROTTLED, L'█', "#"}, {TR_CPU_ONCPU, L'█', "#"}, {TR_CPU_WAIT, L'░', ":"},
		{TR_UP_B0, L'░', "."}, {TR_UP_B1, L'1', "1"}, {TR_UP_B2, L'2', "2"}, {TR_UP_B3, L'3', "3"},
		{TR_UP_B4, L'4', "4"}, {TR_HEAP_USED, L'█', "#"}, {TR_HEAP_COMMITTED, L'░', ":"},
		{TR_DIM, L'·', "."},
	};
	(void)ui;
	for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
		if (g[i].role == role) {
			*ascii = g[i].a;
			return g[i].u;
		}
	*ascii = "#";
	return L'█';
}

static const wchar_t lower_block[9] = {L' ', L'▁', L'▂', L'▃', L'▄', L'▅', L'▆', L'▇', L'█'};

void ui_bar(struct ui *ui, int ybottom, int x, int rows, const int *seg, const int *roles, int nseg,
	    bool cursor)
{
	int cum[9] = {0};
	if (nseg > 8)
		nseg = 8;
	for (int k = 0; k < nseg; k++)
		cum[k + 1] = cum[k] + (seg[k] > 0 ? seg[k] : 0);
	int total = cum[nseg];
	int empty_bg = cursor ? ui->st[TR_CURSOR].bg : ui->st[TR_TEXT].bg;
	for (int r = 0; r < rows; r++) {
		int y = ybottom - r, lo = r * 8;
		if (total <= lo) {
			if (cursor)
				ui_cell(ui, y, x, L'╎', "|", TR_CURSOR, ui->st[TR_CURSOR].fg, ui->st[TR_CURSOR].bg);
			else
				ui_cell(ui, y, x, L' ', " ", TR_TEXT, ui->st[TR_TEXT].fg, ui->st[TR_TEXT].bg);
			continue;
		}
		int slot[8];
		for (int i = 0; i < 8; i++) {
			int level = lo + i;
			slot[i] = -1;
			for (int k = 0; k < nseg; k++)
				if (level >= cum[k] && level < cum[k + 1]) {
					slot[i] = k;
					break;
				}
		}
		if (ui->fine) {
			int a = slot[0], h = 1;
			while (h < 8 && slot[h] == a)
				h++;
			int b = h < 8 ? slot[h] : -1;
			int fg = ui->st[roles[a]].fg;
			int bg = b >= 0 ? ui->st[roles[b]].fg : empty_bg;
			ui_cell(ui, y, x, lower_block[h], "#", roles[a], fg, bg);
		} else {
			int k = slot[3];
			const char *ascii;
			if (k >= 0) {
				wchar_t g = ui_fill_glyph(ui, roles[k], &ascii);
				ui_cell(ui, y, x, g, ascii, roles[k], ui->st[roles[k]].fg, empty_bg);
			} else {
				/* less than half a cell: still show that something is there */
				ui_cell(ui, y, x, L'▁', "_", roles[slot[0]], ui->st[roles[slot[0]]].fg, empty_bg);
			}
		}
	}
}

void ui_ylabel(struct ui *ui, int y, const char *s)
{
	int w = ui->chart_x >= 1 ? ui->chart_x - 1 : 0;
	if (w <= 0)
		return;
	int tw = ui_text_width(ui, s);
	if (tw > w)
		tw = w;
	ui_text(ui, y, ui->chart_x - 1 - tw, tw, TR_AXIS, s);
}

/* --- formats --- */

const char *ui_zone_label(int64_t t, char *buf, size_t len)
{
	if (util_tz_kind() == UTIL_TZ_UTC)
		return "UTC";
	int64_t m = util_tz_offset_ms(t) / 60000;
	char sign = m < 0 ? '-' : '+';
	m = m < 0 ? -m : m;
	if (m % 60)
		snprintf(buf, len, "%c%02d%02d", sign, (int)(m / 60), (int)(m % 60));
	else
		snprintf(buf, len, "%c%02d", sign, (int)(m / 60));
	return buf;
}

char *ui_fmt_time(const struct ui *ui, int64_t t, int decimals, char *buf, size_t len)
{
	(void)ui;
	if (t == EV_TIME_NONE) {
		snprintf(buf, len, "--:--:--");
		return buf;
	}
	char hms[UTIL_HMS_LEN];
	util_fmt_hms_ms(t, hms, sizeof hms);
	/* "HH:MM:SS.mmm" cut to the decimals wanted */
	size_t keep = decimals <= 0 ? 8 : (size_t)(9 + (decimals > 3 ? 3 : decimals));
	if (keep > strlen(hms))
		keep = strlen(hms);
	snprintf(buf, len, "%.*s", (int)keep, hms);
	return buf;
}

size_t ui_verdict_text(char *dst, size_t dstlen, const char *raw, size_t n)
{
	char t[2 * VERDICT_ADVICE_LEN];
	size_t k = util_expand_times(t, sizeof t, raw, n, 0);
	return util_sanitize(dst, dstlen, t, k);
}

char *ui_fmt_ms(double ms, char *buf, size_t len)
{
	if (ms < 0)
		snprintf(buf, len, "-");
	else if (ms == 0)
		snprintf(buf, len, "0 ms");
	else if (ms < 1)
		snprintf(buf, len, "%.0f us", ms * 1000);
	else if (ms < 10)
		snprintf(buf, len, "%.1f ms", ms);
	else if (ms < 1000)
		snprintf(buf, len, "%.0f ms", ms);
	else if (ms < 10000)
		snprintf(buf, len, "%.2f s", ms / 1000);
	else
		snprintf(buf, len, "%.1f s", ms / 1000);
	return buf;
}

char *ui_fmt_ms_short(double ms, char *buf, size_t len)
{
	if (ms < 1)
		snprintf(buf, len, "<1ms");
	else if (ms < 999.5)
		snprintf(buf, len, "%.0fms", ms);
	else if (ms < 9950)
		snprintf(buf, len, "%.1fs", ms / 1000);
	else
		snprintf(buf, len, "%.0fs", ms / 1000);
	return buf;
}

char *ui_fmt_count(double v, char *buf, size_t len)
{
	if (v < 1000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 10000)
		snprintf(buf, len, "%.1fk", v / 1000);
	else if (v < 1e6)
		snprintf(buf, len, "%.0fk", v / 1000);
	else
		snprintf(buf, len, "%.1fM", v / 1e6);
	return buf;
}
