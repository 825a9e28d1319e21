"""arbiter.Game: the C++ game record with the Python protocols (moves as people write them,
python-chess boards and moves in and out, copy, pickle) and python-chess's predicate names, each
read from the one decision of status()."""

from __future__ import annotations

import json

from typing import Any, Iterable, Iterator, List, Optional, Union

from . import _arbiter
from ._arbiter import Position
from ._chess_types import Move, Outcome, Termination, move_of_uci
from ._errors import Error, MoveError, check_type
from .types import Claim, Status

#: python-chess's colours: ``WHITE`` is True, ``BLACK`` False (``chess.WHITE``, ``chess.BLACK``).
WHITE: bool = True
BLACK: bool = False


def _type_name(x: Any) -> str:
    return type(x).__name__


def move_texts(moves: Any) -> List[str]:
    """The moves of `moves` as SAN/UCI strings: a string read as ``--moves`` reads it (move
    numbers, comments and a result left out), or an iterable of such strings and of move objects
    with ``uci()`` (python-chess's ``chess.Move``). TypeError names the item that is neither."""
    if moves is None:
        return []
    if isinstance(moves, str):
        return _arbiter.move_tokens(_text("moves", moves))
    try:
        items = iter(moves)
    except TypeError:
        raise TypeError(f"moves: expected a string of moves, or an iterable of SAN/UCI strings or of "
                        f"moves with uci() (chess.Move), got {_type_name(moves)}") from None
    out: List[str] = []
    for k, m in enumerate(items):
        if isinstance(m, str):
            out.extend(_arbiter.move_tokens(_text("moves", m)))
        elif callable(getattr(m, "uci", None)):
            out.append(str(m.uci()))
        else:
            raise TypeError(f"moves: item {k + 1} is a {_type_name(m)}, expected a SAN/UCI string or a move "
                            f"with uci() (chess.Move)")
    return out


