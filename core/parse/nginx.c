/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nginx.c — nginx access log lines to EV_HTTP events, driven by the log_format.
 *
 * What nginx writes, as read in its source (1.22, the version we test against):
 * - src/http/modules/ngx_http_log_module.c, ngx_http_log_compile_format(): a
 *   format is literals and variables "$name" / "${name}", name = [A-Za-z0-9_]+;
 *   a first argument "escape=default|json|none" picks the escaping.
 * - The built-in log ops ($msec, $time_local, $time_iso8601, $status,
 *   $request_time, $bytes_sent, $body_bytes_sent, $request_length, $pipe) are
 *   written unescaped and are never empty ("%T.%03M", "%03ui", ...).
 * - Every other variable goes through ngx_http_log_variable(): default escaping
 *   writes '"', '\\', bytes < 0x20 and >= 0x7f as "\xHH" and "-" when the
 *   variable is not found, so a raw '"' never occurs inside a value;
 *   escape=json (ngx_escape_json) writes \" \\ \n \r \t \b \f \u00XX and ""
 *   when not found; escape=none copies raw bytes and writes "" when not found.
 * - src/http/ngx_http_upstream.c, ngx_http_upstream_*_variable(): one value per
 *   upstream try ("%T.%03M" or "-"; status "%ui" or "-"), tries joined by ", ",
 *   upstream groups (internal redirects) by " : ".
 *
 * Matching: the format is compiled into a leading literal and (variable,
 * following literal) pairs. A variable's value ends where its following
 * literal first occurs, except that variables with a known shape (times,
 * status, request id, upstream lists) are scanned by that shape. When a later
 * part of the line does not fit, the matcher backtracks to the next possible
 * end of an earlier variable (bounded work per line), so values that contain
 * the next literal (escape=none, an unquoted user agent, "a, b" address lists)
 * still split right. Nearly every line matches on the matcher's first try of
 * every variable, so nginx_parse_line walks that one path first (nx_greedy:
 * no backtracking state, each variable's way of ending decided at compile
 * time, values written to the event as found) and runs the matcher only when
 * the walk fails; the results are the same (tests/unit/test_nginx.c and the
 * fuzzer compare the two). No globals, no I/O; a parse depends only on the
 * format and the line (the format remembers the last converted $time_local
 * minute and $msec second, which saves work but changes no result).
 */
#include "stwtop/nginx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stwtop/util.h"

/* the fast path copies a $request_id (32 hex digits) with a NUL, as is */
_Static_assert(sizeof(((struct ev_http *)0)->rid) == 33, "ev_http.rid holds a $request_id");

#define NX_MAX_FMT   65536u   /* longest format string accepted */
#define NX_MAX_VARS  128u     /* variables in one format */
#define NX_BUDGET    4096u    /* candidate ends tried per line before giving up */
#define NX_MAX_ITEMS 64u      /* upstream list entries looked at */
#define NX_NONE      SIZE_MAX

static const char NX_COMBINED[] =
	"$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
	"\"$http_referer\" \"$http_user_agent\"";

enum nx_esc { ESC_DEFAULT = 0, ESC_JSON, ESC_NONE };

enum nx_var {
	V_OTHER = 0, V_MSEC, V_TIME_LOCAL, V_TIME_ISO, V_STATUS, V_REQUEST_ID, V_REQUEST_TIME,
	V_UCT, V_UHT, V_URT, V_USTATUS, V_UADDR, V_REQUEST
};

enum nx_shape {
	SH_FREE = 0,   /* anything up to the next literal */
	SH_MSEC,       /* 1795980222.372 */
	SH_SECS,       /* 0.004 */
	SH_STATUS,     /* 3 digits */
	SH_TIME_LOCAL, /* 29/Nov/2026:19:13:18 +0000 */
	SH_TIME_ISO,   /* 2026-11-29T19:13:18+00:00 */
	SH_HEX32,      /* $request_id */
	SH_LTIME,      /* "0.001, 3.002 : -" */
	SH_LSTATUS,    /* "502, 200" */
	SH_LADDR       /* "127.0.0.1:8080, unix:/s" */
};

/* How the fast path (nx_greedy) finds the first end of a variable's value. */
enum nx_step {
	ST_SHAPE = 0,  /* a shape that is not a list and has no case of its own */
	ST_SECS,       /* SH_SECS */
	ST_STATUS,     /* SH_STATUS */
	ST_MSEC,       /* SH_MSEC, the second from the memo */
	ST_TIME_LOCAL, /* SH_TIME_LOCAL, the minute from the memo */
	ST_HEX32,      /* SH_HEX32 */
	ST_LIST,       /* an upstream list: its longest run first */
	ST_TO_QUOTE,   /* default escaping, literal starts with '"': the first '"' */
	ST_TO_LIT,     /* default escaping: the literal's first occurrence before a '"' */
	ST_REST,       /* no literal and the last variable: the rest of the line */
	ST_EMPTY,      /* no literal, a variable follows: the empty value comes first */
	ST_GENERIC     /* escape=json / escape=none free values: free_next's first answer */
};

struct nx_var_op {
	uint8_t var;          /* enum nx_var */
	uint8_t shape;        /* enum nx_shape */
	uint8_t may_be_empty; /* json/none write "" for a variable that is not found */
	uint8_t stop;         /* SH_LADDR: byte that also ends an address (next literal's) */
	uint8_t step;         /* enum nx_step */
	uint8_t field;        /* gives the event a field (else only delimits) */
	uint8_t lit_cont;     /* no literal, or it starts with ',' or ' ' (lists: see greedy_list) */
	uint32_t name_off;    /* the name in f->str, for messages */
	uint32_t name_len;
	uint32_t lit_off;     /* the literal that follows, in f->lits */
	uint32_t lit_len;
	/* the literal's first (up to) 8 bytes and a mask of them, so that most
	 * literals are checked with one 8-byte load and compare */
	uint64_t lit_w, lit_m;
};

/* The last timestamps nx_greedy converted. Lines come in time order, so a
 * line's $time_local nearly always has the minute of the line before it and
 * its $msec the second: the date then needs no converting (util_parse_clf_time
 * was 8% of a replay). The one thing a parse writes to the format; what a
 * line parses to does not depend on it. */
struct nx_tcache {
	char clf[23];         /* $time_local without the seconds: "29/Nov/2026:19:13" " +0000" */
	bool clf_ok;
	int64_t clf_base;     /* epoch ms of that minute's second 0 */
	char msec[10];        /* the seconds of a $msec with 10 of them */
	bool msec_ok;
	int64_t msec_sec;
};

struct nginx_fmt {
	char *str;            /* as given, NUL-terminated */
	size_t len;
	uint8_t esc;          /* enum nx_esc */
	char *lits;           /* all literal bytes */
	uint32_t lead_len;    /* lits[0..lead_len): literal before the first variable */
	struct nx_var_op *v;
	unsigned nv;
	unsigned fields;      /* NGINX_F_* */
	struct nx_tcache *tc; /* nx_greedy's last timestamps (see there) */
	struct event ev0;     /* ev_init(EV_HTTP), copied to start each line */
};

/* what one variable of the matched line held */
struct nx_val {
	int64_t a;            /* time ms / status / seconds as ms / last list status */
	int64_t sum;          /* list: sum of the numeric entries, ms */
	uint32_t off, len;    /* the value's bytes in the line */
	uint16_t n, num;      /* list: entries, numeric entries */
	uint8_t exact;        /* time with milliseconds */
};

/* where the matcher is in one variable's candidate ends */
struct nx_frame {
	size_t start;         /* value starts here */
	size_t cur;           /* last candidate end returned (FREE) */
	size_t quote;         /* first '"' at/after start, NX_NONE until looked up */
	unsigned k;           /* candidates returned so far */
};

/* What one line taught the matcher, so backtracking never rescans for it:
 * a quote and each variable's literal are looked for at most once per start. */
struct nx_memo {
	size_t q_from, q_at;           /* no '"' in [q_from, q_at); s[q_at] is one (or q_at = n) */
	size_t nofrom[NX_MAX_VARS];    /* variable i's literal does not occur at or after this */
};

enum nx_fail_code { F_NONE = 0, F_LIT, F_LIT_AFTER, F_SHAPE, F_EOL, F_BUDGET };

