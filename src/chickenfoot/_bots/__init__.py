"""The bots: what a bot is, the simple and the searching bots, program bots, and the one registry of bot kinds.

:mod:`._simple` holds the :class:`Bot` interface and the random, heaviest and greedy bots;
:mod:`._searches` the search bots and the analysis of a position; :mod:`._process` and
:mod:`._messages` the bots that are programs speaking the bot protocol, and :mod:`._faults` what
went wrong with them; :mod:`._registry` the bot names the command line, tournaments and the
server read; :mod:`._play` plays a game out between bots. :mod:`chickenfoot.bots` is the public face.
"""

from __future__ import annotations

from ._faults import (
    FAULT_KINDS as FAULT_KINDS,
    BotFault as BotFault,
    BotReport as BotReport,
    FaultKind as FaultKind,
    FaultTally as FaultTally,
)
from ._play import choose as choose, play as play, play_out as play_out
from ._process import (
    PROTOCOL_VERSION as PROTOCOL_VERSION,
    Info as Info,
    MoveInfo as MoveInfo,
    ProcessBot as ProcessBot,
    handshake_problem as handshake_problem,
    view_message as view_message,
)
from ._registry import (
    KINDS as KINDS,
    BotKind as BotKind,
    BotSpec as BotSpec,
    bot_name as bot_name,
    check_spec as check_spec,
    kinds_help as kinds_help,
    make_bot as make_bot,
    shown_name as shown_name,
)
from ._searches import (
    EXACT_NODES as EXACT_NODES,
    EXACT_WORLDS as EXACT_WORLDS,
    Analysis as Analysis,
    MoveAnalysis as MoveAnalysis,
    OmniscientBot as OmniscientBot,
    RolloutBot as RolloutBot,
    SamplerBot as SamplerBot,
    SearchBot as SearchBot,
    SolverBot as SolverBot,
    Unsolved as Unsolved,
    analyse as analyse,
)
from ._simple import (
    Bot as Bot,
    GreedyBot as GreedyBot,
    HeaviestBot as HeaviestBot,
    RandomBot as RandomBot,
    greedy_score as greedy_score,
)
