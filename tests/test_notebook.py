"""The replay widget: a record as HTML that steps through the game, driven in headless Chromium.

The page is the widget's own HTML, saved to a file and opened from it (no server, nothing
fetched). Each step is checked against the library's own states of the game: the tiles shown,
the pending node, the last play, the hands, the move played and its comment.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.bots import GreedyBot
from chickenfoot.notebook import ReplayWidget

SVG = "{http://www.w3.org/2000/svg}"


def _game(moves: int) -> cf.GameState:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=3, seed=2)
    bot = GreedyBot()
    for _ in range(moves):
        game = cf.apply(game, bot(cf.observe(game, game.round.current_player)))
    return game


def _record(moves: int = 70) -> cf.GameRecord:
    game = _game(moves)
    return cf.GameRecord.from_game(
        game,
        names=["Ada", "greedy", "random"],
        comments={3: "why </script><b>not</b> & more", moves: "the last one"},
        round_comments={2: "round two begins"} if len(game.results) else {},
    )


def test_frames_follow_the_game_a_deal_per_round_then_each_move() -> None:
    record = _record()
    states = cf.replay(record)
    assert len(states[-1].results) >= 2  # the steps cross rounds' ends
    widget = ReplayWidget(record)
    rounds = len(states[-1].results) + (not states[-1].is_over)
    assert len(widget.frames) == len(record.moves) + rounds  # each move, and each round's deal
    assert len(widget.boards) == rounds  # each round's board drawn once
    moves = [frame for frame in widget.frames if frame["text"].startswith("move ")]
    for number, frame in enumerate(moves, start=1):
        assert frame["text"].startswith(f"move {number} of {len(record.moves)}, round ")
        assert frame["comment"] == record.comments.get(number)
        state = states[number]
        shown = state.results[-1].final if "round over" in frame["text"] else state.round
        assert frame["nodes"] == len(shown.board)
        assert frame["pending"] == shown.board.pending
        assert frame["hands"] == [" ".join(map(str, sorted(hand, reverse=True))) for hand in shown.hands]
    deals = [frame for frame in widget.frames if "dealt" in frame["text"]]
    assert [frame["comment"] for frame in deals] == [None, "round two begins", *[None] * (len(deals) - 2)]
    assert widget.start == len(widget.frames) - 1  # it opens on the game as it stands


def test_the_html_is_self_contained_and_safe_with_any_comment() -> None:
    html = _record()._repr_html_()
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html
    assert "</script><b>" not in html  # a comment cannot close the script or add markup
    payload = re.search(r'<script type="application/json" class="cf-replay-data">(.*?)</script>', html, re.S)
    assert payload is not None
    assert json.loads(payload[1])["frames"][3]["comment"] == "why </script><b>not</b> & more"

    class Parser(HTMLParser):
        svgs = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.svgs += tag == "svg"

    parser = Parser()
    parser.feed(html)
    assert parser.svgs == len(ReplayWidget(_record()).boards)
    for svg in re.findall(r"<svg.*?</svg>", html, re.S):
        ET.fromstring(svg)  # each board is well-formed SVG


def test_states_must_be_one_game_in_order() -> None:
    states = list(cf.replay(_record(10)))
    assert len(ReplayWidget(states).frames) == len(ReplayWidget(states[3:]).frames) + 3
    with pytest.raises(ValueError, match=r"states\[2\] does not follow states\[1\] by one move"):
        ReplayWidget([states[0], states[1], states[3]])
    with pytest.raises(TypeError, match="takes a GameRecord or a sequence of GameState"):
        ReplayWidget([])
    with pytest.raises(ValueError, match="seat must be None"):
        ReplayWidget(states, seat=3)
    with pytest.raises(ValueError, match="start must be a step from 0 to"):
        ReplayWidget(states, start=99)


# -- in the browser ---------------------------------------------------------------------------

pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from browser import chromium, wait  # noqa: E402


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


@pytest.mark.browser
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


@pytest.mark.browser
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
