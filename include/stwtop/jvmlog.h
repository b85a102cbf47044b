/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jvmlog.h — JVM GC and safepoint log lines to events.
 *
 * One parser per source file. Formats are detected per line: JDK 9+ unified
 * logging with any decorations, JDK 8 -XX:+PrintGCDetails / PrintGCDateStamps /
 * PrintGCTimeStamps lines, "Total time for which application threads were
 * stopped", JDK 8/11 PrintSafepointStatistics, SafepointTimeout reports (also
 * inside a console log mixed with application output). Ground truth for every
 * format string in HotSpot's source of that release. Pure: no I/O, no globals.
 */
#ifndef STWTOP_JVMLOG_H
#define STWTOP_JVMLOG_H

#include <stdbool.h>
#include <stddef.h>
#include "stwtop/event.h"

/* The most events one line can produce (e.g. an anchor + a pause + an info). */
#define JVMLOG_MAX_EVENTS 4

/* jvmlog_parse_line return values < 0 */
#define JVMLOG_UNKNOWN (-1)     /* not a JVM log line: counted as unparsed */

struct jvmlog;

struct jvmlog *jvmlog_new(void);
void jvmlog_free(struct jvmlog *p);

/* Parse one complete line (no trailing newline; may contain any bytes).
 * Returns the number of events written to out[0..cap) (0 = a JVM line that
 * carries no event, e.g. a phase detail), or JVMLOG_UNKNOWN. cap must be
 * >= JVMLOG_MAX_EVENTS. Events get t_ms from the line's own wall-clock
 * decoration (its printed offset) when present, else EV_TIME_NONE with up_us
 * set: placing uptime on the wall clock is the caller's (store/jvmclock.c,
 * from the EV_ANCHOR this parser reports and from other sources). */
int jvmlog_parse_line(struct jvmlog *p, const char *line, size_t len, struct event *out, int cap);

/* Why the last jvmlog_parse_line() returned JVMLOG_UNKNOWN when it was a JVM
 * line the parser had to give up on (e.g. a JDK 8 record longer than its
 * bound), for --verbose; NULL when the line simply is not a JVM line. */
const char *jvmlog_why(const struct jvmlog *p);
/* Lines of GC records the parser gave up on since the last call: a JDK 8
 * record cut by another line or by the end of the log before its
 * ", <n> secs]", or past its bound. They were returned as parsed when read
 * (a record is read as it streams by); the caller counts them as unparsed.
 * Returns their number (0: none), *first_line the 1-based number, among the
 * lines given to this parser, of the first one, *why the reason (static). */
uint64_t jvmlog_take_lost(struct jvmlog *p, uint64_t *first_line, const char **why);
/* Lines read that held nothing but blanks (outside a record): parsed, but
 * they do not make a text a JVM log (session_checked). */
uint64_t jvmlog_blank_lines(const struct jvmlog *p);
/* A GC pause whose start line came and whose end line has not (yet): true,
 * with the start line's wall clock (*t_ms, EV_TIME_NONE if it had none) and
 * uptime (*up_us, -1 if none). Live, a JVM hung in a collection looks so
 * until it ends or dies. */
bool jvmlog_open_pause(const struct jvmlog *p, int64_t *t_ms, int64_t *up_us);
/* Where the parser counts those lines: read it after every line (a load, not
 * a call) and call jvmlog_take_lost() only when it is not 0. */
const uint64_t *jvmlog_lost_counter(const struct jvmlog *p);
/* What a line stwtop did not read as a JVM log looks like, when it is the
 * output of something stwtop knows it does not read (OpenJ9/IBM verbose GC
 * XML, JRockit, a Go GC trace, binary data): "an OpenJ9 / IBM J9 verbose GC
 * log (XML)". NULL when it looks like nothing in particular. */
const char *jvmlog_foreign_shape(const char *s, size_t n);

/* Collector learnt so far (GC_UNKNOWN until a "Using ..." line or a telling pause). */
int jvmlog_collector(const struct jvmlog *p);
/* JDK feature release learnt so far (8, 11, 17, ...; 0 unknown). */
int jvmlog_jdk_release(const struct jvmlog *p);

/* The parser reads the line shapes HotSpot writes through fast paths that
 * must give exactly what its general, field-by-field reading gives. With on,
 * only the general reading runs: for the tests and the fuzzer that check the
 * two agree, never needed otherwise. */
void jvmlog_set_general_only(struct jvmlog *p, bool on);

/* Notes on what the parser reports (details in core/jvmlog*.c):
 * - jvmlog_jdk_release(): from a "Version:" / JDK 8 "JRE (1.8.0_...)" line when
 *   seen; before that, the lowest release that prints a line shape seen so far
 *   (JDK 8 stamps -> 8, unified "Total time for which ..." -> 9, Safepoint line
 *   without Cleanup -> 13, with Cleanup -> 17, with Leaving -> 21, with Threads
 *   -> 25, "Periodic GC enabled with interval" -> 12, "Last whole heap GC" -> 23,
 *   Major/Minor Collection -> 21).
 * - EV_ANCHOR: once per JVM, from the first line carrying both a wall clock and
 *   an uptime, or from an application's "<epoch ms> uptime_ms=<n>" line. When
 *   uptime goes back by more than 1 s (a new JVM in the same file) the next
 *   such line reports the new JVM's anchor.
 * - JDK 8 pause stamps are the pause's start: events carry start + duration.
 *   A PrintSafepointStatistics row's stamp is the safepoint's begin: its event
 *   carries begin + sync + cleanup + vmop.
 * - A -Xlog:safepoint+stats row and the "Safepoint" line of the same safepoint
 *   (JDK 17 prints both) give one EV_SAFEPOINT (SP_UNIFIED with thread counts).
 * - Durations are clamped to [0, 10^12] ms, sizes and counts saturate: numbers
 *   from a line never cause undefined behaviour downstream. */

/* End of input (a file read to its end, a source closed): emit what multi-line
 * items are still waiting for a line that will not come (a JDK 8 G1 pause
 * waiting for its heap line, a SafepointTimeout report without "(End of list)",
 * a -Xlog:safepoint+stats row waiting for its "Safepoint" line). Same return
 * convention as jvmlog_parse_line (never JVMLOG_UNKNOWN). A live tail need not
 * call it: the next line flushes them too. */
int jvmlog_flush(struct jvmlog *p, struct event *out, int cap);

#endif
