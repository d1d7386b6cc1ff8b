"""Checks a statement of the rules, deal by deal and move by move, against :mod:`chickenfoot.reference`.

The rules are stated several times on purpose: the engine, the numpy batch, OpenSpiel's chance
layer, the environments that step games, and any port someone writes. Each is a *statement*
(:class:`Statement`): something that deals games and plays the moves it is told to. This module
drives every statement through the same cases, in the style of pgx's ``api_test`` and
OpenSpiel's ``random_sim_test``, and checks what the statement shows through public values only
(the attributes of :class:`~chickenfoot.GameState` and :class:`~chickenfoot.RoundState`, and the
move notation):

* every deal against the deal rules directly (:func:`deal_faults`: SET-1, ROUND-1, DEAL-A1 to DEAL-B3,
  YARD-1, OPEN-1, END-2 at the deal and the highest-double variant), and against the reference dealing the same
  tiles, or, for a statement that deals from the seed as :func:`~chickenfoot.new_game` does, the
  reference's own deal from that seed (DEAL-2);
* every move: the moves offered are the reference's, and the state after the move is the
  reference's, field by field (:func:`game_differences`);
* every chance event a statement shows (a tile dealt or drawn, the *trains* starter) against
  the odds the rules give it.

>>> import chickenfoot as cf
>>> from chickenfoot import conformance
>>> summary = conformance.check_games(conformance.ENGINE, cf.Rules.cross(max_pip=6), 3, seeds=range(2))
>>> summary.finished, summary.rounds
(2, 14)

A check that fails raises :class:`AssertionError` naming the statement, the game, the move and
every field that differs. Checking a statement of one's own takes a class with a ``play`` method
(a :class:`Statement`; with ``deal`` too, a :class:`Dealer` for :func:`check_deals`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Protocol

from . import GameState, RoundState, Rules, Tile, apply, deal_round, legal_moves, new_game, parse_move, reference as ref

__all__ = [
    "ENGINE",
    "Chance",
    "Chooser",
    "Dealer",
    "Dealt",
    "Event",
    "Statement",
    "Summary",
    "check_deal",
    "check_deals",
    "check_games",
    "deal_faults",
    "game_differences",
    "reference_game",
    "reference_round",
    "round_differences",
    "starter_odds",
]


# -- the public states read as the reference's values, and compared with them field by field ----------


def _tile(tile: Tile) -> ref.Tile:
    return (tile.high, tile.low)


def reference_round(state: RoundState) -> ref.Round:
    """Reads a public round into the reference's values, through its public attributes only."""
    nodes = tuple(ref.Node(_tile(node.tile), node.parent, node.exposed) for node in state.board.nodes)
    return ref.Round(
        rules=state.rules,
        hands=tuple(tuple(map(_tile, hand)) for hand in state.hands),
        yard=tuple(map(_tile, state.yard)),
        nodes=nodes,
        current_player=state.current_player,
        reserve=state.reserve,
        drawn=None if state.drawn is None else _tile(state.drawn),
        is_over=state.is_over,
        went_out=state.went_out,
        history=tuple((player, str(move)) for player, move in state.history),
    )


def reference_game(game: GameState) -> ref.Game:
    """Reads a public game into the reference's values, through its public attributes only."""
    results = tuple(
        ref.Result(result.double, result.scores, result.went_out, reference_round(result.final))
        for result in game.results
    )
    return ref.Game(
        game.rules,
        game.players,
        game.seed,
        reference_round(game.round),
        game.round_index,
        game.totals,
        results,
        game.winners,
    )


