/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui.c — the curses dashboard (app.h: ui_run): the theme, the terminal, the
 * keyboard, the one cursor every pane shares, and when to draw.
 *
 * Drawing is event-driven, never polled: new data schedules one frame at most
 * ~80 ms later (bursts coalesce into it), a clock tick or a key draws at once,
 * a NEW mark's expiry arms a one-shot timer. Between those the process sleeps
 * in the engine's poll(). A frame is computed from the store and verdicts
 * alone (ui_frame.c), so what is on screen is always what the session knows.
 */
#include "ui.h"
#include "stwtop/util.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* time per column, smallest first */
static const int64_t zooms[] = {100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000,
				120000, 300000, 600000, 1800000, 3600000};
#define NZOOMS ((int)(sizeof zooms / sizeof zooms[0]))

int64_t ui_mono(void)
{
	return util_mono_ms();
}

/* A message in the footer for ms; an important one (sticky, ms < 0) until the
 * next key: a routine message that comes meanwhile does not replace it (it
 * reached the log), or the user never sees what mattered (issue 26: "TERM is
 * not set" was replaced within 0.3 s by a source's routine note). */
__attribute__((format(printf, 4, 0)))
static void vmessage(struct ui *ui, int64_t ms, bool error, const char *fmt, va_list ap)
{
	bool sticky = ms < 0;
	if (ui->msg_sticky && ui->msg[0] && !sticky && !error) {
		vsnprintf(ui->msg_next, sizeof ui->msg_next, fmt, ap);
		ui->msg_next_ms = ms;
		return;
	}
	vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
	ui->msg_error = error;
	ui->msg_sticky = sticky;
	ui->msg_until = sticky ? INT64_MAX : ui_mono() + ms;
}

void ui_message_sticky(struct ui *ui, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(ui, -1, error, fmt, ap);
	va_end(ap);
}

void ui_message(struct ui *ui, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(ui, error ? 15000 : 6000, error, fmt, ap);
	va_end(ap);
}

void ui_message_for(struct ui *ui, int64_t ms, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(ui, ms, error, fmt, ap);
	va_end(ap);
}

/* --- themes --- */

/* "default" (or "dark", or none) is the compiled-in theme; other names are
 * looked up in the theme dirs; a path is loaded as it is. */
static int load_theme(struct theme *t, const char *arg, char *err, size_t errlen)
{
	/* --help calls the default theme "dark" */
	if (!arg || strcmp(arg, "default") == 0 || strcmp(arg, "dark") == 0)
		return theme_parse(t, (const char *)embed_theme_default, embed_theme_default_len,
				   "built-in default theme", err, errlen);
	char path[THEME_PATH_MAX];
	int rc = theme_resolve(arg, path, sizeof path, err, errlen);
	if (rc)
		return rc;
	return theme_load_file(t, path, err, errlen);
}

static void next_theme(struct ui *ui)
{
	ui->nthemes = theme_list(ui->themes, THEME_MAX_LIST);
	int cur = -1;
	for (int i = 0; i < ui->nthemes; i++)
		if (strcmp(ui->themes[i], ui->theme.name) == 0)
			cur = i;
	for (int step = 1; step <= ui->nthemes; step++) {
		int i = (cur + step) % ui->nthemes;
		struct theme t;
		char err[600];
		if (load_theme(&t, ui->themes[i], err, sizeof err) != 0) {
			ui_message(ui, true, "theme %s: %s", ui->themes[i], err);
			continue;
		}
		if (!t.name[0])
			snprintf(t.name, sizeof t.name, "%s", ui->themes[i]);
		ui->theme = t;
		ui_apply_theme(ui);
		if (ui->color || ui->ncolors == 0)
			ui_message(ui, false, "theme %s%s%s%s", t.name, t.description[0] ? ": " : "",
				   t.description, ui->ncolors == 0 ? " (no colour here: attributes only)" : "");
		else
			ui_message(ui, false, "theme %s: uses no colour", t.name);
		return;
	}
}

/* --- NEW marks --- */

/* A verdict is new for UI_NEW_MS after the rules raised it, and flashes for
 * the first UI_FLASH_MS: the rules own when that was (raised_mono_ms). */
