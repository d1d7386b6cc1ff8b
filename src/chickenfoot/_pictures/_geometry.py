"""Where each tile and each node's number lies in a picture of a layout (:func:`placements`, :func:`labels`).

:mod:`chickenfoot.svg` draws these placements and shows the two functions as its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from .._game import Board, GameState, Node, NodeIndex, PlayerView, RoundState, SpectatorView

UNIT = 24.0  # side of a half tile, in SVG user units
_LENGTH, _WIDTH = 2 * UNIT, UNIT
GAP = 3.0  # between neighbouring tiles


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


def placements(board: Board | GameState | RoundState | PlayerView | SpectatorView) -> tuple[Placement, ...]:
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
    >>> [(p.node, round(p.x), round(p.y), round(p.angle) % 360) for p in placements(board)]
    [(0, 0, 0, 90), (1, 0, -51, 270)]
    """
    board = board_shown(board, "placements")
    nodes = board.nodes
    children: dict[int, list[int]] = {}
    for index, node in enumerate(nodes[1:], start=1):
        assert node.parent is not None
        children.setdefault(node.parent, []).append(index)

    gaps: dict[int, float] = {}  # by the first node of each line moved out
    center = _Group([(0, 0.0, 0.0, 90.0)])  # the center stands crosswise too
    arms = children.get(0, [])
    slots = max(len(arms) + (board.missing if board.pending == 0 else 0), 1)
    laid = {arm: _line(child, nodes, children, gaps) for arm, child in enumerate(arms)}
    # The biggest arms first, so the small ones, which are easier to swing clear, give way.
    for arm in sorted(laid, key=lambda arm: -len(laid[arm])):
        gaps[arms[arm]] = center.attach(laid[arm], _arm_starts(arm, slots))
    placed = sorted(center.tiles)
    return tuple(Placement(index, x, y, angle, gap=gaps.get(index, 0.0)) for index, x, y, angle in placed)


_Tile = tuple[int, float, float, float]  # node, centre x, centre y, angle
# The turns tried, in order, before a line is moved out: a side toe fans 30 degrees and may splay
# to 90; a middle toe and an arm may swing a little (an arm by a fraction of its share of the circle).
_SIDE_TURNS = (30.0, 45.0, 60.0, 75.0, 90.0)
_MIDDLE_TURNS = (0.0, -10.0, 10.0, -20.0, 20.0)
_ARM_TURNS = (0.0, -0.125, 0.125, -0.25, 0.25, -0.375, 0.375)
_MARGIN = 1.0  # tiles of different lines keep twice this apart (less than GAP: neighbours may be GAP apart)
_CELL = 2.5 * UNIT  # grid cell for finding nearby tiles: more than two tiles' reach with margins


def _line(index: int, nodes: Sequence[Node], children: dict[int, list[int]], gaps: dict[int, float]) -> list[_Tile]:
    """Lays the line starting with node ``index``, and all beyond it, from (0, 0) heading along +x.

    Records in ``gaps`` how far each toe's line was moved out to keep it clear.
    """
    tiles: list[_Tile] = []
    t = 0.0  # distance from the start to the next tile's near edge
    while not nodes[index].tile.is_double:
        tiles.append((index, t + _WIDTH, 0.0, 0.0))
        t += _LENGTH + GAP
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
        gaps[child] = group.attach(
            _line(child, nodes, children, gaps), [_toe_start(centre, turn, side) for turn in turns]
        )
    return group.tiles


def _arm_starts(arm: int, slots: int) -> list[tuple[float, float, float]]:
    """Gets where arm number ``arm`` of ``slots`` may start: evenly spaced, else swung a little within its share."""
    share = 360.0 / slots
    starts = []
    for turn in _ARM_TURNS:
        heading = -90.0 + share * (arm + turn)
        # Start just beyond the center tile (its long axis vertical), and clear of the neighbouring arms.
        radius = _WIDTH / 2 * abs(cos_degrees(heading)) + _WIDTH * abs(sin_degrees(heading)) + GAP
        if slots > 2:
            radius = max(radius, (_WIDTH / 2 + GAP) / math.tan(math.pi / slots))
        starts.append((radius * cos_degrees(heading), radius * sin_degrees(heading), heading))
    return starts


