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
from typing import Final, TypeAlias

import attrs

from .._core import (
    COMPILED,
    EXACT,
    MARGIN,
    NO_LIMIT,
    NONE,
    SCORE,
    Node,
    Round,
    Searcher,
    Table,
    best_play,
    greedy_playout,
    off_board_counts,
    round_on,
    shuffle,
    solve_round,
    winners,
)
from .._game import (
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
    moves_of,
    observe,
    score_round,
    settings_for,
)
from ._simple import moves_to_choose, view_rng

__all__ = [
    "EXACT_NODES",
    "EXACT_TILES",
    "EXACT_WORLDS",
    "ROLLOUTS",
    "SIMULATIONS",
    "Analysis",
    "MoveAnalysis",
    "OmniscientBot",
    "RolloutBot",
    "SamplerBot",
    "SearchBot",
    "SolverBot",
    "Unsolved",
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
# The exact analysis: worlds solved by default, and the positions one solve may search before its
# world is given up (about two seconds compiled, on the machine of docs/performance.md).
EXACT_WORLDS = 30
EXACT_NODES = 2_000_000
# SolverBot's: the tiles in all hands from which it solves, the positions a solve may search
# under a budget of simulations, and the positions a second a solve is given of the time left
# (the compiled solver's rate on the machine of docs/performance.md is 0.3 to 0.95 million, the
# pure Python one's about 0.14 million).
EXACT_TILES = 12
_BOT_NODES = 200_000
_SOLVE_RATE = 300_000 if COMPILED else 100_000
_LEAST_NODES = 1000  # the smallest budget a solve is given, however little time is left
_BOT_TABLE = 1 << 18
"""The most entries SolverBot's transposition table holds (about 50 MB); it is emptied before every move."""


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
    """The simulations run (with ``exact=True``, the worlds solved)."""
    moves: tuple[MoveAnalysis, ...]
    """Every legal move, the most visited first (the one a search bot would play); with ``exact=True``, the lowest
    mean value first."""
    exact: bool = False
    """Whether it is the exact analysis (``exact=True``): worlds solved, not simulations."""

    @property
    def best(self) -> Move:
        """Gets the move the search prefers."""
        return self.moves[0].move


def analyse(
    view: PlayerView,
    *,
    simulations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    exact: bool = False,
    max_nodes: int | None = None,
) -> Analysis:
    """Searches ``view``'s position and returns every legal move with its estimate, interval, visits and line.

    The search is :class:`SamplerBot`'s, over worlds consistent with the view; give a budget of
    ``simulations`` (default 2,000) or ``seconds`` of CPU time (not reproducible). ``score`` is
    the mover's mean score for the round over the simulations that began with the move, with a
    95% normal interval; ``win`` the share of those in which the mover went on to win the game,
    the remaining rounds dealt afresh and played by the playout policy. A view of a position
    without its history (a position in the notation) is searched by dealing the unseen tiles at
    random: nothing proves more; it has no game, so no ``win``.

    With ``exact=True`` it is the double-dummy analysis of bridge programs (perfect-information
    Monte Carlo): each world sampled is solved exactly after every legal move
    (:func:`chickenfoot.solver.solve`'s search, objective ``"score"``), so a move's ``score`` is
    the mean over the worlds of the lowest round score the mover can guarantee in that world
    against the others' best play, with a 95% normal interval over the worlds. ``simulations``
    is then the worlds to solve (default 30), ``visits`` the worlds solved,
    ``win`` is ``None``, and the moves come lowest mean first, each with its line in the first
    world solved. A world whose solve after some move needs more than ``max_nodes`` positions
    (default 2,000,000) is left out (the count of worlds says how many were solved). With
    ``seconds``, at least one world is tried, and a solve may search only what the time left
    allows (300,000 positions a second compiled, 100,000 pure; at least 1,000), so a world may
    be left out for want of time; the deadline is checked between worlds. :class:`ValueError`
    if no world was solved, saying which ran out, the positions or the time (its ``by_time``
    attribute tells).

    Raises :class:`ValueError` if it is not the view's player's turn, and for ``max_nodes``
    without ``exact=True``.
    """
    if simulations is not None and seconds is not None:
        raise ValueError("give analyse a budget of simulations or of seconds, not both")
    if type(exact) is not bool:
        raise TypeError(f"exact is True or False, got {exact!r:.40}")
    if exact:
        return _exact_analysis(view, simulations, seconds, seed, EXACT_NODES if max_nodes is None else max_nodes)
    if max_nodes is not None:
        raise ValueError("max_nodes is the exact analysis's budget: give it with exact=True, or leave it out")
    return _sampled_analysis(view, 2000 if simulations is None else simulations, seconds, seed)


def _sampled_analysis(view: PlayerView, budget: int, seconds: float | None, seed: int) -> Analysis:
    """Searches ``view``'s position with the sampler bot's tree search, and reads every move's figures off its root."""
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


class Unsolved(ValueError):
    """Raised by the exact analysis when no world was solved; :attr:`by_time` tells which budget ran out."""

    def __init__(self, message: str, *, by_time: bool) -> None:
        """Builds the error: the message, and whether the time (not the positions) ran out."""
        super().__init__(message)
        self.by_time = by_time


@attrs.define
class _Worlds:
    """What solving worlds after every move found: each move's values (and their weights), the first world's lines."""

    values: list[list[int]]
    """Each move's value in each world solved, in order."""
    weights: list[float]
    """Each world solved's weight."""
    lines: list[list[int]]
    """Each move's line in the first world solved (empty if none was)."""
    tried: int = 0
    """The worlds tried, the solved ones included."""
    failed: bool = False
    """Whether a solve ran out of positions (its world left out)."""
    by_time: bool = False
    """Whether the last solve that ran out was held to the time left, below the cap of positions."""

    def total(self, at: int) -> float:
        """Gets move ``at``'s weighted sum of values."""
        return sum(weight * value for weight, value in zip(self.weights, self.values[at], strict=True))


def _solve_worlds(
    codes: list[int],
    player: int,
    objective: int,
    world: Callable[[random.Random], tuple[Round, float]],
    rng: random.Random,
    budget: tuple[int, float | None, int],
    table: Table,
    *,
    stop_on_failure: bool,
) -> _Worlds:
    """Solves worlds sampled with ``world`` after every move of ``codes`` for ``player``'s ``objective``.

    ``budget`` is the worlds to try, the deadline (of :func:`time.thread_time`; if given, worlds are
    tried until it passes, at least one), and the cap on the positions of one solve (with a
    deadline, also what the time left allows at :data:`_SOLVE_RATE`). A world in which some solve
    runs out is left out; ``stop_on_failure`` stops at the first such world.
    """
    worlds, deadline, cap = budget
    found = _Worlds([[] for _ in codes], [], [[] for _ in codes])
    clock = time.thread_time
    while found.tried < worlds if deadline is None else (clock() < deadline or found.tried == 0):
        found.tried += 1
        sample, weight = world(rng)
        answers = []
        for code in codes:
            nodes = cap if deadline is None else min(cap, max(_LEAST_NODES, int((deadline - clock()) * _SOLVE_RATE)))
            answer = solve_round(sample.after(code), player, objective, table, nodes)
            if answer.kind != EXACT:
                found.failed = True
                found.by_time = nodes < cap
                break
            answers.append(answer)
        else:
            found.weights.append(weight)
            for at, answer in enumerate(answers):
                found.values[at].append(answer.value)
                if len(found.weights) == 1:
                    found.lines[at] = [codes[at], *answer.line]
            continue
        if stop_on_failure:
            break
    return found


def _exact_analysis(
    view: PlayerView, simulations: int | None, seconds: float | None, seed: int, max_nodes: int
) -> Analysis:
    """Solves worlds sampled for ``view`` exactly after every legal move, and averages each move's values."""
    budget = EXACT_WORLDS if simulations is None else simulations
    _check_budget(budget, seconds)
    if type(max_nodes) is not int:
        raise TypeError(f"max_nodes is a whole number (an int), got {max_nodes!r:.40}")
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be a whole number of 1 or more, got {max_nodes!r}")
    moves = moves_to_choose(view)
    codes = [move_code(move) for move in moves]
    sample = _view_world(view)
    deadline = None if seconds is None else time.thread_time() + seconds
    found = _solve_worlds(
        codes,
        view.player,
        SCORE,
        lambda rng: (sample(rng), 1.0),
        view_rng(seed, view),
        (budget, deadline, max_nodes),
        Table(),
        stop_on_failure=False,
    )
    if not found.weights:
        if found.by_time:
            raise Unsolved(
                f"no world was solved in seconds={seconds}: the time ran out before a world was solved after "
                "every move (give more seconds, or a budget of simulations)",
                by_time=True,
            )
        raise Unsolved(
            f"no world could be solved within max_nodes={max_nodes:,} positions after every move: too many tiles "
            "are left to solve exactly (analyse without exact=True, or raise max_nodes)",
            by_time=False,
        )
    rows = []
    for at, move in enumerate(moves):
        got = found.values[at]
        score = sum(got) / len(got)
        low = high = math.nan
        if len(got) > 1:
            spread = sum((value - score) ** 2 for value in got) / (len(got) - 1)
            half = 1.96 * math.sqrt(spread / len(got))
            low, high = score - half, score + half
        rows.append(MoveAnalysis(move, score, low, high, len(got), None, moves_of(found.lines[at])))
    rows.sort(key=lambda row: row.score)
    return Analysis(player=view.player, simulations=len(found.weights), moves=tuple(rows), exact=True)


def _line(node: Node | None, code: int) -> tuple[Move, ...]:
    """Follows the most visited child from ``node`` (reached by ``code``), as public moves."""
    codes = [code]
    while node is not None and node.children:
        code, node = max(node.children.items(), key=lambda item: item[1].visits)
        if node.visits < 2:
            break
        codes.append(code)
    return moves_of(codes)


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
        deadline = None if self.seconds is None else time.thread_time() + self.seconds
        return self._rolled_out(view, moves, self.simulations, deadline)

    def _rolled_out(self, view: PlayerView, moves: tuple[Move, ...], rollouts: int, deadline: float | None) -> Move:
        """Returns the move with the best total over ``rollouts`` rollouts a move, or until ``deadline`` (of
        :func:`time.thread_time`) if given: at least one world either way."""
        rng = view_rng(self.seed, view)
        world = self._worlds(view)
        codes = [move_code(move) for move in moves]
        totals = [0.0] * len(codes)
        clock = time.thread_time
        done = 0
        while (done < rollouts if deadline is None else clock() < deadline) or done == 0:
            state, weight = world(rng)
            for at, code in enumerate(codes):
                totals[at] += weight * _standing(greedy_playout(state.after(code)).scores(), view.player)
            done += len(codes)
        return moves[max(range(len(codes)), key=totals.__getitem__)]

    def _worlds(self, view: PlayerView) -> Callable[[random.Random], tuple[Round, float]]:
        """Gets how to sample a world for ``view``, with its weight (here 1: every world sampled counts alike)."""
        world = _view_world(view)
        return lambda rng: (world(rng), 1.0)


class SolverBot(RolloutBot):
    """Solves the round exactly in sampled worlds once few tiles are left; before that, plays as :class:`RolloutBot`.

    While the hands hold more than ``exact_tiles`` tiles between them, it is :class:`RolloutBot`
    (greedy playouts from each move over worlds sampled from the view). From there on, each
    world sampled (:func:`~chickenfoot.determinize`'s sampling) is solved exactly after every
    legal move by the compiled solver (:func:`chickenfoot.solver.solve`'s search, objective
    ``"margin"``: its round score less the lowest of the others', every other seat playing
    against it), one transposition table shared by the worlds, and it plays the move with the
    lowest mean value (the first of equals): the double-dummy play of bridge programs. Once a
    solve runs out of its positions (200,000 under a budget of simulations; with ``seconds``,
    300,000 a second left compiled, 100,000 pure, at least 1,000), solving is failing: it
    stops, and plays as :class:`RolloutBot` for that move with what is left of the budget (with
    ``seconds``, the time left; else the rollouts left once each world tried has cost
    ``WORLD_COST``, at least one world of rollouts). Its transposition table is emptied before every move and holds at
    most 262,144 entries (about 50 MB), so a long-lived bot's memory stays bounded.

    With ``infer=True``, both phases weigh each world by how likely the others' moves of the
    round were in it, under a model of their play: at each choice GreedyBot's move with chance
    0.7, and any legal move with the rest spread evenly (the world's deal is replayed through the
    round's history). A world in which an opponent would have thrown away what GreedyBot keeps
    counts for less. It is off by default: at 10 ms a move with four players it lost about 55
    rating points a round against the same bot without it (benchmarks/solver_parts.py).

    The budget is ``simulations`` rollouts a move, of which a solved world costs
    ``WORLD_COST`` (at least one world), or ``seconds`` of CPU time if given, shared by both
    phases (at least one world is tried, so a move may run a little past it).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> SolverBot(simulations=50, seed=1)(view) in view.legal_moves
    True
    """

    WORLD_COST = 20
    """How many rollouts of the budget a world solved exactly counts for."""

    def __init__(
        self,
        simulations: int = ROLLOUTS,
        *,
        seconds: float | None = None,
        seed: int = 0,
        exact_tiles: int = EXACT_TILES,
        infer: bool = False,
    ) -> None:
        """Builds the bot with a budget, a seed, the tiles in all hands from which it solves exactly, and whether it
        weighs the worlds by the others' moves."""
        super().__init__(simulations, seconds=seconds, seed=seed)
        if type(exact_tiles) is not int:
            raise TypeError(f"exact_tiles is a whole number (an int), got {exact_tiles!r:.40}")
        if exact_tiles < 0:
            raise ValueError(f"exact_tiles must be a whole number of 0 or more, got {exact_tiles!r}")
        if type(infer) is not bool:
            raise TypeError(f"infer is True or False, got {infer!r:.40}")
        self.exact_tiles = exact_tiles
        self.infer = infer
        self._table = Table(_BOT_TABLE)

    def _tuning(self) -> str:
        tuning = f", exact_tiles={self.exact_tiles}" if self.exact_tiles != EXACT_TILES else ""
        return tuning + (", infer=True" if self.infer else "")

    def _worlds(self, view: PlayerView) -> Callable[[random.Random], tuple[Round, float]]:
        """Gets how to sample a world for ``view`` with its weight: how likely the others' moves were in it, under
        :class:`GreedyBot`'s preferences (:func:`_likelihood`), when inferring and the view has a history."""
        if not self.infer or not view.history:
            return super()._worlds(view)
        worlds = Worlds(view)
        codes = [move_code(move) for _, move in view.history]
        movers = [seat for seat, _ in view.history]

        def sample(rng: random.Random) -> tuple[Round, float]:
            world = worlds.sample(rng)
            assert worlds.start is not None  # set by every sample of a view with a history
            return world, _likelihood(worlds.start, codes, movers, view.player)

        return sample

    def __call__(self, view: PlayerView) -> Move:
        """Returns the move with the lowest mean exact value over the worlds solved, or RolloutBot's move."""
        moves = moves_to_choose(view)
        if len(moves) == 1:
            return moves[0]
        deadline = None if self.seconds is None else time.thread_time() + self.seconds
        rollouts = self.simulations
        if sum(view.hand_sizes) <= self.exact_tiles:
            worlds = max(1, self.simulations // self.WORLD_COST)
            cap = _BOT_NODES if deadline is None else NO_LIMIT
            codes = [move_code(move) for move in moves]
            self._table.entries.clear()  # a table per move: its memory is the move's, not the bot's life's
            rng = view_rng(self.seed, view)
            budget = (worlds, deadline, cap)
            found = _solve_worlds(
                codes, view.player, MARGIN, self._worlds(view), rng, budget, self._table, stop_on_failure=True
            )
            if not found.failed:
                return moves[min(range(len(codes)), key=found.total)]
            rollouts = max(1, self.simulations - found.tried * self.WORLD_COST)
        return self._rolled_out(view, moves, rollouts, deadline)


_LIKELY: Final = 0.7
"""How likely the model of the others' play (:func:`_likelihood`) makes GreedyBot's choice (the rest: spread evenly)."""


def _likelihood(start: Round, codes: list[int], movers: list[int], viewer: int) -> float:
    """Gets how likely the others' moves ``codes`` (made by ``movers``) were from the round's start ``start``.

    The model of the others' play: at each choice (more than one legal move) a seat other than
    ``viewer`` makes :class:`GreedyBot`'s move with chance :data:`_LIKELY`, and any legal move
    with the rest spread evenly. A world in which the others' moves were what GreedyBot would
    have played is likelier than one in which they threw away what it would have kept.
    """
    state = start
    held = [0] * (start.setup.settings.max_pip + 1)
    weight = 1.0
    for code, mover in zip(codes, movers, strict=True):
        moves = state.legal()
        if mover != viewer and len(moves) > 1:
            chance = (1 - _LIKELY) / len(moves)
            if code == best_play(state, moves, held, off_board_counts(state)):
                chance += _LIKELY
            weight *= chance
        state = state.after(code)
    return weight


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
