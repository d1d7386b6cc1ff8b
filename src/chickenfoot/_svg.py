"""SVG pictures of a layout: tiles with pips, doubles crosswise, toes angled like a foot.

Pure string building, no dependencies. Geometry: the center lies in the middle and its arms
radiate evenly from it; a line of play runs straight on; a double is laid across the line and
its three toes fan out from it (FOOT-1). Each tile shows the value matched against its parent
on the half nearer the parent.
"""

from __future__ import annotations

import math
from html import escape

from ._board import Board
from ._state import GameState, RoundState

__all__ = ["render_svg"]

UNIT = 24.0  # side of a half tile, in SVG user units
GAP = 3.0
TOE_SPREAD = 38.0  # degrees between a foot's toes
PENDING_COLOR = "#e8590c"

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


def _half(value: int, x: float) -> list[str]:
    """Draws one half tile's value centred at ``(x, 0)`` in the tile's own frame."""
    if value in _PIPS:
        step = UNIT * 0.27
        radius = UNIT * 0.09
        return [f'<circle cx="{x + c * step:.1f}" cy="{r * step:.1f}" r="{radius:.1f}"/>' for c, r in _PIPS[value]]
    size = UNIT * 0.55
    return [
        f'<text x="{x:.1f}" y="{size * 0.35:.1f}" font-size="{size:.1f}" text-anchor="middle" '
        f'font-family="sans-serif">{value}</text>'
    ]


class _Placed:
    """Where a node's tile lies: centre, angle of its long axis, and where its line of play points."""

    __slots__ = ("angle", "cx", "cy", "direction", "far", "near")

    def __init__(self, cx: float, cy: float, angle: float, direction: float, near: int, far: int) -> None:
        self.cx, self.cy, self.angle, self.direction, self.near, self.far = cx, cy, angle, direction, near, far


def _layout(board: Board, arms: int) -> list[_Placed]:
    nodes = board.nodes
    children: dict[int, list[int]] = {}
    for index, node in enumerate(nodes[1:], start=1):
        assert node.parent is not None
        children.setdefault(node.parent, []).append(index)
    center = nodes[0].tile.high
    placed: list[_Placed | None] = [None] * len(nodes)
    placed[0] = _Placed(0.0, 0.0, 90.0, 0.0, center, center)  # the center double stands crosswise too

    def lay(index: int, x: float, y: float, direction: float) -> None:
        """Lays node ``index`` with its near edge at ``(x, y)``, its line of play heading ``direction``."""
        node = nodes[index]
        rad = math.radians(direction)
        dx, dy = math.cos(rad), math.sin(rad)
        if node.tile.is_double:
            # FOOT-1: laid crosswise; the toes fan out from its far side.
            cx, cy = x + dx * UNIT / 2, y + dy * UNIT / 2
            placed[index] = _Placed(cx, cy, direction + 90, direction, node.exposed, node.exposed)
            px, py = -dy, dx
            for toe, child in enumerate(children.get(index, [])):
                side = (0, -1, 1)[toe % 3]
                heading = direction + side * TOE_SPREAD
                sx = cx + dx * (UNIT / 2 + GAP) + px * side * UNIT * 0.7
                sy = cy + dy * (UNIT / 2 + GAP) + py * side * UNIT * 0.7
                lay(child, sx, sy, heading)
        else:
            near = node.tile.other(node.exposed)
            cx, cy = x + dx * UNIT, y + dy * UNIT
            placed[index] = _Placed(cx, cy, direction, direction, near, node.exposed)
            for child in children.get(index, []):
                lay(child, x + dx * (2 * UNIT + GAP), y + dy * (2 * UNIT + GAP), direction)

    slots = max(arms, len(children.get(0, [])), 1)
    radius = UNIT * 1.1 + GAP
    for arm, child in enumerate(children.get(0, [])):
        heading = -90.0 + 360.0 * arm / slots
        rad = math.radians(heading)
        lay(child, math.cos(rad) * radius, math.sin(rad) * radius, heading)
    return [p for p in placed if p is not None]


def _corners(p: _Placed) -> list[tuple[float, float]]:
    rad = math.radians(p.angle)
    ux, uy = math.cos(rad), math.sin(rad)
    return [
        (p.cx + sx * UNIT * ux - sy * UNIT / 2 * uy, p.cy + sx * UNIT * uy + sy * UNIT / 2 * ux)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def render_svg(state: GameState | RoundState | Board, *, title: str | None = None) -> str:
    """Draws the layout as an SVG document: tiles with pips, doubles crosswise, toes angled like a foot.

    The pending node (the center still taking arms, or a chicken foot still taking toes) is
    outlined in orange; every tile carries a tooltip with its node index, as used in moves
    like ``9-5@3``.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 4), onto=0)
    >>> svg = render_svg(board, title="Round 1")
    >>> svg.startswith("<svg"), svg.count("<rect"), "#1 9-4" in svg
    (True, 3, True)
    """
    if isinstance(state, Board):
        board, arms = state, max(4, len(state.children(0)))
    else:
        round_ = state.round if isinstance(state, GameState) else state
        board, arms = round_.board, round_.rules.arms_for(round_.players)
    placed = _layout(board, arms)
    points = [corner for p in placed for corner in _corners(p)]
    margin = UNIT
    left = min(x for x, _ in points) - margin
    top = min(y for _, y in points) - margin - (UNIT if title else 0)
    width = max(x for x, _ in points) + margin - left
    height = max(y for _, y in points) + margin - top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#2f6b3a"/>',
    ]
    if title:
        parts.append(
            f'<text x="{left + UNIT / 2:.1f}" y="{top + UNIT:.1f}" font-size="{UNIT * 0.7:.1f}" '
            f'font-family="sans-serif" fill="#ffffff">{escape(title)}</text>'
        )
    for index, p in enumerate(placed):
        node = board.nodes[index]
        pending = board.pending == index
        stroke = f'stroke="{PENDING_COLOR}" stroke-width="4"' if pending else 'stroke="#222222" stroke-width="1.2"'
        parts.append(f'<g transform="translate({p.cx:.1f} {p.cy:.1f}) rotate({p.angle:.1f})">')
        parts.append(f"<title>#{index} {node.tile}{' (pending)' if pending else ''}</title>")
        parts.append(
            f'<rect x="{-UNIT:.1f}" y="{-UNIT / 2:.1f}" width="{2 * UNIT:.1f}" height="{UNIT:.1f}" '
            f'rx="{UNIT * 0.15:.1f}" fill="#fbf7ea" {stroke}/>'
        )
        parts.append(f'<line x1="0" y1="{-UNIT * 0.4:.1f}" x2="0" y2="{UNIT * 0.4:.1f}" stroke="#555555"/>')
        parts.append('<g fill="#111111">')
        parts += _half(p.near, -UNIT / 2)
        parts += _half(p.far, UNIT / 2)
        parts.append("</g></g>")
    parts.append("</svg>")
    return "\n".join(parts)
