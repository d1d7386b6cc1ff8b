"""Bots: callables that take a :class:`~chickenfoot.PlayerView` and return one of its legal moves.

A bot sees only what its seat may know (the view), so the same bot plays against people, in
tournaments and inside search. Randomness is seeded and derived from the view, so a bot's
choice is a pure function of its seed and what it sees: tournaments give the same results on
any number of workers.
"""

from __future__ import annotations

import inspect
import math
import random
import shlex
import time
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ._determinize import determinize
from ._engine import apply, legal_moves
from ._errors import BotError as BotError, BotSpecError, IllegalMoveError
from ._faults import (
    FAULT_KINDS as FAULT_KINDS,
    BotFault as BotFault,
    BotReport as BotReport,
    FaultKind as FaultKind,
    FaultTally as FaultTally,
)
from ._moves import Draw, Move, Pass, Play
from ._notation import position
from ._process_bot import (
    PROTOCOL_VERSION as PROTOCOL_VERSION,
    Info as Info,
    MoveInfo as MoveInfo,
    ProcessBot as ProcessBot,
    handshake_problem as handshake_problem,
    view_message as view_message,
)
from ._rules import Rules
from ._scoring import score_round
from ._state import GameState, RoundState
from ._tiles import Pip, Tile
from ._views import PlayerView, observe

__all__ = [
    "FAULT_KINDS",
    "PROTOCOL_VERSION",
    "Bot",
    "BotError",
    "BotFault",
    "BotReport",
    "FaultKind",
    "FaultTally",
    "GreedyBot",
    "Info",
    "MoveInfo",
    "ProcessBot",
    "RandomBot",
    "SearchBot",
    "bot_name",
    "check_spec",
    "greedy_score",
    "handshake_problem",
    "make_bot",
    "play_out",
    "view_message",
]

# Documented here, where users import them from.
for _public in (BotFault, BotReport, FaultTally, Info, MoveInfo, ProcessBot, handshake_problem, view_message):
    _public.__module__ = __name__


@runtime_checkable
class Bot(Protocol):
    """Chooses a move: any callable from a :class:`~chickenfoot.PlayerView` to one of ``view.legal_moves``.

    A bot may also have ``round_over(view)`` and ``game_over(view)`` methods: :func:`play_out`
    (so tournaments too) calls them with the bot's view after each round and after the game.

    >>> import chickenfoot as cf
    >>> isinstance(GreedyBot(), Bot), isinstance(lambda view: view.legal_moves[0], Bot)
    (True, True)
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the move to make; called only when it is the view's player's turn."""
        ...


def play_out(game: GameState, bots: Sequence[Bot]) -> GameState:
    """Plays ``game`` to its end, each seat's move chosen by ``bots[seat]`` from that seat's view.

    >>> import chickenfoot as cf
    >>> game = play_out(cf.new_game(cf.Rules.cross(), players=2, seed=1), [GreedyBot(), RandomBot(seed=1)])
    >>> game.is_over, len(game.results)
    (True, 10)
    """
    return _play(game, bots, None)


def _play(game: GameState, bots: Sequence[Bot], index: int | None) -> GameState:
    """Plays ``game`` out (see :func:`play_out`); ``index`` is the tournament game's, for errors."""
    if len(bots) != game.players:
        raise ValueError(f"play_out needs one bot per seat: {game.players} seats, {len(bots)} bots")
    while not game.is_over:
        player = game.round.current_player
        bot = bots[player]
        try:
            move = bot(observe(game, player))
        except Exception as error:
            raise _bot_error(bot, player, game, index, f"raised {type(error).__name__}: {error}") from error
        try:
            after = apply(game, move)
        except IllegalMoveError as error:
            raise _bot_error(bot, player, game, index, f"chose {_shown(move)}, which is not legal ({error})") from error
        if len(after.results) > len(game.results):
            _tell(bots, after, index)
        game = after
    return game


def _tell(bots: Sequence[Bot], game: GameState, index: int | None) -> None:
    """Calls each bot's ``round_over`` method (and ``game_over`` at the end), if it has one, with its view."""
    for seat, bot in enumerate(bots):
        _call_hook(bot, "round_over", seat, game, index)
        if game.is_over:
            _call_hook(bot, "game_over", seat, game, index)


def _call_hook(bot: Bot, hook: str, seat: int, game: GameState, index: int | None) -> None:
    method = getattr(bot, hook, None)
    if callable(method):
        try:
            method(observe(game, seat))
        except Exception as error:
            raise _bot_error(bot, seat, game, index, f"raised {type(error).__name__} in {hook}: {error}") from error


def _shown(move: object) -> str:
    return str(move) if isinstance(move, (Play, Draw, Pass)) else repr(move)


def _bot_error(bot: Bot, seat: int, game: GameState, index: int | None, what: str) -> BotError:
    where = f"seat {seat}" if index is None else f"seat {seat} of game {index + 1} (index {index})"
    name = bot_name(bot)
    reason = (
        f"bot {name!r} in {where} {what}, in round {game.round_index + 1} at move {len(game.round.history) + 1}; "
        f"position: {position(game.round)}"
    )
    return BotError(reason, name, seat, game, index)


