/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_nginx.c — the nginx access log parser on real logs: the samples (counts
 * from their READMEs), logs written by a real nginx 1.22 with our own formats
 * (the committed fixture, and a fresh run of tests/fixtures/nginx/run-nginx.sh
 * when nginx and curl are installed), the config reader, format detection and
 * the first-failure messages. Tests on made-up lines are named "synthetic". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "stwtop/nginx.h"
#include "stwtop/util.h"

#define SAMPLES STWTOP_TEST_DIR "/samples"
#define FIXTURE STWTOP_TEST_DIR "/fixtures/nginx"

static const char LAB[] = "$msec $request_id $status uct=$upstream_connect_time "
			  "uht=$upstream_header_time urt=$upstream_response_time rt=$request_time";

/* ------------------------------------------------------------ helpers */

struct lines {
	char *buf;
	char **l;
	size_t *n;
	int count;
};

static void lines_read(struct lines *ls, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open %s", path);
	fseek(fp, 0, SEEK_END);
	long sz = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	ls->buf = malloc((size_t)sz + 1);
	assert_non_null(ls->buf);
	assert_int_equal(fread(ls->buf, 1, (size_t)sz, fp), (size_t)sz);
	fclose(fp);
	ls->buf[sz] = '\0';
	int cap = 1024;
	ls->l = malloc(sizeof *ls->l * (size_t)cap);
	ls->n = malloc(sizeof *ls->n * (size_t)cap);
	ls->count = 0;
	char *p = ls->buf, *end = ls->buf + sz;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (ls->count == cap) {
			cap *= 2;
			ls->l = realloc(ls->l, sizeof *ls->l * (size_t)cap);
			ls->n = realloc(ls->n, sizeof *ls->n * (size_t)cap);
		}
		ls->l[ls->count] = p;
		ls->n[ls->count] = len;
		ls->count++;
		p += len + 1;
	}
}

static void lines_free(struct lines *ls)
{
	free(ls->buf);
	free(ls->l);
	free(ls->n);
}

struct counts {
	long lines, parsed;
	long st[600];
	long bucket[5], dash;
	int64_t t_min, t_max;
	double rt_max;
	double b_min[5], b_max[5];
};

/* uct bucket as DESIGN.md says: nearest second of the sum, 4+ together, "-" not bucketed */
static void count_file(const struct nginx_fmt *f, const char *path, struct counts *c)
{
	struct lines ls;
	memset(c, 0, sizeof *c);
	c->t_min = INT64_MAX;
	c->t_max = INT64_MIN;
	for (int i = 0; i < 5; i++) {
		c->b_min[i] = 1e18;
		c->b_max[i] = -1;
	}
	lines_read(&ls, path);
	for (int i = 0; i < ls.count; i++) {
		struct event ev;
		struct nginx_miss m;
		c->lines++;
		if (!nginx_parse_line(f, ls.l[i], ls.n[i], &ev, &m)) {
			char d[256];
			nginx_miss_describe(&m, ls.l[i], ls.n[i], d, sizeof d);
			print_message("%s:%d: %s\n", path, i + 1, d);
			continue;
		}
		const struct ev_http *h = &ev.u.http;
		assert_int_equal(ev.kind, EV_HTTP);
		c->parsed++;
		if (h->status >= 0 && h->status < 600)
			c->st[h->status]++;
		if (ev.t_ms < c->t_min)
			c->t_min = ev.t_ms;
		if (ev.t_ms > c->t_max)
			c->t_max = ev.t_ms;
		if (h->rt_ms > c->rt_max)
			c->rt_max = h->rt_ms;
		if (h->uct_dash) {
			assert_true(h->uct_ms == -1);
			c->dash++;
		} else if (h->uct_n > 0) {
			long b = ((long)h->uct_ms + 500) / 1000;
			if (b > 4)
				b = 4;
			c->bucket[b]++;
			if (h->uct_ms < c->b_min[b])
				c->b_min[b] = h->uct_ms;
			if (h->uct_ms > c->b_max[b])
				c->b_max[b] = h->uct_ms;
		}
	}
	lines_free(&ls);
}

static struct nginx_fmt *compile_str(const char *s)
{
	char err[256];
	struct nginx_fmt *f = nginx_fmt_compile(s, strlen(s), err, sizeof err);
	if (!f)
		fail_msg("compile %s: %s", s, err);
	return f;
}

static struct nginx_fmt *compile_conf(const char *path, const char *name)
{
	char err[512];
	char *s = nginx_conf_load(path, name, err, sizeof err);
	if (!s)
		fail_msg("nginx_conf_load %s:%s: %s", path, name ? name : "", err);
	struct nginx_fmt *f = compile_str(s);
	free(s);
	return f;
}

static void expect_counts(const struct counts *c, long lines, long s200, long s504,
			  const long b[5], long dash)
{
	assert_int_equal(c->lines, lines);
	assert_int_equal(c->parsed, lines); /* 0 unparsed */
	assert_int_equal(c->st[200], s200);
	assert_int_equal(c->st[504], s504);
	for (int i = 0; i < 5; i++)
		assert_int_equal(c->bucket[i], b[i]);
	assert_int_equal(c->dash, dash);
}

/* ------------------------------------------------------------ the samples */

static void test_sample_backlog100(void **state)
{
	(void)state;
	struct counts c;
	struct nginx_fmt *f = compile_conf(SAMPLES "/nginx-uct/backlog100/nginx.conf", "ops");
	count_file(f, SAMPLES "/nginx-uct/backlog100/logs/access.log", &c);
	expect_counts(&c, 3600, 3600, 0, (const long[]){3101, 302, 197, 0, 0}, 0);
	/* README: bucket ranges 0: 0.000-0.002, 1: 1.001-1.036, 2: 2.025-2.061 s; max rt 2.061 s;
	 * time_local from 19:13:18 to 19:13:30 (second resolution) */
	assert_true(c.b_min[0] == 0 && c.b_max[0] == 2);
	assert_true(c.b_min[1] == 1001 && c.b_max[1] == 1036);
	assert_true(c.b_min[2] == 2025 && c.b_max[2] == 2061);
	assert_true(c.rt_max == 2061);
	assert_int_equal(c.t_min, util_utc_ms(2026, 11, 29, 19, 13, 18, 0));
	assert_int_equal(c.t_max, util_utc_ms(2026, 11, 29, 19, 13, 30, 0));
	nginx_fmt_free(f);
}

static void test_sample_connect_timeout(void **state)
{
	(void)state;
	struct counts c;
	struct nginx_fmt *f = compile_conf(SAMPLES "/nginx-uct/connect-timeout/nginx.conf", "ops");
	count_file(f, SAMPLES "/nginx-uct/connect-timeout/logs/access.log", &c);
	expect_counts(&c, 3600, 3101, 499, (const long[]){3101, 0, 0, 0, 0}, 499);
	assert_true(c.rt_max == 2000);
	assert_true(c.b_max[0] == 2);
	nginx_fmt_free(f);
}

static void test_sample_backlog1024(void **state)
{
	(void)state;
	struct counts c;
	struct nginx_fmt *f = compile_conf(SAMPLES "/nginx-uct/backlog1024/nginx.conf", "ops");
	count_file(f, SAMPLES "/nginx-uct/backlog1024/logs/access.log", &c);
	expect_counts(&c, 3600, 3600, 0, (const long[]){3600, 0, 0, 0, 0}, 0);
	assert_true(c.b_max[0] == 5 && c.rt_max == 2000);
	nginx_fmt_free(f);
}

static void test_sample_gc_stop(void **state)
{
	(void)state;
	struct counts c;
	struct nginx_fmt *f = compile_str(LAB);
	count_file(f, SAMPLES "/combined/gc-stop/logs/access.log", &c);
	expect_counts(&c, 10031, 10031, 0, (const long[]){9341, 252, 260, 178, 0}, 0);
	nginx_fmt_free(f);
	/* the same format read from the recording's own nginx.conf */
	f = compile_conf(SAMPLES "/combined/gc-stop/nginx.conf", NULL);
	assert_string_equal(nginx_fmt_string(f), LAB);
	nginx_fmt_free(f);
	/* as --nginx-conf FILE[:NAME] gives it */
	char err[256], *s = nginx_conf_load_spec(SAMPLES "/combined/gc-stop/nginx.conf:lab", err,
						 sizeof err);
	assert_non_null(s);
	assert_string_equal(s, LAB);
	free(s);
	s = nginx_conf_load_spec(SAMPLES "/combined/gc-stop/nginx.conf", err, sizeof err);
	assert_non_null(s);
	free(s);
	assert_null(nginx_conf_load_spec(SAMPLES "/combined/gc-stop/nginx.conf:ops", err, sizeof err));
	assert_true(strstr(err, "no log_format \"ops\" (found: lab)") != NULL);
}

