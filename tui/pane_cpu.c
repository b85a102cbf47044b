/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_cpu.c — the CPU pane: why threads could not run. Upper half: time the
 * cgroup spent throttled per column (cpu.stat throttled_time deltas, the proof
 * of CFS quota exhaustion, docs/verdicts.md, cpu-throttled-during-stop); lower half: schedstat summed over
 * the JVM's threads, on CPU below and waiting for a CPU above. '!' marks direct
 * reclaim (vmstat allocstall). Beside the chart: the quota and the totals in
 * view. Both halves scale to their own maximum in view, written at the left. */
#include "ui.h"
#include "stwtop/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lin(double v, double max, int rows)
{
	if (v <= 0 || max <= 0)
		return 0;
	int e = (int)lround(v / max * rows * 8);
	return e < 1 ? 1 : e > rows * 8 ? rows * 8 : e;
}

static void quota_fmt(int64_t quota_us, int64_t period_us, bool brief, char *buf, size_t len)
{
	if (quota_us == -1)
		snprintf(buf, len, "unlimited");
	else if (quota_us > 0 && period_us > 0 && brief)
		snprintf(buf, len, "%.2f CPU", (double)quota_us / (double)period_us);
	else if (quota_us > 0 && period_us > 0)
		snprintf(buf, len, "%.2f CPU (%lld/%lld us)", (double)quota_us / (double)period_us,
			 (long long)quota_us, (long long)period_us);
	else
		snprintf(buf, len, "not in the samples");
}

/* the quota in force at the cursor's time, and the newest one when it differs
 * (a limit raised during the incident must not read as if it always was) */
static void quota_text(const struct pane_ctx *pc, const struct view_cpu_info *in, char *buf, size_t len)
{
	int64_t q, p;
	char a[80], b[80];
	quota_fmt(in->quota_us, in->period_us, false, b, sizeof b);
	if (!view_cpu_quota_at(session_timeline(pc->s), pc->ui->cursor_ms, &q, &p) ||
	    (q == in->quota_us && p == in->period_us)) {
		snprintf(buf, len, "quota: %s", b);
		return;
	}
	quota_fmt(q, p, true, a, sizeof a);
	quota_fmt(in->quota_us, in->period_us, true, b, sizeof b);
	snprintf(buf, len, "quota: %s (now %s)", a, b);
}

/* Write the first of names that fits in the empty cells at the start of a
 * part's top row (rows high; throttled part or sched part), one blank cell
 * after it. False when none fits: the bars are there. */
static bool label_part(const struct pane_ctx *pc, const struct view_cpu_col *cols, int n, int cc, bool throttle,
		       int rows, int y, const char *const *names, int nnames)
{
	double max = 0;
	for (int c = 0; c < n; c++) {
		double v = throttle ? cols[c].throttled_ms : cols[c].oncpu_ms + cols[c].wait_ms;
		if (v > max)
			max = v;
	}
	/* how many columns from the left are empty on the top row */
	int free_cols = 0;
	for (int c = 0; c < n; c++) {
		double v = throttle ? cols[c].throttled_ms : (cols[c].oncpu_ms >= 0 ? cols[c].oncpu_ms + cols[c].wait_ms : 0);
		bool busy = c == cc || lin(v, max, rows) > (rows - 1) * 8 || (throttle && cols[c].allocstall > 0);
		if (busy)
			break;
		free_cols++;
	}
	for (int i = 0; i < nnames; i++) {
		int w = ui_text_width(pc->ui, names[i]);
		if (w + 1 <= free_cols) {
			ui_text(pc->ui, y, pc->chart_x, w, TR_AXIS, names[i]);
			return true;
		}
	}
	return false;
}

