#!/usr/bin/env python3
"""latency.py BIN [N] — time from a line's write to its verdict being visible.

stwtop --plain --json follows a gc.log that starts with a real JVM's start-up
lines (tests/samples/combined/throttle-stop). N times, a writer appends one
safepoint line whose time to safepoint is 700 ms, each 2 minutes of data after
the previous (so each is a new incident): that single line completes a
ttsp-spike verdict. The clock starts right before the write() and stops when
the NDJSON line {"type":"verdict","event":"new","id":"ttsp-spike",...} for it
has been read from stwtop's stdout. Prints median, p90, worst and best in ms.
"""
import json, os, select, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, '..', 'samples', 'combined', 'throttle-stop', 'gc.log')
BASE_MS = 1795980218332 + 5000      # just after the sample's first line (19:23:38.332Z)
UP0_MS = 5      # that line's uptime


def iso(ms):
    t = time.gmtime(ms // 1000)
    return time.strftime('%Y-%m-%dT%H:%M:%S', t) + '.%03d+0000' % (ms % 1000)


def sp_line(ms):
    up = ms - (1795980218332 - UP0_MS)
    return ('[%s][%d.%03ds][info][safepoint   ] Safepoint "ThreadDump", Time since last: 1000000000 ns, '
            'Reaching safepoint: 700000000 ns, Cleanup: 17645 ns, At safepoint: 1102522 ns, '
            'Total: 701123404 ns\n' % (iso(ms), up // 1000, up % 1000))


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    d = tempfile.mkdtemp()
    log = os.path.join(d, 'gc.log')
    with open(SAMPLE) as f, open(log, 'w') as o:
        for i, line in enumerate(f):
            if 'GC(' in line:
                break
            o.write(line)           # the banner: Using G1, version, ... with time and uptime
    p = subprocess.Popen([binary, '--plain', '--json', '--interval', '1000', '--gc', log],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, TZ='UTC'))
    buf = b''
    lat = []
    try:
        time.sleep(0.5)
        for k in range(n):
            ms = BASE_MS + k * 120000
            want = iso(ms - 701)[:19]  # the stop's start, to the second
            fd = os.open(log, os.O_WRONLY | os.O_APPEND)
            t0 = time.monotonic()
            os.write(fd, sp_line(ms).encode())
            os.close(fd)
            deadline = t0 + 10
            found = None
            while found is None and time.monotonic() < deadline:
                r, _, _ = select.select([p.stdout], [], [], 0.5)
                if not r:
                    continue
                chunk = os.read(p.stdout.fileno(), 65536)
                if not chunk:
                    raise SystemExit('stwtop exited')
                buf += chunk
                while b'\n' in buf:
                    line, buf = buf.split(b'\n', 1)
                    try:
                        o = json.loads(line)
                    except ValueError:
                        continue
                    if (o.get('type') == 'verdict' and o.get('event') == 'new' and o.get('id') == 'ttsp-spike'
                            and o.get('start', '').startswith(want)):
                        found = time.monotonic()
            if found is None:
                raise SystemExit('no verdict within 10 s for write %d' % k)
            lat.append((found - t0) * 1000)
            time.sleep(0.2)
    finally:
        p.terminate()
        p.wait()
    lat.sort()
    p90 = lat[int(0.9 * (len(lat) - 1))]
    print('   (a) line written -> NDJSON verdict read: %d writes, median %.1f ms, p90 %.1f ms, worst %.1f ms, '
          'best %.1f ms' % (len(lat), statistics.median(lat), p90, lat[-1], lat[0]))


if __name__ == '__main__':
    main()
