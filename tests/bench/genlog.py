#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""genlog.py — big, valid, time-ordered logs for the throughput benchmarks, made
by repeating a real sample with every timestamp shifted.

    genlog.py KIND SAMPLE OUT MBYTES

KIND says which timestamps the sample carries and how to shift them:
  unified   JDK 9+ -Xlog with time and/or uptime decorations
            ([2026-11-29T19:06:59.960+0000][0.007s] or [7ms]); GC(n) ids continue
  jdk8      -XX:+PrintGCDetails -XX:+PrintGCDateStamps (ISO-8601 date stamps and
            'seconds.millis: ' uptime stamps, also the ones inside a line)
  safepoint the lines of a unified log whose tags are 'safepoint' (what
            -Xlog:safepoint writes), shifted like 'unified'
  nginx     an access log with $time_local ([29/Nov/2026:19:13:18 +0000])
            and/or $msec (1795980222.372) as a field

The sample's leading lines before the first timestamped event (the JVM's
start-up banner and flags) are written once; the rest is repeated, each copy
moved later by the span of the sample plus one second, so the output reads
like one process that ran for a long time: wall clock and uptime advance
together (the JVM anchor stays constant), GC ids keep growing, and the file
stays ordered by time. Repetition stops at the first copy boundary past
MBYTES * 10^6 bytes.
"""
import re
import sys
import calendar
import time

ISO = re.compile(rb'(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})([+-])(\d\d):?(\d\d)')
UP_S = re.compile(rb'\[(\d+)\.(\d{3})s\]')
UP_MS = re.compile(rb'\[(\d+)ms\]')
GCID = re.compile(rb'GC\((\d+)\)')
JDK8_UP = re.compile(rb'(?:(?<=^)|(?<=[\s:\[]))(\d+)\.(\d{3}): ')
CLF = re.compile(rb'\[(\d\d)/(\w{3})/(\d{4}):(\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)\]')
MSEC = re.compile(rb'(?:(?<=^)|(?<=\s))(1\d{9})\.(\d{3})(?=\s|$)')
MONTHS = [b'Jan', b'Feb', b'Mar', b'Apr', b'May', b'Jun', b'Jul', b'Aug', b'Sep', b'Oct', b'Nov', b'Dec']


def iso_ms(m):
    y, mo, d, hh, mi, ss, ms = (int(x) for x in m.group(1, 2, 3, 4, 5, 6, 7))
    off = (int(m.group(9)) * 60 + int(m.group(10))) * 60 * (1 if m.group(8) == b'+' else -1)
    return (calendar.timegm((y, mo, d, hh, mi, ss)) - off) * 1000 + ms, off, m.group(0)[23:]


def clf_ms(m):
    d, mon, y, hh, mi, ss = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)
    off = (int(m.group(8)) * 60 + int(m.group(9))) * 60 * (1 if m.group(7) == b'+' else -1)
    sec = calendar.timegm((int(y), MONTHS.index(mon) + 1, int(d), int(hh), int(mi), int(ss))) - off
    return sec * 1000, off, m.group(0)[22:-1]


# A token: (start, end, kind, value, extra). The unit is rendered as literal
# slices between tokens, with every token re-rendered for the copy's shift.
def tokenize(unit, kind):
    toks = []
    if kind in ('unified', 'safepoint', 'jdk8'):
        for m in ISO.finditer(unit):
            v, off, suffix = iso_ms(m)
            toks.append((m.start(), m.end(), 'iso', v, (off, suffix)))
    if kind in ('unified', 'safepoint'):
        for m in UP_S.finditer(unit):
            toks.append((m.start(), m.end(), 'up_s', int(m.group(1)) * 1000 + int(m.group(2)), None))
        for m in UP_MS.finditer(unit):
            toks.append((m.start(), m.end(), 'up_ms', int(m.group(1)), None))
        for m in GCID.finditer(unit):
            toks.append((m.start(), m.end(), 'gcid', int(m.group(1)), None))
    if kind == 'jdk8':
        for m in JDK8_UP.finditer(unit):
            toks.append((m.start(), m.end(), 'up8', int(m.group(1)) * 1000 + int(m.group(2)), None))
    if kind == 'nginx':
        for m in CLF.finditer(unit):
            v, off, suffix = clf_ms(m)
            toks.append((m.start(), m.end(), 'clf', v, (off, suffix)))
        for m in MSEC.finditer(unit):
            toks.append((m.start(), m.end(), 'msec', int(m.group(1)) * 1000 + int(m.group(2)), None))
    toks.sort()
    return toks


class Render:
    def __init__(self):
        self.cache = {}

    def iso(self, v, off, suffix):
        sec, ms = divmod(v, 1000)
        key = ('i', sec, off)
        s = self.cache.get(key)
        if s is None:
            if len(self.cache) > 100000:
                self.cache.clear()
            s = time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(sec + off)).encode()
            self.cache[key] = s
        return b'%s.%03d%s' % (s, ms, suffix)

    def clf(self, v, off, suffix):
        sec = v // 1000
        key = ('c', sec, off)
        s = self.cache.get(key)
        if s is None:
            if len(self.cache) > 100000:
                self.cache.clear()
            t = time.gmtime(sec + off)
            s = b'[%02d/%s/%04d:%02d:%02d:%02d %s]' % (t.tm_mday, MONTHS[t.tm_mon - 1], t.tm_year, t.tm_hour,
                                                       t.tm_min, t.tm_sec, suffix)
            self.cache[key] = s
        return s


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    kind, sample, out, mbytes = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    data = open(sample, 'rb').read()
    if not data.endswith(b'\n'):
        data += b'\n'
    lines = data.split(b'\n')[:-1]
    if kind == 'safepoint':
        lines = [l for l in lines if re.match(rb'(\[[^]]*\])*?\[safepoint *\]', l)]
    # the banner: lines before the first one with a time stamp of the kind
    probe = {'unified': (ISO, UP_S, UP_MS), 'safepoint': (ISO, UP_S, UP_MS), 'jdk8': (ISO, JDK8_UP),
             'nginx': (CLF, MSEC)}[kind]
    first = next(i for i, l in enumerate(lines) if any(p.search(l) for p in probe))
    if kind == 'unified':
        # a unified log's banner (Using G1, Version, CPUs, flags) precedes GC(0)
        first = next((i for i, l in enumerate(lines) if GCID.search(l)), first)
    last = len(lines)
    while kind == 'unified' and last > first and b'[gc,heap,exit' in lines[last - 1]:
        last -= 1                                  # the exit summary is written once, at the end
    head = b''.join(l + b'\n' for l in lines[:first])
    unit = b''.join(l + b'\n' for l in lines[first:last])
    coda = lines[last:]
    toks = tokenize(unit, kind)
    times = [t[3] for t in toks if t[2] in ('iso', 'clf', 'msec')]
    ups = [t[3] for t in toks if t[2] in ('up_s', 'up_ms', 'up8')]
    span_src = times if times else ups
    span = max(span_src) - min(span_src)
    step = (span // 1000 + 2) * 1000              # whole seconds: $time_local stays exact
    gcids = [t[3] for t in toks if t[2] == 'gcid']
    gcstep = (max(gcids) - min(gcids) + 1) if gcids else 0
    # literal slices between tokens
    lits, pos = [], 0
    for t in toks:
        lits.append(unit[pos:t[0]])
        pos = t[1]
    tail = unit[pos:]
    r = Render()
    limit = int(mbytes * 1e6)
    written = 0
    with open(out, 'wb', buffering=1 << 20) as f:
        f.write(head)
        written += len(head)
        k = 0
        while written < limit:
            shift = k * step
            parts = []
            for lit, t in zip(lits, toks):
                parts.append(lit)
                kd, v = t[2], t[3]
                if kd == 'iso':
                    parts.append(r.iso(v + shift, t[4][0], t[4][1]))
                elif kd == 'clf':
                    parts.append(r.clf(v + shift, t[4][0], t[4][1]))
                elif kd == 'msec':
                    w = v + shift
                    parts.append(b'%d.%03d' % (w // 1000, w % 1000))
                elif kd == 'up_s':
                    w = v + shift
                    parts.append(b'[%d.%03ds]' % (w // 1000, w % 1000))
                elif kd == 'up_ms':
                    parts.append(b'[%dms]' % (v + shift))
                elif kd == 'up8':
                    w = v + shift
                    parts.append(b'%d.%03d: ' % (w // 1000, w % 1000))
                elif kd == 'gcid':
                    parts.append(b'GC(%d)' % (v + k * gcstep))
            parts.append(tail)
            chunk = b''.join(parts)
            f.write(chunk)
            written += len(chunk)
            k += 1
        if coda:
            # the exit summary, at the last copy's end time
            shift = (k - 1) * step
            for l in coda:
                l = ISO.sub(lambda m: r.iso(iso_ms(m)[0] + shift, iso_ms(m)[1], iso_ms(m)[2]), l)
                l = UP_S.sub(lambda m: b'[%d.%03ds]' % divmod(int(m.group(1)) * 1000 + int(m.group(2)) + shift, 1000), l)
                l = UP_MS.sub(lambda m: b'[%dms]' % (int(m.group(1)) + shift), l)
                f.write(l + b'\n')
                written += len(l) + 1
    print('%s: %d bytes, %d copies of %s (step %d ms)' % (out, written, k, sample, step), file=sys.stderr)


if __name__ == '__main__':
    main()
