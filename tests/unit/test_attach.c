/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_attach.c — the attach protocol's pieces and VM.log list parsing with no
 * JVM (core/probe/attach.c, core/probe/vmlog.c); the live protocol is
 * tests/e2e/attach_live.sh. The list text is what JDK 17 printed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "stwtop/attach.h"
#include "stwtop/vmlog.h"

static void request_bytes(void **state)
{
	(void)state;
	char buf[2048];
	size_t n = attach_request(buf, sizeof buf, "jcmd", "VM.version");
	assert_int_equal(n, 20);
	assert_memory_equal(buf, "1\0jcmd\0VM.version\0\0\0", 20);
	assert_int_equal(attach_request(buf, 10, "jcmd", "VM.version"), 0); /* does not fit */
	char big[1100];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(attach_request(buf, sizeof buf, "jcmd", big), 0); /* over 1024: HotSpot refuses */
	assert_int_equal(attach_request(buf, sizeof buf, "a_name_over_16_bytes", ""), 0);
}

static void reply_split(void **state)
{
	(void)state;
	int st;
	const char *t;
	size_t tl;
	const char ok[] = "0\nOpenJDK 64-Bit Server VM version 17\n";
	assert_true(attach_parse_reply(ok, strlen(ok), &st, &t, &tl));
	assert_int_equal(st, 0);
	assert_int_equal(tl, strlen(ok) - 2);
	const char bad[] = "-1\njava.lang.IllegalArgumentException: Unknown diagnostic command\n";
	assert_true(attach_parse_reply(bad, strlen(bad), &st, &t, &tl));
	assert_int_equal(st, -1);
	assert_false(attach_parse_reply("", 0, &st, &t, &tl));          /* closed at once: refused */
	assert_false(attach_parse_reply("0", 1, &st, &t, &tl));         /* no complete line */
	assert_false(attach_parse_reply("x1\nz", 4, &st, &t, &tl));
}

static const char LIST[] =
	"Available log levels: off, trace, debug, info, warning, error\n"
	"Described tag sets:\n logging: Logging for the log framework itself\n"
	"Log output configuration:\n"
	" #0: stdout all=warning uptime,level,tags\n"
	" #1: stderr all=off uptime,level,tags\n"
	" #2: file=/tmp/stwtop-gc-12136.log all=off,gc*=info,safepoint=info time,uptime,level,tags "
	"filecount=5,filesize=20480K,async=false (reconfigured)\n"
	" #3: file=/var/log/app/safepoints.log all=off,safepoint=info uptime,level,tags filecount=5\n"
	" #4: file=\"/tmp/gc all.log\" all=info uptime filecount=5\n"
	" #5: file=/tmp/gc-off.log all=off,gc=off uptime filecount=5\n";

static void list_outputs(void **state)
{
	(void)state;
	struct vmlog_output o[VMLOG_MAX_OUTPUTS];
	int n = vmlog_parse_list(LIST, strlen(LIST), o, VMLOG_MAX_OUTPUTS);
	assert_int_equal(n, 6);
	assert_string_equal(o[0].name, "stdout");
	assert_false(o[0].file);
	assert_false(o[0].gc);           /* all=warning: no gc info lines */
	assert_int_equal(o[2].num, 2);
	assert_true(o[2].file);
	assert_string_equal(o[2].path, "/tmp/stwtop-gc-12136.log");
	assert_true(o[2].gc);
	assert_false(o[3].gc);           /* safepoint only */
	assert_true(o[4].gc);            /* all=info */
	assert_false(o[5].gc);
	assert_int_equal(vmlog_parse_list(LIST, strlen(LIST), o, 2), 2);
}

static void commands(void **state)
{
	(void)state;
	char c[600];
	vmlog_command(c, sizeof c, "/tmp/stwtop-gc-7.log", true);
	assert_string_equal(c, "VM.log output=file=/tmp/stwtop-gc-7.log what=gc*,safepoint "
			       "decorators=time,uptime,level,tags output_options=filecount=5,filesize=20m");
	vmlog_command(c, sizeof c, "/tmp/stwtop-gc-7.log", false);
	/* one output dropped; never "VM.log disable", which drops them all */
	assert_string_equal(c, "VM.log output=file=/tmp/stwtop-gc-7.log what=all=off");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(request_bytes),
		cmocka_unit_test(reply_split),
		cmocka_unit_test(list_outputs),
		cmocka_unit_test(commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
