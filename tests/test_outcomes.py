"""How a round or a game ended, as a value (END-1, END-2, GAME-1): in the states, JSON, notation,
views and the adapters' info."""

from __future__ import annotations

import json
import random

import attrs
import pytest
from hypothesis import given

import chickenfoot as cf
from _games import games, play_randomly
from helpers import position

TRAINS = cf.Rules.trains()
VARIANT = cf.Rules.trains(unfillable_foot_ends_round=True)


def _ended(rules: cf.Rules, termination: cf.Termination, players: int = 2) -> cf.RoundState:
    """Finds, by random play, a round of ``rules`` that ends ``termination``."""
    for seed in range(200):
        game = play_randomly(cf.new_game(rules, players, seed), random.Random(seed), 2000)
        for result in game.results:
            if result.outcome.termination is termination:
                return result.final
    raise AssertionError(f"no round ended {termination}")  # pragma: no cover


@pytest.mark.rule("END-1")
def test_end_1_going_out_is_the_went_out_outcome_naming_who() -> None:
    state = position(TRAINS, ["9-5", "8-8 4-1"], plays="9-3@0", current=0)
    after = cf.apply(state, cf.parse_move("9-5@0"))
    assert after.outcome == cf.Outcome(cf.Termination.WENT_OUT, (0,))
    assert (after.is_over, after.went_out, after.outcome.winner) == (True, 0, 0)
    assert str(after.outcome) == "P0 went out"


@pytest.mark.rule("END-2")
def test_end_2_a_blocked_round_is_the_blocked_outcome_with_no_winner() -> None:
    # The yard is at its reserve (the unnamed tiles are held back) and nothing plays on the 5 or 4.
    state = position(TRAINS, ["3-2", "8-8 1-0"], plays="9-5@0 9-4@0", current=0, yard="")
    assert state.outcome == cf.Outcome(cf.Termination.BLOCKED, ())
    assert (state.is_over, state.went_out, state.outcome.winner) == (True, None, None)
    assert cf.legal_moves(state) == ()


@pytest.mark.rule("END-2")
def test_end_2_variant_an_unfillable_foot_is_its_own_outcome() -> None:
    # Laying 5-5 leaves one tile carrying 5 anywhere (the 5-4 in hand): three toes cannot be had.
    hands, plays, yard = ["5-5 5-4 1-0", "8-8 6-6"], "9-5@0 9-8@0", "2-2 3-3"
    variant = position(VARIANT, hands, plays=plays, yard=yard, current=0)
    after = cf.apply(variant, cf.parse_move("5-5@1"))
    assert after.outcome == cf.Outcome(cf.Termination.UNFILLABLE_FOOT, ())
    assert str(after.outcome) == "a chicken foot can no longer be filled"
    plain = cf.apply(position(TRAINS, hands, plays=plays, yard=yard, current=0), cf.parse_move("5-5@1"))
    assert plain.outcome is None  # without the variant the round goes on


@given(games(max_steps=2000))
def test_a_rounds_outcome_agrees_with_is_over_and_went_out(game: cf.GameState) -> None:
    for state in (game.round, *(result.final for result in game.results)):
        outcome = state.outcome
        assert (outcome is not None) == state.is_over
        if outcome is not None:
            assert outcome.winner == state.went_out
            assert (outcome.termination is cf.Termination.WENT_OUT) == (state.went_out is not None)
    for result in game.results:
        assert result.outcome == result.final.outcome
        assert result.outcome.winner == result.went_out


def test_a_finished_game_ends_last_round_with_its_winners() -> None:
    game = play_randomly(cf.new_game(TRAINS, 3, seed=4), random.Random(4), 10_000)
    assert game.is_over
    assert game.outcome == cf.Outcome(cf.Termination.LAST_ROUND, game.winners)
    assert cf.new_game(TRAINS, 3, seed=4).outcome is None
    assert str(game.outcome) == " ".join(f"P{seat}" for seat in game.winners) + " won"
    assert cf.GameRecord.from_game(game).result == f"{game.outcome}; totals {' '.join(map(str, game.totals))}"


