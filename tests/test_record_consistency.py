"""Documents and positions whose parts contradict each other are refused, naming the contradiction."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import chickenfoot as cf
from _games import play_randomly


def _finished(seed: int = 1) -> cf.GameState:
    return play_randomly(cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=seed), random.Random(seed))


def _refused(document: dict[str, Any], message: str) -> None:
    with pytest.raises(cf.InvalidRecordError, match=message):
        cf.from_json(json.dumps(document))


def test_a_game_whose_round_in_play_is_over_is_refused() -> None:
    document = json.loads(cf.to_json(cf.new_game(cf.Rules.trains(), players=2, seed=1)))
    document["round"]["is_over"] = True
    _refused(document, r"marked over: blocked, but the position is in play \(END-2\)")


def test_totals_and_winners_must_follow_from_the_round_scores() -> None:
    game = _finished()
    document = json.loads(cf.to_json(game))
    assert cf.from_json(json.dumps(document)) == game
    wrong_totals = {**document, "totals": [999, 0]}
    _refused(wrong_totals, r"sum of that player's round scores \(GAME-1\)")
    loser = next(seat for seat in range(2) if seat not in game.winners)
    _refused({**document, "winners": [loser]}, "the winners must be")


def test_a_position_with_an_empty_hand_in_play_is_refused() -> None:
    state = cf.parse_position(cf.position(cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=0)))
    fields = cf.position(state).split(" ")
    hands = fields[4].split("/")
    fields[5] = ",".join(part for part in (fields[5], hands[0]) if part != "-")  # player 0's tiles into the yard
    fields[4] = "/".join(["-", *hands[1:]])
    with pytest.raises(cf.InvalidRecordError, match=r"marked in play, but the position is over: P0 went out \(END-1\)"):
        cf.parse_position(" ".join(fields))


def test_a_blocked_status_while_moves_remain_is_refused() -> None:
    line = cf.position(cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=0))
    with pytest.raises(cf.InvalidRecordError, match=r"marked over: blocked, but the position is in play \(END-2\)"):
        cf.parse_position(line.rsplit(" ", 1)[0] + " blocked")


def test_a_drawn_tile_beside_a_playable_one_is_refused() -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=0)
    state = game.round
    playable = next(m for m in cf.legal_moves(game) if isinstance(m, cf.Play)).tile
    hand = state.hands[state.current_player]
    drawn = next(tile for tile in hand if tile is not playable)
    fields = cf.position(state).split(" ")
    fields[2] = str(drawn)
    assert cf.parse_position(" ".join(fields)).status() == (cf.Problem.DRAWN,)  # set up by hand, it reads
    with pytest.raises(cf.InvalidRecordError, match=r"drew .* while holding .*, which plays"):
        cf.parse_position(" ".join(fields), strict=True)
