"""solve: the exact value of a round, checked against a minimax of the whole tree through the reference.

The positions are small enough to search whole in plain Python: dealt under every option of the
rules, then taken from as early in a random game as their tree allows. The
expected values come from :mod:`chickenfoot.reference` alone (its own moves, its own scores);
the engine only picks which positions to test.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import assume, event, given, strategies as st

import chickenfoot as cf
from chickenfoot import bots, reference as ref
from chickenfoot._core import Round
from chickenfoot._core._solve import MARGIN, NO_LIMIT, SCORE, Table, key_after, position_key, solve_round, yard_keys
from chickenfoot._game import move_code
from chickenfoot.conformance import reference_round
from chickenfoot.solver import Solution
from helpers import position
from strategies import playable

OBJECTIVES = ("score", "margin")
TREE_LIMIT = 10_000
"""The most rounds a tested position's tree may hold: the reference searches it whole."""


# -- the positions ----------------------------------------------------------------------------


@st.composite
def dealt(draw: st.DrawFn) -> cf.RoundState:
    """Draws a deal on double-6 or double-9, 2 to 4 players, either preset with any of its options.

    The hands are often short and the yard's drawable part is cut to a few tiles, so that the
    deal itself is small enough to search whole; the reserve is set on the position.
    """
    preset = draw(st.sampled_from(["trains", "cross"]))
    max_pip = draw(st.sampled_from([6, 9]))
    options: dict[str, Any] = {
        "max_pip": max_pip,
        "hand_size": draw(st.integers(3, 9)),
        "center_arms": draw(st.none() | st.integers(1, min(8, max_pip))),
        "drawn_tile": draw(st.sampled_from(["must_play", "may_play"])),
        "draw_until_playable": draw(st.booleans()),
        "double_blank_value": draw(st.none() | st.sampled_from([0, 25, 50])),
        "blank_value": draw(st.none() | st.just(25)),
        "unfillable_foot_ends_round": draw(st.booleans()),
        "double_out_penalty": draw(st.sampled_from([0, 50])),
        "tie_break": draw(st.sampled_from(["share", "zero_rounds"])),
    }
    if preset == "cross":
        options["center_fallback"] = draw(st.sampled_from(["draw", "highest_double"]))
    rules = cf.Rules.preset(preset, **options)
    players = draw(st.integers(2, 4).filter(lambda count: playable(rules, count)))
    state = cf.deal_round(rules, players, draw(st.integers(0, 2**32)), draw(st.integers(0, max_pip)))
    drawable = draw(st.integers(0, 8))
    return attrs.evolve(state, reserve=max(0, len(state.yard) - drawable))


def _tree_size(state: Round, limit: int) -> int:
    """Counts the rounds of ``state``'s tree (the finished ones included), up to just past ``limit``."""
    count = 0
    stack = [state]
    while stack and count <= limit:
        state = stack.pop()
        count += 1
        stack += [state.after(move) for move in state.legal()]
    return count


@st.composite
def solvable(draw: st.DrawFn) -> cf.RoundState:
    """Draws a deal, then the earliest position of a random game from it whose tree holds at most :data:`TREE_LIMIT`
    rounds (the deal itself, when it is that small), or a bigger one a move from the position before it.

    Not positions set up by hand: the reference takes the center's arms from the rules, not
    from a board set up with others.
    """
    state = draw(dealt())
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = [state]
    while not state.is_over:
        state = cf.apply(state, rng.choice(cf.legal_moves(state)))
        game.append(state)
    chosen, chosen_size = game[-1], 1
    for at in range(len(game) - 1, -1, -1):
        size = _tree_size(game[at]._round, TREE_LIMIT)
        if size <= TREE_LIMIT:
            chosen, chosen_size = game[at], size
            continue
        for move in cf.legal_moves(game[at]):  # too big: the biggest of its moves' rounds that is small enough
            after = cf.apply(game[at], move)
            size = _tree_size(after._round, TREE_LIMIT)
            if chosen_size < size <= TREE_LIMIT:
                chosen, chosen_size = after, size
        break
    assume(not chosen.is_over)  # a finished round's value is its score: tested on its own below
    event("from the deal" if chosen is game[0] else "from mid-round")
    event(f"a tree of {10 ** len(str(chosen_size)) // 10} rounds or more")
    return chosen


