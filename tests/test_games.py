"""Complete random games for every supported player count, both presets and every variant."""

from __future__ import annotations

import random
from typing import Any

import pytest

import chickenfoot as cf
from _games import play_randomly
from strategies import CROSS_ONLY, VARIANTS


def _play_out(rules: cf.Rules, players: int, seed: int) -> cf.GameState:
    game = play_randomly(cf.new_game(rules, players=players, seed=seed), random.Random(seed), 100_000)
    assert game.is_over, "the game did not finish"
    return game


def _check_finished(game: cf.GameState) -> None:
    assert game.is_over
    assert game.current_player is None
    assert cf.legal_moves(game) == ()
    assert len(game.results) == game.rules.rounds
    assert game.totals == tuple(sum(r.scores[p] for r in game.results) for p in range(game.players))
    assert game.winners == cf.decide_winners(game.rules, game.totals, game.results)
    assert game.winners
    assert all(game.totals[w] == min(game.totals) for w in game.winners)
    for result in game.results:
        assert result.final.is_over
        if result.went_out is not None:
            assert result.final.hands[result.went_out] == ()


SUPPORTED = [("trains", 9, n) for n in range(2, 9)] + [("cross", 9, n) for n in range(2, 8)] + [("cross", 12, 8)]


@pytest.mark.parametrize(("preset", "max_pip", "players"), SUPPORTED)
def test_complete_games_finish_for_every_player_count(preset: str, max_pip: int, players: int) -> None:
    rules = cf.Rules.trains(max_pip=max_pip) if preset == "trains" else cf.Rules.cross(max_pip=max_pip)
    game = _play_out(rules, players, seed=players)
    _check_finished(game)
    assert len(game.results) == (10 if max_pip == 9 else 13)


VARIANT_CASES = [("trains", name) for name in sorted(VARIANTS)] + [("cross", name) for name in sorted(VARIANTS)]
VARIANT_CASES += [("cross", name) for name in sorted(CROSS_ONLY)]


@pytest.mark.parametrize(("preset", "variant"), VARIANT_CASES)
def test_every_published_variant_plays_a_complete_game(preset: str, variant: str) -> None:
    options: dict[str, Any] = {**VARIANTS, **CROSS_ONLY}[variant]
    rules = (cf.Rules.trains if preset == "trains" else cf.Rules.cross)(**options)
    players = 3 if rules.max_pip == 6 else 4  # 4 hands of 7 need more than double-6's 28 tiles
    _check_finished(_play_out(rules, players, seed=17))