bool ui_verdict_is_new(const struct ui *ui, const struct verdict *v, bool *flash)
{
	int64_t age = ui_mono() - v->raised_mono_ms;
	(void)ui;
	*flash = age < UI_FLASH_MS;
	return age < UI_NEW_MS;
}

#define FRAME_GAP_MS 80

static void request_redraw(struct ui *ui, int64_t delay_ms);
static void jump_to_selected(struct ui *ui);

static void on_verdict(void *ctx, const struct verdict *v, bool is_new)
{
	struct ui *ui = ctx;
	(void)v;
	(void)is_new;
	request_redraw(ui, 0);
}

/* the next moment a NEW mark stops flashing or goes away */
static void arm_new_timer(struct ui *ui)
{
	int64_t now = ui_mono(), next = -1;
	const struct rules *r = session_rules(ui->s);
	for (size_t i = rules_count(r); i-- > 0;) {
		int64_t raised = rules_at(r, i)->raised_mono_ms;
		if (raised + UI_NEW_MS <= now)
			continue;
		int64_t f = raised + UI_FLASH_MS, e = raised + UI_NEW_MS;
		if (f > now && (next < 0 || f < next))
			next = f;
		if (e > now && (next < 0 || e < next))
			next = e;
	}
	/* a message goes away when its time is up, not at the next tick */
	if (ui->msg[0] && !ui->msg_sticky && ui->msg_until > now && (next < 0 || ui->msg_until < next))
		next = ui->msg_until;
	loop_set_timer(live_loop(ui->l), ui->new_timer, next < 0 ? -1 : next - now + 5, 0);
}

/* --- drawing schedule --- */

static void draw_now(struct ui *ui)
{
	ui_frame(ui);
	ui->last_frame_mono = ui_mono();
	arm_new_timer(ui);
}

#define FRAME_GAP_MS 80

static void request_redraw(struct ui *ui, int64_t delay_ms)
{
	if (ui->redraw_armed)
		return;
	ui->redraw_armed = true;
	loop_set_timer(live_loop(ui->l), ui->redraw_timer, delay_ms, 0);
}

static void on_redraw_timer(void *ctx)
{
	struct ui *ui = ctx;
	ui->redraw_armed = false;
	draw_now(ui);
}

static void on_new_timer(void *ctx)
{
	draw_now(ctx);
}

/* --- the engine's callbacks --- */

static void on_tick(void *ctx, int64_t now_ms)
{
	struct ui *ui = ctx;
	ui->clock_ms = now_ms;
	request_redraw(ui, 0);
}

static void on_changed(void *ctx)
{
	struct ui *ui = ctx;
	/* paused: the view stands still; the next key or tick shows what came.
	 * At most a frame per FRAME_GAP_MS: new data after a quiet spell is drawn
	 * at once, a burst when the gap is over. */
	if (ui->paused)
		return;
	int64_t since = ui_mono() - ui->last_frame_mono;
	request_redraw(ui, since >= FRAME_GAP_MS ? 0 : FRAME_GAP_MS - since);
}

static void on_signal(void *ctx, int signo)
{
	struct ui *ui = ctx;
	if (signo == SIGWINCH) {
		ui_term_resize();
		clearok(curscr, TRUE);
		draw_now(ui);
	} else if (signo == SIGHUP) {
		ui->quit = true;
		live_stop(ui->l);
	}
}

static void on_note(void *ctx, int src, const char *msg, bool is_error)
{
	struct ui *ui = ctx;
	app_health_note(ui->info ? ui->info->health : NULL, src, is_error);
	/* also in the log file, for after the screen is gone */
	fprintf(stderr, "stwtop: %s%s\n", is_error ? "error: " : "", msg);
	if (src >= 0)
		ui_message(ui, is_error, "%s: %s", ui_src_name(ui->s, src), msg);
	else
		ui_message(ui, is_error, "%s", msg);
	request_redraw(ui, 0);
}

/* a discovery hint (what the JVM does not log): the Verdicts pane draws
 * session_hints(); the log file keeps it for after the screen is gone */
static void on_hint(void *ctx, const char *text)
{
	struct ui *ui = ctx;
	fprintf(stderr, "stwtop: hint: %s\n", text);
	request_redraw(ui, 0);
}