# -- the oracle ---------------------------------------------------------------------------------


def _objectives(scores: tuple[int, ...]) -> tuple[int, ...]:
    """Gets each player's score, then each player's margin: its score less the lowest of the others'."""
    margins = tuple(
        score - min(other for seat, other in enumerate(scores) if seat != player) for player, score in enumerate(scores)
    )
    return scores + margins


def minimax(state: ref.Round) -> tuple[int, ...]:
    """Gets, for each player then each objective (score, margin), the value the player can guarantee: searched whole.

    Each value's player picks the lowest among its moves, every other seat the highest.
    """
    if state.is_over:
        return _objectives(ref.score_round(state))
    players = len(state.hands)
    children = [minimax(ref.apply(state, move)) for move in ref.legal_moves(state)]
    mover = state.current_player
    return tuple((min if at % players == mover else max)(child[at] for child in children) for at in range(2 * players))


def _value_of(state: cf.RoundState, player: int, objective: str) -> int:
    """Gets a finished round's value for ``player``."""
    return _objectives(cf.score_round(state))[player + (len(state.hands) if objective == "margin" else 0)]


# -- the values -----------------------------------------------------------------------------------


@given(solvable())
def test_solve_gives_the_value_the_whole_tree_does(state: cf.RoundState) -> None:
    expected = minimax(reference_round(state))
    players = len(state.hands)
    for objective in OBJECTIVES:
        for player in range(players):
            solution = cf.solve(state, player=player, objective=objective)
            assert solution.proven
            assert solution.value == expected[player + (players if objective == "margin" else 0)], (objective, player)
            end = state
            for move in solution.line:
                end = cf.apply(end, move)
            assert end.is_over, "the line plays the round to its end"
            assert _value_of(end, player, objective) == solution.value


@given(solvable(), st.sampled_from(OBJECTIVES), st.data())
def test_a_spent_budget_gives_a_bound_on_the_side_of_the_seat_to_move(
    state: cf.RoundState, objective: str, data: st.DataObject
) -> None:
    player = data.draw(st.integers(0, len(state.hands) - 1))
    exact = cf.solve(state, player=player, objective=objective)
    budget = data.draw(st.integers(0, exact.nodes))
    solution = cf.solve(state, player=player, objective=objective, max_nodes=budget)
    assert solution.nodes <= budget, "max_nodes caps the count, proven or not"
    if solution.proven:
        assert solution.value == exact.value
        return
    mover = state.current_player
    assert solution.bound == ("upper" if mover == player else "lower")
    if solution.bound == "upper":
        assert exact.value <= solution.value
    else:
        assert exact.value >= solution.value
    assert len(solution.line) <= 1
    for move in solution.line:  # the move that makes the bound: its round's value is on the bound's side
        after = cf.solve(cf.apply(state, move), player=player, objective=objective).value
        assert after <= solution.value if solution.bound == "upper" else after >= solution.value


# -- positions of their own --------------------------------------------------------------------


def test_the_puzzle_player_0_goes_out_in_two_turns() -> None:
    state = cf.parse_position(
        "trains[max_pip=6] 0 - 2 5-5,2-1/4-4,3-0 0-0,1-0,1-1,2-0,2-2,3-1,3-2,3-3,4-0,4-1,4-2,4-3,5-0,5-1,5-2,5-3,"
        "5-4,6-0,6-1,6-3,6-4 6-6,6-5<0,6-2<0 play"
    )
    score = cf.solve(state, objective="score")
    margin = cf.solve(state)
    assert (score.value, margin.value) == (0, -11)  # out, and player 1 left with 4-4 and 3-0 (11)
    assert [str(move) for move in score.line] == ["2-1@2", "draw", "pass", "5-5@1"]


PUZZLE = (
    "trains[max_pip=6] 0 - 2 5-5,2-1/4-4,3-0 0-0,1-0,1-1,2-0,2-2,3-1,3-2,3-3,4-0,4-1,4-2,4-3,5-0,5-1,5-2,5-3,"
    "5-4,6-0,6-1,6-3,6-4 6-6,6-5<0,6-2<0 play"
)


