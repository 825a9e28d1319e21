"""Parity with the CLI on the shared corpora (../shared/data; skipped when absent): the dicts of
`status --json` and `claim --json` for every game of the real corpus at a sampled ply, and
`arbiter.audit` line for line equal to `arbiter audit --format jsonl` on every corpus."""

import concurrent.futures
import glob
import json
import os
import random

import pytest

import arbiter
from conftest import run_cli


def corpus(shared, *patterns):
    files = []
    for p in patterns:
        files += sorted(glob.glob(os.path.join(shared, "pgn", p), recursive=True))
    if not files:
        pytest.skip(f"no files match {patterns} under {shared}")
    return files


def test_status_and_claims_every_real_game_at_a_sampled_ply(cli, shared):
    rng = random.Random(14)
    cases = []
    for path in corpus(shared, "real/*.pgn"):
        for g in arbiter.read_games(path):
            if not g["fen"]:
                continue
            k = rng.randint(0, len(g["uci"]))
            cases.append((path, g, k))
    assert len(cases) > 3000

    def check(case):
        path, g, k = case
        try:
            game = arbiter.Game(fen=g["fen"], moves=g["uci"][:k])
        except arbiter.MoveError as e:
            # A game that ended before ply k (an automatic draw the PGN played through): the CLI
            # refuses the same moves the same way.
            rc, _, err = run_cli(cli, "status", "--json", "--fen", g["fen"], "--moves", " ".join(g["uci"][:k]))
            assert rc == 2 and "the game is over" in err and e.code == "game_over", (path, g["game"], k)
            return 0
        args = ["--fen", g["fen"], "--moves", " ".join(g["uci"][:k])]
        rc, out, err = run_cli(cli, "status", "--json", *args)
        assert rc == 0, err
        assert game.status() == json.loads(out), (path, g["game"], k)
        if g["game"] % 3 == 0:
            kind = "threefold" if g["game"] % 2 else "fifty"
            intended = g["uci"][k] if k < len(g["uci"]) and g["game"] % 4 == 0 else None
            extra = ["--intended", intended] if intended else []
            rc, out, err = run_cli(cli, "claim", kind, "--json", *extra, *args)
            assert rc == 0, err
            assert game.claim(kind, intended) == json.loads(out), (path, g["game"], k, kind, intended)
        return 1

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        checked = sum(pool.map(check, cases))
    assert checked > 3000


@pytest.mark.parametrize("group", ["real/*.pgn", "repetition/*.pgn", "edge/**/*.pgn", "pgn-extract-tests/**/*.pgn"])
def test_audit_same_lines_as_cli(cli, shared, group):
    files = corpus(shared, group)
    rc, want, err = run_cli(cli, "audit", "--format", "jsonl", "-q", "--threads", "2", *files)
    assert rc in (0, 2) and want, err
    errors = []
    got = b"".join(arbiter.audit_lines(files, threads=2, chunk_games=97, errors=errors))
    assert got == want
    assert (rc == 2) == bool(errors)
    if group == "real/*.pgn":
        rc, some, _ = run_cli(cli, "audit", "-q", *files[:3])
        assert list(arbiter.audit(files[:3])) == [json.loads(l) for l in some.splitlines()]
        rc, want, _ = run_cli(cli, "audit", "--rules", "fide-2014", "-q", *files)
        assert b"".join(arbiter.audit_lines(files, rules="fide-2014", chunk_games=500)) == want
