"""SVG pictures of a layout: tiles with pips, doubles crosswise, toes angled like a foot.

Pure string building, no dependencies. :func:`placements` places the tiles (the center in the
middle, its arms radiating, doubles across their line with three toes fanned out) so that no two
ever overlap, :func:`labels` places each node's number beside its tile, clear of the rest, and
:func:`render_svg` draws exactly those placements; a program drawing the board its own way can
use :func:`placements` and :func:`labels` alone. Each tile shows the value matched against its parent
on the half nearer the parent.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from html import escape

from ._game import Board, GameState, NodeIndex, Play, PlayerView, RoundState, SpectatorView
from ._pictures import (
    BADGE_FONT,
    BADGE_HEIGHT,
    GAP,
    UNIT,
    Label as Label,
    Placement as Placement,
    board_shown,
    cos_degrees,
    labels as labels,
    placements as placements,
    sin_degrees,
)

__all__ = ["Label", "Placement", "labels", "placements", "render_svg"]

for _public in (Label, Placement, labels, placements):  # documented here, where users import them
    _public.__module__ = __name__

# Pip positions on a 3x3 grid, (column, row) in -1..1, for values 0-9 (SET-1 sets up to double-9
# draw pips; larger values are written as numerals).
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    7: ((-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)),
    8: ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    9: tuple((c, r) for r in (-1, 0, 1) for c in (-1, 0, 1)),
}


def _last_play(state: GameState | RoundState | Board | PlayerView | SpectatorView) -> NodeIndex | None:
    """Gets the node the round's last move placed, if that move was a play (a bare board has no moves)."""
    if isinstance(state, Board):
        return None
    history = state.round.history if isinstance(state, GameState) else state.history
    if history and type(history[-1][1]) is Play:
        return len(state.round.board if isinstance(state, GameState) else state.board) - 1
    return None


