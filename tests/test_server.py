"""The game server over HTTP and WebSocket: games, seats, moves, refusals, spectators, bots and records."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")

from starlette.testclient import TestClient, WebSocketDenialResponse  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import chickenfoot as cf  # noqa: E402
import chickenfoot.server._session as server_session  # noqa: E402
from _server import FAST, claim, client_for, closing, create, hello, move, play_first_moves, receive  # noqa: E402
from chickenfoot.server import GameServer, Limits, SQLiteStore, parse_message, protocol_schema  # noqa: E402

BOTS = Path(__file__).parent / "bots"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    with client_for(tmp_path / "games.sqlite3") as client:
        yield client


@pytest.mark.parametrize("bot", ["greedy", "rollout:20"])
def test_a_person_plays_a_bot_to_the_end_and_the_record_is_the_librarys(client: TestClient, bot: str) -> None:
    game, invites = create(client, ["human", bot])
    assert invites[1] is None
    assert len(invites[0] or "") >= 43
    token = claim(client, game, 0, invites[0])
    assert client.get(f"/api/games/{game}/record").status_code == 403  # the seed stays on the server in play
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        frame = hello(ws, 0, token)
        assert frame["seat"] == 0
        assert frame["view"]["type"] == "view"
        acks = [frame["seq"] for frame in play_first_moves(ws, 0, frame) if frame["type"] == "ack"]
    assert acks
    assert acks == sorted(set(acks))
    answer = client.get(f"/api/games/{game}/record")
    assert answer.status_code == 200
    record = cf.from_json(answer.text, cf.GameRecord)
    final = cf.replay(record)[-1]
    assert final.is_over
    assert client.get(f"/api/games/{game}").json()["is_over"]
    assert client.get(f"/api/games/{game}").json()["seq"] == len(record.moves)


def test_the_api_describes_options_and_games_without_secrets(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert {"random", "heaviest", "greedy", "search", "sampler", "rollout"} <= set(options["bots"])
    assert "omniscient" not in options["bots"]
    assert "trains" in options["presets"]
    game, invites = create(client, ["human", "human", "random"], rules="cross")
    summary = client.get(f"/api/games/{game}").json()
    assert [seat["claimed"] for seat in summary["seats"]] == [False, False, True]
    assert "seed" not in json.dumps(summary)
    assert all(invite not in json.dumps(summary) for invite in invites if invite)
    assert client.get("/api/games/nosuchgame").status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"rules": "trains"}, 400, "name who sits in each seat"),
        ({"rules": "chess", "seats": ["human", "human"]}, 400, '"rules" is "trains", "cross"'),
        ({"seats": ["human", "cmd:rm -rf /"]}, 400, "cannot name a command"),
        ({"seats": ["human", "wizard"]}, 400, "wizard"),
        ({"seats": ["human", "search:999999"]}, 400, "at most 2000 simulations"),
        ({"seats": ["human", "sampler:5000ms"]}, 400, "at most 1000 ms a move"),
        ({"seats": ["human", "rollout:5000"]}, 400, "at most 2000 simulations"),
        ({"seats": ["human", "omniscient"]}, 400, "sees every hand"),
        ({"seats": ["human", "py:os:system"]}, 400, "py runs code a client names"),
        ({"seats": ["human", "solver"]}, 400, "solver solves worlds exactly"),
        ({"seats": ["human"] * 9}, 400, "players"),
        ({"seats": [3, "human"]}, 400, "a seat is 'human' or a bot's name"),
    ],
)
def test_a_bad_game_is_refused_saying_why(client: TestClient, body: dict[str, object], status: int, words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_requests_that_are_not_json_objects_are_refused(client: TestClient) -> None:
    assert client.post("/api/games", content=b"seats", headers={"content-type": "text/plain"}).status_code == 415
    answer = client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert "not JSON" in answer.json()["error"]
    answer = client.post("/api/games", content=b"[1]", headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert "JSON object" in answer.json()["error"]
    big = b'{"seats": "' + b"x" * 20_000 + b'"}'
    assert client.post("/api/games", content=big, headers={"content-type": "application/json"}).status_code == 413


def test_claiming_a_seat_needs_its_invitation_and_works_once(client: TestClient) -> None:
    game, invites = create(client, ["human", "human", "greedy"])
    assert invites[0]
    assert invites[1]
    refusals = [
        (0, "x" * 43, 403, "not seat 0's invitation"),
        (0, invites[1], 403, "not seat 0's invitation"),  # another seat's invitation
        (2, invites[0], 403, "a bot's"),
        (7, invites[0], 404, "seats 0 to 2"),
    ]
    for seat, invite, status, words in refusals:
        answer = client.post(f"/api/games/{game}/seats/{seat}", json={"invite": invite})
        assert answer.status_code == status
        assert words in answer.json()["error"], answer.text
    assert client.post(f"/api/games/{game}/seats/0", json={}).status_code == 400
    token = claim(client, game, 0, invites[0])
    again = client.post(f"/api/games/{game}/seats/0", json={"invite": invites[0]})
    assert again.status_code == 409
    assert token not in again.text
    assert client.get(f"/api/games/{game}").json()["seats"][0]["claimed"]


@pytest.mark.parametrize("which", ["missing", "forged", "other seat's", "bot seat"])
def test_a_seat_is_refused_without_its_own_token(client: TestClient, which: str) -> None:
    game, invites = create(client, ["human", "human", "random"])
    tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
    seat, token = {
        "missing": (0, None),
        "forged": (0, tokens[0][:-2] + ("AA" if tokens[0][-2:] != "AA" else "BB")),
        "other seat's": (0, tokens[1]),
        "bot seat": (2, tokens[0]),
    }[which]
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": seat, "token": token}))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4401
    assert closed.value.reason


def test_a_refused_move_says_why_and_names_the_rule(client: TestClient) -> None:
    game, invites = create(client, ["human", "human"])
    tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
    with (
        client.websocket_connect(f"/api/games/{game}/ws") as first,
        client.websocket_connect(f"/api/games/{game}/ws") as second,
    ):
        frames = [hello(first, 0, tokens[0]), hello(second, 1, tokens[1])]
        mover = frames[0]["view"]["current_player"]
        ws, other = (first, second) if mover == 0 else (second, first)
        waiting = 1 - mover
        move(other, 0, "draw")  # not its turn
        refused = receive(other)
        assert refused["type"] == "refused"
        assert refused["rule"] == "TURN-1"
        assert "not your turn" in refused["reason"]
        move(ws, 0, "draw")  # the engine's own refusal, with its rule
        refused = receive(ws)
        assert refused["type"] == "refused"
        assert refused["rule"]
        assert refused["reason"]
        assert refused["seq"] == 0
        move(ws, 0, "9-9@nowhere")
        refused = receive(ws)
        assert refused["type"] == "refused"
        assert refused["reason"]
        assert waiting in (0, 1)
    assert client.get(f"/api/games/{game}").json()["seq"] == 0


def test_a_stale_or_repeated_move_gets_a_short_answer_and_is_played_once(client: TestClient) -> None:
    game, invites = create(client, ["human", "human"])
    tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
    with (
        client.websocket_connect(f"/api/games/{game}/ws") as first,
        client.websocket_connect(f"/api/games/{game}/ws") as second,
    ):
        sockets = {0: first, 1: second}
        frame = hello(first, 0, tokens[0])
        hello(second, 1, tokens[1])
        mover = frame["view"]["current_player"]
        ws = sockets[mover]
        chosen = receive_view_of(client, game, mover, tokens[mover])["legal_moves"][0]
        move(ws, 0, chosen)
        move(ws, 0, chosen)  # sent twice (a retry after a dropped connection, say)
        frames = [receive(ws) for _ in range(3)]
        assert [frame["type"] for frame in frames] == ["ack", "state", "stale"]
        assert frames[0]["seq"] == 1
        assert frames[2]["seq"] == 1  # the game's seq now, and the move not played
        assert frames[2]["move"] == chosen
        assert "hello" in frames[2]["reason"]  # how to get a sync
        move(ws, 0, chosen)  # stale: made at a state long gone
        text = ws.receive_text()
        assert json.loads(text)["type"] == "stale"
        assert len(text) < 300  # not the whole view again
    assert client.get(f"/api/games/{game}").json()["seq"] == 1


def receive_view_of(client: TestClient, game: str, seat: int, token: str) -> dict[str, Any]:
    """Gets the current view of ``seat`` through a second connection (the first has had its sync)."""
    with client.websocket_connect(f"/api/games/{game}/ws") as again:
        view: dict[str, Any] = hello(again, seat, token)["view"]
    return view


def test_a_spectator_sees_every_move_and_no_hand(client: TestClient) -> None:
    game, invites = create(client, ["human", "random"])
    token = claim(client, game, 0, invites[0])
    with (
        client.websocket_connect(f"/api/games/{game}/ws") as watcher,
        client.websocket_connect(f"/api/games/{game}/ws") as ws,
    ):
        sync = hello(watcher, None)
        assert sync["seat"] is None
        assert sync["view"]["type"] == "spectator"
        assert "hand" not in sync["view"]
        move(watcher, sync["seq"], "draw")
        refused = receive(watcher)
        assert refused["type"] == "refused"
        assert "spectator cannot move" in refused["reason"]
        frames = list(play_first_moves(ws, 0, hello(ws, 0, token), until=sync["seq"] + 6))
        last = max(frame["seq"] for frame in frames if frame["type"] == "state")
        seen = []
        while not seen or seen[-1]["seq"] < last:
            frame = receive(watcher)
            assert frame["type"] == "state"
            assert "hand" not in frame["view"]
            assert "legal_moves" not in frame["view"]
            seen.append(frame)
        assert [frame["seq"] for frame in seen] == list(range(sync["seq"] + 1, last + 1))


def test_a_reconnected_seat_gets_the_view_it_left(client: TestClient) -> None:
    game, invites = create(client, ["human", "human"])
    tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
    frames, log = play_both(client, game, tokens, moves=12)
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        again = hello(ws, 0, tokens[0])
    assert again["seq"] == frames[0]["seq"] == 12
    assert again["view"] == frames[0]["view"]
    assert [entry[2] for entry in again["log"]] == log


def play_both(client: TestClient, game: str, tokens: list[str], *, moves: int) -> tuple[dict[int, Any], list[str]]:
    """Plays ``moves`` moves of a two-person game (each the last legal move); gets the last frames and the log."""
    log: list[str] = []
    with client.websocket_connect(f"/api/games/{game}/ws") as a, client.websocket_connect(f"/api/games/{game}/ws") as b:
        sockets = {0: a, 1: b}
        frames = {seat: hello(ws, seat, tokens[seat]) for seat, ws in sockets.items()}
        for _ in range(moves):
            mover = frames[0]["view"]["current_player"]
            log.append(frames[mover]["view"]["legal_moves"][-1])
            move(sockets[mover], frames[0]["seq"], log[-1])
            for seat, ws in sockets.items():
                frame = receive(ws)
                if frame["type"] == "ack":
                    assert seat == mover
                    assert frame["move"] == log[-1]
                    frame = receive(ws)
                frames[seat] = frame
    return frames, log


def test_a_restarted_server_rebuilds_its_games_from_the_store(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with client_for(path) as client:
        game, invites = create(client, ["human", "human"])
        tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
        frames, log = play_both(client, game, tokens, moves=10)
    with client_for(path) as client:
        for seat in (0, 1):
            with client.websocket_connect(f"/api/games/{game}/ws") as ws:
                again = hello(ws, seat, tokens[seat])
            assert again["seq"] == frames[seat]["seq"] == 10
            assert again["view"] == frames[seat]["view"]
            assert [entry[2] for entry in again["log"]] == log
        frames, _ = play_both(client, game, tokens, moves=2)  # and play goes on
    assert frames[0]["seq"] == 12


def test_the_log_a_connection_gets_holds_every_move_of_every_round_as_the_record_has_it(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with client_for(path) as client:
        game, _ = create(client, ["random", "random"])
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            frames = [hello(ws, None)]
            while not frames[-1]["view"]["is_over"]:
                frames.append(receive(ws))
        record = cf.from_json(client.get(f"/api/games/{game}/record").text, cf.GameRecord)
        turns = zip(cf.replay(record)[:-1], record.moves, strict=True)
        expected = [[state.round_index, state.current_player, str(move)] for state, move in turns]
        assert expected[-1][0] == record.rules.rounds - 1  # the log spans every round
        for frame in frames[1:]:  # each move's frame names that move, across the rounds' ends too
            assert frame["last"] == expected[frame["seq"] - 1]
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            assert hello(ws, None)["log"] == expected
    with client_for(path) as client, client.websocket_connect(f"/api/games/{game}/ws") as ws:
        assert hello(ws, None)["log"] == expected  # and as a server that read the game back from the store writes it


def test_bots_are_seated_by_the_server_built_in_and_program_bots(tmp_path: Path) -> None:
    programs = {"recorder": [sys.executable, str(BOTS / "recorder.py")]}
    with client_for(tmp_path / "games.sqlite3", programs=programs) as client:
        assert "recorder" in client.get("/api/options").json()["bots"]
        game, _ = create(client, ["recorder", "greedy", "random"])
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            frame = hello(ws, None)
            while not frame["view"]["is_over"]:
                frame = receive(ws)
                assert frame["type"] == "state"
        record = cf.from_json(client.get(f"/api/games/{game}/record").text, cf.GameRecord)
        assert cf.replay(record)[-1].is_over
        assert record.names == ("recorder", "greedy", "random")


def test_pages_from_other_origins_are_refused_whatever_their_host_header(client: TestClient) -> None:
    seats = {"seats": ["human", "greedy"]}
    evil = {"origin": "https://evil.example"}
    answer = client.post("/api/games", json=seats, headers=evil)
    assert answer.status_code == 403
    assert "evil.example" in answer.json()["error"]
    allowed = {"origin": "https://play.example.org"}
    assert client.post("/api/games", json=seats, headers=allowed).status_code == 201
    # DNS rebinding: a page of attacker.example, its name now pointing at this server, names itself in both.
    rebound = {"origin": "http://attacker.example", "host": "attacker.example"}
    answer = client.post("/api/games", json=seats, headers=rebound)
    assert answer.status_code == 403
    assert "attacker.example" in answer.json()["error"]
    game, _ = create(client, ["random", "greedy"])
    for headers in (evil, rebound):
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect(f"/api/games/{game}/ws", headers=headers),
        ):
            pass
        assert denied.value.status_code == 403
        assert "may not use this server" in denied.value.json()["error"]


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ("x" * 5000, 1009, "at most 4096 bytes"),
        ("{not json", 4400, "not JSON"),
        ("[1, 2]", 4400, "JSON object"),
        ('{"type": "shout"}', 4400, '"type" is "hello" or "move"'),
        ('{"type": "move", "seq": 0, "move": "draw"}', 4400, "say hello first"),
        ('{"type": "hello", "seat": "0"}', 4400, "seat number"),
        (b"\x00\x01", 1003, "binary frames"),
    ],
)
def test_oversized_and_malformed_frames_close_the_connection_with_a_reason(
    client: TestClient, frame: str | bytes, code: int, words: str
) -> None:
    game, _ = create(client, ["random", "greedy"])
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        closed = closing(ws)
    assert closed.code == code
    assert words in closed.reason


def test_too_many_messages_close_the_connection(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=1.0, message_burst=5)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        game, _ = create(client, ["random", "greedy"])
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            hello(ws, None)
            for _ in range(10):
                move(ws, 0, "draw")
            closed = closing(ws)
    assert closed.code == 1008
    assert "too many messages" in closed.reason


def test_too_many_requests_from_one_address_are_refused(tmp_path: Path) -> None:
    limits = Limits(requests_per_second=0.001, request_burst=3)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        statuses = [client.post("/api/games", json={"seats": ["random", "greedy"]}).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 429, 429]


def test_a_connection_to_no_game_is_closed(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nosuchgame/ws") as ws:
        ws.send_text('{"type": "hello", "seat": null}')
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert closed.value.code == 4404


def test_every_frame_matches_the_protocol_schema(client: TestClient) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = protocol_schema()
    validator = jsonschema.Draft202012Validator(schema)
    game, invites = create(client, ["human", "greedy"])
    token = claim(client, game, 0, invites[0])
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": 0, "token": token, "svg": True}))
        first = receive(ws)
        frames = [first, *play_first_moves(ws, 0, first, until=30)]
        move(ws, 0, "draw")
        while frames[-1]["type"] != "stale":  # the bot's moves' frames, then the answer to a stale move
            frames.append(receive(ws))
    assert {frame["type"] for frame in frames} >= {"sync", "state", "ack", "stale"}
    for frame in frames:
        validator.validate(frame)
    assert all("svg" in frame for frame in frames if frame["type"] in ("sync", "state"))
    validator.validate({"type": "hello", "seat": 0, "token": token})
    validator.validate({"type": "move", "seq": 3, "move": "9-5@3"})
    assert parse_message('{"type": "move", "seq": 3, "move": "9-5@3"}').seq == 3


def test_limits_are_a_value() -> None:
    assert FAST.message_bytes == Limits().message_bytes


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    limits = attrs.evolve(FAST, hello_seconds=0.2)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        game, _ = create(client, ["random", "greedy"])
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            closed = closing(ws)
    assert closed.code == 4400
    assert "no hello within 0.2 seconds" in closed.reason


def test_a_game_takes_a_bounded_number_of_spectators_and_its_seats_always_get_in(tmp_path: Path) -> None:
    limits = attrs.evolve(FAST, spectators_per_game=2)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        game, invites = create(client, ["human", "human"])
        tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
        with (
            client.websocket_connect(f"/api/games/{game}/ws") as a,
            client.websocket_connect(f"/api/games/{game}/ws") as b,
        ):
            hello(a, None)
            hello(b, None)
            with client.websocket_connect(f"/api/games/{game}/ws") as c:
                c.send_text('{"type": "hello", "seat": null}')
                closed = closing(c)
            for seat in (0, 1):  # the spectators are as many as the game takes: the seats come in all the same
                with client.websocket_connect(f"/api/games/{game}/ws") as ws:
                    assert hello(ws, seat, tokens[seat])["seat"] == seat
    assert closed.code == 1013
    assert "2 spectators at most" in closed.reason


def test_a_seat_opened_once_too_often_closes_its_oldest_connection(tmp_path: Path) -> None:
    limits = attrs.evolve(FAST, connections_per_seat=2)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        game, invites = create(client, ["human", "human"])
        token = claim(client, game, 0, invites[0])
        with (
            client.websocket_connect(f"/api/games/{game}/ws") as oldest,
            client.websocket_connect(f"/api/games/{game}/ws") as second,
            client.websocket_connect(f"/api/games/{game}/ws") as newest,
        ):
            hello(oldest, 0, token)
            hello(second, 0, token)
            assert hello(newest, 0, token)["seat"] == 0
            closed = closing(oldest)
    assert closed.code == 4410
    assert "another window" in closed.reason


def test_a_client_too_slow_to_read_is_dropped_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def test() -> None:
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=attrs.evolve(FAST, backlog=3))
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["random", "random"])
            stuck = asyncio.Event()
            closes: list[tuple[int, str]] = []

            async def send(frame: str) -> None:
                await stuck.wait()  # a client that never reads

            async def close(code: int, reason: str) -> None:
                closes.append((code, reason))

            session = server.session(created.game, send, close)
            await session.receive('{"type": "hello", "seat": null}')
            table = server.tables[created.game]
            for _ in range(200):
                if session.is_closed:
                    break
                await asyncio.sleep(0.01)
            assert session.is_closed
            assert session not in table.sessions
            seq = table.seq
            for _ in range(200):
                if table.seq > seq:
                    break
                await asyncio.sleep(0.01)
            assert table.seq > seq  # the bots play on
            monkeypatch.setattr(server_session, "CLOSE_SECONDS", 0.1)
            await session.closed()  # the client reads nothing more: its last frames are dropped
            assert closes == []
            assert session._sender.done()
        finally:
            await server.close()

    asyncio.run(test())


def test_the_collector_freezes_what_survives_sweeps_cycles_and_leaves_nothing_frozen() -> None:
    import gc
    import weakref

    from chickenfoot.server._collector import freeze_survivors

    class Cycle:
        pass

    swept: list[str] = []

    def cycle(name: str) -> Cycle:
        made = Cycle()
        made.itself = made  # type: ignore[attr-defined]
        weakref.finalize(made, swept.append, name)
        return made

    async def frozen_until_cancelled() -> tuple[bool, bool]:
        freezer = asyncio.ensure_future(freeze_survivors(every=0.01, sweep_every=3600.0))
        while not gc.get_freeze_count():
            await asyncio.sleep(0.01)
        gc.disable()  # no collection but the freezer's may find the cycles
        try:
            cycle("garbage")  # unreachable already at the next freeze: collected, not frozen
            kept: Cycle | None = cycle("frozen")  # reachable at the next freeze: frozen with the rest
            before = gc.get_freeze_count()
            while gc.get_freeze_count() <= before:
                await asyncio.sleep(0.01)
            collected = swept == ["garbage"]
            kept = None
        finally:
            gc.enable()
        gc.collect()
        waits = swept == ["garbage"]  # frozen, then unreachable: it waits for the sweep, a collection does not see it
        freezer.cancel()
        await asyncio.gather(freezer, return_exceptions=True)
        return collected, waits and kept is None

    async def swept_in_time() -> None:
        freezer = asyncio.ensure_future(freeze_survivors(every=0.01, sweep_every=0.05))
        kept: Cycle | None = cycle("swept")
        while not gc.get_freeze_count():
            await asyncio.sleep(0.01)
        kept = None
        while "swept" not in swept:  # the sweep unfreezes everything and collects it
            await asyncio.sleep(0.01)
        freezer.cancel()
        await asyncio.gather(freezer, return_exceptions=True)
        assert kept is None

    assert gc.get_freeze_count() == 0
    assert asyncio.run(frozen_until_cancelled()) == (True, True)
    assert gc.get_freeze_count() == 0  # cancelled, it unfreezes everything
    gc.collect()
    assert swept == ["garbage", "frozen"]
    asyncio.run(asyncio.wait_for(swept_in_time(), 120))
    assert swept == ["garbage", "frozen", "swept"]
    assert gc.get_freeze_count() == 0


def test_an_app_freezes_the_heap_only_when_asked(tmp_path: Path) -> None:
    import gc

    from chickenfoot.server import create_app

    for asked in (False, True):
        app = create_app(GameServer(SQLiteStore(tmp_path / f"{asked}.sqlite3")), freeze_heap=asked)
        with TestClient(app) as client:
            for _ in range(25):  # 2.5 s: the app freezes what survives every second
                assert client.get("/api/options").status_code == 200
                if gc.get_freeze_count():
                    break
                time.sleep(0.1)
            assert (gc.get_freeze_count() > 0) is asked
        assert gc.get_freeze_count() == 0


def test_a_page_stops_reconnecting_where_it_would_fail_again_and_a_full_game_after_a_few_tries() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("the pages' close handling runs in node (CI installs it)")
    closes = Path(server_session.__file__).parent / "static" / "closes.js"
    script = (
        f"import {{ afterClose }} from {json.dumps(closes.as_uri())};"
        "const codes = [1001, 1006, 1008, 1013, 4401, 4404, 4410];"
        "console.log(JSON.stringify(codes.map((code) => [0, 1, 3, 4, 50].map((tries) => afterClose(code, tries)))));"
    )
    ran = subprocess.run([node, "--no-warnings", "--input-type=module", "-e", script], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    answers = dict(zip([1001, 1006, 1008, 1013, 4401, 4404, 4410], json.loads(ran.stdout), strict=True))
    for code in (1001, 1006, 1008):  # the network, a server stopping, a client too slow: again and again
        assert all("wait" in answer and answer["wait"] <= 4 for answer in answers[code])
    busy = answers[1013]  # a game as full as it takes: a few slow tries, then the page stops
    assert [answer.get("wait") for answer in busy[:3]] == [5, 15, 60]
    assert busy[3] == busy[4] == {"stop": True}
    for code in (4401, 4404, 4410):
        assert answers[code] == [{"stop": True}] * 5
