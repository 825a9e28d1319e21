"""Issue 63, part 5: a python-chess program run unchanged but for its import — `import chess` and
`import chess.pgn` against `import arbiter.compat as chess` — on real games (../shared/data/pgn),
each in its own interpreter, and their printed lines compared. Where the Laws decide otherwise
than python-chess the difference must be one of the listed ones (DIFFERENCES); anything else fails.

`test_compat_program_on_real_games` takes 30 games of one file (ctest python.compat);
`test_compat_program_corpus` every game of pgn/real that both read in full (python.compat_corpus,
label corpus). Both skip when python-chess or ../shared/data is absent."""

import collections
import os
import subprocess
import sys

import pytest

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

DATA = os.environ.get("ARBITER_SHARED_DATA", "")

# The python-chess program: what a python-chess user writes, printing what it sees at every ply.
PROGRAM = '''
import sys

{imports}


def main(path):
    with open(path, encoding="utf-8") as f:
        number = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            number += 1
            board = game.board()
            print(number, "game", game.headers.get("White", "?"), "-", game.headers.get("Black", "?"))
            for move in game.mainline_moves():
                key = f"{{number}} {{board.ply() + 1}}"
                print(key, "move", board.san(move), board.is_capture(move), board.gives_check(move),
                      board.is_zeroing(move), board.is_legal(move), board.piece_at(move.from_square))
                board.push(move)
                print(key, "fen", board.fen(), board.epd(), board.ply(), board.halfmove_clock, board.fullmove_number,
                      board.turn, board.is_check())
                print(key, "legal", " ".join(sorted(m.uci() for m in board.legal_moves)), board.legal_moves.count())
                print(key, "claims", board.can_claim_threefold_repetition(), board.can_claim_fifty_moves(),
                      board.is_repetition(2), board.is_fifty_moves())
                print(key, "over", board.is_checkmate(), board.is_stalemate(), board.is_insufficient_material(),
                      board.is_fivefold_repetition(), board.is_seventyfive_moves(), board.is_game_over(),
                      board.result())
            outcome = board.outcome(claim_draw=True)
            print(number, "end", board.result(claim_draw=True),
                  None if outcome is None else (outcome.termination.name, outcome.winner))


main(sys.argv[1])
'''
PEER = "import chess\nimport chess.pgn"
OURS = "import arbiter.compat as chess"

# Where the Laws decide otherwise than python-chess (docs/python.md, "Where the Laws differ"):
# the kinds of line that may differ, each with its article.
DIFFERENCES = {
    "dead_position": "5.2.2: a dead position beyond material ends the game (python-chess: material only)",
    "after_the_end": "5.2.2, 9.6: the game's first automatic ending stays its ending; moves recorded after it "
                     "change no predicate (python-chess asks each position afresh)",
}


def run(program, path):
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", program, path], capture_output=True, text=True, env=env, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.splitlines()


def both_read(paths, limit, out):
    """The games python-chess reads in full from the standard start (and arbiter plays in full),
    written as python-chess exports them to `out`; how many."""
    import arbiter
    n = 0
    with open(out, "w", encoding="utf-8") as w:
        for path in paths:
            with open(path, encoding="utf-8", errors="replace") as f:
                while n < limit:
                    g = chess.pgn.read_game(f)
                    if g is None:
                        break
                    if g.errors or g.board().fen() != chess.STARTING_FEN or g.next() is None:
                        continue
                    text = str(g)
                    try:  # python-chess writes a Result tag of "?" as the game's end marker, which PGN has not
                        if not arbiter.Game.from_pgn(text).ply == len(list(g.mainline_moves())):
                            continue
                    except arbiter.Error:
                        continue
                    w.write(text + "\n\n")
                    n += 1
    return n


def parse(lines):
    out = collections.OrderedDict()
    for line in lines:
        number, rest = line.split(" ", 1)
        if rest.startswith(("game", "end")):
            out[(number, rest.split(" ", 1)[0])] = rest
        else:
            ply, kind, value = rest.split(" ", 2)
            out[(number, ply, kind)] = value
    return out


def compare(ours, theirs):
    """(differences by kind, the unexplained ones)."""
    a, b = parse(ours), parse(theirs)
    assert list(a) == list(b), "the two programs printed different lines"
    # The ply at which arbiter's game is over (by its own over line): an automatic ending, which
    # python-chess may see too (fivefold, 75 moves) or not (a dead position beyond material).
    # From that ply on a claim is no longer a question (9.6, 5.2.2), whatever python-chess says.
    ended = {}
    for key in a:
        if key[-1] == "over" and a[key].split()[5] == "True":
            ended.setdefault(key[0], int(key[1]))
    explained = collections.Counter()
    unexplained = []
    for key in a:
        if a[key] == b[key]:
            continue
        game = key[0]
        at = ended.get(game)
        if key[-1] == "over" and at == int(key[1]) and b[key].split()[5] == "False":
            explained["dead_position"] += 1
            continue
        if key[-1] in ("over", "claims") and at is not None and int(key[1]) >= at:
            explained["after_the_end"] += 1
            continue
        if key[-1] == "end" and at is not None:
            explained["after_the_end"] += 1
            continue
        unexplained.append((key, a[key], b[key]))
    return explained, unexplained


def check(tmp_path, paths, limit, at_least):
    pgn = tmp_path / "both.pgn"
    games = both_read(paths, limit, pgn)
    assert games >= at_least
    theirs = run(PROGRAM.format(imports=PEER), str(pgn))
    ours = run(PROGRAM.format(imports=OURS), str(pgn))
    explained, unexplained = compare(ours, theirs)
    plies = sum(1 for line in theirs if " fen " in line)
    print(f"{games} games, {plies} plies: differences where the Laws decide otherwise: {dict(explained)}")
    assert not unexplained, unexplained[:10]
    assert sum(explained.values()) < 0.01 * plies * 3  # well under 1 % of the plies' predicate lines
    return games, plies


def real(*names):
    base = os.path.join(DATA, "pgn", "real")
    if not os.path.isdir(base):
        pytest.skip("../shared/data is absent")
    return [os.path.join(base, n) for n in names] if names else sorted(
        os.path.join(base, n) for n in os.listdir(base) if n.endswith(".pgn"))


def test_compat_program_on_real_games(tmp_path):
    games, plies = check(tmp_path, real("shakmaty_twic1599_1000k.pgn"), 30, 30)
    assert plies > 1000


def test_compat_program_corpus(tmp_path):
    games, plies = check(tmp_path, real(), 100_000, 2000)
    assert plies > 100_000


def test_read_game_keeps_a_comment_line_that_starts_like_a_tag():
    """A { } comment may hold a line that begins with "[" (an annotator's "[C54]"): it is the
    comment's, not the next game's tags."""
    import io

    import arbiter.compat as ac

    text = ('[White "A"]\n\n{\n[C54]\nan opening\n} 1. e4 e5 2. Nf3 1-0\n\n'
            '[White "B"]\n\n1. d4 ; a line comment { not opened\nd5 0-1\n\n[White "C"]\n\n1. c4 *\n')
    f = io.StringIO(text)
    games = []
    while (g := ac.pgn.read_game(f)) is not None:
        games.append((g.headers.get("White"), [m.uci() for m in g.mainline_moves()]))
    assert games == [("A", ["e2e4", "e7e5", "g1f3"]), ("B", ["d2d4", "d7d5"]), ("C", ["c2c4"])]
