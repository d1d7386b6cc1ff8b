"""Saving and loading game records for ``play`` and ``replay``: the library's JSON :class:`GameRecord`."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from pathlib import Path

from .._game import GameState, InvalidRecordError
from .._io import GameRecord, from_json, replay, to_json

__all__ = ["load_record", "save_record"]


def save_record(
    game: GameState,
    path: str | Path,
    *,
    names: Sequence[str],
    event: str,
    date: str | None = None,
    comments: Mapping[int, str] | None = None,
    round_comments: Mapping[int, str] | None = None,
    tags: Mapping[str, str] | None = None,
) -> Path:
    """Writes ``game``'s record (rules, players, seed, moves, and the headers: names, event, the
    date, or else today's, result, comments, tags) as JSON to ``path``; returns the path."""
    target = Path(path)
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    record = GameRecord.from_game(
        game,
        names=names,
        event=event,
        date=date or today,
        comments=comments,
        round_comments=round_comments,
        tags=tags,
    )
    target.write_text(to_json(record, indent=1) + "\n", encoding="utf-8")
    return target


def load_record(path: str | Path) -> tuple[GameRecord, tuple[GameState, ...]]:
    """Reads a record and replays it: the record, and every state from the deal on, each move checked.

    Raises :class:`InvalidRecordError` naming the problem (unreadable file, not a record, an illegal move).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidRecordError(f"cannot read {path}: {error}") from None
    record = from_json(text)
    if type(record) is not GameRecord:
        raise InvalidRecordError(f"{path} holds a {type(record).__name__}, not a game record (saved by `play`)")
    return record, replay(record)
