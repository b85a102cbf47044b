/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_upstream.c — the Upstream pane: what the stop cost the callers, from
 * nginx's access log. Requests per second by their start, stacked by upstream
 * connect time rounded to 0/1/2/3/4+ s: whole seconds are SYN retransmits
 * after a full accept queue dropped them (docs/verdicts.md, accept-queue-overflow), so the stepped
 * colours line up with the stop above. The top row is the p99 of request_time
 * per column (log scale, 10 ms .. 10 s); '!' marks 5xx. */
#include "ui.h"
#include "stwtop/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void draw_p99(struct ui *ui, int y, int x, float p99, bool cursor)
{
	static const wchar_t lv[9] = {L' ', L'▁', L'▂', L'▃', L'▄', L'▅', L'▆', L'▇', L'█'};
	static const char *const la[9] = {" ", ".", ".", ":", "-", "=", "+", "*", "#"};
	int bg = cursor ? ui->st[TR_CURSOR].bg : ui->st[TR_TEXT].bg;
	if (p99 <= 0) {
		ui_cell(ui, y, x, cursor ? L'╎' : L' ', cursor ? "|" : " ", cursor ? TR_CURSOR : TR_TEXT,
			ui->st[cursor ? TR_CURSOR : TR_TEXT].fg, bg);
		return;
	}
	/* 10 ms .. 10 s over 8 levels */
	double f = log10(p99 / 0.01) / 3.0;
	int k = (int)lround(1 + f * 7);
	k = k < 1 ? 1 : k > 8 ? 8 : k;
	ui_cell(ui, y, x, lv[k], la[k], TR_UP_P99, ui->st[TR_UP_P99].fg, bg);
}

/* a text in the numbers column that wraps: continuation rows indented */
struct side_wrap {
	struct ui *ui;
	int y, ymax, x, w, role;
};

static void side_piece(void *ctx, int line, const char *s, size_t n)
{
	struct side_wrap *c = ctx;
	if (c->y >= c->ymax)
		return;
	char piece[200];
	if (n > sizeof piece - 1)
		n = sizeof piece - 1;
	memcpy(piece, s, n);
	piece[n] = '\0';
	int in = line ? 2 : 0;
	ui_text(c->ui, c->y++, c->x + in, c->w - in, c->role, piece);
}

/* the title row's readout: the requests at the cursor's column */
static void readout(const struct pane_ctx *pc, const struct timeline *tl, const struct view_up_col *cols, char *ro,
		    size_t len)
{
	int cc = pc->cursor_col, n = pc->axis->ncols;
	bool in = cc >= 0 && cc < n;
	const char *sep = pc->ui->utf8 ? " · " : " | ";
	if (tl->reqs.total == 0)
		snprintf(ro, len, "no requests");
	else if (!in || cols[cc].rate < 0)
		snprintf(ro, len, "no requests at the cursor");
	else {
		/* the newest seconds are still filling (nginx logs a request when it
		 * ends): at a column not settled yet, the rate of the last settled seconds */
		int64_t settled;
		double rate = view_req_settled_rate(tl, VIEW_SETTLED_RATE_SECS, &settled);
		size_t o;
		if (settled != EV_TIME_NONE && view_col_start(pc->axis, cc) + pc->axis->res_ms > (settled + 1) * 1000 &&
		    rate >= 0) {
			char t[32];
			o = (size_t)snprintf(ro, len, "%.0f req/s to %s", rate,
					     ui_fmt_time(pc->ui, (settled + 1) * 1000, 0, t, sizeof t));
		} else {
			o = (size_t)snprintf(ro, len, "%.0f req/s", cols[cc].rate);
		}
		float slow = cols[cc].bucket[1] + cols[cc].bucket[2] + cols[cc].bucket[3] + cols[cc].bucket[4];
		if (slow > 0 && o < len) {
			o += (size_t)snprintf(ro + o, len - o, "%sconnect", sep);
			static const char *const names[5] = {"0s", "1s", "2s", "3s", "4s+"};
			for (int k = 1; k < 5 && o < len; k++)
				if (cols[cc].bucket[k] > 0)
					o += (size_t)snprintf(ro + o, len - o, " %s:%.0f", names[k], cols[cc].bucket[k]);
		}
		if (cols[cc].rt_p99 >= 0 && o < len) {
			char t[16];
			o += (size_t)snprintf(ro + o, len - o, "%sp99 %s", sep, ui_fmt_ms(cols[cc].rt_p99 * 1000.0, t, sizeof t));
		}
		/* the upstream's own p99 when there is no request time (the title
		 * row is short; the side column has both) */
		if (cols[cc].rt_p99 < 0 && cols[cc].urt_p99 >= 0 && o < len) {
			char t[16];
			o += (size_t)snprintf(ro + o, len - o, "%supstream p99 %s", sep,
					      ui_fmt_ms(cols[cc].urt_p99 * 1000.0, t, sizeof t));
		}
		if (cols[cc].s5xx && o < len)
			snprintf(ro + o, len - o, "%s%u 5xx", sep, cols[cc].s5xx);
	}
}

