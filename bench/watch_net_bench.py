#!/usr/bin/env python3
"""`arbiter watch` on 1,000 boards over the network (make bench-watch; not a timed test).

MODE stream: one loopback streaming connection (`--stream`) carrying all the boards; each second
MOVES boards get their next move and their whole game is sent again, as broadcast relays do.
MODE https (or http, to compare): 1,000 https URLs on loopback (a test CA made with openssl), one board each, polled every
INTERVAL ms; an unchanged URL answers 304 (ETag), a changed one its game.
In both, PROBES boards reach a fivefold repetition at known times (spread over the run, at random
phases); the alert latency is the time from the moment the completing game was handed to the
server (stream: written to the socket) to the alert line read from the watch. Reported: the watch's
CPU time over the wall time (share of one core), peak RSS, latency p50/p99/max.

Usage: watch_net_bench.py ARBITER SHARED_DATA MODE [SECONDS=60] [INTERVAL_MS=500] [MOVES_PER_SECOND=50]
"""
import http.server
import json
import os
import random
import re
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_games import PROBE_TOUR, cpu_seconds, game_text, percentile, real_games  # noqa: E402

ARBITER, SHARED, MODE = sys.argv[1], sys.argv[2], sys.argv[3]
SECONDS = int(sys.argv[4]) if len(sys.argv) > 4 else 60
INTERVAL = int(sys.argv[5]) if len(sys.argv) > 5 else 500
MOVES = int(sys.argv[6]) if len(sys.argv) > 6 else 50
BOARDS, PROBES = 1000, 40
rng = random.Random(2)
games = real_games(SHARED, BOARDS - PROBES)
progress = [rng.randrange(1, len(m)) for _, m in games]
# Probe p is one ply short of its fivefold from the start, and completes at done_at[p].
done_at = sorted(rng.uniform(3, SECONDS - 1) for _ in range(PROBES))
texts = {}  # board number -> its game now
lock = threading.Condition()
queue = []  # stream: games to send


def set_board(board, text):
    with lock:
        texts[board] = text
        queue.append((board, text))
        lock.notify_all()


for i, (tags, moves) in enumerate(games):
    texts[i + 1] = game_text(i + 1, tags, moves, progress[i])
for p in range(PROBES):
    texts[9000 + p] = game_text(9000 + p, {"White": "Probe", "Black": str(p)}, PROBE_TOUR, len(PROBE_TOUR) - 1)
sent_at = {}  # probe board -> when its completing game reached the server side
completing = set()  # probe boards whose completing game was handed to the server


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path == "/stream.pgn":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            with lock:
                first = "".join(texts.values())
                del queue[:]
            self.wfile.write(first.encode())
            self.wfile.flush()
            while True:
                with lock:
                    lock.wait_for(lambda: queue, timeout=1)
                    batch, queue[:] = list(queue), []
                if not batch:
                    continue
                self.wfile.write("".join(t for _, t in batch).encode())
                self.wfile.flush()
                now = time.monotonic()
                for board, t in batch:
                    if board in completing and board not in sent_at:
                        sent_at[board] = now
            return
        m = re.match(r"^/b/(\d+)\.pgn$", self.path)
        text = texts.get(int(m.group(1))) if m else None
        if text is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        etag = '"%x"' % (hash(text) & 0xffffffff)
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = text.encode()
        self.send_response(200)
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


tmp = tempfile.mkdtemp()
class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 1024  # 1,000 feeds connect at once
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
args = [ARBITER, "watch", "--interval-ms", str(INTERVAL), "--stale-after", "0"]
if MODE == "https":
    for cmd in (["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                 "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=bench CA"],
                ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "s.key",
                 "-out", "s.csr", "-subj", "/CN=127.0.0.1"]):
        subprocess.run(["openssl"] + cmd, cwd=tmp, check=True, capture_output=True)
    with open(os.path.join(tmp, "ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    subprocess.run(["openssl", "x509", "-req", "-in", "s.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", "s.pem", "-days", "2", "-extfile", "ext"], cwd=tmp, check=True, capture_output=True)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(tmp, "s.pem"), os.path.join(tmp, "s.key"))
    # The handshakes on the connections' threads, not one after another in accept().
    server.socket = ctx.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    args += ["--ca-file", os.path.join(tmp, "ca.pem")]
if MODE in ("https", "http"):
    args += ["%s://127.0.0.1:%d/b/%d.pgn" % (MODE, server.server_address[1], b) for b in sorted(texts)]
else:
    args += ["--stream", "http://127.0.0.1:%d/stream.pgn" % server.server_address[1]]
threading.Thread(target=server.serve_forever, daemon=True).start()

proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
seen = {}
errors = []


def reader():
    for line in proc.stdout:
        a = json.loads(line)
        if a["type"] == "game_over" and a["board"].startswith("1.90") and not a["updated"]:
            seen.setdefault(int(a["board"][2:]), time.monotonic())


threading.Thread(target=reader, daemon=True).start()
threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()
# The first reads: every board analysed from scratch (and, over https, 1,000 handshakes that the
# Python server takes slowly; the refused ones are tried again with back-off). Then the steady state.
time.sleep(3 if MODE == "stream" else 15)
c0, t0 = cpu_seconds(proc.pid), time.monotonic()
errors_before = len(errors)
probe = 0
for second in range(SECONDS):
    for i in rng.sample(range(len(games)), min(MOVES, len(games))):
        progress[i] = min(progress[i] + 1, len(games[i][1]))
        set_board(i + 1, game_text(i + 1, games[i][0], games[i][1], progress[i]))
    while probe < PROBES and done_at[probe] < second + 1:
        time.sleep(max(0.0, t0 + done_at[probe] - time.monotonic()))
        board = 9000 + probe
        completing.add(board)
        set_board(board, game_text(board, {"White": "Probe", "Black": str(probe)}, PROBE_TOUR, len(PROBE_TOUR)))
        if MODE != "stream":
            sent_at[board] = time.monotonic()  # served from now on
        probe += 1
    time.sleep(max(0.0, t0 + second + 1 - time.monotonic()))
c1, t1 = cpu_seconds(proc.pid), time.monotonic()
time.sleep(INTERVAL / 1000 + 1)
hwm = int(re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % proc.pid).read()).group(1)) // 1024
proc.terminate()
proc.wait()
lat = sorted((seen[b] - sent_at[b]) * 1000 for b in sent_at if b in seen)
print("%s: %d boards, %d s, read every %d ms, %d moves a second, load average %.1f %.1f %.1f"
      % ((MODE, len(texts), SECONDS, INTERVAL, MOVES) + os.getloadavg()))
print("cpu %.1f %% of one core" % (100 * (c1 - c0) / (t1 - t0)))
print("peak rss %d MB" % hwm)
print("alert latency over %d probes: p50 %.0f ms, p99 %.0f ms, max %.0f ms (missing: %d)"
      % (len(lat), percentile(lat, 50), percentile(lat, 99), lat[-1] if lat else float("nan"), len(sent_at) - len(lat)))
if errors:  # the loopback server overwhelmed (handshakes refused) shows here
    print("stderr of the watch: %d lines (%d during the measure), first: %s"
          % (len(errors), len(errors) - errors_before, errors[0].strip()))