def test_max_nodes_caps_the_count_of_a_proven_solve_too() -> None:
    state = cf.parse_position(PUZZLE)
    exact = cf.solve(state)
    for budget in (exact.nodes, exact.nodes - 1, 4817):
        solution = cf.solve(state, max_nodes=budget)
        assert solution.nodes <= budget
    assert cf.solve(state, max_nodes=exact.nodes) == exact  # the line is found past the cap, and not counted


def test_a_spent_budget_drops_the_bound_on_the_other_side() -> None:
    # Player 0 is to move: the finished searches of 4,000 positions moved only the lower bound (player 1's side),
    # which is dropped, so the upper bound is still the widest: every tile left, and no line (solve_round's docs).
    state = cf.parse_position(PUZZLE)
    tiles_left = sum(state.rules.tile_value(tile) for tiles in (*state.hands, state.yard) for tile in tiles)
    assert cf.solve(state, max_nodes=4000) == Solution(tiles_left, "upper", (), 4000, 0, "margin")


def test_a_tiles_plays_onto_its_high_and_its_low_end_are_both_searched() -> None:
    # Ends offer 2 (node 1) and 1 (node 2). Player 0 goes out only by 2-1 onto the 1 end, leaving two 2s for its
    # 2-0 and no 1 for player 1's 3-1; onto the 2 end (listed first), player 1 goes out. The two plays' rounds
    # differ, so merging a tile's plays by the tile alone, as onto ends offering one value, loses the best.
    state = position(cf.Rules.trains(max_pip=6), ["2-1 2-0", "3-1"], center="6-6", plays="6-2@0 6-1@0", reserve=0)
    assert {str(move) for move in cf.legal_moves(state)} == {"2-1@1", "2-1@2", "2-0@1"}
    expected = minimax(reference_round(state))
    assert expected[2] == -4  # player 0's margin: out, player 1 left with 3-1
    for objective in OBJECTIVES:
        for player in range(2):
            solution = cf.solve(state, player=player, objective=objective)
            assert solution.value == expected[player + (2 if objective == "margin" else 0)], (objective, player)
    assert [str(move) for move in cf.solve(state, player=0).line] == ["2-1@2", "pass", "2-0@1"]


def test_a_finished_round_is_worth_its_score() -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=3, seed=4)
    state = game.round
    while not state.is_over:
        state = cf.apply(state, cf.legal_moves(state)[0])
    for player in range(3):
        for objective in OBJECTIVES:
            solution = cf.solve(state, player=player, objective=objective)
            assert solution == Solution(_value_of(state, player, objective), "exact", (), 0, player, objective)
            assert cf.solve(state, player=player, objective=objective, max_nodes=0) == solution


def test_a_game_is_solved_in_its_round() -> None:
    game = cf.new_game(cf.Rules.cross(max_pip=6, hand_size=3), players=2, seed=2)
    assert cf.solve(game) == cf.solve(game.round)
    assert cf.solve(game).player == game.current_player


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"objective": "win"}, ValueError, "objective must be 'score' or 'margin'"),
        ({"objective": 1}, TypeError, "objective is 'score' or 'margin'"),
        ({"player": 2}, ValueError, "player must be a seat from 0 to 1"),
        ({"player": -1}, ValueError, "player must be a seat from 0 to 1"),
        ({"player": True}, TypeError, "player is a seat"),
        ({"max_nodes": -1}, ValueError, "max_nodes must be a whole number 0 or more"),
        ({"max_nodes": 1.5}, TypeError, "max_nodes is a whole number"),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, Any], error: type[Exception], message: str) -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    with pytest.raises(error, match=message):
        cf.solve(game, **arguments)


def test_only_states_are_solved() -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    message = "got PlayerView: a view hides the other hands and the yard.*chickenfoot.determinize"
    with pytest.raises(TypeError, match=message):
        cf.solve(cf.observe(game, 0))  # type: ignore[arg-type]
    world = cf.determinize(cf.observe(game, 0), random.Random(1))
    assert cf.solve(world, max_nodes=10).nodes == 10


