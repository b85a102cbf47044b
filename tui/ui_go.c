/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_go.c — the keys that take every pane somewhere, or keep what is seen:
 * [ ] to the previous / next incident (the incidents --report numbers,
 * rules_incidents), / n N to a line of the Lines pane (view_line_find), and
 * w, the report of everything read so far into a file (report_text, so it is
 * the text --report prints). Each says on the bottom line where it went, or
 * why it could not. */
#include "ui.h"
#include "stwtop/report.h"
#include "stwtop/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --- incidents --- */

/* select the incident's first verdict in the Verdicts pane (it is newest first there) */
static void select_incident(struct ui *ui, uint64_t key)
{
	ui->nv = view_verdict_order(ui->s, ui->vorder, sizeof ui->vorder / sizeof ui->vorder[0]);
	for (size_t i = 0; i < ui->nv; i++) {
		const struct verdict *v = rules_at(session_rules(ui->s), ui->vorder[i]);
		if (verdict_is_incident(v->id) && v->key == key) {
			ui->vsel = i;
			return;
		}
	}
}

void ui_act_incident(struct ui *ui, int dir)
{
	size_t cap = rules_count(session_rules(ui->s));
	struct rules_incident *inc = calloc(cap ? cap : 1, sizeof *inc);
	size_t n = inc ? view_incidents(ui->s, inc, cap) : 0;
	/* the cursor's time: in follow mode the newest data */
	int64_t at = ui->cursor_ms;
	size_t pick = n;
	for (size_t i = 0; i < n; i++) {
		if (inc[i].start_ms == EV_TIME_NONE)
			continue;
		if (dir > 0 && inc[i].start_ms > at) {
			pick = i;
			break;
		}
		if (dir < 0 && inc[i].start_ms < at)
			pick = i;
	}
	if (n == 0) {
		ui_message(ui, false, "no incident yet");
	} else if (pick == n) {
		ui_message(ui, false, "no incident %s the cursor (%zu in all; %s goes %s)", dir > 0 ? "after" : "before", n,
			   dir > 0 ? "[" : "]", dir > 0 ? "back" : "on");
	} else {
		const struct rules_incident *in = &inc[pick];
		char a[24], b[24];
		ui_set_cursor(ui, in->start_ms, true);
		select_incident(ui, in->key);
		ui_fmt_time(ui, in->start_ms, 3, a, sizeof a);
		ui_fmt_time(ui, in->end_ms != EV_TIME_NONE ? in->end_ms : in->start_ms, 3, b, sizeof b);
		ui_message(ui, false, "incident %u of %zu: %s-%s, every pane at its start", in->number,
			   n, a, b);
	}
	free(inc);
}

/* --- search --- */

/* The Lines pane shows the lines at or before the cursor's column: a new
 * search goes forward from that column's start, n and N from the line found
 * last while the cursor is still on it. */
static void search(struct ui *ui, int dir, bool again)
{
	const struct timeline *tl = session_timeline(ui->s);
	int64_t from_t;
	uint64_t from_ref;
	if (again && ui->match_t != EV_TIME_NONE && ui->match_t == ui->cursor_ms) {
		from_t = ui->match_t;
		from_ref = ui->match_ref;
	} else {
		int64_t lo = view_floor(ui->cursor_ms, ui->res_ms);
		from_t = dir > 0 ? lo - 1 : lo + ui->res_ms;
		from_ref = dir > 0 ? UINT64_MAX : 0;
	}
	struct view_line v;
	char safe[sizeof ui->search * 4];
	util_sanitize(safe, sizeof safe, ui->search, strlen(ui->search));
	int r = view_line_find(tl, ui->search, strlen(ui->search), ui->lines_src, from_t, from_ref, dir, &v);
	const struct tl_line *l = r ? timeline_line(tl, v.idx) : NULL;
	if (!l) {
		ui->match_t = EV_TIME_NONE;
		ui_message(ui, true, "no match for %s%s%s", safe,
			   ui->lines_src >= 0 ? " in " : "", ui->lines_src >= 0 ? ui_src_name(ui->s, ui->lines_src) : "");
		return;
	}
	ui->match_t = v.t_ms;
	ui->match_ref = v.idx;
	ui->lines_back = 0;
	ui_set_cursor(ui, v.t_ms, true);
	/* the cursor is clamped to the data: the match is where it went */
	ui->match_t = ui->cursor_ms == v.t_ms ? v.t_ms : EV_TIME_NONE;
	char t[24];
	ui_message(ui, false, "/%s: %s:%llu at %s%s (n next, N previous)", safe, ui_src_name(ui->s, l->src),
		   (unsigned long long)l->line, ui_fmt_time(ui, v.t_ms, 3, t, sizeof t),
		   r == 2 ? (dir > 0 ? ", wrapped to the oldest" : ", wrapped to the newest") : "");
}

