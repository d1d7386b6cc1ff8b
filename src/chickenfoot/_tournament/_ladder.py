"""Ladders: many bots rated on one scale from duplicate deals.

Deal ``d`` of a ladder seats one table of bots (``players`` of them, the tables cycling through
every such group of the ladder's bots in an order shuffled by the seed) and plays the same deal
once per seating: every rotation of the table (or, asked for, every permutation). So each bot
holds each hand of the deal once, and the luck of the deal cancels out of the comparisons. A
game is played by :func:`~chickenfoot.tournament.play_game` with the bots in seat order, so any
entrant a tournament takes plays in a ladder, program bots included, on local processes or Ray.

The ratings are a Bradley-Terry fit (:mod:`chickenfoot._tournament._rating`) of every pairwise result at a
table: by default, in each round, each two bots at the table, the lower round score winning
(``unit="game"``: the lower final total). Intervals are percentiles of a bootstrap over deals,
the unit that was sampled, so the rounds and seatings of one deal, which share its tiles, are
never counted as independent.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, TypeAlias

import attrs

from .. import supervisor
from .._bots import bot_name, check_spec
from .._core import shuffle
from .._game import BotSpecError, Rules
from ._ladder_rating import LadderGame, Unit, _analysis, _interval, _resample
from ._matches import (
    Backend,
    Entrant,
    GameOutcome,
    Progress,
    Task,
    check_entrant,
    check_for_workers,
    check_portable,
    check_starts,
    derive_seed,
    in_order,
    play_task,
    worker_pool,
)

__all__ = ["Comparison", "LadderResult", "Rating", "Seating", "cheats", "run_ladder"]

Seating: TypeAlias = Literal["rotations", "permutations"]
"""How a deal is replayed: every rotation of its table's seats, or every permutation."""

_FORMAT = 1  # the log's format version
_SAMPLES = 1000  # bootstrap samples
_RAY_CHUNK = 64  # games per batch on Ray, between writes to the log


def cheats(entry: Entrant) -> bool:
    """Tells whether a lineup entry sees more than its view: the ``omniscient`` bot, or an object marked ``cheats``.

    >>> cheats("omniscient:20ms"), cheats("greedy")
    (True, False)
    """
    if isinstance(entry, str):
        return check_spec(entry)[0] == "omniscient"
    return getattr(entry, "cheats", False) is True


@attrs.frozen
class Rating:
    """Places one bot on the ladder's scale, with what it scored.

    Intervals are 95% bootstrap intervals over deals.
    """

    bot: str
    """The bot's name (see :func:`~chickenfoot.bots.bot_name`)."""
    cheats: bool
    """Whether it sees more than its view (the omniscient bot): an upper bound, not a rival."""
    rating: float
    """Its rating in Elo points, the anchor at 0: 100 points more is a 64% chance of beating a bot."""
    low: float
    """The low end of the rating's interval."""
    high: float
    """The high end of the rating's interval."""
    games: int
    """The games it played (one seat each)."""
    mean_round_score: float
    """Its mean score per round (lower is better)."""
    score_low: float
    """The low end of the mean score's interval."""
    score_high: float
    """The high end of the mean score's interval."""
    win_rate: float
    """Its share of game wins per game played (a shared win counts as a fraction)."""
    faults: int = 0
    """The moves it forfeited (a program that answered wrong, crashed or timed out)."""


@attrs.frozen
class Comparison:
    """Compares two bots: the rating gap, and how they did at the tables where both sat, paired by deal.

    Intervals are 95% bootstrap intervals over deals.
    """

    first: str
    """The first bot's name."""
    second: str
    """The second bot's name."""
    rating_difference: float
    """The first's rating minus the second's."""
    low: float
    """The low end of the rating difference's interval."""
    high: float
    """The high end of the rating difference's interval."""
    deals: int
    """The deals at which both sat at the table; the paired figures below are over them (NaN if none)."""
    score_difference: float
    """The first's mean round score minus the second's at those tables (below 0: the first scored less)."""
    score_low: float
    """The low end of the score difference's interval."""
    score_high: float
    """The high end of the score difference's interval."""
    first_ahead: float
    """The share of their head-to-head results (rounds, or games by ``unit``) the first won, ties counting half."""


