"""The Python API of arbiter: every function, its errors, threads, and the same dicts as the CLI
(`status|claim|dead --json`) on the test vectors of RULES.md §7 and on the project's fixtures."""

import concurrent.futures
import io
import json
import os
import threading

import pytest

import arbiter
from conftest import cli_json, run_cli

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# RULES.md §7: (id, start FEN or None, moves), replayed ply by ply below; the same vectors as the
# JavaScript API's parity test (tests/data/rules_vectors.json).
with open(os.path.join(os.path.dirname(__file__), "..", "data", "rules_vectors.json"), encoding="utf-8") as _f:
    _DATA = json.load(_f)
VECTORS = [(v["id"], v["fen"], v["moves"]) for v in _DATA["vectors"]]
INTENDED = _DATA["intended"]
RULES = _DATA["rules"]
K = ["Nf3", "Nf6", "Ng1", "Ng8"]
#: Under the sanitizers (ARBITER_SANITIZED=1, set by the ASan build's ctest) each vector is compared
#: under two of the rule sets, taken in turn, rather than all five: every CLI call there costs seconds.
SANITIZED = os.environ.get("ARBITER_SANITIZED") == "1"


def rules_for(vid):
    if not SANITIZED:
        return RULES
    i = [v[0] for v in VECTORS].index(vid)
    return [RULES[i % len(RULES)], RULES[(i + 1) % len(RULES)]]


def position_args(fen, moves):
    args = ["--fen", fen] if fen else []
    return args + (["--moves", " ".join(moves)] if moves else [])


# ---- Position ----

def test_position_start_and_fen():
    p = arbiter.Position()
    assert p.fen() == START
    assert arbiter.Position(START) == p
    assert hash(arbiter.Position(START)) == hash(p)
    assert p.turn() == "white"
    assert "arbiter.Position" in repr(p)
    # Counters may be omitted, as on the command line.
    assert arbiter.Position("4k3/8/8/8/8/8/8/4K3 w - -").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_position_moves_push_san_uci():
    p = arbiter.Position()
    assert len(p.legal_moves()) == 20
    assert "Nf3" in p.legal_moves() and "g1f3" in p.legal_moves("uci")
    assert p.san("g1f3") == "Nf3" and p.uci("Nf3") == "g1f3"
    q = p.push("e4")
    assert p.fen() == START  # push returns a new position
    assert q.turn() == "black" and q.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
    assert q.push("e7e5").push("Qh5").push("Nc6").push("Bc4").push("Nf6").push("Qxf7#").is_check()
    assert not p.is_check()


def test_position_perft():
    assert [arbiter.Position().perft(d) for d in range(4)] == [1, 20, 400, 8902]
    kiwipete = arbiter.Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert kiwipete.perft(3) == 97862


def test_position_errors():
    with pytest.raises(arbiter.FenError) as e:
        arbiter.Position("8/8/8/8/8/8/8/K6k x - - 0 1")
    # The face core's code and field (the CLI's for --fen); the message names the FEN's field.
    assert e.value.code == "bad_fen" and e.value.field == "fen" and e.value.offset == 18
    assert "side to move" in str(e.value)
    assert isinstance(e.value, arbiter.Error) and isinstance(e.value, ValueError)
    with pytest.raises(arbiter.FenError) as e:
        arbiter.Position("8/8/8/8/8/8/8/8 w - - 0 1")
    assert e.value.code == "bad_fen" and e.value.field == "fen"
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Position().push("e5")
    assert e.value.code == "illegal_move" and e.value.field == "move"
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Position().push("Zz9")
    assert e.value.code == "bad_move" and e.value.offset is not None
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.Position().legal_moves("lan")
    assert e.value.field == "notation"
    with pytest.raises(arbiter.OptionError):
        arbiter.Position().perft(99)


def test_errors_pickle():
    import pickle
    e = arbiter.FenError("m", "bad_side", "side to move", 16)
    f = pickle.loads(pickle.dumps(e))
    assert (type(f), f.code, f.field, f.offset, str(f)) == (arbiter.FenError, "bad_side", "side to move", 16, "m")


# ---- Game ----