def test_no_budget_gives_the_widest_bound() -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    tiles_left = sum(game.rules.tile_value(tile) for tiles in (*game.round.hands, game.round.yard) for tile in tiles)
    assert cf.solve(game, max_nodes=0) == Solution(tiles_left, "upper", (), 0, game.current_player, "margin")
    other = 1 - game.current_player
    assert cf.solve(game, player=other, objective="score", max_nodes=0).value == 0
    assert cf.solve(game, player=other, max_nodes=0).bound == "lower"


# -- the table's key ------------------------------------------------------------------------------


def _walk(state: Round, rng: random.Random) -> list[tuple[Round, int, Round]]:
    """Plays ``state`` to its end at random: each round, the move made, and the round after it."""
    steps = []
    while not state.over:
        move = rng.choice(state.legal())
        after = state.after(move)
        steps.append((state, move, after))
        state = after
    return steps


@given(dealt(), st.integers(0, 2**32), st.sampled_from([SCORE, MARGIN]))
def test_the_key_kept_move_by_move_is_the_key_computed_afresh(state: cf.RoundState, seed: int, objective: int) -> None:
    core = state._round
    player = seed % len(core.hands)
    yard = yard_keys(core.yard)
    key = position_key(core, player, objective, yard)
    for before, move, after in _walk(core, random.Random(seed)):
        assert key == position_key(before, player, objective, yard)
        key = key_after(key, before, move, after, yard)
        assert key == position_key(after, player, objective, yard)


def _two_twos(**changes: Any) -> cf.RoundState:
    """Gets a position with two open ends offering 2 (nodes 3 and 4): player 0 holds 2-1, 2-0 and 1-0, player 1 a
    tile it cannot play, and nobody can draw."""
    arguments: dict[str, Any] = {"center": "6-6", "plays": "6-5@0 6-4@0 5-2@1 4-2@2", "arms": 2, "reserve": 0}
    return position(cf.Rules.trains(max_pip=6), ["2-1 2-0 1-0", "3-3"], **{**arguments, **changes})


def _key(state: cf.RoundState, moves: str = "") -> int:
    """Gets the key of ``state`` after ``moves``, kept move by move from the key computed afresh."""
    core = state._round
    yard = yard_keys(core.yard)
    key = position_key(core, 0, MARGIN, yard)
    for text in moves.split():
        code = move_code(cf.parse_move(text))
        assert code in core.legal(), text
        after = core.after(code)
        key = key_after(key, core, code, after, yard)
        core = after
    return key


def test_the_key_is_the_same_for_the_same_openings_on_other_nodes() -> None:
    state = _two_twos()
    assert _key(state, "2-1@3 pass 2-0@4") == _key(state, "2-0@4 pass 2-1@3") == _key(state, "2-0@3 pass 2-1@4")
    assert _key(state, "2-1@3") == _key(state, "2-1@4")  # so only one of the two is searched
    assert _key(state, "2-1@3") != _key(state, "2-0@3")


def test_the_key_tells_apart_the_seat_to_move_and_the_tile_drawn() -> None:
    state = _two_twos()
    assert _key(state) != _key(_two_twos(current=1))
    assert _key(state) != _key(_two_twos(drawn="2-1"))
    assert _key(state) != _key(_two_twos(plays="6-5@0 6-4@0 5-2@1"))  # one end offering 2, and one offering 4


@given(solvable(), st.randoms(use_true_random=False))
def test_a_table_shared_with_a_position_one_part_of_the_key_apart_changes_no_value(
    state: cf.RoundState, rng: random.Random
) -> None:
    hand = state.hands[state.current_player]
    variants = [
        attrs.evolve(state, current_player=(state.current_player + 1) % len(state.hands), drawn=None),
        attrs.evolve(state, drawn=None if state.drawn is not None or not hand else rng.choice(hand)),
        attrs.evolve(state, yard=rng.sample(state.yard, len(state.yard))),
    ]
    # Another seat to move or another tile drawn can make the tree far bigger than the position's,
    # which was drawn small: solved exactly, with no limit, a big one could take hours.
    variants = [variant for variant in variants if _tree_size(variant._round, TREE_LIMIT) <= TREE_LIMIT]
    assume(variants)
    for variant in variants:
        table = Table()
        for solved in (state, variant):
            core = solved._round
            for player in range(len(core.hands)):
                for objective in (SCORE, MARGIN):
                    shared = solve_round(core, player, objective, table, NO_LIMIT)
                    assert shared.value == solve_round(core, player, objective, None, NO_LIMIT).value


