"""The one registry of bot kinds: the names the command line, tournaments and the server read, and the bots they make.

A bot name is a kind (``random``, ``greedy``, ``search`` ...), a search bot's optional budget
(``search:200`` simulations, ``search:50ms`` of CPU time), ``cmd:COMMAND`` for a program
that speaks the bot protocol, or ``py:MODULE:NAME`` (``py:path/to/file.py:NAME``) for a bot
written in Python. :func:`check_spec` reads one, :func:`make_bot` builds it.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, cast

from .._game import BotSpecError
from ._process import ProcessBot
from ._searches import EXACT_TILES, ROLLOUTS, SIMULATIONS, OmniscientBot, RolloutBot, SamplerBot, SearchBot, SolverBot
from ._simple import Bot, GreedyBot, HeaviestBot, RandomBot

__all__ = ["KINDS", "BotKind", "BotSpec", "bot_name", "check_spec", "kinds_help", "make_bot", "shown_name"]


class BotSpec(NamedTuple):
    """A bot name read by :func:`check_spec`: its kind, and the budget a search bot's name gave."""

    kind: str
    """random, heaviest, greedy, search, sampler, rollout, solver, omniscient, cmd or py."""
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
        "solver",
        "rollouts",
        True,
        False,
        f"exact solving of sampled worlds once {EXACT_TILES} tiles or fewer are in hand, rollouts before",
        lambda _, spec, seed: SolverBot(spec.simulations or ROLLOUTS, seconds=spec.seconds, seed=seed),
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
    BotKind(
        "py",
        None,
        False,  # code of this machine's user, run in this process: nothing vouches that it sees only its view
        False,
        "a Python class or factory, from a module or a .py file",
        lambda text, spec, seed: _python_bot(text, seed),
    ),
)
"""Every kind of bot a name can ask for, in the order help texts list them."""

_KINDS = {kind.name: kind for kind in KINDS}


def kinds_help(*, fair_only: bool = False) -> str:
    """Lists the bot names a user may write, for help texts and errors: every kind, with its budget.

    >>> kinds_help(fair_only=True)
    'random, heaviest, greedy, search[:N|:Nms], sampler[:N|:Nms], rollout[:N|:Nms], solver[:N|:Nms], cmd:COMMAND \
(N simulations, for rollout and solver rollouts, or N ms of CPU time a move)'
    """
    written = {"cmd": "cmd:COMMAND", "py": "py:MODULE:CLASS"}
    names = [
        written.get(kind.name, kind.name + ("[:N|:Nms]" if kind.budget else ""))
        for kind in KINDS
        if kind.fair or not fair_only
    ]
    rollouts = " and ".join(kind.name for kind in KINDS if kind.budget == "rollouts")
    return ", ".join(names) + f" (N simulations, for {rollouts} rollouts, or N ms of CPU time a move)"


_ALLOWED = f"use one of {kinds_help()}"


