"""Issue 63, part 5: what python-chess users pass and call works on arbiter — Game(board) keeps the
move stack, audit()/from_pgn take paths, handles, text and chess.pgn.Game, python-chess moves
everywhere a move is taken, arbiter.Move hashing as chess.Move, fen(en_passant=...), the Board
names of a game, _repr_svg_; every wrong type a TypeError naming the argument (never pybind11's
message); docs/python.md's error tables provoked row by row.

Runs with or without python-chess (../shared/peers/python-chess on PYTHONPATH): the tests that
need it skip without it."""

import io
import os
import pathlib
import re

import pytest

import arbiter
import standins

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KNIGHTS = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
PGN = '[Event "x"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n'
OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]

try:
    import chess
    import chess.pgn
except ImportError:
    chess = None
needs_chess = pytest.mark.skipif(chess is None, reason="python-chess is not importable")


# ---- Game(board) keeps the board's history ----

@needs_chess
def test_game_of_a_board_keeps_its_move_stack():
    board = chess.Board()
    for san in KNIGHTS:
        board.push_san(san)
    g = arbiter.Game(board)
    assert board.can_claim_threefold_repetition() is True
    assert g.can_claim_threefold_repetition() is True == arbiter.Game.from_board(board).can_claim_threefold_repetition()
    assert g.move_stack == board.move_stack and g.start.fen() == board.root().fen() and g.fen() == board.fen()
    # More moves after the board's, and a board set up from a FEN with moves on it.
    g = arbiter.Game(board, moves=["Nf3"])
    assert g.history == KNIGHTS + ["Nf3"]
    b = chess.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    for u in ["h1h2", "e8d8", "h2h1", "d8e8", "e1f1", "e8d8", "f1e1", "d8e8"]:
        b.push_uci(u)
    assert arbiter.Game(b).is_repetition(2) == b.is_repetition(2)
    assert arbiter.Game(b).start.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"


def test_game_of_a_board_standin_and_of_a_game():
    board = standins.Board()
    for san in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        board.push_uci(san)
    assert arbiter.Game(board).can_claim_threefold_repetition()
    g = arbiter.Game(moves=KNIGHTS)
    assert arbiter.Game(g) == g and arbiter.Game(g).can_claim_threefold_repetition()
    assert arbiter.Game(g.position).history == []  # a position has no history: itself


# ---- PGN as python-chess users hold it ----

def test_from_pgn_and_audit_take_paths_handles_text_and_bytes(tmp_path):
    path = tmp_path / "g.pgn"
    path.write_text(PGN)
    want = arbiter.Game(moves=OPENING)
    for source in (str(path), path, PGN, PGN.encode(), io.StringIO(PGN), io.BytesIO(PGN.encode()),
                   open(path), open(path, "rb")):
        assert arbiter.Game.from_pgn(source) == want, source
    with open(path) as f:
        assert arbiter.Game.from_pgn(f).history == OPENING
    for source in (str(path), path, PGN, io.StringIO(PGN), open(path, "rb"), [path, PGN]):
        records = list(arbiter.audit(source))
        assert records[0]["plies"] == 6 and records[0]["tags"]["White"] == "A", source
    assert [r["game"] for r in arbiter.audit([path, str(path), PGN])] == [1, 2, 3]
    # A single line that begins with a move number is text; one that does not is a path.
    assert arbiter.Game.from_pgn("1. e4 e5 *").history == ["e4", "e5"]
    with pytest.raises(arbiter.ReadError) as e:
        arbiter.Game.from_pgn("no-such-file.pgn")
    assert e.value.code == "cannot_open" and e.value.field == "no-such-file.pgn"
    with pytest.raises(arbiter.Error) as e:
        arbiter.Game.from_pgn("[Event \"empty\"]\n")
    assert e.value.code == "bad_pgn"


