# SPDX-License-Identifier: GPL-2.0-or-later
# Bounded open-loop HTTP load generator (loopback only) that also triggers the incident.
# Usage:
#   python3 loadgen.py --port 28480 --rate 200 --duration 40 --seed 1 --out . \
#       --backend-port 28481 --at 15 --action reload                # gc-stop: POST /admin/cache/reload to the JVM
#   python3 loadgen.py ... --at 15 --action throttle --cgroup <cpu cgroup dir> \
#       --quota 5000 --restore 200000 --for 3                          # throttle-stop: cpu.cfs_quota_us 5000 for 3 s
#   python3 loadgen.py ... --at 15 --action gc                         # g1-full-gc: POST /admin/gc to the JVM (System.gc())
# Requests: GET /api/products/<id> to 127.0.0.1:<port> (nginx), one TCP connection per request
# (Connection: close), arrivals a Poisson process of the given rate (exponential gaps from
# random.Random(seed)), each started at its scheduled time regardless of earlier ones, so
# nothing queues in the client; 30 s client timeout. Exactly the arrivals with offset < duration.
# Writes into <out>:
#   client.csv        idx,sched_epoch_ms,start_epoch_ms,end_epoch_ms,latency_ms,status,request_id,error
#                     (request_id from the X-Request-Id response header = nginx's $request_id)
#   events.log        "<epoch_ms> <event>": load start, the trigger / quota changes, last request
#                     started, all responses done
#   accept-queue.csv  epoch_ms,accept_queue_len every 100 ms: rx_queue of the backend's LISTEN
#                     socket in the kernel's TCP tables (connections waiting for accept();
#                     the kernel drops SYNs once it exceeds the listen backlog)
#   counters.txt      TCP counters of the network namespace before/after the load and the delta
import argparse
import asyncio
import os
import random
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--rate", type=float, required=True)
ap.add_argument("--duration", type=float, required=True)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--out", default=".")
ap.add_argument("--backend-port", type=int, required=True)
ap.add_argument("--ids", type=int, default=6_000_000, help="product ids are drawn from 1..ids")
ap.add_argument("--at", type=float, default=15.0, help="seconds after load start to trigger")
ap.add_argument("--action", choices=["none", "reload", "throttle", "gc"], default="none")
ap.add_argument("--cgroup", help="cpu cgroup dir (throttle)")
ap.add_argument("--quota", type=int, default=5000)
ap.add_argument("--restore", type=int, default=-1)
ap.add_argument("--for", dest="for_s", type=float, default=3.0)
a = ap.parse_args()

CLIENT_TIMEOUT = 30.0
COUNTERS = [("TcpExt", "ListenOverflows"), ("TcpExt", "ListenDrops"), ("TcpExt", "TCPSynRetrans"),
            ("Tcp", "RetransSegs"), ("Tcp", "ActiveOpens"), ("Tcp", "PassiveOpens"),
            ("TcpExt", "TCPReqQFullDrop"), ("TcpExt", "TCPReqQFullDoCookies"), ("TcpExt", "SyncookiesSent")]

rng = random.Random(a.seed)
arrivals = []   # (offset_s, product id)
t = 0.0
while True:
    t += rng.expovariate(a.rate)
    if t >= a.duration:
        break
    arrivals.append((t, rng.randint(1, a.ids)))


def now_ms():
    return int(time.time() * 1000)


def read_counters():
    vals = {}
    for name in ("netstat", "snmp"):
        with open(os.path.join("/proc", "net", name)) as f:
            lines = f.read().splitlines()
        for hdr, val in zip(lines[0::2], lines[1::2]):
            h, v = hdr.split(), val.split()
            for k, x in zip(h[1:], v[1:]):
                vals[(h[0].rstrip(":"), k)] = x
    return vals


def listen_queue():
    # The JDK listens on an IPv6 socket bound to ::ffff:127.0.0.1 unless java.net.preferIPv4Stack
    # is set, so look in both tables for the LISTEN (state 0A) entry of the backend port.
    port_hex = ":%04X" % a.backend_port
    for table in ("tcp", "tcp6"):
        try:
            f = open(os.path.join("/proc", "net", table))
        except OSError:
            continue
        with f:
            next(f)
            for line in f:
                p = line.split()
                if p[1].endswith(port_hex) and p[3] == "0A":
                    return int(p[4].split(":")[1], 16)
    return None


events = open(os.path.join(a.out, "events.log"), "a", buffering=1)


def event(msg, ms=None):
    events.write("%d %s\n" % (now_ms() if ms is None else ms, msg))


results = []


async def one(idx, sched_ms, pid):
    start = now_ms()
    status, rid, err = "", "", ""
    writer = None
    try:
        async def do():
            nonlocal status, rid, writer
            reader, writer = await asyncio.open_connection("127.0.0.1", a.port)
            writer.write(b"GET /api/products/%d HTTP/1.1\r\nHost: catalog.local\r\nUser-Agent: loadgen/1\r\n"
                         b"Connection: close\r\n\r\n" % pid)
            await writer.drain()
            data = await reader.read()  # until EOF (Connection: close)
            head = data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
            status = head[0].split()[1].decode()
            for h in head[1:]:
                if h.lower().startswith(b"x-request-id:"):
                    rid = h.split(b":", 1)[1].strip().decode()
        await asyncio.wait_for(do(), CLIENT_TIMEOUT)
    except Exception as e:  # timeout, reset, ...
        err = type(e).__name__
    finally:
        if writer is not None:
            writer.close()
    end = now_ms()
    results.append((idx, sched_ms, start, end, end - start, status, rid, err))


