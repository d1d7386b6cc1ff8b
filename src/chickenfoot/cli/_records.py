"""Saving and loading game records for ``play`` and ``replay``."""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from .._engine import apply, new_game
from .._errors import IllegalMoveError, InvalidMoveError, RulesError
from .._moves import parse_move
from .._rules import Rules
from .._state import GameState

__all__ = ["RecordError", "load_record", "save_record"]


class RecordError(ValueError):
    """Raised for a record file that cannot be read or replayed."""


def save_record(game: GameState, path: str | Path) -> Path:
    """Writes ``game``'s record (rules, players, seed, moves) as JSON to ``path``; returns the path."""
    record = {
        "format": "chickenfoot-record",
        "version": 1,
        "rules": attrs.asdict(game.rules),
        "players": game.players,
        "seed": game.seed,
        "moves": [str(move) for move in game.moves],
    }
    target = Path(path)
    target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return target


def load_record(path: str | Path) -> list[GameState]:
    """Reads a record and replays it: every state from the deal to the last move, checked move by move."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != "chickenfoot-record":
        raise RecordError(f"{path} is not a chickenfoot game record (saved by `chickenfoot play`)")
    try:
        rules = Rules(**data["rules"])
        game = new_game(rules, players=data["players"], seed=data["seed"])
        moves = [parse_move(text) for text in data["moves"]]
    except (KeyError, TypeError, RulesError, InvalidMoveError) as error:
        raise RecordError(f"{path} is a malformed record: {error}") from None
    states = [game]
    for number, move in enumerate(moves, start=1):
        try:
            states.append(apply(states[-1], move))
        except IllegalMoveError as error:
            raise RecordError(f"{path}: move {number} ({move}) is illegal: {error}") from None
    return states
