/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_term.c — getting a terminal curses can draw on, and giving it back.
 *
 * ncurses 6.4 (Debian 12): initscr() exits the process on an unknown TERM, so we probe
 * with setupterm() first and use newterm(); a static binary copied into a pod
 * usually finds no terminfo database at all, so the xterm-256color entry is
 * compiled in and written to a temporary TERMINFO dir when $TERM has no entry.
 * TERM unset or empty on a tty (`kubectl exec -it` sets none) gets the same
 * built-in entry: the terminal is there, only its name is missing, and the
 * terminals on-call engineers use speak xterm's sequences. TERM=dumb, no tty,
 * or no cursor addressing: the caller runs line mode instead. libinotifytools
 * prints to stderr, which would scribble over the screen, so fd 2 goes to a log file while curses owns the terminal: one per
 * user ($XDG_STATE_HOME/stwtop/stwtop.log, else ~/.local/state/...), each run
 * appending, bounded (moved to stwtop.log.1 past 1 MiB); a run that wrote
 * nothing leaves the file as it found it.
 */
#include "ui.h"
#include "stwtop/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <term.h>
#include <unistd.h>

static const char *tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	return t && t[0] == '/' ? t : "/tmp";
}

#define LOG_MAX ((off_t)1 << 20)

/* mkdir -p of a path under a directory that exists; 0 when it exists after */
static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0700);
		*p = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* the user's log: $XDG_STATE_HOME/stwtop/stwtop.log or ~/.local/state/stwtop/stwtop.log;
 * $TMPDIR/stwtop-UID.log when neither can be made */
static void log_path_of(char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char dir[400] = "";
	if (x && x[0] == '/')
		snprintf(dir, sizeof dir, "%s/stwtop", x);
	else if (home && home[0] == '/')
		snprintf(dir, sizeof dir, "%s/.local/state/stwtop", home);
	if (dir[0] && mkdirs(dir) == 0 && access(dir, W_OK) == 0) {
		snprintf(buf, len, "%s/stwtop.log", dir);
		return;
	}
	snprintf(buf, len, "%s/stwtop-%u.log", tmpdir(), (unsigned)getuid());
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* the embedded entry under dir/x/ (and dir/78/, the hashed layout some builds use) */
static int write_terminfo(char *dir, size_t dirlen)
{
	if (embed_terminfo_xterm256_len == 0)
		return -1;
	if (snprintf(dir, dirlen, "%s/stwtop-ti-XXXXXX", tmpdir()) >= (int)dirlen || !mkdtemp(dir)) {
		dir[0] = '\0';
		return -1;
	}
	static const char *const subs[] = {"x", "78"};
	for (size_t i = 0; i < 2; i++) {
		char p[700];
		snprintf(p, sizeof p, "%s/%s", dir, subs[i]);
		if (mkdir(p, 0700) != 0)
			return -1;
		snprintf(p, sizeof p, "%s/%s/xterm-256color", dir, subs[i]);
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		int rc = write_all(fd, embed_terminfo_xterm256, embed_terminfo_xterm256_len);
		close(fd);
		if (rc)
			return -1;
	}
	return 0;
}

static void remove_terminfo(char *dir)
{
	if (!dir[0])
		return;
	static const char *const subs[] = {"x", "78"};
	for (size_t i = 0; i < 2; i++) {
		char p[700];
		snprintf(p, sizeof p, "%s/%s/xterm-256color", dir, subs[i]);
		unlink(p);
		snprintf(p, sizeof p, "%s/%s", dir, subs[i]);
		rmdir(p);
	}
	rmdir(dir);
	dir[0] = '\0';
}

static bool has_cup(void)
{
	char cap[] = "cup";
	char *s = tigetstr(cap);
	return s && s != (char *)-1 && s[0];
}

int ui_term_probe(struct ui_term *t, char *why, size_t whylen)
{
	t->saved_stderr = -1;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(why, whylen, "%s is not a terminal", !isatty(STDOUT_FILENO) ? "standard output" : "standard input");
		return -1;
	}
	const char *term = getenv("TERM");
	t->term_unset = !term || !term[0];
	if (!t->term_unset && strcmp(term, "dumb") == 0) {
		snprintf(why, whylen, "TERM=dumb cannot move the cursor");
		return -1;
	}
	char tname[64];
	snprintf(tname, sizeof tname, "%s", t->term_unset ? "" : term);
	/* what the user is told when even the built-in entry cannot be used */
	char said[128];
	if (t->term_unset)
		snprintf(said, sizeof said, "TERM is not set");
	else
		snprintf(said, sizeof said, "no terminfo entry for TERM=%s", tname);
	int err = 0;
	if (t->term_unset || setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		/* no entry for $TERM (or no database: a static binary in a pod), or no
		 * $TERM at all: use ours */
		if (write_terminfo(t->ti_dir, sizeof t->ti_dir) != 0) {
			int e = errno;
			remove_terminfo(t->ti_dir);
			if (embed_terminfo_xterm256_len == 0)
				snprintf(why, whylen, "%s", said);
			else /* a pod with a read-only or no /tmp: say so, and the way out */
				snprintf(why, whylen, "%s, and the built-in xterm-256color could "
					 "not be written to %s: %s (set TMPDIR to a writable directory)", said, tmpdir(),
					 strerror(e));
			return -1;
		}
		setenv("TERMINFO", t->ti_dir, 1);
		setenv("TERM", "xterm-256color", 1);
		err = 0;
		if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
			remove_terminfo(t->ti_dir);
			snprintf(why, whylen, "%s (and the built-in xterm-256color did not load)", said);
			return -1;
		}
		if (!t->term_unset)
			snprintf(t->fallback_from, sizeof t->fallback_from, "%s", tname);
	}
	bool cup = has_cup();
	del_curterm(cur_term);
	if (!cup) {
		remove_terminfo(t->ti_dir);
		snprintf(why, whylen, "TERM=%s has no cursor addressing", getenv("TERM"));
		return -1;
	}
	return 0;
}

