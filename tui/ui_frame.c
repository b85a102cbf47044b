/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_frame.c — one frame of the dashboard: the layout for the terminal's size,
 * the shared time axis, the header and footer, the panes, the help overlay.
 *
 * Layouts: from about 100x32 every pane with a numbers column beside the
 * charts; from 60x18 the same panes stacked without it (80x24 fits them all);
 * below that a one-screen summary of verdict titles and key numbers. Rows go
 * first to every pane's minimum, then round-robin by importance up to what each
 * wants; a pane made tall with Enter takes the rest. */
#include "ui.h"
#include "stwtop/report.h"
#include "stwtop/util.h"

#include <stdio.h>
#include <string.h>

#define GUTTER 6

static void ui_help_draw(struct ui *ui);      /* y-axis labels left of the charts */

/* --- header and footer --- */

/* The header: what is watched on the left (the demo's title, or the live
 * sources), the state on the right. The right side has forms of decreasing
 * detail; the first that leaves the left side all of its text wins, else the
 * first that leaves it half the row, so a title is not cut to a word by
 * counts that could be shorter. */
/* full; without the clock's zone (the time axis says it); the state in one
 * word; counts as letters, no FOLLOW/CURSOR; the clock alone */
enum { HDR_FULL, HDR_NO_ZONE, HDR_SHORT, HDR_TERSE, HDR_CLOCK };

struct header_state {
	int crit, warn, info, bad;
	int waiting;              /* sources whose file does not exist yet */
	const char *wait_name;    /* the first of them */
};

static int header_right(struct ui *ui, const struct header_state *hs, int form, int x, int w, bool draw)
{
	char clock[24], state[48], counts[3][24], badtxt[48] = "", waittxt[160] = "";
	ui_fmt_time(ui, ui->clock_ms, 0, clock, sizeof clock);
	if (form == HDR_CLOCK) {
		int cw = ui_text_width(ui, clock) + 1;
		/* the one thing the narrowest header keeps besides the clock */
		if (hs->waiting)
			snprintf(waittxt, sizeof waittxt, " waiting ");
		int ww = ui_text_width(ui, waittxt);
		if (draw) {
			ui_text(ui, 0, w - cw, cw, TR_HEADER, clock);
			if (ww)
				ui_text2(ui, 0, w - cw - ww, ww, TR_VERDICT_WARN, TR_HEADER, waittxt);
		}
		return cw + ww + 1;
	}
	if (form == HDR_FULL) {
		char zone[16];
		snprintf(clock + strlen(clock), sizeof clock - strlen(clock), " %s ",
			 session_uptime_axis(ui->s) ? "uptime" : ui_zone_label(ui->clock_ms, zone, sizeof zone));
	}
	else
		snprintf(clock + strlen(clock), sizeof clock - strlen(clock), " ");
	if (ui->demo && form <= HDR_NO_ZONE)
		snprintf(state, sizeof state, " %s%s ", ui->paused ? "PAUSED " : "", ui->demo_done ? "replay done" : "replay");
	else if (ui->demo)
		snprintf(state, sizeof state, " %s ", ui->paused ? "PAUSED" : ui->demo_done ? "done" : "replay");
	else
		snprintf(state, sizeof state, " %s ", ui->paused ? "PAUSED" : "live");
	static const char *const long_names[3] = {"crit", "warn", "info"}, *const short_names[3] = {"C", "W", "I"};
	const int n[3] = {hs->crit, hs->warn, hs->info};
	for (int i = 0; i < 3; i++)
		snprintf(counts[i], sizeof counts[i], form == HDR_TERSE ? " %d%s " : " %d %s ", n[i],
			 form == HDR_TERSE ? short_names[i] : long_names[i]);
	const char *follow = form == HDR_TERSE ? "" : ui->follow ? " FOLLOW " : " CURSOR ";
	if (hs->bad)
		snprintf(badtxt, sizeof badtxt, form == HDR_TERSE ? " %d unreadable " : " %d source%s unreadable ",
			 hs->bad, form != HDR_TERSE && hs->bad != 1 ? "s" : "");
	/* a path that does not exist must not look like a quiet JVM: named in every form */
	if (hs->waiting) {
		char name[100], more[16] = "";
		util_sanitize(name, sizeof name, hs->wait_name, strlen(hs->wait_name));
		if (hs->waiting > 1)
			snprintf(more, sizeof more, " +%d", hs->waiting - 1);
		snprintf(waittxt, sizeof waittxt, form == HDR_TERSE ? " waiting: %s%s " : " waiting for %s%s ", name, more);
	}
	int need = ui_text_width(ui, clock) + ui_text_width(ui, state) + ui_text_width(ui, follow) +
		   ui_text_width(ui, counts[0]) + ui_text_width(ui, counts[1]) + ui_text_width(ui, counts[2]) + 2 +
		   ui_text_width(ui, badtxt) + ui_text_width(ui, waittxt);
	if (!draw)
		return need;
	x = w - need;
	if (hs->waiting)
		x += ui_text2(ui, 0, x, w - x, TR_VERDICT_WARN, TR_HEADER, waittxt);
	if (hs->bad)
		x += ui_text2(ui, 0, x, w - x, TR_ERROR, TR_HEADER, badtxt);
	x += ui_text(ui, 0, x, w - x, hs->crit ? TR_VERDICT_CRIT : TR_HEADER, counts[0]);
	x += ui_text2(ui, 0, x, w - x, hs->warn ? TR_VERDICT_WARN : TR_HEADER, TR_HEADER, counts[1]);
	x += ui_text2(ui, 0, x, w - x, hs->info ? TR_VERDICT_INFO : TR_HEADER, TR_HEADER, counts[2]);
	x += 1;
	x += ui_text(ui, 0, x, w - x, ui->paused ? TR_VERDICT_WARN : TR_HEADER, state);
	if (follow[0])
		x += ui_text(ui, 0, x, w - x, ui->follow ? TR_HEADER : TR_KEY, follow);
	x += 1;
	ui_text(ui, 0, x, w - x, TR_HEADER, clock);
	return need;
}

