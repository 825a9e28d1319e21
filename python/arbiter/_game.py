"""arbiter.Game: the C++ game record with the Python protocols (moves as people write them,
python-chess boards and moves in and out, copy, pickle) and python-chess's predicate names, each
read from the one decision of status()."""

from __future__ import annotations

from typing import Any, Iterable, List, NamedTuple, Optional, Union

from . import _arbiter
from ._arbiter import Position
from .types import Claim, Status


class Outcome(NamedTuple):
    """How the game ended (python-chess's ``Outcome``, with arbiter's names): `termination` is the
    kind of ``status()["termination"]`` (``checkmate``, ``stalemate``, ``dead_position``,
    ``fivefold_repetition``, ``seventy_five_moves``, …, or ``threefold_repetition`` /
    ``fifty_moves`` for a correct claim with ``claim_draw=True``), `winner` ``"white"``,
    ``"black"`` or None, `result` ``1-0``, ``0-1`` or ``1/2-1/2`` and `article` the article of the
    Laws that ends it."""

    termination: str
    winner: Optional[str]
    result: str
    article: str


def _type_name(x: Any) -> str:
    return type(x).__name__


def move_texts(moves: Any) -> List[str]:
    """The moves of `moves` as SAN/UCI strings: a string read as ``--moves`` reads it (move
    numbers, comments and a result left out), or an iterable of such strings and of move objects
    with ``uci()`` (python-chess's ``chess.Move``). TypeError names the item that is neither."""
    if moves is None:
        return []
    if isinstance(moves, str):
        return _arbiter.move_tokens(moves)
    try:
        items = iter(moves)
    except TypeError:
        raise TypeError(f"moves: expected a string of moves, or an iterable of SAN/UCI strings or of "
                        f"moves with uci() (chess.Move), got {_type_name(moves)}") from None
    out: List[str] = []
    for k, m in enumerate(items):
        if isinstance(m, str):
            out.extend(_arbiter.move_tokens(m))
        elif callable(getattr(m, "uci", None)):
            out.append(str(m.uci()))
        else:
            raise TypeError(f"moves: item {k + 1} is a {_type_name(m)}, expected a SAN/UCI string or a move "
                            f"with uci() (chess.Move)")
    return out


def _fen_text(fen: Any) -> Optional[str]:
    if fen is None or isinstance(fen, str):
        return fen
    if callable(getattr(fen, "fen", None)):
        return str(fen.fen())
    raise TypeError(f"fen: expected a FEN string, None or a board with fen(), got {_type_name(fen)}")


MoveLike = Union[str, Any]

#: The rule set of a game when none is named: the face core's (``_arbiter.DEFAULT_RULES``).
DEFAULT_RULES: str = _arbiter.DEFAULT_RULES


def _moves_arg(moves: Any) -> Union[str, List[str]]:
    # A string goes to the core as it is (as --moves takes it: an error's offset is a byte in it).
    return moves if isinstance(moves, str) else move_texts(moves)


