"""The batch beyond what the conformance suite checks: single rounds, purity, sampling, rewards and resets.

Whole games through the batch (either deal, and loaded from states) are in ``test_conformance.py``.
"""

from __future__ import annotations

import dataclasses
import random
import types

import pytest
from hypothesis import given, settings, strategies as st

np = pytest.importorskip("numpy")

import chickenfoot as cf  # noqa: E402
from _games import play_randomly, random_walk  # noqa: E402
from chickenfoot import actions, batch, reference  # noqa: E402
from chickenfoot._game._scoring import win_utilities  # noqa: E402
from chickenfoot.conformance import game_differences, reference_round, round_differences  # noqa: E402

# Both presets, every option, every set and player counts 2 to 8.
CONFIGS = [
    (cf.Rules.trains(), 4),
    (cf.Rules.cross(), 3),
    (cf.Rules.trains(max_pip=6, reserve=0, unfillable_foot_ends_round=True, double_out_penalty=50), 2),
    (cf.Rules.cross(center_fallback="highest_double", blank_value=25), 4),
    (cf.Rules.cross(max_pip=12, drawn_tile="must_play", center_arms=6, draw_until_playable=True), 5),
    (cf.Rules.trains(max_pip=12, drawn_tile="may_play", double_blank_value=50, center_arms=8), 6),
    (cf.Rules.trains(max_pip=15, hand_size=9, tie_break="zero_rounds"), 7),
    (cf.Rules.cross(max_pip=18, unfillable_foot_ends_round=True, reserve=2), 8),
    (cf.Rules.trains(max_pip=18, draw_until_playable=True), 2),
]
IDS = [f"{rules.deal}-d{rules.max_pip}-{players}p-{i}" for i, (rules, players) in enumerate(CONFIGS)]


def play_single_rounds(games: batch.Batch, rng: random.Random) -> batch.Batch:
    """Steps single-round games to their ends with random legal actions, checking masks and states
    against the reference at every step, and that each step is pure (the batch it steps from is unchanged)."""
    expected = [reference_round(batch.to_state(games, i)) for i in range(games.size)]
    while not games.game_over.all():
        mask = batch.legal_action_mask(games)
        chosen = []
        for i in range(games.size):
            state = batch.to_state(games, i)
            offered = {str(actions.decode(int(action), state)) for action in np.flatnonzero(mask[i])}
            assert offered == set(reference.legal_moves(expected[i])), i
            move = rng.choice(sorted(offered)) if offered else None
            chosen.append(actions.encode(cf.parse_move(move), state) if move else 0)
            if move:
                expected[i] = reference.apply(expected[i], move)
        before = [batch.to_state(games, i) for i in range(games.size)]
        stepped = batch.step(games, np.array(chosen))
        assert [batch.to_state(games, i) for i in range(games.size)] == before  # step is pure
        games = stepped
        for i in range(games.size):
            assert round_differences(batch.to_state(games, i), expected[i], history=False) == []
    return games


@pytest.mark.parametrize(("rules", "players"), CONFIGS[:5], ids=IDS[:5])
def test_single_rounds_follow_the_reference(rules: cf.Rules, players: int) -> None:
    rng = random.Random(3)
    states = [play_randomly(cf.new_game(rules, players, seed), rng, rng.randrange(0, 40)).round for seed in range(4)]
    games = batch.from_states(states)
    assert games.single_round
    assert not games.game_over.any()
    finished = play_single_rounds(games, rng)
    assert all(batch.to_state(finished, i).is_over for i in range(4))


def test_the_same_seed_deals_the_same_game_whatever_the_batch() -> None:
    rules = cf.Rules.cross()
    alone = batch.init(rules, 4, [17])
    among = batch.init(rules, 4, [3, 17, 99])
    assert batch.to_state(alone, 0) == batch.to_state(among, 1)
    assert batch.to_state(among, 0) != batch.to_state(among, 1)


@pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=IDS)
def test_random_and_greedy_actions_are_legal(rules: cf.Rules, players: int) -> None:
    games = batch.init(rules, players, np.arange(64))
    rng = np.random.default_rng(0)
    for step in range(150):
        mask = batch.legal_action_mask(games)
        assert mask.dtype == np.bool_
        live = ~games.game_over
        for chosen in (batch.random_actions(games, rng), batch.heaviest_actions(games)):
            assert mask[np.arange(games.size), chosen][live].all()
        picker = batch.heaviest_actions(games) if step % 3 == 0 else batch.random_actions(games, rng)
        batch.step_inplace(games, picker)


