"""Between the batch and the public states: ``init``, ``from_states`` and ``to_state``."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._game import Board, GameState, RoundResult, RoundState, Rules, RulesError, full_set
from ._arrays import ROUND_FIELDS, Batch, empty, refresh
from ._deal import load_round, start_games
from ._ending import close_dealt
from ._tables import tables

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_DEALS = ("numpy", "engine")
_REWARDS = ("win", "score")


def _check_options(deal: str, reward: str) -> None:
    if deal not in _DEALS:
        raise ValueError(f"deal must be 'numpy' (vectorized) or 'engine' (exactly as new_game), got {deal!r}")
    if reward not in _REWARDS:
        raise ValueError(f"reward must be 'win' or 'score', got {reward!r}")


def init(
    rules: Rules,
    players: int,
    seeds: ArrayLike,
    *,
    single_round: bool = False,
    round_index: int = 0,
    deal: str = "numpy",
    reward: str = "win",
) -> Batch:
    """Deals one game per seed: ``len(seeds)`` games of ``rules`` with ``players`` players.

    With ``single_round``, each game is the one round ``round_index`` (its double is
    ``max_pip - round_index``, ROUND-1). ``deal="numpy"`` deals every round with a vectorized
    shuffle (same rules, different tiles than :func:`~chickenfoot.new_game` for the same
    seed); ``deal="engine"`` deals exactly as ``new_game`` does, one game at a time in Python.
    Raises :class:`~chickenfoot.RulesError` for a configuration that cannot be dealt (DEAL-1).

    >>> import numpy as np
    >>> import chickenfoot as cf
    >>> from chickenfoot import batch
    >>> games = batch.init(cf.Rules.trains(), players=4, seeds=np.arange(3), deal="engine")
    >>> batch.to_state(games, 1) == cf.new_game(cf.Rules.trains(), players=4, seed=1)
    True
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a chickenfoot.Rules, such as Rules.trains(); got {rules!r}")
    _check_options(deal, reward)
    seed_array = np.asarray(seeds)
    if seed_array.ndim != 1 or seed_array.size == 0 or seed_array.dtype.kind not in "iu":
        raise ValueError(f"seeds must be a non-empty 1-D sequence of whole numbers, one per game; got {seeds!r}")
    if type(round_index) is not int or not 0 <= round_index < rules.rounds:
        raise ValueError(f"round_index must be a whole number from 0 to {rules.rounds - 1}, got {round_index!r}")
    batch = empty(tables(rules, players), seed_array.size, single_round=single_round, deal=deal, reward=reward)
    batch.seed[:] = seed_array
    start_games(batch, np.arange(batch.size), np.full(batch.size, round_index, dtype=np.int16))
    close_dealt(batch, np.arange(batch.size))  # END-2: a round blocked as dealt is over before any move
    batch.terminated[:], batch.rewards[:] = False, 0  # what a step reports; no step has been taken
    refresh(batch)
    return batch


def from_states(
    states: Sequence[GameState] | Sequence[RoundState], *, deal: str = "engine", reward: str = "win"
) -> Batch:
    """Loads public states into a batch: all :class:`~chickenfoot.GameState` (whole games) or all
    :class:`~chickenfoot.RoundState` (single rounds), of one rules configuration and player count.

    A batch has one shape, so states of different rules or player counts are refused with a
    :class:`~chickenfoot.RulesError`. ``deal`` chooses how later rounds (and automatic resets)
    are dealt: by default ``"engine"``, so each game goes on exactly as :func:`~chickenfoot.apply`
    would take it on; ``deal="numpy"`` deals them with the vectorized shuffle instead (faster,
    other tiles). A loaded round's seed is its position in ``states``.

    >>> import chickenfoot as cf
    >>> from chickenfoot import batch
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=5)
    >>> batch.to_state(batch.from_states([game]), 0) == game
    True
    """
    _check_options(deal, reward)
    loaded: list[GameState | RoundState] = list(states)
    if not loaded:
        raise ValueError("from_states needs at least one state")
    kinds = {type(state) for state in loaded}
    if kinds not in ({GameState}, {RoundState}):
        raise TypeError("from_states takes GameStates only or RoundStates only (not a mix, not other objects)")
    first = loaded[0]
    rules, players = first.rules, len(first.hands) if isinstance(first, RoundState) else first.players
    for index, state in enumerate(loaded):
        count = len(state.hands) if isinstance(state, RoundState) else state.players
        if state.rules != rules or count != players:
            raise RulesError(
                f"a batch holds one rules configuration and player count: state {index} differs from state 0 "
                f"({count} players, {state.rules!r}); make one batch per configuration"
            )
    single = isinstance(first, RoundState)
    batch = empty(tables(rules, players), len(loaded), single_round=single, deal=deal, reward=reward)
    for index, state in enumerate(loaded):
        if isinstance(state, RoundState):
            batch.seed[index] = index
            batch.round_index[index] = rules.max_pip - state.double
            load_round(batch, index, state)
            batch.game_over[index] = state.is_over
        else:
            _load_game(batch, index, state)
    refresh(batch)
    return batch


