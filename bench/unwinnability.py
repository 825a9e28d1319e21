#!/usr/bin/env python3
"""Benchmark and check `arbiter dead` on the unwinnability corpora of ../shared/data/unwinnable.

  bench/unwinnability.py ARBITER DATASET [--quick] [--limit N] [--sample N] [--show N]
                         [--mirror colours|files|both]

DATASET is one of
  vectors  d3_test-vector.txt: 1,803 labelled positions, both sides asked (3,606 queries);
           every answer is checked against the label (unknown is not wrong, only undecided)
  lichess  d3_lichess-30K-games.txt: 30,000 real timeouts; the side asked is the intended
           winner, the side that just moved
  unfair   d3_unfair_2022-05.txt: 88,387 real timeouts where the intended winner (the side that
           just moved) cannot mate; any other answer is counted as wrong
or a path to a file in one of those formats.

It runs one `arbiter dead --batch - --timing` process over the whole input (one thread) and
prints positions per second (from the analysis times the tool reports, and from the wall
clock), mean, median and maximum time per query, the positions searched in all (which does not
depend on the machine), the answer counts and any wrong answers.

--mirror asks every question of the mirrored position instead (issue 15): `colours` reverses the
ranks and exchanges White and Black (the side asked is exchanged too), `files` exchanges files a
and h (positions with castling rights are left out), `both` does both. The answers are the same
under either mirror; the work should be too.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("ARBITER_SHARED_DATA", os.path.join(HERE, "..", "..", "shared", "data"))
FILES = {
    "vectors": "unwinnable/d3_test-vector.txt",
    "lichess": "unwinnable/d3_lichess-30K-games.txt",
    "unfair": "unwinnable/d3_unfair_2022-05.txt",
}


def load(dataset):
    """Returns [(fen, side, expected or None)], expected in {'can_checkmate', 'cannot_checkmate'}."""
    path = os.path.join(DATA, FILES[dataset]) if dataset in FILES else dataset
    queries = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line[:2] in ("WB", "W-", "-B", "--") and line[2] == " ":
                label, fen = line[:2], line[3:]
                for side, mark in (("white", label[0] == "W"), ("black", label[1] == "B")):
                    queries.append((fen, side, "can_checkmate" if mark else "cannot_checkmate"))
                continue
            fields = line.split()
            fen = " ".join(fields[:6])
            mover = "black" if fields[1] == "w" else "white"  # the side that just moved
            expected = "cannot_checkmate" if dataset == "unfair" else None
            queries.append((fen, mover, expected))
    return queries


def colour_mirror(fen):
    """The FEN with ranks reversed, colours exchanged and the other side to move."""
    f = fen.split()
    f += ["-"] * (4 - len(f))
    board = "/".join(row.swapcase() for row in reversed(f[0].split("/")))
    turn = "b" if f[1] == "w" else "w"
    castling = f[2] if f[2] == "-" else "".join(sorted(f[2].swapcase(), key=lambda c: (c.islower(), c)))
    ep = f[3] if f[3] == "-" else f[3][0] + str(9 - int(f[3][1]))
    return " ".join([board, turn, castling, ep] + f[4:])


def file_mirror(fen):
    """The FEN with files a and h exchanged, or None when a castling right is left."""
    f = fen.split()
    f += ["-"] * (4 - len(f))
    if f[2] != "-":
        return None
    rows = []
    for row in f[0].split("/"):
        squares = "".join("." * int(c) if c.isdigit() else c for c in row)[::-1]
        rows.append("".join(str(len(run)) if run[0] == "." else run
                            for run in __import__("re").findall(r"\.+|[^.]+", squares)))
    ep = f[3] if f[3] == "-" else "hgfedcba"["abcdefgh".index(f[3][0])] + f[3][1]
    return " ".join(["/".join(rows), f[1], f[2], ep] + f[4:])


def mirrored(queries, how):
    out = []
    for fen, side, expected in queries:
        if how in ("colours", "both"):
            fen, side = colour_mirror(fen), ("black" if side == "white" else "white")
        if how in ("files", "both"):
            fen = file_mirror(fen)
            if fen is None:
                continue
        out.append((fen, side, expected))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("arbiter")
    ap.add_argument("dataset")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--sample", type=int, help="every Nth query only")
    ap.add_argument("--show", type=int, default=10, help="how many wrong/unknown/slow queries to print")
    ap.add_argument("--mirror", choices=("colours", "files", "both"), help="ask of the mirrored positions")
    args = ap.parse_args()

    queries = load(args.dataset)
    if args.mirror:
        queries = mirrored(queries, args.mirror)
    if args.sample:
        queries = queries[:: args.sample]
    cmd = [args.arbiter, "dead", "--batch", "-", "--timing"]
    if args.quick:
        cmd.append("--quick")
    if args.limit:
        cmd += ["--limit", str(args.limit)]
    text = "".join(f"{fen} {side}\n" for fen, side, _ in queries)
    start = time.perf_counter()
    out = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True).stdout.splitlines()
    wall = time.perf_counter() - start

    counts, wrong, unknown, times = {}, [], [], []
    for (fen, side, expected), line in zip(queries, out):
        j = json.loads(line)
        if "error" in j:
            wrong.append((fen, side, "error: " + j["error"]))
            continue
        answer = j[side]
        micros = j["microseconds"][side]
        times.append((micros, fen, side, answer, j["nodes"][side]))
        if answer != "unknown":
            counts[answer] = counts.get(answer, 0) + 1
        if answer == "unknown":
            unknown.append((fen, side, j["nodes"][side]))
            key = f"unknown (expected {expected})" if expected else "unknown"
            counts[key] = counts.get(key, 0) + 1
        elif expected and answer != expected:
            wrong.append((fen, side, f"{answer}, expected {expected}"))

    us = [t[0] for t in times]
    n = len(us)
    mirror = f", {args.mirror} mirrored" if args.mirror else ""
    print(f"dataset {args.dataset}{mirror}: {n} queries, mode {'quick' if args.quick else 'full'}")
    nodes = [t[4] for t in times]
    if nodes:
        print(f"positions searched: {sum(nodes):,} in all, the most for one query {max(nodes):,}")
    print(f"answers: {counts}")
    print(f"wrong: {len(wrong)}   unknown: {len(unknown)}")
    if n:
        print(f"positions/s (analysis time): {n / (sum(us) / 1e6):,.0f}   (wall clock incl. I/O: {n / wall:,.0f})")
        print(f"time per query: mean {statistics.mean(us):,.1f} us, median {statistics.median(us):,.1f} us, "
              f"max {max(us) / 1000:,.2f} ms")
        over = sum(1 for u in us if u > 50_000)
        print(f"queries over 50 ms: {over}; over 1 s: {sum(1 for u in us if u > 1_000_000)}")
    for fen, side, what in wrong[: args.show]:
        print(f"  WRONG {what}: {fen} {side}")
    for fen, side, nodes in unknown[: args.show]:
        print(f"  unknown ({nodes} nodes): {fen} {side}")
    for micros, fen, side, answer, nodes in sorted(times, reverse=True)[: args.show]:
        print(f"  slow {micros / 1000:.1f} ms {answer} ({nodes} nodes): {fen} {side}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
