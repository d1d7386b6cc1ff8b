"""``chickenfoot serve``: the game server (:mod:`chickenfoot.server`) on this machine, from the command line."""

from __future__ import annotations

import errno
import shlex
import socket
import sqlite3
from pathlib import Path

import click

from .._io import why_missing

__all__ = ["serve"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _programs(items: tuple[str, ...]) -> dict[str, list[str]]:
    programs: dict[str, list[str]] = {}
    for item in items:
        name, equals, command = item.partition("=")
        name = name.strip()
        try:
            words = shlex.split(command)
        except ValueError as error:
            raise click.BadParameter(f"{item!r}: {error}", param_hint="'--program'") from None
        if not equals or not name or not words:
            raise click.BadParameter(
                f"write NAME=COMMAND (js='node examples/bots/heaviest.js'), got {item!r}", param_hint="'--program'"
            )
        if name in programs:
            raise click.BadParameter(f"{name!r} is named twice", param_hint="'--program'")
        programs[name] = words
    return programs


def _check_database(path: Path) -> None:
    """Fails with a clear message if ``path`` cannot hold the games (no such folder, not a database, read-only)."""
    if path.is_dir():
        raise click.BadParameter(f"{str(path)!r} is a folder: name a file, like games.sqlite3", param_hint="'--db'")
    if not path.parent.is_dir():
        raise click.BadParameter(
            f"the folder {str(path.parent)!r} does not exist: create it first", param_hint="'--db'"
        )
    try:
        connection = sqlite3.connect(path)
        try:
            connection.execute("PRAGMA schema_version").fetchone()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise click.BadParameter(f"{str(path)!r} cannot hold the games: {error}", param_hint="'--db'") from None


def _check_address(host: str, port: int) -> None:
    """Fails with a clear message if the server could not listen at ``host:port`` (a bad name, a port in use)."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise click.BadParameter(
            f"{host!r} is not an address of this machine: {error.strerror}", param_hint="'--host'"
        ) from None
    family, kind, protocol, _, address = addresses[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise click.BadParameter(
                    f"port {port} is in use: choose another with --port", param_hint="'--port'"
                ) from None
            raise click.BadParameter(
                f"cannot listen at {host}:{port}: {error.strerror}", param_hint="'--host'"
            ) from None


@click.command(context_settings=CONTEXT)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="The address to listen at (0.0.0.0: every network)."
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port to listen at.")
@click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path),
    default=Path("chickenfoot-games.sqlite3"),
    show_default=True,
    help="The SQLite file keeping the games (created if missing); unfinished games resume from it.",
)
@click.option(
    "--postgres",
    "postgres_dsn",
    metavar="DSN",
    default=None,
    help="Keep the games in PostgreSQL instead (postgresql://user@host/db; needs the postgres extra).",
)
@click.option("--origin", "origins", multiple=True, metavar="URL", help="Also allow pages from URL (repeatable).")
@click.option(
    "--program",
    "programs",
    multiple=True,
    metavar="NAME=COMMAND",
    help="Offer a program bot (the bot protocol) as NAME (repeatable): js='node heaviest.js'.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 60),
    default=0.5,
    show_default=True,
    help="Seconds a bot waits before it moves.",
)
@click.option(
    "--compression/--no-compression",
    default=True,
    show_default=True,
    help="Compress WebSocket frames; --no-compression saves the work where bandwidth is free (a LAN).",
)
@click.option("--quiet", "-q", is_flag=True, help="Log warnings only (no request log).")
def serve(
    host: str,
    port: int,
    db_path: Path,
    postgres_dsn: str | None,
    origins: tuple[str, ...],
    programs: tuple[str, ...],
    bot_delay: float,
    compression: bool,
    quiet: bool,
) -> None:
    """Serve games to browsers and bots: create one at http://HOST:PORT/, share its seats' links.

    Moves are stored (committed) before anyone sees them, so a restarted server resumes every
    unfinished game. Listens on this machine only unless --host says otherwise.
    """
    missing = why_missing("chickenfoot.server") or (why_missing("psycopg") if postgres_dsn else None)
    if missing:
        raise click.UsageError(missing)
    for origin in origins:
        if not origin.startswith(("http://", "https://")) or "/" in origin.split("://", 1)[1].rstrip("/"):
            raise click.BadParameter(
                f"an origin is a scheme and a host, like https://play.example.org; got {origin!r}",
                param_hint="'--origin'",
            )
    bots = _programs(programs)
    from ..server import GameServer, PostgresStore, SQLiteStore, Store, serve as run

    _check_address(host, port)
    store: Store = PostgresStore(postgres_dsn) if postgres_dsn else SQLiteStore(db_path)
    try:
        server = GameServer(store, programs=bots, bot_delay=bot_delay)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--program'") from None
    # Last, because it creates the file: a refused option leaves nothing behind.
    if not postgres_dsn:
        _check_database(db_path)
    click.echo(
        f"chickenfoot: serving games at http://{host}:{port}/ (keeping them in {store!r}); Ctrl-C stops", err=True
    )
    run(
        server,
        host,
        port,
        origins=origins,
        log_level="warning" if quiet else "info",
        access_log=not quiet,
        compression=compression,
    )
