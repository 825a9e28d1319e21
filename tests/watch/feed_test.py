#!/usr/bin/env python3
"""The hall monitor against a simulated live feed (ctest watch.feed; watch.corpus with the shared data).

A feed simulator replays composed games (and, with SHARED_DATA, real games) move by move into a
multi-game file, a directory of files replaced by rename and a loopback HTTP endpoint, with
half-written files, BOM and CRLF, a correction, a broken game, duplicate games and a feed that
starts again from move 1, and checks that `arbiter watch` gives every expected alert once, at the
right ply, and nothing else.

Usage: feed_test.py ARBITER WORKDIR [composed|corpus SHARED_DATA]
"""
import http.server
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procs  # noqa: E402

ARBITER, WORK = sys.argv[1], sys.argv[2]
MODE = sys.argv[3] if len(sys.argv) > 3 else "composed"
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
failures = []
rng = random.Random(13)


def fail(msg):
    failures.append(msg)
    print("FAIL", msg, flush=True)


class Game:
    """A composed game: tags, a start FEN, SAN moves with optional comments, the final result."""

    def __init__(self, board, moves, result="*", fen=None, white="W", black="B", round_="1", clocks=None):
        self.board, self.moves, self.result, self.fen = board, moves.split(), result, fen
        self.white, self.black, self.round = white, black, round_
        self.clocks = clocks or {}  # move index -> "[%clk …]"
        self.first_ply = 0
        if fen:
            f = fen.split()
            self.first_ply = 2 * (int(f[5]) - 1) + (1 if f[1] == "b" else 0)

    def text(self, plies, final=False, board_tag=True):
        tags = [("Event", "Hall"), ("Round", self.round)]
        if board_tag:
            tags.append(("Board", str(self.board)))
        tags += [("White", self.white), ("Black", self.black)]
        if self.fen:
            tags += [("SetUp", "1"), ("FEN", self.fen)]
        result = self.result if final else "*"
        tags.append(("Result", result))
        out = "".join('[%s "%s"]\n' % t for t in tags) + "\n"
        body = []
        for k, m in enumerate(self.moves[:plies]):
            ply = self.first_ply + k
            if ply % 2 == 0:
                body.append("%d. %s" % (ply // 2 + 1, m))
            elif k == 0:
                body.append("%d... %s" % (ply // 2 + 1, m))
            else:
                body.append(m)
            if k in self.clocks:
                body.append("{%s}" % self.clocks[k])
        return out + " ".join(body + [result]) + "\n\n"


# The composed games and the alerts each must give: (type, kind, ply, side).
RT = "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Nb1 Nb8 Nf3 Nc6 Ng1 Nb8 Nc3 Nf6 Nb1 Ng8"
SEVENTY = "Kg8 Rd2 Kh8 Rd3 Kg8 Rd4 Kh8 Rd5 Kg8"
COMPOSED = [
    # A fivefold reached by four different knight tours; the feed goes on past it (void).
    (Game(1, RT + " e4 e5", "1/2-1/2"),
     [("claimable", "threefold", 8, "white"), ("claimable", "threefold", 12, "white"),
      ("game_over", "fivefold_repetition", 16, None)]),
    # The Result tag says a draw, the position is checkmate.
    (Game(2, "f3 e5 g4 Qh4#", "1/2-1/2"),
     [("game_over", "checkmate", 4, None), ("result_mismatch", "checkmate", 4, None)]),
    # A broken game: an illegal move in the feed.
    (Game(3, "e4 e5 Ke3", "*"), [("feed_error", "illegal_move", 3, None)]),
    # 75 moves without capture or pawn move, completed on the 150th ply without mate ...
    (Game(4, SEVENTY + " Rd6", "1/2-1/2", fen="7k/8/6K1/8/8/8/8/3R4 b - - 140 80"),
     [("approaching_seventy_five", "seventy_five_moves", 159, None), ("claimable", "fifty", 159, "black"),
      ("game_over", "seventy_five_moves", 169, None)]),
    # ... and with mate on the 150th ply: the mate stands.
    (Game(5, SEVENTY + " Rd8#", "1-0", fen="7k/8/6K1/8/8/8/8/3R4 b - - 140 80"),
     [("approaching_seventy_five", "seventy_five_moves", 159, None), ("claimable", "fifty", 159, "black"),
      ("game_over", "checkmate", 169, None)]),
    # A dead position reached by a capture; the Result tag 1-0 contradicts it.
    (Game(6, "Kxd2 Ke7 Bc4", "1-0", fen="4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1"),
     [("game_over", "dead_position", 1, None), ("result_mismatch", "dead_position", 1, None)]),
    # White's flag at zero against a bare king: drawn (6.9) ...
    (Game(7, "Qh2 Kd7 Qh3", "*", fen="4k3/8/8/8/8/8/8/4K2Q w - - 0 1",
          clocks={0: "[%clk 0:00:10]", 1: "[%clk 0:00:05]", 2: "[%clk 0:00:00]"}),
     [("flag_unwinnable", "clk", 3, "white")]),
    # ... and Black's flag at zero against a queen: lost.
    (Game(8, "Qh2 Kd7", "*", fen="4k3/8/8/8/8/8/8/4K2Q w - - 0 1",
          clocks={0: "[%clk 0:00:10]", 1: "[%clk 0:00:00]"}),
     [("flag", "clk", 2, "black")]),
    # The same placement three times, but castling rights differ: no alert.
    (Game(9, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", "*"), []),
    # The same placement three times, but en passant was possible the first time: no alert.
    (Game(10, "e4 Nc6 e5 d5 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8 Ng1 Nc6", "*"), []),
]


def key(a):
    return (a["board"], a["type"], a["kind"], a["ply"])


def expected_of(games, round_="1"):
    out = {}
    for g, alerts in games:
        for t, kind, ply, side in alerts:
            out[("%s.%d" % (round_, g.board), t, kind, ply)] = side
    return out


def parse_lines(text, where):
    alerts = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            alerts.append(json.loads(line))
        except ValueError:
            fail("%s: not JSON: %s" % (where, line[:100]))
    return alerts


def check_alerts(where, alerts, expected, withdrawn_ok=()):
    """Every expected alert exactly once (right side), nothing else; withdrawals only as allowed."""
    given = {}
    for a in alerts:
        k = key(a)
        if a["updated"]:  # an alert in force again, its detail brought up to date
            if k not in given:
                fail("%s: update of an alert not given: %s" % (where, k))
            continue
        if a["closed"]:  # the game ended: a claim (or the 75-move count) no longer calls for the arbiter
            if k not in given or a["type"] not in ("claimable", "approaching_seventy_five"):
                fail("%s: unexpected closing %s" % (where, k))
            continue
        if a["withdrawn"]:
            if k not in withdrawn_ok:
                fail("%s: unexpected withdrawal %s" % (where, k))
            continue
        given.setdefault(k, []).append(a)
    for k, side in expected.items():
        got = given.get(k, [])
        if len(got) != 1:
            fail("%s: %s given %d times, wanted once" % (where, k, len(got)))
        elif got[0]["side"] != side:
            fail("%s: %s side %s, wanted %s" % (where, k, got[0]["side"], side))
    for k in given:
        if k not in expected:
            fail("%s: unexpected alert %s: %s" % (where, k, given[k][0]["detail"]))


def watch_once(sources, state=None):
    args = [ARBITER, "watch", "--once"] + (["--state", state] if state else []) + sources
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(args[1:]), p.returncode, p.stderr.strip()))
    return parse_lines(p.stdout, "watch --once")


def write(path, text, bom=False, crlf=False):
    data = text.replace("\n", "\r\n") if crlf else text
    with open(path, "wb") as f:
        f.write((b"\xef\xbb\xbf" if bom else b"") + data.encode())


def replace(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def feed_text(games, step, board_tag=True):
    """Every game at `step` plies (its final marker once complete)."""
    return "".join(g.text(min(step, len(g.moves)), final=step > len(g.moves), board_tag=board_tag)
                   for g, _ in games)


class LiveWatch:
    """`arbiter watch` running; its alerts collected by a reader thread."""

    def __init__(self, sources, extra=()):
        self.proc = subprocess.Popen([ARBITER, "watch", "--interval-ms", "50"] + list(extra) + sources,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.alerts, self.errors = [], []
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()
        self.te = threading.Thread(target=lambda: self.errors.extend(self.proc.stderr), daemon=True)
        self.te.start()

    def _read(self):
        for line in self.proc.stdout:
            self.alerts += parse_lines(line, "watch")

    def wait_for(self, keys, seconds=20):
        end = time.time() + seconds
        while time.time() < end:
            have = {key(a) for a in self.alerts if not a["withdrawn"]}
            if all(k in have for k in keys):
                return True
            time.sleep(0.05)
        return False

    def stop(self):
        procs.stop(self.proc)
        self.t.join(timeout=5)


def composed():
    expected = expected_of(COMPOSED)
    longest = max(len(g.moves) for g, _ in COMPOSED)

    # 1. One multi-game file, rewritten in place move by move, each step first caught half-written;
    #    one `watch --once --state` per read (the state carries the boards from read to read).
    path, state = os.path.join(WORK, "round1.pgn"), os.path.join(WORK, "round1.state")
    alerts = []
    for step in range(longest + 2):
        text = feed_text(COMPOSED, step)
        cut = rng.randrange(1, len(text))
        write(path, text[:cut], bom=True, crlf=step % 2 == 1)
        alerts += watch_once([path], state)
        write(path, text, bom=True, crlf=step % 2 == 1)
        alerts += watch_once([path], state)
    check_alerts("file, move by move", alerts, expected)

    # The feed starts again from move 1 (and games appear twice): nothing new.
    again = []
    for step in range(0, longest + 2, 3):
        write(path, feed_text(COMPOSED, step) + feed_text(COMPOSED[:3], step))
        again += watch_once([path], state)
    write(path, feed_text(COMPOSED, longest + 1))
    again += watch_once([path], state)
    check_alerts("restarted feed", again, {})

    # 2. A correction: the fivefold game read up to ply 9, then move 4 of White changed.
    g = Game(1, RT, "*", round_="2")
    cpath, cstate = os.path.join(WORK, "correction.pgn"), os.path.join(WORK, "correction.state")
    write(cpath, g.text(9))
    first = watch_once([cpath], cstate)
    check_alerts("before the correction", first, {("2.1", "claimable", "threefold", 8): "white"})
    changed = Game(1, "Nf3 Nf6 Ng1 Ng8 Nc3 Nc6 Ne4 Nb8 Nc3", "*", round_="2")
    write(cpath, changed.text(9))
    second = watch_once([cpath], cstate)
    check_alerts("the correction", second, {("2.1", "correction", "moves_changed", 7): None},
                 withdrawn_ok={("2.1", "claimable", "threefold", 8)})
    if second and second[0]["withdrawn"] is not True:
        fail("the correction: the withdrawal comes first, got %s" % second[0])
    corr = [a for a in second if a["type"] == "correction"]
    if corr and corr[0]["move"] != "4.Ne4":
        fail("the correction names %s, wanted 4.Ne4" % corr[0]["move"])
    # The broken game mended by the operator: the feed error is withdrawn.
    bpath = os.path.join(WORK, "broken.pgn")
    broken = Game(1, "e4 e5 Ke3", "*", round_="3")
    write(bpath, broken.text(3))
    state3 = os.path.join(WORK, "broken.state")
    check_alerts("broken", watch_once([bpath], state3), {("3.1", "feed_error", "illegal_move", 3): None})
    write(bpath, Game(1, "e4 e5 Ke2", "*", round_="3").text(3))
    check_alerts("mended", watch_once([bpath], state3), {}, withdrawn_ok={("3.1", "feed_error", "illegal_move", 3)})

    # 3. Live: a directory of files replaced by rename (one game a file, no Board tags: the
    #    boards are Round + White + Black), and an HTTP endpoint, next to a URL that is down and
    #    one that answers too slowly.
    ddir = os.path.join(WORK, "dir")
    os.makedirs(ddir)
    body = {"text": ""}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/slow.pgn":
                time.sleep(8)  # longer than the watch's read timeout: must not hold up the others
            data = body["text"].encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    # A port nobody listens on: bind and close.
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = s.getsockname()[1]
    s.close()
    http_games = [(Game(g.board, " ".join(g.moves), g.result, g.fen, round_="5", clocks=g.clocks), a)
                  for g, a in COMPOSED]
    dir_games = [(Game(g.board, " ".join(g.moves), g.result, g.fen, round_="4", white="W%d" % g.board,
                       black="B%d" % g.board, clocks=g.clocks), a) for g, a in COMPOSED]
    live = LiveWatch(["http://127.0.0.1:%d/slow.pgn" % port, ddir, "http://127.0.0.1:%d/round5.pgn" % port,
                      "http://127.0.0.1:%d/down.pgn" % dead])
    for step in range(longest + 2):
        for gg, _ in dir_games:
            replace(os.path.join(ddir, "game%d.pgn" % gg.board),
                    gg.text(min(step, len(gg.moves)), final=step > len(gg.moves), board_tag=False))
        body["text"] = feed_text(http_games, step)
        time.sleep(0.03)
    want = expected_of(http_games, "5")
    for (board, t, kind, ply), side in expected_of(dir_games, "4").items():
        n = int(board.split(".")[1])
        want[("4 W%d - B%d" % (n, n), t, kind, ply)] = side
    if not live.wait_for(list(want)):
        fail("live: not every alert came within 20 s")
    time.sleep(0.3)
    live.stop()
    server.shutdown()
    check_alerts("live directory and HTTP", live.alerts, want)
    if not any("down.pgn" in e and "trying again" in e for e in live.errors):
        fail("live: the URL that is down was not reported: %s" % live.errors)

    # 4. A restart with --state: the second process alerts nothing already given.
    spath, sstate = os.path.join(WORK, "restart.pgn"), os.path.join(WORK, "restart.state")
    write(spath, feed_text(COMPOSED, 10))
    w1 = LiveWatch([spath], ["--state", sstate])
    if not w1.wait_for([("1.1", "claimable", "threefold", 8)], 20):
        fail("restart: the first watch gave no alert")
    time.sleep(0.3)
    w1.stop()
    write(spath, feed_text(COMPOSED, longest + 1))
    w2 = LiveWatch([spath], ["--state", sstate])
    w2.wait_for([k for k in expected], 20)
    time.sleep(0.3)
    w2.stop()
    check_alerts("restart with --state", w1.alerts + w2.alerts, expected)


def corpus(shared):
    """Real games replayed move by move: the alerts equal those of one read of the final feed,
    and agree with the audit (the first claim per side, the endings the games went past)."""
    real = os.path.join(shared, "pgn", "real")
    if not os.path.isdir(real):
        print("SKIPPED: no shared data at", real)
        return
    games = []
    for name in sorted(os.listdir(real)):
        text = open(os.path.join(real, name), encoding="utf-8", errors="replace").read()
        for chunk in re.split(r"\n\s*\n(?=\[)", text):
            tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
            body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
            body = re.sub(r"\{[^}]*\}", " ", body)
            body = re.sub(r";[^\n]*", " ", body)
            while re.search(r"\([^()]*\)", body):
                body = re.sub(r"\([^()]*\)", " ", body)
            toks = [t for t in body.split() if not re.match(r"^(\d+\.+|\$\d+|1-0|0-1|1/2-1/2|\*)$", t)]
            toks = [re.sub(r"^\d+\.+", "", t) for t in toks]
            toks = [re.sub(r"[!?]+$", "", t) for t in toks if t]
            if "FEN" in tags or not toks:
                continue
            result = tags.get("Result", "*")
            g = Game(len(games) + 1, " ".join(toks), result if result in ("1-0", "0-1", "1/2-1/2") else "*",
                     round_="9", white=tags.get("White", "?").replace('"', ""), black=tags.get("Black", "?").replace('"', ""))
            games.append((g, []))
    # The games the audit has something to say about, and the first 60 others.
    path, state = os.path.join(WORK, "real.pgn"), os.path.join(WORK, "real.state")
    write(path, feed_text(games, 10**6))
    audit = subprocess.run([ARBITER, "audit", "--quiet", "--format", "jsonl", path], capture_output=True, text=True)
    records = [json.loads(l) for l in audit.stdout.splitlines()]
    with_findings = {int(r["tags"]["Board"]) for r in records if r["findings"] and "Board" in r["tags"]}
    games = [x for x in games if x[0].board in with_findings or x[0].board <= 60]
    longest = max(len(g.moves) for g, _ in games)
    incremental = []
    step = 0
    while step <= longest + 1:
        write(path, feed_text(games, step))
        incremental += watch_once([path], state)
        step += rng.randrange(1, 12)
    write(path, feed_text(games, longest + 1))
    incremental += watch_once([path], state)
    once = watch_once([path])
    check_alerts("real games, incremental against one read", incremental,
                 {key(a): a["side"] for a in once})
    audit = subprocess.run([ARBITER, "audit", "--quiet", "--format", "jsonl", path], capture_output=True, text=True)
    have = {key(a): a for a in once}
    checked = 0
    for line in audit.stdout.splitlines():
        rec = json.loads(line)
        if "Board" not in rec["tags"]:
            continue
        board = "9.%s" % rec["tags"]["Board"]
        fifty_first = min([f["ply"] for f in rec["findings"] if f["type"] == "claimable" and f["kind"] == "fifty"],
                          default=None)
        for f in rec["findings"]:
            want = None
            if f["type"] == "claimable" and f["kind"] == "threefold":
                want = (board, "claimable", "threefold", f["ply"])
            elif f["type"] == "claimable" and f["kind"] == "fifty" and f["ply"] == fifty_first:
                want = (board, "claimable", "fifty", f["ply"])
            elif f["type"] == "missed_automatic_draw":
                want = (board, "game_over", f["kind"], f["ply"])
            elif f["type"] in ("result_contradicts_position", "timeout_unwinnable", "result_inconsistent"):
                want = (board, "result_mismatch", f["kind"], f["ply"])
            if want is None:
                continue
            checked += 1
            if want not in have:
                fail("real games: the audit finds %s %s at ply %d on board %s, the watch does not"
                     % (f["type"], f["kind"], f["ply"], board))
    print("real games: %d games, %d alerts, %d audit findings checked" % (len(games), len(once), checked))


if MODE == "corpus":
    corpus(sys.argv[4] if len(sys.argv) > 4 else "")
else:
    composed()
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