@pytest.mark.parametrize(
    ("termination", "winners", "message"),
    [
        (cf.Termination.WENT_OUT, (), "has one winner, who went out"),
        (cf.Termination.WENT_OUT, (0, 1), "has one winner, who went out"),
        (cf.Termination.BLOCKED, (1,), "nobody went out of a round that ended BLOCKED"),
        (cf.Termination.UNFILLABLE_FOOT, (1,), "nobody went out"),
        (cf.Termination.LAST_ROUND, (), "a finished game has one winner or more"),
    ],
)
def test_an_outcome_that_cannot_be_is_refused(
    termination: cf.Termination, winners: tuple[int, ...], message: str
) -> None:
    with pytest.raises(cf.InvalidPositionError, match=message):
        cf.Outcome(termination, winners)


def test_an_outcome_of_the_wrong_types_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="termination is a Termination"):
        cf.Outcome("blocked", ())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="winners are a tuple of seats"):
        cf.Outcome(cf.Termination.WENT_OUT, [0])  # type: ignore[arg-type]


def test_a_result_whose_outcome_disagrees_with_who_went_out_is_refused() -> None:
    final = _ended(TRAINS, cf.Termination.BLOCKED)
    with pytest.raises(cf.InvalidPositionError, match="cannot have went_out=1"):
        cf.RoundResult(final.double, cf.score_round(final), 1, final)
    with pytest.raises(cf.InvalidPositionError, match="a round that is over"):
        cf.RoundResult(9, (0, 0), None, cf.deal_round(TRAINS, 2, 1, 0))


# -- in JSON and the notation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "termination", "status"),
    [
        (TRAINS, cf.Termination.WENT_OUT, "out"),
        (TRAINS, cf.Termination.BLOCKED, "blocked"),
        (VARIANT, cf.Termination.UNFILLABLE_FOOT, "unfillable"),
    ],
)
def test_the_outcome_is_written_in_json_and_the_notation(
    rules: cf.Rules, termination: cf.Termination, status: str
) -> None:
    final = _ended(rules, termination)
    data = json.loads(cf.to_json(final))
    assert data["outcome"] == {"termination": termination.value, "winners": list(final.outcome.winners)}
    assert cf.from_json(cf.to_json(final)).outcome == final.outcome
    assert cf.position(final).rsplit(" ", 1)[1] == status + (str(final.went_out) if status == "out" else "")
    assert cf.parse_position(cf.position(final)).outcome == final.outcome
    if termination is cf.Termination.UNFILLABLE_FOOT:  # written "blocked" before the two were told apart
        old = cf.position(final).rsplit(" ", 1)[0] + " blocked"
        assert cf.parse_position(old) == final
    lied = {**data, "outcome": {"termination": "went_out", "winners": [1 - (final.went_out or 0)]}}
    with pytest.raises(
        cf.InvalidRecordError, match=rf"^\$.outcome: the outcome P\d went out is not the round's, {final.outcome}$"
    ):
        cf.from_json(json.dumps(lied))
    lied = {**data, "outcome": None}
    with pytest.raises(
        cf.InvalidRecordError, match=rf"^\$.outcome: the outcome in play is not the round's, {final.outcome}$"
    ):
        cf.from_json(json.dumps(lied))
    if termination is not cf.Termination.WENT_OUT:  # agrees with is_over and went_out, not with the position
        other = "blocked" if termination is cf.Termination.UNFILLABLE_FOOT else "unfillable_foot"
        lied = {**data, "outcome": {"termination": other, "winners": []}}
        with pytest.raises(cf.InvalidRecordError, match=r"the outcome .* is not the round's|but the position is over"):
            cf.from_json(json.dumps(lied))


def test_a_games_json_carries_each_results_outcome_and_its_own() -> None:
    game = play_randomly(cf.new_game(TRAINS, 2, seed=2), random.Random(2), 10_000)
    data = json.loads(cf.to_json(game))
    assert data["outcome"] == {"termination": "last_round", "winners": list(game.winners)}
    assert [result["outcome"] for result in data["results"]] == [
        {"termination": r.outcome.termination.value, "winners": list(r.outcome.winners)} for r in game.results
    ]
    data["outcome"] = {"termination": "last_round", "winners": [9]}
    with pytest.raises(cf.InvalidRecordError, match=r"\$.outcome.winners\[0\]"):
        cf.from_json(json.dumps(data))
    del data["outcome"]  # older documents have none: it is read from the game
    assert cf.from_json(json.dumps(data)) == game


# -- in the views and the adapters --------------------------------------------------------------


