"""``grundy.census``: the rows are the CLI's and the period search's, on a Dask cluster of two
worker processes, on the default local process pool and on any executor; reruns skip what is
done; a stopped census keeps its finished rows and then finishes with an uninterrupted run's
rows; the database is the one ``docs/census.md`` describes (the CLI's ``census report`` reads
it, and the CLI continues it)."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

import grundy
from grundy import _grundy

ROOT = Path(__file__).resolve().parents[2]
#: Fields that say what a census found (all but the time it took).
FOUND = ("preperiod", "period", "saltus", "proved", "checked_to")


def cli_binary():
    """The CLI built by `cargo test --workspace` (or `cargo build`), the newest build when there
    are two (an old release build may predate the census)."""
    built = [ROOT / "target" / profile / "grundy" for profile in ("release", "debug")]
    built = [path for path in built if path.exists()]
    return max(built, key=lambda path: path.stat().st_mtime) if built else None


def dask_distributed():
    """`dask.distributed`; CI installs it (.ci/run), elsewhere the Dask tests skip without it."""
    try:
        import dask.distributed
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI: dask[distributed] is missing (.ci/run installs it)")
        pytest.skip('needs Dask: .venv/bin/pip install "dask[distributed]"')
    return dask.distributed


def cli(*args, check=True):
    binary = cli_binary()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("CI: `cargo test --workspace` builds the grundy CLI before the tests run")
        pytest.skip("the grundy CLI is not built (cargo build -p grundy-cli)")
    return subprocess.run([str(binary), *args], capture_output=True, text=True, check=check)


def cli_report(db):
    """`grundy census report --format json` of `db`, without the time taken."""
    rows = json.loads(cli("census", "report", "--db", str(db), "--format", "json").stdout)
    return [without_time(row) for row in rows]


def without_time(row):
    return {key: value for key, value in row.items() if key != "seconds"}


def check_against_period_search(rows, to):
    """Each row is what `Game(game).period(max=to)` says: the same proved pattern, or no proof."""
    for row in rows:
        found = grundy.Game(row["game"]).period(max=to)
        if row["proved"]:
            assert found.proved, row
            assert (found.preperiod, found.period, found.saltus, found.checked_to) == (
                row["preperiod"], row["period"], row["saltus"], row["checked_to"]), row
        else:
            assert not found.proved, row
            assert row["period"] is None and row["checked_to"] == to, row


def check_published(rows_by_game):
    # Kayles, 0.77: period 12 from heap 71 (Guy and Smith 1956; Winning Ways, ch. 4, p. 91).
    kayles = rows_by_game["octal:0.77"]
    assert (kayles["period"], kayles["preperiod"], kayles["saltus"], kayles["proved"]) == (12, 71, 0, True)
    # Dawson's Kayles, 0.07: period 34, last exceptional value at heap 51 of Dawson's Chess
    # (0.137, Winning Ways ch. 4, p. 89), one heap later here: from heap 53.
    dawson = rows_by_game["octal:0.07"]
    assert (dawson["period"], dawson["preperiod"], dawson["proved"]) == (34, 53, True)
    # 0.3 is "take one token" (digit 3: leaving no heap or one heap): 0 1 0 1 ..., period 2.
    assert (rows_by_game["octal:0.3"]["period"], rows_by_game["octal:0.3"]["preperiod"]) == (2, 0)


def test_dask_cluster_census_equals_the_cli(tmp_path):
    distributed = dask_distributed()
    db = tmp_path / "dask.sqlite"
    to = 2000
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream:
            rows = grundy.census("octal", digits="1..2", to=to, db=db, executor=client.get_executor())
        workers = {task["worker"] for task in stream.data}
    assert len(workers) == 2, "both worker processes computed games"
    games = [row["game"] for row in rows]
    assert games == grundy.census_sorted(grundy.census_games("octal", digits="1..2"))
    assert len(games) == 63 and games[0] == "octal:0.01" and games[-1] == "octal:0.77"
    assert all(list(row) == list(_grundy.CENSUS_COLUMNS) for row in rows)
    check_against_period_search(rows, to)
    check_published({row["game"]: row for row in rows})
    assert sum(row["proved"] for row in rows) == 46  # as the CLI's census test finds at 2000
    # The same census by the CLI: the same rows; and the CLI's report reads this database.
    cli_db = tmp_path / "cli.sqlite"
    cli("census", "octal", "--digits", "1..2", "--to", str(to), "--db", str(cli_db))
    assert cli_report(db) == [without_time(row) for row in rows] == cli_report(cli_db)
    # Byte for byte in the database, too (rare values as the CLI's JSON text, booleans as 0/1).
    query = "SELECT * FROM census ORDER BY game"
    with sqlite3.connect(db) as mine, sqlite3.connect(cli_db) as theirs:
        seconds = _grundy.CENSUS_COLUMNS.index("seconds")
        strip = lambda stored: [row[:seconds] + row[seconds + 1:] for row in stored]  # noqa: E731
        assert strip(mine.execute(query).fetchall()) == strip(theirs.execute(query).fetchall())
        schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        assert mine.execute(schema).fetchall() == theirs.execute(schema).fetchall()
        assert mine.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_default_executor_is_a_local_process_pool(tmp_path):
    db = tmp_path / "sub.sqlite"
    rows = grundy.census("sub", max_move=6, moves="1..2", to=500, db=db, jobs=2)
    # 6 one-element sets and C(6, 2) = 15 pairs, by their elements.
    assert [row["game"] for row in rows][:4] == ["sub:1", "sub:1,2", "sub:1,3", "sub:1,4"]
    assert len(rows) == 21 and all(row["family"] == "sub" for row in rows)
    # A subtraction game with moves 1..k is periodic with period k + 1 from 0 (Winning Ways ch. 3).
    assert {row["game"]: row["period"] for row in rows}["sub:1,2"] == 3
    assert all(row["proved"] for row in rows)
    check_against_period_search(rows, 500)
    if cli_binary() is not None:
        cli_db = tmp_path / "cli.sqlite"
        cli("census", "sub", "--max-move", "6", "--moves", "1..2", "--to", "500", "--db", str(cli_db))
        assert cli_report(db) == cli_report(cli_db) == [without_time(row) for row in rows]


class RecordingExecutor(ThreadPoolExecutor):
    """A thread pool (census_row releases the GIL) that records the games it was given, and can
    fail the task of one game."""

    def __init__(self, fail_on=None):
        super().__init__(max_workers=2)
        self.games = []
        self.fail_on = fail_on

    def submit(self, fn, *args, **kwargs):
        assert fn is grundy.census_task
        self.games.append(args[0])
        if args[0] == self.fail_on:
            failed = Future()
            failed.set_exception(RuntimeError(f"worker lost while computing {args[0]}"))
            return failed
        return super().submit(fn, *args, **kwargs)


def census_with(db, to, **options):
    with RecordingExecutor(**options) as executor:
        rows = grundy.census("octal", digits="1..2", to=to, db=db, executor=executor)
    return rows, executor.games


def test_a_rerun_skips_the_games_done_at_its_bound(tmp_path):
    db = tmp_path / "t.sqlite"
    first, computed = census_with(db, 2000)
    assert len(computed) == 63
    again, computed = census_with(db, 2000)
    assert computed == [] and again == first  # the stored rows, seconds and all
    smaller, computed = census_with(db, 1000)
    assert computed == [] and smaller == first  # a longer search answers a shorter one
    larger, computed = census_with(db, 2100)
    unresolved = sorted(row["game"] for row in first if not row["proved"])
    assert sorted(computed) == unresolved and len(unresolved) == 17
    assert [row for row in larger if row["proved"]] == [row for row in first if row["proved"]]
    assert all(row["max_heap"] == 2100 and row["checked_to"] == 2100 for row in larger if not row["proved"])
    # The CLI continues a database Python wrote, and Python one the CLI wrote.
    if cli_binary() is not None:
        run = cli("census", "octal", "--digits", "1..2", "--to", "2100", "--db", str(db))
        assert "0 computed now, 63 already there" in run.stdout, run.stdout
        cli_db = tmp_path / "cli.sqlite"
        cli("census", "octal", "--digits", "1", "--to", "2000", "--db", str(cli_db))
        rows, computed = census_with(cli_db, 2000)
        assert sorted(computed) == sorted(set(grundy.census_games("octal", digits="2")))
        assert cli_report(cli_db) == [without_time(row) for row in rows]


def test_a_failed_task_keeps_the_finished_rows_and_a_rerun_finishes(tmp_path):
    uninterrupted, _ = census_with(tmp_path / "whole.sqlite", 2000)
    db = tmp_path / "t.sqlite"
    with pytest.raises(RuntimeError, match="worker lost while computing octal:0.45"):
        census_with(db, 2000, fail_on="octal:0.45")
    with sqlite3.connect(db) as connection:
        kept = connection.execute("SELECT count(*) FROM census").fetchone()[0]
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert kept < 63
    rows, computed = census_with(db, 2000)
    assert len(computed) == 63 - kept and "octal:0.45" in computed
    assert [without_time(row) for row in rows] == [without_time(row) for row in uninterrupted]


CTRL_C_SCRIPT = """
import sys, grundy
if __name__ == "__main__":
    grundy.census("octal", digits=2, to=int(sys.argv[2]), db=sys.argv[1], jobs=2)
