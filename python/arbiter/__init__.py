"""arbiter — the draw rules of the Laws of Chess, exactly (Python bindings of the C++ library).

Every dict returned is the JSON object the command-line tool prints for the same thing:
``Game.status()`` is ``arbiter status --json``, ``Game.claim()`` is ``arbiter claim --json``,
``dead()`` is ``arbiter dead --json`` and ``audit()`` yields the records of
``arbiter audit --format jsonl``. See docs/python.md.
"""

from __future__ import annotations

import collections
import concurrent.futures
import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from ._errors import ClaimError, Error, FenError, MoveError, OptionError, ReadError
from . import _arbiter
from ._arbiter import Game, Position

__all__ = [
    "Position", "Game", "dead", "audit", "audit_bytes", "audit_lines", "read_games", "pieces",
    "Error", "FenError", "MoveError", "ClaimError", "OptionError", "ReadError",
]

#: A piece ends at the first game boundary past this many bytes (unless `chunk_games` ends it first).
DEFAULT_CHUNK_BYTES = 1 << 20
_READ_SIZE = 1 << 18


def dead(fen: str, side: str = "both", limit: Optional[int] = None, quick: bool = False,
         timing: bool = False) -> Dict[str, Any]:
    """Can a side still checkmate by any series of legal moves (FIDE 5.2.2, 6.9)?

    Returns the dict of ``arbiter dead --json [--side SIDE] [--limit N] [--quick] --fen FEN``;
    composed positions are accepted as the command accepts them. Releases the GIL."""
    return _arbiter.dead(fen, side, limit, quick, timing)


class _Numbering:
    """Game numbers as ``arbiter audit`` writes them: over all inputs, and within each file."""

    def __init__(self, first_game: int = 1):
        self.game = first_game - 1
        self.in_file = 0
        self.file_index = None

    def lines(self, file_index: int, text: bytes, games: int) -> bytes:
        """The lines of a piece's audit (``audit_piece``: `games` games of input `file_index`) with
        their numbers, as one bytes object."""
        if file_index != self.file_index:
            self.file_index = file_index
            self.in_file = 0
        out = _arbiter.number_records(text, self.game + 1, self.in_file + 1)
        self.game += games
        self.in_file += games
        return out


def _error_tuple(e: ReadError):
    return (e.code, e.field or "", e.offset or 0, _message_of(e))


def _message_of(e: ReadError) -> str:
    # describe() is "path: message" (and more); the InputError's own message is what follows the path
    text = e.message
    prefix = (e.field or "") + ": "
    return text[len(prefix):] if text.startswith(prefix) else text


def _sources(source) -> Iterator[tuple]:
    """(name, reader-like) for each input of `source`."""
    if isinstance(source, (str, os.PathLike)):
        yield os.fspath(source), None
    elif isinstance(source, (bytes, bytearray, memoryview)):
        yield "-", bytes(source)
    elif hasattr(source, "read"):
        yield "-", source
    else:
        for s in source:
            yield from _sources(s)


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
    games = chunk_games or 0
    for index, (name, src) in enumerate(_sources(source)):
        if src is None or isinstance(src, bytes):
            # Read, decompressed and cut in C++: one call per piece.
            try:
                reader = (_arbiter.PieceReader(name, games, chunk_bytes) if src is None
                          else _arbiter.PieceReader(src, name, games, chunk_bytes))
            except ReadError as e:
                if errors is None:
                    raise
                errors.append(e)
                continue
            while (p := reader.next()) is not None:
                if p.error is not None and errors is not None:
                    errors.append(reader.error)
                yield index, p, p.error
            continue
        cutter = _arbiter.Cutter(name, games, chunk_bytes)
        error = None
        while True:
            try:
                data = src.read(_READ_SIZE)
            except ReadError as e:
                if errors is not None:
                    errors.append(e)
                error = _error_tuple(e)
                break
            if isinstance(data, str):
                data = data.encode("utf-8", "surrogateescape")
            if not data:
                break
            for p in cutter.feed(data):
                yield index, p, None
        # A read error is carried by the last piece, empty if need be (as the CLI's last batch).
        rest = cutter.finish(error is not None)
        for k, p in enumerate(rest):
            last = k == len(rest) - 1
            yield index, p, (error if last else None)


def _audit_piece(p, error, rules, time_category, only=(), select=()):
    return _arbiter.audit_piece(p.text, p.file, p.first_line, p.first_offset, p.ends_at_boundary,
                                rules, time_category, False, error, list(only), list(select))


