"""The reference on its own: independent of the engine, and right on positions worked out by hand.

:mod:`chickenfoot.reference` is the oracle every statement of the rules is checked against
(``test_conformance.py``), so it is checked here without the engine: it imports nothing of the
package, and on hand-built positions and deals it gives what the rules say, worked out by hand.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot import reference
from chickenfoot.conformance import reference_round, round_differences

SOURCE = Path(reference.__file__).read_text(encoding="utf-8")


def test_the_reference_imports_nothing_of_the_package() -> None:
    tree = ast.parse(SOURCE)
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import"
            imported.add(node.module or "")
    assert imported == {"__future__", "hashlib", "random", "dataclasses", "typing"}
    # Nor does its code name the package (its docstrings' examples do, to show it with the engine's Rules).
    assert {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} & {"cf", "chickenfoot"} == set()


def test_the_reference_is_short() -> None:
    assert len(SOURCE.splitlines()) < 500  # the teaching copy stays one plain file to read


# -- the deal, by hand ---------------------------------------------------------------------------


@pytest.mark.rule("DEAL-2")
@pytest.mark.parametrize("seed", [7, -3, 2**200])
def test_the_deal_is_the_documented_shuffle_of_the_set(seed: int) -> None:
    """DEAL-2 as the rules page states it: SHA-256 of the text, its first 16 bytes seed Python's
    generator, whose ``shuffle`` (CPython's own, not the reference's copy) shuffles the set in order."""
    import hashlib
    import random

    for round_index in range(10):
        digest = hashlib.sha256(f"chickenfoot/{seed}/{round_index}".encode()).digest()
        tiles = reference.tiles(9)
        random.Random(int.from_bytes(digest[:16], "big")).shuffle(tiles)
        state = reference.deal(cf.Rules.cross(), 3, seed=seed, round_index=round_index)
        double = (9 - round_index,) * 2
        holder = next((seat for seat in range(3) if double in tiles[seat * 7 : seat * 7 + 7]), None)
        if holder is None:  # DEAL-B2: drawn for; the first 7 of each hand are what was dealt
            assert [hand[:7] for hand in state.hands] == [tuple(tiles[seat * 7 : seat * 7 + 7]) for seat in range(3)]
            continue
        hands = [tuple(tile for tile in tiles[seat * 7 : seat * 7 + 7] if tile != double) for seat in range(3)]
        assert state.hands == tuple(hands)
        assert state.yard == tuple(tiles[21:])
        assert state.current_player == (holder + 1) % 3


@pytest.mark.rule("DEAL-A1", "DEAL-A2", "DEAL-A3", "DEAL-A4")
def test_a_trains_deal_sets_the_double_aside_and_deals_the_rest() -> None:
    order = [tile for tile in reference.tiles(9) if tile != (7, 7)]
    state = reference.deal_tiles(cf.Rules.trains(), 4, 2, order, starter=3)
    assert state.nodes == (reference.Node((7, 7), None, 7),)
    assert state.hands == tuple(tuple(order[11 * seat : 11 * seat + 11]) for seat in range(4))
    assert state.yard == tuple(order[44:])
    assert (state.current_player, state.reserve) == (3, 1)  # YARD-1: one tile stays with 3+ players


@pytest.mark.rule("DEAL-B2", "DEAL-B3")
def test_a_cross_deal_draws_for_a_double_nobody_holds() -> None:
    # Double-6, 2 players, 2 tiles each, round 1 (5-5): the 5-5 lies last in the yard, so seats
    # 1, 0, 1, ... (from round 1 mod 2) draw 23 tiles before seat 0 draws it, the 24th.
    rules = cf.Rules.cross(max_pip=6, hand_size=2)
    order = [tile for tile in reference.tiles(6) if tile != (5, 5)] + [(5, 5)]
    state = reference.deal_tiles(rules, 2, 1, order)
    drawn = order[4:-1]  # seat 1 takes 12 of them, seat 0 11
    assert state.hands == (tuple(order[0:2] + drawn[1::2]), tuple(order[2:4] + drawn[0::2]))
    assert state.yard == ()
    assert state.nodes[0].tile == (5, 5)
    assert state.current_player == 1  # DEAL-B3: seat 0 drew it and placed it


@pytest.mark.rule("DEAL-B2")
def test_the_highest_double_variant_never_starts_above_the_round() -> None:
    """The variant as the rules state it: the highest double held below the round's double, else the draw."""
    rules = cf.Rules.cross(max_pip=6, hand_size=3, center_fallback="highest_double")
    # Round 2 (4-4): seat 0 holds 6-6 and 2-2, seat 1 holds 3-3; 4-4 and 5-5 lie in the yard.
    order = [(6, 6), (2, 2), (1, 0), (3, 3), (2, 1), (3, 0), (4, 4), (5, 5), (6, 0)]
    state = reference.deal_tiles(rules, 2, 2, order)
    assert state.nodes[0].tile == (3, 3)  # not 6-6: above the round's double
    assert state.hands == (((6, 6), (2, 2), (1, 0)), ((2, 1), (3, 0)))
    assert state.current_player == 0  # DEAL-B3: after seat 1, who placed it
    # Nobody holds a lower double: the players draw for 4-4 as in DEAL-B2.
    order = [(6, 6), (2, 1), (1, 0), (5, 5), (3, 0), (6, 0), (5, 1), (4, 4), (0, 0)]
    state = reference.deal_tiles(rules, 2, 2, order)
    assert state.nodes[0].tile == (4, 4)
    assert state.hands == (((6, 6), (2, 1), (1, 0), (5, 1)), ((5, 5), (3, 0), (6, 0)))
    assert state.yard == ((0, 0),)


