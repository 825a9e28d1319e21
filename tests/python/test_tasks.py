"""The distributed audit's tasks without a cluster (also under ASan: the reading and cutting are
C++): inputs planned into tasks (plan_input), each task audited from its own part of the file
(audit_task), its records numbered once the tasks before it are counted (number_file) — the parts
in order are byte-identical to `arbiter audit --format jsonl` for any task size: plain files cut
into ranges down to a few bytes (games and damaged games straddling every boundary, CRLF, a BOM),
Zstandard files of several frames (concatenated, pzstd's), of one frame, gzip, and damaged
compressed files (truncated, corrupt: reported once, the rest of that file dropped as the CLI
does)."""

import glob
import gzip
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, run_cli

from arbiter import _arbiter

# Under the sanitizers (ARBITER_SANITIZED) every task costs some ten times more: fewer cut sizes.
SANITIZED = bool(os.environ.get("ARBITER_SANITIZED"))


def sizes(*all_sizes):
    return [s for s in all_sizes if s >= 100] if SANITIZED else list(all_sizes)


def run_tasks(files, task_bytes, tmp, piece_bytes=4 << 20):
    """What the distributed audit writes, computed here task after task: (output, read errors,
    the tasks' kinds)."""
    out, errors, kinds = bytearray(), [], set()
    game = 0
    records, part = os.path.join(tmp, "records"), os.path.join(tmp, "part")
    for name in files:
        compression, size, kind, spans = _arbiter.plan_input(name, task_bytes)
        kinds.add(kind)
        in_file = lines = offset = 0
        dead = False
        for begin, end in spans:
            assert begin <= end <= max(size, end)
            games, newlines, nbytes, counts, error = _arbiter.audit_task(
                os.path.abspath(name), name, kind, begin, end, records, piece_bytes=piece_bytes)
            if dead:
                continue
            _arbiter.number_file(records, part, game + 1, in_file + 1, lines, offset)
            with open(part, "rb") as f:
                out += f.read()
            game += games
            in_file += games
            lines += newlines
            offset += nbytes
            if error:
                errors.append(error[4])
                dead = True
    return bytes(out), errors, kinds


def cli_errors(err):
    return [line[len("arbiter: "):].replace(" (the games before it were audited)", "")
            for line in err.splitlines() if line.startswith("arbiter: ") and "see above" not in line]


def check(cli, files, sizes, tmp, piece_bytes=4 << 20):
    rc, want, err = run_cli(cli, "audit", "--format", "jsonl", "-q", *files)
    assert want
    kinds = set()
    for size in sizes:
        got, errors, k = run_tasks(files, size, str(tmp), piece_bytes)
        kinds |= k
        assert got == want, size
        assert errors == cli_errors(err), size
    return kinds


def fixture_files():
    pgn = os.path.join(ROOT, "tests", "data", "pgn")
    return [os.path.join(ROOT, "tests", "data", "audit", "findings.pgn"), os.path.join(pgn, "features.pgn"),
            os.path.join(pgn, "features_crlf.pgn"), os.path.join(pgn, "features_bom.pgn"),
            os.path.join(pgn, "features_bom_crlf.pgn"), *sorted(glob.glob(os.path.join(pgn, "errors", "*.pgn")))]


def test_plain_ranges_any_size(cli, tmp_path):
    """Ranges from 1 byte up: every game and every damaged game straddles some boundary."""
    files = fixture_files()
    # One file of them all, so that damaged games sit between good ones at every cut.
    joined = tmp_path / "joined.pgn"
    joined.write_bytes(b"\n\n".join(open(f, "rb").read() for f in files))
    assert check(cli, [str(joined)], sizes(1, 7, 100, 1024, 5000, 1 << 30), tmp_path) == {"range"}
    assert check(cli, files, sizes(50, 1024, 1 << 30), tmp_path) == {"range"}
    # Pieces inside a task cut small as well (one task of many pieces).
    assert check(cli, [str(joined)], [1 << 30, 3000], tmp_path, piece_bytes=700) == {"range"}


def test_range_owns_games_by_anchor(tmp_path):
    """A game whose blank line lies across a range's start belongs to the range before: no game is
    read twice or lost, whatever the blank line (spaces, tabs, CR) is made of."""
    games = [f'[Event "g{i}"]\n\n1. e4 e5 *\n{" " * (i % 5)}\t\r\n' for i in range(40)]
    text = "".join(games).encode()
    f = tmp_path / "blank.pgn"
    f.write_bytes(text)
    for size in range(1, 40, 5 if SANITIZED else 1):
        total = 0
        for begin, end in _arbiter.plan_input(str(f), size)[3]:
            games_read = _arbiter.audit_task(str(f), "blank.pgn", "range", begin, end, None, summary=True)[0]
            total += games_read
        assert total == 40, size


