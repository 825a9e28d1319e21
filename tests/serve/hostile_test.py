"""hostile_test.py — malformed and hostile requests against a real `arbiter serve`: each gets
the right status (or the connection is closed), and the server still answers after every one.
Ends with slow clients (slowloris headers, a body that never comes): they time out and the
server serves others meanwhile. Usage: hostile_test.py ARBITER WORKDIR"""
import json
import os
import socket
import sys
import threading
import time

from serve_test_lib import fresh_journal, Server, check, run

ARBITER, WORK = sys.argv[1], sys.argv[2]
JOURNAL = fresh_journal(WORK, "hostile.journal")
srv = Server(ARBITER, JOURNAL).start()
srv.request("POST", "/api/v1/sessions", {"white": "A", "black": "B", "time_control": "300+2"})


def req(method, path, body=b"", headers=""):
    if isinstance(body, str):
        body = body.encode()
    return (("%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n%s\r\n" % (method, path, len(body), headers))
            .encode() + body)


EV = "/api/v1/sessions/1/events"
BIG = b'{"fen":"' + b"x" * (11 << 20) + b'"}'
# (name, raw request bytes, the statuses accepted; 0 = the server closed the connection)
TABLE = [
    ("truncated JSON", req("POST", EV, '{"type":"move","move":"e4"'), {400}),
    ("empty body", req("POST", EV, ""), {400}),
    ("JSON array", req("POST", EV, "[1,2,3]"), {400}),
    ("JSON string", req("POST", EV, '"move"'), {400}),
    ("JSON null", req("POST", EV, "null"), {400}),
    ("wrong type of move", req("POST", EV, '{"type":"move","move":42,"at_ms":1}'), {400}),
    ("wrong type of at_ms", req("POST", EV, '{"type":"move","move":"e4","at_ms":"1"}'), {400}),
    ("huge at_ms", req("POST", EV, '{"type":"move","move":"e4","at_ms":1e400}'), {400}),
    ("at_ms over int64", req("POST", EV, '{"type":"move","move":"e4","at_ms":99999999999999999999999}'), {400}),
    ("negative at_ms", req("POST", EV, '{"type":"move","move":"e4","at_ms":-5}'), {400, 409}),
    ("unknown field", req("POST", EV, '{"type":"move","move":"e4","at_ms":1,"evil":true}'), {400}),
    ("unknown type", req("POST", EV, '{"type":"teleport","at_ms":1}'), {400}),
    ("nested depth", req("POST", EV, "[" * 100000 + "]" * 100000), {400}),
    ("invalid UTF-8 in JSON", req("POST", EV, b'{"type":"move","move":"\xff\xfe","at_ms":1}'), {400}),
    ("NUL in JSON", req("POST", EV, b'{"type":"move","move":"e4\x00","at_ms":1}'), {400}),
    ("invalid UTF-8 in name", req("POST", "/api/v1/sessions", b'{"white":"\xc3\x28"}'), {400}),
    ("unknown config key", req("POST", "/api/v1/sessions", '{"colour":"white"}'), {400}),
    ("huge number in config", req("POST", "/api/v1/sessions", '{"no_offers_before":1e30}'), {400}),
    ("bad FEN", req("POST", "/api/v1/status", '{"fen":"rnbqkbnr/pppppppp/8/8 w"}'), {400}),
    ("bad SAN", req("POST", "/api/v1/status", '{"moves":"e4 e5 Qxf7+++"}'), {400}),
    ("PGN garbage", req("POST", "/api/v1/claim", '{"pgn":"[[[[ 1. e4 {","kind":"threefold"}'), {400}),
    ("bad ply type", req("POST", "/api/v1/claim", '{"pgn":"1. e4 *","ply":"x","kind":"fifty"}'), {400}),
    ("10 MB body on events", req("POST", EV, b'{"x":"' + b"a" * (10 << 20) + b'"}'), {413, 0}),
    ("11 MB body on status (under 16)", req("POST", "/api/v1/status", BIG), {400}),
    ("17 MB PGN body", req("POST", "/api/v1/claim", b'{"pgn":"' + b"1. e4 " * (3 << 20) + b'"}'), {413, 0}),
    ("Content-Length lies (too long)", b"POST " + EV.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{}",
     {400, 0}),
    ("negative Content-Length", b"POST " + EV.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}",
     {400, 413, 0}),
    ("absurd Content-Length", b"POST " + EV.encode() +
     b" HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n", {400, 413, 0}),
    ("path traversal", req("GET", "/../../etc/passwd"), {400, 404}),
    ("encoded path traversal", req("GET", "/%2e%2e/%2e%2e/etc/passwd"), {400, 404}),
    ("traversal to a source file", req("GET", "/web/../service.cpp"), {400, 404}),
    ("backslash path", req("GET", "/..\\..\\etc\\passwd"), {400, 404}),
    ("NUL in path", req("GET", "/index.html%00.js"), {400, 404}),
    ("very long path", req("GET", "/" + "a" * 20000), {400, 404, 414, 0}),
    ("huge header", req("GET", "/api/v1/health", headers="X-Big: " + "b" * 100000 + "\r\n"), {400, 431, 0}),
    ("many headers", req("GET", "/api/v1/health", headers="".join("X-%d: y\r\n" % i for i in range(5000))),
     {200, 400, 431, 0}),
    ("garbage request line", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", {400, 0}),
    ("unknown method", req("BREW", "/api/v1/health"), {400, 405}),
    ("PUT a session", req("PUT", "/api/v1/sessions/1"), {405}),
    ("PUT events", req("PUT", EV, "{}"), {405}),
    ("session id overflow", req("GET", "/api/v1/sessions/99999999999999999999999"), {404}),
    ("negative session id", req("GET", "/api/v1/sessions/-1"), {404}),
    ("SQL in id", req("GET", "/api/v1/sessions/1;DROP%20TABLE%20events"), {404}),
    ("SQL in a name", req("POST", "/api/v1/sessions", '{"white":"x\'); DROP TABLE events;--"}'), {201}),
    ("board with bad query", req("GET", "/board.svg?fen=%ff%fe&highlight=" + "a1," * 1000), {400}),
    ("board with script in fen", req("GET", "/board.svg?fen=<script>alert(1)</script>"), {400}),
    ("HTTP/0.9 request", b"GET /\r\n\r\n", {400, 0}),
    ("header without colon", b"GET /api/v1/health HTTP/1.1\r\nHost x\r\n\r\n", {200, 400}),
    ("chunked garbage", b"POST " + EV.encode() + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
     {400, 0}),
]


