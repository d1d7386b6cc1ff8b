"""SVG pictures of a layout: tiles with pips, doubles crosswise, toes angled like a foot.

Pure string building, no dependencies. :func:`layout` places the tiles (the center in the
middle, its arms radiating, doubles across their line with three toes fanned out) so that no two
ever overlap, and :func:`render_svg` draws exactly those placements; a program drawing the board
its own way can use :func:`layout` alone. Each tile shows the value matched against its parent on
the half nearer the parent.
"""

from __future__ import annotations

import math
from html import escape

import attrs

from ._board import Board
from ._moves import NodeIndex
from ._state import GameState, RoundState
from ._views import PlayerView

__all__ = ["Placement", "layout", "render_svg"]

_UNIT = 24.0  # side of a half tile, in SVG user units
_LENGTH, _WIDTH = 2 * _UNIT, _UNIT
_GAP = 3.0  # between neighbouring tiles
_PENDING_COLOR = "#e8590c"

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


@attrs.frozen
class Placement:
    """Places one node's tile: its centre, the angle of its long axis, and its size, in SVG units.

    The tile's near half (the value matched against its parent) lies toward ``angle + 180``;
    a double lies across its line of play, so its angle is its line's heading plus 90 degrees.
    """

    node: NodeIndex
    """The node index, as in :attr:`chickenfoot.Board.nodes` and moves like ``9-5@3``."""
    x: float
    """The tile centre's x (right is positive)."""
    y: float
    """The tile centre's y (down is positive, as in SVG)."""
    angle: float
    """The long axis's direction, in degrees clockwise from the x axis (SVG's ``rotate``)."""
    length: float = _LENGTH
    """The long side."""
    width: float = _WIDTH
    """The short side."""
    gap: float = 0.0
    """How far this tile's line was moved out from its usual start to keep clear (0 for almost
    every tile; only the first tile of a moved line has one); :func:`render_svg` draws a dashed
    line across it."""


def layout(board: Board | GameState | RoundState | PlayerView) -> tuple[Placement, ...]:
    """Places every tile of a layout so that no two overlap; returns one placement per node, in node order.

    The center double stands in the middle and its arms radiate evenly; a line of play runs
    straight on; a double is laid across its line and its three toes fan out from its far side
    (FOOT-1), clear of the double.

    **How, and why nothing can overlap.** The layout is built from the leaves up, like a tidy
    tree drawing: each line of play (an arm or a toe, with all that hangs from it) is laid out
    on its own first, as a rigid group of tiles. A chicken foot then attaches its toes one at a
    time: the middle toe straight on, the side toes fanned 30 degrees out. A toe that would
    touch a tile already attached turns instead (a side toe splays up to 90 degrees, the middle
    one swings up to 20); if every turn touches, it is moved out along its heading, as little as
    any turn needs, leaving a gap. The center attaches its arms the same way, biggest first, each
    in its own direction or swung by up to three eighths of its share of the circle.

    "Clear" is tested exactly: every tile of the group being attached against every tile already
    attached (a separating-axis test on the rectangles, with a margin). So every two tiles are
    tested once, at the foot or center where their lines meet, except neighbours on one line,
    which are laid a gap apart. And the search always ends: the groups are finite, so moving one
    far enough in any direction clears the other. Gaps are rare (a crowded foot); the SVG draws
    a dashed line across each.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 4), onto=0)
    >>> [(p.node, round(p.x), round(p.y), round(p.angle) % 360) for p in layout(board)]
    [(0, 0, 0, 90), (1, 0, -51, 270)]
    """
    board = _board_of(board, "layout")
    nodes = board.nodes
    children: dict[int, list[int]] = {}
    for index, node in enumerate(nodes[1:], start=1):
        assert node.parent is not None
        children.setdefault(node.parent, []).append(index)

    gaps: dict[int, float] = {}  # by the first node of each line moved out

    def line(index: int) -> list[_Tile]:
        """Lays the line starting with node ``index``, and all beyond it, from (0, 0) heading along +x."""
        tiles: list[_Tile] = []
        t = 0.0  # distance from the start to the next tile's near edge
        while not nodes[index].tile.is_double:
            tiles.append((index, t + _WIDTH, 0.0, 0.0))
            t += _LENGTH + _GAP
            following = children.get(index)
            if not following:
                return tiles
            index = following[0]  # PLAY-2: a non-double takes one tile
        centre = t + _WIDTH / 2
        tiles.append((index, centre, 0.0, 90.0))  # FOOT-1: the double lies across its line
        group = _Group(tiles)
        for toe, child in enumerate(children.get(index, [])):
            side = (0, -1, 1)[toe % 3]  # straight on, then one to each side
            turns = _MIDDLE_TURNS if side == 0 else tuple(side * turn for turn in _SIDE_TURNS)
            gaps[child] = group.attach(line(child), [_toe_start(centre, turn, side) for turn in turns])
        return group.tiles

    center = _Group([(0, 0.0, 0.0, 90.0)])  # the center stands crosswise too
    arms = children.get(0, [])
    slots = max(len(arms) + (board.missing if board.pending == 0 else 0), 1)
    share = 360.0 / slots
    laid = {arm: line(child) for arm, child in enumerate(arms)}
    # The biggest arms first, so the small ones, which are easier to swing clear, give way.
    for arm in sorted(laid, key=lambda arm: -len(laid[arm])):
        starts = []
        for turn in _ARM_TURNS:  # evenly spaced; else swung a little within its share of the circle
            heading = -90.0 + share * (arm + turn)
            # Start just beyond the center tile (its long axis vertical), and clear of the neighbouring arms.
            radius = _WIDTH / 2 * abs(_cos(heading)) + _WIDTH * abs(_sin(heading)) + _GAP
            if slots > 2:
                radius = max(radius, (_WIDTH / 2 + _GAP) / math.tan(math.pi / slots))
            starts.append((radius * _cos(heading), radius * _sin(heading), heading))
        gaps[arms[arm]] = center.attach(laid[arm], starts)
    placed = sorted(center.tiles)
    return tuple(Placement(index, x, y, angle, gap=gaps.get(index, 0.0)) for index, x, y, angle in placed)