def test_pgn_sources_refused_by_name():
    for call, name in ((lambda: arbiter.Game.from_pgn(3), "pgn"), (lambda: arbiter.audit(3), "source"),
                       (lambda: arbiter.audit([PGN, 3.5]), "source"), (lambda: arbiter.read_games(None, text=5), "text"),
                       (lambda: arbiter.audit_lines(object()), "source")):
        with pytest.raises(TypeError) as e:
            call()  # at the call, not at the first item
        assert str(e.value).startswith(f"{name}:"), str(e.value)
    with pytest.raises(TypeError, match=r"^source: item 2 is a float"):
        arbiter.audit([PGN, 3.5])


@needs_chess
def test_audit_and_from_pgn_take_python_chess_games():
    games = []
    text = PGN + "\n" + PGN.replace("a6", "Nf6")
    handle = io.StringIO(text)
    while (g := chess.pgn.read_game(handle)) is not None:
        games.append(g)
    assert arbiter.Game.from_pgn(games[0]).history == OPENING
    one = list(arbiter.audit(games[0]))
    assert len(one) == 1 and one[0]["plies"] == 6 and one[0]["tags"]["White"] == "A"
    assert [r["plies"] for r in arbiter.audit(games)] == [6, 6]


# ---- moves: python-chess's everywhere, hashing alike ----

@needs_chess
def test_python_chess_moves_everywhere_a_move_is_taken():
    m = chess.Move.from_uci("g1f3")
    p = arbiter.Position()
    assert p.push(m) == p.push("Nf3") and p.san(m) == "Nf3" and p.uci(m) == "g1f3"
    assert p.is_legal(m) and not p.is_legal(chess.Move.from_uci("e2e5")) and not p.is_legal(chess.Move.null())
    assert not p.gives_check(m) and not p.is_capture(m) and not p.is_zeroing(m)
    g = arbiter.Game()
    g.push(m)
    assert g.san(chess.Move.from_uci("e7e5")) == "e5" and g.is_zeroing(chess.Move.from_uci("e7e5"))
    assert g.claim("threefold", intended=chess.Move.from_uci("g8f6"))["correct"] is False
    assert g.parse_san("Nf6") == chess.Move.from_uci("g8f6") and isinstance(g.parse_san("Nf6"), chess.Move)


@needs_chess
def test_arbiter_moves_hash_as_python_chess_moves():
    for uci in ("e2e4", "e7e8q", "a7b8n", "0000"):
        ours, theirs = arbiter.Move.from_uci(uci), chess.Move.from_uci(uci)
        assert ours == theirs and theirs == ours and hash(ours) == hash(theirs)
        assert ours in {theirs} and theirs in {ours} and {ours: 1}[theirs] == 1
    assert arbiter.Move.from_uci("e2e4") not in {chess.Move.from_uci("e2e3")}
    for symbol in "PNBRQKpnbrqk":
        ours, theirs = arbiter.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert ours == theirs and theirs == ours and hash(ours) == hash(theirs) and str(ours) == str(theirs)


def test_arbiter_moves_without_python_chess():
    a = arbiter.Move.from_uci("e2e4")
    assert hash(a) == hash((12, 28, None, None)) and a in {arbiter.Move(12, 28)}
    p = arbiter.Position()
    assert p.push(a).fen() == p.push("e4").fen() and p.san(a) == "e4"


# ---- FENs as python-chess writes them ----

@needs_chess
@pytest.mark.parametrize("fen, moves", [
    (None, ["e4"]),                                               # no capture: no square by default
    (None, ["e4", "a6", "e5", "d5"]),                             # a legal capture: the square
    ("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", ["e4"]),                # pseudo-legal only: the king is pinned
    ("8/8/8/8/1k1p4/8/4P3/4K3 w - - 0 1", ["e4"]),                # legal dxe3
])
def test_fen_en_passant_as_python_chess(fen, moves):
    board = chess.Board(fen) if fen else chess.Board()
    for m in moves:
        board.push_san(m)
    g = arbiter.Game(board)
    for mode in ("legal", "fen", "xfen"):
        assert g.fen(en_passant=mode) == board.fen(en_passant=mode), mode
        assert g.epd(en_passant=mode) == board.epd(en_passant=mode), mode
    assert g.fen() == board.fen() and g.epd() == board.epd() and g.board_fen() == board.board_fen()
    assert g.position.fen() == board.fen(en_passant="fen")  # the FEN standard: the CLI's
    with pytest.raises(arbiter.OptionError) as e:
        g.fen(en_passant="always")
    assert (e.value.code, e.value.field) == ("bad_value", "en_passant")


