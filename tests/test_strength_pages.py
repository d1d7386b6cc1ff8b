"""The strength pages agree with the scripts that write them, and the whole-game figures pair by deal."""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import chickenfoot as cf
from chickenfoot.tournament import LadderGame, LadderResult

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def scripts() -> Iterator[tuple[ModuleType, ModuleType]]:
    """Imports benchmarks/strength.py and benchmarks/strength_games.py (the second imports the first)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        yield importlib.import_module("strength"), importlib.import_module("strength_games")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_strength_page_has_the_sentence_its_script_writes(scripts: tuple[ModuleType, ModuleType]) -> None:
    # The page is edited by hand when the ladder is too long to run again: it must still say what the script would.
    strength, _ = scripts
    assert "(strength-games.md)" in strength.GAMES
    assert f"\n\n{strength.GAMES}\n\n" in (DOCS / "strength.md").read_text(encoding="utf-8")


def test_whole_game_page_is_marked_as_written_by_its_script() -> None:
    page = (DOCS / "strength-games.md").read_text(encoding="utf-8")
    assert "<!-- Written by benchmarks/strength_games.py: edit that script, not this page. -->" in page


def _result(totals_by_deal: list[list[int]], winners_by_deal: list[int]) -> LadderResult:
    """Builds a 4-bot ladder whose every game at deal ``d`` gives bot ``b`` total ``totals_by_deal[d][b]``."""
    games = []
    for deal, (totals, winner) in enumerate(zip(totals_by_deal, winners_by_deal, strict=True)):
        for turn in range(4):
            seating = tuple((seat + turn) % 4 for seat in range(4))
            by_seat = tuple(totals[bot] for bot in seating)
            games.append(
                LadderGame(
                    deal=deal,
                    seating=seating,
                    round_scores=(by_seat,),
                    totals=by_seat,
                    winners=(seating.index(winner),),
                )
            )
    return LadderResult(
        rules=cf.Rules.trains(),
        players=4,
        bots=("solver:10ms", "rollout:10ms", "search:10ms", "greedy"),
        cheating=(False,) * 4,
        seed=0,
        seating="rotations",
        games=tuple(games),
    )


def test_whole_game_figures_are_means_over_deals(scripts: tuple[ModuleType, ModuleType]) -> None:
    _, games = scripts
    figures = games.Games(_result([[10, 30, 50, 70], [20, 10, 60, 80]], [0, 1]))
    assert figures.total("solver:10ms")[0] == 15
    assert figures.total("search:10ms")[0] == 55
    assert figures.win_rate("solver:10ms")[0] == 0.5
    assert figures.win_rate("greedy")[0] == 0
    difference, low, high = figures.total_difference("solver:10ms", "rollout:10ms")
    assert difference == -5  # (10 - 30 + 20 - 10) / 2
    assert (low, high) == (-20, 10)  # the bootstrap's extremes: every draw one deal or the other


def test_one_deal_gives_no_interval(scripts: tuple[ModuleType, ModuleType]) -> None:
    _, games = scripts
    figures = games.Games(_result([[10, 30, 50, 70]], [0]))
    difference, low, high = figures.total_difference("solver:10ms", "rollout:10ms")
    assert difference == -20
    assert math.isnan(low)
    assert math.isnan(high)


def test_a_target_needs_its_interval_to_exclude_zero(scripts: tuple[ModuleType, ModuleType]) -> None:
    _, games = scripts
    assert games._verdict(True, True) == "met"
    assert games._verdict(True, False).startswith("missed")
    assert games._verdict(False, False) == "missed"


def test_deals_are_read_per_budget(scripts: tuple[ModuleType, ModuleType]) -> None:
    _, games = scripts
    assert games._budgets("10=16,50=6,200=2") == {10: 16, 50: 6, 200: 2}
    with pytest.raises(SystemExit):
        games._budgets("10=0")
