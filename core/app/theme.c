/* SPDX-License-Identifier: GPL-2.0-or-later */
/* theme.c — colour themes (theme.h): JSON parsing and validation with errors
 * that name the key, colour degradation to the terminal's palette, and the
 * directories --theme NAME searches. No curses: the tui maps styles to pairs. */
#include "stwtop/theme.h"
#include "stwtop/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const role_names[THEME_ROLE_COUNT] = {
	[TR_TEXT] = "text",
	[TR_DIM] = "dim",
	[TR_TITLE] = "title",
	[TR_FOCUS] = "focus",
	[TR_BORDER] = "border",
	[TR_HEADER] = "header",
	[TR_STATUS] = "status",
	[TR_KEY] = "key",
	[TR_ERROR] = "error",
	[TR_CURSOR] = "cursor",
	[TR_SELECTED] = "selected",
	[TR_AXIS] = "axis",
	[TR_HEAP_COMMITTED] = "heap.committed",
	[TR_HEAP_USED] = "heap.used",
	[TR_HEAP_MARKER] = "heap.marker",
	[TR_HEAP_PERIODIC] = "heap.periodic",
	[TR_STOP_TTSP] = "stop.ttsp",
	[TR_STOP_OP] = "stop.op",
	[TR_CPU_THROTTLED] = "cpu.throttled",
	[TR_CPU_WAIT] = "cpu.wait",
	[TR_CPU_ONCPU] = "cpu.oncpu",
	[TR_CPU_ALLOCSTALL] = "cpu.allocstall",
	[TR_UP_B0] = "upstream.b0",
	[TR_UP_B1] = "upstream.b1",
	[TR_UP_B2] = "upstream.b2",
	[TR_UP_B3] = "upstream.b3",
	[TR_UP_B4] = "upstream.b4",
	[TR_UP_5XX] = "upstream.5xx",
	[TR_UP_P99] = "upstream.p99",
	[TR_VERDICT_INFO] = "verdict.info",
	[TR_VERDICT_WARN] = "verdict.warn",
	[TR_VERDICT_CRIT] = "verdict.crit",
	[TR_VERDICT_NEW] = "verdict.new",
};

/* With no colour these keep the roles apart: the mono theme in attribute form. */
static const unsigned nocolor_attrs[THEME_ROLE_COUNT] = {
	[TR_TITLE] = THEME_ATTR_BOLD,
	[TR_FOCUS] = THEME_ATTR_BOLD | THEME_ATTR_REVERSE,
	[TR_HEADER] = THEME_ATTR_REVERSE,
	[TR_STATUS] = THEME_ATTR_REVERSE,
	[TR_KEY] = THEME_ATTR_BOLD,
	[TR_ERROR] = THEME_ATTR_BOLD | THEME_ATTR_UNDERLINE,
	[TR_CURSOR] = THEME_ATTR_BOLD,
	[TR_SELECTED] = THEME_ATTR_REVERSE,
	[TR_HEAP_MARKER] = THEME_ATTR_BOLD,
	[TR_CPU_ALLOCSTALL] = THEME_ATTR_BOLD,
	[TR_UP_5XX] = THEME_ATTR_BOLD,
	[TR_VERDICT_WARN] = THEME_ATTR_BOLD,
	[TR_VERDICT_CRIT] = THEME_ATTR_BOLD | THEME_ATTR_REVERSE,
	[TR_VERDICT_NEW] = THEME_ATTR_BOLD | THEME_ATTR_UNDERLINE,
};

const char *theme_role_name(int role)
{
	return role >= 0 && role < THEME_ROLE_COUNT ? role_names[role] : NULL;
}

int theme_role_from_name(const char *name)
{
	for (int i = 0; i < THEME_ROLE_COUNT; i++)
		if (strcmp(role_names[i], name) == 0)
			return i;
	return -1;
}

unsigned theme_nocolor_attrs(int role)
{
	return role >= 0 && role < THEME_ROLE_COUNT ? nocolor_attrs[role] : 0;
}

