"""Tiles and sets: SET-1, SET-2."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

import chickenfoot as cf
from chickenfoot import Tile


@pytest.mark.rule("SET-1")
@pytest.mark.parametrize("max_pip", [6, 9, 12, 15, 18])
def test_set_1_full_set_has_each_pair_once(max_pip: int) -> None:
    tiles = cf.full_set(max_pip)
    assert len(tiles) == (max_pip + 1) * (max_pip + 2) // 2
    assert len(set(tiles)) == len(tiles)
    pairs = {(t.high, t.low) for t in tiles}
    assert pairs == {(a, b) for a, b in itertools.product(range(max_pip + 1), repeat=2) if a >= b}


@pytest.mark.rule("SET-1")
def test_set_1_double_nine_is_the_default_with_55_tiles() -> None:
    assert len(cf.full_set()) == 55
    assert cf.Rules.trains().max_pip == 9
    assert cf.Rules.cross().max_pip == 9


def test_tiles_are_unordered_pairs_written_high_first() -> None:
    assert Tile(9, 5) == Tile(5, 9)
    assert hash(Tile(9, 5)) == hash(Tile(5, 9))
    tile = Tile(5, 9)
    assert (tile.high, tile.low, str(tile), repr(tile)) == (9, 5, "9-5", "Tile(9, 5)")
    assert Tile.parse("5-9") is tile
    assert Tile(4, 4).is_double
    assert not tile.is_double


def test_tile_repr_pastes_back_and_pickles_to_the_same_tile() -> None:
    tile = Tile(7, 3)
    assert eval(repr(tile), {"Tile": Tile}) is tile
    assert pickle.loads(pickle.dumps(tile)) is tile


def test_tiles_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Tile(3, 2).high = 4  # type: ignore[misc]


@pytest.mark.parametrize("pips", [(-1, 3), (19, 2), (10, 19)])
def test_bad_pips_are_refused_with_the_range_as_tile_text_is(pips: tuple[int, int]) -> None:
    with pytest.raises(cf.InvalidMoveError, match=r"^a tile's pips run from 0 to 18"):
        Tile(*pips)
    if min(pips) >= 0:
        with pytest.raises(cf.InvalidMoveError, match="pip values run from 0 to 18"):
            Tile.parse(f"{pips[0]}-{pips[1]}")


@pytest.mark.parametrize("pips", [(3.0, 2), ("3", 2), (True, 0), (None, 1)])
def test_pips_of_the_wrong_type_are_type_errors(pips: tuple[object, object]) -> None:
    with pytest.raises(TypeError, match=r"a tile's pips are ints"):
        Tile(*pips)  # type: ignore[arg-type]


def test_tiles_are_totally_ordered_as_the_set_lists_them() -> None:
    tiles = cf.full_set(9)
    for a, b in itertools.pairwise(tiles):
        assert (a < b, a <= b, b > a, b >= a) == (True, True, True, True)
        assert (a > b, a >= b, b < a, b <= a) == (False, False, False, False)
    assert Tile(4, 4) <= Tile(4, 4) >= Tile(4, 4)
    assert sorted(random.Random(1).sample(tiles, len(tiles))) == list(tiles)
    with pytest.raises(TypeError):
        assert Tile(1, 0) < 3  # type: ignore[operator]
    with pytest.raises(TypeError):
        assert Tile(1, 0) >= "1-0"  # type: ignore[operator]


@pytest.mark.parametrize("text", ["", "9", "9-", "9-5-3", "a-b", "9_5", "100-1"])
def test_bad_tile_text_is_refused_with_the_expected_form(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a tile|whole numbers"):
        Tile.parse(text)


@pytest.mark.rule("SET-2")
def test_set_2_a_tile_scores_its_pip_sum_by_default() -> None:
    rules = cf.Rules.trains()
    for tile in cf.full_set(9):
        assert rules.tile_value(tile) == tile.high + tile.low == tile.pips


@pytest.mark.rule("SET-2")
def test_set_2_double_blank_and_blank_halves_can_count_fixed_values() -> None:
    fifty = cf.Rules.trains(double_blank_value=50)
    assert fifty.tile_value(Tile(0, 0)) == 50
    assert fifty.tile_value(Tile(5, 0)) == 5
    quarter = cf.Rules.trains(double_blank_value=25)
    assert quarter.tile_value(Tile(0, 0)) == 25
    blanks = cf.Rules.trains(blank_value=25)
    assert blanks.tile_value(Tile(5, 0)) == 30
    assert blanks.tile_value(Tile(0, 0)) == 50  # two blank halves
    assert blanks.tile_value(Tile(5, 4)) == 9


def test_tile_hash_is_its_index_so_sets_iterate_alike_in_every_process() -> None:
    assert [hash(tile) for tile in cf.full_set(9)] == list(range(55))
    assert list({Tile(3, 1), Tile(0, 0), Tile(9, 9)}) == list({Tile(9, 9), Tile(3, 1), Tile(0, 0)})


@pytest.mark.rule("SET-1")
def test_set_1_a_tile_outside_the_set_is_refused_as_such_not_as_one_the_player_lacks() -> None:
    game = cf.new_game(cf.Rules.trains(max_pip=6), players=4, seed=1)
    with pytest.raises(cf.IllegalMoveError, match=r"^9-9 is not in this double-6 set$") as refused:
        cf.apply(game, cf.parse_move("9-9@0"))
    assert refused.value.rule == "SET-1"
