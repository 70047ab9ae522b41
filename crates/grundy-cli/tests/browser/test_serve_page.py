"""`grundy serve`'s page in a real browser (headless Chromium through chromedriver).

Run by crates/grundy-cli/tests/serve.rs, which starts the server and sets GRUNDY_SERVE_URL,
GRUNDY_BIN (the grundy binary, whose command-line answers the page must show) and
GRUNDY_SCREENSHOTS (where each view's screenshot is kept).
"""

import json
import os
import pathlib
import subprocess
import urllib.parse

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ["GRUNDY_SERVE_URL"].rstrip("/")
GRUNDY = os.environ["GRUNDY_BIN"]
SCREENSHOTS = pathlib.Path(os.environ["GRUNDY_SCREENSHOTS"])
# A loaded machine (CI builds beside the test) answers slowly; nothing here takes long.
WAIT_SECONDS = 30


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("GRUNDY_CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1000,1000"]:
        options.add_argument(argument)
    service = Service(os.environ.get("GRUNDY_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def cli_json(*args):
    """What `grundy --json ARGS` prints (the page must show the same)."""
    done = subprocess.run([GRUNDY, "--json", *args], capture_output=True, text=True, timeout=60)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cli_winning_positions(*words):
    """The positions `grundy moves WORDS` prints, one a line before `#`."""
    done = subprocess.run([GRUNDY, "moves", *words], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [line.split("  #")[0] for line in done.stdout.splitlines()]


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def wait(driver, condition, what):
    # The page redraws its lists: an element looked at may be gone by the time it is read.
    return WebDriverWait(driver, WAIT_SECONDS, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda _: condition(), message=what
    )


def settled(driver):
    """Waits until no request is pending."""
    wait(driver, lambda: not by_id(driver, "busy").is_displayed(), "the page finishes computing")


def wait_for_answer(driver):
    wait(driver, lambda: by_id(driver, "outcome").text or by_id(driver, "error").is_displayed(), "an answer or an error")
    settled(driver)


def winning_moves(driver):
    return [element.text for element in driver.find_elements(By.CLASS_NAME, "winning-move")]


def shoot(driver, name):
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 1000


def page(**params):
    return URL + "/?" + urllib.parse.urlencode(params)


def test_a_link_shows_the_answer(browser):
    browser.get(page(game="nim", position="3 4 5"))
    wait_for_answer(browser)
    expected = cli_json("value", "nim", "3", "4", "5")
    assert by_id(browser, "error").is_displayed() is False
    assert by_id(browser, "outcome").text == expected["outcome"] == "N"
    assert by_id(browser, "value").text == expected["value"]
    assert winning_moves(browser) == cli_winning_positions("nim", "3", "4", "5")
    shoot(browser, "answer-link")


def test_a_typed_sum_and_its_winning_moves(browser):
    browser.get(URL + "/")
    game, position = by_id(browser, "game"), by_id(browser, "position")
    game.clear()
    game.send_keys("nim")
    position.clear()
    position.send_keys("3 + wythoff 4,8 + sub:2,5 9")
    by_id(browser, "go").click()
    wait_for_answer(browser)
    words = ["nim", "3", "+", "wythoff", "4,8", "+", "sub:2,5", "9"]
    expected = cli_json("value", *words)
    assert by_id(browser, "outcome").text == expected["outcome"]
    assert by_id(browser, "value").text == expected["value"]
    assert winning_moves(browser) == cli_winning_positions(*words)
    # The state went into the address: the link shows the same to someone else.
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
    assert query["game"] == ["nim"] and query["position"] == ["3 + wythoff 4,8 + sub:2,5 9"]
    shoot(browser, "answer")
    # A winning move is a link to the position it leads to, a P-position.
    first = winning_moves(browser)[0]
    browser.find_elements(By.CLASS_NAME, "winning-move")[0].click()
    wait(browser, lambda: by_id(browser, "outcome").text == "P", "the position after the winning move")
    assert by_id(browser, "value").text == "0"
    assert "nim " + by_id(browser, "position").get_attribute("value") == first


def test_bad_input_shows_the_cli_message(browser):
    browser.get(page(game="nimm", position="3"))
    wait_for_answer(browser)
    expected = cli_json("moves", "nimm", "3")["error"]["message"]
    assert "did you mean" in expected
    assert by_id(browser, "error").text == expected
    assert by_id(browser, "outcome").text == ""
    shoot(browser, "error")
    browser.get(page(game="nim", position="3 -1"))
    wait_for_answer(browser)
    assert by_id(browser, "error").text == cli_json("moves", "nim", "3", "-1")["error"]["message"]


def test_the_nim_sequence_is_drawn(browser):
    browser.get(page(game="octal:0.137", view="sequence", to="100"))
    settled(browser)
    image = by_id(browser, "sequence-plot")
    wait(browser, lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image), "the picture")
    values = cli_json("sequence", "octal:0.137", "--to", "100")["values"]
    zeros = ", ".join(str(heap) for heap, value in enumerate(values) if value == 0)
    assert by_id(browser, "p-positions").text.endswith(zeros)
    assert not by_id(browser, "error").is_displayed()
    shoot(browser, "sequence")


def test_a_table_is_drawn(browser):
    browser.get(page(game="wythoff", view="table", size="64"))
    settled(browser)
    image = by_id(browser, "table-plot")
    wait(browser, lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image), "the picture")
    assert not by_id(browser, "error").is_displayed()
    shoot(browser, "table")


def options(driver):
    """Each `.option` on the page: the position it leads to, its outcome and value."""
    return [
        (element.get_attribute("data-position"), element.get_attribute("data-outcome"), element.get_attribute("data-value"))
        for element in driver.find_elements(By.CSS_SELECTOR, ".view:not([hidden]) .option")
    ]


def cli_options(*words):
    """`grundy --json moves --all WORDS`'s options as the page shows them."""
    answer = cli_json("moves", "--all", *words)

    def text(to):
        if to and isinstance(to[0], dict):
            return " + ".join(" ".join([part["game"], *part["position"]]) for part in to)
        return " ".join(to)

    return [(text(option["to"]), option["outcome"], option["value"]) for option in answer["options"]]


def history(driver):
    return [element.get_attribute("data-position") for element in driver.find_elements(By.CSS_SELECTOR, "#history li")]


def your_turn(driver):
    """Waits until the person may move (options enabled) or the game has ended."""
    wait(
        driver,
        lambda: by_id(driver, "play-end").text
        or any(option.is_enabled() for option in driver.find_elements(By.CSS_SELECTOR, "#play-options .option")),
        "a move to make or the end",
    )
    settled(driver)


def moves_in_address(driver):
    query = urllib.parse.parse_qs(urllib.parse.urlparse(driver.current_url).query)
    return [move for move in query.get("moves", [""])[0].split(";") if move]


def test_misere_play_where_grundy_decides_it(browser):
    browser.get(page(game="kayles", position="5", misere="1"))
    wait_for_answer(browser)
    expected = cli_json("moves", "--misere", "kayles", "5")
    assert by_id(browser, "outcome").text == expected["outcome"]
    assert by_id(browser, "misere").is_selected()
    assert winning_moves(browser) == [" ".join(move["to"]) for move in expected["moves"]]
    assert expected["method"] in by_id(browser, "no-moves").text
    assert options(browser) == []
    # The switch back to normal play: the Grundy value and every move again.
    by_id(browser, "misere").click()
    wait(browser, lambda: options(browser), "normal play's options")
    assert "misere" not in browser.current_url
    assert by_id(browser, "value").text == cli_json("value", "kayles", "5")["value"]


def test_wythoff_as_a_queen_with_the_p_positions_marked(browser):
    browser.get(page(game="wythoff", position="4,7"))
    wait_for_answer(browser)
    squares = browser.find_elements(By.CSS_SELECTOR, ".queen-board .square")
    assert len(squares) == 64
    marked = set()
    for index, square in enumerate(squares):
        column, row = index % 8, 7 - index // 8
        if "p" in square.get_attribute("class").split():
            marked.add((column, row))
    losing = {(x, y) for x in range(8) for y in range(8) if cli_json("outcome", "wythoff", f"{x},{y}")["outcome"] == "P"}
    assert marked == losing
    queen = browser.find_element(By.CSS_SELECTOR, ".queen-board .queen")
    assert squares.index(queen) == (7 - 7) * 8 + 4
    # A square she reaches opens its answer.
    browser.find_element(By.CSS_SELECTOR, '.queen-board a[aria-label^="4,2"]').click()
    wait(browser, lambda: by_id(browser, "position").get_attribute("value") == "4,2", "the answer for 4,2")
    wait_for_answer(browser)
    assert by_id(browser, "outcome").text == cli_json("outcome", "wythoff", "4,2")["outcome"]


def test_the_guess_tab_shows_the_pattern_and_its_code(browser):
    browser.get(page(game="sub:1,3,4", view="guess"))
    wait(browser, lambda: by_id(browser, "guess-python").text, "the emitted code")
    settled(browser)
    pattern = cli_json("guess", "sub:1,3,4")["pattern"]
    assert by_id(browser, "guess-formula").text == pattern["formula"]
    assert pattern["proof"] in by_id(browser, "guess-status").text
    for language, element in [("python", "guess-python"), ("cpp", "guess-cpp")]:
        done = subprocess.run([GRUNDY, "guess", "--emit", language, "sub:1,3,4"], capture_output=True, text=True, timeout=60)
        assert browser.execute_script("return arguments[0].textContent", by_id(browser, element)) == done.stdout
    shoot(browser, "guess")


def click_picture(driver, image, x, y, width):
    """Clicks the picture at the point (x, y) of its own units (`width` of them across)."""
    # Wholly in view: an offset is counted from the centre of the element's part in view.
    box = driver.execute_script(
        "arguments[0].scrollIntoView({block: 'center'}); const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]",
        image,
    )
    scale = box[0] / width
    ActionChains(driver).move_to_element_with_offset(image, x * scale - box[0] / 2, y * scale - box[1] / 2).click().perform()


def test_a_click_on_a_picture_opens_its_answer(browser):
    browser.get(page(game="octal:0.137", view="sequence", to="100"))
    image = by_id(browser, "sequence-plot")
    wait(browser, lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image), "the picture")
    settled(browser)
    # grundy plot's nim-sequence: heaps 0 … 100 across x = 64 … 964 of its 1000 units.
    click_picture(browser, image, 64 + 900 * (14 + 0.5) / 101, 300, 1000)
    wait(browser, lambda: by_id(browser, "position").get_attribute("value") == "14", "heap 14's answer")
    wait_for_answer(browser)
    assert by_id(browser, "value").text == cli_json("value", "octal:0.137", "14")["value"]
    # A table's map: 32 cells of 24 units from (130, 80), y upwards.
    browser.get(page(game="wythoff", view="table", size="32"))
    image = by_id(browser, "table-plot")
    wait(browser, lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image), "the picture")
    settled(browser)
    click_picture(browser, image, 130 + 24 * 3.5, 80 + 24 * (31 - 5 + 0.5), 1148)
    wait(browser, lambda: by_id(browser, "position").get_attribute("value") == "3,5", "cell 3,5's answer")
    wait_for_answer(browser)
    assert (by_id(browser, "outcome").text, by_id(browser, "value").text) == ("P", "0")


