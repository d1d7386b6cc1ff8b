"""SVG pictures of a layout: tiles with pips, doubles crosswise, toes angled like a foot.

Pure string building, no dependencies. :func:`layout` places the tiles (the center in the
middle, its arms radiating, doubles across their line with three toes fanned out) so that no two
ever overlap, :func:`labels` places each node's number beside its tile, clear of the rest, and
:func:`render_svg` draws exactly those placements; a program drawing the board its own way can
use :func:`layout` and :func:`labels` alone. Each tile shows the value matched against its parent
on the half nearer the parent.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from html import escape

import attrs

from ._board import Board
from ._moves import NodeIndex, Play
from ._state import GameState, RoundState
from ._views import PlayerView, SpectatorView

__all__ = ["Label", "Placement", "labels", "layout", "render_svg"]

_UNIT = 24.0  # side of a half tile, in SVG user units
_LENGTH, _WIDTH = 2 * _UNIT, _UNIT
_GAP = 3.0  # between neighbouring tiles

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


def layout(board: Board | GameState | RoundState | PlayerView | SpectatorView) -> tuple[Placement, ...]:
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
    """Tells whether two tiles, each grown by ``margin`` on every side, overlap."""
    half_length, half_width = _LENGTH / 2 + margin, _WIDTH / 2 + margin
    dx, dy = b[1] - a[1], b[2] - a[2]
    if dx * dx + dy * dy >= 4 * (half_length * half_length + half_width * half_width):
        return False  # farther apart than their circumscribed circles reach
    return _rectangles_overlap(dx, dy, (a[3], half_length, half_width), (b[3], half_length, half_width))


_Shape = tuple[float, float, float]  # a rectangle's angle (degrees), half length, half width


def _rectangles_overlap(dx: float, dy: float, first: _Shape, second: _Shape) -> bool:
    """Tells whether two rectangles overlap, the second's centre ``(dx, dy)`` from the first's (separating axes)."""
    axes = [(_cos(angle), _sin(angle), half_length, half_width) for angle, half_length, half_width in (first, second)]
    for ux, uy, _, _ in axes:
        for nx, ny in ((ux, uy), (-uy, ux)):
            # Each rectangle's half-extent along (nx, ny), from its long and short axes.
            reach = 0.0
            for cx, cy, half_length, half_width in axes:
                reach += half_length * abs(cx * nx + cy * ny) + half_width * abs(-cy * nx + cx * ny)
            if abs(dx * nx + dy * ny) >= reach - 1e-9:
                return False
    return True


def _sin(degrees: float) -> float:
    return math.sin(math.radians(degrees))


def _cos(degrees: float) -> float:
    return math.cos(math.radians(degrees))


# -- node numbers ---------------------------------------------------------------------------

_BADGE_HEIGHT = 0.6 * _UNIT
_BADGE_FONT = 0.42 * _UNIT
_BADGE_DIGIT = 0.66 * _BADGE_FONT  # a bold sans-serif digit's advance, generously
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
    other tile and no badge already placed is taken (tested exactly, as :func:`layout` tests
    tiles). A tile hemmed in on every side carries its number on its face instead.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 4), onto=0)
    >>> [(label.node, label.beside) for label in labels(layout(board))]
    [(0, True), (1, True)]
    """
    tiles: dict[_Cell, list[Placement]] = {}
    for p in placements:
        tiles.setdefault(_cell(p.x, p.y), []).append(p)
    boxes: dict[_Cell, list[Label]] = {}
    placed: list[Label] = []
    for p in placements:
        width = max(_BADGE_HEIGHT, len(str(p.node)) * _BADGE_DIGIT + _BADGE_HEIGHT * 0.45)
        for x, y in _spots(p, width / 2, _BADGE_HEIGHT / 2):
            label = Label(p.node, x, y, width, _BADGE_HEIGHT)
            if _free(label, tiles, boxes):
                break
        else:  # on its face, shrunk to fit inside the tile, so it cannot touch anything else either
            ux, uy = abs(_cos(p.angle)), abs(_sin(p.angle))
            half_width, half_height = width / 2, _BADGE_HEIGHT / 2
            scale = min(
                1.0,
                p.length / 2 / (half_width * ux + half_height * uy),
                p.width / 2 / (half_width * uy + half_height * ux),
            )
            label = Label(p.node, p.x, p.y, width * scale, _BADGE_HEIGHT * scale, beside=False)
        boxes.setdefault(_cell(label.x, label.y), []).append(label)
        placed.append(label)
    return tuple(placed)


