"""`script:PATH` games in Python: the Starlark engine runs in this process, through the same
registry as every other family, and answers as the built-in twin of each example does."""

from pathlib import Path

import numpy as np
import pytest

import grundy

GAMES = Path(__file__).resolve().parents[2] / "examples" / "games"


def script(name):
    return grundy.Game(f"script:{GAMES / name}")


def test_a_script_heap_game_answers_as_its_builtin_twin():
    mine = script("kayles.star")
    builtin = grundy.Game("kayles")
    assert np.array_equal(mine.sequence(120), builtin.sequence(120))
    assert mine.value([10, 7]) == builtin.value([10, 7])
    assert mine.outcome([3, 4]) == builtin.outcome([3, 4])
    winning = mine.winning_moves([5, 6])
    assert len(winning) > 0 and all(mine.value(move.to) == 0 for move in winning)


def test_a_script_period_and_guess():
    period = script("subtraction.star").period()
    assert (period.preperiod, period.period, period.proved) == (0, 7, False)
    pattern = script("subtraction.star").guess(to=200)["pattern"]
    assert (pattern["kind"], pattern["period"]) == ("periodic", 7)


def test_a_script_on_pairs_makes_a_table():
    table = grundy.table(f"script:{GAMES / 'wythoff.star'}", 8)
    assert np.array_equal(table, grundy.table("wythoff", 8))
    assert script("wythoff.star").value([(3, 5)]) == 0


def test_script_errors_are_one_clear_line(tmp_path):
    broken = tmp_path / "broken.star"
    broken.write_text("def moves(n):\n    return [n - 1\n")
    with pytest.raises(ValueError, match=r"bad game `script:.*`: syntax error: .*broken.star:3:1"):
        grundy.Game(f"script:{broken}")
    with pytest.raises(ValueError, match="cannot read"):
        grundy.Game(f"script:{tmp_path / 'missing.star'}")
    failing = tmp_path / "failing.star"
    failing.write_text("def moves(n):\n    return [n // 0]\n")
    with pytest.raises(ValueError, match="script:.*failing.star"):
        grundy.Game(f"script:{failing}").value([3])


def test_a_script_that_fails_on_a_heap_stops_the_quotient(tmp_path):
    failing = tmp_path / "fails_at_5.star"
    # Subtraction of 1 or 2, failing at heap 5 (a division by zero).
    failing.write_text("def moves(n):\n    if n == 5:\n        return [n // 0]\n    return [n - t for t in (1, 2) if t <= n]\n")
    game = grundy.Game(f"script:{failing}")
    assert game.quotient(to=4)["to"] == 4
    with pytest.raises(ValueError, match="fails_at_5.star"):
        game.quotient(to=8)