static void on_demo_done(void *ctx)
{
	struct ui *ui = ctx;
	ui->demo_done = true;
	ui->clock_ms = live_clock(ui->l);
	/* the story's end: put every pane's cursor on the newest incident, unless
	 * the user is already looking somewhere */
	ui->nv = view_verdict_order(ui->s, ui->vorder, sizeof ui->vorder / sizeof ui->vorder[0]);
	if (ui->follow && !ui->paused && ui->nv > 0) {
		ui->vsel = 0;
		jump_to_selected(ui);
		ui_message(ui, false, "replay finished: the cursor is on the newest incident (Enter: evidence, "
			   "f: newest data, q: quit)");
	} else {
		ui_message(ui, false, "replay finished: this is the final state (q quits)");
	}
	request_redraw(ui, 0);
}

/* --- the cursor --- */

static int64_t newest_time(const struct ui *ui)
{
	const struct timeline *tl = session_timeline(ui->s);
	if (tl->newest_ms != EV_TIME_NONE)
		return tl->newest_ms;
	return ui->clock_ms;
}

static int64_t oldest_time(const struct ui *ui)
{
	const struct timeline *tl = session_timeline(ui->s);
	return tl->oldest_ms != EV_TIME_NONE ? tl->oldest_ms : ui->clock_ms;
}

int ui_cursor_col(const struct ui *ui)
{
	if (ui->axis.ncols <= 0 || ui->axis.res_ms <= 0)
		return 0;
	return view_col_of(&ui->axis, ui->cursor_ms);
}

void ui_set_cursor(struct ui *ui, int64_t t, bool center)
{
	int64_t lo = oldest_time(ui), hi = newest_time(ui);
	if (hi < ui->clock_ms && !ui->demo)
		hi = ui->clock_ms;
	if (t > hi)
		t = hi;
	if (t < lo)
		t = lo;
	ui->follow = false;
	ui->cursor_ms = t;
	int ncols = ui->axis.ncols > 0 ? ui->axis.ncols : 80;
	if (center)
		ui->view_end = view_floor(t, ui->res_ms) + (int64_t)(ncols / 3 + 1) * ui->res_ms;
}

static void move_cursor(struct ui *ui, int64_t cols)
{
	ui_set_cursor(ui, ui->cursor_ms + cols * ui->res_ms, false);
}

static void zoom(struct ui *ui, int dir)
{
	int i = 0;
	while (i < NZOOMS - 1 && zooms[i] < ui->res_ms)
		i++;
	int j = i + dir;
	if (j < 0 || j >= NZOOMS) {
		ui_message(ui, false, "zoom: %s per column is the %s", dir < 0 ? "100 ms" : "1 hour",
			   dir < 0 ? "finest" : "coarsest");
		return;
	}
	int col = ui_cursor_col(ui);
	int ncols = ui->axis.ncols;
	ui->res_ms = zooms[j];
	if (!ui->follow && ncols > 0) {
		if (col < 0 || col >= ncols)
			col = ncols * 2 / 3;
		ui->view_end = view_floor(ui->cursor_ms, ui->res_ms) + (int64_t)(ncols - col) * ui->res_ms;
	}
}

/* --- keys --- */