/* --- colours --- */

static const char *const base_names[8] = {"black", "red", "green", "yellow", "blue", "magenta", "cyan",
					  "white"};

/* xterm's default palette for 0-15 (what `tmux`, xterm and most emulators ship) */
static const uint8_t ansi16[16][3] = {
	{0x00, 0x00, 0x00}, {0xcd, 0x00, 0x00}, {0x00, 0xcd, 0x00}, {0xcd, 0xcd, 0x00},
	{0x00, 0x00, 0xee}, {0xcd, 0x00, 0xcd}, {0x00, 0xcd, 0xcd}, {0xe5, 0xe5, 0xe5},
	{0x7f, 0x7f, 0x7f}, {0xff, 0x00, 0x00}, {0x00, 0xff, 0x00}, {0xff, 0xff, 0x00},
	{0x5c, 0x5c, 0xff}, {0xff, 0x00, 0xff}, {0x00, 0xff, 0xff}, {0xff, 0xff, 0xff},
};

void theme_index_rgb(int i, uint8_t rgb[3])
{
	static const uint8_t cube[6] = {0, 95, 135, 175, 215, 255};
	if (i < 0 || i > 255)
		i = 0;
	if (i < 16) {
		memcpy(rgb, ansi16[i], 3);
	} else if (i < 232) {
		int c = i - 16;
		rgb[0] = cube[c / 36];
		rgb[1] = cube[(c / 6) % 6];
		rgb[2] = cube[c % 6];
	} else {
		uint8_t v = (uint8_t)(8 + 10 * (i - 232));
		rgb[0] = rgb[1] = rgb[2] = v;
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool theme_color_parse(const char *s, size_t n, struct theme_color *out)
{
	memset(out, 0, sizeof *out);
	if (n == 7 && s[0] == '#') {
		int v[6];
		for (int i = 0; i < 6; i++)
			if ((v[i] = hexval(s[i + 1])) < 0)
				return false;
		out->kind = THEME_COLOR_RGB;
		out->r = (uint8_t)(v[0] * 16 + v[1]);
		out->g = (uint8_t)(v[2] * 16 + v[3]);
		out->b = (uint8_t)(v[4] * 16 + v[5]);
		return true;
	}
	if (n == 7 && memcmp(s, "default", 7) == 0) {
		out->kind = THEME_COLOR_DEFAULT;
		return true;
	}
	uint64_t idx;
	if (n > 0 && n <= 3 && util_parse_u64(s, n, &idx) == n) {
		if (idx > 255)
			return false;
		out->kind = THEME_COLOR_INDEX;
		out->index = (uint8_t)idx;
		return true;
	}
	size_t off = 0;
	int bright = 0;
	if (n > 7 && memcmp(s, "bright-", 7) == 0) {
		off = 7;
		bright = 8;
	}
	for (int i = 0; i < 8; i++) {
		size_t bl = strlen(base_names[i]);
		if (n - off == bl && memcmp(s + off, base_names[i], bl) == 0) {
			out->kind = THEME_COLOR_INDEX;
			out->index = (uint8_t)(i + bright);
			return true;
		}
	}
	return false;
}

static long dist2(const uint8_t a[3], const uint8_t b[3])
{
	long dr = (long)a[0] - b[0], dg = (long)a[1] - b[1], db = (long)a[2] - b[2];
	/* green weighs most and blue least for the eye (a cheap "redmean"-like weighting) */
	return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

int theme_color_index(const struct theme_color *c, int ncolors)
{
	if (c->kind == THEME_COLOR_UNSET || c->kind == THEME_COLOR_DEFAULT || ncolors < 8)
		return -1;
	if (c->kind == THEME_COLOR_INDEX && c->index < ncolors)
		return c->index;
	uint8_t want[3];
	if (c->kind == THEME_COLOR_RGB) {
		want[0] = c->r;
		want[1] = c->g;
		want[2] = c->b;
	} else {
		theme_index_rgb(c->index, want);
	}
	/* 256 colours: the cube and the grey ramp only; 0-15 are often redefined by
	 * the user's terminal palette, so an exact RGB is not promised there */
	int lo = 0, hi = ncolors >= 256 ? 256 : ncolors >= 16 ? 16 : 8;
	if (ncolors >= 256)
		lo = 16;
	int best = lo;
	long bestd = -1;
	for (int i = lo; i < hi; i++) {
		uint8_t rgb[3];
		theme_index_rgb(i, rgb);
		long d = dist2(rgb, want);
		if (bestd < 0 || d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

/* --- parsing --- */

static void errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err && errlen && vsnprintf(err, errlen, fmt, ap) >= (int)errlen)
		err[errlen - 1] = '\0';
	va_end(ap);
}

#define COLOUR_HELP "a name like \"red\" or \"bright-blue\", \"default\", 0-255, or \"#rrggbb\""

static int parse_color(json_t *v, struct theme_color *out, const char *origin, const char *role,
		       const char *key, char *err, size_t errlen)
{
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < 0 || i > 255) {
			errf(err, errlen, "%s: role \"%s\": \"%s\": %lld is not a colour (%s)", origin, role, key,
			     (long long)i, COLOUR_HELP);
			return -EINVAL;
		}
		out->kind = THEME_COLOR_INDEX;
		out->index = (uint8_t)i;
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (theme_color_parse(s, json_string_length(v), out))
			return 0;
		char safe[64];
		util_sanitize(safe, sizeof safe, s, json_string_length(v));
		errf(err, errlen, "%s: role \"%s\": \"%s\": \"%s\" is not a colour (%s)", origin, role, key, safe,
		     COLOUR_HELP);
		return -EINVAL;
	}
	errf(err, errlen, "%s: role \"%s\": \"%s\" must be a colour (%s)", origin, role, key, COLOUR_HELP);
	return -EINVAL;
}

static int parse_style(json_t *obj, struct theme_style *st, const char *origin, const char *role, char *err,
		       size_t errlen)
{
	static const struct { const char *name; unsigned bit; } attrs[] = {
		{"bold", THEME_ATTR_BOLD}, {"underline", THEME_ATTR_UNDERLINE},
		{"reverse", THEME_ATTR_REVERSE}, {"dim", THEME_ATTR_DIM},
	};
	if (!json_is_object(obj)) {
		errf(err, errlen, "%s: role \"%s\" must be an object like {\"fg\": \"red\", \"bold\": true}", origin,
		     role);
		return -EINVAL;
	}
	memset(st, 0, sizeof *st);
	st->set = true;
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (strcmp(key, "fg") == 0 || strcmp(key, "bg") == 0) {
			int r = parse_color(v, key[0] == 'f' ? &st->fg : &st->bg, origin, role, key, err, errlen);
			if (r)
				return r;
			continue;
		}
		size_t i;
		for (i = 0; i < ARRAY_LEN(attrs); i++)
			if (strcmp(key, attrs[i].name) == 0)
				break;
		char safe[64];
		util_sanitize(safe, sizeof safe, key, strlen(key));
		if (i == ARRAY_LEN(attrs)) {
			errf(err, errlen, "%s: role \"%s\": unknown key \"%s\" (fg, bg, bold, underline, reverse, dim)",
			     origin, role, safe);
			return -EINVAL;
		}
		if (!json_is_boolean(v)) {
			errf(err, errlen, "%s: role \"%s\": \"%s\" must be true or false", origin, role, safe);
			return -EINVAL;
		}
		if (json_is_true(v))
			st->attrs |= attrs[i].bit;
	}
	return 0;
}

static void copy_string(char *dst, size_t dstlen, json_t *v)
{
	util_sanitize(dst, dstlen, json_string_value(v), json_string_length(v));
}

int theme_parse(struct theme *t, const char *json, size_t len, const char *origin, char *err, size_t errlen)
{
	json_error_t je;
	memset(t, 0, sizeof *t);
	json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		errf(err, errlen, "%s:%d:%d: not valid JSON: %s", origin, je.line, je.column, je.text);
		return -EINVAL;
	}
	int rc = 0;
	const char *key;
	json_t *v;
	bool have_roles = false;
	if (!json_is_object(root)) {
		errf(err, errlen, "%s: a theme is a JSON object {\"name\": ..., \"roles\": {...}}", origin);
		rc = -EINVAL;
		goto out;
	}
	json_object_foreach(root, key, v) {
		if (strcmp(key, "name") == 0 || strcmp(key, "description") == 0) {
			if (!json_is_string(v)) {
				errf(err, errlen, "%s: \"%s\" must be a string", origin, key);
				rc = -EINVAL;
				goto out;
			}
			if (key[0] == 'n')
				copy_string(t->name, sizeof t->name, v);
			else
				copy_string(t->description, sizeof t->description, v);
		} else if (strcmp(key, "roles") == 0) {
			if (!json_is_object(v)) {
				errf(err, errlen, "%s: \"roles\" must be an object mapping roles to styles", origin);
				rc = -EINVAL;
				goto out;
			}
			have_roles = true;
			const char *rk;
			json_t *rv;
			json_object_foreach(v, rk, rv) {
				int role = theme_role_from_name(rk);
				if (role < 0) {
					char safe[64];
					util_sanitize(safe, sizeof safe, rk, strlen(rk));
					errf(err, errlen, "%s: unknown role \"%s\" (roles: text, dim, title, focus, border, "
					     "header, status, key, error, cursor, selected, axis, heap.*, stop.*, cpu.*, "
					     "upstream.*, verdict.*; see themes/default.json)", origin, safe);
					rc = -EINVAL;
					goto out;
				}
				rc = parse_style(rv, &t->role[role], origin, rk, err, errlen);
				if (rc)
					goto out;
			}
		} else {
			char safe[64];
			util_sanitize(safe, sizeof safe, key, strlen(key));
			errf(err, errlen, "%s: unknown key \"%s\" (name, description, roles)", origin, safe);
			rc = -EINVAL;
			goto out;
		}
	}
	if (!have_roles) {
		errf(err, errlen, "%s: no \"roles\" object", origin);
		rc = -EINVAL;
		goto out;
	}
	/* what a role leaves out comes from "text"; what "text" leaves out is the terminal's */
	struct theme_style *tx = &t->role[TR_TEXT];
	if (tx->fg.kind == THEME_COLOR_UNSET)
		tx->fg.kind = THEME_COLOR_DEFAULT;
	if (tx->bg.kind == THEME_COLOR_UNSET)
		tx->bg.kind = THEME_COLOR_DEFAULT;
	for (int i = 1; i < THEME_ROLE_COUNT; i++) {
		struct theme_style *st = &t->role[i];
		if (st->fg.kind == THEME_COLOR_UNSET)
			st->fg = tx->fg;
		if (st->bg.kind == THEME_COLOR_UNSET)
			st->bg = tx->bg;
		if (!st->set)
			st->attrs = tx->attrs;
	}
out:
	json_decref(root);
	return rc;
}

