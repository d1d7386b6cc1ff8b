"""Bots: callables that take a :class:`~chickenfoot.PlayerView` and return one of its legal moves.

A bot sees only what its seat may know (the view), so the same bot plays against people, in
tournaments and inside search. Randomness is seeded and derived from the view, so a bot's
choice is a pure function of its seed and what it sees: tournaments give the same results on
any number of workers.
"""

from __future__ import annotations

from ._bots import (
    FAULT_KINDS as FAULT_KINDS,
    PROTOCOL_VERSION as PROTOCOL_VERSION,
    Analysis as Analysis,
    Bot as Bot,
    BotFault as BotFault,
    BotReport as BotReport,
    BotSpec as BotSpec,
    FaultKind as FaultKind,
    FaultTally as FaultTally,
    GreedyBot as GreedyBot,
    HeaviestBot as HeaviestBot,
    Info as Info,
    MoveAnalysis as MoveAnalysis,
    MoveInfo as MoveInfo,
    OmniscientBot as OmniscientBot,
    ProcessBot as ProcessBot,
    RandomBot as RandomBot,
    RolloutBot as RolloutBot,
    SamplerBot as SamplerBot,
    SearchBot as SearchBot,
    analyse as analyse,
    bot_name as bot_name,
    check_spec as check_spec,
    greedy_score as greedy_score,
    handshake_problem as handshake_problem,
    make_bot as make_bot,
    play_out as play_out,
    view_message as view_message,
)
from ._game import BotError as BotError

__all__ = [
    "FAULT_KINDS",
    "PROTOCOL_VERSION",
    "Analysis",
    "Bot",
    "BotError",
    "BotFault",
    "BotReport",
    "BotSpec",
    "FaultKind",
    "FaultTally",
    "GreedyBot",
    "HeaviestBot",
    "Info",
    "MoveAnalysis",
    "MoveInfo",
    "OmniscientBot",
    "ProcessBot",
    "RandomBot",
    "RolloutBot",
    "SamplerBot",
    "SearchBot",
    "analyse",
    "bot_name",
    "check_spec",
    "greedy_score",
    "handshake_problem",
    "make_bot",
    "play_out",
    "view_message",
]

# Documented here, where users import them from.
for _public in (
    Analysis,
    Bot,
    BotFault,
    BotReport,
    BotSpec,
    FaultTally,
    GreedyBot,
    HeaviestBot,
    Info,
    MoveAnalysis,
    MoveInfo,
    OmniscientBot,
    ProcessBot,
    RandomBot,
    RolloutBot,
    SamplerBot,
    SearchBot,
    analyse,
    bot_name,
    check_spec,
    greedy_score,
    handshake_problem,
    make_bot,
    play_out,
    view_message,
):
    _public.__module__ = __name__
