"""The shapes of the dicts arbiter returns, as TypedDicts, so that editors and type checkers know
their keys: ``Status`` (``Game.status()``, ``arbiter status --json``), ``ClaimRuling``
(``Game.claim()``), ``Dead`` (``dead()``) and ``AuditRecord`` (``audit()``). The keys and their
meanings are docs/json.md's; a TypedDict is a plain dict at run time. ``RuleOptions``: the keyword
arguments of ``Game`` and the audit, the face core's table (``arbiter._arbiter.RULE_OPTIONS``;
tests/face_core/option_table_test.cpp holds them equal)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict


class RuleOptions(TypedDict, total=False):
    """The rule options by name (docs/rules.md, the CLI's flags): None leaves the core's default."""
    time_category: Optional[str]
    initial_position_counts: Optional[bool]
    counters_from_setup: Optional[str]
    fifty_extensions: List[str]
    online_claims: bool
    intended_mate_incorrect: bool


class Termination(TypedDict):
    """An automatic ending: ``kind`` (checkmate, stalemate, dead_position, fivefold_repetition,
    seventy_five_moves, threefold_repetition, fifty_moves), ``result``, ``article``, ``ply`` and
    ``after`` (the move that led to it, ``start`` for the start position)."""
    kind: str
    result: str
    article: str
    ply: int
    after: str


class Repetition(TypedDict):
    count: int
    plies: List[int]


class ClaimOption(TypedDict):
    """A claim open to the side to move: correct ``now``, or with one of the ``intended`` moves (SAN)."""
    now: bool
    intended: List[str]


class Claims(TypedDict):
    threefold: ClaimOption
    fifty: ClaimOption


class Sides(TypedDict):
    white: Optional[str]
    black: Optional[str]


class Status(TypedDict, total=False):
    """``Game.status()``: everything draw-related about the current position.
    ``director_may_declare`` is there under uscf only."""
    fen: str
    side_to_move: str
    ply: int
    no_progress_plies: int
    repetition: Repetition
    termination: Optional[Termination]
    director_may_declare: List[Termination]
    claims: Optional[Claims]
    can_checkmate: Sides
    rules: str
    plies_played: int


class Message(TypedDict):
    """A text as data (docs/json.md, "object message"): its stable ``id`` and its ``args`` (a
    number, a string, ``{"move": …}``, ``{"article": …}``, ``{"list": [Message, …]}`` or another
    Message), the same in
    every language."""
    id: str
    args: Dict[str, Any]


class Cited(TypedDict):
    """A position cited as evidence."""
    ply: int
    number: Optional[int]
    san: Optional[str]
    uci: Optional[str]
    move: Optional[str]
    intended: bool
    fen: str


class Lookalike(Cited):
    """A position with the same pieces and side to move that is not the same position (9.2.2)."""
    why: str
    why_message: Message
    castling_rights_differ: bool
    en_passant_differs: bool


class Evidence(TypedDict, total=False):
    """threefold: ``count``, ``occurrences``, ``not_counted``; fifty: ``no_progress_plies``,
    ``required_plies``, ``count_started``."""
    count: int
    occurrences: List[Cited]
    not_counted: List[Lookalike]
    no_progress_plies: int
    required_plies: int
    count_started: Optional[Cited]


class Penalty(TypedDict):
    """An incorrect claim's penalty (9.5.3): ``deducted_ms`` is None where it depends on the
    claimant's clock (FIDE 2005 9.5b)."""
    side: str
    added_to: str
    added_ms: int
    deducted_ms: Optional[int]
    article: str


class Claim(TypedDict):
    """``Game.claim()``: the arbiter's ruling on a claim; ``penalty`` None when it is correct."""
    kind: str
    claimant: str
    intended: Optional[str]
    correct: bool
    article: str
    reason: str
    reason_message: Message
    evidence: Evidence
    penalty: Optional[Penalty]
    rules: str


class Dead(TypedDict, total=False):
    """``dead()``: can each side still checkmate by any series of legal moves.
    ``microseconds`` only with ``timing=True``."""
    fen: str
    dead: Optional[bool]
    white: Optional[str]
    black: Optional[str]
    can_checkmate: Sides
    proof: Sides
    reason: Sides
    nodes: Dict[str, Optional[int]]
    helpmate: Dict[str, Optional[List[str]]]
    microseconds: Dict[str, Optional[float]]


class Finding(TypedDict, total=False):
    """One finding of the audit (docs/audit.md); the last four are the claimable type's."""
    type: str
    kind: str
    ply: int
    side: Optional[str]
    article: str
    detail: str
    chances: Optional[int]
    unused: Optional[int]
    first_ply: Optional[int]
    first_move: Optional[str]


class PgnError(TypedDict):
    """What the PGN reader found (codes in docs/pgn.md)."""
    line: int
    column: int
    offset: int
    code: str
    message: str


class AuditRecord(TypedDict, total=False):
    """One game of ``audit()`` (a line of ``arbiter audit --format jsonl``)."""
    game: int
    game_in_file: int
    file: str
    tags: Dict[str, str]
    rules: str
    time_category: str
    plies: int
    result: Optional[str]
    result_marker: Optional[str]
    result_tag: Optional[str]
    findings: List[Finding]
    errors: List[PgnError]
    warnings: List[PgnError]


__all__ = ["Status", "Claim", "Dead", "AuditRecord", "Termination", "Repetition", "ClaimOption", "Claims",
           "Sides", "Cited", "Lookalike", "Evidence", "Finding", "PgnError"]
