/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nginx_conf.c — find a log_format in an nginx configuration (nginx_conf_load).
 *
 * The tokenizer follows nginx's src/core/ngx_conf_file.c, ngx_conf_read_token():
 * words are separated by blanks, ';' ends a directive, '{' opens a block and a
 * '}' that starts a word closes it; '#' starts a comment only where a word could
 * start; "..." and '...' words must be followed by a blank, ';', '{' or ')';
 * a backslash protects the next character, and when the word is stored \" \'
 * and \\ lose the backslash, \t \r \n become the control characters and any
 * other \x is kept as written; "${" inside a bare word does not open a block.
 * `log_format NAME [escape=default|json|none] STRING...;` concatenates its
 * strings (src/http/modules/ngx_http_log_module.c); `include` takes a path or
 * a glob, relative to nginx's conf prefix (the main config's directory) — we
 * also try the including file's own directory. log_format/access_log inside
 * `stream { }` belong to the stream module and are skipped.
 */
#include "stwtop/nginx.h"

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <limits.h>
#include <sys/stat.h>

#define CF_MAX_DEPTH   16                  /* include nesting (stops include loops) */
#define CF_MAX_FILES   1024                /* files read for one config */
#define CF_MAX_SIZE    (16u * 1024 * 1024) /* bytes of one config file */
#define CF_MAX_ARGS    4096                /* words in one directive */

struct cf_fmt {
	char *name;
	char *fmt;            /* with an "escape=json " prefix when not default */
};

struct cf_ctx {
	const char *root;     /* nginx's conf prefix: the main config's directory; NULL = none */
	struct cf_fmt *fmts;
	size_t nfmts, cap;
	char *access_fmt;     /* format named by the first access_log, NULL = none seen */
	char **al_path;       /* every access_log: its path and format name */
	char **al_fmt;
	size_t nal, alcap;
	char skipped[200];    /* the first include that could not be read, and why */
	int nfiles;
	char *err;
	size_t errlen;
};

struct cf_src {
	const char *buf;
	size_t len, pos;
	unsigned line;
	const char *label;    /* file name for messages */
};

struct cf_args {
	char **w;
	size_t *l;
	int n, cap;
};

enum { T_ERR = -1, T_EOF = 0, T_DIRECTIVE, T_BLOCK, T_BLOCK_END };

static int cf_error(struct cf_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int cf_error(struct cf_ctx *c, const char *fmt, ...)
{
	va_list ap;
	if (c->err && c->errlen && !c->err[0]) { /* the first error is the one to show */
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return T_ERR;
}

/* a copy of s, or NULL with the error said */
static char *cf_strdup(struct cf_ctx *c, const char *s)
{
	char *d = strdup(s);
	if (!d)
		cf_error(c, "out of memory");
	return d;
}

static void args_clear(struct cf_args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->w[i]);
	a->n = 0;
}

static void args_free(struct cf_args *a)
{
	args_clear(a);
	free(a->w);
	free(a->l);
}

/* store the word s[0..n) with nginx's unescaping */
static bool args_push(struct cf_args *a, const char *s, size_t n)
{
	if (a->n == a->cap) {
		int cap = a->cap ? a->cap * 2 : 16;
		if (cap > CF_MAX_ARGS)
			return false;
		char **w = realloc(a->w, (size_t)cap * sizeof *w);
		if (!w)
			return false;
		a->w = w;
		size_t *l = realloc(a->l, (size_t)cap * sizeof *l);
		if (!l)
			return false;
		a->l = l;
		a->cap = cap;
	}
	char *d = malloc(n + 1);
	if (!d)
		return false;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			char x = s[i + 1];
			if (x == '"' || x == '\'' || x == '\\') {
				d[o++] = x;
				i++;
				continue;
			}
			if (x == 't' || x == 'r' || x == 'n') {
				d[o++] = x == 't' ? '\t' : x == 'r' ? '\r' : '\n';
				i++;
				continue;
			}
		}
		d[o++] = s[i];
	}
	d[o] = '\0';
	a->w[a->n] = d;
	a->l[a->n] = o;
	a->n++;
	return true;
}

static inline bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