static void stderr_to_log(struct ui_term *t)
{
	struct stat st;
	log_path_of(t->log_path, sizeof t->log_path);
	if (stat(t->log_path, &st) == 0 && st.st_size > LOG_MAX) {
		char old[sizeof t->log_path + 2];
		snprintf(old, sizeof old, "%s.1", t->log_path);
		rename(t->log_path, old);
	}
	int fd = open(t->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	t->log_from = fd >= 0 && fstat(fd, &st) == 0 ? (long)st.st_size : 0;
	if (fd >= 0) {
		/* which run wrote what follows; taken back at the end if nothing does */
		char hdr[96], iso[32];
		int n = snprintf(hdr, sizeof hdr, "--- stwtop pid %d, %s\n", (int)getpid(),
				 util_fmt_iso_ms(util_now_ms(), iso, sizeof iso));
		if (write_all(fd, (const unsigned char *)hdr, (size_t)n) == 0)
			t->log_hdr = (long)n;
	}
	if (fd < 0) {
		t->log_path[0] = '\0';
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return;
	}
	fflush(stderr);
	t->saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (t->saved_stderr >= 0)
		dup2(fd, STDERR_FILENO);
	close(fd);
}

static void stderr_back(struct ui_term *t)
{
	if (t->saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(t->saved_stderr, STDERR_FILENO);
	close(t->saved_stderr);
	t->saved_stderr = -1;
	if (!t->log_path[0])
		return;
	struct stat st;
	if (stat(t->log_path, &st) != 0)
		return;
	if (st.st_size > t->log_from + t->log_hdr) {
		fprintf(stderr, "stwtop: messages written while the dashboard was on screen are at the end of %s "
			"(after the line \"--- stwtop pid %d\")\n", t->log_path, (int)getpid());
	} else if (t->log_from == 0) {
		unlink(t->log_path);
	} else if (truncate(t->log_path, (off_t)t->log_from) != 0) {
		/* the header stays: harmless */
	}
}

int ui_term_start(struct ui_term *t, char *why, size_t whylen)
{
	stderr_to_log(t);
	t->scr = newterm(NULL, stdout, stdin);
	if (!t->scr) {
		stderr_back(t);
		remove_terminfo(t->ti_dir);
		snprintf(why, whylen, "curses could not start on TERM=%s", getenv("TERM"));
		return -1;
	}
	set_term(t->scr);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	leaveok(stdscr, TRUE);
	return 0;
}

void ui_term_end(struct ui_term *t)
{
	if (t->scr) {
		endwin();
		delscreen(t->scr);
		t->scr = NULL;
	}
	stderr_back(t);
	remove_terminfo(t->ti_dir);
}

void ui_term_resize(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
}
