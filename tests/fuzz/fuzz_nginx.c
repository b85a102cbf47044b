/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_nginx.c — libFuzzer target for core/nginx.c and core/nginx_conf.c.
 *
 * One input is used three ways:
 *   - as an nginx configuration (nginx_conf_parse_mem, includes not followed),
 *     with no name and with the name "lab"; a format found is compiled;
 *   - its first line as a log_format string, the other lines as access log
 *     lines parsed with it (failures described, as verbose mode would);
 *   - the other lines handed to nginx_fmt_detect, and parsed with what it finds.
 * Besides the sanitizers, the event invariants the rest of stwtop relies on are
 * checked (a violation traps), and that nginx_parse_line (its greedy fast
 * path) and nginx_parse_line_full (the backtracking matcher alone) agree.
 * Seeds: tests/fuzz/seeds/fuzz_nginx/.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stwtop/nginx.h"

#define MAX_LINES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_event(const struct event *ev)
{
	const struct ev_http *h = &ev->u.http;
	if (ev->kind != EV_HTTP)
		__builtin_trap();
	if (memchr(h->rid, '\0', sizeof h->rid) == NULL)
		__builtin_trap();
	if (h->uct_dash && !(h->uct_ms == -1 && h->uct_n > 0))
		__builtin_trap();
	if (h->uct_n == 0 && (h->uct_ms != -1 || h->uct_dash))
		__builtin_trap();
	if ((h->uct_ms < 0 && h->uct_ms != -1) || (h->rt_ms < 0 && h->rt_ms != -1) ||
	    (h->uht_ms < 0 && h->uht_ms != -1) || (h->urt_ms < 0 && h->urt_ms != -1))
		__builtin_trap();
	if (h->status < -1 || h->status > 999 || h->t_exact > 1)
		__builtin_trap();
	if (h->t_exact && ev->t_ms == EV_TIME_NONE)
		__builtin_trap();
}

/* the fast path and the matcher alone say the same about a line */
static void check_same(const struct event *a, const struct nginx_miss *ma, bool ra,
		       const struct event *b, const struct nginx_miss *mb, bool rb)
{
	const struct ev_http *x = &a->u.http, *y = &b->u.http;
	if (ra != rb)
		__builtin_trap();
	if (!ra) {
		if (ma->offset != mb->offset || strcmp(ma->expected, mb->expected) != 0)
			__builtin_trap();
		return;
	}
	if (a->t_ms != b->t_ms || x->status != y->status || x->upstream_status != y->upstream_status ||
	    x->uct_n != y->uct_n || x->uct_dash != y->uct_dash || x->rt_ms != y->rt_ms ||
	    x->uct_ms != y->uct_ms || x->uht_ms != y->uht_ms || x->urt_ms != y->urt_ms ||
	    x->t_exact != y->t_exact || strcmp(x->rid, y->rid) != 0)
		__builtin_trap();
}

static void parse_all(const struct nginx_fmt *f, const char *const *l, const size_t *n, int cnt)
{
	for (int i = 0; i < cnt; i++) {
		struct event ev, full;
		struct nginx_miss m, mf;
		char msg[200];
		bool ok = nginx_parse_line(f, l[i], n[i], &ev, &m);
		check_same(&ev, &m, ok, &full, &mf, nginx_parse_line_full(f, l[i], n[i], &full, &mf));
		if (ok) {
			check_event(&ev);
		} else {
			if (m.offset > n[i] || memchr(m.expected, '\0', sizeof m.expected) == NULL)
				__builtin_trap();
			nginx_miss_describe(&m, l[i], n[i], msg, sizeof msg);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	char err[256], desc[512];
	const char *lines[MAX_LINES];
	size_t lens[MAX_LINES];
	int cnt = 0;

	for (int pass = 0; pass < 2; pass++) {
		char *fmt = nginx_conf_parse_mem(s, size, "fuzz.conf", NULL, pass ? "lab" : NULL, err,
						 sizeof err);
		if (fmt) {
			struct nginx_fmt *f = nginx_fmt_compile(fmt, strlen(fmt), err, sizeof err);
			nginx_fmt_free(f);
			free(fmt);
		} else if (memchr(err, '\0', sizeof err) == NULL) {
			__builtin_trap();
		}
	}

	const char *nl = memchr(s, '\n', size);
	size_t flen = nl ? (size_t)(nl - s) : size;
	size_t p = nl ? flen + 1 : size;
	while (p < size && cnt < MAX_LINES) {
		const char *e = memchr(s + p, '\n', size - p);
		size_t len = e ? (size_t)(e - (s + p)) : size - p;
		lines[cnt] = s + p;
		lens[cnt] = len;
		cnt++;
		p += len + 1;
	}

	struct nginx_fmt *f = nginx_fmt_compile(s, flen, err, sizeof err);
	if (f) {
		nginx_fmt_describe(f, desc, sizeof desc);
		if (strlen(nginx_fmt_string(f)) > flen)
			__builtin_trap();
		parse_all(f, lines, lens, cnt);
		nginx_fmt_free(f);
	}

	struct nginx_fmt *d = nginx_fmt_detect(lines, lens, cnt);
	if (d) {
		/* what detection returns must compile from its own string */
		const char *ds = nginx_fmt_string(d);
		struct nginx_fmt *again = nginx_fmt_compile(ds, strlen(ds), err, sizeof err);
		if (!again)
			__builtin_trap();
		nginx_fmt_free(again);
		parse_all(d, lines, lens, cnt);
		nginx_fmt_free(d);
	}
	return 0;
}