def round_differences(
    state: RoundState, expected: ref.Round, where: str = "round", *, full: bool = True, history: bool = True
) -> list[str]:
    """Lists every public attribute of ``state`` that differs from the reference's ``expected``, by name.

    Without ``full``, the history is compared by its length and last turn only (a quick check
    for the steps between two full ones); without ``history``, not at all.
    """
    turns = state.history if full else state.history[-1:]
    seen = {
        "rules": state.rules,
        "hands": tuple(tuple(map(_tile, hand)) for hand in state.hands),
        "yard": tuple(map(_tile, state.yard)),
        "board.nodes": tuple(ref.Node(_tile(node.tile), node.parent, node.exposed) for node in state.board.nodes),
        "current_player": state.current_player,
        "reserve": state.reserve,
        "drawn": None if state.drawn is None else _tile(state.drawn),
        "is_over": state.is_over,
        "went_out": state.went_out,
        "len(history)": len(state.history),
        "history": tuple((player, str(move)) for player, move in turns),
    }
    wanted = {
        **{name: getattr(expected, name) for name in seen if name.isidentifier()},
        "board.nodes": expected.nodes,
        "len(history)": len(expected.history),
        "history": expected.history if full else expected.history[-1:],
    }
    if not history:
        del seen["len(history)"], seen["history"]
    differences = [
        f"{where}.{name}: {seen[name]!r} != {wanted[name]!r} (the reference's)"
        for name in seen
        if seen[name] != wanted[name]
    ]
    if not differences and tuple(state.board.open_ends) != tuple(ref.open_nodes(expected)):
        differences.append(
            f"{where}.board.open_ends: {state.board.open_ends} != {ref.open_nodes(expected)} (the reference's)"
        )
    return differences


def game_differences(game: GameState, expected: ref.Game, *, full: bool = True, history: bool = True) -> list[str]:
    """Lists every public attribute of ``game`` that differs from the reference's ``expected``, by name.

    Without ``full``, the finished rounds are compared by their double, scores and who went
    out, not their final states, and the round in play as :func:`round_differences` does then.
    """
    differences = [
        f"{name}: {getattr(game, name)!r} != {getattr(expected, name)!r} (the reference's)"
        for name in ("rules", "players", "seed", "round_index", "totals", "winners", "is_over")
        if getattr(game, name) != getattr(expected, name)
    ]
    current = None if expected.is_over else expected.round.current_player
    if game.current_player != current:
        differences.append(f"current_player: {game.current_player} != {current} (the reference's)")
    differences += round_differences(game.round, expected.round, full=full, history=history)
    if len(game.results) != len(expected.results):
        differences.append(f"results: {len(game.results)} rounds != {len(expected.results)} (the reference's)")
    for number, (result, wanted) in enumerate(zip(game.results, expected.results, strict=False)):
        where = f"results[{number}]"
        differences += [
            f"{where}.{name}: {getattr(result, name)!r} != {getattr(wanted, name)!r} (the reference's)"
            for name in ("double", "scores", "went_out")
            if getattr(result, name) != getattr(wanted, name)
        ]
        if full:
            differences += round_differences(result.final, wanted.final, f"{where}.final", history=history)
    return differences


Chooser = Callable[[int, Sequence[str]], str]
"""Picks the move game ``game`` plays from the moves offered (in the move notation, sorted)."""


@dataclass(frozen=True)
class Chance:
    """One chance event a statement showed: each outcome's probability, and the outcome that came.

    An outcome is a tile in the tile notation (``"9-5"``, dealt or drawn) or, for the *trains*
    starter (DEAL-A1), a seat (``"seat 2"``).
    """

    odds: Mapping[str, float]
    outcome: str


@dataclass(frozen=True)
class Event:
    """What a statement shows after dealing a game (``move`` is ``None``) or after one move of it."""

    game: int
    """Which game: the index of its seed among the seeds given."""
    state: GameState
    """The game as the statement shows it now."""
    move: str | None = None
    """The move just played, in the move notation; ``None`` for the game as dealt."""
    offered: tuple[str, ...] = ()
    """The moves the statement offered before ``move`` (any order)."""
    chances: tuple[Chance, ...] = ()
    """The chance events since the last event: the tile a draw drew, the tiles of a new deal."""