class Game(_arbiter.Game):
    """A game under a rule set: the moves played, its draw status and the rulings on claims.

    ``Game(fen=None, moves=None, rules=DEFAULT_RULES, ...)``: `fen` a FEN (or a board with
    ``fen()``); `moves` a string as ``--moves`` takes it ("1. e4 e5 2. Nf3"), or an iterable of
    SAN/UCI strings and of ``chess.Move``-like objects (with ``uci()``); the options are the CLI's
    rule flags (docs/python.md). Copyable, picklable, and with python-chess's predicates. The game
    is the face core's LiveGame: its refusals carry the core's codes (docs/python.md, "Errors")."""

    def __init__(self, fen: Any = None, moves: Any = None, rules: str = DEFAULT_RULES,
                 time_category: Optional[str] = None, initial_position_counts: Optional[bool] = None,
                 counters_from_setup: Optional[str] = None, fifty_extensions: Iterable[str] = (),
                 online_claims: bool = False, intended_mate_incorrect: bool = False) -> None:
        fen = _fen_text(fen)
        options = (rules, time_category, initial_position_counts, counters_from_setup, list(fifty_extensions),
                   bool(online_claims), bool(intended_mate_incorrect))
        super().__init__(fen, _moves_arg(moves), *options)
        self._fen = fen
        self._options = options
        self._version = 0
        self._status: Optional[tuple] = None

    # ---- python-chess in and out ----

    @classmethod
    def from_board(cls, board: Any, rules: str = DEFAULT_RULES, **options: Any) -> "Game":
        """The game of a ``chess.Board`` (duck-typed): its root position (``root().fen()``) and its
        move stack (``move_stack``, each move's ``uci()``), so that repetitions before the board's
        position count. A board without ``root()`` is taken as a start position with no moves."""
        stack = list(getattr(board, "move_stack", None) or [])
        root = board.root() if callable(getattr(board, "root", None)) else None
        if root is None:
            return cls(_fen_text(board), None, rules, **options)
        return cls(_fen_text(root), stack, rules, **options)

    def to_board(self) -> Any:
        """A ``chess.Board`` with this game's start position and moves (needs python-chess:
        ImportError otherwise)."""
        board = self.start.to_board()
        for m in self.uci_history:
            board.push_uci(m)
        return board

    # ---- moves ----

    def push(self, move: MoveLike) -> None:
        """Plays a legal move: SAN or UCI text, or a move with ``uci()`` (``chess.Move``). Raises
        MoveError (``bad_move``, ``illegal_move``, ``ambiguous_move``, ``game_over``)."""
        if not isinstance(move, str):
            if not callable(getattr(move, "uci", None)):
                raise TypeError(f"push(): expected a SAN/UCI string or a move with uci(), got {_type_name(move)}")
            move = str(move.uci())
        super().push(move)
        self._version += 1

    def pop(self) -> str:
        """Takes back the last ply (as python-chess's ``Board.pop()``); returns its SAN. NoMoveError
        (code ``no_move``; an IndexError too) when no move has been played."""
        san = super().pop()
        self._version += 1
        return san

    # ---- the Python object protocol ----

    def _args(self) -> tuple:
        return (self._fen, self.uci_history) + self._options

    def copy(self) -> "Game":
        """An independent copy: the same start, moves and rule options."""
        return type(self)(*self._args())

    def __copy__(self) -> "Game":
        """copy()."""
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "Game":
        """copy(): a game holds no shared objects."""
        return self.copy()

    def __reduce__(self):
        """Pickles as the start FEN, the moves in UCI and the rule options (multiprocessing works)."""
        return (type(self), self._args())

    def __eq__(self, other: object) -> bool:
        """Equal when started from the same position (FEN), with the same moves and rule options."""
        if not isinstance(other, Game):
            return NotImplemented
        return (self.start.fen(), self.uci_history, self._options) == (other.start.fen(), other.uci_history,
                                                                       other._options)

    __hash__ = None  # type: ignore[assignment]  # a game changes: not a dict key (its position is)

    def __repr__(self) -> str:
        """<arbiter.Game RULES ply N: 'FEN'>"""
        if "_options" not in self.__dict__:  # __init__ raised (a traceback shows `self`): no C++ game
            return "<arbiter.Game, not made>"
        return f"<arbiter.Game {self.rules} ply {self.ply}: '{self.position.fen()}'>"

    def fen(self) -> str:
        """The FEN of the current position."""
        return self.position.fen()

    # ---- the decision of status(), read with python-chess's names ----

    def status(self) -> Status:
        """Everything draw-related about the current position: the dict of ``arbiter status
        --json`` (docs/json.md; a new dict each call). Releases the GIL."""
        return super().status()

    def _decision(self) -> Status:
        # status() once per position for the predicates (kept until the next push or pop; never
        # handed out, so that a caller's changes to a dict cannot reach it).
        version = self._version
        cached = self._status
        if cached is not None and cached[0] == version:
            return cached[1]
        s = super().status()
        if self._version == version:
            self._status = (version, s)
        return s

    def _ended_by(self, kind: str) -> bool:
        t = self._decision()["termination"]
        return t is not None and t["kind"] == kind

    def is_checkmate(self) -> bool:
        """The game ended in checkmate (``status()["termination"]["kind"] == "checkmate"``)."""
        return self._ended_by("checkmate")

    def is_stalemate(self) -> bool:
        """The game ended in stalemate (5.2.1)."""
        return self._ended_by("stalemate")

    def is_dead_position(self) -> bool:
        """The game ended in a dead position: neither side can checkmate by any legal moves (5.2.2)."""
        return self._ended_by("dead_position")

    def is_fivefold_repetition(self) -> bool:
        """The game ended by fivefold repetition (9.6.1); like every ending, it stays the game's
        ending when moves are played after it."""
        return self._ended_by("fivefold_repetition")

    def is_seventyfive_moves(self) -> bool:
        """The game ended by the 75-move rule (9.6.2)."""
        return self._ended_by("seventy_five_moves")

    def _claimable(self, kind: str) -> bool:
        claims = self._decision()["claims"]
        if claims is None:
            return False
        c = claims[kind]
        return bool(c["now"] or c["intended"])

    def can_claim_threefold_repetition(self) -> bool:
        """A threefold claim would be correct now (9.2.2) or with a written move (9.2.1):
        ``claims.threefold.now`` or ``claims.threefold.intended`` of status()."""
        return self._claimable("threefold")

    def can_claim_fifty_moves(self) -> bool:
        """A fifty-move claim would be correct now (9.3.2) or with a written move (9.3.1)."""
        return self._claimable("fifty")

    def can_claim_draw(self) -> bool:
        """Either claim would be correct."""
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def is_game_over(self, claim_draw: bool = False) -> bool:
        """The game has ended (status()'s ``termination``), or, with `claim_draw`, a draw can be claimed."""
        return self.outcome(claim_draw) is not None

    def outcome(self, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game ended (None while it goes on): status()'s ``termination``; with
        `claim_draw`, a correct fifty-move or threefold claim (in python-chess's order: fifty first),
        with the article of its ruling."""
        t = self._decision()["termination"]
        if t is not None:
            winner = {"1-0": "white", "0-1": "black"}.get(t["result"])
            return Outcome(t["kind"], winner, t["result"], t["article"])
        if claim_draw:
            for kind, ending in (("fifty", "fifty_moves"), ("threefold", "threefold_repetition")):
                c = (self._decision()["claims"] or {}).get(kind)
                if c and (c["now"] or c["intended"]):
                    ruling: Claim = self.claim(kind) if c["now"] else self.claim(kind, c["intended"][0])
                    return Outcome(ending, None, "1/2-1/2", ruling["article"])
        return None