/* "up 3d4h", "up 2h13m", "up 5m20s", "up 42s" */
static void fmt_uptime(int64_t ms, char *buf, size_t len)
{
	int64_t s = ms / 1000, m = s / 60, h = m / 60, d = h / 24;
	if (d > 0)
		snprintf(buf, len, "up %lldd%lldh", (long long)d, (long long)(h % 24));
	else if (h > 0)
		snprintf(buf, len, "up %lldh%02lldm", (long long)h, (long long)(m % 60));
	else if (m > 0)
		snprintf(buf, len, "up %lldm%02llds", (long long)m, (long long)(s % 60));
	else
		snprintf(buf, len, "up %llds", (long long)s);
}

/* A live run: the JVM (pid, main class or jar, uptime) when one is known,
 * then the sources by name. */
static void header_what(const struct ui *ui, char *what, size_t len)
{
	const struct ui_info *in = ui->info;
	size_t o = (size_t)snprintf(what, len, "live:");
	if (in && in->pid > 0) {
		o += (size_t)snprintf(what + o, len - o, " pid %d", in->pid);
		if (in->jvm_main[0] && o < len)
			o += (size_t)snprintf(what + o, len - o, " %s", in->jvm_main);
		int64_t alive = 0, gone = 0;
		if (ui->l && live_jvm_gone(ui->l, &alive, &gone) && o < len) {
			/* the JVM exited: how long it lived, not a clock that keeps counting */
			char ran[32], at[16];
			int64_t last = alive > 0 ? alive : gone;
			if (in->jvm_start_ms > 0 && last >= in->jvm_start_ms) {
				fmt_uptime(last - in->jvm_start_ms, ran, sizeof ran);
				o += (size_t)snprintf(what + o, len - o, ", gone by %s, ran %s", ui_fmt_time(ui, gone, 0, at, sizeof at),
						      ran + 3);
			} else {
				o += (size_t)snprintf(what + o, len - o, ", gone by %s", ui_fmt_time(ui, gone, 0, at, sizeof at));
			}
		} else if (in->jvm_start_ms > 0 && ui->clock_ms >= in->jvm_start_ms && o < len) {
			char up[32];
			fmt_uptime(ui->clock_ms - in->jvm_start_ms, up, sizeof up);
			o += (size_t)snprintf(what + o, len - o, ", %s", up);
		}
		if (o < len && session_nsources(ui->s) > 0)
			o += (size_t)snprintf(what + o, len - o, ";");
	}
	for (int i = 0; i < session_nsources(ui->s) && o < len; i++)
		o += (size_t)snprintf(what + o, len - o, " %s", session_source_name(ui->s, i));
}

