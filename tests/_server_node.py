"""A server node in a process of its own, for the tests that need a real uvicorn (deadlines, kills, several nodes).

``python tests/_server_node.py STORE PORT SETTINGS`` serves games from ``STORE`` (a SQLite file
or a PostgreSQL DSN) at 127.0.0.1:PORT, ``SETTINGS`` a JSON object: ``limits`` (fields of
:class:`~chickenfoot.server.Limits`), ``lease`` (seconds), ``bot_delay``, ``owner`` and
``origins``. :class:`Node` starts one, waits until it answers, and stops or kills it.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

STARTUP_SECONDS = 60  # generous: two busy cores may start Python slowly
SRC = Path(__file__).resolve().parent.parent / "src"


def free_port() -> int:
    """Finds a free port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


POSTGRES = os.environ.get("CHICKENFOOT_TEST_POSTGRES")
"""A PostgreSQL DSN the tests may create databases through (``scripts/postgres.sh`` starts a cluster)."""


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """Creates a fresh database on ``CHICKENFOOT_TEST_POSTGRES``'s cluster, gives its DSN, and drops it after."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    assert POSTGRES is not None
    name = f"chickenfoot_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield make_conninfo(POSTGRES, dbname=name)
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


class Node:
    """A server node process on 127.0.0.1: started by :meth:`start`, stopped by :meth:`stop` or :meth:`kill`."""

    def __init__(self, store: str, log: Path, **settings: Any) -> None:
        self.store, self.log, self.settings = store, log, settings
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Node:
        """Starts the node and returns once it answers (failing the test if it does not within a minute)."""
        import chickenfoot as cf

        env = {**os.environ, "PYTHONPATH": str(Path(cf.__file__).resolve().parents[1]), "PYTHONUNBUFFERED": "1"}
        command = [sys.executable, __file__, self.store, str(self.port), json.dumps(self.settings)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the node stopped at start-up:\n{self.output()}")
            try:
                self.request("/api/options")
                return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the node did not answer within {STARTUP_SECONDS} s:\n{self.output()}")

    def output(self) -> str:
        """Gets the end of what the node wrote."""
        return self.log.read_text(errors="replace")[-5000:]

    def request(self, path: str, body: object | None = None, headers: dict[str, str] | None = None) -> Any:
        """Sends one HTTP request (JSON in, JSON out); an HTTP error answers with its JSON too."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"content-type": "application/json", **(headers or {})} if body is not None else dict(headers or {})
        try:
            request = urllib.request.Request(self.url + path, data=data, headers=sent)
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return {"status": error.code, **json.loads(error.read())}

    def stop(self) -> int:
        """Stops the node (SIGTERM) and gets its exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(60)
        finally:
            self.process = None

    def kill(self) -> None:
        """Kills the node at once (SIGKILL): nothing is flushed or closed politely."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(60)
            self.process = None


def _serve(store: str, port: int, settings: dict[str, Any]) -> None:
    from chickenfoot.server import GameServer, Limits, PostgresStore, SQLiteStore, Store, serve

    owner = settings.get("owner")
    postgres = store.startswith("postgresql://") or "dbname=" in store
    kept: Store = PostgresStore(store, owner=owner) if postgres else SQLiteStore(store, synchronous="NORMAL")
    server = GameServer(
        kept,
        limits=Limits(**settings.get("limits", {})),
        lease_seconds=settings.get("lease", 10.0),
        bot_delay=settings.get("bot_delay", 0.0),
        bot_workers=1,
    )
    serve(server, "127.0.0.1", port, origins=settings.get("origins"), log_level="warning", access_log=False)


if __name__ == "__main__":
    _serve(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]))