def _parts(state: cf.RoundState) -> list[tuple[int, int, int]]:
    """Gets each legal play as (matched value, other half, slot): the stages of the pick."""
    v = state.rules.max_pip + 1
    return [(*divmod(a // (v - 1), v), a % (v - 1)) for a in actions.legal_actions(state) if a < v * v * (v - 1)]


# Positions where each stage of the pick has a choice to make: the value played on, the tile
# (two tiles on one value), the end (two ends of one value), and pass beside plays (DRAW-3).
KINDS = {
    "values, tiles and ends": lambda parts, moves: (
        len({m for m, _, _ in parts}) >= 2
        and any(len({o for m2, o, _ in parts if m2 == m}) >= 2 for m, _, _ in parts)
        and any(slot > 0 for _, _, slot in parts)
    ),
    "a drawn tile or pass": lambda parts, moves: cf.Pass() in moves and len(parts) >= 2,
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_random_actions_are_uniform_over_the_legal_ones(kind: str) -> None:
    rng = random.Random(len(kind))
    state = next(
        state
        for game in range(1000)
        for state, _, _ in random_walk(cf.new_game(cf.Rules.cross(), 2, game).round, rng)
        if KINDS[kind](_parts(state), cf.legal_moves(state))
    )
    games = batch.from_states([state] * 6000)
    picks = batch.random_actions(games, np.random.default_rng(1))
    legal = actions.legal_actions(state)
    counts = np.bincount(picks, minlength=actions.action_count(state.rules))[legal]
    assert counts.sum() == 6000
    expected = 6000 / len(legal)
    # Chi-square with len(legal) - 1 degrees of freedom: a fair pick passes this but about once in 10^8.
    assert ((counts - expected) ** 2 / expected).sum() < 2 * len(legal) + 40


# Scores of 0 to 3 over few rounds, so that totals tie often and the ties go deep into TIE-2.
tables = st.integers(2, 6).flatmap(
    lambda players: st.lists(
        st.lists(st.lists(st.integers(0, 3), min_size=players, max_size=players), min_size=1, max_size=6),
        min_size=1,
        max_size=4,
    ).filter(lambda games: len({len(rounds) for rounds in games}) == 1)
)


@pytest.mark.rule("GAME-1", "TIE-1", "TIE-2")
@pytest.mark.parametrize("rules", [cf.Rules.trains(), cf.Rules.cross()], ids=["share", "zero_rounds"])
@given(scores=tables)
@settings(max_examples=300, deadline=None)
def test_the_batch_names_the_winners_of_tied_games_as_the_reference_does(
    rules: cf.Rules, scores: list[list[list[int]]]
) -> None:
    """Ties on the lowest total, settled by the rounds' scores (TIE-2) or shared (TIE-1), game by game."""
    from chickenfoot.batch._ending import winners

    arrays = np.array(scores, dtype=np.int32)  # games x rounds x players
    games = types.SimpleNamespace(totals=arrays.sum(axis=1), scores=arrays, tables=types.SimpleNamespace(rules=rules))
    won = winners(games, np.arange(len(scores)))  # type: ignore[arg-type]
    for game, rounds in enumerate(scores):
        results = tuple(reference.Result(0, tuple(round_scores), None, None) for round_scores in rounds)  # type: ignore[arg-type]
        totals = tuple(int(total) for total in arrays[game].sum(axis=0))
        assert tuple(np.flatnonzero(won[game])) == reference.decide_winners(rules, totals, results), rounds


@pytest.mark.rule("GAME-1", "TIE-1", "TIE-2")
@pytest.mark.parametrize("rules", [cf.Rules.trains(max_pip=6), cf.Rules.cross(max_pip=6, hand_size=5)])
def test_rewards_pay_the_winners_and_autoreset_deals_again(rules: cf.Rules) -> None:
    games = batch.init(rules, 3, np.arange(32), deal="engine")
    rng = np.random.default_rng(2)
    paid = 0
    while paid < 32:
        before = games
        chosen = batch.random_actions(games, rng)
        games = batch.step(games, chosen, autoreset=True)
        for i in np.flatnonzero(games.terminated):
            paid += 1
            last = batch.to_state(before, int(i))
            final = cf.apply(last, actions.decode(int(chosen[i]), last))
            assert final.is_over
            assert games.rewards[i].tolist() == pytest.approx(win_utilities(3, final.winners))
            assert games.seed[i] == i + 32
            assert not games.game_over[i]
            fresh = batch.to_state(games, int(i))
            assert game_differences(fresh, reference.new_game(rules, 3, int(i) + 32), history=False) == []
        assert games.rewards[~games.terminated].sum() == 0


@pytest.mark.parametrize(("single_round", "round_index"), [(False, 0), (True, 2)])
def test_autoreset_in_the_step_equals_reset_finished_after_it(single_round: bool, round_index: int) -> None:
    # A new game starts where its batch's games do: round 0, or a single round's own index.
    one = batch.init(cf.Rules.trains(max_pip=6), 3, np.arange(32), single_round=single_round, round_index=round_index)
    other = one.copy()
    rng = np.random.default_rng(2)
    restarted = 0
    for step in range(300):
        chosen = batch.random_actions(one, rng)
        if step < 40:  # some games finish and wait, unreset, for the first autoreset
            batch.step_inplace(one, chosen)
            batch.step_inplace(other, chosen)
            continue
        batch.step_inplace(one, chosen, autoreset=True)
        batch.reset_finished(batch.step_inplace(other, chosen))
        restarted += int(one.terminated.sum())
        assert (one.round_index[one.terminated] == round_index).all()
        for field in dataclasses.fields(one):
            if isinstance(getattr(one, field.name), np.ndarray):
                assert (getattr(one, field.name) == getattr(other, field.name)).all(), field.name
    assert restarted > 10


@pytest.mark.rule("PLAY-2")
def test_a_play_inside_a_list_of_open_ends_keeps_the_others_in_order() -> None:
    # The open ends of one value are a list, each end an action's slot; a play on an end inside
    # the list moves the later ends up. Random play seldom does that deep in a long list, so
    # these games play the next-to-last end of the longest list they can, and every step is
    # checked against the engine's apply.
    rules = cf.Rules.trains()
    v = rules.max_pip + 1
    games = batch.init(rules, 4, np.arange(24), deal="engine")
    rng = np.random.default_rng(5)
    deep = 0
    for _ in range(150):
        plays = batch.legal_action_mask(games)[:, : actions.draw_action(rules)].reshape(games.size, v * v, v - 1)
        ends = plays.sum(axis=2)  # per game and (matched, other): the ends that take it
        chosen = batch.random_actions(games, rng)
        for i in np.flatnonzero((ends.max(axis=1) >= 3) & ~games.game_over):
            row = int(ends[i].argmax())
            chosen[i] = actions.play_action(rules, *divmod(row, v), int(ends[i, row]) - 2)
            deep += int(ends[i, row]) >= 4
        before = [batch.to_state(games, i) for i in range(games.size)]
        batch.step_inplace(games, chosen)
        for i, state in enumerate(before):
            if not state.is_over:
                assert batch.to_state(games, i) == cf.apply(state, actions.decode(int(chosen[i]), state))
    assert deep >= 5  # 9 with these seeds


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    games = batch.init(cf.Rules.trains(), 4, np.arange(3), deal="engine")
    before = [batch.to_state(games, i) for i in range(3)]
    draw = actions.draw_action(games.tables.rules)
    with pytest.raises(cf.IllegalMoveError, match="illegal action in 3 games"):
        batch.step_inplace(games, np.full(3, draw))
    with pytest.raises(cf.IllegalMoveError, match="one per game"):
        batch.step(games, np.zeros(2, dtype=int))
    assert [batch.to_state(games, i) for i in range(3)] == before


@pytest.mark.parametrize(("rules", "players"), CONFIGS[:4], ids=IDS[:4])
def test_every_illegal_action_is_refused_naming_its_games(rules: cf.Rules, players: int) -> None:
    """Each action number, in range or not, is refused by exactly the games where it is not legal."""
    rng = random.Random(5)
    states = []
    for seed in range(7):  # mid-round positions: some with a tile just drawn, some with a foot pending
        state = play_randomly(cf.new_game(rules, players, seed), rng, 20 + 9 * seed)
        states.append(state if not state.is_over else cf.new_game(rules, players, seed))
    legal = [set(actions.legal_actions(state)) for state in states]
    games = batch.from_states(states)
    count = actions.action_count(rules)
    tries = [np.full(len(states), action) for action in [-1, *range(count), count, count + 1]]
    # And legal actions but in the first k games, so that one to all of them are named.
    some_legal = np.array([min(moves) for moves in legal])
    tries += [np.where(np.arange(len(states)) < k, count, some_legal) for k in range(len(states) + 1)]
    for chosen in tries:
        bad = [i for i, moves in enumerate(legal) if chosen[i] not in moves]
        before = {name: array.copy() for name, array in vars(games).items() if isinstance(array, np.ndarray)}
        if not bad:
            batch.step(games, chosen)
            continue
        with pytest.raises(cf.IllegalMoveError) as refused:
            batch.step(games, chosen)
        shown = ", ".join(f"game {i}: action {chosen[i]}" for i in bad[:5])
        more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
        plural = "s" if len(bad) > 1 else ""
        assert str(refused.value) == (
            f"illegal action in {len(bad)} game{plural} ({shown}{more}): "
            "pick actions where legal_action_mask(batch) is true"
        )
        assert all((getattr(games, name) == array).all() for name, array in before.items()), chosen


@pytest.mark.rule("SCORE-1", "SCORE-2")
@pytest.mark.parametrize(("rules", "players"), [CONFIGS[2], CONFIGS[3]], ids=[IDS[2], IDS[3]])
def test_score_rewards_are_each_rounds_scores_below_the_mean(rules: cf.Rules, players: int) -> None:
    """reward="score" pays, at each round's end, the mean of its scores less one's own (penalties included)."""
    seeds = range(6)
    engine = [cf.new_game(rules, players, seed) for seed in seeds]
    games = batch.init(rules, players, np.array(list(seeds)), deal="engine", reward="score")
    rng = np.random.default_rng(3)
    ended = 0
    while not all(game.is_over for game in engine):
        chosen = batch.random_actions(games, rng)
        games = batch.step(games, chosen)
        for i, game in enumerate(engine):
            if game.is_over:
                assert games.rewards[i].tolist() == [0] * players
                continue
            after = engine[i] = cf.apply(game, actions.decode(int(chosen[i]), game))
            new = after.results[len(game.results) :]  # a round blocked as dealt ends in the same step
            expected = [sum(sum(r.scores) / players - r.scores[seat] for r in new) for seat in range(players)]
            assert games.rewards[i].tolist() == pytest.approx(expected), (i, new)
            ended += len(new)
    assert ended == len(seeds) * (rules.max_pip + 1)  # every round of every game (ROUND-1)


SEEDS = "seeds must be a non-empty 1-D sequence of whole numbers, one per game; got "


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"rules": "trains"}, TypeError, "rules must be a chickenfoot.Rules, such as Rules.trains(); got 'trains'"),
        ({"seeds": []}, ValueError, SEEDS + "[]"),
        (
            {"seeds": [[1, 2]]},
            ValueError,
            "seeds must be a non-empty 1-D sequence of whole numbers, one per game; got [[1, 2]]",
        ),
        (
            {"seeds": [1.5]},
            ValueError,
            "seeds must be a non-empty 1-D sequence of whole numbers, one per game; got [1.5]",
        ),
        ({"round_index": -1}, ValueError, "round_index must be a whole number from 0 to 9, got -1"),
        ({"round_index": 10}, ValueError, "round_index must be a whole number from 0 to 9, got 10"),
        ({"round_index": True}, ValueError, "round_index must be a whole number from 0 to 9, got True"),
        ({"reward": "points"}, ValueError, "reward must be 'win' or 'score', got 'points'"),
    ],
)
def test_init_refuses_bad_arguments_in_so_many_words(
    arguments: dict[str, object], error: type[Exception], message: str
) -> None:
    call: dict[str, object] = {"rules": cf.Rules.trains(), "players": 2, "seeds": [1, 2], "single_round": True}
    with pytest.raises(error) as refused:
        batch.init(**{**call, **arguments})  # type: ignore[arg-type]
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("index", "error", "message"),
    [
        ("1", TypeError, "index must be a whole number, got '1'"),
        (3, IndexError, "the batch holds games 0 to 2, got 3"),
        (-1, IndexError, "the batch holds games 0 to 2, got -1"),
    ],
)
def test_to_state_refuses_an_index_outside_the_batch_in_so_many_words(
    index: object, error: type[Exception], message: str
) -> None:
    games = batch.init(cf.Rules.trains(max_pip=6), 2, np.arange(3))
    with pytest.raises(error) as refused:
        batch.to_state(games, index)  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_a_dealt_batch_reports_no_step_yet() -> None:
    games = batch.init(cf.Rules.trains(max_pip=6), 2, np.arange(4), single_round=True, round_index=6)
    assert not games.terminated.any()
    assert (games.rewards == 0).all()


