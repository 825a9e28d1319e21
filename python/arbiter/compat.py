"""python-chess's names over arbiter, for programs written against python-chess: change only the
import (``import chess`` and ``import chess.pgn`` become ``import arbiter.compat as chess``) and
the program runs on arbiter, with the Laws' answers (docs/python.md, "A drop-in for python-chess").

``Board`` is an ``arbiter.Game`` built as python-chess builds a board (``Board()``,
``Board(fen)``), with python-chess's methods for a game (push/pop, ``san``, ``fen``,
``legal_moves``, the draw predicates, ``outcome``, ``result``, …) and its printed form;
``pgn.read_game(handle)`` reads the next game of an open PGN file as python-chess's does
(``headers``, ``board()``, ``mainline_moves()``, ``errors``); ``Move``, ``Piece``, the squares
(``E4``, ``square_name``, …), the colours and piece types are python-chess's values. What a board
cannot do on arbiter (setting up pieces, variants, Chess960) is not here: an AttributeError, or
``Error`` ``bad_value`` for ``Board(chess960=True)``."""

from __future__ import annotations

import types as _types
import weakref as _weakref
from typing import Any, Dict, List, Optional

from ._chess_types import Move, Outcome, Piece, Termination, move_of_uci
from ._errors import Error, MoveError
from ._game import BLACK, DEFAULT_RULES, WHITE, Game, LegalMoves

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
COLORS = [WHITE, BLACK]
COLOR_NAMES = ["black", "white"]
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_TYPES = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8"]
SQUARES = list(range(64))
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
globals().update({name.upper(): k for k, name in enumerate(SQUARE_NAMES)})  # A1 = 0 … H8 = 63

# python-chess raises these from parse_san/push_san/push_uci; arbiter's MoveError (a ValueError,
# as theirs) is all three, its ``code`` telling them apart (bad_move, illegal_move, ambiguous_move).
InvalidMoveError = IllegalMoveError = AmbiguousMoveError = MoveError


def square(file_index: int, rank_index: int) -> int:
    """The square of a file (0 = a) and a rank (0 = 1st)."""
    return rank_index * 8 + file_index


def square_file(sq: int) -> int:
    """The file of a square, 0 (a) to 7 (h)."""
    return sq & 7


def square_rank(sq: int) -> int:
    """The rank of a square, 0 (1st) to 7 (8th)."""
    return sq >> 3


