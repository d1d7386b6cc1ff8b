"""SVG pictures of a layout: tiles with pips, doubles crosswise, toes angled like a foot.

Pure string building, no dependencies. Geometry: the center lies in the middle and its arms
radiate evenly from it; a line of play runs straight on; a double is laid across the line and
its three toes fan out from it (FOOT-1). A line that would run into tiles already laid turns a
corner (up to 120 degrees); a crowded layout can still box a line in, and then the turn that
overlaps least is taken. Each tile shows the value matched against its parent on the half
nearer the parent.
"""

from __future__ import annotations

import math
from html import escape

from ._board import Board
from ._state import GameState, RoundState

__all__ = ["render_svg"]

_UNIT = 24.0  # side of a half tile, in SVG user units
_GAP = 3.0
_TOE_SPREAD = 38.0  # degrees between a foot's toes
_PENDING_COLOR = "#e8590c"
_BENDS = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0, 120.0, -120.0)  # turns tried, in order, when blocked

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
        step = _UNIT * 0.27
        radius = _UNIT * 0.09
        return [f'<circle cx="{x + c * step:.1f}" cy="{r * step:.1f}" r="{radius:.1f}"/>' for c, r in _PIPS[value]]
    size = _UNIT * 0.55
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

    # Every tile laid so far as a rectangle (centre, axis angle); a line of play that would run
    # into one turns a corner at its joint, as players do on a real table.
    laid: list[tuple[float, float, float, int]] = [(0.0, 0.0, 90.0, 0)]

    def collisions(index: int, cx: float, cy: float, axis: float) -> int:
        parent = nodes[index].parent
        return sum(1 for x, y, angle, owner in laid if owner != parent and _overlap((cx, cy, axis), (x, y, angle)))

    def lay(index: int, x: float, y: float, direction: float) -> None:
        """Lays node ``index`` with its near edge at ``(x, y)``, its line of play heading about ``direction``."""
        node = nodes[index]
        double = node.tile.is_double
        depth = _UNIT / 2 if double else _UNIT  # FOOT-1: a double lies across the line
        best: tuple[int, float] | None = None
        for bend in _BENDS:
            rad = math.radians(direction + bend)
            hits = collisions(
                index, x + math.cos(rad) * depth, y + math.sin(rad) * depth, direction + bend + 90 * double
            )
            if best is None or hits < best[0]:
                best = (hits, bend)
            if not hits:
                break
        assert best is not None
        heading = direction + best[1]  # boxed in: the turn that overlaps least
        rad = math.radians(heading)
        dx, dy = math.cos(rad), math.sin(rad)
        cx, cy = x + dx * depth, y + dy * depth
        laid.append((cx, cy, heading + (90 if double else 0), index))
        if double:
            placed[index] = _Placed(cx, cy, heading + 90, heading, node.exposed, node.exposed)
            px, py = -dy, dx
            for toe, child in enumerate(children.get(index, [])):
                side = (0, -1, 1)[toe % 3]  # the toes fan out from its far side
                sx = cx + dx * (_UNIT / 2 + _GAP) + px * side * _UNIT * 0.7
                sy = cy + dy * (_UNIT / 2 + _GAP) + py * side * _UNIT * 0.7
                lay(child, sx, sy, heading + side * _TOE_SPREAD)
        else:
            placed[index] = _Placed(cx, cy, heading, heading, node.tile.other(node.exposed), node.exposed)
            for child in children.get(index, []):
                lay(child, x + dx * (2 * _UNIT + _GAP), y + dy * (2 * _UNIT + _GAP), heading)

    slots = max(arms, len(children.get(0, [])), 1)
    radius = _UNIT * 1.1 + _GAP
    for arm, child in enumerate(children.get(0, [])):
        heading = -90.0 + 360.0 * arm / slots
        rad = math.radians(heading)
        lay(child, math.cos(rad) * radius, math.sin(rad) * radius, heading)
    return [p for p in placed if p is not None]


def _overlap(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Tells whether two tiles (centre x, centre y, axis angle) overlap, by separating axes; touching is fine."""
    shrink = 0.92  # tiles meeting edge to edge, or a corner grazing, do not count

    def corners(tile: tuple[float, float, float]) -> list[tuple[float, float]]:
        cx, cy, angle = tile
        rad = math.radians(angle)
        ux, uy = math.cos(rad) * _UNIT * shrink, math.sin(rad) * _UNIT * shrink
        return [(cx + sx * ux - sy * uy / 2, cy + sx * uy + sy * ux / 2) for sx in (-1, 1) for sy in (-1, 1)]

    first, second = corners(a), corners(b)
    for angle in (a[2], a[2] + 90, b[2], b[2] + 90):
        rad = math.radians(angle)
        nx, ny = math.cos(rad), math.sin(rad)
        one = [x * nx + y * ny for x, y in first]
        two = [x * nx + y * ny for x, y in second]
        if max(one) <= min(two) or max(two) <= min(one):
            return False
    return True


def _corners(p: _Placed) -> list[tuple[float, float]]:
    rad = math.radians(p.angle)
    ux, uy = math.cos(rad), math.sin(rad)
    return [
        (p.cx + sx * _UNIT * ux - sy * _UNIT / 2 * uy, p.cy + sx * _UNIT * uy + sy * _UNIT / 2 * ux)
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
    margin = _UNIT
    left = min(x for x, _ in points) - margin
    top = min(y for _, y in points) - margin - (_UNIT if title else 0)
    width = max(x for x, _ in points) + margin - left
    height = max(y for _, y in points) + margin - top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#2f6b3a"/>',
    ]
    if title:
        parts.append(
            f'<text x="{left + _UNIT / 2:.1f}" y="{top + _UNIT:.1f}" font-size="{_UNIT * 0.7:.1f}" '
            f'font-family="sans-serif" fill="#ffffff">{escape(title)}</text>'
        )
    for index, p in enumerate(placed):
        node = board.nodes[index]
        pending = board.pending == index
        stroke = f'stroke="{_PENDING_COLOR}" stroke-width="4"' if pending else 'stroke="#222222" stroke-width="1.2"'
        parts.append(f'<g transform="translate({p.cx:.1f} {p.cy:.1f}) rotate({p.angle:.1f})">')
        parts.append(f"<title>#{index} {node.tile}{' (pending)' if pending else ''}</title>")
        parts.append(
            f'<rect x="{-_UNIT:.1f}" y="{-_UNIT / 2:.1f}" width="{2 * _UNIT:.1f}" height="{_UNIT:.1f}" '
            f'rx="{_UNIT * 0.15:.1f}" fill="#fbf7ea" {stroke}/>'
        )
        parts.append(f'<line x1="0" y1="{-_UNIT * 0.4:.1f}" x2="0" y2="{_UNIT * 0.4:.1f}" stroke="#555555"/>')
        parts.append('<g fill="#111111">')
        parts += _half(p.near, -_UNIT / 2)
        parts += _half(p.far, _UNIT / 2)
        parts.append("</g></g>")
    parts.append("</svg>")
    return "\n".join(parts)