def test_game_push_history_ply():
    g = arbiter.Game()
    for m in ["e4", "e7e5", "Nf3"]:
        g.push(m)
    assert g.history == ["e4", "e5", "Nf3"]
    assert g.ply == 3 and g.rules == "fide-2023"
    assert g.position.fen() == arbiter.Position().push("e4").push("e5").push("Nf3").fen()
    # The game ply counts from the FEN's move number, as status --json and --ply do.
    assert arbiter.Game(fen="4k3/8/8/8/8/8/8/R3K3 b - - 0 10").ply == 19


def test_game_status_and_claims():
    g = arbiter.Game(moves=K * 2)
    s = g.status()
    assert s["repetition"] == {"count": 3, "plies": [0, 4, 8]}
    assert s["claims"]["threefold"]["now"] is True and s["termination"] is None
    c = g.claim("threefold")
    assert (c["correct"], c["article"]) == (True, "9.2.2")
    assert arbiter.Game(moves=K * 2, initial_position_counts=False).claim("threefold")["correct"] is False
    c = arbiter.Game(moves=(K * 2)[:7]).claim("threefold", intended="Ng8")
    assert (c["correct"], c["article"], c["intended"]) == (True, "9.2.1", "Ng8")
    f = arbiter.Game(fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 60").claim("fifty", "Ra2")
    assert f["correct"] is True and f["article"] == "9.3.1"
    g = arbiter.Game(moves=K * 4)
    assert g.status()["termination"]["kind"] == "fivefold_repetition"
    assert arbiter.Game(moves=K * 2, rules="fide-online").status()["termination"]["kind"] == "threefold_repetition"
    assert arbiter.Game(moves=K * 2, rules="fide-online", online_claims=True).status()["termination"] is None


def test_game_errors():
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Game(moves=["e4", "e4"])
    assert e.value.code == "illegal_move" and e.value.field == "moves" and "move 2 'e4'" in str(e.value)
    g = arbiter.Game(fen="k7/8/1K6/8/8/8/8/7R w - - 149 100", moves=["Rh8#"])
    with pytest.raises(arbiter.MoveError) as e:
        g.push("Kb7")
    assert e.value.code == "game_over" and "checkmate" in str(e.value)
    # After an automatic ending the game goes on being recorded, as with --moves; status reports the end.
    g = arbiter.Game(moves=K * 2, rules="fide-online")
    g.push("Nf3")
    assert g.ply == 9 and g.status()["termination"]["ply"] == 8
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.Game(rules="fide-1999")
    assert e.value.field == "rules" and e.value.code == "unknown_rule_set"
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.Game(time_category="bullet")
    assert e.value.field == "time_category"
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.Game(online_claims=True)
    assert e.value.field == "online_claims"
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.Game(fifty_extensions=["nonsense"])
    assert e.value.field == "fifty_extensions"
    with pytest.raises(arbiter.FenError):
        arbiter.Game(fen="garbage")
    with pytest.raises(arbiter.ClaimError) as e:
        arbiter.Game().claim("fourfold")
    assert e.value.code == "bad_value" and e.value.field == "kind"
    with pytest.raises(arbiter.MoveError) as e:
        arbiter.Game().claim("threefold", intended="Zz9")
    assert e.value.code == "bad_move" and e.value.field == "intended"
    with pytest.raises(TypeError):
        arbiter.Game(no_such_option=True)


# ---- the face core's codes: Python's Game, dead and perft refuse as the core does ----

MATED = "k7/8/1K6/8/8/8/8/7R w - - 149 100"  # Rh8# ends the game
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"  # Nd2: the knight of b1 or of f1


def raised(call):
    """(exception class, code, field) of what `call` raises."""
    with pytest.raises(arbiter.Error) as e:
        call()
    return type(e.value), e.value.code, e.value.field


def core_refusal(what, request):
    """(code, field) of the face core's refusal of a JSON request (position_answer, as the service
    and JavaScript send it)."""
    with pytest.raises(arbiter.Error) as e:
        arbiter._arbiter.request(what, json.dumps(request))
    return e.value.code, e.value.field


def cli_refusal(cli, *args):
    """(code, field) of the CLI's refusal under --json."""
    rc, out, _ = run_cli(cli, *args, "--json")
    error = json.loads(out)["error"]
    assert rc == 2
    return error["code"], error.get("field")


@pytest.mark.parametrize("fen, moves, want", [
    ("garbage", None, ("bad_fen", "fen")),
    (None, "e4 e4", ("illegal_move", "moves")),
    (TWO_KNIGHTS, "Nd2", ("ambiguous_move", "moves")),
    (None, "Zz9", ("bad_move", "moves")),
    (MATED, "Rh8# Kb7", ("game_over", "moves")),
])
def test_game_refuses_a_position_as_the_core(cli, fen, moves, want):
    """Game(fen, moves) is the core's LiveGame built as `status --fen --moves` builds its game: the
    same code and field."""
    cls, code, field = raised(lambda: arbiter.Game(fen=fen, moves=moves))
    args = (["--fen", fen] if fen else []) + (["--moves", moves] if moves else [])
    assert (code, field) == cli_refusal(cli, "status", *args) == want
    assert cls is (arbiter.FenError if code == "bad_fen" else arbiter.MoveError)


@pytest.mark.parametrize("fen, move, want", [
    (None, "e5", "illegal_move"),
    (TWO_KNIGHTS, "Nd2", "ambiguous_move"),
    (None, "Zz9", "bad_move"),
])
def test_push_refuses_a_move_as_the_core(fen, move, want):
    """Game.push and Position.push give the code and field of the core's play request."""
    request = {"move": move, **({"fen": fen} if fen else {})}
    assert core_refusal("play", request) == (want, "move")
    assert raised(lambda: arbiter.Game(fen=fen).push(move)) == (arbiter.MoveError, want, "move")
    assert raised(lambda: arbiter.Position(fen).push(move) if fen else arbiter.Position().push(move)) == \
        (arbiter.MoveError, want, "move")


def test_options_refused_as_the_core(cli):
    # An unknown rule set: as the CLI's status (the same GameInput).
    assert raised(lambda: arbiter.Game(rules="fide-1999")) == (arbiter.OptionError, "unknown_rule_set", "rules")
    assert cli_refusal(cli, "status", "--moves", "e4", "--rules", "fide-1999") == ("unknown_rule_set", "rules")
    # A claim of an unknown kind: the core's claim request.
    assert raised(lambda: arbiter.Game().claim("fourfold")) == (arbiter.ClaimError, "bad_value", "kind")
    assert core_refusal("claim", {"fen": START, "kind": "fourfold"}) == ("bad_value", "kind")
    assert cli_refusal(cli, "claim", "fourfold", "--moves", "e4") == ("bad_value", "kind")
    # A move after the game ended, pushed: game_over on the pushed move.
    g = arbiter.Game(fen=MATED, moves=["Rh8#"])
    assert raised(lambda: g.push("Kb7")) == (arbiter.MoveError, "game_over", "move")
    # perft over the one limit of every face.
    over = arbiter.MAX_PERFT_DEPTH + 1
    assert raised(lambda: arbiter.Position().perft(over)) == (arbiter.OptionError, "bad_value", "depth")
    assert core_refusal("perft", {"depth": over}) == ("bad_value", "depth")
    assert cli_refusal(cli, "perft", str(over)) == ("bad_value", "depth")
    assert arbiter.Position().perft(arbiter.MAX_PERFT_DEPTH - 6) == 400  # the limit itself is a depth
    assert arbiter.MAX_PERFT_DEPTH == 8
    # Nothing to pop: the core's no_move, still an IndexError as python-chess's Board.pop().
    e = raised(lambda: arbiter.Game().pop())
    assert e == (arbiter.NoMoveError, "no_move", None) and issubclass(arbiter.NoMoveError, IndexError)


@pytest.mark.parametrize("fen, options, field", [
    ("garbage", {}, "fen"),
    ("8/8/8/8/8/8/8/K6k w - -", {"side": "none"}, "side"),
    ("8/8/8/8/8/8/8/K6k w - -", {"limit": 0}, "limit"),
])
def test_dead_refuses_as_the_core(fen, options, field):
    """dead() is the core's dead request: the same code and field as the JSON request."""
    got = raised(lambda: arbiter.dead(fen, **options))
    assert got[1:] == core_refusal("dead", {"fen": fen, **options})
    assert got[2] == field


def test_dead_is_the_core_answer():
    fen = "8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"
    got = arbiter.dead(fen, side="white", limit=1000, quick=True)
    assert got == json.loads(arbiter._arbiter.request("dead", json.dumps(
        {"fen": fen, "side": "white", "limit": 1000, "quick": True})))


def test_default_rules_from_the_core():
    assert arbiter.DEFAULT_RULES == arbiter._arbiter.DEFAULT_RULES == arbiter.Game().rules == "fide-2023"
    import inspect
    assert inspect.signature(arbiter.Game).parameters["rules"].default == arbiter.DEFAULT_RULES


def test_game_threads():
    """One Game read from several threads at once gives the same answers as from one."""
    g = arbiter.Game(fen="7k/8/8/8/8/3R4/8/K7 w - - 0 1", moves="Ka2 Kh7 Kb2 Kg7 Kb1 Kg8 Ka1 Kh8".split() * 2)
    want = (g.status(), g.claim("threefold"), g.claim("fifty", "Kb1"), g.history)
    p = arbiter.Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    barrier = threading.Barrier(4)

    def work(_):
        barrier.wait()
        got = []
        for _ in range(30):
            got.append((g.status(), g.claim("threefold"), g.claim("fifty", "Kb1"), g.history))
        return got, p.perft(2), arbiter.dead("8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1")["dead"]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for got, nodes, dead in pool.map(work, range(4)):
            assert all(x == want for x in got) and nodes == 2039 and dead is True


def test_gil_released_during_perft():
    """Another thread runs Python code while a long perft is on."""
    p = arbiter.Position()
    done = threading.Event()
    ticks = 0
    t = threading.Thread(target=lambda: (p.perft(5), done.set()))
    t.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    t.join()
    assert ticks > 1


# ---- dead ----

def test_dead():
    d = arbiter.dead("8/8/2k5/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1")
    assert d["dead"] is True and d["can_checkmate"] == {"white": "no", "black": "no"}
    h = arbiter.dead("8/8/8/8/4n3/8/7R/5k1K b - -", side="black")
    assert h["can_checkmate"] == {"white": None, "black": "yes"} and h["helpmate"]["black"][-1].endswith("#")
    assert "microseconds" in arbiter.dead("8/8/8/8/4n3/8/7R/5k1K b - -", timing=True)
    with pytest.raises(arbiter.FenError):
        arbiter.dead("8/8/8/8 w - -")
    with pytest.raises(arbiter.OptionError):
        arbiter.dead(START, side="red")


# ---- parity with the CLI ----

@pytest.mark.parametrize("vid,fen,moves", VECTORS, ids=[v[0] for v in VECTORS])
def test_vectors_same_dicts_as_cli(cli, vid, fen, moves):
    """status --json after every ply, and the claims, under several rule sets."""
    for rules in rules_for(vid):
        g = arbiter.Game(fen=fen, rules=rules)
        for k in range(len(moves) + 1):
            if k:
                g.push(moves[k - 1])
            if k % 4 and k != len(moves):
                continue  # every 4th ply and the last
            args = position_args(fen, moves[:k]) or ["--fen", START]
            assert g.status() == cli_json(cli, "status", "--json", "--rules", rules, *args), (vid, rules, k)
        args = position_args(fen, moves[:k]) or ["--fen", START]
        for kind in ("threefold", "fifty"):
            assert g.claim(kind) == cli_json(cli, "claim", kind, "--json", "--rules", rules, *args), (vid, rules)
            for m in INTENDED.get(vid, []):
                want = cli_json(cli, "claim", kind, "--json", "--intended", m, "--rules", rules, *args)
                assert g.claim(kind, intended=m) == want, (vid, rules, kind, m)


@pytest.mark.parametrize("vid,fen,moves", VECTORS, ids=[v[0] for v in VECTORS])
def test_vectors_dead_same_dicts_as_cli(cli, vid, fen, moves):
    pos = arbiter.Game(fen=fen, moves=moves).position.fen()
    for side in ("both", "white", "black"):
        assert arbiter.dead(pos, side=side) == cli_json(cli, "dead", "--json", "--side", side, "--fen", pos)
    assert arbiter.dead(pos, limit=50, quick=True) == cli_json(cli, "dead", "--json", "--limit", "50", "--quick",
                                                               "--fen", pos)


def test_dead_batch_positions_same_as_cli(cli, fixtures):
    """The positions of the CLI's dead --batch fixture, one by one."""
    with open(os.path.join(fixtures, "dead_batch.txt")) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for fields in lines:
        fen = " ".join(fields[:6]) if len(fields) >= 6 else " ".join(fields[:4])
        try:
            got = arbiter.dead(fen)
        except arbiter.FenError as e:
            rc, _, err = run_cli(cli, "dead", "--json", "--fen", fen)
            assert rc == 2 and e.message in err
            continue
        assert got == cli_json(cli, "dead", "--json", "--fen", fen)


# ---- audit ----

def test_audit_fixtures_same_lines_as_cli(cli, fixtures):
    files = [os.path.join(fixtures, "audit", "findings.pgn"), os.path.join(fixtures, "pgn", "features.pgn"),
             os.path.join(fixtures, "pgn", "features.pgn.zst"), os.path.join(fixtures, "pgn", "features_crlf.pgn")]
    rc, want, _ = run_cli(cli, "audit", "--format", "jsonl", "-q", *files)
    assert rc == 0 and want
    for chunk in (1, 2, 1000):
        for threads in (1, 2):
            got = b"".join(arbiter.audit_lines(files, threads=threads, chunk_games=chunk))
            assert got == want, (chunk, threads)
    assert list(arbiter.audit(files)) == [json.loads(l) for l in want.splitlines()]
    for rules in ("fide-2018", "uscf"):
        rc, want, _ = run_cli(cli, "audit", "--rules", rules, "-q", *files)
        assert b"".join(arbiter.audit_lines(files, rules=rules, chunk_games=3)) == want


def test_audit_only_and_select_as_the_cli(cli, fixtures):
    """--only and --select through audit(), audit_lines() and audit_bytes(): the CLI's lines (a game
    --select leaves out keeps its number), whatever the piece size."""
    files = [os.path.join(fixtures, "audit", "findings.pgn"), os.path.join(fixtures, "pgn", "features.pgn")]
    cases = [(["threefold,result_inconsistent"], ["Result=1/2-1/2"]), (["missed_automatic_draw"], []),
             ([], ["Result=1-0", "Site=arbiter fixture"]), (["claimable/fifty", "checkmate"], [])]
    for only, select in cases:
        args = [a for o in only for a in ("--only", o)] + [a for x in select for a in ("--select", x)]
        rc, want, _ = run_cli(cli, "audit", "-q", *args, *files)
        assert rc == 0 and want, (only, select)
        for chunk in (None, 1, 7):
            for threads in (1, 2):
                got = b"".join(arbiter.audit_lines(files, threads=threads, chunk_games=chunk, only=only,
                                                   select=select))
                assert got == want, (only, select, chunk, threads)
        assert list(arbiter.audit(files, only=only, select=select)) == [json.loads(l) for l in want.splitlines()]
    data = open(files[0], "rb").read()
    rc, want, _ = run_cli(cli, "audit", "-q", "--select", "Result=1-0", "-", input=data)
    assert arbiter.audit_bytes(data, select="Result=1-0") == [json.loads(l) for l in want.splitlines()]
    with pytest.raises(arbiter.OptionError) as e:
        list(arbiter.audit(files, only="nonsense"))
    assert e.value.field == "only" and "threefold" in e.value.message
    with pytest.raises(arbiter.OptionError) as e:
        arbiter.audit_bytes(data, select="Result")
    assert e.value.field == "select"


def test_pieces_by_bytes_cover_the_input(fixtures, tmp_path):
    """Pieces cut by size (the default: no work per game) or by games are the input, in order, each
    cut at a game boundary, whatever the size; from a path, bytes or a stream alike."""
    path = os.path.join(fixtures, "audit", "findings.pgn")
    data = open(path, "rb").read() * 5
    big = tmp_path / "five.pgn"
    big.write_bytes(data)
    for chunk_bytes in (1, 100, 4096, 1 << 20):
        for chunk_games in (None, 3):
            for source in (str(big), data, io.BytesIO(data)):
                ps = [p for _, p, _ in arbiter.pieces(source, chunk_games=chunk_games, chunk_bytes=chunk_bytes)]
                assert b"".join(p.text for p in ps) == data
                offset = 0
                for p in ps:
                    assert p.first_offset == offset and p.first_line == data[:offset].count(b"\n") + 1
                    offset += len(p.text)
                    if p.ends_at_boundary:
                        assert arbiter._arbiter.is_game_boundary(data, offset)
                if chunk_bytes == 1:
                    assert len(ps) == data.count(b"\n\n[Event ") + 1


def test_audit_sources_bytes_and_streams(cli, fixtures):
    path = os.path.join(fixtures, "audit", "findings.pgn")
    data = open(path, "rb").read()
    rc, want, _ = run_cli(cli, "audit", "-q", "-", input=data)
    want = [json.loads(l) for l in want.splitlines()]
    assert list(arbiter.audit(data)) == want
    assert list(arbiter.audit(io.BytesIO(data))) == want
    assert list(arbiter.audit(io.StringIO(data.decode()))) == want
    zst = open(os.path.join(fixtures, "pgn", "features.pgn.zst"), "rb").read()
    rc, want_zst, _ = run_cli(cli, "audit", "-q", "-", input=zst)
    assert list(arbiter.audit(zst)) == [json.loads(l) for l in want_zst.splitlines()]


def test_audit_bytes_chunks(cli, fixtures):
    """Pieces cut at game boundaries, audited on their own with their numbers and offsets, give
    the records of the whole."""
    path = os.path.join(fixtures, "audit", "findings.pgn")
    whole = list(arbiter.audit(path))
    got, game = [], 1
    for index, p, _ in arbiter.pieces(path, chunk_games=2):
        recs = arbiter.audit_bytes(p.text, game, name=p.file, first_line=p.first_line, first_offset=p.first_offset,
                                   last=not p.ends_at_boundary)
        game += len(recs)
        got += recs
    assert got == whole and len(whole) > 2
    assert arbiter.audit_bytes(b"") == []
    with pytest.raises(arbiter.OptionError):
        arbiter.audit_bytes(b"", rules="fide-1066")


def test_audit_errors(cli, tmp_path):
    with pytest.raises(arbiter.ReadError) as e:
        list(arbiter.audit(str(tmp_path / "missing.pgn")))
    assert e.value.code == "cannot_open" and e.value.field.endswith("missing.pgn")
    bad = tmp_path / "bad.pgn.zst"
    good = b'[Event "x"]\n\n1. e4 e5 1-0\n\n' * 50
    import subprocess
    comp = subprocess.run(["zstd", "-q", "-c"], input=good, capture_output=True).stdout
    bad.write_bytes(comp[: len(comp) // 2] + b"\x00" * 64 + comp[len(comp) // 2:])
    rc, want, _ = run_cli(cli, "audit", "-q", str(bad))
    assert rc == 2
    errors = []
    assert b"".join(arbiter.audit_lines(str(bad), errors=errors)) == want
    assert errors and errors[0].code.startswith("corrupt")
    # A bad game is reported in its record, never an exception.
    recs = arbiter.audit_bytes(b'[Event "x"]\n\n1. e4 Ke7 2. Kxe8 1-0\n')
    assert recs[0]["errors"] and recs[0]["game"] == 1


def test_read_games(fixtures):
    games = list(arbiter.read_games(os.path.join(fixtures, "audit", "findings.pgn")))
    assert games[0]["game"] == 1 and games[0]["tags"]["Event"]
    for g in games:
        if g["fen"] and g["complete"]:
            game = arbiter.Game(fen=g["fen"], moves=g["uci"])
            # The SAN as written in the file may differ in its check marks ("Ra8+" for a mate).
            assert [m.rstrip("+#") for m in game.history] == [m.rstrip("+#") for m in g["san"]]


# Dead positions, one answer everywhere (issue 29): the Game ends a dead position the ply it
# arises, with can_checkmate "no" for both sides, as the CLI's status does; audit(exact=True) is
# `arbiter audit --exact`.
FORCED_STALEMATE = "1K6/3q4/2q5/8/1n6/8/1Q6/1k6 b - - 0 1"  # Black's only move Kxb2 stalemates White
# A pawn wall with bishops shut in, composed for this test: dead, but not closed enough for the
# default audit's gate; only the full analysis (exact) finds it.
WALL = "8/p7/2p5/PpP3p1/1Pp2pP1/BpP2PpB/1P4P1/2k2K2 w - - 0 1"


def test_dead_position_one_answer(cli):
    for fen in (FORCED_STALEMATE, WALL):
        s = arbiter.Game(fen=fen).status()
        assert s["termination"]["kind"] == "dead_position", fen
        assert s["can_checkmate"] == {"white": "no", "black": "no"}, fen
        assert s == cli_json(cli, "status", "--json", "--fen", fen)
    g = arbiter.Game(fen="6K1/4q3/5q2/8/6n1/7Q/8/6k1 w - - 0 1")  # alive; Qg2+ forces a stalemate
    assert g.status()["termination"] is None
    assert "yes" in g.status()["can_checkmate"].values()
    g.push("Qg2+")
    assert g.status()["termination"]["kind"] == "dead_position"
    assert g.status()["termination"]["ply"] == 1


def test_audit_exact_finds_what_the_default_leaves(cli):
    pgn = f'[Event "t"]\n[Result "1-0"]\n[SetUp "1"]\n[FEN "{WALL}"]\n\n1-0\n'.encode()
    default = arbiter.audit_bytes(pgn, rules="fide-2023")
    exact = arbiter.audit_bytes(pgn, rules="fide-2023", exact=True)
    assert default[0]["findings"] == []
    assert [(f["type"], f["kind"], f["ply"]) for f in exact[0]["findings"]] == [
        ("result_contradicts_position", "dead_position", 0)]
    rc, out, err = run_cli(cli, "audit", "--rules", "fide-2023", "--exact", "-q", "-", input=pgn)
    assert rc == 0, err
    assert [json.loads(line) for line in out.splitlines()] == list(
        arbiter.audit(io.BytesIO(pgn), rules="fide-2023", exact=True))


def test_audit_takes_the_rule_options_as_the_cli(cli):
    """The rule options of `arbiter audit` (RULES.md §1), through the same AuditRequest: the same
    records as the CLI with the same flags, and the core's refusals."""
    shuffle = b'[Event "t"]\n[Result "*"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n'
    cases = [({}, []), ({"initial_position_counts": False}, ["--initial-position-counts", "false"]),
             ({"rules": "fide-online", "online_claims": True}, ["--online-claims"]),
             ({"intended_mate_incorrect": True, "counters_from_setup": "game_start"},
              ["--intended-mate-incorrect", "--counters-from-setup", "game_start"])]
    seen = set()
    for options, flags in cases:
        rules = options.pop("rules", "fide-2023")
        rc, out, err = run_cli(cli, "audit", "--rules", rules, *flags, "-q", "-", input=shuffle)
        assert rc == 0, err
        want = [json.loads(line) for line in out.splitlines()]
        assert arbiter.audit_bytes(shuffle, rules=rules, **options) == want, flags
        assert list(arbiter.audit(io.BytesIO(shuffle), rules=rules, **options)) == want, flags
        seen.add(json.dumps(want[0]["findings"]))
    assert len(seen) > 1  # the options change the findings
    for options, want in [({"counters_from_setup": "never"}, ("bad_value", "counters_from_setup")),
                          ({"online_claims": True}, ("bad_usage", "online_claims")),
                          ({"fifty_extensions": ["nonsense"]}, ("bad_value", "fifty_extensions"))]:
        with pytest.raises(arbiter.OptionError) as e:
            arbiter.audit_bytes(shuffle, rules="fide-2023", **options)
        assert (e.value.code, e.value.field) == want
    with pytest.raises(TypeError, match="no_such_option"):
        arbiter.audit_bytes(shuffle, no_such_option=True)
    # One typed object, by name, that pickles (the distributed audit's tasks carry it).
    import pickle
    o = arbiter.AuditOptions.of("fide-2023", only="threefold", fifty_extensions="KRBvKR=75", online_claims=False)
    assert pickle.loads(pickle.dumps(o)) == o and o.only == ("threefold",) and o.fifty_extensions == ("KRBvKR=75",)
    assert o.asdict()["only"] == ["threefold"]