struct nx_fail {
	size_t off;
	int code;
	int vi;               /* variable index; -1 = the leading literal */
};

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_name(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

static void fail_at(struct nx_fail *f, size_t off, int code, int vi)
{
	/* the furthest failure is the informative one (the line got that far) */
	if (f->code == F_NONE || off > f->off) {
		f->off = off;
		f->code = code;
		f->vi = vi;
	}
}

/* ---------------------------------------------------------------- shapes */

/* "%T.%03M" seconds (fraction optional, 1-9 digits) as exact milliseconds. */
static size_t scan_secs(const char *s, size_t n, bool need_frac, int64_t *ms)
{
	size_t lim = n < 12 ? n : 12, i = 0;
	int64_t sec = 0, frac = 0;
	unsigned d;
	while (i < lim && (d = (unsigned)(unsigned char)s[i] - '0') < 10) {
		sec = sec * 10 + d;
		i++;
	}
	if (i == 0 || (i < n && is_digit(s[i])))
		return 0;
	if (i + 1 < n && s[i] == '.' && is_digit(s[i + 1])) {
		size_t j = i + 1, lim2 = n < i + 10 ? n : i + 10;
		int nd = 0;
		while (j < lim2 && (d = (unsigned)(unsigned char)s[j] - '0') < 10) {
			if (nd < 3) /* milliseconds: digits past the third are cut */
				frac = frac * 10 + d;
			nd++;
			j++;
		}
		if (j < n && is_digit(s[j]))
			return 0;
		frac *= nd == 1 ? 100 : nd == 2 ? 10 : 1;
		i = j;
	} else if (need_frac) {
		return 0;
	}
	*ms = sec * 1000 + frac;
	return i;
}

static inline uint64_t load64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* $request_id: are s[0..32) hex digits? No early exit, no data-dependent
 * branch (a byte loop was a fifth of an nginx replay, a table lookup per byte
 * still 190 instructions a line): eight bytes a step, each byte lane tested
 * against '0'-'9' and, lowercased, 'a'-'f'. Sums stay within their lane
 * while every byte is < 0x80; a word with a byte >= 0x80 is refused anyway,
 * so what its carries do to other lanes does not matter. */
static inline bool hex32(const char *s)
{
	const uint64_t l = 0x0101010101010101u, h = 0x8080808080808080u;
	uint64_t bad = 0;
	for (size_t k = 0; k < 32; k += 8) {
		uint64_t x = load64(s + k), y = x | (l * 0x20);
		uint64_t dig = (x + l * (0x80 - '0')) & ~(x + l * (0x7f - '9'));
		uint64_t alp = (y + l * (0x80 - 'a')) & ~(y + l * (0x7f - 'f'));
		bad |= x | ~(dig | alp);
	}
	return (bad & h) == 0;
}

/* one shape that is not a list or free: consumed length, 0 = no match */
static size_t scan_single(int shape, const char *s, size_t n, struct nx_val *v)
{
	size_t k;
	bool zone;
	switch (shape) {
	case SH_MSEC:
		/* always "%T.%03M": anything else means the format is not this one */
		k = scan_secs(s, n, true, &v->a);
		if (k < 5 || s[k - 4] != '.')
			return 0;
		v->exact = 1;
		return k;
	case SH_SECS:
		/* nginx writes "%T.%03M": "1" is a line cut mid-write, not 1 s */
		return scan_secs(s, n, true, &v->a);
	case SH_STATUS:
		if (n < 3 || !is_digit(s[0]) || !is_digit(s[1]) || !is_digit(s[2]))
			return 0;
		v->a = (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
		return 3;
	case SH_TIME_LOCAL:
		v->exact = 0;
		return util_parse_clf_time(s, n, &v->a);
	case SH_TIME_ISO:
		k = util_parse_iso8601(s, n, &v->a, &zone);
		v->exact = k > 19 && (s[19] == '.' || s[19] == ',');
		return k;
	case SH_HEX32:
		return n >= 32 && hex32(s) ? 32 : 0;
	default:
		return 0;
	}
}

/* one upstream list entry at s[p]: end of it (p = none); *num true for a number */
static size_t list_item(int shape, const char *s, size_t n, size_t p, uint8_t stop,
			int64_t *val, bool *num)
{
	*num = false;
	if (p >= n)
		return p;
	if (shape == SH_LADDR) {
		size_t q = p;
		while (q < n && s[q] != ' ' && s[q] != ',' && s[q] != '"' && s[q] != (char)stop)
			q++;
		return q;
	}
	if (s[p] == '-')
		return p + 1;
	if (shape == SH_LSTATUS) {
		size_t q = p;
		int64_t v = 0;
		while (q < n && is_digit(s[q]) && q - p < 5) {
			v = v * 10 + (s[q] - '0');
			q++;
		}
		if (q == p || (q < n && is_digit(s[q])))
			return p;
		*val = v;
		*num = true;
		return q;
	}
	size_t k = scan_secs(s + p, n - p, true, val); /* "%T.%03M" always */
	if (k == 0)
		return p;
	*num = true;
	return p + k;
}

struct nx_bound {
	size_t end;
	int64_t sum, last;
	uint16_t n, num;
};

/* Every place an upstream list starting at st could end, shortest first. */
static unsigned list_bounds(int shape, const char *s, size_t n, size_t st, uint8_t stop,
			    struct nx_bound *b, unsigned max)
{
	unsigned cnt = 0;
	size_t p = st;
	int64_t sum = 0, last = -1;
	uint16_t items = 0, num = 0;
	while (cnt < max) {
		int64_t v = 0;
		bool isnum;
		size_t q = list_item(shape, s, n, p, stop, &v, &isnum);
		if (q == p)
			break;
		items++;
		if (isnum) {
			num++;
			sum += v;
			last = v;
		} else {
			last = -1;
		}
		p = q;
		b[cnt++] = (struct nx_bound){p, sum, last, items, num};
		if (n - p >= 2 && s[p] == ',' && s[p + 1] == ' ') {
			p += 2;
			continue;
		}
		if (n - p >= 3 && s[p] == ' ' && s[p + 1] == ':' && s[p + 2] == ' ') {
			p += 3;
			/* a group that never got to try a server leaves " : " at the end */
			q = list_item(shape, s, n, p, stop, &v, &isnum);
			if (q == p && cnt < max)
				b[cnt++] = (struct nx_bound){p, sum, last, items, num};
			if (q == p)
				break;
			continue;
		}
		break;
	}
	return cnt;
}

/* ---------------------------------------------------------------- matcher */

static inline bool lit_at(const char *s, size_t n, size_t e, const char *lit, size_t ll)
{
	if (n - e < ll)
		return false;
	if (ll > 16)
		return memcmp(s + e, lit, ll) == 0;
	for (size_t i = 0; i < ll; i++) /* most literals are a few bytes: no call */
		if (s[e + i] != lit[i])
			return false;
	return true;
}

/* first e in [from, last_start] where the literal occurs, NX_NONE if none */
static size_t find_lit(const char *s, size_t n, size_t from, size_t last_start, const char *lit,
		       size_t ll)
{
	if (n < ll)
		return NX_NONE;
	if (last_start > n - ll)
		last_start = n - ll;
	while (from <= last_start) {
		const char *q = memchr(s + from, lit[0], last_start - from + 1);
		if (!q)
			return NX_NONE;
		size_t e = (size_t)(q - s);
		if (memcmp(q, lit, ll) == 0)
			return e;
		from = e + 1;
	}
	return NX_NONE;
}

/* first '"' at or after p (n if none) */
static size_t next_quote(const char *s, size_t n, size_t p, struct nx_memo *mm)
{
	if (p >= mm->q_from && p <= mm->q_at)
		return mm->q_at;
	const char *q = p < n ? memchr(s + p, '"', n - p) : NULL;
	mm->q_from = p;
	mm->q_at = q ? (size_t)(q - s) : n;
	return mm->q_at;
}

/* Next end of a free variable's value. */
static size_t free_next(const struct nginx_fmt *f, unsigned vi, const char *s, size_t n,
			struct nx_frame *fr, struct nx_memo *mm, struct nx_fail *fail)
{
	const struct nx_var_op *op = &f->v[vi];
	const char *lit = f->lits + op->lit_off;
	size_t ll = op->lit_len, st = fr->start, e;
	bool last = vi + 1 == f->nv;
	unsigned k = fr->k++;

	if (ll == 0) {
		if (last) /* the variable ends the format: it takes the rest of the line */
			return k == 0 ? n : NX_NONE;
		/* directly followed by another variable: try every split, shortest first */
		e = st + k;
		if (e > n || (f->esc == ESC_DEFAULT && k > 0 && s[e - 1] == '"'))
			return NX_NONE;
		return e;
	}
	size_t from = k == 0 ? st : fr->cur + 1;
	if (from >= mm->nofrom[vi]) {
		fail_at(fail, st, F_LIT_AFTER, (int)vi);
		return NX_NONE;
	}
	if (f->esc == ESC_NONE) {
		if (last) { /* the closing literal is the tail of the line */
			if (k > 0)
				return NX_NONE;
			if (n - st < ll || memcmp(s + n - ll, lit, ll) != 0) {
				fail_at(fail, st, F_LIT_AFTER, (int)vi);
				return NX_NONE;
			}
			return n - ll;
		}
		e = find_lit(s, n, from, n, lit, ll);
		if (e == NX_NONE)
			mm->nofrom[vi] = from;
	} else if (f->esc == ESC_JSON) {
		/* a raw '"' only appears escaped (\") inside a value */
		size_t j = from;
		e = NX_NONE;
		if (find_lit(s, n, from, n, lit, ll) == NX_NONE) {
			/* not even ignoring escapes: no start from here on can find it */
			mm->nofrom[vi] = from;
			j = n;
		}
		while (j < n) {
			if (s[j] == lit[0] && lit_at(s, n, j, lit, ll)) {
				e = j;
				break;
			}
			if (s[j] == '\\') {
				j += 2;
				continue;
			}
			if (s[j] == '"')
				break;
			j++;
		}
	} else if (lit[0] == '"') {
		/* default escaping: the value cannot hold '"', so the first one ends it */
		if (k > 0)
			return NX_NONE;
		e = next_quote(s, n, st, mm);
		if (e == n) {
			mm->nofrom[vi] = st;
			fail_at(fail, st, F_LIT_AFTER, (int)vi);
			return NX_NONE;
		}
		if (!lit_at(s, n, e, lit, ll)) {
			fail_at(fail, e, F_LIT, (int)vi);
			return NX_NONE;
		}
		fr->cur = e;
		return e;
	} else {
		if (fr->quote == NX_NONE)
			fr->quote = next_quote(s, n, st, mm);
		e = find_lit(s, n, from, fr->quote, lit, ll);
		if (e == NX_NONE && fr->quote == n)
			mm->nofrom[vi] = from;
	}
	if (e == NX_NONE) {
		fail_at(fail, st, F_LIT_AFTER, (int)vi);
		return NX_NONE;
	}
	fr->cur = e;
	return e;
}

/* Next end of a variable with a known shape (one candidate, or list ends). */
static size_t shaped_next(const struct nginx_fmt *f, unsigned vi, const char *s, size_t n,
			  struct nx_frame *fr, struct nx_val *val, struct nx_fail *fail)
{
	const struct nx_var_op *op = &f->v[vi];
	const char *lit = f->lits + op->lit_off;
	size_t ll = op->lit_len, st = fr->start;

	if (op->shape == SH_LTIME || op->shape == SH_LSTATUS || op->shape == SH_LADDR) {
		struct nx_bound b[NX_MAX_ITEMS];
		unsigned cnt = list_bounds(op->shape, s, n, st, op->stop, b, NX_MAX_ITEMS);
		unsigned total = cnt + (op->may_be_empty ? 1u : 0u);
		if (total == 0) {
			fail_at(fail, st, F_SHAPE, (int)vi);
			return NX_NONE;
		}
		/* longest first: "0.001, 0.002" before "0.001" */
		while (fr->k < total) {
			unsigned k = fr->k++;
			struct nx_bound z = {st, 0, -1, 0, 0};
			const struct nx_bound *c = k < cnt ? &b[cnt - 1 - k] : &z;
			if (ll == 0 || lit_at(s, n, c->end, lit, ll)) {
				val->sum = c->sum;
				val->a = c->last;
				val->n = c->n;
				val->num = c->num;
				val->off = (uint32_t)st;
				val->len = (uint32_t)(c->end - st);
				return c->end;
			}
			fail_at(fail, c->end, F_LIT, (int)vi);
		}
		return NX_NONE;
	}
	if (fr->k++ > 0)
		return NX_NONE;
	size_t k = scan_single(op->shape, s + st, n - st, val);
	/* "2000" where a literal or the end of the line follows $status is not
	 * a status and a stray "0": say the status is wrong, not that the line
	 * goes on where the format ends ($status$request_time may split it) */
	if (k == 3 && op->shape == SH_STATUS && st + 3 < n && is_digit(s[st + 3]) &&
	    (vi + 1 == f->nv || (ll > 0 && !is_digit(lit[0]))))
		k = 0;
	if (k == 0) {
		fail_at(fail, st, F_SHAPE, (int)vi);
		return NX_NONE;
	}
	size_t e = st + k;
	if (ll > 0 && !lit_at(s, n, e, lit, ll)) {
		fail_at(fail, e, F_LIT, (int)vi);
		return NX_NONE;
	}
	val->off = (uint32_t)st;
	val->len = (uint32_t)k;
	return e;
}

/* Walk the line against the format. prefix: the line may go on after it. */
static bool nx_match(const struct nginx_fmt *f, const char *s, size_t n, bool prefix,
		     size_t *end, struct nx_val *vals, struct nx_fail *fail)
{
	struct nx_frame fr[NX_MAX_VARS];
	struct nx_memo mm;
	unsigned budget = NX_BUDGET;
	size_t pos;
	unsigned i = 0;

	if (n > UINT32_MAX)
		n = UINT32_MAX; /* offsets are kept in 32 bits; such a line is cut */
	if (!lit_at(s, n, 0, f->lits, f->lead_len)) {
		fail_at(fail, 0, F_LIT, -1);
		return false;
	}
	pos = f->lead_len;
	if (f->nv == 0) {
		if (pos == n || prefix) {
			*end = pos;
			return true;
		}
		fail_at(fail, pos, F_EOL, -1);
		return false;
	}
	mm.q_from = 1;
	mm.q_at = 0; /* empty: nothing known */
	for (unsigned k = 0; k < f->nv; k++)
		mm.nofrom[k] = NX_NONE;
	fr[0] = (struct nx_frame){pos, pos, NX_NONE, 0};
	for (;;) {
		if (i == f->nv) {
			if (pos == n || prefix) {
				*end = pos;
				return true;
			}
			fail_at(fail, pos, F_EOL, -1);
			i--; /* try the next end of the last variable */
			continue;
		}
		if (budget-- == 0) {
			fail->code = F_BUDGET;
			return false;
		}
		const struct nx_var_op *op = &f->v[i];
		size_t e = op->shape == SH_FREE ? free_next(f, i, s, n, &fr[i], &mm, fail)
						: shaped_next(f, i, s, n, &fr[i], &vals[i], fail);
		if (e == NX_NONE) {
			if (i == 0)
				return false;
			i--;
			continue;
		}
		if (op->shape == SH_FREE) {
			vals[i].off = (uint32_t)fr[i].start;
			vals[i].len = (uint32_t)(e - fr[i].start);
		}
		pos = e + op->lit_len;
		i++;
		if (i < f->nv)
			fr[i] = (struct nx_frame){pos, pos, NX_NONE, 0};
	}
}

/* a time variable's value; *tprio: how exact the time kept so far is */
static inline void put_time(struct event *out, int64_t t, uint8_t exact, int *tprio)
{
	/* the most exact end time wins: $msec over second-resolution times */
	int p = exact ? 2 : 1;
	if (p > *tprio) {
		*tprio = p;
		out->t_ms = t;
		out->u.http.t_exact = exact;
	}
}

/* "10.0.0.1:80, 10.0.0.2:80 : unix:/s": the server that answered is the last
 * one ("-" when none was tried) */
static void put_last_addr(struct ev_http *h, const char *s, size_t n)
{
	size_t a = 0;
	for (size_t i = 0; i + 1 < n; i++)
		if ((s[i] == ',' || s[i] == ':') && s[i + 1] == ' ')
			a = i + 2;
	if (n - a == 1 && s[a] == '-')
		a = n;
	util_strlcpy_n(h->upstream, sizeof h->upstream, s + a, n - a);
}

/* what one variable's value gives the event */
static inline void put_field(int var, const struct nx_val *v, const char *s, struct event *out,
			     int *tprio)
{
	struct ev_http *h = &out->u.http;
	switch (var) {
	case V_MSEC:
	case V_TIME_ISO:
	case V_TIME_LOCAL:
		put_time(out, v->a, v->exact, tprio);
		break;
	case V_STATUS:
		h->status = (int16_t)v->a;
		break;
	case V_REQUEST_TIME:
		h->rt_ms = (double)v->a;
		break;
	case V_REQUEST_ID:
		if (v->len == sizeof h->rid - 1) { /* always: a constant-size copy */
			memcpy(h->rid, s + v->off, sizeof h->rid - 1);
			h->rid[sizeof h->rid - 1] = '\0';
		} else {
			util_strlcpy_n(h->rid, sizeof h->rid, s + v->off, v->len);
		}
		break;
	case V_UCT:
		if (v->n > 0) {
			h->uct_n = (uint8_t)(v->n > 255 ? 255 : v->n);
			h->uct_dash = v->num == 0;
			h->uct_ms = v->num ? (double)v->sum : -1;
		}
		break;
	case V_UHT:
		h->uht_ms = v->n > 0 && v->num ? (double)v->sum : -1;
		break;
	case V_URT:
		h->urt_ms = v->n > 0 && v->num ? (double)v->sum : -1;
		break;
	case V_USTATUS:
		h->upstream_status = (int16_t)(v->n > 0 && v->a >= 0 && v->a <= 32767 ? v->a : -1);
		break;
	case V_UADDR:
		put_last_addr(h, s + v->off, v->len);
		break;
	case V_REQUEST:
		util_strlcpy_n(h->request, sizeof h->request, s + v->off, v->len);
		break;
	default:
		break;
	}
}

static void fill_event(const struct nginx_fmt *f, const char *s, const struct nx_val *vals,
		       struct event *out)
{
	int tprio = 0;
	for (unsigned i = 0; i < f->nv; i++)
		if (f->v[i].field)
			put_field(f->v[i].var, &vals[i], s, out, &tprio);
}

/* ---------------------------------------------------------------- fast path */

/* variable op's literal at s[e]: one masked 8-byte compare when it fits */
static inline bool op_lit_at(const struct nginx_fmt *f, const struct nx_var_op *op, const char *s,
			     size_t n, size_t e)
{
	if (op->lit_len <= 8 && n - e >= 8)
		return ((load64(s + e) ^ op->lit_w) & op->lit_m) == 0;
	return lit_at(s, n, e, f->lits + op->lit_off, op->lit_len);
}

/* first j >= p with s[j] == a or s[j] == b; n if none. Eight bytes a step:
 * most values (an address, "-", a byte count) end within one or two words,
 * where a memchr call would cost more than the search. */
static inline size_t scan2(const char *s, size_t n, size_t p, char a, char b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	const uint64_t ra = ones * (unsigned char)a, rb = ones * (unsigned char)b;
	while (n - p >= 8) {
		uint64_t xa = load64(s + p) ^ ra, xb = load64(s + p) ^ rb;
		/* the lowest flagged byte is the first zero byte of xa or xb (a borrow
		 * can only flag bytes above a zero one) */
		uint64_t z = (((xa - ones) & ~xa) | ((xb - ones) & ~xb)) & highs;
		if (z)
			return p + (size_t)(__builtin_ctzll(z) >> 3);
		p += 8;
	}
#endif
	while (p < n && s[p] != a && s[p] != b)
		p++;
	return p;
}

/* scan_secs(s, n, true, ms) for "D.DDD", the shape of nearly every request
 * and upstream time; anything else goes to scan_secs */
static inline size_t secs_fast(const char *s, size_t n, int64_t *ms)
{
	if (n >= 5 && is_digit(s[0]) && s[1] == '.' && is_digit(s[2]) && is_digit(s[3]) &&
	    is_digit(s[4]) && (n == 5 || !is_digit(s[5]))) {
		*ms = (s[0] - '0') * 1000 + (s[2] - '0') * 100 + (s[3] - '0') * 10 + (s[4] - '0');
		return 5;
	}
	return scan_secs(s, n, true, ms);
}

/* The fast path's rare cases are kept out of line (NX_COLD): inlined, they
 * took the registers of the loop over the variables. */
#define NX_COLD __attribute__((noinline, cold))

static NX_COLD size_t clf_miss(struct nx_tcache *tc, const char *s, size_t n, struct nx_val *v)
{
	size_t k = util_parse_clf_time(s, n, &v->a);
	if (k == 26) {
		memcpy(tc->clf, s, 17);
		memcpy(tc->clf + 17, s + 20, 6);
		tc->clf_base = v->a - ((s[18] - '0') * 10 + (s[19] - '0')) * 1000;
		tc->clf_ok = true;
	}
	return k;
}

/* scan_single(SH_TIME_LOCAL): the minute is looked up in tc, only the
 * seconds are read when it is the last line's */
static inline size_t clf_cached(struct nx_tcache *tc, const char *s, size_t n, struct nx_val *v)
{
	v->exact = 0;
	if (n >= 26 && tc->clf_ok && memcmp(s, tc->clf, 17) == 0 &&
	    memcmp(s + 20, tc->clf + 17, 6) == 0 && s[17] == ':' && is_digit(s[18]) &&
	    is_digit(s[19])) {
		int se = (s[18] - '0') * 10 + (s[19] - '0');
		if (se <= 60) { /* what util_parse_clf_time accepts (a leap second) */
			v->a = tc->clf_base + se * 1000;
			return 26;
		}
	}
	return clf_miss(tc, s, n, v);
}

static NX_COLD size_t msec_miss(struct nx_tcache *tc, const char *s, size_t n, struct nx_val *v)
{
	size_t k = scan_single(SH_MSEC, s, n, v);
	if (k == 14 && s[10] == '.') { /* ten digits of seconds, three of ms */
		memcpy(tc->msec, s, 10);
		tc->msec_sec = v->a / 1000;
		tc->msec_ok = true;
	}
	return k;
}

/* scan_single(SH_MSEC) with the seconds looked up in tc */
static inline size_t msec_cached(struct nx_tcache *tc, const char *s, size_t n, struct nx_val *v)
{
	if (n >= 14 && tc->msec_ok && s[10] == '.' && memcmp(s, tc->msec, 10) == 0 &&
	    is_digit(s[11]) && is_digit(s[12]) && is_digit(s[13]) && (n == 14 || !is_digit(s[14]))) {
		v->a = tc->msec_sec * 1000 + (s[11] - '0') * 100 + (s[12] - '0') * 10 + (s[13] - '0');
		v->exact = 1;
		return 14;
	}
	return msec_miss(tc, s, n, v);
}

/* An upstream list's first candidate end that its literal follows (as
 * shaped_next tries them: longest first, then "" where that may be written). */
static NX_COLD size_t list_first(const struct nginx_fmt *f, const struct nx_var_op *op,
				 const char *s, size_t n, size_t st, struct nx_val *val)
{
	struct nx_bound b[NX_MAX_ITEMS];
	unsigned cnt = list_bounds(op->shape, s, n, st, op->stop, b, NX_MAX_ITEMS);
	unsigned total = cnt + (op->may_be_empty ? 1u : 0u);
	for (unsigned k = 0; k < total; k++) {
		struct nx_bound z = {st, 0, -1, 0, 0};
		const struct nx_bound *c = k < cnt ? &b[cnt - 1 - k] : &z;
		if (op_lit_at(f, op, s, n, c->end)) {
			val->sum = c->sum;
			val->a = c->last;
			val->n = c->n;
			val->num = c->num;
			return c->end;
		}
	}
	return NX_NONE;
}

/* list_first, with the usual list (one try of one upstream) read directly */
static inline size_t greedy_list(const struct nginx_fmt *f, const struct nx_var_op *op,
				 const char *s, size_t n, size_t st, struct nx_val *val)
{
	if (op->shape == SH_LTIME) {
		/* one try of one upstream (no ", " or " : " after it): the list
		 * has one end, list_bounds would find just that */
		int64_t ms = 0;
		size_t k = st < n && s[st] == '-' ? 1 : secs_fast(s + st, n - st, &ms), q = st + k;
		/* where the literal matched, s[q] is its first byte: only a
		 * literal starting with ',' or ' ' (or none) can hide a list going on */
		if (k > 0 && op_lit_at(f, op, s, n, q) &&
		    !(op->lit_cont && ((n - q >= 2 && s[q] == ',' && s[q + 1] == ' ') ||
				       (n - q >= 3 && s[q] == ' ' && s[q + 1] == ':' && s[q + 2] == ' ')))) {
			bool num = s[st] != '-';
			val->sum = num ? ms : 0;
			val->a = num ? ms : -1;
			val->n = 1;
			val->num = num;
			return q;
		}
	}
	return list_first(f, op, s, n, st, val);
}

/* escape=json / escape=none free values: free_next's first answer */
static NX_COLD size_t generic_first(const struct nginx_fmt *f, unsigned i, const char *s,
				    size_t n, size_t pos)
{
	struct nx_frame fr = {pos, pos, NX_NONE, 0};
	struct nx_memo mm;
	struct nx_fail fail = {0, F_NONE, -1};
	mm.q_from = 1;
	mm.q_at = 0; /* nothing known */
	mm.nofrom[i] = NX_NONE;
	return free_next(f, i, s, n, &fr, &mm, &fail);
}

/* The path nx_match tries first, without its bookkeeping: each variable takes
 * the first end nx_match would give it. nx_match is a depth-first search
 * that returns its first complete path, so when this walk reaches the end of
 * the line it has found exactly what nx_match would, values included; they go
 * into *out as they are found (put_field, in the order fill_event uses). When
 * a step fails it gives up (false, *out partly filled) and the caller runs
 * nx_match, which then backtracks, or fails with its reason. */
static __attribute__((noinline)) bool nx_greedy(const struct nginx_fmt *f, const char *s, size_t n,
						struct event *out)
{
	size_t pos = f->lead_len;
	int tprio = 0;
	if (f->nv == 0 || n > UINT32_MAX || !lit_at(s, n, 0, f->lits, f->lead_len))
		return false;
	for (const struct nx_var_op *op = f->v, *end = f->v + f->nv; op < end; op++) {
		struct nx_val val, *v = &val;
		size_t e, k;
		/* the shaped steps store their field (put_field's) directly */
		switch (op->step) {
		case ST_SECS:
			k = secs_fast(s + pos, n - pos, &v->a);
			if (k == 0 || !op_lit_at(f, op, s, n, pos + k))
				return false;
			out->u.http.rt_ms = (double)v->a;
			e = pos + k;
			break;
		case ST_STATUS:
			if (n - pos < 3 || !is_digit(s[pos]) || !is_digit(s[pos + 1]) ||
			    !is_digit(s[pos + 2]) || !op_lit_at(f, op, s, n, pos + 3))
				return false;
			out->u.http.status =
				(int16_t)((s[pos] - '0') * 100 + (s[pos + 1] - '0') * 10 + (s[pos + 2] - '0'));
			e = pos + 3;
			break;
		case ST_MSEC:
			k = msec_cached(f->tc, s + pos, n - pos, v);
			goto timed;
		case ST_TIME_LOCAL:
			k = clf_cached(f->tc, s + pos, n - pos, v);
		timed:
			if (k == 0 || !op_lit_at(f, op, s, n, pos + k))
				return false;
			put_time(out, v->a, v->exact, &tprio);
			e = pos + k;
			break;
		case ST_HEX32:
			if (n - pos < 32 || !hex32(s + pos) || !op_lit_at(f, op, s, n, pos + 32))
				return false;
			memcpy(out->u.http.rid, s + pos, 32);
			out->u.http.rid[32] = '\0';
			e = pos + 32;
			break;
		case ST_SHAPE:
			k = scan_single(op->shape, s + pos, n - pos, v);
			if (k == 0 || !op_lit_at(f, op, s, n, pos + k))
				return false;
			e = pos + k;
			v->off = (uint32_t)pos;
			v->len = (uint32_t)k;
			put_field(op->var, v, s, out, &tprio);
			break;
		case ST_LIST:
			e = greedy_list(f, op, s, n, pos, v);
			if (e == NX_NONE)
				return false;
			v->off = (uint32_t)pos; /* $upstream_addr reads its bytes */
			v->len = (uint32_t)(e - pos);
			put_field(op->var, v, s, out, &tprio);
			break;
		case ST_TO_QUOTE: {
			/* a one-byte value ("-": no referer, no user) is the most common:
			 * found without a memchr call (7% of an ops parse) */
			const char *q;
			if (n - pos >= 2 && s[pos] != '"' && s[pos + 1] == '"')
				q = s + pos + 1;
			else
				q = pos < n ? memchr(s + pos, '"', n - pos) : NULL;
			if (!q)
				return false;
			e = (size_t)(q - s);
			if (!op_lit_at(f, op, s, n, e))
				return false;
			break;
		}
		case ST_TO_LIT: {
			/* the literal's first byte is not '"', and the value cannot
			 * hold one, so a '"' before the literal means no end */
			char c0 = f->lits[op->lit_off];
			/* a one-byte value ("-", a small count) first, as for quotes */
			if (n - pos >= 2 && s[pos] != c0 && s[pos] != '"' && s[pos + 1] == c0 &&
			    op_lit_at(f, op, s, n, pos + 1)) {
				e = pos + 1;
				break;
			}
			for (e = pos;; e++) {
				e = scan2(s, n, e, c0, '"');
				if (e == n || s[e] == '"')
					return false;
				if (op_lit_at(f, op, s, n, e))
					break;
			}
			break;
		}
		case ST_REST:
			e = n;
			break;
		case ST_EMPTY:
			e = pos;
			break;
		default:
			e = generic_first(f, (unsigned)(op - f->v), s, n, pos);
			if (e == NX_NONE)
				return false;
			break;
		}
		if (op->var == V_REQUEST) /* the one free value that gives a field */
			util_strlcpy_n(out->u.http.request, sizeof out->u.http.request, s + pos, e - pos);
		pos = e + op->lit_len;
	}
	return pos == n;
}

/* nx_match on a line, the first-failure reason in *why */
static bool parse_full(const struct nginx_fmt *f, const char *line, size_t len, struct event *out,
		       struct nginx_miss *why)
{
	struct nx_val vals[NX_MAX_VARS];
	struct nx_fail fail = {0, F_NONE, -1};
	size_t end;

	if (!f || !line) {
		ev_init(out, EV_HTTP);
		return false;
	}
	*out = f->ev0;
	if (nx_match(f, line, len, false, &end, vals, &fail)) {
		fill_event(f, line, vals, out);
		return true;
	}
	if (why) {
		why->offset = fail.off;
		const struct nx_var_op *op = fail.vi >= 0 ? &f->v[fail.vi] : NULL;
		const char *lit = op ? f->lits + op->lit_off : f->lits;
		size_t ll = op ? op->lit_len : f->lead_len;
		char lbuf[40];
		util_sanitize(lbuf, ll > 24 ? 26 : sizeof lbuf, lit, ll);
		if (ll > 24)
			strcat(lbuf, "...");
		int nl = op ? (int)(op->name_len > 28 ? 28 : op->name_len) : 0;
		const char *name = op ? f->str + op->name_off : "";
		static const char *const shape_want[] = {
			[SH_FREE] = "a value", [SH_MSEC] = "a time like 1795980222.372",
			[SH_SECS] = "seconds like 0.004", [SH_STATUS] = "a 3-digit number",
			[SH_TIME_LOCAL] = "dd/Mon/yyyy:hh:mm:ss +zzzz",
			[SH_TIME_ISO] = "yyyy-mm-ddThh:mm:ss+zz:zz", [SH_HEX32] = "32 hex digits",
			[SH_LTIME] = "seconds or -", [SH_LSTATUS] = "numbers or -",
			[SH_LADDR] = "an address",
		};
		switch (fail.code) {
		case F_LIT:
			snprintf(why->expected, sizeof why->expected, "literal '%s'", lbuf);
			break;
		case F_LIT_AFTER:
			snprintf(why->expected, sizeof why->expected, "literal '%s' after $%.*s", lbuf,
				 nl, name);
			break;
		case F_SHAPE:
			snprintf(why->expected, sizeof why->expected, "variable $%.*s expects %s", nl,
				 name, shape_want[op->shape]);
			break;
		case F_EOL:
			snprintf(why->expected, sizeof why->expected, "end of line (the format ends)");
			break;
		default:
			snprintf(why->expected, sizeof why->expected,
				 "a simpler line (too many ways to split it)");
			break;
		}
	}
	return false;
}

bool nginx_parse_line(const struct nginx_fmt *f, const char *line, size_t len, struct event *out,
		      struct nginx_miss *why)
{
	if (f && line) {
		*out = f->ev0;
		if (nx_greedy(f, line, len, out))
			return true;
	}
	/* the walk may have filled some fields: parse_full starts over */
	return parse_full(f, line, len, out, why);
}

bool nginx_parse_line_full(const struct nginx_fmt *f, const char *line, size_t len,
			   struct event *out, struct nginx_miss *why)
{
	return parse_full(f, line, len, out, why);
}

size_t nginx_miss_describe(const struct nginx_miss *why, const char *line, size_t len, char *buf,
			   size_t buflen)
{
	char ex[48];
	int k;
	if (!buflen)
		return 0;
	bool var = strncmp(why->expected, "variable ", 9) == 0;
	k = snprintf(buf, buflen, "%s%s at byte %zu", var ? "" : "expected ", why->expected,
		     why->offset);
	if (k < 0 || (size_t)k >= buflen)
		return buflen - 1;
	if (line) {
		if (why->offset >= len) {
			k += snprintf(buf + k, buflen - (size_t)k, " (the line ends there)");
		} else {
			size_t m = len - why->offset > 20 ? 20 : len - why->offset;
			util_sanitize(ex, sizeof ex, line + why->offset, m);
			k += snprintf(buf + k, buflen - (size_t)k, " (line has '%s%s')", ex,
				      len - why->offset > 20 ? "..." : "");
		}
	}
	return (size_t)k >= buflen ? buflen - 1 : (size_t)k;
}

/* ---------------------------------------------------------------- compiler */

struct nx_known {
	const char *name;
	uint8_t var, shape, builtin, field;
};

/* builtin = one of ngx_http_log_vars[] (never escaped, never empty) */
static const struct nx_known nx_known_vars[] = {
	{"msec", V_MSEC, SH_MSEC, 1, 0},
	{"time_local", V_TIME_LOCAL, SH_TIME_LOCAL, 1, 0},
	{"time_iso8601", V_TIME_ISO, SH_TIME_ISO, 1, 0},
	{"status", V_STATUS, SH_STATUS, 1, 0},
	{"request_time", V_REQUEST_TIME, SH_SECS, 1, 0},
	{"request_id", V_REQUEST_ID, SH_HEX32, 0, 0},
	{"upstream_connect_time", V_UCT, SH_LTIME, 0, 0},
	{"upstream_header_time", V_UHT, SH_LTIME, 0, 0},
	{"upstream_response_time", V_URT, SH_LTIME, 0, 0},
	{"upstream_status", V_USTATUS, SH_LSTATUS, 0, 0},
	{"upstream_addr", V_UADDR, SH_LADDR, 0, 0},
	{"request", V_REQUEST, SH_FREE, 0, 0},
	{"pipe", V_OTHER, SH_FREE, 1, 0},
	{"bytes_sent", V_OTHER, SH_FREE, 1, 0},
	{"body_bytes_sent", V_OTHER, SH_FREE, 1, 0},
	{"request_length", V_OTHER, SH_FREE, 1, 0},
};

static unsigned var_field(int var)
{
	switch (var) {
	case V_MSEC: return NGINX_F_TIME | NGINX_F_TIME_EXACT;
	case V_TIME_LOCAL:
	case V_TIME_ISO: return NGINX_F_TIME;
	case V_STATUS: return NGINX_F_STATUS;
	case V_REQUEST_TIME: return NGINX_F_RT;
	case V_UCT: return NGINX_F_UCT;
	case V_UHT: return NGINX_F_UHT;
	case V_URT: return NGINX_F_URT;
	case V_USTATUS: return NGINX_F_USTATUS;
	case V_REQUEST_ID: return NGINX_F_RID;
	case V_UADDR: return NGINX_F_UADDR;
	case V_REQUEST: return NGINX_F_REQUEST;
	default: return 0;
	}
}

static void classify(struct nginx_fmt *f, struct nx_var_op *op)
{
	const char *name = f->str + op->name_off;
	size_t len = op->name_len;
	op->var = V_OTHER;
	op->shape = SH_FREE;
	bool builtin = false;
	for (size_t i = 0; i < ARRAY_LEN(nx_known_vars); i++) {
		const struct nx_known *k = &nx_known_vars[i];
		if (strlen(k->name) != len || strncasecmp(k->name, name, len) != 0)
			continue;
		op->var = k->var;
		op->shape = k->shape;
		/* nginx matches its log ops case-sensitively; $MSEC is the variable */
		builtin = k->builtin && memcmp(k->name, name, len) == 0;
		break;
	}
	op->may_be_empty = !builtin && f->esc != ESC_DEFAULT;
	if (op->shape == SH_LADDR && op->lit_len > 0) {
		unsigned char c = (unsigned char)f->lits[op->lit_off];
		if (!isalnum(c) && !strchr(".:[]/-_%", c))
			op->stop = c;
	}
	f->fields |= var_field(op->var);
}

/* What nx_greedy does for variable k: the same first candidate free_next /
 * shaped_next would return, decided once here instead of per line. */
static void plan_step(struct nginx_fmt *f, unsigned k)
{
	struct nx_var_op *op = &f->v[k];
	const char *lit = f->lits + op->lit_off;
	size_t w = op->lit_len < 8 ? op->lit_len : 8;
	unsigned char ones[8] = {0}, bytes[8] = {0};
	memset(ones, 0xff, w);
	memcpy(bytes, lit, w);
	memcpy(&op->lit_m, ones, 8);
	memcpy(&op->lit_w, bytes, 8);
	op->lit_cont = op->lit_len == 0 || lit[0] == ',' || lit[0] == ' ';
	if (op->shape == SH_LTIME || op->shape == SH_LSTATUS || op->shape == SH_LADDR)
		op->step = ST_LIST;
	else if (op->shape == SH_SECS)
		op->step = ST_SECS;
	else if (op->shape == SH_STATUS)
		op->step = ST_STATUS;
	else if (op->shape == SH_MSEC)
		op->step = ST_MSEC;
	else if (op->shape == SH_TIME_LOCAL)
		op->step = ST_TIME_LOCAL;
	else if (op->shape == SH_HEX32)
		op->step = ST_HEX32;
	else if (op->shape != SH_FREE)
		op->step = ST_SHAPE;
	else if (op->lit_len == 0)
		op->step = k + 1 == f->nv ? ST_REST : ST_EMPTY;
	else if (f->esc != ESC_DEFAULT)
		op->step = ST_GENERIC;
	else
		op->step = lit[0] == '"' ? ST_TO_QUOTE : ST_TO_LIT;
}

static void *cerr(char *err, size_t errlen, const char *fmt_s, ...)
	__attribute__((format(printf, 3, 4)));

static void *cerr(char *err, size_t errlen, const char *fmt_s, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt_s);
		vsnprintf(err, errlen, fmt_s, ap);
		va_end(ap);
	}
	return NULL;
}

