/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_theme.c — the shipped themes parse completely, colours degrade to the
 * terminal's palette, a bad theme names the key, and --theme NAME finds files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <cmocka.h>

#include "stwtop/theme.h"

static char themes_dir[4096];

static void load_shipped(const char *name, struct theme *t)
{
	char path[4200], err[512] = "";
	snprintf(path, sizeof path, "%s/%s.json", themes_dir, name);
	int rc = theme_load_file(t, path, err, sizeof err);
	if (rc != 0)
		fail_msg("%s: %s", path, err);
}

static void test_shipped_themes_are_complete(void **state)
{
	(void)state;
	const char *names[] = {"default", "light", "mono"};
	for (size_t k = 0; k < 3; k++) {
		struct theme t;
		load_shipped(names[k], &t);
		assert_string_equal(t.name, names[k]);
		/* every role is named explicitly, so a new role cannot be forgotten */
		for (int r = 0; r < THEME_ROLE_COUNT; r++)
			if (!t.role[r].set)
				fail_msg("%s.json does not set role %s", names[k], theme_role_name(r));
	}
}

static void test_default_colours(void **state)
{
	(void)state;
	struct theme t;
	load_shipped("default", &t);
	const struct theme_style *ttsp = &t.role[TR_STOP_TTSP], *op = &t.role[TR_STOP_OP];
	assert_int_equal(ttsp->fg.kind, THEME_COLOR_INDEX);
	assert_int_equal(ttsp->fg.index, 208);
	/* time to safepoint and the operation stay apart at every depth that has colour */
	int depths[] = {256, 16, 8};
	for (size_t i = 0; i < 3; i++) {
		int a = theme_color_index(&ttsp->fg, depths[i]), b = theme_color_index(&op->fg, depths[i]);
		assert_true(a >= 0 && a < depths[i]);
		assert_true(b >= 0 && b < depths[i]);
		assert_int_not_equal(a, b);
	}
	/* 208 is (255,135,0): on 8 colours the nearest is yellow, not red */
	assert_int_equal(theme_color_index(&ttsp->fg, 8), 3);
	assert_int_equal(theme_color_index(&ttsp->fg, 0), -1);
	/* crit is white on red, bold */
	const struct theme_style *crit = &t.role[TR_VERDICT_CRIT];
	assert_int_equal(theme_color_index(&crit->bg, 256), 160);
	assert_int_equal(theme_color_index(&crit->bg, 8), 1);
	assert_true(crit->attrs & THEME_ATTR_BOLD);
	/* a role without bg keeps the terminal's background */
	assert_int_equal(t.role[TR_STOP_OP].bg.kind, THEME_COLOR_DEFAULT);
}

static void test_mono_has_no_colour(void **state)
{
	(void)state;
	struct theme t;
	load_shipped("mono", &t);
	for (int r = 0; r < THEME_ROLE_COUNT; r++) {
		assert_int_equal(theme_color_index(&t.role[r].fg, 256), -1);
		assert_int_equal(theme_color_index(&t.role[r].bg, 256), -1);
	}
	assert_true(t.role[TR_VERDICT_CRIT].attrs & THEME_ATTR_REVERSE);
	assert_true(t.role[TR_FOCUS].attrs & THEME_ATTR_REVERSE);
	assert_true(t.role[TR_VERDICT_NEW].attrs & THEME_ATTR_UNDERLINE);
}

