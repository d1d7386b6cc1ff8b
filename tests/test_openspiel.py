"""The OpenSpiel game passes OpenSpiel's own checks, and its search bots run on it."""

from __future__ import annotations

import random
import runpy
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import chickenfoot as cf  # noqa: E402
import chickenfoot._game._scoring  # noqa: E402
import chickenfoot.openspiel  # noqa: E402  (registers the game)
from chickenfoot import actions  # noqa: E402


def load(**params: object) -> object:
    return pyspiel.load_game("python_chickenfoot", params)


def play_to(state: object, steps: int, seed: int) -> object:
    """Plays random actions (chance by its probabilities) for up to ``steps`` decisions."""
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal() and (state.is_chance_node() or decisions < steps):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return state


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["trains", "cross"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_random_sim_test_one_round_at_every_player_count(preset: str, players: int) -> None:
    # Double-9 where it holds enough tiles for the deal, else double-12 (8 players on double-12
    # under both presets). random_sim_test checks every return against the declared bounds.
    game = load(preset=preset, players=players, rounds=1, max_pip=_smallest_set(preset, players))
    pyspiel.random_sim_test(game, num_sims=2 if players < 6 else 1, serialize=True, verbose=False)


def _smallest_set(preset: str, players: int) -> int:
    """Gets 9, or 12 for 8 players or where double-9 holds too few tiles for the deal."""
    rules = cf.Rules.trains() if preset == "trains" else cf.Rules.cross()
    try:
        rules.check_players(players)
    except cf.RulesError:
        return 12
    return 12 if players == 8 else 9


@pytest.mark.parametrize("players", range(2, 9))
def test_win_utilities_stay_within_the_declared_bounds_exactly(players: int) -> None:
    game = load(players=players, max_pip=12, rounds=1)
    for winners in ([0], list(range(players)), [0, players - 1]):
        returns = chickenfoot._game._scoring.win_utilities(players, winners)
        assert all(game.min_utility() <= value <= game.max_utility() for value in returns)
        assert sum(returns) == pytest.approx(0, abs=1e-12)
    sole = chickenfoot._game._scoring.win_utilities(players, [1])
    assert sole[1] == game.max_utility() == 1.0
    assert sole[0] == game.min_utility() == -1 / (players - 1)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["trains", "cross"])
def test_random_sim_test_whole_game(preset: str) -> None:
    pyspiel.random_sim_test(load(preset=preset, players=3), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("params", [{"max_pip": 6, "players": 2, "utility": "score"}, {"max_pip": 12, "players": 5}])
def test_random_sim_test_other_sets_and_utilities(params: dict[str, object]) -> None:
    pyspiel.random_sim_test(load(rounds=2, **params), num_sims=2, serialize=True, verbose=False)


def test_game_info_matches_the_encoding() -> None:
    game = load(preset="cross", players=4)
    rules = cf.Rules.cross()
    assert game.num_distinct_actions() == actions.action_count(rules)
    assert game.max_chance_outcomes() == rules.set_size
    assert game.min_utility() == pytest.approx(-1 / 3)
    assert game.max_utility() == 1.0
    assert game.utility_sum() == 0.0


def test_trains_starter_odds_follow_the_shuffle() -> None:
    # DEAL-A1: 55 positions dealt round-robin from seat 0: seats 0-2 take 14 positions, seat 3 takes 13.
    state = load(preset="trains", players=4).new_initial_state()
    assert state.is_chance_node()
    odds = dict(state.chance_outcomes())
    assert odds == pytest.approx({0: 14 / 55, 1: 14 / 55, 2: 14 / 55, 3: 13 / 55})


def test_each_draw_is_a_chance_node_over_the_yard() -> None:
    game = load(preset="trains", players=2, rounds=1)
    for seed in range(40):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            if actions.draw_action(cf.Rules.trains()) in legal:
                yard = {t.index for t in state.core.round.yard}
                state.apply_action(actions.draw_action(cf.Rules.trains()))
                assert state.is_chance_node()
                outcomes = state.chance_outcomes()
                assert {a for a, _ in outcomes} == yard
                assert sum(p for _, p in outcomes) == pytest.approx(1)
                return
            state.apply_action(rng.choice(legal))
    pytest.fail("no draw in 40 games")


@pytest.mark.parametrize("preset", ["trains", "cross"])
@pytest.mark.parametrize("seed", range(4))
def test_resampling_keeps_the_information_state(preset: str, seed: int) -> None:
    game = load(preset=preset, players=3, rounds=2)
    state = play_to(game.new_initial_state(), 15 + 20 * seed, seed=seed)
    if state.is_terminal():
        return
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = state.information_state_string(player)
    for _ in range(3):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == seen
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        assert hidden(sample, player) == hidden(state, player)
        for other in range(3):  # every hand keeps its size
            assert len(sample.core.round.hands[other]) == len(state.core.round.hands[other])


def test_cross_setup_draws_until_the_double_turns_up() -> None:
    # DEAL-B2, B3: deal and draw the lowest tiles first, so 9-9 (the highest) comes last of 55.
    state = load(preset="cross", players=2, rounds=1).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # 14 dealt, then 41 setup draws by seats 0, 1, 0, ...: the 41st (seat 0) is the double.
    round_ = state.core.round
    assert round_.board.center == cf.Tile(9, 9)
    assert [len(hand) for hand in round_.hands] == [7 + 20, 7 + 20]
    assert round_.yard == ()
    assert state.current_player() == 1


def test_trains_starter_moves_first() -> None:
    state = load(preset="trains", players=4, rounds=1).new_initial_state()
    state.apply_action(2)  # DEAL-A1: seat 2 finds the double
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.current_player() == 2  # DEAL-A4
    assert [len(hand) for hand in state.core.round.hands] == [11] * 4  # DEAL-A3
    assert len(state.core.round.yard) == 55 - 1 - 44


def hidden(state: object, player: int) -> list[cf.Tile]:
    """Lists the tiles ``player`` cannot see: other hands and the yard."""
    round_ = state.core.round
    others = [tile for seat, hand in enumerate(round_.hands) if seat != player for tile in hand]
    return sorted(others + list(round_.yard))


def test_information_state_hides_other_hands() -> None:
    state = play_to(load(preset="cross", players=3, rounds=1).new_initial_state(), 0, seed=2)
    text = state.information_state_string(0)
    for tile in state.core.round.hands[0]:
        assert f"deal {tile}" in text or f"setup {tile}" in text
    for tile in hidden(state, 0):
        assert str(tile) not in text.split()


@pytest.mark.slow
def test_ismcts_and_mcts_bots_play_a_round() -> None:
    game = load(preset="cross", players=3, rounds=1)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = {
        # Strict: an information state must fix the legal actions, in every resampled world too.
        0: ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=rng),
        1: mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng),
    }
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes, p=weights))
        else:
            bot = bots.get(state.current_player())
            state.apply_action(bot.step(state) if bot else rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(0)


def test_serialization_round_trips() -> None:
    game = load(preset="cross", players=4, rounds=1)
    state = play_to(game.new_initial_state(), 30, seed=9)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state)
    assert again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