static void draw_header(struct ui *ui, int w)
{
	ui_fill(ui, 0, 0, w, TR_HEADER);
	struct header_state hs = {0};
	const struct rules *r = session_rules(ui->s);
	for (size_t i = 0; i < rules_count(r); i++) {
		const struct verdict *v = rules_at(r, i);
		if (v->cleared_ms != EV_TIME_NONE)
			continue;
		if (v->severity == SEV_CRIT)
			hs.crit++;
		else if (v->severity == SEV_WARN)
			hs.warn++;
		else
			hs.info++;
	}
	/* a source that cannot be read is news, whatever the layout shows */
	for (int i = 0; i < session_nsources(ui->s); i++) {
		const struct source_stats *st = session_source_stats(ui->s, i);
		if (st->error)
			hs.bad++;
		else if (st->waiting && hs.waiting++ == 0)
			hs.wait_name = session_source_name(ui->s, i);
	}
	/* left: what is being watched */
	char what[700] = "";
	if (ui->demo)
		snprintf(what, sizeof what, "demo: %s", ui->info->demo_title);
	else
		header_what(ui, what, sizeof what);
	char safe[800];
	util_sanitize(safe, sizeof safe, what, strlen(what));
	const char *brand = " stwtop ";
	int full_left = ui_text_width(ui, brand) + ui_text_width(ui, safe) + 1;
	int half = w / 2 > 24 ? w / 2 : 24;
	int want = full_left < half ? full_left : half;
	int form = HDR_CLOCK;
	for (int f = HDR_FULL; f < HDR_CLOCK; f++)
		if (w - header_right(ui, &hs, f, 0, w, false) >= full_left) {
			form = f;
			break;
		}
	if (form == HDR_CLOCK)
		for (int f = HDR_FULL; f < HDR_CLOCK; f++)
			if (w - header_right(ui, &hs, f, 0, w, false) >= want) {
				form = f;
				break;
			}
	int left_w = w - header_right(ui, &hs, form, 0, w, false);
	if (form == HDR_CLOCK && left_w < 8) {
		left_w = w;   /* too narrow for the clock: the name only */
	} else {
		header_right(ui, &hs, form, 0, w, true);
	}
	int lx = ui_text2(ui, 0, 0, left_w, TR_TITLE, TR_HEADER, brand);
	int room = left_w - lx - 1;
	if (room > 1)
		ui_text_cut(ui, 0, lx, room, TR_HEADER, safe);
}

static void draw_footer(struct ui *ui, int y, int w)
{
	ui_fill(ui, y, 0, w, TR_STATUS);
	char zoomtxt[32], t[16];
	snprintf(zoomtxt, sizeof zoomtxt, " %s/col ", ui_fmt_ms((double)ui->res_ms, t, sizeof t));
	int zw = ui->layout == LAYOUT_SUMMARY ? 0 : ui_text_width(ui, zoomtxt);
	if (zw && w > zw + 20)
		ui_text(ui, y, w - zw, zw, TR_STATUS, zoomtxt);
	else
		zw = 0;
	int avail = w - zw;
	if (ui->prompt) {
		/* the search prompt: what is typed, where the next character goes, how to end it */
		char safe[sizeof ui->query * 4 + 2];
		safe[0] = '/';
		util_sanitize(safe + 1, sizeof safe - 1, ui->query, strlen(ui->query));
		const char *tail = "  Enter: search the Lines pane, Esc: cancel";
		int x = ui_text(ui, y, 1, avail - 1, TR_KEY, safe) + 1;
		if (x < avail)
			x += ui_text(ui, y, x, 1, TR_CURSOR, " ");
		if (x + ui_text_width(ui, tail) < avail)
			ui_text(ui, y, x, avail - x, TR_STATUS, tail);
		return;
	}
	if (ui->msg[0] && ui_mono() < ui->msg_until) {
		char safe[sizeof ui->msg + 32];
		util_sanitize(safe, sizeof safe, ui->msg, strlen(ui->msg));
		ui_text_cut(ui, y, 1, avail - 1, ui->msg_error ? TR_ERROR : TR_STATUS, safe);
		return;
	}
	/* the key table's rows with a footer form, in its order; on a tiny screen
	 * only those with a foot_small place, in that order */
	bool tiny = ui->layout == LAYOUT_SUMMARY;
	int x = 1;
	for (int place = 1; place <= (tiny ? (int)ui_nkeys : 1); place++)
		for (size_t i = 0; i < ui_nkeys; i++) {
			const struct ui_key *key = &ui_keys[i];
			if (!key->foot || (tiny && key->foot_small != place))
				continue;
			const char *k = ui->utf8 ? key->foot : key->foot_ascii;
			int need = ui_text_width(ui, k) + 1 + (int)strlen(key->foot_what) + 2;
			if (x + need > avail)
				return;
			x += ui_text(ui, y, x, avail - x, TR_KEY, k);
			x += ui_text(ui, y, x + 1, avail - x - 1, TR_STATUS, key->foot_what) + 1;
			x += 2;
		}
}

/* --- the time axis --- */

