"""Every game to its last move on `grundy serve`'s page: games whose moves can take a whole
heap away (Kayles, Dawson's Kayles, octal and hexadecimal codes, split-Nim) end at the empty
position `()`, which has a visible name, a link the server replays, and no request of its own.

Run with the page's other browser tests (crates/grundy-cli/tests/serve.rs sets the
environment); the helpers are theirs.
"""

import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from test_serve_page import (  # noqa: F401 (the fixture `browser` is used by name)
    browser,
    by_id,
    cli_json,
    history,
    moves_in_address,
    page,
    settled,
    shoot,
    wait,
    wait_for_answer,
    winning_moves,
    your_turn,
)

# Games whose last move leaves no component, from an N-position each.
LAST_PIN_GAMES = [("kayles", "3"), ("kayles", "1"), ("dawson", "4"), ("split-nim", "3"), ("octal:0.137", "5"), ("hex:0.8F", "4")]


def play_out(driver, winning):
    """Plays until the end: a move to a P-position when `winning` and there is one, else the
    last move offered (the one that takes the most); returns the person's moves."""
    for moves in range(60):
        your_turn(driver)
        if by_id(driver, "play-end").text:
            return moves
        made = len(history(driver))
        buttons = driver.find_elements(By.CSS_SELECTOR, "#play-options .option")
        good = [button for button in buttons if button.get_attribute("data-outcome") == "P"]
        (good[0] if winning and good else buttons[-1]).click()
        wait(driver, lambda: len(history(driver)) > made, "the next turn")
    raise AssertionError("the game did not end")


def ended_with_no_move(game, last):
    """Whether `last`, the position the page ended on, has no move by the command line."""
    if last == "()":
        return True
    return cli_json("moves", "--all", game, *last.split())["options"] == []


@pytest.mark.parametrize("game, start", LAST_PIN_GAMES)
def test_a_kayles_like_game_is_won_to_its_last_move(browser, game, start):
    assert cli_json("outcome", game, start)["outcome"] == "N"
    browser.get(page(game=game, position=start, view="play"))
    play_out(browser, True)
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    recorded = history(browser)
    assert ended_with_no_move(game, recorded[-1]), recorded
    # No move is left to click, none typed; the summary counts the moves.
    assert browser.find_elements(By.CSS_SELECTOR, "#play-options .option") == []
    assert not by_id(browser, "move-form").is_displayed()
    person = (len(recorded) + 1) // 2
    summary = by_id(browser, "play-summary").text
    assert summary.startswith(f"The game is over after {len(recorded)} move") and f"{person} by you" in summary, summary
    # The address holds every move, the last one too (no trailing `;`), and replays it.
    assert moves_in_address(browser) == recorded
    assert not urllib.parse.unquote(browser.current_url).endswith(";")
    browser.get(browser.current_url)
    your_turn(browser)
    assert history(browser) == recorded
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text


@pytest.mark.parametrize("game, start", LAST_PIN_GAMES)
def test_a_kayles_like_game_is_lost_to_its_last_move(browser, game, start):
    # grundy first from an N-position: grundy takes the last pin.
    browser.get(page(game=game, position=start, view="play", first="engine"))
    play_out(browser, False)
    assert by_id(browser, "play-end").text == "you have no move: grundy wins."
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    assert "your move" not in by_id(browser, "play-status").text
    recorded = history(browser)
    assert ended_with_no_move(game, recorded[-1]), recorded
    log = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    assert log[-1].startswith("grundy: ")
    assert browser.find_elements(By.CSS_SELECTOR, "#play-options .option") == []
    if game == "kayles":
        assert recorded[-1] == "()"
        assert "nothing left" in by_id(browser, "board").text
        shoot(browser, f"play-last-move-{game}-{start}")


def test_the_move_to_the_empty_position_is_a_named_link(browser):
    browser.get(page(game="kayles", position="2"))
    wait_for_answer(browser)
    expected = cli_json("moves", "kayles", "2")
    assert [move["to"] for move in expected["moves"]] == [[]]
    assert winning_moves(browser) == ["() the empty position"]
    link = browser.find_element(By.CLASS_NAME, "winning-move")
    assert link.size["width"] > 20
    # Every option judged: the empty position is the winning one, named too.
    chips = browser.find_elements(By.CSS_SELECTOR, "#answer-options .option")
    assert [chip.get_attribute("data-position") for chip in chips if chip.get_attribute("data-outcome") == "P"] == ["()"]
    shoot(browser, "answer-empty-move")
    link.click()
    wait(browser, lambda: by_id(browser, "position").get_attribute("value") == "()", "the empty position's answer")
    wait_for_answer(browser)
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    assert (by_id(browser, "outcome").text, by_id(browser, "value").text) == ("P", "0")
    assert by_id(browser, "outcome-words").text.startswith("() is the empty position")
    # In the move box, `()` plays the last pin.
    browser.get(page(game="kayles", position="1", view="play"))
    your_turn(browser)
    by_id(browser, "move").send_keys("()")
    by_id(browser, "move-go").click()
    wait(browser, lambda: by_id(browser, "play-end").text, "the end")
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"
    assert history(browser) == ["()"]
