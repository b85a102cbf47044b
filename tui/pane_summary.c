/* pane_summary.c — the one-screen summary for terminals too small for panes
 * (below about 60x18: a split tmux pane, a phone): the verdict titles, newest
 * incident first, then the key numbers of the whole run. It shows what fits. */
#include "ui.h"
#include "stwtop/util.h"

#include <stdio.h>
#include <string.h>

struct wctx {
	struct ui *ui;
	int y, ymax, x, w, role;
};

static void put_line(void *ctx, int k, const char *s, size_t n)
{
	struct wctx *c = ctx;
	if (c->y >= c->ymax || k >= 2)
		return;
	char piece[600];
	if (n > sizeof piece - 1)
		n = sizeof piece - 1;
	memcpy(piece, s, n);
	piece[n] = '\0';
	ui_text(c->ui, c->y++, c->x, c->w, c->role, piece);
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
	struct wctx c = {.ui = ui, .y = y, .ymax = y + h - reserve, .x = 0, .w = w};
	if (ui->nv == 0 && c.y < c.ymax)
		ui_text(ui, c.y++, 0, w, TR_DIM, "no verdicts yet");
	int left = (int)ui->nv;
	for (size_t i = 0; i < ui->nv && c.y < c.ymax; i++, left--) {
		const struct verdict *v = rules_at(session_rules(ui->s), ui->vorder[i]);
		int role = v->severity == SEV_CRIT ? TR_VERDICT_CRIT : v->severity == SEV_WARN ? TR_VERDICT_WARN : TR_VERDICT_INFO;
		const char *badge = v->severity == SEV_CRIT ? "CRIT" : v->severity == SEV_WARN ? "WARN" : "INFO";
		ui_text(ui, c.y, 0, w, role, badge);
		char title[sizeof v->title * 4];
		util_sanitize(title, sizeof title, v->title, strnlen(v->title, sizeof v->title));
		/* a second line of title only while every remaining verdict still gets one */
		int rows_left = c.ymax - c.y;
		c.x = 5;
		c.w = w - 5;
		c.role = TR_TEXT;
		int ymax = c.ymax;
		if (rows_left < 2 * left)
			c.ymax = c.y + 1;
		ui_wrap(ui, title, c.w, put_line, &c);
		c.ymax = ymax;
	}
	int yn = y + h - reserve;
	if (yn < c.y)
		yn = c.y;
	for (int i = 0; i < nn && yn < y + h; i++)
		ui_text(ui, yn++, 0, w, TR_DIM, nums[i]);
}
