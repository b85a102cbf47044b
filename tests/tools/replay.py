#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""replay.py — append the lines of recorded logs to files at their original pace
(or SPEED times faster), in the order their own timestamps give, the way the
real writers did: one write per line, the files opened for append.

usage: replay.py --speed 4 --log writes.tsv DEST=SRC [DEST=SRC ...]

Each line's data time comes from the line itself: a leading [ISO-8601] (JVM
unified logging), a leading ISO time (cpu.stat shell loop), a leading epoch in
seconds with a fraction (nginx $msec) or epoch milliseconds (schedstat/vmstat
samplers), an nginx [$time_local], or, with --uptime-anchor MS (the JVM's start
in epoch ms), a leading JVM uptime ([1.947s], [349ms]). Lines without one (a
CSV header, a multi-line report) go with the previous line of their file.
writes.tsv gets one row per written line: wall_ms, dest, line_no, data_ms.
"""
import argparse, datetime, os, re, sys, time

ISO = re.compile(r'^\[?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d{4}|Z)?')
EPOCH = re.compile(r'^(\d{10})(?:\.(\d{1,3}))?[ ,]|^(\d{13})[ ,]')
UPTIME = re.compile(r'^\[(\d+(?:\.\d+)?)(s|ms)\]')
TLOCAL = re.compile(r'\[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) ([+-])(\d\d)(\d\d)\]')
UPTIME_ANCHOR = None


def data_time(line):
    m = ISO.match(line)
    if m:
        ts, off = m.group(1), m.group(2) or '+0000'
        fmt = '%Y-%m-%dT%H:%M:%S.%f' if '.' in ts else '%Y-%m-%dT%H:%M:%S'
        d = datetime.datetime.strptime(ts, fmt)
        if off == 'Z':
            off = '+0000'
        sign = -1 if off[0] == '-' else 1
        delta = datetime.timedelta(hours=int(off[1:3]), minutes=int(off[3:5])) * sign
        return int((d - delta).replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
    m = EPOCH.match(line)
    if m:
        if m.group(3):
            return int(m.group(3))
        return int(m.group(1)) * 1000 + int((m.group(2) or '0').ljust(3, '0'))
    m = UPTIME.match(line)
    if m and UPTIME_ANCHOR is not None:
        v = float(m.group(1))
        return UPTIME_ANCHOR + int(round(v * 1000 if m.group(2) == 's' else v))
    m = TLOCAL.search(line)
    if m:
        d = datetime.datetime.strptime(m.group(1), '%d/%b/%Y:%H:%M:%S')
        off = datetime.timedelta(hours=int(m.group(3)), minutes=int(m.group(4))) * (-1 if m.group(2) == '-' else 1)
        return int((d - off).replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--speed', type=float, default=1.0)
    ap.add_argument('--log', required=True)
    ap.add_argument('--start-delay', type=float, default=0.0)
    ap.add_argument('--uptime-anchor', type=int, help='JVM start, epoch ms: places uptime-only lines')
    ap.add_argument('pairs', nargs='+')
    a = ap.parse_args()
    global UPTIME_ANCHOR
    UPTIME_ANCHOR = a.uptime_anchor
    rows = []
    for fi, pair in enumerate(a.pairs):
        dest, src = pair.split('=', 1)
        prev = None
        with open(src, 'rb') as f:
            for n, raw in enumerate(f, 1):
                t = data_time(raw.decode('utf-8', 'replace'))
                if t is None:
                    t = prev if prev is not None else -1
                prev = t
                rows.append((t, fi, n, dest, raw))
    first = min(r[0] for r in rows if r[0] >= 0)
    rows = [(first if t < 0 else t, fi, n, d, raw) for (t, fi, n, d, raw) in rows]
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    outs = {}
    time.sleep(a.start_delay)
    t0 = time.monotonic()
    with open(a.log, 'w') as log:
        for t, fi, n, dest, raw in rows:
            due = (t - first) / 1000.0 / a.speed
            wait = t0 + due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            if dest not in outs:
                outs[dest] = os.open(dest, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.write(outs[dest], raw)
            log.write('%d\t%s\t%d\t%d\n' % (time.time() * 1000, dest, n, t))
    for fd in outs.values():
        os.close(fd)


if __name__ == '__main__':
    sys.exit(main())
