"""python-chess's value types as arbiter gives them: ``Termination``, ``Outcome``, ``Move`` and ``Piece``.

Each has python-chess's names and meanings where the Laws agree, and compares equal to
python-chess's own value of the same meaning when python-chess is installed (``chess.Termination``,
``chess.Outcome``, ``chess.Move``, ``chess.Piece``; a Move or a Piece also hashes as python-chess's
own, so that sets and dicts mix them); arbiter never needs python-chess. Moves and pieces are
python-chess's ``chess.Move`` and ``chess.Piece`` when it can be imported, else arbiter's with the
same fields."""

from __future__ import annotations

import enum
from typing import Any, Optional

_SQUARE_FILES = "abcdefgh"
_PROMOTIONS = {"n": 2, "b": 3, "r": 4, "q": 5}  # python-chess's piece types: KNIGHT 2 … QUEEN 5
_PROMOTION_LETTERS = {v: k for k, v in _PROMOTIONS.items()}


def _is_python_chess(value: Any, name: str) -> bool:
    cls = type(value)
    return cls.__name__ == name and cls.__module__.split(".")[0] == "chess"


class Termination(enum.Enum):
    """How a game ended: python-chess's members (``CHECKMATE``, ``STALEMATE``,
    ``INSUFFICIENT_MATERIAL``, ``SEVENTYFIVE_MOVES``, ``FIVEFOLD_REPETITION``, ``FIFTY_MOVES``,
    ``THREEFOLD_REPETITION``, ``VARIANT_WIN``, ``VARIANT_LOSS``, ``VARIANT_DRAW``) and the Laws' own
    (``DEAD_POSITION``: no sequence of legal moves can mate, 5.2.2, beyond the material alone;
    ``AGREEMENT``, ``RESIGNATION``, ``FLAG_FALL``, ``FORFEIT`` for the endings of a session). Each
    value is arbiter's name of the ending (``status()["termination"]["kind"]``). A member equals
    the python-chess member of the same name (``Termination.CHECKMATE == chess.Termination.CHECKMATE``)
    and hashes as it does."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    SEVENTYFIVE_MOVES = "seventy_five_moves"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    FIFTY_MOVES = "fifty_moves"
    THREEFOLD_REPETITION = "threefold_repetition"
    VARIANT_WIN = "variant_win"
    VARIANT_LOSS = "variant_loss"
    VARIANT_DRAW = "variant_draw"
    DEAD_POSITION = "dead_position"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    FLAG_FALL = "flag_fall"
    FORFEIT = "forfeit"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Termination):
            return self is other
        if isinstance(other, enum.Enum) and _is_python_chess(other, "Termination"):
            return self.name == other.name
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)  # as enum.Enum hashes python-chess's members


class Outcome:
    """How the game ended, as python-chess's ``Outcome``: `termination` a Termination, `winner`
    ``True`` (White, ``chess.WHITE``), ``False`` (Black) or ``None`` (a draw), ``result()`` the
    PGN result; and the Laws' `article` that ends it. Equal to python-chess's Outcome with the same
    termination and winner; two arbiter Outcomes are equal when the article is the same too."""

    __slots__ = ("termination", "winner", "article")

    def __init__(self, termination: Termination, winner: Optional[bool], article: str = "") -> None:
        self.termination = termination
        self.winner = winner
        self.article = article

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Outcome):
            return (self.termination, self.winner, self.article) == (other.termination, other.winner, other.article)
        if _is_python_chess(other, "Outcome"):
            return self.termination == getattr(other, "termination") and self.winner == getattr(other, "winner")
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.termination, self.winner))

    def __repr__(self) -> str:
        return (f"Outcome(termination={self.termination!s}, winner={self.winner!r}, "
                f"article={self.article!r})")


def _square(name: str) -> int:
    return _SQUARE_FILES.index(name[0]) + 8 * (int(name[1]) - 1)


class Move:
    """A move as python-chess's ``chess.Move`` has it: `from_square` and `to_square` (0 = a1 …
    63 = h8), `promotion` (a piece type, 2 knight … 5 queen, or None), `drop` (always None),
    ``uci()``. arbiter gives these only when python-chess cannot be imported; it compares equal
    to a ``chess.Move`` with the same UCI and hashes as it does (``arbiter.Move.from_uci("e2e4") in
    {chess.Move.from_uci("e2e4")}`` and the other way round)."""

    __slots__ = ("from_square", "to_square", "promotion", "drop")

    def __init__(self, from_square: int, to_square: int, promotion: Optional[int] = None,
                 drop: Optional[int] = None) -> None:
        self.from_square = from_square
        self.to_square = to_square
        self.promotion = promotion
        self.drop = drop

    @classmethod
    def from_uci(cls, uci: str) -> "Move":
        """The move of a UCI string (``e2e4``, ``e7e8q``); ``0000`` is the null move."""
        if not isinstance(uci, str):
            raise TypeError(f"uci: expected a str, got {type(uci).__name__}")
        if uci == "0000":
            return cls.null()
        if len(uci) not in (4, 5) or uci[0] not in _SQUARE_FILES or uci[2] not in _SQUARE_FILES or \
                uci[1] not in "12345678" or uci[3] not in "12345678" or (len(uci) == 5 and uci[4] not in _PROMOTIONS):
            raise ValueError(f"invalid uci: {uci!r}")
        return cls(_square(uci[0:2]), _square(uci[2:4]), _PROMOTIONS[uci[4]] if len(uci) == 5 else None)

    @classmethod
    def null(cls) -> "Move":
        """The null move (``0000``): no move at all, which arbiter never plays."""
        return cls(0, 0)

    def uci(self) -> str:
        if not self:
            return "0000"
        s = (_SQUARE_FILES[self.from_square % 8] + str(self.from_square // 8 + 1) + _SQUARE_FILES[self.to_square % 8]
             + str(self.to_square // 8 + 1))
        return s + (_PROMOTION_LETTERS[self.promotion] if self.promotion else "")

    def __bool__(self) -> bool:
        return bool(self.from_square or self.to_square or self.promotion or self.drop)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move) or _is_python_chess(other, "Move"):
            return self.uci() == other.uci()  # type: ignore[union-attr]
        return NotImplemented

    def __hash__(self) -> int:
        # As python-chess's Move (a dataclass hashed by its fields in order), so that equal moves
        # of either kind find each other in sets and dicts.
        return hash((self.from_square, self.to_square, self.promotion, self.drop))

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"


_PIECE_LETTERS = "pnbrqk"  # python-chess's piece types: PAWN 1 … KING 6


class Piece:
    """A piece as python-chess's ``chess.Piece`` has it: `piece_type` (1 pawn … 6 king) and `color`
    (True White, False Black), ``symbol()`` (``P`` … ``k``), ``str()`` its symbol. arbiter gives
    these only when python-chess cannot be imported; equal to the ``chess.Piece`` of the same
    symbol, and hashing as it does."""

    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type: int, color: bool) -> None:
        self.piece_type = piece_type
        self.color = color

    @classmethod
    def from_symbol(cls, symbol: str) -> "Piece":
        """The piece of a symbol: ``P``, ``N``, ``B``, ``R``, ``Q``, ``K`` White, lower case Black."""
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol.lower() not in _PIECE_LETTERS:
            raise ValueError(f"symbol: expected one of PNBRQK or pnbrqk, got {symbol!r}")
        return cls(_PIECE_LETTERS.index(symbol.lower()) + 1, symbol.isupper())

    def symbol(self) -> str:
        """``P``, ``N``, ``B``, ``R``, ``Q`` or ``K`` for White, lower case for Black."""
        letter = _PIECE_LETTERS[self.piece_type - 1]
        return letter.upper() if self.color else letter

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Piece) or _is_python_chess(other, "Piece"):
            return (self.piece_type, self.color) == (other.piece_type, other.color)  # type: ignore[union-attr]
        return NotImplemented

    def __hash__(self) -> int:
        return self.piece_type + (-1 if self.color else 5)  # as python-chess's Piece hashes

    def __str__(self) -> str:
        return self.symbol()

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"


_chess_move: Any = None
_chess_piece: Any = None


def piece_of(symbol: str) -> Any:
    """A ``chess.Piece`` when python-chess can be imported, else arbiter's Piece."""
    global _chess_piece
    if _chess_piece is None:
        try:
            import chess  # noqa: F401  (optional: arbiter never needs it)
            _chess_piece = chess.Piece.from_symbol
        except ImportError:
            _chess_piece = Piece.from_symbol
    return _chess_piece(symbol)


def move_of_uci(uci: str) -> Any:
    """A ``chess.Move`` when python-chess can be imported, else arbiter's Move."""
    global _chess_move
    if _chess_move is None:
        try:
            import chess  # noqa: F401  (optional: arbiter never needs it)
            _chess_move = chess.Move.from_uci
        except ImportError:
            _chess_move = Move.from_uci
    return _chess_move(uci)
