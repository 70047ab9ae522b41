"""The compound selector of `grundy serve`'s page (Winning Ways ch. 9: Every-SG, the conjunctive
and the selective compound besides the disjunctive sum), checked against `grundy --compound`.

Run with the page's other browser tests (crates/grundy-cli/tests/serve.rs sets the
environment); the helpers are theirs.
"""

import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_serve_page import (  # noqa: F401 (the fixture `browser` is used by name)
    browser,
    by_id,
    cli_json,
    history,
    moves_in_address,
    options,
    page,
    settled,
    shoot,
    wait,
    wait_for_answer,
    winning_moves,
    your_turn,
)


def text_of(to):
    """A position of the JSON contract as the page writes it."""
    if to and isinstance(to[0], dict):
        return " + ".join(" ".join([part["game"], *part["position"]]) for part in to)
    return " ".join(to)


def query_of(driver):
    return urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)


def compound_shown(driver):
    return by_id(driver, "compound-number-line").is_displayed() and by_id(driver, "outcome").text


def cli_compound_options(compound, words):
    """`grundy --json moves --all --compound C WORDS` as the page's options: the position each
    move leads to and its outcome (P where the move wins)."""
    answer = cli_json("moves", "--all", "--compound", compound, *words)
    return [(text_of(move["to"]), "P" if move["wins"] else "N", "—") for move in answer["moves"]]


def test_every_sg_chosen_on_a_sum_answers_as_the_cli(browser):
    words = ["nim", "3", "+", "sub:1,2", "3"]
    browser.get(page(game="nim", position="3 + sub:1,2 3"))
    wait_for_answer(browser)
    # As a disjunctive sum this is an N-position (nim-sum 3 xor 0)...
    assert by_id(browser, "outcome").text == cli_json("outcome", *words)["outcome"] == "N"
    Select(by_id(browser, "compound")).select_by_value("every")
    wait(browser, lambda: compound_shown(browser), "the compound's answer")
    settled(browser)
    # ...and in Every-SG a P-position: the steps 1 and 2, the largest even.
    expected = cli_json("outcome", "--compound", "every", *words)
    assert expected["compound"] == "every" and expected["steps"] == [1, 2]
    assert by_id(browser, "outcome").text == expected["outcome"] == "P"
    assert by_id(browser, "compound-number-label").text == "step"
    assert by_id(browser, "compound-number").text == str(expected["step"])
    assert by_id(browser, "compound-each").text == f"the largest of the components' steps {', '.join(map(str, expected['steps']))}"
    assert not by_id(browser, "value-line").is_displayed()
    assert by_id(browser, "compound-rule").text.startswith("Every-SG (the continued conjunctive compound")
    assert "largest step is odd" in by_id(browser, "compound-rule").text
    assert winning_moves(browser) == []
    assert options(browser) == cli_compound_options("every", words)
    assert all(outcome == "N" for _, outcome, _ in options(browser))
    assert query_of(browser)["compound"] == ["every"]
    # Misère play is of the sum only: its switch is off and disabled.
    assert not by_id(browser, "misere").is_enabled()
    shoot(browser, "compound-every")
    # An N-position of Every-SG: its winning moves, each a move in every component that can move.
    words = ["nim", "2", "+", "sub:1,2", "4"]
    browser.get(page(game="nim", position="2 + sub:1,2 4", compound="every"))
    wait(browser, lambda: compound_shown(browser) and winning_moves(browser), "the winning moves")
    settled(browser)
    expected = cli_json("moves", "--compound", "every", *words)
    assert by_id(browser, "outcome").text == expected["outcome"] == "N"
    assert winning_moves(browser) == [text_of(move["to"]) for move in expected["moves"]]
    explained = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#moves .explain")]
    assert explained == [move["explain"] for move in expected["moves"]]
    assert options(browser) == cli_compound_options("every", words)
    # A winning move's link opens the position it leads to, in the same compound.
    browser.find_elements(By.CLASS_NAME, "winning-move")[0].click()
    wait(browser, lambda: compound_shown(browser) and by_id(browser, "outcome").text == "P", "the P-position")
    assert query_of(browser)["compound"] == ["every"]
    shoot(browser, "compound-every-moves")