# ---- python-chess's Board names on a game ----

@needs_chess
def test_board_names_agree_with_python_chess():
    board = chess.Board()
    g = arbiter.Game()
    for san in "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 c6 Nf3 Bf5 Bc4 e6 O-O Nf6".split():
        for move in board.legal_moves:
            assert g.san(move) == board.san(move) and g.is_capture(move) == board.is_capture(move)
            assert g.gives_check(move) == board.gives_check(move) and g.is_zeroing(move) == board.is_zeroing(move)
            assert g.is_legal(move) and g.parse_san(board.san(move)) == move
        move = board.parse_san(san)
        board.push(move)
        g.push(move)
        assert g.ply() == board.ply() == g.ply and g.halfmove_clock == board.halfmove_clock
        assert g.fullmove_number == board.fullmove_number and g.turn == board.turn and g.is_check() == board.is_check()
        assert [g.piece_at(s) for s in chess.SQUARES] == [board.piece_at(s) for s in chess.SQUARES]
        assert g.result() == board.result() == "*" and g.root().fen() == board.root().fen()
        assert g.fen() == board.fen() and g.epd() == board.epd()
    mate = arbiter.Game(moves="f3 e5 g4 Qh4#")
    assert mate.result() == "0-1" and arbiter.Game(moves=KNIGHTS).result(claim_draw=True) == "1/2-1/2"
    assert arbiter.Game(moves=KNIGHTS).result() == "*"


def test_ply_is_an_int_and_a_method():
    g = arbiter.Game(moves="e4 e5 Nf3")
    assert g.ply == 3 and g.ply() == 3 and g.ply + 1 == 4 and f"{g.ply}" == "3" and isinstance(g.ply, int)
    assert type(g.ply()) is int and repr(g.ply) == "3" and arbiter.Position().push("e4").ply() == 1
    assert arbiter.Game(fen="4k3/8/8/8/8/8/8/4K3 b - - 0 10").ply() == 19
    with pytest.raises(arbiter.NoMoveError):  # a game that starts at ply 19 has nothing to pop
        arbiter.Game(fen="4k3/8/8/8/8/8/8/4K3 b - - 0 10").pop()


def test_piece_at_and_the_square_argument():
    p = arbiter.Position()
    assert str(p.piece_at(12)) == "P" and p.piece_at(28) is None and str(arbiter.Game().piece_at(60)) == "k"
    with pytest.raises(TypeError, match="^square: "):
        p.piece_at("e4")
    with pytest.raises(arbiter.OptionError) as e:
        p.piece_at(64)
    assert (e.value.code, e.value.field) == ("bad_value", "square")


def test_repr_svg_is_our_board():
    svg = arbiter.Game(moves="e4 e5")._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and 'fill="#9bc700"' in svg  # the last move
    assert arbiter.Position()._repr_svg_().startswith("<svg") and "&#x265A;" in arbiter.Position()._repr_svg_()
    assert svg.count('fill="#9bc700"') == 2 and 'fill="#9bc700"' not in arbiter.Game()._repr_svg_()


# ---- every wrong type: a TypeError that names the argument, never pybind11's own ----

P = arbiter.Position()


def _game():
    return arbiter.Game()


