/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nginx_sniff.c — an access log's format guessed from its first lines when
 * the user gave none (nginx.h: nginx_sniff_*; the guess itself is
 * nginx_fmt_detect in nginx.c). */
#include "stwtop/nginx.h"

#include <stdlib.h>
#include <string.h>

bool nginx_sniff_add(struct nginx_sniff *sn, const char *line, size_t len)
{
	if (sn->n < NGINX_SNIFF_LINES) {
		char *copy = malloc(len + 1);
		if (copy) {
			memcpy(copy, line, len);
			copy[len] = '\0';
			sn->buf[sn->n] = copy;
			sn->len[sn->n++] = len;
		}
	}
	return sn->n >= NGINX_SNIFF_LINES;
}

struct nginx_fmt *nginx_sniff_decide(const struct nginx_sniff *sn)
{
	const char *lines[NGINX_SNIFF_LINES];
	for (int k = 0; k < sn->n; k++)
		lines[k] = sn->buf[k];
	struct nginx_fmt *f = nginx_fmt_detect(lines, sn->len, sn->n);
	return f ? f : nginx_fmt_combined();
}

void nginx_sniff_fini(struct nginx_sniff *sn)
{
	for (int k = 0; k < sn->n; k++) {
		free(sn->buf[k]);
		sn->buf[k] = NULL;
	}
	sn->n = 0;
}