@attrs.frozen(repr=False)
class LadderResult:
    """Holds every game of a ladder, and rates the bots from them.

    Its ``repr`` is one line; ``print(result)`` (or :meth:`table`) shows the ratings table.

    >>> from chickenfoot import Rules
    >>> result = run_ladder(["greedy", "random"], deals=4, rules=Rules.trains(max_pip=6), seed=1, workers=1)
    >>> [rating.bot for rating in result.ratings()], result.ratings()[1].rating
    (['greedy', 'random'], 0.0)
    >>> result
    LadderResult(bots=('greedy', 'random'), players=2, deals=4, games=8, seed=1)
    """

    rules: Rules
    """The rules played."""
    players: int
    """The players at each table."""
    bots: tuple[str, ...]
    """The bots' names, in the order given."""
    cheating: tuple[bool, ...]
    """For each bot, whether it sees more than its view (see :func:`cheats`)."""
    seed: int
    """The ladder's seed."""
    seating: Seating
    """How each deal was replayed."""
    games: tuple[LadderGame, ...]
    """The games, deal by deal."""
    labels: tuple[str, ...] = attrs.field(default=(), eq=False)
    """Each bot's name as tables show it, in the order of :attr:`bots`: a program's handshake name
    (numbered if two share one), else its name; empty for a result built without them (tables then
    show :attr:`bots`)."""

    def __repr__(self) -> str:
        """Sums the ladder up in one line; its games are in :attr:`games`, its ratings in :meth:`table`."""
        return (
            f"LadderResult(bots={self.bots!r}, players={self.players}, deals={self.deals}, "
            f"games={len(self.games)}, seed={self.seed})"
        )

    def __str__(self) -> str:
        """Shows the ratings table (:meth:`table`), so ``print(result)`` prints it."""
        return self.table()

    def label(self, bot: str) -> str:
        """Gets bot ``bot``'s name (as in :attr:`bots`) as tables show it: see :attr:`labels`."""
        at = self._index(bot)
        return self.labels[at] if len(self.labels) == len(self.bots) else bot

    def table(self, *, unit: Unit = "round", anchor: str | None = None) -> str:
        """Writes the ratings as a plain-text table, best first, as ``chickenfoot ladder`` prints them.

        Bots show by :attr:`labels`, with a legend for each whose label is not its name; a bot that
        cheats is marked, and one that forfeited moves says how many. Intervals are 95% bootstrap
        intervals over deals.

        >>> from chickenfoot import Rules
        >>> result = run_ladder(["greedy", "random"], deals=4, rules=Rules.trains(max_pip=6), seed=1, workers=1)
        >>> print(result.table())
        4 deals, 8 games, 2 players, seed 1; rated by round
        bot              rating        score/round  wins  games
        greedy  +328 [303, 356]   11.8 [8.4, 15.2]  100%      8
        random       0 (anchor)  25.1 [21.4, 28.7]    0%      8
        """
        return "\n".join(_table_lines(self, self.ratings(unit=unit, anchor=anchor), unit))

    @property
    def deals(self) -> int:
        """Counts the deals played (a deal is counted once any of its games is)."""
        return len({game.deal for game in self.games})

    def ratings(
        self, *, unit: Unit = "round", anchor: str | None = None, samples: int = _SAMPLES
    ) -> tuple[Rating, ...]:
        """Rates every bot, best first: ``anchor`` (default: the weakest) is held at 0, ``samples`` bootstrap samples.

        A cheating bot is rated with the rest, and marked (:attr:`Rating.cheats`).
        """
        analysis = _analysis(len(self.bots), self.games, self.seed, unit, self._anchor(anchor, unit), samples)
        rows = []
        for bot, name in enumerate(self.bots):
            low, high = _interval([sample[bot] for sample in analysis.samples])
            score_low, score_high = _interval(analysis.score_samples[bot])
            games = analysis.games[bot]
            rows.append(
                Rating(
                    bot=name,
                    cheats=self.cheating[bot],
                    rating=analysis.ratings[bot],
                    low=low,
                    high=high,
                    games=games,
                    mean_round_score=analysis.scores[bot],
                    score_low=score_low,
                    score_high=score_high,
                    win_rate=analysis.wins[bot] / games if games else math.nan,
                    faults=analysis.faults[bot],
                )
            )
        return tuple(sorted(rows, key=lambda row: -row.rating if math.isfinite(row.rating) else math.inf))

    def compare(
        self, first: str, second: str, *, unit: Unit = "round", anchor: str | None = None, samples: int = _SAMPLES
    ) -> Comparison:
        """Compares bot ``first`` with bot ``second`` (names as in :attr:`bots`)."""
        a, b = self._index(first), self._index(second)
        analysis = _analysis(len(self.bots), self.games, self.seed, unit, self._anchor(anchor, unit), samples)
        low, high = _interval([sample[a] - sample[b] for sample in analysis.samples])
        shared = [deal for deal in analysis.deals if a in deal.seated and b in deal.seated]
        differences = [deal.difference(a, b) for deal in shared]
        ahead = sum(deal.wins[a][b] for deal in shared)
        met = ahead + sum(deal.wins[b][a] for deal in shared)
        rng = random.Random(f"chickenfoot-ladder/compare/{self.seed}")
        resampled = []
        for _ in range(samples if len(shared) > 1 else 0):
            picks = [deal.difference(a, b) for deal in _resample(shared, rng)]
            resampled.append(sum(picks) / len(picks))
        score_low, score_high = _interval(resampled)
        return Comparison(
            first=first,
            second=second,
            rating_difference=analysis.ratings[a] - analysis.ratings[b],
            low=low,
            high=high,
            deals=len(shared),
            score_difference=sum(differences) / len(differences) if shared else math.nan,
            score_low=score_low,
            score_high=score_high,
            first_ahead=ahead / met if met else math.nan,
        )

    def _index(self, name: str) -> int:
        if name not in self.bots:
            raise ValueError(f"no bot {name!r} in this ladder: its bots are {', '.join(self.bots)}")
        return self.bots.index(name)

    def _anchor(self, name: str | None, unit: Unit) -> int:
        if name is not None:
            return self._index(name)
        # The weakest: every other rating then reads as a gain over it.
        ratings = _analysis(len(self.bots), self.games, self.seed, unit, 0, 0).ratings
        return min(range(len(self.bots)), key=lambda bot: ratings[bot] if math.isfinite(ratings[bot]) else math.inf)