void ui_act_search(struct ui *ui, int dir)
{
	if (dir == 0) {
		ui->prompt = true;
		ui->query[0] = '\0';
		return;
	}
	if (!ui->search[0]) {
		ui_message(ui, false, "no search yet: / searches the Lines pane");
		return;
	}
	search(ui, dir, true);
}

void ui_prompt_key(struct ui *ui, bool fkey, wint_t ch)
{
	size_t len = strlen(ui->query);
	if ((!fkey && ch == 27) || (!fkey && ch == 7)) {   /* Esc, ^G */
		ui->prompt = false;
		ui_message_for(ui, 2000, false, "search cancelled");
	} else if ((fkey && ch == KEY_ENTER) || (!fkey && (ch == '\r' || ch == '\n'))) {
		ui->prompt = false;
		if (len == 0) {
			ui_message_for(ui, 2000, false, "search cancelled: nothing typed");
			return;
		}
		snprintf(ui->search, sizeof ui->search, "%s", ui->query);
		search(ui, 1, false);
	} else if ((fkey && ch == KEY_BACKSPACE) || (!fkey && (ch == 127 || ch == 8))) {
		/* one character: a UTF-8 sequence whole */
		while (len > 0 && ((unsigned char)ui->query[len - 1] & 0xC0) == 0x80)
			len--;
		if (len > 0)
			len--;
		ui->query[len] = '\0';
	} else if (!fkey && ch == 21) {   /* ^U */
		ui->query[0] = '\0';
	} else if (!fkey && ch >= 0x20) {
		char mb[8];
		mbstate_t ps = {0};
		size_t k = wcrtomb(mb, (wchar_t)ch, &ps);
		if (k != (size_t)-1 && len + k < sizeof ui->query) {
			memcpy(ui->query + len, mb, k);
			ui->query[len + k] = '\0';
		}
	} else if (fkey && ch == KEY_RESIZE) {
		return;
	}
}

/* --- the report into a file --- */

/* Create dir/stwtop-report-<UTC time>.txt (-2, -3 ... when one exists): the
 * stream, with its path in path; NULL with errno. */
static FILE *report_file(const char *dir, char *path, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	for (int k = 1; k < 100; k++) {
		char n[16] = "";
		if (k > 1)
			snprintf(n, sizeof n, "-%d", k);
		if ((size_t)snprintf(path, len, "%s/stwtop-report-%s%s.txt", dir, stamp, n) >= len) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		FILE *f = fopen(path, "wx");
		if (f || errno != EEXIST)
			return f;
	}
	return NULL;
}

static int write_report(struct ui *ui, FILE *f)
{
	int rc = report_text(f, ui->s, false);
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

void ui_act_write(struct ui *ui, int arg)
{
	(void)arg;
	char cwd[2048], path[2400], why[2400] = "";
	bool known = getcwd(cwd, sizeof cwd) != NULL;
	FILE *f = report_file(known ? cwd : ".", path, sizeof path);
	if (!f) {
		/* the working directory is not writable (a read-only pod, a directory gone): the temporary one */
		snprintf(why, sizeof why, "%s is not writable (%s); ", known ? cwd : "the working directory",
			 strerror(errno));
		const char *tmp = getenv("TMPDIR");
		f = report_file(tmp && tmp[0] ? tmp : "/tmp", path, sizeof path);
	}
	char safe[sizeof path * 4], swhy[sizeof why * 4];
	util_sanitize(swhy, sizeof swhy, why, strlen(why));
	if (!f) {
		int e = errno;
		util_sanitize(safe, sizeof safe, path, strlen(path));
		ui_message(ui, true, "could not write the report: %s%s: %s", swhy, safe, strerror(e));
		return;
	}
	util_sanitize(safe, sizeof safe, path, strlen(path));
	if (write_report(ui, f) != 0)
		ui_message(ui, true, "writing the report to %s failed: %s", safe, strerror(errno));
	else
		ui_message(ui, false, "%sreport written to %s", swhy, safe);
}