static void test_sample_throttle_stop(void **state)
{
	(void)state;
	struct counts c;
	struct nginx_fmt *f = compile_str(LAB);
	count_file(f, SAMPLES "/combined/throttle-stop/logs/access.log", &c);
	expect_counts(&c, 9943, 9943, 0, (const long[]){9701, 207, 35, 0, 0}, 0);
	/* README: uct ranges 0: 0.000..0.008, 1: 1.001..1.036, 2: 2.025..2.056; max rt 2.792 s */
	assert_true(c.b_max[0] == 8 && c.b_min[1] == 1001 && c.b_max[1] == 1036);
	assert_true(c.b_min[2] == 2025 && c.b_max[2] == 2056);
	assert_true(c.rt_max == 2792);
	nginx_fmt_free(f);
}

/* the real lines quoted in the samples' READMEs, field by field */
static void test_sample_lines_fields(void **state)
{
	(void)state;
	struct event ev;
	struct nginx_fmt *lab = compile_str(LAB);
	const char *l1 = "1795980173.534 8a0d4d54ffff2a5838329b48ad9c6fb9 200 uct=0.000 uht=0.089 "
			 "urt=0.090 rt=0.091";
	assert_true(nginx_parse_line(lab, l1, strlen(l1), &ev, NULL));
	assert_int_equal(ev.t_ms, 1795980173534LL);
	assert_int_equal(ev.u.http.t_exact, 1);
	assert_int_equal(ev.u.http.status, 200);
	assert_true(ev.u.http.uct_ms == 0 && ev.u.http.uct_n == 1 && !ev.u.http.uct_dash);
	assert_true(ev.u.http.uht_ms == 89 && ev.u.http.urt_ms == 90 && ev.u.http.rt_ms == 91);
	assert_int_equal(ev.u.http.upstream_status, -1); /* not in the format */
	assert_string_equal(ev.u.http.rid, "8a0d4d54ffff2a5838329b48ad9c6fb9");
	const char *l2 = "1792402370.464 cfdd11ce0000000000000000000000ff 200 uct=2.067 uht=2.067 "
			 "urt=2.067 rt=2.068";
	assert_true(nginx_parse_line(lab, l2, strlen(l2), &ev, NULL));
	assert_true(ev.u.http.uct_ms == 2067 && ev.u.http.rt_ms == 2068);
	nginx_fmt_free(lab);

	struct nginx_fmt *ops = compile_conf(SAMPLES "/nginx-uct/connect-timeout/nginx.conf", "ops");
	const char *l3 = "127.0.0.1 - - [29/Nov/2026:19:13:49 +0000] \"GET /req/1301 HTTP/1.1\" 504 167 "
			 "\"-\" \"loadgen.py/1.0\" rt=1.000 uct=\"-\" uht=\"-\" urt=\"1.000\" "
			 "rid=1bce91672a970c4b2773bb84fe01c24d";
	assert_true(nginx_parse_line(ops, l3, strlen(l3), &ev, NULL));
	assert_int_equal(ev.t_ms, util_utc_ms(2026, 11, 29, 19, 13, 49, 0));
	assert_int_equal(ev.u.http.t_exact, 0);
	assert_int_equal(ev.u.http.status, 504);
	assert_true(ev.u.http.uct_dash == 1 && ev.u.http.uct_n == 1 && ev.u.http.uct_ms == -1);
	assert_true(ev.u.http.uht_ms == -1 && ev.u.http.urt_ms == 1000 && ev.u.http.rt_ms == 1000);
	assert_string_equal(ev.u.http.rid, "1bce91672a970c4b2773bb84fe01c24d");
	nginx_fmt_free(ops);
}

/* ------------------------------------------------------------ detection */

static void detect_file(const char *path, int nsample, struct nginx_fmt **out)
{
	struct lines ls;
	lines_read(&ls, path);
	int n = ls.count < nsample ? ls.count : nsample;
	*out = nginx_fmt_detect((const char *const *)ls.l, ls.n, n);
	lines_free(&ls);
}

static void test_detect_samples(void **state)
{
	(void)state;
	struct nginx_fmt *f;
	struct counts c;
	/* the $msec layout of combined/: the detected format is the lab format itself */
	detect_file(SAMPLES "/combined/gc-stop/logs/access.log", 20, &f);
	assert_non_null(f);
	assert_string_equal(nginx_fmt_string(f), LAB);
	nginx_fmt_free(f);
	detect_file(SAMPLES "/combined/throttle-stop/logs/access.log", 20, &f);
	assert_non_null(f);
	count_file(f, SAMPLES "/combined/throttle-stop/logs/access.log", &c);
	expect_counts(&c, 9943, 9943, 0, (const long[]){9701, 207, 35, 0, 0}, 0);
	nginx_fmt_free(f);
	/* combined + key="value" timings: no config needed for the same counts */
	detect_file(SAMPLES "/nginx-uct/connect-timeout/logs/access.log", 20, &f);
	assert_non_null(f);
	unsigned want = NGINX_F_TIME | NGINX_F_STATUS | NGINX_F_RT | NGINX_F_UCT | NGINX_F_UHT |
			NGINX_F_URT | NGINX_F_RID;
	assert_int_equal(nginx_fmt_fields(f) & want, want);
	count_file(f, SAMPLES "/nginx-uct/connect-timeout/logs/access.log", &c);
	expect_counts(&c, 3600, 3101, 499, (const long[]){3101, 0, 0, 0, 0}, 499);
	nginx_fmt_free(f);
	detect_file(SAMPLES "/nginx-uct/backlog100/logs/access.log", 20, &f);
	assert_non_null(f);
	count_file(f, SAMPLES "/nginx-uct/backlog100/logs/access.log", &c);
	expect_counts(&c, 3600, 3600, 0, (const long[]){3101, 302, 197, 0, 0}, 0);
	nginx_fmt_free(f);
}

static void test_detect_real_nginx(void **state)
{
	(void)state;
	struct nginx_fmt *f, *comb = nginx_fmt_combined();
	struct counts c;
	/* nginx's own "combined" (the Debian "main" is the same string) */
	detect_file(FIXTURE "/logs/access_combined.log", 20, &f);
	assert_non_null(f);
	assert_string_equal(nginx_fmt_string(f), nginx_fmt_string(comb));
	count_file(f, FIXTURE "/logs/access_combined.log", &c);
	assert_int_equal(c.parsed, 43);
	nginx_fmt_free(f);
	/* a layout it was never told about: ISO time, $msec, key=value lists */
	detect_file(FIXTURE "/logs/access.log", 20, &f);
	assert_non_null(f);
	unsigned want = NGINX_F_TIME_EXACT | NGINX_F_STATUS | NGINX_F_RT | NGINX_F_UCT |
			NGINX_F_USTATUS | NGINX_F_RID;
	assert_int_equal(nginx_fmt_fields(f) & want, want);
	count_file(f, FIXTURE "/logs/access.log", &c);
	assert_int_equal(c.parsed, 43);
	nginx_fmt_free(f);
	nginx_fmt_free(comb);
}

static void test_detect_nothing_synthetic(void **state)
{
	(void)state;
	const char *l[] = {"hello world", "\"unbalanced quote", "", "$dollar"};
	size_t n[] = {11, 17, 0, 7};
	struct nginx_fmt *f = nginx_fmt_detect(l, n, 4);
	/* "hello world" would fit a two-token layout, but not most of the lines */
	assert_null(f);
	assert_null(nginx_fmt_detect(NULL, NULL, 0));
}

/* ------------------------------------------------------------ real nginx output */

struct req {
	char name[32];
	int code;
	char rid[40];
	int64_t before, after;
};

