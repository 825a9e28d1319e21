"""Python the way Python users work (issue 33): the version, moves as people write them,
python-chess boards and moves in and out (stand-ins of our own, and python-chess itself when it is
importable), pop/copy/pickle/equality/repr/docstrings, and python-chess's predicate names, each equal
to the field of status() it reads, over the RULES.md vectors."""

import copy
import dataclasses
import inspect
import json
import multiprocessing
import os
import pickle
import re
import sys

import pytest

import arbiter
import standins
from conftest import cli_json, run_cli
from test_bindings import RULES, START, VECTORS, rules_for

OPENING = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]


def test_version_is_the_cli_version(cli):
    rc, out, _ = run_cli(cli, "--version")
    assert rc == 0
    assert re.search(r"\d+\.\d+\.\d+", out.decode()).group(0) == arbiter.__version__


# ---- moves ----

def test_moves_as_a_string_with_numbers_comments_and_result(cli):
    want = arbiter.Game(moves=OPENING)
    for text in ["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1.e4 e5 2.Nf3 {the knight} Nc6 3.Bb5 a6 *",
                 "1. e4 1... e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"]:
        g = arbiter.Game(moves=text)
        assert g.history == want.history and g == want, text
    assert arbiter.Game(moves="1. e4 e5 2. Nf3 Nc6 3. Bb5 a6".split()) == want
    assert arbiter.Game(moves=(m for m in OPENING)) == want  # any iterable
    assert arbiter.Game(moves=[standins.Move(u) for u in want.uci_history]) == want
    assert arbiter.Game(moves=["e4", standins.Move("e7e5"), "2. Nf3 Nc6", "Bb5", "a6"]) == want
    # The same game as --moves makes of the same text.
    for text in ["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1.e4 e5 2.Nf3 {the {knight} Nc6 3.Bb5 a6 *", "e4 {open"]:
        assert arbiter.Game(moves=text).status() == cli_json(cli, "status", "--json", "--moves", text)


def test_moves_errors_name_the_item():
    with pytest.raises(TypeError, match="got int"):
        arbiter.Game(moves=5)
    with pytest.raises(TypeError, match="item 2 is a float"):
        arbiter.Game(moves=["e4", 1.5])
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Game(moves="1. e4 e5 2. Ke3")
    assert e.value.code == "illegal_move" and "move 3 'Ke3'" in str(e.value)
    with pytest.raises(TypeError, match="^move: .* got int"):  # the argument named (was "push()" before issue 47)
        arbiter.Game().push(42)
    with pytest.raises(TypeError, match="fen"):
        arbiter.Game(fen=3)
    with pytest.raises(TypeError, match="got int"):
        arbiter.Position(7)


def test_push_takes_move_objects():
    g = arbiter.Game()
    g.push(standins.Move("e2e4"))
    g.push("e5")
    assert g.history == ["e4", "e5"]


# ---- python-chess in and out ----

def test_board_standins_round_trip(monkeypatch):
    board = standins.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    for u in ["h1h2", "e8d8", "h2h1", "d8e8", "e1f1", "e8d8", "f1e1", "d8e8"]:
        board.push_uci(u)
    g = arbiter.Game.from_board(board, rules="fide-2014")
    assert g.rules == "fide-2014" and g.uci_history == [m.uci() for m in board.move_stack]
    assert g.position == arbiter.Position(board) and g.position.fen() == board.fen()
    # The history before the board's position counts: the king lost castling on ply 5.
    assert g.status()["repetition"]["count"] == 2
    assert arbiter.dead(board)["fen"] == board.fen()
    monkeypatch.setitem(sys.modules, "chess", standins.chess_module())
    back = g.to_board()
    assert back.fen() == board.fen() and [m.uci() for m in back.move_stack] == g.uci_history
    assert arbiter.Game.from_board(back, rules="fide-2014") == g
    assert arbiter.Position(g.position.to_board()) == g.position
    # A board without root(): its position, no moves.
    flat = arbiter.Game.from_board(arbiter.Position(board.fen()))
    assert flat.ply == g.ply and flat.history == []


