"""The exceptions of arbiter: each carries the library's error code, the field and the byte offset."""

from __future__ import annotations

from typing import Optional


class Error(ValueError):
    """Bad input refused by arbiter.

    Attributes: ``code`` (a stable name, e.g. ``"bad_castling"``, ``"illegal"``, ``"corrupt_zstd"``),
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
    """A FEN that cannot be read: ``code`` is the FenError code (``bad_piece``, ``invalid_position``, …),
    ``field`` the FEN field (``placement``, ``castling``, …), ``offset`` the byte in the FEN."""


class MoveError(Error):
    """A move that is not legal here: ``code`` is ``syntax``, ``illegal``, ``ambiguous`` or
    ``game_over``; ``offset`` the byte in the move text."""


class ClaimError(Error):
    """A claim of an unknown kind (``code`` ``bad_kind``)."""


class OptionError(Error):
    """An option with a value arbiter does not know: ``code`` as in the CLI's JSON errors
    (``unknown_rule_set``, ``bad_value``, ``bad_usage``), ``field`` the option."""


class ReadError(Error):
    """An input that cannot be read: ``code`` is the input error code (``cannot_open``,
    ``corrupt_zstd``, ``not_text``, …), ``field`` the path, ``offset`` the byte where it was found."""
