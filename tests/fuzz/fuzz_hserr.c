/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_hserr.c — libFuzzer target for hserr_parse (crash reports, possibly
 * truncated or hostile). Seeds: the heads of the real reports in fixtures/hserr. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stwtop/hserr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event e;
	if (hserr_parse((const char *)data, size, &e)) {
		/* the strings must be terminated within their buffers */
		if (strnlen(e.u.hserr.signal, sizeof e.u.hserr.signal) == sizeof e.u.hserr.signal ||
		    strnlen(e.u.hserr.frame, sizeof e.u.hserr.frame) == sizeof e.u.hserr.frame)
			__builtin_trap();
	}
	return 0;
}
