"""arbiter beside the real python-chess (issue 47): the peer in ../shared/peers/python-chess is put
on PYTHONPATH by ctest (python.python_chess); every test skips when it cannot be imported.

Boards in and out, moves as chess.Move, Outcome and Termination equal to python-chess's own, and
real games played in both with every predicate they share compared ply by ply."""

import io
import os

import pytest

import arbiter

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

DATA = os.environ.get("ARBITER_SHARED_DATA", "")


def test_the_peer_is_python_chess_not_a_stand_in():
    assert chess.__version__.startswith("1.") and hasattr(chess, "Termination")


def test_termination_equals_python_chess_members_both_ways():
    for member in chess.Termination:
        ours = arbiter.Termination[member.name]
        assert ours == member and member == ours and hash(ours) == hash(member)
        assert {member: 1}[ours] == 1 and ours in {member}
    assert arbiter.Termination.DEAD_POSITION not in set(chess.Termination)
    assert arbiter.Termination.CHECKMATE != chess.Termination.STALEMATE


@pytest.mark.parametrize("moves,fen", [
    ("f3 e5 g4 Qh4#", None),                                       # checkmate, Black wins
    ("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#", None),                         # checkmate, White wins
    ("", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),                        # stalemate
    ("Kxb1", "8/8/8/4k3/8/8/8/Kn6 w - - 0 1"),                     # insufficient material
    (["Nf3", "Nf6", "Ng1", "Ng8"] * 4, None),                      # fivefold repetition
    ("", "7k/8/8/8/8/8/8/KR6 w - - 150 100"),                      # seventy-five moves
])
def test_outcome_equals_python_chess_outcome(moves, fen):
    board = chess.Board(fen) if fen else chess.Board()
    for m in (moves.split() if isinstance(moves, str) else moves):
        board.push_san(m)
    game = arbiter.Game.from_board(board)
    ours, theirs = game.outcome(), board.outcome()
    assert theirs is not None and ours == theirs and theirs == ours
    assert ours.winner is theirs.winner and ours.result() == theirs.result()
    assert ours.termination == theirs.termination and ours.article  # the Laws' article besides
    assert game.is_game_over() == board.is_game_over() is True


def test_the_laws_where_python_chess_differs():
    # A dead position beyond material (a locked wall): python-chess plays on, the Laws end it.
    board = chess.Board("4b3/5k2/8/1p1p1p1p/1P1P1P1P/8/8/2K5 w - - 0 2")
    game = arbiter.Game.from_board(board)
    assert board.outcome() is None
    assert game.outcome().termination == arbiter.Termination.DEAD_POSITION and game.outcome().winner is None


def test_moves_are_python_chess_moves():
    g = arbiter.Game()
    assert g.push_san("e4") == chess.Move.from_uci("e2e4") and isinstance(g.peek(), chess.Move)
    g.push(chess.Move.from_uci("e7e5"))
    assert g.push_uci("g1f3") == chess.Move.from_uci("g1f3")
    assert g.move_stack == [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")]
    assert set(g.legal_moves) == set(chess.Board(g.fen()).legal_moves)
    assert g.legal_moves.count() == chess.Board(g.fen()).legal_moves.count()
    assert chess.Move.from_uci("b8c6") in g.legal_moves and "b8c6" in g.legal_moves
    assert g.pop() == chess.Move.from_uci("g1f3") and g.ply == 2
    assert arbiter.Move.from_uci("e7e8q") == chess.Move.from_uci("e7e8q") == arbiter.Move.from_uci("e7e8q")
    with pytest.raises(arbiter.MoveError) as e:
        g.push(chess.Move.null())
    assert e.value.code == "bad_move" and "null move" in str(e.value)


def test_boards_in_and_out():
    board = chess.Board()
    for san in "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6".split():
        board.push_san(san)
    game = arbiter.Game.from_board(board)
    assert game.to_board() == board and game.to_board().move_stack == board.move_stack
    assert game.turn == board.turn and game.is_check() == board.is_check()


def test_variant_boards_are_refused():
    import chess.variant
    for board in (chess.Board(chess960=True), chess.variant.AntichessBoard(), chess.variant.AtomicBoard()):
        with pytest.raises(arbiter.Error) as e:
            arbiter.Game.from_board(board)
        assert e.value.code == "bad_value" and e.value.field == "board" and "standard chess" in str(e.value)


def test_game_from_python_chess_pgn_and_text():
    text = '[Event "x"]\n[White "A"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n'
    pgn_game = chess.pgn.read_game(io.StringIO(text))
    a = arbiter.Game.from_pgn(pgn_game)
    b = arbiter.Game.from_pgn(text)
    assert a == b and a.move_stack == list(pgn_game.mainline_moves())
    assert [g["san"] for g in arbiter.read_games(io.StringIO(text))] == [g["san"] for g in arbiter.read_games(text=text)]


def predicates(game, board):
    """Every predicate the two share, asked of each."""
    names = ["is_check", "is_checkmate", "is_stalemate", "is_insufficient_material", "is_fivefold_repetition",
             "is_seventyfive_moves", "is_fifty_moves", "can_claim_threefold_repetition", "can_claim_fifty_moves",
             "can_claim_draw"]
    ours = {n: getattr(game, n)() for n in names}
    theirs = {n: getattr(board, n)() for n in names}
    for color in (chess.WHITE, chess.BLACK):
        ours[f"insufficient {color}"] = game.has_insufficient_material(color)
        theirs[f"insufficient {color}"] = board.has_insufficient_material(color)
    for n in (2, 3):
        ours[f"repetition {n}"] = game.is_repetition(n)
        theirs[f"repetition {n}"] = board.is_repetition(n)
    ours["turn"], theirs["turn"] = game.turn, board.turn
    ours["legal"], theirs["legal"] = set(game.legal_moves), set(board.legal_moves)
    return ours, theirs


def real_games(limit):
    path = os.path.join(DATA, "pgn", "real", "scoutfish_famous_games.pgn")
    if not os.path.exists(path):
        pytest.skip("../shared/data is absent")
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while len(out) < limit:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            if not g.errors and g.board().fen() == chess.STARTING_FEN:
                out.append(g)
    return out


def test_real_games_every_predicate_every_ply():
    plies = 0
    for pgn_game in real_games(40):
        board = pgn_game.board()
        game = arbiter.Game.from_board(board)
        for move in pgn_game.mainline_moves():
            board.push(move)
            game.push(move)
            plies += 1
            ours, theirs = predicates(game, board)
            assert ours == theirs, (pgn_game.headers.get("White"), board.fen(), {k for k in ours if ours[k] != theirs[k]})
            if game.is_game_over():
                break
        assert game.outcome() == board.outcome() or board.outcome() is None
    assert plies > 1000