def _bracket(low: float, high: float, digits: int) -> str:
    return "" if math.isnan(low) else f" [{low:.{digits}f}, {high:.{digits}f}]"


def _table_lines(result: LadderResult, ratings: tuple[Rating, ...], unit: Unit) -> list[str]:
    """Lays the ratings out in aligned columns, with the title above and the legend below."""
    rows = [("bot", "rating", "score/round", "wins", "games")]
    for rating in ratings:
        name = result.label(rating.bot) + (" (cheats)" if rating.cheats else "")
        if rating.faults:
            name += f" ({rating.faults} moves forfeited)"
        anchored = rating.low == rating.high == rating.rating == 0
        rows.append(
            (
                name,
                "0 (anchor)" if anchored else f"{rating.rating:+.0f}{_bracket(rating.low, rating.high, 0)}",
                f"{rating.mean_round_score:.1f}{_bracket(rating.score_low, rating.score_high, 1)}",
                f"{rating.win_rate:.0%}",
                str(rating.games),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(5)]
    title = f"{result.deals} deals, {len(result.games)} games, {result.players} players, seed {result.seed}; "
    lines = [title + f"rated by {unit}"]
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))]
        lines.append("  ".join(cells).rstrip())
    lines += [f"{result.label(bot)}: {bot}" for bot in result.bots if result.label(bot) != bot]
    return lines


# -- scheduling ------------------------------------------------------------------------------


def _tables(bots: int, players: int, seed: int) -> list[tuple[int, ...]]:
    """Lists every group of ``players`` bots, in an order shuffled by ``seed``: deal ``d`` seats group ``d mod len``."""
    tables = list(itertools.combinations(range(bots), players))
    order = list(range(len(tables)))
    shuffle(random.Random(derive_seed("ladder-tables", seed)), order)  # the core's shuffle: the same on every Python
    return [tables[at] for at in order]


def _seatings(table: tuple[int, ...], seating: Seating) -> list[tuple[int, ...]]:
    """Lists the seatings a deal is played with: seat ``s`` of rotation ``r`` takes ``table[(s + r) % n]``."""
    if seating == "permutations":
        return list(itertools.permutations(table))
    players = len(table)
    return [tuple(table[(seat + turn) % players] for seat in range(players)) for turn in range(players)]