static void focus_step(struct ui *ui, int dir)
{
	for (int k = 1; k <= PANE_COUNT; k++) {
		int p = ((ui->focus + dir * k) % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
		if (ui->shown[p]) {
			ui->focus = p;
			return;
		}
	}
}

static const struct verdict *selected_verdict(const struct ui *ui)
{
	if (ui->nv == 0)
		return NULL;
	size_t i = ui->vsel < ui->nv ? ui->vsel : ui->nv - 1;
	return rules_at(session_rules(ui->s), ui->vorder[i]);
}

static void jump_to_selected(struct ui *ui)
{
	const struct verdict *v = selected_verdict(ui);
	if (!v)
		return;
	int64_t t = v->jump_ms != EV_TIME_NONE ? v->jump_ms : v->start_ms;
	if (t != EV_TIME_NONE)
		ui_set_cursor(ui, t, true);
}

static void select_verdict(struct ui *ui, int dir)
{
	if (ui->nv == 0)
		return;
	if (dir < 0 && ui->vsel > 0)
		ui->vsel--;
	else if (dir > 0 && ui->vsel + 1 < ui->nv)
		ui->vsel++;
	if (ui->vexpand)
		jump_to_selected(ui);
}

static void enter(struct ui *ui)
{
	switch (ui->focus) {
	case PANE_VERDICTS:
		if (ui->nv == 0) {
			ui_message(ui, false, "no verdicts yet");
			return;
		}
		ui->vexpand = !ui->vexpand;
		if (ui->vexpand)
			jump_to_selected(ui);
		break;
	case PANE_LINES:
		ui->lines_wrap = !ui->lines_wrap;
		ui_message(ui, false, "Lines: %s", ui->lines_wrap ? "long lines wrap" : "long lines are cut");
		break;
	default:
		ui->tall[ui->focus] = !ui->tall[ui->focus];
		for (int p = 0; p < PANE_COUNT; p++)
			if (p != ui->focus)
				ui->tall[p] = false;
		break;
	}
}

static void next_source(struct ui *ui)
{
	int n = session_nsources(ui->s);
	for (int k = 0; k <= n; k++) {
		int i = ui->lines_src + 1 + k;
		if (i >= n) {
			ui->lines_src = -1;
			ui_message(ui, false, "Lines: all sources");
			return;
		}
		if (session_source_kind(ui->s, i) != SRC_PROBE) {
			ui->lines_src = i;
			ui_message(ui, false, "Lines: only %s", ui_src_name(ui->s, i));
			return;
		}
	}
}

static void set_paused(struct ui *ui, bool paused)
{
	ui->paused = paused;
	if (ui->demo)
		live_set_paused(ui->l, paused);
}

/* --- the key table --- */

static void act_quit(struct ui *ui, int arg)
{
	(void)arg;
	ui->quit = true;
	live_stop(ui->l);
}

/* L: ask first; nothing is sent to the JVM without the y */
static void act_jvm_logging(struct ui *ui, int arg)
{
	char path[600], why[800];
	(void)arg;
	int pid = live_jvm_logging_target(ui->l, path, sizeof path, why, sizeof why);
	if (pid <= 0) {
		ui_message_for(ui, 8000, false, "L: %s", why);
		return;
	}
	/* an output an earlier stwtop left (it was killed): take it over or remove it
	 * (found from the JVM's open files: nothing is sent to it before the answer) */
	if (live_jvm_logging_leftover(ui->l, why, sizeof why) == 1) {
		ui->confirm_leftover = true;
		ui_message_for(ui, 60000, false, "JVM %d logs to %s, an output a killed stwtop left: t take it over "
			       "(removed when stwtop quits), r remove it, other keys: leave it", pid, path);
		return;
	}
	ui->confirm_log = true;
	ui_message_for(ui, 60000, false, "Turn on GC + safepoint logging in JVM %d (VM.log to %s)? y/N", pid, path);
}

static void confirm_leftover_key(struct ui *ui, bool fkey, wint_t ch)
{
	char msg[1600];
	ui->confirm_leftover = false;
	if (fkey || (ch != 't' && ch != 'T' && ch != 'r' && ch != 'R')) {
		ui_message_for(ui, 3000, false, "JVM logging: the earlier output left as it is");
		return;
	}
	live_jvm_logging_leftover_do(ui->l, ch == 't' || ch == 'T', msg, sizeof msg); /* said by on_note */
}

static void confirm_log_key(struct ui *ui, bool fkey, wint_t ch)
{
	char msg[1600];
	ui->confirm_log = false;
	if (fkey || (ch != 'y' && ch != 'Y')) {
		ui_message_for(ui, 3000, false, "JVM logging: not turned on");
		return;
	}
	ui_message(ui, false, "turning JVM logging on...");
	draw_now(ui);
	live_enable_jvm_logging(ui->l, msg, sizeof msg); /* said by on_note */
}

static void act_move(struct ui *ui, int cols)
{
	move_cursor(ui, cols);
}

/* one screen: the columns shown but one, so a column stays in sight */
static void act_page(struct ui *ui, int dir)
{
	move_cursor(ui, dir * (ui->axis.ncols > 1 ? ui->axis.ncols - 1 : 10));
}

/* the oldest data; the newest, and on with it as it comes (the live end) */
static void act_edge(struct ui *ui, int dir)
{
	ui_set_cursor(ui, dir < 0 ? oldest_time(ui) : newest_time(ui), false);
	if (dir > 0) {
		ui->follow = true;
		ui->lines_back = 0;
	}
}

static void act_zoom(struct ui *ui, int dir)
{
	zoom(ui, dir);
}

/* up and down select a verdict, or scroll the Lines pane back */
static void act_select(struct ui *ui, int dir)
{
	if (ui->focus != PANE_LINES)
		select_verdict(ui, dir);
	else if (dir < 0)
		ui->lines_back++;
	else if (ui->lines_back > 0)
		ui->lines_back--;
}

static void act_follow(struct ui *ui, int arg)
{
	(void)arg;
	ui->follow = true;
	ui->lines_back = 0;
	set_paused(ui, false);
}

static void act_pause(struct ui *ui, int arg)
{
	(void)arg;
	set_paused(ui, !ui->paused);
	ui_message(ui, false, ui->paused ? "paused: the view stands still%s (p resumes)"
					 : "resumed%s", ui->demo ? (ui->paused ? " and so does the replay" : "") : "");
}

static void act_focus(struct ui *ui, int dir)
{
	focus_step(ui, dir);
}

static void act_enter(struct ui *ui, int arg)
{
	(void)arg;
	enter(ui);
}

static void act_collapse(struct ui *ui, int arg)
{
	(void)arg;
	ui->vexpand = false;
	for (int p = 0; p < PANE_COUNT; p++)
		ui->tall[p] = false;
}

static void act_source(struct ui *ui, int arg)
{
	(void)arg;
	next_source(ui);
}

static void act_theme(struct ui *ui, int arg)
{
	(void)arg;
	next_theme(ui);
}

static void act_redraw(struct ui *ui, int arg)
{
	(void)ui;
	(void)arg;
	clearok(curscr, TRUE);
}

/* i: the notes (how to make the JVM log more, what the input cannot show)
 * whole, in the help's box (it scrolls); the Verdicts pane shortens them at a
 * clause to fit its rows */
static void act_notes(struct ui *ui, int arg)
{
	(void)arg;
	ui->help = true;
	ui->help_notes = true;
	ui->help_top = 0;
}

/* z: the screen's times in UTC, local time, and the zone --tz named (if any),
 * in turn; the clock in the header names the zone */
static void act_zone(struct ui *ui, int arg)
{
	(void)arg;
	const char *given = ui->c && ui->c->tz ? ui->c->tz : NULL;
	enum util_tz_kind k = util_tz_kind();
	const char *next = k == UTIL_TZ_UTC ? "local"
			   : k == UTIL_TZ_LOCAL && given && strcmp(given, "local") && strcasecmp(given, "utc") ? given
											       : "utc";
	char err[300];
	if (util_tz_set(next, err, sizeof err) < 0)
		util_tz_set("utc", err, sizeof err);
	ui_message(ui, false, "times in %s (z: next zone)", util_tz_display_name());
}

static void act_help(struct ui *ui, int arg)
{
	(void)arg;
	ui->help = true;
	ui->help_notes = false;
	ui->help_top = 0;
}

/* Every key: the dispatch (handle_key) and the ? help (ui_frame.c) both read
 * this, so a key is one row here. The help lists the rows in this order, the
 * footer the rows with a .foot, and tests/e2e/tui_help.sh reads this table to
 * check that the help names every binding. A capital letter beside its small
 * one doing the same is not named (Caps Lock). */
const struct ui_key ui_keys[] = {
	{.label = "← →  h l", .label_ascii = "<- ->  h l", .what = "move the cursor (one column; every pane follows it)",
	 .foot = "←→", .foot_ascii = "<>", .foot_what = "cursor", .act = act_move,
	 .keys = {{UI_FN(KEY_LEFT), -1}, {UI_FN(KEY_RIGHT), 1}, {'h', -1}, {'l', 1}}},
	{.label = "⇧← ⇧→  < >", .label_ascii = "S-<- S->  < >", .what = "move the cursor 10 columns", .act = act_move,
	 .keys = {{UI_FN(KEY_SLEFT), -10}, {UI_FN(KEY_SRIGHT), 10}, {'<', -10}, {'>', 10}}},
	{.label = "PgUp PgDn", .label_ascii = "PgUp PgDn", .what = "move the cursor one screen", .act = act_page,
	 .keys = {{UI_FN(KEY_PPAGE), -1}, {UI_FN(KEY_NPAGE), 1}}},
	{.label = "Home End  g G", .label_ascii = "Home End  g G",
	 .what = "cursor to the oldest / newest data; End and G then follow what comes (as f)",
	 .act = act_edge, .keys = {{UI_FN(KEY_HOME), -1}, {UI_FN(KEY_END), 1}, {'g', -1}, {'G', 1}}},
	{.label = "[ ]", .label_ascii = "[ ]",
	 .what = "previous / next incident: every pane's cursor to its start (numbered as --report numbers them)",
	 .act = ui_act_incident, .keys = {{'[', -1}, {']', 1}}},
	{.label = "/  n N", .label_ascii = "/  n N",
	 .what = "search the lines the Lines pane holds (every source, or the one s picked; case ignored): "
		 "every pane's cursor to the line's time; n / N: next / previous match",
	 .act = ui_act_search, .keys = {{'/', 0}, {'n', 1}, {'N', -1}}},
	{.label = "w", .label_ascii = "w",
	 .what = "write the report so far (as --report) to ./stwtop-report-<UTC time>.txt, "
		 "else in $TMPDIR",
	 .act = ui_act_write, .keys = {{'w', 0}, {'W', 0}}},
	{.label = "+ -  = _", .label_ascii = "+ -  = _", .what = "zoom in / out (time per column; = and _ do the same)",
	 .foot = "+-", .foot_ascii = "+-", .foot_what = "zoom", .act = act_zoom,
	 .keys = {{'+', -1}, {'-', 1}, {'=', -1}, {'_', 1}}},
	{.label = "f", .label_ascii = "f", .what = "follow now: cursor on the newest data, view advancing",
	 .foot = "f", .foot_ascii = "f", .foot_what = "follow", .act = act_follow, .keys = {{'f', 0}, {'F', 0}}},
	{.label = "p  space", .label_ascii = "p  space", .what = "pause: freeze the view (the demo's replay too)",
	 .foot = "p", .foot_ascii = "p", .foot_what = "pause", .act = act_pause, .keys = {{'p', 0}, {'P', 0}, {' ', 0}}},
	{.label = "Tab  ⇧Tab", .label_ascii = "Tab  S-Tab", .what = "focus the next / previous pane",
	 .foot = "Tab", .foot_ascii = "Tab", .foot_what = "pane", .act = act_focus,
	 .keys = {{'\t', 1}, {UI_FN(KEY_BTAB), -1}}},
	{.label = "↑ ↓  k j", .label_ascii = "Up Down  k j", .what = "select a verdict (in Lines: scroll back)",
	 .act = act_select, .keys = {{UI_FN(KEY_UP), -1}, {UI_FN(KEY_DOWN), 1}, {'k', -1}, {'j', 1}}},
	{.label = "Enter", .label_ascii = "Enter",
	 .what = "expand: a verdict's evidence and advice, and jump every pane's cursor to it; "
		 "on a chart: make it tall; on Lines: wrap long lines",
	 .foot = "↵", .foot_ascii = "Enter", .foot_what = "expand", .act = act_enter,
	 .keys = {{UI_FN(KEY_ENTER), 0}, {'\r', 0}, {'\n', 0}}},
	{.label = "Esc", .label_ascii = "Esc", .what = "collapse what Enter expanded", .act = act_collapse,
	 .keys = {{27, 0}}},
	{.label = "s", .label_ascii = "s", .what = "Lines: show one source / all sources", .act = act_source,
	 .keys = {{'s', 0}, {'S', 0}}},
	{.label = "t", .label_ascii = "t", .what = "next colour theme", .foot = "t", .foot_ascii = "t", .foot_what = "theme",
	 .foot_small = 3, .act = act_theme, .keys = {{'t', 0}, {'T', 0}}},
	{.label = "i", .label_ascii = "i",
	 .what = "the notes whole (how to log more, what the input lacks)",
	 .act = act_notes, .keys = {{'i', 0}, {'I', 0}}},
	{.label = "z", .label_ascii = "z",
	 .what = "times in UTC / local time / the --tz zone, in turn",
	 .act = act_zone, .keys = {{'z', 0}, {'Z', 0}}},
	{.label = "L", .label_ascii = "L",
	 .what = "turn on JVM GC logging (y/N), as --enable-jvm-logging",
	 .act = act_jvm_logging, .keys = {{'L', 0}}},
	{.label = "^L", .label_ascii = "^L", .what = "redraw the screen", .act = act_redraw, .keys = {{12, 0}}},
	{.label = "?", .label_ascii = "?", .what = "this help", .foot = "?", .foot_ascii = "?", .foot_what = "help",
	 .foot_small = 1, .act = act_help, .keys = {{'?', 0}}},
	{.label = "q", .label_ascii = "q", .what = "quit", .foot = "q", .foot_ascii = "q", .foot_what = "quit",
	 .foot_small = 2, .act = act_quit, .keys = {{'q', 0}, {'Q', 0}}},
	/* not a key: curses says the terminal changed size */
	{.label = NULL, .act = act_redraw, .keys = {{UI_FN(KEY_RESIZE), 0}}},
};
const size_t ui_nkeys = sizeof ui_keys / sizeof ui_keys[0];

/* a help cut by a small screen scrolls; any other key closes it (q quits too) */
static void help_key(struct ui *ui, bool fkey, wint_t ch)
{
	if (ui->help_max_top > 0) {
		int page = ui->help_view > 1 ? ui->help_view - 1 : 1, to = -1;
		if (fkey && ch == KEY_DOWN)
			to = ui->help_top + 1;
		else if (fkey && ch == KEY_UP)
			to = ui->help_top - 1;
		else if (fkey && ch == KEY_NPAGE)
			to = ui->help_top + page;
		else if (fkey && ch == KEY_PPAGE)
			to = ui->help_top - page;
		else if (fkey && ch == KEY_HOME)
			to = 0;
		else if (fkey && ch == KEY_END)
			to = ui->help_max_top;
		else if (!fkey && (ch == 'j' || ch == 'k'))
			to = ui->help_top + (ch == 'j' ? 1 : -1);
		if (to != -1 || (fkey && ch == KEY_RESIZE)) {
			if (to != -1)
				ui->help_top = to < 0 ? 0 : to > ui->help_max_top ? ui->help_max_top : to;
			return;
		}
	} else if (fkey && ch == KEY_RESIZE) {
		return;
	}
	ui->help = false;
	if (!fkey && (ch == 'q' || ch == 'Q'))
		act_quit(ui, 0);
}

static void handle_key(struct ui *ui, bool fkey, wint_t ch)
{
	/* an important message stays until a key: this one (its own message, if any, follows) */
	if (ui->msg_sticky && !(fkey && ch == KEY_RESIZE)) {
		ui->msg_sticky = false;
		ui->msg[0] = '\0';
		if (ui->msg_next[0]) { /* what came meanwhile, for its own time from now */
			ui_message_for(ui, ui->msg_next_ms, false, "%s", ui->msg_next);
			ui->msg_next[0] = '\0';
		}
	}
	if (ui->help) {
		help_key(ui, fkey, ch);
		return;
	}
	if (ui->prompt) {
		ui_prompt_key(ui, fkey, ch);
		return;
	}
	if (ui->confirm_log && !(fkey && ch == KEY_RESIZE)) {
		confirm_log_key(ui, fkey, ch);
		return;
	}
	if (ui->confirm_leftover && !(fkey && ch == KEY_RESIZE)) {
		confirm_leftover_key(ui, fkey, ch);
		return;
	}
	int code = fkey ? UI_FN(ch) : (int)ch;
	for (size_t i = 0; i < ui_nkeys; i++)
		for (const struct ui_binding *b = ui_keys[i].keys; b->code; b++)
			if (b->code == code) {
				ui_keys[i].act(ui, b->arg);
				return;
			}
	/* nothing happening looks like a hung screen */
	ui_message_for(ui, 2000, false, "unknown key: ? for help");
}

static void on_key(void *ctx, int fd, short revents)
{
	struct ui *ui = ctx;
	wint_t ch;
	int r, n = 0;
	while (!ui->quit && (r = get_wch(&ch)) != ERR) {
		handle_key(ui, r == KEY_CODE_YES, ch);
		n++;
	}
	if (n == 0) {
		/* readable but nothing to read: the terminal is gone (EOF, hangup) */
		int avail = -1;
		if ((revents & (POLLHUP | POLLERR | POLLNVAL)) ||
		    (ioctl(fd, FIONREAD, &avail) == 0 && avail == 0)) {
			ui->quit = true;
			loop_del_fd(live_loop(ui->l), fd);
			live_stop(ui->l);
		}
		return;
	}
	if (!ui->quit)
		draw_now(ui);
}

/* --- run --- */

int ui_run(struct live *l, struct session *s, const struct cli *c, const struct ui_info *info, char *why,
	   size_t whylen)
{
	struct ui *ui = calloc(1, sizeof *ui);
	if (!ui) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	ui->l = l;
	ui->s = s;
	ui->c = c;
	ui->info = info;
	ui->demo = info && info->demo_title;
	bool handed = info && info->term && info->term->scr;
	if (handed)
		ui->term = *info->term; /* the picker's screen: ours to end now */
	/* a bad theme is a usage error, told before anything is drawn */
	char err[1024];
	if (load_theme(&ui->theme, c->theme, err, sizeof err) != 0) {
		if (handed)
			ui_term_end(&ui->term);
		fprintf(stderr, "stwtop: --theme: %s\n", err);
		free(ui);
		return 2;
	}
	if (!ui->theme.name[0])
		snprintf(ui->theme.name, sizeof ui->theme.name, "%s", c->theme ? c->theme : "default");
	/* glyphs follow the locale's codeset; numbers stay "1.5", whatever the locale */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	ui->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;

	if (!handed && (ui_term_probe(&ui->term, why, whylen) != 0 || ui_term_start(&ui->term, why, whylen) != 0)) {
		free(ui);
		return -1;
	}
	ui_apply_theme(ui);
	ui->res_ms = ui->demo ? 500 : 1000;
	ui->follow = true;
	ui->focus = PANE_VERDICTS;
	ui->lines_src = -1;
	ui->match_t = EV_TIME_NONE;
	ui->clock_ms = live_clock(l);
	ui->cursor_ms = ui->clock_ms;
	/* what the sources said before the screen existed (a file to wait for, one unreadable) */
	for (int i = 0; i < session_nsources(s); i++) {
		const struct source_stats *st = session_source_stats(s, i);
		if (st->note[0] && (st->error || st->lines == 0)) {
			ui_message(ui, st->error, "%s: %s", session_source_name(s, i), st->note);
			break;
		}
	}
	if (ui->term.term_unset)
		ui_message_sticky(ui, false, "TERM is not set: using the built-in xterm-256color; set TERM to match your "
				  "terminal");
	else if (ui->term.fallback_from[0])
		ui_message_sticky(ui, false, "no terminfo entry for TERM=%s: using the built-in xterm-256color",
				  ui->term.fallback_from);

	struct loop *loop = live_loop(l);
	static const struct live_view view = {
		.tick = on_tick, .changed = on_changed, .signal = on_signal, .note = on_note, .hint = on_hint,
		.demo_done = on_demo_done,
	};
	ui->redraw_timer = loop_add_timer(loop, -1, 0, on_redraw_timer, ui);
	ui->new_timer = loop_add_timer(loop, -1, 0, on_new_timer, ui);
	int rc = -1;
	if (ui->redraw_timer >= 0 && ui->new_timer >= 0 && loop_add_fd(loop, STDIN_FILENO, POLLIN, on_key, ui) == 0) {
		session_set_listener(s, on_verdict, ui);
		live_set_view(l, &view, ui);
		draw_now(ui);
		rc = live_run(l);
		session_set_listener(s, NULL, NULL);
		live_set_view(l, NULL, NULL);
		loop_del_fd(loop, STDIN_FILENO);
	}
	if (ui->redraw_timer >= 0)
		loop_del_timer(loop, ui->redraw_timer);
	if (ui->new_timer >= 0)
		loop_del_timer(loop, ui->new_timer);
	ui_term_end(&ui->term);
	pane_verdicts_free(ui);
	free(ui);
	return rc < 0 ? 1 : 0;
}
