#!/usr/bin/env python3
"""Locked boards for the unwinnability analysis (issue 65), generated from a seed.

  bench/locked_unwinnable.py [--seed S] [--count N] [--small] [--free]

Prints `FEN side` lines (four FEN fields; both sides asked for every board). The shape: pawn
walls and chains lock most of the board (pairs blocked head-on, neighbouring files at other
ranks, so that no pawn can take; now and then a file left open or a level pair, a lever);
bishops, often several of one colour, shut in on either side of the walls (behind their own
pawns or in front of the enemy's); each king in a pocket (a corner or the edge behind its
wall, sometimes closed further by pawns of its own blocked by its wall); sometimes a knight, a
rook or a queen sealed in with them. The board is turned at random (colours exchanged, files
mirrored) and either side is to move. `--small` keeps the pieces few (at most four besides
kings and pawns); `--free` drops the rule that each side's units could come from a game (no
more promoted pieces than pawns gone), as composed problems do.

`make bench-unwinnable` asks `locked` and `locked-free` (1,000 boards each, seed 65) of arbiter
and chasolver alike. The tests (tests/library/helpmate_locked_test.cpp) have a generator of the same
shape of their own, written apart in C++, and check every answer.
"""
import argparse
import os
import random
import sys

# The board's placement field, a board turned at random and the test that each side's units could
# come from a game: the composed sets' own (one writer).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from composed_unwinnable import placement, plausible, turned  # noqa: E402


def dark(sq):
    return (sq[0] + sq[1]) % 2 == 0


def wall(rng):
    """The white pawn of file f on rank r[f] (None: the file is open), the black one on r[f]+1.
    Neighbouring pairs differ by one or two ranks (no capture), but for a lever now and then."""
    r = [rng.randint(1, 4)]
    for _ in range(7):
        step = rng.choice((-1, 1, -1, 1, -1, 1, -2, 2))
        nxt = r[-1] + step
        if not 1 <= nxt <= 5:
            nxt = r[-1] - step
        if not 1 <= nxt <= 5:
            nxt = r[-1] + (1 if r[-1] < 3 else -1)
        r.append(nxt)
    if rng.random() < 0.15:  # a lever: one neighbouring pair level
        f = rng.randrange(7)
        r[f + 1] = r[f]
    board = {}
    for f in range(8):
        board[(f, r[f])], board[(f, r[f] + 1)] = "P", "p"
    opened = []
    if rng.random() < 0.2:  # an open file (its pawns promoted, say)
        f = rng.randrange(8)
        del board[(f, r[f])], board[(f, r[f] + 1)]
        opened.append(f)
    return board, r, opened


def side_squares(board, r, white):
    return [(f, k) for f in range(8) for k in range(8)
            if (f, k) not in board and (k < r[f] if white else k > r[f] + 1)]


def pocket_king(rng, board, r, white, squares):
    """The king in a corner or on the edge of its side, sometimes shut in further by pawns of
    its own standing behind its wall pawns (they cannot move while the wall stands)."""
    if not squares:
        return None
    back = 0 if white else 7
    edge = [sq for sq in squares if sq[1] == back or sq[0] in (0, 7)]
    corner = [sq for sq in edge if sq[0] in (0, 7) and sq[1] == back]
    pool = corner if corner and rng.random() < 0.6 else (edge or squares)
    king = rng.choice(pool)
    board[king] = "K" if white else "k"
    if rng.random() < 0.4:  # doubled pawns behind the wall close the pocket
        pawn = "P" if white else "p"
        for f in range(max(0, king[0] - 2), min(8, king[0] + 3)):
            if f == king[0]:
                continue
            k = r[f] - 1 if white else r[f] + 2
            if 1 <= k <= 6 and (f, k) not in board and rng.random() < 0.6 and ((f, r[f]) in board):
                board[(f, k)] = pawn
    return king


def locked(rng, small=False, free=False):
    board, r, _ = wall(rng)
    low = side_squares(board, r, True)
    high = side_squares(board, r, False)
    if not low or not high:
        return None
    pocket_king(rng, board, r, True, low)
    pocket_king(rng, board, r, False, [sq for sq in high if sq not in board])
    # To make room for promoted bishops, a pair of pawns or two leaves the wall now and then.
    budget = 4 if small else 12
    for white in (True, False):
        colour = rng.randrange(2)
        count = rng.choice((2, 3, 4, 5, 6)) if not small else rng.choice((1, 2, 2, 3))
        for _ in range(count):
            if budget == 0:
                break
            own = rng.random() < 0.65
            squares = side_squares(board, r, white if own else not white)
            spots = [sq for sq in squares if sq not in board and dark(sq) == bool(colour)]
            if spots:
                board[rng.choice(spots)] = "B" if white else "b"
                budget -= 1
    if rng.random() < 0.45 and budget > 0:  # a sealed knight, rook or queen
        white = rng.random() < 0.5
        piece = rng.choice("NNRQ")
        squares = [sq for sq in side_squares(board, r, white) if sq not in board]
        if squares:
            board[rng.choice(squares)] = piece if white else piece.lower()
    while not free and not plausible(board):  # promoted pieces need pawns gone: take pairs out of the wall
        pairs = [f for f in range(8) if board.get((f, r[f])) == "P" and board.get((f, r[f] + 1)) == "p"]
        if not pairs:
            return None
        f = rng.choice(pairs)
        del board[(f, r[f])], board[(f, r[f] + 1)]
    if "K" not in board.values() or "k" not in board.values():
        return None
    return turned(rng, board)


def generate(seed=65, count=2000, small=False, free=False):
    rng = random.Random(f"locked-{seed}")
    out = []
    while len(out) < 2 * count:
        board = locked(rng, small, free)
        if board is None:
            continue
        fen = placement(board) + " " + rng.choice("wb") + " - -"
        out += [(fen, "white"), (fen, "black")]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=65)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--free", action="store_true", help="no plausibility (more promoted pieces than pawns gone)")
    args = ap.parse_args()
    for fen, side in generate(args.seed, args.count, args.small, args.free):
        print(fen, side)


if __name__ == "__main__":
    main()
