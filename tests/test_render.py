"""Pictures: the text tree and the SVG show every tile once, the pending node marked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given

import chickenfoot as cf
import chickenfoot.render
import chickenfoot.svg
from _games import games

Tile = cf.Tile
SVG = "{http://www.w3.org/2000/svg}"


def _foot_board() -> cf.Board:
    board = cf.Board.start(Tile(9, 9), arms=2)
    for tile, onto in [((9, 4), 0), ((9, 2), 0), ((4, 4), 1), ((4, 1), 3)]:
        board = board.place(Tile(*tile), onto)
    return board  # node 3 (4-4) is a pending foot with one toe of three


@given(games())
def test_text_tree_lists_every_node_once_with_its_line(game: cf.GameState) -> None:
    board = game.round.board
    text = cf.render.render_text(game)
    indexes = [int(found) for found in re.findall(r"#(\d+) ", text)]
    assert sorted(indexes) == list(range(len(board.nodes)))
    # One line for the center, one per arm, one per toe (FOOT-1: toes hang off doubles).
    toes = sum(1 for node in board.nodes[1:] if node.parent is not None and board.nodes[node.parent].tile.is_double)
    toes -= len(board.children(0)) if board.nodes[0].tile.is_double else 0
    assert len(text.splitlines()) == 1 + len(board.children(0)) + toes
    assert text.count("<- pending") == (board.pending is not None)
    if board.pending is not None:
        pending_line = next(line for line in text.splitlines() if "<- pending" in line)
        assert f"#{board.pending} " in pending_line


@given(games())
def test_text_tree_shows_each_tile_matched_half_first(game: cf.GameState) -> None:
    board = game.round.board
    text = cf.render.render_text(game)
    for index, node in enumerate(board.nodes[1:], start=1):
        matched = board.nodes[node.parent].exposed if node.parent is not None else None
        assert f"#{index} {matched}|{node.exposed}" in text


def _tiles(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [group for group in root.iter(f"{SVG}g") if group.find(f"{SVG}title") is not None]


@given(games())
def test_svg_draws_one_tile_per_node_and_outlines_only_the_pending_one(game: cf.GameState) -> None:
    board = game.round.board
    svg = cf.svg.render_svg(game, title="a <title> & more")
    tiles = _tiles(svg)  # parses: well-formed XML, the title escaped
    assert len(tiles) == len(board.nodes)
    titles = [tile.findtext(f"{SVG}title") for tile in tiles]
    assert titles == [
        f"#{i} {node.tile}{' (pending)' if i == board.pending else ''}" for i, node in enumerate(board.nodes)
    ]
    outlined = [i for i, tile in enumerate(tiles) if tile.find(f"{SVG}rect").get("stroke") == "#e8590c"]
    assert outlined == ([] if board.pending is None else [board.pending])


def test_svg_lays_doubles_across_the_line_and_fans_the_toes() -> None:
    board = _foot_board().place(Tile(4, 0), onto=3).place(Tile(4, 3), onto=3)
    angles = []
    for tile in _tiles(cf.svg.render_svg(board)):
        match = re.search(r"rotate\(([-\d.]+)\)", tile.get("transform", ""))
        assert match is not None
        angles.append(float(match[1]) % 360)
    arm = angles[1]  # 9-4 heads straight up from the center: -90 degrees
    assert angles[3] % 180 == (arm + 90) % 180  # FOOT-1: the double 4-4 lies across its line
    toes = sorted(angles[i] for i in (4, 5, 6))
    assert toes[0] < arm < toes[2]  # one toe to each side...
    assert arm in toes  # ...and one straight on


def test_svg_pips_count_the_values() -> None:
    board = cf.Board.start(Tile(6, 6), arms=1).place(Tile(6, 2), onto=0)
    tiles = _tiles(cf.svg.render_svg(board))
    pips = [len(list(tile.iter(f"{SVG}circle"))) for tile in tiles]
    assert pips == [12, 8]  # 6+6 and 6+2
    big = cf.Board.start(Tile(12, 12), arms=1)
    assert ">12<" in cf.svg.render_svg(big)  # values above 9 are written as numerals
