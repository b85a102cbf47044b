/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_theme.c — libFuzzer target for the theme reader (core/theme.c): a
 * theme file (--theme FILE) is user input. theme_parse on arbitrary bytes; a
 * theme that parses must have NUL-terminated names, known kinds and attributes,
 * and every colour must map to a valid index (or -1) on terminals of 256, 88,
 * 16, 8 and 0 colours. The first line is also tried as one colour string.
 * Seeds: tests/fuzz/seeds/fuzz_theme/ (the shipped themes). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stwtop/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_color(const struct theme_color *c)
{
	static const int ncolors[] = {256, 88, 16, 8, 0};
	if (c->kind > THEME_COLOR_RGB)
		__builtin_trap();
	for (size_t i = 0; i < sizeof ncolors / sizeof ncolors[0]; i++) {
		int k = theme_color_index(c, ncolors[i]);
		if (k < -1 || k >= (ncolors[i] ? ncolors[i] : 1))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme t;
	char err[512];
	const char *s = (const char *)data;
	const char *nl = memchr(s, '\n', size);
	struct theme_color c;
	if (theme_color_parse(s, nl ? (size_t)(nl - s) : size, &c))
		check_color(&c);
	memset(&t, 0xa5, sizeof t); /* nothing may depend on what was there */
	if (theme_parse(&t, s, size, "fuzz", err, sizeof err) != 0) {
		if (!memchr(err, '\0', sizeof err) || !err[0])
			__builtin_trap(); /* a failure always says why */
		return 0;
	}
	if (!memchr(t.name, '\0', sizeof t.name) || !memchr(t.description, '\0', sizeof t.description))
		__builtin_trap();
	for (int r = 0; r < THEME_ROLE_COUNT; r++) {
		const struct theme_style *st = &t.role[r];
		if (st->attrs & ~(THEME_ATTR_BOLD | THEME_ATTR_UNDERLINE | THEME_ATTR_REVERSE | THEME_ATTR_DIM))
			__builtin_trap();
		check_color(&st->fg);
		check_color(&st->bg);
		if (!theme_role_name(r) || theme_role_from_name(theme_role_name(r)) != r)
			__builtin_trap();
	}
	return 0;
}
