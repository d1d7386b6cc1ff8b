"""Pictures: the text tree and the SVG show every tile once, the pending node marked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
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
    outlined = [i for i, tile in enumerate(tiles) if "cf-pending" in tile.get("class", "").split()]
    assert outlined == ([] if board.pending is None else [board.pending])
    assert [int(tile.get("data-node", "-1")) for tile in tiles] == list(range(len(board.nodes)))
    assert [i for i, tile in enumerate(tiles) if "cf-center" in tile.get("class", "").split()] == [0]


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


def _classed(svg: str, name: str) -> list[int]:
    """Gets the nodes whose tile carries class ``name``."""
    tiles = [tile for tile in _tiles(svg) if tile.get("data-node") is not None]
    return [int(tile.get("data-node", "-1")) for tile in tiles if name in tile.get("class", "").split()]


def _badges(svg: str) -> dict[int, ET.Element]:
    root = ET.fromstring(svg)
    return {int(g.get("data-node", "-1")): g for g in root.iter(f"{SVG}g") if "cf-label" in g.get("class", "").split()}


@given(games())
def test_every_node_number_is_drawn_once_on_request_and_in_a_view(game: cf.GameState) -> None:
    board = game.round.board
    badges = _badges(cf.svg.render_svg(game, numbers=True))
    assert sorted(badges) == list(range(len(board.nodes)))
    assert all(badge.findtext(f"{SVG}text") == str(node) for node, badge in badges.items())
    assert _badges(cf.svg.render_svg(game)) == {}  # off by default, but for a player
    view = cf.observe(game, 0)
    assert sorted(_badges(cf.svg.render_svg(view))) == list(range(len(board.nodes)))
    assert _badges(cf.svg.render_svg(view, numbers=False)) == {}


@given(games())
def test_a_view_marks_the_nodes_and_tiles_its_player_can_play(game: cf.GameState) -> None:
    player = game.current_player if game.current_player is not None else 0
    view = cf.observe(game, player)
    svg = cf.svg.render_svg(view)
    plays = [move for move in view.legal_moves if isinstance(move, cf.Play)]
    assert sorted(_classed(svg, "cf-playable")) == sorted({move.onto for move in plays})
    badges = _badges(svg)
    assert sorted(n for n, b in badges.items() if "cf-playable" in b.get("class", "")) == sorted(
        {m.onto for m in plays}
    )
    root = ET.fromstring(svg)
    hand = [g for g in root.iter(f"{SVG}g") if "cf-hand" in g.get("class", "").split()]
    assert sorted(g.get("data-tile") for g in hand) == sorted(str(tile) for tile in view.hand)
    marked = {g.get("data-tile") for g in hand if "cf-playable" in g.get("class", "").split()}
    assert marked == {str(move.tile) for move in plays}
    bare = cf.svg.render_svg(view, hand=False)  # the layout alone, marks and numbers kept
    assert not [g for g in ET.fromstring(bare).iter(f"{SVG}g") if "cf-hand" in g.get("class", "").split()]
    assert "hand" not in " ".join(t.text or "" for t in ET.fromstring(bare).iter(f"{SVG}text"))
    assert _classed(bare, "cf-playable") == _classed(svg, "cf-playable")
    assert sorted(_badges(bare)) == sorted(badges)
    other = cf.observe(game, (player + 1) % game.players)  # not its turn: nothing to play
    assert _classed(cf.svg.render_svg(other), "cf-playable") == []


@given(games())
def test_the_tile_the_last_move_placed_is_marked(game: cf.GameState) -> None:
    history = game.round.history
    last = _classed(cf.svg.render_svg(game), "cf-last")
    if history and isinstance(history[-1][1], cf.Play):
        assert last == [len(game.round.board.nodes) - 1]
        assert game.round.board.nodes[last[0]].tile == history[-1][1].tile
    else:
        assert last == []
    assert _classed(cf.svg.render_svg(game.round.board), "cf-last") == []  # a bare board has no moves


def test_numerals_stand_upright_whatever_the_tile_angle() -> None:
    # Double-18: values above 9 are numerals; a foot's toes lie at many angles.
    game = cf.new_game(cf.Rules.cross(max_pip=18), players=4, seed=2)
    while not game.results:
        game = cf.apply(game, cf.legal_moves(game)[-1])
    svg = cf.svg.render_svg(game.results[0].final)
    numerals = 0
    for tile in _tiles(svg):
        turned = float(re.search(r"rotate\(([-\d.]+)\)", tile.get("transform", ""))[1])  # type: ignore[index]
        for text in tile.iter(f"{SVG}text"):
            back = re.search(r"rotate\(([-\d.]+) ", text.get("transform", "rotate(0 "))
            assert back is not None
            assert (turned + float(back[1])) % 360 == pytest.approx(0, abs=0.1) or (
                (turned + float(back[1])) % 360 == pytest.approx(360, abs=0.1)
            )
            numerals += 1
    assert numerals > 20


def test_a_caption_is_written_under_the_layout_wrapped_and_escaped() -> None:
    words = "why: the 4-4 foot & its toes <block> the 9s " * 4
    svg = cf.svg.render_svg(_foot_board(), caption=words)
    lines = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text") if "cf-text" in t.get("class", "")]
    assert len(lines) > 1
    assert " ".join(lines).split() == words.split()
    with pytest.raises(TypeError, match="str caption"):
        cf.svg.render_svg(_foot_board(), caption=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="numbers=True, False or None"):
        cf.svg.render_svg(_foot_board(), numbers="yes")  # type: ignore[arg-type]
