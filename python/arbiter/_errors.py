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


def check_option_types(rules: object, time_category: object, initial_position_counts: object,
                       counters_from_setup: object, fifty_extensions: object) -> list:
    """TypeError naming the rule option of a wrong type (Game's and the audit's options), before
    they reach C++; `fifty_extensions` as a list of str."""
    check_type("rules", rules, (str,), "a rule-set id (a str such as 'fide-2023')")
    check_type("time_category", time_category, (str, type(None)), "'standard', 'rapid', 'blitz' or None")
    check_type("initial_position_counts", initial_position_counts, (bool, type(None)), "a bool or None")
    check_type("counters_from_setup", counters_from_setup, (str, type(None)), "'trust_fen', 'game_start' or None")
    if isinstance(fifty_extensions, (str, bytes)):
        raise TypeError(f"fifty_extensions: expected a list of extensions such as ['KRBvKR=75'], got a "
                        f"{type(fifty_extensions).__name__} (put it in a list)")
    try:
        out = list(fifty_extensions)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"fifty_extensions: expected a list of extensions such as ['KRBvKR=75'], got "
                        f"{type(fifty_extensions).__name__}") from None
    for k, x in enumerate(out):
        if not isinstance(x, str):
            raise TypeError(f"fifty_extensions: item {k + 1} is a {type(x).__name__}, expected a str such as 'KRBvKR=75'")
    return out