def _text(name: str, value: str, error: type = Error) -> str:
    """`value` when it can be UTF-8 (it goes to C++ as such); a str with a lone surrogate (from
    bytes decoded with surrogateescape, or a bad escape) is refused as the CLI refuses bytes that
    are not UTF-8: `error` (``Error``; ``FenError`` for Position's FEN, which calls this from
    C++) with ``not_utf8``, the argument named, the offset of the byte."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        offset = len(value[:e.start].encode("utf-8", "surrogatepass"))
        raise error(f"{name}: not valid text: a lone surrogate (U+{ord(value[e.start]):04X}) at character {e.start}",
                    "not_utf8", name, offset) from None
    return value


def _fen_text(fen: Any) -> Optional[str]:
    if fen is None:
        return fen
    if isinstance(fen, str):
        return _text("fen", fen)
    if callable(getattr(fen, "fen", None)):
        return str(fen.fen())
    raise TypeError(f"fen: expected a FEN string, None or a board with fen(), got {_type_name(fen)}")


MoveLike = Union[str, Any]

#: The rule set of a game when none is named: the face core's (``_arbiter.DEFAULT_RULES``).
DEFAULT_RULES: str = _arbiter.DEFAULT_RULES


def _moves_arg(moves: Any) -> Union[str, List[str]]:
    # A string goes to the core as it is (as --moves takes it: an error's offset is a byte in it).
    return _text("moves", moves) if isinstance(moves, str) else move_texts(moves)


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
        if isinstance(fifty_extensions, (str, bytes)):
            raise TypeError(f"fifty_extensions: expected a list of extensions such as ['KRBvKR=75'], got a "
                            f"{type(fifty_extensions).__name__} (put it in a list)")
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
        _refuse_variant(board)
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
                raise TypeError(f"move: expected a SAN/UCI string or a move with uci(), got {_type_name(move)}")
            move = str(move.uci())
            if move == "0000":
                raise MoveError("move: the null move (0000) is no move of the Laws: arbiter plays only legal moves",
                                "bad_move", "move", 0)
        super().push(_text("move", move))
        self._version += 1

    def pop(self) -> Any:
        """Takes back the last ply and returns it as a move (python-chess's ``Board.pop()``: a
        ``chess.Move`` when python-chess is importable, else arbiter's Move). NoMoveError (code
        ``no_move``; an IndexError too) when no move has been played."""
        uci = self.uci_history[-1] if self.ply else None
        super().pop()
        self._version += 1
        return move_of_uci(uci)

    def _push_text(self, name: str, text: Any) -> Any:
        check_type(name, text, (str,), "a str")
        uci = self.position.uci(_text(name, text))
        self.push(uci)
        return move_of_uci(uci)

    def push_san(self, san: str) -> Any:
        """Plays a move written in SAN and returns it as a move (python-chess's ``push_san``)."""
        return self._push_text("san", san)

    def push_uci(self, uci: str) -> Any:
        """Plays a move written in UCI and returns it as a move (python-chess's ``push_uci``)."""
        return self._push_text("uci", uci)

    def peek(self) -> Any:
        """The last move played (python-chess's ``peek``); IndexError when none was."""
        if not self.ply:
            raise IndexError("peek(): no move has been played")
        return move_of_uci(self.uci_history[-1])

    @property
    def move_stack(self) -> List[Any]:
        """The moves played, first to last, as moves (python-chess's ``move_stack``; a new list)."""
        return [move_of_uci(m) for m in self.uci_history]

    @property
    def legal_moves(self) -> "LegalMoves":
        """The legal moves of the current position, as moves (python-chess's ``legal_moves``:
        iterable, ``len()``, ``count()``, ``in``); SAN or UCI text from ``position.legal_moves()``."""
        return LegalMoves(self.position.legal_moves("uci"))

    @property
    def turn(self) -> bool:
        """The side to move: ``True`` for White, ``False`` for Black (python-chess's ``turn``)."""
        return self.position.turn() == "white"

    def is_check(self) -> bool:
        """The side to move is in check."""
        return self.position.is_check()

    # ---- the Python object protocol ----

    @classmethod
    def from_pgn(cls, pgn: Any, rules: Optional[str] = None, **options: Any) -> "Game":
        """The game of PGN: its text (the first game in it), or a ``chess.pgn.Game`` (its start
        board and mainline). `rules` as Game's; by default DEFAULT_RULES. Raises Error
        (``bad_pgn``) when the text holds no game or its moves cannot all be played."""
        rules = DEFAULT_RULES if rules is None else rules
        if callable(getattr(pgn, "board", None)) and callable(getattr(pgn, "mainline_moves", None)):
            board = pgn.board()
            _refuse_variant(board)
            return cls(_fen_text(board), list(pgn.mainline_moves()), rules, **options)
        if not isinstance(pgn, str):
            raise TypeError(f"pgn: expected PGN text or a chess.pgn.Game, got {_type_name(pgn)}")
        from ._audit import read_games
        for g in read_games(text=pgn):
            if not g["complete"]:
                raise Error(f"pgn: the moves of the game stop at ply {len(g['uci']) + 1}: it cannot be read or "
                            f"played there (arbiter.audit() says why)", "bad_pgn", "pgn")
            return cls(g["fen"], g["uci"], rules, **options)
        raise Error("pgn: no game in the text", "bad_pgn", "pgn")

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

    def claim(self, kind: str, intended: Any = None) -> Claim:
        """The arbiter's ruling on a claim of `kind` (``"threefold"`` or ``"fifty"``) now, or with
        the `intended` move written (SAN, UCI or a ``chess.Move``): the dict of ``arbiter claim
        --json``. ClaimError (``bad_value``, field ``kind``) for another kind."""
        check_type("kind", kind, (str,), "'threefold' or 'fifty'")
        if intended is not None and not isinstance(intended, str):
            if not callable(getattr(intended, "uci", None)):
                raise TypeError(f"intended: expected a SAN/UCI string, a move with uci() or None, got "
                                f"{_type_name(intended)}")
            intended = str(intended.uci())
        return super().claim(_text("kind", kind), None if intended is None else _text("intended", intended))

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

    def is_insufficient_material(self) -> bool:
        """Neither side has the material to mate (python-chess's ``is_insufficient_material``)."""
        counts = self._insufficient_material()
        return counts["white"] and counts["black"]

    def has_insufficient_material(self, color: bool) -> bool:
        """`color` (True White, False Black) has too little material to mate with any moves of the
        other side, in python-chess's sense: a bare king; a king and one knight against no rook,
        bishop, knight or pawn; bishops all on squares of one colour with no knight and no pawn on
        the board. arbiter's dead-position rule (5.2.2, ``is_dead_position``) goes beyond it."""
        if not isinstance(color, bool):
            raise TypeError(f"color: expected a bool (chess.WHITE True, chess.BLACK False), got {_type_name(color)}")
        return self._insufficient_material()["white" if color else "black"]

    def _insufficient_material(self) -> dict:
        # The face core's count ("moves" request), the same as JavaScript's.
        return json.loads(_arbiter.request("moves", json.dumps({"fen": self.position.fen()})))["insufficient_material"]

    def is_repetition(self, count: int = 3) -> bool:
        """The current position has stood at least `count` times (python-chess's ``is_repetition``:
        the same position by 9.2.2, castling rights and a legal en passant capture included)."""
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"count: expected an int, got {_type_name(count)}")
        return self._decision()["repetition"]["count"] >= count

    def is_fifty_moves(self) -> bool:
        """50 moves by each side without a pawn move or capture, and a move left to play
        (python-chess's ``is_fifty_moves``); claiming it is ``can_claim_fifty_moves``."""
        return self._decision()["no_progress_plies"] >= 100 and len(self.position.legal_moves("uci")) > 0

    def outcome(self, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game ended (None while it goes on), as python-chess's ``Outcome``: status()'s
        ``termination`` (``Termination.INSUFFICIENT_MATERIAL`` for a dead position in which neither
        side has mating material, as python-chess names it); with `claim_draw`, a correct fifty-move
        or threefold claim (in python-chess's order: fifty first), with the article of its ruling."""
        t = self._decision()["termination"]
        if t is not None:
            winner = {"1-0": WHITE, "0-1": BLACK}.get(t["result"])
            kind = Termination(t["kind"])
            if kind is Termination.DEAD_POSITION and self.is_insufficient_material():
                kind = Termination.INSUFFICIENT_MATERIAL
            return Outcome(kind, winner, t["article"])
        if claim_draw:
            for kind, ending in (("fifty", Termination.FIFTY_MOVES), ("threefold", Termination.THREEFOLD_REPETITION)):
                c = (self._decision()["claims"] or {}).get(kind)
                if c and (c["now"] or c["intended"]):
                    ruling: Claim = self.claim(kind) if c["now"] else self.claim(kind, c["intended"][0])
                    return Outcome(ending, None, ruling["article"])
        return None


class LegalMoves:
    """The legal moves of a position as moves (python-chess's ``LegalMoveGenerator``): iterable,
    ``len()``, ``count()``, ``bool()``, ``move in legal_moves`` (a move or its UCI text)."""

    __slots__ = ("_uci",)

    def __init__(self, uci: List[str]) -> None:
        self._uci = uci

    def __iter__(self) -> Iterator[Any]:
        return (move_of_uci(m) for m in self._uci)

    def __len__(self) -> int:
        return len(self._uci)

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self._uci)

    def __bool__(self) -> bool:
        return bool(self._uci)

    def __contains__(self, move: object) -> bool:
        text = move if isinstance(move, str) else (move.uci() if callable(getattr(move, "uci", None)) else None)
        return text in self._uci

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(self._uci)})>"


def _refuse_variant(board: Any) -> None:
    """Refuses a python-chess board of a variant (Chess960, Antichess, …): arbiter rules only on
    the Laws of Chess."""
    variant = getattr(board, "uci_variant", "chess")
    if variant != "chess" or getattr(board, "chess960", False):
        name = "chess960" if variant == "chess" else variant
        raise Error(f"board: a {name} board; arbiter rules on standard chess only (the Laws of Chess)",
                    "bad_value", "board")
