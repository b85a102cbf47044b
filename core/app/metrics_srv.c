/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics_srv.c — --metrics and --metrics-textfile (metrics_srv.h).
 *
 * Why libmicrohttpd: it is made to be embedded in a program that has its own
 * event loop (its "external select" modes hand us an epoll descriptor and a
 * timeout and do the work when we call MHD_run), it bounds what a client may
 * cost (connection limit, per-connection timeout, a memory pool per
 * connection that a long request line cannot grow), it is packaged by Debian
 * (libmicrohttpd-dev) and kept up by GNU. A hand-written HTTP/1.1 parser would
 * be less code to link and more code to get wrong. */
#include "stwtop/metrics_srv.h"
#include "stwtop/metrics.h"
#include "stwtop_revision.h"    /* generated: STWTOP_REVISION */

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "stwtop/util.h"

#ifdef STWTOP_HAVE_MHD
#include <dlfcn.h>
#include <microhttpd.h>

/* libmicrohttpd is loaded when --metrics asks for it, not linked: linked, it
 * and GnuTLS with its half-dozen libraries were mapped and relocated at every
 * start (2.8 MB of RSS and ~4 M instructions of the dynamic linker, on a
 * machine that is already in trouble) for an option most runs do not use.
 * The header still gives the types and constants; the ten calls go through
 * this table. ABI 12 is libmicrohttpd's since 0.9.x (Debian 11-13). */
static struct {
	bool tried, ok;
	char why[300];
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_run) *run;
	__typeof__(MHD_get_timeout) *get_timeout;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
} mhd;

static bool mhd_load(void)
{
	if (mhd.tried)
		return mhd.ok;
	mhd.tried = true;
	void *h = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		h = dlopen("libmicrohttpd.so", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(mhd.why, sizeof mhd.why, "cannot load libmicrohttpd (%s): install it (Debian: "
			 "apt-get install libmicrohttpd12), or use --metrics-textfile", dlerror());
		return false;
	}
	struct { void **fn; const char *name; } syms[] = {
		{(void **)&mhd.start_daemon, "MHD_start_daemon"},
		{(void **)&mhd.stop_daemon, "MHD_stop_daemon"},
		{(void **)&mhd.run, "MHD_run"},
		{(void **)&mhd.get_timeout, "MHD_get_timeout"},
		{(void **)&mhd.get_daemon_info, "MHD_get_daemon_info"},
		{(void **)&mhd.create_response_from_buffer, "MHD_create_response_from_buffer"},
		{(void **)&mhd.add_response_header, "MHD_add_response_header"},
		{(void **)&mhd.queue_response, "MHD_queue_response"},
		{(void **)&mhd.destroy_response, "MHD_destroy_response"},
		{(void **)&mhd.lookup_connection_value, "MHD_lookup_connection_value"},
	};
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		*syms[i].fn = dlsym(h, syms[i].name);
		if (!*syms[i].fn) {
			snprintf(mhd.why, sizeof mhd.why, "libmicrohttpd has no %s: too old a version", syms[i].name);
			return false;
		}
	}
	mhd.ok = true;
	return true;
}

#define MHD_start_daemon (*mhd.start_daemon)
#define MHD_stop_daemon (*mhd.stop_daemon)
#define MHD_run (*mhd.run)
#define MHD_get_timeout (*mhd.get_timeout)
#define MHD_get_daemon_info (*mhd.get_daemon_info)
#define MHD_create_response_from_buffer (*mhd.create_response_from_buffer)
#define MHD_add_response_header (*mhd.add_response_header)
#define MHD_queue_response (*mhd.queue_response)
#define MHD_destroy_response (*mhd.destroy_response)
#define MHD_lookup_connection_value (*mhd.lookup_connection_value)
#endif

struct metrics_srv {
	struct loop *loop;
	const struct session *s;
	struct metrics_srv_opts o;
	char *textfile;
	int file_timer;
	double start_s;               /* this process's start, Unix seconds */
#ifdef STWTOP_HAVE_MHD
	struct MHD_Daemon *d;
	int epfd;
	int mhd_timer;
#endif
	uint64_t scrapes;
};