_Tile = tuple[int, float, float, float]  # node, centre x, centre y, angle
# The turns tried, in order, before a line is moved out: a side toe fans 30 degrees and may splay
# to 90; a middle toe and an arm may swing a little (an arm by a fraction of its share of the circle).
_SIDE_TURNS = (30.0, 45.0, 60.0, 75.0, 90.0)
_MIDDLE_TURNS = (0.0, -10.0, 10.0, -20.0, 20.0)
_ARM_TURNS = (0.0, -0.125, 0.125, -0.25, 0.25, -0.375, 0.375)
_MARGIN = 1.0  # tiles of different lines keep twice this apart (less than _GAP: neighbours may be _GAP apart)
_CELL = 2.5 * _UNIT  # grid cell for finding nearby tiles: more than two tiles' reach with margins


def _toe_start(centre: float, turn: float, side: int) -> tuple[float, float, float]:
    """Gets where a toe turning ``turn`` degrees starts, beyond the far edge of a double centred ``centre``
    along +x: the middle toe (``side`` 0) from the double's middle, a side toe beside it."""
    along = centre + _WIDTH / 2 + _GAP + _WIDTH / 2 * abs(_sin(turn))
    across = side * (_WIDTH / 2 + _GAP + _WIDTH / 2 * _cos(turn))
    return along, across, turn


class _Group:
    """A rigid group of tiles being built up, with a grid to find the tiles near a point."""

    def __init__(self, tiles: list[_Tile]) -> None:
        self.tiles: list[_Tile] = []
        self.grid: dict[tuple[int, int], list[_Tile]] = {}
        self._add(tiles)

    def _add(self, tiles: list[_Tile]) -> None:
        self.tiles += tiles
        for tile in tiles:
            self.grid.setdefault((math.floor(tile[1] / _CELL), math.floor(tile[2] / _CELL)), []).append(tile)

    def touches(self, tiles: list[_Tile]) -> bool:
        """Tells whether any of ``tiles`` comes within the margin of a tile of the group."""
        grid = self.grid
        for tile in tiles:
            column, row = math.floor(tile[1] / _CELL), math.floor(tile[2] / _CELL)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for other in grid.get((column + dx, row + dy), ()):
                        if _overlap(tile, other, _MARGIN):
                            return True
        return False

    def attach(self, tiles: list[_Tile], starts: list[tuple[float, float, float]]) -> float:
        """Adds a line laid out from (0, 0) along +x at the first start ``(x, y, heading)`` where it touches
        nothing; failing that, at the start that needs moving out least along its heading. Returns how far
        it was moved out."""
        step = 0.0
        while True:  # ends: both groups are finite, so far enough out nothing touches
            for x, y, heading in starts:
                moved = _moved(tiles, x + step * _cos(heading), y + step * _sin(heading), heading)
                if not self.touches(moved):
                    self._add(moved)
                    return step
            step += _WIDTH / 4


