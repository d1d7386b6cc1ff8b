"""The Gymnasium vector environment over a batch: spaces, masks, rewards and same-step resets."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import chickenfoot as cf  # noqa: E402
from chickenfoot import batch  # noqa: E402
from chickenfoot.batch.env import BatchVectorEnv  # noqa: E402
from chickenfoot.observation import observation  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_learner_always_moves_and_episodes_end_with_win_utilities(opponent: str) -> None:
    env = BatchVectorEnv(num_envs=16, rules=cf.Rules.trains(max_pip=6), players=3, opponent=opponent, seat=1)
    obs, infos = env.reset(seed=3)
    assert obs.shape == (16, env.single_observation_space.shape[0])
    assert env.observation_space.shape == (16, *env.single_observation_space.shape)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        games = env.games
        assert games is not None
        assert (games.current == 1).all()
        for i in range(3):
            assert obs[i].tolist() == observation(batch.to_state(games, i), 1).tolist()
        mask = infos["action_mask"]
        assert (mask == env.action_masks()).all()
        assert mask.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        assert (rewards[~terminated] == 0).all()
        assert np.isin(np.round(rewards[terminated], 4), np.round([1.0, -0.5, 0.25, 0.0], 4)).all()
        finished += int(terminated.sum())
        if terminated.any():
            assert infos["final_obs"].shape == obs.shape
            assert (infos["_final_obs"] == terminated).all()
    assert finished > 0


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="opponent must be"):
        BatchVectorEnv(num_envs=2, opponent="clever")
    with pytest.raises(ValueError, match="seat must be"):
        BatchVectorEnv(num_envs=2, players=2, seat=2)
    with pytest.raises(RuntimeError, match="reset"):
        BatchVectorEnv(num_envs=2).step(np.zeros(2, dtype=int))


def test_make_vec_builds_it_from_a_vector_entry_point() -> None:
    import gymnasium

    name = "chickenfoot_test/BatchTrains-v0"
    gymnasium.register(id=name, entry_point=None, vector_entry_point="chickenfoot.batch.env:BatchVectorEnv")
    try:
        env = gymnasium.make_vec(name, num_envs=4, vectorization_mode="vector_entry_point", players=3)
        obs, infos = env.reset(seed=0)
        assert isinstance(env, BatchVectorEnv)
        assert obs.shape == (4, env.single_observation_space.shape[0])
        assert infos["action_mask"].shape == (4, 902)
    finally:
        gymnasium.registry.pop(name)
