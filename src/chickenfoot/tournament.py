"""Tournaments: many seeded games between bots, seats rotated, with results that do not depend on how they ran.

A lineup mixes bot names (``"greedy"``, ``"search:100"``, ``"cmd:node bot.js"``, see
:func:`~chickenfoot.bots.make_bot`) with bot objects: a :class:`~chickenfoot.bots.Bot` instance
or any function from a view to a move. Game ``i`` of a tournament is a pure function of
``(rules, lineup, seed, i)``: its deal seed and every named bot's seed derive from those by
SHA-256, and seat ``s`` is taken by ``lineup[(s + i) % n]``. So the games can be sharded over any
number of processes, or a Ray cluster, and the results, gathered back in game order, are the
same, provided each bot object chooses from its view alone, as the built-in bots do (a bot
object is copied into each worker process, or used as is with ``workers=1``).

Program bots (:class:`~chickenfoot.bots.ProcessBot`) are never shared between games: each game
runs its own copy, and what each program called itself and did wrong comes back in the results
(:attr:`GameOutcome.reports`, :attr:`Standing.report`), the same for any number of workers and
on Ray. An in-process bot that raises or chooses an illegal move stops the tournament with a
:class:`~chickenfoot.bots.BotError` naming it, its seat, the game and the position. No process a
program bot started outlives the tournament, even when it is interrupted.
"""

from __future__ import annotations

from ._tournament import (
    Backend as Backend,
    Comparison as Comparison,
    Entrant as Entrant,
    GameOutcome as GameOutcome,
    LadderGame as LadderGame,
    LadderResult as LadderResult,
    Progress as Progress,
    Rating as Rating,
    Seating as Seating,
    Standing as Standing,
    TournamentResult as TournamentResult,
    Unit as Unit,
    cheats as cheats,
    play_game as play_game,
    run_ladder as run_ladder,
    run_tournament as run_tournament,
    wilson as wilson,
)

__all__ = [
    "Backend",
    "Comparison",
    "Entrant",
    "GameOutcome",
    "LadderGame",
    "LadderResult",
    "Progress",
    "Rating",
    "Seating",
    "Standing",
    "TournamentResult",
    "Unit",
    "cheats",
    "play_game",
    "run_ladder",
    "run_tournament",
    "wilson",
]

for _public in (
    Comparison,
    GameOutcome,
    LadderGame,
    LadderResult,
    Rating,
    Standing,
    TournamentResult,
    cheats,
    play_game,
    run_ladder,
    run_tournament,
    wilson,
):  # documented here, where users import them
    _public.__module__ = __name__