def check_spec(spec: str) -> BotSpec:
    """Reads a bot name, or raises :class:`~chickenfoot.BotSpecError` saying what is allowed.

    Reading never runs anything: a ``cmd:`` name is not started and a ``py:`` name not imported
    until :func:`make_bot` builds it, so a name from a file or a client can be read safely.

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
    if kind == "py":
        _python_parts(spec)  # read only: loading runs code, which only building the bot may do
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
    ``sampler``, ``rollout``, ``solver``, ``omniscient``, ``cmd:COMMAND`` or ``py:MODULE:CLASS``.

    A search bot's name may give its budget: ``search:200`` is 200 simulations a move (for
    ``rollout`` and ``solver``, rollouts), ``search:50ms`` 50 milliseconds of CPU time a move. ``omniscient``
    sees every hand: it is for measuring how far the fair bots are from perfect sight, and is
    marked as cheating in tables.
    ``cmd:COMMAND`` runs a program that speaks the bot protocol (see :class:`ProcessBot`); the
    command is split like a shell would, and cannot hold a comma where a list of bots is read.
    ``py:MODULE:CLASS`` (or ``py:path/to/file.py:CLASS``) calls a class or factory of a Python
    module, with ``NAME=VALUE`` arguments after it separated by spaces (``py:mybots.py:Lookahead
    depth=2``; values are Python literals, else text), and ``seed=`` the bot's seed when it
    takes one and none is given; what it returns is the bot. A module is found as ``import``
    finds it, the current directory searched last. Building one runs its code: only a name the
    machine's own user wrote should be built (the game server seats no ``py:`` bot, and
    ``play --load`` builds none a record names).

    >>> make_bot("search:50", seed=3), make_bot("sampler:20ms")
    (SearchBot(simulations=50, seed=3), SamplerBot(simulations=1000, seconds=0.02, seed=0))
    >>> make_bot("rollout:200"), make_bot("rollout:10ms", seed=1)
    (RolloutBot(simulations=200, seed=0), RolloutBot(simulations=500, seconds=0.01, seed=1))
    >>> make_bot("cmd:node examples/bots/first.js")
    ProcessBot(['node', 'examples/bots/first.js'], seconds=5.0)
    >>> make_bot("py:chickenfoot.bots:SearchBot simulations=20", seed=4)
    SearchBot(simulations=20, seed=4)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    chickenfoot.BotSpecError: unknown bot 'chess': use one of random, heaviest, greedy, search[:N|:Nms], \
sampler[:N|:Nms], rollout[:N|:Nms], solver[:N|:Nms], omniscient[:N|:Nms], cmd:COMMAND, py:MODULE:CLASS \
(N simulations, for rollout and solver rollouts, or N ms of CPU time a move)
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


def shown_name(name: str) -> str:
    """Shortens a bot name for a table: a ``py:`` bot by its class or factory and arguments (a legend
    gives the whole name), any other as written.

    >>> shown_name("py:bots/follow.py:FollowUpBot depth=2"), shown_name(" search:50")
    ('FollowUpBot depth=2', 'search:50')
    """
    name = name.strip()
    if name[:3].lower() != "py:":
        return name
    try:
        _, factory, _ = _python_parts(name)
    except BotSpecError:
        return name
    rest = name.partition(":")[2].split(None, 1)[1:]  # the arguments as written
    return " ".join([factory, *rest])


def _python_parts(spec: str) -> tuple[str, str, dict[str, Any]]:
    """Reads ``py:TARGET:NAME [KEY=VALUE ...]`` into the module or file, the name in it, and the arguments."""
    usage = "write py:MODULE:CLASS or py:path/to/file.py:CLASS, arguments after it as NAME=VALUE"
    try:
        words = shlex.split(spec.strip().partition(":")[2])
    except ValueError as error:  # an unclosed quote
        raise BotSpecError(f"bad bot {spec!r}: its arguments cannot be split ({error}): {usage}") from None
    if not words:
        raise BotSpecError(f"bad bot {spec!r}: {usage}")
    target, colon, name = words[0].rpartition(":")
    if not colon or not target or not name.isidentifier():
        raise BotSpecError(f"bad bot {spec!r}: {usage}")
    arguments: dict[str, Any] = {}
    for word in words[1:]:
        key, equals, value = word.partition("=")
        if not equals or not key.isidentifier():
            raise BotSpecError(f"bad bot {spec!r}: {word!r} is not an argument: {usage}")
        try:
            arguments[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            arguments[key] = value  # a word: text
    return target, name, arguments


def _python_module(spec: str, target: str) -> Any:
    """Imports the module ``target`` names: a ``.py`` file by its path, else a module by its dotted name."""
    if target.endswith(".py") or "/" in target or os.sep in target:
        path = Path(target).expanduser().resolve()
        if not path.is_file():
            raise BotSpecError(f"bad bot {spec!r}: there is no file {target} (from {os.getcwd()})")
        # One module per file, under a name of its own, loaded once a process.
        module_name = "chickenfoot_bot_" + hashlib.sha256(str(path).encode()).hexdigest()[:16]
        if module_name in sys.modules:
            return sys.modules[module_name]
        loader = importlib.util.spec_from_file_location(module_name, path)
        if loader is None or loader.loader is None:
            raise BotSpecError(f"bad bot {spec!r}: {target} cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(loader)
        sys.modules[module_name] = module
        try:
            loader.loader.exec_module(module)
        except Exception as error:
            del sys.modules[module_name]
            raise BotSpecError(f"bad bot {spec!r}: loading {target} failed: {type(error).__name__}: {error}") from None
        return module
    try:
        try:
            return importlib.import_module(target)
        except ModuleNotFoundError as error:
            here = os.getcwd()
            if error.name != target.partition(".")[0] or here in sys.path:
                raise
            sys.path.append(here)  # as `python -m` would find it: a module beside the user
            return importlib.import_module(target)
    except ModuleNotFoundError as error:
        raise BotSpecError(
            f"bad bot {spec!r}: no module named {error.name!r} (from {os.getcwd()}): give a module on the "
            "Python path, or the file's path (py:path/to/file.py:CLASS)"
        ) from None
    except Exception as error:
        raise BotSpecError(f"bad bot {spec!r}: importing {target} failed: {type(error).__name__}: {error}") from None


def _python_factory(spec: str) -> tuple[Callable[..., Any], dict[str, Any], bool]:
    """Loads the class or factory a ``py:`` name gives, checking it takes the arguments given; gets it, them,
    and whether it is to be given the bot's seed."""
    target, name, arguments = _python_parts(spec)
    module = _python_module(spec, target)
    factory = getattr(module, name, None)
    if factory is None:
        found = sorted(  # what the module defines, not what it imports
            key
            for key, value in vars(module).items()
            if callable(value) and not key.startswith("_") and getattr(value, "__module__", None) == module.__name__
        )
        hint = f": it has {', '.join(found[:12])}" if found else ""
        raise BotSpecError(f"bad bot {spec!r}: {target} has no {name}{hint}")
    if not callable(factory):
        raise BotSpecError(
            f"bad bot {spec!r}: {name} in {target} is a {type(factory).__name__}, not a class or factory"
        )
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # some builtins: call it and see
        return factory, arguments, False
    try:
        signature.bind(**arguments)
    except TypeError as error:
        raise BotSpecError(f"bad bot {spec!r}: {name} does not take these arguments ({error})") from None
    takes_seed = "seed" in signature.parameters or any(
        parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in signature.parameters.values()
    )
    return factory, arguments, takes_seed and "seed" not in arguments


def _python_bot(spec: str, seed: int) -> Bot:
    """Builds the bot a ``py:`` name gives: its class or factory called with the name's arguments (and the seed)."""
    factory, arguments, seeded = _python_factory(spec)
    if seeded:
        arguments["seed"] = seed
    name = spec.strip().partition(":")[2].split()[0].rpartition(":")[2]
    try:
        bot = factory(**arguments)
    except Exception as error:
        raise BotSpecError(f"bad bot {spec!r}: {name}(...) failed: {type(error).__name__}: {error}") from None
    if not callable(bot):
        raise BotSpecError(
            f"bad bot {spec!r}: {name}(...) gave a {type(bot).__name__}, not a bot: a bot is called with a view "
            "and returns a move (see the page Writing a bot)"
        )
    return cast(Bot, bot)
