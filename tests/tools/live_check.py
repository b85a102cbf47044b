#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""live_check.py — the live test of the verdict engine on a real recording.

1. start `stwtop --plain --json` on files that do not exist yet;
2. append the recording's lines to them at SPEED times their original pace,
   in the order of their own timestamps (tests/tools/replay.py);
3. note when each verdict is first printed (wall clock, ms);
4. stop stwtop (SIGTERM: it prints every verdict's final state) and run
   `stwtop --report --json` over the finished files;
5. check: the live run ends with exactly the report's verdicts (id, severity,
   title, evidence, advice, times), and each verdict appeared within LATENCY ms
   of the line that completed its evidence. That line is found by bisection:
   the shortest prefix of the replay (in write order) whose report already has
   the verdict.

usage: live_check.py BIN SAMPLE_DIR [--speed 4] [--latency 1000] [--keep DIR] [--jvm-start MS]
SAMPLE_DIR holds any of gc.log, console.log (--safepoint), cpustat.log or
cpustat-100ms.log, schedstat.log, vmstat.log, logs/access.log (+ nginx.conf, whose
log_format is used). Uptime-only JVM lines are paced with the JVM start the report
finds (a line with both clocks); when it finds none (the log has only uptime),
--jvm-start MS is given to both the live run and the report (default: the
sample's jvm-start.txt, else a fixed time), so they judge the same clock.
Exit 0 when every check passes; prints what failed otherwise.
"""
import argparse, datetime, json, os, re, shutil, signal, subprocess, sys, tempfile, threading, time

LAB = ('$msec $request_id $status uct=$upstream_connect_time uht=$upstream_header_time '
       'urt=$upstream_response_time rt=$request_time')
FILES = [('gc.log', 'gc.log', '--gc'), ('console.log', 'console.log', '--safepoint'),
         ('cpustat.log', 'cpustat.log', '--cpustat-log'),
         ('access.log', 'logs/access.log', '--nginx'), ('schedstat.log', 'schedstat.log', '--schedstat-log'),
         ('vmstat.log', 'vmstat.log', '--vmstat-log')]
EXTRA = []   # --nginx-conf of the sample, --jvm-start when the log has no wall clock


def args_for(d, own=False):
    """the sources in d under their live names, or (own) the sample's own files"""
    a = []
    for dest, src, opt in FILES:
        a += [opt, os.path.join(d, src if own else dest)]
    if any(dest == 'access.log' for dest, _s, _o in FILES) and not any(x == '--nginx-conf' for x in EXTRA):
        a += ['--nginx-format', LAB]
    return a + EXTRA


def key(v):
    return (v['id'], v['start'])


def comparable(v):
    return {k: v.get(k) for k in ('id', 'severity', 'start', 'end', 'cleared', 'title', 'evidence', 'advice')}


def report(binary, d):
    out = subprocess.run([binary, '--report', '--json'] + args_for(d), capture_output=True, text=True,
                         env=dict(os.environ, TZ='UTC'), timeout=120)
    if out.returncode != 0:
        raise SystemExit('report failed: ' + out.stderr)
    return json.loads(out.stdout)['verdicts']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('sample')
    ap.add_argument('--speed', type=float, default=4.0)
    ap.add_argument('--latency', type=float, default=1000.0)
    ap.add_argument('--keep')
    ap.add_argument('--jvm-start', type=int)
    ap.add_argument('--control', action='store_true',
                    help='a healthy control: no verdict at all, live or in the report')
    a = ap.parse_args()
    # the sources this recording has (g1-periodic/ has only a gc.log); throttle/ names its
    # 100 ms cpu.stat samples cpustat-100ms.log
    if not os.path.exists(os.path.join(a.sample, 'cpustat.log')) and \
            os.path.exists(os.path.join(a.sample, 'cpustat-100ms.log')):
        FILES[:] = [('cpustat.log', 'cpustat-100ms.log', o) if d == 'cpustat.log' else (d, s, o)
                    for d, s, o in FILES]
    FILES[:] = [f for f in FILES if os.path.exists(os.path.join(a.sample, f[1]))]
    conf = os.path.join(a.sample, 'nginx.conf')
    if any(d == 'access.log' for d, _s, _o in FILES) and os.path.exists(conf):
        name = re.search(r'log_format\s+(\w+)', open(conf).read())
        EXTRA.extend(['--nginx-conf', conf + (':' + name.group(1) if name else '')])
    # the JVM's start for pacing uptime-only lines: from the report over the whole recording
    whole = subprocess.run([a.binary, '--report', '--json'] + args_for(a.sample, own=True),
                           capture_output=True, text=True, env=dict(os.environ, TZ='UTC'), timeout=120)
    if whole.returncode != 0:
        raise SystemExit('report over the sample failed: ' + whole.stderr[-500:])
    jvm = json.loads(whole.stdout).get('jvm', {})
    anchor = None
    if jvm.get('time_axis') == 'uptime' or a.jvm_start:
        anchor = a.jvm_start
        if anchor is None:
            js = os.path.join(a.sample, 'jvm-start.txt')
            anchor = int(open(js).readline()) if os.path.exists(js) else 1795979000000
        EXTRA.extend(['--jvm-start', str(anchor)])
    elif jvm.get('start'):
        anchor = int(datetime.datetime.strptime(jvm['start'], '%Y-%m-%dT%H:%M:%S.%fZ')
                     .replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
    here = os.path.dirname(os.path.abspath(__file__))
    work = a.keep or tempfile.mkdtemp(prefix='stwtop-live-')
    os.makedirs(work, exist_ok=True)
    live_dir = os.path.join(work, 'live')
    shutil.rmtree(live_dir, ignore_errors=True)
    os.makedirs(live_dir)
    failures = []

    # 1. stwtop first, on files that do not exist yet
    proc = subprocess.Popen([a.binary, '--plain', '--json', '--interval', '1000'] + args_for(live_dir),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TZ='UTC'))
    printed = []  # (wall_ms, obj)

    def reader():
        for line in proc.stdout:
            now = time.time() * 1000
            try:
                printed.append((now, json.loads(line)))
            except ValueError:
                failures.append('not JSON on stdout: %r' % line[:200])
    th = threading.Thread(target=reader)
    th.start()
    time.sleep(0.5)  # let it start following (the files are waited for)

    # 2. the recording, appended at pace
    log = os.path.join(work, 'writes.tsv')
    pairs = ['%s=%s' % (os.path.join(live_dir, dest), os.path.join(a.sample, src)) for dest, src, _ in FILES]
    subprocess.run([sys.executable, os.path.join(here, 'replay.py'), '--speed', str(a.speed), '--log', log]
                   + (['--uptime-anchor', str(anchor)] if anchor is not None else []) + pairs, check=True)
    time.sleep(2.0)  # the last lines' 100 ms judgement and a tick
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        failures.append('stwtop did not exit on SIGTERM within 20 s')
    th.join(timeout=5)
    err = proc.stderr.read()
    if proc.returncode not in (0, -signal.SIGTERM):
        failures.append('stwtop exited %s: %s' % (proc.returncode, err[-500:]))

    # 3./4. first appearance of each verdict; final state vs the report.
    # The events are the four of docs/ndjson.md; a verdict is raised once per
    # incident and never taken back; its severity only rises; an update comes
    # at most once a second.
    first = {}
    final = {}
    sev_rank = {'info': 0, 'warn': 1, 'crit': 2}
    last_sev = {}
    last_print = {}
    for wall, o in printed:
        if o.get('type') != 'verdict':
            continue
        k = (o['id'], o['incident'])
        if o['event'] not in ('new', 'update', 'cleared', 'final'):
            failures.append('verdict %s: event %r is not one of new/update/cleared/final' % (k, o['event']))
        if o['event'] == 'new' and k in first:
            failures.append('verdict %s raised again after it was raised' % (k,))
        if o['event'] != 'new' and k not in first:
            failures.append('verdict %s: %s before new' % (k, o['event']))
        if k in last_sev and sev_rank[o['severity']] < last_sev[k]:
            failures.append('verdict %s: severity went down to %s' % (k, o['severity']))
        last_sev[k] = max(last_sev.get(k, 0), sev_rank[o['severity']])
        if o['event'] == 'update' and k in last_print and wall - last_print[k] < 900:
            failures.append('verdict %s: updated %d ms after its last line (at most once a second)'
                            % (k, wall - last_print[k]))
        if o['event'] != 'final':
            last_print[k] = wall
        if o['event'] == 'new' and k not in first:
            first[k] = (wall, o)
        if o['event'] == 'final':
            final[key(o)] = comparable(o)
    rep = report(a.binary, live_dir)
    rep_c = {key(v): comparable(v) for v in rep}
    if not rep and not a.control:
        failures.append('the report over the replayed files has no verdict')
    if a.control and (rep or final):
        failures.append('verdicts on a control: live %s, report %s' %
                        (sorted(final), sorted(rep_c)))
    for k, v in rep_c.items():
        if k not in final:
            failures.append('live run did not end with verdict %s (report: %s)' % (k, v['title']))
        elif final[k] != v:
            diff = {f: (final[k][f], v[f]) for f in v if final[k][f] != v[f]}
            failures.append('verdict %s differs live vs report: %s' % (k, json.dumps(diff)[:800]))
    for k in final:
        if k not in rep_c:
            failures.append('live run has verdict %s that the report has not' % (k,))

    # 5. latency from the completing line
    rows = []
    with open(log) as f:
        for line in f:
            wall, dest, n, t = line.rstrip('\n').split('\t')
            rows.append((int(wall), dest, int(n)))
    lines_of = {}
    for dest, src, _ in FILES:
        with open(os.path.join(a.sample, src), 'rb') as f:
            lines_of[os.path.join(live_dir, dest)] = f.readlines()
    pre_dir = os.path.join(work, 'prefix')

    def overlaps(v, lo_t, hi_t):
        if lo_t is None or v['start'] is None:
            return True  # a whole-run verdict with no extent
        return v['start'] <= hi_t and (v['end'] or v['start']) >= lo_t

    def has_verdict(k_rows, vid, lo_t, hi_t):
        shutil.rmtree(pre_dir, ignore_errors=True)
        os.makedirs(pre_dir)
        upto = {}
        for _, dest, n in rows[:k_rows]:
            upto[dest] = max(upto.get(dest, 0), n)
        for dest, _src, _ in FILES:
            full = os.path.join(live_dir, dest)
            with open(os.path.join(pre_dir, dest), 'wb') as out:
                out.writelines(lines_of[full][:upto.get(full, 0)])
        return any(v['id'] == vid and overlaps(v, lo_t, hi_t) for v in report(a.binary, pre_dir))

    results = []
    finals_by_inc = {}
    for wall, o in printed:
        if o.get('type') == 'verdict' and o['event'] == 'final':
            finals_by_inc[(o['id'], o['incident'])] = o
    for (vid, inc), (wall, o) in sorted(first.items(), key=lambda x: x[1][0]):
        fin = finals_by_inc.get((vid, inc), o)
        lo_t, hi_t = fin['start'], fin['end'] or fin['start']
        lo, hi = 0, len(rows)
        if not has_verdict(hi, vid, lo_t, hi_t):
            failures.append('%s: not in the report of the whole input' % vid)
            continue
        while lo < hi:
            mid = (lo + hi) // 2
            if has_verdict(mid, vid, lo_t, hi_t):
                hi = mid
            else:
                lo = mid + 1
        done_wall, dest, n = rows[lo - 1]
        lat = wall - done_wall
        results.append((vid, lat, os.path.basename(dest), n))
        print('%-26s appeared %6.0f ms after %s:%d, the line that completes its evidence' %
              (vid, lat, os.path.basename(dest), n))
        if lat > a.latency:
            failures.append('%s appeared %.0f ms after the line that completes it (limit %.0f ms)' %
                            (vid, lat, a.latency))
        if lat < -50:
            failures.append('%s appeared %.0f ms BEFORE its completing line: the bisection or the replay is off' %
                            (vid, lat))
    print('live verdicts: %d, report verdicts: %d' % (len(final), len(rep_c)))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print('FAIL', f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