static int read_requests(const char *path, struct req *r, int max)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	int n = 0;
	assert_non_null(fp);
	while (n < max && fgets(line, sizeof line, fp)) {
		long long b, a;
		int idx;
		/* our own test data, not a log line: sscanf is fine here */
		if (sscanf(line, "%d\t%31s\t%d\t%39s\t%lld\t%lld", &idx, r[n].name, &r[n].code,
			   r[n].rid, &b, &a) != 6)
			fail_msg("bad requests.tsv line: %s", line);
		assert_int_equal(idx, n + 1);
		r[n].before = b;
		r[n].after = a;
		n++;
	}
	fclose(fp);
	return n;
}

static const struct req *find_req(const struct req *r, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	fail_msg("no request %s", name);
	return NULL;
}

/* Every line of both logs parses, with what curl saw; the two formats agree. */
static void check_real_run(const char *dir)
{
	char path[512], cpath[512];
	struct req r[128];
	struct lines plain, json;
	snprintf(path, sizeof path, "%s/requests.tsv", dir);
	int nr = read_requests(path, r, 128);
	assert_true(nr >= 40);
	snprintf(cpath, sizeof cpath, "%s/nginx.conf", dir);
	struct nginx_fmt *fp = compile_conf(cpath, "probe");
	struct nginx_fmt *fj = compile_conf(cpath, "probe_json");
	assert_true(strncmp(nginx_fmt_string(fj), "escape=json ", 12) == 0);
	snprintf(path, sizeof path, "%s/logs/access.log", dir);
	lines_read(&plain, path);
	snprintf(path, sizeof path, "%s/logs/access_json.log", dir);
	lines_read(&json, path);
	assert_int_equal(plain.count, nr);
	assert_int_equal(json.count, nr);
	for (int i = 0; i < nr; i++) {
		struct event a, b;
		struct nginx_miss m;
		char d[256];
		if (!nginx_parse_line(fp, plain.l[i], plain.n[i], &a, &m)) {
			nginx_miss_describe(&m, plain.l[i], plain.n[i], d, sizeof d);
			fail_msg("access.log:%d (%s): %s", i + 1, r[i].name, d);
		}
		if (!nginx_parse_line(fj, json.l[i], json.n[i], &b, &m)) {
			nginx_miss_describe(&m, json.l[i], json.n[i], d, sizeof d);
			fail_msg("access_json.log:%d (%s): %s", i + 1, r[i].name, d);
		}
		assert_int_equal(a.u.http.status, r[i].code);
		assert_string_equal(a.u.http.rid, r[i].rid);
		/* $msec is the end of the request: inside the curl call */
		assert_int_equal(a.u.http.t_exact, 1);
		assert_in_range(a.t_ms, r[i].before, r[i].after);
		/* the json line of the same request says the same */
		assert_int_equal(b.t_ms, a.t_ms);
		assert_int_equal(b.u.http.status, a.u.http.status);
		assert_string_equal(b.u.http.rid, a.u.http.rid);
		assert_true(b.u.http.rt_ms == a.u.http.rt_ms);
		assert_int_equal(b.u.http.upstream_status, a.u.http.upstream_status);
		/* $request and the server that answered ($upstream_addr's last entry),
		 * as the line has them: "GET /live/plain HTTP/1.1" ... ups=127.0.0.1:57077 */
		const char *rq = util_memmem(plain.l[i], plain.n[i], " \"");
		assert_non_null(rq);
		assert_true(strncmp(a.u.http.request, rq + 2, strlen(a.u.http.request)) == 0 &&
			    rq[2 + strlen(a.u.http.request)] == '"');
		if (!strchr(a.u.http.request, '\\')) /* kept as logged: \x22 here, \" in json */
			assert_string_equal(b.u.http.request, a.u.http.request);
		const char *ups = util_memmem(plain.l[i], plain.n[i], " ups=");
		assert_non_null(ups);
		if (a.u.http.upstream[0]) {
			/* the last of "a, b : c" */
			const char *end = util_memmem(ups, (size_t)(plain.l[i] + plain.n[i] - ups), " rid=");
			assert_non_null(end);
			size_t ul = strlen(a.u.http.upstream);
			assert_true(ul > 0 && (size_t)(end - ups) >= ul && memcmp(end - ul, a.u.http.upstream, ul) == 0);
			assert_string_equal(b.u.http.upstream, a.u.http.upstream);
		} else {
			assert_true(strncmp(ups, " ups=- ", 7) == 0); /* no server was tried */
		}
		if (a.u.http.upstream_status >= 0) { /* json writes "" where default writes "-" */
			assert_true(b.u.http.uct_ms == a.u.http.uct_ms);
			assert_int_equal(b.u.http.uct_n, a.u.http.uct_n);
			assert_int_equal(b.u.http.uct_dash, a.u.http.uct_dash);
			assert_true(b.u.http.uht_ms == a.u.http.uht_ms);
			assert_true(b.u.http.urt_ms == a.u.http.urt_ms);
		} else {
			assert_int_equal(a.u.http.uct_n, 1); /* "-" */
			assert_int_equal(a.u.http.uct_dash, 1);
			assert_int_equal(b.u.http.uct_n, 0); /* "" */
		}
		const char *nm = r[i].name;
		if (strncmp(nm, "live-", 5) == 0 && r[i].code == 200) {
			assert_int_equal(a.u.http.upstream_status, 200);
			assert_int_equal(a.u.http.uct_n, 1);
			assert_true(a.u.http.uct_ms >= 0 && a.u.http.uct_ms < 1000);
		}
		if (strncmp(nm, "dead-", 5) == 0) {
			/* two refused connects: uct="-, -", urt="0.000, 0.000", us="502, 502" */
			assert_int_equal(a.u.http.upstream_status, 502);
			assert_int_equal(a.u.http.uct_n, 2);
			assert_int_equal(a.u.http.uct_dash, 1);
			assert_true(a.u.http.uht_ms == -1 && a.u.http.urt_ms >= 0);
		}
		if (strncmp(nm, "redirect-", 9) == 0) {
			/* "-, - : 0.000": two refused tries, then the fallback group */
			assert_int_equal(a.u.http.uct_n, 3);
			assert_int_equal(a.u.http.uct_dash, 0);
			assert_int_equal(a.u.http.upstream_status, 200);
		}
	}
	const struct req *m1 = find_req(r, nr, "mixed-1");
	struct event ev;
	assert_true(nginx_parse_line(fp, plain.l[m1 - r], plain.n[m1 - r], &ev, NULL));
	assert_int_equal(ev.u.http.uct_n, 2); /* "-, 0.001": the dead port, then the live one */
	assert_int_equal(ev.u.http.uct_dash, 0);
	assert_int_equal(ev.u.http.upstream_status, 200);
	lines_free(&plain);
	lines_free(&json);
	nginx_fmt_free(fp);
	nginx_fmt_free(fj);
}

static void test_real_nginx_fixture(void **state)
{
	(void)state;
	check_real_run(FIXTURE);
	/* the agents survive the escaping: the fake timings inside one stay in the agent */
	struct lines ls;
	lines_read(&ls, FIXTURE "/logs/access.log");
	assert_non_null(util_memmem(ls.l[1], ls.n[1], "agent=\"quote\\x22in\\x22ua x\\x22 rt=9.999"));
	lines_free(&ls);
}

static void test_real_nginx_live(void **state)
{
	(void)state;
	char dir[] = "/tmp/stwtop-nginx-XXXXXX", cmd[1024];
	if (!mkdtemp(dir))
		fail_msg("mkdtemp failed");
	snprintf(cmd, sizeof cmd, "bash '%s/run-nginx.sh' '%s' >'%s/run.out' 2>&1", FIXTURE, dir,
		 dir);
	int st = system(cmd);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			print_message("could not remove %s\n", dir);
		skip(); /* nginx or curl not installed */
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(cmd, sizeof cmd, "cat '%s/run.out' '%s/logs/error.log' >&2", dir, dir);
		if (system(cmd) != 0)
			print_message("(no output)\n");
		fail_msg("run-nginx.sh failed (status %d), output kept in %s", st, dir);
	}
	check_real_run(dir);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* ------------------------------------------------------------ lists, escapes (synthetic) */

