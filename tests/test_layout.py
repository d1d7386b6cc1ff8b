"""The layout's geometry: one placement per node, drawn exactly, no two tiles ever overlapping, and
each node's number beside its own tile, touching no other tile and no other number."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

import chickenfoot as cf
import chickenfoot.svg

CHECK = Path(__file__).resolve().parent.parent / "benchmarks" / "layout_check.py"
_spec = importlib.util.spec_from_file_location("chickenfoot_layout_check", CHECK)
assert _spec is not None
assert _spec.loader is not None
check = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = check
_spec.loader.exec_module(check)
CONFIGURATIONS, finished_rounds, overlapping = check.CONFIGURATIONS, check.finished_rounds, check.overlapping
overlapping_labels = check.overlapping_labels

Placement = chickenfoot.svg.Placement
ROUNDS = 500


@pytest.mark.slow
def test_no_two_tiles_overlap_nor_any_number_a_tile_in_500_finished_rounds() -> None:
    seen: set[tuple[str, int, int, int]] = set()
    numbers = on_tiles = 0
    for rules, players, final in finished_rounds(seed=14, count=ROUNDS):
        placements = chickenfoot.svg.placements(final)
        assert [p.node for p in placements] == list(range(len(final.board.nodes)))
        assert overlapping(placements) == [], (rules, players, cf.position(final))
        labels = chickenfoot.svg.labels(placements)
        assert [label.node for label in labels] == list(range(len(final.board.nodes)))
        assert overlapping_labels(placements, labels) == [], (rules, players, cf.position(final))
        for label, p in zip(labels, placements, strict=True):
            # Beside its own tile: the badge touches the tile grown by 27 units (the farthest spot tried is
            # two thirds of a tile's width out from a corner, both ways); the center's, between its arms,
            # by a tile's width and a half.
            reach = 27.0 if p.node else 36.0
            grown = Placement(p.node, p.x, p.y, p.angle, p.length + 2 * reach, p.width + 2 * reach)
            assert overlapping_labels((grown,), (attrs.evolve(label, node=-1),)) == [("tile", -1, p.node)]
        numbers += len(labels)
        on_tiles += sum(not label.beside for label in labels)
        seen.add((rules.deal, rules.max_pip, rules.arms_for(players), players))
    assert on_tiles < numbers * 0.03  # a number sits on its own tile only where its tile is hemmed in
    # Both presets, double-6 to double-18, 6-arm centers and 2 to 8 players were all drawn.
    assert {deal for deal, *_ in seen} == {"trains", "cross"}
    assert {pip for _, pip, _, _ in seen} == {rules.max_pip for rules in CONFIGURATIONS} >= {6, 18}
    assert 6 in {arms for _, _, arms, _ in seen}
    assert {players for *_, players in seen} == set(range(2, 9))


def test_gaps_are_rare_and_drawn() -> None:
    gaps = 0
    for _, _, final in finished_rounds(seed=5, count=40):
        placements = chickenfoot.svg.placements(final)
        moved = [p for p in placements if p.gap]
        for p in moved:  # only a line's first tile: its parent is a double or the center
            parent = final.board.nodes[final.board.nodes[p.node].parent or 0]
            assert parent.tile.is_double
        assert chickenfoot.svg.render_svg(final).count('class="cf-gap"') == len(moved)
        gaps += len(moved)
    assert gaps < 40  # crowded, double-heavy rounds: fewer than one moved line a round


def test_the_overlap_check_can_fail() -> None:
    """The property above proves something: crossing tiles are caught, tiles edge to edge are not."""
    first = Placement(1, 0.0, 0.0, 0.0)
    assert overlapping((first, Placement(2, 10.0, 5.0, 90.0))) == [(1, 2)]
    assert overlapping((first, Placement(2, 40.0, 20.0, 30.0))) == [(1, 2)]  # corners cut
    assert overlapping((first, Placement(2, 48.0, 0.0, 0.0))) == []  # end to end
    assert overlapping((first, Placement(2, 0.0, 24.0, 180.0))) == []  # side by side
    # And for numbers: one on a neighbour, or on another number, is caught; one on its own tile is not.
    Label = chickenfoot.svg.Label
    tiles = (first, Placement(2, 48.0, 0.0, 0.0))
    assert overlapping_labels(tiles, (Label(1, 30.0, 0.0, 14.0, 14.0),)) == [("tile", 1, 2)]
    assert overlapping_labels(tiles, (Label(1, 0.0, 0.0, 14.0, 14.0, beside=False),)) == []
    pair = (Label(1, 0.0, 20.0, 14.0, 14.0), Label(2, 10.0, 22.0, 14.0, 14.0))
    assert overlapping_labels(tiles, pair) == [("label", 1, 2)]


def test_render_svg_draws_exactly_the_layout() -> None:
    for _, _, final in finished_rounds(seed=3, count=5):
        svg = chickenfoot.svg.render_svg(final)
        groups = [g for g in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("data-node")]
        drawn = [
            tuple(map(float, re.findall(r"[-\d.]+", g.get("transform", "")))) for g in groups if g.get("transform")
        ]
        expected = [(p.x, p.y, p.angle) for p in chickenfoot.svg.placements(final)]
        assert len(drawn) == len(expected)
        for (x, y, angle), (ex, ey, eangle) in zip(drawn, expected, strict=True):
            assert (x, y, angle) == pytest.approx((ex, ey, eangle), abs=0.06)


@pytest.mark.rule("FOOT-1")
def test_a_foot_fans_its_toes_beyond_the_double() -> None:
    board = cf.Board.start(cf.Tile(9, 9), arms=1)
    for tile, onto in [((9, 4), 0), ((4, 4), 1), ((4, 1), 2), ((4, 2), 2), ((4, 3), 2)]:
        board = board.place(cf.Tile(*tile), onto)
    by_node = {p.node: p for p in chickenfoot.svg.placements(board)}
    arm, double = by_node[1].angle, by_node[2].angle
    assert (double - arm) % 180 == pytest.approx(90)  # FOOT-1: the double lies across its line
    turns = sorted((by_node[toe].angle - arm + 180) % 360 - 180 for toe in (3, 4, 5))
    assert turns[0] < -20  # one to each side...
    assert turns[2] > 20
    assert turns[1] == pytest.approx(0)  # ...and one straight on
    heading = (by_node[2].x - by_node[1].x, by_node[2].y - by_node[1].y)
    for toe in (3, 4, 5):  # every toe starts beyond the double, not across it
        ahead = (by_node[toe].x - by_node[2].x) * heading[0] + (by_node[toe].y - by_node[2].y) * heading[1]
        assert ahead > 0


@pytest.mark.parametrize("function", [chickenfoot.svg.placements, chickenfoot.svg.render_svg])
def test_pictures_reject_what_is_not_a_board(function: object) -> None:
    assert callable(function)
    with pytest.raises(
        TypeError, match=r"draws a Board, RoundState, GameState, PlayerView or SpectatorView, got NoneType"
    ):
        function(None)
