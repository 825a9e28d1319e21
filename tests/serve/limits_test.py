"""limits_test.py — the bounds of `arbiter serve` against real server processes on 127.0.0.1 with
few threads: the SSE listener limit (503 too_many_streams, a place freed when a listener goes),
and slow-drip clients (a byte every 1.5 s, each read within the read timeout) dropped at
--request-timeout so that they cannot hold every thread and starve the others; and the server's
RSS with 1,200 threads after hundreds of sessions (the rules' work stays on the rules' threads).
Bounded: a few connections (360 requests from 6 clients in the last), at most about 30 s. Usage: limits_test.py ARBITER WORKDIR"""
import json
import socket
import sys
import threading
import time

from serve_test_lib import fresh_journal, Server, Stream, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]


def test_stream_limit():
    # --threads 8: at most 4 listeners (half the threads), so that the others still answer.
    srv = Server(ARBITER, fresh_journal(WORK, "streams.journal"), threads=8).start()
    try:
        sid = srv.request("POST", "/api/v1/sessions", {})[1]["id"]
        streams = [Stream(srv.port, "/api/v1/sessions/%d/stream" % sid) for _ in range(4)]
        for s in streams:
            check(s.status == 200 and s.next_state()[0] == 0, "a listener under the limit is served")
        status, j, _, h = srv.request("GET", "/api/v1/sessions/%d/stream" % sid)
        check(status == 503 and j["error"]["code"] == "too_many_streams" and "4 streams" in j["error"]["message"],
              "the fifth listener: %d %s" % (status, j))
        check(h.get("Content-Type", "").startswith("application/json"), "503 is a JSON error")
        # The server still answers everything else, and the listeners still get events.
        check(srv.request("GET", "/api/v1/health")[0] == 200, "health with the listeners held")
        status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid, {"type": "move", "move": "e4",
                                                                                   "at_ms": 1000})
        check(status == 200, "an event with the listeners held: %d %s" % (status, j))
        for s in streams:
            n, state = s.next_state()
            check(n == 1 and state["moves"] == ["e4"], "listener got the event")
        # A listener that goes frees its place (seen at the next write to it: the next event).
        streams.pop().close()
        srv.request("POST", "/api/v1/sessions/%d/events" % sid, {"type": "move", "move": "e5", "at_ms": 2000})
        deadline, status = time.time() + 10, 0
        while time.time() < deadline:
            s = Stream(srv.port, "/api/v1/sessions/%d/stream" % sid)
            status = s.status
            if status == 200:
                streams.append(s)
                break
            s.close()
            time.sleep(0.2)
        check(status == 200, "a place freed by a listener that went: %d" % status)
        status, j, _, _ = srv.request("GET", "/api/v1/sessions/%d/stream" % sid)
        check(status == 503 and j["error"]["code"] == "too_many_streams", "full again: %d" % status)
        for s in streams:
            s.close()
    finally:
        check(srv.stop() == 0, "clean stop")


def drip(port, stop, log):
    """A request line and headers a byte every 1.5 s, never finished; logs when and how the server
    ends the connection."""
    t0 = time.time()
    s = socket.create_connection(("127.0.0.1", port), timeout=1)
    data = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"y" * 1000
    how = "held to the end of the test"
    try:
        for b in data:
            if stop.is_set():
                break
            try:
                s.sendall(bytes([b]))
            except OSError:
                how = "closed"
                break
            try:
                got = s.recv(4096)  # waits up to the socket timeout (no answer: keep dripping)
                how = "closed" if not got else "answered " + got.split(b"\r\n")[0].decode(errors="replace")
                break
            except socket.timeout:
                pass
            except OSError:
                how = "closed"
                break
            time.sleep(0.5)
    finally:
        s.close()
    log.append((how, time.time() - t0))