static void test_upstream_lists_synthetic(void **state)
{
	(void)state;
	struct event ev;
	struct nginx_fmt *f = compile_str("$status uct=\"$upstream_connect_time\" "
					  "us=\"$upstream_status\" ups=$upstream_addr end");
	const char *a = "200 uct=\"0.001, 3.002 : 0.000\" us=\"502, 504 : 200\" "
			"ups=10.0.0.1:80, 10.0.0.2:80 : unix:/run/app.sock end";
	assert_true(nginx_parse_line(f, a, strlen(a), &ev, NULL));
	assert_true(ev.u.http.uct_ms == 3003);
	assert_int_equal(ev.u.http.uct_n, 3);
	assert_int_equal(ev.u.http.uct_dash, 0);
	assert_int_equal(ev.u.http.upstream_status, 200);
	assert_string_equal(ev.u.http.upstream, "unix:/run/app.sock");   /* the one that answered */
	const char *b = "502 uct=\"0.001 : \" us=\"502 : \" ups=backend end";
	assert_true(nginx_parse_line(f, b, strlen(b), &ev, NULL));
	assert_true(ev.u.http.uct_ms == 1 && ev.u.http.uct_n == 1);
	const char *c = "504 uct=\"-\" us=\"504\" ups=10.0.0.1:80 end";
	assert_true(nginx_parse_line(f, c, strlen(c), &ev, NULL));
	assert_string_equal(ev.u.http.upstream, "10.0.0.1:80");
	assert_true(ev.u.http.uct_dash == 1 && ev.u.http.uct_ms == -1 && ev.u.http.uct_n == 1);
	/* not numbers */
	const char *d = "200 uct=\"fast\" us=\"200\" ups=x end";
	struct nginx_miss m;
	assert_false(nginx_parse_line(f, d, strlen(d), &ev, &m));
	assert_string_equal(m.expected, "variable $upstream_connect_time expects seconds or -");
	assert_int_equal(m.offset, 9);
	nginx_fmt_free(f);
}

static void test_escape_modes_synthetic(void **state)
{
	(void)state;
	struct event ev;
	/* escape=none: the agent may hold the closing literal; the split still comes out right */
	struct nginx_fmt *f = compile_str("escape=none \"$http_user_agent\" $status \"$request\" "
					  "rt=$request_time");
	const char *a = "\"evil\" x\" 200 \"GET / \"HTTP/1.1\" rt=0.120";
	assert_true(nginx_parse_line(f, a, strlen(a), &ev, NULL));
	assert_int_equal(ev.u.http.status, 200);
	assert_true(ev.u.http.rt_ms == 120);
	nginx_fmt_free(f);
	/* default escaping: a raw quote cannot be inside a value, so this line is not ours */
	f = compile_str("\"$http_user_agent\" $status");
	const char *b = "\"a\"b\" 200";
	assert_false(nginx_parse_line(f, b, strlen(b), &ev, NULL));
	nginx_fmt_free(f);
	/* ${name} and adjacent variables: a free variable before a shaped one */
	f = compile_str("${remote_addr}${request_time}|${status}");
	const char *c = "10.1.2.30.250|404";
	assert_true(nginx_parse_line(f, c, strlen(c), &ev, NULL));
	assert_int_equal(ev.u.http.status, 404);
	nginx_fmt_free(f);
	/* $time_iso8601 with an offset; $time_local with one */
	f = compile_str("$time_iso8601|$time_local|$status");
	const char *d = "2026-11-30T03:13:18+08:00|29/Nov/2026:19:13:18 +0000|200";
	assert_true(nginx_parse_line(f, d, strlen(d), &ev, NULL));
	assert_int_equal(ev.t_ms, util_utc_ms(2026, 11, 29, 19, 13, 18, 0));
	assert_int_equal(ev.u.http.t_exact, 0);
	nginx_fmt_free(f);
}

/* ------------------------------------------------------------ fast path = matcher */

/* nginx_parse_line (a greedy walk, the matcher when the walk fails) and
 * nginx_parse_line_full (the matcher alone) agree on a line: the same answer,
 * the same fields, or the same failure at the same byte. */
static bool expect_same(const struct nginx_fmt *f, const char *s, size_t n)
{
	struct event a, b;
	struct nginx_miss ma, mb;
	bool ra = nginx_parse_line(f, s, n, &a, &ma);
	bool rb = nginx_parse_line_full(f, s, n, &b, &mb);
	const char *fs = nginx_fmt_string(f);
	if (ra != rb)
		fail_msg("fast %d, full %d: '%.*s' with '%s'", ra, rb, (int)n, s, fs);
	if (!ra) {
		if (ma.offset != mb.offset || strcmp(ma.expected, mb.expected) != 0)
			fail_msg("fast '%s' at %zu, full '%s' at %zu: '%.*s' with '%s'", ma.expected,
				 ma.offset, mb.expected, mb.offset, (int)n, s, fs);
		return false;
	}
	const struct ev_http *x = &a.u.http, *y = &b.u.http;
	if (a.kind != b.kind || a.t_ms != b.t_ms || a.up_us != b.up_us || x->status != y->status ||
	    x->upstream_status != y->upstream_status || x->uct_n != y->uct_n ||
	    x->uct_dash != y->uct_dash || x->rt_ms != y->rt_ms || x->uct_ms != y->uct_ms ||
	    x->uht_ms != y->uht_ms || x->urt_ms != y->urt_ms || x->t_exact != y->t_exact ||
	    strcmp(x->rid, y->rid) != 0)
		fail_msg("fields differ: t %lld/%lld st %d/%d rt %g/%g uct %g/%g n %d/%d "
			 "uht %g/%g urt %g/%g: '%.*s' with '%s'",
			 (long long)a.t_ms, (long long)b.t_ms, x->status, y->status, x->rt_ms,
			 y->rt_ms, x->uct_ms, y->uct_ms, x->uct_n, y->uct_n, x->uht_ms, y->uht_ms,
			 x->urt_ms, y->urt_ms, (int)n, s, fs);
	return true;
}

static const char OPS[] =
	"$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
	"\"$http_referer\" \"$http_user_agent\" rt=$request_time uct=\"$upstream_connect_time\" "
	"uht=\"$upstream_header_time\" urt=\"$upstream_response_time\" rid=$request_id";

/* lines where the first end of some variable is the wrong one, so the walk
 * fails and the matcher must backtrack; and every shape's odd values */
