/* SPDX-License-Identifier: GPL-2.0-or-later */
/* attach_jcmd.c — a developer's tool and the e2e tests' probe: run one
 * diagnostic command in a JVM through core/probe/attach.c, as `jcmd PID CMD`
 * does. Prints the JVM's text on stdout; exit 0 when the JVM answered status 0,
 * 3 when it answered another status (said on stderr), 1 with the reason on
 * stderr when it could not be reached (nothing was signalled unless safe). */
#include "stwtop/attach.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	static char out[1 << 20];
	char why[1600];
	int status;
	if (argc != 3) {
		fprintf(stderr, "usage: attach_jcmd PID 'COMMAND ARGS'\n");
		return 2;
	}
	if (attach_jcmd("", atoi(argv[1]), argv[2], &status, out, sizeof out, why, sizeof why) < 0) {
		fprintf(stderr, "attach_jcmd: %s\n", why);
		return 1;
	}
	fputs(out, stdout);
	if (status != 0) {
		fprintf(stderr, "attach_jcmd: JVM status %d\n", status);
		return 3;
	}
	return 0;
}
