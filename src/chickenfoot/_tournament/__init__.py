"""Tournaments and ladders: many seeded games between bots, run on local processes or Ray, and what they show.

:mod:`._matches` plays one tournament game and runs many (seeds derived by SHA-256, so results
never depend on how the games were spread over workers); :mod:`._standings` is a tournament's
standings; :mod:`._ladder` rates many bots on one scale from duplicate deals, with
:mod:`._ladder_rating` (which it imports, never the other way) summing their games for
:mod:`._rating`'s Bradley-Terry fit; :mod:`._ray` runs games as Ray tasks.
:mod:`chickenfoot.tournament` is the public face.
"""

from __future__ import annotations

from ._ladder import (
    Comparison as Comparison,
    LadderResult as LadderResult,
    Rating as Rating,
    Seating as Seating,
    cheats as cheats,
    run_ladder as run_ladder,
)
from ._ladder_rating import LadderGame as LadderGame, Unit as Unit
from ._matches import (
    Backend as Backend,
    Entrant as Entrant,
    GameOutcome as GameOutcome,
    Progress as Progress,
    check_starts as check_starts,
    derive_seed as derive_seed,
    play_game as play_game,
)
from ._ray import import_ray as import_ray
from ._standings import (
    Standing as Standing,
    TournamentResult as TournamentResult,
    run_tournament as run_tournament,
    wilson as wilson,
)
