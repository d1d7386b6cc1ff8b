"""Every statement of the rules through one conformance suite, with the same cases.

The statements are in ``statements.py`` (the engine, the batch with either deal and loaded from
states, the chance layer, OpenSpiel, Gymnasium, PettingZoo); the checks are
:mod:`chickenfoot.conformance`, against :mod:`chickenfoot.reference`. The cases: both presets
with every variant option (double-6 to double-18 among them), 2 to 8 players, every round index,
seeded games and hypothesis-drawn ones, each played to its end.
"""

from __future__ import annotations

import importlib.util
import math
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import chickenfoot as cf
from chickenfoot import conformance
from statements import STATEMENTS, ChanceLayer, Engine
from strategies import CROSS_ONLY, VARIANTS, configurations, playable

PRESETS = ("trains", "cross")
CASES = [(preset, name) for preset in PRESETS for name in {**VARIANTS, **(CROSS_ONLY if preset == "cross" else {})}]
# The fast loop's cases (pytest -m "not slow"): every variant option at once on double-6, a few
# to a case, so each statement meets every option in seconds. The slow cases take each variant
# alone, double-6 to double-18.
QUICK = {
    "trains, drawing, scoring and the foot": (
        "trains",
        2,
        {
            "draw_until_playable": True,
            "drawn_tile": "may_play",
            "reserve": 0,
            "blank_value": 25,
            "double_out_penalty": 50,
            "unfillable_foot_ends_round": True,
        },
    ),
    "cross, the deal's options": (
        "cross",
        3,
        {
            "center_fallback": "highest_double",
            "center_arms": 6,
            "reserve": 1,
            "double_blank_value": 25,
            "drawn_tile": "must_play",
        },
    ),
    "trains, six arms and ties": (
        "trains",
        4,
        {"center_arms": 6, "double_blank_value": 50, "tie_break": "zero_rounds"},
    ),
    "trains, the foot with a reserve": ("trains", 3, {"unfillable_foot_ends_round": True, "reserve": 2}),
    "cross, plain": ("cross", 2, {}),
    "trains, plain": ("trains", 3, {}),
}


def case_rules(preset: str, name: str) -> tuple[cf.Rules, int]:
    """Gets a case's rules and a player count from 2 to 8 they can deal, spread over the cases."""
    if name in QUICK:
        _, players, options = QUICK[name]
        return cf.Rules.preset(preset, max_pip=6, **options), players
    rules = cf.Rules.preset(preset, **{**VARIANTS, **CROSS_ONLY}[name])
    counts = [players for players in range(2, 9) if playable(rules, players)]
    return rules, counts[CASES.index((preset, name)) % len(counts)]


ALL_CASES = [(preset, name, False) for name, (preset, _, _) in QUICK.items()] + [(*case, True) for case in CASES]


def _needs(statement: Any) -> None:
    if statement.needs is not None and importlib.util.find_spec(statement.needs) is None:
        pytest.skip(f"{statement.name} needs {statement.needs}: install the extra that brings it")


def _every_move(statement: Any, rules: cf.Rules) -> Any:
    """Gets, for the engine, a way to apply each offered move: the check then follows every branch.

    Up to double-9 only: on the bigger sets a move offers dozens of branches, each compared with
    the reference, which costs minutes a game for no rule the smaller sets do not meet (the line
    of play is still checked move by move on every set)."""
    if not isinstance(statement, Engine) or rules.max_pip > 9:
        return None
    return lambda state, move: cf.apply(state, cf.parse_move(move))


def _game_cases() -> list[Any]:
    cases = []
    for statement in STATEMENTS:
        for preset, name, slow in ALL_CASES:
            rules, players = case_rules(preset, name)
            if statement.takes(rules, players):
                marks = [pytest.mark.slow] if slow else []
                cases.append(pytest.param(statement, preset, name, marks=marks, id=f"{statement.name}-{preset}-{name}"))
    return cases


