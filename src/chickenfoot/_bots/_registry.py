"""The one registry of bot kinds: the names the command line, tournaments and the server read, and the bots they make.

A bot name is a kind (``random``, ``greedy``, ``search`` ...), a search bot's optional budget
(``search:200`` simulations, ``search:50ms`` of CPU time), or ``cmd:COMMAND`` for a program
that speaks the bot protocol. :func:`check_spec` reads one, :func:`make_bot` builds it.
"""

from __future__ import annotations

import inspect
import shlex
from collections.abc import Callable
from typing import NamedTuple

from .._game import BotSpecError
from ._process import ProcessBot
from ._searches import ROLLOUTS, SIMULATIONS, OmniscientBot, RolloutBot, SamplerBot, SearchBot
from ._simple import Bot, GreedyBot, HeaviestBot, RandomBot

__all__ = ["KINDS", "BotKind", "BotSpec", "bot_name", "check_spec", "kinds_help", "make_bot"]


class BotSpec(NamedTuple):
    """A bot name read by :func:`check_spec`: its kind, and the budget a search bot's name gave."""

    kind: str
    """random, heaviest, greedy, search, sampler, rollout, omniscient or cmd."""
    simulations: int | None = None
    """Simulations a move (``search:200``), if given."""
    seconds: float | None = None
    """CPU seconds a move (``search:50ms`` is 0.05), if given."""


class BotKind(NamedTuple):
    """One kind of bot that a name can ask for: the registry's entry that every front end reads."""

    name: str
    """The name's first word: ``greedy``, ``search``, ``cmd`` ..."""
    budget: str | None
    """What a budget counts (``search:200`` is 200 of them a move), or None if the kind takes none."""
    fair: bool
    """Whether it sees only its own view (the ``omniscient`` bot sees every hand)."""
    quick: bool
    """Whether it answers at once (no search), so a server may run it on the players' path."""
    summary: str
    """What it is, in a few words, for help texts."""
    build: Callable[[str, BotSpec, int], Bot]
    """Makes the bot from its name as written, the name read, and a seed."""


KINDS = (
    BotKind("random", None, True, True, "a uniformly random legal move", lambda _, spec, seed: RandomBot(seed=seed)),
    BotKind("heaviest", None, True, True, "the heaviest playable tile", lambda _, spec, seed: HeaviestBot()),
    BotKind("greedy", None, True, True, "the move GreedyBot's rating prefers", lambda _, spec, seed: GreedyBot()),
    BotKind(
        "search",
        "simulations",
        True,
        False,
        "Monte Carlo tree search over sampled hands",
        lambda _, spec, seed: SearchBot(spec.simulations or 100, seconds=spec.seconds, seed=seed),
    ),
    BotKind(
        "sampler",
        "simulations",
        True,
        False,
        "the tree search over worlds sampled as the view allows",
        lambda _, spec, seed: SamplerBot(spec.simulations or SIMULATIONS, seconds=spec.seconds, seed=seed),
    ),
    BotKind(
        "rollout",
        "rollouts",
        True,
        False,
        "greedy playouts from each move over sampled worlds",
        lambda _, spec, seed: RolloutBot(spec.simulations or ROLLOUTS, seconds=spec.seconds, seed=seed),
    ),
    BotKind(
        "omniscient",
        "simulations",
        False,
        False,
        "the tree search seeing every hand (a yardstick, not a rival)",
        lambda _, spec, seed: OmniscientBot(spec.simulations or SIMULATIONS, seconds=spec.seconds, seed=seed),
    ),
    BotKind(
        "cmd",
        None,
        True,
        False,
        "a program speaking the bot protocol",
        lambda text, spec, seed: ProcessBot(_command(text)),
    ),
)
"""Every kind of bot a name can ask for, in the order help texts list them."""

_KINDS = {kind.name: kind for kind in KINDS}


def kinds_help(*, fair_only: bool = False) -> str:
    """Lists the bot names a user may write, for help texts and errors: every kind, with its budget.

    >>> kinds_help(fair_only=True)
    'random, heaviest, greedy, search[:N|:Nms], sampler[:N|:Nms], rollout[:N|:Nms], cmd:COMMAND \
(N simulations, for rollout rollouts, or N ms of CPU time a move)'
    """
    names = [
        "cmd:COMMAND" if kind.name == "cmd" else kind.name + ("[:N|:Nms]" if kind.budget else "")
        for kind in KINDS
        if kind.fair or not fair_only
    ]
    return ", ".join(names) + " (N simulations, for rollout rollouts, or N ms of CPU time a move)"


