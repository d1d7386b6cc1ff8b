"""Search on the core's rounds: the sampler, omniscient and rollout bots, and the analysis of a position.

They search worlds: core rounds consistent with what the searching player knows. The sampler
bot, the rollout bot and the analysis draw them with :func:`~chickenfoot.determinize`'s
sampling (or, for a position written without its history, by dealing the unseen tiles at
random); the omniscient bot, which sees every hand, only shuffles the yard. The sampler and
omniscient bots and the analysis run :class:`chickenfoot._core._search.Searcher`'s tree search; the
rollout bot plays every move out with :mod:`chickenfoot._core._greedy`'s policy (both compiled with
the core). A budget is a number of simulations, or seconds of CPU time
(:func:`time.thread_time`, so a busy machine does not shorten it).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TypeAlias

import attrs

from .._core import NONE, Node, Round, Searcher, code_onto, greedy_playout, round_on, shuffle, winners
from .._game import (
    MOVES,
    GameState,
    Move,
    Play,
    PlayerView,
    RoundState,
    Worlds,
    apply,
    deal_for,
    determinize,
    legal_moves,
    move_code,
    observe,
    score_round,
    settings_for,
)
from ._simple import moves_to_choose, view_rng

__all__ = [
    "ROLLOUTS",
    "SIMULATIONS",
    "Analysis",
    "MoveAnalysis",
    "OmniscientBot",
    "RolloutBot",
    "SamplerBot",
    "SearchBot",
    "analyse",
]

World: TypeAlias = "Callable[[random.Random], Round]"

# SearchBot's search settings. Of the variants tried at equal simulations, playouts without the
# double bonus lost clearly (58 rating points) and playouts that keep follow-ups gained nothing.
_EXPLORATION = 0.7
_RANDOMNESS = 0.15
_DOUBLE_BONUS = 12
_WORLDS = 32
_PER_WORLD = 8  # simulations per new world: a sample costs several simulations, so a short search takes fewer
SIMULATIONS = 1000
# RolloutBot's: rollouts a move by default (about 40 ms compiled), and the weight of the score
# margin beside the opponents beaten (0.1 played level with opponents beaten alone in
# four-player ladders and better in two-player ones, where there is only one opponent to beat).
ROLLOUTS = 500
_MARGIN_WEIGHT = 0.1


def _check_budget(simulations: int, seconds: float | None) -> None:
    if type(simulations) is not int or simulations < 1:
        raise ValueError(f"simulations must be a whole number of 1 or more, got {simulations!r}")
    if seconds is not None and (type(seconds) not in (int, float) or not 0 < seconds < math.inf):
        # A budget of inf or NaN would never end the search; 0 or less would search nothing.
        raise ValueError(f"seconds must be a finite number above 0 (or None for simulations), got {seconds!r}")


def _searcher(rng: random.Random) -> Searcher:
    return Searcher(_EXPLORATION, _RANDOMNESS, _DOUBLE_BONUS, rng.getrandbits(64))


def _search(
    world: World,
    rng: random.Random,
    simulations: int,
    seconds: float | None,
    worlds: int,
    each: Callable[[Searcher, tuple[int, ...]], None] | None = None,
) -> tuple[Searcher, int]:
    """Runs simulations until the budget is spent, a new world every few (at most ``worlds``); gets the tree, count."""
    searcher = _searcher(rng)
    sampled: list[Round] = []
    clock = time.thread_time
    deadline = None if seconds is None else clock() + seconds
    done = 0
    while done < simulations if deadline is None else clock() < deadline:
        if len(sampled) < worlds and len(sampled) * _PER_WORLD <= done:
            sampled.append(world(rng))
        scores = searcher.simulate(sampled[done % len(sampled)])
        if each is not None:
            each(searcher, scores)
        done += 1
    return searcher, done


def _most_visited(moves: tuple[Move, ...], root: Node) -> Move:
    children = root.children
    return max(moves, key=lambda move: children[code].visits if (code := move_code(move)) in children else -1)


def _view_world(view: PlayerView) -> World:
    """Gets how to sample worlds for ``view``: :func:`~chickenfoot.determinize`, or for a position without history, a
    deal of the unseen tiles at random."""
    if view.history or len(view.board.nodes) == 1:
        return Worlds(view).sample
    settings = settings_for(view.rules)
    layout = view.board._layout
    unseen = [tile.index for tile in view.unseen]
    mine = tuple(tile.index for tile in view.hand)
    drawn = NONE if view.drawn is None else view.drawn.index
    current = view.current_player if view.current_player is not None else view.player

    def deal(rng: random.Random) -> Round:
        tiles = list(unseen)
        shuffle(rng, tiles)
        hands: list[tuple[int, ...]] = []
        at = 0
        for seat, size in enumerate(view.hand_sizes):
            if seat == view.player:
                hands.append(mine)
            else:
                hands.append(tuple(tiles[at : at + size]))
                at += size
        return round_on(
            settings,
            layout,
            hands=tuple(hands),
            yard=tuple(tiles[at:]),
            current=current,
            reserve=view.reserve,
            drawn=drawn,
        )

    return deal


class _Budgeted:
    """Holds what every search bot has: a budget of simulations (or CPU seconds) a move, and a seed."""

    def __init__(self, simulations: int, *, seconds: float | None = None, seed: int = 0) -> None:
        """Builds the bot with a budget of ``simulations`` a move (or ``seconds`` of CPU time) and a seed."""
        _check_budget(simulations, seconds)
        self.simulations = simulations
        self.seconds = seconds
        self.seed = seed

    def __repr__(self) -> str:
        budget = f", seconds={self.seconds}" if self.seconds is not None else ""
        return f"{type(self).__name__}(simulations={self.simulations}{budget}, seed={self.seed}{self._tuning()})"

    def _tuning(self) -> str:
        """Gets the repr's part for the settings changed from their defaults."""
        return ""


