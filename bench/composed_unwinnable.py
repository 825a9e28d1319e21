#!/usr/bin/env python3
"""Composed unwinnability questions of the two hard kinds of issue 35, generated (not collected).

  bench/composed_unwinnable.py KIND [--seed S] [--count N]     (KIND: boxed or walls)

Prints `FEN side` lines (four FEN fields; the side asked). Both kinds are generated from a seed,
so a run is repeatable; some positions are illegal (a king left in check): `make
bench-unwinnable` drops the lines `arbiter dead --batch --fast` refuses before it asks both
programs.

- boxed: kings boxed in by their own pawns above a wall (one of six tops, among them the issue's
  example), with bishops that can only shuffle: one to seven pieces below the wall, mostly
  bishops of either colour on squares of either colour, sometimes a knight, rook or queen; the
  board turned at random; both sides asked.
- walls: a wall of pawns blocked head-on across the board on ranks 4 and 5, with bishops in its
  gaps and on both sides of it (each side's bishops on squares of one colour, its own), now and
  then a pawn that may break the wall (a black pawn on rank 4 against two white pawns, as g4
  against g3 and g2 in the issue's example); the kings on either side; both sides asked.
"""
import argparse
import random

TOPS = [
    "BbK1kb2/b1p1p1p1/1pP1P1P1/1P6",
    "1bK1kb2/b1p1p1p1/1pP1P1P1/1P6",
    "BbK1k3/b1p1p1p1/1pP1P1P1/1P6",
    "1bK1k3/b1p1p1p1/1pP1P1P1/1P6",
    "kb3bK1/pb1p1ppB/P2P1PP1/8",
    "1bk1Kb2/b1P1P1P1/1Pp1p1p1/1p6",
]


def parse(rows):
    board = {}
    for i, row in enumerate(rows.split("/")):
        rank, file = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, rank)] = ch
                file += 1
    return board


def placement(board):
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.get((file, rank))
            if piece:
                row += (str(empty) if empty else "") + piece
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def turned(rng, board):
    if rng.random() < 0.5:
        board = {(f, 7 - r): p.swapcase() for (f, r), p in board.items()}
    if rng.random() < 0.5:
        board = {(7 - f, r): p for (f, r), p in board.items()}
    return board


def boxed(rng):
    board = parse(rng.choice(TOPS) + "/8/8/8/8")
    for _ in range(rng.randint(1, 7)):
        sq = (rng.randrange(8), rng.randrange(4))
        if sq not in board:
            board[sq] = rng.choice("BbBbBbNnRrQq" if rng.random() < 0.3 else "Bb")
    return turned(rng, board)


def walls(rng):
    # Each side's bishops keep to squares of one colour (its own choice), as in the issue's
    # example, where the mates need long manoeuvres.
    colour = {"B": rng.randrange(2), "b": rng.randrange(2)}

    def bishop_fits(piece, sq):
        return (sq[0] + sq[1]) % 2 == colour[piece]

    board = {}
    for f in range(8):
        x = rng.random()
        if x < 0.55:
            board[(f, 3)], board[(f, 4)] = "P", "p"
        elif x < 0.65:  # a pawn that may break the wall: a black pawn against two white ones
            board[(f, 3)], board[(f, 2)], board[(f, 1)] = "p", "P", "P"
        elif x < 0.95:
            sq = (f, rng.choice([3, 4]))
            piece = rng.choice("Bb")
            if bishop_fits(piece, sq):
                board[sq] = piece
    free_low = [(f, r) for f in range(8) for r in range(3) if (f, r) not in board]
    free_high = [(f, r) for f in range(8) for r in range(5, 8) if (f, r) not in board]
    board[rng.choice(free_low)] = "K"
    board[rng.choice([s for s in free_high if s not in board])] = "k"
    for _ in range(rng.randint(2, 6)):
        sq = rng.choice(free_low + free_high)
        piece = rng.choice("Bb")
        if sq not in board and bishop_fits(piece, sq):
            board[sq] = piece
    return turned(rng, board)


def generate(kind, seed=35, count=2000):
    """[(fen of four fields, side asked)]: `count` positions, each asked for both sides."""
    rng = random.Random(f"{kind}-{seed}")
    make = {"boxed": boxed, "walls": walls}[kind]
    out = []
    for _ in range(count):
        fen = placement(make(rng)) + " " + rng.choice("wb") + " - -"
        out += [(fen, "white"), (fen, "black")]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=["boxed", "walls"])
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--count", type=int, default=2000)
    args = ap.parse_args()
    for fen, side in generate(args.kind, args.seed, args.count):
        print(fen, side)


if __name__ == "__main__":
    main()
