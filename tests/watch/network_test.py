#!/usr/bin/env python3
"""The hall monitor on broadcast feeds (ctest watch.network): https polling, streams, restarts.

Everything on 127.0.0.1, ports chosen by the system, every wait bounded. A test CA and a server
certificate are made with `openssl` for the TLS cases. Scenarios:
  - https polling through a redirect, with ETag and gzip: unchanged reads cost 304s; an untrusted
    certificate is refused without --ca-file and taken with --insecure;
  - polled bodies in chunks on a kept connection, and a server that closes each connection after
    its answer unannounced (made again at the next turn, no error);
  - --once exit codes: 0 when every source was read, 2 (each named on stderr, no talk of retrying)
    for a URL answering 404 or 500, a server that is down, a missing file;
  - streams, plain and TLS: games sent one after another, each again when it changes; a connection
    dropped mid-game (reconnected, nothing half-read); a stream that stalls (reconnected);
  - ten polled URLs that never answer beside one that moves: its alert is not held up;
  - 200 boards on one streaming connection;
  - restarts with --state: a correction made while stopped, a correction undone while stopped, a
    game finished while stopped;
  - a stale feed (feed_stale, withdrawn when the game moves) and a deleted board file (feed_gone).

Usage: network_test.py ARBITER WORKDIR
"""
import gzip
import http.server
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procs  # noqa: E402

ARBITER, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg, flush=True)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


# --- games -------------------------------------------------------------------------------------

TOUR = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8".split()  # the start position again at plies 4 and 8


