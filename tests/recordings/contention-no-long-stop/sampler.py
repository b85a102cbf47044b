# SPDX-License-Identifier: GPL-2.0-or-later
# Samples a cgroup-v1 cpu cgroup, the threads of one process and /proc/vmstat until the
# process exits.
# Usage: python3 sampler.py <cpu-cgroup-dir> <pid> <out-dir> [vmstat-every-N-ticks (10)]
# Writes into <out-dir>:
#   cpustat.log    every 100 ms, one line per sample: the wall-clock time of the read as ISO 8601
#                  with milliseconds and the local UTC offset (2026-11-29T19:10:02.551+0000),
#                  then the cgroup's cpu.stat key/value pairs on the same line
#                  (nr_periods N nr_throttled N throttled_time <ns> nr_bursts N burst_time <ns>)
#   schedstat.log  every 500 ms, CSV epoch_ms,tid,comm,run_ns,wait_ns,timeslices: one row per
#                  thread of the process (the three fields of /proc/<pid>/task/<tid>/schedstat:
#                  ns on a CPU, ns runnable but waiting for a CPU, times scheduled in; cumulative)
#                  and its 15-char kernel thread name (commas replaced by '_')
#   vmstat.log     every N x 100 ms (default 1 s): "<epoch_ms> allocstall_dma N allocstall_dma32 N
#                  allocstall_normal N allocstall_movable N allocstall_device N pageoutrun N
#                  pgscan_direct N pgsteal_direct N pgscan_kswapd N compact_stall N" (the keys of
#                  /proc/vmstat starting with allocstall, then pageoutrun and the direct/kswapd
#                  scan counters that tell global direct reclaim from background reclaim)
# The sampler itself runs outside the cgroup.
import os
import sys
import time

cg, pid, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
vm_every = int(sys.argv[4]) if len(sys.argv) > 4 else 10
VM_EXTRA = ("pgscan_direct", "pgsteal_direct", "pgscan_kswapd", "compact_stall")
task_dir = os.path.join("/proc", str(pid), "task")
status_path = os.path.join("/proc", str(pid), "status")
vmstat_path = os.path.join("/proc", "vmstat")


def alive():
    try:
        with open(status_path) as f:
            st = f.read()
    except OSError:
        return False
    return "VmRSS:" in st  # a zombie has no VmRSS line


def read(path):
    with open(path) as f:
        return f.read()


def iso_ms(ms):
    lt = time.localtime(ms // 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + ".%03d" % (ms % 1000) + time.strftime("%z", lt)


def sample_threads(out_f):
    ts = int(time.time() * 1000)
    try:
        tids = sorted(os.listdir(task_dir), key=int)
    except OSError:
        return
    rows = []
    for tid in tids:
        try:
            comm = read(os.path.join(task_dir, tid, "comm")).strip().replace(",", "_")
            ss = read(os.path.join(task_dir, tid, "schedstat")).split()
        except OSError:
            continue  # thread exited between listdir and read
        rows.append("%d,%s,%s,%s,%s,%s\n" % (ts, tid, comm, ss[0], ss[1], ss[2]))
    out_f.write("".join(rows))


def sample_vmstat(out_f):
    ts = int(time.time() * 1000)
    kv = []
    extra = {}
    for line in read(vmstat_path).splitlines():
        k, v = line.split()
        if k.startswith("allocstall"):
            kv.append((k, v))
        elif k == "pageoutrun":
            pg = (k, v)
        elif k in VM_EXTRA:
            extra[k] = v
    kv.append(pg)
    kv.extend((k, extra[k]) for k in VM_EXTRA if k in extra)
    out_f.write("%d %s\n" % (ts, " ".join("%s %s" % x for x in kv)))


with open(os.path.join(out, "cpustat.log"), "w", buffering=1) as cf, \
        open(os.path.join(out, "schedstat.log"), "w", buffering=1) as sf, \
        open(os.path.join(out, "vmstat.log"), "w", buffering=1) as vf:
    sf.write("epoch_ms,tid,comm,run_ns,wait_ns,timeslices\n")
    t0 = time.monotonic()
    n = 0
    while alive():
        ts = int(time.time() * 1000)
        try:
            stat = read(os.path.join(cg, "cpu.stat"))
        except OSError:
            break
        cf.write("%s %s\n" % (iso_ms(ts), " ".join(stat.split())))
        if n % 5 == 0:
            sample_threads(sf)
        if n % vm_every == 0:
            sample_vmstat(vf)
        n += 1
        delay = t0 + n * 0.1 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