# -- the double-dummy analysis and the bot built on it ----------------------------------------------


def _small_view(rules: cf.Rules, seed: int) -> cf.PlayerView | None:
    """Plays a game of ``rules`` at random to the first position of round 0 whose worlds are small enough to search
    whole (a tree of at most :data:`TREE_LIMIT` rounds, by the true one) with a choice of moves; gets its view."""
    game = cf.new_game(rules, players=2, seed=seed)
    rng = random.Random(seed)
    while game.round_index == 0 and game.current_player is not None:
        if len(cf.legal_moves(game)) > 1 and _tree_size(game.round._round, TREE_LIMIT) <= TREE_LIMIT:
            return cf.observe(game, game.current_player)
        game = cf.apply(game, rng.choice(cf.legal_moves(game)))
    return None


def _small_views(count: int) -> list[tuple[int, cf.PlayerView]]:
    """Gets ``count`` views with small worlds, of either preset in turn, each with the seed of its game."""
    views = []
    seed = 0
    while len(views) < count:
        rules = cf.Rules.preset("cross" if seed % 2 else "trains", max_pip=6, hand_size=4, reserve=14)
        view = _small_view(rules, seed)
        if view is not None:
            views.append((seed, view))
        seed += 1
    return views


def _world_values(view: cf.PlayerView, seed: int, worlds: int, objective: str) -> dict[cf.Move, list[int]]:
    """Gets each legal move's value in each of the first ``worlds`` worlds a search of ``view`` with ``seed`` draws,
    searched whole through the reference."""
    from chickenfoot._bots._searches import _view_world
    from chickenfoot._bots._simple import view_rng
    from chickenfoot._game._state import round_of

    rng = view_rng(seed, view)
    sample = _view_world(view)
    drawn = [round_of(sample(rng)) for _ in range(worlds)]  # the worlds the search draws, in its order
    at = view.player + (view.players if objective == "margin" else 0)
    values: dict[cf.Move, list[int]] = {}
    for move in view.legal_moves:
        values[move] = []
        for world in drawn:
            after = cf.apply(world, move)
            value = _objectives(cf.score_round(after))[at] if after.is_over else minimax(reference_round(after))[at]
            values[move].append(value)
    return values


@pytest.mark.parametrize(("seed", "view"), _small_views(4))
def test_exact_analysis_averages_the_whole_trees_of_the_worlds_it_samples(seed: int, view: cf.PlayerView) -> None:
    analysis = bots.analyse(view, simulations=5, seed=seed, exact=True)
    expected = _world_values(view, seed, 5, "score")
    assert analysis.simulations == 5
    assert sorted(str(row.move) for row in analysis.moves) == sorted(str(move) for move in expected)
    for row in analysis.moves:
        assert row.visits == 5
        assert row.score == pytest.approx(sum(expected[row.move]) / 5), row.move
        assert row.low <= row.score <= row.high
        assert row.line[0] == row.move
    assert [row.score for row in analysis.moves] == sorted(row.score for row in analysis.moves)