class _WorldSearch(_Budgeted):
    """Holds what the tree search bots share: a budget, a seed, and the worlds sampled a move."""

    _default_worlds = _WORLDS  # left out of the repr when unchanged

    def __init__(
        self, simulations: int = SIMULATIONS, *, seconds: float | None = None, seed: int = 0, worlds: int = _WORLDS
    ) -> None:
        """Builds the bot with a budget of ``simulations`` a move (or ``seconds`` of CPU time), a seed and worlds."""
        super().__init__(simulations, seconds=seconds, seed=seed)
        if type(worlds) is not int or worlds < 1:
            raise ValueError(f"worlds must be a whole number of 1 or more, got {worlds!r}")
        self.worlds = worlds

    def _tuning(self) -> str:
        return f", worlds={self.worlds}" if self.worlds != self._default_worlds else ""


class SamplerBot(_WorldSearch):
    """Searches the round with SO-ISMCTS on the core's integers: well ahead of SearchBot at the same CPU time a move.

    Each simulation takes a world from :func:`~chickenfoot.determinize` (the hidden tiles dealt
    consistently with the view and its public history), walks one tree shared by every world
    (UCB1 with availability counts), expands one move, and plays the round out with a cheap
    policy (the most valuable play, a double first, a random move 15% of the time), crediting
    every player with ``1 - score / worst score``. It plays the most visited move. Unlike
    :class:`SearchBot` it never builds the public objects inside the search, and the search
    is compiled with the core (``pip install .``), so it runs several times as many simulations
    in the same time. The budget is ``simulations`` per move, or ``seconds`` of CPU time if given
    (reproducible only with simulations). A forced move is made without search.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> SamplerBot(simulations=50, seed=1)(view) in view.legal_moves
    True
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the most visited move at the root after the search."""
        moves = moves_to_choose(view)
        if len(moves) == 1:
            return moves[0]
        rng = view_rng(self.seed, view)
        searcher, _ = _search(_view_world(view), rng, self.simulations, self.seconds, self.worlds)
        return _most_visited(moves, searcher.root)


class OmniscientBot(_WorldSearch):
    """Cheats: sees every hand (not the order of the yard) and searches the true round, an upper bound for fair bots.

    The same search as :class:`SamplerBot`, on the real hands, the yard shuffled afresh for each
    of ``worlds`` worlds. It cannot play from a view: :func:`play_out` (so tournaments and
    ladders) hands it the whole game through :meth:`see`, and only when it is named, as
    ``omniscient``; tables mark it as cheating.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=7)
    >>> OmniscientBot(simulations=50).see(game) in cf.legal_moves(game)
    True
    """

    cheats = True
    """Marks a bot that sees more than its view."""

    def __call__(self, view: PlayerView) -> Move:
        """Refuses: a view hides what this bot plays by. Use :meth:`see` (play_out and tournaments do)."""
        raise TypeError(
            "OmniscientBot sees every hand, so it chooses from the whole game: call bot.see(game), or let "
            "play_out, a tournament or a ladder seat it"
        )

    def see(self, game: GameState) -> Move:
        """Returns the move to make in ``game``, seeing every hand (the player to move's turn)."""
        view = observe(game, game.current_player) if game.current_player is not None else None
        if view is None:
            raise ValueError("the game is over: there is no move to make")
        moves = moves_to_choose(view)
        if len(moves) == 1:
            return moves[0]
        rng = view_rng(self.seed, view)
        true = game._round

        def world(rng: random.Random) -> Round:
            yard = list(true.yard)
            shuffle(rng, yard)
            return true.moved(
                true.setup,
                hands=true.hands,
                yard=tuple(yard),
                current=true.current,
                drawn=true.drawn,
                over=False,
                went_out=NONE,
                log=true.log,
            )

        searcher, _ = _search(world, rng, self.simulations, self.seconds, self.worlds)
        return _most_visited(moves, searcher.root)