static void draw_axis(struct ui *ui, int y)
{
	const struct view_axis *a = &ui->axis;
	int n = a->ncols;
	if (n <= 0)
		return;
	char zone[16];
	ui_text(ui, y, 0, GUTTER - 1, TR_AXIS,
		session_uptime_axis(ui->s) ? "up" : ui_zone_label(ui->cursor_ms, zone, sizeof zone));
	/* verdict spans under the ticks: the worst severity wins a column */
	int sev[1024];
	if (n > 1024)
		n = 1024;
	for (int c = 0; c < n; c++)
		sev[c] = -1;
	const struct rules *r = session_rules(ui->s);
	for (size_t i = 0; i < rules_count(r); i++) {
		const struct verdict *v = rules_at(r, i);
		if (v->start_ms == EV_TIME_NONE || v->end_ms == EV_TIME_NONE || v->cleared_ms != EV_TIME_NONE)
			continue;
		/* whole-run verdicts (a heap that never shrinks) would paint the whole axis */
		if (!verdict_is_incident(v->id))
			continue;
		int c0 = view_col_of(a, v->start_ms), c1 = view_col_of(a, v->end_ms);
		if (c1 < 0 || c0 >= n)
			continue;
		if (c0 < 0)
			c0 = 0;
		if (c1 >= n)
			c1 = n - 1;
		for (int c = c0; c <= c1; c++)
			if (v->severity > sev[c])
				sev[c] = v->severity;
	}
	wchar_t cell[1024];
	int role[1024];
	const char *asc[1024];
	for (int c = 0; c < n; c++) {
		cell[c] = L'─';
		asc[c] = "-";
		role[c] = TR_AXIS;
	}
	/* ticks at round times, far enough apart for their labels */
	static const int64_t steps[] = {1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000,
					900000, 1800000, 3600000, 7200000, 21600000, 43200000, 86400000};
	int64_t step = steps[sizeof steps / sizeof steps[0] - 1];
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] >= 11 * a->res_ms) {
			step = steps[i];
			break;
		}
	/* the cursor's label first: ticks only where they do not touch it */
	int cc = ui_cursor_col(ui);
	char clab[24];
	ui_fmt_time(ui, view_col_start(a, cc >= 0 && cc < n ? cc : 0), a->res_ms < 1000 ? 1 : 0, clab, sizeof clab);
	int clen = (int)strlen(clab);
	int lx = cc + 1 + clen <= n ? cc + 1 : cc - clen;
	if (lx < 0)
		lx = 0;
	int busy0 = (cc < lx ? cc : lx) - 1, busy1 = (cc > lx + clen - 1 ? cc : lx + clen - 1) + 1;
	int64_t t0 = view_col_start(a, 0);
	/* round times of the zone shown: floored in local time */
	int64_t off = session_uptime_axis(ui->s) ? 0 : util_tz_offset_ms(t0);
	int64_t first = view_floor(t0 + off, step) - off;
	for (int64_t t = first + (first < t0 ? step : 0); t < a->end_ms; t += step) {
		int c = view_col_of(a, t);
		if (c < 0 || c >= n)
			continue;
		char lab[16];
		ui_fmt_time(ui, t, 0, lab, sizeof lab);
		int len = (int)strlen(lab);
		if (cc >= 0 && cc < n && c <= busy1 && c + len >= busy0)
			continue;
		cell[c] = L'┴';
		asc[c] = "+";
		for (int k = 0; k < len && c + 1 + k < n; k++) {
			cell[c + 1 + k] = (wchar_t)lab[k];
			asc[c + 1 + k] = NULL;
			role[c + 1 + k] = TR_AXIS;
		}
	}
	if (cc >= 0 && cc < n) {
		int len = clen;
		for (int k = 0; k < len && lx + k < n; k++) {
			cell[lx + k] = (wchar_t)clab[k];
			asc[lx + k] = NULL;
			role[lx + k] = TR_CURSOR;
		}
		cell[cc] = L'▲';
		asc[cc] = "^";
		role[cc] = TR_CURSOR;
	}
	for (int c = 0; c < n; c++) {
		int bg = ui->st[role[c]].bg;
		if (sev[c] >= 0 && role[c] != TR_CURSOR) {
			int vr = sev[c] == SEV_CRIT ? TR_VERDICT_CRIT : sev[c] == SEV_WARN ? TR_VERDICT_WARN : TR_VERDICT_INFO;
			bg = ui->st[vr].bg >= 0 && ui->st[vr].bg != ui->st[TR_TEXT].bg ? ui->st[vr].bg : ui->st[vr].fg;
		}
		char a1[2] = {0, 0};
		const char *ascii = asc[c];
		if (!ascii) {
			a1[0] = cell[c] < 0x80 ? (char)cell[c] : '?';
			ascii = a1;
		}
		int fg = ui->st[role[c]].fg;
		if (sev[c] >= 0 && role[c] != TR_CURSOR && ui->color)
			fg = ui->st[TR_TEXT].bg >= 0 ? ui->st[TR_TEXT].bg : 16;
		ui_cell(ui, y, ui->chart_x + c, cell[c], ascii, role[c], fg, bg);
		if (sev[c] >= 0 && !ui->color) {
			/* no colour: the incident span is reverse video */
			mvchgat(y, ui->chart_x + c, 1, A_REVERSE, 0, NULL);
		}
	}
}

/* --- layout --- */