def pgn(board, moves, result="*", round_="1", white="W", black="B"):
    body = []
    for k, m in enumerate(moves):
        body.append(("%d. " % (k // 2 + 1) if k % 2 == 0 else "") + m)
    return ('[Event "Net"]\n[Round "%s"]\n[Board "%s"]\n[White "%s"]\n[Black "%s"]\n[Result "%s"]\n\n%s %s\n\n'
            % (round_, board, white, black, result, " ".join(body), result))


def key(a):
    return (a["board"], a["type"], a["kind"], a["ply"])


def in_force(alerts):
    """The alerts in force after these lines: given, minus withdrawn or closed."""
    force = {}
    for a in alerts:
        if a["withdrawn"] or a.get("closed"):
            force.pop(key(a), None)
        else:
            force[key(a)] = a
    return force


def parse(text):
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            fail("not JSON: %r" % line[:100])
    return out


def once(args, timeout=60):
    p = subprocess.run([ARBITER, "watch", "--once"] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, parse(p.stdout), p.stderr


class Live:
    """`arbiter watch` running, its lines collected."""

    def __init__(self, args):
        self.proc = subprocess.Popen([ARBITER, "watch", "--interval-ms", "50"] + args, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.alerts, self.errors = [], []
        threading.Thread(target=lambda: [self.alerts.extend(parse(l)) for l in self.proc.stdout], daemon=True).start()
        threading.Thread(target=lambda: self.errors.extend(self.proc.stderr), daemon=True).start()

    def wait(self, pred, seconds=15):
        end = time.time() + seconds
        while time.time() < end:
            if pred():
                return True
            time.sleep(0.05)
        return False

    def has(self, k):
        return k in in_force(list(self.alerts))

    def stop(self):
        procs.stop(self.proc)


# --- certificates --------------------------------------------------------------------------------

def make_certs():
    d = os.path.join(WORK, "tls")
    os.makedirs(d)

    def run(*args):
        subprocess.run(["openssl"] + list(args), cwd=d, check=True, capture_output=True, timeout=60)

    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key",
        "-out", "ca.pem", "-days", "2", "-subj", "/CN=arbiter test CA")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "server.key",
        "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(d, "ext.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "server.pem", "-days", "2", "-extfile", "ext.cnf")
    return os.path.join(d, "ca.pem"), os.path.join(d, "server.pem"), os.path.join(d, "server.key")


# --- the feed server -----------------------------------------------------------------------------

class Feed:
    """A loopback feed server: polled documents (ETag, gzip, 304), redirects, error statuses,
    stalls, and PGN streams that send each complete game again when it changes."""

    def __init__(self, cert=None):
        self.docs = {}          # path -> PGN text
        self.status = {}        # path -> forced status
        self.redirects = {}     # path -> Location
        self.stalls = set()     # paths that answer nothing (streams: headers, then nothing)
        self.streams = {}       # path -> list of queued games, consumed by the connections
        self.stream_games = {}  # path -> {board: game text}, sent whole to each new connection
        self.cut_next = {}      # path -> bytes of a game to send before dropping the connection
        self.log = []           # (path, status, gzip)
        self.chunked = set()    # paths whose bodies are sent in chunks (Transfer-Encoding: chunked)
        self.drop = set()       # paths whose connection is closed after each answer, unannounced
        self.conns = []         # (path, connection) of each polled answer
        self.connections = {}   # stream path -> connections made
        self.cond = threading.Condition()
        feed = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                path = self.path
                if path in feed.redirects:
                    self.send_response(301)
                    self.send_header("Location", feed.redirects[path])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    feed.log.append((path, 301, False))
                    return
                if path in feed.status:
                    body = b"no\n"
                    self.send_response(feed.status[path])
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    feed.log.append((path, feed.status[path], False))
                    return
                if path in feed.stream_games:
                    return self.stream(path)
                if path in feed.stalls:
                    time.sleep(8)
                    return
                text = feed.docs.get(path)
                if text is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    feed.log.append((path, 404, False))
                    return
                feed.conns.append((path, id(self)))
                if path in feed.drop:
                    self.close_connection = True  # after the answer, without a Connection: close
                etag = '"%x"' % (hash(text) & 0xffffffff)
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    feed.log.append((path, 304, False))
                    return
                data = text.encode()
                zipped = "gzip" in (self.headers.get("Accept-Encoding") or "")
                if zipped:
                    data = gzip.compress(data)
                self.send_response(200)
                self.send_header("ETag", etag)
                if zipped:
                    self.send_header("Content-Encoding", "gzip")
                if path in feed.chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for i in range(0, len(data), 7):
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(data[i:i + 7]), data[i:i + 7]))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                else:
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                feed.log.append((path, 200, zipped))

            def stream(self, path):
                with feed.cond:
                    feed.connections[path] = feed.connections.get(path, 0) + 1
                    games = list(feed.stream_games[path].values())
                    cut = feed.cut_next.pop(path, None)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-chess-pgn")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    if path in feed.stalls:
                        time.sleep(5)
                        return
                    for g in games:
                        self.wfile.write(g.encode())
                    self.wfile.flush()
                    if cut is not None:
                        self.wfile.write(cut.encode())
                        self.wfile.flush()
                        time.sleep(0.1)
                        return  # dropped mid-game
                    end = time.time() + 30
                    while time.time() < end:
                        with feed.cond:
                            feed.cond.wait_for(lambda: feed.streams[path] or path in feed.stalls, timeout=0.5)
                            if path in feed.stalls or path in feed.cut_next:
                                return
                            queued, feed.streams[path] = feed.streams[path], []
                        for g in queued:
                            self.wfile.write(g.encode())
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
                    pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if cert:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(cert[0], cert[1])
            self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.scheme = "https" if cert else "http"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return "%s://127.0.0.1:%d%s" % (self.scheme, self.port, path)

    def send(self, path, board, text):
        """A stream's game changed: sent whole on the open connections, and to new ones."""
        with self.cond:
            self.stream_games.setdefault(path, {})[board] = text
            self.streams.setdefault(path, []).append(text)
            self.cond.notify_all()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --- scenarios -----------------------------------------------------------------------------------

def https_polling(certs):
    """Polling over TLS through a permanent redirect, with ETag and gzip."""
    ca, cert, keyf = certs
    feed = Feed((cert, keyf))
    feed.redirects["/old.pgn"] = "/round.pgn"
    feed.docs["/round.pgn"] = pgn(1, TOUR[:2])
    live = Live(["--ca-file", ca, feed.url("/old.pgn")])
    for n in range(3, len(TOUR) + 1):
        time.sleep(0.3)
        feed.docs["/round.pgn"] = pgn(1, TOUR[:n])
    ok = live.wait(lambda: live.has(("1.1", "claimable", "threefold", 8)))
    time.sleep(0.5)  # unchanged now: every request a 304
    live.stop()
    feed.close()
    check(ok, "https: the threefold at ply 8 did not come: %s %s" % (live.alerts, live.errors))
    force = in_force(live.alerts)
    a = force.get(("1.1", "claimable", "threefold", 8))
    if a:
        check(a["plies"] == [0, 4, 8], "https: evidence plies %s, wanted [0, 4, 8]" % a["plies"])
        check("at the start, after 2...Ng8, 4...Ng8" in a["detail"], "https: evidence words: %s" % a["detail"])
        check(a["source"] == feed.url("/old.pgn"), "https: source %s" % a["source"])
    statuses = [s for p, s, z in feed.log]
    redirects = [1 for p, s, z in feed.log if s == 301]
    check(statuses.count(304) >= 5, "https: unchanged reads cost %d 304s (log %s)" % (statuses.count(304), statuses[-20:]))
    check(len(redirects) == 1, "https: the permanent redirect was followed %d times, wanted once" % len(redirects))
    # A 304 has no body (this server's has no Content-Length either): the connection is kept, the
    # redirect and every request on one.
    conns = {c for p, c in feed.conns if p == "/round.pgn"}
    check(len(conns) == 1, "https: %d connections, wanted 1 kept" % len(conns))
    check(all(z for p, s, z in feed.log if s == 200), "https: a body was sent without gzip")
    check(not live.errors, "https: stderr: %s" % live.errors)

    # Untrusted without --ca-file; --insecure by name takes it.
    feed = Feed((cert, keyf))
    feed.docs["/round.pgn"] = pgn(1, TOUR)
    code, alerts, err = once([feed.url("/round.pgn")])
    check(code == 2 and "not trusted" in err and feed.url("/round.pgn") in err,
          "https without --ca-file: exit %d, stderr %r" % (code, err))
    # Trusted CA, but the certificate names 127.0.0.1, not localhost: refused.
    other = feed.url("/round.pgn").replace("127.0.0.1", "localhost")
    code, alerts, err = once(["--ca-file", ca, other])
    check(code == 2 and "not trusted" in err and "mismatch" in err, "https, wrong host name: exit %d, %r" % (code, err))
    code, alerts, err = once(["--insecure", feed.url("/round.pgn")])
    check(code == 0 and ("1.1", "claimable", "threefold", 8) in in_force(alerts),
          "https --insecure: exit %d, %s %r" % (code, alerts, err))
    feed.close()


def polled_quirks():
    """Polled bodies sent in chunks (and gzip) on a kept connection, and a server that closes each
    connection after its answer without saying so: both read alike, the closed connection made
    again at the next turn, no error said."""
    # Two servers: connections are kept for each server, shared by its URLs (libcurl's pool), so
    # the server that drops its connections must not be the one whose kept connection is counted.
    feeds = {"/chunked.pgn": Feed(), "/dropped.pgn": Feed()}
    feeds["/chunked.pgn"].chunked.add("/chunked.pgn")
    feeds["/dropped.pgn"].drop.add("/dropped.pgn")
    for b, path in ((1, "/chunked.pgn"), (2, "/dropped.pgn")):
        feeds[path].docs[path] = pgn(b, TOUR[:2])
    live = Live([feeds["/chunked.pgn"].url("/chunked.pgn"), feeds["/dropped.pgn"].url("/dropped.pgn")])
    for n in range(3, len(TOUR) + 1):
        time.sleep(0.2)
        for b, path in ((1, "/chunked.pgn"), (2, "/dropped.pgn")):
            feeds[path].docs[path] = pgn(b, TOUR[:n])
    want = {("1.1", "claimable", "threefold", 8), ("1.2", "claimable", "threefold", 8)}
    ok = live.wait(lambda: want <= set(in_force(list(live.alerts))))
    time.sleep(0.5)  # unchanged now: 304s
    live.stop()
    for feed in feeds.values():
        feed.close()
    check(ok, "polled quirks: threefolds %s of %s: %s" % (set(in_force(live.alerts)) & want, want, live.errors))
    for path, feed in feeds.items():
        statuses = [s for p, s, z in feed.log if p == path]
        check(statuses.count(304) >= 5 and statuses.count(200) >= 2, "polled quirks: %s answered %s" % (path, statuses))
    feed = feeds["/chunked.pgn"]
    kept = {c for p, c in feed.conns if p == "/chunked.pgn"}
    check(len(kept) == 1, "polled quirks: chunked answers on %d connections, wanted 1 kept" % len(kept))
    check(not live.errors, "polled quirks: stderr: %s" % live.errors)


def once_exit_codes():
    feed = Feed()
    feed.docs["/good.pgn"] = pgn(1, TOUR)
    feed.status["/missing.pgn"] = 404
    feed.status["/broken.pgn"] = 500
    good = os.path.join(WORK, "good.pgn")
    with open(good, "w") as f:
        f.write(pgn(2, TOUR))
    code, alerts, err = once([feed.url("/good.pgn"), good])
    check(code == 0 and len(in_force(alerts)) == 2, "--once, all good: exit %d, %d alerts, %r" % (code, len(alerts), err))
    down = "http://127.0.0.1:%d/x.pgn" % free_port()
    for bad, words in ((feed.url("/missing.pgn"), "404"), (feed.url("/broken.pgn"), "500"), (down, "connect"),
                       (os.path.join(WORK, "nothere.pgn"), "not there")):
        code, alerts, err = once([feed.url("/good.pgn"), bad])
        check(code == 2, "--once with %s: exit %d, wanted 2" % (bad, code))
        check(bad in err and words in err, "--once with %s: stderr does not name it: %r" % (bad, err))
        check("retry" not in err and "again" not in err, "--once with %s: talks of retrying: %r" % (bad, err))
        check(("1.1", "claimable", "threefold", 8) in in_force(alerts), "--once with %s: the good URL's alert" % bad)
    code, alerts, err = once(["--stream", feed.url("/missing.pgn")])
    check(code == 2 and "404" in err, "--once --stream 404: exit %d %r" % (code, err))
    feed.close()


def streaming(certs, tls):
    """Games one after another on one connection, each again when it changes; a drop mid-game."""
    what = "stream over TLS" if tls else "stream"
    feed = Feed((certs[1], certs[2]) if tls else None)
    path = "/live.pgn"
    feed.send(path, 1, pgn(1, TOUR[:2]))
    feed.send(path, 2, pgn(2, ["e4"]))
    live = Live((["--ca-file", certs[0]] if tls else []) + ["--stream", feed.url(path)])
    check(live.wait(lambda: feed.connections.get(path, 0) >= 1), "%s: no connection" % what)
    for n in range(3, len(TOUR) + 1):
        feed.send(path, 1, pgn(1, TOUR[:n]))
        feed.send(path, 2, pgn(2, ["e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7", "Ke1", "Ke8"][:n]))
        time.sleep(0.05)
    check(live.wait(lambda: live.has(("1.1", "claimable", "threefold", 8))), "%s: no threefold on board 1" % what)
    # Dropped mid-game: half of a game, then the connection ends; the next connection sends all.
    with feed.cond:
        feed.cut_next[path] = pgn(2, ["e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2"])[:60]
        feed.cond.notify_all()
    check(live.wait(lambda: feed.connections.get(path, 0) >= 3, 10), "%s: not connected again after a drop" % what)
    feed.send(path, 2, pgn(2, ["e4", "e5", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7", "Ke1", "Ke8", "Ke2", "Ke7"]))
    check(live.wait(lambda: live.has(("1.2", "claimable", "threefold", 12))), "%s: no threefold on board 2" % what)
    time.sleep(0.3)
    live.stop()
    feed.close()
    force = in_force(live.alerts)
    want = {("1.1", "claimable", "threefold", 8), ("1.2", "claimable", "threefold", 12)}
    check(set(force) == want, "%s: alerts in force %s, wanted %s" % (what, sorted(force), sorted(want)))
    check(not [a for a in live.alerts if a["withdrawn"]], "%s: withdrawals: %s" % (what, live.alerts))
    check(any("stream" in e or "cut" in e for e in live.errors), "%s: the drop was not said: %s" % (what, live.errors))


def stalled_stream():
    feed = Feed()
    path = "/stall.pgn"
    feed.send(path, 1, pgn(1, TOUR[:3]))
    feed.stalls.add(path)
    live = Live(["--stream-timeout", "1", "--stream", feed.url(path)])
    ok = live.wait(lambda: feed.connections.get(path, 0) >= 2, 10)
    live.stop()
    feed.close()
    check(ok, "stalled stream: not connected again (%s connections)" % feed.connections.get(path))
    check(any("silent" in e or "cut" in e for e in live.errors), "stalled stream: not said: %s" % live.errors)


def many_boards():
    """200 boards on one streaming connection, each reaching a threefold."""
    feed = Feed()
    path = "/hall.pgn"
    for b in range(1, 201):
        feed.send(path, b, pgn(b, TOUR[:1]))
    live = Live(["--stream", feed.url(path)])
    live.wait(lambda: feed.connections.get(path, 0) >= 1)
    for n in range(2, len(TOUR) + 1):
        for b in range(1, 201):
            feed.send(path, b, pgn(b, TOUR[:n]))
        time.sleep(0.1)
    want = {("1.%d" % b, "claimable", "threefold", 8) for b in range(1, 201)}
    ok = live.wait(lambda: want <= set(in_force(list(live.alerts))), 20)
    time.sleep(0.3)
    live.stop()
    feed.close()
    force = in_force(live.alerts)
    check(ok and set(force) == want, "200 boards: %d of 200 threefolds, %d alerts in force"
          % (len(want & set(force)), len(force)))
    check(feed.connections.get(path) == 1, "200 boards: %s connections, wanted 1" % feed.connections.get(path))


def slow_urls():
    """Ten polled URLs that never answer beside one that moves: the stalled ones, each awaiting its
    answer until its deadline, do not hold up the live one."""
    feed = Feed()
    for i in range(10):
        feed.stalls.add("/stall%d.pgn" % i)
    feed.docs["/live.pgn"] = pgn(1, TOUR[:2])
    live = Live([feed.url("/stall%d.pgn" % i) for i in range(10)] + [feed.url("/live.pgn")])
    time.sleep(0.5)  # every stalled URL asked by now, each awaiting its answer
    started = time.time()
    for n in range(3, len(TOUR) + 1):
        feed.docs["/live.pgn"] = pgn(1, TOUR[:n])
        time.sleep(0.2)
    ok = live.wait(lambda: live.has(("1.1", "claimable", "threefold", 8)), 10)
    took = time.time() - started
    live.stop()
    feed.close()
    check(ok, "slow URLs: the live URL's threefold did not come: %s %s" % (live.alerts, live.errors))
    # The moves take 1.4 s to come; the stalled URLs are awaited 5 s (the read timeout).
    check(took < 4, "slow URLs: the live URL's threefold came %.1f s after its moves began" % took)


def restarts():
    """The issue's scenarios: what changed while the watch was stopped is reported at restart."""
    f, state = os.path.join(WORK, "f.pgn"), os.path.join(WORK, "x.watch")
    # White castles first (the moves kept as UCI must replay: e1g1 is castling, not a king move).
    pre = "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6".split()
    t1 = pgn(1, pre + "Re1 Ng4 Rf1 Nf6 Re1 Ng4 Rf1 Nf6".split())  # threefold claimable at ply 16
    t2 = pgn(1, pre + "Re1 Ng4 Rf1 Nf6 Nc3 Ng4 Nb1 Nh6".split())  # 7.Re1 became 7.Nc3: no threefold

    def run(text):
        with open(f, "w") as out:
            out.write(text)
        code, alerts, err = once(["--state", state, f])
        check(code == 0, "restart: exit %d: %s" % (code, err))
        return alerts

    first = run(t1)
    check(list(in_force(first)) == [("1.1", "claimable", "threefold", 16)], "restart: first run %s" % first)
    # A correction while stopped: the claim withdrawn first, then the correction.
    second = run(t2)
    lines = [(key(a), a["withdrawn"]) for a in second]
    check(lines == [(("1.1", "claimable", "threefold", 16), True), (("1.1", "correction", "moves_changed", 13), False)],
          "restart, correction while stopped: %s" % lines)
    corr = [a for a in second if a["type"] == "correction"]
    if corr:
        check(corr[0]["move"] == "7.Nc3" and "7.Re1 became 7.Nc3" in corr[0]["detail"]
              and "1 alert withdrawn, 4 plies replaced)" in corr[0]["detail"],
              "restart, correction words: %s %s" % (corr[0]["move"], corr[0]["detail"]))
    rows = subprocess.run(["sqlite3", state, "select type, kind, ply from alerts order by ply"],
                          capture_output=True, text=True).stdout.split() if shutil.which("sqlite3") else None
    if rows is not None:
        check(rows == ["correction|moves_changed|13"], "restart: the state file keeps %s" % rows)
    # The correction undone while stopped: the first correction withdrawn, a new one, the claim again.
    third = run(t1)
    lines = [(key(a), a["withdrawn"]) for a in third]
    check(lines == [(("1.1", "correction", "moves_changed", 13), True),
                    (("1.1", "correction", "moves_changed", 13), False),
                    (("1.1", "claimable", "threefold", 16), False)],
          "restart, correction undone while stopped: %s" % lines)
    # Nothing new: nothing printed.
    check(run(t1) == [], "restart, nothing new: printed something")
    # Fewer plies dropped by a correction: counted as dropped, not replaced.
    fewer = run(pgn(1, pre + "Re1 Ng4 Rf1 Nf6 Nc3 Ng4".split()))
    corr = [a for a in fewer if a["type"] == "correction" and not a["withdrawn"]]
    check(corr and "2 plies replaced, 2 dropped" in corr[0]["detail"], "restart, dropped plies: %s" % fewer)

    # A claim made and accepted while stopped: the game ends by its result alone; the claim closes.
    f3, state3 = os.path.join(WORK, "h.pgn"), os.path.join(WORK, "h.watch")
    with open(f3, "w") as out:
        out.write(pgn(8, TOUR))
    once(["--state", state3, f3])
    with open(f3, "w") as out:
        out.write(pgn(8, TOUR, "1/2-1/2"))
    code, alerts, err = once(["--state", state3, f3])
    check([(key(a), a["closed"], a["withdrawn"]) for a in alerts] == [(("1.8", "claimable", "threefold", 8), True, False)],
          "drawn while stopped: %s" % alerts)
    rows = subprocess.run(["sqlite3", state3, "select count(*) from alerts"], capture_output=True,
                          text=True).stdout.split() if shutil.which("sqlite3") else None
    if rows is not None:
        check(rows == ["0"], "drawn while stopped: the state file still keeps %s alerts" % rows)

    # A game finished while stopped (a fivefold, then drawn): the claims closed, the void plies
    # counted, and brought up to date when the feed goes on.
    f2, state2 = os.path.join(WORK, "g.pgn"), os.path.join(WORK, "g.watch")
    rt = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nc6 Ng1 Nb8 Nc3 Nf6 Nb1 Ng8".split()
    with open(f2, "w") as out:
        out.write(pgn(7, rt[:8]))
    code, alerts, err = once(["--state", state2, f2])
    check(list(in_force(alerts)) == [("1.7", "claimable", "threefold", 8)], "finished while stopped: first %s" % alerts)
    with open(f2, "w") as out:
        out.write(pgn(7, rt + ["e4"], "1/2-1/2"))
    code, alerts, err = once(["--state", state2, f2])
    lines = [(key(a), a["withdrawn"], a["closed"]) for a in alerts]
    check((("1.7", "game_over", "fivefold_repetition", 16), False, False) in lines,
          "finished while stopped: no fivefold: %s" % lines)
    for ply in (8, 12):
        check((("1.7", "claimable", "threefold", ply), False, True) in lines,
              "finished while stopped: the claim at %d not closed: %s" % (ply, lines))
    check(in_force(alerts).keys() == {("1.7", "game_over", "fivefold_repetition", 16)},
          "finished while stopped: in force %s" % list(in_force(alerts)))
    over = [a for a in alerts if a["type"] == "game_over"]
    check(over and "goes on for 1 ply" in over[-1]["detail"], "finished while stopped: void plies %s" % over)
    with open(f2, "w") as out:
        out.write(pgn(7, rt + ["e4", "e5", "Nf3"], "1/2-1/2"))
    code, alerts, err = once(["--state", state2, f2])
    check([(key(a), a["updated"]) for a in alerts] == [(("1.7", "game_over", "fivefold_repetition", 16), True)]
          and "goes on for 3 plies" in alerts[0]["detail"], "void plies updated: %s" % alerts)


def stale_and_gone():
    d = os.path.join(WORK, "hall")
    os.makedirs(d)
    path = os.path.join(d, "b1.pgn")
    with open(path, "w") as out:
        out.write(pgn(1, TOUR[:3]))
    with open(os.path.join(d, "b2.pgn"), "w") as out:
        out.write(pgn(2, ["e4", "e5"], "1-0"))  # over: never stale
    live = Live(["--stale-after", "1", d])
    stale = ("1.1", "feed_stale", "no_change", 3)
    check(live.wait(lambda: live.has(stale), 10), "stale: no feed_stale: %s" % live.alerts)
    with open(path, "w") as out:
        out.write(pgn(1, TOUR[:4]))
    check(live.wait(lambda: any(a["withdrawn"] and key(a) == stale for a in live.alerts), 10),
          "stale: not withdrawn when the game moved: %s" % live.alerts)
    os.remove(path)
    gone = ("1.1", "feed_gone", "deleted", 4)
    check(live.wait(lambda: live.has(gone), 10), "gone: no feed_gone: %s" % live.alerts)
    with open(path, "w") as out:
        out.write(pgn(1, TOUR[:4]))
    check(live.wait(lambda: not live.has(gone), 10), "gone: not withdrawn when the file came back")
    time.sleep(0.3)
    live.stop()
    check(not [a for a in live.alerts if a["board"] == "1.2"], "stale: the finished game alerted")

    # A polled URL that answers 404 after it gave a game: feed_gone, withdrawn when it is back.
    feed = Feed()
    feed.docs["/g.pgn"] = pgn(3, TOUR[:3])
    live = Live([feed.url("/g.pgn")])
    gone = ("1.3", "feed_gone", "not_found", 3)
    live.wait(lambda: len(feed.log) >= 2, 10)
    feed.status["/g.pgn"] = 404
    check(live.wait(lambda: live.has(gone), 10), "gone URL: no feed_gone: %s" % live.alerts)
    del feed.status["/g.pgn"]
    check(live.wait(lambda: not live.has(gone), 10), "gone URL: not withdrawn when it answered again")
    live.stop()
    feed.close()


certs = make_certs()
for name, run in (("https polling", lambda: https_polling(certs)), ("polled quirks", polled_quirks),
                  ("--once exit codes", once_exit_codes),
                  ("stream", lambda: streaming(certs, False)), ("stream over TLS", lambda: streaming(certs, True)),
                  ("stalled stream", stalled_stream), ("200 boards", many_boards), ("slow URLs", slow_urls), ("restarts", restarts),
                  ("stale and gone", stale_and_gone)):
    started = time.time()
    before = len(failures)
    try:
        run()
    except Exception as e:  # a scenario that breaks is a failure, the others still run
        fail("%s: %r" % (name, e))
    print("%-18s %s in %.1f s" % (name, "ok" if len(failures) == before else "FAILED", time.time() - started), flush=True)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
