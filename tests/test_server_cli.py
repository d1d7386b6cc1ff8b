"""``chickenfoot serve``: its option errors, and a real server process that a client plays a game on."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import attrs
import pytest

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")
skip_module_unless_importable("chickenfoot.cli._app", "the command line")

from websockets.sync.client import connect  # noqa: E402

import chickenfoot as cf  # noqa: E402
from chickenfoot.cli import main  # noqa: E402


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "70000"], "70000 is not in the range"),
        (["--store", "/nonexistent/games.sqlite3"], "does not exist: create it first"),
        (["--origin", "play.example.org"], "an origin is a scheme and a host"),
        (["--program", "js"], "write NAME=COMMAND"),
        (["--program", "greedy=ls"], "must not be 'human' or a built-in bot's"),
        (["--program", "a=x", "--program", "a=y"], "'a' is named twice"),
        (["--host", "no.such.host.invalid"], "is not an address of this machine"),
        (["--bot-delay", "-1"], "-1"),
        (["--bogus"], "No such option"),
    ],
)
def test_bad_options_are_refused_saying_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = run(capsys, "serve", *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == [], "a refused start must not create the default games file"


def test_a_file_that_is_not_a_database_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the games you are looking for\n" * 100)
    code, err = run(capsys, "serve", "--store", str(path))
    assert code == 2
    assert "cannot hold the games: file is not a database" in err


def test_a_port_in_use_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, err = run(capsys, "serve", "--port", str(port), "--store", str(tmp_path / "games.sqlite3"))
    assert code == 2
    assert f"port {port} is in use" in err


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def request(url: str, body: object | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} if body is not None else {}
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize(("options", "compressed"), [([], True), (["--no-compression"], False)])
def test_a_served_game_is_played_to_the_end_and_kept(tmp_path: Path, options: list[str], compressed: bool) -> None:
    port, db = free_port(), tmp_path / "games.sqlite3"
    command = [
        sys.executable,
        "-m",
        "chickenfoot",
        "serve",
        "--port",
        str(port),
        "--store",
        str(db),
        "--bot-delay",
        "0",
        "-q",
        *options,
    ]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # up to a minute for the server to start, on a busy machine
            try:
                options = request(f"{base}/api/options")
                break
            except OSError:
                assert server.poll() is None, server.communicate()[1]
                time.sleep(0.1)
        assert "greedy" in options["bots"]
        double_six = json.loads(cf.to_json(attrs.evolve(cf.Rules.trains(), max_pip=6)))  # a shorter game
        created = request(f"{base}/api/games", {"rules": double_six, "seats": ["human", "greedy"]})
        invite = created["seats"][0]["link"].partition("#")[2]
        token = request(f"{base}/api/games/{created['game']}/seats/0", {"invite": invite})["token"]
        with connect(f"ws://127.0.0.1:{port}/api/games/{created['game']}/ws", open_timeout=30) as ws:
            # The client offers compressed frames; the server takes them unless told not to.
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
            assert ("permessage-deflate" in extensions) is compressed
            ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
            sent = -1
            while True:
                frame = json.loads(ws.recv(timeout=30))
                if frame["type"] in ("sync", "state"):
                    view = frame["view"]
                    if view["is_over"]:
                        break
                    if view["current_player"] == 0 and frame["seq"] != sent:
                        sent = frame["seq"]
                        time.sleep(0.06)  # as a person would: the server allows 20 messages a second
                        ws.send(json.dumps({"type": "move", "seq": sent, "move": view["legal_moves"][0]}))
        with urllib.request.urlopen(f"{base}/api/games/{created['game']}/record", timeout=30) as answer:
            record = cf.from_json(answer.read().decode(), cf.GameRecord)
        assert cf.replay(record)[-1].is_over
    finally:
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    assert server.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err, err
    connection = sqlite3.connect(db)
    moves = connection.execute("SELECT count(*) FROM moves").fetchone()[0]
    finished = connection.execute("SELECT finished FROM games").fetchone()[0]
    connection.close()
    assert moves == len(record.moves)
    assert finished == 1


def test_pages_of_the_bound_address_only_may_use_the_server_and_stopping_it_closes_with_1001(tmp_path: Path) -> None:
    from websockets.exceptions import ConnectionClosed

    port = free_port()
    command = [
        sys.executable,
        "-m",
        "chickenfoot",
        "serve",
        "--port",
        str(port),
        "--store",
        str(tmp_path / "g.db"),
        "-q",
    ]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                request(f"{base}/api/options")
                break
            except OSError:
                assert server.poll() is None, server.communicate()[1]
                time.sleep(0.1)
        body = json.dumps({"seats": ["random", "random"]}).encode()
        answers = []
        for origin, host in ((f"http://127.0.0.1:{port}", None), ("http://attacker.example", "attacker.example")):
            headers = {"content-type": "application/json", "origin": origin, **({"host": host} if host else {})}
            sent = urllib.request.Request(f"{base}/api/games", body, headers)
            try:
                with urllib.request.urlopen(sent, timeout=30) as answer:
                    answers.append((answer.status, json.loads(answer.read())))
            except urllib.error.HTTPError as error:
                answers.append((error.code, json.loads(error.read())))
        assert [status for status, _ in answers] == [201, 403]
        assert "may not use this server" in answers[1][1]["error"]
        game = answers[0][1]["game"]
        with connect(f"ws://127.0.0.1:{port}/api/games/{game}/ws", open_timeout=30) as ws:
            ws.send('{"type": "hello", "seat": null}')
            assert json.loads(ws.recv(timeout=30))["type"] == "sync"
            server.send_signal(signal.SIGTERM)
            with contextlib.suppress(ConnectionClosed):
                while True:  # the frames of the bots' moves, until the close
                    ws.recv(timeout=30)
            assert ws.close_code == 1001
            assert "reconnect in a moment" in (ws.close_reason or "")
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    assert "Traceback" not in err, err