/* The panes top to bottom. Verdicts and Stops are never dropped (the story and
 * the stop); spare rows go to the Verdicts, then the charts that explain a
 * stop; what is left at the end is more raw lines. */
const struct pane_def pane_defs[PANE_COUNT] = {
	[PANE_VERDICTS] = {.name = "Verdicts", .min = 2, .want = pane_verdicts_want, .want_expanded = -1,
			   .grow_rank = 0, .drop_rank = -1, .spare_rank = 1, .draw = pane_verdicts_draw},
	[PANE_STOPS] = {.name = "Stops", .min = 2, .want_full = 5, .want_compact = 3, .want_expanded = -1,
			.grow_rank = 1, .drop_rank = -1, .spare_rank = -1, .chart = true, .draw = pane_stops_draw},
	[PANE_CPU] = {.name = "CPU", .min = 2, .want_full = 5, .want_compact = 2, .want_expanded = -1,
		      .grow_rank = 3, .drop_rank = 2, .spare_rank = -1, .chart = true, .draw = pane_cpu_draw},
	[PANE_UPSTREAM] = {.name = "Upstream", .min = 2, .want_full = 5, .want_compact = 3, .want_expanded = -1,
			   .grow_rank = 2, .drop_rank = -1, .spare_rank = -1, .chart = true,
			   .draw = pane_upstream_draw},
	/* an expanded verdict takes the rows the heap and the raw lines would like */
	[PANE_HEAP] = {.name = "Heap", .min = 2, .want_full = 4, .want_compact = 2, .want_expanded = 1,
		       .grow_rank = 5, .drop_rank = 1, .spare_rank = -1, .chart = true, .draw = pane_heap_draw},
	[PANE_LINES] = {.name = "Lines", .min = 1, .want_full = 6, .want_compact = 2, .want_expanded = 1,
			.grow_rank = 4, .drop_rank = 0, .spare_rank = 0, .axis_above = true, .draw = pane_lines_draw},
};

struct plan {
	int min, want, body;
};

enum rank { RANK_GROW, RANK_DROP, RANK_SPARE };

/* the pane that comes rank-th in that order, or -1 */
static int pane_ranked(enum rank which, int rank)
{
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct pane_def *d = &pane_defs[p];
		int r = which == RANK_GROW ? d->grow_rank : which == RANK_DROP ? d->drop_rank : d->spare_rank;
		if (r == rank)
			return p;
	}
	return -1;
}

static void allocate(struct ui *ui, struct plan *pl, int avail)
{
	for (int p = 0; p < PANE_COUNT; p++)
		pl[p].body = ui->shown[p] ? pl[p].min : 0;
	for (int p = 0; p < PANE_COUNT; p++)
		avail -= pl[p].body;
	bool more = true;
	while (avail > 0 && more) {
		more = false;
		for (int i = 0; i < PANE_COUNT && avail > 0; i++) {
			int p = pane_ranked(RANK_GROW, i);
			if (p >= 0 && ui->shown[p] && pl[p].body < pl[p].want) {
				pl[p].body++;
				avail--;
				more = true;
			}
		}
	}
	/* what is left: more raw lines */
	for (int i = 0, p; avail > 0 && (p = pane_ranked(RANK_SPARE, i)) >= 0; i++)
		if (ui->shown[p]) {
			pl[p].body += avail;
			break;
		}
}

static bool plan_panes(struct ui *ui, const struct pane_ctx *pc, int h, int w)
{
	bool full = ui->layout == LAYOUT_FULL;
	struct plan pl[PANE_COUNT];
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct pane_def *d = &pane_defs[p];
		pl[p] = (struct plan){d->min, d->want ? d->want(pc, w) : full ? d->want_full : d->want_compact, 0};
		if (ui->vexpand && d->want_expanded >= 0)
			pl[p].want = d->want_expanded;
		ui->shown[p] = true;
		if (ui->tall[p])
			pl[p].want += 200;
	}
	/* header, footer, the axis row, a title row per pane */
	for (int d = 0;; d++) {
		int titles = 0, mins = 0;
		for (int p = 0; p < PANE_COUNT; p++)
			if (ui->shown[p]) {
				titles++;
				mins += pl[p].min;
			}
		int avail = h - 3 - titles;
		if (avail >= mins) {
			allocate(ui, pl, avail);
			break;
		}
		int drop = pane_ranked(RANK_DROP, d);
		if (drop < 0)
			return false;
		ui->shown[drop] = false;
	}
	int y = 1;
	for (int p = 0; p < PANE_COUNT; p++) {
		if (pane_defs[p].axis_above) {
			ui->axis_y = y;
			y++;
		}
		if (!ui->shown[p]) {
			ui->pane[p] = (struct rect){0, 0, 0, 0};
			continue;
		}
		ui->pane[p] = (struct rect){.y = y, .x = 0, .h = 1 + pl[p].body, .w = w};
		y += 1 + pl[p].body;
	}
	if (!ui->shown[ui->focus])
		ui->focus = PANE_VERDICTS;
	return true;
}

