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
from typing import NamedTuple, Protocol, runtime_checkable

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
from ._greedy import count_values, rating
from ._moves import Draw, Move, Pass, Play
from ._notation import position
from ._planning import (
    _ROLLOUTS,
    _SIMULATIONS as _SAMPLER_SIMULATIONS,
    Analysis as Analysis,
    MoveAnalysis as MoveAnalysis,
    OmniscientBot as OmniscientBot,
    RolloutBot as RolloutBot,
    SamplerBot as SamplerBot,
    _moves,
    _view_rng,
    _WorldSearch,
    analyse as analyse,
)
from ._process_bot import (
    PROTOCOL_VERSION as PROTOCOL_VERSION,
    Info as Info,
    MoveInfo as MoveInfo,
    ProcessBot as ProcessBot,
    handshake_problem as handshake_problem,
    view_message as view_message,
)
from ._scoring import score_round
from ._state import GameState, RoundState
from ._views import PlayerView, observe

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
    BotFault,
    BotReport,
    FaultTally,
    Info,
    MoveAnalysis,
    MoveInfo,
    OmniscientBot,
    ProcessBot,
    RolloutBot,
    SamplerBot,
    analyse,
    handshake_problem,
    view_message,
):
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
            move = _choose(bot, game, player)
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


def _choose(bot: Bot, game: GameState, player: int) -> Move:
    """Asks ``bot`` for its move: from ``player``'s view, or, an :class:`OmniscientBot`, from the whole game."""
    if isinstance(bot, OmniscientBot):
        return bot.see(game)
    return bot(observe(game, player))


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


class HeaviestBot:
    """Plays its most valuable playable tile (the first of equals, in the engine's order); else draws or passes.

    The simplest sensible strategy, and the baseline any heuristic should beat: a tile left in
    hand scores its value against its holder (SCORE-1), so shed the heaviest first.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> move = HeaviestBot()(view)
    >>> max(view.rules.tile_value(m.tile) for m in view.legal_moves) == view.rules.tile_value(move.tile)
    True
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the most valuable play, else the first legal move (draw or pass)."""
        moves = _moves(view)
        best: Move = moves[0]
        best_value = -1
        for move in moves:
            if type(move) is Play:
                value = view.rules.tile_value(move.tile)
                if value > best_value:
                    best, best_value = move, value
        return best

    def __repr__(self) -> str:
        return "HeaviestBot()"


def _value_counts(view: PlayerView) -> tuple[list[int], list[int]]:
    """Counts, per pip value, the tiles carrying it in the view's hand, and those off the board (in hand or unseen)."""
    held = [0] * (view.rules.max_pip + 1)
    count_values(tuple([tile.index for tile in view.hand]), held)
    off_board = list(held)
    count_values(tuple([tile.index for tile in view.unseen]), off_board)
    return held, off_board


def greedy_score(view: PlayerView, move: Play) -> float:
    """Rates a play for :class:`GreedyBot` (higher is better).

    The tile's value (SCORE-1: what it would cost left in hand); plus one point per other tile in
    hand that could follow on the end it leaves (at most two); minus one point per unseen tile
    (in the other hands or the yard) carrying that end's value, so ends the others are unlikely
    to match are preferred. A double (which opens a chicken foot, FOOT-1) gets 4 points if the
    hand holds a toe for it, else loses 3, and loses a point per unseen tile of its value.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    >>> view = cf.observe(game, game.current_player)
    >>> [(str(play), greedy_score(view, play)) for play in view.legal_moves]
    [('9-3@0', 7.0), ('9-6@0', 8.0), ('9-4@0', 10.0)]
    """
    if type(move) is not Play:
        raise TypeError(f"greedy_score rates a play, got {move!r}")
    held, off_board = _value_counts(view)
    offered = view.board.nodes[move.onto].exposed
    return float(rating(move.tile.index, offered, held, off_board, view.rules.tile_value(move.tile)))


