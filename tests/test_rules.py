"""The rules object: presets, options, and refusing configurations that cannot be played (DEAL-1)."""

from __future__ import annotations

import attrs
import pytest

import chickenfoot as cf
from chickenfoot import Rules, RulesError


def test_presets_differ_where_their_rule_texts_do() -> None:
    trains, cross = Rules.trains(), Rules.cross()
    assert (trains.deal, cross.deal) == ("trains", "cross")
    assert (trains.drawn_tile, cross.drawn_tile) == ("must_play", "may_play")
    assert (trains.tie_break, cross.tie_break) == ("share", "zero_rounds")
    assert (trains.arms_for(4), cross.arms_for(4)) == (4, 4)
    assert (trains.arms_for(6), cross.arms_for(6)) == (6, 4)


def test_presets_take_overrides_and_evolve_validates() -> None:
    assert Rules.cross(max_pip=12).max_pip == 12
    assert attrs.evolve(Rules.trains(), reserve=0).reserve == 0
    with pytest.raises(RulesError, match="center_arms"):
        attrs.evolve(Rules.trains(), center_arms=0)


def test_rules_are_immutable_and_hashable() -> None:
    rules = Rules.trains()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.max_pip = 12  # type: ignore[misc]
    assert hash(rules) == hash(Rules.trains())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_pip": 10}, "max_pip must be one of 6, 9, 12, 15, 18"),
        ({"deal": "dutch"}, "deal must be one of"),
        ({"drawn_tile": "never"}, "drawn_tile must be one of"),
        ({"center_arms": 9}, "center_arms must be None .* from 1 to 8"),
        ({"max_pip": 6, "center_arms": 7}, "from 1 to 6"),
        ({"reserve": -1}, "reserve must be None"),
        ({"hand_size": 0}, "hand_size"),
        ({"center_fallback": "highest_double"}, "applies to the cross deal only"),
        ({"colour": "red"}, "unknown rules option.*colour"),
        ({"double_out_penalty": -1}, "double_out_penalty must be a whole number from 0 to 999,999,999"),
    ],
)
def test_invalid_configurations_say_what_to_change(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.trains(**options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"double_blank_value": "50"}, r"double_blank_value must be None .* \(an int\), got '50'"),
        ({"draw_until_playable": 1}, "draw_until_playable must be True or False"),
        ({"double_out_penalty": None}, r"double_out_penalty must be a whole number \(an int\), got None"),
        ({"max_pip": "9"}, r"max_pip must be one of 6, 9, 12, 15, 18 \(an int\)"),
        ({"max_pip": 9.0}, r"max_pip must be one of"),
        ({"deal": 1}, r"deal must be one of 'trains', 'cross' \(a str\)"),
        ({"hand_size": True}, "hand_size must be None"),
    ],
)
def test_options_of_the_wrong_type_are_type_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Rules.trains(**options)


@pytest.mark.rule("DEAL-1")
def test_deal_1_too_many_tiles_names_the_fix() -> None:
    with pytest.raises(RulesError) as caught:
        cf.new_game(Rules.cross(), players=8, seed=0)
    assert str(caught.value) == (
        "8 players with 7 tiles each need 57 tiles (56 in hands, 1 for the center double); "
        "double-9 has 55: use a double-12 set or fewer tiles each"
    )
    cf.new_game(Rules.cross(max_pip=12), players=8, seed=0)  # the suggested fix deals


@pytest.mark.rule("DEAL-1")
@pytest.mark.parametrize("players", [1, 0, -3])
def test_deal_1_fewer_than_two_players_is_refused(players: int) -> None:
    with pytest.raises(RulesError, match="2 or more players"):
        cf.new_game(Rules.trains(), players=players, seed=0)


@pytest.mark.rule("DEAL-1")
@pytest.mark.parametrize(("players", "kind"), [(2.5, "float"), ("4", "str"), (True, "bool"), (None, "NoneType")])
def test_deal_1_a_player_count_that_is_not_an_int_says_so(players: object, kind: str) -> None:
    with pytest.raises(TypeError, match=rf"^players must be an int, 2 or more; got .* \({kind}\)$"):
        cf.new_game(Rules.trains(), players=players, seed=0)  # type: ignore[arg-type]


@pytest.mark.rule("DEAL-1")
def test_deal_1_reserve_counts_toward_the_tiles_needed() -> None:
    with pytest.raises(RulesError, match="and 3 in reserve need"):
        cf.new_game(Rules.trains(hand_size=26, reserve=3), players=2, seed=0)
    cf.new_game(Rules.trains(hand_size=26, reserve=2), players=2, seed=0)


@pytest.mark.rule("DEAL-1")
def test_deal_1_too_few_arms_or_too_many_players_for_the_trains_center() -> None:
    with pytest.raises(RulesError, match="at least one arm per player"):
        cf.new_game(Rules.trains(center_arms=3), players=4, seed=0)
    with pytest.raises(RulesError, match="at most 8"):
        cf.new_game(Rules.trains(max_pip=12), players=9, seed=0)
    with pytest.raises(RulesError, match=r"only 6 other tiles carry its value.*play with 6 or fewer players"):
        cf.new_game(Rules.trains(max_pip=6), players=7, seed=0)


def test_new_game_refuses_what_is_not_rules_or_a_seed() -> None:
    with pytest.raises(TypeError, match=r"rules must be a chickenfoot\.Rules"):
        cf.new_game("trains", players=4, seed=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"a seed is a whole number \(an int\)"):
        cf.new_game(Rules.trains(), players=4, seed="7")  # type: ignore[arg-type]


@pytest.mark.rule("DEAL-A3")
def test_deal_a3_hand_sizes_scale_with_the_set() -> None:
    # Scaled from the double-9 table by set size, so the yard keeps about the same share.
    assert Rules.trains(max_pip=12).hand_size_for(4) == 11 * 91 // 55
    assert Rules.trains(max_pip=6).hand_size_for(2) == 21 * 28 // 55
    for max_pip in (6, 9, 12, 15, 18):
        rules = Rules.trains(max_pip=max_pip)
        for players in range(2, min(8, max_pip) + 1):
            rules.check_players(players)  # every default configuration can be dealt
