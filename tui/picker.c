/* SPDX-License-Identifier: GPL-2.0-or-later */
/* picker.c — several JVMs run and no --pid was given: choose one on the screen
 * instead of being sent back to the shell with a list to copy a pid from.
 *
 * A full-screen list of discover_candidates() (pid, user, uptime, main class or
 * jar); arrows or j/k move, Enter watches the selected JVM (as --pid PID would),
 * q, Esc or Ctrl-C quit. The list is read again every 2 s so a JVM that exits
 * drops out and one that starts appears; the selection follows its pid. The
 * terminal is started here and, on a choice, handed to ui_run (no flash of the
 * shell between the two screens). Attributes only, no colours: it must read
 * the same under NO_COLOR, on an 8-colour terminal and in tmux's capture.
 */
#include "ui.h"
#include "stwtop/discover.h"
#include "stwtop/util.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define PICKER_MAX 64
#define PICKER_REFRESH_MS 2000

struct picker {
	struct discover_candidate c[PICKER_MAX];
	int n;
	int sel, top;
	const char *root;
};

static volatile sig_atomic_t picker_sig, picker_winch;

static void on_sig(int signo)
{
	if (signo == SIGWINCH)
		picker_winch = 1;
	else
		picker_sig = signo;
}

/* read the JVMs again; the selection stays on its pid while that runs */
static void picker_load(struct picker *p)
{
	int keep = p->n > 0 ? p->c[p->sel].pid : 0;
	int n = discover_candidates(p->root, p->c, PICKER_MAX);
	p->n = n < 0 ? 0 : n;
	int sel = p->sel < p->n ? p->sel : p->n - 1;
	for (int i = 0; i < p->n; i++)
		if (p->c[i].pid == keep)
			sel = i;
	p->sel = sel < 0 ? 0 : sel;
}

static void line_at(int y, int w, attr_t a, const char *text)
{
	attrset(a);
	move(y, 0);
	int n = (int)strlen(text);
	addnstr(text, n < w ? n : w);
	for (int x = n; x < w; x++)
		addch(' ');
	attrset(A_NORMAL);
}

/* What tells the JVM at i apart from those of its main class (issue 26: two
 * rows "4767 root 7s Svc" / "4782 root 7s Svc"): of its listening ports, its
 * arguments, its -Xmx and its cgroup, those that differ within the group (all
 * it has when none differ); a JVM alone with its main class: its ports. */
static void detail_of(const struct picker *p, int i, char *out, size_t len)
{
	const struct discover_candidate *c = &p->c[i];
	enum { PORTS, ARGS, XMX, CGROUP, NFIELDS };
	bool differs[NFIELDS] = {false}, group = false;
	for (int k = 0; k < p->n; k++) {
		const struct discover_candidate *o = &p->c[k];
		if (k == i || strcmp(o->main, c->main) != 0)
			continue;
		group = true;
		differs[PORTS] |= strcmp(o->ports, c->ports) != 0;
		differs[ARGS] |= strcmp(o->args, c->args) != 0;
		differs[XMX] |= o->xmx != c->xmx;
		differs[CGROUP] |= strcmp(o->cgroup, c->cgroup) != 0;
	}
	bool any = false;
	for (int f = 0; f < NFIELDS; f++)
		any |= differs[f];
	bool want[NFIELDS];
	for (int f = 0; f < NFIELDS; f++)
		want[f] = group ? (!any || differs[f]) : f == PORTS;
	size_t o = 0;
	out[0] = '\0';
#define ADD(...) do { if (o < len) { int k_ = snprintf(out + o, len - o, __VA_ARGS__); o += k_ > 0 ? (size_t)k_ : 0; } } while (0)
	if (want[PORTS])
		ADD("%sport%s %s", o ? "  " : "", strchr(c->ports, ' ') ? "s" : "", c->ports[0] ? c->ports : "none");
	if (want[ARGS] && (c->args[0] || group))
		ADD("%sargs %s", o ? "  " : "", c->args[0] ? c->args : "none");
	if (want[XMX]) {
		if (c->xmx > 0)
			ADD("%s-Xmx%lldm", o ? "  " : "", (long long)(c->xmx >> 20));
		else
			ADD("%sno -Xmx", o ? "  " : "");
	}
	if (want[CGROUP])
		ADD("%scgroup %s", o ? "  " : "", c->cgroup[0] ? c->cgroup : "/");
#undef ADD
	if (!group && !c->ports[0])
		out[0] = '\0';
}

