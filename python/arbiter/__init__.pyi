# Stubs of the package arbiter (python/arbiter/__init__.py); see docs/python.md.
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union
import os

from ._arbiter import Game as Game, Position as Position, Piece
from ._errors import (ClaimError as ClaimError, Error as Error, FenError as FenError, MoveError as MoveError,
                      OptionError as OptionError, ReadError as ReadError)

DEFAULT_CHUNK_BYTES: int

Source = Union[str, os.PathLike, bytes, bytearray, memoryview, Any]

def dead(fen: str, side: str = "both", limit: Optional[int] = None, quick: bool = False,
         timing: bool = False) -> Dict[str, Any]: ...
Names = Union[str, Iterable[str], None]

def pieces(source: Source, chunk_games: Optional[int] = None, chunk_bytes: int = ...,
           errors: Optional[list] = None) -> Iterator[Tuple[int, Piece, Optional[tuple]]]: ...
def audit_lines(source: Source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
                chunk_games: Optional[int] = None, errors: Optional[list] = None, only: Names = None,
                select: Names = None) -> Iterator[bytes]: ...
def audit(source: Source, rules: str = "auto", threads: int = 1, time_category: Optional[str] = None,
          chunk_games: Optional[int] = None, only: Names = None, select: Names = None) -> Iterator[Dict[str, Any]]: ...
def audit_bytes(data: bytes, first_game: int = 1, *, name: str = "-", first_game_in_file: Optional[int] = None,
                first_line: int = 1, first_offset: int = 0, last: bool = True, rules: str = "auto",
                time_category: Optional[str] = None, only: Names = None, select: Names = None) -> List[Dict[str, Any]]: ...
def read_games(source: Source, chunk_games: Optional[int] = None) -> Iterator[Dict[str, Any]]: ...
