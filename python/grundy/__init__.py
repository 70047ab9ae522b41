"""grundy: impartial combinatorial games in Python.

The answers are the grundy library's (Rust), the same as the ``grundy`` command line tool's:
Grundy values of any size, outcomes, winning moves with their reasons, nim-sequences as numpy
arrays, proved periods, tables, your own games written as a Python ``moves`` function, and
censuses of whole families of games (``census``) on local processes or a Dask cluster.

>>> import grundy
>>> grundy.Game("nim").value([3, 4, 5])
2
>>> grundy.Game("sub:2,5").sequence(6)
array([0, 0, 1, 1, 0, 2, 1], dtype=uint32)
"""

import collections.abc as _abc

from ._census import census, census_task
from ._grundy import (
    Game,
    Infinite,
    Move,
    MoveList,
    Period,
    Plot,
    Sum,
    __version__,
    census_default_max_heap,
    census_games,
    census_row,
    census_sorted,
    table,
)

# A MoveList is a sequence (len, indexing, slices, iteration, in, index, count, ==).
_abc.Sequence.register(MoveList)

__all__ = [
    "Game",
    "Infinite",
    "Move",
    "MoveList",
    "Period",
    "Plot",
    "Sum",
    "table",
    "census",
    "census_games",
    "census_row",
    "census_default_max_heap",
    "census_sorted",
    "census_task",
    "__version__",
]


def _docstrings():
    """The docstrings doctest does not find by itself in the compiled module (functions,
    properties, static methods), so that ``pytest --doctest-modules`` runs their examples too;
    the classes and their methods it finds on its own."""
    import inspect

    found = {}
    for name in __all__:
        item = globals()[name]
        if not isinstance(item, type):
            # Python functions (grundy.census) doctest finds in their own module.
            if inspect.isbuiltin(item) and ">>>" in (getattr(item, "__doc__", None) or ""):
                found[name] = item.__doc__
            continue
        for attribute, member in vars(item).items():
            if attribute.startswith("_") or inspect.ismethoddescriptor(member) and not isinstance(member, staticmethod):
                continue
            doc = getattr(getattr(item, attribute), "__doc__", None) or ""
            if ">>>" in doc:
                found[f"{name}.{attribute}"] = doc
    return found


__test__ = _docstrings()
