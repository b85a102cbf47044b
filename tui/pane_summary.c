/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_summary.c — the one-screen summary for terminals too small for panes
 * (below about 60x18: a split tmux pane, a phone): the verdict titles, newest
 * incident first, then the key numbers of the whole run. It shows what fits. */
#include "ui.h"
#include "stwtop/util.h"

#include <stdio.h>
#include <string.h>

struct wctx {
	struct ui *ui;
	int y, x, w, role;
	int rows, lines;   /* rows given to this title, lines it wraps to */
};

static void put_line(void *ctx, int k, const char *s, size_t n)
{
	struct wctx *c = ctx;
	if (k >= c->rows)
		return;
	char piece[600];
	if (n > sizeof piece - 1)
		n = sizeof piece - 1;
	memcpy(piece, s, n);
	piece[n] = '\0';
	/* the last row of a title that goes on: say so */
	bool cut = k == c->rows - 1 && c->lines > c->rows;
	int used = ui_text(c->ui, c->y + k, c->x, cut ? c->w - 1 : c->w, c->role, piece);
	if (cut)
		ui_text(c->ui, c->y + k, c->x + used, 1, TR_DIM, c->ui->utf8 ? "…" : "~");
}

/* Rows for the titles: each verdict one row, newest first, while they last,
 * but the newest two (its first line rarely says why); then the rest, one
 * more row each in turn from the newest, up to what each title needs. */
static int plan_rows(const int *lines, int n, int rows, int *give)
{
	int shown = 0;
	for (int i = 0; i < n; i++)
		give[i] = 0;
	if (n == 0 || rows <= 0)
		return 0;
	give[0] = lines[0] >= 2 && rows >= 2 ? 2 : 1;
	rows -= give[0];
	shown = 1;
	for (int i = 1; i < n && rows > 0; i++, shown++) {
		give[i] = 1;
		rows--;
	}
	for (bool more = true; rows > 0 && more;) {
		more = false;
		for (int i = 0; i < shown && rows > 0; i++)
			if (give[i] < lines[i]) {
				give[i]++;
				rows--;
				more = true;
			}
	}
	return shown;
}

void pane_summary_draw(struct ui *ui, int y, int h, int w)
{
	if (h <= 0 || w <= 0)
		return;
	const struct summary *sm = session_summary(ui->s);
	char nums[4][120];
	int nn = 0;
	char a[16], b[16];
	if (sm->stops)
		snprintf(nums[nn++], sizeof nums[0], "stops: max %s, ttsp %s", ui_fmt_ms(sm->max_stop_ms, a, sizeof a),
			 ui_fmt_ms(sm->max_ttsp_ms, b, sizeof b));
	else if (sm->gc_pauses)
		snprintf(nums[nn++], sizeof nums[0], "GC: %llu pauses, max %s", (unsigned long long)sm->gc_pauses,
			 ui_fmt_ms(sm->max_gc_pause_ms, a, sizeof a));
	if (sm->throttle_samples)
		snprintf(nums[nn++], sizeof nums[0], "throttled: %s", ui_fmt_ms(summary_throttled_ms(sm), a, sizeof a));
	if (sm->requests) {
		unsigned long long slow = sm->uct_buckets[1] + sm->uct_buckets[2] + sm->uct_buckets[3] + sm->uct_buckets[4];
		snprintf(nums[nn++], sizeof nums[0], "nginx: %llu req, %llu slow connects",
			 (unsigned long long)sm->requests, slow);
	}
	if (sm->heap_known)
		snprintf(nums[nn++], sizeof nums[0], "heap: %.0f of %.0f MB used", sm->used_after_gc_last_mb,
			 sm->committed_last_mb);
	/* verdicts get the rows the numbers do not need */
	int reserve = nn < h / 3 ? nn : h / 3;
	if (reserve < 1 && nn > 0 && ui->nv == 0)
		reserve = nn < h ? nn : h;
	int vrows = h - reserve, yv = y;
	if (ui->nv == 0 && vrows > 0) {
		ui_text(ui, yv++, 0, w, TR_DIM, "no verdicts yet");
		vrows--;
	}
	enum { MAXV = sizeof ui->vorder / sizeof ui->vorder[0] };
	static char titles[MAXV][VERDICT_TITLE_LEN * 4];
	int lines[MAXV], give[MAXV];
	int nv = (int)ui->nv, tw = w - 5;
	for (int i = 0; i < nv; i++) {
		const struct verdict *v = rules_at(session_rules(ui->s), ui->vorder[i]);
		ui_verdict_text(titles[i], sizeof titles[i], v->title, strnlen(v->title, VERDICT_TITLE_LEN));
		lines[i] = ui_wrap(ui, titles[i], tw, NULL, NULL);
	}
	int shown = plan_rows(lines, nv, vrows, give);
	/* verdicts left out: the last row says how many */
	if (shown < nv && vrows >= 2)
		shown = plan_rows(lines, nv, vrows - 1, give);
	for (int i = 0; i < shown; i++) {
		const struct verdict *v = rules_at(session_rules(ui->s), ui->vorder[i]);
		int role = v->severity == SEV_CRIT ? TR_VERDICT_CRIT : v->severity == SEV_WARN ? TR_VERDICT_WARN : TR_VERDICT_INFO;
		const char *badge = v->severity == SEV_CRIT ? "CRIT" : v->severity == SEV_WARN ? "WARN" : "INFO";
		ui_text(ui, yv, 0, w, role, badge);
		struct wctx c = {.ui = ui, .y = yv, .x = 5, .w = tw, .role = TR_TEXT, .rows = give[i], .lines = lines[i]};
		ui_wrap(ui, titles[i], tw, put_line, &c);
		yv += give[i];
	}
	if (shown < nv && yv < y + h - reserve)
		ui_textf(ui, yv++, 0, w, TR_DIM, "+%d more verdict%s", nv - shown,
			 nv - shown == 1 ? "" : "s");
	int yn = y + h - reserve;
	if (yn < yv)
		yn = yv;
	for (int i = 0; i < nn && yn < y + h; i++)
		ui_text(ui, yn++, 0, w, TR_DIM, nums[i]);
}