static void test_fast_path_tricky_synthetic(void **state)
{
	(void)state;
	static const struct {
		const char *fmt, *line;
		int match;
	} t[] = {
		/* the literal after an unquoted value also occurs inside it */
		{"$remote_user $status $request_time", "a b 200 0.001", 1},
		{"$remote_addr - $remote_user [$time_local] $status",
		 "10.0.0.1 - x - y [29/Nov/2026:19:13:18 +0000] 200", 1},
		{"$http_x_forwarded_for, $remote_addr $status", "1.1.1.1, 2.2.2.2, 3.3.3.3 404", 1},
		/* escape=none: the closing literal inside the agent */
		{"escape=none \"$http_user_agent\" $status \"$request\" rt=$request_time",
		 "\"evil\" x\" 200 \"GET / \"HTTP/1.1\" rt=0.120", 1},
		{"escape=none $http_user_agent|$status", "a|b|200", 1},
		/* escape=json: \" and \\ inside values, "" for a missing upstream */
		{"escape=json {\"ua\":\"$http_user_agent\",\"s\":$status,\"uct\":\"$upstream_connect_time\"}",
		 "{\"ua\":\"say \\\"hi\\\",\\\"s\\\":1\",\"s\":200,\"uct\":\"\"}", 1},
		{"escape=json {\"ua\":\"$http_user_agent\",\"s\":$status,\"uct\":\"$upstream_connect_time\"}",
		 "{\"ua\":\"x\\\\\",\"s\":502,\"uct\":\"0.001, 0.002 : 0.003\"}", 1},
		{"escape=json {\"ua\":\"$http_user_agent\",\"s\":$status}", "{\"ua\":\"a\"b\",\"s\":200}", 0},
		/* unquoted values of zero and one byte, one whose next byte starts a
		 * near miss of the literal, a quote where the literal should be */
		{"$remote_user - $status", " - 200", 1},
		{"$remote_user - $status", "a - 200", 1},
		{"$remote_user - $status", "a -x - 200", 1},
		{"$remote_user - $status", "a\" - 200", 0},
		{"$remote_user - $status", "\" - 200", 0},
		/* quoted values of zero, one and more bytes; a line ending inside one */
		{"\"$http_referer\" \"$http_user_agent\" $status", "\"\" \"a\" 200", 1},
		{"\"$http_referer\" \"$http_user_agent\" $status", "\"-\" \"\" 200", 1},
		{"\"$http_referer\" \"$http_user_agent\" $status", "\"-\" \"-", 0},
		{"\"$http_referer\" \"$http_user_agent\"", "\"-\" \"-\"", 1},
		/* upstream lists: several tries and groups, "-", a group with no try */
		{OPS, "1.2.3.4 - - [29/Nov/2026:19:13:18 +0000] \"GET / HTTP/1.1\" 502 0 \"-\" \"ua\" "
		      "rt=3.004 uct=\"0.001, 0.002 : 0.003\" uht=\"-, - : 0.003\" urt=\"1.000, 2.000 : 0.004\" "
		      "rid=0123456789abcdef0123456789ABCDEF", 1},
		{OPS, "1.2.3.4 - - [29/Nov/2026:19:13:18 +0000] \"GET / HTTP/1.1\" 502 0 \"-\" \"ua\" "
		      "rt=3.004 uct=\"-\" uht=\"-\" urt=\"0.001 : \" rid=0123456789abcdef0123456789abcdef", 1},
		{OPS, "1.2.3.4 - - [29/Nov/2026:19:13:18 +0000] \"GET / HTTP/1.1\" 200 0 \"-\" \"ua\" "
		      "rt=12.5 uct=\"\" uht=\"0.1\" urt=\"10.25\" rid=0123456789abcdef0123456789abcdef", 0},
		/* the longest list is not followed by the literal: a shorter one is */
		{"uct=$upstream_connect_time, $status", "uct=0.001, 0.002, 200", 1},
		{"$upstream_connect_time $upstream_header_time $status", "0.001 0.002 200", 1},
		{"$upstream_connect_time $upstream_header_time $status", "0.001 : 0.002 0.003 200", 1},
		{"$upstream_connect_time$status", "0.001, -200", 1},
		{"$upstream_connect_time$status", "-200", 1},
		{"$upstream_connect_time,$status", "0.001, 0.002,200", 1},
		{"$upstream_status|$upstream_addr|$status", "502, 200|10.0.0.1:80, unix:/s|200", 1},
		/* adjacent variables: the empty first value is wrong */
		{"${remote_addr}${request_time}|${status}", "10.1.2.30.250|404", 1},
		{"$msec$status", "1795980222.372200", 0},
		{"$status$request_time", "2000.5", 1},
		/* times: seconds with 1-9 decimals, never none (nginx writes "%T.%03M":
		 * "rt=10" is a line cut mid-write), long and odd $msec */
		{LAB, "1795980222.372 8418c7750af64ce04c111823b26a7b55 200 uct=1 uht=0.05 "
		      "urt=0.123456789 rt=10", 0},
		{LAB, "1795980222.372 8418c7750af64ce04c111823b26a7b55 200 uct=1.0 uht=0.05 "
		      "urt=0.123456789 rt=10.000", 1},
		{LAB, "1795980222.3721 8418c7750af64ce04c111823b26a7b55 200 uct=1 uht=0 urt=0 rt=0", 0},
		{LAB, "179598022.372 8418c7750af64ce04c111823b26a7b55 200 uct=- uht=- urt=- rt=0.000", 1},
		{LAB, "1795980222.372 8418c7750af64ce04c111823b26a7b5 200 uct=- uht=- urt=- rt=0.000", 0},
		{LAB, "1795980222.372 8418c7750af64ce04c111823b26a7b55 200 uct=0.001 uht=0.002 urt=0.003 "
		      "rt=0.0045", 1},
		{LAB, "1795980222.372 8418c7750af64ce04c111823b26a7b55 200 uct=0.001 uht=0.002 urt=0.003 "
		      "rt=0.004 ", 0},
		{"$time_local|$status", "29/Nov/2026:19:13:60 +0000|200", 1},
		{"$time_local|$status", "29/Nov/2026:19:13:61 +0000|200", 0},
		{"$time_iso8601|$msec|$status", "2026-11-30T03:13:18+08:00|1795980222.372|200", 1},
		/* the same field twice: the most exact time, the last status */
		{"$msec|$time_local|$status|$status", "1795980222.372|29/Nov/2026:19:13:18 +0000|200|503", 1},
		{"$time_local|$time_iso8601|$status", "29/Nov/2026:19:13:18 +0000|2026-11-30T03:13:19.5+08:00|200", 1},
		{"$time_local|$time_iso8601|$status", "29/Nov/2026:19:13:18 +0000|2026-11-30T03:13:19+08:00|200", 1},
		/* the whole line matched but more follows; the line ends early */
		{"$status $request_time", "200 0.001 more", 0},
		{"$status $request_time", "200 ", 0},
		{"$status", "", 0},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct nginx_fmt *f = compile_str(t[i].fmt);
		bool m = expect_same(f, t[i].line, strlen(t[i].line));
		if (m != (t[i].match != 0))
			fail_msg("case %zu: matched %d: '%s'", i, m, t[i].line);
		nginx_fmt_free(f);
	}
}

/* The timestamp memo: every line of a second or minute shares it, a line of
 * another minute, day or zone does not. One format parses them all in turn. */
static void test_fast_path_times_synthetic(void **state)
{
	(void)state;
	static const char *const tl[] = {
		"29/Nov/2026:19:13:18 +0000", "29/Nov/2026:19:13:59 +0000",
		"29/Nov/2026:19:13:60 +0000", "29/Nov/2026:19:13:61 +0000",
		"29/Nov/2026:19:14:00 +0000", "29/Nov/2026:19:14:00 +0100",
		"29/Nov/2026:19:14:07 -0230", "30/Nov/2026:19:14:07 -0230",
		"30/Dec/2026:19:14:07 -0230", "30/Dec/2026:19:14:7 -0230",
		"30/Dec/2026:19:14:07 -0230", "30/Dec/2026:19:14:0a -0230",
		"30/Xyz/2026:19:14:07 -0230", "30/Dec/2026:19:14:08 -0230",
	};
	struct nginx_fmt *f = compile_str("[$time_local] $status");
	char line[128];
	int ok = 0;
	for (size_t i = 0; i < sizeof tl / sizeof tl[0]; i++) {
		int k = snprintf(line, sizeof line, "[%s] 200", tl[i]);
		ok += expect_same(f, line, (size_t)k);
	}
	assert_int_equal(ok, 10);
	nginx_fmt_free(f);
	static const char *const ms[] = {
		"1795980222.372", "1795980222.999", "1795980222.99", "1795980222.9999",
		"1795980223.000", "1795980223", "1795980223.001", "17959802230.001",
		"1795980223.002", "0795980223.002", "1795980223.003",
	};
	f = compile_str("$msec $status");
	ok = 0;
	for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
		int k = snprintf(line, sizeof line, "%s 200", ms[i]);
		ok += expect_same(f, line, (size_t)k);
	}
	assert_int_equal(ok, 8); /* 11 digits of seconds are fine, 2 or 4 decimals are not */
	nginx_fmt_free(f);
}

/* $request_id is checked eight bytes at a time: every byte value at every
 * position, and pairs of high bytes (whose carries cross lanes), against the
 * plain definition of a hex digit */
static void test_request_id_bytes_synthetic(void **state)
{
	(void)state;
	struct nginx_fmt *f = compile_str("$request_id|$status");
	char line[64];
	struct event ev;
	memcpy(line, "0123456789abcdefABCDEF0123456789|200", 36);
	assert_true(nginx_parse_line(f, line, 36, &ev, NULL));
	for (int at = 0; at < 32; at++) {
		for (int c = 0; c < 256; c++) {
			char keep = line[at];
			line[at] = (char)c;
			bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
			assert_int_equal(expect_same(f, line, 36), hex);
			if (at + 1 < 32 && c >= 0x80) { /* 0xff + carry into a neighbour */
				char k2 = line[at + 1];
				line[at + 1] = (char)0xff;
				assert_false(expect_same(f, line, 36));
				line[at + 1] = k2;
			}
			line[at] = keep;
		}
	}
	nginx_fmt_free(f);
}

/* Real lines of every sample and fixture log, and the same lines with bytes
 * inserted, deleted and changed (quotes, spaces, separators of lists, digits)
 * where the walk's first choices go wrong: both ways agree on all of them. */
