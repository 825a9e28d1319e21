"""arbiter — the draw rules of the Laws of Chess, exactly (Python bindings of the C++ library).

Every dict returned is the JSON object the command-line tool prints for the same thing:
``Game.status()`` is ``arbiter status --json``, ``Game.claim()`` is ``arbiter claim --json``,
``dead()`` is ``arbiter dead --json`` and ``audit()`` yields the records of
``arbiter audit --format jsonl`` (their keys as TypedDicts in ``arbiter.types``). ``Game`` and
``Position`` take python-chess boards and moves and give them back (``to_board()``), and ``Game``
answers python-chess's questions (``is_checkmate()``, ``can_claim_draw()``, ``outcome()``, …)
from the same decision as ``status()``. See docs/python.md.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ._errors import ClaimError, Error, FenError, MoveError, NoMoveError, OptionError, ReadError, check_type
from . import _arbiter
from ._arbiter import Position
from ._audit import (DEFAULT_CHUNK_BYTES, AuditOptions, Records, Run, audit, audit_bytes, audit_lines, pieces,
                     read_games)
from ._frame import audit_frame
from ._chess_types import Move, Outcome, Piece, Termination
from ._game import BLACK, DEFAULT_RULES, WHITE, Game, LegalMoves, Ply, move_texts
from ._lang import LANGUAGES, get_lang, set_lang
from .types import Dead

#: The library's version, as ``arbiter --version`` prints it (CMakeLists.txt's project()).
__version__: str = _arbiter.__version__
#: The deepest ``Position.perft`` (the face core's limit, the same in the CLI and JavaScript).
MAX_PERFT_DEPTH: int = _arbiter.MAX_PERFT_DEPTH

__all__ = [
    "Position", "Game", "Outcome", "Termination", "Move", "Piece", "LegalMoves", "Ply", "WHITE", "BLACK", "dead", "audit", "audit_bytes", "audit_lines", "audit_frame", "read_games",
    "pieces", "move_texts", "Run", "Records", "AuditOptions", "Error", "FenError", "MoveError", "NoMoveError",
    "ClaimError", "OptionError", "ReadError", "DEFAULT_CHUNK_BYTES", "DEFAULT_RULES", "MAX_PERFT_DEPTH",
    "OPERATIONS", "request", "LANGUAGES", "get_lang", "set_lang", "__version__",
]

#: The operations request() answers: the face core's registry (status, claim, dead, moves, play,
#: perft), the service's ``POST /api/v1/OPERATION`` and JavaScript's ``request()``.
OPERATIONS: tuple = tuple(_arbiter.OPERATIONS)


def request(operation: str, request: Optional[Dict[str, Any]] = None, /, **keys: Any) -> Dict[str, Any]:
    """An operation of the face core by name, with the keys of its request as the service's
    ``POST /api/v1/OPERATION`` body and JavaScript's ``request(operation, request)`` take them
    (docs/api.md): a dict and/or keyword arguments (``request("perft", depth=3)``). The answer is
    the dict that service and CLI give; a refusal raises with the core's code and field (Error
    ``not_found`` for an operation not in OPERATIONS). Releases the GIL."""
    check_type("operation", operation, (str,), "an operation name such as 'status'")
    if request is not None and not isinstance(request, dict):
        raise TypeError(f"request: expected a dict of the request's keys, got {type(request).__name__}")
    return _arbiter.answer(operation, {**(request or {}), **keys})


def dead(fen: str, side: str = "both", limit: Optional[int] = None, quick: bool = False,
         timing: bool = False, *, fast: bool = False) -> Dead:
    """Can a side still checkmate by any series of legal moves (FIDE 5.2.2, 6.9)?

    Returns the dict of ``arbiter dead --json [--side SIDE] [--limit N] [--quick|--fast] --fen FEN``
    (`fast`: the sound fast check alone, about a microsecond: cannot_checkmate only with a proof);
    composed positions are accepted as the command accepts them. `fen` may be a board with
    ``fen()`` (a ``chess.Board``, an ``arbiter.Position``). The face core's dead request (as the
    service's and JavaScript's): its refusals carry the core's codes. Releases the GIL."""
    if not isinstance(fen, str) and callable(getattr(fen, "fen", None)):
        fen = fen.fen()
    check_type("fen", fen, (str,), "a FEN string or a board with fen()")
    check_type("side", side, (str,), "'white', 'black' or 'both'")
    check_type("limit", limit, (int, type(None)), "a number of positions (int) or None")
    if limit is not None and not -2**63 <= limit < 2**63:  # past C++'s integers: out of range all the same
        spec = next(o for o in _arbiter.REQUEST_OPTIONS if o["name"] == "limit")
        raise OptionError(f"limit: {limit} is out of range: {spec['min']} to {spec['max']}", "bad_value", "limit")
    return _arbiter.dead(fen, side, limit, bool(quick), bool(fast), bool(timing))
