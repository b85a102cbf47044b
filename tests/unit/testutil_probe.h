/* testutil_probe.h — small helpers shared by the probe/discovery/replay tests
 * (included after cmocka.h). cmocka 1.1.5 has no assert_double_equal. */
#ifndef STWTOP_TESTUTIL_PROBE_H
#define STWTOP_TESTUTIL_PROBE_H

#include <math.h>
#include <stdio.h>

static inline void check_dbl(double a, double b, double eps, const char *ea, const char *eb,
			     const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%s = %.9g, expected %s = %.9g (+- %g)\n", ea, a, eb, b, eps);
		_fail(file, line);
	}
}
#define assert_double_equal(a, b, eps) check_dbl((a), (b), (eps), #a, #b, __FILE__, __LINE__)

#endif
