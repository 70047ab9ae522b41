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
    return WebDriverWait(driver, WAIT_SECONDS).until(lambda _: condition(), message=what)


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


def play_until_the_end(browser, screenshot):
    """Clicks the first move offered until the game ends, with a screenshot of the first
    turn; returns the moves made."""
    for moves in range(40):
        wait(
            browser,
            lambda: by_id(browser, "play-end").text or browser.find_elements(By.CLASS_NAME, "option"),
            "a move to make or the end",
        )
        settled(browser)
        if by_id(browser, "play-end").text:
            return moves
        if moves == 0:
            shoot(browser, screenshot)
        option = browser.find_elements(By.CLASS_NAME, "option")[0]
        option.click()

        def gone():
            try:
                option.is_displayed()
                return False
            except StaleElementReferenceException:
                return True

        wait(browser, gone, "the next turn")
    raise AssertionError("the game did not end")


def test_a_whole_game_against_grundy(browser):
    # An N-position, grundy first: grundy wins whatever the person does.
    browser.get(page(game="nim", position="2 3 4", view="play", first="engine", hints="1"))
    moves = play_until_the_end(browser, "play-turn")
    assert moves >= 1
    assert by_id(browser, "play-end").text == "you have no move: grundy wins."
    log = [element.text for element in browser.find_elements(By.CSS_SELECTOR, "#play-log li")]
    assert log[0].startswith("grundy: ") and any(line.startswith("you: ") for line in log)
    # The position in the address is where the game ended: no heap left.
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
    assert query["position"] == ["0 0 0"]
    shoot(browser, "play")
    # A typed move: from a P-position for grundy, the person wins with the hint's moves.
    browser.get(page(game="nim", position="1", view="play"))
    settled(browser)
    by_id(browser, "move").send_keys("1 -> 0")
    by_id(browser, "move-go").click()
    wait(browser, lambda: by_id(browser, "play-end").text, "the end")
    assert by_id(browser, "play-end").text == "grundy has no move: you win!"


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