int metrics_parse_addr(const char *arg, struct sockaddr_storage *ss, socklen_t *len, char *err, size_t errlen)
{
	char host[64] = METRICS_DEFAULT_HOST;
	const char *port = arg;
	const char *colon = strrchr(arg, ':');
	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');
		if (!close || close[1] != ':' || (size_t)(close - arg - 1) >= sizeof host) {
			snprintf(err, errlen, "--metrics '%s': an IPv6 address is written [ADDR]:PORT", arg);
			return -EINVAL;
		}
		memcpy(host, arg + 1, (size_t)(close - arg - 1));
		host[close - arg - 1] = '\0';
		port = close + 2;
	} else if (colon) {
		size_t hl = (size_t)(colon - arg);
		if (hl >= sizeof host) {
			snprintf(err, errlen, "--metrics '%s': the address is too long", arg);
			return -EINVAL;
		}
		if (hl > 0) {
			memcpy(host, arg, hl);
			host[hl] = '\0';
		}
		port = colon + 1;
	}
	char *end;
	errno = 0;
	long p = strtol(port, &end, 10);
	if (!port[0] || *end || errno || p < 1 || p > 65535) {
		snprintf(err, errlen, "--metrics '%s': not ADDR:PORT (a port 1..65535, e.g. :9612 or 0.0.0.0:9612)",
			 arg);
		return -EINVAL;
	}
	if (strcmp(host, "localhost") == 0)
		snprintf(host, sizeof host, "%s", METRICS_DEFAULT_HOST);
	memset(ss, 0, sizeof *ss);
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		*len = sizeof *v4;
	} else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		*len = sizeof *v6;
	} else {
		snprintf(err, errlen, "--metrics '%s': '%s' is not a numeric IPv4/IPv6 address (or localhost)", arg,
			 host);
		return -EINVAL;
	}
	return 0;
}

/* --- this process (process_*) --- */

/* a small /proc file whole into buf; its length, -1 on error */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* /proc/self/stat fields 14 utime, 15 stime, 22 starttime (clock ticks),
 * 23 vsize (bytes), 24 rss (pages) — proc(5). The command name (field 2) may
 * hold spaces and parentheses: fields are counted from its last ')'. */
static int self_stat(double *cpu_s, int64_t *start_ticks, int64_t *vsize, int64_t *rss_pages)
{
	char buf[1024];
	if (read_small("/proc/self/stat", buf, sizeof buf) < 0)
		return -1;
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	long long v[24] = {0};
	for (int field = 3; field <= 24 && *p; field++) {
		while (*p == ' ')
			p++;
		char *end;
		long long x = strtoll(p, &end, 10);
		if (end == p && field != 3)
			return -1;
		v[field - 1] = x;
		p = end;
		while (*p && *p != ' ')
			p++;
	}
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0)
		return -1;
	*cpu_s = (double)(v[13] + v[14]) / (double)hz;
	*start_ticks = v[21];
	*vsize = v[22];
	*rss_pages = v[23];
	return 0;
}

/* the boot time (/proc/stat btime), for the process start */
static int64_t boot_time_s(void)
{
	char buf[8192];
	if (read_small("/proc/stat", buf, sizeof buf) < 0)
		return -1;
	const char *p = strstr(buf, "\nbtime ");
	return p ? strtoll(p + 7, NULL, 10) : -1;
}

#ifdef STWTOP_HAVE_MHD
static int64_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	int64_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n > 0 ? n - 1 : 0; /* not the directory's own descriptor */
}

static void process_read(struct metrics_srv *m, struct metrics_process *p)
{
	memset(p, 0, sizeof *p);
	int64_t ticks = 0, vsize = 0, rss = 0;
	if (self_stat(&p->cpu_seconds, &ticks, &vsize, &rss) == 0) {
		p->vsize_bytes = vsize;
		p->rss_bytes = rss * sysconf(_SC_PAGESIZE);
	}
	p->start_s = m->start_s;
	p->open_fds = open_fds();
	struct rlimit rl;
	p->max_fds = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? (int64_t)rl.rlim_cur : -1;
}
#endif

/* when this process started, Unix seconds: from the kernel's own numbers,
 * else now (metrics_srv_new runs at the start) */
static double process_start_s(void)
{
	double cpu;
	int64_t ticks, vsize, rss, bt = boot_time_s();
	long hz = sysconf(_SC_CLK_TCK);
	if (bt > 0 && hz > 0 && self_stat(&cpu, &ticks, &vsize, &rss) == 0)
		return (double)bt + (double)ticks / (double)hz;
	return (double)util_now_ms() / 1000.0;
}

