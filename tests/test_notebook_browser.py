"""The replay widget in headless Chromium: it steps through the game as the library plays it.

The page is the widget's own HTML, saved to a file and opened from it (no server, nothing
fetched). Each step is checked against the library's own states of the game: the tiles shown,
the pending node, the last play, the hands, the move played and its comment.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.notebook import ReplayWidget
from test_notebook import _record

pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browser import chromium, wait

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as browser:
        yield browser


def _open(driver: Any, path: Path) -> Any:
    driver.get(path.as_uri())
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".cf-replay[data-ready]"), 20, "the replay's script")


# What the widget shows, read in one call: the step, the move's text, the comment, and the board's
# tiles that are visible, pending and last played.
READ = """
const root = arguments[0];
const board = [...root.querySelectorAll(".cf-replay-round")].find((b) => !b.hidden);
const nodes = (selector) => [...board.querySelectorAll(selector)]
  .filter((g) => getComputedStyle(g).display !== "none").map((g) => Number(g.dataset.node)).sort((a, b) => a - b);
const comment = root.querySelector(".cf-replay-comment");
return {
  step: Number(root.dataset.step),
  text: root.querySelector(".cf-replay-move").textContent,
  comment: comment.hidden ? null : comment.textContent,
  visible: nodes("g.cf-tile[data-node]"),
  numbers: nodes("g.cf-label[data-node]"),
  pending: nodes("g.cf-tile.cf-pending"),
  last: nodes("g.cf-tile.cf-last"),
};
"""


def test_the_widget_steps_through_the_game_as_the_library_plays_it(driver: Any, tmp_path: Path) -> None:
    record = _record()
    states = cf.replay(record)
    widget = ReplayWidget(record, start=0)
    root = _open(driver, widget.save(tmp_path / "replay.html"))
    seen = driver.execute_script(READ, root)
    assert (seen["step"], seen["visible"], seen["numbers"]) == (0, [0], [0])  # the deal: the center alone
    step = 0
    for number in range(1, len(record.moves) + 1):
        root.find_element(By.CSS_SELECTOR, '[data-go="next"]').click()
        step += 1
        if "dealt" in widget.frames[step]["text"]:  # a deal comes between a round's last move and the next's first
            root.find_element(By.CSS_SELECTOR, '[data-go="next"]').click()
            step += 1
        seen = driver.execute_script(READ, root)
        assert seen["step"] == step
        assert seen["text"].startswith(f"move {number} of {len(record.moves)}, round ")
        move = record.moves[number - 1]
        said = f"{move.tile} onto #{move.onto}" if isinstance(move, cf.Play) else str(move)[:4]
        assert said in seen["text"]  # the move played, in words
        state = states[number]
        shown = state.results[-1].final if "round over" in seen["text"] else state.round  # a round's end: its board
        board = shown.board
        assert seen["visible"] == seen["numbers"] == list(range(len(board)))
        assert seen["pending"] == ([] if board.pending is None else [board.pending])
        assert seen["last"] == ([len(board) - 1] if isinstance(move, cf.Play) else [])
        assert seen["comment"] == record.comments.get(number)
        if number == 12:  # every hand, then one seat's: the others face down
            rows = root.find_elements(By.CSS_SELECTOR, ".cf-replay-hand")
            assert [r.find_elements(By.CSS_SELECTOR, ".cf-chip") != [] for r in rows] == [bool(h) for h in shown.hands]
            Select(root.find_element(By.TAG_NAME, "select")).select_by_value("1")
            rows = root.find_elements(By.CSS_SELECTOR, ".cf-replay-hand")
            chips = [chip.text for chip in rows[1].find_elements(By.CSS_SELECTOR, ".cf-chip")]
            assert chips == [str(tile) for tile in sorted(shown.hands[1], reverse=True)]
            assert all(
                "face down" in row.text and not row.find_elements(By.CSS_SELECTOR, ".cf-chip") for row in rows[::2]
            )
            Select(root.find_element(By.TAG_NAME, "select")).select_by_value("all")
    # The keys, the slider and the ends.
    root.find_element(By.CSS_SELECTOR, '[data-go="first"]').click()
    assert root.get_attribute("data-step") == "0"
    assert root.find_element(By.CSS_SELECTOR, ".cf-replay-move").text == widget.frames[0]["text"]
    root.send_keys(Keys.END)
    assert root.get_attribute("data-step") == str(len(widget.frames) - 1)
    root.send_keys(Keys.ARROW_LEFT)
    assert root.get_attribute("data-step") == str(len(widget.frames) - 2)
    driver.execute_script(
        "const s = arguments[0]; s.value = '5'; s.dispatchEvent(new Event('input'));",
        root.find_element(By.CSS_SELECTOR, 'input[type="range"]'),
    )
    assert root.get_attribute("data-step") == "5"
    assert root.find_element(By.CSS_SELECTOR, ".cf-replay-move").text == widget.frames[5]["text"]


def test_two_widgets_on_one_page_step_apart(driver: Any, tmp_path: Path) -> None:
    widget = ReplayWidget(_record(20))
    page = tmp_path / "two.html"
    page.write_text(f"<!doctype html><meta charset=utf-8><body>{widget._repr_html_()}{widget._repr_html_()}</body>")
    _open(driver, page)
    first, second = driver.find_elements(By.CSS_SELECTOR, ".cf-replay")
    assert first.get_attribute("id") != second.get_attribute("id")
    first.find_element(By.CSS_SELECTOR, '[data-go="first"]').click()
    assert first.get_attribute("data-step") == "0"
    assert second.get_attribute("data-step") == str(len(widget.frames) - 1)
