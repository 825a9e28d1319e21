#!/usr/bin/env python3
"""Composed unwinnability questions of the hard kinds of issues 35 and 49, generated (not collected).

  bench/composed_unwinnable.py KIND [--seed S] [--count N]
      (KIND: boxed, walls, chains, walled, rows or door)

Prints `FEN side` lines (four FEN fields; the side asked). Every kind is generated from a seed,
so a run is repeatable; each side's units could come from a game (at most 16, at most 8 pawns,
no more extra pieces than pawns gone: see plausible()); some positions are still illegal (a king
left in check): `make bench-unwinnable` drops the lines `arbiter dead --batch --fast` refuses
before it asks both programs. The board is turned at random (colours swapped, files mirrored),
the side to move is either, and both sides are asked.

Issue 35:
- boxed: kings boxed in by their own pawns above a wall (one of six tops, among them the issue's
  example), with bishops that can only shuffle: one to seven pieces below the wall, mostly
  bishops of either colour on squares of either colour, sometimes a knight, rook or queen.
- walls: a wall of pawns blocked head-on across the board on ranks 4 and 5, with bishops in its
  gaps and on both sides of it (each side's bishops on squares of one colour, its own), now and
  then a pawn that may break the wall (a black pawn on rank 4 against two white pawns, as g4
  against g3 and g2 in the issue's example); the kings on either side.

Issue 49:
- chains: a pawn chain locked across the board (neighbouring files one rank apart, so no pawn
  can take; sometimes one level pair, a lever), each king in a corner behind its own chain, one
  to three bishops a side (mostly on the colour where no enemy pawn could take them, so that
  they can never open the chain) and up to two rooks shuffling behind it.
- walled: a king in a corner walled in by its own units (pawns blocked head-on, queens, knights,
  bishops, rooks packed in a 3x2 to 4x3 box on the edge) against a lone queen or rook, the other
  king boxed in by the walled side's pieces and pawns.
- rows: rows of same-coloured bishops (promoted ones: a pawn pair is taken out of the chain for
  each, and its gap filled) in front of and behind a locked chain, the kings in opposite corners.
- door: the winner's pawns far advanced (ranks 4 to 6) and blocked, a locked chain with one door
  (a file without pawns), the loser's king on the winner's side of the chain far from the door,
  the winner's king and one or two bishops, now and then a loser's minor piece: the loser's own
  pawns, which could help mate it, stand beyond the door.
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


def plausible(board):
    """Whether each side's units could come from a game: at most 16, at most 8 pawns, and no
    more extra pieces (a third bishop, a second bishop of one colour, a second queen, ...) than
    pawns gone."""
    for side in (str.isupper, str.islower):
        units = [p.upper() for p in board.values() if side(p)]
        pawns = units.count("P")
        light = sum(1 for sq, p in board.items() if side(p) and p.upper() == "B" and not dark(sq))
        extra = (max(0, units.count("Q") - 1) + max(0, units.count("R") - 2) + max(0, units.count("N") - 2)
                 + max(0, light - 1) + max(0, units.count("B") - light - 1))
        if len(units) > 16 or pawns > 8 or extra > 8 - pawns:
            return False
    return True


def dark(sq):
    return (sq[0] + sq[1]) % 2 == 0


def chain(rng, low=1, high=5, lever=False):
    """A pawn chain locked across the board: the white pawn of file f on rank index r[f], the
    black pawn just above it, neighbouring files one rank apart (no pawn can take, and all white
    pawns stand on squares of one colour, all black pawns on the other). With `lever`, one
    neighbouring pair stands level, so one capture is possible."""
    r = [rng.randint(low, high)]
    for _ in range(7):
        step = rng.choice((-1, 1))
        if not low <= r[-1] + step <= high:
            step = -step
        r.append(r[-1] + step)
    if lever:
        f = rng.randrange(7)
        if f == 6 or abs(r[f + 2] - r[f]) == 1:
            r[f + 1] = r[f]
    board = {}
    for f, rank in enumerate(r):
        board[(f, rank)], board[(f, rank + 1)] = "P", "p"
    return board, r


def below(r, f, rank):
    return rank < r[f]


def above(r, f, rank):
    return rank > r[f] + 1


def region(board, r, white):
    return [(f, rank) for f in range(8) for rank in range(8)
            if (f, rank) not in board and (below(r, f, rank) if white else above(r, f, rank))]


def place(rng, board, squares, piece, fits=lambda sq: True):
    free = [sq for sq in squares if sq not in board and fits(sq)]
    if free:
        board[rng.choice(free)] = piece
        return True
    return False


def chains(rng):
    board, r = chain(rng, lever=rng.random() < 0.4)
    # Both kings boxed in corners behind their own chains.
    for piece, white in (("K", True), ("k", False)):
        corners = [sq for sq in ((0, 0), (7, 0)) if white] or [(0, 7), (7, 7)]
        corner = rng.choice(corners)
        if corner in board or not (below(r, *corner) if white else above(r, *corner)):
            place(rng, board, region(board, r, white), piece)
        else:
            board[corner] = piece
    for white in (True, False):
        squares = region(board, r, white)
        for _ in range(rng.randint(1, 3)):
            piece = "B" if white else "b"
            safe = rng.random() < 0.7  # mostly on the colour of no enemy pawn's capture square
            own_pawn_dark = dark((0, r[0])) if white else not dark((0, r[0]))
            place(rng, board, squares, piece, lambda sq: dark(sq) == (own_pawn_dark if safe else not own_pawn_dark))
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            place(rng, board, squares, "R" if white else "r")
    return turned(rng, board)


def walled(rng):
    """A king walled in on the edge by its own units (pawns blocked head-on, queen, knights,
    bishops, rooks packed around it), against a lone queen or rook; the other king boxed by the
    walled side's pieces."""
    board = {}
    kf, width, depth = rng.choice((0, 7)), rng.choice((3, 3, 4)), rng.choice((2, 3, 3))
    step = 1 if kf == 0 else -1
    board[(kf, 7)] = "k"
    for df in range(width):
        for dr in range(depth):
            sq = (kf + step * df, 7 - dr)
            if sq in board or rng.random() < 0.08:
                continue
            if dr > 0 and rng.random() < 0.55 and (sq[0], sq[1] - 1) not in board:
                board[sq], board[(sq[0], sq[1] - 1)] = "p", "P"
            else:
                board[sq] = rng.choice("qnnbbrn")
    free = [(f, rank) for f in range(8) for rank in range(8) if (f, rank) not in board]
    wk = rng.choice([sq for sq in free if sq[1] <= 3 and abs(sq[0] - kf) >= 3])
    board[wk] = "K"
    near = [(wk[0] + df, wk[1] + dr) for df in (-2, -1, 0, 1, 2) for dr in (-2, -1, 0, 1, 2)
            if 0 <= wk[0] + df < 8 and 0 <= wk[1] + dr < 8 and (df, dr) != (0, 0)]
    for _ in range(rng.randint(3, 6)):
        sq = rng.choice(near)
        if sq not in board:
            board[sq] = rng.choice("pbnnr" if 1 <= sq[1] <= 6 else "bnnr")
    place(rng, board, [(f, rank) for f in range(8) for rank in range(8)], rng.choice("QQR"))
    return turned(rng, board)


