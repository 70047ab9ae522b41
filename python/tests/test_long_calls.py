"""Ctrl-C (SIGINT) stops the long calls of built-in games: `Game.value`, `outcome`,
`winning_moves` and `grundy.table` raise KeyboardInterrupt within a few seconds, instead of
running to the end (or raising PanicException). Each runs in a child interpreter, which is
sent SIGINT about a second into the work, as a user's Ctrl-C would be."""

import signal
import subprocess
import sys
import time

import pytest
import grundy

CHILD = """
import sys, grundy
call = sys.argv[1]
print("started", flush=True)
try:
    if call == "value":
        grundy.Game("grundys-game").value(10**7)
    elif call == "outcome":
        grundy.Game("grundys-game").outcome([10**7, 3])
    elif call == "winning_moves":
        grundy.Game("grundys-game + nim").winning_moves([[10**7], [1]])
    elif call == "table":
        grundy.table("wythoff", 14000)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
print("finished", flush=True)
"""


@pytest.mark.parametrize("call", ["value", "outcome", "winning_moves", "table"])
def test_ctrl_c_stops_a_long_call_of_a_built_in_game(call, tmp_path):
    if sys.platform == "win32":
        pytest.skip("needs POSIX signals")
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    process = subprocess.Popen(
        [sys.executable, str(script), call], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline() == "started\n"
        time.sleep(1.0)
        assert process.poll() is None, f"{call}: ended before Ctrl-C: {process.communicate()}"
        process.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        stdout, stderr = process.communicate(timeout=30)
        stopped_after = time.monotonic() - interrupted
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "interrupted" in stdout and "finished" not in stdout, (stdout, stderr)
    assert "KeyboardInterrupt" in stderr and "PanicException" not in stderr, stderr
    assert process.returncode != 0
    assert stopped_after < 5, f"{call}: Ctrl-C took {stopped_after:.1f} s"


ENDLESS = """
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import grundy
endless = grundy.Game.from_moves(lambda n: [n + 1], name="endless")
try:
    endless.value(0)
except ValueError as error:
    print("refused:", error, flush=True)
else:
    print("answered", flush=True)
"""


def test_an_endless_moves_function_is_refused_within_the_memory_limit(tmp_path):
    """`moves` that never ends (every position has an option further on) meets a new position
    at each call: the game counts them against what the process may use (here `ulimit -v`
    3 GiB) and raises ValueError naming the bound, instead of growing until the kernel kills
    the interpreter."""
    if sys.platform != "linux":
        pytest.skip("needs RLIMIT_AS")
    script = tmp_path / "endless.py"
    script.write_text(ENDLESS)
    run = subprocess.run(
        [sys.executable, str(script), str(3 << 30)], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, (run.returncode, run.stdout, run.stderr)
    assert run.stdout.startswith("refused: the search met more than "), run.stdout
    assert "does `moves` end" in run.stdout and "memory" in run.stdout, run.stdout


def test_adding_up_many_games_takes_linear_time():
    """`sum(games)` adds one game at a time: each `+` shares the summands already added instead
    of copying them (10^5 games took over 120 s), and making the games does not measure the
    memory each time. The sum's value is the xor of its parts' (the Sprague–Grundy theorem)."""
    count = 100_000
    started = time.monotonic()
    games = [grundy.Game("nim") for _ in range(count)]
    total = sum(games[1:], games[0])
    position = [[heap % 7] for heap in range(count)]
    value = total.value(position)
    took = time.monotonic() - started
    expected = 0
    for heap in range(count):
        expected ^= heap % 7
    assert value == expected
    assert total.spec == " + ".join(["nim"] * count)
    # Every intermediate sum is still its own game.
    assert (games[0] + games[1] + games[2]).value([[1], [2], [3]]) == 0
    assert (games[0] + (games[1] + games[2])).spec == "nim + nim + nim"
    assert took < 60, f"{took:.1f} s"