@dataclass(frozen=True)
class Dealt:
    """One round a statement dealt on its own (see :meth:`Dealer.deal`)."""

    seed: int
    round: RoundState
    chances: tuple[Chance, ...] = ()


class Statement(Protocol):
    """Something that states the rules: it deals games and plays the moves a :data:`Chooser` picks."""

    name: str
    """What the reports call it."""
    seeded: bool
    """Whether it deals each game from its seed as :func:`~chickenfoot.new_game` does, or any deal the rules allow."""
    keeps_history: bool
    """Whether its states keep the round's history (``RoundState.history``), which is not part of a state's value."""

    def play(self, rules: Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        """Deals one game per seed and plays each to its end with the moves ``choose`` picks, showing every step."""
        ...


class Dealer(Statement, Protocol):
    """A statement that can also deal any round on its own, for :func:`check_deals`."""

    def deal(self, rules: Rules, players: int, seeds: Sequence[int], round_index: int) -> Iterator[Dealt]:
        """Deals round ``round_index`` once per seed."""
        ...


@dataclass
class Summary:
    """What a check went through, so a test can tell that it checked something."""

    games: int = 0
    finished: int = 0
    moves: int = 0
    rounds: int = 0
    deals: int = 0
    chances: int = 0
    starters: Counter[int] = field(default_factory=Counter)


# -- deals ----------------------------------------------------------------------------------------


def starter_odds(rules: Rules, players: int, round_index: int) -> dict[int, Fraction]:
    """Gets each seat's chance of starting a *trains* round (DEAL-A1).

    The round's double is equally likely at each position of the shuffled set, and the players
    take the tiles in turn from seat ``r mod n``, so a seat's chance is its share of positions.

    >>> import chickenfoot as cf
    >>> {seat: str(odds) for seat, odds in starter_odds(cf.Rules.trains(), 4, 0).items()}
    {0: '14/55', 1: '14/55', 2: '14/55', 3: '13/55'}
    """
    size = len(ref.tiles(rules.max_pip))
    seats = Counter((round_index + position) % players for position in range(size))
    return {seat: Fraction(seats[seat], size) for seat in range(players)}


def deal_faults(state: RoundState, players: int, round_index: int) -> list[str]:
    """Lists every way ``state``, as dealt for round ``round_index``, breaks the deal rules; empty if none.

    Checked directly, rule by rule: each tile of the set once (SET-1); the center (ROUND-1,
    DEAL-A2, DEAL-B2 and the next-highest-double variant, which never starts a round above its
    double); the hand sizes (DEAL-A3, DEAL-B1, the setup draws of DEAL-B2 in turn from seat
    ``r mod n``); the first player (DEAL-B3); the reserve (YARD-1); the board (OPEN-1, OPEN-2);
    over as dealt exactly when nobody can play or draw (END-2). The *trains* starter is random
    (DEAL-A1): :func:`check_deals` checks its odds over many deals. Hands are read as dealt
    first, then drawn, in order (as the engine keeps them).
    """
    rules = state.rules
    faults: list[str] = []
    double = rules.max_pip - round_index
    hands = [list(map(_tile, hand)) for hand in state.hands]
    yard = list(map(_tile, state.yard))
    center = _tile(state.board.center)
    everything = sorted([tile for hand in hands for tile in hand] + yard + [center])
    if everything != ref.tiles(rules.max_pip):  # the reference lists a set in order
        faults.append(f"SET-1: the hands, yard and center are not the set once each: {everything}")
    size = rules.hand_size_for(players)
    if len(hands) != players:
        return [*faults, f"DEAL-A2/DEAL-B1: {len(hands)} hands for {players} players"]
    if center[0] != center[1] or center[0] > double:
        faults.append(f"ROUND-1: the center {center} is not a double at most {double}-{double}")
    if rules.deal == "trains":
        if center[0] != double:
            faults.append(f"DEAL-A2: the center is {center}, not the round's double {double}-{double}")
        if [len(hand) for hand in hands] != [size] * players:
            faults.append(f"DEAL-A3: hands of {[len(hand) for hand in hands]}, not {size} each")
    else:
        faults += _cross_faults(state, hands, yard, center, players, round_index)
    return faults + _opening_faults(state, center, players)


def _cross_faults(
    state: RoundState,
    hands: list[list[ref.Tile]],
    yard: list[ref.Tile],
    center: ref.Tile,
    players: int,
    round_index: int,
) -> list[str]:
    """Lists how a *cross* deal breaks DEAL-B1 to DEAL-B3 and the highest-double variant."""
    rules = state.rules
    faults: list[str] = []
    double = rules.max_pip - round_index
    size, count = rules.hand_size_for(players), len(ref.tiles(rules.max_pip))
    held_doubles = {tile[0] for hand in hands for tile in hand[:size] if tile[0] == tile[1]}
    extra = count - 1 - len(yard) - players * size  # tiles drawn into hands; -1: the placer held it
    drew = extra >= 0
    placer = (state.current_player - 1) % players  # DEAL-B3: the player after the placer starts
    sizes = [size - (seat == placer) for seat in range(players)]
    if drew:  # DEAL-B2: nobody held it: seats from r mod n drew in turn, the placer drew it
        sizes = [size + sum((round_index + j) % players == seat for j in range(extra)) for seat in range(players)]
        if (round_index + extra) % players != placer:
            faults.append(f"DEAL-B2/B3: seat {placer} placed a center that seat {(round_index + extra) % players} drew")
    if [len(hand) for hand in hands] != sizes:
        faults.append(f"DEAL-B1/B2: hands of {[len(hand) for hand in hands]}, not {sizes}")
    if center[0] < double and (rules.center_fallback != "highest_double" or drew):
        faults.append(f"DEAL-B2: the center is {center}, not the round's double {double}-{double}")
    if rules.center_fallback == "highest_double" and (drew or center[0] < double):
        # The variant: the highest double held below the round's double starts, if anyone holds one.
        if {value for value in held_doubles if center[0] < value <= double}:
            faults.append(f"DEAL-B2 variant: {center} starts, but a hand holds a higher double up to {double}")
        if drew and {value for value in held_doubles if value < double}:
            faults.append("DEAL-B2 variant: players drew for the double, but a hand held a lower double")
    return faults


def _opening_faults(state: RoundState, center: ref.Tile, players: int) -> list[str]:
    """Lists how a round as dealt breaks YARD-1, OPEN-1, OPEN-2 and END-2 at the deal."""
    rules = state.rules
    faults: list[str] = []
    if state.reserve != rules.reserve_for(players):
        faults.append(f"YARD-1: a reserve of {state.reserve}, not {rules.reserve_for(players)}")
    board = state.board
    arms = rules.arms_for(players)
    if board.nodes != board.nodes[:1] or board.nodes[0].parent is not None or board.nodes[0].exposed != center[0]:
        faults.append(f"OPEN-1: the board is not the center alone: {board.nodes}")
    if (board.pending, board.missing) != (0, arms):
        faults.append(f"OPEN-2: the center is not pending with {arms} arms to take: {board.pending}, {board.missing}")
    if (state.drawn, state.went_out, state.history) != (None, None, ()):
        faults.append("a round as dealt has nothing drawn, nobody out and no history")
    # END-2 at the deal: over as dealt exactly when nobody can draw and no hand carries the center's value.
    blocked = len(state.yard) <= state.reserve and not any(
        center[0] in _tile(tile) for hand in state.hands for tile in hand
    )
    if state.is_over != blocked:
        faults.append(f"END-2: the round as dealt has is_over={state.is_over}; blocked as dealt is {blocked}")
    return faults


def _deck(state: RoundState, players: int, round_index: int) -> list[ref.Tile]:
    """Gets the order of tiles that dealt ``state``: what the shuffle gave, as the reference deals it."""
    rules = state.rules
    size = rules.hand_size_for(players)
    hands = [list(map(_tile, hand)) for hand in state.hands]
    yard = list(map(_tile, state.yard))
    if rules.deal == "trains":
        return [tile for hand in hands for tile in hand] + yard
    center = _tile(state.board.center)
    placer = (state.current_player - 1) % players
    extra = len(ref.tiles(rules.max_pip)) - 1 - len(yard) - players * size  # see deal_faults
    if extra < 0:  # the placer held it: it was one of their tiles (its place among them changes nothing)
        hands[placer].append(center)
        return [tile for hand in hands for tile in hand] + yard
    drawn = [hand[size:] for hand in hands]
    order = [drawn[(round_index + j) % players].pop(0) for j in range(extra) if drawn[(round_index + j) % players]]
    return [tile for hand in hands for tile in hand[:size]] + order + [center] + yard


def _check_chances(
    rules: Rules, players: int, round_index: int, chances: Sequence[Chance]
) -> tuple[list[ref.Tile], int]:
    """Checks a deal's chance events against the deal's odds; gets its deck and starter."""
    double = (rules.max_pip - round_index,) * 2
    left = {f"{high}-{low}": (high, low) for high, low in ref.tiles(rules.max_pip) if (high, low) != double}
    starter = 0
    events = list(chances)
    if rules.deal == "trains":
        first = events.pop(0)
        wanted = {f"seat {seat}": float(odds) for seat, odds in starter_odds(rules, players, round_index).items()}
        _expect_odds(first, wanted, "DEAL-A1: the starter")
        starter = int(first.outcome.split()[1])
    else:
        left[f"{double[0]}-{double[1]}"] = double
    deck: list[ref.Tile] = []
    for event in events:  # DEAL-A2, DEAL-B1, DEAL-B2: each tile uniform over those not yet dealt
        _expect_uniform(event, left.keys(), "a dealt tile")
        deck.append(left.pop(event.outcome))
    return deck + sorted(left.values()), starter


def _expect_uniform(chance: Chance, outcomes: Collection[str], what: str) -> None:
    odds = 1 / len(outcomes)
    if chance.odds.keys() != outcomes or any(abs(value - odds) > 1e-9 for value in chance.odds.values()):
        raise AssertionError(f"{what}: odds {dict(chance.odds)}, the rules give {odds} to each of {sorted(outcomes)}")
    if chance.outcome not in outcomes:
        raise AssertionError(f"{what}: the outcome {chance.outcome} is none of {sorted(outcomes)}")


def _expect_odds(chance: Chance, wanted: Mapping[str, float], what: str) -> None:
    wrong = set(chance.odds) != set(wanted) or any(abs(chance.odds[key] - wanted[key]) > 1e-9 for key in wanted)
    if wrong or chance.outcome not in wanted:
        raise AssertionError(f"{what}: odds {dict(chance.odds)} and outcome {chance.outcome}, the rules give {wanted}")


def check_deal(
    name: str, players: int, round_index: int, state: RoundState, seed: int | None, chances: Sequence[Chance] = ()
) -> ref.Round:
    """Checks one dealt round against the deal rules and the reference; gets the reference's round.

    With a ``seed``, the round must be the reference's deal from that seed (DEAL-2); with
    ``chances``, the deal those chance events make, each at the odds the rules give it; else the
    reference's deal of the tiles in the order they show they were dealt in.
    """
    rules = state.rules
    faults = deal_faults(state, players, round_index)
    if seed is not None:
        expected = ref.deal(rules, players, seed, round_index)
    elif chances:
        deck, starter = _check_chances(rules, players, round_index, chances)
        expected = ref.deal_tiles(rules, players, round_index, deck, starter)
    else:
        deck = _deck(state, players, round_index)
        expected = ref.deal_tiles(rules, players, round_index, deck, state.current_player)
    faults += round_differences(state, expected)
    if faults:
        raise AssertionError(f"{name}: round {round_index} of {players} players, {rules!r}:\n  " + "\n  ".join(faults))
    return expected


def check_deals(
    statement: Dealer,
    rules: Rules,
    players: int,
    seeds: Iterable[int],
    round_index: int,
    summary: Summary | None = None,
) -> Summary:
    """Checks the deal of round ``round_index`` for every seed (see :func:`check_deal`); counts the *trains* starters.

    >>> import chickenfoot as cf
    >>> check_deals(ENGINE, cf.Rules.trains(), 4, range(20), round_index=3).deals
    20
    """
    summary = summary or Summary()
    for dealt in statement.deal(rules, players, list(seeds), round_index):
        seed = dealt.seed if statement.seeded else None
        check_deal(statement.name, players, round_index, dealt.round, seed, dealt.chances)
        summary.deals += 1
        summary.chances += len(dealt.chances)
        summary.starters[dealt.round.current_player] += 1
    return summary


# -- games ----------------------------------------------------------------------------------------


def check_games(
    statement: Statement,
    rules: Rules,
    players: int,
    seeds: Iterable[int],
    *,
    seed: int = 0,
    every_move: Callable[[GameState, str], GameState] | None = None,
) -> Summary:
    """Plays one game per seed through ``statement``, random moves chosen by ``seed``, checking every step.

    Each game's deal is checked as :func:`check_deal` does, and so is each later round's; each
    move must be one the reference offers too, and the state after it must be the reference's.
    With ``every_move``, every move offered is also applied to the state before it (by
    ``every_move``) and the result compared with the reference's, not only the move played.
    """
    games: dict[int, ref.Game] = {}
    rng = random.Random(seed)
    summary = Summary()
    seed_list = list(seeds)

    def choose(game: int, offered: Sequence[str]) -> str:
        return rng.choice(sorted(offered))

    before: dict[int, GameState] = {}
    for event in statement.play(rules, players, seed_list, choose):
        game, state = event.game, event.state
        where = f"{statement.name}: game {game} (seed {seed_list[game]}), after {event.move}"
        if event.move is None:
            chances = list(event.chances)
            dealt = _dealt(statement, players, 0, state, chances, summary)
            opened = ref.Game(rules, players, state.seed, dealt, 0, (0,) * players)
            games[game] = _close_rounds(statement, opened, state, chances, where, summary)
            summary.games += 1
        else:
            expected = games[game]
            offered = ref.legal_moves(expected)
            if sorted(event.offered) != sorted(offered):
                raise AssertionError(f"{where}: offered {sorted(event.offered)}, the reference {sorted(offered)}")
            if every_move is not None:
                _check_every_move(before[game], expected, offered, every_move, where)
            games[game] = _follow(statement, expected, event, where, summary)
            summary.moves += 1
        # The whole game at its deal, at the end of each round and of the game; the rest between.
        full = event.move is None or len(state.results) != len(before[game].results) or state.is_over
        differences = game_differences(state, games[game], full=full, history=statement.keeps_history)
        if differences:
            raise AssertionError(f"{where}:\n  " + "\n  ".join(differences))
        before[game] = state
        summary.finished += state.is_over
    if summary.games != len(seed_list):
        raise AssertionError(f"{statement.name}: {summary.games} games dealt for {len(seed_list)} seeds")
    return summary


def _seed(statement: Statement, state: GameState) -> int | None:
    return state.seed if statement.seeded else None


def _follow(statement: Statement, expected: ref.Game, event: Event, where: str, summary: Summary) -> ref.Game:
    """Plays ``event``'s move on the reference's game, taking the statement's chance outcomes and deals."""
    move, state = event.move, event.state
    assert move is not None
    chances = list(event.chances)
    current = expected.round
    if move == "draw" and chances:  # the statement's chance drew the tile: the reference draws it too
        drawn = chances.pop(0)
        _expect_uniform(drawn, {f"{high}-{low}" for high, low in current.yard}, "DRAW-1: the drawn tile")
        high, low = map(int, drawn.outcome.split("-"))
        yard = ((high, low), *(tile for tile in current.yard if tile != (high, low)))
        expected = replace(expected, round=replace(current, yard=yard))
        summary.chances += 1
    after = replace(expected, round=ref.apply(expected.round, move))
    return _close_rounds(statement, after, state, chances, where, summary)


def _dealt(
    statement: Statement, players: int, round_index: int, state: GameState, chances: list[Chance], summary: Summary
) -> ref.Round:
    """Checks round ``round_index`` as ``state`` shows it dealt, taking its chance events from ``chances``.

    A round over as dealt (END-2 at the deal) shows only as its result's final state, which is
    the deal itself; its chance events are the tiles its hands hold and its center (*trains*: the
    starter and the hands). The round in play takes the rest.
    """
    shown = state.results[round_index].final if round_index < len(state.results) else state.round
    used = len(chances) if shown is state.round else sum(map(len, shown.hands)) + 1
    taken = chances[:used]
    del chances[:used]
    summary.deals += 1
    summary.chances += len(taken)
    return check_deal(statement.name, players, round_index, shown, _seed(statement, state), taken)


def _close_rounds(
    statement: Statement, game: ref.Game, state: GameState, chances: list[Chance], where: str, summary: Summary
) -> ref.Game:
    """Scores the reference's round if it is over, deals the next as the statement did, and again while a
    round is over as dealt (END-2), until a round is in play or the game is over; every deal checked."""
    while game.round.is_over and not game.is_over:
        final, scores = game.round, ref.score_round(game.round)  # SCORE-1, GAME-1: the reference's scoring
        results = (*game.results, ref.Result(final.nodes[0].tile[0], scores, final.went_out, final))
        totals = tuple(total + score for total, score in zip(game.totals, scores, strict=True))
        game = replace(game, totals=totals, results=results)
        summary.rounds += 1
        if game.is_over:
            game = replace(game, winners=ref.decide_winners(game.rules, totals, results))
        else:
            index = game.round_index + 1
            game = replace(
                game, round=_dealt(statement, game.players, index, state, chances, summary), round_index=index
            )
    if chances:
        raise AssertionError(f"{where}: chance events {chances} where the rules have none")
    return game


def _check_every_move(
    state: GameState,
    expected: ref.Game,
    offered: Sequence[str],
    every_move: Callable[[GameState, str], GameState],
    where: str,
) -> None:
    for move in offered:
        differences = game_differences(every_move(state, move), ref.apply(expected, move))
        if differences:
            raise AssertionError(f"{where}, had it played {move} instead:\n  " + "\n  ".join(differences))


# -- the engine as a statement ----------------------------------------------------------------


class _Engine:
    """The engine: :func:`~chickenfoot.new_game`, :func:`~chickenfoot.legal_moves`, :func:`~chickenfoot.apply`."""

    name = "the engine"
    seeded = True
    keeps_history = True

    def play(self, rules: Rules, players: int, seeds: Sequence[int], choose: Chooser) -> Iterator[Event]:
        for game, seed in enumerate(seeds):
            state = new_game(rules, players, seed)
            yield Event(game, state)
            while not state.is_over:
                offered = tuple(map(str, legal_moves(state)))
                move = choose(game, offered)
                state = apply(state, parse_move(move))
                yield Event(game, state, move, offered)

    def deal(self, rules: Rules, players: int, seeds: Sequence[int], round_index: int) -> Iterator[Dealt]:
        for seed in seeds:
            yield Dealt(seed, deal_round(rules, players, seed, round_index))


ENGINE: Dealer = _Engine()
"""The engine as a :class:`Statement` (the core, compiled or pure, whichever is installed)."""
