"""The SVG renders to a real picture (cairosvg): the felt, the tiles and the orange pending outline show."""

from __future__ import annotations

import io

import pytest

try:  # cairosvg needs the system's cairo library; without it, it raises OSError on import
    import cairosvg
except (ImportError, OSError) as error:  # pragma: no cover - depends on the machine
    pytest.skip(f"cairosvg unavailable: {error}", allow_module_level=True)
Image = pytest.importorskip("PIL.Image")

import chickenfoot as cf  # noqa: E402
import chickenfoot.bots  # noqa: E402
import chickenfoot.svg  # noqa: E402


def _colors(svg: str) -> tuple[tuple[int, int], set[tuple[int, int, int]]]:
    png = cairosvg.svg2png(bytestring=svg.encode())
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.size, {color for _, color in image.getcolors(maxcolors=1 << 24)}


def test_a_pending_foot_renders_with_its_outline() -> None:
    board = cf.Board.start(cf.Tile(9, 9), arms=2)
    for tile, onto in [((9, 4), 0), ((9, 2), 0), ((4, 4), 1), ((4, 1), 3)]:
        board = board.place(cf.Tile(*tile), onto)
    svg = cf.svg.render_svg(board, title="pending foot")
    size, colors = _colors(svg)
    assert min(size) > 3 * 24  # wider than a tile across, with margins
    assert (0x2F, 0x6B, 0x3A) in colors  # the felt
    assert (0xFB, 0xF7, 0xEA) in colors  # tile faces
    assert (0xE8, 0x59, 0x0C) in colors  # the pending outline


def test_a_finished_round_renders_without_an_outline() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=3)
    bot = cf.bots.GreedyBot()
    while not game.results:
        game = cf.apply(game, bot(cf.observe(game, game.round.current_player)))
    final = game.results[0].final
    _, colors = _colors(cf.svg.render_svg(final))
    assert (0xFB, 0xF7, 0xEA) in colors
    if final.board.pending is None:
        assert (0xE8, 0x59, 0x0C) not in colors


def test_node_numbers_the_center_the_last_play_and_a_players_options_render() -> None:
    # A 0-0 center (the last round's), which once blended into the tiles beside it.
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    bot = cf.bots.GreedyBot()
    while len(game.results) < 9 or len(game.round.board.nodes) < 6:
        game = cf.apply(game, bot(cf.observe(game, game.round.current_player)))
    assert game.round.board.center == cf.Tile(0, 0)
    _, plain = _colors(cf.svg.render_svg(game))
    assert (0xF3, 0xD3, 0x7A) in plain  # the center's gold face
    assert (0x1F, 0x23, 0x28) not in plain  # no numbers unless asked
    _, numbered = _colors(cf.svg.render_svg(game, numbers=True))
    assert (0x1F, 0x23, 0x28) in numbered  # the number badges
    assert (0x7A, 0x5C, 0x12) in numbered  # the center's own badge

    def playable(game: cf.GameState) -> bool:
        return any(isinstance(move, cf.Play) for move in cf.legal_moves(game))

    while not isinstance(game.round.history[-1][1], cf.Play) or not playable(game):
        game = cf.apply(game, bot(cf.observe(game, game.round.current_player)))
    _, seen = _colors(cf.svg.render_svg(cf.observe(game, game.round.current_player)))
    assert (0xCD, 0xE7, 0xFF) in seen  # the last play's face
    assert (0xFF, 0xD4, 0x3B) in seen  # where the viewer can play
