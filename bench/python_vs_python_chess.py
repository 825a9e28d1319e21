"""arbiter's Python package against python-chess in one process (issue 47; docs/performance.md):

1. push + draw checks: the games of the real corpora (the first GAMES that python-chess also
   reads), each move played and the position's draw status asked after it — arbiter:
   ``Game.push(san)`` + ``Game.status()`` (every claim with the written moves that make it
   correct, fivefold, 75 moves, dead position); python-chess: ``push_san(san)`` +
   ``outcome(claim_draw=True)`` (checkmate, stalemate, insufficient material, 75 moves,
   fivefold, then whether a fifty-move or threefold claim would be correct now or with a written
   move: the same questions). The bare predicates (``is_repetition(3)``, ``is_fifty_moves()``,
   … without the written moves) are timed too, as a floor.
2. a database scan: every game of the corpus files read and replayed — arbiter: ``audit(path)``
   (every draw rule checked on every ply, the claims with their written moves); python-chess:
   ``chess.pgn.read_game``, every move of the mainline pushed and ``outcome(claim_draw=True)``
   asked after it (the same questions), and, as a floor, read and pushed with no question.

Each measurement alternates the two and keeps each side's best of ROUNDS (CPU time of this
process). Run with nothing else on the machine:

    PYTHONPATH=build/python:../shared/peers/python-chess /usr/bin/python3 bench/python_vs_python_chess.py \
        ../shared/data/pgn/real [GAMES] [ROUNDS]
"""

import glob
import os
import sys
import time

import chess
import chess.pgn

import arbiter


def cpu(fn):
    t = time.process_time()
    n = fn()
    return time.process_time() - t, n


def main():
    corpus = sys.argv[1]
    games_wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    files = sorted(glob.glob(os.path.join(corpus, "*.pgn")))

    # The games both read in full from the standard start, as SAN lists.
    games = []
    for path in files:
        for g in arbiter.read_games(path, errors="collect"):
            if g["complete"] and g["fen"] == chess.STARTING_FEN and g["uci"]:
                # SAN as both write it (the file's own may be "g1-f3" or carry annotations).
                games.append(arbiter.Game(moves=g["uci"]).history)
            if len(games) >= games_wanted:
                break
        if len(games) >= games_wanted:
            break
    plies = sum(len(g) for g in games)

    def ours():
        for san in games:
            g = arbiter.Game()
            for m in san:
                g.push(m)
                g.status()
        return plies

    def theirs():
        for san in games:
            b = chess.Board()
            for m in san:
                b.push_san(m)
                b.outcome(claim_draw=True)
        return plies

    def theirs_bare():
        for san in games:
            b = chess.Board()
            for m in san:
                b.push_san(m)
                (b.is_checkmate(), b.is_stalemate(), b.is_insufficient_material(), b.is_fivefold_repetition(),
                 b.is_seventyfive_moves(), b.is_repetition(3), b.is_fifty_moves())
        return plies

    # The scan: every corpus file.
    scan_files = files
    scan_bytes = sum(os.path.getsize(f) for f in scan_files)

    def scan_ours():
        n = 0
        for f in scan_files:
            for _ in arbiter.audit(f, errors="collect"):
                n += 1
        return n

    def scan_theirs(ask=False):
        n = 0
        for f in scan_files:
            with open(f, encoding="utf-8", errors="replace") as h:
                while True:
                    game = chess.pgn.read_game(h)
                    if game is None:
                        break
                    b = game.board()
                    for mv in game.mainline_moves():
                        b.push(mv)
                        if ask:
                            b.outcome(claim_draw=True)
                    n += 1
        return n

    best = {}
    for _ in range(rounds):
        for name, fn in (("ours", ours), ("theirs", theirs), ("theirs_bare", theirs_bare),
                         ("scan_ours", scan_ours), ("scan_theirs", scan_theirs),
                         ("scan_theirs_checked", lambda: scan_theirs(ask=True))):
            t, n = cpu(fn)
            if name not in best or t < best[name][0]:
                best[name] = (t, n)

    print(f"arbiter {arbiter.__version__} against python-chess {chess.__version__}, Python {sys.version.split()[0]}\n")
    print(f"push + draw checks: {len(games)} games, {plies} plies (best of {rounds})\n")
    print("|  | arbiter push + status() | python-chess push_san + … | ratio |")
    print("| --- | ---: | ---: | ---: |")
    us, them = best["ours"][0] / plies * 1e6, best["theirs"][0] / plies * 1e6
    bare = best["theirs_bare"][0] / plies * 1e6
    print(f"| µs a ply, python-chess outcome(claim_draw=True) | {us:.1f} | {them:.1f} | **{them / us:.1f}×** |")
    print(f"| µs a ply, python-chess bare predicates (no written moves) | {us:.1f} | {bare:.1f} | {bare / us:.1f}× |\n")
    print(f"scan: {len(scan_files)} files, {scan_bytes} bytes (best of {rounds})\n")
    print("|  | arbiter audit() | python-chess | ratio |")
    print("| --- | ---: | ---: | ---: |")
    a, b, c = best["scan_ours"], best["scan_theirs_checked"], best["scan_theirs"]
    print(f"| games | {a[1]} | {b[1]} | |")
    print(f"| seconds, python-chess read_game + push + outcome(claim_draw=True) | {a[0]:.3f} | {b[0]:.3f} | **{b[0] / a[0]:.0f}×** |")
    print(f"| seconds, python-chess read_game + push (no question) | {a[0]:.3f} | {c[0]:.3f} | {c[0] / a[0]:.0f}× |")


if __name__ == "__main__":
    main()
