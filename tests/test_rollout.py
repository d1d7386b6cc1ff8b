"""The rollout bot, and the greedy playouts it runs: GreedyBot's play, compiled, improved on by trying every move."""

from __future__ import annotations

import math
import random
import time

import pytest
from hypothesis import given, settings, strategies as st

import chickenfoot as cf
from _games import RULES, games
from chickenfoot._core._greedy import greedy_playout
from chickenfoot.bots import GreedyBot, RolloutBot, make_bot

Tile = cf.Tile


def _to_move(game: cf.GameState) -> cf.PlayerView:
    return cf.observe(game, game.round.current_player)


def _round_by_greedy_bots(game: cf.GameState) -> cf.RoundResult:
    """Plays ``game``'s round to its end through the public API, every seat a GreedyBot seeing only its view."""
    finished = len(game.results)
    while len(game.results) == finished:
        game = cf.apply(game, GreedyBot()(_to_move(game)))
    return game.results[finished]


@settings(max_examples=60)
@given(st.sampled_from(RULES), st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 60))
def test_a_playout_plays_the_round_as_greedy_bots_would(rules: cf.Rules, players: int, seed: int, moves: int) -> None:
    # Each seat of a playout sees the whole round, yet must choose exactly what GreedyBot chooses
    # from its view: the hand, the unseen tiles (every other tile off the board), the ends.
    game = cf.new_game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.results:
            break
        game = cf.apply(game, rng.choice(cf.legal_moves(game)))
    if game.results:
        return
    by_bots = _round_by_greedy_bots(game)
    played = greedy_playout(game._round)
    assert played.over
    assert played.scores() == by_bots.scores
    assert [sorted(hand) for hand in played.hands] == [sorted(t.index for t in hand) for hand in by_bots.final.hands]


def _standing(scores: tuple[int, ...], seat: int) -> float:
    """A round's result for ``seat`` as RolloutBot's docstring states it, counted afresh."""
    mine = scores[seat]
    others = [score for at, score in enumerate(scores) if at != seat]
    beaten = sum(score > mine for score in others) - sum(score < mine for score in others)
    return beaten + 0.1 * (sum(others) / len(others) - mine)


# Player 1 to move holds 6-1, 6-5, 1-0, 2-0, 5-3, 1-1, 3-1; player 0 holds the rest, and the yard is
# empty, so every world is the true round. GreedyBot opens a foot with 5-5 and loses the round.
LOST_BY_GREEDY = (
    "trains[max_pip=6,reserve=0] 1 - 0 6-1,6-5,1-0,2-0,5-3,1-1,3-1/2-1,0-0,5-5,2-2,5-1,6-0 - "
    "6-6,6-2<0,6-3<0,3-3<2,4-3<3,3-2<3,3-0<3,4-2<5,4-0<6,5-2<1,5-0<9,4-4<8,5-4<11,4-1<11,6-4<11 play"
)


def test_the_rollout_bot_finds_the_move_whose_round_greedy_play_ends_best() -> None:
    state = cf.parse_position(LOST_BY_GREEDY)
    game = cf.GameState(state.rules, 2, 0, state, 0, (0, 0))
    view = _to_move(game)
    seat = view.player
    results = {move: _standing(_round_by_greedy_bots(cf.apply(game, move)).scores, seat) for move in view.legal_moves}
    best = max(results.values())
    greedy = GreedyBot()(view)
    assert results[greedy] < 0 < best  # greedy's own choice loses the round; another wins it
    first_best = next(move for move in view.legal_moves if results[move] == best)  # the first of equals
    assert first_best != view.legal_moves[0]
    assert RolloutBot(simulations=50)(view) == first_best
    assert RolloutBot(simulations=1)(view) == first_best  # one world is enough here: there is only one
    assert RolloutBot(simulations=1, seconds=0.01)(view) == first_best


class _Scripted:
    """Stands in for a played-out round: its scores are the next of a script."""

    def __init__(self, script: list[tuple[int, ...]]) -> None:
        self.script = script

    def __call__(self, state: object) -> _Scripted:
        return self

    def scores(self) -> tuple[int, ...]:
        return self.script.pop(0)


