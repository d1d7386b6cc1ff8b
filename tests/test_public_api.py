"""The public surface is exactly what is meant, and every state object is frozen."""

from __future__ import annotations

import attrs
import pytest

import chickenfoot as cf

SPEC_NAMES = {
    "Tile", "full_set", "Rules", "new_game", "legal_moves", "apply", "Play", "Draw", "Pass", "parse_move",
    "GameState", "RoundState", "Board", "Node", "RoundResult", "RulesError", "IllegalMoveError",
}  # fmt: skip


def test_spec_names_are_exported() -> None:
    assert set(cf.__all__) >= SPEC_NAMES
    for name in cf.__all__:
        assert getattr(cf, name) is not None, name


def test_nothing_private_is_exported() -> None:
    assert not [name for name in cf.__all__ if name.startswith("_")]
    assert len(cf.__all__) == len(set(cf.__all__))


@pytest.mark.parametrize("cls", [cf.GameState, cf.RoundState, cf.Board, cf.Node, cf.RoundResult, cf.Rules, cf.Play])
def test_state_objects_are_frozen_slotted_attrs_classes(cls: type) -> None:
    assert attrs.has(cls)
    assert "__slots__" in vars(cls)
    game = cf.new_game(cf.Rules.trains(), players=2, seed=0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.round = game.round  # type: ignore[misc]


def test_errors_are_value_errors() -> None:
    for error in (cf.RulesError, cf.IllegalMoveError, cf.InvalidMoveError):
        assert issubclass(error, ValueError)
