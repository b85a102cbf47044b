/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_cli_table.c — doc/stwtop.1 and --help against the command-line table.
 *
 * core/app/cli.c makes getopt's array and --help from one table; the man page
 * is written by hand, so it is the copy that drifts. Every option of the table
 * must be named by a tag of the man page's OPTIONS section (the .B/.BI/.BR
 * line after a .TP) and somewhere in --help (the usage lines tell --report and
 * --demo), and neither may name an option the table does not have (an alias,
 * such as --no-colour, may be named, need not be). STWTOP_MAN_PAGE reads
 * another copy of the man page: try one with an option taken out.
 *
 * The shell completions in completions/ are copies too: bash's list of
 * options, zsh's spec lines ('--name...' starting a line) and fish's
 * `complete -c stwtop -l name` lines must each name every option of the table
 * and no other (STWTOP_COMPLETIONS_DIR: another folder of them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/cli.h"

#define MAX_NAMES 128

struct names {
	char n[MAX_NAMES][40];
	int count;
};

static bool names_has(const struct names *s, const char *name)
{
	for (int i = 0; i < s->count; i++)
		if (strcmp(s->n[i], name) == 0)
			return true;
	return false;
}

static void names_add(struct names *s, const char *name)
{
	if (!name[0] || names_has(s, name))
		return;
	assert_true(s->count < MAX_NAMES);
	snprintf(s->n[s->count++], sizeof s->n[0], "%s", name);
}

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

/* every "--name" in text; in roff a dash is "\-" */
static void names_in(const char *text, bool roff, struct names *out)
{
	const char *dash = roff ? "\\-" : "-";
	size_t dl = strlen(dash);
	for (const char *p = strstr(text, dash); p; p = strstr(p, dash)) {
		if (strncmp(p + dl, dash, dl) != 0 || !name_char(p[2 * dl])) {
			p += dl;
			continue;
		}
		char name[40];
		size_t n = 0;
		p += 2 * dl;
		while (n + 1 < sizeof name) {
			if (name_char(*p))
				name[n++] = *p++;
			else if (strncmp(p, dash, dl) == 0 && name_char(p[dl]))
				name[n++] = '-', p += dl;
			else
				break;
		}
		name[n] = '\0';
		names_add(out, name);
	}
}

static void table_names(struct names *names, struct names *aliases)
{
	const char *name, *alias;
	for (int i = 0; (name = cli_option_name(i, &alias)); i++) {
		names_add(names, name);
		if (alias)
			names_add(aliases, alias);
	}
}

/* the options the tags of the OPTIONS section name */
static void man_names(const char *path, struct names *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	char line[1024];
	bool in_options = false, after_tp = false;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, ".SH ", 4) == 0) {
			in_options = strncmp(line, ".SH OPTIONS", 11) == 0;
			continue;
		}
		if (in_options && after_tp && strncmp(line, ".B", 2) == 0)
			names_in(line, true, out);
		after_tp = in_options && strncmp(line, ".TP", 3) == 0;
	}
	fclose(f);
}

static void help_names(struct names *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	cli_usage(f);
	fclose(f);
	names_in(buf, false, out);
	free(buf);
}

/* what differs, told on out (NULL: not told); how many */
static int names_diff(const struct names *table, const struct names *aliases, const struct names *doc,
		      const char *where, FILE *out)
{
	int bad = 0;
	for (int i = 0; i < table->count; i++)
		if (!names_has(doc, table->n[i])) {
			if (out)
				fprintf(out, "--%s is an option (core/app/cli.c) but %s does not name it\n",
					table->n[i], where);
			bad++;
		}
	for (int i = 0; i < doc->count; i++)
		if (!names_has(table, doc->n[i]) && !names_has(aliases, doc->n[i])) {
			if (out)
				fprintf(out, "%s names --%s, which is not an option (core/app/cli.c)\n", where,
					doc->n[i]);
			bad++;
		}
	return bad;
}

