/* test_hserr.c — crash reports: two REAL hs_err files provoked here (OpenJDK 17
 * and Temurin 25 with an AOT cache, SIGSEGV through Unsafe.putAddress(0)), a
 * synthetic AOT-cache SIGILL in ~AdapterBlob derived from the JDK 25 one
 * (FIELD-NOTES 7), and synthetic JDK 8 / out-of-memory headers. See
 * tests/fixtures/hserr/README.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stwtop/hserr.h"
#include "stwtop/util.h"

#define HS STWTOP_TEST_DIR "/fixtures/hserr/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b; /* deliberately not NUL-terminated for the parser */
}

static void test_real_jdk17(void **state)
{
	(void)state;
	size_t len;
	char *b = slurp(HS "hs_err_pid26891-jdk17-sigsegv.log", &len);
	struct event e;
	assert_true(hserr_parse(b, len, &e));
	assert_int_equal(e.kind, EV_HSERR);
	assert_string_equal(e.u.hserr.signal, "SIGSEGV");
	assert_string_equal(e.u.hserr.frame, "V  [libjvm.so+0xed2f94]  Unsafe_PutLong+0x124");
	assert_int_equal(e.u.hserr.aot, 0);
	assert_string_equal(e.u.hserr.path, "");
	assert_int_equal(e.t_ms, util_utc_ms(2026, 11, 29, 20, 8, 33, 0));
	assert_int_equal(e.up_us, 53530);

	/* the same file with CRLF line ends */
	char *crlf = malloc(len * 2);
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (b[i] == '\n')
			crlf[o++] = '\r';
		crlf[o++] = b[i];
	}
	struct event c;
	assert_true(hserr_parse(crlf, o, &c));
	assert_string_equal(c.u.hserr.frame, e.u.hserr.frame);
	assert_string_equal(c.u.hserr.signal, "SIGSEGV");
	assert_int_equal(c.t_ms, e.t_ms);
	free(crlf);

	/* a report still being written: as far as it goes */
	assert_true(hserr_parse(b, 200, &c));
	assert_string_equal(c.u.hserr.signal, "SIGSEGV");
	assert_string_equal(c.u.hserr.frame, "");
	assert_int_equal(c.t_ms, EV_TIME_NONE);
	assert_false(hserr_parse(b, 40, &c)); /* the header line is not complete yet */
	free(b);
}

static void test_real_jdk25_aot(void **state)
{
	(void)state;
	size_t len;
	char *b = slurp(HS "hs_err_pid27641-jdk25-aot-sigsegv.log", &len);
	struct event e;
	assert_true(hserr_parse(b, len, &e));
	assert_string_equal(e.u.hserr.signal, "SIGSEGV");
	assert_string_equal(e.u.hserr.frame, "V  [libjvm.so+0x123632d]  Unsafe_PutLong+0xad");
	assert_int_equal(e.u.hserr.aot, 1); /* -XX:AOTCache=app.aot on the command line */
	assert_int_equal(e.t_ms, util_utc_ms(2026, 11, 29, 20, 8, 45, 0));
	assert_int_equal(e.up_us, 66970);
	free(b);
}

/* synthetic: the incident of FIELD-NOTES 7 (SIGILL in an adapter from an AOT cache
 * trained on a CPU with more features), time in CET */
static void test_synthetic_aot_sigill(void **state)
{
	(void)state;
	size_t len;
	char *b = slurp(HS "hs_err_synthetic-jdk25-aot-sigill.log", &len);
	struct event e;
	setenv("TZ", "Europe/Paris", 1);
	assert_true(hserr_parse(b, len, &e));
	setenv("TZ", "UTC", 1);
	assert_string_equal(e.u.hserr.signal, "SIGILL");
	assert_string_equal(e.u.hserr.frame, "v  ~AdapterBlob 0x00007f93c4a1e400");
	assert_non_null(strstr(e.u.hserr.frame, "~AdapterBlob"));
	assert_int_equal(e.u.hserr.aot, 1);
	assert_int_equal(e.t_ms, util_utc_ms(2026, 11, 29, 20, 8, 45, 0)); /* 21:08:45 CET */
	free(b);
}