@pytest.mark.parametrize("flags", [bool, int], ids=["bools", "ints"])
def test_games_held_back_or_finished_keep_their_state_while_the_others_move(flags: type) -> None:
    """Finished games ignore their action, as do those ``where`` holds back (flags: bools, or ints 0 and 1)."""
    games = batch.init(cf.Rules.trains(max_pip=6), 2, np.arange(8), single_round=True, round_index=5)
    rng = np.random.default_rng(4)
    where = np.arange(8) % 3 != 0
    while not games.game_over[where].all():
        held = [batch.to_state(games, i) for i in range(8) if not where[i] or games.game_over[i]]
        over = games.game_over.copy()
        batch.step_inplace(games, batch.random_actions(games, rng), where=where.astype(flags))
        assert held == [batch.to_state(games, i) for i in range(8) if not where[i] or over[i]]
        assert games.round_over[over].all()
        assert games.game_over[over].all()
        assert not games.terminated[~where].any()
    assert not games.game_over[~where].any()


def test_a_batch_holds_one_configuration() -> None:
    mixed = [cf.new_game(cf.Rules.trains(), 4, 1), cf.new_game(cf.Rules.trains(), 3, 1)]
    with pytest.raises(cf.RulesError, match="one rules configuration and player count"):
        batch.from_states(mixed)
    with pytest.raises(TypeError, match="GameStates only or RoundStates only"):
        batch.from_states([mixed[0], mixed[0].round])
    with pytest.raises(cf.RulesError, match="57 tiles"):
        batch.init(cf.Rules.cross(), 8, [0])
    with pytest.raises(ValueError, match="seeds must be"):
        batch.init(cf.Rules.cross(), 2, [])
    with pytest.raises(ValueError, match="deal must be"):
        batch.init(cf.Rules.cross(), 2, [1], deal="python")


