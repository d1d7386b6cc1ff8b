"""The Gymnasium vector environment over a batch: spaces, masks, rewards and same-step resets."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import chickenfoot as cf  # noqa: E402
from chickenfoot import actions, batch, conformance, reference  # noqa: E402
from chickenfoot._game._scoring import win_utilities  # noqa: E402
from chickenfoot.batch.env import BatchVectorEnv  # noqa: E402
from chickenfoot.observation import observation  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["random", "heaviest"])
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
    with pytest.raises(ValueError, match=r"^seat must be a seat from 0 to 1, got 2$"):
        BatchVectorEnv(num_envs=2, players=2, seat=2)
    for bad in (0, "3"):
        with pytest.raises(ValueError, match=rf"^num_envs must be a whole number, 1 or more; got {bad!r}$"):
            BatchVectorEnv(num_envs=bad)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match=r"^call reset\(\) before step\(\)$"):
        BatchVectorEnv(num_envs=2).step(np.zeros(2, dtype=int))
    with pytest.raises(RuntimeError, match="before step"):
        BatchVectorEnv(num_envs=2).action_masks()
    one = BatchVectorEnv(num_envs=1)  # one game is enough
    one.reset()
    assert one.action_masks().shape == (1, 902)


def test_the_defaults() -> None:
    env = BatchVectorEnv()
    assert (env.num_envs, env.players, env.seat, env.single_round, env.reward) == (64, 4, 0, False, "win")
    assert env.rules == cf.Rules.trains()
    assert env.single_observation_space.dtype == np.float32


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


class Following:
    """Plays the opponents' seats at random and follows every game of the environment in the reference.

    Each round is checked as dealt (against the deal rules and the reference dealing its tiles),
    then move by move, the learner's and the opponents', until it ends and is dealt again.
    """

    def __init__(self, players: int, seat: int, seed: int) -> None:
        self.players, self.seat = players, seat
        self.rng = random.Random(seed)
        self.rounds: dict[int, reference.Round] = {}
        self.done: dict[int, reference.Round] = {}  # rounds that ended and were dealt again since the last check
        self.ended = 0

    def current(self, games: batch.Batch, game: int) -> reference.Round:
        """Gets the reference's round of ``game``, taking a new deal where the last round ended."""
        if game not in self.rounds or self.rounds[game].is_over:
            if game in self.rounds:
                self.done[game] = self.rounds[game]
            state = batch.to_state(games, game)
            assert isinstance(state, cf.RoundState)
            round_index = state.rules.max_pip - state.double
            self.rounds[game] = conformance.check_deal("the vector env", self.players, round_index, state, None)
        return self.rounds[game]

    def play(self, games: batch.Batch, game: int, mask: np.ndarray) -> int:
        """Picks a legal action of ``game`` and plays its move in the reference."""
        state = batch.to_state(games, game)
        expected = self.current(games, game)
        offered = {int(a): str(actions.decode(int(a), state)) for a in np.flatnonzero(mask)}
        assert set(offered.values()) == set(reference.legal_moves(expected))
        action = self.rng.choice(sorted(offered))
        self.rounds[game] = reference.apply(expected, offered[action])
        return action

    def opponent(self, games: batch.Batch) -> np.ndarray:
        """The opponents: one random legal action per game an opponent is to move in."""
        chosen = np.zeros(games.size, dtype=np.intp)
        mask = batch.legal_action_mask(games)
        for game in np.flatnonzero(~games.game_over & (games.current != self.seat)).tolist():
            chosen[game] = self.play(games, game, mask[game])
        return chosen

    def check(self, games: batch.Batch, rewards: np.ndarray, terminated: np.ndarray) -> None:
        """Checks each game after a step: the round the reference has, or its end, its winners paid."""
        for game in range(games.size):
            self.current(games, game)  # a round the learner ended is dealt again, with no opponent move yet
            ended = self.done.pop(game, None)
            assert bool(terminated[game]) is (ended is not None)
            if ended is not None:  # the reference pays the round's winners
                scores = reference.score_round(ended)
                won = [seat for seat, score in enumerate(scores) if score == min(scores)]
                assert rewards[game] == pytest.approx(win_utilities(self.players, won)[self.seat])
                self.ended += 1
            else:
                assert rewards[game] == 0
            assert conformance.round_differences(batch.to_state(games, game), self.rounds[game], history=False) == []


@pytest.mark.rule("TURN-1", "SCORE-1")
def test_every_game_of_the_vector_env_follows_the_reference() -> None:
    """The learner's moves and the opponents', across automatic resets, against chickenfoot.reference."""
    rules = cf.Rules.cross(max_pip=6, center_fallback="highest_double")
    following = Following(players=3, seat=1, seed=2)
    env = BatchVectorEnv(num_envs=4, rules=rules, players=3, seat=1, single_round=True, opponent=following.opponent)
    obs, infos = env.reset(seed=7)
    games = env.games
    assert games is not None
    assert (batch.to_state(games, 0).current_player, obs.shape[0]) == (1, 4)
    for game in range(4):
        following.current(games, game)
    for _ in range(120):
        games = env.games
        assert games is not None
        assert (games.current == env.seat).all()  # the opponents moved up to the learner's turn
        assert (infos["action_mask"] == batch.legal_action_mask(games)).all()
        assert (obs == batch.observations(games, env.seat)).all()
        chosen = np.array([following.play(games, game, infos["action_mask"][game]) for game in range(4)])
        obs, rewards, terminated, truncated, infos = env.step(chosen)
        assert not truncated.any()
        assert (rewards.dtype, terminated.dtype, truncated.dtype) == (np.float32, np.bool_, np.bool_)
        if terminated.any():  # the last observation of a round that ended, before it was dealt again
            assert (infos["final_obs"].shape, infos["_final_obs"].tolist()) == (obs.shape, terminated.tolist())
        else:
            assert "final_obs" not in infos
        assert (env.action_masks() == infos["action_mask"]).all()
        following.check(env.games, rewards, terminated)
    assert following.ended >= 8


def test_reset_deals_game_i_from_seed_plus_i_and_the_spaces_fit() -> None:
    rules = cf.Rules.trains(max_pip=6)
    env = BatchVectorEnv(num_envs=3, rules=rules, players=2, seat=1, opponent="heaviest")
    size = observation(cf.new_game(rules, 2), 0).shape[0]
    assert (env.single_observation_space.shape, env.observation_space.shape) == ((size,), (3, size))
    assert (env.single_action_space.n, env.action_space.shape) == (actions.action_count(rules), (3,))
    obs, _ = env.reset(seed=5)
    assert env.games is not None
    assert env.games.seed.tolist() == [5, 6, 7]
    assert (env.games.current == 1).all()
    assert obs in env.observation_space
    again, _ = env.reset(seed=5)
    assert (again == obs).all()
    env.reset()  # no seed: from the environment's generator, seeded by the last reset
    seeds = env.games.seed.tolist()
    assert seeds != [5, 6, 7]
    assert all(0 <= seed < 2**62 for seed in seeds)
    assert max(seeds) >= 2**32  # drawn from the whole range (each below 2**32 about once in 4 billion)
    twin = BatchVectorEnv(num_envs=3, rules=rules, players=2, seat=1, opponent="heaviest")
    twin.reset(seed=5)
    twin.reset()
    assert twin.games is not None
    assert twin.games.seed.tolist() == seeds
    fresh = BatchVectorEnv(num_envs=2, rules=rules, players=2, reward="score")
    fresh.reset()  # never seeded: its own generator
    assert fresh.games is not None
    assert fresh.games.reward == "score"