/* One directive (words in a, ended by ';' or '{'), a '}' or the end. */
static int cf_next(struct cf_ctx *c, struct cf_src *f, struct cf_args *a)
{
	bool need_space = false, last_space = true, sharp = false, quoted = false;
	bool dq = false, sq = false, variable = false;
	size_t start = f->pos;
	unsigned qline = 0, dline = f->line;

	args_clear(a);
	for (;;) {
		if (f->pos >= f->len) {
			if (dq || sq)
				return cf_error(c, "%s:%u: unterminated %s-quoted string (opened here)",
						f->label, qline, dq ? "double" : "single");
			if (a->n > 0 || !last_space)
				return cf_error(c,
						"%s:%u: unexpected end of file, expecting \";\" or \"}\" "
						"(directive started at line %u)",
						f->label, f->line, dline);
			return T_EOF;
		}
		char ch = f->buf[f->pos++];
		if (ch == '\n') {
			f->line++;
			sharp = false;
		}
		if (sharp)
			continue;
		if (quoted) {
			quoted = false;
			continue;
		}
		if (need_space) {
			if (is_blank(ch)) {
				last_space = true;
				need_space = false;
				continue;
			}
			if (ch == ';')
				return T_DIRECTIVE;
			if (ch == '{')
				return T_BLOCK;
			if (ch == ')') {
				last_space = true;
				need_space = false;
			} else {
				return cf_error(c, "%s:%u: unexpected \"%c\" after a quoted string",
						f->label, f->line, ch);
			}
		}
		if (last_space) {
			start = f->pos - 1;
			if (is_blank(ch))
				continue;
			if (a->n == 0)
				dline = f->line;
			switch (ch) {
			case ';':
			case '{':
				if (a->n == 0)
					return cf_error(c, "%s:%u: unexpected \"%c\"", f->label, f->line, ch);
				return ch == '{' ? T_BLOCK : T_DIRECTIVE;
			case '}':
				if (a->n > 0)
					return cf_error(c, "%s:%u: unexpected \"}\"", f->label, f->line);
				return T_BLOCK_END;
			case '#':
				sharp = true;
				continue;
			case '\\':
				quoted = true;
				last_space = false;
				continue;
			case '"':
				start++;
				dq = true;
				qline = f->line;
				last_space = false;
				continue;
			case '\'':
				start++;
				sq = true;
				qline = f->line;
				last_space = false;
				continue;
			case '$':
				variable = true;
				last_space = false;
				continue;
			default:
				last_space = false;
				continue;
			}
		}
		if (ch == '{' && variable)
			continue;
		variable = false;
		if (ch == '\\') {
			quoted = true;
			continue;
		}
		if (ch == '$') {
			variable = true;
			continue;
		}
		bool found = false;
		if (dq) {
			if (ch == '"') {
				dq = false;
				need_space = found = true;
			}
		} else if (sq) {
			if (ch == '\'') {
				sq = false;
				need_space = found = true;
			}
		} else if (is_blank(ch) || ch == ';' || ch == '{') {
			last_space = found = true;
		}
		if (found) {
			if (!args_push(a, f->buf + start, f->pos - 1 - start))
				return cf_error(c, "%s:%u: directive too long or out of memory", f->label,
						f->line);
			if (ch == ';')
				return T_DIRECTIVE;
			if (ch == '{')
				return T_BLOCK;
		}
	}
}

static int cf_parse(struct cf_ctx *c, const char *buf, size_t len, const char *label,
		    const char *dir, int depth, bool in_stream);

static bool has_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }

static void note_skipped(struct cf_ctx *c, const char *path, const char *why)
{
	/* a long path is cut: the message stays one line */
	if (!c->skipped[0] && snprintf(c->skipped, sizeof c->skipped, "%s: %s", path, why) < 0)
		c->skipped[0] = '\0';
}

