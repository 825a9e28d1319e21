"""The exceptions of arbiter: each carries the library's error code, the field and the byte offset."""

from __future__ import annotations

from typing import Optional


class Error(ValueError):
    """Bad input refused by arbiter.

    Attributes: ``code`` (the face core's stable name, the same from the CLI, the service and
    JavaScript: e.g. ``"bad_fen"``, ``"illegal_move"``, ``"corrupt_zstd"``),
    ``field`` (what was wrong: a FEN field, ``"move"``, an option name, a path) and ``offset`` (the
    byte offset where the problem starts, or None)."""

    def __init__(self, message: str, code: str, field: Optional[str] = None, offset: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        self.offset = offset

    def __reduce__(self):  # picklable, so that errors cross process boundaries (Dask)
        return (type(self), (self.message, self.code, self.field, self.offset))


class FenError(Error):
    """A FEN that cannot be read: ``code`` ``bad_fen`` (``bad_position`` from dead()), ``field``
    ``fen``, ``offset`` the byte in the FEN; the message says which FEN field is wrong."""


class MoveError(Error):
    """A move that cannot be played: ``code`` ``bad_move`` (not a move), ``illegal_move``,
    ``ambiguous_move`` or ``game_over``; ``field`` ``move`` (``moves`` for Game's `moves`,
    ``intended`` for a claim's), ``offset`` the byte there."""


class NoMoveError(MoveError, IndexError):
    """Game.pop() with no move to take back: ``code`` ``no_move``. Also an IndexError, as
    python-chess's ``Board.pop()`` raises."""


class ClaimError(Error):
    """A claim of an unknown kind: ``code`` ``bad_field``, ``field`` ``kind``."""


class OptionError(Error):
    """An option with a value arbiter does not know: ``code`` as in the CLI's JSON errors
    (``unknown_rule_set``, ``bad_value``, ``bad_usage``, ``bad_field``), ``field`` the option."""


class ReadError(Error):
    """An input that cannot be read: ``code`` is the input error code (``cannot_open``,
    ``corrupt_zstd``, ``not_text``, …), ``field`` the path, ``offset`` the byte where it was found."""


def check_type(name: str, value: object, kinds: tuple, expected: str) -> None:
    """TypeError naming the argument unless `value` is one of `kinds` (a bool is no int here)."""
    if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
        return
    raise TypeError(f"{name}: expected {expected}, got {type(value).__name__}")
