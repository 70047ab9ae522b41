"""``grundy.census``: the census of a family of games (issue 17) driven from Python.

The games are listed and each row is computed by the Rust library (``census_games``,
``census_row``), exactly as ``grundy census`` on the command line does; the rows are kept in the
same SQLite database (the schema, settings and rules of ``docs/census.md``, whose SQL the
binding exposes, so that it is written once). Any ``concurrent.futures.Executor`` computes: a
local process pool by default, or a Dask cluster's (``Client(...).get_executor()``). Workers
only compute; the driver alone writes, one transaction per finished game, so stopping it (Ctrl-C,
a worker's failure) loses only the games in flight.
"""

import json
import multiprocessing
import os
import signal
import sqlite3
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _grundy

#: The largest bound SQLite's integers hold (the database stores ``max_heap``).
_MAX_BOUND = 2**63 - 1


def census_task(game: str, max_heap: int) -> Dict[str, Any]:
    """One game's row (``grundy.census_row(game, max_heap)``): the function ``census`` submits to
    the executor for each game. A module-level function, so that process pools and Dask ship it
    to their workers by name."""
    return _grundy.census_row(game, max_heap)


def _worker_setup(rayon_threads: int) -> None:
    """Run in each worker of the default process pool: Ctrl-C is the driver's to handle (it ends
    the pool), and the workers share the cores rather than each using all of them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("RAYON_NUM_THREADS", str(rayon_threads))


def _option_text(name: str, value: Any) -> Optional[str]:
    """An option as the CLI writes it: ``"1..3"`` stays, ``2`` becomes ``"2"``."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"census option {name} is a string like \"1..3\" or an int, not {type(value).__name__}")


def _first_digits_text(d0: Any) -> Optional[str]:
    """``d0`` as the CLI's ``--d0`` list: ``"0,4"``, ``4`` or ``[0, 4]`` (ints as hex digits)."""
    if d0 is None or isinstance(d0, str):
        return d0
    if isinstance(d0, int) and not isinstance(d0, bool):
        d0 = [d0]
    try:
        digits = list(d0)
    except TypeError:
        raise TypeError(f"census option d0 is a string like \"0,4\", an int or a list of ints, not {type(d0).__name__}") from None
    parts = []
    for digit in digits:
        if isinstance(digit, bool) or not isinstance(digit, int):
            raise TypeError(f"census option d0 lists ints, not {type(digit).__name__}")
        parts.append(format(digit, "X") if 0 <= digit < 16 else str(digit))
    return ",".join(parts)