_ALLOWED = f"use one of {kinds_help()}"


def check_spec(spec: str) -> BotSpec:
    """Reads a bot name, or raises :class:`~chickenfoot.BotSpecError` saying what is allowed.

    >>> check_spec("search:50"), check_spec("sampler:20ms").seconds, check_spec("cmd:python my_bot.py").kind
    (BotSpec(kind='search', simulations=50, seconds=None), 0.02, 'cmd')
    """
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot name is text, got {spec!r}: {_ALLOWED}")
    kind, colon, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in _KINDS:
        raise BotSpecError(f"unknown bot {spec!r}: {_ALLOWED}")
    if kind == "cmd":
        _command(spec)
        return BotSpec(kind)
    if not colon:
        return BotSpec(kind)
    if _KINDS[kind].budget is None:
        *others, last = (other.name for other in KINDS if other.budget)
        takers = f"{', '.join(others)} and {last}"
        raise BotSpecError(f"bad bot {spec!r}: only {takers} take a budget")
    digits = arg[:-2] if arg.lower().endswith("ms") else arg
    if not digits.isascii() or not digits.isdigit() or int(digits) < 1 or len(digits) > 9:
        unit = _KINDS[kind].budget
        raise BotSpecError(
            f"bad bot {spec!r}: write the budget as {kind}:N (N {unit} a move) or {kind}:Nms "
            "(N milliseconds of CPU time a move), N a whole number from 1"
        )
    if digits is arg:
        return BotSpec(kind, simulations=int(digits))
    return BotSpec(kind, seconds=int(digits) / 1000)


def _command(spec: str) -> list[str]:
    """Splits the program of a ``cmd:COMMAND`` bot name into its arguments, as a POSIX shell would."""
    try:
        command = shlex.split(spec.strip().partition(":")[2])
    except ValueError as error:  # an unclosed quote
        raise BotSpecError(f"bad bot {spec!r}: its command cannot be split into arguments ({error})") from None
    if not command:
        raise BotSpecError(f"bad bot {spec!r}: name the program after cmd:, as in cmd:python my_bot.py")
    return command


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Builds a bot from its name (see :func:`check_spec`): ``random``, ``heaviest``, ``greedy``, ``search``,
    ``sampler``, ``rollout``, ``omniscient`` or ``cmd:COMMAND``.

    A search bot's name may give its budget: ``search:200`` is 200 simulations a move (for
    ``rollout``, rollouts), ``search:50ms`` 50 milliseconds of CPU time a move. ``omniscient``
    sees every hand: it is for measuring how far the fair bots are from perfect sight, and is
    marked as cheating in tables.
    ``cmd:COMMAND`` runs a program that speaks the bot protocol (see :class:`ProcessBot`); the
    command is split like a shell would, and cannot hold a comma where a list of bots is read.

    >>> make_bot("search:50", seed=3), make_bot("sampler:20ms")
    (SearchBot(simulations=50, seed=3), SamplerBot(simulations=1000, seconds=0.02, seed=0))
    >>> make_bot("rollout:200"), make_bot("rollout:10ms", seed=1)
    (RolloutBot(simulations=200, seed=0), RolloutBot(simulations=500, seconds=0.01, seed=1))
    >>> make_bot("cmd:node examples/bots/first.js")
    ProcessBot(['node', 'examples/bots/first.js'], seconds=5.0)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    chickenfoot.BotSpecError: unknown bot 'chess': use one of random, heaviest, greedy, search[:N|:Nms], \
sampler[:N|:Nms], rollout[:N|:Nms], omniscient[:N|:Nms], cmd:COMMAND (N simulations, for rollout rollouts, \
or N ms of CPU time a move)
    """
    read = check_spec(spec)
    return _KINDS[read.kind].build(spec, read, seed)


def bot_name(bot: str | Bot) -> str:
    """Names a bot for standings: its bot name as given, else its ``name`` attribute, its function name,
    the repr its class defines, or its class name.

    >>> class Mine:
    ...     def __call__(self, view):
    ...         return view.legal_moves[0]
    >>> bot_name(" greedy"), bot_name(GreedyBot()), bot_name(play_out), bot_name(Mine())
    ('greedy', 'GreedyBot()', 'play_out', 'Mine')
    """
    if isinstance(bot, str):
        return bot.strip()
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    if inspect.isfunction(bot) or inspect.ismethod(bot) or inspect.isbuiltin(bot):
        return str(bot.__qualname__)
    if type(bot).__repr__ is object.__repr__:  # "<__main__.Mine object at 0x7f...>" says nothing more
        return type(bot).__name__
    return repr(bot)