def play_until_the_end(browser, screenshot):
    """Clicks the first move offered until the game ends, with a screenshot of the first
    turn; returns the moves made."""
    for moves in range(40):
        your_turn(browser)
        if by_id(browser, "play-end").text:
            return moves
        if moves == 0:
            shoot(browser, screenshot)
        made = len(history(browser))
        browser.find_elements(By.CSS_SELECTOR, "#play-options .option")[0].click()
        wait(browser, lambda: len(history(browser)) > made, "the next turn")
    raise AssertionError("the game did not end")


def test_a_whole_game_against_grundy(browser):
    # An N-position, grundy first: grundy wins whatever the person does.
    browser.get(page(game="nim", position="2 3 4", view="play", first="engine"))
    moves = play_until_the_end(browser, "play-turn")
    assert moves >= 1
    assert by_id(browser, "play-end").text == "you have no move: grundy wins."
    log = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#history li")]
    assert log[0].startswith("grundy: ") and any(line.startswith("you: ") for line in log)
    # The moves are in the address, the last one where the game ended: no heap left.
    assert moves_in_address(browser) == history(browser)
    assert history(browser)[-1] == "0 0 0"
    shoot(browser, "play")
    # A typed move: from a P-position for grundy, the person wins.
    browser.get(page(game="nim", position="1", view="play"))
    your_turn(browser)
    by_id(browser, "move").send_keys("1 -> 0")
    by_id(browser, "move-go").click()
    wait(browser, lambda: by_id(browser, "play-end").text, "the end")
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"