def test_exact_analysis_refuses_what_it_cannot_solve() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    view = cf.observe(game, game.current_player)
    with pytest.raises(ValueError, match="no world could be solved within max_nodes=10 positions"):
        bots.analyse(view, simulations=2, exact=True, max_nodes=10)
    with pytest.raises(TypeError, match="exact is True or False"):
        bots.analyse(view, exact=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_nodes must be a whole number of 1 or more"):
        bots.analyse(view, exact=True, max_nodes=0)
    for wrong in ("5", True, 5.0):
        with pytest.raises(TypeError, match="max_nodes is a whole number"):
            bots.analyse(view, exact=True, max_nodes=wrong)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_nodes is the exact analysis's budget: give it with exact=True"):
        bots.analyse(view, simulations=5, max_nodes=5)


def test_exact_analysis_tries_a_world_however_short_the_time_and_says_which_budget_ran_out() -> None:
    from chickenfoot._bots import Unsolved

    seed, view = _small_views(1)[0]
    analysis = bots.analyse(view, seconds=1e-9, seed=seed, exact=True)
    assert analysis.simulations == 1, "one world is tried, and a small one is solved"
    assert analysis.exact
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    big = cf.observe(game, game.current_player)
    with pytest.raises(Unsolved, match=r"no world was solved in seconds=1e-09: the time ran out") as error:
        bots.analyse(big, seconds=1e-9, exact=True)
    assert error.value.by_time
    with pytest.raises(Unsolved, match="no world could be solved within max_nodes=10 positions") as error:
        bots.analyse(big, simulations=1, exact=True, max_nodes=10)
    assert not error.value.by_time


@pytest.mark.parametrize(("seed", "view"), _small_views(4))
def test_the_solver_bot_plays_the_move_of_lowest_mean_exact_margin_weighted_by_the_model(
    seed: int, view: cf.PlayerView
) -> None:
    from chickenfoot._bots._searches import _likelihood
    from chickenfoot._bots._simple import view_rng
    from chickenfoot._game import Worlds

    bot = bots.SolverBot(simulations=5 * bots.SolverBot.WORLD_COST, seed=seed, exact_tiles=20, infer=True)
    assert sum(view.hand_sizes) <= 20, "few enough tiles to solve"
    assert view.history
    values = _world_values(view, seed, 5, "margin")
    worlds, rng = Worlds(view), view_rng(seed, view)
    codes = [move_code(move) for _, move in view.history]
    movers = [seat for seat, _ in view.history]
    weights = []
    for _ in range(5):  # the same worlds, each weighed by how likely the others' moves were in it
        worlds.sample(rng)
        assert worlds.start is not None
        weights.append(_likelihood(worlds.start, codes, movers, view.player))
    means = {move: sum(w * v for w, v in zip(weights, got, strict=True)) for move, got in values.items()}
    assert means[bot(view)] == pytest.approx(min(means.values()))


def test_the_solver_bot_refuses_a_bad_threshold() -> None:
    with pytest.raises(ValueError, match="exact_tiles must be a whole number of 0 or more"):
        bots.SolverBot(exact_tiles=-1)
    for wrong in (True, "3", 3.0):
        with pytest.raises(TypeError, match="exact_tiles is a whole number"):
            bots.SolverBot(exact_tiles=wrong)  # type: ignore[arg-type]


def _big_view() -> cf.PlayerView:
    """Gets the first view of a four-player double-9 deal: no world of it is solved within any budget here."""
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    while len(cf.legal_moves(game)) < 2:
        game = cf.apply(game, cf.legal_moves(game)[0])
    return cf.observe(game, game.current_player)


def test_the_solver_bot_stops_solving_at_the_first_world_that_fails_and_rolls_out_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chickenfoot._bots import _searches

    solves = []
    real = _searches.solve_round

    def counted(*arguments: Any) -> Any:
        solves.append(arguments[-1])
        return real(*arguments)

    monkeypatch.setattr(_searches, "solve_round", counted)
    view = _big_view()
    bot = bots.SolverBot(simulations=5 * bots.SolverBot.WORLD_COST, exact_tiles=100)
    assert bot(view) in view.legal_moves
    assert solves == [200_000], "one solve fails its cap: no other world is tried"


def test_the_solver_bots_rollouts_get_only_the_time_the_solves_left(monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools
    import time

    view = _big_view()
    bot = bots.SolverBot(seconds=0.3, exact_tiles=100)
    deadlines = []
    rolled_out = bot._rolled_out

    def spied(view: Any, moves: Any, rollouts: int, deadline: float | None) -> Any:
        deadlines.append(deadline)
        return rolled_out(view, moves, rollouts, deadline)

    monkeypatch.setattr(bot, "_rolled_out", spied)
    clock = itertools.count(0.0, 0.01)  # a CPU clock that moves 10 ms a reading: no timing in the test
    monkeypatch.setattr(time, "thread_time", lambda: next(clock))
    assert bot(view) in view.legal_moves
    # The move's first reading (0) and its 0.3 s: not a fresh 0.3 s from when the solves gave up.
    assert deadlines == [pytest.approx(0.3)]


def test_the_solver_bots_table_holds_one_move_at_a_time() -> None:
    (_, first), (_, second) = _small_views(2)
    bot = bots.SolverBot(simulations=5 * bots.SolverBot.WORLD_COST, exact_tiles=20)
    assert bot._table.capacity == 1 << 18
    bot(first)
    bot(second)
    fresh = bots.SolverBot(simulations=5 * bots.SolverBot.WORLD_COST, exact_tiles=20)
    fresh(second)
    assert len(bot._table.entries) == len(fresh._table.entries) > 0


def test_the_model_of_the_others_play_finds_greedy_play_likely_and_other_play_less() -> None:
    from chickenfoot._bots._searches import _likelihood

    for seed in range(3):
        start = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=seed)
        greedy, rng = bots.GreedyBot(), random.Random(seed)
        for opponent_greedy in (True, False):
            game, expected = start, 1.0
            while game.round_index == 0 and game.current_player is not None:
                moves = cf.legal_moves(game)
                if game.current_player == 1 and opponent_greedy:
                    move = greedy(cf.observe(game, 1))
                else:
                    move = rng.choice(moves)
                if game.current_player == 1 and len(moves) > 1:  # the model: 0.7 on GreedyBot's move, 0.3 spread
                    expected *= 0.3 / len(moves) + (0.7 if move == greedy(cf.observe(game, 1)) else 0.0)
                game = cf.apply(game, move)
                codes = [move_code(move) for _, move in game.round.history]
                movers = [seat for seat, _ in game.round.history]
                if game.round_index == 0:
                    got = _likelihood(start.round._round, codes, movers, 0)
                    assert got == pytest.approx(expected), (seed, len(codes))


@pytest.mark.parametrize(("seed", "view"), _small_views(2))
def test_the_solver_bot_without_inference_weighs_every_world_alike(seed: int, view: cf.PlayerView) -> None:
    bot = bots.SolverBot(simulations=5 * bots.SolverBot.WORLD_COST, seed=seed, exact_tiles=20, infer=False)
    values = _world_values(view, seed, 5, "margin")
    assert sum(values[bot(view)]) == min(sum(got) for got in values.values())
    assert repr(bot) == f"SolverBot(simulations=100, seed={seed}, exact_tiles=20)"
    assert repr(bots.SolverBot(infer=True)) == "SolverBot(simulations=500, seed=0, infer=True)"


def test_the_weights_change_the_solver_bots_move_where_the_model_says_so() -> None:
    # Views late in round 0, with the others' choices in their history; each world's margins by the solver (checked
    # against the reference above). Where the weighted and the plain means prefer different moves, the bot must
    # take the weighted one; the seeds are chosen so that this happens.
    from chickenfoot._bots._searches import _likelihood
    from chickenfoot._bots._simple import view_rng
    from chickenfoot._game import Worlds
    from chickenfoot._game._state import round_of

    differing = 0
    for seed in range(12):
        game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=seed)
        rng = random.Random(seed)
        while game.current_player is not None and (
            sum(map(len, game.round.hands)) > 8 or len(cf.legal_moves(game)) < 2
        ):
            game = cf.apply(game, rng.choice(cf.legal_moves(game)))
        if game.round_index or game.current_player is None:
            continue
        view = cf.observe(game, game.current_player)
        worlds, sampling = Worlds(view), view_rng(seed, view)
        codes = [move_code(move) for _, move in view.history]
        movers = [seat for seat, _ in view.history]
        weighted = dict.fromkeys(view.legal_moves, 0.0)
        plain = dict.fromkeys(view.legal_moves, 0.0)
        for _ in range(5):
            world = round_of(worlds.sample(sampling))
            assert worlds.start is not None
            weight = _likelihood(worlds.start, codes, movers, view.player)
            for move in view.legal_moves:
                after = cf.apply(world, move)
                scores = cf.score_round(after)
                value = (
                    _objectives(scores)[view.player + 2] if after.is_over else cf.solve(after, player=view.player).value
                )
                weighted[move] += weight * value
                plain[move] += value
        best = min(weighted.values())
        chosen = bots.SolverBot(simulations=5 * bots.SolverBot.WORLD_COST, seed=seed, infer=True)(view)
        assert weighted[chosen] == pytest.approx(best)
        differing += plain[chosen] != min(plain.values())
    assert differing > 0, "no view where the weights change the move: choose other seeds"