def _as_list(x) -> List[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


def audit_lines(source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
                chunk_games: Optional[int] = None, errors: Optional[list] = None,
                only: Union[str, Iterable[str], None] = None,
                select: Union[str, Iterable[str], None] = None) -> Iterator[bytes]:
    """The lines of ``arbiter audit --format jsonl`` on `source` (bytes, each ending in a newline),
    in input order, with `threads` pieces audited at a time (the GIL is released while they are).
    `only` and `select` are those of ``arbiter audit --only LIST --select TAG=VALUE``."""
    only, select = _as_list(only), _as_list(select)
    numbering = _Numbering()
    if threads <= 1:
        for index, p, error in pieces(source, chunk_games, errors=errors):
            text, games, _ = _audit_piece(p, error, rules, time_category, only, select)
            yield from numbering.lines(index, text, games).splitlines(keepends=True)
        return
    window = collections.deque()
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        def drain(limit):
            while len(window) > limit:
                index, fut = window.popleft()
                text, games, _ = fut.result()
                yield from numbering.lines(index, text, games).splitlines(keepends=True)
        for index, p, error in pieces(source, chunk_games, errors=errors):
            window.append((index, pool.submit(_audit_piece, p, error, rules, time_category, only, select)))
            yield from drain(2 * threads)
        yield from drain(0)


def audit(source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
          chunk_games: Optional[int] = None, only: Union[str, Iterable[str], None] = None,
          select: Union[str, Iterable[str], None] = None) -> Iterator[Dict[str, Any]]:
    """Audits PGN games: yields, game by game in input order, the dicts of
    ``arbiter audit --format jsonl`` (``game``, ``game_in_file``, ``file``, ``tags``, ``rules``,
    ``plies``, ``findings``, ``errors``, …).

    `source`: a path (``.pgn``, ``.pgn.zst``, gzip, bzip2: detected by content), bytes, a text or
    binary stream, or a list of these (numbered as one input, as the CLI numbers several files;
    bytes and streams are named ``-`` as standard input is). `rules`: a rule-set id or ``"auto"``
    (each game's Date and Site tags pick it, the CLI's default). `only` (finding types or kinds,
    or "type/kind") and `select` ("TAG=VALUE", all must hold) are ``--only`` and ``--select``: a
    game `select` leaves out is not yielded but keeps its number. Raises ReadError for an input that
    cannot be opened; a read error in the middle ends that input after the games before it (the
    game it cut carries the error in its ``errors``, as with the CLI)."""
    for line in audit_lines(source, rules, threads, time_category, chunk_games, only=only, select=select):
        yield json.loads(line)


def read_games(source, chunk_games: Optional[int] = None) -> Iterator[Dict[str, Any]]:
    """The games of `source` (as for audit) as the audit reads them: dicts with ``game`` (1-based,
    over all inputs), ``tags``, ``fen`` (the start position, None when it could not be set up),
    ``san`` and ``uci`` (the mainline up to the first error), ``result`` and ``complete``."""
    game = 0
    for _, p, _ in pieces(source, chunk_games):
        for g in _arbiter.read_games(p.text, p.ends_at_boundary):
            game += 1
            del g["index"]
            yield {"game": game, **g}


def audit_bytes(data: bytes, first_game: int = 1, *, name: str = "-", first_game_in_file: Optional[int] = None,
                first_line: int = 1, first_offset: int = 0, last: bool = True, rules: str = "auto",
                time_category: Optional[str] = None, only: Union[str, Iterable[str], None] = None,
                select: Union[str, Iterable[str], None] = None) -> List[Dict[str, Any]]:
    """Audits one chunk of PGN text (whole games): the dicts of ``arbiter audit --format jsonl``
    for its games, numbered from `first_game` (and `first_game_in_file`, by default the same).

    A chunk cut from a larger input just before a game boundary gives, with its `first_line`,
    `first_offset` (where it starts in its file) and ``last=False`` (the input goes on after it),
    exactly the records the whole input gives for those games. `only` and `select` as for audit()."""
    text, _, _ = _arbiter.audit_piece(bytes(data), name, first_line, first_offset, not last, rules,
                                      time_category, False, None, _as_list(only), _as_list(select))
    in_file = first_game if first_game_in_file is None else first_game_in_file
    return [json.loads(line) for line in _arbiter.number_records(text, first_game, in_file).splitlines()]