WRONG_TYPES = [
    ("fen", lambda: arbiter.Position(3.5)), ("move", lambda: P.push(3)), ("move", lambda: P.san(None)),
    ("move", lambda: P.uci(b"e2e4")), ("move", lambda: P.is_legal(4)), ("move", lambda: P.gives_check(4)),
    ("move", lambda: P.is_capture(4)), ("move", lambda: P.is_zeroing([])), ("san", lambda: P.parse_san(4)),
    ("square", lambda: P.piece_at(None)), ("notation", lambda: P.legal_moves(1)), ("en_passant", lambda: P.fen(1)),
    ("en_passant", lambda: P.epd(en_passant=1)), ("depth", lambda: P.perft("3")),
    ("fen", lambda: arbiter.Game(fen=3)), ("moves", lambda: arbiter.Game(moves=3)),
    ("rules", lambda: arbiter.Game(rules=3)), ("time_category", lambda: arbiter.Game(time_category=1)),
    ("initial_position_counts", lambda: arbiter.Game(initial_position_counts="no")),
    ("counters_from_setup", lambda: arbiter.Game(counters_from_setup=0)),
    ("fifty_extensions", lambda: arbiter.Game(fifty_extensions=[1])),
    ("fifty_extensions", lambda: arbiter.Game(fifty_extensions=3)),
    ("move", lambda: _game().push(1.5)), ("san", lambda: _game().push_san(None)), ("uci", lambda: _game().push_uci(1)),
    ("move", lambda: _game().san(1)), ("square", lambda: _game().piece_at(1.0)),
    ("kind", lambda: _game().claim(3)), ("intended", lambda: _game().claim("threefold", intended=3)),
    ("count", lambda: _game().is_repetition("3")), ("color", lambda: _game().has_insufficient_material(1)),
    ("board", lambda: arbiter.Game.from_board(3)), ("pgn", lambda: arbiter.Game.from_pgn(3)),
    ("fen", lambda: arbiter.dead(3)), ("side", lambda: arbiter.dead("8/8/8/8/8/8/8/K6k w - -", side=1)),
    ("limit", lambda: arbiter.dead("8/8/8/8/8/8/8/K6k w - -", limit="1")),
    ("source", lambda: arbiter.audit(1)), ("rules", lambda: arbiter.audit(PGN, rules=2)),
    ("threads", lambda: arbiter.audit(PGN, threads="2")), ("chunk_games", lambda: list(arbiter.audit(PGN, chunk_games="1"))),
    ("only", lambda: arbiter.audit(PGN, only=[1])), ("select", lambda: arbiter.audit(PGN, select=3)),
    ("online_claims", lambda: arbiter.AuditOptions(online_claims="yes")),
    ("time_category", lambda: arbiter.audit_lines(PGN, time_category=5)),
    ("source", lambda: arbiter.read_games(7)), ("text", lambda: arbiter.read_games(text=b"x")),
    ("data", lambda: arbiter.audit_bytes("text")), ("first_game", lambda: arbiter.audit_bytes(b"", "1")),
    ("name", lambda: arbiter.audit_bytes(b"", name=3)), ("uci", lambda: arbiter.Move.from_uci(3)),
]


@pytest.mark.parametrize("name, call", WRONG_TYPES, ids=[f"{n}-{k}" for k, (n, _) in enumerate(WRONG_TYPES)])
def test_wrong_types_name_the_argument(name, call):
    with pytest.raises(TypeError) as e:
        call()
    message = str(e.value)
    assert message.startswith(f"{name}: "), message
    assert "incompatible function arguments" not in message and "Unable to cast" not in message


# ---- docs/python.md's error tables, provoked row by row ----

DOC = os.path.join(ROOT, "docs", "python.md")