static void test_color_parse_and_degrade(void **state)
{
	(void)state;
	struct theme_color c;
	assert_true(theme_color_parse("#ff0000", 7, &c));
	assert_int_equal(theme_color_index(&c, 256), 196);
	assert_int_equal(theme_color_index(&c, 16), 9);
	assert_int_equal(theme_color_index(&c, 88), 9);
	assert_int_equal(theme_color_index(&c, 8), 1);
	assert_int_equal(theme_color_index(&c, 2), -1);
	assert_true(theme_color_parse("bright-blue", 11, &c));
	assert_int_equal(c.index, 12);
	assert_int_equal(theme_color_index(&c, 256), 12);
	assert_int_equal(theme_color_index(&c, 8), 4);
	assert_true(theme_color_parse("white", 5, &c));
	assert_int_equal(c.index, 7);
	assert_true(theme_color_parse("default", 7, &c));
	assert_int_equal(theme_color_index(&c, 256), -1);
	assert_true(theme_color_parse("244", 3, &c));
	assert_int_equal(theme_color_index(&c, 16), 8);   /* a mid grey is bright black */
	assert_true(theme_color_parse("#EEEEEE", 7, &c));
	assert_int_equal(theme_color_index(&c, 256), 255);
	assert_false(theme_color_parse("256", 3, &c));
	assert_false(theme_color_parse("#12345", 6, &c));
	assert_false(theme_color_parse("#12345g", 7, &c));
	assert_false(theme_color_parse("bright-", 7, &c));
	assert_false(theme_color_parse("purple", 6, &c));
	assert_false(theme_color_parse("", 0, &c));
	/* the palette: cube and grey ramp */
	uint8_t rgb[3];
	theme_index_rgb(208, rgb);
	assert_int_equal(rgb[0], 255);
	assert_int_equal(rgb[1], 135);
	assert_int_equal(rgb[2], 0);
	theme_index_rgb(232, rgb);
	assert_int_equal(rgb[0], 8);
}

/* synthetic: broken theme files cannot be made from real data */
static void expect_error(const char *json, const char *want)
{
	struct theme t;
	char err[600] = "";
	int rc = theme_parse(&t, json, strlen(json), "x.json", err, sizeof err);
	assert_int_equal(rc, -EINVAL);
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not mention \"%s\"", err, want);
}

static void test_synthetic_bad_themes_name_the_key(void **state)
{
	(void)state;
	expect_error("{\"roles\": {\"heap.comitted\": {\"fg\": 1}}}", "unknown role \"heap.comitted\"");
	expect_error("{\"roles\": {\"stop.ttsp\": {\"fg\": \"#12345\"}}}",
		     "role \"stop.ttsp\": \"fg\": \"#12345\" is not a colour");
	expect_error("{\"roles\": {\"text\": {\"bg\": 300}}}", "role \"text\": \"bg\": 300 is not a colour");
	expect_error("{\"roles\": {\"text\": {\"fg\": [1]}}}", "role \"text\": \"fg\" must be a colour");
	expect_error("{\"roles\": {\"title\": {\"bold\": \"yes\"}}}", "role \"title\": \"bold\" must be true or false");
	expect_error("{\"roles\": {\"title\": {\"blink\": true}}}", "role \"title\": unknown key \"blink\"");
	expect_error("{\"roles\": {\"title\": 3}}", "role \"title\" must be an object");
	expect_error("{\"colours\": {}}", "unknown key \"colours\"");
	expect_error("{\"name\": \"x\"}", "no \"roles\"");
	expect_error("{\"roles\": []}", "\"roles\" must be an object");
	expect_error("[1, 2]", "a theme is a JSON object");
	expect_error("{\"roles\": {\"text\": {\"fg\": 1,}}}", "x.json:1:");
	expect_error("{\"roles\": {\"text\": {}, \"text\": {}}}", "not valid JSON");
	/* escape sequences in a bad key are not echoed raw to the terminal */
	struct theme t;
	char err[600];
	const char *evil = "{\"roles\": {\"\\u001b[2J\": {}}}";
	assert_int_equal(theme_parse(&t, evil, strlen(evil), "x.json", err, sizeof err), -EINVAL);
	assert_null(strchr(err, 0x1b));
	assert_non_null(strstr(err, "\\e[2J"));
}