@pytest.mark.rule("DEAL-1")
def test_configurations_that_cannot_be_dealt_are_refused() -> None:
    with pytest.raises(ValueError, match="needs 57 tiles; double-9 has 55"):
        reference.deal(cf.Rules.cross(), 8, 0, 0)
    with pytest.raises(ValueError, match="9 players cannot play a center of 9 arms"):
        reference.deal(cf.Rules.trains(max_pip=12), 9, 0, 0)
    with pytest.raises(ValueError, match="round_index must be from 0 to 6"):
        reference.deal(cf.Rules.trains(max_pip=6), 2, 0, 7)


# -- play, on hand-built positions ------------------------------------------------------------


def _public(
    rules: str, hands: str, board: str, *, drawable: int = 3, drawn: str = "-", status: str = "play"
) -> cf.RoundState:
    """Reads a double-6 position, player 0 to move: the tiles not in ``hands`` or ``board`` make the
    yard, all but ``drawable`` of them held back as the reserve."""
    used = {t for part in (hands.replace("/", ","), board) for t in re.findall(r"\d-\d", part)}
    yard = [str(t) for t in cf.full_set(6) if str(t) not in used]
    text = f"{rules} 0 {drawn} {len(yard) - drawable} {hands} {','.join(yard)} {board} {status}"
    return cf.parse_position(text)


def _position(
    rules: str, hands: str, board: str, *, drawable: int = 3, drawn: str = "-", status: str = "play"
) -> reference.Round:
    """Builds a position (as :func:`_public` reads it) in the reference's values."""
    return reference_round(_public(rules, hands, board, drawable=drawable, drawn=drawn, status=status))


def _moves(state: reference.Round) -> set[str]:
    return set(reference.legal_moves(state))


CENTER = "6-6,6-5<0,6-3<0"  # two players on double-6: the center's two arms offer a 5 and a 3


@pytest.mark.rule("OPEN-2")
def test_reference_center_takes_every_play_until_full() -> None:
    state = _position("trains[max_pip=6]", "6-4,5-2/1-1", "6-6,6-5<0")
    assert _moves(state) == {"6-4@0"}  # 5-2 fits node 1's 5, but the center still lacks an arm


@pytest.mark.rule("FOOT-2", "FOOT-3")
def test_reference_foot_is_pending_then_opens_every_end() -> None:
    pending = _position("trains[max_pip=6]", "5-4,5-1,3-1,4-0/1-1", CENTER + ",5-5<1,5-2<3,5-0<3")
    assert _moves(pending) == {"5-4@3", "5-1@3"}  # FOOT-2: only toes carrying a 5, onto the foot
    full = _position("trains[max_pip=6]", "5-1,3-1,4-0/1-1", CENTER + ",5-5<1,5-2<3,5-0<3,5-4<3")
    # FOOT-3: ends offer 3 (node 2), 2 (node 4), 0 (node 5) and 4 (node 6); the foot takes no more.
    assert _moves(full) == {"3-1@2", "4-0@5", "4-0@6"}
    assert reference.open_nodes(full) == [2, 4, 5, 6]


@pytest.mark.rule("PLAY-1")
def test_reference_a_play_exposes_the_other_half_and_a_double_its_own() -> None:
    state = _position("trains[max_pip=6]", "5-2,3-3/1-1", CENTER)
    assert reference.apply(state, "5-2@1").nodes[-1] == reference.Node((5, 2), 1, 2)
    assert reference.apply(state, "3-3@2").nodes[-1] == reference.Node((3, 3), 2, 3)