# One call per (exception, code) the table lists: what provokes it.
PROVOKE = {
    ("FenError", "bad_fen"): lambda: arbiter.Position("garbage"),
    ("FenError", "not_utf8"): lambda: arbiter.Position("8/8/\udc80"),
    ("MoveError", "bad_move"): lambda: arbiter.Position().push("Zz9"),
    ("MoveError", "illegal_move"): lambda: arbiter.Position().push("e5"),
    ("MoveError", "ambiguous_move"): lambda: arbiter.Position("4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1").push("Nd2"),
    ("MoveError", "game_over"): lambda: arbiter.Game(fen="k7/8/1K6/8/8/8/8/7R w - - 149 100", moves=["Rh8#"]).push("Kb7"),
    ("NoMoveError", "no_move"): lambda: arbiter.Game().pop(),
    ("ClaimError", "bad_value"): lambda: arbiter.Game().claim("foo"),
    ("OptionError", "unknown_rule_set"): lambda: arbiter.Game(rules="fide-1999"),
    ("OptionError", "bad_value"): lambda: arbiter.dead("8/8/8/8/8/8/8/K6k w - -", side="none"),
    ("OptionError", "bad_usage"): lambda: arbiter.Game(online_claims=True),
    ("ReadError", "cannot_open"): lambda: list(arbiter.audit("/no/such/file.pgn")),
    ("ReadError", "not_text"): lambda: list(arbiter.audit(b"PK\x03\x04" + bytes(64))),
    ("ReadError", "corrupt_zstd"): lambda: list(arbiter.audit(b"\x28\xb5\x2f\xfd" + bytes(range(200)))),
    ("ReadError", "bad_input"): lambda: list(arbiter.audit(b"\n\n")),
}


def error_rows():
    """(exception, [codes], field text) of each row of the table under "## Errors: nothing silent"."""
    text = open(DOC, encoding="utf-8").read()
    section = text[text.index("## Errors: nothing silent"):text.index("### Changed in this version")]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`") and cells[0] != "exception":
            codes = re.findall(r"`([a-z][a-z0-9_]*)`", cells[1])
            rows.append((cells[0].strip("`").split("`")[0], codes, cells[2]))
    return rows


def test_the_error_table_is_what_the_module_raises():
    rows = error_rows()
    assert len(rows) >= 6, rows
    provoked = set()
    for exc, codes, field in rows:
        for code in codes:
            # Every code a row lists must be provoked here: one that cannot be is a stale row.
            assert (exc, code) in PROVOKE, f"docs/python.md lists {exc} {code}: provoke it here or fix the row"
            with pytest.raises(getattr(arbiter, exc)) as e:
                PROVOKE[(exc, code)]()
            assert type(e.value) is getattr(arbiter, exc) and e.value.code == code, (exc, code, e.value.code)
            provoked.add((exc, code))
    assert provoked == set(PROVOKE), set(PROVOKE) - provoked  # and every code provoked here is documented


def test_the_changed_codes_table_says_what_is_raised_now():
    text = open(DOC, encoding="utf-8").read()
    section = text[text.index("### Changed in this version"):]
    rows = [l for l in section.splitlines() if l.startswith("| a claim of an unknown kind")]
    assert rows and "`bad_value`" in rows[0].split("|")[3], rows
    with pytest.raises(arbiter.ClaimError) as e:
        arbiter.Game().claim("foo")
    assert (e.value.code, e.value.field) == ("bad_value", "kind")
    rows = [l for l in section.splitlines() if l.startswith("| a FEN that does not read (`dead`)")]
    assert rows and "`bad_fen`" in rows[0].split("|")[3], rows
    with pytest.raises(arbiter.FenError) as e:
        arbiter.dead("bad")
    assert (e.value.code, e.value.field) == ("bad_fen", "fen")
    rows = [l for l in section.splitlines() if l.startswith("| `dead(side=…)`")]
    assert rows and "`bad_value`" in rows[0].split("|")[3], rows
    for options, field in (({"side": "x"}, "side"), ({"limit": 0}, "limit")):
        with pytest.raises(arbiter.OptionError) as e:
            arbiter.dead("8/8/8/8/8/8/8/K6k w - -", **options)
        assert (e.value.code, e.value.field) == ("bad_value", field)
