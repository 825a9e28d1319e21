"""arbiter.audit_frame: the audit's findings as a pandas DataFrame, one row per finding, the
game's numbers, rule set and tags as columns (pandas is optional: Debian's python3-pandas)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from ._audit import Names, audit

#: The columns of every frame, in the order of ``arbiter audit --format csv``'s where it has them;
#: the game's tags follow, one column per tag name, in the order they are first met.
COLUMNS = ["game", "game_in_file", "file", "rules", "time_category", "plies", "result", "result_tag",
           "type", "kind", "ply", "side", "article", "detail", "chances", "unused", "first_ply", "first_move"]
_INTEGERS = ["chances", "unused", "first_ply"]


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("audit_frame() needs pandas, an optional dependency of arbiter: install it "
                          "(Debian: apt-get install python3-pandas; else pip install pandas)") from e
    return pandas


def _rows_of(record: Dict[str, Any], pgn_errors: bool) -> List[Dict[str, Any]]:
    game = {k: record.get(k) for k in COLUMNS[:8]}
    rows = []
    for f in record["findings"]:
        rows.append({**game, **{k: f.get(k) for k in COLUMNS[8:]}})
    if pgn_errors:
        # As the CSV writes them: type error or warning, the code as kind, "line L, column C: …".
        for type_, key in (("error", "errors"), ("warning", "warnings")):
            for e in record.get(key) or []:
                rows.append({**game, "type": type_, "kind": e["code"], "ply": None, "side": None, "article": None,
                             "detail": f"line {e['line']}, column {e['column']}: {e['message']}"})
    tags = record.get("tags") or {}
    for row in rows:
        for name, value in tags.items():
            row[name if name not in game and name not in row else "tag_" + name] = value
    return rows


def audit_frame(source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
                chunk_games: Optional[int] = None, only: Names = None, select: Names = None,
                errors: Union[str, list, None] = "raise", pgn_errors: bool = False, exact: bool = False,
                **rule_options: Any):
    """The findings of ``audit(source, …)`` as a pandas DataFrame: one row per finding (a game
    without findings has none), with the columns ``COLUMNS`` (the game's numbers, file, rule set,
    result marker, and the finding's type, kind, ply, side, article, detail and claimable fields)
    and then one column per tag name (``White``, ``Black``, ``Event``, …; a tag whose name is
    already a column is ``tag_NAME``). ``pgn_errors=True`` adds a row per PGN error and warning, as
    ``arbiter audit --format csv`` does (type ``error``/``warning``, the code as kind).

    The arguments (the rule options too) and the error rule are audit()'s; with
    ``errors="collect"`` the ReadErrors are in ``frame.attrs["errors"]``. Raises ImportError naming
    the package when pandas is absent."""
    pd = _pandas()
    run = audit(source, rules, threads, time_category, chunk_games, only=only, select=select, errors=errors,
                exact=exact, **rule_options)
    rows: List[Dict[str, Any]] = []
    tag_columns: Dict[str, None] = {}
    for record in run:
        for row in _rows_of(record, pgn_errors):
            rows.append(row)
            for k in row:
                if k not in COLUMNS:
                    tag_columns.setdefault(k)
    frame = pd.DataFrame(rows, columns=COLUMNS + list(tag_columns))
    for k in _INTEGERS + ["ply"]:
        frame[k] = frame[k].astype("Int64")
    frame.attrs["errors"] = run.errors
    return frame
