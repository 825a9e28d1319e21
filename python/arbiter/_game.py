"""arbiter.Game: the C++ game record with the Python protocols (moves as people write them,
python-chess boards and moves in and out, copy, pickle) and python-chess's predicate names, each
read from the one decision of status()."""

from __future__ import annotations

import inspect

from typing import TYPE_CHECKING, Any, Iterable, Iterator, List, Optional, Union

from . import _arbiter
from ._arbiter import Position
from ._chess_types import Move, Outcome, Termination, move_of_uci
from ._errors import Error, MoveError, check_type
from ._lang import lang_of
from .types import Claim, RuleOptions, Status

if TYPE_CHECKING:
    from typing_extensions import Unpack

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
                 **options: Unpack[RuleOptions]) -> None:
        fen, stack = _board_history(fen)
        fen = _fen_text(fen)
        # The rule options by the core's table (arbiter._arbiter.RULE_OPTIONS): types checked, all present.
        checked = _arbiter.rule_options(dict(options, rules=rules), DEFAULT_RULES)
        if stack:  # a board's moves first, then `moves` (as a list: offsets are no longer in one text)
            moves = move_texts(stack) + move_texts(moves)
        super().__init__(fen, _moves_arg(moves), checked)
        self._fen = fen
        self._options = checked
        self._version = 0
        self._status: Optional[tuple] = None

    # ---- python-chess in and out ----

    @classmethod
    def from_board(cls, board: Any, rules: str = DEFAULT_RULES, **options: Any) -> "Game":
        """The game of a ``chess.Board`` (duck-typed): its root position (``root().fen()``) and its
        move stack (``move_stack``, each move's ``uci()``), so that repetitions before the board's
        position count. A board without ``root()`` is taken as a start position with no moves."""
        if isinstance(board, str) or not callable(getattr(board, "fen", None)):
            raise TypeError(f"board: expected a board with fen() (a chess.Board), got {_type_name(board)}")
        _refuse_variant(board)
        if not callable(getattr(board, "root", None)):
            return cls(_fen_text(board), None, rules, **options)
        return cls(board, None, rules, **options)

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
        history = self.uci_history
        uci = history[-1] if history else None
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
        history = self.uci_history
        if not history:
            raise IndexError("peek(): no move has been played")
        return move_of_uci(history[-1])

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

    @property
    def ply(self) -> "Ply":
        """The game ply of the current position: an int (``g.ply == 7``, ``g.ply + 1``) that can
        also be called as python-chess's ``Board.ply()`` method (``g.ply() == 7``)."""
        return Ply(super().ply)

    # ---- python-chess's Board names (each the current position's, or the game's) ----

    def fen(self, *, en_passant: str = "legal") -> str:
        """The FEN of the current position, as python-chess's ``Board.fen()`` writes it: the en
        passant square only when an en passant capture is legal (``en_passant="legal"``, the
        default); ``"fen"`` after every double step (the FEN standard, ``position.fen()``, the
        CLI's), ``"xfen"`` when a capture is pseudo-legal."""
        return self.position.fen(en_passant)

    def board_fen(self) -> str:
        """The piece placement field of the FEN (python-chess's ``board_fen()``)."""
        return self.position.board_fen()

    def epd(self, *, en_passant: str = "legal") -> str:
        """The EPD of the current position: the FEN's first four fields (python-chess's ``epd()``
        without operations)."""
        return self.position.epd(en_passant=en_passant)

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move, as the FEN counts them (python-chess's)."""
        return self.position.halfmove_clock

    @property
    def fullmove_number(self) -> int:
        """The fullmove number of the current position (python-chess's)."""
        return self.position.fullmove_number

    def piece_at(self, square: int) -> Any:
        """The piece on `square` (0 = a1 … 63 = h8, as ``chess.E4``) or None: a ``chess.Piece``
        when python-chess is importable, else ``arbiter.Piece``."""
        return self.position.piece_at(square)

    def san(self, move: MoveLike) -> str:
        """The SAN of a legal move of the current position (a ``chess.Move``, UCI or SAN text), with
        ``+`` or ``#`` (python-chess's ``san()``). Raises MoveError."""
        return self.position.san(move)

    def parse_san(self, san: str) -> Any:
        """The legal move written `san` as a move (python-chess's ``parse_san``; UCI text is read
        too). Raises MoveError (``illegal_move``, ``ambiguous_move``, ``bad_move``; field ``san``)."""
        return self.position.parse_san(san)

    def is_legal(self, move: MoveLike) -> bool:
        """`move` (a ``chess.Move``, UCI or SAN) is a legal move of the current position
        (python-chess's ``is_legal``; False for the null move and for text that is no legal move)."""
        return self.position.is_legal(move)

    def gives_check(self, move: MoveLike) -> bool:
        """The legal move `move` gives check. MoveError for a move that is not legal."""
        return self.position.gives_check(move)

    def is_capture(self, move: MoveLike) -> bool:
        """The legal move `move` captures (en passant too). MoveError for a move that is not legal."""
        return self.position.is_capture(move)

    def is_zeroing(self, move: MoveLike) -> bool:
        """The legal move `move` is a capture or a pawn move (it resets the fifty-move count).
        MoveError for a move that is not legal."""
        return self.position.is_zeroing(move)

    def root(self) -> "Game":
        """The game at its start position, with no moves and the same rule options (python-chess's
        ``root()``: a copy, this game is unchanged)."""
        return type(self)(self._fen, None, **self._options)

    def result(self, *, claim_draw: bool = False) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (python-chess's ``result()``): the result of
        ``outcome(claim_draw)``, ``*`` while the game goes on."""
        outcome = self.outcome(claim_draw)
        return "*" if outcome is None else outcome.result()

    def _repr_svg_(self) -> str:
        """The board as SVG for notebooks (arbiter's own drawing, the service's /board.svg), the
        last move's squares highlighted."""
        history = self.uci_history
        last = history[-1] if history else None
        return _arbiter.board_svg(self.position, False, f"{last[:2]},{last[2:4]}" if last else "", "")

    # ---- the Python object protocol ----

    @classmethod
    def from_pgn(cls, pgn: Any, rules: Optional[str] = None, **options: Any) -> "Game":
        """The first game of PGN as python-chess users hold it: a path (a str or ``os.PathLike``:
        plain, ``.pgn.zst``, gzip, bzip2), an open file (text or binary; read from where it
        stands, past the first game), PGN text (a str with a line break, or that begins with a tag
        ``[``, a comment ``{`` or a move number ``1.``; or bytes), or a ``chess.pgn.Game`` (its
        start board and mainline). `rules` as Game's; by default DEFAULT_RULES. Raises ReadError
        (a file that cannot be read), Error ``bad_pgn`` (no game, or moves that cannot all be
        played), TypeError naming `pgn` for anything else."""
        rules = DEFAULT_RULES if rules is None else rules
        from ._audit import is_pgn_game, pgn_source, read_games
        if is_pgn_game(pgn):
            board = pgn.board()
            _refuse_variant(board)
            return cls(_fen_text(board), list(pgn.mainline_moves()), rules, **options)
        source = pgn_source("pgn", pgn)
        for g in read_games(source, chunk_games=1):
            if not g["complete"]:
                raise Error(f"pgn: the moves of the game stop at ply {len(g['uci']) + 1}: it cannot be read or "
                            f"played there (arbiter.audit() says why)", "bad_pgn", "pgn")
            return cls(g["fen"], g["uci"], rules, **options)
        raise Error("pgn: no game in the input", "bad_pgn", "pgn")

    def copy(self) -> "Game":
        """An independent copy: the same start, moves and rule options."""
        return type(self)(self._fen, self.uci_history, **self._options)

    def __copy__(self) -> "Game":
        """copy()."""
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "Game":
        """copy(): a game holds no shared objects."""
        return self.copy()

    def __reduce__(self):
        """Pickles as the start FEN, the moves in UCI and the rule options (multiprocessing works)."""
        return (_rebuild, (type(self), self._fen, self.uci_history, self._options))

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

    # ---- the decision of status(), read with python-chess's names ----

    def claim(self, kind: str, intended: Any = None, *, lang: Optional[str] = None,
              figurines: bool = False) -> Claim:
        """The arbiter's ruling on a claim of `kind` (``"threefold"`` or ``"fifty"``) now, or with
        the `intended` move written (SAN, UCI or a ``chess.Move``): the dict of ``arbiter claim
        --json``. ClaimError (``bad_value``, field ``kind``) for another kind. Its texts (``reason``,
        each ``why``) in `lang` (a code of ``arbiter.LANGUAGES``; default ``arbiter.get_lang()``),
        moves in them with figurines when `figurines`; ``reason_message`` is the same in every
        language."""
        check_type("kind", kind, (str,), "'threefold' or 'fifty'")
        if intended is not None and not isinstance(intended, str):
            if not callable(getattr(intended, "uci", None)):
                raise TypeError(f"intended: expected a SAN/UCI string, a move with uci() or None, got "
                                f"{_type_name(intended)}")
            intended = str(intended.uci())
        return super().claim(_text("kind", kind), None if intended is None else _text("intended", intended),
                             lang_of(lang), bool(figurines))

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
        return _arbiter.answer("moves", {"fen": self.position.fen()})["insufficient_material"]

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


class Ply(int):
    """The ply of a game: an int that python-chess code may also call, as its ``Board.ply()``
    method (``g.ply == g.ply() == 7``); arbiter's ``Game.ply`` was an attribute before python-chess's
    names came, and both spellings keep working."""

    __slots__ = ()

    def __call__(self) -> int:
        """The ply as a plain int (python-chess's ``Board.ply()``)."""
        return int(self)


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


def _board_history(board: Any) -> tuple:
    """``(start, moves)`` of Game's `fen` argument: a board with ``root()`` and ``move_stack`` (a
    ``chess.Board``, an arbiter Game) is its root position and the moves played from it, so that
    its history counts as python-chess counts it; anything else is itself, with no moves."""
    if board is None or isinstance(board, str) or not callable(getattr(board, "root", None)):
        return board, None
    stack = getattr(board, "move_stack", None)
    if stack is None:
        return board, None
    _refuse_variant(board)
    stack = list(stack)
    return (board.root() if stack else board), stack


def _refuse_variant(board: Any) -> None:
    """Refuses a python-chess board of a variant (Chess960, Antichess, …): arbiter rules only on
    the Laws of Chess."""
    variant = getattr(board, "uci_variant", "chess")
    if variant != "chess" or getattr(board, "chess960", False):
        name = "chess960" if variant == "chess" else variant
        raise Error(f"board: a {name} board; arbiter rules on standard chess only (the Laws of Chess)",
                    "bad_value", "board")


def _rebuild(cls: type, fen: Optional[str], moves: List[str], options: dict) -> Game:
    """A pickled game made again (Game.__reduce__): its start, moves and rule options by name."""
    return cls(fen, moves, **options)


def _signature() -> inspect.Signature:
    """``Game(fen=None, moves=None, rules=DEFAULT_RULES, *, time_category=None, …)``: the rule
    options of the core's one table (``arbiter._arbiter.RULE_OPTIONS``), for help() and inspect."""
    P = inspect.Parameter
    params = [P("self", P.POSITIONAL_OR_KEYWORD), P("fen", P.POSITIONAL_OR_KEYWORD, default=None),
              P("moves", P.POSITIONAL_OR_KEYWORD, default=None),
              P("rules", P.POSITIONAL_OR_KEYWORD, default=DEFAULT_RULES, annotation=str)]
    defaults = {"choice": None, "boolean": None, "list": (), "flag": False}
    for o in _arbiter.RULE_OPTIONS:
        if o["name"] != "rules":
            params.append(P(o["name"], P.KEYWORD_ONLY, default=defaults[o["kind"]]))
    return inspect.Signature(params, return_annotation=None)


Game.__init__.__signature__ = _signature()  # type: ignore[attr-defined]