def test_the_rollout_bot_adds_up_every_world(monkeypatch: pytest.MonkeyPatch) -> None:
    import chickenfoot._bots._searches as planning

    game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    view = _to_move(game)
    assert len(view.legal_moves) == 3
    me = view.player

    # Two worlds, each playing the three moves in order: the first move wins big once and loses
    # narrowly once (6 - 2), the second wins narrowly once (1.5 - 1.5), the third loses twice.
    def seat(mine: int, theirs: int) -> tuple[int, int]:
        return (mine, theirs) if me == 0 else (theirs, mine)

    script = [seat(0, 50), seat(10, 5), seat(30, 0), seat(20, 10), seat(0, 5), seat(30, 0)]
    monkeypatch.setattr(planning, "greedy_playout", _Scripted(script))
    assert RolloutBot(simulations=6)(view) == view.legal_moves[0]  # 4 against 0; the last world alone: the second
    assert not script  # every rollout counted once


def test_the_rollout_bot_searches_its_whole_time_budget() -> None:
    view = _to_move(cf.new_game(cf.Rules.cross(), players=4, seed=7))
    assert len(view.legal_moves) > 1
    started = time.thread_time()
    RolloutBot(simulations=1, seconds=0.1)(view)
    assert time.thread_time() - started >= 0.1  # a time budget, not the simulations, ends the search


def test_the_rollout_bots_worlds_depend_on_its_seed() -> None:
    game = cf.new_game(cf.Rules.cross(), players=4, seed=2)
    for _ in range(6):
        game = cf.apply(game, GreedyBot()(_to_move(game)))
    view = _to_move(game)
    assert len(view.legal_moves) > 1
    assert len({RolloutBot(simulations=2, seed=seed)(view) for seed in range(12)}) > 1


@settings(max_examples=8)
@given(games(max_steps=120), st.integers(0, 2**16))
def test_the_rollout_bot_chooses_a_legal_move_reproducibly(game: cf.GameState, seed: int) -> None:
    if game.is_over:
        return
    view = _to_move(game)
    move = RolloutBot(simulations=30, seed=seed)(view)
    assert move in cf.legal_moves(game)
    assert RolloutBot(simulations=30, seed=seed)(view) == move


def test_the_rollout_bot_makes_a_forced_move_without_searching() -> None:
    game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    while len(cf.legal_moves(game)) != 1:
        game = cf.apply(game, cf.legal_moves(game)[0])
    view = _to_move(game)
    assert RolloutBot(simulations=10**9)(view) == view.legal_moves[0]  # would never return if it searched


def test_a_short_time_budget_ends_the_search() -> None:
    view = _to_move(cf.new_game(cf.Rules.cross(), players=4, seed=7))
    started = time.perf_counter()
    assert RolloutBot(simulations=1, seconds=0.05)(view) in view.legal_moves
    assert time.perf_counter() - started < 10.0  # it stops; the room is for a machine busy with other work


def test_the_rollout_bot_refuses_bad_budgets_and_asks_for_a_move() -> None:
    with pytest.raises(ValueError, match="simulations must be a whole number"):
        RolloutBot(simulations=0)
    with pytest.raises(ValueError, match="seconds must be a finite number above 0"):
        RolloutBot(seconds=math.inf)
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    idle = (game.round.current_player + 1) % 4
    with pytest.raises(ValueError, match=f"player {idle} has no move to make"):
        RolloutBot(simulations=5)(cf.observe(game, idle))


def test_rollout_names_give_a_budget_of_rollouts_or_cpu_time() -> None:
    assert repr(RolloutBot()) == repr(make_bot("rollout")) == "RolloutBot(simulations=500, seed=0)"
    assert repr(make_bot("rollout:40", seed=2)) == "RolloutBot(simulations=40, seed=2)"
    assert repr(make_bot("rollout:10ms")) == "RolloutBot(simulations=500, seconds=0.01, seed=0)"
    with pytest.raises(cf.BotSpecError, match="write the budget as rollout:N"):
        make_bot("rollout:fast")


@given(st.lists(st.integers(0, 200), min_size=2, max_size=8), st.data())
def test_a_rollout_scores_the_round_by_opponents_beaten_and_margin(scores: list[int], data: st.DataObject) -> None:
    from chickenfoot._bots._searches import _standing as bots_standing

    seat = data.draw(st.integers(0, len(scores) - 1))
    assert bots_standing(tuple(scores), seat) == pytest.approx(_standing(tuple(scores), seat))