@attrs.frozen
class MoveAnalysis:
    """What the search found about one legal move: the mover's expected round score after it, and the line expected.

    ``score``, ``low``, ``high`` and ``visits`` are those of a bot protocol ``info`` line's ``moves``.
    """

    move: Move
    """The move."""
    score: float
    """The mover's expected score for the round if they make it (lower is better); NaN if never tried."""
    low: float
    """The low end of the 95% confidence interval of ``score`` (normal, over its simulations); NaN below 2."""
    high: float
    """The high end of that interval."""
    visits: int
    """The simulations that began with this move."""
    win: float | None
    """The mover's chance of winning the game after it (the rest of the game played out by the playout policy),
    or ``None`` for a position written without its game."""
    line: tuple[Move, ...]
    """The line of play the search expects, this move first (every player's moves, most visited at each step)."""


@attrs.frozen
class Analysis:
    """Holds the analysis of a position: every legal move, best first, and what the search spent.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=2, seed=7)
    >>> analysis = analyse(cf.observe(game, game.current_player), simulations=200)
    >>> len(analysis.moves) == len(cf.legal_moves(game)), analysis.best == analysis.moves[0].move
    (True, True)
    """

    player: int
    """The seat analysed, the player to move."""
    simulations: int
    """The simulations run."""
    moves: tuple[MoveAnalysis, ...]
    """Every legal move, the most visited first (the one a search bot would play)."""

    @property
    def best(self) -> Move:
        """Gets the move the search prefers."""
        return self.moves[0].move


def analyse(
    view: PlayerView, *, simulations: int | None = None, seconds: float | None = None, seed: int = 0
) -> Analysis:
    """Searches ``view``'s position and returns every legal move with its estimate, interval, visits and line.

    The search is :class:`SamplerBot`'s, over worlds consistent with the view; give a budget of
    ``simulations`` (default 2,000) or ``seconds`` of CPU time (not reproducible). ``score`` is
    the mover's mean score for the round over the simulations that began with the move, with a
    95% normal interval; ``win`` the share of those in which the mover went on to win the game,
    the remaining rounds dealt afresh and played by the playout policy. A view of a position
    without its history (a position in the notation) is searched by dealing the unseen tiles at
    random: nothing proves more; it has no game, so no ``win``.

    Raises :class:`ValueError` if it is not the view's player's turn.
    """
    if simulations is not None and seconds is not None:
        raise ValueError("give analyse a budget of simulations or of seconds, not both")
    budget = 2000 if simulations is None else simulations
    _check_budget(budget, seconds)
    moves = moves_to_choose(view)
    rng = view_rng(seed, view)
    in_game = bool(view.history) or len(view.board.nodes) == 1
    codes = [move_code(move) for move in moves]
    wins = dict.fromkeys(codes, 0.0)
    rules = view.rules
    dealer = deal_for(rules, view.players)
    rounds_left = range(view.round_index + 1, rules.rounds)
    # Its own generators deal and play the later rounds, so the search runs as the sampler bot's would.
    future = random.Random(f"chickenfoot-analyse/{seed}/{view.round_index}/{len(view.history)}")
    player = _searcher(future)

    def tally(searcher: Searcher, scores: tuple[int, ...]) -> None:
        totals = [total + score for total, score in zip(view.totals, scores, strict=True)]
        history = [*view.round_scores, scores]
        for round_index in rounds_left:
            later = player.play_out(dealer.deal(future.getrandbits(64), round_index)).scores()
            totals = [total + score for total, score in zip(totals, later, strict=True)]
            history.append(later)
        won = winners(tuple(totals), tuple(history), dealer.settings.share_ties)
        if view.player in won:
            wins[searcher.first] += 1 / len(won)

    searcher, done = _search(_view_world(view), rng, budget, seconds, _WORLDS, tally if in_game else None)
    rows = []
    for move, code in zip(moves, codes, strict=True):
        node = searcher.root.children.get(code)
        visits = 0 if node is None else node.visits
        score = low = high = math.nan
        if node is not None and visits:
            score = node.score / visits
            if visits > 1:
                spread = max(node.square / visits - score * score, 0.0) * visits / (visits - 1)
                half = 1.96 * math.sqrt(spread / visits)
                low, high = score - half, score + half
        win = (wins[code] / visits if visits else math.nan) if in_game else None
        rows.append(MoveAnalysis(move, score, low, high, visits, win, _line(node, code)))
    rows.sort(key=lambda row: -row.visits)
    return Analysis(player=view.player, simulations=done, moves=tuple(rows))