def test_views_name_how_each_finished_round_ended_and_the_game() -> None:
    game = play_randomly(cf.new_game(VARIANT, 2, seed=0), random.Random(0), 10_000)
    view = cf.observe(game, 1)
    assert view.round_outcomes == tuple(result.outcome for result in game.results)
    assert view.outcome == game.outcome
    data = json.loads(cf.to_json(view))
    assert [outcome["termination"] for outcome in data["round_outcomes"]] == [
        outcome.termination.value for outcome in view.round_outcomes
    ]
    assert data["outcome"]["winners"] == list(game.winners)
    middle = play_randomly(cf.new_game(VARIANT, 2, seed=0), random.Random(0), 30)
    assert cf.observe(middle, 0).outcome is None
    assert json.loads(cf.to_json(cf.observe(middle, 0)))["outcome"] is None


def test_gymnasium_info_carries_each_rounds_outcome_and_the_episodes() -> None:
    pytest.importorskip("gymnasium")
    import numpy as np

    from chickenfoot.gymnasium import ChickenfootEnv

    env = ChickenfootEnv(players=2, rounds=3, opponents="random")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    seen, done = [], False
    while not done:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if "round_outcome" in info:
            seen.append(info["round_outcome"])
    assert env.game is not None
    assert seen == [result.outcome for result in env.game.results]
    assert len(seen) == 3
    assert info["outcome"].termination is cf.Termination.LAST_ROUND
    assert info["outcome"].winners == cf.decide_winners(env.rules, env.game.totals, env.game.results)


def test_pettingzoo_infos_carry_each_rounds_outcome_and_the_games() -> None:
    pytest.importorskip("pettingzoo")
    from chickenfoot.pettingzoo import env as make_env

    game = make_env(players=2, rounds=2)
    game.reset(seed=5)
    seen = []
    for agent in game.agent_iter():
        observation, _, termination, truncation, info = game.last()
        if "round_outcome" in info and (not seen or seen[-1][0] != len(game.unwrapped.game.results)):
            seen.append((len(game.unwrapped.game.results), info["round_outcome"]))
        action = None if termination or truncation else game.action_space(agent).sample(observation["action_mask"])
        game.step(action)
    played = game.unwrapped.game
    assert [outcome for _, outcome in seen] == [result.outcome for result in played.results]
    assert info["outcome"] == cf.Outcome(
        cf.Termination.LAST_ROUND, cf.decide_winners(played.rules, played.totals, played.results)
    )


def test_openspiel_states_tell_each_rounds_outcome_and_the_games() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import chickenfoot.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_chickenfoot", {"players": 2, "rounds": 2})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    outcomes = state.round_outcomes()
    assert outcomes == [result.outcome for result in state.core.results]
    assert len(outcomes) == 2
    assert state.outcome() == cf.Outcome(cf.Termination.LAST_ROUND, tuple(state.core.winners()))
    assert f"{outcomes[0]}; scores" in state.information_state_string(0)
    assert attrs.has(type(state.outcome()))


@pytest.mark.rule("END-2")
def test_end_2_a_round_blocked_as_dealt_ends_at_once_and_is_scored_as_dealt() -> None:
    # One tile each and every other tile kept back: no hand may hold a tile carrying the center's value.
    rules = cf.Rules.trains(hand_size=1, reserve=52)
    game = cf.new_game(rules, 2, seed=1)
    assert [str(result.outcome) for result in game.results] == ["blocked", "blocked"]
    assert game.round_index == 2
    for number, result in enumerate(game.results):
        dealt = cf.deal_round(rules, 2, 1, number)
        assert dealt.outcome == cf.Outcome(cf.Termination.BLOCKED, ())
        assert result.final == dealt
        assert result.final.history == ()  # nobody moved
        assert attrs.evolve(dealt) == dealt  # the position says it is over, however it is built
    from chickenfoot import reference
    from chickenfoot.conformance import game_differences

    expected = reference.new_game(rules, 2, seed=1)  # the reference closes them too, as dealt
    assert [result.final.history for result in expected.results] == [(), ()]
    assert game_differences(game, expected) == []
    whole = cf.new_game(rules, 2, seed=3)  # every round is blocked as dealt: over before a move
    assert whole.is_over
    assert cf.legal_moves(whole) == ()
    assert cf.replay(cf.GameRecord.from_game(whole))[-1] == whole
