"""A python-chess-style loop on arbiter's drop-in (``import arbiter.compat as chess``) against
python-chess itself, in one process on the same games (issue 63, part 5; goal ≥ 3×):

    for move in moves:
        board.push(move)
        board.can_claim_threefold_repetition()
        board.is_game_over()

The games: the first GAMES of the real corpora that python-chess reads in full from the standard
start; the moves are the chess.Move objects python-chess read (both sides push the same objects).
Each side is timed in CPU time of this process, alternating, best of ROUNDS. Run with nothing else
on the machine:

    PYTHONPATH=build/python:../shared/peers/python-chess /usr/bin/python3 bench/python_chess_loop.py \\
        ../shared/data/pgn/real [GAMES] [ROUNDS]
"""

import glob
import logging
import os
import sys
import time

import chess
import chess.pgn

import arbiter
import arbiter.compat


def main():
    corpus = sys.argv[1]
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # python-chess logs each game it cannot read
    games = []
    for path in sorted(glob.glob(os.path.join(corpus, "*.pgn"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            while len(games) < wanted:
                g = chess.pgn.read_game(f)
                if g is None:
                    break
                moves = list(g.mainline_moves())
                if not g.errors and g.board().fen() == chess.STARTING_FEN and moves:
                    games.append(moves)
        if len(games) >= wanted:
            break
    plies = sum(len(m) for m in games)

    def loop(board_class):
        def run():
            for moves in games:
                board = board_class()
                for move in moves:
                    board.push(move)
                    board.can_claim_threefold_repetition()
                    board.is_game_over()
        return run

    sides = {"arbiter": loop(arbiter.compat.Board), "python-chess": loop(chess.Board)}
    best = {}
    for _ in range(rounds):
        for name, fn in sides.items():
            t = time.process_time()
            fn()
            t = time.process_time() - t
            best[name] = min(best.get(name, t), t)
    us, them = best["arbiter"] / plies * 1e6, best["python-chess"] / plies * 1e6
    print(f"arbiter {arbiter.__version__} (arbiter.compat.Board) against python-chess {chess.__version__}, "
          f"Python {sys.version.split()[0]}")
    print(f"{len(games)} games, {plies} plies, best of {rounds}: push + can_claim_threefold_repetition() + "
          f"is_game_over() per ply\n")
    print("| | arbiter.compat | python-chess | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| µs a ply | {us:.1f} | {them:.1f} | **{them / us:.1f}×** (goal ≥ 3×) |")


if __name__ == "__main__":
    main()
