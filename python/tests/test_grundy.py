"""The Python package's answers: the library's, checked against the CLI, the definition and
known values."""

import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import grundy

ROOT = Path(__file__).resolve().parents[2]


def mex(values):
    seen = set(values)
    n = 0
    while n in seen:
        n += 1
    return n


def kayles_moves(n):
    """Kayles by the rules: knock down one pin or two adjacent pins; the row splits in two."""
    return [grundy.Sum(left, n - take - left) for take in (1, 2) for left in range(n - take + 1)]


def test_must_show_nim_value():
    assert grundy.Game("nim").value([3, 4, 5]) == 2


def test_must_show_kayles_from_moves_equals_builtin_to_200():
    mine = grundy.Game.from_moves(kayles_moves, name="kayles by hand")
    expected = grundy.Game("kayles").sequence(200)
    assert np.array_equal(mine.sequence(200), expected)
    # Published (Guy and Smith 1956; Winning Ways ch. 4): period 12 from heap 71, the period
    # from heap 72 reading 4 1 2 8 1 4 7 2 1 8 2 7.
    assert expected[72:84].tolist() == [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]
    assert all(expected[n + 12] == expected[n] for n in range(71, 189))
    assert expected[70] != expected[82]


def cli_binary():
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "grundy"
        if path.exists():
            return path
    return None


def test_must_show_sequence_equals_cli():
    values = grundy.Game("sub:2,5").sequence(20)
    assert isinstance(values, np.ndarray) and values.dtype.kind == "u" and values.shape == (21,)
    # The CLI's `grundy sequence sub:2,5 --to 20`, as it prints it (period 7, from the CLI tests).
    cli_text = "0 0 1 1 0 2 1 0 0 1 1 0 2 1 0 0 1 1 0 2 1"
    binary = cli_binary()
    if binary is not None:
        cli_text = subprocess.run([binary, "sequence", "sub:2,5", "--to", "20"], check=True, capture_output=True, text=True).stdout
    assert values.tolist() == [int(word) for word in cli_text.split()]


def test_must_show_big_ints_are_exact():
    assert grundy.Game("nim").value([10**40, 3]) == 10**40 ^ 3
    huge = 2 * 7**5000  # even, and past Python's 4300-digit int/str limit
    assert grundy.Game("nim").value([huge, huge + 1]) == 1
    assert grundy.Game("nim").winning_moves([huge, 1])[0].to == [1, 1]


def test_a_wrong_answer_fails():
    """The definition (mex over options) against the library: any wrong value fails here."""
    game = grundy.Game("sub:1,3,4")
    values = game.sequence(300).tolist()
    by_definition = []
    for n in range(301):
        by_definition.append(mex(by_definition[n - take] for take in (1, 3, 4) if take <= n))
    assert values == by_definition
    assert game.value([5]) == 3 and game.value([5, 6]) == 3 ^ 2


def test_sums_of_different_games():
    # The CLI's `grundy value nim 3 + wythoff 4,7 + sub:2,5 9` = 3 xor 0 xor 1.
    assert grundy.Game("nim + wythoff + sub:2,5").value([[3], [(4, 7)], [9]]) == 2
    assert grundy.Game("nim + wythoff + sub:2,5").value("3 + 4,7 + 9") == 2
    moves = grundy.Game("nim + wythoff").winning_moves([[3], [(4, 7)]])
    assert [[0], [(4, 7)]] in [m.to for m in moves]
    for m in moves:
        assert grundy.Game("nim + wythoff").value(m.to) == 0
    for m in grundy.Game("nim + kayles").winning_moves([[5], [7]]):
        assert grundy.Game("nim + kayles").value(m.to) == 0


def test_outcomes_and_moves_lead_to_p_positions():
    game = grundy.Game("octal:0.77")
    assert game.outcome([3, 4]) == "N" and game.outcome([1, 1]) == "P"
    for m in game.winning_moves([3, 4, 9]):
        assert game.value(m.to) == 0 and m.explain
    assert grundy.Game("wythoff").outcome([(4, 7)]) == "P"


def test_errors_are_the_clis():
    with pytest.raises(ValueError, match=r"unknown game `kayls` \(did you mean `kayles`\?\)"):
        grundy.Game("kayls")
    with pytest.raises(ValueError, match="bad position `-3` for nim: a heap cannot be negative"):
        grundy.Game("nim").value([-3])
    with pytest.raises(ValueError, match="bad game `bash:0`"):
        grundy.Game("bash:0")
    with pytest.raises(ValueError, match="has no nim-sequence"):
        grundy.Game("wythoff").sequence(5)
    with pytest.raises(TypeError):
        grundy.Game("nim").value([3.5])