static void picker_draw(struct picker *p)
{
	int h = LINES, w = COLS;
	char b[512];
	erase();
	snprintf(b, sizeof b, " stwtop: %d Java processes are running; choose the one to watch", p->n);
	line_at(0, w, A_REVERSE, b);
	int rows = h - 5; /* header, blank, column names ... blank, keys */
	if (rows < 1)
		rows = 1;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + rows)
		p->top = p->sel - rows + 1;
	if (p->top > 0 && p->top > p->n - rows)
		p->top = p->n - rows > 0 ? p->n - rows : 0;
	/* the main class column as wide as its longest (up to 40), then what tells the JVMs apart */
	int mw = 17;
	for (int i = 0; i < p->n; i++) {
		int l = (int)strlen(p->c[i].main);
		mw = l > mw ? (l > 40 ? 40 : l) : mw;
	}
	snprintf(b, sizeof b, "   %-8s %-12s %-8s %-*s  %s", "PID", "USER", "UPTIME", mw, "MAIN CLASS OR JAR",
		 "WHAT TELLS IT APART");
	if (h > 2)
		line_at(2, w, A_BOLD, b);
	int64_t now = util_now_ms();
	for (int i = p->top; i < p->n && i - p->top < rows && 3 + i - p->top < h - 1; i++) {
		char up[32], detail[300];
		discover_fmt_uptime(p->c[i].start_ms, now, up, sizeof up);
		detail_of(p, i, detail, sizeof detail);
		snprintf(b, sizeof b, " %c %-8d %-12s %-8s %-*s  %s", i == p->sel ? '>' : ' ', p->c[i].pid, p->c[i].user, up,
			 mw, p->c[i].main, detail);
		line_at(3 + i - p->top, w, i == p->sel ? A_REVERSE : A_NORMAL, b);
	}
	if (p->n == 0 && h > 4)
		line_at(3, w, A_NORMAL, "   no Java process runs any more (q quits)");
	if (h > 1) {
		snprintf(b, sizeof b, " Up/Down j/k move   Enter watch   q quit%s", p->n > p->top + rows ? "   (more below)" : "");
		line_at(h - 1, w, A_REVERSE, b);
	}
	refresh();
}

enum { PICK_NONE, PICK_CHOSEN, PICK_QUIT };

static int picker_key(struct picker *p, int ch)
{
	int page = LINES - 5 > 1 ? LINES - 5 : 1;
	switch (ch) {
	case KEY_UP: case 'k': p->sel--; break;
	case KEY_DOWN: case 'j': p->sel++; break;
	case KEY_PPAGE: p->sel -= page; break;
	case KEY_NPAGE: p->sel += page; break;
	case KEY_HOME: case 'g': p->sel = 0; break;
	case KEY_END: case 'G': p->sel = p->n - 1; break;
	case '\r': case '\n': case KEY_ENTER:
		return p->n > 0 ? PICK_CHOSEN : PICK_NONE;
	case 'q': case 'Q': case 27: case 3:
		return PICK_QUIT;
	case KEY_RESIZE:
		break;
	default:
		return PICK_NONE;
	}
	if (p->sel >= p->n)
		p->sel = p->n - 1;
	if (p->sel < 0)
		p->sel = 0;
	return PICK_NONE;
}

int picker_run(struct ui_term *term, const char *root, char *why, size_t whylen)
{
	struct picker p = {.root = root};
	picker_load(&p);
	/* the dashboard's locale rules (ui_run), set before curses starts so that it
	 * keeps the terminal's codeset when the screen is handed over */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	memset(term, 0, sizeof *term);
	if (ui_term_probe(term, why, whylen) != 0 || ui_term_start(term, why, whylen) != 0)
		return -1;
	/* Ctrl-C, a hangup and SIGTERM end the picker like q (curses would exit the
	 * process from its own handler, leaving the terminfo copy behind) */
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH};
	struct sigaction sa = {.sa_handler = on_sig}, old[4];
	sigemptyset(&sa.sa_mask);
	picker_sig = picker_winch = 0;
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &sa, &old[i]);
	int res = PICK_NONE;
	int64_t loaded = util_mono_ms();
	picker_draw(&p);
	while (res == PICK_NONE) {
		struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
		int r = poll(&pfd, 1, 1000);
		if (picker_sig) {
			res = PICK_QUIT;
			break;
		}
		if (picker_winch) {
			picker_winch = 0;
			ui_term_resize();
		}
		if (r > 0 && (pfd.revents & POLLIN)) {
			/* readable with nothing to read: the terminal is gone */
			int avail = -1;
			if (ioctl(STDIN_FILENO, FIONREAD, &avail) == 0 && avail == 0) {
				res = PICK_QUIT;
				break;
			}
			int ch;
			while (res == PICK_NONE && (ch = getch()) != ERR)
				res = picker_key(&p, ch);
		} else if (r > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))) {
			res = PICK_QUIT;
			break;
		}
		if (res == PICK_NONE && util_mono_ms() - loaded >= PICKER_REFRESH_MS) {
			picker_load(&p);
			loaded = util_mono_ms();
		}
		if (res == PICK_NONE)
			picker_draw(&p);
	}
	for (int i = 0; i < 4; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (res == PICK_CHOSEN) {
		erase();
		refresh();
		return p.c[p.sel].pid;
	}
	ui_term_end(term);
	return 0;
}