static void test_man_page_lists_the_table(void **state)
{
	(void)state;
	struct names table = {0}, aliases = {0}, man = {0};
	const char *path = getenv("STWTOP_MAN_PAGE");
	char def[4096];
	snprintf(def, sizeof def, "%s/../doc/stwtop.1", STWTOP_TEST_DIR);
	table_names(&table, &aliases);
	man_names(path && path[0] ? path : def, &man);
	assert_true(table.count >= 30);
	assert_true(man.count >= 10); /* the section was found */
	assert_int_equal(names_diff(&table, &aliases, &man, "the OPTIONS section of doc/stwtop.1", stdout), 0);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_non_null(m);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* the name after "--" at p (p past the dashes), into out */
static void name_at(const char *p, struct names *out)
{
	char name[40];
	size_t n = 0;
	while (n + 1 < sizeof name && (name_char(p[n]) || (p[n] == '-' && name_char(p[n + 1])))) {
		name[n] = p[n];
		n++;
	}
	name[n] = '\0';
	names_add(out, name);
}

/* zsh: each _arguments spec line, '[(EXCLUDED)][*]--name...' */
static void zsh_names(const char *text, struct names *out)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line + strspn(line, " \t");
		if (*p++ != '\'')
			continue;
		if (*p == '(')
			p = strchr(p, ')') ? strchr(p, ')') + 1 : p;
		if (*p == '*')
			p++;
		if (strncmp(p, "--", 2) == 0 && name_char(p[2]))
			name_at(p + 2, out);
	}
}

/* fish: each "complete -c stwtop ... -l name" line (before any quoted text) */
static void fish_names(const char *text, struct names *out)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "complete -c stwtop ", 19) != 0)
			continue;
		size_t len = strcspn(line, "\n'\"");
		for (const char *p = line; p + 4 < line + len; p++)
			if (strncmp(p, " -l ", 4) == 0 && name_char(p[4]))
				name_at(p + 4, out);
	}
}

static void completion_names(const char *dir, const char *file, struct names *out)
{
	char path[4096];
	snprintf(path, sizeof path, "%.4000s/%s", dir, file);
	char *text = read_all(path);
	if (strcmp(file, "_stwtop") == 0)
		zsh_names(text, out);
	else if (strcmp(file, "stwtop.fish") == 0)
		fish_names(text, out);
	else
		names_in(text, false, out);
	free(text);
}

static void test_completions_list_the_table(void **state)
{
	(void)state;
	static const char *const files[] = {"stwtop.bash", "_stwtop", "stwtop.fish"};
	const char *env = getenv("STWTOP_COMPLETIONS_DIR");
	char def[4096];
	snprintf(def, sizeof def, "%s/../completions", STWTOP_TEST_DIR);
	const char *dir = env && env[0] ? env : def;
	struct names table = {0}, aliases = {0};
	table_names(&table, &aliases);
	int bad = 0;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct names comp = {0};
		char where[128];
		completion_names(dir, files[i], &comp);
		snprintf(where, sizeof where, "completions/%s", files[i]);
		assert_true(comp.count >= 10); /* the extractor found its lines */
		bad += names_diff(&table, &aliases, &comp, where, stdout);
	}
	assert_int_equal(bad, 0);
}

/* the extractors: a zsh spec and a fish line taken out are missed, words
 * elsewhere on a line are not taken for options */
static void test_completion_extractors(void **state)
{
	(void)state;
	struct names zsh = {0}, fish = {0};
	zsh_names("_arguments -S \\\n\t'--report[read --gc once]' \\\n"
		  "\t'*--gc=[a log]:JVM log:_files' \\\n\t'(- *)--help[usage]'\n# '--no-such'\n", &zsh);
	assert_int_equal(zsh.count, 3);
	assert_true(names_has(&zsh, "report") && names_has(&zsh, "gc") && names_has(&zsh, "help"));
	fish_names("complete -c stwtop -f\ncomplete -c stwtop -l theme -x -d 'not -l json'\n"
		   "complete -c stwtop -l no-color -d x\n# complete -c stwtop -l plain\n", &fish);
	assert_int_equal(fish.count, 2);
	assert_true(names_has(&fish, "theme") && names_has(&fish, "no-color"));
}

static void test_help_lists_the_table(void **state)
{
	(void)state;
	struct names table = {0}, aliases = {0}, help = {0};
	table_names(&table, &aliases);
	help_names(&help);
	assert_int_equal(names_diff(&table, &aliases, &help, "--help", stdout), 0);
}

/* the checker itself: a tag taken out and one made up are both found */
static void test_a_changed_list_is_found(void **state)
{
	(void)state;
	struct names table = {0}, aliases = {0}, doc = {0};
	table_names(&table, &aliases);
	for (int i = 1; i < table.count; i++)
		names_add(&doc, table.n[i]);
	assert_int_equal(names_diff(&table, &aliases, &doc, "a list without its first option", NULL), 1);
	names_add(&doc, table.n[0]);
	names_in(".BI \\-\\-no\\-such\\-option \" FILE\"", true, &doc);
	assert_int_equal(names_diff(&table, &aliases, &doc, "a list with --no-such-option", NULL), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_man_page_lists_the_table),
		cmocka_unit_test(test_help_lists_the_table),
		cmocka_unit_test(test_a_changed_list_is_found),
		cmocka_unit_test(test_completions_list_the_table),
		cmocka_unit_test(test_completion_extractors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