/* the title row's readout: the interval at the cursor's column */
static void readout(const struct pane_ctx *pc, const struct view_cpu_info *info, const struct view_cpu_col *cols, char *ro,
		    size_t len)
{
	int cc = pc->cursor_col, n = pc->axis->ncols;
	bool in = cc >= 0 && cc < n;
	char b1[16], b2[16], b3[16];
	const char *sep = pc->ui->utf8 ? " · " : " | ";
	size_t o = 0;
	if (info->have_cpu) {
		if (in && cols[cc].throttled_ms >= 0)
			o += (size_t)snprintf(ro + o, len - o, pc->layout == LAYOUT_FULL ? "throttled %s (%.0f/%.0f periods)"
											    : "throttled %s (%.0f/%.0f)",
					      ui_fmt_ms(cols[cc].throttled_ms, b1, sizeof b1), cols[cc].nr_throttled,
					      cols[cc].nr_periods);
		else
			o += (size_t)snprintf(ro + o, len - o, "throttled -");
	}
	if (info->have_sched && o < len) {
		if (in && cols[cc].oncpu_ms >= 0)
			o += (size_t)snprintf(ro + o, len - o, "%son CPU %s, wait %s", o ? sep : "",
					      ui_fmt_ms(cols[cc].oncpu_ms, b2, sizeof b2),
					      ui_fmt_ms(cols[cc].wait_ms, b3, sizeof b3));
		else
			o += (size_t)snprintf(ro + o, len - o, "%son CPU -", o ? sep : "");
	}
	if (info->have_vmstat && in && cols[cc].allocstall > 0 && o < len)
		snprintf(ro + o, len - o, "%sallocstall +%lld", sep, (long long)cols[cc].allocstall);
}