/* A format pasted with the config's quotes: `'$a - $b ' '"$request"'`, maybe
 * with `escape=json` before it or a ';' after it. Only quoted strings and
 * blanks; single quotes, or a ';' at the end (`"$xff" "$request"` alone is
 * also a format with literal quotes, and stays one). Returns the strings
 * joined as nginx joins them (malloc'd), or NULL when fmt is not that. */
static char *unpaste(const char *fmt, size_t len)
{
	size_t i = 0, e = len, ntok = 0;
	bool single = false, semi = false;
	while (e > 0 && (fmt[e - 1] == ' ' || fmt[e - 1] == '\t' || fmt[e - 1] == '\n'))
		e--;
	if (e > 0 && fmt[e - 1] == ';') {
		semi = true;
		e--;
	}
	size_t body = 0;
	if (len >= 7 && memcmp(fmt, "escape=", 7) == 0) {
		while (body < e && fmt[body] != ' ')
			body++;
	}
	for (i = body; i < e;) {
		char c = fmt[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			continue;
		}
		if (c != '\'' && c != '"')
			return NULL;
		single |= c == '\'';
		size_t j = i + 1;
		while (j < e && fmt[j] != c)
			j += fmt[j] == '\\' ? 2 : 1;
		if (j >= e)
			return NULL;
		ntok++;
		i = j + 1;
		if (i < e && fmt[i] != ' ' && fmt[i] != '\t' && fmt[i] != '\n' && fmt[i] != '\r')
			return NULL;
	}
	if (ntok == 0 || !(single || semi))
		return NULL;
	/* the config reader joins them exactly as nginx does */
	size_t cl = len + 32;
	char *conf = malloc(cl), err[8];
	if (!conf)
		return NULL;
	int k = snprintf(conf, cl, "log_format p %.*s;", (int)e, fmt);
	char *r = k > 0 ? nginx_conf_parse_mem(conf, (size_t)k, NULL, NULL, "p", err, sizeof err) : NULL;
	free(conf);
	return r;
}