def _moves(view: PlayerView) -> tuple[Move, ...]:
    """Gets the view's legal moves, refusing a view in which its player has no move to make."""
    if not view.legal_moves:
        raise ValueError(
            f"player {view.player} has no move to make in this view (it is not their turn, or the game is over): "
            "ask a bot only for the player to move"
        )
    return view.legal_moves


def _view_rng(seed: int, view: PlayerView) -> random.Random:
    # A string seed is hashed with SHA-512 by `random`, the same on every machine and process.
    return random.Random(f"{seed}/{view.player}/{view.round_index}/{len(view.history)}/{sum(view.totals)}")


class RandomBot:
    """Picks uniformly among the legal moves, seeded.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> RandomBot(seed=1)(view) in view.legal_moves
    True
    """

    def __init__(self, seed: int = 0) -> None:
        """Builds a random bot whose choices depend only on ``seed`` and the view."""
        self.seed = seed

    def __call__(self, view: PlayerView) -> Move:
        """Returns a legal move chosen at random."""
        return _view_rng(self.seed, view).choice(_moves(view))

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


def _holds(hand: tuple[Tile, ...], value: Pip, besides: Tile) -> int:
    """Counts the tiles in ``hand`` other than ``besides`` that carry ``value``."""
    return sum(1 for tile in hand if tile is not besides and tile.mask >> value & 1)


def greedy_score(rules: Rules, hand: tuple[Tile, ...], move: Play, offered: Pip) -> float:
    """Rates a play for :class:`GreedyBot`: tile value, plus a follow-up bonus; a foot it cannot fill rates below 0.

    ``offered`` is the value of the node the tile goes onto.

    >>> from chickenfoot import Play, Rules, Tile
    >>> hand = (Tile(9, 5), Tile(5, 5), Tile(5, 1))
    >>> greedy_score(Rules.trains(), hand, Play(Tile(9, 5), 0), offered=9)
    15.0
    """
    tile = move.tile
    score: float = rules.tile_value(tile)
    if tile.is_double:
        # FOOT-1/FOOT-2: a double opens a foot that needs three toes of its value first. With no
        # toe in hand, it is a last resort whatever it is worth: rated in (-1, 0), below every
        # other play (each worth 1 or more), the more valuable such double first.
        toes = _holds(hand, tile.high, tile)
        return score + 12 + 4 * min(toes, 3) if toes else score / (1 + score) - 1
    # Keep a follow-up: prefer leaving an end this hand can play on later.
    exposed = tile.other(offered)
    score += 0.5 * min(_holds(hand, exposed, tile), 2)
    return score


class GreedyBot:
    """Sheds the highest-value tile it can, prefers doubles it can follow up, and avoids feet it cannot fill.

    Rates each play with ``greedy_score`` (in ``chickenfoot.bots``); with no play it draws or passes (the only legal
    moves then), and with a playable drawn tile it plays it.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> GreedyBot()(view) in view.legal_moves
    True
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the best-rated play, else the first legal move (draw or pass)."""
        moves = _moves(view)
        best: Move = moves[0]
        best_score = -math.inf
        for move in moves:
            if type(move) is Play:
                score = greedy_score(view.rules, view.hand, move, view.board.nodes[move.onto].exposed)
                if score > best_score:
                    best, best_score = move, score
        return best

    def __repr__(self) -> str:
        return "GreedyBot()"


def _rollout_move(state: RoundState, moves: tuple[Move, ...], rng: random.Random) -> Move:
    """Picks a playout move: mostly the highest-pip play (a cheap greedy), sometimes any move."""
    if len(moves) == 1 or rng.random() < 0.15:
        return moves[rng.randrange(len(moves))]
    best = moves[0]
    best_key = -1
    for move in moves:
        if type(move) is Play:
            key = move.tile.pips + (12 if move.tile.is_double else 0)
            if key > best_key:
                best, best_key = move, key
    return best