/* --- the file --- */

static void write_file(struct metrics_srv *m)
{
	/* a failure (disk full, directory gone) is retried at the next interval;
	 * the file keeps its last complete content meanwhile. No process_*: the
	 * collector that reads the file exports its own under those names. */
	struct metrics_ctx ctx = {.now_ms = util_now_ms(), .textfile_start_s = m->start_s};
	(void)metrics_write_file(m->textfile, m->s, &ctx);
}

static void on_file_timer(void *ctx)
{
	write_file(ctx);
}

/* --- HTTP --- */

#ifdef STWTOP_HAVE_MHD

bool metrics_srv_http_available(void)
{
	return true;
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *ctype, char *body,
			      size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result answer_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	char *body = strdup(text);
	if (!body)
		return MHD_NO;
	return answer(c, status, "text/plain; charset=utf-8", body, strlen(body));
}

/* "/": what exporters answer there (node_exporter's landing page): a
 * person who opens the port in a browser finds the metrics */
static enum MHD_Result answer_landing(struct MHD_Connection *c)
{
	char *body = NULL;
	if (asprintf(&body,
		     "<!DOCTYPE html>\n<html><head><title>stwtop</title></head><body>\n"
		     "<h1>stwtop</h1>\n<p>Stop-the-world pauses of a JVM and what they cost nginx, as Prometheus "
		     "metrics.</p>\n<p><a href=\"/metrics\">Metrics</a></p>\n"
		     "<p>version %s, revision %s, features %s</p>\n</body></html>\n",
		     STWTOP_VERSION, STWTOP_REVISION, metrics_features()) < 0)
		return MHD_NO;
	return answer(c, MHD_HTTP_OK, "text/html; charset=utf-8", body, strlen(body));
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	(void)version;
	(void)upload_data;
	struct metrics_srv *m = cls;
	bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0, head = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	/* errors are answered at once (and the connection closed: a body we
	 * refuse is not read) */
	bool root = strcmp(url, "/") == 0;
	if (!root && strcmp(url, "/metrics") != 0)
		return answer_text(c, MHD_HTTP_NOT_FOUND, "not found: stwtop serves /metrics\n");
	if (!get && !head)
		return answer_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: GET or HEAD\n");
	if (root)
		return answer_landing(c);
	/* a scrape on the second call, once the request is whole: a response
	 * queued on the first call makes libmicrohttpd close the connection,
	 * and Prometheus keeps its connection from one scrape to the next */
	static int whole;
	if (*con_cls != &whole) {
		*con_cls = &whole;
		return MHD_YES;
	}
	if (*upload_data_size != 0) {
		*upload_data_size = 0; /* a body on a GET: ignored */
		return MHD_YES;
	}
	enum metrics_format f =
		metrics_format_for_accept(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	struct metrics_buf b = {0};
	struct metrics_process proc;
	process_read(m, &proc);
	struct metrics_ctx ctx = {.now_ms = util_now_ms(), .proc = &proc};
	if (metrics_render(&b, m->s, f, &ctx) != 0) {
		metrics_buf_fini(&b);
		return answer_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	}
	m->scrapes++;
	/* the body goes to MHD, which frees it after sending (MUST_FREE) */
	return answer(c, MHD_HTTP_OK, metrics_content_type(f), b.s, b.len);
}

/* MHD has work at its next timeout (idle connections to close, a response
 * still to send): one one-shot timer, re-armed after every run */
static void rearm(struct metrics_srv *m)
{
	MHD_UNSIGNED_LONG_LONG to;
	if (MHD_get_timeout(m->d, &to) == MHD_YES)
		loop_set_timer(m->loop, m->mhd_timer, (int64_t)(to < 1000000 ? to : 1000000), 0);
	else
		loop_set_timer(m->loop, m->mhd_timer, -1, 0);
}

static void on_mhd_fd(void *ctx, int fd, short revents)
{
	(void)fd;
	(void)revents;
	struct metrics_srv *m = ctx;
	MHD_run(m->d);
	rearm(m);
}

static void on_mhd_timer(void *ctx)
{
	struct metrics_srv *m = ctx;
	MHD_run(m->d);
	rearm(m);
}

/* the listening socket is ours: bind's own errno makes the message
 * ("Address already in use"), which MHD_start_daemon does not report */
static int listen_on(const struct sockaddr_storage *ss, socklen_t sl)
{
	int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (const struct sockaddr *)ss, sl) != 0 || listen(fd, 64) != 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

static int http_open(struct metrics_srv *m, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	if (metrics_parse_addr(m->o.addr, &ss, &sl, err, errlen) != 0)
		return -EINVAL;
	if (!mhd_load()) {
		snprintf(err, errlen, "--metrics %s: %s", m->o.addr, mhd.why);
		return -ENOENT;
	}
	int lfd = listen_on(&ss, sl);
	if (lfd < 0) {
		snprintf(err, errlen, "--metrics %s: cannot listen: %s", m->o.addr, strerror(-lfd));
		return lfd;
	}
	unsigned flags = MHD_USE_EPOLL;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the daemon owns lfd from here (MHD_stop_daemon closes it) */
	m->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, m,
				MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lfd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)METRICS_SRV_MAX_CONN,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)METRICS_SRV_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)METRICS_SRV_MEM,
				MHD_OPTION_END);
	if (!m->d) {
		close(lfd);
		snprintf(err, errlen, "--metrics %s: the HTTP server did not start", m->o.addr);
		return -EIO;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(m->d, MHD_DAEMON_INFO_EPOLL_FD);
	m->epfd = di ? di->epoll_fd : -1;
	m->mhd_timer = loop_add_timer(m->loop, -1, 0, on_mhd_timer, m);
	if (m->epfd < 0 || m->mhd_timer < 0 || loop_add_fd(m->loop, m->epfd, POLLIN, on_mhd_fd, m) != 0) {
		snprintf(err, errlen, "--metrics %s: cannot add the server to the event loop", m->o.addr);
		return -EIO;
	}
	return 0;
}