@pytest.mark.parametrize(
    "words, clicked",
    [
        # The move in the second game, not the same-looking move `3 -> 1` of the first.
        (["nim", "3", "+", "sub:2,5", "3"], "nim 3 + sub:2,5 1"),
        (["nim", "3", "3", "5"], "3 1 5"),
    ],
)
def test_the_move_clicked_is_the_move_played(browser, words, clicked):
    browser.get(page(game=words[0], position=" ".join(words[1:]), view="play"))
    your_turn(browser)
    option = browser.find_element(By.CSS_SELECTOR, f'#play-options .option[data-position="{clicked}"]')
    option.click()
    wait(browser, lambda: history(browser), "the move played")
    assert history(browser)[0] == clicked
    assert moves_in_address(browser)[0] == clicked


def test_a_late_answer_to_an_earlier_question_is_dropped(browser):
    browser.get(page(game="nim", position="1"))
    wait_for_answer(browser)
    # The answer for `3 4 5` comes back two seconds late, after the one for `1 2`.
    browser.execute_script(
        """
        const original = window.fetch;
        window.fetch = (url, options) => original(url, options).then((response) =>
            String(url).includes("position=3+4+5")
                ? new Promise((resolve) => setTimeout(() => resolve(response), 2000))
                : response);
        """
    )
    for position in ["3 4 5", "1 2"]:
        field = by_id(browser, "position")
        field.clear()
        field.send_keys(position)
        by_id(browser, "go").click()
    wait(browser, lambda: by_id(browser, "value").text == "3", "the answer for 1 2")
    browser.execute_script("return new Promise((resolve) => setTimeout(resolve, 3000))")
    assert by_id(browser, "value").text == "3"
    assert options(browser) == cli_options("nim", "1", "2")