async def sample_queue(stop_evt):
    with open(os.path.join(a.out, "accept-queue.csv"), "w", buffering=1) as f:
        f.write("epoch_ms,accept_queue_len\n")
        t0 = time.monotonic()
        n = 0
        while not stop_evt.is_set():
            f.write("%d,%s\n" % (now_ms(), listen_queue()))
            n += 1
            await asyncio.sleep(max(0.0, t0 + n * 0.1 - time.monotonic()))


def write_quota(value):
    with open(os.path.join(a.cgroup, "cpu.cfs_quota_us"), "w") as f:
        f.write("%d\n" % value)
    return now_ms()


async def reload_trigger():
    # Direct to the JVM (not through nginx), like an operator or a scheduler calling an admin endpoint.
    ms = now_ms()
    reader, writer = await asyncio.open_connection("127.0.0.1", a.backend_port)
    writer.write(b"POST /admin/cache/reload HTTP/1.1\r\nHost: catalog.local\r\nX-Request-Id: admin-reload-%d\r\n"
                 b"Content-Length: 0\r\nConnection: close\r\n\r\n" % a.seed)
    await writer.drain()
    event("trigger POST /admin/cache/reload sent directly to 127.0.0.1:%d (X-Request-Id: admin-reload-%d)"
          % (a.backend_port, a.seed), ms)
    data = await reader.read()
    writer.close()
    event("trigger response: %s" % data.split(b"\r\n", 1)[0].decode(errors="replace"))


async def gc_trigger():
    # Direct to the JVM like reload_trigger; the JVM answers after System.gc() returned.
    ms = now_ms()
    reader, writer = await asyncio.open_connection("127.0.0.1", a.backend_port)
    writer.write(b"POST /admin/gc HTTP/1.1\r\nHost: catalog.local\r\nX-Request-Id: admin-gc-%d\r\n"
                 b"Content-Length: 0\r\nConnection: close\r\n\r\n" % a.seed)
    await writer.drain()
    event("trigger POST /admin/gc sent directly to 127.0.0.1:%d (X-Request-Id: admin-gc-%d)"
          % (a.backend_port, a.seed), ms)
    data = await reader.read()
    writer.close()
    body = data.split(b"\r\n\r\n", 1)[-1].strip().decode(errors="replace")
    event("trigger response: %s %s" % (data.split(b"\r\n", 1)[0].decode(errors="replace"), body))


async def trigger(t0):
    await asyncio.sleep(max(0.0, t0 + a.at - time.monotonic()))
    if a.action == "reload":
        await reload_trigger()
    elif a.action == "gc":
        await gc_trigger()
    elif a.action == "throttle":
        with open(os.path.join(a.cgroup, "cpu.cfs_quota_us")) as f:
            before = f.read().strip()
        with open(os.path.join(a.cgroup, "cpu.cfs_period_us")) as f:
            period = f.read().strip()
        ms = write_quota(a.quota)
        event("throttle start: cpu.cfs_quota_us %s -> %d (cpu.cfs_period_us %s)" % (before, a.quota, period), ms)
        await asyncio.sleep(max(0.0, t0 + a.at + a.for_s - time.monotonic()))
        ms = write_quota(a.restore)
        event("throttle end: cpu.cfs_quota_us %d -> %d (cpu.cfs_period_us %s)" % (a.quota, a.restore, period), ms)


async def main():
    before = read_counters()
    stop_evt = asyncio.Event()
    sampler = asyncio.create_task(sample_queue(stop_evt))
    t0 = time.monotonic()
    t0_ms = now_ms()
    event("load start: %d requests planned, Poisson arrivals rate=%g/s duration=%gs seed=%d (via nginx 127.0.0.1:%d)"
          % (len(arrivals), a.rate, a.duration, a.seed, a.port), t0_ms)
    trig = asyncio.create_task(trigger(t0)) if a.action != "none" else None
    tasks = []
    for i, (off, pid) in enumerate(arrivals):
        delay = t0 + off - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(i, t0_ms + int(off * 1000), pid)))
    event("load last request started (%d requests)" % len(tasks))
    await asyncio.gather(*tasks)
    if trig:
        await trig
    event("load all responses done")
    await asyncio.sleep(0.3)
    stop_evt.set()
    await sampler
    after = read_counters()
    with open(os.path.join(a.out, "counters.txt"), "w") as f:
        f.write("counter before after delta\n")
        for key in COUNTERS:
            b, x = before.get(key), after.get(key)
            if b is None or x is None:
                continue
            f.write("%s:%s %s %s %d\n" % (key[0], key[1], b, x, int(x) - int(b)))
    with open(os.path.join(a.out, "client.csv"), "w") as f:
        f.write("idx,sched_epoch_ms,start_epoch_ms,end_epoch_ms,latency_ms,status,request_id,error\n")
        for r in sorted(results):
            f.write("%d,%d,%d,%d,%d,%s,%s,%s\n" % r)


try:
    asyncio.run(main())
finally:
    if a.action == "throttle" and a.cgroup:
        # never leave the tiny quota behind, whatever happened
        try:
            with open(os.path.join(a.cgroup, "cpu.cfs_quota_us")) as f:
                cur = int(f.read().strip())
            if cur == a.quota:
                write_quota(a.restore)
                event("throttle end (on exit): cpu.cfs_quota_us %d -> %d" % (a.quota, a.restore))
        except OSError:
            pass