def test_to_board_without_python_chess(monkeypatch):
    monkeypatch.setitem(sys.modules, "chess", None)
    with pytest.raises(ImportError, match="python-chess"):
        arbiter.Game(moves="e4").to_board()
    with pytest.raises(ImportError, match="python-chess"):
        arbiter.Position().to_board()


def test_python_chess_itself():
    chess = pytest.importorskip("chess")
    board = chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
        board.push_san(san)
    g = arbiter.Game.from_board(board)
    assert g.can_claim_threefold_repetition() == board.can_claim_threefold_repetition() is True
    assert g.to_board().move_stack == board.move_stack
    assert arbiter.Position(board).fen() == board.fen()
    assert arbiter.Game(moves=board.move_stack) == g
    # Castling, en passant and a promotion, in and out at every ply; the predicates python-chess
    # shares with arbiter give the same answers on mate and stalemate.
    text = "e4 d5 e5 f5 exf6 Nc6 fxg7 Bd7 gxh8=Q Qc8 Nf3 Bg4 Be2 Nf6 O-O Qd7 d3 O-O-O"
    g = arbiter.Game(moves=text)
    for k in range(g.ply + 1):
        b = arbiter.Game(moves=g.uci_history[:k]).to_board()
        pos = arbiter.Game(moves=g.history[:k]).position
        # python-chess writes an en passant square only with a legal capture; arbiter after any double step.
        assert arbiter.Position(b) == pos and b.fen(en_passant="fen") == pos.fen()
        assert arbiter.Game.from_board(b) == arbiter.Game(moves=g.uci_history[:k])
    for moves in ("f3 e5 g4 Qh4#", "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6"):
        g = arbiter.Game(moves=moves)
        b = g.to_board()
        assert (g.is_checkmate(), g.is_stalemate()) == (b.is_checkmate(), b.is_stalemate())
        assert g.outcome().result() == b.outcome().result()
        assert g.outcome() == b.outcome() and b.outcome() == g.outcome()


# ---- the object protocol ----

def test_pop_gives_the_game_without_its_last_move():
    for vid, fen, moves in VECTORS:
        for rules in rules_for(vid)[:2]:
            g = arbiter.Game(fen=fen, moves=moves, rules=rules)
            for k in range(len(moves), 0, -1):
                move = g.pop()  # a move object, as python-chess's pop() (it was the SAN before issue 47)
                want = arbiter.Game(fen=fen, moves=moves[:k - 1], rules=rules)
                assert move.uci() == arbiter.Game(fen=fen, moves=moves[:k], rules=rules).uci_history[-1]
                assert g.status() == want.status() and g.history == want.history, (vid, rules, k)
            with pytest.raises(IndexError):
                g.pop()
    g = arbiter.Game(moves="e4 e5")
    g.pop()
    g.push("c5")
    assert g.history == ["e4", "c5"]


def test_copy_deepcopy_equality():
    g = arbiter.Game(fen="7k/8/8/8/8/3R4/8/K7 w - - 0 1", moves="Rd4 Kh7 Rd3", rules="uscf",
                     fifty_extensions=["KRBvKR=75"])
    for c in (g.copy(), copy.copy(g), copy.deepcopy(g)):
        assert c == g and c is not g and c.rules == "uscf" and c.status() == g.status()
        c.push("Kh8")
        assert c != g and g.ply == 3
    assert arbiter.Game(moves="e4") != arbiter.Game(moves="e4", rules="fide-2014")
    with pytest.raises(TypeError):
        hash(g)  # a game changes; its position is the dict key
    p = g.position
    assert copy.copy(p) == p and copy.deepcopy(p) == p and p.copy().fen() == p.fen()


def test_pickle_positions_and_games():
    g = arbiter.Game(moves=OPENING, rules="fide-2009", time_category="blitz")
    for obj in (g, g.position, arbiter.Position("4k3/8/8/8/3pP3/8/8/4K3 b - e3 7 40")):
        back = pickle.loads(pickle.dumps(obj))
        assert back == obj and type(back) is type(obj)
        assert back.fen() == obj.fen()
    assert pickle.loads(pickle.dumps(g)).status() == g.status()


def _status_of(game):
    return game.status(), game.position, game


