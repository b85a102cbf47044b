/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_heap.c — the Heap pane: committed heap against what is live after GC,
 * from the GC pause lines (docs/verdicts.md, g1-not-shrinking). The lower part of each column is
 * used after GC, the part above it committed but unused: memory the JVM holds
 * and has not returned. Letters on the top row mark what can shrink the heap
 * (R Remark, F Full) and periodic collections (P); beside the chart the count
 * of periodic checks that skipped, and the container's memory if polled. */
#include "ui.h"
#include "stwtop/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The side column with no GC log: the JVM's counters now, and its totals
 * since it started (jstat's), or since stwtop did when a recording has no
 * totals. Returns the next free row. */
static int counters_side(struct ui *ui, const struct summary *sm, int sx, int sw, int y, int ymax, int npauses)
{
	const char *cn = jvm_collector_name(sm->ctr_collector);
	if (y < ymax)
		ui_textf(ui, y++, sx, sw, TR_TEXT, "%s: committed %.0f, used %.0f MB now", cn ? cn : "heap",
			 sm->ctr_heap_committed_mb, sm->ctr_heap_used_mb);
	if (y < ymax)
		ui_textf(ui, y++, sx, sw, TR_TEXT, "in view: %d GCs", npauses);
	/* the JVM's own totals, as jstat shows them; a recording from
	 * before they were kept has only the sums since stwtop started */
	const struct jvm_totals *t = &sm->ctr_tot;
	if (t->pauses >= 0) {
		if (y < ymax)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "since JVM start: %lld GCs, %lld Full",
				 (long long)t->pauses, (long long)(t->gcs[JVM_GC_FULL] > 0 ? t->gcs[JVM_GC_FULL] : 0));
		if (y < ymax)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "in GC %.1f s since JVM start",
				 t->pause_ms > 0 ? t->pause_ms / 1000 : 0);
	} else {
		if (y < ymax)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "%llu GCs since stwtop, %llu Full",
				 (unsigned long long)sm->ctr_gcs, (unsigned long long)sm->ctr_full_gcs);
		if (y < ymax)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "in GC %.1f s since stwtop", sm->ctr_gc_ms / 1000);
	}
	if (y < ymax)
		ui_text(ui, y++, sx, sw, TR_DIM, "JVM counters (no GC log)");
	return y;
}


