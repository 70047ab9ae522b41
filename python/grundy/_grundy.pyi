"""Type stubs of the compiled module ``grundy._grundy`` (re-exported by ``grundy``)."""

import os
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

#: One component of a built-in game: a heap (int), a pair or cell (tuple), or the CLI's text.
Component = Union[int, tuple[int, int], str]
#: A position of a built-in game: components, a list of each part's components (a sum of
#: games), one component, or the CLI's text ("3 + 4,7").
BuiltinPosition = Union[Sequence[Component], Sequence[Sequence[Component]], Component, "Sum"]
#: A position of a game from ``moves``: an int, a tuple or a string; a Sum or list adds some up.
UserPosition = Union[int, tuple, str, "Sum", list]

class Infinite:
    """The value ∞(K) of a loopy game's position; ``reachable`` is K."""

    reachable: list[int]
    outcome: str
    def __init__(self, reachable: Iterable[int]) -> None: ...

class Sum:
    """A sum of independent positions (an option that splits); worth the xor of their values."""

    parts: tuple
    def __init__(self, *parts: object) -> None: ...
    def __len__(self) -> int: ...

class Move:
    """One winning move."""

    to: object
    notation: str
    explain: str
    def _repr_html_(self) -> str: ...

class MoveList(Sequence[Move]):
    """The winning moves of a position."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> MoveList: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __contains__(self, item: object) -> bool: ...
    def index(self, item: object) -> int: ...  # type: ignore[override]
    def count(self, item: object) -> int: ...
    def _repr_html_(self) -> str: ...

class Period:
    """G(n + period) = G(n) + saltus for every n >= preperiod (None: no pattern found)."""

    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    proved: bool
    checked_to: int
    explanation: str

class Plot:
    """A picture (SVG), shown by Jupyter."""

    svg: str
    def _repr_svg_(self) -> str: ...
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes SVG for a name ending ``.svg``, PNG for ``.png``; another suffix is a ValueError."""

class Game:
    """A built-in game by its GAME word (sums with "+"), or your own from ``from_moves``."""

    spec: str
    def __init__(self, spec: str) -> None: ...
    @staticmethod
    def from_moves(moves: Callable[..., Iterable[object]], name: Optional[str] = None) -> "Game": ...
    def __add__(self, other: "Game") -> "Game": ...
    def value(self, position: Union[BuiltinPosition, UserPosition]) -> Union[int, Infinite]: ...
    def outcome(self, position: Union[BuiltinPosition, UserPosition], compound: Optional[str] = None) -> str: ...
    def winning_moves(
        self, position: Union[BuiltinPosition, UserPosition], compound: Optional[str] = None
    ) -> MoveList: ...
    def sequence(self, n: int, progress: bool = False) -> npt.NDArray[np.unsignedinteger]: ...
    def period(self, max: Optional[int] = None, progress: bool = False) -> Period: ...
    def plot(self, to: Optional[int] = None, size: Optional[int] = None) -> Plot: ...
    def quotient(self, to: int, max_order: Optional[int] = None) -> dict[str, Any]: ...

def table(
    game: str, size: Optional[int] = None
) -> Union[npt.NDArray[np.uint64], list[tuple[str, Union[int, Infinite, None], str]]]: ...

# The census (``grundy.census`` in ``grundy/_census.py`` drives these).
def census_games(
    family: str,
    *,
    digits: Optional[str] = None,
    d0: Optional[str] = None,
    max_move: Optional[int] = None,
    moves: Optional[str] = None,
) -> list[str]: ...
def census_default_max_heap(game: str) -> int: ...
def census_row(game: str, max_heap: Optional[int] = None) -> dict[str, Any]: ...
def census_sorted(games: Sequence[str]) -> list[str]: ...

#: The SQL of the census database (``docs/census.md``), from the Rust library.
CENSUS_SCHEMA: str
CENSUS_SCHEMA_VERSION: str
CENSUS_PRAGMAS: list[str]
CENSUS_COLUMNS: list[str]
CENSUS_UPSERT: str
CENSUS_DONE: str
CENSUS_BUSY_TIMEOUT_MS: int

def run_command(arguments: List[str], own_command: List[str]) -> int:
    """Runs the ``grundy`` command line tool (``arguments``: the program's name first) and
    returns its exit status; the ``grundy`` script that ``pip install`` makes calls it."""