def test_period():
    period = grundy.Game("kayles").period()
    assert (period.preperiod, period.period, period.saltus, period.proved) == (71, 12, 0, True)
    assert "71" in str(period)
    assert grundy.Game("sub:2,5").period() == grundy.Game("sub:5,2").period()


def test_a_search_without_a_pattern_says_how_far_it_went():
    # octal:0.6 has no period known: the answer is what `grundy period --max` says, not None.
    found = grundy.Game("octal:0.6").period(max=2000)
    assert (found.preperiod, found.period, found.saltus, found.proved) == (None, None, None, False)
    assert found.checked_to == 2000
    assert "no period proved for heaps 0..2000" in str(found)


def test_table():
    table = grundy.table("wythoff", 32)
    assert table.shape == (32, 32) and table.dtype == np.uint64
    # Wythoff's P-positions are (floor(k*phi), floor(k*phi^2)).
    phi = (1 + 5**0.5) / 2
    for k in range(1, 10):
        a, b = int(k * phi), int(k * phi * phi)
        if b < 32:
            assert table[a, b] == 0 and table[b, a] == 0
    # Every value is the mex of the row, column and diagonal before it (the definition).
    for x in range(12):
        for y in range(12):
            options = [table[i, y] for i in range(x)] + [table[x, j] for j in range(y)]
            options += [table[x - d, y - d] for d in range(1, min(x, y) + 1)]
            assert table[x, y] == mex(int(v) for v in options)


def test_table_of_a_graph_and_loopy_values(tmp_path):
    graph = tmp_path / "loop.txt"
    # a <-> b is a cycle play can stay on forever; b -> c also ends, at c. Smith's theory:
    # c = 0, b = 1 (it reaches only 0-valued a and c), a = 0 (its one option is b = 1).
    graph.write_text("a b\nb a\nb c\nd e\ne d\n")
    rows = grundy.table(f"dag:{graph}")
    names = {name: (value, outcome) for name, value, outcome in rows}
    assert names["c"] == (0, "P") and names["b"] == (1, "N") and names["a"] == (0, "P")
    assert names["d"] == (grundy.Infinite([]), "D")
    assert grundy.Game(f"dag:{graph}").outcome(["d", "b"]) == "D"


def test_game_files_are_read_with_the_clis_limits(tmp_path):
    # /dev/zero never ends: the CLI's readers stop one byte past their limit (the package read
    # it to the end of memory before).
    for word in ["dag:/dev/zero", "geography:/dev/zero", "script:/dev/zero"]:
        with pytest.raises(ValueError, match="larger than|longer than|not UTF-8"):
            grundy.Game(word)
    big = tmp_path / "big.star"
    big.write_text("#" * (5 << 20) + "\ndef moves(n):\n    return []\n")
    with pytest.raises(ValueError, match="the most a script file may be"):
        grundy.Game(f"script:{big}")


def test_from_moves_calls_moves_once_per_position():
    calls = []

    def moves(n):
        calls.append(n)
        return [n - take for take in (1, 3, 4) if take <= n]

    game = grundy.Game.from_moves(moves, name="sub 1,3,4")
    assert game.sequence(50).tolist() == grundy.Game("sub:1,3,4").sequence(50).tolist()
    assert sorted(calls) == list(range(51))
    assert game.value([7, 9]) == grundy.Game("sub:1,3,4").value([7, 9])
    assert len(calls) == 51


def test_from_moves_tuples_and_strings():
    def wythoff(position):
        x, y = position
        return [(x - k, y) for k in range(1, x + 1)] + [(x, y - k) for k in range(1, y + 1)] + [
            (x - k, y - k) for k in range(1, min(x, y) + 1)
        ]

    game = grundy.Game.from_moves(wythoff, name="wythoff by hand")
    table = grundy.table("wythoff", 10)
    for x in range(10):
        for y in range(10):
            assert game.value((x, y)) == table[x, y]
    assert [m.to for m in game.winning_moves((4, 8))] == [(4, 7)]
    words = grundy.Game.from_moves(lambda s: [s[:i] + s[i + 1 :] for i in range(len(s))], name="delete a letter")
    assert words.value("abc") == 1 and words.outcome("ab") == "P"