def test_current_player_and_masks_of_finished_games() -> None:
    rules = cf.Rules.trains(max_pip=6)
    games = batch.init(rules, 2, [0, 1], single_round=True)
    rng = np.random.default_rng(0)
    while not games.game_over.all():
        expected = [batch.to_state(games, i).current_player for i in range(2)]
        current = batch.current_player(games)
        assert current.dtype == np.int8
        assert [c if c >= 0 else None for c in current.tolist()] == [
            None if over else player for player, over in zip(expected, games.game_over.tolist(), strict=True)
        ]
        batch.step_inplace(games, batch.random_actions(games, rng))
    assert not batch.legal_action_mask(games).any()
    assert (batch.current_player(games) == -1).all()


@pytest.mark.parametrize(("rules", "players"), CONFIGS[:6], ids=IDS[:6])
def test_observations_equal_the_single_game_vectors(rules: cf.Rules, players: int) -> None:
    from chickenfoot.observation import observation

    rng = random.Random(8)
    states = [play_randomly(cf.new_game(rules, players, seed), rng, rng.randrange(0, 400)) for seed in range(6)]
    games = batch.from_states(states)
    steps = np.random.default_rng(8)
    for _ in range(3):  # as loaded, then stepped (drawn tiles, a yard drawn from, rounds dealt by the batch)
        for seat in range(players):
            vectors = batch.observations(games, seat)
            assert vectors.dtype == np.float32
            for i in range(games.size):
                assert vectors[i].tolist() == observation(batch.to_state(games, i), seat).tolist()
        for _ in range(25):
            batch.step_inplace(games, batch.random_actions(games, steps))
    with pytest.raises(ValueError, match=f"seats are 0 to {players - 1}"):
        batch.observations(games, players)