def square_name(sq: int) -> str:
    """The name of a square: ``e4``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """The square of a name (``e4``); ValueError for anything else."""
    return SQUARE_NAMES.index(name)


def piece_symbol(piece_type: int) -> str:
    """The lower-case letter of a piece type."""
    return PIECE_SYMBOLS[piece_type]  # type: ignore[return-value]


def piece_name(piece_type: int) -> str:
    """The name of a piece type: ``knight``."""
    return PIECE_NAMES[piece_type]  # type: ignore[return-value]


class Board(Game):
    """python-chess's ``chess.Board`` on arbiter: ``Board()`` the initial position, ``Board(fen)``
    a position (``fen`` may be another board: its moves are kept, as ``arbiter.Game(board)``),
    then arbiter.Game's rule options by name. A game: the moves played count for the draw rules,
    under `rules` (``DEFAULT_RULES``). ``chess960=True`` is refused (``Error`` ``bad_value``)."""

    def __init__(self, fen: Any = STARTING_FEN, moves: Any = None, rules: str = DEFAULT_RULES, *options: Any,
                 chess960: bool = False, **named: Any) -> None:
        if chess960:
            raise Error("chess960: arbiter rules on standard chess only (the Laws of Chess)", "bad_value", "chess960")
        if fen is None:
            raise Error("fen: an empty board (Board(None)) has no kings: not a position of the Laws; set up a "
                        "position by its FEN", "bad_fen", "fen")
        super().__init__(fen, moves, rules, *options, **named)

    def copy(self, *, stack: bool = True) -> "Board":  # type: ignore[override]
        """A copy (python-chess's ``copy``): with the moves played, or with ``stack=False`` the
        current position alone."""
        return super().copy() if stack else type(self)(self.fen(), None, *self._options)

    def __str__(self) -> str:
        """The board as python-chess prints it: ranks 8 to 1, a piece's letter or ``.``."""
        rows = []
        for row in self.board_fen().split("/"):
            cells: List[str] = []
            for c in row:
                cells.extend("." * int(c) if c.isdigit() else c)
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board('{self.fen()}')"


class _GameNode:
    """The end of a game's mainline (python-chess's ``game.end()``): ``board()``."""

    def __init__(self, game: "PgnGame") -> None:
        self._game = game

    def board(self) -> Board:
        """The board after the mainline."""
        board = self._game.board()
        for m in self._game.mainline_moves():
            board.push(m)
        return board


class PgnGame:
    """A game of a PGN file as python-chess's ``chess.pgn.Game`` gives it: ``headers`` (a dict of
    the tags), ``board()`` (its start), ``mainline_moves()``, ``errors`` (what stopped the reading,
    empty when the whole mainline was read and played), ``end().board()``; ``str()`` is its PGN as
    read. Variations and comments are not kept."""

    def __init__(self, text: str, read: Dict[str, Any]) -> None:
        self._text = text
        self.headers: Dict[str, str] = dict(read["tags"])
        self._fen = read["fen"]
        self._uci: List[str] = read["uci"]
        self.errors: List[Exception] = []
        if not read["complete"]:
            self.errors.append(Error(f"the mainline stops at ply {len(self._uci) + 1}: it cannot be read or played "
                                     f"there", "bad_pgn", "pgn"))

    def board(self) -> Board:
        """The start position of the game."""
        return Board(self._fen or STARTING_FEN)

    def mainline_moves(self) -> List[Any]:
        """The moves of the mainline (as far as they could be read and played)."""
        return [move_of_uci(u) for u in self._uci]

    def end(self) -> _GameNode:
        """The end of the mainline (``end().board()``)."""
        return _GameNode(self)

    def __str__(self) -> str:
        return self._text


_pushed_back: "_weakref.WeakKeyDictionary[Any, str]" = _weakref.WeakKeyDictionary()


def read_game(handle: Any) -> Optional[PgnGame]:
    """The next game of an open PGN file (text or binary), as python-chess's
    ``chess.pgn.read_game``: None at the end. The game's lines are read up to the tags of the next
    game (a line read too far is kept for the next call with the same handle)."""
    lines: List[str] = []
    in_moves = False
    in_comment = False  # within a { } comment, which may hold lines that start with "["
    pending = _pushed_back.pop(handle, None) if _weakrefable(handle) else None
    while True:
        if pending is not None:
            line, pending = pending, None
        else:
            line = handle.readline()
            if isinstance(line, bytes):
                line = line.decode("utf-8", "replace")
        if not line:
            break
        stripped = line.strip()
        if in_comment:
            pass
        elif stripped.startswith("["):
            if in_moves:  # the next game's tags
                if _weakrefable(handle):
                    _pushed_back[handle] = line
                break
        elif stripped and not stripped.startswith("%"):
            in_moves = True
        if not stripped.startswith("[") or in_comment:
            in_comment = _still_in_comment(line, in_comment)
        if lines or stripped:
            lines.append(line)
    if not lines:
        return None
    from ._audit import read_games
    text = "".join(lines)
    for g in read_games(text=text):
        return PgnGame(text, g)
    return PgnGame(text, {"tags": {}, "fen": None, "uci": [], "complete": True})


def _still_in_comment(line: str, in_comment: bool) -> bool:
    """Whether a { } comment is open at the end of `line` of movetext (a ; comment ends with it)."""
    for c in line:
        if in_comment:
            in_comment = c != "}"
        elif c == "{":
            in_comment = True
        elif c == ";":
            break
    return in_comment


def _weakrefable(x: Any) -> bool:
    try:
        _weakref.ref(x)
        return True
    except TypeError:
        return False


#: ``chess.pgn`` as a python-chess program uses it: ``chess.pgn.read_game(handle)``, ``chess.pgn.Game``.
pgn = _types.SimpleNamespace(read_game=read_game, Game=PgnGame)

__all__ = ["Board", "Move", "Piece", "Outcome", "Termination", "LegalMoves", "WHITE", "BLACK", "COLORS",
           "COLOR_NAMES", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING", "PIECE_TYPES", "PIECE_SYMBOLS",
           "PIECE_NAMES", "FILE_NAMES", "RANK_NAMES", "SQUARES", "SQUARE_NAMES", "STARTING_FEN",
           "STARTING_BOARD_FEN", "square", "square_file", "square_rank", "square_name", "parse_square",
           "piece_symbol", "piece_name", "pgn", "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError"]
