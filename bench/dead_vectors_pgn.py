#!/usr/bin/env python3
"""Writes the dead positions of the unwinnability test vectors as PGN games set up at the
position and resigned (no moves, Result 1-0): the audit's dead-position check measured on them
(docs/unwinnability.md, "The audit").

    bench/dead_vectors_pgn.py ../shared/data/unwinnable/d3_test-vector.txt > dead.pgn
    arbiter audit --rules fide-2023 -q --format csv dead.pgn          # default check
    arbiter audit --rules fide-2023 -q --format csv --exact dead.pgn  # full analysis

Each distinct position labelled '--' (neither side can checkmate) is written once, with its
vector line number in the Event tag.
"""
import sys


def main(path):
    seen = set()
    out = sys.stdout
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#") or not line.startswith("-- "):
                continue
            fen = " ".join(line[3:].split()[:4])
            if fen in seen:
                continue
            seen.add(fen)
            out.write(f'[Event "dead vector, line {number}"]\n[Site "?"]\n[Date "2023.01.01"]\n[Round "-"]\n'
                      f'[White "?"]\n[Black "?"]\n[Result "1-0"]\n[SetUp "1"]\n[FEN "{fen} 0 1"]\n\n1-0\n\n')


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dead_vectors_pgn.py d3_test-vector.txt")
    main(sys.argv[1])
