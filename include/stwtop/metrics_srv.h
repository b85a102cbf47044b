/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_srv.h — --metrics ADDR:PORT and --metrics-textfile FILE: the
 * session's metrics (metrics.h) served over HTTP and written to a file, both
 * from the one event loop (loop.h). No thread: the HTTP library
 * (libmicrohttpd) runs in its external-epoll mode, its epoll descriptor is
 * one more descriptor of our loop and its timeouts one of our timers, so a
 * scrape reads the session between two events, without a lock.
 *
 * The HTTP side answers GET and HEAD of /metrics; any other path 404, any
 * other method 405. At most METRICS_SRV_MAX_CONN connections (more wait in
 * the listen queue), each closed after METRICS_SRV_TIMEOUT_S without
 * progress; a request whose line and headers do not fit METRICS_SRV_MEM
 * bytes is refused (414/431) and closed.
 */
#ifndef STWTOP_METRICS_SRV_H
#define STWTOP_METRICS_SRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "stwtop/loop.h"
#include "stwtop/session.h"

#define METRICS_SRV_MAX_CONN 32
#define METRICS_SRV_TIMEOUT_S 5
#define METRICS_SRV_MEM 16384
#define METRICS_DEFAULT_HOST "127.0.0.1"

/* Parse "PORT", ":PORT", "HOST:PORT" or "[V6]:PORT" (HOST: a numeric
 * address or "localhost"; none: 127.0.0.1). 0, or -EINVAL with err. */
int metrics_parse_addr(const char *arg, struct sockaddr_storage *ss, socklen_t *len, char *err, size_t errlen);

/* true when this binary can serve --metrics (built with libmicrohttpd) */
bool metrics_srv_http_available(void);

struct metrics_srv_opts {
	const char *addr;             /* --metrics, NULL: no HTTP */
	const char *textfile;         /* --metrics-textfile, NULL: none */
	int interval_ms;              /* how often the file is rewritten */
};

struct metrics_srv;
/* Bind and listen, write the file once. NULL with err naming the option
 * ("--metrics 127.0.0.1:9404: Address already in use"). */
struct metrics_srv *metrics_srv_new(struct loop *l, const struct session *s, const struct metrics_srv_opts *o,
				    char *err, size_t errlen);
/* Writes the file a last time (the session's final state), then closes. */
void metrics_srv_free(struct metrics_srv *m);
/* Scrapes answered with 200 (tests, the bench). */
uint64_t metrics_srv_scrapes(const struct metrics_srv *m);

#endif