static void test_synthetic_inheritance(void **state)
{
	(void)state;
	struct theme t;
	char err[300];
	const char *j = "{\"roles\": {\"text\": {\"fg\": \"green\", \"bg\": \"black\", \"underline\": true},"
			" \"title\": {\"bold\": true}, \"cursor\": {\"bg\": 238}}}";
	assert_int_equal(theme_parse(&t, j, strlen(j), "inline", err, sizeof err), 0);
	assert_string_equal(t.name, "");
	/* colours a role leaves out are the text's; attributes only when the role is absent */
	assert_int_equal(t.role[TR_TITLE].fg.index, 2);
	assert_int_equal(t.role[TR_TITLE].bg.index, 0);
	assert_int_equal(t.role[TR_TITLE].attrs, THEME_ATTR_BOLD);
	assert_int_equal(t.role[TR_CURSOR].bg.index, 238);
	assert_int_equal(t.role[TR_CURSOR].fg.index, 2);
	assert_int_equal(t.role[TR_STOP_OP].attrs, THEME_ATTR_UNDERLINE);
	assert_false(t.role[TR_STOP_OP].set);
	const char *e = "{\"roles\": {}}";
	assert_int_equal(theme_parse(&t, e, strlen(e), "inline", err, sizeof err), 0);
	assert_int_equal(t.role[TR_TEXT].fg.kind, THEME_COLOR_DEFAULT);
	assert_int_equal(t.role[TR_VERDICT_CRIT].bg.kind, THEME_COLOR_DEFAULT);
}

static void test_roles_round_trip(void **state)
{
	(void)state;
	for (int r = 0; r < THEME_ROLE_COUNT; r++) {
		assert_non_null(theme_role_name(r));
		assert_int_equal(theme_role_from_name(theme_role_name(r)), r);
	}
	assert_null(theme_role_name(THEME_ROLE_COUNT));
	assert_int_equal(theme_role_from_name("upstream.b5"), -1);
	assert_int_equal(theme_nocolor_attrs(TR_VERDICT_CRIT), THEME_ATTR_BOLD | THEME_ATTR_REVERSE);
}

static void test_resolve_and_list(void **state)
{
	(void)state;
	char tmp[] = "/tmp/stwtop-theme-test-XXXXXX";
	assert_non_null(mkdtemp(tmp));
	char p[4200], err[2048];
	snprintf(p, sizeof p, "%s/solar.json", tmp);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("{\"roles\": {\"text\": {\"fg\": 136}}}", f);
	fclose(f);
	setenv("STWTOP_THEME_DIR", tmp, 1);
	char path[4200];
	assert_int_equal(theme_resolve("solar", path, sizeof path, err, sizeof err), 0);
	assert_string_equal(path, p);
	struct theme t;
	assert_int_equal(theme_load_file(&t, path, err, sizeof err), 0);
	assert_string_equal(t.name, "solar");   /* named after the file */
	/* the source tree's themes are found by name */
	assert_int_equal(theme_resolve("light", path, sizeof path, err, sizeof err), 0);
	assert_non_null(strstr(path, "/themes/light.json"));
	/* a path is taken as it is */
	assert_int_equal(theme_resolve("./my.json", path, sizeof path, err, sizeof err), 0);
	assert_string_equal(path, "./my.json");
	/* not found: the message says where it looked */
	assert_int_equal(theme_resolve("nosuch", path, sizeof path, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "theme \"nosuch\" not found"));
	assert_non_null(strstr(err, tmp));
	char names[THEME_MAX_LIST][64];
	int n = theme_list(names, THEME_MAX_LIST);
	assert_true(n >= 4);
	assert_string_equal(names[0], "default");
	int seen = 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], "light") || !strcmp(names[i], "mono") || !strcmp(names[i], "solar"))
			seen++;
	assert_int_equal(seen, 3);
	for (int i = 1; i + 1 < n; i++)
		assert_true(strcmp(names[i], names[i + 1]) < 0);
	/* unreadable file */
	assert_int_equal(theme_load_file(&t, "/nonexistent/x.json", err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.json"));
	unlink(p);
	rmdir(tmp);
	unsetenv("STWTOP_THEME_DIR");
}

int main(void)
{
	snprintf(themes_dir, sizeof themes_dir, "%s/../themes", STWTOP_TEST_DIR);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_themes_are_complete),
		cmocka_unit_test(test_default_colours),
		cmocka_unit_test(test_mono_has_no_colour),
		cmocka_unit_test(test_color_parse_and_degrade),
		cmocka_unit_test(test_synthetic_bad_themes_name_the_key),
		cmocka_unit_test(test_synthetic_inheritance),
		cmocka_unit_test(test_roles_round_trip),
		cmocka_unit_test(test_resolve_and_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
