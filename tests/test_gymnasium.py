"""The Gymnasium environment: it passes Gymnasium's checker, masks exactly the legal actions, pays
documented rewards, and plays its opponents between the agent's turns."""

from __future__ import annotations

import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import chickenfoot as cf  # noqa: E402
from chickenfoot import actions  # noqa: E402
from chickenfoot.gymnasium import ENV_IDS, ChickenfootEnv  # noqa: E402
from chickenfoot.observation import history_size, observation_size  # noqa: E402


def _episode(env: ChickenfootEnv, seed: int) -> tuple[list[float], dict[str, object]]:
    """Plays one episode with random legal actions; returns the rewards and the last info."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    rewards = []
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        rewards.append(reward)
    return rewards, info


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize(
    "options",
    [{}, {"players": 3, "rounds": 1, "history": True, "reward": "round", "opponents": "random"}],
    ids=["defaults", "options"],
)
def test_gymnasium_check_env_passes_without_warnings(env_id: str, options: dict[str, object]) -> None:
    env = gymnasium.make(env_id, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning fails the test
        check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize(("env_id", "deal"), [("chickenfoot/Trains-v0", "trains"), ("chickenfoot/Cross-v0", "cross")])
def test_make_takes_the_rules_options_and_player_count(env_id: str, deal: str) -> None:
    env = gymnasium.make(env_id, players=3, max_pip=12, history=True).unwrapped
    assert (env.rules.deal, env.rules.max_pip, env.players) == (deal, 12, 3)
    size = observation_size(env.rules, 3) + history_size(env.rules, 3)
    assert env.observation_space.shape == (size,)
    assert env.action_space.n == actions.action_count(env.rules)
    variant = cf.Rules.cross(max_pip=6, center_arms=3)
    assert gymnasium.make(env_id, rules=variant).unwrapped.rules == variant


def test_the_mask_flags_exactly_the_legal_actions_of_the_agents_seat() -> None:
    env = ChickenfootEnv(players=3, rounds=1, opponents="random")
    _, info = env.reset(seed=3)
    steps = 0
    while True:
        game = env.game
        assert game is not None
        assert game.round.current_player == env.seat  # opponents have moved: it is the agent's turn
        legal = actions.legal_actions(game)
        assert np.flatnonzero(env.action_masks()).tolist() == sorted(legal)
        assert np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
        _, _, done, _, info = env.step(legal[0])
        steps += 1
        if done:
            break
    assert not env.action_masks().any()
    assert steps > 3


def test_the_game_reward_is_the_win_utility_of_the_agents_seat() -> None:
    outcomes = set()
    for seed in range(12):
        env = ChickenfootEnv(players=3, rounds=1, opponents="random")
        rewards, info = _episode(env, seed)
        game = env.game
        assert game is not None
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)  # paid once, at the end
        low = min(game.totals)
        won = [seat for seat, total in enumerate(game.totals) if total == low]
        if won == [env.seat]:
            assert rewards[-1] == 1.0
        elif env.seat not in won:
            assert rewards[-1] == -0.5
        else:
            assert rewards[-1] == pytest.approx(1 / len(won) * 1.5 - 0.5)
        outcomes.add(rewards[-1] > 0)
        assert info["seat"] == env.seat
    assert outcomes == {True, False}  # both outcomes were seen


def test_round_rewards_follow_each_round_and_stay_within_one() -> None:
    env = ChickenfootEnv(players=2, rounds=3, reward="round", seat=1)
    rewards, _ = _episode(env, seed=4)
    game = env.game
    assert game is not None
    paid = [reward for reward in rewards if reward != 0.0]
    assert len(paid) == len(game.results) == 3
    worst = sum(tile.pips for tile in cf.full_set(9))  # every tile of double-9 in one hand
    for reward, result in zip(paid, game.results, strict=True):
        mean = sum(result.scores) / 2
        assert reward == pytest.approx((mean - result.scores[1]) / worst)
        assert -1 <= reward <= 1


def test_an_illegal_action_raises_or_ends_the_episode_with_the_penalty() -> None:
    strict = ChickenfootEnv(illegal="raise")
    strict.reset(seed=1)
    before = strict.game
    illegal = int(np.flatnonzero(~strict.action_masks())[0])
    with pytest.raises(cf.IllegalMoveError, match=f"action {illegal} is not legal"):
        strict.step(illegal)
    assert strict.game is before  # nothing changed
    lenient = ChickenfootEnv(illegal_penalty=-2.0)
    lenient.reset(seed=1)
    _, reward, done, _, info = lenient.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-2.0, True, True)
    with pytest.raises(RuntimeError, match="call reset"):
        lenient.step(0)


def test_a_seed_fixes_the_episode_and_the_opponents_are_asked() -> None:
    asked: list[int] = []

    def first(view: cf.PlayerView) -> cf.Move:
        asked.append(view.player)
        return view.legal_moves[0]

    runs = []
    for _ in range(2):
        env = ChickenfootEnv(players=3, rounds=1, opponents=[first, "greedy"])
        rewards, _ = _episode(env, seed=9)
        runs.append((env.seat, rewards, env.game))
    assert runs[0] == runs[1]
    assert asked
    assert env.seat not in asked


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"preset": "mexican"}, "unknown preset"),
        ({"players": 9}, "players"),
        ({"rounds": 11}, "rounds must be"),
        ({"seat": 2}, "seat must be"),
        ({"reward": "score"}, "reward must be"),
        ({"illegal": "ignore"}, "illegal must be"),
        ({"players": 3, "opponents": ["greedy"] * 3}, "one opponent for every other seat"),
        ({"opponents": "chess"}, "unknown bot 'chess'"),
        ({"opponents": [42]}, "an opponent is a bot name or a bot"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ChickenfootEnv(**options)  # type: ignore[arg-type]


def test_gymnasium_vectorizes_the_env() -> None:
    envs = gymnasium.make_vec("chickenfoot/Trains-v0", num_envs=2, vectorization_mode="sync", rounds=1)
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (2, *envs.single_observation_space.shape)
    actions_now = [int(np.flatnonzero(mask)[0]) for mask in infos["action_mask"]]
    envs.step(np.array(actions_now))
    envs.close()


def test_an_action_is_read_from_ints_numpy_integers_and_0d_arrays() -> None:
    for kind in (int, np.int64, np.array):
        env = ChickenfootEnv(illegal="raise")
        _, info = env.reset(seed=2)
        action = int(np.flatnonzero(info["action_mask"])[0])
        env.step(kind(action))
    for bad in (True, 1.0, "3", np.array([action])):
        env = ChickenfootEnv(illegal="raise")
        env.reset(seed=2)
        with pytest.raises(cf.IllegalMoveError, match="is not legal"):
            env.step(bad)


def test_closing_the_env_stops_opponent_programs() -> None:
    import sys
    from pathlib import Path

    script = str(Path(__file__).resolve().parents[1] / "examples" / "bots" / "heaviest.py")
    bot = cf.bots.ProcessBot([sys.executable, script])
    env = ChickenfootEnv(opponents=bot, seat=0, rounds=1)
    _episode(env, seed=1)
    assert bot.faults == []
    assert bot.pid is not None  # it played
    env.close()
    assert bot.pid is None


def test_the_ansi_render_numbers_rounds_as_the_cli_and_the_pictures_do() -> None:
    # Round 1 is the first round (round_index 0) everywhere a person reads a round's number.
    env = ChickenfootEnv(players=2, max_pip=6, render_mode="ansi", seat=0)
    _, info = env.reset(seed=3)
    assert (env.render() or "").startswith("round 1 of 7 | you are P0")
    while env.game is not None and env.game.round_index == 0:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not done
    assert env.game is not None
    assert (env.render() or "").startswith("round 2 of 7 | ")
    assert str(env.game).startswith("Round 2 of 7, ")
    assert str(cf.observe(env.game, 0)).startswith("P0's view, round 2 of 7")
