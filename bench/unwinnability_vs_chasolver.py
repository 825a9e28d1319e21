#!/usr/bin/env python3
"""`make bench-unwinnable`: arbiter against chasolver 3.0 on the unwinnability corpora.

  bench/unwinnability_vs_chasolver.py ARBITER CHASBENCH [--rounds N] [--core C] [--sets a,b]

Both programs get the same questions (one a line, `FEN white|black`: the D3 vectors with both
sides asked, the Lichess timeouts with the intended winner, the side that just moved, the
composed sets `boxed`, `walls`, `chains`, `walled`, `rows` and `door` of
bench/composed_unwinnable.py, both sides asked, the locked boards `locked` and `locked-free` of
bench/locked_unwinnable.py (1,000 boards each, both sides asked; the second without the rule
that promoted pieces need pawns gone), `sample`, every 10th ply of every game of the
real PGN corpora, both sides asked, and `held`, the plies halfway between those of `sample`
(5, 15, 25, ...), which no weight of the searches was tuned on), on the
same core (taskset -c C), in the same run, alternating: arbiter full, chasolver full, arbiter fast,
chasolver fast, for N rounds. Rates are questions per second of analysis time as each program
reports it (arbiter's `--timing` microseconds, chasbench's sum of call times); the best round of
each counts. Printed per set: both full searches and both fast checks with their ratios, the
unknowns (full: no answer; fast: not proved), the unwinnable questions each fast check proves,
the worst question and the peak RSS of each process, and the median wall time of each program as
a whole (start-up, reading, FEN checks and writing included: what a user waits for; arbiter run
once more for it, as a user runs it, without --timing; chasbench always prints its times); on
the composed sets, which have no labels,
the questions the two full searches answer oppositely. ../shared is read-only: the question files
are written to a temporary directory.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("ARBITER_SHARED_DATA", os.path.join(HERE, "..", "..", "shared", "data"))
COMPOSED = ("boxed", "walls", "chains", "walled", "rows", "door")  # bench/composed_unwinnable.py
LOCKED = ("locked", "locked-free")  # bench/locked_unwinnable.py (issue 65): plausible, and not (--free)
SAMPLE_EVERY = 10  # the real sample: every 10th ply of every game of the real PGN corpora
SETS = {
    "lichess": "unwinnable/d3_lichess-30K-games.txt",
    "unfair": "unwinnable/d3_unfair_2022-05.txt",
    "vectors": "unwinnable/d3_test-vector.txt",
}


def composed(name, arbiter):
    """The generated composed set `name` (bench/composed_unwinnable.py), less the positions
    arbiter refuses (a king left in check) and repeated questions: [(fen, side, None)]."""
    sys.path.insert(0, HERE)
    if name in LOCKED:
        import locked_unwinnable

        qs = locked_unwinnable.generate(count=1000, free=name == "locked-free")
    else:
        import composed_unwinnable

        qs = composed_unwinnable.generate(name)
    text = "".join(f"{fen} {side}\n" for fen, side in qs)
    r = subprocess.run([arbiter, "dead", "--batch", "-", "--fast"], input=text, capture_output=True, text=True)
    legal = set()
    for line in r.stdout.splitlines():
        j = json.loads(line)
        if "error" not in j and j.get("fen"):
            legal.add(j["line"])
    return [(fen, side, None) for fen, side in dict.fromkeys(q for i, q in enumerate(qs, 1) if i in legal)]


def sample(arbiter, every=SAMPLE_EVERY, offset=0):
    """The real sample: every `every`-th ply (counted from `offset`) of every game of the real PGN
    corpora (pgn/real/*.pgn and the 713 engine games of pgn/repetition/sunfish_3fold.pgn), as
    arbiter's Python package reads and plays them, both sides asked: [(fen, side, None)]. With
    offset 0 it is `sample` (session 29 tuned the guided search's weights on it); with offset 5,
    `held`, which nothing was tuned on."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(arbiter)), "python"))
    import arbiter as arb

    files = sorted(os.path.join(DATA, "pgn", "real", f) for f in os.listdir(os.path.join(DATA, "pgn", "real")))
    out = []
    for path in files + [os.path.join(DATA, "pgn", "repetition", "sunfish_3fold.pgn")]:
        for g in arb.read_games(path, errors="collect"):
            if g["fen"] is None:
                continue
            p = arb.Position(g["fen"])
            for k, uci in enumerate(g["uci"], 1):
                p = p.push(uci)
                if k % every == offset % every:
                    fen = " ".join(p.fen().split()[:4])
                    out += [(fen, "white", None), (fen, "black", None)]
    return out


def questions(name, arbiter=None):
    """[(fen of four fields, side, label)]: label 'W' can mate, 'U' cannot, None unknown."""
    if name in COMPOSED or name in LOCKED:
        return composed(name, arbiter)
    if name == "sample":
        return sample(arbiter)
    if name == "held":
        return sample(arbiter, offset=SAMPLE_EVERY // 2)
    out = []
    with open(os.path.join(DATA, SETS[name])) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if name == "vectors":
                label, fen = line[:2], " ".join(line[3:].split()[:4])
                out.append((fen, "white", "W" if label[0] == "W" else "U"))
                out.append((fen, "black", "W" if label[1] == "B" else "U"))
            else:
                fields = line.split()
                mover = "black" if fields[1] == "w" else "white"
                out.append((" ".join(fields[:4]), mover, "U" if name == "unfair" else None))
    return out


def timed(cmd, core, stdout):
    """Runs cmd on one core under /usr/bin/time; returns (stderr text, peak RSS in KB, wall
    seconds of the whole process: start-up, reading, checking and writing included)."""
    full = ["/usr/bin/time", "-f", "peak_rss_kb=%M", "taskset", "-c", str(core)] + cmd
    start = time.perf_counter()
    r = subprocess.run(full, stdout=stdout, stderr=subprocess.PIPE, text=True, check=True)
    wall = time.perf_counter() - start
    rss = int(re.search(r"peak_rss_kb=(\d+)", r.stderr).group(1))
    return r.stderr, rss, wall


def run_arbiter(arbiter, path, fast, core, qs):
    out = path + (".arb-fast" if fast else ".arb-full")
    mode = ["--fast"] if fast else []
    # The whole program as a user runs it (no --timing, its output written to a file), then
    # again with --timing for the rate of the analysis alone.
    with open(out + "-plain", "w") as f:
        _, _, wall = timed([arbiter, "dead", "--batch", path] + mode, core, f)
    with open(out, "w") as f:
        _, rss, _ = timed([arbiter, "dead", "--batch", path, "--timing"] + mode, core, f)
    total, unknown, proved, wrong, worst = 0.0, 0, 0, 0, (0.0, "")
    with open(out) as f:
        for (fen, side, label), line in zip(qs, f):
            j = json.loads(line)
            us, answer = j["microseconds"][side], j[side]
            total += us
            if us > worst[0]:
                worst = (us, f"{fen} {side}")
            if answer == "unknown":
                unknown += 1
            if answer == "cannot_checkmate" and label == "U":
                proved += 1
            if (answer == "cannot_checkmate" and label == "W") or (answer == "can_checkmate" and label == "U"):
                wrong += 1
    return {"rate": len(qs) / (total / 1e6), "unknown": unknown, "proved": proved, "wrong": wrong,
            "worst_us": worst[0], "worst": worst[1], "rss": rss, "n": len(qs), "wall": wall}


def run_chasolver(chasbench, path, fast, core, qs):
    out = path + (".chas-fast" if fast else ".chas-full")
    with open(out, "w") as f:
        err, rss, wall = timed([chasbench, "fast" if fast else "full", path], core, f)
    s = re.search(r"n=(\d+) sum_call_time=([\d.]+)s .*max=([\d.]+)(us|ms|s) .*max_at=\[(.*)\]", err)
    n, secs = int(s.group(1)), float(s.group(2))
    worst_us = float(s.group(3)) * {"us": 1, "ms": 1e3, "s": 1e6}[s.group(4)]
    unknown = proved = wrong = 0
    label = {(fen, side): lab for fen, side, lab in qs}
    with open(out) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3:
                continue
            # full: W, U or N (no answer); fast: FU or F- (not proved); E: a line it cannot read
            mark, key = fields[0].removeprefix("F"), (" ".join(fields[2:6]), fields[6]) if len(fields) >= 7 else None
            lab = label.get(key)
            if mark in ("N", "-", "E"):
                unknown += 1
            if mark == "U" and lab == "U":
                proved += 1
            if (mark == "U" and lab == "W") or (mark == "W" and lab == "U"):
                wrong += 1
    return {"rate": n / secs, "unknown": unknown, "proved": proved, "wrong": wrong, "worst_us": worst_us,
            "worst": s.group(5), "rss": rss, "n": n, "wall": wall}


def disagreements(path):
    """Questions the two full searches answer oppositely (one can mate, the other cannot), from
    the last round's outputs: where no labels exist, each checks the other."""
    chas = {}
    with open(path + ".chas-full") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 7:
                chas[(" ".join(fields[2:6]), fields[6])] = fields[0]
    n = 0
    with open(path) as q, open(path + ".arb-full") as a:
        for question, line in zip(q, a):
            fields = question.split()
            side, answer = fields[-1], json.loads(line)[fields[-1]]
            mark = chas.get((" ".join(fields[:4]), side))
            n += (answer == "can_checkmate" and mark == "U") or (answer == "cannot_checkmate" and mark == "W")
    return n


def best(runs):
    return max(runs, key=lambda r: r["rate"])


def median_wall(runs):
    return statistics.median(r["wall"] for r in runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("arbiter")
    ap.add_argument("chasbench")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--core", type=int, default=1)
    ap.add_argument("--sets", default="lichess,unfair,vectors,sample,held," + ",".join(COMPOSED + LOCKED))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            qs = questions(name, args.arbiter)
            path = os.path.join(tmp, name + ".txt")
            with open(path, "w") as f:
                f.writelines(f"{fen} {side}\n" for fen, side, _ in qs)
            res = {k: [] for k in ("arb-full", "chas-full", "arb-fast", "chas-fast")}
            for _ in range(args.rounds):
                res["arb-full"].append(run_arbiter(args.arbiter, path, False, args.core, qs))
                res["chas-full"].append(run_chasolver(args.chasbench, path, False, args.core, qs))
                res["arb-fast"].append(run_arbiter(args.arbiter, path, True, args.core, qs))
                res["chas-fast"].append(run_chasolver(args.chasbench, path, True, args.core, qs))
            b = {k: best(v) for k, v in res.items()}
            unw = sum(1 for q in qs if q[2] == "U")
            print(f"== {name}: {len(qs)} questions ({unw} labelled unwinnable), core {args.core}, "
                  f"{args.rounds} rounds alternating, best round")
            print(f"{'':10} {'q/s':>10} {'unknown':>8} {'proved U':>9} {'wrong':>6} {'worst':>10} {'peak RSS':>9}  worst question")
            for k in ("arb-full", "chas-full", "arb-fast", "chas-fast"):
                r = b[k]
                print(f"{k:10} {r['rate']:>10,.0f} {r['unknown']:>8} {r['proved']:>9} {r['wrong']:>6} "
                      f"{r['worst_us'] / 1e3:>8.2f}ms {r['rss'] / 1024:>7.1f}MB  {r['worst']}")
            if unw == 0:
                print(f"full answers that differ between arbiter and chasolver: {disagreements(path)}")
            print(f"ratios: full arbiter/chasolver {b['arb-full']['rate'] / b['chas-full']['rate']:.2f}x, "
                  f"fast arbiter/chasolver {b['arb-fast']['rate'] / b['chas-fast']['rate']:.2f}x, "
                  f"arbiter fast/chasolver full {b['arb-fast']['rate'] / b['chas-full']['rate']:.1f}x")
            # As whole programs: the wall time of each process, start-up, reading the lines,
            # checking each FEN and writing each answer included (median of the rounds).
            w = {k: median_wall(v) for k, v in res.items()}
            print(f"whole programs (median wall): full arbiter {w['arb-full'] * 1e3:.0f} ms, chasolver "
                  f"{w['chas-full'] * 1e3:.0f} ms ({w['chas-full'] / w['arb-full']:.2f}x); fast arbiter "
                  f"{w['arb-fast'] * 1e3:.0f} ms, chasolver {w['chas-fast'] * 1e3:.0f} ms "
                  f"({w['chas-fast'] / w['arb-fast']:.2f}x)")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