"""


def test_ctrl_c_stops_the_default_pool_and_keeps_the_finished_rows(tmp_path):
    """Ctrl-C while the two workers compute (the census of 0.01 … 0.77 to 20000 takes seconds):
    the driver ends its workers at once and raises KeyboardInterrupt; the rows finished before
    are in the database, intact. (That a rerun then finishes with an uninterrupted run's rows
    is the failed-task test above: the same path.)"""
    if sys.platform == "win32":
        pytest.skip("needs POSIX signals")
    db = tmp_path / "t.sqlite"
    to = 20_000
    script = tmp_path / "run_census.py"
    script.write_text(CTRL_C_SCRIPT)
    process = subprocess.Popen(
        [sys.executable, str(script), str(db), str(to)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )

    def stored():
        try:
            with sqlite3.connect(db, timeout=30) as connection:
                return connection.execute("SELECT count(*) FROM census").fetchone()[0]
        except sqlite3.Error:
            return 0

    deadline = time.monotonic() + 60
    while stored() < 5 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    _, stderr = process.communicate(timeout=60)
    stopped_after = time.monotonic() - interrupted
    kept = stored()
    if kept == 56:
        pytest.skip("the census finished before Ctrl-C reached it (a very fast machine)")
    assert process.returncode != 0 and "KeyboardInterrupt" in stderr, stderr
    assert stopped_after < 5, f"Ctrl-C ends the workers rather than waiting for them ({stopped_after:.1f} s)"
    assert 5 <= kept < 56
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = connection.execute("SELECT game, max_heap, proved, checked_to FROM census").fetchall()
    assert all(max_heap == to and (proved or checked_to == to) for _, max_heap, proved, checked_to in rows)


def test_bad_options_and_databases_are_one_clear_line(tmp_path):
    db = tmp_path / "x.sqlite"
    for call, needle in [
        (lambda: grundy.census("octal", digits="0..2", db=db), "--digits `0..2`"),
        (lambda: grundy.census("octal", digits="two", db=db), "--digits `two`"),
        (lambda: grundy.census("hex", digits=1, d0="3", db=db), "--d0 `3`"),
        (lambda: grundy.census("hex", digits=1, d0=[0, 44], db=db), "--d0 `44`"),
        (lambda: grundy.census("sub", max_move=3, moves=4, db=db), "--moves `4..4`"),
        (lambda: grundy.census("sub", max_move=0, moves=1, db=db), "--max-move `0`"),
        (lambda: grundy.census("octal", db=db), "needs digits"),
        (lambda: grundy.census("sub", moves=2, db=db), "needs max_move"),
        (lambda: grundy.census("octal", digits=1, moves=2, db=db), "does not take it"),
        (lambda: grundy.census("tetris", digits=1, db=db), "bad census family `tetris`"),
        (lambda: grundy.census("octal", digits=1, to=-1, db=db), "to `-1`"),
        (lambda: grundy.census("octal", digits=1, jobs=0, db=db), "jobs `0`"),
        (lambda: grundy.census("octal", digits=1, jobs=2, executor=ThreadPoolExecutor(1), db=db), "size the executor"),
    ]:
        with pytest.raises(ValueError) as raised:
            call()
        message = str(raised.value)
        assert needle in message and "\n" not in message, message
    with pytest.raises(TypeError, match="digits"):
        grundy.census("octal", digits=1.5, db=db)
    assert not db.exists(), "a bad option is refused before the database is touched"
    text = tmp_path / "notes.txt"
    text.write_text("not a database, only text\n" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (line TEXT)")
    newer = tmp_path / "newer.sqlite"
    grundy.census("octal", digits=1, to=100, db=newer)
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE census_meta SET value = '99' WHERE key = 'schema_version'")
    for path, needle in [
        (text, "is not an SQLite database"),
        (other, "not a grundy census"),
        (newer, "has schema version 99; this grundy reads version 1"),
    ]:
        with pytest.raises(ValueError, match=needle):
            grundy.census("octal", digits=1, to=100, db=path)
    with pytest.raises(ValueError, match="octal:0.8"):  # a game the binding refuses names itself
        grundy.census_row("octal:0.8", 10)


def test_a_busy_database_is_named(tmp_path, monkeypatch):
    db = tmp_path / "t.sqlite"
    grundy.census("octal", digits=1, to=100, db=db)
    # Wait 0.2 s rather than the contract's 30 s for the other writer.
    monkeypatch.setattr(_grundy, "CENSUS_BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(_grundy, "CENSUS_PRAGMAS", [pragma.replace("30000", "200") for pragma in _grundy.CENSUS_PRAGMAS])
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(RuntimeError, match=r"database `.*t.sqlite` is busy"):
            census_with(db, 200)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    rows, computed = census_with(db, 200)
    assert len(rows) == 63


def test_census_row_is_the_report_row():
    row = grundy.census_row("octal:0.16", 2000)
    assert list(row) == list(_grundy.CENSUS_COLUMNS)
    # 0.16: no period by heap 2000 (Flammenkamp lists it periodic only past 10^5), and the
    # rare-value kernel ran: its sparse space and rare values are in the row.
    assert row["proved"] is False and row["period"] is None and row["checked_to"] == 2000
    assert row["rare_mask"] is not None and row["rare_values"] == sorted(set(row["rare_values"]))
    assert isinstance(row["rare_heap_parity"], bool)
    assert grundy.census_row("sub:1,2")["max_heap"] == grundy.census_default_max_heap("sub:1,2")


def test_the_database_schema_is_the_librarys():
    docs = (ROOT / "docs" / "census.md").read_text()
    assert _grundy.CENSUS_SCHEMA.strip() in docs
    assert _grundy.CENSUS_DONE in docs
    assert all(pragma in docs for pragma in _grundy.CENSUS_PRAGMAS)


def test_readme_census_examples_run(tmp_path, monkeypatch, capsys):
    """README's Python census examples, as written there, each in a scratch directory: the Dask
    one against a scheduler and two workers started with `dask scheduler` and `dask worker`
    (here told the address by a file), the scheduler's address for `tcp://HOST:8786`."""
    dask_distributed()
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Census of a family", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    assert len(blocks) == 2, "README's census section has the local and the Dask example"
    local, cluster = blocks
    shell = [block.split("```", 1)[0] for block in section.split("```sh\n")[1:]]
    assert any("dask scheduler" in block and "dask worker tcp://HOST:8786" in block for block in shell)
    dask = str(Path(sys.executable).parent / "dask")
    scheduler_file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    # The cluster starts while the local example runs.
    started = [
        subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                          "--scheduler-file", str(scheduler_file)], **quiet)
    ]
    started += [
        subprocess.Popen([dask, "worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1", "--no-nanny",
                          "--no-dashboard"], **quiet)
        for _ in range(2)
    ]
    try:
        (tmp_path / "local").mkdir()
        monkeypatch.chdir(tmp_path / "local")
        namespace = {"__name__": "__main__"}
        exec(compile(local, "README.md (census, one machine)", "exec"), namespace)
        assert capsys.readouterr().out == "octal:0.77 12 71\n"  # as README's comment says
        local_rows = [without_time(row) for row in namespace["rows"]]
        assert len(local_rows) == 63

        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        from dask.distributed import Client

        with Client(address) as client:
            client.wait_for_workers(2, timeout=60)
        (tmp_path / "cluster").mkdir()
        monkeypatch.chdir(tmp_path / "cluster")
        namespace = {"__name__": "__main__"}
        exec(compile(cluster.replace("tcp://HOST:8786", address), "README.md (census, Dask)", "exec"), namespace)
        # Computed by the two workers (this process only writes): the rows of the local run.
        assert [without_time(row) for row in namespace["rows"]] == local_rows
        assert (tmp_path / "cluster" / "census.sqlite").exists()
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