int theme_load_file(struct theme *t, const char *path, char *err, size_t errlen)
{
	enum { MAX = 256 * 1024 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		errf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	char *buf = malloc(MAX);
	if (!buf) {
		close(fd);
		errf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, MAX - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			free(buf);
			errf(err, errlen, "%s: %s", path, strerror(e));
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == MAX) {
			close(fd);
			free(buf);
			errf(err, errlen, "%s: larger than %d KiB, not a theme", path, MAX / 1024);
			return -EFBIG;
		}
	}
	close(fd);
	int rc = theme_parse(t, buf, n, path, err, errlen);
	free(buf);
	if (rc == 0 && !t->name[0]) {
		/* name it after the file */
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		size_t bl = strlen(base);
		if (bl > 5 && strcmp(base + bl - 5, ".json") == 0)
			bl -= 5;
		util_strlcpy_n(t->name, sizeof t->name, base, bl);
	}
	return rc;
}

/* --- finding themes --- */

static bool is_regular(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int add_dir(char dirs[][THEME_PATH_MAX], int n, int cap, const char *a, const char *b)
{
	if (n >= cap || !a || !a[0])
		return n;
	if (snprintf(dirs[n], THEME_PATH_MAX, "%s%s", a, b) >= THEME_PATH_MAX)
		return n;
	return n + 1;
}

int theme_search_dirs(char dirs[][THEME_PATH_MAX], int cap)
{
	int n = 0;
	n = add_dir(dirs, n, cap, getenv("STWTOP_THEME_DIR"), "");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && xdg[0] == '/')
		n = add_dir(dirs, n, cap, xdg, "/stwtop/themes");
	else if (getenv("HOME") && getenv("HOME")[0] == '/')
		n = add_dir(dirs, n, cap, getenv("HOME"), "/.config/stwtop/themes");
	char exe[THEME_PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			n = add_dir(dirs, n, cap, exe, "/../share/stwtop/themes");
		}
	}
	n = add_dir(dirs, n, cap, STWTOP_DATADIR, "/themes");
	n = add_dir(dirs, n, cap, STWTOP_SOURCE_DIR, "/themes");
	return n;
}