def _line(node: Node | None, code: int) -> tuple[Move, ...]:
    """Follows the most visited child from ``node`` (reached by ``code``), as public moves."""
    codes = [code]
    while node is not None and node.children:
        code, node = max(node.children.items(), key=lambda item: item[1].visits)
        if node.visits < 2:
            break
        codes.append(code)
    table = MOVES.onto_nodes(max(code_onto(code) for code in codes) + 1)
    return tuple(table[code] for code in codes)


class RolloutBot(_Budgeted):
    """Improves on :class:`GreedyBot` by rollouts: tries every legal move in worlds sampled from the view.

    Each world is a round consistent with the view (:func:`~chickenfoot.determinize`'s
    sampling). In it, every legal move is played and the round finished by every seat making
    :class:`GreedyBot`'s choice, so the moves are compared on the same hidden tiles and the
    same later play (common random numbers: the luck of the world cancels out of the
    comparison). A round's result for the mover is the opponents it beats less those who beat
    it, plus a tenth of its margin (the others' mean score less its own: ten points of margin
    weigh as much as an opponent beaten). It plays the move with the best total (the first of
    equals, in the order of the view's legal moves). A rollout algorithm: each move is judged by
    what GreedyBot's play makes of it afterwards.

    The budget is ``simulations`` rollouts a move (a world costs one per legal move), or
    ``seconds`` of CPU time if given (reproducible only with simulations). A forced move is made
    without search. Its playouts are compiled with the core (``pip install .``).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> RolloutBot(simulations=50, seed=1)(view) in view.legal_moves
    True
    """

    def __init__(self, simulations: int = ROLLOUTS, *, seconds: float | None = None, seed: int = 0) -> None:
        """Builds the bot with a budget of ``simulations`` rollouts a move (or ``seconds`` of CPU time) and a seed."""
        super().__init__(simulations, seconds=seconds, seed=seed)

    def __call__(self, view: PlayerView) -> Move:
        """Returns the move with the best total result over the worlds sampled."""
        moves = moves_to_choose(view)
        if len(moves) == 1:
            return moves[0]
        rng = view_rng(self.seed, view)
        world = _view_world(view)
        codes = [move_code(move) for move in moves]
        totals = [0.0] * len(codes)
        clock = time.thread_time
        deadline = None if self.seconds is None else clock() + self.seconds
        done = 0
        while done < self.simulations if deadline is None else clock() < deadline:
            state = world(rng)
            for at, code in enumerate(codes):
                totals[at] += _standing(greedy_playout(state.after(code)).scores(), view.player)
            done += len(codes)
        return moves[max(range(len(codes)), key=totals.__getitem__)]


def _standing(scores: tuple[int, ...], seat: int) -> float:
    """Gets ``seat``'s result in a round: opponents beaten less opponents ahead, plus a tenth of its margin."""
    mine = scores[seat]
    beaten = sum(1 for score in scores if score > mine) - sum(1 for score in scores if score < mine)
    margin = (sum(scores) - mine) / (len(scores) - 1) - mine
    return beaten + _MARGIN_WEIGHT * margin


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


_SEARCH_BOT_EXPLORATION = 0.7  # SearchBot's default UCT exploration constant
_SEARCH_BOT_WORLDS = 20  # SearchBot's default number of determinized deals per decision


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

    _default_worlds = _SEARCH_BOT_WORLDS

    def __init__(
        self,
        simulations: int = 100,
        *,
        seconds: float | None = None,
        seed: int = 0,
        exploration: float = _SEARCH_BOT_EXPLORATION,
        worlds: int = _SEARCH_BOT_WORLDS,
    ) -> None:
        """Builds a search bot with a budget of ``simulations`` per move (or ``seconds`` of CPU time) and a seed."""
        super().__init__(simulations, seconds=seconds, seed=seed, worlds=worlds)
        if not 0 <= exploration < math.inf:  # also refuses NaN
            raise ValueError(f"exploration must be a finite number of 0 or more, got {exploration!r}")
        self.exploration = exploration

    def _tuning(self) -> str:
        tuning = f", exploration={self.exploration}" if self.exploration != _SEARCH_BOT_EXPLORATION else ""
        return tuning + super()._tuning()

    def __call__(self, view: PlayerView) -> Move:
        """Returns the most visited move at the root after the search."""
        moves = moves_to_choose(view)
        if len(moves) == 1:
            return moves[0]
        rng = view_rng(self.seed, view)
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