static void update_axis(struct ui *ui)
{
	struct view_axis *a = &ui->axis;
	int64_t res = ui->res_ms;
	a->ncols = ui->chart_w > 0 ? ui->chart_w : 1;
	a->res_ms = res;
	const struct timeline *tl = session_timeline(ui->s);
	int64_t newest = tl->newest_ms != EV_TIME_NONE ? tl->newest_ms : ui->clock_ms;
	if (ui->follow && !ui->paused) {
		ui->cursor_ms = newest;
		ui->view_end = view_floor(newest, res) + res;
	} else {
		int64_t start = ui->view_end - (int64_t)a->ncols * res;
		int64_t margin = a->ncols >= 20 ? 3 : 0;
		if (ui->cursor_ms < start + margin * res)
			ui->view_end = view_floor(ui->cursor_ms, res) - margin * res + (int64_t)a->ncols * res;
		else if (ui->cursor_ms >= ui->view_end)
			ui->view_end = view_floor(ui->cursor_ms, res) + res;
		ui->view_end = view_floor(ui->view_end, res);
	}
	a->end_ms = ui->view_end;
}

static void draw_separators(struct ui *ui)
{
	if (ui->side_w <= 0)
		return;
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct rect *r = &ui->pane[p];
		if (!pane_defs[p].chart || !ui->shown[p])
			continue;
		for (int y = r->y + 1; y < r->y + r->h; y++)
			ui_cell(ui, y, ui->side_x - 1, L'│', "|", TR_BORDER, ui->st[TR_BORDER].fg, ui->st[TR_BORDER].bg);
	}
}

/* the frame's facts for the panes, once the layout and the axis are fixed */
static void fill_ctx(struct ui *ui, struct pane_ctx *pc)
{
	pc->layout = ui->layout;
	pc->focus = ui->focus;
	pc->axis = &ui->axis;
	pc->cursor_col = ui_cursor_col(ui);
	pc->chart_x = ui->chart_x;
	pc->chart_w = ui->chart_w;
	pc->side_x = ui->side_x;
	pc->side_w = ui->side_w;
	for (size_t i = 0; i < ui->nv; i++) {
		const struct verdict *v = rules_at(session_rules(ui->s), ui->vorder[i]);
		pc->vnew[i] = ui_verdict_is_new(ui, v, &pc->vflash[i]);
	}
}

void ui_frame(struct ui *ui)
{
	int h = LINES, w = COLS;
	erase();
	ui->nv = view_verdict_order(ui->s, ui->vorder, sizeof ui->vorder / sizeof ui->vorder[0]);
	if (ui->vsel >= ui->nv)
		ui->vsel = ui->nv ? ui->nv - 1 : 0;
	ui->layout = w >= 100 && h >= 32 ? LAYOUT_FULL : w >= 60 && h >= 18 ? LAYOUT_COMPACT : LAYOUT_SUMMARY;
	ui->axis_y = -1;
	struct pane_ctx ctx = {.ui = ui, .s = ui->s}, *pc = &ctx;
	if (ui->layout != LAYOUT_SUMMARY && !plan_panes(ui, pc, h, w))
		ui->layout = LAYOUT_SUMMARY;
	if (ui->layout == LAYOUT_SUMMARY)
		for (int p = 0; p < PANE_COUNT; p++)
			ui->shown[p] = false;
	/* the chart columns every chart pane shares */
	ui->chart_x = GUTTER;
	if (ui->layout == LAYOUT_FULL) {
		ui->side_w = w * 30 / 100;
		if (ui->side_w < 32)
			ui->side_w = 32;
		if (ui->side_w > 46)
			ui->side_w = 46;
		ui->chart_w = w - ui->chart_x - ui->side_w - 1;
		ui->side_x = ui->chart_x + ui->chart_w + 1;
	} else {
		ui->side_w = 0;
		ui->chart_w = w - ui->chart_x;
		ui->side_x = w;
	}
	/* the summary has no time axis: leave the panes' view where it was, so a
	 * round trip through a tiny terminal comes back to the same screen */
	if (ui->layout != LAYOUT_SUMMARY)
		update_axis(ui);
	else if (ui->follow && !ui->paused)
		ui->cursor_ms = session_timeline(ui->s)->newest_ms != EV_TIME_NONE ? session_timeline(ui->s)->newest_ms
										   : ui->clock_ms;

	if (h >= 2)
		draw_header(ui, w);
	if (ui->layout == LAYOUT_SUMMARY) {
		pane_summary_draw(ui, h >= 2 ? 1 : 0, h >= 3 ? h - 2 : h - 1, w);
	} else {
		fill_ctx(ui, pc);
		for (int p = 0; p < PANE_COUNT; p++) {
			if (pane_defs[p].axis_above) {
				draw_separators(ui);
				if (ui->axis_y > 0)
					draw_axis(ui, ui->axis_y);
			}
			if (ui->shown[p])
				pane_defs[p].draw(pc, &ui->pane[p]);
		}
	}
	if (h >= 3)
		draw_footer(ui, h - 1, w);
	if (ui->help)
		ui_help_draw(ui);
	wnoutrefresh(stdscr);
	doupdate();
}