def test_pickling_through_a_multiprocessing_pool():
    games = [arbiter.Game(fen=fen, moves=moves, rules=RULES[i % len(RULES)])
             for i, (_, fen, moves) in enumerate(VECTORS)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(_status_of, games)
    for g, (status, position, back) in zip(games, results):
        assert status == g.status() and position == g.position and back == g


def test_position_identity_of_the_laws():
    # Counters differ: the same position.
    a = arbiter.Position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    b = arbiter.Position("4k3/8/8/8/8/8/8/R3K3 w Q - 37 90")
    assert a == b and hash(a) == hash(b) and a.fen() != b.fen()
    # An en passant square without a legal capture is not part of the position (9.2.3).
    c = arbiter.Position("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")
    d = arbiter.Position("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")
    assert c == d and hash(c) == hash(d)
    # With a legal capture it is; castling rights and the side to move are too.
    e = arbiter.Position("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    f = arbiter.Position("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")
    assert e != f and a != arbiter.Position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert a != arbiter.Position("4k3/8/8/8/8/8/8/R3K3 b Q - 0 1") and a != "not a position"
    # As dict keys: the positions of a game, counted, give status()'s repetition count.
    for vid, fen, moves in VECTORS:
        g = arbiter.Game(fen=fen)
        seen = {g.position: 1}
        for m in moves:
            g.push(m)
            seen[g.position] = seen.get(g.position, 0) + 1
        assert seen[g.position] == g.status()["repetition"]["count"], vid


def test_repr_shows_fen_and_ply():
    # A traceback shows the `self` of a Game whose __init__ raised: its repr must not touch C++.
    half = arbiter.Game.__new__(arbiter.Game)
    assert repr(half) == "<arbiter.Game, not made>"
    g = arbiter.Game(moves="e4 e5 Nf3")
    assert repr(g) == f"<arbiter.Game fide-2023 ply 3: '{g.position.fen()}'>"
    assert repr(g.position) == f"arbiter.Position('{g.position.fen()}')"
    assert g.fen() == g.position.fen()


def _documented(obj):
    doc = inspect.getdoc(obj) or ""
    # pybind11 puts the signature first: the text after it must say something.
    lines = [l for l in doc.splitlines() if l.strip() and not re.match(r"^\w+\(.*\) ->", l)]
    return bool(lines)


def test_every_method_has_a_docstring():
    missing = []
    for cls in (arbiter.Game, arbiter.Position):
        for name, member in inspect.getmembers(cls):
            if name.startswith("_") and name not in ("__eq__", "__hash__", "__reduce__", "__init__", "__repr__"):
                continue
            if member is None or (name == "__init__" and cls is arbiter.Game):
                continue  # Game's arguments are in the class's docstring
            if not _documented(member):
                missing.append(f"{cls.__name__}.{name}")
    for name in arbiter.__all__:
        obj = getattr(arbiter, name)
        if callable(obj) and not _documented(obj):
            missing.append(name)
    assert not missing, missing


# ---- python-chess's predicates: each the status() field it reads ----

def expected_from_status(s):
    t = (s["termination"] or {}).get("kind")
    claims = s["claims"] or {}

    def claimable(kind):
        c = claims.get(kind)
        return bool(c and (c["now"] or c["intended"]))

    return {
        "is_checkmate": t == "checkmate", "is_stalemate": t == "stalemate", "is_dead_position": t == "dead_position",
        "is_fivefold_repetition": t == "fivefold_repetition", "is_seventyfive_moves": t == "seventy_five_moves",
        "can_claim_threefold_repetition": claimable("threefold"), "can_claim_fifty_moves": claimable("fifty"),
        "can_claim_draw": claimable("threefold") or claimable("fifty"), "is_game_over": t is not None,
    }


def check_predicates(game, status):
    got = {name: getattr(game, name)() for name in expected_from_status(status)}
    assert got == expected_from_status(status)
    o = game.outcome()
    t = status["termination"]
    assert (o is None) == (t is None)
    if o:
        kind = o.termination.value if o.termination != arbiter.Termination.INSUFFICIENT_MATERIAL else "dead_position"
        assert (kind, o.result(), o.article) == (t["kind"], t["result"], t["article"])
        assert o.winner == {"1-0": True, "0-1": False}.get(t["result"])
    oc = game.outcome(claim_draw=True)
    assert (oc is not None) == (got["is_game_over"] or got["can_claim_draw"]) == game.is_game_over(claim_draw=True)
    return got


@pytest.mark.parametrize("vid,fen,moves", VECTORS, ids=[v[0] for v in VECTORS])
def test_predicates_equal_status_on_the_vectors(cli, vid, fen, moves):
    seen = set()  # the predicates true at some ply under fide-2023
    rule_sets = rules_for(vid)
    for rules in rule_sets + ([] if "fide-2023" in rule_sets else ["fide-2023"]):
        g = arbiter.Game(fen=fen, rules=rules)
        for k in range(len(moves) + 1):
            if k:
                g.push(moves[k - 1])
            got = check_predicates(g, arbiter.Game(fen=fen, moves=moves[:k], rules=rules).status())
            if rules == "fide-2023":
                seen.update(name for name, v in got.items() if v)
        if rules not in rule_sets:
            break
        # Against the CLI's own status at the end, not only the module's.
        args = (["--fen", fen] if fen else []) + (["--moves", " ".join(moves)] if moves else [])
        check_predicates(g, cli_json(cli, "status", "--json", "--rules", rules, *(args or ["--fen", START])))
    want = {"TV-5F-1": "is_fivefold_repetition", "TV-75-1a": "is_checkmate", "TV-75-1b": "is_seventyfive_moves",
            "TV-REP-1": "can_claim_threefold_repetition", "TV-50-1": "can_claim_fifty_moves",
            "TV-DEAD-1": "is_dead_position", "TV-FLAG-2": "is_checkmate"}
    if vid in want:
        assert want[vid] in seen, (vid, seen)


def test_outcome_names():
    g = arbiter.Game(moves="f3 e5 g4 Qh4#")
    T = arbiter.Termination
    assert g.is_checkmate() and g.outcome() == arbiter.Outcome(T.CHECKMATE, arbiter.BLACK, g.outcome().article)
    assert g.outcome().winner is False and g.outcome().result() == "0-1" and g.outcome().article == "5.1.1"
    s = arbiter.Game(fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert s.is_stalemate() and s.outcome().winner is None and s.outcome().result() == "1/2-1/2"
    assert s.outcome().termination is T.STALEMATE and T("stalemate") is T.STALEMATE
    r = arbiter.Game(moves=["Nf3", "Nf6", "Ng1", "Ng8"] * 2)
    assert r.outcome() is None and not r.is_game_over()
    o = r.outcome(claim_draw=True)
    assert o.termination is T.THREEFOLD_REPETITION and o.article == r.claim("threefold")["article"]
    # A dead position by material alone is python-chess's INSUFFICIENT_MATERIAL; beyond it, DEAD_POSITION.
    assert arbiter.Game(fen="8/8/8/4k3/8/8/8/KB6 w - - 0 1").outcome().termination is T.INSUFFICIENT_MATERIAL
    locked = arbiter.Game(fen="4b3/5k2/8/1p1p1p1p/1P1P1P1P/8/8/2K5 w - - 0 2")
    assert locked.outcome().termination is T.DEAD_POSITION and not locked.is_insufficient_material()
    assert {T.CHECKMATE: 1}[T.CHECKMATE] == 1 and repr(o).startswith("Outcome(termination=Termination.THREEFOLD")


def test_read_games_keeps_the_clocks(fixtures):
    games = list(arbiter.read_games(os.path.join(fixtures, "pgn", "features.pgn")))
    assert all(len(g["clk_ms"]) == len(g["san"]) for g in games)
    timed = [g for g in games if any(c is not None for c in g["clk_ms"])]
    # 1. e4 { [%clk 1:30:00] [%emt 0:00:05] } e5 {[%clk 1:29:58.5]}
    assert timed and timed[0]["clk_ms"][:2] == [5_400_000, 5_398_500]


# ---- Python's words (issue 47): arguments named, input cut short, text as text ----

def test_messages_cut_long_input_and_show_text_as_text():
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Game().push("a" * 10**7)
    assert len(str(e.value)) < 400 and "(10000000 bytes)" in str(e.value) and e.value.offset is not None
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Game().push("Кf3")
    assert "'Кf3'" in str(e.value) and "\\x" not in str(e.value)
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Game(moves="e4 " + "z" * 500)
    assert len(str(e.value)) < 400 and e.value.field == "moves" and e.value.offset == 3
    for call, field in [(lambda: arbiter.Game(fen="\ud800"), "fen"), (lambda: arbiter.Game(moves="e4 \udcff"), "moves"),
                        (lambda: arbiter.Game().push("e\ud800"), "move")]:
        with pytest.raises(arbiter.Error) as e:
            call()
        assert (e.value.code, e.value.field) == ("not_utf8", field) and "surrogate" in str(e.value)


def test_every_type_error_names_its_argument():
    K = "8/8/8/4k3/8/8/8/K6R w - - 0 1"
    for call, name in [(lambda: arbiter.dead(K, limit="3"), "limit"), (lambda: arbiter.dead(K, side=3), "side"),
                       (lambda: arbiter.dead(5), "fen"), (lambda: arbiter.Game().claim(None), "kind"),
                       (lambda: arbiter.Game().claim("threefold", 5), "intended"),
                       (lambda: arbiter.Position().perft("3"), "depth"), (lambda: arbiter.Position().perft(True), "depth"),
                       (lambda: arbiter.Game().push_san(1), "san"), (lambda: arbiter.Game().push_uci(None), "uci"),
                       (lambda: arbiter.Game().has_insufficient_material("white"), "color"),
                       (lambda: arbiter.Game(fifty_extensions="KRBvKR=75"), "fifty_extensions"),
                       (lambda: arbiter.audit(b"1. e4 *", threads="2"), "threads")]:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value).startswith(name + ":"), (name, str(e.value))


def test_ranges_are_checked_with_the_cores_codes():
    K = "8/8/8/4k3/8/8/8/K6R w - - 0 1"
    for call, field in [(lambda: arbiter.dead(K, limit=-1), "limit"), (lambda: arbiter.dead(K, limit=0), "limit"),
                        (lambda: arbiter.dead(K, limit=10**30), "limit"), (lambda: arbiter.Position().perft(-5), "depth"),
                        (lambda: arbiter.Position().perft(10**30), "depth"),
                        (lambda: arbiter.audit(b"1. e4 *", threads=0), "threads"),
                        (lambda: arbiter.audit(b"1. e4 *", threads=-1), "threads")]:
        with pytest.raises(arbiter.OptionError) as e:
            call()
        assert (e.value.code, e.value.field) == ("bad_value", field) and "--" not in str(e.value)


def test_ctrl_c_interrupts_a_long_perft():
    # perft(8) of the start runs for minutes; SIGINT a second in must end it with KeyboardInterrupt
    # long before (the deep count looks for signals between the positions two plies down).
    import signal
    import subprocess
    import time
    if os.environ.get("ARBITER_SANITIZED"):
        pytest.skip("under the sanitizers each count between two looks is tens of times slower")
    code = "import arbiter, sys\nprint('started', flush=True)\narbiter.Position().perft(8)\nprint('finished')"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.0)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
    assert "KeyboardInterrupt" in err and "finished" not in out, (out, err)
    assert waited < 10, waited  # the whole count would take minutes


def test_a_run_says_what_it_is():
    run = arbiter.audit(b"1. e4 e5 *\n\n1. d4 *\n")
    assert repr(run) == "<arbiter.Run: 0 items taken, 0 read errors collected>"
    next(run)
    assert repr(run) == "<arbiter.Run: 1 item taken, 0 read errors collected>"


def test_signatures_are_visible_to_inspect():
    # The C++ methods carry text signatures (issue 47): IDEs and help() see their parameters.
    P = arbiter.Position
    assert str(inspect.signature(P)) == "(fen=None, *, board=None)"
    assert str(inspect.signature(P.perft)) == "(self, /, depth)"
    assert str(inspect.signature(P().legal_moves)) == "(notation='san')"
    for name in ("fen", "legal_moves", "san", "uci", "push", "is_check", "turn", "perft", "copy", "to_board"):
        params = inspect.signature(getattr(P(), name)).parameters
        assert "self" not in params, name
    assert P().perft(depth=2) == 400 and P().push(move="e4").legal_moves(notation="uci")[0]
    for fn in (arbiter.dead, arbiter.audit, arbiter.read_games, arbiter.Game.push, arbiter.Game.claim):
        inspect.signature(fn)


def test_a_position_from_text_that_is_not_text():
    with pytest.raises(arbiter.FenError) as e:
        arbiter.Position("8/8/\udc80")
    assert (e.value.code, e.value.field, e.value.offset) == ("not_utf8", "fen", 4)
    assert arbiter.Position(board=arbiter.Position("8/8/8/8/8/8/8/K6k w - - 0 1")).fen().startswith("8/8")
    with pytest.raises(TypeError, match="fen or board, not both"):
        arbiter.Position("8/8/8/8/8/8/8/K6k w - - 0 1", board=arbiter.Position())


def test_ctrl_c_interrupts_a_long_dead_position_search():
    # The searches of dead() poll for signals (SearchInterrupt, python/shims.hpp): SIGINT in the
    # middle of a question that takes 1.7 million positions ends it with KeyboardInterrupt within
    # about 100 ms, not when the answer is in.
    import signal
    import threading
    import time
    if os.environ.get("ARBITER_SANITIZED"):
        pytest.skip("under the sanitizers the search is tens of times slower and the poll as rare")
    fen = "k1K5/p1p5/PbPp4/1BpP4/1pP5/1Pp5/B1P5/1B6 w - - 0 1"
    t = time.monotonic()
    whole = arbiter.dead(fen, side="black")
    took = time.monotonic() - t
    assert whole["black"] == "can_checkmate" and whole["nodes"]["black"] > 1_000_000
    if took < 0.3:
        pytest.skip(f"the whole question took {took:.2f} s here: too quick to interrupt in the middle")
    sent = []
    timer = threading.Timer(took / 5, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            arbiter.dead(fen, side="black")
        waited = time.monotonic() - sent[0]
    finally:
        timer.cancel()
    assert waited < min(0.25, took / 2), (waited, took)
    # The next question is answered in full: nothing of the interrupt is left behind.
    assert arbiter.dead(fen, side="black") == whole


# ---- the rule options, named once in the face core's table (issue 61) ----

TABLE = arbiter._arbiter.RULE_OPTIONS


def test_game_and_audit_take_the_tables_rule_options():
    names = [o["name"] for o in TABLE]
    params = inspect.signature(arbiter.Game).parameters.values()
    assert [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD] == ["fen", "moves", "rules"]
    assert ["rules"] + [p.name for p in params if p.kind is p.KEYWORD_ONLY] == names
    assert set(names) <= {f.name for f in dataclasses.fields(arbiter.AuditOptions)}
    assert set(arbiter.types.RuleOptions.__annotations__) == set(names) - {"rules"}
    with pytest.raises(TypeError, match="unknown option 'intended_mate_claim_correct'"):
        arbiter.Game(intended_mate_claim_correct=False)
    with pytest.raises(TypeError):  # keyword-only after rules
        arbiter.Game(None, None, "fide-2023", "blitz")


def _other_value(o):
    return {"choice": lambda: o["values"].split()[1], "boolean": lambda: False, "list": lambda: ["KRBvKR=75"],
            "flag": lambda: True}[o["kind"]]()


@pytest.mark.parametrize("o", [o for o in TABLE if o["name"] != "rules"], ids=lambda o: o["name"])
def test_each_rule_option_is_kept_and_reaches_the_core(o):
    value = _other_value(o)
    g = arbiter.Game(rules="fide-online", **{o["name"]: value})
    plain = arbiter.Game(rules="fide-online")
    assert g != plain and g.copy() == g and pickle.loads(pickle.dumps(g)) == g and g.root() != plain
    # A value the core refuses is refused by the core, naming the option.
    if o["kind"] in ("choice", "list"):
        with pytest.raises(arbiter.OptionError) as e:
            arbiter.Game(**{o["name"]: ["nonsense"] if o["kind"] == "list" else "nonsense"})
        assert e.value.field == o["name"]
    # The same option through the audit's options and the distributed audit's command line.
    audit = arbiter.AuditOptions.of("fide-online", **{o["name"]: value})
    assert getattr(audit, o["name"]) == (tuple(value) if isinstance(value, list) else value)
    from arbiter import _dist_args
    flag = [o["flag"]] if o["kind"] == "flag" else [o["flag"], str(value).lower() if o["kind"] == "boolean"
                                                     else value[0] if o["kind"] == "list" else value]
    if o["group"] == "rule":
        args = _dist_args.parse(["audit", "x.pgn", "--scheduler", "local", "--rules", "fide-online"] + flag)
        assert _dist_args.audit_options(args) == audit


# ---- request(): every operation of the core's registry, no JSON text in between ----

def test_request_answers_every_operation_as_the_cli_does(cli):
    assert arbiter.OPERATIONS == ("status", "claim", "dead", "moves", "play", "perft")
    krk = "8/8/8/4k3/8/8/8/K6R w - - 0 1"
    assert arbiter.request("perft", depth=2, fen=krk) == cli_json(cli, "perft", "--json", "2", "--fen", krk)
    assert arbiter.request("moves", {"fen": krk}) == cli_json(cli, "moves", "--json", "--fen", krk)
    assert arbiter.request("claim", {"moves": "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"}, kind="threefold") == \
        cli_json(cli, "claim", "threefold", "--json", "--moves", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8")
    assert arbiter.request("dead", fen=krk, fast=True)["proof"] == {"white": "none", "black": "material"}
    assert arbiter.request("play", fen=krk, move="Rh5+")["san"] == "Rh5+"
    with pytest.raises(arbiter.Error) as e:
        arbiter.request("statu")
    assert e.value.code == "not_found"
    with pytest.raises(arbiter.Error) as e:
        arbiter.request("status", bogus=1)
    assert (e.value.code, e.value.field) == ("bad_field", "bogus")
    with pytest.raises(TypeError, match="^request: a set is not a JSON value"):
        arbiter.request("status", fen={1})
    with pytest.raises(TypeError, match="^request: expected a dict"):
        arbiter.request("status", "fen")


def test_the_operations_options_are_the_tables():
    # The keyword arguments of dead(), Position.perft and Position.legal_moves are the face core's
    # table of operation options (option_table.hpp), with its defaults; a bad value is refused
    # with the table's words.
    table = {o["name"]: o for o in arbiter._arbiter.REQUEST_OPTIONS}
    dead = inspect.signature(arbiter.dead).parameters
    for name, o in table.items():
        if "dead" in o["operations"].split():
            assert name in dead, name
            default = dead[name].default
            if o["kind"] == "flag":
                assert default is False and o["default"] == "false", name
            elif o["kind"] == "choice":
                assert default == o["default"], name
            else:  # the core's default, given as None
                assert default is None, name
    assert "depth" in inspect.signature(arbiter.Position.perft).parameters
    assert inspect.signature(arbiter.Position().legal_moves).parameters["notation"].default == table["notation"]["default"]
    for notation in table["notation"]["choices"]:
        assert arbiter.Position().legal_moves(notation)
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.Position().legal_moves("lan")
    assert e.value.code == "bad_value" and e.value.field == "notation"
    assert str(e.value).startswith("notation: expected san or uci, found 'lan'")
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.dead("8/8/8/4k3/8/8/8/K6R w - - 0 1", limit=2**70)
    assert str(e.value).startswith(f"limit: {2**70} is out of range: {table['limit']['min']} to {table['limit']['max']}")


def test_the_command_line_registers_each_operations_option(cli):
    # Each operation option with a flag is on the command of each operation that reads it, with
    # its choices or range (the CLI registers them from the same table: cli/game_options.cpp).
    import subprocess
    commands = {"dead", "moves", "perft"}
    for o in arbiter._arbiter.REQUEST_OPTIONS:
        for op in set(o["operations"].split()) & commands:
            text = subprocess.run([cli, op, "--help"], capture_output=True, text=True, check=True).stdout
            if o["flag"]:  # "--side", or a positional argument's name ("depth")
                assert o["flag"] in text, (op, o["flag"])
            if o["kind"] == "choice":
                assert "{" + ",".join(o["choices"]) + "}" in text, (op, o["name"])
            if o["kind"] == "number":
                assert f"{o['min']}" in text and f"{o['max']}" in text, (op, o["name"])
