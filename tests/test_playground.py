"""The browser playground, played by clicks in Debian's headless Chromium.

Builds the page the way the docs build does (``docs/_ext/playground.py``: the page, the library's
pure wheel, attrs and typing-extensions wheels, the npm ``pyodide`` runtime), serves it on
127.0.0.1, and drives ``/usr/bin/chromium`` with selenium through a whole round: an illegal click
first shows the engine's reason and rule ID, linked to the rules page, and the round's scores on
the page equal :func:`chickenfoot.score_round` of the same game replayed here from the page's
saved record.

Needs ``apt-get install chromium chromium-driver``, ``pip install selenium`` and ``npm ci``
(``.ci/run`` does all three); it skips without them, which CI turns into a failure.
Set ``CHICKENFOOT_PLAYGROUND_SCREENSHOT=FILE.png`` to keep a picture of the page mid-round.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
import chickenfoot.bots

pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import chromium, wait

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # drives a browser

REPO = Path(__file__).resolve().parents[1]
# The test's game: the cross rules, two players, seat 0 the person, a greedy bot in seat 1.
GAME = {"preset": "cross", "players": "2", "seed": "3", "bot": "greedy", "delay": "0"}
PLAYS_BEFORE_THE_ILLEGAL_CLICK = 3  # so the refusal (and the screenshot) comes mid-round


def _load_bundler() -> Any:
    spec = importlib.util.spec_from_file_location("playground_bundler", REPO / "docs" / "_ext" / "playground.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bundler = _load_bundler()
    if bundler.pyodide_version() is None:
        pytest.skip("the npm package pyodide is not installed: run 'npm ci' in the repository")
    return Path(bundler.bundle(tmp_path_factory.mktemp("site") / "playground"))


@pytest.fixture(scope="module")
def url(site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    downloads = tmp_path_factory.mktemp("downloads")
    prefs = {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    with chromium(tmp_path_factory.mktemp("chromium-profile"), prefs) as driver:
        yield driver
    shutil.rmtree(downloads, ignore_errors=True)


def _wait(driver: Any, condition: Callable[[Any], object], seconds: float, what: str) -> Any:
    return wait(driver, condition, seconds, what)


def _body(driver: Any, name: str) -> str | None:
    value: str | None = driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")
    return value


def _settled(driver: Any) -> str | None:
    """Gets whose turn it is once the bots have moved: "you" or "over" (else None, still waiting)."""
    if _body(driver, "busy"):
        return None
    turn = _body(driver, "turn")
    return turn if turn in ("you", "over") else None


def _round_rows(driver: Any) -> list[list[int]]:
    rows = driver.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
    return [[int(cell.text) for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]


def _saved_record(driver: Any) -> cf.GameRecord:
    driver.find_element(By.ID, "record").clear()
    driver.find_element(By.ID, "save").click()
    text = _wait(driver, lambda d: d.find_element(By.ID, "record").get_property("value"), 10, "the saved record")
    return cf.from_json(text, cf.GameRecord)


def _click_illegal_play(driver: Any) -> tuple[cf.GameState, str, str, str | None]:
    """Clicks a hand tile, then an open end it does not fit.

    Returns the position (from the page's saved record), the move, and the page's reason and rule.
    """
    position = cf.replay(_saved_record(driver))[-1]
    ends = [
        (int(end.get_attribute("data-node")), int(end.get_attribute("data-value")))
        for end in driver.find_elements(By.CSS_SELECTOR, "#ends button.end")
    ]
    for tile_button in driver.find_elements(By.CSS_SELECTOR, "#hand button.tile"):
        tile = cf.Tile.parse(tile_button.get_attribute("data-tile"))
        for node, value in ends:
            if value not in (tile.high, tile.low):
                tile_button.click()
                driver.find_element(By.CSS_SELECTOR, f'#ends button.end[data-node="{node}"]').click()
                refusal = _wait(driver, lambda d: d.find_element(By.ID, "refusal").is_displayed(), 10, "a refusal")
                assert refusal
                reason = driver.find_element(By.CSS_SELECTOR, "#refusal .reason").text
                links = driver.find_elements(By.CSS_SELECTOR, "#refusal a.rule")
                rule = links[0].text if links else None
                if rule is not None:  # the rule's entry on "The rules, as code"
                    assert links[0].get_attribute("href").endswith(f"/rules.html#rule-{rule.lower()}")
                driver.find_element(By.CSS_SELECTOR, f'#hand button.tile[data-tile="{tile}"]').click()  # unpick
                return position, f"{tile}@{node}", reason, rule
    pytest.fail("no tile in hand misses an open end: pick another seed")


def test_a_round_played_by_clicks_scores_as_the_library_does(browser: Any, url: str) -> None:
    driver = browser
    driver.get(url + "?" + "&".join(f"{key}={value}" for key, value in GAME.items()))
    # Booting Python in WebAssembly takes seconds; two shared cores in CI can make it many.
    _wait(driver, lambda d: _body(d, "ready") == "1", 180, "Pyodide and the library to load")
    driver.find_element(By.ID, "new-game").click()

    refused = None
    plays = 0
    while not _round_rows(driver):
        turn = _wait(driver, _settled, 60, "the bots to move")
        if turn == "over" or _round_rows(driver):
            break
        if refused is None and plays >= PLAYS_BEFORE_THE_ILLEGAL_CLICK:
            refused = _click_illegal_play(driver)
            if shot := os.environ.get("CHICKENFOOT_PLAYGROUND_SCREENSHOT"):
                driver.save_screenshot(shot)
        playable = driver.find_elements(By.CSS_SELECTOR, "#hand button.tile.playable")
        if playable:
            playable[0].click()
            driver.find_element(By.CSS_SELECTOR, "#ends button.end.fits").click()
            plays += 1
        elif driver.find_element(By.ID, "draw").is_displayed():
            driver.find_element(By.ID, "draw").click()
        else:
            driver.find_element(By.ID, "pass").click()

    assert refused is not None, "the round ended before the illegal click: pick another seed"
    assert plays > PLAYS_BEFORE_THE_ILLEGAL_CLICK
    record = _saved_record(driver)
    assert (record.players, record.seed) == (int(GAME["players"]), int(GAME["seed"]))
    assert record.rules == cf.Rules.cross()

    # The refusal is the engine's, for the same position, word for word, with its rule ID.
    before, move, reason, rule = refused
    assert before.current_player == 0
    with pytest.raises(cf.IllegalMoveError) as refusal:
        cf.apply(before, cf.parse_move(move))
    assert (reason, rule) == (str(refusal.value), refusal.value.rule)
    assert rule is not None

    # The page's round scores are the library's for the same seed and moves.
    first_round = next(s for s in cf.replay(record) if s.results).results[0].final
    assert _round_rows(driver)[0] == list(cf.score_round(first_round))
    page_totals = [int(cell.text) for cell in driver.find_elements(By.CSS_SELECTOR, "#scores tfoot td")]
    assert page_totals == list(cf.score_round(first_round))
    history = driver.find_elements(By.CSS_SELECTOR, "#history details:first-of-type li")
    page_moves = [item.get_attribute("textContent").split()[-1] for item in history]
    assert page_moves == [str(move) for move in record.moves[: len(history)]]
    assert len(history) == len(first_round.history)


def test_the_page_bundles_everything_it_loads(site: Path) -> None:
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(name.split("-")[0] for name in manifest["wheels"]) == ["attrs", "chickenfoot", "typing_extensions"]
    for wheel in manifest["wheels"]:
        assert (site / "wheels" / wheel).is_file()
        assert wheel.endswith("-py3-none-any.whl")
    page_files = ("index.html", "playground.js", "table.js", "session.py")
    for name in (*page_files, "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm"):
        assert (site / name).is_file(), name
    # No address outside the folder: the page must run offline.
    page = "".join((site / name).read_text(encoding="utf-8") for name in ("index.html", "playground.js", "table.js"))
    assert "http://" not in page
    assert "https://" not in page


def _board_nodes(driver: Any) -> list[int]:
    tiles = driver.find_elements(By.CSS_SELECTOR, "#board g.cf-tile[data-node]")
    return sorted(int(tile.get_attribute("data-node")) for tile in tiles)


def test_a_saved_game_loads_and_replays_step_by_step(browser: Any, url: str) -> None:
    driver = browser
    driver.get(url + "?delay=0")
    _wait(driver, lambda d: _body(d, "ready") == "1", 180, "Pyodide and the library to load")
    game = cf.new_game(cf.Rules.trains(), players=2, seed=4)
    bot = cf.bots.GreedyBot()
    for _ in range(14):
        game = cf.apply(game, bot(cf.observe(game, game.round.current_player)))
    record = cf.GameRecord.from_game(game, comments={3: "a comment, shown with its move"})
    states = cf.replay(record)
    field = driver.find_element(By.ID, "record")
    driver.execute_script("arguments[0].value = arguments[1];", field, cf.to_json(record))
    driver.find_element(By.ID, "replay").click()
    _wait(driver, lambda d: _body(d, "turn") == "past", 20, "the replay to start at the deal")
    assert driver.find_element(By.ID, "where").text == f"step 0 of {len(record.moves)} (looking back)"
    assert _board_nodes(driver) == [0]
    for step in range(1, len(record.moves) + 1):
        driver.find_element(By.ID, "step-next").click()
        board = states[step].round.board
        if step < len(record.moves):
            assert driver.find_element(By.ID, "where").text == f"step {step} of {len(record.moves)} (looking back)"
            turn = driver.find_element(By.ID, "turn").text
            assert turn.startswith(f"move {step}: ")
            assert not driver.find_elements(By.CSS_SELECTOR, "#ends button")  # nothing to play while looking back
        assert _board_nodes(driver) == list(range(len(board)))
        here = driver.find_element(By.CSS_SELECTOR, "#history li.here")
        assert here.get_attribute("data-step") == str(step)
        assert here.get_attribute("textContent").split()[-1] == str(record.moves[step - 1])
        comment = driver.find_element(By.ID, "comment")
        assert comment.is_displayed() == (step == 3)
        if step == 3:
            assert comment.text == "a comment, shown with its move"
    # The last step is the game as it stands: play goes on from there.
    assert _body(driver, "turn") in ("you", "bot", "over")
    # Step back from a live game with the keys, and jump by clicking a move in the list.
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    assert _body(driver, "turn") == "past"
    assert _board_nodes(driver) == [0]
    driver.find_element(By.CSS_SELECTOR, '#history li[data-step="5"]').click()
    assert driver.find_element(By.ID, "where").text.startswith("step 5 of ")
    assert _board_nodes(driver) == list(range(len(states[5].round.board)))
    driver.find_element(By.ID, "step-last").click()
    _wait(driver, _settled, 60, "the game to come back to the present")
    saved = _saved_record(driver)
    assert saved.moves[: len(record.moves)] == record.moves  # replaying changed nothing
    assert dict(saved.comments) == dict(record.comments)


def test_the_page_deals_a_game_as_it_loads(browser: Any, url: str) -> None:
    driver = browser
    driver.get(url + "?" + "&".join(f"{key}={value}" for key, value in GAME.items()))
    _wait(driver, lambda d: _body(d, "ready") == "1", 180, "Pyodide and the library to load")
    # No click on "New game": the table is dealt with the settings the page shows.
    _wait(driver, lambda d: d.find_element(By.ID, "table").is_displayed() or None, 30, "the first deal")
    assert _board_nodes(driver)[:1] == [0]
    assert driver.find_elements(By.CSS_SELECTOR, "#hand button.tile")