int theme_resolve(const char *arg, char *path, size_t len, char *err, size_t errlen)
{
	size_t al = strlen(arg);
	if (strchr(arg, '/') || (al > 5 && strcmp(arg + al - 5, ".json") == 0)) {
		if (util_strlcpy_n(path, len, arg, al) != al) {
			errf(err, errlen, "--theme: path too long");
			return -ENAMETOOLONG;
		}
		return 0;
	}
	char dirs[THEME_MAX_DIRS][THEME_PATH_MAX];
	int nd = theme_search_dirs(dirs, THEME_MAX_DIRS);
	char looked[1024] = "";
	size_t lo = 0;
	for (int i = 0; i < nd; i++) {
		if (snprintf(path, len, "%s/%s.json", dirs[i], arg) < (int)len && is_regular(path))
			return 0;
		if (lo < sizeof looked) {
			int w = snprintf(looked + lo, sizeof looked - lo, "%s%s", i ? ", " : "", dirs[i]);
			if (w > 0)
				lo += (size_t)w;
		}
	}
	path[0] = '\0';
	char safe[128];
	util_sanitize(safe, sizeof safe, arg, al);
	errf(err, errlen, "theme \"%s\" not found (looked for %s.json in %s)", safe, safe, looked);
	return -ENOENT;
}

