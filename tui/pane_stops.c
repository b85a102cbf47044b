/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_stops.c — the Stops pane: every stop of the JVM as a spike on the shared
 * time axis, on a log scale (10 ms .. 10 s) so a 700 ms stop towers over the
 * routine 20 ms ones without flattening them. The bar is split: the lower part
 * is the time to reach the safepoint (threads that would not stop), the upper
 * part the VM operation itself; a TTSP spike is a bar that is nearly all lower
 * part. Beside the chart the longest stops in view; with no safepoint log the
 * GC pauses stand in (their TTSP is unknown). */
#include "ui.h"
#include "stwtop/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LO_MS 10.0

static double top_of(double max_ms)
{
	double top = 10000;
	while (top < max_ms)
		top *= 10;
	return top;
}

/* eighths of a cell for a stop of v ms in rows rows */
static int level(double v, double top, int rows)
{
	if (v <= 0)
		return 0;
	if (v <= LO_MS)
		return 1;
	int e = (int)lround((double)rows * 8 * log10(v / LO_MS) / log10(top / LO_MS));
	return e < 1 ? 1 : e > rows * 8 ? rows * 8 : e;
}

static void draw_side(const struct pane_ctx *pc, const struct rect *r, bool pauses)
{
	struct ui *ui = pc->ui;
	if (pc->side_w <= 0)
		return;
	int x = pc->side_x + 1, w = pc->side_w - 2, y = r->y + 1;
	int n = r->h - 2;
	if (n <= 0)
		return;
	int opw = w - 9 - 7 - 7;
	if (opw < 4)
		opw = 4;
	ui_textf(ui, y, x, w, TR_DIM, "%-*s%7s%7s", 9 + opw, pauses ? "longest pauses" : "longest in view",
		 "total", pauses ? "" : "ttsp");
	struct view_stop st[16];
	if (n > 16)
		n = 16;
	int got = view_worst_stops(session_timeline(pc->s), view_col_start(pc->axis, 0), pc->axis->end_ms, st, n);
	if (got == 0)
		ui_text(ui, y + 1, x, w, TR_DIM, "none");
	for (int i = 0; i < got; i++) {
		char t[16], tot[16], tt[16], op[64];
		util_sanitize(op, sizeof op, st[i].op, strlen(st[i].op));
		ui_fmt_time(ui, st[i].start_ms, 0, t, sizeof t);
		ui_fmt_ms(st[i].total_ms, tot, sizeof tot);
		if (st[i].ttsp_ms >= 0)
			ui_fmt_ms(st[i].ttsp_ms, tt, sizeof tt);
		else
			snprintf(tt, sizeof tt, "-");
		bool big = st[i].ttsp_ms >= 0 && st[i].ttsp_ms >= 0.5 * st[i].total_ms && st[i].total_ms >= 100;
		int cx = x;
		cx += ui_text(ui, y + 1 + i, cx, 9, TR_TEXT, t) + 1;
		/* a name longer than its column says so ("G1CollectForAlloc…"), never ends as if whole */
		if ((int)strlen(op) > opw - 1 && opw > 3) {
			size_t k = (size_t)(opw - 2);
			while (k > 0 && ((unsigned char)op[k] & 0xC0) == 0x80)
				k--; /* not inside a character */
			snprintf(op + k, sizeof op - k, "%s", ui->utf8 ? "…" : "~");
		}
		ui_textf(ui, y + 1 + i, cx, opw, TR_TEXT, "%-*s", opw, op);
		cx += opw;
		ui_textf(ui, y + 1 + i, cx, 7, TR_TEXT, "%7s", tot);
		cx += 7;
		ui_textf(ui, y + 1 + i, cx, 7, big ? TR_STOP_TTSP : TR_TEXT, "%7s", tt);
	}
}

