"""The geometry of the pictures: where each tile and node number of a layout lies (:mod:`._geometry`).

:mod:`chickenfoot.svg` draws with it; the replay widget's script and style sheet
(``_replay.js``, ``_replay.css``) are here too, for :mod:`chickenfoot.notebook`.
"""

from __future__ import annotations

from ._geometry import (
    BADGE_FONT as BADGE_FONT,
    BADGE_HEIGHT as BADGE_HEIGHT,
    GAP as GAP,
    UNIT as UNIT,
    Label as Label,
    Placement as Placement,
    board_shown as board_shown,
    cos_degrees as cos_degrees,
    labels as labels,
    placements as placements,
    sin_degrees as sin_degrees,
)