def test_bad_parameters_are_refused_clearly() -> None:
    with pytest.raises(Exception, match="unknown preset"):
        load(preset="mexican")
    with pytest.raises(Exception, match="rounds must be"):
        load(rounds=11)
    with pytest.raises(Exception, match="need 57 tiles"):
        load(preset="cross", players=8)


@pytest.mark.slow
def test_search_example_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "openspiel_search.py"
    monkeypatch.setattr(sys, "argv", [str(path), "--simulations", "5"])
    runpy.run_path(str(path), run_name="__main__")
    assert "returns:" in capsys.readouterr().out


def _observation(game: object, private: object, perfect_recall: bool) -> object:
    kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=True, private_info=private)
    return make_observation(game, kind)


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_a_public_observer_leaves_out_the_players_hand(perfect_recall: bool) -> None:
    game = load(preset="cross", players=3, rounds=1)
    state = play_to(game.new_initial_state(), 6, seed=5)
    player = state.current_player()
    hand = state.core.round.hands[player]
    private = _observation(game, pyspiel.PrivateInfoType.SINGLE_PLAYER, perfect_recall)
    public = _observation(game, pyspiel.PrivateInfoType.NONE, perfect_recall)
    private.set_from(state, player)
    public.set_from(state, player)
    assert private.tensor.shape == public.tensor.shape
    assert private.dict["hand"].sum() == len(hand)
    assert public.dict["hand"].sum() == 0
    assert public.dict["drawn"].sum() == 0
    assert np.array_equal(private.dict["board"], public.dict["board"])  # the public part is the same
    text = public.string_from(state, player)
    shown = set(text.replace("|", " ").split())
    board = {str(node.tile) for node in state.core.round.board.nodes}
    assert not ({str(tile) for tile in hand} - board) & shown  # no tile of the hand is named
    assert {str(tile) for tile in hand} & set(private.string_from(state, player).replace("|", " ").split())


def test_an_observer_of_every_hand_is_refused() -> None:
    game = load(preset="cross", players=3, rounds=1)
    with pytest.raises(Exception, match="not every player's hands"):
        _observation(game, pyspiel.PrivateInfoType.ALL_PLAYERS, False)


class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """The docs' workaround: evaluate_bots calls restart_at, which the Python ISMCTS bot lacks."""

    def restart_at(self, state: object) -> None:
        """Does nothing: ISMCTS keeps no tree from one move to the next."""


@pytest.mark.slow
def test_evaluate_bots_runs_ismcts_with_the_documented_workaround() -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = load(preset="cross", players=2, rounds=1)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [RestartableISMCTSBot(game, evaluator, 2.0, 5, random_state=rng) for _ in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("preset", ["trains", "cross"])
def test_apply_action_refuses_what_was_not_offered(preset: str) -> None:
    # Every step: an action outside legal_actions()/chance_outcomes() raises a SpielError (and
    # an IllegalMoveError) and leaves the state as it was; then a legal one is played.
    game = pyspiel.load_game("python_chickenfoot", {"preset": preset, "players": 3, "rounds": 1})
    state = game.new_initial_state()
    rng = random.Random(3)
    refused = 0
    while not state.is_terminal():
        offered = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        universe = range(game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions())
        outside = [a for a in universe if a not in offered] + [10**6]
        before = str(state)
        for action in rng.sample(outside, min(2, len(outside))):
            with pytest.raises(pyspiel.SpielError) as caught:
                state.apply_action(action)
            assert isinstance(caught.value, cf.IllegalMoveError)
            refused += 1
        assert str(state) == before
        state.apply_action(rng.choice(offered))
    assert refused > 50