def test_a_reload_mid_game_replays_the_same_game(browser):
    browser.get(page(game="nim", position="2 3 4", view="play", first="engine"))
    your_turn(browser)
    assert len(history(browser)) == 1
    browser.find_elements(By.CSS_SELECTOR, "#play-options .option")[-1].click()
    wait(browser, lambda: len(history(browser)) == 3, "the person's move and grundy's reply")
    your_turn(browser)
    played = history(browser)
    assert moves_in_address(browser) == played
    browser.refresh()
    your_turn(browser)
    # The same moves, and the person's turn: grundy does not move twice.
    assert history(browser) == played
    assert moves_in_address(browser) == played
    # Undo takes back the person's move and grundy's reply; redo plays them again.
    by_id(browser, "undo").click()
    wait(browser, lambda: len(history(browser)) == 1, "undone")
    your_turn(browser)
    by_id(browser, "redo").click()
    wait(browser, lambda: history(browser) == played, "redone")
    your_turn(browser)
    # The browser's back button is an undo too.
    browser.back()
    wait(browser, lambda: len(history(browser)) == 1, "back")
    your_turn(browser)
    # A shared link with a move that is not legal: the game stops before it, with the error.
    browser.get(page(game="nim", position="2 3 4", view="play", moves="2 3 4;5 5 5"))
    your_turn(browser)
    assert history(browser) == []
    assert "move 1" in by_id(browser, "error").text