void pane_cpu_draw(const struct pane_ctx *pc, const struct rect *r)
{
	struct ui *ui = pc->ui;
	const struct timeline *tl = session_timeline(pc->s);
	bool focused = pc->focus == PANE_CPU;
	int x = ui_title(ui, r, "CPU", focused);
	const struct view_axis *a = pc->axis;
	int n = a->ncols;
	struct view_cpu_col *cols = calloc((size_t)(n > 0 ? n : 1), sizeof *cols);
	if (!cols)
		return;
	struct view_cpu_info info;
	view_cpu(tl, a, cols, &info);
	int cc = pc->cursor_col;
	/* readout at the cursor */
	char ro[240] = "", b1[16], b2[16], b3[16];
	readout(pc, &info, cols, ro, sizeof ro);
	struct ui_legend lg[3];
	int nl = 0;
	if (info.have_cpu)
		lg[nl++] = (struct ui_legend){TR_CPU_THROTTLED, "throttled", "throttled"};
	if (info.have_sched) {
		lg[nl++] = (struct ui_legend){TR_CPU_ONCPU, "on CPU", "on CPU"};
		lg[nl++] = (struct ui_legend){TR_CPU_WAIT, "waiting to run", "waiting"};
	}
	ui_title_row(ui, r, x, lg, nl, TR_TITLE, ro);
	int rows = r->h - 1, ybot = r->y + r->h - 1;
	if (rows <= 0) {
		free(cols);
		return;
	}
	if (!info.have_cpu && !info.have_sched) {
		ui_empty(ui, r, "no CPU data: --pid PID or --cgroup DIR (or --cpustat-log FILE)");
		free(cols);
		return;
	}
	int trows = info.have_cpu ? (info.have_sched && rows >= 2 ? rows / 2 : rows) : 0;
	int srows = rows - trows;
	double tmax = 0, smax = 0, tsum = 0, nsum = 0, onsum = 0, wsum = 0;
	int64_t stalls = 0;
	for (int c = 0; c < n; c++) {
		if (cols[c].throttled_ms > tmax)
			tmax = cols[c].throttled_ms;
		if (cols[c].oncpu_ms + cols[c].wait_ms > smax)
			smax = cols[c].oncpu_ms + cols[c].wait_ms;
		if (cols[c].throttled_ms > 0) {
			tsum += cols[c].throttled_ms;
			nsum += cols[c].nr_throttled;
		}
		if (cols[c].oncpu_ms > 0)
			onsum += cols[c].oncpu_ms;
		if (cols[c].wait_ms > 0)
			wsum += cols[c].wait_ms;
		if (cols[c].allocstall > 0)
			stalls += cols[c].allocstall;
	}
	for (int c = 0; c < n; c++) {
		int xcol = pc->chart_x + c;
		if (trows > 0) {
			int seg = lin(cols[c].throttled_ms, tmax, trows), role = TR_CPU_THROTTLED;
			ui_bar(ui, ybot - srows, xcol, trows, &seg, &role, 1, c == cc);
			if (cols[c].allocstall > 0)
				ui_cell(ui, ybot - srows - trows + 1, xcol, L'!', "!", TR_CPU_ALLOCSTALL,
					ui->st[TR_CPU_ALLOCSTALL].fg, ui->st[TR_TEXT].bg);
		}
		if (srows > 0) {
			int seg[2] = {0, 0}, roles[2] = {TR_CPU_ONCPU, TR_CPU_WAIT};
			if (cols[c].oncpu_ms >= 0) {
				int tot = lin(cols[c].oncpu_ms + cols[c].wait_ms, smax, srows);
				double sum = cols[c].oncpu_ms + cols[c].wait_ms;
				seg[0] = sum > 0 ? (int)lround(tot * cols[c].oncpu_ms / sum) : 0;
				seg[1] = tot - seg[0];
			}
			ui_bar(ui, ybot, xcol, srows, seg, roles, 2, c == cc);
		}
	}
	/* Each part's scale in the gutter, on its top row, as in the other panes,
	 * and its name right after it where that row is empty (no bar reaches
	 * it, not the cursor): " 1.0s throttled", " 5.9s on CPU + waiting to
	 * run". Where the bars leave no room, the gutter holds the names. */
	char lab[16];
	if (trows > 0) {
		static const char *const names[] = {"throttled", "thrtl"};
		int ytop = ybot - srows - trows + 1;
		if (label_part(pc, cols, n, cc, true, trows, ytop, names, 2)) {
			ui_ylabel(ui, ytop, tmax > 0 ? ui_fmt_ms_short(tmax, lab, sizeof lab) : "0");
		} else if (trows >= 2 || !info.have_sched) {
			ui_ylabel(ui, ytop, tmax > 0 ? ui_fmt_ms_short(tmax, lab, sizeof lab) : "0");
			if (trows >= 2)
				ui_ylabel(ui, ybot - srows, "thrtl");
		} else {
			ui_ylabel(ui, ybot - srows, "thrtl");
		}
	}
	if (srows > 0) {
		static const char *const names[] = {"on CPU + waiting to run", "on CPU + waiting", "sched"};
		int ytop = ybot - srows + 1;
		if (label_part(pc, cols, n, cc, false, srows, ytop, names, 3)) {
			ui_ylabel(ui, ytop, smax > 0 ? ui_fmt_ms_short(smax, lab, sizeof lab) : "0");
		} else if (srows >= 2 || !info.have_cpu) {
			ui_ylabel(ui, ytop, smax > 0 ? ui_fmt_ms_short(smax, lab, sizeof lab) : "0");
			if (srows >= 2)
				ui_ylabel(ui, ybot, "sched");
		} else {
			ui_ylabel(ui, ybot, "sched");
		}
	}
	/* numbers beside the chart */
	if (pc->side_w > 0) {
		int sx = pc->side_x + 1, sw = pc->side_w - 2, y = r->y + 1, ymax = r->y + r->h;
		char q[200];
		if (info.have_cpu && y < ymax) {
			quota_text(pc, &info, q, sizeof q);
			ui_text(ui, y++, sx, sw, TR_TEXT, q);
		}
		/* the totals below are of the columns in view, the threads' summed
		 * over every thread (so a second can hold many seconds of them) */
		if ((info.have_cpu || info.have_sched) && y < ymax)
			ui_text(ui, y++, sx, sw, TR_DIM, info.have_sched ? "in view, threads summed:" : "in view:");
		if (info.have_cpu && y < ymax)
			ui_textf(ui, y++, sx, sw, tsum > 0 ? TR_CPU_THROTTLED : TR_TEXT, "throttled %s, %.0f periods",
				 ui_fmt_ms(tsum, b1, sizeof b1), nsum);
		if (info.have_sched && y < ymax)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "on CPU %s, waiting %s", ui_fmt_ms(onsum, b2, sizeof b2),
				 ui_fmt_ms(wsum, b3, sizeof b3));
		if (info.have_vmstat && y < ymax)
			ui_textf(ui, y++, sx, sw, stalls > 0 ? TR_CPU_ALLOCSTALL : TR_DIM, "direct reclaim: %lld allocstall",
				 (long long)stalls);
		if (info.have_cpu && info.have_sched && y < ymax)
			ui_text(ui, y++, sx, sw, TR_DIM, "(waiting includes throttled time)");
	}
	free(cols);
}