@pytest.mark.rule("TURN-1", "PLAY-1", "END-1", "END-2", "SCORE-1", "GAME-1", "ROUND-1")
@pytest.mark.parametrize(("statement", "preset", "name"), _game_cases())
def test_a_whole_game_follows_the_reference(statement: Any, preset: str, name: str) -> None:
    """Each statement plays a seeded game of each case to its end, checked deal by deal and move by move."""
    _needs(statement)
    rules, players = case_rules(preset, name)
    seed = sum(map(ord, preset + name))
    summary = conformance.check_games(
        statement, rules, players, [seed], seed=seed, every_move=_every_move(statement, rules)
    )
    assert (summary.games, summary.finished, summary.rounds) == (1, 1, rules.rounds)
    assert summary.moves > rules.rounds


# Hypothesis draws a preset with up to two variants; a whole game is long, so fewer examples than the profile's.
_EXAMPLES = max(3, settings.default.max_examples // 5)


@pytest.mark.slow
@pytest.mark.parametrize("statement", STATEMENTS, ids=[statement.name for statement in STATEMENTS])
@settings(max_examples=_EXAMPLES)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_hypothesis_drawn_games_follow_the_reference(statement: Any, data: st.DataObject, seed: int) -> None:
    _needs(statement)
    rules, players = data.draw(configurations().filter(lambda configuration: statement.takes(*configuration)))
    summary = conformance.check_games(statement, rules, players, [seed], seed=seed)
    assert summary.finished == 1


@pytest.mark.parametrize("statement", STATEMENTS, ids=[statement.name for statement in STATEMENTS])
def test_several_games_at_once_follow_the_reference(statement: Any) -> None:
    """A statement that plays games side by side (the batch) keeps each to itself."""
    _needs(statement)
    rules = cf.Rules.cross(max_pip=6, center_fallback="highest_double", reserve=1)
    rules = rules if statement.takes(rules, 3) else cf.Rules.cross(max_pip=6)
    summary = conformance.check_games(statement, rules, 3, range(5), seed=4)
    assert (summary.games, summary.finished) == (5, 5)


# One tile each and all but one of the rest kept back: many rounds are blocked as dealt (END-2 at
# the deal), which only such contrived options deal; in some games every round is.
BLOCKED_AS_DEALT = cf.Rules.trains(hand_size=1, reserve=52)


# Every statement that takes these options (OpenSpiel's game takes a preset and a set only).
_BLOCKING = [statement for statement in STATEMENTS if statement.takes(BLOCKED_AS_DEALT, 2)]


@pytest.mark.rule("END-2")
@pytest.mark.parametrize("statement", _BLOCKING, ids=[statement.name for statement in _BLOCKING])
def test_a_round_blocked_as_dealt_ends_at_once_in_every_statement(statement: Any) -> None:
    """A round nobody can play or draw in is over as dealt, scored, and the next dealt: no forced pass."""
    _needs(statement)
    summary = conformance.check_games(statement, BLOCKED_AS_DEALT, 2, range(8), seed=1)
    assert (summary.games, summary.finished, summary.rounds) == (8, 8, 8 * BLOCKED_AS_DEALT.rounds)
    # Fewer moves than rounds: most rounds end without one (the engine's deals of these seeds
    # have 41 such rounds of 80; a forced pass in each would be counted as a move).
    as_dealt = sum(
        not result.final.history for seed in range(8) for result in _finished(cf.new_game(BLOCKED_AS_DEALT, 2, seed))
    )
    assert as_dealt > 0
    assert summary.moves < summary.rounds


def _finished(game: cf.GameState) -> tuple[cf.RoundResult, ...]:
    while not game.is_over:
        game = cf.apply(game, cf.legal_moves(game)[0])
    return game.results


def test_the_chance_layer_refuses_the_one_variant_it_cannot_follow() -> None:
    """Its yard is a pool whose reserve is whatever is left at the end, so it cannot count the tiles that
    can still be drawn, which the unfillable-foot variant needs: it refuses the pair, naming the way out."""
    from chickenfoot._game._chance import ChanceGame

    refused = [(preset, name) for preset, name, _ in ALL_CASES if not ChanceLayer.takes(*case_rules(preset, name))]
    assert refused == [("trains", "trains, the foot with a reserve"), ("trains", "unfillable foot ends the round")]
    for preset, name in refused:
        rules, players = case_rules(preset, name)
        with pytest.raises(cf.RulesError, match="use reserve=0 with it"):
            ChanceGame.start(rules, players)
    ChanceGame.start(cf.Rules.trains(unfillable_foot_ends_round=True, reserve=0), 3)


# -- deals ----------------------------------------------------------------------------------------

DEALERS = [statement for statement in STATEMENTS if hasattr(statement, "deal")]  # conformance.Dealer


def _deal_cases(dealers: list[Any], *, thousands: bool = False) -> list[Any]:
    # A few deals of each quick case in the fast loop; 3 of every case in the slow tier (CI); 40 of
    # every case, and thousands of the numpy deal's, in the soak (by hand: pytest -m soak), which
    # would take CI past its time.
    cases = []
    for statement in dealers:
        for preset, name, slow in ALL_CASES:
            if thousands and name in QUICK:
                continue
            case_id = f"{statement.name}-{preset}-{name}"
            if thousands:
                tiers = [(2000, [pytest.mark.slow, pytest.mark.soak], case_id)]
            elif slow:
                tiers = [(3, [pytest.mark.slow], case_id), (40, [pytest.mark.slow, pytest.mark.soak], f"{case_id}-40")]
            else:
                tiers = [(5, [], case_id)]
            for seeds, marks, tier_id in tiers:
                cases.append(pytest.param(statement, preset, name, seeds, marks=marks, id=tier_id))
    return cases


@pytest.mark.rule("DEAL-A1", "DEAL-A2", "DEAL-A3", "DEAL-A4", "DEAL-B1", "DEAL-B2", "DEAL-B3", "YARD-1", "OPEN-1")
@pytest.mark.parametrize(("statement", "preset", "name", "seeds"), _deal_cases(DEALERS))
def test_every_round_is_dealt_by_the_rules(statement: Any, preset: str, name: str, seeds: int) -> None:
    """Every round index, every player count the rules can deal: each deal checked against DEAL-* directly."""
    _needs(statement)
    rules, _ = case_rules(preset, name)
    for players in (n for n in range(2, 9) if playable(rules, n)):
        summary = conformance.Summary()
        for round_index in range(rules.rounds):
            conformance.check_deals(statement, rules, players, range(seeds), round_index, summary)
        assert summary.deals == seeds * rules.rounds


@pytest.mark.slow
@pytest.mark.rule("DEAL-A1", "DEAL-B2")
@pytest.mark.parametrize(
    ("statement", "preset", "name", "seeds"),
    _deal_cases([s for s in DEALERS if s.name == "the batch, numpy deal"], thousands=True),
)
def test_thousands_of_deals_per_round_follow_the_rules(statement: Any, preset: str, name: str, seeds: int) -> None:
    """The numpy deal, 2,000 deals per round index of every case, each checked as above; the *trains*
    starters come at DEAL-A1's odds (a chi-square test: the other dealers deal as the reference does, seed by seed,
    and the chance layer's odds are checked at each of its chance events)."""
    _needs(statement)
    rules, players = case_rules(preset, name)
    for round_index in range(rules.rounds):
        summary = conformance.check_deals(statement, rules, players, range(seeds), round_index)
        if rules.deal == "trains" and not statement.seeded:
            odds = conformance.starter_odds(rules, players, round_index)
            chi2 = sum((summary.starters[seat] - seeds * p) ** 2 / (seeds * p) for seat, p in odds.items())
            # Far out in the tail for players - 1 degrees of freedom: a fair deal fails this about once in 10^9.
            assert chi2 < 40 + 4 * players, (round_index, dict(summary.starters), chi2)
            assert math.isclose(sum(odds.values()), 1)