@pytest.mark.parametrize("words", [["nim", "2", "3", "4"], ["wythoff", "3,5"]])
def test_a_game_played_by_keyboard_alone(browser, words):
    browser.get(page(game=words[0], position=" ".join(words[1:]), view="play"))
    for turn in range(40):
        your_turn(browser)
        if by_id(browser, "play-end").text:
            break
        focused = browser.switch_to.active_element
        assert focused.get_attribute("class").startswith("option"), focused.get_attribute("outerHTML")
        made = len(history(browser))
        # The second move offered when there is one: Tab along, then Enter.
        keys = ActionChains(browser)
        if len(browser.find_elements(By.CSS_SELECTOR, "#play-options .option")) > 1:
            keys.send_keys(Keys.TAB)
        keys.send_keys(Keys.ENTER).perform()
        wait(browser, lambda: len(history(browser)) > made, "the move played")
    else:
        raise AssertionError("the game did not end")
    assert by_id(browser, "play-end").text in ["you have no move: grundy wins.", "grundy has no move: you win!"]
    assert browser.switch_to.active_element.get_attribute("id") == "play-end"


@pytest.mark.parametrize(
    "words, view",
    [
        (["nim", "3", "+", "sub:2,5", "9"], "answer"),
        (["wythoff", "4,7"], "answer"),
        (["wythoff", "4,7"], "play"),
        (["octal:0.137", "12", "5"], "play"),
    ],
)
def test_every_option_is_judged_as_the_cli_judges_it(browser, words, view):
    browser.get(page(game=words[0], position=" ".join(words[1:]), view=view))
    if view == "play":
        your_turn(browser)
    else:
        wait_for_answer(browser)
        wait(browser, lambda: options(browser), "the options")
    expected = cli_options(*words)
    assert len(expected) <= 40
    assert options(browser) == expected
    for element in browser.find_elements(By.CSS_SELECTOR, ".view:not([hidden]) .option"):
        outcome = element.get_attribute("data-outcome")
        assert f"outcome-{outcome}" in element.get_attribute("class")
        assert element.find_element(By.CLASS_NAME, "judgment").text == f"{outcome} · {element.get_attribute('data-value')}"
    # Hidden for a class that should think first; the moves are still there.
    by_id(browser, "judge").click()
    wait(browser, lambda: "judge=0" in browser.current_url, "the address keeps it")
    if view == "play":
        your_turn(browser)
    else:
        wait(browser, lambda: options(browser), "the options")
    assert len(options(browser)) == len(expected)
    assert not any(element.is_displayed() for element in browser.find_elements(By.CLASS_NAME, "judgment"))


def test_long_lists_of_moves_are_paged(browser):
    browser.get(page(game="nim", position="100000", view="play"))
    your_turn(browser)
    shown = options(browser)
    assert len(shown) == 40
    assert shown == cli_options("nim", "100000")[:40]
    pager = by_id(browser, "play-pages")
    assert "1–40 of 100000" in pager.text
    pager.find_elements(By.TAG_NAME, "button")[1].click()
    wait(browser, lambda: options(browser) and options(browser)[0][0] == "99959", "the next page")
    your_turn(browser)
    assert "41–80 of 100000" in pager.text


def test_a_huge_heap_still_has_its_value(browser):
    browser.get(page(game="kayles", position="1000000000000"))
    wait_for_answer(browser)
    expected = cli_json("value", "kayles", "1000000000000")
    assert (by_id(browser, "outcome").text, by_id(browser, "value").text) == (expected["outcome"], expected["value"])
    assert not by_id(browser, "error").is_displayed()
    why = by_id(browser, "no-moves").text
    assert "too many options to list" in why, why
    assert options(browser) == []