def _corners(p: Placement) -> list[tuple[float, float]]:
    """Gets a placed tile's four corners."""
    ux, uy = cos_degrees(p.angle), sin_degrees(p.angle)
    return [
        (p.x + sx * p.length / 2 * ux - sy * p.width / 2 * uy, p.y + sx * p.length / 2 * uy + sy * p.width / 2 * ux)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def render_svg(
    state: GameState | RoundState | Board | PlayerView | SpectatorView,
    *,
    title: str | None = None,
    numbers: bool | None = None,
    caption: str | None = None,
    hand: bool = True,
) -> str:
    """Draws the layout as an SVG document: tiles with pips, doubles crosswise, toes angled like a foot.

    The tiles lie where :func:`placements` places them. The center has a gold face; the pending
    node (the center still taking arms, or a chicken foot still taking toes) is outlined in
    orange; the tile the round's last move placed has a blue face. Pips up to 9 are drawn as
    pips, larger values as numerals, upright at any angle. With ``numbers`` (the default for a
    :class:`~chickenfoot.PlayerView`), each node's number, as moves like ``9-5@3`` name it,
    stands beside its tile where :func:`labels` puts it; every tile also carries its number as a
    tooltip. A view draws only what its player may see: the layout, the nodes it can play onto
    in yellow, its own hand (playable tiles outlined too), and how many tiles each player holds
    and the yard (``hand=False`` leaves those out, for a page that shows the hand its own way);
    a :class:`~chickenfoot.SpectatorView`, numbered too, only the layout and the counts.
    ``caption`` is text (a comment) written under the layout, wrapped to the picture's width.

    Every element carries a ``cf-`` class (``cf-tile``, ``cf-center``, ``cf-pending``,
    ``cf-last``, ``cf-playable``, ``cf-label``) and each node's tile and number a
    ``data-node`` attribute, so a page showing the picture inline can restyle it or find a node.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 4), onto=0)
    >>> svg = render_svg(board, title="Round 1", numbers=True)
    >>> svg.startswith("<svg"), svg.count('class="cf-face"'), svg.count('class="cf-label'), "#1 9-4" in svg
    (True, 2, 2, True)
    """
    view = state if isinstance(state, PlayerView) else None
    board = board_shown(state, "render_svg")
    placed = placements(board)
    a_view = isinstance(state, (PlayerView, SpectatorView))
    badges = labels(placed) if _numbers_shown(title, caption, numbers, a_view) else ()
    marks = _marks(state, board, view)
    points = [corner for p in placed for corner in _corners(p)]
    points += [(b.x + sx * b.width / 2, b.y + sy * b.height / 2) for b in badges for sx in (-1, 1) for sy in (-1, 1)]
    left = min(x for x, _ in points) - UNIT  # a margin of one unit all round, and a line for the title
    top = min(y for _, y in points) - UNIT - (UNIT if title else 0)
    right = max(x for x, _ in points) + UNIT
    bottom = max(y for _, y in points) + UNIT
    tiles = [line for p in placed for line in _layout_tile(p, board, marks)]
    tiles += [_badge(badge, marks.get(badge.node, ())) for badge in badges]
    texts: list[tuple[float, str, float]] = []  # baseline, text, font size
    if title:
        texts.append((top + UNIT, title, _TEXT_FONT))
    if caption:
        bottom = _caption_lines(caption, right - left, bottom, texts)
    if view is not None and hand:
        right, bottom = _hand_row(view, left, right, bottom, tiles, texts)
    elif isinstance(state, SpectatorView) and hand:
        bottom = _counts_row(state, bottom, texts)
    # Room for the text lines too (sans-serif averages well under 0.6 em a character).
    right = max([right, *(left + UNIT / 2 + len(text) * font * 0.6 + UNIT / 2 for _, text, font in texts)])
    return _document(left, top, right - left, bottom - top, texts, [*_connectors(placed), *tiles])


def _numbers_shown(title: object, caption: object, numbers: object, a_view: bool) -> bool:
    """Checks render_svg's text options, and tells whether it writes the node numbers (a view's default)."""
    for name, text in (("title", title), ("caption", caption)):
        if text is not None and not isinstance(text, str):
            raise TypeError(f"render_svg() takes a str {name} or None, got {type(text).__name__}")
    if numbers is None:
        return a_view
    if not isinstance(numbers, bool):
        raise TypeError(f"render_svg() takes numbers=True, False or None, got {type(numbers).__name__}")
    return numbers


def _layout_tile(p: Placement, board: Board, marks: dict[int, list[str]]) -> list[str]:
    """Draws the layout's tile at node ``p.node``: the half matched against the parent nearer it."""
    node = board.nodes[p.node]
    far = node.exposed
    near = far if node.tile.is_double else node.tile.other(far)  # a double shows its value twice
    tooltip = f"#{p.node} {node.tile}{' (pending)' if board.pending == p.node else ''}"
    return _tile(p, near, far, tooltip, ["cf-tile", *marks.get(p.node, ())], f'data-node="{p.node}"')


def _marks(
    state: GameState | RoundState | Board | PlayerView | SpectatorView, board: Board, view: PlayerView | None
) -> dict[int, list[str]]:
    """Gets each marked node's classes: the center, the last play, the pending node, the nodes a view can play onto."""
    marks: dict[int, list[str]] = {0: ["cf-center"]}
    last = _last_play(state)
    if last is not None:
        marks.setdefault(last, []).append("cf-last")
    if board.pending is not None:
        marks.setdefault(board.pending, []).append("cf-pending")
    playable = {move.onto for move in view.legal_moves if type(move) is Play} if view is not None else set()
    for index in playable:
        marks.setdefault(index, []).append("cf-playable")
    return marks


def _hand_row(
    view: PlayerView, left: float, right: float, bottom: float, tiles: list[str], texts: list[tuple[float, str, float]]
) -> tuple[float, float]:
    """Draws the viewer's hand in a row under the layout, then the counts anyone may know; gets right and bottom."""
    texts.append((bottom + UNIT * 0.7, f"P{view.player}'s hand", _TEXT_FONT))
    row = bottom + UNIT * 2.2
    plays = {move.tile for move in view.legal_moves if type(move) is Play}
    for number, tile in enumerate(view.hand):
        stand = Placement(-1, left + UNIT + UNIT / 2 + number * (UNIT + GAP * 2), row, 90.0)
        classes = ["cf-tile", "cf-hand"] + ["cf-playable"] * (tile in plays) + ["cf-drawn"] * (tile == view.drawn)
        tiles += _tile(stand, tile.high, tile.low, f"hand: {tile}", classes, f'data-tile="{tile}"')
    right = max(right, left + UNIT + len(view.hand) * (UNIT + GAP * 2) + UNIT)
    counts = " ".join(f"P{seat}={size}" for seat, size in enumerate(view.hand_sizes))
    texts.append((row + UNIT * 2, f"tiles held: {counts}; yard {view.yard_size}", _TEXT_FONT))
    return right, row + UNIT * 2.6


def _caption_lines(caption: str, width: float, bottom: float, texts: list[tuple[float, str, float]]) -> float:
    """Writes the caption under the layout, wrapped to the picture's ``width``; gets the new bottom."""
    room = max(40, int((width - UNIT) / (_CAPTION_FONT * 0.55)))
    for line in textwrap.wrap(caption, room):
        texts.append((bottom, line, _CAPTION_FONT))
        bottom += _CAPTION_FONT * 1.3
    return bottom + UNIT / 2


def _counts_row(watched: SpectatorView, bottom: float, texts: list[tuple[float, str, float]]) -> float:
    """Writes, under a spectator's layout, how many tiles each player holds and the yard; gets the new bottom."""
    counts = " ".join(f"P{seat}={size}" for seat, size in enumerate(watched.hand_sizes))
    texts.append((bottom + UNIT * 0.7, f"tiles held: {counts}; yard {watched.yard_size}", _TEXT_FONT))
    return bottom + UNIT * 1.3


def _document(
    left: float, top: float, width: float, height: float, texts: list[tuple[float, str, float]], drawn: list[str]
) -> str:
    """Writes the SVG document: the felt, the text lines, then what is ``drawn`` on it."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        _STYLE,
        f'<rect class="cf-felt" x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}"/>',
    ]
    for y, text, font in texts:
        parts.append(
            f'<text class="cf-text" x="{left + UNIT / 2:.1f}" y="{y:.1f}" font-size="{font:.1f}">{escape(text)}</text>'
        )
    return "\n".join([*parts, *drawn, "</svg>"])


_TEXT_FONT = UNIT * 0.7  # a title and the lines under a view's hand
_CAPTION_FONT = UNIT * 0.55  # a caption (a comment)


def _connectors(placed: Sequence[Placement]) -> list[str]:
    """Draws a dashed line across each gap :func:`placements` left where it moved a line out to keep it clear."""
    lines = []
    for p in placed:
        if not p.gap:
            continue
        # The first tile of a line is never a double (the one double carrying its parent's value is
        # the parent), so it lies along its heading: the middle of its near edge, then back by the gap.
        x, y = p.x - cos_degrees(p.angle) * p.length / 2, p.y - sin_degrees(p.angle) * p.length / 2
        px, py = x - cos_degrees(p.angle) * p.gap, y - sin_degrees(p.angle) * p.gap
        lines.append(
            f'<line class="cf-gap" data-node="{p.node}" x1="{px:.1f}" y1="{py:.1f}" x2="{x:.1f}" y2="{y:.1f}"/>'
        )
    return lines


def _half(value: int, x: float, angle: float) -> list[str]:
    """Draws one half tile's value centred at ``(x, 0)`` in the frame of a tile turned ``angle`` degrees."""
    if value in _PIPS:
        step = UNIT * 0.27
        radius = UNIT * 0.09
        return [f'<circle cx="{x + c * step:.1f}" cy="{r * step:.1f}" r="{radius:.1f}"/>' for c, r in _PIPS[value]]
    size = UNIT * 0.55
    # Turned back by the tile's angle about its own centre, a numeral reads upright however the tile lies.
    upright = f' transform="rotate({-angle:.1f} {x:.1f} 0)"' if angle % 360 else ""
    return [
        f'<text x="{x:.1f}" y="{size * 0.35:.1f}" font-size="{size:.1f}" text-anchor="middle"{upright}>{value}</text>'
    ]


def _tile(p: Placement, near: int, far: int, tooltip: str, classes: list[str], data: str) -> list[str]:
    """Draws one tile where ``p`` puts it, ``near`` on the half toward ``p.angle + 180``."""
    return [
        f'<g class="{" ".join(classes)}" {data} transform="translate({p.x:.1f} {p.y:.1f}) rotate({p.angle:.1f})">',
        f"<title>{escape(tooltip)}</title>",
        f'<rect class="cf-face" x="{-p.length / 2:.1f}" y="{-p.width / 2:.1f}" width="{p.length:.1f}" '
        f'height="{p.width:.1f}" rx="{p.width * 0.15:.1f}"/>',
        f'<line class="cf-rule" x1="0" y1="{-p.width * 0.4:.1f}" x2="0" y2="{p.width * 0.4:.1f}"/>',
        '<g class="cf-pips">',
        *_half(near, -p.length / 4, p.angle),
        *_half(far, p.length / 4, p.angle),
        "</g></g>",
    ]


def _badge(label: Label, marks: Sequence[str]) -> str:
    """Draws a node's number in its badge, upright."""
    classes = " ".join(["cf-label", *marks])
    x, y = label.x - label.width / 2, label.y - label.height / 2
    font = BADGE_FONT * label.height / BADGE_HEIGHT  # a badge shrunk onto its tile shrinks its number too
    return (
        f'<g class="{classes}" data-node="{label.node}"><rect x="{x:.1f}" y="{y:.1f}" width="{label.width:.1f}" '
        f'height="{label.height:.1f}" rx="{label.height / 2:.1f}"/><text x="{label.x:.1f}" '
        f'y="{label.y + font * 0.36:.1f}" font-size="{font:.1f}" text-anchor="middle">{label.node}</text></g>'
    )


_STYLE = """<style>
.cf-felt{fill:#2f6b3a}
.cf-text{fill:#ffffff;font-family:sans-serif}
.cf-face{fill:#fbf7ea;stroke:#222222;stroke-width:1.2}
.cf-rule{stroke:#555555;stroke-width:1}
.cf-pips{fill:#111111}
.cf-pips text{font-family:sans-serif}
.cf-center>.cf-face{fill:#f3d37a;stroke:#7a5c12;stroke-width:2.5}
.cf-last>.cf-face,.cf-drawn>.cf-face{fill:#cde7ff}
.cf-playable>.cf-face{stroke:#ffd43b;stroke-width:3.5}
.cf-pending>.cf-face{stroke:#e8590c;stroke-width:4}
.cf-label>rect{fill:#1f2328;stroke:#fbf7ea;stroke-width:1}
.cf-label>text{fill:#ffffff;font-family:sans-serif;font-weight:bold}
.cf-label.cf-center>rect{fill:#7a5c12}
.cf-label.cf-last>rect{fill:#1864ab}
.cf-label.cf-pending>rect{fill:#e8590c}
.cf-label.cf-playable>rect{fill:#ffd43b;stroke:#111111}
.cf-label.cf-playable>text{fill:#111111}
.cf-gap{stroke:#fbf7ea;stroke-width:2;stroke-dasharray:4 4;opacity:0.6}
.cf-hidden{display:none}
</style>"""
