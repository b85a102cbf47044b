# SPDX-License-Identifier: GPL-2.0-or-later
# timeout_upstreams.py — the upstreams of the nginx-timeouts recordings (nginx-timeouts-run.sh).
#
#   python3 timeout_upstreams.py slow  PORT LOG      threaded HTTP server: /slow/... sleeps 3 s before
#                                                    answering (longer than proxy_read_timeout 1s: nginx
#                                                    connects at once, then gives up waiting for the header),
#                                                    anything else is answered at once
#   python3 timeout_upstreams.py stuck PORT LOG      listen(1) and never accept(): the first connects land in
#                                                    the accept queue (they connect, then time out reading),
#                                                    once it is full the kernel drops the SYNs (the connect
#                                                    itself times out)
#   python3 timeout_upstreams.py busy  PORT LOG BACKLOG PROC_MS
#                                                    one thread, listen(BACKLOG), PROC_MS of work per request
#                                                    before the answer: a burst larger than the queue drops
#                                                    SYNs (1 s SYN retransmits) while the process keeps
#                                                    accepting; nothing ever stops
#
# Every accepted request is logged: "<epoch accept> <epoch answered> <path>".
import socket
import sys
import threading
import time


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    first = data.split(b"\r\n", 1)[0].decode("latin-1", "replace")
    parts = first.split(" ")
    return parts[1] if len(parts) > 1 else "-"


def answer(conn, log, t_acc, delay_s):
    try:
        conn.settimeout(10.0)
        path = read_request(conn)
        if delay_s(path):
            time.sleep(delay_s(path))
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n")
        log.write("%.3f %.3f %s\n" % (t_acc, time.time(), path))
    except OSError as e:
        log.write("%.3f - error=%s\n" % (t_acc, type(e).__name__))
    finally:
        conn.close()


def listen(port, backlog):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(backlog)
    return s


def main():
    mode, port, logfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    log = open(logfile, "a", buffering=1)
    if mode == "slow":
        srv = listen(port, 128)
        log.write("# %.3f slow 127.0.0.1:%d backlog=128 /slow/ sleeps 3 s\n" % (time.time(), port))
        while True:
            conn, _ = srv.accept()
            threading.Thread(target=answer, daemon=True,
                             args=(conn, log, time.time(), lambda p: 3.0 if p.startswith("/slow/") else 0)).start()
    elif mode == "stuck":
        srv = listen(port, 1)
        log.write("# %.3f stuck 127.0.0.1:%d backlog=1, never accepts\n" % (time.time(), port))
        while True:
            time.sleep(3600)
    elif mode == "busy":
        backlog, proc_ms = int(sys.argv[4]), float(sys.argv[5])
        srv = listen(port, backlog)
        log.write("# %.3f busy 127.0.0.1:%d backlog=%d proc_ms=%.1f\n" % (time.time(), port, backlog, proc_ms))
        while True:
            conn, _ = srv.accept()
            answer(conn, log, time.time(), lambda p: proc_ms / 1000.0)
    else:
        sys.exit("mode: slow | stuck | busy")


if __name__ == "__main__":
    main()