def test_table():
    check(len(TABLE) >= 40, "at least 40 hostile requests")
    failures = []
    for name, data, accepted in TABLE:
        status = srv.raw(data)
        if status not in accepted:
            failures.append("%s: %d (expected %s)" % (name, status, sorted(accepted)))
        health = srv.request("GET", "/api/v1/health")[0]
        if health != 200:
            failures.append("%s: the server no longer answers (%d)" % (name, health))
            break
    check(not failures, "; ".join(failures))
    # The session is intact, and the SQL text stayed a name.
    status, j, _, _ = srv.request("GET", "/api/v1/sessions")
    check(status == 200 and j[0]["events"] == 0 and any("DROP" in r["white"] for r in j), "journal intact %s" % j)


def test_slow_clients():
    # Slowloris: headers a byte at a time, then silence; a body promised and never sent. Each is
    # dropped after the read timeout (5 s) while the server keeps answering others.
    socks = []
    for i in range(8):
        s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
        s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        socks.append(s)
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
    s.sendall(b"POST " + EV.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
    socks.append(s)
    t0 = time.time()
    for _ in range(5):
        check(srv.request("GET", "/api/v1/health", timeout=5)[0] == 200, "answers while slow clients wait")
        time.sleep(0.2)
    closed = 0
    for s in socks:
        s.settimeout(max(1.0, 15 - (time.time() - t0)))
        try:
            data = s.recv(4096)
            closed += 1  # closed (b"") or answered with an error: not held forever
        except socket.timeout:
            pass
        s.close()
    check(closed == len(socks), "%d of %d slow connections were dropped within 15 s" % (closed, len(socks)))


try:
    run([("hostile table", test_table), ("slow clients", test_slow_clients)])
finally:
    check(srv.stop() == 0, "clean stop")