static void test_fast_path_mutations(void **state)
{
	(void)state;
	static const struct {
		const char *path, *fmt;
	} logs[] = {
		{SAMPLES "/nginx-uct/backlog100/logs/access.log", OPS},
		{SAMPLES "/nginx-uct/backlog1024/logs/access.log", OPS},
		{SAMPLES "/nginx-uct/connect-timeout/logs/access.log", OPS},
		{SAMPLES "/combined/gc-stop/logs/access.log", LAB},
		{SAMPLES "/combined/throttle-stop/logs/access.log", LAB},
		{FIXTURE "/logs/access_combined.log",
		 "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
		 "\"$http_referer\" \"$http_user_agent\""},
		{FIXTURE "/logs/access_main.log",
		 "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
		 "\"$http_referer\" \"$http_user_agent\" \"$http_x_forwarded_for\""},
		{FIXTURE "/logs/access.log", NULL},
		{FIXTURE "/logs/access_json.log", NULL},
	};
	static const char *const ins[] = {"\"", " ", "-", ",", ", ", " : ", ":", "\\", "\\\"",
					  ".", "0", "9", "=", "[", "]", "a", "|", "\x01"};
	uint32_t rnd = 12345;
	long total = 0, matched = 0;
	for (size_t li = 0; li < sizeof logs / sizeof logs[0]; li++) {
		struct lines ls;
		struct nginx_fmt *f;
		lines_read(&ls, logs[li].path);
		if (logs[li].fmt) {
			f = compile_str(logs[li].fmt);
		} else {
			f = compile_conf(FIXTURE "/nginx.conf",
					 strstr(logs[li].path, "json") ? "probe_json" : "probe");
		}
		struct nginx_fmt *d = nginx_fmt_detect((const char *const *)ls.l, ls.n,
						       ls.count < 20 ? ls.count : 20);
		for (int i = 0; i < ls.count; i++) {
			char buf[4096];
			size_t n = ls.n[i] < sizeof buf - 64 ? ls.n[i] : sizeof buf - 64;
			matched += expect_same(f, ls.l[i], ls.n[i]);
			if (d)
				expect_same(d, ls.l[i], ls.n[i]);
			total++;
			/* every line of a small log, a few hundred of a big one, mutated */
			if (ls.count > 400 && i % (ls.count / 400) != 0)
				continue;
			for (int m = 0; m < 24; m++) {
				size_t k = n;
				memcpy(buf, ls.l[i], n);
				for (int e = 0; e < 1 + m % 3; e++) {
					rnd = rnd * 1103515245u + 12345u;
					size_t at = k ? (rnd >> 8) % (k + 1) : 0;
					const char *w = ins[(rnd >> 20) % (sizeof ins / sizeof ins[0])];
					size_t wl = strlen(w);
					switch ((rnd >> 28) % 3) {
					case 0: /* insert */
						memmove(buf + at + wl, buf + at, k - at);
						memcpy(buf + at, w, wl);
						k += wl;
						break;
					case 1: /* delete */
						if (at < k) {
							memmove(buf + at, buf + at + 1, k - at - 1);
							k--;
						}
						break;
					default: /* replace */
						if (at < k)
							buf[at] = w[0];
						break;
					}
				}
				expect_same(f, buf, k);
				if (d)
					expect_same(d, buf, k);
				total++;
			}
		}
		nginx_fmt_free(f);
		nginx_fmt_free(d);
		lines_free(&ls);
	}
	print_message("fast path = matcher on %ld lines (%ld real lines matched)\n", total, matched);
	assert_true(total > 10000);
}

/* ------------------------------------------------------------ errors */

static void test_miss_messages(void **state)
{
	(void)state;
	struct lines ls;
	struct event ev;
	struct nginx_miss m;
	char d[256];
	lines_read(&ls, SAMPLES "/nginx-uct/backlog100/logs/access.log");
	/* the lab format on an ops line: wrong from the first byte */
	struct nginx_fmt *f = compile_str(LAB);
	assert_false(nginx_parse_line(f, ls.l[0], ls.n[0], &ev, &m));
	nginx_miss_describe(&m, ls.l[0], ls.n[0], d, sizeof d);
	assert_string_equal(d, "variable $msec expects a time like 1795980222.372 at byte 0 "
			       "(line has '127.0.0.1 - - [29/No...')");
	nginx_fmt_free(f);
	/* an ops format that forgot rt=: fails right after the user agent */
	f = compile_str("$remote_addr - $remote_user [$time_local] \"$request\" $status "
			"$body_bytes_sent \"$http_referer\" \"$http_user_agent\" "
			"uct=\"$upstream_connect_time\" rid=$request_id");
	assert_false(nginx_parse_line(f, ls.l[0], ls.n[0], &ev, &m));
	assert_string_equal(m.expected, "literal '\" uct=\"'");
	const char *at = util_memmem(ls.l[0], ls.n[0], "\" rt=");
	assert_int_equal(m.offset, (size_t)(at - ls.l[0]));
	nginx_miss_describe(&m, ls.l[0], ls.n[0], d, sizeof d);
	assert_true(strncmp(d, "expected literal '\" uct=\"' at byte ", 35) == 0);
	nginx_fmt_free(f);
	/* $status is checked */
	f = compile_str("$remote_addr - $remote_user [$time_local] \"$request\" $body_bytes_sent "
			"$status ");
	assert_false(nginx_parse_line(f, ls.l[0], ls.n[0], &ev, &m));
	assert_true(strstr(m.expected, "$status") || strstr(m.expected, "literal"));
	nginx_fmt_free(f);
	/* a 4-digit number where $status is: the status is wrong, not the end of the line */
	f = compile_str("$remote_addr [$time_local] $status");
	static const char l4[] = "127.0.0.1 [29/Nov/2026:19:13:18 +0000] 2000";
	assert_false(nginx_parse_line(f, l4, sizeof l4 - 1, &ev, &m));
	nginx_miss_describe(&m, l4, sizeof l4 - 1, d, sizeof d);
	assert_string_equal(d, "variable $status expects a 3-digit number at byte 39 (line has '2000')");
	static const char l3[] = "127.0.0.1 [29/Nov/2026:19:13:18 +0000] 200";
	assert_true(nginx_parse_line(f, l3, sizeof l3 - 1, &ev, &m));
	assert_int_equal(ev.u.http.status, 200);
	nginx_fmt_free(f);
	/* the whole line matched but more follows */
	f = nginx_fmt_combined();
	assert_false(nginx_parse_line(f, ls.l[0], ls.n[0], &ev, &m));
	assert_string_equal(m.expected, "end of line (the format ends)");
	at = util_memmem(ls.l[0], ls.n[0], " rt=");
	assert_int_equal(m.offset, (size_t)(at - ls.l[0]));
	nginx_fmt_free(f);
	lines_free(&ls);
}

static void test_compile_errors_synthetic(void **state)
{
	(void)state;
	char err[256];
	assert_null(nginx_fmt_compile("a $", 3, err, sizeof err));
	assert_string_equal(err, "invalid variable at byte 2: '$' must be followed by a name");
	assert_null(nginx_fmt_compile("${status", 8, err, sizeof err));
	assert_string_equal(err, "the closing bracket in \"${status\" variable is missing");
	assert_null(nginx_fmt_compile("escape=xml $status", 18, err, sizeof err));
	assert_string_equal(err, "unknown log format escaping \"xml\"");
	assert_null(nginx_fmt_compile("", 0, err, sizeof err));
	struct nginx_fmt *f = nginx_fmt_compile("escape=json {\"s\":$status}", 25, err, sizeof err);
	assert_non_null(f);
	nginx_fmt_describe(f, err, sizeof err);
	assert_string_equal(err, "escape=json; fields: $status; matched, ignored:");
	nginx_fmt_free(f);
}

/* ------------------------------------------------------------ deployed formats (fixtures/nginx/deployed) */

#define DEPLOYED FIXTURE "/deployed/logs"

/* detection from a sample that starts with lines of requests nginx answered
 * itself (every upstream variable unset: "" in escape=json and escape=none) */
