/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hserr.h — a JVM crash report (hs_err_pid<pid>.log, as
 * HotSpot 8-21 write it) read into one EV_HSERR: the signal or error kind, the
 * problematic frame ("v  ~AdapterBlob 0x..." for the AOT-cache SIGILL), whether
 * an AOT cache is involved, and the crash time.
 *
 *   #  SIGILL (0x4) at pc=0x00007f93c4a1e4c0, pid=1, tid=7
 *   # Problematic frame:
 *   # v  ~AdapterBlob 0x00007f93c4a1e400
 *   Time: Sun Nov 29 21:08:45 2026 CET elapsed time: 0.066970 seconds (0d 0h 0m 0s)
 *   jvm_args: -XX:AOTCache=app.aot ...
 */
#ifndef STWTOP_HSERR_H
#define STWTOP_HSERR_H

#include <stdbool.h>
#include <stddef.h>

#include "stwtop/event.h"

/* buf[0..len) is (the beginning of) a crash report; no NUL needed. Fills *out
 * (EV_HSERR): signal ("SIGILL", "SIGSEGV", "Internal Error", "Out of Memory"),
 * frame (as printed, sanitised, "" if not written yet), aot (1 when the report
 * names an AOT cache: -XX:AOTCache / AOTMode / AOTCacheOutput / "AOT Code Cache"),
 * t_ms from the "Time:" line (a zone other than UTC/GMT is taken as the local
 * TZ: abbreviations are ambiguous), up_us from "elapsed time". path stays ""
 * (the caller knows it). false if buf is not a crash report. A report still
 * being written parses as far as it goes. */
bool hserr_parse(const char *buf, size_t len, struct event *out);

#endif
