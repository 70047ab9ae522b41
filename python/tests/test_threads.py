"""One game from `moves` used by several Python threads at once: no thread waits forever, each
gets the library's answers, and each gets back the exception its own call of `moves` raised.
A `moves` that asks its own game is refused rather than left waiting for itself.

Each check runs in a child interpreter with a time limit: threads caught in a deadlock may hold
the GIL, and then no timeout inside the same interpreter (`Thread.join(timeout=...)`) would
ever return. A hang fails the test after the limit instead of hanging the test run.
"""

import subprocess
import sys
import textwrap

# Far above what the checks take (well under a second each), far below a stuck CI job.
TIME_LIMIT = 60


def run_child(script):
    """Runs `script` in a child interpreter; fails the test if it hangs or fails."""
    try:
        result = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=TIME_LIMIT
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(
            f"the child still ran after {TIME_LIMIT} s (a deadlock); "
            f"output so far: {expired.stdout!r} {expired.stderr!r}"
        ) from None
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok", result.stdout + result.stderr


COMMON = """
import sys
import threading

import grundy

# Threads take turns with the GIL as often as the interpreter lets them: a thread is then
# stopped in every part of a call, not only after its calls of `moves` are all done.
sys.setswitchinterval(1e-6)


def kayles(n):
    return [grundy.Sum(left, n - take - left) for take in (1, 2) for left in range(n - take + 1)]


def in_threads(work, count=4):
    \"\"\"Runs work(k) on `count` daemon threads started together; its answers, by k.\"\"\"
    start = threading.Barrier(count)
    answers = [None] * count

    def run(k):
        start.wait()
        try:
            answers[k] = ("answer", work(k))
        except BaseException as error:
            answers[k] = ("raised", error)

    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    stuck = [k for k, thread in enumerate(threads) if thread.is_alive()]
    if stuck:
        print(f"threads {stuck} still run after 30 s", flush=True)
        sys.exit(1)
    return answers
"""


def test_must_not_hang_with_threads_sharing_one_game_from_moves():
    run_child(
        COMMON
        + """
heaps = range(61)
builtin = grundy.Game("kayles")
expected_values = [builtin.value(n) for n in heaps]
expected_outcomes = [builtin.outcome(n) for n in heaps]
expected_sums = [builtin.value([n % 7]) ^ n for n in heaps]


# A fresh game each time: its threads meet on positions no call has valued yet.
for attempt in range(5):
    mine = grundy.Game.from_moves(kayles, name="kayles by hand")
    summed = mine + grundy.Game("nim")

    def work(k):
        # Each thread walks the heaps in its own order, so that they meet on new positions.
        order = list(heaps) if k % 2 == 0 else list(reversed(heaps))
        values = {n: mine.value(n) for n in order}
        outcomes = {n: mine.outcome([n]) for n in order}
        sums = {n: summed.value([[n % 7], [n]]) for n in order}
        sum_outcomes = {n: summed.outcome([[n % 7], [n]]) for n in order}
        texts = {n: summed.value(f"{n % 7} + {n}") for n in order}
        return values, outcomes, sums, sum_outcomes, texts

    for kind, answer in in_threads(work):
        assert kind == "answer", answer
        values, outcomes, sums, sum_outcomes, texts = answer
        assert [values[n] for n in heaps] == expected_values, values
        assert [outcomes[n] for n in heaps] == expected_outcomes, outcomes
        assert [sums[n] for n in heaps] == expected_sums, sums
        assert [sum_outcomes[n] for n in heaps] == ["P" if s == 0 else "N" for s in expected_sums]
        assert [texts[n] for n in heaps] == expected_sums, texts
print("ok")
"""
    )


def test_must_not_hang_with_threads_running_long_methods_on_one_game_from_moves():
    run_child(
        COMMON
        + """
import numpy as np

expected = grundy.Game("kayles").sequence(60)
mine = grundy.Game.from_moves(kayles, name="kayles by hand")


def work(k):
    # A long method (sequence, winning moves, period) in some threads while others ask values.
    if k == 0:
        return mine.sequence(60).tolist()
    if k == 1:
        return [[move.notation for move in mine.winning_moves(n)] for n in range(61)]
    if k == 2:
        return mine.period(max=60).checked_to
    return [mine.value(n) for n in range(60, -1, -1)][::-1]


answers = in_threads(work)
assert all(kind == "answer" for kind, _ in answers), answers
assert answers[0][1] == expected.tolist()
alone = grundy.Game.from_moves(kayles, name="kayles by hand")
assert answers[1][1] == [[move.notation for move in alone.winning_moves(n)] for n in range(61)]
assert answers[2][1] == alone.period(max=60).checked_to
assert answers[3][1] == expected.tolist()
print("ok")
"""
    )


def test_must_give_each_thread_the_exception_its_own_moves_call_raised():
    run_child(
        COMMON
        + """
class Refused(Exception):
    pass


def refusing(n):
    # Heaps 20 + k refuse with an exception naming k: thread k asks for heap 20 + k only.
    if n >= 20:
        raise Refused(f"heap {n}")
    return kayles(n)


for attempt in range(20):
    game = grundy.Game.from_moves(refusing, name="refusing")

    def work(k):
        try:
            game.value(20 + k)
        except Refused as error:
            return str(error)
        return "no exception"

    answers = in_threads(work)
    assert answers == [("answer", f"heap {20 + k}") for k in range(4)], answers
print("ok")
"""
    )


def test_must_refuse_a_moves_that_asks_its_own_game():
    run_child(
        COMMON
        + """
for asking in (
    lambda game, n: game.value(n - 1),
    lambda game, n: (game + grundy.Game("nim")).outcome([[n - 1], [0]]),
    lambda game, n: game.sequence(3),
):
    game = None

    def moves(n):
        if n == 3:
            asking(game, n)
        return [n - 1] if n else []

    game = grundy.Game.from_moves(moves, name="asks itself")
    try:
        game.value(5)
    except RuntimeError as error:
        assert str(error).startswith("the moves function of the game asks itself called a method of that game"), error
    else:
        raise AssertionError("no RuntimeError")
    # The game still answers, and other threads are not held up meanwhile.
    assert in_threads(lambda k: game.value(2)) == [("answer", 0)] * 4
print("ok")
"""
    )