static void detect_unset_first(const char *path, struct nginx_fmt **out)
{
	struct lines ls;
	lines_read(&ls, path);
	const char *l[20];
	size_t n[20];
	int k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < ls.count && k < 20; i++)
			if ((strstr(ls.l[i], "/static/") != NULL) == (pass == 0)) {
				l[k] = ls.l[i];
				n[k++] = ls.n[i];
			}
	*out = nginx_fmt_detect(l, n, k);
	lines_free(&ls);
}

static void test_detect_deployed(void **state)
{
	(void)state;
	static const char *const files[] = {"json.log", "raw.log", "tabs.log", "pipes.log"};
	unsigned want = NGINX_F_TIME | NGINX_F_STATUS | NGINX_F_RT | NGINX_F_URT;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[256];
		struct nginx_fmt *f;
		struct counts c;
		snprintf(path, sizeof path, DEPLOYED "/%s", files[i]);
		detect_unset_first(path, &f);
		assert_non_null(f);
		assert_int_equal(nginx_fmt_fields(f) & want, want);
		count_file(f, path, &c);
		assert_int_equal(c.parsed, 138); /* wc -l of every one of them */
		nginx_fmt_free(f);
	}
}

/* real lines of fixtures/nginx/deployed/logs/pipes.log and reload.log, and
 * the same lines with the one edit each case names */
