"""Small stand-ins of python-chess's Board and Move with the members arbiter uses (``fen()``,
``move_stack``, ``root()``, ``push_uci()``, a move's ``uci()``), so that the duck-typed interop is
tested without python-chess (not a Debian package). They keep their positions with arbiter's own
Position, which the tests check independently of the interop."""

import types

import arbiter


class Move:
    def __init__(self, uci: str):
        self._uci = uci

    def uci(self) -> str:
        return self._uci


class Board:
    """A board from a FEN (None: the initial position) with a move stack."""

    def __init__(self, fen=None):
        self._root = fen
        self._pos = arbiter.Position(fen)
        self.move_stack = []

    def push_uci(self, uci: str) -> Move:
        self._pos = self._pos.push(uci)
        m = Move(uci)
        self.move_stack.append(m)
        return m

    def fen(self) -> str:
        return self._pos.fen()

    def root(self) -> "Board":
        return Board(self._root)


def chess_module():
    """A module object standing in for `chess` (for to_board())."""
    module = types.ModuleType("chess")
    module.Board, module.Move = Board, Move
    return module
