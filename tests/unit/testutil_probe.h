/* SPDX-License-Identifier: GPL-2.0-or-later */
/* testutil_probe.h — small helpers shared by the probe/discovery/replay tests
 * (included after cmocka.h). cmocka 1.1.5 has no assert_double_equal. */
#ifndef STWTOP_TESTUTIL_PROBE_H
#define STWTOP_TESTUTIL_PROBE_H

#include <linux/capability.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline void check_dbl(double a, double b, double eps, const char *ea, const char *eb,
			     const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%s = %.9g, expected %s = %.9g (+- %g)\n", ea, a, eb, b, eps);
		_fail(file, line);
	}
}
#define assert_double_equal(a, b, eps) check_dbl((a), (b), (eps), #a, #b, __FILE__, __LINE__)

/* Fixture trees (tests/fixtures/NAME) copied into a fresh temp dir, so tests
 * may chmod and remove files in them; unstage is a cmocka teardown. */
static char tu_tmp[64];

/* an empty temp dir, removed by unstage */
static inline const char *tu_tempdir(void)
{
	snprintf(tu_tmp, sizeof tu_tmp, "/tmp/stwtop-probe-XXXXXX");
	assert_non_null(mkdtemp(tu_tmp));
	return tu_tmp;
}

static inline const char *stage(const char *name)
{
	char cmd[1024];
	tu_tempdir();
	snprintf(cmd, sizeof cmd, "cp -a '%s/fixtures/%s/.' '%s/'", STWTOP_TEST_DIR, name, tu_tmp);
	assert_int_equal(system(cmd), 0);
	return tu_tmp;
}

static inline int unstage(void **state)
{
	(void)state;
	if (tu_tmp[0]) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "chmod -R u+rwX '%s' 2>/dev/null; rm -rf '%s'", tu_tmp, tu_tmp);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tu_tmp);
		tu_tmp[0] = '\0';
	}
	return 0;
}

static inline void write_file(const char *root, const char *rel, const char *text)
{
	char path[1024];
	snprintf(path, sizeof path, "%s%s", root, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Root ignores file modes (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): drop them
 * from the effective set for the duration, so chmod 000 gives EACCES as for
 * another user; true when it could. */
static inline bool caps_dac(bool on)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	uint32_t bits = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);
	if (on)
		d[0].effective |= bits & d[0].permitted;
	else
		d[0].effective &= ~bits;
	return syscall(SYS_capset, &h, d) == 0;
}

#endif