static struct nginx_fmt *compile(const char *fmt, size_t len, char *err, size_t errlen);

struct nginx_fmt *nginx_fmt_compile(const char *fmt, size_t len, char *err, size_t errlen)
{
	char *unq = fmt && len <= NX_MAX_FMT ? unpaste(fmt, len) : NULL;
	if (!unq)
		return compile(fmt, len, err, errlen);
	struct nginx_fmt *f = compile(unq, strlen(unq), err, errlen);
	free(unq);
	return f;
}

static struct nginx_fmt *compile(const char *fmt, size_t len, char *err, size_t errlen)
{
	struct nginx_fmt *f;
	size_t i = 0, nl = 0;

	if (!fmt)
		return cerr(err, errlen, "no format");
	if (len > NX_MAX_FMT)
		return cerr(err, errlen, "format longer than %u bytes", NX_MAX_FMT);
	f = calloc(1, sizeof *f);
	if (!f)
		return cerr(err, errlen, "out of memory");
	f->str = malloc(len + 1);
	f->lits = malloc(len + 1);
	f->v = calloc(NX_MAX_VARS, sizeof *f->v);
	f->tc = calloc(1, sizeof *f->tc);
	if (!f->str || !f->lits || !f->v || !f->tc) {
		nginx_fmt_free(f);
		return cerr(err, errlen, "out of memory");
	}
	memcpy(f->str, fmt, len);
	f->str[len] = '\0';
	f->len = len;

