"""The PettingZoo environment passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import functools
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import chickenfoot as cf
import chickenfoot.observation
from chickenfoot import actions
from chickenfoot.pettingzoo import env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo nags about Dict observations


@pytest.mark.parametrize("preset", ["trains", "cross"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_api_and_seed_tests(preset: str, players: int) -> None:
    api_test(env(preset=preset, players=players, rounds=2), num_cycles=1000)
    seed_test(functools.partial(env, preset=preset, players=players, rounds=2), num_cycles=200)


def test_api_test_whole_game_with_round_rewards() -> None:
    api_test(env(preset="cross", players=4, reward="score"), num_cycles=100_000)


def play(game: object, seed: int) -> dict[str, float]:
    game.reset(seed=seed)
    earned: dict[str, float] = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        earned[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.sum() == len(cf.legal_moves(game.game))
        assert agent == f"player_{game.game.round.current_player}"
        game.step(game.action_space(agent).sample(mask))
    return earned


def test_win_rewards_pay_the_winners() -> None:
    game = env(preset="trains", players=3)
    earned = play(game, seed=4)
    winners = game.game.winners
    assert sum(earned.values()) == pytest.approx(0)
    for seat, agent in enumerate(game.possible_agents):
        assert (earned[agent] > 0) == (seat in winners)


def test_score_rewards_add_up_to_the_totals() -> None:
    game = env(preset="cross", players=4, reward="score")
    earned = play(game, seed=8)
    totals = game.game.totals
    mean = sum(totals) / 4
    assert [earned[agent] for agent in game.possible_agents] == pytest.approx([mean - t for t in totals])


def test_only_the_agent_to_move_has_a_mask() -> None:
    game = env(players=4)
    game.reset(seed=1)
    for agent in game.possible_agents:
        mask = game.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == game.agent_selection)


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    game = env(players=4)
    game.reset(seed=1)
    before = game.game
    with pytest.raises(ValueError, match="not legal"):
        game.step(actions.pass_action(game.rules))
    assert game.game is before
    with pytest.raises(ValueError, match="must act"):
        game.step(None)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        env(preset="mexican")
    with pytest.raises(ValueError, match="reward must be"):
        env(reward="money")
    with pytest.raises(cf.RulesError, match="need 57 tiles"):
        env(preset="cross", players=8)


def test_ansi_render_draws_the_layout() -> None:
    game = env(players=2, render_mode="ansi")
    game.reset(seed=3)
    text = game.render()
    assert text is not None
    assert text.startswith("round 1 of 10 | hands player_0:21 player_1:21 | yard 12")  # DEAL-A3, YARD: 55 - 1 - 42
    assert "#0 9-9 center, 0/2 arms" in text


@pytest.mark.slow
@pytest.mark.parametrize(
    ("script", "arguments"), [("pettingzoo_random.py", []), ("pettingzoo_training.py", ["--episodes", "10"])]
)
def test_examples_run(
    script: str, arguments: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / script
    monkeypatch.setattr(sys, "argv", [str(path), *arguments])
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out


def test_a_game_cut_short_ends_on_the_last_round_played() -> None:
    game = env(preset="trains", players=2, rounds=1)
    play(game, seed=1)
    final = game.game.results[-1].final
    assert len(game.game.results) == 1
    assert game.game.round == final  # not the next round the engine dealt
    assert game.game.round_index == 0
    assert "round 1 of 10" in (game.render() or "")


def test_api_test_with_history_and_scaled_scores() -> None:
    api_test(env(preset="trains", players=3, rounds=1, reward="score", history=True, scale=True), num_cycles=1000)


def _play_last_legal(game: object, seed: int) -> dict[str, float]:
    """Plays a game with the last legal action each turn (no randomness); gets each agent's rewards."""
    game.reset(seed=seed)
    earned: dict[str, float] = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        earned[agent] += reward
        game.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[-1]))
    return earned


def test_scaled_score_rewards_are_the_points_over_a_full_hand() -> None:
    plain = _play_last_legal(env(preset="cross", players=3, reward="score", rounds=2), seed=5)
    scaled_env = env(preset="cross", players=3, reward="score", rounds=2, scale=True)
    scaled = _play_last_legal(scaled_env, seed=5)
    worst = sum(map(scaled_env.rules.tile_value, cf.full_set(9)))  # all of double-9 in one hand, as cross counts it
    assert [scaled[agent] * worst for agent in scaled_env.possible_agents] == pytest.approx(
        [plain[agent] for agent in scaled_env.possible_agents]
    )
    assert all(-2 <= value <= 2 for value in scaled.values())  # two rounds, each within [-1, 1]


def test_the_history_observation_counts_who_played_drew_and_passed() -> None:
    game = env(preset="trains", players=3, rounds=1, history=True)
    game.reset(seed=2)
    base = cf.observation.observation_size(game.rules, 3)
    tiles = game.rules.set_size
    for _ in range(40):
        agent = game.agent_selection
        mask = game.observe(agent)["action_mask"]
        assert np.array_equal(game.infos[agent]["action_mask"], mask)  # the mask is in info too
        game.step(int(np.flatnonzero(mask)[-1]))
    seen_by = 1
    extra = game.observe(f"player_{seen_by}")["observation"][base:]
    assert extra.shape == (tiles * 3 + 6,)
    history = game.game.round.history
    for mover, move in history:
        if isinstance(move, cf.Play):
            assert extra[move.tile.index * 3 + (mover - seen_by) % 3] == 1
    assert extra[: tiles * 3].sum() == sum(isinstance(move, cf.Play) for _, move in history)
    for relative in range(3):
        mover = (seen_by + relative) % 3
        assert extra[tiles * 3 + relative] == sum(isinstance(m, cf.Draw) for p, m in history if p == mover)
        assert extra[tiles * 3 + 3 + relative] == sum(isinstance(m, cf.Pass) for p, m in history if p == mover)
    assert extra[tiles * 3 :].sum() > 0  # this game has draws or passes to count
