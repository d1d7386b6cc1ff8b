"""Scoring rounds and choosing winners: SCORE-1, SCORE-2, GAME-1, TIE-1, TIE-2."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import cast

import attrs
import pytest

import chickenfoot as cf
from _games import random_walk
from chickenfoot import Rules, reference
from chickenfoot.conformance import reference_game
from helpers import position

TRAINS = Rules.trains()
CROSS = Rules.cross()


def _final(players: int) -> cf.RoundState:
    """A blocked round of ``players`` players (nothing plays on the center, nothing can be drawn)."""
    return position(TRAINS, ["1-0", "2-0", "3-0", "4-0"][:players], yard="", current=0)


def _results(rounds: list[tuple[int, ...]]) -> tuple[cf.RoundResult, ...]:
    """Stands in for finished rounds with these scores: what decide_winners reads of them.

    A real RoundResult holds the scores its final hands give (SCORE-1), so made-up scores need a stand-in.
    """
    return cast(tuple[cf.RoundResult, ...], tuple(SimpleNamespace(scores=scores) for scores in rounds))


def test_a_round_result_is_refused_when_its_scores_double_or_ending_contradict_its_final_state() -> None:
    final = _final(3)
    scored = cf.score_round(final)
    assert cf.RoundResult(final.double, scored, None, final).scores == scored
    with pytest.raises(cf.InvalidPositionError, match=r"scores \(10, 12, 5\) are not what the final hands score"):
        cf.RoundResult(final.double, (10, 12, 5), None, final)
    with pytest.raises(cf.InvalidPositionError, match="the round's double is"):
        cf.RoundResult(final.double - 1, scored, None, final)
    with pytest.raises(cf.InvalidPositionError, match="cannot have went_out=2"):
        cf.RoundResult(final.double, scored, 2, final)
    with pytest.raises(cf.InvalidPositionError, match="as its final state says"):
        cf.RoundResult(final.double, scored, 2, final, outcome=cf.Outcome(cf.Termination.WENT_OUT, (2,)))


@pytest.mark.rule("SCORE-1")
def test_score_1_players_score_what_is_left_in_hand_and_the_one_who_went_out_scores_0() -> None:
    state = position(TRAINS, ["5-3", "8-8 4-1", "6-2 0-0"], plays="9-5@0 9-4@0 9-6@0", yard="1-1 2-2", current=0)
    after = cf.apply(state, cf.parse_move("5-3@1"))
    assert after.went_out == 0
    assert cf.score_round(after) == (0, 16 + 5, 8 + 0)


@pytest.mark.rule("SCORE-1")
def test_score_1_a_blocked_round_scores_every_hand() -> None:
    state = position(TRAINS, ["5-3 7-7", "8-8 6-6"], plays="9-5@0 9-4@0", yard="0-0", current=0, reserve=1)
    after = cf.apply(state, cf.parse_move("5-3@1"))
    assert after.is_over
    assert after.went_out is None
    assert cf.score_round(after) == (14, 28)


@pytest.mark.rule("SCORE-2")
def test_score_2_double_blank_is_50_in_cross_and_0_in_trains_unless_set() -> None:
    hands = ["9-4", "0-0 1-0"]
    for rules, expected in ((CROSS, 51), (TRAINS, 1), (Rules.trains(double_blank_value=50), 51)):
        state = position(rules, hands, plays="9-5@0", arms=2, yard="", current=0, reserve=0)
        after = cf.apply(state, cf.parse_move("9-4@0"))
        assert after.went_out == 0
        assert cf.score_round(after) == (0, expected)


@pytest.mark.rule("SCORE-1")
def test_going_out_on_a_double_variant_charges_the_penalty() -> None:
    hands = ["5-5", "5-1 4-1"]
    for rules, expected in ((TRAINS, 0), (Rules.trains(double_out_penalty=50), 50)):
        state = position(rules, hands, plays="9-5@0 9-4@0", yard="6-6 0-0", current=0)
        after = cf.apply(state, cf.parse_move("5-5@1"))
        assert cf.score_round(after)[0] == expected


@pytest.mark.rule("GAME-1")
def test_game_1_round_scores_add_up_and_the_lowest_total_wins() -> None:
    start = game = cf.new_game(TRAINS, players=3, seed=11)
    for before, _, game in random_walk(start, random.Random(11)):
        if len(game.results) > len(before.results):
            assert game.totals == tuple(map(sum, zip(*(r.scores for r in game.results), strict=True)))
    assert game.winners
    assert {game.totals[w] for w in game.winners} == {min(game.totals)}
    assert game.current_player is None
    assert cf.legal_moves(game) == ()


@pytest.mark.rule("GAME-1")
def test_game_1_lowest_total_wins_outright() -> None:
    assert cf.decide_winners(TRAINS, (40, 12, 30), _results([(40, 12, 30)])) == (1,)


@pytest.mark.rule("TIE-1")
def test_tie_1_trains_players_tied_on_the_lowest_total_share_the_win() -> None:
    results = _results([(0, 10, 5), (20, 10, 5)])
    assert cf.decide_winners(TRAINS, (20, 20, 10), results) == (2,)
    results = _results([(0, 10, 9), (20, 10, 30)])
    assert cf.decide_winners(TRAINS, (20, 20, 39), results) == (0, 1)


@pytest.mark.rule("TIE-2")
def test_tie_2_cross_most_zero_rounds_wins() -> None:
    results = _results([(0, 10, 50), (20, 10, 0)])
    assert cf.decide_winners(CROSS, (20, 20, 50), results) == (0,)


@pytest.mark.rule("TIE-2")
def test_tie_2_cross_then_the_lower_lowest_non_zero_round_then_the_next() -> None:
    # Same total 30, one zero round each; lowest non-zero rounds 5 vs 10: player 1 wins.
    results = _results([(0, 0), (10, 5), (20, 25)])
    assert cf.decide_winners(CROSS, (30, 30), results) == (1,)
    # Lowest non-zero equal (5), next lowest decides: 10 vs 12.
    results = _results([(5, 5), (10, 12), (15, 13)])
    assert cf.decide_winners(CROSS, (30, 30), results) == (0,)


@pytest.mark.rule("TIE-2")
def test_tie_2_cross_still_tied_players_share() -> None:
    results = _results([(5, 10, 1), (10, 5, 1)])
    assert cf.decide_winners(CROSS, (15, 15, 2), results) == (2,)
    assert cf.decide_winners(CROSS, (15, 15, 20), results) == (0, 1)


def test_worst_total_is_every_tile_in_hand_every_round() -> None:
    from chickenfoot._game._scoring import worst_total

    # Double-9: each value 0-9 is on 11 half-tiles (10 tiles, the double twice): 45 * 11 = 495 pips.
    assert worst_total(Rules.trains(), rounds=1) == 495
    assert worst_total(Rules.cross(), rounds=2) == 2 * (495 + 50)  # SCORE-2: 0-0 is worth 50 in cross
    assert worst_total(Rules.trains(double_out_penalty=50), rounds=1) == 495 + 50


def test_win_utilities_pay_one_to_the_winners_and_average_zero() -> None:
    from chickenfoot._game._scoring import win_utilities

    assert win_utilities(3, [0]) == pytest.approx([1.0, -0.5, -0.5])
    assert win_utilities(4, [1, 2]) == pytest.approx([-1 / 3, 1 / 3, 1 / 3, -1 / 3])
    assert win_utilities(2, [0, 1]) == pytest.approx([0.0, 0.0])


@pytest.mark.rule("TIE-2")
def test_tie_2_a_cross_game_ending_in_a_tie_is_settled_by_its_rounds() -> None:
    rules = Rules.cross()
    game = cf.new_game(rules, players=3, seed=4)
    while True:  # play to the last move of the game
        after = cf.apply(game, cf.legal_moves(game)[0])
        if after.is_over:
            break
        game = after
    # The same last move from totals set so that everybody ends on the same total.
    top = max(after.totals)
    totals = tuple(mine + top - final for mine, final in zip(game.totals, after.totals, strict=True))
    tied = cf.apply(attrs.evolve(game, totals=totals), cf.legal_moves(game)[0])
    assert tied.totals == (top,) * 3
    assert tied.winners == reference.decide_winners(rules, tied.totals, reference_game(tied).results)