def test_chinese_page_and_full_width_positions(browser):
    browser.get(URL + "/?lang=zh")
    settled(browser)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"
    assert by_id(browser, "go").text == "解答"
    game, position = by_id(browser, "game"), by_id(browser, "position")
    game.send_keys("wythoff")
    position.send_keys("４，７")
    by_id(browser, "go").click()
    wait_for_answer(browser)
    expected = cli_json("value", "wythoff", "4,7")
    assert (by_id(browser, "outcome").text, by_id(browser, "value").text) == (expected["outcome"], expected["value"])
    assert "lang=zh" in browser.current_url
    assert by_id(browser, "outcome-words").text.startswith("P：")
    # An error: the command line's message, the page's words around it in Chinese.
    browser.get(page(lang="zh", game="nim", position="2 3 4", view="play", moves="2 3 4;5 5 5"))
    your_turn(browser)
    assert "地址中的第 1 步" in by_id(browser, "error").text


AXE_VIEWS = [
    dict(game="nim", position="3 4 5"),
    dict(game="kayles", position="1000000000000"),
    dict(game="wythoff", position="4,7"),
    dict(game="kayles", position="5", misere="1"),
    dict(game="nim", position="100000", view="play"),
    dict(game="nim", position="3 + sub:2,5 9", view="play"),
    dict(game="octal:0.137", view="sequence", to="100"),
    dict(game="wythoff", view="table", size="32"),
    dict(game="sub:1,3,4", view="check", formula="n % 7 not in (0, 2)", to="100"),
    dict(game="wythoff", view="guess"),
    dict(view="script"),
    dict(game="nimm", position="3"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_serious_accessibility_violation(browser, lang):
    from axe_selenium_python import Axe

    for params in AXE_VIEWS:
        browser.get(page(lang=lang, **params))
        settled(browser)
        if params.get("view") == "play":
            your_turn(browser)
        axe = Axe(browser)
        axe.inject()
        results = axe.run()
        serious = [
            (violation["id"], violation["impact"], [node["html"][:120] for node in violation["nodes"][:3]])
            for violation in results["violations"]
            if violation["impact"] in ("serious", "critical")
        ]
        assert serious == [], f"{params}: {serious}"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots(browser, lang, width):
    browser.set_window_size(width, 1100)
    try:
        for name, params in [
            ("answer", dict(game="nim", position="3 4 5")),
            ("play", dict(game="nim", position="3 + sub:2,5 3", view="play")),
            ("sequence", dict(game="octal:0.137", view="sequence", to="100")),
        ]:
            browser.get(page(lang=lang, **params))
            settled(browser)
            if params.get("view") == "play":
                your_turn(browser)
            if params.get("view") == "sequence":
                image = by_id(browser, "sequence-plot")
                wait(browser, lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image), "the picture")
            shoot(browser, f"{name}-{lang}-{width}")
            # Nothing wider than the window but a picture that scrolls in its own box.
            overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{name} {lang} {width}: {overflow} px too wide"
    finally:
        browser.set_window_size(1000, 1000)


def test_a_formula_is_checked(browser):
    browser.get(page(game="sub:1,3,4", view="check", formula="n % 7 not in (0, 2)", to="100"))
    wait(browser, lambda: by_id(browser, "check-result").text, "the check's result")
    expected = cli_json("check", "sub:1,3,4", "--formula", "n % 7 not in (0, 2)", "--to", "100")
    assert by_id(browser, "check-result").text == f"agrees on {expected['positions']} positions (all of them)"
    shoot(browser, "check")


def test_a_pasted_script_is_a_game(browser):
    browser.get(page(view="script"))
    settled(browser)
    by_id(browser, "script-go").click()
    wait(browser, lambda: by_id(browser, "outcome").text or by_id(browser, "error").is_displayed(), "the script's answer")
    settled(browser)
    assert not by_id(browser, "error").is_displayed(), by_id(browser, "error").text
    game = by_id(browser, "game").get_attribute("value")
    assert game.startswith("script:")
    # The pasted game is the subtraction game {1, 3, 4}.
    assert by_id(browser, "value").text == cli_json("value", "sub:1,3,4", "10")["value"]