	if (len >= 7 && memcmp(fmt, "escape=", 7) == 0) {
		size_t w = 7;
		while (w < len && fmt[w] != ' ')
			w++;
		const char *e = fmt + 7;
		size_t el = w - 7;
		if (el == 4 && memcmp(e, "json", 4) == 0)
			f->esc = ESC_JSON;
		else if (el == 4 && memcmp(e, "none", 4) == 0)
			f->esc = ESC_NONE;
		else if (!(el == 7 && memcmp(e, "default", 7) == 0)) {
			cerr(err, errlen, "unknown log format escaping \"%.*s\"", (int)(el > 20 ? 20 : el),
			     e);
			nginx_fmt_free(f);
			return NULL;
		}
		i = w < len ? w + 1 : w;
	}
	if (i == len) {
		nginx_fmt_free(f);
		return cerr(err, errlen, "empty format");
	}
	while (i < len) {
		if (fmt[i] != '$') {
			f->lits[nl++] = fmt[i++];
			continue;
		}
		size_t at = i++;
		bool bracket = i < len && fmt[i] == '{';
		if (bracket)
			i++;
		size_t ns = i;
		while (i < len && is_name(fmt[i]))
			i++;
		size_t nlen = i - ns;
		if (bracket) {
			if (i < len && fmt[i] == '}') {
				i++;
			} else {
				cerr(err, errlen, "the closing bracket in \"${%.*s\" variable is missing",
				     (int)(nlen > 40 ? 40 : nlen), fmt + ns);
				nginx_fmt_free(f);
				return NULL;
			}
		}
		if (nlen == 0) {
			cerr(err, errlen, "invalid variable at byte %zu: '$' must be followed by a name",
			     at);
			nginx_fmt_free(f);
			return NULL;
		}
		if (f->nv == NX_MAX_VARS) {
			cerr(err, errlen, "more than %u variables in the format", NX_MAX_VARS);
			nginx_fmt_free(f);
			return NULL;
		}
		if (f->nv == 0)
			f->lead_len = (uint32_t)nl;
		else
			f->v[f->nv - 1].lit_len = (uint32_t)nl - f->v[f->nv - 1].lit_off;
		struct nx_var_op *op = &f->v[f->nv++];
		op->name_off = (uint32_t)ns;
		op->name_len = (uint32_t)nlen;
		op->lit_off = (uint32_t)nl;
	}
	if (f->nv == 0)
		f->lead_len = (uint32_t)nl;
	else
		f->v[f->nv - 1].lit_len = (uint32_t)nl - f->v[f->nv - 1].lit_off;
	for (unsigned k = 0; k < f->nv; k++) {
		classify(f, &f->v[k]);
		plan_step(f, k);
		f->v[k].field = var_field(f->v[k].var) != 0;
	}
	ev_init(&f->ev0, EV_HTTP);
	/* a variable the format does not have is not evidence of anything: the
	 * rules and views must tell it from "-" */
	f->ev0.u.http.lacks = (uint8_t)((f->fields & NGINX_F_RT ? 0 : EV_HTTP_NO_RT) |
					(f->fields & NGINX_F_UCT ? 0 : EV_HTTP_NO_UCT) |
					(f->fields & NGINX_F_UHT ? 0 : EV_HTTP_NO_UHT) |
					(f->fields & NGINX_F_URT ? 0 : EV_HTTP_NO_URT));
	return f;
}