def test_deep_positions_need_no_recursion():
    game = grundy.Game.from_moves(lambda n: [n - 1] if n > 0 else [], name="chain")
    assert game.value(10**6) == 0
    assert game.value(10**6 + 1) == 1


def test_cycles_are_reported():
    game = grundy.Game.from_moves(lambda n: [(n + 1) % 5], name="ring")
    with pytest.raises(ValueError, match=r"loopy: position 0 can be reached from itself \(0 -> 1 -> 2 -> 3 -> 4 -> 0\)"):
        game.value(0)
    with pytest.raises(ValueError, match="loopy"):
        game.value(2)


def test_exceptions_in_moves_propagate():
    class Boom(Exception):
        pass

    def moves(n):
        if n == 3:
            raise Boom("no moves for 3")
        return [n - 1] if n else []

    game = grundy.Game.from_moves(moves, name="boom")
    with pytest.raises(Boom, match="no moves for 3") as info:
        game.value(10)
    assert any(entry.name == "moves" for entry in info.traceback)
    assert game.value(2) == 0  # what was computed stays usable
    with pytest.raises(TypeError, match="a position is an int, a tuple or a string"):
        grundy.Game.from_moves(lambda n: [[1]], name="bad").value(0)


def test_a_stopped_search_calls_moves_again_only_where_it_stopped():
    calls = []
    broken = {3}

    def moves(n):
        calls.append(n)
        if n in broken:
            raise ValueError(f"no moves for {n}")
        return [n - 1] if n else []

    game = grundy.Game.from_moves(moves, name="mended")
    with pytest.raises(ValueError, match="no moves for 3"):
        game.value(6)
    broken.clear()
    assert game.value(6) == 0
    assert calls == [6, 5, 4, 3, 3, 2, 1, 0]


def test_an_error_reading_the_options_names_the_position():
    with pytest.raises(TypeError, match="a position is an int, a tuple or a string") as info:
        grundy.Game.from_moves(lambda n: [n - 1, [1]] if n else [], name="bad").value(2)
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == ["in the options of position 2 of bad"]


def test_long_cycles_are_shortened():
    game = grundy.Game.from_moves(lambda n: [(n + 1) % 30], name="big ring")
    path = r"0 -> 1 -> 2 -> 3 -> 4 -> … \(20 more\) … -> 25 -> 26 -> 27 -> 28 -> 29 -> 0"
    with pytest.raises(ValueError, match=rf"the game big ring is loopy: position 0 .*\({path}\)"):
        game.value(0)


def test_winning_moves_give_back_the_objects_moves_returned_without_calling_it_again():
    calls = []

    def moves(n):
        calls.append(n)
        return [True] if n == 2 else []

    game = grundy.Game.from_moves(moves, name="true")
    assert game.value(2) == 1
    [move] = game.winning_moves(2)
    assert move.to is True
    assert calls == [2, True]
    assert game.value(grundy.Sum(1, 2)) == 1 and calls == [2, True]


def test_user_period_is_observed_not_proved():
    game = grundy.Game.from_moves(lambda n: [n - t for t in (2, 5) if t <= n], name="sub 2,5 by hand")
    period = game.period(max=200)
    assert (period.preperiod, period.period, period.proved) == (0, 7, False)


def test_pictures_and_tables_for_notebooks():
    svg = grundy.Game("kayles").plot(to=200)._repr_svg_()
    assert "<svg" in svg and "kayles" in svg
    assert "<svg" in grundy.Game("wythoff").plot(size=20).svg
    html = grundy.Game("nim").winning_moves([3, 4, 5])._repr_html_()
    assert "<table" in html and "3 -&gt; 1" in html


def test_a_position_given_as_several_arguments_names_the_list_that_works():
    nim = grundy.Game("nim")
    with pytest.raises(TypeError, match=r"value\(\) takes one position, not 3 arguments: .* value\(\[3, 4, 5\]\)"):
        nim.value(3, 4, 5)
    with pytest.raises(TypeError, match=r"outcome\(\[3, 4\]\)"):
        nim.outcome(3, 4)
    with pytest.raises(TypeError, match=r"winning_moves\(\[1, 2\]\)"):
        nim.winning_moves(1, 2, compound="every")
    assert nim.value([3, 4, 5]) == 2 and nim.outcome([1, 2], compound="every") == "N"