/* read a whole regular file; NULL with errno set */
static char *read_file(const char *path, size_t *len)
{
	struct stat st;
	/* look before opening: opening a FIFO or a tty would block */
	if (stat(path, &st) != 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			if (cap >= CF_MAX_SIZE) {
				free(buf);
				fclose(fp);
				errno = EFBIG;
				return NULL;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		size_t k = fread(buf + n, 1, cap - n, fp);
		n += k;
		if (k == 0) {
			if (ferror(fp)) {
				int e = errno;
				free(buf);
				fclose(fp);
				errno = e ? e : EIO;
				return NULL;
			}
			fclose(fp);
			*len = n;
			return buf;
		}
	}
	free(buf);
	fclose(fp);
	errno = ENOMEM;
	return NULL;
}

static const char *read_error(int e)
{
	return e == EINVAL ? "not a regular file" : strerror(e);
}

static char *dir_of(const char *path)
{
	const char *sl = strrchr(path, '/');
	if (!sl)
		return strdup(".");
	if (sl == path)
		return strdup("/");
	return strndup(path, (size_t)(sl - path));
}

/* 1 parsed, 0 not there, -1 error (message set) */
static int cf_load_file(struct cf_ctx *c, const char *path, int depth, bool in_stream)
{
	size_t len;
	if (++c->nfiles > CF_MAX_FILES)
		return cf_error(c, "%s: more than %d configuration files included", path, CF_MAX_FILES);
	char *buf = read_file(path, &len);
	if (!buf) {
		if (errno == ENOENT)
			return 0;
		note_skipped(c, path, read_error(errno));
		return 0;
	}
	char *dir = dir_of(path);
	int r = dir ? cf_parse(c, buf, len, path, dir, depth, in_stream) : cf_error(c, "out of memory");
	free(dir);
	free(buf);
	return r < 0 ? -1 : 1;
}

static int cf_include(struct cf_ctx *c, const struct cf_src *f, const char *pat, const char *dir,
		      int depth, bool in_stream)
{
	const char *bases[2];
	int nb = 0;
	if (depth >= CF_MAX_DEPTH)
		return cf_error(c, "%s:%u: includes nested deeper than %d (a loop?)", f->label, f->line,
				CF_MAX_DEPTH);
	if (!c->root) { /* a config from memory: no file is read at all */
		note_skipped(c, pat, "includes are not followed here");
		return 0;
	}
	if (pat[0] == '/') {
		bases[nb++] = NULL;
	} else {
		/* nginx resolves against its conf prefix; a copied config may keep them beside */
		bases[nb++] = c->root;
		if (dir && strcmp(dir, c->root) != 0)
			bases[nb++] = dir;
	}
	for (int b = 0; b < nb; b++) {
		char path[4096];
		int pl = bases[b] ? snprintf(path, sizeof path, "%s/%s", bases[b], pat)
				  : snprintf(path, sizeof path, "%s", pat);
		if (pl < 0 || (size_t)pl >= sizeof path) {
			note_skipped(c, pat, "path too long");
			continue;
		}
		if (has_glob(pat)) {
			glob_t g;
			int r = glob(path, 0, NULL, &g);
			if (r == GLOB_NOMATCH)
				continue;
			if (r != 0) {
				note_skipped(c, path, "glob failed");
				continue;
			}
			int rc = 0;
			for (size_t i = 0; i < g.gl_pathc && rc >= 0; i++)
				rc = cf_load_file(c, g.gl_pathv[i], depth + 1, in_stream);
			globfree(&g);
			return rc < 0 ? -1 : 0;
		}
		int r = cf_load_file(c, path, depth + 1, in_stream);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	if (!has_glob(pat)) /* a glob that matches nothing is fine for nginx too */
		note_skipped(c, pat, strerror(ENOENT));
	return 0;
}

static inline bool name_char(char ch)
{
	return ch == '_' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z');
}

static int cf_log_format(struct cf_ctx *c, const struct cf_src *f, struct cf_args *a)
{
	int s = 2;
	const char *esc = NULL;
	if (a->n < 3)
		return cf_error(c, "%s:%u: log_format needs a name and a format", f->label, f->line);
	const char *name = a->w[1];
	if (strcmp(name, "combined") == 0)
		return cf_error(c, "%s:%u: duplicate \"log_format\" name \"combined\" (built in)",
				f->label, f->line);
	for (size_t i = 0; i < c->nfmts; i++)
		if (strcmp(c->fmts[i].name, name) == 0)
			return cf_error(c, "%s:%u: duplicate \"log_format\" name \"%s\"", f->label,
					f->line, name);
	if (strncmp(a->w[2], "escape=", 7) == 0) {
		esc = a->w[2] + 7;
		if (strcmp(esc, "json") && strcmp(esc, "none") && strcmp(esc, "default"))
			return cf_error(c, "%s:%u: unknown log format escaping \"%.20s\"", f->label,
					f->line, esc);
		if (strcmp(esc, "default") == 0)
			esc = NULL;
		s = 3;
	}
	if (s >= a->n)
		return cf_error(c, "%s:%u: log_format \"%s\" has no format string", f->label, f->line,
				name);
	size_t total = 16;
	for (int i = s; i < a->n; i++)
		total += a->l[i] + 2 * 16; /* room for ${...} rewrites */
	char *out = malloc(total + 2 * (size_t)a->n);
	if (!out)
		return cf_error(c, "out of memory");
	size_t o = 0;
	if (esc)
		o = (size_t)sprintf(out, "escape=%s ", esc);
	size_t body = o;
	for (int i = s; i < a->n; i++) {
		const char *w = a->w[i];
		size_t wl = a->l[i];
		/* nginx compiles each string on its own: "$" at the end is invalid */
		for (size_t j = 0; j < wl; j++) {
			if (w[j] != '$')
				continue;
			bool ok = j + 1 < wl && (w[j + 1] == '{' || name_char(w[j + 1]));
			if (ok && w[j + 1] == '{') { /* "${name}" must close in the same string */
				size_t k = j + 2;
				while (k < wl && name_char(w[k]))
					k++;
				ok = k < wl && k > j + 2 && w[k] == '}';
			}
			if (!ok) {
				free(out);
				return cf_error(c, "%s:%u: log_format \"%s\": invalid variable in \"%.40s\"",
						f->label, f->line, name, w);
			}
		}
		/* "$ups" "tream" are two things to nginx: keep them apart as ${ups}tream */
		if (wl > 0 && o > body) {
			size_t j = o;
			while (j > body && name_char(out[j - 1]))
				j--;
			if (name_char(w[0]) && j < o && j > body && out[j - 1] == '$') {
				memmove(out + j + 1, out + j, o - j);
				out[j] = '{';
				o++;
				out[o++] = '}';
			}
		}
		memcpy(out + o, w, wl);
		o += wl;
	}
	out[o] = '\0';
	if (c->nfmts == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct cf_fmt *nf = realloc(c->fmts, cap * sizeof *nf);
		if (!nf) {
			free(out);
			return cf_error(c, "out of memory");
		}
		c->fmts = nf;
		c->cap = cap;
	}
	c->fmts[c->nfmts].name = strdup(name);
	c->fmts[c->nfmts].fmt = out;
	if (!c->fmts[c->nfmts].name) {
		free(out);
		return cf_error(c, "out of memory");
	}
	c->nfmts++;
	return 0;
}

/* remember an access_log line: which file gets which format */
static int cf_access(struct cf_ctx *c, const struct cf_args *a)
{
	if (c->nal == c->alcap) {
		size_t cap = c->alcap ? c->alcap * 2 : 8;
		char **p = realloc(c->al_path, cap * sizeof *p);
		if (p)
			c->al_path = p;
		char **f = p ? realloc(c->al_fmt, cap * sizeof *f) : NULL;
		if (!f)
			return cf_error(c, "out of memory");
		c->al_fmt = f;
		c->alcap = cap;
	}
	c->al_path[c->nal] = strdup(a->w[1]);
	c->al_fmt[c->nal] = strdup(a->n >= 3 ? a->w[2] : "combined");
	c->nal++;
	return c->al_path[c->nal - 1] && c->al_fmt[c->nal - 1] ? 0 : cf_error(c, "out of memory");
}

static int cf_parse(struct cf_ctx *c, const char *buf, size_t len, const char *label,
		    const char *dir, int depth, bool in_stream)
{
	struct cf_src f = {buf, len, 0, 1, label};
	struct cf_args a = {0};
	int blk = 0, stream_at = -1, rc = 0;
	for (;;) {
		int t = cf_next(c, &f, &a);
		if (t == T_ERR) {
			rc = -1;
			break;
		}
		if (t == T_EOF) {
			if (blk > 0)
				rc = cf_error(c, "%s:%u: unexpected end of file, expecting \"}\"", label,
					      f.line);
			break;
		}
		if (t == T_BLOCK_END) {
			if (blk == 0) {
				rc = cf_error(c, "%s:%u: unexpected \"}\"", label, f.line);
				break;
			}
			if (blk == stream_at)
				stream_at = -1;
			blk--;
			continue;
		}
		bool stream = in_stream || stream_at >= 0;
		if (t == T_BLOCK) {
			blk++;
			if (!stream && strcmp(a.w[0], "stream") == 0)
				stream_at = blk;
			continue;
		}
		const char *name = a.w[0];
		if (!stream && strcmp(name, "log_format") == 0) {
			if (cf_log_format(c, &f, &a) < 0) {
				rc = -1;
				break;
			}
		} else if (!stream && strcmp(name, "access_log") == 0) {
			if (a.n >= 2 && strcmp(a.w[1], "off") != 0 && cf_access(c, &a) < 0) {
				rc = -1;
				break;
			}
			if (!c->access_fmt && a.n >= 2 && strcmp(a.w[1], "off") != 0) {
				c->access_fmt = strdup(a.n >= 3 ? a.w[2] : "combined");
				if (!c->access_fmt) {
					rc = cf_error(c, "out of memory");
					break;
				}
			}
		} else if (strcmp(name, "include") == 0) {
			if (a.n != 2) {
				rc = cf_error(c, "%s:%u: include takes one file or pattern", label, f.line);
				break;
			}
			if (cf_include(c, &f, a.w[1], dir, depth, stream) < 0) {
				rc = -1;
				break;
			}
		}
	}
	args_free(&a);
	return rc;
}

static char *combined_string(struct cf_ctx *c)
{
	struct nginx_fmt *f = nginx_fmt_combined();
	if (!f) {
		cf_error(c, "out of memory");
		return NULL;
	}
	char *s = cf_strdup(c, nginx_fmt_string(f));
	nginx_fmt_free(f);
	return s;
}

static char *cf_pick(struct cf_ctx *c, const char *label, const char *name, int hops)
{
	char names[200];
	size_t k = 0;
	names[0] = '\0';
	if (name && *name) {
		for (size_t i = 0; i < c->nfmts; i++)
			if (strcmp(c->fmts[i].name, name) == 0)
				return cf_strdup(c, c->fmts[i].fmt);
		for (size_t i = 0; i < c->nfmts; i++) /* access_log looks names up caselessly */
			if (strcasecmp(c->fmts[i].name, name) == 0)
				return cf_strdup(c, c->fmts[i].fmt);
		if (strcasecmp(name, "combined") == 0)
			return combined_string(c);
	} else {
		if (c->nfmts == 1)
			return cf_strdup(c, c->fmts[0].fmt);
		if (c->access_fmt && hops == 0)
			return cf_pick(c, label, c->access_fmt, 1);
		if (c->nfmts == 0)
			return combined_string(c); /* nginx logs "combined" when nothing is said */
	}
	for (size_t i = 0; i < c->nfmts && k + 1 < sizeof names; i++) {
		int w = snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", c->fmts[i].name);
		if (w < 0)
			break;
		k += (size_t)w;
	}
	if (k >= sizeof names)
		strcpy(names + sizeof names - 5, "...");
	char extra[240] = "";
	if (c->skipped[0])
		snprintf(extra, sizeof extra, "; not read: %s", c->skipped);
	if (name && *name)
		cf_error(c, "%s: no log_format \"%s\" (found: %s)%s", label, name,
			 c->nfmts ? names : "none", extra);
	else
		cf_error(c, "%s: %zu log_format definitions (%s): name one as FILE:NAME%s", label,
			 c->nfmts, names, extra);
	return NULL;
}

/* what a parse of the configuration holds */
static void cf_fini(struct cf_ctx *c)
{
	for (size_t i = 0; i < c->nfmts; i++) {
		free(c->fmts[i].name);
		free(c->fmts[i].fmt);
	}
	free(c->fmts);
	free(c->access_fmt);
	for (size_t i = 0; i < c->nal; i++) {
		free(c->al_path[i]);
		free(c->al_fmt[i]);
	}
	free(c->al_path);
	free(c->al_fmt);
}

char *nginx_conf_parse_mem(const char *buf, size_t len, const char *label, const char *dir,
			   const char *name, char *err, size_t errlen)
{
	struct cf_ctx c = {0};
	char *res = NULL;
	c.root = dir;
	c.err = err;
	c.errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	if (!label)
		label = "nginx.conf";
	if (cf_parse(&c, buf ? buf : "", buf ? len : 0, label, dir, 0, false) == 0)
		res = cf_pick(&c, label, name, 0);
	cf_fini(&c);
	return res;
}

/* Is the access_log path ap (as written in the config in dir) the file log?
 * The same file, else the same name: a log copied off the server, or rotated
 * (access.log.1, access.log-20261202). */
static bool same_log(const char *ap, const char *dir, const char *log, const char *log_real)
{
	char joined[PATH_MAX], real[PATH_MAX];
	if (strchr(ap, '$'))
		return false; /* a path with variables names many files */
	if (ap[0] == '/')
		snprintf(joined, sizeof joined, "%s", ap);
	else
		snprintf(joined, sizeof joined, "%s/%s", dir, ap);
	if (log_real && realpath(joined, real) && strcmp(real, log_real) == 0)
		return true;
	const char *an = strrchr(ap, '/'), *ln = strrchr(log, '/');
	an = an ? an + 1 : ap;
	ln = ln ? ln + 1 : log;
	size_t al = strlen(an);
	return strncmp(an, ln, al) == 0 && (ln[al] == '\0' || ln[al] == '.' || ln[al] == '-');
}

int nginx_conf_formats_for(const char *path, const char *log, struct nginx_conf_fmts *out, char *err,
			   size_t errlen)
{
	struct cf_ctx c = {0};
	size_t len;
	memset(out, 0, sizeof *out);
	if (err && errlen)
		err[0] = '\0';
	char *buf = read_file(path, &len);
	if (!buf) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read %s: %s", path, read_error(errno));
		return -1;
	}
	char *dir = dir_of(path), real[PATH_MAX];
	const char *log_real = log && realpath(log, real) ? real : NULL;
	c.root = dir;
	c.err = err;
	c.errlen = errlen;
	if (!dir)
		cf_error(&c, "out of memory");
	int rc = dir && cf_parse(&c, buf, len, path, dir, 0, false) == 0 ? 0 : -1;
	/* first the formats written to this file, in the config's order; then the others */
	for (int pass = 0; rc == 0 && pass < 2; pass++) {
		for (size_t i = 0; i < c.nal + (pass ? c.nfmts + 1 : 0); i++) {
			const char *name = i < c.nal ? c.al_fmt[i] : i - c.nal < c.nfmts ? c.fmts[i - c.nal].name : "combined";
			if (i < c.nal && (pass == 1 || !log || !same_log(c.al_path[i], dir, log, log_real)))
				continue;
			bool dup = false;
			for (int k = 0; k < out->n && !dup; k++)
				dup = strcasecmp(out->name[k], name) == 0;
			if (dup || out->n == NGINX_CONF_MAX_FMTS)
				continue;
			char *f = cf_pick(&c, path, name, 1);
			if (!f) { /* an access_log naming no log_format: nginx refuses the config */
				rc = -1;
				break;
			}
			char *nm = cf_strdup(&c, name);
			if (!nm) {
				free(f);
				rc = -1;
				break;
			}
			out->name[out->n] = nm;
			out->fmt[out->n++] = f;
			if (pass == 0)
				out->nfor++;
		}
	}
	free(buf);
	free(dir);
	cf_fini(&c);
	if (rc < 0)
		nginx_conf_fmts_fini(out);
	return rc;
}

void nginx_conf_fmts_fini(struct nginx_conf_fmts *f)
{
	for (int k = 0; k < f->n; k++) {
		free(f->name[k]);
		free(f->fmt[k]);
	}
	memset(f, 0, sizeof *f);
}

char *nginx_conf_load(const char *path, const char *name, char *err, size_t errlen)
{
	size_t len;
	if (err && errlen)
		err[0] = '\0';
	char *buf = read_file(path, &len);
	if (!buf) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read %s: %s", path, read_error(errno));
		return NULL;
	}
	char *dir = dir_of(path);
	char *res = dir ? nginx_conf_parse_mem(buf, len, path, dir, name, err, errlen) : NULL;
	if (!dir && err && errlen)
		snprintf(err, errlen, "out of memory");
	free(dir);
	free(buf);
	return res;
}

char *nginx_conf_load_spec(const char *spec, char *err, size_t errlen)
{
	struct stat st;
	const char *colon = strrchr(spec, ':');
	if (!colon || stat(spec, &st) == 0)
		return nginx_conf_load(spec, NULL, err, errlen);
	char *path = strndup(spec, (size_t)(colon - spec));
	if (!path) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	char *res = nginx_conf_load(path, colon + 1, err, errlen);
	free(path);
	return res;
}