@pytest.mark.rule("DRAW-2", "DRAW-3")
def test_reference_drawn_tile_must_or_may_be_played() -> None:
    must = _position("trains[max_pip=6]", "5-4,2-2/1-1", CENTER, drawn="5-4")
    assert _moves(must) == {"5-4@1"}  # DRAW-2: the drawn tile fits, so it must be played
    may = _position("trains[max_pip=6,drawn_tile=may_play]", "5-4,2-2/1-1", CENTER, drawn="5-4")
    assert _moves(may) == {"5-4@1", "pass"}  # DRAW-3: or the player passes
    stuck = _position("trains[max_pip=6]", "2-2,1-0/1-1", CENTER, drawn="1-0")
    assert _moves(stuck) == {"pass"}  # DRAW-2: it does not fit, so the player passes
    again = _position("trains[max_pip=6,draw_until_playable=true]", "2-2,1-0/1-1", CENTER, drawn="1-0")
    assert _moves(again) == {"draw"}  # variant: keep drawing


@pytest.mark.rule("DRAW-1", "DRAW-4", "YARD-2", "END-2", "TURN-1")
def test_reference_draws_only_when_stuck_and_a_draw_can_block() -> None:
    holding = _position("trains[max_pip=6]", "5-4,2-2/1-1", CENTER)
    assert _moves(holding) == {"5-4@1"}  # DRAW-4: no draw while holding a play
    stuck = _position("trains[max_pip=6]", "2-2,1-0/1-1", CENTER)
    assert _moves(stuck) == {"draw"}  # DRAW-1: must draw while the yard holds more than the reserve
    after = reference.apply(stuck, "draw")
    assert (after.drawn, after.current_player, after.yard) == (stuck.yard[0], 0, stuck.yard[1:])
    assert after.hands[0] == (*stuck.hands[0], stuck.yard[0])
    at_reserve = _position("trains[max_pip=6]", "2-2,1-0/5-1", CENTER, drawable=0)
    assert _moves(at_reserve) == {"pass"}  # YARD-2: can neither play nor draw
    passed = reference.apply(at_reserve, "pass")
    assert not passed.is_over  # player 1 can still play the 5-1
    assert passed.current_player == 1  # TURN-1: the pass hands the turn on
    # One drawable tile, the 0-0, fits nothing: drawing it leaves nobody able to play or draw.
    last = _position("trains[max_pip=6]", "2-2,1-0/1-1", CENTER, drawable=1)
    assert last.yard[0] == (0, 0)
    ended = reference.apply(last, "draw")
    assert (ended.is_over, ended.went_out, reference.legal_moves(ended)) == (True, None, ())


@pytest.mark.rule("END-2")
def test_reference_an_unfillable_foot_ends_the_round_under_the_variant() -> None:
    # Of the tiles carrying a 5, the 5-2, 5-1 and 5-0 lie in the reserve and the rest are placed:
    # a foot on 5-5 could never get its toes.
    board = CENTER + ",5-3<2,5-4<3"
    for variant, ends in (("trains[max_pip=6,unfillable_foot_ends_round=true]", True), ("trains[max_pip=6]", False)):
        after = reference.apply(_position(variant, "5-5,2-2/1-1", board, drawable=1), "5-5@1")
        assert (after.is_over, after.went_out) == (ends, None)


@pytest.mark.rule("END-2")
def test_the_variant_ends_a_round_on_an_unfillable_foot_not_on_an_unfillable_center() -> None:
    variant = "trains[max_pip=6,center_arms=6,unfillable_foot_ends_round=true]"
    # The center lacks five arms and every other 6 is in the reserve, but a tile can still be
    # drawn: the variant is about feet, so the round goes on (the reader refuses "blocked").
    center = _position(variant, "2-2/1-1", "6-6,6-5<0", drawable=1)
    assert not center.is_over
    assert _moves(center) == {"draw"}
    assert reference.apply(center, "draw").is_over  # then the round is blocked, by END-2 itself
    text = cf.position(_public(variant, "2-2/1-1", "6-6,6-5<0", drawable=1))
    with pytest.raises(cf.InvalidRecordError, match="END-2"):
        cf.parse_position(text.replace(" play", " blocked"))
    # Blocked with nothing pending: the reader accepts it under the variant too.
    blocked = _position(variant.replace("center_arms=6,", ""), "2-2/1-1", CENTER, drawable=0, status="blocked")
    assert blocked.is_over
    assert reference.legal_moves(blocked) == ()