/* synthetic: older header forms and odd content */
static void test_synthetic_forms(void **state)
{
	(void)state;
	struct event e;
	const char *jdk8 = "#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n"
			   "#  Internal Error (sharedRuntime.cpp:834), pid=4242, tid=0x00007f2c\n"
			   "#  fatal error: exception happened outside interpreter, nmethods and vtable stubs at pc 0x1\n#\n"
			   "# JRE version: OpenJDK Runtime Environment (8.0_392-b08) (build 1.8.0_392-b08)\n"
			   "# Problematic frame:\n# V  [libjvm.so+0xa0c5e1]  SharedRuntime::continuation_for_implicit_exception+0x1\n#\n"
			   "---------------  T H R E A D  ---------------\n\n"
			   "time: Mon Jan  6 10:54:11 2025\nelapsed time: 3 seconds (0d 0h 0m 3s)\n";
	setenv("TZ", "UTC", 1);
	assert_true(hserr_parse(jdk8, strlen(jdk8), &e));
	assert_string_equal(e.u.hserr.signal, "Internal Error");
	/* ev_hserr.frame holds 63 bytes: a long C++ frame is cut */
	assert_string_equal(e.u.hserr.frame, "V  [libjvm.so+0xa0c5e1]  SharedRuntime::continuation_for_implic");
	assert_int_equal(e.t_ms, util_utc_ms(2025, 1, 6, 10, 54, 11, 0));
	assert_int_equal(e.up_us, 3000000);
	assert_int_equal(e.u.hserr.aot, 0);

	const char *oom = "#\n# There is insufficient memory for the Java Runtime Environment to continue.\n"
			  "# Native memory allocation (mmap) failed to map 65536 bytes for committing reserved memory.\n"
			  "# An error report file with more information is saved as:\n# /srv/hs_err_pid7.log\n";
	assert_true(hserr_parse(oom, strlen(oom), &e));
	assert_string_equal(e.u.hserr.signal, "Out of Memory");
	assert_string_equal(e.u.hserr.frame, "");

	/* control bytes in the frame are escaped before they can reach a terminal */
	const char *esc = "# A fatal error has been detected by the Java Runtime Environment:\n"
			  "#  SIGBUS (0x7) at pc=0x0\n# Problematic frame:\n# C  [libevil.so+0x1]  f\x1b[31mred\n";
	assert_true(hserr_parse(esc, strlen(esc), &e));
	assert_string_equal(e.u.hserr.signal, "SIGBUS");
	assert_string_equal(e.u.hserr.frame, "C  [libevil.so+0x1]  f\\e[31mred");

	/* an absurd elapsed time is not converted (found by fuzz_hserr: double -> int64 overflow) */
	const char *huge = "# A fatal error has been detected by the Java Runtime Environment:\n"
			   "elapsed time: 888888888888888888888888888888888888888888888888892\n";
	assert_true(hserr_parse(huge, strlen(huge), &e));
	assert_int_equal(e.up_us, -1);

	/* not crash reports */
	const char *gc = "[2026-11-29T19:23:38.327+0000][0.005s][info][gc] Using G1\n";
	assert_false(hserr_parse(gc, strlen(gc), &e));
	assert_false(hserr_parse("", 0, &e));
	size_t len;
	char *g = slurp(STWTOP_TEST_DIR "/samples/combined/throttle-stop/gc.log", &len);
	assert_false(hserr_parse(g, len, &e));
	free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_jdk17),
		cmocka_unit_test(test_real_jdk25_aot),
		cmocka_unit_test(test_synthetic_aot_sigill),
		cmocka_unit_test(test_synthetic_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
