# Stubs of the package arbiter (python/arbiter/__init__.py); see docs/python.md. The pure-Python
# modules (_game, _audit, _frame, types) carry their own annotations.
from typing import Any, Optional

from ._arbiter import Position as Position
from ._audit import (DEFAULT_CHUNK_BYTES as DEFAULT_CHUNK_BYTES, AuditOptions as AuditOptions, Records as Records,
                     Run as Run, audit as audit,
                     audit_bytes as audit_bytes, audit_lines as audit_lines, pieces as pieces,
                     read_games as read_games)
from ._errors import (ClaimError as ClaimError, Error as Error, FenError as FenError, MoveError as MoveError,
                      NoMoveError as NoMoveError, OptionError as OptionError, ReadError as ReadError)
from ._frame import audit_frame as audit_frame
from ._chess_types import Move as Move, Outcome as Outcome, Piece as Piece, Termination as Termination
from ._game import (BLACK as BLACK, DEFAULT_RULES as DEFAULT_RULES, WHITE as WHITE, Game as Game,
                    LegalMoves as LegalMoves, Ply as Ply, move_texts as move_texts)
from ._lang import LANGUAGES as LANGUAGES, get_lang as get_lang, set_lang as set_lang
from .types import Dead

__version__: str
MAX_PERFT_DEPTH: int

def dead(fen: Any, side: str = "both", limit: Optional[int] = None, quick: bool = False,
         timing: bool = False) -> Dead: ...