class _Node:
    """A node of the search tree: the move that led here, who made it, and its statistics."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1


_EXPLORATION = 0.7  # SearchBot's default UCT exploration constant
_WORLDS = 20  # SearchBot's default number of determinized deals per decision


class SearchBot:
    """Searches with information-set Monte Carlo tree search (SO-ISMCTS) over :func:`~chickenfoot.determinize`.

    Each simulation samples the hidden tiles consistently with the view, walks one shared tree
    of moves (UCB1 with availability counts, so a move is judged only where it was legal),
    plays the round out with a cheap greedy policy, and credits every player with
    ``1 - score / worst score`` of the round. It then plays the most visited move. The budget is
    ``simulations`` per decision, or ``seconds`` if given (a time budget is not reproducible).
    Sampling a world that respects the public history costs about as much as a playout, so the
    simulations cycle through ``worlds`` samples per decision (``worlds=simulations`` samples
    afresh every time). Forced moves (a single legal move) are made without search.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> SearchBot(simulations=20, seed=1)(view) in view.legal_moves
    True
    """

    def __init__(
        self,
        simulations: int = 100,
        *,
        seconds: float | None = None,
        seed: int = 0,
        exploration: float = _EXPLORATION,
        worlds: int = _WORLDS,
    ) -> None:
        """Builds a search bot with a budget of ``simulations`` per move (or ``seconds``) and a seed."""
        if type(simulations) is not int or simulations < 1:
            raise ValueError(f"simulations must be a whole number of 1 or more, got {simulations!r}")
        if type(worlds) is not int or worlds < 1:
            raise ValueError(f"worlds must be a whole number of 1 or more, got {worlds!r}")
        if seconds is not None and (type(seconds) not in (int, float) or not 0 < seconds < math.inf):
            # A budget of inf or NaN would never end the search; 0 or less would search nothing.
            raise ValueError(f"seconds must be a finite number above 0 (or None for simulations), got {seconds!r}")
        if not 0 <= exploration < math.inf:  # also refuses NaN
            raise ValueError(f"exploration must be a finite number of 0 or more, got {exploration!r}")
        self.simulations = simulations
        self.seconds = seconds
        self.seed = seed
        self.exploration = exploration
        self.worlds = worlds

    def __repr__(self) -> str:
        budget = f", seconds={self.seconds}" if self.seconds is not None else ""
        tuning = f", exploration={self.exploration}" if self.exploration != _EXPLORATION else ""
        tuning += f", worlds={self.worlds}" if self.worlds != _WORLDS else ""
        return f"SearchBot(simulations={self.simulations}{budget}, seed={self.seed}{tuning})"

    def __call__(self, view: PlayerView) -> Move:
        """Returns the most visited move at the root after the search."""
        moves = _moves(view)
        if len(moves) == 1:
            return moves[0]
        rng = _view_rng(self.seed, view)
        root = _Node(mover=-1)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        worlds: list[RoundState] = []
        done = 0
        while done < self.simulations if deadline is None else time.perf_counter() < deadline:
            if len(worlds) < self.worlds:
                worlds.append(determinize(view, rng).round)
            self._simulate(root, worlds[done % len(worlds)], rng)
            done += 1
        return max(moves, key=lambda move: root.children[move].visits if move in root.children else -1)

    def _simulate(self, root: _Node, state: RoundState, rng: random.Random) -> None:
        path = [root]
        node = root
        c = self.exploration
        # Selection and expansion in the shared tree (moves from every seat, SO-ISMCTS).
        while not state.is_over:
            moves = legal_moves(state)
            children = node.children
            untried = [move for move in moves if move not in children]
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = children[move] = _Node(state.current_player)
                for other in moves:
                    if other in children and other is not move:
                        children[other].available += 1
                state = apply(state, move)
                path.append(child)
                break
            best_value = -math.inf
            chosen: Move = moves[0]
            for move in moves:
                child = children[move]
                child.available += 1
                value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if value > best_value:
                    best_value, chosen = value, move
            node = children[chosen]
            state = apply(state, chosen)
            path.append(node)
        # Playout to the end of the round.
        while not state.is_over:
            state = apply(state, _rollout_move(state, legal_moves(state), rng))
        scores = score_round(state)
        worst = max(max(scores), 1)
        rewards = [1.0 - score / worst for score in scores]
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += rewards[visited.mover]


_KINDS = ("random", "greedy", "search", "cmd")
_ALLOWED = "use one of random, greedy, search, search:SIMULATIONS or cmd:COMMAND"


def check_spec(spec: str) -> tuple[str, int | None]:
    """Reads a bot name as ``(kind, budget)``, or raises :class:`~chickenfoot.BotSpecError` saying what is allowed.

    >>> check_spec("search:50"), check_spec("cmd:python my_bot.py")
    (('search', 50), ('cmd', None))
    """
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot name is text, got {spec!r}: {_ALLOWED}")
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in _KINDS:
        raise BotSpecError(f"unknown bot {spec!r}: {_ALLOWED}")
    if kind == "cmd":
        _command(spec)
        return kind, None
    if not arg:
        return kind, None
    if kind != "search" or not arg.isascii() or not arg.isdigit() or int(arg) < 1:
        raise BotSpecError(f"bad bot {spec!r}: only search takes a budget, as search:N with N >= 1 simulations")
    return kind, int(arg)


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
    """Builds a bot from its name: ``random``, ``greedy``, ``search``, ``search:SIMULATIONS`` or ``cmd:COMMAND``.

    ``cmd:COMMAND`` runs a program that speaks the bot protocol (see :class:`ProcessBot`); the
    command is split like a shell would, and cannot hold a comma where a list of bots is read.

    >>> make_bot("search:50", seed=3)
    SearchBot(simulations=50, seed=3)
    >>> make_bot("cmd:node examples/bots/first.js")
    ProcessBot(['node', 'examples/bots/first.js'], seconds=5.0)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    chickenfoot.BotSpecError: unknown bot 'chess': use one of random, greedy, search, search:SIMULATIONS or cmd:COMMAND
    """
    kind, budget = check_spec(spec)
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "greedy":
        return GreedyBot()
    if kind == "cmd":
        return ProcessBot(_command(spec))
    return SearchBot(budget or 100, seed=seed)


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