def test_slow_drip_clients():
    # 4 threads, 6 clients dripping a byte a second-and-a-half (each read comes well within the
    # 5 s read timeout): without a bound on the whole request they would hold every thread for
    # as long as they like. With --request-timeout 2 each is dropped about 2 s in, and a normal
    # client is answered meanwhile.
    srv = Server(ARBITER, fresh_journal(WORK, "drip.journal"), "--request-timeout", "2", threads=4).start()
    stop, log = threading.Event(), []
    try:
        drips = [threading.Thread(target=drip, args=(srv.port, stop, log)) for _ in range(6)]
        [t.start() for t in drips]
        time.sleep(0.5)
        t = time.time()
        status = srv.request("GET", "/api/v1/health", timeout=8)[0]
        waited = time.time() - t
        check(status == 200 and waited < 6, "a normal client among the drips: %d after %.1f s" % (status, waited))
        sid = srv.request("POST", "/api/v1/sessions", {}, timeout=8)[1]["id"]
        status, j, _, _ = srv.request("POST", "/api/v1/sessions/%d/events" % sid,
                                      {"type": "move", "move": "d4", "at_ms": 1}, timeout=8)
        check(status == 200 and j["moves"] == ["d4"], "an event among the drips: %d" % status)
        [t.join(15) for t in drips]
        check(len(log) == 6, "every drip ended: %s" % log)
        for how, secs in log:
            check(how != "held to the end of the test" and secs < 8,
                  "a drip client is dropped near the request timeout: %s after %.1f s" % (how, secs))
    finally:
        stop.set()
        check(srv.stop() == 0, "clean stop")


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(next(l for l in f if l.startswith("VmRSS")).split()[1]) / 1024


def sanitized(pid):
    with open("/proc/%d/maps" % pid) as f:
        return any(name in f.read() for name in ("libasan", "libtsan", "libubsan"))


def test_memory_with_many_threads():
    # --threads 1200 and 300 sessions created, with 60 positions asked about, over 6 concurrent
    # clients, each request on a connection of its own (so on whichever of the 1,200 threads
    # takes it). Every one needs the dead-position analysis (the start position's check, the
    # position routes), which keeps about 2 MB of tables in each thread that runs it: on the
    # connection threads that was 2 MB for each of hundreds of threads (750 MB here); the service
    # runs it on its two rules threads (about 40 MB in all).
    srv = Server(ARBITER, fresh_journal(WORK, "memory.journal"), threads=1200).start()
    errors = []

    def client(k):
        try:
            for i in range(50):
                status, j, _, _ = srv.request("POST", "/api/v1/sessions", {"time_control": "5400+30"})
                if status != 201:
                    errors.append("create: %d %s" % (status, j))
                if i % 5 == 0:
                    status, j, _, _ = srv.request("POST", "/api/v1/dead", {"fen": "4k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1"})
                    if status != 200:
                        errors.append("dead: %d %s" % (status, j))
        except Exception as e:  # reported below
            errors.append(repr(e))

    try:
        clients = [threading.Thread(target=client, args=(k,)) for k in range(6)]
        [t.start() for t in clients]
        [t.join(120) for t in clients]
        check(not errors and not any(t.is_alive() for t in clients), "every request answered: %s" % errors[:3])
        status, j, _, _ = srv.request("GET", "/api/v1/sessions")
        check(status == 200 and len(j) == 300, "300 sessions listed")
        rss = rss_mb(srv.proc.pid)
        if sanitized(srv.proc.pid):
            print("(sanitizer build: RSS %.0f MB not checked)" % rss)
        else:
            check(rss < 150, "RSS %.0f MB after 300 sessions with 1,200 threads (bound 150 MB)" % rss)
    finally:
        check(srv.stop() == 0, "clean stop")


def test_request_timeout_option():
    import subprocess
    for value in ["0", "abc", "99999"]:
        p = subprocess.run([ARBITER, "serve", "--journal", WORK + "/x.journal", "--listen", "127.0.0.1:0",
                            "--request-timeout", value], capture_output=True, text=True, timeout=20)
        check(p.returncode == 2 and "request-timeout" in p.stderr, "--request-timeout %s: %d %s" % (
            value, p.returncode, p.stderr))


run([("SSE listener limit: 503, a place freed", test_stream_limit),
     ("slow-drip clients cannot starve the server", test_slow_drip_clients),
     ("--request-timeout checked", test_request_timeout_option),
     ("RSS bounded with 1,200 threads", test_memory_with_many_threads)])
