"""The compiled core: the rules of play as plain typed ints, compiled to C by mypyc where it can be.

Tiles and moves are ints (:mod:`._codes`); a round from its deal to its score, with its board,
its moves and the game it is played in, the one place the rules of play are computed, is
:mod:`._round`; the samplers behind ``determinize`` (:mod:`._sampling`, :mod:`._matching`)
and the bots' searches (:mod:`._search`, :mod:`._greedy`) and the exact solver (:mod:`._solve`)
read the same ints. These modules
import only the standard library and each other, and everything else reads them through this
package (docs/architecture.md).

``pip install .`` compiles :data:`MODULES` (setup.py lists the same, a test checks); an
editable install runs them as Python. ``CHICKENFOOT_PURE=1`` in the environment, read once at
the first import, loads the ``.py`` files of a compiled install instead, to compare the two or
to rule the compiled ones out while debugging. :data:`COMPILED` tells which core runs.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

MODULES = ("_codes", "_round", "_matching", "_sampling", "_search", "_greedy", "_solve")
"""The modules ``pip install .`` compiles, in import order (each reads only those before it)."""


def _load_pure(name: str) -> None:
    """Loads the ``.py`` file of module ``name`` of this package, before the extension is found."""
    spec = importlib.util.spec_from_file_location(f"{__name__}.{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    globals()[name] = module  # bound on the package, as an import would


if os.environ.get("CHICKENFOOT_PURE", "") not in ("", "0"):
    for _name in MODULES:
        _load_pure(_name)

# isort: split
from . import _round  # noqa: E402 - after the choice above
from ._codes import (  # noqa: E402
    DRAW as DRAW,
    FOOT_TOES as FOOT_TOES,
    HIGH as HIGH,
    LOW as LOW,
    MAX_ARMS as MAX_ARMS,
    MAX_PIP as MAX_PIP,
    MAX_PLAYERS as MAX_PLAYERS,
    NONE as NONE,
    PASS as PASS,
    Inconsistent as Inconsistent,
    PublicMoves as PublicMoves,
    code_onto as code_onto,
    code_tile as code_tile,
    is_play as is_play,
    play as play,
    tile_index as tile_index,
)
from ._greedy import (  # noqa: E402
    best_play as best_play,
    count_values as count_values,
    greedy_playout as greedy_playout,
    off_board_counts as off_board_counts,
    rating as rating,
)
from ._round import (  # noqa: E402
    Deal as Deal,
    Game as Game,
    Layout as Layout,
    Log as Log,
    Placed as Placed,
    Round as Round,
    Settings as Settings,
    find_center as find_center,
    nothing_to_do as nothing_to_do,
    replaced as replaced,
    round_on as round_on,
    round_rng as round_rng,
    setup_seat as setup_seat,
    shuffle as shuffle,
    start_layout as start_layout,
    starter_seat as starter_seat,
    winners as winners,
)
from ._sampling import (  # noqa: E402
    History as History,
    Slots as Slots,
    exact_sample as exact_sample,
    place_played as place_played,
    read_history as read_history,
    replay as replay,
    start_of as start_of,
    unseen_tiles as unseen_tiles,
    weighted_sample as weighted_sample,
)
from ._search import Node as Node, Searcher as Searcher  # noqa: E402
from ._solve import (  # noqa: E402
    EXACT as EXACT,
    MARGIN as MARGIN,
    NO_LIMIT as NO_LIMIT,
    SCORE as SCORE,
    UPPER as UPPER,
    Solved as Solved,
    Table as Table,
    solve_round as solve_round,
)

COMPILED = not str(_round.__file__).endswith(".py")
"""Whether the mypyc-compiled core is running."""