static void test_times_need_decimals_and_real_dates(void **state)
{
	(void)state;
	static const char RELOAD[] = "$remote_addr [$time_local] \"$request\" $status rt=$request_time "
				     "uct=$upstream_connect_time urt=$upstream_response_time";
	static const char PIPES[] = "$msec|$remote_addr|$request|$status|$body_bytes_sent|$request_time|"
				    "$upstream_connect_time|$upstream_header_time|$upstream_response_time|$upstream_status";
	static const struct {
		const char *fmt, *line;
		bool ok;
	} cases[] = {
		{RELOAD, "127.0.0.1 [02/Dec/2026:12:11:18 +0000] \"GET /live/p1 HTTP/1.1\" 200 rt=0.000 uct=0.000 urt=0.000", true},
		/* cut mid-write: the line ends after "urt=0" / the rt's decimals are gone */
		{RELOAD, "127.0.0.1 [02/Dec/2026:12:11:18 +0000] \"GET /live/p1 HTTP/1.1\" 200 rt=0.000 uct=0.000 urt=0", false},
		{RELOAD, "127.0.0.1 [02/Dec/2026:12:11:18 +0000] \"GET /live/p1 HTTP/1.1\" 200 rt=1 uct=0.000 urt=0.000", false},
		/* dates: sed 's|02/Dec/2026|29/Feb/2023|' (no such day), 29/Feb/2024 (a leap day), 31/Apr */
		{RELOAD, "127.0.0.1 [29/Feb/2023:12:11:18 +0000] \"GET /live/p1 HTTP/1.1\" 200 rt=0.000 uct=0.000 urt=0.000", false},
		{RELOAD, "127.0.0.1 [29/Feb/2024:12:11:18 +0000] \"GET /live/p1 HTTP/1.1\" 200 rt=0.000 uct=0.000 urt=0.000", true},
		{RELOAD, "127.0.0.1 [31/Apr/2026:12:11:18 +0000] \"GET /live/p1 HTTP/1.1\" 200 rt=0.000 uct=0.000 urt=0.000", false},
		{PIPES, "1796213471.614|127.0.0.1|GET /live/p1 HTTP/1.1|200|3|0.000|0.000|0.000|0.000|200", true},
		{PIPES, "1796213471.614|127.0.0.1|GET /live/p1 HTTP/1.1|200|3|0|0.000|0.000|0.000|200", false},
		{PIPES, "1796213471.614|127.0.0.1|GET /live/p1 HTTP/1.1|200|3|0.000|0.000|0.000|1|200", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct nginx_fmt *f = nginx_fmt_compile(cases[i].fmt, strlen(cases[i].fmt), NULL, 0);
		struct event ev, ev2;
		assert_non_null(f);
		bool a = nginx_parse_line(f, cases[i].line, strlen(cases[i].line), &ev, NULL);
		bool b = nginx_parse_line_full(f, cases[i].line, strlen(cases[i].line), &ev2, NULL);
		if (a != cases[i].ok || b != cases[i].ok)
			fail_msg("case %zu: %d/%d, want %d: %s", i, a, b, cases[i].ok, cases[i].line);
		nginx_fmt_free(f);
	}
	int64_t ms;
	assert_int_equal(util_parse_iso8601("2023-02-29T12:11:11+00:00", 25, &ms, NULL), 0);
	assert_int_equal(util_parse_iso8601("2024-02-29T12:11:11+00:00", 25, &ms, NULL), 25);
}

/* a format pasted with the config's quotes reads as the config's format */
static void test_pasted_quotes(void **state)
{
	(void)state;
	static const char *const pasted[] = {
		"'$msec|$remote_addr|$request|$status|$body_bytes_sent|$request_time|'\n"
		"                 '$upstream_connect_time|$upstream_header_time|$upstream_response_time|$upstream_status';",
		"'$msec|$remote_addr|$request|$status|$body_bytes_sent|$request_time|' "
		"'$upstream_connect_time|$upstream_header_time|$upstream_response_time|$upstream_status'",
		"\"$msec|$remote_addr|$request|$status|$body_bytes_sent|$request_time|\" "
		"\"$upstream_connect_time|$upstream_header_time|$upstream_response_time|$upstream_status\";",
	};
	static const char want[] = "$msec|$remote_addr|$request|$status|$body_bytes_sent|$request_time|"
				   "$upstream_connect_time|$upstream_header_time|$upstream_response_time|$upstream_status";
	static const char line[] = "1796213471.614|127.0.0.1|GET /live/p1 HTTP/1.1|200|3|0.000|0.000|0.000|0.000|200";
	for (size_t i = 0; i < sizeof pasted / sizeof pasted[0]; i++) {
		struct nginx_fmt *f = nginx_fmt_compile(pasted[i], strlen(pasted[i]), NULL, 0);
		struct event ev;
		assert_non_null(f);
		assert_string_equal(nginx_fmt_string(f), want);
		assert_true(nginx_parse_line(f, line, sizeof line - 1, &ev, NULL));
		assert_int_equal(ev.u.http.status, 200);
		nginx_fmt_free(f);
	}
	/* escape=json before the strings stays the escaping */
	static const char js[] = "escape=json '{\"status\":\"$status\",' '\"t\":\"$time_iso8601\"}'";
	struct nginx_fmt *f = nginx_fmt_compile(js, sizeof js - 1, NULL, 0);
	assert_non_null(f);
	assert_string_equal(nginx_fmt_string(f), "escape=json {\"status\":\"$status\",\"t\":\"$time_iso8601\"}");
	nginx_fmt_free(f);
	/* literal quotes that are the format's own stay (no ';', double quotes) */
	static const char lit[] = "\"$http_x_forwarded_for\" \"$request\"";
	f = nginx_fmt_compile(lit, sizeof lit - 1, NULL, 0);
	assert_non_null(f);
	assert_string_equal(nginx_fmt_string(f), lit);
	nginx_fmt_free(f);
	static const char mixed[] = "\"$http_x_forwarded_for\" $remote_addr [$time_local] $status";
	f = nginx_fmt_compile(mixed, sizeof mixed - 1, NULL, 0);
	assert_non_null(f);
	assert_string_equal(nginx_fmt_string(f), mixed);
	nginx_fmt_free(f);
}

/* --nginx-conf FILE without :NAME: the format of the access_log that writes the file */
static void test_conf_formats_for(void **state)
{
	(void)state;
	static const struct {
		const char *log, *first;
		int nfor;
	} cases[] = {
		{DEPLOYED "/json.log", "jsonlog", 1}, {DEPLOYED "/tabs.log", "tabs", 1},
		{DEPLOYED "/mixed.log", "main", 2}, {DEPLOYED "/reload.log", "after", 1},
		{"/elsewhere/pipes.log.1", "pipes", 1}, /* copied off the server and rotated */
		{"/elsewhere/unknown.log", NULL, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct nginx_conf_fmts cf;
		char err[256];
		assert_int_equal(nginx_conf_formats_for(FIXTURE "/deployed/nginx.conf", cases[i].log, &cf, err,
							sizeof err), 0);
		assert_int_equal(cf.nfor, cases[i].nfor);
		if (cases[i].first)
			assert_string_equal(cf.name[0], cases[i].first);
		assert_true(cf.n >= 8); /* every log_format of conf.d/formats.conf, and combined */
		nginx_conf_fmts_fini(&cf);
	}
}

/* ------------------------------------------------------------ config reader (synthetic files) */

static char tmpdir[64];

static void write_file(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	char *sl = strrchr(path, '/');
	*sl = '\0';
	mkdir(path, 0755);
	*sl = '/';
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *load(const char *rel, const char *name, char *err, size_t errlen)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	return nginx_conf_load(path, name, err, errlen);
}

static int conf_setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/stwtop-nginx-conf-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int conf_teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_conf_syntax_synthetic(void **state)
{
	(void)state;
	char err[512], *s;
	write_file("main.conf",
		   "# a comment with 'quotes\" and { braces\n"
		   "events { }\n"
		   "stream { log_format lab '$remote_addr $protocol'; access_log x lab; }\n"
		   "http {\n"
		   "    include conf.d/*.conf;   # glob, relative to this file's directory\n"
		   "    log_format lab '$msec \"$request\" '\n"
		   "        \"st=$status a#b \\\"q\\\" \" 'it\\'s' \\t\n"
		   "        '${request_time}' \"$ups\" 'tream';\n"
		   "    map $http_x ${var}x { default 0; \"~a\" 1; }\n"
		   "    server { location / { access_log logs/a.log json; } }\n"
		   "}\n");
	write_file("conf.d/formats.conf",
		   "log_format json escape=json '{\"s\":$status,'\n"
		   "                            '\"uct\":\"$upstream_connect_time\"}';\n"
		   "include snippets/more.conf;  # nginx: relative to the conf prefix\n");
	write_file("snippets/more.conf", "log_format more '$status';\n");
	s = load("main.conf", "lab", err, sizeof err);
	if (!s)
		fail_msg("%s", err);
	/* the stream format of the same name is skipped; parts concatenate; \" \' as nginx,
	 * a bare \t word is a TAB;
	 * "$ups" "tream" stay two things: ${ups}tream */
	assert_string_equal(s, "$msec \"$request\" st=$status a#b \"q\" it's\t${request_time}${ups}"
			       "tream");
	free(s);
	s = load("main.conf", "json", err, sizeof err);
	assert_non_null(s);
	assert_string_equal(s, "escape=json {\"s\":$status,\"uct\":\"$upstream_connect_time\"}");
	free(s);
	s = load("main.conf", "MORE", err, sizeof err); /* access_log looks names up caselessly */
	assert_non_null(s);
	assert_string_equal(s, "$status");
	free(s);
	/* no name: the one the first access_log uses */
	s = load("main.conf", NULL, err, sizeof err);
	assert_non_null(s);
	assert_true(strncmp(s, "escape=json ", 12) == 0);
	free(s);
	s = load("main.conf", "combined", err, sizeof err);
	assert_non_null(s);
	assert_true(strncmp(s, "$remote_addr - $remote_user [$time_local]", 41) == 0);
	free(s);
	/* a name that is not there lists those that are */
	assert_null(load("main.conf", "nope", err, sizeof err));
	assert_true(strstr(err, "main.conf: no log_format \"nope\" (found: json, more, lab)") != NULL);
}

static void test_conf_errors_synthetic(void **state)
{
	(void)state;
	char err[512];
	write_file("open.conf", "http {\n  log_format x '$status\n\n  ;\n}\n");
	assert_null(load("open.conf", "x", err, sizeof err));
	assert_true(strstr(err, "open.conf:2: unterminated single-quoted string") != NULL);
	write_file("brace.conf", "http {\n  log_format x '$status';\n");
	assert_null(load("brace.conf", "x", err, sizeof err));
	assert_true(strstr(err, "brace.conf:3: unexpected end of file, expecting \"}\"") != NULL);
	write_file("close.conf", "log_format x '$status';\n}\n");
	assert_null(load("close.conf", "x", err, sizeof err));
	assert_true(strstr(err, "close.conf:2: unexpected \"}\"") != NULL);
	write_file("after.conf", "log_format x '$status'x;\n");
	assert_null(load("after.conf", "x", err, sizeof err));
	assert_true(strstr(err, "after.conf:1: unexpected \"x\"") != NULL);
	write_file("dup.conf", "log_format x '$status';\nlog_format x '$msec';\n");
	assert_null(load("dup.conf", "x", err, sizeof err));
	assert_true(strstr(err, "dup.conf:2: duplicate \"log_format\" name \"x\"") != NULL);
	write_file("two.conf", "log_format a '$status';\nlog_format b '$msec';\n");
	assert_null(load("two.conf", NULL, err, sizeof err));
	assert_true(strstr(err, "2 log_format definitions (a, b): name one as FILE:NAME") != NULL);
	write_file("inc.conf", "include missing.conf;\nlog_format a '$status';\n");
	assert_null(load("inc.conf", "b", err, sizeof err));
	assert_true(strstr(err, "no log_format \"b\" (found: a); not read: missing.conf: No such file") !=
		    NULL);
	write_file("loop.conf", "include loop.conf;\n");
	assert_null(load("loop.conf", "a", err, sizeof err));
	assert_true(strstr(err, "nested deeper than") != NULL);
	write_file("brk.conf", "log_format a '${msec' '}';\n"); /* nginx: closing bracket missing */
	assert_null(load("brk.conf", "a", err, sizeof err));
	assert_true(strstr(err, "invalid variable") != NULL);
	write_file("dollar.conf", "log_format a 'x$';\n");
	assert_null(load("dollar.conf", "a", err, sizeof err));
	assert_true(strstr(err, "invalid variable") != NULL);
	assert_null(nginx_conf_load("/nonexistent/nginx.conf", "a", err, sizeof err));
	assert_string_equal(err, "cannot read /nonexistent/nginx.conf: No such file or directory");
	assert_null(nginx_conf_load(tmpdir, "a", err, sizeof err));
	assert_true(strstr(err, "Is a directory") != NULL);
	/* from memory, includes not followed, not even absolute ones (a FIFO would block) */
	const char m[] = "include /dev/stdin; include x.conf; log_format a \"$msec\";";
	char *s = nginx_conf_parse_mem(m, sizeof m - 1, "mem", NULL, "a", err, sizeof err);
	assert_non_null(s);
	assert_string_equal(s, "$msec");
	free(s);
	assert_null(nginx_conf_parse_mem(m, sizeof m - 1, "mem", NULL, "b", err, sizeof err));
	assert_true(strstr(err, "not read: /dev/stdin: includes are not followed here") != NULL);
	/* a device is not a config file */
	assert_null(nginx_conf_load("/dev/null", "a", err, sizeof err));
	assert_string_equal(err, "cannot read /dev/null: not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_backlog100),
		cmocka_unit_test(test_sample_connect_timeout),
		cmocka_unit_test(test_sample_backlog1024),
		cmocka_unit_test(test_sample_gc_stop),
		cmocka_unit_test(test_sample_throttle_stop),
		cmocka_unit_test(test_sample_lines_fields),
		cmocka_unit_test(test_detect_samples),
		cmocka_unit_test(test_detect_real_nginx),
		cmocka_unit_test(test_detect_nothing_synthetic),
		cmocka_unit_test(test_real_nginx_fixture),
		cmocka_unit_test(test_real_nginx_live),
		cmocka_unit_test(test_upstream_lists_synthetic),
		cmocka_unit_test(test_escape_modes_synthetic),
		cmocka_unit_test(test_fast_path_tricky_synthetic),
		cmocka_unit_test(test_fast_path_times_synthetic),
		cmocka_unit_test(test_request_id_bytes_synthetic),
		cmocka_unit_test(test_fast_path_mutations),
		cmocka_unit_test(test_miss_messages),
		cmocka_unit_test(test_compile_errors_synthetic),
		cmocka_unit_test(test_detect_deployed),
		cmocka_unit_test(test_times_need_decimals_and_real_dates),
		cmocka_unit_test(test_pasted_quotes),
		cmocka_unit_test(test_conf_formats_for),
		cmocka_unit_test_setup_teardown(test_conf_syntax_synthetic, conf_setup, conf_teardown),
		cmocka_unit_test_setup_teardown(test_conf_errors_synthetic, conf_setup, conf_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