/* the numbers column: totals in view and what slow connects mean */
static void draw_side(const struct pane_ctx *pc, const struct rect *r, uint64_t req, const uint64_t *b, uint64_t s5xx,
		      float worst, float worst_up)
{
	struct ui *ui = pc->ui;
	if (pc->side_w <= 0)
		return;
	int sx = pc->side_x + 1, sw = pc->side_w - 2, y = r->y + 1, ymax = r->y + r->h;
	char t[16];
	uint64_t slow = b[1] + b[2] + b[3] + b[4];
	if (y < ymax)
		ui_textf(ui, y++, sx, sw, s5xx ? TR_UP_5XX : TR_TEXT, "%llu requests, %llu 5xx", (unsigned long long)req,
			 (unsigned long long)s5xx);
	/* a time the log_format does not have is unknown: say so, do not draw it as 0 */
	const struct summary *sm = session_summary(pc->s);
	bool no_uct = sm->lacks_uct && sm->lacks_uct == sm->requests;
	if (y < ymax && no_uct)
		ui_text(ui, y++, sx, sw, TR_DIM, "connect time not logged (no $upstream_connect_time)");
	if (y < ymax && sm->lacks_rt && sm->lacks_rt == sm->requests)
		ui_text(ui, y++, sx, sw, TR_DIM, "request time not logged (no $request_time)");
	if (y < ymax && !no_uct) {
		/* the buckets that have requests (they add up to the total), on a
		 * second row when the column is too narrow for them */
		char sc[160];
		size_t o = (size_t)snprintf(sc, sizeof sc, "slow connects %llu", (unsigned long long)slow);
		static const char *const bn[3] = {"1s", "2s", "3s+"};
		uint64_t bv[3] = {b[1], b[2], b[3] + b[4]};
		for (int k = 0, first = 1; k < 3 && o < sizeof sc; k++)
			if (bv[k]) {
				o += (size_t)snprintf(sc + o, sizeof sc - o, "%s%s %llu", first ? ": " : ", ", bn[k],
						      (unsigned long long)bv[k]);
				first = 0;
			}
		struct side_wrap sw_ctx = {.ui = ui, .y = y, .ymax = ymax, .x = sx, .w = sw,
					   .role = slow ? TR_UP_B2 : TR_TEXT};
		ui_wrap(ui, sc, sw - 2, side_piece, &sw_ctx);
		y = sw_ctx.y;
	}
	if (y < ymax && worst >= 0)
		ui_textf(ui, y++, sx, sw, TR_TEXT, "worst p99 request time %s", ui_fmt_ms(worst * 1000.0, t, sizeof t));
	/* $upstream_response_time: the one upstream time of ingress-nginx's format */
	if (y < ymax && worst_up >= 0)
		ui_textf(ui, y++, sx, sw, TR_TEXT, "worst p99 upstream response %s",
			 ui_fmt_ms(worst_up * 1000.0, t, sizeof t));
	if (slow && y < ymax)
		ui_text(ui, y++, sx, sw, TR_DIM, "1-3 s connects are SYN retries:");
	if (slow && y < ymax)
		ui_text(ui, y++, sx, sw, TR_DIM, "the app's accept queue was full");
	if (s5xx && y < ymax)
		ui_text(ui, y++, sx, sw, TR_DIM, "5xx with no connect: nginx gave up");
}

