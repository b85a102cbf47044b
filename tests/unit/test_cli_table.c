/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_cli_table.c — doc/stwtop.1 and --help against the command-line table.
 *
 * core/app/cli.c makes getopt's array and --help from one table; the man page
 * is written by hand, so it is the copy that drifts. Every option of the table
 * must be named by a tag of the man page's OPTIONS section (the .B/.BI/.BR
 * line after a .TP) and somewhere in --help (the usage lines tell --report and
 * --demo), and neither may name an option the table does not have (an alias,
 * such as --no-colour, may be named, need not be). STWTOP_MAN_PAGE reads
 * another copy of the man page: try one with an option taken out. */
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