/* --- help --- */

/* Every key of the key table (ui.c), then what the charts mean. The rows are made for the box's width
 * (descriptions wrap beside their key, or under it when the box is narrow);
 * when they do not all fit, the arrow keys scroll them and the frame says
 * "more ↓". */
static const char *const help_legend[] = {
	"Stops: each stop of the JVM; the lower part is time to safepoint (threads not yet stopped), the "
	"upper part the operation itself.",
	"CPU: above, the cgroup's throttled time; below, schedstat on CPU vs waiting to run; the number "
	"left of each part is its top.",
	"Upstream: nginx requests/s by connect time 0/1/2/3/4+ s (whole seconds mean SYN retries: a full "
	"accept queue); p99 request time on the top row, ! 5xx.",
	"Heap: used after GC under committed; R Remark, F Full, P periodic.",
};

#define HELP_ROWS 256

struct help_row {
	const char *key;         /* NULL: no key on this row */
	const char *s;           /* the text piece (not NUL-terminated) */
	size_t n;
	int indent;              /* columns from the box's text start */
	int role;
};

struct help_fill {
	struct help_row *rows;
	int n, indent, indent_more, role;
	const char *key;
};

static void help_piece(void *ctx, int line, const char *s, size_t n)
{
	struct help_fill *f = ctx;
	if (f->n >= HELP_ROWS)
		return;
	f->rows[f->n++] = (struct help_row){.key = line == 0 ? f->key : NULL, .s = s, .n = n,
					    .indent = line == 0 ? f->indent : f->indent_more, .role = f->role};
}

/* The i key: the notes whole (the Verdicts pane shortens them at a clause to
 * fit its rows): the discovery's hints, then what the input cannot show, with
 * their times in the zone shown. */
#define NOTES_SHOWN 8
static int notes_rows(const struct ui *ui, struct help_row *rows, int tw)
{
	static char text[NOTES_SHOWN][SESSION_NOTE_LEN * 4];
	char raw[NOTES_SHOWN][SESSION_NOTE_LEN];
	size_t n = 0;
	int nh = 0;
	const char *const *hints = session_hints(ui->s, &nh);
	for (int i = 0; i < nh && n < NOTES_SHOWN; i++, n++)
		ui_verdict_text(text[n], sizeof text[n], hints[i], strlen(hints[i]));
	size_t k = session_notes(ui->s, raw, NOTES_SHOWN - n);
	for (size_t i = 0; i < k; i++, n++)
		ui_verdict_text(text[n], sizeof text[n], raw[i], strnlen(raw[i], SESSION_NOTE_LEN));
	struct help_fill f = {.rows = rows, .role = TR_TEXT, .indent = 0, .indent_more = 2};
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			help_piece(&f, 1, "", 0);
		ui_wrap(ui, text[i], tw - 2, help_piece, &f);
	}
	if (n == 0)
		ui_wrap(ui, "No notes: nothing the input cannot show, nothing more to log.", tw - 2, help_piece, &f);
	return f.n;
}

/* the rows for text width tw: returns how many */
static int help_rows(const struct ui *ui, struct help_row *rows, int tw)
{
	if (ui->help_notes)
		return notes_rows(ui, rows, tw);
	int kw = 0;
	for (size_t i = 0; i < ui_nkeys; i++) {
		if (!ui_keys[i].label)
			continue;
		int w = ui_text_width(ui, ui->utf8 ? ui_keys[i].label : ui_keys[i].label_ascii);
		if (w > kw)
			kw = w;
	}
	/* the descriptions beside the keys while that leaves them room, else under them */
	bool beside = tw - kw - 2 >= 16;
	struct help_fill f = {.rows = rows, .role = TR_TEXT};
	for (size_t i = 0; i < ui_nkeys; i++) {
		const struct ui_key *k = &ui_keys[i];
		if (!k->label)
			continue;
		f.key = ui->utf8 ? k->label : k->label_ascii;
		if (beside) {
			f.indent = f.indent_more = kw + 2;
			ui_wrap(ui, k->what, tw - kw - 2, help_piece, &f);
		} else {
			/* the key alone, then its text indented */
			help_piece(&f, 0, "", 0);
			f.key = NULL;
			f.indent = f.indent_more = 2;
			ui_wrap(ui, k->what, tw - 2, help_piece, &f);
		}
	}
	f.key = NULL;
	help_piece(&f, 1, "", 0);   /* a blank row before the legend */
	f.role = TR_DIM;
	f.indent = 0;
	f.indent_more = 2;
	for (size_t i = 0; i < sizeof help_legend / sizeof help_legend[0]; i++)
		ui_wrap(ui, help_legend[i], tw - 2, help_piece, &f);
	return f.n;
}

