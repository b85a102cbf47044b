# SPDX-License-Identifier: GPL-2.0-or-later
# timeout_load.py — the load of the nginx-timeouts recordings (nginx-timeouts-run.sh).
#
#   python3 timeout_load.py PORT DURATION_S RATE MIX [BURST_EVERY BURST_SIZE] > client.csv
#
# RATE requests/s, evenly spaced, each on its own thread and connection (HTTP/1.0, so nginx
# opens a new upstream connection for each); MIX picks the path prefix by weight, in a fixed
# seeded order: "ok:80,slow:10,stuck:10" sends /ok/N, /slow/N, /stuck/N. With BURST_EVERY and
# BURST_SIZE, every BURST_EVERY-th tick sends BURST_SIZE requests at once instead of one.
# Writes one line per request: "<idx> <path> <status or error> <ms elapsed>".
import http.client
import random
import sys
import threading
import time

port, duration, rate, mix = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
burst_every = int(sys.argv[5]) if len(sys.argv) > 5 else 0
burst_size = int(sys.argv[6]) if len(sys.argv) > 6 else 1
rng = random.Random(4242)
names, weights = [], []
for item in mix.split(","):
    n, w = item.split(":")
    names.append(n)
    weights.append(float(w))
out_lock = threading.Lock()


def one(idx, path):
    t0 = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", path, headers={"Connection": "close"})
        st = str(c.getresponse().status)
        c.close()
    except OSError as e:
        st = type(e).__name__
    with out_lock:
        print("%d %s %s %.0f" % (idx, path, st, (time.time() - t0) * 1000), flush=True)


threads = []
start = time.time()
ticks = int(duration * rate)
idx = 0
for k in range(ticks):
    target = start + k / rate
    d = target - time.time()
    if d > 0:
        time.sleep(d)
    n = burst_size if burst_every and k % burst_every == burst_every - 1 else 1
    for _ in range(n):
        path = "/%s/%d" % (rng.choices(names, weights)[0], idx)
        t = threading.Thread(target=one, args=(idx, path))
        t.start()
        threads.append(t)
        idx += 1
for t in threads:
    t.join()