class GreedyBot:
    """Makes the best play by :func:`greedy_score`, looking one move ahead and no further.

    It sheds valuable tiles, keeps ends it can follow, prefers ends the others are unlikely to
    match (counting the unseen tiles of each value), and opens a chicken foot when it holds a
    toe for it. With no play it draws or passes (the only legal moves then); a playable drawn
    tile it plays. It beats :class:`HeaviestBot` on the ladder (see the strength page).

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
        counts: tuple[list[int], list[int]] | None = None
        nodes = view.board.nodes
        for move in moves:
            if type(move) is Play:
                if counts is None:
                    counts = _value_counts(view)
                tile = move.tile
                score = rating(tile.index, nodes[move.onto].exposed, *counts, view.rules.tile_value(tile))
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


class SearchBot(_WorldSearch):
    """Searches with information-set Monte Carlo tree search (SO-ISMCTS) over :func:`~chickenfoot.determinize`.

    Each simulation samples the hidden tiles consistently with the view, walks one shared tree
    of moves (UCB1 with availability counts, so a move is judged only where it was legal),
    plays the round out with a cheap greedy policy, and credits every player with
    ``1 - score / worst score`` of the round. It then plays the most visited move. The budget is
    ``simulations`` per decision, or ``seconds`` of CPU time if given (a time budget is not reproducible).
    Sampling a world that respects the public history costs about as much as a playout, so the
    simulations cycle through ``worlds`` samples per decision (``worlds=simulations`` samples
    afresh every time). Forced moves (a single legal move) are made without search.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> SearchBot(simulations=20, seed=1)(view) in view.legal_moves
    True
    """

    _default_worlds = _WORLDS

    def __init__(
        self,
        simulations: int = 100,
        *,
        seconds: float | None = None,
        seed: int = 0,
        exploration: float = _EXPLORATION,
        worlds: int = _WORLDS,
    ) -> None:
        """Builds a search bot with a budget of ``simulations`` per move (or ``seconds`` of CPU time) and a seed."""
        super().__init__(simulations, seconds=seconds, seed=seed, worlds=worlds)
        if not 0 <= exploration < math.inf:  # also refuses NaN
            raise ValueError(f"exploration must be a finite number of 0 or more, got {exploration!r}")
        self.exploration = exploration

    def _tuning(self) -> str:
        tuning = f", exploration={self.exploration}" if self.exploration != _EXPLORATION else ""
        return tuning + super()._tuning()

    def __call__(self, view: PlayerView) -> Move:
        """Returns the most visited move at the root after the search."""
        moves = _moves(view)
        if len(moves) == 1:
            return moves[0]
        rng = _view_rng(self.seed, view)
        root = _Node(mover=-1)
        clock = time.thread_time  # CPU time: a busy machine does not shorten the search
        deadline = None if self.seconds is None else clock() + self.seconds
        worlds: list[RoundState] = []
        done = 0
        while done < self.simulations if deadline is None else clock() < deadline:
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


_KINDS = ("random", "heaviest", "greedy", "search", "sampler", "rollout", "omniscient", "cmd")
_SEARCHERS = ("search", "sampler", "rollout", "omniscient")
_ALLOWED = (
    "use one of random, heaviest, greedy, search, sampler, rollout, omniscient (each of the last four with an "
    "optional budget, :N simulations or :Nms of CPU time a move), or cmd:COMMAND"
)


class BotSpec(NamedTuple):
    """A bot name read by :func:`check_spec`: its kind, and the budget a search bot's name gave."""

    kind: str
    """random, heaviest, greedy, search, sampler, rollout, omniscient or cmd."""
    simulations: int | None = None
    """Simulations a move (``search:200``), if given."""
    seconds: float | None = None
    """CPU seconds a move (``search:50ms`` is 0.05), if given."""


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
    if kind not in _SEARCHERS:
        raise BotSpecError(f"bad bot {spec!r}: only search, sampler, rollout and omniscient take a budget")
    digits = arg[:-2] if arg.lower().endswith("ms") else arg
    if not digits.isascii() or not digits.isdigit() or int(digits) < 1 or len(digits) > 9:
        unit = "rollouts" if kind == "rollout" else "simulations"
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
    chickenfoot.BotSpecError: unknown bot 'chess': use one of random, heaviest, greedy, search, sampler, rollout, \
omniscient (each of the last four with an optional budget, :N simulations or :Nms of CPU time a move), or cmd:COMMAND
    """
    kind, simulations, seconds = check_spec(spec)
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heaviest":
        return HeaviestBot()
    if kind == "greedy":
        return GreedyBot()
    if kind == "cmd":
        return ProcessBot(_command(spec))
    if kind == "search":
        return SearchBot(simulations or 100, seconds=seconds, seed=seed)
    if kind == "sampler":
        return SamplerBot(simulations or _SAMPLER_SIMULATIONS, seconds=seconds, seed=seed)
    if kind == "rollout":
        return RolloutBot(simulations or _ROLLOUTS, seconds=seconds, seed=seed)
    return OmniscientBot(simulations or _SAMPLER_SIMULATIONS, seconds=seconds, seed=seed)


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
