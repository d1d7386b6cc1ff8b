"""What the game server sends: no seat or spectator is ever told another seat's tile, a yard tile or the seed."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from hypothesis import given, strategies as st

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")

import chickenfoot as cf  # noqa: E402
from _games import games  # noqa: E402
from _server import FAST, Recorder, settle  # noqa: E402
from chickenfoot.server import GameServer, SQLiteStore, seat_view  # noqa: E402

TILE = re.compile(r"(?<![\d-])(\d+)-(\d+)(?![\d-])")


def tiles_in(frame: dict[str, Any], round_index: int, game_id: str) -> set[cf.Tile]:
    """Gets every tile a frame names, leaving out moves of rounds before ``round_index`` (public, and in the past).

    The game's id is left out too: it is random URL-safe text, which may hold a "9-8" by chance.
    """
    shown = dict(frame)
    shown["log"] = [entry for entry in frame.get("log", []) if entry[0] >= round_index]
    if "last" in frame and frame["last"][0] < round_index:
        del shown["last"]
    return {cf.Tile(int(high), int(low)) for high, low in TILE.findall(json.dumps(shown).replace(game_id, ""))}


def hidden_from(game: cf.GameState, seat: int | None) -> set[cf.Tile]:
    """Gets the tiles ``seat`` (``None``: a spectator) may not know of now: the others' hands and the yard."""
    round_ = game.round
    hidden = set(round_.yard)
    for player, hand in enumerate(round_.hands):
        if player != seat:
            hidden.update(hand)
    return hidden


@given(
    seed=st.integers(2**64, 2**128),
    players=st.integers(2, 4),
    rules=st.sampled_from([cf.Rules.trains(), cf.Rules.cross()]),
    choices=st.lists(st.integers(0, 50), min_size=1, max_size=120),
    svg=st.booleans(),
)
def test_no_frame_tells_a_hidden_tile_or_the_seed(
    seed: int, players: int, rules: cf.Rules, choices: list[int], svg: bool
) -> None:
    async def play() -> None:
        server = GameServer(SQLiteStore(":memory:"), limits=FAST)
        await server.start()
        try:
            created = await server.create(rules, ["human"] * players, seed=seed)
            tokens = [
                await server.claim(created.game, seat, invite) for seat, invite in enumerate(created.invites) if invite
            ]
            watchers: dict[int | None, Recorder] = {seat: Recorder() for seat in [*range(players), None]}
            sessions = {seat: transport.connect(server, created.game) for seat, transport in watchers.items()}
            for seat, session in sessions.items():
                token = None if seat is None else tokens[seat]
                await session.receive(json.dumps({"type": "hello", "seat": seat, "token": token, "svg": svg}))
            await settle(list(sessions.values()))
            table = server.tables[created.game]  # in memory while someone is connected
            check(table.game, watchers, seed, table.id)
            for choice in choices:
                game = table.game
                if game.is_over:
                    break
                mover = game.current_player
                assert mover is not None
                legal = cf.legal_moves(game)
                seq = table.seq
                for transport in watchers.values():
                    transport.frames.clear()
                await sessions[mover].receive(
                    json.dumps({"type": "move", "seq": seq, "move": str(legal[choice % len(legal)])})
                )
                await settle(list(sessions.values()))
                assert table.seq == seq + 1
                check(table.game, watchers, seed, table.id)
            for session in sessions.values():
                await session.closed()
        finally:
            await server.close()

    asyncio.run(play())


def check(game: cf.GameState, watchers: dict[int | None, Recorder], seed: int, game_id: str) -> None:
    """Checks the frames each connection got since the last move against what it may know after it."""
    for seat, transport in watchers.items():
        assert transport.frames, f"seat {seat} was sent nothing"
        hidden = hidden_from(game, seat)
        for text in transport.frames:
            assert str(seed) not in text
            assert hex(seed)[2:] not in text
            frame = json.loads(text)
            assert "seed" not in json.dumps(frame.get("view", {}))
            leaked = tiles_in(frame, game.round_index, game_id) & hidden
            assert not leaked, f"{frame['type']} frame to seat {seat} shows hidden tiles {sorted(map(str, leaked))}"
            if seat is None and "view" in frame:
                assert frame["view"]["type"] == "spectator"
                assert "hand" not in frame["view"]


@given(games(max_steps=300), st.integers(0, 3))
def test_a_seat_view_written_from_the_public_one_is_the_libraries_view_document(game: cf.GameState, seat: int) -> None:
    viewer = seat % game.players
    public = cf.to_json(cf.spectate(game))
    written = seat_view(public, cf.observe(game, viewer))
    assert json.loads(written) == json.loads(cf.to_json(cf.observe(game, viewer)))
    assert next(iter(json.loads(written))) == "type"