def _toe_start(centre: float, turn: float, side: int) -> tuple[float, float, float]:
    """Gets where a toe turning ``turn`` degrees starts, beyond the far edge of a double centred ``centre``
    along +x: the middle toe (``side`` 0) from the double's middle, a side toe beside it."""
    along = centre + _WIDTH / 2 + GAP + _WIDTH / 2 * abs(sin_degrees(turn))
    across = side * (_WIDTH / 2 + GAP + _WIDTH / 2 * cos_degrees(turn))
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
                moved = _moved(tiles, x + step * cos_degrees(heading), y + step * sin_degrees(heading), heading)
                if not self.touches(moved):
                    self._add(moved)
                    return step
            step += _WIDTH / 4


def _moved(tiles: list[_Tile], x: float, y: float, heading: float) -> list[_Tile]:
    """Turns ``tiles`` by ``heading`` degrees about (0, 0), then moves (0, 0) to ``(x, y)``."""
    c, s = cos_degrees(heading), sin_degrees(heading)
    return [(index, x + tx * c - ty * s, y + tx * s + ty * c, angle + heading) for index, tx, ty, angle in tiles]


def _overlap(a: _Tile, b: _Tile, margin: float) -> bool:
    """Tells whether two tiles, each grown by ``margin`` on every side, overlap."""
    half_length, half_width = _LENGTH / 2 + margin, _WIDTH / 2 + margin
    dx, dy = b[1] - a[1], b[2] - a[2]
    if dx * dx + dy * dy >= 4 * (half_length * half_length + half_width * half_width):
        return False  # farther apart than their circumscribed circles reach
    return _rectangles_overlap(dx, dy, (a[3], half_length, half_width), (b[3], half_length, half_width))


_Shape = tuple[float, float, float]  # a rectangle's angle (degrees), half length, half width


def _rectangles_overlap(dx: float, dy: float, first: _Shape, second: _Shape) -> bool:
    """Tells whether two rectangles overlap, the second's centre ``(dx, dy)`` from the first's (separating axes)."""
    axes = [
        (cos_degrees(angle), sin_degrees(angle), half_length, half_width)
        for angle, half_length, half_width in (first, second)
    ]
    for ux, uy, _, _ in axes:
        for nx, ny in ((ux, uy), (-uy, ux)):
            # Each rectangle's half-extent along (nx, ny), from its long and short axes.
            reach = 0.0
            for cx, cy, half_length, half_width in axes:
                reach += half_length * abs(cx * nx + cy * ny) + half_width * abs(-cy * nx + cx * ny)
            if abs(dx * nx + dy * ny) >= reach - 1e-9:
                return False
    return True


def sin_degrees(degrees: float) -> float:
    return math.sin(math.radians(degrees))


def cos_degrees(degrees: float) -> float:
    return math.cos(math.radians(degrees))


# -- node numbers ---------------------------------------------------------------------------

BADGE_HEIGHT = 0.6 * UNIT
BADGE_FONT = 0.42 * UNIT
_BADGE_DIGIT = 0.66 * BADGE_FONT  # a bold sans-serif digit's advance, generously
_BADGE_GAP = 1.5  # between a badge and its own tile
_BADGE_CLEAR = 1.0  # between a badge and anything else


@attrs.frozen
class Label:
    """Places one node's number: an upright badge (a rounded box) beside its tile, in SVG units.

    The box never overlaps another tile or another node's badge; it sits on its own tile only
    when no spot beside it is free (:attr:`beside` is then ``False``).
    """

    node: NodeIndex
    """The node whose number this is."""
    x: float
    """The badge centre's x."""
    y: float
    """The badge centre's y."""
    width: float
    """The badge's width (it grows with the number's digits)."""
    height: float
    """The badge's height."""
    beside: bool = True
    """Whether the badge stands beside its tile (else on it, where there was no room)."""


