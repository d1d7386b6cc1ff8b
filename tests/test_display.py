"""Jupyter and print(): states, boards and views draw themselves; a view shows only what its player may see."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import chickenfoot as cf
import chickenfoot.render

SVG = "{http://www.w3.org/2000/svg}"


def _game() -> cf.GameState:
    game = cf.new_game(cf.Rules.trains(), players=3, seed=7)
    for _ in range(12):
        game = cf.apply(game, cf.legal_moves(game)[0])
    return game


def _tooltips(svg: str) -> list[str]:
    return [title.text or "" for title in ET.fromstring(svg).iter(f"{SVG}title")]


def test_states_and_boards_display_as_svg_in_jupyter() -> None:
    game = _game()
    nodes = len(game.round.board.nodes)
    for shown in (game, game.round, game.round.board):
        tooltips = _tooltips(shown._repr_svg_())
        assert len(tooltips) == nodes
        assert all(tip.startswith("#") for tip in tooltips)


def test_a_view_shows_its_own_hand_and_no_other() -> None:
    game = _game()
    view = cf.observe(game, 1)
    svg = view._repr_svg_()
    hand = [tip.removeprefix("hand: ") for tip in _tooltips(svg) if tip.startswith("hand: ")]
    assert hand == [str(tile) for tile in game.round.hands[1]]
    others = {str(tile) for seat in (0, 2) for tile in game.round.hands[seat]} | {str(t) for t in game.round.yard}
    assert not others & set(" ".join(_tooltips(svg)).split())
    assert f"P0={len(game.round.hands[0])}" in svg
    text = str(view)
    assert " ".join(map(str, game.round.hands[1])) in text
    assert not any(str(tile) in text.split() for tile in game.round.hands[0] if tile not in game.round.hands[1])


def test_str_of_a_state_is_the_text_picture() -> None:
    game = _game()
    text = str(game)
    assert text.splitlines()[0].startswith(f"Round 1 of 10, center 9-9; P{game.round.current_player} to move")
    assert cf.render.render_text(game) in text
    assert f"P0: {' '.join(map(str, game.round.hands[0]))}" in text
    assert str(game.round.board) == cf.render.render_text(game)
    assert len(text) < len(repr(game))
