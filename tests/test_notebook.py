"""The replay widget's frames and HTML: one frame per step of the game, the page self-contained.

tests/test_notebook_browser.py steps through the same widget in headless Chromium.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

import chickenfoot as cf
from chickenfoot.bots import GreedyBot
from chickenfoot.notebook import ReplayWidget


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