/* a horizontal border row with its corners and a label after the first dash */
static void help_border(struct ui *ui, int y, int x0, int bw, bool top, const char *label, int role)
{
	const char *h = ui->utf8 ? "─" : "-";
	for (int i = 1; i < bw - 1; i++)
		ui_text(ui, y, x0 + i, 1, TR_BORDER, h);
	ui_text(ui, y, x0, 1, TR_BORDER, ui->utf8 ? (top ? "┌" : "└") : "+");
	if (bw >= 2)
		ui_text(ui, y, x0 + bw - 1, 1, TR_BORDER, ui->utf8 ? (top ? "┐" : "┘") : "+");
	if (label && label[0] && bw >= 6) {
		char t[160];
		snprintf(t, sizeof t, " %s ", label);
		if (ui_text_width(ui, t) <= bw - 3)
			ui_text(ui, y, x0 + 2, bw - 3, role, t);
	}
}

static void ui_help_draw(struct ui *ui)
{
	int bw = COLS < 78 ? COLS : 78, bh = LINES;
	if (bw < 8 || bh < 3) {
		ui->help_max_top = 0;
		return;
	}
	int tw = bw - 4;   /* text between "│ " and " │" */
	static struct help_row rows[HELP_ROWS];
	int n = help_rows(ui, rows, tw);
	if (bh > n + 2)
		bh = n + 2;
	int view = bh - 2;
	ui->help_view = view;
	ui->help_max_top = n > view ? n - view : 0;
	if (ui->help_top > ui->help_max_top)
		ui->help_top = ui->help_max_top;
	if (ui->help_top < 0)
		ui->help_top = 0;
	int y0 = (LINES - bh) / 2, x0 = (COLS - bw) / 2;
	const char *v = ui->utf8 ? "│" : "|";
	for (int y = y0 + 1; y < y0 + bh - 1; y++) {
		ui_fill(ui, y, x0, bw, TR_TEXT);
		ui_text(ui, y, x0, 1, TR_BORDER, v);
		ui_text(ui, y, x0 + bw - 1, 1, TR_BORDER, v);
	}
	char title[64];
	const char *what = ui->help_notes ? "stwtop notes" : "stwtop keys";
	if (ui->help_max_top > 0)
		snprintf(title, sizeof title, "%s %d-%d/%d", what, ui->help_top + 1, ui->help_top + view, n);
	else
		snprintf(title, sizeof title, "%s", what);
	help_border(ui, y0, x0, bw, true, title, TR_FOCUS);
	for (int i = 0; i < view && ui->help_top + i < n; i++) {
		const struct help_row *r = &rows[ui->help_top + i];
		int y = y0 + 1 + i;
		if (r->key)
			ui_text(ui, y, x0 + 2, tw, TR_KEY, r->key);
		char piece[600];
		size_t len = r->n < sizeof piece - 1 ? r->n : sizeof piece - 1;
		memcpy(piece, r->s, len);
		piece[len] = '\0';
		if (len)
			ui_text(ui, y, x0 + 2 + r->indent, tw - r->indent, r->role, piece);
	}
	/* the bottom border says how to go on: as much of it as fits */
	const char *label = "any key closes this";
	if (ui->help_max_top > 0) {
		bool more = ui->help_top < ui->help_max_top;
		static const char *const more_u[] = {"more ↓  ↑↓ PgUp PgDn scroll, other keys close", "more ↓  ↑↓ scroll",
						    "more ↓"};
		static const char *const more_a[] = {"more v  Up/Down PgUp/PgDn scroll, other keys close",
						    "more v  Up/Down scroll", "more v"};
		static const char *const end_u[] = {"end  ↑↓ PgUp PgDn scroll, other keys close", "end  ↑↓ scroll", "end"};
		static const char *const end_a[] = {"end  Up/Down PgUp/PgDn scroll, other keys close", "end  Up/Down scroll",
						   "end"};
		const char *const *opts = more ? (ui->utf8 ? more_u : more_a) : (ui->utf8 ? end_u : end_a);
		for (int i = 0; i < 3; i++) {
			label = opts[i];
			if (ui_text_width(ui, label) + 2 <= bw - 3)
				break;
		}
	}
	help_border(ui, y0 + bh - 1, x0, bw, false, label, ui->help_max_top > 0 ? TR_KEY : TR_TITLE);
}