void pane_stops_draw(const struct pane_ctx *pc, const struct rect *r)
{
	struct ui *ui = pc->ui;
	const struct timeline *tl = session_timeline(pc->s);
	/* GC pauses stand in for stops only when there are some */
	bool pauses = view_stops_from_pauses(tl) && tl->pauses.total > 0;
	bool focused = pc->focus == PANE_STOPS;
	/* no log gave stops: the JVM's counters, time stopped per read */
	bool ctr = view_stops_from_counters(tl);
	int x = ui_title(ui, r, ctr ? "Stops (JVM counters)" : pauses ? "Stops (GC pauses)" : "Stops", focused);
	const struct view_axis *a = pc->axis;
	int n = a->ncols;
	struct view_stop_col *cols = calloc((size_t)(n > 0 ? n : 1), sizeof *cols);
	if (!cols)
		return;
	if (ctr)
		view_stops_counters(tl, a, cols);
	else
		view_stops(tl, a, cols);
	int cc = pc->cursor_col;
	/* readout: the stop under the cursor */
	char ro[200], t[16];
	ui_fmt_time(ui, view_col_start(a, cc), a->res_ms < 1000 ? 1 : 0, t, sizeof t);
	struct view_stop st;
	if (ctr && cc >= 0 && cc < n && cols[cc].total_ms > 0) {
		char tot[16], tt[16];
		ui_fmt_ms(cols[cc].total_ms, tot, sizeof tot);
		if (cols[cc].ttsp_ms >= 0)
			snprintf(ro, sizeof ro, "at %s: stopped %s, %s to safepoint (summed)", t, tot,
				 ui_fmt_ms(cols[cc].ttsp_ms, tt, sizeof tt));
		else
			snprintf(ro, sizeof ro, "at %s: stopped %s (summed)", t, tot);
	} else if (ctr) {
		snprintf(ro, sizeof ro, "at %s: no stop counted", t);
	} else if (cc >= 0 && cc < n && cols[cc].total_ms > 0 && view_stop_get(tl, cols[cc].idx, &st)) {
		char tot[16], tt[16], op[64];
		util_sanitize(op, sizeof op, st.op, strlen(st.op));
		ui_fmt_ms(st.total_ms, tot, sizeof tot);
		char at[32] = "";
		if (pc->layout == LAYOUT_FULL)
			snprintf(at, sizeof at, "at %s: ", t);
		if (st.ttsp_ms >= 0)
			snprintf(ro, sizeof ro, "%s%s %s, %s to safepoint", at, op, tot, ui_fmt_ms(st.ttsp_ms, tt, sizeof tt));
		else
			snprintf(ro, sizeof ro, "%s%s %s", at, op, tot);
	} else {
		snprintf(ro, sizeof ro, "at %s: no stop", t);
	}
	static const struct ui_legend lg_stop[] = {
		{TR_STOP_TTSP, "reaching safepoint", "to safepoint"},
		{TR_STOP_OP, "operation", "op"},
	};
	static const struct ui_legend lg_pause[] = {
		{TR_STOP_OP, "GC pause (no safepoint log: TTSP unknown)", "GC pause"},
	};
	static const struct ui_legend lg_ctr[] = {
		{TR_STOP_TTSP, "to safepoint", "ttsp"},
		{TR_STOP_OP, "stopped per read (JVM counters)", "stopped"},
	};
	ui_title_row(ui, r, x, ctr ? lg_ctr : pauses ? lg_pause : lg_stop, pauses && !ctr ? 1 : 2, TR_TITLE, ro);
	int rows = r->h - 1, ybot = r->y + r->h - 1;
	if (rows <= 0) {
		free(cols);
		return;
	}
	double max = 0;
	for (int c = 0; c < n; c++)
		if (cols[c].total_ms > max)
			max = cols[c].total_ms;
	double top = top_of(max);
	for (int c = 0; c < n; c++) {
		int e = level(cols[c].total_ms, top, rows);
		int seg[2], roles[2] = {TR_STOP_TTSP, TR_STOP_OP};
		if (cols[c].ttsp_ms >= 0 && cols[c].total_ms > 0) {
			seg[0] = (int)lround(e * (cols[c].ttsp_ms / cols[c].total_ms));
			seg[1] = e - seg[0];
			ui_bar(ui, ybot, pc->chart_x + c, rows, seg, roles, 2, c == cc);
		} else {
			seg[0] = e;
			ui_bar(ui, ybot, pc->chart_x + c, rows, seg, roles + 1, 1, c == cc);
		}
	}
	/* y labels at the decades that have a row of their own */
	int last_row = -1;
	for (double v = top; v >= LO_MS; v /= 10) {
		int e = level(v, top, rows);
		int row = (e + 7) / 8 - 1;
		if (row < 0 || row == last_row)
			continue;
		char lab[16];
		if (v >= 1000)
			snprintf(lab, sizeof lab, "%.0fs", v / 1000);
		else
			snprintf(lab, sizeof lab, "%.0fms", v);
		ui_ylabel(ui, ybot - row, lab);
		last_row = row;
	}
	if (tl->stops.total == 0 && tl->pauses.total == 0 && !ctr) {
		char why[200];
		unsigned long long un = (unsigned long long)session_unanchored(pc->s);
		bool jvm = false;
		for (int i = 0; i < session_nsources(pc->s); i++)
			if (session_source_kind(pc->s, i) == SRC_JVM)
				jvm = true;
		if (un)
			snprintf(why, sizeof why, "%llu JVM events have only uptime: give --jvm-start or --pid", un);
		else if (!jvm)
			snprintf(why, sizeof why, "no JVM log: --gc FILE (or --pid PID to find it)");
		else
			snprintf(why, sizeof why, "no stops yet: the JVM log needs -Xlog:safepoint (JDK 9+) or GC pause lines");
		ui_text(ui, r->y + 1 + (rows - 1) / 2, pc->chart_x + 1, pc->chart_w - 2, un ? TR_ERROR : TR_DIM, why);
	}
	if (ctr) {
		const struct summary *sm = session_summary(pc->s);
		if (pc->side_w > 0 && r->h > 3) {
			int sx = pc->side_x + 1, sw = pc->side_w - 2, y = r->y + 1;
			char tt[16];
			const struct jvm_totals *jt = &sm->ctr_tot;
			if (jt->safepoints >= 0) { /* jstat's view: since the JVM started */
				ui_textf(ui, y++, sx, sw, TR_TEXT, "%lld safepoints since JVM start",
					 (long long)jt->safepoints);
				ui_textf(ui, y++, sx, sw, TR_TEXT, "stopped %.1f s, %s to reach",
					 jt->stopped_ms > 0 ? jt->stopped_ms / 1000 : 0,
					 ui_fmt_ms(jt->safepoint_sync_ms > 0 ? jt->safepoint_sync_ms : 0, tt, sizeof tt));
			} else {
				ui_textf(ui, y++, sx, sw, TR_TEXT, "%llu safepoints since stwtop",
					 (unsigned long long)sm->ctr_safepoints);
				ui_textf(ui, y++, sx, sw, TR_TEXT, "stopped %.1f s, %s to reach", sm->ctr_stop_ms / 1000,
					 ui_fmt_ms(sm->ctr_ttsp_ms, tt, sizeof tt));
			}
			ui_text(ui, y++, sx, sw, TR_DIM, "JVM counters: sums per read;");
			if (y < r->y + r->h)
				ui_text(ui, y++, sx, sw, TR_DIM, "each stop needs -Xlog:safepoint");
		}
	} else {
		draw_side(pc, r, pauses);
	}
	free(cols);
}
