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
    """The docstrings doctest does not find by itself in the compiled module (functions,
    properties, static methods), so that ``pytest --doctest-modules`` runs their examples too;
    the classes and their methods it finds on its own."""
    import inspect

    found = {}
    for name in __all__:
        item = globals()[name]
        if not isinstance(item, type):
            if ">>>" in (getattr(item, "__doc__", None) or ""):
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