def test_the_observation_shows_a_drawn_0_0_to_its_drawer_alone() -> None:
    """Tile 0 is 0-0: a drawn tile numbered 0 is shown (and to the drawer only), as any other."""
    from chickenfoot.observation import observation

    drew = next(
        after
        for seed in range(500)
        for _, _, after in random_walk(cf.new_game(cf.Rules.trains(max_pip=6), 3, seed), random.Random(seed))
        if after.round.drawn == cf.Tile(0, 0) and not after.round.is_over
    )
    games = batch.from_states([drew])
    for seat in range(3):
        assert batch.observations(games, seat)[0].tolist() == observation(drew, seat).tolist()


def test_a_loaded_game_keeps_its_seed_in_64_bits() -> None:
    rules = cf.Rules.trains(max_pip=6)
    for seed in (2**63 - 1, -(2**63)):
        assert batch.to_state(batch.from_states([cf.new_game(rules, 2, seed)]), 0).seed == seed
    for seed in (2**63, -(2**63) - 1):
        with pytest.raises(
            ValueError, match=rf"^a batch keeps seeds as 64-bit integers; game seed {seed} does not fit$"
        ):
            batch.from_states([cf.new_game(rules, 2, seed)])


def test_from_states_refuses_nothing_and_mixtures_by_name_and_reads_single_rounds() -> None:
    """Mutants the mutation run left: the refusals' words, a loaded round's index and end, the reward kept."""
    with pytest.raises(ValueError, match=r"^from_states needs at least one state$"):
        batch.from_states([])
    game = cf.new_game(cf.Rules.trains(max_pip=6), 2, seed=1)
    with pytest.raises(TypeError) as refused:
        batch.from_states([game, game.round])  # type: ignore[list-item]
    assert str(refused.value) == "from_states takes GameStates only or RoundStates only (not a mix, not other objects)"
    later = cf.deal_round(cf.Rules.trains(max_pip=6), 2, 4, 2)  # round 3, double 4-4
    over = play_randomly(cf.deal_round(cf.Rules.trains(max_pip=6), 2, 3, 0), random.Random(3))
    assert over.is_over
    assert over.went_out == 1
    loaded = batch.from_states([later, over], reward="score")
    assert loaded.round_index.tolist() == [2, 0]
    assert loaded.game_over.tolist() == [False, True]
    assert loaded.round_over.tolist() == [False, True]
    assert loaded.went_out.tolist() == [-1, 1]
    assert loaded.reward == "score"


