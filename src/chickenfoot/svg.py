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
    """The node index, as in :attr:`Board.nodes` and moves like ``9-5@3``."""
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


def layout(board: Board | GameState | RoundState) -> tuple[Placement, ...]:
    """Places every tile of a layout so that no two overlap; returns one placement per node, in node order.

    The center double stands in the middle and its arms radiate evenly; a line of play runs
    straight on; a double is laid across its line and its three toes fan out from its far side
    (FOOT-1), clear of the double.

    **Why nothing can overlap.** Every line of play (an arm or a toe, with all that hangs from
    it) owns a *region*: the segment one tile wide where the line starts, swept over a fan of
    directions around the line's heading (a cone cut off square at its start). The line's own
    tiles run straight along its heading, inside the region. Then:

    * the arms' regions are wedges of the full circle, split by rays from the center, and start
      beyond the center tile;
    * at a chicken foot, the toes' regions split the line's fan (at most 60 degrees to each side)
      into three, start beyond the double's far edge, and are kept apart by a line along each
      split (the side toes start far enough out to the side for that); each lies inside the
      region of the line the foot ends, which holds the double too;
    * a foot whose double or toes do not fit inside its line's region yet is moved further out
      along the line, leaving a gap (a region only widens with distance).

    So two lines' regions are either disjoint or nested, a line's own tiles lie outside the
    regions of the toes below it, and two tiles can only meet as neighbours on one line, which
    are laid a gap apart. Wedges and fans are shared out by how many chicken feet lie beyond
    (an arm keeps at least a third of its even share), so crowded lines get room and gaps stay
    rare.

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
    # Chicken feet at or beyond each node, counted leaves first (a child's index exceeds its parent's).
    feet = [int(node.tile.is_double) for node in nodes]
    feet[0] = 0
    for index in range(len(nodes) - 1, 0, -1):
        parent = nodes[index].parent
        assert parent is not None
        if parent:
            feet[parent] += feet[index]
    placed: list[Placement | None] = [None] * len(nodes)
    placed[0] = Placement(0, 0.0, 0.0, 90.0)  # the center stands crosswise too

    def lay_line(index: int, sx: float, sy: float, heading: float, right: float, left: float) -> None:
        """Lays the line starting with node ``index`` from the segment centred at ``(sx, sy)``.

        Its region fans out ``right`` degrees to one side of ``heading`` and ``left`` to the
        other (each from 0 to 90).
        """
        ux, uy = _cos(heading), _sin(heading)
        t = 0.0  # distance from the start to the next tile's near edge
        while not nodes[index].tile.is_double:
            placed[index] = Placement(index, sx + ux * (t + _WIDTH), sy + uy * (t + _WIDTH), heading)
            t += _LENGTH + _GAP
            following = children.get(index)
            if not following:
                return
            index = following[0]  # PLAY-2: a non-double takes one tile
        toes = _toes(right, left, [feet[child] for child in children.get(index, [])])
        # The double's near corners and the side toes' outer corners must lie inside the region:
        # (along the line from the double's centre, across it, the side's half-angle).
        corners = [(-_WIDTH / 2, _WIDTH, right), (-_WIDTH / 2, _WIDTH, left)]
        for (along, across, turn, _, _), fan in zip(toes[1:], (right, left)):
            corners.append((along - _WIDTH / 2 * _sin(abs(turn)), abs(across) + _WIDTH / 2 * _cos(turn), fan))
        centre = t + _WIDTH / 2
        for along, across, fan in corners:
            if fan < 89.0:
                centre = max(centre, (across - _WIDTH / 2) / math.tan(math.radians(fan)) - along)
        cx, cy = sx + ux * centre, sy + uy * centre
        placed[index] = Placement(index, cx, cy, heading + 90.0)  # FOOT-1: across the line
        for (along, across, turn, toe_right, toe_left), child in zip(toes, children.get(index, [])):
            x, y = cx + ux * along - uy * across, cy + uy * along + ux * across
            lay_line(child, x, y, heading + turn, toe_right, toe_left)

    arms = children.get(0, [])
    slots = max(len(arms) + (board.missing if board.pending == 0 else 0), 1)
    share = 360.0 / slots
    # The split between neighbouring arms, degrees past the first: by their feet, within the middle third.
    splits = []
    for arm, child in enumerate(arms):
        after = arms[arm + 1] if arm + 1 < len(arms) and slots > 1 else None
        if after is None:
            splits.append(share / 2)
        else:
            weight = (feet[child] + 0.5) / (feet[child] + feet[after] + 1.0)
            splits.append(share * min(max(weight, 1 / 3), 2 / 3))
    for arm, child in enumerate(arms):
        heading = -90.0 + share * arm
        left = min(splits[arm], 90.0)
        right = min(share - splits[arm - 1] if arm else share / 2, 90.0)
        if slots == 1:
            right = left = 90.0
        # Start beyond the center tile (long axis vertical) and clear of the rays splitting the wedges.
        radius = _WIDTH / 2 * abs(_cos(heading)) + _WIDTH * abs(_sin(heading)) + _GAP
        for fan in (right, left):
            radius = max(radius, (_GAP / 2 + _WIDTH / 2 * _cos(fan)) / _sin(fan))
        lay_line(child, _cos(heading) * radius, _sin(heading) * radius, heading, right, left)
    return tuple(p for p in placed if p is not None)


def _toes(right: float, left: float, feet: list[int]) -> list[tuple[float, float, float, float, float]]:
    """Plans a foot's toes: middle, right, left, each ``(along, across, turn, fan right, fan left)``.

    ``along`` and ``across`` place the toe's start from the double's centre (across positive to
    the left); the toe heads ``turn`` degrees off the line and its region fans out as given. The
    line's fan (up to 60 degrees a side) is shared by the chicken feet beyond each toe; the side
    toes head down the middle of theirs, and start beyond the double's far edge and a gap off
    the line splitting the middle toe's fan from theirs.
    """
    right, left = min(right, 60.0), min(left, 60.0)
    weights = [0.25 + (feet[i] if i < len(feet) else 0) for i in range(3)]  # middle, right, left
    # Each side of the line is shared by half the middle toe and that side's toe, so every fan is open.
    inner_right = right * weights[0] / (weights[0] + 2 * weights[1])
    inner_left = left * weights[0] / (weights[0] + 2 * weights[2])
    near = _WIDTH / 2 + _GAP
    plans = [(near, 0.0, 0.0, inner_right, inner_left)]
    for split, outer, sign in ((inner_right, right, -1.0), (inner_left, left, 1.0)):
        turn = (split + outer) / 2
        along = near + _WIDTH / 2 * _sin(turn)
        across = (
            _WIDTH / 2 * (_cos(split) + _cos(turn - split) + _sin(turn) * _sin(split)) + _GAP
        ) / _cos(split)
        fan_out, fan_in = outer - turn, turn - split
        plans.append((along, sign * across, sign * turn, fan_out if sign < 0 else fan_in, fan_in if sign < 0 else fan_out))
    return plans


def _connectors(board: Board, placed: tuple[Placement, ...]) -> list[str]:
    """Draws a dashed line across each gap :func:`layout` left before a chicken foot it moved out."""
    lines = []
    for p in placed:
        node = board.nodes[p.node]
        if p.node == 0 or not node.tile.is_double:
            continue
        parent = placed[node.parent or 0]
        x1 = parent.x + _cos(parent.angle) * parent.length / 2
        y1 = parent.y + _sin(parent.angle) * parent.length / 2
        x2 = p.x - _cos(p.angle - 90) * p.width / 2
        y2 = p.y - _sin(p.angle - 90) * p.width / 2
        if math.hypot(x2 - x1, y2 - y1) > 2 * _GAP:
            lines.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#fbf7ea" '
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
    if isinstance(state, RoundState):
        return state.board
    raise TypeError(f"{caller}() draws a Board, RoundState or GameState, got {type(state).__name__}")


def _corners(p: Placement) -> list[tuple[float, float]]:
    """Gets a placed tile's four corners."""
    ux, uy = _cos(p.angle), _sin(p.angle)
    return [
        (p.x + sx * p.length / 2 * ux - sy * p.width / 2 * uy, p.y + sx * p.length / 2 * uy + sy * p.width / 2 * ux)
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
    board = _board_of(state, "render_svg")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"render_svg() takes a str title or None, got {type(title).__name__}")
    placed = layout(board)
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
    parts += _connectors(board, placed)
    for p in placed:
        node = board.nodes[p.node]
        pending = board.pending == p.node
        # The half matched against the parent is drawn nearer it; a double shows its value twice.
        far = node.exposed
        near = far if node.tile.is_double else node.tile.other(far)
        stroke = f'stroke="{_PENDING_COLOR}" stroke-width="4"' if pending else 'stroke="#222222" stroke-width="1.2"'
        parts.append(f'<g transform="translate({p.x:.1f} {p.y:.1f}) rotate({p.angle:.1f})">')
        parts.append(f"<title>#{p.node} {node.tile}{' (pending)' if pending else ''}</title>")
        parts.append(
            f'<rect x="{-p.length / 2:.1f}" y="{-p.width / 2:.1f}" width="{p.length:.1f}" height="{p.width:.1f}" '
            f'rx="{p.width * 0.15:.1f}" fill="#fbf7ea" {stroke}/>'
        )
        parts.append(f'<line x1="0" y1="{-p.width * 0.4:.1f}" x2="0" y2="{p.width * 0.4:.1f}" stroke="#555555"/>')
        parts.append('<g fill="#111111">')
        parts += _half(near, -p.length / 4)
        parts += _half(far, p.length / 4)
        parts.append("</g></g>")
    parts.append("</svg>")
    return "\n".join(parts)
