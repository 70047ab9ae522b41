"""Large positions on `grundy serve`'s page: options judged a page at a time by the command
(`moves --all --offset --count`), and a heap whose moves are too many to list keeps its answer,
its board and its move box.

Run with the page's other browser tests (crates/grundy-cli/tests/serve.rs sets the
environment); the helpers are theirs.
"""

from selenium.webdriver.common.by import By

from test_serve_page import (  # noqa: F401 (the fixture `browser` is used by name)
    browser,
    by_id,
    cli_json,
    history,
    options,
    page,
    settled,
    shoot,
    wait,
    wait_for_answer,
    winning_moves,
    your_turn,
)

HUGE = "1000000000000000000000000000000"


def test_a_huge_nim_heap_answers_with_no_error(browser):
    browser.get(page(game="nim", position=HUGE))
    wait_for_answer(browser)
    wait(browser, lambda: by_id(browser, "no-moves").is_displayed(), "the reason no option is listed")
    settled(browser)
    expected = cli_json("value", "nim", HUGE)
    assert (by_id(browser, "outcome").text, by_id(browser, "value").text) == (expected["outcome"], expected["value"])
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    assert "too many to list" in by_id(browser, "no-moves").text
    assert winning_moves(browser) == ["0"]
    # Play: the board, the value and why no move is offered (`grundy play` cannot list the
    # moves to read one either), no error.
    browser.get(page(game="nim", position=HUGE, view="play"))
    wait(browser, lambda: by_id(browser, "play-hint").text, "the reason")
    settled(browser)
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    assert HUGE in by_id(browser, "board").text
    hint = by_id(browser, "play-hint").text
    assert "too many to list" in hint and f"(N, {HUGE})" in hint and "smaller position" in hint, hint
    assert not by_id(browser, "move-form").is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, "#play-options .option") == []
    shoot(browser, "play-huge")


def test_a_million_options_are_judged_a_page_at_a_time(browser):
    # 10^6 options: judged all at once they took more than the server's 10 s.
    browser.get(page(game="nim", position="1000000", view="play"))
    your_turn(browser)
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    shown = options(browser)
    assert len(shown) == 40
    assert shown[0] == ("999999", "N", "999999")
    assert by_id(browser, "play-pages").text.count("1000000") == 1
    # The next page: options 41 to 80, as the command line judges them.
    by_id(browser, "play-pages").find_elements(By.TAG_NAME, "button")[1].click()
    wait(browser, lambda: options(browser) and options(browser)[0][0] == "999959", "the second page")
    page_two = cli_json("moves", "--all", "--offset", "40", "--count", "40", "nim", "1000000")
    assert page_two["options_total"] == 1000000
    assert options(browser) == [(" ".join(one["to"]), one["outcome"], one["value"]) for one in page_two["options"]]
    # Grundy's game of 30000: 40 options judged, not 14999.
    browser.get(page(game="grundys-game", position="30000"))
    wait(browser, lambda: options(browser), "Grundy's game's first page")
    settled(browser)
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    assert len(options(browser)) == 40
    first = cli_json("moves", "--all", "--offset", "0", "--count", "40", "grundys-game", "30000")
    assert options(browser) == [(" ".join(one["to"]), one["outcome"], one["value"]) for one in first["options"]]
    shoot(browser, "answer-large")


def test_the_mex_line_says_why_a_heap_has_its_value(browser):
    # Kayles 10: G(10) = mex{0, 1, 3, 4, 5, 7} = 2 (Winning Ways' table).
    browser.get(page(game="kayles", position="10"))
    wait(browser, lambda: by_id(browser, "mex-line").is_displayed(), "the mex line")
    settled(browser)
    every = cli_json("moves", "--all", "kayles", "10")
    seen = sorted({int(option["value"]) for option in every["options"]})
    mex = next(number for number in range(len(seen) + 1) if number not in seen)
    assert str(mex) == every["value"] == by_id(browser, "value").text == "2"
    assert by_id(browser, "mex-line").text.startswith(f"G(10) = mex{{{', '.join(map(str, seen))}}} = 2:")
    assert seen == [0, 1, 3, 4, 5, 7]
    # A sum has no mex line of its own (its value is the nim-sum).
    browser.get(page(game="nim", position="3 4 5"))
    wait_for_answer(browser)
    wait(browser, lambda: options(browser), "the options")
    settled(browser)
    assert not by_id(browser, "mex-line").is_displayed()