def _schedule(
    bots: int, players: int, seed: int, seating: Seating, deals: int
) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Yields every ``(deal, seating)`` of a ladder, in play order."""
    tables = _tables(bots, players, seed)
    for deal in range(deals):
        for seats in _seatings(tables[deal % len(tables)], seating):
            yield deal, seats


# -- playing ---------------------------------------------------------------------------------


def run_ladder(
    bots: Sequence[Entrant],
    deals: int,
    *,
    rules: Rules | None = None,
    players: int = 2,
    seed: int = 0,
    seating: Seating = "rotations",
    workers: int | None = None,
    backend: Backend = "local",
    address: str | None = None,
    progress: Progress | None = None,
    log: str | os.PathLike[str] | None = None,
) -> LadderResult:
    """Plays ``deals`` duplicate deals between ``bots``, ``players`` at a table, and returns the games to rate them.

    Each deal seats one group of ``players`` bots and is played once per seating (``"rotations"``:
    ``players`` games; ``"permutations"``: every order). The entries are those of
    :func:`~chickenfoot.tournament.run_tournament` (bot names, bot objects, program bots), each
    once; the ``omniscient`` bot plays only when named, and is marked as cheating. ``workers``,
    ``backend`` and ``address`` are as for tournaments. With ``log``, every finished game is
    appended to that file as a JSON line, and a ladder started again with the same file plays
    only the games it lacks (``deals`` may grow). The games, so the ratings, are the same for a
    seed whatever the workers or backend, and whether resumed or not, as long as every bot's
    budget is a number of simulations (a time budget depends on the machine).

    >>> from chickenfoot import Rules
    >>> result = run_ladder(["greedy", "heaviest", "random"], deals=3, rules=Rules.trains(max_pip=6), workers=1)
    >>> len(result.games), sorted({game.seating for game in result.games if game.deal == 0})
    (6, [(0, 2), (2, 0)])
    """
    rules = Rules.trains() if rules is None else rules
    entries = tuple(bots)
    names = _checked_names(entries, deals, rules, players, seating, workers, backend)
    labels = _numbered(check_starts(entries))  # every program started once, every py: bot built, before any game
    header = _log_header(rules, players, names, seed, seating)
    path = None if log is None else Path(log)
    done = {} if path is None else _read_log(path, header)
    schedule = list(_schedule(len(entries), players, seed, seating, deals))
    todo = [key for key in schedule if key not in done]
    tag = supervisor.new_tag()
    tasks = (_task(rules, entries, seed, deal, seats, tag) for deal, seats in todo)
    outcomes = _outcomes(entries, tasks, len(todo), workers, backend, address)
    try:
        _collect(
            zip(todo, outcomes, strict=True), done, path, header, progress, len(schedule) - len(todo), len(schedule)
        )
    finally:
        supervisor.sweep(tag)  # whatever a killed worker left behind, as a tournament does
    games = tuple(done[key] for key in schedule)
    return LadderResult(
        rules=rules,
        players=players,
        bots=names,
        cheating=tuple(map(cheats, entries)),
        seed=seed,
        seating=seating,
        games=games,
        labels=labels,
    )


def _numbered(names: tuple[str, ...]) -> tuple[str, ...]:
    """Numbers the names two bots share (``first #1``, ``first #2``), as a tournament's table does.

    >>> _numbered(("first", "greedy", "first"))
    ('first #1', 'greedy', 'first #2')
    """
    counts = {name: names.count(name) for name in names}
    seen: dict[str, int] = {}
    shown = []
    for name in names:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name} #{seen[name]}"
        shown.append(name)
    return tuple(shown)


def _log_header(rules: Rules, players: int, names: tuple[str, ...], seed: int, seating: Seating) -> dict[str, Any]:
    """Gets the first line of a ladder's log: what its games depend on, so a resumed ladder matches it."""
    return {
        "chickenfoot-ladder": _FORMAT,
        "rules": attrs.asdict(rules),
        "players": players,
        "bots": list(names),
        "seed": seed,
        "seating": seating,
    }


def _checked_names(
    entries: tuple[Entrant, ...],
    deals: int,
    rules: Rules,
    players: int,
    seating: Seating,
    workers: int | None,
    backend: Backend,
) -> tuple[str, ...]:
    """Checks a ladder's arguments, saying what is wrong with the first that is; gets the bots' names."""
    for at, entry in enumerate(entries):
        check_entrant(at, entry)
    names = tuple(bot_name(entry) for entry in entries)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise BotSpecError(f"a ladder takes each bot once; {', '.join(repeated)} appears more than once")
    rules.check_players(players)
    if len(entries) < players:
        raise ValueError(f"a ladder of {players}-player games needs {players} or more bots, got {len(entries)}")
    if type(deals) is not int or deals < 1:
        raise ValueError(f"deals must be a whole number of 1 or more, got {deals!r}")
    if seating not in ("rotations", "permutations"):
        raise ValueError(f"seating must be 'rotations' or 'permutations', got {seating!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of 1 or more, got {workers!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    return names


def _collect(
    finished: Iterable[tuple[tuple[int, tuple[int, ...]], GameOutcome]],
    done: dict[tuple[int, tuple[int, ...]], LadderGame],
    path: Path | None,
    header: dict[str, Any],
    progress: Progress | None,
    reached: int,
    total: int,
) -> None:
    """Records each finished game in ``done``, and appends it to the log at ``path`` (if any) as it comes."""
    sink = None
    if path is not None:
        fresh = not path.exists() or path.stat().st_size == 0
        sink = path.open("a", encoding="utf-8")
        if fresh:
            sink.write(json.dumps(header) + "\n")
    try:
        for key, outcome in finished:
            game = done[key] = _ladder_game(key, outcome)
            if sink is not None:
                sink.write(json.dumps(attrs.asdict(game)) + "\n")
                sink.flush()
            reached += 1
            if progress is not None:
                progress(reached, total)
    finally:
        if sink is not None:
            sink.close()


def _ladder_game(key: tuple[int, tuple[int, ...]], outcome: GameOutcome) -> LadderGame:
    """Gets the ladder's record of one finished game: its deal and seating, and the scores and faults by seat."""
    return LadderGame(
        deal=key[0],
        seating=key[1],
        round_scores=outcome.round_scores,
        totals=outcome.totals,
        winners=outcome.winners,
        faults=tuple(report.fault_count + report.stopped for report in outcome.reports),
    )


def _task(rules: Rules, entries: tuple[Entrant, ...], seed: int, deal: int, seats: tuple[int, ...], tag: str) -> Task:
    """Makes the tournament task playing ``deal`` with ``seats``: game 0 of a one-game tournament seeded by the deal."""
    return (rules, tuple(entries[bot] for bot in seats), derive_seed("ladder", seed, deal), 0, False, tag)


def _outcomes(
    entries: tuple[Entrant, ...],
    tasks: Iterable[Task],
    count: int,
    workers: int | None,
    backend: Backend,
    address: str | None,
) -> Iterator[GameOutcome]:
    """Plays the tasks where asked, yielding each outcome in task order as soon as it and those before are done."""
    if not count:
        return
    if backend == "ray":
        from ._ray import cloudpickle_dumps, run_on_ray

        check_portable(entries, cloudpickle_dumps(), "Ray workers")
        # Ray hands results back a batch at a time; batches keep the log close behind the games.
        iterator = iter(tasks)
        while batch := list(itertools.islice(iterator, _RAY_CHUNK)):
            yield from run_on_ray(play_task, batch, len(batch), address, None)
        return
    workers = min(workers or os.cpu_count() or 1, count)
    if workers == 1:
        yield from map(play_task, tasks)
        return
    check_for_workers(entries)
    with worker_pool(workers) as pool:  # Ctrl-C or an error stops the games in flight
        yield from in_order(pool, tasks, window=4 * workers)


def _read_log(path: Path, header: dict[str, Any]) -> dict[tuple[int, tuple[int, ...]], LadderGame]:
    """Reads the games a ladder's log holds, checking it was written by the same ladder."""
    done: dict[tuple[int, tuple[int, ...]], LadderGame] = {}
    if not path.exists():
        return done
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        return done
    try:
        written = json.loads(lines[0])
    except json.JSONDecodeError:
        written = None
    if not isinstance(written, dict) or written.get("chickenfoot-ladder") != _FORMAT:
        raise ValueError(f"{path} is not a ladder log: give a new file, or the log of this ladder to resume it")
    for key, value in header.items():
        if written.get(key) != value:
            raise ValueError(
                f"{path} is the log of another ladder (its {key} is {written.get(key)!r}, not {value!r}): "
                "give a new file, or run the ladder it logged"
            )
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
            game = LadderGame(
                deal=int(data["deal"]),
                seating=tuple(map(int, data["seating"])),
                round_scores=tuple(tuple(map(int, scores)) for scores in data["round_scores"]),
                totals=tuple(map(int, data["totals"])),
                winners=tuple(map(int, data["winners"])),
                faults=tuple(map(int, data.get("faults", ()))),
            )
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            if number == len(lines):  # a run stopped while writing its last line: play that game again
                break
            raise ValueError(f"{path}, line {number}: not a game of a ladder log") from None
        done[game.deal, game.seating] = game
    return done