class _Database:
    """A census database opened as ``docs/census.md`` says every writer opens it."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]):
        self.path = os.fspath(path)
        if sqlite3.sqlite_version_info < (3, 37, 0):
            raise RuntimeError(
                f"the census database needs SQLite 3.37 or later (STRICT tables); this Python has {sqlite3.sqlite_version}"
            )
        try:
            # isolation_level=None: no implicit transactions; each row is begun and committed here.
            self.connection = sqlite3.connect(
                self.path, timeout=_grundy.CENSUS_BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
        except sqlite3.Error as error:
            raise self._error(error) from error
        try:
            self._setup()
        except BaseException:
            self.connection.close()
            raise

    def _error(self, error: sqlite3.Error) -> Exception:
        """One line naming the database, as the CLI words it."""
        text = str(error)
        if "locked" in text or "busy" in text:
            seconds = _grundy.CENSUS_BUSY_TIMEOUT_MS // 1000
            return RuntimeError(
                f"database `{self.path}` is busy: another program held it for more than {seconds} s; run again when it is done"
            )
        if "not a database" in text:
            return ValueError(f"`{self.path}` is not an SQLite database")
        if "unable to open" in text:
            return RuntimeError(f"cannot open database `{self.path}`: {text}")
        if "readonly" in text:
            return RuntimeError(f"database `{self.path}` is read-only: {text}")
        return RuntimeError(f"database `{self.path}`: {text}")

    def _setup(self) -> None:
        try:
            for pragma in _grundy.CENSUS_PRAGMAS:
                answer = self.connection.execute(pragma).fetchone()
                if "journal_mode" in pragma and (answer is None or str(answer[0]).lower() != "wal"):
                    raise RuntimeError(f"database `{self.path}` cannot use the WAL journal (it answers {answer})")
            tables = {name for (name,) in self.connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                self.connection.executescript("BEGIN IMMEDIATE;" + _grundy.CENSUS_SCHEMA + "COMMIT;")
                return
            if not {"census", "census_meta"} <= tables:
                raise ValueError(
                    f"`{self.path}` is an SQLite database but not a grundy census (no census and census_meta tables)"
                )
            found = self.connection.execute("SELECT value FROM census_meta WHERE key = 'schema_version'").fetchone()
            if found is None or found[0] != _grundy.CENSUS_SCHEMA_VERSION:
                raise ValueError(
                    f"census database `{self.path}` has schema version {found[0] if found else '(none)'}; "
                    f"this grundy reads version {_grundy.CENSUS_SCHEMA_VERSION}"
                )
        except sqlite3.Error as error:
            if self.connection.in_transaction:
                self.connection.rollback()
            raise self._error(error) from error

    def done(self, game: str, bound: int) -> bool:
        """Whether the stored row of ``game`` answers a census to heap ``bound``."""
        try:
            return self.connection.execute(_grundy.CENSUS_DONE, (game, bound)).fetchone() is not None
        except sqlite3.Error as error:
            raise self._error(error) from error

    def write(self, row: Dict[str, Any]) -> None:
        """Commits one finished game in a transaction of its own (the contract's upsert)."""
        values = dict(row)
        values["proved"] = int(bool(values["proved"]))
        if values["rare_heap_parity"] is not None:
            values["rare_heap_parity"] = int(bool(values["rare_heap_parity"]))
        if values["rare_values"] is not None:
            # As serde_json writes it in the CLI: "[0,1,4]".
            values["rare_values"] = json.dumps(list(values["rare_values"]), separators=(",", ":"))
        parameters = [values[column] for column in _grundy.CENSUS_COLUMNS]
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                self.connection.execute(_grundy.CENSUS_UPSERT, parameters)
                self.connection.execute("COMMIT")
            except BaseException:
                self.connection.rollback()
                raise
        except sqlite3.Error as error:
            raise self._error(error) from error

    def rows(self, games: List[str]) -> List[Dict[str, Any]]:
        """The stored rows of ``games``, as ``census report --format json`` gives them."""
        query = f"SELECT {', '.join(_grundy.CENSUS_COLUMNS)} FROM census WHERE game = ?"
        found = []
        try:
            for game in games:
                stored = self.connection.execute(query, (game,)).fetchone()
                if stored is None:
                    continue
                row = dict(zip(_grundy.CENSUS_COLUMNS, stored))
                row["proved"] = bool(row["proved"])
                if row["rare_heap_parity"] is not None:
                    row["rare_heap_parity"] = bool(row["rare_heap_parity"])
                if row["rare_values"] is not None:
                    row["rare_values"] = json.loads(row["rare_values"])
                found.append(row)
        except sqlite3.Error as error:
            raise self._error(error) from error
        return found

    def close(self) -> None:
        self.connection.close()


#: What to do when the local pool cannot run, said with each error about it.
_POOL_ADVICE = (
    "save the script to a file and run it as `python script.py`, or pass "
    "executor=concurrent.futures.ThreadPoolExecutor() (the games are computed without the GIL, "
    "so threads use every core too)"
)


def _check_main_importable() -> None:
    """Spawned workers re-run the main script from its file: a script read from standard input
    (``python - <<EOF``, ``python < script.py``) has none, and every worker would die at start
    (``BrokenProcessPool``). Said before any worker starts."""
    import sys

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    path = getattr(main, "__file__", None)
    if spec is None and path is not None and not os.path.isfile(path):
        raise RuntimeError(
            f"grundy.census cannot start its worker processes: the main script was read from {path} "
            f"and worker processes start by reading it again from its file; {_POOL_ADVICE}"
        )


def _default_pool(jobs: Optional[int], pending: int) -> ProcessPoolExecutor:
    """A local process pool of ``jobs`` workers (default: one per core). Processes are spawned,
    not forked: a fork would copy a Rust thread pool the child cannot use."""
    _check_main_importable()
    cores = os.cpu_count() or 1
    workers = max(1, min(jobs or cores, pending))
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_setup,
        initargs=(max(1, cores // workers),),
    )


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """Ends our own pool's workers at once (the games they were computing are abandoned)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def census(
    family: str,
    *,
    db: Union[str, "os.PathLike[str]"],
    digits: Union[str, int, None] = None,
    d0: Union[str, int, List[int], None] = None,
    max_move: Optional[int] = None,
    moves: Union[str, int, None] = None,
    to: Optional[int] = None,
    executor: Optional[Executor] = None,
    jobs: Optional[int] = None,
    progress: bool = False,
) -> List[Dict[str, Any]]:
    """The census of a family of heap games, kept in the SQLite database ``db``: the Python form
    of ``grundy census FAMILY ... --db DB``, with the same options as keywords.

    ``family`` is ``"octal"`` or ``"hex"`` (codes ``0.d1…dk`` with a non-zero last digit for
    ``k`` in ``digits``: ``"1..3"`` or ``2``; ``d0="0,4"`` or ``[0, 4]`` adds the ``4.`` codes)
    or ``"sub"`` (every set of ``moves`` elements from ``1 … max_move``). ``to`` bounds each
    game's period search (default: ``grundy period``'s default for the game). Games the database
    already answers at that bound are skipped, as the CLI skips them.

    Each remaining game is one task, ``census_task(game, bound)``, submitted to ``executor``:
    any ``concurrent.futures.Executor``, such as a Dask cluster's
    ``dask.distributed.Client(...).get_executor()``; by default a local pool of ``jobs``
    processes (one per core). Only this process writes the database, one transaction per
    finished game, so Ctrl-C (KeyboardInterrupt) or a failed task stops the census with every
    finished row kept; the same call then computes the rest. ``progress=True`` shows a tqdm bar
    when tqdm is installed.

    Returns the rows of the family's games as ``grundy census report --format json`` gives them:
    dicts with ``game``, ``preperiod``, ``period``, ``saltus`` (``None`` where nothing is
    proved), ``proved``, ``checked_to`` and the rest of the columns of ``docs/census.md``,
    sorted by code. A bad option raises ``ValueError`` with the CLI's message.

    >>> import grundy, os, tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> db = os.path.join(folder.name, "census.sqlite")
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     rows = grundy.census("octal", digits=1, to=1000, db=db, executor=pool)
    >>> [(row["game"], row["period"], row["preperiod"]) for row in rows[:3]]
    [('octal:0.1', 1, 2), ('octal:0.2', 2, 1), ('octal:0.3', 2, 0)]
    >>> folder.cleanup()
    """
    if jobs is not None:
        if executor is not None:
            raise ValueError("census option jobs sizes the default process pool; with an executor, size the executor")
        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 1024:
            raise ValueError(f"bad census option jobs `{jobs}`: a number of processes from 1 to 1024")
    if to is not None and (isinstance(to, bool) or not isinstance(to, int) or not 0 <= to <= _MAX_BOUND):
        raise ValueError(f"bad census option to `{to}`: a heap from 0 to 2^63 - 1")
    if max_move is not None and (isinstance(max_move, bool) or not isinstance(max_move, int) or not 0 <= max_move <= _MAX_BOUND):
        raise ValueError(f"bad census option max_move `{max_move}`: a number from 1 to 2^63 - 1")
    games = _grundy.census_games(
        family,
        digits=_option_text("digits", digits),
        d0=_first_digits_text(d0),
        max_move=max_move,
        moves=_option_text("moves", moves),
    )
    bounds = [to if to is not None else _grundy.census_default_max_heap(game) for game in games]
    database = _Database(db)
    try:
        pending: List[Tuple[str, int]] = [(game, bound) for game, bound in zip(games, bounds) if not database.done(game, bound)]
        if pending:
            _run(database, pending, executor, jobs, progress)
        return database.rows(_grundy.census_sorted(games))
    finally:
        database.close()


def _run(
    database: _Database,
    pending: List[Tuple[str, int]],
    executor: Optional[Executor],
    jobs: Optional[int],
    progress: bool,
) -> None:
    """Computes ``pending`` on ``executor`` (or a pool of our own) and commits each row as it
    comes; on any exception (Ctrl-C, a failed task, the database) cancels what has not run,
    keeps the rows that finished meanwhile, and re-raises."""
    own_pool = _default_pool(jobs, len(pending)) if executor is None else None
    runner = own_pool if own_pool is not None else executor
    bar = _progress_bar(progress, len(pending))
    futures = []
    written = set()
    try:
        for game, bound in pending:
            futures.append(runner.submit(census_task, game, bound))
        for future in as_completed(futures):
            try:
                row = future.result()
            except BrokenProcessPool as error:
                if own_pool is None:
                    raise
                raise RuntimeError(
                    "grundy.census: a worker process of the local pool died or could not start "
                    f"(killed, out of memory, or unable to import the main script); {_POOL_ADVICE}"
                ) from error
            database.write(row)
            written.add(future)
            if bar is not None:
                bar.update(1)
    except BaseException:
        for future in futures:
            future.cancel()
        for future in futures:
            # Rows that finished while the error came are kept too (the database allowing).
            if future not in written and future.done() and not future.cancelled() and future.exception() is None:
                try:
                    database.write(future.result())
                except Exception:
                    break
        if own_pool is not None:
            _end_pool(own_pool)
            own_pool = None
        raise
    finally:
        if bar is not None:
            bar.close()
        if own_pool is not None:
            own_pool.shutdown(wait=True)


def _progress_bar(wanted: bool, total: int) -> Any:
    if not wanted:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc="census", unit="games")