_Cell = tuple[int, int]


def _cell(x: float, y: float) -> _Cell:
    return math.floor(x / _CELL), math.floor(y / _CELL)


def _spots(p: Placement, half_width: float, half_height: float) -> list[tuple[float, float]]:
    """Gets the badge centres to try around tile ``p``, nearest first."""
    ux, uy = _cos(p.angle), _sin(p.angle)
    vx, vy = -uy, ux
    # The badge's half-extent across the tile (along v) and along it (along u).
    across = half_width * abs(vx) + half_height * abs(vy)
    along = half_width * abs(ux) + half_height * abs(uy)
    spots = []
    for farther in (0.0, _UNIT / 3, _UNIT * 2 / 3):
        side = p.width / 2 + _BADGE_GAP + across + farther
        end = p.length / 2 + _BADGE_GAP + along + farther
        spots += [(0, side), (0, -side), (p.length / 4, side), (-p.length / 4, side)]
        spots += [(p.length / 4, -side), (-p.length / 4, -side), (end, 0), (-end, 0)]
        spots += [(end, side), (end, -side), (-end, side), (-end, -side)]  # off a corner
    if p.node == 0:  # the center's arms leave room between them: look there before moving out
        ring = [(radius, turn) for radius in range(30, 54, 4) for turn in range(0, 360, 15)]
        spots[12:] = [(radius * _cos(turn), radius * _sin(turn)) for radius, turn in ring]
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


def _board_of(state: object, caller: str) -> Board:
    if isinstance(state, Board):
        return state
    if isinstance(state, GameState):
        return state.round.board
    if isinstance(state, (RoundState, PlayerView, SpectatorView)):
        return state.board
    raise TypeError(
        f"{caller}() draws a Board, RoundState, GameState, PlayerView or SpectatorView, got {type(state).__name__}"
    )


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
    ux, uy = _cos(p.angle), _sin(p.angle)
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

    The tiles lie where :func:`layout` places them. The center has a gold face; the pending
    node (the center still taking arms, or a chicken foot still taking toes) is outlined in
    orange; the tile the round's last move placed has a blue face. Pips up to 9 are drawn as
    pips, larger values as numerals, upright at any angle. With ``numbers`` (the default for a
    :class:`~chickenfoot.PlayerView`), each node's number, as moves like ``9-5@3`` name it,
    stands beside its tile where :func:`labels` puts it; every tile also carries its number as a
    tooltip. A view draws only what its player may see: the layout, the nodes it can play onto
    now outlined in yellow, its own hand (the tiles it can play outlined too), and how many
    tiles each player holds and the yard (``hand=False`` leaves those out, for a page that shows
    the hand its own way). A :class:`~chickenfoot.SpectatorView` is drawn the same way, numbered,
    with no hand and nothing outlined as playable: only the counts. ``caption`` is text (a
    comment) written under the layout, wrapped to the picture's width.

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
    watched = state if isinstance(state, SpectatorView) else None
    board = _board_of(state, "render_svg")
    for name, text in (("title", title), ("caption", caption)):
        if text is not None and not isinstance(text, str):
            raise TypeError(f"render_svg() takes a str {name} or None, got {type(text).__name__}")
    if numbers is None:
        numbers = view is not None or watched is not None
    elif not isinstance(numbers, bool):
        raise TypeError(f"render_svg() takes numbers=True, False or None, got {type(numbers).__name__}")
    placed = layout(board)
    badges = labels(placed) if numbers else ()
    playable = {move.onto for move in view.legal_moves if type(move) is Play} if view is not None else set()
    marks: dict[int, list[str]] = {0: ["cf-center"]}
    last = _last_play(state)
    if last is not None:
        marks.setdefault(last, []).append("cf-last")
    if board.pending is not None:
        marks.setdefault(board.pending, []).append("cf-pending")
    for index in playable:
        marks.setdefault(index, []).append("cf-playable")

    points = [corner for p in placed for corner in _corners(p)]
    points += [(b.x + sx * b.width / 2, b.y + sy * b.height / 2) for b in badges for sx in (-1, 1) for sy in (-1, 1)]
    margin = _UNIT
    left = min(x for x, _ in points) - margin
    top = min(y for _, y in points) - margin - (_UNIT if title else 0)
    right = max(x for x, _ in points) + margin
    bottom = max(y for _, y in points) + margin
    tiles: list[str] = []
    for p in placed:
        node = board.nodes[p.node]
        # The half matched against the parent is drawn nearer it; a double shows its value twice.
        far = node.exposed
        near = far if node.tile.is_double else node.tile.other(far)
        tooltip = f"#{p.node} {node.tile}{' (pending)' if board.pending == p.node else ''}"
        tiles += _tile(p, near, far, tooltip, ["cf-tile", *marks.get(p.node, ())], f'data-node="{p.node}"')
    tiles += [_badge(badge, marks.get(badge.node, ())) for badge in badges]
    texts: list[tuple[float, str, float]] = []  # baseline, text, font size
    if title:
        texts.append((top + _UNIT, title, _TEXT_FONT))
    if caption:
        room = max(40, int((right - left - _UNIT) / (_CAPTION_FONT * 0.55)))
        for line in textwrap.wrap(caption, room):
            texts.append((bottom, line, _CAPTION_FONT))
            bottom += _CAPTION_FONT * 1.3
        bottom += _UNIT / 2
    if view is not None and hand:
        # The viewer's hand, standing in a row under the layout, then the counts anyone may know.
        texts.append((bottom + _UNIT * 0.7, f"P{view.player}'s hand", _TEXT_FONT))
        row = bottom + _UNIT * 2.2
        plays = {move.tile for move in view.legal_moves if type(move) is Play}
        for number, tile in enumerate(view.hand):
            stand = Placement(-1, left + margin + _UNIT / 2 + number * (_UNIT + _GAP * 2), row, 90.0)
            classes = ["cf-tile", "cf-hand"] + ["cf-playable"] * (tile in plays) + ["cf-drawn"] * (tile == view.drawn)
            tiles += _tile(stand, tile.high, tile.low, f"hand: {tile}", classes, f'data-tile="{tile}"')
        right = max(right, left + margin + len(view.hand) * (_UNIT + _GAP * 2) + margin)
        counts = " ".join(f"P{seat}={size}" for seat, size in enumerate(view.hand_sizes))
        texts.append((row + _UNIT * 2, f"tiles held: {counts}; yard {view.yard_size}", _TEXT_FONT))
        bottom = row + _UNIT * 2.6
    elif watched is not None and hand:
        counts = " ".join(f"P{seat}={size}" for seat, size in enumerate(watched.hand_sizes))
        texts.append((bottom + _UNIT * 0.7, f"tiles held: {counts}; yard {watched.yard_size}", _TEXT_FONT))
        bottom += _UNIT * 1.3
    # Room for the text lines too (sans-serif averages well under 0.6 em a character).
    right = max([right, *(left + _UNIT / 2 + len(text) * font * 0.6 + _UNIT / 2 for _, text, font in texts)])
    width, height = right - left, bottom - top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}">',
        _STYLE,
        f'<rect class="cf-felt" x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}"/>',
    ]
    for y, text, font in texts:
        parts.append(
            f'<text class="cf-text" x="{left + _UNIT / 2:.1f}" y="{y:.1f}" font-size="{font:.1f}">{escape(text)}</text>'
        )
    parts += _connectors(placed)
    parts += tiles
    parts.append("</svg>")
    return "\n".join(parts)