def _load_game(batch: Batch, index: int, game: GameState) -> None:
    if not -(2**63) <= game.seed < 2**63:
        raise ValueError(f"a batch keeps seeds as 64-bit integers; game seed {game.seed} does not fit")
    batch.seed[index] = game.seed
    batch.round_index[index] = game.round_index
    batch.totals[index] = game.totals
    batch.game_over[index] = game.is_over
    for number, result in enumerate(game.results):
        batch.scores[index, number] = result.scores
        load_round(batch, index, result.final)
        for name in ROUND_FIELDS:
            getattr(batch, "final_" + name)[index, number] = getattr(batch, name)[index]
    load_round(batch, index, game.round)


def _round(batch: Batch, fields: dict[str, Any]) -> RoundState:
    tb = batch.tables
    tiles = full_set(tb.rules.max_pip)
    loc, key = fields["loc"][: tb.tiles], fields["key"][: tb.tiles]
    hands = []
    for seat in range(tb.players):
        held = np.flatnonzero(loc == seat)
        hands.append(tuple(tiles[i] for i in held[np.argsort(key[held], kind="stable")].tolist()))
    yard = tuple(tiles[i] for i in fields["yard"][int(fields["yard_head"]) : int(fields["yard_end"])].tolist())
    count = int(fields["node_count"])
    node_tiles = fields["node_tile"][:count].tolist()
    parents = fields["node_parent"][:count].tolist()
    board = Board.start(tiles[node_tiles[0]], tb.arms)
    for tile, parent in zip(node_tiles[1:], parents[1:], strict=True):
        board = board.place(tiles[tile], parent)
    drawn = int(fields["drawn"])
    # Whether the round is over, and how, follows from the position (END-1, END-2).
    return RoundState(
        rules=tb.rules,
        hands=tuple(hands),
        yard=yard,
        board=board,
        current_player=int(fields["current"]),
        reserve=tb.reserve,
        drawn=None if drawn < 0 else tiles[drawn],
    )


_FINALS: dict[tuple[Any, ...], RoundState] = {}
"""The finished rounds :func:`to_state` has built, by their arrays' contents (a finished round's never change)."""


def _final_round(batch: Batch, game: int, number: int) -> RoundState:
    """Gets round ``number`` of game ``game`` as it finished, built once per distinct round."""
    fields = {name: getattr(batch, "final_" + name)[game, number] for name in ROUND_FIELDS}
    tb = batch.tables
    key = (tb.rules, tb.players, *(np.asarray(value).tobytes() for value in fields.values()))
    final = _FINALS.get(key)
    if final is None:
        if len(_FINALS) >= 4096:
            _FINALS.clear()
        final = _FINALS[key] = _round(batch, fields)
    return final


def to_state(batch: Batch, index: int) -> GameState | RoundState:
    """Gets game ``index`` as the public state :func:`~chickenfoot.apply` would have reached.

    A whole-game batch gives a :class:`~chickenfoot.GameState` (finished rounds and winners
    included), a ``single_round`` batch a :class:`~chickenfoot.RoundState`. The states carry
    no move history (``history`` is empty; it is not part of a state's value).

    >>> import numpy as np
    >>> import chickenfoot as cf
    >>> from chickenfoot import batch
    >>> games = batch.init(cf.Rules.trains(), players=2, seeds=[7], single_round=True)
    >>> state = batch.to_state(games, 0)
    >>> type(state).__name__, [len(hand) for hand in state.hands]
    ('RoundState', [21, 21])
    """
    try:
        game = operator.index(index)
    except TypeError:
        raise TypeError(f"index must be a whole number, got {index!r}") from None
    if not 0 <= game < batch.size:
        raise IndexError(f"the batch holds games 0 to {batch.size - 1}, got {index!r}")
    current = {name: getattr(batch, name)[game] for name in ROUND_FIELDS}
    state = _round(batch, current)
    if batch.single_round:
        return state
    tb = batch.tables
    finished = tb.rules.rounds if batch.game_over[game] else int(batch.round_index[game])
    results = []
    for number in range(finished):
        final = _final_round(batch, game, number)
        scores = tuple(int(score) for score in batch.scores[game, number])
        results.append(RoundResult(double=final.double, scores=scores, went_out=final.went_out, final=final))
    totals = tuple(int(total) for total in batch.totals[game])
    return GameState(
        rules=tb.rules,
        players=tb.players,
        seed=int(batch.seed[game]),
        round=state,
        round_index=int(batch.round_index[game]),
        totals=totals,
        results=tuple(results),
    )


def current_player(batch: Batch) -> np.ndarray[Any, np.dtype[np.int8]]:
    """Gets each game's player to move, -1 where the game is over.

    >>> import chickenfoot as cf
    >>> from chickenfoot import batch
    >>> games = batch.init(cf.Rules.trains(), players=4, seeds=[7], deal="engine")
    >>> int(batch.current_player(games)[0]) == cf.new_game(cf.Rules.trains(), 4, seed=7).current_player
    True
    """
    return np.where(batch.game_over | batch.round_over, -1, batch.current).astype(np.int8)