def rows(rng):
    """Rows of same-coloured bishops (promoted ones too) in front of and behind a locked pawn
    row with a gap or two filled by bishops, the kings far apart."""
    board, r = chain(rng, low=2, high=4)
    for f in rng.sample(range(8), rng.randint(1, 3)):  # gaps: the pawns promoted to bishops
        del board[(f, r[f])], board[(f, r[f] + 1)]
    colour = {"B": rng.randrange(2), "b": rng.randrange(2)}
    squares = []
    for f in range(8):
        squares += [(f, r[f] - 1), (f, r[f]), (f, r[f] + 1), (f, r[f] + 2)]
    if rng.random() < 0.5:
        squares += [(f, r[f] - 2) for f in range(8)] + [(f, r[f] + 3) for f in range(8)]
    rng.shuffle(squares)
    for sq in squares:
        piece = rng.choice("Bb")
        if 0 <= sq[1] < 8 and sq not in board and (sum(sq) % 2) == colour[piece]:
            board[sq] = piece
            if not plausible(board):
                del board[sq]
    ends = rng.choice((((0, 0), (7, 7)), ((7, 0), (0, 7)), ((0, 7), (7, 0)), ((7, 7), (0, 0))))
    for piece, sq in zip("Kk", ends):
        board[sq] = piece
    return turned(rng, board)


def door(rng):
    """The winner's pawns far advanced and blocked by the loser's, its bishop on the colour that
    matters, the loser's king behind the wall and one door to walk through to the only squares
    where its own pawns can help mate it."""
    board, r = chain(rng, low=rng.choice((3, 4)), high=5)
    gap = rng.randrange(8)
    del board[(gap, r[gap])], board[(gap, r[gap] + 1)]
    low = region(board, r, True)
    far = [sq for sq in low if abs(sq[0] - gap) >= 3] or low
    place(rng, board, far, "k")  # the loser's king on the winner's side of the wall, far from the door
    place(rng, board, low, "K")
    for _ in range(rng.randint(1, 2)):
        place(rng, board, low + region(board, r, False), "B", lambda sq: dark(sq) == bool(rng.randrange(2)))
    if rng.random() < 0.3:
        place(rng, board, low, rng.choice("bn"))
    return turned(rng, board)


KINDS = {"boxed": boxed, "walls": walls, "chains": chains, "walled": walled, "rows": rows, "door": door}


def generate(kind, seed=35, count=2000):
    """[(fen of four fields, side asked)]: `count` positions, each asked for both sides."""
    rng = random.Random(f"{kind}-{seed}")
    make = KINDS[kind]
    out = []
    for _ in range(count):
        board = make(rng)
        while not plausible(board):
            board = make(rng)
        fen = placement(board) + " " + rng.choice("wb") + " - -"
        out += [(fen, "white"), (fen, "black")]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--count", type=int, default=2000)
    args = ap.parse_args()
    for fen, side in generate(args.kind, args.seed, args.count):
        print(fen, side)


if __name__ == "__main__":
    main()