def _moved(tiles: list[_Tile], x: float, y: float, heading: float) -> list[_Tile]:
    """Turns ``tiles`` by ``heading`` degrees about (0, 0), then moves (0, 0) to ``(x, y)``."""
    c, s = _cos(heading), _sin(heading)
    return [(index, x + tx * c - ty * s, y + tx * s + ty * c, angle + heading) for index, tx, ty, angle in tiles]


def _overlap(a: _Tile, b: _Tile, margin: float) -> bool:
    """Tells whether two tiles, each grown by ``margin`` on every side, overlap (separating axes)."""
    half_length, half_width = _LENGTH / 2 + margin, _WIDTH / 2 + margin
    dx, dy = b[1] - a[1], b[2] - a[2]
    if dx * dx + dy * dy >= 4 * (half_length * half_length + half_width * half_width):
        return False  # farther apart than their circumscribed circles reach
    axes_a = (_cos(a[3]), _sin(a[3]))
    axes_b = (_cos(b[3]), _sin(b[3]))
    for ux, uy in (axes_a, (-axes_a[1], axes_a[0]), axes_b, (-axes_b[1], axes_b[0])):
        # Each rectangle's half-extent along (ux, uy), from its long and short axes.
        reach = 0.0
        for cx, cy in (axes_a, axes_b):
            reach += half_length * abs(cx * ux + cy * uy) + half_width * abs(-cy * ux + cx * uy)
        if abs(dx * ux + dy * uy) >= reach - 1e-9:
            return False
    return True


def _connectors(placed: tuple[Placement, ...]) -> list[str]:
    """Draws a dashed line across each gap :func:`layout` left where it moved a line out to keep it clear."""
    lines = []
    for p in placed:
        if not p.gap:
            continue
        # The first tile of a line is never a double (the one double carrying its parent's value is
        # the parent), so it lies along its heading: the middle of its near edge, then back by the gap.
        x, y = p.x - _cos(p.angle) * p.length / 2, p.y - _sin(p.angle) * p.length / 2
        px, py = x - _cos(p.angle) * p.gap, y - _sin(p.angle) * p.gap
        lines.append(
            f'<line x1="{px:.1f}" y1="{py:.1f}" x2="{x:.1f}" y2="{y:.1f}" stroke="#fbf7ea" '
            'stroke-width="2" stroke-dasharray="4 4" opacity="0.6"/>'
        )
    return lines


def _sin(degrees: float) -> float:
    return math.sin(math.radians(degrees))


def _cos(degrees: float) -> float:
    return math.cos(math.radians(degrees))


def _board_of(state: object, caller: str) -> Board:
    if isinstance(state, Board):
        return state
    if isinstance(state, GameState):
        return state.round.board
    if isinstance(state, (RoundState, PlayerView)):
        return state.board
    raise TypeError(f"{caller}() draws a Board, RoundState, GameState or PlayerView, got {type(state).__name__}")


