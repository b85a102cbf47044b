/* ui.c — placeholder until the curses dashboard lands: no terminal UI yet. */
#include "app.h"

#include <stdio.h>

int ui_run(struct live *l, struct session *s, const struct cli *c, const struct ui_info *info,
	   char *why, size_t whylen)
{
	(void)l;
	(void)s;
	(void)c;
	(void)info;
	snprintf(why, whylen, "the curses dashboard is not built yet");
	return -1;
}