void nginx_fmt_free(struct nginx_fmt *f)
{
	if (!f)
		return;
	free(f->str);
	free(f->lits);
	free(f->v);
	free(f->tc);
	free(f);
}

struct nginx_fmt *nginx_fmt_combined(void)
{
	return nginx_fmt_compile(NX_COMBINED, sizeof NX_COMBINED - 1, NULL, 0);
}

const char *nginx_fmt_string(const struct nginx_fmt *f)
{
	return f ? f->str : "";
}

unsigned nginx_fmt_fields(const struct nginx_fmt *f)
{
	return f ? f->fields : 0;
}

size_t nginx_fmt_describe(const struct nginx_fmt *f, char *buf, size_t len)
{
	static const char *const esc_name[] = {"default", "json", "none"};
	size_t k;
	if (!len)
		return 0;
	k = (size_t)snprintf(buf, len, "escape=%s; fields:", esc_name[f->esc]);
	for (int pass = 0; pass < 2 && k < len; pass++) {
		if (pass == 1)
			k += (size_t)snprintf(buf + k, len - k, "; matched, ignored:");
		for (unsigned i = 0; i < f->nv && k < len; i++) {
			const struct nx_var_op *op = &f->v[i];
			if ((var_field(op->var) != 0) != (pass == 0))
				continue;
			k += (size_t)snprintf(buf + k, len - k, " $%.*s", (int)op->name_len,
					      f->str + op->name_off);
		}
	}
	return k >= len ? len - 1 : k;
}

/* ---------------------------------------------------------------- detection */