_TEXT_FONT = _UNIT * 0.7  # a title and the lines under a view's hand
_CAPTION_FONT = _UNIT * 0.55  # a caption (a comment)


def _connectors(placed: Sequence[Placement]) -> list[str]:
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
            f'<line class="cf-gap" data-node="{p.node}" x1="{px:.1f}" y1="{py:.1f}" x2="{x:.1f}" y2="{y:.1f}"/>'
        )
    return lines


def _half(value: int, x: float, angle: float) -> list[str]:
    """Draws one half tile's value centred at ``(x, 0)`` in the frame of a tile turned ``angle`` degrees."""
    if value in _PIPS:
        step = _UNIT * 0.27
        radius = _UNIT * 0.09
        return [f'<circle cx="{x + c * step:.1f}" cy="{r * step:.1f}" r="{radius:.1f}"/>' for c, r in _PIPS[value]]
    size = _UNIT * 0.55
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
    font = _BADGE_FONT * label.height / _BADGE_HEIGHT  # a badge shrunk onto its tile shrinks its number too
    return (
        f'<g class="{classes}" data-node="{label.node}"><rect x="{x:.1f}" y="{y:.1f}" width="{label.width:.1f}" '
        f'height="{label.height:.1f}" rx="{label.height / 2:.1f}"/><text x="{label.x:.1f}" '
        f'y="{label.y + font * 0.36:.1f}" font-size="{font:.1f}" text-anchor="middle">{label.node}</text></g>'
    )