@pytest.mark.parametrize(
    "compound, label, numbers",
    [
        ("conjunctive", "remoteness", lambda answer: str(answer["remoteness"])),
        ("selective", "components", lambda answer: ", ".join(answer["outcomes"])),
    ],
)
def test_the_other_compounds_answer_as_the_cli(browser, compound, label, numbers):
    words = ["nim", "2", "+", "sub:1,2", "4", "+", "kayles", "3"]
    browser.get(page(game="nim", position="2 + sub:1,2 4 + kayles 3", compound=compound))
    wait(browser, lambda: compound_shown(browser) and options(browser), "the compound's answer")
    settled(browser)
    expected = cli_json("moves", "--compound", compound, *words)
    assert by_id(browser, "outcome").text == expected["outcome"]
    assert by_id(browser, "compound-number-label").text == label
    assert by_id(browser, "compound-number").text == numbers(expected)
    if compound == "conjunctive":
        each = ", ".join(map(str, expected["remotenesses"]))
        assert by_id(browser, "compound-each").text == f"the smallest of the components' remotenesses {each}"
    assert winning_moves(browser) == [text_of(move["to"]) for move in expected["moves"]]
    assert options(browser) == cli_compound_options(compound, words)
    assert Select(by_id(browser, "compound")).first_selected_option.get_attribute("value") == compound
    # Back to the sum: the Grundy value again.
    Select(by_id(browser, "compound")).select_by_value("sum")
    wait(browser, lambda: by_id(browser, "value-line").is_displayed() and by_id(browser, "value").text, "the sum's value")
    settled(browser)
    assert by_id(browser, "value").text == cli_json("value", *words)["value"]
    assert "compound" not in query_of(browser)


def play_compound_to_the_end(browser, winning):
    """Clicks a winning move (a move to a P-position) when there is one and `winning`, else the
    first move, until the game ends; returns the number of the person's moves."""
    for moves in range(40):
        your_turn(browser)
        if by_id(browser, "play-end").text:
            return moves
        made = len(history(browser))
        buttons = browser.find_elements(By.CSS_SELECTOR, "#play-options .option")
        good = [button for button in buttons if button.get_attribute("data-outcome") == "P"]
        (good[0] if winning and good else buttons[0]).click()
        wait(browser, lambda: len(history(browser)) > made, "the next turn")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("compound", ["every", "conjunctive", "selective"])
def test_play_follows_the_compound_to_the_end(browser, compound):
    # nim 3 4 is an N-position in every compound: the person moving first wins by playing
    # the winning moves, and grundy wins when it moves first.
    assert cli_json("outcome", "--compound", compound, "nim", "3", "4")["outcome"] == "N"
    browser.get(page(game="nim", position="3 4", view="play", compound=compound))
    your_turn(browser)
    hint = by_id(browser, "play-hint").text
    assert hint.startswith("an N-position"), hint
    shoot(browser, f"compound-play-{compound}")
    moves = play_compound_to_the_end(browser, True)
    assert moves >= 1
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"
    # Every move of the record is legal in the compound: the link replays it (through the
    # server's `grundy play --replay --compound`) to the same end.
    recorded = history(browser)
    assert moves_in_address(browser) == recorded
    assert query_of(browser)["compound"] == [compound]
    browser.get(browser.current_url)
    your_turn(browser)
    assert history(browser) == recorded
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    # grundy moving first from the same N-position wins.
    browser.get(page(game="nim", position="3 4", view="play", compound=compound, first="engine"))
    play_compound_to_the_end(browser, True)
    assert by_id(browser, "play-end").text == "you have no move: grundy wins."
    log = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    assert log[0].startswith("grundy: ")
    # The game ended where the compound has no move left.
    assert cli_json("moves", "--all", "--compound", compound, "nim", *history(browser)[-1].split())["moves"] == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_serious_accessibility_violation_with_a_compound(browser, lang):
    from axe_selenium_python import Axe

    for params in [
        dict(game="nim", position="2 + sub:1,2 4", compound="every"),
        dict(game="nim", position="3 4", compound="selective", view="play"),
    ]:
        browser.get(page(lang=lang, **params))
        settled(browser)
        if params.get("view") == "play":
            your_turn(browser)
        else:
            wait(browser, lambda: compound_shown(browser), "the compound's answer")
            settled(browser)
        if lang == "zh":
            assert by_id(browser, "compound-rule").text.endswith("。")
        axe = Axe(browser)
        axe.inject()
        results = axe.run()
        serious = [
            (violation["id"], violation["impact"], [node["html"][:120] for node in violation["nodes"][:3]])
            for violation in results["violations"]
            if violation["impact"] in ("serious", "critical")
        ]
        assert serious == [], f"{params}: {serious}"
