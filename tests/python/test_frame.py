"""arbiter.audit_frame (issue 33.6): the findings as a pandas DataFrame, row for row and field for
field what `arbiter audit --format csv` writes; a clear ImportError without pandas."""

import csv
import glob
import io
import os
import sys

import pytest

import arbiter
from conftest import run_cli

# CSV column -> frame column (the tags are columns named as the tags).
SAME = {"game": "game", "game_in_file": "game_in_file", "file": "file", "white": "White", "black": "Black",
        "date": "Date", "result": "result", "rules": "rules", "plies": "plies", "type": "type", "kind": "kind",
        "ply": "ply", "side": "side", "article": "article", "detail": "detail", "event": "Event", "site": "Site",
        "round": "Round", "chances": "chances", "unused": "unused", "first_ply": "first_ply",
        "first_move": "first_move"}


def as_csv_text(value):
    """A frame cell as the CSV writes it: empty for a missing value."""
    pd = pytest.importorskip("pandas")
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return str(value)


def compare_with_cli(cli, files, **kw):
    args = []
    if "only" in kw:
        args += ["--only", kw["only"]]
    rc, out, err = run_cli(cli, "audit", "--format", "csv", "-q", *args, *files)
    assert rc == 0, err
    want = list(csv.DictReader(io.StringIO(out.decode())))
    frame = arbiter.audit_frame(files, pgn_errors=True, **kw)
    assert len(frame) == len(want)
    for row, (_, got) in zip(want, frame.iterrows()):
        for c, f in SAME.items():
            cell = as_csv_text(got[f]) if f in got else ""
            assert cell == row[c], (c, row, dict(got))
    return frame


def test_frame_equals_the_cli_csv(cli, fixtures):
    pytest.importorskip("pandas")
    files = sorted(glob.glob(os.path.join(fixtures, "audit", "*.pgn")) + glob.glob(os.path.join(fixtures, "pgn", "*.pgn*")))
    frame = compare_with_cli(cli, files)
    assert list(frame.columns[:len(arbiter._frame.COLUMNS)]) == arbiter._frame.COLUMNS
    assert "Event" in frame.columns and (frame["type"] != "error").any()
    # Without pgn_errors: the findings alone; only= as --only.
    findings = arbiter.audit_frame(files)
    assert len(findings) == int((~frame["type"].isin(["error", "warning"])).sum())
    assert str(findings["ply"].dtype) == "Int64"
    compare_with_cli(cli, files, only="claimable")


def test_empty_frame_has_the_columns():
    pytest.importorskip("pandas")
    frame = arbiter.audit_frame(b'[Event "x"]\n\n1. e4 e5 *\n')
    assert len(frame) == 0 and list(frame.columns) == arbiter._frame.COLUMNS


def test_without_pandas_an_import_error_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="python3-pandas"):
        arbiter.audit_frame(b'[Event "x"]\n\n1. e4 e5 *\n')
