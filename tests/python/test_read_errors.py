"""Nothing silent (issue 33.2): an input that cannot be read as PGN raises the library's ReadError
(code, file, offset) exactly where `arbiter audit` exits 2, in every audit entry point, and
errors="collect" keeps the errors and goes on with the next input."""

import json
import os

import pytest

import arbiter
from conftest import run_cli

GOOD = b'[Event "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
# A ZIP, xz data, a NUL byte in text, an executable, UTF-16: the CLI's not_text, each with its hint.
UNREADABLE = {
    "zip": (b"PK\x03\x04garbage" + bytes(range(40)), "ZIP"),
    "xz": (b"\xfd7zXZ\x00" + b"\x01\x02garbage" * 5, "xz"),
    "binary": (b"[Event \"x\"]\n\x00\x01\x02" + bytes(range(200)), "NUL"),
    "elf": (b"\x7fELF\x02\x01\x01" + b"\x00" * 30, "ELF"),
}


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, (data, _) in UNREADABLE.items():
        out[name] = tmp_path / f"{name}.pgn"
        out[name].write_bytes(data)
    out["good"] = tmp_path / "good.pgn"
    out["good"].write_bytes(GOOD * 3)
    out["empty"] = tmp_path / "empty.pgn"
    out["empty"].write_bytes(b"")
    return out


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_unreadable_input_raises_where_the_cli_exits_2(cli, files, kind):
    path = str(files[kind])
    rc, out, err = run_cli(cli, "audit", "-q", path)
    assert rc == 2 and out == b""
    # The CLI's code for it (under --json), where a command reads the file as one game's PGN.
    rc, out, _ = run_cli(cli, "status", "--json", "--pgn", path)
    code = json.loads(out)["error"]["code"]
    assert rc == 2 and code == "not_text"
    for entry in (arbiter.audit, arbiter.audit_lines, arbiter.read_games):
        with pytest.raises(arbiter.ReadError) as e:
            list(entry(path))
        assert e.value.code == code and e.value.field == path and e.value.offset is not None
        assert UNREADABLE[kind][1] in str(e.value) and e.value.message in err
        # Bytes and streams: the same error, the input named "-" as standard input is.
        with pytest.raises(arbiter.ReadError) as e:
            list(entry(UNREADABLE[kind][0]))
        assert e.value.code == "not_text" and e.value.field == "-"
    with pytest.raises(arbiter.ReadError) as e:
        arbiter.audit_bytes(UNREADABLE[kind][0])
    assert e.value.code == "not_text"
    with open(path, "rb") as f:
        with pytest.raises(arbiter.ReadError):
            list(arbiter.audit(f))


def test_the_games_before_a_fault_come_first(cli, files):
    inputs = [str(files["good"]), str(files["zip"]), str(files["good"])]
    rc, want, err = run_cli(cli, "audit", "-q", *inputs)
    assert rc == 2 and "ZIP" in err
    got = []
    with pytest.raises(arbiter.ReadError) as e:
        for line in arbiter.audit_lines(inputs, threads=2, chunk_games=1):
            got.append(line)
    assert e.value.field == str(files["zip"])
    assert b"".join(got) == b"".join(want.splitlines(keepends=True)[:3])
    # collect: everything the CLI writes, and the error kept.
    run = arbiter.audit_lines(inputs, errors="collect")
    assert b"".join(run) == want
    assert [x.code for x in run.errors] == ["not_text"]
    run = arbiter.audit(inputs + [str(files["empty"]) + ".missing"], errors="collect")
    records = list(run)
    assert [r["game"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert [x.code for x in run.errors] == ["not_text", "cannot_open"]
    mine = []
    assert len(list(arbiter.audit(inputs, errors=mine))) == 6 and len(mine) == 1
    games = arbiter.read_games(inputs, errors="collect")
    assert len(list(games)) == 6 and len(games.errors) == 1


def test_no_games_at_all(cli, files):
    rc, out, err = run_cli(cli, "audit", "-q", "--format", "summary", "--json", str(files["empty"]))
    want = json.loads(out)["error"]
    assert rc == 2 and want["message"] == arbiter._audit.NO_GAMES and want["message"] in err
    with pytest.raises(arbiter.ReadError) as e:
        list(arbiter.audit(str(files["empty"])))
    assert (e.value.code, e.value.message) == (want["code"], want["message"])
    run = arbiter.audit(b"", errors="collect")
    assert list(run) == [] and [x.code for x in run.errors] == [want["code"]]
    # Games that --select leaves out were read: not an error (the CLI exits 0).
    assert list(arbiter.audit(GOOD, select="Event=y")) == []
    # read_games and a chunk of text: no games is no error.
    assert list(arbiter.read_games(b"")) == [] and arbiter.audit_bytes(b"") == []


def test_a_bad_game_is_in_its_record():
    rec, = arbiter.audit(b'[Event "x"]\n\n1. e4 Ke7 2. Kxe8 1-0\n')
    assert rec["errors"] and rec["errors"][0]["code"]


def test_errors_argument_checked():
    for bad in ("ignore", 3, ("x",)):
        with pytest.raises(arbiter.OptionError) as e:
            arbiter.audit(GOOD, errors=bad)
        assert e.value.field == "errors"
    with pytest.raises(TypeError, match="source"):
        list(arbiter.audit(12))


def test_a_corrupt_middle_keeps_the_games_before(cli, tmp_path):
    import subprocess
    comp = subprocess.run(["zstd", "-q", "-c"], input=GOOD * 40000, capture_output=True).stdout
    bad = tmp_path / "bad.pgn.zst"
    bad.write_bytes(comp[: len(comp) // 2] + b"\x00" * 64 + comp[len(comp) // 2:])
    rc, want, _ = run_cli(cli, "audit", "-q", str(bad))
    assert rc == 2 and want
    got = []
    with pytest.raises(arbiter.ReadError) as e:
        for line in arbiter.audit_lines(str(bad)):
            got.append(line)
    assert b"".join(got) == want and e.value.code.startswith("corrupt") and e.value.field == str(bad)
    assert os.path.exists(bad)