static int cmp_names(const void *a, const void *b)
{
	const char *x = a, *y = b;
	if (strcmp(x, "default") == 0)
		return strcmp(y, "default") == 0 ? 0 : -1;
	if (strcmp(y, "default") == 0)
		return 1;
	return strcmp(x, y);
}

int theme_list(char names[][64], int cap)
{
	int n = 0;
	if (cap <= 0)
		return 0;
	snprintf(names[n++], 64, "default");
	char dirs[THEME_MAX_DIRS][THEME_PATH_MAX];
	int nd = theme_search_dirs(dirs, THEME_MAX_DIRS);
	for (int i = 0; i < nd && n < cap; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)) && n < cap) {
			size_t l = strlen(de->d_name);
			if (l <= 5 || l - 5 >= 64 || strcmp(de->d_name + l - 5, ".json") != 0 || de->d_name[0] == '.')
				continue;
			char name[64];
			util_strlcpy_n(name, sizeof name, de->d_name, l - 5);
			bool dup = false;
			for (int k = 0; k < n; k++)
				if (strcmp(names[k], name) == 0)
					dup = true;
			if (!dup)
				memcpy(names[n++], name, sizeof name);
		}
		closedir(d);
	}
	qsort(names, (size_t)n, sizeof names[0], cmp_names);
	return n;
}
