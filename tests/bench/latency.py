#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""latency.py BIN [N] [--tmux] — time from a line's write to its verdict being visible.

stwtop --plain --json follows a gc.log that starts with a real JVM's start-up
lines (tests/samples/combined/throttle-stop). N times, a writer appends one
safepoint line whose time to safepoint is 700 ms, each 2 minutes of data after
the previous (so each is a new incident): that single line completes a
ttsp-spike verdict. The clock starts right before the write() and stops when
the NDJSON line {"type":"verdict","event":"new","id":"ttsp-spike",...} for it
has been read from stwtop's stdout. With --tmux, the curses dashboard runs in
a detached tmux and the clock stops when capture-pane shows the verdict.
Prints median, p90, worst and best in ms.

With LATENCY_STREAM=1 (NDJSON only), a second writer appends the real nginx
access log of the same sample to a followed access.log, one line every 5 ms,
for the whole run: the measured line then arrives in a steady stream, where
the files are read in passes TAIL_GAP_MS apart (core/app/live.c). The pause
between two measured writes is 200 ms plus a random 0-100 ms (seeded), so a
write lands anywhere in the gap: with a fixed pause it fell at the same point
of the gap each time (a pause a multiple of the gap measured the best case at
every write, another the worst).
"""
import json, os, random, select, statistics, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, '..', 'samples', 'combined', 'throttle-stop', 'gc.log')
ACCESS = os.path.join(HERE, '..', 'samples', 'combined', 'throttle-stop', 'logs', 'access.log')
LAB = ('$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time '
       'urt=$upstream_response_time rt=$request_time')


def stream(path, stop):
    """append the sample's access log, one line every 5 ms, until stop is set"""
    with open(ACCESS, 'rb') as f:
        lines = f.readlines()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    i = 0
    while not stop.is_set():
        os.write(fd, lines[i % len(lines)])
        i += 1
        time.sleep(0.005)
    os.close(fd)
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


def banner(log):
    with open(SAMPLE) as f, open(log, 'w') as o:
        for line in f:
            if 'GC(' in line:
                break
            o.write(line)           # the banner: Using G1, version, ... with time and uptime


def append(log, ms):
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    t0 = time.monotonic()
    os.write(fd, sp_line(ms).encode())
    os.close(fd)
    return t0


def summary(what, lat):
    lat.sort()
    p90 = lat[int(0.9 * (len(lat) - 1))]
    print('   %s: %d writes, median %.1f ms, p90 %.1f ms, worst %.1f ms, best %.1f ms'
          % (what, len(lat), statistics.median(lat), p90, lat[-1], lat[0]))


def tmux_screen(binary, n):
    """The curses dashboard in a detached tmux (120x40): poll capture-pane until
    the verdicts pane shows the new stop's start time."""
    d = tempfile.mkdtemp()
    log = os.path.join(d, 'gc.log')
    banner(log)
    sock = 'stwtop-lat-%d' % os.getpid()
    tm = ['tmux', '-L', sock, '-f', '/dev/null']
    subprocess.check_call(tm + ['new-session', '-d', '-s', 'lat', '-x', '120', '-y', '40',
                                'TERM=tmux-256color TZ=UTC %s --gc %s; sleep 600' % (binary, log)])
    lat, polls = [], []
    try:
        time.sleep(1.5)
        for k in range(n):
            ms = BASE_MS + k * 120000
            want = 'stop at ' + time.strftime('%H:%M:%S', time.gmtime((ms - 701) // 1000)) + '.%03d' % ((ms - 701) % 1000)
            t0 = append(log, ms)
            deadline = t0 + 10
            seen = None
            npoll = 0
            while seen is None and time.monotonic() < deadline:
                scr = subprocess.run(tm + ['capture-pane', '-p', '-t', 'lat'], capture_output=True, text=True).stdout
                npoll += 1
                if want in scr:
                    seen = time.monotonic()
            if seen is None:
                raise SystemExit('tmux: %r not on the screen within 10 s' % want)
            lat.append((seen - t0) * 1000)
            polls.append((seen - t0) * 1000 / max(npoll, 1))
            time.sleep(0.3)
    finally:
        subprocess.run(tm + ['kill-server'])
    summary('(b) line written -> verdict on the tmux screen (capture-pane every %.1f ms)'
            % statistics.median(polls), lat)


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    if len(sys.argv) > 3 and sys.argv[3] == '--tmux':
        return tmux_screen(binary, n)
    d = tempfile.mkdtemp()
    log = os.path.join(d, 'gc.log')
    banner(log)
    args = [binary, '--plain', '--json', '--interval', '1000', '--gc', log]
    streaming = os.environ.get('LATENCY_STREAM') == '1'
    stop = threading.Event()
    if streaming:
        acc = os.path.join(d, 'access.log')
        open(acc, 'w').close()
        args += ['--nginx', acc, '--nginx-format', LAB]
        threading.Thread(target=stream, args=(acc, stop), daemon=True).start()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ, TZ='UTC'))
    buf = b''
    lat = []
    rng = random.Random(27)
    try:
        time.sleep(0.5)
        for k in range(n):
            ms = BASE_MS + k * 120000
            want = iso(ms - 701)[:19]  # the stop's start, to the second
            t0 = append(log, ms)
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
            time.sleep(0.2 + rng.uniform(0, 0.1))
    finally:
        # stop reading first: at exit stwtop prints every verdict's final state,
        # more than a pipe holds, and a write blocked on a full pipe does not see
        # SIGTERM (it is taken by signalfd): closing our end makes it EPIPE
        stop.set()
        p.stdout.close()
        p.terminate()
        p.wait(timeout=30)
    summary('(a) line written -> NDJSON verdict read' + (', nginx lines every 5 ms meanwhile' if streaming else ''), lat)


if __name__ == '__main__':
    main()