def test_zstd_frames_single_frame_gzip_and_damage(cli, tmp_path):
    files = fixture_files()
    text = b"\n\n".join(open(f, "rb").read() for f in files) * 3
    plain = tmp_path / "all.pgn"
    plain.write_bytes(text)
    # Frames simply concatenated (zstd of each piece), about 2 KB of text each.
    cat = tmp_path / "cat.pgn.zst"
    with open(cat, "wb") as out:
        for k in range(0, len(text), 2000):
            out.write(subprocess.run(["zstd", "-q", "-c"], input=text[k:k + 2000], capture_output=True,
                                     check=True).stdout)
    one = tmp_path / "one.pgn.zst"
    subprocess.run(["zstd", "-q", "-f", str(plain), "-o", str(one)], check=True)
    gz = tmp_path / "all.pgn.gz"
    gz.write_bytes(gzip.compress(text))
    assert _arbiter.plan_input(str(cat), 1)[2] == "frames"
    assert len(_arbiter.plan_input(str(cat), 1)[3]) == (len(text) + 1999) // 2000
    assert _arbiter.plan_input(str(one), 1)[2:] == ("whole", [(0, one.stat().st_size)])
    assert _arbiter.plan_input(str(gz), 1)[2] == "whole"
    kinds = check(cli, [str(cat), str(one), str(gz), str(plain)], sizes(1, 3000, 20000, 1 << 30), tmp_path,
                  piece_bytes=5000)
    assert kinds == {"frames", "whole", "range"}
    # Damaged: cut in the middle of a frame; a byte changed inside one (checksum).
    data = cat.read_bytes()
    trunc = tmp_path / "trunc.pgn.zst"
    trunc.write_bytes(data[:len(data) // 2])
    bad = bytearray(data)
    bad[len(data) // 3] ^= 0x55
    corrupt = tmp_path / "corrupt.pgn.zst"
    corrupt.write_bytes(bytes(bad))
    check(cli, [str(trunc), str(corrupt), str(plain)], sizes(1, 5000, 1 << 30), tmp_path)


def test_tasks_are_of_nearly_equal_size(tmp_path):
    """A file is cut into ceil(size / task_bytes) tasks of equal size (ranges) or nearly equal
    (groups of frames, cut at frame starts), so that the workers finish together; the frame task
    size applies to files of several frames only."""
    plain = tmp_path / "p.pgn"
    plain.write_bytes(b"x" * 10_007)
    for task_bytes in (1_000, 3_000, 6_000, 10_007, 50_000):
        _, size, kind, spans = _arbiter.plan_input(str(plain), task_bytes)
        assert kind == "range" and size == 10_007
        assert len(spans) == -(-size // task_bytes)
        assert spans[0][0] == 0 and spans[-1][1] == size
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
        lengths = [end - begin for begin, end in spans]
        assert max(lengths) - min(lengths) <= 1
    # 60 frames of 1,000 text bytes each; the frame starts, walked by hand from the frame sizes.
    cat = tmp_path / "cat.pgn.zst"
    starts = []
    with open(cat, "wb") as out:
        for k in range(60):
            starts.append(out.tell())
            out.write(subprocess.run(["zstd", "-q", "-c", "--no-check"], input=bytes([65 + k % 26]) * 1000,
                                     capture_output=True, check=True).stdout)
    size = cat.stat().st_size
    for task_bytes in (size // 7, size // 4, size // 2):
        _, _, kind, spans = _arbiter.plan_input(str(cat), 1 << 40, task_bytes)
        assert kind == "frames" and len(spans) == -(-size // task_bytes)
        assert all(begin in starts for begin, _ in spans) and spans[-1][1] == size
        frames = [sum(1 for s in starts if begin <= s < end) for begin, end in spans]
        assert max(frames) - min(frames) <= 1, frames
    # The frame task size leaves a plain file alone.
    assert _arbiter.plan_input(str(plain), 5_000, 1)[3] == _arbiter.plan_input(str(plain), 5_000)[3]


@pytest.mark.skipif(shutil.which("pzstd") is None or SANITIZED, reason="pzstd is not installed, or sanitized")
def test_pzstd_frames(cli, tmp_path):
    text = b"\n\n".join(open(f, "rb").read() for f in fixture_files()) * 1500
    plain = tmp_path / "big.pgn"
    plain.write_bytes(text)
    pz = tmp_path / "big.pgn.zst"
    subprocess.run(["pzstd", "-1", "-q", "-f", "-p", "2", str(plain), "-o", str(pz)], check=True)
    compression, size, kind, spans = _arbiter.plan_input(str(pz), 1)
    assert compression == "zstd" and kind == "frames" and len(spans) > 1
    check(cli, [str(pz)], [1, size // 3, 1 << 30], tmp_path)


@pytest.mark.skipif(SANITIZED, reason="the corpus runs in the release build")
def test_corpus_by_ranges(cli, shared, tmp_path):
    """The real games: ranges of 1 KB and of 64 KB."""
    files = sorted(glob.glob(os.path.join(shared, "pgn", "real", "*.pgn")))[:12]
    check(cli, files, [1024, 65536], tmp_path)


def test_unopenable_input(tmp_path):
    missing = str(tmp_path / "missing.pgn")
    assert _arbiter.plan_input(missing, 100) == ("", 0, "whole", [(0, 0)])
    games, _, _, _, error = _arbiter.audit_task(missing, "missing.pgn", "whole", 0, 0, None, summary=True)
    assert games == 0 and error[0] == "cannot_open" and error[4].startswith("missing.pgn: cannot open")
    with pytest.raises(OSError, match="nowhere"):
        _arbiter.audit_task(missing, "missing.pgn", "whole", 0, 0, str(tmp_path / "nowhere" / "x"))


def test_output_dir_keeps_earlier_runs_across_a_killed_one(tmp_path):
    """Run 1 completes; run 2 starts (manifest rewritten, a journal of its own) and is killed
    before any part lands: run 3 still finds run 1's parts (they live in the manifest, not in
    run 2's journal)."""
    from arbiter import distributed as d

    f = tmp_path / "g.pgn"
    f.write_bytes(b'[Event "a"]\n\n1. e4 *\n\n[Event "b"]\n\n1. d4 *\n')
    args = d._parse(["audit", "--scheduler", "local:1", "--task-bytes", "20", str(f)])
    inputs, tasks = d._plan(args)
    assert len(tasks) >= 2
    out = str(tmp_path / "out")
    run1 = d.OutputDir(out, inputs, {}, temporary=False)
    run1.start(tasks)
    for t in tasks:
        with open(os.path.join(out, d._part_name(t.index)), "wb") as p:
            p.write(b"{}\n")
        run1.record({"task": t.index, "key": t.key, "games": 1, "part_bytes": 3, "run": run1.run})
    run1.finish(tasks, {})
    run2 = d.OutputDir(out, inputs, {}, temporary=False)
    assert all(run2.valid(t) for t in tasks)
    run2.start(tasks)  # ... and killed here
    run2.journal.close()
    run3 = d.OutputDir(out, inputs, {}, temporary=False)
    assert all(run3.valid(t) for t in tasks) and run3.run == 3
    # A part gone is not valid any more; another list of inputs is another run's directory.
    os.unlink(os.path.join(out, d._part_name(1)))
    assert run3.valid(tasks[0]) and not run3.valid(tasks[1]) and run3.valid(tasks[-1])
    with pytest.raises(d.UsageError, match="another run"):
        d.OutputDir(out, inputs + inputs, {}, temporary=False)


def test_the_options_travel_as_one_object(tmp_path):
    """The command line's audit options, rule options included, become one AuditOptions (by name)
    that a task audits with: the same records as `arbiter audit` with the same flags."""
    from arbiter import distributed as d
    from arbiter._audit import AuditOptions

    args = d._parse(["audit", "--scheduler", "local:1", "--rules", "fide-2023", "--only", "threefold",
                     "--initial-position-counts", "false", "--fifty-extension", "KRBvKR=75", "--online-claims",
                     "--intended-mate-incorrect", "--counters-from-setup", "game_start", "x.pgn"])
    assert d.audit_options(args) == AuditOptions("fide-2023", None, ("threefold",), (), False, False, "game_start",
                                                 ("KRBvKR=75",), True, True)
    f = tmp_path / "k.pgn"
    f.write_bytes(b'[Event "t"]\n[Result "*"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n')
    for flags, options in [([], AuditOptions("fide-2023")),
                           (["--initial-position-counts", "false"], AuditOptions("fide-2023",
                                                                                 initial_position_counts=False))]:
        records = str(tmp_path / "records")
        _arbiter.audit_task(str(f), "k.pgn", "whole", 0, 0, records, options)
        _arbiter.number_file(records, str(tmp_path / "part"), 1, 1)
        cli = os.environ.get("ARBITER_CLI", os.path.join(ROOT, "build", "arbiter"))
        rc, out, err = run_cli(cli, "audit", "--rules", "fide-2023", *flags, "-q", str(f))
        assert rc == 0, err
        assert (tmp_path / "part").read_bytes() == out.replace(str(f).encode(), b"k.pgn"), flags