def _corners(p: Placement) -> list[tuple[float, float]]:
    """Gets a placed tile's four corners."""
    ux, uy = _cos(p.angle), _sin(p.angle)
    return [
        (p.x + sx * p.length / 2 * ux - sy * p.width / 2 * uy, p.y + sx * p.length / 2 * uy + sy * p.width / 2 * ux)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def render_svg(state: GameState | RoundState | Board | PlayerView, *, title: str | None = None) -> str:
    """Draws the layout as an SVG document: tiles with pips, doubles crosswise, toes angled like a foot.

    The tiles lie where :func:`layout` places them. The pending node (the center still taking
    arms, or a chicken foot still taking toes) is outlined in orange; every tile carries a
    tooltip with its node index, as used in moves like ``9-5@3``. A :class:`~chickenfoot.PlayerView`
    draws only what its player may see: the layout, then its own hand and how many tiles each
    player holds and the yard.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 4), onto=0)
    >>> svg = render_svg(board, title="Round 1")
    >>> svg.startswith("<svg"), svg.count("<rect"), "#1 9-4" in svg
    (True, 3, True)
    """
    view = state if isinstance(state, PlayerView) else None
    board = view.board if view is not None else _board_of(state, "render_svg")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"render_svg() takes a str title or None, got {type(title).__name__}")
    placed = layout(board)
    points = [corner for p in placed for corner in _corners(p)]
    margin = _UNIT
    left = min(x for x, _ in points) - margin
    top = min(y for _, y in points) - margin - (_UNIT if title else 0)
    right = max(x for x, _ in points) + margin
    bottom = max(y for _, y in points) + margin
    tiles: list[str] = []
    for p in placed:
        node = board.nodes[p.node]
        pending = board.pending == p.node
        # The half matched against the parent is drawn nearer it; a double shows its value twice.
        far = node.exposed
        near = far if node.tile.is_double else node.tile.other(far)
        tiles += _tile(p, near, far, f"#{p.node} {node.tile}{' (pending)' if pending else ''}", pending)
    texts: list[tuple[float, str]] = []
    if view is not None:
        # The viewer's hand, standing in a row under the layout, then the counts anyone may know.
        texts.append((bottom + _UNIT * 0.7, f"P{view.player}'s hand"))
        row = bottom + _UNIT * 2.2
        for number, tile in enumerate(view.hand):
            stand = Placement(-1, left + margin + _UNIT / 2 + number * (_UNIT + _GAP * 2), row, 90.0)
            tiles += _tile(stand, tile.low, tile.high, f"hand: {tile}", False)
        right = max(right, left + margin + len(view.hand) * (_UNIT + _GAP * 2) + margin)
        counts = " ".join(f"P{seat}={size}" for seat, size in enumerate(view.hand_sizes))
        texts.append((row + _UNIT * 2, f"tiles held: {counts}; yard {view.yard_size}"))
        bottom = row + _UNIT * 2.6
    if title:
        texts.insert(0, (top + _UNIT, title))
    # Room for the text lines too (sans-serif averages well under 0.6 em a character).
    right = max([right, *(left + _UNIT / 2 + len(text) * _UNIT * 0.7 * 0.6 + _UNIT / 2 for _, text in texts)])
    width, height = right - left, bottom - top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" fill="#2f6b3a"/>',
    ]
    for y, text in texts:
        parts.append(
            f'<text x="{left + _UNIT / 2:.1f}" y="{y:.1f}" font-size="{_UNIT * 0.7:.1f}" '
            f'font-family="sans-serif" fill="#ffffff">{escape(text)}</text>'
        )
    parts += _connectors(placed)
    parts += tiles
    parts.append("</svg>")
    return "\n".join(parts)


def _tile(p: Placement, near: int, far: int, tooltip: str, pending: bool) -> list[str]:
    """Draws one tile where ``p`` puts it, ``near`` on the half toward ``p.angle + 180``."""
    stroke = f'stroke="{_PENDING_COLOR}" stroke-width="4"' if pending else 'stroke="#222222" stroke-width="1.2"'
    return [
        f'<g transform="translate({p.x:.1f} {p.y:.1f}) rotate({p.angle:.1f})">',
        f"<title>{escape(tooltip)}</title>",
        f'<rect x="{-p.length / 2:.1f}" y="{-p.width / 2:.1f}" width="{p.length:.1f}" height="{p.width:.1f}" '
        f'rx="{p.width * 0.15:.1f}" fill="#fbf7ea" {stroke}/>',
        f'<line x1="0" y1="{-p.width * 0.4:.1f}" x2="0" y2="{p.width * 0.4:.1f}" stroke="#555555"/>',
        '<g fill="#111111">',
        *_half(near, -p.length / 4),
        *_half(far, p.length / 4),
        "</g></g>",
    ]