void pane_heap_draw(const struct pane_ctx *pc, const struct rect *r)
{
	struct ui *ui = pc->ui;
	const struct timeline *tl = session_timeline(pc->s);
	const struct summary *sm = session_summary(pc->s);
	bool focused = pc->focus == PANE_HEAP;
	int x = ui_title(ui, r, "Heap", focused);
	const struct view_axis *a = pc->axis;
	int n = a->ncols;
	struct view_heap_col *cols = calloc((size_t)(n > 0 ? n : 1), sizeof *cols);
	if (!cols)
		return;
	view_heap(tl, a, cols);
	int cc = pc->cursor_col;
	bool in = cc >= 0 && cc < n;
	char ro[200];
	if (in && cols[cc].committed_mb >= 0)
		snprintf(ro, sizeof ro, "committed %.0f, used %.0f MB", cols[cc].committed_mb, cols[cc].used_mb);
	else
		snprintf(ro, sizeof ro, "heap unknown at the cursor");
	/* the periodic checks that found a GC too recent to run: why committed never falls */
	if (tl->skips.total > 0 && strlen(ro) < sizeof ro - 40)
		snprintf(ro + strlen(ro), sizeof ro - strlen(ro), "%s%llu periodic GC skipped", ui->utf8 ? " · " : " | ",
			 (unsigned long long)tl->skips.total);
	static const struct ui_legend lg[] = {
		{TR_HEAP_USED, "used after GC", "used"}, {TR_HEAP_COMMITTED, "committed", "committed"},
		{TR_HEAP_MARKER, "R Remark F Full", "R F"}, {TR_HEAP_PERIODIC, "P periodic", "P"},
	};
	/* no GC log gave sizes: the JVM's counters, read every interval (used
	 * includes garbage not yet collected: not "after GC") */
	static const struct ui_legend lg_ctr[] = {
		{TR_HEAP_USED, "used (JVM counters)", "used"}, {TR_HEAP_COMMITTED, "committed", "committed"},
		{TR_HEAP_MARKER, "F Full", "F"},
	};
	bool ctr = view_heap_from_counters(tl);
	if (ctr)
		ui_title_row(ui, r, x, lg_ctr, 3, TR_TITLE, ro);
	else
		ui_title_row(ui, r, x, lg, 4, TR_TITLE, ro);
	int rows = r->h - 1, ybot = r->y + r->h - 1;
	if (rows <= 0) {
		free(cols);
		return;
	}
	double max = 0;
	int npauses = 0, full = 0, remark = 0, periodic = 0;
	for (int c = 0; c < n; c++) {
		if (cols[c].committed_mb > max)
			max = cols[c].committed_mb;
		npauses += cols[c].npauses;
		full += !!(cols[c].marks & VIEW_HEAP_FULL);
		remark += !!(cols[c].marks & VIEW_HEAP_REMARK);
		periodic += !!(cols[c].marks & VIEW_HEAP_PERIODIC);
	}
	for (int c = 0; c < n; c++) {
		int xcol = pc->chart_x + c;
		int seg[2] = {0, 0}, roles[2] = {TR_HEAP_USED, TR_HEAP_COMMITTED};
		if (cols[c].committed_mb >= 0 && max > 0) {
			int tot = (int)lround(cols[c].committed_mb / max * rows * 8);
			int used = (int)lround(cols[c].used_mb / max * rows * 8);
			if (used < 1 && cols[c].used_mb > 0)
				used = 1;
			if (used > tot)
				used = tot;
			seg[0] = used;
			seg[1] = tot - used;
		}
		ui_bar(ui, ybot, xcol, rows, seg, roles, 2, c == cc);
		uint8_t m = cols[c].marks;
		if (m) {
			wchar_t g = m & VIEW_HEAP_FULL ? L'F' : m & VIEW_HEAP_REMARK ? L'R' : L'P';
			const char *ga = m & VIEW_HEAP_FULL ? "F" : m & VIEW_HEAP_REMARK ? "R" : "P";
			int role = m & (VIEW_HEAP_FULL | VIEW_HEAP_REMARK) ? TR_HEAP_MARKER : TR_HEAP_PERIODIC;
			ui_cell(ui, r->y + 1, xcol, g, ga, role, ui->st[role].fg, ui->st[TR_TEXT].bg);
		}
	}
	if (max > 0) {
		char lab[16];
		if (max >= 10240)
			snprintf(lab, sizeof lab, "%.0fG", max / 1024);
		else
			snprintf(lab, sizeof lab, "%.0fM", max);
		ui_ylabel(ui, ybot - rows + 1, lab);
		if (rows >= 3)
			ui_ylabel(ui, ybot, "0");
	} else if (tl->pauses.total == 0) {
		bool jvm = false;
		for (int i = 0; i < session_nsources(pc->s); i++)
			if (session_source_kind(pc->s, i) == SRC_JVM)
				jvm = true;
		ui_text(ui, r->y + 1 + (rows - 1) / 2, pc->chart_x + 2, pc->chart_w - 4, TR_DIM,
			jvm ? "no GC pauses with heap sizes yet (the JVM log needs -Xlog:gc)" : "no JVM log: --gc FILE");
	}
	if (pc->side_w > 0) {
		int sx = pc->side_x + 1, sw = pc->side_w - 2, y = r->y + 1, ymax = r->y + r->h;
		const char *coll = jvm_collector_name(sm->collector);
		if (y < ymax && sm->heap_known)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "%s: committed %.0f, used %.0f MB", coll ? coll : "heap",
				 sm->committed_last_mb, sm->used_after_gc_last_mb);
		if (y < ymax && tl->pauses.total > 0)
			ui_textf(ui, y++, sx, sw, TR_TEXT, "%d GCs in view, %d Remark, %d Full", npauses,
				 remark, full);
		if (ctr && !sm->heap_known)
			y = counters_side(ui, sm, sx, sw, y, ymax, npauses);
		if (y < ymax) {
			uint64_t skips = tl->skips.total;
			if (periodic && y + 1 < ymax)
				ui_textf(ui, y++, sx, sw, TR_HEAP_PERIODIC, "%d periodic collections in view", periodic);
			if (sm->periodic_interval_ms > 0)
				ui_textf(ui, y++, sx, sw, skips ? TR_HEAP_PERIODIC : TR_TEXT,
					 "periodic GC %.0fs: %llu ran, %llu skipped", (double)sm->periodic_interval_ms / 1000,
					 (unsigned long long)sm->periodic_gc_collections, (unsigned long long)skips);
			else if (sm->periodic_interval_ms == 0)
				ui_text(ui, y++, sx, sw, TR_DIM, "periodic GC: disabled");
			else if (skips)
				ui_textf(ui, y++, sx, sw, TR_HEAP_PERIODIC, "periodic GC: %llu checks skipped",
					 (unsigned long long)skips);
		}
		if (y < ymax && tl->mem.total > 0) {
			const struct tl_mem *m = ring_at(&tl->mem, tl->mem.total - 1);
			if (m && m->limit_bytes > 0)
				ui_textf(ui, y++, sx, sw, TR_TEXT, "container memory %.0f of %.0f MB", m->usage_bytes / 1048576.0,
					 m->limit_bytes / 1048576.0);
			else if (m)
				ui_textf(ui, y++, sx, sw, TR_TEXT, "container memory %.0f MB", m->usage_bytes / 1048576.0);
		}
	}
	free(cols);
}
