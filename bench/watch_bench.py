#!/usr/bin/env python3
"""`arbiter watch` on a hall of 1,000 boards (make bench-watch; not a timed test).

A writer rewrites one PGN file (by rename) every second for SECONDS seconds: 1,000 games, real ones
from ../shared/data/pgn/real cut at a random ply, of which 50 a second get their next move, plus
probe boards that each reach a fivefold repetition (an alert) at a known write. The watch reads the
file every INTERVAL ms. Reported: the watch's CPU time over the wall time (share of one core), its
peak RSS, and for each probe the delay from the write that completed the repetition to the alert
line read from the watch.

Usage: watch_bench.py ARBITER SHARED_DATA [SECONDS=60] [INTERVAL_MS=1000] [MOVES_PER_SECOND=50]
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time

ARBITER, SHARED = sys.argv[1], sys.argv[2]
SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 60
INTERVAL = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
MOVES = int(sys.argv[5]) if len(sys.argv) > 5 else 50
BOARDS = 1000
rng = random.Random(1)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from watch_games import PROBE_TOUR as RT, cpu_seconds, game_text, real_games  # noqa: E402

games = real_games(SHARED, BOARDS)[:BOARDS - 10]
PROBES = 10
progress = [rng.randrange(1, len(m)) for _, m in games]
probe_done_at = [5 + 5 * i for i in range(PROBES)]  # the write (second) at which probe i completes


def feed(second):
    parts = [game_text(i + 1, t, m, progress[i]) for i, (t, m) in enumerate(games)]
    for p in range(PROBES):
        n = max(0, min(len(RT), len(RT) - (probe_done_at[p] - second)))
        parts.append(game_text(9000 + p, {"White": "Probe", "Black": str(p)}, RT, n))
    return "".join(parts)


tmp = tempfile.mkdtemp()
path = os.path.join(tmp, "hall.pgn")


def write(second):
    with open(path + ".tmp", "w") as f:
        f.write(feed(second))
    os.replace(path + ".tmp", path)
    return time.monotonic()


write(0)
proc = subprocess.Popen([ARBITER, "watch", "--interval-ms", str(INTERVAL), path], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, text=True)
seen = {}


def reader():
    for line in proc.stdout:
        a = json.loads(line)
        if a["type"] == "game_over" and a["board"].startswith("1.90"):
            seen[int(a["board"][2:]) - 9000] = time.monotonic()


threading.Thread(target=reader, daemon=True).start()
time.sleep(2)  # the first read: every board analysed from scratch


def cpu():
    return cpu_seconds(proc.pid)


written = {}
c0, t0 = cpu(), time.monotonic()
for second in range(1, SECONDS + 1):
    time.sleep(rng.uniform(0, 0.9))  # the writes at no fixed phase of the watch's reads
    for i in rng.sample(range(len(games)), min(MOVES, len(games))):
        progress[i] = min(progress[i] + 1, len(games[i][1]))
    at = write(second)
    for p in range(PROBES):
        if probe_done_at[p] == second:
            written[p] = at
    time.sleep(max(0.0, t0 + second + 0.95 - time.monotonic()))
c1, t1 = cpu(), time.monotonic()
time.sleep(INTERVAL / 1000 + 0.5)
status = open("/proc/%d/status" % proc.pid).read()
hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) // 1024
proc.terminate()
proc.wait()
lat = sorted((seen[p] - written[p]) * 1000 for p in written if p in seen)
print("boards %d, file %d KB, %d s, read every %d ms, %d moves a second, load average %.1f %.1f %.1f"
      % ((len(games) + PROBES, os.path.getsize(path) // 1024, SECONDS, INTERVAL, MOVES) + os.getloadavg()))
print("cpu %.1f %% of one core" % (100 * (c1 - c0) / (t1 - t0)))
print("peak rss %d MB" % hwm)
if lat:
    print("alert latency over %d probes: median %.0f ms, max %.0f ms (missing: %d)"
          % (len(lat), lat[len(lat) // 2], lat[-1], len(written) - len(lat)))
else:
    print("alert latency: no probe alert seen")