# SplitMix64, written out from its published definition (Steele, Lea and Flood 2014; Vigna's
# splitmix64.c) in plain integers, to check the numpy deal's generator against.
_WORD = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _splitmix64_output(state: int) -> int:
    z = (state + _GOLDEN) & _WORD
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _WORD
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _WORD
    return z ^ (z >> 31)


def test_the_numpy_deal_draws_from_splitmix64() -> None:
    """DEAL-2: the batch's generator is SplitMix64 (its published test vector), and each game's words
    are the documented function of its seed and round, so a deal depends on nothing else."""
    from chickenfoot.batch._deal import _mix, _random

    # The first outputs of splitmix64.c seeded with 1234567, as published with it.
    published = [6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431]
    states = np.array([(1234567 + i * _GOLDEN) & _WORD for i in range(4)], dtype=np.uint64)
    assert [int(word) for word in _mix(states)] == published

    rng = random.Random(24)
    seeds = [rng.getrandbits(64) for _ in range(6)]
    rounds = [rng.randrange(19) for _ in range(6)]
    words = _random(np.array(seeds, dtype=np.uint64), np.array(rounds), 5)
    for row, seed, round_index in zip(words, seeds, rounds, strict=True):
        base = _splitmix64_output(_splitmix64_output(seed) ^ round_index)
        expected = [_splitmix64_output((base + k * _GOLDEN) & _WORD) for k in range(1, 6)]
        assert [int(word) for word in row] == expected