def labels(placements: Sequence[Placement]) -> tuple[Label, ...]:
    """Places each node's number beside its tile, clear of every other tile and number; one label per placement.

    Each badge tries spots around its own tile, nearest first: beside its middle, beside either
    half, beyond either end, off a corner, then the same a little farther out (the center looks
    between its arms instead). The first spot that touches no
    other tile and no badge already placed is taken (tested exactly, as :func:`placements` tests
    tiles). A tile hemmed in on every side carries its number on its face instead.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 4), onto=0)
    >>> [(label.node, label.beside) for label in labels(placements(board))]
    [(0, True), (1, True)]
    """
    tiles: dict[_Cell, list[Placement]] = {}
    for p in placements:
        tiles.setdefault(_cell(p.x, p.y), []).append(p)
    boxes: dict[_Cell, list[Label]] = {}
    placed: list[Label] = []
    for p in placements:
        width = max(BADGE_HEIGHT, len(str(p.node)) * _BADGE_DIGIT + BADGE_HEIGHT * 0.45)
        for x, y in _spots(p, width / 2, BADGE_HEIGHT / 2):
            label = Label(p.node, x, y, width, BADGE_HEIGHT)
            if _free(label, tiles, boxes):
                break
        else:  # on its face, shrunk to fit inside the tile, so it cannot touch anything else either
            ux, uy = abs(cos_degrees(p.angle)), abs(sin_degrees(p.angle))
            half_width, half_height = width / 2, BADGE_HEIGHT / 2
            scale = min(
                1.0,
                p.length / 2 / (half_width * ux + half_height * uy),
                p.width / 2 / (half_width * uy + half_height * ux),
            )
            label = Label(p.node, p.x, p.y, width * scale, BADGE_HEIGHT * scale, beside=False)
        boxes.setdefault(_cell(label.x, label.y), []).append(label)
        placed.append(label)
    return tuple(placed)


_Cell = tuple[int, int]


def _cell(x: float, y: float) -> _Cell:
    return math.floor(x / _CELL), math.floor(y / _CELL)


def _spots(p: Placement, half_width: float, half_height: float) -> list[tuple[float, float]]:
    """Gets the badge centres to try around tile ``p``, nearest first."""
    ux, uy = cos_degrees(p.angle), sin_degrees(p.angle)
    vx, vy = -uy, ux
    # The badge's half-extent across the tile (along v) and along it (along u).
    across = half_width * abs(vx) + half_height * abs(vy)
    along = half_width * abs(ux) + half_height * abs(uy)
    spots = []
    for farther in (0.0, UNIT / 3, UNIT * 2 / 3):
        side = p.width / 2 + _BADGE_GAP + across + farther
        end = p.length / 2 + _BADGE_GAP + along + farther
        spots += [(0, side), (0, -side), (p.length / 4, side), (-p.length / 4, side)]
        spots += [(p.length / 4, -side), (-p.length / 4, -side), (end, 0), (-end, 0)]
        spots += [(end, side), (end, -side), (-end, side), (-end, -side)]  # off a corner
    if p.node == 0:  # the center's arms leave room between them: look there before moving out
        ring = [(radius, turn) for radius in range(30, 54, 4) for turn in range(0, 360, 15)]
        spots[12:] = [(radius * cos_degrees(turn), radius * sin_degrees(turn)) for radius, turn in ring]
    return [(p.x + a * ux + b * vx, p.y + a * uy + b * vy) for a, b in spots]


def _free(label: Label, tiles: dict[_Cell, list[Placement]], boxes: dict[_Cell, list[Label]]) -> bool:
    """Tells whether a badge keeps clear of every tile and every badge placed near it."""
    column, row = _cell(label.x, label.y)
    box = (0.0, label.width / 2 + _BADGE_CLEAR, label.height / 2 + _BADGE_CLEAR)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for p in tiles.get((column + dx, row + dy), ()):
                x, y = p.x - label.x, p.y - label.y
                reach = (p.length + p.width + label.width + label.height) / 2 + _BADGE_CLEAR  # more than both radii
                if x * x + y * y < reach * reach and _rectangles_overlap(
                    x, y, box, (p.angle, p.length / 2, p.width / 2)
                ):
                    return False
            for other in boxes.get((column + dx, row + dy), ()):
                if (
                    abs(other.x - label.x) < (other.width + label.width) / 2 + _BADGE_CLEAR
                    and abs(other.y - label.y) < (other.height + label.height) / 2 + _BADGE_CLEAR
                ):
                    return False
    return True


# -- drawing --------------------------------------------------------------------------------

# One stylesheet for every picture. Classes carry what a tile is (cf-center, cf-pending, cf-last,
# cf-playable), so a page showing the SVG inline can restyle it, or move the marks itself, as the
# replay widget does (chickenfoot.notebook). Every class starts cf-, so pictures sharing a page
# cannot disturb anything else on it.


def board_shown(state: object, caller: str) -> Board:
    if isinstance(state, Board):
        return state
    if isinstance(state, GameState):
        return state.round.board
    if isinstance(state, (RoundState, PlayerView, SpectatorView)):
        return state.board
    raise TypeError(
        f"{caller}() draws a Board, RoundState, GameState, PlayerView or SpectatorView, got {type(state).__name__}"
    )