@pytest.mark.rule("END-1", "SCORE-1")
def test_reference_going_out_ends_the_round_and_scores() -> None:
    state = _position("trains[max_pip=6,double_out_penalty=50]", "5-5/1-1,2-1", CENTER)
    out = reference.apply(state, "5-5@1")
    assert (out.is_over, out.went_out, out.current_player) == (True, 0, 0)
    assert reference.open_nodes(out) == [3]  # the foot was still pending: the round ends anyway
    # Going out scores 0, but on a double the penalty; player 1 holds 1-1 and 2-1: 5 pips.
    assert reference.score_round(out) == (50, 5)


@pytest.mark.rule("SET-2", "SCORE-2")
def test_reference_tile_values() -> None:
    """Pip sums, 0-0 at 50 in cross, blank halves at 25 each under the option."""
    assert reference.tile_value(cf.Rules.trains(), (9, 5)) == 14
    assert reference.tile_value(cf.Rules.trains(), (0, 0)) == 0
    assert reference.tile_value(cf.Rules.cross(), (0, 0)) == 50
    assert reference.tile_value(cf.Rules.trains(blank_value=25), (0, 0)) == 50
    assert reference.tile_value(cf.Rules.trains(blank_value=25), (7, 0)) == 32


def _results(*rounds: tuple[int, ...]) -> tuple[reference.Result, ...]:
    final = reference.deal(cf.Rules.cross(), len(rounds[0]), 0, 0)
    return tuple(reference.Result(double=9, scores=scores, went_out=None, final=final) for scores in rounds)


@pytest.mark.rule("GAME-1", "TIE-1", "TIE-2")
def test_reference_ties() -> None:
    # Rounds by player: 0 scored 0, 0, 3, 7; player 1 0, 0, 5, 5; player 2 2, 2, 2, 4. All total 10.
    results = _results((0, 0, 2), (0, 0, 2), (3, 5, 2), (7, 5, 4))
    totals = (10, 10, 10)
    assert reference.decide_winners(cf.Rules.trains(), totals, results) == (0, 1, 2)  # TIE-1: shared
    # TIE-2: players 0 and 1 have two zero rounds; then 0's lowest non-zero (3) beats 1's (5).
    assert reference.decide_winners(cf.Rules.cross(), totals, results) == (0,)
    assert reference.decide_winners(cf.Rules.cross(), (11, 10, 10), results) == (1,)  # most zero rounds
    assert reference.decide_winners(cf.Rules.cross(), (10, 10, 10), _results((3, 7, 3), (7, 3, 7))) == (0, 1, 2)
    assert reference.decide_winners(cf.Rules.cross(), (10, 11, 12), _results((3, 7, 3), (7, 4, 9))) == (0,)  # GAME-1


@pytest.mark.rule("ROUND-1", "GAME-1")
def test_reference_plays_a_whole_game_to_its_winners() -> None:
    game = reference.new_game(cf.Rules.cross(max_pip=6), players=3, seed=2)
    doubles = [game.round.nodes[0].tile]
    while not game.is_over:
        index = game.round_index
        game = reference.apply(game, reference.legal_moves(game)[-1])
        if game.round_index != index:
            doubles.append(game.round.nodes[0].tile)
    assert doubles == [(value, value) for value in range(6, -1, -1)]
    assert game.totals == tuple(map(sum, zip(*(result.scores for result in game.results), strict=True)))
    assert game.winners == reference.decide_winners(game.rules, game.totals, game.results)
    assert reference.legal_moves(game) == ()
    with pytest.raises(ValueError, match="the game is over"):
        reference.apply(game, "pass")


def test_reference_refuses_illegal_moves_and_changes_nothing() -> None:
    game = reference.new_game(cf.Rules.trains(), players=4, seed=7)
    before = game
    with pytest.raises(ValueError, match="pass is not legal now; the legal moves are"):
        reference.apply(game, "pass")
    assert game == before


def test_positions_read_into_the_reference_agree_with_the_engine() -> None:
    """The conversion the conformance suite reads states with: the reference takes over where the engine is."""
    for board in (CENTER, CENTER + ",5-5<1,5-2<3,5-0<3"):
        public = _public("trains[max_pip=6]", "5-4,5-1,2-2/1-1", board)
        state = reference_round(public)
        assert reference.legal_moves(state)
        for move in reference.legal_moves(state):
            assert round_differences(cf.apply(public, cf.parse_move(move)), reference.apply(state, move)) == []