struct sbuf {
	char *p;
	size_t len, cap;
	bool bad;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->bad)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = cap <= NX_MAX_FMT ? realloc(b->p, cap) : NULL;
		if (!p) {
			b->bad = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

/* key=value names people give the timings in their formats */
static const struct {
	const char *key;
	const char *var;
} nx_keys[] = {
	{"rt", "request_time"}, {"request_time", "request_time"}, {"req_time", "request_time"},
	{"reqtime", "request_time"}, {"rtime", "request_time"},
	{"uct", "upstream_connect_time"}, {"upstream_connect_time", "upstream_connect_time"},
	{"connect_time", "upstream_connect_time"}, {"up_connect", "upstream_connect_time"},
	{"uht", "upstream_header_time"}, {"upstream_header_time", "upstream_header_time"},
	{"header_time", "upstream_header_time"},
	{"urt", "upstream_response_time"}, {"upstream_response_time", "upstream_response_time"},
	{"upstream_time", "upstream_response_time"}, {"ups_time", "upstream_response_time"},
	{"upt", "upstream_response_time"},
	{"us", "upstream_status"}, {"ust", "upstream_status"},
	{"upstream_status", "upstream_status"}, {"ups_status", "upstream_status"},
	{"ua", NULL}, /* user agent, not upstream addr */
	{"upstream", "upstream_addr"}, {"upstream_addr", "upstream_addr"},
	{"ups_addr", "upstream_addr"}, {"uaddr", "upstream_addr"},
	{"rid", "request_id"}, {"request_id", "request_id"}, {"req_id", "request_id"},
	{"reqid", "request_id"},
	{"status", "status"}, {"msec", "msec"},
};

static const struct nx_known *known_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(nx_known_vars); i++)
		if (strcmp(nx_known_vars[i].name, name) == 0)
			return &nx_known_vars[i];
	return NULL;
}

/* does s[0..n) entirely have the shape of variable `name`? */
static bool value_fits(const char *name, const char *s, size_t n)
{
	const struct nx_known *k = known_by_name(name);
	struct nx_val v;
	if (!k)
		return false;
	if (k->shape == SH_LTIME || k->shape == SH_LSTATUS || k->shape == SH_LADDR) {
		struct nx_bound b[NX_MAX_ITEMS];
		unsigned c = list_bounds(k->shape, s, n, 0, 0, b, NX_MAX_ITEMS);
		return c > 0 && b[c - 1].end == n;
	}
	if (k->shape == SH_FREE)
		return true;
	/* an empty value is no time or status ("" of escape=json is not $msec) */
	return n > 0 && scan_single(k->shape, s, n, &v) == n;
}

/* end of a "quoted" token starting at s[p] == '"' (escape-aware), NX_NONE if open */
static size_t quoted_end(const char *s, size_t n, size_t p)
{
	for (size_t j = p + 1; j < n; j++) {
		if (s[j] == '\\')
			j++;
		else if (s[j] == '"')
			return j;
	}
	return NX_NONE;
}

static size_t ident_len(const char *s, size_t n, size_t p)
{
	size_t q = p;
	if (q >= n || !(isalpha((unsigned char)s[q]) || s[q] == '_'))
		return 0;
	while (q < n && (is_name(s[q]) || s[q] == '-' || s[q] == '.'))
		q++;
	return q - p;
}

static void put_unknown(struct sbuf *b, const char *tag, unsigned *nth)
{
	char v[32];
	snprintf(v, sizeof v, "${x_%s%u}", tag, (*nth)++);
	sb_puts(b, v);
}

/* an unknown value named by its key ("uct=", "upstream":): the key's name
 * characters, lower case, at most 16, then '_', as put_unknown()'s tag */
static void put_unknown_key(struct sbuf *b, const char *key, unsigned *nth)
{
	char tag[24];
	size_t t = 0;
	for (size_t i = 0; key[i] && t < 16; i++)
		if (is_name(key[i]))
			tag[t++] = (char)tolower((unsigned char)key[i]);
	tag[t++] = '_';
	tag[t] = '\0';
	put_unknown(b, tag, nth);
}

/* Turn the fields of one sample line from s[p] on into format text: key=value
 * pairs (quoted or not), "quoted", [bracketed] and bare tokens. Timings are
 * recognised by their key names, ids/status/times by their shape. */
static bool derive_fields(const char *s, size_t n, size_t p, bool have_status, struct sbuf *b,
			  bool *none)
{
	unsigned nth = 0;
	bool first = p == 0;
	while (p < n) {
		if (s[p] == ' ') {
			size_t q = p;
			while (q < n && s[q] == ' ')
				q++;
			sb_put(b, s + p, q - p);
			p = q;
			continue;
		}
		if (s[p] == '$')
			return false; /* nginx has no way to write a literal '$' */
		size_t il = ident_len(s, n, p);
		if (il > 0 && p + il < n && s[p + il] == '=') {
			char key[48];
			const char *var = NULL;
			util_strlcpy_n(key, sizeof key, s + p, il);
			for (size_t i = 0; i < ARRAY_LEN(nx_keys); i++)
				if (strcasecmp(nx_keys[i].key, key) == 0) {
					var = nx_keys[i].var;
					break;
				}
			sb_put(b, s + p, il + 1);
			size_t vs = p + il + 1, ve;
			bool quoted = vs < n && s[vs] == '"';
			if (quoted) {
				size_t q = quoted_end(s, n, vs);
				if (q == NX_NONE)
					return false;
				vs++;
				ve = q;
			} else {
				const struct nx_known *k = var ? known_by_name(var) : NULL;
				if (k && (k->shape == SH_LTIME || k->shape == SH_LSTATUS ||
					  k->shape == SH_LADDR)) {
					struct nx_bound bd[NX_MAX_ITEMS];
					unsigned c = list_bounds(k->shape, s, n, vs, 0, bd, NX_MAX_ITEMS);
					ve = c ? bd[c - 1].end : vs;
				} else {
					const char *sp = memchr(s + vs, ' ', n - vs);
					ve = sp ? (size_t)(sp - s) : n;
				}
			}
			if (quoted)
				sb_puts(b, "\"");
			if (var && strcmp(var, "status") == 0 && have_status)
				var = NULL;
			const struct nx_known *kv = var ? known_by_name(var) : NULL;
			/* escape=none (and json) write "" for a variable that is not set:
			 * "uct= " is $upstream_connect_time of a request with no upstream */
			bool unset = kv && !kv->builtin && ve == vs;
			*none |= unset;
			if (var && (unset || value_fits(var, s + vs, ve - vs))) {
				sb_puts(b, "$");
				sb_puts(b, var);
				if (strcmp(var, "status") == 0)
					have_status = true;
			} else {
				put_unknown_key(b, key, &nth);
			}
			if (quoted)
				sb_puts(b, "\"");
			p = ve + (quoted ? 1 : 0);
			first = false;
			continue;
		}
		if (s[p] == '"') {
			size_t q = quoted_end(s, n, p);
			if (q == NX_NONE)
				return false;
			sb_puts(b, "\"");
			put_unknown(b, "q", &nth);
			sb_puts(b, "\"");
			p = q + 1;
			first = false;
			continue;
		}
		if (s[p] == '[') {
			const char *q = memchr(s + p, ']', n - p);
			if (!q)
				return false;
			size_t qe = (size_t)(q - s);
			int64_t ms;
			sb_puts(b, "[");
			if (qe - p - 1 == 26 && util_parse_clf_time(s + p + 1, 26, &ms) == 26)
				sb_puts(b, "$time_local");
			else
				put_unknown(b, "b", &nth);
			sb_puts(b, "]");
			p = qe + 1;
			first = false;
			continue;
		}
		/* a bare token */
		const char *sp = memchr(s + p, ' ', n - p);
		size_t te = sp ? (size_t)(sp - s) : n, tl = te - p;
		/* epoch seconds have 10 digits: no request time looks like that */
		if ((first || (tl == 14 && s[p + 10] == '.')) && value_fits("msec", s + p, tl)) {
			sb_puts(b, "$msec");
		} else if (value_fits("time_iso8601", s + p, tl)) {
			sb_puts(b, "$time_iso8601");
		} else if (value_fits("request_id", s + p, tl)) {
			sb_puts(b, "$request_id");
		} else if (!have_status && tl == 3 && s[p] >= '1' && s[p] <= '5' &&
			   value_fits("status", s + p, tl)) {
			sb_puts(b, "$status");
			have_status = true;
		} else {
			if (memchr(s + p, '"', tl))
				return false; /* a quote inside a bare token: not a layout we know */
			put_unknown(b, "", &nth);
		}
		p = te;
		first = false;
	}
	return !b->bad;
}

/* one field of a tab- or '|'-separated line: what it looks like */
static const char *sep_field(const char *s, size_t n, bool *have_status, bool prev_time, bool *is_time)
{
	*is_time = false;
	if (value_fits("msec", s, n) && n == 14 && s[10] == '.')
		return "msec";
	if (value_fits("time_iso8601", s, n))
		return "time_iso8601";
	if (n == 28 && s[0] == '[' && s[27] == ']' && value_fits("time_local", s + 1, 26))
		return "[time_local]";
	if (value_fits("time_local", s, n))
		return "time_local";
	if (value_fits("request_id", s, n))
		return "request_id";
	if (!*have_status && n == 3 && s[0] >= '1' && s[0] <= '5' && value_fits("status", s, n)) {
		*have_status = true;
		return "status";
	}
	/* times are "0.004" (or "-" next to them, an upstream not tried) */
	if ((n > 0 && value_fits("upstream_connect_time", s, n) && !(n == 1 && s[0] == '-')) ||
	    (prev_time && n == 1 && s[0] == '-')) {
		*is_time = true;
		return NULL;
	}
	if (n > 13 && memchr(s, ' ', n) && (memcmp(s + n - 9, " HTTP/1.", 8) == 0 ||
					    memcmp(s + n - 7, " HTTP/2", 7) == 0))
		return "request";
	return NULL;
}

