"""Auditing PGN inputs from Python: audit(), audit_lines() and audit_frame() run the face core's
audit pipeline, the driver of ``arbiter audit`` (``_arbiter.AuditRun``: inputs read and cut into
batches, audited on C++ threads, the records numbered in input order), and yield its records;
pieces(), read_games() and audit_bytes() cut and read pieces of whole games one by one.

One rule for read errors in every entry point (audit, audit_lines, audit_frame, read_games,
audit_bytes), where ``arbiter audit`` exits 2: an input that cannot be opened or read (a ZIP, xz,
binary data, corrupt compressed data, a missing file) raises ReadError with ``errors="raise"`` (the
default), after the games read before the fault; with ``errors="collect"`` the audit goes on with
the next input and the ReadErrors are kept in the iterator's ``errors`` (or appended to a list given
as `errors`). A bad game is never an exception: its record's ``errors`` say what is wrong."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from typing import Any, Dict, Generic, Iterable, Iterator, List, Optional, Tuple, TypeVar, Union

from . import _arbiter
from ._errors import OptionError, ReadError, check_type
from .types import AuditRecord

#: A piece ends at the first game boundary past this many bytes (unless `chunk_games` ends it first).
DEFAULT_CHUNK_BYTES = 1 << 20
_READ_SIZE = 1 << 18
#: The CLI's message when the inputs hold no game at all (it exits 2).
NO_GAMES = _arbiter.NO_GAMES

Names = Union[str, Iterable[str], None]


class _AuditOptionsMethods:
    """What AuditOptions does; its fields are made below from the core's table of rule options."""

    @classmethod
    def of(cls, rules: str = "auto", time_category: Optional[str] = None, only: Names = None,
           select: Names = None, exact: bool = False, **rule_options: Any) -> "AuditOptions":
        """The options of an entry point's arguments (`only`, `select` and `fifty_extensions` a
        string or an iterable of them); TypeError names an unknown rule option."""
        known = {f.name for f in dataclasses.fields(cls)} - set(_OWN_NAMES)
        for name in rule_options:
            if name not in known:
                raise TypeError(f"unknown option {name!r} (the rule options: {', '.join(sorted(known))})")
        for name, kind in _RULE_KINDS.items():  # a bare str is one extension, as --fifty-extension X
            if kind == "list" and isinstance(rule_options.get(name), (str, bytes)):
                rule_options[name] = [rule_options[name]]
        return cls(rules, time_category, tuple(_names(only, "only")), tuple(_names(select, "select")), bool(exact),
                   **rule_options)

    def __post_init__(self) -> None:
        # Every option's type, named, before C++ reads it (never pybind11's cast message); a list
        # kept as a tuple (the options are frozen and hashable).
        given = {name: getattr(self, name) for name in _RULE_KINDS}
        given["rules"] = self.rules
        given["time_category"] = self.time_category
        for name, value in _arbiter.rule_options(given, "auto").items():
            if name in _RULE_KINDS or name == "rules":
                object.__setattr__(self, name, value)
        for name in ("only", "select"):
            for k, x in enumerate(getattr(self, name)):
                if not isinstance(x, str):
                    raise TypeError(f"{name}: item {k + 1} is a {type(x).__name__}, expected a str")
        check_type("exact", self.exact, (bool,), "a bool")

    def asdict(self) -> Dict[str, Any]:
        """The options by name (JSON-ready: lists for the tuples)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(self).items()}  # type: ignore[call-overload]


# The audit's own options, then the rule options of RULES.md §1 from the core's one table
# (arbiter._arbiter.RULE_OPTIONS): a rule option added there is a field here.
_OWN: List[Tuple[str, Any, Any]] = [("rules", str, "auto"), ("time_category", Optional[str], None),
                                    ("only", Tuple[str, ...], ()), ("select", Tuple[str, ...], ()),
                                    ("exact", bool, False)]
_OWN_NAMES = [name for name, _, _ in _OWN]
_RULE_KINDS = {o["name"]: o["kind"] for o in _arbiter.RULE_OPTIONS if o["name"] not in _OWN_NAMES}
_KIND_FIELDS = {"choice": (Optional[str], None), "boolean": (Optional[bool], None), "list": (Tuple[str, ...], ()),
                "flag": (bool, False)}
AuditOptions = dataclasses.make_dataclass(
    "AuditOptions", [(n, t, dataclasses.field(default=d)) for n, t, d in _OWN] +
    [(n, _KIND_FIELDS[k][0], dataclasses.field(default=_KIND_FIELDS[k][1])) for n, k in _RULE_KINDS.items()],
    bases=(_AuditOptionsMethods,), frozen=True, namespace={"__module__": __name__})
AuditOptions.__doc__ = """The options of an audit, by name, as ``arbiter audit`` takes them and the face core's
    AuditRequest reads them (each piece and each distributed task carries one; it pickles):
    `rules` (a rule-set id or ``auto``), `time_category` (None: from each game's TimeControl tag),
    `only`, `select` and `exact` (``--only``, ``--select``, ``--exact``) and the rule options of
    RULES.md §1 by their names in ``arbiter._arbiter.RULE_OPTIONS`` (docs/python.md; None: the
    core's default). A value the core refuses raises OptionError with its code and field
    when the audit starts."""


class Errors:
    """What an entry point does with ReadErrors: raise (``"raise"``, None) or collect
    (``"collect"``, or a list to append to)."""

    def __init__(self, errors: Union[str, list, None]):
        if errors is None or (isinstance(errors, str) and errors == "raise"):
            self.list: Optional[list] = None
        elif isinstance(errors, str) and errors == "collect":
            self.list = []
        elif isinstance(errors, list):
            self.list = errors
        else:
            raise OptionError(f"errors: expected 'raise' or 'collect' (or a list to collect into), found {errors!r}",
                              "bad_value", "errors")

    def __call__(self, e: ReadError) -> None:
        if self.list is None:
            raise e
        self.list.append(e)


T = TypeVar("T")


class Run(Iterator[T], Generic[T]):
    """The iterator an audit returns: its items, and ``errors``, the ReadErrors collected so far
    (with ``errors="collect"``; always empty with ``"raise"``). ``close()`` stops it where it
    stands (an audit's threads are stopped and joined); so does dropping it."""

    def __init__(self, items: Iterator[T], errors: Errors, pipeline: Optional["_Pipeline"] = None):
        self._items = items
        self._taken = 0
        self._pipeline = pipeline  # the audit behind it, for its counters (tests)
        self.errors: list = errors.list if errors.list is not None else []

    def close(self) -> None:
        """Stops the run: no more items; the audit's threads, if any, are stopped and joined."""
        close = getattr(self._items, "close", None)
        if close is not None:
            close()

    def __iter__(self) -> "Run[T]":
        return self

    def __next__(self) -> T:
        item = next(self._items)
        self._taken += 1
        return item

    def __repr__(self) -> str:
        """<arbiter.Run: N items taken, E read errors collected>"""
        taken = self._taken
        return (f"<arbiter.Run: {taken} item{'s' if taken != 1 else ''} taken, {len(self.errors)} read "
                f"error{'s' if len(self.errors) != 1 else ''} collected>")


def error_tuple(e: ReadError):
    return (e.code, e.field or "", e.offset or 0, _message_of(e))


def _message_of(e: ReadError) -> str:
    # describe() is "path: message" (and more); the InputError's own message is what follows the path
    text = e.message
    prefix = (e.field or "") + ": "
    return text[len(prefix):] if text.startswith(prefix) else text


def is_pgn_game(x: Any) -> bool:
    """A game as python-chess's PGN reader gives it (``chess.pgn.Game``, duck-typed: ``headers``,
    ``board()`` and ``mainline_moves()``)."""
    return (hasattr(x, "headers") and callable(getattr(x, "board", None))
            and callable(getattr(x, "mainline_moves", None)))


_MOVE_NUMBER = re.compile(r"\d+\s*\.")


def is_pgn_text(s: str) -> bool:
    """A str is PGN text, not a path, when it has a line break or begins (after blanks and a
    byte-order mark) with a tag ``[``, a comment ``{`` or a move number (``1.``); else a path."""
    head = s.lstrip("\ufeff \t")
    return "\n" in s or "\r" in s or head.startswith(("[", "{")) or _MOVE_NUMBER.match(head) is not None


def pgn_source(name: str, x: Any) -> Any:
    """One input as python-chess users hold it, in the form the readers take: a path (str or
    os.PathLike), an open file (anything with read()), bytes, PGN text (a str: is_pgn_text) or a
    chess.pgn.Game (its PGN, ``str(game)``). A TypeError naming `name` for anything else."""
    if isinstance(x, os.PathLike):
        return os.fspath(x)
    if isinstance(x, str):
        return x.encode("utf-8", "surrogateescape") if is_pgn_text(x) else x
    if isinstance(x, (bytes, bytearray, memoryview)) or hasattr(x, "read"):
        return x
    if is_pgn_game(x):
        return str(x).encode("utf-8", "surrogateescape")
    raise TypeError(f"{name}: expected a path (str or os.PathLike), an open file, PGN text, bytes or a "
                    f"chess.pgn.Game, got {type(x).__name__}")


def _is_input(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike, bytes, bytearray, memoryview)) or hasattr(x, "read") or is_pgn_game(x)


_INPUTS = "a path (str or os.PathLike), an open file, PGN text, bytes, a chess.pgn.Game"


def _not_an_input(name: str, x: Any, k: Optional[int] = None) -> TypeError:
    if k is None:
        return TypeError(f"{name}: expected {_INPUTS} or a list of these, got {type(x).__name__}")
    return TypeError(f"{name}: item {k + 1} is a {type(x).__name__}, expected {_INPUTS}")


def check_source(source, name: str = "source") -> None:
    """The TypeError of _sources, raised when the call is made rather than when the first item is
    taken: the input, or each item of a list or tuple (other iterables are checked as read)."""
    if _is_input(source):
        return
    if isinstance(source, (list, tuple)):
        for k, s in enumerate(source):
            if isinstance(s, (list, tuple)):
                check_source(s, name)
            elif not _is_input(s):
                raise _not_an_input(name, s, k)
    elif not hasattr(source, "__iter__"):
        raise _not_an_input(name, source)


def _sources(source, name: str = "source") -> Iterator[tuple]:
    """(name, reader-like) for each input of `source`: a path (str, os.PathLike), PGN text (a str
    by is_pgn_text), bytes, a stream, a chess.pgn.Game, or a list (any iterable) of these."""
    if _is_input(source):
        src = pgn_source(name, source)
        if isinstance(src, (bytes, bytearray, memoryview)):
            yield "-", bytes(src)
        else:
            yield (src, None) if isinstance(src, str) else ("-", src)
        return
    try:
        items = iter(source)
    except TypeError:
        raise _not_an_input(name, source) from None
    for k, s in enumerate(items):
        if not (_is_input(s) or isinstance(s, (list, tuple))):
            raise _not_an_input(name, s, k)
        yield from _sources(s, name)


def _chunk_games(chunk_games: Optional[int]) -> int:
    """`chunk_games` checked: a piece (a batch) ends after so many games; 0 for None (no limit)."""
    check_type("chunk_games", chunk_games, (int, type(None)), "a number of games (int) or None")
    if chunk_games is not None and not 1 <= chunk_games < 2**63:
        raise OptionError(f"chunk_games: {chunk_games} is out of range: at least 1", "bad_value", "chunk_games")
    return chunk_games or 0


def events(source, chunk_games: Optional[int] = None, chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> Iterator[tuple]:
    """The inputs of `source` in order, as ``(file_index, piece, error_tuple, read_error)`` for each
    piece (`read_error` the ReadError that ended its input after it, or None) and
    ``(file_index, None, None, read_error)`` for an input that cannot be opened."""
    games = _chunk_games(chunk_games)
    check_type("chunk_bytes", chunk_bytes, (int,), "a number of bytes (int)")
    if not 0 <= chunk_bytes < 2**63:
        raise OptionError(f"chunk_bytes: {chunk_bytes} is out of range: 0 or more", "bad_value", "chunk_bytes")
    for index, (name, src) in enumerate(_sources(source)):
        if src is None or isinstance(src, bytes):
            # Read, decompressed and cut in C++: one call per piece.
            try:
                reader = (_arbiter.PieceReader(name, games, chunk_bytes) if src is None
                          else _arbiter.PieceReader(src, name, games, chunk_bytes))
            except ReadError as e:
                yield index, None, None, e
                continue
            while (p := reader.next()) is not None:
                yield index, p, p.error, (reader.error if p.error is not None else None)
            continue
        cutter = _arbiter.Cutter(name, games, chunk_bytes)
        error = None
        first = True
        while True:
            try:
                data = src.read(_READ_SIZE)
            except ReadError as e:
                error = e
                break
            if isinstance(data, str):
                data = data.encode("utf-8", "surrogateescape")
            if not data:
                break
            if first:
                first = False
                error = sniff(data, name)
                if error is not None:
                    break
            for p in cutter.feed(data):
                yield index, p, None, None
        # A read error is carried by the last piece, empty if need be (as the CLI's last batch).
        rest = cutter.finish(error is not None)
        for k, p in enumerate(rest):
            last = k == len(rest) - 1
            yield index, p, (error_tuple(error) if last and error else None), (error if last else None)


def sniff(data: bytes, name: str) -> Optional[ReadError]:
    """The ReadError ``not_text`` of the start of an input that is not PGN text (a ZIP, xz, an
    executable, UTF-16, a NUL byte), as the library's input detection finds it, or None."""
    head = _arbiter.PieceReader(bytes(data[:8192]), name, 0, 1 << 20)
    while head.next() is not None:
        pass
    e = head.error
    return e if e is not None and e.code == "not_text" else None


def pieces(source, chunk_games: Optional[int] = None, chunk_bytes: int = DEFAULT_CHUNK_BYTES,
           errors: Optional[list] = None) -> Iterator[tuple]:
    """Cuts the inputs of `source` into pieces of whole games at the library's game boundaries: a
    piece ends at the first boundary past `chunk_bytes` bytes or after `chunk_games` games
    (None: no limit on games, and no work per game), whichever comes first.

    Yields ``(file_index, piece, error)``: ``piece`` is an ``_arbiter.Piece`` (text, file,
    first_line, first_offset, ends_at_boundary), ``error`` the read error that ended its input
    after it (a tuple for ``audit_piece``) or None. Inputs that cannot be opened are skipped and
    their ReadError appended to `errors` (raised at once when `errors` is None); so is a read
    error in the middle of an input, which ends that input."""
    for index, p, error, exc in events(source, chunk_games, chunk_bytes):
        if p is None:
            if errors is None:
                raise exc
            errors.append(exc)
            continue
        if exc is not None and errors is not None:
            errors.append(exc)
        yield index, p, error


def _names(x, name: str) -> List[str]:
    """`only` / `select`: a str or an iterable of them; TypeError naming the argument otherwise."""
    if x is None or isinstance(x, str):
        return as_list(x)
    try:
        return list(x)
    except TypeError:
        raise TypeError(f"{name}: expected a str or a list of str, got {type(x).__name__}") from None


def as_list(x) -> List[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


def _check_threads(threads) -> None:
    limit = _arbiter.MAX_AUDIT_THREADS  # the face core's, the CLI's --threads too
    check_type("threads", threads, (int,), f"an int, 1 to {limit}")
    if not 1 <= threads <= limit:
        raise OptionError(f"threads: {threads} is out of range: 1 to {limit}", "bad_value", "threads")


class _Pipeline:
    """The audit of an entry point: the face core's pipeline (``_arbiter.AuditRun``), started when
    the first record is asked for. ``lines()`` yields its jsonl lines in input order and applies
    the error policy where each read error falls, then the "no games" rule."""

    def __init__(self, source, options: AuditOptions, threads: int, chunk_games: Optional[int], policy: Errors):
        self.source, self.options, self.threads, self.chunk_games = source, options, threads, chunk_games
        self.policy = policy
        self.run: Any = None  # the _arbiter.AuditRun, once started

    def lines(self) -> Iterator[bytes]:
        games = _chunk_games(self.chunk_games)
        # errors="raise" reads no input after one that failed, as the audit stops there.
        self.run = _arbiter.AuditRun(_sources(self.source), self.options, self.threads, games,
                                     self.policy.list is None)
        try:
            while (got := self.run.take()) is not None:
                lines, error = got
                yield from lines
                if error is not None:
                    self.policy(error)
            if self.run.no_games:
                self.policy(ReadError(NO_GAMES, "bad_input"))  # the CLI's code and message
        finally:
            self.run.close()


def _records(lines: Iterator[bytes]) -> Iterator[AuditRecord]:
    try:
        for line in lines:
            yield json.loads(line)
    finally:
        lines.close()  # type: ignore[attr-defined]


def audit_lines(source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
                chunk_games: Optional[int] = None, errors: Union[str, list, None] = "raise",
                only: Names = None, select: Names = None, exact: bool = False, **rule_options: Any) -> Run[bytes]:
    """The lines of ``arbiter audit --format jsonl`` on `source` (bytes, each ending in a newline),
    in input order, audited by the face core's pipeline on `threads` threads (without the GIL).
    `only` and `select` are those of ``arbiter audit --only LIST --select TAG=VALUE``; `errors`,
    `exact` and the rule options as for audit()."""
    policy = Errors(errors)
    options = AuditOptions.of(rules, time_category, only, select, exact, **rule_options)
    _check_threads(threads)
    check_source(source)
    pipeline = _Pipeline(source, options, threads, chunk_games, policy)
    return Run(pipeline.lines(), policy, pipeline)


def audit(source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
          chunk_games: Optional[int] = None, only: Names = None, select: Names = None,
          errors: Union[str, list, None] = "raise", exact: bool = False, **rule_options: Any) -> Run[AuditRecord]:
    """Audits PGN games: yields, game by game in input order, the dicts of
    ``arbiter audit --format jsonl`` (``game``, ``game_in_file``, ``file``, ``tags``, ``rules``,
    ``plies``, ``findings``, ``errors``, …).

    `source`: what python-chess users hold — a path (a str or ``os.PathLike``: ``.pgn``,
    ``.pgn.zst``, gzip, bzip2, detected by content), an open file (text or binary), PGN text (a
    str with a line break, or beginning with a tag ``[``, a comment ``{`` or a move number
    ``1.``), bytes, a ``chess.pgn.Game`` — or a list of these (numbered as one input, as the CLI
    numbers several files; all but paths are named ``-`` as standard input is). Anything else is
    a TypeError naming `source`. `rules`: a rule-set id or ``"auto"``
    (each game's Date and Site tags pick it, the CLI's default). `only` (finding types or kinds,
    or "type/kind") and `select` ("TAG=VALUE", all must hold) are ``--only`` and ``--select``: a
    game `select` leaves out is not yielded but keeps its number.

    `errors`: where ``arbiter audit`` exits 2 — an input that cannot be opened or read to its end
    (ZIP, xz, binary data, corrupt compressed data), or no game at all (code ``bad_input``) —
    ``"raise"`` raises the ReadError (code, file, offset) after the games read before it;
    ``"collect"`` goes on with the next input and keeps the errors in the returned iterator's
    ``errors``. The game a read error cut carries it in its record's ``errors``, as with the CLI.

    `exact` is ``arbiter audit --exact``: dead positions (5.2.2) by the full analysis of every
    game's final position, instead of only the closed ones (docs/unwinnability.md, "The audit").

    The rule options of ``arbiter audit`` (RULES.md §1), by name: ``initial_position_counts``
    (bool), ``counters_from_setup`` (``trust_fen``, ``game_start``), ``fifty_extensions`` (e.g.
    ``["KRBvKR=75"]``), ``online_claims`` (fide-online only) and ``intended_mate_incorrect``."""
    policy = Errors(errors)
    options = AuditOptions.of(rules, time_category, only, select, exact, **rule_options)
    _check_threads(threads)
    check_source(source)
    pipeline = _Pipeline(source, options, threads, chunk_games, policy)
    return Run(_records(pipeline.lines()), policy, pipeline)


def read_games(source=None, chunk_games: Optional[int] = None,
               errors: Union[str, list, None] = "raise", *, text: Optional[str] = None) -> Run[Dict[str, Any]]:
    """The games of `source` (as for audit: a path, PGN text, bytes, a binary or text stream such
    as ``io.StringIO(pgn)``, a ``chess.pgn.Game``, or a list of these), or of the PGN `text` given
    by keyword (always text), as the audit reads them: dicts with ``game`` (1-based,
    over all inputs), ``tags``, ``fen`` (the start position, None when it could not be set up),
    ``san`` and ``uci`` (the mainline up to the first error), ``clk_ms`` (the ``[%clk]`` clock
    comment after each of those plies, in milliseconds, None where there is none), ``result`` and
    ``complete``.
    `errors` as for audit() (an input without games yields nothing)."""
    if (source is None) == (text is None):
        raise TypeError("read_games(): give a source (a path, bytes, a stream) or text=PGN, one of the two")
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"text: expected PGN as a str, got {type(text).__name__}")
        source = text.encode("utf-8", "surrogateescape")
    check_source(source)
    policy = Errors(errors)

    def games() -> Iterator[dict]:
        game = 0
        for _, p, _, exc in events(source, chunk_games):
            if p is not None:
                for g in _arbiter.read_games(p.text, p.ends_at_boundary):
                    game += 1
                    del g["index"]
                    yield {"game": game, **g}
            if exc is not None:
                policy(exc)

    return Run(games(), policy)


class Records(List[AuditRecord]):
    """The records of audit_bytes(), a list, with the ReadErrors collected (``errors="collect"``)."""
    errors: list


def audit_bytes(data: bytes, first_game: int = 1, *, name: str = "-", first_game_in_file: Optional[int] = None,
                first_line: int = 1, first_offset: int = 0, last: bool = True, rules: str = "auto",
                time_category: Optional[str] = None, only: Names = None, select: Names = None,
                errors: Union[str, list, None] = "raise", exact: bool = False, **rule_options: Any) -> Records:
    """Audits one chunk of PGN text (whole games): the dicts of ``arbiter audit --format jsonl``
    for its games, numbered from `first_game` (and `first_game_in_file`, by default the same).

    A chunk cut from a larger input just before a game boundary gives, with its `first_line`,
    `first_offset` (where it starts in its file) and ``last=False`` (the input goes on after it),
    exactly the records the whole input gives for those games. `only`, `select`, `exact` and the
    rule options as for audit().
    A chunk that starts its input (`first_offset` 0) and is not text (a ZIP, xz, binary data) is
    the ReadError ``not_text`` of the CLI, under `errors` as for audit()."""
    policy = Errors(errors)
    options = AuditOptions.of(rules, time_category, only, select, exact, **rule_options)
    check_type("data", data, (bytes, bytearray, memoryview), "PGN as bytes")
    check_type("name", name, (str,), "a str")
    for arg, value in (("first_game", first_game), ("first_line", first_line), ("first_offset", first_offset),
                       ("first_game_in_file", first_game if first_game_in_file is None else first_game_in_file)):
        check_type(arg, value, (int,), "an int")
        if not 0 <= value < 2**63:
            raise OptionError(f"{arg}: {value} is out of range", "bad_value", arg)
    out = Records()
    out.errors = policy.list if policy.list is not None else []
    data = bytes(data)
    if first_offset == 0 and (e := sniff(data, name)) is not None:
        policy(e)
        return out
    text, _, _ = _arbiter.audit_piece(data, name, first_line, first_offset, not last, options, False, None)
    in_file = first_game if first_game_in_file is None else first_game_in_file
    out.extend(json.loads(line) for line in _arbiter.number_records(text, first_game, in_file).splitlines())
    return out
