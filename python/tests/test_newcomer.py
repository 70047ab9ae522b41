"""What a newcomer to the Python package meets first: the ``grundy`` command that ``pip install``
puts beside ``python`` (the CLI compiled into the extension), list-like results that behave as
lists, results whose ``str`` holds their numbers, and a census that says why it cannot start its
workers."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import grundy

ROOT = Path(__file__).resolve().parents[2]


def command():
    """The `grundy` script of this environment (beside its python), as `pip install` made it."""
    script = Path(sys.executable).parent / "grundy"
    if not script.exists():
        pytest.fail(f"no `grundy` command beside {sys.executable}: pyproject.toml's [project.scripts] installs it")
    return str(script)


def run(*arguments, **options):
    return subprocess.run([command(), *arguments], capture_output=True, text=True, timeout=120, **options)


def test_the_command_answers_as_the_binary_does():
    done = run("value", "nim", "3", "4", "5")
    assert (done.returncode, done.stdout, done.stderr) == (0, "2\n", "")
    # `python -m grundy` is the same command.
    done = subprocess.run([sys.executable, "-m", "grundy", "outcome", "nim", "1", "1"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "P\n")


def test_the_command_refuses_bad_input_with_status_2():
    done = run("value", "nim", "x")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("grundy: error: ") and done.stderr.count("\n") == 1
    done = run("value", "nim", "x", "--json")
    assert done.returncode == 2 and '"error"' in done.stdout
    assert run("no-such-command").returncode == 2


def test_the_command_reads_stdin_and_writes_a_pipe_in_full():
    done = run("value", "nim", input="1 2\n3 4 5\n")
    assert (done.returncode, done.stdout) == (0, "3\n2\n")
    # A long output reaches the pipe whole (the command flushes before Python exits).
    done = run("sequence", "kayles", "--to", "20000")
    assert done.returncode == 0 and len(done.stdout.split()) == 20001


def test_the_command_runs_script_games_in_its_own_worker(tmp_path):
    # The worker is this command started again (the interpreter, not the binary).
    done = run("sequence", "script:" + str(ROOT / "examples" / "games" / "kayles.star"), "--to", "11")
    assert (done.returncode, done.stdout, done.stderr) == (0, "0 1 2 3 1 4 3 2 1 4 2 6\n", "")


def test_ctrl_c_stops_a_long_run_with_status_130():
    # Grundy's game to 10^9: minutes of work, stopped by SIGINT after it has started.
    process = subprocess.Popen(
        [command(), "sequence", "grundys-game", "--to", "1000000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    assert "grundy:" in stderr


def test_move_lists_behave_as_lists():
    # Three heaps of 7: emptying any one of them wins.
    moves = grundy.Game("nim").winning_moves([7, 7, 7])
    as_list = list(moves)
    assert len(moves) == len(as_list) == 3
    assert moves[0] == as_list[0] and moves[-1] == as_list[-1]
    first_two = moves[:2]
    assert isinstance(first_two, grundy.MoveList) and len(first_two) == 2
    assert first_two == as_list[:2] and moves[::-1] == as_list[::-1] and moves[5:] == as_list[5:]
    assert moves[1:][0] == as_list[1]
    assert [m.to for m in moves] == [m.to for m in as_list]
    assert as_list[1] in moves and moves.index(as_list[1]) == 1 and moves.count(as_list[0]) == 1
    assert moves == moves[:] and moves != moves[:1]
    assert repr(moves[:1]) == "[" + repr(as_list[0]) + "]"
    import collections.abc

    assert isinstance(moves, collections.abc.Sequence)
    assert list(reversed(moves)) == as_list[::-1]
    with pytest.raises(IndexError):
        moves[len(as_list)]
    with pytest.raises(TypeError):
        moves["0"]
    with pytest.raises(ValueError):
        moves.index("not a move")


def test_str_of_every_result_holds_its_numbers():
    game = grundy.Game.from_moves(lambda n: [n - t for t in (2, 5) if t <= n], name="sub 2,5 by hand")
    period = game.period(max=200)
    text = str(period)
    assert "period 7" in text and "preperiod 0" in text and "0..200" in text and "not proved" in text
    assert "G(n + 7) = G(n)" in text
    built_in = str(grundy.Game("sub:2,5").period())
    assert "period 7" in built_in and "preperiod 0" in built_in
    move = grundy.Game("nim").winning_moves([3, 4, 5])[0]
    assert "2" in str(move) and "3" in str(move)
    assert "[" in str(grundy.Game("nim").winning_moves([3, 4, 5]))


def test_census_from_a_script_on_stdin_says_why_it_cannot_start_workers(tmp_path):
    script = (
        "import grundy\n"
        f"grundy.census('octal', digits=1, to=100, db={str(tmp_path / 'c.sqlite')!r})\n"
    )
    done = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("RuntimeError: grundy.census cannot start its worker processes"), done.stderr
    assert "python script.py" in last and "ThreadPoolExecutor" in last
    assert "BrokenProcessPool" not in done.stderr