static void http_close(struct metrics_srv *m)
{
	if (!m->d)
		return;
	if (m->epfd >= 0)
		loop_del_fd(m->loop, m->epfd);
	if (m->mhd_timer >= 0)
		loop_del_timer(m->loop, m->mhd_timer);
	MHD_stop_daemon(m->d);
	m->d = NULL;
}

#else /* built without libmicrohttpd (the static build) */

bool metrics_srv_http_available(void)
{
	return false;
}

static int http_open(struct metrics_srv *m, char *err, size_t errlen)
{
	snprintf(err, errlen, "--metrics %s: this stwtop was built without libmicrohttpd (a static build); "
		 "use --metrics-textfile FILE", m->o.addr);
	return -ENOTSUP;
}

static void http_close(struct metrics_srv *m)
{
	(void)m;
}

#endif

struct metrics_srv *metrics_srv_new(struct loop *l, const struct session *s, const struct metrics_srv_opts *o,
				    char *err, size_t errlen)
{
	struct metrics_srv *m = calloc(1, sizeof *m);
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->loop = l;
	m->s = s;
	m->o = *o;
	m->start_s = process_start_s();
	m->file_timer = -1;
#ifdef STWTOP_HAVE_MHD
	m->epfd = m->mhd_timer = -1;
#endif
	if (o->textfile) {
		m->textfile = strdup(o->textfile);
		struct metrics_ctx ctx = {.now_ms = util_now_ms(), .textfile_start_s = m->start_s};
		int rc = m->textfile ? metrics_write_file(m->textfile, s, &ctx) : -ENOMEM;
		if (rc != 0) {
			snprintf(err, errlen, "--metrics-textfile %s: %s", o->textfile, strerror(-rc));
			goto fail;
		}
		int iv = o->interval_ms > 0 ? o->interval_ms : 1000;
		m->file_timer = loop_add_timer(l, iv, iv, on_file_timer, m);
	}
	if (o->addr && http_open(m, err, errlen) != 0)
		goto fail;
	return m;
fail:
	http_close(m);
	if (m->file_timer >= 0)
		loop_del_timer(l, m->file_timer);
	free(m->textfile);
	free(m);
	return NULL;
}

void metrics_srv_free(struct metrics_srv *m)
{
	if (!m)
		return;
	http_close(m);
	if (m->textfile)
		write_file(m);
	if (m->file_timer >= 0)
		loop_del_timer(m->loop, m->file_timer);
	free(m->textfile);
	free(m);
}

uint64_t metrics_srv_scrapes(const struct metrics_srv *m)
{
	return m->scrapes;
}
