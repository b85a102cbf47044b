#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""metrics_http.py — the --metrics HTTP server and --metrics-textfile under a
real run of `stwtop --plain --json` (stdout a file: a sidecar) following logs
that the test writes, rotates and truncates.

Checks (each prints PASS/FAIL; exit 1 on any FAIL):
  - a small HTML page at /, 404 for another path, 405 (with Allow) for POST/PUT/DELETE, HEAD 200 with no body;
  - OpenMetrics when the Accept header asks (content type, "# EOF");
  - 20 parallel scrapes all answer 200 with the whole text;
  - a client that connects and sends nothing, and one that sends half a request,
    do not slow a scrape (answered under 0.5 s), and are closed by the server
    after its timeout; 40 silent clients (over the limit of 32) delay a scrape
    at most until that timeout, and the loop goes on meanwhile;
  - a 100 KB request line gets an error status (or a close), never a 200, and
    the next scrape answers;
  - the access log truncated (copytruncate) and the GC log rotated (mv + new
    file) while scraped every 50 ms: no counter sample ever goes down, and the
    end values equal `stwtop --report --json` over the whole files;
  - the textfile is complete at every one of many reads, changes as data
    comes, and holds the final values after SIGTERM.
usage: metrics_http.py BIN SAMPLE_DIR
"""
import http.client, json, os, re, signal, socket, subprocess, sys, tempfile, threading, time

BIN, SAMPLE = sys.argv[1], sys.argv[2]
fails = 0


def check(ok, what):
    global fails
    print(('PASS ' if ok else 'FAIL ') + what, flush=True)
    if not ok:
        fails += 1


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    p = s.getsockname()[1]
    s.close()
    return p


def req(port, method='GET', path='/metrics', headers=None, timeout=5):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, dict(r.getheaders()), body


SAMPLE_RE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$')


def parse(text):
    out = {}
    for line in text.splitlines():
        m = SAMPLE_RE.match(line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def complete(text):
    return text.startswith('# HELP stwtop_build_info') and text.endswith('\n') and 'stwtop_source_up{' in text


def lines(path):
    with open(path, 'rb') as f:
        return f.read().splitlines(keepends=True)


def append(path, chunk):
    with open(path, 'ab') as f:
        for ln in chunk:
            f.write(ln)


def wait_until(fn, secs=20):
    end = time.time() + secs
    while time.time() < end:
        try:
            if fn():
                return True
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    return False


tmp = tempfile.mkdtemp(prefix='stwtop-metrics-')
gc, ngx, prom = os.path.join(tmp, 'gc.log'), os.path.join(tmp, 'access.log'), os.path.join(tmp, 'm.prom')
gcl, ngl = lines(os.path.join(SAMPLE, 'gc.log')), lines(os.path.join(SAMPLE, 'logs/access.log'))
open(gc, 'wb').close()
open(ngx, 'wb').close()
port = free_port()
args = [BIN, '--plain', '--json', '--gc', gc, '--nginx', ngx, '--nginx-conf', os.path.join(SAMPLE, 'nginx.conf'),
        '--metrics', '127.0.0.1:%d' % port, '--metrics-textfile', prom, '--interval', '200']
out = open(os.path.join(tmp, 'stdout'), 'w')
proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, TZ='UTC'))
holders = []
try:
    check(wait_until(lambda: req(port)[0] == 200), 'the server answers')
    half_gc, half_ng = len(gcl) // 2, len(ngl) // 2
    append(gc, gcl[:half_gc])
    append(ngx, ngl[:half_ng])

    st, h, body = req(port, 'GET', '/nope')
    check(st == 404, '404 for /nope (got %d)' % st)
    st, h, body = req(port, 'GET', '/')
    check(st == 200 and h.get('Content-Type', '').startswith('text/html') and b'href="/metrics"' in body,
          'a landing page at / linking /metrics (got %d %s)' % (st, h.get('Content-Type')))
    for m in ('POST', 'PUT', 'DELETE', 'OPTIONS'):
        st, h, body = req(port, m)
        check(st == 405 and 'GET' in h.get('Allow', ''), '405 with Allow for %s (got %d)' % (m, st))
    st, h, body = req(port, 'HEAD')
    check(st == 200 and body == b'' and int(h.get('Content-Length', '0')) > 1000,
          'HEAD: 200, no body, Content-Length %s' % h.get('Content-Length'))
    st, h, body = req(port, headers={'Accept': 'application/openmetrics-text;version=1.0.0,text/plain;q=0.5'})
    check(st == 200 and h.get('Content-Type', '').startswith('application/openmetrics-text; version=1.0.0')
          and body.endswith(b'# EOF\n'), 'OpenMetrics on request: %s' % h.get('Content-Type'))
    st, h, body = req(port)
    check(h.get('Content-Type') == 'text/plain; version=0.0.4; charset=utf-8', 'text format by default')

    # one connection for several scrapes, as Prometheus keeps it
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=5)
    codes = []
    for _ in range(3):
        c.request('GET', '/metrics')
        r = c.getresponse()
        codes.append((r.status, complete(r.read().decode())))
    c.close()
    check(codes == [(200, True)] * 3, 'three scrapes on one kept-alive connection: %s' % codes)

    # 20 scrapes at once
    res = [None] * 20

    def one(i):
        try:
            s, _h, b = req(port, timeout=5)
            res[i] = (s, complete(b.decode()))
        except Exception as e:  # noqa
            res[i] = (str(e), False)
    ts = [threading.Thread(target=one, args=(i,)) for i in range(20)]
    t0 = time.time()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(all(r == (200, True) for r in res), '20 parallel scrapes: all 200 and whole (%.2f s): %s'
          % (time.time() - t0, [r for r in res if r != (200, True)][:3]))

    # silent and half-request clients
    silent = socket.create_connection(('127.0.0.1', port))
    half = socket.create_connection(('127.0.0.1', port))
    half.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n')
    holders += [silent, half]
    time.sleep(0.3)
    t0 = time.time()
    st, _h, body = req(port, timeout=2)
    dt = time.time() - t0
    check(st == 200 and complete(body.decode()) and dt < 0.5,
          'a scrape beside a silent and a half-request client: %d in %.3f s' % (st, dt))

    def closed_by_server(s, within):
        s.settimeout(within)
        try:
            return s.recv(100) == b'' or True   # EOF (or an error answer) from the server
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True
    t0 = time.time()
    c1 = closed_by_server(silent, 9)
    c2 = closed_by_server(half, 9)
    check(c1 and c2, 'idle clients closed by the server after its timeout (%.1f s)' % (time.time() - t0))

    # more silent clients than the connection limit (32): the loop goes on (status lines
    # keep coming every 200 ms) and a scrape waits in the kernel's queue until the server's
    # timeout frees places, then answers
    flood = [socket.create_connection(('127.0.0.1', port)) for _ in range(40)]
    holders += flood
    n0 = sum(1 for _ in open(os.path.join(tmp, 'stdout')))
    t0 = time.time()
    try:
        st, _h, body = req(port, timeout=9)
    except Exception as e:  # noqa
        st, body = str(e), b''
    dt = time.time() - t0
    n1 = sum(1 for _ in open(os.path.join(tmp, 'stdout')))
    check(st == 200 and complete(body.decode()) and dt < 7,
          '40 silent connections (over the limit of 32): a scrape still answers, in %.1f s' % dt)
    check(n1 - n0 >= 5, 'and the loop went on meanwhile: %d status lines in %.1f s' % (n1 - n0, dt))
    for f in flood:
        f.close()

    # a 100 KB request line
    big = socket.create_connection(('127.0.0.1', port))
    big.settimeout(5)
    try:
        big.sendall(b'GET /' + b'a' * 100000 + b' HTTP/1.1\r\nHost: x\r\n\r\n')
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        answer = big.recv(200)
    except (ConnectionResetError, socket.timeout) as e:
        answer = str(e).encode()
    big.close()
    check(not answer.startswith(b'HTTP/1.1 200') and (answer == b'' or re.match(rb'HTTP/1\.[01] (4\d\d)', answer)
                                                      or b'reset' in answer),
          'a 100 KB request line is refused: %r' % answer[:40])
    st, _h, body = req(port)
    check(st == 200 and complete(body.decode()), 'and the next scrape answers')

    # scrapes every 50 ms while the logs are truncated and rotated
    series, stop = [], threading.Event()

    def scraper():
        while not stop.is_set():
            try:
                series.append(parse(req(port, timeout=2)[2].decode()))
            except Exception:  # noqa
                pass
            time.sleep(0.05)
    th = threading.Thread(target=scraper)
    th.start()
    check(wait_until(lambda: parse(req(port)[2].decode()).get(
        'stwtop_source_lines_total{source="%s",state="parsed"}' % gc, 0) > 0), 'first half of gc.log read')
    check(wait_until(lambda: sum(v for k, v in parse(req(port)[2].decode()).items()
                                 if k.startswith('stwtop_nginx_requests_total')) >= half_ng),
          'first half of the access log read')
    early_file_stops = parse(open(prom).read()).get('stwtop_safepoint_seconds_count', 0)
    # copytruncate of the access log, then the rest
    with open(ngx, 'r+b') as f:
        f.truncate(0)
    time.sleep(0.6)
    append(ngx, ngl[half_ng:])
    # rotation of the GC log: mv and a new file
    os.rename(gc, gc + '.1')
    time.sleep(0.3)
    append(gc, gcl[half_gc:])
    rep = json.loads(subprocess.run([BIN, '--report', '--json', '--gc', os.path.join(SAMPLE, 'gc.log'), '--nginx',
                                     os.path.join(SAMPLE, 'logs/access.log'), '--nginx-conf',
                                     os.path.join(SAMPLE, 'nginx.conf')], capture_output=True, text=True,
                                    env=dict(os.environ, TZ='UTC')).stdout)
    want_stops, want_req = rep['summary']['stops'], rep['summary']['nginx']['requests']
    check(wait_until(lambda: parse(req(port)[2].decode()).get('stwtop_safepoint_seconds_count') == want_stops and
                     sum(v for k, v in parse(req(port)[2].decode()).items()
                         if k.startswith('stwtop_nginx_requests_total')) == want_req, 30),
          'after truncation and rotation: stops %d and requests %d as the report' % (want_stops, want_req))
    time.sleep(0.5)
    stop.set()
    th.join()
    downs = []
    for a, b in zip(series, series[1:]):
        for k, v in a.items():
            if (k.split('{')[0].endswith('_total') or '_bucket' in k or k.endswith('_count')) and b.get(k, v) < v:
                downs.append((k, v, b.get(k)))
    check(len(series) > 20 and not downs, '%d scrapes during truncation and rotation, no counter went down %s'
          % (len(series), downs[:3]))
    last = parse(req(port)[2].decode())
    uct_n = last['stwtop_nginx_upstream_connect_duration_seconds_count']
    check(uct_n == float(sum(rep['summary']['nginx']['uct_buckets'].values())) and uct_n > 0,
          'connects as the report: %s' % uct_n)

    # the textfile: complete at every read, changing, final at exit
    reads, bad, seen = 0, 0, set()
    end = time.time() + 2
    while time.time() < end:
        with open(prom) as f:
            t = f.read()
        reads += 1
        bad += not complete(t)
        seen.add(t)
    check(reads > 100 and bad == 0, 'textfile: %d reads, %d incomplete' % (reads, bad))
    check(early_file_stops < want_stops and
          wait_until(lambda: parse(open(prom).read()).get('stwtop_safepoint_seconds_count') == want_stops, 3),
          'textfile follows the data: stops %s with half the log, %d at the end' % (early_file_stops, want_stops))
    check(len(seen) >= 1 and not any(n.endswith('.prom') and n != 'm.prom' for n in os.listdir(tmp)),
          'no other *.prom left in the directory: %s' % os.listdir(tmp))
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    check(proc.returncode == 0, 'stwtop exits 0 on SIGTERM (rc %s)' % proc.returncode)
    fin = parse(open(prom).read())
    check(fin.get('stwtop_safepoint_seconds_count') == want_stops and fin.get(
        'stwtop_nginx_upstream_connect_duration_seconds_count') == float(sum(rep['summary']['nginx']['uct_buckets'].values())),
        'textfile at exit holds the final values (stops %s)' % fin.get('stwtop_safepoint_seconds_count'))
finally:
    for s in holders:
        s.close()
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    out.close()
    if fails:
        print(open(os.path.join(tmp, 'stdout')).read()[-3000:])
    subprocess.run(['rm', '-rf', tmp])
sys.exit(1 if fails else 0)
