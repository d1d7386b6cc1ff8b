"""Save a game to JSON, load it back, and replay it move by move.

A :class:`chickenfoot.GameRecord` is a game's setup (rules, players, seed) and its moves: the
deals are pure functions of the seed (DEAL-2), so that is enough to rebuild every state.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import chickenfoot as cf


def play(seed: int) -> cf.GameState:
    """Plays a whole *cross* game between random players."""
    rng = random.Random(seed)
    game = cf.new_game(cf.Rules.cross(), players=3, seed=seed)
    while not game.is_over:
        game = cf.apply(game, rng.choice(cf.legal_moves(game)))
    return game


def main() -> None:
    """Saves a finished game, reads it back, replays it, and shows a tampered file being refused."""
    game = play(seed=11)
    record = cf.GameRecord.from_game(game)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(cf.to_json(record, indent=2), encoding="utf-8")
        print(f"saved {len(record.moves)} moves in {path.stat().st_size} bytes")
        loaded = cf.from_json(path.read_text(encoding="utf-8"), cf.GameRecord)  # insists on a record

    states = cf.replay(loaded)  # states[0] is the deal; states[i] follows move i
    assert states[-1] == game, "a replay rebuilds the very same game"
    print(f"replayed {len(states) - 1} moves; totals {states[-1].totals}, winners {states[-1].winners}")

    # Any position of the game can be written as one line of text and read back.
    middle = states[len(states) // 2]
    line = cf.position(middle)
    assert cf.parse_position(line) == middle.round
    print(f"halfway, in the position notation:\n  {line}")

    # A record whose moves do not fit the game is refused with the first bad move and why.
    tampered = cf.GameRecord(record.rules, record.players, record.seed, (cf.Pass(), *record.moves[1:]))
    try:
        cf.replay(tampered)
    except cf.InvalidRecordError as error:
        print(f"refused: {error}")


if __name__ == "__main__":
    main()
