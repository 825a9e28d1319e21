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

# Real games as (tags, moves).
games = []
real = os.path.join(SHARED, "pgn", "real")
for name in sorted(os.listdir(real)):
    for chunk in re.split(r"\n\s*\n(?=\[)", open(os.path.join(real, name), encoding="utf-8", errors="replace").read()):
        if "FEN" in chunk:
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        while re.search(r"\([^()]*\)", body):
            body = re.sub(r"\([^()]*\)", " ", body)
        toks = [re.sub(r"[!?]+$", "", re.sub(r"^\d+\.+", "", t)) for t in body.split()
                if not re.match(r"^(\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*)$", t)]
        toks = [t for t in toks if t]
        if len(toks) > 20:
            games.append((tags, toks))
    if len(games) >= BOARDS:
        break
games = games[:BOARDS - 10]
PROBES = 10
RT = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nc6 Ng1 Nb8 Nc3 Nf6 Nb1 Ng8".split()
progress = [rng.randrange(1, len(m)) for _, m in games]
probe_done_at = [5 + 5 * i for i in range(PROBES)]  # the write (second) at which probe i completes


def game_text(board, tags, moves, n):
    body = []
    for k, m in enumerate(moves[:n]):
        body.append(("%d. " % (k // 2 + 1) if k % 2 == 0 else "") + m + " {[%%clk 1:%02d:00]}" % (k % 60))
    return ('[Event "Bench"]\n[Round "1"]\n[Board "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "*"]\n\n%s *\n\n'
            % (board, tags.get("White", "?"), tags.get("Black", "?"), " ".join(body)))


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
    f = open("/proc/%d/stat" % proc.pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


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