/* A line of fields joined by sep ('\t', '|'): each field named by its shape;
 * the times, in their order, as nginx users write them: rt; rt, urt;
 * rt, uct, urt; rt, uct, uht, urt. */
static bool derive_sep(const char *s, size_t n, char sep, struct sbuf *b)
{
	static const char *const tnames[4][4] = {
		{"request_time"}, {"request_time", "upstream_response_time"},
		{"request_time", "upstream_connect_time", "upstream_response_time"},
		{"request_time", "upstream_connect_time", "upstream_header_time", "upstream_response_time"},
	};
	bool tm[NX_MAX_VARS];
	const char *nm[NX_MAX_VARS];
	unsigned nf = 0, nt = 0, k = 0;
	bool have_status = false;
	if (memchr(s, '$', n))
		return false;
	for (size_t p = 0; nf < NX_MAX_VARS;) {
		const char *q = memchr(s + p, sep, n - p);
		size_t e = q ? (size_t)(q - s) : n;
		nm[nf] = sep_field(s + p, e - p, &have_status, nf > 0 && tm[nf - 1], &tm[nf]);
		nt += tm[nf];
		nf++;
		if (!q)
			break;
		p = e + 1;
	}
	if (nf < 3 || nf == NX_MAX_VARS)
		return false;
	unsigned nth = 0;
	for (unsigned i = 0; i < nf; i++) {
		if (i)
			sb_put(b, &sep, 1);
		if (tm[i] && k < 4) {
			sb_puts(b, "$");
			sb_puts(b, tnames[(nt > 4 ? 4 : nt) - 1][k++]);
		} else if (nm[i] && nm[i][0] == '[') {
			sb_puts(b, "[$time_local]");
		} else if (nm[i]) {
			sb_puts(b, "$");
			sb_puts(b, nm[i]);
		} else {
			put_unknown(b, "", &nth);
		}
	}
	return !b->bad;
}

/* {"k":"v","n":1,...} as nginx writes it with escape=json: each value becomes a
 * variable, named by its key where the key says what it is (see nx_keys and
 * nginx's own names), else by the value's shape (epoch.ms, ISO time, id). */
static bool derive_json(const char *s, size_t n, struct sbuf *b)
{
	size_t p = 1, lit = 0;
	unsigned nth = 0;
	bool have_status = false;
	if (n < 2 || s[0] != '{' || s[n - 1] != '}' || memchr(s, '$', n))
		return false;
	sb_puts(b, "escape=json ");
	for (;;) {
		while (p < n && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p < n && s[p] == '}' && p + 1 == n)
			break;
		if (p >= n || s[p] != '"')
			return false;
		size_t kq = quoted_end(s, n, p);
		if (kq == NX_NONE)
			return false;
		char key[48];
		util_strlcpy_n(key, sizeof key, s + p + 1, kq - p - 1);
		p = kq + 1;
		while (p < n && s[p] == ' ')
			p++;
		if (p >= n || s[p] != ':')
			return false;
		p++;
		while (p < n && s[p] == ' ')
			p++;
		size_t vs, ve;
		bool quoted = p < n && s[p] == '"';
		if (quoted) {
			size_t vq = quoted_end(s, n, p);
			if (vq == NX_NONE)
				return false;
			vs = p + 1;
			ve = vq;
		} else {
			vs = p;
			ve = p;
			while (ve < n && s[ve] != ',' && s[ve] != '}' && s[ve] != ' ')
				ve++;
			if (ve == vs)
				return false;
		}
		sb_put(b, s + lit, vs - lit);
		const char *var = NULL;
		for (size_t i = 0; i < ARRAY_LEN(nx_keys) && !var; i++)
			if (strcasecmp(nx_keys[i].key, key) == 0)
				var = nx_keys[i].var;
		for (size_t i = 0; i < ARRAY_LEN(nx_known_vars) && !var; i++)
			if (strcasecmp(nx_known_vars[i].name, key) == 0 && nx_known_vars[i].var != V_OTHER)
				var = nx_known_vars[i].name;
		const struct nx_known *k = var ? known_by_name(var) : NULL;
		bool list = k && (k->shape == SH_LTIME || k->shape == SH_LSTATUS || k->shape == SH_LADDR);
		if (var && strcmp(var, "status") == 0 && have_status)
			var = NULL;
		if (var && !(value_fits(var, s + vs, ve - vs) || (list && quoted && ve == vs)))
			var = NULL;
		if (!var) { /* the key says nothing we know: go by the value's shape */
			static const char *const by_shape[] = {"msec", "time_iso8601", "time_local",
								"request_id"};
			for (size_t i = 0; i < ARRAY_LEN(by_shape) && !var; i++)
				if (value_fits(by_shape[i], s + vs, ve - vs) &&
				    (i != 0 || (ve - vs == 14 && s[vs + 10] == '.')))
					var = by_shape[i];
		}
		if (var) {
			sb_puts(b, "$");
			sb_puts(b, var);
			have_status |= strcmp(var, "status") == 0;
		} else {
			put_unknown_key(b, key, &nth);
		}
		lit = ve;
		p = ve + (quoted ? 1 : 0);
		while (p < n && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p < n && s[p] == ',') {
			p++;
			continue;
		}
		if (p + 1 == n && s[p] == '}')
			break;
		return false;
	}
	sb_put(b, s + lit, n - lit);
	return !b->bad;
}

static int popcount(unsigned x)
{
	int c = 0;
	for (; x; x &= x - 1)
		c++;
	return c;
}

#define NX_DETECT_LINES 64

struct nginx_fmt *nginx_fmt_detect(const char *const *lines, const size_t *lens, int n)
{
	char *cand[4 * NX_DETECT_LINES + 1];
	int nc = 0, used = 0;
	struct nginx_fmt *comb = nginx_fmt_combined();
	if (!comb || !lines || !lens || n <= 0) {
		nginx_fmt_free(comb);
		return NULL;
	}
	cand[nc++] = strdup(NX_COMBINED);
	for (int i = 0; i < n && used < NX_DETECT_LINES; i++) {
		const char *s = lines[i];
		size_t len = lens[i];
		struct nx_val vals[NX_MAX_VARS];
		struct nx_fail fail = {0, F_NONE, -1};
		size_t end;
		if (!s || len == 0)
			continue;
		used++;
		/* combined followed by more fields */
		bool none = false;
		if (nx_match(comb, s, len, true, &end, vals, &fail) && end < len) {
			struct sbuf b = {0};
			sb_puts(&b, "escape=none ");
			sb_puts(&b, NX_COMBINED);
			if (derive_fields(s, len, end, true, &b, &none) && b.p)
				cand[nc++] = strdup(b.p + (none ? 0 : 12));
			free(b.p);
		}
		/* any other layout of tokens and key=value pairs ($msec first, ...);
		 * a known variable written as "" means escape=none */
		struct sbuf g = {0};
		none = false;
		sb_puts(&g, "escape=none ");
		if (derive_fields(s, len, 0, false, &g, &none) && g.p)
			cand[nc++] = strdup(g.p + (none ? 0 : 12));
		free(g.p);
		/* fields joined by tabs or '|' */
		char sep = memchr(s, '\t', len) ? '\t' : '|';
		struct sbuf t = {0};
		if (memchr(s, sep, len) && derive_sep(s, len, sep, &t) && t.p)
			cand[nc++] = t.p;
		else
			free(t.p);
		struct sbuf j = {0};
		if (derive_json(s, len, &j) && j.p)
			cand[nc++] = j.p;
		else
			free(j.p);
	}
	nginx_fmt_free(comb);

	struct nginx_fmt *best = NULL;
	int best_hits = 0, nonempty = 0;
	for (int i = 0; i < n; i++)
		if (lines[i] && lens[i] > 0)
			nonempty++;
	for (int c = 0; c < nc; c++) {
		if (!cand[c])
			continue;
		bool dup = false;
		for (int d = 0; d < c && !dup; d++)
			dup = cand[d] && strcmp(cand[d], cand[c]) == 0;
		struct nginx_fmt *f = dup ? NULL : nginx_fmt_compile(cand[c], strlen(cand[c]), NULL, 0);
		if (!f)
			continue;
		/* an access log has a status and a time; without them any text would
		 * "parse" as a row of unknown variables */
		if ((f->fields & (NGINX_F_STATUS | NGINX_F_TIME)) != (NGINX_F_STATUS | NGINX_F_TIME)) {
			nginx_fmt_free(f);
			continue;
		}
		int hits = 0;
		for (int i = 0; i < n; i++) {
			struct event ev;
			if (lines[i] && lens[i] > 0 && nginx_parse_line(f, lines[i], lens[i], &ev, NULL))
				hits++;
		}
		/* ties: more fields known, then the earlier (combined, combined + fields) */
		if (hits > best_hits ||
		    (hits == best_hits && best && popcount(f->fields) > popcount(best->fields))) {
			nginx_fmt_free(best);
			best = f;
			best_hits = hits;
		} else {
			nginx_fmt_free(f);
		}
	}
	for (int c = 0; c < nc; c++)
		free(cand[c]);
	if (best && best_hits * 2 <= nonempty) {
		nginx_fmt_free(best);
		best = NULL;
	}
	return best;
}