void pane_upstream_draw(const struct pane_ctx *pc, const struct rect *r)
{
	struct ui *ui = pc->ui;
	const struct timeline *tl = session_timeline(pc->s);
	bool focused = pc->focus == PANE_UPSTREAM;
	int x = ui_title(ui, r, "Upstream", focused);
	const struct view_axis *a = pc->axis;
	int n = a->ncols;
	struct view_up_col *cols = calloc((size_t)(n > 0 ? n : 1), sizeof *cols);
	if (!cols)
		return;
	view_upstream(tl, a, cols);
	int cc = pc->cursor_col;
	char ro[240];
	readout(pc, tl, cols, ro, sizeof ro);
	/* without fine colour bars the slow buckets are drawn with their digit: "1" + "s" */
	static const struct ui_legend lg_fine[] = {
		{TR_UP_B0, "connect 0s", "0s"}, {TR_UP_B1, "1s", "1s"}, {TR_UP_B2, "2s", "2s"},
		{TR_UP_B3, "3s", "3s"}, {TR_UP_B4, "4s+", "4s+"}, {TR_UP_5XX, "5xx", "5xx"},
		{TR_UP_P99, "p99 request time", "p99"},
	};
	static const struct ui_legend lg_glyph[] = {
		{TR_UP_B0, "connect 0s", "0s"}, {TR_UP_B1, "s", "s"}, {TR_UP_B2, "s", "s"},
		{TR_UP_B3, "s", "s"}, {TR_UP_B4, "s+", "s+"}, {TR_UP_5XX, "5xx (!)", "5xx"},
		{TR_UP_P99, "p99 request time", "p99"},
	};
	ui_title_row(ui, r, x, ui->fine ? lg_fine : lg_glyph, 7, TR_TITLE, ro);
	int rows = r->h - 1, ybot = r->y + r->h - 1;
	if (rows <= 0) {
		free(cols);
		return;
	}
	if (tl->reqs.total == 0) {
		ui_empty(ui, r, "no nginx requests: --nginx FILE (a log_format with $upstream_connect_time)");
		free(cols);
		return;
	}
	int prow = rows >= 3 ? 1 : 0, brows = rows - prow;
	double max = 0;
	uint64_t req = 0, b[5] = {0}, s5xx = 0;
	float worst = -1, worst_up = -1;
	for (int c = 0; c < n; c++) {
		if (cols[c].rate > max)
			max = cols[c].rate;
		if (cols[c].rt_p99 > worst)
			worst = cols[c].rt_p99;
		if (cols[c].urt_p99 > worst_up)
			worst_up = cols[c].urt_p99;
	}
	/* totals in view, each second once (columns narrower than a second share it) */
	int64_t last_sec = INT64_MIN;
	for (int c = 0; c < n; c++) {
		int64_t sec = view_floor(view_col_start(a, c), 1000);
		if (cols[c].rate < 0 || (a->res_ms < 1000 && sec == last_sec))
			continue;
		last_sec = sec;
		req += cols[c].req;
		double secs = a->res_ms >= 1000 ? (double)a->res_ms / 1000.0 : 1.0;
		for (int k = 0; k < 5; k++)
			b[k] += (uint64_t)llround(cols[c].bucket[k] * secs);
		s5xx += cols[c].s5xx;
	}
	for (int c = 0; c < n; c++) {
		int xcol = pc->chart_x + c;
		int seg[6] = {0}, roles[6] = {TR_UP_B0, TR_UP_B1, TR_UP_B2, TR_UP_B3, TR_UP_B4, TR_DIM};
		/* requests that never connected: mostly 5xx when nginx gave up (504), so coloured as such */
		double secs_c = a->res_ms >= 1000 ? (double)a->res_ms / 1000.0 : 1.0;
		float unb = cols[c].rate - (cols[c].bucket[0] + cols[c].bucket[1] + cols[c].bucket[2] +
					     cols[c].bucket[3] + cols[c].bucket[4]);
		if (unb > 0 && cols[c].s5xx / secs_c >= 0.5 * unb)
			roles[5] = TR_UP_5XX;
		if (cols[c].rate > 0 && max > 0) {
			int total = (int)lround(cols[c].rate / max * brows * 8);
			if (total < 1)
				total = 1;
			/* cumulative rounding keeps the stack's height exact */
			double acc = 0;
			int prev = 0;
			float parts[6] = {cols[c].bucket[0], cols[c].bucket[1], cols[c].bucket[2], cols[c].bucket[3],
					  cols[c].bucket[4], 0};
			float sum = parts[0] + parts[1] + parts[2] + parts[3] + parts[4];
			parts[5] = cols[c].rate > sum ? cols[c].rate - sum : 0;
			for (int k = 0; k < 6; k++) {
				acc += parts[k];
				int upto = (int)lround(acc / cols[c].rate * total);
				seg[k] = upto - prev;
				/* a slow bucket that exists shows at least one eighth */
				if (parts[k] > 0 && seg[k] == 0 && k >= 1 && k <= 4) {
					seg[k] = 1;
					upto++;
				}
				prev = upto;
			}
		}
		ui_bar(ui, ybot, xcol, brows, seg, roles, 6, c == cc);
		if (cols[c].s5xx > 0)
			ui_cell(ui, ybot - brows + 1, xcol, L'!', "!", TR_UP_5XX, ui->st[TR_UP_5XX].fg, ui->st[TR_TEXT].bg);
		if (prow)
			draw_p99(ui, r->y + 1, xcol, cols[c].rt_p99, c == cc);
	}
	char lab[24], cnt[16];
	snprintf(lab, sizeof lab, "%s/s", ui_fmt_count(max, cnt, sizeof cnt));
	ui_ylabel(ui, ybot - brows + 1, lab);
	if (prow)
		ui_ylabel(ui, r->y + 1, "p99");
	draw_side(pc, r, req, b, s5xx, worst, worst_up);
	free(cols);
}
