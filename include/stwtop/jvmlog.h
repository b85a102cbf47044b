/* jvmlog.h — JVM GC and safepoint log lines to events.
 *
 * One parser per source file. Formats are detected per line: JDK 9+ unified
 * logging with any decorations, JDK 8 -XX:+PrintGCDetails / PrintGCDateStamps /
 * PrintGCTimeStamps lines, "Total time for which application threads were
 * stopped", JDK 8/11 PrintSafepointStatistics, SafepointTimeout reports (also
 * inside a console log mixed with application output). Ground truth for every
 * format string: ../shared/FORMATS.md. Pure: no I/O, no globals.
 */
#ifndef STWTOP_JVMLOG_H
#define STWTOP_JVMLOG_H

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
 * decoration (its printed offset) when present, else from the anchor when one
 * is known (jvmlog_set_anchor, or learnt from a line carrying both time and
 * uptime), else EV_TIME_NONE with up_us set. */
int jvmlog_parse_line(struct jvmlog *p, const char *line, size_t len, struct event *out, int cap);

/* Tell the parser the wall clock of JVM uptime 0 (epoch ms), e.g. from
 * /proc/PID/stat or --jvm-start, or from another source of the same JVM. */
void jvmlog_set_anchor(struct jvmlog *p, int64_t start_ms);
/* The anchor in use (EV_TIME_NONE if none). */
int64_t jvmlog_anchor(const struct jvmlog *p);
/* Collector learnt so far (GC_UNKNOWN until a "Using ..." line or a telling pause). */
int jvmlog_collector(const struct jvmlog *p);
/* JDK feature release learnt so far (8, 11, 17, ...; 0 unknown). */
int jvmlog_jdk_release(const struct jvmlog *p);

/* End of input (a file read to its end, a source closed): emit what multi-line
 * items are still waiting for a line that will not come (a JDK 8 G1 pause
 * waiting for its heap line, a SafepointTimeout report without "(End of list)",
 * a -Xlog:safepoint+stats row waiting for its "Safepoint" line). Same return
 * convention as jvmlog_parse_line (never JVMLOG_UNKNOWN). A live tail need not
 * call it: the next line flushes them too. */
int jvmlog_flush(struct jvmlog *p, struct event *out, int cap);

#endif