def test_a_picture_is_saved_in_the_format_its_name_says(tmp_path):
    picture = grundy.Game("wythoff").plot(size=16)
    picture.save(tmp_path / "w.png")
    picture.save(str(tmp_path / "W.SVG"))
    assert (tmp_path / "w.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "W.SVG").read_text().lstrip().startswith(("<svg", "<?xml"))
    with pytest.raises(ValueError, match="name it FILE.svg or FILE.png"):
        picture.save(tmp_path / "w.jpg")
    assert not (tmp_path / "w.jpg").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["W.SVG", "w.png"]


def test_progress_bar_is_optional():
    assert grundy.Game("kayles").sequence(1000, progress=True).shape == (1001,)


def test_keyboard_interrupt_stops_a_long_sequence():
    if not hasattr(signal, "pthread_kill"):
        pytest.skip("needs signal.pthread_kill")
    main = threading.get_ident()
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # Grundy's game to 10^7: many seconds of work, stopped after 0.3 s.
            grundy.Game("grundys-game").sequence(10**7)
    finally:
        timer.cancel()


def test_keyboard_interrupt_stops_a_python_game():
    main = threading.get_ident()
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.Game.from_moves(lambda n: [n - 1] if n > 0 else [], name="chain").value(10**9)
    finally:
        timer.cancel()


def test_keyboard_interrupt_stops_a_quotient_and_keeps_the_heaps_done():
    main = threading.get_ident()
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as stopped:
            # Dawson's Kayles to heap 60: many seconds of work (order 360 at heap 30 alone),
            # stopped after 0.3 s.
            grundy.Game("dawson").quotient(to=60, max_order=100000)
    finally:
        timer.cancel()
    partial = stopped.value.quotient
    assert partial["to"] < 60 and len(partial["heaps"]) == partial["to"] + 1


def test_guess_matches_the_cli_contract():
    kayles = grundy.Game("kayles").guess()
    assert kayles["game"] == "kayles"
    pattern = kayles["pattern"]
    assert (pattern["kind"], pattern["status"], pattern["period"], pattern["preperiod"]) == ("periodic", "proved", 12, 71)
    # Proved by the period prover: the values it read are both the fit and the check.
    assert pattern["proof"] and pattern["checked_to"] >= pattern["fitted_to"] >= 71 + 12
    assert grundy.Game("grundys-game").guess(to=200)["pattern"]["kind"] == "none"
    # A game from a Python function: take 1 or 2, G(n) = n mod 3, but only ever checked.
    take = grundy.Game.from_moves(lambda n: [n - k for k in (1, 2) if k <= n], name="take-1-2")
    found = take.guess(to=60)["pattern"]
    assert (found["formula"], found["status"]) == ("G(n) = n mod 3", "checked")
    with pytest.raises(ValueError):
        grundy.Game("nim + wythoff").guess()

def octal_options(digits, n):
    """The options of a heap of n in the octal game 0.<digits>, each a tuple of heaps."""
    options = []
    for take, digit in enumerate(digits, start=1):
        digit = int(digit)
        if digit & 1 and n == take:
            options.append(())
        if digit & 2 and n > take:
            options.append((n - take,))
        if digit & 4:
            options.extend((left, n - take - left) for left in range(1, (n - take) // 2 + 1) if n - take - left >= 1)
    return options


def misere_p(digits, heaps, memo):
    """Misère P-position by the definition: some move, and every move to an N-position."""
    key = tuple(sorted(heap for heap in heaps if octal_options(digits, heap)))
    if key not in memo:
        moves = [
            key[:index] + option + key[index + 1 :]
            for index, heap in enumerate(key)
            for option in octal_options(digits, heap)
        ]
        memo[key] = bool(moves) and not any(misere_p(digits, move, memo) for move in moves)
    return memo[key]


def test_quotient_predicts_misere_play_by_the_definition():
    for digits, to, order in (("75", 30, 8), ("07", 30, 360)):
        quotient = grundy.Game(f"octal:0.{digits}").quotient(to=to)
        assert quotient["order"] == order
        assert len(quotient["heaps"]) == to + 1 == len(quotient["pretending_function"])
        product, p_portion = quotient["product"], set(quotient["p_portion"])
        memo = {}
        for first in range(0, 13):
            for second in range(0, 13):
                for third in (0, 1, 2, 5):
                    heaps = (first, second, third)
                    element = quotient["identity"]
                    for heap in heaps:
                        element = product[element][quotient["heaps"][heap]]
                    assert (element in p_portion) == misere_p(digits, heaps, memo), heaps


def test_quotient_refuses_clearly():
    with pytest.raises(ValueError, match="past the limit of 10") as stopped:
        grundy.Game("kayles").quotient(to=40, max_order=10)
    # The proved quotient of the heaps done comes with the error, as the CLI prints it.
    partial = stopped.value.quotient
    assert partial["to"] < 40 and partial["order"] <= 10
    assert len(partial["heaps"]) == partial["to"] + 1
    with pytest.raises(ValueError, match="heap game"):
        grundy.Game("wythoff").quotient(to=3)


def test_a_built_in_game_plus_a_game_from_moves_is_their_sum():
    """Nim + Kayles by hand against the plain definition: mex over every move of the sum."""
    mine = grundy.Game("nim") + grundy.Game.from_moves(kayles_moves, name="kayles by hand")
    assert mine.spec == "nim + kayles by hand"

    memo = {}

    def value(heap, rows):
        key = (heap, tuple(sorted(rows)))
        if key not in memo:
            reached = set()
            for smaller in range(heap):
                reached.add(value(smaller, rows))
            for index, row in enumerate(rows):
                for option in kayles_moves(row):
                    rest = rows[:index] + rows[index + 1 :] + tuple(option.parts)
                    reached.add(value(heap, rest))
            memo[key] = mex(reached)
        return memo[key]

    for heap in range(6):
        for row in range(8):
            expected = value(heap, (row,))
            assert mine.value([[heap], [row]]) == expected
            assert mine.outcome([[heap], [row]]) == ("P" if expected == 0 else "N")
            moves = mine.winning_moves([[heap], [row]])
            assert (len(moves) > 0) == (expected != 0)
            for move in moves:
                assert mine.value(move.to) == 0
    assert grundy.Game.from_moves(kayles_moves) + grundy.Game("nim") is not None
    with pytest.raises(TypeError):
        grundy.Game("nim") + 3


# A game from `moves` on ints reaches every heap command by the library's one path (the heap
# game its adapter offers), as a built-in heap game does.


def test_kayles_from_moves_has_every_heap_command_of_the_built_in():
    mine = grundy.Game.from_moves(kayles_moves, name="kayles by hand")
    built_in = grundy.Game("kayles")
    assert np.array_equal(mine.sequence(300), built_in.sequence(300))
    assert mine.sequence(300).dtype == built_in.sequence(300).dtype
    period = mine.period(max=300)
    assert (period.preperiod, period.period, period.saltus, period.proved) == (71, 12, 0, False)
    assert "observed, not proved" in str(period) and "kayles by hand" in str(period)
    assert built_in.period().proved  # the octal periodicity theorem proves the built-in's
    guessed = mine.guess(to=200)["pattern"]
    expected = built_in.guess()["pattern"]
    assert (guessed["kind"], guessed["period"], guessed["preperiod"]) == ("periodic", 12, 71)
    assert guessed["formula"] == expected["formula"]
    assert guessed["status"] == "checked" and expected["status"] == "proved"
    assert mine.quotient(to=8) == built_in.quotient(to=8)
    picture = mine.plot(to=100)
    assert "<svg" in picture.svg and "kayles by hand" in picture.svg


def test_octal_075_from_moves_has_the_quotient_of_the_built_in():
    mine = grundy.Game.from_moves(lambda n: [grundy.Sum(*option) for option in octal_options("75", n)], name="0.75")
    assert np.array_equal(mine.sequence(60), grundy.Game("octal:0.75").sequence(60))
    assert mine.quotient(to=8) == grundy.Game("octal:0.75").quotient(to=8)
    assert mine.quotient(to=20) == grundy.Game("octal:0.75").quotient(to=20)


def test_heap_commands_call_moves_once_per_position():
    calls = []

    def moves(n):
        calls.append(n)
        return [grundy.Sum(*option) for option in octal_options("07", n)]

    game = grundy.Game.from_moves(moves, name="dawson by hand")
    assert np.array_equal(game.sequence(100), grundy.Game("dawson").sequence(100))
    assert sorted(calls) == list(range(101))
    game.period(max=100)
    game.quotient(to=12)
    game.plot(to=100)
    game.guess(to=50)
    assert len(calls) == len(set(calls))  # the heaps past 100 that guess checks, once each


def test_a_name_of_a_theorem_proves_nothing_of_a_function():
    """Split-Nim's values, the odious numbers, are proved for the built-in split-nim by
    induction; a function named so that gives the same values is only checked."""

    def odious(n):
        found = [k for k in range(2 * n + 2) if bin(k).count("1") % 2 == 1]
        return found[n - 1] if n else 0

    def moves(position):
        if isinstance(position, tuple):  # ("nim", k): a nim heap of k, to reach every value
            return [("nim", smaller) for smaller in range(position[1])]
        return [("nim", value) for value in range(odious(position))]

    mine = grundy.Game.from_moves(moves, name="split-nim")
    built_in = grundy.Game("split-nim")
    assert np.array_equal(mine.sequence(40), built_in.sequence(40))
    expected, found = built_in.guess(to=40)["pattern"], mine.guess(to=40)["pattern"]
    assert expected["status"] == "proved" and expected["formula"] == found["formula"]
    assert found["status"] == "checked" and not found.get("proof")
    assert not mine.period(max=100).proved


def test_exceptions_in_moves_propagate_unchanged_from_heap_commands():
    class Boom(Exception):
        pass

    raised = []

    def moves(n):
        if n == 5:
            raised.append(Boom(f"no moves for {n}"))
            raise raised[-1]
        return [n - take for take in (1, 2) if take <= n]

    for command in (
        lambda game: game.sequence(10),
        lambda game: game.period(max=10),
        lambda game: game.guess(to=10),
        lambda game: game.quotient(to=8),
        lambda game: game.plot(to=10),
    ):
        game = grundy.Game.from_moves(moves, name="boom")
        with pytest.raises(Boom) as info:
            command(game)
        assert info.value is raised[-1]
        assert any(entry.name == "moves" for entry in info.traceback)
        assert game.value(4) == 1  # what was computed stays usable


def test_cycles_are_named_by_heap_commands():
    game = grundy.Game.from_moves(lambda n: [(n + 1) % 5], name="ring")
    for command in (lambda: game.sequence(3), lambda: game.quotient(to=3)):
        with pytest.raises(ValueError, match=r"loopy: position 0 can be reached from itself \(0 -> 1 -> 2 -> 3 -> 4 -> 0\)"):
            command()


def test_heap_commands_say_they_take_a_game_on_ints():
    def wythoff(position):
        x, y = position
        return [(x - k, y) for k in range(1, x + 1)] + [(x, y - k) for k in range(1, y + 1)]

    pairs = grundy.Game.from_moves(wythoff, name="pairs")
    words = grundy.Game.from_moves(lambda s: [s[:i] + s[i + 1 :] for i in range(len(s))], name="delete a letter")
    for game in (pairs, words):
        for name, command in (
            ("sequence", lambda: game.sequence(5)),
            ("period", lambda: game.period(max=10)),
            ("guess", lambda: game.guess(to=10)),
            ("quotient", lambda: game.quotient(to=5)),
            ("plot", lambda: game.plot(to=5)),
        ):
            with pytest.raises(ValueError, match=rf"^{name} takes a game on ints \(heaps\): moves\(0\) of {game.spec} raised TypeError") as info:
                command()
            assert isinstance(info.value.__cause__, TypeError)
    assert pairs.value((2, 1)) == 3  # the game itself still answers
    # Options that are not heaps: the quotient says which.
    not_heaps = grundy.Game.from_moves(lambda n: [("x", n - 1)] if isinstance(n, int) and n else [], name="tagged")
    with pytest.raises(ValueError, match=r'heap 1 has the option `\("x", 0\)`, which is not a heap'):
        not_heaps.quotient(to=3)
    with pytest.raises(ValueError, match="sum of games"):
        (pairs + grundy.Game("nim")).plot()


def test_keyboard_interrupt_stops_heap_commands_of_a_python_game():
    main = threading.get_ident()
    chain = grundy.Game.from_moves(lambda n: [n - 1] if n > 0 else [], name="chain")
    dawson = grundy.Game.from_moves(lambda n: [grundy.Sum(*option) for option in octal_options("07", n)], name="dawson")
    for command in (lambda: chain.sequence(10**8), lambda: dawson.quotient(to=60, max_order=100000)):
        timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                command()
        finally:
            timer.cancel()
    assert chain.value(5) == 1  # usable after
