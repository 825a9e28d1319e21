"""Issue 33 on the shared corpora (label corpus; skipped without ../shared/data): python-chess's
predicates equal to the status() fields at sampled plies of the real games, and audit_frame equal
to `arbiter audit --format csv` on real files."""

import glob
import os
import random

import pytest

import arbiter
from test_frame import compare_with_cli
from test_pythonic import check_predicates


def real_games(shared):
    files = sorted(glob.glob(os.path.join(shared, "pgn", "real", "*.pgn")))
    if not files:
        pytest.skip("no real corpus under " + shared)
    return files


def test_predicates_equal_status_at_sampled_plies(shared):
    rng = random.Random(33)
    checked, true = 0, {}
    for g in arbiter.read_games(real_games(shared)):
        if not g["fen"] or rng.random() > 0.25:
            continue
        game = arbiter.Game(fen=g["fen"])
        n = len(g["uci"])  # the last ply and two others
        plies = sorted(set(rng.sample(range(n + 1), min(2, n + 1))) | {n})
        for k, move in enumerate(g["uci"] + [None]):
            if k in plies:
                got = check_predicates(game, arbiter.Game(fen=g["fen"], moves=g["uci"][:k]).status())
                for name, v in got.items():
                    true[name] = true.get(name, 0) + bool(v)
                checked += 1
            if move is None or k >= plies[-1]:
                break
            try:
                game.push(move)
            except arbiter.MoveError as e:  # played on past an automatic ending
                assert e.code == "game_over"
                break
    assert checked > 1000
    # The sample meets the questions with both answers.
    assert true.get("is_checkmate") and true.get("can_claim_draw") and true.get("is_game_over")


def test_frame_equals_the_cli_csv_on_real_files(cli, shared):
    pytest.importorskip("pandas")
    frame = compare_with_cli(cli, real_games(shared)[:2])
    assert frame["game"].is_monotonic_increasing and len(frame) > 0
