"""grundy: impartial combinatorial games in Python.

The answers are the grundy library's (Rust), the same as the ``grundy`` command line tool's:
Grundy values of any size, outcomes, winning moves with their reasons, nim-sequences as numpy
arrays, proved periods, tables, and your own games written as a Python ``moves`` function.

>>> import grundy
>>> grundy.Game("nim").value([3, 4, 5])
2
>>> grundy.Game("sub:2,5").sequence(6)
array([0, 0, 1, 1, 0, 2, 1], dtype=uint32)
"""

from ._grundy import Game, Infinite, Move, MoveList, Period, Plot, Sum, __version__, table

__all__ = ["Game", "Infinite", "Move", "MoveList", "Period", "Plot", "Sum", "table", "__version__"]


def _docstrings():
    """Every public docstring of the compiled module, so that doctest (``pytest
    --doctest-modules``) runs their examples: doctest does not look inside extension types."""
    found = {}
    for name in __all__:
        item = globals()[name]
        if getattr(item, "__doc__", None) and name != "__version__":
            found[name] = item.__doc__
        for attribute, member in vars(item).items() if isinstance(item, type) else ():
            doc = getattr(member, "__doc__", None)
            if not attribute.startswith("_") and doc and ">>>" in doc:
                found[f"{name}.{attribute}"] = doc
    return found


__test__ = _docstrings()
